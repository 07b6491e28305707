"""Two runs compared: what moved between a reference run and the current one.

Given the scored (and judged) records of two runs, :func:`compare_runs`
computes, per score, the shift of its distribution (means, the difference
with a percentile bootstrap interval, the two-sample Kolmogorov–Smirnov
statistic); the verdict flips of records present in both runs (matched by
``id``), each with its evidence (the reasons and the unsupported anchors of
both runs); and per judge module, the change of the mean total score (with a
bootstrap interval) and of the PASS rate. A difference is called significant
when its 95% interval excludes 0. Presentation (``evaltools report
--reference``, :func:`evaltools.report.compare_report`) only shows it.

Examples
--------
>>> ref = [{"id": "a", "verdict": "PASS", "hallucination": 0.0},
...        {"id": "b", "verdict": "PASS", "hallucination": 0.0}]
>>> cur = [{"id": "a", "verdict": "FAIL", "hallucination": 1.0,
...         "reasons": ["hallucination 1.00 > 0.5 (safety first)"]},
...        {"id": "b", "verdict": "PASS", "hallucination": 0.0}]
>>> c = compare_runs(ref, cur, scores=("hallucination",))
>>> c.shifts[0].mean_reference, c.shifts[0].mean_current, c.shifts[0].difference
(0.0, 0.5, 0.5)
>>> [(f.id, f.before, f.after) for f in c.flips]
[('a', 'PASS', 'FAIL')]
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from evaltools.values import finite_float

SCORES = ("relevance", "completeness", "hallucination", "claims_score", "ngram_overlap")
_ORDER = {"PASS": 0, "WARN": 1, "FAIL": 2}


@dataclass(frozen=True)
class ScoreShift:
    """One score's distribution in both runs; ``low``/``high`` bound ``difference``."""

    score: str
    n_reference: int
    n_current: int
    mean_reference: float | None
    mean_current: float | None
    difference: float | None
    low: float | None
    high: float | None
    ks_statistic: float | None
    ks_pvalue: float | None

    @property
    def significant(self) -> bool:
        """The 95% interval of the difference excludes 0."""
        return self.low is not None and (self.low > 0 or self.high < 0)


@dataclass(frozen=True)
class VerdictFlip:
    """A record whose verdict changed, with the evidence of both runs."""

    id: str
    before: str
    after: str
    reasons_before: tuple[str, ...]
    reasons_after: tuple[str, ...]
    unsupported_before: tuple[str, ...]
    unsupported_after: tuple[str, ...]

    @property
    def worse(self) -> bool:
        """PASS→WARN, PASS→FAIL or WARN→FAIL."""
        return _ORDER.get(self.after, 3) > _ORDER.get(self.before, 3)


@dataclass(frozen=True)
class ModuleDelta:
    """One judge module in both runs: mean total (of 100) and PASS rate."""

    module: str
    n_reference: int
    n_current: int
    mean_total_reference: float | None
    mean_total_current: float | None
    difference: float | None
    low: float | None
    high: float | None
    pass_rate_reference: float | None
    pass_rate_current: float | None

    @property
    def significant(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)


@dataclass(frozen=True)
class RunComparison:
    """Everything :func:`compare_runs` found."""

    n_reference: int
    n_current: int
    n_matched: int
    verdicts_reference: dict[str, int]
    verdicts_current: dict[str, int]
    shifts: tuple[ScoreShift, ...]
    flips: tuple[VerdictFlip, ...]
    modules: tuple[ModuleDelta, ...]
    confidence_level: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key, items in (("shifts", self.shifts), ("modules", self.modules)):
            for d, item in zip(out[key], items, strict=True):
                d["significant"] = item.significant
        for d, f in zip(out["flips"], self.flips, strict=True):
            d["worse"] = f.worse
        return out


