"""Session formats kept as plain files (JSON, JSON Lines): one module per format."""
