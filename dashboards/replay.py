"""The hand replayer's model: a deal's canonical record (records.md 1.2) as hands, tricks and steps.

Pure Python, no Streamlit. The record's ``hands``, ``talon``, ``discard``, ``auction`` and ``play``
are read as they are stored (ingest has already checked them); a trick holds one card per player in
``hands`` (three in the Preference games, also with four at the table where the dealer sits out;
four in bridge). The trick winner is the highest trump, else the highest card of the suit led; the
trump comes from the contract: ``<n><S|C|D|H>`` (Greek, Russian, bridge), Balkan and Swabian game
numbers 2 Leaves/spades, 3 Bells/diamonds, 4 Hearts, 5 Acorns/clubs (balkan.md 3, swabian.md 3.1);
no-trump, Bettel, misère and Sans have none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import polars as pl

from dashboards.rows import per_row
from dashboards.text import repair_in_words
from model.cards import (
    SUIT_MASK,
    SUIT_SYMBOLS,
    Card,
    CardError,
    CardSet,
    bit,
    format_card_german,
    format_card_symbol,
    iter_cards,
    parse_card,
    rank_of,
    suit_of,
)
from model.problems import counted
from model.variant import all_passed, recorded_contract
from model.variant import why_no_play as generic_no_play
from model.variants import UnknownVariant, Variant
from model.variants import variant as lookup


def _variant(name: str) -> Variant | None:
    try:
        return lookup(name)
    except UnknownVariant:
        return None


def trump_of(variant: str, contract: str | None) -> int | None:
    """The trump suit of a contract, as its variant reads it (``Variant.trump``), or None
    (no-trump, Bettel, misère, an unknown grammar or variant)."""
    v = _variant(variant)
    return v.trump(contract) if v is not None and contract else None


def call_words(call: str, variant: str) -> str:
    """A call or contract code as the variant's players write it (``Variant.call_words``: ``6♠``,
    ``2 Laub``); as recorded for an unknown variant."""
    v = _variant(variant)
    return v.call_words(call) if v is not None else call


def calls_in_words(frame: pl.DataFrame, column: str = "contract") -> pl.DataFrame:
    """``frame`` with its ``column`` of call or contract codes in each row's variant's words
    (:func:`call_words`), as the replayer writes them; row order kept."""
    return frame.with_columns(per_row(
        frame, column, (column, "variant"),
        lambda call, variant: call_words(call, variant) if call else call))


def contract_words(record: Mapping[str, object], variant: str) -> str | None:
    """A deal record's contract as its players write it (``Variant.contract_words``: Swabian
    ``7 Durchmarsch from the hands``); None without one."""
    v = _variant(variant)
    return v.contract_words(record) if v is not None else recorded_contract(record)


def why_no_play(record: Mapping[str, object], variant: str) -> str:
    """Why a deal with its cards has no play (``Variant.no_play``: all passed, the defenders
    passed, a concession ...)."""
    v = _variant(variant)
    return (v.no_play if v is not None else generic_no_play)(record)


def no_declarer(record: Mapping[str, object], variant: str) -> str:
    """What a deal nobody declared is (``Variant.no_declarer``: redealt, passed out, a refa
    written, played for the fewest tricks ...)."""
    v = _variant(variant)
    return (v.no_declarer if v is not None else all_passed)(record)


def repair_notes(repairs: pl.DataFrame) -> dict[str, list[tuple[str, str]]]:
    """A deal's repairs (``code``, ``message`` rows of ``queries.deal_repairs``) by what they
    touched (``text.REPAIR_WORDS``: ``auction``, ``play``, ``deal``): each as its words and what
    the reader said it changed, as stored (the page escapes both)."""
    notes: dict[str, list[tuple[str, str]]] = {}
    for code, message in repairs.select("code", "message").iter_rows():
        touched, words = repair_in_words(str(code))
        notes.setdefault(touched, []).append((words, str(message or "")))
    return notes


def card_label(c: Card, variant: str) -> str:
    """``A♠`` for French-suited games, ``Laub Daus`` for Swabian (``model.cards``)."""
    v = _variant(variant)
    if v is not None and v.german_cards:
        try:
            return format_card_german(c)
        except (KeyError, IndexError):
            return format_card_symbol(c)
    return format_card_symbol(c)


def cards_in_words(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (a review's rows, each with its ``variant``) with its ``card`` and its
    ``best_cards`` (as ``best``) named as the replayer names cards (:func:`card_label`), the
    best ones separated by commas (a Swabian card is two words: ``Eichel Ober, Laub König``)."""
    def named(code: str, variant: str) -> str:
        return card_label(parse_card(code), variant)

    return frame.with_columns(
        per_row(frame, "card", ("card", "variant"), named),
        per_row(frame, "best", ("best_cards", "variant"),
                lambda best, variant: _listed(best, lambda c: named(c, variant))))


