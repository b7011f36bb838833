"""One canonical JSON (records.md 1, STYLE.md practice 6): a record read by its model's
``canonical_reader`` is written by pydantic-core (``canonical_json_read``) as the same text as
``canonical_json`` (the ``json`` module, keys sorted), whatever order its text had."""

from __future__ import annotations

import json
import random
from typing import Annotated, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from model.base import Frozen
from model.identity import canonical_json, canonical_json_read, canonical_reader
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


def _shuffled(value: object, rng: random.Random) -> object:
    """A dumped value with the keys of every dict in a random order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


SHAPES = st.builds(
    Shapes, name=TEXT, count=st.integers(0, 2**70), flag=st.booleans(),
    kind=st.sampled_from(["a", "b"]),
    by_name=st.none() | st.dictionaries(TEXT, st.integers(-5, 5), max_size=4),
    cards=st.none() | st.dictionaries(TEXT, st.tuples(TEXT, TEXT), max_size=3),
    calls=st.none() | st.lists(st.builds(Inner, zeta=TEXT, alpha=st.none() | st.integers()),
                               max_size=3).map(tuple),
    pairs=st.none() | st.lists(st.tuples(TEXT, TEXT), max_size=3).map(tuple),
    one=st.none() | st.builds(Inner, zeta=TEXT),
    numbered=st.none() | st.dictionaries(st.integers(-20, 20), TEXT, max_size=3),
    nested=st.none() | st.dictionaries(TEXT, st.builds(Inner, zeta=TEXT), max_size=2))


@settings(max_examples=300)
@given(SHAPES)
def test_the_two_writers_agree_on_every_shape(record: Shapes) -> None:
    """The canonical text reads back as the same record, written as the same text."""
    read = canonical_reader(Shapes).validate_json(canonical_json(record))
    assert read == record
    assert canonical_json_read(read) == canonical_json(record)


@settings(max_examples=300)
@given(SHAPES, st.randoms(use_true_random=False))
def test_a_text_in_any_key_order_is_written_canonically_or_refused(
        record: Shapes, rng: random.Random) -> None:
    """Keys in any order at every level: the reader either refuses the text (a dict out of
    order) or reads the record the model reads, written as its canonical JSON; so a text is
    written back as itself only when it is canonical."""
    text = json.dumps(_shuffled(json.loads(canonical_json(record)), rng), ensure_ascii=False,
                      separators=(",", ":"))
    try:
        read = canonical_reader(Shapes).validate_json(text)
    except ValueError:
        return
    assert read == Shapes.model_validate_json(text) == record
    assert canonical_json_read(read) == canonical_json(record)


@pytest.mark.parametrize("name", SIMULATED)
def test_the_two_writers_agree_on_simulated_deals(name: str) -> None:
    """Each variant's deal model, on the deals its simulator writes (and with a name that
    needs an escape, which takes the ``json`` module's writer)."""
    v = variant(name)
    reader = canonical_reader(v.deal_model)
    for line in simulated(name)[1]:
        deal = reader.validate_json(line)
        assert deal == v.deal_model.model_validate_json(line)
        assert canonical_json_read(deal) == canonical_json(deal) == \
            "{" + line[len('{"record":"deal",'):]
        fields = json.loads(line)
        escaped = reader.validate_python({**fields, "dealer": fields["dealer"] + '"\\'})
        assert canonical_json_read(escaped) == canonical_json(escaped)
