"""What the ``trickbook`` script does as it starts: a Ctrl-C while it imports its commands is
said in words; ``trickbook ingest`` loads no simulator (reading files runs none:
``sim/pool.py``, where the workers of ``--workers`` and ``--cluster`` run, imports none)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


HELD = """
import importlib, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts Python

class Hold:
    def find_spec(self, fullname, path=None, target=None):
        if fullname == {module!r}:
            print("held", flush=True)
            sys.stdin.readline()  # until the test's SIGINT interrupts it

sys.meta_path.insert(0, Hold())
sys.argv = ["trickbook", "schema"]
entry, _, function = {entry!r}.partition(":")
getattr(importlib.import_module(entry), function)()
"""


@pytest.mark.parametrize("module", ["trickbook.cli", "typer.main"])
def test_a_ctrl_c_while_the_script_starts_says_nothing_changed(module: str) -> None:
    """A Ctrl-C while the ``trickbook`` script imports its commands (seconds, before any
    command runs) printed a Python traceback. The script's entry point (pyproject.toml) says
    that nothing changed, exit 130 (docs/cli.md). The import is held at ``module`` until the
    test has sent SIGINT, so the Ctrl-C lands there however loaded the machine is."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    script = HELD.format(module=module, entry=scripts["trickbook"])
    _says_nothing_changed_when_held(script)


READING = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts Python
import typer.core
from trickbook.start import main

def held(self, ctx, args):
    print("held", flush=True)
    sys.stdin.readline()  # until the test's SIGINT interrupts it

typer.core.TyperGroup.parse_args = held
sys.argv = ["trickbook", "schema"]
main()
"""


def test_a_ctrl_c_while_typer_reads_the_command_line_says_nothing_changed() -> None:
    """A Ctrl-C while typer reads the command line (it builds its readers of the options then:
    a second under load) ended in exit 130 without a word (typer's own ``Exit(130)``). The
    script says that nothing changed, as during its imports."""
    _says_nothing_changed_when_held(READING)


def _says_nothing_changed_when_held(script: str) -> None:
    """Run ``script`` in a fresh Python; once it prints ``held`` (it waits there), send it
    SIGINT: it must say that nothing changed and exit 130."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env, text=True,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=300)
    assert child.returncode == 130, err
    assert err == "interrupted before starting: nothing changed\n" and out == ""
