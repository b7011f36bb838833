"""Rule examples through the public path (records -> reference and kernel, asserted equal):
greek-prefa.md 13 (E1-E13 and O1/O3/O5 read from the spec's JSON blocks, X1-X16 transcribed) and
the seed's own examples and variants (../shared/spec/sources/000_*.txt)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import SPEC
from tests.scoring.greek.builders import PASS_CONTRACT, Deals, game
from tests.scoring.greek.paths import both, chips, kassa, kassa_delta


def spec_examples(prefix: str) -> list[dict[str, Any]]:
    """The machine-readable rows of greek-prefa.md 13 whose id starts with ``prefix``."""
    text = (SPEC / "greek-prefa.md").read_text(encoding="utf-8")
    section = text[text.index("## 13."): text.index("## 14.")]
    rows = []
    for block in re.findall(r"```json\n(.*?)```", section, re.S):
        rows += [json.loads(line) for line in block.splitlines() if line.strip()]
    return [r for r in rows if re.fullmatch(prefix + r"\d+", r["id"])]


E_ROWS = spec_examples("E")
O_ROWS = spec_examples("O")


def test_spec_blocks_are_read() -> None:
    assert [r["id"] for r in E_ROWS] == ["E1", "E2", "E3", "E4", "E5", "E8", "E9", "E10", "E12",
                                          "E13"]
    assert [r["id"] for r in O_ROWS] == ["O1", "O3", "O5"]


@pytest.mark.parametrize("row", E_ROWS, ids=[r["id"] for r in E_ROWS])
def test_section_13_1(row: dict[str, Any]) -> None:
    """greek-prefa.md 13.1 (seed 000 examples): A is the declarer's right (R)."""
    c = row["contract"]
    contract = f"{c['tricks']}{'NT' if c['denom'] == 'N' else c['denom']}"
    g = game(["D", "A", "B"])
    deals = Deals(g)
    t = row["tricks"]
    tricks = (t["D"], t["A"], t["B"]) if "B" in t else (t["D"], t["A"])
    deals.played("D", contract, row["defence"], tricks, whister="R")
    s = both([g], deals.deals)
    assert chips(s) == pytest.approx({k: float(v) for k, v in row["expect"]["chips"].items()})
    assert kassa_delta(s)["D"] == row["expect"]["kassa_delta"]["D"]


@pytest.mark.parametrize("row", O_ROWS, ids=[r["id"] for r in O_ROWS])
def test_section_13_3_overflow(row: dict[str, Any]) -> None:
    """greek-prefa.md 13.3 (section 10): the kassas are first brought to ``kassa_before`` with
    both-pass deals, then D's both-pass contract of value ``deduct`` overflows."""
    before = row["kassa_before"]
    names = list(before)  # D first, then X/Y or R/L in turn order
    g = game(names, initial_kassa=max(before.values()) + 2)
    deals = Deals(g)
    deals.deduct_to(before)
    assert kassa(both([g], deals.deals), len(deals.deals)) == before
    last = deals.both_pass("D", PASS_CONTRACT[row["deduct"]])
    s = both([g], deals.deals)
    assert kassa(s, last) == row["expect"]["kassa"]
    assert chips(s, last) == pytest.approx(
        {k: float(v) for k, v in row["expect"]["chips"].items()})


# greek-prefa.md 13.4 [derived] rows, transcribed: contract, mode, tricks D/R/L, dK, chips D/R/L
X_ROWS = [
    ("X1", "6C", "both", (8, 1, 1), 0, (48, -24, -24), {}),
    ("X2", "6S", "both", (9, 1, 0), 0, (54, -18, -36), {}),
    ("X4", "9S", "both", (10, 0, 0), 0, (90, -90, 0), {}),
    ("X5", "10H", "both", (10, 0, 0), -10, (0, 0, 0), {}),
    ("X6", "10H", "both", (9, 1, 0), 10, (-10, 10, 0), {}),
    ("X7", "10H", "both", (10, 0, 0), 0, (100, -100, 0), {"ten_as_nine": True}),
    ("X10", "6D", "invite", (10, 0, 0), 0, (160, -160, 0), {}),
    ("X11", "7S", "alone", (10, 0), 0, (140, -140, 0), {}),
    ("X12", "7S", "alone", (9, 1), 0, (63, -63, 0), {}),
]


