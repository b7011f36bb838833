"""Review of a Preference deal (Greek Prefa, Balkan, Swabian, Russian) card by card with the
open-hand solver (docs/review.md, docs/solver.md).

A contract deal becomes a solver position as ``trickbook analyse`` places it
(``sim/analysis.py``: seats, talon and discard, who sits out, the contract's trump, goal and
stop). Before each recorded card the seat to play has every legal card valued by ``best_cards``
(the declarer's tricks when play ends: all ten tricks in Greek Prefa, Swabian and Russian suit
games, the Balkan stop at the defence's fifth trick, balkan.md 6; Bettel's stop at the
declarer's first trick, swabian.md 6; Durchmarsch and Preferans at the declarer's first loss);
the card's cost follows (``rows.card_review``). A position whose value settles every card (a
forced card, or a side that can do no worse) is not searched: every legal card is worth the
value after the card before it (``_settled``). The Greek ``must_overtrump_when_void`` rule
(greek-prefa.md 14) is read from the game's rules.

A deal nobody declared in a variant that plays it out (``Variant.all_pass_play``: Russian
raspasy, russian.md 7) is valued per player: each card by the tricks of the player who chose
it, all hands open, he playing for his fewest tricks and the two others against him (the
solver's ``Goal.FEWEST`` with him as the declarer); with the talon leads of the variant's
``talon_lead_flag`` (russian.md 4) first hand leads the first tricks in the turned cards' suits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from model.cards import SUIT_MASK, Card, CardSet, iter_cards, parse_card
from model.tricks import card_index, legal_cards, trick_winner
from model.variants import variant as lookup
from sim.analysis import active_players, position, solver_contract
from sim.review.decisions import preference_decisions
from sim.review.rows import SELF, CardReview, DealReview, Skipped, card_review
from sim.solver import (
    Contract,
    Goal,
    SolverInputError,
    Stop,
    TalonLead,
    best_cards,
    solve,
)

ALL_PASS = Contract("all-pass", None, Goal.FEWEST)
"""Raspasy as the solver plays it for one player: no trump, fewest tricks, ten tricks played
(russian.md 4, 7)."""


@dataclass
class _Table:
    """The play so far: the cards each seat holds, the trick on the table and who played to
    it, who leads it, the tricks each seat took."""

    left: list[CardSet]
    leader: int
    trump: int | None
    lead: TalonLead | None = None
    trick: list[Card] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=lambda: [0, 0, 0])

    @property
    def tricks_left(self) -> int:
        """Tricks still to play, the one on the table included."""
        return max(h.bit_count() for h in self.left)

    def allowed(self, seat: int, overtrump: bool) -> CardSet:
        """The cards ``seat`` may play: follow suit, trump if void (``legal_cards``); a talon
        lead in the turned card's suit when he holds it (russian.md 4)."""
        hand = self.left[seat]
        forced = None if self.lead is None or self.trick else self.lead.suit(self.tricks_left)
        if forced is not None:
            return hand & SUIT_MASK[forced] or hand
        return legal_cards(hand, self.trick, self.trump, must_trump=True,
                           must_overtrump=overtrump)

    def play(self, seat: int, card: Card, nactive: int) -> None:
        """Play ``card``; a full trick goes to its winner, who leads the next one, except
        under the talon leads (russian.md 4)."""
        self.left[seat] &= ~(1 << card)
        self.trick.append(card)
        self.seats.append(seat)
        if len(self.trick) < nactive:
            return
        winner = self.seats[trick_winner(self.trick, self.trump)]
        self.taken[winner] += 1
        self.trick, self.seats = [], []
        after = max(h.bit_count() for h in self.left)
        led = None if self.lead is None or not after else self.lead.suit(after)
        self.leader = winner if led is None else self.lead.seat  # type: ignore[union-attr]

    def pair(self, declarer: int) -> tuple[int, int]:
        """Tricks taken by ``declarer`` and by the others."""
        return self.taken[declarer], sum(self.taken) - self.taken[declarer]


def _walk(
    game_id: str, deal_no: int, variant: str, play: list[Any], seat_of: dict[str, int],
    table: _Table, review: Callable[[int, str, int, Card], CardReview | None],
) -> list[CardReview] | Skipped:
    """Every recorded card reviewed in order (``review(no, player, seat, card)``, None for a
    card the seat may not play), or why the deal cannot be."""
    nactive = sum(1 for h in table.left if h)
    cards: list[CardReview] = []
    for no, (player, text) in enumerate(play, start=1):
        seat = seat_of.get(player)
        card = card_index(text)
        try:
            row = None if seat is None else review(no, player, seat, card)
        except SolverInputError as exc:
            return Skipped(game_id, deal_no, variant, f"card {no}: {exc}")
        if seat is None or row is None:
            return Skipped(game_id, deal_no, variant,
                           f"card {no} ({player} {text}) is not a legal card of the seat to play")
        cards.append(row)
        table.play(seat, card, nactive)
    return cards


