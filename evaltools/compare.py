"""Two runs compared: what moved between a reference run and the current one.

Given the scored (and judged) records of two runs, :func:`compare_runs`
computes, per score, the shift of its distribution (means, the difference
with a bootstrap interval and a p-value, the two-sample Kolmogorov–Smirnov
statistic); every record present in both runs (matched by ``id``) whose
scores moved beyond a tolerance or whose verdict changed, with both runs'
texts, anchors and reasons (:class:`RecordChange`); the verdict flips, each
with its evidence; per judge module, the change of the mean total score
(with a bootstrap interval) and of the PASS rate; and a one-line verdict
(:attr:`RunComparison.headline`): worse, better, or no change beyond chance.

When records match by ``id`` the statistics are *paired*: the difference is
the mean of the per-record differences, its interval a bootstrap of those
differences (:func:`paired_difference`, ``scipy.stats.bootstrap``) and its
p-value a sign-flip permutation test (``scipy.stats.permutation_test`` with
``permutation_type="samples"``). Only when fewer than two records match are
the runs compared apart (:func:`difference_ci`, a bootstrap of each run
resampled apart, and a permutation test of independent samples). A
difference is called significant when its 95% interval excludes 0.
Presentation (``evaltools report --reference``,
:func:`evaltools.report.compare_report`) only shows it.

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
>>> [(r.id, r.largest_score, r.largest_delta) for r in c.changes]
[('a', 'hallucination', 1.0)]
>>> c.shifts[0].paired, c.verdict
(True, 'unchanged')
"""

from __future__ import annotations

import heapq
import math
import warnings
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from evaltools.values import finite_float

SCORES = ("relevance", "completeness", "hallucination", "claims_score", "ngram_overlap")
#: Scores where a rise is a regression (the others: a fall is).
HIGHER_IS_WORSE = frozenset({"hallucination", "claims_score", "hallucination_probability"})
#: Scores whose significant move decides :attr:`RunComparison.verdict` (with module totals).
VERDICT_SCORES = ("relevance", "completeness", "hallucination")
_ORDER = {"PASS": 0, "WARN": 1, "FAIL": 2}


