"""Audit of an LLM judge's JSON in the template's format.

Two steps:

1. :func:`~evaltools.judging.judge_json.read_judgment` parses the judge's
   text (or object) and takes out what evaltools may reuse — the four rules'
   ``compliant`` answers and the reasoning sub-scores — reporting everything
   that is missing, of the wrong type or out of range. A broken value is never
   turned into a score: it is left out (its rule or sub-score is then unassessed).
2. :func:`audit_judgment` holds the judge's figures against the template's
   arithmetic, against the verdict rule, and against evaltools' own
   recomputation from ``output`` and ``expected``.

Each finding is a :class:`~evaltools.judging.result.Finding` with one of these
codes (documented in ``docs/judge.md``):

``unparseable``, ``not_an_object``, ``missing_key``, ``wrong_type``,
``out_of_range``, ``rule_count``, ``rule_score_invalid``,
``rule_score_mismatch``, ``rule_total_mismatch``, ``reasoning_total_mismatch``,
``total_mismatch``, ``invalid_verdict``, ``verdict_mismatch``,
``correctness_mismatch``, ``match_mismatch``, ``rule_check_disagrees``,
``verdict_differs``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evaltools.errors import shorten
from evaltools.judging.correctness import Correctness
from evaltools.judging.judge_json import JudgeAnswers, TemplateJSON, _fmt, _is_num
from evaltools.judging.reasoning import Reasoning
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.judging.result import Finding
from evaltools.judging.rules import RuleCompliance
from evaltools.judging.verdict import JudgeVerdict, calculate_verdict

FINDING_KINDS: dict[str, str] = {
    "unparseable": "format", "not_an_object": "format", "missing_key": "format",
    "wrong_type": "format", "out_of_range": "format", "rule_count": "format",
    "rule_score_invalid": "arithmetic", "rule_score_mismatch": "arithmetic",
    "rule_total_mismatch": "arithmetic", "reasoning_total_mismatch": "arithmetic",
    "total_mismatch": "arithmetic",
    "invalid_verdict": "verdict", "verdict_mismatch": "verdict",
    "correctness_mismatch": "correctness", "match_mismatch": "correctness",
    "rule_check_disagrees": "rules",
    "verdict_differs": "verdict vs evaltools",
}
"""Every finding code, in the order checks run, and what it is about.

