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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

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


def _finite(values: Iterable[Any]) -> list[float]:
    out = []
    for v in values:
        if isinstance(v, bool) or v is None:
            continue
        try:
            f = float(v)
        except (TypeError, ValueError, OverflowError):  # not a number, or an int beyond floats
            continue
        if math.isfinite(f):
            out.append(f)
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
    from scipy.stats import bootstrap

    if not reference or not current:
        return None
    ref = np.asarray(reference, dtype=float)
    cur = np.asarray(current, dtype=float)

    def stat(r, c, axis=-1):
        return c.mean(axis=axis) - r.mean(axis=axis)

    with np.errstate(over="ignore", invalid="ignore"):
        diff = float(stat(ref, cur))
        if not math.isfinite(diff):  # values near the float limit: sums overflow
            return None
        # the two samples resampled apart (scipy, vectorised); a sample of one value is
        # the same in every resample (scipy needs two)
        if len(ref) >= 2 and len(cur) >= 2:
            samples, fn = (ref, cur), stat
        elif len(cur) >= 2:
            samples, fn = (cur,), lambda c, axis=-1: stat(ref, c, axis)
        elif len(ref) >= 2:
            samples, fn = (ref,), lambda r, axis=-1: stat(r, cur, axis)
        else:
            return diff, diff, diff
        res = bootstrap(samples, fn, n_resamples=n_resamples, vectorized=True,
                        method="percentile", confidence_level=confidence_level,
                        rng=np.random.default_rng(seed))
    return diff, float(res.confidence_interval.low), float(res.confidence_interval.high)


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


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _pass_rate(records: list[Mapping[str, Any]]) -> float | None:
    return sum(r.get("verdict") == "PASS" for r in records) / len(records) if records else None


def _unsupported(rec: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"{a.get('kind')} “{a.get('text')}”" for a in rec.get("anchors") or ()
                 if isinstance(a, Mapping) and not a.get("supported")
                 and a.get("counted", True))


def _counts(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in records:
        v = "ERROR" if r.get("error") else r.get("verdict")
        if v:
            out[v] = out.get(v, 0) + 1
    return out


def compare_runs(reference: Iterable[Mapping[str, Any]], current: Iterable[Mapping[str, Any]],
                 *, scores: Sequence[str] = SCORES, n_resamples: int = 1000,
                 seed: int = 0) -> RunComparison:
    """Compare two runs' output records (scored responses and/or judged module outputs).

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
    ref = [r for r in reference if not r.get("error")]
    cur = [r for r in current if not r.get("error")]
    ref_scored = [r for r in ref if "module" not in r]
    cur_scored = [r for r in cur if "module" not in r]
    shifts = tuple(_shift(s, _finite(r.get(s) for r in ref_scored),
                          _finite(r.get(s) for r in cur_scored), n_resamples, seed)
                   for s in scores
                   if any(s in r for r in ref_scored) or any(s in r for r in cur_scored))
    before = {str(r["id"]): r for r in ref if r.get("id") is not None}
    flips, matched = [], 0
    for r in cur:
        old = before.get(str(r.get("id")))
        if old is None or old.get("module") != r.get("module"):
            continue
        matched += 1
        if old.get("verdict") != r.get("verdict"):
            flips.append(VerdictFlip(
                id=str(r["id"]), before=str(old.get("verdict")), after=str(r.get("verdict")),
                reasons_before=tuple(map(str, old.get("reasons") or ())),
                reasons_after=tuple(map(str, r.get("reasons") or ())),
                unsupported_before=_unsupported(old), unsupported_after=_unsupported(r)))
    flips.sort(key=lambda f: (not f.worse, f.id))
    modules = []
    names = sorted({r["module"] for r in (*ref, *cur) if r.get("module")})
    for m in names:
        a = [r for r in ref if r.get("module") == m]
        b = [r for r in cur if r.get("module") == m]
        ta = _finite(r.get("total_score") for r in a)
        tb = _finite(r.get("total_score") for r in b)
        ci = difference_ci(ta, tb, n_resamples=n_resamples, seed=seed)
        modules.append(ModuleDelta(
            module=m, n_reference=len(a), n_current=len(b),
            mean_total_reference=_mean(ta), mean_total_current=_mean(tb),
            difference=None if ci is None else ci[0], low=None if ci is None else ci[1],
            high=None if ci is None else ci[2], pass_rate_reference=_pass_rate(a),
            pass_rate_current=_pass_rate(b)))
    return RunComparison(
        n_reference=len(ref), n_current=len(cur), n_matched=matched,
        verdicts_reference=_counts(ref_scored), verdicts_current=_counts(cur_scored),
        shifts=shifts, flips=tuple(flips), modules=tuple(modules))
