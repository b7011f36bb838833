"""Every worked example of ``../shared/spec/russian.md`` section 9, through kernel and reference.

A is the declarer, B the first defender (A's left), C the second; C deals, so A is first hand.
RS rows are the customised Soči of [rostik] (preset ``soci-custom``), X rows Sochi defaults unless
marked Leningrad, RL rows the Leningrad table, RC the Code's hill settlement.
"""

from __future__ import annotations

from typing import Any

import pytest

from model.russian.params import RussianRules, preset
from scoring.russian.reference import result
from tests.scoring.russian.helpers import contract, run

ABC = ["A", "B", "C"]
SOCI = {"convention": "soci-custom"}
LENINGRAD = {"convention": "leningrad"}


def deal(c: str, defence: dict[str, str] | None, tricks: dict[str, int] | None,
         **extra: Any) -> dict[str, Any]:
    return contract("A", c, defence, tricks, dealer="C", **extra)


BOTH = {"B": "whist", "C": "whist"}
B_ALONE = {"B": "whist", "C": "pass"}
C_ALONE = {"B": "pass", "C": "whist"}


def test_rs1_two_whisters_write_their_tricks():
    """RS1 [rostik] §8: 7, A 7, B 1, C 2 -> P_A +4, W_BA 4, W_CA 8."""
    t = run(ABC, [deal("7S", BOTH, {"A": 7, "B": 1, "C": 2})], SOCI)
    assert (t.pool["A"], t.w("B", "A"), t.w("C", "A")) == (4, 4, 8)


def test_rs2_second_whister_answers_for_the_trick_on_eight():
    """RS2 [rostik] §20: 8, A 9, B 1, C 0 -> P_A +6, W_BA 6, W_CA 0, G_C +6."""
    t = run(ABC, [deal("8S", BOTH, {"A": 9, "B": 1, "C": 0})], SOCI)
    assert (t.pool["A"], t.w("B", "A"), t.w("C", "A"), t.hill["C"], t.hill["B"]) == (6, 6, 0, 6, 0)


def test_rs3_single_whister_writes_the_whole_defence():
    """RS3 [rostik] §20: 6, B passes, C whists, defence 4 -> P_A +2, W_CA 8."""
    t = run(ABC, [deal("6S", C_ALONE, {"A": 6, "B": 1, "C": 3})], SOCI)
    assert (t.pool["A"], t.w("C", "A"), t.w("B", "A"), t.hill["C"]) == (2, 8, 0, 0)


@pytest.mark.parametrize(
    ("taken", "pool_a", "hill_a", "hill_c", "w_ca"),
    [(10, 10, 0, 10, 0), (9, 0, 10, 0, 10), (8, 0, 20, 0, 20)],
)
def test_rs4_ten_against_one_whister(taken: int, pool_a: int, hill_a: int, hill_c: int, w_ca: int):
    """RS4 [rostik] §11: 10 vs one whister, declarer 10 / 9 / 8 (no consolation in the app)."""
    t = run(ABC, [deal("10S", C_ALONE, {"A": taken, "B": 0, "C": 10 - taken})], SOCI)
    assert (t.pool["A"], t.hill["A"], t.hill["C"], t.w("C", "A")) == (pool_a, hill_a, hill_c, w_ca)


@pytest.mark.parametrize(("taken", "pool", "hill"), [(0, 10, 0), (2, 0, 20)])
def test_rs5_misere(taken: int, pool: int, hill: int):
    """RS5 [rostik]: misère 0 tricks -> P +10; 2 tricks -> G +20."""
    t = run(ABC, [deal("misere", None, {"A": taken, "B": 5, "C": 5 - taken})], SOCI)
    assert (t.pool["A"], t.hill["A"]) == (pool, hill)


def test_rs6_first_raspasy_with_amnesty():
    """RS6 [rostik]: first raspasy, tricks 2/5/3 -> G 0/3/1."""
    t = run(ABC, [{"dealer": "C", "tricks": {"A": 2, "B": 5, "C": 3}}], SOCI)
    assert t.hill == {"A": 0, "B": 3, "C": 1}


def test_rs7_raspasy_level_two_and_the_zero_bonus():
    """RS7 [rostik]: raspasy level 2, tricks 0/4/6 -> first player P +1, others G +8, +12."""
    t = run(ABC, [{"dealer": "C", "tricks": {"A": 2, "B": 5, "C": 3}},
                  {"dealer": "A", "tricks": {"A": 0, "B": 4, "C": 6}}], SOCI)
    second = t.settled.settlements.filter(deal_no=2).sort("seat")
    assert second["pool_delta"].to_list() == [1, 0, 0]
    assert second["hill_delta"].to_list() == [0, 8, 12]


def test_rl1_leningrad_six():
    """RL1 [len-table] row 6: made 2 to the pool, 4 whists a trick, an undertrick 4 to the hill,
    a whister's missing trick 2 to his hill."""
    made = run(ABC, [deal("6S", BOTH, {"A": 6, "B": 3, "C": 1})], LENINGRAD)
    assert (made.pool["A"], made.w("B", "A"), made.w("C", "A")) == (2, 12, 4)
    down = run(ABC, [deal("6S", BOTH, {"A": 5, "B": 3, "C": 2})], LENINGRAD)
    assert down.hill["A"] == 4
    short = run(ABC, [deal("6S", B_ALONE, {"A": 7, "B": 2, "C": 1})], LENINGRAD)
    assert (short.hill["B"], short.w("B", "A")) == (2, 12)


