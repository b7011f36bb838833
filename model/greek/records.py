"""Greek Prefa game and deal records (``../shared/spec/records.md`` 1.1-1.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, ClassVar, Literal

from pydantic import model_validator

from model.base import DealBase, GameBase, PlayerName, TrickCount, check_seats, spelled
from model.greek import auction
from model.greek.params import GreekRules

GreekContract = Annotated[
    str, spelled("a contract: 6 to 10 and S, C, D, H or NT (6S, 7NT, 10H)",
                 r"^(6|7|8|9|10)(S|C|D|H|NT)$", strip_whitespace=True, any_case=True)
]
"""``<tricks><S|C|D|H|NT>``: ``6S`` ... ``10H``; ``10NT`` only where the rules allow it (records.md
1.2); read in any case (``6s``), stored in capitals."""

Decision = Literal["play", "pass", "invite", "alone"]
"""A defender's final decision (greek-prefa.md 6.1): both ``play``; one ``invite``s the ``pass``er
or plays ``alone``; both ``pass``. After a counter-invitation the counter-inviter is recorded as
``invite`` and the other defender as ``pass``."""


class GreekGame(GameBase):
    variant: Literal["greek-prefa"]
    rules: GreekRules = GreekRules()

    @model_validator(mode="after")
    def _seats(self) -> GreekGame:
        check_seats("Greek Prefa", self.players, (3, 4), self.rules.four_players)
        return self


class GreekDeal(DealBase):
    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(auction.spelled_call)

    contract: GreekContract | None = None
    defence: dict[PlayerName, Decision] | None = None
    tricks: dict[PlayerName, TrickCount] | None = None
    four_aces: bool = False
    """The declarer announced all four aces after the discard (section 14 ``four_aces``)."""
    preliminary: bool = False
    """The declarer won the talon with the preliminary bid "I'll take" (section 4.2)."""
    conceded: bool = False
    """The declarer refused to play after the talon (preliminary concession, or
    ``concede_any_contract``)."""

    @model_validator(mode="after")
    def _shape(self) -> GreekDeal:
        if self.declarer is None:
            # An all-pass deal may still be played for fewest tricks (rules.all_pass = play_low).
            for name in ("contract", "defence", "discard"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} given but nobody declared (declarer is null)")
            if self.conceded or self.preliminary or self.four_aces:
                raise ValueError("conceded / preliminary / four_aces need a declarer")
            return self
        if self.conceded:
            if self.tricks is not None or self.play is not None:
                raise ValueError("a conceded deal is not played: drop tricks and play")
            if self.contract is None and not self.preliminary:
                raise ValueError("only a preliminary-bid winner may concede without a contract")
            return self
        if self.contract is None:
            raise ValueError("a declarer needs a contract (or conceded: true)")
        if self.defence is None:
            raise ValueError("a declarer needs the defenders' decisions (defence)")
        return self
