"""Query functions against the hand-built fixture (tests/dashboards/fixture_db.py), no Streamlit.

Expected numbers are the hand settlements of the fixture's docstring (greek-prefa.md 9.1-9.3 with
values from 5.1 and quotas from 6.2), not values read back from the queries."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboards import queries as q
from dashboards.db import read_only
from dashboards.filters import Filters
from ingest import players
from model.variants import variant
from tests.dashboards import fixture_db as fx
from tests.dashboards.conftest import table_counts

HOSTILE = [
    "'; DROP TABLE deals; --",
    "Anna' OR '1'='1",
    'Boris"; DELETE FROM games; --',
    "%",
    "_",
    "\\",
    "ÿ\u202e; --",
]


@pytest.fixture
def con(fixture_path: Path):
    with read_only(fixture_path) as c:
        yield c


@pytest.fixture
def demo_con(demo_path: Path):
    with read_only(demo_path) as c:
        yield c


def test_overview_counts(con) -> None:
    row = q.overview(con, Filters()).row(0, named=True)
    assert row == {"games": 4, "deals": 9, "deals_with_cards": 3, "players": 9}


def test_overview_league_and_dates(con) -> None:
    row = q.overview(con, Filters(league=fx.LEAGUE7)).row(0, named=True)
    assert (row["games"], row["deals"], row["players"]) == (2, 7, 4)
    december = q.overview(con, Filters(date_from=date(2026, 12, 1), date_to=date(2026, 12, 31)))
    assert december["games"][0] == 1 and december["deals"][0] == 3


def test_standings_sum_hand_settlements(con) -> None:
    # greek-prefa.md 9.1-9.3: Anna +4 +0 +16 in game 1, -20 +0 +18 in game 2 -> 18 over the league
    st = q.league_standings(con, Filters(league=fx.LEAGUE7))
    cash = dict(zip(st["player"], st["cash"], strict=True))
    assert cash == {"Anna": 18.0, "Boris": 16.0, "Chris": -25.0, "Dora": -9.0}
    assert st["cash"].sum() == 0  # zero-sum (records.md 2)
    assert dict(zip(st["player"], st["games"], strict=True))["Dora"] == 1


def test_cash_over_time_is_cumulative(con) -> None:
    series = q.cash_over_time(con, Filters(player="Boris"))
    boris = series.filter(pl.col("player") == "Boris")
    assert boris["cash"].to_list() == [-8.0, -20.0, 36.0]
    assert boris["cumulative_cash"].to_list() == [-8.0, -28.0, 8.0]


def test_cash_over_time_top_limits_players(con) -> None:
    series = q.cash_over_time(con, Filters(), top=2)
    per_variant = series.group_by("variant").agg(pl.col("player").n_unique())
    assert dict(per_variant.iter_rows()) == {"greek-prefa": 2, "swabian": 2}


def test_people_not_names_and_money_never_mixes_units(demo_path: Path, tmp_path: Path) -> None:
    """Anna plays Greek Prefa and bridge in the samples (data/samples/league.jsonl,
    bridge/rubber-session.jsonl): two people until a user merges them (ingest/players.py); then
    one person whose cash is one series and one row per variant, each in its own unit."""
    copy = tmp_path / "demo.duckdb"
    shutil.copy(demo_path, copy)
    con = duckdb.connect(str(copy))
    try:
        labels = q.players(con, Filters())["player"].to_list()
        assert {"Anna (greek-prefa)", "Anna (bridge-rubber)"} <= set(labels)
        greek = q.player_cash(con, Filters(player="Anna (greek-prefa)"))
        assert greek["variant"].to_list() == ["greek-prefa"]
        players.register(con)
        assert players.merge(con, "greek-prefa:Anna", "bridge-rubber:Anna") == 1
        labels = q.players(con, Filters())["player"].to_list()
        assert "Anna" in labels and "Anna (bridge-rubber)" not in labels
        merged = Filters(player="Anna")
        series = q.cash_over_time(con, merged, top=1000).filter(pl.col("player") == "Anna")
        assert set(series["variant"]) == {"greek-prefa", "bridge-rubber"}
        for _, part in series.group_by("variant"):
            assert part["cumulative_cash"].to_list() == part["cash"].cum_sum().to_list()
        money = dict(q.player_cash(con, merged).select("variant", "cash").iter_rows())
        raw = dict(con.execute(
            "SELECT variant, sum(cash) FROM settlements WHERE player = 'Anna' "
            "AND variant IN ('greek-prefa', 'bridge-rubber') GROUP BY variant").fetchall())
        assert money == raw  # one row per unit, never summed across them
        standings = q.league_standings(con, merged).filter(pl.col("player") == "Anna")
        assert set(standings["variant"]) == {"greek-prefa", "bridge-rubber"}
    finally:
        con.close()


def test_a_database_without_the_people_tables_reads_each_name_as_a_person(
        fixture_path: Path, tmp_path: Path) -> None:
    """A database made before ``players`` existed: every name is a person of its own."""
    copy = tmp_path / "old.duckdb"
    shutil.copy(fixture_path, copy)
    con = duckdb.connect(str(copy))
    con.execute("DROP TABLE IF EXISTS players; DROP TABLE IF EXISTS player_names")
    con.close()
    with read_only(copy) as old, read_only(fixture_path) as new:
        assert q.players(old, Filters()).equals(q.players(new, Filters()))
        assert q.player_summary(old, Filters(player="Boris")).row(0, named=True)["deals"] > 0


def test_undated_games_reconcile_the_time_line(demo_con) -> None:
    """The standings count undated games; the time line cannot place them: the two parts add up
    to the standings (issue 17: a headline of +19 and a chart ending at -1)."""
    f = Filters(variant="greek-prefa")
    standings = q.league_standings(demo_con, f).group_by("player").agg(pl.col("cash").sum())
    dated = q.cash_over_time(demo_con, f, top=1000).group_by("player").agg(
        pl.col("cash").sum())
    undated = q.undated_cash(demo_con, f).select("player", "cash")
    assert undated.height > 0  # the sample score sheets carry no date
    both = pl.concat([dated, undated]).group_by("player").agg(pl.col("cash").sum())
    assert dict(both.sort("player").iter_rows()) == dict(standings.sort("player").iter_rows())


def test_games_and_sheet(con) -> None:
    games = q.games(con, Filters(league=fx.LEAGUE7))
    assert games["game_id"].to_list() == [fx.G2, fx.G1]  # newest first
    assert games["deals"].to_list() == [3, 4]
    sheet = q.game_sheet(con, fx.G2)
    assert sheet.height == 12  # 3 deals x 4 players, the dealer sits out but is settled
    assert sheet.group_by("deal_no").agg(pl.col("cash").sum())["cash"].to_list() == [0, 0, 0]


def test_player_summary_boris(con) -> None:
    s = q.player_summary(con, Filters(player="Boris")).row(0, named=True)
    # 4 + 3 deals in club-7, 1 in club-9; declared 8D (down) and 6S (made)
    assert (s["deals"], s["games"], s["declared"], s["made"]) == (8, 3, 2, 1)
    assert s["sat_out"] == 1  # G2, the dealer of four (greek-prefa.md 14 four_players)
    # defended: play (G1#1), play (G2#1), invite (G2#2); passes and the sit-out are not defence
    assert (s["defended"], s["defence_held"]) == (3, 3)
    assert s["cash"] == 8.0  # -20 (G1) + 36 (G2) - 8 (G3)


def test_player_roles_and_positions(con) -> None:
    roles = q.player_roles(con, Filters(player="Boris"))
    by_role = {r["role"]: (r["n"], r["ok"]) for r in roles.iter_rows(named=True)}
    assert by_role == {"declarer": (2, 1), "play": (2, 2), "invite": (1, 1),
                       "pass": (1, None), "no declarer": (1, None), "sat out": (1, None)}
    pos = q.player_positions(con, Filters(player="Boris"))
    # G1 (seat 1): dealers Anna, Boris, Chris, Anna -> positions 1, 0, 2, 1; G2 (seat 1): dealers
    # Dora, Anna, Boris -> 2, 1, 0; G3 (seat 2, dealer Eva) -> 2. The dealer of four sits out
    # (G2#3): a row of its own, where he could not declare (it was "dealer: 2 deals")
    assert pos.select("position", "sat_out", "deals", "declared").rows() == [
        (0, False, 1, 0), (0, True, 1, None), (1, False, 3, 0), (2, False, 3, 2)]


def test_player_contracts(con) -> None:
    rows = q.player_contracts(con, Filters(player="Boris")).rows()
    assert [(v, c, n, m) for v, c, n, m, _ in rows] == [
        ("greek-prefa", "6S", 1, 1), ("greek-prefa", "8D", 1, 0)]


def test_player_over_time(con) -> None:
    months = q.player_over_time(con, Filters(player="Boris"))
    assert months["month"].to_list() == [date(2025, 5, 1), date(2026, 11, 1), date(2026, 12, 1)]
    assert months["cumulative"].to_list() == [-8.0, -28.0, 8.0]


def test_contract_rates_made_definition(con) -> None:
    rates = q.contract_rates(con, Filters())
    cells = {(r["variant"], r["contract"], r["mode"]): (r["n"], r["made"])
             for r in rates.iter_rows(named=True)}
    assert cells[("greek-prefa", "6S", "both")] == (2, 2)
    assert cells[("greek-prefa", "8D", "both")] == (1, 0)  # 7 of 8 tricks
    assert cells[("greek-prefa", "7H", "pass")] == (1, 1)  # both passed: 9.1, no play
    assert cells[("greek-prefa", "7C", "invite")] == (1, 1)
    assert cells[("swabian", "2", "play")] == (1, 0)  # Leaves needs 7 (swabian.md 3.1)
    # bid order (greek-prefa.md 4.1): 6S < 6H < 6NT < 7C
    greek = rates.filter(pl.col("variant") == "greek-prefa")["contract"].to_list()
    assert greek[:3] == ["6S", "6H", "6NT"]


def test_contract_deals_drill_down(con) -> None:
    deals = q.contract_deals(con, Filters(), "greek-prefa", "6S", "both")
    assert sorted(deals["game_id"].to_list()) == sorted([fx.G1, fx.G3])
    assert deals["made"].to_list() == [True, True]
    assert q.contract_deals(con, Filters(), "greek-prefa", "6S", "pass").is_empty()


def test_card_deal_search_reads_boards_as_the_records_state_them(demo_con) -> None:
    """The replayer's search takes the board from the variant's flat table (``deals_bridge``),
    not the JSON record: the same boards, the same matches (records.md 1.2 ``board``)."""
    every = q.card_deals(demo_con, Filters(), limit=1_000_000)
    stated = demo_con.sql("""
        SELECT game_id, deal_no,
               TRY_CAST(json_extract_string(record, '$.board') AS INTEGER) AS board
        FROM deals WHERE has_cards""").pl()
    joined = every.join(stated, on=["game_id", "deal_no"], how="left", suffix="_record")
    assert every.height == stated.height and joined["board"].null_count() < every.height
    assert joined["board"].eq_missing(joined["board_record"]).all()
    boards = stated.filter(pl.col("board").is_not_null())["board"].value_counts()
    board = int(boards.sort("count")["board"][-1])
    found = q.card_deals(demo_con, Filters(), str(board), limit=1_000_000)
    expected = stated.filter((pl.col("board") == board) | (pl.col("deal_no") == board)).height
    assert found.height == expected == q.card_deal_count(demo_con, Filters(), str(board))


def test_card_deals_and_detail(con) -> None:
    cards = q.card_deals(con, Filters())
    assert cards.height == 3
    assert q.card_deals(con, Filters(player="Dora")).is_empty()
    detail = q.deal_detail(con, fx.G1, 1).row(0, named=True)
    assert detail["players"] == ["Anna", "Boris", "Chris"] and '"talon"' in detail["record"]


def test_quality_queries(con) -> None:
    assert q.ingest_log(con)["records"].sum() == 20
    assert q.ingest_log(con, "samples/club-9.csv").height == 1
    summary = q.quarantine_summary(con)
    assert summary["records"].sum() == 3
    rows = q.quarantine(con, "uploads/club-7-december.jsonl", "parse")
    assert rows["raw"].to_list() == ["deal;6S;Anna"]


def test_filter_choices(con) -> None:
    assert q.variants(con)["variant"].to_list() == ["greek-prefa", "swabian"]
    assert q.leagues(con, Filters())["league"].to_list() == [fx.LEAGUE7, fx.LEAGUE9]
    assert q.players(con, Filters())["player"][0] == "Boris"  # three games
    assert q.date_span(con) == (date(2025, 5, 10), date(2026, 12, 6))


@pytest.mark.parametrize("evil", HOSTILE)
def test_hostile_values_are_bound_not_spliced(fixture_path: Path, evil: str) -> None:
    """Every user value is a bound parameter: hostile text matches nothing and changes nothing."""
    before = table_counts(fixture_path)
    f = Filters(variant=evil, league=evil, player=evil)
    with read_only(fixture_path) as con:
        for frame in (
            q.overview(con, Filters(player=evil)), q.league_standings(con, f),
            q.cash_over_time(con, f), q.games(con, f), q.game_sheet(con, evil),
            q.game_info(con, evil), q.player_summary(con, f), q.player_roles(con, f),
            q.player_contracts(con, f), q.contract_rates(con, f),
            q.contract_deals(con, Filters(), evil, evil, evil), q.card_deals(con, f),
            q.ingest_log(con, evil), q.quarantine(con, evil, evil),
        ):
            assert frame.is_empty() or frame.row(0)[0] in (0, None)
    assert table_counts(fixture_path) == before


def test_empty_database_answers_empty(empty_path: Path) -> None:
    with read_only(empty_path) as con:
        assert q.overview(con, Filters()).row(0) == (0, 0, 0, 0)
        assert q.contract_rates(con, Filters()).is_empty()
        assert q.player_summary(con, Filters(player="Anna"))["deals"][0] == 0
        assert q.date_span(con) == (None, None)


def test_broken_sample_file_is_no_clubs_result(demo_con) -> None:
    """data/samples/bad-lines.jsonl shows quarantine at work; its one good game used to carry the
    club's league (make_samples.py gave every game line one), so it sat in the standings."""
    for league in q.leagues(demo_con, Filters())["league"].to_list():
        games = q.games(demo_con, Filters(league=league))["game_id"].to_list()
        assert "club-7/bad-lines" not in games


