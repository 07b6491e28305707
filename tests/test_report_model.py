"""The renderer-free report model and the builder that fills it."""

from __future__ import annotations

import dataclasses

import pytest
from report_synth import judged_records, scored_records

from evaltools.report import Limits, ReportBuilder, Table, report_from_records
from evaltools.report.build import clip, describe
from evaltools.report.model import Case, Column, Figure, Text

SECTIONS = ["alerts", "summary", "modules", "worst", "calibration", "configuration",
            "provenance"]


def _build(n_scored=200, n_judged=68, labelled_every=0, **limits):
    b = ReportBuilder(limits=Limits(**limits))
    for r in scored_records(n_scored, labelled_every=labelled_every):
        b.add_scored(r, source="s.jsonl", line=1)
    for r in judged_records(n_judged):
        b.add_judged(r, source="j.jsonl", line=1)
    return b.build()


def test_table_counts_rows_shown_and_omitted():
    t = Table.from_rows("t", "T", [Column("a", "A", "int")], [(i,) for i in range(10)], limit=3)
    assert (t.rows_shown, t.rows_omitted, t.rows_total) == (3, 7, 10)
    assert t.to_records() == [{"a": 0}, {"a": 1}, {"a": 2}]
    assert list(t.to_frame().columns) == ["A"]


def test_table_rejects_ragged_rows_and_unknown_kinds():
    with pytest.raises(ValueError, match="2 cells but there are 1 columns"):
        Table.from_rows("t", "T", [Column("a", "A")], [(1, 2)])
    with pytest.raises(ValueError, match="'kind' parameter of Column"):
        Column("a", "A", "colour")


def test_model_objects_are_frozen():
    t = Table.from_rows("t", "T", [Column("a", "A")], [])
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.title = "other"


def test_limits_must_be_positive_integers():
    with pytest.raises(ValueError, match="'table_rows' parameter of Limits"):
        Limits(table_rows=0)


def test_report_has_every_section_in_order():
    rep = _build()
    assert [s.id for s in rep.sections] == SECTIONS
    assert rep.version
    assert rep.config["hallucination"]["fail_above"] == 0.5


def test_summary_counts_and_verdict_mix_add_up():
    rep = _build(n_scored=300, n_judged=34)
    summary = rep.section("summary")
    stats = {s.label: s.value for s in summary.blocks[0].items}
    assert stats["Records"] == 334
    assert stats["Scored responses"] == 300
    assert stats["Judged module outputs"] == 34
    verdicts = next(t for t in summary.tables() if t.id == "scored-verdicts")
    assert sum(r["records"] for r in verdicts.to_records()) == 300
    assert sum(r["share"] for r in verdicts.to_records()) == pytest.approx(1.0)
    assert {f.id for f in summary.figures()} >= {"score-distributions",
                                                 "judge-total-distribution"}
    for f in summary.figures():
        assert f.svg.startswith("<svg") and "<script" not in f.svg


def test_score_statistics_come_from_the_records():
    recs = [{"id": str(i), "relevance": v, "completeness": 1.0, "hallucination": 0.0,
             "verdict": "PASS"} for i, v in enumerate([0.0, 0.25, 0.5, 0.75, 1.0])]
    rep = report_from_records(scored=recs)
    stats = next(t for t in rep.section("summary").tables() if t.id == "score-stats")
    rel = next(r for r in stats.to_records() if r["score"] == "relevance")
    assert rel["n"] == 5
    assert rel["mean"] == pytest.approx(0.5)
    assert rel["median"] == pytest.approx(0.5)
    assert (rel["min"], rel["max"]) == (0.0, 1.0)


