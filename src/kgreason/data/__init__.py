"""Task data: typed records, JSON reading/writing, loaders and validation."""
