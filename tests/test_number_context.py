"""The optional check that a number or date stands near what it is said of.

Config ``hallucination.number_context`` (off by default: the spec matches the
value anywhere in the context).
"""

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.config import load_config
from evaltools.errors import ConfigError

ON = load_config().replace(hallucination={"number_context": True})
TUNDRA_Q = "In what year did Yeti introduce the Tundra cooler?"
TUNDRA_C = ("YETI introduced the Tundra cooler in 2008, two years after founders Roy and "
            "Ryan Seiders started the company in Austin, Texas in 2006.")


def _numbers(result):
    return [(a.text, a.supported, a.evidence) for a in result.anchors if a.kind != "claim"]


def test_a_year_of_another_fact_is_not_support():
    response = "Yeti introduced the Tundra in 2006."
    # Off (the spec): 2006 is in the context, so it counts as supported.
    assert _numbers(evaltools.score(TUNDRA_Q, TUNDRA_C, response)) == [("2006", True, "2006")]
    # On: around "2006" the response has yeti, introduce, tundra (all in the context);
    # the context's 2006 has seiders, start, company, austin, texas within 6 words: no overlap.
    r = evaltools.score(TUNDRA_Q, TUNDRA_C, response, config=ON)
    year = next(a for a in r.anchors if a.text == "2006")
    assert (year.supported, year.evidence) == (False, None)
    assert year.note == "'2006' is in the context, but not near 'introduce', 'tundra', 'yeti'"
    # anchors: the claim "Yeti introduced the Tundra" (supported) and 2006 -> 1/2
    assert (r.anchors_total, r.anchors_unsupported, r.claims_score) == (2, 1, 0.5)


def test_the_right_year_is_supported_near_its_words():
    r = evaltools.score(TUNDRA_Q, TUNDRA_C, "Yeti introduced the Tundra in 2008.", config=ON)
    year = next(a for a in r.anchors if a.text == "2008")
    assert year.supported and year.evidence == "2008"
    assert year.note == "matches '2008' in the context, near 'introduce', 'tundra', 'yeti'"


def test_the_second_of_two_equal_values_can_be_the_support():
    context = "Orders over $35 ship free. A flat $5.99 fee applies below $35."
    r = evaltools.score("What does shipping cost?", context,
                        "Orders under $35 pay a flat fee of $5.99.", config=ON)
    # "under $35" is supported by "below $35" (the same qualifier), not by "over $35"
    got = {a.text: (a.supported, a.evidence_start) for a in r.anchors if a.kind != "claim"}
    assert got == {"$35": (True, context.rindex("$35")),
                   "$5.99": (True, context.index("$5.99"))}


def test_without_checkable_words_the_value_alone_decides():
    # "$37.99" alone has no words near it; "price" is not in the context either
    r = evaltools.score("What is the price?", "It costs $37.99.", "The price: $37.99", config=ON)
    assert _numbers(r) == [("$37.99", True, "$37.99")]
    assert r.anchors[0].note == "matches '$37.99' in the context"


def test_a_value_missing_from_the_context_is_unsupported_either_way():
    for cfg in (None, ON):
        r = evaltools.score(TUNDRA_Q, TUNDRA_C, "Yeti introduced the Tundra in 2011.",
                            config=cfg)
        assert ("2011", False, None) in _numbers(r)


def test_batch_and_single_scoring_agree_with_the_check_on():
    rows = [(TUNDRA_Q, TUNDRA_C, "Yeti introduced the Tundra in 2006."),
            (TUNDRA_Q, TUNDRA_C, "Yeti introduced the Tundra in 2008."),
            ("Price?", "It costs $37.99 today.", "It costs $37.99.")]
    df = pd.DataFrame(rows, columns=["query", "context", "response"])
    out = evaltools.score_frame(df, config=ON)
    for (q, c, r), (_, row) in zip(rows, out.iterrows(), strict=True):
        one = evaltools.score(q, c, r, config=ON)
        assert row["claims_score"] == pytest.approx(one.claims_score)
        assert row["anchors"] == [a.to_dict() for a in one.anchors]


def test_config_values_are_checked():
    with pytest.raises(ConfigError, match="number_context must be true or false"):
        load_config().replace(hallucination={"number_context": "yes"})
    with pytest.raises(ConfigError,
                       match=r"number_context_window must be a whole number in \[1, 200\]"):
        load_config().replace(hallucination={"number_context_window": 0})


texts = st.text(max_size=80) | st.sampled_from(
    ["", "$", "3pm", "in 2006 and 2008", "It costs $5 and $5.", "\x00", "twelve million"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(q=texts, c=texts, r=texts)
def test_never_crashes_always_in_range_with_the_check_on(q, c, r):
    a = evaltools.score(q, c, r, config=ON)
    assert 0.0 <= a.claims_score <= 1.0 and 0.0 <= a.hallucination <= 1.0
    for anchor in a.anchors:
        assert r[anchor.start:anchor.end] == anchor.text
        if anchor.evidence is not None:
            assert c[anchor.evidence_start:anchor.evidence_end] == anchor.evidence
    off = evaltools.score(q, c, r)
    # the check only ever takes support away
    assert a.anchors_unsupported >= off.anchors_unsupported
