"""The published contracts: command and reply messages, the AsyncAPI document."""