def _listed(codes: list[str] | None, words: Callable[[str], str]) -> str:
    """Each of ``codes`` in ``words``, separated by commas (a Swabian card is two words)."""
    return ", ".join(words(code) for code in codes or ())


PAR_CONTRACT = re.compile(r"(\d(?:NT|[SHDC]))([NESW]+[Xx]{0,2}[=+-]\d*)")
"""A bridge par contract (``scoring.bridge.dd.par_of``): level and strain, then its declarers,
doubled or not, and result (``6DN=``, ``5SNx-2``)."""


def decisions_in_words(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (a review's decisions, each with its ``variant`` and ``kind``) with the contracts
    of its ``choice`` and its ``best`` (one text, separated by commas) in the game's words
    (:func:`call_words`: ``6♥`` against ``6♠``; a bridge par contract's own part so,
    ``6♦N=``); a claim's tricks with their noun (``9 tricks``); a defence as recorded."""
    def said(kind: str, code: str, variant: str) -> str:
        if kind == "claim" and code.isdigit():
            return counted(int(code), "trick")
        if kind != "contract":
            return code
        par = PAR_CONTRACT.fullmatch(code)
        if par is None:
            return call_words(code, variant)
        return call_words(par[1], variant) + par[2]

    return frame.with_columns(
        per_row(frame, "choice", ("kind", "choice", "variant"), said),
        per_row(frame, "best", ("kind", "best", "variant"),
                lambda kind, best, variant: _listed(best, lambda c: said(kind, c, variant))))


def trick_winner(cards: list[tuple[str, Card]], trump: int | None) -> str:
    """Highest trump played, else highest card of the suit led."""
    best = cards[0]
    for player, c in cards[1:]:
        b = best[1]
        same_suit_higher = suit_of(c) == suit_of(b) and rank_of(c) > rank_of(b)
        if same_suit_higher or (trump is not None and suit_of(c) == trump != suit_of(b)):
            best = (player, c)
    return best[0]


@dataclass(frozen=True)
class Trick:
    cards: tuple[tuple[str, Card], ...]
    winner: str | None
    """None while the trick is incomplete (the record stops mid-trick)."""


@dataclass
class Replay:
    variant: str
    players: list[str]
    """Players holding cards, in turn order."""
    hands: dict[str, CardSet]
    """Hands as dealt (before the talon)."""
    talon: CardSet = 0
    discard: CardSet = 0
    declarer: str | None = None
    contract: str | None = None
    claim: int | None = None
    """Bridge: the declarer side's total tricks agreed at a claim (records.md 1.2, ``claim``)."""
    auction: list[tuple[str, str]] = field(default_factory=list)
    sitting_out: tuple[str, ...] = ()
    """Players dealt a hand who take no part in the play (``Variant.sits_out``: a defender who
    passes while the other plays alone); a trick is a card of each of the others."""
    tricks: list[Trick] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def steps(self) -> int:
        """Number of steps: 0 (the deal) ... len(tricks)."""
        return len(self.tricks)

    def hands_at(self, step: int) -> dict[str, CardSet]:
        """Cards still held after ``step`` tricks; the declarer holds talon minus discard."""
        held = dict(self.hands)
        if self.declarer in held and self.discard:
            held[self.declarer] = (held[self.declarer] | self.talon) & ~self.discard
        for trick in self.tricks[: max(0, step)]:
            for player, c in trick.cards:
                if player in held:
                    held[player] &= ~bit(c)
        return held

    @property
    def partnerships(self) -> bool:
        """Four hands that play in fixed partnerships (bridge: N-S against E-W)."""
        v = _variant(self.variant)
        return v is not None and v.partnerships and len(self.players) == 4

    @property
    def dummy(self) -> str | None:
        """Bridge: the declarer's partner, across the table (Law 41)."""
        if not self.partnerships or self.declarer not in self.players:
            return None
        return self.players[(self.players.index(self.declarer) + 2) % 4]

    def sides(self) -> list[tuple[str, list[str]]]:
        """The scoring sides: bridge N-S and E-W (turn order N, E, S, W); else each player."""
        if self.partnerships:
            return [("N-S", self.players[0::2]), ("E-W", self.players[1::2])]
        return [(p, [p]) for p in self.players]

    def taken_by_side(self, step: int) -> dict[str, int]:
        """Tricks won per side in the first ``step`` tricks (bridge counts them per side)."""
        taken = self.taken_at(step)
        return {name: sum(taken.get(p, 0) for p in members) for name, members in self.sides()}

    def auction_grid(self) -> list[list[str]]:
        """The auction as rows with one column per seat in turn order (``self.players``): each
        call in its caller's column (in the game's words, :func:`call_words`), a new row when
        the turn comes round again. Seats that no longer speak (a Preference player who passed)
        leave their cell empty."""
        width = len(self.players)
        rows: list[list[str]] = []
        row, last = [""] * width, -1
        for player, call in self.auction:
            col = self.players.index(player) if player in self.players else (last + 1) % width
            if col <= last:
                rows.append(row)
                row = [""] * width
            row[col], last = call_words(call, self.variant), col
        if last >= 0:
            rows.append(row)
        return rows

    def taken_at(self, step: int) -> dict[str, int]:
        """Tricks won by each player in the first ``step`` tricks."""
        taken = {p: 0 for p in self.players}
        for trick in self.tricks[: max(0, step)]:
            if trick.winner is not None:
                taken[trick.winner] = taken.get(trick.winner, 0) + 1
        return taken


def _cards(names: object, where: str, problems: list[str]) -> CardSet:
    mask = 0
    if not isinstance(names, list):
        return 0
    for name in names:
        try:
            mask |= bit(parse_card(str(name)))
        except CardError as exc:
            problems.append(f"{where}: {exc}")
    return mask


def build(record: Mapping[str, object], variant: str, game_players: list[str]) -> Replay:
    """The replay of one deal record; unreadable parts become ``problems``, never exceptions."""
    problems: list[str] = []
    raw_hands = record.get("hands")
    hands_in = raw_hands if isinstance(raw_hands, dict) else {}
    order = [p for p in game_players if p in hands_in]
    order += [str(p) for p in hands_in if p not in order]
    hands = {p: _cards(hands_in[p], f"hand of {p}", problems) for p in order}
    declarer = record.get("declarer")
    contract = record.get("contract")
    claim = record.get("claim")
    replay = Replay(
        variant=variant,
        players=order,
        hands=hands,
        talon=_cards(record.get("talon"), "talon", problems),
        discard=_cards(record.get("discard"), "discard", problems),
        declarer=declarer if isinstance(declarer, str) else None,
        contract=contract if isinstance(contract, str) else None,
        claim=claim if isinstance(claim, int) else None,
        problems=problems,
    )
    auction = record.get("auction")
    for call in auction if isinstance(auction, list) else []:
        if isinstance(call, dict):
            replay.auction.append((str(call.get("player", "?")), str(call.get("call", "?"))))
    trump = trump_of(variant, replay.contract)
    v = _variant(variant)
    out = v.sits_out(record) if v is not None else ()
    replay.sitting_out = tuple(p for p in order if p in out)
    size = max(1, len(order) - len(replay.sitting_out))
    current: list[tuple[str, Card]] = []
    play = record.get("play")
    for item in play if isinstance(play, list) else []:
        if not (isinstance(item, list | tuple) and len(item) == 2):
            problems.append(f"play entry not [player, card]: {item!r}"[:120])
            continue
        try:
            current.append((str(item[0]), parse_card(str(item[1]))))
        except CardError as exc:
            problems.append(f"play: {exc}")
            continue
        if len(current) == size:
            replay.tricks.append(Trick(tuple(current), trick_winner(current, trump)))
            current = []
    if current:
        replay.tricks.append(Trick(tuple(current), None))
    return replay


def suit_groups(cards: CardSet, variant: str) -> list[tuple[str, list[str]]]:
    """A hand as (suit symbol, card labels high to low) for every suit, in the order the variant
    lists a hand's suits (``Variant.hand_suits``: bridge ♠ ♥ ♦ ♣, the Preference games ♥ ♦ ♣ ♠);
    a suit the hand does not hold has no labels (a void is shown, as on a hand diagram)."""
    v = _variant(variant)
    order = v.hand_suits if v is not None else (3, 2, 1, 0)
    return [(SUIT_SYMBOLS[suit],
             [card_label(c, variant)
              for c in sorted(iter_cards(cards & SUIT_MASK[suit]), reverse=True)])
            for suit in order]
