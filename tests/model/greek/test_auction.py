"""The Greek Prefa auction (model/greek/auction.py): greek-prefa.md 4.1-4.3, 14, 16 G1-G2."""

from __future__ import annotations

import pytest

from model.greek.auction import (
    Auction,
    AuctionResult,
    CallError,
    ladder_bid,
    parse_call,
    run_auction,
)
from model.greek.params import GreekRules

P = ("P1", "P2", "P3")  # P1 = first hand, P3 = dealer (4.3)
DEFAULT = GreekRules()


def calls(*pairs: str) -> list[tuple[str, str]]:
    return [(p.split()[0], p.split()[1]) for p in pairs]


@pytest.mark.parametrize(
    ("case", "seq", "winner", "bid", "preliminary"),
    [
        # greek-prefa.md 4.3 GA1
        (
            "GA1",
            ("P1 6S", "P2 6C", "P3 6D", "P1 hold", "P2 pass", "P3 6H", "P1 pass"),
            "P3",
            "6H",
            False,
        ),
        # greek-prefa.md 4.3 GA2
        ("GA2", ("P1 take", "P2 pass", "P3 pass"), "P1", None, True),
        # greek-prefa.md 4.3 GA3: the preliminary bid counts as a pass once 6S is bid
        ("GA3", ("P1 take", "P2 6S", "P3 pass"), "P2", "6S", False),
        # greek-prefa.md 4.3 GA4
        ("GA4", ("P1 pass", "P2 pass", "P3 pass"), None, None, False),
    ],
)
def test_spec_auction_examples(
    case: str, seq: tuple[str, ...], winner: str | None, bid: str | None, preliminary: bool
) -> None:
    out = run_auction(P, calls(*seq), DEFAULT)
    assert isinstance(out, AuctionResult), out
    assert out.winner == winner
    assert (None if out.bid is None else ladder_bid(out.bid)) == bid
    assert out.preliminary is preliminary


def test_ladder_order() -> None:
    # greek-prefa.md 4.1: S < C < D < H < NT, then the next level
    assert [ladder_bid(i) for i in range(7)] == ["6S", "6C", "6D", "6H", "6NT", "7S", "7C"]
    assert ladder_bid(23) == "10H"


def test_parse_call_grammar() -> None:
    # greek-prefa.md 4.1-4.2: bids, pass, hold, take
    assert parse_call(" Pass ") == "pass"
    assert parse_call("HOLD") == "hold"
    assert parse_call("7nt") == 9
    with pytest.raises(CallError, match="'6X'"):
        parse_call("6X")


def test_survivor_still_speaks_after_two_passes() -> None:
    # greek-prefa.md 4.2: the auction ends when the survivor holds a bid
    out = run_auction(P, calls("P1 pass", "P2 pass", "P3 6S"), DEFAULT)
    assert out == AuctionResult("P3", 0)
    out2 = run_auction(P, calls("P1 pass", "P2 pass"), DEFAULT)
    assert out2 == "the auction stops before it is over: P3 still has to speak"


@pytest.mark.parametrize(
    ("seq", "rules", "message"),
    [
        # 4.2: the opening bid is 6S
        (("P1 6C",), DEFAULT, "call 1: P1 bids '6C': the next bid must be 6S"),
        # 4.2: one step at a time (jump_bids off)
        (("P1 6S", "P2 6D"), DEFAULT, "call 2: P2 bids '6D': the next bid must be 6C"),
        # 4.2: turn order
        (("P2 6S",), DEFAULT, "call 1: P2 speaks out of turn with '6S': it is P1's turn"),
        # 4.2 / 16 G2: hold only after everybody has spoken once (after_first_round)
        (("P1 6S", "P2 hold"), DEFAULT, "a hold is allowed only after everybody has spoken"),
        # 4.2: a held bid is raised, not held again
        (("P1 6S", "P2 6C", "P3 pass", "P1 hold", "P2 hold"), DEFAULT, "P1 already holds 6C"),
        # 4.2: a passed player is out
        (("P1 pass", "P2 6S", "P3 6C", "P1 6D"), DEFAULT, "P1 has passed and is out"),
        (("P1 pass", "P2 6S", "P3 pass", "P1 6C"), DEFAULT, "call 4: P1 calls '6C' after"),
        # 14 preliminary_bid off
        (("P1 take",), GreekRules(preliminary_bid=False), "preliminary_bid is off"),
        # 4.2: the preliminary bid only while nobody has bid 6S
        (("P1 6S", "P2 take"), DEFAULT, "too late, 6S has been bid"),
        # 4.2: only one preliminary bid per deal
        (("P1 take", "P2 take"), DEFAULT, "only one preliminary bid per deal"),
        # 14 ten_nt forbidden
        (("P1 10NT",), GreekRules(jump_bids=True), "10NT needs the ten_nt option"),
        # 4.2 grammar
        (("P1 six",), DEFAULT, "not a call: 'six'"),
    ],
)
def test_bad_calls_are_quoted(seq: tuple[str, ...], rules: GreekRules, message: str) -> None:
    # greek-prefa.md 4.2 (each case cites its rule above)
    out = run_auction(P, calls(*seq), rules)
    assert isinstance(out, str)
    assert message in out


def test_jump_bids_allow_any_higher_bid() -> None:
    # greek-prefa.md 14 jump_bids
    rules = GreekRules(jump_bids=True)
    out = run_auction(P, calls("P1 7S", "P2 8H", "P3 pass", "P1 pass"), rules)
    assert out == AuctionResult("P2", 13)
    assert ladder_bid(13) == "8H"
    assert isinstance(run_auction(P, calls("P1 7S", "P2 6H"), rules), str)


def test_top_bid_ends_the_auction_at_once() -> None:
    # greek-prefa.md 4.2: a bid of the top of the ladder ends the auction
    rules = GreekRules(jump_bids=True)
    assert run_auction(P, calls("P1 10H"), rules) == AuctionResult("P1", 23)
    with_nt = GreekRules(jump_bids=True, ten_nt="value_11")
    auction = Auction(P, with_nt)
    auction.call("P1", "10H")
    assert auction.result is None and "10NT" in auction.legal_calls()


def test_seat_priority_hold() -> None:
    # greek-prefa.md 16 G2 hold_rule = seat_priority: only an earlier player holds, at any time
    rules = GreekRules(hold_rule="seat_priority")
    seq = calls("P1 6S", "P2 6C", "P3 6D", "P1 hold", "P2 pass", "P3 pass")
    assert run_auction(P, seq, rules) == AuctionResult("P1", 2)
    early = run_auction(P, calls("P1 pass", "P2 6S", "P3 hold"), rules)
    assert isinstance(early, str) and "only a player before P2" in early


def test_legal_calls_offer_the_next_step_and_hold() -> None:
    # greek-prefa.md 4.2: after the first round the next player may hold instead of raising
    auction = Auction(P, DEFAULT)
    assert auction.legal_calls() == ["pass", "take", "6S"]
    for p, c in calls("P1 6S", "P2 6C", "P3 6D"):
        auction.call(p, c)
    assert auction.legal_calls() == ["pass", "hold", "6H"]
