"""Running matches: seats, bot pacing, the action log and its persistence."""
