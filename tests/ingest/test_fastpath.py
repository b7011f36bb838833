"""The columnar fast path accepts only what the pydantic reference accepts, with the same stored
content (ingest/fastpath.py; records.md 1.2; greek-prefa.md 6.1, 7, 14 for the rules it checks).

Hypothesis draws near-valid score-sheet deals (names with spaces, punctuation, accents; wrong
decisions, trick sums, sitting-out dealers, 10NT, nulls, flags, extra and repeated keys, other
key orders and separators) and holds: a line the fast path accepts is accepted by the reference
with the same canonical JSON, deal key, ``deals`` columns and ``deals_greek`` row. A second
property holds that well-formed deals in the usual key order are all taken by the fast path.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.samples.make_samples import sheet_deal
from ingest import fastpath, fastpath_columns
from ingest.jsonl import parse_line
from ingest.lines import PlainLines
from ingest.source import Issue, Raw
from ingest.validate import Accepted, Validator
from model.base import DealBase
from model.greek.records import GreekGame
from model.variants import variant
from tests.ingest.fakes import scorer

GREEK = variant("greek-prefa")
NAMES = ["Anna", "Boris", "Chris", "Dora", "Anna B", "Anna!", "Ánna", "Zoë", "O'Neil", "x", "A  B"]
ODD = [" Anna", "Anna ", "anna", "Nobody", "", 'A"B', "Tab\t", "back\\slash"]
DECISIONS = ["play", "play", "pass", "pass", "invite", "alone", "whist", "Play"]
CONTRACTS = ["6S", "6C", "7D", "8H", "9NT", "10H", "10NT", "6X", " 6S", "11S", "6s"]
ORDER = ["record", "game_id", "deal_no", "dealer", "declarer", "contract", "defence", "tricks"]


@st.composite
def games(draw: st.DrawFn) -> GreekGame:
    n = draw(st.sampled_from([3, 3, 4]))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True))
    rules: dict[str, Any] = {"four_players": n == 4}
    if draw(st.booleans()):
        rules["ten_nt"] = draw(st.sampled_from(["forbidden", "value_11"]))
    if draw(st.integers(0, 5)) == 0:
        rules["all_pass"] = "play_low"
    return GreekGame.model_validate({"game_id": draw(st.sampled_from(["g/1", "g 2", "ü/3"])),
                                     "variant": "greek-prefa", "players": players,
                                     "rules": rules})


def _name(draw: st.DrawFn, players: tuple[str, ...]) -> str:
    return draw(st.sampled_from(list(players))) if draw(st.integers(0, 9)) else \
        draw(st.sampled_from(ODD + NAMES))


@st.composite
def valid_deal(draw: st.DrawFn, game: GreekGame) -> dict[str, Any]:
    """A deal the rules accept (greek-prefa.md 3, 6.1, 7): seats from the dealer, defenders after
    the declarer, a legal pair of decisions, tricks of exactly the players in the play."""
    p = game.players
    n = len(p)
    d = draw(st.integers(0, n - 1))
    active = [p[(d + i) % n] for i in (1, 2, 3)]
    deal: dict[str, Any] = {"record": "deal", "game_id": game.game_id,
                            "deal_no": draw(st.integers(1, 60)), "dealer": p[d]}
    if draw(st.integers(0, 7)) == 0:
        return deal
    k = draw(st.integers(0, 2))
    declarer, r, l_ = active[k], active[(k + 1) % 3], active[(k + 2) % 3]
    level = draw(st.integers(6, 10))
    deal |= {"declarer": declarer,
             "contract": f"{level}{draw(st.sampled_from(['S', 'C', 'D', 'H', 'NT']))}"}
    mode = draw(st.sampled_from(["both", "both", "pass", "invite", "alone"]))
    td = draw(st.integers(0, 10))
    if mode == "pass":
        deal["defence"] = dict(draw(st.permutations([(r, "pass"), (l_, "pass")])))
        return deal
    whister, passer = draw(st.permutations([r, l_]))
    if mode == "alone":
        deal["defence"] = dict(draw(st.permutations([(whister, "alone"), (passer, "pass")])))
        deal["tricks"] = dict(draw(st.permutations([(declarer, td), (whister, 10 - td)])))
        return deal
    deal["defence"] = ({r: "play", l_: "play"} if mode == "both"
                       else dict(draw(st.permutations([(whister, "invite"), (passer, "pass")]))))
    tr = draw(st.integers(0, 10 - td))
    deal["tricks"] = dict(draw(st.permutations(
        [(declarer, td), (r, tr), (l_, 10 - td - tr)])))
    return deal


def _mutate(draw: st.DrawFn, game: GreekGame, d: dict[str, Any]) -> None:
    """One small change that may or may not break the deal."""
    p = list(game.players)
    kind = draw(st.integers(0, 13))
    if kind == 0:
        d["dealer"] = _name(draw, game.players)
    elif kind == 1:
        d["declarer"] = draw(st.sampled_from([*p, d["dealer"], *ODD]))
    elif kind == 2 and d.get("defence"):
        who = draw(st.sampled_from(sorted(d["defence"])))
        d["defence"][who] = draw(st.sampled_from(DECISIONS))
    elif kind == 3 and d.get("defence"):
        who = draw(st.sampled_from(sorted(d["defence"])))
        d["defence"][draw(st.sampled_from(p + ODD))] = d["defence"].pop(who)
    elif kind == 4 and d.get("tricks"):
        who = draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][who] += draw(st.sampled_from([-1, 1, 2]))
    elif kind == 5 and d.get("tricks"):
        who = draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][draw(st.sampled_from(p + ODD))] = d["tricks"].pop(who)
    elif kind == 6:
        d.pop(draw(st.sampled_from(["tricks", "defence", "contract", "declarer"])), None)
    elif kind == 7:
        d["contract"] = draw(st.sampled_from(CONTRACTS))
    elif kind == 8:
        d["deal_no"] = draw(st.sampled_from([0, -1, 10**9, 10**12, "3"]))
    elif kind == 9:
        d[draw(st.sampled_from(["declarer", "contract", "defence", "tricks", "four_aces"]))] = None
    elif kind == 10:
        d[draw(st.sampled_from(["four_aces", "preliminary", "conceded"]))] = draw(st.booleans())
    elif kind == 11:
        d[draw(st.sampled_from(["note", "hands", "variant"]))] = "x"
    elif kind == 12:
        d["tricks"] = {}
    else:
        d["game_id"] = draw(st.sampled_from(["g/1", "g 2", "other"]))


@st.composite
def deal_lines(draw: st.DrawFn, game: GreekGame) -> str:
    d = draw(valid_deal(game))
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
        _mutate(draw, game, d)
    keys = list(d)
    if draw(st.integers(0, 4)) == 0:
        keys = draw(st.permutations(keys))
    else:
        keys.sort(key=lambda k: ORDER.index(k) if k in ORDER else 99)
    seps = draw(st.sampled_from([(", ", ": "), (", ", ": "), (",", ":"), (", ", ":"),
                                 (" ,", " : ")]))
    ascii_only = draw(st.integers(0, 3)) == 0
    text = json.dumps({k: d[k] for k in keys}, separators=seps, ensure_ascii=ascii_only)
    if draw(st.integers(0, 15)) == 0:  # a repeated key: the last one wins in json.loads
        text = text[:-1] + f', "dealer": {json.dumps(_name(draw, game.players))}}}'
    return text


def frame_of(game: GreekGame) -> pl.DataFrame:
    row = fastpath.game_row(game)
    return pl.DataFrame([row] if row else [], schema=fastpath.GAMES_SCHEMA, orient="row")


def reference(game: GreekGame, line: str) -> Accepted | Issue:
    validator = Validator(variants=variant)
    validator.games[game.game_id] = (game, GREEK, "")
    raw = parse_line("s", 1, line)
    return raw if isinstance(raw, Issue) else validator.validate(raw)


def assert_same(fast: dict[str, Any], ref: Accepted) -> None:
    deal = ref.record
    assert isinstance(deal, DealBase)
    assert fast["record"] == ref.canonical
    assert fast["deal_key"] == ref.key
    assert (fast["game_id"], fast["deal_no"], fast["dealer"], fast["declarer"],
            fast["contract"]) == (deal.game_id, deal.deal_no, deal.dealer,
                                  deal.declarer, getattr(deal, "contract", None))
    row = GREEK.deal_row(ref.game, deal)
    got = fastpath.greek_rows(pl.DataFrame([fast])).row(0, named=True)
    assert got == row


@settings(deadline=None, max_examples=500)
@given(data=st.data())
def test_fast_accepts_only_what_the_reference_accepts(data: st.DataObject) -> None:
    game = data.draw(games())
    line = data.draw(deal_lines(game))
    out = fastpath.accept([line], frame_of(game))
    ref = reference(game, line)
    if out.height:
        assert isinstance(ref, Accepted), f"fast path accepted a line the reference rejects: {ref}"
        assert_same(out.row(0, named=True), ref)


@settings(deadline=None, max_examples=150)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_usual_deals_take_the_fast_path(seed: int, data: st.DataObject) -> None:
    game = data.draw(games())
    if game.rules.all_pass != "redeal":
        return
    rng = random.Random(seed)
    lines = [json.dumps(sheet_deal(game.game_id, list(game.players), n, rng), ensure_ascii=False)
             for n in range(1, 30)]
    out = fastpath.accept(lines, frame_of(game))
    taken = dict(zip(out["idx"].to_list(), out.iter_rows(named=True), strict=True))
    for i, line in enumerate(lines):
        ref = reference(game, line)
        if isinstance(ref, Accepted) and "10NT" not in line:
            assert i in taken, f"well-formed deal left to the slow path: {line}"
        if i in taken:
            assert isinstance(ref, Accepted)
            assert_same(taken[i], ref)


def test_raw_repr() -> None:
    """The reference helper really parses: a broken line is an issue, a good one a Raw."""
    assert isinstance(parse_line("s", 1, "{"), Issue)
    assert isinstance(parse_line("s", 1, '{"record": "deal"}'), Raw)


def _deal_counts(db: Path) -> tuple[int, int, int, int, int]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT (game_id, deal_no)), count(DISTINCT deal_key), "
            "(SELECT count(*) FROM deals_greek), "
            "(SELECT count(DISTINCT (game_id, deal_no)) FROM deals_greek) FROM deals"
        ).fetchall()[0]
    finally:
        conn.close()
    return row  # type: ignore[return-value]


@pytest.mark.parametrize("spill", [False, True], ids=["held", "spilled"])
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "reference"])
def test_pipeline_keeps_deals_unique_without_key_constraints(
    tmp_path: Path, fast: bool, spill: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``deals`` and ``deals_greek`` declare no key (model/tables.py): the pipeline's own look-up
    keeps ``(game_id, deal_no)`` and ``deal_key`` unique (records.md 2), with repeats and
    conflicting copies of deals straddling batch ends, and across two ingests of edited files,
    whether the staged rows (ingest/store.py ``Staging``) are all held in memory or, past a
    small ``HOLD_BYTES``, partly spilled to Parquet; the staging folder next to the database
    exists only when rows spill and is gone afterwards, and so is one a killed process had left
    there."""
    from data.samples.make_samples import league_lines
    from ingest import pipeline, store
    from ingest.pipeline import ingest_paths

    if spill:  # the first two or three batches held, the others spilled
        monkeypatch.setattr(store, "HOLD_BYTES", 20_000)

    def unscored(name: str) -> object:
        raise KeyError(name)

    scratch = tmp_path / "scratch"
    stale = scratch / ".u.duckdb.stage-killed"
    stale.mkdir(parents=True)
    (stale / "deals-000000.parquet").write_bytes(b"left by a killed process")
    monkeypatch.setattr(pipeline, "PROGRESS_EVERY", 10)  # the reference path reports mid-file
    rng = random.Random(11)
    lines = list(league_lines(4, 30, cards=False, prefix="uniq"))
    deals = [t for t in lines if '"deal"' in t]
    repeats = [rng.choice(deals) for _ in range(40)]
    conflicts = [t.replace('"deal_no": ', '"deal_no": 1', 1) for t in repeats[:5]]
    conflicts += [t.replace('"dealer": "Anna"', '"dealer": "Boris"', 1) for t in repeats[5:15]]
    first = tmp_path / "first.jsonl"
    first.write_text("\n".join(lines + repeats + conflicts) + "\n")
    second = tmp_path / "second.jsonl"
    second.write_text("\n".join(lines[:60] + conflicts + repeats) + "\n")
    db = scratch / "u.duckdb"
    folders: list[int] = []  # staging folders seen while a file is read
    reports = ingest_paths([first, second], db, score=scorer(unscored),  # type: ignore[arg-type]
                           batch=23, fast=fast,
                           progress=lambda p: folders.append(len(list(scratch.glob(".u.*")))))
    games = sum(1 for t in lines if '"game"' in t)
    stored = sum(r.stored for r in reports) - games
    n, ids, keys, greek, greek_ids = _deal_counts(db)
    assert n == ids == keys == greek == greek_ids == stored
    assert reports[0].duplicates >= 40 - 15 and reports[1].stored == 0
    assert all(r.records == r.stored + r.duplicates + r.quarantined for r in reports)
    assert max(folders) == int(spill) and list(scratch.glob(".u.*")) == []


