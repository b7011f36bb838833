"""Every chart the pages draw is a Vega-Lite spec written out (dashboards/charts.py), checked here
as Altair would check it: valid against Vega-Lite's schema (the copy Altair ships), and every
field it names is a column of the data drawn, so a misspelt key or column fails here instead of
drawing nothing. No page builds its charts with Altair, which checks every channel against the
schema as the page runs: about 0.1 s a chart, most of a second of the Balance page."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import altair
import jsonschema
import polars as pl
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import charts
from tests.conftest import ROOT
from tests.dashboards import fixture_db
from tests.dashboards.test_pages import frame_with, open_tab, page

SCHEMA = json.loads((Path(altair.__file__).parent / "vegalite" / "v6" / "schema"
                     / "vega-lite-schema.json").read_text(encoding="utf-8"))
VEGA_LITE = jsonschema.Draft7Validator(SCHEMA)


def _fields(spec: object) -> Iterator[str]:
    """The columns of the drawn data a spec names (``field`` of any channel, tooltips included;
    not those of a layer with values of its own)."""
    if isinstance(spec, dict) and "data" not in spec:
        for key, value in spec.items():
            if key == "field" and isinstance(value, str):
                yield value
            else:
                yield from _fields(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _fields(value)


def charts_drawn(at: AppTest) -> Iterator[tuple[dict, list[str]]]:
    """Each chart of a run page: its spec and its data's columns."""
    for chart in at.get("vega_lite_chart"):
        yield json.loads(chart.proto.spec), pa.ipc.open_stream(chart.proto.data.data).schema.names


def _tooltips(spec: object) -> Iterator[dict]:
    """Every line of every tooltip of a spec."""
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "tooltip" and isinstance(value, list):
                yield from value
            else:
                yield from _tooltips(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _tooltips(value)


def _untipped(spec: dict, inherited: bool = False) -> Iterator[str]:
    """The marks of a spec without a tooltip of their own or their layer's: Streamlit's theme
    gives those one listing every column of the row (``rate_low 0.0945312057342``); a null
    tooltip is none (it is dropped on its way to the browser: Balance's line of no effect
    read "zero 0")."""
    tipped = inherited or spec.get("encoding", {}).get("tooltip") is not None
    if "mark" in spec and not tipped:
        yield str(spec["mark"])
    for layer in spec.get("layer", []):
        yield from _untipped(layer, tipped)


def chart_problems(spec: dict, columns: list[str]) -> list[str]:
    """What Vega-Lite's schema says of ``spec`` drawn with data of ``columns`` (which Streamlit
    passes beside the spec), the fields it names that the data lacks, and the tooltip lines
    that would read a column's name rather than words (``rate_low``: a hover showed it), or every
    column (a mark without a tooltip)."""
    found = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:400]}"
             for e in VEGA_LITE.iter_errors({"data": {"name": "drawn"}, **spec})]
    return found + [f"field {name!r} is not a column of {columns}"
                    for name in sorted(set(_fields(spec)) - set(columns))] + [
        f"a tooltip reads the column name {tip['field']!r}" for tip in _tooltips(spec)
        if "_" in tip.get("field", "") and not tip.get("title")] + [
        f"the mark {mark} lists every column when hovered" for mark in _untipped(spec)]


def _run(db: Path, name: str, monkeypatch: pytest.MonkeyPatch, tab: str | None = None,
         **params: str) -> list[tuple[dict, list[str]]]:
    at = page(name, db, monkeypatch, **params)
    if tab:
        at = open_tab(at, "league_section", tab)
    assert not at.exception, at.exception
    return list(charts_drawn(at))


DEMO_CHARTS = [  # (page, League's tab, filters, charts at least)
    ("league", "Cash over time", {}, 2),  # one time line per variant with dated games
    ("player", None, {"player": "Anna (greek-prefa)"}, 2),  # contracts, over time
    ("contracts", None, {"variant": "swabian"}, 1),  # few contracts: the labelled cells
    ("contracts", None, {"variant": "greek-prefa"}, 1),  # many: the cells alone
]


@pytest.mark.parametrize(("page", "tab", "params", "least"), DEMO_CHARTS,
                         ids=[f"{p}-{'-'.join(f.values()) or 'all'}" for p, _, f, _ in DEMO_CHARTS])
