"""Grounding: how much of a response's content the context holds, and which spans it does not.

Beside the spec's hallucination score (anchors), grounding looks at every
content-bearing unit of the response:

- each **number or date** (:func:`~evaltools.scoring.anchors.mentions.find_mentions`,
  matched by value and unit with :func:`~evaltools.scoring.anchors.mentions.find_support`),
  weight ``grounding.number_weight``;
- each other **content word** (:func:`~evaltools.scoring.matcher.words_of`,
  matched by lemma, case, accents and hyphens folded), weight
  :func:`~evaltools.scoring.matcher.rarity` of its key (``the`` ~0,
  ``company`` 0.3, a name 1), raised to ``grounding.rarity_power`` (a word
  that says only that something is there to be had, ``available``, ``offers``,
  ``serves``: :data:`~evaltools.scoring.anchors.claims.AVAILABILITY_WORDS`, weighs 0:
  a record says it as "delivery: yes"; in a JSON record that holds reviews, the words
  by which an overview says who said what, *customers*, *one diner noted*,
  *complaints include*:
  :data:`~evaltools.scoring.anchors.claims.REVIEW_FRAMING`, weigh 0 too);
- each **personal word** (*I, my, we, you, your*...: :data:`PERSONAL`), weight
  ``grounding.personal_weight``: what the response says of its speaker or
  listener, which a context holds only when it speaks in that person too.

A unit is *found* when the read context holds it
(:class:`~evaltools.scoring.matcher.SentenceIndex`), or only a derivation of
it (*located* for *location*: it earns ``grounding.derived_credit``). Found units of one
response sentence should be found *together*: the context sentence that holds
the most of the sentence's weight is its **closest context sentence**, and a
unit found only elsewhere in the context earns ``grounding.scattered_credit``
(1.0: no penalty). A word the query states is found when
``grounding.query_words`` is on (the response restates the question).

``support = Σ weight × credit / Σ weight`` in [0, 1]; 1.0 when the response
has no content unit. ``unsupported_spans`` are the runs of adjacent units with
no credit within one sentence (function words between them included), each
with its weight (the units' summed weight) and the closest context sentence
(its text and offsets in the read context), or None when no unit of the
sentence is found anywhere.
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from evaltools.config import GroundingConfig
from evaltools.scoring.anchors.claims import (
    AVAILABILITY_WORDS,
    HEDGE_AUX,
    HEDGE_VERBS,
    HEDGE_WORDS,
    REVIEW_FRAMING,
)
from evaltools.scoring.anchors.mentions import Mention, find_support
from evaltools.scoring.anchors.support_index import SupportIndex
from evaltools.scoring.features import ContextFeatures, QueryFeatures, ResponseFeatures
from evaltools.scoring.matcher import SentenceIndex, Word, rarity, same_quantity, zipf
from evaltools.scoring.result import UnsupportedSpan
from evaltools.scoring.sources import inside, source_spans
from evaltools.scoring.span_probability import SpanModel, load_span_model, span_features

#: Personal words (matcher keys): the speaker and the listener. What a response says of
#: them (experiences, opinions, questions to the user) no context states, unless it
#: speaks in the first or second person too.
PERSONAL = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours",
                      "ourselves", "you", "your", "yours", "yourself", "yourselves"})

# between two unsupported units, these end a span: "costs $38 | and comes in a box"
_BREAK = re.compile(r"[,;:.!?()\[\]\n]|\b(?:and|or|but|while|whereas|because)\b", re.IGNORECASE)


@dataclass(frozen=True)
class GroundedUnit:
    """One content unit of a response and the credit the context gave it.

    Kept beside the score (not in its output) for the detector's signals
    (:mod:`evaltools.scoring.signals`): where the unsupported weight sits,
    and of what kind it is.
    """

    start: int
    end: int
    weight: float
    credit: float
    sent: int          # the response sentence it is in
    kind: str          # "number", "name", "personal" or "word"
    found: bool        # the context holds it somewhere
    echo: bool         # the query states it
    derived: bool      # found only as a derivation


@dataclass(frozen=True)
class GroundingScore:
    support: float
    unsupported_spans: tuple[UnsupportedSpan, ...]
    units: tuple[GroundedUnit, ...] = ()
    closest: tuple[tuple[int, int], ...] = ()  # (response sentence, closest context sentence)
    # the context sentences that the response's fully supported sentences restate
    # (relevance.restated_context); not an output field
    restated: frozenset[int] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        return {"support": self.support,
                "unsupported_spans": [s.to_dict() for s in self.unsupported_spans]}


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    weight: float
    sent: int
    at: tuple[int, ...]    # context word positions holding it
    found: frozenset[int]  # context sentences holding it
    echo: bool = False     # stated by the query
    pos: int = 0           # its word position in the response
    key: Any = None        # what it is looked up by (equal units, equal keys)
    derived: bool = False  # found only as a derivation ("located" for "location")
    kind: str = "word"     # "number", "name", "personal" or "word" (GroundedUnit.kind)
    paraphrased: bool = False  # found only as a paraphrase ("deaths" for "fatalities")


def _sentence_of(starts: Sequence[int], offset: int) -> int:
    """The sentence (by its start offsets, sorted) that holds ``offset``."""
    return max(bisect.bisect_right(starts, offset) - 1, 0)


def _units(words: Sequence[Word], mentions: Sequence[Mention],
           response_sents: Sequence[tuple[int, int]], index: SentenceIndex,
           context_mentions: Sequence[Mention], query_keys: frozenset[str],
           query_mentions: Sequence[Mention], *, power: float,
           number_weight: float, personal: float = 0.0,
           paraphrase: bool = False, paraphrase_cosine: float = 0.0,
           reviews: bool = False) -> list[_Unit]:
    units = []
    word_starts = [w.start for w in words]
    sentence_starts = [s for s, _ in response_sents]
    support_index = SupportIndex(context_mentions)  # linear in long texts
    folded_text = index.text.lower()
    # Where the context holds a value or a word (and whether only as a derivation),
    # remembered per value and per word: a long text that repeats them is looked up once.
    seen: dict[Any, tuple] = {}
    for m in mentions:
        key = ("value", m.text, m.value, m.qualifier)
        if key not in seen:
            found = {context_mentions[i] for i in support_index.supporting(m)}
            found.update(f for f in support_index.candidates(m)
                         if same_quantity(m.value, f.value))
            at = tuple(sorted({index.word_at(f.start) for f in found}))
            if not at and m.text.lower() in folded_text:
                # the same characters, where the context's reading of them failed
                same = re.compile(rf"(?<!\w){re.escape(m.text)}(?!\w)", re.IGNORECASE)
                at = tuple(index.word_at(x.start()) for x in same.finditer(index.text))
            seen[key] = at, frozenset(index.sentence_of(j) for j in at), False, False
        at, sents, _, _ = seen[key]
        echo = find_support(m, query_mentions) is not None
        units.append(_Unit(m.start, m.end, number_weight, _sentence_of(sentence_starts, m.start),
                           at, sents, echo,
                           max(bisect.bisect_right(word_starts, m.start) - 1, 0), key,
                           kind="number"))
    spans = sorted((m.start, m.end) for m in mentions)
    ends = [e for _, e in spans]
    for pos, w in enumerate(words):
        if not w.content and not (personal and w.key in PERSONAL):
            continue
        k = bisect.bisect_right(ends, w.start)  # the first mention ending after the word starts
        if k < len(spans) and spans[k][0] < w.end:
            continue  # part of a number or date: that unit decides
        weight = (number_weight if w.num else personal if not w.content
                  else 0.0 if w.key in AVAILABILITY_WORDS
                  or (reviews and w.key in REVIEW_FRAMING) else rarity(w.key, power))
        if weight <= 0:
            continue
        key = ("word", w.forms, w.parts)
        if key not in seen:
            at = index.locate(w)
            derived = not at
            if derived:
                at = index.derived_positions(w)
            paraphrased = False
            if not at and paraphrase and w.content and w.pos != "PROPN":
                at = index.paraphrase_positions(w, paraphrase_cosine)
                paraphrased, derived = bool(at), False
            seen[key] = (at, frozenset(index.sentence_of(j) for j in at),
                         derived and bool(at), paraphrased)
        at, sents, derived, paraphrased = seen[key]
        kind = ("number" if w.num else "personal" if not w.content
                else "name" if w.pos == "PROPN" else "word")
        units.append(_Unit(w.start, w.end, weight, w.sent, at, sents,
                           any(f in query_keys for f in w.forms), pos, key, derived, kind,
                           paraphrased))
    units.sort(key=lambda u: (u.start, u.end))
    return units


HEDGES = HEDGE_AUX | HEDGE_VERBS | HEDGE_WORDS

def _hedged_clauses(text: str, words: Sequence[Word]) -> list[tuple[int, int]]:
    """Character spans of the response's clauses that hold a hedge (*may*, *reportedly*, ...).

    A clause runs between sentence ends, commas and *and*/*but*/... (:data:`_BREAK`).
    """
    out = []
    for w in words:
        if w.key in HEDGES:
            lo = max((m.end() for m in _BREAK.finditer(text, 0, w.start)), default=0)
            nxt = _BREAK.search(text, w.end)
            out.append((lo, nxt.start() if nxt else len(text)))
    return out


def _near(a: Sequence[int], b: Sequence[int], window: int) -> bool:
    """Whether some position of ``a`` and some of ``b`` (sorted) are within ``window`` words.

    Examples
    --------
    >>> _near([3, 40], [10, 44], 4), _near([3, 40], [10, 45], 4)
    (True, False)
    """
    if not a or not b:
        return False
    if len(b) > len(a):  # look the shorter list up in the longer one
        a, b = b, a
    for q in b:
        k = bisect.bisect_left(a, q - window)
        if k < len(a) and a[k] <= q + window:
            return True
    return False


def ground(response: ResponseFeatures, context: ContextFeatures,
           query: QueryFeatures | None, config: GroundingConfig) -> GroundingScore:
    """:func:`grounding_score` of parsed features, with the config's weights.

    A JSON record (read as one key/value sentence per field) describes one
    thing: its fields are not separate facts, so no scattered-credit penalty.
    """
    g = grounding_score(
        response.text, response.units, response.mentions, response.sentences,
        context.sentences, context.mentions,
        query_keys=query.keys if query is not None else frozenset(),
        query_mentions=query.mentions if query is not None else (),
        power=config.rarity_power, number_weight=config.number_weight,
        scattered_credit=1.0 if context.structured else config.scattered_credit,
        adjacency_window=config.adjacency_window,
        adjacency_credit=config.adjacency_credit, query_words=config.query_words,
        skip_hedged=config.skip_hedged, personal=config.personal_weight,
        derived_credit=config.derived_credit, merge_words=config.span_merge_words,
        paraphrase_credit=config.paraphrase_credit if config.paraphrase else None,
        paraphrase_cosine=config.paraphrase_cosine, about_sources=response.about_sources,
        reviews=context.reviews, own_counts=frozenset(s for s, _ in response.own_counts))
    return rate_spans(g, response.text, response.sentences, load_span_model(),
                      config.span_threshold, lone_word_zipf=config.span_lone_word_zipf)


def rate_spans(g: GroundingScore, text: str, sentences: Sequence[tuple[int, int]],
               model: SpanModel, threshold: float, *, lone_word_zipf: float = 0.0
               ) -> GroundingScore:
    """``g`` with each unsupported span's ``probability`` (the span model) and
    ``hallucinated`` (probability >= ``threshold``, and not one of
    :func:`lone_common_words` at ``lone_word_zipf``)."""
    if not g.unsupported_spans:
        return g
    rated = []
    for span, feats, lone in zip(g.unsupported_spans, span_feature_rows(g, text, sentences),
                                 lone_common_words(g, text, lone_word_zipf), strict=True):
        p = model.probability(feats)
        rated.append(replace(span, probability=p, hallucinated=p >= threshold and not lone))
    return replace(g, unsupported_spans=tuple(rated))


def lone_common_words(g: GroundingScore, text: str, cut: float) -> list[bool]:
    """For each unsupported span of ``g``: whether it is one everyday word, a single
    unsupported unit that is a word (not a name or a number) of Zipf frequency ``cut`` or
    more (``grounding.span_lone_word_zipf``; 0: never).

    People mark the stretch that states what the context does not, rarely a lone everyday
    word (*overall*, *include*, *experienced*) that a faithful paraphrase leaves unsupported
    as well. Such a span stays in ``unsupported_spans`` with its probability, but is not
    reported as hallucinated.

    Examples
    --------
    >>> text = "Its overall rating beats Zorn"
    >>> units = (GroundedUnit(4, 11, 0.4, 0.0, 0, "word", False, False, False),
    ...          GroundedUnit(12, 18, 0.4, 1.0, 0, "word", True, False, False),
    ...          GroundedUnit(25, 29, 1.0, 0.0, 0, "name", False, False, False))
    >>> spans = (UnsupportedSpan("overall", 4, 11, 0.4), UnsupportedSpan("Zorn", 25, 29, 1.0))
    >>> g = GroundingScore(0.3, spans, units)
    >>> lone_common_words(g, text, 4.0), lone_common_words(g, text, 0.0)
    ([True, False], [False, False])
    """
    if cut <= 0:
        return [False] * len(g.unsupported_spans)
    starts = [u.start for u in g.units]
    out = []
    for span in g.unsupported_spans:
        lo = bisect.bisect_left(starts, span.start)
        hi = bisect.bisect_left(starts, span.end, lo)
        unsupported = [u for u in g.units[lo:hi] if u.credit == 0]
        out.append(len(unsupported) == 1 and unsupported[0].kind == "word"
                   and zipf(text[unsupported[0].start:unsupported[0].end].lower()) >= cut)
    return out


def span_feature_rows(g: GroundingScore, text: str, sentences: Sequence[tuple[int, int]]
                      ) -> list[dict[str, float]]:
    """The span model's features (:func:`~evaltools.scoring.span_probability.span_features`)
    of each of ``g``'s unsupported spans, in order."""
    total = sum(u.weight for u in g.units)
    by_sent: dict[int, list[float]] = {}
    for u in g.units:
        acc = by_sent.setdefault(u.sent, [0.0, 0.0])
        acc[0] += u.weight * u.credit
        acc[1] += u.weight
    starts = [a for a, _ in sentences] or [0]
    rows = []
    for span in g.unsupported_spans:
        k = _sentence_of(starts, span.start)
        sentence = sentences[k] if sentences else (0, len(text))
        got, of = by_sent.get(k, (0.0, 0.0))
        rows.append(span_features(text, span.start, span.end, span.weight, total_weight=total,
                                  sentence=sentence, sentence_support=got / of if of else 1.0,
                                  support=g.support, closest=span.closest is not None))
    return rows


