"""Open-hand results beside the actual ones: the engine of ``trickbook analyse`` (docs/cli.md).

Bridge deals with four hands get their double-dummy table and par (``scoring/bridge/dd.py``,
the optional ``dds`` extra). Preference deals (Greek Prefa, Balkan, Swabian, Russian) with every
hand get the open-hand declarer tricks of the contract played, solved by ``sim/solver``
(docs/solver.md),
stored in ``open_hand`` next to the tricks the declarer actually took:

    open_hand (game_id, deal_no, contract, open_hand_tricks, actual_tricks)

How a deal becomes a solver position:

* seats are the deal's active players in turn order (``game.players``; with four, the hands of
  the record name the three who were dealt); a player the record's ``tricks`` does not name took
  no part in the play (greek-prefa.md 6.1 step 6, balkan.md 5.1 "alone") and holds no cards;
* the declarer holds his hand plus the talon minus the discard when both are recorded
  (greek-prefa.md 5, balkan.md 3, swabian.md 3); otherwise his dealt hand (igra, aus den Händen);
* the first lead is the recorded play's first card; without play, the first active player after
  the dealer (known limit: the Balkan Sanac and Preferans lead rules, balkan.md 6, apply only
  through a recorded play);
* the contract maps to the solver's list of its variant, as the variant's simulator says
  (``solver_contract`` and ``solver_contracts`` of ``sim/<variant>.py``): Greek and Russian
  ``<n><denom>`` to ``S C D H NT`` (Russian ``misere`` to ``misere``, for fewest tricks),
  Balkan 2-5 to their trumps, 6 ``bettel``, 7 ``sanac``, 8 ``preferans``; Swabian 2-5 to
  their trumps, 6 ``bettel``, 7 ``durchmarsch`` (``sim/solver/contracts.py``).

A deal that cannot be placed (cards missing, hands of unequal size, not played: the declarer
conceded or both defenders passed, as ``Variant.no_play`` says it) is skipped and counted, never
an error. A deal nobody declared is not solved, nor counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import duckdb
import polars as pl

from model.cards import DECK_32, parse_card
from model.schema import Table
from model.tables import DEALS, GAMES
from model.variants import REGISTERED
from model.variants import variant as variant_named
from sim.drivers import Simulator, simulator
from sim.solver import Contract, solve

OPEN_HAND_TABLE = Table("open_hand", {
    "game_id": pl.String(), "deal_no": pl.Int32(), "contract": pl.String(),
    "open_hand_tricks": pl.Int8(), "actual_tricks": pl.Int8(),
}, required=("contract", "open_hand_tricks"), key=("game_id", "deal_no"))
OPEN_HAND = OPEN_HAND_TABLE.name
PREFERENCE_VARIANTS = tuple(v.name for v in REGISTERED if v.deck == DECK_32)
"""The 32-card games, solved by ``sim/solver``."""
@dataclass
class OpenHandReport:
    analysed: int = 0
    skipped: list[tuple[str, int, str]] = field(default_factory=list)
    """``(game_id, deal_no, reason)`` of deals with cards that could not be solved."""


@cache
def _driver(variant: str) -> Simulator:
    return simulator(variant)


def solver_contract_name(variant: str, contract: str) -> str | None:
    """The solver's name of a recorded contract, or None when the grammar is unknown (the
    variant's simulator knows it, ``sim/<variant>.py``)."""
    return _driver(variant).solver_contract(contract.strip().upper())


def contract_code(variant: str, name: str, played: str) -> str:
    """The contract code, as records write it, of the solver's contract ``name`` where the
    recorded contract ``played`` was played (``Simulator.contract_code``)."""
    return _driver(variant).contract_code(name, played.strip().upper())


def solver_contracts(variant: str) -> dict[str, Contract]:
    return {c.name: c for c in _driver(variant).solver_contracts}


