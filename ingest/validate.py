"""Validation: a ``Raw`` record becomes an accepted pydantic record or an ``Issue``.

Stages (records.md 1, ``model/variants.py``): the record kind (``game`` / ``deal``); for a game its
variant and the variant's ``game_model``; for a deal its game (seen earlier in this file or stored
before), the variant's ``deal_model`` and then ``variant.check_deal``. A pydantic error becomes one
message naming each bad field and quoting its value. A game line whose id is known with other
content is a ``GAME_CONFLICT``; with the same content it is accepted as a duplicate.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from ingest.source import Issue, Raw
from model import variants as registry
from model.base import AN_ISO_TIME, PRINTABLE, SPELLINGS, DealBase, GameBase, GameId
from model.identity import canonical, canonical_json, deal_key
from model.problems import Code, Problem
from model.variants import UnknownVariant, Variant

NEVER = 2**62
MAX_DEAL_NO = 2**31 - 1
"""The ``deals.deal_no`` column is an INTEGER (model/tables.py)."""
VariantLookup = Callable[[str], Variant]
StoredGame = Callable[[str], "tuple[str, str] | None"]
"""``game_id`` -> ``(variant, canonical record JSON)`` of a stored game, or ``None``."""


@lru_cache(maxsize=1 << 16)
def id_field(game_id: str) -> str:
    """``"game_id":"<id>"`` as a record's canonical JSON writes it (``model/identity.py``);
    remembered, as a batch asks for each game's more than once."""
    return canonical({"game_id": game_id})[1:-1]


def _written_as_is(text: str) -> bool:
    """Whether canonical JSON surely writes ``text`` as it is, between quotes (the cheap half
    of :func:`id_field`'s answer): it escapes only a quote, a backslash and a control
    character."""
    return text.isprintable() and '"' not in text and "\\" not in text


GAME_ID = TypeAdapter(GameId)
"""A game model's check of a game id alone (``GameBase.game_id``, which no variant narrows:
``tests/ingest/test_sheet_games.py``)."""


def record_key(data: dict[str, Any]) -> str | None:
    """``game_id#deal_no`` of a deal, ``game_id`` of a game, as far as the raw data tells."""
    gid = data.get("game_id")
    if not isinstance(gid, str | int):
        return None
    if data.get("record") == "deal":
        return f"{gid}#{data.get('deal_no')}"
    return str(gid)


def shown(value: object, limit: int = 60) -> str:
    """A bad value, cut to ``limit`` characters: text quoted as ``repr`` quotes it, anything
    else as a record writes it (``null``, ``true``, ``["Ana", "Ben"]``; a Python list's
    ``['Ana', 'Ben']`` is no record's)."""
    text = repr(value) if isinstance(value, str) else _as_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _as_json(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not a record's value (a model, a set, a NaN's kin)
        return repr(value)


def differences(old: object, new: object, path: str = "") -> list[str]:
    """Where two records (``model_dump(mode="json")``, defaults in) differ, each as
    ``path (old there, new here)`` (:func:`shown`), objects compared key by key, so that a
    house rule is named by itself: ``rules.initial_kassa (31 there, 40 here)``."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [found for key in sorted(old.keys() | new.keys())
                for found in differences(old.get(key), new.get(key),
                                         f"{path}.{key}" if path else str(key))]
    return [] if old == new else [f"{path} ({shown(old)} there, {shown(new)} here)"]


DIFFERENCES_SHOWN = 5
"""Differences a conflict names; the rest are counted."""


def what_differs(old: BaseModel, new: BaseModel) -> str:
    """The first :data:`DIFFERENCES_SHOWN` :func:`differences` of two records, and how many
    more there are."""
    found = differences(old.model_dump(mode="json"), new.model_dump(mode="json"))
    more = len(found) - DIFFERENCES_SHOWN
    return "; ".join(found[:DIFFERENCES_SHOWN]) + (f"; and {more} more" if more > 0 else "")


BOUNDS = {"less_than_equal": ("le", "at most"), "greater_than_equal": ("ge", "at least"),
          "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}
"""pydantic's error types of a number's bounds: the bound's key in the error's context, and the
words a message says it in (``tricks.Ana: must be at most 10 (got 11)``)."""

KINDS = {"int_parsing": "a whole number", "int_from_float": "a whole number",
         "int_type": "a whole number", "bool_parsing": "true or false",
         "bool_type": "true or false", "string_type": "text", "dict_type": "an object",
         "model_type": "an object", "model_attributes_type": "an object",
         "tuple_type": "a list", "list_type": "a list"}
"""pydantic's error types of a value of the wrong kind, and the kind a message asks for."""
LENGTHS = {"string_too_long": ("max_length", "at most"),
           "string_too_short": ("min_length", "at least"),
           "too_long": ("max_length", "at most"), "too_short": ("min_length", "at least")}
