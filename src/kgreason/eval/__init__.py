"""The official score (spec 000 section 3) and the Mecha-QA paper's metrics."""