@dataclass(frozen=True)
class ScoreShift:
    """One score in both runs; ``low``/``high`` bound ``difference``.

    ``paired``: the difference is the mean of per-record differences over the
    ``n_pairs`` records in both runs (matched by ``id``), its interval a
    bootstrap of those differences and ``p_value`` a sign-flip permutation
    test; otherwise the two runs are compared apart (``n_pairs`` is 0).
    """

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
    paired: bool = False
    n_pairs: int = 0
    p_value: float | None = None

    @property
    def significant(self) -> bool:
        """The 95% interval of the difference excludes 0."""
        return self.low is not None and (self.low > 0 or self.high < 0)

    @property
    def worse(self) -> bool:
        """A significant move in the direction that is a regression for this score."""
        if not self.significant:
            return False
        return (self.difference > 0) == (self.score in HIGHER_IS_WORSE)


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
class RecordChange:
    """A record in both runs whose scores moved beyond the tolerance, or whose verdict changed.

    ``deltas`` holds ``(score, before, after)`` for every compared score the
    record has in both runs; ``largest_score`` / ``largest_delta`` name the
    one that moved most (``after - before``, signed). The texts and anchors
    of both runs are kept so that a page can show them side by side.
    """

    id: str
    module: str | None
    verdict_before: str | None
    verdict_after: str | None
    deltas: tuple[tuple[str, float, float], ...]
    largest_score: str
    largest_delta: float
    reasons_before: tuple[str, ...]
    reasons_after: tuple[str, ...]
    query: str
    context: str
    response_before: str
    response_after: str
    anchors_before: tuple[dict[str, Any], ...]
    anchors_after: tuple[dict[str, Any], ...]

    @property
    def flipped(self) -> bool:
        return self.verdict_before != self.verdict_after

    @property
    def worse(self) -> bool:
        """The verdict got worse, or (same verdict) the score that moved most got worse."""
        if self.flipped:
            return _ORDER.get(self.verdict_after, 3) > _ORDER.get(self.verdict_before, 3)
        return (self.largest_delta > 0) == (self.largest_score in HIGHER_IS_WORSE) \
            and self.largest_delta != 0

    def delta(self, score: str) -> float | None:
        """``after - before`` of one score, or None when a run lacks it."""
        return next((b - a for name, a, b in self.deltas if name == score), None)


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
    """Everything :func:`compare_runs` found.

    ``changes`` holds at most ``max_changes`` records (those that moved most,
    verdict flips first); ``n_changed`` counts all of them.
    """

    n_reference: int
    n_current: int
    n_matched: int
    verdicts_reference: dict[str, int]
    verdicts_current: dict[str, int]
    shifts: tuple[ScoreShift, ...]
    flips: tuple[VerdictFlip, ...]
    modules: tuple[ModuleDelta, ...]
    confidence_level: float = 0.95
    changes: tuple[RecordChange, ...] = ()
    n_changed: int = 0
    tolerance: float = 0.05

    @property
    def verdict(self) -> str:
        """``"worse"``, ``"better"`` or ``"unchanged"`` (no change beyond chance).

        Worse when a verdict score (relevance, completeness, hallucination)
        moved significantly in its bad direction or a module's mean total fell
        significantly; better when something moved significantly the good way
        and nothing the bad way. Records that moved beyond the tolerance are
        listed whatever the verdict (:attr:`changes`).
        """
        shifts = [s for s in self.shifts if s.score in VERDICT_SCORES and s.significant]
        mods = [m for m in self.modules if m.significant]
        if any(s.worse for s in shifts) or any(m.difference < 0 for m in mods):
            return "worse"
        if shifts or mods:
            return "better"
        return "unchanged"

    @property
    def headline(self) -> str:
        """The one-line regression verdict a page or a CI log shows first."""
        moved = [s for s in self.shifts if s.score in VERDICT_SCORES and s.significant]
        mods = [m for m in self.modules if m.significant]
        what = ", ".join([f"{s.score} {s.difference:+.3f}" for s in moved]
                         + [f"{m.module} total {m.difference:+.1f}" for m in mods])
        worse = sum(f.worse for f in self.flips)
        better = len(self.flips) - worse
        records = (f"{self.n_changed:,} record{'s' if self.n_changed != 1 else ''} moved "
                   f"beyond ±{self.tolerance:g}; {worse} verdict{'s' if worse != 1 else ''} "
                   f"worse, {better} better")
        how = ("paired by id" if any(s.paired for s in self.shifts)
               else "runs compared apart")
        if self.verdict == "worse":
            return f"Worse beyond chance ({what}; {how}). {records}."
        if self.verdict == "better":
            return f"Better beyond chance ({what}; {how}). {records}."
        return f"No change beyond chance ({how}). {records}."

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key, items in (("shifts", self.shifts), ("modules", self.modules)):
            for d, item in zip(out[key], items, strict=True):
                d["significant"] = item.significant
        for d, f in zip(out["flips"], self.flips, strict=True):
            d["worse"] = f.worse
        for d, c in zip(out["changes"], self.changes, strict=True):
            d["worse"] = c.worse
        out["verdict"] = self.verdict
        out["headline"] = self.headline
        return out


def _number(v: Any) -> float | None:
    """A finite number, else None (bools, text, NaN, an int beyond floats): the one reader."""
    return finite_float(v)


