"""The house-rule flags a balance sweep toggles (``trickbook balance --sweep``): every option of
a variant's rules model with a finite set of values (booleans and named choices), each
alternative to its default as one rule set (greek-prefa.md 14, swabian.md 10, balkan.md options).
Numeric options (kassa sizes, amounts) have no finite set and are left to explicit studies."""

from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from model.variants import variant as lookup


def _choices(annotation: Any) -> tuple[Any, ...]:
    if annotation is bool:
        return (False, True)
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    return ()


def alternatives(variant: str) -> list[tuple[str, dict[str, Any]]]:
    """``(label, rules)`` for every non-default value of every finite option of ``variant``'s
    rules, e.g. ``("four_aces=raise_value", {"four_aces": "raise_value"})``."""
    model = lookup(variant).rules_model
    out = []
    for name, info in model.model_fields.items():
        for value in _choices(info.annotation):
            if value != info.default:
                label = f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                out.append((label, {name: value}))
    return out
