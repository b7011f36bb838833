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

House rules: every option of section 14 is played. With ``four_players`` the dealer sits out
(3, 14); with ``first_bidder_by_7d`` the holder of 7D (else 8D) bids and leads first in a game's
first deal and deals next, and a first deal with both in the talon is shuffled again (14); with
``counter_invitation`` R, having passed, forces an invitation when L plays alone and R holds a
defensive trick of his own (6.1 step 4). The bots never concede an ordinary contract
(``concede_any_contract``: legal never to use).
"""

from __future__ import annotations

import random
from typing import Any

from model.cards import ACES, DECK_32, SUIT_MASK, CardSet
from model.greek.auction import HOLD, PASS, TAKE, ladder_bid
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
from model.greek.records import GreekDeal, GreekGame
from sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from sim.bots.evaluate import (
    declarer_tricks,
    defender_tricks,
    denomination_tricks,
    suit_tricks,
)
from sim.bots.play import play_codes
from sim.random_play import greek as random_play
from sim.random_play import random_game as shared_random_game
from sim.seeds import DECK_SEED, Dealer, game_rng
from sim.solver import CONTRACTS, Contract, in_strain, strain_of

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
COUNTER_FROM = 1.0
"""With ``counter_invitation``: R, having passed, forces an invitation when L plays alone and R
expects at least this many defensive tricks of his own (the defence then looks good, and its
tricks become R's, 6.1 step 4)."""
SEVEN_D, EIGHT_D = 16 * 2 + 5, 16 * 2 + 6


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
        if est >= 6.0:
            level = int(est)
            if level > tops[d]:
                level = tops[d]
            if 5 * (level - 6) + d > limit:
                limit = 5 * (level - 6) + d
    return limit, best


def discard_order(full: CardSet) -> list[int]:
    """The cards of a hand, cheapest to discard first: aces last, kings next to last, otherwise
    low cards of the shortest suits first (to make voids for ruffing). One int key per card:
    (ace, king or ace, suit length, rank, card) in that order of weight."""
    lengths = [(full & SUIT_MASK[s]).bit_count() for s in range(4)]
    keys = []
    cards = full
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        cards ^= low
        r = c & 15
        keys.append(((((r == 12) * 2 + (r >= 11)) * 16 + lengths[c >> 4]) * 16 + r) * 64 + c)
    keys.sort()
    return [k & 63 for k in keys]


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


class Discards:
    """The discard and expected tricks of a twelve-card hand (talon taken) for each trump
    (``None``: no-trump), as :func:`discard_for` and ``declarer_tricks`` give them: the two
    cheapest cards are the discard of every trump but a suit they belong to, so one
    ``suit_tricks`` of the hand without them serves all the others. ``keep_all``: a hand game
    (no talon, no discard)."""

    def __init__(self, full: CardSet, keep_all: bool = False) -> None:
        self.full = full
        if keep_all:
            self.order: list[int] = []
            self.base = 0
            self.touched: tuple[int, ...] = ()
        else:
            self.order = discard_order(full)
            self.base = (1 << self.order[0]) | (1 << self.order[1])
            self.touched = (self.order[0] >> 4, self.order[1] >> 4)
        self.shared: tuple[float, ...] | None = None

    def for_trump(self, trump: int | None) -> tuple[CardSet, float]:
        if trump is not None and trump in self.touched:
            disc = discard_for(self.full, trump, self.order)
            return disc, declarer_tricks(self.full & ~disc, trump)
        if self.shared is None:
            self.shared = suit_tricks(self.full & ~self.base)
        return self.base, self.shared[4 if trump is None else trump]


def declare(
    full: CardSet, bid: int, rules: GreekRules, tops: tuple[int, ...] | None = None
) -> tuple[int, int, CardSet, float]:
    """Level, denomination, discard and expected tricks of the declarer's contract: the most
    valuable contract he expects to make, not below ladder index ``bid`` (5); if none, the one
    he falls shortest of. The two cheapest cards are the discard of every denomination but a
    trump suit they belong to, so one ``suit_tricks`` of that hand serves all the others."""
    tops = tops or tuple(_top_level(d, rules) for d in range(5))
    best: tuple[Any, ...] | None = None
    order = discard_order(full)
    base = (1 << order[0]) | (1 << order[1])
    shared = suit_tricks(full & ~base)
    touched = (order[0] >> 4, order[1] >> 4)
    for d in range(5):
        if d != NT and d in touched:
            disc = discard_for(full, d, order)
            est = declarer_tricks(full & ~disc, d)
        else:
            disc, est = base, shared[d]
        top = tops[d]
        level = max(6, min(int(est + DECLARE_MARGIN), top))
        index = 5 * (level - 6) + d
        while index < bid and level < top:
            level += 1
            index += 5
        if index < bid:
            continue
        made = est + DECLARE_MARGIN >= level
        key = (made, index if made else est - level, est)
        if best is None or key > best[0]:
            best = (key, level, d, disc, est)
    assert best is not None  # 10H (index 23) is always reachable
    return best[1], best[2], best[3], best[4]


def bot_auction(
    limits: list[tuple[int, float]], rules: GreekRules, top: int
) -> tuple[list[tuple[int, str]], int, int | None, bool]:
    """The bots' auction (4.2) among three bidders in calling order, first hand first, with
    their ``(limit, best)`` from :func:`bid_limit`: ``(calls as (bidder, call), winner or -1,
    winning ladder index, preliminary)``. It follows the rules module's state machine
    (``model/greek/auction.py``) for the calls the bots make; ``check_deal`` replays every
    simulated auction through that machine (``tests/sim/test_records.py``). Each bidder holds if
    he may and the bid is within his limit, else raises one step within it, else says "I'll take"
    with a marginal hand while nobody has bid, else passes."""
    out = [False, False, False]
    spoken = [False, False, False]
    priority = rules.hold_rule == "seat_priority"
    may_take = rules.preliminary_bid
    high, high_by, high_is_hold, taker = -1, -1, False, -1
    turn = 0
    calls: list[tuple[int, str]] = []
    while True:
        p = turn
        limit, best = limits[p]
        if (
            high >= 0 and not high_is_hold and high_by != p and high <= limit
            and (p < high_by if priority else spoken[0] and spoken[1] and spoken[2])
        ):
            call = HOLD
            high_by, high_is_hold = p, True
        elif high < limit and high < top:
            high += 1
            call = LADDER[high]
            if taker >= 0:
                out[taker] = True  # the preliminary bid now counts as a pass (4.2)
                taker = -1
            high_by, high_is_hold = p, False
        elif may_take and high < 0 and limit < 0 and best >= TAKE_FROM:
            call = TAKE
            taker, may_take = p, False
        else:
            call = PASS
            out[p] = True
        spoken[p] = True
        calls.append((p, call))
        if high == top and not high_is_hold:
            return calls, high_by, high, False
        n_left = 3 - out[0] - out[1] - out[2]
        if n_left == 0:
            return calls, -1, None, False
        if n_left == 1:
            last = out.index(False)
            if last == high_by:
                return calls, last, high, False
            if last == taker:
                return calls, last, None, True
        turn = (turn + 1) % 3
        while out[turn]:
            turn = (turn + 1) % 3


LADDER = tuple(ladder_bid(i) for i in range(25))


def auction_calls(
    active: tuple[str, ...], hands: dict[str, CardSet], rules: GreekRules
) -> tuple[list[dict[str, str]], str | None, int | None, bool]:
    """Run the auction with the bots (4.2): calls, winner, winning ladder index, preliminary."""
    tops = tuple(_top_level(d, rules) for d in range(5))
    top = ladder_index(10, NT) if rules.ten_nt != "forbidden" else ladder_index(10, 3)
    calls, w, bid, prelim = bot_auction([bid_limit(hands[p], rules, tops) for p in active],
                                        rules, top)
    return ([{"player": active[i], "call": c} for i, c in calls],
            active[w] if w >= 0 else None, bid, prelim)


def defence_decisions(
    r_hand: CardSet, l_hand: CardSet, level: int, trump: int | None, rules: GreekRules
) -> tuple[str, str]:
    """Final decisions of R and L (6.1) from their expected tricks against the quotas (6.2);
    with ``counter_invitation`` R, having passed, turns L's alone into his own invitation
    (6.1 step 4: R is recorded as ``invite``, L as ``pass``)."""
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
    if w == "alone" and not plays_r and rules.counter_invitation and est_r >= COUNTER_FROM:
        return "invite", "pass"
    return (w, "pass") if plays_r else ("pass", w)


class GreekSimulator:
    """Plays whole Greek Prefa games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: GreekRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules = rules or GreekRules()
        self.open_hands = play == "dd"
        self.players = ("P1", "P2", "P3", "P4") if rules.four_players else PLAYERS
        self.rules_record = rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = rules.model_dump_json()
        self.tops = tuple(_top_level(d, rules) for d in range(5))
        self.top = ladder_index(10, NT) if rules.ten_nt != "forbidden" else ladder_index(10, 3)
        names = self.players
        self.pj = [jstr(p) for p in names]
        self.play_json = [[f"[{jstr(p)},{CARD_JSON[c]}]" for c in range(64)] for p in names]
        self.call_json = {
            (i, c): '{"call":' + jstr(c) + ',"player":' + jstr(p) + "}"
            for i, p in enumerate(names) for c in (PASS, HOLD, TAKE, *LADDER)
        }

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-greek-{run_seed}-{index:08d}"

    solver_contracts: tuple[Contract, ...] = CONTRACTS
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``)."""

    @staticmethod
    def solver_contract(contract: str) -> str | None:
        """The solver's contract of a recorded one (upper case): its strain (greek-prefa.md 5)."""
        return strain_of(contract)

    @staticmethod
    def contract_code(name: str, played: str) -> str:
        """The played number of tricks in the strain ``name`` (``6H`` and ``S``: ``6S``)."""
        return in_strain(played, name)

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[GreekGame, list[GreekDeal]]:
        """A game under these rules, every choice drawn at random among the legal ones
        (``sim/random_play/greek.py``)."""
        return shared_random_game(rng, GreekGame, random_play.random_game, game_id, VARIANT,
                                  self.players, self.rules, deals)

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        """Simulate game ``index`` of a run: its game line and ``deals`` deals into ``batch``."""
        gid = self.game_id(run_seed, index)
        batch.start_game(VARIANT, gid, self.players, self.rules_record, self.rules_json,
                         keep_lines)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        dealer.prepare(deals, 3, 10)
        seat = 0
        n_players = len(self.players)
        for n in range(deals):
            seat = self.deal(batch, gid, n + 1, seat, dealer, keep_lines) % n_players

    def deal(
        self, batch: Batch, gid: str, deal_no: int, dealer_seat: int, dealer: Dealer,
        keep_lines: bool = False,
    ) -> int:
        """One deal into ``batch``: its canonical record and ``deals_greek`` row. Returns the
        next dealer's seat (the first bidder, greek-prefa.md 3 and 14 ``first_bidder_by_7d``)."""
        rules = self.rules
        n = len(self.players)
        active = [(dealer_seat + i) % n for i in range(1, 4)]  # seats, first hand first (3)
        cards, talon = dealer.deal(3, 10)
        if rules.first_bidder_by_7d and deal_no == 1:
            while talon >> SEVEN_D & 1 and talon >> EIGHT_D & 1:  # both in the talon: redeal
                cards, talon = dealer.deal(3, 10)
            low = SEVEN_D if not talon >> SEVEN_D & 1 else EIGHT_D
            k = next(i for i in range(3) if cards[i] >> low & 1)
            active, cards = active[k:] + active[:k], cards[k:] + cards[:k]
        hands = dict(zip(active, cards, strict=True))
        pj = self.pj
        tops = self.tops
        calls, w, bid, preliminary = bot_auction([bid_limit(c, rules, tops) for c in cards],
                                                 rules, self.top)
        call_json = self.call_json
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[dealer_seat]),
            ("hands", "{" + ",".join(sorted(f"{pj[s]}:{cards_json(hands[s])}" for s in active))
             + "}"),
            ("talon", cards_json(talon)),
            ("auction", "[" + ",".join([call_json[active[i], c] for i, c in calls]) + "]"),
        ]
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_seat, "declarer": None,
            "level": None, "denom": None, "mode": "none", "whister": None,
            "tricks_0": None, "tricks_1": None, "tricks_2": None, "tricks_3": None,
            "four_aces": False, "preliminary": False,
        }
        contract = winner = None
        if w < 0:
            if rules.all_pass == "play_low":
                codes, taken = play_codes(cards, 0, -1, None, fewest=True,
                                          must_overtrump=rules.must_overtrump_when_void,
                                          deck=DECK_32, open_hands=self.open_hands)
                self._played(pairs, flat, active, codes, taken)
        else:
            contract, winner = self._contract(pairs, flat, active, cards, talon, w, bid,
                                              preliminary)
        text = obj(pairs)
        players = self.players
        batch.add_deal_text(VARIANT, text, gid, deal_no, players[dealer_seat],
                            None if winner is None else players[winner], contract, flat,
                            keep_lines)
        return active[0]

    def _contract(
        self, pairs: list[tuple[str, str]], flat: dict[str, Any], active: list[int],
        cards: list[CardSet], talon: CardSet, w: int, bid: int | None, preliminary: bool,
    ) -> tuple[str | None, int]:
        """Talon, discard, contract, defence and play of a deal the bots bid (5-7)."""
        rules = self.rules
        winner = active[w]
        full = cards[w] | talon
        level, denom, disc, est = declare(full, 0 if bid is None else bid, rules, self.tops)
        playing = full & ~disc
        pj = self.pj
        pairs.append(("declarer", pj[winner]))
        pairs.append(("discard", cards_json(disc)))
        flat["declarer"] = winner
        if preliminary:
            pairs.append(("preliminary", "true"))
            flat["preliminary"] = True
            if est + DECLARE_MARGIN < 6:
                pairs.append(("conceded", "true"))
                flat["mode"] = "concede"
                return None, winner
        contract = format_contract(level, denom)
        pairs.append(("contract", f'"{contract}"'))
        flat["level"], flat["denom"] = level, denom
        if rules.four_aces != "none" and playing & ACES == ACES:
            pairs.append(("four_aces", "true"))
            flat["four_aces"] = True
        r, left = (w + 1) % 3, (w + 2) % 3  # R: next after the declarer (6.1)
        trump = None if denom == NT else denom
        dec_r, dec_l = defence_decisions(cards[r], cards[left], level, trump, rules)
        pairs.append(("defence", "{" + ",".join(sorted(
            [f'{pj[active[r]]}:"{dec_r}"', f'{pj[active[left]]}:"{dec_l}"'])) + "}"))
        if dec_r == dec_l == "pass":
            flat["mode"] = "pass"
            return contract, winner
        held = list(cards)
        held[w] = playing
        if dec_r == "alone" or dec_l == "alone":
            keep = (w, r if dec_r == "alone" else left)
            order = [i for i in range(3) if i in keep]  # two-handed, turn order (6.1 step 6)
            flat["mode"], flat["whister"] = "alone", active[keep[1]]
        else:
            order = [0, 1, 2]
            if "invite" in (dec_r, dec_l):
                flat["mode"] = "invite"
                flat["whister"] = active[r if dec_r == "invite" else left]
            else:
                flat["mode"] = "both"
        codes, taken = play_codes([held[i] for i in order], 0, order.index(w), trump,
                                  must_overtrump=rules.must_overtrump_when_void, deck=DECK_32,
                                  open_hands=self.open_hands)
        self._played(pairs, flat, [active[i] for i in order], codes, taken)
        return contract, winner

    def _played(
        self, pairs: list[tuple[str, str]], flat: dict[str, Any], order: list[int],
        codes: list[int], taken: list[int],
    ) -> None:
        pj = self.play_json
        pairs.append(("play", "[" + ",".join([pj[order[x >> 6]][x & 63] for x in codes]) + "]"))
        pairs.append(("tricks", "{" + ",".join(sorted(
            [f"{self.pj[p]}:{taken[i]}" for i, p in enumerate(order)])) + "}"))
        for i, p in enumerate(order):
            flat[f"tricks_{p}"] = taken[i]
