"""Pure, deterministic building blocks shared by every game: tiles and cards, seeded
dealing, the engine contract, the arrangement solver and replay."""
