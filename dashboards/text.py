"""Text for the pages: escaping, units, human column labels and readable cells.

* :func:`md` escapes any text from the data (a player's name, a game id, a file name) for every
  Markdown context (``st.markdown``, captions, subheaders, messages, metric labels); :func:`html`
  for HTML (``st.html``). A name like ``![t](http://host/x.png)`` renders as that text.
* :func:`quoted` writes a value a user gave (a link's, a file's name) between quotes, as he reads
  it: no Python quoting, its control characters visible.
* :func:`unit` names the settlement unit of a variant's ``cash`` (records.md 2, ``settlements``).
* :func:`short_source` shows an ingested file without the server's folders.
* :func:`readable` turns a query's frame into the table a user reads: human column labels, no
  "None" or "NaN" cells (a dash, or a word that says why), numbers rounded for reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from html import escape
from pathlib import PurePosixPath
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import polars as pl

from model.base import ChoiceWords
from model.problems import counted
from model.tables import CONTENT_HASH_DIGITS, ENTERED
from model.variants import REGISTERED, UnknownVariant
from model.variants import variant as lookup

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^\"'&])")
"""Every character Markdown (CommonMark, GitHub tables, Streamlit's ``:colour[]``, emoji
shortcodes and ``$`` maths) may read as markup; each gets a backslash (CommonMark 2.4)."""

DASH = "—"

UNITS = {v.name: v.cash_unit for v in REGISTERED}
"""The unit of ``settlements.cash`` and ``standings.cash`` per variant (records.md 2), as each
variant declares it (``model/variant.py``)."""

CASH_NOTES = {v.name: v.cash_note for v in REGISTERED if v.cash_note}
"""What a deal's cash leaves out, for the variants where it leaves something out
(``Variant.cash_note``)."""

MODE_WORDS = {v.name: v.mode_words for v in REGISTERED}
"""Each variant's defence modes in the players' words, where its code is not
(``Variant.mode_words``)."""


def mode_in_words(variant: str | None, mode: str) -> str:
    """A defence mode as the players say it (``no kontra``; ``play`` as it is)."""
    return MODE_WORDS.get(variant or "", {}).get(mode, mode)


STANDINGS_NOTES = {v.name: v.standings_note for v in REGISTERED if v.standings_note}
"""What cash added up over games does not say, for the variants whose players do not rank
themselves by it (``Variant.standings_note``)."""

LABELS: dict[str, str] = {
    "league": "league", "season": "season", "variant": "variant", "player": "player",
    "games": "games", "finished": "finished", "deals_played": "deals played",
    "deals": "deals", "cash": "cash", "cash_per_game": "cash per game",
    "cash_per_deal": "cash per deal", "game_id": "game", "deal_no": "deal",
    "started_at": "started (UTC)", "dealer": "dealer", "declarer": "declarer",
    "contract": "contract", "mode": "defence", "made": "made", "n": "n",
    "declarer_tricks": "declarer's tricks", "has_cards": "cards", "source": "file",
    "line": "line", "records": "records", "stored": "stored", "duplicates": "duplicates",
    "quarantined": "quarantined", "ingested_at": "ingested (UTC)", "sha256": "sha256",
    "record_key": "record", "code": "code", "message": "problem", "raw": "text as read",
    "role": "role", "seat": "seat", "declared": "declared", "position": "position",
    "month": "month", "cumulative": "cumulative cash", "key": "key",
    "rate (n, 95% CI)": "rate (n, 95% CI)",
}
"""Human labels of the query columns (``dashboards/queries.py``); a column not listed keeps its
name with underscores as spaces."""


def md(text: object) -> str:
    """``text`` with every Markdown character escaped: shown as written, never as markup."""
    return _escaped(_MD_SPECIAL, text)


_INLINE_SPECIAL = re.compile(r"([`*\[\]<~$:]|_(?![^\W_])|(?<![^\W_])_|&(?=#|[A-Za-z0-9]+;)"
                             r"|\\(?=[!-/:-@\[-`{-~]))")
"""The characters Markdown reads as markup inside a line: emphasis, code, links and images,
HTML, strikethrough, ``$`` maths, and Streamlit's ``:colour[]`` and shortcodes; a ``_`` that
is not inside a word (one between two letters or digits opens and closes no emphasis,
CommonMark 6.2: ``a_b``); a ``&`` that starts an entity (``&amp;``, ``&#42;``, CommonMark 2.5;
``Tom & Co`` is text); and a backslash before ASCII punctuation, the only place it escapes
(CommonMark 2.4: ``D\\Ana`` keeps its backslash as written)."""


def md_inline(text: object) -> str:
    """``text`` shown as written inside a line of Markdown (after a widget label's first
    words): only the characters :data:`_INLINE_SPECIAL` names are escaped, where they would
    be markup. A widget's label is also its ``aria-label`` (Streamlit sets it to the label as
    written), which a screen reader reads as written: O'Brien, Jean-Luc, a_b or Tom & Co keep
    no backslash there; a name that would be markup (``*x*``) keeps the backslashes that make
    it show as written, since a Streamlit label has no other way to say it."""
    return _escaped(_INLINE_SPECIAL, text)


_AUTOLINKED = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?=@)", re.IGNORECASE)
"""Where GitHub Markdown's literal autolinks (``http://``, ``www.``, an e-mail address), which
Streamlit renders as links whatever is escaped, are broken by a word joiner (U+2060, which
shows nothing)."""


def _escaped(special: re.Pattern[str], text: object) -> str:
    """``text`` on one line, each character ``special`` matches after a backslash, and no
    address in it made a link (:data:`_AUTOLINKED`)."""
    unlinked = _AUTOLINKED.sub("\u2060", str(text))
    return special.sub(r"\\\1", unlinked).replace("\n", " ")


CONTROL_PICTURES = {**{code: chr(0x2400 + code) for code in range(32)}, 0x7F: "\u2421"}
"""A control character's Unicode picture (a tab is ``␉``, a line end ``␊``): a value quoted
in a message shows it, where the text itself would show nothing or break the line."""


def quoted(text: object, limit: int | None = None) -> str:
    """``text`` between quotes as a user reads it: “O'Brien\\é” (``repr`` wrote
    ``"O'Brien\\\\é"``), its control characters as their pictures (:data:`CONTROL_PICTURES`),
    cut after ``limit`` characters with "…". Not escaped: :func:`md` it where Markdown
    renders it."""
    said = str(text)
    cut = limit is not None and len(said) > limit
    said = (said[:limit] if cut else said).translate(CONTROL_PICTURES)
    return f"“{said}{'…' if cut else ''}”"


def html(text: object) -> str:
    """``text`` escaped for HTML (``&``, ``<``, ``>`` and both quotes)."""
    return escape(str(text), quote=True)


def unit(variant: str | None) -> str:
    """The settlement unit of ``variant`` (``chips``, ``soup points`` ...); ``units`` if unknown."""
    return UNITS.get(variant or "", "units")


def cash(value: float | None, variant: str | None, sign: bool = True) -> str:
    """``+19 chips``, ``-0.33 soup points``: rounded to two places at most, with the unit."""
    if value is None:
        return DASH
    return f"{number(value, sign)} {unit(variant)}"


def number(value: float | None, sign: bool = False) -> str:
    """A number for reading: whole numbers without decimals, others to two places."""
    if value is None:
        return DASH
    value = round(float(value), 2) + 0.0  # 3318.0000000001 is 3318; -0.001 is 0, not -0
    text = f"{value:,.0f}" if value.is_integer() else f"{value:,.2f}"
    return f"+{text}" if sign and value > 0 else text


UPLOAD_HASH = CONTENT_HASH_DIGITS
"""Hex digits of an upload's content hash that start its stored name
(``dashboards.uploads.stored_name``: ``9f3a6c2e1b7d4a50-week12.csv``)."""
HASH_CHARS = 12
"""How much of a sha256 a page shows: an upload's version, a file's in the ingest log."""
_STORED_UPLOAD = re.compile(rf"([0-9a-f]{{{UPLOAD_HASH}}})-(.+)")
ENTRY = ENTERED
"""How the sources of the Entry page start (``dashboards.entry.PREFIX`` is this)."""
_ENTERED = re.compile(rf"{re.escape(ENTRY)}(?P<game>.+)/(?P<what>game|[0-9]+)", re.DOTALL)
"""A record typed on the Entry page: ``entry/<game id>/game`` or ``entry/<game id>/<deal>``
(``dashboards.entry.source_of``); a game id may hold "/"."""


def short_source(source: object, names: Mapping[str, str] | None = None) -> str:
    """An ingested file as a user knows it: the file name and its folder, never the server's
    absolute path (``/srv/x/data/samples/league.jsonl`` -> ``samples/league.jsonl``). An upload
    is named as uploaded, with the start of its content's hash to tell its versions apart
    (``uploads/9f3a6c2e1b7d4a50-Week_12.csv`` -> ``uploads/Week 12.csv (upload 9f3a6c2e1b7d)``):
    ``names`` holds the names uploads were given, by the name each is kept under
    (``dashboards.uploads.uploaded_names``); one not in it is named by its safe name. A record
    typed on the Entry page is named by its game and deal: ``entry: club-7/2026-12-06/table-1,
    deal 3`` (``entry: <game id>, game line`` for the game)."""
    if source is None:
        return DASH
    if entered := _ENTERED.fullmatch(str(source)):
        what = "game line" if entered["what"] == "game" else f"deal {int(entered['what'])}"
        return f"entry: {entered['game']}, {what}"
    path = PurePosixPath(str(source).replace("\\", "/"))
    parts = [p for p in path.parts if p not in ("/", "..", ".")]
    short = "/".join(parts[-2:]) if path.is_absolute() or len(parts) > 2 else "/".join(parts)
    if parts and (upload := _STORED_UPLOAD.fullmatch(parts[-1])):
        given = (names or {}).get(parts[-1], upload[2])
        return f"{short.removesuffix(parts[-1])}{given} (upload {upload[1][:HASH_CHARS]})"
    return short


REPAIR_WORDS: dict[str, tuple[str, str]] = {
    "opening-passes": ("auction", "opening passes put back"),
    "contract-double": ("auction", "the contract's double taken from the auction"),
    "play-dropped": ("play", "the play dropped"),
}
"""The named fixes readers make to a record (docs/ingest.md "Repairs", ``ingest/bridge_repairs.py``)
in words, and what of the deal each touched: ``auction`` (its calls or contract), ``play``; a
code not listed here touched the ``deal`` and is named by its code. The one home of these words:
the Replayer says them beside the deal, Data quality in its list of repairs."""


def repair_in_words(code: str) -> tuple[str, str]:
    """What a repair ``code`` touched and its words (:data:`REPAIR_WORDS`; a code not listed:
    ``deal`` and the code itself)."""
    return REPAIR_WORDS.get(code, ("deal", code))


def repairs_in_words(frame: pl.DataFrame, column: str = "code") -> pl.DataFrame:
    """``frame`` with its repair codes (``column``) in words (:func:`repair_in_words`)."""
    words = {code: said for code, (_, said) in REPAIR_WORDS.items()}
    return frame.with_columns(pl.col(column).replace_strict(words, default=pl.col(column),
                                                            return_dtype=pl.String))


def repairs_said(counts: Mapping[str, int], listed: int) -> str:
    """What the Data quality page says above the repairs it lists (``listed`` rows, one per
    fix): the records a reader repaired and how many fixes (``dashboards.queries.repair_counts``),
    how many of them were stored rather than duplicates of a deal stored before, and where the
    list stops short of every one."""
    records, fixes, stored = counts["records"], counts["repairs"], counts["stored"]
    duplicates = records - stored
    if not duplicates:
        kept = "all stored" if records > 1 else "stored"
    elif not stored:
        kept = ("none stored: each a duplicate" if records > 1 else "not stored: a duplicate"
                ) + " of a deal stored before"
    else:
        kept = (f"{stored:,} stored, {duplicates:,} "
                + ("a duplicate of a deal" if duplicates == 1 else "duplicates of deals")
                + " stored before")
    cut = f" The first {listed:,} repairs are listed." if listed < fixes else ""
    return (f"{counted(records, 'record')} read with a named fix ({counted(fixes, 'repair')}; "
            f"{kept}).{cut} `--strict` refuses such records (docs/ingest.md, \"Repairs\").")


def versions_said(records: int, listed: int) -> str:
    """What the Data quality page says above the records of earlier versions it lists
    (``listed`` rows, the latest first): how many a later version replaced or dropped in all
    (``dashboards.queries.superseded_count``), and where the list stops short of every one."""
    cut = f" The latest {listed:,} are listed." if listed < records else ""
    return (f"{counted(records, 'record')} of an earlier version replaced or dropped by a later "
            f"one (docs/ingest.md, \"Versions of a source\").{cut}")


def is_upload(source: object) -> bool:
    """Whether an ingested file is an upload (saved under its content's name by the Upload
    page: ``uploads/9f3a6c2e1b7d4a50-week12.csv``)."""
    if source is None:
        return False
    name = PurePosixPath(str(source).replace("\\", "/")).name
    return _STORED_UPLOAD.fullmatch(name) is not None


_PART = r"[^\s/:;,'\"()]+"
_QUOTED = re.compile(
    rf"(?P<path>(?<![\w.])/(?:{_PART}/)+{_PART}"  # an absolute path: "/" not after a word
    rf"|(?<![\w/.-])(?:{_PART}/)*[0-9a-f]{{{UPLOAD_HASH}}}-{_PART})"  # a stored upload's name
    r"(?P<line> line [0-9]+)?(?P<version> \(version (?P<v>[0-9a-f]+)\))?")
"""A path quoted in a message, absolute (two parts or more) or a stored upload's name with the
folders before it (an earlier version of an upload: ``uploads/375e98867e5d5a7b-week.jsonl``),
with the line and version that may follow it (ingest/versions.py: ``stored from <source> line
<n> (version <sha256>)``)."""
_DROPPED_BY = re.compile(rf"dropped from (?P<path>/?(?:{_PART}/)*{_PART}) "
                         r"by its version (?P<v>[0-9a-f]+)")
"""ingest/versions.py's ``dropped from <source> by its version <sha256>``."""
_UPLOADED_UNDER = re.compile(rf"a new version of (?P<name>{_PART}) uploaded under that name")
"""ingest/versions.py's way forward for a record stored from another upload, by its safe name."""


