"""The solver on the solved positions in ``../shared/data`` with the results its README gives.

Sources: data README sections ``preferanser-deals/``, ``slovesnov-preferans-problems/``,
``eshavlyugin-solver-tests/`` and ``preferans-dd-checks/`` (collector-dd-results.json,
kovalevskaya-misere.json).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.cards import parse_card, parse_cards
from sim.solver import Goal, best_cards, solve
from tests.conftest import DATA
from tests.sim.solver.fixtures import Deal, read_bts, read_eshavlyugin, read_unisay

CHECKS = DATA / "preferans-dd-checks"


def value(d: Deal) -> int:
    return solve(d.hands, d.leader, d.declarer, d.trump, Goal.FEWEST if d.misere else Goal.MOST)


def collector() -> dict:
    return json.loads((CHECKS / "collector-dd-results.json").read_text(encoding="utf-8"))


def fixture_cases() -> list[tuple[str, int]]:
    return [(r["fixture"], r["dd_declarer_tricks"]) for r in collector()["results"]]


def load(fixture: str) -> Deal:
    path, _, rest = fixture.partition(" deal ")
    file = DATA / path
    if path.endswith(".json"):
        return read_unisay(file)
    deals = read_bts(file)
    return deals[int(rest.split()[0]) - 1] if rest else deals[0]


@pytest.mark.parametrize(("fixture", "expected"), fixture_cases())
def test_collector_dd_results(fixture: str, expected: int) -> None:
    """preferans-dd-checks/collector-dd-results.json: every Unisay étude and Bridge Studio problem
    (the README's "collector's double-dummy results")."""
    assert value(load(fixture)) == expected


@pytest.mark.parametrize("fixture", [f for f, _ in fixture_cases()])
def test_fixture_metadata_matches_our_reading(fixture: str) -> None:
    """Our reading of each file names the same declarer seat and leader as the results file."""
    row = next(r for r in collector()["results"] if r["fixture"] == fixture)
    d = load(fixture)
    if fixture.endswith(".json"):
        seats = ["EAST", "SOUTH", "WEST"]
    else:
        absent = row.get("absent", "S")
        seats = [s for s in "NESW" if s != absent]
    assert seats[d.declarer] == row["declarer"]
    assert seats[d.leader] == row["first_lead"]


def test_kovalevskaya_version_a_is_caught_by_one_trick() -> None:
    """kovalevskaya-misere.json version A (preferanser-deals/5.json): South takes 1 trick."""
    a = json.loads((CHECKS / "kovalevskaya-misere.json").read_text(encoding="utf-8"))["version_A"]
    seats = a["seats_clockwise"]
    hands = tuple(parse_cards(a["hands"][s]) for s in seats)
    declarer, leader = seats.index(a["declarer"]), seats.index(a["first_lead"])
    assert solve(hands, leader, declarer, None, Goal.FEWEST) == 1
    assert a["expected_outcome"]["declarer_tricks_under_optimal_play"] == 1


def test_kovalevskaya_version_a_optimal_line_is_optimal() -> None:
    """Replay the stored optimal line: every card is among the best for its side and the value
    stays 1 (kovalevskaya-misere.json ``one_optimal_line``)."""
    a = json.loads((CHECKS / "kovalevskaya-misere.json").read_text(encoding="utf-8"))["version_A"]
    seats = a["seats_clockwise"]
    hands = [parse_cards(a["hands"][s]) for s in seats]
    declarer = seats.index(a["declarer"])
    taken = [0, 0]
    for trick in a["one_optimal_line"]["tricks"]:
        leader = seats.index(trick["cards"][0]["seat"])
        played: list[int] = []
        for step in trick["cards"]:
            seat, c = seats.index(step["seat"]), parse_card(step["card"])
            options = best_cards(tuple(hands), leader, declarer, None, Goal.FEWEST,
                                 trick=tuple(played), taken=(taken[0], taken[1]))
            best = min(options.values()) if seat == declarer else max(options.values())
            assert best == 1
            assert options[c] == best, (trick["trick"], step)
            hands[seat] &= ~(1 << c)
            played.append(c)
        winner = seats.index(trick["winner"])
        taken[0 if winner == declarer else 1] += 1
    assert taken[0] == 1


def test_kovalevskaya_version_b_takes_two() -> None:
    """kovalevskaya-misere.json version B (preferansEn.bts deal 5): 2 tricks, from the start and
    after the recorded first trick ♦A (W), ♦9 (N), ♦J (E)."""
    b = json.loads((CHECKS / "kovalevskaya-misere.json").read_text(encoding="utf-8"))["version_B"]
    seats = b["seats_clockwise"]
    hands = [parse_cards(b["hands"][s]) for s in seats]
    declarer, leader = seats.index(b["declarer"]), seats.index(b["first_lead"])
    assert solve(tuple(hands), leader, declarer, None, Goal.FEWEST) == 2
    ad, nine, jack = parse_card("AD"), parse_card("9D"), parse_card("JD")
    after_two = [hands[0] & ~(1 << nine), hands[1], hands[2] & ~(1 << ad)]
    options = best_cards(tuple(after_two), leader, declarer, None, Goal.FEWEST, trick=(ad, nine))
    assert options[jack] == 2
    after = [hands[0] & ~(1 << nine), hands[1] & ~(1 << jack), hands[2] & ~(1 << ad)]
    assert solve(tuple(after), seats.index("W"), declarer, None, Goal.FEWEST) == 2
    # the same deal as read from the Bridge Studio file
    assert value(read_bts(DATA / "slovesnov-preferans-problems" / "preferansEn.bts")[4]) == 2


ESHAVLYUGIN = read_eshavlyugin(DATA / "eshavlyugin-solver-tests" / "solvers.tests")


@pytest.mark.parametrize("test", range(3, 11))
def test_eshavlyugin_stored_answers(test: int) -> None:
    """eshavlyugin-solver-tests/solvers.tests, tests 3-10: the stored answers hold."""
    deal, stored = ESHAVLYUGIN[test - 1]
    assert value(deal) == stored


@pytest.mark.parametrize(("test", "ours", "stored"), [(1, 5, 6), (2, 9, 8)])
def test_eshavlyugin_wrong_stored_answers(test: int, ours: int, stored: int) -> None:
    """Tests 1 and 2: the data README (eshavlyugin-solver-tests, "Known defects") and
    collector-dd-results.json say the stored answers (6, 8) are wrong; the values are 5 and 9."""
    deal, answer = ESHAVLYUGIN[test - 1]
    assert answer == stored
    assert value(deal) == ours


def test_data_files_present(shared_data: Path) -> None:
    assert (shared_data / "preferans-dd-checks" / "collector-dd-results.json").is_file()
