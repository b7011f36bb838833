"""Russian settlement: the kernel scan against the per-deal reference, in the same run.

A synthetic league of 1,000,000 deals: 500 random legal games of 50 deals
(``sim/random_play/russian.py``: contracts, every defence, misère, raspasy; 125 games under each
preset, the pool target 100 so that games run their 50 deals), each game repeated under 40 ids
(the scan does the same work for every copy), sorted by ``game_id, deal_no`` as the
``Settlement`` protocol hands it over. It is settled three ways, each timed separately:

- the kernel core on the prepared int columns (what the 20 M deals/s target is about): the scan
  of the running pulya, which writes each deal's pairwise gains as it closes the deal
  (``kernel.scan``), and ``kernel.gains``, which hands them over;
- ``SETTLEMENT.settle``, frames in and frames out;
- the per-deal reference (``reference.score_deal`` and ``reference.result`` deal by deal) on the
  500 distinct games; ``reference.settle`` of those games and the kernel's frames are checked
  equal (25,000 deals, every preset).

Times are CPU times of this process (best of several runs, one thread); the load average is
printed beside them.

Then the property run (:func:`agreement`): for each convention (Sochi, Leningrad, Rostov) at
least ``PROPERTY_DEALS`` (1,000,000) deals from the generator (``random_game``, three or four
players, pool targets 20 to 200), settled by the kernel and by the reference in chunks of about
``CHUNK`` deals; every frame (settlements, transfers, whists, standings) must be equal. The CI
property test (``tests/scoring/russian/test_properties.py``) draws small leagues.
"""

from __future__ import annotations

import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one core (numpy is single-threaded here)

import random
import time

import numpy as np
import polars as pl
from polars.testing import assert_frame_equal

from bench.bench_balkan import _best
from model.russian.frame import deal_row, deals_frame
from model.russian.params import PRESET_FLAGS, preset
from model.russian.records import RussianGame
from scoring.russian import SETTLEMENT, reference
from scoring.russian.frames import RussianSettled, read_rules
from scoring.russian.kernel import columns
from scoring.russian.scan import gains, scan
from sim.random_play.frames import repeated
from sim.random_play.russian import random_game

GAMES, PER_GAME, COPIES = 500, 50, 40
TARGET = 100
CONVENTIONS = ("sochi", "leningrad", "rostov")
PROPERTY_DEALS = int(os.environ.get("BENCH_RUSSIAN_PROPERTY_DEALS", 1_000_000))
"""Deals per convention in the property run (the environment variable makes a short run)."""
CHUNK = 100_000


def league() -> tuple[pl.DataFrame, pl.DataFrame]:
    """``GAMES`` random legal games of ``PER_GAME`` deals, the presets in turn."""
    rng = random.Random(7)
    names = sorted(PRESET_FLAGS)
    games, rows = [], []
    for k in range(GAMES):
        rules = preset(names[k % len(names)], pool_target=TARGET)  # type: ignore[arg-type]
        g = RussianGame(variant="russian", game_id=f"g{k:04d}", players=("A", "B", "C"),
                        rules=rules)
        ds = random_game(rng, g, PER_GAME)
        games.append({"game_id": g.game_id, "players": list(g.players),
                      "rules": g.rules.model_dump_json()})
        rows += [deal_row(g, d) for d in ds]
    return pl.DataFrame(games), deals_frame(rows)


def reference_core(games: pl.DataFrame, deals: pl.DataFrame) -> None:
    """The reference's work per deal: the deal's entries and the settlement of the sheet."""
    info = {g["game_id"]: (len(g["players"]), read_rules(g["rules"]))
            for g in games.iter_rows(named=True)}
    sheets: dict[str, reference.Sheet] = {}
    for row in deals.iter_rows(named=True):
        n, rules = info[row["game_id"]]
        sheet = sheets.setdefault(row["game_id"], reference.Sheet(n))
        if reference.finished(rules, sheet):
            continue
        got = reference.score_deal(rules, sheet, reference.Deal.of(row))
        reference.result(rules, n, got.pool, got.hill, got.whists)


