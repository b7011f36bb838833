"""Text encodings of input files: UTF-8 (with or without a byte order mark), UTF-16 (with a byte
order mark, or detected by its zero bytes), a single-byte code page declared in the file (``#
encoding: cp1253``) or detected, else the file is refused with the reason (docs/ingest.md,
"Encodings").

Detection of a code page is a guess, so it is made only among the few a club's spreadsheet
writes (Windows Western, Greek, Cyrillic and Central European, and KOI8-R) and only when the text
it gives reads as words of one script, cased as words are; a user who knows better declares it.
"""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

HEAD = 1 << 16
"""Bytes an encoding is sniffed from."""
CODE_PAGES = ("cp1252", "cp1253", "cp1251", "cp1250", "koi8_r")
"""Single-byte code pages tried when a file is neither UTF-8 nor UTF-16, in this order (the
first of those that read it best)."""
_DECLARED = re.compile(rb"^\s*#\s*(?:encoding|charset|coding)\s*[:=]\s*([A-Za-z0-9_.-]+)",
                       re.IGNORECASE | re.MULTILINE)
_WORD = re.compile(r"[^\W\d_]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ESCAPED = re.compile("[\udc80-\udcff]+")
"""Bytes that are not UTF-8, as ``surrogateescape`` decodes them."""


class EncodingError(ValueError):
    """No encoding reads the file; the message says what was tried and where it failed."""


def declared(head: bytes) -> str | None:
    """The encoding a ``# encoding: NAME`` line of the head declares (``None`` if none)."""
    m = _DECLARED.search(head)
    return m.group(1).decode("ascii") if m else None


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "?"


def plausible(text: str) -> int:
    """How much ``text`` reads as words: letters of words that keep to one script, where a
    Latin word is mostly ASCII (an accent here and there), a Greek or Cyrillic word has no ASCII
    letter and is cased as a word is (:func:`cased`), and a Greek word has its final sigma only
    at its end and at most one accent. Text decoded with the wrong code page scores lower: its
    words mix scripts, are Latin words of accented letters only, hold symbols (``£``, ``³``,
    ``¹``) between letters, or change case inside (KOI8-R read as cp1251 turns ``Иван`` into
    ``иВАН``, read as cp1253 into ``ιΧΑΞ``)."""
    score = -3 * len(_SYMBOL_IN_WORD.findall(text))
    for word in _WORD.findall(text):
        high = [c for c in word if ord(c) > 127]
        if not high:
            continue
        scripts = {_script(c) for c in high}
        if len(scripts) != 1:
            score -= len(word)
        elif scripts == {"LATIN"}:
            score += len(word) if 2 * len(high) <= len(word) else -len(word)
        elif len(high) != len(word) or not cased(word) or few_vowels(word) or (
                scripts == {"GREEK"} and ("ς" in word[:-1] or not _RARE_GREEK.isdisjoint(word)
                                          or sum("TONOS" in unicodedata.name(c, "")
                                                 for c in word) > 1)):
            score -= len(word)
        else:
            score += len(word)
    return score


ALPHABETS = tuple(frozenset(letters) for letters in (
    "čćđšž",  # Serbian, Croatian, Bosnian, Slovene
    "ąćęłńóśźż",  # Polish
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "áéíóöőúüű",  # Hungarian
    "ăâîşţ",  # Romanian
    "äöüß",  # German
    "àâæçèéêëîïôùûüÿœ",  # French
    "áéíñóúü",  # Spanish
    "àáâãçéêíóôõú",  # Portuguese
    "àèéìíîòóùú",  # Italian
    "åæéø",  # Danish, Norwegian
    "åäéö",  # Swedish
    "áæéíðóöúýþ",  # Icelandic
))
"""The Latin letters beyond ASCII (small) of the languages the Latin code pages serve."""


def one_alphabet(text: str) -> bool:
    """Whether the Latin letters of ``text`` beyond ASCII all belong to one language's
    alphabet (:data:`ALPHABETS`): what settles two code pages that both read it as words.
    Serbian ``Nikolić, Đurić`` saved as cp1250 reads in cp1252 as ``Nikoliæ, Ðuriæ``, Danish
    ``æ`` with Croatian-style ``š``; Danish ``Kærgaard, Søren`` in cp1250 reads as
    ``Kćrgaard, Sřren``."""
    letters = {c for c in text.lower() if ord(c) > 127 and c.isalpha() and _script(c) == "LATIN"}
    return bool(letters) and any(letters <= alphabet for alphabet in ALPHABETS)


_RARE_GREEK = frozenset("ΐΰ")
"""Greek letters with both diaeresis and accent: rare in Greek words, but what cp1253 makes of
the commonest Cyrillic letter (``а``, ``А``): Cyrillic read as Greek holds them."""


VOWELS = frozenset("αεηιουωάέήίόύώϊϋΐΰаеёиоуыэюяіїє")
"""The vowels of Greek and Cyrillic words (small letters)."""


def few_vowels(word: str) -> bool:
    """Whether a Greek or Cyrillic ``word`` of four letters or more has fewer than a quarter of
    vowels: words of either script have more (``Χρήστος``, ``Пётр``), while Cyrillic read in
    the Greek code page, or Greek in the Cyrillic one, loses most of them (``Борис`` saved as
    cp1251 reads as ``Αξπθρ`` in cp1253: its ``о``, ``и`` become ``ξ``, ``θ``)."""
    return len(word) >= 4 and 4 * sum(c in VOWELS for c in word.lower()) < len(word)


def cased(word: str) -> bool:
    """Whether ``word`` is cased as words are written: all small, all capitals, or a capital
    and then small letters."""
    return word.islower() or word.isupper() or (word[:1].isupper() and word[1:].islower())


_SYMBOL_IN_WORD = re.compile(r"(?<=[^\W\d_])[^\w\s\x00-\x7f]|[^\w\s\x00-\x7f](?=[^\W\d_])")
"""A symbol beyond ASCII (not a letter, digit or space) next to a letter."""


def _utf16(head: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the head looks like UTF-16 without a byte order mark (text
    where every other byte is zero)."""
    even, odd = head[0::2], head[1::2]
    if len(head) >= 4 and odd.count(0) > 0.4 * len(odd) and even.count(0) == 0:
        return "utf-16-le"
    if len(head) >= 4 and even.count(0) > 0.4 * len(even) and odd.count(0) == 0:
        return "utf-16-be"
    return None


def utf32(head: bytes) -> str | None:
    """``utf-32`` with a byte order mark, ``utf-32-le``/``-be`` without one (the two high bytes of
    every four zero, as in text of the first 65,536 characters), else ``None``. (Its zeros would
    otherwise decode as UTF-8 NULs between the letters.)"""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    n = len(head) // 4 * 4
    if n < 8:
        return None
    lanes = [head[i:n:4] for i in range(4)]
    zeros = [lane.count(0) for lane in lanes]
    if zeros[2] == zeros[3] == n // 4 and zeros[0] < n // 4:  # Greek Ά is 86 03 00 00
        return "utf-32-le"
    if zeros[0] == zeros[1] == n // 4 and zeros[3] < n // 4:
        return "utf-32-be"
    return None


def wide(head: bytes) -> str | None:
    """The UTF-32 or UTF-16 encoding of a file whose first bytes are ``head`` (:func:`utf32`,
    :func:`utf16`), else ``None``: text whose line ends are not single bytes."""
    return utf32(head) or utf16(head)


def utf16(head: bytes) -> str | None:
    """The UTF-16 encoding of a file whose first bytes are ``head``: ``utf-16`` with a byte
    order mark, ``utf-16-le``/``-be`` without one (detected by its zero bytes), else ``None``."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return _utf16(head)


def sniff(head: bytes, whole: bool = False, declarable: bool = True) -> str:
    """The encoding of a file whose first bytes are ``head`` (``whole``: the entire file).

    Raises ``EncodingError`` naming what was tried, and what to do: declare the encoding, or
    (not ``declarable``: JSON, which is UTF-8 or UTF-16) save the file as UTF-8."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    wider = utf32(head)
    if wider is not None:
        return wider
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    name = declared(head)
    if name is not None:
        return _text_encoding(name)
    wide = _utf16(head)
    if wide is not None:
        return wide
    try:
        head.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if not whole and exc.start >= len(head) - 3 and exc.reason == "unexpected end of data":
            return "utf-8"  # a character cut at the end of the head
        if mostly_utf8(head):
            return "utf-8"
        where = exc.start
    page = code_page(head)
    if page is None:
        if stray_bytes_only(head) or few_bad_lines(head, whole) or utf8_lines(head):
            return "utf-8"
        advice = ("declare its encoding with a first line '# encoding: <name>'" if declarable
                  else "save it as UTF-8")
        raise EncodingError(
            f"not UTF-8 (at byte offset {where}) nor UTF-16, and no code page of "
            f"{', '.join(CODE_PAGES)} reads it as text: {advice}")
    return page


def code_page(data: bytes) -> str | None:
    """The code page of :data:`CODE_PAGES` that reads ``data`` best as words (:func:`plausible`,
    then :func:`one_alphabet`), or ``None`` when none reads it as text (each gives control
    characters, fails to decode, or makes less of it than words)."""
    best: tuple[int, bool, str] | None = None
    for page in CODE_PAGES:
        try:
            text = data.decode(page)
        except UnicodeDecodeError:
            continue
        if _CONTROL.search(text):
            continue
        score = (plausible(text), one_alphabet(text))
        if best is None or score > best[:2]:
            best = (*score, page)
    return None if best is None or best[0] < 0 else best[2]


_ASCII = bytes(range(128))
"""The bytes of ASCII (``bytes.translate`` deletes them to count the others)."""
PAGE_NAMES = {"cp1252": "Windows Western", "cp1253": "Windows Greek",
              "cp1251": "Windows Cyrillic", "cp1250": "Windows Central European",
              "koi8_r": "KOI8-R"}
"""The code pages of :data:`CODE_PAGES` in words, as a message names them."""


def readable(data: bytes, page: str | None = None) -> tuple[str, str]:
    """A line that is not UTF-8 as text a user can read, and in words what it was read as.

    In the code page ``page`` (the one its file's lines that are not UTF-8 read as), else in
    :func:`code_page` of the line, when that reads it as words: Cyrillic names saved in cp1251
    are kept as ``Иван``, not as replacement characters. A line that is mostly UTF-8
    (:func:`mostly_utf8`: a byte flipped), that no code page reads as words, or that holds one
    byte beyond ASCII (a stray byte: one letter is too little to tell a code page by) is read
    as UTF-8 with each byte that does not decode written ``\\xNN``, so no byte is lost."""
    if not mostly_utf8(data) and len(data.translate(None, _ASCII)) > 1:
        for choice in (page, code_page(data)):
            if choice is None:
                continue
            try:
                text = data.decode(choice)
            except UnicodeDecodeError:
                continue
            if not _CONTROL.search(text) and plausible(text) > 0:
                return text, f"{choice} ({PAGE_NAMES.get(choice, choice)})"
    return (data.decode("utf-8", errors="backslashreplace"),
            "UTF-8, each byte that is not UTF-8 written \\xNN")


def _text_encoding(name: str) -> str:
    """The codec a ``# encoding:`` line names, if it decodes bytes to text (``base64`` and
    ``rot13`` are codecs too, of another kind); else ``EncodingError``."""
    try:
        codec = codecs.lookup(name).name
        b"\n".decode(codec, errors="replace")  # a LookupError for a codec not of text
    except LookupError as exc:
        known = "not an encoding of text" if "text encoding" in str(exc) else "not known"
        raise EncodingError(f"the file declares the encoding {name!r}, which is {known}") \
            from exc
    return codec


def mostly_utf8(data: bytes) -> bool:
    """Whether ``data``, not all UTF-8, is UTF-8 with a few stray bytes (a byte flipped, a
    character cut at the end, a line pasted from another encoding): it holds at least as many
    UTF-8 characters beyond ASCII as bytes that do not decode. Text in a single-byte code page
    fails at nearly every letter beyond ASCII and seldom forms a UTF-8 sequence."""
    text, bad = _undecoded(data)
    beyond_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    return 0 < bad <= beyond_ascii - bad


def _undecoded(data: bytes) -> tuple[str, int]:
    """``data`` as UTF-8, each byte that does not decode kept as a surrogate, and how many
    such bytes there are."""
    text = data.decode("utf-8", errors="surrogateescape")
    return text, len(data) - len(text.encode("utf-8", errors="ignore"))


STRAY_SHARE = 1000
"""At most one byte in this many (and at least ``STRAY_FEW`` in any file) may be stray for
:func:`stray_bytes_only`."""
STRAY_FEW = 8


def stray_bytes_only(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 (most often plain ASCII) but for a few stray bytes that no code
    page makes words of (a ``0x81`` from a broken copy) and control characters (a NUL; binary
    data has them by the hundred): at most ``STRAY_FEW`` of both together, or one in
    :data:`STRAY_SHARE`. Such a file is read as UTF-8, so only the lines holding a stray byte
    or a control character are lost."""
    text, bad = _undecoded(data)
    controls = len(_CONTROL.findall(text))
    return bad > 0 and bad + controls <= max(STRAY_FEW, len(data) // STRAY_SHARE)


def binary(head: bytes) -> bool:
    """Whether a file whose first bytes are ``head`` is binary data rather than text with a few
    damaged bytes: more NUL bytes than :func:`stray_bytes_only` lets pass (binary data has them
    by the hundred), and not UTF-16 or UTF-32 (whose zero bytes are halves of its letters)."""
    return head.count(0) > max(STRAY_FEW, len(head) // STRAY_SHARE) and wide(head) is None


BAD_LINE_SHARE = 4
"""At most one line in this many may not decode for :func:`few_bad_lines`."""


def few_bad_lines(data: bytes, whole: bool = True) -> bool:
    """Whether ``data`` is UTF-8 but for a few whole lines, at most one in
    :data:`BAD_LINE_SHARE` (a block of binary pasted in, a line of another file): such a file is
    read as UTF-8, so only those lines are lost (a CSV line that does not decode is its own
    issue, :func:`lines`), not the file. The last line of a head (``whole`` false) may be cut
    inside a character and is not counted."""
    lines = data.split(b"\n")
    if not whole:
        lines = lines[:-1]
    bad = sum(not utf8(line) for line in lines)
    return bad > 0 and bad * BAD_LINE_SHARE <= len(lines)


def utf8_lines(data: bytes) -> bool:
    """Whether a line of ``data`` holds letters beyond ASCII in UTF-8 (a single-byte code page
    seldom makes a UTF-8 sequence): a file that no code page reads, with such a line, is UTF-8
    with lines of another encoding pasted in; read so, only those lines are lost, each its own
    issue (:func:`lines`), not the file."""
    return any(not line.isascii() and utf8(line) for line in data.split(b"\n"))


def utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 throughout."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def utf8_else_latin1(data: bytes) -> str:
    """``data`` decoded as UTF-8, each byte that does not decode read as its Latin-1 letter."""
    return _ESCAPED.sub(_latin1, data.decode("utf-8", errors="surrogateescape"))


def _latin1(m: re.Match[str]) -> str:
    """Bytes that do not decode as UTF-8 (``surrogateescape``) as their Latin-1 letters."""
    return m.group().encode("utf-8", errors="surrogateescape").decode("latin-1")


def head_text(head: bytes) -> str:
    """The first bytes of a file as text, for a reader's sniff (its encoding guessed as
    ``sniff`` does; what does not decode is replaced; a byte order mark is dropped)."""
    try:
        encoding = sniff(head)
    except EncodingError:
        encoding = "latin-1"
    return head.decode(encoding, errors="replace").lstrip("\ufeff")


def file_encoding(path: Path) -> str:
    """The encoding of the file at ``path`` (``sniff`` of its head)."""
    with path.open("rb") as fh:
        head = fh.read(HEAD)
    return sniff(head, whole=len(head) < HEAD)


def lines(path: Path, encoding: str) -> Iterator[tuple[int, str | EncodingError]]:
    """``(line number, text)`` of every line of a file, without the line end, decoded with
    ``encoding`` (``file_encoding``); a line that does not decode comes as an ``EncodingError``
    in place of its text, and the lines after it are read all the same. A line ends at LF,
    CRLF or a lone CR (old Mac files). UTF-16 and UTF-32 files are decoded whole (their line
    ends are not single bytes), each unit that does not decode (a lone surrogate, a last byte
    cut off) marking its line alone (:data:`UNDECODED`)."""
    if wide_encoding(encoding):
        text = path.read_bytes().decode(encoding, errors=UNDECODED)
        for no, line in enumerate(lines_of(text), start=1):
            yield no, (EncodingError(f"the line is not {encoding}: a damaged unit at its "
                                     f"character {line.index(_MARK) + 1} (a lone surrogate or "
                                     "a cut-off byte)") if _MARK in line else line)
        return
    with path.open("rb") as fh:
        if encoding == "utf-8-sig":
            if fh.read(3) != codecs.BOM_UTF8:
                fh.seek(0)
            encoding = "utf-8"
        no = 0
        for blob in fh:
            for part in blob.rstrip(b"\r\n").split(b"\r"):
                no += 1
                try:
                    yield no, part.decode(encoding)
                except UnicodeDecodeError as exc:
                    yield no, EncodingError(
                        f"the line is not {encoding}: its byte {exc.start + 1} is "
                        f"0x{part[exc.start]:02x} (a stray byte; if the file is saved in "
                        "another encoding, name it in a first line '# encoding: <name>')")


def unended(path: Path, encoding: str) -> bool:
    """Whether the last line of the file at ``path`` (decoded with ``encoding``, as
    :func:`lines` reads it) has no line end: where a file cut short inside a line stops (as
    does one whose editor wrote no last line end)."""
    if wide_encoding(encoding):
        text = path.read_bytes().decode(encoding, errors="replace")
        return bool(text) and _LINE_END.fullmatch(text[-1]) is None
    with path.open("rb") as fh:
        if fh.seek(0, os.SEEK_END) == 0:
            return False
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) not in (b"\n", b"\r")


_LINE_END = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""The line ends of ``str.splitlines``."""


def lines_of(text: str) -> Iterator[str]:
    """``text.splitlines()`` one line at a time: a large file's lines are not all held at once
    (a 100 MB PBN file is some 2.5 million lines, 200 MB of them as a list)."""
    start = 0
    for end in _LINE_END.finditer(text):
        yield text[start:end.start()]
        start = end.end()
    if start < len(text):
        yield text[start:]


def wide_encoding(encoding: str) -> bool:
    """Whether ``encoding`` is UTF-16 or UTF-32 (a letter is two or four bytes)."""
    return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))


_MARK = "\udcff"
"""What :data:`UNDECODED` puts for a unit of UTF-16 or UTF-32 that does not decode: a lone
surrogate, which those decoders never give for good input."""
UNDECODED = "trickbook-undecoded"
"""The error handler that marks each unit that does not decode with :data:`_MARK`."""


def _marked(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return _MARK, exc.end


codecs.register_error(UNDECODED, _marked)


def decode_or_latin1(data: bytes) -> str:
    """``decode``, or Latin-1 for the bytes that nothing else reads (every byte is a character):
    for formats whose readers find the bad text themselves (PBN, LIN, DDS hands); without its
    encoding's declaration (:func:`without_declaration`)."""
    try:
        return without_declaration(decode(data))
    except EncodingError:
        return without_declaration(utf8_else_latin1(data))


PIECE = 1 << 20
"""Bytes of a file decoded at a time by :func:`decoded_pieces`."""


def decoded_pieces(fh: BinaryIO, piece: int | None = None) -> Iterator[str]:
    """:func:`decode_or_latin1` of the bytes of ``fh`` (read from its start) in pieces of about
    ``piece`` bytes: the pieces joined are that text, but no more than a piece of it is held at
    once. Its choices for the whole file are made as it makes them: the encoding is sniffed
    from the first :data:`HEAD` bytes; a UTF-8 file reads each byte that does not decode as its
    Latin-1 letter (what it does whether the file is all UTF-8 or not); a UTF-16 or UTF-32 file
    replaces a unit that does not decode; a file in a code page is read through once first to
    see that all of it decodes (else it is read as UTF-8 and Latin-1). ``piece`` defaults to
    :data:`PIECE`."""
    piece = piece or PIECE
    size = fh.seek(0, os.SEEK_END)
    fh.seek(0)
    try:
        encoding = sniff(fh.read(HEAD), whole=size <= HEAD)
    except EncodingError:
        encoding = "utf-8"
    if encoding == "utf-8-sig" or (not wide_encoding(encoding)
                                   and not _decodes(fh, encoding, piece)):
        encoding = "utf-8"  # the byte order mark is a letter, dropped as the declaration is
    fh.seek(0)
    pieces = _pieces(fh, encoding, piece)
    first = ""
    for text in pieces:  # the first line whole, for without_declaration
        first += text
        if "\n" in text:
            break
    yield without_declaration(first)
    yield from pieces


def _decodes(fh: BinaryIO, encoding: str, piece: int) -> bool:
    """Whether the bytes of ``fh`` from its start decode in ``encoding`` throughout (UTF-8 is
    read as UTF-8 and Latin-1 whether or not: that it decodes is not asked)."""
    if encoding == "utf-8":
        return True
    fh.seek(0)
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        while data := fh.read(piece):
            decoder.decode(data)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _pieces(fh: BinaryIO, encoding: str, piece: int) -> Iterator[str]:
    """The bytes of ``fh`` decoded ``piece`` bytes at a time, as ``data.decode`` decodes them
    whole: UTF-8 as :func:`utf8_else_latin1`, UTF-16 and UTF-32 with a replacement character
    for a unit that does not decode, another encoding strictly (it decodes, :func:`_decodes`)."""
    utf8 = encoding == "utf-8"
    errors = "surrogateescape" if utf8 else "replace" if wide_encoding(encoding) else "strict"
    decoder = codecs.getincrementaldecoder(encoding)(errors=errors)
    final = False
    while not final:
        data = fh.read(piece)
        final = not data
        text = decoder.decode(data, final=final)
        if utf8:
            text = _ESCAPED.sub(_latin1, text)
        if text:
            yield text


def whole_lines(pieces: Iterable[str]) -> Iterator[str]:
    """The text of ``pieces`` cut at line ends (the last text perhaps not): the texts joined
    are the pieces joined, and :func:`lines_of` of each gives the lines of the whole, in order.
    A text ends at a ``\\n`` (so a ``\\r\\n``, or a ``\\r\\r\\n``, is never cut), or, with
    none in sight, after a ``\\r`` that another character follows (text with old Mac line
    ends: a ``\\r`` at the end may be followed by a ``\\n``); a text without a line end is held
    until one comes."""
    held = ""
    for piece in pieces:
        text = held + piece
        cut = text.rfind("\n") + 1 or text.rfind("\r", 0, len(text.rstrip("\r"))) + 1
        held = text[cut:]
        if cut:
            yield text[:cut]
    if held:
        yield held


def without_declaration(text: str) -> str:
    """``text`` without a byte order mark, and with a first line that declares its encoding
    (``# encoding: cp1251``, as the message of an unreadable file advises) left empty: it is
    for this module, not a line of the format (a PBN, LIN, PPN or DDS file has no ``#`` line).
    The lines keep their numbers."""
    text = text.lstrip("\ufeff")
    first, end, rest = text.partition("\n")
    if _DECLARED.match(first.encode("utf-8", "replace")):
        return end + rest
    return text


def decode(data: bytes) -> str:
    """Bytes of a whole file as text (``sniff``; ``EncodingError`` when nothing reads them). A
    UTF-8 file with a few stray bytes (``mostly_utf8``) reads each as its Latin-1 letter, so
    they spoil only the text they stand in, not every accented name of the file."""
    encoding = sniff(data[:HEAD], whole=len(data) <= HEAD)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding in ("utf-8", "utf-8-sig") and (
                mostly_utf8(data) or stray_bytes_only(data) or few_bad_lines(data)):
            return utf8_else_latin1(data)
        if wide_encoding(encoding):  # a damaged unit spoils the text it stands in alone
            return data.decode(encoding, errors="replace")
        raise EncodingError(f"not {encoding} at byte {exc.start} (the encoding its first "
                            f"{HEAD // 1024} KiB read as)") from exc
