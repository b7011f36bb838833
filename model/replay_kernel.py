"""One compiled trick replay for a batch of deals of any game (``model/tricks.py`` compiled).

The rules are those of :func:`model.tricks.replay`, the reference this kernel is tested against
(``tests/model/test_replay_kernel.py``): the leader leads any card, the others follow suit if
able; void in the suit led, a player trumps if able when the game says so (``must_trump``) and
overtrumps a trump in the trick when he can (``must_overtrump``, greek-prefa.md 14); the highest
trump, else the highest card of the suit led, wins the trick and its winner leads the next
(``../shared/spec/summary.md``, "play rules").

What differs between the games comes in as numbers per deal, never as a game's name:

- how many seats play (two to four), who leads first, the trump suit (-1 none), the obligations;
- where the play stops: after ``tricks`` tricks, or as soon as the ``declarer`` has won
  ``stop_won`` tricks or lost ``stop_lost`` (Balkan 6 and Swabian 6: Bettel ends at the
  declarer's first trick, Durchmarsch at his first lost one, a Balkan suit game at the defence's
  fifth);
- fixed leads: the first trick(s) led by the first leader whoever wins them, each in a prescribed
  suit when he holds it (russian.md 4, raspasy under the talon cards).

The batch is columnar: hands ``(n, 4)`` card masks in seat order, the parameters ``(n, PARAMS)``
(the column indices below), and the recorded cards as one Arrow-style list column (``offsets`` of
``n + 1`` and flat ``seats`` / ``cards``; seat ``-1`` is somebody who takes no part). The
kernel fills ``(n, OUT)``: the status (:data:`OK`, :data:`SHORT` or a fault), the index of the
faulty card in the deal's play, the tricks played and the tricks each seat won.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from typing import Any, Protocol

import numba
import numpy as np

from model.problems import Problem
from model.tricks import CARD_NAMES, card_index

# The parameter columns, one row per deal.
SEATS, LEADER, TRUMP, MUST_TRUMP, MUST_OVERTRUMP, TRICKS, DECLARER, STOP_WON, STOP_LOST = range(9)
FIXED_LEADS = 9
"""How many first tricks the first leader leads (0, 1 or 2)."""
LEAD_SUIT = 10
"""Columns ``LEAD_SUIT + t``, ``t < 2``: the suit fixed lead ``t`` must be in, if held (-1 any)."""
PARAMS = 12
MAX_FIXED_LEADS = 2
NEVER = 99
"""A trick count no play reaches: no early stop."""

# The output columns.
STATUS, FAULT_AT, PLAYED, TAKEN = 0, 1, 2, 3
"""``TAKEN + s``: the tricks seat ``s`` won (complete tricks only)."""
OUT = 7

OK, SHORT = 0, 1
"""The play ended where the rules end it; the cards ran out before (or inside a trick)."""
FAULTS = ("turn", "absent", "not-held", "follow", "trump", "overtrump", "lead", "after-end")
"""The faults, status ``2 + i``: the first six as ``model.tricks.FaultKind``; ``lead`` a fixed
lead not in its suit; ``after-end`` a card after the play stopped."""
TURN, ABSENT, NOT_HELD, FOLLOW, MISSED_TRUMP, OVERTRUMP, LEAD, AFTER_END = range(2, 10)

SIGNATURE = "void(int64[:, ::1], int64[:, ::1], int64[::1], int8[::1], int8[::1], int64[:, ::1])"


def replay_all(hands: np.ndarray, params: np.ndarray, offsets: np.ndarray,
               seats: np.ndarray, cards: np.ndarray, out: np.ndarray) -> None:
    """Replay every deal of the batch into ``out`` (one row per deal, the columns above); run
    compiled (:func:`compiled`)."""
    left = np.zeros(4, dtype=np.int64)
    taken = np.zeros(4, dtype=np.int64)
    for d in range(hands.shape[0]):
        k = params[d, SEATS]
        leader = params[d, LEADER]
        trump = params[d, TRUMP]
        must_trump = params[d, MUST_TRUMP] != 0
        must_over = params[d, MUST_OVERTRUMP] != 0
        declarer = params[d, DECLARER]
        fixed = params[d, FIXED_LEADS]
        trump_mask = np.int64(0xFFFF) << (16 * trump) if trump >= 0 else np.int64(0)
        for s in range(4):
            left[s] = hands[d, s]
            taken[s] = 0
        status = SHORT
        fault = -1
        done = 0
        turn = leader
        pos = 0
        led_mask = np.int64(0)
        best = np.int64(-1)
        best_seat = np.int64(-1)
        over = False
        start = offsets[d]
        for i in range(start, offsets[d + 1]):
            j = int(i - start)
            who = np.int64(seats[i])
            c = np.int64(cards[i])
            if over:
                status, fault = AFTER_END, j
                break
            if who != turn:
                status, fault = (ABSENT if who < 0 or who >= k else TURN), j
                break
            b = np.int64(1) << c
            h = left[who]
            if not h & b:
                status, fault = NOT_HELD, j
                break
            if pos == 0:
                if done < fixed and params[d, LEAD_SUIT + done] >= 0:
                    must = np.int64(0xFFFF) << (16 * params[d, LEAD_SUIT + done])
                    if h & must and not b & must:
                        status, fault = LEAD, j
                        break
                led_mask = np.int64(0xFFFF) << (16 * (c >> 4))
                best = c
                best_seat = who
            else:
                if not b & led_mask:
                    if h & led_mask:
                        status, fault = FOLLOW, j
                        break
                    if must_trump and h & trump_mask:
                        if not b & trump_mask:
                            status, fault = MISSED_TRUMP, j
                            break
                        if (must_over and best >> 4 == trump and c < best
                                and h & trump_mask & ~((np.int64(2) << best) - 1)):
                            status, fault = OVERTRUMP, j
                            break
                if c >> 4 == best >> 4:
                    if c > best:
                        best = c
                        best_seat = who
                elif c >> 4 == trump:
                    best = c
                    best_seat = who
            left[who] = h ^ b
            pos += 1
            if pos == k:
                taken[best_seat] += 1
                done += 1
                pos = 0
                turn = leader if done < fixed else best_seat
                won = taken[declarer] if declarer >= 0 else 0
                over = done >= params[d, TRICKS] or (declarer >= 0 and (
                    won >= params[d, STOP_WON] or done - won >= params[d, STOP_LOST]))
            else:
                turn = turn + 1 if turn + 1 < k else 0
        if status == SHORT and over:
            status = OK
        out[d, STATUS] = status
        out[d, FAULT_AT] = fault
        out[d, PLAYED] = done
        for s in range(4):
            out[d, TAKEN + s] = taken[s]


@cache
def compiled() -> Callable[..., None]:
    """:func:`replay_all` compiled for :data:`SIGNATURE` (one signature, so numba's disk cache
    in ``__pycache__`` reloads it), on first use: a command that replays nothing does not load
    it."""
    kernel: Callable[..., None] = numba.njit(SIGNATURE, cache=True, nogil=True)(replay_all)
    return kernel


@dataclass(frozen=True, slots=True)
class Play:
    """One deal's recorded play as the kernel takes it (seats are indices into ``hands``)."""

    hands: Sequence[int]
    """What each seat holds at the start of the play (the declarer's after his discard)."""
    seats: Sequence[int]
    """Who played each card, in order (-1: somebody who takes no part in the play)."""
    cards: Sequence[int]
    leader: int
    trump: int | None
    must_trump: bool
    must_overtrump: bool = False
    tricks: int = 10
    """All the tricks of a deal: the play stops after them."""
    declarer: int = -1
    stop_won: int = NEVER
    """The play stops when the declarer has won this many tricks ..."""
    stop_lost: int = NEVER
    """... or lost this many."""
    lead_suits: tuple[int, ...] = ()
    """The first tricks are led by ``leader`` whoever wins them, each in this suit if he holds it
    (-1: any suit); at most :data:`MAX_FIXED_LEADS`."""

    def row(self) -> tuple[int, ...]:
        """The deal's row of parameters (the columns above)."""
        suits = (*self.lead_suits, -1, -1)
        return (len(self.hands), self.leader, -1 if self.trump is None else self.trump,
                int(self.must_trump), int(self.must_overtrump), self.tricks, self.declarer,
                self.stop_won, self.stop_lost, len(self.lead_suits), suits[0], suits[1])


