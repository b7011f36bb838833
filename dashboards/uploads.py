"""The Upload page's one door into ingest: save uploaded files, then ``ingest_paths``.

It writes through the one ingest entry point, as the Entry page does (docs/dashboards.md,
"Dependency direction"); the other pages read the stable tables only. Uploads are data from
outside: the name is reduced to a safe file name prefixed with the content's hash (so no upload
overwrites another; the name as uploaded is kept beside it, :data:`NAMES_FILE`, for the pages to
name it by), the size is bounded (``TRICKBOOK_UPLOAD_MAX_MB``, default 20 MB),
and a file that is not text (no encoding ingest reads takes its first 64 KiB, or it is full of
NUL bytes: ``ingest.formats.not_text``, which ``trickbook ingest`` asks too) is refused before
ingest sees it; a text file with a few damaged
bytes is read, as ``trickbook ingest`` reads it, and only the lines holding them are
quarantined. A refused file changes nothing in the database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import polars as pl

from dashboards.db import is_lock_error, release, retry_time
from dashboards.text import (
    UPLOAD_HASH,
    is_upload,
    quoted,
    short_paths,
    short_source,
    without_paths,
)
from ingest.csv_sheet import SIDECAR_SUFFIX, sidecar_of
from ingest.formats import not_text
from ingest.pipeline import SAME_CONTENT, FileReport, ingest_paths
from ingest.source import safe_name
from ingest.versions import CONFLICTS, WITH_REPLACE
from model.problems import counted
from scoring.store import score_pending

T = TypeVar("T")
UPLOAD_MAX_ENV = "TRICKBOOK_UPLOAD_MAX_MB"
WRITE_TOKEN_ENV = "TRICKBOOK_WRITE_TOKEN"
"""The club's write token: when set, pages that write (Upload) ask for it; viewing stays open."""
DEFAULT_UPLOAD_MAX_MB = 20


def write_token_set() -> bool:
    """Whether the club configured a write token (``TRICKBOOK_WRITE_TOKEN``)."""
    return bool(os.environ.get(WRITE_TOKEN_ENV, ""))


def write_allowed(given: str | None) -> bool:
    """Whether a user may write: no token configured, or ``given`` equals it (compared in
    constant time)."""
    token = os.environ.get(WRITE_TOKEN_ENV, "")
    if not token:
        return True
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def max_upload_mb() -> int:
    try:
        return max(1, int(os.environ.get(UPLOAD_MAX_ENV, DEFAULT_UPLOAD_MAX_MB)))
    except ValueError:
        return DEFAULT_UPLOAD_MAX_MB


@dataclass(frozen=True)
class UploadResult:
    name: str
    """The name as uploaded."""
    saved_as: str | None
    records: int = 0
    stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    file_issues: int = 0
    """Issues of the file itself, not of a record (``FileReport.file_issues``): quarantined and
    listed with :attr:`issues`, not counted in :attr:`records`."""
    replaced: int = 0
    """Game lines and deals of the earlier version of this name that this one superseded."""
    dropped: int = 0
    """Deals of the earlier version of this name that this one does not hold (removed when it
    replaces it, else kept as conflicts)."""
    removed: bool = False
    """The ``dropped`` deals were removed (``FileReport.removed``)."""
    earlier: tuple[str, ...] = ()
    """Files of its name ingested elsewhere (``trickbook ingest``, the samples) that it is a new
    version of, as the pages name them (``FileReport.earlier_files``)."""
    put_back: str = ""
    """The file whose later version it was put back over, as the pages name it: content read
    before, replaced since, uploaded again with :data:`REPLACE_BOX` (``FileReport.replaced_by``;
    docs/ingest.md, "Versions of a source")."""
    in_part: str = ""
    """What it left as its earlier version has it, read without :data:`REPLACE_BOX`: its new
    records stored and its changes not (``FileReport.in_part``, in the page's words)."""
    in_conflict: int = 0
    """Records in conflict with stored ones (of the quarantined; :attr:`conflicts` lists the
    first)."""
    conflicts: tuple[str, ...] = ()
    """The first conflicts with stored records (``game-conflict``, ``deal-conflict``), as ingest
    words them: each says whether ticking :data:`REPLACE_BOX` can take this version (only over
    an earlier version of this name: an upload, or a file ingested elsewhere whose games it
    holds)."""
    issues: tuple[str, ...] = ()
    """The first other quarantined records and issues of the file, ``line N: code:
    message``."""
    message: str = ""
    """Why the file was refused or skipped, or what ingest reported; empty when all went well."""


