"""Ingest: files -> readers -> validation -> DuckDB -> rescoring (``docs/ingest.md``).

Each file is stored in one DuckDB transaction: its games, deals, the variant's ``deals_<variant>``
rows, its quarantine rows (replacing the file's earlier ones) and its ``ingest_log`` row. A file
already logged with the same sha256 changes nothing. Every input record ends exactly once as
stored, duplicate or quarantined (records.md section 2). Records stream through in batches, so
memory stays flat whatever the file's size. After each file the caller's ``score`` settles the
games it touched.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import os
from collections import ChainMap, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
from pydantic import BaseModel

from ingest import columnar, sheets, store
from ingest import text as text_codec
from ingest.csv_sheet import sidecar_of
from ingest.formats import (
    SHEET_SUFFIXES,
    broken_link,
    empty,
    expand,
    found_to_read,
    hidden,
    is_dir,
    is_file,
    no_reader,
    not_a_file,
    not_text,
    reader_for,
    unreadable,
)
from ingest.jsonl import JsonlReader, parse_line
from ingest.lines import Item, Run, holding
from ingest.records import Records
from ingest.source import Issue, Raw, Reader
from ingest.validate import (
    NEVER,
    Accepted,
    GameVerdicts,
    StoredGame,
    Validator,
    VariantLookup,
    game_issues,
)
from ingest.versions import (
    CONFLICTS,
    Unread,
    Versions,
    clear_replaced_quarantine,
    in_part,
    put_back,
    replaced_by,
)
from model import tables as T
from model import variants as registry
from model.base import DealBase, GameBase
from model.problems import Code
from model.variant import Variant
from scoring.store import GamesNotScored

BATCH = 50_000
"""Records validated between two bulk inserts (memory stays flat at any file size)."""
BATCH_CHARS = 32 << 20
"""Characters of record text validated between two bulk inserts, at most: a batch of deals with
hands and play (about 1 KiB of text each) is cut short, so their memory stays bounded too. 32 MiB
(about 30,000 such deals): each batch has fixed costs (its games, look-ups, frames, threads, about
0.02 s); the 20,000-deal benchmark file ran at a median 46k deals/s in batches of 8 MiB and 56k
in one batch of 32 MiB (docs/ingest.md "Speed"), and peaks at
55 MiB of Python heap in one batch. Score-sheet files reach ``BATCH`` first."""
BATCH_CARDS = 5_000
"""Records with cards (hands or play) that a reader builds (PBN, LIN, PPN ...) between two bulk
inserts, at most: such a record is a mapping with its hands, auction and play, about 20 KiB of
Python objects for a bridge deal against some 500 characters of PBN text, so a batch cut by
:data:`BATCH_CHARS` alone held 1.2 GiB for a 25 MB PBN file (about 100 MiB now)."""
PROGRESS_EVERY = 2_000
"""Records between two progress reports on the reference path (the fast path reports per batch)."""
CARDS = frozenset({"hands", "play"})
"""The fields that make a record one with cards (:data:`BATCH_CARDS`)."""
LOOKUP_EVERY = 2_000
"""Records of a reader (other than JSON Lines) whose games are looked up in one query."""
FAST_FROM = 64 << 10
"""Bytes from which a JSON Lines file goes through the fast paths (``fast``); a smaller one is
read by the reference alone, with the same outcome (the fast paths are held to the reference's
tables, docs/ingest.md "The fast path"). Their fixed costs per batch (frames, shapes, a
relation or two, about 10 ms of CPU) outweigh what they save on a small file: 50 one-game
sample files (about 12 lines each) took about 29 ms each with them and 17 ms without; files of
Greek deals with cards and play were about even at 60 deals (67 KB) and quicker with them from
100 (110 KB); score-sheet files from about 200 KB."""
PROBE_SCHEMA = {"game_id": pl.String(), "deal_no": pl.Int32()}
"""The ids of the deals whose stored keys a batch looks up (:meth:`_FileLoad._known_keys`)."""
KEEP_ISSUES = 100
"""Issues kept in a ``FileReport`` (all of them are in the ``quarantine`` table)."""
Stager = Callable[[duckdb.DuckDBPyConnection], store.Staging]
"""Makes a file's staging (``store.Staging``, or a subclass of it)."""


class StrictError(Exception):
    """Strict mode met a problem: the file's transaction is rolled back."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(str(issue))
        self.issue = issue
        self.stored: list[FileReport] = []
        """The reports of the run's files before it, each committed (``ingest_paths``)."""


class Interrupted(KeyboardInterrupt):
    """A second Ctrl-C (or one DuckDB met inside a statement) ended :func:`ingest_paths`. What
    it says is read from the database once the open transaction is rolled back, so that it is
    true whichever step the stop came in: ``rolled_back``, the files in progress it does not
    hold (the file being read, with the small files of its group); ``stored``, those it holds
    (committed before the stop, or being settled: their games are left pending, for the next
    ingest or ``trickbook score``); ``unsure``, those it could not be asked about; ``before``,
    the files committed earlier in the run."""

    def __init__(self, rolled_back: list[str], stored: list[str], unsure: list[str],
                 before: int) -> None:
        super().__init__()
        self.rolled_back, self.stored, self.unsure = rolled_back, stored, unsure
        self.before = before


@dataclass
class FileReport:
    source: str
    reader: str | None = None
    sha256: str | None = None
    records: int = 0
    stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    """Records quarantined: ``records = stored + duplicates + quarantined``."""
    file_issues: int = 0
    """Issues of the file, not of a record (``Issue.of_file``): quarantined and reported, not
    counted in ``records`` nor ``quarantined``."""
    conflicts: int = 0
    """Of the quarantined, the records in conflict with stored ones (``game-conflict``,
    ``deal-conflict``)."""
    skipped: str | None = None
    """Why nothing was read: ``unchanged`` (its latest ingest had this sha256), ``same content
    as <source>`` (a copy of a file already ingested), ``no reader``, ``missing``,
    ``unreadable: <reason>`` (a file or folder without permission to read it)."""
    issues: list[Issue] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    """Games touched (a stored game line or deal)."""
    score_error: str | None = None
    """Rescoring failed (a settlement bug): the data is stored and the games stay pending."""
    replaced: int = 0
    """Game lines and deals of an earlier version of this source superseded (``replace``;
    counted as stored)."""
    dropped: int = 0
    """Deals an earlier version of this source stored that this one does not hold: removed
    with ``replace``, else conflicts (``ingest/versions.py``; no records of this file, so not
    counted in ``quarantined``)."""
    repaired: int = 0
    """Of the deals stored or duplicates, those a reader repaired as it read them (each repair
    in the ``repairs`` table: a PBN file's defects, docs/bridge.md)."""
    removed: bool = False
    """The ``dropped`` deals were removed (``replace``, and no record of this version was left
    unread); else they are kept, as conflicts."""
    withheld: int = 0
    """Of the conflicts, the game lines and deals that change what an earlier version of this
    source stored, kept out because it was read without ``replace`` (which takes them)."""
    earlier_files: list[str] = field(default_factory=list)
    """Files of its name in other places read as its earlier versions: it holds their games
    (``ingest.versions.Versions.adopt``)."""
    replaced_by: str | None = None
    """The file of its name whose version replaced this content since it was last read
    (``ingest.versions.replaced_by``): skipped, the file it can be put back over (named and
    read with ``replace``); read with ``replace``, the file it was put back over."""
    failed: str | None = None
    """The file could not be stored (a full disk, a lost database, a bug): its transaction was
    rolled back, nothing of it is stored, and the files after it are read all the same."""
    error: BaseException | None = field(default=None, repr=False, compare=False)
    """The exception behind ``failed`` (``trickbook --debug`` prints its traceback)."""
    new_source: bool = field(default=False, repr=False, compare=False)
    """No version of the source was logged when the file was checked (``precheck``): it has
    no quarantine rows to clear, no earlier version and no log row to update."""

    def in_part(self) -> str:
        """What this version left as its earlier version has it (``ingest.versions.in_part``):
        its new records stored and its changes not; empty when it left nothing so."""
        return in_part(self.stored, self.withheld, 0 if self.removed else self.dropped,
                       self.quarantined - self.conflicts)

    def logged(self, at: datetime) -> dict[str, object]:
        """Its row of ``ingest_log`` (``store.log_ingest``): what it read, stored, found again
        and quarantined, at ``at``."""
        return {"source": self.source, "sha256": self.sha256, "records": self.records,
                "stored": self.stored, "duplicates": self.duplicates,
                "quarantined": self.quarantined, "ingested_at": at}


