"""Readability, from a browser walk of the demo: every page writes a contract as the replayer does
(``Variant.call_words``), a deal's replayer link is in sight, a chart of one variant names its
people without it, and a chart's contracts read level at a size that tells the suits apart."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import charts
from dashboards import queries as q
from dashboards.db import read_only
from dashboards.replay import call_words
from dashboards.sheets import score_sheet
from model.variants import registered
from tests.dashboards.test_pages import frame_with, open_tab, page

SUIT_CODE = re.compile(r"^\d+[SHDC]X{0,2}$")
"""A contract code as recorded (``6S``, ``5DX``): what no page should show a reader."""


def _declared_game(db: Path, variant: str) -> tuple[str, list[str]] | None:
    """A game of ``variant`` with a settled deal that has a contract, and its players."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT g.game_id, g.players FROM games g JOIN deals d ON d.game_id = g.game_id "
            "JOIN settlements s ON s.game_id = d.game_id AND s.deal_no = d.deal_no "
            "WHERE g.variant = ? AND d.contract IS NOT NULL ORDER BY g.game_id LIMIT 1",
            [variant]).fetchone()
    finally:
        con.close()


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_a_score_sheet_writes_contracts_as_the_replayer(variant: str, demo_path: Path) -> None:
    """League's score sheet read ``6S``, ``7NT`` (Greek), a bare ``3`` (Swabian), ``misere``
    (Russian), where the replayer and the Contracts page write ``6♠``, ``3 Schellen``,
    ``misère``: the sheet writes them with the same function."""
    found = _declared_game(demo_path, variant)
    if found is None:
        pytest.skip(f"no settled {variant} deal with a contract in the demo")
    game_id, players = found
    with read_only(demo_path) as con:
        rows = q.game_sheet(con, game_id)
    sheet = score_sheet(rows, variant, list(players))
    codes = rows.group_by("deal_no", maintain_order=True).agg(
        pl.col("contract").first()).sort("deal_no")["contract"].to_list()
    written = sheet["contract"].to_list()[:-1]  # the last row is the total
    assert written == [None if c is None else call_words(c, variant) for c in codes]
    assert any(c is not None and call_words(c, variant) != c for c in codes), codes


def test_the_greek_sheet_reads_suit_symbols(fixture_path: Path) -> None:
    with read_only(fixture_path) as con:
        rows = q.game_sheet(con, "club-7/2026-11-29/table-1")
    sheet = score_sheet(rows, "greek-prefa", ["Anna", "Boris", "Chris"])
    assert sheet["contract"].to_list()[:3] == ["6♠", "7♥", "8♦"]


