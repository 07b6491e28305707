"""Section 2 of the template: four rules per module, 10 points per compliant rule.

A rule is decided by, in order:

1. its automatic check (named in ``modules.toml``), when the check can decide
   it from the record's ``output``, ``expected`` and ``input``;
2. otherwise the answer given in the record's ``rules`` (a human or a
   judge), or in the LLM judge's JSON.

A rule that neither decides is *unassessed*: it scores 0 and is listed in
``issues``, never counted as compliant. Where a check and a given answer
disagree, the check decides and the disagreement is reported.

Every check returns a :class:`Check` whose ``compliant`` is True, False, or
None (cannot decide for this record: e.g. no ``input.brand``). A check with
``params = { only_violations = true }`` decides violations only: when it finds
none, the rule is left to the judge (M01 "No Unrelated Terms" can spot a
competitor brand, not a generic term).

Examples
--------
>>> from evaltools.judging.registry import load_registry
>>> m = load_registry().module("M01")
>>> out = ["Hydro Flask", "hydroflask", "Hydro Flsk", "HydroFlask"]
>>> rc = assess_rules(m, out, out, {"brand": "Hydro Flask"}, given=[True, True, None, False])
>>> [(r.compliant, r.source) for r in rc.rules]
[(True, 'check'), (True, 'check'), (None, None), (True, 'check')]
>>> rc.score
30
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaltools.judging.checks import Check, run_check
from evaltools.judging.registry import DEFAULT_REGISTRY

if TYPE_CHECKING:
    from evaltools.judging.registry import Module, Registry

__all__ = ["Check", "RuleCompliance", "RuleResult", "assess_rules", "run_check"]


# ---------------------------------------------------------------------------- assessment


@dataclass(frozen=True)
class RuleResult:
    """One rule's outcome. ``check`` and ``given`` keep both sources for audits."""

    name: str
    description: str
    compliant: bool | None
    score: int
    evidence: str
    source: str | None  # "check", "record", "judge" or None (unassessed)
    check: bool | None = None
    check_evidence: str | None = None
    given: bool | None = None
    given_evidence: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "compliant": self.compliant, "score": self.score,
                "evidence": self.evidence, "source": self.source}


@dataclass(frozen=True)
class RuleCompliance:
    """The rule-compliance section: the four rules and their total."""

    score: int
    rules: tuple[RuleResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "rules": [r.to_dict() for r in self.rules]}

    @property
    def unassessed(self) -> tuple[int, ...]:
        """1-based numbers of the rules nobody decided."""
        return tuple(i for i, r in enumerate(self.rules, start=1) if r.compliant is None)

    @property
    def disagreements(self) -> tuple[int, ...]:
        """1-based numbers of the rules where a given answer contradicts the check."""
        return tuple(i for i, r in enumerate(self.rules, start=1)
                     if r.check is not None and r.given is not None and r.check != r.given)


def assess_rules(module: Module, output: Any, expected: Any,
                 inp: Mapping[str, Any] | None, *,
                 given: Sequence[Any] | None = None, given_source: str = "record",
                 registry: Registry | None = None) -> RuleCompliance:
    """Decide the module's four rules and add 10 points per compliant rule.

    Parameters
    ----------
    module : Module
    output, expected : Any
        The module's output and expected value (already validated).
    inp : mapping or None
        The module's input (``brand``, ``competitors``, ``brand_terms``, ...).
    given : sequence, optional
        One entry per rule: a bool, None (not assessed), or a mapping with
        ``compliant`` (bool or None) and ``evidence``.
    given_source : str
        Where ``given`` comes from: ``"record"`` or ``"judge"``.
    registry : Registry, optional

    Returns
    -------
    RuleCompliance

    Examples
    --------
    >>> from evaltools.judging.registry import load_registry
    >>> m = load_registry().module("M15")
    >>> assess_rules(m, True, True, None, given=[True, True, False, None]).score
    20
    >>> assess_rules(m, True, True, None).unassessed
    (1, 2, 3, 4)
    """
    points = (registry or DEFAULT_REGISTRY).settings.rules.points_per_rule
    given = list(given or [])
    results = []
    for i, rule in enumerate(module.rules):
        g, g_ev = None, None
        if i < len(given):
            entry = given[i]
            if isinstance(entry, Mapping):
                g, g_ev = entry.get("compliant"), entry.get("evidence")
            else:
                g = entry
            g = g if isinstance(g, bool) else None
            g_ev = g_ev if isinstance(g_ev, str) else None
        chk = run_check(module, i, output, expected, inp)
        c = chk.compliant if chk is not None else None
        if c is not None:
            compliant, source = c, "check"
            evidence = f"automatic check: {chk.evidence}"
        elif g is not None:
            compliant, source = g, given_source
            evidence = g_ev or ""
        else:
            compliant, source = None, None
            evidence = "not assessed" + (f" (automatic check: {chk.evidence})" if chk else "")
        results.append(RuleResult(
            name=rule.name, description=rule.description, compliant=compliant,
            score=points if compliant is True else 0, evidence=evidence, source=source,
            check=c, check_evidence=chk.evidence if chk else None, given=g,
            given_evidence=g_ev))
    return RuleCompliance(score=sum(r.score for r in results), rules=tuple(results))
