"""Computer players. Each sees only an observation and the legal actions (DESIGN.md)."""
