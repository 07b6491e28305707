"""Section 2: rule compliance and the automatic checks."""

import pytest

from evaltools.judging.checks import CHECKS, run_check
from evaltools.judging.registry import load_registry
from evaltools.judging.rules import assess_rules

REG = load_registry()
M = REG.module


def chk(mid, rule_no, output, expected=(), inp=None):
    return run_check(M(mid), rule_no - 1, output, list(expected), inp)


def test_m01_includes_the_original_brand():
    inp = {"brand": "Hydro Flask"}
    assert chk("M01", 1, ["hydroflask", "Hydro  Flask"], inp=inp).compliant is True
    c = chk("M01", 1, ["hydroflask", "Hydro-Flask"], inp=inp)
    assert c.compliant is False and "not among the 2 items" in c.evidence
    # "the exact brand": another case is a variation, not the brand itself
    c = chk("M01", 1, ["hydro flask", "HYDRO FLASK"], inp=inp)
    assert c.compliant is False and c.evidence.endswith("(only as 'hydro flask', 'HYDRO FLASK')")
    assert chk("M01", 1, ["x"], inp={}).compliant is None


def test_m01_variations_and_count():
    inp = {"brand": "Yeti"}
    assert chk("M01", 2, ["Yeti", "YETI"], inp=inp).compliant is True
    assert chk("M01", 2, ["Yeti", " Yeti "], inp=inp).compliant is False
    assert chk("M01", 4, ["Yeti", "yeti", "YETI"], inp=inp).compliant is True  # case counts
    assert chk("M01", 4, ["Yeti", "yeti"], inp=inp).compliant is False
    ten = [f"yeti {i}" for i in range(10)]
    assert chk("M01", 4, ten, inp=inp).compliant is True
    c = chk("M01", 4, [*ten, "yeti x"], inp=inp)
    assert c.compliant is False and c.evidence == "11 distinct item(s); required 3-10"


def test_m01_competitor_check_decides_violations_only():
    inp = {"brand": "Yeti", "competitors": ["Stanley", "Hydro Flask"]}
    c = chk("M01", 3, ["Yeti", "stanley cup"], inp=inp)
    assert c.compliant is False and "'stanley cup' names 'Stanley'" in c.evidence
    # no competitor found: generic terms may still be there, so the judge decides
    assert chk("M01", 3, ["Yeti", "yeti cooler"], inp=inp).compliant is None
    # M01b's rule is only about competitors: the check decides both ways
    assert chk("M01b", 3, ["yeti cooler"], inp=inp).compliant is True
    assert chk("M01b", 3, ["hydro flask lid"], inp=inp).compliant is False
    # whole words: "stanleyville" does not name Stanley
    assert chk("M01b", 3, ["stanleyville mug"], inp=inp).compliant is True


def test_m01a_case_variations():
    inp = {"brand": "Hydro Flask"}
    assert chk("M01a", 1, ["HYDRO FLASK", "hydro flask", "Hydro Flask"], inp=inp).compliant
    c = chk("M01a", 1, ["hydro flask", "Hydro Flask"], inp=inp)
    assert c.compliant is False and c.evidence == "missing case form(s): upper 'HYDRO FLASK'"


def test_m05_no_brand_terms_and_no_over_filtering():
    inp = {"brand": "Hydro Flask", "brand_terms": ["hydroflask"]}
    assert chk("M05", 1, ["insulated bottle"], inp=inp).compliant is True
    c = chk("M05", 1, ["insulated bottle", "Hydroflask lid"], inp=inp)
    assert c.compliant is False and "'Hydroflask lid' contains 'hydroflask'" in c.evidence
    assert chk("M05", 1, ["hydro flask straw"], inp=inp).compliant is False
    assert chk("M05", 1, ["a"], inp={}).compliant is None
    assert chk("M05", 4, ["a", "b"], ["A", "b"]).compliant is True
    assert chk("M05", 4, ["a"], ["a", "b"]).compliant is False


def test_m06_primary_first_and_no_duplicates():
    assert chk("M06", 2, ["Water Bottles", "Hydration"], ["water bottles"]).compliant is True
    assert chk("M06", 2, ["Hydration", "Water Bottles"], ["Water Bottles"]).compliant is False
    assert chk("M06", 2, [], ["Water Bottles"]).compliant is None
    assert chk("M06", 4, ["Mugs", "Tumblers"]).compliant is True
    assert chk("M06", 4, ["Mugs", "mugs ", "Tumblers"]).compliant is False


def test_m08_no_duplicate_ranks():
    ok = [{"attribute": "a", "rank": 1}, {"attribute": "b", "rank": 2}]
    assert chk("M08", 3, ok).compliant is True
    assert chk("M08", 3, ["a", "b", "c"]).compliant is True
    c = chk("M08", 3, [{"attribute": "a", "rank": 1}, {"attribute": "b", "rank": 1}])
    assert c.compliant is False and c.evidence == "rank(s) used more than once: 1"


def test_m09_exactly_one_primary_use():
    assert chk("M09", 1, ["hydration on the go"]).compliant is True
    assert chk("M09", 1, ["hydration", "coffee"]).compliant is False
    assert chk("M09", 1, []).compliant is False


@pytest.mark.parametrize("mid,label", [("M02", "BRAND"), ("M12b", "X"), ("M12b", "complement")])
def test_label_outside_the_set_violates_rule_1(mid, label):
    assert chk(mid, 1, label).compliant is False


@pytest.mark.parametrize("mid,label", [("M02", "own"), ("M12b", "S")])
def test_label_inside_the_set_is_left_to_the_judge(mid, label):
    assert chk(mid, 1, label).compliant is None


def test_every_check_is_used_by_the_registry():
    used = {r.check for m in REG.modules.values() for r in m.rules if r.check}
    assert used == set(CHECKS)


def test_ten_points_per_compliant_rule_and_unassessed_counts_zero():
    m = M("M15")
    assert assess_rules(m, True, True, None, given=[True] * 4).score == 40
    rc = assess_rules(m, True, True, None, given=[True, False, None, True])
    assert rc.score == 20 and rc.unassessed == (3,)
    rc = assess_rules(m, True, True, None, given=[
        {"compliant": True, "evidence": "same use"}, {"compliant": None}, False,
        {"compliant": True}])
    assert rc.score == 20
    assert rc.rules[0].evidence == "same use" and rc.rules[0].source == "record"
    assert rc.unassessed == (2,)
    assert assess_rules(m, True, True, None).score == 0


def test_the_check_decides_and_disagreement_is_recorded():
    m = M("M06")
    rc = assess_rules(m, ["a", "a"], ["a"], None, given=[True, True, True, True])
    r4 = rc.rules[3]
    assert (r4.compliant, r4.source, r4.given, r4.check) == (False, "check", True, False)
    assert rc.disagreements == (4,)
    assert rc.score == 30
