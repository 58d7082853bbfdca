"""Entity linking, embeddings and triple relevance scoring."""
