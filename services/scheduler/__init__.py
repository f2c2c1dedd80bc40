"""The scheduler: sends TimeExpired when a seat's turn clock runs out (service.py)."""
