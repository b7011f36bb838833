"""Simulated Swabian Preferanz games: bots bid, take the talon, discard, choose the game, say
Contra / Re-contra and play; every deal is a complete canonical record (swabian.md 2-7).

Decisions (``docs/simulation.md``):

- auction (3.2): a player's limit is the highest game he expects to make with the talon: a suit
  game (2 Laub, 3 Schellen, 4 Herz, 5 Eichel) when his expected tricks with that trump reach the
  tricks required (3.1), Bettel (6) when his hand's misère risk is small enough for the discard to
  fix, Durchmarsch (7) with about ten sure tricks in no-trump and either the first lead or an
  ace in every suit. He holds when he may and the bid is
  within his limit, else bids the lowest legal game within it, else passes. The bots never
  declare aus den Händen.
- game (3.1): the winner discards for each game and plays the highest game he expects to make
  that is not below his bid, else the one he falls shortest of.
- Contra (5): a defender says Contra with about four expected tricks against a suit game; the
  declarer answers Re-contra when he expects two tricks over his requirement.
- play (6): ``bots.play`` (Bettel for fewest tricks, stops after the declarer's first trick in
  Bettel and his first lost trick in Durchmarsch).
"""

from __future__ import annotations

from typing import Any

from model.cards import DECK_32, CardSet
from model.sim.batch import NAME, Batch, names
from model.sim.bots.evaluate import (
    all_tricks_safe,
    declarer_tricks,
    defender_tricks,
    misere_risk,
)
from model.sim.bots.play import play_heuristic, play_open
from model.sim.greek import TALON_ALLOWANCE, discard_for
from model.sim.seeds import DECK_SEED, Dealer, game_rng
from model.swabian.auction import HOLD, PASS, Auction, format_call
from model.swabian.games import BETTEL, DURCHMARSCH, REQUIRED, TRUMP
from model.swabian.params import SwabianRules

VARIANT = "swabian"
PLAYERS = ("P1", "P2", "P3")
BETTEL_RISK = 3
"""Highest misère risk of ten cards with which a player bids Bettel (the discard removes two)."""
DURCHMARSCH_FROM = 9.5
CONTRA_FROM = 4.0
RECONTRA_OVER = 2.0


def _expected(hand: CardSet, game: int) -> float:
    """Expected tricks (suit games), or a pseudo-count for Bettel (10 - risk, made at 10) and
    Durchmarsch (no-trump tricks)."""
    if game == BETTEL:
        return 10.0 - misere_risk(hand)
    return declarer_tricks(hand, TRUMP[game])


def _need(game: int) -> float:
    return 10.0 if game == BETTEL else float(REQUIRED[game])


def bid_limit(hand: CardSet, leads: bool = False) -> int:
    """The highest game the hand bids to (0: none); ``leads``: the hand is Vorhand, who leads the
    first trick (Durchmarsch needs the lead or an ace in every suit)."""
    limit = 0
    for g in (2, 3, 4, 5):
        if declarer_tricks(hand, TRUMP[g]) + TALON_ALLOWANCE >= REQUIRED[g]:
            limit = g
    if misere_risk(hand) <= BETTEL_RISK:
        limit = max(limit, BETTEL)
    if declarer_tricks(hand, None) >= DURCHMARSCH_FROM and all_tricks_safe(hand, leads):
        limit = DURCHMARSCH
    return limit


def bettel_discard(full: CardSet) -> CardSet:
    """The two cards whose removal lowers the misère risk most (greedy, highest first)."""
    disc = 0
    for _ in range(2):
        best, pick = 99, -1
        for c in range(64):
            if full >> c & 1 and not disc >> c & 1:
                r = misere_risk(full & ~disc & ~(1 << c))
                if r < best or (r == best and (c & 15) > (pick & 15)):
                    best, pick = r, c
        disc |= 1 << pick
    return disc


def choose_game(full: CardSet, bid: int, leads: bool = False) -> tuple[int, CardSet]:
    """The game played (not below ``bid``, 3.2) and the discard; ``leads`` as in
    :func:`bid_limit`."""
    best: tuple[Any, ...] | None = None
    for g in range(max(bid, 2), 8):
        disc = bettel_discard(full) if g == BETTEL else discard_for(full, TRUMP[g])
        est = _expected(full & ~disc, g)
        need = _need(g) if g != DURCHMARSCH else DURCHMARSCH_FROM
        made = est >= need and (g != DURCHMARSCH or all_tricks_safe(full & ~disc, leads))
        key = (made, g if made else est - need)
        if best is None or key > best[0]:
            best = (key, g, disc)
    assert best is not None
    return best[1], best[2]


