"""The Swabian games: numbers 2..7, trumps, tricks required, names (swabian.md 3.1, 6).

The game number is at once the bid, the game and the payment unit. German-suited cards share the
project's encoding (``model/cards.py``): Laub (Leaves) = S, Eichel (Acorns) = C, Schellen (Bells)
= D, Herz (Hearts) = H.
"""

from __future__ import annotations

from model.cards import Suit

GAMES = (2, 3, 4, 5, 6, 7)
BETTEL, DURCHMARSCH = 6, 7

TRUMP: dict[int, int | None] = {
    2: Suit.SPADES,  # Laub
    3: Suit.DIAMONDS,  # Schellen
    4: Suit.HEARTS,  # Herz
    5: Suit.CLUBS,  # Eichel
    BETTEL: None,
    DURCHMARSCH: None,
}
"""Trump suit of each game; Bettel and Durchmarsch are played without trumps (6)."""

NAME = {
    2: "Laub",
    3: "Schellen",
    4: "Herz",
    5: "Eichel",
    BETTEL: "Bettel",
    DURCHMARSCH: "Durchmarsch",
}

REQUIRED = {2: 7, 3: 6, 4: 6, 5: 6, BETTEL: 0, DURCHMARSCH: 10}
"""Tricks required with the talon (3.1): at least, except Bettel (exactly 0)."""


class GameError(ValueError):
    """Not a Swabian game number; quotes the text."""


def parse_game(text: str | int) -> int:
    """``"4"`` or ``4`` -> 4; anything outside 2..7 is an error."""
    s = str(text).strip()
    if s.isdigit() and int(s) in GAMES:
        return int(s)
    raise GameError(f"not a Swabian game: {text!r} (2 Laub ... 5 Eichel, 6 Bettel, 7 Durchmarsch)")


def required(game: int, hand: bool) -> int:
    """Tricks the declarer needs (3.1): one more in games 2-5 aus den Händen (8 pseudo-code)."""
    return REQUIRED[game] + (1 if hand and game <= 5 else 0)


def is_suit_game(game: int) -> bool:
    return game <= 5


def won(game: int, hand: bool, tricks: int) -> bool:
    """Did the declarer make his game with ``tricks`` (7, 8)?"""
    if game == BETTEL:
        return tricks == 0
    if game == DURCHMARSCH:
        return tricks == 10
    return tricks >= required(game, hand)


def label(game: int, hand: bool) -> str:
    """``"4 Herz"``, ``"5 Eichel aus den Händen"``: the form a person reads."""
    return f"{game} {NAME[game]}" + (" aus den Händen" if hand else "")
