"""Fast path for Greek Prefa deals with hands, auction and play in JSON Lines (``docs/ingest.md``).

Like ``ingest/sheets.py`` this path only *accepts*; every line it does not accept takes the
pydantic reference path, so issues and their messages stay the reference's. A line is accepted
when its parsed object (the same ``json.loads`` the reference uses) is a plain Greek Prefa deal
with full hands and passes, on ints, every check ``model/greek/check.py`` applies to it:

- schema (records.md 1.2): only known fields, exact types (no bools for ints, no floats), names
  that are players of the game, card names from the table of spellings, calls of letters and
  digits, nothing with surrounding spaces, no flag set (``four_aces``, ``preliminary`` and
  ``conceded`` absent or ``false``);
- rules: a four-player dealer sits out, the contract exists under ``ten_nt`` (5.1, 14), the
  defenders are the two after the declarer with a legal pair of decisions (6.1), tricks of exactly
  the players in the play summing to ten (7);
- cards: the three hands of ten and the talon partition the 32-card deck (3), the discard is two
  of the declarer's twelve cards (5), the auction (``model/greek/auction.py``, the reference
  machine itself) is won by the declarer without the preliminary bid at a bid not above the
  contract (4.2, 5), and the play replays (``model/tricks.py:replay``, the reference replay) to
  exactly the recorded tricks (7).

Games with ``all_pass = play_low``, the first deal under ``first_bidder_by_7d``, deals without
hands, and any flag set take the reference path. The canonical JSON (records.md, defaults left
out, keys sorted, no spaces) is written from the checked pieces, which need no escaping: names
and ids without quotes, backslashes, control characters or unpaired surrogates, card names and
calls of ASCII letters and digits. ``tests/ingest/test_fastpath_cards.py`` holds, by hypothesis,
that an accepted line is accepted by the reference with the same canonical JSON, deal key,
``deals`` columns and ``deals_greek`` row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ingest.jsonl import parse_line
from ingest.sheets import Taken
from ingest.source import Raw
from model.base import GameBase
from model.cards import DECK_32
from model.greek.auction import run_auction
from model.greek.contracts import NT, format_contract, ladder_index
from model.greek.frame import SCHEMA as GREEK_SCHEMA
from model.greek.play import PLAYING
from model.greek.records import GreekGame
from model.identity import deal_key
from model.tricks import CARD_NAMES, PlayFault, replay

VARIANT = "greek-prefa"
AUCTIONS = 4096
"""Distinct auctions remembered per game (they repeat: most are a pass or two and a bid)."""
SMALL = 64
"""Fewer plays than this are replayed one by one (``model/tricks.py:replay``), more in numpy."""
MAX_DEAL_NO = 2**31 - 1
"""``deals.deal_no`` is an INTEGER (model/tables.py), as ``ingest/validate.py`` checks."""

FIELDS = frozenset({
    "record", "game_id", "deal_no", "dealer", "declarer", "hands", "talon", "auction", "discard",
    "play", "contract", "defence", "tricks", "four_aces", "preliminary", "conceded",
})
"""The fields of ``GreekDeal`` (records.md 1.2); any other key is a schema error."""
FLAGS = ("four_aces", "preliminary", "conceded")

OUTPUT_SCHEMA: dict[str, pl.DataType] = {
    "idx": pl.Int32(), "game_id": pl.String(), "deal_no": pl.Int32(),
    "dealer": pl.String(), "declarer": pl.String(), "contract": pl.String(),
    "record": pl.String(), "deal_key": pl.String(), "g_dealer": pl.Int8(),
    "g_declarer": pl.Int8(), "g_level": pl.Int8(), "g_denom": pl.Int32(), "g_mode": pl.String(),
    "g_whister": pl.Int8(), **{f"g_tricks_{i}": pl.Int8() for i in range(4)},
    "has_cards": pl.Boolean(),
}
"""Columns of what :func:`accept` returns (``deals_greek`` ones prefixed ``g_``)."""
# pieces of the line shapes of ingest/fastpath_columns/layout.py: a name (no quotes,
# backslashes or control characters), the separators with or without their space
NAME = r'"[^"\\\x00-\x1f]+"'
SEP = r", ?"
COLON = r": ?"
DECISION = r'"(?:play|pass|invite|alone)"'
TRICK_COUNT = r"(?:10|[0-9])"


def supports(frame_schema: dict[str, pl.DataType]) -> bool:
    """The card paths write exactly the ``deals_greek`` columns they know; a changed frame
    schema switches them off (everything then takes the other paths)."""
    return dict(frame_schema) == dict(GREEK_SCHEMA)


def taken(accepted: pl.DataFrame) -> Taken:
    """The card paths' deals as the pipeline stores them, with their ``deals_greek`` rows
    (``model/greek/frame.py`` SCHEMA)."""
    rows = accepted.select(
        "idx", "game_id", "deal_no", dealer="g_dealer", declarer="g_declarer", level="g_level",
        denom="g_denom", mode="g_mode", whister="g_whister",
        **{f"tricks_{i}": f"g_tricks_{i}" for i in range(4)},
        four_aces=pl.lit(False), preliminary=pl.lit(False),
    ).select("idx", *GREEK_SCHEMA).cast(pl.Schema({"idx": pl.Int32(), **GREEK_SCHEMA}))
    deals = accepted.select("idx", "game_id", "deal_no", "dealer", "declarer", "contract",
                            "record", "deal_key", "has_cards", variant=pl.lit(VARIANT))
    return Taken(deals, {VARIANT: rows})

ROW = ("dealer", "declarer", "level", "denom", "mode", "whister", "tricks_0", "tricks_1",
       "tricks_2", "tricks_3")
"""The ``deals_greek`` values :func:`check` returns, in this order (``model/greek/frame.py``)."""

_CARD: dict[str, int] = {t: c for t, c in CARD_NAMES.items() if t.isascii() and t.isalnum()}
_BIT_32: dict[str, int] = {t: 1 << c for t, c in _CARD.items() if DECK_32 >> c & 1}
_CONTRACT: dict[str, tuple[int, int]] = {
    format_contract(6 + i // 5, i % 5): (6 + i // 5, i % 5) for i in range(25)}
_DECISIONS = frozenset({"play", "pass", "invite", "alone"})
_MODE = {("play", "play"): "both", ("pass", "pass"): "pass", ("invite", "pass"): "invite",
         ("alone", "pass"): "alone"}
_CALL_KEYS = frozenset({"player", "call"})


def _safe(text: str) -> bool:
    """Written into JSON as is: ``json.dumps`` escapes nothing in it (and it encodes to UTF-8)."""
    if '"' in text or "\\" in text or any(ord(ch) < 0x20 for ch in text):
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class GameView:
    """What the path needs of a game: seats, quoted names, the rules it reads."""

    game: GreekGame
    seat: dict[str, int]
    quoted: dict[str, str]
    quoted_id: str
    ten_nt: bool
    overtrump: bool
    first_by_7d: bool
    active: tuple[tuple[str, ...], ...]
    """The players dealt in by each dealer's seat, first hand first (3, 14 ``four_players``)."""
    auctions: dict[tuple[object, ...], tuple[str | None, int | None] | None]
    """Auctions already run for this game (``run_auction`` is a pure function of the bidders,
    the calls and the rules): the winner and bid of a legal one without the preliminary bid."""