def grounding_score(response_text: str, words: Sequence[Word], mentions: Sequence[Mention],
                    response_sents: Sequence[tuple[int, int]], index: SentenceIndex,
                    context_mentions: Sequence[Mention], *,
                    query_keys: frozenset[str] = frozenset(),
                    query_mentions: Sequence[Mention] = (), power: float = 1.0,
                    number_weight: float = 1.0, scattered_credit: float = 1.0,
                    adjacency_window: int = 0, adjacency_credit: float = 1.0,
                    query_words: bool = False, skip_hedged: bool = False,
                    personal: float = 0.0, derived_credit: float = 1.0,
                    merge_words: int = 0,
                    paraphrase_credit: float | None = None, paraphrase_cosine: float = 0.0,
                    about_sources: Sequence[tuple[int, int]] | None = None,
                    reviews: bool = False,
                    own_counts: frozenset[int] = frozenset()) -> GroundingScore:
    """The response's support in the context and its unsupported spans.

    ``paraphrase_credit`` (None: off): a word the context holds only as a paraphrase
    (:meth:`~evaltools.scoring.matcher.SentenceIndex.paraphrase_positions`) is found and
    earns this share of its weight; ``paraphrase_cosine`` above 0 lets static word vectors
    find paraphrases too (config ``grounding.paraphrase_cosine``). ``reviews``: the context
    is a record holding reviews, and :data:`~evaltools.scoring.anchors.claims.REVIEW_FRAMING`
    weighs nothing. ``own_counts``: the starts of mentions that are the response's own counts
    (*two reasons:*, :func:`~evaltools.scoring.anchors.own_counts.own_counts`), left out as the
    anchors leave them uncounted.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> from evaltools.scoring.matcher import sentence_spans, words_of
    >>> nlp = load_pipeline()
    >>> ctx = nlp("The Blue Door cafe opens at 9am. It serves espresso.")
    >>> resp = nlp("The Blue Door café opens at 9am and serves matcha.")
    >>> g = grounding_score(resp.text, words_of(resp), find_mentions(resp.text),
    ...                     sentence_spans(resp), SentenceIndex(ctx), find_mentions(ctx.text))
    >>> [(s.text, s.closest) for s in g.unsupported_spans]
    [('matcha', 'The Blue Door cafe opens at 9am.')]
    >>> round(g.support, 2)  # "serves" weighs nothing; "matcha" 0.67 of 3.19
    0.79
    """
    if own_counts:
        mentions = [m for m in mentions if m.start not in own_counts]
    units = _units(words, mentions, response_sents, index, context_mentions, query_keys,
                   query_mentions, power=power, number_weight=number_weight,
                   personal=personal, paraphrase=paraphrase_credit is not None,
                   paraphrase_cosine=paraphrase_cosine, reviews=reviews)
    if skip_hedged:
        hedged = _hedged_clauses(response_text, words)
        units = [u for u in units if not any(lo <= u.start < hi for lo, hi in hedged)]
    if about_sources is None:
        about_sources = source_spans(response_text, response_sents)
    if about_sources:  # abstentions and attributions (evaltools.scoring.sources)
        units = [u for u in units if not inside(about_sources, u.start)]
    if not units:
        return GroundingScore(1.0, ())
    best = _closest(units)
    total = credit_sum = 0.0
    credits = []
    near: dict[tuple, bool] = {}
    prev: _Unit | None = None
    for u in units:
        if u.found:
            credit = 1.0 if best.get(u.sent) in u.found else scattered_credit
            if u.derived:
                credit *= derived_credit
            if u.paraphrased and paraphrase_credit is not None:
                credit *= paraphrase_credit
            if (adjacency_credit < 1.0 and prev is not None and prev.found and prev.sent == u.sent
                    and not _BREAK.search(response_text, prev.end, u.start)):
                window = u.pos - prev.pos + adjacency_window
                pair = (prev.key, u.key, window)  # a long text repeats its pairs
                if pair not in near:
                    near[pair] = _near(prev.at, u.at, window)
                if not near[pair]:
                    credit *= adjacency_credit
        else:
            credit = 1.0 if query_words and u.echo else 0.0
        credits.append(credit)
        total += u.weight
        credit_sum += u.weight * credit
        prev = u
    support = credit_sum / total if total > 0 else 1.0
    grounded = tuple(GroundedUnit(u.start, u.end, u.weight, c, u.sent, u.kind, bool(u.found),
                                  u.echo, u.derived) for u, c in zip(units, credits, strict=True))
    return GroundingScore(min(1.0, max(0.0, support)),
                          _spans(response_text, units, credits, best, index, merge_words),
                          grounded,
                          tuple(sorted(best.items())), _restated(units, credits, best))


