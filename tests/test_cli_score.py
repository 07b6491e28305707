"""`evaltools score`: formats, bad input (exit 2, file + line + field, nothing written)."""

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from evaltools.cli import main

GOOD = {"id": "a", "query": "What does the mug cost?", "context": "The mug costs $12.",
        "response": "The mug costs $12."}


def write_jsonl(path, records):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n"
                            for r in records), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main(["score", *map(str, argv), "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def test_jsonl_to_jsonl_with_summary(tmp_path, capsys):
    second = {**GOOD, "id": "b", "response": "The mug costs $15."}
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD, second])
    code, out, err = run(capsys, src, "-o", tmp_path / "out.jsonl")
    assert code == 0, err
    rows = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert [r["verdict"] for r in rows][1] == "FAIL"
    assert rows[0]["query"] == GOOD["query"]   # input fields pass through
    assert "records  2" in out and "FAIL" in out


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_csv_and_parquet_round_trip(tmp_path, capsys, ext):
    src = tmp_path / f"in.{ext}"
    df = pd.DataFrame([GOOD, {**GOOD, "id": "b", "response": "The mug costs $15."}])
    df.to_csv(src, index=False) if ext == "csv" else df.to_parquet(src)
    out_path = tmp_path / f"out.{ext}"
    code, _, err = run(capsys, src, "-o", out_path)
    assert code == 0, err
    back = pd.read_csv(out_path) if ext == "csv" else pd.read_parquet(out_path)
    assert list(back["verdict"]) == ["PASS", "FAIL"]
    anchors = json.loads(back["anchors"][1])   # nested fields are JSON text
    assert anchors[0]["text"] == "$15"


def test_empty_file_is_zero_records(tmp_path, capsys):
    src = tmp_path / "empty.jsonl"
    src.write_text("")
    code, out, _ = run(capsys, src, "-o", tmp_path / "out.jsonl")
    assert code == 0 and "records  0" in out
    assert (tmp_path / "out.jsonl").read_text() == ""


def test_missing_id_gets_the_record_number(tmp_path, capsys):
    rec = {k: v for k, v in GOOD.items() if k != "id"}
    src = write_jsonl(tmp_path / "in.jsonl", [rec, "", rec])
    code, _, _ = run(capsys, src, "-o", tmp_path / "out.jsonl")
    assert code == 0
    assert [json.loads(x)["id"] for x in (tmp_path / "out.jsonl").read_text().splitlines()] \
        == [1, 2]


BAD_CASES = [
    ("missing field", [GOOD, {"query": "q", "context": "c"}],
     "in.jsonl line 2: field 'response' is missing (required: query, context, response)"),
    ("null field", [{**GOOD, "query": None}], "in.jsonl line 1: field 'query' is missing"),
    ("wrong type", [{**GOOD, "context": 3}],
     "in.jsonl line 1: field 'context' must be a string, got int"),
    ("not json", [GOOD, GOOD, "{not json"], "in.jsonl line 3: not valid JSON"),
    ("not an object", ["[1, 2]"], "in.jsonl line 1: a record must be a JSON object, got list"),
    ("NaN", ['{"query": NaN}'], "in.jsonl line 1: not valid JSON (NaN is not allowed)"),
]


