"""Section 3 of the template: reasoning quality, 20 points.

Three sub-scores — ``chain_of_thought`` (0-8), ``evidence_usage`` (0-8),
``confidence_calibration`` (0-4) — each optionally given as its two finer
items (``clear_logic`` and ``evidence_referenced`` 0-4; ``quotes_from_input``
and ``relevant_evidence`` 0-4; ``confidence_matches`` and
``uncertainty_acknowledged`` 0-2). Ranges and names come from the registry.

- A sub-score given directly counts; when all its items are given too, the
  items' sum decides and a difference is reported.
- A sub-score with all its items and no total is their sum.
- A sub-score with neither is unassessed: 0 points, listed in ``issues``.
- Values must be whole numbers in range; :func:`reasoning_problems` lists the
  ones that are not (the caller rejects a record, or, for an LLM judge's
  JSON, reports and leaves them out — never clips them).

The scoring-guide band is the highest band the score reaches: 20 excellent,
15 good, 10 adequate, 5 weak, 0 none (None when nothing was assessed).

Examples
--------
>>> r = assess_reasoning({"chain_of_thought": 6, "evidence_usage": 6, "confidence_calibration": 3})
>>> r.score, r.band
(15, 'good')
>>> r = assess_reasoning({"clear_logic": 4, "evidence_referenced": 3, "evidence_usage": 8})
>>> r.chain_of_thought, r.score, r.issues
(7, 15, ('confidence_calibration not assessed; counted as 0',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from evaltools.errors import shorten
from evaltools.judging.registry import DEFAULT_REGISTRY, Registry


@dataclass(frozen=True)
class Reasoning:
    """The reasoning-quality section; a sub-score is None when unassessed."""

    score: int
    chain_of_thought: int | None
    evidence_usage: int | None
    confidence_calibration: int | None
    band: str | None
    items: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    source: str | None = None
    issues: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The template's ``evaluation.reasoning_quality`` object plus ``band`` and ``items``."""
        return {"score": self.score, "chain_of_thought": self.chain_of_thought,
                "evidence_usage": self.evidence_usage,
                "confidence_calibration": self.confidence_calibration,
                "band": self.band, "items": dict(self.items), "source": self.source}


def known_keys(registry: Registry | None = None) -> dict[str, int]:
    """Every reasoning key (sub-scores and items) with its maximum.

    >>> known_keys()["chain_of_thought"], known_keys()["confidence_matches"]
    (8, 2)
    """
    keys: dict[str, int] = {}
    for sub in (registry or DEFAULT_REGISTRY).settings.reasoning.subscores:
        keys[sub.name] = sub.max
        keys.update(sub.items)
    return keys


def whole(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (not a bool), else None.

    >>> whole(6), whole(6.0), whole(6.5), whole(True), whole("6")
    (6, 6, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def reasoning_problems(values: Mapping[str, Any], *,
                       registry: Registry | None = None) -> list[tuple[str, str]]:
    """``(key, message)`` for each known key whose value is not a whole number in range.

    >>> reasoning_problems({"chain_of_thought": 9, "evidence_usage": "high",
    ...                     "confidence_calibration": None})
    [('chain_of_thought', 'chain_of_thought must be a whole number 0-8, got 9'), \
('evidence_usage', "evidence_usage must be a whole number 0-8, got 'high'")]
    """
    problems = []
    for key, top in known_keys(registry).items():
        if key not in values or values[key] is None:
            continue
        v = whole(values[key])
        if v is None or not 0 <= v <= top:
            problems.append((key, f"{key} must be a whole number 0-{top}, "
                                  f"got {shorten(values[key])}"))
    return problems


def band_of(score: float, *, registry: Registry | None = None) -> str:
    """The scoring-guide band a reasoning score reaches.

    >>> [band_of(s) for s in (20, 19, 15, 10, 9, 5, 4, 0)]
    ['excellent', 'good', 'good', 'adequate', 'weak', 'weak', 'none', 'none']
    """
    bands = (registry or DEFAULT_REGISTRY).settings.reasoning.bands
    for band in bands:
        if score >= band.start:
            return band.label
    return bands[-1].label


def assess_reasoning(values: Mapping[str, Any] | None, *, source: str | None = "record",
                     registry: Registry | None = None) -> Reasoning:
    """Reasoning quality from sub-scores and/or finer items (already range-checked).

    Parameters
    ----------
    values : mapping or None
        Keys of :func:`known_keys`; values that fail :func:`reasoning_problems`
        must be removed by the caller. Unknown keys are reported and ignored.
    source : str or None
        ``"record"`` or ``"judge"``: where the values come from.
    registry : Registry, optional

    Returns
    -------
    Reasoning

    Examples
    --------
    >>> r = assess_reasoning(None)
    >>> r.score, r.band, len(r.issues)
    (0, None, 1)
    >>> assess_reasoning({"chain_of_thought": 8, "evidence_usage": 8,
    ...                   "confidence_calibration": 4}).band
    'excellent'
    """
    reg = registry or DEFAULT_REGISTRY
    spec = reg.settings.reasoning
    values = dict(values or {})
    issues: list[str] = []
    if not values:
        return Reasoning(score=0, chain_of_thought=None, evidence_usage=None,
                         confidence_calibration=None, band=None, source=None,
                         issues=("reasoning not assessed; counted as 0",))
    known = known_keys(reg)
    for key in values:
        if key not in known:
            issues.append(f"reasoning key {shorten(key)} is unknown (known: {', '.join(known)}); "
                          "ignored")
    subs: dict[str, int | None] = {}
    items: dict[str, int] = {}
    for sub in spec.subscores:
        direct = whole(values.get(sub.name))
        given_items = {k: whole(values[k]) for k in sub.items if whole(values.get(k)) is not None}
        items.update(given_items)
        complete = bool(sub.items) and len(given_items) == len(sub.items)
        if complete:
            total = sum(given_items.values())
            if direct is not None and direct != total:
                issues.append(f"{sub.name} is {direct} but its items add up to {total}; "
                              "the items decide")
            subs[sub.name] = total
        elif direct is not None:
            subs[sub.name] = direct
        else:
            subs[sub.name] = None
            note = (f" (only {', '.join(given_items)} given)" if given_items else "")
            issues.append(f"{sub.name} not assessed{note}; counted as 0")
    assessed = [v for v in subs.values() if v is not None]
    score = sum(assessed)
    return Reasoning(
        score=score, chain_of_thought=subs.get("chain_of_thought"),
        evidence_usage=subs.get("evidence_usage"),
        confidence_calibration=subs.get("confidence_calibration"),
        band=band_of(score, registry=reg) if assessed else None,
        items=MappingProxyType(items), source=source if assessed else None,
        issues=tuple(issues))