def difference_ci(reference: Sequence[float], current: Sequence[float], *,
                  n_resamples: int = 1000, seed: int = 0,
                  confidence_level: float = 0.95) -> tuple[float, float, float] | None:
    """``mean(current) - mean(reference)`` with a percentile bootstrap interval.

    The two samples are resampled apart (a stratified bootstrap over the
    pooled values). None when either sample is empty, or when the means are
    not finite (values so large that their sum overflows).

    Examples
    --------
    >>> d, lo, hi = difference_ci([0.0] * 30, [1.0] * 30)
    >>> d, lo, hi
    (1.0, 1.0, 1.0)
    """
    import numpy as np

    from evaltools.calibration.bootstrap import bootstrap_ci

    if not reference or not current:
        return None
    values = np.asarray([*reference, *current], dtype=float)
    group = np.asarray([0] * len(reference) + [1] * len(current))

    def stat(v, g):
        return float(v[g == 1].mean() - v[g == 0].mean())

    with np.errstate(over="ignore", invalid="ignore"):
        if not math.isfinite(stat(values, group)):  # values near the float limit: sums overflow
            return None
    ci = bootstrap_ci(stat, values, group, strata=group, n_resamples=n_resamples, seed=seed,
                      confidence_level=confidence_level)
    return stat(values, group), float(ci.low), float(ci.high)


def _shift(name: str, ref: list[float], cur: list[float], n_resamples: int,
           seed: int) -> ScoreShift:
    from scipy.stats import ks_2samp

    ci = difference_ci(ref, cur, n_resamples=n_resamples, seed=seed)
    ks = ks_2samp(ref, cur) if ref and cur else None
    return ScoreShift(
        score=name, n_reference=len(ref), n_current=len(cur), mean_reference=_mean(ref),
        mean_current=_mean(cur), difference=None if ci is None else ci[0],
        low=None if ci is None else ci[1], high=None if ci is None else ci[2],
        ks_statistic=None if ks is None else float(ks.statistic),
        ks_pvalue=None if ks is None else float(ks.pvalue))


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _unsupported(rec: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"{a.get('kind')} “{a.get('text')}”" for a in rec.get("anchors") or ()
                 if isinstance(a, Mapping) and not a.get("supported")
                 and a.get("counted", True))


class _Tally:
    """What a comparison keeps of one run, in one pass: counts, the score and total
    values it resamples (8 bytes each), never the records themselves."""

    def __init__(self, scores: Sequence[str]):
        self.scores = scores
        self.n = 0
        self.verdicts: dict[str, int] = {}
        self.values = {s: array("d") for s in scores}
        self.present: set[str] = set()
        self.modules: dict[str, list] = {}  # module -> [records, PASS count, totals]

    def add(self, r: Mapping[str, Any]) -> None:
        self.n += 1
        module = r.get("module")
        if "module" not in r:
            v = r.get("verdict")
            if v:
                self.verdicts[v] = self.verdicts.get(v, 0) + 1
            for s in self.scores:
                if s in r:
                    self.present.add(s)
                    f = finite_float(r.get(s))
                    if f is not None:
                        self.values[s].append(f)
        if module:
            m = self.modules.setdefault(module, [0, 0, array("d")])
            m[0] += 1
            m[1] += r.get("verdict") == "PASS"
            total = finite_float(r.get("total_score"))
            if total is not None:
                m[2].append(total)


