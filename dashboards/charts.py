"""Every chart the pages draw, as a Vega-Lite spec written out: plain functions returning dicts,
drawn with ``st.vega_lite_chart(data, spec)``.

Altair would build the same specs but checks every channel against Vega-Lite's schema as the page
runs (about 0.1 s a chart, most of a second of the Balance page); the tests check these specs
against that schema, and their fields against the data the pages draw
(``tests/dashboards/test_charts.py``).
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

Spec = dict[str, Any]

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
             "#000000"]
"""A colour-blind-safe palette (Okabe and Ito) for lines and points of several players."""
DASHES = [[1, 0], [6, 3], [2, 2]]
"""Line patterns (solid, dashed, dotted) beside :data:`OKABE_ITO`: eight colours and three
patterns tell 24 players apart (colours alone repeat from the ninth)."""
SHAPES = ["circle", "square", "triangle-up"]
"""The points' shapes, one to each of :data:`DASHES`: a player with one game a day has points
and no line to see a pattern in."""
ESTIMATE = ("n", "estimate", "lo", "hi", "interval")
"""The columns of a point estimate with its 95% interval (``sim/balance.py``) and that interval
in words, which its tooltip reads (``interval``: a study of one game has none, which a tooltip
of ``lo`` read "null")."""


MONEY_TIP = ",.2~f"
"""Money in a tooltip: to the cent at most, trailing zeros dropped (a third of a point read
42.6666666667)."""


def _tip_format(share: bool) -> str:
    """A tooltip's number: a share in whole percent, money as :data:`MONEY_TIP`."""
    return ".0%" if share else MONEY_TIP


def _interval_tips(estimate: str, low: str, high: str, title: str, **more: object
                   ) -> list[Spec]:
    """A tooltip's lines of an estimate (titled ``title``) and its 95% interval, in words: the
    interval's columns read ``rate_low``, ``lo``."""
    return [channel(estimate, "quantitative", title, **more),
            channel(low, "quantitative", "95% interval from", **more),
            channel(high, "quantitative", "95% interval to", **more)]


def _estimate_tips(share: bool) -> list[Spec]:
    """A tooltip's lines of an estimate of :data:`ESTIMATE` and its interval in words."""
    return [channel("estimate", "quantitative", "estimate", format=_tip_format(share)),
            channel("interval", "nominal", "95% interval")]


def channel(name: str, kind: str, title: str | None = None, **more: object) -> Spec:
    """The column ``name`` as a channel of type ``kind`` (``nominal``, ``quantitative``,
    ``temporal``), with its title and any other property (``sort``, ``axis``, ``scale`` ...)."""
    return {"field": name, "type": kind, **({"title": title} if title else {}), **more}


def _numbers(*names: str, **more: object) -> list[Spec]:
    return [channel(name, "quantitative", **more) for name in names]


def _share(share: bool) -> Spec:
    """The axis of a share (in percent) or of money (at most four significant digits, trailing
    zeros dropped: an axis around an effect of zero read 0.000000)."""
    return {"format": "%"} if share else {"format": ",.4~g"}


TIME_UNITS = {"day": "yearmonthdate", "month": "yearmonth"}
"""The Vega-Lite time unit of a column of days or months."""


TICKS = 12
"""About as many ticks as a short time line gets (:func:`time_axis`)."""
TICKED_UP_TO = {"day": 60, "month": 36}
"""The longest range, in days or months, whose axis is ticked at whole days or months
(:func:`time_axis`): over a longer one, Vega-Lite's own ticks are a day (a month) apart or more."""


def time_axis(when: str, first: date, last: date) -> Spec:
    """The axis of a time line from ``first`` to ``last`` by ``when`` (``day`` or ``month``):
    over a short range, ticks at whole days (months), one every few where there are more than
    :data:`TICKS`. Vega-Lite's own ticks fell between two days, each labelled with its day alone,
    so a league of three days read "Jun 25, 1997" twice and "Jun 26, 1997" twice."""
    steps = ((last - first).days if when == "day"
             else (last.year - first.year) * 12 + last.month - first.month)
    if steps > TICKED_UP_TO[when]:
        return {}
    return {"tickCount": {"interval": when, "step": max(1, math.ceil((steps + 1) / TICKS))}}


