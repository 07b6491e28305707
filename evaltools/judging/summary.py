"""A judge run's per-module counts, accumulated one output record at a time."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ModuleStats:
    records: int = 0
    errors: int = 0
    passed: int = 0
    failed: int = 0
    total_sum: float = 0.0
    judged: int = 0
    inconsistent: int = 0
    findings: int = 0

    @property
    def mean_total(self) -> float | None:
        """Mean recomputed total over the judged (not invalid) records."""
        judged = self.passed + self.failed
        return self.total_sum / judged if judged else None


@dataclass
class JudgeSummary:
    """Per-module counts of a judge run (what ``evaltools judge`` prints); constant memory."""

    modules: dict[str, ModuleStats] = field(default_factory=dict)

    def add(self, result: Mapping[str, Any]) -> None:
        key = result.get("module") if isinstance(result.get("module"), str) else "?"
        st = self.modules.setdefault(key, ModuleStats())
        st.records += 1
        if result.get("error"):
            st.errors += 1
            return
        if result["verdict"] == "PASS":
            st.passed += 1
        else:
            st.failed += 1
        st.total_sum += result["total_score"]
        audit = result.get("audit")
        if audit is not None:
            st.judged += 1
            st.findings += len(audit)
            st.inconsistent += bool(audit)

    def merge(self, other: JudgeSummary) -> None:
        """Add the records ``other`` counted (one summary a partition, merged at the end)."""
        for key, st in other.modules.items():
            mine = self.modules.setdefault(key, ModuleStats())
            for f in dataclasses.fields(ModuleStats):
                setattr(mine, f.name, getattr(mine, f.name) + getattr(st, f.name))

    def overall(self) -> ModuleStats:
        """All modules together."""
        total = ModuleStats()
        for st in self.modules.values():
            for f in dataclasses.fields(ModuleStats):
                setattr(total, f.name, getattr(total, f.name) + getattr(st, f.name))
        return total

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Per module (and ``"all"``): the counts and the mean total."""
        items = [*self.modules.items(), ("all", self.overall())]
        return {m: {**dataclasses.asdict(st), "mean_total": st.mean_total} for m, st in items}
