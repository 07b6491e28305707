"""Audit of LLM-judge JSON: one test per finding code, and never a coerced score."""

import copy
import json

import pytest

from evaltools.judging import judge
from evaltools.judging.audit import CODES
from evaltools.judging.judge_json import parse_judgment


def consistent_judgment():
    """A judge's JSON for RECORD that is right in every respect (85, PASS)."""
    return {
        "evaluation": {
            "correctness": {"score": 40, "output_value": True, "expected_value": True,
                            "match": True, "details": "both true"},
            "rule_compliance": {"score": 30, "rules": [
                {"name": "Same Primary Use", "compliant": True, "score": 10, "evidence": "a"},
                {"name": "Interchangeable", "compliant": True, "score": 10, "evidence": "b"},
                {"name": "Same Category", "compliant": True, "score": 10, "evidence": "c"},
                {"name": "Quality Tier", "compliant": False, "score": 0, "evidence": "d"},
            ]},
            "reasoning_quality": {"score": 15, "chain_of_thought": 6, "evidence_usage": 6,
                                  "confidence_calibration": 3},
        },
        "total_score": 85,
        "verdict": "PASS",
        "summary": "Yeti Rambler 26 oz substitutes for the Hydro Flask 32 oz.",
        "improvement_suggestions": ["Compare price tiers"],
    }


RECORD = {"id": "s1", "module": "M15", "output": True, "expected": True,
          "input": {"keyword": "yeti rambler 26 oz", "product": "Hydro Flask 32 oz"}}


def audit(j, **record):
    r = judge({**RECORD, **record, "judge": j})
    return r, [f.code for f in r.audit]


def test_a_consistent_judge_has_no_findings_and_supplies_rules_and_reasoning():
    r, codes = audit(consistent_judgment())
    assert codes == []
    assert (r.total_score, r.verdict) == (85, "PASS")
    assert r.rule_compliance.rules[0].source == "judge"
    assert r.reasoning_quality.source == "judge"
    assert (r.judge_total_score, r.judge_verdict) == (85, "PASS")
    assert r.to_dict()["audit"] == []


def test_no_judge_means_no_audit():
    r = judge(RECORD)
    assert r.audit is None and r.to_dict()["audit"] is None


def mutate(fn):
    j = consistent_judgment()
    fn(j)
    return j


def ev(j):
    return j["evaluation"]


def test_unparseable_text():
    r, codes = audit("Correctness 40/40, rules 30/40. Total 85 - PASS")
    assert codes == ["unparseable"]
    # nothing was taken from the broken judgment: rules and reasoning unassessed
    assert r.rule_compliance.score == 0 and r.reasoning_quality.score == 0
    assert r.judge_total_score is None


def test_json_text_and_fenced_json_are_read():
    assert audit(json.dumps(consistent_judgment()))[1] == []
    assert audit("```json\n" + json.dumps(consistent_judgment()) + "\n```")[1] == []


def test_not_an_object():
    assert audit("[1, 2, 3]")[1] == ["not_an_object"]
    assert parse_judgment("85")[1][0].code == "not_an_object"


def test_total_not_the_sum_of_its_parts():
    r, codes = audit(mutate(lambda j: j.update(total_score=95)))
    assert codes == ["total_mismatch"]
    assert r.audit[0].message == ("total_score is 95, but the judge's sections give "
                                  "40 + 30 + 15 = 85")
    assert r.total_score == 85  # evaltools' own figure


def test_verdict_not_what_the_rules_give():
    r, codes = audit(mutate(lambda j: j.update(verdict="FAIL")))
    assert codes == ["verdict_mismatch", "verdict_differs"]
    assert r.audit[0].path == "verdict"


def test_verdict_that_only_differs_from_the_recomputation():
    # the judge is self-consistent but the human rules give a lower total
    r, codes = audit(consistent_judgment(), rules=[True, False, False, False])
    assert codes == ["verdict_differs"]
    assert (r.total_score, r.verdict) == (65, "FAIL")
    assert any("the judge says compliant, the record's rules say violated" in i
               for i in r.issues)


def test_invalid_verdict_word():
    assert audit(mutate(lambda j: j.update(verdict="Pass")))[1] == ["invalid_verdict"]


