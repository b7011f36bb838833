"""The pulya drawn as players draw it (russian.md 5), as SVG, from the stored settlement rows.

A circle cut into one sector per player, in turn order clockwise, the first player at the bottom.
Each sector has three bands, as on paper: the pool (pulya) innermost, the hill (gora) round it, and
outermost the whists, split once more into one field per opponent (the field nearest that opponent's
sector). Every band holds the player's running record as players write it, each value after a
change, joined by dots (``2.4.10``; only the last :data:`SHOWN` of a long record, after an ellipsis,
and fewer where they would not fit the band at a readable size), so the last number is the value
now: the final pool and hill of the table form (``dashboards/sheets.py``) and the whists written
against that opponent; the pool target is in the centre. Each band also carries a ``<title>``
(``Anna pool 20``) read as a tooltip and by tests. Drawn in dark ink on a paper-coloured ground, so
it reads the same in a light and a dark theme; the page shows it as an image (:func:`as_img`:
Streamlit's HTML sanitiser drops inline SVG).

Input: the game's ``settlements`` rows (``pool_delta``, ``pool_after``, ``hill_delta``,
``hill_after``; ``queries.game_sheet``) and its pairwise whists (``writer``, ``against``,
``amount``; ``queries.game_pairwise``). Every name is escaped (:func:`dashboards.text.html`).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from functools import cache

import polars as pl

from dashboards.text import html as escape

SIZE = 520
MARGIN = 110
"""Room left and right of the circle for the names."""
CENTRE = SIZE / 2
RADII = (34.0, 110.0, 170.0, 236.0)
"""Radii of the centre circle and of the outer edges of the pool, hill and whists bands."""
SHOWN = 6
"""Values of a running record written out; older ones become an ellipsis."""
INK, PAPER = "#1f2a44", "#fdfbf3"


SMALLEST = 8
"""The smallest font size a band's text is drawn at (:func:`_fit`)."""


def record(values: Sequence[float], room: int | None = None) -> str:
    """A running record as players write it: the values after each change, dot-joined; at most
    the last :data:`SHOWN` after an ellipsis, and fewer where they would not fit in ``room``
    characters (the value now is always written)."""
    text = [_number(v) for v in values]
    for shown in range(min(SHOWN, len(text)), 0, -1):
        kept = ".".join(text[-shown:])
        if shown < len(text):
            kept = "…" + kept
        if room is None or shown == 1 or len(kept) <= room:
            return kept
    return "0"


READABLE = 10
"""The font size a band's values are chosen for: as many of the last ones as fit at it
(:func:`_room`); only the value now alone may be written smaller, down to :data:`SMALLEST`."""


def _room(width: float) -> int:
    """Characters that fit ``width`` pixels at :data:`READABLE` size (about 0.6 em a
    character)."""
    return int(width / (0.6 * READABLE))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def running(rows: pl.DataFrame, player: str, delta: str, after: str) -> list[float]:
    """The player's values of ``after`` at every deal where ``delta`` changed it."""
    mine = rows.filter((pl.col("player") == player) & (pl.col(delta).fill_null(0) != 0))
    return [float(v) for v in mine.sort("deal_no")[after].to_list()]


def whist_record(pairwise: pl.DataFrame, writer: str, against: str) -> list[float]:
    """Cumulative whists ``writer`` wrote on ``against``, one value per deal that added some."""
    mine = pairwise.filter((pl.col("writer") == writer) & (pl.col("against") == against))
    if mine.is_empty():
        return []
    per_deal = mine.group_by("deal_no").agg(pl.col("amount").sum()).sort("deal_no")
    return [float(v) for v in per_deal["amount"].cum_sum().to_list()]


def _point(angle: float, radius: float) -> tuple[float, float]:
    return CENTRE + radius * math.cos(angle), CENTRE + radius * math.sin(angle)


def _ray(angle: float, inner: float, outer: float) -> str:
    (x1, y1), (x2, y2) = _point(angle, inner), _point(angle, outer)
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'


def _label(angle: float, radius: float, text: str, title: str, size: int, cls: str) -> str:
    x, y = _point(angle, radius)
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" '
            f'text-anchor="middle" dominant-baseline="middle"><title>{escape(title)}</title>'
            f"{escape(text)}</text>")


def _inside(x: float, y: float, field: tuple[float, float, float, float]) -> bool:
    """Whether the point is inside ``field`` (its angle's middle and half-width, its inner and
    outer radius), a pixel clear of its lines."""
    mid, half, inner, outer = field
    r = math.hypot(x - CENTRE, y - CENTRE)
    turn = (math.atan2(y - CENTRE, x - CENTRE) - mid + math.pi) % (2 * math.pi) - math.pi
    return inner + 1 <= r <= outer - 1 and abs(turn) * r <= half * r - 1


