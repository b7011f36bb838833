"""A contract's letters in either case and spaces around it say the same contract wherever a
game's contract grammar is unambiguous (records.md 1.2: ``6s`` is the ``6S`` the grammar
writes): every variant's deal model reads them and keeps the grammar's spelling, so a record
written so is the record it was, and one typed otherwise is stored as the grammar writes it
(``model/base.py`` ``spelled(any_case=True)``; Russian ``misère`` too, ``model/russian``)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from model.variants import REGISTERED, variant

READ = {
    "greek-prefa": {"6s": "6S", " 7nt ": "7NT", "10Nt": "10NT", "8h": "8H", "6S": "6S"},
    "russian": {"6s": "6S", " 7nt ": "7NT", "10nt": "10NT", "MISERE": "misere",
                " misère ": "misere", "6S": "6S"},
    "balkan": {"g3": "G3", " 2 ": "2", "G7": "G7", "5": "5"},
    "swabian": {" 5 ": "5", "2": "2"},
    "bridge-rubber": {"4s": "4S", "3nt": "3NT", "4sx": "4SX", "6hXx": "6HXX", " 7NT ": "7NT",
                      "1C": "1C"},
    "bridge-duplicate": {"4s": "4S", "3nt": "3NT", "2dx": "2DX", " 7nt ": "7NT", "1C": "1C"},
}
"""Each variant's contracts as a scorer may type them, and as its records write them."""

REFUSED = {
    "greek-prefa": ["6 s", "6ſ", "6x", "11s", "6♠"],
    "russian": ["6 s", "6ſ", "misere!", "5s"],
    "balkan": ["g 3", "g9", "gg3", "1"],
    "swabian": ["8", "5s"],
    "bridge-rubber": ["4s x", "4sxxx", "8s", "4K"],
    "bridge-duplicate": ["3 nt", "0s", "4ſ"],
}
"""Texts that are still no contract: a space inside, a letter only Unicode folds to one of the
grammar's (``ſ``, the Kelvin sign ``K``), a level off the ladder, a suit symbol (the Entry page
reads ``♠`` as ``S`` before the model sees it)."""


def _contract(name: str) -> TypeAdapter[str | None]:
    return TypeAdapter(variant(name).deal_model.model_fields["contract"].annotation)


def test_every_variant_is_covered() -> None:
    assert set(READ) == set(REFUSED) == {v.name for v in REGISTERED}


@pytest.mark.parametrize("name", READ)
def test_a_contract_is_read_in_any_case_and_kept_as_the_grammar_writes_it(name: str) -> None:
    contract = _contract(name)
    for typed, stored in READ[name].items():
        assert contract.validate_python(typed) == stored, (name, typed)


@pytest.mark.parametrize("name", REFUSED)
def test_what_is_no_contract_in_any_case_is_still_refused(name: str) -> None:
    contract = _contract(name)
    for typed in REFUSED[name]:
        with pytest.raises(ValidationError):
            contract.validate_python(typed)