SHOWN = 5
"""Conflicts, and other issues, listed per upload (the Data quality page lists all)."""


def listed(shown: int, total: int) -> str:
    """Where the rest of a list is when the page shows the first ``shown`` of ``total`` records
    ("the first 5 here, all 12 on the Data quality page"); empty when it shows them all."""
    if total <= shown:
        return ""
    return f"the first {shown} here, all {total:,} on the Data quality page"


def version_note(r: dict[str, object]) -> str:
    """What an upload (an ``UploadResult`` as a dict, with ``replace``) did to the earlier
    version of its name (an earlier upload, or a file of that name ingested elsewhere whose
    games it holds), for the page's summary line."""
    if r.get("put_back"):
        note = f"; put back: it stands again in place of {r['put_back']}, which had replaced it"
    else:
        note = f"; a new version of {', '.join(r['earlier'])}" if r["earlier"] else ""
    note += f"; {r['replaced']} replacing the earlier version" if r["replaced"] else ""
    if r["dropped"]:
        note += (f"; {counted(r['dropped'], 'deal')} of the earlier version not in this one "
                 + ("removed" if r["removed"] else "kept as conflicts"))
    return note


def stored_name(name: str, data: bytes) -> str:
    """Where an upload is kept: its content's hash, then its safe name. Two uploads never
    overwrite each other (different content, different name), and the same content uploaded
    twice is the same file (ingest skips it as unchanged)."""
    return f"{hashlib.sha256(data).hexdigest()[:UPLOAD_HASH]}-{safe_name(name)}"


def refuse_reason(name: str, data: bytes, limit_mb: int | None = None) -> str | None:
    """Why an upload is refused before ingest, or None."""
    limit = (limit_mb or max_upload_mb()) * 1024 * 1024
    if len(data) > limit:
        return (f"{quoted(name)} is {len(data) / 1024 / 1024:.1f} MB, above the upload limit of "
                f"{limit // (1024 * 1024)} MB: ingest it with `trickbook ingest` instead")
    if not data.strip():
        return f"{quoted(name)} is empty: nothing was stored"
    reason = not_text(name, data)
    if reason is not None:
        return f"{quoted(name)} is {reason}: nothing was stored"
    return None


NAMES_FILE = ".uploaded-names.json"
"""The record, in the uploads folder, of the name each upload was given, by the name it is kept
under (:func:`stored_name`): a JSON object, which no reader takes (``trickbook ingest`` of the
folder passes it over). An upload saved before it was kept is named by its safe name."""

_NAMES_LOCK = threading.Lock()
"""One session of the server at a time adds to a folder's :data:`NAMES_FILE`."""


