"""The CI gate: ``evaltools check`` exit codes and lines, and the pytest plugin in a real run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaltools.cli import main
from evaltools.gate import check_records

ROOT = Path(__file__).resolve().parent.parent
Q, C = "What does the mug cost?", "The mug costs $5 and holds 350 ml."
GOOD, BAD = "The mug costs $5.", "The mug costs $7."


def _write(path, responses, ids=None):
    rows = [{"id": i, "query": Q, "context": C, "response": r}
            for i, r in zip(ids or [f"r{n}" for n in range(len(responses))], responses,
                            strict=True)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_each_condition_by_hand():
    run = [{"id": "a", "verdict": "PASS", "relevance": 0.9, "hallucination": 0.0},
           {"id": "b", "verdict": "WARN", "relevance": 0.6, "hallucination": 0.0},
           {"id": "c", "verdict": "FAIL", "relevance": 0.3, "hallucination": 1.0},
           {"id": "d", "verdict": "PASS", "relevance": 0.6, "hallucination": 0.2},
           {"id": "e", "error": "bad"}]
    # FAIL share 1/4 = 25%; mean relevance (0.9+0.6+0.3+0.6)/4 = 0.6; hallucination 0.3
    assert check_records(run, max_fail=0.25).passed
    g = check_records(run, max_fail=0.2, min_mean={"relevance": 0.61},
                      max_mean={"hallucination": 0.25})
    assert (g.records, g.invalid, g.conditions) == (4, 1, 3)
    assert g.lines() == [
        "FAIL share 25.0% (1 of 4 records) is above the limit 20.0% (--max-fail)",
        "mean relevance 0.600 is below the limit 0.61 (--min-mean)",
        "mean hallucination 0.300 is above the limit 0.25 (--max-mean)"]
    assert check_records(run, min_mean={"relevance": 0.6}).passed  # not below
    ref = [{"id": "a", "verdict": "PASS"}, {"id": "b", "verdict": "PASS"},
           {"id": "c", "verdict": "WARN"}, {"id": "d", "verdict": "FAIL"}]
    assert check_records(run, reference=ref).lines() == [
        "2 verdicts worse than in the reference run: b PASS→WARN, c WARN→FAIL"]
    probs = [{**r, "hallucination_probability": p}
             for r, p in zip(run[:4], (0.1, 0.85, 0.95, 0.8), strict=True)]
    assert check_records(probs, max_probability=0.8).lines() == [
        "2 records with hallucination probability above 0.8: c (0.95), b (0.85)"]
    assert check_records(run, min_mean={"support": 0.5}).lines() == [
        "no record has score 'support', so its mean cannot be checked (--min-mean)"]
    assert check_records([], max_fail=1).lines() == ["no valid record to check"]


def test_cli_check_exit_codes_and_one_line_per_condition(tmp_path, capsys):
    good = _write(tmp_path / "good.jsonl", [GOOD, GOOD, GOOD, GOOD])
    bad = _write(tmp_path / "bad.jsonl", [GOOD, BAD, GOOD, BAD])
    assert main(["check", str(good), "--max-fail", "0"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == f"evaltools check: {good}: passed (4 records)" and err == ""
    assert main(["check", str(bad), "--max-fail", "0.25", "--reference", str(good),
                 "--min-mean", "relevance=0.01", "--max-probability", "0.99"]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "evaltools check: FAIL share 50.0% (2 of 4 records) is above the limit 25.0% "
        "(--max-fail)",
        "evaltools check: 2 verdicts worse than in the reference run: r1 PASS→FAIL, "
        "r3 PASS→FAIL"]
    assert "failed 2 of 4 conditions" in out
    # no limit: bad usage (2); a bad limit: argparse (2)
    assert main(["check", str(good)]) == 2
    assert "give at least one limit" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["check", str(good), "--min-mean", "relevance"])
    assert exc.value.code == 2
    assert "is not SCORE=VALUE" in capsys.readouterr().err


def test_cli_check_reads_scored_output_and_csv_with_map(tmp_path, capsys):
    bad = _write(tmp_path / "bad.jsonl", [GOOD, BAD])
    scored = tmp_path / "scored.jsonl"
    assert main(["score", str(bad), "-o", str(scored), "-q", "--no-progress"]) == 0
    assert main(["check", str(scored), "--max-fail", "0.4"]) == 1
    assert "FAIL share 50.0% (1 of 2 records)" in capsys.readouterr().err
    csv = tmp_path / "qa.csv"
    csv.write_text(f'question,context,answer\n"{Q}","{C}","{GOOD}"\n', encoding="utf-8")
    assert main(["check", str(csv), "--map", "question=query,answer=response",
                 "--max-fail", "0"]) == 0


SAMPLE = '''
import pytest
from evaltools.pytest_plugin import assert_grounded

Q, C = "What does the mug cost?", "The mug costs $5 and holds 350 ml."


def test_grounded():
    assert_grounded("The mug costs $5.", C, Q)


def test_made_up_price():
    assert_grounded("The mug costs $7.", C, Q)


def test_fixture(evaltools_grounded):
    evaltools_grounded("The mug costs $5.", C, Q, max_hallucination=0.0)


@pytest.mark.evaltools_check("run.jsonl", max_fail=0.25)
def test_run_above_the_bar():
    pass
'''


def _pytest(tmp_path, run_responses, sample=SAMPLE):
    _write(tmp_path / "run.jsonl", run_responses)
    (tmp_path / "test_sample.py").write_text(sample, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    from importlib.metadata import entry_points

    installed = any(ep.name == "evaltools.pytest_plugin"
                    for ep in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "evaltools.pytest_plugin"]
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *plugin, "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_pytest_plugin_fails_and_passes_a_real_run(tmp_path):
    failing = _pytest(tmp_path, [GOOD, BAD, BAD, GOOD])
    assert failing.returncode == 1, failing.stdout + failing.stderr
    out = failing.stdout
    assert "2 failed, 2 passed" in out
    assert "FAILED test_sample.py::test_made_up_price" in out
    assert "response not grounded: verdict FAIL" in out and "number “$7”" in out
    assert "FAILED test_sample.py::test_run_above_the_bar" in out
    assert "FAIL share 50.0% (2 of 4 records) is above the limit 25.0%" in out
    passing = _pytest(tmp_path, [GOOD, GOOD, GOOD, BAD],
                      SAMPLE.replace("def test_made_up_price", "def _made_up_price"))
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "3 passed" in passing.stdout
