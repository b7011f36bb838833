"""The Swabian auction (swabian.md 3.2; ambiguities 11 S1, S2; options 10)."""

from __future__ import annotations

import pytest

from model.swabian.auction import CallError, Won, parse_call, run
from model.swabian.params import SwabianRules

V, M, H = 0, 1, 2  # Vorhand, Mittelhand, Hinterhand (the dealer) in turn order
NAMES = ("Vera", "Max", "Hans")
RULES = SwabianRules()


def auction(*calls: tuple[int, str], rules: SwabianRules = RULES) -> Won:
    return run(list(calls), V, rules, NAMES)


def test_jump_bids_and_last_one_standing_wins():
    """3.2: any higher bid (jumps) or pass; the auction ends when all but one have passed."""
    assert auction((V, "2"), (M, "5"), (H, "pass"), (V, "pass")) == Won(M, 5, False)


def test_vorhand_holds_with_das_kann_ich():
    """3.2: only Vorhand may repeat the previous bid; the other must then bid higher or pass."""
    won = auction((V, "2"), (M, "3"), (H, "pass"), (V, "hold"), (M, "4"), (V, "hold"), (M, "pass"))
    assert won == Won(V, 4, False)


def test_only_vorhand_may_hold():
    """3.2 ``hold_only_vorhand``: Mittelhand's "Das kann ich" is not allowed."""
    with pytest.raises(CallError, match="only Vorhand"):
        auction((V, "pass"), (M, "2"), (H, "3"), (M, "hold"))


def test_seat_priority_hold_when_not_only_vorhand():
    """10 ``hold_only_vorhand = false``: Mittelhand may hold the dealer's bid, not the reverse."""
    rules = SwabianRules(hold_only_vorhand=False)
    won = auction((V, "pass"), (M, "2"), (H, "3"), (M, "hold"), (H, "pass"), rules=rules)
    assert won == Won(M, 3, False)
    with pytest.raises(CallError, match="may not hold"):
        auction((V, "pass"), (M, "2"), (H, "hold"), rules=rules)


def test_no_raise_below_or_at_the_standing_bid():
    """3.2: a bid must be higher than the previous one."""
    with pytest.raises(CallError, match="not higher than 3"):
        auction((V, "3"), (M, "3"))


def test_without_jump_bids_one_step_at_a_time():
    """10 ``jump_bids = false``."""
    rules = SwabianRules(jump_bids=False)
    assert auction((V, "2"), (M, "3"), (H, "pass"), (V, "pass"), rules=rules) == Won(M, 3, False)
    with pytest.raises(CallError, match="jumps"):
        auction((V, "2"), (M, "4"), rules=rules)


def test_aus_den_haenden_outranks_every_ordinary_bid():
    """3.2: aus den Händen ranks above every ordinary bid; ordinary bids cannot beat it."""
    won = auction((V, "7"), (M, "hand2"), (H, "pass"), (V, "pass"))
    assert won == Won(M, 2, True)
    with pytest.raises(CallError, match="against an aus-den-Händen"):
        auction((V, "pass"), (M, "hand2"), (H, "7"))


def test_only_a_higher_aus_den_haenden_beats_it():
    """3.2 and [derived] ordering by game number."""
    assert auction((V, "hand3"), (M, "hand4"), (H, "pass"), (V, "pass")) == Won(M, 4, True)
    with pytest.raises(CallError, match="not higher than hand4"):
        auction((V, "hand4"), (M, "hand4"))


def test_aus_den_haenden_only_as_first_call():
    """11 S2: only as a player's first call, before he has bid or passed."""
    with pytest.raises(CallError, match="after his first call"):
        auction((V, "2"), (M, "3"), (H, "pass"), (V, "hand4"))


def test_all_pass_is_a_redeal():
    """3.2 ``all_pass = redeal``, 11 S6."""
    assert auction((V, "pass"), (M, "pass"), (H, "pass")) == Won(None)


def test_vorhand_may_pass_unless_he_must_bid():
    """11 S1: Vorhand speaks first and may pass; ``vorhand_must_bid`` forbids it."""
    assert auction((V, "pass"), (M, "2"), (H, "pass")) == Won(M, 2, False)
    with pytest.raises(CallError, match="vorhand_must_bid"):
        auction((V, "pass"), rules=SwabianRules(vorhand_must_bid=True))


def test_out_of_turn_and_after_the_end():
    """3.2: bidding proceeds clockwise (turn order) from Vorhand."""
    with pytest.raises(CallError, match="out of turn"):
        auction((M, "2"))
    with pytest.raises(CallError, match="after the auction ended"):
        auction((V, "2"), (M, "pass"), (H, "pass"), (V, "3"))
    with pytest.raises(CallError, match="has not ended"):
        auction((V, "2"), (M, "pass"))


@pytest.mark.parametrize("text", ["8", "hand1", "kontra", "", "5S"])
def test_unknown_calls_are_quoted(text: str):
    with pytest.raises(CallError, match="not a Swabian call") as err:
        parse_call(text)
    assert repr(text) in str(err.value)
