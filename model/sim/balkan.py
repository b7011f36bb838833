"""Simulated Balkan preferans games: bots bid, take the talon, discard, choose the game, decide
the defence and kontra, and play; every deal is a complete canonical record (balkan.md 3-6).

Decisions (``docs/simulation.md``):

- auction (3.1, 3.2): a player's limit is the highest game he expects to make with the talon: a
  suit game (2 Pik, 3 Karo, 4 Herc, 5 Tref) with six expected tricks in that trump, Betl (6) with
  a hand of small misère risk, Sans (7) with six and a half in no-trump, Preferans (8, with
  ``preferans_bid``) with about ten and an ace in every suit (he never leads first). He says
  ``here`` when he may and the bid is within his limit, else bids the lowest legal number
  within it, else passes. The bots never call hand games (igra).
- game (4): the winner discards for each allowed game and plays the highest one he expects to
  make, else the one he falls shortest of.
- defence (5.1): both defend against Betl; otherwise a defender plays with one and a half
  expected tricks; a lone player invites his partner, or plays alone with three and a half.
- kontra (5.3): a playing defender with four expected tricks says kontra (a chain of one).
- play (6): ``bots.play``; play stops at the defence's fifth trick, at the declarer's first in
  Betl and at the defence's first in Preferans.

The flat ``deals_balkan`` row is taken from the validated record (``model/balkan/frame.py``):
this driver goes through the pydantic model once per deal, unlike the Greek and Swabian ones.
"""

from __future__ import annotations

from typing import Any

from model.balkan.auction import HERE, PASS, Auction
from model.balkan.check import active_players, defenders_of, first_leader
from model.balkan.contracts import BETL, PREFERANS, SANS, TRUMP, parse_contract
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.balkan.variant import VARIANT as BALKAN
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
from model.sim.swabian import bettel_discard

VARIANT = "balkan"
BETL_RISK = 3
SANS_FROM = 6.5
PREFERANS_FROM = 9.5
DEFEND_FROM = 1.5
ALONE_FROM = 3.5
KONTRA_FROM = 4.0


def _expected(hand: CardSet, number: int) -> tuple[float, float]:
    """Expected tricks (or a pseudo-count for Betl) and what is needed for ``number``."""
    if number == BETL:
        return 10.0 - misere_risk(hand), 10.0
    if number == SANS:
        return declarer_tricks(hand, None), SANS_FROM
    if number == PREFERANS:
        return declarer_tricks(hand, None), PREFERANS_FROM
    return declarer_tricks(hand, TRUMP[number]), 6.0


def bid_limit(hand: CardSet, top: int) -> int:
    """The highest game number the hand bids to (0: none)."""
    limit = 0
    for n in range(2, top + 1):
        est, need = _expected(hand, n)
        ok = misere_risk(hand) <= BETL_RISK if n == BETL else est + TALON_ALLOWANCE >= need
        if n == PREFERANS:
            ok = ok and all_tricks_safe(hand, False)  # the player before him leads (6)
        if ok:
            limit = n
    return limit


def choose_game(full: CardSet, allowed: list[int]) -> tuple[int, CardSet]:
    best: tuple[Any, ...] | None = None
    for n in allowed:
        disc = bettel_discard(full) if n == BETL else discard_for(full, TRUMP.get(n))
        est, need = _expected(full & ~disc, n)
        made = est >= need and (n != PREFERANS or all_tricks_safe(full & ~disc, False))
        key = (made, n if made else est - need)
        if best is None or key > best[0]:
            best = (key, n, disc)
    assert best is not None
    return best[1], best[2]


class BalkanSimulator:
    """Plays whole Balkan games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: BalkanRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules or BalkanRules()
        self.play = play_open if play == "dd" else play_heuristic
        self.players = ("P1", "P2", "P3", "P4") if self.rules.four_players else ("P1", "P2", "P3")
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()
        self.top = 8 if self.rules.preferans_bid else 7

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-balkan-{run_seed}-{index:08d}"

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        gid = self.game_id(run_seed, index)
        record: dict[str, Any] = {"record": "game", "game_id": gid, "variant": VARIANT,
                                  "players": list(self.players)}
        if self.rules_record:
            record["rules"] = self.rules_record
        game = BalkanGame.model_validate(record)
        batch.add_game(VARIANT, record, self.rules_json)
        if keep_lines:
            batch.add_game_line(record)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        for n in range(deals):
            rec = self.deal(game, gid, n + 1, self.players[n % len(self.players)], dealer)
            flat = BALKAN.deal_row(game, BalkanDeal.model_validate(rec))
            batch.add_deal(VARIANT, rec, flat, keep_lines)

    def deal(
        self, game: BalkanGame, gid: str, deal_no: int, dealer_name: str, dealer: Dealer
    ) -> dict[str, Any]:
        rules = self.rules
        order = active_players(game, dealer_name)
        cards, talon = dealer.deal(3, 10)
        hands = dict(zip(order, cards, strict=True))
        limits = {p: bid_limit(hands[p], self.top) for p in order}
        a = Auction(order, rules)
        calls: list[dict[str, str]] = []
        while (p := a.to_act()) is not None:
            legal = a.legal_calls()
            bids = sorted(int(c) for c in legal if c.isdigit())
            if HERE in legal and a.high is not None and a.high <= limits[p]:
                call = HERE
            elif bids and bids[0] <= limits[p]:
                call = str(bids[0])
            else:
                call = PASS
            a.call(p, call)
            calls.append({"player": p, "call": call})
        res = a.result()
        rec: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_name,
            "hands": {p: names(hands[p]) for p in order}, "talon": names(talon),
            "auction": calls,
        }
        if res.winner is None:
            return rec
        d = res.winner
        allowed = sorted(parse_contract(c).number for c in res.allowed)
        full = hands[d] | talon
        number, disc = choose_game(full, allowed)
        held = dict(hands)
        held[d] = full & ~disc
        rec["discard"] = names(disc)
        defs = defenders_of(order, d)
        trump = TRUMP.get(number)
        est = {p: defender_tricks(hands[p], trump) for p in defs}
        if number == BETL:
            defence = dict.fromkeys(defs, "play")
        else:
            wants = [p for p in defs if est[p] >= DEFEND_FROM]
            if len(wants) == 2:
                defence = dict.fromkeys(defs, "play")
            elif not wants:
                defence = dict.fromkeys(defs, "pass")
            else:
                w = wants[0]
                defence = dict.fromkeys(defs, "pass")
                defence[w] = "alone" if est[w] >= ALONE_FROM else "invite"
        rec.update(declarer=d, contract=str(number), defence=defence)
        playing = [p for p in defs if defence[p] in ("play", "invite")]
        kontra = {p: 1 for p in playing if number != BETL and est[p] >= KONTRA_FROM}
        if kontra:
            rec["kontra"] = kontra
        pik_plain = number == 2 and rules.pik_needs_kontra
        if set(defence.values()) == {"pass"} or (pik_plain and not kontra):
            return rec
        invited = "invite" in defence.values()
        in_play = [p for p in order if p == d or defence.get(p) != "pass" or invited]
        leader = first_leader(order, d, number, in_play, rules)
        moves, taken = self.play(
            [held[p] for p in in_play], in_play.index(leader), in_play.index(d), trump,
            fewest=number == BETL,
            stop_declarer=1 if number == BETL else 99,
            stop_defence=1 if number == PREFERANS else (99 if number == BETL else 5),
            deck=DECK_32,
        )
        rec["play"] = [[in_play[s], NAME[c]] for s, c in moves]
        rec["tricks"] = {p: taken[i] for i, p in enumerate(in_play)}
        return rec
