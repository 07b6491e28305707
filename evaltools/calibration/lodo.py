"""Leave one data set out: the figure that predicts a new user's data.

A model fitted on several labelled data sets and measured on the same ones
(even cross-validated within them) learns what those sets share, including
what is peculiar to them: how long their hallucinated answers are, how their
annotators treat chit-chat. :func:`leave_one_dataset_out` fits on every set
but one and measures AUROC on that one, for each set in turn: the held-out
set plays a new user's pipeline. :func:`forward_select` chooses features by
that same figure, and with ``nested=True`` the choice itself is made without
the held-out set, so nothing about it leaks into its own measurement.

The model is the one :func:`evaltools.calibration.learned.fit_calibration`
fits (standardised features, L2 logistic regression), with each data set and,
within it, each label weighing the same (:func:`balancing_weights`): a large
set does not drown a small one, and AUROC within a set does not depend on
its share of hallucinations.

Examples
--------
>>> import numpy as np, pandas as pd
>>> rng = np.random.default_rng(0)
>>> frame = pd.DataFrame({"x": np.r_[rng.normal(0, 1, 60), rng.normal(2, 1, 60)],
...                       "noise": rng.normal(0, 1, 120),
...                       "label": [0] * 60 + [1] * 60,
...                       "dataset": ["a", "b", "c"] * 40})
>>> res = leave_one_dataset_out(frame, ["x"], resamples=50)
>>> sorted(res.per_dataset), all(r.auroc.estimate > 0.8 for r in res.per_dataset.values())
(['a', 'b', 'c'], True)
>>> forward_select(frame, ["x", "noise"], start=())
('x',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltools.calibration.bootstrap import ConfidenceInterval, auc_ci
from evaltools.calibration.learned import balancing_weights


def _model(C: float):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))


def fit_predict(train, test, features: Sequence[str], label: str = "label",
                dataset: str = "dataset", C: float = 1.0):
    """P(label 1) of ``test``'s records from the model fitted on ``train`` (each data set
    and, within it, each label weighing the same)."""
    model = _model(C)
    model.fit(train[list(features)], train[label],
              logisticregression__sample_weight=balancing_weights(train[label],
                                                                  train[dataset]))
    return model.predict_proba(test[list(features)])[:, 1]


def _held_out(frame, label: str, dataset: str):
    """``(name, the other sets, this set)`` for each data set with both labels."""
    for name in sorted(frame[dataset].unique()):
        test = frame[frame[dataset] == name]
        if test[label].nunique() == 2:
            yield name, frame[frame[dataset] != name], test


def lodo_aurocs(frame, features: Sequence[str], *, label: str = "label",
                dataset: str = "dataset", C: float = 1.0) -> dict[str, float]:
    """AUROC on each data set of a model fitted on all the others (point estimates only).

    Data sets with one label only are skipped (AUROC is undefined there).
    """
    from sklearn.metrics import roc_auc_score

    out = {}
    for name, train, test in _held_out(frame, label, dataset):
        out[name] = float(roc_auc_score(
            test[label], fit_predict(train, test, features, label, dataset, C)))
    return out


def best_baselines(frame, baselines: Sequence[str], *, label: str = "label",
                   dataset: str = "dataset") -> dict[str, float]:
    """Each data set's AUROC of its best ``baselines`` column (0 without baselines): what
    a model's LODO AUROC on that set must beat."""
    from sklearn.metrics import roc_auc_score

    return {name: max((roc_auc_score(part[label], part[b]) for b in baselines), default=0.0)
            for name, part in frame.groupby(dataset)}


#: what a feature set that leaves some data set at or under its best baseline scores, less
#: that set's shortfall: below every feature set that keeps them all above
BELOW_BASELINE = -1.0


def _objective(frame, features, label, dataset, C, baselines) -> float:
    """The mean LODO AUROC over the data sets, if each is above its best baseline.

    margin = LODO AUROC - the best ``baselines`` column's AUROC on that set (the AUROC
    itself without baselines). A feature set that leaves some set at or under its best
    baseline scores :data:`BELOW_BASELINE` plus its worst margin, so it ranks below every
    feature set that keeps them all above, and the least short of them first: a new
    user's data is one set, and word counting must not serve it better. Among the rest
    the mean decides (until the thirty-ninth round the worst margin plus a quarter of the
    mean decided, so the set with the thinnest margin, LFQA's +0.006, vetoed any feature
    that cost it a few thousandths whatever it gained elsewhere; docs/validity.md).
    """
    scores = lodo_aurocs(frame, features, label=label, dataset=dataset, C=C)
    if not scores:
        return 0.0
    best = best_baselines(frame, baselines, label=label, dataset=dataset)
    margins = [value - best[name] for name, value in scores.items()]
    if min(margins) <= 0:
        return BELOW_BASELINE + min(margins)
    return sum(scores.values()) / len(scores)


