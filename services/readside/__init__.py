"""The read side: the projector, the read models it keeps, replay and audit."""
