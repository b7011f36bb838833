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
import threading
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic_core import SchemaValidator

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


def canonical_reader(model: type[BaseModel]) -> SchemaValidator:
    """A validator of ``model`` whose records the model's own serializer writes canonically
    (:func:`canonical_json_read`), derived once from the model's core schema: the fields of
    every model in it are read in canonical (sorted) order, so pydantic-core builds each
    record's fields in that order and writes them so; a dict whose keys are not in canonical
    order is refused (``ValidationError``) rather than sorted, so a text it reads has its dicts'
    keys in canonical order. Everything else (types, constraints, validators) is the model's."""
    return _canonical_reader(model)


@cache
def _canonical_reader(model: type[BaseModel]) -> SchemaValidator:
    schema = model.__pydantic_core_schema__
    classes = _models(schema, set())
    # pydantic-core reuses a finished model's own validator for a model of the schema (whose
    # fields keep the model's order); a model marked unfinished is built anew from the schema
    with _BUILDING:  # one reader built at a time: each restores the marks it found
        finished = {c: c.__dict__.get("__pydantic_complete__") for c in classes}
        try:
            for c in classes:
                type.__setattr__(c, "__pydantic_complete__", False)
            return SchemaValidator(_in_canonical_order(schema))
        finally:
            for c, was in finished.items():
                type.__setattr__(c, "__pydantic_complete__", was)


_BUILDING = threading.Lock()


def canonical_json_read(record: BaseModel) -> str:
    """:func:`canonical_json` of a record read by :func:`canonical_reader` of its model,
    written by pydantic-core in one pass (defaults left out). Where the text needs an escape (a
    quote, a backslash, a control character) pydantic-core and the ``json`` module may spell it
    differently, so such a record is written by :func:`canonical_json`; otherwise the bytes are
    the same (``tests/model/test_identity.py``)."""
    text = record.__pydantic_serializer__.to_json(record, exclude_defaults=True).decode()
    return canonical_json(record) if "\\" in text else text


def _models(node: Any, found: set[type]) -> set[type]:
    """The model classes of a core schema."""
    if isinstance(node, dict):
        if node.get("type") == "model":
            found.add(node["cls"])
        for value in node.values():
            _models(value, found)
    elif isinstance(node, list):
        for value in node:
            _models(value, found)
    return found


def _in_canonical_order(node: Any) -> Any:
    """A copy of a core schema with every model's fields in sorted order and every dict's keys
    required to be in sorted order (:func:`_keys_in_order`)."""
    if isinstance(node, list):
        return [_in_canonical_order(value) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: _in_canonical_order(value) for key, value in node.items()}
    if out.get("type") == "model-fields":
        out["fields"] = dict(sorted(out["fields"].items()))
    elif out.get("type") == "dict":
        return {"type": "function-after", "schema": out,
                "function": {"type": "no-info", "function": _keys_in_order}}
    return out


def _keys_in_order(value: dict[Any, Any]) -> dict[Any, Any]:
    """A dict read in canonical key order (its keys' JSON text sorted, as :func:`canonical`
    writes a dumped dict of text or number keys), else refused."""
    keys = list(value)
    try:  # text keys (the usual case) compare as they are
        if keys == sorted(keys) and (not keys or isinstance(keys[0], str)):
            return value
    except TypeError:  # text and numbers
        pass
    texts = [k if isinstance(k, str) else str(k) for k in keys]
    if texts != sorted(texts):
        raise ValueError("keys not in canonical (sorted) order")
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


def deal_keys(game_ids: Iterable[str], canonicals: Iterable[str]) -> list[str]:
    """:func:`deal_key` of many deals, given as a column of game ids and one of canonical JSON.

    >>> deal_keys(["g1"], ['{"deal_no":1}']) == [deal_key("g1", '{"deal_no":1}')]
    True
    """
    sha256 = hashlib.sha256
    return [sha256(f"{g}\x00{c}".encode()).hexdigest()[:KEY_LENGTH]
            for g, c in zip(game_ids, canonicals, strict=True)]