class SwabianSimulator:
    """Plays whole Swabian games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: SwabianRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules or SwabianRules()
        self.play = play_open if play == "dd" else play_heuristic
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-swabian-{run_seed}-{index:08d}"

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        gid = self.game_id(run_seed, index)
        record: dict[str, Any] = {"record": "game", "game_id": gid, "variant": VARIANT,
                                  "players": list(PLAYERS)}
        if self.rules_record:
            record["rules"] = self.rules_record
        batch.add_game(VARIANT, record, self.rules_json)
        if keep_lines:
            batch.add_game_line(record)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        for n in range(deals):
            rec, flat = self.deal(gid, n + 1, n % 3, dealer)
            batch.add_deal(VARIANT, rec, flat, keep_lines)

    def deal(
        self, gid: str, deal_no: int, dealer_seat: int, dealer: Dealer
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        rules = self.rules
        hands, talon = dealer.deal(3, 10)
        vorhand = (dealer_seat + 1) % 3
        limits = [bid_limit(h, s == vorhand) for s, h in enumerate(hands)]
        auction = Auction(vorhand, rules, PLAYERS)
        calls: list[dict[str, str]] = []
        while not auction.over:
            s = auction.turn
            legal = auction.legal(s)
            high = auction.high
            bids = sorted(c[0] for c in legal if isinstance(c, tuple) and not c[1])
            call: str | tuple[int, bool]
            if HOLD in legal and high is not None and high[0] <= limits[s]:
                call = HOLD
            elif bids and bids[0] <= limits[s]:
                call = (bids[0], False)
            elif PASS in legal:
                call = PASS
            else:
                call = (bids[0], False)
            auction.call(s, call)
            calls.append({"player": PLAYERS[s], "call": format_call(call)})
        won = auction.result()
        rec: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": PLAYERS[dealer_seat],
            "hands": {PLAYERS[i]: names(hands[i]) for i in range(3)}, "talon": names(talon),
            "auction": calls,
        }
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_seat, "declarer": None,
            "game": None, "hand": False, "tricks_0": None, "tricks_1": None, "tricks_2": None,
            "contra_0": 1, "contra_1": 1, "contra_2": 1, "kunstwerk": False,
        }
        if won.declarer is None or won.game is None:
            return rec, flat
        d = won.declarer
        full = hands[d] | talon
        game, disc = choose_game(full, won.game, d == vorhand)
        playing = full & ~disc
        ranks = {c & 15 for c in range(64) if talon >> c & 1}
        kunstwerk = len(ranks) == 1
        rec.update(declarer=PLAYERS[d], contract=str(game), discard=names(disc))
        if kunstwerk:
            rec["kunstwerk"] = True
        flat.update(declarer=d, game=game, kunstwerk=kunstwerk)
        trump = TRUMP[game]
        contra: dict[str, str] = {}
        if game <= 5:
            strong = declarer_tricks(playing, trump) >= REQUIRED[game] + RECONTRA_OVER
            for s in range(3):
                if s != d and defender_tricks(hands[s], trump) >= CONTRA_FROM:
                    contra[PLAYERS[s]] = "recontra" if strong else "contra"
                    flat[f"contra_{s}"] = 4 if strong else 2
        if contra:
            rec["contra"] = contra
        held = [playing if s == d else hands[s] for s in range(3)]
        order = [(vorhand + i) % 3 for i in range(3)]
        moves, taken = self.play(
            [held[s] for s in order], 0, order.index(d), trump,
            fewest=game == BETTEL,
            stop_declarer=1 if game == BETTEL else 99,
            stop_defence=1 if game == DURCHMARSCH else 99,
            deck=DECK_32,
        )
        rec["play"] = [[PLAYERS[order[i]], NAME[c]] for i, c in moves]
        rec["tricks"] = {PLAYERS[order[i]]: taken[i] for i in range(3)}
        for i in range(3):
            flat[f"tricks_{order[i]}"] = taken[i]
        return rec, flat


