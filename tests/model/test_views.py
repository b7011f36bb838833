"""The ``deal_outcomes`` view (model/views.py) against each variant's own rules in Python.

The database is the sample league of every variant (data/samples/) ingested and settled through
the public path, so the view's SQL (``Variant.outcome_sql``) is checked against code that was
written independently of it: ``model/balkan/contracts.declarer_made`` (balkan.md 4, 6),
``model/swabian/games.won`` (swabian.md 3.1, 7), ``model/russian/contracts`` (russian.md 3),
Greek ``tricks >= level`` (greek-prefa.md 9.2, 9.3) and, for bridge, the sign of the declarer's
settlement (Law 77).
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from model import tables as T
from model.balkan.contracts import declarer_made, parse_contract
from model.greek.contracts import parse_contract as greek_contract
from model.greek.frame import TABLE as GREEK_TABLE
from model.russian.contracts import parse_contract as russian_contract
from model.swabian.games import won
from model.variants import names, registered
from model.views import COLUMNS, DEAL_OUTCOMES, create_views, deal_outcomes_sql, ensure_views
from scoring.store import score_pending
from tests.conftest import ROOT

SAMPLES = ROOT / "data" / "samples"


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.pipeline import ingest_paths

    path = tmp_path_factory.mktemp("views") / "samples.duckdb"
    ingest_paths([SAMPLES], path, score=score_pending)
    return path


@pytest.fixture
def con(sample_db: Path) -> duckdb.DuckDBPyConnection:
    c = duckdb.connect(str(sample_db), read_only=True)
    yield c
    c.close()


def _expected_made(variant: str, rec: dict, declarer_cash: float | None) -> bool | None:
    """The declarer's success from the record, by the variant's Python rules (module docstring)."""
    declarer = rec.get("declarer")
    if declarer is None:
        return None
    tricks = rec.get("tricks")
    if variant.startswith("bridge"):
        return declarer_cash is not None and declarer_cash > 0
    if variant == "greek-prefa":
        if rec.get("conceded") or rec.get("preliminary"):
            return False
        if not tricks:  # both defenders passed: deemed made (greek-prefa.md 6.1 step 2)
            return True
        return tricks[declarer] >= greek_contract(rec["contract"])[0]
    if variant == "balkan":
        if rec.get("repealed"):
            return None
        if not tricks:  # passed, or a plain Pik nobody doubled (balkan.md 5.1)
            return True
        return declarer_made(parse_contract(rec["contract"]).number, tricks[declarer])
    if variant == "swabian":
        return won(int(rec["contract"]), bool(rec.get("hand")), tricks[declarer])
    if variant == "russian":  # russian.md 3: nobody whisted, written as made; misère: no trick
        if not tricks:
            return True
        contract = russian_contract(rec["contract"])
        return tricks[declarer] == 0 if contract.misere else tricks[declarer] >= contract.level
    raise AssertionError(variant)


def test_view_has_the_declared_columns(con: duckdb.DuckDBPyConnection) -> None:
    described = con.execute(f"DESCRIBE {DEAL_OUTCOMES}").fetchall()
    assert [(r[0], r[1]) for r in described] == list(COLUMNS)


def test_one_row_per_deal_of_every_variant(con: duckdb.DuckDBPyConnection) -> None:
    deals = con.execute(f"SELECT variant, count(*) FROM {T.DEALS} GROUP BY 1 ORDER BY 1").fetchall()
    view = con.execute(f"SELECT variant, count(*) FROM {DEAL_OUTCOMES} GROUP BY 1 ORDER BY 1"
                       ).fetchall()
    assert view == deals
    assert {v for v, _ in deals} == set(names())  # the samples cover every variant
    keys = con.execute(f"""SELECT count(*) FROM {DEAL_OUTCOMES} o ANTI JOIN {T.DEALS} d
                           ON d.game_id = o.game_id AND d.deal_no = o.deal_no""").fetchone()
    assert keys == (0,)


def test_made_agrees_with_each_variants_rules(con: duckdb.DuckDBPyConnection) -> None:
    rows = con.execute(f"""
        SELECT o.variant, o.made, o.declarer_tricks, d.record::VARCHAR, s.cash
        FROM {DEAL_OUTCOMES} o
        JOIN {T.DEALS} d ON d.game_id = o.game_id AND d.deal_no = o.deal_no
        LEFT JOIN {T.SETTLEMENTS} s ON s.game_id = d.game_id AND s.deal_no = d.deal_no
             AND s.player = d.declarer""").fetchall()
    checked = {True: 0, False: 0}
    for variant, made, taken, text, cash in rows:
        rec = json.loads(text)
        assert made == _expected_made(variant, rec, cash), (variant, rec)
        tricks = rec.get("tricks")
        if isinstance(tricks, dict) and rec.get("declarer"):
            assert taken == tricks[rec["declarer"]]
        elif variant.startswith("bridge"):  # the declarer's side's tricks (bridge.md)
            assert taken == tricks
        if made is not None:
            checked[made] += 1
    assert checked[True] > 10 and checked[False] > 10  # both outcomes occur in the samples


def test_defence_mode_words(con: duckdb.DuckDBPyConnection) -> None:
    modes = dict(con.execute(f"""SELECT variant, list(DISTINCT defence_mode ORDER BY defence_mode)
                                 FROM {DEAL_OUTCOMES} GROUP BY 1""").fetchall())
    assert set(modes["greek-prefa"]) <= {"none", "pass", "both", "invite", "alone", "concede"}
    assert set(modes["balkan"]) <= {"none", "pass", "nokontra", "both", "invite", "alone"}
    assert set(modes["swabian"]) <= {"none", "play", "contra", "recontra"}
    assert set(modes["bridge-rubber"]) <= {"none", "undoubled", "doubled", "redoubled"}
    # swabian.md 5: a contra in the samples shows as such
    contras = con.execute(f"""SELECT count(*) FROM {T.DEALS} d JOIN {DEAL_OUTCOMES} o
                              USING (game_id, deal_no)
                              WHERE d.variant = 'swabian' AND json_exists(d.record, '$.contra')
                                AND o.defence_mode = 'play'""").fetchone()
    assert contras == (0,)


def test_null_made_exactly_where_nobody_declared(con: duckdb.DuckDBPyConnection) -> None:
    rows = con.execute(f"""SELECT d.declarer IS NULL, o.made IS NULL, o.defence_mode, count(*)
                           FROM {DEAL_OUTCOMES} o JOIN {T.DEALS} d USING (game_id, deal_no)
                           WHERE o.variant <> 'balkan' GROUP BY ALL""").fetchall()
    for no_declarer, no_made, mode, _ in rows:
        assert no_declarer == no_made
        assert (mode == "none") == no_declarer


def test_temporary_view_on_a_read_only_database_without_it(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    c = duckdb.connect(str(path))
    c.execute(T.TABLES[T.GAMES].ddl)
    c.execute(GREEK_TABLE.ddl)
    c.execute(f"""INSERT INTO {GREEK_TABLE.name} VALUES
                  ('g', 1, 0, 1, 7, 3, 'both', NULL, 2, 7, 1, NULL, FALSE, FALSE)""")
    c.close()
    ro = duckdb.connect(str(path), read_only=True)
    try:
        ensure_views(ro)
        # greek-prefa.md 9.3: 7 of 7 tricks makes 7H
        assert ro.execute(f"SELECT variant, defence_mode, declarer_tricks, made "
                          f"FROM {DEAL_OUTCOMES}").fetchall() == [("greek-prefa", "both", 7, True)]
    finally:
        ro.close()


def test_a_stored_view_of_fewer_columns_is_hidden_by_a_whole_one(tmp_path: Path) -> None:
    """A database last scored before ``called`` was added keeps a view without it until its
    next rescore; a read-only connection sees the whole view meanwhile."""
    path = tmp_path / "older.duckdb"
    c = duckdb.connect(str(path))
    create_views(c)
    older = ", ".join(name for name, _ in COLUMNS if name != "called")
    c.execute(f"CREATE OR REPLACE VIEW {DEAL_OUTCOMES} AS "
              f"SELECT {older} FROM ({deal_outcomes_sql()})")
    c.close()
    ro = duckdb.connect(str(path), read_only=True)
    try:
        ensure_views(ro)
        names = [d[0] for d in ro.execute(f"SELECT * FROM {DEAL_OUTCOMES}").description]
        assert names == [name for name, _ in COLUMNS]
    finally:
        ro.close()


def test_sql_unions_one_branch_per_variant() -> None:
    sql = deal_outcomes_sql()
    assert sql.count("UNION ALL") == len(registered()) - 1
    con = duckdb.connect()
    create_views(con)  # creates the tables it reads, so it binds on an empty database
    assert con.execute(f"SELECT count(*) FROM {DEAL_OUTCOMES}").fetchone() == (0,)
