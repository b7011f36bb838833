"""Fixtures of the ingest tests: a fresh database and the stand-in settlement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ingest.fakes import FakeSettlement

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
GREEK_SAMPLES = [SAMPLES / n for n in ("league.jsonl", "bad-lines.jsonl",
                                       "club-sheet-2026-11-22.csv", "club-sheet-2026-11-29.csv")]
"""The Greek Prefa sample league (data/samples/make_samples.py); other variants' samples live in
sub-folders of their own."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.duckdb"


@pytest.fixture
def fake() -> FakeSettlement:
    return FakeSettlement()
