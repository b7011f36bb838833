"""What a simulated game produces, kept columnar: the canonical records (for JSONL), the rows of
the ``games`` and ``deals`` tables and the variant's flat ``deals_<variant>`` columns
(``model/tables.py``, records.md section 2), built straight from the simulation's ints.

Canonical JSON is the ingest's definition (records.md 1: defaults left out, keys sorted, no
spaces): the simulator writes its records already in that form, so the ``deal_key`` it stores is
the one ingest would compute for the same record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from model import tables as T
from model.cards import RANK_LETTERS, SUIT_LETTERS, CardSet
from model.identity import canonical as canonical_json_of
from model.identity import deal_key

NAME: tuple[str, ...] = tuple(
    RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4] if (c & 15) < 13 else "" for c in range(64)
)
"""Card names by index (``model.cards.format_card`` as a table)."""

SOURCE = T.SIMULATED
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


_SUIT_JSON: tuple[tuple[str, ...], ...] = tuple(
    tuple("".join(f'"{n}",' for n in _SUIT_NAMES[s][h]) for h in range(1 << 13)) for s in range(4)
)
"""Every holding of every suit as JSON strings, highest rank first, each with a comma after it
(``"AH","KH",``)."""

CARD_JSON: tuple[str, ...] = tuple(f'"{n}"' for n in NAME)


def cards_json(cards: CardSet) -> str:
    """The JSON array of :func:`names` (``["AH","KH","7S"]``), built from tables."""
    text = (_SUIT_JSON[3][(cards >> 48) & 0x1FFF] + _SUIT_JSON[2][(cards >> 32) & 0x1FFF]
            + _SUIT_JSON[1][(cards >> 16) & 0x1FFF] + _SUIT_JSON[0][cards & 0x1FFF])
    return "[" + text[:-1] + "]"


def jstr(text: str) -> str:
    """A JSON string literal as the canonical encoder writes it."""
    return json.dumps(text, ensure_ascii=False)


def obj(pairs: list[tuple[str, str]]) -> str:
    """A JSON object from ``(key, encoded value)`` pairs, keys sorted, no spaces: the canonical
    form (records.md 1) of a record whose values are already encoded (keys are plain names)."""
    pairs.sort()
    return "{" + ",".join([f'"{k}":{v}' for k, v in pairs]) + "}"


def canonical(record: dict[str, Any]) -> str:
    """Canonical JSON of a record already holding only non-default fields (``record`` left out,
    as the models' default)."""
    if "record" in record:
        record = {k: v for k, v in record.items() if k != "record"}
    return canonical_json_of(record)


DEAL_COLUMNS = ("game_id", "deal_no", "deal_key", "variant", "dealer", "declarer", "contract",
                "has_cards", "source", "record")
"""The ``deals`` table's columns a batch fills (``model/tables.py``)."""


class Batch:
    """The output of some games, column by column. ``games`` and ``deals`` hold the columns of
    the tables of the same names; ``flat`` those of the variant's ``deals_<variant>`` table;
    ``lines`` the canonical JSONL lines (only when asked for). Deals are kept as rows while
    they are added and turned into columns (one transpose) when ``deals`` or ``flat`` is read."""

    def __init__(self) -> None:
        self.games: dict[str, list[Any]] = {}
        self.lines: list[str] = []
        self.n_deals = 0
        self._deals: dict[str, list[Any]] = {}
        self._flat: dict[str, list[Any]] = {}
        self._deal_rows: list[tuple[Any, ...]] = []
        self._flat_rows: list[tuple[Any, ...]] = []
        self._flat_keys: tuple[str, ...] = ()

    def _columns(self) -> None:
        if self._deal_rows:
            for k, col in zip(DEAL_COLUMNS, zip(*self._deal_rows, strict=True), strict=True):
                self._deals.setdefault(k, []).extend(col)
            for k, col in zip(self._flat_keys, zip(*self._flat_rows, strict=True), strict=True):
                self._flat.setdefault(k, []).extend(col)
            self._deal_rows, self._flat_rows = [], []

    @property
    def deals(self) -> dict[str, list[Any]]:
        self._columns()
        return self._deals

    @property
    def flat(self) -> dict[str, list[Any]]:
        self._columns()
        return self._flat

    def __getstate__(self) -> dict[str, Any]:
        self._columns()  # a batch travels between processes as columns
        return self.__dict__

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def start_game(
        self,
        variant: str,
        game_id: str,
        players: Sequence[str],
        rules_record: dict[str, Any] | None,
        rules_json: str,
        keep_line: bool,
    ) -> None:
        """A simulated game's line (records.md 1.1): stored, and kept as JSONL when asked."""
        record: dict[str, Any] = {"record": "game", "game_id": game_id, "variant": variant,
                                  "players": list(players)}
        if rules_record:
            record["rules"] = rules_record
        self.add_game(variant, record, rules_json)
        if keep_line:
            self.add_game_line(record)

    def add_game(self, variant: str, record: dict[str, Any], rules_json: str) -> None:
        text = canonical(record)
        row = {
            "game_id": record["game_id"], "variant": variant, "players": record["players"],
            "rules": rules_json, "source": SOURCE, "record": text,
        }
        for k, v in row.items():
            self.games.setdefault(k, []).append(v)

    def add_deal_text(
        self, variant: str, text: str, gid: str, deal_no: int, dealer: str,
        declarer: str | None, contract: str | None, flat: dict[str, Any], keep_lines: bool,
    ) -> None:
        """A deal already in canonical JSON (``text``, built by the driver with :func:`obj`):
        no dict and no encoder per record."""
        key = deal_key(gid, text)
        self._deal_rows.append(
            (gid, deal_no, key, variant, dealer, declarer, contract, True, SOURCE, text)
        )
        if not self._flat_keys:
            self._flat_keys = tuple(flat)
        self._flat_rows.append(tuple(flat.values()))
        if keep_lines:
            self.lines.append('{"record":"deal",' + text[1:])
        self.n_deals += 1

    def add_game_line(self, record: dict[str, Any]) -> None:
        self.lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))

    def extend(self, other: Batch) -> None:
        self._columns()
        for mine, theirs in ((self.games, other.games), (self._deals, other.deals),
                             (self._flat, other.flat)):
            for k, v in theirs.items():
                mine.setdefault(k, []).extend(v)
        self.lines.extend(other.lines)
        self.n_deals += other.n_deals

    def keep(self, kept: Sequence[bool]) -> Batch:
        """A batch with the deals whose ``kept`` entry is true (one per deal, in order), every
        game, and the JSONL lines of both (a game's line is followed by its deals' lines)."""
        self._columns()
        out = Batch()
        out.games = self.games
        out._deals = {k: [x for x, keep in zip(v, kept, strict=True) if keep]
                      for k, v in self._deals.items()}
        out._flat = {k: [x for x, keep in zip(v, kept, strict=True) if keep]
                     for k, v in self._flat.items()}
        out.n_deals = sum(kept)
        if self.lines:
            deal_at = iter(kept)
            out.lines = [line for line in self.lines
                         if line.startswith(GAME_LINE) or next(deal_at)]
        return out


GAME_LINE = '{"record":"game"'
"""How a game's JSONL line starts (``add_game_line``; a deal's starts ``{"record":"deal"``)."""
