"""League: standings per league, season and game; cash over time; the score sheet of a game.

Standings and cash come from ``standings`` (records.md 2); the sheet is drawn by
:mod:`dashboards.sheets` in the form the game's players use (Greek kassa and chips columns ...).
Money is never summed across variants: with "(all)" each variant has its own table (a tab each) and
chart, and every cash figure names its unit (:func:`dashboards.text.unit`). The three sections are
tabs and only the open one runs and is drawn (a first page draws the headline and one table).
"""

from __future__ import annotations

from collections import Counter

import polars as pl
import streamlit as st

from dashboards import charts
from dashboards.common import draw_game, empty, filters, guarded, query, show
from dashboards.filters import Filters
from dashboards.text import STANDINGS_NOTES, cash, md, number, unit
from model.problems import counted


def _standings(standings: pl.DataFrame, variant: str) -> None:
    part = standings.filter(pl.col("variant") == variant).drop("variant")
    if variant in STANDINGS_NOTES:
        st.caption(STANDINGS_NOTES[variant])
    show(part, f"league_standings_{variant}", missing={"season": "undated"},
         labels={"cash": f"cash ({unit(variant)})",
                 "cash_per_game": f"cash per game ({unit(variant)})"})


def alike(series: pl.DataFrame) -> list[list[str]]:
    """The players whose cumulative cash is the same on every day they played (partners at
    bridge), in groups of two or more: their lines and points lie on each other."""
    by_series: dict[tuple[object, ...], list[str]] = {}
    for player, rows in series.sort("day").group_by("player", maintain_order=True):
        path = tuple(zip(rows["day"], rows["cumulative_cash"], strict=True))
        by_series.setdefault(path, []).append(str(player[0]))
    return [sorted(group) for group in by_series.values() if len(group) > 1]


def plain_names(people: list[str], variant: str) -> dict[str, str]:
    """Each person's name in a chart of ``variant`` alone: without the `` (variant)`` his label
    carries where someone else of his name plays another game (``Anna (greek-prefa)`` beside
    ``Anna (bridge-rubber)``, ``ingest.players.people_sql``), which says nothing where only
    ``variant`` is chosen; the label stays whole where the shorter name would be another's."""
    short = {person: person.removesuffix(f" ({variant})") for person in people}
    taken = Counter(short.values())
    return {person: name if taken[name] == 1 else person for person, name in short.items()}


def _time_line(series: pl.DataFrame, undated: pl.DataFrame, variant: str,
               alone: bool) -> None:
    """The cash over time of ``variant``; ``alone``: the only variant chosen, its people named
    without it (:func:`plain_names`)."""
    part = series.filter(pl.col("variant") == variant)
    late = undated.filter(pl.col("variant") == variant)
    if alone:
        names = plain_names([*part["player"], *late["player"]], variant)
        named = pl.col("player").replace_strict(names, return_dtype=pl.String)
        part, late = part.with_columns(named), late.with_columns(named)
    if part.is_empty():
        empty(f"No dated {variant} games for these filters: the time line needs games with a "
              "start time.")
    else:
        st.vega_lite_chart(part.select("player", "day", "cash", "cumulative_cash"),
                           charts.cash_over_time(unit(variant), variant,
                                                 (part["day"].min(), part["day"].max())),
                           width="stretch")
        if hidden := alike(part):
            st.caption("Drawn on each other, their cash the same every day: "
                       + "; ".join(" and ".join(md(p) for p in group) for group in hidden) + ".")
    if not late.is_empty():
        shown = ", ".join(f"{md(r['player'])} {cash(r['cash'], variant)} in "
                          f"{counted(r['games'], 'game')}" for r in late.iter_rows(named=True))
        results = counted(int(late["games"].sum()), "undated game result")
        st.caption(f"Not on the time line ({results}, counted in the standings): {shown}.")


