"""What a parallel-ingest worker loads before the fork server forks it (docs/ingest.md, "Parallel
ingest"; ``sim.pool.pool_imap(..., start="forkserver", preload=WORKER_MODULES)``).

The fork server imports this once: the pipeline's modules and every reader's, and the set-up
its libraries would otherwise do at their first use in every worker (numba's typing and lowering
tables, before a cached kernel loads, and ``numpy.ma``, which numba's typing of an array imports;
Arrow's compute functions, before the first Arrow-to-polars conversion).
Nothing here runs polars: its thread pool starts at its first use, in each worker, so a forked
worker has a pool of its own.
"""

from __future__ import annotations

import numpy.ma  # noqa: F401  (see above)
import pyarrow.compute  # noqa: F401  (see above)
from numba.core.registry import cpu_target

import ingest.formats  # every reader
import ingest.parallel  # noqa: F401  (the worker's code, :func:`ingest.parallel.read_part`)

cpu_target.typing_context.refresh()
cpu_target.target_context.refresh()
