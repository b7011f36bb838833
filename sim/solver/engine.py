"""Set up a position for the kernel: check it, relabel the cards, own the transposition table.

Seats are the indices of ``hands`` in turn order: ``hands[i + 1]`` plays after ``hands[i]`` and
``hands[0]`` after the last (records.md: players in turn order). A seat whose hand is empty sits
out (greek-prefa.md 6.1 step 6 *alone*, balkan.md "Two-handed play"): tricks then have two cards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from model.cards import SUIT_MASK, Card, CardSet, format_card, iter_cards
from sim.solver import _kernel
from sim.solver._jit import COMPILED

NO_STOP = 11
"""A trick cap no side can reach in a ten-trick deal."""

TT_BITS_COMPILED = 20
TT_BITS_PYTHON = 16
MAX_DEPTH = 64
MAX_HAND = 16
"""The kernel's move buffers hold 16 cards a seat."""


class SolverInputError(ValueError):
    """A position the solver cannot read (overlapping hands, uneven hands, bad seat ...)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A checked, relabelled position, ready for the kernel."""

    hands: tuple[int, int, int]
    nxt: tuple[int, int, int]
    slen: tuple[int, int, int, int]
    live: tuple[int, int, int, int]
    """Per suit, the ranks of the cards in play (held or on the table) before relabelling."""
    nactive: int
    left: int
    seat: int
    pos: int
    led: int
    win_card: int
    win_seat: int
    table: int


@lru_cache(maxsize=1 << 16)
def _squeeze(live: int, cards: int) -> int:
    """``cards`` (a subset of ``live``, ranks of one suit) with ``live``'s ranks renumbered
    0, 1, 2, ... from the lowest."""
    out = 0
    k = 0
    while live:
        low = live & -live
        if cards & low:
            out |= 1 << k
        live ^= low
        k += 1
    return out


def original(p: Position, c: int) -> Card:
    """The card a relabelled card of ``p`` stands for."""
    suit, rank = c >> 4, c & 15
    live = p.live[suit]
    for _ in range(rank):
        live &= live - 1
    return 16 * suit + (live & -live).bit_length() - 1


def _beats(card: int, best: int, trump: int) -> bool:
    """Highest trump wins, else the highest card of the suit led (greek-prefa.md 7)."""
    if card >> 4 == best >> 4:
        return card > best
    return card >> 4 == trump


def legal(
    hand: CardSet, led_suit: int | None, trump: int | None, *, winning: Card | None = None,
    must_overtrump: bool = False,
) -> CardSet:
    """Cards a player may play: follow suit; if void, trump if able (trump contracts); else any
    (greek-prefa.md 7, balkan.md 6, swabian.md 6, russian.md 4). No obligation to beat, except
    with ``must_overtrump`` (greek-prefa.md 14 ``must_overtrump_when_void``): a player who trumps a
    trick whose ``winning`` card is already a trump must play a higher trump if he holds one."""
    if led_suit is None:
        return hand
    follow = hand & SUIT_MASK[led_suit]
    if follow:
        return follow
    if trump is not None and hand & SUIT_MASK[trump]:
        ruff = hand & SUIT_MASK[trump]
        if must_overtrump and winning is not None and winning >> 4 == trump != led_suit:
            over = ruff & ~((2 << winning) - 1)
            if over:
                return over
        return ruff
    return hand


