"""Swabian (Danube-Swabian) Preferanz: rules, records, flat frame (spec ``swabian.md``)."""