def test_event_rankings_pairs_by_percentage(demo_con) -> None:
    """data/samples/bridge/club-pairs-travellers.csv: a 6-pair Mitchell (board 1 pits N-S 1
    against E-W 1), so N-S 2 and E-W 2 are two pairs. Each pair's percentage is the mean of its
    boards' percentages, N-S as stored and E-W as 100 minus it, and equals its matchpoints over
    its top: every board is on the event's top of 4, board 6 Neuberg-adjusted (Law 78A)."""
    ranked = q.event_rankings(demo_con, Filters(variant="bridge-duplicate"))
    riverside = ranked.filter(pl.col("event").str.starts_with("Riverside"))
    rows = demo_con.sql("SELECT ns_pair, ew_pair, pct_ns FROM event_results "
                        "WHERE event LIKE 'Riverside%'").pl()
    assert sorted(riverside["pair"].to_list()) == [f"{d} {n}" for d in ("E-W", "N-S")
                                                   for n in "123"]
    for r in riverside.iter_rows(named=True):
        mine = [p for ns, ew, p in rows.iter_rows() if f"N-S {ns}" == r["pair"]] + \
               [100 - p for ns, ew, p in rows.iter_rows() if f"E-W {ew}" == r["pair"]]
        assert r["boards"] == len(mine) and r["percent"] == pytest.approx(sum(mine) / len(mine))
        assert r["top"] == 4 * r["boards"]
        assert r["percent"] == pytest.approx(100 * r["matchpoints"] / r["top"])
    # a Mitchell ranks each direction apart (its pairs meet only the other direction's), N-S
    # first; competition ranking within it: one rank for equal pairs
    assert riverside["direction"].to_list() == ["N-S"] * 3 + ["E-W"] * 3
    for side in ("N-S", "E-W"):
        own = riverside.filter(pl.col("direction") == side)
        percent = [round(p, 2) for p in own["percent"]]
        assert own["rank"].to_list() == [1 + sum(o > p for o in percent) for p in percent]
        assert own["percent"].to_list() == sorted(own["percent"].to_list(), reverse=True)


