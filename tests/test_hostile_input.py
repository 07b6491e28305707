"""Hostile and broken input: no crash, no data loss, nothing injected, bounded time and memory.

One regression test (or a few) per finding of the hostile-input review, numbered
as there: exit status 0 or 2, one line on stderr, no traceback, nothing half
written, nothing run from the data.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD = {"id": "a", "query": "What does the mug cost?", "context": "The mug costs $12.",
        "response": "The mug costs $12."}
JUDGED = json.loads((ROOT / "data" / "judgments.jsonl").read_text("utf-8").splitlines()[0])


def write_lines(path: Path, lines) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines),
                    encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main([*map(str, argv), "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()]


# ------------------------------------------------------------- 1 stored XSS


class _Attrs(HTMLParser):
    """Every start tag's attribute names, and the text of every <script>."""

    def __init__(self):
        super().__init__()
        self.attrs: list[tuple[str, str]] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.attrs += [(tag, name) for name, _ in attrs]
        self.scripts += tag == "script"


HOSTILE_KIND = 'x" autofocus onfocus="document.title=1" data-x="'


def test_highlight_allow_lists_kind_classes():
    from evaltools.highlight import highlight_html

    html = highlight_html("It costs $5.", [{"kind": HOSTILE_KIND, "text": "$5", "start": 9,
                                             "end": 11, "supported": False}])
    p = _Attrs()
    p.feed(html)
    assert {name for _, name in p.attrs} <= {"class", "style", "title"}
    assert "evaltools-kind-other" in html
    assert "onfocus" not in html.split('title="')[0]


def _hostile_scored(kind=HOSTILE_KIND):
    text = '<script>document.title="x"</script> "><img src=x onerror=alert(1)> costs $5.'
    start = text.index("$5")
    return {"id": '"><svg onload=alert(1)>', "query": "</style><script>alert(1)</script>",
            "context": "javascript:alert(1) {{ 7*7 }} $5", "response": text,
            "relevance": 0.1, "completeness": 0.2, "hallucination": 1.0,
            "verdict": '"><b onmouseover=alert(1)>', "reasons": ["<script>alert(1)</script>"],
            "anchors": [{"kind": kind, "text": "$5", "start": start, "end": start + 2,
                         "supported": False, "evidence": "<img src=x onerror=alert(1)>",
                         "note": '"><script>alert(1)</script>'}]}


def test_report_escapes_every_value_and_runs_only_its_own_script():
    from evaltools.report.build import report_from_records
    from evaltools.report.html import render_html

    page = render_html(report_from_records(scored=[_hostile_scored()] * 3))
    p = _Attrs()
    p.feed(page)
    names = {name for _, name in p.attrs}
    assert not {n for n in names if n.startswith("on")}, names
    assert "autofocus" not in names
    assert p.scripts == 1                       # the report's own sort/filter script
    assert "javascript:alert(1) {{ 7*7 }}" in page     # shown as text, not evaluated
    assert "ev-other" in page                   # the hostile verdict is not a class name
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "'unsafe-inline'" not in csp.replace("style-src-attr 'unsafe-inline'", "")
    for directive in ("default-src 'none'", "form-action 'none'", "base-uri 'none'",
                      "script-src 'sha256-"):
        assert directive in csp


def test_csp_hashes_match_the_inline_script_and_styles():
    import base64
    import hashlib

    from evaltools.report.build import report_from_records
    from evaltools.report.html import render_html

    page = render_html(report_from_records(scored=[_hostile_scored(kind="number")] * 30))
    csp = re.search(r'content="(default-src[^"]+)"', page).group(1)

    def h(text):
        return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style[^>]*>(.*?)</style>", page, re.S)
    assert scripts and styles
    for s in scripts:
        assert h(s) in csp.split("script-src")[1].split(";")[0]
    for s in styles:
        assert h(s) in csp.split("style-src-elem")[1].split(";")[0]


def test_case_html_and_judge_prompt_escape_hostile_values():
    from evaltools.highlight import case_html

    html = case_html(_hostile_scored())
    p = _Attrs()
    p.feed(html)
    assert not {n for _, n in p.attrs if n.startswith("on")}
    assert p.scripts == 0
    assert "&lt;script&gt;" in html


