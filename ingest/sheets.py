"""Score-sheet deal lines (no cards) of every variant, judged once per shape (docs/ingest.md).

A score sheet repeats itself: a game of thousands of deals has a few hundred distinct
(dealer, declarer, contract, defence, tricks), and many games share their players and rules.
The reference's verdict on a deal line (``Validator.validate``, ``ingest/validate.py``) depends
only on the line's text and its game, and on the line's game id and deal number only by copying
them, where the variant says its rules read neither (``Variant.reads_deal_no``). So:

1. a candidate line is cut into its *shape*: its text with the game id and the deal number left
   out (vectorised; a line with a backslash, or without exactly one ``"game_id"`` and one
   ``"deal_no"`` whose values are plain, has no shape), and its game's *signature* (the game's
   canonical JSON without its id). Where the variant reads the number, it stays in the shape;
2. the reference judges the first line of each distinct (signature, shape), its
   *representative*, as it would at that line;
3. a representative it accepts (with no repair) gives every line of its shape its verdict:
   canonical JSON (the representative's, with the line's game id and number written in), the
   ``deals`` columns, and the ``deals_<variant>`` row (``game_id`` and ``deal_no`` put in); the
   ``deal_key`` is hashed per line (``model/identity.py``).

A verdict is kept for the file's later batches (:class:`Memo`). A line sees its game only
where the reference would (after the game's line when that is in the
batch, ``Validator.visible_from``). The lines of a shape the reference turns down, and every
line without a shape, go on to the columnar and reference paths, which alone write messages.
``tests/ingest/test_sheets.py`` holds, by hypothesis for every registered variant, that this
path accepts exactly what the reference accepts, with the same canonical JSON, keys and rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import polars as pl

from ingest.jsonl import parse_line
from ingest.source import Issue, Raw
from ingest.validate import MAX_DEAL_NO, NEVER, Accepted, Validator, id_field
from model.base import DealBase
from model.identity import deal_keys

GAME_ID = r'^[ \t]*:[ \t]*"([^"\\]*)"'
"""What follows a line's ``"game_id"`` key: the separator and the id (between the quotes)."""
DEAL_NO = r"^[ \t]*:[ \t]*([1-9][0-9]{0,9})[ \t]*[,}]"
"""What follows a line's ``"deal_no"`` key: the separator and the number as plain digits."""
DEALS_COLUMNS: dict[str, pl.DataType] = {
    "idx": pl.Int32(), "game_id": pl.String(), "deal_no": pl.Int32(), "dealer": pl.String(),
    "declarer": pl.String(), "contract": pl.String(), "record": pl.String(),
    "deal_key": pl.String(), "has_cards": pl.Boolean(), "variant": pl.String(),
}
"""The columns of the deals this path takes: position in the batch, then ``deals`` columns."""


@dataclass(frozen=True)
class Taken:
    """The deals a path took from a batch, and their ``deals_<variant>`` rows by variant name
    (each with the deal's ``idx``)."""

    deals: pl.DataFrame
    rows: dict[str, pl.DataFrame]

    @classmethod
    def empty(cls) -> Taken:
        return cls(pl.DataFrame(schema=DEALS_COLUMNS), {})

    def __len__(self) -> int:
        return self.deals.height

    def __add__(self, other: Taken) -> Taken:
        rows = dict(self.rows)
        for name, frame in other.rows.items():
            rows[name] = pl.concat([rows[name], frame]) if name in rows else frame
        return Taken(pl.concat([self.deals, other.deals]), rows)

    def filter(self, keep: pl.Expr) -> Taken:
        """The deals ``keep`` keeps (their rows are left as they are: the store takes the rows
        of the deals it stores, by ``idx``)."""
        return Taken(self.deals.filter(keep), self.rows)


KEPT = 100_000
"""Verdicts a :class:`Memo` keeps at most (then it starts again), so memory stays bounded."""