"""pydantic's error types of a text's or a list's length, as :data:`BOUNDS`."""


def _said(err: Any) -> str:
    """pydantic's message of one error, in the words of the messages ingest writes itself."""
    kind, ctx = err["type"], err.get("ctx", {})
    if kind in BOUNDS and BOUNDS[kind][0] in ctx:
        key, words = BOUNDS[kind]
        return f"must be {words} {ctx[key]}"
    if kind in KINDS:
        return f"must be {KINDS[kind]}"
    if kind.startswith(("datetime_", "date_")):  # "month value is outside ... of 1-12"
        return f"must be {AN_ISO_TIME}" + (f": {ctx['error']}" if "error" in ctx else "")
    if kind in LENGTHS and LENGTHS[kind][0] in ctx:
        key, words = LENGTHS[kind]
        things = "characters" if kind.startswith("string") else "items"
        return f"must have {words} {ctx[key]:,} {things}"
    if kind == "extra_forbidden":
        return "unknown field"
    return str(err["msg"]).removeprefix("Value error, ")


_C1 = re.compile("[\x80-\x9f]")
"""Control characters that text rarely holds but bytes of another encoding read as Latin-1 give
(Shift-JIS, a code page the file does not declare: ``ingest.text.decode_or_latin1``)."""
MISREAD = (": the file may be in an encoding it does not declare (a first line "
           "'# encoding: <name>' declares it)")
"""Said of a control character of :data:`_C1`."""


def field_path(loc: Iterable[int | str]) -> str:
    """A field's path as a user counts: ``tricks.Ana``, an item of a list numbered from 1
    (``players #3``: pydantic's ``players.2``)."""
    return "".join(f" #{x + 1}" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".")


def in_words(exc: BaseException) -> str:
    """An error's message: a pydantic validation's as :func:`explain` says it, any other's
    own."""
    return explain(exc) if isinstance(exc, ValidationError) else str(exc)


def explain(exc: ValidationError) -> str:
    """One message for every error of a pydantic validation: ``field: what (got value)``."""
    parts = []
    for err in exc.errors(include_url=False):
        loc = field_path(err["loc"])
        msg = _said(err)
        if not loc:
            parts.append(msg)
        elif err["type"] == "missing":
            parts.append(f"{loc}: field required")
        elif err["type"] == "string_pattern_mismatch" and err.get("ctx", {}).get(
                "pattern") == PRINTABLE:
            parts.append(f"{loc}: holds a control character (got {shown(err.get('input'))})"
                         + (MISREAD if _C1.search(str(err.get("input"))) else ""))
        elif err["type"] == "string_pattern_mismatch" and (
                words := SPELLINGS.get(str(err.get("ctx", {}).get("pattern")))):
            parts.append(f"{loc}: {shown(err.get('input'))} is not {words}")
        else:
            parts.append(f"{loc}: {msg} (got {shown(err.get('input'))})")
    return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class Accepted:
    """A valid record with what the store needs: its game, variant and canonical JSON."""

    raw: Raw
    record: GameBase | DealBase
    game: GameBase
    variant: Variant
    canonical: str
    duplicate: bool = False
    """A game line identical to one already known (only games are known here; deals are
    compared with the database by the pipeline)."""
    row: dict[str, object] | None = None
    """A deal's row of ``deals_<variant>`` (``variant.deal_row``), checked to fit its columns."""

    @property
    def is_game(self) -> bool:
        return isinstance(self.record, GameBase)

    @property
    def key(self) -> str:
        if isinstance(self.record, DealBase):
            return deal_key(self.record.game_id, self.canonical)
        return self.record.game_id


