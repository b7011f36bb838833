"""``solve`` and ``best_cards``: the public entry points of the open-hand search (see the package
docstring and docs/solver.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from model.cards import SUIT_MASK, Card, CardSet, iter_cards
from sim.solver import engine
from sim.solver.engine import NO_STOP, legal


class Goal(Enum):
    """What the declarer plays for; the solver always returns the declarer's tricks."""

    MOST = "most"
    """Suit and no-trump games: the declarer maximises his tricks, the defence minimises them."""
    FEWEST = "fewest"
    """Misère (russian.md 4), Bettel (balkan.md 4, swabian.md 6): declarer minimises his tricks."""
    ALL = "all"
    """Durchmarsch (swabian.md), Balkan "Preferans": all ten tricks. Play ends when the defence
    takes a trick (swabian.md "Durchmarsch", balkan.md "Early end"), so the answer is the number
    of tricks the declarer takes before his first loss: the hand count (10) exactly when made."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Early end of play: it stops as soon as the declarer has ``declarer`` tricks or the defence
    has ``defence`` tricks (``None``: no limit). Tricks won before the position (``taken``)
    count."""

    declarer: int | None = None
    defence: int | None = None


BALKAN_STOP = Stop(defence=5)
"""Balkan suit and Sanac games: play stops at the defence's fifth trick (balkan.md "Early end")."""
BETTEL_STOP = Stop(declarer=1)
"""Bettel: play ends when the declarer takes a trick (swabian.md "Bettel", balkan.md)."""
DURCHMARSCH_STOP = Stop(defence=1)
"""Durchmarsch: play ends when the declarer loses a trick (swabian.md "Durchmarsch")."""


@dataclass(frozen=True, slots=True)
class TalonLead:
    """Raspasy's talon leads (russian.md 4, ``raspasy_talon_lead``): the first tricks of the
    deal are all led by ``seat`` (first hand), whoever won the trick before, each in the suit of
    the talon card turned up for it (``suits``, in order) when he holds that suit, else with any
    card; ``tricks``: the deal's tricks (hand size at the start), which places the leads."""

    seat: int
    suits: tuple[int, ...]
    tricks: int = 10

    def packed(self) -> int:
        """The kernel's form: ``suit + 1`` in 3 bits at ``3 * r``, ``r`` the tricks still to
        play when the led trick starts (``_kernel.talon_suit``)."""
        out = 0
        for i, suit in enumerate(self.suits):
            out |= (suit + 1) << (3 * (self.tricks - i))
        return out

    def suit(self, tricks_left: int) -> int | None:
        """The suit prescribed for the trick that starts with ``tricks_left`` tricks to play."""
        i = self.tricks - tricks_left
        return self.suits[i] if 0 <= i < len(self.suits) else None


def _caps(goal: Goal, stop: Stop | None) -> tuple[int, int]:
    cap_d = NO_STOP if stop is None or stop.declarer is None else stop.declarer
    cap_f = NO_STOP if stop is None or stop.defence is None else stop.defence
    if goal is Goal.ALL:
        cap_f = min(cap_f, 1)
    return cap_d, cap_f


def _rules(declarer: int, trump: int | None, goal: Goal, stop: Stop | None,
           must_overtrump: bool, lead: TalonLead | None) -> engine.Rules:
    cap_d, cap_f = _caps(goal, stop)
    return engine.Rules(trump, declarer, goal is not Goal.FEWEST, cap_d, cap_f, must_overtrump,
                        0 if lead is None else lead.packed(), 0 if lead is None else lead.seat)


def _stamp(p: engine.Position, r: engine.Rules) -> int:
    """The table's stamp for these rules and seating (the caller holds its lock)."""
    return engine.table().stamp_for((r.declarer, *p.nxt, p.nactive,
                                     -1 if r.trump is None else r.trump, int(r.decl_max),
                                     r.cap_d, r.cap_f, int(r.must_overtrump), r.tlead,
                                     r.tl_seat))