def review_preference(
    game_id: str, deal_no: int, variant: str, players: list[str], rules: dict[str, Any],
    rec: dict[str, Any],
) -> DealReview | Skipped:
    """The review of one deal record (``rec``: its canonical JSON as a dict), or why not."""
    play = rec.get("play") or []
    game = lookup(variant)
    if rec.get("declarer") is None and game.all_pass_play and play and rec.get("tricks"):
        return review_all_pass(game_id, deal_no, variant, players, rules, rec)
    placed = position(variant, players, rec)
    if isinstance(placed, str) or not play:
        return Skipped(game_id, deal_no, variant, placed if isinstance(placed, str) else "no play")
    hands, leader, declarer, name = placed
    contract = solver_contract(variant, name)
    overtrump = bool(rules.get("must_overtrump_when_void", False))
    fewest = contract.goal is Goal.FEWEST
    table = _Table(list(hands), leader, contract.trump)
    known: list[int | None] = [None]

    def review(no: int, player: str, seat: int, card: Card) -> CardReview | None:
        values = _values(table, seat, declarer, contract, overtrump, known[0])
        if card not in values:
            return None
        row = card_review(no, player, seat == declarer, card, values, fewest)
        known[0] = row.value_after
        return row

    cards = _walk(game_id, deal_no, variant, play, {p: i for i, p in
                  enumerate(active_players(players, rec))}, table, review)
    if isinstance(cards, Skipped):
        return cards
    tricks = rec.get("tricks") or {}
    result = DealReview(
        game_id=game_id, deal_no=deal_no, variant=variant, declarer=str(rec["declarer"]),
        contract=str(rec["contract"]), fewest=fewest, result=tricks.get(rec["declarer"]),
        value_start=cards[0].value_before, value_end=cards[-1].value_after, claimed=False,
        cards=tuple(cards),
    )
    return replace(result, decisions=tuple(preference_decisions(variant, players, rec, result)))


def review_all_pass(
    game_id: str, deal_no: int, variant: str, players: list[str], rules: dict[str, Any],
    rec: dict[str, Any],
) -> DealReview | Skipped:
    """The review of a deal nobody declared, played out every player for himself (raspasy,
    russian.md 7): each card valued for the player who chose it (module docstring)."""
    active = active_players(players, rec)
    if len(active) != 3:
        return Skipped(game_id, deal_no, variant, "hands of the three players are not all recorded")
    hands = [sum(1 << parse_card(c) for c in rec["hands"][p]) for p in active]
    if len({h.bit_count() for h in hands}) != 1:
        return Skipped(game_id, deal_no, variant, "hands of unequal size")
    play = rec["play"]
    first = active.index(play[0][0]) if play[0][0] in active else 0
    table = _Table(hands, first, None, _talon_lead(variant, rules, rec, first, hands))

    def review(no: int, player: str, seat: int, card: Card) -> CardReview | None:
        values = _values(table, seat, seat, ALL_PASS, False, None)
        if card not in values:
            return None
        return replace(card_review(no, player, True, card, values, True), side=SELF)

    cards = _walk(game_id, deal_no, variant, play, {p: i for i, p in enumerate(active)},
                  table, review)
    if isinstance(cards, Skipped):
        return cards
    return DealReview(
        game_id=game_id, deal_no=deal_no, variant=variant, declarer=None, contract=None,
        fewest=True, result=None, value_start=None, value_end=None, claimed=False,
        cards=tuple(cards),
    )


def _talon_lead(variant: str, rules: dict[str, Any], rec: dict[str, Any], first: int,
                hands: list[CardSet]) -> TalonLead | None:
    """The talon leads of all-pass play when the game's rules turn the talon up (russian.md 4):
    first hand leads a trick per talon card, in the record's order of the talon."""
    flag = lookup(variant).talon_lead_flag
    talon = rec.get("talon") or []
    if flag is None or not talon or not getattr(lookup(variant).rules(rules), flag, False):
        return None
    return TalonLead(first, tuple(parse_card(c) >> 4 for c in talon),
                     tricks=hands[first].bit_count())


def _values(
    table: _Table, seat: int, declarer: int, contract: Contract, overtrump: bool,
    value: int | None,
) -> dict[Card, int]:
    """Each legal card of ``seat`` -> the declarer's tricks with best play after it; ``value``:
    the position's value when known (the value after the card before)."""
    taken = table.pair(declarer)
    args: dict[str, Any] = {"stop": contract.stop, "trick": table.trick, "taken": taken,
                            "must_overtrump": overtrump, "talon_lead": table.lead}
    if value is None:
        value = solve(table.left, table.leader, declarer, contract.trump, contract.goal, **args)
    allowed = table.allowed(seat, overtrump)
    if _settled(value, allowed, seat == declarer, contract.goal is Goal.FEWEST, taken[0],
                table.tricks_left, contract.stop):
        return dict.fromkeys(iter_cards(allowed), value)
    return best_cards(table.left, table.leader, declarer, contract.trump, contract.goal,
                      value=value, **args)


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


__all__ = ["review_all_pass", "review_preference"]
