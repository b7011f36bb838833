"""Seeds and deals: every game of a run gets its own generator, derived from the run's seed and the
game's index alone, so the records do not depend on how the games are split into partitions or
among workers (a partition is a range of games; its games carry their own seeds)."""

from __future__ import annotations

import hashlib
import random

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

    def deal(self, players: int, size: int) -> tuple[list[CardSet], CardSet]:
        rnd = self.rng.random
        cards = sorted(self.cards, key=lambda _c: rnd())
        hands = []
        for i in range(players):
            m = 0
            for c in cards[size * i : size * i + size]:
                m |= 1 << c
            hands.append(m)
        talon = 0
        for c in cards[size * players :]:
            talon |= 1 << c
        return hands, talon
