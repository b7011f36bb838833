"""The Greek options the examples of test_examples.py / test_prefadoros.py do not already set,
against values computed by hand from ``../shared/spec/greek-prefa.md`` (section in each test).
docs/flags.md lists every option with the test that holds each value."""

from __future__ import annotations

import pytest

from model.greek.check import check_deal
from sim.random_play.greek import random_league
from tests.scoring.greek.builders import Deals, game
from tests.scoring.greek.paths import both, chips, kassa_delta


@pytest.mark.parametrize(("option", "v"), [("value_11", 11), ("value_10", 10)])
def test_ten_nt_value(option: str, v: int) -> None:
    """5.1, 14 ``ten_nt``: 10NT is worth 11 (variant A) or 10 (variant B). Both pass: D's kassa
    -v (9.1); made 10/0/0 against both defenders: -v and no chips (9.3, nothing to pay per
    trick); one down (9/1/0): +v and D pays R v for his trick (9.2)."""
    g = game(["D", "R", "L"], ten_nt=option)
    deals = Deals(g)
    deals.both_pass("D", "10NT")
    deals.played("D", "10NT", "both", (10, 0, 0))
    deals.played("D", "10NT", "both", (9, 1, 0))
    s = both([g], deals.deals)
    assert kassa_delta(s, 1)["D"] == -v
    assert (kassa_delta(s, 2)["D"], chips(s, 2)["D"]) == (-v, 0)
    assert (kassa_delta(s, 3)["D"], chips(s, 3)) == (v, {"D": -v, "R": v, "L": 0})


def test_counter_invitation_is_settled_as_an_invitation() -> None:
    """6.1 step 4, 14 ``counter_invitation``: R passed, L chose alone, R forces an invitation;
    it is recorded as R inviting and L passing (records: ``model/greek/records.py``) and settled
    as an invitation (9.4): 7H, D 8, R 1, L 1: the team quota 3 is short by 1, R pays D 7 * 8 =
    56 (the numbers of 13.1 E10) and D's kassa stays. L alone would have had quota 2 on his own
    tricks instead."""
    g = game(["D", "R", "L"], counter_invitation=True)
    deals = Deals(g)
    deals.played("D", "7H", "invite", (8, 1, 1), whister="R")
    assert check_deal(g, deals.deals[0]) == []
    s = both([g], deals.deals)
    assert chips(s) == {"D": 56, "R": -56, "L": 0}
    assert kassa_delta(s)["D"] == 0


def test_talon_deal_point_is_a_record_field_only() -> None:
    """3 ``talon_deal_point`` [resolution]: when the dealer lays the talon aside is part of the
    game record (it describes the dealing); no rule of the auction, play or settlement reads it,
    so a league settles to the same frames under both values."""
    games, deals = random_league(3, games=12, max_deals=25)
    end = [g.model_copy(update={"rules": g.rules.model_copy(update={"talon_deal_point": "end"})})
           for g in games]
    a, b = both(games, deals), both(end, deals)
    assert a.settlements.equals(b.settlements) and a.transfers.equals(b.transfers)
    assert {g.rules.talon_deal_point for g in end} == {"end"}
