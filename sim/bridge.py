"""Simulated contract bridge: rubber (``bridge-rubber``) and duplicate (``bridge-duplicate``)
sessions with bots at the four seats; every deal is a complete canonical record (hands,
auction, declarer, contract, the 52 cards played, the declaring side's tricks; records.md 1.2,
bridge.md 2-3) that passes ``model.bridge.check.check_deal``.

- dealing: 13 cards each from the 52-card deck, one generator per game (``sim/seeds.py``,
  stream ``bridge-52``); rubber: the deal passes clockwise (N first); duplicate: deal ``n`` is
  board ``n`` with its dealer and vulnerability (bridge.md 6);
- auction: ``bots.bidding.bot_auction`` (natural bidding from points and suit lengths,
  compiled by numba in ``bots/_bidding_kernel.py`` when it is importable, else the interpreted
  ``Bidder``: the same calls); the contract and declarer come from the bots' auction state, the
  declarer being the first of the winning side to name the final denomination (2.3, as the
  rules module's ``run_auction``; ``check_deal`` replays every auction in the tests);
- play: ``bots.bridge_play.play_bridge`` (opening lead, heuristics; compiled as
  ``_kernel.bridge_play`` when numba is importable); ``--play dd`` is not available for bridge
  (the open-hand solver is for the Preference games) and falls back to the heuristics.

Rubber deals leave ``vulnerable`` out (the settlement reads it from the rubber state); duplicate
deals carry ``board`` and ``vulnerable``.
"""

from __future__ import annotations

import random

from model.bridge.contracts import NOTRUMP, TRUMP_SUIT, Contract
from model.bridge.params import BridgeRules
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.seats import EW, NS, board_dealer, board_vulnerable, is_vulnerable
from model.cards import ACE, DECK_52
from sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from sim.bots.bidding import bot_auction
from sim.bots.bridge_play import play_bridge
from sim.random_play import bridge as random_play
from sim.random_play import random_game as shared_random_game
from sim.seeds import Dealer, game_rng
from sim.solver import Contract as SolverContract

PLAYERS = ("N", "E", "S", "W")
CONTRACT_TEXT = tuple(
    tuple(tuple(str(Contract(level, denom, x)) for x in range(3)) for denom in range(5))
    if level else () for level in range(8)
)
"""Contract names by level, denomination and doubling (``4S``, ``3NTX``)."""
HONOURS = tuple(
    sum(1 << (16 * s + ACE) for s in range(4)) if suit is None
    else sum(1 << (16 * suit + r) for r in range(ACE - 4, ACE + 1))
    for suit in TRUMP_SUIT
)
"""The cards that count as honours (bridge.md 4.6) by denomination: the five top trumps, or the
four aces at no-trump (150 for all four; in a suit 100 for four, 150 for five in one hand)."""
DECK_SEED = "bridge-52"


