"""Percentile bootstrap confidence intervals (AUC, kappa, or any statistic).

The resampling is :func:`scipy.stats.bootstrap`'s (one sample, or one sample
per stratum or per class resampled apart); only the cluster bootstrap over
groups, which scipy lacks, is written here. Resampling is seeded
(``numpy.random.default_rng(seed)``), so an interval is the same on every
run. Resamples on which the statistic is undefined (an AUC on a resample
with one class only) are skipped and counted.

Examples
--------
>>> ci = auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], n_resamples=200)
>>> ci.low <= ci.estimate <= ci.high
True
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.stats import bootstrap, mannwhitneyu
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from evaltools.arguments import check_positive_int, check_value
from evaltools.calibration._checks import (
    binary_labels,
    both_classes,
    json_value,
    same_length,
    scores,
)


@dataclass(frozen=True)
class ConfidenceInterval:
    """A point estimate with a percentile bootstrap interval."""

    estimate: float
    low: float
    high: float
    confidence_level: float
    n_resamples: int
    n_valid: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return json_value({k: getattr(self, k) for k in self.__dataclass_fields__})

    def __str__(self) -> str:
        pct = round(self.confidence_level * 100)
        return f"{self.estimate:.3f} [{pct}% CI {self.low:.3f}–{self.high:.3f}]"


def _check_resampling(func: str, n_resamples: Any, confidence_level: Any) -> None:
    check_positive_int(n_resamples, "n_resamples", func)
    check_value(confidence_level, "confidence_level", func,
                not isinstance(confidence_level, bool)
                and isinstance(confidence_level, (int, float)) and 0.0 < confidence_level < 1.0,
                "a float in (0, 1)")


def bootstrap_ci(statistic: Callable[..., float], *arrays, n_resamples: int = 1000,
                 confidence_level: float = 0.95, seed: int = 0,
                 strata=None, groups=None) -> ConfidenceInterval:
    """Percentile bootstrap interval of ``statistic(*arrays)``.

    Parameters
    ----------
    statistic : callable
        Called with the resampled arrays (rows resampled together).
    *arrays : array-like
        Equal-length arrays.
    n_resamples : int, default 1000
    confidence_level : float, default 0.95
    seed : int, default 0
    strata : array-like, optional
        Resample within each stratum separately (keeps class counts fixed).
    groups : array-like, optional
        One key per row: whole groups are resampled (a cluster bootstrap), so
        rows that are not independent (the answers to one question) stay
        together. Not combined with ``strata``.

    Returns
    -------
    ConfidenceInterval

    Raises
    ------
    ValueError
        Bad parameters, or fewer than half the resamples gave a value.

    Examples
    --------
    >>> import numpy as np
    >>> ci = bootstrap_ci(np.mean, [1.0, 2.0, 3.0, 4.0], n_resamples=500, seed=1)
    >>> ci.estimate, 1.0 <= ci.low < 2.5 < ci.high <= 4.0
    (2.5, True)
    """
    func = "bootstrap_ci"
    _check_resampling(func, n_resamples, confidence_level)
    arrs = [np.asarray(a) for a in arrays]
    if not arrs:
        raise ValueError(f"{func}: needs at least one array.")
    same_length(func, **{f"array{i}": a for i, a in enumerate(arrs)})
    n = len(arrs[0])
    if n == 0:
        raise ValueError(f"{func}: needs at least one record. Got none.")
    if strata is not None and groups is not None:
        raise ValueError(f"{func}: give 'strata' or 'groups', not both.")
    estimate = float(statistic(*arrs))
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if groups is not None:
            values = _cluster_draws(statistic, arrs, _group_members(groups, n, func),
                                    n_resamples, rng)
        else:
            # scipy resamples row numbers (within each stratum apart); the statistic
            # sees the rows they pick, all arrays together
            strata_idx = ([np.arange(n)] if strata is None else
                          [np.flatnonzero(np.asarray(strata) == v)
                           for v in np.unique(np.asarray(strata))])

            # a stratum of one row is the same in every resample (scipy needs two)
            fixed = [g for g in strata_idx if len(g) < 2]
            drawn = tuple(g for g in strata_idx if len(g) >= 2)

            def on_rows(*idx: np.ndarray) -> float:
                rows = np.concatenate([*idx, *fixed])
                try:
                    return float(statistic(*(a[rows] for a in arrs)))
                except ValueError:
                    return math.nan

            values = (_distribution(drawn, on_rows, n_resamples, rng, vectorized=False)
                      if drawn else np.full(n_resamples, on_rows()))
    values = values[np.isfinite(values)]
    if len(values) < n_resamples / 2:
        raise ValueError(f"{func}: the statistic was undefined on {n_resamples - len(values)} "
                         f"of {n_resamples} resamples; too few records to bootstrap.")
    return _percentile_ci(estimate, values, confidence_level, n_resamples, seed)


def _distribution(samples: tuple[np.ndarray, ...], statistic: Callable[..., Any],
                  n_resamples: int, rng: np.random.Generator, *,
                  vectorized: bool) -> np.ndarray:
    """The statistic on each of scipy's resamples (the samples resampled apart)."""
    res = bootstrap(samples, statistic, n_resamples=n_resamples, vectorized=vectorized,
                    paired=False, method="percentile", rng=rng)
    return np.asarray(res.bootstrap_distribution, dtype=float).reshape(-1)


