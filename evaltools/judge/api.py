"""Judging one record: ``judge`` (and ``error_result`` for a record that breaks the contract).

Many records: :mod:`evaltools.judge.stream` (``judge_stream``, ``judge_records``,
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

import json
import math
from collections.abc import Mapping
from typing import Any

from evaltools.errors import InputError
from evaltools.judge.audit import audit_judgment, read_judgment
from evaltools.judge.correctness import Correctness, correctness, value_problem
from evaltools.judge.reasoning import Reasoning, assess_reasoning, reasoning_problems
from evaltools.judge.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.judge.result import JudgeResult
from evaltools.judge.rules import RuleCompliance, assess_rules
from evaltools.judge.verdict import Verdict, calculate_verdict

REQUIRED = ("module", "output", "expected")

__all__ = ["REQUIRED", "JudgeResult", "error_result", "judge"]


def _missing(v: Any) -> bool:
    """None, NaN and pandas' NA (DataFrames) and empty text (CSV cells): not given."""
    return (v is None or (isinstance(v, float) and math.isnan(v))
            or (isinstance(v, str) and not v.strip())
            or type(v).__name__ in ("NAType", "NaTType"))


def _plain(v: Any) -> Any:
    """numpy arrays/scalars (from DataFrames and Parquet) as plain Python values."""
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return _plain(v.tolist())
    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


class _Where:
    def __init__(self, source: str, line: int, unit: str):
        self.source, self.line, self.unit = source, line, unit

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, source=self.source, line=self.line, field=field,
                          unit=self.unit)


def _json_text(value: Any, field: str, want: str, where: _Where) -> Any:
    """A str holding JSON is parsed (CSV cells); anything else is returned as is."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except (json.JSONDecodeError, ValueError) as exc:
        raise where.error(f"field '{field}' must be {want} (or JSON text of one); "
                          f"got text that is not valid JSON ({exc.msg}): {value[:40]!r}",
                          field) from None


def _validate(record: Any, where: _Where, registry: Registry) -> dict[str, Any]:
    """The record's fields, checked and parsed; an InputError naming the field otherwise."""
    if not isinstance(record, Mapping):
        raise where.error(f"a record must be an object, got {type(record).__name__}")
    rec = {k: (None if _missing(v) else _plain(v)) for k, v in record.items()}
    for f in REQUIRED:
        if rec.get(f) is None:
            what = "is empty" if isinstance(record.get(f), str) else "is missing"
            raise where.error(f"field '{f}' {what} (required: {', '.join(REQUIRED)})", f)
    mid = rec["module"]
    if not isinstance(mid, str):
        raise where.error(f"field 'module' must be a string, got {type(mid).__name__}",
                          "module")
    mid = mid.strip()
    if mid not in registry.modules:
        raise where.error(f"field 'module': unknown module {mid!r} "
                          f"(known: {', '.join(registry.modules)})", "module")
    module = registry.modules[mid]
    out = {"module": module, "id": rec.get("id")}
    for f in ("output", "expected"):
        v = rec[f]
        if module.type == "extraction":
            v = _json_text(v, f, "a list of strings", where)
        problem = value_problem(v, module)
        if problem:
            raise where.error(f"field '{f}' {problem} (module {mid} is {module.type})", f)
        out[f] = v
    inp = _json_text(rec.get("input"), "input", "an object", where)
    if inp is not None and not isinstance(inp, Mapping):
        raise where.error(f"field 'input' must be an object, got {type(inp).__name__}",
                          "input")
    out["input"] = inp
    out["rules"] = _validate_rules(rec.get("rules"), where, registry)
    reasoning = _json_text(rec.get("reasoning"), "reasoning", "an object", where)
    if reasoning is not None:
        if not isinstance(reasoning, Mapping):
            raise where.error(f"field 'reasoning' must be an object, got "
                              f"{type(reasoning).__name__}", "reasoning")
        problems = reasoning_problems(reasoning, registry=registry)
        if problems:
            raise where.error(f"field 'reasoning': {problems[0][1]}", "reasoning")
        reasoning = {k: v for k, v in reasoning.items() if v is not None}
    out["reasoning"] = reasoning
    jv = rec.get("judge")
    if jv is not None and not isinstance(jv, (str, Mapping)):
        raise where.error(f"field 'judge' must be the judge's JSON object or its text, got "
                          f"{type(jv).__name__}", "judge")
    out["judge"] = jv
    return out


