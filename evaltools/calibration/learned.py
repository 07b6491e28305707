"""A learned hallucination probability: logistic regression on the scorers' outputs.

The model reads only a record's score output (the dict of
:meth:`evaltools.scoring.result.ScoreResult.to_dict`, or a DataFrame row of
it) and turns it into ``P(hallucinated)``. It is stored as a small JSON file
of named coefficients — never a pickle — so it can be read, diffed and
reviewed, and applying it needs no scikit-learn: a standardised linear sum
through the logistic function.

Features (:data:`FEATURES`): ``claims_score``, ``ngram_overlap``,
``log1p`` of the counts of unsupported numbers, dates and claims, and
``unsupported_share`` (``1 - support``, the grounding score's rarity-weighted
share of the response's content the context does not hold). A calibration
file names the features it was fitted with, so one fitted before a feature
existed keeps working. Response
length is deliberately *not* a feature, nor is the total anchor count (a
proxy for length: alone it reaches AUROC 0.87 on the HaluEval sample, where
hallucinated answers are long and right ones short): a model would learn
length, not support.

Fitting (:func:`fit_calibration`) uses scikit-learn: ``StandardScaler`` then
``LogisticRegression`` (L2, ``C=1``), with cross-validated out-of-fold
probabilities for an honest AUROC and reliability (stratified folds, grouped
when ``groups`` is given so that records sharing a question stay together).

The shipped default is ``default_calibration.json`` beside this file; its
provenance (data, command, CV AUROC) is inside it and in ``docs/calibration.md``.

Examples
--------
>>> cal = load_calibration()
>>> p = cal.probability({"claims_score": 1.0, "ngram_overlap": 0.0, "anchors_total": 3,
...     "anchors": [{"kind": "number", "supported": False},
...                 {"kind": "claim", "supported": False},
...                 {"kind": "claim", "supported": False}], "support": 0.2})
>>> q = cal.probability({"claims_score": 0.0, "ngram_overlap": 1.0, "anchors_total": 1,
...     "anchors": [{"kind": "number", "supported": True}], "support": 1.0})
>>> 0.0 < q < p < 1.0
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from evaltools.errors import InputError, one_line, shorten
from evaltools.io import atomic_path
from evaltools.io.records import depth_exceeds, loads_bounded
from evaltools.values import binary_label

FORMAT = "evaltools-calibration"
FORMAT_VERSION = 1
DEFAULT_FILE = "default_calibration.json"

#: Ranges a calibration file's numbers must lie in. The features are
#: standardised, so fitted coefficients and intercepts are a few units; a
#: value beyond these is a damaged or hand-edited file, refused on loading.
MAX_COEFFICIENT = 1e3
MAX_CENTER = 1e6
MIN_SCALE = 1e-9
#: Largest log-odds used: probabilities stay strictly inside (0, 1).
LOGIT_CLIP = 30.0
#: Largest calibration file read.
MAX_FILE_BYTES = 16 * 1024 * 1024


# ------------------------------------------------------------------ features


def _number(d: Mapping[str, Any], key: str) -> float:
    if key not in d:
        raise ValueError(f"score field '{key}' is missing (a file scored by an older "
                         "evaltools? score it again)")
    v = d.get(key)
    if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
        try:
            v = float(v)  # numpy scalars, numeric strings from CSV
        except (TypeError, ValueError):
            raise ValueError(f"score field '{key}' must be a number. "
                             f"Got {shorten(v)} instead.") from None
    try:
        v = float(v)
    except OverflowError:  # an integer too large for a float
        v = math.inf
    if not math.isfinite(v):
        raise ValueError(f"score field '{key}' must be a finite number. Got {v} instead.")
    return v


def _anchors(d: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    anchors = d.get("anchors")
    if isinstance(anchors, str):  # CSV / Parquet cells hold JSON text
        anchors = loads_bounded(anchors, 64)
    if anchors is not None and not isinstance(anchors, (list, tuple)):
        raise ValueError("score field 'anchors' must be a list of anchors")
    if anchors is None:
        raise ValueError("score field 'anchors' is missing (needed to count unsupported "
                         "anchors by kind)")
    return [a if isinstance(a, Mapping) else a.to_dict() for a in anchors]


def _unsupported(kind: str) -> Callable[[Mapping[str, Any]], float]:
    def count(d: Mapping[str, Any]) -> float:
        return math.log1p(sum(1 for a in _anchors(d)
                              if a.get("kind") == kind and not a.get("supported")
                              and a.get("counted", True) is not False))
    return count


#: Feature name -> how it is computed from a score output dict.
FEATURES: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "claims_score": lambda d: _number(d, "claims_score"),
    "ngram_overlap": lambda d: _number(d, "ngram_overlap"),
    "log1p_unsupported_numbers": _unsupported("number"),
    "log1p_unsupported_dates": _unsupported("date"),
    "log1p_unsupported_claims": _unsupported("claim"),
    "unsupported_share": lambda d: 1.0 - _number(d, "support"),
}


def feature_vector(score: Mapping[str, Any],
                   names: Sequence[str] = tuple(FEATURES)) -> list[float]:
    """The named features of one score output dict.

    Examples
    --------
    >>> feature_vector({"claims_score": 0.5, "ngram_overlap": 0.25, "anchors_total": 1,
    ...                 "anchors": [{"kind": "date", "supported": False}], "support": 0.75})
    [0.5, 0.25, 0.0, 0.6931471805599453, 0.0, 0.25]
    """
    if hasattr(score, "to_dict") and not isinstance(score, Mapping):
        score = score.to_dict()
    return [FEATURES[n](score) for n in names]


def _scored(d: Mapping[str, Any]) -> bool:
    err = d.get("error")
    has_error = err not in (None, "") and not (isinstance(err, float) and math.isnan(err))
    v = d.get("claims_score")
    return not has_error and v is not None and not (isinstance(v, float) and math.isnan(v))


def _rows(records) -> list[dict[str, Any]]:
    if hasattr(records, "columns") and hasattr(records, "to_dict"):  # a DataFrame
        return records.to_dict(orient="records")
    return [r.to_dict() if hasattr(r, "to_dict") and not isinstance(r, Mapping) else dict(r)
            for r in records]


def features_frame(records):
    """The features of many scored records, one row each (DataFrame; NaN for error rows).

    Examples
    --------
    >>> features_frame([{"claims_score": 0.0, "ngram_overlap": 1.0, "anchors_total": 0,
    ...                  "anchors": [], "support": 1.0}]).shape
    (1, 6)
    """
    import pandas as pd

    rows = [feature_vector(r) if _scored(r) else [math.nan] * len(FEATURES)
            for r in _rows(records)]
    return pd.DataFrame(rows, columns=list(FEATURES))


# ------------------------------------------------------------------ the model


@dataclass(frozen=True)
class Coefficient:
    """One feature's standardisation and weight: ``coefficient * (x - center) / scale``."""

    name: str
    center: float
    scale: float
    coefficient: float

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "center": self.center, "scale": self.scale,
                "coefficient": self.coefficient}