#: A fully supported response sentence restates the context sentences that hold all of its
#: units, when there are at most this many; else its closest one.
RESTATED_MAX = 3


def _restated(units: Sequence[_Unit], credits: Sequence[float], best: dict[int, int]
              ) -> frozenset[int]:
    """Context sentences restated by the response's fully supported sentences.

    Examples
    --------
    >>> u = lambda sent, found: _Unit(0, 1, 1.0, sent, (), frozenset(found))
    >>> sorted(_restated([u(0, {2, 5}), u(0, {5, 2, 9}), u(1, {4}), u(1, set())],
    ...                  [1.0, 1.0, 1.0, 0.0], {0: 2, 1: 4}))
    [2, 5]
    """
    by_sent: dict[int, list[frozenset[int]]] = {}
    missed = set()
    for u, c in zip(units, credits, strict=True):
        if c <= 0:
            missed.add(u.sent)
        else:
            by_sent.setdefault(u.sent, []).append(u.found)
    out: set[int] = set()
    for s, found in by_sent.items():
        if s in missed:
            continue
        together = frozenset.intersection(*found)
        if 0 < len(together) <= RESTATED_MAX:
            out |= together
        elif s in best:
            out.add(best[s])
    return frozenset(out)


#: A unit found in more context sentences than this (a common word in a long text) adds
#: its weight only to the sentences the other units found, so finding the closest
#: sentence stays linear in the text's length.
VOTE_CAP = 64


