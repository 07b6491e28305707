"""The immutable result of judging one record, in the template's JSON format.

:meth:`JudgeResult.to_dict` gives the template's object — ``evaluation``
(``correctness``, ``rule_compliance``, ``reasoning_quality``),
``total_score``, ``verdict``, ``summary``, ``improvement_suggestions`` —
plus ``id``, ``module``, ``module_type``, ``verdict_reason``, ``issues``,
``audit`` (the findings about an LLM judge's JSON; None when the record had
no judge), ``judge_total_score`` and ``judge_verdict`` (what the judge
claimed) and ``error``. :meth:`JudgeResult.to_row` flattens it for a
DataFrame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from evaltools.judging.correctness import Correctness
from evaltools.judging.reasoning import Reasoning
from evaltools.judging.rules import RuleCompliance, RuleResult
from evaltools.judging.template_json import TemplateJSON
from evaltools.schema import Schema

#: The judged record: every field of ``JudgeResult.to_dict()``, in order, with its kind
#: (:mod:`evaltools.schema`); Parquet kinds of ``evaltools judge`` output derive from it.
JUDGE_SCHEMA = Schema((
    ("id", "id"), ("module", "text"), ("module_type", "text"), ("evaluation", "json"),
    ("total_score", "number"), ("verdict", "text"), ("summary", "text"),
    ("improvement_suggestions", "json"), ("verdict_reason", "text"), ("issues", "json"),
    ("audit", "json"), ("judge_total_score", "json"), ("judge_verdict", "text"),
    ("error", "text"),
))
#: The flat row of ``JudgeResult.to_row()`` (DataFrames), in order, with its kind.
JUDGE_ROW_SCHEMA = Schema((
    ("id", "id"), ("module", "text"), ("module_type", "text"), ("correctness_score", "score"),
    ("match", "flag"), ("match_level", "text"), ("precision", "score"), ("recall", "score"),
    ("f1", "score"), ("credit_band", "text"), ("rule_compliance_score", "score"),
    ("rule_1", "flag"), ("rule_2", "flag"), ("rule_3", "flag"), ("rule_4", "flag"),
    ("reasoning_score", "score"), ("chain_of_thought", "score"), ("evidence_usage", "score"),
    ("confidence_calibration", "score"), ("reasoning_band", "text"), ("total_score", "score"),
    ("verdict", "text"), ("verdict_reason", "text"), ("issues", "json"),
    ("audit_findings", "number"), ("audit_codes", "json"), ("judge_total_score", "json"),
    ("judge_verdict", "text"), ("error", "text"),
))



def is_judge_output(fields) -> bool:
    """Whether a record's fields are ``evaltools judge`` output (a total and a module or
    an evaluation), not a record to judge.

    >>> is_judge_output({"module": "M04", "total_score": 80}), is_judge_output({"module": "M04"})
    (True, False)
    """
    return "total_score" in fields and ("module" in fields or "evaluation" in fields)

@dataclass(frozen=True)
class Finding:
    """One inconsistency in an LLM judge's JSON.

    ``code`` is one of the codes listed in ``docs/judge.md`` (e.g.
    ``total_mismatch``); ``path`` is where in the judge's JSON
    (``evaluation.rule_compliance.rules[2].score``), or ``""`` for the whole.
    """

    code: str
    path: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}


@dataclass(frozen=True)
class JudgeResult:
    """evaltools' own judgment of one record (see the module docstring for ``to_dict``)."""

    id: Any
    module: str | None
    module_type: str | None
    correctness: Correctness | None
    rule_compliance: RuleCompliance | None
    reasoning_quality: Reasoning | None
    total_score: float | None
    verdict: str | None
    verdict_reason: str | None
    summary: str
    improvement_suggestions: tuple[str, ...]
    issues: tuple[str, ...]
    audit: tuple[Finding, ...] | None = None
    judge_total_score: Any = None
    judge_verdict: Any = None
    error: str | None = None
    #: The LLM judge's ``compliant`` answer per rule (True, False or None each), as the
    #: audit read them; None without a judge. Not an output field (``to_dict`` leaves it out).
    judge_rules: tuple[bool | None, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, in the template's format plus evaltools' keys.

        >>> from evaltools.judging import judge
        >>> d = judge({"id": "x", "module": "M16", "output": True, "expected": True}).to_dict()
        >>> d["evaluation"]["correctness"]["score"], d["total_score"], d["verdict"]
        (40, 40, 'FAIL')
        """
        evaluation = None
        if self.correctness is not None:
            evaluation = {
                "correctness": self.correctness.to_dict(self.module_type or ""),
                "rule_compliance": self.rule_compliance.to_dict(),
                "reasoning_quality": self.reasoning_quality.to_dict(),
            }
        return {
            "id": self.id,
            "module": self.module,
            "module_type": self.module_type,
            "evaluation": evaluation,
            "total_score": self.total_score,
            "verdict": self.verdict,
            "summary": self.summary,
            "improvement_suggestions": list(self.improvement_suggestions),
            "verdict_reason": self.verdict_reason,
            "issues": list(self.issues),
            "audit": None if self.audit is None else [f.to_dict() for f in self.audit],
            "judge_total_score": self.judge_total_score,
            "judge_verdict": self.judge_verdict,
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> JudgeResult:
        """The result a :meth:`to_dict` object (a line of ``evaltools judge`` output) holds.

        The template's sections are read through
        :class:`~evaltools.judging.template_json.TemplateJSON`. What ``to_dict``
        leaves out is not restored: the rules' descriptions and automatic-check
        answers, the sections' issues and ``judge_rules``; so
        ``from_dict(r.to_dict()).to_dict() == r.to_dict()``.

        >>> from evaltools.judging import judge
        >>> d = judge({"id": 7, "module": "M09", "output": ["gym"],
        ...            "expected": ["gym", "hiking"]}).to_dict()
        >>> r = JudgeResult.from_dict(d)
        >>> r.correctness.f1, r.rule_compliance.score, r.verdict, r.to_dict() == d
        (0.6667, 10, 'FAIL', True)
        """
        t = TemplateJSON.of(d)
        correctness = rules = reasoning = None
        if t.correctness is not None:
            c = t.correctness
            correctness = Correctness(
                score=c.get("score"), output_value=c.get("output_value"),
                expected_value=c.get("expected_value"), match=c.get("match"),
                match_level=c.get("match_level"), details=c.get("details"),
                precision=c.get("precision"), recall=c.get("recall"), f1=c.get("f1"),
                credit_band=c.get("credit_band"), missing=tuple(c.get("missing") or ()),
                extra=tuple(c.get("extra") or ()))
        if t.rule_compliance is not None:
            rules = RuleCompliance(t.rules_score, tuple(
                RuleResult(name=r.name, description="", compliant=r.compliant,
                           score=r.score, evidence=r.evidence, source=r.raw.get("source"))
                for r in t.rules or () if r.is_object))
        if t.reasoning_quality is not None:
            q = t.reasoning_quality
            reasoning = Reasoning(
                score=q.get("score"), chain_of_thought=q.get("chain_of_thought"),
                evidence_usage=q.get("evidence_usage"),
                confidence_calibration=q.get("confidence_calibration"), band=q.get("band"),
                items=MappingProxyType(dict(q.get("items") or {})), source=q.get("source"))
        audit = d.get("audit")
        return cls(
            id=d.get("id"), module=d.get("module"), module_type=d.get("module_type"),
            correctness=correctness, rule_compliance=rules, reasoning_quality=reasoning,
            total_score=t.total_score, verdict=t.verdict,
            verdict_reason=d.get("verdict_reason"), summary=t.summary,
            improvement_suggestions=tuple(d.get("improvement_suggestions") or ()),
            issues=tuple(d.get("issues") or ()),
            audit=None if audit is None else tuple(
                Finding(f["code"], f["path"], f["message"]) for f in audit),
            judge_total_score=d.get("judge_total_score"),
            judge_verdict=d.get("judge_verdict"), error=d.get("error"))

    def to_row(self) -> dict[str, Any]:
        """One flat row: section scores, per-rule compliance, counts; for DataFrames.

        Columns: ``id, module, module_type, correctness_score, match, match_level,
        precision, recall, f1, credit_band, rule_compliance_score,
        rule_1 .. rule_4`` (True/False/None), ``reasoning_score, chain_of_thought,
        evidence_usage, confidence_calibration, reasoning_band, total_score,
        verdict, verdict_reason, issues, audit_findings`` (count, None without a
        judge), ``audit_codes, judge_total_score, judge_verdict, error``.

        >>> from evaltools.judging import judge
        >>> row = judge({"module": "M09", "output": ["gym"], "expected": ["gym", "hiking"],
        ...              "rules": [True, True, False, None]}).to_row()
        >>> row["f1"], row["correctness_score"], row["rule_1"], row["rule_4"], row["verdict"]
        (0.6667, 26.67, True, None, 'FAIL')
        """
        c, rc, q = self.correctness, self.rule_compliance, self.reasoning_quality
        row: dict[str, Any] = {
            "id": self.id, "module": self.module, "module_type": self.module_type,
            "correctness_score": c.score if c else None,
            "match": c.match if c else None,
            "match_level": c.match_level if c else None,
            "precision": c.precision if c else None,
            "recall": c.recall if c else None,
            "f1": c.f1 if c else None,
            "credit_band": c.credit_band if c else None,
            "rule_compliance_score": rc.score if rc else None,
        }
        for i in range(4):
            row[f"rule_{i + 1}"] = (rc.rules[i].compliant
                                    if rc is not None and i < len(rc.rules) else None)
        row.update({
            "reasoning_score": q.score if q else None,
            "chain_of_thought": q.chain_of_thought if q else None,
            "evidence_usage": q.evidence_usage if q else None,
            "confidence_calibration": q.confidence_calibration if q else None,
            "reasoning_band": q.band if q else None,
            "total_score": self.total_score,
            "verdict": self.verdict,
            "verdict_reason": self.verdict_reason,
            "issues": list(self.issues),
            "audit_findings": None if self.audit is None else len(self.audit),
            "audit_codes": None if self.audit is None else [f.code for f in self.audit],
            "judge_total_score": self.judge_total_score,
            "judge_verdict": self.judge_verdict,
            "error": self.error,
        })
        return row
