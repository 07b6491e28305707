"""The learned hallucination probability: a JSON logistic model over a record's scores and signals.

The model reads only a record's score output (the dict of
:meth:`evaltools.scoring.result.ScoreResult.to_dict`, or a DataFrame row of
it) and turns it into ``P(hallucinated)``. It is stored as a small JSON file
of named coefficients — never a pickle — so it can be read, diffed and
reviewed, and applying it needs no scikit-learn: a standardised linear sum
through the logistic function.

Features: any signal of the output's ``signals`` field
(:mod:`evaltools.scoring.signals`), the score-field features of
:data:`FEATURES` (``claims_score``, ``ngram_overlap``, ``log1p`` counts of
unsupported numbers, dates and claims, ``unsupported_share``), or a product
``a*b`` of those. A calibration file names the features it was fitted with,
so one fitted before a feature existed keeps working. :data:`DEFAULT_FEATURES`
were chosen leaving one data set out (``docs/detector.md``): the share of unsupported
content, the span model's highest span probability, absent rare words, the claim model's
highest rating of an unsupported anchor (``claim_probability_max``, in the place of the
share of unsupported numbers since the fiftieth round), the share of unsupported proper-noun
weight and the names no source mentions; beside them
what only a business record has (a record's own value denying a claim, an amenity it never
mentions), weighed on the written probe and measured on its later batches
(``docs/validity.md``, "Twenty-seventh round"); and how many claims and how many numbers the
context does not back (log counts), which forward selection leaving one set out adds once the
probe's batches 1-136 are one development set ("Thirty-ninth round"). Response length
(``log_response_words``) was kept by that test until the span probability joined; with it,
it no longer pays, and in the written probe it is an artefact of how twins were written (an
invented detail makes one longer than its original).

Fitting (:func:`evaltools.calibration.learned.fit_calibration`) uses scikit-learn:
``StandardScaler`` then
``LogisticRegression`` (L2, ``C=1``), with cross-validated out-of-fold
probabilities for an honest AUROC and reliability (stratified folds, grouped
when ``groups`` is given so that records sharing a question stay together).

The shipped default is ``default_calibration.json`` beside this file (applying a model is
part of scoring; fitting one is calibration's); its
provenance (data, command, CV AUROC) is inside it and in ``docs/calibration.md``.

Examples
--------
>>> cal = load_calibration()
>>> cal.feature_names == DEFAULT_FEATURES
True
>>> def record(unsupported, span, rare, claim, names, absent=0.0, amenity=0.0, denied=0.0):
...     return {"claims_score": 0.0, "error": None, "support": 1 - unsupported, "signals": {
...         "unsupported_share": unsupported, "span_probability_max": span,
...         "novel_rare": rare, "claim_probability_max": claim, "names_unsupported": names,
...         "log_absent_names": absent, "amenity_absent": amenity, "record_denied": denied,
...         "log_unsupported_claims": math.log1p(absent), "log_unsupported_numbers": 0.0}}
>>> p = cal.probability(record(0.8, 0.9, 0.6, 0.9, 1.0, 1.1))
>>> q = cal.probability(record(0.0, 0.0, 0.0, 0.0, 0.0))
>>> 0.0 < q < p < 1.0
True
>>> q < cal.probability(record(0.0, 0.0, 0.0, 0.0, 0.0, denied=1.0))
True
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from evaltools.errors import InputError, one_line, shorten
from evaltools.io import atomic_path
from evaltools.io.validation import depth_exceeds, loads_bounded
from evaltools.values import is_finite_number

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

#: The features ``fit_calibration`` uses unless told otherwise: chosen by forward
#: selection under leave-one-dataset-out AUROC on the development sets
#: (``benchmarks/validity.py --select``; docs/validity.md, "Choosing the features");
#: ``claim_probability_max`` in ``numbers_unsupported``'s place since the fiftieth round.
DEFAULT_FEATURES: tuple[str, ...] = (
    "unsupported_share", "span_probability_max", "novel_rare", "claim_probability_max",
    "names_unsupported", "log_absent_names", "amenity_absent", "record_denied",
    "log_unsupported_claims", "log_unsupported_numbers")


def _signals(d: Mapping[str, Any]) -> Mapping[str, Any]:
    sig = d.get("signals")
    if isinstance(sig, str):  # CSV / Parquet cells hold JSON text
        sig = loads_bounded(sig, 8)
    if not isinstance(sig, Mapping):
        raise ValueError("score field 'signals' is missing (a file scored by an older "
                         "evaltools? score it again)")
    return sig


def _signal(name: str) -> Callable[[Mapping[str, Any]], float]:
    def value(d: Mapping[str, Any]) -> float:
        sig = _signals(d)
        if name not in sig:
            raise ValueError(f"score field 'signals' has no '{name}' (scored by another "
                             "evaltools version? score it again)")
        return _number(sig, name)
    return value


def _product(names: Sequence[str]) -> Callable[[Mapping[str, Any]], float]:
    parts = [feature_function(n) for n in names]

    def value(d: Mapping[str, Any]) -> float:
        return math.prod(f(d) for f in parts)
    return value


def is_feature(name: Any) -> bool:
    """Whether ``name`` names a feature: one of :data:`FEATURES`, a signal of
    :data:`evaltools.scoring.signals.SIGNALS`, or a product ``a*b`` of those.

    Examples
    --------
    >>> is_feature("support_min"), is_feature("sentence_support_min")
    (False, True)
    >>> is_feature("unsupported_share*query_instruction")
    True
    """
    from evaltools.scoring.signals import SIGNALS

    if not isinstance(name, str) or not name:
        return False
    return all(part in FEATURES or part in SIGNALS for part in name.split("*"))


@functools.lru_cache(maxsize=1024)
def feature_function(name: str) -> Callable[[Mapping[str, Any]], float]:
    """How the feature ``name`` is computed from a score output dict (found once per
    name: every record asks for the same few).

    A name of :data:`FEATURES` reads the score fields; any other is a signal
    (the output's ``signals`` mapping, :mod:`evaltools.scoring.signals`); a
    name ``a*b`` is the product of two features (an interaction).
    """
    if "*" in name:
        return _product(name.split("*"))
    if name in FEATURES:
        return FEATURES[name]
    if not is_feature(name):
        raise ValueError(f"unknown feature {name!r}")
    return _signal(name)


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
    return [feature_function(n)(score) for n in names]


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


def features_frame(records, names: Sequence[str] | None = None):
    """The features of many scored records, one row each (DataFrame; NaN for error rows).

    ``names`` defaults to :data:`DEFAULT_FEATURES`.

    Examples
    --------
    >>> features_frame([{"claims_score": 0.0, "ngram_overlap": 1.0, "anchors_total": 0,
    ...                  "anchors": [], "support": 1.0}], names=list(FEATURES)).shape
    (1, 6)
    """
    import pandas as pd

    names = list(DEFAULT_FEATURES if names is None else names)
    rows = [feature_vector(r, names) if _scored(r) else [math.nan] * len(names)
            for r in _rows(records)]
    return pd.DataFrame(rows, columns=names)


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
    def recommended_threshold(self) -> float:
        """The probability from which the verdict fails a record (``hallucination.verdict_from
        = "probability"``): ``recommended_threshold`` of the file (the out-of-fold maximum-F1
        cut written by :func:`fit_calibration`), else 0.5.

        >>> LearnedCalibration((), 0.0, {"recommended_threshold": 0.37}).recommended_threshold
        0.37
        >>> LearnedCalibration((), 0.0).recommended_threshold
        0.5
        """
        value = self.metadata.get("recommended_threshold")
        return float(value) if _finite(value, 1.0) and float(value) >= 0 else 0.5

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
            if not is_feature(name):
                raise bad(f"field '{where}.name' must be a feature (one of "
                          f"{', '.join(FEATURES)}, a signal name, or a product a*b of "
                          f"those). Got {shorten(name)} instead.", f"{where}.name")
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
    return is_finite_number(v, within=top)


@functools.lru_cache(maxsize=1)
def _shipped_calibration() -> LearnedCalibration:
    """The shipped default (``default_calibration.json`` beside this module), read once: a
    scorer without a calibration of its own asks for it for every record."""
    text = resources.files("evaltools.scoring").joinpath(DEFAULT_FILE).read_text("utf-8")
    return LearnedCalibration.from_dict(json.loads(text), source=DEFAULT_FILE)


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
        return _shipped_calibration()
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