def test_staging_gives_the_memory_limit_back_after_a_failed_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ingest/store.py ``Staging``: the lowered limit and thread count of a load are restored
    after a success, and after a load that fails inside the file's transaction once that has
    been rolled back (every load lowers them here, however small)."""
    from ingest import store

    monkeypatch.setattr(store, "LOAD_SETTINGS_FROM", 0)
    lowered: list[object] = []
    lower = store.lower
    monkeypatch.setattr(store, "lower",
                        lambda conn, saved: (lowered.append(1), lower(conn, saved))[1])

    conn = store.connect(tmp_path / "s.duckdb")
    conn.execute("SET memory_limit = '1GiB'")
    conn.execute("SET threads = 3")
    settings = "SELECT current_setting('memory_limit'), current_setting('threads')"
    limit = conn.execute(settings).fetchall()
    good = pl.DataFrame({"game_id": ["g"], "deal_no": [1], "dealer": [0], "mode": ["none"],
                         "four_aces": [False], "preliminary": [False]})
    for rows, fails in ((good, False), (good.with_columns(dealer=None), True)):
        staging = store.Staging()
        staging.add("deals_greek", rows)
        conn.execute("BEGIN")
        try:
            staging.load(conn)
            conn.execute("COMMIT")
        except duckdb.ConstraintException:
            assert fails
            conn.execute("ROLLBACK")
        finally:
            staging.close(conn)
        assert conn.execute(settings).fetchall() == limit
    assert conn.execute("SELECT count(*) FROM deals_greek").fetchall() == [(1,)]
    assert len(lowered) == 2
    conn.close()


def _lines_one_by_one(data: bytes, size: int, max_chars: int | None) -> list[list[object]]:
    """The chunks ``JsonlReader.read_lines`` must give (records.md 1: one record per line, blank
    lines skipped, a line end ``\\r\\n`` allowed), written out line by line."""
    chunks: list[list[object]] = []
    chunk: list[object] = []
    chars = 0
    for no, blob in enumerate(data.split(b"\n"), start=1):
        if no == len(data.split(b"\n")) and not blob:
            break
        try:
            text = blob.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            text = blob.decode("utf-8", errors="replace").rstrip("\r")
            chunk.append(("issue", no, text))
            chars += len(text)
        else:
            if not text.strip():
                continue
            chunk.append((no, text))
            chars += len(text)
        if len(chunk) >= size or (max_chars is not None and chars >= max_chars):
            chunks.append(chunk)
            chunk, chars = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks


LINE_PIECES = ['{"record": "deal"}', '{"a": "é"}', "x" * 40, "", "  ", "\t", '{"b": 2}\r',
               "\u3000", "a\u2028b", "\x1f"]


@settings(deadline=None, max_examples=150)
@given(lines=st.lists(st.sampled_from(LINE_PIECES), max_size=60), end=st.booleans(),
       bad=st.booleans(), block=st.sampled_from([8, 33, 1 << 22]),
       size=st.integers(1, 12), max_chars=st.one_of(st.none(), st.integers(0, 200)))
def test_read_lines_chunks_as_line_by_line(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], end: bool, bad: bool,
    block: int, size: int, max_chars: int | None,
) -> None:
    """A block without blank lines is cut into chunks by slices (ingest/jsonl.py); the chunks,
    line numbers and not-UTF-8 issues are those of reading the file line by line."""
    from ingest import jsonl

    data = "\n".join(lines).encode() + (b"\n" if end else b"")
    if bad:
        data = data.replace("é".encode(), b"\xc3", 1)
    path = tmp_path_factory.mktemp("lines") / "x.jsonl"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsonl, "BLOCK", block)
        chunks = list(jsonl.READER.read_lines(path, size, max_chars))
    got = [[(("issue", it.line, it.raw) if isinstance(it, Issue) else it) for it in chunk]
           for chunk in chunks]
    assert got == _lines_one_by_one(data, size, max_chars)
    for chunk in chunks:  # a batch kept as bytes holds exactly its lines
        if isinstance(chunk, PlainLines):
            texts = [text for _, text in chunk]
            assert bytes(chunk.blob) == "\n".join(texts).encode("ascii")
            assert chunk.texts() == texts
            assert chunk.chars == sum(map(len, texts))
            for needle in ("deal", '"a"', "x", "xx", '"b"', "{", "}", ""):
                found = fastpath_columns.lines_holding(chunk.spans(), needle.encode())
                assert found.tolist() == [needle in t for t in texts]
                assert chunk.holds(needle.encode()) == any(needle in t for t in texts)
    if data.isascii() and b"\r" not in data and all(
            line.startswith(b"{") for line in data.removesuffix(b"\n").split(b"\n")):
        assert all(isinstance(chunk, PlainLines) for chunk in chunks)


def test_batches_of_plain_lines_are_the_bytes_read(tmp_path: Path) -> None:
    """A batch of plain ASCII lines keeps the bytes read, without a copy when they were read in
    one piece (``ingest/lines.py``: the card kernel reads them there, a line is decoded only when
    asked for); batches read with a line that is not ASCII are decoded (their characters are
    not their bytes)."""
    from ingest import jsonl

    lines = [json.dumps({"record": "deal", "n": i}) for i in range(100)]
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines) + "\n")
    first, second = jsonl.READER.read_lines(path, 60, 1 << 20)
    assert isinstance(first, PlainLines) and isinstance(second, PlainLines)
    assert first.data is second.data  # one read
    assert bytes(second.blob) == "\n".join(lines[60:]).encode()
    assert (second[0], second[-1]) == ((61, lines[60]), (100, lines[99]))
    path.write_text("\n".join([*lines[:99], '{"name": "Γιώργος"}']) + "\n")
    first, second = jsonl.READER.read_lines(path, 60, 1 << 20)
    assert not isinstance(first, PlainLines) and not isinstance(second, PlainLines)
    assert second[-1] == (100, '{"name": "Γιώργος"}')


def test_stored_games_answers_like_stored_game(tmp_path: Path) -> None:
    """One look-up for a chunk's game lines gives what one query per game gives."""
    from ingest import store
    from ingest.pipeline import ingest_paths

    path = tmp_path / "g.jsonl"
    game = {"record": "game", "game_id": "g1", "variant": "greek-prefa",
            "players": ["Anna", "Boris", "Chris"]}
    path.write_text(json.dumps(game) + "\n")
    (report,) = ingest_paths([path], tmp_path / "t.duckdb")
    assert report.stored == 1
    conn = store.connect(tmp_path / "t.duckdb")
    try:
        found = store.stored_games(conn, ["g1", "nope", "g1"])
        assert found == {"g1": store.stored_game(conn, "g1"), "nope": None}
        assert found["g1"] is not None and found["g1"][0] == "greek-prefa"
        assert store.stored_games(conn, []) == {}
    finally:
        conn.close()
