"""The score-sheet path (``ingest/sheets.py``) accepts exactly what the per-record reference
accepts (``ingest/validate.py``), with the same canonical JSON, deal key, ``deals`` columns and
``deals_<variant>`` row, for every registered variant (records.md 1.2: the canonical record;
each variant's spec for its rules).

Two sources of deals: Greek Prefa score-sheet deals drawn by hypothesis (names with spaces,
punctuation, accents; wrong decisions, trick sums, sitting-out dealers, 10NT, nulls, flags, extra
and repeated keys, other key orders and separators; greek-prefa.md 6.1, 7, 14), and every
variant's simulated deals (``sim/``) with their cards stripped, broken by the changes of
``tests/ingest/test_columnar.py`` and repeated under other numbers and in other games with the
same players and rules, so that one line of a shape may be broken while the others are not.
"""

from __future__ import annotations

import copy
import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.samples.make_samples import sheet_deal
from ingest import sheets, validate
from ingest.jsonl import parse_line
from ingest.lines import Run, holding
from ingest.pipeline import ingest_paths
from ingest.source import Issue, Raw
from ingest.text import readable
from ingest.validate import Accepted, Validator
from model.base import DealBase
from model.greek.records import GreekGame
from model.identity import canonical_json
from model.variants import variant
from sim.drivers import SIMULATED
from tests.ingest.conftest import snapshot
from tests.ingest.fakes import scorer
from tests.ingest.taken import assert_same, taken_rows, verdict
from tests.ingest.test_columnar import _mutate as break_deal
from tests.ingest.test_columnar import _written, simulated

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
    if draw(st.integers(0, 15)) == 0:  # a repeated key: a parse issue (RFC 8259 4)
        text = text[:-1] + f', "dealer": {json.dumps(_name(draw, game.players))}}}'
    return text


def _known(game: GreekGame) -> Validator:
    """A validator that knows ``game`` (as if its line came before)."""
    validator = Validator(variants=variant)
    validator.games[game.game_id] = (game, GREEK, canonical_json(game))
    return validator


def reference(game: GreekGame, line: str) -> Accepted | Issue:
    return verdict(_known(game), "s", 1, line)


def accept(lines: list[str], validator: Validator) -> sheets.Taken:
    return sheets.accept("s", lines, list(enumerate(lines, start=1)), range(len(lines)),
                         validator)


@settings(deadline=None, max_examples=500)
@given(data=st.data())
def test_greek_sheets_accept_only_what_the_reference_accepts(data: st.DataObject) -> None:
    game = data.draw(games())
    line = data.draw(deal_lines(game))
    out = taken_rows(accept([line], _known(game)))
    ref = reference(game, line)
    if out:
        assert isinstance(ref, Accepted), f"taken, but the reference rejects it: {ref}"
        assert_same(out[0], ref)
    elif isinstance(ref, Accepted):  # taken by the reference only: a line without a shape
        assert "\\" in line or not re.search(sheets.DEAL_NO, line)


@settings(deadline=None, max_examples=150)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_usual_greek_deals_take_the_sheet_path(seed: int, data: st.DataObject) -> None:
    game = data.draw(games())
    rng = random.Random(seed)
    lines = [json.dumps(sheet_deal(game.game_id, list(game.players), n, rng), ensure_ascii=False)
             for n in range(1, 30)]
    taken = taken_rows(accept(lines, _known(game)))
    for i, line in enumerate(lines):
        ref = reference(game, line)
        assert (i in taken) == isinstance(ref, Accepted), line
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
        except UnicodeDecodeError:  # its text kept readable (ingest/text.py ``readable``)
            text = readable(blob.rstrip(b"\r"))[0]
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
    for chunk in chunks:  # a run holds lines that follow one another
        if isinstance(chunk, Run):
            assert [no for no, _ in chunk] == list(range(chunk.first, chunk.first + len(chunk)))
            assert [text for _, text in chunk] == chunk.texts
            assert chunk[-1] == (chunk.first + len(chunk) - 1, chunk.texts[-1])
            assert chunk[1:3] == list(chunk)[1:3]
    if not bad and "\r" not in "\n".join(lines) and all(
            line.strip() and not line[0].isspace() for line in lines):
        assert all(isinstance(chunk, Run) for chunk in chunks)