@pytest.mark.parametrize("row", X_ROWS, ids=[r[0] for r in X_ROWS])
def test_section_13_4(row: tuple[Any, ...]) -> None:
    _, contract, mode, tricks, d_kassa, expect, rules = row
    g = game(["D", "R", "L"], **rules)
    deals = Deals(g)
    deals.played("D", contract, mode, tricks)
    s = both([g], deals.deals)
    assert chips(s) == {"D": expect[0], "R": expect[1], "L": expect[2]}
    assert kassa_delta(s) == {"D": d_kassa, "R": 0, "L": 0}


@pytest.mark.parametrize(("xid", "contract", "rules"), [
    ("X8", "10H", {"ten_as_nine": True}),  # seed variant "10 as 9": both pass still deducts 10
    ("X13", "8H", {}),
])
def test_section_13_4_both_pass(xid: str, contract: str, rules: dict[str, Any]) -> None:
    g = game(["D", "R", "L"], **rules)
    deals = Deals(g)
    deals.both_pass("D", contract)
    s = both([g], deals.deals)
    assert chips(s) == {"D": 0, "R": 0, "L": 0}
    v = 10 if contract == "10H" else 8
    assert kassa_delta(s)["D"] == -v


def test_x14_preliminary_concession() -> None:
    """13.4 X14, seed 000 variant "preliminary bid": +2 kassa, 2 chips to each other player."""
    g = game(["D", "R", "L"])
    deals = Deals(g)
    deals.add(declarer="D", preliminary=True, conceded=True)
    s = both([g], deals.deals)
    assert chips(s) == {"D": -4, "R": 2, "L": 2}
    assert kassa_delta(s) == {"D": 2, "R": 0, "L": 0}


def test_x16_four_players_sitter() -> None:
    """13.4 X16, seed 000 "four players": down 1 pays the sitter 25 chips."""
    g = game(["D", "R", "L", "S"])
    deals = Deals(g)
    deals.played("D", "7H", "both", (6, 2, 2), dealer="S")
    s = both([g], deals.deals)
    assert chips(s) == {"D": -53, "R": 14, "L": 14, "S": 25}
    assert kassa_delta(s) == {"D": 7, "R": 0, "L": 0, "S": 0}


def test_four_players_down_two_pays_sitter_50() -> None:
    """seed 000 "four players": down 2 or more -> 50 chips to the sitter."""
    g = game(["D", "S", "R", "L"])
    deals = Deals(g)
    deals.played("D", "7H", "both", (5, 3, 2), dealer="S")
    s = both([g], deals.deals)
    assert chips(s) == {"D": -7 * 2 * 5 - 50, "R": 42, "L": 28, "S": 50}
    assert kassa_delta(s)["D"] == 14


def test_seed_overflow_takes_the_next_kassa() -> None:
    """seed 000 (note [21]): if the largest kassa is also too small (say 3 points), the rest comes
    off the third kassa the same way: D 4, R 3, L 2, deduct 9 -> R pays 30, L pays 20."""
    g = game(["D", "R", "L"], initial_kassa=6)
    deals = Deals(g)
    deals.deduct_to({"D": 4, "R": 3, "L": 2})
    last = deals.both_pass("D", "9S")
    s = both([g], deals.deals)
    assert chips(s, last) == {"D": 50, "R": -30, "L": -20}
    assert kassa(s, last) == {"D": 0, "R": 0, "L": 0}
    assert s.standings["finished"].all()  # 11: every kassa is 0


def test_seed_overflow_hits_a_passer() -> None:
    """seed 000: the passer who did not play may still pay for the declarer's overflow."""
    g = game(["D", "W", "P"], initial_kassa=12)
    deals = Deals(g)
    deals.deduct_to({"D": 2, "W": 4})
    last = deals.played("D", "7S", "alone", (8, 2))  # W alone met his quota: deduct 7
    s = both([g], deals.deals)
    assert chips(s, last) == {"D": -14 + 50, "W": 14, "P": -50}
    assert kassa(s, last) == {"D": 0, "W": 4, "P": 7}


