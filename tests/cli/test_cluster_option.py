"""``--cluster ADDRESS`` of ``ingest``, ``analyse --play`` and ``simulate`` (docs/cli.md): the
cluster named is used whatever the size of the input, and one that cannot be reached ends the
command before any work, with one line naming the address and the reason (``sim.pool.connect``),
exit 2. A cluster that is there is tested in tests/ingest/test_parallel.py,
tests/sim/review/test_run.py and tests/sim/test_cluster.py."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import dask
import duckdb
import pytest
from typer.testing import CliRunner

from tests.cli.test_commands import _DEAL, _GAME
from tests.conftest import ROOT
from trickbook.cli import app

runner = CliRunner()
SAMPLE = ROOT / "data" / "samples" / "balkan" / "league.ppn"


@pytest.fixture
def nobody() -> Iterator[str]:
    """The address of a port of this machine no one listens on, and distributed's connect
    timeout cut to a second (30 s unless configured) for these tests."""
    pytest.importorskip("distributed")  # its defaults loaded before one of them is set
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        yield f"tcp://127.0.0.1:{port}"


def _games(db: Path) -> int:
    if not db.exists():
        return 0
    with duckdb.connect(str(db), read_only=True) as con:
        return int(con.execute("SELECT count(*) FROM games").fetchone()[0])  # type: ignore[index]


def test_ingest_uses_the_cluster_named_however_small_the_input(tmp_path: Path,
                                                               nobody: str) -> None:
    """One small file with ``--cluster`` and no ``--workers``: before, it was read here (the
    input was under the 64 MiB from which workers start) and the cluster never asked, so a
    wrong address went unnoticed."""
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(db), "--cluster", nobody])
    assert result.exit_code == 2, result.output
    assert f"ingest: cannot reach the Dask cluster at '{nobody}'" in result.output
    assert "nothing was read" in result.output and "Traceback" not in result.output
    assert _games(db) == 0


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ingest_with_workers_says_the_cluster_it_cannot_reach(tmp_path: Path, nobody: str,
                                                              workers: str) -> None:
    """Before: ``trickbook: OSError: Timed out trying to connect ...``, exit 1; and with
    ``--workers 1`` the files were read here, the cluster never asked."""
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLE), str(ROOT / "data" / "samples" / "greek"),
                                 "--db", str(db), "--cluster", nobody, "--workers", workers])
    assert result.exit_code == 2, result.output
    assert f"cannot reach the Dask cluster at '{nobody}' (" in result.output
    assert "OSError" not in result.output
    assert _games(db) == 0


def test_a_malformed_address_is_said_as_such(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(tmp_path / "c.duckdb"),
                                 "--cluster", "not an address"])
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask cluster at 'not an address' (" in result.output
    assert "ValueError" not in result.output


def _analysable(tmp_path: Path) -> Path:
    """A database with one Greek deal the open-hand solver takes (tests/cli/test_commands.py)."""
    src = tmp_path / "oh.jsonl"
    src.write_text(json.dumps(_GAME) + "\n" + json.dumps(_DEAL) + "\n", encoding="utf-8")
    db = tmp_path / "a.duckdb"
    assert runner.invoke(app, ["ingest", str(src), "--db", str(db)]).exit_code == 0
    return db


def _open_hand_rows(db: Path) -> int:
    """The deals solved open-hand (``analyse`` makes the table at its first run)."""
    with duckdb.connect(str(db), read_only=True) as con:
        if not con.execute("SELECT 1 FROM duckdb_tables() WHERE table_name = 'open_hand'"
                           ).fetchall():
            return 0
        return int(con.execute("SELECT count(*) FROM open_hand").fetchone()[0])  # type: ignore[index]


def test_analyse_asks_the_cluster_before_the_analysis(tmp_path: Path, nobody: str) -> None:
    """The double-dummy and open-hand analysis come before the review and can take hours;
    before, they ran first and the command then ended on the cluster's timeout, exit 1."""
    db = _analysable(tmp_path)
    result = runner.invoke(app, ["analyse", "--play", "--db", str(db), "--cluster", nobody])
    assert result.exit_code == 2, result.output
    assert f"analyse: cannot reach the Dask cluster at '{nobody}'" in result.output
    assert "solved open-hand" not in result.output
    assert _open_hand_rows(db) == 0


@pytest.mark.parametrize("flag", ["--cluster", "--workers"])
def test_analyse_refuses_review_options_without_play(tmp_path: Path, flag: str) -> None:
    """``--cluster`` and ``--workers`` serve the review alone (docs/cli.md); before, without
    ``--play`` they were taken and not used."""
    db = _analysable(tmp_path)
    value = "tcp://127.0.0.1:8786" if flag == "--cluster" else "2"
    result = runner.invoke(app, ["analyse", "--db", str(db), flag, value])
    assert result.exit_code == 2, result.output
    assert "add --play" in result.output
    assert _open_hand_rows(db) == 0


@pytest.mark.parametrize("flag", ["--cluster", "--scheduler"])
def test_simulate_says_the_cluster_it_cannot_reach(tmp_path: Path, nobody: str,
                                                   flag: str) -> None:
    """``simulate`` names its cluster ``--cluster`` as the other commands do (``--scheduler``,
    its earlier name, still works). Said before a progress bar or an output file."""
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, ["simulate", "--variant", "balkan", "--games", "2",
                                 "--out", str(out), flag, nobody])
    assert result.exit_code == 2, result.output
    assert f"simulate: cannot reach the Dask cluster at '{nobody}' (" in result.output
    assert "simulating" not in result.output and not out.exists()


def test_ingest_of_unchanged_files_still_says_the_cluster_it_cannot_reach(tmp_path: Path,
                                                                          nobody: str) -> None:
    """Every file unchanged, so none needs reading: before, exit 0 with the cluster never
    asked; and a new ``--db`` was left behind as an empty database."""
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(db)]).exit_code == 0
    stored = _games(db)
    result = runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(db), "--cluster", nobody])
    assert result.exit_code == 2, result.output
    assert f"ingest: cannot reach the Dask cluster at '{nobody}'" in result.output
    assert _games(db) == stored > 0
    new = tmp_path / "new.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLE), "--db", str(new), "--cluster", nobody])
    assert result.exit_code == 2 and not new.exists()


def test_a_client_that_fails_while_giving_up_is_said_as_unreachable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine distributed's client, closing itself after a connect timeout, can
    fail its own ``assert self.status == "closed"``: a bare AssertionError that ended
    ``analyse`` with exit 1 and no word (a CI run). It is the cluster's failure, said as one."""
    distributed = pytest.importorskip("distributed")

    def failing(address: str) -> None:
        raise AssertionError

    monkeypatch.setattr(distributed, "Client", failing)
    db = _analysable(tmp_path)
    result = runner.invoke(app, ["analyse", "--play", "--db", str(db),
                                 "--cluster", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask cluster at 'tcp://127.0.0.1:1' (AssertionError)" in result.output
    assert _open_hand_rows(db) == 0
