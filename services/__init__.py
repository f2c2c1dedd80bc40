"""Processes: command service, projector, client library, CLI, embedded Redis, logging."""
