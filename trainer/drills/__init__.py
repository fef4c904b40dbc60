"""Drills: a decision dealt by the server, answered, and graded against the exact strategy of
the player's rules; the drill settings; weak spots by spaced repetition."""
