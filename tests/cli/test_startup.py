"""What ``trickbook ingest`` loads: reading files runs no simulator, so it does not load one
(``sim/pool.py``, where the workers of ``--workers`` and ``--cluster`` run, imports none)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT, fresh_process

SCRIPT = """
import json, sys
from typer.testing import CliRunner
from trickbook.cli import app
done = CliRunner().invoke(app, ["ingest", {path!r}, "--db", {db!r}])
print(json.dumps({{"exit": done.exit_code,
                   "loaded": sorted(m for m in sys.modules if m.split(".")[0] == "sim")}}))
"""


def test_ingest_loads_no_simulator(tmp_path: Path) -> None:
    sample = ROOT / "data" / "samples" / "league.jsonl"
    found = fresh_process(SCRIPT.format(path=str(sample), db=str(tmp_path / "t.duckdb")))
    assert found["exit"] == 0
    assert set(found["loaded"]) <= {"sim", "sim.pool", "sim.lifeline"}, found["loaded"]
