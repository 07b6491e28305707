"""The report's accumulated data: :class:`ReportStats`, filled record by record.

The stats stream: they keep counts, one float per record and score, and
bounded top-k heaps of the worst records, never the records themselves, so a
report over any number of records costs memory in proportion to the record
count times a few floats, and its size is bounded by
:class:`~evaltools.report.model.Limits`.

No score is computed here. Verdicts, scores, anchors, issues come from the
records (scored and judged by :mod:`evaltools.scoring` and
:mod:`evaltools.judging`). The sections (:mod:`evaltools.report.sections`,
:mod:`evaltools.report.calibration`) read a ``ReportStats``; the builder
(:mod:`evaltools.report.build`) owns one and turns it into a report, so the
import graph runs build -> sections -> stats, never back.

Examples
--------
>>> s = ReportStats()
>>> s.add_scored({"id": "a", "relevance": 0.8, "completeness": 1.0, "hallucination": 0.0,
...               "verdict": "PASS", "reasons": ["all thresholds met"], "anchors": []})
>>> s.n_scored, s.scored_verdicts["PASS"]
(1, 1)
"""

from __future__ import annotations

import heapq
import itertools
import json
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltools.config import DEFAULT_CONFIG
from evaltools.judging.judge_json import TemplateJSON
from evaltools.judging.registry import DEFAULT_REGISTRY
from evaltools.judging.summary import ModuleStats
from evaltools.report.cases import case_payload
from evaltools.report.cells import _as_list, _num, _verdict, clip
from evaltools.report.model import (
    InputFile,
    Limits,
)
from evaltools.scoring.result import SCORE_FIELDS, VERDICT_SCORES
from evaltools.scoring.summary import AnchorCounts, ScoreStats, worst_key

SCORE_NAMES = VERDICT_SCORES
EXTRA_SCORES = tuple(f for f in SCORE_FIELDS if f not in VERDICT_SCORES)
#: Human labels a scored record may carry (data contract).
LABEL_FIELDS = ("label_hallucinated", "label_relevant", "label_verdict")
#: What the builder keeps of each labelled record, for calibration.
LABELLED_COLUMNS = ("id", *SCORE_NAMES, "verdict", "reasons", "hallucination_probability",
                    *LABEL_FIELDS)


