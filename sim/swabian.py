"""Simulated Swabian Preferanz games: bots bid, take the talon, discard, choose the game, say
Contra / Re-contra and play; every deal is a complete canonical record (swabian.md 2-7).

Decisions (``docs/simulation.md``):

- auction (3.2): a player's limit is the highest game he expects to make with the talon: a suit
  game (2 Laub, 3 Schellen, 4 Herz, 5 Eichel) when his expected tricks with that trump reach the
  tricks required (3.1), Bettel (6) when his hand's misère risk is small enough for the discard to
  fix, Durchmarsch (7) with about ten sure tricks in no-trump and either the first lead or an
  ace in every suit. He holds when he may and the bid is
  within his limit, else bids the lowest legal game within it, else passes. Aus den Händen
  (3.2, 11 S2): as his first call a player declares the highest game he expects to make
  without the talon, with the extra trick games 2-5 need (3.1) and a margin
  (``HAND_MARGIN``); Bettel from the hand needs a risk-free hand, Durchmarsch the same as with
  the talon.
- game (3.1): the winner discards for each game and plays the highest game he expects to make
  that is not below his bid, else the one he falls shortest of; aus den Händen he keeps his
  ten cards and the talon stays aside (4).
- Contra (5): a defender says Contra with about four expected tricks against a suit game; the
  declarer answers Re-contra when he expects two tricks over his requirement.
- play (6): ``bots.play`` (Bettel for fewest tricks, stops after the declarer's first trick in
  Bettel and his first lost trick in Durchmarsch).
"""

from __future__ import annotations

import random
from typing import Any

from model.cards import DECK_32, CardSet
from model.swabian.auction import HOLD, PASS, format_call
from model.swabian.games import BETTEL, DURCHMARSCH, REQUIRED, TRUMP, required
from model.swabian.params import SwabianRules
from model.swabian.records import SwabianDeal, SwabianGame
from sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from sim.bots.evaluate import (
    MISERE_RISK,
    all_tricks_safe,
    declarer_tricks,
    defender_tricks,
    misere_risk,
    suit_tricks,
)
from sim.bots.play import play_codes
from sim.greek import TALON_ALLOWANCE, Discards
from sim.random_play import random_game as shared_random_game
from sim.random_play import swabian as random_play
from sim.seeds import DECK_SEED, Dealer, game_rng
from sim.solver import SWABIAN_CONTRACTS, Contract

VARIANT = "swabian"
PLAYERS = ("P1", "P2", "P3")
BETTEL_RISK = 3
"""Highest misère risk of ten cards with which a player bids Bettel (the discard removes two)."""
DURCHMARSCH_FROM = 9.5
CONTRA_FROM = 4.0
RECONTRA_OVER = 2.0
SUIT_OF = {g: int(TRUMP[g] or 0) for g in (2, 3, 4, 5)}
"""The trump suit of each suit game (swabian.md 3.1) as a plain int."""
HAND_MARGIN = 0.5
"""Expected tricks over the aus-den-Händen requirement with which a player declares a suit game
from the hand (no talon to improve it, no discard to fix it)."""

SOLVER_GAMES = {2: "S", 3: "D", 4: "H", 5: "C", 6: "bettel", 7: "durchmarsch"}
"""The solver's contract of each game number (swabian.md 3.1)."""

def _expected(hand: CardSet, game: int) -> float:
    """Expected tricks (suit games), or a pseudo-count for Bettel (10 - risk, made at 10) and
    Durchmarsch (no-trump tricks)."""
    if game == BETTEL:
        return 10.0 - misere_risk(hand)
    return declarer_tricks(hand, TRUMP[game])


def _need(game: int) -> float:
    return 10.0 if game == BETTEL else float(REQUIRED[game])


HAND_NEED = {g: required(g, True) + HAND_MARGIN for g in (2, 3, 4, 5)}
"""Expected tricks with which a suit game is declared aus den Händen (3.1 plus the margin)."""


