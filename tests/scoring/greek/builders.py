"""Small record builders for the rule tests (greek-prefa.md 13)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame

PASS_CONTRACT = {2: "6S", 3: "6C", 4: "6D", 5: "6H", 6: "6NT", 7: "7S", 8: "8S", 9: "9S",
                 10: "10S"}
"""A contract of each value v (5.1) to deduct exactly v through a both-pass deal (9.1)."""


def game(players: Sequence[str], **rules: Any) -> GreekGame:
    rules.setdefault("four_players", len(players) == 4)
    return GreekGame(game_id="t", variant="greek-prefa", players=tuple(players),
                     rules=GreekRules(**rules))


class Deals:
    """Deals of one game, numbered in order."""

    def __init__(self, g: GreekGame) -> None:
        self.g = g
        self.deals: list[GreekDeal] = []

    def dealer_for(self, declarer: str | None) -> str:
        """Any dealer who is not the declarer (four players: the dealer sits out)."""
        p = self.g.players
        return next(x for x in reversed(p) if x != declarer)

    def add(self, **kw: Any) -> int:
        kw.setdefault("dealer", self.dealer_for(kw.get("declarer")))
        self.deals.append(GreekDeal(game_id=self.g.game_id, deal_no=len(self.deals) + 1, **kw))
        return len(self.deals)

    def defenders(self, declarer: str, dealer: str) -> tuple[str, str]:
        """R and L of the declarer (turn order; four players skip the sitting dealer)."""
        p = self.g.players
        i = p.index(declarer)
        order = [p[(i + k) % len(p)] for k in range(1, len(p))]
        r, left = [x for x in order if not (len(p) == 4 and x == dealer)]
        return r, left

    def both_pass(self, declarer: str, contract: str, **kw: Any) -> int:
        dealer = kw.pop("dealer", self.dealer_for(declarer))
        r, left = self.defenders(declarer, dealer)
        return self.add(declarer=declarer, dealer=dealer, contract=contract,
                        defence={r: "pass", left: "pass"}, **kw)

    def deduct_to(self, targets: dict[str, int]) -> None:
        """Bring each kassa from ``initial_kassa`` down to its target with both-pass deals."""
        k0 = self.g.rules.initial_kassa
        for name, target in targets.items():
            left = k0 - target
            while left > 0:
                v = min(left, 10)
                if left - v == 1:
                    v -= 1
                self.both_pass(name, PASS_CONTRACT[v])
                left -= v

    def played(self, declarer: str, contract: str, mode: str, t: tuple[int, ...],
               whister: str = "R", **kw: Any) -> int:
        """A played deal: ``t`` = tricks of D, R, L (L absent in ``alone``)."""
        dealer = kw.pop("dealer", self.dealer_for(declarer))
        r, left = self.defenders(declarer, dealer)
        tricks = {declarer: t[0], r: t[1]}
        if len(t) > 2:
            tricks[left] = t[2]
        if mode == "both":
            defence = {r: "play", left: "play"}
        else:
            w, p = (r, left) if whister == "R" else (left, r)
            defence = {w: mode, p: "pass"}
            if mode == "alone":
                tricks = {declarer: t[0], w: t[1] if whister == "R" else t[2]}
        return self.add(declarer=declarer, dealer=dealer, contract=contract, defence=defence,
                        tricks=tricks, **kw)