def _cumulative_cash(when: str, span: tuple[date, date], column: str, unit: str, title: str,
                     height: int, tooltip: list[Spec], **encoding: Spec) -> Spec:
    """Cumulative cash (``column``, in ``unit``) over time (``when``: ``day`` or ``month``;
    ``span``: the first and last of them), a line with points; the axis ticks at that step (a
    few days' range was ticked by the hour, :func:`time_axis`)."""
    return {
        "mark": {"type": "line", "point": {"filled": True, "size": 70}},
        "encoding": {"x": channel(when, "temporal", when, timeUnit=TIME_UNITS[when],
                                  axis=time_axis(when, *span)),
                     "y": channel(column, "quantitative", f"cumulative cash ({unit})"),
                     **encoding, "tooltip": tooltip},
        "height": height,
        # the width fits the page, the height is the plot's own: with Streamlit's default
        # ("fit" in both) a legend of many players below took it from the plot (about 100 px)
        "autosize": {"type": "fit-x", "contains": "padding"},
        "title": title,
    }


PLAYERS_LEGEND = {"orient": "bottom", "columns": 4, "labelLimit": 240, "symbolSize": 120,
                  "symbolStrokeWidth": 0}
"""A legend of many players below the chart, in columns, each name whole (at the right it was
cut at the chart's height), each drawn as his point, filled, without an outline (the pattern
drawn around it blurred the shape): colour, shape and pattern share it (the same field, title and
legend), each shape standing for one pattern."""


def cash_over_time(unit: str, title: str, days: tuple[date, date]) -> Spec:
    """League: cumulative cash per player and day, one line each (columns ``player, day, cash,
    cumulative_cash``; ``days``: the first and the last)."""
    return _cumulative_cash(
        "day", days, "cumulative_cash", unit, title, 320,
        [channel("player", "nominal"), channel("day", "temporal"),
         channel("cash", "quantitative", format=MONEY_TIP),
         channel("cumulative_cash", "quantitative", "cumulative cash", format=MONEY_TIP)],
        color=channel("player", "nominal", "player", scale={"range": OKABE_ITO},
                      legend=PLAYERS_LEGEND),
        strokeDash=channel("player", "nominal", "player", scale={"range": DASHES},
                           legend=PLAYERS_LEGEND),
        shape=channel("player", "nominal", "player", scale={"range": SHAPES},
                      legend=PLAYERS_LEGEND))


def cash_by_month(unit: str, title: str, months: tuple[date, date]) -> Spec:
    """Player: his cumulative cash by month in one variant (``month, deals, declared, cash,
    cumulative``; ``months``: the first and the last)."""
    return _cumulative_cash(
        "month", months, "cumulative", unit, title, 240,
        [channel("month", "temporal"), *_numbers("deals", "declared"),
         *_numbers("cash", "cumulative", format=MONEY_TIP)])


def _with_interval(point: Spec, encoding: Spec, shared: Spec, **spec: Any) -> Spec:
    """A rate drawn as ``point`` (a mark with its ``encoding``) and a rule over its 95% interval
    (``rate_low`` to ``rate_high``), both on the ``shared`` channels."""
    return {"layer": [
        {"mark": point, "encoding": encoding},
        {"mark": {"type": "rule"},
         "encoding": {"y": channel("rate_low", "quantitative"), "y2": {"field": "rate_high"},
                      "tooltip": encoding["tooltip"]}},  # else it would list every column
    ], "encoding": shared, **spec}


CONTRACT_ROW = 26
"""The height (px) of a contract's row where contracts run down a chart: one line of its
label, level, at :data:`CONTRACT_AXIS`'s size."""
CONTRACT_AXIS = {"labelAngle": 0, "labelFontSize": 13, "labelLimit": 240, "labelPadding": 6,
                 "titleFontSize": 12}
"""The axis of contracts in the game's words: level and larger than Vega-Lite's 10 px, so
``6♠ 6♣ 6♦ 6♥`` are told apart (on end and small, the suits' symbols were specks), each whole
(``6 Bettel from the hands``)."""

ROWS_AUTOSIZE = {"type": "fit-x", "contains": "padding"}
"""A chart of contract rows fits the page's width and keeps its height for the rows (Streamlit's
default, "fit" in both, took the axes and title out of it: 26 contracts got 20 px each and 5
got 11, every other label dropped)."""


