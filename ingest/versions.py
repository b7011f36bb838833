"""A new version of a source against what its earlier version stored (docs/ingest.md, "Versions
of a source").

A source is its path; each content read from it is a version (``ingest_log.sha256``). Three
things a new version can change: a game line (players, rules, date), a deal, and a deal it no
longer holds. By default each is a conflict whose message names both versions (the stored
record's source, line and version, and this one) and the stored records stay. With ``replace``
the new version supersedes the earlier one, in the file's transaction: its game line replaces
the stored game (whose deals of this source are then stored again from this version), its deal
replaces the stored deal, and the deals it dropped are removed; every such change is a row of
``superseded`` (the earlier record, its line, both versions) and the games are rescored.
Records stored from other sources are never replaced.

A file saved under its content's name, ``<16 hex digits>-<name>`` (as the Upload page saves
uploads, so that none overwrites another), is a version of every such file of the same
``<name>`` in its folder: an upload of a weekly file is a new version of its earlier upload.
A file of the same name in another place (the weekly file ingested from a folder, then its
corrected copy uploaded) is an earlier version once this file names one of its games
(:func:`namesakes`, :meth:`Versions.adopt`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl

from ingest import store
from ingest.source import CONTENT_NAME, Issue, file_name
from model import tables as T
from model import variants as registry
from model.problems import Code, counted
from model.variant import Variant, deal_by_number

DROPPED_LINE = 0
"""The quarantine line of the deals an earlier version stored that this one does not hold (the
lines of a file start at 1): one row, ``<n> records at this line:`` and each deal."""

WITH_REPLACE = "ingest with --replace"
"""How a conflict's message says to take the new version (the Upload page names its box)."""

GAME_REPLACED, DEAL_REPLACED, DEAL_DROPPED = "game replaced", "deal replaced", "deal dropped"
"""The changes a row of ``superseded`` records."""
CONFLICTS = (Code.GAME_CONFLICT, Code.DEAL_CONFLICT)
"""What a record's difference from a stored one is; any other issue leaves it unread."""


def deals_named(conn: duckdb.DuckDBPyConnection, deals: Sequence[tuple[str, int, str | None]],
                variants: Callable[[str], Variant] = registry.variant,
                games: dict[str, tuple[str, str]] | None = None) -> list[str]:
    """Each deal ``(game_id, deal_no, record)`` as a conflict's message names it, from its
    record (canonical JSON, or ``None``) and its stored game's, looked up in one query: in its
    variant's words (``Variant.deal_named``: a bridge board by its event, board and pairs, not
    by its game's hash alone); a game not stored or of a variant not known, by its number and
    game id (``model.variant.deal_by_number``). ``games``: the stored games looked up before
    (``store.stored_games``), to which those found now are added: a file of many conflicts
    asks for each stored game once (one not stored yet is asked again)."""
    games = {} if games is None else games
    found = store.stored_games(conn, {g for g, _, _ in deals} - games.keys())
    games.update((g, stored) for g, stored in found.items() if stored is not None)
    said = []
    for game_id, deal_no, record in deals:
        deal = {**(json.loads(record) if record else {}), "game_id": game_id, "deal_no": deal_no}
        stored = games.get(game_id)
        game = json.loads(stored[1]) if stored else {"game_id": game_id}
        try:
            named = variants(stored[0]).deal_named if stored else deal_by_number
        except (KeyError, ValueError):  # a variant this run does not know (UnknownVariant)
            named = deal_by_number
        said.append(named(game, deal))
    return said


@dataclass
class Unread:
    """A version's records quarantined for a reason of their own (not a conflict with a stored
    record): how many, and the lines of the first few. Any one of them may be a deal the
    earlier version stored, cut off or mistyped in this one."""

    count: int = 0
    lines: list[int] = field(default_factory=list)

    def add(self, line: int) -> None:
        self.count += 1
        if len(self.lines) < 3:
            self.lines.append(line)

    def __str__(self) -> str:
        """``1 record not stored (line 14)``, ``4 records not stored (lines 14, 20, 31, ...)``."""
        lines = ", ".join(map(str, self.lines)) + (", ..." if self.count > len(self.lines) else "")
        return (f"{counted(self.count, 'record')} not stored "
                f"(line{'' if self.count == 1 else 's'} {lines})")