def test_rule_scores_other_than_0_or_10():
    def f(j):
        ev(j)["rule_compliance"]["rules"][0]["score"] = 5
        ev(j)["rule_compliance"]["score"] = 25
        j["total_score"] = 80
    r, codes = audit(mutate(f))
    assert codes == ["rule_score_invalid"]
    # the compliant answer is intact, so the rule still counts 10 here
    assert r.rule_compliance.score == 30


def test_rule_score_contradicting_its_compliant_flag():
    def f(j):
        ev(j)["rule_compliance"]["rules"][3]["score"] = 10
        ev(j)["rule_compliance"]["score"] = 40
        j["total_score"] = 95
    assert audit(mutate(f))[1] == ["rule_score_mismatch"]


def test_rule_total_not_the_sum_of_rule_scores():
    def f(j):
        ev(j)["rule_compliance"]["score"] = 40
        j["total_score"] = 95
    assert audit(mutate(f))[1] == ["rule_total_mismatch"]


def test_rule_count():
    def f(j):
        del ev(j)["rule_compliance"]["rules"][3]
        ev(j)["rule_compliance"]["score"] = 30
    r, codes = audit(mutate(f))
    assert codes == ["rule_count"]
    assert r.rule_compliance.unassessed == (4,)


def test_sub_scores_out_of_range_are_reported_and_not_counted():
    def f(j):
        ev(j)["reasoning_quality"].update(chain_of_thought=9, score=18)
        j["total_score"] = 88
    r, codes = audit(mutate(f))
    assert codes == ["out_of_range"]
    assert r.reasoning_quality.chain_of_thought is None
    assert r.reasoning_quality.score == 9  # 6 + 3, the 9 is never clipped to 8
    assert "chain_of_thought not assessed; counted as 0" in r.issues


@pytest.mark.parametrize("path,value", [
    (("evaluation", "correctness", "score"), 45),
    (("evaluation", "rule_compliance", "score"), -10),
    (("evaluation", "reasoning_quality", "score"), 25),
    (("total_score",), 120),
    (("evaluation", "reasoning_quality", "confidence_calibration"), 5),
    (("evaluation", "reasoning_quality", "evidence_usage"), 6.5),
])
def test_section_scores_out_of_range(path, value):
    j = consistent_judgment()
    target = j
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    assert "out_of_range" in audit(j)[1]


def test_reasoning_total_not_the_sum_of_sub_scores():
    def f(j):
        ev(j)["reasoning_quality"]["score"] = 17
        j["total_score"] = 87
    assert audit(mutate(f))[1] == ["reasoning_total_mismatch"]


def test_sub_score_not_the_sum_of_its_items():
    def f(j):
        ev(j)["reasoning_quality"].update(clear_logic=2, evidence_referenced=2)
    r, codes = audit(mutate(f))
    assert codes == ["reasoning_total_mismatch"]
    assert r.audit[0].path == "evaluation.reasoning_quality.chain_of_thought"


def test_correctness_that_contradicts_output_vs_expected():
    r, codes = audit(consistent_judgment(), output="no")
    assert codes == ["correctness_mismatch", "match_mismatch", "verdict_differs"]
    assert (r.correctness.score, r.verdict) == (0, "FAIL")


def test_extraction_correctness_within_rounding_is_not_a_finding():
    rec = {"module": "M07", "output": ["a", "b"], "expected": ["a", "b", "c", "d"],
           "rules": [True] * 4}
    j = consistent_judgment()
    ev(j)["correctness"].update(score=27, match=False)   # 26.67 rounded by the judge
    ev(j)["rule_compliance"]["score"] = 30
    j["total_score"] = 72
    r = judge({**rec, "judge": j})
    assert [f.code for f in r.audit] == []
    ev(j)["correctness"]["score"] = 30
    j["total_score"] = 75
    assert [f.code for f in judge({**rec, "judge": j}).audit] == ["correctness_mismatch"]


def test_match_written_as_a_level():
    def f(j):
        ev(j)["correctness"]["match"] = "EXACT"
    r = judge({"module": "M02", "output": "OWN", "expected": "OWN", "judge": mutate(f)})
    assert "match_mismatch" not in [x.code for x in r.audit]
    r = judge({"module": "M02", "output": "COMPETITOR", "expected": "OWN",
               "judge": mutate(f)})
    assert "match_mismatch" in [x.code for x in r.audit]


