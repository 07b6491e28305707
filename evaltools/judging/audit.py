"""Audit of an LLM judge's JSON in the template's format.

Two steps:

1. :func:`read_judgment` parses the judge's text (or object) and takes out
   what evaltools may reuse — the four rules' ``compliant`` answers and the
   reasoning sub-scores — reporting everything that is missing, of the
   wrong type or out of range. A broken value is never turned into a score:
   it is left out (its rule or sub-score is then unassessed).
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

Examples
--------
>>> from evaltools.judging.registry import load_registry
>>> m = load_registry().module("M15")
>>> a = read_judgment('{"evaluation": {}, "total_score": 85}', m)
>>> sorted({f.code for f in a.findings})
['missing_key']
>>> read_judgment("The output is correct. Score: 85", m).findings[0].code
'unparseable'
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evaltools.config import DEFAULT_CONFIG as _CONFIG
from evaltools.errors import shorten
from evaltools.io.records import depth_exceeds
from evaltools.judging.correctness import Correctness
from evaltools.judging.reasoning import Reasoning, known_keys, whole
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

_FENCE = re.compile(r"^\s*```[A-Za-z]*\s*\n(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class JudgeAnswers:
    """What an LLM judge's JSON says, as far as it can be read.

    ``rules``: one entry per rule — ``{"compliant": bool | None, "evidence": str | None}``
    (None when the judge's rule is missing or broken) — or None without a usable
    rules list. ``reasoning``: the sub-scores and items that are whole numbers in
    range. ``findings``: what was missing, mistyped or out of range.
    """

    judgment: dict[str, Any] | None
    rules: tuple[dict[str, Any], ...] | None
    reasoning: dict[str, int] | None
    findings: tuple[Finding, ...]


#: The largest magnitude a judge's number may have to be used at all. Scores
#: are at most 100; anything beyond this (a 400-digit integer, 1e308, whose sum
#: overflows) is an ``out_of_range`` finding, never arithmetic.
MAX_MAGNITUDE = 1e9


def _is_number_type(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    """A number evaltools may compute with: finite and at most MAX_MAGNITUDE in size."""
    if not _is_number_type(v):
        return False
    if isinstance(v, float):
        return math.isfinite(v) and abs(v) <= MAX_MAGNITUDE
    return abs(v) <= MAX_MAGNITUDE


def _fmt(v: Any) -> str:
    if _is_num(v):
        r = round(float(v), 2)
        return str(int(r)) if r == int(r) else str(r)
    return shorten(v)


def _unusable(path: str, v: Any) -> Finding:
    return Finding("out_of_range", path,
                   f"{path} is {_fmt(v)}, not a finite number within "
                   f"±{MAX_MAGNITUDE:,.0f}; not used")


def parse_judgment(raw: Any) -> tuple[dict[str, Any] | None, list[Finding]]:
    """The judge's JSON object from an object or from its text (a ```json fence is allowed).

    >>> parse_judgment('```json\\n{"verdict": "PASS"}\\n```')
    ({'verdict': 'PASS'}, [])
    >>> parse_judgment("[1, 2]")[1][0].code
    'not_an_object'
    """
    depth = _CONFIG.input.max_depth
    too_deep = Finding("unparseable", "", f"the judge's JSON is nested deeper than {depth} "
                                          f"levels")
    if isinstance(raw, Mapping):
        if depth_exceeds(raw, depth):
            return None, [too_deep]
        return dict(raw), []
    if not isinstance(raw, str):
        return None, [Finding("not_an_object", "",
                              f"the judge's output is {type(raw).__name__}, not a JSON object")]
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        # NaN, Infinity and 1e400 parse (as floats); reading them gives out_of_range
        obj = json.loads(text)
    except RecursionError:
        return None, [too_deep]
    except (json.JSONDecodeError, ValueError) as exc:
        snippet = shorten(raw.strip()[:200], 60)
        msg = shorten(getattr(exc, "msg", str(exc)), 120, quote=False)
        return None, [Finding("unparseable", "",
                              f"the judge's output is not valid JSON ({msg}): {snippet}")]
    if depth_exceeds(obj, depth):
        return None, [too_deep]
    if not isinstance(obj, dict):
        return None, [Finding("not_an_object", "",
                              f"the judge's JSON is {type(obj).__name__}, not an object")]
    return obj, []


class _Reader:
    """Walks the judgment, collecting findings for missing keys and wrong types."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def get(self, obj: Mapping[str, Any] | None, key: str, path: str,
            kind: str | None = None) -> Any:
        where = f"{path}.{key}" if path else key
        if obj is None:
            return None
        if key not in obj:
            self.findings.append(Finding("missing_key", where, f"{where} is missing"))
            return None
        value = obj[key]
        if kind == "number" and _is_number_type(value) and not _is_num(value):
            self.findings.append(_unusable(where, value))
            return None
        ok = {
            None: True,
            "object": isinstance(value, Mapping),
            "list": isinstance(value, list),
            "number": _is_num(value),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }[kind]
        if not ok:
            self.findings.append(Finding(
                "wrong_type", where, f"{where} must be {_article(kind)}, got {shorten(value)}"))
            return None
        return value

    def add(self, code: str, path: str, message: str) -> None:
        self.findings.append(Finding(code, path, message))


