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

from evaltools.io import atomic_path, open_writer, read_records
from evaltools.io.labels import MAX_LINE_BYTES, LabelStore, iter_label_events
from evaltools.values import binary_label

ROOT = Path(__file__).resolve().parent.parent
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
    code, out, _ = run(capsys, "calibrate", src, "-o", "/dev/null")
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
    code, _, err = run(capsys, "calibrate", src, "-o", tmp_path / "c.json")
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