def prepare(
    hands: Sequence[CardSet], leader: int, declarer: int, trump: int | None,
    trick: Sequence[Card], must_overtrump: bool = False,
) -> Position:
    """Check a position and relabel its cards (ranks renumbered per suit, order kept)."""
    if len(hands) not in (2, 3):
        raise SolverInputError(f"need two or three hands, got {len(hands)}")
    hs = [int(h) for h in hands] + [0] * (3 - len(hands))
    union = _held(hs)
    # a seat sits out when it holds nothing; on the last trick a seat that has already
    # played its last card is still in (the leader, and with two cards down the next seat)
    active = [
        i for i in range(3)
        if hs[i] or i == leader or (len(trick) >= 2 and i == (leader + 1) % 3)
    ]
    for c in trick:
        if union >> c & 1:
            raise SolverInputError(f"card {format_card(c)} is both on the table and in a hand")
        union |= 1 << c
    _check_seats(active, leader, declarer, trump, len(trick))
    nactive = len(active)
    nxt = [0, 0, 0]
    for k, s in enumerate(active):
        nxt[s] = active[(k + 1) % nactive]
    seat, played_by, led_suit, best, best_seat = _replay_trick(
        hs, leader, trump, trick, nxt, must_overtrump)
    size = hs[leader].bit_count() + (1 if trick else 0)
    for s in active:
        want = size - (1 if s in played_by else 0)
        if hs[s].bit_count() != want:
            raise SolverInputError(f"seat {s} holds {hs[s].bit_count()} cards, expected {want}")
    # relabel: inside each suit the cards in play become ranks 0, 1, 2, ...
    live = [(union >> (16 * s)) & 0xFFFF for s in range(4)]
    slen = [x.bit_count() for x in live]

    def relabel(cards: int) -> int:
        out = 0
        for s in range(4):
            part = (cards >> (16 * s)) & 0xFFFF
            if part:
                out |= _squeeze(live[s], part) << (16 * s)
        return out

    rh = [relabel(h) for h in hs]
    return Position(
        hands=(rh[0], rh[1], rh[2]),
        nxt=(nxt[0], nxt[1], nxt[2]),
        slen=(slen[0], slen[1], slen[2], slen[3]),
        live=(live[0], live[1], live[2], live[3]),
        nactive=nactive,
        left=sum(h.bit_count() for h in hs),
        seat=seat,
        pos=len(trick),
        led=-1 if led_suit is None else led_suit,
        win_card=relabel(1 << best).bit_length() - 1 if trick else 0,
        win_seat=best_seat if trick else 0,
        table=relabel(sum(1 << c for c in trick)),
    )


def _held(hs: list[int]) -> int:
    """The cards of all hands, each hand checked: a set of cards, at most ``MAX_HAND`` of
    them, no card in two hands."""
    union = 0
    for i, h in enumerate(hs):
        if h < 0 or h >> 61 or h & ~sum(SUIT_MASK):
            raise SolverInputError(f"hand {i} is not a set of cards: {h!r}")
        if h.bit_count() > MAX_HAND:
            raise SolverInputError(f"hand {i} holds {h.bit_count()} cards, at most {MAX_HAND}")
        if union & h:
            dup = [format_card(c) for c in iter_cards(union & h)]
            raise SolverInputError(f"cards held twice: {dup!r}")
        union |= h
    return union


def _check_seats(active: list[int], leader: int, declarer: int, trump: int | None,
                 on_table: int) -> None:
    """At least two seats in, the leader and the declarer among them, the trump a suit, and
    fewer cards on the table than seats in."""
    if len(active) < 2:
        raise SolverInputError("at least two seats must hold cards")
    if leader not in active:
        raise SolverInputError(f"leader {leader!r} holds no cards")
    if declarer not in active:
        raise SolverInputError(f"declarer {declarer!r} holds no cards")
    if trump is not None and trump not in range(4):
        raise SolverInputError(f"trump must be a suit 0..3 or None, got {trump!r}")
    if on_table >= len(active):
        raise SolverInputError(f"a trick of {len(active)} seats cannot hold {on_table} cards")


def _replay_trick(
    hs: list[int], leader: int, trump: int | None, trick: Sequence[Card], nxt: list[int],
    must_overtrump: bool,
) -> tuple[int, list[int], int | None, int, int]:
    """The cards of the current trick played again from the leader, each checked legal
    (follow suit, else trump; overtrump when ``must_overtrump``): the seat to play, who played,
    the suit led and the winning card and seat so far, in the original labels."""
    seat = leader
    played_by: list[int] = []
    best = -1
    best_seat = -1
    led_suit: int | None = None
    for c in trick:
        allowed = legal(
            hs[seat] | 1 << c, led_suit, trump,
            winning=best if led_suit is not None else None, must_overtrump=must_overtrump,
        )
        if led_suit is not None and not allowed >> c & 1:
            raise SolverInputError(f"{format_card(c)} by seat {seat} breaks follow suit / trump")
        if led_suit is None:
            led_suit = c >> 4
            best, best_seat = c, seat
        elif _beats(c, best, -1 if trump is None else trump):
            best, best_seat = c, seat
        played_by.append(seat)
        seat = nxt[seat]
    return seat, played_by, led_suit, best, best_seat


