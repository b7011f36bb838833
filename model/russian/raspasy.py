"""Runs of raspasy across deals (russian.md 7): the level, what ends a run, the exit.

A run is the number of raspasy in a row. Its level follows ``raspasy_progression``; a played
contract or a misère ends it (``raspasy_reset = played``; a contract nobody whisted does not), or
any contract (``any_contract``). After a run the next contract must reach the exit level
(``raspasy_exit``: ``free``, ``6-7-7``, ``7-7-7`` for one, two, three or more raspasy in a row).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from model.problems import Code, Problem
from model.russian.contracts import parse_contract
from model.russian.params import RussianRules
from model.russian.records import RussianDeal, RussianGame

PROGRESSION = {"1,2,3cap": (1, 2, 3), "1,2,4": (1, 2, 4), "none": (1,)}
EXIT = {"free": (6, 6, 6), "6-7-7": (6, 7, 7), "7-7-7": (7, 7, 7)}


class RaspasyDeal(BaseModel):
    """What the raspasy rule reads of a stored deal (7): its number, declarer, contract and
    defence, and its game (to copy it under another id). A stored record was checked whole when
    it was stored, so ``check_game`` reads it again without its hands and play
    (``Variant.check_game_reads``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    game_id: str
    deal_no: int
    declarer: str | None = None
    contract: str | None = None
    defence: dict[str, str] | None = None


def level(rules: RussianRules, run: int) -> int:
    """The level of a raspasy after ``run`` raspasy in a row (7 progression)."""
    steps = PROGRESSION[rules.raspasy_progression]
    return steps[min(run, len(steps) - 1)]


def exit_level(rules: RussianRules, run: int) -> int:
    """The lowest contract level allowed after ``run`` raspasy in a row (7 exit; 6 = free)."""
    return 6 if run == 0 else EXIT[rules.raspasy_exit][min(run, 3) - 1]


def played(rules: RussianRules, deal: RussianDeal | RaspasyDeal) -> bool:
    """Was a contract deal played: somebody whisted, or a half-whist played (3)."""
    said = (deal.defence or {}).values()
    return "whist" in said or ("half" in said and rules.half_whist_play)


def run_after(rules: RussianRules, run: int, *, raspasy: bool, misere: bool,
              played: bool) -> int:
    """The run after a deal (7): one more raspasy, or reset by a misère or a played contract
    (by any contract with ``raspasy_reset = any_contract``)."""
    if raspasy:
        return run + 1
    if misere or played or rules.raspasy_reset == "any_contract":
        return 0
    return run


def exit_binds(game: RussianGame) -> bool:
    """Whether a contract can be below the exit in this game (7): not with ``raspasy_exit =
    free``, where every exit is 6, the lowest contract; :func:`check_game` then finds nothing."""
    return any(level > 6 for level in EXIT[game.rules.raspasy_exit])


def check_game(game: RussianGame, deals: Sequence[RussianDeal | RaspasyDeal]
               ) -> list[tuple[int, Problem]]:
    """Problems only the game's earlier deals show, as (deal_no, problem): a contract below the
    raspasy exit (7). ``deals`` in play order."""
    out: list[tuple[int, Problem]] = []
    run = 0
    for deal in deals:
        if deal.declarer is not None and deal.contract != "misere":
            need = exit_level(game.rules, run)
            if parse_contract(deal.contract or "").level < need:
                out.append((deal.deal_no, Problem(
                    Code.ILLEGAL_CONTRACT,
                    f"{deal.contract} after {run} raspasy in a row: the exit is {need} or higher "
                    f"(raspasy_exit {game.rules.raspasy_exit}, 7)")))
        run = run_after(game.rules, run, raspasy=deal.declarer is None,
                        misere=deal.contract == "misere", played=played(game.rules, deal))
    return out
