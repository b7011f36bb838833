"""Form widgets drawn from a model's fields (:class:`dashboards.entry.FormField`): the Entry page
asks a game's house rules and a deal's fields with these, whatever the variant.

A field by player (defence, tricks, hands ...) is one widget per player, side by side. Every label
that holds a name from the data is escaped (widget labels are Markdown).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboards.entry import FormField, calls_of, cards_of, in_letters, pairs_text, plays_of
from dashboards.text import md, md_inline

NOBODY = "(nobody)"
PAIRS = {"calls": "player call, in order: Boris pass, Chris 6S, Anna pass",
         "plays": "player card, in order: Boris AD, Chris 7D, Anna 8S, Anna AH, ..."}
"""How an auction and a play are typed (``dashboards.entry.pairs_of``)."""


def _one(field: FormField, label: str, key: str, players: list[str], value: Any,
         container: Any) -> Any:
    """One widget of ``field``, with its help; returns the value typed (``None`` for a
    blank)."""
    help = SUITS_HELP if field.name == "contract" else field.help
    if field.kind == "player":
        options: list[Any] = ([None] if field.optional else []) + list(players)
        at = options.index(value) if value in options else 0
        return container.selectbox(label, options, index=at, key=key, help=help,
                                   format_func=lambda p: NOBODY if p is None else p)
    if field.kind == "choice" or (field.kind == "flag" and field.optional):
        choices = list(field.options) if field.kind == "choice" else [True, False]
        options = ([None] if field.optional else []) + choices
        at = options.index(value) if value in options else 0
        return container.selectbox(label, options, index=at, key=key, help=help,
                                   format_func=field.shown)
    if field.kind == "flag":
        return container.checkbox(label, value=bool(value), key=key, help=help)
    if field.kind == "number":
        return _number(field, label, key, value, container, help)
    if field.kind in ("calls", "plays"):
        typed = container.text_area(label, value=pairs_text(value), key=key, help=help,
                                    height=80 if field.kind == "calls" else 130,
                                    placeholder=PAIRS[field.kind])
        return (calls_of if field.kind == "calls" else plays_of)(typed)
    text = " ".join(value) if isinstance(value, list | tuple) else (value or "")
    typed = container.text_input(label, value=str(text), key=key, help=help)
    if field.kind == "cards":
        return cards_of(typed)
    return (in_letters(typed) if field.name == "contract" else typed).strip() or None


SUITS_HELP = ("A suit may be typed as its letter, in either case, or its symbol: S or ♠, "
              "H or ♥, D or ♦, C or ♣.")


def _number(field: FormField, label: str, key: str, value: Any, container: Any,
            help: str | None = None) -> Any:
    """A whole number, typed as it is: no bounds or rounding in the widget, so a number out of
    the field's range (11 tricks of 10) or with a fraction (2.5) reaches ingest's validation,
    which names the field and the problem (the widget refused the first without a word and
    cut the second to 2). A whole number is returned as an ``int``."""
    start = (float(value) if isinstance(value, int)
             else None if field.optional else float(field.low or 0))
    got = container.number_input(label, value=start, step=1.0, format="%g", key=key,
                                 help=help)
    return None if got is None else int(got) if float(got).is_integer() else got


def ask(field: FormField, key: str, players: list[str], value: Any = None,
        container: Any = st, asked: list[str] | None = None) -> Any:
    """The value of ``field`` as typed (in ``container``): for a field by player, a dict of the
    players' values (blank ones left out), one column per player of ``asked`` (default: all;
    each keeps its widget key, the player's place in ``players``)."""
    if not field.per_player:
        return _one(field, md(field.label), key, players, value, container)
    given = value if isinstance(value, dict) else {}
    seats = [(i, p) for i, p in enumerate(players) if asked is None or p in asked]
    columns = st.columns(len(seats)) if seats else []
    return {p: _one(field, f"{md(field.label)}: {md_inline(p)}", f"{key}_{i}", players,
                    given.get(p), col)
            for (i, p), col in zip(seats, columns, strict=True)}