class Validator:
    """Validates the records of one file in order, remembering the games it has seen."""

    def __init__(
        self,
        stored_game: StoredGame = lambda _gid: None,
        variants: VariantLookup | None = None,
        changed_game: Callable[[str], str | None] | None = None,
    ) -> None:
        self._stored_game = stored_game
        self._changed_game = changed_game or (lambda _gid: "stored")
        """A game line with other content than the stored game: ``None`` when it supersedes
        it, else where the stored one comes from (``ingest.versions.Versions.game``)."""
        self._stored_ids: set[str] = set()
        """Games known from the database, not from this file."""
        self.revision = 0
        """Counts the changes to ``games`` (a game learnt or superseded): a view built from
        them is stale once it moves."""
        self._variants = variants or registry.variant
        self._games: dict[str, tuple[GameBase, Variant, str]] = {}
        self.position = NEVER
        """Where in the file the record being validated stands (batch validation sets it)."""
        self._quarantined_games: dict[str, int] = {}
        """Game id -> the line of this file where its game line was quarantined."""
        self._own_games: set[str] = set()
        """Games whose game line this file holds, accepted (new or a duplicate)."""
        self.visible_from: dict[str, int] = {}
        """Games validated ahead of their turn (a batch's game lines first): a deal sees such a
        game only from the game line's position on, exactly as in line-by-line validation."""

    def _issue(self, raw: Raw, code: Code, message: str) -> Issue:
        return Issue(raw.source, raw.line, record_key(raw.data), code, message, raw.text)

    def _variant(self, name: object) -> Variant | None:
        if not isinstance(name, str):
            return None
        try:
            return self._variants(name)
        except UnknownVariant:
            return None

    @property
    def games(self) -> dict[str, tuple[GameBase, Variant, str]]:
        """The games known so far (this file's, and stored ones already looked up)."""
        return self._games

    def known_game(self, game_id: str) -> tuple[GameBase, Variant, str] | None:
        """A game of this file, or a stored one (validated again from its record, then cached)."""
        if game_id in self._games:
            if self.visible_from.get(game_id, -1) > self.position:
                return None
            return self._games[game_id]
        stored = self._stored_game(game_id)
        if stored is None:
            return None
        name, text = stored
        v = self._variants(name)
        game = v.game_model.model_validate_json(text)
        self._games[game_id] = (game, v, canonical_json(game))
        self._stored_ids.add(game_id)
        self.revision += 1
        return self._games[game_id]

    def validate(self, raw: Raw) -> Accepted | Issue:
        """The record accepted, or the issue with it; never raises (an unexpected failure of a
        model or a check is the record's issue, so one record never stops its file)."""
        try:
            return self._validate(raw)
        except Exception as exc:
            return self._issue(raw, Code.PARSE, f"cannot be read ({type(exc).__name__}: "
                                                f"{str(exc)[:300]})")

    def _validate(self, raw: Raw) -> Accepted | Issue:
        kind = raw.data.get("record")
        if kind == "game":
            verdict = self._game(raw)
            gid = raw.data.get("game_id")
            if isinstance(verdict, Issue) and isinstance(gid, str):
                self._quarantined_games.setdefault(gid, raw.line)
            return verdict
        if kind == "deal":
            return self._deal(raw)
        what = "no 'record' field" if kind is None else f"'record' is {shown(kind)}"
        return self._issue(raw, Code.UNKNOWN_RECORD, f"{what}; expected 'game' or 'deal'")

    def _game(self, raw: Raw) -> Accepted | Issue:
        data = raw.data
        name = data.get("variant")
        if name is None:
            return self._issue(raw, Code.SCHEMA, "variant: field required")
        v = self._variant(name)
        if v is None:
            return self._issue(raw, Code.UNKNOWN_VARIANT, f"unknown variant {shown(name)}")
        try:
            game = v.game_model.model_validate({**data, "variant": v.name})
        except ValidationError as exc:
            return self._issue(raw, Code.SCHEMA, explain(exc))
        canonical = canonical_json(game)
        known = self.known_game(game.game_id)
        if known is not None and known[2] == canonical:
            self._own_games.add(game.game_id)
            return Accepted(raw, game, known[0], known[1], canonical, duplicate=True)
        if known is not None:
            where = (self._changed_game(game.game_id) if game.game_id in self._stored_ids
                     else "earlier in this file")
            if where is not None:
                named = v.game_named(json.loads(canonical))
                return self._issue(raw, Code.GAME_CONFLICT,
                                   f"{named} is already known with other content "
                                   f"(the one {where}), in {what_differs(known[0], game)}")
            self._stored_ids.discard(game.game_id)  # superseded: this file's game from now on
        return self._learnt(raw, game, v, canonical)

    def _learnt(self, raw: Raw, game: GameBase, v: Variant, canonical: str) -> Accepted:
        """A game line accepted as a game of this file from now on."""
        self._games[game.game_id] = (game, v, canonical)
        self._own_games.add(game.game_id)
        self.revision += 1
        if self.position != NEVER:
            self.visible_from[game.game_id] = self.position
        return Accepted(raw, game, game, v, canonical)

    def game_alike(self, first: Accepted, raw: Raw) -> Accepted | None:
        """The reference's verdict on game line ``raw``, whose data are ``first``'s (a game line
        this validator accepted) but for the game id, when the id is new and the game model
        accepts the line as ``first``'s game with the id changed; else ``None`` (to be judged by
        :meth:`validate`). The canonical JSON is ``first``'s with the id written in."""
        gid = raw.data.get("game_id")
        was = first.record.game_id
        own, theirs = f'"game_id":"{gid}"', f'"game_id":"{was}"'
        if (not isinstance(gid, str) or self.known_game(gid) is not None
                or first.canonical.count('"game_id":') != 1 or theirs not in first.canonical
                or not _written_as_is(gid)):  # else judged by the reference
            return None
        try:  # the line is first's but for the id: only the id is the model's to judge
            game = first.record.model_copy(update={"game_id": GAME_ID.validate_python(gid)})
        except ValidationError:
            return None
        assert isinstance(game, GameBase)
        return self._learnt(raw, game, first.variant, first.canonical.replace(theirs, own, 1))

    def _deal(self, raw: Raw) -> Accepted | Issue:
        gid = raw.data.get("game_id")
        if not isinstance(gid, str) or not gid:
            return self._issue(raw, Code.SCHEMA, "game_id: field required (a non-empty string)")
        known = self.known_game(gid)
        if known is None:
            line = self._quarantined_games.get(gid)
            where = (f"its game line at line {line} was quarantined"
                     if line is not None and line <= raw.line
                     else "in this file before the deal, nor in the database")
            return self._issue(raw, Code.UNKNOWN_GAME, f"game {gid!r} has no game line ({where})")
        game, v, _ = known
        line = self._quarantined_games.get(gid)
        stored = ("" if line is None or line > raw.line or gid in self._own_games else
                  f" (checked against the stored game {gid!r}: this file's game line at line "
                  f"{line} was quarantined)")
        try:
            deal = v.deal_model.model_validate(raw.data)
        except ValidationError as exc:
            return self._issue(raw, Code.SCHEMA, explain(exc) + stored)
        if deal.deal_no > MAX_DEAL_NO:
            return self._issue(raw, Code.SCHEMA, f"deal_no: must be at most {MAX_DEAL_NO:,} "
                                                 f"(got {deal.deal_no})")
        problems = v.check_deal(game, deal)
        if problems:
            return self._issue(raw, problems[0].code, problem_message(problems) + stored)
        row = v.deal_row(game, deal)
        wide = too_wide(row, v.table.integer_ranges)
        if wide:
            return self._issue(raw, Code.SCHEMA, wide)
        return Accepted(raw, deal, game, v, canonical_json(deal), row=row)


