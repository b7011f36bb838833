"""The cards of a batch of deals as columns: every check of the cards in array operations.

A variant's ``check_batch`` (``model/variant.py``) asks its rules only what they say without the
cards (``Layout``: names, contract, defence, tricks, auction, who holds a hand, who leads, the
trump, where the play stops), once per distinct ``key`` of the batch (deals that agree on
everything the rules read get one answer); the cards of the whole batch are then read here at
once, with no Python per card:

- every card name of the batch (hands, talon, discard, play) is joined into one text and read as
  codes through one table of the two-letter names (``model/tricks.py`` ``CARD_NAMES``; a batch
  with another spelling is read through the same table name by name);
- each list of cards becomes a mask (one ``bitwise_or.reduceat``); the deal is dealt right when
  every hand and the talon hold their number of cards, none twice, and together make the deck
  (records.md 1.2); the discard is two cards of the declarer's hand and the talon, and his hand
  at the play is the rest;
- the play's players become seats by comparing name ids, and every play of the batch is replayed
  by the compiled kernel (``model/replay_kernel.py``) in one call; its answer is judged as the
  layout says (the recorded tricks of each seat, or a side's tricks and a claim).

A deal passes only when every step passes; any other deal (a problem, an unusual shape, a card
the table cannot read) is judged by the variant's ``before_play`` and the kernel, the reference
and the only source of messages. So the columns only ever say yes where the reference says yes
(``tests/model/test_check_batch.py`` holds the two equal).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from itertools import chain, repeat
from operator import attrgetter, is_, itemgetter
from typing import Any, NamedTuple

import numpy as np

from model.cards import CardError
from model.problems import Code, Problem
from model.replay_kernel import (
    FIXED_LEADS,
    LEAD_SUIT,
    MAX_FIXED_LEADS,
    OK,
    OUT,
    PARAMS,
    PLAYED,
    SHORT,
    STATUS,
    TAKEN,
    TRICKS,
    CardPlay,
    Split,
    compiled,
    replay_many,
)
from model.tricks import CARD_NAMES

NO_CARD = -1
"""The code of a name that is not a card."""


def _two_letter_table() -> np.ndarray:
    """Codes by the two bytes of every two-letter card name (``CARD_NAMES``) read as one
    little-endian 16-bit number, else NO_CARD."""
    table = np.full(1 << 16, NO_CARD, dtype=np.int8)
    for name, code in CARD_NAMES.items():
        if len(name) == 2:
            table[ord(name[0]) | ord(name[1]) << 8] = code
    return table


TWO_LETTERS = _two_letter_table()


def card_codes(names: Sequence[str]) -> np.ndarray:
    """The code of each card name (``CARD_NAMES``; NO_CARD where a name is not a card), in one
    pass over the joined names when they are all two ASCII letters, as records write them (a
    record's card names have two or three characters, ``model/base.py`` ``CardName``, so a text
    of twice their number is all two-letter names)."""
    text = "".join(names)
    if len(text) == 2 * len(names) and text.isascii():
        return TWO_LETTERS[np.frombuffer(text.encode("ascii"), dtype="<u2")].astype(np.int64)
    return np.fromiter(map(CARD_NAMES.get, names, repeat(NO_CARD)), dtype=np.int64,
                       count=len(names))


class Layout(NamedTuple):
    """What a deal's rules say, without looking at the cards, its cards must be.

    The deal has ``hands`` for exactly ``holders`` (``hand_size`` cards each) and a talon of
    ``talon_size`` (none when 0) that together partition ``deck``; with ``discard`` the record's
    discard is two cards of the hand of ``holders[declarer]`` and the talon, and that hand at
    the play is the rest. ``seats`` are the players of the play in seat order (indices into
    ``holders``, none: no play to replay); ``row`` is the kernel's parameters in those seats
    (``Play.row``). The variant accepts the kernel's answer when the play ended where the rules
    end it (``ended``; else only without a fault), in whole tricks when ``whole``, and each
    seat won its ``taken`` tricks; or, with a ``side``, when those seats won ``side_tricks``
    over all the tricks, or over fewer could still win them in the tricks left (a claim)."""

    holders: tuple[str, ...]
    hand_size: int
    talon_size: int
    deck: int
    seats: tuple[int, ...] = ()
    row: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()
    ended: bool = True
    whole: bool = False
    declarer: int = -1
    discard: bool = False
    talon_leads: int = 0
    """The first ``talon_leads`` tricks are led in the suits of the talon's cards, in the
    order the record lists them (``Play.lead_suits``, russian.md 4)."""
    talon_pair: bool | None = None
    """Whether the talon must be two cards of one rank (True), must not be (False), or either."""
    side: tuple[int, ...] = ()
    side_tricks: int = 0
    by_tricks: bool = False
    """``taken`` is each deal's own ``tricks`` of the players of ``seats`` (read per deal), so
    the deals a variant's rules tell apart only by their trick counts share one layout."""