@pytest.mark.parametrize(("name", "records", "message"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_input_exits_2_names_where_and_writes_nothing(tmp_path, capsys, name, records,
                                                          message):
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out_path = tmp_path / "out.jsonl"
    code, _, err = run(capsys, src, "-o", out_path)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert not out_path.exists()
    assert os.listdir(tmp_path) == ["in.jsonl"]   # no temporary file left behind


def test_bad_input_leaves_an_existing_output_untouched(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD, {"query": 1}])
    out_path = tmp_path / "out.jsonl"
    out_path.write_text("previous results\n")
    code, _, _ = run(capsys, src, "-o", out_path)
    assert code == 2 and out_path.read_text() == "previous results\n"


def test_invalid_utf8(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(json.dumps(GOOD).encode() + b"\n\xff\xfe\n")
    code, _, err = run(capsys, src, "-o", tmp_path / "o.jsonl")
    assert code == 2 and "in.jsonl line 2: not valid UTF-8" in err


def test_csv_missing_column_names_the_row(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text("query,context\nq,c\n")
    code, _, err = run(capsys, src, "-o", tmp_path / "o.csv")
    assert code == 2 and "in.csv row 1: field 'response' is missing" in err


def test_csv_ragged_row(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text("query,context,response\nq,c,r\nq,c,r,extra\n")
    code, _, err = run(capsys, src, "-o", tmp_path / "o.csv")
    assert code == 2 and "in.csv row 2: has 4 cells but the header has 3" in err


def test_csv_empty_cell_is_an_empty_string(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text("query,context,response\nPrice?,,It costs $5.\n")
    code, _, _ = run(capsys, src, "-o", tmp_path / "o.jsonl")
    row = json.loads((tmp_path / "o.jsonl").read_text())
    assert code == 0 and row["context"] == "" and row["hallucination"] == 1.0


def test_parquet_that_is_not_parquet(tmp_path, capsys):
    src = tmp_path / "in.parquet"
    src.write_text("hello")
    code, _, err = run(capsys, src, "-o", tmp_path / "o.jsonl")
    assert code == 2 and "in.parquet: not a readable Parquet file" in err


def test_unknown_extension_and_missing_file(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("x")
    code, _, err = run(capsys, src, "-o", tmp_path / "o.jsonl")
    assert code == 2 and "unknown file type '.txt'" in err
    code, _, err = run(capsys, tmp_path / "nope.jsonl", "-o", tmp_path / "o.jsonl")
    assert code == 2 and "nope.jsonl: file not found" in err
    code, _, err = run(capsys, write_jsonl(tmp_path / "ok.jsonl", [GOOD]), "-o",
                       tmp_path / "o.xlsx")
    assert code == 2 and "unknown file type '.xlsx'" in err


def test_skip_invalid_records_the_error_and_scores_the_rest(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD, {"id": "x", "query": 5}, GOOD])
    code, out, _ = run(capsys, src, "-o", tmp_path / "o.jsonl", "--skip-invalid")
    rows = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert code == 0 and len(rows) == 3
    assert rows[1]["id"] == "x" and rows[1]["verdict"] is None
    assert rows[1]["error"] == "field 'query' must be a string, got int"
    assert rows[0]["error"] is None and "invalid: 1" in out


def test_bad_config_file(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[hallucination]\nfail_above = 1.5\n")
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, src, "--config", cfg)
    assert code == 2
    assert "[hallucination] fail_above must be a float in [0, 1]. Got 1.5 instead." in err


def test_config_file_changes_the_verdict(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[completeness]\nwarn_below = 0.0\n[relevance]\nfail_below = 0.0\n")
    src = write_jsonl(tmp_path / "in.jsonl", [{**GOOD, "response": "Yes."}])
    code, _, _ = run(capsys, src, "-o", tmp_path / "o.jsonl", "--config", cfg)
    assert code == 0
    assert json.loads((tmp_path / "o.jsonl").read_text())["verdict"] == "PASS"


def test_the_installed_command_prints_no_traceback(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": "q"}])
    proc = subprocess.run([sys.executable, "-m", "evaltools", "score", str(src), "-o",
                           str(tmp_path / "o.jsonl")], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("evaltools score: error: in.jsonl line 1: field 'context' "
                                   "is missing (required: query, context, response); "
                                   "columns read: query")


def test_skip_invalid_records_unreadable_lines_too(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD, "{not json", "[1]", GOOD])
    code, out, _ = run(capsys, src, "-o", tmp_path / "o.jsonl", "--skip-invalid")
    rows = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert code == 0 and len(rows) == 4
    assert rows[1]["id"] == 2 and rows[1]["error"].startswith("not valid JSON")
    assert rows[2]["error"] == "a record must be a JSON object, got list"
    assert rows[3]["verdict"] == "PASS" and "invalid: 2" in out
