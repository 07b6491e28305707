"""Column mapping: files whose columns are named otherwise (``--map question=query,...``).

CSV, JSON Lines and Parquet are read the same way; a missing required field
names the columns read and suggests ``--map``; Python takes ``columns=``.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from evaltools.cli import main
from evaltools.errors import InputError
from evaltools.io import map_columns, parse_column_map, read_records

ROWS = [{"question": "What does the mug cost?", "context": "The mug costs $5.",
         "answer": "The mug costs $5."},
        {"question": "What does the mug cost?", "context": "The mug costs $5.",
         "answer": "The mug costs $7."}]
MAP = "question=query,answer=response"


def _write(path, rows):
    if path.suffix == ".csv":
        pd.DataFrame(rows).to_csv(path, index=False)
    elif path.suffix == ".parquet":
        pd.DataFrame(rows).to_parquet(path)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_parse_column_map():
    assert parse_column_map(MAP) == {"question": "query", "answer": "response"}
    assert parse_column_map(" question = query ,") == {"question": "query"}
    assert parse_column_map({"q": "query"}) == {"q": "query"}
    assert parse_column_map(None) == {}
    with pytest.raises(InputError, match="'question' is not COLUMN=FIELD"):
        parse_column_map("question")
    with pytest.raises(InputError, match="two columns are mapped to field 'query'"):
        parse_column_map("q=query,question=query")
    with pytest.raises(InputError, match="is not COLUMN=FIELD"):
        parse_column_map("=query")


def test_map_columns_keeps_order_and_prefers_the_mapped_column():
    got = list(map_columns([(3, {"id": 1, "question": "q", "query": "old", "x": 2})],
                           {"question": "query"}))
    assert got == [(3, {"id": 1, "query": "q", "x": 2})]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_score_with_map_in_every_format(tmp_path, capsys, suffix):
    src = _write(tmp_path / f"qa{suffix}", ROWS)
    assert next(rec for _, rec in read_records(src, columns=parse_column_map(MAP))) == {
        "query": ROWS[0]["question"], "context": ROWS[0]["context"],
        "response": ROWS[0]["answer"]}
    code = main(["score", str(src), "--map", MAP, "-o", "-", "--no-progress", "-q"])
    assert code == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in out] == ["PASS", "FAIL"]
    assert out[0]["response"] == ROWS[0]["answer"] and "answer" not in out[0]


@pytest.mark.parametrize("suffix,unit", [(".csv", "row"), (".jsonl", "line"),
                                         (".parquet", "row")])
def test_missing_field_names_the_columns_read_and_suggests_map(tmp_path, capsys, suffix,
                                                               unit):
    src = _write(tmp_path / f"qa{suffix}", ROWS)
    assert main(["score", str(src), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"evaltools score: error: qa{suffix} {unit} 1: field 'query' is missing "
                   "(required: query, context, response); columns read: question, context, "
                   "answer; map them with --map COLUMN=FIELD (e.g. --map question=query)")


def test_semicolon_csv_shows_the_header_read(tmp_path, capsys):
    src = tmp_path / "semi.csv"
    src.write_text("question;context;answer\nq;c;a\n", encoding="utf-8")
    assert main(["score", str(src), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "columns read: 'question;context;answer'" in err
    assert "is the file separated by ';'?" in err


def test_report_and_compare_take_map(tmp_path, capsys):
    src = _write(tmp_path / "qa.csv", ROWS)
    out = tmp_path / "r.html"
    assert main(["report", str(src), "--map", MAP, "-o", str(out), "-q",
                 "--no-progress"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "mug costs" in page and "ev-badge ev-FAIL" in page
    diff = tmp_path / "d.html"
    assert main(["report", "--reference", str(src), str(src), "--map", MAP, "-o", str(diff),
                 "-q", "--no-progress"]) == 0
    assert "No change beyond chance" in diff.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(src), "-o", str(out), "-q", "--no-progress"]) == 2
    assert "--map" in capsys.readouterr().err


def test_map_with_workers_is_refused_in_one_line(tmp_path, capsys):
    src = _write(tmp_path / "qa.jsonl", ROWS)
    assert main(["score", str(src), str(src), "--map", MAP, "-o", str(tmp_path / "o/"),
                 "--no-progress"]) == 2
    assert "--map is read by one process only" in capsys.readouterr().err


def test_python_score_frame_and_records_take_columns():
    import evaltools

    df = pd.DataFrame(ROWS)
    out = evaltools.score_frame(df, columns={"question": "query", "answer": "response"})
    assert list(out["verdict"]) == ["PASS", "FAIL"]
    same = evaltools.score_frame(df, columns=MAP)
    assert list(same["verdict"]) == ["PASS", "FAIL"]
    assert [r.verdict for r in evaltools.score_records(ROWS, columns=MAP)] == ["PASS", "FAIL"]
    with pytest.raises(InputError, match="columns read: question, context, answer"):
        evaltools.score_frame(df)