def _contracts(order: list[str] | None = None) -> Spec:
    """The contracts down the side, one row each, in ``order`` (None: as the data lists them)."""
    return channel("contract", "nominal", "contract", sort=order, axis=CONTRACT_AXIS)


def made_by_contract(rows: int) -> Spec:
    """Player: share made as declarer by contract, a bar per contract and variant (of ``rows``)
    with its 95% interval (``variant, contract, n, made, rate, rate_low, rate_high``); the
    contracts down the side (:data:`CONTRACT_AXIS`), a variant's bar beside another's of the
    same name, never stacked on it."""
    share = _share(True)
    tips = [channel("variant", "nominal"), channel("contract", "nominal"), *_numbers("n", "made"),
            *_interval_tips("rate", "rate_low", "rate_high", "share made", format=".0%")]
    return {"layer": [
        {"mark": {"type": "bar"},
         "encoding": {"x": channel("rate", "quantitative", "made", scale={"domain": [0, 1]},
                                   axis=share, stack=None),
                      "color": channel("variant", "nominal", scale={"range": OKABE_ITO}),
                      "tooltip": tips}},
        {"mark": {"type": "rule"},  # the interval says what its bar says
         "encoding": {"x": channel("rate_low", "quantitative"), "x2": {"field": "rate_high"},
                      "tooltip": tips}},
    ], "encoding": {"y": _contracts(), "yOffset": channel("variant", "nominal")},
        "height": CONTRACT_ROW * max(1, rows), "autosize": ROWS_AUTOSIZE}


def review_by_month() -> Spec:
    """Player: the review's shares by month, with 95% intervals (``variant, month, metric, n,
    rate, rate_low, rate_high``)."""
    return _with_interval(
        {"type": "line", "point": True},
        {"y": channel("rate", "quantitative", "share", axis=_share(True)),
         "tooltip": [channel("variant", "nominal"), channel("month", "temporal"),
                     channel("metric", "nominal"), *_numbers("n", "rate")]},
        {"x": channel("month", "temporal", "month"),
         "color": {**channel("metric", "nominal"), "title": None, "scale": {"range": OKABE_ITO}}},
        height=220, title="Review of play by month")


SMALL_CELL = 0.6
"""The share of its column and row a cell of too few deals fills (``made_heatmap``)."""


SHARE_LEGEND = {"format": "%", "orient": "bottom", "direction": "horizontal",
                "gradientLength": 200}
"""The heatmap's scale of shares below it, level: at the right, taller than a few contracts'
rows, its end was cut off."""


CELL_PICKED = "picked"
"""The heatmap's selection: the cell clicked, by :data:`CELL_CODES` (Streamlit hands it to the
page, ``st.vega_lite_chart(on_select=...)``)."""
CELL_CODES = ("contract_code", "mode_code")
"""A heatmap cell's contract and defence mode as the page's boxes and URL keep them (the drawn
``contract`` and ``mode`` are in words)."""
CHOSEN_STROKE = "#D55E00"
"""The outline of the chosen cell: vermilion (:data:`OKABE_ITO`), seen on both ends of viridis."""