def test_a_pair_s_card_writes_contracts_as_the_replayer(demo_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Club results: a pair's card read ``5DX``, ``3D`` beside the replayer's ``5♦X``."""
    at = page("results", demo_path, monkeypatch, variant="bridge-duplicate")
    assert not at.exception
    box = at.selectbox(key="results_event")
    box.set_value(next(i for i, o in enumerate(box.options) if "Riverside" in o)).run()
    written: set[str] = set()
    for pair in at.selectbox(key="results_pair").options:
        at.selectbox(key="results_pair").set_value(pair).run()
        assert not at.exception
        written |= set(frame_with(at, "board")["contract"].dropna())
    assert not [c for c in written if SUIT_CODE.match(c)], written
    assert {"5♦X", "3♦"} <= written, written


def test_my_deals_put_the_replay_link_first(demo_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Player › My deals under "(all)": the table is wider than a 1400 px page and the replay
    link, its 11th column, was off-screen, though the caption says to open a deal from its
    row. It is the first column, as on Contracts; with one variant chosen too."""
    for filters in ({}, {"variant": "greek-prefa"}):
        at = page("player", demo_path, monkeypatch, player="Anna (greek-prefa)", **filters)
        assert not at.exception
        deals = frame_with(at, "game id")
        assert deals.columns[0] == "replay", (filters, list(deals.columns))
        links = deals["replay"][deals["replay"] != ""]  # deals recorded with their cards
        assert len(links) and links.str.startswith("replayer?").all()


def _charted_people(at: AppTest) -> dict[str, list[str]]:
    """Each chart of the run page by its title: the people it draws."""
    found = {}
    for chart in at.get("vega_lite_chart"):
        data = pa.ipc.open_stream(chart.proto.data.data).read_all()
        found[json.loads(chart.proto.spec)["title"]] = data.column("player").to_pylist()
    return found


def test_one_variant_s_cash_over_time_names_its_people_without_it(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """League › Cash over time with greek-prefa chosen: the legend read ``Anna (greek-prefa)``,
    the label that tells her from ``Anna (bridge-rubber)`` under "(all)", and noise where only
    Greek games are drawn. Under "(all)" the labels stay as the sidebar and standings say."""
    alone = open_tab(page("league", demo_path, monkeypatch, variant="greek-prefa"),
                     "league_section", "Cash over time")
    assert not alone.exception
    greek = _charted_people(alone)["greek-prefa"]
    assert "Anna" in greek and not [p for p in greek if p.endswith("(greek-prefa)")], greek
    every = open_tab(page("league", demo_path, monkeypatch), "league_section", "Cash over time")
    assert "Anna (greek-prefa)" in _charted_people(every)["greek-prefa"]


def test_plain_names_keep_a_label_the_short_name_would_confuse() -> None:
    from dashboards.views.league import plain_names

    names = plain_names(["Anna (greek-prefa)", "Anna (balkan, greek-prefa)", "Bo (p-7)",
                         "Bo (p-9)", "Cy"], "greek-prefa")
    assert names == {"Anna (greek-prefa)": "Anna",
                     "Anna (balkan, greek-prefa)": "Anna (balkan, greek-prefa)",
                     "Bo (p-7)": "Bo (p-7)", "Bo (p-9)": "Bo (p-9)", "Cy": "Cy"}
    assert plain_names(["Cy (greek-prefa)", "Cy"], "greek-prefa") == {
        "Cy (greek-prefa)": "Cy (greek-prefa)", "Cy": "Cy"}


CONTRACTS = [f"{n}{s}" for n in range(6, 11) for s in "♠♣♦♥"] + ["6NT", "no contract"]


SPECS = {"heatmap-many": lambda: charts.made_heatmap(CONTRACTS, 5, False),
         "heatmap-few": lambda: charts.made_heatmap(CONTRACTS[:4], 2, True),
         "player-bars": lambda: charts.made_by_contract(len(CONTRACTS))}


@pytest.mark.parametrize("chart", list(SPECS))
def test_contracts_on_a_chart_read_level_and_large(chart: str) -> None:
    """The Contracts heatmap (over 12 contracts) and Player's "As declarer, by contract" stood
    the contracts on end at Vega-Lite's 10 px: 6♠ 6♣ 6♦ 6♥ could not be told apart. They run
    down the side, level, one row each, at 13 px, each label whole."""
    spec = SPECS[chart]()
    axis = json.dumps(spec)
    contract = next(enc["y"] for enc in _encodings(spec) if "y" in enc
                    and enc["y"].get("field") == "contract")
    assert contract["axis"]["labelAngle"] == 0 and contract["axis"]["labelFontSize"] >= 13
    assert contract["axis"]["labelLimit"] >= 200
    assert '"x": {"field": "contract"' not in axis
    # the rows keep their height: Streamlit's default autosize ("fit") took the axes and title
    # out of it, and five contracts were 11 px apart, every other label dropped
    assert spec["height"] >= charts.CONTRACT_ROW * 4 and spec["autosize"]["type"] == "fit-x"


def _encodings(spec: dict) -> list[dict]:
    return [spec.get("encoding", {}), *(layer.get("encoding", {})
                                        for layer in spec.get("layer", []))]


def test_a_game_without_deals_says_so_without_an_empty_table(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entry, a game just started: "This game has no settled deals yet: its score sheet is
    empty.", and under it the standings, a table reading "empty" (or each player with 0 cash
    in 0 deals). The message alone."""
    from tests.dashboards.test_entry import start

    at = start(page("entry", fixture_copy, monkeypatch), game_id="new/1")
    assert any("no settled deals yet" in i.value for i in at.info)
    shown = [list(df.value.columns) for df in at.dataframe]
    assert not [c for c in shown if "deals played" in c], shown
