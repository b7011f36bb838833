"""Which reader reads a file: by extension and by sniffing its first bytes.

Each format is one module under ``ingest/`` exposing a ``READER`` (the ``Reader`` protocol of
``ingest/source.py``). Register a new one with one line in :data:`READERS`; the first reader whose
``sniff`` accepts a file reads it.
"""

from __future__ import annotations

import errno
import glob
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ingest import text as text_codec
from ingest.csv_sheet import READER as CSV_SHEET
from ingest.csv_sheet import SIDECAR_SUFFIX
from ingest.dds_hands import READER as DDS_HANDS
from ingest.json_document import READER as JSON_DOCUMENT
from ingest.jsonl import READER as JSONL
from ingest.lin import READER as LIN
from ingest.pbn import READER as PBN
from ingest.ppn import READER as PPN
from ingest.source import CONTENT_NAME, Reader
from ingest.traveller_csv import HEADER_MARK as TRAVELLER_MARK
from ingest.traveller_csv import READER as TRAVELLER
from ingest.traveller_csv import header_line
from ingest.traveller_csv import lacks as traveller_lacks

HEAD_BYTES = 4096
BOM = b"\xef\xbb\xbf"
"""UTF-8's byte order mark, which some editors write at a file's start."""


READERS: tuple[Reader, ...] = (
    JSONL,
    JSON_DOCUMENT,  # a .json file naming a record; one record per line is JSON Lines
    TRAVELLER,  # bridge travellers before generic score sheets
    CSV_SHEET,
    PPN,  # a PPN file is tagged as PBN is, with a game's Bula, Refe or Player1 among its tags
    PBN,
    LIN,
    DDS_HANDS,
)
"""Every registered reader, most specific first: one line per format."""


def first_bytes(path: Path, size: int = HEAD_BYTES) -> bytes | None:
    """The first ``size`` bytes of the file at ``path`` (what readers are chosen by), or
    ``None`` when it cannot be read."""
    try:
        with path.open("rb") as fh:
            return fh.read(size)
    except OSError:
        return None


def reader_for(path: Path) -> Reader | None:
    """The reader of ``path``, or ``None`` when no registered format claims it.

    The first reader whose ``sniff`` takes the file reads it, unless it took the file by its
    name alone and another knows the content as its own (``looks_like``): then the first of
    those reads it (a LIN, PPN or DDS file saved as ``.pbn`` is read as what it is, not
    quarantined as a PBN file without tags), or else the first that takes it by its content
    (a score sheet or traveller saved as ``.pbn``).

    Sidecar game files (``<sheet>.game.json``) belong to their score sheet and are never read alone.
    """
    if path.name.endswith(SIDECAR_SUFFIX):
        return None
    head = first_bytes(path)
    if head is None:
        return None
    if _packed_kind(head) is not None:  # a gzip file named .csv: no reader unpacks it
        return None
    head = head.removeprefix(BOM)  # a file saved "with signature" opens as any other
    claimed = [reader for reader in READERS if reader.sniff(path, head)]
    if not claimed or _looks_like(claimed[0], head) is not False:
        return claimed[0] if claimed else None
    knows = [reader for reader in claimed if _looks_like(reader, head)] or [
        reader for reader in READERS
        if reader not in claimed and reader.sniff(_unnamed(path), head)]
    return (knows or claimed)[0]


def _unnamed(path: Path) -> Path:
    """``path`` without its extension (``week12.pbn`` -> ``week12_pbn``): asked so, a table's
    reader goes by the content (a score sheet or traveller saved as ``.pbn``)."""
    return path.with_name(path.name.replace(".", "_"))


def _looks_like(reader: Reader, head: bytes) -> bool | None:
    """Whether ``head`` is ``reader``'s format by its content alone (``looks_like``), or
    ``None`` for a reader that does not tell."""
    looks = getattr(reader, "looks_like", None)
    return None if looks is None else bool(looks(head))


SHEET_SUFFIXES = (".csv", ".tsv")
"""Files a reader takes by their first line, not by their name (score sheets, travellers): one
found in a folder that no reader claims is reported, not passed over (:func:`no_reader`)."""


