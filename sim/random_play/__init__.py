"""One random legal-deal generator per variant (``sim/random_play/<variant>.py``): every choice of
a deal (cards, auction, defence, play; or the score sheet's entries where the variant has no cards
in its generator) is drawn among the legal ones, so every deal passes the variant's ``check``.

Each variant's simulator exposes its generator as ``random_game(rng, game_id, deals)``
(``sim/drivers.py``); the random-play test and the variant's rule and settlement properties draw
from it."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from model.base import DealBase, GameBase

GameT = TypeVar("GameT", bound=GameBase)
DealT = TypeVar("DealT", bound=DealBase)


def random_game(
    rng: random.Random, game_model: type[GameT],
    deals_of: Callable[[random.Random, GameT, int], list[DealT]],
    game_id: str, variant: str, players: Sequence[str], rules: Any, deals: int,
) -> tuple[GameT, list[DealT]]:
    """A simulator's ``random_game``: the game record (``variant``, ``players``, house rules
    ``rules``) and ``deals`` deals of it from the variant's generator ``deals_of``."""
    game = game_model.model_validate({
        "game_id": game_id, "variant": variant, "players": list(players), "rules": rules,
    })
    return game, deals_of(rng, game, deals)


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` tricks cut at random into ``parts`` counts (each 0 or more), in order."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