def solve(
    hands: Sequence[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    goal: Goal,
    *,
    stop: Stop | None = None,
    trick: Sequence[Card] = (),
    taken: tuple[int, int] = (0, 0),
    must_overtrump: bool = False,
    talon_lead: TalonLead | None = None,
    floor: int | None = None,
    ceiling: int | None = None,
) -> int:
    """The declarer's trick count when play ends, all hands open and all seats playing best.

    ``hands`` are the cards still held by each seat in turn order; ``leader`` led (or is to lead)
    the current trick, whose cards so far are ``trick`` (empty at a trick start); ``taken`` holds
    the tricks already won by the declarer and by the defence, which count towards ``stop`` and
    are included in the answer; ``must_overtrump`` is the Greek option of that name
    (greek-prefa.md 14); ``talon_lead`` raspasy's talon leads (russian.md 4). Raises
    ``SolverInputError`` for a position that cannot occur.

    Any seat may be the declarer: with ``Goal.FEWEST`` and no trump the answer is the open-hand
    value of one raspasy player (russian.md 7), who plays for his fewest tricks against the
    other two (the per-player objective of docs/solver.md).

    ``floor``, ``ceiling``: the answer clamped to them, for a caller who only asks whether the
    value passes a bound (``contracts.best_contracts``): the bound is tested first, and a value
    beyond it costs one null-window search.
    """
    p = engine.prepare(hands, leader, declarer, trump, trick, must_overtrump)
    rules = _rules(declarer, trump, goal, stop, must_overtrump, talon_lead)
    t = engine.table()
    with t.lock:
        return engine.run(p, rules, taken[0], taken[1], stamp=_stamp(p, rules), floor=floor,
                          ceiling=ceiling)


def best_cards(
    hands: Sequence[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    goal: Goal,
    *,
    stop: Stop | None = None,
    trick: Sequence[Card] = (),
    taken: tuple[int, int] = (0, 0),
    must_overtrump: bool = False,
    talon_lead: TalonLead | None = None,
    value: int | None = None,
) -> dict[Card, int]:
    """For each card the seat to play may play, the declarer's final trick count after it (the
    same arguments as ``solve``). The seat's best cards are those with the best value for its
    side; this is how a bot plays open-hand. A card whose next higher card still in play (held
    or on the table) is the seat's own is worth the same (equivalent cards, docs/solver.md) and
    is not searched again. The cards are searched in one kernel call; ``value``, the position's
    value when the caller knows it (``solve``), bounds each search (no card is worth more than
    it to the side to play) and makes an optimal card one null-window search."""
    p = engine.prepare(hands, leader, declarer, trump, trick, must_overtrump)
    rules = _rules(declarer, trump, goal, stop, must_overtrump, talon_lead)
    t = engine.table()
    with t.lock:
        searched = engine.run_cards(p, rules, taken[0], taken[1], stamp=_stamp(p, rules),
                                    value=value)
    hs = list(hands) + [0] * (3 - len(hands))
    out: dict[Card, int] = {}
    live = sum(hs) | sum(1 << c for c in trick)
    for c in sorted(iter_cards(_allowed(p, hs, trick, leader, trump, must_overtrump,
                                        talon_lead)), reverse=True):
        above = live & SUIT_MASK[c >> 4] & ~((2 << c) - 1)
        twin = (above & -above).bit_length() - 1
        out[c] = searched[c] if c in searched else out[twin]  # an equivalent card's value
    return out


def _allowed(p: engine.Position, hs: list[CardSet], trick: Sequence[Card], leader: int,
             trump: int | None, must_overtrump: bool, lead: TalonLead | None) -> CardSet:
    """The cards the seat to play may play (``legal``; a talon lead, russian.md 4)."""
    hand = hs[p.seat]
    if not trick:
        forced = None if lead is None else lead.suit(p.left // p.nactive)
        return hand if forced is None else legal(hand, forced, None)
    winning = _trick_winner(trick, leader, p.nxt, trump)[1]
    return legal(hand, trick[0] >> 4, trump, winning=winning, must_overtrump=must_overtrump)


def _trick_winner(
    trick: Sequence[Card], leader: int, nxt: tuple[int, int, int], trump: int | None
) -> tuple[int, Card]:
    """The seat and card winning the trick so far (greek-prefa.md 7)."""
    seat = leader
    best, best_seat = trick[0], leader
    for c in trick[1:]:
        seat = nxt[seat]
        if engine._beats(c, best, -1 if trump is None else trump):
            best, best_seat = c, seat
    return best_seat, best
