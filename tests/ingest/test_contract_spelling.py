"""A deal whose contract is written in other case or with spaces around it (``6s``, `` 3nt ``)
is the deal written as records.md 1.2's grammar writes it: the same canonical JSON and
``deal_key``, so ingest counts it a duplicate; and a file that writes the grammar's spelling is
stored byte for byte as before (``model/base.py`` ``spelled(any_case=True)``)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest_paths
from sim.drivers import SIMULATED
from tests.ingest.test_columnar import simulated


def _respelt(line: str) -> str:
    """A deal line with its contract in small letters between spaces (as typed at a table)."""
    deal = json.loads(line)
    if deal.get("contract"):
        deal["contract"] = f" {deal['contract'].lower()} "
    return json.dumps(deal)


def _stored(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT game_id, deal_no, deal_key, contract, record::VARCHAR "
                           "FROM deals ORDER BY ALL").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("fast", [True, False], ids=["fast paths", "per record"])
@pytest.mark.parametrize("variant", SIMULATED)
def test_a_contract_respelt_is_the_same_deal(variant: str, fast: bool, tmp_path: Path) -> None:
    games, deals = simulated(variant)
    assert any(json.loads(d).get("contract") for d in deals)
    canonical, respelt, db = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "t.duckdb"
    canonical.write_text("\n".join([*games, *deals]) + "\n", encoding="utf-8")
    respelt.write_text("\n".join([*games, *map(_respelt, deals)]) + "\n", encoding="utf-8")
    (first,) = ingest_paths([canonical], db, fast=fast)
    assert first.stored == len(games) + len(deals) and not first.issues
    stored = _stored(db)
    assert sorted('{"record":"deal",' + str(r[-1])[1:] for r in stored) == sorted(deals)
    (second,) = ingest_paths([respelt], db, fast=fast)
    assert not second.issues, second.issues[:1]
    assert second.duplicates == len(games) + len(deals) and second.stored == 0
    assert _stored(db) == stored
