"""``trickbook analyse`` for Russian preferans (``sim/analysis.py``): contracts map to the solver's
strains and misère to fewest tricks (russian.md 2, 4); the études of ``preferanser-deals`` read as
Russian records give the collector's double-dummy results (``preferans-dd-checks``); simulated
games are analysed deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from model.cards import format_card, iter_cards
from sim.analysis import analyse_open_hand, position, solver_contract_name
from sim.run import Plan, simulate
from sim.solver import CONTRACTS, solve
from tests.conftest import DATA
from tests.sim.solver.fixtures import read_unisay

RUSSIAN = "russian"
SEATS = ("EAST", "SOUTH", "WEST")
"""preferanser-deals: play goes East -> South -> West (data README)."""
STRAIN_WORDS = {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H", "notrump": "NT",
                "no trump": "NT"}


@pytest.mark.parametrize(("contract", "name"), [
    ("6S", "S"), ("7nt", "NT"), ("10H", "H"), ("misere", "misere"), ("Misere", "misere"),
    ("11S", "S"), ("pass", None),
])
def test_russian_contract_names(contract: str, name: str | None) -> None:
    # russian.md 2: <tricks><S|C|D|H|NT> and misère
    assert solver_contract_name(RUSSIAN, contract) == name


def _etudes() -> list[tuple[str, dict[str, object], int]]:
    results = json.loads((DATA / "preferans-dd-checks" / "collector-dd-results.json")
                         .read_text(encoding="utf-8"))["results"]
    return [(r["fixture"], r, r["dd_declarer_tricks"]) for r in results
            if r["fixture"].startswith("preferanser-deals/")]


def _contract(words: str) -> str:
    if "mis" in words.lower():
        return "misere"
    level, _, strain = words.partition(" ")
    return level + STRAIN_WORDS[strain.strip().lower()]


@pytest.mark.parametrize(("fixture", "row", "expected"), _etudes(), ids=lambda x: str(x)[:30])
def test_etudes_as_russian_records(fixture: str, row: dict[str, str], expected: int) -> None:
    # preferans-dd-checks/collector-dd-results.json: each étude, written as a Russian deal record
    # (first hand leads, russian.md 4), gives the collector's open-hand declarer tricks
    deal = read_unisay(DATA / fixture)
    players = list(SEATS)
    rec = {
        "dealer": players[(deal.leader - 1) % 3],
        "declarer": row["declarer"],
        "contract": _contract(row["contract"]),
        "hands": {p: [format_card(c) for c in iter_cards(h)]
                  for p, h in zip(players, deal.hands, strict=True)},
        "tricks": dict.fromkeys(players, 0),
    }
    placed = position(RUSSIAN, players, rec)
    assert not isinstance(placed, str), placed
    hands, leader, declarer, name = placed
    assert (players[leader], players[declarer]) == (row["first_lead"], row["declarer"])
    c = {k.name: k for k in CONTRACTS}[name]
    assert (c.trump, name == "misere") == (deal.trump, deal.misere)
    assert solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop) == expected


def test_simulated_russian_deals_are_analysed(tmp_path: Path) -> None:
    # every played contract and misère of a simulated league gets its open-hand tricks; a
    # contract nobody whisted (no play) and raspasy (no declarer) do not
    db = tmp_path / "r.duckdb"
    simulate(Plan(RUSSIAN, 3, 10, 2), db=db, workers=1)
    con = duckdb.connect(str(db))
    try:
        report = analyse_open_hand(con)
        played = con.execute(
            "SELECT count(*) FROM deals_russian WHERE declarer IS NOT NULL AND "
            "(tricks_0 IS NOT NULL OR tricks_1 IS NOT NULL)").fetchone()
        rows = con.execute("SELECT contract, open_hand_tricks, actual_tricks FROM open_hand"
                           ).fetchall()
    finally:
        con.close()
    assert played is not None and report.analysed == played[0] > 0
    not_played = "both defenders passed, so the deal was not played"
    assert {r for _, _, r in report.skipped} <= {not_played}
    assert all(0 <= oh <= 10 and 0 <= actual <= 10 for _, oh, actual in rows)