class _Index:
    """The reference run's records by id, on disk (sqlite3 in a temporary file): what a
    verdict flip shows of them (module, verdict, reasons, unsupported anchors)."""

    def __init__(self):
        import sqlite3
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="evaltools-compare-")
        self.db = sqlite3.connect(f"{self._dir.name}/ids.sqlite")
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("CREATE TABLE r (id TEXT PRIMARY KEY, module TEXT, verdict TEXT, "
                        "evidence TEXT)")
        self._batch: list[tuple] = []

    def put(self, r: Mapping[str, Any]) -> None:
        import json

        module = r.get("module")
        self._batch.append((str(r["id"]), json.dumps(module, default=str),
                            json.dumps(r.get("verdict"), default=str), json.dumps(
            [[str(x) for x in _reasons(r)], list(_unsupported(r))])))
        if len(self._batch) >= 4096:
            self.flush()

    def flush(self) -> None:
        self.db.executemany("INSERT OR REPLACE INTO r VALUES (?, ?, ?, ?)", self._batch)
        self._batch = []

    def get(self, rid: str) -> tuple[Any, Any, list] | None:
        import json

        row = self.db.execute("SELECT module, verdict, evidence FROM r WHERE id = ?",
                              (rid,)).fetchone()
        return None if row is None else tuple(json.loads(x) for x in row)

    def close(self) -> None:
        self.db.close()
        self._dir.cleanup()


def _reasons(r: Mapping[str, Any]) -> tuple[Any, ...]:
    reasons = r.get("reasons")
    return tuple(reasons) if isinstance(reasons, (list, tuple)) else ()


def compare_runs(reference: Iterable[Mapping[str, Any]], current: Iterable[Mapping[str, Any]],
                 *, scores: Sequence[str] = SCORES, n_resamples: int = 1000,
                 seed: int = 0) -> RunComparison:
    """Compare two runs' output records (scored responses and/or judged module outputs).

    Each run is read once, record by record (``reference`` first, then
    ``current``; generators are fine): memory holds the values resampled (8
    bytes per score), the flips, and no record; the reference's records are
    matched by id through an on-disk index (sqlite3 in a temporary folder).

    Parameters
    ----------
    reference, current : iterable of dict
        Output records of ``evaltools score`` / ``evaltools judge`` (a record
        with a ``module`` field is a judged module output).
    scores : sequence of str
        Score fields whose distributions are compared.
    n_resamples, seed : int
        The bootstrap's resamples and seed (same seed, same intervals).

    Returns
    -------
    RunComparison
    """
    ref, cur = _Tally(scores), _Tally(scores)
    index = _Index()
    try:
        for r in reference:
            if r.get("error"):
                continue
            ref.add(r)
            if r.get("id") is not None:
                index.put(r)
        index.flush()
        flips, matched = [], 0
        for r in current:
            if r.get("error"):
                continue
            cur.add(r)
            old = index.get(str(r.get("id"))) if r.get("id") is not None else None
            if old is None or old[0] != r.get("module"):
                continue
            matched += 1
            if old[1] != r.get("verdict"):
                flips.append(VerdictFlip(
                    id=str(r["id"]), before=str(old[1]), after=str(r.get("verdict")),
                    reasons_before=tuple(old[2][0]),
                    reasons_after=tuple(map(str, _reasons(r))),
                    unsupported_before=tuple(old[2][1]), unsupported_after=_unsupported(r)))
    finally:
        index.close()
    flips.sort(key=lambda f: (not f.worse, f.id))
    shifts = tuple(_shift(s, ref.values[s], cur.values[s], n_resamples, seed)
                   for s in scores if s in ref.present or s in cur.present)
    modules = []
    for m in sorted({*ref.modules, *cur.modules}):
        na, pa, ta = ref.modules.get(m, (0, 0, array("d")))
        nb, pb, tb = cur.modules.get(m, (0, 0, array("d")))
        ci = difference_ci(ta, tb, n_resamples=n_resamples, seed=seed)
        modules.append(ModuleDelta(
            module=m, n_reference=na, n_current=nb,
            mean_total_reference=_mean(ta), mean_total_current=_mean(tb),
            difference=None if ci is None else ci[0], low=None if ci is None else ci[1],
            high=None if ci is None else ci[2], pass_rate_reference=pa / na if na else None,
            pass_rate_current=pb / nb if nb else None))
    return RunComparison(
        n_reference=ref.n, n_current=cur.n, n_matched=matched,
        verdicts_reference=ref.verdicts, verdicts_current=cur.verdicts,
        shifts=shifts, flips=tuple(flips), modules=tuple(modules))
