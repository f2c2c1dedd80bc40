"""The gateway: players' HTTP and WebSocket edge (sign-in, lobby, play, live, quick play)."""
