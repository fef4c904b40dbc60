"""Practice tables: full rounds with virtual chips beside bots, every decision graded; the
session's summary."""
