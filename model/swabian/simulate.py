"""Random legal Swabian deals with their cards, auction and play (swabian.md 2-6).

For the sample league and the random-play test: every deal is made by the rules module itself
(auction state machine, shared trick mechanics), so a deal that fails ``check_deal`` is a bug in
one of the two. The players choose at random among their legal calls and cards; the choices are
weighted a little towards passing so the auctions stay short.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import polars as pl

from model.cards import DECK_32, format_card, iter_cards, rank_of
from model.swabian.auction import PASS, Auction, format_call
from model.swabian.frame import SCHEMA
from model.swabian.games import TRUMP
from model.swabian.params import SwabianRules
from model.swabian.play import end_of_play
from model.tricks import legal_cards, trick_winner


def _names(cards: int) -> list[str]:
    return [format_card(c) for c in sorted(iter_cards(cards), reverse=True)]


def _pick(rng: random.Random, cards: int) -> int:
    return rng.choice(list(iter_cards(cards)))


def random_deal(
    rng: random.Random,
    game_id: str,
    deal_no: int,
    players: tuple[str, str, str],
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
    players: tuple[str, str, str],
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


def random_game(
    rng: random.Random,
    game_id: str,
    players: tuple[str, str, str],
    deals: int,
    rules: SwabianRules | None = None,
    **game_fields: Any,
) -> list[dict[str, Any]]:
    """A game line and ``deals`` deals; the deal passes to Vorhand after each deal (seed 000)."""
    rules = rules or SwabianRules()
    lines: list[dict[str, Any]] = [
        {
            "record": "game",
            "game_id": game_id,
            "variant": "swabian",
            "players": list(players),
            "rules": rules.model_dump(exclude_defaults=True),
            **game_fields,
        }
    ]
    for n in range(deals):
        lines.append(random_deal(rng, game_id, n + 1, players, n % 3, rules))
    return lines


def random_frames(
    n: int, n_games: int = 1, seed: int = 1, kunstwerk_units: int = 2
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``games`` and ``deals_swabian`` frames of ``n`` random deals spread over ``n_games`` games,
    consistent with the trick rules of 3.1 and 6 but without cards (for the kernel's tests and
    benchmark): about one deal in ten all-pass, one in five aus den Händen."""
    rng = np.random.default_rng(seed)
    declarer = rng.integers(0, 3, n)
    played = rng.random(n) >= 0.1
    game = rng.integers(2, 8, n)
    hand = (rng.random(n) < 0.2) & played
    t = rng.integers(0, 11, n)
    t = np.where(game == 6, np.minimum(t, 1), t)
    t = np.where(game == 7, np.where(rng.random(n) < 0.5, 10, rng.integers(0, 10, n)), t)
    total = np.where((game == 6) & (t == 1), rng.integers(1, 11, n), 10)
    total = np.where((game == 7) & (t < 10), t + 1, total)
    first = (rng.random(n) * (total - t + 1)).astype(np.int64)
    by_role = [t, first, total - t - first]  # declarer, his left, his right
    cols: dict[str, object] = {
        "game_id": [f"sim-{i % n_games}" for i in range(n)],
        "deal_no": np.arange(n) // n_games + 1,
        "dealer": rng.integers(0, 3, n),
        "declarer": declarer,
        "game": game,
        "hand": hand,
        "kunstwerk": (rng.random(n) < 0.05) & played & ~hand,
    }
    for i in range(3):
        cols[f"tricks_{i}"] = np.choose((i - declarer) % 3, by_role)
        cols[f"contra_{i}"] = np.where(declarer == i, 1, rng.choice([1, 1, 1, 2, 4], n))
    frame = pl.DataFrame(cols).with_columns(_played=pl.Series(played))
    nulls = ["declarer", "game", "tricks_0", "tricks_1", "tricks_2"]
    deals = (
        frame.with_columns(
            pl.when(pl.col("_played")).then(pl.col(c)).otherwise(None).alias(c) for c in nulls
        )
        .drop("_played")
        .cast(SCHEMA)  # type: ignore[arg-type]
    )
    games = pl.DataFrame(
        {
            "game_id": [f"sim-{i}" for i in range(n_games)],
            "players": [[f"A{i}", f"B{i}", f"C{i}"] for i in range(n_games)],
            "rules": [json.dumps({"kunstwerk_units": kunstwerk_units})] * n_games,
        }
    )
    return games, deals
