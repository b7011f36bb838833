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

st.set_page_config(page_title="trickbook", page_icon=str(HERE / "icon.svg"), layout="wide")
# the icon is this server's file: a material icon's favicon is fetched from Google's servers
first_file, first_title, first_icon, first_path = PAGES[0]
navigation = st.navigation([
    # The first page is the default: Streamlit serves it at the app's root URL and only there
    # (its own url_path is reserved but not served) ...
    *(st.Page(HERE / "views" / file, title=title, icon=icon, url_path=path + "-home" * (i == 0),
              default=i == 0)
      for i, (file, title, icon, path) in enumerate(PAGES)),
    # ... so it has its own name too (/league), as every other page has, out of the menu.
    st.Page(HERE / "views" / first_file, title=first_title, icon=first_icon,
            url_path=first_path, visibility="hidden"),
])
with one_per_run():
    navigation.run()