def _standings_section(f: Filters, variants: list[str]) -> None:
    standings = query("league_standings", f)
    st.caption("Per league, season (year the game started) and player; one table per variant, "
               "each in its own settlement unit.")
    if len(variants) == 1:
        _standings(standings, variants[0])
        return
    # "(all)": one tab per variant, only the open one drawn.
    tabs = st.tabs([f"{v} ({unit(v)})" for v in variants], key="league_variant",
                   on_change="rerun")
    for variant, tab in zip(variants, tabs, strict=True):
        if tab.open:
            with tab:
                _standings(standings, variant)


def _cash_section(f: Filters, variants: list[str]) -> None:
    series = query("cash_over_time", f)
    undated = query("undated_cash", f)
    for variant in variants:
        _time_line(series, undated, variant, alone=f.variant is not None)


def _sheet_section(f: Filters) -> None:
    games = query("games", f)
    labels = {
        r["game_id"]: f"{r['game_id']} · {r['variant']} · {counted(r['deals'], 'deal')}"
        for r in games.iter_rows(named=True)
    }
    game_id = st.selectbox("Game", games["game_id"].to_list(), key="league_game",
                           format_func=lambda g: labels.get(g, g))
    if game_id is None:
        empty("No game to draw.")
    else:
        draw_game(game_id, "league", f)


def headline(totals: dict[str, int]) -> str:
    """The games, deals and people matching the filters, in one line. Not four ``st.metric``: the
    browser loads a metric's code for the first one on a page, 0.07-0.11 s of a cold League
    page (docs/dashboards.md, "Speed")."""
    return (f"**{counted(totals['games'], 'game')}** · **{counted(totals['deals'], 'deal')}**, "
            f"{number(totals['deals_with_cards'])} with cards · "
            f"**{counted(totals['players'], 'player')}**")


def _no_standings(games: int, deals: int, waiting: int) -> str:
    """Why games match and standings do not: their deals were all quarantined, or are stored
    and not scored (``waiting`` games wait for their settlement), or nobody played them (a DDS
    hand file's solved deals, never settled: docs/bridge.md)."""
    if deals == 0:
        return (f"The {counted(games, 'game')} matching these filters "
                f"{'has' if games == 1 else 'have'} no stored deal, so no standings: the Data "
                "quality page lists the deals quarantined and why.")
    are = "is" if deals == 1 else "are"
    if waiting == 0:
        return (f"The {counted(deals, 'deal')} matching these filters {are} deals nobody played "
                "(a DDS hand file's solved deals, their hands only), so no standings: the "
                "Replayer shows their hands.")
    return (f"The {counted(deals, 'deal')} matching these filters {are}"
            " not scored yet, so no standings: run `trickbook score --db FILE` on the database.")


def _unsettled(games: int) -> str:
    """Why some standings lag: games whose deals are stored and not all settled."""
    one = games == 1
    return (f"{counted(games, 'game')} matching these filters {'waits' if one else 'wait'} for "
            f"{'its' if one else 'their'} settlement (an ingest was stopped while settling, or a "
            f"settlement failed): {'its' if one else 'their'} deals stored since the last "
            "settlement are not in these standings. Run `trickbook score --db FILE` on the "
            "database.")


st.title("League")
with guarded():
    f = filters()
    totals = query("overview", f).row(0, named=True)
    st.markdown(headline(totals))
    if totals["games"] == 0:
        empty("No games match these filters: widen the date range or choose another league or "
              "variant, or add files on the Upload page.", of_games=True)
        st.stop()

    variants = query("league_standings", f)["variant"].unique().sort().to_list()
    unsettled = query("unsettled_games", f)
    if not variants:
        empty(_no_standings(totals["games"], totals["deals"], unsettled))
        st.stop()
    if unsettled:
        st.warning(_unsettled(unsettled), icon=":material/pending:")

    # One tab per section; only the open tab's section runs and is drawn (a first page shows
    # the headline and the standings, not six charts and a score sheet besides).
    standings_tab, cash_tab, sheet_tab = st.tabs(
        ["Standings", "Cash over time", "Score sheet"], key="league_section", on_change="rerun")
    if standings_tab.open:
        with standings_tab:
            _standings_section(f, variants)
    if cash_tab.open:
        with cash_tab:
            _cash_section(f, variants)
    if sheet_tab.open:
        with sheet_tab:
            _sheet_section(f)
