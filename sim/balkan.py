"""Simulated Balkan preferans games: bots bid, take the talon, discard, choose the game, decide
the defence and kontra, and play; every deal is a complete canonical record (balkan.md 3-6).

Decisions (``docs/simulation.md``):

- auction (3.1, 3.2): a player's limit is the highest game he expects to make with the talon: a
  suit game (2 Pik, 3 Karo, 4 Herc, 5 Tref) with six expected tricks in that trump, Betl (6) with
  a hand of small misère risk, Sans (7) with six and a half in no-trump, Preferans (8, with
  ``preferans_bid``) with about ten and an ace in every suit (he never leads first). He says
  ``here`` when he may and the bid is within his limit, else bids the lowest legal number
  within it, else passes. Hand games (igra, 3.1-3.2): as his first call a player calls igra
  Sanac with a no-trump hand a margin over Sans, igra Betl with a risk-free hand, plain igra
  when a suit game makes six tricks without the talon with a margin (``HAND_MARGIN``); when
  several call plain igra each names the lowest game within his hand's suit games, or passes.
- game (4): the winner discards for each allowed game and plays the highest one he expects to
  make, else the one he falls shortest of; after an igra he keeps his ten cards (no talon).
- defence (5.1): both defend against Betl; otherwise a defender plays with one and a half
  expected tricks; a lone player invites his partner, or plays alone with three and a half.
- kontra (5.3): a playing defender with four expected tricks says kontra (a chain of one).
- play (6): ``bots.play``; play stops at the defence's fifth trick, at the declarer's first in
  Betl and at the defence's first in Preferans.

The canonical record and the flat ``deals_balkan`` row (the one ``model/balkan/frame.py``
derives) are built from the driver's ints, without the pydantic models.
"""

from __future__ import annotations

import random
from typing import Any

from model.balkan.auction import HAND_CONTRACT, HAND_GAMES, HERE, PASS
from model.balkan.check import first_leader
from model.balkan.contracts import BETL, PIK, PREFERANS, SANS, TRUMP
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.cards import DECK_32, CardSet
from sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from sim.bots.evaluate import (
    all_tricks_safe,
    declarer_tricks,
    defender_tricks,
    misere_risk,
    suit_tricks,
)
from sim.bots.play import play_codes
from sim.greek import TALON_ALLOWANCE, Discards
from sim.random_play import balkan as random_play
from sim.random_play import random_game as shared_random_game
from sim.seeds import DECK_SEED, Dealer, game_rng
from sim.solver import BALKAN_CONTRACTS, Contract
from sim.swabian import bettel_discard

VARIANT = "balkan"
BETL_RISK = 3
SANS_FROM = 6.5
PREFERANS_FROM = 9.5
DEFEND_FROM = 1.5
ALONE_FROM = 3.5
KONTRA_FROM = 4.0
HAND_MARGIN = 1.5
"""Expected tricks over a game's requirement with which a player calls it without the talon."""


def _expected(hand: CardSet, number: int) -> tuple[float, float]:
    """Expected tricks (or a pseudo-count for Betl) and what is needed for ``number``."""
    if number == BETL:
        return 10.0 - misere_risk(hand), 10.0
    if number == SANS:
        return declarer_tricks(hand, None), SANS_FROM
    if number == PREFERANS:
        return declarer_tricks(hand, None), PREFERANS_FROM
    return declarer_tricks(hand, TRUMP[number]), 6.0


SOLVER_GAMES = {2: "S", 3: "D", 4: "H", 5: "C", 6: "bettel", 7: "sanac", 8: "preferans"}
"""The solver's contract of each game number (balkan.md 1)."""

SUIT_OF = tuple(int(TRUMP.get(n) or 0) for n in range(6))
"""The trump suit of each suit game 2-5 (balkan.md 3.1) as a plain int, by game number."""


def bid_limit(
    hand: CardSet, top: int, tricks: tuple[float, ...] | None = None, risk: int | None = None
) -> int:
    """The highest game number the hand bids to (0: none); ``tricks``: the hand's
    ``suit_tricks`` and ``risk`` its ``misere_risk`` when already known."""
    t = tricks or suit_tricks(hand)
    nt = t[4] + TALON_ALLOWANCE
    if top >= PREFERANS and nt >= PREFERANS_FROM and all_tricks_safe(hand, False):
        return PREFERANS
    if nt >= SANS_FROM:
        return SANS
    if (misere_risk(hand) if risk is None else risk) <= BETL_RISK:
        return BETL
    for n in (5, 4, 3, 2):
        if t[SUIT_OF[n]] + TALON_ALLOWANCE >= 6.0:
            return n
    return 0


