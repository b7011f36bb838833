"""Review of play: the open-hand cost of every recorded card and decision (docs/review.md).

``rows`` holds what a review produces, ``preference`` and ``bridge`` review one deal (the
open-hand solver, DDS through endplay), ``store`` picks and writes deals, ``run`` drives
``trickbook analyse --play`` on local cores or a Dask cluster.
"""
