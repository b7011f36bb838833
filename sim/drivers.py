"""The simulated variants: name -> driver (``Simulator``), with their house rules.

Greek Prefa (``sim/greek.py``), Swabian Preferanz (``sim/swabian.py``), Balkan
preferans (``sim/balkan.py``) and contract bridge, rubber and duplicate
(``sim/bridge.py``), are simulated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from model.balkan.params import BalkanRules
from model.bridge.params import BridgeRules
from model.greek.params import GreekRules
from model.swabian.params import SwabianRules
from sim import SimulationError
from sim.balkan import BalkanSimulator
from sim.batch import Batch
from sim.bridge import BridgeSimulator
from sim.greek import GreekSimulator
from sim.swabian import SwabianSimulator

PLAYS = ("heuristic", "dd")


class Simulator(Protocol):
    variant: str

    def game_id(self, run_seed: int, index: int) -> str: ...

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None: ...


ALIASES = {"greek": "greek-prefa", "prefa": "greek-prefa", "greek-prefa": "greek-prefa",
           "swabian": "swabian", "preferanz": "swabian", "balkan": "balkan",
           "bridge-rubber": "bridge-rubber", "rubber": "bridge-rubber", "bridge": "bridge-rubber",
           "chicago": "bridge-rubber", "bridge-duplicate": "bridge-duplicate",
           "duplicate": "bridge-duplicate"}
SIMULATED = ("greek-prefa", "swabian", "balkan", "bridge-rubber", "bridge-duplicate")
PREFERENCE = ("greek-prefa", "swabian", "balkan")
"""The 32-card games: they share the deal stream, the hand evaluation and balance studies."""


def canonical_name(variant: str) -> str:
    name = ALIASES.get(variant.strip().lower())
    if name is None:
        raise SimulationError(
            f"variant {variant!r} is not simulated; simulated: {', '.join(SIMULATED)}"
        )
    return name


def simulator(
    variant: str, rules: Mapping[str, Any] | None = None, play: str = "heuristic"
) -> Simulator:
    """The driver of ``variant`` under ``rules`` (the game line's ``rules`` object; defaults
    when ``None``). Raises ``SimulationError`` for an unknown variant, play mode or bad rules."""
    if play not in PLAYS:
        raise SimulationError(f"play {play!r} is not one of {', '.join(PLAYS)}")
    name = canonical_name(variant)
    try:
        if name == "greek-prefa":
            return GreekSimulator(GreekRules.model_validate(dict(rules or {})), play)
        if name == "balkan":
            return BalkanSimulator(_balkan_rules(dict(rules or {})), play)
        if name.startswith("bridge"):
            return BridgeSimulator(name, BridgeRules.model_validate(dict(rules or {})), play)
        return SwabianSimulator(SwabianRules.model_validate(dict(rules or {})), play)
    except ValueError as exc:
        if isinstance(exc, SimulationError):
            raise
        raise SimulationError(f"bad {name} rules {dict(rules or {})!r}: {exc}") from exc


def _balkan_rules(rules: dict[str, Any]) -> BalkanRules:
    """Balkan rules, with a named ``preset`` as the game line allows (model/balkan/records.py)."""
    if "preset" in rules:
        flags = {k: v for k, v in rules.items() if k != "preset"}
        return BalkanRules.preset(str(rules["preset"]), **flags)
    return BalkanRules.model_validate(rules)