class Versions:
    """What one file's read does to the records of the earlier versions of its source."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, source: str, sha256: str | None,
                 replace: bool, now: datetime, new_source: bool = False,
                 variants: Callable[[str], Variant] = registry.variant) -> None:
        """``new_source``: no version of ``source`` is logged (``precheck`` asked);
        ``variants``: a variant by its name, which names a deal in a message."""
        self.conn, self.source, self.replace, self.now = conn, source, replace, now
        self.variants = variants
        self.named_games: dict[str, tuple[str, str]] = {}
        """The stored games a conflict's message named a deal of (:func:`deals_named`)."""
        self.sha256 = sha256 or "?"
        self.lineage = lineage(conn, source)
        """This source and the sources of its earlier versions (content-named copies, and the
        files of its name elsewhere it was found to be a version of, :meth:`adopt`)."""
        self.previous = (None if new_source and self.lineage == [source]
                         else store.latest_version(conn, self.lineage, sha256))
        """The version read before (``None``: the source is new, nothing is tracked)."""
        self.namesakes = namesakes(conn, source, self.lineage)
        """Logged files of this file's name in other places, not (yet) its earlier versions."""
        self.earlier_files: list[str] = []
        """The namesakes found to be its earlier versions (:meth:`adopt`)."""
        self.looked_at: set[str] = set()
        """The games :meth:`adopt` has looked up."""
        self.held: set[tuple[str, int]] = set()
        """The deals this version holds (stored, duplicate or in conflict), once there is an
        earlier version (or may be: :attr:`tracking`)."""
        self.named: set[str] = set()
        """The games this version names (a game line or a deal of theirs it holds), once there
        is an earlier version (or may be): only their deals can be dropped (:meth:`dropped`)."""
        self.withheld = 0
        """Game lines and deals of this version that change what an earlier version stored,
        kept out because it is read without ``replace`` (conflicts ``replace`` would take)."""
        self.cleared: dict[tuple[str, int], tuple[int, str]] = {}
        """Deals removed with their superseded game (line and record), to be stored again."""
        self.games: set[str] = set()
        """Games whose deals changed here (to be rescored)."""
        self.replaced = 0
        """Game lines and deals superseded (``replace``)."""
        self.dropped_deals = 0
        """Deals removed because this version does not hold them (``replace``)."""

    @property
    def tracking(self) -> bool:
        """Whether the deals and games this version holds are noted (:meth:`hold`): it has an
        earlier version, or a file of its name elsewhere may be one (:meth:`adopt`). Nothing is
        noted for a source read for the first time."""
        return self.previous is not None or bool(self.namesakes)

    def hold(self, ids: Iterable[tuple[str, int]] | pl.DataFrame) -> None:
        """Deals ``(game_id, deal_no)`` this version holds (or a frame of them)."""
        if not self.tracking:
            return
        if isinstance(ids, pl.DataFrame):
            ids = zip(ids["game_id"].to_list(), ids["deal_no"].to_list(), strict=True)
        held = set(ids)
        self.held |= held
        games = {g for g, _ in held}
        self.named |= games
        self.adopt(games)

    def name(self, game_id: str) -> None:
        """A game line of ``game_id`` this version holds (stored, duplicate or in conflict)."""
        if self.tracking:
            self.named.add(game_id)
            self.adopt([game_id])

    def adopt(self, games: Iterable[str]) -> None:
        """The files of this file's name elsewhere (:attr:`namesakes`) that stored a game line
        or a deal of ``games`` (games this version names) become its earlier versions, before
        any record of those games is compared: a corrected copy of a weekly file, uploaded or
        ingested from another folder, is a new version of the file ingested first. A file of
        its name that stored none of the games it names is another file (another club's
        ``league.jsonl``): nothing of it is compared, replaced or dropped."""
        fresh = set(games) - self.looked_at if self.namesakes else set()
        if not fresh:
            return
        self.looked_at |= fresh
        stored_from = store.sources_of_games(self.conn, fresh)
        found = [s for s in self.namesakes if s in stored_from]
        if not found:
            return
        self.namesakes = [s for s in self.namesakes if s not in found]
        self.earlier_files += found
        self.lineage += found
        self.previous = store.latest_version(self.conn, self.lineage, self.sha256)

    def _where(self, source: str, line: int, version: str | None) -> str:
        """Where the stored record comes from, both versions, and what takes this one: for a
        record of this source or an earlier version of it (:attr:`lineage`), ``--replace``;
        for another file's, a new version of that file: a file of its name (:func:`file_name`)
        holding its games, read in its place, uploaded or ingested from elsewhere."""
        if source == T.SIMULATED:
            return (f"stored by a simulation (trickbook simulate); this is version "
                    f"{self.sha256[:12]}: a file cannot change a simulated game")
        named = Path(source).name
        own = CONTENT_NAME.fullmatch(named)
        said = ("" if own and (version or "").startswith(named[:named.index("-")])
                else f" (version {(version or '?')[:12]})")  # an upload's name says its version
        where = f"stored from {source} line {line}{said}; this is version {self.sha256[:12]}"
        if source in self.lineage:
            return where + f": {WITH_REPLACE} to take this version"
        if own:  # an upload: its name as uploaded
            return where + (f": it comes from another file, and only a new version of "
                            f"{own['name']} uploaded under that name can change it")
        return where + (f": it comes from another file, and only a new version of {named} "
                        "(a file of that name, ingested or uploaded) can change it")

    def _record(self, change: str, key: str, line: int, record: str) -> None:
        T.insert(self.conn, T.SUPERSEDED, store.frame([{
            "source": self.source, "version": self.sha256, "previous": self.previous,
            "change": change, "record_key": key, "line": line, "record": record,
            "ingested_at": self.now}], T.TABLES[T.SUPERSEDED].schema))

    def game(self, game_id: str) -> str | None:
        """A game line with other content than the stored game ``game_id``: ``None`` when it
        supersedes it (``replace``, the same source: the stored game and its deals of this
        source are removed), else where the stored game comes from, for the conflict."""
        self.name(game_id)
        origin = store.game_origin(self.conn, game_id, self.sha256)
        if origin is None:
            return "earlier in this file"
        source, line, version, record = origin
        if not (self.replace and source in self.lineage):
            self.withheld += source in self.lineage
            return self._where(source, line, version)
        self._record(GAME_REPLACED, game_id, line, record)
        store.delete_game(self.conn, game_id)
        deals = store.source_deals(self.conn, self.lineage, game_id)
        records = store.deal_records(self.conn, [(g, n) for g, n, *_ in deals])
        store.delete_deals(self.conn, [(g, n) for g, n, *_ in deals])
        self.cleared.update({(g, n): (li, records[g, n]) for g, n, li, *_ in deals})
        self.games.add(game_id)
        self.replaced += 1
        return None

    def deal(self, game_id: str, deal_no: int) -> str | None:
        """A deal with other content than the stored deal of its number: ``None`` when it
        supersedes it (``replace``, the same source: the stored one is removed), else where
        the stored one comes from, for the conflict."""
        self.hold([(game_id, deal_no)])
        origin = store.deal_origin(self.conn, game_id, deal_no, self.sha256)
        if origin is None:
            return "earlier in this file"
        source, line, version, record = origin
        if not (self.replace and source in self.lineage):
            self.withheld += source in self.lineage
            return self._where(source, line, version)
        self._record(DEAL_REPLACED, f"{game_id}#{deal_no}", line, record)
        store.delete_deals(self.conn, [(game_id, deal_no)])
        self.games.add(game_id)
        self.replaced += 1
        return None

    @property
    def keeps_dropped(self) -> bool:
        """Whether a deal a ``replace`` dropped stays dropped here (:meth:`kept_dropped`): this
        read has no ``replace``, and the source was read before."""
        return not self.replace and self.previous is not None

    def kept_dropped(self, deals: Mapping[tuple[str, int], str | None],
                     ) -> dict[tuple[str, int], str]:
        """The deals ``(game_id, deal_no)`` of ``deals`` (none of them stored; each with its
        record, canonical JSON, which names it) that a version read with ``replace`` dropped
        from this source, each with its conflict's message: without ``replace`` a dropped deal
        stays dropped (an earlier version read again changes nothing stored), as a
        ``deal-conflict`` that says which version dropped it."""
        if not self.keeps_dropped:
            return {}
        wanted = {f"{g}#{n}": (g, n) for g, n in deals}
        if not wanted:
            return {}
        found = store.dropped_deals(self.conn, self.lineage, list(wanted), DEAL_DROPPED)
        self.withheld += len(found)
        ats = [wanted[key] for key in found]
        named = deals_named(self.conn, [(*at, deals[at]) for at in ats], self.variants,
                            self.named_games)
        return {at: (
            f"{said} was dropped from {source} by "
            f"its version {version[:12]} (read with --replace); this is version "
            f"{self.sha256[:12]}: {WITH_REPLACE} to take this version")
            for at, said, (source, version) in zip(ats, named, found.values(), strict=True)}

    def deal_named(self, game_id: str, deal_no: int, record: str | None) -> str:
        """A deal as a conflict's message names it (:func:`deals_named`)."""
        return deals_named(self.conn, [(game_id, deal_no, record)], self.variants,
                           self.named_games)[0]

    def stored_again(self) -> None:
        """The deals removed with their superseded game (:meth:`game`) that this version holds
        with other content: each a ``deal replaced`` row of ``superseded`` with its earlier
        record, as a changed deal of an unchanged game has (after the file's last record, its
        deals stored)."""
        again = [k for k in self.cleared if k in self.held]
        now = store.deal_records(self.conn, again)
        for g, n in again:
            line, record = self.cleared[g, n]
            if now.get((g, n)) != record:
                self._record(DEAL_REPLACED, f"{g}#{n}", line, record)
                self.replaced += 1

    def _versions_of(self, sources: Iterable[str]) -> dict[str, str]:
        """The version each of ``sources`` (files of this one's :attr:`lineage`) was last read
        in, this one aside: a stored deal's own file's version, as a conflict names it
        (``store.deal_origin``), not the latest of all the earlier files."""
        return {s: store.latest_version(self.conn, [s], self.sha256) or "?" for s in sources}

    def dropped(self, unread: Unread | None = None) -> list[Issue]:
        """The deals the earlier versions stored from this source, of the games this version
        names, that it does not hold (or holds only as a quarantined record): removed with
        ``replace``, else one ``deal-conflict`` each (at ``DROPPED_LINE``). While this version
        has ``unread`` records (a file cut short, a line mistyped), none is removed, even with
        ``replace``: it may be one of them. A game this version does not name at all is
        another file's of the same name (another club's ``league.jsonl`` uploaded, a weekly
        export of that week's games): its deals stay, and are no conflict."""
        if self.previous is None:
            return []
        gone = [d for d in store.source_deals(self.conn, self.lineage)
                if (d[0], d[1]) not in self.held and d[0] in self.named]
        records = store.deal_records(self.conn, [(g, n) for g, n, *_ in gone])
        if not self.replace or (unread is not None and unread.count):
            why = (f"{WITH_REPLACE} to drop it" if unread is None or not unread.count else
                   f"it is kept while this version has {unread}; to drop it, fix "
                   f"{'that' if unread.count == 1 else 'those'} and {WITH_REPLACE}")
            named = deals_named(self.conn, [(g, n, records[g, n]) for g, n, *_ in gone],
                                self.variants, self.named_games)
            version = self._versions_of({s for *_, s in gone})
            return [Issue(self.source, DROPPED_LINE, f"{g}#{n}", Code.DEAL_CONFLICT,
                          f"{said} stored from {s} line {li} (version "
                          f"{version[s][:12]}) is not in this version {self.sha256[:12]}: "
                          + why, records[g, n])
                    for (g, n, li, s), said in zip(gone, named, strict=True)]
        self.dropped_deals = len(gone) + sum(1 for k in self.cleared if k not in self.held)
        store.delete_deals(self.conn, [(g, n) for g, n, *_ in gone])
        lost = [(g, n, li, records[g, n]) for g, n, li, _ in gone] + [
            (g, n, li, r) for (g, n), (li, r) in self.cleared.items() if (g, n) not in self.held]
        for g, n, li, r in lost:
            self._record(DEAL_DROPPED, f"{g}#{n}", li, r)
            self.games.add(g)
        return []