@dataclass(frozen=True)
class LearnedCalibration:
    """A fitted hallucination probability: named coefficients and their provenance."""

    coefficients: tuple[Coefficient, ...]
    intercept: float
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.coefficients)

    @property
    def threshold(self) -> float | None:
        """The recommended probability threshold (flag ``p >= threshold``), or None.

        ``evaltools calibrate`` stores it in the metadata as ``threshold``
        (the value that maximises F1 on the out-of-fold probabilities, with its
        precision and recall; :mod:`evaltools.calibration.labelled_fit`). A
        calibration without one (the shipped default, older files) gives None.

        Examples
        --------
        >>> cal = LearnedCalibration((Coefficient("claims_score", 0.0, 1.0, 1.0),), 0.0,
        ...                          {"threshold": {"value": 0.41, "f1": 0.7}})
        >>> cal.threshold, LearnedCalibration(cal.coefficients, 0.0).threshold
        (0.41, None)
        """
        t = self.metadata.get("threshold")
        value = t.get("value") if isinstance(t, Mapping) else None
        return float(value) if _finite(value) and 0.0 <= value <= 1.0 else None

    def logit(self, score: Mapping[str, Any]) -> float:
        """The linear predictor (log-odds) of one score output dict."""
        x = feature_vector(score, self.feature_names)
        return self.intercept + sum(c.coefficient * (v - c.center) / c.scale
                                    for c, v in zip(self.coefficients, x, strict=True))

    def probability(self, score: Mapping[str, Any]) -> float | None:
        """``P(hallucinated)`` for one score output dict; None for an error record.

        Parameters
        ----------
        score : dict or ScoreResult
            Must hold ``claims_score``, ``ngram_overlap`` and ``anchors`` (a
            list of anchor dicts, or its JSON text).

        Returns
        -------
        float or None
            In (0, 1); None when the record has ``error`` set or no scores.

        Raises
        ------
        ValueError
            A field the features need is missing or not a number.

        Examples
        --------
        >>> cal = LearnedCalibration((Coefficient("claims_score", 0.5, 0.5, 2.0),), 0.0)
        >>> cal.probability({"claims_score": 0.5, "anchors": []})
        0.5
        >>> cal.probability({"claims_score": None, "error": "field 'query' is missing"}) is None
        True
        """
        if hasattr(score, "to_dict") and not isinstance(score, Mapping):
            score = score.to_dict()
        if not _scored(score):
            return None
        z = self.logit(score)
        if math.isnan(z):
            return None
        z = max(-LOGIT_CLIP, min(LOGIT_CLIP, z))  # p stays strictly inside (0, 1)
        # Numerically stable logistic function.
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def probabilities(self, records) -> list[float | None]:
        """``probability`` of each record (DataFrame rows, dicts or ScoreResults)."""
        return [self.probability(r) for r in _rows(records)]

    def coefficients_frame(self):
        """The coefficients as a DataFrame, largest effect first.

        Examples
        --------
        >>> cal = LearnedCalibration((Coefficient("claims_score", 0.0, 1.0, 0.5),
        ...                           Coefficient("ngram_overlap", 0.0, 1.0, -2.0)), 0.0)
        >>> cal.coefficients_frame()["name"].tolist()
        ['ngram_overlap', 'claims_score']
        """
        import pandas as pd

        df = pd.DataFrame([c.to_dict() for c in self.coefficients])
        return df.reindex(df["coefficient"].abs().sort_values(ascending=False).index) \
                 .reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "model": "logistic_regression",
                "target": "P(label_hallucinated = 1)",
                "intercept": self.intercept,
                "features": [c.to_dict() for c in self.coefficients],
                **{k: v for k, v in self.metadata.items()
                   if k not in ("format", "version", "model", "target", "intercept",
                                "features")}}

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<calibration>") -> LearnedCalibration:
        """Read and validate the JSON form; errors name the source and the field.

        Examples
        --------
        >>> d = {"format": "evaltools-calibration", "version": 1, "intercept": 0.0,
        ...      "features": [{"name": "claims_score", "center": 0, "scale": 1,
        ...                    "coefficient": 1}]}
        >>> LearnedCalibration.from_dict(d).feature_names
        ('claims_score',)
        >>> LearnedCalibration.from_dict({**d, "version": 9}, source="c.json")
        Traceback (most recent call last):
        ...
        evaltools.errors.InputError: c.json: field 'version' must be 1. Got 9 instead.
        """
        def bad(msg: str, fld: str | None = None) -> InputError:
            return InputError(msg, source=source, field=fld)

        if not isinstance(data, Mapping):
            raise bad(f"a calibration must be a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise bad(f"field 'format' must be {FORMAT!r}. Got {shorten(data.get('format'))} "
                      "instead (is this a file written by `evaltools calibrate`?)", "format")
        if data.get("version") != FORMAT_VERSION:
            raise bad(f"field 'version' must be {FORMAT_VERSION}. "
                      f"Got {shorten(data.get('version'))} instead.", "version")
        intercept = data.get("intercept")
        if not _finite(intercept, MAX_COEFFICIENT):
            raise bad(f"field 'intercept' must be a number in [-{MAX_COEFFICIENT:g}, "
                      f"{MAX_COEFFICIENT:g}]. Got {shorten(intercept)} instead.", "intercept")
        feats = data.get("features")
        if not isinstance(feats, list) or not feats:
            raise bad("field 'features' must be a non-empty list.", "features")
        coefs = []
        for i, f in enumerate(feats):
            where = f"features[{i}]"
            if not isinstance(f, Mapping):
                raise bad(f"field '{where}' must be an object.", where)
            name = f.get("name")
            if name not in FEATURES:
                raise bad(f"field '{where}.name' must be one of {', '.join(FEATURES)}. "
                          f"Got {shorten(name)} instead.", f"{where}.name")
            for key, top in (("center", MAX_CENTER), ("scale", MAX_CENTER),
                             ("coefficient", MAX_COEFFICIENT)):
                if not _finite(f.get(key), top):
                    raise bad(f"field '{where}.{key}' must be a number in [-{top:g}, {top:g}]. "
                              f"Got {shorten(f.get(key))} instead.", f"{where}.{key}")
            if not f["scale"] >= MIN_SCALE:
                raise bad(f"field '{where}.scale' must be at least {MIN_SCALE:g}. "
                          f"Got {shorten(f['scale'])} instead.", f"{where}.scale")
            coefs.append(Coefficient(name, float(f["center"]), float(f["scale"]),
                                     float(f["coefficient"])))
        meta = {k: v for k, v in data.items()
                if k not in ("format", "version", "model", "target", "intercept", "features")}
        if "threshold" in meta:
            t = meta["threshold"]
            value = t.get("value") if isinstance(t, Mapping) else None
            if not (_finite(value) and 0.0 <= value <= 1.0):
                raise bad("field 'threshold.value' must be a probability in [0, 1]. "
                          f"Got {shorten(value)} instead.", "threshold.value")
        return cls(tuple(coefs), float(intercept), meta)

    def save(self, path: str | Path) -> Path:
        """Write the JSON atomically (temporary file in the same folder, then rename).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> cal = LearnedCalibration((Coefficient("claims_score", 0.0, 1.0, 1.0),), 0.0)
        >>> path = cal.save(pathlib.Path(tempfile.mkdtemp()) / "cal.json")
        >>> load_calibration(path) == cal
        True
        """
        target = Path(path)
        with atomic_path(target) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as fh:
            json.dump(self.to_dict(), fh, indent=2, ensure_ascii=False, allow_nan=False)
            fh.write("\n")
        return target


