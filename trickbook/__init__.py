"""The ``trickbook`` commands (``trickbook/cli.py``).

Importing the package gives the compiled kernels (numba's ``cache=True``: the replay of the
cards, the Russian settlement's scan, the bots, the solver) a cache folder they can write before
numba is imported (:func:`writable_kernel_cache`): numba keeps a kernel's cache beside its
source, else in the user's cache folder, and where it can write to neither it cannot even define
the kernel, so every command stopped with "no locator available" (an install read-only to the
user who runs it, with no writable home: a service account). The dashboards' server and the
workers of a parallel ingest inherit the setting.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import MutableMapping
from pathlib import Path

KERNEL_CACHE_ENV = "NUMBA_CACHE_DIR"
SOURCE = Path(__file__).resolve().parent.parent
"""The project's source: a kernel's cache goes in ``__pycache__`` beside it when it can."""


def _writable(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (made if missing), as numba tries its folders."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _user_cache(env: MutableMapping[str, str]) -> Path:
    """numba's user-wide cache folder (``$XDG_CACHE_HOME/numba``, else ``~/.cache/numba``)."""
    return Path(env.get("XDG_CACHE_HOME") or Path(env.get("HOME") or "~").expanduser()
                / ".cache") / "numba"


def writable_kernel_cache(env: MutableMapping[str, str] = os.environ,
                          source: Path = SOURCE) -> None:
    """Point ``$NUMBA_CACHE_DIR`` at a folder of the temporary folder
    (``trickbook-kernels-<user id>``) when it is unset and numba could write neither beside the
    source (``model/__pycache__``) nor in the user's cache folder; otherwise leave numba its
    own choice (so an install's compiled kernels, ``make install``, are found)."""
    if env.get(KERNEL_CACHE_ENV) or _writable(source / "model" / "__pycache__") \
            or _writable(_user_cache(env)):
        return
    try:
        fallback = Path(tempfile.gettempdir()) / f"trickbook-kernels-{os.getuid()}"
    except OSError:  # no temporary folder either: a command that needs a kernel says so
        return
    if _writable(fallback):
        env[KERNEL_CACHE_ENV] = str(fallback)


writable_kernel_cache()