def test_o6_empty_kassa_refills() -> None:
    """13.3 O6, seed 000: a declarer with kassa 0 who fails by 2 adds 2*v (v = 4)."""
    g = game(["D", "R", "L"], initial_kassa=4)
    deals = Deals(g)
    deals.deduct_to({"D": 0})
    last = deals.played("D", "6D", "both", (4, 3, 3))
    s = both([g], deals.deals)
    assert kassa(s, last)["D"] == 8
    assert chips(s, last) == {"D": -48, "R": 24, "L": 24}


def test_game_ends_when_every_kassa_is_empty() -> None:
    """11: checked after a deal; later deals are not settled (no rows)."""
    g = game(["A", "B", "C"], initial_kassa=2)
    deals = Deals(g)
    for p in "ABC":
        deals.both_pass(p, "6S")
    deals.played("A", "6S", "both", (6, 2, 2))
    s = both([g], deals.deals)
    assert s.settlements["deal_no"].unique().sort().to_list() == [1, 2, 3]
    assert s.standings["finished"].all()
    assert s.standings["deals_played"].to_list() == [3, 3, 3]


@pytest.mark.parametrize(("rounding", "each"), [("exact_rational", Fraction(20, 3)),
                                                ("round_half_up", Fraction(7))])
def test_end_at_two_empty(rounding: str, each: Fraction) -> None:
    """seed 000 "end at two empty kassas": the third kassa K is divided by 3 and K/3 is paid in
    chips (10*K/3) to each empty-kassa player (K = 2 here)."""
    g = game(["A", "B", "C"], initial_kassa=2, end_at_two_empty=True, chip_rounding=rounding)
    deals = Deals(g)
    deals.both_pass("A", "6S")
    last = deals.both_pass("B", "6S")
    deals.both_pass("C", "6S")  # after the end: not settled
    s = both([g], deals.deals)
    assert chips(s, last) == pytest.approx({"A": float(each), "B": float(each),
                                            "C": -2 * float(each)})
    assert kassa(s, last) == {"A": 0, "B": 0, "C": 0}
    assert s.settlements["deal_no"].max() == last
    assert s.standings["finished"].all()


def test_end_at_three_empty_four_players() -> None:
    """seed 000: with four players the variant ends at three empty kassas; the owner pays 10*K/4
    to each of the three [resolution, greek-prefa.md 11]."""
    g = game(["A", "B", "C", "D"], initial_kassa=3, end_at_two_empty=True)
    deals = Deals(g)
    for p in "ABC":
        deals.both_pass(p, "6C", dealer="D" if p != "D" else "A")
    s = both([g], deals.deals)
    assert chips(s, 3) == pytest.approx({"A": 7.5, "B": 7.5, "C": 7.5, "D": -22.5})


def test_four_players_overflow_thirds() -> None:
    """seed 000: the overflow includes the sitter; all others empty -> r*10/3 from each of the
    three [resolution `overflow_split_four = equal_thirds`]."""
    g = game(["A", "B", "C", "D"], initial_kassa=2)
    deals = Deals(g)
    for p in "BCD":
        deals.both_pass(p, "6S", dealer="A" if p != "A" else "B")
    last = deals.both_pass("A", "6D", dealer="B")  # A has 2, deducts 4: r = 2 -> 20/3 each
    s = both([g], deals.deals)
    assert chips(s, last) == pytest.approx({"A": 20.0, "B": -20 / 3, "C": -20 / 3, "D": -20 / 3})


def test_four_aces_raise_value() -> None:
    """seed 000 "four aces" variant A: the contract value rises by K0/10 (31 -> +3): 6S made with
    R 1, L 3 is settled at v = 5 (16 G7: the raised v everywhere)."""
    g = game(["D", "R", "L"], four_aces="raise_value")
    deals = Deals(g)
    deals.played("D", "6S", "both", (6, 1, 3), four_aces=True)
    s = both([g], deals.deals)
    assert chips(s) == {"D": -20, "R": 5, "L": 15}
    assert kassa_delta(s)["D"] == -5


