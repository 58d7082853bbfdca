"""Question analysis, candidate search, constraint checking and answer assembly."""