def _article(kind: str | None) -> str:
    return {"object": "an object", "list": "a list", "number": "a number",
            "bool": "true or false", "str": "a string"}.get(kind or "", "a value")


def read_judgment(raw: Any, module: Module, *,
                  registry: Registry | None = None) -> JudgeAnswers:
    """Parse an LLM judge's output and take out its rule answers and reasoning sub-scores.

    Parameters
    ----------
    raw : dict or str
        The judge's JSON object, or its text.
    module : Module
    registry : Registry, optional

    Returns
    -------
    JudgeAnswers

    Examples
    --------
    >>> from evaltools.judging.registry import load_registry
    >>> m = load_registry().module("M04")
    >>> j = {"evaluation": {"reasoning_quality": {"score": 21, "chain_of_thought": 9,
    ...      "evidence_usage": 8, "confidence_calibration": 4}}}
    >>> a = read_judgment(j, m)
    >>> a.reasoning
    {'evidence_usage': 8, 'confidence_calibration': 4}
    >>> [f.path for f in a.findings if f.code == "out_of_range"]
    ['evaluation.reasoning_quality.chain_of_thought', 'evaluation.reasoning_quality.score']
    """
    reg = registry or DEFAULT_REGISTRY
    s = reg.settings
    obj, findings = parse_judgment(raw)
    if obj is None:
        return JudgeAnswers(None, None, None, tuple(findings))
    rd = _Reader()
    ev = rd.get(obj, "evaluation", "", "object")
    corr = rd.get(ev, "correctness", "evaluation", "object")
    for key, kind in (("score", "number"), ("output_value", None), ("expected_value", None),
                      ("match", None), ("details", None)):
        v = rd.get(corr, key, "evaluation.correctness", kind)
        if key == "score" and v is not None and not 0 <= v <= s.correctness.max_points:
            rd.add("out_of_range", "evaluation.correctness.score",
                   f"evaluation.correctness.score is {_fmt(v)}, outside 0-"
                   f"{s.correctness.max_points}")
    # rules
    rc = rd.get(ev, "rule_compliance", "evaluation", "object")
    rc_score = rd.get(rc, "score", "evaluation.rule_compliance", "number")
    if rc_score is not None and not 0 <= rc_score <= s.rules.max_points:
        rd.add("out_of_range", "evaluation.rule_compliance.score",
               f"evaluation.rule_compliance.score is {_fmt(rc_score)}, outside 0-"
               f"{s.rules.max_points}")
    rule_list = rd.get(rc, "rules", "evaluation.rule_compliance", "list")
    answers: list[dict[str, Any]] | None = None
    if rule_list is not None:
        if len(rule_list) != s.rules.count:
            rd.add("rule_count", "evaluation.rule_compliance.rules",
                   f"the judge gives {len(rule_list)} rules; module {module.id} has "
                   f"{s.rules.count}")
        answers = []
        for i in range(s.rules.count):
            path = f"evaluation.rule_compliance.rules[{i}]"
            if i >= len(rule_list):
                answers.append({"compliant": None, "evidence": None})
                continue
            entry = rule_list[i]
            if not isinstance(entry, Mapping):
                rd.add("wrong_type", path, f"{path} must be an object, got {shorten(entry)}")
                answers.append({"compliant": None, "evidence": None})
                continue
            rd.get(entry, "name", path)
            compliant = rd.get(entry, "compliant", path, "bool")
            rd.get(entry, "score", path, "number")
            evidence = rd.get(entry, "evidence", path)
            answers.append({"compliant": compliant,
                            "evidence": evidence if isinstance(evidence, str) else None})
    # reasoning
    rq = rd.get(ev, "reasoning_quality", "evaluation", "object")
    reasoning: dict[str, int] | None = None
    if rq is not None:
        reasoning = {}
        maxima = known_keys(reg)
        subs = {sub.name: sub for sub in s.reasoning.subscores}
        for key, top in maxima.items():
            path = f"evaluation.reasoning_quality.{key}"
            if key not in rq:
                sub = subs.get(key)
                if sub is not None and not all(k in rq for k in sub.items):
                    rd.add("missing_key", path, f"{path} is missing")
                continue
            v = rq[key]
            w = whole(v)
            if _is_number_type(v) and not _is_num(v):
                rd.findings.append(_unusable(path, v))
            elif not _is_num(v):
                rd.add("wrong_type", path, f"{path} must be a number, got {shorten(v)}")
            elif w is None or not 0 <= w <= top:
                rd.add("out_of_range", path,
                       f"{path} is {_fmt(v)}, outside the whole numbers 0-{top}; not counted")
            else:
                reasoning[key] = w
        q_score = rd.get(rq, "score", "evaluation.reasoning_quality", "number")
        if q_score is not None and not 0 <= q_score <= s.reasoning.max_points:
            rd.add("out_of_range", "evaluation.reasoning_quality.score",
                   f"evaluation.reasoning_quality.score is {_fmt(q_score)}, outside 0-"
                   f"{s.reasoning.max_points}")
    total = rd.get(obj, "total_score", "", "number")
    if total is not None and not 0 <= total <= s.verdict.max_total:
        rd.add("out_of_range", "total_score",
               f"total_score is {_fmt(total)}, outside 0-{_fmt(s.verdict.max_total)}")
    verdict = rd.get(obj, "verdict", "", "str")
    if verdict is not None and verdict not in ("PASS", "FAIL"):
        rd.add("invalid_verdict", "verdict", f"verdict is {shorten(verdict)}, not PASS or FAIL")
    rd.get(obj, "summary", "", "str")
    rd.get(obj, "improvement_suggestions", "", "list")
    return JudgeAnswers(judgment=obj, rules=tuple(answers) if answers is not None else None,
                        reasoning=reasoning, findings=tuple(findings + rd.findings))


