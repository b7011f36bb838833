"""Who may write (the Upload and Entry pages): a club write token, Streamlit's login, or both.

Viewing is always open. Writing is open too until a club configures a gate:

* ``TRICKBOOK_WRITE_TOKEN``: the page asks for the token in a password box
  (:func:`dashboards.uploads.write_allowed`, compared in constant time);
* Streamlit's login (an ``[auth]`` section in ``.streamlit/secrets.toml``, ``st.login`` with an
  OpenID Connect provider): the page asks the user to log in, and when a list of writers is
  configured (``TRICKBOOK_WRITERS``, e-mails separated by commas, or ``writers`` under
  ``[trickbook]`` in ``secrets.toml``) only those e-mails may write.

With both configured, either opens the page: a logged-in writer, or the token. Whether the login
is configured is what ``st.user`` shows: it has ``is_logged_in`` exactly when ``[auth]`` exists
(or the host logged the user in); this module reads it as a plain mapping, so its verdicts are
tested without Streamlit.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, Literal

WRITERS_ENV = "TRICKBOOK_WRITERS"
"""E-mails (separated by commas) of the users who may write once logged in."""
SECRETS_SECTION = "trickbook"
"""The section of ``secrets.toml`` that may hold ``writers = ["...", ...]``."""

Login = Literal["off", "out", "writer", "not a writer"]


def writers(secrets: Mapping[str, Any] | None = None) -> frozenset[str] | None:
    """The e-mails allowed to write (lower case): ``TRICKBOOK_WRITERS`` when set, else
    ``[trickbook] writers`` of the secrets; ``None`` when neither names any (every logged-in
    user may write)."""
    given: Iterable[str] = ()
    if os.environ.get(WRITERS_ENV, "").strip():
        given = os.environ[WRITERS_ENV].split(",")
    elif secrets:
        listed = (secrets.get(SECRETS_SECTION) or {}).get("writers") or ()
        given = [listed] if isinstance(listed, str) else listed
    found = frozenset(str(e).strip().lower() for e in given if str(e).strip())
    return found or None


def login(user: Mapping[str, Any], allowed: frozenset[str] | None) -> Login:
    """Where the user stands with Streamlit's login: ``off`` when it is not configured (no
    ``is_logged_in`` in ``st.user``), ``out`` when not logged in, ``writer`` when logged in and
    allowed (no list, or the user's e-mail on it), else ``not a writer``."""
    if "is_logged_in" not in user:
        return "off"
    if not user.get("is_logged_in"):
        return "out"
    email = str(user.get("email") or "").strip().lower()
    return "writer" if allowed is None or email in allowed else "not a writer"
