"""One record's scores from its texts' features: relevance, completeness, hallucination, verdict."""

from __future__ import annotations

from typing import Any

from evaltools.config import Config
from evaltools.scoring.completeness import completeness_score
from evaltools.scoring.features import ContextFeatures, QueryFeatures, ResponseFeatures
from evaltools.scoring.grounding import GroundingScore, ground
from evaltools.scoring.hallucination import hallucination_score
from evaltools.scoring.relevance import (
    CorpusTfidf,
    answers_type,
    relevance_reference,
    relevance_score,
)
from evaltools.scoring.result import ScoreResult
from evaltools.scoring.verdict import decide


def span_reason(grounding: GroundingScore, most: int = 3) -> str | None:
    """The reason naming the unsupported spans (heaviest first), whatever the verdict.

    Examples
    --------
    >>> from evaltools.scoring.result import UnsupportedSpan
    >>> g = GroundingScore(0.62, (UnsupportedSpan("oat milk", 41, 49, 0.5),
    ...                           UnsupportedSpan("matcha", 30, 36, 0.9)))
    >>> span_reason(g, most=1)
    'unsupported spans (support 0.62): “matcha” and 1 more'
    >>> span_reason(GroundingScore(1.0, ())) is None
    True
    """
    spans = sorted(grounding.unsupported_spans, key=lambda s: (-s.weight, s.start))
    if not spans:
        return None
    more = f" and {len(spans) - most} more" if len(spans) > most else ""
    return (f"unsupported spans (support {grounding.support:.2f}): "
            + ", ".join(f"“{s.text}”" for s in spans[:most]) + more)


def score_features(rid: Any, query: QueryFeatures,
                   context: ContextFeatures, response: ResponseFeatures, *, config: Config,
                   tfidf: CorpusTfidf | None = None,
                   cosine: float | None = None) -> ScoreResult:
    rcfg = config.relevance
    reference, against = relevance_reference(query.tokens, query.instruction, context.tokens,
                                             rcfg.reference)
    rel = relevance_score(reference, response.tokens,
                          weight_cosine=config.relevance.weight_cosine,
                          weight_jaccard=config.relevance.weight_jaccard, tfidf=tfidf,
                          cosine=cosine)
    comp = completeness_score(query.keywords, response.tokens)
    hall = hallucination_score(
        response, context, query, min_share=config.hallucination.claim_min_share,
        rare_above=config.hallucination.claim_rare_above,
        head_rare_above=config.hallucination.claim_head_rare_above,
        count_query_anchors=config.hallucination.count_query_anchors,
        number_context=config.hallucination.number_context,
        ngram=config.drift.ngram, overlap_below=config.drift.overlap_below,
        penalty=config.drift.penalty)
    grounding = ground(response, context, query, config.grounding)
    short_answer = rcfg.answer_type and answers_type(
        query.asks, response.words, (m.kind for m in response.mentions), response.proper_nouns,
        max_words=rcfg.answer_type_max_words)
    verdict = decide(rel.relevance, comp.completeness, hall.hallucination, config=config,
                     unsupported=[(a.kind, a.text) for a in hall.anchors
                                  if a.counted and not a.supported],
                     relevance_waived=short_answer)
    named = span_reason(grounding, config.grounding.reasons_max)
    notes = [named] if named else []
    if not (query.english and response.english):
        notes.insert(0, "the text does not look like English: the keyword, claim and "
                        "matching rules are English ones, so read these scores with care")
    if not response.text.strip() and not response.words:
        notes.insert(0, "the response is empty: nothing in it answers the query or can be "
                        "checked against the context")
    if against == "context":
        notes.append("relevance measured against the context (the query is an instruction "
                     "or has no content word)")
    if short_answer and rel.relevance < rcfg.fail_below:
        notes.append(f"relevance {rel.relevance:.2f} < {rcfg.fail_below:g} not failed: a short "
                     f"answer of the type the question asks for ({query.asks.replace('_', '/')})")
    if comp.note:
        notes.append(f"{comp.note}: completeness 1.0")
    if not hall.anchors_total:
        notes.append("no anchors in the response: claims score 0.0")
    return ScoreResult(
        id=rid, relevance=rel.relevance, relevance_cosine=rel.cosine,
        relevance_jaccard=rel.jaccard, completeness=comp.completeness,
        keywords=comp.keywords, missing_keywords=comp.missing,
        hallucination=hall.hallucination, claims_score=hall.claims_score,
        drift_penalty=hall.drift_penalty, ngram_overlap=hall.ngram_overlap,
        anchors_total=hall.anchors_total, anchors_unsupported=hall.anchors_unsupported,
        anchors=hall.anchors, support=grounding.support,
        unsupported_spans=grounding.unsupported_spans, verdict=verdict.verdict,
        reasons=verdict.reasons + tuple(notes),
    )
