"""Card counting: counting systems, true counts, effects of removal, ratings, index plays."""
