"""Click command modules: each parses options, calls the library and renders."""
