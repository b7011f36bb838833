"""Review of a Preference deal (Greek Prefa, Balkan, Swabian) card by card with the open-hand
solver (docs/review.md, docs/solver.md).

The deal becomes a solver position as ``trickbook analyse`` places it (``sim/analysis.py``:
seats, talon and discard, who sits out, the contract's trump, goal and stop). Before each
recorded card the seat to play has every legal card valued by ``best_cards`` (the declarer's
tricks when play ends: all ten tricks in Greek Prefa and Swabian suit games, the Balkan stop at
the defence's fifth trick, balkan.md 6; Bettel's stop at the declarer's first trick, swabian.md 6;
Durchmarsch and Preferans at the declarer's first loss); the card's cost follows
(``rows.card_review``). A position whose value settles every card (a forced card, or a side
that can do no worse) is not searched: every legal card is worth the value after the card
before it (``_settled``). The Greek ``must_overtrump_when_void`` rule
(greek-prefa.md 14) is read from the game's rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.cards import Card, CardSet, iter_cards
from model.tricks import card_index, legal_cards, trick_winner
from sim.analysis import active_players, position, solver_contract
from sim.review.decisions import preference_decisions
from sim.review.rows import CardReview, DealReview, Skipped, card_review
from sim.solver import Contract, Goal, SolverInputError, Stop, best_cards, solve


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
    tricks_left = max(h.bit_count() for h in hands)
    fewest = contract.goal is Goal.FEWEST
    cards: list[CardReview] = []
    start = None
    for no, (player, text) in enumerate(play, start=1):
        seat = seat_of.get(player)
        card = card_index(text)
        try:
            values = _values(left, leader, declarer, contract, overtrump, trick, taken,
                             tricks_left, seat, cards[-1].value_after if cards else None)
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
            tricks_left -= 1
            trick, seats = [], []
    tricks = rec.get("tricks") or {}
    assert start is not None
    review = DealReview(
        game_id=game_id, deal_no=deal_no, variant=variant, declarer=str(rec["declarer"]),
        contract=str(rec["contract"]), fewest=fewest, result=tricks.get(rec["declarer"]),
        value_start=start, value_end=cards[-1].value_after, claimed=False, cards=tuple(cards),
    )
    return replace(review, decisions=tuple(preference_decisions(variant, players, rec, review)))


def _values(
    left: list[CardSet], leader: int, declarer: int, contract: Contract, overtrump: bool,
    trick: list[Card], taken: list[int], tricks_left: int, seat: int | None,
    value: int | None,
) -> dict[Card, int]:
    """Each legal card of ``seat`` -> the declarer's tricks with best play after it; ``value``:
    the position's value when known (the value after the card before)."""
    if seat is None:
        return {}
    allowed = legal_cards(left[seat], trick, contract.trump, must_trump=True,
                          must_overtrump=overtrump)
    if value is None:
        value = solve(left, leader, declarer, contract.trump, contract.goal, stop=contract.stop,
                      trick=trick, taken=(taken[0], taken[1]), must_overtrump=overtrump)
    fewest = contract.goal is Goal.FEWEST
    if _settled(value, allowed, seat == declarer, fewest, taken[0], tricks_left, contract.stop):
        return dict.fromkeys(iter_cards(allowed), value)
    return best_cards(left, leader, declarer, contract.trump, contract.goal, stop=contract.stop,
                      trick=trick, taken=(taken[0], taken[1]), must_overtrump=overtrump)


def _settled(value: int, allowed: CardSet, declaring: bool, fewest: bool, declarer_tricks: int,
             tricks_left: int, stop: Stop | None) -> bool:
    """Is every legal card worth ``value``, the position's value, with no search? So when the
    card is forced, or when ``value`` is already the worst the seat's side can end with: every
    card of a side that wants more is worth at most the position's value, and no card is worth
    less than the declarer's tricks so far (nor more than all the tricks left or the stop)."""
    if allowed & (allowed - 1) == 0:
        return True
    high = declarer_tricks + tricks_left
    if stop is not None and stop.declarer is not None:
        high = min(high, stop.declarer)
    want_high = declaring != fewest
    return value == (declarer_tricks if want_high else high)


__all__ = ["review_preference"]
