"""Every Russian flag that changes a number or a legality, against a value computed by hand from
``../shared/spec/russian.md`` (section named in each test). Kernel and reference are held equal
on each settled game (``helpers.run``). The flags the worked examples already hold are cited in
docs/flags.md instead of being repeated here.

A is the declarer, B the first defender (A's left), C the second; C deals, so A is first hand.
Values of rows the spec marks U (``consolation_factor = 2``, ``raspasy_payment = whists``,
``unfinished_pool``, ``elder_hold``) are the flag's, not an oracle (spec 0, R3): their tests
check the mechanics the flag switches, with numbers derived from the formula it names.
"""

from __future__ import annotations

from typing import Any

import pytest

from model.russian.auction import CallError, run
from model.russian.params import RussianRules
from scoring.russian.reference import result
from tests.scoring.russian.helpers import Totals, contract
from tests.scoring.russian.helpers import run as settle

ABC = ["A", "B", "C"]
BOTH = {"B": "whist", "C": "whist"}
B_ALONE = {"B": "whist", "C": "pass"}
NOBODY = {"B": "pass", "C": "pass"}


def deal(c: str, defence: dict[str, str] | None, tricks: tuple[int, int, int] | None,
         **extra: Any) -> dict[str, Any]:
    """A's contract with tricks A / B / C (C deals)."""
    counts = dict(zip(ABC, tricks, strict=True)) if tricks is not None else None
    return contract("A", c, defence, counts, dealer="C", **extra)


def raspasy(a: int, b: int, c: int) -> dict[str, Any]:
    return {"dealer": "C", "tricks": {"A": a, "B": b, "C": c}}


def hills(t: Totals) -> tuple[int, int, int]:
    return t.hill["A"], t.hill["B"], t.hill["C"]


def whists(t: Totals) -> tuple[int, int]:
    """What B and C wrote on A."""
    return t.w("B", "A"), t.w("C", "A")


# 6.2: 6S (c 2), B whists alone, C passes, A takes 5 (u 1): G_A += c*u = 2; B writes every
# defence trick, k_w*c*5 = 10; consolation c*u = 2 per opponent the flag names.
DOWN_ONE_VS_B = deal("6S", B_ALONE, (5, 4, 1))


@pytest.mark.parametrize(("convention", "hill_a", "want"),
                         [("sochi", 2, (12, 2)), ("leningrad", 4, (12, 12)), ("rostov", 2, (5, 5))])
def test_convention(convention: str, hill_a: int, want: tuple[int, int]) -> None:
    """6.1 presets on 6S down one against B alone (c 2, u 1, 5 defence tricks). Sochi: as
    ``DOWN_ONE_VS_B``, B 10 + 2, C 2. Leningrad: remise 2c*u = 4; B writes 2c*5 = 20 and each
    opponent the consolation c*u = 2 (R2 default), and gentleman's whist splits all 24 half-half,
    12 each. Rostov (U: the preset's values, not an oracle): no consolation, gentleman's split of
    B's 10, 5 each."""
    t = settle(ABC, [DOWN_ONE_VS_B], {"convention": convention})
    assert hills(t) == (hill_a, 0, 0)
    assert whists(t) == want


@pytest.mark.parametrize(("who", "want"), [("both_opponents", (12, 2)), ("whisters_only", (12, 0)),
                                           ("none", (10, 0))])
def test_consolation(who: str, want: tuple[int, int]) -> None:
    """6.1, 6.2, R6: the consolation c*u = 2 goes to both opponents (the passer C too), to the
    whister B only, or to nobody; B's 10 trick whists and A's remise 2 stay."""
    t = settle(ABC, [DOWN_ONE_VS_B], {"consolation": who})
    assert whists(t) == want
    assert hills(t) == (2, 0, 0)


def test_consolation_factor_two() -> None:
    """6.1 Leningrad consolation 2c per undertrick (U, R2: the value is the flag's, not an
    oracle): the formula k_con*c*u = 2*2*1 = 4 to each opponent, B 10 + 4, C 4."""
    t = settle(ABC, [DOWN_ONE_VS_B], {"consolation_factor": 2})
    assert whists(t) == (14, 4)


@pytest.mark.parametrize(("k", "want"), [(1, (6, 2)), (2, (12, 4))])
def test_whist_trick_factor(k: int, want: tuple[int, int]) -> None:
    """6.1 whists per defence trick (k_w*c): 6S made 6 / 3 / 1 against two whisters, c 2:
    Sochi B 3*2 = 6, C 1*2 = 2 (X1); Leningrad's 2c alone, B 12, C 4 (X9 without the rest of
    the preset)."""
    t = settle(ABC, [deal("6S", BOTH, (6, 3, 1))], {"whist_trick_factor": k})
    assert whists(t) == want
    assert t.pool["A"] == 2


