"""A small database of simulated deals of every reviewed variant (its review, the ``reviewed``
fixture, is built once per session in ``tests/conftest.py``)."""

from __future__ import annotations

from pathlib import Path

from sim.run import Plan, simulate

VARIANTS = ("greek-prefa", "balkan", "swabian", "bridge-duplicate")


def simulated_db(path: Path, games: int = 3, deals: int = 8, play: str = "heuristic",
                 variants: tuple[str, ...] = VARIANTS) -> Path:
    for v in variants:
        simulate(Plan(v, games, deals, seed=11, play=play), db=path, workers=1)
    return path