def test_judge_prompt_shows_hostile_values_as_written():
    from evaltools.prompt import render_prompt

    hostile = ["{{ 7*7 }}", "{% for x in range(9) %}x{% endfor %}", "<script>alert(1)</script>",
               "\ud800", "javascript:alert(1)"]
    text = render_prompt("M01", {"output": hostile, "expected": ["Yeti"],
                                 "input": {"brand": "{{ 7*7 }}", "x": "\ud800"}})
    assert "{{ 7*7 }}" in text and "{% for x in range(9) %}" in text
    assert "<script>alert(1)</script>" in text and "xxxxxxxxx" not in text
    assert "49" not in text.replace("{{ 7*7 }}", "")


# --------------------------------------------------- 2 output is the input


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("command", ["score", "judge", "calibrate"])
def test_output_that_is_the_input_is_refused(tmp_path, capsys, command, how):
    src = write_lines(tmp_path / "in.jsonl", [GOOD if command != "judge" else JUDGED,
                                              "not json"])
    before = src.read_bytes()
    out = src
    if how == "symlink":
        out = tmp_path / "link.jsonl"
        out.symlink_to(src)
    elif how == "hardlink":
        out = tmp_path / "hard.jsonl"
        os.link(src, out)
    if command == "calibrate":
        code = main([command, str(src), "-o", str(out)])
        _, err = capsys.readouterr()
    else:
        code, _, err = run(capsys, command, src, "-o", out, "--skip-invalid")
    assert code == 2
    assert "the output is this input file" in one_error_line(err)
    assert src.read_bytes() == before


# ------------------------------------------------------ 3 formula injection


def test_csv_cells_that_start_a_formula_are_neutralised(tmp_path, capsys):
    rec = {"id": "=HYPERLINK(\"http://x\")", "query": "+cmd", "context": "-2+3",
           "response": "@SUM(A1)", "extra": "\tTAB", "=col": "x"}
    src = write_lines(tmp_path / "in.jsonl", [rec])
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "out.csv", "-q")
    assert code == 0, err
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    head, row = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert "'=col" in head
    assert row["id"] == "'=HYPERLINK(\"http://x\")"
    assert (row["query"], row["context"], row["response"], row["extra"]) == \
        ("'+cmd", "'-2+3", "'@SUM(A1)", "'\tTAB")
    assert not any(c[:1] in "=+-@" for r in rows for c in r if c)   # nothing left to run
    # numbers stay numbers (a negative score would be a number, not text)
    assert float(row["relevance"]) >= 0


def test_csv_raw_writes_cells_as_they_are(tmp_path, capsys):
    src = write_lines(tmp_path / "in.jsonl", [{**GOOD, "id": "=1+1"}])
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "out.csv", "-q", "--csv-raw")
    assert code == 0, err
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as fh:
        assert next(csv.DictReader(fh))["id"] == "=1+1"


# --------------------------------------------- 4, 5 inf/NaN and lone surrogates


HOSTILE_LINES = [
    '{"id": "n1", "query": "q", "context": "c", "response": "r", "x": 1e400}',
    '{"id": "n2", "query": "q", "context": "c", "response": "r", "x": -1e999}',
    '{"id": "n3", "query": "q", "context": "c", "response": "r", "x": NaN}',
    '{"id": "s1\\ud800", "query": "q", "context": "c", "response": "r"}',
    '{"id": "s2", "query": "q\\udfff", "context": "c", "response": "r"}',
    '{"id": "s3", "query": "q", "context": "c", "response": "r", "p": ["\\ud83d"]}',
    '{"id": "s4", "query": "q", "context": "c", "response": "r", "\\ud800": 1}',
]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_inf_nan_and_surrogates_are_bad_values_not_crashes(tmp_path, capsys, fmt):
    src = write_lines(tmp_path / "in.jsonl", [GOOD, *HOSTILE_LINES,
                                              '{"id": "ok", "query": "q", "context": "c", '
                                              '"response": "r \\ud83d\\ude00"}'])
    out = tmp_path / f"out.{fmt}"
    code, _, err = run(capsys, "score", src, "-o", out, "--skip-invalid", "-q")
    assert code == 0, err
    from evaltools.io import read_records

    rows = [r for _, r in read_records(out)]
    assert len(rows) == 9
    errors = [r["error"] for r in rows[1:8]]
    assert all(e for e in errors), errors
    assert "out of range" in errors[0] and "out of range" in errors[1]
    assert "NaN is not allowed" in errors[2]
    assert all("lone surrogate" in e for e in errors[3:7])
    assert rows[8]["response"] == "r \U0001f600" and not rows[8].get("error")
    # without --skip-invalid: exit 2, one line naming the line
    code, _, err = run(capsys, "score", src, "-o", tmp_path / f"again.{fmt}")
    assert code == 2 and "in.jsonl line 2:" in one_error_line(err)


