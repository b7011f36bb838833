"""Card play for bots: fast heuristics, or open-hand play through the solver (``--play dd``).

The play follows the common rules (``model/tricks.py``: follow suit, else trump if able, the
Greek ``must_overtrump_when_void`` option) and stops early where a game says so (Bettel,
Durchmarsch: swabian.md 6). Seats are indices into the hands in turn order; ``declarer`` is the
seat playing against the others (``-1``: everybody for himself, the Greek all-pass game played
for fewest tricks, greek-prefa.md 14 ``all_pass = play_low``).

Heuristics (what a club player does, ``docs/simulation.md``): the declarer draws trumps with his
masters, everybody cashes masters, leads low from length, second hand plays low, a player wins a
trick as cheaply as he can when the opponents are winning it and lets his partner's trick be;
playing for fewest tricks, a player ducks with his highest card under the trick and discards his
highest cards; defenders against Bettel lead low and duck under the declarer's card.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from model.cards import SUIT_MASK, CardSet
from model.tricks import beats, legal_cards, trick_winner
from sim.bots import _kernel
from sim.solver import Goal, Stop, TalonLead, best_cards

Chooser = Callable[..., int]


def _low(cards: CardSet) -> int:
    return (cards & -cards).bit_length() - 1


def _high(cards: CardSet) -> int:
    return cards.bit_length() - 1


def _is_master(c: int, unseen: CardSet) -> bool:
    """No unseen card of the suit is higher."""
    return not (unseen & SUIT_MASK[c >> 4]) >> (c + 1)


def _winners(legal: CardSet, best: int, trump: int) -> CardSet:
    s = best >> 4
    out = legal & SUIT_MASK[s] & ~((2 << best) - 1)
    if trump >= 0 and s != trump:
        out |= legal & SUIT_MASK[trump]
    return out


def _discard(legal: CardSet, trump: int, unseen: CardSet) -> int:
    """The cheapest card: not a trump if possible, not a lone master, the lowest rank."""
    pool = legal
    if trump >= 0 and legal & ~SUIT_MASK[trump]:
        pool = legal & ~SUIT_MASK[trump]
    best, best_rank, spare, spare_rank = -1, 99, -1, 99
    for s in range(4):
        part = pool & SUIT_MASK[s]
        if part:
            low = part & -part
            c = low.bit_length() - 1
            r = c & 15
            if part == low and _is_master(c, unseen):
                if r < spare_rank:
                    spare, spare_rank = c, r
            elif r < best_rank:
                best, best_rank = c, r
    return best if best >= 0 else spare


def _iter(cards: CardSet) -> list[int]:
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def _lead_most(hand: CardSet, unseen: CardSet, trump: int, declaring: bool) -> int:
    if trump >= 0 and declaring:
        mine = hand & SUIT_MASK[trump]
        theirs = unseen & SUIT_MASK[trump]
        if mine and theirs:
            top = _high(mine)
            return top if _is_master(top, unseen) else _low(mine)
    side = hand & ~SUIT_MASK[trump] if trump >= 0 and not declaring else hand
    if not side:
        side = hand
    for s in range(4):
        part = side & SUIT_MASK[s]
        if part and _is_master(_high(part), unseen) and (declaring or s != trump):
            return _high(part)
    longest, best_len = 0, -1
    for s in range(4):
        part = side & SUIT_MASK[s]
        n = part.bit_count()
        if part and (n > best_len or (n == best_len and s != trump)):
            longest, best_len = part, n
    return _low(longest)


def choose_most(
    hand: CardSet,
    legal: CardSet,
    trick: list[int],
    seats: list[int],
    me: int,
    declarer: int,
    trump: int,
    unseen: CardSet,
    k: int,
) -> int:
    """A card for a side playing for most tricks."""
    if not trick:
        return _lead_most(legal, unseen, trump, me == declarer)
    win = trick_winner(trick, trump)
    best, best_seat = trick[win], seats[win]
    ours = (best_seat == declarer) == (me == declarer)
    return _follow_most(legal, best, ours, len(trick) == k - 1, trick[0] >> 4, trump, unseen)


def _follow_most(
    legal: CardSet, best: int, ours: bool, last: bool, led: int, trump: int, unseen: CardSet
) -> int:
    """``choose_most`` when following: ``best`` wins the trick so far, ``ours`` if for his side."""
    if ours and (last or _is_master(best, unseen) or best >> 4 == trump):
        return _discard(legal, trump, unseen)
    wins = _winners(legal, best, trump)
    if wins:
        same = wins & SUIT_MASK[best >> 4]
        if last:
            return _low(same or wins)
        if same:
            top = _high(same)
            if _is_master(top, unseen):
                return top
            if ours:
                return _discard(legal, trump, unseen)
            return _low(legal) if legal & SUIT_MASK[best >> 4] else _discard(legal, trump, unseen)
        if not ours:
            return _low(wins)  # ruff cheaply
    return _low(legal) if legal & SUIT_MASK[led] else _discard(legal, trump, unseen)


def choose_fewest(
    hand: CardSet, legal: CardSet, trick: list[int], unseen: CardSet, trump: int, k: int
) -> int:
    """A card for a player who wants to take no trick (Bettel, misère, play_low)."""
    if not trick:
        best_card, best_key = -1, (99, 99)
        for c in _iter(legal):
            suit = unseen & SUIT_MASK[c >> 4]
            higher = (suit >> (c + 1)).bit_count()
            lower = (suit & ((1 << c) - 1)).bit_count()
            key = (lower - higher, c & 15)
            if higher and key < best_key:
                best_card, best_key = c, key
        return best_card if best_card >= 0 else _low(legal)
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, trump):
            best = c
    follow = legal & SUIT_MASK[trick[0] >> 4]
    if follow:
        under = follow & ((1 << best) - 1) if best >> 4 == trick[0] >> 4 else follow
        if best >> 4 == trump and trick[0] >> 4 != trump:
            under = follow
        if under:
            return _high(under)
        return _high(follow) if len(trick) == k - 1 else _low(follow)
    return max(_iter(legal), key=lambda c: (c & 15, c))


def choose_against_fewest(
    hand: CardSet, legal: CardSet, trick: list[int], seats: list[int], declarer: int, trump: int
) -> int:
    """A defender's card against Bettel: lead low, duck under the declarer's card, keep the
    trick low while the declarer is still to play."""
    if not trick:
        return min(_iter(legal), key=lambda c: (c & 15, c))
    follow = legal & SUIT_MASK[trick[0] >> 4]
    if not follow:
        return max(_iter(legal), key=lambda c: (c & 15, c))
    if declarer in seats:
        win = trick_winner(trick, trump)
        best, best_seat = trick[win], seats[win]
        if best_seat == declarer:
            under = follow & ((1 << best) - 1)
            if under:
                return _high(under)
        return _high(follow)
    return _low(follow)


def play_heuristic(
    hands: list[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    *,
    fewest: bool = False,
    must_overtrump: bool = False,
    stop_declarer: int = 99,
    stop_defence: int = 99,
    deck: CardSet,
) -> tuple[list[tuple[int, int]], list[int]]:
    """Play a deal out with the heuristics. ``fewest``: the declarer (or, with ``declarer = -1``,
    every player) wants the fewest tricks. The play stops when the declarer has taken
    ``stop_declarer`` tricks or the others ``stop_defence``. Returns the (seat, card) moves and
    the tricks of each seat. Runs the compiled kernel (``_kernel.py``) when numba is installed,
    the same decisions interpreted otherwise."""
    if _kernel.COMPILED:
        k = len(hands)
        moves, n, taken = _kernel.play(
            np.array(hands, dtype=np.int64), k, leader, declarer,
            -1 if trump is None else trump, fewest, must_overtrump, stop_declarer,
            stop_defence, deck,
        )
        return [(x >> 6, x & 63) for x in moves[:n].tolist()], taken[:k].tolist()
    return play_interpreted(hands, leader, declarer, trump, fewest=fewest,
                            must_overtrump=must_overtrump, stop_declarer=stop_declarer,
                            stop_defence=stop_defence, deck=deck)


def play_interpreted(
    hands: list[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    *,
    fewest: bool = False,
    must_overtrump: bool = False,
    stop_declarer: int = 99,
    stop_defence: int = 99,
    deck: CardSet,
) -> tuple[list[tuple[int, int]], list[int]]:
    """``play_heuristic`` in plain Python (the reference of the compiled kernel)."""
    k = len(hands)
    left = list(hands)
    t = -1 if trump is None else trump
    played = 0
    taken = [0] * k
    moves: list[tuple[int, int]] = []
    d_tricks = f_tricks = 0
    tmask = SUIT_MASK[t] if t >= 0 else 0
    while any(left) and d_tricks < stop_declarer and f_tricks < stop_defence:
        trick: list[int] = []
        seats: list[int] = []
        seat = leader
        best = best_seat = led = -1
        for _ in range(k):
            hand = left[seat]
            unseen = deck & ~played & ~hand
            if not trick:
                legal = hand
            else:
                legal = hand & SUIT_MASK[led]
                if not legal:
                    legal = hand & tmask
                    if not legal:
                        legal = hand
                    elif must_overtrump:
                        legal = legal_cards(hand, trick, trump, must_trump=True,
                                            must_overtrump=True)
            if not fewest:
                if trick:
                    ours = (best_seat == declarer) == (seat == declarer)
                    c = _follow_most(legal, best, ours, len(trick) == k - 1, led, t, unseen)
                else:
                    c = _lead_most(legal, unseen, t, seat == declarer)
            elif declarer < 0 or seat == declarer:
                c = choose_fewest(hand, legal, trick, unseen, t, k)
            else:
                c = choose_against_fewest(hand, legal, trick, seats, declarer, t)
            left[seat] = hand & ~(1 << c)
            if not trick:
                best, best_seat, led = c, seat, c >> 4
            elif (c > best) if c >> 4 == best >> 4 else c >> 4 == t:
                best, best_seat = c, seat
            trick.append(c)
            seats.append(seat)
            moves.append((seat, c))
            played |= 1 << c  # cards on the table are seen
            seat = seat + 1 if seat + 1 < k else 0
        leader = best_seat
        taken[leader] += 1
        if leader == declarer:
            d_tricks += 1
        else:
            f_tricks += 1
    return moves, taken


def play_open(
    hands: list[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    *,
    fewest: bool = False,
    must_overtrump: bool = False,
    stop_declarer: int = 99,
    stop_defence: int = 99,
    deck: CardSet,
) -> tuple[list[tuple[int, int]], list[int]]:
    """Play a deal out open-handed: every card is one the solver (``sim.solver.best_cards``)
    rates best for the player's side, the lowest such card on ties. The everybody-for-himself
    game (``declarer = -1``) for the fewest tricks without trump is :func:`play_all_pass_open`;
    any other game without sides falls back to the heuristics."""
    if declarer < 0 and fewest and trump is None:
        return play_all_pass_open(hands, leader)
    if declarer < 0:
        return play_heuristic(hands, leader, declarer, trump, fewest=fewest,
                              must_overtrump=must_overtrump, deck=deck)

    goal = Goal.FEWEST if fewest else Goal.MOST
    stop = Stop(
        declarer=None if stop_declarer >= 99 else stop_declarer,
        defence=None if stop_defence >= 99 else stop_defence,
    )
    k = len(hands)
    left = list(hands)
    t = -1 if trump is None else trump
    taken = [0] * k
    moves: list[tuple[int, int]] = []
    d_tricks = f_tricks = 0
    while any(left) and d_tricks < stop_declarer and f_tricks < stop_defence:
        trick: list[int] = []
        seats: list[int] = []
        seat = leader
        for _ in range(k):
            hand = left[seat]
            legal = legal_cards(hand, trick, trump, must_trump=True, must_overtrump=must_overtrump)
            if legal & (legal - 1):
                values = best_cards(left, leader, declarer, trump, goal, stop=stop,
                                    trick=trick, taken=(d_tricks, f_tricks))
                want_high = (seat == declarer) != fewest
                pick = -1
                for c in _iter(legal):
                    v = values.get(c)
                    if v is None:
                        continue
                    if pick < 0 or (v > values[pick] if want_high else v < values[pick]):
                        pick = c
                c = pick if pick >= 0 else _low(legal)
            else:
                c = _low(legal)
            left[seat] = hand & ~(1 << c)
            trick.append(c)
            seats.append(seat)
            moves.append((seat, c))
            seat = seat + 1 if seat + 1 < k else 0
        leader = seats[trick_winner(trick, t)]
        taken[leader] += 1
        if leader == declarer:
            d_tricks += 1
        else:
            f_tricks += 1
    return moves, taken


def play_all_pass_open(
    hands: list[CardSet], leader: int, talon_lead: TalonLead | None = None
) -> tuple[list[tuple[int, int]], list[int]]:
    """All-pass play (raspasy, russian.md 7) open-handed: every player plays a card the solver
    rates best for himself, playing for his fewest tricks against the other two (the review's
    per-player value, docs/review.md), the lowest such card on ties; ``talon_lead``: the
    solver's ``TalonLead`` (first hand leads the first tricks in the turned cards' suits,
    russian.md 4). Returns the (seat, card) moves and the tricks of each seat."""

    left = list(hands)
    taken = [0] * len(hands)
    moves: list[tuple[int, int]] = []
    while any(left):
        trick: list[int] = []
        seats: list[int] = []
        for k in range(len(hands)):
            seat = (leader + k) % len(hands)
            values = best_cards(left, leader, seat, None, Goal.FEWEST, trick=trick,
                                taken=(taken[seat], sum(taken) - taken[seat]),
                                talon_lead=talon_lead)
            c = min(values, key=lambda card: (values[card], card))
            left[seat] &= ~(1 << c)
            trick.append(c)
            seats.append(seat)
            moves.append((seat, c))
        leader = seats[trick_winner(trick, None)]
        taken[leader] += 1
        tricks_left = max(h.bit_count() for h in left)
        if talon_lead is not None and tricks_left and talon_lead.suit(tricks_left) is not None:
            leader = talon_lead.seat
    return moves, taken


def play_codes(
    hands: list[CardSet],
    leader: int,
    declarer: int,
    trump: int | None,
    *,
    fewest: bool = False,
    must_overtrump: bool = False,
    stop_declarer: int = 99,
    stop_defence: int = 99,
    deck: CardSet,
    open_hands: bool = False,
) -> tuple[list[int], list[int]]:
    """The play as ``64 * seat + card`` codes and the tricks of each seat: the drivers' form of
    :func:`play_heuristic` (``open_hands``: :func:`play_open`), without a tuple per card."""
    if open_hands:
        moves, taken = play_open(hands, leader, declarer, trump, fewest=fewest,
                                 must_overtrump=must_overtrump, stop_declarer=stop_declarer,
                                 stop_defence=stop_defence, deck=deck)
        return [64 * s + c for s, c in moves], taken
    if _kernel.COMPILED:
        k = len(hands)
        codes, n, won = _kernel.play(
            np.array(hands, dtype=np.int64), k, leader, declarer,
            -1 if trump is None else int(trump), fewest, must_overtrump, stop_declarer,
            stop_defence, deck,
        )
        return codes[:n].tolist(), won[:k].tolist()
    moves, taken = play_interpreted(hands, leader, declarer, trump, fewest=fewest,
                                    must_overtrump=must_overtrump, stop_declarer=stop_declarer,
                                    stop_defence=stop_defence, deck=deck)
    return [64 * s + c for s, c in moves], taken
