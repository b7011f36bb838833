"""A call of an auction typed in either case, with spaces around it, is the call as records.md
1.2 writes it (``6S``, ``pass``): every variant's deal model reads it and keeps the grammar's
spelling (``DealBase.spelled_call``, each variant's ``auction.spelled_call``), so two records
that differ only so are one record; a text that is no call of the grammar is kept as given, for
the check to quote."""

from __future__ import annotations

import pytest

from model.identity import canonical_json
from model.variants import REGISTERED, variant

BRIDGE = {"1n": "1NT", " 3nt ": "3NT", "P": "pass", "Pass": "pass", "x": "X", "Dbl": "X",
          "xx": "XX", "R": "XX", "7c": "7C", "pass": "pass", "1S": "1S"}
READ = {
    "greek-prefa": {"6s": "6S", " 7nt ": "7NT", "PASS": "pass", "Hold": "hold", "TAKE": "take",
                    "10h": "10H", "6S": "6S", "pass": "pass"},
    "russian": {"6s": "6S", "10nt": "10NT", " Pass ": "pass", "MISERE": "misere",
                "Misère": "misere", "6S": "6S", "misere": "misere"},
    "balkan": {"g3": "G3", " PASS ": "pass", "Here": "here", "IGRA": "igra", "Betl": "betl",
               "SANS": "sans", " 5 ": "5", "G3": "G3", "pass": "pass"},
    "swabian": {"PASS": "pass", "Hold": "hold", "HAND5": "hand5", " 4 ": "4", "hand5": "hand5"},
    "bridge-rubber": BRIDGE,
    "bridge-duplicate": BRIDGE,
}
"""Each variant's calls as a scorer may type them, and as its records write them."""

KEPT = {
    "greek-prefa": ["6ſ", "6x", "11S", "yes"],
    "russian": ["6ſ", "5S", "whist"],
    "balkan": ["g9", "gg3", "1", "moje"],
    "swabian": ["8", "hand9", "contra"],
    "bridge-rubber": ["8S", "1ſ", "2 S"],
    "bridge-duplicate": ["0S", "XXX"],
}
"""Texts that are no call of the variant's grammar: kept as given (stripped of the spaces
around them), for the check to quote (``ſ`` is no ``s``)."""


def test_every_variant_is_listed() -> None:
    assert set(READ) == set(KEPT) == {v.name for v in REGISTERED}


@pytest.mark.parametrize("name", sorted(READ))
def test_a_call_in_any_case_is_stored_as_the_records_write_it(name: str) -> None:
    model = variant(name).deal_model
    for typed, written in READ[name].items():
        assert model.spelled_call(typed) == written, (typed, written)


@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_text_that_is_no_call_is_kept_as_given(name: str) -> None:
    model = variant(name).deal_model
    for typed in KEPT[name]:
        assert model.spelled_call(typed) == typed


@pytest.mark.parametrize("name", sorted(READ))
def test_a_record_with_calls_respelt_is_the_same_record(name: str) -> None:
    """The auction of a deal record (model validation, as every reader and Entry validate): a
    record whose calls differ only in case and spaces has the canonical JSON of the record
    written as records.md 1.2 writes them; one already so written is kept as read."""
    model = variant(name).deal_model
    players = ["Ana", "Ben", "Cy", "Dan"]
    typed = [{"player": players[i % 4], "call": c} for i, c in enumerate(READ[name])]
    written = [{"player": players[i % 4], "call": c} for i, c in enumerate(READ[name].values())]
    base = {"game_id": "g/1", "deal_no": 1, "dealer": "Ana"}
    if name == "russian":  # a deal nobody declared is raspasy: everyone's tricks
        base["tricks"] = {"Ana": 4, "Ben": 3, "Cy": 3}
    a = model.model_validate({**base, "auction": typed})
    b = model.model_validate({**base, "auction": written})
    assert canonical_json(a) == canonical_json(b)
    assert [c.call for c in a.auction or ()] == list(READ[name].values())
