"""Open-hand tricks per contract: the table ``trickbook analyse`` stores for deals with all hands.

Each game's contracts as the solver sees them (trump suit, goal, early stop):

- Greek Prefa (greek-prefa.md 5, 7) and Russian preferans (russian.md): four suits and no trump
  played for most tricks, all ten tricks played out; misère (Russian) for fewest tricks;
- Balkan preferans (balkan.md "Other games", "Early end"): four suits and Sanac (no trump) stop at
  the defence's fifth trick; Bettel stops at the declarer's first trick; Preferans (all ten) at the
  defence's first trick;
- Swabian Preferanz (swabian.md 3.1, "Play"): four suits played out; Bettel and Durchmarsch (no
  trump) stop at the declarer's first trick won / lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from model.cards import CardSet
from sim.solver.search import BALKAN_STOP, BETTEL_STOP, Goal, Stop, solve


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract for the solver: its name in the table, trump suit (None: no trump), goal and
    early stop."""

    name: str
    trump: int | None
    goal: Goal
    stop: Stop | None = None


SUITS = (("S", 0), ("C", 1), ("D", 2), ("H", 3))

CONTRACTS: tuple[Contract, ...] = (
    *(Contract(n, s, Goal.MOST) for n, s in SUITS),
    Contract("NT", None, Goal.MOST),
    Contract("misere", None, Goal.FEWEST),
)
"""Greek Prefa and Russian preferans: S, C, D, H, NT for most tricks; misère for fewest."""

BALKAN_CONTRACTS: tuple[Contract, ...] = (
    *(Contract(n, s, Goal.MOST, BALKAN_STOP) for n, s in SUITS),
    Contract("sanac", None, Goal.MOST, BALKAN_STOP),
    Contract("bettel", None, Goal.FEWEST, BETTEL_STOP),
    Contract("preferans", None, Goal.ALL),
)
"""Balkan preferans (balkan.md): suits and Sanac stop at the defence's fifth trick."""

SWABIAN_CONTRACTS: tuple[Contract, ...] = (
    *(Contract(n, s, Goal.MOST) for n, s in SUITS),
    Contract("bettel", None, Goal.FEWEST, BETTEL_STOP),
    Contract("durchmarsch", None, Goal.ALL),
)
"""Swabian Preferanz (swabian.md 3.1): Leaves = S, Acorns = C, Bells = D, Hearts = H."""


def strain_of(contract: str) -> str | None:
    """The strain of a contract written ``<tricks><S|C|D|H|NT>`` (greek-prefa.md 5, russian.md
    2), upper case: the solver's contract of that name in ``CONTRACTS``; None for another text."""
    denom = contract.lstrip("0123456789")
    return denom if denom in ("S", "C", "D", "H", "NT") else None


def in_strain(played: str, strain: str) -> str:
    """The contract of ``played``'s tricks in the solver's ``strain`` (``6H`` and ``S``: ``6S``),
    the inverse of :func:`strain_of` at the played level."""
    return played[: len(played) - len(played.lstrip("0123456789"))] + strain


def tricks_per_contract(
    hands: Sequence[CardSet],
    leader: int,
    declarer: int,
    contracts: Sequence[Contract] = CONTRACTS,
) -> dict[str, int]:
    """The declarer's open-hand tricks for each contract, from the same hands and first lead."""
    return {
        c.name: solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop) for c in contracts
    }


def best_contracts(
    hands: Sequence[CardSet],
    leader: int,
    declarer: int,
    contracts: Sequence[Contract],
    known: Mapping[str, int],
) -> tuple[int, tuple[str, ...]]:
    """The best open-hand value among ``known`` (contracts already solved, e.g. the one played)
    and ``contracts`` (all of one goal: the most tricks, or the fewest), and the contracts that
    reach it, ``known`` first. The same answer as ``tricks_per_contract``, with fewer searches:
    a contract is solved exactly only when it ties or beats the best so far; one that does not
    is told by the bound alone (``solve``'s ``floor`` and ``ceiling``)."""
    exact = dict(known)
    fewest = any(c.goal is Goal.FEWEST for c in contracts)
    pick = min if fewest else max
    best = pick(exact.values()) if exact else None
    for c in contracts:
        if c.name in exact:
            continue
        if best is None:
            value = solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop)
        elif fewest:
            value = solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop,
                          ceiling=best + 1)
            if value > best:
                continue
        else:
            value = solve(hands, leader, declarer, c.trump, c.goal, stop=c.stop,
                          floor=best - 1)
            if value < best:
                continue
        exact[c.name] = value
        best = value if best is None else pick(best, value)
    assert best is not None, "no contract to choose from"
    return best, tuple(name for name, value in exact.items() if value == best)
