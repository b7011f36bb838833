"""Every Balkan flag that changes a number, against a value computed by hand from
``../shared/spec/balkan.md`` (section named in each test; seed units v = n + igra unless the test
sets ``value_scale``). Kernel and reference are held equal on each (``sheet.settle``). The flags
the worked examples already hold are listed in docs/balkan.md "Flags"."""

from __future__ import annotations

from typing import Any

import pytest

from model.balkan.check import check_deal
from tests.scoring.balkan.sheet import deals, game, last, settle, soups

P = ["D", "A", "B"]  # turn order: A is the defender on the declarer's left (clockwise)
BOTH = {"A": "play", "B": "play"}


def hand(contract: str, tricks: dict[str, int] | None, defence: dict[str, str] | None = None,
         **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"declarer": "D", "contract": contract, "defence": defence or BOTH}
    if tricks is not None:
        row["tricks"] = tricks
    return row | extra


def booked(rows: list[dict[str, Any]], **rules: Any) -> Any:
    g = game(P, **rules)
    return settle(g, deals(g, rows))


def bula(s: Any) -> tuple[int, int, int]:
    d = last(s, "bula_delta")
    return d["D"], d["A"], d["B"]


@pytest.mark.parametrize(("increment", "v"), [(0, 4), (1, 5), (2, 6)])
def test_igra_increment(increment: int, v: int) -> None:
    """7.2: v = s * (n + igra_increment): igra Herc (G4) made 6/2/2 is worth 4 + increment; the
    declarer's bula -v, each defender writes 2 * v."""
    s = booked([hand("G4", {"D": 6, "A": 2, "B": 2})], igra_increment=increment)
    assert bula(s) == (-v, 0, 0)
    assert soups(s) == {("A", "D"): 2 * v, ("B", "D"): 2 * v}


@pytest.mark.parametrize(("who", "want"), [("to_inviter", {("A", "D"): 12}),
                                           ("own", {("A", "D"): 8, ("B", "D"): 4})])
def test_invited_soups(who: str, want: dict[tuple[str, str], int]) -> None:
    """7.3 (K7): A invites B, Herc (v 4) made 7/2/1: ``to_inviter`` A writes all three defence
    tricks (12); ``own`` A writes 8, B 4. A, short of the team's four, is penalised +4 both
    ways."""
    s = booked([hand("4", {"D": 7, "A": 2, "B": 1}, {"A": "invite", "B": "pass"})],
               invited_soups=who)
    assert soups(s) == want
    assert bula(s) == (-4, 4, 0)


@pytest.mark.parametrize(("rule", "want"), [("team_rule", (-4, 0, 0)),
                                            ("individual_two", (-4, 0, 4))])
def test_defender_fail(rule: str, want: tuple[int, int, int]) -> None:
    """5.2 (K12): Herc made 6/3/1, the pair took four: nobody is penalised under the seed's team
    rule; ``individual_two`` penalises B (1 trick < 2) by v = 4."""
    s = booked([hand("4", {"D": 6, "A": 3, "B": 1})], defender_fail=rule)
    assert bula(s) == want
    assert soups(s) == {("A", "D"): 12, ("B", "D"): 4}


@pytest.mark.parametrize(("blocked", "third"), [(False, -8), (True, -4)])
def test_refe_blocked_below_zero(blocked: bool, third: int) -> None:
    """7.4: start bula 3, D makes Herc (3 - 4 = -1, under the hat); then all pass: a refa is
    written for everybody unless ``refe_blocked_below_zero``; D's next Herc counts -8 with the
    refa, -4 without."""
    made = hand("4", {"D": 6, "A": 2, "B": 2})
    s = booked([made, {}, dict(made)], start_bula=3, refe_blocked_below_zero=blocked)
    d = s.settlements.filter(s.settlements["player"] == "D")
    assert d["bula_delta"].to_list() == [-4, 0, third]


@pytest.mark.parametrize(("soup", "each"), [("five_tricks", 30), ("tricks_taken", 6),
                                            ("none", 0)])
def test_bettel_fail_soup(soup: str, each: int) -> None:
    """7.3: Bettel (v 6) lost, D 1 A 1 B 1 (play stops at the declarer's first trick): each
    defender writes 5 * 6 = 30 (``five_tricks``), his own 1 * 6 (``tricks_taken``) or nothing;
    the declarer's bula +6 in every case."""
    s = booked([hand("6", {"D": 1, "A": 1, "B": 1})], bettel_fail_soup=soup)
    assert bula(s) == (6, 0, 0)
    assert soups(s) == ({("A", "D"): each, ("B", "D"): each} if each else {})


@pytest.mark.parametrize(("condition", "finished"), [("bula_sum_le_zero", True),
                                                     ("all_bulas_le_zero", False)])
def test_end_condition(condition: str, finished: bool) -> None:
    """7.5: start bula 2, D makes Herc twice: bulas -6 / 2 / 2, sum -2: the game is over under
    the sum rule, not while A's and B's bulas are above zero (``all_bulas_le_zero``)."""
    made = hand("4", {"D": 6, "A": 2, "B": 2})
    s = booked([made, dict(made)], start_bula=2, end_condition=condition)
    assert last(s, "bula_after") == {"D": -6, "A": 2, "B": 2}
    assert s.standings["finished"].all() is finished


