"""Matchpoints, Neuberg, IMPs (Law 78 [bk], scoring/bridge/event.py) and event_results on data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import store
from ingest.lin import READER as LIN
from ingest.pbn import READER as PBN
from model.bridge.frame import deal_row as bridge_row
from model.bridge.frame import deals_frame
from model.bridge.score import duplicate_score_ns
from scoring.bridge import DUPLICATE
from scoring.bridge.event import (
    EVENT_RESULTS,
    cross_imps,
    event_results,
    imps,
    matchpoints,
    neuberg,
    refresh,
)
from tests.conftest import DATA
from tests.ingest.bridge_ingest import ingest
from tests.scoring.bridge.frames import deal_row, games_frame
from tests.scoring.bridge.frames import deals_frame as make_deals

EP = DATA / "endplay-fixtures"


@pytest.mark.parametrize(("diff", "imp"), [(0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (420, 9),
                                           (430, 10), (620, 12), (1430, 16), (4000, 24),
                                           (-470, -10)])
def test_imp_scale(diff: int, imp: int) -> None:
    assert imps(diff) == imp


def test_matchpoints_with_ties() -> None:
    # 2 per result beaten, 1 per tie: top 2(n-1).
    assert matchpoints([420, 420, 170, -50]) == [5.0, 5.0, 2.0, 0.0]


def test_neuberg() -> None:
    # A top on a board played 3 times in an event of 4 tables: (4 + 1) * 4 / 3 - 1 = 17/3, a
    # little below the new top of 6 (the 1/0.5 scale's (2 + 0.5) * 4/3 - 0.5 = 17/6, doubled).
    assert neuberg(4.0, 3, 4) == pytest.approx(17 / 3)
    assert neuberg(2.0, 3, 4) == pytest.approx(3.0)  # an average stays an average
    assert neuberg(0.0, 1, 4) == pytest.approx(3.0)  # a board played once: half the top


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=12), st.integers(0, 12))
def test_neuberg_keeps_a_boards_average_at_half_the_top(scores: list[int], more: int) -> None:
    """Whatever the results, a board's adjusted matchpoints average half the event's top."""
    tables = len(scores) + more
    adjusted = [neuberg(m, len(scores), tables) for m in matchpoints(scores)]
    assert sum(adjusted) == pytest.approx(len(scores) * (tables - 1))


def test_cross_imps() -> None:
    got = cross_imps([420, 170, -50])
    assert got == pytest.approx([(imps(250) + imps(470)) / 2, (imps(-250) + imps(220)) / 2,
                                 (imps(-470) + imps(-220)) / 2])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-1400, -200, -50, 0, 90, 110, 140, 170, 420, 430, 450, 990,
                                 1430, 2220]), max_size=40))
def test_matchpoints_and_cross_imps_are_the_pairwise_comparisons(scores: list[int]) -> None:
    """Law 78A/B [bk], written pairwise: each result against every other one."""
    assert matchpoints(scores) == [
        float(sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1) for s in scores]
    assert cross_imps(scores) == pytest.approx(
        [sum(imps(s - o) for j, o in enumerate(scores) if j != i) / (len(scores) - 1)
         for i, s in enumerate(scores)] if len(scores) > 1 else [0.0] * len(scores))


def test_event_results_pairs_and_neuberg() -> None:
    # Board 1 at 4 tables, board 2 at 3: board 2 is Neuberg-adjusted to the 4-table top of 6.
    games = games_frame([("e", "bridge-duplicate", {})])
    rows = [deal_row("e", 1, (4, 3, 0), 0, 10, board=1, event="club", vul_ns=False,
                     vul_ew=False),
            deal_row("e", 2, (4, 3, 0), 0, 9, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 3, (2, 3, 0), 0, 9, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 4, None, None, None, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 5, (3, 4, 0), 1, 9, board=2, event="club", vul_ns=True, vul_ew=False),
            deal_row("e", 6, (3, 4, 0), 1, 8, board=2, event="club", vul_ns=True, vul_ew=False),
            deal_row("e", 7, (1, 4, 0), 1, 8, board=2, event="club", vul_ns=True, vul_ew=False)]
    deals = make_deals(rows)
    out = event_results(deals, DUPLICATE.settle(games, deals).settlements).sort("deal_no")
    assert out["score_ns"].to_list() == [420, -50, 140, 0, -400, 50, -120]
    assert out["mp_ns"].to_list()[:4] == [6.0, 0.0, 4.0, 2.0]
    # board 2: raw 0, 4, 2 on a top of 4 -> Neuberg (mp + 1) * 4 / 3 - 1
    assert out["mp_ns"].to_list()[4:] == pytest.approx([1 / 3, 17 / 3, 3.0])
    assert (out["mp_ns"] + out["mp_ew"]).to_list() == [6.0] * 7
    assert out["team_imp_ns"].null_count() == 7


def test_team_match_imps_from_vugraph() -> None:
    # 00001.lin: 2005 Dutch Teams final, both rooms of 16 boards (data/README.md).
    got = ingest(LIN, DATA / "bbo-vugraph-lin" / "00001.lin")
    assert not got.issues
    frame = deals_frame(bridge_row(g, d) for g, d, _ in got.deals)
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant, "players": list(g.players),
                           "rules": "{}"} for g in got.games.values()])
    res = event_results(frame, DUPLICATE.settle(games, frame).settlements)
    assert res.height == 32 and (res["tables"] == 2).all()
    by_board = res.group_by("board").agg(pl.col("team_imp_ns").sum(), pl.len())
    assert (by_board["team_imp_ns"] == 0).all() and (by_board["len"] == 2).all()
    # Board 1: open 2S by E down 2 (NS +100), closed 3C by N down 2 (NS -100), none vulnerable.
    b1 = res.filter(pl.col("board") == 1).sort("room")
    assert b1["score_ns"].to_list() == [-100, 100]
    assert b1["team_imp_ns"].to_list() == [-5, 5]
    assert duplicate_score_ns(None, None, None, "None") == 0


def _file_results(path: Path) -> pl.DataFrame:
    """The event results of a PBN or LIN file, read and settled."""
    return _results(PBN if path.suffix.lower() == ".pbn" else LIN, path)


def _results(reader: Any, path: Path) -> pl.DataFrame:
    got = ingest(reader, path)
    frame = deals_frame(bridge_row(g, d) for g, d, _ in got.deals)
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant, "players": list(g.players),
                           "rules": "{}"} for g in got.games.values()])
    return event_results(frame, DUPLICATE.settle(games, frame).settlements)


def test_pbn_teams_rooms_share_their_match() -> None:
    """endplay-fixtures/pbn/example2.pbn (data/README.md: a 2021 RealBridge teams qualifier,
    ``[Competition "Teams"]``): the file names each room's N-S team its ``HomeTeam``, so the
    two rooms of a match give their teams in either order (AUSTRIA v DENMARK at table 11,
    DENMARK v AUSTRIA at table 7). Both rooms are one match, and each board compares them in
    IMPs (Law 78B [bk], bridge.md 6 per board, docs/bridge.md) as the file's ``ScoreIMP`` does."""
    res = _file_results(EP / "pbn" / "example2.pbn")
    teams = res.filter(pl.col("team_imp_ns").is_not_null())
    pairs = teams.group_by("board", "match").agg(pl.col("team_imp_ns"), pl.len())
    assert (pairs["len"] == 2).all() and pairs.height >= 130
    # equal and opposite in the two rooms
    assert all(a == -b for a, b in pairs["team_imp_ns"].to_list())
    # Board 11, none vulnerable: AUSTRIA N-S at table 11 passed it out (NS 0); DENMARK N-S at
    # table 7 went two down in 3NT (NS -150). AUSTRIA gains 150: 130-160 is 4 IMPs on the scale.
    b11 = res.filter((pl.col("board") == 11) & pl.col("room").is_in(["11", "7"])
                     & pl.col("match").str.contains("AUSTRIA")).sort("room")
    assert b11["match"].n_unique() == 1
    assert b11["score_ns"].to_list() == [0, -150]
    assert b11["team_imp_ns"].to_list() == [4, -4]
    assert imps(0 - -150) == 4