def uploaded_names(folders: Iterable[Path]) -> dict[str, str]:
    """The names uploads were given, by the name each is kept under, from the
    :data:`NAMES_FILE` of each of ``folders`` (none there, or unreadable: none)."""
    names: dict[str, str] = {}
    for folder in dict.fromkeys(folders):
        try:
            kept = json.loads((folder / NAMES_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(kept, dict):
            names.update((k, v) for k, v in kept.items() if isinstance(v, str))
    return names


def names_of(sources: Iterable[object]) -> dict[str, str]:
    """:func:`uploaded_names` of the folders of the uploads among ``sources`` (ingested files,
    ``ingest_log.source``)."""
    return uploaded_names(Path(str(s)).parent for s in sources if is_upload(s))


def keep_names(folder: Path, given: Mapping[str, str]) -> None:
    """Add ``given`` (the name an upload is kept under -> the name it was uploaded under) to
    the folder's :data:`NAMES_FILE`, written whole or not at all: the names that are not their
    safe name (the latest given to a file is kept; a safe name needs no record)."""
    given = {k: v for k, v in given.items() if safe_name(v) != v}
    if not given:
        return
    with _NAMES_LOCK:
        names = uploaded_names([folder])
        if all(names.get(k) == v for k, v in given.items()):
            return
        names.update(given)
        fd, partial = tempfile.mkstemp(prefix=NAMES_FILE, suffix=".part", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(names, out, ensure_ascii=False, indent=0, sort_keys=True)
        os.replace(partial, folder / NAMES_FILE)


def as_uploaded(message: str, saved_as: str | None, name: str) -> str:
    """``message`` with the stored file's name (its hash, then its safe name) as the user
    uploaded it: ``f256...-week_12.game.json`` is ``week 12.game.json``."""
    if not saved_as:
        return message
    stored, given = Path(saved_as), name.replace("\\", "/").rsplit("/", 1)[-1]
    stem = given.removesuffix(Path(given).suffix) if Path(given).suffix else given
    return message.replace(stored.name, given).replace(stored.stem, stem)


NOTHING_NEW = "nothing new to store"
"""The end of the note on a file ingested before (said as information, not a warning)."""
TO_PUT_BACK = "to put it back"
"""The end of the note on a file ingested before and replaced since (said as a warning)."""


def skip_note(skipped: str | None, names: Mapping[str, str] | None = None,
              replaced_by: str | None = None) -> str:
    """Why ingest did not read an uploaded file, in the page's words: a file ingested before
    has nothing new to store (its records are all in the database already), unless a later
    version of a file of its name replaced it since (``replaced_by``): then it says so, and how
    to put it back; an upload it is a copy of named as uploaded (``names``,
    :func:`uploaded_names`)."""
    if skipped == "unchanged":
        before = "uploaded before with this same content"
    elif skipped and skipped.startswith(SAME_CONTENT):
        copy = short_source(skipped.removeprefix(SAME_CONTENT), names)
        before = f"the same content as {copy}, ingested before"
    else:
        return skipped or ""
    if replaced_by is None:
        return f"{before}: {NOTHING_NEW}"
    return (f"{before}, but since replaced by {short_source(replaced_by, names)}: "
            f"{UPLOAD_AGAIN} {TO_PUT_BACK}")


REPLACE_BOX = "this file replaces its earlier version"
"""The Upload page's box that reads the files as ``trickbook ingest --replace`` does."""


UPLOAD_AGAIN = f'upload it again with "{REPLACE_BOX}" ticked'
"""What takes a new version of an upload, where the command says :data:`WITH_REPLACE`."""

READ_WITH_REPLACE = " (read with --replace)"
"""How ingest says a version dropped a deal with ``--replace`` (``Versions.kept_dropped``)."""
UPLOADED_WITH_BOX = f', uploaded with "{REPLACE_BOX}" ticked'
"""The same of an upload."""


def with_the_box(message: str) -> str:
    """``message`` with the Upload page's box where the command's option is named."""
    return message.replace(WITH_REPLACE, UPLOAD_AGAIN).replace(READ_WITH_REPLACE,
                                                               UPLOADED_WITH_BOX)


def for_the_page(message: str, *folders: Path, names: Mapping[str, str] | None = None) -> str:
    """An ingest message as the Upload page shows it: the server's folders cut off, every other
    path to its folder and name, an upload by the name it was given (``names``,
    :func:`uploaded_names`), and the page's box where the command's option is named."""
    return with_the_box(short_paths(without_paths(message, *folders), names))


def advice_for(source: str, message: str) -> str:
    """A stored message of ``source`` as the pages show it: for an upload, the Upload page's
    box where the command's option is named (an upload is taken again on that page)."""
    return with_the_box(message) if is_upload(source) else message


def cannot_keep(exc: OSError, folder: Path, db_folder: Path) -> str:
    """Why a file could not be saved in ``folder`` (the uploads folder beside the database), in
    the page's words: the folder by its name, never its server path."""
    where = folder.relative_to(db_folder) if folder.is_relative_to(db_folder) else folder.name
    reason = exc.strerror or without_paths(str(exc), folder, db_folder)
    return (f"nothing was stored: the folder {where}/ beside the database, where uploads and "
            f"entries are kept, cannot be written ({reason})")


def save(folder: Path, name: str, data: bytes) -> Path:
    """``data`` as ``folder/name``, written whole or not at all (a ``.part`` file renamed); a
    file already there (the same content under the same name) is kept, its time set to now: it
    is the latest upload of its name (``ingest.formats.reading_order``)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    if target.exists():
        os.utime(target)
    else:
        partial = target.with_name(target.name + ".part")
        partial.write_bytes(data)
        partial.replace(target)
    return target


WRITE_WAIT_FACTOR = 5
"""A writer waits this many times the readers' retry time for the lock (a page's read is short,
but several sessions may read one after another)."""


def retrying(write: Callable[[], T]) -> T:
    """``write()``, retried while another connection holds the database (a page reading it in
    this process or another); ingest is idempotent, so a retry after a refused open is safe.
    The connection this run of the page reads with is closed first (:func:`release`)."""
    release()
    deadline = time.monotonic() + WRITE_WAIT_FACTOR * max(retry_time(), 1.0)
    delay = 0.05
    while True:
        try:
            return write()
        except duckdb.Error as exc:
            if not is_lock_error(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


READ_WITH = "read with it"
"""The end of the note on a score sheet's game file uploaded with its sheet."""


COUNTS = ("records", "stored", "duplicates", "quarantined", "replaced", "dropped")
"""What the Per file table counts of an upload that was read."""


def outcome(r: dict[str, Any]) -> str:
    """What became of an upload (an ``UploadResult`` as a dict), in the Per file table's words:
    ``read``, or why it was not: ``refused``, ``ingested before`` (or ``replaced since``: a
    later version of its name replaced it, :func:`skip_note`), ``read with its sheet`` (a
    score sheet's game file), ``not read`` (no reader takes it, or ingest failed)."""
    message = str(r["message"])
    if r["saved_as"] is None:
        return "refused"
    if message.endswith(NOTHING_NEW):
        return "ingested before"
    if message.endswith(TO_PUT_BACK):
        return "replaced since"
    if message.endswith(READ_WITH):
        return "read with its sheet"
    return "not read" if message and not r["records"] else "read"


def per_file(results: list[dict[str, Any]]) -> pl.DataFrame:
    """The Upload page's Per file table: each upload's name, :func:`outcome` and counts; no
    counts for one that was not read (its zeros would say it held no records)."""
    said = [outcome(r) for r in results]
    read = [r if o == "read" else None for r, o in zip(results, said, strict=True)]
    return pl.DataFrame({
        "name": [r["name"] for r in results], "result": said,
        **{c: pl.Series(c, [r and r[c] for r in read], pl.Int64) for c in COUNTS}})


def sheet_games(files: list[tuple[str, bytes]]) -> dict[str, tuple[str, bytes]]:
    """The game file (``week12.game.json``, docs/csv-score-sheet.md) uploaded with each sheet
    (``week12.csv``), by the sheet's name as uploaded."""
    games = {safe_name(n).removesuffix(SIDECAR_SUFFIX): (n, d) for n, d in files
             if safe_name(n).endswith(SIDECAR_SUFFIX)}
    return {n: games[Path(safe_name(n)).stem] for n, _ in files
            if not safe_name(n).endswith(SIDECAR_SUFFIX) and Path(safe_name(n)).stem in games}


def _game_file_note(name: str, sheets: dict[str, tuple[str, bytes]]) -> UploadResult:
    """What becomes of an uploaded game file: read with its sheet, or refused without one."""
    sheet = next((s for s, (game, _) in sheets.items() if game == name), None)
    if sheet is None:
        stem = safe_name(name).removesuffix(SIDECAR_SUFFIX)
        return UploadResult(name, None, message=(
            f"{quoted(name)} is the game of a score sheet: upload it together with its sheet "
            f"({stem}.csv), which is read with it"))
    return UploadResult(name, "", message=f"the game of {sheet}: {READ_WITH}")


def _save_upload(folder: Path, name: str, data: bytes,
                 game: tuple[str, bytes] | None) -> Path:
    """An accepted upload saved under its content's name (:func:`stored_name`); a sheet with
    its game file is named by both contents and has the game beside it, where the sheet
    reader looks (``ingest.csv_sheet.sidecar_of``): a changed game is a new version."""
    target = save(folder, stored_name(name, data + (game[1] if game else b"")), data)
    if game is not None:
        save(folder, sidecar_of(target).name, game[1])
    return target


def ingest_uploads(files: list[tuple[str, bytes]], db_path: Path,
                   upload_dir: Path | None = None, replace: bool = False) -> list[UploadResult]:
    """Save each acceptable ``(name, bytes)`` under ``upload_dir`` and ingest them into
    ``db_path`` through ``ingest.pipeline.ingest_paths`` (the same path as ``trickbook ingest``);
    a score sheet's game file goes beside its sheet (:func:`sheet_games`).

    An upload is a new version of the earlier uploads of its name, and of a file of its name
    ingested elsewhere whose games it holds (``ingest/versions.py``): ``replace`` (the page's
    "this file replaces its earlier version") lets it supersede them, as ``trickbook ingest
    --replace``; without it what changed is a conflict, and the result says it was applied in
    part (``UploadResult.in_part``)."""
    folder = upload_dir or db_path.parent / "uploads"
    results: dict[int, UploadResult] = {}  # by the file's place: two may share a name
    saved: list[Path] = []
    sheets = sheet_games(files)
    for k, (name, data) in enumerate(files):
        reason = refuse_reason(name, data)
        if reason or safe_name(name).endswith(SIDECAR_SUFFIX):
            results[k] = (UploadResult(name, None, message=reason) if reason
                             else _game_file_note(name, sheets))
            continue
        game = sheets.get(name)
        if game is not None and refuse_reason(*game):
            game = None  # said of the game file itself; the sheet says it names no game
        try:
            target = _save_upload(folder, name, data, game)
        except OSError as exc:  # a read-only or full disk: said, and the next file tried
            results[k] = UploadResult(
                name, None, message=f"{name}: {cannot_keep(exc, folder, db_path.parent)}")
            continue
        with suppress(OSError):  # without the record the page names the file by its safe name
            keep_names(folder, {target.name: name} | (
                {sidecar_of(target).name: game[0]} if game is not None else {}))
        saved.append(target)
        results[k] = UploadResult(name, str(target))
    names = uploaded_names([folder])
    if saved:
        try:
            reports = retrying(lambda: ingest_paths(saved, db_path, score=score_pending,
                                                     replace=replace))
        except Exception as exc:  # a locked file or a pipeline bug: report, never crash the page
            text = without_paths(f"ingest failed: {exc}", folder, db_path.parent)
            for k, res in results.items():
                if res.saved_as:
                    results[k] = UploadResult(res.name, res.saved_as, message=text)
            return list(results.values())
        by_path = {str(Path(getattr(r, "source", ""))): r for r in reports}
        for k, res in results.items():
            report = by_path.get(res.saved_as or "")
            if report is not None:
                results[k] = _reported(res.name, res.saved_as, report, folder,
                                       db_path.parent, names=names)
        at = {res.name: k for k, res in results.items()}
        for sheet, (game, _) in sheets.items():  # a sheet ingested before: its game was too
            if game in at and sheet in at and results[at[sheet]].message.endswith(NOTHING_NEW):
                results[at[game]] = UploadResult(game, "", message=(
                    f"the game of {sheet}, ingested before with it: {NOTHING_NEW}"))
    return list(results.values())


def _reported(name: str, saved_as: str | None, report: FileReport, *folders: Path,
              names: Mapping[str, str]) -> UploadResult:
    """An uploaded file's result from its ingest report, in the page's words
    (:func:`for_the_page`): this upload by the name it was given, an earlier version of it by
    the name it was given (``names``) and its hash (``uploads/week 12.jsonl (upload
    375e98861a2b)``)."""

    def shown(message: str) -> str:
        return for_the_page(as_uploaded(message, saved_as, name), *folders, names=names)

    notes = [skip_note(report.skipped, names, report.replaced_by)]
    if report.score_error:
        notes.append(f"scoring failed: {report.score_error}")
    return UploadResult(
        name, saved_as, records=report.records, stored=report.stored, duplicates=report.duplicates,
        quarantined=report.quarantined, file_issues=report.file_issues,
        replaced=report.replaced, dropped=report.dropped,
        removed=report.removed, in_conflict=report.conflicts,
        earlier=tuple(shown(e) for e in report.earlier_files),
        put_back=shown(report.replaced_by) if report.replaced_by and not report.skipped else "",
        in_part=shown(report.in_part()),
        conflicts=tuple(shown(i.message) for i in report.issues
                        if str(i.code) in CONFLICTS)[:SHOWN],
        issues=tuple(shown(f"line {i.line}: {i.code}: {i.message}")
                     for i in report.issues if str(i.code) not in CONFLICTS)[:SHOWN],
        message=shown("; ".join(n for n in notes if n)),
    )
