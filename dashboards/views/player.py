"""Player: one player's tendencies against the field (the sidebar's player filter).

Deals played, how often he declares and at what contracts, success as declarer by contract, how
often he plays, passes or invites as a defender and how often his defence holds, cash per deal and
per game, by position at the table and over time. Definitions: ``dashboards/queries.py``.
"""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboards.common import (
    empty,
    filters,
    guarded,
    position_name,
    query,
    rate_metric,
    rates,
)
from dashboards.stats import format_rate

st.title("Player")
with guarded():
    f = filters()
    if not f.player:
        empty("Choose a player in the sidebar (Player filter) to see his tendencies; the most "
              "active players are listed below.")
        st.dataframe(query("players", f).head(50), hide_index=True, key="player_list")
        st.stop()
    me = query("player_summary", f).row(0, named=True)
    if me["deals"] == 0:
        empty(f"No settled deals for {f.player!r} with these filters.")
        st.stop()
    field = query("field_summary", f).row(0, named=True)
    st.subheader(f"{f.player}")
    cols = st.columns(4)
    cols[0].metric("Deals at the table", f"{me['deals']:,}", help=f"in {me['games']} games")
    rate_metric(cols[1], "Declared", me["declared"], me["deals"],
                help="share of his deals in which he was the declarer; the field: "
                + format_rate(field["declared"], field["deals"]))
    rate_metric(cols[2], "Made as declarer", me["made"], me["declared_counted"])
    rate_metric(cols[3], "Defence held", me["defence_held"], me["defended"])
    money = st.columns(3)
    money[0].metric("Cash", f"{me['cash']:+.1f}")
    money[1].metric("Cash per deal", f"{me['cash_per_deal']:+.2f}",
                   delta=f"{me['cash_per_deal'] - (field['cash_per_deal'] or 0):+.2f} vs field")
    money[2].metric("Cash per game", f"{me['cash_per_game']:+.2f}")

    st.subheader("Roles")
    st.caption("declarer: made; defenders (play, invite, alone, whist ...): defence held (lost "
               "nothing on the deal); pass / sat out / no declarer: not a rate.")
    roles = rates(query("player_roles", f), "ok", "n")
    st.dataframe(roles.select("role", "n", "rate (n, 95% CI)", "cash", "cash_per_deal"),
                 hide_index=True, key="player_roles")

    st.subheader("As declarer, by contract")
    contracts = rates(query("player_contracts", f), "made", "n")
    if contracts.is_empty():
        empty(f"{f.player} has not declared in these games.")
    else:
        st.dataframe(contracts.select("variant", "contract", "n", "made", "rate (n, 95% CI)",
                                      "cash_per_deal"), hide_index=True, key="player_contracts")
        data = contracts.filter(pl.col("n") > 0).to_pandas()
        base = alt.Chart(data).encode(x=alt.X("contract:N", sort=None))
        chart = (base.mark_bar().encode(y=alt.Y("rate:Q", title="made", scale=alt.Scale(
                     domain=[0, 1])), tooltip=["variant", "contract", "n", "made", "rate"])
                 + base.mark_rule().encode(y="rate_low:Q", y2="rate_high:Q"))
        st.altair_chart(chart.properties(height=260), width="stretch")

    st.subheader("By position")
    positions = query("player_positions", f).with_columns(
        pl.col("position").map_elements(position_name, return_dtype=pl.String).alias("seat"))
    positions = rates(positions, "declared", "deals")
    st.dataframe(positions.select("seat", "deals", "declared", "rate (n, 95% CI)",
                                  "cash_per_deal", "cash"), hide_index=True,
                 key="player_positions")

    st.subheader("Over time")
    months = query("player_over_time", f)
    if months.is_empty():
        empty(f"No dated games for {f.player}: the time line needs games with started_at.")
    else:
        st.altair_chart(
            alt.Chart(months.to_pandas()).mark_line(point=True).encode(
                x=alt.X("month:T"), y=alt.Y("cumulative:Q", title="cumulative cash"),
                tooltip=["month:T", "deals", "declared", "cash", "cumulative"],
            ).properties(height=240),
            width="stretch",
        )