def test_the_charts_of_the_demo_are_valid_vega_lite_of_their_data(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch, page: str, tab: str | None,
        params: dict[str, str], least: int) -> None:
    charts = _run(demo_path, page, monkeypatch, tab, **params)
    assert len(charts) >= least
    for spec, columns in charts:
        assert not chart_problems(spec, columns), (page, chart_problems(spec, columns))


def test_the_balance_charts_are_valid_vega_lite_of_their_data(
        balance_studies: tuple[Path, list], monkeypatch: pytest.MonkeyPatch) -> None:
    charts = _run(balance_studies[0], "balance", monkeypatch)
    assert len(charts) == 4  # three metrics of arm a against arm b, the flags' effects
    for spec, columns in charts:
        assert not chart_problems(spec, columns), chart_problems(spec, columns)


def _tipped(at: AppTest) -> tuple[list[str], list[object]]:
    """The tooltip lines of a run page's charts that read a column holding a null (which a
    hover shows as "null"), and every value the charts' tooltips read."""
    nulls, values = [], []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        table = pa.ipc.open_stream(chart.proto.data.data).read_all()
        for tip in _tooltips(spec):
            if tip.get("field") in table.column_names:
                column = table.column(tip["field"])
                nulls += [tip["field"]] if column.null_count else []
                values += column.to_pylist()
    return nulls, values


def test_a_study_of_one_game_has_no_null_in_its_tooltips(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A study of one game has no interval of its money (a mean over games): the chart's tooltip
    read "95% interval from: null". It reads the interval in words, "none", as its table does
    (docs/balance-study.md)."""
    from sim.balance import store_study, study

    db = fixture_db.build(tmp_path / "one.duckdb")
    store_study(db, study("greek-prefa", {}, {"four_aces": "raise_value"}, 1, 4, seed=3,
                          workers=1))
    at = page("balance", db, monkeypatch)
    assert not at.exception, at.exception
    charts_of = list(charts_drawn(at))
    assert all(not chart_problems(spec, columns) for spec, columns in charts_of)
    nulls, values = _tipped(at)
    assert not nulls and "none" in values  # the money's interval, which one game lacks
    lines = {(tip.get("title"), tip["field"]) for spec, _ in charts_of for tip in _tooltips(spec)}
    assert ("95% interval", "interval") in lines
    flags = frame_with(at, "estimate (n, 95% CI)")["estimate (n, 95% CI)"]
    assert flags.str.contains("no interval").all()
    # a chart without an estimate is not drawn (success by contract, when no contract was
    # played in its 4 deals, was an empty frame with an axis of "0.000000%"), and one game is
    # "1 game"
    assert any(c.value.startswith("1 game of up to 4 deals · ") for c in at.caption)
    success = frame_with(at, "arm a (n, 95% CI)")
    if (success["arm a (n, 95% CI)"] == "—").all():  # no contract played: its chart is left out
        drawn = [spec for spec, _ in charts_of
                 if spec["layer"][0]["encoding"].get("y", {}).get("title") == "made"]
        assert not drawn


def test_the_line_of_no_effect_lies_under_the_estimates() -> None:
    """Balance's dashed line at no effect was drawn over the points: an estimate at zero
    hovered read "no effect 0", never its own tooltip."""
    layers = charts.flag_effects("declarer money", False, 1)["layer"]
    marks = [(layer["mark"]["type"], layer["encoding"]["x"]["field"]) for layer in layers]
    assert marks.index(("rule", "zero")) < marks.index(("point", "estimate"))


def test_the_review_trend_is_valid_vega_lite() -> None:
    """The Player page's review by month (drawn only for reviewed players in dated games, which
    the demo has not)."""
    columns = ["variant", "month", "metric", "n", "rate", "rate_low", "rate_high"]
    assert not chart_problems(charts.review_by_month(), columns)


def test_the_checks_see_a_bad_spec() -> None:
    tip = {"mark": "point", "encoding": {"tooltip": [charts.channel("rate_low", "quantitative")]}}
    assert chart_problems(tip, ["rate_low"]) == ["a tooltip reads the column name 'rate_low'"]
    assert chart_problems({"layer": [tip, {"mark": "rule", "encoding": {}}]}, ["rate_low"]) == [
        "a tooltip reads the column name 'rate_low'", "the mark rule lists every column when "
        "hovered"]
    spec = {"mark": {"type": "line", "pointt": True},
            "encoding": {"x": {"field": "day", "type": "temporal"},
                         "y": {"field": "cash", "type": "quantitativ"},
                         "tooltip": [{"field": "day", "type": "temporal"}]}}
    found = chart_problems(spec, ["day"])
    assert len(found) == 2 and "is not valid" in found[0] and "field 'cash'" in found[1]
    spec["mark"] = {"type": "line", "point": True}
    spec["encoding"]["y"]["type"] = "quantitative"
    assert chart_problems(spec, ["day", "cash"]) == []


def test_no_page_builds_charts_with_altair() -> None:
    imports = {path.relative_to(ROOT).as_posix()
               for path in (ROOT / "dashboards").rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Import | ast.ImportFrom)
               and any((alias.name if isinstance(node, ast.Import) else node.module or "")
                       .split(".")[0] == "altair" for alias in node.names)}
    assert not imports


DAYS = (date(2026, 11, 1), date(2026, 12, 6))
"""The first and last day of a time line."""


def test_cash_over_time_tells_24_players_apart() -> None:
    """The League's cash over time: colours alone repeat from the ninth player (a walk of the
    demo found two players in one dark blue); colour and line pattern together do not repeat
    before 24, each assigned in the players' order."""
    spec = charts.cash_over_time("chips", "greek-prefa", DAYS)
    colours = spec["encoding"]["color"]["scale"]["range"]
    dashes = spec["encoding"]["strokeDash"]["scale"]["range"]
    assert spec["encoding"]["strokeDash"]["field"] == spec["encoding"]["color"]["field"]
    pairs = {(colours[i % len(colours)], str(dashes[i % len(dashes)])) for i in range(24)}
    assert len(pairs) == 24
    # one game a day draws points and no line: the points' shapes tell the same 24 apart
    shapes = spec["encoding"]["shape"]["scale"]["range"]
    assert len(shapes) == len(dashes) and spec["encoding"]["shape"]["field"] == "player"
    assert len({(colours[i % len(colours)], shapes[i % len(shapes)]) for i in range(24)}) == 24
    assert spec["encoding"]["shape"]["legend"] == spec["encoding"]["color"]["legend"]
    assert spec["encoding"]["color"]["legend"] == spec["encoding"]["strokeDash"]["legend"]
    assert not chart_problems(spec, ["player", "day", "cash", "cumulative_cash"])