def test_event_rankings_teams_by_imps_with_the_files_date(demo_con) -> None:
    """../shared/data/pbn-tournaments-slovesnov/A1A12525.PBN: [Event] and [Date "2000.07.16"];
    the two rooms' IMPs are equal and opposite."""
    ranked = q.event_rankings(demo_con, Filters(), "imps").filter(
        pl.col("event").str.starts_with("17th European Youth"))
    if ranked.is_empty():
        pytest.skip("../shared/data/pbn-tournaments-slovesnov is absent")
    assert set(ranked["day"].to_list()) == {date(2000, 7, 16)}
    assert ranked["imps"].sum() == 0
    assert ranked["imps"].to_list() == sorted(ranked["imps"].to_list(), reverse=True)
    card = q.pair_card(demo_con, Filters(), ranked["event"][0], ranked["pair"][0])
    assert card.height == ranked["boards"][0] and card["imps"].sum() == ranked["imps"][0]


PLAYER_QUERIES = ("player_summary", "player_cash", "player_roles", "player_contracts",
                  "player_positions", "player_over_time", "player_deal_list", "league_standings",
                  "games")


def test_a_page_run_keeps_the_rows_its_queries_share(demo_path: Path, tmp_path: Path) -> None:
    """On one read-only connection (a page run's, dashboards/db.py) the people and each player's
    deals are computed once and kept (``_kept``), and every answer equals that of a connection
    that may write, where nothing is kept: across people of four variants and two filters in one
    run, so a kept table is found only by what it holds."""
    copy = tmp_path / "demo.duckdb"
    shutil.copy(demo_path, copy)
    writable = duckdb.connect(str(copy))
    writable.execute("SET TimeZone = 'UTC'")  # as dashboards/db.py sets it
    try:
        variants = q.variants(writable)["variant"].to_list()[:4]
        asked = [Filters(player=q.players(writable, Filters(variant=v))["player"][0], variant=f)
                 for v in variants for f in (None, v)]
        assert len(asked) == 8
        with read_only(demo_path) as kept:
            for f in asked:
                for name in PLAYER_QUERIES:
                    assert getattr(q, name)(kept, f).equals(getattr(q, name)(writable, f)), (
                        name, f)
            tables = kept.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()
        # the people, and one table of deals per person and filter
        assert tables == (1 + len(asked),)
        assert writable.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone() == (0,)
    finally:
        writable.close()


