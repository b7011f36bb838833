"""Double-dummy tables and par against DDS's own golden files (data/README.md, dds-hands) and
endplay's expected values (endplay-fixtures/expected-values.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from ingest.bridge_records import hand_names, parse_hand
from model.tables import DEALS, GAMES, TABLES
from scoring.bridge.dd import DD_TABLES
from tests.conftest import DATA

pytest.importorskip("endplay")

from scoring.bridge.dd import analyse, dd_tables, par_of

DDS = DATA / "dds-hands"
DENOM_OF_DDS = (3, 2, 1, 0, 4)
"""Our denomination (C D H S NT) of the DDS strain order S H D C NT."""
VUL_OF_DDS = ("None", "All", "NS", "EW")


def dds_records(path: Path, limit: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    cur: dict[str, object] = {}
    for line in path.read_text().splitlines():
        if line.startswith("PBN "):
            m = re.match(r'PBN (\d) (\d) (\d) (\d) "(.*)"', line)
            assert m
            cur = {"dealer": int(m.group(1)), "vul": VUL_OF_DDS[int(m.group(2))],
                   "deal": m.group(5)}
            out.append(cur)
        elif line.startswith("TABLE "):
            cur["table"] = [int(x) for x in line.split()[1:]]
        elif line.startswith("PAR2 "):
            cur["par"] = int(re.findall(r'"([^"]*)"', line)[0])
        if len(out) > limit:
            break
    return out[:limit]


def test_dd_tables_equal_dds_golden_files() -> None:
    # list100.txt, the first 10 deals: TABLE = tricks for strains S H D C NT x declarer N E S W.
    recs = dds_records(DDS / "list100.txt", 10)
    tables = dd_tables(str(r["deal"]) for r in recs)
    for rec, table in zip(recs, tables, strict=True):
        expected = rec["table"]
        assert isinstance(expected, list)
        for k, tricks in enumerate(expected):
            strain, seat = divmod(k, 4)
            assert table[(DENOM_OF_DDS[strain], seat)] == tricks


def test_par_equals_dds_par2() -> None:
    for rec in dds_records(DDS / "list100.txt", 6):
        score, contracts = par_of(str(rec["deal"]), rec["vul"], int(rec["dealer"]))  # type: ignore[arg-type, call-overload]
        assert score == rec["par"] and contracts


def test_endplay_expected_par() -> None:
    par = json.loads((DATA / "endplay-fixtures" / "expected-values.json").read_text())["par"]
    score, contracts = par_of(par["deal"], "None", 0)
    assert score == par["expected_score"] and sorted(contracts) == sorted(
        par["expected_contracts"])


def test_analyse_stores_table_and_par() -> None:
    case = json.loads((DATA / "endplay-fixtures" / "expected-values.json").read_text())[
        "dd_table"][0]
    players = ["Nora", "Emil", "Sara", "Walt"]
    hands = case["deal"][2:].split()
    record = {"record": "deal", "game_id": "g", "deal_no": 1, "dealer": "Nora", "board": 1,
              "hands": {p: hand_names(parse_hand(h, dotted=True))
                        for p, h in zip(players, hands, strict=True)}}
    conn = duckdb.connect()
    for t in (GAMES, DEALS):
        conn.execute(TABLES[t].ddl)
    conn.execute("INSERT INTO games VALUES ('g', 'bridge-duplicate', ?, '{}', NULL, NULL, NULL, "
                 "NULL, 'test', 1, '{}')", [players])
    conn.execute("INSERT INTO deals VALUES ('g', 1, 'k', 'bridge-duplicate', 'Nora', NULL, NULL, "
                 "true, 'test', 1, ?)", [json.dumps(record)])
    assert analyse(conn) == 1
    assert analyse(conn) == 0  # already analysed
    rows = conn.execute(f"SELECT denom, declarer, tricks, par_ns, par_contracts FROM {DD_TABLES}"
                        ).fetchall()
    assert len(rows) == 20
    cell = {(d, s): t for d, s, t, _, _ in rows}
    # expected-values.json dd_table[0]: C by N 8, D by S 7, H by W 5, S by E 0, NT by N 9.
    assert (cell[(0, 0)], cell[(1, 2)], cell[(2, 3)], cell[(3, 1)], cell[(4, 0)]) == (8, 7, 5, 0, 9)
    assert {r[3] for r in rows} == {420}


@pytest.mark.slow
@pytest.mark.long  # about a minute of solving: make test-long; the first 10 deals run always
def test_list100_in_full() -> None:
    recs = dds_records(DDS / "list100.txt", 100)
    assert len(recs) == 100
    for rec, table in zip(recs, dd_tables(str(r["deal"]) for r in recs), strict=True):
        expected = rec["table"]
        assert isinstance(expected, list)
        assert [table[(DENOM_OF_DDS[k // 4], k % 4)] for k in range(20)] == expected
        score, _ = par_of(str(rec["deal"]), rec["vul"], int(rec["dealer"]))  # type: ignore[arg-type, call-overload]
        assert score == rec["par"]
