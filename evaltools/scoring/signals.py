"""The detector's signals: named numbers about one response, computed from its parse.

The learned hallucination probability (:mod:`evaltools.scoring.probability`)
reads these, not the texts. Each is a plain, finite float, defined below in
:data:`SIGNALS` (name -> what it measures) and computed by
:func:`response_signals` from the features the scorers already derived (no
second parse) and from the grounding's per-unit credits. They are written to
the output as the ``signals`` field, so a probability can always be traced
to the numbers it was computed from.

Which signals the shipped model uses, and what each adds when the model is
fitted on all development sets but one and measured on that one, is in
``docs/validity.md``.

Examples
--------
>>> import evaltools
>>> r = evaltools.score("How much is the mug?", "The mug costs $5. It is blue.",
...                     "The mug costs $7 and is red.")
>>> s = r.signals
>>> s["numbers_unsupported"]  # $7: the context says $5
1.0
>>> s["novel_unigrams"] == 3 / 7  # "7", "and", "red" of 7 words
True
>>> sorted(s) == sorted(SIGNALS)
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from evaltools.scoring.features import ContextFeatures, QueryFeatures, ResponseFeatures
from evaltools.scoring.grounding import HEDGES, GroundedUnit, GroundingScore
from evaltools.scoring.matcher import rarity
from evaltools.scoring.result import Anchor, UnsupportedSpan
from evaltools.scoring.sources import abstention_sentences
from evaltools.scoring.verdict import VALUE_KINDS, denied_by_record
from evaltools.text import ngrams

#: Signal name -> what it measures. Shares are in [0, 1]; ``log_*`` are natural
#: logarithms of 1 + a count; flags are 0 or 1.
SIGNALS: dict[str, str] = {
    # grounding: how much of the response's content the context holds, and where not
    "unsupported_share": "1 - support: rarity-weighted share of content the context lacks",
    "unsupported_weight": "log of 1 + the summed weight of unsupported content",
    "content_absent": "share of content units (unweighted) the context does not hold",
    "sentence_support_min": "support of the least supported response sentence",
    "sentences_below_half": "share of response sentences with support below 0.5",
    "largest_span_share": "weight of the heaviest unsupported span / all content weight",
    "largest_span_position": "where the heaviest unsupported span starts (0 start, 1 end)",
    "names_unsupported": "share of proper-noun weight the context does not hold",
    "numbers_unsupported": "share of numbers and dates the context does not hold",
    "words_unsupported": "share of common content-word weight the context does not hold",
    "echo_share": "share of content weight found only in the query (not the context)",
    "derived_share": "share of content weight found only as a derivation",
    "scattered_share": "share of found weight outside its sentence's closest context sentence",
    "personal_share": "share of content weight in personal words (I, my, you...)",
    "span_probability_max": "the highest probability the span model gives one of the "
                            "response's unsupported spans (0: none)",
    "claim_probability_max": "the highest probability the claim model gives one of the "
                             "response's unsupported anchors (0: none; "
                             "evaltools.scoring.claim_probability)",
    # anchors (the spec's claims)
    "claims_score": "the spec's S_claims: unsupported anchors / anchors",
    "log_unsupported_numbers": "log of 1 + unsupported number anchors",
    "log_unsupported_dates": "log of 1 + unsupported date anchors",
    "log_unsupported_claims": "log of 1 + unsupported claim anchors",
    "log_anchors": "log of 1 + counted anchors",
    # what the verdict's own clauses read in the unsupported anchors, as the probability's
    # candidates: one wrong value or unknown name in a long response is a small share
    "value_unsupported": "1 when a counted number or date is unsupported",
    "log_absent_names": "log of 1 + the distinct names in unsupported claims that neither the "
                        "context nor the query mentions (Anchor.absent)",
    "log_absent_terms": "log of 1 + the distinct uncommon nouns in unsupported claims that "
                        "neither the context nor the query uses (Anchor.terms)",
    "record_denied": "1 when a record's own value denies a claim (verdict.denied_by_record: "
                     "its 'no', its 'yes' or its weekly hours)",
    "generalised": "1 when an unsupported claim of an overview of a business's record "
                   "generalises past it ('always packed', 'widely considered the best in "
                   "Boise'), or a claim's quantifier goes past the context sentence that says "
                   "the same ('every jurisdiction' where it says 'most jurisdictions'): "
                   "contradiction 'generalised'",
    "amenity_absent": "1 when an unsupported claim gives a record's business an amenity or a "
                      "provenance the record never mentions (contradiction 'record_absent')",
    # surface novelty
    "novel_unigrams": "share of response words absent from the context",
    "novel_bigrams": "share of response word pairs absent from the context",
    "novel_trigrams": "share of response word triples absent from the context",
    "novel_rare": "share of response words absent from the context, each weighted by its "
                  "rarity (matcher.rarity: 'the' ~0, a name 1)",
    # meaning markers
    "negation_mismatch": "share of sentences whose negation differs from their closest "
                         "context sentence's",
    "hedged_sentences": "share of sentences with a hedge (may, reportedly, ...: grounding.HEDGES)",
    "abstains": "1 when a sentence declines or speaks of the sources' silence "
                "(sources.abstention_sentences)",
    # size and shape
    "log_response_words": "log of 1 + response words",
    "log_context_words": "log of 1 + context words",
    "length_ratio": "log of (1 + response words) / (1 + context words)",
    "query_instruction": "1 when the query is an instruction (summarise, describe...)",
    "query_question": "1 when the query is a question",
    "context_structured": "1 when the context was read as a JSON record",
}

#: The signals that are logarithms (of counts, or of a length ratio), not shares or flags in
#: [0, 1]: ``log_*``, ``unsupported_weight`` and ``length_ratio``.
LOG_SIGNALS = frozenset(n for n in SIGNALS if n.startswith("log_")) | {
    "unsupported_weight", "length_ratio"}

_NEGATION = re.compile(r"\b(?:not|no|never|none|nor|neither|without|cannot)\b|n['\u2019]t\b",
                       re.IGNORECASE)
_QUESTION = re.compile(r"\?\s*$|^\s*(?:who|what|when|where|which|why|how|is|are|was|were|do|"
                       r"does|did|can|could|should|will|would|has|have)\b", re.IGNORECASE)


def _share(part: float, whole: float) -> float:
    return part / whole if whole > 0 else 0.0


def _novel(words: Sequence[str], hashes: Mapping[int, frozenset[int]], n: int) -> float:
    k = min(n, len(words))
    if k == 0:
        return 0.0
    grams = ngrams(words, k)
    ctx = hashes.get(k, frozenset())
    return sum(1 for g in grams if hash(g) not in ctx) / len(grams)


def _novel_rare(words: Sequence[str], hashes: Mapping[int, frozenset[int]]) -> float:
    ctx = hashes.get(1, frozenset())
    weights = [rarity(w) for w in words]
    return _share(sum(x for x, w in zip(weights, words, strict=True) if hash((w,)) not in ctx),
                  sum(weights))


def _unit_shares(units: Sequence[GroundedUnit], text: str) -> dict[str, float]:
    total = sum(u.weight for u in units)
    lost = sum(u.weight * (1.0 - u.credit) for u in units)

    def kind_share(*kinds: str) -> float:
        mine = [u for u in units if u.kind in kinds]
        return _share(sum(u.weight * (1.0 - u.credit) for u in mine),
                      sum(u.weight for u in mine))

    by_sent: dict[int, list[GroundedUnit]] = {}
    for u in units:
        by_sent.setdefault(u.sent, []).append(u)
    sent_support = [_share(sum(u.weight * u.credit for u in us), sum(u.weight for u in us))
                    for us in by_sent.values() if sum(u.weight for u in us) > 0]
    # runs of uncredited units within a sentence: the unsupported stretches
    runs: list[tuple[float, int]] = []
    current = 0.0
    start = 0
    prev_sent = None
    for u in units:
        if u.credit > 0 or u.sent != prev_sent:
            if current > 0:
                runs.append((current, start))
            current = 0.0
        if u.credit == 0:
            if current == 0:
                start = u.start
            current += u.weight
        prev_sent = u.sent
    if current > 0:
        runs.append((current, start))
    heaviest = max(runs, key=lambda r: (r[0], -r[1]), default=(0.0, 0))  # ties: the first
    return {
        "unsupported_share": _share(lost, total),
        "unsupported_weight": math.log1p(lost),
        "content_absent": _share(sum(1 for u in units if not u.found), len(units)),
        "sentence_support_min": min(sent_support, default=1.0),
        "sentences_below_half": _share(sum(1 for s in sent_support if s < 0.5),
                                       len(sent_support)),
        "largest_span_share": _share(heaviest[0], total),
        "largest_span_position": _share(heaviest[1], len(text)) if heaviest[0] else 0.0,
        "names_unsupported": kind_share("name"),
        "numbers_unsupported": kind_share("number"),
        "words_unsupported": kind_share("word"),
        "echo_share": _share(sum(u.weight for u in units if u.echo and not u.found), total),
        "derived_share": _share(sum(u.weight for u in units if u.derived), total),
        "scattered_share": _share(sum(u.weight for u in units if u.found and 0 < u.credit < 1),
                                  sum(u.weight for u in units if u.found)),
        "personal_share": _share(sum(u.weight for u in units if u.kind == "personal"), total),
    }


def _span_probability_max(spans: Sequence[UnsupportedSpan]) -> float:
    """The highest span-model probability among ``spans`` (0 when none has one).

    One invented clause in a long, otherwise supported response moves the response's
    shares little but is one span the span model rates high (docs/validity.md,
    "Sixteenth round").
    """
    return max((s.probability for s in spans if s.probability is not None), default=0.0)


def _claim_probability_max(unsupported: Sequence[Anchor]) -> float:
    """The highest claim-model probability among the unsupported anchors (0 when none has
    one).

    One edited fact among many paraphrases is one anchor the claim model rates high,
    where their count barely moves (docs/validity.md, "Fiftieth round").
    """
    return max((a.probability for a in unsupported if a.probability is not None), default=0.0)


def _negation_mismatch(response: ResponseFeatures, context: ContextFeatures,
                       closest: Mapping[int, int]) -> float:
    if context.sentences is None or not closest:
        return 0.0
    spans = context.sentences.spans
    differ = 0
    for sent, c in closest.items():
        if sent >= len(response.sentences) or c >= len(spans):
            continue
        rs, re_ = response.sentences[sent]
        cs, ce = spans[c]
        differ += (bool(_NEGATION.search(response.text, rs, re_))
                   != bool(_NEGATION.search(context.text, cs, ce)))
    return _share(differ, len(closest))


def response_signals(query: QueryFeatures, context: ContextFeatures,
                     response: ResponseFeatures, anchors: Sequence[Anchor],
                     grounding: GroundingScore) -> dict[str, float]:
    """Every signal of :data:`SIGNALS` for one scored response, in that order.

    Parameters
    ----------
    query, context, response
        The parsed features (:mod:`evaltools.scoring.features`).
    anchors
        The response's anchors as the hallucination scorer checked them.
    grounding
        The grounding score with its per-unit credits.

    Returns
    -------
    dict of str to float
        Finite numbers; shares in [0, 1].
    """
    text = response.text
    counted = [a for a in anchors if a.counted]
    unsupported = [a for a in counted if not a.supported]
    n_resp = len(response.words)
    n_ctx = context.n_words
    sentences = response.sentences or ((0, len(text)),)
    # words in statements about the sources are not checked (evaltools.scoring.sources);
    # a response that is nothing else keeps all its words
    checked = response.checked_words or response.words
    values = {
        **_unit_shares(grounding.units, text),
        "span_probability_max": _span_probability_max(grounding.unsupported_spans),
        "claim_probability_max": _claim_probability_max(unsupported),
        "claims_score": _share(len(unsupported), len(counted)),
        "log_unsupported_numbers": math.log1p(sum(a.kind == "number" for a in unsupported)),
        "log_unsupported_dates": math.log1p(sum(a.kind == "date" for a in unsupported)),
        "log_unsupported_claims": math.log1p(sum(a.kind == "claim" for a in unsupported)),
        "log_anchors": math.log1p(len(counted)),
        "value_unsupported": float(any(a.kind in VALUE_KINDS for a in unsupported)),
        "log_absent_names": math.log1p(len({n for a in unsupported for n in a.absent})),
        "log_absent_terms": math.log1p(len({t for a in unsupported for t in a.terms})),
        "record_denied": float(any(denied_by_record(a) for a in unsupported)),
        "amenity_absent": float(any(a.contradiction == "record_absent" for a in unsupported)),
        "generalised": float(any(a.contradiction == "generalised" for a in unsupported)),
        "novel_unigrams": _novel(checked, context.ngrams_by_n, 1),
        "novel_bigrams": _novel(checked, context.ngrams_by_n, 2),
        "novel_trigrams": _novel(checked, context.ngrams_by_n, 3),
        "novel_rare": _novel_rare(checked, context.ngrams_by_n),
        "negation_mismatch": _negation_mismatch(response, context, dict(grounding.closest)),
        "hedged_sentences": _share(len({w.sent for w in response.units if w.key in HEDGES}),
                                   len(sentences)),
        "abstains": float(bool(abstention_sentences(text, sentences))),
        "log_response_words": math.log1p(n_resp),
        "log_context_words": math.log1p(n_ctx),
        "length_ratio": math.log((1 + n_resp) / (1 + n_ctx)),
        "query_instruction": float(query.instruction),
        "query_question": float(not query.instruction and bool(_QUESTION.search(query.text))),
        "context_structured": float(context.structured),
    }
    return {name: float(values[name]) for name in SIGNALS}
