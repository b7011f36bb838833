"""Frames in and out of the Balkan settlement (``../shared/spec/balkan.md`` section 7).

The ``games`` and ``deals_balkan`` frames become one ``League`` and its arrays (``Deals``); a
booking (the kernel's ``booking.book`` or the reference's deal-by-deal sheet) fills ``Booked``;
:func:`settle_with` lays the result out as the output frames.

Columns written (records.md 2): ``settlements.cash`` = the deal's change of the player's final
score in soup points (7.5, zero-sum per deal); ``bula_delta``, ``bula_after``; ``soups_left`` /
``soups_right`` = soups the player wrote this deal against his left / right neighbour (which
neighbour is which follows ``direction``); ``refa_used`` = this deal used one of his refe.
``transfers``: each soup as a payment from the declarer to the defender who wrote it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from model.balkan.frame import Mode
from model.balkan.paper import BULA_POINT
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanGame
from scoring.balkan.booking import SEATS, Booked, Deals
from scoring.settlement import Settled

VARIANT = "balkan"


def rules_of(text: str | dict[str, Any] | None) -> BalkanRules:
    """The rules of a ``games.rules`` JSON value (presets expanded, missing = defaults)."""
    data = json.loads(text) if isinstance(text, str) else (text or {})
    game = BalkanGame.model_validate(
        {"variant": "balkan", "game_id": "-", "players": ["a", "b", "c", "d"][
            : 4 if data.get("four_players") else 3], "rules": data})
    return game.rules


@dataclass(frozen=True, slots=True)
class League:
    """Deals of known games sorted by ``game_id, deal_no``, with each game's facts by ordinal
    (games numbered in order of first appearance)."""

    deals: pl.DataFrame
    game: npt.NDArray[np.int32]
    """Game ordinal of each deal (non-decreasing)."""
    firsts: npt.NDArray[np.intp]
    """Row of each game's first deal."""
    ids: pl.Series
    players: pl.Series
    """List of names per game, in turn order."""
    n_players: npt.NDArray[np.int32]
    rules: list[str]
    """``games.rules`` text per game."""


def league(games: pl.DataFrame, deals: pl.DataFrame) -> League:
    """The deals of ``games`` in settlement order (sorted only if they are not already)."""
    ordered = deals.select(((pl.col("game_id") > pl.col("game_id").shift(1))
                            | ((pl.col("game_id") == pl.col("game_id").shift(1))
                               & (pl.col("deal_no") > pl.col("deal_no").shift(1))))
                           .fill_null(True).all()).item()
    if not ordered:
        deals = deals.sort("game_id", "deal_no", maintain_order=True)
    game = deals["game_id"].rle_id().to_numpy().astype(np.int32)
    firsts = _firsts(game)
    ids = deals["game_id"].gather(firsts)
    info = pl.DataFrame({"game_id": ids}).join(
        games.unique("game_id", keep="first", maintain_order=True)
        .select("game_id", "players", "rules"),
        on="game_id", how="left", maintain_order="left")
    known = info["players"].is_not_null().to_numpy()
    if not known.all():
        return league(games, deals.filter(pl.Series(known[game])))
    rules = [r if isinstance(r, str) else json.dumps(r) for r in info["rules"].to_list()]
    return League(deals, game, firsts, ids, info["players"],
                  info["players"].list.len().to_numpy().astype(np.int32), rules)


def _firsts(game: npt.NDArray[np.int32]) -> npt.NDArray[np.intp]:
    first = np.ones(len(game), bool)
    first[1:] = game[1:] != game[:-1]
    return np.flatnonzero(first)


def arrays(lg: League) -> Deals:
    """The kernel's input arrays of every deal of ``lg`` (int32; nulls as in ``Deals``)."""
    deals = lg.deals

    def col(name: str, fill: int) -> npt.NDArray[np.int32]:
        return deals[name].fill_null(fill).to_numpy().astype(np.int32)

    mode = deals["mode"]
    if mode.dtype != Mode:
        mode = mode.cast(pl.String).cast(Mode)
    return Deals(
        game=lg.game,
        n_players=lg.n_players[lg.game],
        dealer=col("dealer", 0),
        declarer=col("declarer", -1),
        number=col("number", 0),
        igra=deals["igra"].fill_null(False).to_numpy().astype(bool),
        mode=mode.to_physical().to_numpy().astype(np.int32),
        lead=col("lead_defender", -1),
        kontra=np.stack([col(f"kontra_{i}", 0) for i in range(SEATS)], axis=1),
        tricks=np.stack([col(f"tricks_{i}", -1) for i in range(SEATS)], axis=1),
        repealed=deals["repealed"].fill_null(False).to_numpy().astype(bool),
    )


