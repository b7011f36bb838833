"""What can be wrong with an input record: a small enum of codes and a problem with a message.

Readers and validators never raise on bad input; they report a ``Problem`` (what) that the ingest
stage turns into an ``Issue`` (what + where: source, line, record key) and a quarantine row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")


class Code(StrEnum):
    # reading
    PARSE = "parse"
    """The text is not a record of the format (bad JSON, wrong number of CSV fields, ...)."""
    SCHEMA = "schema"
    """The record does not match the schema (missing or mistyped field, unknown field)."""
    UNKNOWN_RECORD = "unknown-record"
    UNKNOWN_VARIANT = "unknown-variant"
    UNKNOWN_GAME = "unknown-game"
    """A deal whose game line was never seen (in this file or an earlier ingest)."""
    GAME_CONFLICT = "game-conflict"
    """A game line whose id is stored with different content."""
    DEAL_CONFLICT = "deal-conflict"
    """A deal number of a game already stored with different content."""
    # rules
    UNKNOWN_PLAYER = "unknown-player"
    ILLEGAL_CONTRACT = "illegal-contract"
    ILLEGAL_DEFENCE = "illegal-defence"
    TRICK_COUNT = "trick-count"
    GAME_OVER = "game-over"
    """A deal after the game ended (every kassa empty, bula at zero, ...)."""
    # cards
    DECK = "deck"
    """Hands and talon do not partition the deck."""
    AUCTION = "auction"
    CONTRACT_NOT_ALLOWED = "contract-not-allowed"
    DISCARD = "discard"
    ILLEGAL_CARD = "illegal-card"
    REPLAY_MISMATCH = "replay-mismatch"
    """Replaying the play does not give the recorded tricks."""
    SCORE_MISMATCH = "score-mismatch"
    """A score written in the source disagrees with our settlement."""


@dataclass(frozen=True, slots=True)
class Problem:
    code: Code
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def counted(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``, ``1,200 deals``: a count as messages, pages and commands say it."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def by_player(values: Mapping[str, object] | None) -> str:
    """A value per player as a message says it: ``Anna 5, Boris 3, Chris 3`` (``none`` when
    there is none), not a Python dict."""
    return ", ".join(f"{p} {v}" for p, v in (values or {}).items()) or "none"


def once_per_input(run: Callable[..., T], error: type[Exception]) -> Callable[..., T | Exception]:
    """``run`` judged once per distinct (hashable) arguments: its result, or the ``error`` it
    raised (returned, not raised). A verdict that depends on nothing but its arguments (an
    auction: its calls, seating and rules) is the same each time a file repeats them."""

    @lru_cache(maxsize=1 << 16)
    def once(*args: Any) -> T | Exception:
        try:
            return run(*args)
        except error as exc:
            return exc

    return once
