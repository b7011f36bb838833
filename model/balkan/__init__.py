"""Balkan (Serbian / Croatian / Slovenian) preferans: ``../shared/spec/balkan.md``."""
