"""Pure rules: the game protocol, the Match aggregate and the games. No I/O here."""
