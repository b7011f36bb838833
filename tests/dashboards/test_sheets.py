"""Score sheets drawn per game (dashboards/sheets.py): greek-prefa.md 12 method 2, the Balkan
three-column sheet (balkan.md score sheet), the bridge We/They sheet (bridge.md, rubber)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from dashboards import queries as q
from dashboards.db import read_only
from dashboards.sheets import score_sheet, sheet_style
from tests.dashboards import fixture_db as fx


def test_greek_sheet_kassa_and_chips(fixture_path: Path) -> None:
    with read_only(fixture_path) as con:
        rows = q.game_sheet(con, fx.G1)
    sheet = score_sheet(rows, "greek-prefa", ["Anna", "Boris", "Chris"])
    assert sheet.columns == ["deal", "dealer", "declarer", "contract", "Kassa Anna",
                             "Kassa Boris", "Kassa Chris", "Chips Anna", "Chips Boris",
                             "Chips Chris"]
    # 9.3: Chris 6S made, kassa 31 -> 29; 9.2: Boris 8D down one, kassa 31 -> 39
    assert sheet["Kassa Chris"].to_list()[:2] == [29, 29]
    assert sheet["Kassa Boris"].to_list()[2] == 39
    total = sheet.row(-1, named=True)
    assert total["dealer"] == "total"
    assert (total["Chips Anna"], total["Chips Boris"], total["Chips Chris"]) == (20, -20, 0)
    assert (total["Kassa Anna"], total["Kassa Boris"], total["Kassa Chris"]) == (24, 39, 29)


def _rows(variant: str, data: dict[str, list]) -> pl.DataFrame:
    base = {"dealer": ["N"] * len(data["player"]), "declarer": ["N"] * len(data["player"]),
            "contract": ["x"] * len(data["player"]), "variant": [variant] * len(data["player"])}
    return pl.DataFrame({**base, **data})


def test_balkan_sheet_three_columns_per_player() -> None:
    rows = _rows("balkan", {
        "deal_no": [1, 1, 1], "player": ["A", "B", "C"], "seat": [0, 1, 2],
        "cash": [0.0, 8.0, 0.0], "bula_after": [42, 50, 50],
        "soups_left": [0, 0, 0], "soups_right": [0, 8, 0],
    })
    assert sheet_style("balkan", rows) == "bula"
    sheet = score_sheet(rows, "balkan", ["A", "B", "C"])
    assert sheet.columns[4:7] == ["A soups left", "A bula", "A soups right"]
    assert sheet["A bula"][0] == 42 and sheet["B soups right"][0] == 8


def test_bridge_sheet_we_they() -> None:
    rows = _rows("bridge-rubber", {
        "deal_no": [1, 1, 1, 1], "player": ["N", "E", "S", "W"], "seat": [0, 1, 2, 3],
        "cash": [120.0, -120.0, 120.0, -120.0],
        "above_line": [0, 0, 0, 0], "below_line": [120, 0, 120, 0],
    })
    sheet = score_sheet(rows, "bridge-rubber", ["N", "E", "S", "W"])
    assert sheet.columns[4:] == ["We above", "We below", "They above", "They below"]
    assert sheet["We below"][0] == 120 and sheet["They below"][0] == 0


def test_other_variants_show_cash(fixture_path: Path) -> None:
    with read_only(fixture_path) as con:
        rows = q.game_sheet(con, fx.G4)
    sheet = score_sheet(rows, "swabian", ["Xaver", "Yvonne", "Zenzi"])
    assert sheet_style("swabian", rows) == "cash"
    assert sheet.row(-1, named=True)["Zenzi"] == -4
    assert score_sheet(rows.clear(), "swabian", ["Xaver"]).is_empty()


def test_duplicate_sheet_is_a_traveller() -> None:
    rows = _rows("bridge-duplicate", {
        "deal_no": [1, 1, 2, 2], "player": ["N", "E", "N", "E"], "seat": [0, 1, 0, 1],
        "cash": [420.0, -420.0, -50.0, 50.0], "score_ns": [420, 420, -50, -50],
        "below_line": [120, 0, 0, 0], "above_line": [300, 0, 0, 50],
    })
    sheet = score_sheet(rows, "bridge-duplicate", ["N", "E"])
    assert sheet["NS"].to_list() == [420, -50, 370] and sheet["EW"].to_list() == [-420, 50, -370]


def test_russian_sheet_pool_hill_whists() -> None:
    # russian.md 5: the declarer's made 6S writes 2 to his pool; the whister writes 8 whists
    rows = _rows("russian", {
        "deal_no": [1, 1, 1, 2, 2, 2], "player": ["A", "B", "C"] * 2, "seat": [0, 1, 2] * 2,
        "cash": [0.0] * 6, "pool_after": [2, 0, 0, 2, 4, 0], "hill_after": [0, 0, 0, 0, 0, 2],
        "whists_delta": [0, 0, 8, 4, 0, 0],
    })
    assert sheet_style("russian", rows) == "pulya"
    sheet = score_sheet(rows, "russian", ["A", "B", "C"])
    assert sheet.columns[4:7] == ["A pool", "A hill", "A whists"]
    total = sheet.row(-1, named=True)
    assert (total["A pool"], total["B pool"], total["C hill"]) == (2, 4, 2)  # final, not summed
    assert (total["A whists"], total["C whists"]) == (4, 8)  # summed over the deals

