"""PPN bids (field 4) and the full auction: each player's highest bid, and back.

PPN keeps only each player's highest bid (``P``, ``2``..``8``, ``M<n>`` = "mine n", ``G`` game,
``G<n>`` game naming n; ``G6``/``G7``/``G8`` the hand Bettel / Sanac / Preferans calls). Under the
auction rules (``model/balkan/auction.py``) the whole auction follows: each player in turn makes
the lowest call that moves him toward his highest bid (PPN README: ``M3,P,3`` in order 231 is
p2 2, p3 pass, p1 3, p2 "mine 3", p1 pass).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from ingest.ppn_codec import PpnError
from ingest.source import is_ascii_int
from model.balkan.auction import HAND_GAMES, HERE, PASS, Auction, CallError
from model.balkan.contracts import parse_contract
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal

_HAND_TOKEN = {"G6": "betl", "G7": "sans", "G8": "preferans"}
_TOKEN_OF_HAND = {"betl": "G6", "sans": "G7", "preferans": "G8"}


def _name(a: Auction, targets: dict[str, str], player: str, legal: list[str]) -> str:
    """A naming call (3.2 rule 4) that lets every igra player reach the game PPN gives him: a
    player whose game is higher than another's still to come names the lowest game first."""

    def goal(p: str) -> int | None:
        t = targets[p]
        return int(t[1:]) if is_ascii_int(t[1:]) and t not in _HAND_TOKEN else None

    mine = goal(player)
    if mine is None or a.named.get(player) == mine:
        return PASS
    last = a.last_named or 1
    pending = [g for q in a.hand if q != player and q not in a.out
               and (g := goal(q)) is not None and g > last and a.named.get(q) != g]
    call = f"G{mine}"
    if pending and mine > min(pending) and last + 1 < min(pending):
        call = f"G{last + 1}"
    return call if call in legal else PASS


def _choose(a: Auction, targets: dict[str, str], legal: list[str], player: str) -> str:
    target = targets[player]
    if target == "P":
        return PASS
    if target.startswith("G"):
        if a.naming:
            return _name(a, targets, player, legal)
        call = _HAND_TOKEN.get(target, "igra")
        return call if call in legal else PASS
    bids = [int(c) for c in legal if is_ascii_int(c)]
    high = a.high
    if target.startswith("M"):
        n = int(target[1:])
        if HERE in legal and high is not None and (high == n or (high < n and
                                                                 min(bids, default=99) >= n)):
            return HERE
        below = [b for b in bids if b < n]
        return str(min(below)) if below else PASS
    n = int(target)
    if str(n) in legal and (a.rules.jump_bids or (high is None and n == 2)
                            or (high is not None and n == high + 1)):
        return str(n)
    below = [b for b in bids if b < n]
    return str(min(below)) if below else PASS


def rebuild_auction(order: Sequence[str], tokens: Sequence[str], rules: BalkanRules
                    ) -> list[tuple[str, str]]:
    """The calls of an auction whose highest bids are ``tokens`` (in deal ``order``): the
    greedy one (each player makes the lowest call toward his highest bid) when it fits, else
    the first found by a small search over the calls no player's highest bid excludes."""
    target = dict(zip(order, tokens, strict=True))
    calls = _greedy(order, target, rules)
    if calls is not None and _fits(order, calls, tokens, rules):
        return calls
    found = _search(Auction(order, rules), order, target, tokens, rules, [], [SEARCH_BUDGET])
    if found is None:
        got = ",".join(_tokens(order, calls, rules)) if calls else "no finished auction"
        raise PpnError(f"bids {','.join(tokens)!r} are not the highest bids of a legal auction "
                       f"(the nearest legal one gives {got!r})")
    return found


def _greedy(order: Sequence[str], target: dict[str, str], rules: BalkanRules
            ) -> list[tuple[str, str]] | None:
    a = Auction(order, rules)
    calls: list[tuple[str, str]] = []
    for _ in range(64):
        p = a.to_act()
        if p is None:
            return calls
        call = _choose(a, target, a.legal_calls(), p)
        try:
            a.call(p, call)
        except CallError:
            return None
        calls.append((p, call))
    return None


def _fits(order: Sequence[str], calls: Sequence[tuple[str, str]], tokens: Sequence[str],
          rules: BalkanRules) -> bool:
    a = Auction(order, rules)
    for p, c in calls:
        a.call(p, c)
    if not a.done:
        return False
    got = _tokens(order, calls, rules)
    winner = a.result().winner
    # a lone igra player needs no naming round, but PPN may still write his game (``G4``)
    return all(g == t or (g == "G" and t in ("G2", "G3", "G4", "G5") and p == winner
                          and not a.named)
               for p, g, t in zip(order, got, tokens, strict=True))


def _level(token: str) -> int:
    return int(token.lstrip("MG") or 0) if token != "P" else 0


SEARCH_BUDGET = 2000
"""Auction states the search may visit before it gives up (bad bids fail fast)."""


def _search(a: Auction, order: Sequence[str], target: dict[str, str], tokens: Sequence[str],
            rules: BalkanRules, calls: list[tuple[str, str]], budget: list[int]
            ) -> list[tuple[str, str]] | None:
    """Depth-first over calls within each player's highest bid (usually a few dozen states)."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    p = a.to_act()
    if p is None:
        return calls if _fits(order, calls, tokens, rules) else None
    t = target[p]
    for call in a.legal_calls():
        if is_ascii_int(call) and (t == "P" or t.startswith("G") or int(call) > _level(t)):
            continue
        if call == HERE and ((not t.startswith("M") and not is_ascii_int(t))
                             or (a.high or 0) > _level(t)):
            continue
        if call in HAND_GAMES and not t.startswith("G"):
            continue
        if call.startswith("G") and (not t.startswith("G") or _level(call) > _level(t)):
            continue
        nxt = copy.deepcopy(a)
        nxt.call(p, call)
        found = _search(nxt, order, target, tokens, rules, [*calls, (p, call)], budget)
        if found is not None:
            return found
    return None


def _tokens(order: Sequence[str], calls: Sequence[tuple[str, str]], rules: BalkanRules
            ) -> list[str]:
    a = Auction(order, rules)
    best = dict.fromkeys(order, "P")
    for p, call in calls:
        high = a.high
        word = call.strip().lower()
        if word == HERE:
            best[p] = f"M{high}"
        elif word in HAND_GAMES:
            best[p] = _TOKEN_OF_HAND.get(word, "G")
        elif word.startswith("g") and is_ascii_int(word[1:]):
            best[p] = word.upper()
        elif is_ascii_int(word):
            best[p] = word
        a.call(p, call)
    return [best[p] for p in order]


def highest_bids(order: Sequence[str], deal: BalkanDeal, rules: BalkanRules) -> list[str]:
    """PPN field 4 of ``deal``: from its auction, or (no auction recorded) the declarer's
    contract as his only bid."""
    if deal.auction is not None:
        return _tokens(order, [(c.player, c.call) for c in deal.auction], rules)
    out = ["P"] * len(order)
    if deal.declarer is not None and deal.contract is not None:
        c = parse_contract(deal.contract)
        token = (f"G{c.number}" if c.number >= 6 else "G") if c.igra else str(c.number)
        out[list(order).index(deal.declarer)] = token
    return out