def _validate_rules(value: Any, where: _Where, registry: Registry) -> list[Any] | None:
    value = _json_text(value, "rules", "a list", where)
    if value is None:
        return None
    n = registry.settings.rules.count
    want = (f"a list of {n} booleans or {n} {{compliant, evidence}} objects "
            "(null for not assessed)")
    if not isinstance(value, (list, tuple)) or len(value) != n:
        got = f"{len(value)} items" if isinstance(value, (list, tuple)) else \
            type(value).__name__
        raise where.error(f"field 'rules' must be {want}, got {got}", "rules")
    for i, entry in enumerate(value, start=1):
        if entry is None or isinstance(entry, bool):
            continue
        if isinstance(entry, Mapping):
            c, ev = entry.get("compliant"), entry.get("evidence")
            if (c is None or isinstance(c, bool)) and (ev is None or isinstance(ev, str)):
                continue
            raise where.error(f"field 'rules' item {i}: compliant must be true, false or "
                              f"null and evidence a string; got {dict(entry)!r}", "rules")
        raise where.error(f"field 'rules' item {i} must be a boolean, null or a "
                          f"{{compliant, evidence}} object, got {entry!r}", "rules")
    return list(value)


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
    where = _Where(source, line, unit)
    rec = _validate(record, where, reg)
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
            issues.append(f"rules item {i} is named {name!r}, but rule {i} of {module.id} is "
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

    findings = None
    j_total = j_verdict = None
    if answers is not None:
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
        summary=_summary(module, corr, rc, q, v, reg) + _audit_note(findings),
        improvement_suggestions=_suggestions(module, corr, rc, q, reg),
        issues=tuple(issues), audit=findings,
        judge_total_score=j_total, judge_verdict=j_verdict, error=None)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _summary(module: Module, c: Correctness, rc: RuleCompliance, q: Reasoning, v: Verdict,
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


def _audit_note(findings: tuple | None) -> str:
    if findings is None:
        return ""
    if not findings:
        return " The LLM judge's JSON is consistent."
    codes = ", ".join(dict.fromkeys(f.code for f in findings))
    n = len(findings)
    return f" The LLM judge's JSON has {n} inconsistenc{'y' if n == 1 else 'ies'} ({codes})."


def _suggestions(module: Module, c: Correctness, rc: RuleCompliance, q: Reasoning,
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


def error_result(record: Any, message: str, *, line: int = 1,
                 registry: Registry | None = None) -> JudgeResult:
    """The result for a record that breaks the contract: scores None, ``error`` set.

    >>> error_result({"id": "x", "module": "M04"}, "field 'output' is missing").to_dict()["error"]
    "field 'output' is missing"
    """
    reg = registry or DEFAULT_REGISTRY
    rid = mid = mtype = None
    if isinstance(record, Mapping):
        rid = None if _missing(record.get("id")) else _plain(record.get("id"))
        m = record.get("module")
        if isinstance(m, str) and m.strip() in reg.modules:
            mid, mtype = m.strip(), reg.modules[m.strip()].type
        elif isinstance(m, str):
            mid = m
    return JudgeResult(id=rid if rid is not None else line, module=mid, module_type=mtype,
                       correctness=None, rule_compliance=None, reasoning_quality=None,
                       total_score=None, verdict=None, verdict_reason=None, summary="",
                       improvement_suggestions=(), issues=(), audit=None, error=message)
