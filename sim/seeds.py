"""Seeds and deals: every game of a run gets its own generator, derived from the run's seed and the
game's index alone, so the records do not depend on how the games are split into partitions or
among workers (a partition is a range of games; its games carry their own seeds)."""

from __future__ import annotations

import hashlib
import random

import numpy as np

from model.cards import CardSet, iter_cards

DECK_SEED = "preference-32"
"""The stream name of the 32-card deals: Greek and Swabian games with the same run seed and index
get the same cards, so two variants can be compared on the same deals."""


def game_seed(run_seed: int, variant: str, index: int) -> int:
    """A 64-bit seed for game ``index`` of a run and a named stream (SHA-256 of the three, stable
    across machines and Python versions)."""
    digest = hashlib.sha256(f"{run_seed}\x00{variant}\x00{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def game_rng(run_seed: int, variant: str, index: int) -> random.Random:
    return random.Random(game_seed(run_seed, variant, index))


class Dealer:
    """Shuffles a deck with one generator: ``deal()`` gives ``players`` hands of ``size`` cards
    and the rest as talon. Only the shuffles use the generator (the bots are deterministic), so
    the same seed deals the same cards under any house rules: the basis of paired studies."""

    def __init__(self, rng: random.Random, deck: CardSet) -> None:
        self.rng = rng
        self.cards = list(iter_cards(deck))
        self.bits = [1 << c for c in self.cards]
        self.order = range(len(self.cards))
        self.ready: list[tuple[list[CardSet], CardSet]] = []

    def deal(self, players: int, size: int) -> tuple[list[CardSet], CardSet]:
        """The next deal: ``players`` hands of ``size`` cards and the talon (the rest)."""
        if self.ready:
            return self.ready.pop()
        rnd = self.rng.random
        keys = [rnd() for _ in self.order]  # one draw per card, in deck order
        bits = self.bits
        perm = [bits[i] for i in sorted(self.order, key=keys.__getitem__)]
        hands = [sum(perm[size * i : size * i + size]) for i in range(players)]
        return hands, sum(perm[size * players :])

    def prepare(self, deals: int, players: int, size: int) -> None:
        """Shuffle the next ``deals`` deals at once (numpy): the same draws in the same order and
        the same stable sort as :meth:`deal`, so the same cards; :meth:`deal` hands them out in
        order and shuffles one at a time again once they are used up (a redeal)."""
        if deals <= 1:
            return
        n = len(self.bits)
        rnd = self.rng.random
        keys = np.array([rnd() for _ in range(n * deals)]).reshape(deals, n)
        perm = np.asarray(self.bits, dtype=np.int64)[np.argsort(keys, axis=1, kind="stable")]
        hands = [perm[:, size * i : size * i + size].sum(axis=1).tolist()
                 for i in range(players)]
        talon = perm[:, size * players :].sum(axis=1).tolist()
        out = [([h[k] for h in hands], talon[k]) for k in range(deals)]
        out.reverse()
        self.ready = out
