"""Thresholds against human labels: one threshold, a sweep, a recommendation,
and the spec's own thresholds evaluated as they stand.

A threshold *flags* a record (predicts the positive class, label 1). Which
side is flagged is named by ``direction``: ``"above"`` flags
``score > threshold`` (hallucination), ``"below"`` flags
``score < threshold`` (relevance, completeness); ``inclusive=True`` makes the
comparison ``>=`` / ``<=``. The spec's rules are strict (``S_hall > 0.5``,
``S_rel < 0.1``), so that is the default. Recommended thresholds are chosen
among the observed scores and are inclusive: "flag when score >= t".

Every metric is scikit-learn's: ``confusion_matrix``,
``precision_recall_fscore_support``, ``recall_score`` (specificity is the
recall of class 0), ``accuracy_score``, ``cohen_kappa_score`` and
``balanced_accuracy_score(adjusted=True)``, which for two classes is Youden's
J = sensitivity + specificity - 1.

Examples
--------
>>> m = evaluate_threshold([0, 0, 1, 1], [0.1, 0.6, 0.55, 0.9], 0.5)
>>> (m.tp, m.fp, m.tn, m.fn), m.precision, m.recall
((2, 1, 1, 0), 0.6666666666666666, 1.0)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    precision_recall_fscore_support,
    recall_score,
    roc_curve,
)

from evaltools.arguments import check_one_of, check_value, parameter_message
from evaltools.calibration._checks import (
    binary_labels,
    both_classes,
    json_value,
    same_length,
    scores,
)
from evaltools.config import DEFAULT_CONFIG
from evaltools.scoring.verdict import HIGH_RISK, VERDICT_RULES
from evaltools.values import is_missing

DIRECTIONS = ("above", "below")
CRITERIA = ("youden", "f1", "cost")


@dataclass(frozen=True)
class ThresholdMetrics:
    """Agreement of "flag when score is beyond threshold" with binary labels.

    ``kappa`` is Cohen's kappa of the flags against the labels (NaN when it
    is undefined: both sides constant). ``youden_j`` = recall + specificity - 1.
    ``flagged_share`` is the share of records the threshold flags.
    """

    threshold: float
    direction: str
    inclusive: bool
    n: int
    tp: int
    fp: int
    tn: int
    fn: int
    precision: float
    recall: float
    specificity: float
    f1: float
    accuracy: float
    kappa: float
    youden_j: float
    flagged_share: float

    def rule(self, score: str = "score") -> str:
        """The rule as text, e.g. ``'hallucination > 0.5'``.

        Examples
        --------
        >>> evaluate_threshold([0, 1], [0.2, 0.8], 0.5).rule("hallucination")
        'hallucination > 0.5'
        """
        op = {("above", False): ">", ("above", True): ">=",
              ("below", False): "<", ("below", True): "<="}[(self.direction, self.inclusive)]
        return f"{score} {op} {self.threshold:.4g}"

    def to_dict(self) -> dict[str, Any]:
        return json_value({k: getattr(self, k) for k in self.__dataclass_fields__})


def _flags(s: np.ndarray, threshold: float, direction: str, inclusive: bool) -> np.ndarray:
    if direction == "above":
        return (s >= threshold) if inclusive else (s > threshold)
    return (s <= threshold) if inclusive else (s < threshold)


def _metrics(y: np.ndarray, s: np.ndarray, threshold: float, direction: str,
             inclusive: bool) -> ThresholdMetrics:
    pred = _flags(s, threshold, direction, inclusive).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
        precision, recall, f1, _ = precision_recall_fscore_support(
            y, pred, labels=[0, 1], pos_label=1, average="binary", zero_division=0.0)
        specificity = recall_score(y, pred, labels=[0, 1], pos_label=0, zero_division=0.0)
        kappa = cohen_kappa_score(y, pred, labels=[0, 1], replace_undefined_by=np.nan)
        youden = (balanced_accuracy_score(y, pred, adjusted=True)
                  if len(set(y.tolist())) == 2 else np.nan)
    return ThresholdMetrics(
        threshold=float(threshold), direction=direction, inclusive=inclusive, n=len(y),
        tp=int(tp), fp=int(fp), tn=int(tn), fn=int(fn), precision=float(precision),
        recall=float(recall), specificity=float(specificity), f1=float(f1),
        accuracy=float(accuracy_score(y, pred)), kappa=float(kappa), youden_j=float(youden),
        flagged_share=float(pred.mean()) if len(pred) else float("nan"),
    )


def _prepare(y_true, score, func: str) -> tuple[np.ndarray, np.ndarray]:
    y = binary_labels(y_true, func=func)
    s = scores(score, func=func)
    same_length(func, y_true=y, score=s)
    if len(y) == 0:
        raise ValueError(f"{func}: needs at least one labelled record. Got none.")
    return y, s


def evaluate_threshold(y_true, score, threshold: float, *, direction: str = "above",
                       inclusive: bool = False) -> ThresholdMetrics:
    """Metrics of one threshold rule against binary labels.

    Parameters
    ----------
    y_true : array-like of 0/1
        Human labels; 1 is what the rule should flag.
    score : array-like of float
    threshold : float
    direction : {"above", "below"}, default "above"
        Flag ``score > threshold`` or ``score < threshold``.
    inclusive : bool, default False
        Use ``>=`` / ``<=`` instead.

    Returns
    -------
    ThresholdMetrics

    Examples
    --------
    Flags 0.6, 0.55 and 0.9: TP 2, FP 1, TN 1, FN 0. By hand: precision 2/3,
    recall 1, F1 = 2 * (2/3) / (5/3) = 0.8, accuracy 3/4; observed agreement
    3/4, chance agreement (3/4)(2/4) + (1/4)(2/4) = 1/2, so kappa =
    (3/4 - 1/2) / (1 - 1/2) = 0.5.

    >>> m = evaluate_threshold([0, 0, 1, 1], [0.1, 0.6, 0.55, 0.9], 0.5)
    >>> round(m.f1, 6), m.accuracy, round(m.kappa, 6), round(m.youden_j, 6)
    (0.8, 0.75, 0.5, 0.5)
    >>> evaluate_threshold([1, 0], [0.05, 0.5], 0.1, direction="below").tp
    1
    """
    check_one_of(direction, "direction", "evaluate_threshold", DIRECTIONS)
    y, s = _prepare(y_true, score, "evaluate_threshold")
    return _metrics(y, s, float(threshold), direction, bool(inclusive))


@dataclass(frozen=True)
class ThresholdSweep:
    """Metrics at each threshold of a grid (rows in threshold order)."""

    rows: tuple[ThresholdMetrics, ...]

    def to_frame(self):
        """One row per threshold (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([{k: getattr(r, k) for k in r.__dataclass_fields__}
                             for r in self.rows])

    def to_dict(self) -> dict[str, Any]:
        return {"rows": [r.to_dict() for r in self.rows]}


def _default_grid(s: np.ndarray) -> np.ndarray:
    if s.size and s.min() >= 0.0 and s.max() <= 1.0:
        return np.round(np.linspace(0.0, 1.0, 101), 2)
    return np.unique(s)


def threshold_sweep(y_true, score, *, thresholds: Iterable[float] | None = None,
                    direction: str = "above", inclusive: bool = False) -> ThresholdSweep:
    """Precision, recall, F1, accuracy and Cohen's kappa at each threshold.

    Parameters
    ----------
    y_true : array-like of 0/1
    score : array-like of float
    thresholds : iterable of float, optional
        Default: 0.00, 0.01, ..., 1.00 when every score lies in [0, 1], else
        the distinct scores.
    direction : {"above", "below"}, default "above"
    inclusive : bool, default False

    Returns
    -------
    ThresholdSweep

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.6, 0.55, 0.9], thresholds=[0.0, 0.5, 0.7])
    >>> [(r.threshold, r.tp, r.fp) for r in sw.rows]
    [(0.0, 2, 2), (0.5, 2, 1), (0.7, 1, 0)]
    >>> list(sw.to_frame().columns[:3])
    ['threshold', 'direction', 'inclusive']
    """
    check_one_of(direction, "direction", "threshold_sweep", DIRECTIONS)
    y, s = _prepare(y_true, score, "threshold_sweep")
    grid = _default_grid(s) if thresholds is None else scores(
        list(thresholds), name="thresholds", func="threshold_sweep")
    return ThresholdSweep(tuple(_metrics(y, s, float(t), direction, bool(inclusive))
                                for t in grid))


@dataclass(frozen=True)
class ThresholdRecommendation:
    """The threshold that best serves a named criterion, with its metrics.

    ``value`` is the criterion's value there: Youden's J, F1, or (for
    ``"cost"``) the mean cost per record, ``(FP + cost_ratio * FN) / n``.
    """

    criterion: str
    threshold: float
    value: float
    metrics: ThresholdMetrics
    cost_ratio: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return json_value({"criterion": self.criterion, "threshold": self.threshold,
                           "value": self.value, "cost_ratio": self.cost_ratio,
                           "metrics": self.metrics.to_dict()})


def recommend_threshold(y_true, score, *, criterion: str = "youden",
                        cost_ratio: float | None = None,
                        direction: str = "above") -> ThresholdRecommendation:
    """A threshold chosen by Youden's J, maximum F1, or a cost ratio.

    Candidates are the observed scores, all ranked in one pass with
    :func:`sklearn.metrics.roc_curve`; a candidate ``t`` flags ``score >= t``
    (``<= t`` for ``direction="below"``). Ties go to the candidate that flags
    fewer records. The winner's metrics are sklearn's.

    Parameters
    ----------
    y_true : array-like of 0/1
    score : array-like of float
    criterion : {"youden", "f1", "cost"}, default "youden"
        ``"youden"`` maximises sensitivity + specificity - 1; ``"f1"``
        maximises F1 of the positive class; ``"cost"`` minimises
        ``FP + cost_ratio * FN``.
    cost_ratio : float, optional
        Required for ``"cost"``: what a missed positive (FN) costs, in units
        of a false alarm (FP). 5 means "missing a hallucination is five times
        worse than a false alarm".
    direction : {"above", "below"}, default "above"

    Returns
    -------
    ThresholdRecommendation

    Raises
    ------
    ValueError
        Unknown criterion, missing or non-positive cost ratio, one class only.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1], [0.1, 0.6, 0.55, 0.9]
    >>> r = recommend_threshold(y, s, criterion="youden")   # J ties at 0.9 and 0.55
    >>> r.threshold, r.value
    (0.9, 0.5)
    >>> r = recommend_threshold(y, s, criterion="f1")
    >>> r.threshold, round(r.value, 6)
    (0.55, 0.8)
    >>> recommend_threshold(y, s, criterion="cost", cost_ratio=0.5).threshold
    0.9
    >>> recommend_threshold(y, s, criterion="cost", cost_ratio=10).threshold
    0.55
    """
    func = "recommend_threshold"
    check_one_of(criterion, "criterion", func, CRITERIA)
    check_one_of(direction, "direction", func, DIRECTIONS)
    if criterion == "cost":
        check_value(cost_ratio, "cost_ratio", func,
                    cost_ratio is not None and not isinstance(cost_ratio, bool)
                    and isinstance(cost_ratio, (int, float)) and cost_ratio > 0,
                    "a positive number when criterion='cost'")
        cost_ratio = float(cost_ratio)
    elif cost_ratio is not None:
        raise ValueError(parameter_message(
            "cost_ratio", func, "left out (it is only used with criterion='cost')",
            f"{cost_ratio!r} with criterion={criterion!r}"))
    y, s = _prepare(y_true, score, func)
    both_classes(y, func=func)
    # Every observed score is a candidate. roc_curve gives the true and false
    # positive rates of all of them in one pass, ordered from "flags fewest" to
    # "flags most", so argmax keeps the first of tied candidates.
    signed = s if direction == "above" else -s
    fpr, tpr, thresholds = roc_curve(y, signed, drop_intermediate=False)
    fpr, tpr, thresholds = fpr[1:], tpr[1:], thresholds[1:]  # [0] flags nothing
    positives = float(y.sum())
    tp, fp = tpr * positives, fpr * (len(y) - positives)
    fn = positives - tp
    if criterion == "youden":
        objective = tpr - fpr
    elif criterion == "f1":
        objective = 2 * tp / np.maximum(2 * tp + fp + fn, 1e-12)
    else:
        objective = -(fp + cost_ratio * fn)
    best = float(thresholds[int(np.argmax(objective))])
    m = _metrics(y, s, best if direction == "above" else -best, direction, True)
    if criterion == "cost":
        value = (m.fp + cost_ratio * m.fn) / m.n
    else:
        value = m.youden_j if criterion == "youden" else m.f1
    return ThresholdRecommendation(criterion=criterion, threshold=m.threshold,
                                   value=float(value), metrics=m, cost_ratio=cost_ratio)


# ------------------------------------------------------------------ spec thresholds


@dataclass(frozen=True)
class _SpecRule:
    name: str
    score: str
    section: str
    key: str
    direction: str
    label: str
    positive: tuple[Any, ...]
    meaning: str


#: The human label each spec threshold (:data:`evaltools.scoring.verdict.VERDICT_RULES`
#: and the high-risk line) is held against, in the order checked. The contract has no
#: completeness label: the nearest is the human verdict, so "completeness < 0.6" is held
#: against "a person did not PASS it".
_SPEC_LABELS: dict[str, tuple[str, tuple[Any, ...], str]] = {
    "relevance FAIL": ("label_relevant", (0,), "label_relevant == 0"),
    "completeness WARN": ("label_verdict", ("WARN", "FAIL"), "label_verdict in (WARN, FAIL)"),
    "hallucination FAIL": ("label_hallucinated", (1,), "label_hallucinated == 1"),
    "hallucination high risk": ("label_hallucinated", (1,), "label_hallucinated == 1"),
}
_BY_NAME = {r.name: r for r in (*VERDICT_RULES, HIGH_RISK)}
SPEC_RULES: tuple[_SpecRule, ...] = tuple(
    _SpecRule(name, _BY_NAME[name].score, _BY_NAME[name].section, _BY_NAME[name].key,
              _BY_NAME[name].direction, *label)
    for name, label in _SPEC_LABELS.items())


@dataclass(frozen=True)
class SpecCheck:
    """One of the spec's thresholds, evaluated as it stands on labelled records."""

    name: str
    score: str
    label: str
    positive: str
    threshold: float
    metrics: ThresholdMetrics

    @property
    def rule(self) -> str:
        return self.metrics.rule(self.score)

    def to_dict(self) -> dict[str, Any]:
        return json_value({"name": self.name, "score": self.score, "label": self.label,
                           "positive": self.positive, "threshold": self.threshold,
                           "rule": self.rule, "metrics": self.metrics.to_dict()})




def _labelled(frame, rule: _SpecRule) -> tuple[np.ndarray, np.ndarray] | None:
    if rule.label not in frame.columns or rule.score not in frame.columns:
        return None
    ys, ss = [], []
    for lab, sc in zip(frame[rule.label].tolist(), frame[rule.score].tolist(), strict=True):
        if is_missing(lab) or is_missing(sc):
            continue
        ys.append(1 if lab in rule.positive else 0)
        ss.append(float(sc))
    if not ys:
        return None
    return np.asarray(ys, dtype=int), np.asarray(ss, dtype=float)


def _as_frame(records):
    import pandas as pd

    if isinstance(records, pd.DataFrame):
        return records
    if isinstance(records, Mapping):
        return pd.DataFrame(records)
    return pd.DataFrame(list(records))


def spec_thresholds(records, *, config=None) -> tuple[SpecCheck, ...]:
    """The spec's thresholds, as configured, evaluated against human labels.

    Reads the thresholds from ``config`` (default: :func:`evaltools.config.load_config`):
    ``relevance.fail_below`` vs ``label_relevant == 0``;
    ``completeness.warn_below`` vs ``label_verdict`` in WARN/FAIL (the
    contract has no completeness label); ``hallucination.fail_above`` and
    ``hallucination.high_risk_above`` vs ``label_hallucinated == 1``. Records
    without the label or the score (error records) are left out of that
    check; a check whose label column is absent is left out.

    Parameters
    ----------
    records : DataFrame or iterable of dict
        Scored records with their human labels.
    config : evaltools.config.Config, optional

    Returns
    -------
    tuple of SpecCheck

    Examples
    --------
    >>> recs = [{"hallucination": h, "label_hallucinated": y}
    ...         for h, y in [(0.0, 0), (0.55, 0), (0.7, 1), (0.2, 1)]]
    >>> [(c.rule, c.metrics.tp, c.metrics.fp) for c in spec_thresholds(recs)]
    [('hallucination > 0.5', 1, 1), ('hallucination > 0.6', 1, 0)]
    """
    config = config if config is not None else DEFAULT_CONFIG
    frame = _as_frame(records)
    out = []
    for rule in SPEC_RULES:
        data = _labelled(frame, rule)
        if data is None:
            continue
        threshold = float(getattr(getattr(config, rule.section), rule.key))
        metrics = _metrics(data[0], data[1], threshold, rule.direction, False)
        out.append(SpecCheck(name=rule.name, score=rule.score, label=rule.label,
                             positive=rule.meaning, threshold=threshold, metrics=metrics))
    return tuple(out)


def threshold_table(records, *, config=None, criteria: Sequence[str] = ("youden", "f1"),
                    cost_ratio: float | None = None):
    """The spec's thresholds beside recommended ones, one row per rule (DataFrame).

    For each spec check, a row for the spec's rule as it stands, then one row
    per criterion with the threshold recommended on the same records and
    labels (``"cost"`` needs ``cost_ratio``). Checks whose labels hold one
    class only get no recommendation.

    Parameters
    ----------
    records : DataFrame or iterable of dict
    config : evaltools.config.Config, optional
    criteria : sequence of {"youden", "f1", "cost"}
    cost_ratio : float, optional

    Returns
    -------
    pandas.DataFrame
        Columns ``check, source, rule, threshold, n, precision, recall, f1,
        accuracy, kappa, youden_j, flagged_share``.

    Examples
    --------
    >>> recs = [{"hallucination": h, "label_hallucinated": y}
    ...         for h, y in [(0.0, 0), (0.55, 0), (0.7, 1), (0.2, 1)]]
    >>> t = threshold_table(recs, criteria=["youden"])
    >>> t[["source", "rule"]].values.tolist()[:2]
    [['spec', 'hallucination > 0.5'], ['youden', 'hallucination >= 0.7']]
    """
    import pandas as pd

    frame = _as_frame(records)
    cols = ["precision", "recall", "f1", "accuracy", "kappa", "youden_j", "flagged_share"]
    rows = []
    seen_scores: set[tuple[str, str, str]] = set()
    for check in spec_thresholds(frame, config=config):
        m = check.metrics
        rows.append({"check": check.name, "source": "spec", "rule": check.rule,
                     "threshold": check.threshold, "n": m.n,
                     **{c: getattr(m, c) for c in cols}})
        rule = next(r for r in SPEC_RULES if r.name == check.name)
        key = (rule.score, rule.label, rule.direction)
        if key in seen_scores:
            continue
        seen_scores.add(key)
        y, s = _labelled(frame, rule)
        if len(set(y.tolist())) < 2:
            continue
        for criterion in criteria:
            rec = recommend_threshold(y, s, criterion=criterion, direction=rule.direction,
                                      cost_ratio=cost_ratio if criterion == "cost" else None)
            rm = rec.metrics
            rows.append({"check": check.name, "source": criterion, "rule": rm.rule(check.score),
                         "threshold": rec.threshold, "n": rm.n,
                         **{c: getattr(rm, c) for c in cols}})
    return pd.DataFrame(rows, columns=["check", "source", "rule", "threshold", "n", *cols])
