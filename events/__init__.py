"""The log: envelopes, codecs, the event store contract and its Redis implementation."""
