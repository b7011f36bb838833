"""One random legal-deal generator per variant (``sim/random_play/<variant>.py``): every choice of
a deal (cards, auction, defence, play; or the score sheet's entries where the variant has no cards
in its generator) is drawn among the legal ones, so every deal passes the variant's ``check``.

Each variant's simulator exposes its generator as ``random_game(rng, game_id, deals)``
(``sim/drivers.py``); the random-play test and the variant's rule and settlement properties draw
from it."""

from __future__ import annotations

import random


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` tricks cut at random into ``parts`` counts (each 0 or more), in order."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