def test_my_deals_give_the_contracts_result_in_every_role(demo_path: Path) -> None:
    """My deals: the result is the contract's, whoever declared it. A defender's row read "—"
    beside the declarer's tricks (the result was kept for the declarer's own rates only)."""
    with read_only(demo_path) as con:
        person = q.players(con, Filters(variant="greek-prefa"))["player"][0]
        deals = q.player_deal_list(con, Filters(player=person), limit=100_000)
        outcomes = con.execute("SELECT game_id, deal_no, made FROM deal_outcomes").fetchall()
    made = {(g, n): m for g, n, m in outcomes}
    defended = deals.filter((pl.col("role") != "declarer") & pl.col("declarer").is_not_null()
                            & pl.col("declarer_tricks").is_not_null())
    assert defended.height > 0
    for r in defended.iter_rows(named=True):
        expected = made.get((r["game_id"], r["deal_no"]))
        assert r["result"] == (None if expected is None else "made" if expected else "down"), r


def test_a_pair_card_shows_no_negative_zero(tmp_path: Path) -> None:
    """Two tables with the same result: every cross-IMP is 0, and E-W's was -0.0 (N-S's
    negated), shown as "-0" (scoring/bridge/event.py, Law 78B)."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    traveller = tmp_path / "even.csv"
    traveller.write_text("event,board,ns_pair,ew_pair,contract,declarer,tricks\n"
                         "Even night,1,1,2,4S,N,10\nEven night,1,3,4,4S,N,10\n"
                         "Even night,2,1,4,3NT,S,9\nEven night,2,3,2,3NT,S,9\n",
                         encoding="utf-8")
    db = tmp_path / "even.duckdb"
    ingest_paths([traveller], db, score=score_pending)
    with read_only(db) as c:
        ranked = q.event_rankings(c, Filters())
        cards = [q.pair_card(c, Filters(), "Even night", p) for p in ranked["pair"]]
    values = [*ranked["cross_imps"].to_list(), *(v for card in cards
                                                  for v in card["cross_imps"].to_list())]
    assert len(values) == 4 + 8 and all(v == 0 for v in values)
    assert all(str(v) == "0.0" for v in values), values  # not "-0.0"


def test_a_pair_that_sat_out_is_ranked_by_cross_imps_per_board(tmp_path: Path) -> None:
    """Pair 5 played one board (+11 cross-IMPs) where pair 1 played two (+7 each, 14 in all):
    ranked by their sum, pair 1 led on boards it had and pair 5 had not played. Ranked "by
    IMPs", a pairs event now goes by cross-IMPs per board, as its percentage is per board
    (scoring/bridge/event.py, Law 78B)."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    traveller = tmp_path / "sitout.csv"
    traveller.write_text("event,board,ns_pair,ew_pair,contract,declarer,tricks\n"
                         "Sit-out night,1,1,2,4S,N,10\nSit-out night,1,3,4,4S,N,9\n"
                         "Sit-out night,2,1,4,3NT,N,9\nSit-out night,2,3,2,3NT,N,8\n"
                         "Sit-out night,3,5,6,6NT,N,12\nSit-out night,3,3,4,6NT,N,11\n",
                         encoding="utf-8")
    db = tmp_path / "sitout.duckdb"
    ingest_paths([traveller], db, score=score_pending)
    with read_only(db) as c:
        ranked = q.event_rankings(c, Filters(), "imps")
    rows = {r["pair"]: r for r in ranked.iter_rows(named=True)}
    assert (rows["1"]["boards"], rows["5"]["boards"]) == (2, 1)
    assert rows["1"]["cross_imps"] > rows["5"]["cross_imps"]
    assert rows["5"]["cross_imps_per_board"] > rows["1"]["cross_imps_per_board"]
    assert ranked["pair"].to_list()[0] == "5"
    per_board = ranked["cross_imps_per_board"].to_list()
    assert per_board == sorted(per_board, reverse=True)