Rules = Callable[[Any, Any], tuple[Sequence[object], Layout | None]]
"""A variant's rules of one (game, deal) without the cards: every problem they find, and the
deal's :class:`Layout` (None: the deal is left to ``before_play``)."""
Key = Callable[[Any, Any], Hashable]
"""Everything of a (game, deal) its :data:`Rules` read besides the game's players and rules:
deals of such games with one key have one answer."""


def batch_check(split: Split, rules: Rules, key: Key,
                ) -> Callable[[Sequence[tuple[Any, Any]]], list[bool]]:
    """A variant's ``check_batch``: for each (game, deal), :func:`rules` without the cards (once
    per distinct players, house rules and ``key`` in the batch) and the cards in columns; what
    that cannot settle, the variant's ``before_play`` (``split``) and the kernel."""

    def check_batch(pairs: Sequence[tuple[Any, Any]]) -> list[bool]:
        ok = [False] * len(pairs)
        laid: list[tuple[int, Any, Layout]] = []
        rest: list[int] = []
        said: dict[Hashable, tuple[Sequence[object], Layout | None]] = {}
        seated: dict[int, int] = {}
        alike: dict[tuple[Any, Any], int] = {}
        alike_layouts: dict[Layout, Layout] = {}
        for i, (game, deal) in enumerate(pairs):
            g = seated.get(id(game))
            if g is None:
                g = seated[id(game)] = alike.setdefault((game.players, game.rules), len(alike))
            k = (g, key(game, deal))
            found = said.get(k)
            if found is None:
                problems, layout = rules(game, deal)
                if layout is not None:  # one object for equal layouts: fewer rows in the columns
                    layout = alike_layouts.setdefault(layout, layout)
                found = said[k] = problems, layout
            problems, layout = found
            if problems:
                continue
            if layout is None:
                rest.append(i)
            else:
                laid.append((i, deal, layout))
        for (i, _, _), good in zip(laid, cards_pass(laid), strict=True):
            if good:
                ok[i] = True
            else:
                rest.append(i)
        for i, good in zip(rest, _reference([pairs[i] for i in rest], split), strict=True):
            ok[i] = good
        return ok

    return check_batch


_CALL = attrgetter("player", "call")
_DEALT = attrgetter("hands", "talon", "discard")
_PLAY = attrgetter("play")
_HOLDERS = attrgetter("holders")


def items(field: Mapping[str, object] | None) -> tuple[tuple[str, object], ...] | None:
    """A record's mapping (tricks, defence ...) as part of a :data:`Key`."""
    return None if field is None else tuple(field.items())


def counted(tricks: Mapping[str, int] | None, declarer: str | None = None) -> Hashable:
    """A record's trick counts as the rules read them, part of a :data:`Key` where they read no
    more (their layouts take the counts ``by_tricks``): who has tricks, the ``declarer``'s (when
    given) and the total."""
    if tricks is None:
        return None
    return tuple(tricks), None if declarer is None else tricks.get(declarer), sum(tricks.values())


def calls(auction: Sequence[Any] | None) -> tuple[tuple[str, str], ...] | None:
    """A record's auction as (player, call) pairs, part of a :data:`Key`."""
    return None if auction is None else tuple(map(_CALL, auction))


_PLAYER = attrgetter("player")


def names_in(deal: Any, fields: Sequence[str], play: bool) -> set[str]:
    """Every name a deal record mentions, but its dealer's: declarer, the names of ``fields``
    (mappings by player), the auction's callers and, with ``play``, the play's players."""
    names = set(chain.from_iterable(getattr(deal, f) or () for f in fields))
    if deal.declarer is not None:
        names.add(deal.declarer)
    names.update(map(_PLAYER, deal.auction or ()))
    if play:
        names.update(map(itemgetter(0), deal.play or ()))
    return names