@pytest.mark.parametrize(("made", "sign"), [(True, 1), (False, -1)])
def test_four_aces_fixed_chips_four_players(made: bool, sign: int) -> None:
    """seed 000 "four aces" variant B: made -> every player pays D the agreed chips (whist or
    pass), else D pays each; with four players the sitter too (amount 50 above the 6 level)."""
    g = game(["D", "R", "L", "S"], four_aces="fixed_chips")
    deals = Deals(g)
    t = (7, 2, 1) if made else (6, 3, 1)
    deals.played("D", "7S", "alone", t[:2], dealer="S", four_aces=True)
    s = both([g], deals.deals)
    game_chips = (-7 * 2 if made else -7 * 3) - (0 if made else 25)
    assert chips(s)["D"] == game_chips + sign * 150
    assert chips(s)["S"] == -sign * 50 + (0 if made else 25)
    assert chips(s)["L"] == -sign * 50


def test_concede_any_contract_two_down() -> None:
    """14 ``concede_any_contract`` ("solo", prefadoros-code): scored as two down, the defenders
    credited 3 and 2 tricks of a 7-trick contract (R the odd one): kassa +2v, D pays 2v a trick."""
    g = game(["D", "R", "L"], concede_any_contract=True)
    deals = Deals(g)
    deals.add(declarer="D", contract="7H", conceded=True)
    s = both([g], deals.deals)
    assert chips(s) == {"D": -70, "R": 42, "L": 28}
    assert kassa_delta(s)["D"] == 14


def test_all_pass_play_low() -> None:
    """14 ``all_pass = play_low`` [resolution]: each kassa += own tricks - fewest tricks."""
    g = game(["A", "B", "C"], all_pass="play_low")
    deals = Deals(g)
    deals.add(dealer="C", tricks={"A": 5, "B": 1, "C": 4})
    deals.add(dealer="A")  # thrown in: no tricks, nothing changes
    s = both([g], deals.deals)
    assert kassa_delta(s) == {"A": 4, "B": 0, "C": 3}
    assert kassa_delta(s, 2) == {"A": 0, "B": 0, "C": 0}
    assert chips(s) == {"A": 0, "B": 0, "C": 0}


def test_common_pot_e1() -> None:
    """15 ``bookkeeping = common_pot``, 13.1 E1 (6S made, D 6 R 1 L 3): D lifts 10v = 20 chips from
    the pot (a third of it his) and pays R 2, L 6: D -8 + 20 - 20/3 = 16/3, R 2 - 20/3 = -14/3,
    L 6 - 20/3 = -2/3. kassa_* carry the pot: 93 - 2 = 91 points."""
    g = game(["D", "R", "L"], bookkeeping="common_pot")
    deals = Deals(g)
    deals.played("D", "6S", "both", (6, 1, 3))
    s = both([g], deals.deals)
    assert chips(s) == pytest.approx({"D": 16 / 3, "R": -14 / 3, "L": -2 / 3})
    assert kassa_delta(s) == {"D": -2, "R": -2, "L": -2}
    assert kassa(s) == {"D": 91, "R": 91, "L": 91}


def test_common_pot_four_players_x16() -> None:
    """15 with 13.4 X16 (four players, 7H down 1, 6/2/2): D puts 70 into a pot the four own
    equally (70/4 = 17.5 to each other player) and pays R 14, L 14, the sitter 25:
    D -28 - 25 - 52.5 = -105.5, R and L 14 + 17.5 = 31.5, S 25 + 17.5 = 42.5. With
    ``round_half_up`` each share is 18: D -107, R and L 32, S 43."""
    for rounding, want in (("exact_rational", {"D": -105.5, "R": 31.5, "L": 31.5, "S": 42.5}),
                           ("round_half_up", {"D": -107, "R": 32, "L": 32, "S": 43})):
        g = game(["D", "R", "L", "S"], bookkeeping="common_pot", chip_rounding=rounding)
        deals = Deals(g)
        deals.played("D", "7H", "both", (6, 2, 2), dealer="S")
        s = both([g], deals.deals)
        assert chips(s) == want
        assert kassa(s)["S"] == 4 * 31 + 7