def _person(con, variant: str, name: str) -> str:
    """The label of the person behind ``name`` in ``variant`` (``Anna``, ``Anna (greek-prefa)``)."""
    people = q.players(con, Filters(variant=variant))["player"].to_list()
    return next(p for p in people if p == name or p.startswith(f"{name} ("))


def _roles(con, f: Filters) -> dict[tuple[str, int], str]:
    deals = q.player_deal_list(con, f, limit=100_000)
    return {(g, n): r for g, n, r in deals.select("game_id", "deal_no", "role").rows()}


def test_swabian_opponents_defend(demo_con) -> None:
    """swabian.md 6: "The declarer always plays alone against both other players"; 1: three
    players, so nobody sits out. Anton's deals against a declarer (the sample score sheet, no
    ``defence`` in a Swabian record) read "sat out", and "Defence held" had n = 0."""
    f = Filters(variant="swabian", player=_person(demo_con, "swabian", "Anton"))
    deals = q.player_deal_list(demo_con, f, limit=100_000)
    against = deals.filter(pl.col("declarer").is_not_null() & (pl.col("role") != "declarer"))
    assert against.height > 0 and set(against["role"]) == {"defender"}
    assert "sat out" not in deals["role"].to_list()
    me = q.player_summary(demo_con, f).row(0, named=True)
    held = against.filter(pl.col("cash") >= 0).height
    assert (me["defended"], me["defence_held"]) == (against.height, held)
    roles = {r["role"]: (r["n"], r["ok"]) for r in q.player_roles(demo_con, f).iter_rows(
        named=True)}
    assert roles["defender"] == (against.height, held)


