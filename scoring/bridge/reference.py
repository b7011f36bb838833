"""The plain per-deal reference, written like the rulebook (``../shared/spec/bridge.md`` 4-7).

Each element is one small function with the Law it implements; ``duplicate_score`` (section 7) and
``rubber_entries`` (sections 4-5) assemble them. ``rubber_session`` carries the rubber state across
the deals of one game (Laws 72-74, Law 80 for an unfinished rubber) and Chicago's four-deal cycle.
The vectorised kernel (``scoring/bridge/kernel.py``) must agree with this module.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

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
from scoring.bridge.frames import PER_DEAL, assemble, game_modes
from scoring.settlement import Settled


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


# --- over frames: the reference the kernel is held to -----------------------------------


def per_deal_reference(
    games: pl.DataFrame, deals: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The reference: a plain loop over each game's deals in order."""
    modes = game_modes(games)
    rows: list[dict[str, object]] = []
    finished: list[dict[str, object]] = []
    for (gid,), part in deals.sort("game_id", "deal_no").group_by("game_id", maintain_order=True):
        if gid not in modes:
            continue
        rules, mode = modes[str(gid)]
        recs = part.to_dicts()
        if mode == "duplicate":
            for d in recs:
                rows.append(_duplicate_row(d, rules))
            finished.append({"game_id": gid, "finished": True})
            continue
        honours = rules.honours_for("bridge-rubber")
        session = [
            RubberDeal(
                d["dealer"],
                _contract(d),
                d["declarer"],
                d["tricks"],
                (d["honours_ns"], d["honours_ew"]) if honours else (0, 0),
            )
            for d in recs
        ]
        scores = rubber_session(session, rules, mode)
        for d, s in zip(recs, scores, strict=True):
            rows.append({
                "game_id": gid, "deal_no": d["deal_no"],
                "below_ns": s.below[NS], "below_ew": s.below[EW],
                "above_ns": s.above[NS], "above_ew": s.above[EW],
                "vul_ns": s.vulnerable[NS], "vul_ew": s.vulnerable[EW],
                "score_ns": s.score_ns,
            })
        if mode == "chicago":
            # Chicago is finished after whole four-deal cycles (redealt deals do not count).
            counted = sum(1 for d in session if rules.passed_out == "zero"
                          or (d.contract is not None and d.declarer is not None))
            done = counted > 0 and counted % 4 == 0
        else:
            done = bool(scores and scores[-1].rubber_over)
        finished.append({"game_id": gid, "finished": done})
    return (
        pl.DataFrame(rows, schema=PER_DEAL, orient="row"),
        pl.DataFrame(finished, schema={"game_id": pl.String(), "finished": pl.Boolean()}),
    )


def _contract(d: dict[str, object]) -> Contract | None:
    if d["level"] is None or d["declarer"] is None:
        return None
    return Contract(int(d["level"]), int(d["denom"]), int(d["doubled"] or 0))  # type: ignore[call-overload]


def _duplicate_row(d: dict[str, object], rules: BridgeRules) -> dict[str, object]:
    vul = (bool(d["vul_ns"]), bool(d["vul_ew"]))
    c = _contract(d)
    below = [0, 0]
    above = [0, 0]
    score_ns = 0
    if c is not None:
        side = int(d["declarer"]) % 2  # type: ignore[call-overload]
        score = duplicate_score(c, int(d["tricks"]), vul[side], rules)  # type: ignore[call-overload]
        if score > 0:
            below[side] = trick_score(c)
            above[side] = score - below[side]
        else:
            above[1 - side] = -score
        score_ns = score if side == NS else -score
    if rules.honours_for("bridge-duplicate"):
        above[NS] += int(d["honours_ns"])  # type: ignore[call-overload]
        above[EW] += int(d["honours_ew"])  # type: ignore[call-overload]
        score_ns += int(d["honours_ns"]) - int(d["honours_ew"])  # type: ignore[call-overload]
    return {
        "game_id": d["game_id"], "deal_no": d["deal_no"],
        "below_ns": below[NS], "below_ew": below[EW],
        "above_ns": above[NS], "above_ew": above[EW],
        "vul_ns": vul[NS], "vul_ew": vul[EW], "score_ns": score_ns,
    }


def settle_reference(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    per_deal, finished = per_deal_reference(games, deals)
    return assemble(games, per_deal, finished)
