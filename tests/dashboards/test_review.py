"""Per-player review queries (dashboards/review.py, docs/review.md "Per player") on hand-made
review rows whose every number is counted here, and on a reviewed simulated database."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboards import queries
from dashboards.filters import Filters
from dashboards.review import (
    METRICS,
    costliest_cards,
    costliest_decisions,
    deal_review,
    player_review,
)
from model.tables import CARD_REVIEW, DDL, DEAL_REVIEW, DECISION_REVIEW, GAMES
from scoring.stats import wilson
from sim.review.run import ReviewReport, review_database
from tests.dashboards.test_charts import chart_problems, charts_drawn
from tests.sim.review.conftest import simulated_db

NAME = "O'Brien \"Ob\""
"""A name that needs quoting anywhere it is spliced: it is always bound."""
IVAN = "Iván <b>"
"""A player of a Russian game, with raspasy cards."""


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    for t in (GAMES, CARD_REVIEW, DECISION_REVIEW, DEAL_REVIEW):
        c.execute(DDL[t])
    for gid, variant, players, month in (("g1", "greek-prefa", [NAME, "B", "C"], 1),
                                         ("g2", "greek-prefa", [NAME, "B", "C"], 2),
                                         ("r1", "russian", [IVAN, "Olga", "Pyotr"], 3)):
        c.execute("INSERT INTO games VALUES (?, ?, ?, '{}', ?, NULL, NULL, NULL, 't', 1, '{}')",
                  [gid, variant, players, datetime(2026, month, 5)])
    cards = [  # game, deal, card_no, player, side, cost
        ("g1", 1, 1, NAME, "defence", 0), ("g1", 1, 2, "B", "declarer", 1),
        ("g1", 1, 4, NAME, "defence", 2), ("g1", 1, 7, NAME, "defence", 1),
        ("g1", 2, 1, NAME, "declarer", 1), ("g1", 2, 4, NAME, "declarer", 0),
        ("g2", 1, 1, NAME, "declarer", 0), ("g2", 1, 4, NAME, "declarer", 0),
        # raspasy, each card valued for its player (side 'self')
        ("r1", 1, 1, IVAN, "self", 0), ("r1", 1, 2, "Olga", "self", 2),
        ("r1", 1, 4, IVAN, "self", 1), ("r1", 1, 7, IVAN, "self", 2),
        ("r1", 2, 2, IVAN, "self", 0), ("r1", 3, 3, "Pyotr", "self", 1),
    ]
    for g, d, n, p, side, cost in cards:
        c.execute(f"INSERT INTO {CARD_REVIEW} VALUES (?, ?, ?, ?, ?, 'AS', 6, ?, ?, ['KS'])",
                  [g, d, n, p, side, 6 - cost if side == "declarer" else 6 + cost, cost])
    for g, d, p, correct in (("g1", 1, NAME, False), ("g1", 2, NAME, True),
                             ("g2", 1, NAME, True), ("g2", 1, "B", False)):
        c.execute(f"INSERT INTO {DECISION_REVIEW} VALUES (?, ?, 1, ?, 'contract', 'S', ['H'], "
                  "6, 7, ?, ?)", [g, d, p, 0 if correct else 1, correct])
    return c


def _metric(frame: pl.DataFrame, metric: str) -> dict[str, object]:
    return frame.filter(pl.col("metric") == metric).row(0, named=True)


def test_player_review_counts(con: duckdb.DuckDBPyConnection) -> None:
    got = player_review(con, Filters(player=NAME))
    assert got["metric"].to_list() == [m for m in METRICS if m != "all_pass_tricks_lost"]
    assert _metric(got, "cards_reviewed")["n"] == 7
    costly = _metric(got, "costly_cards")
    assert (costly["n"], costly["hits"]) == (7, 3)
    assert (costly["rate_low"], costly["rate_high"]) == pytest.approx(wilson(3, 7))
    lead = _metric(got, "opening_lead_accuracy")
    assert (lead["n"], lead["hits"]) == (3, 2)
    declarer = _metric(got, "declarer_tricks_lost")  # deals g1/2 (1 trick), g2/1 (0)
    assert (declarer["n"], declarer["hits"], declarer["mean"]) == (2, 1, 0.5)
    defence = _metric(got, "defence_tricks_lost")  # deal g1/1: 0 + 2 + 1 of his own cards
    assert (defence["n"], defence["hits"], defence["mean"]) == (1, 1, 3.0)
    decisions = _metric(got, "decision_accuracy")
    assert (decisions["n"], decisions["hits"]) == (3, 2)
    assert _metric(got, "cards_reviewed")["rate"] is None


def test_raspasy_tricks_lost_per_player(con: duckdb.DuckDBPyConnection) -> None:
    """Raspasy cards (side 'self') count in their own role, the player's own cards only: deal
    r1/1 lost 0 + 1 + 2 tricks, r1/2 none; the others' cards and deals are theirs."""
    russian = player_review(con, Filters(player=IVAN))
    assert russian["metric"].to_list() == list(METRICS)
    raspasy = _metric(russian, "all_pass_tricks_lost")
    assert (raspasy["n"], raspasy["hits"], raspasy["mean"]) == (2, 1, 1.5)
    assert (raspasy["rate_low"], raspasy["rate_high"]) == pytest.approx(wilson(1, 2))
    # per-deal losses 3 and 0: sample sd 2.1213, half-width 1.96 * 2.1213 / sqrt(2) = 2.94
    assert (raspasy["mean_low"], raspasy["mean_high"]) == pytest.approx((0.0, 4.44), abs=0.01)
    assert _metric(russian, "declarer_tricks_lost")["n"] == 0
    olga = _metric(player_review(con, Filters(player="Olga")), "all_pass_tricks_lost")
    assert (olga["n"], olga["hits"], olga["mean"]) == (1, 1, 2.0)
    assert "all_pass_tricks_lost" not in player_review(con, Filters(player=NAME))["metric"]


