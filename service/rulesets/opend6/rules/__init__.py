"""OpenD6 rules: pure, the RNG passed in."""