def game_view(game: GameBase) -> GameView | None:
    """The path's view of a game, or ``None`` when its deals take the reference path."""
    if not isinstance(game, GreekGame) or game.rules.all_pass != "redeal":
        return None
    if not _safe(game.game_id) or not all(_safe(p) for p in game.players):
        return None
    rules = game.rules
    return GameView(game, {p: i for i, p in enumerate(game.players)},
                    {p: f'"{p}"' for p in game.players}, f'"{game.game_id}"',
                    rules.ten_nt != "forbidden", rules.must_overtrump_when_void,
                    rules.first_bidder_by_7d, _actives(game.players), {})


def _actives(players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    n = len(players)
    return tuple(tuple(players[(d + i) % n] for i in (1, 2, 3)) for d in range(n))


def _cards(value: object, n: int) -> int | None:
    """The mask of a list of exactly ``n`` different 32-card-deck card names, else ``None``."""
    if type(value) is not list or len(value) != n:
        return None
    try:
        bits = set(map(_BIT_32.__getitem__, value))
    except (KeyError, TypeError):  # not a card name of the 32-card deck (or not a string)
        return None
    return sum(bits) if len(bits) == n else None


def _list_json(names: list[str]) -> str:
    """A JSON list of strings that need no escaping (checked card names), as ``json.dumps``
    writes it without spaces."""
    return '["' + '","'.join(names) + '"]'


def _play_json(play: list[list[str]]) -> str:
    """The play ``[[player, card], ...]`` as ``json.dumps`` writes it without spaces (names and
    cards checked: nothing to escape)."""
    return '[["' + '"],["'.join(map('","'.join, play)) + '"]]'


@dataclass(frozen=True, slots=True)
class Replay:
    """A play still to replay (7): the playing hands in ``order`` (the leader first), the moves as
    (position in ``order``, card), the trump suit (-1: no trump), the overtrump option and the
    recorded tricks of each position."""

    hands: list[int]
    seats: bytes
    cards: bytes
    trump: int
    overtrump: bool
    tricks: list[int]


def check(view: GameView, d: dict[str, Any]
          ) -> tuple[str, tuple[object, ...], Replay | None] | None:
    """The canonical JSON and the ``deals_greek`` values of a deal (``ROW``, seats as indices)
    the reference accepts if its play
    (when there is one) replays to the recorded tricks, and that replay (:func:`replay_batch`);
    ``None`` when the reference must decide. ``d`` is the line's ``json.loads`` object."""
    if d.get("record") != "deal" or not FIELDS.issuperset(d):
        return None
    for flag in FLAGS:
        if flag in d and d[flag] is not False:
            return None
    deal_no = d.get("deal_no")
    if type(deal_no) is not int or not 1 <= deal_no <= MAX_DEAL_NO:
        return None
    if view.first_by_7d and deal_no == 1:
        return None
    seat, q = view.seat, view.quoted
    dealer = d.get("dealer")
    if type(dealer) is not str or dealer not in seat:
        return None
    ds = seat[dealer]
    active = view.active[ds]
    # deck (3): three hands of ten and the talon partition the 32 cards
    hands = d.get("hands")
    if type(hands) is not dict or len(hands) != 3:
        return None
    masks: dict[str, int] = {}
    seen = 0
    for p in active:
        m = _cards(hands.get(p), 10)
        if m is None or seen & m:
            return None
        masks[p] = m
        seen |= m
    talon_list = d.get("talon")
    if talon_list is None:
        talon = DECK_32 & ~seen
    else:
        t = _cards(talon_list, 2)
        if t is None or t & seen or t | seen != DECK_32:
            return None
        talon = t
    declarer = d.get("declarer")
    contract = d.get("contract")
    defence = d.get("defence")
    discard_list = d.get("discard")
    tricks = d.get("tricks")
    play = d.get("play")
    auction = d.get("auction")
    bid: int | None = None
    winner: str | None = None
    if auction is not None:
        if type(auction) is not list:
            return None
        calls: list[tuple[str, str]] = []
        for c in auction:
            if type(c) is not dict or c.keys() != _CALL_KEYS:
                return None
            who, call = c["player"], c["call"]
            if type(who) is not str or who not in seat or type(call) is not str:
                return None
            if not (call.isascii() and call.isalnum() and len(call) <= 16):
                return None
            calls.append((who, call))
        key = (active, *calls)
        if key in view.auctions:
            result = view.auctions[key]
        else:
            out = run_auction(active, calls, view.game.rules)
            result = None if isinstance(out, str) or out.preliminary else (out.winner, out.bid)
            if len(view.auctions) < AUCTIONS:
                view.auctions[key] = result
        if result is None:
            return None
        winner, bid = result
    mode, whister = "none", None
    order: tuple[str, ...] = ()
    level = denom = None
    pending = None
    parts: list[str] = []
    if auction is not None:
        parts.append('"auction":[' + ",".join(
            f'{{"call":"{call}","player":{q[who]}}}' for who, call in calls) + "]")
    if declarer is None:
        if contract is not None or defence is not None or discard_list is not None:
            return None
        if play is not None or (tricks is not None and tricks != {}) or winner is not None:
            return None
        if tricks is not None and type(tricks) is not dict:
            return None
        parts.append(f'"deal_no":{deal_no},"dealer":{q[dealer]}')
    else:
        if type(declarer) is not str or declarer not in active:
            return None
        if auction is not None and winner != declarer:
            return None
        if type(contract) is not str or contract not in _CONTRACT:
            return None
        level, denom = _CONTRACT[contract]
        if (level, denom) == (10, NT) and not view.ten_nt:
            return None
        if bid is not None and ladder_index(level, denom) < bid:
            return None
        k = active.index(declarer)
        r, left = active[(k + 1) % 3], active[(k + 2) % 3]  # R and L (6.1)
        if type(defence) is not dict or len(defence) != 2:
            return None
        v_r, v_l = defence.get(r), defence.get(left)
        if type(v_r) is not str or type(v_l) is not str or not _DECISIONS.issuperset((v_r, v_l)):
            return None
        pair = (v_r, v_l) if v_r <= v_l else (v_l, v_r)
        if pair not in PLAYING:
            return None
        mode = _MODE[pair]
        if mode in ("invite", "alone"):
            whister = r if v_r != "pass" else left
        order = (() if mode == "pass" else active if mode != "alone"
                 else tuple(p for p in active if p in (declarer, whister)))
        parts.append(f'"contract":"{contract}","deal_no":{deal_no},"dealer":{q[dealer]},'
                     f'"declarer":{q[declarer]},"defence":{{'
                     + ",".join(f'{q[p]}:"{defence[p]}"' for p in sorted(defence)) + "}")
        full = masks[declarer] | talon
        discarded = 0
        if discard_list is not None:
            m = _cards(discard_list, 2)
            if m is None or m & ~full:
                return None
            discarded = m
            parts.append('"discard":' + _list_json(discard_list))
    parts.append(f'"game_id":{view.quoted_id},"hands":{{' + ",".join(
        f"{q[p]}:" + _list_json(hands[p]) for p in sorted(hands)) + "}")
    if order:
        if type(tricks) is not dict or tricks.keys() != set(order):
            return None
        total = 0
        for t in tricks.values():
            if type(t) is not int or not 0 <= t <= 10:
                return None
            total += t
        if total != 10:
            return None
        if play is not None:
            job = _job(view, order, masks, talon, declarer, discarded, denom, play)
            if job is None:
                return None
            pending = Replay(*job, [tricks[p] for p in order])
            parts.append('"play":' + _play_json(play))
    elif declarer is not None:
        if play is not None or (tricks is not None and tricks != {}):
            return None
        if tricks is not None and type(tricks) is not dict:
            return None
    if talon_list is not None:
        parts.append('"talon":' + _list_json(talon_list))
    if tricks is not None:
        parts.append('"tricks":{' + ",".join(
            f"{q[p]}:{tricks[p]}" for p in sorted(tricks)) + "}")
    at = {seat[p]: tricks[p] for p in order} if order and tricks is not None else {}
    row = (ds, seat[declarer] if declarer is not None else None, level, denom, mode,
           seat[whister] if whister is not None else None,
           at.get(0), at.get(1), at.get(2), at.get(3))
    return "{" + ",".join(parts) + "}", row, pending


def _job(view: GameView, order: tuple[str, ...], masks: dict[str, int], talon: int,
         declarer: str | None, discarded: int, denom: int | None,
         play: object) -> tuple[list[int], bytes, bytes, int, bool] | None:
    """The replay's input as ``model/greek/check.py`` ``_play`` builds it, or ``None`` for a
    malformed play or one that is not all ten tricks (the reference rejects both)."""
    if type(play) is not list or len(play) != 10 * len(order):
        return None
    at = {p: i for i, p in enumerate(order)}
    if set(map(type, play)) != {list}:
        return None
    try:  # a move is [player, card]: both strings (the tables' keys), exactly two
        seats = [at[p] for p, _ in play]
        cards = [_CARD[c] for _, c in play]
    except (KeyError, TypeError, ValueError):
        return None
    start = [masks[p] for p in order]
    if declarer is not None and declarer in at:
        full = masks[declarer] | talon
        if discarded:
            start[at[declarer]] = full & ~discarded
        else:  # the discard is what he does not play (model/greek/check.py _play)
            played = 0
            for s, c in zip(seats, cards, strict=True):
                if s == at[declarer]:
                    played |= 1 << c
            start[at[declarer]] = full & played
    trump = -1 if denom is None or denom == NT else denom
    return start, bytes(seats), bytes(cards), trump, view.overtrump


def replay_one(job: Replay) -> bool:
    """Does the play replay (``model/tricks.py:replay``, the reference) to the recorded tricks?"""
    out = replay(job.hands, 0, list(zip(job.seats, job.cards, strict=True)),
                 None if job.trump < 0 else job.trump, must_trump=True,
                 must_overtrump=job.overtrump)
    return not isinstance(out, PlayFault) and out == job.tricks


def replay_batch(jobs: list[Replay]) -> np.ndarray:
    """:func:`replay_one` for many plays with the same number of players at once
    (:func:`replay_arrays`). Returns one verdict per play."""
    n = len(jobs)
    k = len(jobs[0].hands)
    seats = np.frombuffer(b"".join(j.seats for j in jobs), dtype=np.uint8).astype(
        np.int64).reshape(n, 10 * k)
    cards = np.frombuffer(b"".join(j.cards for j in jobs), dtype=np.uint8).astype(
        np.int64).reshape(n, 10 * k)
    return replay_arrays(np.array([j.hands for j in jobs], dtype=np.int64), seats, cards,
                         np.array([j.trump for j in jobs], dtype=np.int64),
                         np.array([j.overtrump for j in jobs], dtype=bool),
                         np.array([j.tricks for j in jobs], dtype=np.int64))


def replay_arrays(hands: np.ndarray, seats: np.ndarray, cards: np.ndarray, trump: np.ndarray,
                  overtrump: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """Many plays of ``k`` players replayed at once, card by card over int64 masks in numpy (the
    rules of ``model/tricks.py:replay``, greek-prefa.md 7): ``hands`` (n, k) the starting hands in
    turn order (the leader first), ``seats`` and ``cards`` (n, 10k) each move's position in that
    order and card code, ``trump`` the trump suit (-1: no trump), ``overtrump`` the option, and
    ``tricks`` (n, k) the recorded tricks. A move is good when it is the turn's, the card is held,
    follows suit if able, else trumps if able, and overtrumps a trump in the trick when it must
    and can; the highest trump, else the highest card of the suit led, wins and leads next.
    Returns one verdict per play: every move good and the tricks as recorded."""
    n, k = hands.shape
    rows = np.arange(n)
    left = hands.copy()
    suit_mask = np.array([0x1FFF << (16 * s) for s in range(4)] + [0], dtype=np.int64)
    trump_mask = suit_mask[np.where(trump < 0, 4, trump)]
    taken = np.zeros((n, k), dtype=np.int64)
    bad = np.zeros(n, dtype=bool)
    turn = np.zeros(n, dtype=np.int64)
    one = np.int64(1)
    led_mask = best = best_seat = turn
    for i in range(10 * k):
        seat, c = seats[:, i], cards[:, i]
        b = one << c
        h = left[rows, seat]
        bad |= (seat != turn) | (h & b == 0)
        suit = c >> 4
        if i % k == 0:
            led_mask = suit_mask[suit]
            best, best_seat = c, seat
        else:
            void = (b & led_mask == 0)
            bad |= void & (h & led_mask != 0)
            trumps = h & trump_mask
            must = void & (h & led_mask == 0) & (trumps != 0)
            bad |= must & (b & trump_mask == 0)
            higher = trumps & ~((np.int64(2) << best) - 1)
            bad |= (must & overtrump & (best >> 4 == trump) & (c < best) & (higher != 0))
            wins = np.where(suit == best >> 4, c > best, suit == trump)
            best = np.where(wins, c, best)
            best_seat = np.where(wins, seat, best_seat)
        left[rows, seat] = h ^ b
        if i % k == k - 1:
            taken[rows, best_seat] += 1
            turn = best_seat
        else:
            turn = (turn + 1) % k
    return ~bad & (taken == tricks).all(axis=1)


def accept(source: str, texts: Sequence[tuple[int, str]], candidates: list[int],
           games: dict[str, tuple[GameView, int]]) -> tuple[pl.DataFrame, dict[int, Raw]]:
    """The candidate lines (positions in ``texts``) this path accepts, as a frame of
    ``OUTPUT_SCHEMA``, and the parsed ``Raw`` of those it left to the reference (to reuse).
    ``games`` maps a game id to its view and the position of its game line in ``texts`` (-1:
    known before), a deal sees a game only after that line."""
    parsed: dict[int, Raw] = {}
    done: list[tuple[object, ...]] = []
    jobs: list[Replay | None] = []
    for i in candidates:
        line_no, text = texts[i]
        raw = parse_line(source, line_no, text)
        if not isinstance(raw, Raw):
            continue
        d = raw.data
        gid = d.get("game_id")
        known = games.get(gid) if type(gid) is str else None
        got = check(known[0], d) if known is not None and i > known[1] else None
        if got is None:
            parsed[i] = raw
            continue
        record, row, job = got
        done.append((i, gid, d["deal_no"], d["dealer"], d.get("declarer"),
                     d.get("contract"), record, deal_key(str(gid), record),
                     *row, True))
        jobs.append(job)
    rows = []
    for deal, good in zip(done, _verdicts(jobs), strict=True):
        if good:
            rows.append(deal)
        else:
            at = int(deal[0])  # type: ignore[call-overload]
            again = parse_line(source, *texts[at])  # parsed above: a Raw again
            if isinstance(again, Raw):
                parsed[at] = again
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in OUTPUT_SCHEMA]
    frame = pl.DataFrame(dict(zip(OUTPUT_SCHEMA, columns, strict=True)), schema=OUTPUT_SCHEMA)
    return frame, parsed


def _verdicts(jobs: list[Replay | None]) -> list[bool]:
    """One verdict per deal: no play, or a play that replays to the recorded tricks."""
    ok = [True] * len(jobs)
    by_k: dict[int, list[int]] = {}
    for at, job in enumerate(jobs):
        if job is not None:
            by_k.setdefault(len(job.hands), []).append(at)
    for group in by_k.values():
        if len(group) < SMALL:
            for at in group:
                job = jobs[at]
                ok[at] = job is not None and replay_one(job)
            continue
        batch = [j for at in group if (j := jobs[at]) is not None]
        for at, good in zip(group, replay_batch(batch).tolist(), strict=True):
            ok[at] = good
    return ok
