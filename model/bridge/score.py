"""The score of a bridge contract: the Laws' scoring table (``../shared/spec/bridge.md`` 4, 7).

These are rules of the game (Law 77 and the rubber Laws 72-74 share them), so they live in the
domain: the checks of a stated score in ``model/bridge/check.py`` and the settlement in
``scoring/bridge/`` both read them from here.
"""

from __future__ import annotations

from model.bridge.contracts import CLUBS, DIAMONDS, NOTRUMP, Contract
from model.bridge.params import BridgeRules
from model.bridge.seats import NS, Vulnerable, is_vulnerable, side_of

LAWS = BridgeRules()


def trick_score(c: Contract) -> int:
    """Points for the tricks bid (4.1, L77): 20 minors, 30 majors, NT 40 then 30; x2 / x4."""
    if c.denom in (CLUBS, DIAMONDS):
        base = 20 * c.level
    elif c.denom == NOTRUMP:
        base = 40 + 30 * (c.level - 1)
    else:
        base = 30 * c.level
    return base * (1 << c.doubled)


def overtrick_score(c: Contract, overtricks: int, vulnerable: bool, rules: BridgeRules) -> int:
    """4.2 (L77): trick value undoubled; 100/200 doubled, 200/400 redoubled (seed004: 50)."""
    if overtricks <= 0:
        return 0
    if c.doubled == 0:
        return overtricks * (20 if c.denom in (CLUBS, DIAMONDS) else 30)
    return overtricks * rules.overtrick_doubled(vulnerable, c.doubled)


def slam_bonus(c: Contract, vulnerable: bool) -> int:
    """4.4 (L77): small slam 500 / 750, grand slam 1000 / 1500, when bid and made."""
    if c.level == 6:
        return 750 if vulnerable else 500
    if c.level == 7:
        return 1500 if vulnerable else 1000
    return 0


def undertrick_penalty(c: Contract, down: int, vulnerable: bool) -> int:
    """4.5 (L77): 50/100 each undoubled; doubled NV 100, 200, 200, 300...; V 200, 300...;
    redoubled twice the doubled values."""
    if down <= 0:
        return 0
    if c.doubled == 0:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        doubled = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled * c.doubled


def game_or_part_bonus(below: int, vulnerable: bool) -> int:
    """Duplicate only (6, L77): partscore 50; game (trick score >= 100) 300 NV / 500 V."""
    if below >= 100:
        return 500 if vulnerable else 300
    return 50


def duplicate_score(c: Contract, tricks: int, vulnerable: bool, rules: BridgeRules = LAWS) -> int:
    """The declarer side's score of one board (section 7; negative: the defenders score it)."""
    down = c.tricks_needed - tricks
    if down > 0:
        return -(undertrick_penalty(c, down, vulnerable) + rules.defeat_bonus(c.doubled))
    over = -down
    below = trick_score(c)
    return (
        below
        + game_or_part_bonus(below, vulnerable)
        + slam_bonus(c, vulnerable)
        + overtrick_score(c, over, vulnerable, rules)
        + rules.insult(c.doubled, over)
    )


def duplicate_score_ns(
    c: Contract | None,
    declarer: int | None,
    tricks: int | None,
    vul: Vulnerable,
    rules: BridgeRules = LAWS,
) -> int:
    """North-South's score of a board; 0 when passed out (2.3, L77)."""
    if c is None or declarer is None or tricks is None:
        return 0
    side = side_of(declarer)
    score = duplicate_score(c, tricks, is_vulnerable(vul, side), rules)
    return score if side == NS else -score
