"""Per-module audit summaries: hand-built records with known answers, and the sample data."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

import evaltools
from evaltools.judging.module_audit import (
    module_audit,
    modules_overview,
)
from evaltools.judging.registry import load_registry
from evaltools.plots import plot_module_audit

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "judgments.jsonl"
REG = load_registry()

GOOD = {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}


def judge_json(*, total, verdict, rules=(True, True, True, True), corr=40, match=True,
               reasoning=20):
    return {"evaluation": {
        "correctness": {"score": corr, "output_value": "-", "expected_value": "-",
                        "match": match, "details": "-"},
        "rule_compliance": {"score": 10 * sum(rules), "rules": [
            {"name": f"r{i}", "compliant": c, "score": 10 * c, "evidence": "-"}
            for i, c in enumerate(rules)]},
        "reasoning_quality": {"score": reasoning, "chain_of_thought": 8, "evidence_usage": 8,
                              "confidence_calibration": 4}},
        "total_score": total, "verdict": verdict, "summary": "-",
        "improvement_suggestions": []}


@pytest.fixture(scope="module")
def m15():
    recs = [
        # right, judge right
        {"id": "a", "module": "M15", "output": True, "expected": True,
         "judge": judge_json(total=100, verdict="PASS")},
        # wrong output; the judge says correct (correctness and verdict wrong)
        {"id": "b", "module": "M15", "output": False, "expected": True,
         "judge": judge_json(total=100, verdict="PASS")},
        # judge's arithmetic wrong: sections sum to 90, it says 95
        {"id": "c", "module": "M15", "output": True, "expected": True,
         "judge": judge_json(total=95, verdict="PASS", rules=(True, True, True, False))},
        # no judge; rules given by a person
        {"id": "d", "module": "M15", "output": "no", "expected": False,
         "rules": [False, True, True, True], "reasoning": GOOD},
        {"id": "x", "module": "M02", "output": "OWN", "expected": "OWN"},
    ]
    return module_audit(recs, "M15")


def test_counts_and_correctness_mix(m15):
    assert m15.n_records == 4 and m15.n_with_judge == 3
    mix = m15.correctness_mix()
    assert mix["count"].to_dict() == {"YES": 3, "NO": 1}
    assert mix["share"].to_dict() == {"YES": 0.75, "NO": 0.25}
    assert m15.match_rate() == 0.75
    conf = m15.confusion()
    assert conf.loc["true", "true"] == 2 and conf.loc["true", "false"] == 1
    assert conf.loc["false", "false"] == 1
    assert "no F1" in m15.f1_summary()["note"][0]


def test_rule_violations_judge_vs_evaltools(m15):
    rv = m15.rule_violations().set_index("rule")
    r1, r4 = rv.loc["1. Same Primary Use"], rv.loc["4. Quality Tier"]
    assert r1["violated"] == 1 and r1["assessed"] == 4     # d's person says violated
    assert r1["judge_violated"] == 0 and r1["judge_assessed"] == 3
    assert r4["judge_violated"] == 1 and r4["judge_violation_rate"] == pytest.approx(1 / 3,
                                                                                      abs=1e-3)
    assert list(rv["description"]) == [r.description for r in REG.module("M15").rules]


def test_judge_overview_and_findings(m15):
    o = m15.judge_overview()
    assert o["judged"] == 3
    assert o["arithmetic_wrong"] == 1                      # c: 95 != 90
    assert o["correctness_wrong"] == 1                     # b
    assert o["verdict_differs"] == 1                       # b: PASS vs evaltools FAIL
    assert o["with_findings"] == 2
    assert o["total_gap_max"] == 40                        # b: judge 100, evaltools 60
    assert o["total_gap_mean"] == pytest.approx((0 + 40 + 5) / 3, abs=0.01)
    assert o["format_broken"] == 0
    codes = set(m15.judge_findings()["code"])
    assert {"total_mismatch", "correctness_mismatch", "verdict_differs"} <= codes
    by_rec = m15.judge_findings_by_record()
    assert set(by_rec["id"]) == {"b", "c"}


def test_failing_examples(m15):
    f = m15.failing()
    assert f["id"].tolist() == ["b"]
    assert f.loc[0, "judge_verdict"] == "PASS" and f.loc[0, "verdict"] == "FAIL"
    assert "Incorrect output" in f.loc[0, "why"]


def test_reasoning_spread(m15):
    rs = m15.reasoning_spread().set_index("sub_score")
    assert rs.loc["chain_of_thought", "max"] == 8
    assert rs.loc["reasoning total", "count"] == 4
    assert rs.loc["reasoning total", "mean"] == 20.0
    assert m15.reasoning_bands()["excellent"] == 4


def test_extraction_f1_and_classification_confusion():
    recs = [{"module": "M05", "output": ["a", "b"], "expected": ["a", "b"]},
            {"module": "M05", "output": ["a"], "expected": ["a", "b"]},
            {"module": "M05", "output": ["c"], "expected": ["a"]}]
    a = module_audit(recs, "M05")
    assert a.f1_values().round(4).tolist() == [1.0, 0.6667, 0.0]
    f1 = a.f1_summary()["f1"]
    assert f1["count"] == 3 and f1["credit full"] == 1 and f1["credit partial"] == 1
    assert a.correctness_mix()["count"].to_dict() == {"EXACT": 1, "PARTIAL": 1, "NONE": 1}
    assert "no confusion matrix" in a.confusion()["note"][0]
    c = module_audit([{"module": "M12b", "output": "S", "expected": "R"},
                      {"module": "M12b", "output": "Q", "expected": "R"}], "M12b").confusion()
    assert list(c.columns) == ["R", "S", "C", "N", "Q"] and c.loc["R", "S"] == 1


@pytest.mark.parametrize("mid", list(REG.modules))
def test_sample_data_every_module(mid):
    a = module_audit(DATA, mid)
    assert a.n_records >= 5
    # the audit's numbers are the judge calculators' numbers
    recs = [json.loads(x) for x in DATA.read_text().splitlines() if x.strip()]
    mine = [r for r in recs if r["module"] == mid]
    assert [r.total_score for r in a.results] == [evaltools.judge(r).total_score for r in mine]
    d = a.to_dict()
    json.dumps(d)
    assert d["module"] == mid and len(d["rule_violations"]) == 4
    fig = plot_module_audit(a)
    assert len(fig.axes) == 3
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_modules_overview_matches_each_module_audit():
    ov = modules_overview(DATA).set_index("module")
    assert list(ov.index) == list(REG.ids)
    for mid in ("M01", "M02", "M15"):
        a = module_audit(DATA, mid)
        o = a.judge_overview()
        assert ov.loc[mid, "records"] == a.n_records
        assert ov.loc[mid, "match_rate"] == a.match_rate()
        assert ov.loc[mid, "arithmetic_wrong"] == o["arithmetic_wrong"]
        assert ov.loc[mid, "verdict_differs"] == o["verdict_differs"]
    assert ov["records"].sum() == len(DATA.read_text().splitlines())


def test_dataframe_input_and_unknown_module():
    df = pd.read_json(DATA, lines=True)
    assert module_audit(df, "M02").n_records == module_audit(DATA, "M02").n_records
    with pytest.raises(KeyError, match="unknown module 'M99'"):
        module_audit(df, "M99")


@pytest.mark.slow
def test_run_module_audits_script(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_module_audits.py"),
                           "--modules", "M02", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    nb = json.loads((tmp_path / "03_module_audit_M02.ipynb").read_text())
    text = json.dumps(nb)
    assert "M02 Brand Classification" in text and "injected-parameters" in text
    assert (tmp_path / "03_module_audit_M02.html").exists()
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert summary["module"].tolist() == ["M02"] and summary.loc[0, "records"] == 6
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_module_audits.py"),
                          "--modules", "M99", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown module(s) M99" in bad.stderr


def test_overview_pass_rate_sits_by_pass_and_both_rates_are_defined(capsys):
    """Before: 'match_rate 16.7 %' stood beside 'pass 5' for M01 while the report said
    'Pass rate 83.3 %': two metrics, similar names, no definition on screen."""
    import importlib.util

    from evaltools.judging.module_audit import OVERVIEW_COLUMNS

    ov = modules_overview(DATA).set_index("module")
    m01 = ov.loc["M01"]
    # M01 in data/judgments.jsonl: 6 records, 5 PASS -> 5/6 = 0.833; 1 of 6 exact -> 0.167
    assert (m01["records"], m01["pass"], m01["pass_rate"], m01["match_rate"]) == (
        6, 5, 0.833, 0.167)
    cols = list(ov.columns)
    assert cols.index("pass_rate") == cols.index("fail") + 1
    assert set(OVERVIEW_COLUMNS) == {"pass_rate", "match_rate"}
    spec = importlib.util.spec_from_file_location(
        "run_module_audits", Path(__file__).resolve().parent.parent / "scripts"
        / "run_module_audits.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    import argparse
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        script._write_overview(argparse.Namespace(data=None, modules=["M01"]), Path(d))
    out = capsys.readouterr().out
    assert "83.3%" in out and "16.7%" in out
    assert "pass_rate: share of records whose verdict is PASS" in out
    assert "match_rate: share of records whose output matches the expected one" in out
