"""Card review (docs/review.md): the open-hand value before and after every recorded card, its
cost and the best cards, for Preference deals (sim/solver) and bridge (DDS through endplay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from model.cards import parse_card
from sim.analysis import analyse_open_hand
from sim.review.rows import DealReview, card_review
from sim.review.run import ReviewReport, review_database
from sim.review.store import review_task
from tests.conftest import DATA


def test_cost_is_measured_in_the_side_s_own_direction() -> None:
    a, k, q = parse_card("AS"), parse_card("KS"), parse_card("QS")
    values = {a: 7, k: 6, q: 7}
    row = card_review(1, "P1", True, k, values, fewest=False)
    assert (row.value_before, row.value_after, row.cost, row.best_cards) == (7, 6, 1, ("AS", "QS"))
    defence = card_review(1, "P2", False, a, values, fewest=False)
    assert (defence.value_before, defence.cost, defence.best_cards) == (6, 1, ("KS",))
    misere = card_review(1, "P1", True, a, values, fewest=True)
    assert (misere.value_before, misere.cost, misere.side) == (6, 1, "declarer")
    assert card_review(1, "P2", False, a, values, fewest=True).cost == 0


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_every_card_of_every_played_deal_is_reviewed(reviewed: tuple[Path, ReviewReport]) -> None:
    db, report = reviewed
    assert report.reviewed > 20 and report.cards > 500
    short = _rows(db, """
        SELECT d.game_id, d.deal_no FROM deals d JOIN deal_review r USING (game_id, deal_no)
        WHERE r.skipped IS NULL
          AND json_array_length(d.record::JSON -> 'play') <> r.cards
           OR r.cards <> (SELECT count(*) FROM card_review c
                          WHERE c.game_id = r.game_id AND c.deal_no = r.deal_no)""")
    assert short == []
    variants = _rows(db, "SELECT DISTINCT variant FROM deal_review WHERE skipped IS NULL")
    assert {v for (v,) in variants} == {"greek-prefa", "balkan", "swabian", "bridge-duplicate"}


def test_cost_is_zero_exactly_for_a_best_card(reviewed: tuple[Path, ReviewReport]) -> None:
    db, _ = reviewed
    bad = _rows(db, """SELECT * FROM card_review
                       WHERE cost < 0 OR (cost = 0) <> list_contains(best_cards, card)
                          OR len(best_cards) = 0""")
    assert bad == []
    assert _rows(db, "SELECT count(*) FROM card_review WHERE cost > 0")[0][0] > 0


def test_a_rerun_reviews_nothing_new(reviewed: tuple[Path, ReviewReport]) -> None:
    db, report = reviewed
    conn = duckdb.connect(str(db))
    try:
        again = review_database(conn, workers=1)
        n = conn.execute("SELECT count(*) FROM deal_review").fetchone()
    finally:
        conn.close()
    assert again.reviewed == 0 and again.skipped == []
    assert n == (report.reviewed + len(report.skipped),)


def test_preference_start_value_is_the_open_hand_result(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    """The value before the first card is the deal's open-hand result as ``analyse`` solves it
    (``sim/analysis.py``, another entry point of the solver)."""
    db, _ = reviewed
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    conn = duckdb.connect(str(copy))
    try:
        analyse_open_hand(conn)
        pairs = conn.execute("""SELECT o.open_hand_tricks, r.value_start FROM open_hand o
                                JOIN deal_review r USING (game_id, deal_no)""").fetchall()
    finally:
        conn.close()
    assert len(pairs) > 10 and all(a == b for a, b in pairs)


# --- bridge: the DDS golden play traces (data/README.md, dds-hands: PLAY and TRACE) ---------

SEATS = ("N", "E", "S", "W")
TRUMPS = ("S", "H", "D", "C", "NT")


def golden_deals(name: str) -> list[tuple[dict[str, Any], list[int]]]:
    """Each deal of a DDS hand file as a bridge record played as its PLAY line (the declarer
    sits right of the leader, a one-level contract in the trump solved), with its TRACE."""
    out = []
    lines = (DATA / "dds-hands" / name).read_text().splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("PBN "):
            continue
        head, deal = line.split('"')[0].split(), line.split('"')[1]
        trump, first = int(head[3]), int(head[4])
        hands = {}
        start = SEATS.index(deal[0])
        order = SEATS[start:] + SEATS[:start]
        for seat, hand in zip(order, deal[2:].split(), strict=True):
            hands[seat] = [r + s for s, suit in zip("SHDC", hand.split("."), strict=True)
                           for r in suit]
        play_line = next(x for x in lines[i:i + 7] if x.startswith("PLAY "))
        trace_line = next(x for x in lines[i:i + 7] if x.startswith("TRACE "))
        cards = play_line.split('"')[1]
        seq = [cards[k + 1] + cards[k] for k in range(0, len(cards), 2)]
        declarer = SEATS[(first + 3) % 4]
        rec = {"hands": hands, "dealer": SEATS[int(head[1])], "declarer": declarer,
               "contract": "1" + TRUMPS[trump],
               "play": _seats_of(seq, hands, first, TRUMPS[trump]), "tricks": 0}
        out.append((rec, [int(t) for t in trace_line.split()[2:]]))
    return out


def _seats_of(seq: list[str], hands: dict[str, list[str]], first: int, trump: str
              ) -> list[list[str]]:
    """The play as (seat, card) pairs: the seat holding each card (PBN 3.3: ``N:``, ``E:`` ...
    names the first hand of the deal string)."""
    holder = {c: s for s, cs in hands.items() for c in cs}
    return [[holder[c], c] for c in seq]


@pytest.mark.parametrize("name", ["list10.txt",  # make test-long: list100.txt too
                                  pytest.param("list100.txt", marks=pytest.mark.long)])
def test_bridge_values_follow_the_dds_play_traces(name: str) -> None:
    pytest.importorskip("endplay")
    deals = golden_deals(name)[:20]
    assert deals
    for n, (rec, trace) in enumerate(deals, start=1):
        got = review_task(("dds", n, "bridge-duplicate", list(SEATS), "{}", json.dumps(rec)))
        assert isinstance(got, DealReview), got
        values = [got.value_start, *(c.value_after for c in got.cards)]
        common = min(len(values), len(trace))
        assert common >= 2 and values[:common] == trace[:common], (name, n)
        assert got.claimed == (len(rec["play"]) < 52)


def test_settled_positions_review_as_searched_ones(
    reviewed: tuple[Path, ReviewReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Skipping the search where the value settles every card (sim/review/preference.py
    ``_settled``) gives the rows a full search of every position gives."""
    import sim.review.preference as preference

    conn = duckdb.connect(str(reviewed[0]), read_only=True)
    try:
        tasks = conn.execute("""
            SELECT d.game_id, d.deal_no, d.variant, g.players, g.rules::VARCHAR,
                   d.record::VARCHAR
            FROM deals d JOIN games g USING (game_id) JOIN deal_review r USING (game_id, deal_no)
            WHERE r.skipped IS NULL AND d.variant <> 'bridge-duplicate'
            ORDER BY d.game_id, d.deal_no LIMIT 12""").fetchall()
    finally:
        conn.close()
    quick = [review_task((g, n, v, list(p), r, t)) for g, n, v, p, r, t in tasks]
    monkeypatch.setattr(preference, "_settled", lambda *args: False)
    full = [review_task((g, n, v, list(p), r, t)) for g, n, v, p, r, t in tasks]
    assert len(quick) == 12 and quick == full
