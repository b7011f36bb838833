"""Contracts: success rates by variant, contract and defence mode, a table and a heatmap.

Every rate carries its n and a Wilson 95% interval; click a cell of the heatmap, or choose one
below it, to list the deals behind it, each linking to the replayer. "made" and "defence mode"
are defined in ``dashboards/queries.py``. The heatmap's scale is colour-blind safe (viridis) and
a cell with few deals is drawn smaller.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import polars as pl
import streamlit as st

from dashboards import charts
from dashboards.common import (
    REPLAY_COLUMN,
    WIDEN,
    empty,
    filters,
    guarded,
    query,
    rates,
    replay_links,
    show,
    url_choice,
    url_param,
)
from dashboards.replay import call_words, calls_in_words
from dashboards.rows import per_row
from dashboards.text import md, mode_in_words, short_source
from dashboards.uploads import names_of
from model.problems import counted

LOW_N = 10  # cells with fewer deals are drawn smaller (their rate is uncertain)


def _modes_in_words(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with its defence modes as the players say them (``Variant.mode_words``)."""
    return frame.with_columns(per_row(frame, "mode", ("variant", "mode"), mode_in_words))


def _heatmap(cells: pl.DataFrame, order: list[str], spoken: Callable[[str], str],
             chosen: tuple[str, str]) -> None:
    """The heatmap of ``cells`` (contracts in ``order``), the ``chosen`` (contract, mode) outlined;
    a click on a cell chooses it (:func:`take_click`)."""
    contract, mode = charts.CELL_CODES
    data = _modes_in_words(calls_in_words(cells.with_columns(
        pl.col("contract").alias(contract), pl.col("mode").alias(mode)))).with_columns(
        pl.format("{}% ({})", (pl.col("rate") * 100).round(0).cast(pl.Int64), pl.col("n"))
        .alias("label"),
        (pl.col("n") >= LOW_N).alias("enough"),
        ((pl.col(contract) == chosen[0]) & (pl.col(mode) == chosen[1])).alias("chosen"),
    )
    many = len(order) > 12
    words = [spoken(code) for code in order]
    st.vega_lite_chart(data.select("contract", "mode", "n", "made", "rate", "rate_low",
                                   "rate_high", "label", "enough", "chosen", contract, mode),
                       charts.made_heatmap(words, cells["mode"].n_unique(), not many),
                       width="content" if many else "stretch", on_select="rerun",
                       selection_mode=charts.CELL_PICKED, key=_heatmap_key())
    st.caption(f"Colour: share made; small cells have fewer than {LOW_N} deals. "
               + ("Hover a cell for its rate and n" if many else "Label: rate (n)")
               + "; click one to list its deals below.")


# How many heatmap clicks this session has taken: part of the heatmap's key, so each click is
# taken once and the next, even on the same cell, is a new one (a docstring here would be drawn)
CLICKS = "_contracts_clicks"


def _heatmap_key() -> str:
    return f"contracts_heatmap_{st.session_state.get(CLICKS, 0)}"


def box_keys(variant: str) -> tuple[str, str]:
    """The keys of the Contract and Defence mode boxes of ``variant``'s heatmap: a pair per
    variant, so that each variant keeps its cell in the session and a switch to another draws
    the boxes anew (one pair kept a contract code both games have in the first game's words:
    "4 Herz" for balkan's "4 Herc")."""
    return f"contracts_contract_{variant}", f"contracts_mode_{variant}"


def take_click(cells: pl.DataFrame, variant: str) -> None:
    """The cell last clicked on the heatmap (Streamlit keeps the selection under the chart's
    key), when it is one of ``cells``, chosen in ``variant``'s boxes below it (before they are
    drawn)."""
    state = st.session_state
    event = state.get(_heatmap_key())
    points = (event or {}).get("selection", {}).get(charts.CELL_PICKED) or []
    if not points:
        return
    state[CLICKS] = state.get(CLICKS, 0) + 1
    contract, mode = (points[0].get(code) for code in charts.CELL_CODES)
    if not cells.filter((pl.col("contract") == contract) & (pl.col("mode") == mode)).is_empty():
        for key, value in zip(box_keys(variant), (contract, mode), strict=True):
            state[key] = value


