"""Computer players: they choose a decision from the rules engine's legal moves; no I/O."""