def _its_version(path: str, version: str) -> bool:
    """Whether ``version`` (a start of a sha256) is the one the stored upload at ``path`` is
    named by, so that naming the upload names it."""
    upload = _STORED_UPLOAD.fullmatch(PurePosixPath(path.replace("\\", "/")).name)
    return (upload is not None and len(version) >= HASH_CHARS
            and upload[1].startswith(version[:UPLOAD_HASH]))


def short_paths(message: str, names: Mapping[str, str] | None = None) -> str:
    """``message`` with every absolute path it quotes cut to its folder and name, and every
    stored upload named as uploaded (:func:`short_source`, with ``names``) and its version
    said once: a conflict names the file its stored record came from, and its version, which an
    upload's name already says."""
    given: dict[str, str] = {}

    def dropped(m: re.Match[str]) -> str:
        return (f"dropped by {m['path']}" if _its_version(m["path"], m["v"]) else m[0])

    def shown(m: re.Match[str]) -> str:
        path = m["path"]
        name = PurePosixPath(path.replace("\\", "/")).name
        if (upload := _STORED_UPLOAD.fullmatch(name)) and name in (names or {}):
            given[upload[2]] = (names or {})[name]
        version = m["version"] or ""
        if version and _its_version(path, m["v"]):
            version = ""
        return short_source(path, names) + (m["line"] or "") + version

    message = _QUOTED.sub(shown, _DROPPED_BY.sub(dropped, message))
    return _UPLOADED_UNDER.sub(
        lambda m: m[0].replace(m["name"], given.get(m["name"], m["name"])), message)


