"""The rematch process: opens each agreed rematch (services/rematch/service.py)."""
