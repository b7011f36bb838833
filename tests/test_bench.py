"""The baselines of ``make bench`` that take an ingest's tables: they must keep working as the
tables change (``bench variants`` failed once a new database wrote rows of its own)."""

from __future__ import annotations

from bench.bench_variants import _rows_of, _store
from tests.ingest.conftest import GREEK_SAMPLES


def test_the_store_baseline_stores_what_an_ingest_stored() -> None:
    """``bench variants``' "x store" column: every table's rows after an ingest of a sample
    (docs/ingest.md "Speed"), inserted into a fresh database in one transaction."""
    rows = _rows_of(GREEK_SAMPLES[0])
    assert {"games", "deals", "settlements"} <= set(rows)
    _store(rows)
