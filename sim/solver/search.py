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


def _caps(goal: Goal, stop: Stop | None) -> tuple[int, int]:
    cap_d = NO_STOP if stop is None or stop.declarer is None else stop.declarer
    cap_f = NO_STOP if stop is None or stop.defence is None else stop.defence
    if goal is Goal.ALL:
        cap_f = min(cap_f, 1)
    return cap_d, cap_f


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
) -> int:
    """The declarer's trick count when play ends, all hands open and all seats playing best.

    ``hands`` are the cards still held by each seat in turn order; ``leader`` led (or is to lead)
    the current trick, whose cards so far are ``trick`` (empty at a trick start); ``taken`` holds
    the tricks already won by the declarer and by the defence, which count towards ``stop`` and
    are included in the answer; ``must_overtrump`` is the Greek option of that name
    (greek-prefa.md 14). Raises ``SolverInputError`` for a position that cannot occur.
    """
    p = engine.prepare(hands, leader, declarer, trump, trick, must_overtrump)
    cap_d, cap_f = _caps(goal, stop)
    t = engine.table()
    decl_max = goal is not Goal.FEWEST
    rules = (declarer, *p.nxt, p.nactive, -1 if trump is None else trump, int(decl_max), cap_d,
             cap_f, int(must_overtrump))
    with t.lock:
        stamp = t.stamp_for(rules)
        return engine.run(
            p, trump, declarer, decl_max, cap_d, cap_f, taken[0], taken[1], stamp=stamp,
            must_overtrump=must_overtrump,
        )


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
) -> dict[Card, int]:
    """For each card the seat to play may play, the declarer's final trick count after it (the
    same arguments as ``solve``). The seat's best cards are those with the best value for its
    side; this is how a bot plays open-hand. A card whose next higher card still in play (held
    or on the table) is the seat's own is worth the same (equivalent cards, docs/solver.md) and
    is not searched again."""
    p = engine.prepare(hands, leader, declarer, trump, trick, must_overtrump)
    seat = p.seat
    led = None if not trick else trick[0] >> 4
    winning = None if not trick else _trick_winner(trick, leader, p.nxt, trump)[1]
    out: dict[Card, int] = {}
    hs = list(hands) + [0] * (3 - len(hands))
    dt, ft = taken
    cap_d, cap_f = _caps(goal, stop)
    allowed = legal(hs[seat], led, trump, winning=winning, must_overtrump=must_overtrump)
    live = sum(hs) | sum(1 << c for c in trick)
    for c in sorted(iter_cards(allowed), reverse=True):
        above = live & SUIT_MASK[c >> 4] & ~((2 << c) - 1)
        twin = (above & -above).bit_length() - 1
        if above and twin in out:  # the next live card up is the seat's own: equivalent
            out[c] = out[twin]
            continue
        child = list(hs)
        child[seat] &= ~(1 << c)
        nxt_trick = [*trick, c]
        if len(nxt_trick) < p.nactive:
            out[c] = solve(child, leader, declarer, trump, goal, stop=stop, trick=nxt_trick,
                           taken=taken, must_overtrump=must_overtrump)
            continue
        winner = _trick_winner(nxt_trick, leader, p.nxt, trump)[0]
        dt2, ft2 = (dt + 1, ft) if winner == declarer else (dt, ft + 1)
        if not any(child) or dt2 >= cap_d or ft2 >= cap_f:
            out[c] = dt2
        else:
            out[c] = solve(child, winner, declarer, trump, goal, stop=stop, taken=(dt2, ft2),
                           must_overtrump=must_overtrump)
    return out


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
