"""The public API: input checks, helpers, and the interpreted kernel agreeing with the compiled one.

Rules: greek-prefa.md 7 (play), 6.1 step 6 (alone: two-handed), balkan.md "Early end",
swabian.md Bettel / Durchmarsch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from model.cards import SUIT_MASK, parse_cards
from sim.solver import (
    BALKAN_CONTRACTS,
    BALKAN_STOP,
    BETTEL_STOP,
    CONTRACTS,
    SWABIAN_CONTRACTS,
    Goal,
    SolverInputError,
    Stop,
    best_cards,
    best_contracts,
    legal,
    solve,
    tricks_per_contract,
)
from tests.conftest import DATA, ROOT
from tests.sim.solver.fixtures import read_unisay

# West holds every top card: a trivial deal whose values are known by hand.
TOPS = parse_cards(["AS", "KS", "QS", "AC", "KC", "QC", "AD", "KD", "AH", "KH"])
MID = parse_cards(["JS", "TS", "9S", "JC", "TC", "9C", "QD", "JD", "QH", "JH"])
LOW = parse_cards(["8S", "7S", "8C", "7C", "TD", "9D", "8D", "TH", "9H", "8H"])


def test_top_hand_takes_all_ten_whoever_leads() -> None:
    for leader in range(3):
        assert solve((TOPS, MID, LOW), leader, 0, None, Goal.MOST) == 10
        assert solve((TOPS, MID, LOW), leader, 0, None, Goal.ALL) == 10


def test_durchmarsch_stops_at_the_first_lost_trick() -> None:
    """swabian.md Durchmarsch: play ends when the declarer loses a trick, so the answer counts
    the tricks before that loss. Two-handed: declarer 7S AH against AS KH, the defender leads;
    with full play the declarer's ace takes a trick, with the stop it never comes into play."""
    hands = (parse_cards(["7S", "AH"]), parse_cards(["AS", "KH"]))
    assert solve(hands, 1, 0, None, Goal.MOST) == 1
    assert solve(hands, 1, 0, None, Goal.ALL) == 0
    assert solve(hands, 0, 0, None, Goal.ALL) == 1  # AH first, then the loss
    assert solve(hands, 1, 0, None, Goal.MOST, stop=Stop(defence=1)) == 0


def test_bettel_stop_gives_zero_or_one() -> None:
    full = solve((TOPS, MID, LOW), 1, 0, None, Goal.FEWEST)
    assert full == 10
    assert solve((TOPS, MID, LOW), 1, 0, None, Goal.FEWEST, stop=BETTEL_STOP) == 1


def test_balkan_stop_never_raises_the_declarers_count() -> None:
    """balkan.md "Early end": play stops at the defence's fifth trick, so a declarer who makes
    six or more is unaffected and one who fails takes at most as many as with full play."""
    deal = read_unisay(DATA / "preferanser-deals" / "7.json")
    full = solve(deal.hands, deal.leader, deal.declarer, deal.trump, Goal.MOST)
    stopped = solve(deal.hands, deal.leader, deal.declarer, deal.trump, Goal.MOST,
                    stop=BALKAN_STOP)
    assert full == 5  # collector-dd-results.json: "Неземной расклад" 5 of 6
    assert stopped <= full


def test_two_handed_play_with_an_empty_seat() -> None:
    """greek-prefa.md 6.1 step 6: the passer's cards take no part; tricks of two cards."""
    assert solve((TOPS, 0, LOW), 0, 0, None, Goal.MOST) == 10
    assert solve((TOPS, LOW), 1, 1, None, Goal.MOST) == 0
    assert solve((0, MID, LOW), 1, 2, 2, Goal.MOST) == solve((MID, LOW), 0, 1, 2, Goal.MOST)


def test_tricks_per_contract_matches_solve() -> None:
    deal = read_unisay(DATA / "preferanser-deals" / "1.json")
    table = tricks_per_contract(deal.hands, deal.leader, deal.declarer)
    assert list(table) == ["S", "C", "D", "H", "NT", "misere"]
    assert table["S"] == 6  # collector-dd-results.json, Этюд №1 (6 spades)
    for c in CONTRACTS:
        assert table[c.name] == solve(deal.hands, deal.leader, deal.declarer, c.trump, c.goal)


