"""A bridge game and deal as a message names them (``Variant.game_named``, ``deal_named``).

A game read from a PBN, LIN or traveller file has a hash for its id (``traveller/33fe4f752faa…``,
``ingest/bridge_records.py`` ``GameGroups``): unique, but no player knows it. A player knows the
event, the board and the pairs at the table, as a traveller writes them (bridge.md 6: a board is
played once at a table in a session), and a teams match and its room. The id comes after them,
so a message still names one game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.variant import deal_by_number, game_by_id


def _sides(game: Mapping[str, Any]) -> str | None:
    """The players of a game by side, ``Ann and Sue against Bob and Tom`` (records.md 1.1:
    N, E, S, W)."""
    players = game.get("players")
    if not isinstance(players, list | tuple) or len(players) != 4:
        return None
    north, east, south, west = players
    return f"{north} and {south} against {east} and {west}"


def _table(game: Mapping[str, Any], deal: Mapping[str, Any]) -> str | None:
    """Who sat at the board's table: its pairs where the source numbers them (a traveller's
    ``NS pair 3 against EW pair 5``), else the players by side."""
    ns, ew = deal.get("ns_pair"), deal.get("ew_pair")
    if ns is not None and ew is not None:
        return f"NS pair {ns} against EW pair {ew}"
    return _sides(game)


def _match(deal: Mapping[str, Any]) -> str | None:
    """A teams board's match and room (``match 2, room Closed``), where the source says them."""
    said = [f"{what} {deal[what]}" for what in ("match", "room") if deal.get(what) is not None]
    return ", ".join(said) or None


def game_named(game: Mapping[str, Any]) -> str:
    """``the game of Club pairs 2026-11-24, Ann and Sue against Bob and Tom (game
    'traveller/…')``: where the record names its event; else by its id alone."""
    event = game.get("event")
    if not event:
        return game_by_id(game)
    at = ", ".join(x for x in (str(event), _sides(game)) if x)
    return f"the game of {at} ({game_by_id(game)})"


def deal_named(game: Mapping[str, Any], deal: Mapping[str, Any]) -> str:
    """``board 7 of Club pairs 2026-11-24, NS pair 3 against EW pair 5 (deal 7 of game
    'traveller/…')``: where the records name the event or the board; else by number and id."""
    event, board = game.get("event"), deal.get("board")
    if not event and board is None:
        return deal_by_number(game, deal)
    head = f"board {board}" if board is not None else f"deal {deal.get('deal_no')}"
    at = ", ".join(str(x) for x in (event, _table(game, deal), _match(deal)) if x)
    return f"{f'{head} of {at}' if at else head} ({deal_by_number(game, deal)})"
