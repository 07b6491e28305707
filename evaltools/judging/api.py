"""Judging one record: the orchestration of validation, scoring parts, audit and explanation.

``judge`` validates the record (:mod:`evaltools.judging.validation`), computes
correctness, rules, reasoning and the verdict, audits the LLM judge's JSON,
and words the summary and suggestions (:mod:`evaltools.judging.explanation`);
``error_result`` is the result of a record that breaks the contract.

Many records: :mod:`evaltools.judging.stream` (``judge_stream``, ``judge_records``,
``judge_frame``).

A record (see ``data/README.md``) names its ``module`` and carries the
module's ``output`` and ``expected`` value; optionally its ``input`` (for the
automatic rule checks), ``rules`` and ``reasoning`` (a human's or a judge's
answers) and ``judge`` (an LLM judge's JSON, or its raw text, to audit). When
a record has a ``judge`` but no ``rules`` / ``reasoning``, those are read from
the judge's JSON. The result is always evaltools' own recomputation.

Fields that hold a list or an object may also be given as JSON text (CSV
cells): ``input``, ``rules``, ``reasoning``, and ``output``/``expected`` of
extraction modules. A ``judge`` string is the judge's raw text: if it is not
JSON, that is an audit finding, not a bad record.

Examples
--------
>>> r = judge({"module": "M02", "output": "OWN", "expected": "OWN",
...            "input": {"brand": "Hydro Flask", "keyword": "hydro flask 32 oz"},
...            "rules": [True, True, True, False],
...            "reasoning": {"chain_of_thought": 6, "evidence_usage": 6,
...                          "confidence_calibration": 3}})
>>> r.total_score, r.verdict
(85, 'PASS')
>>> r.to_dict()["evaluation"]["rule_compliance"]["score"]
30
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltools.errors import shorten
from evaltools.judging.audit import audit_judgment
from evaltools.judging.correctness import correctness
from evaltools.judging.explanation import audit_note, suggestions, summary_text
from evaltools.judging.judge_json import read_judgment
from evaltools.judging.reasoning import assess_reasoning
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.judging.result import JudgeResult
from evaltools.judging.rules import assess_rules
from evaltools.judging.validation import REQUIRED, Where, validate_record
from evaltools.judging.verdict import calculate_verdict
from evaltools.values import is_missing, is_record_id, plain_value

__all__ = ["REQUIRED", "JudgeResult", "error_result", "judge"]


# ---------------------------------------------------------------------------- judging


def judge(record: Mapping[str, Any], *, source: str = "<record>", line: int = 1,
          unit: str = "line", registry: Registry | None = None) -> JudgeResult:
    """Judge one record: correctness, rules, reasoning, verdict, and an audit of its judge.

    Parameters
    ----------
    record : mapping
        ``module``, ``output``, ``expected`` (required); ``id``, ``input``,
        ``rules``, ``reasoning``, ``judge`` (optional). See ``data/README.md``.
    source, line, unit : str, int, str
        Where the record comes from, for error messages ("runs.jsonl line 3").
        ``line`` is also the ``id`` when the record has none.
    registry : Registry, optional
        Modules and thresholds; the shipped ``modules.toml`` by default.

    Returns
    -------
    JudgeResult
        Immutable; ``to_dict()`` gives the template's JSON plus ``id``,
        ``module``, ``module_type``, ``issues``, ``audit`` and ``error``.

    Raises
    ------
    evaltools.errors.InputError
        When the record breaks the data contract (missing field, wrong type,
        unknown module), naming source, line and field.

    Examples
    --------
    >>> r = judge({"id": "k1", "module": "M01", "output": ["Hydro Flask", "hydroflask"],
    ...            "expected": ["Hydro Flask", "hydroflask", "hydro flask"],
    ...            "input": {"brand": "Hydro Flask"}})
    >>> r.correctness.f1, r.correctness.score, r.rule_compliance.score
    (1.0, 40, 20)
    >>> r.verdict, r.total_score
    ('FAIL', 60)
    >>> r.issues[0]
    "rule 3 'No Unrelated Terms' not assessed; counted as 0"
    >>> judge({"module": "M99", "output": 1, "expected": 1})
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: <record> line 1: field 'module': unknown module 'M99' ...
    """
    reg = registry or DEFAULT_REGISTRY
    where = Where(source, line, unit)
    rec = validate_record(record, where, reg)
    return _judge_valid(rec, line, reg)


def _judge_valid(rec: dict[str, Any], line: int, reg: Registry) -> JudgeResult:
    module: Module = rec["module"]
    output, expected, inp = rec["output"], rec["expected"], rec["input"]
    issues: list[str] = []
    corr = correctness(output, expected, module, registry=reg)
    issues.extend(corr.issues)

    answers = None
    if rec["judge"] is not None:
        answers = read_judgment(rec["judge"], module, registry=reg)

    given_rules, rules_source = rec["rules"], "record"
    if given_rules is None and answers is not None and answers.rules is not None:
        given_rules, rules_source = list(answers.rules), "judge"
    rc = assess_rules(module, output, expected, inp, given=given_rules,
                      given_source=rules_source, registry=reg)
    for i, r in enumerate(rc.rules, start=1):
        if r.compliant is None:
            issues.append(f"rule {i} '{r.name}' not assessed; counted as 0")
        elif rules_source == "record" and r.given is not None and r.check is not None \
                and r.given != r.check:
            issues.append(f"rule {i} '{r.name}': the record says "
                          f"{'compliant' if r.given else 'violated'}, the automatic check "
                          f"finds {'compliance' if r.check else 'a violation'} "
                          f"({r.check_evidence}); the check decides")
    for i, (entry, rule) in enumerate(zip(rec["rules"] or (), module.rules, strict=False),
                                      start=1):
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if isinstance(name, str) and " ".join(name.split()).casefold() != \
                " ".join(rule.name.split()).casefold():
            issues.append(f"rules item {i} is named {shorten(name)}, but rule {i} of "
                          f"{module.id} is "
                          f"'{rule.name}' (rules are read in the module's order)")
    if rec["rules"] is not None and answers is not None and answers.rules is not None:
        for i, (r, a) in enumerate(zip(rc.rules, answers.rules, strict=False), start=1):
            if r.given is not None and a["compliant"] is not None and r.given != a["compliant"]:
                issues.append(f"rule {i} '{r.name}': the judge says "
                              f"{'compliant' if a['compliant'] else 'violated'}, the record's "
                              f"rules say {'compliant' if r.given else 'violated'}")

    values, q_source = rec["reasoning"], "record"
    if values is None and answers is not None and answers.reasoning:
        values, q_source = answers.reasoning, "judge"
    q = assess_reasoning(values, source=q_source, registry=reg)
    issues.extend(q.issues)

    v = calculate_verdict(corr.score, rc.score, q.score, registry=reg)

    findings = judge_rules = None
    j_total = j_verdict = None
    if answers is not None:
        n = reg.settings.rules.count
        got = [a.get("compliant") if isinstance(a, Mapping) else None
               for a in answers.rules or ()]
        judge_rules = tuple((got + [None] * n)[:n])
        findings = audit_judgment(answers, module, correctness=corr, rule_compliance=rc,
                                  reasoning=q, verdict=v,
                                  rules_from_judge=rules_source == "judge", registry=reg)
        issues.extend(f"judge: {f.message}" for f in findings)
        if answers.judgment is not None:
            j_total = answers.judgment.get("total_score")
            j_verdict = answers.judgment.get("verdict")
            j_total = j_total if isinstance(j_total, (int, float, str)) else None
            j_verdict = j_verdict if isinstance(j_verdict, str) else None

    return JudgeResult(
        id=rec["id"] if rec["id"] is not None else line,
        module=module.id, module_type=module.type,
        correctness=corr, rule_compliance=rc, reasoning_quality=q,
        total_score=v.total, verdict=v.verdict, verdict_reason=v.reason,
        summary=summary_text(module, corr, rc, q, v, reg) + audit_note(findings),
        improvement_suggestions=suggestions(module, corr, rc, q, reg),
        issues=tuple(issues), audit=findings,
        judge_total_score=j_total, judge_verdict=j_verdict, error=None,
        judge_rules=judge_rules)


def error_result(record: Any, message: str, *, line: int = 1,
                 registry: Registry | None = None) -> JudgeResult:
    """The result for a record that breaks the contract: scores None, ``error`` set.

    >>> error_result({"id": "x", "module": "M04"}, "field 'output' is missing").to_dict()["error"]
    "field 'output' is missing"
    """
    reg = registry or DEFAULT_REGISTRY
    rid = mid = mtype = None
    if isinstance(record, Mapping):
        rid = None if is_missing(record.get("id")) else plain_value(record.get("id"))
        rid = rid if is_record_id(rid) else None  # NaN, infinite, bytes: no writable id
        m = record.get("module")
        if isinstance(m, str) and m.strip() in reg.modules:
            mid, mtype = m.strip(), reg.modules[m.strip()].type
        elif isinstance(m, str):
            mid = m
    return JudgeResult(id=rid if rid is not None else line, module=mid, module_type=mtype,
                       correctness=None, rule_compliance=None, reasoning_quality=None,
                       total_score=None, verdict=None, verdict_reason=None, summary="",
                       improvement_suggestions=(), issues=(), audit=None, error=message)
