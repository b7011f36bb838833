"""Greek Prefa settlement, the plain per-deal reference (``greek-prefa.md`` 8-11, 14).

It reads like the rulebook: one game at a time, one deal at a time, exact chips (``Fraction``).
The vectorised kernel (``scoring/greek/kernel.py``) must produce exactly the same rows; the
tests hold the two equal. Input: a ``GreekGame`` and its ``GreekDeal`` records in deal order.

Bookkeeping (15): ``PersonalKassas`` (the seed's, sections 8-11) or ``CommonPot`` (prefadoros.net).

Roles of a deal: D the declarer, R the next active player after D in turn order (the declarer's
right, the first defender), L the other active defender, S the dealer sitting out (four players).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from model.greek.contracts import (
    ALONE_QUOTA,
    BOTH_QUOTA,
    TEAM_QUOTA,
    obligation_row,
    parse_contract,
    value,
)
from model.greek.frame import mode_of
from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame

VARIANT = "greek-prefa"
CHIPS_PER_POINT = 10
"""1 kassa point = 10 chips (section 8)."""
PRELIMINARY_PENALTY = 2
"""Preliminary-bid concession: +2 kassa points and 2 chips to each other active player, the sitter
too under ``concession_pays_sitter`` (5, 14)."""
SITTER_DOWN_ONE, SITTER_DOWN_MORE = 25, 50
"""Four players: chips the declarer pays the sitter when down 1 / down 2 or more (14)."""


def solo_tricks(level: int) -> tuple[int, int, int]:
    """Tricks credited to D, R and L when the declarer concedes a contract under
    ``concede_any_contract`` (5, 14: "scored as two down"): the declarer is two short, the defenders
    share the rest, R taking the odd trick (the split prefadoros-code credits)."""
    rest = 10 - (level - 2)
    return level - 2, (rest + 1) // 2, rest // 2


@dataclass(frozen=True, slots=True)
class Seats:
    """The seats of one deal (section 3, 6.1): indices into the game's ``players`` (turn order)."""

    n: int
    declarer: int
    right: int
    left: int
    sitter: int | None

    def others(self) -> list[int]:
        """Every other player in turn order after the declarer (the sitter included): the overflow
        order of section 10 for ties ("to the declarer's right")."""
        return [(self.declarer + k) % self.n for k in range(1, self.n)]


def seats_of(n: int, dealer: int, declarer: int | None) -> Seats:
    """With four players the dealer sits out (14); without a declarer (all pass) the first hand,
    the player after the dealer, stands in for D so that R and L are still defined."""
    sitter = dealer if n == 4 else None
    d = declarer if declarer is not None else (dealer + 1) % n
    right = (d + 1) % n
    if right == sitter:
        right = (right + 1) % n
    left = next(s for s in range(n) if s not in (d, right, sitter))
    return Seats(n, d, right, left, sitter)


@dataclass
class Ledger:
    """The chips of one deal: every payment ``payer -> payee`` (rounded per ``chip_rounding``)."""

    rules: GreekRules
    paid: dict[tuple[int, int], Fraction] = field(default_factory=dict)

    def pay(self, payer: int, payee: int, amount: Fraction | int) -> None:
        amount = Fraction(amount)
        if self.rules.chip_rounding == "round_half_up":
            amount = Fraction(math.floor(amount + Fraction(1, 2)))
        if amount:
            key = (payer, payee)
            self.paid[key] = self.paid.get(key, Fraction(0)) + amount

    def chips(self, n: int) -> list[Fraction]:
        out = [Fraction(0)] * n
        for (payer, payee), amount in self.paid.items():
            out[payer] -= amount
            out[payee] += amount
        return out

    def net(self) -> dict[tuple[int, int], Fraction]:
        """Payments between the same two players net out; one direction per pair remains."""
        out: dict[tuple[int, int], Fraction] = {}
        for (payer, payee), amount in self.paid.items():
            back = self.paid.get((payee, payer), Fraction(0))
            if amount > back:
                out[(payer, payee)] = amount - back
        return out


