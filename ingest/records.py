"""The records of every reader but the JSON Lines fast path, to the columnar path in batches.

A PBN, LIN, PPN, CSV, traveller or DDS reader (or a small JSON Lines file) hands over records one
at a time; :class:`Records` holds a batch of them and gives the outcome of validating them one by
one (the reference, ``ingest/validate.py``), with the deals the columnar path takes
(``ingest/columnar.py``: the variant's model deal by deal, its rules and rows for the whole
batch) handed over as frames, as the JSON Lines paths hand theirs:

- a game record, an issue of the reader and a deal whose game is unknown are judged by the
  reference as they arrive, so each sees the games of the records before it and no other;
- the other deals (those a reader repaired too: their repairs are recorded with the deal
  stored, :meth:`Records.repaired`) are left for the batch's end, each with the game it saw:
  there they are read by their variant's model (``columnar.read_record``) and judged together
  (``columnar.judge``). Those the columnar path does not take go to the reference. So do those
  whose game gets a game record later in the batch (judged before it: it may supersede their
  game), and, so that record order decides between them as it does one by one, a (game, deal
  number) that two of the deals taken hold, or that a deal the reference accepted in the batch
  holds.

A batch with fewer than :data:`COLUMNAR_FROM` such deals is judged by the reference alone (the
columnar path's fixed costs would outweigh what it saves).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from ingest import columnar
from ingest.sheets import Taken
from ingest.source import Issue, Raw
from ingest.validate import Accepted, Validator
from model.base import DealBase

COLUMNAR_FROM = 64
"""The fewest deals of a batch the columnar path judges."""

Verdict = Accepted | Issue | None
"""The reference's verdict on a record, or ``None`` for a deal the columnar path took."""


class Records:
    """A batch of a reader's records, in the order read."""

    def __init__(self, validator: Validator) -> None:
        self.validator = validator
        self.items: list[Raw | Issue] = []
        self.verdicts: list[Verdict] = []
        self.left: dict[int, str] = {}
        """The deals left to the columnar path (by position in the batch), with their game."""
        self.waiting: dict[str, list[int]] = {}
        """Their positions by game id."""

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item: Raw | Issue) -> None:
        """One record, judged by the reference at once or left to the columnar path."""
        k = len(self.items)
        self.items.append(item)
        self.verdicts.append(None)
        if isinstance(item, Issue):
            self.verdicts[k] = item
            return
        data = item.data
        gid = data.get("game_id")
        if not isinstance(gid, str) or not gid:  # the reference says why
            pass
        elif data.get("record") == "game":
            for j in self.waiting.pop(gid, ()):  # before a game record that may replace their game
                self._judged(j)
        elif data.get("record") == "deal" and self.validator.known_game(gid) is not None:
            self.left[k] = gid
            self.waiting.setdefault(gid, []).append(k)
            return
        self._judged(k)

    def _judged(self, k: int) -> None:
        """The reference's verdict on record ``k``."""
        self.left.pop(k, None)
        self.verdicts[k] = self.validator.validate(self.item(k))

    def item(self, k: int) -> Raw:
        item = self.items[k]
        assert isinstance(item, Raw)
        return item

    def repaired(self) -> dict[int, Raw]:
        """After :meth:`outcome`: the deals it took that a reader repaired, by position."""
        return {k: raw for k in self.left if (raw := self.item(k)).repairs}

    def outcome(self) -> tuple[Sequence[Verdict], Taken, Sequence[str]]:
        """The verdict on each record in order (``None`` for a deal taken), the deals the
        columnar path took (``idx``: their position in the batch, ``line``: their line), and the
        records' texts by position."""
        taken = Taken.empty()
        if len(self.left) >= COLUMNAR_FROM:  # each deal's game is the one it saw when read
            reads = (columnar.read_record(self.validator, k, self.item(k).data)
                     for k in self.left)
            taken = columnar.judge(read for read in reads if read is not None)
            taken = taken.filter(~pl.struct("game_id", "deal_no").is_duplicated())
        kept = set(taken.deals["idx"].to_list())
        for k in [k for k in self.left if k not in kept]:
            self._judged(k)
        accepted = {(d.game_id, d.deal_no) for v in self.verdicts
                    if isinstance(v, Accepted) and isinstance(d := v.record, DealBase)}
        if accepted and len(taken):
            ids = zip(taken.deals["game_id"].to_list(), taken.deals["deal_no"].to_list(),
                      strict=True)
            clash = [k for k, at in zip(taken.deals["idx"].to_list(), ids, strict=True)
                     if at in accepted]
            for k in clash:
                self._judged(k)
            taken = taken.filter(~pl.col("idx").is_in(clash))
        lines = pl.Series("line", [self.items[k].line for k in taken.deals["idx"].to_list()],
                          dtype=pl.Int32)
        texts = [it.text if isinstance(it, Raw) else it.raw for it in self.items]
        return self.verdicts, Taken(taken.deals.with_columns(lines), taken.rows), texts