@dataclass
class Memo:
    """What the path learnt in a file's earlier batches: a number per game signature, and the
    verdict on each (signature, shape) judged (``None``: left to the reference). A verdict
    holds for a later batch as it stands: it depends only on the game's content and the shape,
    and a line still sees its game only where the reference would."""

    signatures: dict[str, int] = field(default_factory=dict)
    verdicts: dict[tuple[int, str], _Verdict | None] = field(default_factory=dict)

    def learnt(self, found: dict[tuple[int, str], _Verdict | None]) -> None:
        if len(self.verdicts) + len(found) > KEPT:
            self.verdicts.clear()
        self.verdicts.update(found)


def accept(source: str, texts: Sequence[str], numbered: Sequence[tuple[int, str]],
           candidates: Sequence[int], validator: Validator,
           look_up: Callable[[list[str]], object] | None = None,
           memo: Memo | None = None) -> Taken:
    """The candidate lines (positions in ``texts``; ``numbered`` holds them with their line
    numbers) this path takes, as the reference would accept them at their positions.
    ``look_up`` is told the lines' game ids the validator does not know yet, before it is asked
    for them (to look them up in the database in one query); ``memo`` keeps the verdicts from
    batch to batch of a file."""
    if not candidates:
        return Taken.empty()
    memo = Memo() if memo is None else memo
    lines = _shaped(pl.DataFrame({"idx": pl.Series(candidates, dtype=pl.Int32),
                                  "text": pl.Series([texts[k] for k in candidates],
                                                    dtype=pl.String)}))
    ids = lines["game_id"].unique().to_list()
    unknown = [g for g in ids if g not in validator.games]
    if look_up is not None and unknown:
        look_up(unknown)
    games = _games(ids, validator, memo.signatures)
    if not games.height:
        return Taken.empty()
    lines = lines.join(games, on="game_id").filter(pl.col("idx") > pl.col("since"))
    lines = lines.with_columns(shape=pl.when(pl.col("numbered")).then(pl.col("gameless"))
                               .otherwise(pl.col("bare"))).select("idx", "game_id", "deal_no",
                                                                  "signature", "shape")
    reps = lines.group_by("signature", "shape").agg(rep=pl.col("idx").min())
    lines = lines.join(reps, on=["signature", "shape"]).select("idx", "game_id", "deal_no",
                                                               "rep")
    judged = _remembered(source, numbered, reps, validator, memo)
    if not judged:
        return Taken.empty()
    return _broadcast(lines, judged)


PLAIN_ID = re.compile(r'"game_id"[ \t]*:[ \t]*"([^"\\\x00-\x1f\[\]{}]*)"')
"""A game line's ``"game_id"`` key with its separator and a plain id: no escape, control
character or bracket (which the reader counts, ``ingest.jsonl.too_deep``)."""


def game_lines(source: str, texts: Sequence[tuple[int, str]], candidates: Sequence[int],
               validator: Validator, look_up: Callable[[list[str]], object]
               ) -> dict[int, Accepted | Issue]:
    """The candidate lines that are game lines, validated in order, by position (for the
    batch's deals to see their games, ``Validator.visible_from``).

    A score sheet of many short games repeats its game lines but for the id. A line without a
    backslash, with one ``"game_id"`` and a plain id, is cut around its id; the first line of
    each cut (its representative) is read and judged by the reference, and a later line of the
    same cut is the representative's game under its own id where the reference would say so
    (``Validator.game_alike``); every other line is read and judged by the reference.
    ``look_up`` is told the game ids first (to look them up in the database in one query)."""
    firsts: dict[tuple[str, str], int] = {}
    cuts: dict[int, tuple[str, tuple[str, str]]] = {}
    raws: dict[int, Raw] = {}
    numbered = {k: texts[k] for k in candidates}
    for k, (_, text) in numbered.items():
        m = PLAIN_ID.search(text) if "\\" not in text and text.count('"game_id"') == 1 else None
        if m is not None:
            cut = (text[:m.start(1)], text[m.end(1):])
            cuts[k] = (m.group(1), cut)
            if firsts.setdefault(cut, k) != k:
                continue
        raw = parse_line(source, *numbered[k])
        if isinstance(raw, Raw) and raw.data.get("record") == "game":
            raws[k] = raw
    alike = []
    for k, (_, cut) in cuts.items():
        rep = firsts[cut]
        if k == rep or rep not in raws:  # a representative, or a line like one not a game
            continue
        if raws[rep].data.get("game_id") == cuts[rep][0]:
            alike.append(k)
        elif isinstance(raw := parse_line(source, *numbered[k]), Raw):  # the id is not its own
            raws[k] = raw
    look_up([g for r in raws.values() if isinstance(g := r.data.get("game_id"), str)]
            + [cuts[k][0] for k in alike])
    early: dict[int, Accepted | Issue] = {}
    for k in sorted([*raws, *alike]):
        validator.position = k
        if k in raws:
            early[k] = validator.validate(raws[k])
            continue
        gid, cut = cuts[k]
        first, rep_raw = early[firsts[cut]], raws[firsts[cut]]
        line, text = numbered[k]
        raw = Raw(source, line, {**rep_raw.data, "game_id": gid}, text)
        got = validator.game_alike(first, raw) if isinstance(first, Accepted) else None
        early[k] = got if got is not None else validator.validate(raw)
    return early


