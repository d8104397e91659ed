"""Analysis settings as JSON data (legal EN / IT analyzers, identifiers)."""
