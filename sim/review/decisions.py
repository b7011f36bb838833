"""Review of decisions against the open-hand answer (docs/review.md, "Decisions").

- ``contract`` (Preference): the declarer's contract against the variant's contracts solved
  open-hand from the same hands and first lead (``tricks_per_contract``,
  ``sim/solver/contracts.py``). The value is the open-hand tricks of each contract; the best are
  the contracts of the played one's goal (most tricks, fewest, all) with the best value; the
  cost is the tricks the choice gives away against them; correct when the contract played makes
  open-hand (greek-prefa.md 5: the tricks bid; balkan.md 4; swabian.md 3.1).
- ``defence`` (Greek, Balkan): each defender's recorded decision against the contract solved
  open-hand with both defenders in: defending (play, invite, alone, whist) is correct when the
  contract fails open-hand, passing when it makes. The tricks of a wrong decision are not
  counted (cost null): the game's payments, not tricks, are at stake.
- ``contract`` (bridge): the contract's double-dummy score for the declaring side (its DD
  tricks, from the review's value before the first card, scored as duplicate, bridge.md 7) against
  par for that side (``scoring.bridge.dd.par_of``); cost in points, correct when not below par.
- ``claim`` (bridge): the claimed tricks against the open-hand value at the claim; cost the
  tricks the declaring side gave away, correct when equal.
"""

from __future__ import annotations

from typing import Any

from model.balkan.contracts import declarer_made
from model.balkan.contracts import parse_contract as balkan_contract
from model.bridge.contracts import parse_contract as bridge_contract
from model.bridge.score import duplicate_score
from model.bridge.seats import NS, is_vulnerable, side_of
from model.greek.contracts import parse_contract as greek_contract
from model.swabian.games import parse_game, won
from model.variants import variant as lookup
from scoring.bridge.dd import deal_vulnerable, par_of, pbn_deal
from sim.analysis import position, solver_contracts
from sim.review.rows import DealReview, DecisionReview
from sim.solver import best_contracts, tricks_per_contract

DEFENDING = frozenset({"play", "invite", "alone", "whist", "half"})
"""Recorded defence decisions that defend the contract (records.md 1.2 ``defence``)."""


def made(variant: str, rec: dict[str, Any], tricks: int) -> bool:
    """Does the declarer make the contract recorded with ``tricks``?"""
    own = lookup(variant).declarer_made
    if own is not None:
        return own(rec, tricks)
    contract = str(rec["contract"])
    if variant == "greek-prefa":
        return tricks >= greek_contract(contract.strip().upper())[0]
    if variant == "balkan":
        return declarer_made(balkan_contract(contract).number, tricks)
    return won(parse_game(contract), bool(rec.get("hand")), tricks)


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
    out = [DecisionReview(
        1, str(rec["declarer"]), "contract", name, names, start, best,
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


def bridge_decisions(players: list[str], rec: dict[str, Any], review: DealReview
                     ) -> list[DecisionReview]:
    """The contract against par, and the claim when the play ended in one."""
    start, end = review.value_start, review.value_end
    assert start is not None and end is not None, "a contract deal has a value at the start"
    seat = {p: i for i, p in enumerate(players)}
    declarer = seat[str(rec["declarer"])]
    contract = bridge_contract(str(rec["contract"]))
    vul = deal_vulnerable(rec)
    side = side_of(declarer)
    dd_score = duplicate_score(contract, start, is_vulnerable(vul, side))
    par_ns, par_contracts = par_of(pbn_deal([rec["hands"][p] for p in players]), vul,
                                   seat[str(rec["dealer"])])
    par = par_ns if side == NS else -par_ns
    out = [DecisionReview(1, str(rec["declarer"]), "contract", str(rec["contract"]),
                          tuple(par_contracts), dd_score, par, max(0, par - dd_score),
                          dd_score >= par)]
    if review.claimed and review.result is not None:
        out.append(DecisionReview(2, str(rec["declarer"]), "claim", str(review.result),
                                  (str(end),), review.result, end,
                                  max(0, end - review.result),
                                  review.result == end))
    return out
