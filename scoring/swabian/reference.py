"""The Swabian settlement written like the rulebook: one deal at a time (swabian.md 7-8).

This is the plain reading the vectorised kernel (``kernel.py``) is held equal to. For each deal:

- req = tricks required (3.1), one more in games 2-5 aus den Händen;
- games 2-5: won when t >= req, the stake is g + |t - req| (one unit per overtrick or per missing
  trick); Bettel (6) is won with no trick, Durchmarsch (7) with all ten, stake g (7, 11 S5);
- each opponent i pays the declarer k_i times the stake when he wins, is paid as much when he loses
  (k_i = 1, 2 with Contra, 4 with Re-contra; 5);
- Kunstwerk: the declarer pays the dealer ``kunstwerk_units``, not multiplied by contra (4, 11 S7);
  nothing when he is the dealer.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from model.swabian.games import BETTEL, DURCHMARSCH, required
from scoring.settlement import Settled
from scoring.swabian import frames
from scoring.swabian.frames import read_rules

Payment = tuple[int, int, int]
"""(payer seat, payee seat, units)."""


def stake(game: int, hand: bool, tricks: int) -> tuple[bool, int]:
    """Whether the declarer won and the units each opponent pays or receives before contra (7)."""
    req = required(game, hand)
    if game == BETTEL:
        return tricks == 0, 6
    if game == DURCHMARSCH:
        return tricks == 10, 7
    return tricks >= req, game + abs(tricks - req)


def payments(
    dealer: int,
    declarer: int | None,
    game: int | None,
    hand: bool,
    tricks: int | None,
    contra: list[int],
    kunstwerk: bool,
    kunstwerk_units: int,
) -> list[Payment]:
    """Every payment of one deal (swabian.md 8); none when nobody declared (all pass)."""
    if declarer is None or game is None or tricks is None:
        return []
    won, units = stake(game, hand, tricks)
    out: list[Payment] = []
    for opp in range(3):
        if opp == declarer:
            continue
        amount = contra[opp] * units
        out.append((opp, declarer, amount) if won else (declarer, opp, amount))
    if kunstwerk and dealer != declarer and kunstwerk_units:
        out.append((declarer, dealer, kunstwerk_units))
    return out


def settle(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    """Settlements, pairwise transfers and standings of every game, one deal at a time."""
    info = {
        g["game_id"]: (list(g["players"]), read_rules(g["rules"]))
        for g in games.iter_rows(named=True)
    }
    settlements: list[dict[str, object]] = []
    transfers: list[dict[str, object]] = []
    totals: dict[tuple[str, int], float] = {}
    played: dict[str, int] = {}
    for d in deals.sort("game_id", "deal_no").iter_rows(named=True):
        if d["game_id"] not in info:
            continue  # a deal of an unknown game is not settled
        players, rules = info[d["game_id"]]
        decl = d["declarer"]
        pays = payments(
            d["dealer"], decl, d["game"], bool(d["hand"]),
            None if decl is None else d[f"tricks_{decl}"],
            [d[f"contra_{i}"] for i in range(3)], bool(d["kunstwerk"]), rules.kunstwerk_units,
        )
        key = {"game_id": d["game_id"], "deal_no": d["deal_no"]}
        cash, net = _netted(pays)
        transfers += [{**key, "payer": players[payer], "payee": players[payee],
                       "amount": float(amount)} for payer, payee, amount in net]
        for seat in range(3):
            settlements.append({**key, "player": players[seat], "seat": seat,
                                "variant": frames.VARIANT, "cash": float(cash[seat])})
            totals[d["game_id"], seat] = totals.get((d["game_id"], seat), 0.0) + cash[seat]
        played[d["game_id"]] = played.get(d["game_id"], 0) + 1
    return _settled(settlements, transfers, _standings(info, totals, played))


def _netted(pays: list[tuple[int, int, int]]
            ) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Each seat's cash of a deal's payments (7), and the payments netted per pair of seats as
    ``(payer, payee, amount)``, pairs in seat order, a pair that nets to zero left out."""
    cash = [0, 0, 0]
    net: dict[tuple[int, int], int] = {}
    for payer, payee, amount in pays:
        cash[payer] -= amount
        cash[payee] += amount
        pair = (min(payer, payee), max(payer, payee))
        net[pair] = net.get(pair, 0) + (amount if payer == pair[0] else -amount)
    netted = [((a, b) if amount > 0 else (b, a)) + (abs(amount),)
              for (a, b), amount in sorted(net.items()) if amount]
    return cash, netted


def _standings(info: dict[str, tuple[list[str], Any]], totals: dict[tuple[str, int], float],
               played: dict[str, int]) -> list[dict[str, object]]:
    """Each player's total of a game, its deals played and whether the game is finished."""
    return [
        {
            "game_id": gid,
            "player": info[gid][0][seat],
            "variant": frames.VARIANT,
            "cash": total,
            "deals_played": played[gid],
            "finished": frames.finished(info[gid][1], played[gid]),
        }
        for (gid, seat), total in sorted(totals.items())
    ]


def _settled(settlements: list[dict[str, object]], transfers: list[dict[str, object]],
             standings: list[dict[str, object]]) -> Settled:
    """The three frames in their shared schemas (the settlement columns of other games null)."""
    frame = pl.DataFrame(
        settlements,
        schema={
            k: frames.SETTLEMENTS[k]
            for k in ("game_id", "deal_no", "player", "seat", "variant", "cash")
        },
        orient="row",
    )
    frame = frame.with_columns(
        pl.lit(None, dtype=frames.SETTLEMENTS[c]).alias(c) for c in frames.UNUSED
    )
    return Settled(
        settlements=frame.select(list(frames.SETTLEMENTS)),
        transfers=pl.DataFrame(transfers, schema=frames.TRANSFERS, orient="row"),
        standings=pl.DataFrame(standings, schema=frames.STANDINGS, orient="row"),
    )
