"""The variant interface: every fact about one game, in one frozen object.

A variant lives in its own packages (``model/<variant>/`` for its rules, ``scoring/<variant>/`` for
its settlement, ``sim/<variant>.py`` for its simulator, ``sim/random_play/<variant>.py`` for its
random legal deals) and is registered with one line in each
registry (``model/variants.py``, ``scoring/registry.py``, ``sim/drivers.py``). Code outside those
packages asks the variant, never its name: ``if variant == ...`` is a fact missing here.

This module is a leaf: it imports no variant, so the variants import it and the registries import
the variants, with no circle (``docs/architecture.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl
from pydantic import BaseModel

from model.base import DealBase, GameBase
from model.cards import Suit, bid_with_symbol
from model.problems import Problem
from model.schema import Table

SheetStyle = Literal["kassa", "bula", "we-they", "traveller", "pulya", "cash"]


def recorded_contract(record: Mapping[str, Any]) -> str | None:
    """A deal record's ``contract`` as it stands (records.md 1.2), None without one."""
    contract = record.get("contract")
    return str(contract) if contract not in (None, "") else None


def why_no_play(record: Mapping[str, Any]) -> str:
    """Why a deal recorded with its cards has no play, from the fields every variant records
    (records.md 1.2): nobody declared, or every defender passed; else it was not recorded."""
    if not record.get("declarer"):
        return "nobody declared (all passed), so the deal was not played"
    defence = record.get("defence")
    if isinstance(defence, Mapping) and defence and set(defence.values()) == {"pass"}:
        return "both defenders passed, so the deal was not played"
    return "the record has no play"


def lone_defence_passer(defence: object) -> set[str]:
    """The defender who passes while the other plays ``alone`` (``defence``, a deal's decision
    by defender): the play is two-handed, the declarer's and the lone defender's, and he sits
    it out (greek-prefa.md 6.1 step 6, balkan.md 5.1). Nobody for anything else."""
    decisions = defence if isinstance(defence, Mapping) else {}
    if "alone" not in decisions.values():
        return set()
    return {p for p, d in decisions.items() if d == "pass"}


def lone_defence_sits_out(record: Mapping[str, Any]) -> set[str]:
    """:func:`lone_defence_passer` of a deal record's ``defence``: ``Variant.sits_out`` of the
    games where a defender may play alone."""
    return lone_defence_passer(record.get("defence"))


def all_passed(record: Mapping[str, Any]) -> str:
    """What a deal record nobody declared is, from the fields every variant records
    (records.md 1.2: no ``declarer`` when all passed)."""
    return "all passed"


NO_CONTRACT = "no contract"
"""A declared deal's contract where it has none (a preliminary bid conceded before naming a
contract, greek-prefa.md 5), as the Contracts page and the balance studies name it."""


def game_by_id(game: Mapping[str, Any]) -> str:
    """A game as a message names it (a conflict, a dropped deal): by its id, ``game 'club/1'``
    (records.md 1.1: the id a score sheet or a file gives it)."""
    return f"game {game.get('game_id')!r}"


def deal_by_number(game: Mapping[str, Any], deal: Mapping[str, Any]) -> str:
    """A deal as a message names it: ``deal 3 of game 'club/1'``, its number in its game
    (records.md 1.2) and :func:`game_by_id`."""
    return f"deal {deal.get('deal_no')} of {game_by_id(game)}"


class UnknownVariant(ValueError):
    """A ``variant`` value no registered variant answers to (the message lists the known ones)."""


