"""Property: whatever values the result fields hold, a report builds and renders."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.report import Limits, report_from_records

values = st.one_of(st.none(), st.booleans(), st.integers(-5, 5),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
                   st.lists(st.one_of(st.text(max_size=5), st.integers(), st.none()),
                            max_size=3),
                   st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
anchor = st.fixed_dictionaries({}, optional={
    "kind": values, "text": values, "start": values, "end": values, "supported": values,
    "evidence": values, "evidence_start": values, "evidence_end": values, "note": values})
scored = st.fixed_dictionaries(
    {"relevance": values, "verdict": st.one_of(values, st.sampled_from(["PASS", "WARN",
                                                                         "FAIL"]))},
    optional={"id": values, "query": values, "context": values, "response": values,
              "completeness": values, "hallucination": values, "reasons": values,
              "anchors": st.one_of(values, st.lists(st.one_of(anchor, values), max_size=4)),
              "missing_keywords": values, "error": values, "label_hallucinated": values,
              "label_relevant": values, "label_verdict": values,
              "hallucination_probability": values})
judged = st.fixed_dictionaries(
    {"module": st.one_of(values, st.sampled_from(["M01", "M04", "M12b"])),
     "total_score": values},
    optional={"id": values, "verdict": values, "evaluation": values, "issues": values,
              "audit": values, "judge": values, "judge_verdict": values, "summary": values,
              "label_verdict": values, "error": values, "output": values,
              "expected": values})


@pytest.mark.slow  # 5.5 s alone (20 hypothesis reports)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(scored, max_size=6), st.lists(judged, max_size=6))
def test_any_field_values_give_a_report(scored_recs, judged_recs):
    rep = report_from_records(scored=scored_recs, judged=judged_recs,
                              limits=Limits(table_rows=3, worst_cases=2, recommend_records=1))
    page = rep.to_html()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