@pytest.mark.parametrize("spec", [charts.cash_over_time("chips", "greek-prefa", DAYS),
                                  charts.cash_by_month("chips", "greek-prefa", DAYS)])
def test_cash_charts_keep_their_height_for_the_plot(spec: dict) -> None:
    """Streamlit sizes a chart without ``autosize`` to "fit" its height: with nine players' legend
    below, League's cash over time was a plot about 100 px high in its 320. The width fits the
    page; the height is the plot's own, the legend below it."""
    assert spec.get("autosize", {}).get("type") == "fit-x" and spec["height"] >= 240
    # ticked by its own step: a range of a few days was ticked "06 AM, 12 PM, 06 PM"
    assert spec["encoding"]["x"]["timeUnit"] in ("yearmonthdate", "yearmonth")


@pytest.mark.parametrize(("when", "first", "last", "axis"), [
    ("day", date(1997, 6, 25), date(1997, 6, 27), {"tickCount": {"interval": "day", "step": 1}}),
    ("day", date(2026, 1, 1), date(2026, 1, 1), {"tickCount": {"interval": "day", "step": 1}}),
    ("day", date(2026, 1, 1), date(2026, 1, 31), {"tickCount": {"interval": "day", "step": 3}}),
    ("day", date(2025, 1, 1), date(2026, 1, 1), {}),
    ("month", date(1997, 6, 1), date(1997, 8, 1),
     {"tickCount": {"interval": "month", "step": 1}}),
    ("month", date(2020, 1, 1), date(2026, 1, 1), {})])