def _mask(cards: list[str]) -> int:
    m = 0
    for name in cards:
        m |= 1 << parse_card(name)
    return m


def active_players(players: list[str], rec: dict[str, Any]) -> list[str]:
    """The players dealt a hand, in turn order: the seats of the solver's position."""
    hands = rec.get("hands") or {}
    return [p for p in players if p in hands]


def solver_contract(variant: str, name: str) -> Contract:
    """The solver's contract of that name in the variant's list (``sim/solver/contracts.py``)."""
    return solver_contracts(variant)[name]


def position(variant: str, players: list[str], rec: dict[str, Any]
             ) -> tuple[tuple[int, ...], int, int, str] | str:
    """``(hands, leader, declarer, solver contract name)`` of a deal record, or the reason it
    cannot be solved (module docstring)."""
    declarer, contract = rec.get("declarer"), rec.get("contract")
    hands: dict[str, list[str]] = rec.get("hands") or {}
    tricks: dict[str, int] = rec.get("tricks") or {}
    if declarer is None:
        return "no declarer"
    if contract is None or not tricks:  # conceded, both defenders passed: in the game's words
        return variant_named(variant).no_play(rec)
    name = solver_contract_name(variant, str(contract))
    if name is None:
        return f"contract {contract!r} unknown to the solver"
    active = active_players(players, rec)
    if declarer not in active or len(active) != 3:
        return "hands of the three active players are not all recorded"
    cards: list[list[str]] = []
    for p in active:
        held = list(hands[p]) if p in tricks else []
        if p == declarer and rec.get("talon") and rec.get("discard"):
            held = [c for c in [*held, *rec["talon"]] if c not in set(rec["discard"])]
        cards.append(held)
    sizes = {len(c) for c in cards if c}
    if len(sizes) != 1:
        return "hands of unequal size after the discard"
    play = rec.get("play") or []
    if play:
        leader_name = play[0][0]
    else:
        i = players.index(rec["dealer"]) if rec.get("dealer") in players else -1
        order = players[i + 1:] + players[: i + 1]
        leader_name = next(p for p in order if p in active and p in tricks)
    if leader_name not in active:
        return f"first lead by {leader_name!r}, who holds no hand"
    masks = tuple(_mask(c) for c in cards)
    return masks, active.index(leader_name), active.index(declarer), name


def analyse_open_hand(conn: duckdb.DuckDBPyConnection) -> OpenHandReport:
    """Solve every Preference deal with all hands not in ``open_hand`` yet and store it."""
    conn.execute(OPEN_HAND_TABLE.ddl)
    rows = conn.execute(
        f"""SELECT d.game_id, d.deal_no, d.variant, g.players, d.record::VARCHAR
            FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
            WHERE list_contains(?, d.variant) AND d.has_cards AND d.declarer IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM {OPEN_HAND} o
                              WHERE o.game_id = d.game_id AND o.deal_no = d.deal_no)
            ORDER BY d.game_id, d.deal_no""", [list(PREFERENCE_VARIANTS)]
    ).fetchall()
    report = OpenHandReport()
    out: list[tuple[str, int, str, int, int | None]] = []
    for game_id, deal_no, variant, players, text in rows:
        rec = json.loads(text)
        placed = position(variant, list(players), rec)
        if isinstance(placed, str):
            report.skipped.append((game_id, deal_no, placed))
            continue
        hands, leader, declarer, name = placed
        c = solver_contract(variant, name)
        try:
            tricks = solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop)
        except ValueError as exc:  # SolverInputError: a position that cannot occur
            report.skipped.append((game_id, deal_no, str(exc)))
            continue
        actual = (rec.get("tricks") or {}).get(rec["declarer"])
        out.append((game_id, deal_no, str(rec["contract"]), int(tricks), actual))
    if out:
        conn.executemany(f"INSERT INTO {OPEN_HAND} VALUES (?, ?, ?, ?, ?)", out)
    report.analysed = len(out)
    return report

