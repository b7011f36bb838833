"""Simulated contract bridge: rubber (``bridge-rubber``) and duplicate (``bridge-duplicate``)
sessions with bots at the four seats; every deal is a complete canonical record (hands,
auction, declarer, contract, the 52 cards played, the declaring side's tricks; records.md 1.2,
bridge.md 2-3) that passes ``model.bridge.check.check_deal``.

- dealing: 13 cards each from the 52-card deck, one generator per game (``model/sim/seeds.py``,
  stream ``bridge-52``); rubber: the deal passes clockwise (N first); duplicate: deal ``n`` is
  board ``n`` with its dealer and vulnerability (bridge.md 6);
- auction: ``bots.bidding.Bidder`` (natural bidding from points and suit lengths); the
  contract and declarer come from the rules module's ``run_auction`` (2.3);
- play: ``bots.bridge_play`` (opening lead, heuristics); ``--play dd`` is not available for
  bridge (the open-hand solver is for the Preference games) and falls back to the heuristics.

Rubber deals leave ``vulnerable`` out (the settlement reads it from the rubber state); duplicate
deals carry ``board`` and ``vulnerable``.
"""

from __future__ import annotations

from typing import Any

from model.bridge.auction import run_auction
from model.bridge.check import honours_held
from model.bridge.contracts import TRUMP_SUIT
from model.bridge.params import BridgeRules
from model.bridge.seats import EW, NS, board_dealer, board_vulnerable, is_vulnerable, side_of
from model.cards import DECK_52
from model.sim.batch import CARD_JSON, Batch, cards_json, jstr, obj
from model.sim.bots.bidding import Bidder
from model.sim.bots.bridge_play import play_bridge
from model.sim.seeds import Dealer, game_rng

PLAYERS = ("N", "E", "S", "W")
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
        self.play_json = [[f"[{jstr(p)},{CARD_JSON[c]}]" for c in range(64)] for p in PLAYERS]
        self.short = "rubber" if variant == "bridge-rubber" else "duplicate"
        self.call_json: dict[tuple[int, str], str] = {}

    def game_id(self, run_seed: int, index: int) -> str:
        return f"sim-{self.short}-{run_seed}-{index:08d}"

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
        record: dict[str, Any] = {"record": "game", "game_id": gid, "variant": self.variant,
                                  "players": list(PLAYERS)}
        if self.rules_record:
            record["rules"] = self.rules_record
        batch.add_game(self.variant, record, self.rules_json)
        if keep_lines:
            batch.add_game_line(record)
        dealer = Dealer(game_rng(run_seed, DECK_SEED, index), DECK_52)
        dealer.prepare(deals, 4, 13)
        for n in range(1, deals + 1):
            self.deal(batch, gid, n, dealer, keep_lines)

    def deal(
        self, batch: Batch, gid: str, deal_no: int, dealer: Dealer, keep_lines: bool = False
    ) -> None:
        """One deal into ``batch``: its canonical record and ``deals_bridge`` row."""
        hands, _ = dealer.deal(4, 13)
        duplicate = self.variant == "bridge-duplicate"
        first = board_dealer(deal_no) if duplicate else (deal_no - 1) % 4
        bidder = Bidder(hands, first)
        calls = bidder.run()
        result = run_auction(first, calls)
        pj = self.pj
        pairs = [
            ("game_id", f'"{gid}"'), ("deal_no", str(deal_no)), ("dealer", pj[first]),
            ("hands", "{" + ",".join(sorted(f"{pj[s]}:{cards_json(hands[s])}" for s in range(4)))
             + "}"),
            ("auction", "[" + ",".join([self._call_json((first + i) % 4, c)
                                        for i, c in enumerate(calls)]) + "]"),
        ]
        flat: dict[str, Any] = {
            "game_id": gid, "deal_no": deal_no, "event": None, "match": None, "room": None,
            "board": deal_no if duplicate else None, "ns_pair": None, "ew_pair": None,
            "dealer": first, "declarer": None, "level": None, "denom": None, "doubled": None,
            "tricks": None, "vul_ns": None, "vul_ew": None, "honours_ns": 0, "honours_ew": 0,
            "stated_score_ns": None,
        }
        if duplicate:
            vul = board_vulnerable(deal_no)
            pairs += [("board", str(deal_no)), ("vulnerable", jstr(vul))]
            flat["vul_ns"], flat["vul_ew"] = is_vulnerable(vul, NS), is_vulnerable(vul, EW)
        contract = None
        d = result.declarer
        if result.contract is not None and d is not None:
            c = result.contract
            contract = str(c)
            trump = TRUMP_SUIT[c.denom]
            leader_partner = (d + 3) % 4
            partner_suits = [s for s in range(4)
                             if bidder.shown[leader_partner].length[s] >= 4]
            moves, won = play_bridge(hands, d, trump, partner_suits, DECK_52)
            pjs = self.play_json
            pairs += [("declarer", pj[d]), ("contract", f'"{contract}"'),
                      ("tricks", str(won)),
                      ("play", "[" + ",".join([pjs[s][card] for s, card in moves]) + "]")]
            honours = [0, 0]
            for s, v in honours_held(hands, c).items():
                honours[side_of(s)] += v
            flat.update(declarer=d, level=c.level, denom=c.denom, doubled=c.doubled,
                        tricks=won, honours_ns=honours[NS], honours_ew=honours[EW])
        batch.add_deal_text(self.variant, obj(pairs), gid, deal_no, PLAYERS[first],
                            None if d is None else PLAYERS[d], contract, flat, keep_lines)