def _rule_groups(lg: League) -> list[tuple[BalkanRules, npt.NDArray[np.intp] | None]]:
    """Each rule set with the rows of its deals (``None``: every row)."""
    by_text: dict[str, list[int]] = {}
    for i, text in enumerate(lg.rules):
        by_text.setdefault(text or "{}", []).append(i)
    if len(by_text) == 1:
        return [(rules_of(next(iter(by_text))), None)]
    group = np.zeros(len(lg.rules), np.int32)
    for k, ordinals in enumerate(by_text.values()):
        group[ordinals] = k
    per_row = group[lg.game]
    return [(rules_of(text), np.flatnonzero(per_row == k)) for k, text in enumerate(by_text)]


def _subset(d: Deals, rows: npt.NDArray[np.intp] | None) -> Deals:
    if rows is None:
        return d
    fields = {f: getattr(d, f)[rows] for f in Deals.__slots__}  # type: ignore[attr-defined]
    g = fields["game"]
    renumber = np.zeros(len(g), np.int32)
    renumber[1:] = np.cumsum(g[1:] != g[:-1])
    fields["game"] = renumber
    return Deals(**fields)


def settle_with(games: pl.DataFrame, deals: pl.DataFrame,
            book_part: Callable[[BalkanRules, Deals, pl.DataFrame], Booked]) -> Settled:
    """Book every rule set's deals with ``book_part`` and build the frames once."""
    lg = league(games, deals)
    d = arrays(lg)
    n = len(d.game)
    delta, soups, after = (np.zeros((SEATS, n), np.int32).T for _ in range(3))
    out = Booked(np.ones(n, np.int8), delta, soups, after, np.zeros(n, bool))
    step = np.ones(n, np.int32)
    for rules, rows in _rule_groups(lg):
        sub = lg.deals if rows is None else lg.deals[rows]
        b = book_part(rules, _subset(d, rows), sub)
        at = slice(None) if rows is None else rows
        out.refa[at] = b.refa
        for name in ("bula_delta", "soups", "bula_after"):
            part = getattr(b, name).T
            getattr(out, name).T[:len(part), at] = part
        out.finished[at] = b.finished
        if rules.direction != "clockwise":
            step[at] = -1
    return _frames(lg, d, out, step)


