"""Random legal Swabian deals with their cards, auction and play (swabian.md 2-6).

The variant's one random legal-deal generator (``SwabianSimulator.random_game``), for the sample
league, the rule tests and the random-play test: every deal is made by the rules module itself
(auction state machine, shared trick mechanics), so a deal that fails ``check_deal`` is a bug in
one of the two. The players choose at random among their legal calls and cards; the choices are
weighted a little towards passing so the auctions stay short.
"""

from __future__ import annotations

import random
from typing import Any

from model.cards import DECK_32, format_card, iter_cards, rank_of
from model.swabian.auction import PASS, Auction, format_call
from model.swabian.games import TRUMP
from model.swabian.params import SwabianRules
from model.swabian.play import end_of_play
from model.swabian.records import SwabianDeal, SwabianGame
from model.tricks import legal_cards, trick_winner


def _names(cards: int) -> list[str]:
    return [format_card(c) for c in sorted(iter_cards(cards), reverse=True)]


def _pick(rng: random.Random, cards: int) -> int:
    return rng.choice(list(iter_cards(cards)))


def random_deal(
    rng: random.Random,
    game_id: str,
    deal_no: int,
    players: tuple[str, ...],
    dealer: int,
    rules: SwabianRules | None = None,
) -> dict[str, Any]:
    """One canonical deal record (records.md 1.2) with hands, talon, auction, discard and play."""
    rules = rules or SwabianRules()
    deck = list(iter_cards(DECK_32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[10 * i : 10 * i + 10]) for i in range(3)]
    talon = sum(1 << c for c in deck[30:])
    vorhand = (dealer + 1) % 3
    auction = Auction(vorhand, rules, players)
    calls: list[dict[str, str]] = []
    while not auction.over:
        seat = auction.turn
        legal = auction.legal(seat)
        others = [c for c in legal if c != PASS]
        call = PASS if PASS in legal and (not others or rng.random() < 0.55) else rng.choice(others)
        auction.call(seat, call)
        calls.append({"player": players[seat], "call": format_call(call)})
    won = auction.result()
    record: dict[str, Any] = {
        "record": "deal",
        "game_id": game_id,
        "deal_no": deal_no,
        "dealer": players[dealer],
        "hands": {players[i]: _names(hands[i]) for i in range(3)},
        "talon": _names(talon),
        "auction": calls,
    }
    if won.declarer is None or won.game is None:
        return record
    d = won.declarer
    game = won.game if rng.random() < 0.85 else rng.randint(won.game, 7)
    pair = len({rank_of(c) for c in iter_cards(talon)}) == 1
    record.update(
        declarer=players[d],
        contract=str(game),
        hand=won.hand,
        kunstwerk=pair and (not won.hand or rules.kunstwerk_on_hand_game),
    )
    start = list(hands)
    if not won.hand:
        held = hands[d] | talon
        discard = 0
        while discard.bit_count() < 2:
            discard |= 1 << _pick(rng, held & ~discard)
        start[d] = held & ~discard
        record["discard"] = _names(discard)
    contra: dict[str, str] = {}
    for s in range(3):
        if s != d and rng.random() < 0.15:
            contra[players[s]] = "recontra" if rng.random() < 0.3 else "contra"
    if rules.recontra_scope == "all_contra_players" and contra:
        level = rng.choice(["contra", "recontra"])
        contra = {p: level for p in contra}
    if contra:
        record["contra"] = contra
    record["play"], tricks = _random_play(rng, start, vorhand, d, game, players)
    record["tricks"] = {players[i]: tricks[i] for i in range(3)}
    return record


def _random_play(
    rng: random.Random,
    hands: list[int],
    leader: int,
    declarer: int,
    game: int,
    players: tuple[str, ...],
) -> tuple[list[list[str]], list[int]]:
    trump = TRUMP[game]
    left = list(hands)
    play: list[list[str]] = []
    taken = [0, 0, 0]
    winners: list[int] = []
    while len(winners) < end_of_play(game, declarer, winners):
        trick: list[int] = []
        seats: list[int] = []
        for k in range(3):
            s = (leader + k) % 3
            c = _pick(rng, legal_cards(left[s], trick, trump, must_trump=True))
            left[s] ^= 1 << c
            trick.append(c)
            seats.append(s)
            play.append([players[s], format_card(c)])
        leader = seats[trick_winner(trick, trump)]
        winners.append(leader)
        taken[leader] += 1
    return play, taken


def random_game(rng: random.Random, game: SwabianGame, deals: int) -> list[SwabianDeal]:
    """``deals`` random deals of ``game``; the deal passes to Vorhand after each deal (seed 000)."""
    return [
        SwabianDeal.model_validate(random_deal(rng, game.game_id, k + 1, game.players, k % 3,
                                               game.rules))
        for k in range(deals)
    ]
