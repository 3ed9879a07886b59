"""Where a move is stored: the move's own SQL (lock, insert, update) and the cache of game states."""