def hand_call(
    hand: CardSet, preferans: bool, tricks: tuple[float, ...] | None = None,
    risk: int | None = None,
) -> tuple[str, int]:
    """The hand game a hand calls as its first call (``""``: none) and the highest suit game it
    makes without the talon (0: none), for naming after several plain igra calls (3.2);
    ``tricks`` and ``risk`` as in :func:`bid_limit`."""
    t = tricks or suit_tricks(hand)
    suit = 0
    for n in (5, 4, 3, 2):
        if t[SUIT_OF[n]] >= 6.0 + HAND_MARGIN:
            suit = n
            break
    nt = t[4]
    if preferans and nt >= PREFERANS_FROM + HAND_MARGIN and all_tricks_safe(hand, False):
        return "preferans", suit
    if nt >= SANS_FROM + HAND_MARGIN:
        return "sans", suit
    if (misere_risk(hand) if risk is None else risk) == 0:
        return "betl", suit
    return ("igra" if suit else ""), suit


def choose_game(full: CardSet, allowed: list[int], hand: bool = False) -> tuple[int, CardSet]:
    """The game played among ``allowed`` and the discard; ``hand``: igra, no talon and no
    discard."""
    best: tuple[Any, ...] | None = None
    discards = Discards(full, keep_all=hand)
    for n in allowed:
        if n == BETL:
            disc = 0 if hand else bettel_discard(full)
            est, need = _expected(full & ~disc, n)
        else:
            disc, est = discards.for_trump(TRUMP.get(n))
            need = SANS_FROM if n == SANS else PREFERANS_FROM if n == PREFERANS else 6.0
        made = est >= need and (n != PREFERANS or all_tricks_safe(full & ~disc, False))
        key = (made, n if made else est - need)
        if best is None or key > best[0]:
            best = (key, n, disc)
    assert best is not None
    return best[1], best[2]


def bot_defence(number: int, defs: list[str], est: dict[str, float]) -> dict[str, str]:
    """The defenders' decisions (5.1), the one on the declarer's left first: both play a Bettel;
    otherwise each plays who expects ``DEFEND_FROM`` tricks; a lone such defender plays alone
    when he expects ``ALONE_FROM``, else invites the passer."""
    if number == BETL:
        return dict.fromkeys(defs, "play")
    wants = [p for p in defs if est[p] >= DEFEND_FROM]
    if len(wants) == 2:
        return dict.fromkeys(defs, "play")
    defence = dict.fromkeys(defs, "pass")
    if wants:
        lone = wants[0]
        defence[lone] = "alone" if est[lone] >= ALONE_FROM else "invite"
    return defence


def bot_auction(
    limits: list[int], calls_of: list[tuple[str, int]], rules: BalkanRules, top: int
) -> tuple[list[tuple[int, str]], int, bool, list[int]]:
    """The bots' auction (3.1-3.2) among three bidders, first hand first: ``(calls as (bidder,
    call), winner or -1, with the talon, the game numbers he may play)``. It follows the rules
    module's machine (``model/balkan/auction.py``: ``here_rule``, ``jump_bids``, igra and the
    naming of games) for the calls the bots make; ``check_deal`` replays every simulated auction
    through that machine. ``calls_of``: each bidder's :func:`hand_call`."""
    auction = _BotAuction(limits, calls_of, rules.here_rule, top)
    while not auction.done:
        p = auction.next_bidder()
        if p < 0:
            break
        auction.call(p, auction.bot_call(p))
    return auction.outcome()


