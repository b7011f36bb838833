"""Bridge game and deal records (``../shared/spec/records.md`` 1.1-1.2).

A game lists its four players in turn order N, E, S, W. ``bridge-rubber`` games are rubber
sessions (or Chicago, ``rules.mode``); ``bridge-duplicate`` games hold table results of boards,
each deal with its ``board`` and ``vulnerable``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from model.base import (
    CardName,
    DealBase,
    GameBase,
    Integer,
    PlayerName,
    check_card_names,
    check_seats,
    spelled,
)
from model.bridge import auction
from model.bridge.params import BridgeRules
from model.bridge.seats import Vulnerable

BridgeTricks = Annotated[Integer, Field(ge=0, le=13)]
"""Tricks of a 13-trick deal."""

BridgeContract = Annotated[
    str, spelled("a contract: 1 to 7 and C, D, H, S or NT, then X or XX if doubled (4S, 3NTX)",
                 r"^[1-7](C|D|H|S|NT)(X|XX)?$", strip_whitespace=True, any_case=True)
]
"""``<level><C|D|H|S|NT>[X|XX]`` (records.md 1.2); read in any case (``3nt``, ``4sx``), stored in
capitals."""

Honours = Literal[100, 150]


class BridgeGame(GameBase):
    variant: Literal["bridge-rubber", "bridge-duplicate"]
    rules: BridgeRules = BridgeRules()

    @model_validator(mode="after")
    def _seats(self) -> BridgeGame:
        check_seats("bridge (N, E, S, W)", self.players, (4,))
        return self


class BridgeDeal(DealBase):
    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(auction.spelled_call)

    contract: BridgeContract | None = None
    """``None`` with no declarer: passed out."""
    tricks: BridgeTricks | None = None
    """Tricks taken by the declarer's side (the result the source states)."""
    board: Annotated[Integer, Field(ge=1)] | None = None
    vulnerable: Vulnerable | None = None
    """PBN value; ``None``: from the board number (duplicate) or the rubber state."""
    claim: BridgeTricks | None = None
    """Declarer's total tricks agreed at a claim, when the play stops before trick 13."""
    lead: CardName | None = None
    """The opening lead, as a traveller records it (checked against ``play`` when both exist)."""
    honours: dict[PlayerName, Honours] | None = None
    """Honours held (rubber, 4.6): player -> 100 or 150; computed from ``hands`` when present."""
    score_ns: Integer | None = None
    """The North-South score the source states (PBN ``Score``, a traveller): checked."""
    ns_pair: str | None = None
    ew_pair: str | None = None
    match: str | None = None
    """The match (team pairing or segment) a board was played in: IMPs compare its rooms."""
    room: str | None = None
    ns_team: str | None = None
    """The team of the N-S pair in a teams match (the file's team names: PBN ``HomeTeam`` and
    ``VisitTeam`` by room, LIN ``vg``); ``None`` in a pairs event."""
    ew_team: str | None = None
    """The team of the E-W pair in a teams match; ``None`` in a pairs event."""
    unplayed: bool = False
    """A dealt or solved deal without auction or result (DDS hand files): kept, not scored."""
    dd_table: dict[str, BridgeTricks] | None = None
    """Double-dummy tricks the source states, by ``<denomination>_<declarer seat>`` (``NT_N``)."""
    par_ns: Integer | None = None
    """Par score (NS view) the source states."""
    irregular: bool = False
    """The source marks the result as irregular (PBN ``^`` prefix, 3.9): e.g. a ruling."""
    alerts: dict[int, str] | None = None
    """Alert or note text by 0-based index of the call in ``auction``."""

    @field_validator("lead")
    @classmethod
    def _lead(cls, lead: str | None) -> str | None:
        if lead is not None:
            check_card_names((lead,))
        return lead

    @model_validator(mode="after")
    def _shape(self) -> BridgeDeal:
        if self.talon or self.discard:
            raise ValueError("bridge has no talon or discard")
        if self.unplayed:
            for name in ("declarer", "contract", "tricks", "claim", "play", "lead", "auction"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given for an unplayed deal")
            return self
        if self.declarer is None:
            for name in ("contract", "tricks", "claim", "play", "lead"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given but nobody declared (passed out)")
            return self
        if self.contract is None:
            raise ValueError("a declarer needs a contract")
        if self.tricks is None:
            raise ValueError("a played contract needs its result: tricks (declarer's side)")
        return self
