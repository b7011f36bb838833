"""Greek Prefa house rules: every option of ``../shared/spec/greek-prefa.md`` section 14.

The defaults are the spec's (first value of each row); where the spec lists an open question
(section 16) the default is its recommended resolution.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from model.base import ChoiceWords, Frozen, HouseNumber, Stock


class GreekRules(Frozen):
    initial_kassa: Stock = 31
    """Starting kassa of every player (section 8, 14)."""
    first_bidder_by_7d: bool = Field(False, title="holder of 7♦ bids first")
    """The first deal of the session: the holder of 7♦ (or 8♦) bids first, showing it, and deals
    next (section 14)."""
    preliminary_bid: bool = True
    """The "I'll take" bid and its concession penalty (section 5, 14)."""
    concession_pays_sitter: bool = False
    """Four players: whether the preliminary concession's 2 chips "to each other player" (5, 14)
    also go to the dealer sitting out. By default he does not: the rule is written for three
    players, and the sitter is named where he takes part (overflow, four aces paid in chips,
    section 14 ``four_players``) [resolution]."""
    ten_nt: Annotated[
        Literal["forbidden", "value_11", "value_10"],
        ChoiceWords({"forbidden": "not allowed", "value_11": "worth 11", "value_10": "worth 10"}),
    ] = Field("forbidden", title="10NT contract")
    """A 10NT contract: not allowed, worth 11, or worth 10 (section 14)."""
    ten_as_nine: bool = Field(False, title="10 tricks with the obligations of 9")
    """A 10-trick contract settles with the 9-trick obligations (section 14)."""
    four_aces: Literal["none", "raise_value", "fixed_chips"] = "none"
    """A declarer holding all four aces may say so before play: the contract's value is raised,
    or fixed chips change hands (section 14)."""
    four_aces_amount: HouseNumber | None = None
    """``raise_value``: kassa points added to v (default a tenth of ``initial_kassa``, K0/10
    [seed 000]).
    ``fixed_chips``: chips paid by or to each other player (default 25 at 6-level, 50 above
    [prefadoros-code])."""
    counter_invitation: bool = False
    """The invited defender may invite back (section 6.1 step 4, 14)."""
    must_overtrump_when_void: bool = False
    """A player void in the suit led, after a trump, must overtrump when he can (section 14)."""
    end_at_two_empty: bool = Field(False, title="end at two empty kassas")
    """End when all but one kassa are empty; the owner pays 10*K/3 (10*K/4 with four players) to
    each empty-kassa player (section 11)."""
    four_players: bool = False
    """Four at the table, the dealer sits out (section 14); must agree with the player count."""
    all_pass: Annotated[Literal["redeal", "play_low"],
                        ChoiceWords({"play_low": "play for fewest tricks"})] = "redeal"
    """All pass: deal again, or play for fewest tricks without trumps (section 14, G3)."""
    jump_bids: bool = False
    """A bid may go above the next step of the ladder (section 14, G1)."""
    hold_rule: Literal["after_first_round", "seat_priority"] = "after_first_round"
    """Who may hold ("έχω") a bid: the next player once all have spoken, or only an earlier
    seat (section 4.2, G2)."""
    concede_any_contract: bool = False
    """A declarer may concede any contract after the talon ("solo"), scored two down
    (section 14)."""
    overflow_split_four: Literal["equal_thirds"] = Field(
        "equal_thirds", title="overflow split with four players")
    """Four players: overflow nobody can take is shared equally (section 14, G6)."""
    chip_rounding: Annotated[
        Literal["exact_rational", "round_half_up"],
        ChoiceWords({"exact_rational": "exact fractions", "round_half_up": "rounded half up"}),
    ] = "exact_rational"
    """Fractional chips (four-player splits, K/3): kept exact, or rounded half up (section 14)."""
    bookkeeping: Literal["personal_kassa", "common_pot"] = "personal_kassa"
    """A kassa per player, or one pot of ``initial_kassa`` points per player (section 15
    [prefadoros-code])."""
    pot_end: Literal["normal", "unbalanced", "fair"] = Field(
        "normal", title="contract worth more than the pot")
    """``common_pot`` only: a contract worth more than the pot holds (section 15
    [prefadoros-code], a table setting): ``normal`` settles it at v = what is left,
    ``unbalanced`` only when the pot pays (made, or both pass), ``fair`` never (the pot goes
    below 0, every player tops it up equally)."""
    talon_deal_point: Literal["after_first_round", "end"] = Field(
        "after_first_round", title="when the talon is dealt")
    """When the talon is dealt: after the first round of packets, or last (section 3)."""

    def four_aces_value_raise(self) -> int:
        """Kassa points added to the contract value under ``four_aces = raise_value``."""
        if self.four_aces_amount is not None:
            return self.four_aces_amount
        return self.initial_kassa // 10

    def four_aces_chips(self, level: int) -> int:
        """Chips per other player under ``four_aces = fixed_chips``."""
        if self.four_aces_amount is not None:
            return self.four_aces_amount
        return 25 if level == 6 else 50
