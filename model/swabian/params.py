"""Swabian Preferanz house rules: every option of ``../shared/spec/swabian.md`` section 10.

Defaults are the spec's first value of each row; where the spec lists an ambiguity (section 11)
the default is its recommended resolution and the alternative is a named value.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from model.base import ChoiceWords, Frozen, HouseNumber


class SwabianRules(Frozen):
    kunstwerk_units: Annotated[HouseNumber, Field(le=1000)] = 2
    """Units the auction winner pays the dealer for an equal-rank talon (section 4, 10)."""
    kunstwerk_on_hand_game: bool = Field(False, title="kunstwerk also aus den Händen")
    """Check the talon for a Kunstwerk even when it is set aside (aus den Händen; 4, 10)."""
    hold_only_vorhand: bool = True
    """Only Vorhand may hold ("Das kann ich", 3.2). ``false``: any player may hold a bid made by a
    player who sits after him in the bidding (nearer the dealer), as seat priority."""
    jump_bids: bool = True
    """Any higher bid is allowed (3.2). ``false``: bids go up one game number at a time from 2."""
    recontra_scope: Annotated[
        Literal["per_contra_player", "all_contra_players"],
        ChoiceWords({"per_contra_player": "one per contra player",
                     "all_contra_players": "one for all who said contra"}),
    ] = "per_contra_player"
    """One Re-contra per contra player (11 S3), or one Re-contra for all who said Contra."""
    vorhand_must_bid: bool = False
    """Vorhand may pass his first call (11 S1). ``true``: his first call must be a bid."""
    all_pass: Literal["redeal"] = "redeal"
    """All three pass: the deal is thrown in and the deal passes on (3.2, 11 S6)."""
    session_end: Literal["by_agreement", "fixed_deals"] = "by_agreement"
    """The rules set no end (7): the session stops by agreement, or after ``session_deals``
    deals."""
    session_deals: Annotated[HouseNumber, Field(ge=1)] | None = None
    """The number of deals of a ``fixed_deals`` session."""

    @model_validator(mode="after")
    def _session(self) -> SwabianRules:
        if (self.session_end == "fixed_deals") != (self.session_deals is not None):
            raise ValueError(
                f"session_deals is {self.session_deals!r} with session_end "
                f"{self.session_end!r}: give session_deals exactly for fixed_deals"
            )
        return self
