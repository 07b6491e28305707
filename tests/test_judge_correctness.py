"""Section 1: correctness by module type, hand-computed."""

import pytest

from evaltools.judging.correctness import (
    boolean_correctness,
    classification_correctness,
    credit_band,
    extraction_correctness,
    parse_boolean,
    value_problem,
)
from evaltools.judging.registry import default_registry_text, load_registry, parse_registry

REG = load_registry()
M = REG.module


@pytest.mark.parametrize("value,expected", [
    (True, True), (False, False), (1, True), (0, False),
    ("true", True), ("TRUE", True), ("False", False), ("yes", True), ("YES", True),
    ("No", False), ("1", True), ("0", False), ("Yes.", True), ("no!", False),
    ("  true?  ", True), ("False;", False), ("yes...", True), ("NO,", False), ("1.", True),
    (1.0, True), (0.0, False),  # JSON numbers: 1.0 is 1 (pandas writes ints with gaps so)
])
def test_boolean_spellings_accepted(value, expected):
    assert parse_boolean(value) is expected


@pytest.mark.parametrize("value", ["maybe", "y", "n", "ok", "", "yes no", "2", 2, -1, 0.5,
                                   2.0, float("nan"), None, "true false", "t", "oui", ".yes"])
def test_anything_else_is_not_a_boolean(value):
    assert parse_boolean(value) is None


def test_boolean_match_and_no_match():
    assert boolean_correctness("Yes.", True, M("M15")).score == 40
    c = boolean_correctness(False, "true", M("M15"))
    assert (c.score, c.match, c.match_level) == (0, False, "NO")
    assert c.details == "Output false differs from expected true"


def test_an_unreadable_boolean_is_reported_and_scores_no_match():
    c = boolean_correctness("probably", True, M("M04"))
    assert (c.score, c.match) == (0, False)
    assert c.output_value == "probably"
    assert c.issues == ("output 'probably' is not a boolean (accepted: true/false, yes/no, "
                        "1/0); scored as no match",)
    c = boolean_correctness(True, "unsure", M("M04"))
    assert c.score == 0 and "expected 'unsure'" in c.issues[0]
    # two unreadable values never "match" each other
    assert boolean_correctness("maybe", "maybe", M("M04")).score == 0


@pytest.mark.parametrize("out,exp,level,score", [
    ("OWN", "OWN", "EXACT", 40),
    ("own", "OWN", "EXACT", 40),          # case-insensitive
    ("  Own ", "OWN", "EXACT", 40),       # whitespace
    ("COMPETITOR", "OWN", "PARTIAL", 20),  # both branded
    ("OWN", "COMPETITOR", "PARTIAL", 20),
    ("NONE", "OWN", "NONE", 0),
    ("OWN", "NONE", "NONE", 0),
    ("BRAND", "OWN", "NONE", 0),          # not in the label set
])
def test_classification_m02(out, exp, level, score):
    c = classification_correctness(out, exp, M("M02"))
    assert (c.match_level, c.score, c.match) == (level, score, level == "EXACT")


def test_classification_without_groups_is_exact_or_none():
    labels = M("M12b").labels
    for o in labels:
        for e in labels:
            c = classification_correctness(o, e, M("M12b"))
            assert c.score == (40 if o == e else 0)


def test_partial_with_groups_from_the_registry():
    text = default_registry_text().replace("groups = {}", 'groups = { related = ["S", "C"] }')
    reg = parse_registry(text)
    c = classification_correctness("S", "C", reg.module("M12b"), registry=reg)
    assert (c.match_level, c.score) == ("PARTIAL", 20)
    assert classification_correctness("R", "C", reg.module("M12b"), registry=reg).score == 0


def test_label_outside_the_set_is_an_issue():
    c = classification_correctness("Competitor brand", "COMPETITOR", M("M02"))
    assert c.score == 0
    assert c.issues == ("output label 'Competitor brand' is not in the label set "
                        "OWN/COMPETITOR/NONE; scored as no match",)


def test_extraction_hand_computed():
    # output {a, b, c}, expected {a, b, d, e}: tp 2, P 2/3, R 2/4, F1 = 4/7
    c = extraction_correctness(["a", "b", "c"], ["a", "b", "d", "e"], M("M07"))
    assert c.precision == pytest.approx(0.6667, abs=1e-4)
    assert c.recall == 0.5
    assert c.f1 == pytest.approx(4 / 7, abs=1e-4)
    assert c.score == 22.86  # 40 * 4/7 = 22.857...
    assert c.credit_band == "partial"
    assert c.missing == ("d", "e") and c.extra == ("c",)
    assert c.match_level == "PARTIAL" and not c.match


