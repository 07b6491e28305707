"""The second red-team round (issues 28 and 29): each fault, with a test that failed before.

Every test names its issue item in its docstring. Output safety: one check
(:func:`evaltools.io.refuse_overwriting_input`, called by the command line for
every file a command reads) and one writer (:func:`evaltools.io.atomic_path`,
which writes devices and FIFOs directly). Bounded text: one rule before
parsing. Numbers: one reader (:func:`evaltools.values.finite_float`).
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from pathlib import Path

import ipywidgets
import pandas as pd
import pytest
from test_calibration_cli import prescored, write_jsonl
from test_hostile_input import one_error_line, run, write_lines

from evaltools.calibration.learned import FEATURES
from evaltools.io import atomic_path, open_writer, read_records
from evaltools.io.label_store import MAX_LINE_BYTES, LabelStore, iter_label_events
from evaltools.values import binary_label

ROOT = Path(__file__).resolve().parent.parent
HAND_MADE = ("--features", ",".join(FEATURES), "--prior", "none")  # prescored(): no signals
GOOD = {"id": "a", "query": "What does the mug cost?", "context": "The mug costs $12.",
        "response": "The mug costs $12."}


# ------------------------------------------------------------- 28.1 outputs = inputs


@pytest.mark.parametrize("option", ["--source", "--config"])
def test_calibrate_refuses_an_output_that_is_any_input(tmp_path, capsys, option):
    """Issue 28 item 1: ``-o`` equal to ``--source`` or ``--config`` replaced that input."""
    src = write_jsonl(tmp_path / "lab.jsonl", prescored())
    other = tmp_path / ("cfg.toml" if option == "--config" else "src.jsonl")
    other.write_text("[input]\n" if option == "--config" else '{"x": 1}\n')
    before = other.read_bytes()
    code, _, err = run(capsys, "calibrate", src, "-o", other, option, other)
    assert code == 2
    assert one_error_line(err) == (f"evaltools calibrate: error: {other.name}: the output is "
                                   f"this input file; write elsewhere")
    assert other.read_bytes() == before


@pytest.mark.parametrize("argv", [
    ["score", "{good}", "-o", "{cfg}", "--config", "{cfg}"],
    ["judge", "{good}", "-o", "{cfg}", "--config", "{cfg}"],
    ["report", "{good}", "-o", "{cfg}", "--config", "{cfg}"],
])
def test_every_command_refuses_an_output_that_is_its_config(tmp_path, capsys, argv):
    """Issue 28 item 1: the one check sees every path option of every command."""
    good = write_lines(tmp_path / "g.jsonl", [GOOD])
    cfg = tmp_path / "c.html"  # named like an output so only the check can refuse it
    cfg.write_text("[input]\n")
    code, _, err = run(capsys, *[a.format(good=good, cfg=cfg) for a in argv])
    assert code == 2 and "the output is this input file" in one_error_line(err)
    assert cfg.read_text() == "[input]\n"


# ------------------------------------------------------- 28.2 devices and FIFOs


def test_a_character_device_is_written_directly_never_renamed_over(monkeypatch):
    """Issue 28 item 2: ``-o /dev/null`` must not become a regular file (as root it did)."""
    renamed = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (renamed.append(b), real(a, b)))
    with atomic_path("/dev/null") as tmp:
        assert str(tmp) == "/dev/null"
        tmp.write_text("gone")
    assert renamed == [] and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_calibrate_to_dev_null_prints_the_metrics(tmp_path, capsys):
    """Issue 28 item 2: calibrate -o /dev/null is "just print the metrics"; no temp file."""
    src = write_jsonl(tmp_path / "lab.jsonl", prescored())
    code, out, _ = run(capsys, "calibrate", src, "-o", "/dev/null", *HAND_MADE)
    assert code == 0 and "cross-validated AUROC" in out
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_fifo_output_is_written_into_not_replaced(tmp_path, suffix):
    """Issue 28 item 2: a FIFO named as a records output stays a FIFO and gets the records."""
    fifo = tmp_path / f"pipe{suffix}"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with open_writer(fifo) as w:
        w.write({"id": "a", "x": 1})
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert b'"a"' in got[0] or b"a," in got[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == [fifo.name]  # no temp file left


# -------------------------------------------------------------- 28.3 folder outputs


def test_a_folder_with_a_foreign_success_marker_is_not_replaced(tmp_path, capsys):
    """Issue 28 item 3: Spark's empty ``_SUCCESS`` let ``-o spark_out/`` delete the folder."""
    src = write_lines(tmp_path / "j.jsonl",
                      [(ROOT / "data" / "judgments.jsonl").read_text().splitlines()[0]])
    spark = tmp_path / "spark_out"
    spark.mkdir()
    (spark / "_SUCCESS").write_bytes(b"")
    (spark / "part-00000-abc.snappy.parquet").write_bytes(b"precious")
    code, _, err = run(capsys, "judge", src, "-o", f"{spark}/")
    assert code == 2 and "not an evaltools output" in one_error_line(err)
    assert (spark / "part-00000-abc.snappy.parquet").read_bytes() == b"precious"


