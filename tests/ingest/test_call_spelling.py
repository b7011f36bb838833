"""A deal whose calls are written in other case or with spaces around them (``6s``, `` PASS ``)
is the deal written as records.md 1.2 writes them: the same canonical JSON and ``deal_key``, so
ingest counts it a duplicate, on the fast paths and per record alike; a file that writes the
records' spelling is stored byte for byte as before (``DealBase.spelled_call``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.pipeline import ingest_paths
from sim.drivers import SIMULATED
from tests.ingest.test_columnar import simulated
from tests.ingest.test_contract_spelling import _stored


def _respelt(line: str) -> str:
    """A deal line with each call's case swapped, between spaces (``6S`` as `` 6s ``, ``pass``
    as `` PASS ``), as typed at a table."""
    deal = json.loads(line)
    for call in deal.get("auction") or ():
        call["call"] = f" {call['call'].swapcase()} "
    return json.dumps(deal)


@pytest.mark.parametrize("fast", [True, False], ids=["fast paths", "per record"])
@pytest.mark.parametrize("variant", SIMULATED)
def test_calls_respelt_are_the_same_deal(variant: str, fast: bool, tmp_path: Path) -> None:
    games, deals = simulated(variant)
    respelt = [_respelt(d) for d in deals]
    assert any(json.loads(d).get("auction") for d in deals) and respelt != deals
    canonical, other, db = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "t.duckdb"
    canonical.write_text("\n".join([*games, *deals]) + "\n", encoding="utf-8")
    other.write_text("\n".join([*games, *respelt]) + "\n", encoding="utf-8")
    (first,) = ingest_paths([canonical], db, fast=fast)
    assert first.stored == len(games) + len(deals) and not first.issues
    stored = _stored(db)
    assert sorted('{"record":"deal",' + str(r[-1])[1:] for r in stored) == sorted(deals)
    (second,) = ingest_paths([other], db, fast=fast)
    assert not second.issues, second.issues[:1]
    assert second.duplicates == len(games) + len(deals) and second.stored == 0
    assert _stored(db) == stored
