"""Shared helpers of the simulator tests: simulate games and read the records back through the
variant's own models and validation (records.md 1, the variant's ``check_deal``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from model.base import DealBase, GameBase
from model.variants import variant as lookup
from sim.batch import Batch
from sim.drivers import simulator


def simulate_lines(
    variant: str, games: int, deals: int, seed: int = 1, rules: dict[str, Any] | None = None,
    play: str = "heuristic", first: int = 0, options: dict[str, Any] | None = None,
) -> Batch:
    sim = simulator(variant, rules, play, options)
    batch = Batch()
    for g in range(first, first + games):
        sim.game(seed, g, deals, batch, keep_lines=True)
    return batch


def records(variant: str, batch: Batch) -> Iterator[tuple[int, GameBase, DealBase]]:
    """``(index in the batch's deal columns, game, deal)`` for every deal line."""
    v = lookup(variant)
    game: GameBase | None = None
    i = 0
    for line in batch.lines:
        data = json.loads(line)
        if data["record"] == "game":
            game = v.game_model.model_validate(data)
            continue
        assert game is not None
        yield i, game, v.deal_model.model_validate(data)
        i += 1
