"""Every worked example of balkan.md section 8 (B1-B15, [derived] there from the tagged rules;
B13 reproduces [iklub], B14 [preferansklub]) and the final-settlement example."""

from __future__ import annotations

from typing import Any

import pytest

from model.balkan.paper import final_scores
from tests.scoring.balkan.sheet import deals, game, last, settle, soups

P = ["D", "A", "B"]  # turn order: A is the defender on the declarer's left (clockwise)
BOTH = {"A": "play", "B": "play"}
ALL_PASS: dict[str, Any] = {}


def one(contract: str, tricks: dict[str, int] | None, defence: dict[str, str] | None = None,
        **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"declarer": "D", "contract": contract, "defence": defence or BOTH,
                           "dealer": "B"}
    if tricks is not None:
        row["tricks"] = tricks
    return row | extra


# id, rules, deals before, the deal, bula D/A/B, soups A->D, B->D   (balkan.md 8)
CASES: list[tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any],
                  tuple[int, int, int], float, float]] = [
    ("B1", {}, [], one("4", {"D": 6, "A": 3, "B": 1}), (-4, 0, 0), 12, 4),
    ("B2", {}, [], one("4", {"D": 7, "A": 2, "B": 1}), (-4, 0, 4), 8, 4),
    ("B3", {}, [], one("4", {"D": 8, "A": 1, "B": 1}), (-4, 4, 4), 4, 4),
    ("B4", {}, [], one("4", {"D": 5, "A": 3, "B": 2}), (4, 0, 0), 12, 8),
    ("B5", {}, [], one("G3", {"D": 6, "A": 2, "B": 2}), (-4, 0, 0), 8, 8),
    ("B6", {}, [{"dealer": "A"}], one("2", {"D": 6, "A": 2, "B": 2}, kontra={"A": 1}),
     (-8, 8, 0), 16, 8),
    ("B7", {}, [], one("5", {"D": 5, "A": 3, "B": 2}, kontra={"A": 2}), (20, 0, 0), 60, 10),
    ("B8", {}, [], one("4", {"D": 8, "A": 2}, {"A": "alone", "B": "pass"}), (-4, 0, 0), 8, 0),
    ("B9", {}, [], one("4", {"D": 7, "A": 2, "B": 1}, {"A": "invite", "B": "pass"}),
     (-4, 4, 0), 12, 0),
    ("B10", {}, [], one("7", None, {"A": "pass", "B": "pass"}), (-7, 0, 0), 0, 0),
    ("B11", {}, [], one("2", None), (-2, 0, 0), 0, 0),
    ("B12", {}, [], one("6", {"D": 1, "A": 1, "B": 1}), (6, 0, 0), 30, 30),
    ("B13", {"value_scale": 2, "double_fall": True, "start_bula": 2}, [],
     one("4", {"D": 5, "A": 5, "B": 0}), (16, 0, 0), 40, 0),
    ("B14", {"value_scale": 2}, [], one("5", {"D": 6, "A": 2, "B": 2}), (-10, 0, 0), 20, 20),
    ("B15", {"kontra_scope": "kontra_player_takes_all"}, [],
     one("5", {"D": 5, "A": 3, "B": 2}, kontra={"A": 2}), (20, 0, 0), 100, 0),
]


@pytest.mark.parametrize(("cid", "rules", "before", "row", "bula", "soup_a", "soup_b"), CASES,
                         ids=[c[0] for c in CASES])
def test_worked_example(cid: str, rules: dict[str, Any], before: list[dict[str, Any]],
                        row: dict[str, Any], bula: tuple[int, int, int], soup_a: float,
                        soup_b: float) -> None:
    g = game(P, **rules)
    s = settle(g, deals(g, [dict(b) for b in before] + [dict(row)]))
    delta = last(s, "bula_delta")
    assert (delta["D"], delta["A"], delta["B"]) == bula, cid
    sp = soups(s)
    assert (sp.get(("A", "D"), 0), sp.get(("B", "D"), 0)) == (soup_a, soup_b), cid


