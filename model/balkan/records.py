"""Balkan preferans game and deal records (``../shared/spec/records.md`` 1.1-1.2).

A deal with a declarer carries the PPN contract code (``2``..``7``, ``8`` with ``preferans_bid``,
``G`` prefix for igra), each defender's decision and, where a defender doubled, the length of his
kontra chain (``kontra: {"Ana": 2}`` = kontra + rekontra). ``tricks`` is omitted when nobody
played: both defenders passed, or plain Pik was not kontra'd (balkan.md 5.3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from model.balkan import auction
from model.balkan.params import BalkanRules
from model.base import DealBase, GameBase, Integer, PlayerName, TrickCount, check_seats, spelled

BalkanContract = Annotated[
    str, spelled("a contract code: 2 to 8, with G before it for igra (2, 5, G3)", r"^G?[2-8]$",
                 strip_whitespace=True, any_case=True)
]
"""The PPN contract code: ``2``..``7`` (``8`` with ``preferans_bid``), ``G`` = igra (records.md
1.2); read in any case (``g3``), stored in capitals."""

Decision = Literal["play", "pass", "invite", "alone"]
"""A defender's decision (balkan.md 5.1): both ``play``; one ``invite``s the other (recorded as
``pass``, he still plays) or plays ``alone`` (the other ``pass``es and sits out); both ``pass``.
A kontra by the only playing defender is an invitation (5.3): record him as ``invite``."""


class BalkanGame(GameBase):
    variant: Literal["balkan"]
    rules: BalkanRules = BalkanRules()

    @field_validator("rules", mode="before")
    @classmethod
    def _preset(cls, rules: Any) -> Any:
        """``{"preset": "serbian-club", "start_bula": 100}``: a named preset plus overrides."""
        if isinstance(rules, dict) and "preset" in rules:
            flags = {k: v for k, v in rules.items() if k != "preset"}
            return BalkanRules.preset(str(rules["preset"]), **flags)
        return rules

    @model_validator(mode="after")
    def _seats(self) -> BalkanGame:
        check_seats("Balkan preferans", self.players, (3, 4), self.rules.four_players)
        return self


class BalkanDeal(DealBase):
    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(auction.spelled_call)

    contract: BalkanContract | None = None
    defence: dict[PlayerName, Decision] | None = None
    kontra: dict[PlayerName, Annotated[Integer, Field(ge=1, le=20)]] | None = None
    """Doubling calls exchanged with each defender: 1 kontra, 2 rekontra, 3 subkontra, 4
    mortkontra, ... (balkan.md 5.3)."""
    tricks: dict[PlayerName, TrickCount] | None = None
    refa: bool | None = None
    """Played under the declarer's refa, as the source wrote it (PPN field 10). The settlement
    decides from the game's running refe; the PPN reader checks a recorded flag against it."""
    value: Annotated[Integer, Field(ge=0)] | None = None
    """Value after igra, refa and kontra as the source wrote it (PPN field 11); the PPN reader
    checks it against the settlement."""
    repealed: bool = False
    """Crossed out on the sheet: kept for the record, scores nothing and uses no refa."""

    @model_validator(mode="after")
    def _shape(self) -> BalkanDeal:
        if self.declarer is None:
            for name in ("contract", "defence", "kontra", "tricks", "discard", "play", "refa"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given but nobody declared (declarer is null)")
            return self
        if self.contract is None:
            raise ValueError("a declarer needs a contract")
        if self.defence is None:
            raise ValueError("a declarer needs the defenders' decisions (defence)")
        return self
