"""The rows a review produces: one per card, one per deal (docs/review.md).

Every value is the declaring side's trick count when play ends, with every hand open and both
sides playing their best from the position on (the open-hand value, docs/solver.md); a card's
cost is what its own side loses by it against its best card, in tricks, in the direction of the
side's goal: the declarer wants most tricks (fewest in misère and Bettel), the defence the
opposite.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from model.cards import Card, format_card

DECLARER = "declarer"
DEFENCE = "defence"
SELF = "self"
"""The side of a card in all-pass play (raspasy): every player plays for himself."""


@dataclass(frozen=True, slots=True)
class CardReview:
    """One recorded card: the position before it valued with best play (``value_before``), the
    position after it (``value_after``), the tricks it cost its side, the cards that were best."""

    card_no: int
    """1-based position of the card in the deal's play."""
    player: str
    """Who chose the card (bridge: the declarer for dummy's cards)."""
    side: str
    """``declarer`` or ``defence`` (bridge: the declaring side or the defending side); ``self``
    in all-pass play, where the values are the player's own tricks."""
    card: str
    value_before: int
    value_after: int
    cost: int
    best_cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """A decision against the open-hand answer (``sim/review/decisions.py``)."""

    decision_no: int
    player: str
    kind: str
    choice: str
    best: tuple[str, ...]
    value_choice: int
    value_best: int
    cost: int | None
    correct: bool


@dataclass(frozen=True, slots=True)
class DealReview:
    """A reviewed deal: its cards, the value before the first card (``value_start``) and after
    the last one reviewed (``value_end``), the recorded result, and whether the play ended in a
    claim (then ``value_end`` is the claim checked open-hand)."""

    game_id: str
    deal_no: int
    variant: str
    declarer: str | None
    """None in all-pass play (raspasy): its cards are valued per player (side ``self``)."""
    contract: str | None
    fewest: bool
    """The declarer plays for fewest tricks (misère, Bettel; every player in raspasy)."""
    result: int | None
    """The declaring side's tricks as recorded."""
    value_start: int | None
    value_end: int | None
    claimed: bool
    cards: tuple[CardReview, ...]
    decisions: tuple[DecisionReview, ...] = ()


@dataclass(frozen=True, slots=True)
class Skipped:
    """A deal that could not be reviewed, with the reason (no play, cards missing ...)."""

    game_id: str
    deal_no: int
    variant: str
    reason: str


def card_review(
    card_no: int, player: str, declaring: bool, card: Card, values: Mapping[Card, int],
    fewest: bool,
) -> CardReview:
    """The review of ``card`` from the open-hand values of every legal card (``values``: card
    -> the declaring side's tricks after it); cards are named as ``format_card`` writes them,
    the best ones highest first. The side of the player wants the most
    tricks for the declarer when it is the declarer's (least in misère / Bettel), the opposite
    for the defence."""
    want_high = declaring != fewest
    best = max(values.values()) if want_high else min(values.values())
    after = values[card]
    return CardReview(
        card_no=card_no, player=player, side=DECLARER if declaring else DEFENCE,
        card=format_card(card),
        value_before=best, value_after=after,
        cost=best - after if want_high else after - best,
        best_cards=tuple(format_card(c) for c in sorted(values, reverse=True)
                         if values[c] == best),
    )


def costs_by_side(review: DealReview) -> tuple[int, int]:
    """Tricks the declaring side and the defence lost against best play, over the cards."""
    decl = sum(c.cost for c in review.cards if c.side == DECLARER)
    return decl, sum(c.cost for c in review.cards) - decl


def invariant_result(review: DealReview) -> int:
    """The result the costs predict: the value at the start, minus the declaring side's costs,
    plus the defence's (in the goal's own direction: misère and Bettel count the other way)."""
    assert review.value_start is not None, "all-pass play: invariant_per_player"
    decl, defence = costs_by_side(review)
    sign = -1 if review.fewest else 1
    return review.value_start - sign * (decl - defence)


def gifts(review: DealReview) -> list[tuple[str, int]]:
    """All-pass play: for each card after a player's first, the tricks the others' cards in
    between gave him: his value after his card before, less his value before this one (never
    negative: the others, all hands open, play against him at best)."""
    out: list[tuple[str, int]] = []
    after: dict[str, int] = {}
    for c in review.cards:
        if c.player in after:
            out.append((c.player, after[c.player] - c.value_before))
        after[c.player] = c.value_after
    return out


def invariant_per_player(review: DealReview) -> dict[str, int]:
    """All-pass play: the tricks of each player the rows predict, his value before his first
    card, plus the costs of his cards, less what the others' cards gave him (``gifts``)."""
    out: dict[str, int] = {}
    for c in review.cards:
        out[c.player] = out.get(c.player, c.value_before) + c.cost
    for player, gift in gifts(review):
        out[player] -= gift
    return out
