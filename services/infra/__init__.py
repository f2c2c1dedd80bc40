"""Infrastructure: the Redis connection, the embedded server, settings, logging."""
