"""The public API: evaltools.judge(...), judge_records, judge_frame, results, prompt."""

import dataclasses
import json
import math
from pathlib import Path

import pytest

import evaltools
from evaltools.errors import InputError
from evaltools.judging import JudgeResult, judge, judge_frame, judge_records
from evaltools.judging.registry import load_registry
from evaltools.prompt import render_prompt

DATA = Path(__file__).resolve().parent.parent / "data" / "judgments.jsonl"
FULL = {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}


def test_evaltools_judge_is_the_function_and_judging_the_package():
    import types

    import evaltools.judging as pkg  # importing the package does not replace the function

    r = evaltools.judge({"module": "M04", "output": "Yes", "expected": True})
    assert isinstance(r, JudgeResult)
    assert evaltools.judging.registry.MODULES["M12b"].labels == ("R", "S", "C", "N")
    assert evaltools.judging.judge is judge is evaltools.judge
    assert evaltools.judge_records is judge_records and evaltools.judge_frame is judge_frame
    assert isinstance(evaltools.judge, types.FunctionType)
    assert type(pkg) is types.ModuleType and not callable(pkg)  # no module-class swap


def test_template_json_format_plus_evaltools_keys():
    d = judge({"id": "k", "module": "M02", "output": "OWN", "expected": "OWN",
               "rules": [True] * 4, "reasoning": FULL}).to_dict()
    assert list(d) == ["id", "module", "module_type", "evaluation", "total_score", "verdict",
                       "summary", "improvement_suggestions", "verdict_reason", "issues",
                       "audit", "judge_total_score", "judge_verdict", "error"]
    assert list(d["evaluation"]) == ["correctness", "rule_compliance", "reasoning_quality"]
    c = d["evaluation"]["correctness"]
    assert {"score", "output_value", "expected_value", "match", "details"} <= set(c)
    rule = d["evaluation"]["rule_compliance"]["rules"][0]
    assert {"name", "compliant", "score", "evidence"} <= set(rule)
    q = d["evaluation"]["reasoning_quality"]
    assert {"score", "chain_of_thought", "evidence_usage", "confidence_calibration"} <= set(q)
    assert (d["id"], d["module"], d["module_type"], d["error"]) == ("k", "M02",
                                                                     "classification", None)
    assert (d["total_score"], d["verdict"], d["issues"]) == (100, "PASS", [])
    assert json.loads(json.dumps(d)) == d


def test_results_are_immutable():
    r = judge({"module": "M04", "output": True, "expected": True})
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.verdict = "PASS"


def test_id_defaults_to_the_line():
    assert judge({"module": "M04", "output": 1, "expected": 1}, line=7).id == 7


def test_unassessed_rules_and_reasoning_are_listed_never_counted():
    r = judge({"module": "M16", "output": True, "expected": True,
               "rules": [True, None, {"compliant": None}, True]})
    assert r.rule_compliance.score == 20
    assert r.issues == ("rule 2 'Different Primary Use' not assessed; counted as 0",
                        "rule 3 'Same Category ≠ Complementary' not assessed; counted as 0",
                        "reasoning not assessed; counted as 0")


def test_rule_names_in_the_record_are_checked_against_the_order():
    r = judge({"module": "M15", "output": True, "expected": True, "rules": [
        {"name": "same primary  use", "compliant": True},
        {"name": "Quality Tier", "compliant": True}, True, False]})
    assert r.issues[0] == ("rules item 2 is named 'Quality Tier', but rule 2 of M15 is "
                           "'Interchangeable' (rules are read in the module's order)")
    assert r.rule_compliance.score == 30


def test_record_rules_vs_automatic_check_go_to_issues():
    r = judge({"module": "M09", "output": ["gym", "office"], "expected": ["gym"],
               "rules": [True, True, True, True]})
    assert r.rule_compliance.rules[0].compliant is False
    assert r.issues[0].startswith("rule 1 'Single Primary Use': the record says compliant, "
                                  "the automatic check finds a violation (2 distinct item(s);"
                                  " required 1)")