def test_writer_stores_non_finite_and_non_text_values_as_best_it_can(tmp_path):
    from evaltools.io import open_writer, read_records

    for fmt in ("jsonl", "csv", "parquet"):
        out = tmp_path / f"w.{fmt}"
        with open_writer(out) as w:
            w.write({"id": "a", "x": math.inf, "y": math.nan, "s": "a\ud800b",
                     "big": 10 ** 30, "n": 1})
            w.write({"id": "b", "x": 1.5, "y": None, "s": "ok", "big": 1, "n": 2})
        rows = [r for _, r in read_records(out)]
        assert rows[0]["x"] in (None, "") and rows[0]["s"] == "a?b"
        assert str(rows[0]["big"]) == str(10 ** 30)


def test_parquet_inf_floats_are_read_as_null(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "query": [GOOD["query"]] * 2,
                             "context": [GOOD["context"]] * 2,
                             "response": [GOOD["response"]] * 2,
                             "w": [math.inf, -math.inf]}), src)
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "out.parquet", "-q")
    assert code == 0, err
    assert pq.read_table(tmp_path / "out.parquet").column("w").to_pylist() == [None, None]


# ------------------------------------------------------------ 6 max_length


def test_text_over_the_limit_is_an_invalid_record(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[input]\nmax_text_chars = 50\n")
    long = {**GOOD, "id": "long", "response": "The mug costs $12. " * 10}
    src = write_lines(tmp_path / "in.jsonl", [GOOD, long])
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl", "--config", cfg)
    assert code == 2
    assert "field 'response' is 190 characters long; the limit is 50" in one_error_line(err)
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl", "--config", cfg,
                       "--skip-invalid", "-q")
    assert code == 0
    rows = read_jsonl(tmp_path / "o.jsonl")
    assert rows[0]["error"] is None and "max_text_chars" in rows[1]["error"]


@pytest.mark.slow
def test_text_of_a_million_and_one_characters_is_refused_not_a_spacy_crash():
    from evaltools import score

    result = None
    with pytest.raises(Exception) as info:
        result = score("q", "c", "a" * 1_000_001)
    assert result is None and "max_text_chars" in str(info.value)


# ------------------------------------------------------------ 7 deep nesting


def test_deep_jsonl_line_is_unreadable(tmp_path, capsys):
    deep = '{"id": "d", "query": "q", "context": "c", "response": "r", "x": ' + \
        "[" * 100_000 + "]" * 100_000 + "}"
    fine = '{"id": "f", "query": "q", "context": "c", "response": "r", "x": ' + \
        "[" * 60 + "]" * 60 + "}"
    src = write_lines(tmp_path / "in.jsonl", [deep, fine])
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl")
    assert code == 2 and "nested deeper than 64 levels" in one_error_line(err)
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl", "--skip-invalid",
                       "-q")
    assert code == 0, err
    rows = read_jsonl(tmp_path / "o.jsonl")
    assert "nested deeper" in rows[0]["error"] and rows[1]["error"] is None


def test_deep_judge_text_and_object(tmp_path, capsys):
    from evaltools import judge

    text = {**JUDGED, "judge": "[" * 10_000 + "]" * 10_000}
    src = write_lines(tmp_path / "in.jsonl", [text])
    code, _, err = run(capsys, "judge", src, "-o", tmp_path / "o.jsonl", "-q")
    assert code == 0, err
    audit = read_jsonl(tmp_path / "o.jsonl")[0]["audit"]
    assert audit[0]["code"] == "unparseable" and "nested deeper" in audit[0]["message"]
    obj: dict = {}
    cur = obj
    for _ in range(900):
        cur["a"] = {}
        cur = cur["a"]
    with pytest.raises(Exception, match="nested deeper than 64 levels"):
        judge({**JUDGED, "judge": obj})


