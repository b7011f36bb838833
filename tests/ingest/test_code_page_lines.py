"""A JSON Lines file saved in a code page, not UTF-8 (records.md 1: JSON Lines are UTF-8): each
line is quarantined, saying to save the file as UTF-8, and keeps its text readable, read in the
code page its lines read as (``text.readable``), with the message naming it (docs/ingest.md,
"Encodings"); a line that no code page reads as words keeps every byte, written ``\\xNN``."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ingest.pipeline import ingest_paths

GAME = {"record": "game", "game_id": "g1", "variant": "greek-prefa",
        "players": ["Иван", "Борис", "Пётр"]}
DEAL = {"record": "deal", "game_id": "g1", "deal_no": 1, "dealer": "Иван", "declarer": "Пётр",
        "contract": "6S", "defence": {"Иван": "play", "Борис": "play"},
        "tricks": {"Пётр": 6, "Иван": 2, "Борис": 2}}


def quarantined(tmp_path: Path, data: bytes) -> list[tuple[int, str, str]]:
    path = tmp_path / "club.jsonl"
    path.write_bytes(data)
    db = tmp_path / "t.duckdb"
    (report,) = ingest_paths([path], db)
    assert report.records == report.quarantined
    with duckdb.connect(str(db), read_only=True) as conn:
        return conn.execute("SELECT line, message, raw FROM quarantine ORDER BY line").fetchall()


def test_cp1251_lines_keep_their_names_readable(tmp_path: Path) -> None:
    lines = [json.dumps(r, ensure_ascii=False) for r in (GAME, DEAL)]
    rows = quarantined(tmp_path, ("\r\n".join(lines) + "\r\n").encode("cp1251"))
    assert [(line, raw) for line, _, raw in rows] == [(1, lines[0]), (2, lines[1])]
    for _, message, _ in rows:
        assert "save the file as UTF-8" in message
        assert "read as cp1251 (Windows Cyrillic)" in message
        assert "Иван" in message and "\ufffd" not in message


def test_a_stray_byte_is_kept_as_it_was(tmp_path: Path) -> None:
    rows = quarantined(tmp_path, b'{"record": "game", "game_id": "Zo\xc3\xab\xff"}\n'
                                 b'{"record": "game"}\xe9\n')
    assert [raw for _, _, raw in rows] == ['{"record": "game", "game_id": "Zoë\\xff"}',
                                           '{"record": "game"}\\xe9']
    assert all("written \\xNN" in message for _, message, _ in rows)


def test_a_json_document_in_cp1251_keeps_its_records_readable(tmp_path: Path) -> None:
    """A ``.json`` document of records (ingest/json_document.py) is read so too."""
    text = json.dumps([GAME, DEAL], ensure_ascii=False, indent=1)
    path = tmp_path / "club.json"
    path.write_bytes(text.encode("cp1251"))
    db = tmp_path / "t.duckdb"
    (report,) = ingest_paths([path], db)
    assert (report.records, report.quarantined) == (2, 2)
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT message, raw FROM quarantine ORDER BY line").fetchall()
    assert [json.loads(raw) for _, raw in rows] == [GAME, DEAL]
    assert all("read as cp1251 (Windows Cyrillic)" in message for message, _ in rows)
