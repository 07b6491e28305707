"""The one reader of an LLM judge's JSON in the template's format.

:func:`parse_judgment` turns the judge's text (or object) into a JSON object;
:class:`TemplateJSON` is that object read at the template's fixed paths — a
frozen, typed view that never fails (what is absent, or sits under something
that is not an object, is None; :mod:`evaltools.judging.template_json`) and
that the audit, the report and
:class:`~evaltools.widgets.JudgeForm` read attributes from;
:func:`read_judgment` takes out what evaltools may reuse — the four rules'
``compliant`` answers and the reasoning sub-scores — reporting everything
that is missing, of the wrong type or out of range as a
:class:`~evaltools.judging.result.Finding`. A broken value is never turned
into a score: it is left out (its rule or sub-score is then unassessed).
:mod:`evaltools.judging.audit` checks the figures read here.

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
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evaltools.config import DEFAULT_CONFIG as _CONFIG
from evaltools.errors import shorten
from evaltools.io.validation import depth_exceeds
from evaltools.judging.reasoning import known_keys, whole
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.judging.result import Finding
from evaltools.judging.template_json import TemplateJSON
from evaltools.values import is_finite_number

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

    @property
    def view(self) -> TemplateJSON:
        """The judgment read at the template's paths (every value None without one)."""
        return TemplateJSON.of(self.judgment)


#: The largest magnitude a judge's number may have to be used at all. Scores
#: are at most 100; anything beyond this (a 400-digit integer, 1e308, whose sum
#: overflows) is an ``out_of_range`` finding, never arithmetic.
MAX_MAGNITUDE = 1e9


def _is_number_type(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    """A number evaltools may compute with: finite and at most MAX_MAGNITUDE in size."""
    return is_finite_number(v, within=MAX_MAGNITUDE)


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
