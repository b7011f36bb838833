"""Random legal Greek Prefa deals: a shuffled deck, a random legal auction, a random legal play
chosen with ``model.tricks.legal_cards`` (greek-prefa.md 3-7).

The variant's one random legal-deal generator (``GreekSimulator.random_game``): the random-play
test, the rule tests (which break its deals) and the fast-path properties draw from it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from model.cards import ACES, DECK_32, format_card, iter_cards
from model.greek.auction import Auction, ladder_bid
from model.greek.check import EIGHT_D, SEVEN_D
from model.greek.contracts import NT, allowed
from model.greek.play import active_players, defenders, players_in_play
from model.greek.records import GreekDeal, GreekGame
from model.tricks import legal_cards, trick_winner


@dataclass
class Simulated:
    deal: GreekDeal
    legal: list[int]
    """The legal set at each card of the play (to build an illegal one)."""


def _pick(rng: random.Random, mask: int) -> int:
    return rng.choice(list(iter_cards(mask)))


def _names(mask: int) -> list[str]:
    return [format_card(c) for c in iter_cards(mask)]


def _bidders(active: tuple[str, ...], hands: dict[str, int]) -> tuple[str, ...]:
    """The calling order of a first deal under ``first_bidder_by_7d`` (14): from the holder of
    7D, else of 8D."""
    first = next(p for low in (SEVEN_D, EIGHT_D) for p, m in hands.items() if m >> low & 1)
    i = active.index(first)
    return active[i:] + active[:i]


def random_deal(
    rng: random.Random, game: GreekGame, deal_no: int = 2, dealer: str | None = None
) -> Simulated:
    """One random legal deal (a random dealer unless given) and the legal set of each card."""
    rules = game.rules
    dealer = dealer or rng.choice(game.players)
    active = active_players(game, dealer)
    cards = list(iter_cards(DECK_32))
    rng.shuffle(cards)
    by_7d = rules.first_bidder_by_7d and deal_no == 1
    while by_7d and {cards[30], cards[31]} == {SEVEN_D, EIGHT_D}:  # both in the talon: redeal
        rng.shuffle(cards)
    hands = {p: sum(1 << c for c in cards[10 * i : 10 * i + 10]) for i, p in enumerate(active)}
    talon = sum(1 << c for c in cards[30:])
    bidders = _bidders(active, hands) if by_7d else active
    auction = Auction(bidders, rules)
    calls = []
    while auction.result is None:
        options = auction.legal_calls()
        weights = [4 if c == "pass" else 1 for c in options]
        call = rng.choices(options, weights)[0]
        player = auction.to_speak
        assert player is not None
        calls.append({"player": player, "call": call})
        auction.call(player, call)
    result = auction.result
    record: dict[str, object] = {
        "game_id": game.game_id,
        "deal_no": deal_no,
        "dealer": dealer,
        "hands": {p: _names(m) for p, m in hands.items()},
        "talon": _names(talon),
        "auction": calls,
    }
    playing = dict(hands)
    trump: int | None = None
    if result.winner is not None:
        declarer = result.winner
        record["declarer"] = declarer
        record["preliminary"] = result.preliminary
        lowest = 0 if result.bid is None else result.bid
        bids = [i for i in range(lowest, 25) if allowed(6 + i // 5, i % 5, rules)]
        index = rng.choice(bids)
        denom = index % 5
        record["contract"] = ladder_bid(index)
        full = hands[declarer] | talon
        first = 1 << _pick(rng, full)
        second = 1 << _pick(rng, full & ~first)
        discard_mask = first | second
        record["discard"] = _names(discard_mask)
        playing[declarer] = full & ~discard_mask
        if rules.four_aces != "none" and playing[declarer] & ACES == ACES:
            record["four_aces"] = rng.random() < 0.5
        if result.preliminary and rng.random() < 0.2:
            record["conceded"] = True
            if rng.random() < 0.5:
                del record["contract"]
            return Simulated(GreekDeal.model_validate(record), [])
        r, left = defenders(active, declarer)
        combo = rng.choice(
            [("play", "play"), ("pass", "pass"), ("invite", "pass"), ("alone", "pass")]
        )
        if rng.random() < 0.5:
            combo = (combo[1], combo[0])
        record["defence"] = {r: combo[0], left: combo[1]}
        trump = None if denom == NT else denom
    elif rules.all_pass == "redeal":
        return Simulated(GreekDeal.model_validate(record), [])
    deal = GreekDeal.model_validate(record)
    order = players_in_play(active, deal, rules)
    if not order:
        return Simulated(deal, [])
    if by_7d:  # the first bidder also leads first (14 ``first_bidder_by_7d``)
        order = tuple(p for p in bidders if p in order)
    play: list[tuple[str, str]] = []
    legal_at: list[int] = []
    tricks = dict.fromkeys(order, 0)
    leader = 0
    for _ in range(10):
        trick: list[int] = []
        seats: list[str] = []
        for k in range(len(order)):
            p = order[(leader + k) % len(order)]
            legal = legal_cards(
                playing[p],
                trick,
                trump,
                must_trump=True,
                must_overtrump=rules.must_overtrump_when_void,
            )
            c = _pick(rng, legal)
            playing[p] &= ~(1 << c)
            trick.append(c)
            seats.append(p)
            play.append((p, format_card(c)))
            legal_at.append(legal)
        winner = seats[trick_winner(trick, trump)]
        tricks[winner] += 1
        leader = order.index(winner)
    record["play"] = play
    record["tricks"] = tricks
    return Simulated(GreekDeal.model_validate(record), legal_at)


def random_game(rng: random.Random, game: GreekGame, deals: int) -> list[GreekDeal]:
    """``deals`` random deals of ``game``, the deal passing in turn order."""
    ps = game.players
    return [random_deal(rng, game, k + 1, ps[k % len(ps)]).deal for k in range(deals)]
