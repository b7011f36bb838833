"""Simulated Greek Prefa games: bots bid, take the talon, discard, declare, decide the defence
and play; every deal is a complete canonical record (greek-prefa.md 3-7, records.md 1.2).

Decisions (``docs/simulation.md``):

- auction (4.2): each player's limit is the highest contract he expects to make with the talon
  (``bots.evaluate.declarer_tricks`` plus a talon allowance); he holds when he may and the bid is
  within his limit, else raises one step while within it, else passes; a marginal hand (about
  five and a half tricks) says "I'll take" when the preliminary bid is open (``preliminary_bid``);
- talon and contract (5): the winner discards the two cheapest cards for each denomination and
  declares the denomination and level he expects to make, never below his winning bid; a
  preliminary winner without six expected tricks concedes; four aces are announced whenever held
  (14 ``four_aces``);
- defence (6.1, 6.2): R then L whist when their expected defensive tricks reach their quota;
  a lone whister plays alone with a margin over the alone quota, else invites;
- play (7): ``bots.play`` heuristics or open-hand play (``--play dd``).

Not simulated: ``four_players`` and ``first_bidder_by_7d`` (``SimulationError``), the
counter-invitation (legal never to use) and conceding an ordinary contract.
"""

from __future__ import annotations

from typing import Any

from model.cards import ACES, DECK_32, SUIT_MASK, CardSet
from model.greek.auction import HOLD, PASS, TAKE, Auction, ladder_bid
from model.greek.contracts import (
    ALONE_QUOTA,
    BOTH_QUOTA,
    NT,
    TEAM_QUOTA,
    allowed,
    format_contract,
    ladder_index,
    obligation_row,
)
from model.greek.params import GreekRules
from model.sim import SimulationError
from model.sim.batch import NAME, Batch, names
from model.sim.bots.evaluate import declarer_tricks, defender_tricks, denomination_tricks
from model.sim.bots.play import play_heuristic, play_open
from model.sim.seeds import DECK_SEED, Dealer, game_rng

VARIANT = "greek-prefa"
PLAYERS = ("P1", "P2", "P3")
TALON_ALLOWANCE = 0.35
"""Tricks a bidder counts on from the two talon cards he has not seen."""
DECLARE_MARGIN = 0.2
"""A declarer rounds his expected tricks up by this much when he names the level."""
TAKE_FROM = 5.5
"""Expected tricks (with the talon allowance) from which a hand short of six says "I'll take"."""
WHIST_SLACK = 0.3
"""A defender whists when his expected tricks are at least his quota minus this."""
WHIST_FLOOR = 0.6
"""Expected tricks below which a defender never whists, even where his quota is zero (9 and 10
tricks, 6.2): a hand without a defensive trick has nothing to gain but a share of a lost game."""
ALONE_MARGIN = 0.6
"""A lone whister plays alone with this many expected tricks over the alone quota."""
INVITED_HELP = 1.0
"""Tricks a whister expects from an invited partner's hand."""


def check_rules(rules: GreekRules) -> None:
    if rules.four_players:
        raise SimulationError("four_players = true is not simulated (three players only)")
    if rules.first_bidder_by_7d:
        raise SimulationError("first_bidder_by_7d = true is not simulated")


def _top_level(denom: int, rules: GreekRules) -> int:
    return 10 if allowed(10, denom, rules) else 9


def bid_limit(
    hand: CardSet, rules: GreekRules, tops: tuple[int, ...] | None = None
) -> tuple[int, float]:
    """The highest ladder index the hand bids to (-1: none) and its best expected tricks.
    ``tops``: the highest level of each denomination (``_top_level``), when already known."""
    tops = tops or tuple(_top_level(d, rules) for d in range(5))
    limit, best = -1, 0.0
    for d, raw in enumerate(denomination_tricks(hand)):
        est = raw + TALON_ALLOWANCE
        if est > best:
            best = est
        level = int(est)
        if level > tops[d]:
            level = tops[d]
        if level >= 6 and 5 * (level - 6) + d > limit:
            limit = 5 * (level - 6) + d
    return limit, best