def test_common_pot_play_low_and_preliminary_concession() -> None:
    """15 with 14 ``play_low`` (A 5, B 1, C 4 tricks: A puts 4 points in, C 3; each share a third):
    A -40 + 70/3 = -50/3, B 70/3, C -30 + 70/3 = -20/3; then X14 (the concession's +2 kassa is 20
    chips into the pot): D -4 - 20 + 20/3 = -52/3, R and L 2 + 20/3 = 26/3."""
    g = game(["A", "B", "C"], bookkeeping="common_pot", all_pass="play_low")
    deals = Deals(g)
    deals.add(dealer="C", tricks={"A": 5, "B": 1, "C": 4})
    deals.add(declarer="A", preliminary=True, conceded=True)
    s = both([g], deals.deals)
    assert chips(s) == pytest.approx({"A": -50 / 3, "B": 70 / 3, "C": -20 / 3})
    assert kassa_delta(s) == {"A": 7, "B": 7, "C": 7}
    assert chips(s, 2) == pytest.approx({"A": -52 / 3, "B": 26 / 3, "C": 26 / 3})


def test_common_pot_ends_when_the_pot_is_empty() -> None:
    """15: the game ends when the pot is empty (3 players x initial_kassa 3 = 9 points: 6S + 6S +
    6NT both passed = 2 + 2 + 6 > 9, the last paid at v = 5 under ``pot_end = normal``); deals
    after the end are not settled. D3 lifts the last 50 chips: 50 - 50/3 = 100/3."""
    g = game(["A", "B", "C"], initial_kassa=3, bookkeeping="common_pot")
    deals = Deals(g)
    deals.both_pass("A", "6S")
    deals.both_pass("B", "6S")
    last = deals.both_pass("C", "6NT")
    deals.both_pass("A", "6S")
    s = both([g], deals.deals)
    assert s.settlements["deal_no"].max() == last
    assert chips(s, last) == pytest.approx({"A": -50 / 3, "B": -50 / 3, "C": 100 / 3})
    assert kassa(s, last) == {"A": 0, "B": 0, "C": 0}
    assert s.standings["finished"].all()


@pytest.mark.parametrize(("pays", "want"), [(False, {"D": -4, "R": 2, "L": 2, "S": 0}),
                                            (True, {"D": -6, "R": 2, "L": 2, "S": 2})])
def test_concession_pays_sitter(pays: bool, want: dict[str, int]) -> None:
    """5, 14 ``concession_pays_sitter``: four players, a preliminary concession pays 2 chips to
    each active opponent, and to the sitting-out dealer only with the flag; kassa +2 either way."""
    g = game(["D", "R", "L", "S"], concession_pays_sitter=pays)
    deals = Deals(g)
    deals.add(declarer="D", dealer="S", preliminary=True, conceded=True)
    s = both([g], deals.deals)
    assert chips(s) == want
    assert kassa_delta(s)["D"] == 2


@pytest.mark.parametrize(("start", "raise_by"), [(40_000, 0), (31, 2_000), (40_000, 2_000)])
def test_large_values(start: int, raise_by: int) -> None:
    """Kassas past 2**15 and changes past 2**10 points take the kernel's wide integer paths
    (scoring/greek/scan.py); the rules are those of sections 9-11, 14 ``four_aces``."""
    g = game(["D", "R", "L"], initial_kassa=start, four_aces="raise_value",
             four_aces_amount=raise_by)
    deals = Deals(g)
    deals.played("D", "7S", "both", (5, 3, 2), four_aces=True)  # down 2: +2(7 + raise)
    deals.both_pass("R", "9S", four_aces=True)  # R deducts 9 + raise
    deals.played("L", "6S", "both", (6, 2, 2))
    s = both([g], deals.deals)
    v = 7 + raise_by
    assert kassa_delta(s)["D"] == 2 * v
    assert kassa(s, 2)["R"] == max(start - 9 - raise_by, 0)
