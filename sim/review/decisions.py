"""Review of decisions against the open-hand answer (docs/review.md, "Decisions").

- ``contract`` (Preference): the declarer's contract against the variant's contracts solved
  open-hand from the same hands and first lead (``tricks_per_contract``,
  ``sim/solver/contracts.py``). The value is the open-hand tricks of each contract; the best are
  the contracts of the played one's goal (most tricks, fewest, all) with the best value, each
  written as records write it (``contract_code``: ``6S`` against the ``6H`` played); the
  cost is the tricks the choice gives away against them; correct when the contract played makes
  open-hand (greek-prefa.md 5: the tricks bid; balkan.md 4; swabian.md 3.1).
- ``defence`` (Greek, Balkan): each defender's recorded decision against the contract solved
  open-hand with both defenders in: defending (play, invite, alone, whist) is correct when the
  contract fails open-hand, passing when it makes. The tricks of a wrong decision are not
  counted (cost null): the game's payments, not tricks, are at stake.

What "made" means is the variant's (``Variant.declarer_made``). A bridge deal's decisions (its
contract against par, its claim) are reviewed by ``sim/review/bridge.py``.
"""

from __future__ import annotations

from typing import Any

from model.variants import variant as lookup
from sim.analysis import contract_code, position, solver_contracts
from sim.review.rows import DealReview, DecisionReview
from sim.solver import best_contracts, tricks_per_contract

DEFENDING = frozenset({"play", "invite", "alone", "whist", "half"})
"""Recorded defence decisions that defend the contract (records.md 1.2 ``defence``)."""


def made(variant: str, rec: dict[str, Any], tricks: int) -> bool:
    """Does the declarer make the contract recorded with ``tricks`` (the variant's rule)?"""
    declarer_made = lookup(variant).declarer_made
    assert declarer_made is not None, f"{variant} says when a declarer makes his contract"
    return declarer_made(rec, tricks)


def preference_decisions(variant: str, players: list[str], rec: dict[str, Any],
                         review: DealReview) -> list[DecisionReview]:
    """The declarer's contract and the defenders' decisions of a reviewed Preference deal."""
    start = review.value_start
    assert start is not None, "a contract deal has a value at the start"
    everyone = position(variant, players, {**rec, "play": None,
                                           "tricks": {p: 0 for p in rec.get("hands") or {}}})
    placed = position(variant, players, rec)
    if isinstance(everyone, str) or isinstance(placed, str):
        return []
    hands, leader, declarer, name = placed
    contracts = solver_contracts(variant)
    goal = contracts[name].goal
    others = [c for c in contracts.values() if c.goal is goal and c.name != name]
    best, names = best_contracts(hands, leader, declarer, others, {name: start})
    played = str(rec["contract"])
    out = [DecisionReview(
        1, str(rec["declarer"]), "contract", played,
        tuple(contract_code(variant, n, played) for n in names), start, best,
        abs(best - start), made(variant, rec, start),
    )]
    full = start if everyone[:2] == (hands, leader) else tricks_per_contract(
        everyone[0], everyone[1], everyone[2], [contracts[name]])[name]
    fails = not made(variant, rec, full)
    for player, decision in sorted((rec.get("defence") or {}).items()):
        defends = str(decision) in DEFENDING
        out.append(DecisionReview(
            len(out) + 1, player, "defence", str(decision), ("play" if fails else "pass",),
            full, full, None, defends == fails,
        ))
    return out
