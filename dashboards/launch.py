"""The Streamlit server with the dashboards' modules already imported (``dashboards.serve``).

``python -m dashboards.launch run APP ...`` is ``streamlit run APP ...`` in a process that has
imported the query, drawing and chart modules first, so the first page a server shows does not
pay for those imports (about a second of CPU on the 2-core development machine). The modules
imported here touch no Streamlit state (``dashboards.common``, which declares the caches, is
imported by the pages as before).
"""

from __future__ import annotations

import sys

import altair  # noqa: F401  (imported for its load time, like the modules below)
from streamlit.web import cli

import dashboards.queries
import dashboards.render
import dashboards.replay
import dashboards.review
import dashboards.sheets
import dashboards.text
import dashboards.uploads  # noqa: F401

if __name__ == "__main__":
    sys.exit(cli.main(prog_name="streamlit"))