@pytest.mark.parametrize(("k", "hill_a"), [(1, 4), (2, 8)])
def test_remise_factor(k: int, hill_a: int) -> None:
    """6.1 remise k_rem*c*u: 7H (c 4) down one, 6 / 2 / 2 against two whisters: G_A 4 (Sochi)
    or 8 (Leningrad's 2c); the whists do not move: each whister 2*4 + consolation 4 = 12."""
    t = settle(ABC, [deal("7H", BOTH, (6, 2, 2))], {"remise_factor": k})
    assert hills(t) == (hill_a, 0, 0)
    assert whists(t) == (12, 12)


@pytest.mark.parametrize(("k", "hill_a"), [(10, 20), (20, 40)])
def test_misere_trick_penalty(k: int, hill_a: int) -> None:
    """6.1 misère failed: k_mis per trick to the hill; two tricks cost 20 (Sochi, RS5) or 40
    (Leningrad, RL2), with no whists."""
    t = settle(ABC, [deal("misere", None, (2, 5, 3))], {"misere_trick_penalty": k})
    assert (t.pool["A"], hills(t), whists(t)) == (0, (hill_a, 0, 0), (0, 0))


@pytest.mark.parametrize(("style", "down", "made"), [("greedy", (12, 2), (8, 0)),
                                                     ("gentleman", (7, 7), (8, 0))])
def test_whist_style(style: str, down: tuple[int, int], made: tuple[int, int]) -> None:
    """6.1 one whister, one passer: greedy, B writes everything (10 trick whists + consolation
    2) and C his consolation 2; gentleman's, on A's failure all 14 whists of the deal are split
    half-half, 7 each (X11 at Sochi rates). When A makes 6S (6 / 3 / 1) nothing is split:
    B writes the four defence tricks, 8 (X6)."""
    assert whists(settle(ABC, [DOWN_ONE_VS_B], {"whist_style": style})) == down
    assert whists(settle(ABC, [deal("6S", B_ALONE, (6, 3, 1))], {"whist_style": style})) == made


@pytest.mark.parametrize(("responsibility", "hill_b"), [("full", 4), ("half", 2)])
def test_whist_responsibility(responsibility: str, hill_b: int) -> None:
    """6.1 whister shortfall: 6S made 8 / 2 / 0 against B alone, defence 2 of quota 4: two
    missing tricks at k_w*c = 2 each, G_B 4 (X7), or at half of it, 1 each, G_B 2."""
    t = settle(ABC, [deal("6S", B_ALONE, (8, 2, 0))], {"whist_responsibility": responsibility})
    assert hills(t) == (0, hill_b, 0)
    assert whists(t) == (4, 0)


@pytest.mark.parametrize(
    ("rule", "none_taken", "first_took_it"),
    [("second_whister", (0, 0, 6), (0, 0, 0)),
     ("second_whister_personal", (0, 0, 6), (0, 0, 6)),
     ("both", (0, 6, 6), (0, 0, 0))],
)
def test_two_whister_q1_responsible(rule: str, none_taken: tuple[int, int, int],
                                    first_took_it: tuple[int, int, int]) -> None:
    """6.2 two whisters on 8 (c 6, quota 1): A takes all ten, the team is one short: the second
    whister C pays c = 6, or both do. A takes 9 and B the quota trick: nobody is short, but
    under ``second_whister_personal`` C, with no trick himself, still pays 6 (RS2)."""
    zero = settle(ABC, [deal("8S", BOTH, (10, 0, 0))], {"two_whister_q1_responsible": rule})
    one = settle(ABC, [deal("8S", BOTH, (9, 1, 0))], {"two_whister_q1_responsible": rule})
    assert (hills(zero), hills(one)) == (none_taken, first_took_it)


@pytest.mark.parametrize(("tricks", "w_ca", "hill_c"), [((7, 1, 2), 4, 0), ((9, 0, 1), 2, 2)])
def test_half_whist_play(tricks: tuple[int, int, int], w_ca: int, hill_c: int) -> None:
    """3 ([rostik] custom): a half-whist played for half the quota, 6H (c 2, Q 4, half 2): with
    3 defence tricks C writes min(3, 2)*2 = 4; with 1 he writes 2 and answers for the missing
    trick, c = 2 on his hill. A makes 6 either way: P_A 2. Not played (the default) it is X8."""
    t = settle(ABC, [deal("6H", {"B": "pass", "C": "half"}, tricks)], {"half_whist_play": True})
    assert (t.pool["A"], whists(t), hills(t)) == (2, (0, w_ca), (0, 0, hill_c))