def _shaped(lines: pl.DataFrame) -> pl.DataFrame:
    """The lines that have a shape, with their game id, deal number, and the text without the
    game id (``gameless``) and without the number too (``bare``). Only the separator next to
    each value goes with it: the JSON read is the same whatever the spaces there."""
    text = pl.col("text")
    plain = (~text.str.contains("\\", literal=True)
             & (text.str.count_matches('"game_id"', literal=True) == 1)
             & (text.str.count_matches('"deal_no"', literal=True) == 1))
    lines = lines.filter(plain).with_columns(g=text.str.split_exact('"game_id"', 1)).unnest("g")
    after = pl.col("field_1")
    lines = lines.with_columns(game_id=after.str.extract(GAME_ID, 1), gameless=pl.concat_str(
        "field_0", pl.lit('"game_id"'), after.str.replace(GAME_ID, ":")))
    lines = lines.select("idx", "game_id", "gameless", d=pl.col("gameless").str.split_exact(
        '"deal_no"', 1)).unnest("d")
    return lines.with_columns(deal_no=after.str.extract(DEAL_NO, 1).cast(pl.Int64)).filter(
        pl.col("game_id").is_not_null() & (pl.col("deal_no") <= MAX_DEAL_NO)).select(
        "idx", "game_id", "gameless", pl.col("deal_no").cast(pl.Int32), bare=pl.concat_str(
            "field_0", pl.lit('"deal_no"'), after.str.replace(r"^[ \t]*:[ \t]*[0-9]+", ":")))


def _games(ids: list[str], validator: Validator, signatures: dict[str, int]) -> pl.DataFrame:
    """The known games among ``ids``: signature (a number per distinct variant and canonical
    game JSON without the game's id, kept in ``signatures``), the position a deal must be
    after to see it, and whether its rules read deal numbers."""
    validator.position = NEVER
    rows = []
    for gid in ids:
        known = validator.known_game(gid)
        if known is None:
            continue
        game, v, text = known
        content = v.name + "\x00" + text.replace(id_field(gid), "", 1)
        signature = signatures.setdefault(content, len(signatures))
        rows.append((gid, signature, validator.visible_from.get(gid, -1),
                     bool(v.reads_deal_no(game))))
    return pl.DataFrame(rows, schema={"game_id": pl.String(), "signature": pl.Int32(),
                                      "since": pl.Int64(), "numbered": pl.Boolean()},
                        orient="row")


@dataclass(frozen=True)
class _Verdict:
    """What a representative the reference accepted gives the lines of its shape."""

    accepted: Accepted
    before: str
    """Its canonical JSON up to its deal number, between that and its game id, and after."""
    between: str
    after: str


def _remembered(source: str, numbered: Sequence[tuple[int, str]], reps: pl.DataFrame,
                validator: Validator, memo: Memo) -> dict[int, _Verdict]:
    """The representatives (``reps``: signature, shape, position) accepted, by position: the
    verdict ``memo`` holds on their (signature, shape), else the reference's (then kept)."""
    out: dict[int, _Verdict] = {}
    new: dict[int, tuple[int, str]] = {}
    for sig, shape, k in reps.iter_rows():
        if (sig, shape) not in memo.verdicts:
            new[k] = (sig, shape)
        elif (known := memo.verdicts[sig, shape]) is not None:
            out[k] = known
    judged = _judged(source, numbered, sorted(new), validator)
    memo.learnt({key: judged.get(k) for k, key in new.items()})
    return out | judged


