"""A plain minimax over every legal card, written from the rules alone, to check the solver.

Rules (greek-prefa.md 7, balkan.md "Play" and "Early end", swabian.md "Play"): follow suit; if
void, trump if able; otherwise any card; highest trump, else highest card of the suit led, wins;
the winner leads; play ends early when a side reaches its trick cap; with the Greek option
``must_overtrump_when_void`` (greek-prefa.md 14) a seat trumping over a trump must go higher if
it can. No pruning, no equivalence;
memoised on the whole state only so that five-card endings finish quickly.
"""

from __future__ import annotations

from functools import cache

NO_CAP = 99


def _cards(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def naive_value(
    hands: tuple[int, int, int],
    leader: int,
    declarer: int,
    trump: int | None,
    declarer_wants_most: bool,
    cap_declarer: int = NO_CAP,
    cap_defence: int = NO_CAP,
    must_overtrump: bool = False,
    talon_leads: tuple[int, tuple[int, ...]] | None = None,
) -> int:
    """Declarer's tricks when play ends; a seat with an empty hand sits out. ``talon_leads``:
    ``(seat, suits)``: the first ``len(suits)`` tricks are all led by ``seat``, each in its suit
    when he holds it (russian.md 4, raspasy)."""
    size = max(h.bit_count() for h in hands)
    seats = [s for s in range(3) if hands[s]]

    def next_seat(s: int) -> int:
        return seats[(seats.index(s) + 1) % len(seats)]

    @cache
    def value(hs: tuple[int, int, int], seat: int, trick: tuple[tuple[int, int], ...],
              dt: int, ft: int) -> int:
        if not trick and (dt >= cap_declarer or ft >= cap_defence or not any(hs)):
            return dt
        hand = hs[seat]
        done = size - max(h.bit_count() for h in hs)  # tricks played out
        if not trick and talon_leads is not None and done < len(talon_leads[1]):
            suit = talon_leads[1][done]
            options = [c for c in _cards(hand) if c >> 4 == suit] or _cards(hand)
        elif trick:
            led = trick[0][1] >> 4
            follow = [c for c in _cards(hand) if c >> 4 == led]
            ruff = [c for c in _cards(hand) if trump is not None and c >> 4 == trump]
            trumped = [x for _, x in trick if x >> 4 == trump and led != trump]
            if must_overtrump and not follow and ruff and trumped:
                # greek-prefa.md 14: over a trump already played, trump higher if able
                ruff = [c for c in ruff if c > max(trumped)] or ruff
            options = follow or ruff or _cards(hand)
        else:
            options = _cards(hand)
        results = []
        for c in options:
            new = list(hs)
            new[seat] &= ~(1 << c)
            t = (*trick, (seat, c))
            if len(t) == len(seats):
                win_seat, win = t[0]
                for s, x in t[1:]:
                    if (x >> 4 == win >> 4 and x > win) or (
                        trump is not None and x >> 4 == trump and win >> 4 != trump
                    ):
                        win_seat, win = s, x
                d2, f2 = (dt + 1, ft) if win_seat == declarer else (dt, ft + 1)
                nxt_lead = win_seat
                if talon_leads is not None and done + 1 < len(talon_leads[1]) and any(new):
                    nxt_lead = talon_leads[0]  # the talon leads go on: first hand leads
                results.append(value(tuple(new), nxt_lead, (), d2, f2))
            else:
                results.append(value(tuple(new), next_seat(seat), t, dt, ft))
        maximise = (seat == declarer) == declarer_wants_most
        return max(results) if maximise else min(results)

    return value(tuple(hands), leader, (), 0, 0)