def _closest(units: Sequence[_Unit]) -> dict[int, int]:
    """The closest context sentence of each response sentence: most of its found weight.

    Ties go to the earlier context sentence. A unit found in more than
    :data:`VOTE_CAP` context sentences counts only towards the sentences the
    sentence's other units found (or, when they are all that common, the first
    :data:`VOTE_CAP` of its own).

    Examples
    --------
    >>> u = lambda sent, w, found: _Unit(0, 1, w, sent, (), frozenset(found))
    >>> _closest([u(0, 1.0, {4, 7}), u(0, 0.5, {7}), u(1, 1.0, {2, 3})])
    {0: 7, 1: 2}
    """
    tally: dict[int, dict[int, float]] = {}
    common = []
    for u in units:
        by = tally.setdefault(u.sent, {})
        if len(u.found) > VOTE_CAP:
            common.append(u)
            continue
        for c in u.found:
            by[c] = by.get(c, 0.0) + u.weight
    for u in common:
        by = tally[u.sent]
        if not by:
            by.update((c, 0.0) for c in heapq.nsmallest(VOTE_CAP, u.found))
        for c in by:
            if c in u.found:
                by[c] += u.weight
    return {s: max(by, key=lambda c: (by[c], -c)) for s, by in tally.items() if by}


_WORD = re.compile(r"[^\W_]+")