@pytest.mark.parametrize("record,message", [
    ({"output": True, "expected": True}, "field 'module' is missing"),
    ({"module": "M04", "expected": True}, "field 'output' is missing"),
    ({"module": "M04", "output": True}, "field 'expected' is missing"),
    ({"module": "M04", "output": True, "expected": None}, "field 'expected' is missing"),
    ({"module": "M02", "output": "  ", "expected": "OWN"}, "field 'output' is empty"),
    ({"module": 4, "output": True, "expected": True}, "field 'module' must be a string"),
    ({"module": "M03", "output": True, "expected": True}, "unknown module 'M03'"),
    ({"module": "M04", "output": [True], "expected": True}, "field 'output' must be a boolean"),
    ({"module": "M02", "output": 1, "expected": "OWN"}, "field 'output' must be a label"),
    ({"module": "M05", "output": "a, b", "expected": []}, "field 'output' must be a list"),
    ({"module": "M05", "output": ["a", None], "expected": []}, "item 2 is NoneType"),
    ({"module": "M04", "output": 1, "expected": 1, "input": ["x"]},
     "field 'input' must be an object"),
    ({"module": "M04", "output": 1, "expected": 1, "rules": [True] * 3},
     "field 'rules' must be a list of 4 booleans"),
    ({"module": "M04", "output": 1, "expected": 1, "rules": ["yes"] * 4},
     "field 'rules' item 1 must be a boolean"),
    ({"module": "M04", "output": 1, "expected": 1, "rules": [{"compliant": "yes"}] * 4},
     "compliant must be true, false or null"),
    ({"module": "M04", "output": 1, "expected": 1, "reasoning": {"chain_of_thought": 9}},
     "field 'reasoning': chain_of_thought must be a whole number 0-8, got 9"),
    ({"module": "M04", "output": 1, "expected": 1, "reasoning": [1, 2, 3]},
     "field 'reasoning' must be an object"),
    ({"module": "M04", "output": 1, "expected": 1, "judge": 85},
     "field 'judge' must be the judge's JSON object or its text"),
    ({"module": "M04", "output": 1, "expected": 1, "rules": "[true, true"},
     "got text that is not valid JSON"),
])
def test_bad_records_raise_input_error_naming_where_and_field(record, message):
    with pytest.raises(InputError, match=r"^runs\.jsonl line 3: ") as err:
        judge(record, source="runs.jsonl", line=3)
    assert message in str(err.value)


def test_not_an_object():
    with pytest.raises(InputError, match="a record must be an object, got list"):
        judge([1, 2])


def test_json_text_fields_are_parsed():
    r = judge({"module": "M05", "output": '["a", "b"]', "expected": '["a"]',
               "input": '{"brand": "Yeti"}', "rules": "[true, true, true, true]",
               "reasoning": '{"chain_of_thought": 8, "evidence_usage": 8, '
                            '"confidence_calibration": 4}'})
    assert (r.correctness.score, r.rule_compliance.score, r.reasoning_quality.score) == (
        26.67, 40, 20)


def test_judge_records_skip_invalid_and_pairs():
    recs = [(2, {"module": "M04", "output": 1, "expected": 1}),
            (5, {"module": "M04", "output": 1})]
    with pytest.raises(InputError, match="line 5"):
        list(judge_records(recs, source="f.jsonl"))
    out = list(judge_records(recs, source="f.jsonl", skip_invalid=True))
    assert [(r.id, r.error) for r in out] == [
        (2, None), (5, "field 'expected' is missing (required: module, output, expected)")]
    d = out[1].to_dict()
    assert d["evaluation"] is None and d["total_score"] is None and d["module"] == "M04"


def test_judge_frame():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({
        "id": ["a", "b", "c"],
        "module": ["M13", "M01", "M12b"],
        "output": [True, ["Yeti", "yeti", "YETI"], "S"],
        "expected": ["yes", ["Yeti"], "C"],
        "rules": [[True] * 4, math.nan, None],
        "extra": [1, 2, 3],
    })
    out = judge_frame(df)
    assert list(out["id"]) == ["a", "b", "c"] and list(out["extra"]) == [1, 2, 3]
    assert list(out["verdict"]) == ["PASS", "FAIL", "FAIL"]
    assert list(out["total_score"]) == [80, 50, 0]  # M01: 3 exact variations, rule 4
    assert list(out["rule_1"]) == [True, None, None]
    assert list(out["match_level"]) == ["YES", "EXACT", "NONE"]
    bad = pd.DataFrame({"module": ["M04", "M99"], "output": [1, 1], "expected": [1, 1]})
    with pytest.raises(InputError, match="<DataFrame> row 2: field 'module'"):
        judge_frame(bad)
    assert list(judge_frame(bad, skip_invalid=True)["error"].isna()) == [True, False]
    nullable = pd.DataFrame({"module": ["M04", "M04"], "output": [True, False],
                             "expected": pd.array([True, None], dtype="boolean"),
                             "rules": [None, pd.NA]})
    nullable.loc[1, "expected"] = False
    assert list(judge_frame(nullable)["correctness_score"]) == [40, 40]
    empty = judge_frame(pd.DataFrame({"module": [], "output": [], "expected": []}))
    assert len(empty) == 0 and "verdict" in empty.columns