``arithmetic``: the judge's own sums or rule scores do not add up;
``verdict``: the judge's verdict contradicts its own figures (or is not
PASS/FAIL); ``correctness``: its correctness contradicts output vs expected;
``rules``: its rule answer contradicts an automatic check; ``verdict vs
evaltools``: its verdict differs from the recomputed one; ``format``: its
JSON breaks the template's format.
"""

CODES = tuple(FINDING_KINDS)
"""Every finding code, in the order checks run."""

INCONSISTENT_KINDS = ("arithmetic", "verdict")
"""An LLM judgment is *inconsistent* when it has a finding of one of these kinds:
its own figures do not add up, or its verdict does not follow from them."""

def _usable(v: Any) -> float | None:
    """``v`` when the audit may compute with it (a finite number of sensible size)."""
    return v if _is_num(v) else None


_Add = Callable[[str, str, str], None]


def audit_judgment(answers: JudgeAnswers, module: Module, *, correctness: Correctness,
                   rule_compliance: RuleCompliance, reasoning: Reasoning, verdict: JudgeVerdict,
                   rules_from_judge: bool, registry: Registry | None = None
                   ) -> tuple[Finding, ...]:
    """Every inconsistency of the judge's JSON, given evaltools' recomputed sections.

    The checks run in the order of :data:`FINDING_KINDS`, one step each:
    correctness against output vs expected, the rule scores and their total,
    the judge's rule answers against the automatic checks, the reasoning sums,
    then the judge's total and verdict against its own figures and against
    evaltools' verdict. Each step reads the judge's JSON through
    :class:`~evaltools.judging.judge_json.TemplateJSON` (``answers.view``).

    Parameters
    ----------
    answers : JudgeAnswers
        From :func:`read_judgment`; its findings come first.
    module : Module
    correctness, rule_compliance, reasoning, verdict
        evaltools' own recomputation for the record.
    rules_from_judge : bool
        Whether the recomputed rules used the judge's answers (then a judge
        answer that contradicts an automatic check is a finding).
    registry : Registry, optional

    Returns
    -------
    tuple of Finding

    Examples
    --------
    Usually called by :func:`evaltools.judge`; by hand:

    >>> from evaltools.judging.correctness import correctness
    >>> from evaltools.judging.judge_json import read_judgment
    >>> from evaltools.judging.reasoning import assess_reasoning
    >>> from evaltools.judging.registry import load_registry
    >>> from evaltools.judging.rules import assess_rules
    >>> m = load_registry().module("M13")
    >>> j = {"evaluation": {"correctness": {"score": 40},
    ...                     "rule_compliance": {"score": 40},
    ...                     "reasoning_quality": {"score": 20}},
    ...      "total_score": 90, "verdict": "PASS"}
    >>> a = read_judgment(j, m)
    >>> c = correctness(True, False, m)
    >>> rc = assess_rules(m, True, False, None, given=[True] * 4)
    >>> q = assess_reasoning({"chain_of_thought": 8, "evidence_usage": 8,
    ...                       "confidence_calibration": 4})
    >>> v = calculate_verdict(c.score, rc.score, q.score)
    >>> found = audit_judgment(a, m, correctness=c, rule_compliance=rc, reasoning=q,
    ...                        verdict=v, rules_from_judge=False)
    >>> [f.code for f in found if f.code != "missing_key"]
    ['correctness_mismatch', 'total_mismatch', 'verdict_differs']
    """
    reg = registry or DEFAULT_REGISTRY
    found = list(answers.findings)
    if answers.judgment is None:
        return tuple(found)

    def add(code: str, path: str, message: str) -> None:
        found.append(Finding(code, path, message))

    view = answers.view
    s = reg.settings
    _check_correctness(view, correctness, s, add)
    _check_rule_scores(view, s, add)
    if rules_from_judge and answers.rules is not None:
        _check_rule_answers(answers, rule_compliance, add)
    _check_reasoning_sums(view, s, add)
    _check_total_and_verdict(view, verdict, reg, add)
    return tuple(found)


def _check_correctness(view: TemplateJSON, correctness: Correctness, s: Any,
                       add: _Add) -> None:
    """The judge's correctness score and match against output vs expected."""
    jc = _usable(view.correctness_score)
    if jc is not None and abs(jc - correctness.score) > s.audit.correctness_tolerance:
        add("correctness_mismatch", "evaluation.correctness.score",
            f"the judge scores correctness {_fmt(jc)}, but output vs expected gives "
            f"{_fmt(correctness.score)} ({correctness.details})")
    if not view.has_match:
        return
    jm = view.match
    if isinstance(jm, bool):
        if jm != correctness.match:
            add("match_mismatch", "evaluation.correctness.match",
                f"the judge says match is {str(jm).lower()}, but output vs expected is "
                f"{correctness.match_level}")
    elif isinstance(jm, str) and jm.strip().upper() in _MATCH_WORDS:
        if jm.strip().upper() != correctness.match_level:
            add("match_mismatch", "evaluation.correctness.match",
                f"the judge says match is {shorten(jm)}, but output vs expected is "
                f"{correctness.match_level}")
    else:
        add("wrong_type", "evaluation.correctness.match",
            f"evaluation.correctness.match must be true or false, got {shorten(jm)}")


_MATCH_WORDS = ("EXACT", "PARTIAL", "NONE", "YES", "NO")


def _check_rule_scores(view: TemplateJSON, s: Any, add: _Add) -> None:
    """Each rule scores 0 or its points, consistent with ``compliant``; the total is their sum."""
    if view.rules is None:
        return
    points = s.rules.points_per_rule
    scores = []
    for i, entry in enumerate(view.rules):
        path = f"evaluation.rule_compliance.rules[{i}]"
        sc = entry.score
        if not _is_num(sc):
            continue
        scores.append(sc)
        if sc not in (0, points):
            add("rule_score_invalid", f"{path}.score",
                f"rule {i + 1} scores {_fmt(sc)}; a rule scores 0 or {points}")
        comp = entry.compliant
        if isinstance(comp, bool) and sc in (0, points) and (sc == points) != comp:
            add("rule_score_mismatch", f"{path}.score",
                f"rule {i + 1} is {'compliant' if comp else 'violated'} but scores "
                f"{_fmt(sc)}")
    jr = _usable(view.rules_score)
    if jr is not None and len(scores) == len(view.rules) and \
            abs(jr - sum(scores)) > s.audit.tolerance:
        add("rule_total_mismatch", "evaluation.rule_compliance.score",
            f"rule_compliance.score is {_fmt(jr)}, but its rules add up to "
            f"{_fmt(sum(scores))}")