@pytest.mark.parametrize("out,exp,f1,score,band", [
    (["a", "b", "c", "d"], ["a", "b", "c", "d"], 1.0, 40, "full"),
    (["a", "b", "c", "d"], ["a", "b", "c", "d", "e"], 8 / 9, 35.56, "full"),
    (["a", "b", "c", "d", "x"], ["a", "b", "c", "d", "y"], 0.8, 32, "full"),
    (["a", "b", "c", "x"], ["a", "b", "c", "y"], 0.75, 30, "partial"),
    (["a", "x"], ["a", "y"], 0.5, 20, "partial"),
    (["a", "x", "z"], ["a", "y"], 0.4, 16, "low"),
    (["x"], ["y"], 0.0, 0, "low"),
])
def test_extraction_credit_bands(out, exp, f1, score, band):
    c = extraction_correctness(out, exp, M("M11"))
    assert c.f1 == pytest.approx(f1, abs=1e-4)
    assert (c.score, c.credit_band) == (score, band)


def test_credit_band_edges_are_exact():
    assert credit_band(0.8) == "full" and credit_band(0.7999) == "partial"
    assert credit_band(0.5) == "partial" and credit_band(0.4999) == "low"


def test_extraction_empty_sets():
    both = extraction_correctness([], [], M("M11"))
    assert (both.precision, both.recall, both.f1, both.score, both.match) == (1.0, 1.0, 1.0,
                                                                              40, True)
    no_out = extraction_correctness([], ["a"], M("M11"))
    assert (no_out.precision, no_out.recall, no_out.f1, no_out.score) == (0.0, 0.0, 0.0, 0)
    no_exp = extraction_correctness(["a"], [], M("M11"))
    assert (no_exp.precision, no_exp.recall, no_exp.f1, no_exp.score) == (0.0, 0.0, 0.0, 0)


def test_extraction_normalises_case_and_whitespace_and_counts_repeats_once():
    c = extraction_correctness(["Wide  Mouth", "wide mouth", " BLACK "], ["wide mouth", "black"],
                               M("M07"))
    assert (c.precision, c.recall, c.score) == (1.0, 1.0, 40)


def test_m01a_is_case_sensitive():
    c = extraction_correctness(["YETI", "yeti"], ["YETI", "Yeti"], M("M01a"))
    assert (c.precision, c.recall, c.score) == (0.5, 0.5, 20)
    # the same lists under M01 (case-insensitive) are one item each
    assert extraction_correctness(["YETI", "yeti"], ["YETI", "Yeti"], M("M01")).score == 40


def test_empty_items_are_dropped_with_an_issue():
    c = extraction_correctness(["a", "  "], ["a"], M("M07"))
    assert c.score == 40 and c.issues == ("output item 2 is empty; ignored",)


def test_m08_compares_attribute_and_rank():
    m = M("M08")
    out = [{"attribute": "handle", "rank": 1}, {"attribute": "capacity", "rank": 2}]
    exp = [{"attribute": "capacity", "rank": 1}, {"attribute": "handle", "rank": 2}]
    assert extraction_correctness(out, exp, m).score == 0
    # strings are ranked by position
    assert extraction_correctness(["Handle", "capacity"], out, m).score == 40
    c = extraction_correctness(out[:1], exp[:1] + out[:1], m)
    assert c.missing == ("capacity (rank 1)",)


@pytest.mark.parametrize("mid,value,problem", [
    ("M04", ["yes"], "must be a boolean"),
    ("M04", {"v": 1}, "must be a boolean"),
    ("M02", True, "must be a label (OWN/COMPETITOR/NONE) as a string, got bool"),
    ("M02", ["OWN"], "must be a label"),
    ("M05", "insulated bottle", "must be a list of strings, got str"),
    ("M05", ["a", 3], "item 2 is int"),
    ("M08", [{"attribute": "x"}], "item 1 is dict"),
    ("M08", [{"attribute": "x", "rank": True}], "item 1 is dict"),
])
def test_value_shapes(mid, value, problem):
    assert problem in value_problem(value, M(mid))


@pytest.mark.parametrize("mid,value", [("M04", "maybe"), ("M04", 0), ("M04", 1.5),
                                       ("M02", "BRAND"),
                                       ("M05", []), ("M08", ["a", {"attribute": "b",
                                                                   "rank": 2}])])
def test_value_shapes_accepted(mid, value):
    assert value_problem(value, M(mid)) is None
