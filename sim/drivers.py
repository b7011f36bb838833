"""The simulated variants: name -> driver (``Simulator``), with their house rules.

Each variant's simulator lives in ``sim/<variant>.py`` (its random legal-deal generator in
``sim/random_play/<variant>.py``, behind the driver's ``random_game``) and is registered here with
one line in ``SIMULATORS``; names, aliases and house rules come from the variant
(``model/variants.py``).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from ingest.validate import in_words
from model.balkan.variant import VARIANT as BALKAN
from model.base import DealBase, GameBase
from model.bridge.variant import DUPLICATE as BRIDGE_DUPLICATE
from model.bridge.variant import VARIANT as BRIDGE_RUBBER
from model.cards import DECK_32
from model.greek.variant import VARIANT as GREEK
from model.russian.variant import VARIANT as RUSSIAN
from model.swabian.variant import VARIANT as SWABIAN
from model.variants import UnknownVariant, Variant
from model.variants import variant as lookup
from sim import SimulationError
from sim.balkan import BalkanSimulator
from sim.batch import Batch
from sim.bridge import BridgeSimulator
from sim.greek import GreekSimulator
from sim.russian import RussianSimulator
from sim.solver import Contract
from sim.swabian import SwabianSimulator

PLAYS = ("heuristic", "dd")


class Simulator(Protocol):
    variant: str
    solver_contracts: tuple[Contract, ...]
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``; none for
    bridge, solved by ``scoring/bridge/dd.py``)."""

    def solver_contract(self, contract: str) -> str | None:
        """The solver's name of a recorded contract (upper case), None when it has none."""
        ...

    def contract_code(self, name: str, played: str) -> str:
        """The contract code, as records write it, of the solver's contract ``name`` where
        ``played`` (upper case) was played: the inverse of :meth:`solver_contract`, at the
        played level where the game has levels."""
        ...

    def game_id(self, run_seed: int, index: int) -> str: ...

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None: ...

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[GameBase, Sequence[DealBase]]:
        """The variant's random legal-deal generator (``sim/random_play/<variant>.py``): a game
        under the driver's rules and ``deals`` deals, every choice drawn among the legal ones."""
        ...


SIMULATORS: dict[str, Callable[..., Simulator]] = {
    GREEK.name: GreekSimulator,
    SWABIAN.name: SwabianSimulator,
    BALKAN.name: BalkanSimulator,
    RUSSIAN.name: RussianSimulator,
    BRIDGE_RUBBER.name: partial(BridgeSimulator, BRIDGE_RUBBER.name),
    BRIDGE_DUPLICATE.name: partial(BridgeSimulator, BRIDGE_DUPLICATE.name),
}
"""Variant name -> the driver's constructor, taking the house rules, the play mode and the
driver's own options as keywords (Russian: ``players``, 3 or 4)."""
SIMULATED = tuple(SIMULATORS)
PREFERENCE = tuple(name for name in SIMULATED if lookup(name).deck == DECK_32)
"""The 32-card games: they share the deal stream, the hand evaluation and balance studies."""


def simulated_variant(variant: str) -> Variant:
    """The simulated variant called ``variant`` or one of its aliases (any case)."""
    try:
        found = lookup(variant.strip().lower())
    except UnknownVariant:
        found = None
    if found is None or found.name not in SIMULATORS:
        raise SimulationError(
            f"variant {variant!r} is not simulated; simulated: {', '.join(SIMULATED)}"
        )
    return found


def canonical_name(variant: str) -> str:
    return simulated_variant(variant).name


def simulator(
    variant: str, rules: Mapping[str, Any] | None = None, play: str = "heuristic",
    options: Mapping[str, Any] | None = None,
) -> Simulator:
    """The driver of ``variant`` under ``rules`` (the game line's ``rules`` object; defaults
    when ``None``) with the driver's ``options`` (what is not a house rule, such as the number
    of players). Raises ``SimulationError`` for an unknown variant, play mode, option or bad
    rules."""
    if play not in PLAYS:
        raise SimulationError(f"play {play!r} is not one of {', '.join(PLAYS)}")
    v = simulated_variant(variant)
    try:
        house = v.rules(rules)
    except (ValueError, KeyError) as exc:  # a bad flag value, an unknown preset
        raise SimulationError(f"bad {v.name} rules {dict(rules or {})!r}: {in_words(exc)}"
                              ) from exc
    make = SIMULATORS[v.name]
    offered = list(inspect.signature(make).parameters)[2:]  # after the rules and the play
    if unknown := sorted(set(options or {}) - set(offered)):
        raise SimulationError(
            f"bad {v.name} simulator options {dict(options or {})!r}: {', '.join(unknown)} "
            f"{'is' if len(unknown) == 1 else 'are'} not an option of the {v.name} simulator "
            f"(its options: {', '.join(offered) or 'none'})")
    try:
        return make(house, play, **dict(options or {}))
    except (TypeError, ValueError, KeyError) as exc:  # a bad value
        what = f"simulator options {dict(options)!r}" if options else f"rules {dict(rules or {})!r}"
        raise SimulationError(f"bad {v.name} {what}: {exc}") from exc
