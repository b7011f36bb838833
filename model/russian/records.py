"""Russian preferans game and deal records (``../shared/spec/records.md`` 1.1-1.2).

A contract deal names its ``declarer``, ``contract`` and each defender's ``defence`` (``whist``,
``pass``, ``half``); ``open: true`` when the single whister played with both defenders' hands face
up ("light", 3). A misère names no defence (it is not whisted, 3). A raspasy deal (all pass, 7)
has no declarer and the ``tricks`` of the three players in the deal. With four players the dealer
sits out (1): he declares, defends, holds and plays nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, model_validator

from model.base import DealBase, GameBase, PlayerName, TrickCount, check_seats, spelled
from model.russian import auction
from model.russian.params import RussianRules


def _as_the_grammar_writes(value: Any) -> Any:
    """A contract's text without the spaces around it, its ASCII letters in capitals (``ſ``,
    which Python's ``upper`` makes an ``S``, is no suit), and misère in any case, with its accent
    or without, as ``misere``."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.lower() in ("misere", "misère"):
        return "misere"
    return text.upper() if text.isascii() else text


RussianContract = Annotated[
    str, spelled("a contract: 6 to 10 and S, C, D, H or NT (6S, 7NT, 10H), or misere",
                 r"^((6|7|8|9|10)(S|C|D|H|NT)|misere)$"),
    BeforeValidator(_as_the_grammar_writes),
]
"""``<tricks><S|C|D|H|NT>`` (``6S`` ... ``10NT``) or ``misere`` (records.md 1.2); read in any
case (``6s``, ``Misère``), stored as written here."""

Defence = Literal["whist", "pass", "half"]
"""A defender's final word (3): after a half-whist that the first opponent answered by
retrieving his whist, the record says ``whist`` for him and ``pass`` for the other."""

class RussianGame(GameBase):
    variant: Literal["russian"]
    rules: RussianRules = RussianRules()

    @model_validator(mode="after")
    def _seats(self) -> RussianGame:
        check_seats("Russian preferans (russian.md 1)", self.players, (3, 4))
        return self


class RussianDeal(DealBase):
    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(auction.spelled_call)

    contract: RussianContract | None = None
    defence: dict[PlayerName, Defence] | None = None
    open: bool = False
    """The single whister played open ("в светлую", 3)."""
    tricks: dict[PlayerName, TrickCount] | None = None

    @model_validator(mode="after")
    def _shape(self) -> RussianDeal:
        if self.declarer is None:
            for name in ("contract", "defence", "discard"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given but nobody declared (raspasy, russian.md 7)")
            if self.tricks is None:
                raise ValueError("a raspasy deal (no declarer) needs the tricks of each player "
                                 "(russian.md 7)")
            if self.open:
                raise ValueError("open play needs a whister (russian.md 3)")
            return self
        if self.contract is None:
            raise ValueError("a declarer needs a contract (6S ... 10NT or misere)")
        if self.contract == "misere":
            if self.defence is not None and set(self.defence.values()) != {"pass"}:
                raise ValueError("misère is not whisted (russian.md 3): drop defence")
            if self.tricks is None:
                raise ValueError("a misère is played: give the tricks (russian.md 4)")
            return self
        if self.defence is None:
            raise ValueError("a contract needs each defender's decision (defence: whist/pass/half)")
        return self
