"""One canonical JSON (records.md 1, STYLE.md practice 6): ``canonical_json_of`` (pydantic-core's
encoder, keys put in order by a plan derived from the model) writes the same text as
``canonical_json`` (the ``json`` module, keys sorted) for every record."""

from __future__ import annotations

import json
from typing import Annotated, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from model.base import Frozen
from model.identity import canonical_json, canonical_json_of
from model.variants import variant
from sim.drivers import SIMULATED
from tests.ingest.test_columnar import simulated


class Inner(Frozen):
    zeta: str
    alpha: int | None = None


class Shapes(Frozen):
    """Every shape a record's fields take: text, numbers, flags, literals, dicts of values and of
    sequences, sequences of models and of pairs, optional models, defaults."""

    name: str
    count: Annotated[int, Field(ge=0)] = 0
    flag: bool = False
    kind: Literal["a", "b"] = "a"
    by_name: dict[str, int] | None = None
    cards: dict[str, tuple[str, ...]] | None = None
    calls: tuple[Inner, ...] | None = None
    pairs: tuple[tuple[str, str], ...] | None = None
    one: Inner | None = None
    numbered: dict[int, str] | None = None
    nested: dict[str, Inner] | None = None


TEXT = st.text(max_size=6)
"""Any text: quotes, backslashes, control characters, non-ASCII."""


@settings(max_examples=300)
@given(st.builds(
    Shapes, name=TEXT, count=st.integers(0, 2**70), flag=st.booleans(),
    kind=st.sampled_from(["a", "b"]),
    by_name=st.none() | st.dictionaries(TEXT, st.integers(-5, 5), max_size=4),
    cards=st.none() | st.dictionaries(TEXT, st.tuples(TEXT, TEXT), max_size=3),
    calls=st.none() | st.lists(st.builds(Inner, zeta=TEXT, alpha=st.none() | st.integers()),
                               max_size=3).map(tuple),
    pairs=st.none() | st.lists(st.tuples(TEXT, TEXT), max_size=3).map(tuple),
    one=st.none() | st.builds(Inner, zeta=TEXT),
    numbered=st.none() | st.dictionaries(st.integers(-20, 20), TEXT, max_size=3),
    nested=st.none() | st.dictionaries(TEXT, st.builds(Inner, zeta=TEXT), max_size=2)))
def test_the_two_writers_agree_on_every_shape(record: Shapes) -> None:
    assert canonical_json_of(record) == canonical_json(record)


@pytest.mark.parametrize("name", SIMULATED)
def test_the_two_writers_agree_on_simulated_deals(name: str) -> None:
    """Each variant's deal model, on the deals its simulator writes (and with a name that
    needs an escape, which takes the ``json`` module's writer)."""
    v = variant(name)
    for line in simulated(name)[1]:
        deal = v.deal_model.model_validate_json(line)
        assert canonical_json_of(deal) == canonical_json(deal) == \
            "{" + line[len('{"record":"deal",'):]
        fields = json.loads(line)
        escaped = v.deal_model.model_validate({**fields, "dealer": fields["dealer"] + '"\\'})
        assert canonical_json_of(escaped) == canonical_json(escaped)
