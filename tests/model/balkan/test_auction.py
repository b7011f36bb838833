"""The Balkan auction (balkan.md 3): the seed's examples and the call rules."""

from __future__ import annotations

import pytest

from model.balkan.auction import Auction, CallError, run_auction
from model.balkan.params import BalkanRules

SEED = BalkanRules()
ABC = ["A", "B", "C"]


# balkan.md 3.3, rows 1-7 (rows 3-7 [seed 002], rows 1-2 reconstructed captions [seed 002/003])
@pytest.mark.parametrize(
    ("ex", "calls", "winner", "talon", "allowed"),
    [
        (1, "A 2, B 3, C 4, A pass, B pass", "C", True, {"4", "5", "6", "7"}),
        (2, "A 2, B 3, C 4, A pass, B here, C pass", "B", True, {"4", "5", "6", "7"}),
        (3, "A 2, B 3, C 4, A pass, B here, C 5, B pass", "C", True, {"5", "6", "7"}),
        (4, "A 2, B igra, C igra, B G4, C G5, B pass", "C", False, {"G5"}),
        (5, "A igra, B pass, C pass", "A", False, {"G2", "G3", "G4", "G5", "G6", "G7"}),
        (6, "A 2, B betl, C pass", "B", False, {"G6"}),
        (7, "A 2, B betl, C sans", "C", False, {"G7"}),
    ],
)
def test_seed_auction_examples(ex: int, calls: str, winner: str, talon: bool,
                               allowed: set[str]) -> None:
    seq = [tuple(c.split()) for c in calls.split(", ")]
    res = run_auction(ABC, seq, SEED)  # type: ignore[arg-type]
    assert (res.winner, res.talon, set(res.allowed)) == (winner, talon, allowed), f"example {ex}"


def test_all_pass_is_no_winner() -> None:  # balkan.md 3.2 rule 7
    res = run_auction(ABC, [("A", "pass"), ("B", "pass"), ("C", "pass")], SEED)
    assert res.winner is None and not res.allowed


def test_bids_go_one_step_at_a_time() -> None:  # balkan.md 3.2 rule 2
    with pytest.raises(CallError, match="may not call '4'"):
        run_auction(ABC, [("A", "2"), ("B", "4")], SEED)
    res = run_auction(ABC, [("A", "2"), ("B", "4"), ("C", "pass"), ("A", "pass")],
                      BalkanRules(jump_bids=True))
    assert res.winner == "B" and res.bid == 4


def test_here_needs_seat_priority() -> None:  # balkan.md 3.1, K4 (seat_priority)
    with pytest.raises(CallError, match="may not call 'here'"):
        run_auction(ABC, [("A", "2"), ("B", "here")], SEED)
    a = Auction(ABC, SEED)
    for p, c in [("A", "2"), ("B", "3"), ("C", "pass")]:
        a.call(p, c)
    assert "here" in a.legal_calls()  # A sits before B


def test_here_first_bidder_privilege() -> None:  # balkan.md 9 here_rule [impl-spec]
    rules = BalkanRules(here_rule="first_bidder_privilege")
    a = Auction(ABC, rules)
    for p, c in [("A", "pass"), ("B", "2"), ("C", "3")]:
        a.call(p, c)
    assert "here" in a.legal_calls()  # the privilege passed to B when A passed


def test_alternating_hold_or_pass() -> None:  # balkan.md 9 here_rule [preferansklub]
    a = Auction(ABC, BalkanRules(here_rule="alternating"))
    for p, c in [("A", "2"), ("B", "3")]:
        a.call(p, c)
    legal = a.legal_calls()
    assert "here" in legal and not [c for c in legal if c.isdigit()]


def test_here_on_top_bid_ends_the_auction() -> None:  # balkan.md 3.1 [preferansklub]
    calls = [("A", "2"), ("B", "3"), ("C", "4"), ("A", "5"), ("B", "6"), ("C", "7"),
             ("A", "here")]
    res = run_auction(ABC, calls, SEED)
    assert res.winner == "A" and res.allowed == frozenset({"7"})


def test_igra_only_as_first_call_and_talon_bidders_drop_out() -> None:  # 3.2 rule 3
    a = Auction(ABC, SEED)
    a.call("A", "2")
    a.call("B", "igra")
    assert a.to_act() == "C"  # A is "–"
    with pytest.raises(CallError):
        run_auction(ABC, [("A", "2"), ("B", "3"), ("C", "pass"), ("A", "igra")], SEED)


def test_preferans_call_needs_the_option() -> None:  # balkan.md 1, 9 preferans_bid
    assert "preferans" not in Auction(ABC, SEED).legal_calls()
    assert "preferans" in Auction(ABC, BalkanRules(preferans_bid=True)).legal_calls()


def test_calls_after_the_end_are_refused() -> None:
    with pytest.raises(CallError, match="after the auction ended"):
        run_auction(ABC, [("A", "igra"), ("B", "pass"), ("C", "pass"), ("A", "pass")], SEED)
