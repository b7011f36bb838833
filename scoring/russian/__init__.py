"""Russian preferans settlement (russian.md 5-8): the pulya per deal and across the game.

``SETTLEMENT.settle`` is the kernel's (``settle.py`` over ``kernel.py``), ``settle_reference`` the
per-deal rulebook reading (``reference.py``).
"""

from scoring.russian.settle import SETTLEMENT, RussianSettlement

__all__ = ["SETTLEMENT", "RussianSettlement"]