def test_a_folder_output_gets_a_normal_mode_and_replaces_its_own_output(tmp_path, capsys):
    """Issue 28 item 3: the folder was created 0700 (mkdtemp); evaltools' own output is
    recognised by its JSON marker and replaced."""
    src = write_lines(tmp_path / "j.jsonl",
                      [(ROOT / "data" / "judgments.jsonl").read_text().splitlines()[0]])
    out = tmp_path / "out"
    old = os.umask(0o022)
    try:
        assert run(capsys, "judge", src, "-o", f"{out}/", "-q")[0] == 0
        assert stat.S_IMODE(os.stat(out).st_mode) == 0o755
        marker = json.loads((out / "_SUCCESS").read_text())
        assert marker == {"written_by": "evaltools", "records": 1, "parts": 1}
        assert run(capsys, "judge", src, "-o", f"{out}/", "-q")[0] == 0  # its own: replaced
    finally:
        os.umask(old)


# ---------------------------------------------------------------- 28.4 label store


@pytest.fixture
def _close_widgets():
    yield
    ipywidgets.Widget.close_all()


@pytest.mark.parametrize("note, value", [
    ("字" * 350_000, "PASS"),      # over 1 MiB of UTF-8: read_labels skips such a line
    ("", float("nan")),
    ("", float("inf")),
])
def test_a_label_that_could_not_be_read_back_is_refused_before_saved(tmp_path, note, value,
                                                                     _close_widgets):
    """Issue 28 item 4: the Annotator said "Saved" for a label read_labels then dropped."""
    from evaltools.widgets import Annotator, read_labels

    frame = pd.DataFrame({"id": ["a", "b"], "query": ["q", "q"], "context": ["c", "c"],
                          "response": ["r", "r"]})
    path = tmp_path / "l.jsonl"
    ann = Annotator(frame, path, labels={"PASS": value})
    with pytest.raises(ValueError, match="not saved"):
        ann.label("PASS", note=note)
    assert "Saved" not in ann.status.value and "Not saved" in ann.status.value
    assert ann.current_id == "a"  # the case is still offered, honestly
    assert not path.exists() or list(iter_label_events(path)) == []
    assert read_labels(path).empty


def test_the_longest_readable_label_line_is_accepted(tmp_path):
    """Issue 28 item 4: the refusal is exactly the reader's limit, not tighter."""
    store = LabelStore(tmp_path / "l.jsonl", clock=lambda: "T")
    base = len(json.dumps({"id": "a", "field": "f", "label": "x", "value": "x", "note": "",
                           "action": "label", "position": None, "labeler": "",
                           "time": "T"}, ensure_ascii=False).encode())
    store.append("a", "f", "x", note="n" * (MAX_LINE_BYTES - base))
    assert [e["id"] for e in iter_label_events(store.path)] == ["a"]
    with pytest.raises(ValueError, match="at most 1,048,576"):
        store.append("b", "f", "x", note="n" * (MAX_LINE_BYTES - base + 1))
    assert [e["id"] for e in iter_label_events(store.path)] == ["a"]


# ------------------------------------------------------------ 28.6 wide CSV header