def _check_rule_answers(answers: JudgeAnswers, rule_compliance: RuleCompliance,
                        add: _Add) -> None:
    """The judge's ``compliant`` answers against the automatic checks."""
    given_rules = answers.rules or ()
    for i, r in enumerate(rule_compliance.rules):
        given = given_rules[i]["compliant"] if i < len(given_rules) else None
        if r.check is not None and given is not None and given != r.check:
            add("rule_check_disagrees", f"evaluation.rule_compliance.rules[{i}].compliant",
                f"the judge says rule {i + 1} '{r.name}' is "
                f"{'compliant' if given else 'violated'}, but the automatic check finds "
                f"{'compliance' if r.check else 'a violation'}: {r.check_evidence}")


def _check_reasoning_sums(view: TemplateJSON, s: Any, add: _Add) -> None:
    """The reasoning score is the sum of its sub-scores; each sub-score the sum of its items."""
    if view.reasoning_quality is None:
        return
    tol = s.audit.tolerance
    subs = []
    for sub in s.reasoning.subscores:
        v = view.reasoning_value(sub.name)
        if not _is_num(v):
            continue
        subs.append(v)
        item_vals = [view.reasoning_value(k) for k in sub.items]
        if sub.items and all(_is_num(x) for x in item_vals) and \
                abs(sum(item_vals) - v) > tol:
            add("reasoning_total_mismatch", f"evaluation.reasoning_quality.{sub.name}",
                f"{sub.name} is {_fmt(v)}, but its items add up to "
                f"{_fmt(sum(item_vals))}")
    jq = _usable(view.reasoning_score)
    if jq is not None and len(subs) == len(s.reasoning.subscores) and \
            abs(jq - sum(subs)) > tol:
        add("reasoning_total_mismatch", "evaluation.reasoning_quality.score",
            f"reasoning_quality.score is {_fmt(jq)}, but its sub-scores add up to "
            f"{_fmt(sum(subs))}")


def _check_total_and_verdict(view: TemplateJSON, verdict: JudgeVerdict, reg: Registry,
                             add: _Add) -> None:
    """The judge's total and verdict against its own sections, then against evaltools'."""
    s = reg.settings
    jc, jr = _usable(view.correctness_score), _usable(view.rules_score)
    jq, jt = _usable(view.reasoning_score), _usable(view.total_score)
    jv = view.verdict
    own: JudgeVerdict | None = None
    if jc is not None and jr is not None and jq is not None:
        own = calculate_verdict(jc, jr, jq, registry=reg)
        if jt is not None and abs(jt - own.total) > s.audit.tolerance:
            add("total_mismatch", "total_score",
                f"total_score is {_fmt(jt)}, but the judge's sections give "
                f"{_fmt(jc)} + {_fmt(jr)} + {_fmt(jq)} = {_fmt(jc + jr + jq)}"
                + (f", capped at {_fmt(own.total)}" if own.total != _round(jc + jr + jq)
                   else ""))
    if jv not in ("PASS", "FAIL"):
        return
    expect: str | None = None
    if own is not None:
        expect = own.verdict
        why = f"its sections ({_fmt(own.total)}; {own.reason})"
    elif jt is not None:
        if jc is not None and jc == 0:
            expect, why = "FAIL", "its correctness of 0"
        else:
            expect = "PASS" if jt >= s.verdict.pass_at else "FAIL"
            why = f"its total of {_fmt(jt)}"
    if expect is not None and jv != expect:
        add("verdict_mismatch", "verdict",
            f"the judge's verdict is {jv}, but {why} give {expect}")
    if jv != verdict.verdict:
        add("verdict_differs", "verdict",
            f"the judge's verdict is {jv}; evaltools recomputes {verdict.verdict} "
            f"({_fmt(verdict.total)}; {verdict.reason})")


def _round(x: float) -> float:
    return round(float(x), 2)
