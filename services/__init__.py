"""Processes, by role: commands/, readside/, client/, contracts/, infra/, cli/; compose.py
builds each of them from the settings."""
