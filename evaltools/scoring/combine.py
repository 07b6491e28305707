"""One record's scores from its texts' features: relevance, completeness, hallucination, verdict."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from evaltools.config import Config
from evaltools.scoring.claim_probability import rate_anchors
from evaltools.scoring.completeness import completeness_score
from evaltools.scoring.features import ContextFeatures, QueryFeatures, ResponseFeatures
from evaltools.scoring.grounding import GroundingScore, ground
from evaltools.scoring.hallucination import Provenance, hallucination_score
from evaltools.scoring.relevance import (
    CorpusTfidf,
    answers_single_ask,
    answers_type,
    relevance_reference,
    relevance_score,
)
from evaltools.scoring.result import Anchor, ScoreResult
from evaltools.scoring.signals import response_signals
from evaltools.scoring.sources import abstention_sentences, site_attributions, site_mentions
from evaltools.scoring.verdict import VerdictInputs, redecide


@functools.lru_cache(maxsize=8)
def _word_set(words: tuple[str, ...]) -> frozenset[str]:
    """Configured words (amenity keys, offering verbs) as a set, made once per
    configuration."""
    return frozenset(words)


@functools.lru_cache(maxsize=8)
def _provenance(entries: tuple[str, ...]) -> Provenance:
    """The configured claims of provenance, compiled once per configuration."""
    return Provenance.from_config(entries)


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


def summarises(query: QueryFeatures, context: ContextFeatures) -> bool:
    """Whether the query asks for a summary of prose: an instruction none of whose topical
    words the context holds ("Summarize the following news within 100 words:"), over a
    context that is no JSON record (``hallucination.long_summary_fail_probability``). An
    instruction about a topic the context speaks of ("Explain why ice floats") asks for an
    answer, as a question does.
    """
    return (query.instruction and not context.structured
            and set(query.topical).isdisjoint(context.tokens))


def query_reference(query: QueryFeatures, context: ContextFeatures, rcfg
                    ) -> tuple[tuple[str, ...], tuple[str, ...], str, bool]:
    """What relevance and completeness read of the query: (tokens, keywords, against, applicable).

    ``against`` is ``"query"``, ``"topical"`` (an instruction's topical words,
    config ``relevance.instruction = "topical"``) or ``"context"``
    (``relevance.reference = "auto"``). ``applicable`` is False for an
    instruction with no topical word that the context holds: nothing in the
    query says what the response should be about (a word of the instruction
    the context lacks, the *customers* of "cover what the customers' reviews
    say" over reviews by patients, is about the task), so rules 2 and 3 do
    not apply.
    """
    tokens, kws, applicable = query.tokens, query.keywords, True
    if query.instruction and rcfg.instruction == "topical" and rcfg.reference != "auto":
        held = set(context.tokens)
        tokens = tuple(t for t in query.topical if t in held)
        kws = tuple(k for k in query.topical_keywords if k in held)
        applicable = bool(tokens)
        if applicable:
            return tokens, kws, "topical", True
    reference, against = relevance_reference(tokens, query.instruction, context.tokens,
                                             rcfg.reference)
    return reference, kws, against, applicable


def referred_topic(query: QueryFeatures, context: ContextFeatures,
                   response: ResponseFeatures) -> tuple[str, ...]:
    """The keywords of what the question is about (``query.topic``) when the response
    refers to it, by a third-person pronoun or by some of its words ("The Roadie 24" for
    "the Yeti Roadie 24"), and the context names all of them (config
    ``completeness.referred``); () otherwise, or when the response names something the
    context does not (*the Dyson V11* to a question on the V15)."""
    if not query.topic:
        return ()
    held = set(context.tokens)
    if not all(k in held for k in query.topic):
        return ()
    if any(w.pos == "PROPN" and w.key not in held and w.key not in query.topic
           for w in response.units):
        return ()
    said = set(response.tokens)
    return query.topic if response.refers or any(k in said for k in query.topic) else ()


def restated_lemmas(grounding: GroundingScore, context: ContextFeatures) -> frozenset[str]:
    """Content lemmas of the context sentences the response restates (``grounding.restated``)."""
    per = context.sentence_lemmas
    out: set[str] = set()
    for c in grounding.restated:
        if c < len(per):
            out |= per[c]
    return frozenset(out)


def quoted(items, given: str) -> tuple:
    """Anchors or spans whose ``text`` quotes ``given``, the response as written, at their
    offsets: markup was read as spaces in the parsed text (:func:`~evaltools.scoring.context
    .unmark`), every offset kept, so ``given[start:end]`` is what the reader wrote.

    >>> from evaltools.scoring.result import Anchor
    >>> quoted([Anchor("claim", "Gina   is rude", 2, 16, False)], "**Gina** is rude.")[0].text
    'Gina** is rude'
    """
    return tuple(dataclasses.replace(x, text=given[x.start:x.end]) for x in items)


def context_quoted(items, given: str) -> tuple:
    """Anchors or spans whose context quotes (an anchor's ``evidence``, a span's ``closest``)
    quote ``given``, a plain-text context as written, at their offsets: markup and mojibake
    were read in place in the parsed text (:func:`~evaltools.scoring.context.unmark`), every
    offset kept, so ``given[start:end]`` is what the context says there.

    >>> from evaltools.scoring.result import Anchor
    >>> a = Anchor("number", "0", 0, 1, True, "€0", 0, 2)
    >>> context_quoted([a], "Â\\x800")[0].evidence
    'Â\\x80'
    """
    def one(x):
        if isinstance(x, Anchor):
            return x if x.evidence_start is None else dataclasses.replace(
                x, evidence=given[x.evidence_start:x.evidence_end])
        return x if x.closest_start is None else dataclasses.replace(
            x, closest=given[x.closest_start:x.closest_end])

    return tuple(one(x) for x in items)


def score_features(rid: Any, query: QueryFeatures,
                   context: ContextFeatures, response: ResponseFeatures, *, config: Config,
                   tfidf: CorpusTfidf | None = None, calibration=None,
                   given: str | None = None, given_context: str | None = None) -> ScoreResult:
    """The scores of one record from its features; ``given`` is the response as written,
    which anchors and spans quote (:func:`quoted`; default: the text parsed), and
    ``given_context`` the context as written, which their evidence quotes when it is plain
    text (:func:`context_quoted`; a JSON record's evidence quotes the record as read)."""
    cited = (*site_attributions(response.text, context.sites),
             *site_mentions(response.text, context.sites))
    if cited:  # "According to WIRED," "the Tom's Guide poster": a passage's site, its source
        response = dataclasses.replace(
            response, about_sources=tuple(sorted((*response.about_sources, *cited))))
    rcfg = config.relevance
    reference, query_keywords, against, applicable = query_reference(query, context, rcfg)
    rel = relevance_score(reference, response.tokens,
                          weight_cosine=config.relevance.weight_cosine,
                          weight_jaccard=config.relevance.weight_jaccard, tfidf=tfidf)
    grounding = ground(response, context, query, config.grounding)
    restated = (restated_lemmas(grounding, context) if rcfg.restated_context and applicable
                else frozenset())
    rel_restated = False
    extra = tuple(sorted(restated - set(response.tokens)))
    # only a restated word the reference holds can raise relevance; without one, a float's
    # last digit would decide whether the note is given
    if rel.relevance < rcfg.fail_below and not set(extra).isdisjoint(reference):
        wider = relevance_score(reference, response.tokens + extra,
                                weight_cosine=rcfg.weight_cosine,
                                weight_jaccard=rcfg.weight_jaccard, tfidf=tfidf)
        if wider.relevance > rel.relevance:
            rel, rel_restated = wider, True
    chat = query.chat if rcfg.chat_turn == "with_context" and applicable else ""
    rel_chat = False
    if chat and rel.relevance < rcfg.fail_below and context.tokens:
        # a conversational turn: relevant to the query and the knowledge together
        joint = relevance_score(reference + context.tokens, response.tokens,
                                weight_cosine=rcfg.weight_cosine,
                                weight_jaccard=rcfg.weight_jaccard, tfidf=tfidf)
        if joint.relevance > rel.relevance:
            rel, rel_chat = joint, True
    comp = completeness_score(query_keywords, response.tokens, restated=restated,
                              referred=referred_topic(query, context, response)
                              if applicable and against != "topical" else ())
    hall = hallucination_score(
        response, context, query, min_share=config.hallucination.claim_min_share,
        rare_above=config.hallucination.claim_rare_above,
        head_rare_above=config.hallucination.claim_head_rare_above,
        count_query_anchors=config.hallucination.count_query_anchors,
        number_context=config.hallucination.number_context,
        ngram=config.drift.ngram, overlap_below=config.drift.overlap_below,
        penalty=config.drift.penalty, claim_window=config.hallucination.claim_window,
        paraphrase=config.grounding.paraphrase,
        paraphrase_cosine=config.grounding.paraphrase_cosine,
        amenities=_word_set(config.hallucination.amenities),
        offering=_word_set(config.hallucination.offering_verbs),
        provenance=_provenance(config.hallucination.provenance),
        term_zipf_below=config.hallucination.term_zipf_below)
    declined = abstention_sentences(response.text, response.sentences)
    declines = bool(declined) and len(declined) == len(response.sentences)
    short_answer = rcfg.answer_type and answers_type(
        query.asks, response.words, (m.kind for m in response.mentions), response.proper_nouns,
        max_words=rcfg.answer_type_max_words)
    rated = rate_anchors(hall.anchors, response.text, context=context.text, query=query.text,
                         spans=grounding.unsupported_spans, structured=context.structured,
                         instruction=query.instruction,
                         threshold=config.hallucination.claim_threshold)
    anchors, spans = rated, grounding.unsupported_spans
    if given is not None and given != response.text:
        anchors, spans = quoted(anchors, given), quoted(spans, given)
    if (given_context is not None and not context.structured
            and given_context != context.text):
        anchors, spans = context_quoted(anchors, given_context), context_quoted(
            spans, given_context)
    result = ScoreResult(
        id=rid, relevance=rel.relevance, relevance_cosine=rel.cosine,
        relevance_jaccard=rel.jaccard, completeness=comp.completeness,
        keywords=comp.keywords, missing_keywords=comp.missing,
        hallucination=hall.hallucination, claims_score=hall.claims_score,
        drift_penalty=hall.drift_penalty, ngram_overlap=hall.ngram_overlap,
        anchors_total=hall.anchors_total, anchors_unsupported=hall.anchors_unsupported,
        anchors=anchors, support=grounding.support,
        unsupported_spans=spans,
        signals=response_signals(query, context, response, rated, grounding))
    gate = config.grounding.span_record_gate
    from_probability = config.hallucination.verdict_from == "probability"
    p_record = None
    if from_probability or (gate > 0 and any(s.hallucinated for s in result.unsupported_spans)):
        if calibration is None:
            from evaltools.scoring.probability import load_calibration

            calibration = load_calibration()
        p_record = calibration.probability(result.to_dict())
    probability = (p_record, calibration.recommended_threshold) if from_probability else None
    if p_record is not None and p_record < gate:
        # a response the probability reads as faithful reports no hallucinated span
        result = dataclasses.replace(result, unsupported_spans=tuple(
            dataclasses.replace(s, hallucinated=False) for s in result.unsupported_spans))
    grounded = (rcfg.waive_at_support > 0 and bool(grounding.units)
                and grounding.support >= rcfg.waive_at_support)
    answered = (config.completeness.answered and applicable and not query.instruction
                and answers_single_ask(query.text, query.asks, response.words,
                                       (m.kind for m in response.mentions)))
    inputs = VerdictInputs(
        relevance_waived=short_answer or not applicable or declines or grounded,
        completeness_waived=not applicable or chat == "statement" or answered,
        probability=probability,
        # the clauses read what the signals count (evaltools.scoring.signals)
        value_unsupported=result.signals["value_unsupported"] > 0,
        record_denied=result.signals["record_denied"] > 0,
        name_absent=result.signals["log_absent_names"] > 0,
        amenity_absent=result.signals["amenity_absent"] > 0,
        generalised=result.signals["generalised"] > 0,
        term_absent=result.signals["log_absent_terms"] > 0,
        response_words=len(response.words),
        # a question answered over prose passages: a RAG answer (long_answer_fail_probability)
        # (a chat turn too: "Why does lying down ease my nausea?" reads as one)
        answer=bool(query.text.strip()) and not query.instruction and not context.structured,
        summary=summarises(query, context))
    result = dataclasses.replace(result, verdict_inputs=inputs)
    verdict = redecide(result, config)
    named = span_reason(grounding, config.grounding.reasons_max)
    notes = [named] if named else []
    if not (query.english and response.english):
        notes.insert(0, "the text does not look like English: the keyword, claim and "
                        "matching rules are English ones, so read these scores with care")
    if not response.text.strip() and not response.words:
        notes.insert(0, "the response is empty: nothing in it answers the query or can be "
                        "checked against the context")
    if declines and rel.relevance < rcfg.fail_below:
        notes.append("relevance not applied: the response declines to answer or speaks of the "
                     "sources' silence")
    if not applicable:
        notes.append("relevance and completeness not applicable: the query is an instruction "
                     "about the context with no topical word the context holds "
                     "(relevance.instruction = \"topical\")")
    elif against == "topical":
        notes.append("relevance and completeness read the instruction's topical words: "
                     + ", ".join(reference))
    if rel_restated:
        notes.append("relevance counts the words of the context sentences the response "
                     "restates (relevance.restated_context)")
    if rel_chat:
        notes.append("relevance measured against the query and the context together: the "
                     "query is a turn of a conversation (relevance.chat_turn)")
    if answered and comp.completeness < config.completeness.warn_below:
        notes.append(f"completeness not applied: a question that asks one thing is answered "
                     f"with a value of its type ({query.asks.replace('_', '/')}; "
                     "completeness.answered)")
    if chat == "statement" and comp.completeness < config.completeness.warn_below:
        notes.append("completeness not applied: the query is a conversational statement that "
                     "asks for nothing (relevance.chat_turn)")
    if comp.restated:
        notes.append("keywords carried by a context sentence the response restates: "
                     + ", ".join(comp.restated))
    if comp.referred:
        notes.append("keywords of what the question is about, which the response refers to, "
                     "not counted in completeness (completeness.referred): "
                     + ", ".join(comp.referred))
    if against == "context":
        notes.append("relevance measured against the context (the query is an instruction "
                     "or has no content word)")
    if short_answer and rel.relevance < rcfg.fail_below:
        notes.append(f"relevance {rel.relevance:.2f} < {rcfg.fail_below:g} not failed: a short "
                     f"answer of the type the question asks for ({query.asks.replace('_', '/')})")
    if (grounded and applicable and not short_answer and not declines
            and rel.relevance < rcfg.fail_below):
        notes.append(f"relevance {rel.relevance:.2f} < {rcfg.fail_below:g} not failed: the "
                     f"context backs the response (support {grounding.support:.2f} >= "
                     f"{rcfg.waive_at_support:g}; relevance.waive_at_support)")
    if comp.note and applicable:
        notes.append(f"{comp.note}: completeness 1.0")
    if not hall.anchors_total:
        notes.append("no anchors in the response: claims score 0.0")
    return dataclasses.replace(result, verdict=verdict.verdict,
                               reasons=verdict.reasons + tuple(notes))
