"""Fixture databases for the dashboard tests: the hand-built one (``fixture_db``), an empty one,
and, once the ingest pipeline and ``data/samples/`` exist, one ingested from the samples."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from model.variants import tables
from scoring.store import score_pending
from tests.conftest import ROOT
from tests.dashboards import fixture_db

SAMPLES = ROOT / "data" / "samples"

POLARS_CALLBACKS = ((pl.Expr, "map_elements"), (pl.Expr, "map_batches"),
                    (pl.Series, "map_elements"), (pl.DataFrame, "map_rows"))
"""polars' ways to call a Python function from its own threads."""


@pytest.fixture
def polars_without_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of :data:`POLARS_CALLBACKS` raises while the test runs: a page works out a column
    in Python itself (``dashboards/rows.py``), never from polars' threads."""
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a page handed a Python function to polars (dashboards/rows.py)")

    for owner, name in POLARS_CALLBACKS:
        monkeypatch.setattr(owner, name, refused)


@pytest.fixture(scope="session")
def fixture_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_db.build(tmp_path_factory.mktemp("dash") / "fixture.duckdb")


@pytest.fixture(scope="session")
def demo_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture database plus the samples (every variant) and a conceded Greek deal."""
    return fixture_db.build_demo_like(tmp_path_factory.mktemp("dash-demo") / "demo.duckdb")


@pytest.fixture
def fixture_copy(fixture_path: Path, tmp_path: Path) -> Path:
    """A private copy for tests that write (uploads): the session's fixture database copied,
    not built again."""
    copy = tmp_path / "fixture.duckdb"
    shutil.copyfile(fixture_path, copy)
    return copy


@pytest.fixture(scope="session")
def empty_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_db.build_empty(tmp_path_factory.mktemp("dash-empty") / "empty.duckdb")


@pytest.fixture(scope="session")
def sample_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database ingested from ``data/samples/`` through ``ingest.pipeline.ingest_paths``."""
    files = [p for p in SAMPLES.glob("**/*") if p.is_file()] if SAMPLES.is_dir() else []
    if not files:
        pytest.skip(f"no sample files in {SAMPLES} yet (the ingest work populates it)")
    try:
        from ingest.pipeline import ingest_paths
    except ImportError as exc:  # the pipeline is being built in parallel
        pytest.skip(f"ingest pipeline not importable yet: {exc}")
    path = tmp_path_factory.mktemp("dash-samples") / "samples.duckdb"
    ingest_paths([SAMPLES], path, score=score_pending)
    return path


def table_counts(path: Path) -> dict[str, int]:
    """Rows per stable table: compared before and after hostile input."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: (con.execute(f"SELECT count(*) FROM {t}").fetchone() or (0,))[0]
                for t in tables()}
    finally:
        con.close()


BALANCE_STUDIES: list[tuple[str, dict[str, object], dict[str, object], int]] = [
    ("greek-prefa", {}, {"four_aces": "raise_value"}, 11),
    ("greek-prefa", {}, {"four_aces": "fixed_chips"}, 11),
    ("swabian", {}, {"vorhand_must_bid": True}, 5),
]
"""Small seeded studies (30 games x 10 deals each): two share arm a (a two-flag sweep of the Greek
four-aces option, greek-prefa.md 14), one is Swabian (docs/balance-study.md)."""


@pytest.fixture(scope="session")
def balance_studies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """The fixture database plus the ``BALANCE_STUDIES`` stored by ``sim.balance``; the
    ``Study`` objects come back too, as the independent source of the expected numbers."""
    from sim.balance import store_study, study

    path = fixture_db.build(tmp_path_factory.mktemp("dash-balance") / "balance.duckdb")
    studies = []
    for variant, rules_a, rules_b, seed in BALANCE_STUDIES:
        s = study(variant, rules_a, rules_b, 30, 10, seed=seed, workers=1)
        store_study(path, s)
        studies.append(s)
    return path, studies