def test_prompt_for_every_module_has_its_type_and_rules():
    reg = load_registry()
    for mid, m in reg.modules.items():
        p = render_prompt(mid, {"output": None, "expected": None, "input": {"brand": "Yeti"}})
        assert p.startswith(f"# Judge: {mid} {m.name}\n")
        assert f"a {m.type} module" in p
        for i, rule in enumerate(m.rules, start=1):
            assert f"Rule {i}: {rule.name}\n- Description: {rule.description}" in p
        assert "## Section 1: CORRECTNESS (40 points)" in p
        assert "## Section 2: RULE COMPLIANCE (40 points)" in p
        assert "## Section 3: REASONING QUALITY (20 points)" in p
        assert '"brand": "Yeti"' in p


def test_prompt_fills_the_record_and_its_json_format_audits_clean():
    rec = {"output": ["hydro flask", "HydroFlask"], "expected": ["hydro flask"],
           "input": {"brand": "Hydro Flask"}}
    p = render_prompt("M01", rec)
    assert '- Output: ["hydro flask", "HydroFlask"]' in p
    assert "Compare items ignoring case" in p
    assert "Compare items case-sensitively" in render_prompt("M01a", rec)
    assert "- Categories (PARTIAL): branded = OWN, COMPETITOR" in render_prompt(
        "M02", {"output": "OWN", "expected": "OWN"})
    fmt = p[p.index("```json", p.index("## Output format")) + 7:p.rindex("```")]
    shape = json.loads(fmt)
    assert [r["name"] for r in shape["evaluation"]["rule_compliance"]["rules"]] == [
        "Include Original Brand", "Generate Variations", "No Unrelated Terms",
        "Reasonable Count"]


def test_prompt_unknown_module():
    with pytest.raises(KeyError, match="unknown module 'M99'"):
        render_prompt("M99", {})


# ---------------------------------------------------------------- the sample data


def sample():
    return [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]


def test_sample_data_has_five_records_per_module_and_wrong_judges():
    recs = sample()
    reg = load_registry()
    counts = {m: sum(r["module"] == m for r in recs) for m in reg.modules}
    assert min(counts.values()) >= 5 and len(counts) == 17
    results = list(judge_records(recs))
    assert all(r.error is None for r in results)
    codes = {f.code for r in results for f in (r.audit or ())}
    assert {"total_mismatch", "verdict_mismatch", "out_of_range", "rule_score_invalid",
            "correctness_mismatch", "missing_key", "unparseable"} <= codes
    assert {r.verdict for r in results} == {"PASS", "FAIL"}
    assert {r.total_score for r in results} >= {70, 69}


@pytest.mark.parametrize("rid,total,verdict,codes", [
    ("m09-03", 70, "PASS", []),
    ("m14-03", 69, "FAIL", ["verdict_differs"]),
    ("m15-05", 70, "PASS", ["verdict_mismatch", "verdict_differs"]),
    ("m02-04", 59, "FAIL", []),
    ("m02-02", 6, "FAIL", ["correctness_mismatch", "match_mismatch"]),
    ("m16-05", 96, "PASS", ["out_of_range", "total_mismatch"]),
    ("m07-04", 40, "FAIL", ["unparseable"]),
    ("m11-06", 95, "PASS", []),
])
def test_sample_records_hand_checked(rid, total, verdict, codes):
    rec = next(r for r in sample() if r["id"] == rid)
    r = judge(rec)
    assert (r.total_score, r.verdict, [f.code for f in r.audit]) == (total, verdict, codes)
