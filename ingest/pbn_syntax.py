"""PBN 2.1 syntax: tag pairs, section tokens, comments, games (PBN 2.1 sections 2-3).

``split_games`` cuts a PBN text into games: a game is its tag pairs in order, the tokens of each
section after its tag (``Auction``, ``Play``, supplemental tables), the ``Note`` tags, and where
it stands in the file. Comments (``;`` to end of line, ``{ ... }`` possibly over several lines) and
``%`` lines are dropped; an empty line ends a game (2.3). Escapes inside tag values: ``\\"`` and
``\\\\`` (2.4). Text before a game's first tag that is no tag (a program's name above the file,
junk between games) is a "game" of its own without tags, whose errors say what it is: the game
after it starts at its own first tag. So is text after the ``*`` that ends an Auction or Play
section (3.5, 3.6) up to the game's next tag: the game is read without it. A second Declarer,
Contract or Result that only goes on with tags the game lacks (``[Result "10"] [Result "9"]``) is
the same game giving that tag twice (its reader's issue), not the start of the next game.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field

from ingest.text import lines_of, whole_lines

_TAG_OPEN = re.compile(r'\[\s*([A-Za-z0-9_]{1,64})\s*"')
_TAG_CLOSE = re.compile(r'\s*\]')
_TOKEN = re.compile(r'[^\s\[\]{};]+')
_GAME_START = re.compile(r'\s*\[\s*(Event|Site|Date|Board|Deal)\s+"')
"""A line that starts a game's tags: where an unclosed ``{`` comment is taken to end (so is a
tag line after an empty line: the next game of a file whose games carry tags over)."""
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z0-9_]+\s+"')
_CUT_TAG = re.compile(r'\[\s*[A-Za-z0-9_]*\s*(?:"[^"]*"?)?\s*\Z')
"""A tag pair cut off at the end of its line (``[Deal "N:AK``, ``[Decl``)."""
ENDED_SECTIONS = frozenset({"auction", "play"})
"""Sections (by lower-case tag name) that a ``*`` token ends (PBN 2.1 3.5, 3.6): what follows it
before the next tag is no part of the game."""
IDENTITY_TAGS = frozenset({"event", "site", "date", "board", "west", "north", "east", "south",
                           "dealer", "vulnerable", "deal", "declarer", "contract", "result",
                           "auction", "play"})
"""Tags a game has once: met again in one game, they start the next game (two games written
without the empty line between them), unless it is one of :data:`REPEATED_IN_GAME`."""
REPEATED_IN_GAME = frozenset({"declarer", "contract", "result", "deal", "dealer", "vulnerable"})
"""Identity tags that, met again, may be the game giving them twice rather than the next game's
start: the next game starts there only when the tags after it repeat another tag of the game
(the other table of a board, carried over, starts at its Declarer and gives its own Contract,
Result, Auction and Play); a repeat followed only by tags the game lacks is read as the game
(:func:`continues`), whose reader reports the tag given twice (a second Dealer after the Deal,
followed by the result, was a second deal of the board). A second Deal goes on with a game only
where the game has a Board (a list of deals without boards is one game per Deal)."""


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
    tag_lines: list[int] = field(default_factory=list)
    """The line of each of ``tags``."""
    sections: dict[str, list[str]] = field(default_factory=dict)
    """Tokens following a tag, by tag name (Auction, Play, OptimumResultTable, ...)."""
    notes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    identity: set[str] = field(default_factory=set)
    """The ``IDENTITY_TAGS`` the game has (lower case)."""
    ends_file: bool = False
    """The text ends inside this game: no empty line after it (a file cut off there, or one
    that ends without the empty line)."""

    def tag(self, name: str) -> str | None:
        for k, v in self.tags:
            if k.lower() == name.lower():
                return v
        return None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def continues(game: PbnGame, then: PbnGame) -> bool:
    """``then``, begun at a tag of :data:`REPEATED_IN_GAME` that ``game`` already has, with no
    empty line between them, is the rest of ``game``: after that tag it has only tags ``game``
    lacks (the next game would give its own Contract, Result, Auction or Play again)."""
    if not then.tags or then.tags[0][0].lower() not in REPEATED_IN_GAME:
        return False
    names = {name.lower() for name, _ in game.tags}
    if then.tags[0][0].lower() == "deal" and "board" not in names:
        return False
    return then.tags[0][0].lower() in names and not any(
        name.lower() in names for name, _ in then.tags[1:])


def joined(game: PbnGame, then: PbnGame) -> PbnGame:
    """``game`` with its rest ``then`` (:func:`continues`): one game, its tags in order (the
    repeated tag twice). ``game``'s last line is the part of ``then``'s first line before the
    repeated tag."""
    game.lines[-1:] = then.lines
    game.tags += then.tags
    game.tag_lines += then.tag_lines
    for name, tokens in then.sections.items():
        game.sections.setdefault(name, []).extend(tokens)
    game.notes += then.notes
    game.errors += then.errors
    game.identity |= then.identity
    game.ends_file = then.ends_file
    return game


def cut_tag(line: str) -> bool:
    """The line ends inside a tag pair: its last ``[`` opens a tag that is not closed."""
    pos = line.rfind("[")
    return pos >= 0 and _CUT_TAG.match(line, pos) is not None


def stray(game: PbnGame) -> bool:
    """Lines before a game's first tag that open no tag either (a program's name above the
    file, junk between games): not the start of the game after them. A broken tag line is
    (``[Event "x" junk``): the game it opens holds its error."""
    return not game.tags and bool(game.lines) and not any(
        _TAG_OPEN.search(line) for line in game.lines)


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def split_games(text: str | Iterable[str]) -> Iterator[PbnGame]:
    """The games of a PBN text, in order. Where the text is broken, the reader steps back in at
    the next game and says what it skipped: an unclosed ``{`` comment ends at the next line
    that starts a game's tags, or at a tag line after an empty line (the game it opened in gets
    an error naming the lines skipped),
    and a tag that a game already has starts the next game (two games without an empty line
    between them, 2.3), unless it is the line before again (a line doubled: skipped). A line end
    written ``CR CR LF`` (a file converted to Windows line ends twice) is one line end, not an
    empty line after each line (which would end a game at every tag).

    The text may come in pieces (``text.decoded_pieces``: a large file is read a piece at a
    time, and only the game being read is held), with the same games as the pieces joined."""
    splitter = _Splitter()
    no = 0
    for part in whole_lines([text] if isinstance(text, str) else text):
        if "\r\r\n" in part:
            part = part.replace("\r\r\n", "\n")
        for raw in lines_of(part):
            no += 1
            yield from splitter.line(no, raw)
    yield from splitter.end()



_PLAIN_TAG = re.compile(r'\s*\[\s*([A-Za-z0-9_]{1,64})\s*"([^"\\]*)"\s*\]\s*')
"""A line that is one tag pair and nothing else, its value without escapes (most lines of a
PBN file): read at once, as the scan of ``_Splitter.scan`` would read it."""
_SPECIAL = re.compile(r'[\[\]{};]')
"""What a line of section tokens only does not hold (tags, comments)."""


class _Splitter:
    """The state of :func:`split_games` between lines: the game being read, its section, the
    text after a ``*`` that ended it, and an open ``{`` comment."""

    def __init__(self) -> None:
        self.game: PbnGame | None = None
        self.current: str | None = None
        """The tag whose section the next tokens belong to."""
        self.ended: str | None = None
        """The section (Auction, Play) a ``*`` ended, while no tag has come after it."""
        self.after: list[PbnGame] = []
        """Stray text after an ended section of the game being read, yielded after the game."""
        self.raw = ""
        """The line being read, as it is."""
        self.stray_at = 0
        """Line of the last stray text after an ended section, 0 when none since its ``*``."""
        self.kept_at = 0
        """Line of the last ``*`` that ended a section, or of the last tag of a scanned line: the
        lines that can hold both text of a game and stray text, and stay the game's."""
        self.brace_from = 0
        """Line of an open ``{`` comment, 0 when none."""
        self.after_empty = False
        """Inside a comment: the line before was empty."""
        self.held: tuple[PbnGame, list[PbnGame]] | None = None
        """A game ended by a tag of :data:`REPEATED_IN_GAME` it already has, with its stray
        text: yielded when the game begun at that tag ends, or joined with it
        (:func:`continues`)."""

    def _done(self, hold: bool = False) -> Iterator[PbnGame]:
        """The game read, then the stray text after its ended sections; with ``hold``, kept
        until the next game shows whether it goes on with this one (:attr:`held`)."""
        game, after = self.game, self.after
        self.game, self.current, self.ended, self.after, self.stray_at = None, None, None, [], 0
        yield from self._settled(game, after, hold)

    def _settled(self, game: PbnGame | None, after: list[PbnGame],
                 hold: bool) -> Iterator[PbnGame]:
        """The held game, joined with ``game`` or before it, then ``game`` unless ``hold``."""
        if self.held is not None:
            first, first_after = self.held
            self.held = None
            if game is not None and continues(first, game):
                game, after = joined(first, game), first_after + after
            else:
                yield first
                yield from first_after
        if hold and game is not None:
            self.held = (game, after)
            return
        if game is not None:
            yield game
        yield from after

    def _started(self, no: int) -> PbnGame:
        if self.game is None:
            self.game = PbnGame(no)
        return self.game

    def line(self, no: int, raw: str) -> Iterator[PbnGame]:
        """One line of the text: the games it ends. It goes to the text of its game, unless all
        it holds is stray text after an ended section (that text's own "game" holds it)."""
        line = self.raw = raw
        if self.brace_from:
            rest = yield from self._in_comment(no, raw)
            if rest is None:
                return
            line = rest
        if not raw.strip():  # an empty line ends a game (2.3); the end of a comment does not
            if self.game is not None:
                yield from self._done()
            return
        if not line.strip():
            if self.game is not None:
                self.game.lines.append(raw)
            return
        if line.startswith("%"):
            return
        tag = _PLAIN_TAG.fullmatch(line)
        if tag is not None:
            yield from self._tag(no, raw, line.find("["), tag.group(1), tag.group(2))
        elif _SPECIAL.search(line) is None:
            self._tokens(no, line.split())
        else:
            yield from self.scan(no, raw, line)
        if self.game is not None and (self.stray_at != no or self.kept_at == no):
            self.game.lines.append(raw)

    def _in_comment(self, no: int, raw: str) -> Generator[PbnGame, None, str | None]:
        """A line inside an open ``{`` comment: what follows the comment's end on it, or
        ``None`` when the whole line is comment. An unclosed comment ends before a line that
        starts a game's tags (the game it opened in gets the error)."""
        end = raw.find("}")
        starts = _GAME_START.match(raw) or (self.after_empty and _TAG_LINE.match(raw))
        self.after_empty = not raw.strip()
        if end < 0 and not starts:
            if self.game is not None:
                self.game.lines.append(raw)
            return None
        if end < 0:  # unclosed: the comment stops short of this game's tags
            self._started(self.brace_from).errors.append(
                f"line {self.brace_from}: a {{ comment is not closed; lines "
                f"{self.brace_from}-{no - 1} skipped")
            yield from self._done()
        self.brace_from = 0
        return raw[end + 1:]

    def _tag(self, no: int, raw: str, pos: int, name: str, value: str) -> Iterator[PbnGame]:
        """A tag pair at ``pos`` of the line: a tag the game already has starts the next game."""
        lower = name.lower()
        game = self.game
        if game is not None and not game.tags and stray(game):
            yield from self._done()  # the text before this tag is no part of its game
            game = None
        if game is not None and game.tags and game.tags[-1] == (name, value) \
                and not game.sections.get(name):
            return  # the same tag pair twice in a row: a doubled line, not a game
        if game is not None and lower in game.identity:
            game.lines.append(raw[:pos])  # the next game starts here, or this game goes on
            yield from self._done(hold=lower in REPEATED_IN_GAME)
        game = self._started(no)
        if lower == "note":
            game.notes.append(value)  # a note does not interrupt its section
        else:
            game.tags.append((name, value))
            game.tag_lines.append(no)
            if lower in IDENTITY_TAGS:
                game.identity.add(lower)
            self.current, self.ended = name, None
            game.sections.setdefault(name, [])

    def _tokens(self, no: int, tokens: list[str]) -> None:
        """Section tokens: they belong to the section of the last tag, up to the ``*`` that ends
        an Auction or Play section (3.5, 3.6). Tokens before any tag, or after that ``*`` and
        before the next tag, are stray text (:meth:`_stray`)."""
        if self.ended is None:
            game = self._started(no)
            if self.current is None:
                self._stray(game, no, tokens, "text before any tag")
                return
            if "*" not in tokens or self.current.lower() not in ENDED_SECTIONS:
                game.sections[self.current].extend(tokens)
                return
            cut = tokens.index("*") + 1
            game.sections[self.current].extend(tokens[:cut])
            self.ended, self.stray_at, self.kept_at = self.current, 0, no
            tokens = tokens[cut:]
            if not tokens:
                return
        self._stray(self._after_end(no), no, tokens,
                    f"text after the '*' that ends the {self.ended} section")

    @staticmethod
    def _stray(game: PbnGame, no: int, tokens: list[str], where: str) -> None:
        """Text that is no part of a game: an error of the tagless "game" holding it, quoting
        it and saying ``where`` it stands."""
        game.errors.append(f"line {no}: {' '.join(tokens)[:60]!r} is not a tag, comment or "
                           f"section of a game ({where})")

    def _after_end(self, no: int) -> PbnGame:
        """The "game" of the stray text after the ``*`` that ended a section: the one begun
        since that ``*``, else a new one at this line; it holds the lines of its text."""
        if self.stray_at == 0:
            self.after.append(PbnGame(no))
        stray_game = self.after[-1]
        if self.stray_at != no:
            stray_game.lines.append(self.raw)
        self.stray_at = no
        return stray_game

    def scan(self, no: int, raw: str, line: str) -> Iterator[PbnGame]:
        """A line of tags, tokens and comments read from left to right."""
        pos = 0
        while pos < len(line):
            ch = line[pos]
            if ch.isspace():
                pos += 1
            elif ch == ";":
                break
            elif ch == "{":
                end = line.find("}", pos)
                if end < 0:
                    self.brace_from, self.after_empty = no, False
                    break
                pos = end + 1
            elif (tag := match_tag(line, pos)) is not None:
                self.kept_at = no  # a line of stray text and a tag is its game's line
                yield from self._tag(no, raw, pos, tag[0], _unescape(tag[1]))
                pos = tag[2]
            else:
                pos = self._token(no, line, pos)

    def _token(self, no: int, line: str, pos: int) -> int:
        """The token at ``pos`` (or an error for a character none may start with, the stray
        text's after an ended section); where the scan goes on."""
        m = _TOKEN.match(line, pos)
        if m is None:
            game = self._started(no) if self.ended is None else self._after_end(no)
            game.errors.append(f"line {no}: unexpected {line[pos:pos + 20]!r}")
            return pos + 1
        self._tokens(no, [m.group(0)])
        return m.end()

    def end(self) -> Iterator[PbnGame]:
        """The last game, at the end of the text."""
        game = self.game
        if game is not None:
            game.ends_file = True
        if self.brace_from and game is not None:
            game.errors.append(f"line {self.brace_from}: a {{ comment is not closed; the rest "
                               "of the file skipped")
        yield from self._settled(game if game is not None and (game.tags or game.errors) else None,
                                 self.after, False)