@dataclass(frozen=True)
class Variant:
    """One game's rules behind one interface (records.md 1.1, and the variant's own spec).

    ``check`` and ``row`` take the variant's own game and deal records; :meth:`check_deal` and
    :meth:`deal_row` make sure they get them."""

    name: str
    """The canonical ``variant`` value of records.md 1.1, e.g. ``"greek-prefa"``."""
    aliases: tuple[str, ...]
    deck: int
    """The deck as a card mask (``DECK_32`` or ``DECK_52``)."""
    game_model: type[GameBase]
    deal_model: type[DealBase]
    rules_model: type[BaseModel]
    """The house rules: one frozen pydantic model, defaults from the spec."""
    table: Table
    """The flat ``deals_<variant>`` table its settlement kernel reads (one row per deal)."""
    outcome_sql: str
    """A ``SELECT`` over :attr:`table` giving, per deal of the variant's games: ``game_id``,
    ``deal_no``, ``variant``, ``defence_mode`` (the variant's word, ``none`` when nobody
    declared), ``declarer_tricks``, ``made`` (null where nobody declared) and ``called`` (the
    contract as called where the deal's ``contract`` does not say it all, else null): what "made"
    and the defence mode mean, written once (the ``deal_outcomes`` view, ``model/views.py``, read
    by the dashboards, the balance studies and the checks)."""
    check: Callable[[Any, Any], list[Problem]]
    """Rule- and card-level problems of a schema-valid deal (empty when valid): names are players
    of the game, contract and defence legal, trick counts in range; with cards, the deck
    partition, a legal auction, the contract allowed by it, every card legal, the replay."""
    row: Callable[[Any, Any], dict[str, object]]
    """The :attr:`table` row of a valid deal."""
    trump: Callable[[str], int | None]
    """The trump suit (0-3, ``model/cards.py``) of a recorded contract; None without trump."""
    zero_sum_per_deal: bool
    """``settlements.cash`` sums to 0 in every deal (records.md section 2)."""
    settles_by_payments: bool
    """Each deal's ``transfers`` net to ``settlements.cash`` (records.md section 2); false for
    the games that settle at the end of the game (Balkan soups)."""
    cash_unit: str
    """What ``settlements.cash`` counts, in the players' words (``chips``, ``points`` ...)."""
    contract_code: pl.Expr
    """Over :attr:`table`'s columns: the call that names a deal's contract, as
    :attr:`contract_call` gives it of the deal's record (``6S``, ``G3``, ``hand5``, ``misere``;
    null without one), which :attr:`call_words` writes as the Contracts page and the replayer
    do (``6♠``, ``igra 3 Karo``, ``5 Eichel from the hands``): the balance studies name their
    contracts so (``sim/balance.py``)."""
    contract_level: pl.Expr
    """Over :attr:`table`'s columns: a number that orders the contracts by their value."""
    german_cards: bool = False
    """Cards are shown with German names (Swabian)."""
    cash_note: str = ""
    """What a deal's ``settlements.cash`` leaves out, in the players' words, said beside a
    player's deals (the Player page); empty where the cash is the whole story of a deal."""
    mode_words: Mapping[str, str] = field(default_factory=dict)
    """The defence modes of :attr:`outcome_sql` in the players' words where the code is not
    (Balkan's ``nokontra``: ``no kontra``); the others are shown as they are."""
    mode_endings: tuple[str, ...] = ()
    """Endings of a recorded contract that say its defence mode of :attr:`outcome_sql` rather
    than the contract (bridge ``X``, ``XX``: doubled, redoubled): the Contracts page rates the
    contract without them, its doubling one of its defence modes."""
    standings_note: str = ""
    """What cash added up over games does not say, in the players' words, said beside the
    standings and a player's cash (League and Player pages); empty where the players rank
    themselves by it."""
    partnerships: bool = False
    """Four hands play in fixed partnerships, N-S against E-W (bridge)."""
    dealer_sits_out_at: int | None = None
    """The number at the table from which the dealer sits each deal out: he deals, but holds
    no hand and bids, defends and plays nothing (Greek, Balkan and Russian with four). None
    where everyone at the table takes part in every deal. Everyone else at the table but the
    declarer (and, in partnerships, his partner) defends it."""
    sheet: SheetStyle = "cash"
    """How its players draw the score sheet (``dashboards/sheets.py``): ``kassa`` kassas and
    chips, ``bula`` soups and bula, ``we-they`` We/They above and below the line, ``traveller``
    a traveller line per board, ``pulya`` pool, hill and whists, ``cash`` the settlement unit per
    player."""
    check_game: Callable[[Any, Sequence[Any]], list[tuple[int, Problem]]] | None = None
    """Problems only a game's deals in play order show, as (deal_no, problem); ingest, per file."""
    checks_game: Callable[[Any], bool] = lambda _game: True
    """Whether :attr:`check_game` can find a problem in this game at all (its rules may leave
    it nothing to check); where it is false, ingest does not read the game's deals for it."""
    check_game_reads: type[BaseModel] | None = None
    """The model :attr:`check_game` reads a stored deal's record with, holding only the fields
    it reads (the record was checked whole when it was stored); None: :attr:`deal_model`."""
    entry_fields: tuple[str, ...] = ()
    """The deal fields a scorer types at the table, in order (the Entry page; cards last)."""
    by_defenders: tuple[str, ...] = ()
    """Of :attr:`entry_fields`, those given by player that only the defenders fill (each
    defender's choice to play or pass): the Entry page does not ask the declarer."""
    presets: Mapping[str, str] = field(default_factory=dict)
    """Named bundles of house rules a game's ``rules.preset`` may name (:meth:`rules`), each with
    the words a form and a rules table show for it."""
    denominations: tuple[str, ...] = ()
    """Contracts ``<level><denomination>``: the denominations in bidding order, lowest first."""
    export_format: str | None = None
    """The file format ``trickbook export`` writes its games in (``ppn``, ``pbn``), if any."""
    all_pass_play: bool = False
    """A deal nobody declares is played, every player for his fewest tricks (Russian raspasy)."""
    talon_lead_flag: str | None = None
    """Rules flag: all-pass play's first tricks are led by first hand in the talon cards' suits."""
    declarer_made: Callable[[Mapping[str, Any], int], bool] | None = None
    """Does a deal record's declarer make his contract with these tricks (the review of decisions
    asks it; None where decisions are reviewed against par instead, as in bridge)."""
    reads_deal_no: Callable[[Any], bool] = lambda _game: True
    """Whether, in this game, the deal model, :attr:`check` or :attr:`row` read a deal's number
    for more than copying it into the row's ``deal_no`` (a rule for the first deal, a session of
    a fixed number of deals). Where it is false, a deal's verdict and row are the same under any
    number (and any game id), so ingest judges a score-sheet line once for all the lines that
    differ from it only there (``ingest/sheets.py``); ``tests/ingest/test_sheets.py`` holds the
    claim on every variant's legal deals. True, the default, is always safe."""
    check_batch: Callable[[Sequence[tuple[Any, Any]]], Sequence[bool]] | None = None
    """Many deals at once: for each (game, deal), whether :attr:`check` finds no problem. A
    variant sets it when it has a faster way (a compiled card replay) than :attr:`check` one deal
    at a time; it must agree with :attr:`check` on every deal (its tests hold it)."""
    row_key: Callable[[Any, Any], Hashable] | None = None
    """Everything of a (game, deal) :attr:`row` reads but the deal's ``game_id`` and
    ``deal_no``: deals with one key have one row but for those two (:meth:`deal_rows`)."""
    call_words: Callable[[str], str] = bid_with_symbol
    """A call of the auction or a contract code as the players write it (the Hand replayer):
    the default writes ``<level><suit>`` with the suit's symbol (``6S`` -> ``6♠``); a variant
    whose calls are numbers or words says them with its games' names."""
    contract_call: Callable[[Mapping[str, Any]], str | None] = recorded_contract
    """The call that names a deal record's contract (:meth:`contract_words`): its ``contract``,
    or, where the record qualifies the code with a field of its own, the call that says both."""
    no_play: Callable[[Mapping[str, Any]], str] = why_no_play
    """Why a deal record with its cards has no play, in the players' words (a clause)."""
    sits_out: Callable[[Mapping[str, Any]], Collection[str]] = lambda _record: ()
    """The players dealt a hand who take no part in a deal record's play (the Hand replayer
    makes a trick of a card of each of the others): by default nobody (bridge's dummy is played
    by the declarer); a defender who passes while the other plays alone (Greek, Balkan)."""
    unplayed_sql: str | None = None
    """A condition over a ``deals`` row ``d`` (its columns and its ``record``, records.md 1.2)
    that the deal was dealt but nobody played it (bridge: a solved deal of a DDS hand file, its
    hands only); None where every stored deal was played. Such a deal is stored and shown, but
    not settled (``scoring/store.py``): nobody played it, so it counts in no one's deals
    played, games or cash; :attr:`no_declarer` and :attr:`no_play` say what it is."""
    no_declarer: Callable[[Mapping[str, Any]], str] = all_passed
    """What a deal record nobody declared is, in the players' words (a clause, the Hand
    replayer's result): redealt, passed out, a refa written, or played for the fewest tricks
    (:attr:`all_pass_play`)."""
    hand_suits: tuple[int, ...] = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
    """The order a hand's suits are listed in (``model/cards.py`` suits): by default the
    Preference ladder's from the top (greek-prefa.md 4.1, russian.md 2: ♥ ♦ ♣ ♠)."""
    game_named: Callable[[Mapping[str, Any]], str] = game_by_id
    """A game record as a message names it (a ``game-conflict``, ``ingest/validate.py``): by
    default its id; where the id is no name its players know (a bridge game's hash,
    ``traveller/33fe4f752faaccd5``), in the record's words, the id after them."""
    deal_named: Callable[[Mapping[str, Any], Mapping[str, Any]], str] = deal_by_number
    """A deal record of a game record as a message names it (a ``deal-conflict``, a deal
    dropped from a source, ``ingest/versions.py``): by default its number and its game's id;
    where those are no names its players know, in the records' words (a bridge board by its
    event, board and pairs), the number and id after them."""
    transcribed: tuple[str, ...] = ()
    """Deal fields a source may copy from its sheet that the rules work out anyway (a written
    value, a refa flag): kept as written, but no part of what the deal is (:meth:`same_deal`)."""

    @property
    def deals_table(self) -> str:
        return self.table.name

    @property
    def frame_schema(self) -> dict[str, pl.DataType]:
        return self.table.schema

    def rules(self, values: Mapping[str, Any] | None = None) -> BaseModel:
        """The house rules from a game line's ``rules`` object (defaults when empty); a
        ``preset`` names a bundle of flags where the rules model has presets (Balkan)."""
        values = dict(values or {})
        preset = getattr(self.rules_model, "preset", None)
        if "preset" in values and callable(preset):
            name = values.pop("preset")
            made: BaseModel = preset(str(name), **values)
            return made
        return self.rules_model.model_validate(values)

    def contract_words(self, record: Mapping[str, Any]) -> str | None:
        """A deal record's contract as the players write it (:attr:`call_words` of
        :attr:`contract_call`); None without a contract."""
        call = self.contract_call(record)
        return self.call_words(call) if call is not None else None

    def same_deal(self, one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
        """Two deal records say the same deal: equal once the :attr:`transcribed` fields are
        set aside (a deal read from a sheet that writes them, and the same deal from one that
        leaves them to the rules, are one deal, not a conflict)."""
        def content(record: Mapping[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in record.items() if k not in self.transcribed}

        return content(one) == content(other)

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        return self.check(*self._own(game, deal))

    def valid_deals(self, pairs: Sequence[tuple[GameBase, DealBase]]) -> list[bool]:
        """For each (game, deal) of this variant: :meth:`check_deal` finds no problem. The
        columnar ingest path asks this for a whole batch (:attr:`check_batch` when set)."""
        own = [self._own(game, deal) for game, deal in pairs]
        if self.check_batch is not None:
            return [bool(ok) for ok in self.check_batch(own)]
        return [not self.check(game, deal) for game, deal in own]

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        return self.row(*self._own(game, deal))

    def deal_rows(self, pairs: Sequence[tuple[GameBase, DealBase]],
                  ) -> list[dict[str, object] | None]:
        """:meth:`deal_row` of each (game, deal), None where it fails (the reference says why);
        worked out once per distinct :attr:`row_key` of the batch, the others' ``game_id`` and
        ``deal_no`` copied in."""
        if self.row_key is None:
            return [_row_or_none(self.deal_row, game, deal) for game, deal in pairs]
        own = [self._own(game, deal) for game, deal in pairs]
        rows: list[dict[str, object] | None] = []
        said: dict[Hashable, dict[str, object] | None] = {}
        for game, deal in own:
            key = self.row_key(game, deal)
            if key not in said:
                said[key] = row = _row_or_none(self.row, game, deal)
            elif (row := said[key]) is not None:
                row = {**row, "game_id": deal.game_id, "deal_no": deal.deal_no}
            rows.append(row)
        return rows

    def _own(self, game: GameBase, deal: DealBase) -> tuple[GameBase, DealBase]:
        if not isinstance(game, self.game_model) or not isinstance(deal, self.deal_model):
            raise TypeError(
                f"{self.name} needs a {self.game_model.__name__} and a "
                f"{self.deal_model.__name__}, got {type(game).__name__} and {type(deal).__name__}"
            )
        return game, deal


def _row_or_none(row: Callable[[Any, Any], dict[str, object]], game: GameBase,
                 deal: DealBase) -> dict[str, object] | None:
    try:
        return row(game, deal)
    except Exception:  # a row that fails is the reference's issue, deal by deal
        return None
