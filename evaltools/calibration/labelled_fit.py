"""How many labels does the hallucination probability need, and where to cut it?

Fitted on an analyst's own labels (``evaltools calibrate``), the learned
probability comes with two answers:

- a **learning curve** (:func:`learning_curve`): the grouped, cross-validated
  AUROC and F1 of the model fitted on 25, 50, 100, 200, 400, ... labels up to
  the file's size. Each size is drawn several times (``repeats``) as a random
  subsample *by group* — whole groups (the answers to one question, the
  summaries of one article) are taken until the subsample holds at least that
  many records — and each subsample is cross-validated with grouped folds. A
  curve still rising at the file's size says more labels will help; a flat one
  says they will not.
- a **recommended threshold** (:func:`recommend_probability_threshold`) on the
  probability: the one that maximises F1 on the out-of-fold probabilities (each
  record predicted by a model that did not see it), with precision and recall
  there. It is the calibration's ``recommended_threshold`` (written by
  ``fit_calibration``, read by the verdict); this module adds its metrics.
  Because it is chosen on the same probabilities it is scored on, its F1 is a
  little optimistic; ``f1_cross_fitted`` is the honest figure (each fold
  flagged with a threshold chosen on the other folds).

Both are computed through the public fitting interface only
(:func:`evaltools.calibration.learned.fit_calibration`: ``label``, ``groups``,
``folds``, ``seed`` in, ``strata`` when given; ``cv_probabilities`` and the
calibration's ``recommended_threshold`` out), so they hold whatever features
and model family that function fits.

Library use: folds are scikit-learn's ``StratifiedGroupKFold``, AUROC
``roc_auc_score``, F1 ``f1_score``, and the threshold
:func:`evaltools.calibration.thresholds.recommend_threshold` (one ``roc_curve``
pass over the observed probabilities). The subsample draw is hand-written:
``GroupShuffleSplit`` counts its ``train_size`` in *groups*, but a learning
curve is read in *labels* (records), and groups differ in size.

Everything is deterministic for a given ``seed``: the draw of size ``n``,
repeat ``r`` uses ``numpy.random.default_rng([seed, n, r])``, so adding a size
does not change the others.

Examples
--------
A feature that separates the labels perfectly gives AUROC 1 at every size:

>>> rows = [{"claims_score": float(i % 2), "ngram_overlap": 0.5, "anchors": [],
...          "support": 1.0, "anchors_total": 0, "label_hallucinated": i % 2}
...         for i in range(60)]
>>> curve = learning_curve(rows, repeats=2, features=["claims_score"])
>>> [p.n for p in curve.points], [p.auroc_mean for p in curve.points]
([25, 50, 60], [1.0, 1.0, 1.0])
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from evaltools.arguments import check_positive_int, check_value
from evaltools.calibration._checks import json_value
from evaltools.calibration.learned import labelled_rows
from evaltools.values import binary_label, is_missing

#: The first size of a curve; each next one doubles it (25, 50, 100, 200, ...).
FIRST_SIZE = 25
#: Random subsamples drawn at each size.
DEFAULT_REPEATS = 5
#: What the probability is called in a rule ("hallucination_probability >= 0.41").
SCORE_NAME = "hallucination_probability"
#: L2 strength (scikit-learn's ``C``) of a fit that starts from a prior model: the
#: prior's log-odds and every signal, strongly regularised, so that a few labels
#: move the prior a little and many labels move it more (docs/calibration.md).
PRIOR_C = 0.01
#: ``fit_on_labels(prior=SHIPPED)``: start from the shipped default calibration.
SHIPPED = "shipped"


def prior_options(prior: Any, fit_options: dict[str, Any]) -> dict[str, Any]:
    """The options of a fit on labels that starts from ``prior``.

    ``prior`` is :data:`SHIPPED` (the shipped default calibration), a
    :class:`~evaltools.scoring.probability.LearnedCalibration`, or None (a fit
    from scratch). With a prior, the fit uses every signal at ``C =``
    :data:`PRIOR_C` unless ``features`` or ``C`` are given. Options given as
    None are left out (the fitting function's default).

    Examples
    --------
    >>> prior_options(None, {"C": None, "features": ["claims_score"]})
    {'features': ['claims_score']}
    >>> opts = prior_options(SHIPPED, {})
    >>> opts["C"], "novel_rare" in opts["features"], opts["prior"].feature_names[0]
    (0.01, True, 'unsupported_share')
    """
    options = {k: v for k, v in fit_options.items() if v is not None}
    if prior is None:
        return options
    from evaltools.scoring.probability import LearnedCalibration, load_calibration
    from evaltools.scoring.signals import SIGNALS

    if isinstance(prior, str) and prior == SHIPPED:
        prior = load_calibration()
    if not isinstance(prior, LearnedCalibration):
        raise ValueError(f"prior must be {SHIPPED!r}, a LearnedCalibration or None. "
                         f"Got {type(prior).__name__} instead.")
    return {"features": list(SIGNALS), "C": PRIOR_C, **options, "prior": prior}


def curve_sizes(n_records: int, *, first: int = FIRST_SIZE) -> tuple[int, ...]:
    """The sizes of a learning curve: ``first``, doubling, below ``n_records``; then ``n_records``.

    Examples
    --------
    >>> curve_sizes(74), curve_sizes(400), curve_sizes(20)
    ((25, 50, 74), (25, 50, 100, 200, 400), (20,))
    """
    check_positive_int(n_records, "n_records", "curve_sizes")
    check_positive_int(first, "first", "curve_sizes")
    sizes, s = [], first
    while s < n_records:
        sizes.append(s)
        s *= 2
    return (*sizes, n_records)


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class CurvePoint:
    """The cross-validated AUROC and F1 at one number of labels, over its repeats.

    ``n`` is the size asked for; ``n_records`` the mean size drawn (whole groups
    are taken, so it can be a little larger), ``n_positive`` the mean number of
    label-1 records in it (few positives make a noisy AUROC). ``auroc`` and ``f1`` hold one value
    per repeat that could be fitted (a subsample with too few of one label is
    skipped and counted in ``skipped``). ``f1`` is cross-fitted: each fold
    flagged at the threshold that maximises F1 on the other folds. ``sd`` is the
    spread between repeats (sample standard deviation, NaN for fewer than two).
    """

    n: int
    n_records: float
    folds: int
    auroc: tuple[float, ...]
    f1: tuple[float, ...]
    skipped: int
    n_positive: float = math.nan

    @property
    def repeats(self) -> int:
        return len(self.auroc)

    @property
    def auroc_mean(self) -> float:
        return _mean(self.auroc)

    @property
    def auroc_sd(self) -> float:
        return _sd(self.auroc)

    @property
    def f1_mean(self) -> float:
        return _mean(self.f1)

    @property
    def f1_sd(self) -> float:
        return _sd(self.f1)

    def to_dict(self) -> dict[str, Any]:
        return json_value({
            "n": self.n, "n_records": _round(self.n_records),
            "n_positive": _round(self.n_positive), "folds": self.folds,
            "repeats": self.repeats, "skipped": self.skipped,
            "auroc_mean": _round(self.auroc_mean), "auroc_sd": _round(self.auroc_sd),
            "auroc_min": _round(min(self.auroc, default=math.nan)),
            "auroc_max": _round(max(self.auroc, default=math.nan)),
            "f1_mean": _round(self.f1_mean), "f1_sd": _round(self.f1_sd),
        })


@dataclass(frozen=True)
class LearningCurve:
    """Cross-validated AUROC and F1 against the number of labels (rows by size)."""

    points: tuple[CurvePoint, ...]
    n_total: int
    grouped: bool
    folds: int
    repeats: int
    seed: int

    def to_frame(self):
        """One row per size: n, records, folds, repeats, skipped, AUROC and F1 (mean, sd, ...)."""
        import pandas as pd

        return pd.DataFrame([p.to_dict() for p in self.points])

    def to_dict(self) -> dict[str, Any]:
        return {"n_total": self.n_total, "grouped": self.grouped, "folds": self.folds,
                "repeats": self.repeats, "seed": self.seed,
                "points": [p.to_dict() for p in self.points]}


@dataclass(frozen=True)
class ProbabilityThreshold:
    """The probability threshold that maximises F1 out-of-fold: flag when ``p >= value``.

    ``f1``, ``precision``, ``recall`` and ``flagged_share`` are those of that
    threshold on the out-of-fold probabilities it was chosen on;
    ``f1_cross_fitted`` flags each fold at the threshold chosen on the others
    (the figure to expect on new records of the same kind).
    """

    value: float
    f1: float
    precision: float
    recall: float
    flagged_share: float
    f1_cross_fitted: float
    n: int
    n_positive: int
    #: True when the value was given (``evaltools calibrate --threshold``), not chosen for F1
    given: bool = False

    @property
    def rule(self) -> str:
        """E.g. ``'hallucination_probability >= 0.4123'``."""
        return f"{SCORE_NAME} >= {self.value:.4g}"

    def to_dict(self) -> dict[str, Any]:
        return json_value({
            "value": self.value, "criterion": "given" if self.given else "f1",
            "rule": self.rule,
            "chosen_on": ("given (evaltools calibrate --threshold); metrics on out-of-fold "
                          "probabilities" if self.given else "out-of-fold probabilities"),
            "f1": _round(self.f1), "precision": _round(self.precision),
            "recall": _round(self.recall), "flagged_share": _round(self.flagged_share),
            "f1_cross_fitted": _round(self.f1_cross_fitted),
            "n": self.n, "n_positive": self.n_positive,
        })


@dataclass(frozen=True)
class LabelledFit:
    """A calibration fitted on labels, with its recommended threshold and learning curve.

    ``calibration`` carries both in its metadata: ``recommended_threshold``
    (the value, which ``LearnedCalibration.recommended_threshold`` reads),
    ``threshold_metrics`` (its rule, F1, precision, recall, ...) and
    ``learning_curve``.
    """

    fit: Any  # evaltools.calibration.learned.FitResult
    threshold: ProbabilityThreshold
    curve: LearningCurve | None
    n_left_out: int = 0  # records with an error or without a label

    @property
    def calibration(self):
        metrics = {k: v for k, v in self.threshold.to_dict().items() if k != "value"}
        extra = {"recommended_threshold": self.threshold.value,
                 "threshold_metrics": metrics}
        if self.curve is not None:
            extra["learning_curve"] = self.curve.to_dict()
        cal = self.fit.calibration
        return replace(cal, metadata={**cal.metadata, **extra})

    def to_dict(self) -> dict[str, Any]:
        return {"cv_auroc": self.fit.cv_auroc, "n_left_out": self.n_left_out,
                "threshold": self.threshold.to_dict(),
                "learning_curve": None if self.curve is None else self.curve.to_dict()}


def _mean(v: Sequence[float]) -> float:
    return float(np.mean(v)) if len(v) else math.nan


def _sd(v: Sequence[float]) -> float:
    return float(np.std(v, ddof=1)) if len(v) > 1 else math.nan


def _round(x: float) -> float:
    return round(float(x), 4) if math.isfinite(x) else math.nan


# ------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class _Labelled:
    rows: list[dict[str, Any]]
    y: np.ndarray
    groups: np.ndarray
    grouped: bool
    n_left_out: int
    strata: np.ndarray | None = None


def _prepare(records, label: str, groups: Iterable[Any] | None, func: str,
             strata: Iterable[Any] | None = None) -> _Labelled:
    """Rows with a 0/1 label and no error, their labels, groups (one per record when none)
    and strata (when given)."""
    lab = labelled_rows(records, label, groups=groups, strata=strata, func=func,
                        keep=lambda r: is_missing(r.get("error")))
    g = (np.asarray(lab.groups) if lab.groups is not None
         else np.asarray([f"#{i}" for i in range(len(lab.rows))]))
    return _Labelled(lab.rows, np.asarray(lab.y, dtype=int), g, lab.groups is not None,
                     lab.n_dropped, None if lab.strata is None else np.asarray(lab.strata))


def _folds_for(y: np.ndarray, groups: np.ndarray, folds: int) -> int:
    """As many folds as asked, but no more than each label's records or the groups allow."""
    return int(min(folds, (y == 1).sum(), (y == 0).sum(), len(np.unique(groups))))


def draw_groups(groups, size: int, rng: np.random.Generator) -> np.ndarray:
    """Sorted indices of a random subsample of whole groups holding at least ``size`` records.

    Groups are taken in a random order (``rng.permutation``) until their
    records reach ``size``; all records when ``size`` is the total or more.

    Examples
    --------
    Groups of 2, 1 and 3 records; asking for 2 takes groups until 2 records are
    reached, so the draw holds 2, 3 or 4 records, and always whole groups:

    >>> groups = np.array(["a", "a", "b", "c", "c", "c"])
    >>> idx = draw_groups(groups, 2, np.random.default_rng(0))
    >>> sorted(set(groups[idx].tolist())), len(idx)   # seed 0 drew "c" first
    (['c'], 3)
    >>> len(draw_groups(groups, 6, np.random.default_rng(0)))
    6
    """
    groups = np.asarray(groups)
    names, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    order = rng.permutation(len(names))
    upto = int(np.searchsorted(np.cumsum(counts[order]), size)) + 1
    chosen = np.zeros(len(names), dtype=bool)
    chosen[order[:upto]] = True
    return np.flatnonzero(chosen[inverse])


# ------------------------------------------------------------------ threshold


def _best_f1_threshold(y: np.ndarray, p: np.ndarray):
    from evaltools.calibration.thresholds import recommend_threshold

    return recommend_threshold(y, p, criterion="f1")


def cross_fitted_f1(y_true, probabilities, groups=None, *, folds: int = 5,
                    seed: int = 0) -> float:
    """F1 when each fold is flagged (``p >= t``) at the max-F1 threshold ``t`` of the other folds.

    The probabilities must be out-of-fold already; this only keeps the
    threshold's choice honest. Folds are ``StratifiedGroupKFold`` (fewer when a
    label or the groups are too few); a training part with one label only
    flags nothing. NaN when fewer than two folds are possible.

    Examples
    --------
    Every label-1 record at 0.9 and every label-0 record at 0.1: whichever
    records the other folds hold, their max-F1 threshold is 0.9, which flags
    exactly the label-1 records of the held-out fold.

    >>> cross_fitted_f1([0, 1, 0, 1, 0, 1], [0.1, 0.9, 0.1, 0.9, 0.1, 0.9], folds=3)
    1.0
    """
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedGroupKFold

    y = np.asarray([binary_label(v) for v in y_true], dtype=int)
    p = np.asarray(probabilities, dtype=float)
    g = np.arange(len(y)).astype(str) if groups is None else np.asarray(groups).astype(str)
    k = _folds_for(y, g, folds)
    if k < 2:
        return math.nan
    flags = np.zeros(len(y), dtype=bool)
    split = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    for train, test in split.split(p.reshape(-1, 1), y, g):
        if len(np.unique(y[train])) < 2:
            continue
        flags[test] = p[test] >= _best_f1_threshold(y[train], p[train]).threshold
    return float(f1_score(y, flags.astype(int), zero_division=0.0))


def recommend_probability_threshold(y_true, probabilities, groups=None, *, folds: int = 5,
                                    seed: int = 0, value: float | None = None,
                                    given: bool = False) -> ProbabilityThreshold:
    """The threshold that maximises F1 on out-of-fold probabilities, with its metrics.

    The threshold is the observed probability with the highest F1 (ties: the
    one that flags fewer records), rounded down to 4 decimals as the
    calibration file stores it (so ``p >= value`` still flags the record
    chosen); the metrics are those of ``p >= value`` at that value.

    Parameters
    ----------
    y_true : array-like of 0/1
    probabilities : array-like of float
        Out-of-fold probabilities (``FitResult.cv_probabilities``).
    groups : array-like, optional
        Group of each record, for the cross-fitted F1's folds.
    folds, seed : int
        Folds and seed of the cross-fitted F1.
    value : float, optional
        A threshold chosen already (the calibration's ``recommended_threshold``):
        only its metrics are computed.
    given : bool
        ``value`` was given by the user (``evaltools calibrate --threshold``),
        not chosen for F1; the record says so.

    Returns
    -------
    ProbabilityThreshold

    Examples
    --------
    Flagging ``p >= 0.3`` catches all three label-1 records with one false
    alarm (0.4): precision 3/4, recall 1, F1 = 2*3 / (2*3 + 1) = 6/7. The
    next candidates do worse: ``p >= 0.6`` misses one (F1 = 2*2 / (2*2 + 1) =
    4/5), ``p >= 0.2`` adds a false alarm (F1 = 6/8).

    >>> t = recommend_probability_threshold([0, 0, 1, 0, 1, 1],
    ...                                     [0.1, 0.2, 0.3, 0.4, 0.6, 0.8])
    >>> t.value, round(t.f1, 6), t.precision, t.recall, t.rule
    (0.3, 0.857143, 0.75, 1.0, 'hallucination_probability >= 0.3')
    """
    y = np.asarray([binary_label(v) for v in y_true], dtype=int)
    p = np.asarray(probabilities, dtype=float)
    from evaltools.calibration.thresholds import evaluate_threshold

    if value is None:
        value = math.floor(float(_best_f1_threshold(y, p).threshold) * 1e4) / 1e4
    m = evaluate_threshold(y, p, float(value), inclusive=True)
    return ProbabilityThreshold(
        value=float(value), f1=float(m.f1), precision=float(m.precision),
        recall=float(m.recall), flagged_share=float(m.flagged_share),
        f1_cross_fitted=cross_fitted_f1(y, p, groups, folds=folds, seed=seed),
        n=len(y), n_positive=int(y.sum()), given=given)


# ------------------------------------------------------------------ the curve


def _fit_function(fit: Callable[..., Any] | None) -> Callable[..., Any]:
    if fit is not None:
        return fit
    from evaltools.calibration.learned import fit_calibration

    return fit_calibration


def _one_fit(fit, rows, y, g, *, label, folds, seed, **extra):
    """Out-of-fold probabilities of one fit, aligned with ``y``, and the folds used; the
    probabilities are None when the subsample cannot be fitted, with the ValueError
    raised (if any) third."""
    k = _folds_for(y, g, folds)
    if k < 2:
        return None, k, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # small folds: sklearn's class-balance warnings
            res = fit(rows, label=label, groups=list(g), folds=k, seed=seed, **extra)
    except ValueError as exc:  # e.g. a training part with one label only
        return None, k, exc
    p = np.asarray(res.cv_probabilities, dtype=float)
    if len(p) != len(y):
        raise RuntimeError(f"fit returned {len(p)} out-of-fold probabilities for {len(y)} "
                           "records (records with an error or no label must be left out first)")
    return p, k, None


def learning_curve(records, *, label: str = "label_hallucinated",
                   groups: Iterable[Any] | None = None, sizes: Sequence[int] | None = None,
                   repeats: int = DEFAULT_REPEATS, folds: int = 5, seed: int = 0,
                   fit: Callable[..., Any] | None = None,
                   strata: Iterable[Any] | None = None, **fit_options: Any) -> LearningCurve:
    """Grouped cross-validated AUROC and F1 of the probability fitted on n labels, for each n.

    Parameters
    ----------
    records : DataFrame or iterable of dict
        Scored records with a 0/1 label; records with an ``error`` or no label
        are left out first.
    label : str, default "label_hallucinated"
    groups : iterable, optional
        One group key per record; a subsample takes whole groups and a group
        stays in one fold. Default: every record its own group.
    sizes : sequence of int, optional
        Numbers of labels; default :func:`curve_sizes` (25, 50, 100, ... and
        the number of usable records). Sizes above it are left out.
    repeats : int, default 5
        Random subsamples per size. At the full size every repeat holds all
        records and differs only in its folds.
    folds : int, default 5
        Cross-validation folds (fewer in a subsample with fewer records of a
        label or fewer groups; under two, the repeat is skipped).
    seed : int, default 0
    fit : callable, optional
        The fitting function (default
        :func:`evaltools.calibration.learned.fit_calibration`), called as
        ``fit(rows, label=, groups=, folds=, seed=)`` (and ``strata=`` when
        given) and read for its ``cv_probabilities``.
    strata : iterable, optional
        One key per record passed on (for the drawn records) to ``fit`` (its
        balancing by data set).
    **fit_options
        Passed to every fit (e.g. ``features``, ``C``, ``balance``).

    Returns
    -------
    LearningCurve

    Raises
    ------
    ValueError
        Bad arguments; or no subsample at all could be fitted and the fitting
        function said why (its last error is raised: a field the features need
        is missing, ...). A subsample that cannot be fitted while others can is
        counted in ``skipped``.

    Examples
    --------
    A constant feature ranks nothing: every probability is the same, AUROC 0.5.

    >>> rows = [{"claims_score": 0.5, "ngram_overlap": 0.5, "anchors": [], "support": 1.0,
    ...          "anchors_total": 0, "label_hallucinated": i % 2} for i in range(30)]
    >>> learning_curve(rows, repeats=1, features=["claims_score"]).points[-1].auroc
    (0.5,)
    """
    from sklearn.metrics import roc_auc_score

    func = "learning_curve"
    check_positive_int(repeats, "repeats", func)
    check_value(folds, "folds", func, isinstance(folds, int) and not isinstance(folds, bool)
                and folds >= 2, "an integer of at least 2")
    data = _prepare(records, label, groups, func, strata)
    n_total = len(data.y)
    if n_total == 0:
        raise ValueError(f"{func}: needs labelled records without an error. Got none.")
    if sizes is None:
        sizes = curve_sizes(n_total)
    else:
        sizes = sorted({int(s) for s in sizes})
        for s in sizes:
            check_positive_int(s, "sizes", func)
        sizes = [s for s in sizes if s <= n_total]
    fitter = _fit_function(fit)
    if fit_options:
        fitter = functools.partial(fitter, **fit_options)
    points = []
    fitted, last_error = 0, None
    for size in sizes:
        aurocs, f1s, drawn, positives, used_folds, skipped = [], [], [], [], [], 0
        for r in range(repeats):
            rng = np.random.default_rng([seed, size, r])
            idx = draw_groups(data.groups, size, rng)
            y, g = data.y[idx], data.groups[idx]
            extra = {} if data.strata is None else {"strata": list(data.strata[idx])}
            p, k, error = _one_fit(fitter, [data.rows[i] for i in idx], y, g, label=label,
                                   folds=folds, seed=seed + r, **extra)
            if p is None:
                skipped += 1
                last_error = error or last_error
                continue
            fitted += 1
            aurocs.append(float(roc_auc_score(y, p)))
            f1s.append(cross_fitted_f1(y, p, g, folds=k, seed=seed + r))
            drawn.append(len(idx))
            positives.append(int(y.sum()))
            used_folds.append(k)
        points.append(CurvePoint(n=int(size), n_records=_mean(drawn),
                                 folds=min(used_folds, default=0), auroc=tuple(aurocs),
                                 f1=tuple(f1s), skipped=skipped, n_positive=_mean(positives)))
    if fitted == 0 and last_error is not None:
        # No subsample could be fitted, and not for want of labels: the records
        # themselves do not suit the model (a missing field, an unknown feature).
        raise last_error
    return LearningCurve(points=tuple(points), n_total=n_total, grouped=data.grouped,
                         folds=folds, repeats=repeats, seed=seed)


def fit_on_labels(records, *, label: str = "label_hallucinated",
                  groups: Iterable[Any] | None = None, folds: int = 5, seed: int = 0,
                  repeats: int = DEFAULT_REPEATS, sizes: Sequence[int] | None = None,
                  curve: bool = True, fit: Callable[..., Any] | None = None,
                  strata: Iterable[Any] | None = None, threshold: float | None = None,
                  prior: Any = SHIPPED, **fit_options: Any) -> LabelledFit:
    """Fit the probability on labels; recommend its threshold; draw its learning curve.

    What ``evaltools calibrate`` runs. By default the fit starts from the
    shipped probability (``prior``, :func:`prior_options`): its log-odds are a
    feature beside every signal, strongly regularised, which beats a fit from
    scratch at every number of labels measured (docs/calibration.md);
    ``prior=None`` fits from scratch. ``fit_options`` go to the fitting
    function: all of them for the full fit, all but ``metadata`` for the
    curve's fits (``C``, ``features``, ``balance`` give the same model
    everywhere); ``strata`` (one key per record) goes to each fit for its
    records. The threshold is the fit's ``recommended_threshold`` when it
    writes one (else chosen here the same way), so the metrics describe the
    value the verdict reads; ``threshold`` (in (0, 1)) replaces it by a value
    chosen elsewhere, e.g. for a false-alarm rate on other data.

    Returns
    -------
    LabelledFit
        ``.calibration`` holds ``recommended_threshold``,
        ``threshold_metrics`` and ``learning_curve`` in its metadata, ready
        to save.

    Examples
    --------
    >>> rows = [{"claims_score": float(i % 2), "ngram_overlap": 0.5, "anchors": [],
    ...          "support": 1.0, "anchors_total": 0, "label_hallucinated": i % 2}
    ...         for i in range(40)]
    >>> lf = fit_on_labels(rows, repeats=1, features=["claims_score"], prior=None)
    >>> lf.threshold.f1, lf.calibration.recommended_threshold == lf.threshold.value
    (1.0, True)
    """
    check_positive_int(repeats, "repeats", "fit_on_labels")
    data = _prepare(records, label, groups, "fit_on_labels", strata)
    fit_options = prior_options(prior, fit_options)
    fitter = _fit_function(fit)
    extra = {} if data.strata is None else {"strata": list(data.strata)}
    result = fitter(data.rows, label=label, groups=list(data.groups) if data.grouped else None,
                    folds=folds, seed=seed, **extra, **fit_options)
    p = np.asarray(result.cv_probabilities, dtype=float)
    if len(p) != len(data.y):
        raise RuntimeError(f"fit returned {len(p)} out-of-fold probabilities for "
                           f"{len(data.y)} records")
    if threshold is not None and not 0.0 < float(threshold) < 1.0:
        raise ValueError(f"threshold must be between 0 and 1 (exclusive), got {threshold!r}")
    chosen = (float(threshold) if threshold is not None else
              getattr(getattr(result, "calibration", None), "metadata", {}).get(
                  "recommended_threshold"))
    threshold = recommend_probability_threshold(data.y, p, data.groups, folds=folds, seed=seed,
                                                value=chosen, given=threshold is not None)
    options = {k: v for k, v in fit_options.items() if k != "metadata"}
    lc = (learning_curve(data.rows, label=label,
                         groups=data.groups if data.grouped else None, sizes=sizes,
                         repeats=repeats, folds=folds, seed=seed, fit=fitter,
                         strata=data.strata, **options)
          if curve else None)
    return LabelledFit(fit=result, threshold=threshold, curve=lc, n_left_out=data.n_left_out)
