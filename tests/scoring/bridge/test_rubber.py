"""Rubber (Laws 72-74, 80) and Chicago: the reference against the spec's worked examples."""

from __future__ import annotations

from model.bridge.contracts import parse_contract
from model.bridge.params import BridgeRules
from scoring.bridge.reference import RubberDeal, chicago_vulnerable, rubber_session

WE, THEY = 0, 1  # We = North (seat 0), They = East (seat 1)


def spec_8_2() -> list[RubberDeal]:
    """bridge.md 8.2, hands R1-R8 (We = NS, They = EW)."""
    hands = [("2H", WE, 10), ("4SX", THEY, 8), ("3NT", THEY, 10), ("3S", THEY, 9),
             ("2D", THEY, 6), ("6HX", WE, 13), ("1NT", THEY, 7), ("3H", THEY, 9)]
    return [RubberDeal(i % 4, parse_contract(c), d, t) for i, (c, d, t) in enumerate(hands)]


def test_spec_rubber_example_row_by_row() -> None:
    s = rubber_session(spec_8_2(), BridgeRules(), "rubber")
    assert [x.below for x in s] == [(60, 0), (0, 0), (0, 100), (0, 90), (0, 0), (360, 0),
                                    (0, 40), (0, 90)]
    assert [x.above for x in s] == [(60, 0), (300, 0), (0, 30), (0, 0), (200, 0), (650, 0),
                                    (0, 0), (0, 500)]
    # R3 makes They vulnerable, R6 makes both vulnerable (bridge.md 8.2 "state after").
    assert s[3].vulnerable == (False, True) and s[6].vulnerable == (True, True)
    assert [x.rubber_over for x in s] == [False] * 7 + [True]


def test_spec_rubber_totals() -> None:
    # bridge.md 8.2: We 1630, They 850; We win the session by 780.
    s = rubber_session(spec_8_2(), BridgeRules(), "rubber")
    we = sum(x.below[0] + x.above[0] for x in s)
    they = sum(x.below[1] + x.above[1] for x in s)
    assert (we, they) == (1630, 850)
    assert sum(x.score_ns for x in s) == 780


def test_two_nil_rubber_is_700() -> None:
    # bridge.md 5 (RL Law 74): 700 if the opponents won no game.
    deals = [RubberDeal(0, parse_contract("4S"), 0, 10), RubberDeal(1, parse_contract("3NT"), 2, 9)]
    s = rubber_session(deals, BridgeRules(), "rubber")
    assert s[1].above == (700, 0) and s[1].vulnerable == (True, False)


def test_game_wipes_both_partscores() -> None:
    # bridge.md 5 (RL Law 73): after a game, partscores no longer count toward the next game.
    deals = [RubberDeal(0, parse_contract("2S"), 0, 8),      # NS 60
             RubberDeal(1, parse_contract("4H"), 1, 10),     # EW game
             RubberDeal(2, parse_contract("2S"), 0, 8)]      # NS 60 again: not a game
    s = rubber_session(deals, BridgeRules(), "rubber")
    assert s[2].vulnerable == (False, True)
    # unfinished: EW one game 300, NS partscore 50 (bridge.md 8.3 H4 shape)
    assert s[2].above == (50, 300)


def test_unfinished_rubber_h4() -> None:
    # bridge.md 8.3 H4: We one game, They partscore 70 -> We +300, They +50.
    deals = [RubberDeal(0, parse_contract("3NT"), 0, 9), RubberDeal(1, parse_contract("2NT"), 1, 8)]
    s = rubber_session(deals, BridgeRules(), "rubber")
    assert s[1].below == (0, 70) and s[1].above == (300, 50)


def test_honours_go_to_either_side_in_rubber() -> None:
    # bridge.md 8.3 H1/H2: honours count regardless of who declares or the result.
    deals = [RubberDeal(0, parse_contract("4S"), 0, 9, honours=(0, 150))]
    s = rubber_session(deals, BridgeRules(), "rubber")
    # 150 honours + 50 for one undertrick; no game or partscore, so no unfinished-rubber bonus.
    assert s[0].above == (0, 150 + 50)
    assert rubber_session(deals, BridgeRules(honours=False), "rubber")[0].above == (0, 50)


def test_chicago_cycle() -> None:
    # bridge.md 10: deal 1 none, deals 2-3 the dealer's side, deal 4 both; duplicate bonuses.
    assert [chicago_vulnerable(k, dealer) for k, dealer in ((0, 0), (1, 1), (2, 2), (3, 3))] == [
        (False, False), (False, True), (True, False), (True, True)]
    deals = [RubberDeal(k, parse_contract("4S"), 0, 10) for k in range(4)]
    s = rubber_session(deals, BridgeRules(mode="chicago"), "chicago")
    assert [x.score_ns for x in s] == [420, 420, 620, 620]
    assert [x.rubber_over for x in s] == [False, False, False, True]


def test_chicago_passed_out_deal_is_redealt() -> None:
    deals = [RubberDeal(0, None, None, None), RubberDeal(0, parse_contract("4S"), 0, 10)]
    s = rubber_session(deals, BridgeRules(mode="chicago"), "chicago")
    assert s[1].vulnerable == (False, False)
    s = rubber_session(deals, BridgeRules(mode="chicago", passed_out="zero"), "chicago")
    assert s[1].vulnerable == (True, False)  # second deal of the cycle: dealer N's side


def test_seed004_profile_in_rubber() -> None:
    # bridge.md 9: a doubled overtrick is worth 50 and earns the 50 insult; defeat adds 50.
    made = [RubberDeal(0, parse_contract("2HX"), 0, 9)]
    s = rubber_session(made, BridgeRules(scoring_profile="seed004"), "rubber")
    # 120 below is a game, so the unfinished rubber adds 300 (bridge.md 5).
    assert s[0].below == (120, 0) and s[0].above[0] == 50 + 50 + 300
    down = [RubberDeal(0, parse_contract("2HX"), 0, 7)]
    s = rubber_session(down, BridgeRules(scoring_profile="seed004"), "rubber")
    assert s[0].above == (0, 100 + 50)