def check_one(split: Split) -> Callable[[Any, Any], list[Problem]]:
    """A variant's ``check_deal`` (the reference): every problem ``split`` (its
    ``before_play``) finds before the play, then the play replayed in Python (``reference()``
    of the play it hands back)."""

    def check_deal(game: Any, deal: Any) -> list[Problem]:
        problems, cards = split(game, deal)
        return [*problems, *cards.reference()] if cards is not None else [*problems]

    return check_deal


def rules_then_cards(rules: Callable[[Any, Any], list[Problem]], cards: Split) -> Split:
    """A variant's ``before_play`` that checks the cards only when the rules hold: ``rules``'
    problems, else ``cards``' (a card name not of the deck, which the schema already refused,
    is a ``deck`` problem for direct callers)."""

    def before_play(game: Any, deal: Any) -> tuple[Sequence[Problem], CardPlay | None]:
        problems = rules(game, deal)
        if problems:
            return problems, None
        try:
            return cards(game, deal)
        except CardError as exc:
            return [Problem(Code.DECK, str(exc))], None

    return before_play


def replayed_batch(split: Split) -> Callable[[Sequence[tuple[Any, Any]]], list[bool]]:
    """A variant's ``check_batch`` without a layout: ``before_play`` deal by deal, every play of
    the batch in one call of the kernel."""
    return partial(_reference, split=split)


def _reference(pairs: Sequence[tuple[Any, Any]], split: Split) -> list[bool]:
    """``before_play`` deal by deal, every play in one call of the kernel."""
    found = [split(game, deal) for game, deal in pairs]
    ok = [not problems for problems, _ in found]
    todo = [(i, cards) for i, (problems, cards) in enumerate(found)
            if not problems and cards is not None]
    for (i, cards), replayed in zip(todo, replay_many([c.play for _, c in todo]), strict=True):
        ok[i] = cards.accepts(replayed)
    return ok


HOLDERS = 4
"""Hands per deal in the columns at most (fewer holders leave theirs empty)."""


class _Layouts:
    """The distinct layouts of a batch as columns (one row each), and each deal's row."""

    def __init__(self, layouts: Sequence[Layout], ids: dict[str, int]) -> None:
        index: dict[int, int] = {}
        distinct: list[Layout] = []
        for layout in layouts:
            if id(layout) not in index:
                index[id(layout)] = len(distinct)
                distinct.append(layout)
        self.of = np.fromiter(map(index.__getitem__, map(id, layouts)), dtype=np.int64,
                              count=len(layouts))
        seating: dict[tuple[str, ...], tuple[int, ...]] = {}
        for x in distinct:
            if x.holders not in seating:
                seating[x.holders] = (*(ids.setdefault(p, len(ids)) for p in x.holders),
                                      *(-2,) * HOLDERS)[:HOLDERS]
        self.holders = np.array(list(map(seating.__getitem__, map(_HOLDERS, distinct))),
                                dtype=np.int64).reshape(-1, HOLDERS)
        self.seats = np.array([(*x.seats, 0, 0, 0, 0)[:HOLDERS] for x in distinct],
                              dtype=np.int64).reshape(-1, HOLDERS)
        self.taken = np.array([(*x.taken, 0, 0, 0, 0)[:HOLDERS] for x in distinct],
                              dtype=np.int64).reshape(-1, HOLDERS)
        self.rows = np.array([x.row or (0,) * PARAMS for x in distinct],
                             dtype=np.int64).reshape(-1, PARAMS)
        (self.k, self.in_play, self.hand_size, self.talon_size, self.deck, self.declarer,
         self.talon_leads, self.side_tricks) = np.array(
            [(len(x.holders), len(x.seats), x.hand_size, x.talon_size, x.deck,
              x.declarer if x.discard else -1, x.talon_leads, x.side_tricks) for x in distinct],
            dtype=np.int64).reshape(-1, 8).T
        self.by_tricks = np.array([x.by_tricks for x in distinct], dtype=bool)
        self.playing_names = [tuple(x.holders[s] for s in x.seats) for x in distinct]
        self.side = np.array([[s in x.side for s in range(HOLDERS)] for x in distinct],
                             dtype=bool).reshape(-1, HOLDERS)
        self.ended, self.whole, self.pair_wanted, self.pair_barred = np.array(
            [(x.ended, x.whole, x.talon_pair is not False, x.talon_pair is not True)
             for x in distinct], dtype=bool).reshape(-1, 4).T
        playing = np.arange(HOLDERS) < self.in_play[:, None]
        self.seat_ids = np.where(playing, np.take_along_axis(self.holders, self.seats, axis=1), -2)