def without_paths(message: str, *folders: object) -> str:
    """``message`` with each of ``folders`` (server paths it may quote) cut to its last part."""
    for folder in sorted({str(f) for f in folders if f}, key=len, reverse=True):
        message = message.replace(folder, PurePosixPath(folder).name)
    return message


def rule_value(value: object) -> str:
    """A house rule's value in words: ``yes``/``no``, ``default`` (not set), ``fixed chips``;
    numbers in a row as a list reads them (bridge's unfinished rubber: ``300, 50``)."""
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, list | tuple) and value and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return ", ".join(str(v) for v in value)
    return json.dumps(value)


def choice_words(annotation: Any) -> Mapping[Any, str]:
    """The words of a choice's values (``model.base.ChoiceWords`` on its ``Literal``, optional
    or not), if any."""
    if get_origin(annotation) is Annotated:
        base, *metadata = get_args(annotation)
        words = next((m.words for m in metadata if isinstance(m, ChoiceWords)), None)
        return words if words is not None else choice_words(base)
    if get_origin(annotation) in (Union, UnionType):
        return next((words for a in get_args(annotation) if (words := choice_words(a))), {})
    return {}


def rule_words(variant: str | None, name: str, value: object) -> tuple[str, str]:
    """A house rule of ``variant``'s games and its value as the players say them, from the
    variant's ``rules_model``: the field's ``title`` (bridge's ``seed004_defeat_bonus``:
    ``defeated doubled bonus``), else its name in words; a choice's ``ChoiceWords`` (bridge's
    ``seed004``: ``simplified (Russian text)``), else :func:`rule_value`. Every page that lists
    a game's rules says them so (League's game, Balance's arms and what arm b changes)."""
    try:
        v = lookup(variant) if variant else None
    except UnknownVariant:
        v = None
    if v is not None and name == "preset" and isinstance(value, str):  # Variant.presets
        return name, v.presets.get(value, rule_value(value))
    info = v.rules_model.model_fields.get(name) if v is not None else None
    if info is None:
        return name.replace("_", " "), rule_value(value)
    words = choice_words(Annotated[(info.annotation, *info.metadata)] if info.metadata
                         else info.annotation)
    said = words.get(value) if isinstance(value, str | int | float) else None
    return info.title or name.replace("_", " "), said or rule_value(value)


