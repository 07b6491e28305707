"""The Annotator loses no acknowledged label when its process is killed.

A child process drives a real Annotator (button clicks, as in a notebook)
and prints ``ACK <id>`` after each click handler returns. The parent kills it
with SIGKILL mid-run, then checks that every acknowledged label is in the
file, that the file still parses, and that a new Annotator resumes right
after the last saved case and keeps writing parseable lines. The child is a
plain Python process (three kills in a row) and, in a second test, a real
Jupyter kernel.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

from evaltools.io.label_store import LabelStore, iter_label_events, read_labels
from evaltools.widgets import Annotator

N_CASES = 5000

WRITER = textwrap.dedent(
    """
    import sys
    import pandas as pd
    from evaltools.widgets.annotator import Annotator

    path, n = sys.argv[1], int(sys.argv[2])
    df = pd.DataFrame({"id": [f"c{i:05d}" for i in range(n)],
                       "query": ["q"] * n, "response": ["r"] * n})
    ann = Annotator(df, path, labels={"hallucinated": 1, "faithful": 0},
                    field="label_hallucinated")
    print("START", ann.current_id, flush=True)
    buttons = list(ann.label_buttons.values())
    while not ann.done:
        cid = ann.current_id
        ann.note.value = "note for " + cid
        buttons[int(cid[1:]) % 2].click()     # the handler saves, then returns
        print("ACK", cid, flush=True)
    print("DONE", flush=True)
    """
)


def _start_writer(path: Path) -> subprocess.Popen:
    import evaltools

    root = str(Path(evaltools.__file__).resolve().parent.parent)
    pythonpath = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=pythonpath)
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(N_CASES)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def _run_and_kill(path: Path, after_acks: int) -> tuple[str, list[str]]:
    """Start a writer, SIGKILL it after ``after_acks`` acknowledgements."""
    proc = _start_writer(path)
    acked: list[str] = []
    start_id = ""
    deadline = time.monotonic() + 60
    try:
        while len(acked) < after_acks:
            if time.monotonic() > deadline:
                pytest.fail(f"writer too slow: {len(acked)} acks in 60 s")
            line = proc.stdout.readline()
            if not line:
                pytest.fail(f"writer ended early: {proc.stderr.read()[-2000:]}")
            kind, _, rest = line.strip().partition(" ")
            if kind == "START":
                start_id = rest
            elif kind == "ACK":
                acked.append(rest)
            elif kind == "DONE":
                pytest.fail("writer finished before it could be killed")
        os.kill(proc.pid, signal.SIGKILL)  # mid-run: it is busy writing the next labels
        # Acks printed before the kill are acknowledged too: read them all.
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    for line in out.splitlines():
        kind, _, rest = line.strip().partition(" ")
        if kind == "ACK":
            acked.append(rest)
    return start_id, acked


def _expected_value(cid: str) -> int:
    # button 0 is "hallucinated" (1), button 1 "faithful" (0)
    return 1 if int(cid[1:]) % 2 == 0 else 0


@pytest.mark.slow
def test_killed_writer_loses_no_acknowledged_label(tmp_path):
    path = tmp_path / "labels.jsonl"
    all_acked: list[str] = []
    for round_no, after in enumerate((40, 75, 120)):
        start_id, acked = _run_and_kill(path, after)
        # Resume: each new writer starts at the first case with no label yet.
        expected_start = f"c{len(set(all_acked)):05d}" if round_no else "c00000"
        if round_no:
            assert start_id >= expected_start
        else:
            assert start_id == "c00000"
        all_acked += acked

        # The file still parses; at most its last line is torn by the kill.
        raw_lines = path.read_bytes().split(b"\n")
        bad: list[int] = []
        events = list(iter_label_events(path, bad_lines=bad))
        assert all(lineno == len([x for x in raw_lines if x.strip()]) for lineno in bad), bad
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            labels = read_labels(path)

        # Every acknowledged label is on disk with its value and note.
        by_id = labels.set_index("id")
        missing = [cid for cid in all_acked if cid not in by_id.index]
        assert not missing, f"acknowledged but lost: {missing[:10]}"
        for cid in all_acked:
            assert by_id.loc[cid, "label_hallucinated"] == _expected_value(cid)
            assert by_id.loc[cid, "note"] == f"note for {cid}"
        assert len(events) >= len(all_acked)

    # The three runs labelled a contiguous prefix of the cases, each case once
    # (resume never relabels a saved case).
    ids = [ev["id"] for ev in iter_label_events(path)]
    assert len(ids) == len(set(ids))
    assert ids == [f"c{i:05d}" for i in range(len(ids))]


@pytest.mark.slow
def test_killed_jupyter_kernel_loses_no_acknowledged_label(tmp_path):
    """The same with a real IPython kernel, killed (SIGKILL) while it is labelling."""
    from jupyter_client import KernelManager

    import evaltools

    path = tmp_path / "labels.jsonl"
    root = str(Path(evaltools.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [root, os.environ.get("PYTHONPATH")])))
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(tmp_path), env=env)
    kc = km.client()
    kc.start_channels()
    acked: list[str] = []
    try:
        kc.wait_for_ready(timeout=60)
        code = WRITER.replace("path, n = sys.argv[1], int(sys.argv[2])",
                              f"path, n = {str(path)!r}, {N_CASES}")
        msg_id = kc.execute(code)
        deadline = time.monotonic() + 60
        buffer = ""
        while len(acked) < 60:
            if time.monotonic() > deadline:
                pytest.fail(f"kernel too slow: {len(acked)} acks in 60 s")
            msg = kc.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "error":
                pytest.fail("\n".join(msg["content"]["traceback"])[-2000:])
            if msg["msg_type"] == "stream":
                buffer += msg["content"]["text"]
                *lines, buffer = buffer.split("\n")
                acked += [x.split(" ", 1)[1] for x in lines if x.startswith("ACK ")]
        os.kill(km.provisioner.process.pid, signal.SIGKILL)   # the kernel dies mid-run
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        labels = read_labels(path).set_index("id")
    missing = [cid for cid in acked if cid not in labels.index]
    assert not missing, f"acknowledged but lost: {missing[:10]}"
    assert len(labels) >= len(acked)
    assert all(labels.loc[cid, "label_hallucinated"] == _expected_value(cid) for cid in acked)
    # A new annotator (a restarted kernel) resumes after the last saved case.
    df = pd.DataFrame({"id": [f"c{i:05d}" for i in range(N_CASES)], "query": ["q"] * N_CASES,
                       "response": ["r"] * N_CASES})
    ann = Annotator(df, path, labels={"hallucinated": 1, "faithful": 0},
                    field="label_hallucinated")
    assert ann.current_id == f"c{len(labels):05d}"


def test_torn_last_line_is_skipped_and_later_labels_parse(tmp_path):
    path = tmp_path / "labels.jsonl"
    store = LabelStore(path, clock=lambda: "T0")
    store.append("a", "label_verdict", "PASS")
    with path.open("ab") as fh:               # a crash in the middle of a write
        fh.write(b'{"id": "b", "field": "label_verdi')
    store.append("c", "label_verdict", "FAIL")  # ends the torn line first
    lines = path.read_bytes().splitlines()
    assert len(lines) == 3
    json.loads(lines[2])
    with pytest.warns(RuntimeWarning, match="skipped 1 unreadable line"):
        df = read_labels(path)
    assert df["id"].tolist() == ["a", "c"]
    assert df.attrs["skipped_lines"] == [2]


def test_append_is_fsynced_before_it_returns(tmp_path, monkeypatch):
    calls: list[str] = []
    real_write, real_fsync = os.write, os.fsync
    monkeypatch.setattr(os, "write", lambda fd, b: calls.append("write") or real_write(fd, b))
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync") or real_fsync(fd))
    LabelStore(tmp_path / "l.jsonl").append("a", "label_verdict", "PASS")
    assert calls[:2] == ["write", "fsync"]
    calls.clear()
    LabelStore(tmp_path / "l.jsonl").append("b", "label_verdict", "PASS")
    assert calls == ["write", "fsync"]
