"""Bridge rule flags: every option of ``../shared/spec/bridge.md`` sections 9-10.

The defaults are the spec's first values (the Laws). ``scoring_profile = "seed004"`` switches the
section-9 elements to the seed text; each element also has its own flag, ``None`` meaning "as the
profile says".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from model.base import ChoiceWords, Frozen, HouseNumber

Amount = HouseNumber
"""Points of a bonus."""


class BridgeRules(Frozen):
    scoring_profile: Annotated[Literal["laws", "seed004"],
                               ChoiceWords({"laws": "Laws",
                                            "seed004": "simplified (Russian text)"})] = "laws"
    """Section 9's scoring elements (doubled overtricks, the insult, a defeated doubled
    contract) as the Laws give them, or simplified as a popular Russian text gives them
    [seed 004] (each element's own flag, when given, wins)."""
    mode: Literal["rubber", "duplicate", "chicago"] | None = None
    """``None``: ``rubber`` for ``bridge-rubber`` games, ``duplicate`` for ``bridge-duplicate``.
    ``chicago`` (a rubber-game option): four-deal cycles, vulnerability none / dealer's side /
    dealer's side / both, duplicate-style bonuses per deal (10 [bk])."""
    honours: bool | None = None
    """Honours scored (4.6); ``None``: ``true`` in rubber and Chicago, ``false`` in
    duplicate."""
    incomplete_rubber_bonus: tuple[Amount, Amount] = Field(
        (300, 50), title="unfinished rubber bonus for one game, for a partscore")
    """An unfinished rubber: a side with one game, a side with a partscore in the open game (5)."""
    passed_out: Literal["redeal", "zero"] | None = None
    """Both score nothing either way; ``redeal`` (rubber) means the deal does not count toward the
    Chicago cycle (10)."""
    doubled_overtrick_value: Amount | None = None
    """``None``: Laws 100 NV / 200 V doubled, twice that redoubled (4.2); ``seed004``: 50
    each."""
    insult_requires_overtrick: bool | None = None
    """``None``: the Laws' ``false`` (4.3); ``seed004``: ``true`` (only an over-fulfilled
    contract earns it)."""
    insult_redoubled: Amount | None = None
    """``None``: Laws 100; ``seed004``: 50."""
    seed004_defeat_bonus: Amount | None = Field(None, title="defeated doubled bonus")
    """Extra points to the defenders of a defeated doubled contract, on top of the undertricks;
    ``None``: Laws 0, ``seed004`` 50 (9, BR3)."""

    @property
    def seed(self) -> bool:
        return self.scoring_profile == "seed004"

    def mode_for(self, variant: str) -> str:
        if self.mode is not None:
            return self.mode
        return "duplicate" if variant == "bridge-duplicate" else "rubber"

    def honours_for(self, variant: str) -> bool:
        if self.honours is not None:
            return self.honours
        return self.mode_for(variant) != "duplicate"

    def overtrick_doubled(self, vulnerable: bool, doubled: int) -> int:
        """Value of one overtrick of a doubled (1) or redoubled (2) contract (4.2, 9)."""
        if self.doubled_overtrick_value is not None:
            return self.doubled_overtrick_value
        if self.seed:
            return 50
        return (200 if vulnerable else 100) * doubled

    def insult(self, doubled: int, overtricks: int) -> int:
        """Bonus for making a doubled or redoubled contract (4.3, 9)."""
        if doubled == 0:
            return 0
        needs = self.insult_requires_overtrick
        if needs is None:
            needs = self.seed
        if needs and overtricks <= 0:
            return 0
        if doubled == 1:
            return 50
        if self.insult_redoubled is not None:
            return self.insult_redoubled
        return 50 if self.seed else 100

    def defeat_bonus(self, doubled: int) -> int:
        if doubled == 0:
            return 0
        if self.seed004_defeat_bonus is not None:
            return self.seed004_defeat_bonus
        return 50 if self.seed else 0