def rules_of(rules_json: str | None) -> dict[str, Any]:
    """A game's ``rules`` JSON (records.md 1.1) as a dict: empty where it is none or no object."""
    try:
        rules = json.loads(rules_json or "{}")
    except json.JSONDecodeError:
        return {}
    return rules if isinstance(rules, dict) else {}


def rules_table(rules_json: str | None, variant: str | None = None) -> pl.DataFrame:
    """A game's house rules (the ``rules`` JSON of records.md 1.1) as rows of rule and value,
    in the words of ``variant``'s rules (:func:`rule_words`)."""
    rules = rules_of(rules_json)
    if not rules:
        return pl.DataFrame({"rule": ["(none: the variant's defaults)"], "value": [DASH]})
    said = [rule_words(variant, str(k), v) for k, v in rules.items()]
    return pl.DataFrame({
        "rule": [rule for rule, _ in said],
        "value": [DASH if v is None else value for (_, value), v in zip(said, rules.values(),
                                                                       strict=True)],
    })


def arms_rules(rules_a: str | None, variant_a: str, rules_b: str | None, variant_b: str
               ) -> pl.DataFrame:
    """A balance study's two rule sets side by side, one row per rule either arm sets, in the
    words of each arm's variant (:func:`rule_words`, :func:`arm_values`)."""
    arms = [(rules_of(rules_a), variant_a), (rules_of(rules_b), variant_b)]
    names = sorted(set(arms[0][0]) | set(arms[1][0]))
    if not names:
        return pl.DataFrame({"rule": ["(none: the variant's defaults)"], "arm a": [DASH],
                             "arm b": [DASH]})
    columns: dict[str, list[str]] = {"rule": [rule_words(variant_a, n, None)[0] for n in names]}
    for column, (rules, variant) in zip(("arm a", "arm b"), arms, strict=True):
        columns[column] = arm_values(variant, names, rules)
    return pl.DataFrame(columns)