def test_a_conceded_preliminary_bid_is_defended(demo_con) -> None:
    """greek-prefa.md 5: a preliminary-bid winner may concede, "2 chips paid to each other
    player"; 1: the other two are the defenders. Nobody was asked to play or pass, so the
    record has no ``defence``: Anna's row read "sat out", contract "—"."""
    f = Filters(variant="greek-prefa", player=_person(demo_con, "greek-prefa", "Anna"))
    deals = q.player_deal_list(demo_con, f, limit=100_000).filter(
        (pl.col("game_id") == fx.G5) & (pl.col("deal_no") == 1))
    row = deals.select("role", "declarer", "contract", "result", "declarer_tricks",
                       "cash").row(0, named=True)
    assert row == {"role": "defender", "declarer": "Boris", "contract": q.NO_CONTRACT,
                   "result": "down", "declarer_tricks": None, "cash": 2.0}


def test_the_dealer_of_four_sits_out_and_misere_opponents_defend(demo_con, con) -> None:
    """russian.md 1 and greek-prefa.md 14 (``four_players``): with four at the table the dealer
    sits the deal out, also a raspasy nobody declared; a misère is not whisted (russian.md 3),
    so its record names no ``defence``, and both opponents play it."""
    game = "nevsky/2026-11-22/leningrad"
    oleg = _roles(demo_con, Filters(variant="russian", player=_person(demo_con, "russian",
                                                                      "Oleg")))
    assert oleg[(game, 1)] == "sat out"  # dealer of a raspasy
    assert oleg[(game, 2)] == "pass"
    misere = demo_con.execute(
        "SELECT game_id, deal_no, dealer, declarer, g.players FROM deals d JOIN games g "
        "USING (game_id) WHERE d.variant = 'russian' AND d.contract = 'misere' "
        "AND len(g.players) = 3 ORDER BY ALL LIMIT 1").fetchall()
    assert misere
    g, n, _, declarer, seated = misere[0]
    for name in set(seated) - {declarer}:
        who = Filters(variant="russian", player=_person(demo_con, "russian", name))
        assert _roles(demo_con, who)[(g, n)] == "defender"
    boris = _roles(con, Filters(player="Boris"))
    assert boris[(fx.G2, 3)] == "sat out" and boris[(fx.G2, 2)] == "invite"


def test_my_deals_newest_first(con) -> None:
    """Newest first: the latest game first and its last deal first; the deal list read a game's
    deals 1, 2, 3 under the latest game. Equal cash is newest first in the other orders too."""
    f = Filters(player="Boris")
    order = [(g, n) for g, n in q.player_deal_list(con, f, "newest first").select(
        "game_id", "deal_no").rows()]
    assert order == [(fx.G2, 3), (fx.G2, 2), (fx.G2, 1), (fx.G1, 4), (fx.G1, 3), (fx.G1, 2),
                     (fx.G1, 1), (fx.G3, 1)]
    losses = q.player_deal_list(con, f, "biggest losses first")
    assert losses["cash"].to_list() == sorted(losses["cash"].to_list())
    even = losses.filter(pl.col("cash") == 0).select("game_id", "deal_no").rows()
    assert even == [(fx.G2, 3), (fx.G1, 4), (fx.G1, 2)]
    wins = q.player_deal_list(con, f, "biggest wins first")
    assert wins["cash"].to_list() == sorted(wins["cash"].to_list(), reverse=True)
    assert wins.filter(pl.col("cash") == 0).select("game_id", "deal_no").rows() == even


def test_card_deal_search_finds_a_name_in_either_unicode_form(tmp_path: Path) -> None:
    """``Ánna`` stored decomposed (``A`` and an accent) is found by the search typed composed,
    and the other way round (dashboards/queries.py ``card_deals``; ingest/players.py: a name
    is its NFC text)."""
    from ingest.pipeline import ingest_paths

    sample = Path(__file__).resolve().parents[2] / "data" / "samples" / "league.jsonl"
    jsonl = tmp_path / "league.jsonl"
    jsonl.write_text(sample.read_text(encoding="utf-8").replace("Anna", "A\u0301nna"),
                     encoding="utf-8")
    db = tmp_path / "t.duckdb"
    ingest_paths([jsonl], db)
    with read_only(db) as c:
        with_cards = q.card_deal_count(c, Filters())
        assert with_cards > 0
        composed = q.card_deal_count(c, Filters(), "\u00e1nna")
        decomposed = q.card_deal_count(c, Filters(), "A\u0301NNA")
        assert composed == decomposed > 0
        assert q.card_deal_count(c, Filters(), "\u00c1NN") == composed  # part of the name


