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
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

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
