"""Auction legality and the declarer (bridge.md 2.1-2.3)."""

from __future__ import annotations

import pytest

from model.bridge.auction import run_auction
from model.bridge.contracts import Contract, bid_rank, normalise_call, parse_contract
from model.bridge.seats import EAST, NORTH, SOUTH, WEST


def test_bid_ranks_follow_the_denomination_order() -> None:
    # bridge.md 2.1: C < D < H < S < NT, then the next level.
    order = ["1C", "1D", "1H", "1S", "1NT", "2C", "7NT"]
    ranks = [bid_rank(c.level, c.denom) for c in map(parse_contract, order)]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert bid_rank(7, 4) == 34


@pytest.mark.parametrize(("text", "call"), [("P", "pass"), ("Pass", "pass"), ("d", "X"),
                                            ("R", "XX"), ("1N", "1NT"), ("3s!", "3S")])
def test_call_spellings(text: str, call: str) -> None:
    assert normalise_call(text) == call


def test_four_passes_is_passed_out() -> None:
    # bridge.md 2.3: four initial passes.
    r = run_auction(NORTH, ["pass"] * 4)
    assert r.complete and r.contract is None and r.problems == ()


def test_declarer_is_first_of_the_side_to_name_the_denomination() -> None:
    # bridge.md 2.3: N opens 1H, S raises to 4H: N declares although S bid last.
    r = run_auction(NORTH, ["1H", "pass", "4H", "pass", "pass", "pass"])
    assert r.contract == Contract(4, 2, 0) and r.declarer == NORTH
    # E names spades first for EW, W bids them last: E declares.
    r = run_auction(NORTH, ["1C", "1S", "pass", "2S", "pass", "pass", "pass"])
    assert r.declarer == EAST


def test_double_redouble_and_a_later_bid_cancels_them() -> None:
    # bridge.md 2.2
    r = run_auction(NORTH, ["1NT", "X", "XX", "pass", "pass", "pass"])
    assert r.contract == Contract(1, 4, 2) and r.declarer == NORTH
    r = run_auction(NORTH, ["1NT", "X", "2C", "pass", "pass", "pass"])
    assert r.contract == Contract(2, 0, 0) and r.declarer == SOUTH


@pytest.mark.parametrize(
    ("calls", "why"),
    [
        (["1H", "1D"], "does not outrank"),
        (["1H", "1H"], "does not outrank"),
        (["1H", "pass", "X"], "double needs"),  # own side's bid (2.2)
        (["X"], "double needs"),
        (["1H", "X", "X"], "double needs"),
        (["1H", "XX"], "redouble needs"),
        (["1H", "X", "pass", "XX"], "redouble needs"),  # the doubler's partner redoubles
        (["1H", "pass", "pass", "pass", "pass"], "after the auction ended"),
        (["1H", "pass", "pass"], "incomplete"),
        (["1Z"], "not a call"),
    ],
)
def test_illegal_auctions(calls: list[str], why: str) -> None:
    r = run_auction(WEST, calls)
    assert not r.complete and r.contract is None
    assert why in " ".join(r.problems)


def test_redouble_by_the_doubled_side_after_passes() -> None:
    # 2.2: the last non-pass call is an opponent's double of our bid.
    r = run_auction(NORTH, ["1H", "X", "pass", "pass", "XX", "pass", "pass", "pass"])
    assert r.contract == Contract(1, 2, 2) and r.declarer == NORTH


def test_seats() -> None:
    # bridge.md 1, 3: partners sit opposite; dummy is declarer's partner; the lead comes from
    # declarer's left (clockwise N -> E -> S -> W).
    from model.bridge.seats import board_dealer, board_vulnerable, dummy_of, left_of, side_of

    assert [dummy_of(s) for s in range(4)] == [SOUTH, WEST, NORTH, EAST]
    assert [left_of(s) for s in range(4)] == [EAST, SOUTH, WEST, NORTH]
    assert [side_of(s) for s in range(4)] == [0, 1, 0, 1]
    # board rotation (bridge.md 6): boards 1-4 None/NS/EW/All, dealer N/E/S/W; repeats every 16
    assert [board_vulnerable(b) for b in (1, 2, 3, 4, 17)] == ["None", "NS", "EW", "All", "None"]
    assert [board_dealer(b) for b in (1, 2, 3, 4, 5)] == [NORTH, EAST, SOUTH, WEST, NORTH]


def test_spellings_are_read_alike_each_time_they_are_met() -> None:
    """The parsers remember what they read (a file repeats its calls): a spelling read again
    gives the same call, and a bad one raises again (bridge.md 2.1-2.3)."""
    from model.bridge.contracts import ContractError, parse_bid

    for _ in range(2):
        assert normalise_call(" dbl ") == "X" and parse_bid("3n") == (3, 4)
        assert parse_contract("4sx") == Contract(4, 3, 1)
        for bad in ("8S", "1Z"):
            with pytest.raises(ContractError):
                normalise_call(bad)
            with pytest.raises(ContractError):
                parse_contract(bad)