def test_players_sort_by_name_as_a_reader_does(tmp_path: Path) -> None:
    """Among players of as many games, ``Ánna`` sorts with the A's, not after ``Elias`` (the
    Player box, dashboards/queries.py ``players``)."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    sample = Path(__file__).resolve().parents[2] / "data" / "samples" / "league.jsonl"
    jsonl = tmp_path / "league.jsonl"
    jsonl.write_text(sample.read_text(encoding="utf-8").replace("Anna", "\u00c1nna"),
                     encoding="utf-8")
    db = tmp_path / "t.duckdb"
    ingest_paths([jsonl], db, score=score_pending)  # the box lists players of settled deals
    with read_only(db) as c:
        shown = q.players(c, Filters())
    assert "\u00c1nna" in shown["player"].to_list()
    for (_,), group in shown.group_by("games", maintain_order=True):
        names = group["player"].to_list()
        assert names == sorted(names, key=lambda n: n.replace("\u00c1", "A").lower()), names


def test_contracts_tell_a_game_from_the_hands_from_the_same_game(sample_path: Path) -> None:
    """swabian.md 3.2: a game aus den Händen needs one trick more than the same game after the
    auction, so it is its own contract: ``hand3`` is not counted in ``3`` (the Swabian samples
    declare both). Each cell's n and made are worked out here from the stored records."""
    swabian = variant("swabian")
    with read_only(sample_path) as c:
        records = [json.loads(r[0]) for r in c.execute(
            "SELECT CAST(record AS VARCHAR) FROM deals WHERE variant = 'swabian' "
            "AND declarer IS NOT NULL").fetchall()]
        rates = q.contract_rates(c, Filters(variant="swabian"))
        deals = q.contract_deals(c, Filters(variant="swabian"), "swabian", "hand3")
        player = q.player_contracts(c, Filters(variant="swabian", player="Greta"))
    expected: dict[str, list[int]] = {}
    for rec in records:
        cell = expected.setdefault(swabian.contract_call(rec), [0, 0])
        if rec.get("tricks"):
            cell[0] += 1
            cell[1] += swabian.declarer_made(rec, rec["tricks"][rec["declarer"]])
    found = rates.group_by("contract").agg(pl.col("n").sum(), pl.col("made").sum())
    assert {r["contract"]: [r["n"], r["made"]] for r in found.iter_rows(named=True)} == expected
    assert any(call.startswith("hand") for call in expected)  # the samples hold both kinds
    assert len(deals) == sum(1 for rec in records if swabian.contract_call(rec) == "hand3")
    assert set(deals["contract"]) <= {"hand3"}
    greta = {swabian.contract_call(rec) for rec in records if rec["declarer"] == "Greta"}
    assert set(player["contract"]) == greta


