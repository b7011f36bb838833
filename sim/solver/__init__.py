"""Exact open-hand (double-dummy) solver for the Preference games.

Every hand is seen by everybody; the declarer plays to maximise his tricks (or, in misère and
Bettel, to minimise them) and the defenders, as one side, to do the opposite. Play follows the
common rules of the family: follow suit; if void, trump if able in a trump contract; otherwise any
card; no obligation to beat; highest trump, else highest card of the suit led, wins; the winner
leads (greek-prefa.md 7, balkan.md 6, swabian.md 6, russian.md 4).

    >>> from model.cards import parse_cards
    >>> from sim.solver import Goal, solve
    >>> solve((parse_cards(["AS", "KS"]), parse_cards(["QS", "JS"]), parse_cards(["TS", "9S"])),
    ...       leader=0, declarer=0, trump=None, goal=Goal.MOST)
    2

Seats are the indices of ``hands`` in turn order (``hands[i + 1]`` plays after ``hands[i]``). A seat
with an empty hand sits out (two-handed play, greek-prefa.md 6.1 step 6, balkan.md). See
``docs/solver.md`` for the search itself, the stops and the speed.
"""

from __future__ import annotations

from sim.solver._jit import COMPILED
from sim.solver.contracts import (
    BALKAN_CONTRACTS,
    CONTRACTS,
    SWABIAN_CONTRACTS,
    Contract,
    best_contracts,
    in_strain,
    strain_of,
    tricks_per_contract,
)
from sim.solver.engine import SolverInputError, legal
from sim.solver.search import (
    BALKAN_STOP,
    BETTEL_STOP,
    DURCHMARSCH_STOP,
    Goal,
    Stop,
    TalonLead,
    best_cards,
    solve,
)

__all__ = [
    "BALKAN_CONTRACTS",
    "BALKAN_STOP",
    "BETTEL_STOP",
    "COMPILED",
    "CONTRACTS",
    "DURCHMARSCH_STOP",
    "SWABIAN_CONTRACTS",
    "Contract",
    "Goal",
    "SolverInputError",
    "Stop",
    "TalonLead",
    "best_cards",
    "best_contracts",
    "in_strain",
    "legal",
    "solve",
    "strain_of",
    "tricks_per_contract",
]
