"""URL filters (dashboards/filters.py): round trip and hostile query strings."""

from __future__ import annotations

from datetime import date

from markdown_it import MarkdownIt

from dashboards.filters import MAX_VALUE_LENGTH, Filters, from_params


def test_round_trip() -> None:
    f = Filters("greek-prefa", "club-7 winter league", date(2026, 1, 1), date(2026, 12, 31),
                "Anna")
    back, problems = from_params(f.to_params())
    assert back == f and problems == []


def test_bad_values_are_dropped_with_a_message() -> None:
    f, problems = from_params({"from": "'; DROP TABLE deals; --", "to": "2026-13-45",
                               "player": "x" * (MAX_VALUE_LENGTH + 1), "league": "a\x00b",
                               "variant": "'; DROP TABLE deals; --"})
    assert (f.date_from, f.date_to, f.player, f.league) == (None, None, None, None)
    assert f.variant == "'; DROP TABLE deals; --"  # kept as text: only ever bound as a value
    assert len(problems) == 4
    assert sum("not a date" in p for p in problems) == 2


def test_a_date_that_does_not_parse_is_said_as_text() -> None:
    """The filters' messages are shown as Markdown (``common.filters``): a ``from`` of
    ``[x](http://example.com)`` was shown as a link. It is quoted and escaped."""
    _, (said,) = from_params({"from": "[x](http://example.com) **y**"})
    rendered = MarkdownIt("commonmark").renderInline(said).replace("\u2060", "")  # no link
    assert "<a" not in rendered and "<strong>" not in rendered, rendered
    assert "“[x](http://example.com) **y**”" in rendered, rendered


def test_reversed_range_is_swapped() -> None:
    f, problems = from_params({"from": "2026-12-31", "to": "2026-01-01"})
    assert (f.date_from, f.date_to) == (date(2026, 1, 1), date(2026, 12, 31))
    assert problems