def test_a_csv_header_of_80000_names_is_checked_in_linear_time(tmp_path):
    """Issue 28 item 6: ``c in header[:i]`` per column took ~50 s for 80,000 names."""
    names = [f"c{i}" for i in range(80_000)]
    p = tmp_path / "wide.csv"
    p.write_text(",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
    t = time.perf_counter()
    (_, rec), = read_records(p)
    assert len(rec) == 80_000 and time.perf_counter() - t < 5
    p.write_text(",".join([*names, "c5"]) + "\n")
    with pytest.raises(Exception, match="names column 'c5' twice"):
        list(read_records(p))


# --------------------------------------------------------- 28.10, 28.11 one number reader


def test_finite_float_reads_every_number_without_overflow():
    """Issue 28 items 10 and 11: the one numeric reader, hand-checked values."""
    import numpy as np

    from evaltools.values import finite_float
    assert [finite_float(v) for v in (0, -7, 2.5, np.float32(0.5), np.int64(3))] == \
        [0.0, -7.0, 2.5, 0.5, 3.0]
    assert [finite_float(v) for v in (10**400, -(10**400), float("nan"), float("-inf"), True,
                                      np.bool_(True), "1", b"1", None, [1])] == [None] * 10


def test_a_401_digit_label_is_bad_input_not_an_overflow(tmp_path, capsys):
    """Issue 28 item 11: binary_label caught TypeError and ValueError, not OverflowError."""
    with pytest.raises(ValueError, match="402-digit integer"):
        binary_label(10**401)
    rows = prescored()
    rows[3]["label"] = 10**400
    src = tmp_path / "lab.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, err = run(capsys, "calibrate", src, "-o", tmp_path / "c.json", *HAND_MADE)
    assert code == 2 and "Traceback" not in err
    assert "lab.jsonl line 4" in one_error_line(err)


def test_a_401_digit_judge_total_reaches_every_module_audit_view():
    """Issue 28 item 10: headline, judge_overview, to_dict and modules_overview raised
    OverflowError on it; the total is no number, so it gives no gap."""
    from evaltools.judging.module_audit import module_audit, modules_overview

    first = json.loads((ROOT / "data" / "judgments.jsonl").read_text().splitlines()[0])
    rec = json.loads(json.dumps(first))
    rec["judge"]["total_score"] = 10**400
    a = module_audit([rec], rec["module"])
    assert a.judge_overview()["total_gap_mean"] is None
    assert isinstance(a.headline(), str)
    json.dumps(a.to_dict())
    ov = modules_overview([rec], modules=[rec["module"]])
    assert list(ov["records"]) == [1]


# ------------------------------------------------------ 28.5, 28.7 bounded text


def test_a_long_run_of_symbols_is_bounded_before_the_tokenizer(nlp):
    """Issue 28 item 5: 30,000 ``(`` took minutes (one prefix character peeled per pass)."""
    import evaltools
    from evaltools.text import SYMBOL_RUN, bounded_runs

    assert bounded_runs("ok " + "(" * 40 + "x") == "ok " + "(" * SYMBOL_RUN + " " * 8 + "x"
    assert bounded_runs("_" * 33) == "_" * 32 + " " and bounded_runs("😀" * 32) == "😀" * 32
    response = "(" * 30_000 + " costs $5 " + ")" * 30_000 + "_" * 30_000 + "😀" * 30_000
    t = time.perf_counter()
    r = evaltools.score("What does it cost?", "It costs $5.", response)
    assert time.perf_counter() - t < 10 and r.error is None
    # offsets still index the response as given
    numbers = [a for a in r.anchors if a.kind == "number"]
    assert numbers and all(response[a.start:a.end] == a.text for a in r.anchors)
    assert numbers[0].start > 30_000 and numbers[0].supported


def test_limits_apply_to_the_flattened_json_context(nlp):
    """Issue 28 item 7: a JSON list of 900,001 characters flattens to 1.35 M and spaCy
    refused it ([E088]); the limit is now measured on the text parsed."""
    import evaltools

    ctx = json.dumps([1] * 450_000, separators=(",", ":"))
    assert len(ctx) == 900_001
    (res,) = evaltools.score_records([{"query": "q", "context": ctx, "response": "r"}],
                                     skip_invalid=True)
    assert res.error == ("field 'context' is read as 1,349,999 characters of text (its JSON "
                         "flattened); the limit is 1,000,000 (the [input] max_text_chars "
                         "setting)")


# ---------------------------------------------------- 28.8 Parquet types in a folder


def test_parquet_dates_decimals_and_bytes_reach_a_folder_output(tmp_path, capsys):
    """Issue 28 item 8: a folder output (the --workers form) died on a timestamp, decimal,
    binary or date column that a single-file output wrote; both now hold the same."""
    import datetime as dt
    from decimal import Decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    first = json.loads((ROOT / "data" / "judgments.jsonl").read_text().splitlines()[0])
    rec = {k: (json.dumps(v) if isinstance(v, (dict, list)) else v) for k, v in first.items()}
    table = pa.Table.from_pylist([{**rec, "when": dt.datetime(2026, 1, 2, 3, 4, 5),
                                   "day": dt.date(2026, 1, 2), "price": Decimal("1.50"),
                                   "blob": b"\x00\x01"}])
    src = tmp_path / "in.parquet"
    pq.write_table(table, src)
    assert run(capsys, "judge", src, "-o", tmp_path / "one.parquet", "-q")[0] == 0
    code, _, err = run(capsys, "judge", src, "-o", f"{tmp_path / 'parts'}/", "-q")
    assert code == 0, err
    one = pq.read_table(tmp_path / "one.parquet").to_pylist()[0]
    part = pq.read_table(next((tmp_path / "parts").glob("*.parquet"))).to_pylist()[0]
    assert part["when"] == one["when"] == "2026-01-02 03:04:05"
    assert part["day"] == one["day"] == "2026-01-02"
    assert part["price"] == one["price"] == "1.50"
    assert part["blob"] == one["blob"]


# ---------------------------------------------------------- 28.9 compared runs


SCORED = {"id": "s", "query": "q", "context": "c", "response": "r", "relevance": 0.5,
          "completeness": 0.5, "hallucination": 0.2, "claims_score": 0.1, "ngram_overlap": 0.3,
          "drift_penalty": 0.0, "verdict": "PASS", "reasons": [], "anchors": [], "keywords": [],
          "error": None}


def test_reasons_that_are_not_a_list_are_bad_input_in_a_comparison(tmp_path, capsys):
    """Issue 28 item 9: ``report --reference`` died in compare_runs on ``reasons: 5``."""
    ref = write_lines(tmp_path / "ref.jsonl", [SCORED])
    cur = write_lines(tmp_path / "cur.jsonl", [{**SCORED, "verdict": "FAIL", "reasons": 5}])
    code, _, err = run(capsys, "report", "--reference", ref, cur, "-o", tmp_path / "d.html")
    assert code == 2
    assert one_error_line(err) == ("evaltools report: error: cur.jsonl line 1: field 'reasons' "
                                   "must be a list of texts, got int")
    assert not (tmp_path / "d.html").exists()


# --------------------------------------------- 28.12, 28.13 text that is not UTF-8


def test_a_title_of_bytes_that_are_not_utf8_is_written(tmp_path, capsys):
    """Issue 28 item 12: ``--title`` with bytes that are not UTF-8 (Python keeps them
    surrogate-escaped) died when the page was written."""
    src = write_lines(tmp_path / "s.jsonl", [SCORED])
    title = os.fsdecode(b"run \xff\xfe <b>")
    code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html", "--title", title, "-q")
    assert code == 0, err
    page = (tmp_path / "r.html").read_bytes().decode("utf-8")  # valid UTF-8
    assert "run \ufffd\ufffd &lt;b&gt;" in page


def test_the_index_links_a_page_whose_name_is_not_utf8(tmp_path):
    """Issue 28 item 13: percent-encoding a surrogate-escaped name with strict UTF-8 raised;
    the link now carries the name's own bytes, so it opens that file."""
    from urllib.parse import unquote_to_bytes

    from evaltools.report.index import main as index_main

    name = os.fsdecode(b"old-\xe9-diff.html")
    (tmp_path / name).write_text("<p>x</p>")
    assert index_main([str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_bytes().decode("utf-8")
    href = next(h.split('"')[0] for h in page.split('href="')[1:] if "diff" in h)
    assert href == "./old-%E9-diff.html"
    assert unquote_to_bytes(href[2:]) == os.fsencode(name)
    assert "old-\ufffd-diff" in page


# ------------------------------------------------------------ 28.14 API ids


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), b"x"])
def test_the_api_refuses_ids_no_json_line_can_hold(bad, nlp):
    """Issue 28 item 14: an ``id`` that is NaN, infinite or bytes reached ``to_dict()``,
    which then could not be written as JSON (the CLI's readers never give one)."""
    import evaltools

    (res,) = evaltools.score_records([{"id": bad, "query": "q", "context": "c",
                                       "response": "r"}], skip_invalid=True)
    assert res.id == 1 and res.error.startswith("field 'id' must be text or a finite number")
    json.dumps(res.to_dict(), allow_nan=False)
    with pytest.raises(Exception, match="field 'id' must be text or a finite number"):
        list(evaltools.score_records([{"id": bad, "query": "q", "context": "c",
                                       "response": "r"}]))
    judged = json.loads((ROOT / "data" / "judgments.jsonl").read_text().splitlines()[0])
    if isinstance(bad, float) and bad != bad:
        assert evaltools.judge({**judged, "id": bad}).id == 1  # NaN is a missing id
        return
    with pytest.raises(Exception, match="field 'id' must be text or a finite number"):
        evaltools.judge({**judged, "id": bad})
    (res,) = evaltools.judge_records([{**judged, "id": bad}], skip_invalid=True)
    assert res.error and res.id == 1  # its record number, as for a missing id
    json.dumps(res.to_dict(), allow_nan=False)