# The heatmap's variant of the session's last run: the URL's cell is that variant's, not the
# one a user switches to (a docstring here would be drawn)
SHOWN = "_contracts_shown"


st.title("Contracts")
with guarded():
    wanted = {name: url_param(name) for name in ("heatmap", "contract", "mode")}
    f = filters()
    if f.player:  # the player filter chooses games, as on every page; his own are on Player
        st.caption(f"Every contract of the games {md(f.player)} sat in, whoever declared it; his "
                   "own contracts are on the Player page.")
    table = rates(query("contract_rates", f), "made", "n")
    if table.is_empty():
        empty("No declared deals match these filters, so no contract to rate"
              + (f": {WIDEN}." if f.to_params() else "."), of_games=True)
        st.stop()
    show(_modes_in_words(calls_in_words(table)).select("variant", "contract", "mode", "deals",
                                                       "n", "made", "rate (n, 95% CI)"),
         "contracts_table", labels={"n": "n (outcome known)"})

    variants = table["variant"].unique(maintain_order=True).to_list()
    variant = url_choice("Variant", variants, "contracts_variant", wanted["heatmap"], "heatmap",
                         named=("variant", "among the variants of the declared deals these "
                                           "filters choose"))
    if st.session_state.get(SHOWN) not in (None, variant):  # switched: the URL's cell is not
        wanted["contract"] = wanted["mode"] = None           # this variant's
    st.session_state[SHOWN] = variant
    cells = table.filter(pl.col("variant") == variant)
    spoken = partial(call_words, variant=variant)  # a contract code in the game's words
    order = cells["contract"].unique(maintain_order=True).to_list()
    take_click(cells, variant)
    heatmap = st.container()  # drawn once the boxes below have chosen its outlined cell

    st.subheader("Deals behind a cell")
    contract_key, mode_key = box_keys(variant)
    contract = url_choice("Contract", order, contract_key, wanted["contract"], "contract",
                          shown=spoken, named=("contract", f"among the contracts of {md(variant)} "
                                                           "these filters choose"))
    modes = cells.filter(pl.col("contract") == contract)["mode"].to_list()
    mode = url_choice("Defence mode", modes, mode_key, wanted["mode"], "mode",
                      shown=partial(mode_in_words, variant),
                      named=("defence mode", f"among the defence modes of {md(spoken(contract))}"))
    with heatmap:
        _heatmap(cells, order, spoken, (contract, mode))
    cell = cells.filter((pl.col("contract") == contract) & (pl.col("mode") == mode))
    if not cell.is_empty():
        st.caption(f"{md(variant)} {md(spoken(contract))} with defence "
                   f"{md(mode_in_words(variant, mode))}: "
                   f"{cell['rate (n, 95% CI)'][0]}; {counted(cell['deals'][0], 'deal')}")
    deals = query("contract_deals", f, variant, contract, mode)
    if deals.is_empty():
        empty("No deals in this cell.")
    else:
        names = names_of(deals["source"].unique().to_list())  # uploads as uploaded
        shown = deals.with_columns(
            per_row(deals, "source", ("source",), lambda s: short_source(s, names)),
            per_row(deals, "contract", ("contract",), spoken),
            per_row(deals, "mode", ("mode",), partial(mode_in_words, variant)),
            pl.when(pl.col("made")).then(pl.lit("made")).when(~pl.col("made"))
            .then(pl.lit("down")).alias("made"),
            replay_links(deals, f),
        ).drop("has_cards")
        # the replay link first: the table is wider than the page, and its end is cut off
        shown = shown.select("replay", pl.exclude("replay"))
        show(shown, "contracts_deals", missing={"started_at": "undated", "made": "—",
                                                 "declarer_tricks": "not recorded"},
             labels={"made": "result"},  # as My deals names it
             column_config=REPLAY_COLUMN)