@pytest.mark.parametrize(("value", "want"), [(1, (0, 3, 1)), (2, (0, 6, 2))])
def test_raspasy_trick_value(value: int, want: tuple[int, int, int]) -> None:
    """7: a first raspasy (level 1), tricks 2 / 5 / 3, amnesty of the fewest (2): each trick
    above it costs value*level: G 0 / 3 / 1 (RS6), or 0 / 6 / 2 at 2 a trick."""
    assert hills(settle(ABC, [raspasy(2, 5, 3)], {"raspasy_trick_value": value})) == want


@pytest.mark.parametrize(("amnesty", "want"), [(True, (0, 3, 1)), (False, (2, 5, 3))])
def test_raspasy_amnesty(amnesty: bool, want: tuple[int, int, int]) -> None:
    """7: tricks 2 / 5 / 3 at level 1: less the fewest, G 0 / 3 / 1; without amnesty every trick
    counts, 2 / 5 / 3."""
    assert hills(settle(ABC, [raspasy(2, 5, 3)], {"raspasy_amnesty": amnesty})) == want


@pytest.mark.parametrize(("progression", "want"), [("1,2,3cap", (0, 9, 3)), ("1,2,4", (0, 12, 4)),
                                                   ("none", (0, 3, 1))])
def test_raspasy_progression(progression: str, want: tuple[int, int, int]) -> None:
    """7: the third raspasy in a row, tricks 2 / 5 / 3 (amnesty 2): B pays 3 tricks and C 1,
    times the level: 3 (``1,2,3cap``), 4 (``1,2,4``) or 1 (``none``). The two raspasy before it
    (4 / 3 / 3) only raise the run."""
    t = settle(ABC, [raspasy(4, 3, 3), raspasy(4, 3, 3), raspasy(2, 5, 3)],
            {"raspasy_progression": progression})
    third = t.settled.settlements.filter(deal_no=3).sort("seat")
    assert tuple(third["hill_delta"].to_list()) == want


@pytest.mark.parametrize("bonus", [0, 1, 3])
def test_raspasy_zero_bonus(bonus: int) -> None:
    """7: a player without a trick writes the bonus to his pool (RS7: 1); tricks 0 / 4 / 6,
    amnesty of 0: B 4, C 6 to the hill."""
    t = settle(ABC, [raspasy(0, 4, 6)], {"raspasy_zero_bonus": bonus})
    assert (t.pool["A"], hills(t)) == (bonus, (0, 4, 6))


def test_raspasy_payment_in_whists() -> None:
    """7 Rostov, raspasy paid in whists (U: the flag's value, not an oracle): the cost of
    tricks 2 / 5 / 3 at level 1 (B 3, C 1) is written on the player by each other player in the
    deal, [resolution]: A and C write 3 on B, A and B write 1 on C; no hill."""
    t = settle(ABC, [raspasy(2, 5, 3)], {"raspasy_payment": "whists"})
    assert hills(t) == (0, 0, 0)
    assert (t.w("A", "B"), t.w("C", "B"), t.w("A", "C"), t.w("B", "C")) == (3, 3, 1, 1)


@pytest.mark.parametrize(("reset", "want"), [("played", (0, 6, 2)), ("any_contract", (0, 3, 1))])
def test_raspasy_reset(reset: str, want: tuple[int, int, int]) -> None:
    """7: a raspasy, then 6S both pass (not played), then raspasy 2 / 5 / 3: the unplayed
    contract keeps the run (``played``), so the second raspasy is level 2, G 0 / 6 / 2; under
    ``any_contract`` it ends the run, level 1, G 0 / 3 / 1."""
    t = settle(ABC, [raspasy(4, 3, 3), deal("6S", NOBODY, None), raspasy(2, 5, 3)],
            {"raspasy_reset": reset})
    third = t.settled.settlements.filter(deal_no=3).sort("seat")
    assert tuple(third["hill_delta"].to_list()) == want


@pytest.mark.parametrize(("target", "pool", "w_ab", "finished"),
                         [(20, (4, 0, 0), 0, False), (2, (2, 2, 0), 20, False)])