class BridgeSimulator:
    """Plays bridge sessions with bots; ``variant`` ``bridge-rubber`` or ``bridge-duplicate``."""

    def __init__(
        self, variant: str, rules: BridgeRules | None = None, play: str = "heuristic"
    ) -> None:
        self.variant = variant
        self.rules = rules or BridgeRules()
        self.play = play
        self.rules_record = self.rules.model_dump(mode="json", exclude_defaults=True)
        self.rules_json = self.rules.model_dump_json()
        self.pj = [jstr(p) for p in PLAYERS]
        self.play_json = [f"[{jstr(PLAYERS[x >> 6])},{CARD_JSON[x & 63]}]" for x in range(256)]
        """A played card as JSON by its code ``64 * seat + card``."""
        self.duplicate = variant == "bridge-duplicate"
        self.short = "rubber" if variant == "bridge-rubber" else "duplicate"
        self.call_json: dict[tuple[int, str], str] = {}

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-{self.short}-{run_seed}-{index:08d}"

    solver_contracts: tuple[SolverContract, ...] = ()
    """The open-hand solver's contracts of the game (``sim/solver/contracts.py``)."""

    @staticmethod
    def solver_contract(contract: str) -> str | None:
        """None: bridge is solved by ``scoring/bridge/dd.py``, not by ``sim/solver``."""
        return None

    @staticmethod
    def contract_code(name: str, played: str) -> str:
        """``name`` as it is: bridge's contracts are not the solver's."""
        return name

    def random_game(
        self, rng: random.Random, game_id: str, deals: int
    ) -> tuple[BridgeGame, list[BridgeDeal]]:
        """A game under these rules, every choice drawn at random among the legal ones
        (``sim/random_play/bridge.py``)."""
        return shared_random_game(rng, BridgeGame, random_play.random_game, game_id, self.variant,
                                  PLAYERS, self.rules, deals)

    def _call_json(self, seat: int, call: str) -> str:
        """A call of the auction as canonical JSON (cached: 38 calls by 4 seats)."""
        text = self.call_json.get((seat, call))
        if text is None:
            text = '{"call":' + jstr(call) + ',"player":' + self.pj[seat] + "}"
            self.call_json[seat, call] = text
        return text

    def game(
        self, run_seed: int, index: int, deals: int, batch: Batch, keep_lines: bool = False
    ) -> None:
        gid = self.game_id(run_seed, index)
        batch.start_game(self.variant, gid, PLAYERS, self.rules_record, self.rules_json,
                         keep_lines)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_52)
        dealer.prepare(deals, 4, 13)
        for n in range(1, deals + 1):
            self.deal(batch, gid, n, dealer, keep_lines)

    def deal(
        self, batch: Batch, gid: str, deal_no: int, dealer: Dealer, keep_lines: bool = False
    ) -> None:
        """One deal into ``batch``: its canonical record and ``deals_bridge`` row."""
        hands, _ = dealer.deal(4, 13)
        duplicate = self.duplicate
        first = board_dealer(deal_no) if duplicate else (deal_no - 1) % 4
        calls, found, partner_suits = bot_auction(hands, first)
        pj = self.pj
        call_json = self.call_json
        auction = []
        seat = first
        for call in calls:
            text = call_json.get((seat, call))
            if text is None:
                text = self._call_json(seat, call)
            auction.append(text)
            seat = (seat + 1) & 3
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[first]),
            ("hands", f'{{"E":{cards_json(hands[1])},"N":{cards_json(hands[0])},'
                      f'"S":{cards_json(hands[2])},"W":{cards_json(hands[3])}}}'),
            ("auction", "[" + ",".join(auction) + "]"),
        ]
        vul_ns = vul_ew = None
        if duplicate:
            vul = board_vulnerable(deal_no)
            pairs += [("board", str(deal_no)), ("vulnerable", jstr(vul))]
            vul_ns, vul_ew = is_vulnerable(vul, NS), is_vulnerable(vul, EW)
        contract = declarer = None
        level = denom = doubled = won = None
        honours = [0, 0]
        if found is not None:
            level, denom, doubled, d = found
            declarer = PLAYERS[d]
            contract = CONTRACT_TEXT[level][denom][doubled]
            trump = TRUMP_SUIT[denom]
            codes, won = play_bridge(hands, d, trump, partner_suits, DECK_52)
            pjs = self.play_json
            pairs += [("declarer", pj[d]), ("contract", f'"{contract}"'),
                      ("tricks", str(won)),
                      ("play", "[" + ",".join([pjs[x] for x in codes]) + "]")]
            top = HONOURS[denom]
            for s in range(4):
                n = (hands[s] & top).bit_count()
                if n >= 4:
                    honours[s & 1] += 150 if n == 5 or denom == NOTRUMP else 100
        flat = {
            "game_id": gid, "deal_no": deal_no, "event": None, "match": None, "room": None,
            "ns_team": None, "ew_team": None,
            "board": deal_no if duplicate else None, "ns_pair": None, "ew_pair": None,
            "dealer": first, "declarer": None if found is None else found[3], "level": level,
            "denom": denom, "doubled": doubled, "tricks": won, "vul_ns": vul_ns,
            "vul_ew": vul_ew, "honours_ns": honours[NS], "honours_ew": honours[EW],
            "stated_score_ns": None,
        }
        batch.add_deal_text(self.variant, obj(pairs), gid, deal_no, PLAYERS[first],
                            declarer, contract, flat, keep_lines)
