"""Greek Prefa settlement, vectorised (``../shared/spec/greek-prefa.md`` 8-11, 14): ``SETTLEMENT``
for the registry (``scoring/registry.py``). The ``games`` and ``deals_greek`` frames become arrays,
``arrays.settle_arrays`` settles every deal of every game at once, and the result becomes the
``settlements``, ``transfers`` and ``standings`` frames; ``scoring.greek.reference`` is the
per-deal rulebook version the tests hold it equal to.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from model.greek.frame import TABLE
from model.greek.params import GreekRules
from model.tables import SETTLEMENTS
from scoring.greek.arrays import ROLE_OF_SEAT, DealArrays, GameArrays, Result, settle_arrays
from scoring.greek.arrays import S as SITTER
from scoring.greek.frames import (
    STANDINGS_SCHEMA,
    TRANSFERS_SCHEMA,
    with_null_columns,
)
from scoring.greek.reference import VARIANT
from scoring.greek.scan import SIXTHS
from scoring.settlement import Check, Settled, Settlement

KASSA_CHIPS = 10
"""Chips per kassa point (greek-prefa.md 8)."""


def game_arrays(games: pl.DataFrame) -> tuple[pl.DataFrame, GameArrays]:
    """Games sorted by game_id, their rules parsed (each distinct rules text once)."""
    games = games.sort("game_id")
    first: dict[str, int] = {}
    at = np.array([first.setdefault(r, len(first)) for r in games["rules"].to_list()],
                  dtype=np.intp)
    rules = [GreekRules.model_validate_json(r) for r in first]
    players = games["players"].list.len().to_list()
    return games, GameArrays.from_rules(players, rules, at)


def deal_arrays(games: pl.DataFrame, deals: pl.DataFrame) -> tuple[pl.DataFrame, DealArrays]:
    """The deals of known games as arrays, sorted by game then deal_no."""
    index = games.select("game_id", pl.int_range(pl.len(), dtype=pl.Int32).alias("_game"))
    deals = deals.join(index, on="game_id", how="inner", maintain_order="left")
    game = deals["_game"].to_numpy()
    deal_no = deals["deal_no"].to_numpy()
    ordered = len(game) < 2 or bool(
        np.all((np.diff(game) > 0) | ((np.diff(game) == 0) & (np.diff(deal_no) > 0)))
    )
    if not ordered:
        deals = deals.sort("_game", "deal_no")
        game = deals["_game"].to_numpy()

    def col(name: str, null: int) -> np.ndarray:
        return deals[name].fill_null(null).to_numpy().astype(np.int8)

    tricks = np.stack([col(f"tricks_{i}", 0) for i in range(4)], axis=1)
    has_tricks = deals.select(
        pl.any_horizontal([pl.col(f"tricks_{i}").is_not_null() for i in range(4)])
    ).to_series().to_numpy()
    arrays = DealArrays(
        game=game.astype(np.int64),
        dealer=col("dealer", 0),
        declarer=col("declarer", -1),
        level=col("level", 0),
        denom=col("denom", 0),
        mode=deals["mode"].to_physical().to_numpy().astype(np.int8),
        whister=col("whister", -1),
        tricks=np.ascontiguousarray(tricks),
        has_tricks=has_tricks,
        four_aces=deals["four_aces"].fill_null(False).to_numpy(),
    )
    return deals, arrays


def frames(games: pl.DataFrame, deals: pl.DataFrame, g: GameArrays, res: Result) -> Settled:
    """Kernel arrays to the settlements / transfers / standings frames (rows by seat)."""
    game = deals["_game"].to_numpy()
    chips6 = res.chips6()
    role = ROLE_OF_SEAT[res.roles.code]  # (deals, 4): the role of each seat, -1 no such seat
    real = (role >= 0) & res.settled[:, None]
    keep = np.flatnonzero(real.ravel())
    deal_idx, seat = keep // 4, keep % 4
    row = res.where[deal_idx] * 4 + seat
    names = _seat_names(games)
    sixths = chips6.ravel()[role.ravel()[keep].astype(np.int64) * len(game) + deal_idx]
    chips = sixths / SIXTHS
    settlements = with_null_columns(pl.DataFrame({
        "game_id": deals["game_id"].gather(deal_idx),
        "deal_no": deals["deal_no"].gather(deal_idx),
        "player": names.gather(game[deal_idx] * 4 + seat),
        "seat": seat.astype(np.int8),
        "variant": pl.repeat(VARIANT, len(keep), eager=True),
        "cash": chips,
        "chips": chips,
        "kassa_delta": res.kassa_delta.ravel()[row],
        "kassa_after": res.kassa_after.ravel()[row],
    }))

    t_deal, t_payer, t_payee, t_amount = transfer_rows(res)
    tgame = game[t_deal]
    transfers = pl.DataFrame({
        "game_id": deals["game_id"].gather(t_deal),
        "deal_no": deals["deal_no"].gather(t_deal),
        "payer": names.gather(tgame * 4 + t_payer),
        "payee": names.gather(tgame * 4 + t_payee),
        "amount": t_amount / SIXTHS,
    }, schema=TRANSFERS_SCHEMA)

    n_games = len(games)
    slots = (game[:, None] * 4 + np.arange(4)[None, :]).ravel()[keep]
    cash6 = np.bincount(slots, weights=sixths, minlength=4 * n_games)  # exact below 2**53
    active = role.ravel()[keep] != SITTER
    played = np.bincount(slots, weights=active, minlength=4 * n_games)
    gseat = np.flatnonzero(np.arange(4 * n_games) % 4 < np.repeat(g.n, 4))
    standings = pl.DataFrame({
        "game_id": games["game_id"].gather(gseat // 4),
        "player": names.gather(gseat),
        "variant": pl.repeat(VARIANT, len(gseat), eager=True),
        "cash": cash6[gseat] / SIXTHS,
        "deals_played": played[gseat].astype(np.int32),
        "finished": res.finished[gseat // 4],
    }, schema=STANDINGS_SCHEMA)
    return Settled(settlements, transfers, standings)


def transfer_rows(res: Result) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Net chips (sixths) per ordered pair and settled deal: (deal, payer, payee, amount > 0).
    The role pairs of section 9 are distinct seat pairs, so they are net already; deals with an
    overflow or end payment are netted pair by pair."""
    ro, ok = res.roles, res.settled
    d_r, d_l, r_l, d_s = res.nine.pairs()
    parts = []
    for a, b, f in ((ro.p, ro.r, d_r), (ro.p, ro.left, d_l), (ro.r, ro.left, r_l),
                    (ro.p, ro.sitter, d_s)):
        i = np.flatnonzero((f != 0) & ok)
        fi = f[i].astype(np.int64)
        parts.append((i, np.where(fi > 0, a[i], b[i]), np.where(fi > 0, b[i], a[i]),
                      np.abs(fi) * SIXTHS))
    deal, payer, payee, amount = (np.concatenate([p[k] for p in parts]).astype(np.int64)
                                  for k in range(4))
    s_deal, s_payer, s_payee, s_amount = res.sparse
    if len(s_deal):
        mixed = np.isin(deal, s_deal)
        m_deal = np.concatenate([deal[mixed], s_deal])
        m_payer = np.concatenate([payer[mixed], s_payer])
        m_payee = np.concatenate([payee[mixed], s_payee])
        m_amount = np.concatenate([amount[mixed], s_amount])
        lo, hi = np.minimum(m_payer, m_payee), np.maximum(m_payer, m_payee)
        signed = np.where(m_payer == lo, m_amount, -m_amount)
        key, inverse = np.unique(m_deal * 16 + lo * 4 + hi, return_inverse=True)
        net = np.zeros(len(key), np.int64)
        np.add.at(net, inverse, signed)
        k_deal, k_lo, k_hi = key // 16, key % 16 // 4, key % 4
        nz = net != 0
        deal = np.concatenate([deal[~mixed], k_deal[nz]])
        payer = np.concatenate([payer[~mixed], np.where(net > 0, k_lo, k_hi)[nz]])
        payee = np.concatenate([payee[~mixed], np.where(net > 0, k_hi, k_lo)[nz]])
        amount = np.concatenate([amount[~mixed], np.abs(net)[nz]])
    return deal, payer, payee, amount


