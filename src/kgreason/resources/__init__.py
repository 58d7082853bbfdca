"""Packaged artefacts: the trained relevance model (`relevance_mecha.npz`)."""