def _percentile_ci(estimate: float, values: np.ndarray, confidence_level: float,
                   n_resamples: int, seed: int) -> ConfidenceInterval:
    alpha = (1.0 - confidence_level) / 2.0
    low, high = np.quantile(values, [alpha, 1.0 - alpha])
    return ConfidenceInterval(estimate=estimate, low=float(low), high=float(high),
                              confidence_level=confidence_level, n_resamples=n_resamples,
                              n_valid=len(values), seed=seed)


def _cluster_draws(statistic: Callable[..., float], arrs: list[np.ndarray],
                   members: list[np.ndarray], n_resamples: int,
                   rng: np.random.Generator) -> np.ndarray:
    """The statistic on each cluster-bootstrap resample (whole groups drawn)."""
    values = np.full(n_resamples, np.nan)
    for r in range(n_resamples):
        idx = np.concatenate([members[g] for g in rng.integers(0, len(members), len(members))])
        try:
            values[r] = float(statistic(*(a[idx] for a in arrs)))
        except ValueError:
            continue
    return values


def _group_members(groups, n: int, func: str) -> list[np.ndarray]:
    keys = np.asarray([str(g) for g in groups])
    if len(keys) != n:
        raise ValueError(f"{func}: 'groups' must have one key per row ({n}). "
                         f"Got {len(keys)} instead.")
    _, inverse = np.unique(keys, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(inverse[order])) + 1)


def _grouped_auc_draws(y: np.ndarray, s: np.ndarray, groups, n_resamples: int,
                       rng: np.random.Generator) -> np.ndarray:
    """AUC of each cluster-bootstrap resample, all resamples at once.

    A resample draws groups with replacement; a row then counts as many times
    as its group was drawn (weight ``w``). The AUC of the weighted rows is
    ``sum_i sum_j w_i w_j [s_i > s_j] + 0.5 [s_i = s_j]`` over positives i and
    negatives j, divided by ``W_pos * W_neg``: with the distinct scores sorted,
    that is a cumulative sum over the negatives' weight per score.
    """
    members = _group_members(groups, len(y), "auc_ci")
    group_of = np.empty(len(y), dtype=np.int64)
    for g, idx in enumerate(members):
        group_of[idx] = g
    draws = rng.integers(0, len(members), (n_resamples, len(members)))
    counts = np.zeros((n_resamples, len(members)))
    np.add.at(counts, (np.arange(n_resamples)[:, None], draws), 1.0)
    w = counts[:, group_of]                                   # (R, n) row weights
    _, level = np.unique(s, return_inverse=True)              # score rank, ties shared
    onehot_t = csr_matrix((np.ones(len(y)), (level, np.arange(len(y)))))  # (levels, n)
    w_pos = (onehot_t @ (w * (y == 1)).T).T                   # (R, levels)
    w_neg = (onehot_t @ (w * (y == 0)).T).T
    below = np.cumsum(w_neg, axis=1) - w_neg                  # negatives scored lower
    num = (w_pos * (below + 0.5 * w_neg)).sum(axis=1)
    den = w_pos.sum(axis=1) * w_neg.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.round(np.where(den > 0, num / den, np.nan), 12)  # float dust: 1 - 1e-16