def no_reader(path: Path) -> str:
    """Why no reader takes ``path`` (a file :func:`reader_for` found no reader for), in the
    words of the report's ``skipped (...)``: for a table, what its first line lacks."""
    if (kind := packed(path)) is not None:
        return kind
    if (reason := not_text(path.name, first_bytes(path, text_codec.HEAD + 1) or b"")) is not None:
        return f"no reader: {reason}"
    if path.suffix.lower() not in SHEET_SUFFIXES:
        return _unknown(path)
    sheet = (f"not a score sheet ('#' lines, a `dealer` column or {path.stem}{SIDECAR_SUFFIX} "
             "beside it)")
    head = first_bytes(path)
    lacks = list(TRAVELLER_MARK) if head is None else traveller_lacks(header_line(head))
    if len(lacks) < len(TRAVELLER_MARK) // 2:  # most of a traveller's header: say what is not
        return (f"no reader: {sheet} nor a traveller: its header row lacks "
                f"{', '.join(map(repr, lacks))}")
    return f"no reader: {sheet} nor a traveller (columns {', '.join(TRAVELLER_MARK)})"


PACKED = ((b"\x1f\x8b", "a gzip file"), (b"PK\x03\x04", "a zip archive"),
          (b"PK\x05\x06", "a zip archive"), (b"BZh", "a bzip2 file"),
          (b"\xfd7zXZ\x00", "an xz file"), (b"\x28\xb5\x2f\xfd", "a zstd file"),
          (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"Rar!\x1a\x07", "a RAR archive"),
          (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel 97 workbook"))
"""The first bytes of packed files: their records are inside, and no reader unpacks them."""
WORKBOOKS = (".xlsx", ".xlsm", ".xls", ".ods")
"""Spreadsheet workbooks (zip archives or Excel 97 files inside): a score sheet kept in one."""


def packed(path: Path) -> str | None:
    """What ``path`` is when it is a packed file (:data:`PACKED`): ``skipped (no reader: ...)``
    says to unpack it, or to save a workbook's sheet as CSV; even one found in a folder is
    reported, since its records would be missed without a word. ``None`` for any other."""
    kind = _packed_kind(first_bytes(path) or b"")
    if kind is None:
        return None
    if path.suffix.lower() in WORKBOOKS or "Excel" in kind:
        return "no reader: a spreadsheet workbook: save its sheet as CSV (UTF-8) and ingest that"
    return f"no reader: {kind}: unpack it and ingest what it holds"


def _packed_kind(head: bytes) -> str | None:
    """What packed file opens with ``head`` (:data:`PACKED`), whatever its name says."""
    return next((kind for magic, kind in PACKED if head.startswith(magic)), None)


NAMED = frozenset({e for r in READERS for e in getattr(r, "extensions", ())} | {*SHEET_SUFFIXES})
"""The endings of the files a reader takes by name (``.jsonl``, ``.pbn``, ``.csv`` ...)."""


def found_to_read(path: Path) -> bool:
    """Whether a file found in a folder is read or reported: one a reader takes, a table or a
    packed file (an archive, a workbook) no reader takes, one that cannot be read, and,
    among what is no regular file, a link that leads to no file and a pipe, socket or device
    named as a format of ours (``week12.jsonl``). Such a pipe is not opened: it would wait for
    a writer."""
    if not is_file(path):
        if is_dir(path) or broken_link(path) is not None:
            return unreadable(path) is not None
        return path.suffix.lower() in NAMED
    return (path.suffix.lower() in SHEET_SUFFIXES or reader_for(path) is not None
            or unreadable(path) is not None or packed(path) is not None)


def _unknown(path: Path) -> str:
    """``no reader`` for a file neither named nor opening as a format of :data:`READERS`, with
    its first line (junk before a format's first line, a file in no format of ours)."""
    named = sorted(NAMED)
    if path.suffix.lower() in JSON_DOCUMENT.extensions:
        return (f"no reader: JSON that names no record in its first {HEAD_BYTES // 1024} KiB "
                '("record": "game" or "deal")')
    raw = first_bytes(path)
    if raw is None:
        return "no reader"
    first = text_codec.head_text(raw).lstrip().split("\n", 1)[0].strip()
    if not first:
        return "no reader: the file has no text"
    shown = (f"its first line {first if len(first) <= 60 else first[:59] + '…'!r} opens"
             if first.isprintable() else "its first bytes, which are not text, open")
    return (f"no reader: not named {', '.join(named)}, and {shown} no format read by content "
            "(a DDS hand file: NUMBER, PBN or a GIB deal)")


def not_text(name: str, data: bytes) -> str | None:
    """Why a file named ``name`` that opens with ``data`` (its first :data:`text_codec.HEAD`
    bytes, or all of it) is not text ingest reads, or ``None`` when it is: binary data (more NUL
    bytes than a damaged copy holds, ``text_codec.binary``), or bytes no encoding reads
    (``text_codec.sniff``; JSON is UTF-8 or UTF-16, other formats may declare an encoding).
    ``trickbook ingest`` quarantines such a file as one issue, the Upload page refuses it."""
    head = data[:text_codec.HEAD]
    if text_codec.binary(head):
        return (f"not a text file ({head.count(0):,} NUL bytes in its first {len(head):,} "
                "bytes: binary data, not text)")
    is_json = Path(name).suffix.lower() in (*JSONL.extensions, *JSON_DOCUMENT.extensions)
    try:  # the encodings every reader takes (UTF-8, UTF-16, a code page a sheet is saved in)
        text_codec.sniff(head, whole=len(data) <= len(head), declarable=not is_json)
    except text_codec.EncodingError as exc:
        return f"not text ingest reads: {exc}"
    return None


EMPTY = "empty: the file holds no records"
"""How a file with nothing but white space (or a byte order mark) is skipped: whatever its
format, it is reported so, not read (no records, no log row)."""


def empty(path: Path) -> str | None:
    """:data:`EMPTY` when ``path`` holds nothing but white space after a byte order mark of
    UTF-8 or UTF-16 (a file saved before anything was typed into it), else ``None``. A file of
    zero bytes alone is not empty but damaged (a disk's or a copy's), and read as it is."""
    head = first_bytes(path, HEAD_BYTES + 1)
    if head is None or len(head) > HEAD_BYTES:
        return None
    for mark in (BOM, b"\xff\xfe", b"\xfe\xff"):
        head = head.removeprefix(mark)
    text = head.replace(b"\x00", b"")  # UTF-16's white space is half zero bytes
    return EMPTY if not text.strip() and (text or not head) else None


def is_file(path: Path) -> bool:
    """``path.is_file()``, False where that cannot be told (a folder on its way that may not
    be searched raises ``PermissionError``): the file is then reported unreadable."""
    try:
        return path.is_file()
    except OSError:
        return False


def is_dir(path: Path) -> bool:
    """``path.is_dir()``, False where that cannot be told (as :func:`is_file`)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def unreadable(path: Path) -> str | None:
    """Why the file or folder at ``path`` cannot be read (``unreadable: Permission denied``),
    or ``None`` when it can."""
    try:
        if is_dir(path):
            with os.scandir(path):
                return None
        with path.open("rb"):
            return None
    except OSError as exc:
        return f"unreadable: {exc.strerror or type(exc).__name__}"


def expand(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """Files named by ``paths`` (files, folders, globs) in a stable order, each once.

    The flag tells whether the file was named explicitly (a file or a glob match) rather than found
    by walking a folder: files found in folders without a reader are skipped silently.
    """
    seen: set[Path] = set()

    def once(p: Path, explicit: bool) -> Iterator[tuple[Path, bool]]:
        try:
            key = p.resolve()
        except (OSError, RuntimeError):  # a symbolic link loop: reported as missing
            key = p.absolute()
        if key not in seen:
            seen.add(key)
            yield p, explicit

    for item in paths:
        p = Path(item)
        if is_dir(p):
            for f in _walk(p):
                yield from once(f, False)
        elif os.path.exists(p):  # False where it cannot be told: named all the same below
            yield from once(p, True)
        else:
            matches = matched(str(item))
            if not matches:
                yield from once(p, True)  # the caller reports it missing or unreadable
            for m in matches:
                if is_dir(m):
                    for f in _walk(m):
                        yield from once(f, False)
                else:
                    yield from once(m, True)


def matched(pattern: str) -> list[Path]:
    """What a glob matches, sorted. ``**`` (any folders below) walks as a folder is walked
    (:func:`_walk`): links to folders are not followed, so a link loop is walked once, where
    Python's ``glob`` would follow it without end; names starting with a dot match only a
    pattern part that does too, as with ``glob``."""
    if "**" not in pattern:
        return sorted(Path(m) for m in glob.glob(pattern))
    parts = Path(pattern).parts
    fixed = next(i for i, part in enumerate(parts) if glob.has_magic(part))
    base, rest = Path(*parts[:fixed]) if fixed else Path(), parts[fixed:]
    dotted = any(part.startswith(".") for part in rest)
    try:
        found = list(base.glob("/".join(rest)))
    except ValueError:  # ``**`` inside a name (``week**.csv``): ``*`` to ``glob``, as here
        return sorted(Path(m) for m in glob.glob(pattern))
    except OSError:  # a folder on the way that cannot be listed: reported as missing
        return []
    return sorted(m for m in found
                  if dotted or not any(p.startswith(".") for p in m.relative_to(base).parts))


def not_a_file(path: Path) -> str | None:
    """``not a regular file`` when something is at ``path`` that is neither a file nor a folder
    (a pipe, a socket, a device): its bytes are not read (a pipe would wait for a writer)."""
    try:
        path.stat()
    except OSError:
        return None
    return "not a regular file (a pipe, socket or device)"


def broken_link(path: Path) -> str | None:
    """Why a symbolic link at ``path`` leads to no file (a loop, or nothing at its end), or
    ``None`` (not a link, or one that leads somewhere)."""
    try:
        if not path.is_symlink():
            return None
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "unreadable: a loop of symbolic links"
        return "unreadable: a symbolic link to nothing (its target is missing)"
    return None


def hidden(path: Path) -> str | None:
    """Why ``path`` cannot be looked at (``unreadable: Permission denied``: a folder on its way
    may not be searched), or ``None``."""
    try:
        path.lstat()
    except PermissionError as exc:
        return f"unreadable: {exc.strerror or type(exc).__name__}"
    except OSError:
        return None
    return None


def _walk(folder: Path) -> list[Path]:
    """The files under ``folder``, sorted, with what may be reported as not read: the folders
    that cannot be listed, and what is no regular file: a link that leads to no file (a loop,
    or a missing target), a pipe, a socket or a device (a hidden one, such as an editor's lock
    ``.#week12.csv``, is passed over; :func:`found_to_read` says which are reported). Links to
    folders are not followed (a link loop, or a link to a parent, would otherwise be walked
    again and again)."""
    found: list[Path] = []

    def unlisted(exc: OSError) -> None:
        if exc.filename is not None:
            found.append(Path(exc.filename))

    for root, _dirs, files in os.walk(folder, followlinks=False, onerror=unlisted):
        found += [q for name in files if is_file(q := Path(root) / name)
                  or not name.startswith(".")]  # a link to nothing, a pipe, a socket, a device
    return sorted(found, key=reading_order)


def reading_order(path: Path) -> tuple[str, str, float, str]:
    """Files of a folder by name; the versions of one upload (``CONTENT_NAME``,
    ``<16 hex digits>-<name>``) by their ``name`` and then oldest first, so the last upload is
    read last (and, with ``--replace``, is the version that stands)."""
    named = CONTENT_NAME.fullmatch(path.name)
    if named is None:
        return str(path.parent), path.name, 0.0, path.name
    try:
        uploaded = path.stat().st_mtime
    except OSError:
        uploaded = 0.0
    return str(path.parent), named["name"], uploaded, path.name