def test_pool_target(target: int, pool: tuple[int, int, int], w_ab: int, finished: bool) -> None:
    """8: A makes 7S unwhisted (c 4). T 20: his pool 4. T 2: he fills his pool to 2 and the
    other 2 help the highest pool below T, B and C tied at 0, clockwise from A: B, 10 whists a
    point, A writes 20 on B. The game is not over while C's pool is below T."""
    t = settle(ABC, [deal("7S", NOBODY, None)], {"pool_target": target})
    assert (t.pool["A"], t.pool["B"], t.pool["C"]) == pool
    assert (t.w("A", "B"), t.finished) == (w_ab, finished)


def test_overflow_help_goes_to_the_highest_pool_below_target() -> None:
    """8: T 4; C makes 6S (pool 2), then A makes 8S unwhisted (c 6): 4 fill A's pool, the other
    2 go to C, the highest pool below T, although B comes first clockwise: C's pool 4, A writes
    20 on C; every pool but B's is closed."""
    c_six = contract("C", "6S", {"A": "pass", "B": "pass"}, None, dealer="B")
    t = settle(ABC, [c_six, deal("8S", NOBODY, None)], {"pool_target": 4})
    assert (t.pool, t.w("A", "C"), t.w("A", "B")) == ({"A": 4, "B": 0, "C": 4}, 20, 0)


@pytest.mark.parametrize(("below_zero", "hill_c"), [(True, -2), (False, 0)])
def test_overflow_hill_below_zero(below_zero: bool, hill_c: int) -> None:
    """8 ([code96]; [rostik] custom): T 2; A and B make 6S unwhisted (c 2, pools 2), then C makes
    7S unwhisted (c 4): 2 close his pool, every pool is closed, and the other 2 come off C's
    hill, even below zero (-2), or not below zero (his hill stays 0). The game is over."""
    def unwhisted(p: str, c: str) -> dict[str, Any]:
        return contract(p, c, {o: "pass" for o in ABC if o != p}, None,
                        dealer=ABC[ABC.index(p) - 1])
    t = settle(ABC, [unwhisted("A", "6S"), unwhisted("B", "6S"), unwhisted("C", "7S")],
            {"pool_target": 2, "overflow_hill_below_zero": below_zero})
    assert hills(t) == (0, 0, hill_c)
    assert (t.pool, t.finished) == ({"A": 2, "B": 2, "C": 2}, True)


@pytest.mark.parametrize(("rule", "want"), [("to_hill", [80 / 3, -40 / 3, -40 / 3]),
                                            ("ignore", [0.0, 0.0, 0.0])])
def test_unfinished_pool(rule: str, want: list[float]) -> None:
    """8 (U: the flag's value, not an oracle): the session stops with pools 4 / 0 / 0 of 20 and
    no hill or whists. ``to_hill`` counts the missing points as hill points, so the hills are
    16 / 20 / 20: A gets 10/3 per point of difference from each, (10/3)*(4 + 4) = 80/3, B and C
    pay 40/3; ``ignore`` settles nothing."""
    out = result(RussianRules(unfinished_pool=rule), 3, [4, 0, 0], [0, 0, 0], [[0] * 3] * 3)
    assert out == pytest.approx(want)


CALLS = [(0, "6S"), (1, "6C"), (2, "pass"), (0, "misere"), (1, "pass")]


@pytest.mark.parametrize("first_only", [True, False])
def test_misere_first_call_only(first_only: bool) -> None:
    """2: A bids 6S, B 6C, C passes, A says misère (above 8NT, so it outranks 6C): not as a
    second call when the flag holds; without it A wins the auction with the misère."""
    rules = RussianRules(misere_first_call_only=first_only)
    if first_only:
        with pytest.raises(CallError, match="after his first call"):
            run(CALLS, [0, 1, 2], rules, ABC)
    else:
        won = run(CALLS, [0, 1, 2], rules, ABC)
        assert (won.declarer, str(won.bid)) == (0, "misere")


HOLD = [(0, "6S"), (1, "6C"), (2, "pass"), (0, "6C"), (1, "pass")]


@pytest.mark.parametrize("hold", [False, True])
def test_elder_hold(hold: bool) -> None:
    """2 (U: the flag's value, not an oracle): first hand A repeats B's 6C. Without the hold
    every bid must outrank the last; with it A takes the bid over and wins at 6C."""
    rules = RussianRules(elder_hold=hold)
    if not hold:
        with pytest.raises(CallError, match="must outrank"):
            run(HOLD, [0, 1, 2], rules, ABC)
    else:
        won = run(HOLD, [0, 1, 2], rules, ABC)
        assert (won.declarer, str(won.bid)) == (0, "6C")
