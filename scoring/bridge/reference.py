"""The plain per-deal reference, written like the rulebook (``../shared/spec/bridge.md`` 4-7).

Each element is one small function with the Law it implements; ``duplicate_score`` (section 7) and
``rubber_entries`` (sections 4-5) assemble them. ``rubber_session`` carries the rubber state across
the deals of one game (Laws 72-74, Law 80 for an unfinished rubber) and Chicago's four-deal cycle.
The vectorised kernel (``scoring/bridge/kernel.py``) must agree with this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.bridge.contracts import Contract
from model.bridge.params import BridgeRules
from model.bridge.score import (
    LAWS,
    duplicate_score,
    overtrick_score,
    slam_bonus,
    trick_score,
    undertrick_penalty,
)
from model.bridge.seats import EW, NS, side_of


@dataclass(frozen=True, slots=True)
class Entries:
    """What one deal writes on a rubber sheet, for the declaring side and the defenders."""

    below: int
    """Declarer's trick score (made contracts only)."""
    above_declarer: int
    above_defenders: int


def rubber_entries(
    c: Contract, tricks: int, vulnerable: bool, rules: BridgeRules = LAWS
) -> Entries:
    """Trick score below the line, premiums above (RL Law 72, 4.1-4.5); no per-deal game bonus."""
    down = c.tricks_needed - tricks
    if down > 0:
        penalty = undertrick_penalty(c, down, vulnerable) + rules.defeat_bonus(c.doubled)
        return Entries(0, 0, penalty)
    over = -down
    above = (
        slam_bonus(c, vulnerable)
        + overtrick_score(c, over, vulnerable, rules)
        + rules.insult(c.doubled, over)
    )
    return Entries(trick_score(c), above, 0)


@dataclass(frozen=True, slots=True)
class RubberDeal:
    """The input of one deal of a rubber or Chicago session (seats 0..3, N E S W)."""

    dealer: int
    contract: Contract | None
    declarer: int | None
    tricks: int | None
    honours: tuple[int, int] = (0, 0)
    """Honour points held by NS and by EW (4.6)."""


@dataclass(frozen=True, slots=True)
class DealScore:
    below: tuple[int, int]
    """Trick points below the line this deal, NS and EW."""
    above: tuple[int, int]
    """Premium points above the line this deal (incl. rubber and unfinished-rubber bonuses)."""
    vulnerable: tuple[bool, bool]
    """Each side's vulnerability while the deal was played."""
    rubber_over: bool = False
    """This deal ended a rubber (rubber mode) or a four-deal cycle (Chicago)."""

    @property
    def score_ns(self) -> int:
        return self.below[0] + self.above[0] - self.below[1] - self.above[1]


def rubber_session(deals: list[RubberDeal], rules: BridgeRules, mode: str) -> list[DealScore]:
    """Score the deals of one game in order: ``mode`` is ``rubber`` or ``chicago`` (5, 10)."""
    if mode == "chicago":
        return _chicago(deals, rules)
    out: list[DealScore] = []
    games = [0, 0]
    part = [0, 0]
    """Trick points toward the current game (reset for both sides when a game is won, Law 73)."""
    for d in deals:
        vul = (games[NS] > 0, games[EW] > 0)
        below = [0, 0]
        above = [d.honours[NS], d.honours[EW]] if rules.honours_for("bridge-rubber") else [0, 0]
        over = False
        if d.contract is not None and d.declarer is not None and d.tricks is not None:
            side = side_of(d.declarer)
            e = rubber_entries(d.contract, d.tricks, vul[side], rules)
            below[side] += e.below
            above[side] += e.above_declarer
            above[1 - side] += e.above_defenders
            part[side] += e.below
            if part[side] >= 100:
                games[side] += 1
                part = [0, 0]
                if games[side] == 2:
                    above[side] += 700 if games[1 - side] == 0 else 500
                    games = [0, 0]
                    over = True
        out.append(DealScore((below[0], below[1]), (above[0], above[1]), vul, over))
    if out and not out[-1].rubber_over and (any(games) or any(part)):
        one_game, partscore = rules.incomplete_rubber_bonus
        last = out[-1]
        extra = [
            (one_game if games[s] else 0) + (partscore if part[s] else 0) for s in (NS, EW)
        ]
        out[-1] = DealScore(last.below, (last.above[0] + extra[0], last.above[1] + extra[1]),
                            last.vulnerable, False)
    return out


def chicago_vulnerable(position: int, dealer: int) -> tuple[bool, bool]:
    """Chicago (10 [bk]): deal 1 none, deals 2 and 3 the dealer's side, deal 4 both."""
    k = position % 4
    if k == 0:
        return (False, False)
    if k == 3:
        return (True, True)
    return (side_of(dealer) == NS, side_of(dealer) == EW)


def _chicago(deals: list[RubberDeal], rules: BridgeRules) -> list[DealScore]:
    out: list[DealScore] = []
    position = 0
    honours = rules.honours_for("bridge-rubber")
    for d in deals:
        vul = chicago_vulnerable(position, d.dealer)
        below = [0, 0]
        above = [d.honours[NS], d.honours[EW]] if honours else [0, 0]
        played = d.contract is not None and d.declarer is not None and d.tricks is not None
        if played:
            assert d.contract is not None and d.declarer is not None and d.tricks is not None
            side = side_of(d.declarer)
            score = duplicate_score(d.contract, d.tricks, vul[side], rules)
            if score > 0:
                below[side] = trick_score(d.contract)
                above[side] += score - below[side]
            else:
                above[1 - side] += -score
        counts = played or rules.passed_out == "zero"
        over = counts and position % 4 == 3
        position += 1 if counts else 0
        out.append(DealScore((below[0], below[1]), (above[0], above[1]), vul, over))
    return out
