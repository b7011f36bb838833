"""The Balkan score sheet ("paper"): what one deal writes on it (``../shared/spec/balkan.md`` 7).

The sheet (7.1): every player has a bula (declarer column, starting at ``start_bula``) and writes
soups against his opponents. Refe (7.4) run across deals: an all-pass deal gives every player a
refa (while refe may be written); a player's next declared contract uses one and counts double.
These are rules of the game, so they live in the domain: the PPN reader checks a recorded summary
against them and ``scoring/balkan/reference.py`` settles whole games with them.

A player's final score (7.5) is soups written minus soups written against him minus ten times his
bula.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from model.balkan.contracts import BETL, PREFERANS, declarer_made
from model.balkan.params import BalkanRules

BULA_POINT = 10
"""One bula point is worth ten soup points at the end (7.1, 7.5)."""


@dataclass
class DealEntries:
    """What one deal writes on the sheet. ``soups[i][j]``: written by ``i`` against ``j``."""

    n: int
    bula: list[int] = field(default_factory=list)
    soups: list[list[int]] = field(default_factory=list)
    refa_used: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bula = [0] * self.n
        self.soups = [[0] * self.n for _ in range(self.n)]
        self.refa_used = [False] * self.n


@dataclass
class Sheet:
    """The running state of one game (7.1, 7.4)."""

    rules: BalkanRules
    n: int
    bula: list[int] = field(default_factory=list)
    open_refe: list[int] = field(default_factory=list)
    refe_written: int = 0
    finished: bool = False
    soup_balance: list[int] = field(default_factory=list)
    """Soups written by each player minus soups written against him."""

    def __post_init__(self) -> None:
        self.bula = [self.rules.start_bula] * self.n
        self.open_refe = [0] * self.n
        self.soup_balance = [0] * self.n

    def may_write_refa(self) -> bool:
        """7.4: refe are limited by ``max_refe``, and blocked while a bula is below zero under
        ``refe_blocked_below_zero``."""
        r = self.rules
        if r.max_refe is not None and self.refe_written >= r.max_refe:
            return False
        return not (r.refe_blocked_below_zero and min(self.bula) < 0)

    def write_refa(self) -> None:
        """7.4: a refa for every player."""
        self.refe_written += 1
        self.open_refe = [k + 1 for k in self.open_refe]

    def use_refa(self, seat: int) -> int:
        """The hand multiplier r (7.2): 2 when the declarer has an unused refa (one is used)."""
        if self.open_refe[seat] > 0:
            self.open_refe[seat] -= 1
            return 2
        return 1

    def is_over(self) -> bool:
        """7.5: the sum of the bulas at or below zero (or every bula, ``all_bulas_le_zero``)."""
        if self.rules.end_condition == "all_bulas_le_zero":
            return max(self.bula) <= 0
        return sum(self.bula) <= 0


def _get(row: Mapping[str, object], key: str) -> int | None:
    v = row.get(key)
    return None if v is None else int(v)  # type: ignore[call-overload]


def settle_deal(sheet: Sheet, row: Mapping[str, object]) -> DealEntries:
    """Book one deal on ``sheet`` (balkan.md 7.3 pseudo-code) and return its entries."""
    rules, n = sheet.rules, sheet.n
    out = DealEntries(n)
    mode = str(row["mode"])
    if row.get("repealed"):
        _repealed(sheet, row, out)
        return out
    if mode == "none":
        if sheet.may_write_refa():
            sheet.write_refa()
        return out
    d = _get(row, "declarer")
    number = _get(row, "number")
    assert d is not None and number is not None
    v = rules.value(number, bool(row.get("igra")))
    if mode == "nokontra" and rules.pik_without_kontra == "refa_then_declarer_scores" \
            and sheet.may_write_refa():
        sheet.write_refa()  # 7.4 Serbian clubs: Pik not kontra'd writes a refa
        return out
    r = sheet.use_refa(d)
    out.refa_used[d] = r == 2
    if mode in ("pass", "nokontra"):
        # 5.1 both pass / 5.3 Pik not kontra'd: no play, the contract counts as made
        out.bula[d] -= v * r
        _book(sheet, out)
        return out
    tricks = {i: t for i in range(n) if (t := _get(row, f"tricks_{i}")) is not None}
    defenders = [i for i in tricks if i != d]  # those who took part in the play
    lead = _get(row, "lead_defender")
    m = {i: 2 ** (_get(row, f"kontra_{i}") or 0) for i in defenders}
    big = max(m.values(), default=1)
    t_d = tricks[d]
    defence = sum(tricks[i] for i in defenders)
    made = declarer_made(number, t_d)
    entry = v * r * big
    if not made and rules.double_fall and entry > sum(sheet.bula):
        entry *= 2  # 7.5 double fall
    out.bula[d] += -entry if made else entry
    kontra_players = [i for i in defenders if m[i] > 1]
    takes_all = rules.kontra_scope == "kontra_player_takes_all" and kontra_players

    def factor(i: int) -> int:
        if rules.kontra_scope == "pairwise":
            return r * m[i]
        return r * big  # whole_hand and kontra_player_takes_all: the hand's multiplier

    written = _written_soups(rules, number, mode, made, tricks, defenders, lead)
    if takes_all:
        k = kontra_players[0]
        written = {i: (sum(written.values()) if i == k else 0) for i in defenders}
    for i in defenders:
        out.soups[i][d] += v * factor(i) * written[i]
    if made:  # defenders penalised (5.2) when the declarer made his contract
        for i in defenders:
            if (not takes_all or i in kontra_players) and _defender_fails(
                    rules, number, mode, i, m[i] > 1, tricks, defence, lead):
                out.bula[i] += v * factor(i)
    _book(sheet, out)
    return out


def _written_soups(rules: BalkanRules, number: int, mode: str, made: bool,
                   tricks: Mapping[int, int], defenders: list[int],
                   lead: int | None) -> dict[int, int]:
    """The tricks each defender writes as soups against the declarer (7.3): trick games by the
    defender's tricks (all to the inviter under ``invited_soups = to_inviter``), Bettel only
    when lost (``bettel_fail_soup``)."""
    if number == BETL:
        if made or rules.bettel_fail_soup == "none":
            return {i: 0 for i in defenders}
        return {i: 5 if rules.bettel_fail_soup == "five_tricks" else tricks[i] for i in defenders}
    if mode == "invite" and rules.invited_soups == "to_inviter" and lead is not None:
        defence = sum(tricks[i] for i in defenders)
        return {i: (defence if i == lead else 0) for i in defenders}
    return {i: tricks[i] for i in defenders}


def _defender_fails(rules: BalkanRules, number: int, mode: str, i: int, kontra: bool,
                    tricks: Mapping[int, int], defence: int, lead: int | None) -> bool:
    """Whether defender ``i`` falls when the declarer made his contract (5.2)."""
    if kontra:
        return True  # 5.2 kontra row: the defence took at most four
    if number in (BETL, PREFERANS):
        return False
    if mode == "invite":
        return i == lead and defence < 4
    if mode == "alone" or rules.defender_fail == "individual_two":
        return tricks[i] < 2
    return defence < 4 and tricks[i] < 2


def _repealed(sheet: Sheet, row: Mapping[str, object], out: DealEntries) -> None:
    """A repealed deal scores nothing; under ``repeal_revalues = false`` its contract still uses
    the declarer's open refa, as when it was played (a Pik not kontra'd under
    ``refa_then_declarer_scores`` excepted)."""
    d = _get(row, "declarer")
    if sheet.rules.repeal_revalues or d is None or row["mode"] == "none":
        return
    if row["mode"] == "nokontra" and sheet.rules.pik_without_kontra != "declarer_scores":
        return
    out.refa_used[d] = sheet.use_refa(d) == 2


def _book(sheet: Sheet, out: DealEntries) -> None:
    for i in range(sheet.n):
        sheet.bula[i] += out.bula[i]
        for j in range(sheet.n):
            sheet.soup_balance[i] += out.soups[i][j]
            sheet.soup_balance[j] -= out.soups[i][j]



def score_change(entries: DealEntries) -> list[int]:
    """Change of each player's score S_i = written - against - 10 bula_i (7.5)."""
    n = entries.n
    return [
        sum(entries.soups[i]) - sum(entries.soups[j][i] for j in range(n))
        - BULA_POINT * entries.bula[i]
        for i in range(n)
    ]


def final_scores(bula: Sequence[int], soups: Sequence[Sequence[int]]) -> list[int]:
    """S_i = soups written by i - soups written against i - 10 bula_i (7.5)."""
    n = len(bula)
    return [sum(soups[i]) - sum(soups[j][i] for j in range(n)) - BULA_POINT * bula[i]
            for i in range(n)]