def hand_limit(
    hand: CardSet, leads: bool = False, tricks: tuple[float, ...] | None = None,
    risk: int | None = None,
) -> int:
    """The highest game the hand declares aus den Händen (0: none): suit games with the
    hand requirement (3.1) plus ``HAND_MARGIN``, Bettel with no misère risk at all, Durchmarsch
    as with the talon; ``tricks``: the hand's ``suit_tricks`` and ``risk`` its ``misere_risk``
    when already known."""
    t = tricks or suit_tricks(hand)
    if t[4] >= DURCHMARSCH_FROM and all_tricks_safe(hand, leads):
        return DURCHMARSCH
    if (misere_risk(hand) if risk is None else risk) == 0:
        return BETTEL
    for g in (5, 4, 3, 2):
        if t[SUIT_OF[g]] >= HAND_NEED[g]:
            return g
    return 0


def bid_limit(
    hand: CardSet, leads: bool = False, tricks: tuple[float, ...] | None = None,
    risk: int | None = None,
) -> int:
    """The highest game the hand bids to (0: none); ``leads``: the hand is Vorhand, who leads the
    first trick (Durchmarsch needs the lead or an ace in every suit); ``tricks`` and ``risk`` as
    in :func:`hand_limit`."""
    t = tricks or suit_tricks(hand)
    if t[4] >= DURCHMARSCH_FROM and all_tricks_safe(hand, leads):
        return DURCHMARSCH
    if (misere_risk(hand) if risk is None else risk) <= BETTEL_RISK:
        return BETTEL
    for g in (5, 4, 3, 2):
        if t[SUIT_OF[g]] + TALON_ALLOWANCE >= REQUIRED[g]:
            return g
    return 0


def bettel_discard(full: CardSet) -> CardSet:
    """The two cards whose removal lowers the misère risk most (greedy, highest rank on ties,
    else the first card in deck order)."""
    disc = 0
    for _ in range(2):
        left = full & ~disc
        hs = [(left >> (16 * s + 5)) & 0xFF for s in range(4)]
        risk = [MISERE_RISK[h] for h in hs]
        total = risk[0] + risk[1] + risk[2] + risk[3]
        best, pick = 99, -1
        cards = left
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            s = c >> 4
            r = total - risk[s] + MISERE_RISK[hs[s] & ~(1 << ((c & 15) - 5))]
            if r < best or (r == best and (c & 15) > (pick & 15)):
                best, pick = r, c
        disc |= 1 << pick
    return disc


def choose_game(full: CardSet, bid: int, leads: bool = False, hand: bool = False
                ) -> tuple[int, CardSet]:
    """The game played (not below ``bid``, 3.2) and the discard; ``leads`` as in
    :func:`bid_limit`; ``hand``: aus den Händen, ten cards and no discard (``full`` is the
    hand)."""
    best: tuple[Any, ...] | None = None
    discards = Discards(full, keep_all=hand)
    for g in range(max(bid, 2), 8):
        if g == BETTEL:
            disc = 0 if hand else bettel_discard(full)
            est = _expected(full & ~disc, g)
        else:
            disc, est = discards.for_trump(TRUMP[g])
        need = _need(g) if g != DURCHMARSCH else DURCHMARSCH_FROM
        if hand and g <= 5:
            need += 1
        made = est >= need and (g != DURCHMARSCH or all_tricks_safe(full & ~disc, leads))
        key = (made, g if made else est - need)
        if best is None or key > best[0]:
            best = (key, g, disc)
    assert best is not None
    return best[1], best[2]


