"""Each data check of scoring/checks.py fails on exactly the damage it is about (records.md 2;
greek-prefa.md 8, 11), and all hold on a clean load of the sample league."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from tests.ingest.conftest import GREEK_SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer

G = "club-7/2026-11-08/table-1"
DAMAGE = {
    "settlements_zero_sum_per_deal":
        f"UPDATE settlements SET cash = cash + 1 WHERE game_id = '{G}' AND deal_no = 2 "
        "AND seat = 0",
    "transfers_net_to_settlements":
        f"UPDATE transfers SET amount = amount + 1 WHERE game_id = '{G}' AND deal_no = 2",
    "kassa_never_negative":
        f"UPDATE settlements SET kassa_after = -1 WHERE game_id = '{G}' AND deal_no = 3",
    "finished_games_zero_sum":
        "UPDATE standings SET cash = cash + 5 WHERE finished AND player = 'Eleni'",
    "deals_have_settlements": f"DELETE FROM settlements WHERE game_id = '{G}' AND deal_no = 4",
    "no_games_waiting_for_rescore": f"INSERT INTO rescore_pending VALUES ('{G}')",
    "ingest_log_counts_every_record_once": "UPDATE ingest_log SET stored = stored + 1",
    "quarantine_matches_last_ingest": "DELETE FROM quarantine WHERE line = 3",
    "stored_records_logged": "UPDATE ingest_log SET stored = 0, duplicates = records - "
                             "quarantined WHERE source LIKE '%league.jsonl'",
}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("checks") / "clean.duckdb"
    ingest_paths(GREEK_SAMPLES, db, score=fake_scorer(FakeSettlement()))
    return db


def failing(db: Path) -> list[str]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return [f.check for f in run_checks(conn) if not f.finding]
    finally:
        conn.close()


def test_clean_load_holds_every_check(clean: Path) -> None:
    assert failing(clean) == []


@pytest.mark.parametrize("check", sorted(DAMAGE))
def test_each_check_catches_its_damage(check: str, clean: Path, tmp_path: Path) -> None:
    db = tmp_path / "damaged.duckdb"
    db.write_bytes(clean.read_bytes())
    conn = duckdb.connect(str(db))
    conn.execute(DAMAGE[check])
    conn.close()
    assert check in failing(db)