# -------------------------------------------- 8 judge numbers out of range


@pytest.mark.parametrize("judge_text, path", [
    ('{"total_score": NaN}', "total_score"),
    ('{"total_score": Infinity}', "total_score"),
    ('{"total_score": -Infinity}', "total_score"),
    ('{"evaluation": {"correctness": {"score": 1e400}}}', "evaluation.correctness.score"),
    ('{"total_score": ' + "9" * 400 + "}", "total_score"),
    ('{"evaluation": {"reasoning_quality": {"chain_of_thought": ' + "9" * 400 + "}}}",
     "evaluation.reasoning_quality.chain_of_thought"),
    ('{"evaluation": {"rule_compliance": {"score": 1e308, "rules": [{"score": 1e308}, '
     '{"score": 1e308}]}}}', "evaluation.rule_compliance.score"),
])
def test_judge_numbers_out_of_range_are_findings(tmp_path, capsys, judge_text, path):
    src = write_lines(tmp_path / "in.jsonl", [{**JUDGED, "judge": judge_text}])
    code, _, err = run(capsys, "judge", src, "-o", tmp_path / "o.jsonl", "-q")
    assert code == 0, err
    audit = read_jsonl(tmp_path / "o.jsonl")[0]["audit"]
    hits = [f for f in audit if f["code"] == "out_of_range" and f["path"] == path]
    assert hits, audit
    assert all(len(f["message"]) < 200 for f in audit)


# ----------------------------------------------------------- 9 Parquet damage


def test_parquet_with_a_non_utf8_column_name_is_one_line(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"query": ["q"], "context": ["c"], "response": ["r"],
                             "zzzzzz": ["x"]}), src)
    data = src.read_bytes()
    assert data.count(b"zzzzzz") >= 1
    src.write_bytes(data.replace(b"zzzzzz", b"\xff\xfe\xfdzzz"))
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl")
    assert code == 2
    assert "in.parquet: not a readable Parquet file" in one_error_line(err)


def test_integers_outside_int64_make_a_text_parquet_column(tmp_path, capsys):
    import pyarrow.parquet as pq

    src = write_lines(tmp_path / "in.jsonl", [{**GOOD, "n": 2 ** 64}, {**GOOD, "n": 3}])
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.parquet", "-q")
    assert code == 0, err
    assert pq.read_table(tmp_path / "o.parquet").column("n").to_pylist() == \
        [str(2 ** 64), "3"]


# -------------------------------------------------------------- 10 ENOSPC


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


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_full_disk_is_one_line_and_leaves_nothing(tmp_path, capsys, tiny_fs, fmt):
    recs = [{**GOOD, "id": str(i), "response": f"The mug costs ${i}. " + "x" * 400}
            for i in range(300)]                       # ~200 KB of output: does not fit
    src = write_lines(tmp_path / "in.jsonl", recs)
    out = tiny_fs / f"out.{fmt}"
    code, _, err = run(capsys, "score", src, "-o", out, "-q")
    assert code == 2
    assert "No space left on device" in one_error_line(err)
    assert list(tiny_fs.iterdir()) == []              # no output, no temporary file


def test_full_disk_for_the_report_and_calibration(tmp_path, capsys, tiny_fs):
    from evaltools.errors import OutputError
    from evaltools.report.html import write_text_atomic

    with pytest.raises(OutputError, match="No space left on device"):
        write_text_atomic("x" * 200_000, tiny_fs / "r.html")
    assert list(tiny_fs.iterdir()) == []


# ------------------------------------------------------- 11 calibration JSON


def test_calibration_with_extreme_coefficients_is_refused(tmp_path, capsys):
    cal = json.loads((ROOT / "evaltools" / "scoring" /
                      "default_calibration.json").read_text("utf-8"))
    cal["features"][0]["coefficient"] = 1e308
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(cal))
    src = write_lines(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, "score", src, "--calibration", path, "-q")
    assert code == 2
    assert "coefficient' must be a number in [-1000, 1000]" in one_error_line(err)