def arm_values(variant: str, names: list[str], rules: Mapping[str, Any]) -> list[str]:
    """Each rule of ``names`` in an arm of ``rules``, in words; a rule the arm leaves out at the
    value its rules give it (the variant's default, or a preset's or convention's the rules
    name) and ``(default)`` after it, or ``default`` where that is not known (no such variant
    or rule, rules that do not validate). The arm's rules are made once."""
    made = None
    if not set(names) <= set(rules):
        try:
            made = lookup(variant).rules(rules) if variant else None
        except (UnknownVariant, ValueError):  # a pydantic ValidationError is a ValueError
            made = None

    def said(name: str) -> str:
        if name in rules:
            return rule_words(variant, name, rules[name])[1]
        fields = type(made).model_fields if made is not None else {}
        value = getattr(made, name) if name in fields else None  # not ``preset``, a method
        return "default" if value is None else f"{rule_words(variant, name, value)[1]} (default)"

    return [said(name) for name in names]


def label(column: str) -> str:
    return LABELS.get(column, column.replace("_", " "))


def _cell(value: object, digits: int) -> str:
    if value is None:
        return DASH
    if isinstance(value, float):
        if value != value:  # NaN
            return DASH
        return f"{value:,.{digits}f}" if not value.is_integer() else f"{value:,.0f}"
    return str(value)


