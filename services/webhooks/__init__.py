"""The webhook sender: notices POSTed, signed, to a platform (service.py)."""
