"""``trickbook analyse --play`` (docs/review.md, docs/cli.md): incremental, the same rows on
one process, a process pool and a Dask LocalCluster; Ctrl-C keeps the batches written."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from sim.review.run import review_database
from tests.conftest import local_cluster
from tests.sim.review.conftest import simulated_db
from trickbook.cli import app

TABLES = ("deal_review", "card_review", "decision_review")


def _tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        conn.close()


def _review(db: Path, **kwargs: object) -> tuple[int, bool]:
    conn = duckdb.connect(str(db))
    try:
        report = review_database(conn, batch_deals=4, **kwargs)  # type: ignore[arg-type]
    finally:
        conn.close()
    return report.reviewed + len(report.skipped), report.interrupted


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated database not reviewed yet (copied by each test)."""
    return simulated_db(tmp_path_factory.mktemp("run") / "fresh.duckdb", games=2, deals=6,
                        variants=("greek-prefa", "balkan", "bridge-duplicate"))


def _copy(fresh: Path, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(fresh.read_bytes())
    return path


@pytest.fixture(scope="module")
def one_process(fresh: Path, tmp_path_factory: pytest.TempPathFactory
                ) -> dict[str, list[tuple[object, ...]]]:
    """The rows of ``fresh`` reviewed in this process, in batches of four deals."""
    pytest.importorskip("endplay")
    one = _copy(fresh, tmp_path_factory.mktemp("one"), "one.duckdb")
    assert _review(one, workers=1)[0] == 36
    return _tables(one)


def test_process_pool_gives_the_rows_of_one_process(fresh: Path, tmp_path: Path,
                                                     one_process: dict) -> None:
    pool = _copy(fresh, tmp_path, "pool.duckdb")
    assert _review(pool, workers=2)[0] == 36
    assert len(one_process["card_review"]) > 200
    assert _tables(pool) == one_process


def test_local_cluster_gives_the_rows_of_one_process(fresh: Path, tmp_path: Path,
                                                     one_process: dict) -> None:
    dask = _copy(fresh, tmp_path, "dask.duckdb")
    with local_cluster() as cluster:
        assert _review(dask, scheduler=cluster.scheduler_address)[0] == 36
    assert _tables(dask) == one_process


def test_ctrl_c_keeps_the_batches_written_and_a_rerun_finishes(
    fresh: Path, tmp_path: Path, one_process: dict
) -> None:
    pytest.importorskip("endplay")
    db = _copy(fresh, tmp_path, "stop.duckdb")

    def interrupt(_: int) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C: finish this batch, then stop

    conn = duckdb.connect(str(db))
    try:
        report = review_database(conn, workers=1, batch_deals=4, on_progress=interrupt)
    finally:
        conn.close()
    assert report.interrupted and report.reviewed + len(report.skipped) == 4
    assert _review(db, workers=1) == (32, False)
    assert _tables(db) == one_process


def test_analyse_play_command_is_incremental(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    db = simulated_db(tmp_path / "cli.duckdb", games=1, deals=3,
                      variants=("greek-prefa", "bridge-duplicate"))
    runner = CliRunner()
    first = runner.invoke(app, ["analyse", "--play", "--workers", "1", "--db", str(db)])
    assert first.exit_code == 0, first.output
    assert re.search(r"play: [1-9]\d* deals? reviewed", first.stdout), first.stdout
    again = runner.invoke(app, ["analyse", "--play", "--workers", "1", "--db", str(db)])
    assert again.exit_code == 0 and "play: 0 deals reviewed" in again.stdout


def test_real_bridge_records_with_claims(tmp_path: Path) -> None:
    """European championship records (data/README.md, pbn-tournaments-slovesnov: plays often
    stop at a claim): every played card reviewed, every claim checked, the data checks hold."""
    pytest.importorskip("endplay")
    from tests.conftest import DATA

    db = tmp_path / "real.duckdb"
    runner = CliRunner()
    games = (DATA / "pbn-tournaments-slovesnov" / "A1A12525.PBN").read_bytes().split(b"\r\n\r\n")
    src = tmp_path / "first-20.pbn"  # its first 20 boards, for time (one is quarantined)
    src.write_bytes(b"\r\n\r\n".join(games[:20]))
    assert runner.invoke(app, ["ingest", str(src), "--db", str(db)]).exit_code == 0
    done = runner.invoke(app, ["analyse", "--play", "--workers", "1", "--db", str(db)])
    assert done.exit_code == 0, done.output
    conn = duckdb.connect(str(db), read_only=True)
    try:
        short = conn.execute("""
            SELECT count(*) FROM deal_review r JOIN deals d USING (game_id, deal_no)
            WHERE r.skipped IS NULL
              AND (r.cards <> json_array_length(d.record::JSON -> 'play')
                   OR r.claimed <> (r.cards < 52))""").fetchone()
        claims = conn.execute("""SELECT count(*), count(*) FILTER (WHERE r.correct)
                                 FROM decision_review r WHERE kind = 'claim'""").fetchone()
        reviewed = conn.execute("SELECT count(*) FROM deal_review WHERE skipped IS NULL"
                                ).fetchone()
    finally:
        conn.close()
    assert short == (0,) and reviewed is not None and reviewed[0] >= 15
    assert claims is not None and claims[0] >= 10 and claims[1] >= claims[0] // 2
    check = runner.invoke(app, ["check", "--db", str(db)])
    assert check.exit_code == 0, check.output
