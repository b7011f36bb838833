"""The house rules of a PPN game: our extension tags ``Preset`` and ``Rules`` (docs/ppn.md).

PPN carries no rules: a file from the Serbian online club is played under its own rules, the
``serbian-club`` preset (``model/balkan/params.py``) with the ``Bula`` and ``Refe`` tags. PPN
allows any further tag pairs, so a game played under other rules (balkan.md 9) writes them in two
extension tags: ``[Preset <name>]`` names the preset its rules are closest to (left out for
``serbian-club``) and ``[Rules <compact JSON>]`` lists the flags that differ from that preset
(left out when none do). ``start_bula`` and ``max_refe`` always travel in ``Bula`` and ``Refe``.
A file without the tags reads as ``serbian-club``, as before.
"""

from __future__ import annotations

import json
from typing import Any

from ingest.jsonl import RepeatedKey, load_json
from model.balkan.params import PRESETS, BalkanRules

CLUB_PRESET = "serbian-club"
PRESET_TAG = "Preset"
RULES_TAG = "Rules"
IN_OWN_TAGS = ("start_bula", "max_refe")
"""Flags carried by the standard ``Bula`` and ``Refe`` tags, never by ``Rules``."""


class PpnRulesError(ValueError):
    """A ``Preset`` or ``Rules`` tag that cannot be read; the message quotes it."""

    def __init__(self, tag: str, message: str) -> None:
        super().__init__(message)
        self.tag = tag


def _flags(rules: BalkanRules) -> dict[str, Any]:
    return {k: v for k, v in rules.model_dump().items() if k not in IN_OWN_TAGS}


def _preset_order() -> list[str]:
    """The club's preset first (a tie keeps the file free of a ``Preset`` tag), then the rest."""
    return [CLUB_PRESET, *(name for name in PRESETS if name != CLUB_PRESET)]


def rules_tags(rules: BalkanRules) -> list[tuple[str, str]]:
    """The extension tags that describe ``rules``: the nearest preset (fewest differing flags)
    and the differing flags as compact JSON; ``[]`` for the club's own rules."""
    mine = _flags(rules)
    best: tuple[str, dict[str, Any]] | None = None
    for name in _preset_order():
        base = _flags(BalkanRules.preset(name))
        diff = {k: v for k, v in mine.items() if base.get(k) != v}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None  # PRESETS is never empty
    name, diff = best
    tags: list[tuple[str, str]] = []
    if name != CLUB_PRESET:
        tags.append((PRESET_TAG, name))
    if diff:
        tags.append((RULES_TAG, json.dumps(diff, separators=(",", ":"), sort_keys=True)))
    return tags


def rules_record(tag: dict[str, str]) -> dict[str, Any]:
    """The ``rules`` of the game record from the tags (without ``Bula`` / ``Refe``, which the
    reader adds): ``{"preset": name, **flags}``. Raises :class:`PpnRulesError` on a bad tag."""
    name = tag.get(PRESET_TAG, CLUB_PRESET)
    if name not in PRESETS:
        raise PpnRulesError(
            PRESET_TAG, f"tag {PRESET_TAG} names an unknown Balkan preset {name[:60]!r}; known: "
            f"{', '.join(sorted(PRESETS))}"
        )
    rules: dict[str, Any] = {"preset": name}
    if RULES_TAG in tag:
        text = tag[RULES_TAG]
        try:
            flags = load_json(text)
        except RepeatedKey as exc:
            raise PpnRulesError(RULES_TAG, f"tag Rules: {exc}: {text[:80]!r}") from exc
        except ValueError as exc:
            raise PpnRulesError(RULES_TAG, f"tag Rules is not JSON: {text[:80]!r}") from exc
        if not isinstance(flags, dict):
            raise PpnRulesError(RULES_TAG, f"tag Rules must be a JSON object, got {text[:80]!r}")
        own = [k for k in IN_OWN_TAGS if k in flags]
        if own:
            raise PpnRulesError(
                RULES_TAG,
                f"tag Rules sets {own!r}, which the Bula and Refe tags carry: {text[:80]!r}",
            )
        unknown = sorted(k for k in flags if k not in BalkanRules.model_fields)
        if unknown:
            raise PpnRulesError(
                RULES_TAG, f"tag Rules names unknown flags {unknown!r} (balkan.md 9): {text[:80]!r}"
            )
        rules.update(flags)
    return rules


def preset_refe(name: str) -> int | None:
    """The ``max_refe`` a preset sets (the reader spells out ``Refe Infinity`` against it)."""
    return BalkanRules.preset(name).max_refe
