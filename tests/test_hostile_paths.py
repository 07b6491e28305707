"""Hostile input through the code paths that came after the first pass (issue 15).

Comparing runs (``report --reference``), the reports index, runs through parts
(several inputs, globs, folder outputs: the Dask code path, here in this
process) and the :class:`~evaltools.scoring.scorer.ResponseScorer` API get the
same guarantees as ``score``/``judge``/``report``: exit 0 or 2 with one line,
no input destroyed, limits from the config honoured, nothing echoed in full.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_input import one_error_line, run, write_lines

ROOT = Path(__file__).resolve().parent.parent
GOOD = {"id": "a", "query": "What does the mug cost?", "context": "The mug costs $12.",
        "response": "The mug costs $12."}
JUDGED = json.loads((ROOT / "data" / "judgments.jsonl").read_text("utf-8").splitlines()[0])
SCORED = {"id": "s", "query": "q", "context": "c", "response": "r", "relevance": 0.5,
          "completeness": 0.5, "hallucination": 0.2, "claims_score": 0.1, "ngram_overlap": 0.3,
          "drift_penalty": 0.0, "verdict": "PASS", "reasons": [], "anchors": [], "keywords": [],
          "error": None}


# ------------------------------------------ already-scored values, compare runs


@pytest.mark.parametrize("field, value, want", [
    ("relevance", 1.7e308, "field 'relevance' must be [0, 1], got 1.7e+308"),
    ("hallucination", -0.5, "field 'hallucination' must be [0, 1], got -0.5"),
    ("anchors_total", -3, "field 'anchors_total' must be at least 0, got -3"),
])
def test_scored_values_out_of_range_are_bad_input(tmp_path, capsys, field, value, want):
    src = write_lines(tmp_path / "scored.jsonl", [{**SCORED, field: value}])
    code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html")
    assert code == 2
    assert one_error_line(err) == f"evaltools report: error: scored.jsonl line 1: {want}"
    assert not (tmp_path / "r.html").exists()


def test_an_integer_beyond_the_float_range_is_bad_input(tmp_path, capsys):
    """Before: math.isfinite raised OverflowError on it (a traceback; found by Hypothesis)."""
    src = write_lines(tmp_path / "scored.jsonl", [{**SCORED, "relevance": 10**400}])
    code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html")
    assert code == 2
    line = one_error_line(err)
    assert line == ("evaltools report: error: scored.jsonl line 1: "
                    "field 'relevance' must be a finite number, got a 401-digit integer")
    assert not (tmp_path / "r.html").exists()
    # compared runs read the same way
    ref = write_lines(tmp_path / "ref.jsonl", [SCORED])
    code, _, err = run(capsys, "report", "--reference", ref, src, "-o", tmp_path / "d.html")
    assert code == 2 and "must be a finite number" in one_error_line(err)


def test_judged_total_out_of_range_is_bad_input(tmp_path, capsys):
    from evaltools.judging.api import judge

    rec = {**JUDGED, **judge(JUDGED).to_dict(), "total_score": 1e300}
    src = write_lines(tmp_path / "judged.jsonl", [rec])
    code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html")
    assert code == 2
    assert "field 'total_score' must be [0, 100], got 1e+300" in one_error_line(err)


def test_compare_runs_with_values_near_the_float_limit_is_no_traceback(tmp_path, capsys):
    """Before: the means overflowed to inf and the bootstrap raised (a traceback)."""
    huge = [{**SCORED, "id": f"s{i}", "relevance": 1.7e308} for i in range(5)]
    ref = write_lines(tmp_path / "ref.jsonl", huge)
    cur = write_lines(tmp_path / "cur.jsonl", huge)
    out = tmp_path / "diff.html"
    code, _, err = run(capsys, "report", "--reference", ref, cur, "-o", out)
    assert code == 2 and "must be [0, 1]" in one_error_line(err)
    code, _, err = run(capsys, "report", "--skip-invalid", "--reference", ref, cur, "-o", out)
    assert code == 0, err
    assert out.exists()


def test_compare_runs_api_with_overflowing_means_gives_no_interval():
    from evaltools.compare import compare_runs, difference_ci

    assert difference_ci([1.7e308] * 3, [1.7e308] * 3) is None
    rows = [{"id": str(i), "verdict": "PASS", "relevance": 1.7e308} for i in range(4)]
    # ids that do not match: the runs are compared apart and their means overflow
    other = [{**r, "id": f"x{r['id']}"} for r in rows]
    shift = compare_runs(rows, other, scores=("relevance",)).shifts[0]
    assert (shift.difference, shift.low, shift.high) == (None, None, None)
    # matched by id, each pair's difference is 0 (finite) although the means overflow
    shift = compare_runs(rows, rows, scores=("relevance",)).shifts[0]
    assert shift.paired and (shift.difference, shift.low, shift.high) == (0.0, 0.0, 0.0)
    assert shift.mean_reference is None


def test_reference_that_is_the_output_is_refused(tmp_path, capsys):
    ref = write_lines(tmp_path / "ref.jsonl", [SCORED])
    cur = write_lines(tmp_path / "cur.jsonl", [SCORED])
    link = tmp_path / "link.html"
    link.symlink_to(ref)
    code, _, err = run(capsys, "report", "--reference", ref, cur, "-o", link)
    assert code == 2 and "the output is this input file" in one_error_line(err)
    assert json.loads(ref.read_text("utf-8")) == SCORED


def test_verdict_and_module_are_echoed_cut_short(tmp_path, capsys):
    src = write_lines(tmp_path / "scored.jsonl", [{**SCORED, "verdict": "P" * 100_000}])
    code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html")
    assert code == 2 and len(one_error_line(err)) < 250 and "…" in err


# ------------------------------------------------------------ reports index


def test_index_links_cannot_become_a_scheme_and_the_page_cannot_post(tmp_path):
    from evaltools.report.index import render_index

    (tmp_path / "javascript:alert(1)diff.html").write_text("<p>x</p>")
    (tmp_path / "report.html").write_text("<p>x</p>")
    page = render_index(tmp_path)
    hrefs = sorted(part.split('"')[0] for part in page.split('href="')[1:])
    assert hrefs == ["./javascript%3Aalert%281%29diff.html", "./report.html"]
    assert "form-action 'none'" in page and "base-uri 'none'" in page
    assert "<script" not in page


# ------------------------------------------------- runs through parts (Dask)


def test_glob_input_that_names_the_output_is_refused(tmp_path, capsys):
    runs = tmp_path / "runs"
    write_lines(runs / "a.jsonl", [GOOD])
    b = write_lines(runs / "b.jsonl", [GOOD, "{not json"])
    before = b.read_bytes()
    code, _, err = run(capsys, "score", "--skip-invalid", str(runs / "*.jsonl"), "-o", b, "-q")
    assert code == 2 and "b.jsonl: the output is this input file" in one_error_line(err)
    assert b.read_bytes() == before


def test_folder_output_that_holds_an_input_is_refused(tmp_path, capsys):
    runs = tmp_path / "runs"
    a = write_lines(runs / "a.jsonl", [GOOD])
    (runs / "_SUCCESS").write_text("{}")              # looks like an earlier output
    code, _, err = run(capsys, "judge", a, "-o", f"{runs}/", "-q")
    assert code == 2 and "the output folder" in one_error_line(err)
    assert a.exists() and sorted(p.name for p in runs.iterdir()) == ["_SUCCESS", "a.jsonl"]


def test_several_inputs_to_csv_neutralise_formulas_and_csv_raw_keeps_them(tmp_path, capsys):
    a = write_lines(tmp_path / "a.jsonl", [{**GOOD, "id": "=1+1"}])
    b = write_lines(tmp_path / "b.jsonl", [{**GOOD, "id": "@cmd"}])
    out = tmp_path / "out.csv"
    assert run(capsys, "score", a, b, "-o", out, "-q")[0] == 0
    assert [r["id"] for r in _csv(out)] == ["'=1+1", "'@cmd"]
    assert run(capsys, "score", a, b, "-o", out, "-q", "--csv-raw")[0] == 0
    assert [r["id"] for r in _csv(out)] == ["=1+1", "@cmd"]


def _csv(path):
    import csv

    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("command", ["score", "judge"])
def test_parts_honour_the_configured_line_limit(tmp_path, capsys, command):
    """The plan and the workers read with the run's [input] limits, as one process does."""
    cfg = tmp_path / "limits.toml"
    cfg.write_text("[input]\nmax_line_bytes = 4096\n")
    good = GOOD if command == "score" else JUDGED
    long = {**good, "id": "long", "padding": "x" * 10_000}
    src = write_lines(tmp_path / "in.jsonl", [good, long, {**good, "id": "c"}])
    out = tmp_path / "out/"
    code, _, err = run(capsys, command, src, "-o", f"{out}/", "--config", cfg, "-q")
    assert code == 2
    assert one_error_line(err).endswith("in.jsonl line 2: the line is longer than 4,096 bytes "
                                        "(the [input] max_line_bytes limit); nothing past it "
                                        "was read")
    assert not out.exists()
    code, _, err = run(capsys, command, src, "-o", f"{out}/", "--config", cfg, "-q",
                       "--skip-invalid")
    assert code == 0, err
    from evaltools.io import read_records

    rows = [r for part in sorted(out.glob("part-*.parquet")) for _, r in read_records(part)]
    assert [bool(r["error"]) for r in rows] == [False, True, False]
    assert "longer than 4,096 bytes" in rows[1]["error"]


