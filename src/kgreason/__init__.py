"""kgreason: explainable multi-hop reasoning over knowledge graphs extracted from text."""

__version__ = "0.1.0"
