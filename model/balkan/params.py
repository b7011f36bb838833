"""Balkan preferans house rules: every flag of ``../shared/spec/balkan.md`` section 9.

Defaults are the spec's (first value of each row, section 10's resolutions). Named presets bundle
the flags of one school; ``BalkanRules.preset("serbian-club")`` is the set that reproduces the
Serbian online club's own scorer tests (``prefko-score-fixtures``, see docs/balkan.md for which
fixture decided each flag).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from model.base import ChoiceWords, Frozen, HouseNumber, Stock


class UnknownPreset(KeyError):
    """A preset name that is not defined; quotes the name."""


class BalkanRules(Frozen):
    direction: Literal["clockwise", "counterclockwise"] = "clockwise"
    """Which physical side the next player in turn order sits on (2): clockwise puts him on the
    left, so a player's *left* column is written against the next player in turn order."""
    start_bula: Stock = 30
    """Starting bula of every player (7.1)."""
    value_scale: Literal[1, 2] = 1
    """s in v = s * (n + igra) (7.2): 1 the published rules' units [pagat-cro], 2 Serbian club
    units."""
    igra_increment: HouseNumber = 1
    """Number steps a game without the talon adds to its value (7.2)."""
    preferans_bid: bool = False
    """The optional 8 = Preferans, all ten tricks, no trump (1, 4)."""
    max_refe: HouseNumber | None = None
    """Refa rounds per game; ``None``: unlimited (7.4). When used up, an all-pass deal is
    redealt."""
    kontra_max_level: Annotated[HouseNumber, Field(ge=1)] | None = None
    """Longest doubling chain: ``None``: unlimited; 4: up to mortkontra (x16); 2: kontra and
    rekontra."""
    pik_needs_kontra: bool = True
    """Plain Pik (2) with talon and without refa is played only if a defender says kontra (5.3)."""
    pik_without_kontra: Annotated[
        Literal["declarer_scores", "refa_then_declarer_scores"],
        ChoiceWords({"refa_then_declarer_scores": "refa for all, else declarer scores"}),
    ] = "declarer_scores"
    """What an unplayed Pik scores (5.3, 7.4): the declarer is booked as having made it, or a
    refa is written to everybody (if refe may still be written) and the declarer scores nothing."""
    kontra_scope: Literal["pairwise", "whole_hand", "kontra_player_takes_all"] = "pairwise"
    """Which entries a kontra multiplies (7.3, K11)."""
    invited_soups: Literal["to_inviter", "own"] = "to_inviter"
    """Who writes the invited player's tricks (7.3, K7)."""
    here_rule: Literal["seat_priority", "first_bidder_privilege", "alternating"] = "seat_priority"
    """Who may say "here" / "moje" (3.1, K4)."""
    jump_bids: bool = False
    """Talon bids may skip numbers (3.2)."""
    sans_lead: Annotated[
        Literal["first_hand_skip_declarer", "through_declarer"],
        ChoiceWords({"first_hand_skip_declarer": "first hand, passing over the declarer",
                     "through_declarer": "the player before the declarer"}),
    ] = Field("first_hand_skip_declarer", title="first lead in Sanac")
    """First lead in Sanac (6)."""
    defender_fail: Annotated[
        Literal["team_rule", "individual_two"],
        ChoiceWords({"team_rule": "only if the pair took under 4",
                     "individual_two": "even if the pair took 4"}),
    ] = Field("team_rule", title="a defender with under 2 tricks is penalised")
    """Whether a defender with < 2 tricks is penalised when the pair took 4 (5.2, K12)."""
    refe_blocked_below_zero: bool = False
    """No new refa while any bula is below zero (7.4)."""
    repeal_revalues: bool = Field(True, title="a repealed deal is as if never played")
    """A repealed (crossed-out) deal scores nothing (records.md). ``true``: it is as if never
    played, so it uses no refa and the refe of later deals are derived again; ``false`` (the
    Serbian club's scorer, prefko ``score-refa-hands-and-repeals``): a hand's value is fixed when
    it is played, so a repealed contract still uses the refa its declarer held then (a repealed
    Pik that was not kontra'd under ``refa_then_declarer_scores`` uses none)."""
    bettel_fail_soup: Literal["five_tricks", "tricks_taken", "none"] = Field(
        "five_tricks", title="soup of a lost Bettel")
    """Soup of each defender when the declarer loses a Bettel (7.3)."""
    double_fall: bool = False
    """A lost game worth more than the bula left on the table is booked twice (7.5)."""
    end_condition: Annotated[
        Literal["bula_sum_le_zero", "all_bulas_le_zero"],
        ChoiceWords({"bula_sum_le_zero": "sum of the bulas 0 or less",
                     "all_bulas_le_zero": "every bula 0 or less"}),
    ] = "bula_sum_le_zero"
    """When the game ends (7.5)."""
    four_players: bool = False
    """Four at the table, the dealer sits out each deal (1). Must agree with the players."""

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> BalkanRules:
        """The named set of flags (see :data:`PRESETS`), with ``overrides`` applied."""
        try:
            flags = PRESETS[name]
        except KeyError as exc:
            raise UnknownPreset(
                f"unknown Balkan preset {name!r}; known: {', '.join(sorted(PRESETS))}"
            ) from exc
        return cls(**{**flags, **overrides})

    def value(self, number: int, igra: bool) -> int:
        """Contract value v = s * (n + igra_increment * [igra]) (balkan.md 7.2)."""
        return self.value_scale * (number + (self.igra_increment if igra else 0))


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "serbian-club": {
        # prefko-score-fixtures (see docs/balkan.md "serbian-club preset" for each flag's source)
        "direction": "counterclockwise",
        "start_bula": 60,
        "value_scale": 2,
        "igra_increment": 1,
        "preferans_bid": True,
        "kontra_max_level": 4,
        "kontra_scope": "whole_hand",
        "invited_soups": "to_inviter",
        "pik_without_kontra": "refa_then_declarer_scores",
        "here_rule": "first_bidder_privilege",
        "sans_lead": "through_declarer",
        "bettel_fail_soup": "five_tricks",
        "repeal_revalues": False,
    },
    "preferansklub": {
        "direction": "counterclockwise",
        "start_bula": 60,
        "value_scale": 2,
        "kontra_max_level": 4,
        "kontra_scope": "kontra_player_takes_all",
        "pik_without_kontra": "refa_then_declarer_scores",
        "here_rule": "alternating",
        "sans_lead": "through_declarer",
        "defender_fail": "individual_two",
        "refe_blocked_below_zero": True,
    },
    "iklub": {
        "direction": "counterclockwise",
        "value_scale": 2,
        "kontra_max_level": 2,
        "kontra_scope": "whole_hand",
        "pik_without_kontra": "refa_then_declarer_scores",
        "double_fall": True,
    },
    "serbian-championship": {
        "direction": "counterclockwise",
        "start_bula": 400,
        "value_scale": 2,
        "max_refe": 8,
    },
}
"""Named flag sets: ``seed`` the spec defaults; ``serbian-club`` the Serbian online club
(prefko); ``preferansklub``, ``iklub``, ``serbian-championship`` as balkan.md 5.3/7.4/9 tag them."""
PRESET_WORDS = {
    "seed": "the spec's defaults (seed)",
    "serbian-club": "Serbian online club (prefko)",
    "preferansklub": "preferansklub.com",
    "iklub": "iKlub (Serbian internet club)",
    "serbian-championship": "Serbian championship (bula 400, 8 refe)",
}
"""Each of :data:`PRESETS` as a form shows it: the source whose rules it reproduces (the
sources of balkan.md 0: [seed 002/003], [prefko], [preferansklub], [iklub], [danas])."""