def test_missing_keys():
    def f(j):
        del ev(j)["reasoning_quality"]["confidence_calibration"]
        del j["summary"]
        del ev(j)["rule_compliance"]["rules"][1]["compliant"]
    r, _ = audit(mutate(f))
    paths = [x.path for x in r.audit if x.code == "missing_key"]
    assert paths == ["evaluation.rule_compliance.rules[1].compliant",
                     "evaluation.reasoning_quality.confidence_calibration", "summary"]
    assert r.rule_compliance.rules[1].compliant is None  # never guessed from its score
    assert r.reasoning_quality.confidence_calibration is None


def test_whole_sections_missing():
    r, codes = audit({"total_score": 85, "verdict": "PASS"})
    assert set(codes) == {"missing_key", "verdict_differs"}
    assert "evaluation" in [x.path for x in r.audit]


def test_wrong_types_are_never_coerced():
    def f(j):
        ev(j)["rule_compliance"]["rules"][0]["compliant"] = "yes"
        ev(j)["reasoning_quality"]["evidence_usage"] = "6"
        ev(j)["correctness"]["match"] = "definitely"
        j["total_score"] = "85"
    r, codes = audit(mutate(f))
    assert codes.count("wrong_type") == 4
    assert r.rule_compliance.rules[0].compliant is None
    assert r.reasoning_quality.evidence_usage is None


def test_judge_answer_contradicting_an_automatic_check():
    rec = {"module": "M06", "output": ["Mugs", "mugs"], "expected": ["Mugs"]}
    j = consistent_judgment()
    ev(j)["rule_compliance"]["rules"][3].update(compliant=True, score=10)
    r = judge({**rec, "judge": j})
    codes = [f.code for f in r.audit]
    assert "rule_check_disagrees" in codes
    f = next(x for x in r.audit if x.code == "rule_check_disagrees")
    assert f.path == "evaluation.rule_compliance.rules[3].compliant"
    assert r.rule_compliance.rules[3].compliant is False


def test_every_code_is_exercised_by_this_file():
    import pathlib
    text = pathlib.Path(__file__).read_text()
    assert all(f'"{code}"' in text for code in CODES)


def test_the_judge_input_is_not_modified():
    j = consistent_judgment()
    before = copy.deepcopy(j)
    audit(j)
    assert j == before


# ---- one reader of the template's JSON (issue 25 item 1) ----------------------------

def test_template_json_reads_each_path_and_never_fails():
    from evaltools.judging.template_json import TemplateJSON
    j = {"evaluation": {"correctness": {"score": 26.67, "match": "PARTIAL", "f1": 0.6667,
                                        "output_value": ["gym"]},
                        "rule_compliance": {"score": 30, "rules": [
                            {"name": "A", "compliant": True, "score": 10}, "junk", None]},
                        "reasoning_quality": {"score": 12, "chain_of_thought": 5}},
         "total_score": 68.67, "verdict": "FAIL", "summary": "s"}
    t = TemplateJSON.of(j)
    assert (t.correctness_score, t.match, t.f1, t.output_value) == (26.67, "PARTIAL",
                                                                     0.6667, ["gym"])
    assert (t.rules_score, t.reasoning_score, t.reasoning_value("chain_of_thought"),
            t.total_score, t.verdict, t.summary) == (30, 12, 5, 68.67, "FAIL", "s")
    assert [(r.is_object, r.name, r.compliant, r.score) for r in t.rules] == [
        (True, "A", True, 10), (False, None, None, None), (False, None, None, None)]
    # frozen: the view cannot be changed, nor its objects
    with pytest.raises(AttributeError):
        t.verdict = "PASS"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.correctness["score"] = 0  # type: ignore[index]
    # anything at all: a path through a non-object is None
    for junk in (None, 3, "text", [1], {"evaluation": [1]},
                 {"evaluation": {"correctness": "x", "rule_compliance": {"rules": {}}}}):
        t = TemplateJSON.of(junk)
        assert t.correctness_score is None and t.rules is None and not t.has_match


def test_judge_result_from_dict_restores_what_to_dict_wrote():
    from evaltools.io import read_records
    from evaltools.judging.result import JudgeResult
    from evaltools.judging.stream import judge_stream
    results = judge_stream(enumerate(read_records("data/judgments.jsonl", skip_invalid=True),
                                     start=1), source="data/judgments.jsonl", unit="line",
                           skip_invalid=True)
    for _, _, result in results:
        d = result.to_dict()
        r = JudgeResult.from_dict(json.loads(json.dumps(d)))
        assert r.to_dict() == json.loads(json.dumps(d))
        assert r.total_score == d["total_score"] and r.verdict == d["verdict"]
