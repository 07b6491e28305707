"""Immutable results of response scoring, with ``to_dict()`` in the data contract's shape."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evaltools.schema import Schema

#: The verdicts of a scored response, best first.
VERDICTS = ("PASS", "WARN", "FAIL")
#: The verdicts as tables and figures list them: best first, then ERROR (an invalid record).
VERDICT_ORDER = (*VERDICTS, "ERROR")
#: The three scores the verdict is decided on.
VERDICT_SCORES = ("relevance", "completeness", "hallucination")
#: The scored record: every field of ``ScoreResult.to_dict()``, in order, with its kind
#: (:mod:`evaltools.schema`). Output order, Dask dtypes, Parquet kinds and the cells
#: restored from CSV derive from it; a new field is added here once.
SCORE_SCHEMA = Schema((
    ("id", "id"), ("relevance", "score"), ("relevance_cosine", "score"),
    ("relevance_jaccard", "score"), ("completeness", "score"), ("keywords", "json"),
    ("missing_keywords", "json"), ("hallucination", "score"), ("claims_score", "score"),
    ("drift_penalty", "score"), ("ngram_overlap", "score"), ("anchors_total", "count"),
    ("anchors_unsupported", "count"), ("anchors", "json"), ("support", "score"),
    ("unsupported_spans", "json"), ("signals", "json"), ("verdict", "text"),
    ("reasons", "json"), ("error", "text"),
))
#: The numeric score fields of a result (each in [0, 1]).
SCORE_FIELDS = SCORE_SCHEMA.of_kind("score")
#: The integer count fields of a result.
COUNT_FIELDS = SCORE_SCHEMA.of_kind("count")
#: The JSON-valued fields of a result (lists, and the ``signals`` mapping).
LIST_FIELDS = SCORE_SCHEMA.of_kind("json")
#: Every field of ``ScoreResult.to_dict()``, in order.
OUTPUT_FIELDS = SCORE_SCHEMA.names
#: What ``evaltools score`` adds to a record: the result's fields, then
#: ``hallucination_probability`` when a calibration is applied
#: (:func:`evaltools.scoring.stream.output_record`).
SCORED_OUTPUT_SCHEMA = SCORE_SCHEMA.plus(("hallucination_probability", "score"))
#: What marks a record as ``evaltools score`` output (the report's "scored" kind).
SCORE_OUTPUT_MARKERS = ("verdict", "relevance")
#: The scores calibration reads; a record holding them all need not be scored again.
CALIBRATION_INPUTS = ("claims_score", "ngram_overlap", "anchors_total", "anchors",
                      "hallucination")


def is_score_output(fields) -> bool:
    """Whether a record's fields (or a frame's columns) are ``evaltools score`` output.

    >>> is_score_output({"id": 1, "verdict": "PASS", "relevance": 0.9}), is_score_output(["query"])
    (True, False)
    """
    return all(f in fields for f in SCORE_OUTPUT_MARKERS)


def has_calibration_inputs(fields) -> bool:
    """Whether a record's fields (or a frame's columns) hold every score calibration reads.

    >>> has_calibration_inputs({"claims_score": 0, "ngram_overlap": 1, "anchors_total": 0,
    ...                         "anchors": [], "hallucination": 0.0})
    True
    >>> has_calibration_inputs({"verdict": "PASS", "relevance": 0.9})
    False
    """
    return all(f in fields for f in CALIBRATION_INPUTS)


@dataclass(frozen=True)
class Anchor:
    """One checkable fact of a response and what the context says about it.

    ``start``/``end`` are character offsets in the response; ``evidence`` is
    the supporting (or, for a contradicted claim, contradicting) context text
    at ``evidence_start``/``evidence_end``, or None when nothing matched.
    ``counted`` is False for a number or date restated from the query: shown,
    but not part of ``anchors_total`` (config ``hallucination.count_query_anchors``).
    ``contradiction`` says how the evidence contradicts an unsupported claim
    ("negation", "record_no", "record_yes", "opposite", "roles", "record_hours":
    :data:`~evaltools.scoring.anchors.context_index.CONTRADICTIONS`), else None.
    ``absent`` lists the names of an unsupported claim that neither the context (under
    any form the matcher reads) nor the query mentions (*California* in "California law
    requires ..." against passages on Washington law). ``terms`` lists its common nouns
    that are not everyday words (config ``hallucination.term_zipf_below``) and that
    neither the context nor the query uses (*consultations* in "Renata also offers
    complimentary color consultations" against a salon's record that never speaks of one).
    ``probability`` is, for an unsupported anchor that counts, how likely it is a
    hallucination rather than a paraphrase the matcher missed (the claim model,
    :mod:`evaltools.scoring.claim_probability`), and ``hallucinated`` whether that reaches
    the config's ``hallucination.claim_threshold``; both None for the others.
    """

    kind: str
    text: str
    start: int
    end: int
    supported: bool
    evidence: str | None = None
    evidence_start: int | None = None
    evidence_end: int | None = None
    note: str = ""
    counted: bool = True
    contradiction: str | None = None
    absent: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    probability: float | None = None
    hallucinated: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "start": self.start, "end": self.end,
                "supported": self.supported, "evidence": self.evidence,
                "evidence_start": self.evidence_start, "evidence_end": self.evidence_end,
                "note": self.note, "counted": self.counted,
                "contradiction": self.contradiction, "absent": list(self.absent),
                "terms": list(self.terms),
                "probability": None if self.probability is None else round(self.probability, 4),
                "hallucinated": self.hallucinated}


@dataclass(frozen=True)
class UnsupportedSpan:
    """A stretch of the response whose content the context does not hold (grounding).

    ``start``/``end`` index the response (``response[start:end] == text``);
    ``weight`` is the summed rarity weight of its content; ``probability`` how
    likely people would mark it hallucinated, and ``hallucinated`` whether that
    passes ``grounding.span_threshold`` in a response whose hallucination
    probability reaches ``grounding.span_record_gate``; ``closest`` is the
    context sentence that holds most of the rest of the response sentence, at
    ``closest_start``/``closest_end`` in the read context, or None.
    """

    text: str
    start: int
    end: int
    weight: float
    closest: str | None = None
    closest_start: int | None = None
    closest_end: int | None = None
    #: P(people would mark this span hallucinated), from the span model
    #: (:mod:`evaltools.scoring.span_probability`); None when not computed
    probability: float | None = None
    #: probability >= the config's ``grounding.span_threshold``, and the response's
    #: hallucination probability >= ``grounding.span_record_gate``
    hallucinated: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "start": self.start, "end": self.end,
                "weight": round(self.weight, 4), "closest": self.closest,
                "closest_start": self.closest_start, "closest_end": self.closest_end,
                "probability": None if self.probability is None else round(self.probability, 4),
                "hallucinated": self.hallucinated}


@dataclass(frozen=True)
class ScoreResult:
    """Every score of one record with its evidence; ``error`` set means scores are None."""

    id: Any
    relevance: float | None = None
    relevance_cosine: float | None = None
    relevance_jaccard: float | None = None
    completeness: float | None = None
    keywords: tuple[str, ...] = ()
    missing_keywords: tuple[str, ...] = ()
    hallucination: float | None = None
    claims_score: float | None = None
    drift_penalty: float | None = None
    ngram_overlap: float | None = None
    anchors_total: int | None = None
    anchors_unsupported: int | None = None
    anchors: tuple[Anchor, ...] = ()
    support: float | None = None
    unsupported_spans: tuple[UnsupportedSpan, ...] = ()
    #: the detector's signals (:mod:`evaltools.scoring.signals`), name -> number
    signals: Mapping[str, float] | None = None
    verdict: str | None = None
    reasons: tuple[str, ...] = ()
    error: str | None = None
    #: what the verdict read besides the scores (:class:`evaltools.scoring.verdict.VerdictInputs`),
    #: for re-deciding it under other thresholds; not an output field, None when not scored here
    verdict_inputs: Any = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in OUTPUT_FIELDS:
            value = getattr(self, name)
            if name in ("anchors", "unsupported_spans"):
                value = [a.to_dict() for a in value]
            elif isinstance(value, tuple):
                value = list(value)
            elif name == "signals" and value is not None:
                value = dict(value)
            out[name] = value
        return out

    def unsupported(self, kind: str | None = None) -> tuple[Anchor, ...]:
        """The counted unsupported anchors, of one kind if given."""
        return tuple(a for a in self.anchors if a.counted and not a.supported
                     and (kind is None or a.kind == kind))
