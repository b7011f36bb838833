"""The filters every page shares (variant, league, date range, player), kept in the URL.

A view is bookmarked and shared through its query string (``?variant=greek-prefa&league=...&
from=2026-01-01&to=2026-12-31&player=Anna``). Values read from the URL are data from outside: they
are only ever bound as SQL parameters, dates that do not parse are dropped, and over-long values are
refused; each dropped value produces a message the page shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date

from dashboards.text import md, quoted
from model.base import composed

MAX_VALUE_LENGTH = 200
"""Longest filter value accepted from the URL (game ids and names are at most 200 characters)."""

KEYS = ("variant", "league", "from", "to", "player")


@dataclass(frozen=True)
class Filters:
    variant: str | None = None
    league: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    player: str | None = None

    def to_params(self) -> dict[str, str]:
        """The query-string form (only the filters that are set)."""
        out: dict[str, str] = {}
        for key, value in (
            ("variant", self.variant),
            ("league", self.league),
            ("from", self.date_from.isoformat() if self.date_from else None),
            ("to", self.date_to.isoformat() if self.date_to else None),
            ("player", self.player),
        ):
            if value:
                out[key] = value
        return out

    def without_player(self) -> Filters:
        return replace(self, player=None)


REVERSED = "the date range was reversed (from after to): swapped it"
"""Said where a range's From comes after its To, in the URL or typed in the sidebar."""


def _text(raw: object, key: str, problems: list[str]) -> str | None:
    if raw is None:
        return None
    text = raw if isinstance(raw, str) else str(raw)
    if not text.strip():
        return None
    if len(text) > MAX_VALUE_LENGTH or "\x00" in text:
        problems.append(f"Ignored the {quoted(key)} filter from the URL: value too long or "
                        "not text")
        return None
    return composed(text)  # as names are known (model/base.py)


def _date(raw: object, key: str, problems: list[str]) -> date | None:
    text = _text(raw, key, problems)
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.append(f"Ignored the {quoted(key)} filter from the URL: {md(quoted(text, 40))} "
                        "is not a date")
        return None


def from_params(params: Mapping[str, object]) -> tuple[Filters, list[str]]:
    """Read filters from a query string; returns them and the messages for dropped values."""
    problems: list[str] = []
    filters = Filters(
        variant=_text(params.get("variant"), "variant", problems),
        league=_text(params.get("league"), "league", problems),
        date_from=_date(params.get("from"), "from", problems),
        date_to=_date(params.get("to"), "to", problems),
        player=_text(params.get("player"), "player", problems),
    )
    if filters.date_from and filters.date_to and filters.date_from > filters.date_to:
        problems.append(REVERSED)
        filters = replace(filters, date_from=filters.date_to, date_to=filters.date_from)
    return filters, problems
