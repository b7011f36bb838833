"""Russian preferans house rules: every flag of ``../shared/spec/russian.md`` section 10.

Defaults are the spec's first value of each row (Sochi). ``convention`` picks a preset (6.1, 7):
the flags a game's ``rules`` leave out take that preset's value, the ones it gives win. Rows the
spec marks U (uncertain: Rostov coefficients, Leningrad raspasy amounts, ``elder_hold``,
``unfinished_pool``) are flags like the others, but no test takes them as an oracle (spec 0, R3).

Coefficients the spec writes as k in 6.2 are flags too, so one formula serves every convention:
``whist_trick_factor`` (k_w), ``remise_factor`` (k_rem), ``misere_trick_penalty`` (k_mis).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from model.base import ChoiceWords, Frozen, HouseNumber, Integer

Convention = Literal["sochi", "leningrad", "rostov", "soci-custom"]


class RussianRules(Frozen):
    # soci-custom: the app behind ../shared/data/russian-score-fixtures/rostiktc2-soci
    convention: Annotated[Convention, ChoiceWords({"sochi": "Sochi", "leningrad": "Leningrad",
                                                   "rostov": "Rostov",
                                                   "soci-custom": "Sochi (custom)"})] = "sochi"
    """The preset whose values fill the flags not given (6.1, 7). ``soci-custom`` is the Soči
    of one scoring app, with its own changes ([rostik], spec 0)."""
    pool_target: Annotated[HouseNumber, Field(ge=1)] = 20
    """T: the game ends when every pool has reached it (8)."""
    consolation: Literal["both_opponents", "whisters_only", "none"] = "both_opponents"
    """Who writes c*u whists on a declarer who fails (6.1, 6.2, R6)."""
    consolation_factor: Literal[1, 2] = 1
    """Consolation per undertrick in units of c (Leningrad 2c is U, R2)."""
    whist_trick_factor: Literal[1, 2] = 1
    """Whists per defence trick in units of c (Sochi c, Leningrad 2c; 6.1)."""
    remise_factor: Literal[1, 2] = 1
    """Hill per undertrick in units of c (Sochi c, Leningrad 2c; 6.1)."""
    misere_trick_penalty: Literal[10, 20] = 10
    """Hill per trick of a failed misère (Sochi 10, Leningrad 20; 6.1, RL2)."""
    whist_style: Literal["greedy", "gentleman"] = "greedy"
    """One whister, one passer: the whister scores every defence trick (greedy), or on the
    declarer's failure they split all whists of the deal half-half (gentleman; 6.1)."""
    whist_responsibility: Literal["full", "half"] = "full"
    """Hill per missing defence trick: the whists of a trick (full) or half of them (6.1)."""
    two_whister_q1_responsible: Annotated[
        Literal["second_whister", "second_whister_personal", "both"],
        ChoiceWords({"second_whister_personal": "second whister without a trick"}),
    ] = Field("second_whister", title="who pays when two whisters are short on 8 to 10")
    """Two whisters on 8-10 (quota 1), the team short: the second whister pays
    (``second_whister``, 6.2); the second whister pays whenever he took no trick himself, even if
    the first took the quota ([rostik] RS2: ``second_whister_personal``); both pay (``both``)."""
    half_whist: bool = True
    """Half-whist on 6 and 7 (3)."""
    half_whist_play: bool = False
    """``false``: a half-whist is not played (3). ``true``: it is played for half the quota; the
    half-whister scores at most the half quota and answers for it ([rostik] custom)."""
    stalingrad: bool = False
    """6 spades must be whisted by both opponents (3)."""
    ten_whisted: bool = Field(True, title="contracts of 10 tricks whisted")
    """10-trick contracts are whisted like the others (3); ``false``: never whisted."""
    misere_first_call_only: bool = True
    """Misère only as a player's first call (2)."""
    raspasy_trick_value: Annotated[Integer, Field(ge=1, le=10)] = 1
    """Hill per raspasy trick at level 1 (7; Leningrad "most expensive" is U)."""
    raspasy_amnesty: bool = True
    """Subtract the fewest tricks of the deal from everybody's count (7)."""
    raspasy_progression: Annotated[
        Literal["1,2,3cap", "1,2,4", "none"],
        ChoiceWords({"1,2,3cap": "1, 2, 3, then stays 3", "1,2,4": "1, 2, 4"}),
    ] = "1,2,3cap"
    """The level of consecutive raspasy (7)."""
    raspasy_zero_bonus: Annotated[Integer, Field(ge=0, le=10)] = 1
    """Pool points for a player who takes no trick in raspasy (7)."""
    raspasy_exit: Literal["free", "6-7-7", "7-7-7"] = "free"
    """The lowest contract after one, two, three or more raspasy in a row (7)."""
    raspasy_payment: Literal["hill", "whists"] = "hill"
    """Raspasy cost to the hill, or (Rostov, U) as whists: each other player in the deal writes
    the cost on the player (7, [resolution])."""
    raspasy_reset: Literal["played", "any_contract"] = "played"
    """What ends a run of raspasy: a played contract or a misère (7), or any contract."""
    raspasy_talon_lead: bool = True
    """Raspasy: for the first two tricks first hand leads, in the suit of the talon card turned
    up for that trick when he can (4)."""
    overflow_help: Literal["highest_pool_below_target"] = "highest_pool_below_target"
    """Pool beyond T goes to the highest pool below T, ties clockwise from the donor (8)."""
    overflow_hill_below_zero: bool = Field(True, title="overflow off the hill, even below zero")
    """When every pool is closed the rest comes off the donor's hill, even below zero (8
    [code96]); ``false``: not below zero ([rostik] custom)."""
    hill_split: Literal["all_participants", "opponents_only"] = "all_participants"
    """A hill point is 10 whists shared by all N players including its owner (10/N to each pair,
    8 [code96]), or by his opponents only (10/(N-1), [rostik]; R5)."""
    unfinished_pool: Literal["to_hill", "ignore"] = "to_hill"
    """A pool short of T when the session stops: the points missing go to the hill (8, U)."""
    elder_hold: bool = False
    """First hand may repeat the current bid and take it over (2, U)."""

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any) -> Any:
        """Fill the flags not given from the preset named by ``convention``."""
        if isinstance(data, dict) and data.get("convention") in PRESET_FLAGS:
            return {**PRESET_FLAGS[data["convention"]], **data}
        return data

    @property
    def shortfall_half(self) -> bool:
        return self.whist_responsibility == "half"


