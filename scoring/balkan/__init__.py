"""Balkan preferans settlement (balkan.md section 7): ``reference.py`` keeps the sheet deal by
deal, ``kernel.py`` settles every game at once (the registered ``SETTLEMENT``) with
``booking.py``, ``frames.py`` turns frames into arrays and back."""

from scoring.balkan.frames import arrays, league
from scoring.balkan.kernel import SETTLEMENT
from scoring.balkan.reference import settle_reference

__all__ = ["SETTLEMENT", "arrays", "league", "settle_reference"]