@dataclass(frozen=True, slots=True)
class Progress:
    source: str
    file_no: int
    files: int
    done_bytes: int
    total_bytes: int
    records: int


ProgressFn = Callable[[Progress], None]
ScoreFn = Callable[[duckdb.DuckDBPyConnection], object]
"""Settles the pending games of a connection (``scoring.store.score_pending``)."""


def file_sha256(path: Path) -> str:
    """The version of the file at ``path``: the sha256 of its bytes, and for a score sheet
    with a sidecar (``<sheet>.game.json``, its game line) of the sidecar's bytes after them, so
    that a sidecar added or mended later makes the sheet a new version, read again."""
    h = hashlib.sha256()
    parts = [path]
    if path.suffix.lower() in SHEET_SUFFIXES and (sidecar := sidecar_of(path)).is_file():
        parts.append(sidecar)
    for i, part in enumerate(parts):
        if i:
            h.update(b"\0sidecar\0")
        with part.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    return h.hexdigest()


def _game_row(a: Accepted) -> dict[str, object]:
    g = a.record
    assert isinstance(g, GameBase)
    rules = getattr(g, "rules", None)
    return {
        "game_id": g.game_id, "variant": a.variant.name, "players": list(g.players),
        "rules": rules.model_dump_json() if rules is not None else "{}",
        "started_at": g.started_at, "league": g.league, "event": g.event, "stake": g.stake,
        "source": a.raw.source, "line": a.raw.line, "record": a.canonical,
    }


def _games_frame(games: list[Accepted]) -> pl.DataFrame:
    """The ``games`` rows of the batch's new games, built column by column; the players' list
    column is grouped from one flat column (a list built per game costs more than the rest of
    its row, which shows in a score sheet of many short games)."""
    rows = [_game_row(a) for a in games]
    columns: dict[str, Any] = {k: [r[k] for r in rows] for k in store.GAMES_SCHEMA}
    seats = [len(p) for p in columns["players"]]
    if min(seats) > 0:
        flat = pl.DataFrame({"at": np.repeat(np.arange(len(rows)), seats),
                             "players": [p for ps in columns["players"] for p in ps]},
                            schema={"at": pl.Int64(), "players": pl.String()})
        columns["players"] = flat.group_by("at", maintain_order=True).agg("players")["players"]
    return pl.DataFrame(columns, schema=store.GAMES_SCHEMA)


def _deals_frame(fresh: list[tuple[Accepted, str]]) -> pl.DataFrame:
    """The ``deals`` rows of the batch's new deals (with their keys), built column by column."""
    deals: list[Any] = [a.record for a, _ in fresh]
    columns: dict[str, list[Any]] = {
        "game_id": [d.game_id for d in deals], "deal_no": [d.deal_no for d in deals],
        "deal_key": [k for _, k in fresh], "variant": [a.variant.name for a, _ in fresh],
        "dealer": [d.dealer for d in deals], "declarer": [d.declarer for d in deals],
        "contract": [getattr(d, "contract", None) for d in deals],
        "has_cards": [d.hands is not None or d.play is not None for d in deals],
        "source": [a.raw.source for a, _ in fresh], "line": [a.raw.line for a, _ in fresh],
        "record": [a.canonical for a, _ in fresh]}
    return pl.DataFrame({name: columns[name] for name in store.DEALS_SCHEMA},
                        schema=store.DEALS_SCHEMA)


def _quarantine_row(issue: Issue, now: datetime) -> dict[str, object]:
    key = issue.record_key
    return {"source": issue.source, "line": issue.line,
            "record_key": None if key is None else store.bounded(key, 200),
            "code": str(issue.code), "message": store.bounded(issue.message, store.MESSAGE_LIMIT),
            "raw": store.bounded(issue.raw, store.RAW_LIMIT), "ingested_at": now}


def _merged(issues: list[Issue]) -> Issue:
    """One issue for the records of one line (``_FileLoad._quarantine_rows``): a row of the
    file's issues alone is keyed ``tables.FILE_KEY`` (it holds no record, ``Issue.of_file``)."""
    records = [i for i in issues if not i.of_file]
    first = records[0] if records else issues[0]
    if len(issues) == 1:
        return first if records else dataclasses.replace(first, record_key=T.FILE_KEY)
    message = store.merged_message([f"{i.record_key or '?'}: {i.code}: {i.message}"
                                    for i in issues], len(records))
    raw = max((i.raw for i in issues), key=len)
    return Issue(first.source, first.line, first.record_key if records else T.FILE_KEY,
                 first.code, message, raw, of_file=not records)


