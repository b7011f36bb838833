"""Player: one player's tendencies against the field (the sidebar's player filter), and his deals.

Deals played, how often he declares and at what contracts, success as declarer by contract, how
often he plays, passes or invites as a defender and how often his defence holds, cash per deal and
per game (one row per variant: money is never summed across units), by position at the table,
over time, and every deal of his, sortable, each linking to the replayer. Definitions:
``dashboards/queries.py``.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts
from dashboards.common import (
    REPLAY_COLUMN,
    empty,
    filters,
    guarded,
    keep_in_url,
    player_link,
    position_name,
    query,
    rate_metric,
    rates,
    replay_links,
    show,
    unknown,
    url_param,
)
from dashboards.filters import Filters
from dashboards.queries import DEAL_ORDERS
from dashboards.replay import calls_in_words, cards_in_words, decisions_in_words
from dashboards.rows import per_row
from dashboards.stats import format_rate
from dashboards.text import CASH_NOTES, STANDINGS_NOTES, cash, md, number, unit
from model.problems import counted

PAGE_ROWS = 200
REVIEW_LABELS = {
    "cards_reviewed": "cards reviewed", "costly_cards": "cards that cost tricks",
    "opening_lead_accuracy": "opening leads among the best",
    "declarer_tricks_lost": "deals as declarer with tricks lost",
    "defence_tricks_lost": "deals in defence with tricks lost",
    "all_pass_tricks_lost": "deals in raspasy (all-pass play) with tricks lost",
    "decision_accuracy": "decisions the open-hand answer agrees with",
}
# The review's metrics (dashboards/review.py, docs/review.md) in the players' words above.


def _money(f: Filters, sat_out: int) -> None:
    """His cash, per deal settled (``sat_out`` of them sat out as the dealer of four, which pay
    him too) and per game."""
    money = query("player_cash", f)
    if money.height == 1:
        r = money.row(0, named=True)
        cols = st.columns(3)
        what = unit(r["variant"])  # in the labels: a value with its unit is cut in a column
        cols[0].metric(f"Cash ({what})", number(r["cash"], True))
        field = r["field_cash_per_deal"] or 0
        # Against the field only where it does not break even: in a zero-sum game the field's
        # cash per deal is 0, and "vs field" would repeat the value itself.
        even = number(field) == "0"
        said = [f"Per deal settled, with the {counted(sat_out, 'deal')} he sat out as the "
                "dealer: they pay him too." if sat_out else "",
                "The field breaks even: the players' cash adds up to zero." if even else ""]
        cols[1].metric(f"Cash per deal ({what})", number(r["cash_per_deal"], True),
                       delta=None if even else
                       f"{number(r['cash_per_deal'] - field, True)} vs field",
                       help=" ".join(filter(None, said)) or None)
        cols[2].metric(f"Cash per game ({what})", number(r["cash_per_game"], True))
        if r["variant"] in STANDINGS_NOTES:
            st.caption(STANDINGS_NOTES[r["variant"]])
        return
    st.caption("Cash per variant, each in its own unit (never added across variants).")
    for variant in money["variant"]:
        if variant in STANDINGS_NOTES:
            st.caption(f"{variant}: {STANDINGS_NOTES[variant]}")
    table = money.with_columns(per_row(money, "unit", ("variant",), unit))
    show(table.select("variant", "unit", "deals", "games", "cash", "cash_per_deal",
                      "cash_per_game", "field_cash_per_deal"), "player_cash",
         labels={"field_cash_per_deal": "field's cash per deal"})


def no_players(games: int) -> str:
    """Why the filters find no player: no games, or games without a settled deal (a player is
    one with a settled deal in them, ``queries.players``: a solved deal nobody played, a DDS
    hand file, has none, nor has a deal not scored yet)."""
    if games == 0:
        return ("No games match these filters, so no players: widen the date range or choose "
                "another league or variant, or add games on the Upload or Entry page.")
    return (f"The {counted(games, 'game')} matching these filters {'has' if games == 1 else 'have'}"
            " no settled deal, so no players: deals nobody played (a DDS hand file's solved "
            "deals) are not settled, and deals not scored yet are settled by `trickbook score "
            "--db FILE`.")


def _by_variant(frame: pl.DataFrame, key: str, columns: list[str]) -> None:
    """One table per variant (its cash in its unit)."""
    for variant in frame["variant"].unique(maintain_order=True).to_list():
        part = frame.filter(pl.col("variant") == variant)
        if frame["variant"].n_unique() > 1:
            st.markdown(f"**{md(variant)}**")
        show(part.select(columns), f"{key}_{variant}",
             labels={"cash": f"cash ({unit(variant)})",
                     "cash_per_deal": f"cash per deal ({unit(variant)})"})


def _mean_in_words(mean: float | None, low: float, high: float) -> str | None:
    """A mean with its interval, two decimals each (``0.41 (0.20 to 0.62)``), as the table's
    numbers read."""
    return None if mean is None else f"{mean:.2f} ({low:.2f} to {high:.2f})"


def _review(f: Filters) -> None:
    """Review of play (docs/review.md): his cards and decisions against open-hand best play."""
    st.subheader("Review of play")
    summary = query("player_review", f)
    if summary.is_empty():
        empty(f"No deal of {md(f.player)} has a review of play: `trickbook analyse --play` "
              "values every recorded card and decision of the deals whose cards are recorded "
              "(docs/review.md).")
        return
    st.caption("Each card and decision against open-hand (double-dummy) best play; a rate with "
               "its n and 95% interval, tricks lost per deal with its 95% interval.")
    table = rates(summary, "hits", "n")
    table = table.with_columns(
        pl.col("metric").replace_strict(REVIEW_LABELS, default=pl.col("metric")).alias("what"),
        per_row(table, "tricks lost per deal", ("mean", "mean_low", "mean_high"),
                _mean_in_words),
    )
    _by_variant(table, "player_review", ["what", "n", "rate (n, 95% CI)",
                                         "tricks lost per deal"])
    trend = query("player_review", f, True).filter(
        pl.col("month").is_not_null() & pl.col("rate").is_not_null()
        & pl.col("metric").is_in(["costly_cards", "decision_accuracy"]))
    if trend["month"].n_unique() > 1:  # a line needs two months
        data = trend.with_columns(pl.col("metric").replace_strict(REVIEW_LABELS))
        st.vega_lite_chart(data.select("variant", "month", "metric", "n", "rate", "rate_low",
                                       "rate_high"), charts.review_by_month(), width="stretch")
    cards = query("costliest_cards", f)
    if not cards.is_empty():
        st.markdown("**My costliest cards**")
        show(cards_in_words(cards).with_columns(replay_links(cards, f)).select(
            "variant", "game_id", "deal_no", "card_no", "card", "cost", "best", "replay"),
            "player_costly_cards", labels={"cost": "tricks lost", "card_no": "card #"},
            column_config=REPLAY_COLUMN)
    decisions = query("costliest_decisions", f)
    if not decisions.is_empty():
        st.markdown("**My decisions that were wrong open-hand**")
        st.caption("A contract is wrong when it fails even played open-hand (its best may be "
                   "itself, when no contract makes), a defence when it misjudged the contract's "
                   "open-hand fate. Cost: tricks given away against the best contract (bridge: "
                   "points below par; a defence has none).")
        show(decisions_in_words(decisions).with_columns(replay_links(decisions, f)).select(
            "variant", "game_id", "deal_no", "kind", "choice", "best", "cost", "replay"),
            "player_costly_decisions", missing={"cost": "—"},
            column_config=REPLAY_COLUMN)


def _first_page() -> None:
    st.session_state.pop("player_deal_page", None)  # the box is drawn anew, on its first page


def _my_deals(f: Filters, wanted: str | None) -> None:
    """The player's deals, a page at a time, in the order chosen (``wanted``: the URL's)."""
    st.subheader("My deals")
    c1, c2 = st.columns([2, 1])
    if "player_deal_order" not in st.session_state:  # opened from a link: its order, if one
        unknown("order", wanted, set(DEAL_ORDERS), "one of the orders of the deals",
                showing=next(iter(DEAL_ORDERS)))
        if wanted in DEAL_ORDERS:
            st.session_state["player_deal_order"] = wanted
    order = c1.radio("Order", list(DEAL_ORDERS), horizontal=True, key="player_deal_order",
                     on_change=_first_page)  # another order starts on its first page
    keep_in_url("order", order, default=next(iter(DEAL_ORDERS)))
    first = query("player_deal_list", f, order, 1, 0)
    total = int(first["total"][0]) if first.height else 0
    pages = max(1, -(-total // PAGE_ROWS))
    page_no = int(c2.number_input(f"Page (of {pages})", 1, pages, 1, key="player_deal_page"))
    deals = query("player_deal_list", f, order, PAGE_ROWS, (page_no - 1) * PAGE_ROWS)
    money = "" if f.variant is None else f" Cash in {unit(f.variant)}."
    st.caption(f"{counted(total, 'deal')}; rows {(page_no - 1) * PAGE_ROWS + 1:,} to "
               f"{min(total, page_no * PAGE_ROWS):,}.{money} Click a column to sort this page; "
               "open a deal recorded with its cards in the replayer from its row.")
    for variant in sorted(set(deals["variant"].to_list()) & set(CASH_NOTES)):
        st.caption(f"{variant}: {CASH_NOTES[variant]}" if f.variant is None
                   else CASH_NOTES[variant])
    table = calls_in_words(deals).with_columns(
        replay_links(deals, f),
        per_row(deals, "unit", ("variant",), unit),
    ).select("replay", "started_at", "game", "deal_no", "variant", "role", "contract",
             "result", "declarer_tricks", "cash", "unit", "game_id")
    # the replay link first, as on Contracts: under "(all)" the table is wider than the page,
    # and a link at its end was off-screen (the caption says to open a deal from its row)
    if f.variant is not None:  # one variant: its unit is said above the table
        table = table.drop("variant", "unit")
    show(table, "player_deals", missing={"started_at": "undated", "result": "—"},
         labels={"game_id": "game id"}, numbers=("declarer_tricks",),
         column_config=REPLAY_COLUMN)


st.title("Player")
with guarded():
    deal_order = url_param("order")
    f = filters()
    if not f.player:
        people = query("players", f).head(50)
        if people.is_empty():
            empty(no_players(query("overview", f).row(0, named=True)["games"]), of_games=True)
            st.stop()
        empty("Choose a player in the sidebar (Player filter) to see his tendencies, or open one "
              "of the most active players below.")
        show(people.with_columns(per_row(people, "page", ("player",),
                                         lambda person: player_link(f, person))),
             "player_list",
             column_config={"page": st.column_config.LinkColumn("page",
                                                                display_text="open his page")})
        st.stop()
    me = query("player_summary", f).row(0, named=True)
    if me["deals"] == 0:
        empty(f"No settled deals for {md(f.player)} with these filters.")
        st.stop()
    field = query("field_summary", f).row(0, named=True)
    st.subheader(md(f.player))
    cols = st.columns(4)
    played = me["deals"] - me["sat_out"]  # as the standings count them
    sat_out = (f"; and {counted(me['sat_out'], 'deal')} sat out as the dealer, paid as the "
               "rules say (in his cash)" if me["sat_out"] else "")
    cols[0].metric("Deals played", number(played),
                   help=f"in {counted(me['games'], 'game')}{sat_out}")
    rate_metric(cols[1], "Declared", me["declared"], played,
                help="share of the deals he played in which he was the declarer; the field: "
                + format_rate(field["declared"], field["played"]))
    rate_metric(cols[2], "Made as declarer", me["made"], me["declared_counted"])
    rate_metric(cols[3], "Defence held", me["defence_held"], me["defended"])
    _money(f, me["sat_out"])

    st.subheader("Roles")
    st.caption("declarer: made; defenders (defender, play, invite, alone, whist ...): defence "
               "held (lost nothing on the deal); pass / sat out / no declarer / dummy: not a "
               "rate.")
    roles = rates(query("player_roles", f), "ok", "n")
    _by_variant(roles, "player_roles", ["role", "n", "rate (n, 95% CI)", "cash",
                                        "cash_per_deal"])

    st.subheader("As declarer, by contract")
    contracts = rates(calls_in_words(query("player_contracts", f)), "made", "n")
    if contracts.is_empty():
        empty(f"{md(f.player)} has not declared in these games.")
    else:
        _by_variant(contracts, "player_contracts", ["contract", "n", "made",
                                                    "rate (n, 95% CI)", "cash_per_deal"])
        data = contracts.filter(pl.col("n") > 0)
        st.vega_lite_chart(data.select("variant", "contract", "n", "made", "rate", "rate_low",
                                       "rate_high"), charts.made_by_contract(data.height),
                           width="stretch")

    st.subheader("By position")
    positions = query("player_positions", f)
    positions = positions.with_columns(per_row(
        positions, "seat", ("position", "sat_out"),
        lambda at, out: None if at is None else position_name(at) + (", sat out" if out else "")))
    positions = rates(positions, "declared", "deals")
    _by_variant(positions, "player_positions", ["seat", "deals", "declared",
                                                "rate (n, 95% CI)", "cash_per_deal", "cash"])

    st.subheader("Over time")
    months = query("player_over_time", f)
    if months.is_empty():
        empty(f"No dated games for {md(f.player)}: the time line needs games with a start time.")
    else:
        for variant in months["variant"].unique(maintain_order=True).to_list():
            part = months.filter(pl.col("variant") == variant)
            st.vega_lite_chart(
                part.select("month", "deals", "declared", "cash", "cumulative"),
                charts.cash_by_month(unit(variant), variant,
                                     (part["month"].min(), part["month"].max())),
                width="stretch")
    undated = query("undated_cash", f).filter(pl.col("player") == f.player)
    if not undated.is_empty():
        st.caption("Not on the time line (counted in the cash above): " + ", ".join(
            f"{counted(r['games'], 'undated ' + md(r['variant']) + ' game')}, "
            f"{cash(r['cash'], r['variant'])}" for r in undated.iter_rows(named=True)) + ".")
    _review(f)
    _my_deals(f, deal_order)
