"""The solver against a plain minimax (``naive.py``) on random small endings.

Rules checked: greek-prefa.md 7 (follow suit, must trump, no obligation to beat, trick winner),
6.1 step 6 and balkan.md "Two-handed play" (a seat sitting out), balkan.md "Early end" (stop at
the defence's fifth trick; Bettel ends at the declarer's first trick), swabian.md Bettel and
Durchmarsch (stops), russian.md misère (fewest tricks).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32, iter_cards
from sim.solver import Goal, Stop, TalonLead, best_cards, solve
from tests.sim.solver.naive import NO_CAP, naive_value

DECK = list(iter_cards(DECK_32))


@st.composite
def endings(draw: st.DrawFn) -> tuple:
    size = draw(st.integers(3, 5))
    two_handed = draw(st.booleans()) and draw(st.booleans())
    nhands = 2 if two_handed else 3
    cards = draw(st.permutations(DECK))[: size * nhands]
    hands = [sum(1 << c for c in cards[size * i : size * (i + 1)]) for i in range(nhands)]
    if two_handed:
        out = draw(st.integers(0, 2))
        hands.insert(out, 0)
    seats = [s for s in range(3) if hands[s]]
    leader = draw(st.sampled_from(seats))
    declarer = draw(st.sampled_from(seats))
    trump = draw(st.sampled_from([None, 0, 1, 2, 3]))
    goal = draw(st.sampled_from(list(Goal)))
    if goal is Goal.FEWEST:
        trump = None  # misère and Bettel have no trump (russian.md, balkan.md)
    cap_d = draw(st.sampled_from([None, None, 1, 2]))
    cap_f = draw(st.sampled_from([None, None, 1, 2, 3]))
    return tuple(hands), leader, declarer, trump, goal, Stop(declarer=cap_d, defence=cap_f)


@settings(deadline=None, max_examples=150)
@given(endings())
def test_must_overtrump_equals_naive_minimax(case: tuple) -> None:
    """greek-prefa.md 14 ``must_overtrump_when_void``: over a trump, trump higher if able."""
    hands, leader, declarer, trump, goal, _ = case
    expected = naive_value(hands, leader, declarer, trump, goal is not Goal.FEWEST,
                           cap_defence=1 if goal is Goal.ALL else NO_CAP, must_overtrump=True)
    assert solve(hands, leader, declarer, trump, goal, must_overtrump=True) == expected


@settings(deadline=None, max_examples=300)
@given(endings())
def test_solver_equals_naive_minimax(case: tuple) -> None:
    hands, leader, declarer, trump, goal, stop = case
    cap_d = NO_CAP if stop.declarer is None else stop.declarer
    cap_f = NO_CAP if stop.defence is None else stop.defence
    if goal is Goal.ALL:
        cap_f = min(cap_f, 1)  # swabian.md: Durchmarsch ends when the declarer loses a trick
    expected = naive_value(hands, leader, declarer, trump, goal is not Goal.FEWEST, cap_d, cap_f)
    assert solve(hands, leader, declarer, trump, goal, stop=stop) == expected


@settings(deadline=None, max_examples=100)
@given(endings(), st.integers(0, 3), st.integers(0, 3))
def test_taken_tricks_count_towards_the_stop(case: tuple, dt: int, ft: int) -> None:
    """Tricks won before the position are part of the answer and of the stop (balkan.md)."""
    hands, leader, declarer, trump, goal, _ = case
    stop = Stop(defence=5)
    size = max(h.bit_count() for h in hands)
    fresh = naive_value(hands, leader, declarer, trump, goal is not Goal.FEWEST, NO_CAP,
                        max(5 - ft, 0) if goal is not Goal.ALL else min(max(5 - ft, 0), 1))
    got = solve(hands, leader, declarer, trump, goal, stop=stop, taken=(dt, ft))
    if ft >= 5 or (goal is Goal.ALL and ft >= 1):
        assert got == dt
    else:
        assert got == dt + fresh
    assert dt <= got <= dt + size


@settings(deadline=None, max_examples=100)
@given(endings())
def test_best_cards_of_the_leader_agree_with_the_naive_value(case: tuple) -> None:
    """Every first card is valued by a search that starts mid-trick; the leader's best choice must
    give the value of the whole ending (minimax), for each goal and stop."""
    hands, leader, declarer, trump, goal, stop = case
    options = best_cards(hands, leader, declarer, trump, goal, stop=stop)
    assert set(options) == {c for c in iter_cards(hands[leader])}
    maximise = (leader == declarer) == (goal is not Goal.FEWEST)
    best = max(options.values()) if maximise else min(options.values())
    assert best == solve(hands, leader, declarer, trump, goal, stop=stop)


@st.composite
def raspasy_endings(draw: st.DrawFn) -> tuple:
    """Three hands of a raspasy ending (russian.md 7: no trump, ten tricks played out), the
    player valued (any seat), and maybe talon leads (russian.md 4): first hand leads the first
    one or two tricks, each in a given suit when he holds it."""
    size = draw(st.integers(2, 4))
    cards = draw(st.permutations(DECK))[: 3 * size]
    hands = tuple(sum(1 << c for c in cards[size * i : size * (i + 1)]) for i in range(3))
    leader = draw(st.integers(0, 2))
    player = draw(st.integers(0, 2))
    suits = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=min(2, size))))
    return hands, leader, player, (TalonLead(leader, suits, tricks=size) if suits else None)


@settings(deadline=None, max_examples=200)
@given(raspasy_endings())
def test_raspasy_per_player_value_equals_naive_minimax(case: tuple) -> None:
    """Raspasy valued per player (docs/solver.md): the player plays for his fewest tricks, the
    two others against him; with the talon leads the first tricks are led by first hand in the
    turned cards' suits (russian.md 4), whoever won the trick before."""
    hands, leader, player, lead = case
    leads = None if lead is None else (lead.seat, lead.suits)
    expected = naive_value(hands, leader, player, None, False, talon_leads=leads)
    assert solve(hands, leader, player, None, Goal.FEWEST, talon_lead=lead) == expected
    options = best_cards(hands, leader, player, None, Goal.FEWEST, talon_lead=lead)
    pick = min if player == leader else max
    assert pick(options.values()) == expected
    if lead is not None and lead.suits:  # a talon lead in a suit he holds is the only lead
        held = [c for c in iter_cards(hands[leader]) if c >> 4 == lead.suits[0]]
        assert set(options) == (set(held) or set(iter_cards(hands[leader])))


