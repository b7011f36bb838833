"""The ``simulate`` and ``balance`` commands (docs/simulation.md, docs/balance-study.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from sim import SimulationError
from sim.run import read_rules
from trickbook.balance import balance_command
from trickbook.simulate import simulate_command

app = typer.Typer()
app.command("simulate")(simulate_command)
app.command("balance")(balance_command)


def test_simulate_writes_jsonl(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"four_aces": "fixed_chips"}))
    out = tmp_path / "sim.jsonl"
    result = CliRunner().invoke(app, ["simulate", "--variant", "prefa", "--games", "3",
                                      "--deals-per-game", "4", "--seed", "5", "--rules",
                                      str(rules), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["record"] for r in lines].count("game") == 3
    assert [r["record"] for r in lines].count("deal") == 12
    assert lines[0]["rules"] == {"four_aces": "fixed_chips"}


def test_simulate_four_russian_players(tmp_path: Path) -> None:
    # russian.md 1: --players 4, the dealer sits out (no hand); a variant without the option
    # refuses it
    out = tmp_path / "sim.jsonl"
    result = CliRunner().invoke(app, ["simulate", "--variant", "russian", "--players", "4",
                                      "--games", "2", "--deals-per-game", "5", "--out", str(out),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    games = [r for r in lines if r["record"] == "game"]
    assert [len(g["players"]) for g in games] == [4, 4]
    assert all(r["dealer"] not in r["hands"] for r in lines if r["record"] == "deal")
    refused = CliRunner().invoke(app, ["simulate", "--variant", "swabian", "--players", "4",
                                       "--out", str(tmp_path / "x.jsonl")])
    assert refused.exit_code == 2, refused.output
    assert ("players is not an option of the swabian simulator (its options: none)"
            in refused.output), refused.output  # before: "...__init__() got an unexpected ..."


@pytest.mark.parametrize("where", ["folder", "under a file", "both"])
def test_simulate_says_an_output_it_cannot_write(tmp_path: Path, where: str) -> None:
    """``--out`` naming a folder, or a file under a file, is said as such, exit 2 (before:
    ``trickbook: IsADirectoryError ...``, exit 1), before a progress bar; ``--out`` with
    ``--db`` names the options."""
    (tmp_path / "file").write_text("")
    out = {"folder": tmp_path, "under a file": tmp_path / "file" / "s.jsonl",
           "both": tmp_path / "s.jsonl"}[where]
    extra = ["--db", str(tmp_path / "s.duckdb")] if where == "both" else []
    result = CliRunner().invoke(app, ["simulate", "--variant", "balkan", "--games", "1",
                                      "--out", str(out), *extra])
    assert result.exit_code == 2, result.output
    said = ("give exactly one of --out (JSON Lines) and --db" if where == "both"
            else f"simulate: cannot write '{out}': ")
    assert said in result.output and "Error" not in result.output, result.output
    assert "simulating" not in result.output  # no progress bar before the error


@pytest.mark.parametrize("args", [["--variant", "whist"], ["--variant", "greek", "--play", "x"],
                                  ["--variant", "greek"]])
def test_simulate_refuses_bad_input(tmp_path: Path, args: list[str]) -> None:
    # an unknown variant or play mode, or no output: exit code 2 with a message
    extra = [] if args == ["--variant", "greek"] else ["--out", str(tmp_path / "x.jsonl")]
    result = CliRunner().invoke(app, ["simulate", *args, *extra])
    assert result.exit_code == 2


def test_bad_rules_are_refused() -> None:
    # greek-prefa.md 14: an option value the rules model does not know is refused, quoted
    from sim.drivers import simulator

    with pytest.raises(SimulationError, match="bad greek-prefa rules"):
        simulator("greek-prefa", {"four_aces": "always"})


def test_a_bad_rules_file_is_named_field_by_field_before_any_deal(tmp_path: Path) -> None:
    """greek-prefa.md 14: a kassa of -5 is refused as ingest words a bad field (the field, the
    rule, the value), before the run starts, without pydantic's own text and links."""
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"initial_kassa": -5}))
    result = CliRunner().invoke(app, ["simulate", "--variant", "greek-prefa", "--games", "1",
                                      "--rules", str(rules), "--out", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "initial_kassa: must be more than 0 (got -5)" in said
    assert "pydantic.dev" not in said and "simulating" not in said
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("args", [["--games", "0"], ["--deals-per-game", "-3"]])
def test_a_run_of_no_deals_is_refused(tmp_path: Path, args: list[str]) -> None:
    for command in ("simulate", "balance"):
        where = ["--out", str(tmp_path / "x.jsonl")] if command == "simulate" else [
            "--db", str(tmp_path / "x.duckdb")]
        result = CliRunner().invoke(app, [command, "--variant", "greek-prefa", *args, *where])
        assert result.exit_code == 2 and f"'{args[0]}'" in result.output


def test_simulate_bridge_writes_jsonl(tmp_path: Path) -> None:
    # bridge.md 6: a duplicate session, board n dealt by its dealer with its vulnerability
    out = tmp_path / "bridge.jsonl"
    result = CliRunner().invoke(app, ["simulate", "--variant", "duplicate", "--games", "2",
                                      "--deals-per-game", "5", "--out", str(out),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    deals = [json.loads(line) for line in out.read_text().splitlines()][1:6]
    assert [d["board"] for d in deals] == [1, 2, 3, 4, 5]
    assert [d["dealer"] for d in deals] == ["N", "E", "S", "W", "N"]
    assert [d["vulnerable"] for d in deals] == ["None", "NS", "EW", "All", "NS"]


def test_read_rules_accepts_a_game_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"record": "game", "rules": {"jump_bids": True}}))
    assert read_rules(path) == {"jump_bids": True}
    path.write_text("[1]")
    with pytest.raises(SimulationError, match="JSON object"):
        read_rules(path)


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "1", "--rules"], ["balance", "--games", "2", "--rules-b"]])
def test_a_game_line_of_another_variant_is_refused(tmp_path: Path, command: list[str]) -> None:
    """A Balkan game line's ``jump_bids``, a flag the Greek rules have too, played Greek games
    without a word (records.md 1.2: a game line names its variant)."""
    path = tmp_path / "balkan.json"
    path.write_text(json.dumps({"record": "game", "game_id": "g", "variant": "balkan",
                                "players": ["A", "B", "C"], "rules": {"jump_bids": True}}))
    with pytest.raises(SimulationError, match='is a game line of "balkan", not of greek-prefa'):
        read_rules(path, "greek-prefa")
    assert read_rules(path, "balkan") == read_rules(path) == {"jump_bids": True}
    *head, flag = command
    result = CliRunner().invoke(app, [*head, "--variant", "greek-prefa", flag, str(path),
                                      "--db", str(tmp_path / "s.duckdb")])
    assert result.exit_code == 2, result.output
    assert 'is a game line of "balkan", not of greek-prefa' in result.output
    assert not (tmp_path / "s.duckdb").exists()


