"""A small realistic trickbook database (tables from ``model.variants.tables()``) for the pages.

Greek Prefa settlements are worked out by hand from greek-prefa.md 9 (v from 5.1, quotas 6.2):
game ``club-7/2026-11-29/table-1`` (3 players, K0 = 31)
  1. Chris 6S (v 2), both play, tricks C6 A2 B2: made, quota met (9.3): kassa C -2, C pays A 4, B 4
     (full cards: hands, talon, auction, discard, play of ten tricks).
  2. Anna 7H (v 7), both pass (9.1): kassa A -7, no chips.
  3. Boris 8D (v 8), both play, tricks B7 A2 C1: down one, m = 1 (9.2): kassa B +8,
     B pays A 16, C 8.
  4. all pass, redeal: nothing.
game ``club-7/2026-12-06/table-2`` (4 players, the dealer sits out, K0 = 31)
  1. dealer Dora; Anna 6H (v 5), Boris/Chris play, tricks A6 B3 C1: made, met: A -5, pays B 15, C 5.
  2. dealer Anna; Dora 7C (v 7), Boris invites, Chris passes, tricks D7 B2 C1: made, met
     (tW + tP = 3 = Q): D -7, pays B 7 * 3 = 21.
  3. dealer Boris; Chris 6NT (v 6), Anna/Dora play, tricks C5 A3 D2: down one: C +6,
     pays A 18, D 12.
game ``club-9/2025-05-10/table-1`` (3 players, finished): the cards of game 1 deal 1, renamed.
game ``swabian-club/2026-10-01/t1`` (Swabian, the same cards, contract 2 = Leaves needs 7 tricks).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from model import tables as T
from model.variants import tables

LEAGUE7 = "club-7 winter league"
LEAGUE9 = "club-9 open"
G1 = "club-7/2026-11-29/table-1"
G2 = "club-7/2026-12-06/table-2"
G3 = "club-9/2025-05-10/table-1"
G4 = "swabian-club/2026-10-01/t1"

HANDS = {
    "Anna": ["AH", "KH", "QH", "JH", "TH", "AC", "KC", "QC", "JC", "8S"],
    "Boris": ["9H", "AD", "KD", "QD", "JD", "TD", "9D", "TC", "9C", "7S"],
    "Chris": ["AS", "KS", "QS", "JS", "TS", "9S", "7H", "8H", "7C", "8C"],
}
TALON = ["7D", "8D"]
DISCARD = ["7C", "8C"]
PLAY = [
    ("Boris", "AD"), ("Chris", "7D"), ("Anna", "8S"),  # Anna ruffs
    ("Anna", "AH"), ("Boris", "9H"), ("Chris", "7H"),
    ("Anna", "KH"), ("Boris", "7S"), ("Chris", "8H"),  # Boris ruffs
    ("Boris", "KD"), ("Chris", "8D"), ("Anna", "JC"),
    ("Boris", "QD"), ("Chris", "9S"), ("Anna", "TH"),  # Chris ruffs
    ("Chris", "AS"), ("Anna", "QH"), ("Boris", "JD"),
    ("Chris", "KS"), ("Anna", "JH"), ("Boris", "TD"),
    ("Chris", "QS"), ("Anna", "AC"), ("Boris", "9D"),
    ("Chris", "JS"), ("Anna", "KC"), ("Boris", "TC"),
    ("Chris", "TS"), ("Anna", "QC"), ("Boris", "9C"),
]
TRICK_WINNERS = ["Anna", "Anna", "Boris", "Boris"] + ["Chris"] * 6


def _rename(value: object, names: dict[str, str]) -> object:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list | tuple):
        return [_rename(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    return value


def full_deal(game_id: str, names: dict[str, str] | None = None,
              contract: str = "6S") -> dict[str, Any]:
    names = names or {}
    deal: dict[str, Any] = {
        "record": "deal", "game_id": game_id, "deal_no": 1, "dealer": "Anna",
        "hands": HANDS, "talon": TALON,
        "auction": [{"player": "Boris", "call": "pass"}, {"player": "Chris", "call": contract},
                    {"player": "Anna", "call": "pass"}],
        "declarer": "Chris", "discard": DISCARD, "contract": contract,
        "defence": {"Anna": "play", "Boris": "play"},
        "play": [list(p) for p in PLAY],
        "tricks": {"Chris": 6, "Anna": 2, "Boris": 2},
    }
    out: dict[str, Any] = {k: _rename(v, names) for k, v in deal.items()}
    out["game_id"] = game_id
    return out


def _deal(game_id: str, no: int, dealer: str, declarer: str | None = None,
          contract: str | None = None, defence: dict | None = None,
          tricks: dict | None = None) -> dict:
    d: dict[str, object] = {"record": "deal", "game_id": game_id, "deal_no": no, "dealer": dealer}
    for k, v in (("declarer", declarer), ("contract", contract), ("defence", defence),
                 ("tricks", tricks)):
        if v is not None:
            d[k] = v
    return d


GAMES = [
    # game_id, variant, players, rules, started_at, league
    (G1, "greek-prefa", ["Anna", "Boris", "Chris"], {"initial_kassa": 31},
     datetime(2026, 11, 29, 18, 0, tzinfo=UTC), LEAGUE7),
    (G2, "greek-prefa", ["Anna", "Boris", "Chris", "Dora"],
     {"initial_kassa": 31, "four_players": True},
     datetime(2026, 12, 6, 18, 0, tzinfo=UTC), LEAGUE7),
    (G3, "greek-prefa", ["Eva", "Fotis", "Boris"], {"initial_kassa": 31},
     datetime(2025, 5, 10, 17, 0, tzinfo=UTC), LEAGUE9),
    (G4, "swabian", ["Xaver", "Yvonne", "Zenzi"], {},
     datetime(2026, 10, 1, 17, 0, tzinfo=UTC), None),
]
G3_NAMES = {"Anna": "Eva", "Boris": "Fotis", "Chris": "Boris"}
G4_NAMES = {"Anna": "Xaver", "Boris": "Yvonne", "Chris": "Zenzi"}

DEALS = [
    (full_deal(G1), True),
    (_deal(G1, 2, "Boris", "Anna", "7H", {"Boris": "pass", "Chris": "pass"}), False),
    (_deal(G1, 3, "Chris", "Boris", "8D", {"Anna": "play", "Chris": "play"},
           {"Boris": 7, "Anna": 2, "Chris": 1}), False),
    (_deal(G1, 4, "Anna"), False),
    (_deal(G2, 1, "Dora", "Anna", "6H", {"Boris": "play", "Chris": "play"},
           {"Anna": 6, "Boris": 3, "Chris": 1}), False),
    (_deal(G2, 2, "Anna", "Dora", "7C", {"Boris": "invite", "Chris": "pass"},
           {"Dora": 7, "Boris": 2, "Chris": 1}), False),
    (_deal(G2, 3, "Boris", "Chris", "6NT", {"Anna": "play", "Dora": "play"},
           {"Chris": 5, "Anna": 3, "Dora": 2}), False),
    (full_deal(G3, G3_NAMES), True),
    (full_deal(G4, G4_NAMES, contract="2"), True),
]

# (game_id, deal_no) -> {player: (cash, kassa_delta, kassa_after)}; see the module docstring.
SETTLED: dict[tuple[str, int], dict[str, tuple[float, int | None, int | None]]] = {
    (G1, 1): {"Anna": (4, 0, 31), "Boris": (4, 0, 31), "Chris": (-8, -2, 29)},
    (G1, 2): {"Anna": (0, -7, 24), "Boris": (0, 0, 31), "Chris": (0, 0, 29)},
    (G1, 3): {"Anna": (16, 0, 24), "Boris": (-24, 8, 39), "Chris": (8, 0, 29)},
    (G1, 4): {"Anna": (0, 0, 24), "Boris": (0, 0, 39), "Chris": (0, 0, 29)},
    (G2, 1): {"Anna": (-20, -5, 26), "Boris": (15, 0, 31), "Chris": (5, 0, 31),
              "Dora": (0, 0, 31)},
    (G2, 2): {"Anna": (0, 0, 26), "Boris": (21, 0, 31), "Chris": (0, 0, 31),
              "Dora": (-21, -7, 24)},
    (G2, 3): {"Anna": (18, 0, 26), "Boris": (0, 0, 31), "Chris": (-30, 6, 37),
              "Dora": (12, 0, 24)},
    (G3, 1): {"Eva": (4, 0, 31), "Fotis": (4, 0, 31), "Boris": (-8, -2, 29)},
    (G4, 1): {"Xaver": (2, None, None), "Yvonne": (2, None, None), "Zenzi": (-4, None, None)},
}
FINISHED = {G3}

QUARANTINE = [
    ("uploads/club-7-december.jsonl", 3, "club-7/2026-12-13/table-1#2", "deck",
     "card 'AS' appears twice (hands of Anna and Boris)",
     '{"record": "deal", "game_id": "club-7/2026-12-13/table-1", "deal_no": 2, "hands": "..."}'),
    ("uploads/club-7-december.jsonl", 7, None, "parse",
     "not JSON: 'deal;6S;Anna'", "deal;6S;Anna"),
    ("samples/club-9.csv", 12, "club-9/2025-05-10/table-1#9", "unknown-player",
     "declarer 'Zoe' is not a player of the game", "9,Eva,Zoe,6S,play,play,6,2,2"),
]
INGEST_LOG = [
    ("samples/club-7.jsonl", "a" * 64, 8, 7, 1, 0),
    ("uploads/club-7-december.jsonl", "b" * 64, 9, 7, 0, 2),
    ("samples/club-9.csv", "c" * 64, 3, 2, 0, 1),
]


def _variant_rows(con: duckdb.DuckDBPyConnection) -> None:
    """Each deal's ``deals_<variant>`` row through the variant's own ``deal_row`` (the rows ingest
    writes), then the ``deal_outcomes`` view over them (``model/views.py``)."""
    from model.variants import variant
    from model.views import create_views

    games = {g[0]: g for g in GAMES}
    for deal, _ in DEALS:
        game_id, name, players, rules, _, _ = games[deal["game_id"]]
        v = variant(name)
        game = v.game_model.model_validate({"record": "game", "game_id": game_id,
                                            "variant": name, "players": players, "rules": rules})
        row = v.deal_row(game, v.deal_model.model_validate(deal))
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        con.execute(f"INSERT INTO {v.deals_table} ({cols}) VALUES ({marks})", list(row.values()))
    create_views(con)


def build(path: Path) -> Path:
    """Create the fixture database at ``path`` (replacing any file there) and return the path."""
    if path.exists():
        path.unlink()
    now = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
    con = duckdb.connect(str(path))
    try:
        for ddl in (t.ddl for t in tables().values()):
            con.execute(ddl)
        seats = {}
        for game_id, variant, players, rules, started, league in GAMES:
            record = {"record": "game", "game_id": game_id, "variant": variant,
                      "players": players, "rules": rules}
            con.execute(
                f"INSERT INTO {T.GAMES} VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, 1, ?)",
                [game_id, variant, players, json.dumps(rules), started, league,
                 f"samples/{game_id.split('/')[0]}.jsonl", json.dumps(record)],
            )
            seats[game_id] = (variant, players)
        for line, (deal, has_cards) in enumerate(DEALS, start=2):
            variant = seats[deal["game_id"]][0]
            con.execute(
                f"INSERT INTO {T.DEALS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [deal["game_id"], deal["deal_no"], f"key-{deal['game_id']}-{deal['deal_no']}",
                 variant, deal["dealer"], deal.get("declarer"), deal.get("contract"), has_cards,
                 "samples/fixture.jsonl", line, json.dumps(deal)],
            )
        _variant_rows(con)
        totals: dict[tuple[str, str], list[float]] = {}
        dealers = {(d["game_id"], d["deal_no"]): d["dealer"] for d, _ in DEALS}
        for (game_id, deal_no), by_player in SETTLED.items():
            variant, players = seats[game_id]
            sitter = dealers[game_id, deal_no] if len(players) == 4 else None  # greek-prefa.md 14
            for player, (cash, k_delta, k_after) in by_player.items():
                greek = variant == "greek-prefa"
                con.execute(
                    f"""INSERT INTO {T.SETTLEMENTS} (game_id, deal_no, player, seat,
                        variant, cash, chips, kassa_delta, kassa_after)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    [game_id, deal_no, player, players.index(player), variant, cash,
                     cash if greek else None, k_delta, k_after],
                )
                acc = totals.setdefault((game_id, player), [0.0, 0])
                acc[0] += cash
                acc[1] += player != sitter  # deals played, as the settlements count them
        for (game_id, player), (cash, n) in totals.items():
            con.execute(
                f"INSERT INTO {T.STANDINGS} VALUES (?, ?, ?, ?, ?, ?)",
                [game_id, player, seats[game_id][0], cash, int(n), game_id in FINISHED],
            )
        for q_row in QUARANTINE:
            con.execute(f"INSERT INTO {T.QUARANTINE} VALUES (?, ?, ?, ?, ?, ?, ?)", [*q_row, now])
        for log_row in INGEST_LOG:
            con.execute(f"INSERT INTO {T.INGEST_LOG} VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [*log_row, now])
    finally:
        con.close()
    return path


def build_empty(path: Path) -> Path:
    """A database with every stable table and no rows."""
    con = duckdb.connect(str(path))
    try:
        for ddl in (t.ddl for t in tables().values()):
            con.execute(ddl)
    finally:
        con.close()
    return path


SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
BRIDGE_FILES = [SHARED / "bbo-vugraph-lin" / "40000.lin",
                SHARED / "pbn-tournaments-slovesnov" / "A1A12525.PBN"]
"""Real bridge files (../shared/data/README.md): a BBO Vugraph LIN match with claims and a PBN
championship file with its Event, Date and scores (matchpoints and IMPs in ``event_results``)."""
G5 = "club-7/2026-12-13/table-3"
CONCEDED = [
    {"record": "game", "game_id": G5, "variant": "greek-prefa",
     "players": ["Anna", "Boris", "Chris"], "rules": {}, "started_at": "2026-12-13T18:00:00Z",
     "league": LEAGUE7},
    {"record": "deal", "game_id": G5, "deal_no": 1, "dealer": "Chris",
     "auction": [{"player": "Anna", "call": "pass"}, {"player": "Boris", "call": "take"},
                 {"player": "Chris", "call": "pass"}],
     "declarer": "Boris", "conceded": True, "preliminary": True},
]
"""A preliminary bid conceded before any contract is named (greek-prefa.md 5, table row X14):
a declared deal without a contract, as simulated games have them."""


def build_demo_like(path: Path) -> Path:
    """The fixture database plus every file of ``data/samples/`` (all variants, the deliberately
    broken file), :data:`CONCEDED` and the :data:`BRIDGE_FILES` that are present, all through
    ``ingest.pipeline.ingest_paths``: what ``make demo`` shows, without the simulated games."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    build(path)
    extra = path.with_name("conceded.jsonl")
    extra.write_text("".join(json.dumps(r) + "\n" for r in CONCEDED), encoding="utf-8")
    bridge = [p for p in BRIDGE_FILES if p.is_file()]
    ingest_paths([SAMPLES, extra, *bridge], path, score=score_pending)
    return path


YOUTH_TEAMS = SHARED / "pbn-tournaments-slovesnov" / "A1A12525.PBN"
"""A teams match in one file: Russia v Netherlands, round 25 of the 17th European Youth Teams
(2000), 20 boards each in an open and a closed room named by ``Room`` tags (data/README.md)."""


def rooms_apart(source: Path, folder: Path) -> list[Path]:
    """``source``'s rooms written to a file each (``open.pbn``, ``closed.pbn``) without their
    ``Room`` tags, every ``#`` (the previous game's value) written out: a match whose two rooms
    come in two files that do not say which room they are."""
    last: dict[str, str] = {}
    rooms: dict[str, list[str]] = {}
    for game in source.read_text(encoding="utf-8").split("\n\n"):
        lines, room = [], None
        for line in game.splitlines():
            tag, _, value = line.removeprefix("[").removesuffix("]").partition(" ")
            if line.startswith("[") and value.startswith('"'):
                value = last.get(tag, value) if value == '"#"' else value
                last[tag] = value
                if tag == "Room":
                    room = value.strip('"').lower()
                    continue
                line = f"[{tag} {value}]"
            lines.append(line)
        if room is not None:
            rooms.setdefault(room, []).append("\n".join(lines))
    for room, games in rooms.items():
        (folder / f"{room}.pbn").write_text("\n\n".join(games) + "\n", encoding="utf-8")
    return [folder / f"{room}.pbn" for room in rooms]