def chunk(rng: random.Random, convention: str, first: int, size: int
          ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Random legal games of one convention until ``size`` deals (ids from ``first`` on)."""
    games, rows = [], []
    k = first
    while len(rows) < size:
        rules = preset(convention, pool_target=rng.choice((20, 50, 100, 200)))  # type: ignore[arg-type]
        game_id = f"{convention}-{k:07d}"
        g = RussianGame(variant="russian", game_id=game_id, rules=rules,
                        players=[f"{game_id}p{i}" for i in range(rng.choice((3, 3, 4)))])
        ds = random_game(rng, g, rng.randint(10, 120))
        games.append({"game_id": g.game_id, "players": list(g.players),
                      "rules": g.rules.model_dump_json()})
        rows += [deal_row(g, d) for d in ds]
        k += 1
    return pl.DataFrame(games), deals_frame(rows)


def equal(games: pl.DataFrame, deals: pl.DataFrame) -> int:
    """Assert the kernel's frames equal the reference's; the settled deal rows compared."""
    fast, slow = SETTLEMENT.settle(games, deals), reference.settle(games, deals)
    assert isinstance(fast, RussianSettled) and isinstance(slow, RussianSettled)
    for name, keys in (("settlements", ["game_id", "deal_no", "seat"]),
                       ("transfers", ["game_id", "deal_no", "payer", "payee"]),
                       ("whists", ["game_id", "deal_no", "writer", "against"]),
                       ("standings", ["game_id", "player"])):
        assert_frame_equal(getattr(fast, name).sort(keys), getattr(slow, name).sort(keys))
    return fast.settlements.select("game_id", "deal_no").unique().height


def agreement(convention: str, total: int = PROPERTY_DEALS, seed: int = 13) -> None:
    """The property run of one convention: kernel == reference on ``total`` generated deals."""
    rng = random.Random(f"{convention}-{seed}")
    deals = games = settled = 0
    t = time.perf_counter()
    while deals < total:
        g, d = chunk(rng, convention, games, min(CHUNK, total - deals))
        settled += equal(g, d)
        deals, games = deals + d.height, games + g.height
    print(f"  {convention:9s} kernel == reference on {deals:,} deals ({games:,} games, "
          f"{settled:,} settled, the rest after their game's end): every frame equal "
          f"({time.perf_counter() - t:.0f} s)", flush=True)


def run() -> None:
    speed()
    print(f"property run: the kernel against the reference on at least {PROPERTY_DEALS:,} "
          "generated deals per convention", flush=True)
    for convention in CONVENTIONS:
        agreement(convention)


def speed() -> None:
    base_games, base_deals = league()
    games, deals = repeated(base_games, base_deals, COPIES)
    n = deals.height
    ids = games["game_id"].to_list()
    rules = [read_rules(r) for r in games["rules"].to_list()]
    players = np.array([len(p) for p in games["players"].to_list()], dtype=np.int64)
    index = pl.DataFrame({"game_id": ids, "_g": np.arange(len(ids), dtype=np.int32)})
    g = deals.join(index, on="game_id")["_g"].to_numpy().astype(np.int64)
    cols = columns(deals, g, rules, players)
    scan(cols)  # compiled (or loaded from the cache) outside the timing
    t_scan = _best(lambda: scan(cols), repeat=15)
    scanned = scan(cols)
    t_gains = _best(lambda: gains(cols, scanned), repeat=5)
    t_kernel = t_scan + t_gains
    t_settle = _best(lambda: SETTLEMENT.settle(games, deals), repeat=2)
    base_deals = base_deals.sort("game_id", "deal_no")
    t_ref = _best(lambda: reference_core(base_games, base_deals), repeat=1)
    a, b = SETTLEMENT.settle(base_games, base_deals), reference.settle(base_games, base_deals)
    for x, y in ((a.settlements, b.settlements), (a.transfers, b.transfers),
                 (a.standings, b.standings)):
        assert_frame_equal(x, y)
    k_rate, s_rate, r_rate = n / t_kernel, n / t_settle, base_deals.height / t_ref
    print(f"{n:,} deals in {len(ids):,} games of {PER_GAME} ({GAMES} distinct, every preset)")
    print(f"  scan (kernel.scan, the gains included): {t_scan * 1e3:6.1f} ms  "
          f"{n / t_scan / 1e6:7.2f} M deals/s")
    print(f"  gains (kernel.gains, the scan's arrays): {t_gains * 1e3:6.3f} ms")
    print(f"  kernel core (scan + gains):    {t_kernel * 1e3:8.1f} ms  "
          f"{k_rate / 1e6:7.2f} M deals/s  (target >= 20)")
    print(f"  settle() frames in/out:        {t_settle * 1e3:8.1f} ms  "
          f"{s_rate / 1e6:7.2f} M deals/s")
    print(f"  reference (score_deal, result): {t_ref * 1e3:7.1f} ms  {r_rate / 1e3:7.1f} k deals/s"
          f"  on {base_deals.height:,} deals; frames equal to the kernel's: True")
    print(f"  ratio kernel core / reference: {k_rate / r_rate:8.0f}x  (target >= 100x)")
    print(f"  ratio settle() / reference:    {s_rate / r_rate:8.0f}x")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"(CPU times of this process, best of several runs, one thread; machine load average "
          f"{load} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    run()