# ----------------------------------------------------- 29.2 comparison memory


def test_a_comparison_keeps_no_record_in_memory():
    """Issue 29 item 2: compare kept every record of both runs (1.06 GB for two 100k-record
    files); it now streams each run once and matches ids through an on-disk index."""
    import tracemalloc

    from evaltools.compare import compare_runs

    def run_of(n, verdict):
        for i in range(n):  # ~20 KB of text per record: 100 MB a run if kept
            yield {**SCORED, "id": f"r{i}", "verdict": verdict if i < 3 else "PASS",
                   "response": f"{i} " + "x" * 20_000, "reasons": [f"why {i}"],
                   "hallucination": (i % 10) / 10}

    compare_runs(run_of(10, "PASS"), run_of(10, "FAIL"), n_resamples=50)  # imports (scipy)
    tracemalloc.start()
    c = compare_runs(run_of(5000, "PASS"), run_of(5000, "FAIL"), n_resamples=50)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20_000_000, peak
    assert (c.n_reference, c.n_current, c.n_matched, len(c.flips)) == (5000, 5000, 5000, 3)
    assert [(f.id, f.before, f.after, f.reasons_before) for f in c.flips] == [
        ("r0", "PASS", "FAIL", ("why 0",)), ("r1", "PASS", "FAIL", ("why 1",)),
        ("r2", "PASS", "FAIL", ("why 2",))]
    hall = next(s for s in c.shifts if s.score == "hallucination")
    assert hall.mean_reference == hall.mean_current == pytest.approx(0.45)


