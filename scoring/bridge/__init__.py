"""Bridge scoring: duplicate (Law 77), rubber (Laws 72-74), Chicago, matchpoints and IMPs."""

from scoring.bridge.settle import DUPLICATE, RUBBER

SETTLEMENT = RUBBER
"""The registry takes one object per variant: ``RUBBER`` (bridge-rubber) and ``DUPLICATE``."""

__all__ = ["DUPLICATE", "RUBBER", "SETTLEMENT"]
