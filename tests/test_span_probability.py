"""Unsupported spans with a probability: features by hand, the model's arithmetic and file."""

from __future__ import annotations

import math

import pytest

import evaltools
from evaltools.calibration.span_fit import fit_span_model
from evaltools.config import DEFAULT_CONFIG
from evaltools.errors import InputError
from evaltools.scoring.probability import load_calibration
from evaltools.scoring.span_probability import (
    SPAN_FEATURES,
    SpanModel,
    load_span_model,
    span_features,
)


def test_span_features_by_hand():
    text = "Rome is big. It has Kyiv Trams since 1990."
    # span "Kyiv Trams since 1990" at 20..41 in sentence 2 (13..42)
    f = span_features(text, 20, 41, 2.5, total_weight=5.0, sentence=(13, 42),
                      sentence_support=0.2, support=0.5, closest=False)
    assert f == pytest.approx({
        "log_weight": math.log1p(2.5), "log_chars": math.log1p(21), "weight_share": 0.5,
        "sentence_support": 0.2, "record_unsupported": 0.5, "has_number": 1.0,
        "has_name": 1.0, "position": 20 / 42, "no_closest": 1.0, "sentence_share": 21 / 29})
    # a capital that starts the response is no name
    g = span_features("Paris is big.", 0, 5, 1.0, total_weight=2.0, sentence=(0, 13),
                      sentence_support=0.5, support=0.5, closest=True)
    assert g["has_name"] == 0.0 and g["no_closest"] == 0.0 and g["has_number"] == 0.0


def test_model_arithmetic_by_hand():
    m = SpanModel(("log_weight", "has_number"), (1.0, 0.0), (2.0, 1.0), (2.0, -1.0), 0.5, {})
    # z = 0.5 + 2 * (3 - 1) / 2 - 1 * (1 - 0) / 1 = 1.5
    p = m.probability({"log_weight": 3.0, "has_number": 1.0})
    assert p == pytest.approx(1 / (1 + math.exp(-1.5)))
    assert SpanModel.from_dict(m.to_dict()) == m


@pytest.mark.parametrize("change, field", [
    ({"format": "x"}, "format"),
    ({"features": []}, "features"),
    ({"features": [{"name": "nope", "center": 0, "scale": 1, "coefficient": 1}]},
     "features[0].name"),
    ({"features": [{"name": "log_weight", "center": 0, "scale": 0, "coefficient": 1}]},
     "features[0]"),
    ({"intercept": float("nan")}, "intercept"),
])
def test_bad_span_model_names_the_field(change, field):
    good = SpanModel(("log_weight",), (0.0,), (1.0,), (1.0,), 0.0, {}).to_dict()
    with pytest.raises(InputError) as exc:
        SpanModel.from_dict({**good, **change}, source="m.json")
    assert exc.value.field == field


def test_fit_learns_the_direction():
    rows = [{n: 0.0 for n in SPAN_FEATURES} | {"has_number": float(i % 2)} for i in range(40)]
    model = fit_span_model(rows, [i % 2 for i in range(40)], names=("has_number",))
    assert model.probability({"has_number": 1.0}) > 0.5 > model.probability({"has_number": 0.0})


def test_shipped_model_loads_and_spans_carry_probability_and_threshold():
    assert set(load_span_model().feature_names) <= set(SPAN_FEATURES)
    q, c, r = "How much is the mug?", "The mug costs $5. It is blue.", "The mug costs $7."
    spans = evaltools.score(q, c, r).unsupported_spans
    assert [s.text for s in spans] == ["$7"] and 0.0 < spans[0].probability < 1.0
    threshold = DEFAULT_CONFIG.grounding.span_threshold
    gate = DEFAULT_CONFIG.grounding.span_record_gate
    p_record = load_calibration().probability(evaltools.score(q, c, r))
    assert spans[0].hallucinated == (spans[0].probability >= threshold and p_record >= gate)
    for threshold, flagged in ((0.0, True), (1.0, False)):
        cfg = DEFAULT_CONFIG.replace(grounding={"span_threshold": threshold,
                                                "span_record_gate": 0.0})
        (s,) = evaltools.score(q, c, r, config=cfg).unsupported_spans
        assert s.hallucinated is flagged


def test_a_response_read_as_faithful_reports_no_hallucinated_span():
    """``grounding.span_record_gate``: spans count as hallucinated only in a response whose
    hallucination probability reaches it; the span's own probability is unchanged."""
    q, c = "What colour is the mug?", "The mug is blue. It holds 300 ml."
    r = "The mug is blue and holds 300 ml, and it is dishwasher safe."
    p_record = load_calibration().probability(evaltools.score(q, c, r))
    for gate in (0.0, p_record, min(1.0, p_record + 1e-6), 1.0):
        cfg = DEFAULT_CONFIG.replace(grounding={"span_threshold": 0.0, "span_record_gate": gate})
        spans = evaltools.score(q, c, r, config=cfg).unsupported_spans
        assert spans and all(s.hallucinated is (p_record >= gate) for s in spans)
    off = DEFAULT_CONFIG.replace(grounding={"span_record_gate": 1.0})
    assert [s.probability for s in evaltools.score(q, c, r, config=off).unsupported_spans] == [
        s.probability for s in evaltools.score(q, c, r).unsupported_spans]
    d = spans[0].to_dict()
    assert d["probability"] == round(spans[0].probability, 4) and "hallucinated" in d


def test_a_lone_everyday_word_is_not_reported_as_hallucinated():
    """``grounding.span_lone_word_zipf``: a span of one unsupported everyday word keeps its
    probability but is not reported; a rare word, a name or a number alone still is, and
    so is an everyday word beside another unsupported word."""
    from wordfreq import zipf_frequency

    c = "The cafe opened in 2019 on Main Street. It sells coffee and cakes."
    # "overall" Zipf 4.6 and "considered" 4.6: everyday; "mezzanine" 2.6: rare
    assert zipf_frequency("overall", "en") >= 4.0 > zipf_frequency("mezzanine", "en")
    always = DEFAULT_CONFIG.replace(grounding={"span_threshold": 0.0, "span_record_gate": 0.0})
    off = always.replace(grounding={"span_lone_word_zipf": 0.0})
    cases = {
        "The cafe opened in 2019 on Main Street and sells coffee overall.": ("overall", False),
        "The cafe opened in 2019 on Main Street and sells coffee in a mezzanine.":
            ("mezzanine", True),
        "The cafe opened in 2019 on Main Street and sells coffee from Oslo.": ("Oslo", True),
        "The cafe opened in 2021 on Main Street and sells coffee.": ("2021", True),
        "The cafe opened in 2019 on Main Street and is considered overpriced.":
            ("considered overpriced", True),
    }
    for r, (text, reported) in cases.items():
        (span,) = evaltools.score("", c, r, config=always).unsupported_spans
        (plain,) = evaltools.score("", c, r, config=off).unsupported_spans
        assert (span.text, span.hallucinated) == (text, reported), r
        assert plain.hallucinated is True and plain.probability == span.probability