def test_logit_is_clipped_so_probabilities_stay_inside_0_1():
    from evaltools.calibration.learned import Coefficient, LearnedCalibration

    cal = LearnedCalibration((Coefficient("claims_score", 0.0, 1e-9, 1000.0),), 1000.0)
    p_hi = cal.probability({"claims_score": 1.0, "anchors": []})
    cal_lo = LearnedCalibration((Coefficient("claims_score", 0.0, 1e-9, -1000.0),), -1000.0)
    p_lo = cal_lo.probability({"claims_score": 1.0, "anchors": []})
    assert 0.0 < p_lo < 1e-12 and 1 - 1e-12 < p_hi < 1.0


# ------------------------------------------------------------ 12 label files


def test_hand_edited_label_file(tmp_path):
    from evaltools.io.label_store import read_labels

    path = tmp_path / "labels.jsonl"
    good = {"id": "r1", "field": "label_verdict", "label": "PASS", "value": "PASS"}
    lines = [json.dumps(good),
             json.dumps({**good, "id": "r2", "label": 5}),              # label not text
             json.dumps({**good, "id": "r3", "note": ["x"]}),           # note not text
             '{"id": "r4", "field": "label_verdict", "x": ' + "[" * 100_000 + "]" * 100_000
             + "}",
             json.dumps({**good, "id": "r5", "label": "FAIL", "value": "FAIL"})]
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode() + b"\n")   # Notepad's BOM
    with pytest.warns(RuntimeWarning, match="skipped 3"):
        df = read_labels(path)
    assert df["id"].tolist() == ["r1", "r5"]           # the first label is not lost to the BOM
    assert df.attrs["skipped_lines"] == [2, 3, 4]


def test_annotator_shows_a_case_whose_saved_label_was_hand_edited(tmp_path):
    pd = pytest.importorskip("pandas")
    from evaltools.widgets import Annotator

    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps({"id": "a", "field": "label_verdict", "label": 7,
                                "note": {"x": 1}}) + "\n")
    ann = Annotator(pd.DataFrame([GOOD]), path)
    assert ann.current_id == "a" and ann.current_label() is None


def test_two_annotators_on_one_file_do_not_overwrite_each_other(tmp_path):
    pd = pytest.importorskip("pandas")
    from evaltools.io.label_store import read_labels
    from evaltools.widgets import Annotator

    frame = pd.DataFrame([GOOD, {**GOOD, "id": "b"}])
    path = tmp_path / "labels.jsonl"
    first = Annotator(frame, path)
    first.label("PASS")
    second = Annotator(frame, path)                    # sees the saved label
    assert second.current_id == "b"
    with pytest.raises(RuntimeError, match="newer one"):
        first.label("FAIL")                            # the stale widget cannot save
    assert all(b.disabled for b in first.label_buttons.values())
    second.label("WARN")
    assert read_labels(path).set_index("id")["label_verdict"].to_dict() == \
        {"a": "PASS", "b": "WARN"}


# ----------------------------------------------------- 14 bounded line length


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_line_over_the_limit_fails_early_with_its_number(tmp_path, capsys, fmt):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[input]\nmax_line_bytes = 4096\n")
    if fmt == "jsonl":
        src = write_lines(tmp_path / "in.jsonl", [GOOD, {**GOOD, "response": "x" * 10_000}])
    else:
        src = tmp_path / "in.csv"
        src.write_text("query,context,response\nq,c,r\nq,c," + "x" * 10_000 + "\n")
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "o.jsonl", "--config", cfg)
    assert code == 2
    msg = one_error_line(err)
    assert f"in.{fmt} line {2 if fmt == 'jsonl' else 3}: the line is longer than 4,096 bytes" \
        in msg