def test_cash_is_the_score_change_and_zero_sum() -> None:  # balkan.md 7.5 (B1)
    g = game(P)
    s = settle(g, deals(g, [one("4", {"D": 6, "A": 3, "B": 1})]))
    cash = last(s, "cash")
    # S changes (7.5): D: -16 soups against him, +40 for bula -4; A +12; B +4; less the mean
    assert cash == pytest.approx({"D": 24 - 40 / 3, "A": 12 - 40 / 3, "B": 4 - 40 / 3})
    assert sum(cash.values()) == pytest.approx(0)


def test_left_and_right_columns_follow_direction() -> None:  # balkan.md 2, 7.1
    g = game(P)  # clockwise: A's left neighbour is B (next in turn order), D is on his right
    s = settle(g, deals(g, [one("4", {"D": 6, "A": 3, "B": 1})]))
    assert (last(s, "soups_left")["A"], last(s, "soups_right")["A"]) == (0, 12)
    g2 = game(P, direction="counterclockwise")
    s2 = settle(g2, deals(g2, [one("4", {"D": 6, "A": 3, "B": 1})]))
    assert (last(s2, "soups_left")["A"], last(s2, "soups_right")["A"]) == (12, 0)


def test_refe_accumulate_and_are_used_one_per_contract() -> None:  # balkan.md 7.4 [prefko]
    g = game(P)
    rows = [{"dealer": "A"}, {"dealer": "B"}, one("4", {"D": 6, "A": 2, "B": 2}),
            one("4", {"D": 6, "A": 2, "B": 2}), one("4", {"D": 6, "A": 2, "B": 2})]
    s = settle(g, deals(g, rows))
    d = s.settlements.filter(s.settlements["player"] == "D")
    assert d["bula_delta"].to_list() == [0, 0, -8, -8, -4]
    assert d["refa_used"].to_list() == [False, False, True, True, False]


def test_max_refe_and_pik_refa_rule() -> None:  # balkan.md 7.4, 9 max_refe, pik_without_kontra
    g = game(P, max_refe=1, pik_without_kontra="refa_then_declarer_scores")
    rows = [one("2", None), one("4", {"D": 6, "A": 2, "B": 2}), one("2", None)]
    s = settle(g, deals(g, rows))
    d = s.settlements.filter(s.settlements["player"] == "D")
    # the first Pik writes the only refa (no score); the Herc uses it; the second Pik, with no
    # refa left to write, scores as made
    assert d["bula_delta"].to_list() == [0, -8, -2]


def test_end_of_game() -> None:  # balkan.md 7.5
    g = game(P, start_bula=2)
    rows = [one("4", {"D": 6, "A": 2, "B": 2}), one("4", {"D": 6, "A": 2, "B": 2})]
    s = settle(g, deals(g, rows))
    assert last(s, "bula_after") == {"D": -6, "A": 2, "B": 2}
    assert s.standings["finished"].all()
    assert s.standings["cash"].sum() == pytest.approx(0)


def test_final_settlement_example() -> None:  # balkan.md 8 "Final-settlement example"
    soups_written = [[0, 30, 10], [20, 0, 0], [5, 15, 0]]  # A, B, C
    assert final_scores([-2, 0, 2], soups_written) == [35, -25, -10]


def test_four_players_dealer_sits_out() -> None:  # balkan.md 1, 9 four_players [sr-wiki]
    g = game(["D", "A", "X", "B"], four_players=True)
    # dealer X sits out: D's defenders are A (next active) and B
    row = {"dealer": "X", "declarer": "D", "contract": "4", "defence": BOTH,
           "tricks": {"D": 6, "A": 3, "B": 1}}
    s = settle(g, deals(g, [row, {"dealer": "B"}]))
    first = s.settlements.filter(s.settlements["deal_no"] == 1)
    delta = dict(zip(first["player"], first["bula_delta"], strict=True))
    assert delta == {"D": -4, "A": 0, "X": 0, "B": 0}
    assert soups(s, 1) == {("A", "D"): 12, ("B", "D"): 4}
    assert first["cash"].sum() == pytest.approx(0)