def test_pbn_team_imps_agree_with_the_files_score_imp() -> None:
    """example2.pbn states each room's IMPs (``ScoreIMP "NS 4 EW -4"``): every board played in
    both rooms of its match has the same team IMPs here (Law 78B [bk])."""
    text = (EP / "pbn" / "example2.pbn").read_text(encoding="utf-8")
    stated = {(int(b), t): int(n) for b, t, n in re.findall(
        r'\[Board "(\d+)"\](?:(?!\n\n).)*?\[Table "(\d+)"\](?:(?!\n\n).)*?\[ScoreIMP "NS (-?\d+)',
        text, re.S)}
    res = _file_results(EP / "pbn" / "example2.pbn").filter(pl.col("team_imp_ns").is_not_null())
    got = {(b, r): t for b, r, t in res.select("board", "room", "team_imp_ns").iter_rows()}
    assert len(got) >= 260
    assert {k: v for k, v in got.items() if stated.get(k) != v} == {}


def test_pbn_pairs_event_has_no_team_imps(tmp_path: Path) -> None:
    """A pairs event has no match (bridge.md 6, docs/bridge.md): board 11 of example2.pbn at
    two tables, its team tags left out and ``[Competition "Pairs"]``, has matchpoints and
    cross-IMPs but no team IMPs."""
    games = (EP / "pbn" / "example2.pbn").read_text(encoding="utf-8").split("\n\n")[:2]
    text = "\n\n".join(re.sub(r'\[(HomeTeam|VisitTeam|ScoreIMP) "[^"]*"\]\n', "", g)
                       .replace('"Teams"', '"Pairs"').replace('"IMP"', '"MP"') for g in games)
    (tmp_path / "pairs.pbn").write_text(text, encoding="utf-8")
    res = _file_results(tmp_path / "pairs.pbn")
    assert res.height == 2 and res["match"].null_count() == 2
    assert res["team_imp_ns"].null_count() == 2
    assert res["mp_ns"].to_list() == [0.0, 2.0] and res["cross_imp_ns"].to_list() == [-3.0, 3.0]


