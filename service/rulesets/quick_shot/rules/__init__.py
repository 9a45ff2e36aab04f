"""Quick Shot's rules: pure functions over frozen values, the dice passed in."""