def game_issues(source: str, game: GameBase, v: Variant,
                deals: list[tuple[int, str, int, str]],
                read: dict[tuple[str, str], BaseModel] | None = None,
                judged: GameVerdicts | None = None,
                canonical: str | None = None) -> list[tuple[int, Issue]]:
    """``v.check_game`` over a game's stored deals in order (``(deal_no, source, line, record)``,
    ``store.game_deals``): the problems of the deals read from ``source``, as (deal_no, issue).
    A deal of another source is not this file's to quarantine; it stays as stored. ``read``
    keeps the deals read for the next game (:func:`read_deals`); ``judged`` the check's
    verdicts, for a game whose content and deals are another's but for the game id;
    ``canonical`` the game's canonical JSON, where the caller has it."""
    if v.check_game is None or not deals:
        return []
    records = [record for _, _, _, record in deals]
    key = None if judged is None else judged.key(game, v, records, canonical)
    found = None if judged is None or key is None else judged.get(key)
    if found is None:
        found = v.check_game(game, read_deals(v, game, records, {} if read is None else read))
        if judged is not None and key is not None:
            judged.put(key, found)
    origin = {no: (src, line, record) for no, src, line, record in deals}
    out = []
    for no, problem in found:
        src, line, record = origin[no]
        if src == source:
            out.append((no, Issue(src, line, f"{game.game_id}#{no}", problem.code,
                                  problem.message, record)))
    return out