def made_heatmap(order: list[str], modes: int, labelled: bool) -> Spec:
    """Contracts: share made per contract (in ``order``, down the side, :data:`CONTRACT_AXIS`)
    and defence mode (across the top), a cell drawn smaller where ``enough`` is false (too few
    deals for its rate): its colour stays the legend's, where a faded one read as another rate;
    ``labelled``: each cell also reads its rate and n. On top of all, a clear cell over each
    picks it when clicked (:data:`CELL_PICKED`) and outlines the ``chosen`` one (columns
    ``contract, mode, n, made, rate, rate_low, rate_high, label, enough, chosen`` and
    :data:`CELL_CODES`)."""
    cell = {
        "y": _contracts(order),
        "x": channel("mode", "nominal", "defence",
                     axis={"orient": "top", "labelAngle": 0, "labelFontSize": 13}),
    }
    encoding = {
        **cell,
        "color": channel("rate", "quantitative", "made",
                         scale={"domain": [0, 1], "scheme": "viridis"}, legend=SHARE_LEGEND),
        "tooltip": [channel("contract", "nominal"), channel("mode", "nominal", "defence"),
                    *_numbers("n", "made"),
                    *_interval_tips("rate", "rate_low", "rate_high", "share made",
                                    format=".0%")],
    }
    small = {"band": SMALL_CELL}
    rects = [{"transform": [{"filter": "datum.enough"}], "mark": {"type": "rect"},
              "encoding": encoding},
             {"transform": [{"filter": "!datum.enough"}],
              "mark": {"type": "rect", "width": small, "height": small}, "encoding": encoding}]
    text = {"mark": {"type": "text", "fontSize": 12}, "encoding": {
        **cell,
        "text": channel("label", "nominal"),
        "tooltip": encoding["tooltip"],  # a hover on the label reads as one on its cell
        # dark on viridis' light (high) end, white on its dark end
        "color": {"condition": {"test": "datum.rate > 0.55", "value": "#111"}, "value": "#fff"},
    }}
    picker = {"mark": {"type": "rect", "fill": "transparent", "stroke": CHOSEN_STROKE,
                       "cursor": "pointer"},
              "params": [{"name": CELL_PICKED,
                          "select": {"type": "point", "fields": list(CELL_CODES)}}],
              "encoding": {**cell, "tooltip": encoding["tooltip"], "strokeWidth": {
                  "condition": {"test": "datum.chosen", "value": 3}, "value": 0}}}
    return {"layer": [*rects, *([text] if labelled else []), picker], "autosize": ROWS_AUTOSIZE,
            "height": CONTRACT_ROW * len(order), "width": max(360, 120 * modes)}


FLAT_LABELS = 12
"""Categories up to which an axis reads its labels level (seat positions, contract levels);
more (a variant's 25 contracts) stand on end, where each has room."""


def arms(order: list[str], share: bool, x_title: str, y_title: str) -> Spec:
    """Balance: arm a and arm b side by side per key (in ``order``), a point at the estimate and a
    rule over its 95% interval (``key, arm, n, estimate, lo, hi``); the keys' labels level when
    there are few of them (:data:`FLAT_LABELS`)."""
    shared = {"x": channel("key", "nominal", x_title, sort=order,
                           axis={"labelAngle": 0} if len(order) <= FLAT_LABELS else {}),
              "xOffset": channel("arm", "nominal"), "color": channel("arm", "nominal", "arm"),
              "tooltip": [channel("key", "nominal", x_title), channel("arm", "nominal"),
                          channel("n", "quantitative"),
                          *_estimate_tips(share)]}
    return {"layer": [
        {"mark": {"type": "rule", "strokeWidth": 2},
         "encoding": {**shared, "y": channel("lo", "quantitative", y_title, axis=_share(share)),
                      "y2": {"field": "hi"}}},
        {"mark": {"type": "point", "filled": True, "size": 50},
         "encoding": {**shared, "y": channel("estimate", "quantitative")}},
    ], "height": 320}


def flag_effects(effect: str, share: bool, flags: int) -> Spec:
    """Balance: the paired effect of each of ``flags`` arm b changes, a point at the estimate, a
    rule over its 95% interval and a dashed line at no effect (``change, run_id, n, estimate,
    lo, hi``)."""
    shared = {"y": channel("change", "nominal", "arm b changes", sort=None,
                           # no title beside labels this long: it was drawn over them (the
                           # table below names the column)
                           axis={"labelLimit": 480, "title": None}),
              "tooltip": [channel("change", "nominal"), channel("run_id", "nominal", "run"),
                          channel("n", "quantitative"),
                          *_estimate_tips(share)]}
    return {"layer": [
        {"mark": {"type": "rule", "strokeWidth": 2},
         "encoding": {**shared, "x": channel("lo", "quantitative",
                                             f"share of the paired deals whose {effect}"
                                             if share else f"{effect}, b − a per deal",
                                             axis=_share(share)),
                      "x2": {"field": "hi"}}},
        # under the points, so that an estimate at zero is drawn, and hovered, over it; a null
        # tooltip is dropped on its way to the browser, which then listed "zero 0"
        {"data": {"values": [{"zero": 0.0}]},
         "mark": {"type": "rule", "color": "gray", "strokeDash": [4, 4]},
         "encoding": {"x": channel("zero", "quantitative"),
                      "tooltip": [channel("zero", "quantitative", "no effect")]}},
        {"mark": {"type": "point", "filled": True, "size": 60},
         "encoding": {**shared, "x": channel("estimate", "quantitative")}},
    ], "height": max(160, 60 + 36 * flags)}
