"""Index mappings as JSON data (versioned), read with importlib.resources."""