def _frames(lg: League, d: Deals, b: Booked, step: npt.NDArray[np.int32]) -> Settled:
    """The three frames from seat-major numpy arrays, built column by column (no joins):
    names by gathering ``game * 4 + seat`` from the games' player lists."""
    n = len(d.game)
    n_games = len(lg.ids)
    npl = d.n_players
    width = int(npl.max()) if n else 0
    dec = d.declarer
    seat = np.arange(width, dtype=np.int32)[:, None]
    soups = b.soups.T[:width]
    delta = b.bula_delta.T[:width]
    is_dec = seat == dec
    ds = soups - is_dec * soups.sum(axis=0, dtype=np.int32)
    ds -= BULA_POINT * delta
    cash = ds - ds.sum(axis=0) / np.maximum(npl, 1)
    left = seat + step
    left -= npl * (left >= npl)
    left += npl * (left < 0)
    right = seat - step
    right -= npl * (right >= npl)
    right += npl * (right < 0)
    to_left = left == dec
    s_left = soups * to_left
    s_right = soups * ((right == dec) & ~to_left)
    used = is_dec & (b.refa == 2)
    names = pl.concat([lg.players.list.get(s, null_on_oob=True) for s in range(SEATS)],
                      rechunk=True)
    if n == 0 or int(npl.min()) == width:
        rr = np.repeat(np.arange(n), width)
        ss = np.tile(np.arange(width, dtype=np.int8), n)

        def rows(x: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return np.ascontiguousarray(x.T).ravel()
    else:
        rr, ss_ = np.nonzero(npl[:, None] > seat.T)
        ss = ss_.astype(np.int8)

        def rows(x: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return x.T[rr, ss]
    game_rows = lg.game[rr]
    settlements = pl.DataFrame([
        lg.deals["game_id"].gather(rr),
        lg.deals["deal_no"].gather(rr),
        names.gather(ss.astype(np.int64) * n_games + game_rows).alias("player"),
        pl.Series("seat", ss, pl.Int8),
        _constant("variant", VARIANT, len(rr)),
        pl.Series("cash", rows(cash), pl.Float64),
        pl.Series("bula_delta", rows(delta), pl.Int32),
        pl.Series("bula_after", rows(b.bula_after.T[:width]), pl.Int32),
        pl.Series("soups_left", rows(s_left), pl.Int32),
        pl.Series("soups_right", rows(s_right), pl.Int32),
        pl.Series("refa_used", rows(used), pl.Boolean),
    ])
    return Settled(settlements, _transfers(lg, d, b.soups.T, names),
                   _standings(lg, d, cash, names, b.finished))


def _constant(name: str, value: str, n: int) -> pl.Series:
    return pl.select(pl.repeat(value, n, dtype=pl.String).alias(name)).to_series()


def _name_rank(lg: League) -> npt.NDArray[np.int32]:
    """(4, games): the place of each seat's name in the game's players sorted by name (ties
    by seat)."""
    names = [lg.players.list.get(s, null_on_oob=True) for s in range(SEATS)]
    out = np.zeros((SEATS, len(lg.ids)), np.int32)
    for s in range(SEATS):
        for t in range(SEATS):
            if t != s:
                before = (names[t] < names[s]) if t > s else (names[t] <= names[s])
                out[s] += before.fill_null(False).to_numpy()
    return out


def _transfers(lg: League, d: Deals, soups: npt.NDArray[np.int32],
               names: pl.Series) -> pl.DataFrame:
    """Each soup as a payment from the declarer to the defender who wrote it (7.3), ordered
    by game, deal, payer, payee (a deal's soups all have the same payer)."""
    n_games = len(lg.ids)
    at = np.flatnonzero(np.ascontiguousarray((soups > 0).T))
    rr, ss = at >> 2, at & 3
    g = lg.game[rr]
    if len(rr) > 1:
        rank = _name_rank(lg)[ss, g]
        swap = np.flatnonzero((rr[1:] == rr[:-1]) & (rank[1:] < rank[:-1]))
        for x in (rr, ss):  # at most two defenders write in one deal
            x[swap], x[swap + 1] = x[swap + 1], x[swap].copy()
        g = lg.game[rr]
    payer = d.declarer[rr].astype(np.int64)
    return pl.DataFrame([
        lg.deals["game_id"].gather(rr),
        lg.deals["deal_no"].gather(rr),
        names.gather(payer * n_games + g).alias("payer"),
        names.gather(ss.astype(np.int64) * n_games + g).alias("payee"),
        pl.Series("amount", soups[ss, rr], pl.Float64),
    ])


def _standings(lg: League, d: Deals, cash: npt.NDArray[np.float64], names: pl.Series,
               finished: npt.NDArray[np.bool_]) -> pl.DataFrame:
    """Per game and player: the sum of cash, deals played, whether the game has ended."""
    n_games = len(lg.ids)
    if n_games:
        total = np.add.reduceat(cash, lg.firsts, axis=1)
        played = np.diff(np.append(lg.firsts, len(d.game)))
        ended = finished[np.append(lg.firsts[1:], len(d.game)) - 1]
    else:
        total = np.zeros((SEATS, 0))
        played = np.zeros(0, np.int64)
        ended = np.zeros(0, bool)
    ss, gg = np.nonzero(np.arange(SEATS)[:, None] < lg.n_players[None, :])
    return pl.DataFrame([
        lg.ids.gather(gg),
        names.gather(ss * n_games + gg).alias("player"),
        _constant("variant", VARIANT, len(gg)),
        pl.Series("cash", total[ss, gg], pl.Float64),
        pl.Series("deals_played", played[gg], pl.Int32),
        pl.Series("finished", ended[gg], pl.Boolean),
    ]).sort("game_id", "player")