def test_players_are_those_at_a_settled_deal(tmp_path: Path) -> None:
    """A DDS hand file (../shared/data/dds-hands/list10.txt, docs/bridge.md dds_hands.py) is
    deals nobody played, its four seats unnamed: League's header counted them as players and
    the Player box listed them, with no deal played. A player is now one of the filtered
    games' players with a settled deal there (its standings); the dealer of four who sat a
    deal out is paid for it and stays one (the fixture's game 2, greek-prefa.md 9)."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending
    from tests.conftest import DATA

    db = fx.build(tmp_path / "t.duckdb")
    ingest_paths([DATA / "dds-hands" / "list10.txt"], db, score=score_pending)
    with read_only(db) as c:
        (dds,) = c.execute("SELECT players FROM games WHERE variant = 'bridge-duplicate'"
                           ).fetchone() or ((),)
        settled = {p for (p,) in c.execute("SELECT DISTINCT player FROM settlements").fetchall()}
        listed = set(q.players(c, Filters())["player"])
        overview = q.overview(c, Filters()).row(0, named=True)
        bridge = q.overview(c, Filters(variant="bridge-duplicate")).row(0, named=True)
        bridge_players = q.players(c, Filters(variant="bridge-duplicate"))
    assert len(dds) == 4 and not set(dds) & listed
    assert listed == settled and {"Anna", "Boris", "Chris", "Dora"} <= listed
    assert overview["players"] == 9  # as before the file (test_overview_counts)
    assert (bridge["games"], bridge["deals"], bridge["players"]) == (1, 10, 0)
    assert bridge_players.is_empty()


EXAMPLE2 = fx.SHARED / "endplay-fixtures" / "pbn" / "example2.pbn"


@pytest.fixture(scope="module")
def example2_con(tmp_path_factory: pytest.TempPathFactory):
    """A database of ../shared/data/endplay-fixtures/pbn/example2.pbn alone (a RealBridge teams
    qualifier, round 2: fifteen matches of boards 11-20, each room's N-S team named home)."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    if not EXAMPLE2.exists():
        pytest.skip("../shared/data/endplay-fixtures is absent")
    db = tmp_path_factory.mktemp("example2") / "teams.duckdb"
    ingest_paths([EXAMPLE2], db, score=score_pending)
    with read_only(db) as con:
        yield con


def test_team_rankings_of_example2_rank_the_teams(example2_con) -> None:
    """The teams of example2.pbn ranked by net IMPs, each board of a match counted once.
    AUSTRIA v DENMARK by hand from the file's Score tags (AUSTRIA N-S at [Table "11"], E-W at
    [Table "7"]; Law 78B scale): board 11 0 v +150 (DENMARK's N-S -150): +150, 4 IMPs won;
    12 -100 v -620: 12 lost; 13 130 v -110: +20, 1 won; 14 420 v -450: 1 lost; 15 90 v -180:
    3 lost; 16 140 v +50: +190, 5 won; 17 550 v -300: +250, 6 won; 18 -430 v +490: +60, 2 won;
    19 450 v -450: 0; 20 660 v -600: +60, 2 won. AUSTRIA: 20 won, 16 lost, net +4 (the file's
    own ScoreIMP tags agree); DENMARK the other way round."""
    ranked = q.team_rankings(example2_con, Filters())
    assert ranked.height == 30 and set(ranked["event"]) == {"2021 Online Qual: Open R2"}
    rows = {r["team"]: r for r in ranked.iter_rows(named=True)}
    austria, denmark = rows["AUSTRIA"], rows["DENMARK"]
    assert (austria["opponents"], austria["matches"], austria["boards"]) == ("DENMARK", 1, 10)
    assert (austria["imps_for"], austria["imps_against"], austria["net"]) == (20, 16, 4)
    assert (denmark["imps_for"], denmark["imps_against"], denmark["net"]) == (16, 20, -4)
    assert austria["pairs"] == ("Markus Knob#39415 & Clemens Wanha#184195; "
                                "Michael Strafner#29864 & Simon Weinberger#49606")
    # every match's two teams: equal and opposite; ranked by net IMPs, equal nets one rank
    assert ranked["net"].sum() == 0 and ranked["imps_for"].sum() == ranked["imps_against"].sum()
    nets = ranked["net"].to_list()
    assert nets == sorted(nets, reverse=True)
    assert ranked["rank"].to_list() == [1 + sum(n > m for n in nets) for m in nets]
    assert ranked.row(0, named=True)["team"] == "SWEDEN"
    # board 20 of SWITZERLAND v TURKEY was played in one room only: nothing to compare
    assert rows["SWITZERLAND"]["boards"] == 9


def test_team_rankings_of_a_pairs_event_are_empty(demo_con) -> None:
    """A pairs event names no teams: ../shared/data/bbo-vugraph-lin/40000.lin (``vg`` scoring
    ``P``) and the sample travellers have no team ranking, while the LIN teams matches do."""
    ranked = q.team_rankings(demo_con, Filters())
    pairs = q.event_rankings(demo_con, Filters())
    eobc = pairs.filter(pl.col("event").str.starts_with("T26 2015 EOBC"))
    if eobc.is_empty():
        pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    assert eobc["team"].null_count() == eobc.height
    assert not ranked.filter(pl.col("event").str.starts_with("T26 2015 EOBC")).height
    assert set(ranked["event"]) < set(pairs["event"])


def _teams_db(folder: Path, files: list[Path]):
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    db = folder / "teams.duckdb"
    ingest_paths(files, db, score=score_pending)
    return read_only(db)


def test_a_match_whose_rooms_come_in_two_files_is_no_team_result(tmp_path: Path) -> None:
    """Russia v Netherlands (../shared/data/pbn-tournaments-slovesnov/A1A12525.PBN) with its open
    and closed rooms in two files without ``Room`` tags: each file's tables are first tables,
    Russia (home) N-S in both rooms (docs/bridge.md). Counted so, both teams would win every
    board; the match is named by ``seated_alike`` (19 boards: board 3's open room is
    quarantined) and left out of the team ranking. Read from the one file, its rooms seat the
    teams each way: no such match, and the teams' IMPs are equal and opposite."""
    if not fx.YOUTH_TEAMS.exists():
        pytest.skip("../shared/data/pbn-tournaments-slovesnov is absent")
    (apart := tmp_path / "apart").mkdir()
    (whole := tmp_path / "whole").mkdir()
    with _teams_db(apart, fx.rooms_apart(fx.YOUTH_TEAMS, apart)) as con:
        alike = q.seated_alike(con, Filters())
        ranked = q.team_rankings(con, Filters())
        pairs = q.event_rankings(con, Filters(), "imps")
    assert alike.select("match", "boards", "ns_teams").rows() == [
        ("Netherlands v Russia 25", 19, "Russia")]
    assert ranked.is_empty()
    assert sorted(pairs["team"]) == ["Netherlands", "Netherlands", "Russia", "Russia"]
    with _teams_db(whole, [fx.YOUTH_TEAMS]) as con:
        assert q.seated_alike(con, Filters()).is_empty()
        ranked = q.team_rankings(con, Filters())
    assert sorted(ranked["team"]) == ["Netherlands", "Russia"]
    assert ranked["net"].sum() == 0 and ranked["boards"].to_list() == [19, 19]


def test_a_match_seated_alike_is_seen_whichever_room_the_filters_keep(tmp_path: Path) -> None:
    """Filtered to a player of one room, the match is still named (asked without the player
    filter), and its one room gives no team a result."""
    if not fx.YOUTH_TEAMS.exists():
        pytest.skip("../shared/data/pbn-tournaments-slovesnov is absent")
    with _teams_db(tmp_path, fx.rooms_apart(fx.YOUTH_TEAMS, tmp_path)) as con:
        f = Filters(player="Krasnosselski")
        assert q.seated_alike(con, f)["match"].to_list() == ["Netherlands v Russia 25"]
        assert q.team_rankings(con, f).is_empty()