@pytest.mark.slow  # 14 s alone: a 200 MB file and a process
def test_a_huge_line_without_newline_is_not_held_in_memory(tmp_path):
    """A 200 MB JSON Lines file with no newline: refused after 64 MiB, quickly."""
    src = tmp_path / "huge.jsonl"
    with src.open("wb") as fh:
        fh.write(b'{"query": "')
        block = b"x" * (1 << 20)
        for _ in range(200):
            fh.write(block)
    # Python's own allocations during the run (deterministic, unlike RSS): the pipeline
    # and at most the 64 MiB read; the whole line as bytes and text would be 400 MB more.
    code = (
        "import tracemalloc\n"
        "from evaltools.cli import main\n"
        "tracemalloc.start()\n"
        f"rc = main(['score', {str(src)!r}, '--no-progress'])\n"
        "print(rc, tracemalloc.get_traced_memory()[1])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    rc, peak = r.stdout.split()
    assert rc == "2" and "longer than 67,108,864 bytes" in r.stderr
    assert int(peak) < 400 * 2**20


# ---------------------------------------------------- 15 truncated echoes


def test_huge_values_are_echoed_truncated(tmp_path, capsys):
    src = write_lines(tmp_path / "in.jsonl", [{**JUDGED, "module": "M" * 5_000_000}])
    code, _, err = run(capsys, "judge", src)
    assert code == 2
    assert len(one_error_line(err)) < 500 and "…" in err
    src = write_lines(tmp_path / "v.jsonl", [{**JUDGED, "judge": {"verdict": "X" * 1_000_000}}])
    code, _, err = run(capsys, "judge", src, "-o", tmp_path / "o.jsonl", "-q")
    assert code == 0
    audit = read_jsonl(tmp_path / "o.jsonl")[0]["audit"]
    assert max(len(f["message"]) for f in audit) < 200
    assert (tmp_path / "o.jsonl").stat().st_size < 3 * 1_000_000   # input echoed once only


# ----------------------------------------------------------- 16 config ranges


def test_every_numeric_setting_has_a_range():
    import dataclasses

    from evaltools.config import _SECTIONS, DEFAULT_CONFIG, RANGES

    numeric = 0
    for section, cls in _SECTIONS.items():
        for f in dataclasses.fields(cls):
            if f.type in ("int", "float"):
                numeric += 1
                assert (section, f.name) in RANGES, (section, f.name)
                lo, hi = RANGES[(section, f.name)]
                assert lo <= getattr(getattr(DEFAULT_CONFIG, section), f.name) <= hi
    assert numeric == len(RANGES) > 40


@pytest.mark.parametrize("toml, what", [
    ("[drift]\nngram = 2000000\n", "[drift] ngram must be a whole number in [1, 10]"),
    ("[batch]\nchunk_size = 0\n", "[batch] chunk_size must be a whole number in [1, 100,000]"),
    ("[input]\nmax_depth = 100000\n", "[input] max_depth must be a whole number in [2, 500]"),
    ("[hallucination]\nnumber_context_window = 99999999\n",
     "number_context_window must be a whole number"),
    ("[drift]\npenalty = 1e400\n", "[drift] penalty must be a float in [0, 1]. Got inf"),
])
def test_out_of_range_settings_are_refused(tmp_path, capsys, toml, what):
    cfg = tmp_path / "c.toml"
    cfg.write_text(toml)
    src = write_lines(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, "score", src, "--config", cfg)
    assert code == 2 and what in one_error_line(err)


# ---------------------------------------------------------------- 17 SIGTERM


def test_sigterm_mid_run_removes_the_temporary_file(tmp_path):
    recs = [{**GOOD, "id": str(i), "response": f"The mug costs ${i}. It ships on May {i % 28 + 1}."}
            for i in range(20_000)]
    src = write_lines(tmp_path / "in.jsonl", recs)
    out = tmp_path / "out" / "scored.jsonl"
    out.parent.mkdir()  # commands create no folders
    proc = subprocess.Popen([sys.executable, "-m", "evaltools", "score", str(src), "-o",
                             str(out), "--no-progress"], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(out.parent.glob(".*.part")):
        time.sleep(0.05)
    assert list(out.parent.glob(".*.part")), "the run never started writing"
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert err.strip().splitlines()[-1] == "evaltools score: terminated; nothing was written"
    assert list(out.parent.iterdir()) == []


def test_stale_temporary_files_of_a_killed_run_are_removed(tmp_path, capsys):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    out = tmp_path / "scored.jsonl"
    stale = tmp_path / f".scored.jsonl.{dead.pid}.abcd1234.part"
    stale.write_text("half")
    alive = tmp_path / f".scored.jsonl.{os.getppid()}.efgh5678.part"   # a running process
    alive.write_text("in use")
    src = write_lines(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, "score", src, "-o", out, "-q")
    assert code == 0, err
    assert not stale.exists() and alive.exists() and out.exists()


# ------------------------------------------------------------- 18 messages


def test_calibrate_C_inf_is_one_line(tmp_path, capsys):
    src = write_lines(tmp_path / "in.jsonl", [{**GOOD, "label_hallucinated": 1}])
    for bad in ("inf", "nan", "-1", "1e400"):
        code = main(["calibrate", str(src), "-o", str(tmp_path / "c.json"), "--C", bad])
        _, err = capsys.readouterr()
        assert code == 2 and "--C must be a positive finite number" in one_error_line(err)


def test_duplicate_csv_header_with_a_newline_is_one_line(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text('query,context,response,"a\nb","a\nb"\nq,c,r,1,2\n')
    code, _, err = run(capsys, "score", src)
    assert code == 2
    assert "names column 'a\\nb' twice" in one_error_line(err)


# ------------------------------------------------------- 13 linear time


PIECES = ["$44.95", "44.95", "5", "five", "2024", "in 2024", "the 2020s", "March 2024",
          "5th March 2024", "03/05/2024", "05/03/2024", "2024-03-05", "at 3pm", "at 15:00",
          "5:00", "17:00", "32 oz", "32", "20%", "20", "3rd", "1,299.00", "$1,299", "May 4",
          "1990s", "1995", "12 hours", "more than 40", "up to 40", "about 40", "40",
          "22 °C", "72 °F", "2 kg", "4.4 lb", "12,99 €", "Rp 45.000", "1.234",
          # unit conversions, found through magnitude bands
          "1 kg", "1000 g", "2.2 lb", "2.21 lb", "1 l", "33.8 fl oz", "0 °C", "32 °F",
          "100 °C", "212 °F", "-40 °C", "-40 °F", "1 mi", "1.6 km", "1.61 km", "0 kg", "0 g"]


@settings(max_examples=300, deadline=None)
@given(ctx=st.lists(st.sampled_from(PIECES), max_size=12),
       resp=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
def test_support_index_finds_what_the_linear_scan_finds(ctx, resp):
    from evaltools.scoring.anchors.mentions import find_mentions, find_support, supports
    from evaltools.scoring.anchors.support_index import SupportIndex

    context = find_mentions(" and ".join(ctx) + ".")
    index = SupportIndex(context)
    for m in find_mentions(" and ".join(resp) + "."):
        assert index.find(m) == find_support(m, context)
        assert index.find(m) == find_support(m, context)       # remembered
        assert index.supporting(m) == tuple(i for i, f in enumerate(context) if supports(m, f))


def test_a_conversion_is_found_among_many_quantities():
    """1 kg = 2.2 lb is found by magnitude band among 500 other masses (by hand: only
    '2.2 lb' converts to 1 kg within 2 %; '2.3 lb' is 4 % off)."""
    from evaltools.scoring.anchors.mentions import find_mentions
    from evaltools.scoring.anchors.support_index import SupportIndex

    context = find_mentions(" ".join(f"{k} oz," for k in range(100, 600)) + " 2.3 lb, 2.2 lb.")
    index = SupportIndex(context)
    (claim,) = find_mentions("It weighs 1 kg.")
    assert [context[i].text for i in index.supporting(claim)] == ["2.2 lb"]
    assert len(index.candidates(claim)) < 20


# --------------------------------------------- the rest of each class: parsers


@pytest.mark.parametrize("option", ["--config", "--registry", "--calibration"])
@pytest.mark.parametrize("content", ["deep", "folder", "binary"])
def test_every_settings_file_is_parsed_safely(tmp_path, capsys, option, content):
    command = "judge" if option == "--registry" else "score"
    src = write_lines(tmp_path / "in.jsonl", [JUDGED if command == "judge" else GOOD])
    path = tmp_path / ("s.json" if option == "--calibration" else "s.toml")
    if content == "deep":
        path.write_text(("a = " if option != "--calibration" else "")
                        + "[" * 20_000 + "]" * 20_000)
    elif content == "folder":
        path = tmp_path
    else:
        path.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, command, src, option, path, "-q")
    assert code == 2, err
    one_error_line(err)


def test_a_line_of_control_characters_is_not_a_blank_line(tmp_path, capsys):
    from evaltools.io import count_records, read_records

    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\x1c\n" + json.dumps(GOOD).encode() + b"\n \t\n\xc2\xa0\n")
    rows = list(read_records(src, skip_invalid=True))
    assert [line for line, _ in rows] == [1, 2, 4]     # counted as the reader reads
    assert count_records(src) == len(rows)


def test_statement_patterns_stay_linear_on_long_runs_of_their_words():
    """An attribution's modifiers ("the given ...") are bounded: a long run of them is read in
    one pass, not once per start position (which took 6 s at 6,000 words and grew with the
    square of the length). Each call here returns at once when the pattern is linear."""
    from evaltools.scoring.anchors.claims import KEY_YES_NO
    from evaltools.scoring.sources import attribution_spans, source_spans

    assert attribution_spans("the " * 100_000) == ()
    assert attribution_spans("based on " + "the given " * 50_000 + "passages") == ()
    assert attribution_spans("the passages give " + "very " * 50_000 + "reasons") == ()
    text = "Based on the given passages, it is red. " * 2_000
    assert len(source_spans(text, [])) == 2_000
    assert len(list(KEY_YES_NO.finditer("key words: no. " * 20_000))) == 20_000


def test_list_numbers_are_read_in_linear_time():
    """A count's line end is looked for within OWN_LIST_REACH characters, so a long text of
    small numbers without a line break is read in one pass (unbounded, 20,000 counts in a
    240,000-character line scanned the rest of the line for each)."""
    from evaltools.scoring.anchors.mentions import find_mentions
    from evaltools.scoring.anchors.own_counts import counts_own_list
    from evaltools.scoring.context import unmark

    text = "it has 5 parts and " * 20_000
    mentions = find_mentions(text)
    assert len(mentions) == 20_000 and not any(counts_own_list(text, m) for m in mentions)
    listed = "Steps:\n" + "1. Cut it.\n" * 50_000
    assert unmark(listed).count("Cut it.") == 50_000 and "1." not in unmark(listed)
    bold = "Steps:\n" + "**1. Cut:** it.\n" * 50_000
    assert "1." not in unmark(bold)


def test_site_names_and_their_attributions_are_read_in_linear_time():
    """A name is four words at most and each word is read one way, so a long run of
    capitalised words that no verb follows is given up at once (unbounded, a nested
    repetition over such words backtracks exponentially)."""
    from evaltools.scoring.sources import site_attributions, site_names

    sites = frozenset({"wired"})
    assert site_attributions("AAAA " * 20_000, sites) == ()
    assert site_attributions("Ab Cd, " * 20_000, sites) == ()
    assert len(site_attributions("WIRED notes that. " * 20_000, sites)) == 20_000
    titles = "".join(f"Page {i} | Site{i} (www.site{i}.com)\nText.\n" for i in range(5_000))
    assert len(site_names(titles)) == 5_000  # each site, by its address and its title's end
    # a title's bracketed words are sixty characters at most and a title two hundred units
    assert site_names(("x (a) " * 40 + "\n") * 2_000) == frozenset()
    assert site_names("(" * 100_000 + "\n" + "(a" * 50_000) == frozenset()
    titles = "".join(f"Page (part {i}) (www.site{i}.com)\nText.\n" for i in range(5_000))
    assert len(site_names(titles)) == 5_000


def test_site_mentions_are_read_in_linear_time():
    """A run of capitalised words is four words at most, a lower-case name three, and each
    is tried from each of its words once: long runs of either are read at once."""
    from evaltools.scoring.sources import site_mentions

    sites = frozenset({"physicsforums", "thehill"})
    assert site_mentions("Aaaa " * 20_000, sites) == ()
    assert site_mentions("aaaa forum " * 20_000, sites) == ()
    assert len(site_mentions("The Hill says so; a physics forum post agrees. " * 10_000,
                             sites)) == 20_000
