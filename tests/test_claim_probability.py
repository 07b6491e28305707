"""The claim model: anchor features by hand, the trees' arithmetic, the file, the signal."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wordfreq import zipf_frequency

import evaltools
from evaltools.calibration.claim_fit import claim_classifier, fit_claim_model, from_classifier
from evaltools.errors import InputError
from evaltools.scoring.claim_probability import (
    CLAIM_FEATURES,
    ClaimModel,
    claim_features,
    load_claim_model,
    rated,
    rated_features,
    word_set,
)
from evaltools.scoring.context import parsed_text
from evaltools.scoring.result import Anchor, UnsupportedSpan

ZERO = dict.fromkeys(CLAIM_FEATURES, 0.0)


def test_claim_features_by_hand():
    response = "The shop opened in 2019 and Dana Reyes bakes rye."
    anchor = Anchor("claim", "Dana Reyes bakes rye", 28, 48, False, evidence="x",
                    contradiction="record_absent", absent=("Dana Reyes",), terms=("rye",))
    spans = [UnsupportedSpan("Dana Reyes", 28, 38, 1.0, probability=0.4),
             UnsupportedSpan("rye", 45, 48, 0.5, probability=0.7),
             UnsupportedSpan("2019", 19, 23, 0.5, probability=0.9)]  # outside the anchor
    words = word_set("The shop bakes bread. It opened in 2019.", "Tell me about the shop")
    f = claim_features(anchor, response, context_words=words, spans=spans,
                       structured=True, instruction=True)
    # words: Dana, Reyes, bakes, rye; novel: Dana, Reyes, rye (bakes is in the context)
    assert f == pytest.approx({
        **ZERO, "kind_claim": 1.0, "record": 1.0, "log_novel": math.log1p(3),
        "novel_share": 3 / 4,
        "novel_zipf_min": min(zipf_frequency(w, "en") for w in ("dana", "reyes", "rye")) / 8,
        "novel_capital": 1.0, "log_absent": math.log1p(1), "log_terms": math.log1p(1),
        "log_words": math.log1p(4), "span_probability": 0.7, "in_span": 1.0,
        "position": 28 / len(response), "structured": 1.0, "instruction": 1.0})


def test_claim_features_of_a_number_without_evidence():
    a = Anchor("number", "$7", 14, 16, False, note="no matching number in the context")
    f = claim_features(a, "The mug costs $7.", context_words=word_set("The mug costs $5."))
    # "7" is the one word and it is novel; no evidence; nothing overlaps
    assert f == pytest.approx({**ZERO, "kind_number": 1.0, "no_evidence": 1.0,
                               "log_novel": math.log1p(1), "novel_share": 1.0,
                               "novel_zipf_min": zipf_frequency("7", "en") / 8,
                               "novel_digit": 1.0, "log_words": math.log1p(1),
                               "position": 14 / 17})
    # no novel word: the lowest Zipf frequency reads 8 / 8
    g = claim_features(Anchor("claim", "costs $5", 8, 16, False, evidence="e",
                              contradiction="negation"), "The mug costs $5.",
                       context_words=word_set("The mug costs $5."))
    assert g["novel_zipf_min"] == 1.0 and g["log_novel"] == 0.0 and g["negation"] == 1.0


@pytest.mark.parametrize("contradiction, feature", [
    ("negation", "negation"), ("opposite", "opposite"), ("roles", "roles"),
    ("generalised", "generalised"), ("record_no", "record"), ("record_yes", "record"),
    ("record_hours", "record"), ("record_absent", "record")])
def test_each_contradiction_sets_its_feature(contradiction, feature):
    a = Anchor("claim", "is open", 0, 7, False, evidence="e", contradiction=contradiction)
    f = claim_features(a, "is open", context_words=frozenset({"is", "open"}))
    flags = ("negation", "opposite", "record", "roles", "generalised")
    assert {k: f[k] for k in flags} == {k: float(k == feature) for k in flags}


def test_every_contradiction_kind_has_a_feature():
    from evaltools.scoring.anchors.context_index import CONTRADICTIONS
    from evaltools.scoring.claim_probability import _CONTRADICTION_FEATURE

    assert set(_CONTRADICTION_FEATURE) == set(CONTRADICTIONS)
    assert set(_CONTRADICTION_FEATURE.values()) <= set(CLAIM_FEATURES)


def test_rated_keeps_counted_unsupported_anchors():
    a = Anchor("number", "5", 0, 1, False)
    b = Anchor("number", "6", 2, 3, True)
    c = Anchor("number", "7", 4, 5, False, counted=False)
    assert rated([a, b, c]) == [a]


def _tiny() -> dict:
    # tree 1: kind_number <= 0.5 -> leaf -1.0, else leaf 2.0; tree 2: one leaf 0.5
    k = list(CLAIM_FEATURES).index("kind_number")
    return {"format": "evaltools-claim-model", "version": 1, "features": list(CLAIM_FEATURES),
            "baseline": 0.1, "trees": [
                {"feature": [k, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 0, 0],
                 "right": [2, 0, 0], "value": [0, -1.0, 2.0], "leaf": [0, 1, 1]},
                {"feature": [0], "threshold": [0], "left": [0], "right": [0],
                 "value": [0.5], "leaf": [1]}]}


def test_tree_arithmetic_by_hand():
    m = ClaimModel.from_dict(_tiny())
    # a number: 0.1 + 2.0 + 0.5 = 2.6; a claim: 0.1 - 1.0 + 0.5 = -0.4
    p = m.probabilities([{**ZERO, "kind_number": 1.0}, {**ZERO, "kind_claim": 1.0}])
    assert p == pytest.approx([1 / (1 + math.exp(-2.6)), 1 / (1 + math.exp(0.4))])
    assert m.probabilities([]) == []
    # the threshold is inclusive: exactly 0.5 goes left
    assert m.probabilities([{**ZERO, "kind_number": 0.5}]) == pytest.approx(
        [1 / (1 + math.exp(0.4))])
    assert ClaimModel.from_dict(json.loads(m.to_json())) == m
    with pytest.raises(ValueError, match="finite"):
        m.probabilities([{**ZERO, "kind_number": float("nan")}])


def _set(tree: int, key: str, value):
    data = _tiny()
    data["trees"][tree][key] = value
    return data


@pytest.mark.parametrize("data, field", [
    ({**_tiny(), "format": "x"}, "format"),
    ({**_tiny(), "features": ["nope"]}, "features"),
    ({**_tiny(), "features": ["kind_claim", "kind_claim"]}, "features"),
    ({**_tiny(), "baseline": float("inf")}, "baseline"),
    ({**_tiny(), "trees": []}, "trees"),
    ({**_tiny(), "trees": [{"leaf": [1]}]}, "trees[0]"),
    (_set(0, "left", [0, 0, 0]), "trees[0]"),  # a child before its parent: a loop
    (_set(0, "right", [3, 0, 0]), "trees[0]"),  # past the tree's end
    (_set(0, "feature", [99, 0, 0]), "trees[0]"),
    (_set(0, "value", [0, float("nan"), 2.0]), "trees[0]"),
    (_set(0, "leaf", [0, 1]), "trees[0]"),  # lists of two lengths
    (_set(1, "leaf", [2]), "trees[1]"),
])
def test_bad_claim_model_names_the_field(data, field):
    with pytest.raises(InputError) as exc:
        ClaimModel.from_dict(data, source="m.json")
    assert exc.value.field == field and "m.json" in str(exc.value)


def test_json_trees_give_scikit_learns_probabilities():
    rng = np.random.default_rng(0)
    X = rng.random((400, len(CLAIM_FEATURES)))
    y = (X[:, 9] + 0.3 * X[:, 17] + 0.2 * rng.random(400) > 0.75).astype(int)
    clf = claim_classifier(max_iter=30).fit(X, y)
    model = from_classifier(clf, metadata={"note": "test"})
    rows = [dict(zip(CLAIM_FEATURES, r, strict=True)) for r in X]
    assert np.allclose(model.probabilities(rows), clf.predict_proba(X)[:, 1], atol=1e-12)
    assert model.metadata == {"note": "test"} and len(model.roots) == 30
    fitted = fit_claim_model(rows, y.tolist())
    assert len(fitted.roots) == 200


def test_shipped_model_is_the_json_it_writes():
    from importlib import resources

    text = resources.files("evaltools.scoring").joinpath("claim_model.json").read_text("utf-8")
    model = load_claim_model()
    assert model.to_json() == text
    assert model.feature_names == tuple(CLAIM_FEATURES)
    assert model.metadata["fitted_on"]["file"] == "probe_1_136.jsonl"
    assert "benchmarks/claim_model.py" in model.metadata["fitting"]["command"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=len(CLAIM_FEATURES),
                max_size=len(CLAIM_FEATURES)))
def test_any_finite_row_gets_a_probability(values):
    (p,) = load_claim_model().probabilities([dict(zip(CLAIM_FEATURES, values, strict=True))])
    assert 0.0 <= p <= 1.0


def test_signal_is_the_highest_rating_of_the_scored_anchors():
    query = "What does the bakery sell?"
    context = "Marlow Bakery sells rye bread and scones. It opened in 2015."
    faithful = evaltools.score(query, context, "It sells rye bread and scones.")
    response = "It sells rye bread and scones, and opened in 2011."
    edited = evaltools.score(query, context, response)
    assert faithful.signals["claim_probability_max"] == 0.0  # nothing unsupported
    assert edited.signals["claim_probability_max"] > 0.5
    # the anchor the model rates carries its probability; the signal is the highest
    (one,) = [a for a in edited.anchors if a.probability is not None]
    assert one.text == "2011" and not one.supported
    assert edited.signals["claim_probability_max"] == one.probability
    assert one.hallucinated is (one.probability >= 0.15)  # hallucination.claim_threshold
    assert all(a.hallucinated is None for a in edited.anchors if a is not one)
    assert edited.to_dict()["anchors"][edited.anchors.index(one)]["probability"] == round(
        one.probability, 4)
    # the training path (benchmarks/claim_model.py) computes the same number from the output
    out = edited.to_dict()
    anchors = [Anchor(**{**a, "absent": tuple(a["absent"]), "terms": tuple(a["terms"])})
               for a in out["anchors"]]
    spans = [UnsupportedSpan(**s) for s in out["unsupported_spans"]]
    _, rows = rated_features(anchors, response, context=parsed_text(context, "context"),
                             query=parsed_text(query, "query"), spans=spans)
    assert max(load_claim_model().probabilities(rows)) == pytest.approx(
        edited.signals["claim_probability_max"], abs=1e-4)


def test_the_claim_threshold_decides_which_anchors_are_reported():
    from evaltools.config import load_config

    query, context = "How much is the mug?", "The mug costs $5. It is blue."
    response = "The mug costs $7 and is red."
    rated_ = [a for a in evaltools.score(query, context, response).anchors
              if a.probability is not None]
    assert len(rated_) == 2
    for t in (0.0, 0.5, 1.0):
        cfg = load_config().replace(hallucination={"claim_threshold": t})
        got = [a for a in evaltools.score(query, context, response, config=cfg).anchors
               if a.probability is not None]
        assert [a.hallucinated for a in got] == [a.probability >= t for a in rated_]
        assert [a.probability for a in got] == [a.probability for a in rated_]
