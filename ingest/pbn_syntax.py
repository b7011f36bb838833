"""PBN 2.1 syntax: tag pairs, section tokens, comments, games (PBN 2.1 sections 2-3).

``split_games`` cuts a PBN text into games: a game is its tag pairs in order, the tokens of each
section after its tag (``Auction``, ``Play``, supplemental tables), the ``Note`` tags, and where
it stands in the file. Comments (``;`` to end of line, ``{ ... }`` possibly over several lines) and
``%`` lines are dropped; an empty line ends a game (2.3). Escapes inside tag values: ``\\"`` and
``\\\\`` (2.4).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_TAG_OPEN = re.compile(r'\[\s*([A-Za-z0-9_]{1,64})\s*"')
_TAG_CLOSE = re.compile(r'\s*\]')
_TOKEN = re.compile(r'[^\s\[\]{};]+')
_GAME_START = re.compile(r'\s*\[\s*(Event|Site|Date|Board|Deal)\s+"')
"""A line that starts a game's tags: where an unclosed ``{`` comment is taken to end (so is a
tag line after an empty line: the next game of a file whose games carry tags over)."""
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z0-9_]+\s+"')
IDENTITY_TAGS = frozenset({"event", "site", "date", "board", "west", "north", "east", "south",
                           "dealer", "vulnerable", "deal", "declarer", "contract", "result",
                           "auction", "play"})
"""Tags a game has once: met again in one game, they start the next game (two games written
without the empty line between them)."""


def match_tag(line: str, pos: int) -> tuple[str, str, int] | None:
    """``(name, value, end)`` of the tag pair at ``pos`` (``[Name "value"]``), or ``None``. The
    value is scanned for its closing quote with ``str.find`` (escapes ``\\"`` and ``\\\\``
    skipped), in time linear in its length: a regular expression with an alternation per
    character keeps a backtracking frame per character (gigabytes for a 20 MB value)."""
    m = _TAG_OPEN.match(line, pos)
    if m is None:
        return None
    at = m.end()
    while True:
        quote = line.find('"', at)
        if quote < 0:
            return None
        escape = line.find("\\", at, quote)
        if escape < 0:
            break
        at = escape + 2
    close = _TAG_CLOSE.match(line, quote + 1)
    if close is None:
        return None
    return m.group(1), line[m.end():quote], close.end()


@dataclass
class PbnGame:
    line: int
    """1-based line of the game's first tag."""
    tags: list[tuple[str, str]] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)
    """Tokens following a tag, by tag name (Auction, Play, OptimumResultTable, ...)."""
    notes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def tag(self, name: str) -> str | None:
        for k, v in self.tags:
            if k.lower() == name.lower():
                return v
        return None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def split_games(text: str) -> Iterator[PbnGame]:
    """The games of a PBN text, in order. Where the text is broken, the reader steps back in at
    the next game and says what it skipped: an unclosed ``{`` comment ends at the next line
    that starts a game's tags, or at a tag line after an empty line (the game it opened in gets
    an error naming the lines skipped),
    and a tag that a game already has starts the next game (two games without an empty line
    between them, 2.3)."""
    game: PbnGame | None = None
    current: str | None = None
    brace_from = 0  # line of an open { comment, 0 when none
    after_empty = False  # inside a comment: the line before was empty
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if brace_from:
            end = line.find("}")
            starts = _GAME_START.match(line) or (after_empty and _TAG_LINE.match(line))
            after_empty = not line.strip()
            if end < 0 and not starts:
                if game is not None:
                    game.lines.append(raw)
                continue
            if end < 0:  # unclosed: the comment stops short of this game's tags
                if game is None:
                    game = PbnGame(brace_from)
                game.errors.append(f"line {brace_from}: a {{ comment is not closed; lines "
                                   f"{brace_from}-{no - 1} skipped")
                yield game
                game, current = None, None
                end = -1
            brace_from = 0
            line = line[end + 1:]
        if not raw.strip():  # an empty line ends a game (2.3); the end of a comment does not
            if game is not None and game.tags:
                yield game
                game, current = None, None
            continue
        if not line.strip():
            if game is not None:
                game.lines.append(raw)
            continue
        if line.startswith("%"):
            continue
        pos = 0
        while pos < len(line):
            ch = line[pos]
            if ch.isspace():
                pos += 1
                continue
            if ch == ";":
                break
            if ch == "{":
                end = line.find("}", pos)
                if end < 0:
                    brace_from, after_empty = no, False
                    break
                pos = end + 1
                continue
            tag = match_tag(line, pos)
            if tag is not None and game is not None and tag[0].lower() in IDENTITY_TAGS and any(
                    k.lower() == tag[0].lower() for k, _ in game.tags):
                game.lines.append(raw[:pos])  # the next game starts here
                yield game
                game, current = None, None
            if game is None:
                game = PbnGame(no)
            if tag is not None:
                name, value, pos = tag[0], _unescape(tag[1]), tag[2]
                if name.lower() == "note":
                    game.notes.append(value)  # a note does not interrupt its section
                else:
                    game.tags.append((name, value))
                    current = name
                    game.sections.setdefault(name, [])
                continue
            m = _TOKEN.match(line, pos)
            if m is None:
                game.errors.append(f"line {no}: unexpected {line[pos:pos + 20]!r}")
                pos += 1
                continue
            if current is None:
                game.errors.append(f"line {no}: token {m.group(0)[:40]!r} before any tag")
            else:
                game.sections[current].append(m.group(0))
            pos = m.end()
        if game is not None:
            game.lines.append(raw)
    if brace_from and game is not None:
        game.errors.append(f"line {brace_from}: a {{ comment is not closed; the rest of the "
                           "file skipped")
    if game is not None and (game.tags or game.errors):
        yield game
