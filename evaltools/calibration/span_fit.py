"""Fitting the span model (:mod:`evaltools.scoring.span_probability`) on labelled spans.

Scoring applies the span model; fitting it is calibration's, as for the
response-level probability (:mod:`evaltools.calibration.learned`).
``benchmarks/span_model.py`` fits the shipped one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltools.scoring.span_probability import SPAN_FEATURES, SpanModel


def fit_span_model(rows: Sequence[Mapping[str, float]], labels: Sequence[int], *,
                   names: Sequence[str] = tuple(SPAN_FEATURES), C: float = 1.0,
                   weights: Sequence[float] | None = None,
                   metadata: Mapping[str, Any] | None = None) -> SpanModel:
    """Fit the span model (standardised features, L2 logistic regression)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    X = np.asarray([[r[n] for n in names] for r in rows], dtype=float)
    y = np.asarray(labels, dtype=int)
    scaler = StandardScaler().fit(X)
    model = LogisticRegression(C=C, max_iter=2000).fit(
        scaler.transform(X), y, sample_weight=None if weights is None else np.asarray(weights))
    scales = tuple(float(s) if s > 0 else 1.0 for s in scaler.scale_)
    return SpanModel(tuple(names), tuple(float(m) for m in scaler.mean_), scales,
                     tuple(float(w) for w in model.coef_[0]), float(model.intercept_[0]),
                     dict(metadata or {}))
