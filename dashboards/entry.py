"""Score entry (the Entry page): a game typed at the table, deal by deal, through ingest.

Nothing here knows a variant: the form's fields come from the variant's models
(:func:`form_fields`: the house rules from ``rules_model``, a deal's fields from ``deal_model``
in the order of ``Variant.entry_fields``), each typed record is validated by ingest's own
per-record path (``ingest.validate.Validator``, so the page shows ingest's codes and messages),
and a good record is written by :func:`write`: saved as a file named by its content under the
uploads folder (``uploads/entry/``) and ingested by ``ingest.pipeline.ingest_paths`` under the
source name ``entry/<game>/game`` or ``entry/<game>/<deal>``, in one transaction, logged in
``ingest_log`` and scored at once. A deal typed again with other content is a new version of
its source: it supersedes the stored one (``replace``, docs/ingest.md "Versions of a source");
the earlier version stays in ``ingest_log`` and its file (:func:`versions`).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import re
import textwrap
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import duckdb
import polars as pl
from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from dashboards.db import DatabaseError, read_only
from dashboards.text import DASH, ENTRY, choice_words, rule_value, without_paths
from dashboards.uploads import cannot_keep, retrying, save, stored_name
from ingest.pipeline import FileReport, ingest_paths
from ingest.source import Issue, Raw
from ingest.store import stored_game
from ingest.validate import Accepted, Validator
from model import tables as T
from model.base import Call, CardName, GameBase, PlayerName
from model.cards import SUIT_LETTERS, SUIT_SYMBOLS
from model.variant import Variant
from scoring.store import score_pending

PREFIX = ENTRY
"""Every source the Entry page writes starts so (``ingest_log.source``, ``games.source``)."""
Kind = Literal["player", "choice", "flag", "number", "text", "cards", "calls", "plays"]
CARD_KINDS: tuple[Kind, ...] = ("cards", "calls", "plays")
"""The kinds of the optional cards section: hands, talon and discard; the auction; the play."""


@dataclass(frozen=True)
class FormField:
    """One field of a record as the form asks for it."""

    name: str
    kind: Kind
    per_player: bool = False
    """A ``dict`` by player (defence, tricks ...): one widget per player of the game."""
    optional: bool = False
    """May be left blank (``None``; a player left blank is not in the dict)."""
    options: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    default: Any = None
    help: str | None = None
    """What the field means (a house rule's docstring, :func:`rule_help`)."""
    words: Mapping[Any, str] = field(default_factory=dict, hash=False)
    """Its choices in the players' words, where the model gives them (``ChoiceWords``)."""
    title: str | None = None
    """Its name in the players' words, where the model gives one (pydantic's ``title``)."""
    blank: str = DASH
    """How the form writes no value: a dash; a house rule's ``default``
    (:func:`rule_fields`), as its help and the pages listing rules call it."""

    @property
    def label(self) -> str:
        return self.title or self.name.replace("_", " ")

    def shown(self, value: Any) -> str:
        """A choice as the form shows it: its words (:attr:`words`, else
        :func:`dashboards.text.rule_value`: ``yes``, ``after first round``); :attr:`blank` for
        none."""
        return self.blank if value is None else self.words.get(value) or rule_value(value)


def _optional(tp: Any) -> tuple[Any, bool]:
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def _bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    low = high = None
    for m in metadata:
        for item in [m, *getattr(m, "metadata", [])]:  # a FieldInfo inside Annotated
            if isinstance(item, Ge):
                low = int(item.ge)  # type: ignore[call-overload]
            elif isinstance(item, Gt):
                low = int(item.gt) + 1  # type: ignore[call-overload]
            elif isinstance(item, Le):
                high = int(item.le)  # type: ignore[call-overload]
            elif isinstance(item, Lt):
                high = int(item.lt) - 1  # type: ignore[call-overload]
    return low, high


def _plain(tp: Any, metadata: list[Any]) -> tuple[Any, list[Any]]:
    """``tp`` without ``Annotated``, and the metadata gathered on the way."""
    if get_origin(tp) is Annotated:
        base, *meta = get_args(tp)
        return _plain(base, [*metadata, *meta])
    return tp, metadata


def _value_kind(tp: Any, metadata: list[Any]) -> tuple[Kind, tuple[Any, ...], int | None,
                                                       int | None] | None:
    """The widget of one value: a player, a choice among literals, a flag, a number, text, a
    list of cards, an auction (calls) or a play (cards by player); ``None`` for what the form
    does not ask (other nested models, pairs ...)."""
    if tp == PlayerName:
        return "player", (), None, None
    if get_origin(tp) is tuple:
        item = get_args(tp)[:1]
        if item == (CardName,):
            return "cards", (), None, None
        if item == (Call,):
            return "calls", (), None, None
        if item and get_origin(item[0]) is tuple and get_args(item[0]) == (PlayerName, CardName):
            return "plays", (), None, None
    tp, metadata = _plain(tp, metadata)
    if get_origin(tp) is Literal:
        return "choice", get_args(tp), None, None
    if tp is bool:
        return "flag", (), None, None
    if tp is int:
        return "number", (), *_bounds(metadata)
    if tp is str:
        return "text", (), None, None
    return None


def form_field(name: str, annotation: Any, metadata: list[Any], default: Any,
               help: str | None = None, title: str | None = None) -> FormField | None:
    """The form's field for a model field, or ``None`` when the form cannot ask it."""
    tp, optional = _optional(annotation)
    per_player = False
    if get_origin(tp) is dict and get_args(tp)[0] == PlayerName:
        tp, per_player, optional = get_args(tp)[1], True, True
    kind = _value_kind(tp, list(metadata))
    if kind is None:
        return None
    k, options, low, high = kind
    return FormField(name, k, per_player, optional, options, low, high,
                     None if default is None or callable(default) else default, help,
                     choice_words(tp), title)


def form_fields(model: type[BaseModel], names: tuple[str, ...] | None = None) -> list[FormField]:
    """The fields of ``model`` the form asks for, in the order of ``names`` (default: all)."""
    found = []
    annotations = {name: _annotation(info) for name, info in model.model_fields.items()}
    # a value named in a docstring reads as its choice's words (a rule says another's value)
    said = {v: w for a in annotations.values() for v, w in choice_words(a).items()}
    for name in names or tuple(model.model_fields):
        info = model.model_fields[name]
        default = None if info.is_required() else info.default
        asked = form_field(name, annotations[name], [], default,
                           rule_help(field_docs(model).get(name), said), info.title)
        if asked is not None:
            found.append(asked)
    return found


def _annotation(info: FieldInfo) -> Any:
    """A model field's annotation with its own constraints, which pydantic keeps apart
    (``PlayerName`` ...), put back."""
    return Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation


@cache
def field_docs(model: type[BaseModel]) -> dict[str, str]:
    """Each field's docstring (the string after it in its class), read from the source of the
    model's classes (a rule's meaning, cited as the code cites it); none where the source
    cannot be read."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not issubclass(cls, BaseModel) or cls is BaseModel:
            continue
        try:
            body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
        except (OSError, TypeError, SyntaxError):
            continue
        assert isinstance(body, ast.ClassDef)
        for node, after in itertools.pairwise(body.body):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def deal_fields(variant: Variant) -> list[FormField]:
    """The deal fields a scorer types (``Variant.entry_fields``; else the deal model's own)."""
    base = {"record", "game_id", "deal_no"}
    names = variant.entry_fields or tuple(n for n in variant.deal_model.model_fields
                                          if n not in base)
    return form_fields(variant.deal_model, names)


SEATED = "four_players"
"""A rules field that says only how many sit at the table, which must agree with the players
(records.md 1.1, ``model.base.check_seats``): the form sets it from the players typed
(:func:`seated`) instead of asking it."""


def rule_fields(variant: Variant) -> list[FormField]:
    """The house rules as the form asks them (fields it cannot ask keep their default; the
    table's size, :data:`SEATED`, follows the players); one left blank reads ``default``
    (bridge's honours, which the scoring profile gives)."""
    return [replace(f, blank=rule_value(None)) for f in form_fields(variant.rules_model)
            if f.name != SEATED]


def seated(variant: Variant, rules: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
    """``rules`` (from :func:`rules_given`) with :data:`SEATED` as the players typed have it,
    where the variant's rules carry it: given only where it differs from the preset's (or the
    spec's) default, as :func:`rules_given` gives every field."""
    rest = {k: v for k, v in rules.items() if k != SEATED}
    if SEATED not in variant.rules_model.model_fields:
        return rest
    base = preset_rules(variant, rules.get("preset"))
    four = len(players) == 4
    return rest if getattr(base, SEATED) == four else {**rest, SEATED: four}


def preset_rules(variant: Variant, preset: str | None) -> Any:
    """The rules a game with no other house rule than its ``preset`` (if any) has."""
    return variant.rules({"preset": preset} if preset else {})


def rules_given(variant: Variant, preset: str | None, values: Mapping[str, Any]) -> dict[str, Any]:
    """A game's ``rules`` object: the preset (if any) and only the values that differ from the
    rules the preset (or the spec's defaults) gives, so a preset or convention field still fills
    every flag left alone."""
    base = preset_rules(variant, preset)
    changed = {k: v for k, v in values.items() if getattr(base, k, None) != v}
    return {**({"preset": preset} if preset else {}), **changed}


AS_LETTERS = str.maketrans(SUIT_SYMBOLS + "♤♧♢♡", SUIT_LETTERS * 2)
"""The suit symbols the pages write (``6♠``, ``A♥``; their outlined forms too) as the records'
letters (``model.cards``, records.md 1.2)."""


def in_letters(text: str) -> str:
    """``text`` with its suit symbols as letters: a contract, call or card typed as the pages
    show it (``6♠``) is read as the records write it (``6S``)."""
    return text.translate(AS_LETTERS)


def cards_of(text: str) -> list[str] | None:
    """Card names typed with spaces or commas (``AS KS 10H``, ``A♠``); ``None`` when blank."""
    cards = [c for c in in_letters(text).replace(",", " ").split() if c]
    return cards or None


SEPARATORS = re.compile(r"[,;\n]+")


def pairs_of(text: str) -> list[tuple[str, str]] | None:
    """``player item`` pairs separated by commas, semicolons or lines (``Boris pass, Chris 6S``;
    ``Boris AD, Chris 7D``): the item is the last word, the player the words before it (a piece
    of one word has no player, ``""``, which ingest then rejects; the item's suit symbols as
    letters, :func:`in_letters`); ``None`` when blank."""
    pairs = []
    for piece in SEPARATORS.split(text):
        words = piece.split()
        if words:
            pairs.append((" ".join(words[:-1]), in_letters(words[-1])))
    return pairs or None


def calls_of(text: str) -> list[dict[str, str]] | None:
    """An auction typed as ``player call`` pairs, as the record holds it (records.md 1.2:
    ``[{"player": ..., "call": ...}, ...]``)."""
    pairs = pairs_of(text)
    return None if pairs is None else [{"player": p, "call": c} for p, c in pairs]


def plays_of(text: str) -> list[list[str]] | None:
    """The play typed as ``player card`` pairs, as the record holds it (``[[player, card]...]``)."""
    pairs = pairs_of(text)
    return None if pairs is None else [[p, c] for p, c in pairs]


def pairs_text(value: Any) -> str:
    """A stored auction or play as the form shows it: ``player item`` pairs."""
    return ", ".join(f"{v['player']} {v['call']}" if isinstance(v, Mapping)
                     else " ".join(map(str, v)) for v in value or ())


def _given(value: Any) -> bool:
    return value is not None and value is not False and value != {} and value != []


def deal_record(game_id: str, deal_no: int, values: Mapping[str, Any]) -> dict[str, Any]:
    """A deal line (records.md 1.2) from the form's values; blanks, empty maps and unset flags
    are left out, as a hand-written record would leave them."""
    record: dict[str, Any] = {"record": "deal", "game_id": game_id, "deal_no": int(deal_no)}
    for name, value in values.items():
        if isinstance(value, Mapping):
            value = {p: v for p, v in value.items() if v is not None}
        if _given(value):
            record[name] = value
    return record


def without_zero_tricks(record: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The deal without the players' 0 tricks, and those players: a defender who passes while
    the other plays alone takes no part in the play and has no tricks in the record
    (greek-prefa.md 6.1 step 6, 7), but a scorer types his 0 all the same. The page takes this
    record only where it is valid and the record as typed is not."""
    tricks = record.get("tricks")
    if not isinstance(tricks, Mapping):
        return dict(record), []
    idle = [p for p, n in tricks.items() if n == 0]
    kept = {p: n for p, n in tricks.items() if n != 0}
    lighter = {k: v for k, v in record.items() if k != "tricks"}
    return ({**lighter, "tricks": kept} if kept else lighter), idle


def game_record(variant: Variant, game_id: str, players: list[str], rules: dict[str, Any],
                started_at: datetime | None, league: str | None) -> dict[str, Any]:
    """A game line (records.md 1.1) from the form's values."""
    record: dict[str, Any] = {"record": "game", "game_id": game_id, "variant": variant.name,
                              "players": players, "rules": rules}
    if started_at is not None:
        record["started_at"] = started_at.isoformat()
    if league:
        record["league"] = league
    return record


def players_of(text: str) -> list[str]:
    """Players typed in seat order, separated by commas."""
    return [p.strip() for p in text.split(",") if p.strip()]


def alike_names(players: list[str]) -> str:
    """Names at one table that differ only in capitals (``Ana`` and ``ana``), said as
    ``Ana and ana``; empty when there are none. A game refuses a name given twice only as the
    same text (``model.base``), so these are two players unless the scorer says otherwise."""
    seen: dict[str, list[str]] = {}
    for p in players:
        seen.setdefault(p.casefold(), []).append(p)
    return "; ".join(" and ".join(same) for same in seen.values() if len(same) > 1)


def blank_seats(text: str) -> list[int]:
    """The seats (from 1) whose name is blank in players typed (``Ana, , Cy``: seat 2), but for
    blanks after the last name (a comma typed before the next name)."""
    names = [p.strip() for p in text.split(",")]
    while names and not names[-1]:
        names.pop()
    return [seat for seat, name in enumerate(names, 1) if not name]


GAME_PARTS = {"variant": "another variant", "players": "other players",
              "rules": "other house rules", "league": "another league",
              "started_at": "another start time"}
"""The parts of a game line a scorer types, as the page says they differ."""


def differing(stored: str, typed: Mapping[str, Any]) -> list[str]:
    """What of a typed game line differs from the stored game of its id (``stored``, its
    canonical JSON), in :data:`GAME_PARTS`' words; both compared as ingest stores them."""
    accepted = validate(typed, lambda _gid: None)
    if not isinstance(accepted, Accepted):
        return []
    theirs, ours = json.loads(stored), json.loads(accepted.canonical)
    return [word for part, word in GAME_PARTS.items() if theirs.get(part) != ours.get(part)]


def source_of(record: Mapping[str, Any]) -> str:
    """``entry/<game>/game`` for a game line, ``entry/<game>/<deal>`` for a deal."""
    what = "game" if record.get("record") == "game" else str(record.get("deal_no"))
    return f"{PREFIX}{record.get('game_id')}/{what}"


def line_of(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def validate(record: Mapping[str, Any],
             stored: Callable[[str], tuple[str, str] | None]) -> Accepted | Issue:
    """The record through ingest's per-record validation, as its line would be read from a
    file; ``stored`` looks up stored games (``ingest.store.stored_game`` on a connection)."""
    text = line_of(record)
    return Validator(stored).validate(Raw(source_of(record), 1, json.loads(text), text))


def message(issue: Issue, variant: Variant | None = None) -> str:
    """An issue's message, as the quarantine has it, without its code (``schema``,
    ``deck``: ingest's word for the kind of problem, not the scorer's) and without the rulebook
    sections it cites (``(russian.md 7)``, ``(raspasy, russian.md 7)``: the spec's, not the
    table's). With the ``variant``, its fields are named as the form labels them: a check box
    said ticked or not (``conceded: true``: ``"conceded" ticked``), a rule by its words
    (``rules.preliminary_bid``: ``preliminary bid``)."""
    text = _CITED.sub("", _CITED_TOO.sub("", issue.message))
    return text if variant is None else _as_labelled(text, variant)


def _as_labelled(text: str, variant: Variant) -> str:
    fields = [*form_fields(variant.deal_model), *form_fields(variant.rules_model)]
    for f in sorted(fields, key=lambda f: -len(f.name)):
        name = re.escape(f.name)
        if f.per_player:  # a player's box: "tricks.Ana: ..." is "tricks of Ana: ..."
            text = re.sub(rf"\b{name}\.(?=\S)", f"{f.label} of ", text)
        if f.kind == "flag":
            text = re.sub(rf"\b(?:rules\.)?{name}(?:: | is )(true|True|false|False)\b",
                          lambda m, f=f: f'"{f.label}" '
                          + ("ticked" if m[1].lower() == "true" else "not ticked"), text)
        text = re.sub(rf"\b(?:rules\.)?{name}\b", f.label, text)
    return text


def blank_boxes(fields: list[FormField], values: Mapping[str, Any], message: str) -> str:
    """What the form left blank of a per-player field that ``message`` names while other
    players' boxes of it are filled (``tricks of "Q" blank``): the record leaves a blank box
    out, so the rule's message names only the players typed."""
    blanks = []
    for f in fields:
        typed = values.get(f.name)
        if not (f.per_player and isinstance(typed, Mapping) and f.label in message):
            continue
        empty = [p for p, v in typed.items() if v is None]
        if empty and len(empty) < len(typed):
            blanks.append(f"{f.label} of {', '.join(empty)}")
    return f"Blank: {'; '.join(blanks)}." if blanks else ""


_CITATION = (r"(?:sections? |spec )?(?:[A-Z]{0,2}[0-9][0-9.]*|[A-Z]{1,2}\b|\[[^\]]*\]"
             r"|step [0-9]+|[a-z-]+\.md)(?:\s+``[a-z_]+``)?")
_CITATIONS = rf"{_CITATION}(?:(?:,\s*|\s+){_CITATION})*"
"""What a house rule's docstring cites: spec sections (``section 6.1 step 4``, ``7.3``), open
questions (``G2``, ``K11``, ``U``), sources (``[rostik]``) and spec files."""
_RULE_CITED = (re.compile(r"\s*\[[a-z0-9 -]+\]"), re.compile(rf"\s*\({_CITATIONS}\)"),
               re.compile(rf"(?<=\(){_CITATIONS}[:;,]\s*"),
               re.compile(rf"[;,]\s*{_CITATIONS}(?=\))"))
"""A source named in a sentence, a bracket of citations alone, and citations that open or
close a bracket."""


def rule_help(description: str | None, words: Mapping[Any, str] | None = None) -> str | None:
    """A house rule's docstring as the Entry page's help: without what it cites (a scorer has
    no rulebook at hand), values and fields named as code in the words the form shows them
    (``words``, the choices' words of the rules model, else ``dashboards.text.rule_value``:
    ``raise_value`` -> raise value, ``None`` -> default, ``true`` -> yes)."""
    if not description:
        return None
    words = words or {}
    text = description
    for cited in _RULE_CITED:
        text = cited.sub("", text.replace("( ", "("))
    text = re.sub(r"\s*\(\s*\)", "", text.replace(",)", ")"))
    return " ".join(_CODE.sub(lambda m: words.get(m[1]) or rule_value(_LITERALS.get(m[1], m[1])),
                              text).split())


_CODE = re.compile(r"``([^`]+)``")
"""A value or a field named as code in a docstring (``raise_value``, ``None``, ``true``)."""
_LITERALS: dict[str, object] = {"None": None, "true": True, "false": False}


_CITED = re.compile(r"\s*\([a-z-]+\.md[ 0-9.,]*\)")
_CITED_TOO = re.compile(r",\s*[a-z-]+\.md[ 0-9.]*(?=\))")


def longest(model: type[BaseModel], name: str) -> int | None:
    """The most characters the text field ``name`` of ``model`` takes (its ``max_length``)."""
    return next((m.max_length for m in model.model_fields[name].metadata
                 if getattr(m, "max_length", None)), None)


GAME_ID_CHARS = longest(GameBase, "game_id")
"""The most characters a game id may have (``model.base.GameBase``)."""


def check(con: duckdb.DuckDBPyConnection, record: Mapping[str, Any]) -> Accepted | Issue:
    """:func:`validate` against the games stored in the database ``con`` reads."""
    return validate(record, lambda gid: stored_game(con, gid))


def differing_from_stored(con: duckdb.DuckDBPyConnection, record: Mapping[str, Any]) -> list[str]:
    """:func:`differing` from the stored game of the typed game line's id (none stored: [])."""
    stored = stored_game(con, str(record.get("game_id")))
    return [] if stored is None else differing(stored[1], record)


@dataclass(frozen=True)
class Written:
    """What :func:`write` did, in words for the page."""

    ok: bool
    text: str
    report: FileReport | None = None


def folder_of(db: Path) -> Path:
    """Where every version of every entered record is kept, by content."""
    return db.parent / "uploads" / "entry"


def file_name(source: str, data: bytes) -> str:
    return stored_name(source.removeprefix(PREFIX).replace("/", "-") + ".jsonl", data)


def stored_already(con: duckdb.DuckDBPyConnection, record: Mapping[str, Any]) -> bool:
    """Whether the database holds ``record`` as ingest would store it: a game line identical to
    its stored game, a deal with the ``deal_key`` of the stored deal of its number. A deal typed
    again with its calls or contract in other case (``6s`` for ``6S``) is that record
    (records.md 1.2's spelling, ``DealBase.spelled_call``): a duplicate, not a new version.
    Not while a game waits for its settlement (``rescore_pending``: an entry stopped while
    scoring): writing the record again settles it."""
    if con.execute(f"SELECT count(*) FROM {T.PENDING}").fetchone() != (0,):
        return False
    accepted = check(con, record)
    if not isinstance(accepted, Accepted):
        return False
    if accepted.is_game:
        return accepted.duplicate
    row = con.execute(f"SELECT deal_key FROM {T.DEALS} WHERE game_id = ? AND deal_no = ?",
                      [record.get("game_id"), record.get("deal_no")]).fetchone()
    return row is not None and row[0] == accepted.key


def _stored_already(db: Path, record: Mapping[str, Any]) -> bool:
    """:func:`stored_already` on a read-only connection; ``False`` without a database to ask."""
    try:
        with read_only(db) as con:
            return stored_already(con, record)
    except (DatabaseError, duckdb.Error):  # none yet, or busy: ingest decides
        return False


def write(db: Path, record: Mapping[str, Any], folder: Path | None = None) -> Written:
    """Store one validated record through the ingest entry point and score its game: the
    record's line is saved as a file named by its content (never overwritten) and ingested as
    the source :func:`source_of` names, superseding that source's earlier version. A record
    stored already (:func:`stored_already`) writes nothing: no file, no new version."""
    if _stored_already(db, record):
        return Written(True, f"{_what(record)} is unchanged: the stored one is the same record, "
                             "so nothing new is stored.")
    folder = folder or folder_of(db)
    source = source_of(record)
    data = (line_of(record) + "\n").encode()
    try:
        target = save(folder, file_name(source, data), data)
    except OSError as exc:  # a read-only or full disk
        return Written(False, cannot_keep(exc, folder, db.parent))
    try:
        (report,) = retrying(lambda: ingest_paths([target], db, score=score_pending,
                                                  replace=True, names={target: source}))
    except Exception as exc:  # a lock held too long, a full disk: said, never a traceback
        return Written(False, without_paths(f"nothing was stored: {exc}", folder, db.parent))
    return Written(not (report.failed or report.quarantined), _said(report, record), report)


def _what(record: Mapping[str, Any]) -> str:
    return "The game" if record.get("record") == "game" else f"Deal {record.get('deal_no')}"


def _said(report: FileReport, record: Mapping[str, Any]) -> str:
    what = _what(record)
    if report.failed:
        return f"{what} was not stored: {report.failed}"
    if report.quarantined:
        return f"{what} was not stored: " + "; ".join(message(i) for i in report.issues)
    if report.skipped:
        return f"{what} is unchanged: it is stored as typed."
    text = f"{what} is stored" + (" as a new version (the earlier one is kept)"
                                  if report.replaced else "")
    if report.score_error:
        return f"{text}; scoring failed ({report.score_error}): the next write retries."
    return text + "."


# ---------------------------------------------------------------- reading (read-only)


def entry_games(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """The games entered on this page, newest first."""
    return con.sql(
        f"""SELECT game_id, variant, players, started_at FROM {T.GAMES}
            WHERE starts_with(source, ?) ORDER BY started_at DESC NULLS LAST, game_id""",
        params=[PREFIX]).pl()


def stored_deals(con: duckdb.DuckDBPyConnection, game_id: str) -> dict[int, dict[str, Any]]:
    """The game's stored deals by number, as records."""
    rows = con.execute(f"SELECT deal_no, record::VARCHAR FROM {T.DEALS} WHERE game_id = ? "
                       "ORDER BY deal_no", [game_id]).fetchall()
    return {int(n): json.loads(text) for n, text in rows}


def versions(con: duckdb.DuckDBPyConnection, game_id: str, folder: Path) -> pl.DataFrame:
    """Every version of every deal entered for the game (``ingest_log``), oldest first: deal,
    version, when, whether it is the stored one, what it changed from the version before, and
    the deal as it was typed (from its file)."""
    prefix = f"{PREFIX}{game_id}/"
    rows = con.execute(
        f"""SELECT source, sha256, ingested_at FROM {T.INGEST_LOG}
            WHERE starts_with(source, ?) ORDER BY source, ingested_at""", [prefix]).fetchall()
    out: list[dict[str, Any]] = []
    typed: dict[int, dict[str, Any] | None] = {}  # each deal's latest version as typed
    for source, sha, at in rows:
        deal = source.removeprefix(prefix)  # a game "a/b" is not a deal of game "a"
        if not deal.isascii() or not deal.isdigit():
            continue
        earlier = [r for r in out if r["deal"] == int(deal)]
        for r in earlier:
            r["status"] = "superseded"
        fields = _typed(folder, sha)
        out.append({"deal": int(deal), "version": len(earlier) + 1, "entered_at": at,
                    "status": "stored",
                    "changed": changes(typed[int(deal)], fields) if earlier else "",
                    "as_typed": "(its file is gone)" if fields is None else " · ".join(
                        f"{k.replace('_', ' ')}: {typed_value(v)}" for k, v in fields.items())})
        typed[int(deal)] = fields
    schema: dict[str, pl.DataType] = {"deal": pl.Int64(), "version": pl.Int64(),
                                      "entered_at": pl.Datetime("us", "UTC"),
                                      "status": pl.String(), "changed": pl.String(),
                                      "as_typed": pl.String()}
    return pl.DataFrame(out, schema=schema).sort("deal", "version")


def _typed(folder: Path, sha256: str) -> dict[str, Any] | None:
    """The deal's fields as typed, read from the version's file (its name is its hash), or
    ``None`` when the file is gone."""
    matches = sorted(folder.glob(f"{sha256[:16]}-*.jsonl")) if folder.is_dir() else []
    try:
        record = json.loads(matches[0].read_text(encoding="utf-8"))
    except (IndexError, OSError, ValueError):
        return None
    return {k: v for k, v in record.items() if k not in ("record", "game_id", "deal_no")}


def changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """What a version changed from the one before: ``tricks: Anna 2, Boris 6 (was Anna 1,
    Boris 7)`` for each field that differs (blank where one was not typed)."""
    if before is None or after is None:
        return "(a version's file is gone)"
    said = []
    for k in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(k), after.get(k)
        if old != new:
            now = "blank" if new is None else typed_value(new)
            was = "blank" if old is None else typed_value(old)
            said.append(f"{k.replace('_', ' ')}: {now} (was {was})")
    return "; ".join(said) or "nothing"


def typed_value(value: Any) -> str:
    """A field's value as the form takes it: a name or word as it is, a map by player as
    ``Ben play, Cy play``, cards separated by spaces, an auction or a play as ``player item``
    pairs (:func:`pairs_text`), a flag as yes or no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {typed_value(v)}".rstrip() for k, v in value.items())
    if isinstance(value, list | tuple):
        if any(isinstance(v, Mapping | list | tuple) for v in value):
            return pairs_text(value)
        return " ".join(map(typed_value, value))
    return str(value)
