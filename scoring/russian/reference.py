"""The Russian settlement written like the rulebook: one deal at a time (russian.md 5-8).

This is the plain reading the kernel (``kernel.py``) is held equal to. A game's sheet (5) holds per
player the pool P, the hill G and the whists W[i][j] written by i against j, and the raspasy run.
Per deal:

- a contract (6.2): made, P_D += c; failed, G_D += k_rem*c*u and consolation; the defence writes
  k_w*c per trick (greedy or gentleman) and answers for its quota; half-whist; misère;
- raspasy (7): level of the run, amnesty, zero-trick bonus;
- every pool write goes through the overflow (8): past T to the highest pool below T (10 whists a
  point), and when every pool is closed off the donor's hill;
- the game ends when every pool has reached T (8): later deals are stored but not settled;
- cash (8): i's result changes by sum_j (W_ij - W_ji) + (10/D) * sum_j (H_j - H_i), D = N
  (``all_participants``) or N - 1 (``opponents_only``), H the hill (less the pool with
  ``unfinished_pool = to_hill``: a pool point is a hill point less, and once every pool is at T the
  pools cancel out).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from model.russian.contracts import QUOTA, VALUE
from model.russian.frame import HALF, WHIST
from model.russian.params import RussianRules
from model.russian.raspasy import level as raspasy_level
from model.russian.raspasy import run_after
from model.russian.seats import in_deal
from scoring.russian import frames
from scoring.russian.frames import RussianSettled, read_rules

HILL_WHISTS = 10
"""A hill point is worth 10 whists (5, 8); so is a pool point given away (8)."""
MISERE_POOL = 10


@dataclass
class Sheet:
    """One game's running state (5)."""

    n: int
    pool: list[int] = field(default_factory=lambda: [0] * 4)
    hill: list[int] = field(default_factory=lambda: [0] * 4)
    run: int = 0
    """Raspasy in a row before this deal (7)."""


@dataclass
class Entries:
    """What one deal writes: pool points (before the overflow), hill, whists[i][j] (i on j)."""

    pool: list[int] = field(default_factory=lambda: [0] * 4)
    hill: list[int] = field(default_factory=lambda: [0] * 4)
    whists: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(4)])


@dataclass(frozen=True, slots=True)
class Deal:
    """A ``deals_russian`` row (``model/russian/frame.py``)."""

    dealer: int
    declarer: int | None
    level: int | None
    misere: bool
    defenders: tuple[int, int]
    defence: tuple[int, int]
    tricks: tuple[int | None, ...]

    @classmethod
    def of(cls, row: dict[str, object]) -> Deal:
        def get(name: str) -> int:
            value = row[name]
            return -1 if value is None else int(value)  # type: ignore[call-overload]

        return cls(
            dealer=get("dealer"),
            declarer=None if row["declarer"] is None else get("declarer"),
            level=None if row["level"] is None else get("level"),
            misere=bool(row["misere"]),
            defenders=(get("defender_1"), get("defender_2")),
            defence=(get("defence_1"), get("defence_2")),
            tricks=tuple(None if row[f"tricks_{i}"] is None else get(f"tricks_{i}")
                         for i in range(4)),
        )

    def t(self, seat: int) -> int:
        return self.tricks[seat] or 0


def shortfall_per_trick(rules: RussianRules, c: int) -> int:
    """Hill per defence trick short of the quota: k_w*c, or half of it (6.1 responsibility)."""
    per = rules.whist_trick_factor * c
    return per // 2 if rules.shortfall_half else per


def unplayed(rules: RussianRules, d: Deal, e: Entries) -> None:
    """Both passed, or a half-whist that is not played (3): the declarer scores his contract;
    the half-whister writes whists for half the quota, k_w*c*Q/2 (6.2)."""
    assert d.declarer is not None and d.level is not None
    c = VALUE[d.level]
    e.pool[d.declarer] += c
    if d.defence[1] == HALF:
        e.whists[d.defenders[1]][d.declarer] += rules.whist_trick_factor * c * QUOTA[d.level] // 2