@settings(deadline=None)
@given(texts=st.lists(st.text(alphabet='"ab\n', max_size=8).map(lambda t: t.replace("\n", "")),
                      max_size=20), needle=st.sampled_from(['"a"', "a", "ab", '"', "b\"a"]))
def test_holding_finds_the_lines_a_line_by_line_search_finds(texts: list[str],
                                                           needle: str) -> None:
    """``ingest.lines.holding`` (one search of the joined texts) against ``in`` line by line."""
    (found,) = holding(texts, needle)
    assert found == [k for k, t in enumerate(texts) if needle in t]
    assert holding(texts, needle, "b") == [found, [k for k, t in enumerate(texts) if "b" in t]]


def test_batches_of_lines_that_follow_one_another_are_runs(tmp_path: Path) -> None:
    """A batch whose lines follow one another is a run (``ingest/lines.py``: the texts and the
    first line's number); a batch read with a blank or an unreadable line is a list of
    ``(line, text)`` and issues."""
    from ingest import jsonl

    lines = [json.dumps({"record": "deal", "n": i}) for i in range(99)] + ['{"name": "Γιώργος"}']
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines) + "\n")
    first, second = jsonl.READER.read_lines(path, 60, 1 << 20)
    assert isinstance(first, Run) and isinstance(second, Run)
    assert second.texts == lines[60:] and second.first == 61
    assert (second[0], second[-1]) == ((61, lines[60]), (100, '{"name": "Γιώργος"}'))
    path.write_text("\n".join([*lines[:70], "", *lines[70:]]) + "\n")
    first, second = jsonl.READER.read_lines(path, 60, 1 << 20)
    assert not isinstance(second, Run)
    assert second[9:11] == [(70, lines[69]), (72, lines[70])]


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


CARDS = ("hands", "talon", "discard", "play", "auction")
"""What a score sheet does not write: the cards and the auction."""
SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"


