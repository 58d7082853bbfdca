"""Chinese-first text handling: normalisation for matching."""