def discard_order(full: CardSet) -> list[int]:
    """The cards of a hand, cheapest to discard first: aces last, kings next to last, otherwise
    low cards of the shortest suits first (to make voids for ruffing)."""
    ranked = []
    cards = full
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        cards ^= low
        r = c & 15
        ranked.append((r == 12, r >= 11, (full & SUIT_MASK[c >> 4]).bit_count(), r, c))
    ranked.sort()
    return [k[-1] for k in ranked]


def discard_for(full: CardSet, trump: int | None, order: list[int] | None = None) -> CardSet:
    """The two cheapest cards of a twelve-card hand for a contract in ``trump``: by
    :func:`discard_order`, trumps only when nothing else is left."""
    disc, n = 0, 0
    ordered = order if order is not None else discard_order(full)
    for c in ordered:
        if c >> 4 != trump:
            disc |= 1 << c
            n += 1
            if n == 2:
                return disc
    for c in ordered:
        if c >> 4 == trump and not disc >> c & 1:
            disc |= 1 << c
            n += 1
            if n == 2:
                break
    return disc


def declare(
    full: CardSet, bid: int, rules: GreekRules
) -> tuple[int, int, CardSet, float]:
    """Level, denomination, discard and expected tricks of the declarer's contract: the most
    valuable contract he expects to make, not below ladder index ``bid`` (5); if none, the one
    he falls shortest of."""
    best: tuple[Any, ...] | None = None
    order = discard_order(full)
    for d in range(5):
        trump = None if d == NT else d
        disc = discard_for(full, trump, order)
        est = declarer_tricks(full & ~disc, trump)
        top = _top_level(d, rules)
        level = max(6, min(int(est + DECLARE_MARGIN), top))
        while ladder_index(level, d) < bid and level < top:
            level += 1
        if ladder_index(level, d) < bid:
            continue
        made = est + DECLARE_MARGIN >= level
        key = (made, ladder_index(level, d) if made else est - level, est)
        if best is None or key > best[0]:
            best = (key, level, d, disc, est)
    assert best is not None  # 10H (index 23) is always reachable
    return best[1], best[2], best[3], best[4]


def auction_calls(
    active: tuple[str, ...], hands: dict[str, CardSet], rules: GreekRules
) -> tuple[list[dict[str, str]], str | None, int | None, bool]:
    """Run the auction with the bots (4.2): calls, winner, winning ladder index, preliminary."""
    tops = tuple(_top_level(d, rules) for d in range(5))
    limits = {p: bid_limit(hands[p], rules, tops) for p in active}
    auction = Auction(active, rules)
    calls: list[dict[str, str]] = []
    while auction.result is None:
        p = auction.to_speak
        assert p is not None
        legal = auction.legal_calls()
        limit, best = limits[p]
        nxt = auction.high + 1
        if HOLD in legal and auction.high <= limit:
            call = HOLD
        elif nxt <= limit and ladder_bid(nxt) in legal:
            call = ladder_bid(nxt)
        elif TAKE in legal and limit < 0 and best >= TAKE_FROM:
            call = TAKE
        else:
            call = PASS
        auction.call(p, call)
        calls.append({"player": p, "call": call})
    r = auction.result
    return calls, r.winner, r.bid, r.preliminary


def defence_decisions(
    r_hand: CardSet, l_hand: CardSet, level: int, trump: int | None, rules: GreekRules
) -> tuple[str, str]:
    """Final decisions of R and L (6.1) from their expected tricks against the quotas (6.2)."""
    row = obligation_row(level, rules)
    q_r, q_l = BOTH_QUOTA[row]
    team, alone = TEAM_QUOTA[row], ALONE_QUOTA[row]
    est_r = defender_tricks(r_hand, trump)
    est_l = defender_tricks(l_hand, trump)
    plays_r = est_r >= max(q_r - WHIST_SLACK, WHIST_FLOOR)
    plays_l = est_l >= max(q_l - WHIST_SLACK, WHIST_FLOOR)
    if plays_r and plays_l:
        return "play", "play"
    if not plays_r and not plays_l:
        return "pass", "pass"
    est_w = est_r if plays_r else est_l
    if est_w >= alone + ALONE_MARGIN:
        w = "alone"
    elif est_w + INVITED_HELP >= team - WHIST_SLACK:
        w = "invite"
    else:
        return "pass", "pass"
    return (w, "pass") if plays_r else ("pass", w)


