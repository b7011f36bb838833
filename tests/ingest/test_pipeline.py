"""The ingest pipeline end to end on the sample league (records.md 2: every input record ends
exactly once as stored, duplicate or quarantined; identical re-ingest changes nothing)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

import scoring.store as scoring_store
from ingest import columnar, pipeline, sheets
from ingest.pipeline import FileReport, StrictError, ingest_paths
from scoring.checks import run_checks
from tests.conftest import DATA
from tests.ingest.conftest import GREEK_SAMPLES, SAMPLES
from tests.ingest.conftest import snapshot as snapshot_of
from tests.ingest.fakes import FakeSettlement, fake_scorer, scorer

TABLES = ("games", "deals", "deals_greek", "quarantine", "ingest_log", "settlements",
          "transfers", "standings")


def run(paths: list[Path | str], db: Path, fake: FakeSettlement, **kw: object
        ) -> list[FileReport]:
    return ingest_paths(paths, db, score=fake_scorer(fake), **kw)  # type: ignore[arg-type]


def snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    return snapshot_of(db, TABLES)


def count(db: Path, sql: str) -> int:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return int(conn.execute(sql).fetchall()[0][0])
    finally:
        conn.close()


def lines(path: Path) -> int:
    return sum(1 for t in path.read_text().splitlines() if t.strip())


def test_a_sidecar_put_beside_its_sheet_later_is_read(tmp_path: Path, db: Path,
                                                      fake: FakeSettlement) -> None:
    """docs/ingest.md, score sheets: a sheet without its ``<sheet>.game.json`` has its deals
    quarantined with the advice to put the sidecar beside it; once a user did, the sheet was
    "skipped (unchanged)" for good (its version was its own bytes alone). The two files are
    the version now: the sheet is read again, its deals stored, its old issues cleared."""
    sheet = tmp_path / "club-sheet-2026-11-29.csv"
    shutil.copy(SAMPLES / sheet.name, sheet)
    (alone,) = run([sheet], db, fake)
    assert (alone.stored, alone.quarantined) == (0, alone.records) and alone.records > 0
    shutil.copy(SAMPLES / "club-sheet-2026-11-29.game.json", tmp_path)
    (paired,) = run([sheet], db, fake)
    assert paired.skipped is None and (paired.stored, paired.quarantined) == (5, 0)
    assert count(db, "SELECT count(*) FROM quarantine") == 0
    (again,) = run([sheet], db, fake)
    assert again.skipped == "unchanged"
    mended = json.loads((tmp_path / "club-sheet-2026-11-29.game.json").read_text())
    mended["league"] = "mended"  # the sidecar changed: a new version of the sheet
    (tmp_path / "club-sheet-2026-11-29.game.json").write_text(json.dumps(mended))
    (changed,) = run([sheet], db, fake)
    assert changed.skipped is None and changed.records == 5


def test_samples_every_record_once(db: Path, fake: FakeSettlement) -> None:
    reports = run(GREEK_SAMPLES, db, fake)
    by_name = {Path(r.source).name: r for r in reports}
    league = by_name["league.jsonl"]
    assert league.records == lines(SAMPLES / "league.jsonl")
    assert (league.stored, league.duplicates, league.quarantined) == (league.records, 0, 0)
    bad = by_name["bad-lines.jsonl"]
    expected = json.loads((SAMPLES / "bad-lines.expected.json").read_text())
    assert bad.quarantined == len(expected) and bad.stored == 2
    for r in reports:
        assert r.records == r.stored + r.duplicates + r.quarantined
        assert r.score_error is None
    # the CSV sheet's 8 rows + its game line; the sidecar sheet's 4 rows + the sidecar game
    assert by_name["club-sheet-2026-11-22.csv"].stored == 9
    assert by_name["club-sheet-2026-11-29.csv"].stored == 5
    assert "club-sheet-2026-11-29.game.json" not in by_name
    stored_deals = sum(r.stored for r in reports) - count(db, "SELECT count(*) FROM games")
    assert count(db, "SELECT count(*) FROM deals") == stored_deals
    assert count(db, "SELECT count(*) FROM deals_greek") == stored_deals
    assert count(db, "SELECT count(*) FROM quarantine") == bad.quarantined
    assert count(db, "SELECT count(*) FROM rescore_pending") == 0
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert [f.check for f in run_checks(conn) if not f.finding] == []
    finally:
        conn.close()


def test_bad_lines_exact_codes_and_lines(db: Path, fake: FakeSettlement) -> None:
    """data/samples/bad-lines.jsonl: one line per problem kind (model/problems.py Code)."""
    run([SAMPLES / "bad-lines.jsonl"], db, fake)
    expected = json.loads((SAMPLES / "bad-lines.expected.json").read_text())
    conn = duckdb.connect(str(db), read_only=True)
    try:
        got = conn.execute("SELECT line, code, raw FROM quarantine ORDER BY line").fetchall()
    finally:
        conn.close()
    assert [{"line": n, "code": c} for n, c, _ in got] == expected
    raw_lines = (SAMPLES / "bad-lines.jsonl").read_text().splitlines()
    assert all(raw == raw_lines[n - 1] for n, _, raw in got)


def test_reingest_is_idempotent(db: Path, fake: FakeSettlement, tmp_path: Path) -> None:
    run(GREEK_SAMPLES, db, fake)
    before = snapshot(db)
    again = run(GREEK_SAMPLES, db, fake)
    assert all(r.skipped == "unchanged" and r.records == 0 for r in again)
    assert snapshot(db) == before
    # The same records in another file (another sha256): all duplicates, nothing new.
    copy = tmp_path / "copy.jsonl"
    shutil.copy(SAMPLES / "league.jsonl", copy)
    (r,) = run([copy], db, fake)
    assert (r.stored, r.duplicates, r.quarantined) == (0, r.records, 0)
    after = snapshot(db)
    assert {t: after[t] for t in TABLES if t != "ingest_log"} == \
        {t: before[t] for t in TABLES if t != "ingest_log"}


def test_each_file_is_logged_with_its_own_sha256(db: Path, fake: FakeSettlement,
                                                  tmp_path: Path) -> None:
    """records.md 2 ``ingest_log``: every file with its hash. The hashes are computed one file
    ahead, in a thread (``ingest_paths``); each still belongs to its own file, and a folder's
    file without a reader is neither hashed nor logged."""
    (tmp_path / "notes.txt").write_text("not a hand history\n")
    reports = run([*GREEK_SAMPLES, tmp_path], db, fake)
    logged = [r for r in reports if r.sha256 is not None]
    assert len(logged) == len(GREEK_SAMPLES)
    for r in logged:  # a sheet's sidecar is part of its version (docs/ingest.md)
        sidecar = Path(r.source).with_name(Path(r.source).stem + ".game.json")
        content = Path(r.source).read_bytes() + (
            b"\0sidecar\0" + sidecar.read_bytes() if sidecar.is_file() else b"")
        assert r.sha256 == hashlib.sha256(content).hexdigest()
    conn = duckdb.connect(str(db), read_only=True)
    try:
        rows = dict(conn.execute("SELECT source, sha256 FROM ingest_log").fetchall())
    finally:
        conn.close()
    assert rows == {r.source: r.sha256 for r in logged}


def test_reordered_keys_are_duplicates_changed_content_conflicts(
    db: Path, fake: FakeSettlement, tmp_path: Path
) -> None:
    """A deal's key is derived from its content (STYLE.md 6): key order, spacing and explicit
    defaults do not change it; other content under the same deal number is a DEAL_CONFLICT."""
    game = {"record": "game", "game_id": "g", "variant": "greek-prefa", "players": ["A", "B", "C"]}
    deal = {"record": "deal", "game_id": "g", "deal_no": 1, "dealer": "A", "declarer": "B",
            "contract": "6S", "defence": {"C": "play", "A": "play"},
            "tricks": {"B": 6, "C": 2, "A": 2}}
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps(game) + "\n" + json.dumps(deal) + "\n")
    run([first], db, fake)
    same = dict(reversed(list({**deal, "four_aces": False, "dealer": " A "}.items())))
    other = {**deal, "tricks": {"B": 7, "C": 2, "A": 1}}
    second = tmp_path / "second.jsonl"
    second.write_text("\n".join(json.dumps(x) for x in (game, same, other)) + "\n")
    (r,) = run([second], db, fake)
    assert (r.records, r.stored, r.duplicates, r.quarantined) == (3, 0, 2, 1)
    assert [(i.line, str(i.code), i.record_key, i.raw) for i in r.issues] == \
        [(3, "deal-conflict", "g#1", json.dumps(other))]


@pytest.mark.parametrize("cards", [False, True])
def test_a_conflict_found_by_a_fast_path_quarantines_the_line_as_read(
    db: Path, fake: FakeSettlement, tmp_path: Path, cards: bool
) -> None:
    """Other content under a stored deal's number is a DEAL_CONFLICT (STYLE.md 6) also when a
    fast path took the line (score sheet, or cards with the columnar path): the quarantine row
    keeps the line as it was read."""
    from model.identity import canonical
    from tests.ingest.test_columnar import simulated

    games, deals = simulated("greek-prefa")
    head, game = games[0], json.loads(games[0])
    if cards:
        one, two = (json.loads(line) for line in deals[:2])
    else:
        one = {"record": "deal", "game_id": game["game_id"], "deal_no": 1,
               "dealer": game["players"][0]}
        two = {**one, "dealer": game["players"][1]}

    def written(d: dict[str, object]) -> str:  # canonical, as the fast paths take it
        return '{"record":"deal",' + canonical({k: v for k, v in d.items() if k != "record"})[1:]

    other = written({**two, "deal_no": one["deal_no"]})
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(head + "\n" + written(one) + "\n")
    second.write_text(head + "\n" + other + "\n")
    run([first], db, fake)
    (r,) = run([second], db, fake)
    assert (r.records, r.stored, r.duplicates, r.quarantined) == (2, 0, 1, 1)
    assert [(i.line, str(i.code), i.raw) for i in r.issues] == [(2, "deal-conflict", other)]


def test_quarantine_of_a_source_is_replaced(db: Path, fake: FakeSettlement, tmp_path: Path
                                            ) -> None:
    p = tmp_path / "q.jsonl"
    p.write_text("oops\n{\"record\": \"x\"}\n")
    run([p], db, fake)
    assert count(db, "SELECT count(*) FROM quarantine") == 2
    p.write_text("{\"record\": \"x\"}\n")
    run([p], db, fake)
    assert count(db, "SELECT count(*) FROM quarantine") == 1
    assert count(db, "SELECT count(*) FROM ingest_log") == 2


def test_strict_stops_at_first_issue_and_rolls_back_that_file(
    db: Path, fake: FakeSettlement
) -> None:
    good, bad = SAMPLES / "league.jsonl", SAMPLES / "bad-lines.jsonl"
    with pytest.raises(StrictError) as info:
        run([good, bad], db, fake, strict=True)
    assert info.value.issue.line == 3 and "bad-lines.jsonl:3" in str(info.value)
    assert count(db, "SELECT count(*) FROM ingest_log") == 1  # the good file stays stored
    assert count(db, "SELECT count(*) FROM games WHERE source LIKE '%bad-lines%'") == 0
    assert count(db, "SELECT count(*) FROM quarantine") == 0


def test_unknown_game_sees_earlier_ingest(db: Path, fake: FakeSettlement, tmp_path: Path
                                          ) -> None:
    """records.md 1: a game line comes before its deals, in the same file or an earlier ingest."""
    game = {"record": "game", "game_id": "later", "variant": "greek", "players": ["A", "B", "C"]}
    deal = {"record": "deal", "game_id": "later", "deal_no": 1, "dealer": "A"}
    d = tmp_path / "deal.jsonl"
    d.write_text(json.dumps(deal) + "\n")
    (r,) = run([d], db, fake)
    assert [str(i.code) for i in r.issues] == ["unknown-game"]
    g = tmp_path / "game.jsonl"
    g.write_text(json.dumps(game) + "\n")
    d.write_text(json.dumps(deal) + "\n\n")  # a changed file is read again
    reports = run([g, d], db, fake)
    assert [(x.stored, x.quarantined) for x in reports] == [(1, 0), (1, 0)]
    assert count(db, "SELECT count(*) FROM quarantine") == 0
    # the alias 'greek' is stored under the variant's canonical name (records.md 1.1)
    assert count(db, "SELECT count(*) FROM games WHERE variant = 'greek-prefa'") == 1


def test_rescore_touches_only_the_files_games(db: Path, fake: FakeSettlement) -> None:
    run([SAMPLES / "league.jsonl"], db, fake)
    run([SAMPLES / "club-sheet-2026-11-22.csv"], db, fake)
    assert fake.calls[-1] == ["club-7/2026-11-22/table-1"]
    assert count(db, "SELECT count(DISTINCT game_id) FROM standings") == 5


def test_deals_after_game_end_are_a_finding(db: Path, fake: FakeSettlement, tmp_path: Path
                                            ) -> None:
    """The fake ends a game after rules.initial_kassa deals (tests/ingest/fakes.py)."""
    game = {"record": "game", "game_id": "short", "variant": "greek-prefa",
            "players": ["A", "B", "C"], "rules": {"initial_kassa": 1}}
    deals = [{"record": "deal", "game_id": "short", "deal_no": n, "dealer": "ABC"[n - 1]}
             for n in (1, 2)]
    p = tmp_path / "short.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in (game, *deals)) + "\n")
    run([p], db, fake)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        failures = run_checks(conn)
    finally:
        conn.close()
    assert [(f.check, f.finding, f.examples[0][:2]) for f in failures] == \
        [("deals_after_game_end", True, ("short", 2))]


def test_failing_settlement_keeps_data_and_games_pending(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A settlement that fails on every game: the search for the failing games (scoring/store.py
    ``score_pending``) stops after ``SETTLE_TRIES`` settlements plus the halves still queued."""
    tries = []

    def broken(name: str) -> FakeSettlement:
        tries.append(name)
        raise RuntimeError("kernel bug")

    monkeypatch.setattr(scoring_store, "SETTLE_TRIES", 3)
    (r,) = ingest_paths([SAMPLES / "league.jsonl"], db, score=scorer(broken))
    assert len(tries) == 3  # the 4 games, then each half once
    assert r.score_error == "game 'club-7/2026-11-08/table-1' and 3 more: RuntimeError: kernel bug"
    assert count(db, "SELECT count(*) FROM rescore_pending") == 4
    fake = FakeSettlement()
    run([SAMPLES / "league.jsonl"], db, fake)  # unchanged file; the pending games are settled
    assert count(db, "SELECT count(*) FROM rescore_pending") == 0
    assert count(db, "SELECT count(DISTINCT game_id) FROM standings") == 4


