"""``evaltools report``: inputs of every kind, bad input as for score and judge, atomic output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_synth import judged_records, scored_records

from evaltools.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
GOOD = {"id": "a", "query": "How much is the Yeti Rambler?",
        "context": "The Yeti Rambler costs $35.", "response": "It costs $35."}


def _jsonl(path: Path, records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n"
                            for r in records), encoding="utf-8")
    return path


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _only(tmp_path: Path, *names: str) -> None:
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_report_over_already_scored_and_judged_files(tmp_path, capsys):
    scored = _jsonl(tmp_path / "scored.jsonl", scored_records(120))
    judged = _jsonl(tmp_path / "judged.jsonl", judged_records(40))
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()  # commands create no folders
    rc, stdout, _ = _run(capsys, "report", scored, judged, "-o", out)
    assert rc == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "scored responses: 120" in stdout and "judged module outputs: 40" in stdout
    import hashlib

    for f in (scored, judged):
        assert hashlib.sha256(f.read_bytes()).hexdigest() in page
    assert sorted(p.name for p in out.parent.iterdir()) == ["report.html"]


def test_report_scores_and_judges_raw_sample_data(tmp_path, capsys):
    out = tmp_path / "report.html"
    rc, _, err = _run(capsys, "report", DATA / "responses_small.csv",
                      DATA / "judgments.jsonl", "-o", out, "-q")
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    assert "recomputed scored: 12" in page
    assert "M12b" in page and 'id="table-rule-violations"' in page
    assert "evaltools-unsupported" in page or "evaltools-supported" in page


def test_empty_input_is_a_valid_report(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    rc, _, _ = _run(capsys, "report", empty, "-o", tmp_path / "r.html", "-q")
    assert rc == 0
    assert "The inputs hold no records." in (tmp_path / "r.html").read_text(encoding="utf-8")


BAD_SCORING = [
    ("missing.jsonl", [GOOD, {"id": "b", "query": "q", "context": "c"}],
     "missing.jsonl line 2: field 'response' is missing (required: query, context, response)"),
    ("wrongtype.jsonl", [GOOD, dict(GOOD, response=3)],
     "wrongtype.jsonl line 2: field 'response' must be a string, got int"),
    ("notjson.jsonl", [json.dumps(GOOD), "{not json"], "notjson.jsonl line 2: not valid JSON"),
    ("array.jsonl", [json.dumps(GOOD), "[1, 2]"],
     "array.jsonl line 2: a record must be a JSON object, got list"),
]


@pytest.mark.parametrize(("name", "lines", "message"), BAD_SCORING,
                         ids=[b[0] for b in BAD_SCORING])
def test_bad_scoring_input_stops_as_score_does(tmp_path, capsys, name, lines, message):
    bad = _jsonl(tmp_path / name, lines)
    target = tmp_path / "report.html"
    rc, _, err = _run(capsys, "report", bad, "-o", target)
    assert rc == 2
    assert err.startswith("evaltools report: error: ")
    assert message in err and "Traceback" not in err and err.count("\n") == 1
    _only(tmp_path, name)
    rc2, _, err2 = _run(capsys, "score", bad, "-o", tmp_path / "scored.jsonl")
    assert rc2 == 2
    assert err2.split("error: ", 1)[1] == err.split("error: ", 1)[1]


def test_bad_judging_input_stops_as_judge_does(tmp_path, capsys):
    bad = _jsonl(tmp_path / "j.jsonl", [{"id": "x", "module": "M04", "output": True}])
    rc, _, err = _run(capsys, "report", bad, "-o", tmp_path / "r.html")
    assert rc == 2 and "j.jsonl line 1: field 'expected'" in err
    rc2, _, err2 = _run(capsys, "judge", bad, "-o", tmp_path / "judged.jsonl")
    assert rc2 == 2
    assert err2.split("error: ", 1)[1] == err.split("error: ", 1)[1]
    _only(tmp_path, "j.jsonl")


@pytest.mark.parametrize(("record", "message"), [
    ({"id": "s", "relevance": "high", "verdict": "PASS"},
     "line 1: field 'relevance' must be a number or null, got str"),
    ({"id": "s", "relevance": 0.5, "verdict": "MAYBE"},
     "line 1: field 'verdict' must be PASS, WARN, FAIL or null, got 'MAYBE'"),
    ({"id": "j", "module": "M99", "total_score": 80, "verdict": "PASS"},
     "line 1: field 'module' must be one of M01, "),
    ({"id": "j", "module": "M04", "total_score": "80", "verdict": "PASS"},
     "line 1: field 'total_score' must be a number or null, got str"),
    ({"id": "n", "name": "no kind"}, "line 1: record is neither a scoring record"),
])
def test_bad_results_name_file_line_and_field(tmp_path, capsys, record, message):
    bad = _jsonl(tmp_path / "in.jsonl", [record])
    rc, _, err = _run(capsys, "report", bad, "-o", tmp_path / "r.html")
    assert rc == 2 and f"in.jsonl {message}" in err
    _only(tmp_path, "in.jsonl")


@pytest.mark.parametrize(("name", "content", "message"), [
    ("runs.txt", "hello", "unknown file type '.txt'"),
    ("rows.csv", "query,context,response\nq,c,r,extra\n", "rows.csv row 1: has 4 cells"),
])
def test_bad_files(tmp_path, capsys, name, content, message):
    bad = tmp_path / name
    bad.write_text(content)
    rc, _, err = _run(capsys, "report", bad, "-o", tmp_path / "r.html")
    assert rc == 2 and message in err
    _only(tmp_path, name)


def test_missing_file(tmp_path, capsys):
    rc, _, err = _run(capsys, "report", tmp_path / "nope.jsonl", "-o", tmp_path / "r.html")
    assert rc == 2 and "file not found" in err
    _only(tmp_path)


def test_a_failed_run_leaves_the_previous_report_untouched(tmp_path, capsys):
    target = tmp_path / "report.html"
    target.write_text("previous report")
    bad = _jsonl(tmp_path / "bad.jsonl", [GOOD, {"id": "b"}])
    rc, _, _ = _run(capsys, "report", bad, "-o", target)
    assert rc == 2
    assert target.read_text() == "previous report"
    _only(tmp_path, "bad.jsonl", "report.html")


def test_skip_invalid_reports_the_bad_records(tmp_path, capsys):
    scored = list(scored_records(5))
    bad = _jsonl(tmp_path / "mixed.jsonl",
                 [*scored, {"id": "broken", "query": "q", "context": "c"},
                  {"id": "j1", "module": "M99", "total_score": 1, "verdict": "FAIL"}])
    rc, _, err = _run(capsys, "report", bad, "-o", tmp_path / "r.html", "--skip-invalid", "-q")
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "field &#39;response&#39; is missing" in page
    assert "field &#39;module&#39; must be one of" in page


def test_output_must_be_html_and_not_an_input(tmp_path, capsys):
    src = _jsonl(tmp_path / "s.jsonl", scored_records(2))
    rc, _, err = _run(capsys, "report", src, "-o", tmp_path / "r.json")
    assert rc == 2 and "ending in .html" in err
    rc, _, err = _run(capsys, "report", src, "--max-rows", "0", "-o", tmp_path / "r.html")
    assert rc == 2 and "'table_rows' parameter of Limits" in err
    _only(tmp_path, "s.jsonl")


def test_score_and_judge_outputs_in_any_format_give_the_same_report(tmp_path, capsys):
    from evaltools.report import build_report

    for ext in ("jsonl", "csv", "parquet"):
        assert main(["score", str(DATA / "responses_small.csv"), "-o",
                     str(tmp_path / f"s.{ext}"), "-q"]) == 0
        assert main(["judge", str(DATA / "judgments.jsonl"), "-o",
                     str(tmp_path / f"j.{ext}"), "-q"]) == 0
    capsys.readouterr()
    reports = {ext: build_report([tmp_path / f"s.{ext}", tmp_path / f"j.{ext}"])
               for ext in ("jsonl", "csv", "parquet")}
    def rows(t):  # the file name differs by format; everything else must not
        keep = [i for i, c in enumerate(t.columns) if c.key != "source"]
        return [tuple(row[i] for i in keep) for row in t.rows]

    for sid in ("summary", "modules", "worst", "calibration"):
        tables = {ext: [(t.id, rows(t)) for t in r.section(sid).tables()]
                  for ext, r in reports.items()}
        assert tables["csv"] == tables["jsonl"], sid
        assert tables["parquet"] == tables["jsonl"], sid
    assert "recomputed" not in str(reports["csv"].inputs)


def test_same_inputs_give_the_same_bytes(tmp_path, capsys, monkeypatch):
    # the header's generation time is fixed the reproducible-builds way
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    scored = _jsonl(tmp_path / "scored.jsonl", scored_records(200, labelled_every=10))
    judged = _jsonl(tmp_path / "judged.jsonl", judged_records(40))
    for name in ("a.html", "b.html"):
        assert main(["report", str(scored), str(judged), "-o", str(tmp_path / name), "-q"]) == 0
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
