"""Choose the compiled (numba) or the interpreted kernel, once, at import.

The kernel (``sim.solver._kernel``) is written in the subset of Python that numba compiles. With
numba installed (the ``solver`` extra) it is compiled once and cached on disk (numba's cache, in
the ``__pycache__`` folder beside the source, or ``$NUMBA_CACHE_DIR``), so a second process loads
it instead of compiling again; without it,
or with ``TRICKBOOK_SOLVER=python`` in the environment, the same functions run as plain Python
(correct, but one to two thousand times slower on a full deal).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

COMPILED = False
"""True when the kernel is compiled by numba."""

_numba: Any = None
if os.environ.get("TRICKBOOK_SOLVER", "").lower() != "python":
    try:
        import numba as _numba_module
    except ImportError:  # the pure-Python path
        pass
    else:
        _numba = _numba_module
        COMPILED = True


def jit(fn: F) -> F:
    """Compile ``fn`` with numba when available (on first use, cached on disk); else return it
    unchanged."""
    if _numba is None:
        return fn
    compiled: F = _numba.njit(cache=True, nogil=True)(fn)
    return compiled


def jit_signed(signature: str) -> Callable[[F], F]:
    """``jit`` for one signature, compiled (or loaded from the disk cache) at import.

    For the recursive search: numba's cache cannot reload a recursive function compiled for
    several signatures (a literal ``0`` passed by one caller, ``int64`` by another: each a
    specialisation calling the other; numba issues 6061 and 6713, a crash on reload). With one
    signature every call, the recursive ones included, is to the same compiled function, which
    the cache reloads."""

    def wrap(fn: F) -> F:
        if _numba is None:
            return fn
        compiled: F = _numba.njit(signature, cache=True, nogil=True)(fn)
        return compiled

    return wrap