@settings(deadline=None, max_examples=100)
@given(raspasy_endings(), st.data())
def test_raspasy_card_values_with_the_value_known(case: tuple, data: st.DataObject) -> None:
    """``best_cards`` told the position's value (the review's shortcut) gives the values of a
    search without it, after any first card (mid-trick, talon leads to come)."""
    hands, leader, player, lead = case
    first = best_cards(hands, leader, player, None, Goal.FEWEST, talon_lead=lead)
    card = data.draw(st.sampled_from(sorted(first)))
    after = list(hands)
    after[leader] &= ~(1 << card)
    value = solve(after, leader, player, None, Goal.FEWEST, trick=(card,), talon_lead=lead)
    assert value == first[card]
    plain = best_cards(after, leader, player, None, Goal.FEWEST, trick=(card,), talon_lead=lead)
    told = best_cards(after, leader, player, None, Goal.FEWEST, trick=(card,), talon_lead=lead,
                      value=value)
    assert told == plain


@settings(deadline=None, max_examples=100)
@given(endings(), st.integers(0, 10))
def test_solve_clamped_to_a_floor_or_ceiling(case: tuple, bound: int) -> None:
    """``solve``'s ``floor`` and ``ceiling`` clamp the exact value (``best_contracts``)."""
    hands, leader, declarer, trump, goal, stop = case
    exact = solve(hands, leader, declarer, trump, goal, stop=stop)
    assert solve(hands, leader, declarer, trump, goal, stop=stop, floor=bound) == max(exact, bound)
    assert solve(hands, leader, declarer, trump, goal, stop=stop,
                 ceiling=bound) == min(exact, bound)