# ----------------------------------------------------------------------------- helpers


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, mean, standard deviation, min, 10th/50th/90th percentiles, max.

    A statistic that is not finite (values near the float limit) is ``None``.

    Examples
    --------
    >>> d = describe([0.0, 0.5, 1.0])
    >>> d["n"], d["mean"], d["median"], d["max"]
    (3, 0.5, 0.5, 1.0)
    >>> describe([])["mean"] is None
    True
    >>> describe([1e308, -1e308])["std"] is None
    True
    """
    import numpy as np

    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return {"n": 0, "mean": None, "std": None, "min": None, "p10": None,
                "median": None, "p90": None, "max": None}
    with np.errstate(over="ignore", invalid="ignore"):  # values near 1e308 in a bad file
        stats = {"mean": a.mean(), "std": a.std(), "min": a.min(), "max": a.max()}
        stats.update(zip(("p10", "median", "p90"), np.percentile(a, [10, 50, 90]), strict=True))
    return {"n": int(a.size)} | {k: _num(float(stats[k])) for k in
                                 ("mean", "std", "min", "p10", "median", "p90", "max")}


def _issue_text(issue: Any) -> str:
    if isinstance(issue, str):
        return issue
    if isinstance(issue, Mapping):
        for key in ("message", "text", "detail", "issue"):
            if isinstance(issue.get(key), str):
                return issue[key]
    return json.dumps(issue, ensure_ascii=False, default=str)


def _issue_kind(issue: Any) -> str:
    if isinstance(issue, Mapping):
        for key in ("kind", "code", "type"):
            if isinstance(issue.get(key), str):
                return issue[key]
    text = _issue_text(issue)
    head = text.split(":", 1)[0].strip()
    return head if 0 < len(head) <= 60 else clip(text, 60)


class _TopK:
    """The k largest items by key; ties keep the earliest added (deterministic)."""

    def __init__(self, k: int):
        self.k = k
        self._heap: list[tuple[Any, int, Any]] = []
        self._seq = itertools.count()
        self.seen = 0

    def would_keep(self, key: Any) -> bool:
        return len(self._heap) < self.k or key > self._heap[0][0]

    def push(self, key: Any, make_payload) -> None:
        self.seen += 1
        if not self.would_keep(key):
            return
        item = (key, -next(self._seq), make_payload())
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, item)
        else:
            heapq.heapreplace(self._heap, item)

    def items(self) -> list[Any]:
        return [p for _, _, p in sorted(self._heap, reverse=True)]

    def merge(self, other: _TopK, shift=lambda key: key) -> None:
        """Keep the k largest of both; ``other``'s items count as added after this one's
        (ties keep this one's first), its keys moved by ``shift``."""
        offset = self.seen
        for key, negseq, payload in other._heap:
            item = (shift(key), negseq - offset, payload)
            if len(self._heap) < self.k:
                heapq.heappush(self._heap, item)
            elif item[:2] > self._heap[0][:2]:
                heapq.heapreplace(self._heap, item)
        self.seen += other.seen
        self._seq = itertools.count(offset + other.seen + 1)


@dataclass
class _ModuleAcc:
    """One module's counts (the judge run's :class:`ModuleStats`) and score arrays."""

    counts: ModuleStats = field(default_factory=ModuleStats)
    correctness: array = field(default_factory=lambda: array("d"))
    rules: array = field(default_factory=lambda: array("d"))
    reasoning: array = field(default_factory=lambda: array("d"))
    total: array = field(default_factory=lambda: array("d"))
    #: Per reasoning sub-score of the registry (chain_of_thought, ...): its values.
    subscores: dict[str, array] = field(default_factory=lambda: defaultdict(lambda: array("d")))
    rule_names: dict[int, str] = field(default_factory=dict)
    rule_violations: Counter = field(default_factory=Counter)
    rule_assessed: Counter = field(default_factory=Counter)
    match_levels: Counter = field(default_factory=Counter)
    f1: array = field(default_factory=lambda: array("d"))
    module_type: str | None = None

    def merge(self, other: _ModuleAcc) -> None:
        """Add ``other``'s counts and values (another part of the same module's records)."""
        self.counts.merge(other.counts)
        for name in ("correctness", "rules", "reasoning", "total", "f1"):
            getattr(self, name).extend(getattr(other, name))
        for name, values in other.subscores.items():
            self.subscores[name].extend(values)
        for i, name in other.rule_names.items():
            self.rule_names.setdefault(i, name)
        self.rule_violations.update(other.rule_violations)
        self.rule_assessed.update(other.rule_assessed)
        self.match_levels.update(other.match_levels)
        self.module_type = self.module_type or other.module_type


# ----------------------------------------------------------------------------- builder


class ReportStats:
    """What a report shows, accumulated record by record (counts, scores, bounded top-k).

    The report sections read these fields; :class:`evaltools.report.build.ReportBuilder`
    adds :meth:`~evaltools.report.build.ReportBuilder.build`.

    Parameters
    ----------
    config : evaltools.config.Config, optional
        The configuration shown in the report and whose thresholds are drawn
        on the plots; the default configuration when None.
    registry : evaltools.judging.registry.Registry, optional
        The judge modules and thresholds (names, PASS line); the shipped
        registry when None.
    limits : Limits, optional
        How much of a large input is shown.
    title : str
        The report's title.
    """

    def __init__(self, *, config=None, registry=None, limits: Limits | None = None,
                 title: str = "evaltools report"):
        self.config = config if config is not None else DEFAULT_CONFIG
        self.registry = registry if registry is not None else DEFAULT_REGISTRY
        self.limits = limits or Limits()
        self.title = title
        self.inputs: list[InputFile] = []
        # scoring: the counts as ``evaltools score`` counts them, plus each score's values
        self.scored = ScoreStats()
        self.n_recomputed = 0
        self.scores: dict[str, array] = {n: array("d") for n in SCORE_NAMES + EXTRA_SCORES}
        keep = max(self.limits.worst_cases, self.limits.table_rows)
        self.worst = _TopK(keep)
        self.errors = _TopK(self.limits.table_rows)
        self.labelled: dict[str, list[Any]] = {k: [] for k in LABELLED_COLUMNS}
        # judging
        self.n_judged = 0
        self.modules: dict[str, _ModuleAcc] = defaultdict(_ModuleAcc)
        self.judge_failing = _TopK(self.limits.table_rows)
        self.judge_issues = _TopK(self.limits.table_rows)
        self.issue_kinds: Counter = Counter()
        self.judge_labels: list[tuple[Any, Any]] = []
        self.llm_verdicts: list[tuple[Any, Any]] = []
        # how LLM judges were asked (``judge_llm`` of ``evaltools judge --llm``), by model
        self.llm_usage: dict[str, dict[str, Any]] = {}

    # -- what the scoring counts say (through ``self.scored``) ----------------------

    def _error_count(self) -> int:
        """Invalid records so far, scored and judged: the errors table lists them in order."""
        return self.scored_errors + sum(m.counts.errors for m in self.modules.values())

    @property
    def n_scored(self) -> int:
        return self.scored.records

    @property
    def scored_errors(self) -> int:
        return self.scored.errors

    @property
    def anchors(self) -> AnchorCounts:
        return self.scored.anchors

    @property
    def scored_verdicts(self) -> Counter:
        """Scored records per verdict; ``ERROR``: an error or no verdict."""
        out: Counter = Counter()
        for v, n in self.scored.verdict_counts().items():
            out[_verdict(v) or "ERROR"] += n
        out["ERROR"] += self.scored.errors
        return out

    # -- adding ---------------------------------------------------------------------

    def add_input(self, info: InputFile) -> None:
        """Record one input file's provenance."""
        self.inputs.append(info)

    def add_scored(self, rec: Mapping[str, Any], *, source: str = "", line: int = 0,
                   recomputed: bool = False) -> None:
        """Add one scored record (input fields plus the scorer's output fields)."""
        self.scored.add(rec)
        self.n_recomputed += bool(recomputed)
        lim = self.limits
        rid = clip(str(rec.get("id") if rec.get("id") is not None else line), 60)
        if rec.get("error"):
            self.errors.push(-self._error_count(), lambda: (
                rid, source, line, clip(rec.get("error"), lim.cell_chars)))
            return
        for name, arr in self.scores.items():
            v = _num(rec.get(name))
            if v is not None:
                arr.append(v)
        if any(rec.get(k) is not None for k in LABEL_FIELDS):
            for k in LABELLED_COLUMNS:
                v = rec.get(k)
                if k == "id":
                    v = rid
                elif k == "reasons":
                    v = clip("; ".join(map(str, _as_list(v))), lim.cell_chars)
                elif k in ("verdict", "label_verdict"):
                    v = _verdict(v)
                elif k not in LABEL_FIELDS:
                    v = _num(v)
                elif not isinstance(v, (int, float, str)):
                    v = None
                self.labelled[k].append(v)
        self.worst.push(worst_key(rec), lambda: case_payload(rec, rid, source, line, self.limits))

    def add_judged(self, rec: Mapping[str, Any], *, source: str = "", line: int = 0,
                   recomputed: bool = False) -> None:
        """Add one judged record (the template's JSON plus id, module, issues, error)."""
        self.n_judged += 1
        lim = self.limits
        module = clip(str(rec.get("module") or "?"), 60)
        acc = self.modules[module]
        acc.counts.add(rec)
        acc.module_type = acc.module_type or _verdict(rec.get("module_type"))
        rid = clip(str(rec.get("id") if rec.get("id") is not None else line), 60)
        self._add_llm_usage(rec.get("judge_llm"))
        if rec.get("error"):
            self.errors.push(-self._error_count(),
                             lambda: (rid, source, line,
                                      clip(rec.get("error"), lim.cell_chars)))
            return
        verdict = _verdict(rec.get("verdict"))
        t = TemplateJSON.of(rec)
        parts = {"correctness": _num(t.correctness_score),
                 "rules": _num(t.rules_score),
                 "reasoning": _num(t.reasoning_score),
                 "total": _num(t.total_score)}
        for name, v in parts.items():
            if v is not None:
                getattr(acc, name).append(v)
        level = t.match_level
        if level is None and isinstance(t.match, bool):
            level = "YES" if t.match else "NO"
        if level is not None:
            acc.match_levels[clip(str(level), 20)] += 1
        f1 = _num(t.f1)
        if f1 is not None:
            acc.f1.append(f1)
        for sub in self.registry.settings.reasoning.subscores:
            v = _num(t.reasoning_value(sub.name))
            if v is not None:
                acc.subscores[sub.name].append(v)
        for i, rule in enumerate(t.rules or ()):
            if not rule.is_object:
                continue
            if rule.name:
                acc.rule_names.setdefault(i, clip(str(rule.name), lim.cell_chars))
            compliant = rule.compliant
            if compliant is None:
                continue
            acc.rule_assessed[i] += 1
            if not compliant:
                acc.rule_violations[i] += 1
        issues = _as_list(rec.get("issues"))
        if issues:
            self.judge_issues.push((len(issues), -self.n_judged), lambda: (
                rid, module, verdict, parts["total"],
                "; ".join(_issue_text(i) for i in issues)))
        # The LLM judge's own figures, as the judge audit left them.
        audit = rec.get("audit")
        for finding in audit if isinstance(audit, list) else ():
            self.issue_kinds[(module, _issue_kind(finding))] += 1
        llm_verdict = _verdict(rec.get("judge_verdict"))
        if llm_verdict is None:
            llm_verdict = _verdict(TemplateJSON.of(rec.get("judge")).verdict)
        if llm_verdict is not None:
            self.llm_verdicts.append((llm_verdict, verdict))
        if _verdict(rec.get("label_verdict")) is not None and verdict is not None:
            self.judge_labels.append((_verdict(rec.get("label_verdict")), verdict))
        if verdict == "FAIL":
            total = parts["total"] if parts["total"] is not None else 0.0
            self.judge_failing.push((-total, -self.n_judged), lambda: (
                rid, module, parts["total"], parts["correctness"], parts["rules"],
                parts["reasoning"], clip(t.output_value if t.output_value is not None
                                         else rec.get("output"), lim.cell_chars),
                clip(t.expected_value if t.expected_value is not None
                     else rec.get("expected"), lim.cell_chars),
                clip(rec.get("summary"), lim.cell_chars)))

    def _add_llm_usage(self, info: Any) -> None:
        """Count one record's ``judge_llm``: answered or not, readable or not, tokens, cost."""
        if not isinstance(info, Mapping):
            return
        model = clip(str(info.get("model") or "?"), 60)
        if model not in self.llm_usage and len(self.llm_usage) >= self.limits.table_rows:
            model = "(other models)"
        u = self.llm_usage.setdefault(model, {"records": 0, "failed": 0, "unreadable": 0,
                                              "prompt_tokens": 0.0, "completion_tokens": 0.0,
                                              "cost": 0.0, "priced": 0})
        u["records"] += 1
        error = info.get("error")
        if error:
            u["unreadable" if info.get("answer") is not None else "failed"] += 1
        for key in ("prompt_tokens", "completion_tokens"):
            v = _num(info.get(key))
            u[key] += v if v is not None and v >= 0 else 0.0
        cost = _num(info.get("cost_usd"))
        if cost is not None and cost >= 0:
            u["cost"] += cost
            u["priced"] += 1

    def merge(self, other: ReportStats) -> None:
        """Add what ``other`` accumulated, as if its records had been added after this
        one's (a report built from parts: one ``ReportStats`` a part, merged in order)."""
        errors, judged = self._error_count(), self.n_judged
        self.inputs.extend(other.inputs)
        self.scored.merge(other.scored)
        self.n_recomputed += other.n_recomputed
        for name, values in other.scores.items():
            self.scores[name].extend(values)
        self.worst.merge(other.worst)
        self.errors.merge(other.errors, shift=lambda key: key - errors)
        for k, values in other.labelled.items():
            self.labelled[k].extend(values)
        self.n_judged += other.n_judged
        for module, acc in other.modules.items():
            self.modules[module].merge(acc)
        self.judge_failing.merge(other.judge_failing,
                                 shift=lambda key: (key[0], key[1] - judged))
        self.judge_issues.merge(other.judge_issues,
                                shift=lambda key: (key[0], key[1] - judged))
        self.issue_kinds.update(other.issue_kinds)
        self.judge_labels.extend(other.judge_labels)
        self.llm_verdicts.extend(other.llm_verdicts)
        for model, usage in other.llm_usage.items():
            if model not in self.llm_usage and len(self.llm_usage) >= self.limits.table_rows:
                model = "(other models)"
            mine = self.llm_usage.setdefault(model, dict.fromkeys(usage, 0))
            for key, v in usage.items():
                mine[key] += v

    def add_items(self, items: Iterable[Any]) -> None:
        """Add :class:`evaltools.report.inputs.Item` objects."""
        for it in items:
            if it.kind == "scored":
                self.add_scored(it.record, source=it.source, line=it.line,
                                recomputed=it.recomputed)
            else:
                self.add_judged(it.record, source=it.source, line=it.line,
                                recomputed=it.recomputed)
