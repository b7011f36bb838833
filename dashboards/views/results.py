"""Club results (duplicate bridge): per event and session, the pairs ranked by matchpoint
percentage (pair events) or IMPs (team events: a session with team IMPs, each pair with its
match and team; above them the teams ranked by net IMPs, with their pairs), from
``event_results`` (matchpoints Law 78A, IMPs Law 78B, ``scoring/bridge/event.py``), with the
event's name and date from the file; a pair's card of boards, each board linking to the
replayer.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards.common import (
    REPLAY_COLUMN,
    WIDEN,
    empty,
    filters,
    guarded,
    keep_in_url,
    query,
    replay_links,
    show,
    unknown,
    url_choice,
    url_param,
)
from dashboards.queries import RANKINGS
from dashboards.replay import calls_in_words
from dashboards.text import md

BY_WORDS = {"percent": "matchpoint %", "imps": "IMPs"}
TEAMS = ("a teams event: a pair's IMPs are its team's, each board of its match against the "
         "other room (Law 78B)")
NO_EVENT = ("A duplicate game typed on the Entry page, or simulated, is part of no event: its "
            "table scores are on the League page.")

# The comparisons of a board: a pairs event has no team IMPs, a teams event may lack
# matchpoints; a scale no pair of the session has is not shown.
SCALES = ("percent", "cross_imps", "cross_imps_per_board", "imps")


TEAMS_RANKED = ("ranked by net IMPs, as a teams match is scored: each board of a match "
                "counted once, the team's score at one table against its teammates' at the "
                "other (Law 78B); teams equal in net IMPs share a rank. The rules give no "
                "victory-point scale, so no match is turned into VPs; \"Rank pairs by\" ranks the "
                "pairs below")


def show_teams(teamed: pl.DataFrame) -> None:
    """A teams session's teams (``queries.team_rankings``), ranked by net IMPs whatever the
    pairs are ranked by (bridge.md defines no victory points)."""
    st.subheader("Teams")
    st.caption(f"{teamed.height} teams {TEAMS_RANKED}")
    show(teamed.drop("event", "day"), "results_teams",
         missing={"imps_for": "—", "imps_against": "—", "net": "—"},
         labels={"opponents": "against", "boards": "boards compared", "imps_for": "IMPs won",
                 "imps_against": "IMPs lost", "net": "net IMPs", "pairs": "its pairs"})
    st.subheader("Pairs")


def seated_alike(alike: pl.DataFrame) -> None:
    """The matches of the session whose two rooms seat the same team N-S
    (``queries.seated_alike``): said, as the Teams table leaves them out."""
    if alike.is_empty():
        return
    named = "; ".join(f"{md(r['match'])} ({r['boards']} boards: {md(r['ns_teams'])} N-S "
                      "in both rooms)" for r in alike.iter_rows(named=True))
    st.warning(f"Not in the Teams table: {named}. In a match each team sits N-S in one room "
               "and E-W in the other, so these seats were read wrong and which team won a "
               "board is not known (the pairs' IMPs below are still each table's against the "
               "other, their teams not known). The open and closed rooms read from two PBN "
               "files without a Room tag each seat the home team N-S: give each game its "
               "Room, or read the two rooms from one file.")


def unscored(ranked: pl.DataFrame) -> list[str]:
    """The scales of :data:`SCALES` that are null for every pair of ``ranked``."""
    return [c for c in SCALES if c in ranked.columns and ranked[c].null_count() == ranked.height]


st.title("Club results")
with guarded():
    wanted_event, wanted_pair, wanted_by = url_param("event"), url_param("pair"), url_param("by")
    f = filters()
    everything = query("event_rankings", f)
    if everything.is_empty():
        ingest = ("ingest PBN files, LIN files or travellers of a pairs or teams event "
                  "(bridge-duplicate)")
        empty("No duplicate bridge results for these filters: "
              + (f"{WIDEN}, or {ingest}." if f.to_params() else f"{ingest}.")
              + f" {NO_EVENT}", of_games=True)
        st.stop()
    sessions = everything.select("event", "day").unique(maintain_order=True)
    labels = [" · ".join(str(v) for v in (r["event"], r["day"]) if v is not None)
              for r in sessions.iter_rows(named=True)]
    if "results_event" not in st.session_state:  # opened from a link: its event, if here
        unknown("event", wanted_event, set(labels), "among the events these filters choose",
                showing=md(labels[0]))
        if wanted_event in labels:
            st.session_state["results_event"] = labels.index(wanted_event)
    c1, c2 = st.columns([3, 1])
    picked = c1.selectbox("Event and session", range(len(labels)), key="results_event",
                          format_func=lambda i: labels[i])
    keep_in_url("event", labels[int(picked or 0)], default=labels[0])
    event, day = sessions.row(int(picked or 0))
    teams = everything.filter((pl.col("event") == event) & pl.col("imps").is_not_null()).height
    opens_on = list(RANKINGS)[1 if teams else 0]  # each session on its own kind of event
    # A pairs session has no team IMPs: ranked "by IMPs", its pairs go by their cross-IMPs.
    words = BY_WORDS if teams else {**BY_WORDS, "imps": "cross-IMPs per board"}
    if f"results_by_{picked}" not in st.session_state:  # the link's ranking, if one
        unknown("ranking", wanted_by, set(RANKINGS), "one of the rankings",
                showing=md(words[opens_on]))
        if wanted_by in RANKINGS:
            st.session_state[f"results_by_{picked}"] = wanted_by
    by = c2.radio("Rank pairs by", list(RANKINGS), index=list(RANKINGS).index(opens_on),
                  key=f"results_by_{picked}", format_func=words.get, horizontal=True)
    keep_in_url("by", by, default=opens_on)
    ranked = query("event_rankings", f, by).filter(
        (pl.col("event") == event) & (pl.col("day").eq_missing(day)))
    st.subheader(md(event))
    if not (ranked["top"] > 0).any():
        empty("Every board of this session was played at one table only: there is no other "
              "result to compare it with, so the ranking below means nothing yet.")
    teamed = query("team_rankings", f).filter(
        (pl.col("event") == event) & (pl.col("day").eq_missing(day))) if teams else None
    if teams:
        alike = query("seated_alike", f).filter(
            (pl.col("event") == event) & (pl.col("day").eq_missing(day)))
        seated_alike(alike)
        ranked = ranked.with_columns(  # its seats read wrong: which team a pair is, unknown
            team=pl.when(pl.col("match").is_in(alike["match"].to_list())).then(None)
            .otherwise(pl.col("team")))
    if teamed is not None and not teamed.is_empty():
        show_teams(teamed)
    st.caption(" · ".join([*([str(day)] if day is not None else []), f"{ranked.height} pairs",
                           f"ranked by {words[by]}; a pair without a number is its two "
                           "players (N-S first), a Mitchell's pairs are named and ranked by "
                           "direction", *([TEAMS] if teams else [])]))
    nameless = ["team"] if ranked["team"].null_count() == ranked.height else []  # travellers
    hidden = [*unscored(ranked), *(nameless if teams else ["match", "team"])]  # a pairs session
    show(ranked.drop("event", "day", *hidden), "results_ranking",
         missing={"percent": "—", "cross_imps": "—", "cross_imps_per_board": "—", "imps": "—",
                  "team": "—"},
         labels={"match": "match (teams)", "team": "team", "top": "of a top of", "percent": "%",
                 "cross_imps": "cross-IMPs",
                 "cross_imps_per_board": "cross-IMPs per board", "imps": "IMPs"})

    st.subheader("A pair's card")
    pair = url_choice("Pair", ranked["pair"].to_list(), "results_pair", wanted_pair, "pair",
                      named=("pair", "in this event's ranking"))
    if pair is not None:
        card = calls_in_words(query("pair_card", f, event, pair))  # 5DX -> 5♦X
        card = card.with_columns(  # only a deal recorded with its cards can be replayed
            replay_links(card, f),
        ).drop("game_id", "deal_no", "has_cards", "variant", *hidden, strict=False)
        if not card["replay"].str.len_chars().gt(0).any():
            card = card.drop("replay")
            st.caption("These boards were recorded without their cards (a traveller): there "
                       "is nothing to replay.")
        show(card, "results_card",
             missing={"contract": "passed out", "declarer": "—", "percent": "—",
                      "cross_imps": "—", "imps": "—"},
             labels={"score": "score (the pair's side)", "top": "of a top of", "percent": "%",
                     "cross_imps": "cross-IMPs", "imps": "IMPs"},
             column_config=REPLAY_COLUMN)
