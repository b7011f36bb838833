"""Upload: add files from the browser; they go through the same ingest path as the command line
(``dashboards.uploads``); the page shows per-file counts.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import streamlit as st

from dashboards.common import show, write_gate
from dashboards.db import db_path
from dashboards.text import md
from dashboards.uploads import (
    COUNTS,
    NOTHING_NEW,
    READ_WITH,
    REPLACE_BOX,
    ingest_uploads,
    listed,
    max_upload_mb,
    per_file,
    version_note,
)
from model.problems import counted

PRESSES = "upload_presses"  # Ingest presses that read files: the uploader's key counts them
st.title("Upload")
limit = max_upload_mb()
st.markdown(
    f"Add hand histories (canonical `.jsonl` or any format `trickbook ingest` reads). "
    f"**Each file may be at most {limit} MB**; the browser refuses a larger one (marked red "
    "in the list of chosen files below, not sent): ingest it with "
    "`trickbook ingest FILE --db ...` instead. Files that are not text are refused and change "
    "nothing. Bad records are quarantined and listed on the Data quality page."
)
write_gate("upload_token", "Adding files", "uploaded")
# each press reads the files chosen since the last one: after a read the uploader is a new
# one (a new key), empty, so files left in the list are not read again with the next press
pressed = int(st.session_state.get(PRESSES, 0))
files = st.file_uploader("Files", accept_multiple_files=True, key=f"upload_files_{pressed}")
if files:  # what the server holds: a file still on its way is not listed yet
    st.caption("Ready to ingest: " + ", ".join(md(f.name) for f in files))
elif st.session_state.get("upload_results"):
    st.caption("The files of the last press were read and left the list; what became of "
               "each is below. Choose files again to read more.")
replace = st.checkbox(
    REPLACE_BOX, value=False, key="upload_replace",
    help="A file uploaded again under the same name is a new version of it, and so is a file "
         "of that name ingested before from a folder (trickbook ingest, the samples) whose "
         "games it holds. Ticked, its game lines and deals replace the stored ones and the "
         "deals it no longer holds are removed (in the games it names); otherwise every change "
         "is a conflict, listed on the Data quality page, and only its new records are stored. "
         "Ticked, a file read before (from a folder, or uploaded) that a later version of its "
         "name replaced since is put back: upload it again to undo a correction.")
if st.button("Ingest", key="upload_go", type="primary", disabled=not files):
    payload = [(f.name, f.getvalue()) for f in files or []]
    with st.spinner("Ingesting ..."):
        reports = ingest_uploads(payload, db_path(), replace=replace)
    st.cache_data.clear()
    st.session_state["upload_results"] = [asdict(r) | {"replace": replace} for r in reports]
    st.session_state[PRESSES] = pressed + 1
    st.rerun()  # drawn again with the empty uploader and these results

results: list[dict[str, Any]] | None = st.session_state.get("upload_results")
if results:
    st.subheader("Per file")
    show(per_file(results), "upload_table", numbers=COUNTS,
         labels={"name": "file", "replaced": "replacing earlier",
                 "dropped": "earlier deals not in it"},
         column_config={"file": st.column_config.TextColumn(width=240),
                        "result": st.column_config.TextColumn(width=130)})
    for r in results:
        if r["saved_as"] is None:
            st.error(md(r["message"]))
        elif r["message"]:
            said = st.info if r["message"].endswith((NOTHING_NEW, READ_WITH)) else st.warning
            said(f"{md(r['name'])}: {md(r['message'])}")
        else:  # green only when every record is stored or known and nothing is in conflict
            said = st.warning if r["quarantined"] or r["file_issues"] or (
                r["dropped"] and not r["removed"]) else st.success
            said(f"{md(r['name'])}: {counted(r['records'], 'record')}, {r['stored']:,} stored, "
                 f"{counted(r['duplicates'], 'duplicate')}, {r['quarantined']:,} quarantined"
                 + (f", and {counted(r['file_issues'], 'issue')} of the file"
                    if r["file_issues"] else "") + version_note(r))
            if r["in_part"]:  # its new records stored, its changes not: what to do
                st.warning(f"{md(r['name'])}: {md(r['in_part'])}")
        besides = ", besides the conflicts below" if r["conflicts"] else ""
        if r["issues"]:
            where = (listed(len(r["issues"]),
                            r["quarantined"] - r["in_conflict"] + r["file_issues"])
                     or "all of them on the Data quality page")
            st.warning(f"{md(r['name'])}: quarantined{besides} ({where}):\n\n"
                       + "\n".join(f"- {md(i)}" for i in r["issues"]))
        if r["conflicts"]:
            where = listed(len(r["conflicts"]), r["in_conflict"])
            st.warning(f"{md(r['name'])}: conflicts with stored records (quarantined too; the "
                       f"stored records are kept{'; ' + where if where else ''}):\n\n"
                       + "\n".join(f"- {md(c)}" for c in r["conflicts"]))
elif not files:
    st.info("No file chosen yet: drop files above, then press Ingest.")
