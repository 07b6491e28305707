"""A run's summary: verdict mix, mean scores, and agreement with human labels if present."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

VERDICTS = ("PASS", "WARN", "FAIL")
SCORE_FIELDS = ("relevance", "completeness", "hallucination", "claims_score", "ngram_overlap")


@dataclass(frozen=True)
class RunSummary:
    records: int
    errors: int
    verdicts: dict[str, int]
    means: dict[str, float]
    anchors_total: int
    anchors_unsupported: int
    labelled_verdicts: int = 0
    verdict_agreement: int = 0
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: counts of (human verdict, evaltools verdict) pairs, for the agreement
    verdict_pairs: dict[tuple[str, str], int] = field(default_factory=dict)

    def agreement(self):
        """:class:`~evaltools.calibration.agreement.VerdictAgreement` with the human
        verdicts (``label_verdict``), or None when no record has one."""
        from evaltools.calibration.agreement import agreement_from_pairs

        return agreement_from_pairs(self.verdict_pairs)

    def to_dict(self) -> dict[str, Any]:
        return {"records": self.records, "errors": self.errors, "verdicts": dict(self.verdicts),
                "means": dict(self.means), "anchors_total": self.anchors_total,
                "anchors_unsupported": self.anchors_unsupported,
                "anchors_by_kind": {k: {"total": t, "unsupported": u}
                                    for k, (t, u) in self.by_kind.items()},
                "labelled_verdicts": self.labelled_verdicts,
                "verdict_agreement": self.verdict_agreement}


class SummaryBuilder:
    """Accumulates output records one at a time (constant memory).

    Examples
    --------
    >>> b = SummaryBuilder()
    >>> b.add({"verdict": "PASS", "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0,
    ...        "claims_score": 0.0, "ngram_overlap": 1.0, "anchors": [], "label_verdict": "PASS"})
    >>> s = b.build()
    >>> s.verdicts["PASS"], s.means["relevance"], s.verdict_agreement
    (1, 0.5, 1)
    """

    def __init__(self) -> None:
        self._n = 0
        self._errors = 0
        self._verdicts: Counter[str] = Counter()
        self._sums: Counter[str] = Counter()
        self._kinds: dict[str, list[int]] = {}
        self._labelled = 0
        self._agree = 0
        self._pairs: Counter[tuple[str, str]] = Counter()

    def add(self, out: dict[str, Any]) -> None:
        self._n += 1
        if out.get("error"):
            self._errors += 1
            return
        self._verdicts[out["verdict"]] += 1
        for f in SCORE_FIELDS:
            self._sums[f] += out[f]
        for a in out.get("anchors", ()):
            if not a.get("counted", True):
                continue
            t_u = self._kinds.setdefault(a["kind"], [0, 0])
            t_u[0] += 1
            t_u[1] += 0 if a["supported"] else 1
        label = out.get("label_verdict")
        if isinstance(label, str) and label.upper() in VERDICTS:
            self._labelled += 1
            self._agree += label.upper() == out["verdict"]
            self._pairs[(label.upper(), out["verdict"])] += 1

    def merge(self, other: SummaryBuilder) -> None:
        """Add the records ``other`` accumulated (one builder a partition, merged at the end)."""
        self._n += other._n
        self._errors += other._errors
        self._verdicts.update(other._verdicts)
        self._sums.update(other._sums)
        for kind, (t, u) in other._kinds.items():
            t_u = self._kinds.setdefault(kind, [0, 0])
            t_u[0] += t
            t_u[1] += u
        self._labelled += other._labelled
        self._agree += other._agree

    def build(self) -> RunSummary:
        scored = self._n - self._errors
        means = {f: (self._sums[f] / scored if scored else 0.0) for f in SCORE_FIELDS}
        return RunSummary(
            records=self._n, errors=self._errors,
            verdicts={v: self._verdicts[v] for v in VERDICTS}, means=means,
            anchors_total=sum(t for t, _ in self._kinds.values()),
            anchors_unsupported=sum(u for _, u in self._kinds.values()),
            labelled_verdicts=self._labelled, verdict_agreement=self._agree,
            by_kind={k: (t, u) for k, (t, u) in sorted(self._kinds.items())},
            verdict_pairs=dict(self._pairs))