def test_read_rules_says_what_is_wrong_with_its_file(tmp_path: Path) -> None:
    """A game line without rules plays the defaults; rules that are not an object, and bytes
    that are not UTF-8, are said naming the file (before: a game line's ``null`` rules or a
    list ended in a TypeError, bytes in a UnicodeDecodeError)."""
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"record": "game", "game_id": "g"}))
    assert read_rules(path) == {}
    for rules in (None, [1, 2], "x"):
        path.write_text(json.dumps({"record": "game", "rules": rules}))
        if rules is None:
            assert read_rules(path) == {}
            continue
        with pytest.raises(SimulationError, match=r"rules\.json.*must be a JSON object"):
            read_rules(path)
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(SimulationError, match=r"rules\.json.*not UTF-8 text \(invalid start "
                                              r"byte at byte 0\)"):
        read_rules(path)
    result = CliRunner().invoke(app, ["simulate", "--variant", "greek-prefa", "--games", "1",
                                      "--rules", str(path), "--out", str(tmp_path / "s.jsonl")])
    assert result.exit_code == 2 and "not UTF-8 text" in result.output, result.output


def test_balance_command_stores_a_study(tmp_path: Path) -> None:
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"four_aces": "fixed_chips"}))
    db = tmp_path / "bal.duckdb"
    result = CliRunner().invoke(app, ["balance", "--variant", "greek-prefa", "--rules-b", str(b),
                                      "--games", "10", "--deals-per-game", "3", "--db", str(db),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "declarer money" in result.output
    conn = duckdb.connect(str(db), read_only=True)
    try:
        rows = conn.execute("SELECT rules_b::VARCHAR, deals FROM balance_runs").fetchall()
    finally:
        conn.close()
    assert rows == [('{"four_aces": "fixed_chips"}', 30)]


def test_a_study_tells_its_progress_and_an_interrupted_one_says_nothing_is_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A study tells the games simulated as they come, both arms' (the command's progress bar),
    and Ctrl-C says that nothing is stored, exit 130 (docs/balance-study.md); it exited 130
    without a word."""
    import sim.balance
    import trickbook.balance

    told: list[int] = []
    sim.balance.study("greek-prefa", {}, {"four_aces": "fixed_chips"}, 12, 2, workers=1,
                      progress=told.append)
    assert told and sum(told) == 2 * 12

    def interrupted(*args: object, progress: object = None, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(trickbook.balance, "study", interrupted)
    db = tmp_path / "bal.duckdb"
    result = CliRunner().invoke(app, ["balance", "--variant", "greek-prefa", "--games", "10",
                                      "--db", str(db), "--workers", "1"])
    assert result.exit_code == 130
    assert "interrupted; nothing is stored" in " ".join(result.output.split())
    assert not db.exists()


def test_simulated_deals_pass_the_data_checks(tmp_path: Path) -> None:
    """records.md 2: every stored record is logged once, simulated ones too; a rerun of the same
    seed replaces its partition and its log row instead of adding to them."""
    from scoring.checks import run_checks

    db = tmp_path / "sim.duckdb"
    args = ["simulate", "--variant", "greek", "--games", "4", "--deals-per-game", "3", "--seed",
            "2", "--db", str(db), "--workers", "1"]
    for _ in range(2):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert [f.name for f in run_checks(conn)] == []
        logged = conn.execute("SELECT sum(stored) FROM ingest_log").fetchone()
        stored = conn.execute("SELECT count(*) FROM deals").fetchone()
        assert logged == stored == (12,)
    finally:
        conn.close()


def test_a_run_of_another_plan_never_replaces_stored_games(tmp_path: Path) -> None:
    """Simulated ids name the variant, seed and game only: a second run with other rules, or
    fewer deals per game, replaced the first run's games (4,000 deals became 3,900, nothing
    said). It is refused, and nothing of it is stored; the same plan again, or more games of
    it, still runs."""
    db = tmp_path / "sim.duckdb"
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"four_aces": "fixed_chips"}))
    base = ["simulate", "--variant", "greek", "--seed", "3", "--db", str(db), "--workers", "1"]

    def stored() -> list[tuple[object, ...]]:
        with duckdb.connect(str(db), read_only=True) as conn:
            return conn.execute("SELECT g.game_id, g.record::VARCHAR, d.deal_no, d.deal_key "
                                "FROM games g JOIN deals d USING (game_id) ORDER BY 1, 3"
                                ).fetchall()

    first = CliRunner().invoke(app, [*base, "--games", "3", "--deals-per-game", "4"])
    assert first.exit_code == 0, first.output
    before = stored()
    for other in (["--games", "3", "--deals-per-game", "2"],
                  ["--games", "3", "--deals-per-game", "4", "--rules", str(rules)]):
        result = CliRunner().invoke(app, [*base, *other])
        assert result.exit_code == 2, result.output
        assert "stored already from another run" in result.output
        assert stored() == before
    more = CliRunner().invoke(app, [*base, "--games", "5", "--deals-per-game", "4"])
    assert more.exit_code == 0, more.output
    assert stored()[:len(before)] == before and len(stored()) > len(before)


def test_a_balance_database_reads_like_any_other(tmp_path: Path) -> None:
    """A database made by ``balance`` alone failed ``check`` and ``report`` ("Table with name
    settlements does not exist"): it has the stable tables too."""
    from trickbook.cli import app as trickbook

    db = tmp_path / "study.duckdb"
    made = CliRunner().invoke(app, ["balance", "--variant", "balkan", "--games", "2",
                                    "--deals-per-game", "2", "--db", str(db), "--workers", "1"])
    assert made.exit_code == 0, made.output
    for args in (["check"], ["report", "standings"], ["report", "quarantine"]):
        result = CliRunner().invoke(trickbook, [*args, "--db", str(db)])
        assert result.exit_code == 0 and "Exception" not in result.output, (args, result.output)


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_a_database_that_cannot_be_written_is_said_before_the_work(tmp_path: Path,
                                                                   command: str) -> None:
    """A folder or a CSV file as ``--db``: ``balance`` ran its whole study, then ended in
    DuckDB's "IO Error"; ``simulate`` started its progress bar first (exit 1 both)."""
    not_db = tmp_path / "sheet.csv"
    not_db.write_text("a,b\n1,2\n")
    for db, said in ((tmp_path, "is a folder"), (not_db, "is not a DuckDB database")):
        result = CliRunner().invoke(app, [command, "--variant", "balkan", "--games", "2",
                                          "--deals-per-game", "2", "--db", str(db)])
        shown = " ".join(result.output.split())  # as read, without the console's line breaks
        assert result.exit_code == 2 and said in shown, shown
        assert "simulating" not in shown and "IO Error" not in shown


def test_balance_refuses_a_database_it_may_not_write_before_simulating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/balance-study.md: the database is checked before any deal. A file it may not
    write (read-only, immutable; the test stands in for that, since root may write any mode)
    or a folder where no file can be made was found only by ``store_study``, after the whole
    study. ``check_writable`` makes nothing."""
    import ingest.store
    import trickbook.balance

    def simulated(*args: object, **kwargs: object) -> object:
        raise AssertionError("the study ran")

    monkeypatch.setattr(trickbook.balance, "study", simulated)
    db = tmp_path / "made.duckdb"
    ingest.store.connect(db).close()
    writes = os.W_OK
    monkeypatch.setattr(ingest.store.os, "access",
                        lambda path, mode: Path(path) != db or mode != writes)
    args = ["balance", "--variant", "balkan", "--games", "2", "--deals-per-game", "2"]
    result = CliRunner().invoke(app, [*args, "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "cannot write the database" in " ".join(result.output.split())
    new = tmp_path / "deep" / "new.duckdb"

    def no_file_here(*args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(ingest.store.tempfile, "NamedTemporaryFile", no_file_here)
    result = CliRunner().invoke(app, [*args, "--db", str(new)])
    assert result.exit_code == 2 and "does not let a file be made" in " ".join(
        result.output.split()), result.output
    assert not new.parent.exists()


def test_balance_names_the_bad_field_of_either_arm(tmp_path: Path) -> None:
    """A bad ``--rules-b`` gave "ValidationError: 1 validation error for GreekRules" and the
    field only with --debug; it is named at once, as ``simulate --rules`` names it."""
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps({"bogus_flag": 1}))
    result = CliRunner().invoke(app, ["balance", "--variant", "greek-prefa", "--games", "2",
                                      "--deals-per-game", "2", "--rules-b", str(bad), "--db",
                                      str(tmp_path / "b.duckdb")])
    assert result.exit_code == 2 and "bogus_flag" in result.output, result.output


@pytest.mark.parametrize(("command", "option", "value"), [
    ("simulate", "--deals-per-game", "1000000"), ("simulate", "--games", "1000000000"),
    ("simulate", "--workers", "0"), ("balance", "--deals-per-game", "1000000"),
    ("balance", "--games", "1000000000"), ("balance", "--workers", "-3")])
def test_counts_out_of_bounds_are_refused_before_anything_runs(
        tmp_path: Path, command: str, option: str, value: str) -> None:
    """A game of a million deals was dealt in full (its rules end it long before) and ran out
    of memory, deaf to Ctrl-C; ``--workers 0`` was taken without a word. Each is refused at
    once, naming the option."""
    where = ["--db", str(tmp_path / "t.duckdb")]
    result = CliRunner().invoke(app, [command, "--variant", "greek-prefa", option, value,
                                      *where])
    assert result.exit_code == 2 and option in result.output
    assert not (tmp_path / "t.duckdb").exists()


@pytest.mark.slow
def test_sigterm_stops_a_simulation_as_ctrl_c_does_and_its_workers_end(tmp_path: Path) -> None:
    """``kill PID`` of a simulation with workers killed it and left its two worker processes
    running, stuck on a pipe to it. It now stops as on Ctrl-C (docs/simulation.md): the
    partitions finished are stored, exit 130, no worker left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.ingest.conftest import ROOT

    db = tmp_path / "t.duckdb"
    child = subprocess.Popen(
        [sys.executable, "-m", "trickbook", "simulate", "--variant", "greek-prefa", "--games",
         "100000", "--deals-per-game", "20", "--db", str(db), "--workers", "2"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    workers: list[str] = []
    while len(workers) < 2 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = subprocess.run(["pgrep", "-P", str(child.pid)], capture_output=True,
                                 text=True).stdout.split()
    time.sleep(1)  # a partition or two stored
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "interrupted: the partitions finished before Ctrl-C are stored" in err
    time.sleep(0.5)
    assert len(workers) == 2 and not [w for w in workers if os.path.exists(f"/proc/{w}")]
    conn = duckdb.connect(str(db), read_only=True)
    try:
        games = conn.execute("SELECT count(*) FROM games").fetchall()[0][0]
    finally:
        conn.close()
    assert 0 < games < 100000


def test_a_sweep_prints_every_flag_and_run_whole_at_80_columns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/balance-study.md, ``--sweep``: at 80 columns the table cut flag names and run ids
    to ``kunstwerk_on…`` and ``644fb1e1b081…``; a long flag now runs over lines."""
    from trickbook.console import out

    monkeypatch.setattr(out, "width", 80)
    db = tmp_path / "sweep.duckdb"
    result = CliRunner().invoke(app, ["balance", "--variant", "swabian", "--sweep", "--games",
                                      "3", "--deals-per-game", "2", "--db", str(db),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    with duckdb.connect(str(db), read_only=True) as conn:
        runs = [r[0] for r in conn.execute("SELECT run_id FROM balance_runs").fetchall()]
    assert len(runs) > 3 and all(r in result.stdout for r in runs)
    flags = "".join(line.split("│")[1].strip() for line in result.stdout.splitlines()
                    if line.startswith("│"))
    assert "kunstwerk_on_hand_game=true" in flags and "jump_bids=false" in flags


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_another_program_s_database_is_refused_before_the_first_deal(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: both check ``--db`` before the first deal. A database of another program
    (a ``deals`` table of its own) was refused by ``simulate`` at once, but ``balance`` ran its
    whole study (11 s of 3,000 games) and said so only when it came to store it."""
    import trickbook.balance

    def simulated(*args: object, **kwargs: object) -> object:
        raise AssertionError("the study ran")

    monkeypatch.setattr(trickbook.balance, "study", simulated)
    db = tmp_path / "other.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute("CREATE TABLE deals (a INTEGER, b VARCHAR)")
    result = CliRunner().invoke(app, [command, "--variant", "greek-prefa", "--games", "2",
                                      "--deals-per-game", "2", "--db", str(db)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert said.startswith(f"{command}: {db}: its table 'deals' lacks the columns game_id"), said
    assert said.endswith("name a trickbook database, or a new file") and "not stored" not in said
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT table_name FROM duckdb_tables()").fetchall() == [("deals",)]


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "chess", "--out", "x.jsonl"],
    ["simulate", "--variant", "russian", "--players", "7", "--out", "x.jsonl"],
    ["simulate", "--variant", "greek-prefa", "--rules", "bad.json", "--out", "x.jsonl"],
    ["simulate", "--variant", "greek-prefa", "--out", "."],
    ["balance", "--variant", "greek-prefa", "--rules-b", "bad.json", "--db", "x.duckdb"],
    ["balance", "--variant", "greek-prefa", "--variant-b", "bridge-rubber", "--db", "x.duckdb"]])
def test_an_error_of_simulate_or_balance_is_one_line(
        tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: errors are one line. A progress bar that never started still ended a line
    on a stderr that is not a terminal (rich's ``Progress.stop``), so ``simulate``'s error came
    after an empty line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text("{bad")
    result = CliRunner().invoke(app, [*args, "--games", "1", "--deals-per-game", "1"])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.startswith(f"{args[0]}: "), repr(result.stderr)
    assert result.stderr.count("\n") == 1, repr(result.stderr)


def test_balance_lists_only_the_variants_it_studies(tmp_path: Path) -> None:
    """``balance --variant-b chess`` listed bridge-rubber and bridge-duplicate among the
    variants, which balance then refuses ("simulated: ..."); it lists what it studies."""
    for option in ("--variant", "--variant-b"):
        args = {"--variant": "chess", "--variant-b": "greek-prefa"}
        args[option] = "chess"
        result = CliRunner().invoke(app, ["balance", *(x for kv in args.items() for x in kv),
                                          "--games", "1", "--db", str(tmp_path / "b.duckdb")])
        assert result.exit_code == 2, result.output
        assert result.output == ("balance: variant 'chess' is not studied; balance studies "
                                 "cover greek-prefa, swabian, balkan, russian\n"), result.output
    assert not (tmp_path / "b.duckdb").exists()


def test_a_rules_file_that_cannot_be_read_is_said_once_in_words(tmp_path: Path) -> None:
    """``cannot read rules file '.../nonexist.json': [Errno 2] No such file or directory:
    '.../nonexist.json'``: the path twice and Python's words; now the path once and why."""
    for rules, why in ((tmp_path / "nonexist.json", "no such file"),
                       (tmp_path, "a folder, not a file")):
        result = CliRunner().invoke(app, ["balance", "--variant", "greek-prefa", "--rules-b",
                                          str(rules), "--db", str(tmp_path / "b.duckdb")])
        assert result.exit_code == 2, result.output
        assert result.output == f"balance: cannot read rules file '{rules}': {why}\n"
