"""A file or folder that cannot be read (no permission) is reported with the reason, by name,
and the files beside it are read (docs/ingest.md, "Hostile input"). The tests run as root
too, so reading is denied by patching ``Path.open``, ``os.scandir`` and ``os.access``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import scoring.registry
from ingest.pipeline import ingest_paths
from tests.ingest.conftest import SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer, fake_settlements
from trickbook.cli import app

TRAVELLERS = SAMPLES / "bridge" / "club-pairs-travellers.csv"


@pytest.fixture
def denied(monkeypatch: pytest.MonkeyPatch) -> set[Path]:
    """Paths that no one may read (add to the set)."""
    paths: set[Path] = set()
    real_open, real_scandir, real_access = Path.open, os.scandir, os.access

    def refuse(p: Any) -> None:
        if Path(p) in paths:
            raise PermissionError(13, "Permission denied", str(p))

    def path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        refuse(self)
        return real_open(self, *args, **kwargs)

    def scandir(p: Any = ".") -> Any:
        refuse(p)
        return real_scandir(p)

    def access(p: Any, mode: int, **kwargs: Any) -> bool:
        return Path(p) not in paths and real_access(p, mode, **kwargs)

    monkeypatch.setattr(Path, "open", path_open)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", access)
    return paths


def a_folder(tmp_path: Path, denied: set[Path]) -> Path:
    """A folder with a readable traveller, an unreadable JSON Lines file and an unreadable
    folder holding another."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(TRAVELLERS, folder / "b.csv")
    shutil.copy(SAMPLES / "league.jsonl", folder / "a.jsonl")
    shutil.copy(SAMPLES / "russian" / "league.jsonl", folder / "sub" / "r.jsonl")
    denied |= {folder / "a.jsonl", folder / "sub"}
    return folder


def test_unreadable_file_and_folder_in_a_folder_are_reported(tmp_path: Path,
                                                             denied: set[Path]) -> None:
    folder = a_folder(tmp_path, denied)
    reports = ingest_paths([folder], tmp_path / "t.duckdb",
                           score=fake_scorer(FakeSettlement()))
    said = {Path(r.source).name: r for r in reports}
    assert said["b.csv"].stored == 26
    assert said["a.jsonl"].skipped == "unreadable: Permission denied"
    assert said["sub"].skipped == "unreadable: Permission denied"


def test_unreadable_file_named_on_the_command_line(tmp_path: Path, denied: set[Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scoring.registry, "settlement", fake_settlements(FakeSettlement()))
    folder = a_folder(tmp_path, denied)
    result = CliRunner().invoke(app, ["ingest", str(folder / "a.jsonl"), str(folder / "b.csv"),
                                      "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 1, result.output  # a file it could not read (docs/cli.md)
    assert f"{folder / 'a.jsonl'}: skipped (unreadable: Permission denied)" in result.stdout
    assert f"{folder / 'b.csv'}: 26 read, 26 stored" in result.stdout


def test_a_file_in_a_folder_that_may_not_be_searched(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A named file whose folder may not be searched (no execute permission: looking at the
    file raises ``PermissionError``, not a missing file) is reported unreadable, and the files
    named beside it are read."""
    monkeypatch.setattr(scoring.registry, "settlement", fake_settlements(FakeSettlement()))
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(TRAVELLERS, folder / "b.csv")
    shutil.copy(SAMPLES / "league.jsonl", folder / "sub" / "a.jsonl")
    real = {"stat": os.stat, "lstat": os.lstat}

    def looking(name: str) -> Any:
        def look(p: Any, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(p, int) and Path(p).parent == folder / "sub":
                raise PermissionError(13, "Permission denied", str(p))
            return real[name](p, *args, **kwargs)
        return look

    for name in real:
        monkeypatch.setattr(os, name, looking(name))
    named = folder / "sub" / "a.jsonl"
    result = CliRunner().invoke(app, ["ingest", str(named), str(folder / "b.csv"),
                                      "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 1, result.output  # a file it could not read (docs/cli.md)
    assert f"{named}: skipped (unreadable: Permission denied)" in result.stdout
    assert f"{folder / 'b.csv'}: 26 read, 26 stored" in result.stdout