@pytest.mark.parametrize(("taken", "pool", "hill"), [(0, 10, 0), (1, 0, 20), (2, 0, 40)])
def test_rl2_leningrad_misere(taken: int, pool: int, hill: int):
    """RL2 [len-table]: misère made 10 to the pool, failed 20 a trick."""
    t = run(ABC, [deal("misere", None, {"A": taken, "B": 5, "C": 5 - taken})], LENINGRAD)
    assert (t.pool["A"], t.hill["A"]) == (pool, hill)


def test_rc1_four_players_share_a_hill_including_its_owner():
    """RC1 [code96] §4.1.1: four players, 6 hill points -> 15 whists to each other player."""
    out = result(RussianRules(), 4, [20] * 4, [6, 0, 0, 0], [[0] * 4 for _ in range(4)])
    assert out == [-45.0, 15.0, 15.0, 15.0]


@pytest.mark.parametrize(("split", "expected"),
                         [("all_participants", [30.0, 0.0, -30.0]),
                          ("opponents_only", [45.0, 0.0, -45.0])])
def test_final_settlement_of_hills_two_five_eight(split: str, expected: list[float]):
    """9.2 final-settlement example [derived]: hills 2, 5, 8 -> +30, 0, -30 (Code, 10/3 a point
    of difference) or +45, 0, -45 ([rostik], flag hill_split)."""
    out = result(RussianRules(hill_split=split), 3, [20] * 3, [2, 5, 8], [[0] * 3] * 3)
    assert out == pytest.approx(expected)


X = [
    # id, contract, defence, tricks A/B/C, rules, P_A, G_A, W_BA, W_CA, G_B, G_C
    ("X1", "6S", BOTH, (6, 3, 1), {}, 2, 0, 6, 2, 0, 0),
    ("X2", "7H", BOTH, (8, 2, 0), {}, 4, 0, 8, 0, 0, 0),
    ("X3", "7H", BOTH, (9, 1, 0), {}, 4, 0, 4, 0, 0, 4),
    ("X4", "6D", BOTH, (9, 1, 0), {}, 2, 0, 2, 0, 2, 4),
    ("X5", "8C", BOTH, (7, 2, 1), {}, 0, 6, 18, 12, 0, 0),
    ("X6", "6S", B_ALONE, (6, 3, 1), {}, 2, 0, 8, 0, 0, 0),
    ("X7", "6S", B_ALONE, (8, 2, 0), {}, 2, 0, 4, 0, 4, 0),
    ("X9", "6S", BOTH, (6, 3, 1), LENINGRAD, 2, 0, 12, 4, 0, 0),
    ("X10", "7H", BOTH, (6, 2, 2), LENINGRAD, 0, 8, 20, 20, 0, 0),
    ("X11", "6S", B_ALONE, (5, 3, 2), LENINGRAD, 0, 4, 12, 12, 0, 0),
]


@pytest.mark.parametrize(("name", "c", "defence", "tricks", "rules", "p_a", "g_a", "w_ba", "w_ca",
                          "g_b", "g_c"), X, ids=[x[0] for x in X])
def test_derived_examples(name: str, c: str, defence: dict[str, str], tricks: tuple[int, ...],
                          rules: dict[str, Any], p_a: int, g_a: int, w_ba: int, w_ca: int,
                          g_b: int, g_c: int):
    """9.2 X1-X11 (Sochi defaults; X9-X11 Leningrad, X11 gentleman's whist). X6 is played open."""
    extra = {"open": True} if name == "X6" else {}
    t = run(ABC, [deal(c, defence, dict(zip(ABC, tricks, strict=True)), **extra)], rules)
    got = (t.pool["A"], t.hill["A"], t.w("B", "A"), t.w("C", "A"), t.hill["B"], t.hill["C"])
    assert got == (p_a, g_a, w_ba, w_ca, g_b, g_c)


def test_x8_half_whist_is_not_played():
    """X8: 6H, the first defender passes, the second says half: no play; P_A +2, W_CA 4."""
    t = run(ABC, [deal("6H", {"B": "pass", "C": "half"}, None)])
    assert (t.pool["A"], t.w("C", "A"), t.w("B", "A")) == (2, 4, 0)


def test_presets_carry_the_convention_columns_of_6_1():
    """6.1: Leningrad doubles whists, remise and failed misère and splits gentleman's way; Sochi
    is the default; a flag given beside a convention wins over the preset."""
    assert RussianRules() == preset("sochi")
    lg = preset("leningrad", pool_target=30)
    assert (lg.whist_trick_factor, lg.remise_factor, lg.misere_trick_penalty, lg.whist_style,
            lg.pool_target) == (2, 2, 20, "gentleman", 30)
    assert preset("soci-custom").hill_split == "opponents_only"


def test_with_four_the_dealer_sat_out_has_not_played_the_deal():
    """russian.md 1 (spec table: "with 4 the dealer sits out the deal"): ``deals_played``
    counts a player's deals at the table, as the Greek standings and the Player page do
    (docs/greek-scoring.md); it gave every player of four all the game's deals."""
    dealers = ["D", "A", "B", "C", "D", "A"]
    seats = ["A", "B", "C", "D"]
    records = []
    for dealer in dealers:
        at = seats.index(dealer)
        declarer, first, second = seats[at + 1:] + seats[:at]  # from first hand on
        records.append(contract(declarer, "6S", {first: "whist", second: "pass"},
                                {declarer: 6, first: 4, second: 0}, dealer=dealer))
    standings = run(seats, records).settled.standings
    played = dict(zip(standings["player"], standings["deals_played"], strict=True))
    assert played == {p: len(dealers) - dealers.count(p) for p in seats} == {
        "A": 4, "B": 5, "C": 5, "D": 4}
