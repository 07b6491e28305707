"""Comparing two runs: core numbers by hand, then the CLI page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.compare import compare_runs, difference_ci

ROOT = Path(__file__).resolve().parent.parent


def test_shift_flips_and_module_deltas_by_hand():
    ref = [{"id": "a", "verdict": "PASS", "relevance": 0.2},
           {"id": "b", "verdict": "WARN", "relevance": 0.4},
           {"id": "c", "verdict": "FAIL", "relevance": 0.6},
           {"id": "m1", "module": "M04", "verdict": "PASS", "total_score": 80},
           {"id": "m2", "module": "M04", "verdict": "FAIL", "total_score": 60}]
    cur = [{"id": "a", "verdict": "FAIL", "relevance": 0.5,
            "reasons": ["hallucination 1.00 > 0.5 (safety first)"],
            "anchors": [{"kind": "number", "text": "$9", "supported": False}]},
           {"id": "b", "verdict": "PASS", "relevance": 0.7},
           {"id": "c", "verdict": "FAIL", "relevance": 0.9},
           {"id": "m1", "module": "M04", "verdict": "PASS", "total_score": 90},
           {"id": "m2", "module": "M04", "verdict": "PASS", "total_score": 70}]
    c = compare_runs(ref, cur, scores=("relevance",))
    (s,) = c.shifts
    # means 0.4 -> 0.7: difference 0.3
    assert s.mean_reference == pytest.approx(0.4) and s.mean_current == pytest.approx(0.7)
    assert s.difference == pytest.approx(0.3)
    assert s.low <= 0.3 <= s.high
    # a: PASS -> FAIL (worse, first), b: WARN -> PASS and m2: FAIL -> PASS (better); c same
    assert [(f.id, f.before, f.after, f.worse) for f in c.flips] == [
        ("a", "PASS", "FAIL", True), ("b", "WARN", "PASS", False),
        ("m2", "FAIL", "PASS", False)]
    assert c.flips[0].unsupported_after == ("number “$9”",)
    assert c.n_matched == 5
    (m,) = c.modules
    # M04 totals 80, 60 -> 90, 70: mean 70 -> 80; PASS rate 1/2 -> 2/2
    assert (m.mean_total_reference, m.mean_total_current, m.difference) == (70, 80, 10)
    assert (m.pass_rate_reference, m.pass_rate_current) == (0.5, 1.0)
    assert c.to_dict()["flips"][0]["worse"] is True


def test_difference_interval_excludes_zero_only_for_a_real_shift():
    same = difference_ci([0.1, 0.2, 0.3, 0.4] * 10, [0.1, 0.2, 0.3, 0.4] * 10)
    assert same[0] == 0 and same[1] < 0 < same[2]
    moved = difference_ci([0.1, 0.2, 0.3] * 20, [0.6, 0.7, 0.8] * 20)
    assert moved[0] == pytest.approx(0.5) and moved[1] > 0.4


@pytest.mark.slow
def test_cli_compare_two_runs(tmp_path, capsys):
    from evaltools.cli import main

    rows = [json.loads(line) for line in (ROOT / "data" / "responses.jsonl").read_text(
        encoding="utf-8").splitlines()[:12]]
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    extra = " It ships in 17 days and costs $999."
    changed = [dict(r, response=r["response"] + extra) if i == 0 else r
               for i, r in enumerate(rows)]
    new.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    out = tmp_path / "diff.html"
    assert main(["report", "--reference", str(old), str(new), "-o", str(out),
                 "--no-progress"]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'id="table-flips"' in page and 'id="table-shifts"' in page
    assert "number “&#36;999”" in page or "number “$999”" in page
    assert "95% interval" in page and "verdict flips" in capsys.readouterr().out

    from evaltools.report import compare_report

    again = compare_report(old, new)
    assert [s.id for s in again.sections] == ["alerts", "summary", "shift", "flips", "modules"]
    flips = again.section("flips").tables()[0]
    assert flips.rows[0][0] == rows[0]["id"]
