"""Random legal bridge deals with cards, auction and play (bridge.md 2-3).

The variant's one random legal-deal generator (``BridgeSimulator.random_game``): the players call
at random among the legal calls (2.2: a higher bid, a double of the opponents' undoubled bid, a
redouble of a double of their own side's bid, or a pass, weighted towards passing so auctions end)
and play at random among the legal cards (3: follow suit), so every deal passes ``check_deal``.
Seats are the game's players in turn order N, E, S, W; deal ``n`` is board ``n`` in duplicate.
"""

from __future__ import annotations

import random

from model.bridge.auction import run_auction
from model.bridge.contracts import DENOMS, DOUBLE, PASS, REDOUBLE, TRUMP_SUIT
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.seats import board_dealer, board_vulnerable, side_of
from model.cards import DECK_52, format_card, iter_cards
from model.tricks import legal_cards, trick_winner


def _legal_calls(calls: list[tuple[int, str]]) -> list[str]:
    """The calls the next player may make after ``calls`` ((seat, call), dealer first; 2.2):
    pass, the five bids above the last one, a double or a redouble where they are legal."""
    seat = (calls[-1][0] + 1) % 4 if calls else -1
    last = next(((s, c) for s, c in reversed(calls) if c != PASS), None)
    bids = [c for _, c in calls if c not in (PASS, DOUBLE, REDOUBLE)]
    rank = -1
    if bids:
        high = bids[-1]
        rank = 5 * (int(high[0]) - 1) + DENOMS.index(high[1:])
    out = [PASS, *[f"{r // 5 + 1}{DENOMS[r % 5]}" for r in range(rank + 1, 35)][:5]]
    if last is not None and seat >= 0:
        who, call = last
        if call not in (DOUBLE, REDOUBLE) and side_of(who) != side_of(seat):
            out.append(DOUBLE)
        if call == DOUBLE and side_of(who) != side_of(seat):
            out.append(REDOUBLE)
    return out


def random_auction(rng: random.Random, dealer: int) -> list[tuple[int, str]]:
    """A complete random legal auction: (seat, call), dealer first."""
    calls: list[tuple[int, str]] = []
    while True:
        seat = (dealer + len(calls)) % 4
        legal = _legal_calls(calls)
        weights = [4.0 if c == PASS else 1.0 for c in legal]
        calls.append((seat, rng.choices(legal, weights)[0]))
        passes = 0
        for _, c in reversed(calls):
            if c != PASS:
                break
            passes += 1
        if passes == 4 or (passes == 3 and len(calls) > 3):
            return calls


def random_deal(rng: random.Random, game: BridgeGame, deal_no: int) -> BridgeDeal:
    """One random legal deal of ``game``: hands, auction, and the play of a contract."""
    players = game.players
    duplicate = game.variant == "bridge-duplicate"
    cards = list(iter_cards(DECK_52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * i: 13 * i + 13]) for i in range(4)]
    dealer = board_dealer(deal_no) if duplicate else (deal_no - 1) % 4
    calls = random_auction(rng, dealer)
    record: dict[str, object] = {
        "game_id": game.game_id, "deal_no": deal_no, "dealer": players[dealer],
        "hands": {players[s]: [format_card(c) for c in iter_cards(hands[s])] for s in range(4)},
        "auction": [{"player": players[s], "call": c} for s, c in calls],
    }
    if duplicate:
        record.update(board=deal_no, vulnerable=board_vulnerable(deal_no))
    result = run_auction(dealer, [c for _, c in calls])
    if result.contract is None or result.declarer is None:
        return BridgeDeal.model_validate(record)
    declarer, trump = result.declarer, TRUMP_SUIT[result.contract.denom]
    play: list[tuple[str, str]] = []
    won = 0
    leader = (declarer + 1) % 4
    for _ in range(13):
        trick: list[int] = []
        for k in range(4):
            s = (leader + k) % 4
            c = rng.choice(list(iter_cards(legal_cards(hands[s], trick, trump, must_trump=False))))
            hands[s] &= ~(1 << c)
            trick.append(c)
            play.append((players[s], format_card(c)))
        leader = (leader + trick_winner(trick, trump)) % 4
        won += side_of(leader) == side_of(declarer)
    record.update(declarer=players[declarer], contract=str(result.contract), tricks=won,
                  play=play)
    return BridgeDeal.model_validate(record)


def random_game(rng: random.Random, game: BridgeGame, deals: int) -> list[BridgeDeal]:
    """``deals`` random deals of ``game`` (boards 1 to ``deals`` in duplicate)."""
    return [random_deal(rng, game, k + 1) for k in range(deals)]