def _seat_names(games: pl.DataFrame) -> pl.Series:
    """Player names in 4 slots per game (the fourth null with three players)."""
    padded = [list(p) + [None] * (4 - len(p)) for p in games["players"].to_list()]
    return pl.Series("player", [x for p in padded for x in p], dtype=pl.String)


class GreekSettlement(Settlement):
    """The ``Settlement`` of the registry for Greek Prefa."""

    variant = VARIANT
    deals_table = TABLE.name
    money = pl.col("cash") - KASSA_CHIPS * pl.col("kassa_delta").fill_null(0)
    """A kassa point paid down is worth ten chips (greek-prefa.md 1, 8: 1 kassa point = 10
    chips): a kassa that falls by 6 counts as 60 chips won."""
    ledger = ("kassa_delta", "kassa")
    checks = (Check("kassa_never_negative", "no kassa goes below 0 (greek-prefa.md 8, 10)",
                    f"""SELECT game_id, deal_no, player, kassa_after FROM {SETTLEMENTS}
                        WHERE variant = '{VARIANT}' AND kassa_after < 0
                        ORDER BY game_id, deal_no, player"""),)

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """Every game at once. Deals of unknown games are ignored; deals after a game has ended
        (11) are not settled (no rows)."""
        games, g = game_arrays(games)
        deals, d = deal_arrays(games, deals)
        return frames(games, deals, g, settle_arrays(g, d))


SETTLEMENT = GreekSettlement()