@pytest.mark.parametrize("number", range(1, 8))
def test_best_contracts_agree_with_the_full_table(number: int) -> None:
    """``best_contracts`` (bounds instead of exact values) names the best value and the
    contracts reaching it as the full ``tricks_per_contract`` table does, whichever contract is
    already known."""
    deal = read_unisay(DATA / "preferanser-deals" / f"{number}.json")
    suits = CONTRACTS[:5]
    table = tricks_per_contract(deal.hands, deal.leader, deal.declarer, suits)
    for known in suits:
        best, names = best_contracts(deal.hands, deal.leader, deal.declarer,
                                     [c for c in suits if c is not known],
                                     {known.name: table[known.name]})
        assert best == max(table.values())
        assert set(names) == {n for n, v in table.items() if v == best}
        assert names[0] == known.name or table[known.name] != best


@pytest.mark.parametrize("number", range(1, 8))
def test_balkan_and_swabian_tables_follow_their_stops(number: int) -> None:
    """balkan.md "Early end": suits and Sanac stop at the defence's fifth trick, so a made game
    reads the same and a failed one at most the full-play count; Bettel reads 0 or 1
    (stop at the declarer's first trick); Preferans / Durchmarsch read 10 only when the full
    play gives 10 (swabian.md 3.1)."""
    deal = read_unisay(DATA / "preferanser-deals" / f"{number}.json")
    full = tricks_per_contract(deal.hands, deal.leader, deal.declarer, CONTRACTS[:5])
    # misère counted up to two tricks is enough to check Bettel (and keeps the
    # interpreted kernel quick on deal 2, a hopeless misère)
    misere = solve(deal.hands, deal.leader, deal.declarer, None, Goal.FEWEST,
                   stop=Stop(declarer=2))
    balkan = tricks_per_contract(deal.hands, deal.leader, deal.declarer, BALKAN_CONTRACTS)
    swabian = tricks_per_contract(deal.hands, deal.leader, deal.declarer, SWABIAN_CONTRACTS)
    for name, plain in (("S", "S"), ("C", "C"), ("D", "D"), ("H", "H"), ("sanac", "NT")):
        assert balkan[name] == full[plain] if full[plain] >= 6 else balkan[name] <= full[plain]
        assert swabian.get(name, full[plain]) == full[plain]
    assert balkan["bettel"] == swabian["bettel"] == min(misere, 1)
    assert (balkan["preferans"] == 10) == (full["NT"] == 10)
    assert balkan["preferans"] == swabian["durchmarsch"] <= full["NT"]


def test_best_cards_agree_with_solve() -> None:
    deal = read_unisay(DATA / "preferanser-deals" / "3.json")
    options = best_cards(deal.hands, deal.leader, deal.declarer, deal.trump, Goal.MOST)
    assert set(options) == {c for c in range(64) if deal.hands[deal.leader] >> c & 1}
    value = solve(deal.hands, deal.leader, deal.declarer, deal.trump, Goal.MOST)
    leader_is_declarer = deal.leader == deal.declarer
    best = max(options.values()) if leader_is_declarer else min(options.values())
    assert best == value == 6  # collector-dd-results.json: Kapustin's combination, 6 hearts


def test_legal_follow_suit_then_trump() -> None:
    """greek-prefa.md 7: follow suit; if void, must trump; else any card."""
    hand = parse_cards(["AS", "7S", "9H", "8D"])
    assert legal(hand, 0, 3) == parse_cards(["AS", "7S"])
    assert legal(hand, 1, 3) == parse_cards(["9H"])
    assert legal(hand, 1, None) == hand
    assert legal(hand, None, 3) == hand
    assert legal(hand, 1, 1) == hand


def test_legal_must_overtrump() -> None:
    """greek-prefa.md 14 ``must_overtrump_when_void``: a void seat over a trumped trick must
    trump higher if it can, else still trump; a trump lead is followed without obligation."""
    hand = parse_cards(["AH", "8H", "7D"])
    ten_h, queen_h = parse_cards(["TH"]).bit_length() - 1, parse_cards(["KH"]).bit_length() - 1
    assert legal(hand, 0, 3, winning=ten_h, must_overtrump=True) == parse_cards(["AH"])
    assert legal(hand, 0, 3, winning=ten_h) == parse_cards(["AH", "8H"])
    assert legal(parse_cards(["8H", "7D"]), 0, 3, winning=queen_h, must_overtrump=True) == (
        parse_cards(["8H"])
    )
    assert legal(hand, 3, 3, winning=ten_h, must_overtrump=True) == parse_cards(["AH", "8H"])