# ---------------------------------------------------------- 29.3 figure text


def test_module_names_reach_the_figure_literally(tmp_path, capsys):
    """Issue 29 item 3: ``$\\frac{1}{$`` as a module name killed ``report --skip-invalid``
    (mathtext), ``$x^2$`` was typeset and a NUL warned "Glyph 0 missing"."""
    import warnings

    from evaltools.plots import verdict_bars_svg

    bad = [{"id": f"j{i}", "module": m, "total_score": 1, "verdict": "FAIL"}
           for i, m in enumerate(["$\\frac{1}{$", "$x^2$", "a\x00b", "M" * 500])]
    src = write_lines(tmp_path / "j.jsonl", bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, _, err = run(capsys, "report", src, "-o", tmp_path / "r.html", "--skip-invalid",
                           "-q")
        assert code == 0, err
        svg = verdict_bars_svg({"$x^2$": {"PASS": 1}, "M" * 500: {"FAIL": 1},
                                "M" * 501: {"FAIL": 1}})
    assert "$x^2$" in svg                                   # literal, not typeset
    assert "M" * 39 + "…" in svg and "M" * 40 not in svg    # cut to 40 characters
    assert "M" * 39 + "… #2" in svg                         # two names cut alike stay two bars


# ------------------------------------------- properties on the newer surfaces (issue 28)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_hostile_properties import (  # noqa: E402
    HOSTILE_TEXT,
    JUDGE_FIELDS,
    NUMBERS,
    _run,
    _write,
    lines,
)

