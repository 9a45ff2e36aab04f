"""OpenD6 scenes: combat rounds as a value (pure; the session engine stores them)."""