def test_player_review_by_month_and_filters(con: duckdb.DuckDBPyConnection) -> None:
    got = player_review(con, Filters(player=NAME), by_month=True)
    months = got.filter(pl.col("metric") == "cards_reviewed")
    assert months["n"].to_list() == [5, 2] and months["month"].dt.month().to_list() == [1, 2]
    assert player_review(con, Filters(player=NAME, variant="balkan")).is_empty()
    assert player_review(con, Filters()).is_empty()


def test_costliest_and_deal_review(con: duckdb.DuckDBPyConnection) -> None:
    cards = costliest_cards(con, Filters(player=NAME))
    assert cards["cost"].to_list() == [2, 1, 1] and cards["game_id"].to_list()[0] == "g1"
    decisions = costliest_decisions(con, Filters(player=NAME))
    assert decisions.select("game_id", "deal_no").rows() == [("g1", 1)]
    con.execute(f"INSERT INTO {DEAL_REVIEW} VALUES ('g1', 1, 'greek-prefa', 'B', '6S', false, "
                "6, 6, 7, false, 4, NULL)")
    assert deal_review(con, "g1", 1)["card_no"].to_list() == [1, 2, 4, 7]


def test_before_any_review_the_queries_are_empty() -> None:
    c = duckdb.connect()
    c.execute(DDL[GAMES])
    assert player_review(c, Filters(player="A")).is_empty()
    assert costliest_cards(c, Filters(player="A")).is_empty()
    assert deal_review(c, "g", 1).is_empty()