def in_part(stored: int, withheld: int, kept: int, unread: int) -> str:
    """What a new version read left as its earlier version has it, for its report: ``stored``
    records stored, ``withheld`` changed records refused (``Versions.withheld``), ``kept``
    deals of the earlier version it leaves out kept, while ``unread`` of its records are
    quarantined for a reason of their own; empty when it changed nothing so. A version is
    applied in part (its new records stored, its changes not) until it is read with
    ``replace``; the conflicts list each change."""
    if not withheld and not kept:
        return ""
    left = ([f"{counted(withheld, 'changed record')} refused"] if withheld else []) + (
        [f"{counted(kept, 'deal')} of the earlier version that it leaves out kept"]
        if kept else [])
    done = f"applied in part: {counted(stored, 'record')} stored, but " if stored else \
        "not applied: "
    advice = (f"fix the {counted(unread, 'record')} not stored, then {WITH_REPLACE}" if unread
              else WITH_REPLACE)
    return f"{done}{' and '.join(left)} (the conflicts): {advice} to take this version whole"


def has_earlier(conn: duckdb.DuckDBPyConnection, source: str, sha256: str | None) -> bool:
    """Whether an earlier version of ``source`` was read (what this one does depends on it)."""
    return store.latest_version(conn, lineage(conn, source), sha256) is not None