def test_anchor_counts_leave_query_restatements_out_as_the_cli_does():
    anchors = [{"kind": "number", "supported": True},
               {"kind": "number", "supported": False},
               {"kind": "number", "supported": True, "counted": False},
               {"kind": "claim", "supported": False},
               {"kind": "date", "supported": True, "counted": False}]
    rec = {"id": "1", "relevance": 0.5, "completeness": 1.0, "hallucination": 0.67,
           "verdict": "FAIL", "anchors": anchors}
    rep = report_from_records(scored=[rec])
    table = next(t for t in rep.section("summary").tables() if t.id == "anchor-kinds")
    got = {r["kind"]: (r["anchors"], r["unsupported"], r["share"], r["not_counted"])
           for r in table.to_records()}
    assert got == {"claim": (1, 1, 1.0, 0), "date/time": (0, 0, None, 1),
                   "number": (2, 1, 0.5, 1)}


def test_long_tables_are_limited_with_a_count_of_what_was_left_out():
    rep = _build(n_scored=500, table_rows=25, worst_cases=5)
    worst = rep.section("worst")
    table = worst.tables()[0]
    assert table.rows_shown == 25
    assert table.rows_omitted == 475
    cases = [b for b in worst.blocks if isinstance(b, Case)]
    assert len(cases) == 5


def test_worst_cases_are_fail_first_then_most_hallucinated():
    recs = [
        {"id": "pass", "relevance": 0.9, "completeness": 1.0, "hallucination": 0.0,
         "verdict": "PASS"},
        {"id": "warn", "relevance": 0.9, "completeness": 0.2, "hallucination": 0.0,
         "verdict": "WARN"},
        {"id": "fail-low", "relevance": 0.9, "completeness": 1.0, "hallucination": 0.6,
         "verdict": "FAIL"},
        {"id": "fail-high", "relevance": 0.9, "completeness": 1.0, "hallucination": 1.0,
         "verdict": "FAIL"},
    ]
    rep = report_from_records(scored=recs)
    ids = [r["id"] for r in rep.section("worst").tables()[0].to_records()]
    assert ids == ["fail-high", "fail-low", "warn", "pass"]


def test_equal_worst_cases_keep_input_order():
    recs = [{"id": f"r{i}", "relevance": 0.5, "completeness": 1.0, "hallucination": 1.0,
             "verdict": "FAIL"} for i in range(10)]
    b = ReportBuilder(limits=Limits(table_rows=3, worst_cases=3))
    for r in recs:
        b.add_scored(r)
    ids = [r["id"] for r in b.build().section("worst").tables()[0].to_records()]
    assert ids == ["r0", "r1", "r2"]


def test_case_texts_are_cut_and_anchors_outside_the_cut_dropped():
    response = "It costs $10. " + "x" * 5000 + " Released in 2019."
    far = response.index("2019")
    rec = {"id": "long", "query": "q", "context": "c" * 4000, "response": response,
           "relevance": 0.5, "completeness": 1.0, "hallucination": 1.0, "verdict": "FAIL",
           "anchors": [
               {"kind": "number", "text": "$10", "start": 9, "end": 12, "supported": True,
                "evidence": "$10", "evidence_start": 0, "evidence_end": 3},
               {"kind": "date", "text": "2019", "start": far, "end": far + 4,
                "supported": False, "evidence": None}]}
    rep = report_from_records(scored=[rec], limits=Limits(text_chars=1000))
    case = next(b for b in rep.section("worst").blocks if isinstance(b, Case))
    assert len(case.response) == 1000
    assert case.response_cut == len(response) - 1000
    assert case.context_cut == 3000
    assert [a["text"] for a in case.anchors] == ["$10"]
    assert case.anchors_cut == 1


def test_judge_modules_section_counts_rules_and_issues():
    rep = _build(n_scored=0, n_judged=17 * 20)
    mods = rep.section("modules")
    table = next(t for t in mods.tables() if t.id == "modules")
    rows = table.to_records()
    assert len(rows) == 17
    assert all(r["records"] == 20 for r in rows)
    assert all(r["pass"] + r["fail"] + r["errors"] == 20 for r in rows)
    rules = next(t for t in mods.tables() if t.id == "rule-violations")
    assert rules.rows_total == 17 * 4
    for r in rules.to_records():
        assert 0 <= r["violations"] <= r["assessed"]
    failing = next(t for t in mods.tables() if t.id == "failing")
    totals = [r["total"] for r in failing.to_records()]
    assert totals == sorted(totals)


