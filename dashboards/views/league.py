"""League: standings per league, season and game; cash over time; the score sheet of a game.

Standings and cash come from ``standings`` (records.md 2); the sheet is drawn by
:mod:`dashboards.sheets` in the form the game's players use (Greek kassa and chips columns ...).
"""

from __future__ import annotations

import altair as alt
import streamlit as st

from dashboards.common import empty, filters, guarded, query
from dashboards.sheets import score_sheet

st.title("League")
with guarded():
    f = filters()
    totals = query("overview", f).row(0, named=True)
    cols = st.columns(4)
    cols[0].metric("Games", f"{totals['games']:,}")
    cols[1].metric("Deals", f"{totals['deals']:,}")
    cols[2].metric("Deals with cards", f"{totals['deals_with_cards']:,}")
    cols[3].metric("Players", f"{totals['players']:,}")
    if totals["games"] == 0:
        empty("No games match these filters: widen the date range or choose another league or "
              "variant, or add files on the Upload page.")
        st.stop()

    st.subheader("Standings")
    st.caption("Per league, season (year the game started) and variant; cash is in each "
               "variant's settlement unit (Greek chips, Swabian units, Balkan soup points ...).")
    standings = query("league_standings", f)
    st.dataframe(standings, hide_index=True, key="league_standings",
                 column_config={"cash": st.column_config.NumberColumn(format="%.1f"),
                                "cash_per_game": st.column_config.NumberColumn(format="%.2f")})

    st.subheader("Cash over time")
    series = query("cash_over_time", f)
    if series.is_empty():
        empty("No dated games for these filters: cash over time needs games with started_at.")
    else:
        chart = (
            alt.Chart(series.to_pandas())
            .mark_line(point=True)
            .encode(x=alt.X("day:T", title="day"),
                    y=alt.Y("cumulative_cash:Q", title="cumulative cash"),
                    color=alt.Color("player:N"),
                    tooltip=["player", "day:T", "cash", "cumulative_cash"])
            .properties(height=320)
        )
        st.altair_chart(chart, width="stretch")

    st.subheader("Score sheet")
    games = query("games", f)
    ids = games["game_id"].to_list()
    labels = {
        r["game_id"]: f"{r['game_id']} · {r['variant']} · {r['deals']} deals"
        for r in games.iter_rows(named=True)
    }
    game_id = st.selectbox("Game", ids, key="league_game", format_func=lambda g: labels.get(g, g))
    if game_id is None:
        empty("No game to draw.")
        st.stop()
    info = query("game_info", game_id)
    if info.is_empty():
        empty(f"The game {game_id!r} is no longer in the database.")
        st.stop()
    game = info.row(0, named=True)
    players = list(game["players"])
    st.caption(f"{game['variant']} · {', '.join(players)} (turn order) · "
               f"started {game['started_at'] or 'unknown'}")
    with st.expander("Rules of this game"):
        st.code(game["rules"], language="json")
    rows = query("game_sheet", game_id)
    if rows.is_empty():
        empty("This game has no settled deals yet: its score sheet is empty.")
    else:
        sheet = score_sheet(rows, game["variant"], players)
        st.dataframe(sheet, hide_index=True, key="league_sheet")
    st.dataframe(query("game_standings", game_id), hide_index=True, key="league_game_standings")
