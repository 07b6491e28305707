"""The detector's signals: each definition with a hand-computed case, ranges as a property."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.scoring.grounding import GroundedUnit
from evaltools.scoring.signals import LOG_SIGNALS, SIGNALS, _novel, _novel_rare, _unit_shares
from evaltools.text import ngrams


def unit(start, weight, credit, sent=0, kind="word", found=None, echo=False, derived=False):
    return GroundedUnit(start, start + 3, weight, credit, sent, kind,
                        credit > 0 if found is None else found, echo, derived)


def test_unit_shares_by_hand():
    text = "x" * 40
    units = [unit(0, 1.0, 1.0), unit(5, 0.5, 0.0, kind="name"),  # sentence 0
             unit(10, 0.5, 0.0), unit(20, 1.0, 0.5, sent=1, kind="number"),
             unit(30, 1.0, 0.0, sent=1, kind="personal", found=False, echo=True)]
    s = _unit_shares(units, text)
    # total weight 4.0; lost = 0.5 + 0.5 + 0.5 + 1.0 = 2.5
    assert s["unsupported_share"] == pytest.approx(2.5 / 4.0)
    assert s["unsupported_weight"] == pytest.approx(math.log1p(2.5))
    # found: units 1 and 4 (credit > 0): 3 of 5 not found
    assert s["content_absent"] == pytest.approx(3 / 5)
    # sentence 0: 1.0 of 2.0 -> 0.5; sentence 1: 0.5 of 2.0 -> 0.25
    assert s["sentence_support_min"] == pytest.approx(0.25)
    assert s["sentences_below_half"] == pytest.approx(1 / 2)
    # runs of zero credit within a sentence: [5, 10] weighs 1.0, [30] weighs 1.0; the first wins
    assert s["largest_span_share"] == pytest.approx(1.0 / 4.0)
    assert s["largest_span_position"] == pytest.approx(5 / 40)
    assert s["names_unsupported"] == 1.0 and s["numbers_unsupported"] == 0.5
    assert s["words_unsupported"] == pytest.approx(0.5 / 1.5)
    assert s["echo_share"] == pytest.approx(1.0 / 4.0)
    assert s["scattered_share"] == pytest.approx(1.0 / 2.0)  # unit 4 of found 1 and 4
    assert s["personal_share"] == pytest.approx(1.0 / 4.0)
    assert s["derived_share"] == 0.0


def test_unit_shares_of_nothing():
    s = _unit_shares([], "")
    assert s["unsupported_share"] == 0.0 and s["sentence_support_min"] == 1.0
    assert s["largest_span_position"] == 0.0


def test_novel_ngrams_by_hand():
    ctx = ["the", "mug", "costs", "5"]
    hashes = {n: frozenset(map(hash, ngrams(ctx, n))) for n in (1, 2, 3)}
    resp = ["the", "mug", "costs", "7"]
    assert _novel(resp, hashes, 1) == 1 / 4      # "7"
    assert _novel(resp, hashes, 2) == 1 / 3      # "costs 7"
    assert _novel(resp, hashes, 3) == 1 / 2      # "mug costs 7"
    assert _novel(["mug"], hashes, 3) == 0.0     # shorter than n: its own length
    assert _novel([], hashes, 2) == 0.0


def test_novel_rare_weighs_absent_words_by_rarity():
    from evaltools.scoring.matcher import rarity

    ctx = ["the", "mug", "costs", "5"]
    hashes = {1: frozenset(map(hash, ngrams(ctx, 1)))}
    assert rarity("7") == 1.0 and 0 < rarity("the") < 0.05 < rarity("mug") < 1
    # "7" (weight 1) absent, "the" and "mug" present: 1 / (w_the + w_mug + 1)
    assert _novel_rare(["the", "mug", "7"], hashes) == 1 / (rarity("the") + rarity("mug") + 1)
    assert _novel_rare(["the", "mug"], hashes) == 0.0
    assert _novel_rare(["xq17", "7"], hashes) == 1.0       # both absent
    assert _novel_rare([], hashes) == 0.0 and _novel_rare(["7"], {}) == 1.0
    # a rare absent word outweighs a common one: "formaldehyde" vs "the"
    assert _novel_rare(["the", "formaldehyde"], {1: frozenset({hash(("the",))})}) > 0.9


@pytest.mark.parametrize("text, declines, hedged", [
    ("The passages do not say when it opened.", 1.0, 0.0),
    ("Unable to answer based on the given text.", 1.0, 0.0),
    ("It opened in 1999 and does not sell tea.", 0.0, 0.0),
    ("It may open in 1999. It sells tea.", 0.0, 0.5),  # one of two sentences hedged
])
def test_abstention_and_hedges_read_through_the_grounding(text, declines, hedged):
    s = evaltools.score("When did it open?", "It opened in 1999 and sells tea.", text).signals
    assert (s["abstains"], s["hedged_sentences"]) == (declines, hedged)


def test_signals_of_a_scored_response():
    r = evaltools.score("Summarize the review.", "The hotel was not clean. Staff were kind.",
                        "The hotel was clean. Staff were kind.")
    s = r.signals
    assert list(s) == list(SIGNALS)
    assert s["query_instruction"] == 1.0 and s["query_question"] == 0.0
    # the first sentence drops the context's "not": one of two sentences differs
    assert s["negation_mismatch"] == pytest.approx(0.5)
    assert s["log_response_words"] == pytest.approx(math.log1p(7))
    assert s["log_context_words"] == pytest.approx(math.log1p(8))
    assert s["length_ratio"] == pytest.approx(math.log(8 / 9))
    q = evaltools.score("How much is it?", "It costs $5.", "It costs $5.").signals
    assert q["query_question"] == 1.0 and q["unsupported_share"] == 0.0


@pytest.mark.parametrize("apostrophe", ["'", "\u2019"])
def test_negation_mismatch_reads_either_apostrophe(apostrophe):
    # the context's "wasn't" (straight or curly) against a response without it: one of the
    # response's two sentences differs in negation
    ctx = f"The hotel wasn{apostrophe}t clean. Staff were kind."
    r = evaltools.score("Summarize the review.", ctx, "The hotel was clean. Staff were kind.")
    assert r.signals["negation_mismatch"] == pytest.approx(0.5)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=60), st.text(max_size=80), st.text(max_size=80))
def test_signals_are_finite_and_shares_in_range(query, context, response):
    s = evaltools.score(query, context, response).signals
    assert set(s) == set(SIGNALS)
    for name, v in s.items():
        assert math.isfinite(v), name
        if name not in LOG_SIGNALS:
            assert 0.0 <= v <= 1.0, name
        elif name != "length_ratio":
            assert v >= 0.0, name


def test_span_probability_max_by_hand():
    from evaltools.scoring.result import UnsupportedSpan
    from evaltools.scoring.signals import _span_probability_max

    spans = [UnsupportedSpan("a", 0, 1, 0.2, probability=0.31),
             UnsupportedSpan("b", 2, 3, 0.5, probability=0.74),
             UnsupportedSpan("c", 4, 5, 0.9)]  # no probability computed: not read
    assert _span_probability_max(spans) == 0.74
    assert _span_probability_max([]) == 0.0
    assert _span_probability_max(spans[2:]) == 0.0


def test_span_probability_max_reads_the_scored_spans():
    r = evaltools.score("How much is the mug?", "The mug costs $5. It is blue.",
                        "The mug costs $7 and is red.")
    probs = [s["probability"] for s in r.to_dict()["unsupported_spans"]]
    assert probs and r.signals["span_probability_max"] == pytest.approx(max(probs), abs=1e-4)
    whole = evaltools.score("How much is the mug?", "The mug costs $5.", "The mug costs $5.")
    assert whole.signals["span_probability_max"] == 0.0


_CAFE = json.dumps({"name": "Luna Cafe", "city": "Tucson", "categories": "Cafes, Coffee",
                    "attributes": {"RestaurantsDelivery": "False", "WiFi": "u'free'"},
                    "review_info": [{"review_stars": 5.0, "review_text": "Great latte and "
                                     "free wifi. The barista Maya was kind."}]})
_OVERVIEW = "Write an objective overview of the following local business."
_CAFE_TURNED = json.dumps({"name": "Luna Cafe", "review_info": [{
    "review_text": "They turned our catering order around in an hour."}]})
_CLAUSE_SIGNALS = ("value_unsupported", "log_absent_names", "log_absent_terms",
                   "record_denied", "amenity_absent", "generalised")


@pytest.mark.parametrize(("query", "context", "response", "expected"), [
    # the record's "RestaurantsDelivery: False" denies "offers delivery"
    (_OVERVIEW, _CAFE, "Luna Cafe in Tucson offers delivery and free WiFi.",
     (0.0, 0.0, 0.0, 1.0, 0.0, 0.0)),
    # a provenance the record never gives
    (_OVERVIEW, _CAFE, "Luna Cafe in Tucson is family-owned and has free WiFi.",
     (0.0, 0.0, 0.0, 0.0, 1.0, 0.0)),
    # an uncommon noun neither the record nor the query uses: one term, log(1 + 1)
    (_OVERVIEW, _CAFE, "Luna Cafe offers sommelier consultations and free WiFi.",
     (0.0, 0.0, math.log(2), 0.0, 0.0, 0.0)),
    # a year the record does not give
    (_OVERVIEW, _CAFE, "Luna Cafe opened in 1998 and has free WiFi.",
     (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
    # three distinct name words no one mentions, in two claims: log(1 + 3)
    ("What did the museum do?", "The museum opened a new wing in May. It holds paintings.",
     "The new wing was funded by Microsoft and opened in May with help from Oprah Winfrey.",
     (0.0, math.log(4), 0.0, 0.0, 0.0, 0.0)),
    # "always busy" where the one review says it was busy once: a generalisation
    (_OVERVIEW, _CAFE, "Luna Cafe in Tucson is always busy and has free WiFi.",
     (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)),
    # all supported: nothing
    (_OVERVIEW, _CAFE, "Luna Cafe in Tucson has free WiFi.", (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
    # a noun written from the phrasal verb the review uses ("turned ... around") is no new
    # term; a noun the review gives no verb for is one: log(1 + 1)
    (_OVERVIEW, _CAFE_TURNED, "Luna Cafe is praised for its quick turnaround on orders.",
     (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
    (_OVERVIEW, _CAFE_TURNED, "Luna Cafe is praised for its quick stopover on orders.",
     (0.0, 0.0, math.log(2), 0.0, 0.0, 0.0)),
])
def test_what_the_verdicts_clauses_read_as_signals(query, context, response, expected):
    r = evaltools.score(query, context, response)
    assert tuple(r.signals[n] for n in _CLAUSE_SIGNALS) == pytest.approx(expected)
    # the verdict's clauses read the same signals: the record's "no" fails it outright
    assert (r.reasons[0] == "a record's own value denies a claim (safety first)") is (
        expected[3] == 1.0)
