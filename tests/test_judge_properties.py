"""Properties: totals in range and equal to their parts, verdict by the rule, no crashes."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.errors import InputError
from evaltools.judging import judge
from evaltools.judging.audit import CODES
from evaltools.judging.registry import load_registry

REG = load_registry()
MODULES = list(REG.modules)
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

words = st.sampled_from(["Hydro Flask", "hydro flask", "HYDRO FLASK", "Yeti", "yeti",
                         "Stanley", "tumbler", "water bottle", "32 oz", " ", "Owala",
                         "insulated", "straw lid", "Contigo"])
bool_values = st.one_of(st.booleans(), st.sampled_from([0, 1, "yes", "No.", "TRUE", "maybe",
                                                        "y", "?"]))


def value_for(mid):
    m = REG.module(mid)
    if m.type == "boolean":
        return bool_values
    if m.type == "classification":
        return st.one_of(st.sampled_from(m.labels), st.sampled_from(["own", " r ", "X", "-"]))
    if m.items == "ranked":
        item = st.one_of(words, st.builds(lambda a, r: {"attribute": a, "rank": r}, words,
                                          st.integers(1, 5)))
        return st.lists(item, max_size=6)
    return st.lists(words, max_size=12)


rule_entry = st.one_of(st.none(), st.booleans(),
                       st.builds(lambda c: {"compliant": c, "evidence": "e"},
                                 st.one_of(st.none(), st.booleans())))
reasoning = st.one_of(
    st.none(),
    st.fixed_dictionaries({}, optional={"chain_of_thought": st.integers(0, 8),
                                        "evidence_usage": st.integers(0, 8),
                                        "confidence_calibration": st.integers(0, 4),
                                        "clear_logic": st.integers(0, 4),
                                        "uncertainty_acknowledged": st.integers(0, 2)}))


@st.composite
def records(draw):
    mid = draw(st.sampled_from(MODULES))
    rec = {"module": mid, "output": draw(value_for(mid)), "expected": draw(value_for(mid)),
           "input": draw(st.fixed_dictionaries({}, optional={
               "brand": words, "competitors": st.lists(words, max_size=3),
               "brand_terms": st.lists(words, max_size=3)}))}
    rules = draw(st.one_of(st.none(), st.lists(rule_entry, min_size=4, max_size=4)))
    if rules is not None:
        rec["rules"] = rules
    q = draw(reasoning)
    if q is not None:
        rec["reasoning"] = q
    return rec


@SETTINGS
@given(records())
def test_total_in_range_equal_to_parts_and_verdict_by_the_rule(rec):
    r = judge(rec)
    s = REG.settings
    c = r.correctness.score
    rules = r.rule_compliance.score
    q = r.reasoning_quality.score
    assert 0 <= c <= 40 and 0 <= rules <= 40 and 0 <= q <= 20
    assert rules % 10 == 0
    assert rules == sum(x.score for x in r.rule_compliance.rules)
    assert rules == 10 * sum(x.compliant is True for x in r.rule_compliance.rules)
    assert 0 <= r.total_score <= 100
    parts = round(c + rules + q, 2)
    if c == 0:
        assert r.total_score == min(parts, s.verdict.cap_when_incorrect)
        assert (r.verdict, r.verdict_reason) == ("FAIL", "Incorrect output")
    else:
        assert r.total_score == parts
        assert r.verdict == ("PASS" if r.total_score >= 70 else "FAIL")
    mtype = REG.module(rec["module"]).type
    if mtype == "boolean":
        assert c in (0, 40)
    elif mtype == "classification":
        assert c in (0, 20, 40)
    # unassessed rules are always listed
    for i in r.rule_compliance.unassessed:
        assert any(x.startswith(f"rule {i} ") for x in r.issues)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert judge(rec).to_dict() == d  # deterministic


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-50, 150),
              st.floats(-1e3, 1e3, allow_nan=False), st.text(max_size=8)),
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.text(max_size=8), children, max_size=5)),
    max_leaves=25)

TEMPLATE_KEYS = st.sampled_from(["evaluation", "correctness", "rule_compliance",
                                 "reasoning_quality", "score", "rules", "compliant",
                                 "chain_of_thought", "evidence_usage", "confidence_calibration",
                                 "total_score", "verdict", "match", "summary"])
judge_like = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-20, 120), st.sampled_from(["PASS", "FAIL"]),
              st.floats(-5, 50, allow_nan=False)),
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(TEMPLATE_KEYS, children, max_size=6)),
    max_leaves=40)


@SETTINGS
@given(st.sampled_from(MODULES), st.one_of(judge_like, json_values, st.text(max_size=30)))
def test_any_judge_output_is_audited_never_crashes(mid, j):
    m = REG.module(mid)
    value = (True if m.type == "boolean" else m.labels[0] if m.type == "classification"
             else ["a"])
    rec = {"module": mid, "output": value, "expected": value}
    if isinstance(j, str) and not j.strip():
        rec["judge"] = j
        assert judge(rec).audit is None  # empty text (an empty CSV cell) is no judge
    elif isinstance(j, (dict, str)):
        rec["judge"] = j
        r = judge(rec)
        assert r.audit is not None
        assert all(f.code in CODES for f in r.audit)
        assert 0 <= r.total_score <= 100
    else:
        rec["judge"] = j
        if j is None:
            assert judge(rec).audit is None
        else:  # a number, a list, a boolean: not a judge's JSON
            with pytest.raises(InputError) as err:
                judge(rec)
            assert err.value.field == "judge"


@SETTINGS
@given(st.dictionaries(st.sampled_from(["module", "output", "expected", "input", "rules",
                                        "reasoning", "judge", "id"]), json_values))
def test_any_record_is_judged_or_rejected_with_input_error(rec):
    if isinstance(rec.get("module"), str) or "module" not in rec:
        rec.setdefault("module", "M04")
    try:
        r = judge(rec)
    except InputError as e:
        assert str(e).startswith("<record> line 1: ")
    else:
        assert r.verdict in ("PASS", "FAIL")
