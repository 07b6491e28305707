"""Fitting the learned hallucination probability on labelled, scored records.

The model itself (features, the JSON file format, applying it) lives in
:mod:`evaltools.scoring.probability`, since scoring applies it; this module
fits it with scikit-learn (``StandardScaler`` then ``LogisticRegression``),
with cross-validated out-of-fold probabilities for an honest AUROC and
reliability (stratified folds, grouped when ``groups`` is given so that
records sharing a question stay together). Its names are re-exported here,
so ``from evaltools.calibration.learned import load_calibration`` keeps working.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaltools.scoring.probability import (  # noqa: F401  (re-exported)
    DEFAULT_FEATURES,
    DEFAULT_FILE,
    FEATURES,
    FORMAT,
    FORMAT_VERSION,
    LOGIT_CLIP,
    MAX_COEFFICIENT,
    Coefficient,
    LearnedCalibration,
    _rows,
    _scored,
    feature_function,
    feature_vector,
    features_frame,
    is_feature,
    load_calibration,
)
from evaltools.values import binary_label

# ------------------------------------------------------------------ fitting

#: The column holding a prior model's log-odds while :func:`fit_calibration` fits beside it.
PRIOR_COLUMN = "prior_logit"


def fold_prior(prior: LearnedCalibration, weight: Coefficient,
               coefficients: Sequence[Coefficient], intercept: float
               ) -> tuple[tuple[Coefficient, ...], float]:
    """One linear model from a fit that used ``prior``'s log-odds as a feature.

    The fit's log-odds are ``intercept + weight.coefficient * (L - weight.center) /
    weight.scale + sum(c.coefficient * (x - c.center) / c.scale)``, where ``L`` is
    itself linear in ``prior``'s features. Expanding ``L`` gives the same log-odds
    as one model: a feature in both keeps the fit's center and scale, with the
    prior's part of its coefficient rescaled onto them; a feature only in the
    prior keeps the prior's. So the result is an ordinary calibration file, read
    and applied like any other.

    Examples
    --------
    Prior ``L = 0.5 + 4 (x - 1) / 2``; the fit gives ``L`` the weight 3 on
    ``(L - 2) / 0.5`` and ``x`` itself ``1 * (x - 0) / 1``, intercept 0.1. In ``x``:
    ``0.1 + 6 (0.5 + 2x - 2 - 2) + x = -20.9 + 13 x``:

    >>> prior = LearnedCalibration((Coefficient("claims_score", 1.0, 2.0, 4.0),), 0.5)
    >>> coefs, b = fold_prior(prior, Coefficient(PRIOR_COLUMN, 2.0, 0.5, 3.0),
    ...                       [Coefficient("claims_score", 0.0, 1.0, 1.0)], 0.1)
    >>> [(c.name, c.center, c.scale, c.coefficient) for c in coefs], round(b, 6)
    ([('claims_score', 0.0, 1.0, 13.0)], -20.9)
    """
    a = weight.coefficient / weight.scale  # per unit of the prior's log-odds
    b = intercept + a * (prior.intercept - weight.center)
    out = {c.name: c for c in coefficients}
    for p in prior.coefficients:
        part = a * p.coefficient  # times (x - p.center) / p.scale
        own = out.get(p.name)
        if own is None:
            out[p.name] = Coefficient(p.name, p.center, p.scale, part)
            continue
        # part (x - m)/s = part (σ/s) (x - μ)/σ + part (μ - m)/s
        out[p.name] = Coefficient(own.name, own.center, own.scale,
                                  own.coefficient + part * own.scale / p.scale)
        b += part * (own.center - p.center) / p.scale
    return tuple(out.values()), b


@dataclass(frozen=True)
class FitResult:
    """A fitted calibration with its cross-validated (out-of-fold) probabilities."""

    calibration: LearnedCalibration
    labels: tuple[int, ...]
    cv_probabilities: tuple[float, ...]
    cv_auroc: float
    cv_brier: float
    n_dropped: int

    def reliability(self, *, n_bins: int = 10):
        """Reliability bins of the out-of-fold probabilities."""
        from evaltools.calibration.brier_reliability import reliability

        return reliability(self.labels, self.cv_probabilities, n_bins=n_bins)

    def to_dict(self) -> dict[str, Any]:
        return {"calibration": self.calibration.to_dict(), "labels": list(self.labels),
                "cv_probabilities": list(self.cv_probabilities), "cv_auroc": self.cv_auroc,
                "cv_brier": self.cv_brier, "n_dropped": self.n_dropped}


def _pipeline(C: float):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=1000))


def _splitter(y, groups, folds: int, seed: int):
    from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

    if groups is None:
        return StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    return StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)


def balancing_weights(y, strata=None):
    """Sample weights giving each stratum equal weight and, within it, each label.

    With ``strata`` (one key per record, e.g. the data set), every stratum
    weighs the same in the fit however many records it has, and within a
    stratum the unfaithful and faithful records weigh half each; without,
    only the labels are balanced. Weights average 1.

    Examples
    --------
    >>> [round(float(w), 3) for w in balancing_weights([1, 0, 0, 0])]
    [2.0, 0.667, 0.667, 0.667]
    >>> w = balancing_weights([1, 0, 1, 1, 0, 0], ["a", "a", "b", "b", "b", "b"])
    >>> [round(float(v), 3) for v in w]
    [1.5, 1.5, 0.75, 0.75, 0.75, 0.75]
    """
    import numpy as np

    y = np.asarray(y, dtype=int)
    strata = np.zeros(len(y), dtype=int) if strata is None else np.asarray(strata, dtype=object)
    w = np.zeros(len(y))
    keys = list(dict.fromkeys(strata.tolist()))
    for key in keys:
        in_stratum = strata == key
        labels = np.unique(y[in_stratum])
        for label in labels:
            cell = in_stratum & (y == label)
            w[cell] = 1.0 / (len(keys) * len(labels) * cell.sum())
    return w * len(y) / w.sum()


def cross_validated_probabilities(X, y, *, groups=None, folds: int = 5, seed: int = 0,
                                  C: float = 1.0, sample_weight=None):
    """Out-of-fold ``P(label 1)`` of the calibration model (each record predicted by a
    model that did not see it). ``X`` is a :func:`features_frame`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"claims_score": np.r_[np.zeros(10), np.ones(10)]})
    >>> p = cross_validated_probabilities(X, [0] * 10 + [1] * 10)
    >>> bool(p[:10].max() < 0.5 < p[10:].min())
    True
    """
    import numpy as np
    from sklearn.model_selection import cross_val_predict

    y = np.asarray(y, dtype=int)
    cv = _splitter(y, groups, folds, seed)
    params = None if sample_weight is None else {
        "logisticregression__sample_weight": np.asarray(sample_weight, dtype=float)}
    return cross_val_predict(_pipeline(C), X, y, cv=cv, groups=groups,
                             method="predict_proba", params=params)[:, 1]


@dataclass(frozen=True)
class LabelledRows:
    """The records a fit can use, with their 0/1 labels and, when given, their group and
    stratum keys (as text); ``n_dropped`` counts those left out (no label, or not kept)."""

    rows: list[dict[str, Any]]
    y: tuple[int, ...]
    groups: tuple[str, ...] | None
    strata: tuple[str, ...] | None
    n_dropped: int


def labelled_rows(records, label: str, *, groups: Iterable[Any] | None = None,
                  strata: Iterable[Any] | None = None, func: str = "fit_calibration",
                  keep: Callable[[Mapping[str, Any]], bool] | None = None) -> LabelledRows:
    """Validate and select the labelled records of a fit; errors name ``func``, the record
    and the field.

    ``keep`` decides which labelled records count (default: scored, without ``error``).

    Examples
    --------
    >>> lab = labelled_rows([{"y": 1, "error": None, "claims_score": 0.5},
    ...                      {"y": None, "error": None, "claims_score": 0.1}], "y",
    ...                     groups=["a", "b"])
    >>> lab.y, lab.groups, lab.n_dropped
    ((1,), ('a',), 1)
    """
    rows = _rows(records)
    keys = {}
    for name, values in (("groups", groups), ("strata", strata)):
        if values is not None:
            keys[name] = [str(v) for v in values]
            if len(keys[name]) != len(rows):
                raise ValueError(f"{func}: '{name}' must have one key per record. "
                                 f"Got {len(keys[name])} keys for {len(rows)} records.")
    usable = _scored if keep is None else keep
    kept, ys = [], []
    for i, r in enumerate(rows):
        if label not in r:
            raise ValueError(f"{func}: record {i + 1} has no label field '{label}'.")
        try:
            y = binary_label(r[label])
        except ValueError as exc:
            raise ValueError(f"{func}: record {i + 1}, field '{label}': {exc}") from None
        if y is None or not usable(r):
            continue
        kept.append(i)
        ys.append(y)

    def pick(name: str) -> tuple[str, ...] | None:
        return tuple(keys[name][i] for i in kept) if name in keys else None

    return LabelledRows([rows[i] for i in kept], tuple(ys), pick("groups"), pick("strata"),
                        len(rows) - len(kept))


def fit_calibration(records, *, label: str = "label_hallucinated", C: float = 1.0,
                    folds: int = 5, seed: int = 0, groups: Iterable[Any] | None = None,
                    metadata: Mapping[str, Any] | None = None,
                    features: Sequence[str] | None = None,
                    strata: Iterable[Any] | None = None,
                    balance: bool = False,
                    prior: LearnedCalibration | None = None) -> FitResult:
    """Fit the hallucination probability on scored, labelled records.

    Records with an ``error`` or without a label are left out (counted in
    ``n_dropped``). The AUROC and Brier score reported are those of the
    out-of-fold probabilities, not of the model on its own training data.

    Parameters
    ----------
    records : DataFrame or iterable of dict
        Score outputs with a 0/1 label column.
    label : str, default "label_hallucinated"
    C : float, default 1.0
        Inverse L2 regularisation strength of ``LogisticRegression``.
    folds : int, default 5
    seed : int, default 0
        Seed of the fold shuffling; the fit itself is deterministic.
    groups : iterable, optional
        One group key per record; records of a group share a fold.
    metadata : mapping, optional
        Provenance stored in the JSON (``fitted_on``, ``fitting``, ...).
    features : sequence of str, optional
        Feature names (:func:`is_feature`); :data:`DEFAULT_FEATURES` when None.
    strata : iterable, optional
        One key per record (e.g. the data set): with ``balance``, each stratum
        weighs the same in the fit (:func:`balancing_weights`).
    balance : bool, default False
        Weight records so that labels (within each stratum) weigh the same.
    prior : LearnedCalibration, optional
        A model fitted elsewhere (the shipped one, when ``evaltools calibrate``
        fits a user's labels): its log-odds become one more feature, so the
        fit starts from what it knows and the labels correct it. The result is
        folded back into one linear model over the union of both models'
        features (:func:`fold_prior`); ``metadata["prior"]`` says what it was
        and the weight it got.

    Returns
    -------
    FitResult

    Examples
    --------
    >>> recs = [{"claims_score": c, "ngram_overlap": 1 - c, "anchors_total": 2,
    ...          "anchors": [{"kind": "number", "supported": c < 0.5}], "support": 1 - c,
    ...          "label_hallucinated": int(c >= 0.5)} for c in [0, .1, .2, .3, .4] * 2
    ...         + [.6, .7, .8, .9, 1] * 2]
    >>> fit = fit_calibration(recs, features=list(FEATURES))  # the score fields' features
    >>> fit.cv_auroc, len(fit.calibration.coefficients)
    (1.0, 6)
    """
    import numpy as np
    from sklearn.metrics import brier_score_loss, roc_auc_score

    names = list(DEFAULT_FEATURES if features is None else features)
    for name in names:
        if not is_feature(name):
            raise ValueError(f"fit_calibration: unknown feature {name!r}")
    lab = labelled_rows(records, label, groups=groups, strata=strata, func="fit_calibration")
    ys = list(lab.y)
    if len(set(ys)) < 2:
        raise ValueError(f"fit_calibration: needs both labels (0 and 1) among scored records. "
                         f"Got {sorted(set(ys))} instead.")
    counts = np.bincount(ys, minlength=2)
    if counts.min() < folds:
        raise ValueError(f"fit_calibration: each label needs at least folds={folds} records. "
                         f"Got {int(counts[0])} of 0 and {int(counts[1])} of 1 instead.")
    X = features_frame(lab.rows, names)
    if prior is not None:
        X.insert(0, PRIOR_COLUMN, [prior.logit(r) for r in lab.rows])
    y = np.asarray(ys, dtype=int)
    g = None if lab.groups is None else np.asarray(lab.groups)
    weight = balancing_weights(y, lab.strata) if balance else None
    cv_prob = cross_validated_probabilities(X, y, groups=g, folds=folds, seed=seed, C=C,
                                            sample_weight=weight)
    model = _pipeline(C).fit(X, y, logisticregression__sample_weight=weight)
    scaler, logreg = model.steps[0][1], model.steps[-1][1]
    coefs = tuple(
        Coefficient(name, float(m), float(s) if s > 0 else 1.0, float(w))
        for name, m, s, w in zip(X.columns, scaler.mean_, scaler.scale_, logreg.coef_[0],
                                 strict=True))
    intercept = float(logreg.intercept_[0])
    prior_meta = {}
    if prior is not None:
        weight, *own = coefs
        coefs, intercept = fold_prior(prior, weight, own, intercept)
        prior_meta = {"prior": {
            "features": list(prior.feature_names),
            "fitted_on": {k: v for k, v in prior.metadata.get("fitted_on", {}).items()
                          if k in ("file", "sha256", "n", "n_hallucinated")},
            "weight": round(weight.coefficient, 4),
            "note": "the prior's log-odds were one feature (standardised weight above); "
                    "the coefficients are the prior and the correction folded together"}}
    cv_auroc = float(roc_auc_score(y, cv_prob))
    cv_brier = float(brier_score_loss(y, cv_prob))
    from evaltools.calibration.thresholds import recommend_threshold

    meta = {
        # Rounded *down* to 4 decimals: "p >= threshold" still flags the record whose
        # probability was chosen (rounding to nearest could lift the cut above it).
        "recommended_threshold": math.floor(float(
            recommend_threshold(y, cv_prob, criterion="f1").threshold) * 1e4) / 1e4,
        "fitted_on": {"n": len(y), "n_hallucinated": int(y.sum())},
        "metrics": {"cv_auroc": round(cv_auroc, 4), "cv_brier": round(cv_brier, 4),
                    "cv_folds": folds, "cv_grouped": g is not None},
        "fitting": {"C": C, "seed": seed, "label": label, "balanced": balance,
                    "strata": None if lab.strata is None else sorted(set(lab.strata))},
        **prior_meta,
    }
    for key, value in (metadata or {}).items():
        if isinstance(value, Mapping) and isinstance(meta.get(key), Mapping):
            meta[key] = {**meta[key], **value}
        else:
            meta[key] = value
    calibration = LearnedCalibration(coefs, intercept, meta)
    return FitResult(calibration=calibration, labels=tuple(int(v) for v in y),
                     cv_probabilities=tuple(float(p) for p in cv_prob), cv_auroc=cv_auroc,
                     cv_brier=cv_brier, n_dropped=lab.n_dropped)