def _num_at(obj: Any, *keys: str) -> float | None:
    for k in keys:
        if not isinstance(obj, Mapping) or k not in obj:
            return None
        obj = obj[k]
    return obj if _is_num(obj) else None


def audit_judgment(answers: JudgeAnswers, module: Module, *, correctness: Correctness,
                   rule_compliance: RuleCompliance, reasoning: Reasoning, verdict: JudgeVerdict,
                   rules_from_judge: bool, registry: Registry | None = None
                   ) -> tuple[Finding, ...]:
    """Every inconsistency of the judge's JSON, given evaltools' recomputed sections.

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
    s = reg.settings
    tol = s.audit.tolerance
    found = list(answers.findings)
    obj = answers.judgment
    if obj is None:
        return tuple(found)

    def add(code: str, path: str, message: str) -> None:
        found.append(Finding(code, path, message))

    # correctness against output vs expected
    jc = _num_at(obj, "evaluation", "correctness", "score")
    if jc is not None and abs(jc - correctness.score) > s.audit.correctness_tolerance:
        add("correctness_mismatch", "evaluation.correctness.score",
            f"the judge scores correctness {_fmt(jc)}, but output vs expected gives "
            f"{_fmt(correctness.score)} ({correctness.details})")
    corr = obj.get("evaluation", {}).get("correctness") if isinstance(
        obj.get("evaluation"), Mapping) else None
    if isinstance(corr, Mapping) and "match" in corr:
        jm = corr["match"]
        if isinstance(jm, bool):
            if jm != correctness.match:
                add("match_mismatch", "evaluation.correctness.match",
                    f"the judge says match is {str(jm).lower()}, but output vs expected is "
                    f"{correctness.match_level}")
        elif isinstance(jm, str) and jm.strip().upper() in ("EXACT", "PARTIAL", "NONE",
                                                              "YES", "NO"):
            if jm.strip().upper() != correctness.match_level:
                add("match_mismatch", "evaluation.correctness.match",
                    f"the judge says match is {shorten(jm)}, but output vs expected is "
                    f"{correctness.match_level}")
        else:
            add("wrong_type", "evaluation.correctness.match",
                f"evaluation.correctness.match must be true or false, got {shorten(jm)}")
    # rules: each score 0/10 and consistent with compliant; total = sum
    rc = obj.get("evaluation", {}).get("rule_compliance") if isinstance(
        obj.get("evaluation"), Mapping) else None
    rule_list = rc.get("rules") if isinstance(rc, Mapping) else None
    points = s.rules.points_per_rule
    if isinstance(rule_list, list):
        scores = []
        for i, entry in enumerate(rule_list):
            path = f"evaluation.rule_compliance.rules[{i}]"
            if not isinstance(entry, Mapping):
                continue
            sc = entry.get("score")
            if not _is_num(sc):
                continue
            scores.append(sc)
            if sc not in (0, points):
                add("rule_score_invalid", f"{path}.score",
                    f"rule {i + 1} scores {_fmt(sc)}; a rule scores 0 or {points}")
            comp = entry.get("compliant")
            if isinstance(comp, bool) and sc in (0, points) and (sc == points) != comp:
                add("rule_score_mismatch", f"{path}.score",
                    f"rule {i + 1} is {'compliant' if comp else 'violated'} but scores "
                    f"{_fmt(sc)}")
        jr = _num_at(rc, "score")
        all_scored = len(scores) == len(rule_list)
        if jr is not None and all_scored and abs(jr - sum(scores)) > tol:
            add("rule_total_mismatch", "evaluation.rule_compliance.score",
                f"rule_compliance.score is {_fmt(jr)}, but its rules add up to "
                f"{_fmt(sum(scores))}")
    if rules_from_judge and answers.rules is not None:
        for i, r in enumerate(rule_compliance.rules):
            given = answers.rules[i]["compliant"] if i < len(answers.rules) else None
            if r.check is not None and given is not None and given != r.check:
                add("rule_check_disagrees", f"evaluation.rule_compliance.rules[{i}].compliant",
                    f"the judge says rule {i + 1} '{r.name}' is "
                    f"{'compliant' if given else 'violated'}, but the automatic check finds "
                    f"{'compliance' if r.check else 'a violation'}: {r.check_evidence}")
    # reasoning: score = sum of sub-scores; sub-score = sum of its items
    rq = obj.get("evaluation", {}).get("reasoning_quality") if isinstance(
        obj.get("evaluation"), Mapping) else None
    if isinstance(rq, Mapping):
        subs = []
        for sub in s.reasoning.subscores:
            v = rq.get(sub.name)
            if _is_num(v):
                subs.append(v)
                item_vals = [rq.get(k) for k in sub.items]
                if sub.items and all(_is_num(x) for x in item_vals) and \
                        abs(sum(item_vals) - v) > tol:
                    add("reasoning_total_mismatch", f"evaluation.reasoning_quality.{sub.name}",
                        f"{sub.name} is {_fmt(v)}, but its items add up to "
                        f"{_fmt(sum(item_vals))}")
        jq = _num_at(rq, "score")
        if jq is not None and len(subs) == len(s.reasoning.subscores) and \
                abs(jq - sum(subs)) > tol:
            add("reasoning_total_mismatch", "evaluation.reasoning_quality.score",
                f"reasoning_quality.score is {_fmt(jq)}, but its sub-scores add up to "
                f"{_fmt(sum(subs))}")
    # total and verdict from the judge's own figures
    jr = _num_at(obj, "evaluation", "rule_compliance", "score")
    jq = _num_at(obj, "evaluation", "reasoning_quality", "score")
    jt = _num_at(obj, "total_score")
    jv = obj.get("verdict")
    own: JudgeVerdict | None = None
    if jc is not None and jr is not None and jq is not None:
        own = calculate_verdict(jc, jr, jq, registry=reg)
        if jt is not None and abs(jt - own.total) > tol:
            add("total_mismatch", "total_score",
                f"total_score is {_fmt(jt)}, but the judge's sections give "
                f"{_fmt(jc)} + {_fmt(jr)} + {_fmt(jq)} = {_fmt(jc + jr + jq)}"
                + (f", capped at {_fmt(own.total)}" if own.total != _round(jc + jr + jq)
                   else ""))
    if jv in ("PASS", "FAIL"):
        if own is not None:
            expect = own.verdict
            why = f"its sections ({_fmt(own.total)}; {own.reason})"
        elif jt is not None:
            if jc is not None and jc == 0:
                expect, why = "FAIL", "its correctness of 0"
            else:
                expect = "PASS" if jt >= s.verdict.pass_at else "FAIL"
                why = f"its total of {_fmt(jt)}"
        else:
            expect = None
        if expect is not None and jv != expect:
            add("verdict_mismatch", "verdict",
                f"the judge's verdict is {jv}, but {why} give {expect}")
        if jv != verdict.verdict:
            add("verdict_differs", "verdict",
                f"the judge's verdict is {jv}; evaltools recomputes {verdict.verdict} "
                f"({_fmt(verdict.total)}; {verdict.reason})")
    return tuple(found)


def _round(x: float) -> float:
    return round(float(x), 2)