def test_llm_judge_disagreements_are_counted():
    base = {"module": "M04", "evaluation": {"correctness": {"score": 40}}, "total_score": 90,
            "verdict": "PASS", "issues": []}
    recs = [dict(base, id="a", judge={"verdict": "PASS"}),
            dict(base, id="b", judge={"verdict": "FAIL"},
                 issues=["verdict: the judge says FAIL, recomputed PASS"]),
            dict(base, id="c")]
    rep = report_from_records(judged=recs)
    row = next(t for t in rep.section("modules").tables()
               if t.id == "module-scores").to_records()[0]
    assert (row["llm_judged"], row["llm_disagree"], row["with_issues"]) == (2, 1, 1)


def test_calibration_appears_only_with_labels():
    unlabelled = report_from_records(scored=list(scored_records(50, labelled_every=0)))
    cal = unlabelled.section("calibration")
    assert cal.tables() == [] and "No human labels" in cal.blocks[0].text
    labelled = report_from_records(scored=list(scored_records(60, labelled_every=1)))
    cal = labelled.section("calibration")
    ids = {t.id for t in cal.tables()}
    assert {"calibration-areas", "thresholds", "verdict-confusion"} <= ids
    sources = {r["source"] for r in next(t for t in cal.tables()
                                         if t.id == "thresholds").to_records()}
    assert sources == {"spec", "youden", "f1"}
    assert any(isinstance(b, Figure) and b.id == "curves-hallucination" for b in cal.blocks)


def test_calibration_numbers_come_from_evaltools_calibration():
    from evaltools import calibration

    recs = list(scored_records(400, labelled_every=1))
    rep = report_from_records(scored=recs, limits=Limits(recommend_records=1))
    areas = next(t for t in rep.section("calibration").tables()
                 if t.id == "calibration-areas").to_records()
    expected = calibration.roc([r["label_hallucinated"] for r in recs],
                               [r["hallucination"] for r in recs]).auc
    assert areas[0]["roc_auc"] == pytest.approx(expected)
    conf = next(t for t in rep.section("calibration").tables() if t.id == "verdict-confusion")
    agreement = calibration.verdict_agreement([r["label_verdict"] for r in recs],
                                              [r["verdict"] for r in recs])
    assert [row[1:4] for row in conf.rows] == [tuple(r) for r in agreement.confusion]


def test_one_class_labels_give_a_sentence_not_an_error():
    recs = [dict(r, label_hallucinated=0) for r in scored_records(30, labelled_every=1)]
    cal = report_from_records(scored=recs).section("calibration")
    assert any(getattr(b, "text", "").startswith("hallucination vs hallucinated: the labels "
                                                  "hold one class") for b in cal.blocks)


def test_recommended_thresholds_are_skipped_above_the_limit():
    recs = list(scored_records(60, labelled_every=1))
    rep = report_from_records(scored=recs, limits=Limits(recommend_records=50))
    t = next(t for t in rep.section("calibration").tables() if t.id == "thresholds")
    assert {r["source"] for r in t.to_records()} == {"spec"}
    assert "at most 50 labelled records" in t.note


def test_error_records_are_counted_and_listed():
    recs = [{"id": "bad", "error": "field 'response' is missing", "verdict": None,
             "relevance": None},
            {"id": "ok", "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0,
             "verdict": "PASS"}]
    rep = report_from_records(scored=recs)
    summary = rep.section("summary")
    stats = {s.label: s.value for s in summary.blocks[0].items}
    assert stats["Invalid records"] == 1
    errors = next(t for t in summary.tables() if t.id == "invalid-records")
    assert errors.to_records()[0]["error"] == "field 'response' is missing"


def test_empty_inputs_give_a_report_that_says_so():
    rep = report_from_records()
    assert "no records" in rep.section("summary").blocks[1].text
    assert rep.to_html().count("<section") == len(SECTIONS)


