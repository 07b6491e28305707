"""Edges every subcommand shares: unwritable outputs, odd files, permissions, pipes, progress."""

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from evaltools.cli import main
from evaltools.errors import InputError
from evaltools.io import Unreadable, read_records

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
EVALTOOLS = [sys.executable, "-m", "evaltools"]
GOOD = {"id": "a", "query": "What does the mug cost?", "context": "The mug costs $12.",
        "response": "The mug costs $12."}
LABELLED = [{**GOOD, "id": str(i), "label_hallucinated": i % 2,
             "response": "The mug costs $12." if i % 2 == 0 else "The mug costs $19."}
            for i in range(12)]


def _jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _commands(tmp_path):
    """Each subcommand with a good input and an output path under a *file* (unwritable)."""
    src = _jsonl(tmp_path / "in.jsonl", [GOOD])
    labelled = _jsonl(tmp_path / "labelled.jsonl", LABELLED)
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    return {
        "score": ["score", src, "-o", blocker / "out.jsonl", "--no-progress"],
        "judge": ["judge", DATA / "judgments.jsonl", "-o", blocker / "out.csv", "-q"],
        "report": ["report", src, "-o", blocker / "r.html", "-q"],
        "calibrate": ["calibrate", labelled, "-o", blocker / "c.json", "-q"],
    }


@pytest.mark.parametrize("command", ["score", "judge", "report", "calibrate"])
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(tmp_path, capsys, command):
    argv = _commands(tmp_path)[command]
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cannot write there (" in err and "afile is a file, not a folder" in err
    leftovers = sorted(p.name for p in tmp_path.iterdir())
    assert leftovers == ["afile", "in.jsonl", "labelled.jsonl"]


@pytest.mark.parametrize("name", ["out.jsonl", "out.csv", "out.parquet"])
def test_outputs_get_the_permissions_of_a_new_file(tmp_path, capsys, name):
    src = _jsonl(tmp_path / "in.jsonl", [GOOD])
    old = os.umask(0o022)
    try:
        assert main(["score", str(src), "-o", str(tmp_path / name), "-q", "--no-progress"]) == 0
        assert main(["calibrate", str(_jsonl(tmp_path / "l.jsonl", LABELLED)), "-o",
                     str(tmp_path / "c.json"), "-q"]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / name).stat().st_mode & 0o777 == 0o644   # 0o666 & ~0o022
    assert (tmp_path / "c.json").stat().st_mode & 0o777 == 0o644


def test_a_byte_order_mark_is_ignored_in_json_lines(tmp_path):
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\n")
    assert [rec for _, rec in read_records(p)] == [GOOD]


def test_a_ragged_csv_row_is_skipped_under_skip_invalid(tmp_path, capsys):
    p = tmp_path / "ragged.csv"
    p.write_text("id,query,context,response\n1,q,c,r\n2,q,c,r,extra\n3,q,c,r\n")
    with pytest.raises(InputError, match=r"ragged.csv row 2: has 5 cells but the header has 4"):
        list(read_records(p))
    got = list(read_records(p, skip_invalid=True))
    assert [n for n, _ in got] == [1, 2, 3]
    assert got[1][1] == Unreadable("has 5 cells but the header has 4")
    out = tmp_path / "out.jsonl"
    assert main(["score", str(p), "-o", str(out), "--skip-invalid", "-q", "--no-progress"]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["error"] for r in rows] == [None, "has 5 cells but the header has 4", None]


def test_a_csv_header_that_names_a_column_twice_is_refused(tmp_path):
    p = tmp_path / "dup.csv"
    p.write_text("id,query,context,response,response\n1,q,c,r,s\n")
    with pytest.raises(InputError) as err:
        list(read_records(p))
    assert str(err.value) == "dup.csv: the header names column 'response' twice"
    assert err.value.field == "response"


def test_a_damaged_parquet_row_group_names_its_rows(tmp_path, capsys):
    n = 3000
    table = pa.table({"id": [str(i) for i in range(n)], "query": ["q"] * n,
                      "context": ["c"] * n, "response": [f"r {i}" for i in range(n)]})
    good = tmp_path / "good.parquet"
    pq.write_table(table, good, row_group_size=500, compression="none")
    raw = bytearray(good.read_bytes())
    raw[len(raw) // 2: len(raw) // 2 + 200] = b"\xff" * 200   # inside a middle row group
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(raw))
    assert sum(1 for _ in read_records(good)) == n
    with pytest.raises(InputError, match=r"^bad.parquet: rows \d+-\d+ \(row group \d\) "
                                         r"cannot be read \(.+\)$"):
        list(read_records(bad))
    assert main(["score", str(bad), "-o", str(tmp_path / "o.jsonl"), "--no-progress"]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_a_closed_stdout_ends_quietly(tmp_path):
    out = tmp_path / "j.jsonl"
    proc = subprocess.run(
        f"{sys.executable} -m evaltools judge {DATA / 'judgments.jsonl'} -o {out} | head -1",
        shell=True, capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.stdout.startswith("evaltools judge:")
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    assert sum(1 for _ in out.open()) == 89   # the output was written in full


def _stderr_on_a_terminal(argv) -> str:
    leader, follower = pty.openpty()
    # a terminal 120 columns wide (a fresh pty is 0 x 0, where tqdm draws nothing)
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=follower, cwd=ROOT)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    assert proc.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow  # two CLI subprocesses on a pseudo-terminal each: 6-13 s alone
@pytest.mark.parametrize("command,words", [
    (["score", str(DATA / "responses.jsonl")], "scoring"),
    (["judge", str(DATA / "judgments.jsonl")], "judging"),
    (["report", str(DATA / "judgments.jsonl")], "reading judgments.jsonl"),
])
def test_a_progress_bar_shows_on_a_terminal_and_not_with_no_progress(tmp_path, command, words):
    out = tmp_path / ("r.html" if command[0] == "report" else "o.jsonl")
    shown = _stderr_on_a_terminal([*EVALTOOLS, *command, "-o", str(out), "-q"])
    assert words in shown and " rec" in shown
    hidden = _stderr_on_a_terminal([*EVALTOOLS, *command, "-o", str(out), "-q",
                                    "--no-progress"])
    assert words not in hidden


def test_pandas_integers_with_gaps_are_booleans():
    import evaltools

    df = pd.DataFrame({"module": ["M04", "M04"], "output": [1, None], "expected": [1, 0]})
    assert df["output"].dtype == float   # pandas: 1.0 and NaN
    out = evaltools.judge_frame(df, skip_invalid=True)
    assert (out["match_level"][0], out["correctness_score"][0]) == ("YES", 40)
    assert out["error"][1].startswith("field 'output' is missing")
