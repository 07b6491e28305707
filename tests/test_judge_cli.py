"""`evaltools judge INPUT -o OUTPUT`: formats, summary, bad input, --skip-invalid."""

import json
from pathlib import Path

import pytest

from evaltools.cli import main
from evaltools.io import open_writer, read_records

DATA = Path(__file__).resolve().parent.parent / "data" / "judgments.jsonl"
GOOD = {"id": "a", "module": "M15", "output": "yes", "expected": True,
        "rules": [True, True, True, False],
        "reasoning": {"chain_of_thought": 6, "evidence_usage": 6, "confidence_calibration": 3},
        "note": "passes through"}


def write_jsonl(path, lines):
    """One line per item: dicts as JSON, strings as written (to break the format)."""
    path.write_text("".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n"
                            for ln in lines), "utf-8")
    return path


def run(capsys, *argv):
    code = main(["judge", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_jsonl_to_jsonl_passes_fields_through(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD, {**GOOD, "id": "b", "output": "no"}])
    code, out, err = run(capsys, src, "-o", tmp_path / "out.jsonl")
    assert (code, err) == (0, "")
    rows = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["id"], r["total_score"], r["verdict"]) for r in rows] == [
        ("a", 85, "PASS"), ("b", 45, "FAIL")]
    assert rows[0]["note"] == "passes through" and rows[0]["rules"] == GOOD["rules"]
    assert rows[0]["evaluation"]["rule_compliance"]["score"] == 30
    assert "M15           2     1     1        0        65.0" in out


@pytest.mark.parametrize("ext", [".csv", ".parquet"])
def test_csv_and_parquet_round_trip(tmp_path, capsys, ext):
    src = tmp_path / f"in{ext}"
    with open_writer(src) as w:
        w.write_all(r for _, r in read_records(DATA))
    code, out, _ = run(capsys, src, "-o", tmp_path / f"out{ext}", "-q")
    assert code == 0 and out == ""
    rows = [r for _, r in read_records(tmp_path / f"out{ext}")]
    assert len(rows) == sum(1 for _ in read_records(DATA))
    code, _, _ = run(capsys, DATA, "-o", tmp_path / "ref.jsonl", "-q")
    ref = [r for _, r in read_records(tmp_path / "ref.jsonl")]
    assert [str(r["verdict"]) for r in rows] == [r["verdict"] for r in ref]
    assert [float(r["total_score"]) for r in rows] == [float(r["total_score"]) for r in ref]


def test_summary_without_output(capsys):
    code, out, _ = run(capsys, DATA)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"evaltools judge: {DATA}"
    assert lines[1].split() == ["module", "records", "PASS", "FAIL", "invalid", "mean",
                                "total", "judges", "with", "findings", "inconsistent",
                                "findings"]
    assert [ln.split()[0] for ln in lines[2:]] == [
        "M01", "M01a", "M01b", "M02", "M04", "M05", "M06", "M07", "M08", "M09", "M11",
        "M12", "M12b", "M13", "M14", "M15", "M16", "all"]


def test_empty_file_is_zero_records(tmp_path, capsys):
    src = tmp_path / "empty.jsonl"
    src.write_text("", "utf-8")
    code, out, _ = run(capsys, src, "-o", tmp_path / "out.jsonl")
    assert code == 0 and (tmp_path / "out.jsonl").read_text() == ""
    assert "all           0     0     0        0           -" in out


BAD = [
    ("missing field", [GOOD, {"module": "M15", "output": True}],
     "in.jsonl line 2: field 'expected' is missing (required: module, output, expected)"),
    ("wrong type", [{"module": "M05", "output": "a", "expected": ["a"]}],
     "in.jsonl line 1: field 'output' must be a list of strings (or JSON text of one); "
     "got text that is not valid JSON (Expecting value): 'a'"),
    ("wrong item type", [{"module": "M05", "output": ["a", 1], "expected": ["a"]}],
     "in.jsonl line 1: field 'output' must be a list of strings; item 2 is int"),
    ("bad JSON line", [GOOD, '{"module": "M15", "output": tru'], "in.jsonl line 2: not valid JSON"),
    ("non-object line", ['["M15", true, true]'],
     "in.jsonl line 1: a record must be a JSON object, got list"),
    ("unknown module", [{**GOOD, "module": "M3"}],
     "in.jsonl line 1: field 'module': unknown module 'M3' (known: M01, M01a"),
    ("bad reasoning", [{**GOOD, "reasoning": {"chain_of_thought": 10}}],
     "in.jsonl line 1: field 'reasoning': chain_of_thought must be a whole number 0-8"),
]


