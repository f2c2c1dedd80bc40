"""The client library for other Python services, and the random bots built on it."""