def misere(rules: RussianRules, d: Deal, e: Entries) -> None:
    """Misère (6.1): no trick, 10 to the pool; else k_mis per trick to the hill; no whists."""
    assert d.declarer is not None
    taken = d.t(d.declarer)
    if taken == 0:
        e.pool[d.declarer] += MISERE_POOL
    else:
        e.hill[d.declarer] += rules.misere_trick_penalty * taken


def half_played(rules: RussianRules, d: Deal, e: Entries) -> None:
    """A half-whist played for half the quota (``half_whist_play``, [rostik]): the half-whister
    scores at most Q/2 tricks and answers for the rest of them."""
    assert d.declarer is not None and d.level is not None
    c, n = VALUE[d.level], d.level
    decl, h = d.declarer, d.defenders[1]
    half = QUOTA[n] // 2
    defence = 10 - d.t(decl)
    if d.t(decl) >= n:
        e.pool[decl] += c
    else:
        e.hill[decl] += rules.remise_factor * c * (n - d.t(decl))
    e.whists[h][decl] += rules.whist_trick_factor * c * min(defence, half)
    e.hill[h] += shortfall_per_trick(rules, c) * max(0, half - defence)


def two_whisters_short(rules: RussianRules, d: Deal, e: Entries, c: int, q1: int) -> None:
    """Two whisters and their quota (6.2, [parlett]): on 6 and 7 each owes q = Q/2; if only one is
    below q he pays the team's whole shortfall, if both are, each pays his own. On 8-10 (Q = 1)
    per ``two_whister_q1_responsible``."""
    assert d.declarer is not None and d.level is not None
    s = shortfall_per_trick(rules, c)
    quota = QUOTA[d.level]
    first, second = d.defenders
    defence = d.t(first) + d.t(second)
    if quota == 1:
        if q1 == 1:  # second_whister_personal
            e.hill[second] += s * (d.t(second) < 1)
        elif defence < 1:
            for w in (first, second) if q1 == 2 else (second,):
                e.hill[w] += s
        return
    if defence >= quota:
        return
    q = quota // 2
    below = [w for w in (first, second) if d.t(w) < q]
    if len(below) == 1:
        e.hill[below[0]] += s * (quota - defence)
    else:
        for w in below:
            e.hill[w] += s * (q - d.t(w))


Q1_MODE = {"second_whister": 0, "second_whister_personal": 1, "both": 2}


def played(rules: RussianRules, d: Deal, e: Entries) -> None:
    """A whisted contract (6.2): pool or remise and consolation, whists per defence trick, the
    defence's quota; gentleman's whist splits everything half-half on a failure (6.1)."""
    assert d.declarer is not None and d.level is not None
    c, n, decl = VALUE[d.level], d.level, d.declarer
    taken = d.t(decl)
    whisters = [w for w, say in zip(d.defenders, d.defence, strict=True) if say == WHIST]
    u = max(0, n - taken)
    if u == 0:
        e.pool[decl] += c
    else:
        e.hill[decl] += rules.remise_factor * c * u
        consoled = {"both_opponents": d.defenders, "whisters_only": whisters, "none": ()}
        for o in consoled[rules.consolation]:
            e.whists[o][decl] += rules.consolation_factor * c * u
    k = rules.whist_trick_factor * c
    if len(whisters) == 2:
        for w in whisters:
            e.whists[w][decl] += k * d.t(w)
        two_whisters_short(rules, d, e, c, Q1_MODE[rules.two_whister_q1_responsible])
        return
    w = whisters[0]
    defence = 10 - taken
    e.whists[w][decl] += k * defence
    e.hill[w] += shortfall_per_trick(rules, c) * max(0, QUOTA[n] - defence)
    if u and rules.whist_style == "gentleman":
        passer = d.defenders[0] if d.defenders[1] == w else d.defenders[1]
        total = e.whists[w][decl] + e.whists[passer][decl]
        e.whists[w][decl] = e.whists[passer][decl] = total // 2


