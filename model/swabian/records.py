"""Swabian Preferanz game and deal records (``../shared/spec/records.md`` 1.1-1.2).

Swabian extras on a deal: ``hand: true`` for aus den Händen (swabian.md 3.2), ``contra`` per
defender (``"contra"`` or ``"recontra"``, section 5), ``kunstwerk: true`` when the talon was a
pair and the auction winner paid the dealer (section 4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import field_validator, model_validator

from model.base import DealBase, GameBase, PlayerName, TrickCount, check_seats, spelled
from model.swabian import auction
from model.swabian.params import SwabianRules

SwabianContract = Annotated[str, spelled("a game number 2 to 7", r"^[2-7]$",
                                          strip_whitespace=True)]
"""The game number ``2``..``7`` (swabian.md 3.1); an integer in the input is read as its text."""

ContraCall = Literal["contra", "recontra"]
"""A defender's announcement (5): ``contra`` doubles the stake between him and the declarer,
``recontra`` (the declarer's answer) makes it four times."""

CONTRA_FACTOR = {None: 1, "contra": 2, "recontra": 4}
"""k_i of swabian.md 5 and 7."""


class SwabianGame(GameBase):
    variant: Literal["swabian"]
    rules: SwabianRules = SwabianRules()

    @model_validator(mode="after")
    def _seats(self) -> SwabianGame:
        check_seats("Swabian Preferanz (swabian.md 1)", self.players, (3,))
        return self


class SwabianDeal(DealBase):
    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(auction.spelled_call)

    contract: SwabianContract | None = None
    hand: bool = False
    """Aus den Händen: played without the talon, one more trick in games 2-5 (3.2)."""
    contra: dict[PlayerName, ContraCall] | None = None
    """Defenders who said Contra; ``recontra`` when the declarer answered him (5). Absent = none."""
    kunstwerk: bool = False
    """The talon was a pair: the auction winner paid the dealer (4)."""
    defence: dict[PlayerName, Literal["play"]] | None = None
    """Optional: the declarer always plays against both (6), so only ``play`` is possible."""
    tricks: dict[PlayerName, TrickCount] | None = None

    @field_validator("contract", mode="before")
    @classmethod
    def _contract_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _shape(self) -> SwabianDeal:
        if self.declarer is None:
            for name in ("contract", "contra", "defence", "discard", "tricks", "play"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given but nobody declared (declarer is null)")
            if self.hand or self.kunstwerk:
                raise ValueError("hand / kunstwerk need a declarer (swabian.md 11 S6)")
            return self
        if self.contract is None:
            raise ValueError("a declarer needs a contract (game number 2..7)")
        if self.tricks is None:
            raise ValueError("a declarer needs the tricks of the play (tricks)")
        if self.hand and self.discard:
            raise ValueError("aus den Händen sets the talon aside: there is no discard "
                             "(swabian.md 3.2)")
        return self
