"""The template's ``calculate_verdict``, with its numbers read from the registry.

::

    total = correctness + rule_compliance + reasoning
    if correctness == 0:  FAIL, min(total, 60), "Incorrect output"
    if total >= 70:       PASS, total,          "Meets threshold"
    else:                 FAIL, total,          "Below threshold"

Scores are summed after each section is rounded (extraction correctness to
2 decimals), so the total is always the sum of the parts shown.

Examples
--------
>>> calculate_verdict(40, 20, 10)
JudgeVerdict(verdict='PASS', total=70, reason='Meets threshold')
>>> calculate_verdict(40, 20, 9)
JudgeVerdict(verdict='FAIL', total=69, reason='Below threshold')
>>> calculate_verdict(0, 40, 20)
JudgeVerdict(verdict='FAIL', total=60, reason='Incorrect output')
"""

from __future__ import annotations

from dataclasses import dataclass

from evaltools.judging.registry import DEFAULT_REGISTRY, Registry


@dataclass(frozen=True)
class JudgeVerdict:
    """PASS or FAIL, the (possibly capped) total, and the rule that decided."""

    verdict: str
    total: float
    reason: str


def _num(x: float) -> int | float:
    r = round(float(x), 2)
    return int(r) if r == int(r) else r


def calculate_verdict(correctness: float, rule_compliance: float, reasoning: float, *,
                      registry: Registry | None = None) -> JudgeVerdict:
    """PASS/FAIL from the three section scores, exactly as the template's pseudo-code.

    Parameters
    ----------
    correctness, rule_compliance, reasoning : float
        Section scores (0-40, 0-40, 0-20).
    registry : Registry, optional
        ``[judge.verdict]``: ``pass_at`` (70), ``cap_when_incorrect`` (60).

    Returns
    -------
    JudgeVerdict

    Examples
    --------
    >>> calculate_verdict(26.67, 30, 15)
    JudgeVerdict(verdict='PASS', total=71.67, reason='Meets threshold')
    >>> calculate_verdict(20, 30, 19).verdict
    'FAIL'
    """
    v = (registry or DEFAULT_REGISTRY).settings.verdict
    total = _num(correctness + rule_compliance + reasoning)
    if correctness == 0:
        return JudgeVerdict("FAIL", _num(min(total, v.cap_when_incorrect)), v.reason_incorrect)
    if total >= v.pass_at:
        return JudgeVerdict("PASS", total, v.reason_pass)
    return JudgeVerdict("FAIL", total, v.reason_below)
