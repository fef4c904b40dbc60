"""The rules: each preset's rules and rule document, its exact chart, the chart of the player's
own drill rules, and the rules lab."""
