"""End-to-end scoring with anchors derived by hand, the data contract, and properties."""

import dataclasses
import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.config import load_config
from evaltools.errors import InputError
from evaltools.scoring.result import OUTPUT_FIELDS

QUERY = "How much does the Yeti Rambler 20 oz cost?"
CONTEXT = "The Yeti Rambler 20 oz tumbler costs $35.00 and ships in 2 days."


def test_wrong_price_fails_with_its_evidence():
    r = evaltools.score(QUERY, CONTEXT, "The Yeti Rambler 20 oz costs $29.99.")
    # anchors: "20 oz" restated from the query (not counted), "$29.99" unsupported
    assert [(a.text, a.supported, a.counted) for a in r.anchors] == [
        ("20 oz", True, False), ("$29.99", False, True)]
    assert (r.anchors_total, r.anchors_unsupported, r.claims_score) == (1, 1, 1.0)
    # response words: the yeti rambler 20 oz costs 29.99 -> 6 bigrams, 4 in the context
    assert r.ngram_overlap == pytest.approx(4 / 6)
    assert r.drift_penalty == 0.0
    assert r.hallucination == 1.0
    # the probability reads the claim model's rating of "$29.99" and passes the calibration's
    # threshold, which the verdict names first; under it, S_hall 1.0 > 0.5 with the wrong
    # price fails it (the value clause)
    p, threshold = r.verdict_inputs.probability
    assert p >= threshold == 0.75 and r.verdict == "FAIL"
    assert r.reasons[0] == f"hallucination probability {p:.2f} >= 0.75 (safety first; calibration)"
    under = _at_probability(r, 0.5)
    assert under.verdict == "FAIL" and under.reasons[0].startswith("hallucination 1.00 > 0.5")


def _at_probability(result, p: float):
    """The verdict ``result`` would get had its probability been ``p`` (nothing rescored)."""
    from evaltools.scoring.verdict import redecide

    inputs = dataclasses.replace(result.verdict_inputs,
                                 probability=(p, result.verdict_inputs.probability[1]))
    return redecide(dataclasses.replace(result, verdict_inputs=inputs))


def test_an_instructions_length_excuses_no_number_of_the_response():
    q = "Write an overview of the record in 100 - 200 words."
    ctx = "The beginner course costs $120. The advanced course costs $200."
    wrong = evaltools.score(q, ctx, "The beginner course costs $100.")
    # "$100" is not "100 - 200 words": counted, and unsupported
    assert [(a.text, a.supported, a.counted) for a in wrong.anchors
            if a.kind == "number"] == [("$100", False, True)]
    assert "restated from the query" not in wrong.anchors[0].note
    # a number the query states as a fact is still restated from it
    said = evaltools.score("The course costs $100. Write an overview of the record.", ctx,
                           "The beginner course costs $100.")
    assert [(a.text, a.counted) for a in said.anchors if a.kind == "number"] == [
        ("$100", False)]


def test_right_price_in_another_format_passes():
    r = evaltools.score(QUERY, CONTEXT, "The Yeti Rambler 20 oz costs 35 USD.")
    price = [a for a in r.anchors if a.counted]
    assert [(a.text, a.supported, a.evidence) for a in price] == [("35 USD", True, "$35.00")]
    assert CONTEXT[price[0].evidence_start:price[0].evidence_end] == "$35.00"
    assert r.hallucination == 0.0 and r.verdict == "PASS"


def test_counting_query_anchors_is_the_spec_letter():
    cfg = load_config().replace(hallucination={"count_query_anchors": True})
    r = evaltools.score(QUERY, CONTEXT, "The Yeti Rambler 20 oz costs $29.99.", config=cfg)
    assert (r.anchors_total, r.anchors_unsupported, r.claims_score) == (2, 1, 0.5)
    spec = cfg.replace(hallucination={"verdict_from": "spec"})
    # the spec's rule passes the wrong price (0.5 is not > 0.5: why the default leaves echoes
    # out); the probability's rule fails it on the unsupported price
    assert evaltools.score(QUERY, CONTEXT, "The Yeti Rambler 20 oz costs $29.99.",
                           config=spec).verdict == "PASS"
    # under the calibration's threshold the value clause fails it from P 0.25
    assert r.verdict == "FAIL"
    under = _at_probability(r, 0.5)
    assert under.verdict == "FAIL" and under.reasons[0] == (
        "hallucination probability 0.50 >= 0.25 with an unsupported number or date "
        "(safety first)")
    assert _at_probability(r, 0.2).verdict != "FAIL"


def test_relevance_and_completeness_by_hand():
    # query content lemmas: much? no (stop word) -> yeti rambler 20 oz cost ; response the same
    r = evaltools.score(QUERY, CONTEXT, "The Yeti Rambler 20 oz costs $35.00.")
    assert r.keywords == ("yeti", "rambler", "20", "oz", "cost")
    assert r.missing_keywords == ()
    assert r.completeness == 1.0
    # response lemmas add "35.00": jaccard 5/6
    assert r.relevance_jaccard == pytest.approx(5 / 6)


def test_off_topic_answer_hits_the_drift_gate_and_relevance():
    r = evaltools.score(QUERY, CONTEXT, "Great question, happy shopping!")
    assert r.anchors_total == 0 and r.claims_score == 0.0
    assert r.ngram_overlap == 0.0 and r.drift_penalty == 0.2
    assert r.hallucination == pytest.approx(0.2)    # max(0.0, 0.2)
    assert r.relevance == 0.0 and r.verdict == "FAIL"
    # nothing in it is in the context: the probability decides first, relevance fails too
    assert r.reasons[0].startswith("hallucination probability")
    assert "relevance 0.00 < 0.1 (irrelevant)" in r.reasons
    spec = evaltools.score(QUERY, CONTEXT, "Great question, happy shopping!",
                           config=load_config().replace(hallucination={"verdict_from": "spec"}))
    assert spec.reasons[0] == "relevance 0.00 < 0.1 (irrelevant)"


