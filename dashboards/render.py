"""HTML for cards: a hand grouped by suit, a trick as a row of cards (suit symbols; German names
for Swabian, ``model.cards.format_card_german``). Every name from the data is HTML-escaped."""

from __future__ import annotations

from html import escape

from dashboards.replay import card_label, suit_groups
from model.cards import Card, CardSet, suit_of

CSS = """<style>
.tb-hand {font-family: ui-monospace, monospace; margin: 0.2rem 0 0.6rem 0;}
.tb-card {display: inline-block; border: 1px solid #999; border-radius: 4px; padding: 1px 5px;
          margin: 1px 2px; background: #fff; color: #111; min-width: 1.8em; text-align: center;}
.tb-red {color: #c0112b;}
.tb-name {font-weight: 600; margin-right: 0.4rem;}
.tb-win {outline: 2px solid #2a7; }
</style>"""
RED_SUITS = (2, 3)


def card_html(c: Card, variant: str, winner: bool = False) -> str:
    cls = "tb-card" + (" tb-red" if suit_of(c) in RED_SUITS else "") + (" tb-win" if winner else "")
    return f'<span class="{cls}">{escape(card_label(c, variant))}</span>'


def hand_html(player: str, cards: CardSet, variant: str, note: str = "") -> str:
    parts = [f'<div class="tb-hand"><span class="tb-name">{escape(player)}</span>']
    if note:
        parts.append(f"<em>{escape(note)}</em> ")
    groups = suit_groups(cards, variant)
    if not groups:
        parts.append("<em>no cards left</em>")
    for symbol, labels in groups:
        red = " tb-red" if symbol in "♦♥" else ""
        cards_text = " ".join(f'<span class="tb-card{red}">{escape(x)}</span>' for x in labels)
        parts.append(f'<span class="{red.strip()}">{symbol}</span> {cards_text} &nbsp;')
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