def test_lin_pairs_event_has_no_match() -> None:
    """bbo-vugraph-lin/40000.lin (data/README.md: 2015 European Open pairs final), ``vg``
    scoring ``P`` with placeholder teams ``Team 1`` and ``Team 2``: a pairs event has no match,
    so no board gets team IMPs (Law 78B compares the rooms of a match)."""
    got = ingest(LIN, DATA / "bbo-vugraph-lin" / "40000.lin")
    frame = deals_frame(bridge_row(g, d) for g, d, _ in got.deals)
    assert frame.height == 10 and frame["match"].null_count() == 10


TEAM_FILES = [EP / "pbn" / "example1.pbn", EP / "pbn" / "example2.pbn",
              *(DATA / "pbn-tournaments-slovesnov").glob("*"),
              *(DATA / "bbo-vugraph-lin" / f for f in ("00001.lin", "08000.lin", "36117.lin"))]


@pytest.mark.parametrize("path", TEAM_FILES, ids=lambda p: p.name)
def test_a_match_s_two_rooms_seat_its_teams_the_other_way_round(path: Path) -> None:
    """Each board of a teams match is played by each team once N-S and once E-W (Law 78B [bk]:
    a team's score at one table against its teammates' at the other), whichever way its file
    seats the home team (``ingest.pbn.TeamSeats``: ``Room`` tags in example1.pbn and the
    slovesnov files, each table's N-S team home in example2.pbn; ``vg``'s first team N-S in a
    LIN file's open room): the rows carry the teams, and a board's two rooms give a team the
    same IMPs."""
    res = _file_results(path)
    rooms = res.filter(pl.col("team_imp_ns").is_not_null()).sort("room").group_by(
        "match", "board").agg("ns_team", "ew_team", "team_imp_ns")
    assert rooms.height >= 1
    for ns, ew, imp in rooms.select("ns_team", "ew_team", "team_imp_ns").iter_rows():
        assert ns == ew[::-1] and ns[0] != ew[0] and imp[0] == -imp[1]


def test_refresh_makes_an_older_event_results_again() -> None:
    """``event_results`` is worked out anew by each ``refresh``: a table an older trickbook made
    (no ``ns_team`` / ``ew_team``) is made again from its declaration, not appended to (which
    failed: "does not have a column with name ns_team")."""
    conn = duckdb.connect()
    store.create_tables(conn)
    conn.execute("CREATE TABLE event_results (event VARCHAR, board INTEGER)")
    assert refresh(conn) == 0
    columns = [c for (c,) in conn.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'event_results'").fetchall()]
    assert columns == list(EVENT_RESULTS.columns)
