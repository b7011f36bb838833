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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true",
                     help="also run the tests marked long (make test-long)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``long`` tests run only with ``--long``."""
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long: run by make test-long (--long)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
