"""Per-module counts of judge outputs: :class:`ModuleStats`, and :class:`JudgeSummary` by module.

One aggregation, read by every view: ``evaltools judge`` prints a
:class:`JudgeSummary`; the report (:mod:`evaltools.report.stats`) and the module
audit (:mod:`evaltools.judging.module_audit`) count with :class:`ModuleStats`.
Both are mergeable (``a + b``; ``merge`` in place), so per-part counts of a
partitioned run add up to the counts of one run.

An LLM judgment is *inconsistent* when its own figures contradict each other:
an audit finding of kind ``arithmetic`` or ``verdict``
(:data:`evaltools.judging.audit.INCONSISTENT_KINDS`). Any finding at all makes
it a judgment *with findings*.

Examples
--------
>>> a = ModuleStats.of([{"module": "M04", "verdict": "PASS", "total_score": 80, "audit": []}])
>>> b = ModuleStats.of([{"module": "M04", "verdict": "FAIL", "total_score": 65,
...                      "audit": [{"code": "total_mismatch"}, {"code": "verdict_differs"}]}])
>>> s = a + b
>>> s.records, s.passed, s.failed, s.mean_total, s.judged, s.with_findings, s.inconsistent
(2, 1, 1, 72.5, 2, 1, 1)
>>> s.findings, sorted(s.kinds.items())
(2, [('arithmetic', 1), ('verdict vs evaltools', 1)])
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltools.judging.audit import FINDING_KINDS, INCONSISTENT_KINDS
from evaltools.values import finite_float


def _finding_kind(finding: Any) -> str:
    """The kind of one audit finding (a ``Finding``, its dict, or a code)."""
    code = finding.get("code") if isinstance(finding, Mapping) else getattr(finding, "code",
                                                                             finding)
    return FINDING_KINDS.get(code, "other") if isinstance(code, str) else "other"


def _number(v: Any) -> float | None:
    return finite_float(v) if isinstance(v, (int, float)) else None


@dataclass
class ModuleStats:
    """Counts of one module's (or all modules') judge outputs; ``a + b`` adds two.

    Attributes
    ----------
    records : int
        Records counted.
    errors : int
        Invalid records (``error`` set).
    passed, failed : int
        Verdicts PASS and FAIL; ``other`` counts a valid record whose verdict
        is neither (a judged file written elsewhere).
    total_sum : float
        Sum of the recomputed totals over the ``totals`` records that have one.
    with_issues : int
        Records whose judgment lists issues.
    judged : int
        Records that carry an LLM judge's answer (audited, or a judge verdict).
    verdict_differs : int
        Judged records whose LLM verdict (PASS or FAIL) differs from the recomputed one.
    with_findings : int
        Judged records with at least one audit finding.
    inconsistent : int
        Judged records whose figures contradict each other (see the module docstring).
    findings : int
        Audit findings in all.
    kinds : Counter
        Per finding kind, the judged records with at least one finding of it.
    """

    records: int = 0
    errors: int = 0
    passed: int = 0
    failed: int = 0
    other: int = 0
    total_sum: float = 0.0
    totals: int = 0
    with_issues: int = 0
    judged: int = 0
    with_findings: int = 0
    inconsistent: int = 0
    verdict_differs: int = 0
    findings: int = 0
    kinds: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, results: Iterable[Any]) -> ModuleStats:
        """Counts of ``results`` (``JudgeResult`` objects or their ``to_dict()`` records)."""
        out = cls()
        for r in results:
            out.add(r)
        return out

    def add(self, result: Any) -> None:
        """Count one judge output (a ``JudgeResult`` or a record with its fields)."""
        get = result.get if isinstance(result, Mapping) else \
            (lambda k, _r=result: getattr(_r, k, None))
        self.records += 1
        if get("error"):
            self.errors += 1
            return
        verdict = get("verdict")
        if verdict == "PASS":
            self.passed += 1
        elif verdict == "FAIL":
            self.failed += 1
        else:
            self.other += 1
        total = finite_float(get("total_score"))
        if total is not None:
            self.total_sum += total
            self.totals += 1
        self.with_issues += bool(get("issues"))
        audit = get("audit")
        llm_verdict = get("judge_verdict")
        if llm_verdict is None and isinstance(get("judge"), Mapping):
            llm_verdict = get("judge").get("verdict")  # a judged file without an audit
        if isinstance(audit, (list, tuple)) or isinstance(llm_verdict, str):
            self.judged += 1
            self.verdict_differs += llm_verdict in ("PASS", "FAIL") and llm_verdict != verdict
        if isinstance(audit, (list, tuple)):
            kinds = {_finding_kind(f) for f in audit}
            self.findings += len(audit)
            self.with_findings += bool(audit)
            self.inconsistent += bool(kinds & set(INCONSISTENT_KINDS))
            self.kinds.update(sorted(kinds))

    def merge(self, other: ModuleStats) -> None:
        """Add the records ``other`` counted, in place."""
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def __add__(self, other: ModuleStats) -> ModuleStats:
        if not isinstance(other, ModuleStats):
            return NotImplemented
        out = dataclasses.replace(self, kinds=Counter(self.kinds))
        out.merge(other)
        return out

    @property
    def valid(self) -> int:
        """Records judged without error."""
        return self.records - self.errors

    @property
    def mean_total(self) -> float | None:
        """Mean recomputed total over the records that have one."""
        return self.total_sum / self.totals if self.totals else None

    def verdicts(self) -> dict[str, int]:
        """Records per verdict, invalid ones as ``ERROR`` (what verdict bars draw)."""
        out = {"PASS": self.passed, "FAIL": self.failed, "ERROR": self.errors}
        if self.other:
            out["other"] = self.other
        return out

    def to_dict(self) -> dict[str, Any]:
        """The counts, ``kinds`` as a plain dict, and the mean total."""
        return {**dataclasses.asdict(self), "kinds": dict(self.kinds),
                "mean_total": self.mean_total}


@dataclass
class JudgeSummary:
    """Per-module :class:`ModuleStats` of a judge run (what ``evaltools judge`` prints).

    Constant memory; ``a + b`` (or ``merge`` in place) adds a partition's counts.
    """

    modules: dict[str, ModuleStats] = field(default_factory=dict)

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one output record under its module (``"?"`` when it names none)."""
        key = result.get("module") if isinstance(result.get("module"), str) else "?"
        self.modules.setdefault(key, ModuleStats()).add(result)

    def merge(self, other: JudgeSummary) -> None:
        """Add the records ``other`` counted (one summary a partition, merged at the end)."""
        for key, st in other.modules.items():
            self.modules.setdefault(key, ModuleStats()).merge(st)

    def __add__(self, other: JudgeSummary) -> JudgeSummary:
        if not isinstance(other, JudgeSummary):
            return NotImplemented
        out = JudgeSummary()
        out.merge(self)
        out.merge(other)
        return out

    def overall(self) -> ModuleStats:
        """All modules together."""
        return sum(self.modules.values(), ModuleStats())

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Per module (and ``"all"``): the counts and the mean total."""
        items = [*self.modules.items(), ("all", self.overall())]
        return {m: st.to_dict() for m, st in items}
