"""Shared test paths: the project root and ``../shared`` beside it (spec and third-party data)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SPEC = SHARED / "spec"
DATA = SHARED / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"third-party data not found at {DATA} (the repo expects ../shared beside it)")
    return DATA