class _BotAuction:
    """The state of :func:`bot_auction` between calls (balkan.md 3.1-3.2)."""

    def __init__(self, limits: list[int], calls_of: list[tuple[str, int]], rule: str,
                 top: int) -> None:
        self.limits, self.calls_of, self.rule, self.top = limits, calls_of, rule, top
        self.out = [False, False, False]
        self.called = [False, False, False]
        self.talon_bid = [False, False, False]
        self.hand: dict[int, int] = {}
        """Bidder -> rank of his igra call (0 plain igra, ``HAND_GAMES``)."""
        self.named: dict[int, int] = {}
        self.naming = False
        self.last_named = 0
        self.privileged = 0
        self.high, self.holder, self.held = 0, -1, False
        self.turn = 0
        self.done = False
        self.calls: list[tuple[int, str]] = []

    def next_bidder(self) -> int:
        """Who calls next, clockwise from the turn (3.2 rule 1), -1 when nobody may: while
        games are named only the igra players (rule 4); once an igra is called, only those
        who have neither called nor bid with the talon (rule 3)."""
        for k in range(3):
            q = (self.turn + k) % 3
            if self.out[q]:
                continue
            if self.naming:
                ok = q in self.hand
            elif self.hand:
                ok = not self.talon_bid[q] and not self.called[q]
            else:
                ok = True
            if ok:
                return q
        return -1

    def bot_call(self, p: int) -> str:
        """The bot's call: its hand game as a first call when it outranks every igra called
        (3.2 rule 3), else the next game it can name (rule 4), else here or the next talon bid
        within its limit (rule 2), else pass."""
        mine, suit = self.calls_of[p]
        best_hand = max(self.hand.values(), default=-1)
        if mine and not self.called[p] and (
            HAND_GAMES[mine] > best_hand or HAND_GAMES[mine] == best_hand == 0
        ):
            return mine
        if self.naming:
            low = self.last_named + 1 if self.last_named else 2
            return f"G{low}" if low <= 5 and low <= suit else PASS
        if self.hand:
            return PASS
        return self._talon_call(p)

    def _talon_call(self, p: int) -> str:
        """Here when ``p`` has priority over the high bidder (``here_rule``, 3.1), else one
        higher than the high bid (2 first), within his limit (3.2 rule 2)."""
        high, holder, rule = self.high, self.holder, self.rule
        lowest = 0
        if not high:
            lowest = 2
        elif not (rule == "alternating" and not self.held and high >= 3 and holder != p):
            lowest = high + 1 if high < self.top else 0
        may_here = high > 0 and holder >= 0 and p != holder and (
            p < holder if rule == "seat_priority"
            else p == self.privileged if rule == "first_bidder_privilege"
            else not self.held and high >= 3
        )
        if may_here and high <= self.limits[p]:
            return HERE
        if lowest and lowest <= self.limits[p]:
            return str(lowest)
        return PASS

    def call(self, p: int, call: str) -> None:
        """Record ``p``'s call and whether it ends the auction (3.2 rule 6)."""
        self.calls.append((p, call))
        self.called[p] = True
        if call == PASS:
            self._pass(p)
        elif call == HERE:
            self.holder, self.held = p, True
            if self.high == self.top:  # holding the top bid ends the auction (3.1)
                self.done = True
                return
        elif call in HAND_GAMES:  # an igra outranks the lower ones (3.1)
            rank = HAND_GAMES[call]
            for q, r in list(self.hand.items()):
                if r < rank:
                    self.out[q] = True
            self.hand[p] = rank
        elif call[0] == "G":
            self.last_named = self.named[p] = int(call[1:])
        else:
            self.high, self.holder, self.held = int(call), p, False
            self.talon_bid[p] = True
        self.turn = (p + 1) % 3
        self._close_round()

    def _pass(self, p: int) -> None:
        """``p`` is out; the first bidder's privilege passes to the next one still in."""
        self.out[p] = True
        if p == self.privileged:
            self.privileged = next(((p + k) % 3 for k in (1, 2) if not self.out[(p + k) % 3]),
                                   -1)

    def _close_round(self) -> None:
        """Whether the auction ends: one igra player left naming (3.2 rule 4); after the igra
        round, the plain igra players name their games, else it ends; without igra, when all
        but the high bidder have passed (rules 6, 7)."""
        out = self.out
        if self.naming:
            self.done = len([q for q in self.hand if not out[q]]) == 1
        elif self.hand:
            if any(not self.called[q] and not out[q] for q in range(3)):
                return
            plain = [q for q in range(3) if self.hand.get(q) == 0 and not out[q]]
            if len(plain) >= 2:
                self.naming, self.turn = True, plain[0]
            else:
                self.done = True
        else:
            n_in = 3 - out[0] - out[1] - out[2]
            self.done = n_in == 0 or (n_in == 1 and self.holder >= 0)

    def outcome(self) -> tuple[list[tuple[int, str]], int, bool, list[int]]:
        """The winner and the games he may play: an igra's game (3.1), the game he named
        (3.2 rule 4), any game without the talon for a lone plain igra (rule 5), the high bid
        or higher with the talon; nobody when all passed (rule 7)."""
        calls, top = self.calls, self.top
        if self.hand:
            w = next(q for q in self.hand if not self.out[q])
            rank = self.hand[w]
            if rank > 0:
                return calls, w, False, [int(HAND_CONTRACT[rank][1:])]
            if w in self.named:
                return calls, w, False, [self.named[w]]
            return calls, w, False, list(range(2, top + 1))
        if self.holder < 0 or not self.high:
            return calls, -1, True, []
        return calls, self.holder, True, list(range(self.high, top + 1))


