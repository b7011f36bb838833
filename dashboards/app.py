"""The trickbook dashboards: a Streamlit multipage app (``st.navigation``).

Run with ``trickbook dashboard --db FILE`` (or ``python -m dashboards.serve``); the database
path comes from ``$TRICKBOOK_DB`` (``dashboards.db``). Pages live in ``dashboards/views/``, not
``pages/``: Streamlit would also serve a ``pages/`` folder by itself, and a direct link to a page
would then bypass ``st.navigation``. A page's queries share one read-only connection for the run
(``dashboards.db.one_per_run``), closed when the page ends.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboards.db import one_per_run

HERE = Path(__file__).parent
PAGES = [
    ("league.py", "League", ":material/leaderboard:", "league"),
    ("player.py", "Player", ":material/person:", "player"),
    ("contracts.py", "Contracts", ":material/grid_on:", "contracts"),
    ("results.py", "Club results", ":material/emoji_events:", "results"),
    ("replayer.py", "Hand replayer", ":material/playing_cards:", "replayer"),
    ("balance.py", "Balance", ":material/balance:", "balance"),
    ("quality.py", "Data quality", ":material/fact_check:", "quality"),
    ("upload.py", "Upload", ":material/upload_file:", "upload"),
    ("entry.py", "Entry", ":material/edit_note:", "entry"),
]

st.set_page_config(page_title="trickbook", page_icon=":material/playing_cards:", layout="wide")
navigation = st.navigation(
    [st.Page(HERE / "views" / file, title=title, icon=icon, url_path=path,
             default=(path == "league"))
     for file, title, icon, path in PAGES]
)
with one_per_run():
    navigation.run()
