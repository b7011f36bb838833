"""The domain: cards, records, and the rules of each game."""