def readable(frame: pl.DataFrame, digits: int = 2, missing: Mapping[str, str] | None = None,
             labels: Mapping[str, str] | None = None,
             numbers: Collection[str] = ()) -> pl.DataFrame:
    """The frame as shown: floats rounded to ``digits`` (no negative zero); a column with
    missing values becomes text with a dash (or ``missing[column]``, a word that says why) in
    their place, except the columns named in ``numbers``, which stay numbers (sorted and
    aligned as numbers; the table draws a missing one, :data:`DASH` as ``show`` passes it);
    columns renamed to human labels (``labels`` first, then :data:`LABELS`)."""
    missing = missing or {}
    out = []
    for name in frame.columns:
        col = frame[name]
        if col.dtype.is_float():
            col = col.fill_nan(None).round(digits)
            col = col.zip_with(col != 0, col.abs())  # -0.0 (-0.0001 rounded) is never "-0"
        elif isinstance(col.dtype, pl.Datetime):
            col = col.dt.strftime("%Y-%m-%d %H:%M")
        elif col.dtype == pl.Boolean:
            col = col.replace_strict({True: "yes", False: "no"}, default=None,
                                     return_dtype=pl.String)
        if col.null_count() and not (name in numbers and col.dtype.is_numeric()):
            word = missing.get(name, DASH)
            text = [word if v is None else _cell(v, digits) for v in col.to_list()]
            col = pl.Series(name, text, pl.String)
        out.append(col)
    shown = pl.DataFrame(out) if out else frame
    names = {c: (labels or {}).get(c) or label(c) for c in shown.columns}
    return shown.rename(names)