def _judged(source: str, numbered: Sequence[tuple[int, str]], reps: list[int],
            validator: Validator) -> dict[int, _Verdict]:
    """The representatives the reference accepts (with no repair), by position."""
    out: dict[int, _Verdict] = {}
    for k in reps:
        raw = parse_line(source, *numbered[k])
        if not isinstance(raw, Raw):
            continue
        validator.position = k
        got = validator.validate(raw)
        if isinstance(got, Accepted) and not got.raw.repairs:
            verdict = _template(got)
            if verdict is not None:
                out[k] = verdict
    validator.position = NEVER
    return out


def _template(a: Accepted) -> _Verdict | None:
    """The representative's canonical JSON cut around its deal number and game id, when each
    stands there once as the line's own (else its shape is left to the reference)."""
    deal = a.record
    if not isinstance(deal, DealBase):
        return None
    number = f'"deal_no":{deal.deal_no}'
    game = id_field(deal.game_id)
    text = a.canonical
    if (text.count('"deal_no":') != 1 or text.count('"game_id":') != 1 or number not in text
            or game not in text or game != f'"game_id":"{deal.game_id}"'):
        return None
    head, tail = text.split(number)
    if game not in tail:
        return None
    between, after = tail.split(game)
    row = a.row or {}
    if row.get("game_id", deal.game_id) != deal.game_id or row.get(
            "deal_no", deal.deal_no) != deal.deal_no:
        return None
    return _Verdict(a, head + '"deal_no":', between + '"game_id":"', '"' + after)


def _broadcast(lines: pl.DataFrame, judged: dict[int, _Verdict]) -> Taken:
    """Every line of an accepted shape with its representative's verdict."""
    reps = pl.DataFrame([(k, j.before, j.between, j.after, *_rep_columns(j.accepted))
                         for k, j in judged.items()], orient="row", schema={
        "rep": pl.Int32(), "before": pl.String(), "between": pl.String(), "after": pl.String(),
        "dealer": pl.String(), "declarer": pl.String(), "contract": pl.String(),
        "has_cards": pl.Boolean(), "variant": pl.String()})
    deals = lines.join(reps, on="rep").with_columns(record=pl.concat_str(
        "before", pl.col("deal_no").cast(pl.String), "between", "game_id", "after"))
    keys = _deal_keys(deals["game_id"], deals["record"])
    taken = deals.with_columns(deal_key=keys).select(list(DEALS_COLUMNS))
    rows = {}
    for name in reps["variant"].unique().to_list():
        own = [(k, j.accepted) for k, j in judged.items() if j.accepted.variant.name == name]
        schema = own[0][1].variant.frame_schema
        frame = pl.DataFrame([a.row for _, a in own], schema=schema, orient="row").with_columns(
            rep=pl.Series([k for k, _ in own], dtype=pl.Int32))
        at = lines.join(frame.drop([c for c in ("game_id", "deal_no") if c in schema]), on="rep")
        rows[name] = at.select("idx", *schema).cast({c: t for c, t in schema.items()
                                                     if c in ("game_id", "deal_no")})
    return Taken(taken, rows)


def deal_columns(d: DealBase) -> tuple[object, ...]:
    """The ``deals`` columns read from a deal's record besides its game and number: dealer,
    declarer, contract, whether it has cards."""
    return (d.dealer, d.declarer, getattr(d, "contract", None),
            d.hands is not None or d.play is not None)


def _rep_columns(a: Accepted) -> tuple[object, ...]:
    d = a.record
    assert isinstance(d, DealBase)
    return (*deal_columns(d), a.variant.name)


def _deal_keys(game_ids: pl.Series, records: pl.Series) -> pl.Series:
    """``model.identity.deal_key`` of each line."""
    return pl.Series("deal_key", deal_keys(game_ids.to_list(), records.to_list()),
                     dtype=pl.String)