class BalkanSimulator:
    """Plays whole Balkan games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: BalkanRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules or BalkanRules()
        self.open_hands = play == "dd"
        self.players = ("P1", "P2", "P3", "P4") if self.rules.four_players else ("P1", "P2", "P3")
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()
        self.top = 8 if self.rules.preferans_bid else 7
        self.seat = {p: i for i, p in enumerate(self.players)}
        ps = list(self.players)
        self.orders = {p: (ps[i + 1:] + ps[: i + 1])[:3] for i, p in enumerate(ps)}
        self.sorted_orders = {p: sorted(o) for p, o in self.orders.items()}
        self.call_json: dict[tuple[str, str], str] = {}
        self.pj = {p: jstr(p) for p in self.players}
        self.play_json = {p: [f"[{jstr(p)},{CARD_JSON[c]}]" for c in range(64)]
                          for p in self.players}

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-balkan-{run_seed}-{index:08d}"

    solver_contracts: tuple[Contract, ...] = BALKAN_CONTRACTS
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``)."""

    @staticmethod
    def solver_contract(contract: str) -> str | None:
        """The solver's contract of a recorded one (upper case; ``G`` names a game after igra,
        balkan.md 1, 3.2): 2-5 their trumps, 6 ``bettel``, 7 ``sanac``, 8 ``preferans``."""
        digits = contract.removeprefix("G")
        return SOLVER_GAMES.get(int(digits)) if digits.isdigit() else None

    @staticmethod
    def contract_code(name: str, played: str) -> str:
        """The game number of the solver's ``name``, after igra (``G``) as the one played."""
        number = next(n for n, game in SOLVER_GAMES.items() if game == name)
        return f"{'G' if played.startswith('G') else ''}{number}"

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[BalkanGame, list[BalkanDeal]]:
        """A game under these rules, every choice drawn at random among the legal ones
        (``sim/random_play/balkan.py``)."""
        return shared_random_game(rng, BalkanGame, random_play.random_game, game_id, VARIANT,
                                  self.players, self.rules, deals)

    def _call_json(self, player: str, call: str) -> str:
        """A call of the auction as canonical JSON (cached: the calls are few)."""
        text = self.call_json.get((player, call))
        if text is None:
            text = '{"call":' + jstr(call) + ',"player":' + self.pj[player] + "}"
            self.call_json[player, call] = text
        return text

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        gid = self.game_id(run_seed, index)
        batch.start_game(VARIANT, gid, self.players, self.rules_record, self.rules_json,
                         keep_lines)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        dealer.prepare(deals, 3, 10)
        for n in range(deals):
            name = self.players[n % len(self.players)]
            text, flat, contract = self.deal(gid, n + 1, name, dealer)
            d = flat["declarer"]
            batch.add_deal_text(VARIANT, text, gid, n + 1, name,
                                None if d is None else self.players[d], contract, flat,
                                keep_lines)

    def deal(
        self, gid: str, deal_no: int, dealer_name: str, dealer: Dealer
    ) -> tuple[str, dict[str, Any], str | None]:
        """One deal: its canonical record (JSON text), ``deals_balkan`` row and contract."""
        rules = self.rules
        order = self.orders[dealer_name]  # first hand first; with four the dealer sits out
        cards, talon = dealer.deal(3, 10)
        hands = dict(zip(order, cards, strict=True))
        tricks = [suit_tricks(c) for c in cards]
        risks = [misere_risk(c) for c in cards]
        top = self.top
        calls, w, with_talon, allowed = bot_auction(
            [bid_limit(cards[i], top, tricks[i], risks[i]) for i in range(3)],
            [hand_call(cards[i], rules.preferans_bid, tricks[i], risks[i]) for i in range(3)],
            rules, top)
        pj = self.pj
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[dealer_name]),
            ("hands", "{" + ",".join([f"{pj[p]}:{cards_json(hands[p])}"
                                      for p in self.sorted_orders[dealer_name]]) + "}"),
            ("talon", cards_json(talon)),
            ("auction", "[" + ",".join([self._call_json(order[i], c) for i, c in calls]) + "]"),
        ]
        seat = self.seat
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": seat[dealer_name], "declarer": None,
            "number": None, "igra": False, "mode": "none", "lead_defender": None,
            "kontra_0": 0, "kontra_1": 0, "kontra_2": 0, "kontra_3": 0,
            "tricks_0": None, "tricks_1": None, "tricks_2": None, "tricks_3": None,
            "repealed": False,
        }
        if w < 0:
            return obj(pairs), flat, None
        d = order[w]
        from_hand = not with_talon
        full = hands[d] if from_hand else hands[d] | talon
        number, disc = choose_game(full, allowed, from_hand)
        held = dict(hands)
        held[d] = full & ~disc
        contract = ("G" if from_hand else "") + str(number)
        if not from_hand:
            pairs.append(("discard", cards_json(disc)))
        di = order.index(d)
        defs = [order[(di + 1) % 3], order[(di + 2) % 3]]  # the next after him first (5.1)
        trump = TRUMP.get(number)
        est = {p: defender_tricks(hands[p], trump) for p in defs}
        defence = bot_defence(number, defs, est)
        pairs += [("declarer", pj[d]), ("contract", f'"{contract}"'),
                  ("defence", "{" + ",".join(sorted(
                      f'{pj[p]}:"{v}"' for p, v in defence.items())) + "}")]
        flat.update(declarer=seat[d], number=number, igra=from_hand)
        playing = [p for p in defs if defence[p] in ("play", "invite")]
        kontra = [p for p in playing if number != BETL and est[p] >= KONTRA_FROM]
        if kontra:
            pairs.append(("kontra", "{" + ",".join(sorted(f"{pj[p]}:1" for p in kontra)) + "}"))
            for p in kontra:
                flat[f"kontra_{seat[p]}"] = 1
        if set(defence.values()) == {"pass"}:  # no play (5.1)
            flat["mode"] = "pass"
        elif number == PIK and not from_hand and rules.pik_needs_kontra and not kontra:
            flat["mode"] = "nokontra"
        else:
            self._play(pairs, flat, order, d, number, held, defence)
        return obj(pairs), flat, contract

    def _play(self, pairs: list[tuple[str, str]], flat: dict[str, Any], order: list[str],
              d: str, number: int, held: dict[str, CardSet], defence: dict[str, str]) -> None:
        """The play of a defended contract (6): the defence mode, who plays (an invited passer
        plays; a lone defender's partner does not, 5.1), the first leader, the cards to the early
        end, and the tricks, added to the record ``pairs`` and the row ``flat``."""
        seat, pj = self.seat, self.pj
        for p, v in defence.items():
            if v in ("invite", "alone"):
                flat["mode"], flat["lead_defender"] = v, seat[p]
        if flat["mode"] == "none":
            flat["mode"] = "both"
        invited = "invite" in defence.values()
        in_play = [p for p in order if p == d or defence.get(p) != "pass" or invited]
        leader = first_leader(order, d, number, in_play, self.rules)
        codes, taken = play_codes(
            [held[p] for p in in_play], in_play.index(leader), in_play.index(d),
            TRUMP.get(number), fewest=number == BETL,
            stop_declarer=1 if number == BETL else 99,
            stop_defence=1 if number == PREFERANS else (99 if number == BETL else 5),
            deck=DECK_32, open_hands=self.open_hands,
        )
        pjs = self.play_json
        pairs.append(("play", "[" + ",".join([pjs[in_play[x >> 6]][x & 63] for x in codes])
                      + "]"))
        pairs.append(("tricks", "{" + ",".join(sorted(
            f"{pj[p]}:{taken[i]}" for i, p in enumerate(in_play))) + "}"))
        for i, p in enumerate(in_play):
            flat[f"tricks_{seat[p]}"] = taken[i]
