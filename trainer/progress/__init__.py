"""Progress: a player's accuracy over time and cell by cell, every decision as CSV, and the bet
history."""