# --- section 9: one deal's chips and the declarer's kassa change (9.5 pseudo-code) -------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """Section 9 result: ``kassa`` the declarer's kassa change (negative = deduct through section
    10); ``pays`` (payer, payee, chips) with roles "D", "R", "L"."""

    kassa: int
    pays: tuple[tuple[str, str, int], ...] = ()


def multiplier(short: int) -> int:
    """Declarer short by one trick -> x1, by two or more -> x2 (section 9 general principle)."""
    return 1 if short == 1 else 2


def declarer_failed(
    n: int, v: int, mode: str, whister: str, t_d: int, t_r: int, t_l: int
) -> Outcome:
    """9.2: kassa +m*v; D pays each playing defender m*v per trick (the whister also for the
    invited passer's tricks)."""
    m = multiplier(n - t_d)
    if mode == "both":
        return Outcome(m * v, (("D", "R", m * v * t_r), ("D", "L", m * v * t_l)))
    return Outcome(m * v, (("D", whister, m * v * (t_r + t_l)),))


def defence_met(v: int, mode: str, whister: str, t_r: int, t_l: int) -> Outcome:
    """9.3: kassa -v; D pays each playing defender v per trick (the whister takes all)."""
    if mode == "both":
        return Outcome(-v, (("D", "R", v * t_r), ("D", "L", v * t_l)))
    return Outcome(-v, (("D", whister, v * (t_r + t_l)),))


def defence_failed(
    row: int, v: int, mode: str, whister: str, t_d: int, t_r: int, t_l: int
) -> Outcome:
    """9.4 (16 G4): the declarer's kassa is unchanged; the defender(s) short of their quota pay D
    v*tD per trick short (collectively short when only one missed, individually when both
    missed); one missing defender also pays the other v*t_other per trick short."""
    if mode != "both":
        quota = TEAM_QUOTA[row] if mode == "invite" else ALONE_QUOTA[row]
        return Outcome(0, ((whister, "D", v * t_d * (quota - (t_r + t_l))),))
    o_r, o_l = BOTH_QUOTA[row]
    if t_r < o_r and t_l < o_l:
        return Outcome(0, (("R", "D", v * t_d * (o_r - t_r)),
                           ("L", "D", v * t_d * (o_l - t_l))))
    short = TEAM_QUOTA[row] - (t_r + t_l)
    failing, other, t_other = ("R", "L", t_l) if t_r < o_r else ("L", "R", t_r)
    return Outcome(0, ((failing, "D", v * t_d * short), (failing, other, v * t_other * short)))


def defended(
    n: int, row: int, v: int, mode: str, whister: str, t_d: int, t_r: int, t_l: int
) -> Outcome:
    """9.2-9.4 for a played deal (modes both / invite / alone)."""
    if t_d < n:
        return declarer_failed(n, v, mode, whister, t_d, t_r, t_l)
    quota = TEAM_QUOTA[row] if mode in ("both", "invite") else ALONE_QUOTA[row]
    if t_r + t_l >= quota:
        return defence_met(v, mode, whister, t_r, t_l)
    return defence_failed(row, v, mode, whister, t_d, t_r, t_l)


# --- section 10: the kassa floor and overflow ---------------------------------------------------


def deduct(kassa: list[int], seats: Seats, amount: int, ledger: Ledger) -> None:
    """Section 10: the declarer's kassa never goes below 0. The rest is written off the largest
    other kassa (tie: the first after the declarer in turn order, i.e. to his right), which pays
    D 10 chips per point, then the next largest; what no kassa can take is paid by every other
    player equally: r*10/2 each with three, r*10/3 each with four (``overflow_split_four``)."""
    d = seats.declarer
    take = min(kassa[d], amount)
    kassa[d] -= take
    rest = amount - take
    others = seats.others()
    while rest > 0 and any(kassa[x] > 0 for x in others):
        x = max(others, key=lambda s: (kassa[s], -others.index(s)))
        take = min(kassa[x], rest)
        kassa[x] -= take
        ledger.pay(x, d, CHIPS_PER_POINT * take)
        rest -= take
    if rest > 0:
        for x in others:
            ledger.pay(x, d, Fraction(CHIPS_PER_POINT * rest, len(others)))


def change_kassa(kassa: list[int], seats: Seats, delta: int, ledger: Ledger) -> None:
    """Increases are plain (an empty kassa refills, 10); decreases go through ``deduct``."""
    if delta < 0:
        deduct(kassa, seats, -delta, ledger)
    else:
        kassa[seats.declarer] += delta


@dataclass
class PersonalKassas:
    """The seed's bookkeeping (8, 10, 11): a kassa per player, in points."""

    rules: GreekRules
    kassa: list[int]
    before: list[int] = field(default_factory=list)

    def start_deal(self) -> None:
        self.before = list(self.kassa)

    def value(self, v: int, kassa_change: int) -> int:
        """The contract value to settle at: always v."""
        return v

    def change(self, seats: Seats, seat: int, delta: int, ledger: Ledger) -> None:
        """``seat``'s kassa changes by ``delta`` points (a decrease only ever for the declarer)."""
        if delta < 0:
            change_kassa(self.kassa, seats, delta, ledger)
        else:
            self.kassa[seat] += delta

    def ended(self, ledger: Ledger) -> bool:
        return end_of_game(self.rules, self.kassa, ledger)

    def after(self, seat: int) -> int:
        return self.kassa[seat]

    def delta(self, seat: int) -> int:
        return self.kassa[seat] - self.before[seat]


@dataclass
class CommonPot:
    """Section 15 ``bookkeeping = common_pot`` (prefadoros.net): one pot of ``initial_kassa``
    points per player, in points (1 point = 10 chips). Where the seed changes a player's kassa by
    x points, he puts 10*x chips into the pot (takes them out when x < 0); the pot belongs to the
    players in equal shares, so a deposit of c chips is c/n chips paid to each other player. The
    game ends when the pot is empty (``pot_end``)."""

    rules: GreekRules
    n: int
    pot: int
    before: int = 0

    def start_deal(self) -> None:
        self.before = self.pot

    def value(self, v: int, kassa_change: int) -> int:
        """15, the prefadoros end setting ``pot_end``: a contract worth more than the pot holds is
        settled at v = the pot (``normal``), only when the pot pays, i.e. the declarer's kassa
        change is a deduction (``unbalanced``), or never (``fair``)."""
        end = self.rules.pot_end
        if v <= self.pot or end == "fair" or (end == "unbalanced" and kassa_change >= 0):
            return v
        return self.pot

    def change(self, seats: Seats, seat: int, delta: int, ledger: Ledger) -> None:
        self.pot += delta
        share = Fraction(CHIPS_PER_POINT * abs(delta), self.n)
        for x in range(self.n):
            if x != seat:
                ledger.pay(*((seat, x) if delta > 0 else (x, seat)), share)

    def ended(self, ledger: Ledger) -> bool:
        """The pot is empty; under ``fair`` a pot below 0 is topped up by all equally (the
        shares above), so it stands at 0."""
        if self.pot <= 0:
            self.pot = 0
            return True
        return False

    def after(self, seat: int) -> int:
        return self.pot

    def delta(self, seat: int) -> int:
        return self.pot - self.before


Book = PersonalKassas | CommonPot


def book_of(rules: GreekRules, n: int) -> Book:
    if rules.bookkeeping == "common_pot":
        return CommonPot(rules, n, n * rules.initial_kassa)
    return PersonalKassas(rules, [rules.initial_kassa] * n)


# --- one deal -----------------------------------------------------------------------------------


def tricks_of(game: GreekGame, deal: GreekDeal) -> list[int]:
    """Tricks per seat; a seat without an entry (a passer not invited, the sitter) took 0."""
    seat = {p: i for i, p in enumerate(game.players)}
    out = [0] * len(game.players)
    for p, t in (deal.tricks or {}).items():
        out[seat[p]] = t
    return out


def play_low(book: Book, seats: Seats, tricks: list[int], ledger: Ledger) -> None:
    """14 ``all_pass = play_low``: each active player adds (own tricks - fewest tricks) points."""
    active = [seats.declarer, seats.right, seats.left]
    low = min(tricks[s] for s in active)
    for s in active:
        if tricks[s] > low:
            book.change(seats, s, tricks[s] - low, ledger)


def four_aces_chips(ledger: Ledger, seats: Seats, amount: int, made: bool) -> None:
    """14 ``four_aces = fixed_chips``: made -> every other player pays D, else D pays each (the
    sitter too with four players)."""
    for x in seats.others():
        if made:
            ledger.pay(x, seats.declarer, amount)
        else:
            ledger.pay(seats.declarer, x, amount)


def settle_deal(game: GreekGame, deal: GreekDeal, book: Book, ledger: Ledger) -> None:
    """Sections 9, 10 and 14 for one deal: updates the kassas or the pot (15) in ``book`` and books
    the chips in ``ledger``."""
    rules, n = game.rules, len(game.players)
    seat = {p: i for i, p in enumerate(game.players)}
    declarer = None if deal.declarer is None else seat[deal.declarer]
    seats = seats_of(n, seat[deal.dealer], declarer)
    mode = mode_of(deal)
    tricks = tricks_of(game, deal)
    if mode == "none":
        if rules.all_pass == "play_low" and deal.tricks:
            play_low(book, seats, tricks, ledger)
        return
    if mode == "concede" and deal.contract is None:
        preliminary_concession(rules, book, seats, ledger)
        return
    assert deal.contract is not None
    level, denom = parse_contract(deal.contract)
    v = value(level, denom, rules, deal.four_aces)
    row = obligation_row(level, rules)
    role = {"D": seats.declarer, "R": seats.right, "L": seats.left}
    if mode == "pass":
        t_d, t_r, t_l = level, 0, 0
    elif mode == "concede":
        t_d, t_r, t_l = solo_tricks(level)
    else:
        t_d, t_r, t_l = tricks[seats.declarer], tricks[seats.right], tricks[seats.left]
    whister = "R"
    if mode in ("invite", "alone"):
        names = [p for p, d in (deal.defence or {}).items() if d in ("invite", "alone")]
        whister = "R" if seat[names[0]] == seats.right else "L"

    def outcome_at(v: int) -> Outcome:
        if mode == "pass":
            return Outcome(-v)
        if mode == "concede":
            return declarer_failed(level, v, "both", "R", t_d, t_r, t_l)
        return defended(level, row, v, mode, whister, t_d, t_r, t_l)

    outcome = outcome_at(v)
    settled_at = book.value(v, outcome.kassa)
    if settled_at != v:
        outcome = outcome_at(settled_at)
    for payer, payee, chips in outcome.pays:
        ledger.pay(role[payer], role[payee], chips)
    if outcome.kassa:
        book.change(seats, seats.declarer, outcome.kassa, ledger)
    made = t_d >= level
    if seats.sitter is not None and not made:
        down = SITTER_DOWN_ONE if level - t_d == 1 else SITTER_DOWN_MORE
        ledger.pay(seats.declarer, seats.sitter, down)
    if deal.four_aces and rules.four_aces == "fixed_chips":
        four_aces_chips(ledger, seats, rules.four_aces_chips(level), made)


def preliminary_concession(rules: GreekRules, book: Book, seats: Seats, ledger: Ledger) -> None:
    """5, 14 ``preliminary_bid``: the declarer's kassa +2 and 2 chips to each other player: the two
    active ones, and the sitter too under ``concession_pays_sitter``."""
    book.change(seats, seats.declarer, PRELIMINARY_PENALTY, ledger)
    paid = [seats.right, seats.left]
    if rules.concession_pays_sitter and seats.sitter is not None:
        paid.append(seats.sitter)
    for x in paid:
        ledger.pay(seats.declarer, x, PRELIMINARY_PENALTY)


# --- section 11: the end of the game ------------------------------------------------------------


def end_of_game(rules: GreekRules, kassa: list[int], ledger: Ledger) -> bool:
    """11: the game ends when every kassa is 0 (checked after a deal). ``end_at_two_empty``: it also
    ends when all but one kassa are empty; the owner pays 10*K/3 chips (10*K/4 with four players) to
    each empty-kassa player and his kassa goes to 0."""
    n = len(kassa)
    if all(k == 0 for k in kassa):
        return True
    full = [s for s in range(n) if kassa[s] > 0]
    if rules.end_at_two_empty and len(full) == 1:
        owner = full[0]
        for s in range(n):
            if s != owner:
                ledger.pay(owner, s, Fraction(CHIPS_PER_POINT * kassa[owner], n))
        kassa[owner] = 0
        return True
    return False


# --- a whole game -------------------------------------------------------------------------------


@dataclass
class GameSettlement:
    settlements: list[dict[str, object]]
    transfers: list[dict[str, object]]
    standings: list[dict[str, object]]


def settle_game(game: GreekGame, deals: Sequence[GreekDeal]) -> GameSettlement:
    """Every deal in order until the game ends (11); deals after the end are not settled."""
    n = len(game.players)
    book = book_of(game.rules, n)
    total = [Fraction(0)] * n
    played = [0] * n
    finished = False
    rows: list[dict[str, object]] = []
    transfers: list[dict[str, object]] = []
    for deal in deals:
        if finished:
            break
        book.start_deal()
        ledger = Ledger(game.rules)
        settle_deal(game, deal, book, ledger)
        finished = book.ended(ledger)
        chips = ledger.chips(n)
        sitter = game.players.index(deal.dealer) if n == 4 else None
        for s, name in enumerate(game.players):
            total[s] += chips[s]
            played[s] += s != sitter
            rows.append(settlement_row(game.game_id, deal.deal_no, name, s, chips[s],
                                       book.delta(s), book.after(s)))
        for (payer, payee), amount in sorted(ledger.net().items()):
            transfers.append({
                "game_id": game.game_id, "deal_no": deal.deal_no,
                "payer": game.players[payer], "payee": game.players[payee],
                "amount": float(amount),
            })
    standings = [
        {"game_id": game.game_id, "player": name, "variant": VARIANT, "cash": float(total[s]),
         "deals_played": played[s], "finished": finished}
        for s, name in enumerate(game.players)
    ]
    return GameSettlement(rows, transfers, standings)


def settlement_row(game_id: str, deal_no: int, player: str, seat: int, chips: Fraction,
                   kassa_delta: int, kassa_after: int) -> dict[str, object]:
    return {
        "game_id": game_id, "deal_no": deal_no, "player": player, "seat": seat,
        "variant": VARIANT, "cash": float(chips), "chips": float(chips),
        "kassa_delta": kassa_delta, "kassa_after": kassa_after,
    }


def settle_records(
    games: Iterable[GreekGame], deals: Iterable[GreekDeal]
) -> GameSettlement:
    """Every game of a league; deals are grouped by ``game_id`` and taken in ``deal_no`` order."""
    by_game: dict[str, list[GreekDeal]] = {}
    for d in deals:
        by_game.setdefault(d.game_id, []).append(d)
    out = GameSettlement([], [], [])
    for game in games:
        part = settle_game(game, sorted(by_game.get(game.game_id, []), key=lambda d: d.deal_no))
        out.settlements += part.settlements
        out.transfers += part.transfers
        out.standings += part.standings
    return out
