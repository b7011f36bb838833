"""Random legal Balkan deals with cards: auction, talon, discard, defence, kontra and play.

Every choice is drawn among the legal ones (balkan.md 3-6), so each deal must pass
``check_deal``: the variant's one random legal-deal generator (``BalkanSimulator.random_game``),
for the random-play test every game of the project survives (STYLE.md, OpenSpiel), the rule and
settlement properties and the sample league.
"""

from __future__ import annotations

import random
from typing import Any

from model.balkan.auction import Auction, AuctionResult
from model.balkan.check import active_players, defenders_of, first_leader
from model.balkan.contracts import BETL, PIK, Contract, parse_contract, play_over
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.cards import DECK_32, format_card, iter_cards
from model.tricks import legal_cards, trick_winner


def random_deal(rng: random.Random, game: BalkanGame, deal_no: int, dealer: str) -> BalkanDeal:
    """One random legal deal of ``game`` (cards, auction, play) dealt by ``dealer``."""
    rules = game.rules
    order = active_players(game, dealer)
    cards = list(iter_cards(DECK_32))
    rng.shuffle(cards)
    hands = {p: cards[10 * i: 10 * i + 10] for i, p in enumerate(order)}
    talon = cards[30:]
    calls, res = _random_auction(rng, order, rules)
    data: dict[str, Any] = {
        "record": "deal", "game_id": game.game_id, "deal_no": deal_no, "dealer": dealer,
        "hands": {p: [format_card(c) for c in h] for p, h in hands.items()},
        "talon": [format_card(c) for c in talon], "auction": calls,
    }
    if res.winner is None:
        return BalkanDeal.model_validate(data)
    d = res.winner
    contract = parse_contract(rng.choice(sorted(res.allowed)))
    held = {p: sum(1 << c for c in h) for p, h in hands.items()}
    if res.talon:
        full = list(iter_cards(held[d] | sum(1 << c for c in talon)))
        disc = rng.sample(full, 2)
        held[d] = sum(1 << c for c in full if c not in disc)
        data["discard"] = [format_card(c) for c in disc]
    defs = defenders_of(order, d)
    defence = _random_defence(rng, contract.number, defs)
    data.update(declarer=d, contract=contract.code, defence=defence)
    playing = [p for p in defs if defence[p] in ("play", "invite")]
    kontra: dict[str, int] = {}
    if playing and rng.random() < 0.3:
        cap = rules.kontra_max_level or 4
        kontra[rng.choice(playing)] = rng.randint(1, cap)
    pik_plain = contract.number == PIK and not contract.igra and rules.pik_needs_kontra
    if kontra:
        data["kontra"] = kontra
    if set(defence.values()) == {"pass"} or (pik_plain and not kontra):
        return BalkanDeal.model_validate(data)
    in_play = [p for p in order if p == d or defence.get(p) != "pass" or
               "invite" in defence.values()]
    leader = first_leader(order, d, contract.number, in_play, rules)
    data["play"], data["tricks"] = _random_play(rng, in_play, leader, d, contract, held)
    return BalkanDeal.model_validate(data)


def _random_auction(rng: random.Random, order: list[str], rules: BalkanRules
                    ) -> tuple[list[dict[str, str]], AuctionResult]:
    """Calls drawn among the legal ones (balkan.md 3.1-3.2): a pass six times as likely as any
    other, but the opening calls two to three against a bid."""
    a = Auction(order, rules)
    calls: list[dict[str, str]] = []
    while (p := a.to_act()) is not None:
        legal = a.legal_calls()
        weights = [6.0 if c == "pass" else 1.0 for c in legal]
        if a.high is None and not a.hand:
            weights = [2.0 if c == "pass" else 3.0 for c in legal]
        call = rng.choices(legal, weights)[0]
        a.call(p, call)
        calls.append({"player": p, "call": call})
    return calls, a.result()


def _random_defence(rng: random.Random, number: int, defs: list[str]) -> dict[str, str]:
    """The defenders' decisions (5.1): both play a Bettel; otherwise both pass, both play, or
    one plays alone or invites the passer."""
    if number == BETL:
        return dict.fromkeys(defs, "play")
    pick = rng.random()
    if pick < 0.1:
        return dict.fromkeys(defs, "pass")
    if pick < 0.75:
        return dict.fromkeys(defs, "play")
    one = rng.choice(defs)
    return {p: "pass" for p in defs} | {one: rng.choice(["invite", "alone"])}


def _random_play(rng: random.Random, in_play: list[str], leader: str, d: str, contract: Contract,
                 held: dict[str, int]) -> tuple[list[list[str]], dict[str, int]]:
    """Tricks of cards drawn among the legal ones (6: follow suit, else trump), the winner
    leading the next, to the early end (``play_over``): the play and each player's tricks."""
    taken = dict.fromkeys(in_play, 0)
    play: list[list[str]] = []
    turn = leader
    while True:
        trick: list[int] = []
        who: list[str] = []
        for k in range(len(in_play)):
            p = in_play[(in_play.index(turn) + k) % len(in_play)]
            options = list(iter_cards(legal_cards(held[p], trick, contract.trump,
                                                  must_trump=True)))
            c = rng.choice(options)
            held[p] &= ~(1 << c)
            trick.append(c)
            who.append(p)
            play.append([p, format_card(c)])
        turn = who[trick_winner(trick, contract.trump)]
        taken[turn] += 1
        t_d = taken[d]
        if play_over(contract.number, t_d, sum(taken.values()) - t_d, 10):
            return play, taken


def random_game(rng: random.Random, game: BalkanGame, deals: int) -> list[BalkanDeal]:
    """``deals`` random deals, the dealer passing in turn order."""
    ps = list(game.players)
    return [random_deal(rng, game, i + 1, ps[i % len(ps)]) for i in range(deals)]