def test_off_topic_answer_with_invented_facts():
    r = evaltools.score(QUERY, CONTEXT, "Our store opens at nine and parking is free.")
    assert [(a.kind, a.supported) for a in r.anchors] == [("claim", False), ("number", False)]
    assert r.anchors[1].text == "nine"
    assert r.hallucination == 1.0


def test_empty_context_leaves_every_anchor_unsupported():
    r = evaltools.score(QUERY, "", "It costs $35 and ships in 2 days.")
    assert r.anchors_total >= 2 and r.anchors_unsupported == r.anchors_total
    assert r.hallucination == 1.0


def test_no_anchors_and_no_keywords_are_noted():
    r = evaltools.score("Hi?", "Hello there.", "Hello there.")
    assert r.anchors_total == 0 and r.claims_score == 0.0
    assert r.completeness == 1.0
    assert any("no keywords" in x for x in r.reasons)
    assert any("no anchors" in x for x in r.reasons)


def test_hedged_answer_has_no_claim_anchor():
    r = evaltools.score("Does it have a case?", "The bottle has a lid.",
                        "The bottle may include a carrying case.")
    assert [a for a in r.anchors if a.kind == "claim"] == []


def test_result_is_immutable_and_its_dict_follows_the_contract():
    r = evaltools.score(QUERY, CONTEXT, "It costs $35.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.verdict = "PASS"
    d = r.to_dict()
    assert list(d) == list(OUTPUT_FIELDS)
    assert json.loads(json.dumps(d)) == d
    for a in d["anchors"]:
        assert {"kind", "text", "start", "end", "supported", "evidence"} <= set(a)


def test_score_rejects_non_strings():
    with pytest.raises(TypeError, match="The 'response' parameter of score must be a str"):
        evaltools.score("q", "c", None)


def test_score_records_names_the_bad_record():
    recs = [{"query": "q", "context": "c", "response": "r"}, {"query": "q", "context": "c"}]
    with pytest.raises(InputError, match="record 2: field 'response' is missing"):
        list(evaltools.score_records(recs))
    out = list(evaltools.score_records(recs, skip_invalid=True))
    assert out[0].error is None and out[1].error.startswith("field 'response'")
    assert out[1].relevance is None and out[1].verdict is None


def test_shared_context_is_parsed_once(nlp):
    from evaltools.scoring.scorer import ResponseScorer

    scorer = ResponseScorer(load_config(), nlp)
    recs = [(i, {"query": "price?", "context": CONTEXT, "response": f"It costs ${i}."})
            for i in range(1, 6)]
    out = list(scorer.stream(recs))
    assert len(out) == 5
    assert scorer.cache.parsed == 1 + 1 + 5  # one query, one context, five responses
    list(scorer.stream(recs))  # the cache is the scorer's: nothing is parsed again
    assert scorer.cache.parsed == 7


def test_score_frame_keeps_input_columns_and_index():
    df = pd.DataFrame({"id": ["a", "b"], "query": [QUERY] * 2, "context": [CONTEXT] * 2,
                       "response": ["It costs $35.", "It costs $12."], "label": [0, 1]},
                      index=[10, 11])
    out = evaltools.score_frame(df)
    assert list(out.index) == [10, 11]
    assert {"label", "query", "verdict", "anchors"} <= set(out.columns)
    assert list(out["id"]) == ["a", "b"]
    # "It costs $35." holds 1 of the 5 keywords (cost); the context sentence it restates
    # carries the other 4 (yeti, rambler, 20, oz): 5/5 (relevance.restated_context)
    assert list(out["verdict"]) == ["PASS", "FAIL"]
    assert out["completeness"].tolist()[0] == 1.0


def test_corpus_tfidf_option(nlp):
    from evaltools.scoring.relevance import CorpusTfidf
    from evaltools.text import content_lemmas

    corpus = [content_lemmas(nlp(t)) for t in (QUERY, CONTEXT, "Lids and straws.")]
    model = CorpusTfidf.fit(corpus)
    r = evaltools.score(QUERY, CONTEXT, "It costs $35.", tfidf=model)
    assert 0.0 <= r.relevance_cosine <= 1.0


SCORE_FIELDS = ("relevance", "relevance_cosine", "relevance_jaccard", "completeness",
                "hallucination", "claims_score", "drift_penalty", "ngram_overlap")

texts = st.text(max_size=120) | st.sampled_from(
    ["", " ", "$", "3pm", "12/31/1999", "1,2,3", "twelve million", "It costs $5.", "\x00",
     "No.", "n't", "🙂 costs €5", "2024-02-30", "9:99 a.m."])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(q=texts, c=texts, r=texts)
@example(q="", c="Â\x800", r="0")  # mojibake read as "€0": the evidence quotes it as given
@example(q="", c="caf&eacute; costs 5", r="5")  # an entity read in place, likewise
def test_never_crashes_always_in_range_deterministic(q, c, r):
    a = evaltools.score(q, c, r)
    for f in SCORE_FIELDS:
        assert 0.0 <= getattr(a, f) <= 1.0, f
    assert a.verdict in ("PASS", "WARN", "FAIL")
    assert 0 <= a.anchors_unsupported <= a.anchors_total
    for anchor in a.anchors:
        assert r[anchor.start:anchor.end] == anchor.text
        if anchor.evidence is not None:
            assert c[anchor.evidence_start:anchor.evidence_end] == anchor.evidence
    assert evaltools.score(q, c, r) == a