def raspasy(rules: RussianRules, n: int, d: Deal, level: int, e: Entries) -> None:
    """All pass (7): each trick costs ``raspasy_trick_value * level``, less the fewest tricks of
    the deal (amnesty); no trick earns the zero bonus to the pool. Rostov pays in whists: each
    other player in the deal writes the cost on the player ([resolution])."""
    seats = in_deal(n, d.dealer)
    low = min(d.t(s) for s in seats) if rules.raspasy_amnesty else 0
    for s in seats:
        if d.t(s) == 0:
            e.pool[s] += rules.raspasy_zero_bonus
            continue
        cost = rules.raspasy_trick_value * level * (d.t(s) - low)
        if rules.raspasy_payment == "hill":
            e.hill[s] += cost
        else:
            for o in seats:
                if o != s:
                    e.whists[o][s] += cost


def entries(rules: RussianRules, sheet: Sheet, d: Deal) -> Entries:
    """What one deal writes, and the raspasy run it leaves (7 progression reset)."""
    e = Entries()
    is_played = WHIST in d.defence or (d.defence[1] == HALF and rules.half_whist_play)
    if d.declarer is None:
        raspasy(rules, sheet.n, d, raspasy_level(rules, sheet.run), e)
    elif d.misere:
        misere(rules, d, e)
    elif not is_played:
        unplayed(rules, d, e)
    elif WHIST in d.defence:
        played(rules, d, e)
    else:
        half_played(rules, d, e)
    sheet.run = run_after(rules, sheet.run, raspasy=d.declarer is None, misere=d.misere,
                          played=is_played)
    return e


def write_pool(rules: RussianRules, sheet: Sheet, donor: int, points: int, e: Entries) -> None:
    """Pool points of ``donor`` through the overflow (8): fill his pool to T; the rest helps the
    highest pool below T (ties clockwise from the donor), 10 whists a point written by the donor
    on the helped player; when every pool is closed, the rest comes off the donor's hill."""
    n, target = sheet.n, rules.pool_target
    own = min(points, max(0, target - sheet.pool[donor]))
    sheet.pool[donor] += own
    rest = points - own
    while rest > 0:
        open_ = [s for s in range(n) if s != donor and sheet.pool[s] < target]
        if not open_:
            cut = rest if rules.overflow_hill_below_zero else min(rest, max(0, sheet.hill[donor]))
            sheet.hill[donor] -= cut
            e.hill[donor] -= cut
            return
        to = max(open_, key=lambda s: (sheet.pool[s], -((s - donor) % n)))
        give = min(rest, target - sheet.pool[to])
        sheet.pool[to] += give
        e.whists[donor][to] += HILL_WHISTS * give
        rest -= give


@dataclass(frozen=True, slots=True)
class Scored:
    """One deal's result per seat: pool and hill change (after the overflow), whists written."""

    pool: list[int]
    hill: list[int]
    whists: list[list[int]]


def score_deal(rules: RussianRules, sheet: Sheet, d: Deal) -> Scored:
    """Apply one deal to ``sheet`` and return what changed."""
    pool_before = list(sheet.pool)
    e = entries(rules, sheet, d)
    for s in range(sheet.n):
        sheet.hill[s] += e.hill[s]
    first = (d.dealer + 1) % sheet.n
    for k in range(sheet.n):
        s = (first + k) % sheet.n
        if e.pool[s]:
            write_pool(rules, sheet, s, e.pool[s], e)
    pool = [sheet.pool[s] - pool_before[s] for s in range(4)]
    return Scored(pool, list(e.hill), e.whists)


def divisor(rules: RussianRules, n: int) -> int:
    """D of the hill split (8, R5): N players, or N - 1 opponents."""
    return n if rules.hill_split == "all_participants" else n - 1


def effective_hill(rules: RussianRules, pool: list[int], hill: list[int]) -> list[int]:
    """The hill as the settlement counts it: less the pool under ``unfinished_pool = to_hill``."""
    if rules.unfinished_pool == "to_hill":
        return [g - p for g, p in zip(hill, pool, strict=True)]
    return list(hill)


def received(rules: RussianRules, n: int, i: int, j: int, whists: list[list[int]],
             hill: list[int]) -> float:
    """What i gains from j (8): the whists between them and j's hill against i's, 10/D a point."""
    dd = divisor(rules, n)
    return (dd * (whists[i][j] - whists[j][i]) + HILL_WHISTS * (hill[j] - hill[i])) / dd