class GreekSimulator:
    """Plays whole Greek Prefa games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: GreekRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules or GreekRules()
        check_rules(self.rules)
        self.play = play_open if play == "dd" else play_heuristic
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-greek-{run_seed}-{index:08d}"

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        """Simulate game ``index`` of a run: its game line and ``deals`` deals into ``batch``."""
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
        """One deal: the canonical record and its ``deals_greek`` row."""
        rules = self.rules
        cards, talon = dealer.deal(3, 10)
        active = tuple(PLAYERS[(dealer_seat + i) % 3] for i in range(1, 4))
        seat = {p: i for i, p in enumerate(PLAYERS)}
        hands = dict(zip(active, cards, strict=True))
        calls, winner, bid, preliminary = auction_calls(active, hands, rules)
        rec: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": PLAYERS[dealer_seat],
            "hands": {p: names(hands[p]) for p in active}, "talon": names(talon),
            "auction": calls,
        }
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_seat, "declarer": None,
            "level": None, "denom": None, "mode": "none", "whister": None,
            "tricks_0": None, "tricks_1": None, "tricks_2": None, "tricks_3": None,
            "four_aces": False, "preliminary": False,
        }
        if winner is None:
            if rules.all_pass == "play_low":
                order = list(active)
                moves, taken = self.play([hands[p] for p in order], 0, -1, None, fewest=True,
                                         must_overtrump=rules.must_overtrump_when_void,
                                         deck=DECK_32)
                self._played(rec, flat, order, moves, taken, seat)
            return rec, flat
        full = hands[winner] | talon
        level, denom, disc, est = declare(full, 0 if bid is None else bid, rules)
        playing = full & ~disc
        rec["declarer"] = winner
        rec["discard"] = names(disc)
        flat["declarer"] = seat[winner]
        if preliminary:
            rec["preliminary"] = True
            flat["preliminary"] = True
            if est + DECLARE_MARGIN < 6:
                rec["conceded"] = True
                flat["mode"] = "concede"
                return rec, flat
        rec["contract"] = format_contract(level, denom)
        flat["level"], flat["denom"] = level, denom
        if rules.four_aces != "none" and playing & ACES == ACES:
            rec["four_aces"] = True
            flat["four_aces"] = True
        i = active.index(winner)
        r, left = active[(i + 1) % 3], active[(i + 2) % 3]
        trump = None if denom == NT else denom
        dec_r, dec_l = defence_decisions(hands[r], hands[left], level, trump, rules)
        rec["defence"] = {r: dec_r, left: dec_l}
        decided = {dec_r, dec_l}
        if decided == {"pass"}:
            flat["mode"] = "pass"
            return rec, flat
        if "alone" in decided:
            w = r if dec_r == "alone" else left
            order = [p for p in active if p in (winner, w)]
            flat["mode"], flat["whister"] = "alone", seat[w]
        else:
            order = list(active)
            if "invite" in decided:
                w = r if dec_r == "invite" else left
                flat["mode"], flat["whister"] = "invite", seat[w]
            else:
                flat["mode"] = "both"
        held = [playing if p == winner else hands[p] for p in order]
        moves, taken = self.play(held, 0, order.index(winner), trump,
                                 must_overtrump=rules.must_overtrump_when_void, deck=DECK_32)
        self._played(rec, flat, order, moves, taken, seat)
        return rec, flat

    @staticmethod
    def _played(
        rec: dict[str, Any], flat: dict[str, Any], order: list[str],
        moves: list[tuple[int, int]], taken: list[int], seat: dict[str, int],
    ) -> None:
        rec["play"] = [[order[s], NAME[c]] for s, c in moves]
        rec["tricks"] = {p: taken[i] for i, p in enumerate(order)}
        for i, p in enumerate(order):
            flat[f"tricks_{seat[p]}"] = taken[i]