@cache
def sheet_deals(name: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Game lines of a few simulated games (each also under a second id: a game with the same
    players and rules) and their deals with the cards stripped (``sim/``)."""
    games, deals = simulated(name)
    twins = [json.dumps({**json.loads(g), "game_id": json.loads(g)["game_id"] + "~2"})
             for g in games]
    stripped = []
    for t in deals:
        d = json.loads(t)
        del d["record"]
        stripped.append({k: x for k, x in d.items() if k not in CARDS})
    return games + twins, stripped


def _knowing(games: list[str]) -> Validator:
    validator = Validator()
    for i, g in enumerate(games):
        raw = parse_line("s", i + 1, g)
        assert isinstance(raw, Raw) and isinstance(validator.validate(raw), Accepted)
    return validator


def _sheet_lines(rng: random.Random, games: list[str], deals: list[dict[str, Any]], n: int,
                 broken: float) -> list[str]:
    """``n`` deals of ``deals`` in any of the games, some broken and some written otherwise,
    each followed by up to two lines of its shape (another number, another game of the same
    players and rules)."""
    ids = [json.loads(g)["game_id"] for g in games]
    lines = []
    for _ in range(n):
        d = copy.deepcopy(rng.choice(deals))
        d["game_id"] = rng.choice([i for i in ids if i.removesuffix("~2") == d["game_id"]])
        if rng.random() < broken:
            break_deal(rng, rng.randrange(24), d, games)
        how = rng.choice([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7])
        lines.append(_written(rng, how, d))
        for _ in range(rng.choice([0, 1, 2])):  # numbers out of range, games unknown
            d = {**d, "deal_no": rng.choice([1, 2, 9, 30, 2**31 - 1, 2**31, 0])}
            if isinstance(d.get("game_id"), str):
                d["game_id"] = rng.choice([d["game_id"].removesuffix("~2"),
                                           d["game_id"].removesuffix("~2") + "~2", "nope"])
            lines.append(_written(rng, how, d))
    return lines


@pytest.mark.parametrize("name", SIMULATED)
@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32))
def test_sheets_accept_exactly_what_the_reference_accepts(name: str, seed: int) -> None:
    """For every variant: a batch of score-sheet deals, legal and broken (wrong names, trick
    counts, contracts, nulls, extra fields, numbers out of range; other key orders, spaces,
    escapes), shapes repeated under other numbers and games: a line the path takes is one the
    reference accepts, with the same content; a canonical line the reference accepts is
    taken."""
    rng = random.Random(seed)
    games, deals = sheet_deals(name)
    lines = _sheet_lines(rng, games, deals, rng.randrange(1, 12), broken=0.4)
    taken = taken_rows(accept(lines, _knowing(games)))
    for i, line in enumerate(lines):
        ref = verdict(_knowing(games), "s", i + 1, line)
        if i in taken:
            assert isinstance(ref, Accepted), (line, ref)
            assert_same(taken[i], ref)
        elif isinstance(ref, Accepted):
            assert line != '{"record":"deal",' + ref.canonical[1:]


@pytest.mark.parametrize("name", SIMULATED)
def test_legal_sheets_take_the_sheet_path(name: str) -> None:
    """Every stripped simulated deal the reference accepts, written canonically, is taken, and
    its shape is judged once for all its numbers and games."""
    games, deals = sheet_deals(name)
    lines = _sheet_lines(random.Random(3), games, deals, 40, broken=0.0)
    calls: list[int] = []
    validator = _knowing(games)
    real = validator.validate

    def counted(raw: Raw) -> Accepted | Issue:
        calls.append(raw.line)
        return real(raw)

    validator.validate = counted  # type: ignore[method-assign]
    taken = taken_rows(accept(lines, validator))
    wanted = []
    for i, line in enumerate(lines):
        ref = verdict(_knowing(games), "s", i + 1, line)
        if isinstance(ref, Accepted) and line == '{"record":"deal",' + ref.canonical[1:]:
            wanted.append(i)
    assert wanted and set(wanted) <= set(taken)
    assert len(calls) < len(lines)


@pytest.mark.parametrize("name", SIMULATED)
def test_a_deal_number_or_game_id_changes_nothing_the_variant_says_it_does_not_read(
        name: str) -> None:
    """``Variant.reads_deal_no``: where it is false, a deal's problems and row are the same
    under another number and in a copy of its game under another id (the claim the sheet path
    rests on), for the simulated deals with cards and without, legal and broken."""
    v = variant(name)
    games, deals = simulated(name)
    rng = random.Random(1)
    checked = 0
    for text in deals:
        d = json.loads(text)
        del d["record"]
        for fields in (d, {k: x for k, x in d.items() if k not in CARDS}):
            fields = copy.deepcopy(fields)
            if rng.random() < 0.5:
                break_deal(rng, rng.randrange(24), fields, games)
            g = next((json.loads(t) for t in games if json.loads(t)["game_id"] ==
                      fields.get("game_id")), None)
            if g is None:
                continue
            del g["record"]
            try:
                game, deal = v.game_model.model_validate(g), v.deal_model.model_validate(fields)
            except ValueError:
                continue
            if v.reads_deal_no(game):
                continue
            other = v.game_model.model_validate({**g, "game_id": "elsewhere"})
            for no in (1, 2, 13, 2**31 - 1):
                moved = v.deal_model.model_validate({**fields, "deal_no": no,
                                                     "game_id": "elsewhere"})
                assert [p.code for p in v.check_deal(other, moved)] == \
                    [p.code for p in v.check_deal(game, deal)]
                if not v.check_deal(game, deal):
                    row = v.deal_row(other, moved)
                    assert {**row, "game_id": game.game_id, "deal_no": deal.deal_no} == \
                        v.deal_row(game, deal)
                    assert (row["game_id"], row["deal_no"]) == ("elsewhere", no)
            checked += 1
    assert checked > 10


def test_a_rule_that_reads_the_deal_number_is_judged_per_number() -> None:
    """A Swabian session of ``session_deals`` deals ends after its last (swabian.md 7): deal 13
    of a 12-deal session is refused, while deal 1 of the same shape is taken."""
    lines = (SAMPLES / "swabian" / "league.jsonl").read_text(encoding="utf-8").splitlines()
    gid = "donau-club/2026-11-29/table-1"
    game_line = next(t for t in lines if gid in t and '"game"' in t)
    first = next(t for t in lines if gid in t and '"deal_no": 1,' in t)
    late = first.replace('"deal_no": 1,', '"deal_no": 13,')
    validator = _knowing([game_line])
    taken = taken_rows(accept([first, late], validator))
    assert isinstance(verdict(_knowing([game_line]), "s", 1, first), Accepted)
    assert not isinstance(verdict(_knowing([game_line]), "s", 2, late), Accepted)
    assert list(taken) == [0]


@pytest.mark.parametrize("name", SIMULATED)
def test_a_mixed_file_gives_the_same_tables_with_the_sheet_path_on_and_off(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Score-sheet deals, legal and broken, repeated (duplicates) and under a number another
    deal holds (conflicts), some before their game's line in the same batch, in one file, then
    an edited version of the file: the same tables (deals, deals_<variant>, quarantine, log,
    superseded) with the sheet path and without."""
    games, deals = sheet_deals(name)
    rng = random.Random(7)
    body = _sheet_lines(rng, games, deals, 40, broken=0.3)
    body += [rng.choice(body) for _ in range(10)]  # duplicates
    for t in rng.sample(body, 10):  # conflicts: another deal's content under its number
        other = rng.choice(body)
        if (m := re.search(sheets.DEAL_NO, t)) is not None:
            body.append(re.sub(sheets.DEAL_NO, lambda x: x.group(0).replace(
                x.group(2), m.group(2)), other, count=1))
    half = len(games) // 2
    body += games[half:]  # the twins' game lines, among their deals
    rng.shuffle(body)
    src = tmp_path / "mixed.jsonl"
    used: list[int] = []
    reports: dict[str, list[tuple[int, ...]]] = {}
    real = sheets.accept

    def spy(*args: Any) -> sheets.Taken:
        out = real(*args)
        used.append(len(out))
        return out

    edited = games[:half] + body[::2] + _sheet_lines(rng, games, deals, 10, broken=0.3)
    for db, accept in (("on", spy), ("off", lambda *args: sheets.Taken.empty())):
        monkeypatch.setattr(sheets, "accept", accept)
        src.write_text("\n".join(games[:half] + body) + "\n", encoding="utf-8")
        (first,) = ingest_paths([src], tmp_path / f"{db}.duckdb", batch=17)
        src.write_text("\n".join(edited) + "\n", encoding="utf-8")
        (second,) = ingest_paths([src], tmp_path / f"{db}.duckdb", batch=17)
        reports[db] = [(r.records, r.stored, r.duplicates, r.quarantined, r.dropped)
                       for r in (first, second)]
    assert sum(used) > 0
    assert reports["on"] == reports["off"]
    assert reports["on"][0][3] > 0 and reports["on"][0][2] > 0
    assert snapshot(tmp_path / "on.duckdb") == snapshot(tmp_path / "off.duckdb")


@pytest.mark.parametrize("name", SIMULATED)
def test_stored_deals_read_once_per_shape_are_the_deals_read_one_by_one(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate.read_deals`` (the deals ``Variant.check_game`` reads, russian.md 7): copies of
    a deal read once under another number and game are the deals read from each record, also
    with a cache too small for the file."""
    v = variant(name)
    games, deals = sheet_deals(name)
    validator = _knowing(games)
    lines = _sheet_lines(random.Random(5), games, deals, 40, broken=0.0)
    taken = [a for i, t in enumerate(lines)
             if isinstance(a := verdict(validator, "s", i + 1, t), Accepted)]
    by_game: dict[str, list[Accepted]] = {}
    for a in taken:
        by_game.setdefault(a.record.game_id, []).append(a)  # type: ignore[union-attr]
    for most in (validate.READ_KEPT, 3):
        monkeypatch.setattr(validate, "READ_KEPT", most)
        read: dict[tuple[str, str], DealBase] = {}
        for gid, accepted in by_game.items():
            game = validator.games[gid][0]
            records = [a.canonical for a in accepted]
            want = [(v.check_game_reads or v.deal_model).model_validate_json(r)
                    for r in records]
            got = validate.read_deals(v, game, records, read)
            assert [d.model_dump() for d in got] == [d.model_dump() for d in want]
        assert len(read) <= min(most, len(taken) - 1)