def bot_auction(
    limits: list[int], hand_limits: list[int], vorhand: int, rules: SwabianRules
) -> tuple[list[tuple[int, str | tuple[int, bool]]], int | None, tuple[int, bool] | None]:
    """The bots' auction (3.2, 11 S1-S2) by seat: ``(calls, declarer, winning bid)``. It follows
    the rules module's machine (``model/swabian/auction.py``) for the calls the bots make;
    ``check_deal`` replays every simulated auction through it. A player declares aus den
    Händen as his first call when his hand makes a game without the talon; else holds when he
    may and the bid is within his limit, else bids the lowest legal game within it, else passes
    (Vorhand bids 2 when ``vorhand_must_bid`` forbids his pass)."""
    passed = [False, False, False]
    called = [False, False, False]
    high: tuple[int, bool] | None = None
    high_seat = -1
    turn = vorhand
    calls: list[tuple[int, str | tuple[int, bool]]] = []
    only_vorhand = rules.hold_only_vorhand
    while True:
        s = turn
        first = not called[s]
        hl = hand_limits[s]
        call: str | tuple[int, bool]
        if first and hl and (high is None or not high[1] or hl > high[0]):
            call = (hl, True)
        elif (
            high is not None and high_seat != s and not high[1]
            and (not only_vorhand or s == vorhand)
            and (s - vorhand) % 3 < (high_seat - vorhand) % 3 and high[0] <= limits[s]
        ):
            call = HOLD
        else:
            low = 0
            if high is None:
                low = 2
            elif not high[1] and high[0] < 7:
                low = high[0] + 1
            if low and low <= limits[s]:
                call = (low, False)
            elif not (first and s == vorhand and rules.vorhand_must_bid):
                call = PASS
            else:
                call = (2, False)
        called[s] = True
        calls.append((s, call))
        if call == PASS:
            passed[s] = True
        elif call == HOLD:
            high_seat = s
        else:
            assert isinstance(call, tuple)
            high, high_seat = call, s
        n_passed = passed[0] + passed[1] + passed[2]
        if n_passed == 3:
            return calls, None, None
        if n_passed == 2 and high_seat >= 0 and not passed[high_seat]:
            return calls, high_seat, high
        turn = (s + 1) % 3
        while passed[turn]:
            turn = (turn + 1) % 3


