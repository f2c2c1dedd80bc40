"""The log: key names, envelopes, codecs, the event store contract, its in-memory twin and
its Redis implementation."""