def forward_select(frame, candidates: Sequence[str], *, start: Sequence[str] = (),
                   label: str = "label", dataset: str = "dataset", C: float = 1.0,
                   baselines: Sequence[str] = (), max_features: int = 12,
                   min_gain: float = 0.001) -> tuple[str, ...]:
    """Features added one at a time while the LODO objective gains at least ``min_gain``.

    The objective (:func:`_objective`) is the mean leave-one-dataset-out AUROC, as long
    as every set stays above its best baseline column (``baselines``: columns of
    ``frame`` holding baseline scores): a feature that helps on average but loses one set
    to word counting does not pay.
    """
    chosen = list(start)
    best = _objective(frame, chosen, label, dataset, C, baselines) if chosen else 0.0
    left = [c for c in candidates if c not in chosen]
    while left and len(chosen) < max_features:
        trial = {c: _objective(frame, [*chosen, c], label, dataset, C, baselines) for c in left}
        pick = max(left, key=lambda c: (trial[c], -left.index(c)))
        if trial[pick] < best + min_gain:
            break
        chosen.append(pick)
        left.remove(pick)
        best = trial[pick]
    return tuple(chosen)


@dataclass(frozen=True)
class DatasetResult:
    """One held-out data set: its AUROC with a group-bootstrap interval, and what chose it."""

    dataset: str
    n: int
    n_positive: int
    auroc: ConfidenceInterval
    features: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "n": self.n, "n_positive": self.n_positive,
                "auroc": self.auroc.to_dict(), "features": list(self.features)}


@dataclass(frozen=True)
class LodoResult:
    """Leave-one-dataset-out AUROC of one model specification on every data set."""

    per_dataset: Mapping[str, DatasetResult]
    features: tuple[str, ...]
    nested: bool
    C: float = 1.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def mean_auroc(self) -> float:
        vals = [r.auroc.estimate for r in self.per_dataset.values()]
        return sum(vals) / len(vals) if vals else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "nested": self.nested, "C": self.C,
                "mean_auroc": self.mean_auroc,
                "per_dataset": {k: v.to_dict() for k, v in self.per_dataset.items()},
                **dict(self.extra)}


def leave_one_dataset_out(frame, features: Sequence[str], *, label: str = "label",
                          dataset: str = "dataset", group: str | None = None,
                          C: float = 1.0, nested: bool = False,
                          candidates: Sequence[str] = (), baselines: Sequence[str] = (),
                          resamples: int = 1000, seed: int = 0) -> LodoResult:
    """For each data set: fit on the others, AUROC on it with a 95 % bootstrap interval.

    Parameters
    ----------
    frame : DataFrame
        One row per record: the feature columns, ``label`` (0/1), ``dataset``
        and, optionally, ``group`` (the interval resamples whole groups).
    features : sequence of str
        The model's features; with ``nested`` the starting set of the selection.
    nested : bool, default False
        Choose the features for each held-out set by :func:`forward_select` on
        the other sets only (from ``features`` plus ``candidates``): the honest
        figure for a procedure that selects features.
    resamples : int, default 1000
        Bootstrap resamples of the interval.

    Returns
    -------
    LodoResult
    """
    out = {}
    for name, train, test in _held_out(frame, label, dataset):
        feats = tuple(features)
        if nested:
            feats = forward_select(train, [*features, *candidates], start=features,
                                   label=label, dataset=dataset, C=C, baselines=baselines)
        p = fit_predict(train, test, feats, label, dataset, C)
        ci = auc_ci(test[label].to_numpy(), p, n_resamples=resamples, seed=seed,
                    groups=None if group is None else test[group].astype(str).to_numpy())
        out[name] = DatasetResult(name, len(test), int(test[label].sum()), ci, feats)
    return LodoResult(out, tuple(features), nested, C)
