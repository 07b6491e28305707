"""Probabilities against binary labels: Brier score and reliability bins.

Examples
--------
>>> brier([0, 1, 1], [0.0, 0.5, 1.0])
0.08333333333333333
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from evaltools.arguments import check_one_of, check_positive_int, parameter_message
from evaltools.calibration._checks import binary_labels, json_value, same_length, scores


def _probabilities(y_true, prob, func: str) -> tuple[np.ndarray, np.ndarray]:
    y = binary_labels(y_true, func=func)
    p = scores(prob, name="prob", func=func)
    same_length(func, y_true=y, prob=p)
    if len(y) == 0:
        raise ValueError(f"{func}: needs at least one labelled record. Got none.")
    if p.min() < 0.0 or p.max() > 1.0:
        raise ValueError(parameter_message("prob", func, "hold probabilities in [0, 1]",
                                           f"values from {p.min()!r} to {p.max()!r}"))
    return y, p


def brier(y_true, prob) -> float:
    """Brier score: mean squared distance of probabilities from labels (lower is better).

    ``sklearn.metrics.brier_score_loss``.

    Parameters
    ----------
    y_true : array-like of 0/1
    prob : array-like of float in [0, 1]
        Probability of label 1.

    Returns
    -------
    float

    Examples
    --------
    By hand: ((0 - 0)^2 + (1 - 0.5)^2 + (1 - 1)^2) / 3 = 0.25 / 3.

    >>> brier([0, 1, 1], [0.0, 0.5, 1.0]) == 0.25 / 3
    True
    """
    y, p = _probabilities(y_true, prob, "brier")
    return float(brier_score_loss(y, p, labels=[0, 1]))


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability diagram (``mean_predicted`` and
    ``fraction_positive`` are None for an empty bin)."""

    lower: float
    upper: float
    count: int
    mean_predicted: float | None
    fraction_positive: float | None

    def to_dict(self) -> dict[str, Any]:
        return json_value({k: getattr(self, k) for k in self.__dataclass_fields__})


@dataclass(frozen=True)
class Reliability:
    """Reliability bins with the Brier score and the expected calibration error.

    ``ece`` = sum over bins of ``count / n * |fraction_positive - mean_predicted|``.
    """

    bins: tuple[ReliabilityBin, ...]
    brier: float
    ece: float
    n: int
    strategy: str

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{k: getattr(b, k) for k in b.__dataclass_fields__}
                             for b in self.bins])

    def to_dict(self) -> dict[str, Any]:
        return json_value({"bins": [b.to_dict() for b in self.bins], "brier": self.brier,
                           "ece": self.ece, "n": self.n, "strategy": self.strategy})


def reliability(y_true, prob, *, n_bins: int = 10, strategy: str = "uniform") -> Reliability:
    """Reliability bins: in each bin of predicted probability, the observed rate of label 1.

    The bins are those of ``sklearn.calibration.calibration_curve`` (which
    computes the two means); this adds the count per bin and keeps empty bins.

    Parameters
    ----------
    y_true : array-like of 0/1
    prob : array-like of float in [0, 1]
    n_bins : int, default 10
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins, or bins with about equal counts.

    Returns
    -------
    Reliability

    Examples
    --------
    >>> r = reliability([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], n_bins=2)
    >>> [(b.count, b.mean_predicted, b.fraction_positive) for b in r.bins]
    [(2, 0.15000000000000002, 0.0), (2, 0.8, 1.0)]
    >>> round(r.ece, 6)
    0.175
    """
    func = "reliability"
    check_one_of(strategy, "strategy", func, ("uniform", "quantile"))
    check_positive_int(n_bins, "n_bins", func)
    y, p = _probabilities(y_true, prob, func)
    if strategy == "quantile":
        edges = np.unique(np.percentile(p, np.linspace(0, 100, n_bins + 1)))
        edges[0], edges[-1] = min(edges[0], 0.0), max(edges[-1], 1.0)
        if edges.size < 2:
            edges = np.array([0.0, 1.0])
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    # The same bin assignment as calibration_curve.
    ids = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(ids, minlength=len(edges) - 1)
    nonempty = np.flatnonzero(counts)
    if len(set(y.tolist())) == 2 and strategy == "uniform":
        frac, mean = calibration_curve(y, p, n_bins=n_bins, strategy="uniform")
    else:  # calibration_curve needs both classes; a one-class sample is still binnable
        frac = np.bincount(ids, weights=y, minlength=len(counts))[nonempty] / counts[nonempty]
        mean = np.bincount(ids, weights=p, minlength=len(counts))[nonempty] / counts[nonempty]
    by_bin = dict(zip(nonempty.tolist(), zip(mean.tolist(), frac.tolist(), strict=True),
                      strict=True))
    bins = tuple(
        ReliabilityBin(lower=float(edges[i]), upper=float(edges[i + 1]), count=int(counts[i]),
                       mean_predicted=by_bin[i][0] if i in by_bin else None,
                       fraction_positive=by_bin[i][1] if i in by_bin else None)
        for i in range(len(counts)))
    ece = float(sum(b.count * abs(b.fraction_positive - b.mean_predicted)
                    for b in bins if b.count) / len(y))
    return Reliability(bins=bins, brier=brier(y, p), ece=ece, n=len(y), strategy=strategy)