def clear_replaced_quarantine(conn: duckdb.DuckDBPyConnection, sources: list[str],
                              new_source: bool) -> None:
    """Drop the quarantine rows a read of a source replaces (``sources``: its :func:`lineage`,
    the source first): its own earlier ones (none when it is ``new_source``) and those of the
    earlier versions it is a later version of. What is still wrong in this version is
    quarantined again, under it."""
    for earlier in sources[1:] if new_source else sources:
        store.clear_quarantine(conn, earlier)


def put_back(conn: duckdb.DuckDBPyConnection, path: Path, source: str, sha256: str) -> bool:
    """Whether ``source``, whose latest ingest read this same content (``sha256``), is read
    again because it was put back: it is a version of an upload (:func:`lineage`) that another
    version of its name has replaced since, and it was saved again after its last read (an
    upload of the same content sets the file's time to now, ``dashboards.uploads.save``).
    Read so, it takes over with ``--replace`` and else lists its conflicts; once read, it is
    unchanged again (a folder ingested again reads nothing twice)."""
    sources = lineage(conn, source)
    if len(sources) == 1 or store.latest_version(conn, sources) == sha256:
        return False
    read_at = store.last_read(conn, source)
    try:
        saved_at = path.stat().st_mtime
    except OSError:
        return False
    return read_at is not None and saved_at > read_at.timestamp()