class Table:
    """The transposition table and scratch buffers, shared by all solves: an entry counts only
    for solves under the same rules (its stamp, ``stamp_for``). One solve at a time: calls are
    serialised by a lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stamp = 0
        self.by_rules: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        bits = TT_BITS_COMPILED if COMPILED else TT_BITS_PYTHON
        self.mask = (1 << bits) - 1
        size = 1 << bits
        self.arrays: tuple[Any, ...]
        if COMPILED:
            self.arrays = (
                np.zeros(size, np.int64),
                np.zeros(size, np.int64),
                np.zeros(size, np.int8),
                np.zeros(size, np.int8),
                np.zeros(size, np.int8),
                np.zeros(size, np.int32),
            )
            self.moves: Any = np.zeros((MAX_DEPTH, MAX_HAND), np.int64)
            self.scores: Any = np.zeros((MAX_DEPTH, MAX_HAND), np.int64)
            self.stats: Any = np.zeros(1, np.int64)
            self.out: Any = np.zeros(64, np.int64)
        else:
            self.arrays = tuple([0] * size for _ in range(6))
            self.moves = [[0] * MAX_HAND for _ in range(MAX_DEPTH)]
            self.scores = [[0] * MAX_HAND for _ in range(MAX_DEPTH)]
            self.stats = [0]
            self.out = [0] * 64

    def next_stamp(self) -> int:
        self.stamp += 1
        if self.stamp >= 2**31 - 1:
            self.stamp = 1
            self.by_rules.clear()
            stamps = self.arrays[5]
            for i in range(len(stamps)):
                stamps[i] = 0
        return self.stamp

    def stamp_for(self, rules: tuple[int, ...]) -> int:
        """One stamp per set of rules (declarer seat, seating, trump, goal, stops, overtrump).

        Under the same rules a position's value depends only on its key (remaining cards by
        relative rank and owner, the leader, the stop margins), whatever the deal it came from,
        so the entries stay valid across solves and deals and are reused.
        """
        stamp = self.by_rules.get(rules)
        if stamp is None:
            stamp = self.by_rules[rules] = self.next_stamp()
        return stamp

    def as_hands(self, p: Position) -> Any:
        if COMPILED:
            return np.array(p.hands, np.int64)
        return list(p.hands)

    def vec(self, values: Sequence[int]) -> Any:
        if COMPILED:
            return np.array(values, np.int64)
        return list(values)


_TABLE: Table | None = None


def table() -> Table:
    global _TABLE
    if _TABLE is None:
        _TABLE = Table()
    return _TABLE


@dataclass(frozen=True, slots=True)
class Rules:
    """How a prepared position is played: trump, the declarer and his goal (``decl_max``),
    the stops (``cap_d``, ``cap_f``), the Greek overtrump rule, raspasy's talon leads
    (``tlead``, ``tl_seat``: ``search.TalonLead``)."""

    trump: int | None
    declarer: int
    decl_max: bool
    cap_d: int
    cap_f: int
    must_overtrump: bool = False
    tlead: int = 0
    tl_seat: int = 0


def _state(t: Table, p: Position, r: Rules, dt: int, ft: int) -> tuple[Any, ...]:
    """The kernel's leading arguments: the position and the rules, as ``search`` takes them."""
    return (
        t.as_hands(p), t.vec(p.nxt), t.vec(p.slen), -1 if r.trump is None else r.trump,
        1 if r.must_overtrump else 0, r.declarer, 1 if r.decl_max else 0, r.cap_d, r.cap_f,
        p.nactive, p.left, p.seat, p.pos, p.led, p.win_card, p.win_seat, p.table, dt, ft,
        r.tlead, r.tl_seat,
    )


def run(p: Position, r: Rules, dt: int, ft: int, *, stamp: int, floor: int | None = None,
        ceiling: int | None = None) -> int:
    """The exact value of a prepared position, clamped to ``[floor, ceiling]`` (the caller
    holds the table's lock)."""
    t = table()
    t.stats[0] = 0
    kernel: Callable[..., int] = _kernel.solve_position  # arguments spread: checked here
    v = kernel(
        *_state(t, p, r, dt, ft), -1 if floor is None else floor,
        -1 if ceiling is None else ceiling, t.moves, t.scores, *t.arrays, stamp, t.mask,
        t.stats,
    )
    t.nodes = int(t.stats[0])
    return int(v)


def run_cards(p: Position, r: Rules, dt: int, ft: int, *, stamp: int,
              value: int | None = None) -> dict[Card, int]:
    """The exact value after each card the seat to play may play, one card per run of
    equivalent cards (in the original labels), searched in one kernel call; ``value``: the
    position's value when known (the caller holds the table's lock)."""
    t = table()
    t.stats[0] = 0
    kernel: Callable[..., int] = _kernel.card_values  # arguments spread: checked here
    reps = kernel(
        *_state(t, p, r, dt, ft), -1 if value is None else value, t.out, t.moves, t.scores,
        *t.arrays, stamp, t.mask, t.stats,
    )
    t.nodes = int(t.stats[0])
    return {original(p, c): int(t.out[c]) for c in iter_cards(int(reps))}