@dataclass(frozen=True, slots=True)
class Replayed:
    """The kernel's answer for one deal."""

    status: int
    fault_at: int
    played: int
    """Complete tricks played."""
    taken: tuple[int, ...]
    """Tricks won by each seat (as many as the deal has seats)."""

    @property
    def fault(self) -> str | None:
        """The fault's name (:data:`FAULTS`), None without one."""
        return FAULTS[self.status - 2] if self.status >= 2 else None

    @property
    def ended(self) -> bool:
        """No fault, and the play ran to where the rules end it."""
        return self.status == OK


def replay_many(plays: Sequence[Play]) -> list[Replayed]:
    """Replay every play of the batch with the kernel, one :class:`Replayed` each.

    A play is read up to one card after its last trick at most (a card there is always a fault),
    so a record with an absurdly long play costs no more than a full one."""
    rows: list[tuple[int, ...]] = []
    hands: list[Sequence[int]] = []
    ends = [0]
    seats: list[int] = []
    cards: list[int] = []
    for p in plays:
        k = len(p.hands)
        if not 2 <= k <= 4 or len(p.lead_suits) > MAX_FIXED_LEADS:
            raise ValueError(f"the kernel replays 2-4 seats and {MAX_FIXED_LEADS} fixed leads")
        hands.append(p.hands if k == 4 else (*p.hands, 0, 0)[:4])
        rows.append(p.row())
        cap = p.tricks * k + 1
        seats += p.seats[:cap]
        cards += p.cards[:cap]
        ends.append(len(cards))
    n = len(plays)
    out = np.zeros((n, OUT), dtype=np.int64)
    if n:
        compiled()(np.array(hands, dtype=np.int64), np.array(rows, dtype=np.int64),
                      np.array(ends, dtype=np.int64), np.array(seats, dtype=np.int8),
                      np.array(cards, dtype=np.int8), out)
    return [Replayed(r[STATUS], r[FAULT_AT], r[PLAYED], tuple(r[TAKEN: TAKEN + len(p.hands)]))
            for r, p in zip(out.tolist(), plays, strict=True)]