@pytest.mark.parametrize(
    ("hands", "leader", "declarer", "trick", "fragment"),
    [
        ((TOPS, TOPS, LOW), 0, 0, (), "twice"),
        ((TOPS, MID, LOW & ~SUIT_MASK[0]), 0, 0, (), "holds"),
        ((TOPS, 0, 0), 0, 0, (), "two seats"),
        ((TOPS, MID, LOW), 5, 0, (), "leader"),
        ((TOPS, MID, LOW), 0, 4, (), "declarer"),
        ((TOPS & ~(1 << 12), MID & ~(1 << 57), LOW), 0, 0, (12, 57), "follow suit"),
    ],
)
def test_bad_positions_are_refused(hands: tuple, leader: int, declarer: int, trick: tuple,
                                   fragment: str) -> None:
    with pytest.raises(SolverInputError, match=fragment):
        solve(hands, leader, declarer, None, Goal.MOST, trick=trick)


def test_trump_must_be_a_suit() -> None:
    with pytest.raises(SolverInputError, match="trump"):
        solve((TOPS, MID, LOW), 0, 0, 7, Goal.MOST)


def test_stop_defaults_to_none() -> None:
    assert Stop() == Stop(declarer=None, defence=None)


SCRIPT = """
import json, sys
from sim.solver import COMPILED, Goal, solve
from tests.conftest import DATA
from tests.sim.solver.fixtures import read_bts, read_unisay
d = read_bts(DATA / "slovesnov-preferans-problems" / "preferansEn.bts")[1]
u = read_unisay(DATA / "preferanser-deals" / "4.json")
print(json.dumps([COMPILED, solve(d.hands, d.leader, d.declarer, d.trump, Goal.MOST),
                  solve(u.hands, u.leader, u.declarer, None, Goal.FEWEST)]))
"""


def test_pure_python_kernel_without_numba() -> None:
    """TRICKBOOK_SOLVER=python runs the same kernel interpreted (the path used without numba):
    the 7-card ending (preferansEn.bts deal 2: 0) and Lasker's misère (Unisay 4: 2 tricks)."""
    env = dict(os.environ, TRICKBOOK_SOLVER="python", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=300)
    assert json.loads(out.stdout) == [False, 0, 2]


def test_must_overtrump_changes_the_value() -> None:
    """greek-prefa.md 14: the declarer leads AS; the first defender must ruff with 9H; his partner,
    void in spades, holds AH 8H. Without the option he under-ruffs with 8H, keeps AH over the
    declarer's KH and the defence takes both tricks; with it he must spend AH, and KH wins later."""
    hands = (parse_cards(["AS", "KH"]), parse_cards(["9H", "7C"]), parse_cards(["AH", "8H"]))
    assert solve(hands, 0, 0, 3, Goal.MOST) == 0
    assert solve(hands, 0, 0, 3, Goal.MOST, must_overtrump=True) == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_open_hand_play_keeps_the_value(seed: int) -> None:
    """Playing a whole random Greek Prefa deal by ``best_cards`` (each seat a best card for its
    side) ends with exactly the tricks ``solve`` gives at the start, and every chosen card keeps
    that value (minimax consistency across trick starts and mid-trick positions)."""
    import random

    from model.cards import DECK_32, iter_cards

    rng = random.Random(seed)
    deck = list(iter_cards(DECK_32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[10 * i : 10 * i + 10]) for i in range(3)]
    leader, declarer, trump = 0, rng.randrange(3), rng.choice([0, 1, 2, 3, None])
    start = solve(tuple(hands), leader, declarer, trump, Goal.MOST)
    taken = [0, 0]
    while any(hands):
        trick: list[int] = []
        seat, best, winner = leader, -1, leader
        for _ in range(3):
            values = best_cards(tuple(hands), leader, declarer, trump, Goal.MOST,
                                trick=tuple(trick), taken=(taken[0], taken[1]))
            pick = (max if seat == declarer else min)(values, key=values.__getitem__)
            assert values[pick] == start
            hands[seat] &= ~(1 << pick)
            trick.append(pick)
            if best < 0 or (pick >> 4 == best >> 4 and pick > best) or (
                trump is not None and pick >> 4 == trump and best >> 4 != trump
            ):
                best, winner = pick, seat
            seat = (seat + 1) % 3
        taken[0 if winner == declarer else 1] += 1
        leader = winner
    assert taken[0] == start