@pytest.mark.parametrize("name,lines,message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, capsys, name, lines, message):
    src = write_jsonl(tmp_path / "in.jsonl", lines)
    out_path = tmp_path / "out.jsonl"
    code, out, err = run(capsys, src, "-o", out_path)
    assert code == 2
    assert err.startswith("evaltools judge: error: " + message)
    assert "Traceback" not in err and out == ""
    assert list(tmp_path.iterdir()) == [src]  # no output, no temporary file left


def test_csv_bad_cell_names_row_and_field(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text('module,output,expected,rules\nM15,yes,true,"[true, true"\n', "utf-8")
    code, _, err = run(capsys, src, "-o", tmp_path / "out.csv")
    assert code == 2
    assert err.startswith("evaltools judge: error: in.csv row 1: field 'rules' must be a "
                          "list (or JSON text of one); got text that is not valid JSON")
    assert not (tmp_path / "out.csv").exists()


def test_csv_plain_cells(tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text("id,module,output,expected\n"
                   "x,M02,own,OWN\n"
                   'y,M05,"[""insulated bottle""]","[""insulated bottle""]"\n'
                   "z,M13,No.,false\n", "utf-8")
    code, _, _ = run(capsys, src, "-o", tmp_path / "out.jsonl", "-q")
    rows = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert code == 0
    assert [r["evaluation"]["correctness"]["score"] for r in rows] == [40, 40, 40]


def test_unknown_extension(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("{}\n", "utf-8")
    code, _, err = run(capsys, src)
    assert code == 2 and "unknown file type '.txt'" in err
    good = write_jsonl(tmp_path / "in.jsonl", [GOOD])
    code, _, err = run(capsys, good, "-o", tmp_path / "out.xlsx")
    assert code == 2 and "unknown file type '.xlsx'" in err
    assert not (tmp_path / "out.xlsx").exists()


def test_missing_input_file(tmp_path, capsys):
    code, _, err = run(capsys, tmp_path / "nope.jsonl")
    assert code == 2 and "file not found" in err


def test_skip_invalid_records_errors_and_judges_the_rest(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [
        GOOD,
        {"module": "M15", "output": True},                # missing field
        '{"module": "M15", "output": tru',                # bad JSON line
        "",                                               # blank: skipped, keeps its number
        '"just a string"',                                # non-object line
        {"module": "M99", "output": 1, "expected": 1},    # unknown module
        {**GOOD, "id": "z"},
    ])
    code, out, err = run(capsys, src, "-o", tmp_path / "out.jsonl", "--skip-invalid")
    assert (code, err) == (0, "")
    rows = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["id"], r["error"] is None) for r in rows] == [
        ("a", True), (2, False), (3, False), (5, False), (6, False), ("z", True)]
    assert rows[1]["error"].startswith("field 'expected' is missing")
    assert rows[2]["error"].startswith("not valid JSON")
    assert rows[3]["error"] == "a record must be a JSON object, got str"
    assert rows[4]["module"] == "M99" and rows[4]["total_score"] is None
    assert "all           6     2     0        4" in out


def test_custom_registry(tmp_path, capsys):
    from evaltools.judging.registry import default_registry_text

    reg = tmp_path / "reg.toml"
    reg.write_text(default_registry_text().replace("pass_at = 70", "pass_at = 90"), "utf-8")
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD])
    code, _, _ = run(capsys, src, "-o", tmp_path / "out.jsonl", "--registry", reg, "-q")
    row = json.loads((tmp_path / "out.jsonl").read_text())
    assert code == 0 and (row["total_score"], row["verdict"]) == (85, "FAIL")
    bad = tmp_path / "bad.toml"
    bad.write_text("[judge]\n", "utf-8")
    code, _, err = run(capsys, src, "--registry", bad)
    assert code == 2 and "bad.toml" in err
