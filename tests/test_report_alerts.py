"""The report's "Needs attention" alerts, on hand-made records with known counts."""

from __future__ import annotations

from evaltools.report.build import report_from_records


def _scored(rid, verdict, human=None, error=None):
    rec = {"id": rid, "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0,
           "verdict": verdict, "reasons": [], "anchors": []}
    if human is not None:
        rec["label_verdict"] = human
    if error:
        rec = {"id": rid, "error": error}
    return rec


def _judged(rid, module, verdict, inconsistent=False):
    return {"id": rid, "module": module, "verdict": verdict, "total_score": 80 if verdict ==
            "PASS" else 40, "audit": [{"code": "total_mismatch"}] if inconsistent else [],
            "judge": {"verdict": verdict}}


def test_alerts_name_counts_and_link_their_sections():
    # Human vs evaltools: PASS/FAIL, PASS/FAIL, FAIL/PASS, WARN/WARN: 1 of 4 agree.
    scored = [_scored("a", "FAIL", "PASS"), _scored("b", "FAIL", "PASS"),
              _scored("c", "PASS", "FAIL"), _scored("d", "WARN", "WARN"),
              _scored("e", None, error="field 'response' is missing")]
    report = report_from_records(scored=scored)
    alerts = report.section("alerts").blocks
    texts = [a.text for a in alerts]
    assert texts[0].startswith("1 invalid record") and alerts[0].target == "table-invalid-records"
    low = next(a for a in alerts if a.text.startswith("Low agreement"))
    assert "on 1 of 4 records (25%" in low.text and "evaltools calibrate" in low.text
    assert low.target == "calibration"
    assert report.sections[0].id == "alerts"


def test_nothing_to_say_is_said_once():
    report = report_from_records(scored=[_scored("a", "PASS", "PASS"),
                                         _scored("b", "FAIL", "FAIL"),
                                         _scored("c", "WARN", "WARN")])
    (only,) = report.section("alerts").blocks
    assert only.tone == "ok" and only.text.startswith("Nothing needs attention")