def _finite(v: Any, top: float = math.inf) -> bool:
    """A number (not a bool) that is finite and at most ``top`` in size."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v)) and abs(float(v)) <= top
    except OverflowError:
        return False


def load_calibration(path: str | Path | None = None) -> LearnedCalibration:
    """A calibration from its JSON file; the shipped default when ``path`` is None.

    Parameters
    ----------
    path : str or Path, optional

    Returns
    -------
    LearnedCalibration

    Raises
    ------
    evaltools.errors.InputError
        The file is missing, not JSON, or not a calibration (the message names
        the file and the field).

    Examples
    --------
    >>> load_calibration().metadata["fitted_on"]["file"]
    'calibration_fit.jsonl'
    """
    if path is None:
        text = resources.files("evaltools.calibration").joinpath(DEFAULT_FILE) \
                        .read_text("utf-8")
        return LearnedCalibration.from_dict(json.loads(text), source=DEFAULT_FILE)
    p = Path(path)
    try:
        if p.is_file() and p.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"a calibration file is at most {MAX_FILE_BYTES:,} bytes; this one "
                             f"has {p.stat().st_size:,}", source=str(p))
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise InputError("calibration file not found", source=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"calibration file not readable ({one_line(exc)})",
                         source=str(p)) from None
    try:
        data = json.loads(text)  # NaN and 1e400 parse; from_dict names their field
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", source=p.name, line=exc.lineno) \
            from None
    except (RecursionError, ValueError):
        data = None
    if data is None or depth_exceeds(data, 64):
        raise InputError("not valid JSON (nested deeper than 64 levels, or a number "
                         "too long)", source=p.name)
    return LearnedCalibration.from_dict(data, source=p.name)


# ------------------------------------------------------------------ fitting


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
        from evaltools.calibration.probability import reliability

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


def cross_validated_probabilities(X, y, *, groups=None, folds: int = 5, seed: int = 0,
                                  C: float = 1.0):
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
    return cross_val_predict(_pipeline(C), X, y, cv=cv, groups=groups,
                             method="predict_proba")[:, 1]


def fit_calibration(records, *, label: str = "label_hallucinated", C: float = 1.0,
                    folds: int = 5, seed: int = 0, groups: Iterable[Any] | None = None,
                    metadata: Mapping[str, Any] | None = None) -> FitResult:
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

    Returns
    -------
    FitResult

    Examples
    --------
    >>> recs = [{"claims_score": c, "ngram_overlap": 1 - c, "anchors_total": 2,
    ...          "anchors": [{"kind": "number", "supported": c < 0.5}], "support": 1 - c,
    ...          "label_hallucinated": int(c >= 0.5)} for c in [0, .1, .2, .3, .4] * 2
    ...         + [.6, .7, .8, .9, 1] * 2]
    >>> fit = fit_calibration(recs)
    >>> fit.cv_auroc, len(fit.calibration.coefficients)
    (1.0, 6)
    """
    import numpy as np
    from sklearn.metrics import brier_score_loss, roc_auc_score

    rows = _rows(records)
    group_list = None if groups is None else list(groups)
    if group_list is not None and len(group_list) != len(rows):
        raise ValueError(f"fit_calibration: 'groups' must have one key per record. "
                         f"Got {len(group_list)} keys for {len(rows)} records.")
    keep, ys = [], []
    for i, r in enumerate(rows):
        if label not in r:
            raise ValueError(f"fit_calibration: record {i + 1} has no label field '{label}'.")
        try:
            y = binary_label(r[label])
        except ValueError as exc:
            raise ValueError(f"fit_calibration: record {i + 1}, field '{label}': {exc}") from None
        if y is None or not _scored(r):
            continue
        keep.append(i)
        ys.append(y)
    if len(set(ys)) < 2:
        raise ValueError(f"fit_calibration: needs both labels (0 and 1) among scored records. "
                         f"Got {sorted(set(ys))} instead.")
    counts = np.bincount(ys, minlength=2)
    if counts.min() < folds:
        raise ValueError(f"fit_calibration: each label needs at least folds={folds} records. "
                         f"Got {int(counts[0])} of 0 and {int(counts[1])} of 1 instead.")
    X = features_frame([rows[i] for i in keep])
    y = np.asarray(ys, dtype=int)
    g = None if group_list is None else np.asarray([str(group_list[i]) for i in keep])
    cv_prob = cross_validated_probabilities(X, y, groups=g, folds=folds, seed=seed, C=C)
    model = _pipeline(C).fit(X, y)
    scaler, logreg = model.steps[0][1], model.steps[-1][1]
    coefs = tuple(
        Coefficient(name, float(m), float(s) if s > 0 else 1.0, float(w))
        for name, m, s, w in zip(X.columns, scaler.mean_, scaler.scale_, logreg.coef_[0],
                                 strict=True))
    cv_auroc = float(roc_auc_score(y, cv_prob))
    cv_brier = float(brier_score_loss(y, cv_prob))
    meta = {
        "fitted_on": {"n": len(y), "n_hallucinated": int(y.sum())},
        "metrics": {"cv_auroc": round(cv_auroc, 4), "cv_brier": round(cv_brier, 4),
                    "cv_folds": folds, "cv_grouped": g is not None},
        "fitting": {"C": C, "seed": seed, "label": label},
    }
    for key, value in (metadata or {}).items():
        if isinstance(value, Mapping) and isinstance(meta.get(key), Mapping):
            meta[key] = {**meta[key], **value}
        else:
            meta[key] = value
    calibration = LearnedCalibration(coefs, float(logreg.intercept_[0]), meta)
    return FitResult(calibration=calibration, labels=tuple(int(v) for v in y),
                     cv_probabilities=tuple(float(p) for p in cv_prob), cv_auroc=cv_auroc,
                     cv_brier=cv_brier, n_dropped=len(rows) - len(keep))
