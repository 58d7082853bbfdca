"""Text to KG: sentences, typed values, LLM triples with sentence provenance, names canonicalised per document
(`kgreason extract`, docs/extract.md)."""