@pytest.mark.parametrize(("revalues", "deltas", "used"),
                         [(True, [0, 0, -8], [False, False, True]),
                          (False, [0, 0, -4], [False, True, False])])
def test_repeal_revalues(revalues: bool, deltas: list[int], used: list[bool]) -> None:
    """7.4 and records.md ``repealed``: all pass (a refa each), D's Herc crossed out, D's Herc
    made. Re-derived (default), the crossed-out hand uses no refa and the last counts double
    (-8); fixed when played (the club's scorer), the crossed-out hand used it (-4)."""
    made = hand("4", {"D": 6, "A": 2, "B": 2})
    s = booked([{}, made | {"repealed": True}, dict(made)], repeal_revalues=revalues)
    d = s.settlements.filter(s.settlements["player"] == "D")
    assert d["bula_delta"].to_list() == deltas
    assert d["refa_used"].to_list() == used


def test_both_kontra_players_fail_at_six_two_two() -> None:
    """5.2 kontra row and 5.3 [seed 002]: the right to kontra passes from the defender on the
    declarer's left to the other, so both may say kontra, and each kontra player is penalised
    when the defence took at most four. Tref (v 5) made 6/2/2, kontra x2 with each: D -5 * 2,
    A and B +5 * 2 each, each writes 2 * 5 * 2 = 20 (``kontra_scope = pairwise``)."""
    s = booked([hand("5", {"D": 6, "A": 2, "B": 2}, kontra={"A": 1, "B": 1})])
    assert bula(s) == (-10, 10, 10)
    assert soups(s) == {("A", "D"): 20, ("B", "D"): 20}


@pytest.mark.parametrize(("scope", "bulas", "want"), [
    ("pairwise", (20, 0, 0), {("A", "D"): 60, ("B", "D"): 10}),
    ("whole_hand", (20, 0, 0), {("A", "D"): 60, ("B", "D"): 40}),
    ("kontra_player_takes_all", (20, 0, 0), {("A", "D"): 100}),
])
def test_kontra_scope(scope: str, bulas: tuple[int, int, int],
                      want: dict[tuple[str, str], int]) -> None:
    """7.3 (K11): Tref (v 5) lost 5/3/2, A rekontra'd (x4). The declarer's bula +5 * 4 in every
    scope. ``pairwise``: A writes 3 * 5 * 4 = 60, B 2 * 5 = 10; ``whole_hand``: B's soup x4 too
    (40); ``kontra_player_takes_all``: A writes all five defence tricks x4 (100), B nothing."""
    s = booked([hand("5", {"D": 5, "A": 3, "B": 2}, kontra={"A": 2})], kontra_scope=scope)
    assert bula(s) == bulas
    assert soups(s) == want


@pytest.mark.parametrize(("needs", "row", "want"), [
    (True, hand("2", None), (-2, {})),
    (False, hand("2", {"D": 6, "A": 2, "B": 2}), (-2, {("A", "D"): 4, ("B", "D"): 4})),
])
def test_pik_needs_kontra(needs: bool, row: dict[str, Any],
                          want: tuple[int, dict[tuple[str, str], int]]) -> None:
    """5.3: plain Pik (v 2) that both defenders play but nobody kontras is not played and counts
    as made (-2, no soups); with ``pik_needs_kontra`` off it is played: made 6/2/2, -2 and each
    defender writes 2 * 2 = 4. A Pik without tricks is then an error."""
    g = game(P, pik_needs_kontra=needs)
    ds = deals(g, [row])
    s = settle(g, ds)
    assert (bula(s)[0], soups(s)) == want
    if not needs:
        assert check_deal(g, deals(g, [hand("2", None)])[0])


@pytest.mark.parametrize("allowed", [False, True])
def test_preferans_bid(allowed: bool) -> None:
    """1, 4: contract 8 = Preferans (all ten tricks, no trump) exists only with ``preferans_bid``;
    made with both defenders passing it is worth v = 8: D's bula -8."""
    g = game(P, preferans_bid=allowed)
    ds = deals(g, [hand("8", None, {"A": "pass", "B": "pass"})])
    assert bool(check_deal(g, ds[0])) is not allowed
    if allowed:
        assert bula(settle(g, ds)) == (-8, 0, 0)


@pytest.mark.parametrize("cap", [None, 2])
def test_kontra_max_level(cap: int | None) -> None:
    """5.3: subkontra (3 calls, x8) is legal without a cap and refused under
    ``kontra_max_level = 2``; when legal, Tref (v 5) lost 5/3/2 books D +5 * 8 = 40."""
    g = game(P, kontra_max_level=cap)
    ds = deals(g, [hand("5", {"D": 5, "A": 3, "B": 2}, kontra={"A": 3})])
    assert bool(check_deal(g, ds[0])) is (cap == 2)
    if cap is None:
        assert bula(settle(g, ds))[0] == 40