class _FileLoad:
    """The records of one file between two flushes, and the file's counts."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, report: FileReport, strict: bool,
                 replace: bool = False, variants: VariantLookup | None = None,
                 staging: Stager | None = None, memo: sheets.Memo | None = None) -> None:
        self.conn = conn
        self.report = report
        self.strict = strict
        self.replace = replace
        """Deals that differ from the ones an earlier version of this source stored supersede
        them (``--replace``); otherwise they are ``deal-conflict``s."""
        self.variant = variants or registry.variant
        """A variant by its name (the registry's, unless told)."""
        self.now = datetime.now(UTC)
        self.games: list[Accepted] = []
        self.deals: list[Accepted] = []
        self.issues: list[Issue] = []
        self.unread = Unread()
        """This file's records not stored for a reason of their own (not a conflict with a
        stored record): while there are any, no deal of an earlier version is dropped."""
        self.fast: list[_Fast] = []
        """The fast paths' deals of each chunk."""
        self.staging = (staging or store.Staging)(conn)
        """New deals and their variant rows wait here until the file's end (``store.Staging``)."""
        self.stored_games: dict[str, tuple[str, str] | None] = {}
        """The stored games of the chunk's game lines, looked up together (``chunk``)."""
        self.unstored: set[str] = set()
        """Games a look-up of this file found not stored (:meth:`may_hold_deals`)."""
        self.sheet_memo = memo if memo is not None else sheets.Memo()
        """The score-sheet path's verdicts, kept from batch to batch (and, given, from an
        earlier part of the file)."""
        self.repaired: list[tuple[Raw, str, int]] = []
        """Deals of the batch a reader repaired and the batch kept (stored or duplicates), with
        their game id and number: their repairs are recorded."""
        self.lines_held: dict[int, list[Issue]] = {}
        """The issues of each line with a quarantine row written in this file."""
        self.versions = Versions(conn, report.source, report.sha256, replace, self.now,
                                 new_source=report.new_source, variants=self.variant)
        """What this version does to the records of the source's earlier ones."""

    def stored_game(self, game_id: str) -> tuple[str, str] | None:
        """``store.stored_game``, answered from the chunk's look-up when it has the game."""
        if game_id in self.stored_games:
            return self.stored_games[game_id]
        found = store.stored_game(self.conn, game_id)
        if found is None:
            self.unstored.add(game_id)
        return found

    def look_up(self, ids: Iterable[str]) -> dict[str, tuple[str, str] | None]:
        """``store.stored_games``, noting the games not stored (:meth:`may_hold_deals`)."""
        found = store.stored_games(self.conn, ids)
        self.unstored.update(g for g, stored in found.items() if stored is None)
        return found

    def may_hold_deals(self, game_id: str) -> bool:
        """Whether the database may hold deals of ``game_id``. Not when a look-up of this file
        found the game not stored: stored deals belong to stored games (``ingest/parallel.py``
        rests on it too), and the database gains no deal until the file's staged deals are
        loaded at its end; unless ``Versions.game`` has superseded the game since (it removes
        the stored game before its deals of other sources). Each deal look-up so spared is a
        statement of about 1-2 ms of CPU, which every small file paid (``bench bridge``,
        "LIN files")."""
        return game_id not in self.unstored or game_id in self.versions.games

    def looked_up(self, items: Iterator[Raw | Issue]) -> Iterator[Raw | Issue]:
        """A reader's records, ``LOOKUP_EVERY`` at a time, with the stored games their
        ``game_id``s name looked up in one query per group (not one per game)."""
        group: list[Raw | Issue] = []
        for item in items:
            group.append(item)
            if len(group) >= LOOKUP_EVERY:
                yield from self._with_games(group)
                group = []
        yield from self._with_games(group)

    def _with_games(self, group: list[Raw | Issue]) -> Iterator[Raw | Issue]:
        ids = {g for it in group if isinstance(it, Raw)
               and isinstance(g := it.data.get("game_id"), str) and g}
        self.stored_games = self.look_up(ids)
        yield from group
        self.stored_games = {}

    def __len__(self) -> int:
        return len(self.games) + len(self.deals) + len(self.issues) + sum(
            len(f.taken) for f in self.fast)

    def take(self, raw: Raw | Accepted | Issue, validator: Validator) -> None:
        """One record through the reference (pydantic) path (or its result, when known)."""
        if isinstance(raw, Raw) and raw.repairs and self.strict:
            self.issue(Issue(raw.source, raw.line, None, Code.PARSE, "needs a repair (refused "
                             "by strict mode): " + "; ".join(f"{r.code}: {r.message}"
                                                             for r in raw.repairs), raw.text))
        result = validator.validate(raw) if isinstance(raw, Raw) else raw
        if isinstance(result, Issue):
            self.issue(result)
        else:
            self.accept(result)

    def records(self, held: Records, validator: Validator) -> None:
        """A batch of a reader's records (``ingest/records.py``): the reference's verdicts in
        record order, and the deals the columnar path took, stored at the flush."""
        verdicts, taken, texts = held.outcome()
        for verdict in verdicts:
            if verdict is not None:
                self.take(verdict, validator)
        if len(taken):
            self.fast.append(_Fast(taken, texts, held.repaired()))

    def chunk(self, items: list[Item] | Run, validator: Validator,
              score_sheets: bool = True) -> int:
        """A chunk of JSONL lines, with the same outcome as reading it line by line.

        The chunk's game lines are validated first (in order; games do not depend on deals), so
        that the fast paths can take the deals of games that start inside the chunk; a deal sees
        such a game only after its game line (``Validator.visible_from``). The score-sheet path
        (``ingest/sheets.py``) takes the deals without hands it accepts, the columnar path
        (``ingest/columnar.py``) what it accepts of the rest, and everything goes into the batch
        in line order (:meth:`_in_line_order`). Returns the bytes read."""
        c = _Chunk.of(items)
        early = self._game_lines(c, validator)
        taken = (self._score_sheets(c, early, validator) if score_sheets
                 else sheets.Taken.empty())
        taken += self._columnar(c, taken, early, validator)
        slow = np.ones(len(c.texts), dtype=bool)  # the lines the fast paths left
        if len(taken):  # a number taken twice: line order decides, so the reference reads both
            taken = taken.filter(~pl.struct("game_id", "deal_no").is_duplicated())
            slow[taken.deals["idx"].to_numpy()] = False
        slow_ids = self._in_line_order(c, _left(items, len(c.texts), slow), early, validator)
        self.stored_games = {}
        if len(taken):
            self._keep_fast(c, taken, slow_ids, validator)
        validator.position = NEVER
        validator.visible_from.clear()
        return len(items) + c.chars  # characters read, with the line ends

    def _game_lines(self, c: _Chunk, validator: Validator) -> dict[int, Accepted | Issue]:
        """The chunk's game lines validated ahead of its deals, by position
        (``sheets.game_lines``); the chunk's games are looked up in the database in one
        query, not one per game line."""
        def look_up(ids: list[str]) -> None:
            self.stored_games = self.look_up(ids)
        return sheets.game_lines(self.report.source, c.texts, c.game_like, validator, look_up)

    def _score_sheets(self, c: _Chunk, early: dict[int, Accepted | Issue],
                      validator: Validator) -> sheets.Taken:
        """The score-sheet deals (the lines without hands) ``ingest/sheets.py`` takes, their
        games looked up in the database in one query."""
        hands = set(c.with_hands)
        sheet = [k for k in range(len(c.lines)) if k not in hands and k not in early]
        return sheets.accept(self.report.source, c.lines, c.texts, sheet, validator,
                             lambda ids: self.stored_games.update(self.look_up(ids)),
                             self.sheet_memo)

    def _columnar(self, c: _Chunk, taken: sheets.Taken, early: dict[int, Accepted | Issue],
                  validator: Validator) -> sheets.Taken:
        """The deal lines the other fast paths left that the columnar path
        (``ingest/columnar.py``) takes."""
        left = np.ones(len(c.texts), dtype=bool)
        if len(taken):
            left[taken.deals["idx"].to_numpy()] = False
        candidates = [k for k in np.flatnonzero(left).tolist() if k not in early]
        if not candidates:
            return sheets.Taken.empty()
        return columnar.accept(c.texts, candidates, validator)

    def _in_line_order(self, c: _Chunk, rest: list[int | Issue],
                       early: dict[int, Accepted | Issue],
                       validator: Validator) -> set[tuple[str, int]]:
        """The lines the fast paths left (and the unreadable ones) into the batch in line order,
        through the reference path. Returns the ids of the deals kept."""
        source = self.report.source
        slow_ids: set[tuple[str, int]] = set()
        for at in rest:
            if isinstance(at, Issue):
                self.issue(at)
                continue
            k = at
            if k in early:
                self.take(early[k], validator)
                continue
            n = len(self.deals)
            validator.position = k
            self.take(parse_line(source, *c.texts[k]), validator)
            if len(self.deals) > n:
                d = self.deals[-1].record
                slow_ids.add((d.game_id, d.deal_no))  # type: ignore[union-attr]
        return slow_ids

    def _keep_fast(self, c: _Chunk, taken: sheets.Taken, slow_ids: set[tuple[str, int]],
                   validator: Validator) -> None:
        """The fast paths' deals of the chunk, to be stored at the flush; one with the number
        of a deal the other paths kept in this chunk is read by the reference instead, so line
        order decides between them."""
        accepted = taken.deals
        clash: list[int] = []
        if slow_ids:
            ids = zip(accepted["game_id"].to_list(), accepted["deal_no"].to_list(), strict=True)
            clash = [i for i, key in zip(accepted["idx"].to_list(), ids, strict=True)
                     if key in slow_ids]
        if clash:
            for i in clash:
                validator.position = i
                self.take(parse_line(self.report.source, *c.texts[i]), validator)
            self.deals.sort(key=lambda a: a.raw.line)
            accepted = accepted.filter(~pl.col("idx").is_in(clash))
        lines = c.line_nos().gather(accepted["idx"])
        self.fast.append(_Fast(sheets.Taken(accepted.with_columns(line=lines), taken.rows),
                               c.lines))

    def issue(self, issue: Issue) -> None:
        if self.strict:
            raise StrictError(issue)
        self.issues.append(issue)
        if issue.of_file:
            self.report.file_issues += 1
        else:
            self.report.quarantined += 1
        if issue.code in CONFLICTS:
            self.report.conflicts += 1
        else:
            self.unread.add(issue.line)
        if len(self.report.issues) < KEEP_ISSUES:
            self.report.issues.append(issue)

    def accept(self, a: Accepted) -> None:
        if a.is_game:
            self.versions.name(a.record.game_id)
            if a.duplicate:
                self.report.duplicates += 1
            else:
                self.games.append(a)
        else:
            self.deals.append(a)

    def _sort_deals(self) -> list[tuple[Accepted, str]]:
        """New deals of the batch; duplicates counted, conflicting ones sent to quarantine."""
        ids = {(a.record.game_id, a.record.deal_no) for a in self.deals  # type: ignore[union-attr]
               }
        self.versions.hold(ids)
        probe = pl.DataFrame(list(ids), schema=PROBE_SCHEMA, orient="row")
        known = {(g, n): k for g, n, k in self._known_keys(probe).iter_rows()}
        kept_out = self.versions.kept_dropped({
            at: a.canonical for a in self.deals
            if (at := (a.record.game_id, a.record.deal_no)) not in known  # type: ignore[union-attr]
        } if self.versions.keeps_dropped else {})
        fresh: list[tuple[Accepted, str]] = []
        batch: dict[tuple[str, int], str] = {}
        records = ChainMap(batch, self._records_of(  # what the deals clashing on key say
            at for a in self.deals if a.variant.transcribed
            and (at := (a.record.game_id, a.record.deal_no)) in known  # type: ignore[union-attr]
            and known[at] != a.key))
        for a in self.deals:
            d = a.record
            assert isinstance(d, DealBase)
            key, at = a.key, (d.game_id, d.deal_no)
            if at in kept_out:
                self.deal_conflict(*at, a.raw.line, kept_out[at], a.raw.text)
            elif at not in known:
                known[at], batch[at] = key, a.canonical
                fresh.append((a, key))
                self._repaired(a)
            elif known[at] == key or self.same_deal(a.variant, at, a.canonical, records):
                self.report.duplicates += 1
                self._repaired(a)
            elif self.conflict(d.game_id, d.deal_no, a.raw.line, a.raw.text, a.canonical):
                known[at], batch[at] = key, a.canonical
                fresh.append((a, key))
                self._repaired(a)
        return fresh

    def _repaired(self, a: Accepted) -> None:
        """Deal ``a`` is kept: its repairs, if a reader made any, are recorded at the flush."""
        if a.raw.repairs and isinstance(d := a.record, DealBase):
            self.repaired.append((a.raw, d.game_id, d.deal_no))

    def _records_of(self, ats: Iterable[tuple[str, int]]) -> dict[tuple[str, int], str]:
        """The canonical JSON of the stored or staged deals ``ats`` (``game_id, deal_no``),
        in one look-up."""
        wanted = list(set(ats))
        if not wanted:
            return {}
        probe = pl.DataFrame(wanted, schema=PROBE_SCHEMA, orient="row")
        return {(g, n): r for g, n, r in self._known_keys(probe, what="record").iter_rows()}

    @staticmethod
    def same_deal(variant: Variant, at: tuple[str, int], record: str,
                  known: Mapping[tuple[str, int], str]) -> bool:
        """Deal ``at`` (``game_id, deal_no``), known under another key with the canonical JSON
        ``known[at]``, is the deal of canonical JSON ``record`` but for the fields its variant
        lets a sheet transcribe (``Variant.same_deal``): a duplicate, not a conflict."""
        earlier = known.get(at) if variant.transcribed else None
        return earlier is not None and variant.same_deal(json.loads(earlier), json.loads(record))

    def conflict(self, game_id: str, deal_no: int, line: int, text: str, record: str) -> bool:
        """A deal whose number is stored (or earlier in this file) with other content: stored,
        superseding the stored one (True, ``Versions.deal``), or a ``deal-conflict`` naming both
        versions (False), and the deal in its variant's words (``Versions.deal_named``, from its
        ``record``, the canonical JSON)."""
        where = self.versions.deal(game_id, deal_no)
        if where is None:
            return True
        named = self.versions.deal_named(game_id, deal_no, record)
        self.deal_conflict(game_id, deal_no, line,
                           f"{named} has other content than the one {where}", text)
        return False

    def deal_conflict(self, game_id: str, deal_no: int, line: int, message: str,
                      text: str) -> None:
        """A ``deal-conflict`` of deal ``deal_no`` of ``game_id`` at ``line``."""
        self.issue(Issue(self.report.source, line, f"{game_id}#{deal_no}", Code.DEAL_CONFLICT,
                         message, text))

    def settle_versions(self) -> None:
        """After the file's last record: the deals of earlier versions this one dropped
        (``Versions.dropped``; their conflicts are one quarantine row), and the games whose
        stored game line or deals this version changed, to be rescored."""
        dropped = self.versions.dropped(self.unread)
        if dropped:
            T.insert(self.conn, T.QUARANTINE, store.frame(
                [_quarantine_row(_merged(dropped), self.now)], store.QUARANTINE_SCHEMA))
            self.report.issues[:0] = dropped[:KEEP_ISSUES]
        self.report.dropped = len(dropped) or self.versions.dropped_deals
        self.report.removed = not dropped and self.versions.dropped_deals > 0
        self.report.replaced = self.versions.replaced
        self.report.withheld = self.versions.withheld
        self.report.earlier_files = self.versions.earlier_files
        self.report.games.update(self.versions.games)

    def stored_again(self) -> None:
        """Once the file's deals are in their tables: the deals of a superseded game this
        version stored again with other content (``Versions.stored_again``), counted as
        replaced."""
        self.versions.stored_again()
        self.report.replaced = self.versions.replaced

    def flush(self) -> None:
        """Store the batch: its game lines first, so that a deal's conflict finds its game
        (``Versions.deal_named`` names the deal from it, whichever batch it came in), then
        its deals and the fast paths', its repairs and its quarantine rows."""
        if self.games:
            T.insert(self.conn, T.GAMES, _games_frame(self.games))
            self.report.games.update(a.record.game_id for a in self.games)
        fresh = self._sort_deals()
        if fresh:
            self.staging.add(T.DEALS, _deals_frame(fresh))
            by_variant: dict[str, list[Accepted]] = defaultdict(list)
            for a, _ in fresh:
                by_variant[a.variant.name].append(a)
            for group in by_variant.values():
                v = group[0].variant
                flat = [a.row if a.row is not None
                        else v.deal_row(a.game, a.record)  # type: ignore[arg-type]
                        for a in group]
                self.staging.add(v.deals_table,
                                 pl.DataFrame(flat, schema=v.frame_schema, orient="row"))
            self.report.games.update(a.record.game_id for a, _ in fresh)
        for fast in self.fast:
            self._flush_fast(fast)
        self.fast = []
        repairs = [{"source": r.source, "line": r.line, "record_key": f"{game_id}#{deal_no}",
                    "code": fix.code, "message": store.bounded(fix.message, store.MESSAGE_LIMIT),
                    "ingested_at": self.now}
                   for r, game_id, deal_no in self.repaired for fix in r.repairs]
        if repairs:
            T.insert(self.conn, store.REPAIRS, store.frame(repairs, store.REPAIRS_SCHEMA))
        self.report.repaired += len(self.repaired)
        self.repaired = []
        if self.issues:
            rows = self._quarantine_rows()
            if rows:
                T.insert(self.conn, T.QUARANTINE,
                         store.frame(rows, store.QUARANTINE_SCHEMA))
        self.report.stored += len(self.games) + len(fresh)
        self.games, self.deals, self.issues = [], [], []

    def check_games(self, validator: Validator) -> None:
        """``Variant.check_game`` over each game of this file whose rules give it something to
        find (``Variant.checks_game``), on its stored deals in order, once every deal of the
        file is in (russian.md 7: a contract below the raspasy exit): a deal of this file it
        finds fault with is removed and quarantined with the check's message."""
        checked = {gid: known for gid in self.report.games
                   if (known := validator.games.get(gid)) and known[1].check_game is not None
                   and known[1].checks_game(known[0])}
        faulted: list[tuple[str, int]] = []
        read: dict[tuple[str, str], BaseModel] = {}  # deals read, for the next games
        judged = GameVerdicts()
        for gid, deals in store.game_deals(self.conn, checked).items():
            game, v, canonical = checked[gid]
            for no, issue in game_issues(self.report.source, game, v, deals, read, judged,
                                         canonical):
                faulted.append((gid, no))
                self.issue(issue)
        store.delete_deals(self.conn, faulted)
        self.report.stored -= len(faulted)
        if self.issues:
            T.insert(self.conn, T.QUARANTINE,
                     store.frame(self._quarantine_rows(), store.QUARANTINE_SCHEMA))
            self.issues = []

    def _quarantine_rows(self) -> list[dict[str, object]]:
        """The batch's new quarantine rows: one per line (the table's key, records.md 2). Issues
        of records that share a line (a PBN game and its deal, LIN boards written on one line)
        go into one row: the first issue's code, and a message that says how many records the
        row holds and quotes each (``store.merged_message``); a line met in an earlier batch is
        updated in place."""
        by_line: dict[int, list[Issue]] = {}
        for issue in self.issues:
            by_line.setdefault(issue.line, []).append(issue)
        rows = []
        for line, issues in by_line.items():
            earlier = self.lines_held.get(line)
            if earlier is None:
                self.lines_held[line] = issues
                rows.append(_quarantine_row(_merged(issues), self.now))
            else:
                earlier += issues
                store.replace_quarantine_message(self.conn, self.report.source, line,
                                                 _merged(earlier).message)
        return rows

    def _known_keys(self, probe: pl.DataFrame, what: store.Known = "deal_key") -> pl.DataFrame:
        """``store.deal_keys`` of ``probe``'s deals (``game_id, deal_no``) among the stored and
        the staged ones (their keys, or their records: ``what``); where nothing of their games is
        staged, the database is asked only for the games whose deals it may hold
        (:meth:`may_hold_deals`)."""
        games = probe["game_id"].unique().to_list()
        staged = self.staging.files_with(T.DEALS, games)
        held = self.staging.held_with(T.DEALS, games)
        if not staged and not held:
            probe = probe.filter(pl.col("game_id").is_in(
                [g for g in games if self.may_hold_deals(g)]))
            if probe.is_empty():
                return pl.DataFrame(schema={**PROBE_SCHEMA, what: pl.String()})
        return store.deal_keys(self.conn, probe, staged, held, what)

    def _kept_out(self, new: pl.DataFrame, lines: Sequence[str]) -> pl.DataFrame:
        """The fast paths' new deals less those a version read with ``--replace`` dropped
        (``Versions.kept_dropped``), which go to quarantine."""
        if not self.versions.keeps_dropped:
            return new
        ids = list(zip(new["game_id"].to_list(), new["deal_no"].to_list(), strict=True))
        kept_out = self.versions.kept_dropped(dict(zip(ids, new["record"].to_list(),
                                                       strict=True)))
        if not kept_out:
            return new
        for at, k, line in zip(ids, new["idx"].to_list(), new["line"].to_list(), strict=True):
            if at in kept_out:
                self.deal_conflict(*at, line, kept_out[at], lines[k])
        return new.filter(pl.Series([at not in kept_out for at in ids], dtype=pl.Boolean))

    def _flush_fast(self, fast: _Fast) -> None:
        """Store the fast paths' deals of a chunk: new (with their ``deals_<variant>`` rows),
        duplicate, or a conflict sent to quarantine; the repairs of those kept are recorded."""
        accepted, lines = fast.taken.deals, fast.lines
        self.versions.hold(accepted)
        stored = self._known_keys(accepted)
        if stored.height == 0:  # all new (the usual case): no join
            new, same, clash = accepted, accepted.clear(), accepted.clear()
        else:
            f = accepted.join(stored.rename({"deal_key": "stored"}), on=["game_id", "deal_no"],
                              how="left")
            new = f.filter(pl.col("stored").is_null())
            same = f.filter(pl.col("stored") == pl.col("deal_key"))
            clash = f.filter(pl.col("stored") != pl.col("deal_key"))
            clashing = [(self.variant(row["variant"]), (row["game_id"], row["deal_no"]),
                         row["record"]) for row in clash.iter_rows(named=True)]
            records = self._records_of(at for v, at, _ in clashing if v.transcribed)
            alike = pl.Series([self.same_deal(v, at, record, records)
                               for v, at, record in clashing], dtype=pl.Boolean)
            same = pl.concat([same, clash.filter(alike)])
            clash = clash.filter(~alike)
        new = self._kept_out(new, lines)
        taken = [row["idx"] for row in clash.iter_rows(named=True)
                 if self.conflict(row["game_id"], row["deal_no"], row["line"],
                                  lines[row["idx"]], row["record"])]
        if taken:
            new = pl.concat([new, clash.filter(pl.col("idx").is_in(taken))], how="diagonal")
        if fast.repaired:
            kept = pl.concat([d.select("idx", "game_id", "deal_no") for d in (new, same)])
            self.repaired += [(fast.repaired[k], game_id, deal_no)
                              for k, game_id, deal_no in kept.iter_rows() if k in fast.repaired]
        deals = new.select(
            "game_id", "deal_no", "deal_key", "dealer", "declarer", "contract", "line", "record",
            "has_cards", "variant", source=pl.lit(self.report.source),
        ).cast({k: v for k, v in store.DEALS_SCHEMA.items()})
        self.staging.add(T.DEALS, deals)
        for name, rows in fast.taken.rows.items():
            own = rows.join(new.select("idx"), on="idx", how="semi").drop("idx")
            if own.height:
                self.staging.add(self.variant(name).deals_table, own)
        self.report.games.update(new["game_id"].unique().to_list())
        self.report.stored += new.height
        self.report.duplicates += same.height


@dataclass(frozen=True)
class _Fast:
    """A chunk's deals the fast paths took, the chunk's texts (by ``idx``), and the records among
    them a reader repaired (by ``idx``)."""

    taken: sheets.Taken
    lines: Sequence[str]
    repaired: Mapping[int, Raw] = field(default_factory=dict)


@dataclass
class _Chunk:
    """A chunk of JSON Lines as the paths read it."""

    texts: Sequence[tuple[int, str]]
    """The readable lines: ``(line number, text)``."""
    lines: Sequence[str]
    """Their texts."""
    with_hands: list[int]
    """The lines holding ``"hands"``: the card paths' (the score-sheet shape has none). A game
    line with ``"hands"`` in it (a player so named) is read in line order with the rest, and
    the fast paths see its game only from the next chunk on."""
    game_like: list[int]
    """The other lines that may be game lines."""
    chars: int
    first: int | None
    """The line number of the first line of a run (``ingest.lines.Run``)."""

    def line_nos(self) -> pl.Series:
        """The line number of each readable line."""
        if self.first is not None:
            return pl.Series("line", np.arange(self.first, self.first + len(self.texts)),
                             dtype=pl.Int32)
        return pl.Series("line", list(map(itemgetter(0), self.texts)), dtype=pl.Int32)

    @classmethod
    def of(cls, items: list[Item] | Run) -> _Chunk:
        if isinstance(items, Run):
            texts: Sequence[tuple[int, str]] = items
            lines, first = items.texts, items.first
            chars = sum(map(len, lines))
        else:
            texts = [it for it in items if not isinstance(it, Issue)]
            lines, first = list(map(itemgetter(1), texts)), None
            chars = sum(map(len, lines)) + sum(len(it.raw) for it in items
                                              if isinstance(it, Issue))
        with_hands, with_game = holding(lines, '"hands"', '"game"')
        hand_set = set(with_hands)
        return cls(texts, lines, with_hands, [k for k in with_game if k not in hand_set], chars,
                   first)


def _left(items: list[Item] | Run, readable: int, slow: np.ndarray) -> list[int | Issue]:
    """The positions of the readable lines the fast paths left, with the unreadable lines'
    issues, in line order."""
    if readable == len(items):
        return list(np.flatnonzero(slow).tolist())
    mixed: list[int | Issue] = []
    k = -1
    for it in items:
        if isinstance(it, Issue):
            mixed.append(it)
        else:
            k += 1
            if slow[k]:
                mixed.append(k)
    return mixed


@contextmanager
def cycle_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a file is read (reference counting still
    frees every record). A batch holds tens of thousands of validated records, each a tree of
    small objects; with the collector on, its full passes walk them again and again, which cost
    more than the validation itself on files with cards. Records form no cycles; whatever cyclic
    garbage a batch leaves is collected after it (:func:`_after_batch`), and the collector's
    previous state is restored afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _after_batch() -> None:
    """Collect the cyclic garbage of a batch once its records are released. With the collector
    paused, everything allocated since the last collection is in the youngest generation, so this
    walks only what survived the batch."""
    gc.collect(0)


def _load_file(
    conn: duckdb.DuckDBPyConnection, path: Path, reader: Reader, report: FileReport, *,
    strict: bool, variants: VariantLookup | None, on_record: Callable[[int, int], None] | None,
    batch: int, fast: bool, replace: bool = False,
    lookup: Callable[[StoredGame], StoredGame] | None = None, staging: Stager | None = None,
    group: store.Group | None = None, memo: sheets.Memo | None = None,
) -> int:
    """The records of one file in one transaction, or in ``group``'s (whose caller commits or
    rolls it back); returns the bytes read. ``lookup`` wraps the look-up of stored games,
    ``staging`` makes the file's staging, ``memo`` is the score-sheet verdicts learnt so far
    (``ingest/parallel.py``)."""
    source = report.source
    load = _FileLoad(conn, report, strict, replace, variants, staging, memo)
    validator = Validator(load.stored_game if lookup is None else lookup(load.stored_game),
                          variants, changed_game=load.versions.game)
    refusal = refused(path, source)
    use_fast = (fast and isinstance(reader, JsonlReader) and file_size(path) >= FAST_FROM
                and refusal is None)
    done = 0
    own = group is None  # the file's own transaction, else its part of the group's
    group = group or store.Group(conn)
    group.begin()
    try:
        clear_replaced_quarantine(conn, load.versions.lineage, report.new_source)
        if use_fast:
            assert isinstance(reader, JsonlReader)
            for items in reader.read_lines(path, batch, BATCH_CHARS):
                report.records += len(items)
                done += load.chunk(items, validator)
                load.flush()
                _after_batch()
                if on_record is not None:
                    on_record(report.records, done)
        else:
            stream = iter(refusal) if refusal is not None else reader.read(path)
            done = _read_items(load, validator, guarded(named(stream, path, source), source),
                               strict=strict, fast=fast, batch=batch, on_record=on_record)
        load.flush()
        load.settle_versions()
        load.staging.load(conn, group)
        load.stored_again()
        load.check_games(validator)
        store.log_ingest(conn, report.logged(load.now), report.new_source)
        group.stored(report.games)
        if own:
            group.commit()
    except BaseException:
        if own:
            group.rollback()
        raise
    finally:
        with suppress(duckdb.Error):
            load.staging.close(conn)
    return done


def refused(path: Path, source: str) -> list[Raw | Issue] | None:
    """The one issue of a file that is not text (``formats.not_text``: an image, an archive's
    insides saved under a format's name), in place of its records: its bytes read as lines would
    be hundreds of quarantined "records" of garbage. ``None`` for a text file."""
    try:
        with path.open("rb") as fh:
            head = fh.read(text_codec.HEAD + 1)
    except OSError:  # gone meanwhile: its reader fails, and says so (:func:`guarded`)
        return None
    reason = not_text(path.name, head)
    if reason is None:
        return None
    return [Issue(source, 1, None, Code.PARSE,
                  f"{Path(source).name} is {reason}: the file is not read", "", of_file=True)]


def _read_items(load: _FileLoad, validator: Validator, items: Iterator[Raw | Issue], *,
                strict: bool, fast: bool, batch: int,
                on_record: Callable[[int, int], None] | None) -> int:
    """Validate and stage a file's ``items`` batch by batch (:func:`_load_file`'s reading of a
    file that is not read by the JSON Lines fast path); returns the characters read."""
    report = load.report
    done = 0
    since = 0  # bytes read since the last flush
    carded = 0  # records with cards since the last flush
    line = 0  # of the record before
    held = Records(validator) if fast and not strict else None
    for item in load.looked_up(items):
        report.records += not (isinstance(item, Issue) and item.of_file)
        if item.line != line:  # a game and its deal read from one text: counted once
            done += len(item.text if isinstance(item, Raw) else item.raw) + 1
            line = item.line
        carded += isinstance(item, Raw) and not CARDS.isdisjoint(item.data)
        if held is not None:
            held.add(item)
        elif isinstance(item, Raw):
            load.take(item, validator)
        else:
            load.issue(item)
        if (len(load) + len(held or ()) >= batch or done - since >= BATCH_CHARS
                or carded >= BATCH_CARDS):
            if held is not None:
                load.records(held, validator)
                held = Records(validator)
            load.flush()
            _after_batch()
            since, carded = done, 0
        if on_record is not None and report.records % PROGRESS_EVERY == 0:
            on_record(report.records, done)
    if held is not None:
        load.records(held, validator)
    return done


def named(items: Iterator[Raw | Issue], path: Path, source: str) -> Iterator[Raw | Issue]:
    """A reader's records under the name the file is stored as (``ingest_paths``'s ``names``):
    a reader labels them with the path it read."""
    if source == str(path):
        yield from items
        return
    for item in items:
        yield dataclasses.replace(item, source=source) if item.source == str(path) else item


def guarded(items: Iterator[Raw | Issue], source: str) -> Iterator[Raw | Issue]:
    """A reader's stream, ending in an issue instead of an exception: a reader that fails
    (a bug, a file that vanished) keeps what it read before, and the rest of the file is one
    quarantined issue that says where and why it stopped."""
    line = 0
    try:
        for item in items:
            line = max(line, item.line)
            yield item
    except Exception as exc:
        yield Issue(source, max(line, 1), None, Code.PARSE,
                    f"the reader stopped after line {line} ({type(exc).__name__}: "
                    f"{str(exc)[:300]}): the rest of the file is not read", "", of_file=True)


def ingest_file(
    conn: duckdb.DuckDBPyConnection,
    path: Path,
    *,
    strict: bool = False,
    variants: VariantLookup | None = None,
    on_record: Callable[[int, int], None] | None = None,
    batch: int = BATCH,
    fast: bool = True,
    sha256: Future[str] | None = None,
    replace: bool = False,
    named: Collection[Path] | None = None,
    source: str | None = None,
    reader: Reader | None = None,
    lookup: Callable[[StoredGame], StoredGame] | None = None,
    staging: Stager | None = None,
    group: store.Group | None = None,
    memo: sheets.Memo | None = None,
) -> FileReport:
    """Read, validate and store one file in one transaction, or in ``group``'s (committed or
    rolled back by the caller, ``ingest_paths``); rescoring is the caller's.

    ``fast``: JSON Lines go through the fast paths (``ingest/sheets.py`` for score-sheet
    deals, ``ingest/columnar.py`` for the other deals) first, from ``FAST_FROM`` bytes on.
    ``sha256``: the file's hash, when the caller has it computed meanwhile (``ingest_paths``).
    ``named``: the files the run names itself (``ingest_paths``: not found in a folder; ``None``:
    this one is): only such a file is put back with ``replace`` (:func:`precheck`).
    ``source``: the name the file is stored and logged under, when it is not its path
    (``ingest_paths``'s ``names``; every record carries it, :func:`named`). ``reader``: in
    place of the file's own (a part of a file, ``ingest/parallel.py``); ``lookup`` wraps the
    look-up of stored games (there: the games of the file's earlier parts, and a note of each
    id); ``staging`` makes the staging of the file's new rows in place of ``store.Staging``
    (there: rows handed to the writer unloaded); ``memo`` the score-sheet path's verdicts
    learnt from the file's earlier parts (they depend only on a game's content and a line's
    shape, ``sheets.Memo``)."""
    report, found = precheck(conn, path, sha256.result() if sha256 is not None else None,
                             source=source, replace=replace,
                             named=named is None or path in named)
    if report.skipped is not None:
        return report
    assert found is not None
    with cycle_gc_paused():
        done = _load_file(conn, path, reader or found, report, strict=strict, variants=variants,
                          on_record=on_record, batch=batch, fast=fast, replace=replace,
                          lookup=lookup, staging=staging, group=group, memo=memo)
    if on_record is not None:
        on_record(report.records, done)
    return report


SAME_CONTENT = "same content as "
"""How a file that is a copy of another source is skipped: ``same content as <source>``."""


def readable(path: Path, source: str | None = None) -> tuple[FileReport, Reader | None]:
    """The report of a file and its reader, or, with no reader, the report of why it is not
    read (missing, not a file, empty, no reader); what :func:`precheck` asks first, with no
    database."""
    report = FileReport(source or str(path))
    if not is_file(path) and not is_dir(path):
        report.skipped = hidden(path) or not_a_file(path) or broken_link(path) or "missing"
        return report, None
    if is_file(path) and (nothing := empty(path)) is not None:
        report.skipped = nothing
        return report, None
    reader = reader_for(path) if is_file(path) else None
    if reader is None:
        report.skipped = unreadable(path) or no_reader(path)
        return report, None
    report.reader = reader.name
    return report, reader


def precheck(conn: duckdb.DuckDBPyConnection, path: Path, sha256: str | None = None,
             source: str | None = None, replace: bool = False, named: bool = True,
             ) -> tuple[FileReport, Reader | None]:
    """The report of a file before it is read, with ``skipped`` set when it is not to be read
    (missing, no reader, unchanged, a copy of another source), and its reader. ``source`` and
    ``replace`` as for :func:`ingest_file` (a version read with conflicts is read again under
    ``replace``). Content read before that a later version of a file of its name replaced
    since (``FileReport.replaced_by``) is read again, put back, when the file is ``named`` (by
    the run, not found in a folder: a folder ingested again never undoes a correction) and
    read with ``replace`` (docs/ingest.md, "Versions of a source": "Put back")."""
    report, reader = readable(path, source)
    if reader is None:
        return report, None
    source = report.source
    report.sha256 = sha256 if sha256 is not None else file_sha256(path)
    latest, logged, copy = store.log_state(conn, source, report.sha256)
    report.new_source = not logged
    # a sheet whose game is its sidecar file (<sheet>.game.json) is not a copy of another sheet
    # with the same rows: its content is the two files
    copy = None if copy is None or sidecar_of(path).is_file() else copy
    if latest == report.sha256 or copy is not None:
        report.replaced_by = replaced_by(conn, source, report.sha256)
    if replace and named and report.replaced_by is not None:
        return report, reader  # put back
    if latest == report.sha256 and not (replace and store.holds_conflicts(conn, source)) \
            and not put_back(conn, path, source, report.sha256):
        report.skipped = "unchanged"
    elif copy is not None:
        report.skipped = f"{SAME_CONTENT}{copy}"
    else:
        report.replaced_by = None  # read, though not to put it back
    return report, reader


FileIngest = Callable[..., FileReport]
"""Reads and stores one file: :func:`ingest_file`'s signature."""
Reading = Callable[[list[Path], duckdb.DuckDBPyConnection, dict[str, Any]],
                  AbstractContextManager[FileIngest]]
"""Given the files of a run, the database and the run's options (``strict``, ``variants``,
``batch``, ``fast``, ``replace``), the function that ingests each file in turn
(:func:`ingest_file`, or ``ingest/parallel.py``'s, which reads them ahead in worker processes);
one with a ``hashes`` attribute (path -> sha256) has hashed those files already."""


@contextmanager
def one_by_one(files: list[Path], conn: duckdb.DuckDBPyConnection,
               options: dict[str, Any]) -> Iterator[FileIngest]:
    """Each file read here, when its turn comes."""
    yield ingest_file


def text_names(files: Iterable[Path]) -> dict[Path, str]:
    """The files whose path is not text (a name in Latin-1 on a UTF-8 system: Python reads
    ``R\\xe9sultats.csv`` as ``R\\udce9sultats.csv``), each with its bytes escaped as its
    source name (``R\\xe9sultats.csv``): the database keeps text only."""
    return {p: os.fsencode(p).decode("utf-8", "backslashreplace") for p in files
            if not str(p).isascii() and not _is_text(str(p))}


def _is_text(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def files_to_read(paths: Iterable[str | Path]) -> list[Path]:
    """The files of ``paths`` (files, folders, globs) in the order they are read: a named file
    even without a reader (it is reported), a file found in a folder as
    ``formats.found_to_read`` says (one a reader takes, or one reported as not read)."""
    return _files_named(paths)[0]


def _files_named(paths: Iterable[str | Path]) -> tuple[list[Path], frozenset[Path]]:
    """:func:`files_to_read`, and those of them ``paths`` names (a file or a glob's match, not
    a file found in a folder)."""
    found = [(p, explicit) for p, explicit in expand(paths) if explicit or found_to_read(p)]
    return [p for p, _ in found], frozenset(p for p, explicit in found if explicit)


def ingest_paths(
    paths: Iterable[str | Path],
    db_path: str | Path,
    *,
    strict: bool = False,
    progress: ProgressFn | None = None,
    should_stop: Callable[[], bool] | None = None,
    variants: VariantLookup | None = None,
    score: ScoreFn | None = None,
    batch: int = BATCH,
    fast: bool = True,
    waiting: Callable[[float], None] | None = None,
    replace: bool = False,
    names: Mapping[Path, str] | None = None,
    reading: Reading = one_by_one,
) -> list[FileReport]:
    """Ingest files, folders and globs into ``db_path``; one report per file.

    A ``db_path`` that is not a DuckDB database (or cannot be one) is refused before any file is
    read (``store.DatabaseError``). While another process holds the database's lock the run
    waits (``store.LOCK_WAIT``), calling ``waiting(seconds waited)``. A file whose transaction
    fails (a full disk, a bug) is rolled back and reported ``failed``; the next file is read.
    ``replace``: deals of a changed file that differ from those its earlier version stored
    supersede them (docs/ingest.md, "Versions of a source"); without it they are conflicts; a
    file ``paths`` names (not found in a folder) is put back with it (:func:`precheck`).
    ``names``: a file's source name, where it is not the file's path: every version of the
    source is a file of its own, and the source is the name (score entry keeps each version of
    a deal as ``uploads/entry/<sha256>-...jsonl`` under the source ``entry/<game>/<deal>``).

    Small files are committed in groups, one transaction each (``_Committer``: each file stays
    all in or all out, and a failing file fails alone); a file the ``reading`` stores part by
    part (its ``in_parts``) is committed alone.

    ``score`` (the command's: ``scoring.store.score_pending``) settles the games marked
    pending before the first file (finishing an interrupted run) and after every commit.
    ``strict`` raises :class:`StrictError` at the first issue (that file is rolled back; earlier
    files stay stored; strict mode commits each file alone). ``should_stop`` is asked between
    files (a first Ctrl-C; the files read so far are committed). A ``KeyboardInterrupt`` (or
    DuckDB's stop of a statement) rolls back the open transaction: :class:`Interrupted`."""
    if str(db_path) != ":memory:":
        store.check_database_path(Path(db_path))
    files, named = _files_named(paths)
    sources = {**text_names(files), **(names or {})}
    if (unread := _none_read(files, db_path, sources)) is not None:
        return unread
    sizes = [file_size(p) for p in files]
    hashes = _Hashes(files)
    try:
        conn = store.connect(db_path, waiting=waiting)
    except BaseException:
        hashes.close()
        raise
    run = _Committer(conn, db_path, score, strict, sources)
    try:
        score_pending_safely(conn, None, score, strict)
        options = {"strict": strict, "variants": variants, "batch": batch, "fast": fast,
                   "replace": replace, "named": named}
        with reading(files, conn, options) as load:
            _read_all(run, load, files, sizes, hashes, options, progress, should_stop)
            run.commit()
    except BaseException as exc:
        if T.interrupted(exc):  # a Ctrl-C: which files the database holds is asked
            raise run.interrupted() from exc
        raise
    finally:
        hashes.close()
        run.abandon()  # an interrupted group is rolled back: its files are all out
        with suppress(duckdb.Error):  # every file is committed (a failing checkpoint loses none)
            run.conn.close()
    return run.reports


def _read_all(run: _Committer, load: FileIngest, files: list[Path], sizes: list[int],
              hashes: _Hashes, options: dict[str, Any], progress: ProgressFn | None,
              should_stop: Callable[[], bool] | None) -> None:
    """Read and store ``files`` in their order (``run.file``), with their progress, until
    ``should_stop`` says to stop between files (a first Ctrl-C)."""
    hashes.known.update(getattr(load, "hashes", {}))  # hashed by the reading already
    in_parts: frozenset[Path] = getattr(load, "in_parts", frozenset())  # stored alone
    before = 0
    for no, path in enumerate(files, start=1):
        if should_stop is not None and should_stop():
            break
        tick = _ticker(progress, path, no, len(files), before, sizes[no - 1], sum(sizes))
        report = run.file(load, path, sizes[no - 1], options, alone=path in in_parts,
                          on_record=tick, sha256=hashes.next())
        tick(report.records, sizes[no - 1])  # the whole file is read
        before += sizes[no - 1]


def _none_read(files: list[Path], db_path: str | Path, names: Mapping[Path, str]
               ) -> list[FileReport] | None:
    """The reports of a run that reads no file (each missing, not a file, empty or of no
    format read; or no file at all) into a database not there yet, which it then does not
    make: a mistyped path leaves no empty database behind. ``None`` when a file is read, or
    the database is there."""
    if str(db_path) == ":memory:" or Path(db_path).exists():
        return None
    reports = []
    for path in files:  # up to the first file read: a new database of many files starts at once
        report, reader = readable(path, names.get(path))
        if reader is not None:
            return None
        reports.append(report)
    return reports


GROUP_FILES = 64
"""Files at most committed in one transaction (group commit, ``_Committer``)."""
GROUP_BYTES = 64 << 20
"""Bytes of input at most committed in one transaction: a file of this size or more is
committed alone, and a group is committed once its files reach it. Each commit checkpoints
(``store.CHECKPOINT_THRESHOLD``), which costs about as much as a small file's whole read and
for files with cards about as much as their read: eight files of 10,000 Greek deals with
cards took about 2.7 s CPU committed one by one, 1.9 s in groups of 64 MiB (``bench
parallel``'s folder, one process). A second Ctrl-C loses at most a group's work, and a
group's transaction holds about as much as one file of this size would."""


class _Committer:
    """The files of a run stored in groups of small files, one transaction each
    (``store.Group``; strict mode: one per file). A file that fails rolls its group back: it is
    reported ``failed`` and the group's files before it are stored again, one per transaction,
    so that a bad file never stops the others; a group whose commit fails is stored again the
    same way. Each group is rescored once it is committed."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, db_path: str | Path,
                 score: ScoreFn | None, strict: bool, names: Mapping[Path, str]) -> None:
        self.conn, self.db_path, self.score, self.strict = conn, db_path, score, strict
        self.names = names
        self.group = None if strict else store.Group(conn)
        self.reports: list[FileReport] = []
        self.members: list[tuple[Path, int]] = []
        """The open group's files and where their reports are."""
        self.bytes = 0
        self.options: dict[str, Any] = {}
        self.current: tuple[str, Future[str] | str | None] | None = None
        """The file being read and stored in a transaction of its own, with its hash."""
        self.settling: list[str] = []
        """The committed files whose games are being settled."""

    def file(self, load: FileIngest, path: Path, size: int, options: dict[str, Any],
             alone: bool = False, **extra: Any) -> FileReport:
        """Read and store one file (``load``), in the open group when it is small and not
        ``alone``."""
        self.options = options
        alone = alone or self.group is None or size >= GROUP_BYTES
        if alone:
            self.commit()
        group = None if alone else self.group
        self.current = (self.names.get(path, str(path)), extra.get("sha256"))
        try:
            report = load(self.conn, path, source=self.names.get(path), group=group,
                          **options, **extra)
        except StrictError as exc:  # strict mode stores each file alone: those before are in
            exc.stored = list(self.reports)
            raise
        except Exception as exc:  # the file (and its group) is rolled back; the next is read
            T.stop_if_interrupted(exc)
            report = failed_report(path, exc)
            self._redo()
        self.current = None
        self.reports.append(report)
        if group is None or report.failed:
            self._score([report])
        else:
            self.members.append((path, len(self.reports) - 1))
            self.bytes += size
            if len(self.members) >= GROUP_FILES or self.bytes >= GROUP_BYTES:
                self.commit()
        return report

    def commit(self) -> None:
        """Commit the open group and rescore its games; a commit that fails stores the
        group's files again one per transaction."""
        if self.group is None:
            return
        done = [self.reports[k] for _, k in self.members]
        try:
            self.group.commit()
        except Exception as exc:
            T.stop_if_interrupted(exc)
            self._redo()
            return
        self.members, self.bytes = [], 0
        self._score(done)

    def _redo(self) -> None:
        """Roll the open group back and store its files again, one per transaction."""
        if self.group is not None:
            self.group.rollback()
        self.conn = usable(self.conn, self.db_path)
        self.group = None if self.group is None else store.Group(self.conn)
        members, self.members, self.bytes = self.members, [], 0
        for path, k in members:
            sha: Future[str] | None = None  # a skipped file (missing, no reader) has none
            if (known := self.reports[k].sha256) is not None:
                sha = Future()
                sha.set_result(known)
            self.current = (self.names.get(path, str(path)), sha)
            try:
                self.reports[k] = ingest_file(self.conn, path, sha256=sha,
                                              source=self.names.get(path), **self.options)
            except StrictError:
                raise
            except Exception as exc:
                T.stop_if_interrupted(exc)
                self.reports[k] = failed_report(path, exc)
                self.conn = usable(self.conn, self.db_path)
            self.current = None
            self._score([self.reports[k]])

    def _score(self, reports: list[FileReport]) -> None:
        """Settle the games the committed ``reports`` touched; a failing settlement is said on
        each of them."""
        touched = [r for r in reports if r.games]
        if not touched:
            return
        said = FileReport("")
        self.settling = [r.source for r in touched]
        score_pending_safely(self.conn, said, self.score, self.strict)
        self.settling = []
        for r in touched:
            r.score_error = said.score_error

    def abandon(self) -> None:
        """Roll back a group left open by an interruption."""
        if self.group is not None:
            self.group.rollback()

    def interrupted(self) -> Interrupted:
        """The run's stop, once its open group is rolled back: the files in progress (the
        open group's, the one read alone) told apart by whether the database holds them,
        and the files being settled. A further Ctrl-C while the database is asked leaves the
        files not yet asked about ``unsure``."""
        going: list[tuple[str, Future[str] | str | None]] = [
            (self.reports[k].source, self.reports[k].sha256) for _, k in self.members
            if self.reports[k].skipped is None]
        going += [self.current] if self.current is not None else []
        held: dict[str, bool | None] = dict.fromkeys(source for source, _ in going)
        with suppress(KeyboardInterrupt):
            self.abandon()
            for source, sha in going:
                held[source] = self._holds(source, sha)
        before = sum(r.skipped is None and not r.failed and r.source not in held
                     and r.source not in self.settling for r in self.reports)
        return Interrupted([s for s, there in held.items() if there is False],
                           [s for s, there in held.items() if there] + self.settling,
                           [s for s, there in held.items() if there is None], before)

    def _holds(self, source: str, sha256: Future[str] | str | None) -> bool | None:
        """Whether the database holds this version of ``source`` (its log says so); ``None``
        when it cannot be asked. A file whose hash is not known yet was not stored."""
        if isinstance(sha256, Future):
            if not sha256.done() or sha256.cancelled() or sha256.exception() is not None:
                return False
            sha256 = sha256.result()
        if sha256 is None:
            return False
        try:
            self.conn = usable(self.conn, self.db_path)
            return store.log_state(self.conn, source, sha256)[0] == sha256
        except (duckdb.Error, store.DatabaseError):
            return None


class _Hashes:
    """Each file's sha256, computed in a thread while the database opens or the file before
    it loads (hashlib lets go of the GIL on large blocks)."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files
        self.at = 0
        self.known: dict[Path, str] = {}
        """Hashes known already (a ``Reading`` that hashed the files gives them)."""
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="trickbook-sha256")
        self.coming = self._submit(0)

    def _submit(self, at: int) -> Future[str] | None:
        path = self.files[at] if at < len(self.files) else None
        if path is None or not is_file(path) or reader_for(path) is None:
            return None
        if path in self.known:
            done: Future[str] = Future()
            done.set_result(self.known[path])
            return done
        return self.pool.submit(file_sha256, path)

    def next(self) -> Future[str] | None:
        """The hash of the next file (the one after it starts)."""
        self.at += 1
        found, self.coming = self.coming, self._submit(self.at)
        return found

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _ticker(progress: ProgressFn | None, path: Path, no: int, files: int, before: int,
            size: int, total: int) -> Callable[[int, int], None]:
    """Reports the progress of file ``no`` (``done`` of its ``size`` bytes, ``records`` read).
    ``done`` counts the text of the records read, which may differ from the bytes of the file
    (another encoding, other line ends): it is taken as at most ``size``."""

    def tick(records: int, done: int) -> None:
        if progress is not None:
            progress(Progress(str(path), no, files, before + min(done, size), total, records))

    return tick


def file_size(path: Path) -> int:
    """The bytes of ``path`` (0 for a file that is gone or cannot be read: its report says so)."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def failed_report(path: Path, exc: Exception) -> FileReport:
    """The report of a file whose transaction failed: nothing of it is stored."""
    report = FileReport(str(path), reader=getattr(reader_for(path), "name", None))
    text = str(exc).splitlines()[0] if str(exc) else ""
    report.failed = f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__
    report.error = exc
    return report


def usable(conn: duckdb.DuckDBPyConnection, db_path: str | Path) -> duckdb.DuckDBPyConnection:
    """``conn``, or a new connection when DuckDB invalidated it (after a fatal error such as a
    full disk); a database that cannot be opened again ends the run (``store.DatabaseError``)."""
    try:
        conn.execute("SELECT 1").fetchall()
        return conn
    except duckdb.Error:
        with suppress(duckdb.Error):
            conn.close()
    return store.connect(db_path)


def score_pending_safely(
    conn: duckdb.DuckDBPyConnection, report: FileReport | None,
    score: ScoreFn | None, strict: bool,
) -> None:
    """Rescore; a failing settlement (a bug, not bad data) leaves the games pending and is
    reported on the file instead of losing the stored data."""
    if score is None:
        return
    try:
        score(conn)
    except Exception as exc:
        T.stop_if_interrupted(exc)
        if strict:
            raise
        if report is not None:
            report.score_error = (str(exc) if isinstance(exc, GamesNotScored)
                                  else f"{type(exc).__name__}: {exc}")