class GameVerdicts(dict[bytes, list[tuple[int, Problem]]]):
    """``Variant.check_game``'s verdicts by a digest of the game (variant, canonical JSON) and its
    deals' records in order, the game's id left out of each: a game rule reads the game's id
    no more than a deal rule does (``ingest/sheets.py``), so games that differ only in their
    id have the same problems. At most ``READ_KEPT`` (then it starts again)."""

    def key(self, game: GameBase, v: Variant, records: list[str],
            canonical: str | None = None) -> bytes | None:
        """The digest of ``game`` (its canonical JSON ``canonical``, written here when not
        given) and its deals' ``records``, or None where the id is not once in the game's text."""
        own = id_field(game.game_id)
        text = canonical_json(game) if canonical is None else canonical
        if text.count(own) != 1:
            return None
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{v.name}\n{text.replace(own, '', 1)}".encode())
        for r in records:
            h.update(b"\n" + r.replace(own, "", 1).encode())
        return h.digest()

    def put(self, key: bytes, found: list[tuple[int, Problem]]) -> None:
        if len(self) >= READ_KEPT:
            self.clear()
        self[key] = found


_NUMBER = re.compile(r'"deal_no":([0-9]+)')
READ_KEPT = 10_000
"""Deals :func:`read_deals` remembers at most (then it starts again), so memory stays bounded."""


def read_deals(v: Variant, game: GameBase, records: list[str],
               read: dict[tuple[str, str], BaseModel]) -> list[Any]:
    """The stored deals of ``game`` read from their canonical records, by the model the game
    check reads them with (``Variant.check_game_reads``, else the deal model). Where the
    variant's rules do not read a deal's number (``Variant.reads_deal_no``), records that
    differ only in their number and game id are read once (``read`` remembers them, by variant
    and the record without both) and copied with their own."""
    model = v.check_game_reads or v.deal_model
    if v.reads_deal_no(game):
        return [model.model_validate_json(r) for r in records]
    own = id_field(game.game_id)
    out = []
    for r in records:
        m = _NUMBER.search(r)
        if m is None or r.count('"deal_no":') != 1 or r.count('"game_id":') != 1:
            out.append(model.model_validate_json(r))
            continue
        shape = (v.name, r[:m.start(1)] + r[m.end(1):].replace(own, "", 1))
        first: Any = read.get(shape)
        if first is None:
            if len(read) >= READ_KEPT:
                read.clear()
            first = read[shape] = model.model_validate_json(r)
        no = int(m.group(1))
        out.append(first if (first.deal_no, first.game_id) == (no, game.game_id) else
                   first.model_copy(update={"deal_no": no, "game_id": game.game_id}))
    return out


def too_wide(row: dict[str, object], ranges: Mapping[str, tuple[int, int]]) -> str | None:
    """Why ``row`` does not fit the ``ranges`` of its frame's integer columns
    (``Table.integer_ranges``; a number a reader took from a file, such as a bridge board of
    2**31), or ``None``."""
    bad = []
    for name, bounds in ranges.items():
        value = row.get(name)
        if isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
            bad.append(f"{name}: {shown(value)} is out of range ({bounds[0]}..{bounds[1]})")
    return "; ".join(bad) or None


def problem_message(problems: list[Problem]) -> str:
    """One message for the problems of a deal; the first one's code is the issue's code, so a
    problem of that code is said without it (``dealer: 'Άννα' is not a player ...;
    declarer: ...``), another with its own."""
    first = problems[0].code
    return "; ".join(p.message if p.code == first else str(p) for p in problems)
