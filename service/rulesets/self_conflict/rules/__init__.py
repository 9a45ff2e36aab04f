"""Self/Conflict rules: pure functions over frozen values, the dice passed in."""