FIXTURES_OK = dict(deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=60, **FIXTURES_OK)
@given(note=st.one_of(HOSTILE_TEXT, st.just("字" * 350_000)),
       value=st.one_of(NUMBERS, st.floats(), HOSTILE_TEXT, st.none()))
def test_the_label_store_acknowledges_only_what_it_reads_back(tmp_path_factory, note, value):
    """Issue 28 (label store): whatever the note and value, a label is either refused
    (ValueError, nothing written) or read back as it was acknowledged."""
    path = tmp_path_factory.mktemp("labels") / "l.jsonl"
    store = LabelStore(path, clock=lambda: "T")
    try:
        ev = store.append("a", "label_verdict", "PASS", value=value, note=note)
    except ValueError:
        assert not path.exists() or list(iter_label_events(path)) == []
        return
    (back,) = iter_label_events(path)
    assert back == ev


@settings(max_examples=40, **FIXTURES_OK)
@given(name=st.binary(min_size=1, max_size=30).filter(lambda b: b"/" not in b and b"\0" not in
                                                     b and b not in (b".", b"..")))
def test_the_index_lists_any_page_name(tmp_path_factory, name):
    """Issue 28 (the index): any file name a folder can hold is linked by its own bytes."""
    from urllib.parse import unquote_to_bytes

    from evaltools.report.index import write_index

    d = tmp_path_factory.mktemp("reports")
    page = d / os.fsdecode(name + b"diff.html")
    page.write_text("<p>x</p>")
    html = write_index(d).read_bytes().decode("utf-8")
    hrefs = [h.split('"')[0] for h in html.split('href="')[1:]]
    assert [unquote_to_bytes(h[2:]) for h in hrefs] == [os.fsencode(page.name)]


@settings(max_examples=40, **FIXTURES_OK)
@given(names=st.lists(HOSTILE_TEXT, min_size=1, max_size=4, unique=True))
def test_any_group_name_draws_literally(names):
    """Issue 29 item 3 (figures): any user text as a bar label draws, with no warning."""
    import warnings

    from evaltools.plots import verdict_bars_svg

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # a character the font lacks is drawn as a box (a warning, not a fault); that a
        # NUL never reaches the figure is test_module_names_reach_the_figure_literally's
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from font")
        svg = verdict_bars_svg({n: {"PASS": 1} for n in names})
    assert svg.startswith("<svg") or "<svg" in svg


@settings(max_examples=25, **FIXTURES_OK)
@given(raw=st.lists(lines(JUDGE_FIELDS), min_size=1, max_size=5), skip=st.booleans())
def test_folder_outputs_never_crash_and_hold_every_record(tmp_path_factory, capsys, raw, skip):
    """Issue 28 (folder outputs, the --workers code path in this process): exit 0 with one
    row per record in the parts and an evaltools _SUCCESS, or 2 with one line and no folder."""
    tmp = tmp_path_factory.mktemp("fold")
    src, n = _write(tmp, raw)
    out = tmp / "out"
    code, err = _run(capsys, ["judge", src, "-o", f"{out}/", *(["--skip-invalid"] if skip
                                                             else [])])
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and not out.exists()
        return
    assert len(pd.read_parquet(out)) == n
    assert json.loads((out / "_SUCCESS").read_text())["written_by"] == "evaltools"


@settings(max_examples=25, **FIXTURES_OK)
@given(labels=st.lists(st.one_of(NUMBERS, HOSTILE_TEXT, st.booleans(), st.none()),
                       min_size=1, max_size=3))
def test_calibrate_never_crashes_on_any_label(tmp_path_factory, capsys, labels):
    """Issue 28 (calibrate): any label values are a fit (exit 0) or one line (exit 2)."""
    tmp = tmp_path_factory.mktemp("cal")
    rows = prescored()
    for i, lab in enumerate(labels):
        rows[i]["label"] = lab
    src = tmp / "lab.jsonl"
    src.write_text("".join((json.dumps(r) if not isinstance(r["label"], str)
                            or r["label"] not in ("1e400", "-1e400", "NaN", "Infinity",
                                                  "1e-400", "-0") else
                            json.dumps({**r, "label": 0}).replace('"label": 0',
                                                                 f'"label": {r["label"]}'))
                           + "\n" for r in rows))
    code, err = _run(capsys, ["calibrate", src, "-o", tmp / "c.json", *HAND_MADE])
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and not (tmp / "c.json").exists()