class CardPlay(Protocol):
    """A deal's play as its variant hands it to the replay: the kernel's input and how the
    variant judges the kernel's answer (the recorded tricks, a claim ...)."""

    @property
    def play(self) -> Play: ...

    def accepts(self, replayed: Replayed) -> bool:
        """Whether the variant's reference replay would find no problem, given the kernel's
        answer for :attr:`play`."""
        ...

    def reference(self) -> list[Problem]:
        """The variant's replay card by card in Python: its problems (the reference)."""
        ...


Split = Callable[[Any, Any], tuple[Sequence[Problem], CardPlay | None]]
"""A variant's rules of one (game, deal): every problem but the replay's, and the play to
replay (None when there is none to replay)."""


def moves(play: Sequence[tuple[str, str]], seat: Mapping[str, int],
          ) -> tuple[Sequence[int], Sequence[int]]:
    """A recorded play (player, card name) as the kernel's seats (-1: a name not in ``seat``)
    and cards (``model/tricks.py`` ``CARD_NAMES``, any spelling ``parse_card`` reads)."""
    if not play:
        return (), ()
    players, names = zip(*play, strict=True)
    try:
        cards = list(map(CARD_NAMES.__getitem__, names))
    except KeyError:  # an unusual spelling such as " 10h"
        cards = [card_index(c) for c in names]
    return list(map(seat.get, players, repeat(-1))), cards
