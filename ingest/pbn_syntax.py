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

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(r'[^\s\[\]{};]+')


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
    game: PbnGame | None = None
    current: str | None = None
    in_brace = False
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_brace:
            end = line.find("}")
            if end < 0:
                if game is not None:
                    game.lines.append(raw)
                continue
            in_brace = False
            line = line[end + 1:]
        if not line.strip():
            if game is not None and game.tags:
                yield game
                game, current = None, None
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
                    in_brace = True
                    break
                pos = end + 1
                continue
            if game is None:
                game = PbnGame(no)
            m = _TAG.match(line, pos)
            if m:
                name, value = m.group(1), _unescape(m.group(2))
                if name.lower() == "note":
                    game.notes.append(value)  # a note does not interrupt its section
                else:
                    game.tags.append((name, value))
                    current = name
                    game.sections.setdefault(name, [])
                pos = m.end()
                continue
            m = _TOKEN.match(line, pos)
            if m is None:
                game.errors.append(f"line {no}: unexpected {line[pos:pos + 20]!r}")
                pos += 1
                continue
            if current is None:
                game.errors.append(f"line {no}: token {m.group(0)!r} before any tag")
            else:
                game.sections[current].append(m.group(0))
            pos = m.end()
        if game is not None:
            game.lines.append(raw)
    if game is not None and game.tags:
        yield game