def difference_ci(reference: Sequence[float], current: Sequence[float], *,
                  n_resamples: int = 1000, seed: int = 0,
                  confidence_level: float = 0.95) -> tuple[float, float, float] | None:
    """``mean(current) - mean(reference)`` with a percentile bootstrap interval.

    The two samples are resampled apart (a stratified bootstrap over the
    pooled values): for runs whose records do not match by id. None when
    either sample is empty, or when the means are not finite (values so
    large that their sum overflows).

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


def _mean_difference(x, y, axis=-1):
    import numpy as np

    return np.mean(y, axis=axis) - np.mean(x, axis=axis)


def _batch(n: int) -> int:
    """Resamples per vectorised batch: about 4 million values at a time."""
    return max(1, min(1000, 4_000_000 // max(n, 1)))


def paired_difference(reference: Sequence[float], current: Sequence[float], *,
                      n_resamples: int = 1000, seed: int = 0,
                      confidence_level: float = 0.95,
                      ) -> tuple[float, float, float, float] | None:
    """The mean of ``current[i] - reference[i]``, its bootstrap interval and a p-value.

    For runs whose records match by id: the interval is a percentile
    bootstrap of the mean difference resampling *pairs*
    (``scipy.stats.bootstrap(..., paired=True)``); the p-value is a two-sided
    sign-flip permutation test (``scipy.stats.permutation_test`` with
    ``permutation_type="samples"``: each pair's two values swapped or not),
    exact when ``2 ** n`` is at most ``n_resamples``. When every difference
    is the same the interval is that value. None when there are no pairs or
    the values overflow.

    Examples
    --------
    >>> d, lo, hi, p = paired_difference([0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5])
    >>> round(d, 6), round(lo, 6), round(hi, 6), p   # every pair +0.1; 2 of 16 sign flips as far
    (0.1, 0.1, 0.1, 0.125)
    """
    import numpy as np
    from scipy.stats import bootstrap, permutation_test

    if len(reference) != len(current):
        raise ValueError("paired_difference needs two sequences of the same length")
    if not reference:
        return None
    ref = np.asarray(reference, dtype=float)
    cur = np.asarray(current, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        d = cur - ref
        mean = float(d.mean())
    if not (math.isfinite(mean) and np.isfinite(d).all()):
        return None
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if np.all(d == d[0]) or len(d) < 2:
            low = high = mean
        else:
            res = bootstrap((ref, cur), _mean_difference, paired=True, vectorized=True,
                            n_resamples=n_resamples, confidence_level=confidence_level,
                            method="percentile", rng=rng, batch=_batch(len(d)))
            low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if not np.any(d != 0):
            p = 1.0
        else:
            perm = permutation_test((ref, cur), _mean_difference, permutation_type="samples",
                                    vectorized=True, n_resamples=n_resamples, rng=rng,
                                    batch=_batch(len(d)))
            p = float(perm.pvalue)
    return mean, min(low, mean), max(high, mean), p


def _unpaired_pvalue(ref: list[float], cur: list[float], n_resamples: int,
                     seed: int) -> float | None:
    import numpy as np
    from scipy.stats import permutation_test

    if not ref or not cur:
        return None
    a, b = np.asarray(ref, dtype=float), np.asarray(cur, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        if not math.isfinite(float(b.mean() - a.mean())):
            return None
    if np.all(np.concatenate([a, b]) == a[0]):
        return 1.0
    res = permutation_test((a, b), _mean_difference, permutation_type="independent",
                           vectorized=True, n_resamples=n_resamples,
                           rng=np.random.default_rng(seed), batch=_batch(len(a) + len(b)))
    return float(res.pvalue)


def _ks(ref: list[float], cur: list[float]):
    from scipy.stats import ks_2samp

    if not ref or not cur:
        return None
    with warnings.catch_warnings():  # "exact calculation unsuccessful": the asymptotic p is used
        warnings.simplefilter("ignore", RuntimeWarning)
        return ks_2samp(ref, cur)


def _shift(name: str, ref: list[float], cur: list[float], pairs: list[tuple[float, float]],
           n_resamples: int, seed: int) -> ScoreShift:
    ks = _ks(ref, cur)
    paired = len(pairs) >= 2
    if paired:
        pd = paired_difference([a for a, _ in pairs], [b for _, b in pairs],
                               n_resamples=n_resamples, seed=seed)
        diff, low, high, p = pd if pd is not None else (None, None, None, None)
    else:
        ci = difference_ci(ref, cur, n_resamples=n_resamples, seed=seed)
        diff, low, high = ci if ci is not None else (None, None, None)
        p = _unpaired_pvalue(ref, cur, n_resamples, seed) if ci is not None else None
    return ScoreShift(
        score=name, n_reference=len(ref), n_current=len(cur), mean_reference=_mean(ref),
        mean_current=_mean(cur), difference=diff, low=low, high=high,
        ks_statistic=None if ks is None else float(ks.statistic),
        ks_pvalue=None if ks is None else float(ks.pvalue),
        paired=paired, n_pairs=len(pairs) if paired else 0, p_value=p)


def _mean(xs: list[float]) -> float | None:
    if not xs:
        return None
    m = sum(xs) / len(xs)
    return m if math.isfinite(m) else None


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
    """The reference run's records by id, on disk (sqlite3 in a temporary file): each
    record as JSON, read back when the current run reaches its id."""

    #: records are written in batches of at most this much JSON text
    BATCH_BYTES = 2 * 1024 * 1024

    def __init__(self):
        import sqlite3
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="evaltools-compare-")
        self.db = sqlite3.connect(f"{self._dir.name}/ids.sqlite")
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("CREATE TABLE r (id TEXT PRIMARY KEY, record TEXT)")
        self._batch: list[tuple] = []
        self._bytes = 0

    def put(self, r: Mapping[str, Any]) -> None:
        import json

        text = json.dumps(dict(r), default=str)
        self._batch.append((str(r["id"]), text))
        self._bytes += len(text)
        if len(self._batch) >= 4096 or self._bytes >= self.BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        self.db.executemany("INSERT OR REPLACE INTO r VALUES (?, ?)", self._batch)
        self._batch = []
        self._bytes = 0

    def get(self, rid: str) -> dict[str, Any] | None:
        import json

        row = self.db.execute("SELECT record FROM r WHERE id = ?", (rid,)).fetchone()
        return None if row is None else json.loads(row[0])

    def close(self) -> None:
        self.db.close()
        self._dir.cleanup()


def _reasons(r: Mapping[str, Any]) -> tuple[Any, ...]:
    reasons = r.get("reasons")
    return tuple(reasons) if isinstance(reasons, (list, tuple)) else ()


def _text(v: Any) -> str:
    return v if isinstance(v, str) else "" if v is None else str(v)


def _anchors(rec: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    return tuple(dict(a) for a in rec.get("anchors") or () if isinstance(a, Mapping))


def _change(old: Mapping[str, Any], new: Mapping[str, Any], scores: Sequence[str],
            tolerance: float) -> RecordChange | None:
    """The record's change, or None when no score moved beyond ``tolerance`` and no flip."""
    judged = "module" in new
    names = ("total_score",) if judged else scores
    deltas = []
    for name in names:
        a, b = _number(old.get(name)), _number(new.get(name))
        if a is not None and b is not None:
            deltas.append((name, a, b))
    scale = 100.0 if judged else 1.0  # a judge's total is of 100: the tolerance is a share

    def moved(item):
        return abs(item[2] - item[1]) / scale

    flipped = old.get("verdict") != new.get("verdict")
    big = max(deltas, key=moved, default=None)
    if not flipped and (big is None or moved(big) <= tolerance):
        return None
    return RecordChange(
        id=str(new.get("id")), module=new.get("module") if judged else None,
        verdict_before=None if old.get("verdict") is None else str(old.get("verdict")),
        verdict_after=None if new.get("verdict") is None else str(new.get("verdict")),
        deltas=tuple(deltas), largest_score=big[0] if big else "",
        largest_delta=(big[2] - big[1]) if big else 0.0,
        reasons_before=tuple(map(str, old.get("reasons") or ())),
        reasons_after=tuple(map(str, new.get("reasons") or ())),
        query=_text(new.get("query")), context=_text(new.get("context")),
        response_before=_text(old.get("output" if judged else "response")),
        response_after=_text(new.get("output" if judged else "response")),
        anchors_before=_anchors(old), anchors_after=_anchors(new))


def _rank(change: RecordChange, scale: float) -> tuple[int, float]:
    """Larger first: verdict flips, then the largest move (a share of the score's range)."""
    return (int(change.flipped), abs(change.largest_delta) / scale)


def compare_runs(reference: Iterable[Mapping[str, Any]], current: Iterable[Mapping[str, Any]],
                 *, scores: Sequence[str] = SCORES, n_resamples: int = 1000,
                 seed: int = 0, tolerance: float | None = None,
                 max_changes: int | None = None, config=None) -> RunComparison:
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
        The bootstrap's and permutation test's resamples and seed (same seed,
        same intervals).
    tolerance : float, optional
        A record is listed in ``changes`` when a score moved by more than this
        (a judge's total: this share of 100), or its verdict changed; default
        ``[compare] tolerance`` of the config (0.05).
    max_changes : int, optional
        Changed records kept (those that moved most); the rest are counted.
        Default ``[compare] max_changes`` (200).
    config : Config, optional
        Where the defaults come from.

    Returns
    -------
    RunComparison
    """
    from evaltools.config import DEFAULT_CONFIG

    cfg = (config if config is not None else DEFAULT_CONFIG).compare
    tolerance = cfg.tolerance if tolerance is None else tolerance
    max_changes = cfg.max_changes if max_changes is None else max_changes
    # One pass over each run: counts and score values in _Tally (8 bytes a value), the
    # reference records by id on disk (_Index), so memory does not grow with the records.
    ref, cur = _Tally(scores), _Tally(scores)
    index = _Index()
    flips, matched, n_changed = [], 0, 0
    kept: list[tuple[tuple[int, float], int, RecordChange]] = []
    pairs: dict[str, list[tuple[float, float]]] = {s: [] for s in scores}
    try:
        for r in reference:
            if r.get("error"):
                continue
            ref.add(r)
            if r.get("id") is not None:
                index.put(r)
        index.flush()
        for r in current:
            if r.get("error"):
                continue
            cur.add(r)
            old = index.get(str(r.get("id"))) if r.get("id") is not None else None
            if old is None or old.get("module") != r.get("module"):
                continue
            matched += 1
            if "module" not in r:
                for s in scores:
                    a, b = _number(old.get(s)), _number(r.get(s))
                    if a is not None and b is not None:
                        pairs[s].append((a, b))
            change = _change(old, r, scores, tolerance)
            if change is not None:
                n_changed += 1
                item = (_rank(change, 100.0 if change.module else 1.0), -n_changed, change)
                if len(kept) < max_changes:
                    heapq.heappush(kept, item)
                elif kept and item[:2] > kept[0][:2]:
                    heapq.heapreplace(kept, item)
            if old.get("verdict") != r.get("verdict"):
                flips.append(VerdictFlip(
                    id=str(r["id"]), before=str(old.get("verdict")),
                    after=str(r.get("verdict")),
                    reasons_before=tuple(map(str, _reasons(old))),
                    reasons_after=tuple(map(str, _reasons(r))),
                    unsupported_before=_unsupported(old), unsupported_after=_unsupported(r)))
    finally:
        index.close()
    flips.sort(key=lambda f: (not f.worse, f.id))
    changes = tuple(c for *_, c in sorted(kept, key=lambda t: t[:2], reverse=True))
    shifts = tuple(_shift(s, list(ref.values[s]), list(cur.values[s]), pairs[s], n_resamples,
                          seed)
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
        shifts=shifts, flips=tuple(flips), modules=tuple(modules),
        changes=changes, n_changed=n_changed, tolerance=tolerance)