PRESET_FLAGS: dict[str, dict[str, Any]] = {
    "sochi": {},
    # 6.1 Leningrad column, 7 (raspasy amounts and exit level are the spec's suggestions, U).
    "leningrad": {
        "whist_trick_factor": 2,
        "remise_factor": 2,
        "misere_trick_penalty": 20,
        "whist_style": "gentleman",
        "whist_responsibility": "half",
        "raspasy_trick_value": 2,
        "raspasy_exit": "7-7-7",
    },
    # 6.1 Rostov column: every row but "contract made" is K or U (R3): gentleman, half
    # responsibility (c/2), often no consolation, raspasy paid in whists.
    "rostov": {
        "whist_style": "gentleman",
        "whist_responsibility": "half",
        "consolation": "none",
        "raspasy_payment": "whists",
    },
    # The customised Soči of [rostik] (russian.md 0, 9.1 RS1-RS7; the app's self-declared
    # deviations and what its tests show, russian-score-fixtures/rostiktc2-soci.fixtures.json).
    "soci-custom": {
        "consolation": "none",
        "half_whist_play": True,
        "two_whister_q1_responsible": "second_whister_personal",
        "overflow_hill_below_zero": False,
        "hill_split": "opponents_only",
        "raspasy_reset": "played",
    },
}
"""The flags each convention changes from the Sochi defaults."""


def preset(name: Convention, **flags: Any) -> RussianRules:
    """The rules of a named preset, with ``flags`` overriding it."""
    return RussianRules.model_validate({"convention": name, **flags})
