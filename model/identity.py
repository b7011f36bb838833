"""A record's identity (records.md 1, STYLE.md practice 6): its canonical JSON and, for a deal, the
content-derived ``deal_key``. Every path that stores a record (the per-record validation, the fast
paths, the simulator) takes them from here.

    >>> canonical({"b": 1, "a": "Ä"})
    '{"a":"Ä","b":1}'
    >>> deal_key("g1", '{"deal_no":1}') == finish_key(key_prefix("g1"), b'{"deal_no":1}')
    True
"""

from __future__ import annotations

import hashlib
import json
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from typing import Annotated, Any, Literal, Union, cast

from pydantic import BaseModel
from pydantic_core import to_json

KEY_LENGTH = 32
"""Hex digits of a ``deal_key`` (the first 128 bits of a SHA-256)."""

_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def canonical(data: Mapping[str, Any]) -> str:
    """Canonical JSON of a record's fields: keys sorted, no spaces, text as it is (not escaped)."""
    return _ENCODE(data)


def canonical_json(record: BaseModel) -> str:
    """The canonical JSON of a record: defaults left out, keys sorted, no spaces.

    Two records with the same meaning (``"four_aces": false`` written or omitted, names with
    surrounding spaces, keys in another order) have the same canonical JSON."""
    return canonical(record.model_dump(mode="json", exclude_defaults=True))


Order = Callable[[Any], Any]
"""Puts the keys of a dumped value in canonical (sorted) order, nested values included."""


def canonical_json_of(record: BaseModel) -> str:
    """:func:`canonical_json`, written by pydantic-core instead of the ``json`` module: the dump
    is put in key order by a plan derived once from the record's model (:func:`_order`), then
    encoded. Where the text needs an escape (a quote, a backslash, a control character) the two
    encoders may spell it differently, so such a record is written by :func:`canonical_json`;
    otherwise the bytes are the same (``tests/model/test_identity.py``)."""
    dumped = record.model_dump(mode="json", exclude_defaults=True)
    text = to_json(_order(type(record))(dumped)).decode()
    return canonical_json(record) if "\\" in text else text


@cache
def _order(annotation: Any) -> Order:
    """How to put a dumped value of type ``annotation`` in canonical key order: models and
    dicts by sorted key, sequences item by item; a value without keys inside stays as it is."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields = sorted(annotation.model_fields.items())
        named = tuple((name, _order(cast(Hashable, f.annotation))) for name, f in fields)
        return lambda d: {name: d[name] if plan is _same or d[name] is None else plan(d[name])
                          for name, plan in named if name in d}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        return _order(args[0])
    if origin in (Union, types.UnionType):
        plans = {_order(a) for a in args if a is not type(None)}
        return plans.pop() if len(plans) == 1 else _sorted_everywhere
    if origin is dict:
        inner = _order(args[1])
        if inner is _same:
            return lambda d: dict(sorted(d.items()))
        return lambda d: {k: inner(d[k]) for k in sorted(d)}
    if origin in (tuple, list) and args:
        plans = {_order(a) for a in args if a is not Ellipsis}
        if plans == {_same}:
            return _same
        item = plans.pop() if len(plans) == 1 else _sorted_everywhere
        return lambda xs: [item(x) for x in xs]
    if origin is Literal or (origin is None and _plain(annotation)):
        return _same
    return _sorted_everywhere


def _plain(annotation: Any) -> bool:
    """A type whose dumped value holds no keys."""
    return annotation in (str, int, bool, float, type(None), Any) or (
        isinstance(annotation, type) and not issubclass(annotation, dict | list | tuple))


def _same(value: Any) -> Any:
    return value


def _sorted_everywhere(value: Any) -> Any:
    """Any dumped value with every dict's keys sorted (for types the plan does not know)."""
    if isinstance(value, dict):
        return {k: _sorted_everywhere(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_everywhere(v) for v in value]
    return value


def key_prefix(game_id: str) -> Any:
    """The hash of a deal key's game part, to be copied and finished per deal
    (:func:`finish_key`) when many deals of one game are keyed."""
    return hashlib.sha256(game_id.encode() + b"\0")


def finish_key(prefix: Any, canonical_bytes: bytes | memoryview) -> str:
    h = prefix.copy()
    h.update(canonical_bytes)
    return str(h.hexdigest()[:KEY_LENGTH])


def deal_key(game_id: str, canonical: str) -> str:
    """Content-derived id of a deal: the hash of its game and its canonical JSON."""
    return hashlib.sha256(f"{game_id}\x00{canonical}".encode()).hexdigest()[:KEY_LENGTH]
