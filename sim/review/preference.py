"""Review of a Preference deal (Greek Prefa, Balkan, Swabian) card by card with the open-hand
solver (docs/review.md, docs/solver.md).

The deal becomes a solver position as ``trickbook analyse`` places it (``sim/analysis.py``:
seats, talon and discard, who sits out, the contract's trump, goal and stop). Before each
recorded card the seat to play has every legal card valued by ``best_cards`` (the declarer's
tricks when play ends: all ten tricks in Greek Prefa and Swabian suit games, the Balkan stop at
the defence's fifth trick, balkan.md 6; Bettel's stop at the declarer's first trick, swabian.md 6;
Durchmarsch and Preferans at the declarer's first loss); the card's cost follows
(``rows.card_review``). A forced card (the only legal one) is not searched: the position's
value is the one after the card before it. The Greek ``must_overtrump_when_void`` rule
(greek-prefa.md 14) is read from the game's rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.cards import Card
from model.tricks import card_index, legal_cards, trick_winner
from sim.analysis import active_players, position, solver_contract
from sim.review.decisions import preference_decisions
from sim.review.rows import CardReview, DealReview, Skipped, card_review
from sim.solver import Goal, SolverInputError, best_cards


def review_preference(
    game_id: str, deal_no: int, variant: str, players: list[str], rules: dict[str, Any],
    rec: dict[str, Any],
) -> DealReview | Skipped:
    """The review of one deal record (``rec``: its canonical JSON as a dict), or why not."""
    placed = position(variant, players, rec)
    play = rec.get("play") or []
    if isinstance(placed, str) or not play:
        return Skipped(game_id, deal_no, variant, placed if isinstance(placed, str) else "no play")
    hands, leader, declarer, name = placed
    contract = solver_contract(variant, name)
    overtrump = bool(rules.get("must_overtrump_when_void", False))
    seat_of = {p: i for i, p in enumerate(active_players(players, rec))}
    left = list(hands)
    trick: list[Card] = []
    seats: list[int] = []
    taken = [0, 0]
    nactive = sum(1 for h in hands if h)
    fewest = contract.goal is Goal.FEWEST
    cards: list[CardReview] = []
    start = None
    for no, (player, text) in enumerate(play, start=1):
        seat = seat_of.get(player)
        card = card_index(text)
        allowed = legal_cards(left[seat] if seat is not None else 0, trick, contract.trump,
                              must_trump=True, must_overtrump=overtrump)
        if cards and allowed == 1 << card:  # forced: the value of the position is known
            values = {card: cards[-1].value_after}
        else:
            try:
                values = best_cards(left, leader, declarer, contract.trump, contract.goal,
                                    stop=contract.stop, trick=trick,
                                    taken=(taken[0], taken[1]), must_overtrump=overtrump)
            except SolverInputError as exc:
                return Skipped(game_id, deal_no, variant, f"card {no}: {exc}")
        if seat is None or card not in values:
            return Skipped(game_id, deal_no, variant,
                           f"card {no} ({player} {text}) is not a legal card of the seat to play")
        row = card_review(no, player, seat == declarer, card, values, fewest)
        start = row.value_before if start is None else start
        cards.append(row)
        left[seat] &= ~(1 << card)
        trick.append(card)
        seats.append(seat)
        if len(trick) == nactive:
            leader = seats[trick_winner(trick, contract.trump)]
            taken[0 if leader == declarer else 1] += 1
            trick, seats = [], []
    tricks = rec.get("tricks") or {}
    assert start is not None
    review = DealReview(
        game_id=game_id, deal_no=deal_no, variant=variant, declarer=str(rec["declarer"]),
        contract=str(rec["contract"]), fewest=fewest, result=tricks.get(rec["declarer"]),
        value_start=start, value_end=cards[-1].value_after, claimed=False, cards=tuple(cards),
    )
    return replace(review, decisions=tuple(preference_decisions(variant, players, rec, review)))


__all__ = ["review_preference"]
