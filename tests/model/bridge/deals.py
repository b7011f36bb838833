"""A hand-made deal for the rule tests: each player holds one suit.

N holds the spades, E the hearts, S the diamonds, W the clubs. In 7S by North, East leads (left of
declarer, bridge.md 3) a heart; North ruffs every trick, so declarer takes all 13.
"""

from __future__ import annotations

from typing import Any

from model.bridge.records import BridgeDeal, BridgeGame

PLAYERS = ("Nora", "Emil", "Sara", "Walt")
RANKS = "AKQJT98765432"
HANDS = {
    "Nora": [r + "S" for r in RANKS],
    "Emil": [r + "H" for r in RANKS],
    "Sara": [r + "D" for r in RANKS],
    "Walt": [r + "C" for r in RANKS],
}


def game(variant: str = "bridge-duplicate", **rules: Any) -> BridgeGame:
    return BridgeGame(game_id="g", variant=variant, players=PLAYERS, rules=rules, event="club")


def deal(**fields: Any) -> BridgeDeal:
    data: dict[str, Any] = {"game_id": "g", "deal_no": 1, "dealer": "Nora", "board": 1}
    data.update(fields)
    return BridgeDeal.model_validate(data)


def full_play() -> list[list[str]]:
    """Trick 1: E AH, S 2D, W 2C, N 2S (ruff). Tricks 2-13: N leads spades A, K, ... down to 3;
    E discards hearts K..2, S diamonds 3..A, W clubs 3..A."""
    hearts = [r + "H" for r in RANKS[1:]]
    diamonds = [r + "D" for r in RANKS[::-1][1:]]
    clubs = [r + "C" for r in RANKS[::-1][1:]]
    spades = [r + "S" for r in RANKS[:12]]
    play = [["Emil", "AH"], ["Sara", "2D"], ["Walt", "2C"], ["Nora", "2S"]]
    for s, h, d, c in zip(spades, hearts, diamonds, clubs, strict=True):
        play += [["Nora", s], ["Emil", h], ["Sara", d], ["Walt", c]]
    return play
