"""Bots: hand evaluation (``evaluate``) and card play (``play``) shared by the Preference games;
the bidding and defence decisions of each game live in its driver (``sim/greek.py`` ...)."""
