"""Section 3 (reasoning quality) and the verdict, hand-computed."""

import pytest

from evaltools.judging import judge
from evaltools.judging.reasoning import assess_reasoning, band_of, reasoning_problems
from evaltools.judging.registry import default_registry_text, parse_registry
from evaltools.judging.verdict import JudgeVerdict, calculate_verdict


def test_three_sub_scores_add_up():
    r = assess_reasoning({"chain_of_thought": 6, "evidence_usage": 6,
                          "confidence_calibration": 3})
    assert (r.score, r.band, r.issues) == (15, "good", ())


def test_finer_items_make_the_sub_scores():
    r = assess_reasoning({"clear_logic": 4, "evidence_referenced": 3, "quotes_from_input": 2,
                          "relevant_evidence": 4, "confidence_matches": 2,
                          "uncertainty_acknowledged": 1})
    assert (r.chain_of_thought, r.evidence_usage, r.confidence_calibration) == (7, 6, 3)
    assert r.score == 16 and dict(r.items)["clear_logic"] == 4


def test_items_decide_when_they_contradict_the_sub_score():
    r = assess_reasoning({"chain_of_thought": 8, "clear_logic": 2, "evidence_referenced": 2,
                          "evidence_usage": 4, "confidence_calibration": 4})
    assert r.chain_of_thought == 4 and r.score == 12
    assert r.issues == ("chain_of_thought is 8 but its items add up to 4; the items decide",)


def test_unassessed_and_unknown_keys_are_issues():
    r = assess_reasoning({"chain_of_thought": 5, "clear_logic": 3, "chain_of_thougt": 1})
    assert r.score == 5
    assert r.issues == (
        "reasoning key 'chain_of_thougt' is unknown (known: chain_of_thought, clear_logic, "
        "evidence_referenced, evidence_usage, quotes_from_input, relevant_evidence, "
        "confidence_calibration, confidence_matches, uncertainty_acknowledged); ignored",
        "evidence_usage not assessed; counted as 0",
        "confidence_calibration not assessed; counted as 0",
    )
    r = assess_reasoning({"clear_logic": 3, "chain_of_thought": None})
    assert "chain_of_thought not assessed (only clear_logic given)" in r.issues[0]
    none = assess_reasoning({})
    assert (none.score, none.band) == (0, None)


@pytest.mark.parametrize("values,key", [
    ({"chain_of_thought": 9}, "chain_of_thought"),
    ({"evidence_usage": -1}, "evidence_usage"),
    ({"confidence_calibration": 5}, "confidence_calibration"),
    ({"confidence_calibration": 2.5}, "confidence_calibration"),
    ({"clear_logic": 5}, "clear_logic"),
    ({"confidence_matches": 3}, "confidence_matches"),
    ({"uncertainty_acknowledged": True}, "uncertainty_acknowledged"),
    ({"relevant_evidence": "4"}, "relevant_evidence"),
])
def test_ranges_8_8_4_and_items_4_4_2(values, key):
    assert [k for k, _ in reasoning_problems(values)] == [key]


def test_in_range_values_have_no_problem():
    assert reasoning_problems({"chain_of_thought": 8, "evidence_usage": 0,
                               "confidence_calibration": 4.0, "clear_logic": 4,
                               "uncertainty_acknowledged": 2}) == []


@pytest.mark.parametrize("score,band", [(20, "excellent"), (19, "good"), (15, "good"),
                                        (14, "adequate"), (10, "adequate"), (9, "weak"),
                                        (5, "weak"), (4, "none"), (0, "none")])
def test_scoring_guide_bands(score, band):
    assert band_of(score) == band


# ---------------------------------------------------------------- verdict


@pytest.mark.parametrize("c,r,q,expected", [
    (40, 20, 10, JudgeVerdict("PASS", 70, "Meets threshold")),     # exactly 70
    (40, 20, 9, JudgeVerdict("FAIL", 69, "Below threshold")),      # 69
    (40, 40, 20, JudgeVerdict("PASS", 100, "Meets threshold")),
    (0, 40, 20, JudgeVerdict("FAIL", 60, "Incorrect output")),     # correctness 0
    (0, 0, 0, JudgeVerdict("FAIL", 0, "Incorrect output")),
    (20, 40, 10, JudgeVerdict("PASS", 70, "Meets threshold")),     # PARTIAL can pass
    (20, 30, 19, JudgeVerdict("FAIL", 69, "Below threshold")),
    (26.67, 30, 13, JudgeVerdict("FAIL", 69.67, "Below threshold")),
    (26.67, 30, 14, JudgeVerdict("PASS", 70.67, "Meets threshold")),
])
def test_calculate_verdict(c, r, q, expected):
    assert calculate_verdict(c, r, q) == expected


def test_the_cap_applies_when_correctness_is_zero():
    # With the template's maxima 0 + 40 + 20 = 60 already; a registry with a
    # lower cap shows the cap itself at work.
    reg = parse_registry(default_registry_text().replace("cap_when_incorrect = 60",
                                                         "cap_when_incorrect = 50"))
    assert calculate_verdict(0, 40, 20, registry=reg) == \
        JudgeVerdict("FAIL", 50, "Incorrect output")
    assert calculate_verdict(0, 30, 10, registry=reg) == \
        JudgeVerdict("FAIL", 40, "Incorrect output")
    assert calculate_verdict(10, 40, 20, registry=reg).total == 70


FULL = {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}


def test_every_verdict_path_end_to_end():
    # boolean, exactly 70
    r = judge({"module": "M13", "output": "yes", "expected": True,
               "rules": [True, True, False, False],
               "reasoning": {"chain_of_thought": 4, "evidence_usage": 4,
                             "confidence_calibration": 2}})
    assert (r.total_score, r.verdict, r.verdict_reason) == (70, "PASS", "Meets threshold")
    # boolean, 69
    r = judge({"module": "M13", "output": "yes", "expected": True,
               "rules": [True, True, False, False],
               "reasoning": {"chain_of_thought": 4, "evidence_usage": 3,
                             "confidence_calibration": 2}})
    assert (r.total_score, r.verdict, r.verdict_reason) == (69, "FAIL", "Below threshold")
    # correctness 0: FAIL whatever the rest
    r = judge({"module": "M13", "output": "no", "expected": True, "rules": [True] * 4,
               "reasoning": FULL})
    assert (r.total_score, r.verdict, r.verdict_reason) == (60, "FAIL", "Incorrect output")
    # classification PARTIAL
    r = judge({"module": "M02", "output": "COMPETITOR", "expected": "OWN",
               "rules": [True] * 4, "reasoning": {"chain_of_thought": 4, "evidence_usage": 4,
                                                  "confidence_calibration": 2}})
    assert r.correctness.match_level == "PARTIAL"
    assert (r.correctness.score, r.total_score, r.verdict) == (20, 70, "PASS")
    # extraction: F1 = 2/3 -> 26.67
    r = judge({"module": "M07", "output": ["a", "b"], "expected": ["a", "b", "c", "d"],
               "rules": [True] * 4, "reasoning": FULL})
    assert (r.correctness.score, r.total_score, r.verdict) == (26.67, 86.67, "PASS")