def result(rules: RussianRules, n: int, pool: list[int], hill: list[int],
           whists: list[list[int]]) -> list[float]:
    """The final settlement (8): i's result is sum_j (W_ij - W_ji) + (10/D) sum_j (H_j - H_i);
    it sums to zero. Works on totals and on one deal's changes alike (it is linear)."""
    h = effective_hill(rules, pool, hill)
    dd = divisor(rules, n)
    out = []
    for i in range(n):
        num = sum(dd * (whists[i][j] - whists[j][i]) for j in range(n))
        num += HILL_WHISTS * (sum(h[:n]) - n * h[i])
        out.append(num / dd)
    return out


def finished(rules: RussianRules, sheet: Sheet) -> bool:
    """Every pool has reached T (8)."""
    return all(p >= rules.pool_target for p in sheet.pool[: sheet.n])


def settle(games: pl.DataFrame, deals: pl.DataFrame) -> RussianSettled:
    """Settlements, transfers, whists and standings of every game, one deal at a time."""
    info = {g["game_id"]: (list(g["players"]), read_rules(g["rules"]))
            for g in games.iter_rows(named=True)}
    rows: dict[str, list[object]] = {c: [] for c in (
        "game_id", "deal_no", "player", "seat", "variant", "cash", *frames.RUSSIAN_COLUMNS)}
    transfers: list[dict[str, object]] = []
    whists: list[dict[str, object]] = []
    sheets: dict[str, Sheet] = {}
    totals: dict[str, list[float]] = {}
    played_deals: dict[str, list[int]] = {}  # per seat: with four, not the dealer's (1)
    for row in deals.sort("game_id", "deal_no").iter_rows(named=True):
        gid = row["game_id"]
        if gid not in info:
            continue  # a deal of an unknown game is not settled
        players, rules = info[gid]
        n = len(players)
        sheet = sheets.setdefault(gid, Sheet(n))
        if finished(rules, sheet):
            continue  # the game ended when every pool reached T (8): stored, not settled
        deal = Deal.of(row)
        got = score_deal(rules, sheet, deal)
        cash = result(rules, n, got.pool, got.hill, got.whists)
        h = effective_hill(rules, got.pool, got.hill)
        for s in range(n):
            for key, value in (("game_id", gid), ("deal_no", row["deal_no"]),
                               ("player", players[s]), ("seat", s),
                               ("variant", frames.VARIANT), ("cash", cash[s]),
                               ("pool_delta", got.pool[s]), ("pool_after", sheet.pool[s]),
                               ("hill_delta", got.hill[s]), ("hill_after", sheet.hill[s]),
                               ("whists_delta", sum(got.whists[s]))):
                rows[key].append(value)
            for j in range(n):
                if got.whists[s][j]:
                    whists.append({"game_id": gid, "deal_no": row["deal_no"],
                                   "writer": players[s], "against": players[j],
                                   "amount": got.whists[s][j]})
                gain = received(rules, n, s, j, got.whists, h)
                if gain > 0:
                    transfers.append({"game_id": gid, "deal_no": row["deal_no"],
                                      "payer": players[j], "payee": players[s], "amount": gain})
        acc = totals.setdefault(gid, [0.0] * n)
        for s in range(n):
            acc[s] += cash[s]
        played = played_deals.setdefault(gid, [0] * n)
        for s in in_deal(n, deal.dealer):
            played[s] += 1
    standings = [
        {"game_id": gid, "player": info[gid][0][s], "variant": frames.VARIANT,
         "cash": totals[gid][s], "deals_played": played_deals[gid][s],
         "finished": finished(info[gid][1], sheets[gid])}
        for gid in sorted(totals) for s in range(sheets[gid].n)
    ]
    return RussianSettled(
        settlements=frames.settlements_frame(rows),
        transfers=pl.DataFrame(transfers, schema=frames.frames.TRANSFERS, orient="row"),
        standings=pl.DataFrame(standings, schema=frames.frames.STANDINGS, orient="row"),
        whists=pl.DataFrame(whists, schema=frames.WHISTS, orient="row"),
    )
