"""Data quality: the ingest log and the quarantine (records.md 2), filterable by file and code.

Every record of every ingested file ends as stored, duplicate or quarantined; the quarantine keeps
the reason (a ``model.problems.Code``), the message and the offending text.
"""

from __future__ import annotations

import streamlit as st

from dashboards.common import ALL, empty, guarded, query

st.title("Data quality")
with guarded():
    log = query("ingest_log")
    summary = query("quarantine_summary")
    sources = sorted(set(log["source"].to_list()) | set(summary["source"].to_list()))
    codes = sorted(set(summary["code"].to_list()))
    c1, c2 = st.columns(2)
    source = c1.selectbox("File", [ALL, *sources], key="quality_source")
    code = c2.selectbox("Code", [ALL, *codes], key="quality_code")
    source_arg = None if source == ALL else source
    code_arg = None if code == ALL else code

    st.subheader("Ingest log")
    shown = query("ingest_log", source_arg)
    if shown.is_empty():
        empty("Nothing has been ingested yet: run `trickbook ingest FILES` or use the Upload page.")
    else:
        cols = st.columns(4)
        for col, name in zip(cols, ("records", "stored", "duplicates", "quarantined"),
                             strict=True):
            col.metric(name.capitalize(), f"{int(shown[name].sum()):,}")
        st.dataframe(shown, hide_index=True, key="quality_log")

    st.subheader("Quarantine")
    if summary.is_empty():
        empty("The quarantine is empty: every record ingested so far was stored or a duplicate.")
    else:
        st.dataframe(summary, hide_index=True, key="quality_summary")
        rows = query("quarantine", source_arg, code_arg)
        st.caption(f"{rows.height:,} quarantined records for file {source} and code {code} "
                   "(first 1,000).")
        if rows.is_empty():
            empty("No quarantined records for this file and code.")
        else:
            st.dataframe(rows, hide_index=True, key="quality_quarantine",
                         column_config={"raw": st.column_config.TextColumn(width="large")})
