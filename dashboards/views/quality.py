"""Data quality: the ingest log, the quarantine (records.md 2), the repairs readers made to
records they stored and what new versions of files replaced or dropped, filterable by file and
code.

Every record of every ingested file ends as stored, duplicate or quarantined; the quarantine keeps
the reason (a ``model.problems.Code``), the message and the offending text. Files are shown by
their folder and name (:func:`dashboards.text.short_source`), never the server's path, and the
file's sha256 by its first 12 characters; an upload by the name it was uploaded under
(``dashboards.uploads.names_of``), a record typed on the Entry page by its game and deal.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards.common import (
    ALL,
    empty,
    guarded,
    kept_filters,
    query,
    show,
    unknown,
    url_choice,
    url_param,
)
from dashboards.rows import per_row
from dashboards.text import (
    HASH_CHARS,
    md,
    repairs_in_words,
    repairs_said,
    short_paths,
    short_source,
    versions_said,
)
from dashboards.uploads import REPLACE_BOX, advice_for, names_of
from model.problems import counted


def _short(frame: pl.DataFrame, names: dict[str, str]) -> pl.DataFrame:
    """``frame`` with its files and messages as a user knows them, an upload by the name it was
    given (``names``, ``dashboards.uploads.names_of``)."""
    out = frame.with_columns(per_row(frame, "source", ("source",),
                                     lambda s: short_source(s, names)))
    if "message" in out.columns:
        out = out.with_columns(per_row(
            frame, "message", ("source", "message"),
            lambda source, message: short_paths(advice_for(source, message), names)))
    if "sha256" in out.columns:
        out = out.with_columns(pl.col("sha256").str.slice(0, HASH_CHARS))
    return out


def listing(title: str, rows: pl.DataFrame, none: str, said: str, key: str,
            labels: dict[str, str], names: dict[str, str]) -> None:
    """A titled table of rows per file (``none`` when there are none), ``said`` in a caption."""
    st.subheader(title)
    if rows.is_empty():
        empty(none)
        return
    st.caption(said)
    show(_short(rows, names), key, missing={"record_key": "—"}, labels=labels)


def ingested_as(wanted: str | None, sources: list[str]) -> str | None:
    """The file a link names by the path it was ingested from, by its full path where it was
    ingested by a relative one (``/srv/club/data/week.jsonl`` for ``data/week.jsonl``), or by
    the end of the path it was ingested from (``club/data/week.jsonl`` for
    ``/srv/club/data/week.jsonl``): one source alone, else none."""
    if wanted is None or wanted in sources:
        return wanted
    tail = "/" + wanted.removeprefix("./")
    ends = [s for s in sources
            if (not s.startswith("/") and wanted.endswith("/" + s.removeprefix("./")))
            or (not wanted.startswith("/") and s.endswith(tail))]
    return ends[0] if len(ends) == 1 else None


st.title("Data quality")
with guarded():
    log = query("ingest_log")
    summary = query("quarantine_summary")
    sources = sorted(set(log["source"].to_list()) | set(summary["source"].to_list()))
    names = names_of(sources)
    notes = st.container()
    c1, c2 = st.columns(2)
    def shown_file(s: str) -> str:
        return s if s == ALL else short_source(s, names)

    wanted_file, wanted_code = url_param("file"), url_param("code")
    if (named := ingested_as(wanted_file, sources)) is not None:  # by its path: as shown
        wanted_file = shown_file(named)
    st.query_params.from_dict(kept_filters().to_params())  # the shared filters stay in the URL
    with notes:  # a file or code of the link that is not here, said above the boxes
        unknown("file", wanted_file, {shown_file(s) for s in [ALL, *sources]}, "in this database")
    with c1:  # kept in the URL as the page shows the file, never the server's path
        source = url_choice("File", [ALL, *sources], "quality_source", wanted_file,
                            "file", shown_file, in_url=shown_file)
    of_file = summary if source == ALL else summary.filter(pl.col("source") == source)
    with notes:
        unknown("code", wanted_code, {ALL, *of_file["code"].to_list()}, "in this database"
                if source == ALL or wanted_code not in set(summary["code"].to_list())
                else f"among the quarantined records of {md(shown_file(source))}")
    with c2:
        code = url_choice("Code", [ALL, *sorted(set(of_file["code"].to_list()))],
                          "quality_code", wanted_code, "code",
                          help="The codes of the file chosen")
    source_arg = None if source == ALL else source
    code_arg = None if code == ALL else code

    st.subheader("Ingest log")
    shown = query("ingest_log", source_arg)
    if shown.is_empty():
        empty("Nothing has been ingested yet: run `trickbook ingest FILES` or use the Upload page.")
    else:
        totals = query("ingest_totals", source_arg).row(0, named=True)
        for col, (name, n) in zip(st.columns(4), totals.items(), strict=True):
            col.metric(name.capitalize(), f"{n:,}")
        st.caption("Records, stored and duplicates of every ingest below; quarantined now: the "
                   "records the quarantine holds (a new version of a file replaces the "
                   "quarantine of its earlier one).")
        show(_short(shown, names).select("source", "records", "stored", "duplicates",
                                         "quarantined", "ingested_at", "sha256"),
             "quality_log", labels={"sha256": "sha256 (start)"})

    fixes = query("repairs", source_arg)
    listing("Repairs", repairs_in_words(fixes),
            "No record needed a repair: every stored record was stored as read.",
            repairs_said(query("repair_counts", source_arg), fixes.height), "quality_repairs",
            labels={"code": "repair", "message": "what was changed"}, names=names)
    changed = query("superseded", source_arg)
    listing("Versions",
            changed.with_columns(pl.col("previous", "version").str.slice(0, HASH_CHARS)),
            "No new version of a file has replaced or dropped stored records (`trickbook "
            f"ingest --replace`, or \"{REPLACE_BOX}\" on the Upload page).",
            versions_said(query("superseded_count", source_arg), changed.height),
            "quality_versions",
            labels={"previous": "earlier version", "version": "by version"}, names=names)

    st.subheader("Quarantine")
    if summary.is_empty():
        empty("The quarantine is empty: every record ingested so far was stored or a duplicate.")
    else:
        chosen = summary.filter(
            pl.col("source").is_in([source_arg] if source_arg else sources)
            & (pl.col("code") == code_arg if code_arg else pl.lit(True)))
        if not chosen.is_empty():  # by file and code, as the filters above choose
            show(_short(chosen, names), "quality_summary")
        rows = query("quarantine", source_arg, code_arg)
        held = query("quarantined_records", source_arg, code_arg).row(0, named=True)
        where = "every file" if source_arg is None else md(short_source(source_arg, names))
        st.caption(f"{counted(held['records'], 'quarantined record')} for {where} and "
                   f"{'every code' if code_arg is None else 'code ' + code_arg}"
                   + (f", and {counted(held['dropped'], 'row')} of deals an earlier version "
                      "stored that the latest left out, kept as conflicts (line —)"
                      if held["dropped"] else "")
                   + (f", and {counted(held['of_file'], 'issue')} of the file itself, not of "
                      "a record (record: (the file))" if held["of_file"] else "")
                   + " (first 1,000 rows).")
        if rows.is_empty():
            empty("No quarantined records for this file and code.")
        else:
            show(_short(rows, names), "quality_quarantine",
                 missing={"record_key": "—", "line": "—"},
                 column_config={"text as read": st.column_config.TextColumn(width="large")})
