"""The read side: the projector, the read models' schema and their reading, replay and
audit."""