def cards_pass(laid: Sequence[tuple[int, Any, Layout]]) -> list[bool]:
    """For each (position, deal, layout): its cards are dealt as the layout says and its play
    replays to what the variant accepts (:class:`Layout`)."""
    if not laid:
        return []
    deals = [deal for _, deal, _ in laid]
    ids: dict[str, int] = {}
    lay = _Layouts([layout for _, _, layout in laid], ids)
    ok, hands, talon = _dealt(deals, lay, ids)
    return _played(deals, lay, ids, ok, hands, talon)


def _dealt(deals: Sequence[Any], lay: _Layouts, ids: dict[str, int],
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whether each deal's hands, talon and discard are as its layout says; the hands at the
    play by holder ``(n, HOLDERS)`` (the declarer's after his discard) and the talon's first two
    cards ``(n, 2)``."""
    n = len(deals)
    dealt, talons, discards = map(list, zip(*map(_DEALT, deals), strict=True))
    if None in dealt:
        dealt = [h or {} for h in dealt]
    held = np.fromiter(map(len, dealt), dtype=np.int64, count=n)
    names = list(chain.from_iterable(dealt))
    if None in talons:
        talons = [t or () for t in talons]
    missing = np.fromiter(map(is_, discards, repeat(None)), dtype=bool, count=n)
    if missing.any():
        discards = [d or () for d in discards]
    lists = [*chain.from_iterable(map(dict.values, dealt)), *talons, *discards]
    masks, lengths, distinct, codes, starts = _masks(lists)
    m = len(names)
    owner = np.repeat(np.arange(n), held)
    holder = _find(names, ids, lay.holders, lay.of[owner])
    size = lay.hand_size[lay.of[owner]]
    right = (holder >= 0) & (lengths[:m] == size) & (distinct[:m] == size)
    hands = np.zeros((n, HOLDERS), dtype=np.int64)
    hands[owner[right], holder[right]] = masks[:m][right]
    seen = np.zeros(n, dtype=np.int64)
    np.bitwise_or.at(seen, owner[right], np.left_shift(1, holder[right]))
    k = lay.k[lay.of]
    ok = (held == k) & (seen == (1 << k) - 1)
    talon, t_len, t_distinct = masks[m:m + n], lengths[m:m + n], distinct[m:m + n]
    size = lay.talon_size[lay.of]
    ok &= (t_len == size) & (t_distinct == size)
    deck = lay.deck[lay.of]
    ok &= (np.bitwise_or.reduce(hands, axis=1) | talon) == deck
    ok &= np.bitwise_count(hands).sum(axis=1) + t_distinct == np.bitwise_count(deck)
    ok &= _discarded(lay, hands, talon, masks[m + n:], lengths[m + n:], distinct[m + n:],
                     missing)
    first = codes[np.minimum(starts[m:m + n], max(len(codes) - 1, 0))] if len(codes) else held
    second = codes[np.minimum(starts[m:m + n] + 1, max(len(codes) - 1, 0))] if len(codes) \
        else held
    ok &= np.where((first & 15) == (second & 15), lay.pair_wanted[lay.of],
                   lay.pair_barred[lay.of])
    return ok, hands, np.stack([first >> 4, second >> 4], axis=1)


def _find(names: Sequence[str], ids: dict[str, int], among: np.ndarray,
          row: np.ndarray) -> np.ndarray:
    """The position of each name in its row (``row``) of ``among`` (rows of name ids), -1 where
    it is not there."""
    found = np.fromiter(map(ids.get, names, repeat(-1)), dtype=np.int64, count=len(names))
    at = np.full(len(names), -1, dtype=np.int64)
    for s in range(HOLDERS - 1, -1, -1):
        at = np.where(among[:, s][row] == found, s, at)
    return np.where(found >= 0, at, -1)


def _discarded(lay: _Layouts, hands: np.ndarray, talon: np.ndarray, discard: np.ndarray,
               lengths: np.ndarray, distinct: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Where a layout has a discard: it is two cards of the declarer's hand and the talon, and
    his hand becomes the rest (``hands`` changed in place). Whether each deal's discard is
    right."""
    who = lay.declarer[lay.of]
    rows = np.flatnonzero(who >= 0)
    held = hands[rows, who[rows]] | talon[rows]
    ok = np.ones(len(who), dtype=bool)
    ok[rows] = ((discard[rows] & ~held) == 0) & (lengths[rows] == 2) & (distinct[rows] == 2) \
        & ~missing[rows]
    hands[rows, who[rows]] = held & ~discard[rows]
    return ok


def _played(deals: Sequence[Any], lay: _Layouts, ids: dict[str, int], ok: np.ndarray,
            hands: np.ndarray, leads: np.ndarray) -> list[bool]:
    """The plays of the deals dealt right, replayed in one call of the kernel and judged as
    their layouts say; a deal without a play to replay passes as dealt."""
    todo = np.flatnonzero(ok & (lay.in_play[lay.of] > 0))
    result = ok.tolist()
    if not len(todo):
        return result
    of = lay.of[todo]
    chosen = list(map(deals.__getitem__, todo.tolist()))
    plays = list(map(_PLAY, chosen))
    if None in plays:
        plays = [p or () for p in plays]
    lengths = np.fromiter(map(len, plays), dtype=np.int64, count=len(plays))
    flat = list(chain.from_iterable(chain.from_iterable(plays)))
    cards = card_codes(flat[1::2])
    seats = _find(flat[0::2], ids, lay.seat_ids, np.repeat(of, lengths))
    offsets = np.zeros(len(todo) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    good = np.add.reduceat(np.append(cards < 0, False), offsets[:-1]) == 0
    out = _replayed(lay, of, hands[todo], leads[todo], offsets, seats, cards)
    good &= np.where(lay.ended[of], out[:, STATUS] == OK, out[:, STATUS] <= SHORT)
    good &= ~lay.whole[of] | (lengths % np.maximum(lay.in_play[of], 1) == 0)
    taken = out[:, TAKEN:TAKEN + HOLDERS]
    side = lay.side[of]
    won = (taken * side).sum(axis=1)
    left = lay.rows[of, TRICKS] - out[:, PLAYED]
    wanted = lay.side_tricks[of]
    good &= np.where(side.any(axis=1),
                     np.where(left == 0, won == wanted, (won <= wanted) & (wanted <= won + left)),
                     (taken == _wanted(lay, of, chosen)).all(axis=1))
    for j, g in zip(todo.tolist(), good.tolist(), strict=True):
        result[j] = g
    return result


def _wanted(lay: _Layouts, of: np.ndarray, deals: Sequence[Any]) -> np.ndarray:
    """The tricks each seat of the play must win: its layout's ``taken``, or where the layout
    says ``by_tricks`` the deal's own ``tricks`` of those players (-1, never won, for a name
    the tricks lack)."""
    wanted = lay.taken[of]
    rows = np.flatnonzero(lay.by_tricks[of])
    if len(rows):
        names, pad = lay.playing_names, (0,) * HOLDERS
        wanted[rows] = [(*map((deals[j].tricks or {}).get, names[o], repeat(-1)), *pad)[:HOLDERS]
                        for j, o in zip(rows.tolist(), of[rows].tolist(), strict=True)]
    return wanted


def _replayed(lay: _Layouts, of: np.ndarray, hands: np.ndarray, leads: np.ndarray,
              offsets: np.ndarray, seats: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """The kernel's answer for every play (``model/replay_kernel.py``): the hands by seat, the
    rows of parameters with the talon's leads filled in."""
    rows = lay.rows[of].copy()
    talon_leads = lay.talon_leads[of]
    rows[:, FIXED_LEADS] = np.maximum(rows[:, FIXED_LEADS], talon_leads)
    for t in range(MAX_FIXED_LEADS):
        rows[:, LEAD_SUIT + t] = np.where(talon_leads > t, leads[:, t], rows[:, LEAD_SUIT + t])
    playing = np.arange(HOLDERS) < lay.in_play[of][:, None]
    seated = np.where(playing, np.take_along_axis(hands, lay.seats[of], axis=1), 0)
    out = np.zeros((len(of), OUT), dtype=np.int64)
    compiled()(np.ascontiguousarray(seated), rows, offsets, seats.astype(np.int8),
               np.maximum(cards, 0).astype(np.int8), out)
    return out


def _masks(lists: Sequence[Sequence[str]],
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each list of card names as a mask, its length and number of distinct cards; the codes of
    every card in order and where each list starts among them (a name that is not a card sets
    bit 63, outside every deck)."""
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    codes = card_codes(list(chain.from_iterable(lists)))
    bits = np.left_shift(np.int64(1), np.where(codes < 0, 63, codes))
    starts = np.zeros(len(lists), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    masks = np.bitwise_or.reduceat(np.append(bits, np.int64(0)), starts)
    masks = np.where(lengths > 0, masks, 0)
    return masks, lengths, np.bitwise_count(masks).astype(np.int64), codes, starts
