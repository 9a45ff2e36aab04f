"""*Quick Shot* (wiki, 2010): gambles on eight d8s, multi-actions and willpower bets, with
the dice model the service reconstructs from the published odds tables (D2)."""
