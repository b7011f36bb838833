"""A column a page works out in Python, one row at a time (a link, a card or a call in words).

Pages never hand Python functions to polars (``map_elements``): polars calls them from its own
worker threads, each taking Python's interpreter lock in turn, while the thread that asked waits
for those workers. The server runs every session's page in a thread of one process, and the
pages' tables are a few hundred rows at most: a plain loop here costs nothing and keeps polars'
threads out of Python altogether (a test of ``tests/dashboards/test_pages.py`` holds every page
to it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import polars as pl


def per_row(frame: pl.DataFrame, name: str, columns: Sequence[str],
            fn: Callable[..., str | None]) -> pl.Series:
    """The text column ``name``: ``fn`` of each row's ``columns``, in the frame's order; missing
    where all of them are (a score sheet's total row has no deal to link)."""
    return pl.Series(name, [None if all(v is None for v in row) else fn(*row)
                            for row in frame.select(columns).iter_rows()], dtype=pl.String)
