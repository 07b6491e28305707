"""The report's size bound: 100k records, and records built to be as large as possible."""

from __future__ import annotations

import time

import pytest
from report_synth import judged_records, scored_records

from evaltools.report import ReportBuilder
from evaltools.report.model import MAX_REPORT_BYTES, Case

BIG = 'é<b>&"' * 12_500  # 50,000 characters, each one escaped in HTML


@pytest.mark.slow  # 6 s alone: 100k records
def test_100k_records_stay_small_and_usable():
    started = time.perf_counter()
    b = ReportBuilder()
    for rec in scored_records(100_000, labelled_every=10):
        b.add_scored(rec, source="runs.jsonl", line=1)
    for rec in judged_records(20_000):
        b.add_judged(rec, source="judgments.jsonl", line=1)
    report = b.build()
    page = report.to_html().encode()
    elapsed = time.perf_counter() - started
    assert len(page) < 1_000_000, f"{len(page):,} bytes"
    assert len(page) < MAX_REPORT_BYTES
    assert elapsed < 60, f"{elapsed:.1f} s"
    worst = report.section("worst").tables()[0]
    assert worst.rows_shown == 100 and worst.rows_omitted == 99_900
    assert b"99,900 more rows not shown" in page
    assert sum(isinstance(x, Case) for x in report.section("worst").blocks) == 20


def _huge_scored(n):
    for i, rec in enumerate(scored_records(n, labelled_every=5)):
        rec.update(id="x" * 5_000 + str(i), query=BIG, context=BIG, response=BIG,
                   hallucination=1.0, verdict="FAIL", reasons=[BIG] * 10,
                   missing_keywords=[BIG] * 5,
                   anchors=[{"kind": "claim", "text": BIG, "start": k, "end": 2_000 - k,
                             "supported": k % 2 == 0, "evidence": BIG, "evidence_start": k,
                             "evidence_end": 2_000 - k, "note": BIG} for k in range(200)])
        yield rec


def _huge_judged(n):
    for i, rec in enumerate(judged_records(n)):
        rec.update(id="j" * 5_000 + str(i), issues=[BIG] * 20, summary=BIG, verdict="FAIL")
        rec["evaluation"]["correctness"]["output_value"] = [BIG] * 3
        rec["evaluation"]["correctness"]["expected_value"] = [BIG] * 3
        for rule in rec["evaluation"]["rule_compliance"]["rules"]:
            rule["name"] = BIG
        yield rec


def test_the_size_bound_holds_for_records_built_to_be_huge():
    b = ReportBuilder()
    for rec in _huge_scored(150):
        b.add_scored(rec, source="s" * 300 + ".jsonl", line=1)
    for rec in _huge_judged(150):
        b.add_judged(rec, source="j.jsonl", line=1)
    page = b.build().to_html().encode()
    assert len(page) < MAX_REPORT_BYTES, f"{len(page):,} bytes"
