"""Greek Prefa contracts: the bid ladder's order, contract values and defence quotas.

Sources: ``../shared/spec/greek-prefa.md`` 4.1 (ladder), 5.1 (values), 6.2 (obligations).
"""

from __future__ import annotations

from model.greek.params import GreekRules

DENOMS = ("S", "C", "D", "H", "NT")
"""Denominations low to high: spades < clubs < diamonds < hearts < no-trump (2, 4.1)."""
NT = 4

SIX_LEVEL_VALUE = (2, 3, 4, 5, 6)
"""v of 6S 6C 6D 6H 6NT (5.1)."""

BOTH_QUOTA = {6: (2, 2), 7: (2, 1), 8: (1, 1), 9: (1, 0), 10: (0, 0)}
"""Tricks each of R (declarer's right) and L must take when both defend (6.2)."""
TEAM_QUOTA = {6: 4, 7: 3, 8: 2, 9: 1, 10: 0}
"""Tricks the defence must take together (6.2); also the whister's quota after an invitation."""
ALONE_QUOTA = {6: 2, 7: 2, 8: 1, 9: 1, 10: 0}
"""Tricks a whister playing alone must take (6.2)."""


class ContractError(ValueError):
    pass


def parse_contract(text: str) -> tuple[int, int]:
    """``"7NT"`` -> ``(7, 4)``: tricks and denomination index."""
    for i, d in enumerate(DENOMS):
        head = text[: -len(d)]
        if text.endswith(d) and head.isdigit() and 6 <= int(head) <= 10:
            return int(head), i
    raise ContractError(f"not a Greek Prefa contract: {text!r} (6S ... 10H, 10NT)")


def format_contract(level: int, denom: int) -> str:
    return f"{level}{DENOMS[denom]}"


def allowed(level: int, denom: int, rules: GreekRules) -> bool:
    """10NT exists only with the ``ten_nt`` variant (5.1, 14)."""
    return not (level == 10 and denom == NT and rules.ten_nt == "forbidden")


def ladder_index(level: int, denom: int) -> int:
    """Position on the bid ladder (4.1): 6S = 0, 6C = 1, ..., 10H = 23, 10NT = 24."""
    return 5 * (level - 6) + denom


def base_value(level: int, denom: int, rules: GreekRules) -> int:
    """Contract value v in kassa points (5.1): 2..6 at the 6 level, else tricks (+1 for NT);
    10NT is 11 or 10 by ``ten_nt``."""
    if level == 6:
        return SIX_LEVEL_VALUE[denom]
    if level == 10 and denom == NT:
        return 11 if rules.ten_nt == "value_11" else 10
    return level + (1 if denom == NT else 0)


def value(level: int, denom: int, rules: GreekRules, four_aces: bool = False) -> int:
    """v with the four-aces raise applied (section 14 ``four_aces = raise_value``, 16 G7)."""
    v = base_value(level, denom, rules)
    if four_aces and rules.four_aces == "raise_value":
        v += rules.four_aces_value_raise()
    return v


def obligation_row(level: int, rules: GreekRules) -> int:
    """The quota row used: 10-trick contracts use the 9 row under ``ten_as_nine`` (14)."""
    return 9 if (level == 10 and rules.ten_as_nine) else level