def _merge_runs(text: str, runs: list[list[_Unit]], merge_words: int) -> list[list[_Unit]]:
    """Runs of one sentence with at most ``merge_words`` words between them, joined.

    People mark a hallucinated stretch, not each of its absent words: "won the
    **2019** award for **best** **novel**" is one stretch when only "the" and
    "award for" stand between (``grounding.span_merge_words``).

    Examples
    --------
    >>> u = lambda a, b, sent=0: _Unit(a, b, 1.0, sent, (), frozenset())
    >>> text = "aa bb cc dd ee ff gg"
    >>> [[(x.start, x.end) for x in r] for r in _merge_runs(text, [[u(0, 2)], [u(6, 8)],
    ...                                                       [u(18, 20)]], 1)]
    [[(0, 2), (6, 8)], [(18, 20)]]
    """
    if merge_words <= 0 or len(runs) < 2:
        return runs
    out = [runs[0]]
    for run in runs[1:]:
        prev = out[-1]
        gap = text[max(u.end for u in prev):run[0].start]
        if (prev[-1].sent == run[0].sent and len(_WORD.findall(gap)) <= merge_words
                and not re.search(r"[.!?;\n]", gap)):
            out[-1] = prev + run
        else:
            out.append(run)
    return out


def _spans(text: str, units: Sequence[_Unit], credits: Sequence[float], best: dict[int, int],
           index: SentenceIndex, merge_words: int = 0) -> tuple[UnsupportedSpan, ...]:
    runs: list[list[_Unit]] = [[]]
    for u, credit in zip(units, credits, strict=True):
        if credit > 0:
            if runs[-1]:
                runs.append([])
            continue
        last = runs[-1][-1] if runs[-1] else None
        if last is not None and (last.sent != u.sent or last.end > u.start
                                 or _BREAK.search(text, last.end, u.start)):
            runs.append([])
        runs[-1].append(u)
    runs = _merge_runs(text, [r for r in runs if r], merge_words)
    out = []
    for run in runs:
        if not run:
            continue
        start, end = run[0].start, max(u.end for u in run)
        c = best.get(run[0].sent)
        if c is None:
            closest = (None, None, None)
        else:
            cs, ce = index.spans[c]
            closest = (index.text[cs:ce], cs, ce)
        out.append(UnsupportedSpan(text[start:end], start, end, sum(u.weight for u in run),
                                   *closest))
    return tuple(out)
