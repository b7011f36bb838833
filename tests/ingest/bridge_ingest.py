"""Test helper: read a bridge file and validate every record as the ingest stage does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ingest.source import Issue, Raw
from ingest.validate import Accepted, Validator
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.variant import VARIANTS

_BY_NAME = {v.name: v for v in VARIANTS}


@dataclass
class Ingested:
    games: dict[str, BridgeGame] = field(default_factory=dict)
    deals: list[tuple[BridgeGame, BridgeDeal, Raw]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    raws: int = 0


def validate(items: Iterable[Raw | Issue]) -> Ingested:
    val = Validator(variants=lambda n: _BY_NAME[n])
    out = Ingested()
    for item in items:
        if isinstance(item, Issue):
            out.issues.append(item)
            continue
        out.raws += 1
        acc = val.validate(item)
        if isinstance(acc, Issue):
            out.issues.append(acc)
        elif isinstance(acc, Accepted) and isinstance(acc.record, BridgeDeal):
            assert isinstance(acc.game, BridgeGame)
            out.deals.append((acc.game, acc.record, item))
        elif isinstance(acc.record, BridgeGame):
            out.games[acc.record.game_id] = acc.record
    return out


def ingest(reader: object, path: Path) -> Ingested:
    return validate(reader.read(path))  # type: ignore[attr-defined]
