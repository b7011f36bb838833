"""docs/flags.md stays true: every field of every registered variant's rules model has a row,
every row names a field, and every test a row names exists (``file::function`` of a top-level
test function)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from model.variants import REGISTERED

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "flags.md"
MODELS: dict[str, type[BaseModel]] = {v.rules_model.__name__: v.rules_model for v in REGISTERED}
"""Every registered variant's rules model (the bridge variants share one), so a new variant's
flags must be documented here."""


def tables() -> dict[str, dict[str, list[str]]]:
    """Per rules model named in a ``## `` heading: flag -> the tests of its row."""
    out: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] | None = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            name = re.search(r"`(\w+Rules)`", line)
            assert name, f"docs/flags.md heading without a rules model: {line!r}"
            section = out.setdefault(name.group(1), {})
        elif line.startswith("| `") and section is not None:
            cells = [c.strip() for c in line.strip("|").split("|")]
            flag = cells[0].strip("`")
            assert flag not in section, f"two rows for {flag!r}"
            section[flag] = re.findall(r"`([^`]+::[^`]+)`", cells[-1])
    return out


TABLES = tables()


def functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_rules_model_has_a_table() -> None:
    assert set(TABLES) == set(MODELS)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_field_has_a_row_and_every_row_a_field(model: str) -> None:
    assert set(TABLES[model]) == set(MODELS[model].model_fields)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_row_names_existing_tests(model: str) -> None:
    for flag, tests in TABLES[model].items():
        assert tests, f"{model}.{flag} has no test"
        for ref in tests:
            file, name = ref.split("::")
            path = ROOT / file
            assert path.is_file(), f"{model}.{flag}: no file {file}"
            assert name in functions(path), f"{model}.{flag}: no test {ref}"