def test_helpers():
    assert clip("abcdef", 4) == "abc…"
    assert describe([1.0, 3.0])["mean"] == 2.0


def test_malformed_anchors_do_not_break_a_case():
    rec = {"id": "odd", "response": "It costs $10.", "context": "$10", "relevance": 0.5,
           "completeness": 1.0, "hallucination": 1.0, "verdict": "FAIL",
           "anchors": ["not an anchor",
                       {"kind": "number", "text": "$10", "start": True, "end": 12,
                        "supported": True},
                       {"kind": "date", "text": "2019", "start": 400, "end": 404,
                        "supported": False, "evidence_start": -1, "evidence_end": 2}]}
    rep = report_from_records(scored=[rec])
    case = next(b for b in rep.section("worst").blocks if isinstance(b, Case))
    assert [a["start"] for a in case.anchors] == [None, None]
    page = case._repr_html_()
    assert "<mark" not in page and "2019" in page


def test_unsupported_spans_are_drawn_as_span_marks_within_the_cut():
    response = "It costs $10 and comes in a gift box. " + "x" * 2000 + " Blue."
    rec = {"id": "spans", "query": "q", "context": "It costs $10.", "response": response,
           "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0, "support": 0.6,
           "verdict": "PASS", "anchors": [],
           "unsupported_spans": [
               {"text": "comes in a gift box", "start": 17, "end": 36, "weight": 1.2,
                "closest": "It costs $10.", "closest_start": 0, "closest_end": 13},
               {"text": "Blue", "start": len(response) - 5, "end": len(response) - 1,
                "weight": 0.4, "closest": None},
               "not a span"]}
    rep = report_from_records(scored=[rec], limits=Limits(text_chars=1000))
    case = next(b for b in rep.section("worst").blocks if isinstance(b, Case))
    assert [(a["kind"], a["text"]) for a in case.anchors] == [("span", "comes in a gift box")]
    assert ("support", 0.6) in case.fields
    page = case._repr_html_()
    assert "evaltools-kind-span" in page and "closest context sentence" in page


def test_agreement_with_human_labels_stands_next_to_the_response_verdicts():
    labelled = report_from_records(scored=list(scored_records(60, labelled_every=1)))
    blocks = list(labelled.section("summary").blocks)
    at = next(i for i, blk in enumerate(blocks) if getattr(blk, "id", "") == "scored-verdicts")
    note = blocks[at + 1]
    assert isinstance(note, Text)
    assert "verdicts agree with human labels on " in note.text and "kappa" in note.text
    assert "evaltools calibrate" in note.text
    unlabelled = report_from_records(scored=list(scored_records(60, labelled_every=0)))
    assert not any("human labels" in getattr(blk, "text", "")
                   for blk in unlabelled.section("summary").blocks)


def test_a_report_built_from_parts_is_the_report_of_all(monkeypatch):
    """ReportStats.merge: one builder a part, merged in order, renders the same page."""
    from report_synth import judged_records, scored_records

    from evaltools.report import render_html
    from evaltools.report.build import ReportBuilder

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    scored = list(scored_records(300, seed=3))
    judged = list(judged_records(200, seed=4))
    scored[7] = {"id": "bad-1", "error": "field 'query' is missing"}
    judged[150] = {"id": "bad-2", "module": "M01", "error": "field 'output' is missing"}
    whole = ReportBuilder()
    for rec in scored:
        whole.add_scored(rec)
    for rec in judged:
        whole.add_judged(rec)
    parts = [ReportBuilder() for _ in range(3)]
    for i, rec in enumerate(scored):
        parts[0 if i < 120 else 1].add_scored(rec)
    for i, rec in enumerate(judged):
        parts[1 if i < 50 else 2].add_judged(rec)
    merged = parts[0]
    merged.merge(parts[1])
    merged.merge(parts[2])
    assert (merged.n_scored, merged.scored_errors, merged.n_judged) == (300, 1, 200)
    assert render_html(merged.build()) == render_html(whole.build())