@cache
def _width(field: tuple[float, float, float, float], height: float = 10) -> float:
    """How wide a line of text ``height`` pixels high may be, centred at the middle of
    ``field`` (a band of a sector, :func:`_inside`), inside it: the text is written level, so
    in a sector at the side the depth of the band limits it, at the top or bottom its arc.
    Kept per field: every pulya of as many players has the same fields."""
    mid, _, inner, outer = field
    x, y = _point(mid, (inner + outer) / 2)
    reach = 0
    while reach < SIZE and all(_inside(x + side * (reach + 1), y + dy, field)
                               for side in (-1, 1) for dy in (-height / 2, 0, height / 2)):
        reach += 1
    return 2 * reach


def _fit(text: str, width: float, largest: int = 13) -> int:
    """A font size at which ``text`` fits ``width`` pixels (about 0.6 em a character)."""
    return max(SMALLEST, min(largest, int(width / (0.6 * max(len(text), 1)))))


def pulya_svg(rows: pl.DataFrame, pairwise: pl.DataFrame, players: Sequence[str],
              target: int | None = None) -> str:
    """The pulya of one game as an SVG document (3 or 4 players)."""
    n = len(players)
    wedge = 2 * math.pi / n
    r0, r_pool, r_hill, r_whists = RADII
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-MARGIN} 0 {SIZE + 2 * MARGIN} '
        f'{SIZE}" role="img" aria-label="pulya" style="max-width:{SIZE + 2 * MARGIN}px;'
        'width:100%">',
        f'<rect x="{-MARGIN}" y="0" width="{SIZE + 2 * MARGIN}" height="{SIZE}" fill="{PAPER}"/>',
        f'<g fill="none" stroke="{INK}" stroke-width="1.2">',
        *(f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{r}"/>' for r in RADII),
    ]
    for k in range(n):
        start = math.pi / 2 + (k - 0.5) * wedge
        parts.append(_ray(start, r0, r_whists))
        for j in range(1, n - 1):
            parts.append(_ray(start + j * wedge / (n - 1), r_hill, r_whists))
    parts.append("</g>")
    parts.append(f'<g fill="{INK}" font-family="sans-serif">')
    if target is not None:
        parts.append(_label(math.pi / 2, 0, str(target), f"pool target {target}", 16, "target"))
    for k, p in enumerate(players):
        mid = math.pi / 2 + k * wedge
        for cls, (delta, after), inner, outer in (
                ("pool", ("pool_delta", "pool_after"), r0, r_pool),
                ("hill", ("hill_delta", "hill_after"), r_pool, r_hill)):
            values = running(rows, p, delta, after)
            radius = (inner + outer) / 2
            width = _width((mid, wedge / 2, inner, outer))
            text = record(values, _room(width))
            size = _fit(text, width)
            now = _number(values[-1]) if values else "0"
            parts.append(_label(mid, radius, text, f"{p} {cls} {now}", size, cls))
        sub = wedge / (n - 1)
        for j in range(n - 1):
            o = players[(k + n - 1 - j) % n]  # nearest first: the field beside his sector
            angle = mid - wedge / 2 + (j + 0.5) * sub
            values = whist_record(pairwise, p, o)
            radius = (r_hill + r_whists) / 2
            width = _width((angle, sub / 2, r_hill, r_whists))
            text = record(values, _room(width))
            size = _fit(text, width, 12)
            now = _number(values[-1]) if values else "0"
            parts.append(_label(angle, radius, text, f"{p} whists on {o} {now}", size, "whists"))
        x, y = _point(mid, r_whists + 12)
        anchor = "middle" if abs(x - CENTRE) < 40 else "start" if x > CENTRE else "end"
        parts.append(f'<text class="player" x="{x:.1f}" y="{y:.1f}" font-size="14" '
                     f'font-weight="bold" text-anchor="{anchor}" dominant-baseline="middle">'
                     f"{escape(p)}</text>")
    parts += ["</g>", "</svg>"]
    return "".join(parts)


def as_img(svg: str, alt: str = "the pulya") -> str:
    """``svg`` as an HTML ``<img>`` (a base64 data URI) for ``st.html``."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<img alt="{escape(alt)}" src="data:image/svg+xml;base64,{data}" '
            f'style="width:100%;max-width:{SIZE + 2 * MARGIN}px">')

