"""Property: whatever a file holds, `score` and `judge` end with status 0 or 2, never a traceback.

Hypothesis writes whole JSON Lines files — random Unicode with lone surrogate
escapes and control characters, huge and non-finite numbers, deep nesting,
wrong types, broken lines — and runs the commands on them in-process. On 0 the
output must be a valid file with one record per input line and every score in
range; on 2 stderr is one line and nothing was written.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.cli import main
from evaltools.io import read_records

SURROGATES = st.sampled_from(["\ud800", "\udfff", "\ud83d", "\udc80"])
CONTROL = st.sampled_from(["\x00", "\x1b[31m", "\r", "\u2028", "\ufeff", "\t", "\x7f"])
HOSTILE_TEXT = st.lists(st.one_of(st.text(max_size=30), SURROGATES, CONTROL,
                                  st.sampled_from(["=1+1", "<script>", "$5", "May 4, 2024",
                                                   "{{ 7*7 }}", "\\u0000"])),
                        max_size=6).map("".join)
NUMBERS = st.one_of(st.integers(), st.integers(min_value=-(10 ** 400), max_value=10 ** 400),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["1e400", "-1e400", "NaN", "Infinity", "1e-400", "-0"]))


def deep(n: int) -> str:
    return "[" * n + "]" * n


def _json_value(draw, depth=0):
    kind = draw(st.sampled_from(["text", "number", "bool", "null", "list", "object", "deep"]))
    if kind == "text":
        return json.dumps(draw(HOSTILE_TEXT))          # ensure_ascii: surrogates as escapes
    if kind == "number":
        n = draw(NUMBERS)
        return n if isinstance(n, str) else json.dumps(n)
    if kind in ("bool", "null"):
        return draw(st.sampled_from(["true", "false", "null"]))
    if kind == "deep":
        return deep(draw(st.sampled_from([10, 63, 65, 1000, 50_000])))
    if depth > 2:
        return "[]"
    items = [_json_value(draw, depth + 1) for _ in range(draw(st.integers(0, 3)))]
    if kind == "list":
        return "[" + ", ".join(items) + "]"
    keys = [json.dumps(draw(HOSTILE_TEXT)) for _ in items]
    return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items, strict=True)) + "}"


@st.composite
def lines(draw, fields):
    """One line of a file: mostly records with the given fields, sometimes junk."""
    kind = draw(st.sampled_from(["record"] * 6 + ["junk", "blank", "array", "deep"]))
    if kind == "junk":
        return draw(st.text(max_size=40)).replace("\n", " ").encode("utf-8", "surrogatepass")
    if kind == "blank":
        return b"   "
    if kind == "array":
        return b"[1, 2]"
    if kind == "deep":
        return deep(draw(st.sampled_from([100, 100_000]))).encode()
    parts = []
    for name in fields:
        choice = draw(st.sampled_from(["good", "good", "hostile", "missing"]))
        if choice == "missing":
            continue
        value = (json.dumps(draw(fields[name])) if choice == "good"
                 else _json_value(draw))
        parts.append(f"{json.dumps(name)}: {value}")
    for _ in range(draw(st.integers(0, 2))):            # passed-through fields
        parts.append(f"{json.dumps(draw(HOSTILE_TEXT))}: {_json_value(draw)}")
    return ("{" + ", ".join(parts) + "}").encode("utf-8", "surrogatepass")


#: Scores as an already-scored record holds them: in range, out of range, huge, wrong type.
NUMBERS_JSON = st.one_of(st.floats(0, 1), st.floats(allow_nan=False, allow_infinity=False),
                         st.integers(-(10 ** 30), 10 ** 30), st.text(max_size=4), st.none())
TEXTS = st.sampled_from(["What does the mug cost?", "The mug costs $12.",
                         "It was released on May 4, 2024.", "Yes.", ""])
SCORE_FIELDS = {"id": st.text(max_size=5), "query": TEXTS, "context": TEXTS, "response": TEXTS}
JUDGE_FIELDS = {
    "id": st.text(max_size=5),
    "module": st.sampled_from(["M01", "M04", "M13", "M15", "M16", "M99"]),
    "output": st.one_of(st.sampled_from([["Yeti"], "PASS", True, 3]), st.text(max_size=8)),
    "expected": st.one_of(st.sampled_from([["Yeti", "YETI"], "PASS", False]),
                          st.text(max_size=8)),
    "judge": st.one_of(
        st.sampled_from(['{"total_score": NaN}', '{"total_score": 1e400}',
                         '{"evaluation": {"correctness": {"score": ' + "9" * 400 + "}}}",
                         deep(5000), '```json\n{"verdict": "PASS"}\n```']),
        st.text(max_size=20)),
}


def _check_output(code, err, out, n_lines):
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
        assert not out.exists()
        return []
    rows = [r for _, r in read_records(out)]
    assert len(rows) == n_lines
    return rows


def _write(tmp_path, raw_lines):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(raw_lines) + b"\n")
    return path, sum(1 for x in raw_lines if x.strip())


def _run(capsys, argv):
    code = main([*map(str, argv), "--no-progress", "-q"])
    _, err = capsys.readouterr()
    return code, err


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(raw=st.lists(lines(SCORE_FIELDS), min_size=1, max_size=6), skip=st.booleans(),
       fmt=st.sampled_from(["jsonl", "csv", "parquet"]))
def test_score_never_crashes(tmp_path_factory, capsys, raw, skip, fmt):
    tmp = tmp_path_factory.mktemp("fz")
    src, n = _write(tmp, raw)
    out = tmp / f"out.{fmt}"
    code, err = _run(capsys, ["score", src, "-o", out] + (["--skip-invalid"] if skip else []))
    rows = _check_output(code, err, out, n)
    for r in rows:
        for k in ("relevance", "completeness", "hallucination", "hallucination_probability"):
            v = r.get(k)
            if v not in (None, ""):
                assert 0.0 <= float(v) <= 1.0 and math.isfinite(float(v)), (k, v)
        assert r.get("verdict") in (None, "", "PASS", "WARN", "FAIL")
        assert bool(r.get("error")) != (r.get("verdict") in ("PASS", "WARN", "FAIL"))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(raw=st.lists(lines(JUDGE_FIELDS), min_size=1, max_size=6), skip=st.booleans(),
       fmt=st.sampled_from(["jsonl", "csv", "parquet"]))
def test_judge_never_crashes(tmp_path_factory, capsys, raw, skip, fmt):
    tmp = tmp_path_factory.mktemp("fz")
    src, n = _write(tmp, raw)
    out = tmp / f"out.{fmt}"
    code, err = _run(capsys, ["judge", src, "-o", out] + (["--skip-invalid"] if skip else []))
    rows = _check_output(code, err, out, n)
    for r in rows:
        total = r.get("total_score")
        if total not in (None, ""):
            assert 0 <= float(total) <= 100
        assert r.get("verdict") in (None, "", "PASS", "FAIL")


def test_hostile_file_as_a_real_process(tmp_path):
    """The same, through the installed entry point in a subprocess (no in-process help)."""
    raw = [b'{"id": "\\ud800", "query": "q", "context": "c", "response": "r"}',
           b'{"query": "q", "context": "c", "response": "r", "x": 1e400}',
           deep(100_000).encode(),
           b'{"query": "=1+1", "context": "c", "response": "' + b"\\u0000" * 10 + b'"}']
    src, _ = _write(tmp_path, raw)
    for command in ("score", "judge"):
        r = subprocess.run([sys.executable, "-m", "evaltools", command, str(src), "-o",
                            str(tmp_path / f"{command}.csv"), "--skip-invalid", "-q",
                            "--no-progress"], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert len([x for _, x in read_records(tmp_path / f"{command}.csv")]) == 4


SCORED_FIELDS = {**SCORE_FIELDS, "relevance": NUMBERS_JSON, "hallucination": NUMBERS_JSON,
                 "completeness": NUMBERS_JSON, "claims_score": NUMBERS_JSON,
                 "ngram_overlap": NUMBERS_JSON, "verdict": st.sampled_from(["PASS", "FAIL", "X"]),
                 "anchors": st.sampled_from([[], [{"kind": "<b>", "text": "$5",
                                                   "supported": False}], "[]", 3])}


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(raw=st.lists(st.one_of(lines(SCORED_FIELDS), lines(JUDGE_FIELDS)), min_size=1,
                    max_size=5),
       cur=st.lists(lines(SCORED_FIELDS), min_size=1, max_size=3), skip=st.booleans(),
       compare=st.booleans())
def test_report_never_crashes(tmp_path_factory, capsys, raw, cur, skip, compare):
    """`report` and `report --reference` over the same kind of files: 0 or 2, one line."""
    tmp = tmp_path_factory.mktemp("fz")
    src, _ = _write(tmp, raw)
    other = tmp / "cur.jsonl"
    other.write_bytes(b"\n".join(cur) + b"\n")
    out = tmp / "r.html"
    argv = ["report", *(["--reference", src, other] if compare else [src]), "-o", out]
    code, err = _run(capsys, argv + (["--skip-invalid"] if skip else []))
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
        assert not out.exists()
    else:
        assert out.read_text("utf-8").rstrip().endswith("</html>")
