"""Persistence: sessions, matches as options + seed commitment + action log, records."""