def test_fast_and_reference_paths_store_the_same(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast paths (ingest/sheets.py, the card paths) change speed, never results: the same
    mixed file, in small batches so deals, games, duplicates and conflicts straddle batch ends,
    and so that some batches are runs of lines that follow one another (ingest/lines.py) and
    some are not."""
    import random

    from ingest import jsonl
    from ingest.jsonl import JsonlReader
    from ingest.lines import Run

    runs: list[bool] = []
    read_lines = JsonlReader.read_lines

    def spy(self: JsonlReader, *args: Any) -> Iterator[object]:
        for batch in read_lines(self, *args):
            runs.append(isinstance(batch, Run))
            yield batch

    monkeypatch.setattr(JsonlReader, "read_lines", spy)
    monkeypatch.setattr(jsonl, "BLOCK", 2048)  # blocks of a few lines, runs or not

    from data.samples.make_samples import league_lines

    rng = random.Random(5)
    lines = list(league_lines(3, 40, cards=False, prefix="mix"))
    lines += (SAMPLES / "league.jsonl").read_text().splitlines()
    lines += (SAMPLES / "bad-lines.jsonl").read_text().splitlines()
    lines += ["", "oops", '{"record": "note", "text": "καφές"}']  # a blank line: not a run
    extra = [rng.choice(lines) for _ in range(30)]  # duplicates, some before their game line
    conflicts = [t.replace('"tricks": {', '"tricks": {"x": 0, ', 1) if "tricks" in t else
                 t.replace('"dealer": "Anna"', '"dealer": "Boris"') for t in extra[:10]]
    mixed = lines + extra + conflicts
    tail = mixed[len(lines) // 2:]
    rng.shuffle(tail)  # (a slice is a copy: shuffled, then put back)
    mixed[len(lines) // 2:] = tail
    src = tmp_path / "mixed.jsonl"
    src.write_text("\n".join(mixed) + "\n")
    fast_db, ref_db = tmp_path / "fast.duckdb", tmp_path / "ref.duckdb"
    (f,) = ingest_paths([src], fast_db, score=fake_scorer(FakeSettlement()), batch=37)
    (r,) = ingest_paths([src], ref_db, score=fake_scorer(FakeSettlement()), batch=37,
                        fast=False)
    assert (f.records, f.stored, f.duplicates, f.quarantined) == \
        (r.records, r.stored, r.duplicates, r.quarantined)
    assert f.duplicates > 0 and f.quarantined > 0
    assert snapshot(fast_db) == snapshot(ref_db)
    assert True in runs and False in runs


def test_same_deal_from_csv_and_jsonl_is_one_deal(db: Path, fake: FakeSettlement,
                                                  tmp_path: Path) -> None:
    """A deal's key depends on its content, not its format (STYLE.md 6): the CSV sheet's rows
    written again as canonical JSONL are duplicates."""
    sheet = SAMPLES / "club-sheet-2026-11-22.csv"
    (first,) = run([sheet], db, fake)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        records = [r[0] for r in conn.execute(
            "SELECT record::VARCHAR FROM games UNION ALL "
            "SELECT record::VARCHAR FROM (SELECT record FROM deals ORDER BY deal_no)"
        ).fetchall()]
    finally:
        conn.close()
    as_jsonl = [json.loads(t) for t in records]
    as_jsonl[0] |= {"record": "game"}
    for d in as_jsonl[1:]:
        d["record"] = "deal"
    p = tmp_path / "again.jsonl"
    p.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in as_jsonl) + "\n")
    (again,) = run([p], db, fake)
    assert (again.records, again.stored, again.duplicates) == (first.stored, 0, first.stored)


def test_values_the_tables_cannot_hold_are_quarantined(db: Path, fake: FakeSettlement,
                                                       tmp_path: Path) -> None:
    """A deal number beyond the INTEGER column (model/tables.py) is a schema issue, not a crash
    that would roll the whole file back."""
    game = {"record": "game", "game_id": "big", "variant": "greek-prefa",
            "players": ["A", "B", "C"]}
    deal = {"record": "deal", "game_id": "big", "deal_no": 10**12, "dealer": "A"}
    p = tmp_path / "big.jsonl"
    p.write_text(json.dumps(game) + "\n" + json.dumps(deal) + "\n")
    (r,) = run([p], db, fake)
    assert (r.stored, r.quarantined) == (1, 1)
    assert [(i.line, str(i.code)) for i in r.issues] == [(2, "schema")]


@pytest.mark.parametrize("value", [True, 2.0, "2"], ids=["true", "2.0", "string"])
def test_a_number_written_otherwise_is_quarantined_not_read_as_one(
        db: Path, fake: FakeSettlement, tmp_path: Path, value: object) -> None:
    """A deal number, a trick count or a house rule written as ``true``, ``2.0`` or ``"2"`` is
    refused with the field named (model/base.py ``Integer``; records.md 1.2 writes them as
    integers): ``"deal_no": true`` used to be stored as deal 1."""
    game = {"record": "game", "game_id": "g", "variant": "greek-prefa",
            "players": ["A", "B", "C"]}
    ruled = {**game, "game_id": "r", "rules": {"initial_kassa": value}}
    deal = {"record": "deal", "game_id": "g", "deal_no": 1, "dealer": "A", "declarer": "A",
            "contract": "6S", "defence": {"B": "play", "C": "play"},
            "tricks": {"A": 6, "B": 2, "C": 2}}
    lines = [game, {**deal, "deal_no": value}, {**deal, "tricks": {"A": value, "B": 4, "C": 4}},
             deal, ruled]
    p = tmp_path / "typed.jsonl"
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    (r,) = run([p], db, fake)
    assert (r.stored, r.quarantined) == (2, 3)
    assert [(i.line, str(i.code)) for i in r.issues] == [(2, "schema"), (3, "schema"),
                                                        (5, "schema")]
    for issue, field in zip(r.issues, ("deal_no", "tricks.A", "rules.initial_kassa"),
                            strict=True):
        assert f"{field}: must be a whole number (got " in issue.message, issue.message
    assert count(db, "SELECT count(*) FROM deals") == 1


@pytest.mark.parametrize("value", [2026, "2026", 1700000000], ids=["year", "year-text", "epoch"])
def test_a_start_written_as_a_number_is_quarantined_not_read_as_1970(
        db: Path, fake: FakeSettlement, tmp_path: Path, value: object) -> None:
    """``started_at`` is an ISO 8601 date or time (records.md 1.1; model/base.py ``StartedAt``):
    ``2026`` used to be stored as 1970-01-01 00:33:46, seconds since 1970."""
    game = {"record": "game", "game_id": "g", "variant": "greek-prefa",
            "players": ["A", "B", "C"], "started_at": value}
    dated = {**game, "game_id": "d", "started_at": "2026-12-03"}
    p = tmp_path / "started.jsonl"
    p.write_text(json.dumps(game) + "\n" + json.dumps(dated) + "\n")
    (r,) = run([p], db, fake)
    assert (r.stored, r.quarantined) == (1, 1)
    (issue,) = r.issues
    assert (issue.line, str(issue.code)) == (1, "schema")
    assert "started_at" in issue.message and "ISO 8601" in issue.message


def test_a_database_lacking_tables_gets_them_at_the_next_ingest(tmp_path: Path) -> None:
    """``store.connect`` creates only the tables the catalog lacks (a database made before a
    table was declared); the tables it has keep their rows."""
    db = tmp_path / "older.duckdb"
    (greek,) = ingest_paths([SAMPLES / "league.jsonl"], db)
    conn = duckdb.connect(str(db))
    conn.execute("DROP TABLE players; DROP TABLE player_names; DROP TABLE deals_bridge")
    conn.close()
    (bridge,) = ingest_paths([SAMPLES / "bridge" / "rubber-session.jsonl"], db)
    assert greek.stored and bridge.stored and not bridge.failed
    assert count(db, "SELECT count(*) FROM games") + count(db, "SELECT count(*) FROM deals") \
        == greek.stored + bridge.stored
    assert count(db, "SELECT count(*) FROM deals_bridge") \
        == count(db, "SELECT count(*) FROM deals WHERE starts_with(variant, 'bridge')") > 0
    assert count(db, "SELECT count(*) FROM player_names WHERE starts_with(variant, 'bridge')")


def test_a_small_jsonl_file_is_read_by_the_reference_alone(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON Lines file below ``FAST_FROM`` bytes does not go through the fast paths, whatever
    name it is read under; one of that size does; both give the same tables."""
    src = SAMPLES / "league.jsonl"  # score-sheet deals and deals with cards
    used: list[str] = []
    real_columnar, real_sheets = columnar.accept, sheets.accept

    def spy(name: str, real: Any) -> Any:
        return lambda *args: used.append(name) or real(*args)

    monkeypatch.setattr(columnar, "accept", spy("columnar", real_columnar))
    monkeypatch.setattr(sheets, "accept", spy("sheets", real_sheets))
    monkeypatch.setattr(pipeline, "FAST_FROM", src.stat().st_size + 1)
    (small,) = ingest_paths([src], tmp_path / "small.duckdb")
    assert used == []
    monkeypatch.setattr(pipeline, "FAST_FROM", src.stat().st_size)
    (fast,) = ingest_paths([src], tmp_path / "fast.duckdb")
    assert set(used) == {"columnar", "sheets"}
    assert (small.records, small.stored, small.duplicates, small.quarantined) == \
        (fast.records, fast.stored, fast.duplicates, fast.quarantined)
    assert snapshot(tmp_path / "small.duckdb") == snapshot(tmp_path / "fast.duckdb")
    used.clear()  # a small file read under another name: the reference, storing the name
    monkeypatch.setattr(pipeline, "FAST_FROM", src.stat().st_size + 1)
    ingest_paths([src], tmp_path / "named.duckdb", names={src: "club-7/results"})
    assert used == []
    assert count(tmp_path / "named.duckdb",
                 "SELECT count(*) FROM deals WHERE source <> 'club-7/results'") == 0


def test_records_with_cards_are_stored_in_batches_of_bounded_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader's records with cards are mappings of some 20 KiB each: a 25 MB PBN file held
    1.2 GiB in one batch, cut only by its text's length. A batch holds at most
    ``pipeline.BATCH_CARDS`` of them, and cutting the file so stores the same rows."""
    pbn = DATA / "pbn-tournaments-slovesnov" / "Gboplo27.pbn"
    whole = tmp_path / "whole.duckdb"
    ingest_paths([pbn], whole)
    flushes: list[int] = []
    flush = pipeline._FileLoad.flush

    def counted(self: Any) -> None:
        flushes.append(1)
        flush(self)

    monkeypatch.setattr(pipeline, "BATCH_CARDS", 3)
    monkeypatch.setattr(pipeline._FileLoad, "flush", counted)
    cut = tmp_path / "cut.duckdb"
    (r,) = ingest_paths([pbn], cut)
    assert len(flushes) > r.stored // 4  # a batch per three deals with cards, and the last
    assert snapshot_of(cut) == snapshot_of(whole)


def test_progress_counts_no_more_bytes_than_the_files_hold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes a progress report says are read never pass what the files hold, and never go
    back: a PBN game and its first deal read from one game's text counted it twice, so a large
    PBN file's bar stood full (and its time left at nothing) long before the end. Tournament
    files of ``pbn-tournaments-slovesnov`` and ``bbo-vugraph-lin``, each under its own event."""
    monkeypatch.setattr(pipeline, "PROGRESS_EVERY", 1)
    pbn = (DATA / "pbn-tournaments-slovesnov" / "Aulpll23.pbn").read_text(encoding="latin-1")
    files = [tmp_path / "events.pbn", DATA / "bbo-vugraph-lin" / "00001.lin"]
    files[0].write_text("".join(pbn.replace('[Event "', f'[Event "copy {i} ') for i in range(5)),
                        encoding="latin-1")
    sizes = [f.stat().st_size for f in files]
    seen: list[pipeline.Progress] = []
    ingest_paths(files, tmp_path / "t.duckdb", progress=seen.append)
    assert len(seen) > 100 and {p.total_bytes for p in seen} == {sum(sizes)}
    read = [p.done_bytes for p in seen]
    assert read == sorted(read) and read[-1] == sum(sizes)
    for p in seen:  # within its own file
        assert p.done_bytes <= sum(sizes[:p.file_no]), p
    *reading, read_all = [p.done_bytes for p in seen if p.file_no == 1]
    assert read_all == sizes[0] and reading[-1] > 0.9 * sizes[0]  # how far it is read
