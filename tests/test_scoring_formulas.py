"""Hand-computed expectations for every formula of scoring-criteria.md."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.config import load_config
from evaltools.scoring.completeness import completeness_score
from evaltools.scoring.drift import drift_gate, ngram_overlap
from evaltools.scoring.hallucination import claims_score
from evaltools.scoring.relevance import (
    CorpusTfidf,
    jaccard,
    relevance_score,
    tfidf_cosine,
)
from evaltools.scoring.result import Anchor
from evaltools.scoring.verdict import decide

U = math.log(3 / 2) + 1  # sklearn smoothed idf of a term in 1 of 2 documents
S = math.log(3 / 3) + 1  # ... in both documents (= 1)


def test_tfidf_cosine_by_hand():
    # q = {lid: S, price: U}, r = {lid: S, steel: U}; cos = S^2 / (S^2 + U^2)
    assert tfidf_cosine(["lid", "price"], ["lid", "steel"]) == pytest.approx(S**2 / (S**2 + U**2))


def test_tfidf_cosine_counts_term_frequency():
    # q = {lid: 2S, cap: U}, r = {lid: S}; cos = 2S / sqrt(4S^2 + U^2)
    assert tfidf_cosine(["lid", "lid", "cap"], ["lid"]) == pytest.approx(
        2 * S / math.sqrt(4 * S**2 + U**2))


@pytest.mark.parametrize(("q", "r", "expected"), [
    (["lid", "price"], ["lid", "price"], 1.0),
    (["lid"], ["steel"], 0.0),
    ([], ["steel"], 0.0),
    ([], [], 0.0),
])
def test_tfidf_cosine_edges(q, r, expected):
    assert tfidf_cosine(q, r) == pytest.approx(expected)


def test_jaccard_by_hand():
    assert jaccard(["a", "b", "c"], ["b", "c", "d", "e"]) == pytest.approx(2 / 5)
    assert jaccard(["a", "a"], ["a"]) == 1.0
    assert jaccard([], []) == 0.0


def test_relevance_is_the_mean_of_cosine_and_jaccard():
    r = relevance_score(["lid", "price"], ["lid", "steel"])
    cos = S**2 / (S**2 + U**2)
    assert r.cosine == pytest.approx(cos)
    assert r.jaccard == pytest.approx(1 / 3)
    assert r.relevance == pytest.approx((cos + 1 / 3) / 2)


def test_relevance_weights_from_config():
    r = relevance_score(["a", "b"], ["a"], weight_cosine=0.0, weight_jaccard=1.0)
    assert r.relevance == pytest.approx(0.5)


def test_corpus_tfidf_uses_corpus_idf():
    # corpus of 4 docs: lid in 3, steel in 1 -> idf(lid)=ln(5/4)+1, idf(steel)=ln(5/2)+1
    model = CorpusTfidf.fit([["lid"], ["lid"], ["lid", "steel"], ["cap"]])
    il, ist = math.log(5 / 4) + 1, math.log(5 / 2) + 1
    expected = il / math.sqrt(il**2 + ist**2)  # q = {lid}, r = {lid, steel}
    assert model.cosine(["lid"], ["lid", "steel"]) == pytest.approx(expected)


def test_completeness_by_hand():
    c = completeness_score(["price", "lid", "warranty", "color"], ["lid", "price", "steel"])
    assert c.completeness == pytest.approx(2 / 4)
    assert c.missing == ("warranty", "color")
    assert c.keywords == ("price", "lid", "warranty", "color")


def test_default_keywords_are_content_nouns_names_adjectives_and_numbers():
    import evaltools

    # K_Q = {yeti, rambler, 30, oz, tumbler, lid}: "come" (a verb) and stop words are not
    # keywords; the response has rambler, 30, oz, tumbler, lid -> 5/6, "yeti" missing.
    r = evaltools.score("Does the Yeti Rambler 30 oz tumbler come with a lid?", "",
                        "The Rambler 30 oz tumbler includes a lid.")
    assert r.keywords == ("yeti", "rambler", "30", "oz", "tumbler", "lid")
    assert r.missing_keywords == ("yeti",)
    assert r.completeness == pytest.approx(5 / 6)


def test_completeness_without_keywords_is_one_with_a_note():
    c = completeness_score([], ["anything"])
    assert c.completeness == 1.0 and c.note


def test_completeness_counts_a_repeated_keyword_once():
    assert completeness_score(["lid", "lid", "cap"], ["lid"]).completeness == pytest.approx(1 / 2)


def test_ngram_overlap_by_hand():
    # response bigrams: (a b) (b c) (c d); context has (a b), (c d) -> 2/3
    overlap, n = ngram_overlap(["a", "b", "c", "d"], context_words=["a", "b", "x", "c", "d"])
    assert (overlap, n) == (pytest.approx(2 / 3), 2)


def test_ngram_overlap_unigrams_for_one_word_and_zero_for_empty():
    assert ngram_overlap(["fox"], context_words=["fox"]) == (1.0, 1)
    assert ngram_overlap(["cbs"], context_words=["fox"]) == (0.0, 1)
    assert ngram_overlap([], context_words=["fox"]) == (0.0, 2)


@pytest.mark.parametrize(("overlap", "penalty"), [(0.0, 0.2), (0.1999, 0.2), (0.2, 0.0), (1, 0)])
def test_drift_gate(overlap, penalty):
    assert drift_gate(overlap) == penalty


def _anchor(supported):
    return Anchor("number", "1", 0, 1, supported)


def test_claims_score_by_hand():
    assert claims_score([_anchor(False), _anchor(True), _anchor(True), _anchor(False)]) == 0.5
    assert claims_score([]) == 0.0


@pytest.mark.parametrize(("rel", "comp", "hall", "verdict", "first_reason"), [
    (0.9, 1.0, 0.51, "FAIL", "hallucination"),
    (0.9, 1.0, 0.5, "PASS", "hallucination 0.50 <= 0.5"),   # not > 0.5
    (0.09, 1.0, 0.0, "FAIL", "relevance"),
    (0.1, 1.0, 0.0, "PASS", "hallucination"),              # not < 0.1
    (0.9, 0.59, 0.0, "WARN", "completeness"),
    (0.9, 0.6, 0.0, "PASS", "hallucination"),              # not < 0.6
    (0.05, 0.2, 0.9, "FAIL", "hallucination"),             # safety first
    (0.05, 0.2, 0.2, "FAIL", "relevance"),                 # quality before detail
])
def test_verdict_hierarchy(rel, comp, hall, verdict, first_reason):
    v = decide(rel, comp, hall)
    assert v.verdict == verdict
    assert v.reasons[0].startswith(first_reason)


def test_verdict_lists_every_crossed_rule_in_order():
    v = decide(0.05, 0.2, 0.9)
    assert [r.split()[0] for r in v.reasons] == ["hallucination", "relevance", "completeness"]


def test_verdict_thresholds_come_from_config():
    strict = load_config().replace(hallucination={"fail_above": 0.3})
    assert decide(0.9, 1.0, 0.4, config=strict).verdict == "FAIL"
    assert decide(0.9, 1.0, 0.4).verdict == "PASS"


token_lists = st.lists(st.sampled_from(["lid", "cap", "steel", "price", "mug", "oz", "12"]),
                       max_size=8)


@settings(max_examples=300, deadline=None)
@given(token_lists, token_lists)
def test_pair_cosine_equals_sklearns_tfidf_fitted_on_the_pair(q, r):
    # relevance computes the pair's TF-IDF itself (no scikit-learn import at scoring time);
    # it must be the number scikit-learn's TfidfVectorizer gives, fitted on the two texts
    from sklearn.feature_extraction.text import TfidfVectorizer

    expected = 0.0
    if q and r:
        m = TfidfVectorizer(analyzer=lambda t: t, lowercase=False).fit_transform([q, r])
        expected = float(m[0].multiply(m[1]).sum())
    assert tfidf_cosine(q, r) == pytest.approx(expected, abs=1e-12)


def test_pair_cosine_by_hand_with_repeats_on_both_sides():
    # q = {lid: 2*S, cap: U}, r = {lid: S, mug: 3U}: cos = 2 / (sqrt(4 + U^2) * sqrt(1 + 9U^2))
    expected = 2 / (math.sqrt(4 + U**2) * math.sqrt(1 + 9 * U**2))
    assert tfidf_cosine(["lid", "cap", "lid"], ["mug", "lid", "mug", "mug"]) == pytest.approx(
        expected, rel=1e-12)
