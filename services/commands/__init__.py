"""The command service: the FastStream app and its application layer."""
