"""``trickbook export``, ``analyse``, the event refresh after a rescore and the dashboard's exit
code, through typer's CliRunner (docs/cli.md) on the real settlements."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from model.cards import parse_cards
from sim.analysis import position, solver_contract_name
from tests.conftest import ROOT
from trickbook.cli import app

runner = CliRunner()
SAMPLES = ROOT / "data" / "samples"


def _ingest(db: Path, *paths: Path) -> None:
    result = runner.invoke(app, ["ingest", *map(str, paths), "--db", str(db)])
    assert result.exit_code == 0, result.output


def _rows(db: Path, sql: str, params: list[object] | None = None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


# ---------------------------------------------------------------- export


def test_export_ppn_round_trips_through_ingest(tmp_path: Path) -> None:
    db, again = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _ingest(db, SAMPLES / "balkan" / "league.ppn")
    game_id = _rows(db, "SELECT game_id FROM games ORDER BY game_id LIMIT 1")[0][0]
    out = tmp_path / "out.ppn"
    result = runner.invoke(app, ["export", "--format", "ppn", "--game", game_id,
                                 "--out", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    _ingest(again, out)
    facts = ("SELECT deal_no, declarer, contract, record->'tricks' FROM deals "
             "WHERE game_id = ? ORDER BY deal_no")
    exported = _rows(again, "SELECT game_id FROM games")
    assert len(exported) == 1  # only the game asked for
    assert _rows(again, facts, [exported[0][0]]) == _rows(db, facts, [game_id])
    assert _rows(again, "SELECT count(*) FROM quarantine") == [(0,)]


def test_export_pbn_round_trips_duplicate_games(tmp_path: Path) -> None:
    db, again = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _ingest(db, SAMPLES / "bridge" / "club-pairs-travellers.csv")
    result = runner.invoke(app, ["export", "--format", "pbn", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("% PBN 2.1")
    pbn = tmp_path / "out.pbn"
    pbn.write_text(result.stdout, encoding="utf-8")
    _ingest(again, pbn)
    facts = ("SELECT contract, declarer, (record->>'tricks')::INTEGER FROM deals "
             "WHERE declarer IS NOT NULL ORDER BY ALL")
    assert _rows(again, facts) == _rows(db, facts)
    assert len(_rows(db, facts)) > 10
    # the event's matchpoints come out the same from the exported file (bridge.md 8)
    mps = "SELECT board, score_ns, mp_ns FROM event_results ORDER BY ALL"
    assert _rows(again, mps) == _rows(db, mps)


def test_export_pbn_round_trips_rubber_and_chicago_games(tmp_path: Path) -> None:
    """A rubber game exported as PBN was read back as duplicate boards and quarantined whole
    ("a duplicate deal needs its board or vulnerable"), and a deal after a traveller's board
    took that board's number. PBN's ``Scoring`` tag (2.1 3.4) now says ``Rubber`` or
    ``Chicago``, and the reader makes such deals a ``bridge-rubber`` game with its mode: the
    games of data/samples/bridge/rubber-session.jsonl, exported between duplicate boards, come
    back with their rules, deals and the same standings (bridge.md 5, 10)."""
    db, again = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _ingest(db, SAMPLES / "bridge" / "club-pairs-travellers.csv",
            SAMPLES / "bridge" / "rubber-session.jsonl")
    pbn = tmp_path / "out.pbn"
    result = runner.invoke(app, ["export", "--format", "pbn", "--out", str(pbn), "--db", str(db)])
    assert result.exit_code == 0, result.output
    _ingest(again, pbn)
    assert _rows(again, "SELECT count(*) FROM quarantine") == [(0,)]
    games = ("SELECT g.variant, g.record->>'$.rules.mode', count(*) FROM games g JOIN deals "
             "USING (game_id) GROUP BY ALL ORDER BY ALL")
    assert _rows(again, games) == _rows(db, games)
    assert ("bridge-rubber", "chicago", 4) in _rows(db, games)
    facts = ("SELECT g.variant, d.deal_no, d.contract, d.declarer, d.record->'tricks' "
             "FROM deals d JOIN games g USING (game_id) WHERE g.variant = 'bridge-rubber' "
             "ORDER BY g.record->>'$.rules.mode' NULLS FIRST, d.deal_no")
    assert _rows(again, facts) == _rows(db, facts)
    cash = "SELECT player, cash FROM standings WHERE variant = 'bridge-rubber' ORDER BY ALL"
    assert _rows(again, cash) == _rows(db, cash) and _rows(db, cash)


def test_a_pbn_export_read_into_its_own_database_adds_nothing(tmp_path: Path) -> None:
    """The demo's PBN export read back into the database it came from stored all 112 records
    again as new games (the reader named each game by a hash), doubling every bridge standing.
    The reader now takes a game's id from the writer's ``GameId`` tag: each record is a
    duplicate, or a conflict where PBN cannot carry a field (a traveller's pairs, a game's
    league), and the standings stay as they were."""
    db = tmp_path / "a.duckdb"
    _ingest(db, SAMPLES / "bridge")
    pbn = tmp_path / "out.pbn"
    result = runner.invoke(app, ["export", "--format", "pbn", "--out", str(pbn), "--db", str(db)])
    assert result.exit_code == 0, result.output
    counts = "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM deals)"
    cash = "SELECT variant, player, cash FROM standings ORDER BY ALL"
    before = _rows(db, counts), _rows(db, cash)
    _ingest(db, pbn)
    assert (_rows(db, counts), _rows(db, cash)) == before
    [(read, stored)] = _rows(db, "SELECT records, stored FROM ingest_log "
                                 "WHERE source LIKE '%out.pbn'")
    assert read > 20 and stored == 0


VULNERABLE = ("None", "NS", "EW", "All")


def _club_board(n: int, tricks: int) -> str:
    """Board ``n`` of a PBN file that names no players, so its deals are numbered in file
    order (docs/ingest.md "A bridge deal is its board")."""
    return (f'[Event "Club"]\n[Board "{n}"]\n[Dealer "{"NESW"[(n - 1) % 4]}"]\n'
            f'[Vulnerable "{VULNERABLE[(n - 1) % 4]}"]\n[Declarer "N"]\n[Contract "3NT"]\n'
            f'[Result "{tricks}"]\n\n')


def test_a_pbn_export_of_a_game_with_a_quarantined_deal_adds_nothing(tmp_path: Path) -> None:
    """A tester's round trip (the 2012 Vanderbilt of endplay's example3.pbn, one of board 59's
    tables quarantined): the game was stored as deals 1, 3, 4 ..., its export was read back as
    deals 1, 2, 3 ... into the database it came from, storing board 3 again as deal 2 and a
    conflict for every deal after it. The export's ``DealNo`` tag gives each deal its stored
    number back: every deal is a duplicate."""
    db, source, pbn = tmp_path / "a.duckdb", tmp_path / "club.pbn", tmp_path / "out.pbn"
    source.write_text("".join(_club_board(n, 14 if n == 2 else 9) for n in (1, 2, 3, 4)),
                      encoding="utf-8")
    _ingest(db, source)
    deals = "SELECT game_id, deal_no, record->>'board' FROM deals ORDER BY ALL"
    stored = _rows(db, deals)
    assert [no for _, no, _ in stored] == [1, 3, 4]  # board 2 has 14 tricks: quarantined
    result = runner.invoke(app, ["export", "--format", "pbn", "--game", stored[0][0],
                                 "--out", str(pbn), "--db", str(db)])
    assert result.exit_code == 0, result.output
    _ingest(db, pbn)
    assert _rows(db, deals) == stored
    assert _rows(db, "SELECT stored, duplicates, quarantined FROM ingest_log "
                     "WHERE source LIKE '%out.pbn'") == [(0, 4, 0)]


def test_a_ppn_export_of_a_game_with_a_quarantined_deal_adds_nothing(tmp_path: Path) -> None:
    """PPN writes each deal's number (its first field, data README "prefko-ppn"), so a game
    stored with a gap (deal 5 of the league's first game quarantined: a deal order against the
    turn order) comes back with the same numbers: read into its own database, all duplicates."""
    db, source, ppn = tmp_path / "a.duckdb", tmp_path / "league.ppn", tmp_path / "out.ppn"
    text = (SAMPLES / "balkan" / "league.ppn").read_text(encoding="utf-8")
    source.write_text(text.replace("\n[5 312 ", "\n[5 321 ", 1), encoding="utf-8")
    _ingest(db, source)
    deals = "SELECT game_id, deal_no FROM deals ORDER BY ALL"
    stored = _rows(db, deals)
    game = stored[0][0]
    assert 5 not in [no for gid, no in stored if gid == game] and (game, 6) in stored
    result = runner.invoke(app, ["export", "--format", "ppn", "--game", game, "--out", str(ppn),
                                 "--db", str(db)])
    assert result.exit_code == 0, result.output
    _ingest(db, ppn)
    assert _rows(db, deals) == stored
    [(stored_again, quarantined)] = _rows(db, "SELECT stored, quarantined FROM ingest_log "
                                              "WHERE source LIKE '%out.ppn'")
    assert (stored_again, quarantined) == (0, 0)


def test_export_unknown_game_exits_1_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    _ingest(db, SAMPLES / "bridge" / "rubber-session.jsonl")
    result = runner.invoke(app, ["export", "--format", "ppn", "--game", "no'such", "--db", str(db)])
    assert result.exit_code == 1
    assert "no'such" in result.stderr
    missing = runner.invoke(app, ["export", "--format", "pbn", "--db", str(tmp_path / "x.db")])
    assert missing.exit_code == 2


@pytest.mark.parametrize("where", ["a folder", "a missing folder"])
def test_export_to_a_place_it_cannot_write_says_so(tmp_path: Path, where: str) -> None:
    """``--out`` a folder, or in a folder that does not exist, ended in "trickbook:
    IsADirectoryError: [Errno 21] ..." (exit 1, an unexpected error)."""
    db = tmp_path / "a.duckdb"
    _ingest(db, SAMPLES / "bridge" / "rubber-session.jsonl")
    out = tmp_path if where == "a folder" else tmp_path / "nowhere" / "x.pbn"
    result = runner.invoke(app, ["export", "--format", "pbn", "--out", str(out), "--db", str(db)])
    assert result.exit_code == 2, result.output
    shown = " ".join(result.stderr.split())
    assert f"cannot write {out}" in shown and "Error:" not in shown