def test_every_reviewed_card_is_someone_s(reviewed: tuple[Path, ReviewReport]) -> None:
    """Of the reviewed simulated database (``tests/conftest.py``: players of the same names in
    four variants, so four people of each name), every card review row is counted for exactly
    one person of the players' list by the Player page's query."""
    conn = duckdb.connect(str(reviewed[0]), read_only=True)
    try:
        total = conn.execute(f"SELECT count(*) FROM {CARD_REVIEW}").fetchone()
        names = queries.players(conn, Filters())["player"].to_list()
        counted = sum(
            player_review(conn, Filters(player=p)).filter(
                pl.col("metric") == "cards_reviewed")["n"].sum() for p in names)
    finally:
        conn.close()
    assert total is not None and counted == total[0] > 200


@pytest.mark.usefixtures("polars_without_python")
def test_player_page_shows_the_review_with_links(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The Player page's "Review of play": the player's metrics as the query counts them, his
    costliest cards, each row linking to the replayer; without a review it says how to make one."""
    from tests.dashboards.test_pages import frame_with, page

    db = simulated_db(tmp_path / "sim.duckdb", games=2, deals=6, variants=("greek-prefa",))
    before = page("player", db, monkeypatch, player="P1")
    assert not before.exception
    assert any("analyse --play" in i.value for i in before.info)
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        expected = player_review(conn, Filters(player="P1"))
    finally:
        conn.close()
    at = page("player", db, monkeypatch, player="P1")
    assert not at.exception
    shown = frame_with(at, "what")
    reviewed = expected.filter(pl.col("metric") == "cards_reviewed")["n"][0]
    assert shown.loc[shown["what"] == "cards reviewed", "n"].tolist() == [reviewed]
    cards = frame_with(at, "best")
    assert cards["replay"].str.startswith("replayer?player=P1&game=").all()  # filters kept
    # cards as the replayer names them (7♣, not 7C), the best ones too
    assert cards["card"].str.fullmatch(r"(10|[2-9JQKA])[♠♥♦♣]").all(), cards["card"].tolist()
    assert cards["best"].str.fullmatch(r"((10|[2-9JQKA])[♠♥♦♣](, )?)+").all()


@pytest.mark.usefixtures("polars_without_python")
def test_player_page_shows_raspasy_tricks_lost(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A Russian player's "Review of play" has his raspasy row (deals in all-pass play with
    tricks lost) with the n, rate and tricks lost per deal the query counts."""
    from tests.dashboards.test_pages import frame_with, page

    db = simulated_db(tmp_path / "sim.duckdb", games=2, deals=6, variants=("russian",))
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        row = conn.execute(f"SELECT player FROM {CARD_REVIEW} WHERE side = 'self' "
                           "ORDER BY ALL LIMIT 1").fetchone()
        assert row is not None  # a raspasy deal was played and reviewed
        expected = _metric(player_review(conn, Filters(player=row[0])), "all_pass_tricks_lost")
    finally:
        conn.close()
    at = page("player", db, monkeypatch, player=row[0])
    assert not at.exception
    shown = frame_with(at, "what").set_index("what")
    raspasy = shown.loc["deals in raspasy (all-pass play) with tricks lost"]
    assert raspasy["n"] == expected["n"] > 0
    assert raspasy["tricks lost per deal"].startswith(f"{expected['mean']:.2f} (")


def test_replayer_marks_costly_cards_and_shows_best_on_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replayer of a reviewed deal: each costly card marked with the tricks it lost in the
    trick list, every card's cost in the review, the best cards shown when asked for."""
    from tests.dashboards.test_pages import frame_with, page

    db = simulated_db(tmp_path / "sim.duckdb", games=2, deals=6, variants=("greek-prefa",))
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        costly = conn.execute(f"SELECT game_id, deal_no, count(*) FROM {CARD_REVIEW} "
                              "WHERE cost > 0 GROUP BY ALL ORDER BY ALL LIMIT 1").fetchone()
    finally:
        conn.close()
    assert costly is not None
    game_id, deal_no, n_costly = costly
    at = page("replayer", db, monkeypatch, game=game_id, deal=str(deal_no))
    assert not at.exception
    tricks = frame_with(at, "winner")
    assert sum(cell.count("(−") for cell in tricks["cards"]) == n_costly
    review = frame_with(at, "cost")
    assert "best" not in review.columns
    at.toggle(key="replay_best_cards").set_value(True).run()
    assert "best" in frame_with(at, "cost").columns


def test_player_page_draws_the_review_by_month(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Dated games give the review's trend: the share of costly cards and of decisions the
    open-hand answer agrees with, by month, with their intervals."""
    from tests.dashboards.test_pages import page

    db = simulated_db(tmp_path / "sim.duckdb", games=2, deals=6, variants=("greek-prefa",))
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        ids = [r[0] for r in conn.execute("SELECT game_id FROM games ORDER BY 1").fetchall()]
        for gid, month in zip(ids, (1, 2), strict=True):
            conn.execute("UPDATE games SET started_at = ? WHERE game_id = ?",
                         [datetime(2026, month, 5), gid])
    finally:
        conn.close()
    at = page("player", db, monkeypatch, player="P1")
    assert not at.exception
    charts = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert any("Review of play by month" in spec for spec in charts)
    conn = duckdb.connect(str(db))
    try:  # one month is a point, not a trend: no chart
        conn.execute("UPDATE games SET started_at = ?", [datetime(2026, 1, 5)])
    finally:
        conn.close()
    one_month = page("player", db, monkeypatch, player="P1")
    assert not any("Review of play by month" in c.proto.spec
                   for c in one_month.get("vega_lite_chart"))
    for spec, columns in charts_drawn(at):  # valid Vega-Lite of the data drawn
        assert not chart_problems(spec, columns), chart_problems(spec, columns)


def test_replayer_reviews_a_raspasy_deal_per_player(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A Russian raspasy deal (all pass, russian.md 7) is reviewed per player: the replayer
    says so instead of a declaring side's value, and lists every card with its cost."""
    from tests.dashboards.test_pages import frame_with, page

    db = simulated_db(tmp_path / "sim.duckdb", games=3, deals=5, variants=("russian",))
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        found = conn.execute(f"SELECT game_id, deal_no, count(*) FROM {CARD_REVIEW} "
                             "WHERE side = 'self' GROUP BY ALL ORDER BY ALL LIMIT 1").fetchone()
    finally:
        conn.close()
    assert found is not None
    game_id, deal_no, cards = found
    at = page("replayer", db, monkeypatch, game=game_id, deal=str(deal_no))
    assert not at.exception
    assert any("Every player for himself" in c.value for c in at.caption)
    assert len(frame_with(at, "cost")) == cards == 30


def test_replayer_says_a_bettel_declarer_s_cost_is_a_trick_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a Swabian Bettel the declarer plays for the fewest tricks (swabian.md 3.1,
    docs/review.md): the replayer's review says a card's cost is a trick more taken, not a
    trick lost; a suit game's says a trick lost."""
    from tests.dashboards.test_pages import page

    db = simulated_db(tmp_path / "sim.duckdb", games=6, deals=8, variants=("swabian",))
    conn = duckdb.connect(str(db))
    try:
        review_database(conn, workers=1)
        deals = {fewest: conn.execute(f"SELECT game_id, deal_no FROM {DEAL_REVIEW} WHERE "
                                      "fewest = ? AND contract IS NOT NULL ORDER BY ALL LIMIT 1",
                                      [fewest]).fetchone() for fewest in (True, False)}
    finally:
        conn.close()
    said = {}
    for fewest, deal in deals.items():
        assert deal is not None
        at = page("replayer", db, monkeypatch, game=deal[0], deal=str(deal[1]))
        assert not at.exception
        said[fewest] = " ".join(c.value for c in at.caption)
    assert "tricks more it made him take" in said[True] and "lost" not in said[True]
    assert "tricks its side lost" in said[False] and "more it made" not in said[False]
