"""Who is in a deal, who leads and who defends (russian.md 1, 2, 3, 4).

Seats are indices into the game's ``players`` (turn order, clockwise). With four players the dealer
sits out (1); the three in the deal, in turn order from first hand (dealer's left), are the
bidders, the players and the trick takers.
"""

from __future__ import annotations


def in_deal(n: int, dealer: int) -> tuple[int, int, int]:
    """The three seats in the deal from first hand on (1, 2: "starts with first hand")."""
    first = (dealer + 1) % n
    return first, (first + 1) % n, (first + 2) % n


def first_hand(n: int, dealer: int) -> int:
    """Dealer's left: he bids first and leads the first trick in every deal (2, 4)."""
    return (dealer + 1) % n


def defenders(n: int, dealer: int, declarer: int) -> tuple[int, int]:
    """The declarer's opponents in the order they speak, from his left (3)."""
    seats = in_deal(n, dealer)
    at = seats.index(declarer)
    return seats[(at + 1) % 3], seats[(at + 2) % 3]


def next_dealer(n: int, dealer: int) -> int:
    """The deal passes to the left (1): with four players the next to sit out."""
    return (dealer + 1) % n
