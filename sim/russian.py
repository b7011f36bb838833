"""Simulated Russian preferans games (Sochi, Leningrad, Rostov): bots bid, take the talon,
discard, declare, whist or pass and play; every deal is a complete canonical record
(russian.md 1-7, records.md 1.2).

Decisions (``docs/simulation.md``):

- auction (2): each player's limit is the highest contract he expects to make with the talon
  (``bots.evaluate.suit_tricks`` plus a talon allowance), never below the raspasy exit (7); a
  hand with a small misère risk (``MISERE_RISK_MAX``, the discard fixes two cards) bids misère as
  its first call while the bidding is below it (2); otherwise a player raises one step while the
  next bid is within his limit, else passes;
- talon and contract (3): the winner discards the two cheapest cards for each strain and declares
  the contract he expects to make, never below his bid (a misère discards the two riskiest cards);
- defence (3): each defender whists when his expected defensive tricks reach his share of the
  quota; the second, after a pass, says half-whist on 6 and 7 (``half_whist``) with some defence;
  Stalingrad and ``ten_whisted`` are obeyed; a lone whister plays open when he needs the passer's
  cards (his own expectation is below the quota);
- play (4): first hand leads in every deal and all ten tricks are played: contracts for most
  tricks, misère for fewest (``bots.play``); raspasy everybody for fewest, first hand leading the
  first two tricks in the suit of the turned talon card when he holds it (``raspasy_talon_lead``).

Three or four players (the simulator option ``players``); with four the dealer sits out and the
three after him play the deal (1). The dealer passes to the left (1). The game ends where the
settlement ends it (every pool at the target, 8): ``sim/run.py`` drops the deals after it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from model.cards import DECK_32, CardSet
from model.russian.contracts import HALF_WHIST_LEVELS, MISERE_RANK, NT, QUOTA, STRAINS
from model.russian.frame import HALF, PASS, WHIST
from model.russian.params import RussianRules
from model.russian.raspasy import exit_level, run_after
from model.russian.records import RussianDeal, RussianGame
from model.russian.seats import in_deal
from sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from sim.bots._kernel import fewest_card, jit, suit_mask
from sim.bots.evaluate import defender_tricks, misere_risk, suit_tricks
from sim.bots.play import play_all_pass_open, play_codes
from sim.greek import Discards
from sim.random_play import random_game as shared_random_game
from sim.random_play import russian as random_play
from sim.seeds import DECK_SEED, Dealer, game_rng
from sim.solver import CONTRACTS, Contract, TalonLead, in_strain, strain_of
from sim.swabian import bettel_discard

VARIANT = "russian"
PLAYERS = ("P1", "P2", "P3", "P4")
"""The names of the seats in turn order; a three-player game uses the first three."""
MISERE_RISK_MAX = 2
"""Highest misère risk of ten cards with which a player bids misère (the discard removes two)."""
BID_ALLOWANCE = 1.0
"""Tricks a bidder counts on from the talon: more than in Greek Prefa (``TALON_ALLOWANCE``),
since passing risks raspasy, which cost the hill (7)."""
DECLARE_MARGIN = 0.2
"""A declarer rounds his expected tricks up by this much when he names the level."""
WHIST_NEED = {6: 1.7, 7: 0.8, 8: 0.6, 9: 0.6, 10: 0.6}
"""Expected defensive tricks with which a defender whists: his half of the quota (6: 4, 7: 2,
8-10: 1, russian.md 3) less a slack, at least 0.6 (a hand without a defensive trick does not
whist)."""
HALF_NEED = {6: 0.8, 7: 0.4}
"""Expected defensive tricks with which the second defender says half-whist (3) when it is not
played (under ``WHIST_NEED``: a defender who would whist does)."""
PLAYED_HALF_NEED = {6: 1.2, 7: 0.6}
"""The same when the half-whist is played for half the quota (``half_whist_play``)."""
WORDS = {PASS: "pass", WHIST: "whist", HALF: "half"}
CALLS = ("pass", *(f"{lv}{s}" for lv in range(6, 11) for s in STRAINS), "misere")


def rank_of(level: int, strain: int) -> int:
    """Position on the ladder of 2 (``model.russian.contracts.Contract.rank``)."""
    index = (level - 6) * 5 + strain
    return index if index < MISERE_RANK else index + 1


LADDER: tuple[tuple[int, int], ...] = tuple(
    sorted(((lv, s) for lv in range(6, 11) for s in range(5)), key=lambda c: rank_of(*c))
)
"""The 25 contracts in ladder order; ``LADDER[i]`` has rank ``i`` below misère, ``i + 1`` above."""
RANK_CALL = {rank_of(lv, s): f"{lv}{STRAINS[s]}" for lv, s in LADDER} | {MISERE_RANK: "misere"}


RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(rank_of(max(lv, 6), st) for st in range(5)) for lv in range(11)
)
"""``RANKS[level][strain]``: the ladder rank of a contract (levels below 6 read as 6)."""


def bid_limit(tricks: tuple[float, ...], low: int) -> int:
    """The highest rank the hand bids to (-1: none): for each strain the level it expects to make
    with the talon, not below ``low`` (the raspasy exit, 7)."""
    limit = -1
    for s in range(5):
        level = int(tricks[s] + BID_ALLOWANCE)
        if level >= low:
            r = RANKS[level if level < 10 else 10][s]
            if r > limit:
                limit = r
    return limit


def bot_auction(
    limits: list[int], misere: list[bool], low: int
) -> tuple[list[tuple[int, int]], int | None, int]:
    """The bots' auction (2) by position in the deal (0 = first hand): ``(calls as (position,
    rank or -1 for pass), declarer or None for raspasy, winning rank)``. It follows the rules
    module's machine (``model/russian/auction.py``), which ``check_deal`` replays: a misère as a
    first call while it outranks the bidding, else one step up within the limit, else pass."""
    live = [0, 1, 2]
    spoke = [False, False, False]
    best, holder, turn = -1, -1, 0
    floor = rank_of(low, 0) if low > 6 else 0
    calls: list[tuple[int, int]] = []
    while live and not (len(live) == 1 and holder == live[0]):
        p = live[turn]
        nxt = max(best + 1, floor)
        if nxt == MISERE_RANK:
            nxt += 1
        if misere[p] and not spoke[p] and best < MISERE_RANK:
            call = MISERE_RANK
        elif nxt <= limits[p]:
            call = nxt
        else:
            call = -1
        spoke[p] = True
        calls.append((p, call))
        if call < 0:
            live.pop(turn)
        else:
            best, holder = call, p
            turn += 1
        if live:
            turn %= len(live)
    return calls, (holder if live else None), best


def declare(full: CardSet, bid: int) -> tuple[int, int, CardSet]:
    """Level, strain and discard of the declarer's contract (3): the most valuable one he expects
    to make not below rank ``bid``; if none, the one he falls shortest of."""
    discards = Discards(full)
    best: tuple[Any, ...] | None = None
    for s in range(5):
        disc, est = discards.for_trump(None if s == NT else s)
        reach = int(est + DECLARE_MARGIN)
        level = 6 if reach < 6 else 10 if reach > 10 else reach
        rank = RANKS[level][s]
        while rank < bid and level < 10:
            level += 1
            rank = RANKS[level][s]
        if rank < bid:
            continue
        made = reach >= level
        key = (made, rank if made else est - level)
        if best is None or key > best[0]:
            best = (key, level, s, disc)
    assert best is not None  # 10NT outranks every bid
    return best[1], best[2], best[3]


def defence_words(
    first: CardSet, second: CardSet, level: int, strain: int, rules: RussianRules
) -> tuple[int, int]:
    """The words of the first and second defender (3) as ``deals_russian`` codes."""
    if rules.stalingrad and (level, strain) == (6, 0):
        return WHIST, WHIST
    if level == 10 and not rules.ten_whisted:
        return PASS, PASS
    trump = None if strain == NT else strain
    need = WHIST_NEED[level]
    est_2 = defender_tricks(second, trump)
    a = WHIST if defender_tricks(first, trump) >= need else PASS
    b = WHIST if est_2 >= need else PASS
    half = PLAYED_HALF_NEED if rules.half_whist_play else HALF_NEED
    if a == b == PASS and rules.half_whist and level in HALF_WHIST_LEVELS and est_2 >= half[level]:
        b = HALF
    return a, b


def talon_order(talon: CardSet) -> tuple[int, int]:
    """The talon cards in record order (highest suit and rank first, ``sim.batch.names``): the
    order they are turned up in raspasy (``model/russian/play.py``)."""
    hi = talon.bit_length() - 1
    return hi, (talon & ~(1 << hi)).bit_length() - 1


@jit
def talon_lead(hands: Any, talon: int, first: int, second: int) -> tuple[Any, Any, Any, int]:
    """The first two raspasy tricks (4): first hand leads both, in the suit of the talon card
    turned up for each when he holds it (``first``, then ``second``), everybody playing for the
    fewest tricks (``bots.play`` heuristics, compiled with them). Returns the six moves
    (``64 * position + card``), the hands left, the tricks taken and who leads the third."""
    left = hands.copy()
    seen = talon
    moves = np.zeros(6, np.int64)
    taken = np.zeros(3, np.int64)
    win = 0
    for t in range(2):
        shown = first if t == 0 else second
        best, led, win = -1, -1, 0
        for pos in range(3):
            hand = left[pos]
            legal = hand & suit_mask(shown >> 4 if pos == 0 else led)
            if not legal:
                legal = hand
            c = fewest_card(legal, pos, led, best, DECK_32 & ~seen & ~hand, -1, 3)
            left[pos] = hand & ~(1 << c)
            seen |= 1 << c
            moves[3 * t + pos] = 64 * pos + c
            if pos == 0:
                best, led = c, c >> 4
            elif c >> 4 == led and c > best:
                best, win = c, pos
        taken[win] += 1
    return moves, left, taken, win


def raspasy_play(
    hands: list[CardSet], talon: CardSet, by_talon: bool, open_hands: bool
) -> tuple[list[int], list[int]]:
    """Raspasy (4, 7): every player for the fewest tricks, first hand leading. With
    ``raspasy_talon_lead`` first hand leads the first two tricks, in the suit of the talon card
    turned up for each when he holds it (:func:`talon_lead`); then the winner of the second
    trick leads. Open-handed (``--play dd``) every player plays the solver's best card for
    himself (``bots.play.play_all_pass_open``), the talon leads included."""
    first, second = talon_order(talon)
    if open_hands:
        lead = TalonLead(0, (first >> 4, second >> 4)) if by_talon else None
        moves_open, taken_open = play_all_pass_open(hands, 0, lead)
        return [64 * s + c for s, c in moves_open], taken_open
    if not by_talon:
        return play_codes(hands, 0, -1, None, fewest=True, deck=DECK_32, open_hands=open_hands)
    moves, left, taken, leader = talon_lead(np.array(hands, dtype=np.int64), talon, first,
                                            second)
    played = (hands[0] | hands[1] | hands[2]) & ~int(left[0] | left[1] | left[2])
    rest, more = play_codes(left.tolist(), int(leader), -1, None, fewest=True,
                            deck=DECK_32 & ~talon & ~played, open_hands=open_hands)
    return moves.tolist() + rest, [int(a) + b for a, b in zip(taken, more, strict=True)]


class RussianSimulator:
    """Plays whole Russian preferans games with bots. ``play``: ``heuristic`` or ``dd``;
    ``players``: 3, or 4 with the dealer sitting out (1)."""

    variant = VARIANT

    def __init__(self, rules: RussianRules | None = None, play: str = "heuristic",
                 players: int = 3) -> None:
        if players not in (3, 4):
            raise ValueError(f"players: 3 or 4 (russian.md 1), got {players!r}")
        self.rules = rules or RussianRules()
        self.open_hands = play == "dd"
        self.players = PLAYERS[:players]
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()
        self.pj = [jstr(p) for p in self.players]
        self.play_json = [[f"[{jstr(p)},{CARD_JSON[c]}]" for c in range(64)]
                          for p in self.players]
        self.call_json = {
            (i, r): '{"call":"' + ("pass" if r < 0 else RANK_CALL[r]) + '","player":'
            + jstr(p) + "}"
            for i, p in enumerate(self.players) for r in (-1, *RANK_CALL)
        }

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-russian-{run_seed}-{index:08d}"

    solver_contracts: tuple[Contract, ...] = CONTRACTS
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``)."""

    @staticmethod
    def solver_contract(contract: str) -> str | None:
        """The solver's contract of a recorded one (upper case): its strain, or ``misere``
        (played for fewest tricks, russian.md 2, 4)."""
        return "misere" if contract == "MISERE" else strain_of(contract)

    @staticmethod
    def contract_code(name: str, played: str) -> str:
        """``MISERE``, or the played number of tricks in the strain ``name``."""
        return "MISERE" if name == "misere" else in_strain(played, name)

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[RussianGame, list[RussianDeal]]:
        """A game under these rules, every choice drawn at random among the legal ones
        (``sim/random_play/russian.py``)."""
        return shared_random_game(rng, RussianGame, random_play.random_game, game_id, VARIANT,
                                  PLAYERS, self.rules, deals)

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        """Simulate game ``index`` of a run: its game line and ``deals`` deals into ``batch``."""
        gid = self.game_id(run_seed, index)
        names = self.players
        batch.start_game(VARIANT, gid, names, self.rules_record, self.rules_json, keep_lines)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        dealer.prepare(deals, 3, 10)
        run = 0
        for n in range(deals):
            text, flat, run = self.deal(gid, n + 1, n % len(names), dealer, run)
            d = flat["declarer"]
            batch.add_deal_text(VARIANT, text, gid, n + 1, names[n % len(names)],
                                None if d is None else names[d],
                                None if d is None else _contract_text(flat), flat, keep_lines)

    def deal(
        self, gid: str, deal_no: int, dealer_seat: int, dealer: Dealer, run: int
    ) -> tuple[str, dict[str, Any], int]:
        """One deal: its canonical record (JSON text), its ``deals_russian`` row and the raspasy
        run after it (7)."""
        rules = self.rules
        cards, talon = dealer.deal(3, 10)
        seats = list(in_deal(len(self.players), dealer_seat))  # first hand first (1, 2)
        low = exit_level(rules, run)
        tricks = [suit_tricks(h) for h in cards]
        misere = [misere_risk(h) <= MISERE_RISK_MAX for h in cards]
        calls, w, bid = bot_auction([bid_limit(t, low) for t in tricks], misere, low)
        pj = self.pj
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[dealer_seat]),
            ("hands", "{" + ",".join([f"{pj[s]}:{cards_json(cards[seats.index(s)])}"
                                      for s in sorted(seats)]) + "}"),  # names sort as seats
            ("talon", cards_json(talon)),
            ("auction", "[" + ",".join([self.call_json[seats[p], r] for p, r in calls]) + "]"),
        ]
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_seat, "declarer": None,
            "level": None, "strain": None, "misere": False, "defender_1": None,
            "defender_2": None, "defence_1": None, "defence_2": None, "open": False,
            "tricks_0": None, "tricks_1": None, "tricks_2": None, "tricks_3": None,
        }
        if w is None:
            codes, taken = raspasy_play(cards, talon, rules.raspasy_talon_lead, self.open_hands)
            self._played(pairs, flat, seats, codes, taken)
            return obj(pairs), flat, run_after(rules, run, raspasy=True, misere=False,
                                               played=False)
        played = self._contract(pairs, flat, seats, cards, talon, w, bid)
        return obj(pairs), flat, run_after(rules, run, raspasy=False, misere=flat["misere"],
                                           played=played)

    def _contract(
        self, pairs: list[tuple[str, str]], flat: dict[str, Any], seats: list[int],
        cards: list[CardSet], talon: CardSet, w: int, bid: int,
    ) -> bool:
        """Talon, discard, contract, defence and play of a deal the bots bid (3, 4); whether it
        was played."""
        rules = self.rules
        pj = self.pj
        full = cards[w] | talon
        first, second = (w + 1) % 3, (w + 2) % 3  # the defenders from the declarer's left (3)
        flat.update(declarer=seats[w], defender_1=seats[first], defender_2=seats[second])
        pairs.append(("declarer", pj[seats[w]]))
        if bid == MISERE_RANK:
            disc = bettel_discard(full)
            pairs += [("discard", cards_json(disc)), ("contract", '"misere"')]
            flat["misere"] = True
            held = list(cards)
            held[w] = full & ~disc
            codes, taken = play_codes(held, 0, w, None, fewest=True, deck=DECK_32,
                                      open_hands=self.open_hands)
            self._played(pairs, flat, seats, codes, taken)
            return True
        level, strain, disc = declare(full, bid)
        pairs += [("discard", cards_json(disc)), ("contract", f'"{level}{STRAINS[strain]}"')]
        a, b = defence_words(cards[first], cards[second], level, strain, rules)
        flat.update(level=level, strain=strain, defence_1=a, defence_2=b)
        said = sorted([(seats[first], a), (seats[second], b)])
        pairs.append(("defence", "{" + ",".join([f'{pj[p]}:"{WORDS[x]}"' for p, x in said])
                      + "}"))
        if WHIST not in (a, b) and not (b == HALF and rules.half_whist_play):
            return False
        trump = None if strain == NT else strain
        if (a == WHIST) != (b == WHIST):
            whister = cards[first] if a == WHIST else cards[second]
            if defender_tricks(whister, trump) < QUOTA[level]:
                pairs.append(("open", "true"))
                flat["open"] = True
        held = list(cards)
        held[w] = full & ~disc
        codes, taken = play_codes(held, 0, w, trump, deck=DECK_32, open_hands=self.open_hands)
        self._played(pairs, flat, seats, codes, taken)
        return True

    def _played(
        self, pairs: list[tuple[str, str]], flat: dict[str, Any], seats: list[int],
        codes: list[int], taken: list[int],
    ) -> None:
        pj = self.play_json
        pairs.append(("play", "[" + ",".join([pj[seats[x >> 6]][x & 63] for x in codes]) + "]"))
        by_seat = dict(zip(seats, taken, strict=True))
        pj_ = self.pj
        pairs.append(("tricks", "{" + ",".join([f"{pj_[s]}:{by_seat[s]}" for s in sorted(seats)])
                      + "}"))
        for s, t in by_seat.items():
            flat[f"tricks_{s}"] = t


def _contract_text(flat: dict[str, Any]) -> str:
    if flat["misere"]:
        return "misere"
    return f"{flat['level']}{STRAINS[flat['strain']]}"