def replaced_by(conn: duckdb.DuckDBPyConnection, source: str, sha256: str) -> str | None:
    """The file of ``source``'s name (:func:`file_name`) whose version superseded this content
    (``sha256``) since it was last read, under ``source`` or another (a row of ``superseded``
    whose earlier version it is): a corrected copy of a weekly file read with ``--replace``
    over the file ingested from a folder, or an upload over an earlier upload. ``None`` when
    nothing replaced it since, or only a file of another name (no version of this one). A
    file with this content named to be read with ``replace`` is put back: read again as the
    newest version (``ingest.pipeline.precheck``)."""
    if source == T.SIMULATED or source.startswith(T.ENTERED):
        return None
    name = file_name(source)
    return next((s for s in store.superseded_since(conn, sha256) if file_name(s) == name), None)


def put_back_note(source: str, later: str) -> str:
    """How a file skipped as read before says it was replaced since (:func:`replaced_by`), and
    how to put it back."""
    return f"since replaced by {later}: ingest {source} with --replace to put it back"


def namesakes(conn: duckdb.DuckDBPyConnection, source: str, sources: list[str]) -> list[str]:
    """The logged files of ``source``'s name (:func:`ingest.source.file_name`) in other places,
    less ``sources`` (its :func:`lineage`): each may be an earlier version of it
    (:meth:`Versions.adopt`). None for a source that is no file (a simulation's, the Entry
    page's ``entry/<game>/<deal>``)."""
    if source == T.SIMULATED or source.startswith(T.ENTERED):
        return []
    name = file_name(source)
    like = "%" + name.replace("%", "_")  # "_": any one character, as safe_name made it
    return [s for s in store.logged_sources_like(conn, like)
            if s not in sources and not s.startswith(T.ENTERED) and file_name(s) == name]


def lineage(conn: duckdb.DuckDBPyConnection, source: str) -> list[str]:
    """``source`` and the logged sources it is a later version of: for a content-named file
    (``CONTENT_NAME``), every logged ``<16 hex digits>-<name>`` of its folder."""
    path = Path(source)
    named = CONTENT_NAME.fullmatch(path.name)
    if named is None:
        return [source]
    return [source, *(s for s in store.logged_sources_ending(conn, "-" + named["name"])
                      if s != source and Path(s).parent == path.parent
                      and (m := CONTENT_NAME.fullmatch(Path(s).name)) is not None
                      and m["name"] == named["name"])]
