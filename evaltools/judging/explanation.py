"""What a judge result says in words: its one-line summary and its improvement suggestions.

Text only: every number comes from the result parts (correctness, rules,
reasoning, verdict) and the registry's maxima; nothing is scored here.
"""

from __future__ import annotations

import json

from evaltools.judging.correctness import Correctness
from evaltools.judging.reasoning import Reasoning
from evaltools.judging.registry import Module, Registry
from evaltools.judging.rules import RuleCompliance
from evaltools.judging.verdict import JudgeVerdict


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def summary_text(module: Module, c: Correctness, rc: RuleCompliance, q: Reasoning, v: JudgeVerdict,
             reg: Registry) -> str:
    s = reg.settings
    violated = [r.name for r in rc.rules if r.compliant is False]
    unassessed = [r.name for r in rc.rules if r.compliant is None]
    rules = f"rules {rc.score}/{s.rules.max_points}"
    if violated:
        rules += " (violated: " + ", ".join(violated) + ")"
    if unassessed:
        rules += " (not assessed: " + ", ".join(unassessed) + ")"
    corr = f"correctness {_fmt(c.score)}/{s.correctness.max_points}"
    corr += f" ({c.match_level}" + (f", F1 {c.f1:.2f})" if c.f1 is not None else ")")
    reasoning = f"reasoning {q.score}/{s.reasoning.max_points}"
    reasoning += f" ({q.band})" if q.band else " (not assessed)"
    return (f"{module.id} {module.name}: {v.verdict} with {_fmt(v.total)}/"
            f"{_fmt(s.verdict.max_total)} ({v.reason}); {corr}; {rules}; {reasoning}.")


def audit_note(findings: tuple | None) -> str:
    if findings is None:
        return ""
    if not findings:
        return " The LLM judge's JSON is consistent."
    codes = ", ".join(dict.fromkeys(f.code for f in findings))
    n = len(findings)
    return f" The LLM judge's JSON has {n} inconsistenc{'y' if n == 1 else 'ies'} ({codes})."


def suggestions(module: Module, c: Correctness, rc: RuleCompliance, q: Reasoning,
                 reg: Registry) -> tuple[str, ...]:
    s = reg.settings
    out: list[str] = []
    if c.score < s.correctness.max_points:
        if module.type == "extraction":
            if c.missing:
                out.append("Add the missing expected item(s): " + ", ".join(c.missing))
            if c.extra:
                out.append("Remove the item(s) not expected: " + ", ".join(c.extra))
        elif module.type == "classification":
            out.append(f"Label should be {c.expected_value}, not {c.output_value}")
        else:
            out.append(f"Output should be {json.dumps(c.expected_value)}, "
                       f"not {json.dumps(c.output_value)}")
    for r in rc.rules:
        if r.compliant is False:
            out.append(f"Follow rule '{r.name}': {r.description}")
    for r in rc.rules:
        if r.compliant is None:
            out.append(f"Assess rule '{r.name}' (not assessed, counted as 0)")
    for sub in s.reasoning.subscores:
        val = getattr(q, sub.name, None)
        if val is not None and val < sub.max:
            out.append(f"Strengthen {sub.name.replace('_', ' ')} ({val}/{sub.max})")
    return tuple(out)
