"""Upload: add files from the browser; they go through the same ingest path as the command line
(``dashboards.uploads``); the page shows per-file counts.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import polars as pl
import streamlit as st

from dashboards.common import show, write_gate
from dashboards.db import db_path
from dashboards.text import md
from dashboards.uploads import ingest_uploads, max_upload_mb

st.title("Upload")
limit = max_upload_mb()
st.markdown(
    f"Add hand histories (canonical `.jsonl` or any format `trickbook ingest` reads). "
    f"**Each file may be at most {limit} MB**; larger files are refused: ingest them with "
    "`trickbook ingest FILE --db ...` instead. Files that are not text are refused and change "
    "nothing. Bad records are quarantined and listed on the Data quality page."
)
write_gate("upload_token", "Adding files", "uploaded")
files = st.file_uploader("Files", accept_multiple_files=True, key="upload_files")
if st.button("Ingest", key="upload_go", type="primary", disabled=not files):
    payload = [(f.name, f.getvalue()) for f in files or []]
    with st.spinner("Ingesting ..."):
        reports = ingest_uploads(payload, db_path())
    st.cache_data.clear()
    st.session_state["upload_results"] = [asdict(r) for r in reports]

results: list[dict[str, Any]] | None = st.session_state.get("upload_results")
if results:
    st.subheader("Per file")
    table = pl.DataFrame(results).drop("saved_as", "message")
    show(table, "upload_table", labels={"name": "file"})
    for r in results:
        if r["saved_as"] is None:
            st.error(md(r["message"]))
        elif r["message"]:
            st.warning(f"{md(r['name'])}: {md(r['message'])}")
        else:
            st.success(f"{md(r['name'])}: {r['records']} records, {r['stored']} stored, "
                       f"{r['duplicates']} duplicates, {r['quarantined']} quarantined")
elif not files:
    st.info("No file chosen yet: drop files above, then press Ingest.")