# ---------------------------------------------------------------- analyse

_SPADES = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
_GAME = {"record": "game", "game_id": "oh/1", "variant": "greek-prefa",
         "players": ["Anna", "Boris", "Chris"], "rules": {"initial_kassa": 31}}
_DEAL = {
    "record": "deal", "game_id": "oh/1", "deal_no": 1, "dealer": "Chris",
    "hands": {"Anna": [*_SPADES, "AH", "AD"],
              "Boris": ["KH", "QH", "JH", "TH", "9H", "KD", "QD", "JD", "TD", "9D"],
              "Chris": ["8H", "7H", "8D", "7D", "AC", "KC", "QC", "JC", "TC", "9C"]},
    "talon": ["8C", "7C"], "discard": ["8C", "7C"],
    "declarer": "Anna", "contract": "10S", "defence": {"Boris": "play", "Chris": "play"},
    "tricks": {"Anna": 9, "Boris": 1, "Chris": 0},
}
"""Anna holds all eight spades and two aces: open-hand she takes all ten in spades (greek-prefa.md
7: must follow, must trump); the record says she took nine."""


def test_analyse_stores_open_hand_tricks(tmp_path: Path) -> None:
    src = tmp_path / "oh.jsonl"
    src.write_text(json.dumps(_GAME) + "\n" + json.dumps(_DEAL) + "\n", encoding="utf-8")
    db = tmp_path / "a.duckdb"
    _ingest(db, src)
    result = runner.invoke(app, ["analyse", "--db", str(db)])
    assert "1 deal solved open-hand" in result.stdout, result.output
    assert _rows(db, "SELECT * FROM open_hand") == [("oh/1", 1, "10S", 10, 9)]
    rerun = runner.invoke(app, ["analyse", "--db", str(db)])
    assert "0 deals solved open-hand" in rerun.stdout  # solved deals are not solved again


