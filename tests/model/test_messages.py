"""A message cites the rule it breaks by spec file and section (docs/ingest.md, "Quarantine"):
``(russian.md 7)``, never a bare ``(7)``, which a user reads as a count ("needs the tricks of each
player (7)")."""

from __future__ import annotations

import ast
import re

import pytest

from model.russian.records import RussianDeal
from tests.conftest import ROOT

SPECS = {"greek": "greek-prefa.md", "balkan": "balkan.md", "swabian": "swabian.md",
         "russian": "russian.md", "bridge": "bridge.md"}
"""Each game's package under ``model/`` and its spec (``../shared/spec/``)."""
BARE = re.compile(r"\((\d+(?:\.\d+)?)(\)|: )")
"""A section number alone in brackets, or before a colon."""
NOT_CITATIONS = {"Preferans (8) needs the preferans_bid option"}
"""Texts whose bracketed number is no section (Balkan's game number 8)."""


def bare_citations(source: str) -> list[str]:
    """The texts of ``source`` (its string literals and the literal parts of its f-strings,
    docstrings and other strings standing as statements left out) that cite a section without
    its spec file."""
    tree = ast.parse(source)
    docstrings = {id(node.value) for node in ast.walk(tree)  # a string as a statement
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and BARE.search(node.value)
            and not any(allowed in node.value for allowed in NOT_CITATIONS)]


@pytest.mark.parametrize("package", sorted(SPECS))
def test_messages_cite_their_spec_file(package: str) -> None:
    found = {str(path.relative_to(ROOT)): bare
             for path in sorted((ROOT / "model" / package).rglob("*.py"))
             if (bare := bare_citations(path.read_text(encoding="utf-8")))}
    assert not found, f"cite as ({SPECS[package]} n): {found}"


def test_the_check_finds_a_bare_citation() -> None:
    source = ('"""A module (7)."""\n'
              'X = 1\n"""Its rule (2)."""\n'
              'def f(n):\n    """A rule (3)."""\n'
              '    raise ValueError(f"{n} tricks, not 10 (1)")\n')
    assert bare_citations(source) == [" tricks, not 10 (1)"]


def test_a_raspasy_deal_without_tricks_cites_russian_md_7() -> None:
    """russian.md 7: a deal nobody declares is raspasy, played by all three."""
    with pytest.raises(ValueError, match=r"needs the tricks of each player \(russian\.md 7\)"):
        RussianDeal.model_validate({"game_id": "g", "deal_no": 1, "dealer": "A"})
