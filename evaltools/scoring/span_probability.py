"""How likely each unsupported span is to be a hallucination people would mark.

The grounding lists every run of response content the context does not hold
(:mod:`evaltools.scoring.grounding`). Many such runs are harmless (a
paraphrase, a connective, a word of the question), so each span gets a
``probability`` from a small logistic model over :data:`SPAN_FEATURES`,
fitted on development data where people marked the hallucinated text
(``benchmarks/span_model.py`` with
:func:`evaltools.calibration.span_fit.fit_span_model`: LFQA unsupported sentences, XSumFaith
hallucinated spans, WiCE unsupported tokens). The model ships as
``span_model.json`` beside this file (named coefficients, never a pickle);
``grounding.span_threshold`` decides which spans a record reports as
hallucinated.

Examples
--------
>>> model = load_span_model()
>>> set(model.feature_names) <= set(SPAN_FEATURES)
True
>>> 0.0 < model.probability({name: 0.0 for name in SPAN_FEATURES}) < 1.0
True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from evaltools.errors import InputError, shorten

#: Span feature name -> what it measures.
SPAN_FEATURES: dict[str, str] = {
    "log_weight": "log of 1 + the span's summed content weight",
    "log_chars": "log of 1 + the span's length in characters",
    "weight_share": "the span's weight / the response's content weight",
    "sentence_support": "support of the response sentence holding the span",
    "record_unsupported": "1 - support of the whole response",
    "has_number": "1 when the span holds a digit",
    "has_name": "1 when the span holds a capitalised word that does not start a sentence",
    "position": "where the span starts in the response (0 start, 1 end)",
    "no_closest": "1 when no word of the span's sentence is in the context",
    "sentence_share": "the span's length / its sentence's length",
}

_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+")

FORMAT = "evaltools-span-model"
MODEL_FILE = "span_model.json"


def span_features(text: str, start: int, end: int, weight: float, *, total_weight: float,
                  sentence: tuple[int, int], sentence_support: float, support: float,
                  closest: bool) -> dict[str, float]:
    """The :data:`SPAN_FEATURES` of one unsupported span of ``text``.

    Examples
    --------
    >>> f = span_features("The mug costs $7 in Paris.", 14, 16, 1.0, total_weight=4.0,
    ...                   sentence=(0, 26), sentence_support=0.75, support=0.75, closest=True)
    >>> f["weight_share"], f["has_number"], f["has_name"], f["sentence_share"]
    (0.25, 1.0, 0.0, 0.07692307692307693)
    """
    piece = text[start:end]
    s0, s1 = sentence
    head = text[s0:start]
    return {
        "log_weight": math.log1p(max(weight, 0.0)),
        "log_chars": math.log1p(end - start),
        "weight_share": weight / total_weight if total_weight > 0 else 0.0,
        "sentence_support": sentence_support,
        "record_unsupported": 1.0 - support,
        "has_number": float(any(c.isdigit() for c in piece)),
        "has_name": float(bool(_NAME.search(piece)) and bool(head.strip())),
        "position": start / len(text) if text else 0.0,
        "no_closest": float(not closest),
        "sentence_share": (end - start) / (s1 - s0) if s1 > s0 else 1.0,
    }


@dataclass(frozen=True)
class SpanModel:
    """A logistic model of ``P(people mark the span as hallucinated)``."""

    names: tuple[str, ...]
    centers: tuple[float, ...]
    scales: tuple[float, ...]
    coefficients: tuple[float, ...]
    intercept: float
    metadata: Mapping[str, Any]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return self.names

    def probability(self, features: Mapping[str, float]) -> float:
        z = self.intercept + sum(w * (features[n] - c) / s for n, c, s, w in zip(
            self.names, self.centers, self.scales, self.coefficients, strict=True))
        z = max(-30.0, min(30.0, z))
        return 1.0 / (1.0 + math.exp(-z))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": 1, "intercept": self.intercept,
                "features": [{"name": n, "center": c, "scale": s, "coefficient": w}
                             for n, c, s, w in zip(self.names, self.centers, self.scales,
                                                   self.coefficients, strict=True)],
                **dict(self.metadata)}

    @classmethod
    def from_dict(cls, data: Any, *, source: str = MODEL_FILE) -> SpanModel:
        """Read and check the JSON form; errors name the source and the field."""
        def bad(msg: str, fld: str | None = None) -> InputError:
            return InputError(msg, source=source, field=fld)

        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise bad(f"not a span model (field 'format' must be {FORMAT!r})", "format")
        feats = data.get("features")
        if not isinstance(feats, list) or not feats:
            raise bad("field 'features' must be a non-empty list", "features")
        rows = []
        for i, f in enumerate(feats):
            if not isinstance(f, Mapping) or f.get("name") not in SPAN_FEATURES:
                raise bad(f"field 'features[{i}].name' must be a span feature. "
                          f"Got {shorten(f)} instead.", f"features[{i}].name")
            vals = [f.get(k) for k in ("center", "scale", "coefficient")]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       and math.isfinite(v) and abs(v) < 1e6 for v in vals) or vals[1] <= 0:
                raise bad(f"field 'features[{i}]' must hold finite center, positive scale "
                          "and coefficient", f"features[{i}]")
            rows.append((f["name"], *map(float, vals)))
        intercept = data.get("intercept")
        if not isinstance(intercept, (int, float)) or not math.isfinite(intercept):
            raise bad("field 'intercept' must be a finite number", "intercept")
        meta = {k: v for k, v in data.items()
                if k not in ("format", "version", "intercept", "features")}
        names, centers, scales, coefs = zip(*rows, strict=True)
        return cls(names, centers, scales, coefs, float(intercept), meta)


@lru_cache(maxsize=1)
def load_span_model() -> SpanModel:
    """The shipped span model (``span_model.json`` beside this module)."""
    text = resources.files("evaltools.scoring").joinpath(MODEL_FILE).read_text("utf-8")
    return SpanModel.from_dict(json.loads(text))
