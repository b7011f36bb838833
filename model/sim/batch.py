"""What a simulated game produces, kept columnar: the canonical records (for JSONL), the rows of
the ``games`` and ``deals`` tables and the variant's flat ``deals_<variant>`` columns
(``model/tables.py``, records.md section 2), built straight from the simulation's ints.

Canonical JSON is the ingest's definition (records.md 1: defaults left out, keys sorted, no
spaces): the simulator writes its records already in that form, so the ``deal_key`` it stores is
the one ingest would compute for the same record.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from model.cards import RANK_LETTERS, SUIT_LETTERS, CardSet

NAME: tuple[str, ...] = tuple(
    RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4] if (c & 15) < 13 else "" for c in range(64)
)
"""Card names by index (``model.cards.format_card`` as a table)."""

SOURCE = "simulated"
"""The ``source`` column of simulated rows."""


_SUIT_NAMES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple(NAME[16 * s + r] for r in range(12, -1, -1) if h >> r & 1)
        for h in range(1 << 13)
    )
    for s in range(4)
)
"""The names of every holding of every suit, highest rank first."""


def names(cards: CardSet) -> list[str]:
    """Card names of a set, highest suit and rank first (as ``model.cards.format_cards``)."""
    return [
        *_SUIT_NAMES[3][(cards >> 48) & 0x1FFF],
        *_SUIT_NAMES[2][(cards >> 32) & 0x1FFF],
        *_SUIT_NAMES[1][(cards >> 16) & 0x1FFF],
        *_SUIT_NAMES[0][cards & 0x1FFF],
    ]


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def canonical(record: dict[str, Any]) -> str:
    """Canonical JSON of a record already holding only non-default fields (``record`` left out,
    as the models' default)."""
    if "record" in record:
        record = {k: v for k, v in record.items() if k != "record"}
    return _ENCODE(record)


def deal_key(game_id: str, text: str) -> str:
    """Content-derived id of a deal: the ingest's ``deal_key`` (STYLE.md practice 6)."""
    return hashlib.sha256(f"{game_id}\x00{text}".encode()).hexdigest()[:32]


@dataclass
class Batch:
    """The output of some games, column by column. ``games`` and ``deals`` hold the columns of
    the tables of the same names; ``flat`` those of the variant's ``deals_<variant>`` table;
    ``lines`` the canonical JSONL lines (only when asked for)."""

    games: dict[str, list[Any]] = field(default_factory=dict)
    deals: dict[str, list[Any]] = field(default_factory=dict)
    flat: dict[str, list[Any]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    n_deals: int = 0

    def add_game(self, variant: str, record: dict[str, Any], rules_json: str) -> None:
        text = canonical(record)
        row = {
            "game_id": record["game_id"], "variant": variant, "players": record["players"],
            "rules": rules_json, "source": SOURCE, "record": text,
        }
        for k, v in row.items():
            self.games.setdefault(k, []).append(v)

    def add_deal(
        self, variant: str, record: dict[str, Any], flat: dict[str, Any], keep_lines: bool
    ) -> None:
        text = canonical(record)
        gid = record["game_id"]
        d = self.deals
        if not d:
            for k in ("game_id", "deal_no", "deal_key", "variant", "dealer", "declarer",
                      "contract", "has_cards", "source", "record"):
                d[k] = []
        d["game_id"].append(gid)
        d["deal_no"].append(record["deal_no"])
        d["deal_key"].append(deal_key(gid, text))
        d["variant"].append(variant)
        d["dealer"].append(record["dealer"])
        d["declarer"].append(record.get("declarer"))
        d["contract"].append(record.get("contract"))
        d["has_cards"].append(True)
        d["source"].append(SOURCE)
        d["record"].append(text)
        f = self.flat
        if not f:
            for k in flat:
                f[k] = []
        for k, v in flat.items():
            f[k].append(v)
        if keep_lines:
            self.lines.append('{"record":"deal",' + text[1:])
        self.n_deals += 1

    def add_game_line(self, record: dict[str, Any]) -> None:
        self.lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))

    def extend(self, other: Batch) -> None:
        for mine, theirs in ((self.games, other.games), (self.deals, other.deals),
                             (self.flat, other.flat)):
            for k, v in theirs.items():
                mine.setdefault(k, []).extend(v)
        self.lines.extend(other.lines)
        self.n_deals += other.n_deals
