"""The registered bridge settlements and the reference scorer over frames.

``settle(games, deals)`` runs the vectorised kernel (``kernel.py``); ``settle_reference`` runs
the plain per-deal reference (``reference.py``) over the same frames. Both give a ``PER_DEAL``
frame that ``output.assemble`` turns into the settlements, transfers and standings frames.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

from model.bridge.contracts import Contract
from model.bridge.params import BridgeRules
from model.bridge.seats import EW, NS
from model.tables import DEALS_BRIDGE
from scoring.bridge import reference as ref
from scoring.bridge.output import PER_DEAL, assemble
from scoring.registry import Settled


@lru_cache(maxsize=256)
def rules_of(text: str | None) -> BridgeRules:
    """A game's ``rules`` JSON (the games table column) as parameters; null or ``{}``: defaults."""
    if not text:
        return BridgeRules()
    return BridgeRules.model_validate(json.loads(text))


def game_modes(games: pl.DataFrame) -> dict[str, tuple[BridgeRules, str]]:
    """game_id -> (rules, mode) (``rubber``, ``duplicate`` or ``chicago``)."""
    out = {}
    for gid, variant, rules in games.select("game_id", "variant", "rules").iter_rows():
        r = rules_of(rules)
        out[gid] = (r, r.mode_for(variant))
    return out


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
            ref.RubberDeal(
                d["dealer"],
                _contract(d),
                d["declarer"],
                d["tricks"],
                (d["honours_ns"], d["honours_ew"]) if honours else (0, 0),
            )
            for d in recs
        ]
        scores = ref.rubber_session(session, rules, mode)
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
        score = ref.duplicate_score(c, int(d["tricks"]), vul[side], rules)  # type: ignore[call-overload]
        if score > 0:
            below[side] = ref.trick_score(c)
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


@dataclass(frozen=True)
class BridgeSettlement:
    """Satisfies ``scoring.registry.Settlement`` for one bridge variant name."""

    variant: str
    deals_table: str = DEALS_BRIDGE

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The vectorised settlement of every game at once (``kernel.py``)."""
        from scoring.bridge.kernel import per_deal_vectorised

        mine = games.filter(pl.col("variant") == self.variant)
        per_deal, finished = per_deal_vectorised(mine, deals)
        return assemble(mine, per_deal, finished)


RUBBER = BridgeSettlement("bridge-rubber")
DUPLICATE = BridgeSettlement("bridge-duplicate")