def test_analyse_names_five_skipped_deals_and_counts_the_rest(tmp_path: Path) -> None:
    """Seven deals both defenders passed (greek-prefa.md: no play): five are named, and the
    list says it goes on, where it stopped at five under "7 skipped"."""
    passed = [{**_DEAL, "deal_no": n, "defence": {"Boris": "pass", "Chris": "pass"},
               "tricks": None} for n in range(1, 8)]
    src = tmp_path / "passed.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in (_GAME, *passed)) + "\n", encoding="utf-8")
    db = tmp_path / "a.duckdb"
    _ingest(db, src)
    result = runner.invoke(app, ["analyse", "--db", str(db)])
    assert "0 deals solved open-hand (open_hand), 7 skipped" in result.stdout, result.output
    named = [line for line in result.stdout.splitlines() if line.startswith("  oh/1#")]
    assert len(named) == 5 and "  and 2 more" in result.stdout


def test_position_places_seats_talon_and_sit_out() -> None:
    placed = position("greek-prefa", _GAME["players"], _DEAL)
    assert not isinstance(placed, str)
    hands, leader, declarer, name = placed
    assert (leader, declarer, name) == (0, 0, "S")  # Anna: first hand after the dealer Chris
    assert hands[0] == parse_cards([*_SPADES, "AH", "AD"])
    # balkan.md 5.1 "alone": the passer named in no trick count holds no cards
    alone = {**_DEAL, "contract": "2", "defence": {"Boris": "alone", "Chris": "pass"},
             "tricks": {"Anna": 9, "Boris": 1}}
    placed = position("balkan", _GAME["players"], alone)
    assert not isinstance(placed, str) and placed[0][2] == 0 and placed[3] == "S"
    assert position("greek-prefa", _GAME["players"], {**_DEAL, "tricks": None}) == (
        "the record has no play")  # it said "the defenders passed", which they had not
    passed = {**_DEAL, "defence": {"Boris": "pass", "Chris": "pass"}, "tricks": None}
    assert position("greek-prefa", _GAME["players"], passed) == (
        "both defenders passed, so the deal was not played")
    # greek-prefa.md 5: a conceded preliminary bid has a declarer and no contract (it was
    # skipped as "no declarer")
    conceded = {**_DEAL, "contract": None, "tricks": None, "conceded": True,
                "preliminary": True}
    assert position("greek-prefa", _GAME["players"], conceded) == (
        "the declarer conceded, so the deal was not played")