class SwabianSimulator:
    """Plays whole Swabian games with bots. ``play``: ``heuristic`` or ``dd``."""

    variant = VARIANT

    def __init__(self, rules: SwabianRules | None = None, play: str = "heuristic") -> None:
        self.rules = rules or SwabianRules()
        self.open_hands = play == "dd"
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()
        self.pj = [jstr(p) for p in PLAYERS]
        self.play_json = [[f"[{jstr(p)},{CARD_JSON[c]}]" for c in range(64)] for p in PLAYERS]
        every: list[str | tuple[int, bool]] = [
            PASS, HOLD, *[(g, h) for h in (False, True) for g in range(2, 8)]
        ]
        self.call_json = {
            (i, c): '{"call":' + jstr(format_call(c)) + ',"player":' + jstr(p) + "}"
            for i, p in enumerate(PLAYERS) for c in every
        }

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-swabian-{run_seed}-{index:08d}"

    solver_contracts: tuple[Contract, ...] = SWABIAN_CONTRACTS
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``)."""

    @staticmethod
    def solver_contract(contract: str) -> str | None:
        """The solver's contract of a recorded one (swabian.md 3.1, ``model/swabian/games.py``
        TRUMP: Laub spades, Schellen diamonds, Herz hearts, Eichel clubs; 6 ``bettel``, 7
        ``durchmarsch``)."""
        return SOLVER_GAMES.get(int(contract)) if contract.isdigit() else None

    @staticmethod
    def contract_code(name: str, played: str) -> str:
        """The game number of the solver's ``name`` (aus den Händen is not part of the code)."""
        return str(next(n for n, game in SOLVER_GAMES.items() if game == name))

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[SwabianGame, list[SwabianDeal]]:
        """A game under these rules, every choice drawn at random among the legal ones
        (``sim/random_play/swabian.py``)."""
        return shared_random_game(rng, SwabianGame, random_play.random_game, game_id, VARIANT,
                                  PLAYERS, self.rules, deals)

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        gid = self.game_id(run_seed, index)
        batch.start_game(VARIANT, gid, PLAYERS, self.rules_record, self.rules_json,
                         keep_lines)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_32)
        dealer.prepare(deals, 3, 10)
        for n in range(deals):
            text, flat = self.deal(gid, n + 1, n % 3, dealer)
            batch.add_deal_text(VARIANT, text, gid, n + 1, PLAYERS[n % 3],
                                None if flat["declarer"] is None else PLAYERS[flat["declarer"]],
                                None if flat["game"] is None else str(flat["game"]), flat,
                                keep_lines)

    def deal(
        self, gid: str, deal_no: int, dealer_seat: int, dealer: Dealer
    ) -> tuple[str, dict[str, Any]]:
        """One deal: its canonical record (JSON text) and its ``deals_swabian`` row."""
        rules = self.rules
        hands, talon = dealer.deal(3, 10)
        vorhand = (dealer_seat + 1) % 3
        tricks = [suit_tricks(h) for h in hands]
        risks = [misere_risk(h) for h in hands]
        limits = [bid_limit(hands[s], s == vorhand, tricks[s], risks[s]) for s in range(3)]
        hand_limits = [hand_limit(hands[s], s == vorhand, tricks[s], risks[s]) for s in range(3)]
        calls, d, won = bot_auction(limits, hand_limits, vorhand, rules)
        pj = self.pj
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[dealer_seat]),
            ("hands", "{" + ",".join(f"{pj[i]}:{cards_json(hands[i])}" for i in range(3)) + "}"),
            ("talon", cards_json(talon)),
            ("auction", "[" + ",".join([self.call_json[c] for c in calls]) + "]"),
        ]
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "dealer": dealer_seat, "declarer": None,
            "game": None, "hand": False, "tricks_0": None, "tricks_1": None, "tricks_2": None,
            "contra_0": 1, "contra_1": 1, "contra_2": 1, "kunstwerk": False,
        }
        if d is None or won is None:
            return obj(pairs), flat
        from_hand = won[1]
        full = hands[d] if from_hand else hands[d] | talon
        game, disc = choose_game(full, won[0], d == vorhand, from_hand)
        playing = full & ~disc
        low = talon & -talon
        kunstwerk = (low.bit_length() - 1) & 15 == (talon.bit_length() - 1) & 15 and (
            not from_hand or rules.kunstwerk_on_hand_game
        )
        pairs += [("declarer", pj[d]), ("contract", f'"{game}"')]
        if from_hand:
            pairs.append(("hand", "true"))
        else:
            pairs.append(("discard", cards_json(disc)))
        if kunstwerk:
            pairs.append(("kunstwerk", "true"))
        flat.update(declarer=d, game=game, hand=from_hand, kunstwerk=kunstwerk)
        trump = TRUMP[game]
        contra: list[str] = []
        if game <= 5:
            strong = declarer_tricks(playing, trump) >= required(game, from_hand) + RECONTRA_OVER
            for s in range(3):
                if s != d and defender_tricks(hands[s], trump) >= CONTRA_FROM:
                    contra.append(f'{pj[s]}:"{"recontra" if strong else "contra"}"')
                    flat[f"contra_{s}"] = 4 if strong else 2
        if contra:
            pairs.append(("contra", "{" + ",".join(contra) + "}"))
        held = [playing if s == d else hands[s] for s in range(3)]
        order = [(vorhand + i) % 3 for i in range(3)]
        codes, taken = play_codes(
            [held[s] for s in order], 0, order.index(d), trump,
            fewest=game == BETTEL,
            stop_declarer=1 if game == BETTEL else 99,
            stop_defence=1 if game == DURCHMARSCH else 99,
            deck=DECK_32, open_hands=self.open_hands,
        )
        pjs = self.play_json
        pairs.append(("play", "[" + ",".join([pjs[order[x >> 6]][x & 63] for x in codes]) + "]"))
        pairs.append(("tricks", "{" + ",".join(
            sorted(f"{pj[order[i]]}:{taken[i]}" for i in range(3))) + "}"))
        for i in range(3):
            flat[f"tricks_{order[i]}"] = taken[i]
        return obj(pairs), flat