def test_parts_mark_deep_and_non_finite_lines_unreadable(tmp_path, capsys):
    lines = [GOOD, "[" * 100_000 + "]" * 100_000,
             '{"query": "q", "context": "c", "response": "r", "x": 1e400}',
             '{"query": "q", "context": "c", "response": "\\ud800"}']
    src = write_lines(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "score", src, src, "-o", out, "-q", "--skip-invalid")
    assert code == 0, err
    rows = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert [bool(r["error"]) for r in rows] == [False, True, True, True] * 2


def test_stale_staging_folder_of_a_killed_run_is_removed(tmp_path, capsys):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".out.{dead.pid}.abcd1234.part"
    stale.mkdir()
    (stale / "part-00000.parquet").write_bytes(b"half")
    src = write_lines(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, "score", src, "-o", f"{tmp_path / 'out'}/", "-q")
    assert code == 0, err
    assert not stale.exists()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["_SUCCESS",
                                                                    "part-00000.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out"]


@pytest.fixture
def tiny_fs(tmp_path):
    """A 64 KiB tmpfs (needs root and mount); skipped where that is not possible."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs needs root")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                       capture_output=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    yield mnt
    subprocess.run(["umount", str(mnt)], check=False)


@pytest.mark.slow  # 10 s alone: 300 records scored into a full file system
def test_full_disk_under_a_folder_output_is_one_line_and_leaves_nothing(tmp_path, capsys,
                                                                         tiny_fs):
    recs = [{**GOOD, "id": str(i), "response": f"The mug costs ${i}. " + f"x{i} " * 200}
            for i in range(300)]
    src = write_lines(tmp_path / "in.jsonl", recs)
    code, _, err = run(capsys, "score", src, "-o", f"{tiny_fs / 'out'}/", "-q",
                       "--partition-size", "100")
    assert code == 2
    assert "No space left on device" in one_error_line(err)
    assert list(tiny_fs.iterdir()) == []


# ------------------------------------------------------------ ResponseScorer


@pytest.mark.parametrize("response, want", [
    ("\ud800", "lone surrogate"),
    ("x" * 1_000_001, "1,000,000"),
])
def test_response_scorer_refuses_texts_spacy_cannot_take(response, want):
    from evaltools.errors import InputError
    from evaltools.scoring.scorer import ResponseScorer

    scorer = ResponseScorer()
    with pytest.raises(InputError, match=want):
        scorer.score("q", "c", response)
    results = list(scorer.score_records([{"query": "q", "context": "c", "response": response},
                                         GOOD], skip_invalid=True))
    assert want in results[0].error and results[1].error is None


def test_index_refuses_an_input_that_is_the_index_and_a_full_disk_is_one_line(
        tmp_path, capsys, tiny_fs):
    from evaltools.report.index import main as index_main

    (tmp_path / "index.html").write_text("keep")
    assert index_main([str(tmp_path), str(tmp_path / "index.html")]) == 2
    assert "the output is this input file" in one_error_line(capsys.readouterr().err)
    assert (tmp_path / "index.html").read_text() == "keep"
    (tiny_fs / "pad").write_bytes(b"x" * 60_000)
    big = tmp_path / "big.jsonl"
    big.write_text("x")
    for i in range(200):
        (tiny_fs / f"p{i}diff.html").write_text("")   # names fill the page, not the disk
    assert index_main([str(tiny_fs), str(big)]) == 2
    assert "No space left on device" in one_error_line(capsys.readouterr().err)
    assert not (tiny_fs / "index.html").exists()


# --------------------------------------------------------- -o - on a full disk


@pytest.mark.parametrize("command, src", [("score", None), ("judge", "data/judgments.jsonl")])
def test_stdout_on_a_full_disk_is_one_line(tmp_path, tiny_fs, command, src):
    if src is None:
        recs = [{**GOOD, "id": str(i), "response": "The mug costs $12. " + "x" * 400}
                for i in range(300)]
        src = write_lines(tmp_path / "in.jsonl", recs)
    with (tiny_fs / "out.jsonl").open("wb") as fh:
        r = subprocess.run([sys.executable, "-m", "evaltools", command, str(ROOT / src), "-o",
                            "-", "-q", "--no-progress"], stdout=fh, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert one_error_line(r.stderr) == (f"evaltools {command}: error: standard output: cannot "
                                        "write there (No space left on device); what was "
                                        "written is incomplete")


def test_integers_beyond_the_float_range_are_never_numbers_downstream():
    from evaltools.compare import _number
    from evaltools.report.html import _fmt, _sortkey
    from evaltools.report.stats import _num

    huge = 10**400
    assert [_number(v) for v in (1, "2.5", huge, -huge, True, None)] == [
        1.0, None, None, None, None, None]  # text is no number (CSV cells are restored first)
    assert _num(huge) is None and _num(3) == 3.0
    assert _sortkey(huge) == "" and _sortkey(2) == "2.0"
    assert _fmt(huge, "percent") == _fmt(huge, "int") == "a 401-digit integer"