def auc_ci(y_true, score, *, higher_is_positive: bool = True, n_resamples: int = 1000,
           confidence_level: float = 0.95, seed: int = 0, groups=None) -> ConfidenceInterval:
    """ROC AUC with a bootstrap interval, resampling positives and negatives apart
    (or, with ``groups``, resampling whole groups).

    Parameters
    ----------
    y_true : array-like of 0/1
    score : array-like of float
    higher_is_positive : bool, default True
    n_resamples : int, default 1000
    confidence_level : float, default 0.95
    seed : int, default 0
    groups : array-like, optional
        One key per record. Records of a group (the answers to one question,
        the summaries of one article) are not independent: the interval then
        comes from a cluster bootstrap over groups. Resamples that hold one
        class only are skipped (``n_valid`` counts the rest).

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> auc_ci([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_resamples=100).estimate
    0.75

    By hand: positives 0.9, 0.7, 0.5 beat 3, 3 and 2 of the negatives 0.1,
    0.2, 0.6, so AUC = 8/9.

    >>> ci = auc_ci([0, 1, 0, 1, 0, 1], [0.1, 0.9, 0.2, 0.7, 0.6, 0.5],
    ...             groups=["a", "a", "b", "b", "c", "c"], n_resamples=200)
    >>> round(ci.estimate, 9) == round(8 / 9, 9), ci.low <= ci.estimate <= ci.high
    (True, True)
    """
    func = "auc_ci"
    y = binary_labels(y_true, func=func)
    s = scores(score, func=func)
    same_length(func, y_true=y, score=s)
    both_classes(y, func=func)
    _check_resampling(func, n_resamples, confidence_level)
    s = s if higher_is_positive else -s
    estimate = float(roc_auc_score(y, s))
    if groups is not None:
        values = _grouped_auc_draws(y, s, groups, n_resamples, np.random.default_rng(seed))
        values = values[np.isfinite(values)]
        if len(values) < n_resamples / 2:
            raise ValueError(f"auc_ci: only {len(values)} of {n_resamples} group resamples "
                             "held both classes; too few groups to bootstrap.")
        return _percentile_ci(estimate, values, confidence_level, n_resamples, seed)
    # Positives and negatives resampled apart (scipy, two samples, vectorised): the AUC
    # of a resample is its Mann-Whitney U over n_pos * n_neg, the same statistic as
    # roc_auc_score (tested), some hundred times faster than a loop of calls.
    pos, neg = s[y == 1], s[y == 0]

    def auc(p: np.ndarray, q: np.ndarray, axis: int = -1) -> np.ndarray:
        u = mannwhitneyu(p, q, axis=axis, method="asymptotic", use_continuity=False).statistic
        return np.asarray(u, dtype=float) / (p.shape[axis] * q.shape[axis])

    values = _distribution((pos, neg), auc, n_resamples, np.random.default_rng(seed),
                           vectorized=True)
    return _percentile_ci(estimate, values, confidence_level, n_resamples, seed)


def kappa_ci(y1, y2, *, labels=None, weights: str | None = None, n_resamples: int = 1000,
             confidence_level: float = 0.95, seed: int = 0) -> ConfidenceInterval:
    """Cohen's kappa with a bootstrap interval (pairs resampled together).

    Parameters
    ----------
    y1, y2 : array-like
        Two raters' labels (binary flags, or verdicts).
    labels : sequence, optional
        The label set, in order (needed for ``weights``).
    weights : {None, "linear", "quadratic"}
    n_resamples, confidence_level, seed
        As in :func:`bootstrap_ci`.

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> ci = kappa_ci([0, 0, 1, 1, 1, 0], [0, 1, 1, 1, 1, 0], n_resamples=200)
    >>> round(ci.estimate, 6)
    0.666667
    """
    a, b = np.asarray(list(y1)), np.asarray(list(y2))
    same_length("kappa_ci", y1=a, y2=b)
    lab = list(labels) if labels is not None else sorted(set(a.tolist()) | set(b.tolist()),
                                                         key=str)

    def kappa(u, v):
        return cohen_kappa_score(u, v, labels=lab, weights=weights, replace_undefined_by=np.nan)

    return bootstrap_ci(kappa, a, b, n_resamples=n_resamples,
                        confidence_level=confidence_level, seed=seed)
