"""HTML for cards: a hand grouped by suit, a trick as a row of cards (suit symbols; German names
for Swabian, ``model.cards.format_card_german``), the hands around the table and the auction as a
grid by seat. Every name from the data is escaped (:func:`dashboards.text.html`)."""

from __future__ import annotations

from dashboards.replay import card_label, suit_groups
from dashboards.text import html as escape
from model.cards import Card, CardSet, suit_of

CSS = """<style>
.tb-hand {font-family: ui-monospace, monospace; margin: 0.2rem 0 0.6rem 0;}
.tb-card {display: inline-block; border: 1px solid #999; border-radius: 4px; padding: 1px 5px;
          margin: 1px 2px; background: #fff; color: #111; min-width: 1.8em; text-align: center;}
.tb-red {color: #c0112b;}
.tb-name {font-weight: 600; margin-right: 0.4rem;}
.tb-win {outline: 2px solid #2a7; }
.tb-table {display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 0.4rem; align-items: center;}
.tb-seat {border: 1px solid #ddd; border-radius: 6px; padding: 0.3rem 0.5rem; min-height: 4rem;}
.tb-seat .tb-hand {margin: 0;}
.tb-centre {text-align: center; background: #1b6b3a; color: #fff; border-radius: 6px;
            padding: 0.5rem; min-height: 6rem;}
.tb-centre .tb-name {color: #fff;}
.tb-role {font-size: 0.8em; background: #444; color: #fff; border-radius: 3px; padding: 0 4px;
          margin: 0 0.4rem 0 4px;}
.tb-seat .tb-suit {display: block;}
.tb-void {color: #777;}
.tb-auction {border-collapse: collapse; font-family: ui-monospace, monospace;}
.tb-auction th, .tb-auction td {border: 1px solid #ccc; padding: 2px 10px; text-align: center;}
</style>"""
GRID_CELLS = {4: ("top", "right", "bottom", "left"), 3: ("left", "top", "right")}
"""Where each seat sits, in turn order: bridge N, E, S, W; three players left, across, right."""
_POSITION = {"top": (1, 2), "left": (2, 1), "right": (2, 3), "bottom": (3, 2)}
RED_SUITS = (2, 3)
VOID = '<span class="tb-void">—</span>'
"""A suit the hand does not hold, as a hand diagram writes it: the suit's mark and a dash."""


def card_html(c: Card, variant: str, winner: bool = False) -> str:
    cls = "tb-card" + (" tb-red" if suit_of(c) in RED_SUITS else "") + (" tb-win" if winner else "")
    return f'<span class="{cls}">{escape(card_label(c, variant))}</span>'


def hand_html(player: str, cards: CardSet, variant: str, note: str = "") -> str:
    """A player's hand, each suit on its line in the variant's order, a void as ``♥ —``."""
    parts = [f'<div class="tb-hand"><span class="tb-name">{escape(player)}</span>']
    if note:
        parts.append(f"<em>{escape(note)}</em> ")
    if not cards:
        parts.append("<em>no cards left</em>")
    for symbol, labels in suit_groups(cards, variant) if cards else []:
        red = " tb-red" if symbol in "♦♥" else ""
        cards_text = " ".join(f'<span class="tb-card{red}">{escape(x)}</span>'
                              for x in labels) or VOID
        parts.append(f'<span class="tb-suit"><span class="{red.strip()}">{symbol}</span> '
                     f'{cards_text} &nbsp;</span>')
    parts.append("</div>")
    return "".join(parts)


def cards_html(cards: list[Card], variant: str) -> str:
    if not cards:
        return "<em>none</em>"
    return " ".join(card_html(c, variant) for c in cards)


def trick_html(cards: tuple[tuple[str, Card], ...], winner: str | None, variant: str) -> str:
    return " ".join(
        f'<span class="tb-name">{escape(p)}</span>{card_html(c, variant, p == winner)}'
        for p, c in cards
    )


def seat_html(player: str, cards: CardSet, variant: str, role: str = "") -> str:
    """One hand at the table, with its role (declarer, dummy) marked."""
    badge = f'<span class="tb-role">{escape(role)}</span>' if role else ""
    return hand_html(player, cards, variant).replace("</span>", "</span>" + badge, 1)


def table_html(seats: list[str], centre: str) -> str:
    """The hands around the table (``seats`` in turn order, already HTML) and ``centre``
    (the trick on the table) in the middle; more than four seats fall back to a column."""
    places = GRID_CELLS.get(len(seats))
    if places is None:
        return "".join(seats) + centre
    cells = [f'<div class="tb-centre" style="grid-row: 2; grid-column: 2">{centre}</div>']
    for place, seat in zip(places, seats, strict=True):
        row, col = _POSITION[place]
        cells.append(f'<div class="tb-seat" style="grid-row: {row}; grid-column: {col}">'
                     f"{seat}</div>")
    return f'<div class="tb-table">{"".join(cells)}</div>'


def auction_html(players: list[str], rows: list[list[str]]) -> str:
    """The auction as a grid: one column per seat (headed by the player), one row per round."""
    if not rows:
        return "<em>not recorded</em>"
    head = "".join(f"<th>{escape(p)}</th>" for p in players)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f'<table class="tb-auction"><tr>{head}</tr>{body}</table>'
