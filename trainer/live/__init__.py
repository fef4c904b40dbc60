"""Live tables: Deluxe tables several people share, changed under row locks and followed by
polling."""