@pytest.mark.parametrize(("variant", "contract", "name"), [
    ("greek-prefa", "7NT", "NT"), ("greek-prefa", "6H", "H"),
    ("balkan", "G7", "sanac"), ("balkan", "3", "D"), ("balkan", "6", "bettel"),
    ("swabian", "5", "C"), ("swabian", "7", "durchmarsch"), ("swabian", "9", None),
])
def test_solver_contract_names(variant: str, contract: str, name: str | None) -> None:
    # balkan.md 1 (2 Pik .. 5 Tref, 6 Betl, 7 Sans); swabian.md 3.1 (2 Laub .. 5 Eichel)
    assert solver_contract_name(variant, contract) == name


# ---------------------------------------------------------------- rescore hooks, dashboard


def test_event_results_filled_after_ingest_and_score(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    _ingest(db, SAMPLES / "bridge" / "club-pairs-travellers.csv")
    boards = _rows(db, "SELECT count(*) FROM deals WHERE variant = 'bridge-duplicate'")[0][0]
    assert _rows(db, "SELECT count(*) FROM event_results") == [(boards,)]
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM event_results")
    con.close()
    assert runner.invoke(app, ["score", "--db", str(db)]).exit_code == 0
    assert _rows(db, "SELECT count(*) FROM event_results") == [(boards,)]
    # Law 78A on the 2/1 scale (scoring/bridge/event.py): each result's NS and EW matchpoints
    # share 2 per other table of the event, Neuberg-scaled boards (fewer results) included
    rows = _rows(db, "SELECT mp_ns + mp_ew, max(tables) OVER (PARTITION BY event) "
                     "FROM event_results")
    assert rows and all(total == 2 * (t - 1) for total, t in rows)


def test_score_creates_the_deal_outcomes_view(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    _ingest(db, SAMPLES / "league.jsonl")
    assert runner.invoke(app, ["score", "--db", str(db)]).exit_code == 0
    assert _rows(db, "SELECT count(*) FROM duckdb_views() WHERE view_name = 'deal_outcomes'"
                 ) == [(1,)]
    deals = _rows(db, "SELECT count(*) FROM deals")
    assert _rows(db, "SELECT count(*) FROM deal_outcomes") == deals


def test_dashboard_passes_on_the_servers_exit_code(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    import dashboards.serve

    monkeypatch.setattr(dashboards.serve, "main", lambda db, port: 3)
    assert runner.invoke(app, ["dashboard", "--db", str(tmp_path / "x")]).exit_code == 3
    monkeypatch.setattr(dashboards.serve, "main", lambda db, port: 0)
    assert runner.invoke(app, ["dashboard", "--db", str(tmp_path / "x")]).exit_code == 0