def test_a_short_time_line_is_ticked_at_whole_days_or_months(
        when: str, first: date, last: date, axis: dict) -> None:
    """League's cash over time of a bridge database whose games span three days read
    "Jun 25, 1997" twice and "Jun 26, 1997" twice: Vega-Lite ticked the axis every 12 hours and
    labelled each tick with its day. A range of up to 60 days (36 months) is ticked at whole
    days (months), at most about 12 of them; a longer one keeps Vega-Lite's ticks, a day (a
    month) apart or more."""
    assert charts.time_axis(when, first, last) == axis
    make = charts.cash_over_time if when == "day" else charts.cash_by_month
    spec = make("points", "bridge-duplicate", (first, last))
    assert spec["encoding"]["x"]["axis"] == axis
    columns = ["player", "day", "cash", "cumulative_cash"] if when == "day" else [
        "month", "deals", "declared", "cash", "cumulative"]
    assert not chart_problems(spec, columns)


def test_balance_axes_say_what_they_count() -> None:
    """A share's axis reads as a share of deals (it said "money changed, b − a per deal"), and a
    money axis drops trailing zeros (an effect of zero read 0.000000)."""
    share = charts.flag_effects("money changed", True, 2)["layer"][0]["encoding"]["x"]
    money = charts.flag_effects("declarer kassa", False, 2)["layer"][0]["encoding"]["x"]
    assert share["title"] == "share of the paired deals whose money changed"
    assert share["axis"] == {"format": "%"}
    assert money["title"] == "declarer kassa, b − a per deal"
    assert money["axis"]["format"] == ",.4~g"


def test_few_categories_read_level() -> None:
    """Balance's seat positions ('first hand') and contract levels stood on end, read bottom to
    top; they read level. A variant's 25 contracts stay on end: slanted, every other one was
    dropped for want of room."""
    seats = charts.arms(["dealer", "first hand", "second hand"], False, "position", "money")
    contracts = charts.arms([f"{n}{d}" for n in range(6, 11) for d in "SCDHN"], True,
                            "contract", "made")
    assert seats["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == 0
    assert "labelAngle" not in contracts["layer"][0]["encoding"]["x"].get("axis", {})


@pytest.mark.parametrize("labelled", [False, True])
def test_a_cell_of_few_deals_is_smaller_in_the_legend_s_colour(labelled: bool) -> None:
    """Contracts' heatmap drew a cell of too few deals at 40% opacity: a faded dark purple (0%
    made) read as a lavender the legend does not have. It is now a smaller square, its colour
    on the legend's scale, beside full cells; the labels stay on top."""
    spec = charts.made_heatmap(["6S", "7S"], 2, labelled)
    full, small, *text, picker = spec["layer"]
    assert full["transform"] == [{"filter": "datum.enough"}] and full["mark"] == {"type": "rect"}
    assert small["transform"] == [{"filter": "!datum.enough"}]
    assert small["mark"]["width"] == small["mark"]["height"] == {"band": charts.SMALL_CELL} \
        and 0 < charts.SMALL_CELL < 1
    assert small["encoding"]["color"] == full["encoding"]["color"]
    assert "opacity" not in json.dumps(spec)
    assert [t["mark"]["type"] for t in text] == (["text"] if labelled else [])
    # on top, a clear cell over each picks it when clicked, and outlines the chosen one
    assert picker["mark"]["fill"] == "transparent" and picker["params"][0]["name"] == "picked"
    assert chart_problems(spec, ["contract", "mode", "n", "made", "rate", "rate_low",
                                 "rate_high", "label", "enough", "chosen",
                                 *charts.CELL_CODES]) == []


def test_players_drawn_on_each_other_are_named(demo_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Partners at bridge have the same cash every day (bridge.md: a side scores as one), so
    League's time line drew Anna under Chris with nothing to say so: the page names them."""
    from dashboards.views.league import alike

    series = pl.DataFrame({"player": ["A", "B", "C", "A", "B", "C"],
                           "day": [1, 1, 1, 2, 2, 2], "cumulative_cash": [5, 5, 5, 7, 7, 9]})
    assert alike(series) == [["A", "B"]]  # C left them on day 2
    at = open_tab(page("league", demo_path, monkeypatch, variant="bridge-rubber"),
                  "league_section", "Cash over time")
    assert not at.exception
    said = [c.value for c in at.caption if c.value.startswith("Drawn on each other")]
    assert len(said) == 1 and said[0].count(" and ") == 4, said  # two tables of partners
