"""Random legal Greek Prefa deals: a shuffled deck, a random legal auction, a random legal play
chosen with ``model.tricks.legal_cards`` (greek-prefa.md 3-7).

The variant's one random legal-deal generator (``GreekSimulator.random_game``): the random-play
test, the rule tests (which break its deals) and the fast-path properties draw from it. The
settlement properties draw score-sheet leagues (no cards, :func:`random_league`) under random
house rules, with small kassas so that games reach the floor, the overflow (10) and the end
(11)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from model.cards import ACES, DECK_32, format_card, iter_cards
from model.greek.auction import Auction, AuctionResult, ladder_bid
from model.greek.check import EIGHT_D, SEVEN_D
from model.greek.contracts import DENOMS, NT, allowed
from model.greek.params import GreekRules
from model.greek.play import active_players, defenders, players_in_play
from model.greek.records import GreekDeal, GreekGame
from model.tricks import legal_cards, trick_winner
from sim.random_play import split


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
    by_7d = rules.first_bidder_by_7d and deal_no == 1
    hands, talon = _deal_cards(rng, active, by_7d)
    bidders = _bidders(active, hands) if by_7d else active
    calls, result = _random_auction(rng, bidders, rules)
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
        trump, conceded = _random_contract(rng, record, playing, talon, result, active, rules)
        if conceded:
            return Simulated(GreekDeal.model_validate(record), [])
    elif rules.all_pass == "redeal":
        return Simulated(GreekDeal.model_validate(record), [])
    deal = GreekDeal.model_validate(record)
    order = players_in_play(active, deal, rules)
    if not order:
        return Simulated(deal, [])
    if by_7d:  # the first bidder also leads first (14 ``first_bidder_by_7d``)
        order = tuple(p for p in bidders if p in order)
    record["play"], record["tricks"], legal_at = _random_play(rng, order, playing, trump, rules)
    return Simulated(GreekDeal.model_validate(record), legal_at)


def _deal_cards(rng: random.Random, active: tuple[str, ...], by_7d: bool
                ) -> tuple[dict[str, int], int]:
    """Ten cards to each active player and two to the talon (3); under ``first_bidder_by_7d``
    (14) a first deal with both 7D and 8D in the talon is dealt again."""
    cards = list(iter_cards(DECK_32))
    rng.shuffle(cards)
    while by_7d and {cards[30], cards[31]} == {SEVEN_D, EIGHT_D}:  # both in the talon: redeal
        rng.shuffle(cards)
    hands = {p: sum(1 << c for c in cards[10 * i : 10 * i + 10]) for i, p in enumerate(active)}
    return hands, sum(1 << c for c in cards[30:])


def _random_auction(rng: random.Random, bidders: tuple[str, ...], rules: GreekRules
                    ) -> tuple[list[dict[str, str]], AuctionResult]:
    """Calls drawn among the legal ones (4.2), a pass four times as likely as any other."""
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
    assert auction.result is not None
    return calls, auction.result


def _random_contract(rng: random.Random, record: dict[str, object], playing: dict[str, int],
                     talon: int, result: AuctionResult, active: tuple[str, ...],
                     rules: GreekRules) -> tuple[int | None, bool]:
    """The declarer's part (5, 6.1) written into ``record``: a contract allowed by his bid, two
    cards discarded from hand and talon (``playing`` keeps the rest), four aces claimed or not,
    at times a concession after a preliminary, else the defenders' decisions. Returns the trump
    (None at no trump) and whether the deal was conceded."""
    declarer = result.winner
    assert declarer is not None
    record["declarer"] = declarer
    record["preliminary"] = result.preliminary
    lowest = 0 if result.bid is None else result.bid
    bids = [i for i in range(lowest, 25) if allowed(6 + i // 5, i % 5, rules)]
    index = rng.choice(bids)
    record["contract"] = ladder_bid(index)
    full = playing[declarer] | talon
    first = 1 << _pick(rng, full)
    second = 1 << _pick(rng, full & ~first)
    record["discard"] = _names(first | second)
    playing[declarer] = full & ~(first | second)
    if rules.four_aces != "none" and playing[declarer] & ACES == ACES:
        record["four_aces"] = rng.random() < 0.5
    if result.preliminary and rng.random() < 0.2:
        record["conceded"] = True
        if rng.random() < 0.5:
            del record["contract"]
        return None, True
    r, left = defenders(active, declarer)
    combo = rng.choice([("play", "play"), ("pass", "pass"), ("invite", "pass"), ("alone", "pass")])
    if rng.random() < 0.5:
        combo = (combo[1], combo[0])
    record["defence"] = {r: combo[0], left: combo[1]}
    denom = index % 5
    return (None if denom == NT else denom), False


def _random_play(rng: random.Random, order: tuple[str, ...], playing: dict[str, int],
                 trump: int | None, rules: GreekRules
                 ) -> tuple[list[tuple[str, str]], dict[str, int], list[int]]:
    """Ten tricks, each card drawn among the legal ones (7: follow suit, else trump, overtrump
    when void under ``must_overtrump_when_void``); the winner of a trick leads the next. The
    play, the tricks of each player and the legal set of each card."""
    play: list[tuple[str, str]] = []
    legal_at: list[int] = []
    tricks = dict.fromkeys(order, 0)
    leader = 0
    for _ in range(10):
        trick: list[int] = []
        seats: list[str] = []
        for k in range(len(order)):
            p = order[(leader + k) % len(order)]
            legal = legal_cards(playing[p], trick, trump, must_trump=True,
                                must_overtrump=rules.must_overtrump_when_void)
            c = _pick(rng, legal)
            playing[p] &= ~(1 << c)
            trick.append(c)
            seats.append(p)
            play.append((p, format_card(c)))
            legal_at.append(legal)
        winner = seats[trick_winner(trick, trump)]
        tricks[winner] += 1
        leader = order.index(winner)
    return play, tricks, legal_at


def random_game(rng: random.Random, game: GreekGame, deals: int) -> list[GreekDeal]:
    """``deals`` random deals of ``game``, the deal passing in turn order."""
    ps = game.players
    return [random_deal(rng, game, k + 1, ps[k % len(ps)]).deal for k in range(deals)]


def random_rules(rng: random.Random, four: bool) -> GreekRules:
    """Every option of section 14 and the bookkeeping of 15, small kassas so that games reach
    the floor (8), the overflow (10) and the end (11)."""
    aces = rng.choice(["none", "raise_value", "fixed_chips"])
    return GreekRules(
        initial_kassa=rng.choice([1, 2, 3, 5, 8, 12, 20, 31]),
        ten_nt=rng.choice(["forbidden", "value_11", "value_10"]),
        ten_as_nine=rng.random() < 0.3,
        four_aces=aces,
        four_aces_amount=rng.choice([None, 0, 3, 7]),
        end_at_two_empty=rng.random() < 0.4,
        four_players=four,
        all_pass=rng.choice(["redeal", "play_low"]),
        concede_any_contract=rng.random() < 0.5,
        chip_rounding=rng.choice(["exact_rational", "round_half_up"]),
        concession_pays_sitter=rng.random() < 0.5,
        bookkeeping=rng.choice(["personal_kassa", "personal_kassa", "common_pot"]),
        pot_end=rng.choice(["normal", "unbalanced", "fair"]),
    )


def random_sheet_deal(rng: random.Random, game: GreekGame, deal_no: int) -> GreekDeal:
    """One random legal score-sheet deal (no cards): contract, defence and tricks, or an all-pass,
    a conceded preliminary bid or a conceded contract; the dealer mostly in turn."""
    players, rules = game.players, game.rules
    n = len(players)
    dealer = players[(deal_no - 1) % n] if rng.random() < 0.7 else rng.choice(players)
    active = [p for p in players if not (n == 4 and p == dealer)]
    base = {"game_id": game.game_id, "deal_no": deal_no, "dealer": dealer}
    kind = rng.choices(
        ["all_pass", "prelim", "solo", "pass", "both", "invite", "alone"],
        [1, 1, 1, 2, 8, 3, 3],
    )[0]
    if kind == "all_pass":
        tricks = dict(zip(active, split(rng, 10, 3), strict=True)) if rng.random() < 0.7 else None
        return GreekDeal(**base, tricks=tricks)
    declarer = rng.choice(active)
    i = players.index(declarer)
    order = [players[(i + k) % n] for k in range(1, n)]
    right, left = [p for p in order if p in active and p != declarer]
    if kind == "prelim":
        return GreekDeal(**base, declarer=declarer, preliminary=True, conceded=True)
    level = rng.choice([6, 6, 6, 7, 7, 8, 9, 10])
    denoms = DENOMS if (level < 10 or rules.ten_nt != "forbidden") else DENOMS[:4]
    contract = f"{level}{rng.choice(denoms)}"
    aces = rng.random() < 0.15
    if kind == "solo":
        return GreekDeal(**base, declarer=declarer, contract=contract, conceded=True,
                         four_aces=aces)
    if kind == "pass":
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={right: "pass", left: "pass"})
    t_d = min(10, max(0, level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 1, 2, 3])))
    if kind == "both":
        t_r, t_l = split(rng, 10 - t_d, 2)
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={right: "play", left: "play"},
                         tricks={declarer: t_d, right: t_r, left: t_l})
    whister, passer = (right, left) if rng.random() < 0.5 else (left, right)
    if kind == "invite":
        t_w, t_p = split(rng, 10 - t_d, 2)
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={whister: "invite", passer: "pass"},
                         tricks={declarer: t_d, whister: t_w, passer: t_p})
    return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                     defence={whister: "alone", passer: "pass"},
                     tricks={declarer: t_d, whister: 10 - t_d})


def random_league(
    seed: int, games: int, max_deals: int
) -> tuple[list[GreekGame], list[GreekDeal]]:
    """``games`` games under random rules (:func:`random_rules`), three or four players, of up
    to ``max_deals`` random score-sheet deals each."""
    rng = random.Random(seed)
    out_games: list[GreekGame] = []
    out_deals: list[GreekDeal] = []
    for g in range(games):
        four = rng.random() < 0.4
        names = ("Ana", "Bo", "Cy", "Dee")[: 4 if four else 3]
        game = GreekGame(game_id=f"s{seed}-g{g:03d}", variant="greek-prefa",
                         players=names, rules=random_rules(rng, four))
        out_games.append(game)
        for k in range(rng.randint(0, max_deals)):
            out_deals.append(random_sheet_deal(rng, game, k + 1))
    return out_games, out_deals
