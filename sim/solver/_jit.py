"""Choose the compiled (numba) or the interpreted kernel, once, at import.

The kernel (``sim.solver._kernel``) is written in the subset of Python that numba compiles. With
numba installed (the ``solver`` extra) it is compiled on first use and cached on disk; without it,
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


def jit(fn: F, *, cache: bool = True) -> F:
    """Compile ``fn`` with numba when available; else return it unchanged.

    ``cache=False`` for the recursive search: numba's on-disk cache does not reload recursive
    functions safely, so those are compiled afresh in each process (a few seconds, once).
    """
    if _numba is None:
        return fn
    compiled: F = _numba.njit(cache=cache, nogil=True)(fn)
    return compiled


def jit_nocache(fn: F) -> F:
    """``jit`` without the on-disk cache (recursive functions)."""
    return jit(fn, cache=False)
