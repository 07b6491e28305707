"""`evaltools calibrate`, and `evaltools score` adding hallucination_probability."""

from __future__ import annotations

import json

import pytest

from evaltools.calibration.learned import FEATURES, load_calibration
from evaltools.cli import main


def anchors(n_bad, n_good=1):
    return ([{"kind": "claim", "text": "x", "start": 0, "end": 1, "supported": False}] * n_bad
            + [{"kind": "number", "text": "1", "start": 0, "end": 1, "supported": True}]
            * n_good)


def prescored(n=40):
    rows = []
    for i in range(n):
        y = i % 2
        bad = (i % 3) + (2 if y else 0) if i % 7 else (i % 2)
        claims = bad / (bad + 1)
        rows.append({"id": f"q{i // 2:03d}_{'halluc' if y else 'right'}", "label": y,
                     "claims_score": claims, "ngram_overlap": 0.3 + 0.4 * (1 - y) * (i % 4) / 3,
                     "anchors_total": bad + 1, "anchors": anchors(bad),
                     "hallucination": claims, "support": 1 - claims / 2, "error": None})
    return rows


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_calibrate_prescored_file(tmp_path, capsys):
    src = write_jsonl(tmp_path / "scored.jsonl", prescored())
    out = tmp_path / "cal.json"
    code = main(["calibrate", str(src), "-o", str(out), "--group-by", "id",
                 "--group-regex", r"^(.*)_(?:right|halluc)$", "--folds", "4", "--note", "test",
                 "--features", ",".join(FEATURES)])  # no signals in this hand-made file
    assert code == 0
    printed = capsys.readouterr().out
    assert "cross-validated AUROC" in printed and "(4 folds, grouped)" in printed
    cal = load_calibration(out)
    meta = cal.metadata
    assert meta["fitted_on"]["file"] == "scored.jsonl" and meta["fitted_on"]["n"] == 40
    assert len(meta["fitted_on"]["sha256"]) == 64
    assert meta["fitting"]["command"] == (
        "evaltools calibrate scored.jsonl -o cal.json --folds 4 --group-by id "
        "--group-regex '^(.*)_(?:right|halluc)$' --features " + ",".join(FEATURES))
    assert meta["metrics"]["cv_grouped"] is True and meta["note"] == "test"
    assert b"\x80" not in out.read_bytes()  # JSON text, not a pickle


@pytest.mark.parametrize("rows,args,message", [
    ([{"claims_score": 0.1, "label": 3}], [], "in.jsonl line 1: field 'label' must be 0 or 1"),
    ([{"claims_score": 0.1}], ["--label", "y"], "in.jsonl line 1: field 'y' is missing"),
    ([], [], "in.jsonl: no records"),
    (prescored(), ["--group-regex", "x"], "--group-regex needs --group-by"),
    (prescored(), ["--folds", "1"], "--folds must be at least 2"),
    (prescored(6), [], "each label needs at least folds=5 records"),
])
def test_calibrate_bad_input_exit_2_and_writes_nothing(tmp_path, capsys, rows, args, message):
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evaltools calibrate: error: ") and message in err
    assert "Traceback" not in err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_calibrate_scores_raw_records_then_score_uses_it(tmp_path, capsys, nlp):
    raw = []
    for i in range(12):
        price = 10 + i
        raw.append({"id": f"r{i}", "query": "How much is the jar?",
                    "context": f"The jar costs ${price}.00 and ships in 2 days.",
                    "response": f"The jar costs ${price}.00.", "label_hallucinated": 0})
        raw.append({"id": f"h{i}", "query": "How much is the jar?",
                    "context": f"The jar costs ${price}.00 and ships in 2 days.",
                    "response": f"The jar costs ${price + 7}.50 and was released in 2019.",
                    "label_hallucinated": 1})
    src = write_jsonl(tmp_path / "raw.jsonl", raw)
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(cal), "-q", "--folds", "3"]) == 0
    assert capsys.readouterr().out == ""
    assert load_calibration(cal).metadata["metrics"]["cv_auroc"] > 0.9
    out = tmp_path / "scored.jsonl"
    assert main(["score", str(src), "-o", str(out), "-q", "--no-progress",
                 "--calibration", str(cal)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    probs = {r["id"]: r["hallucination_probability"] for r in recs}
    assert all(probs[f"h{i}"] > 0.5 > probs[f"r{i}"] for i in range(12))
    # Without --calibration, the shipped default: the field is always present.
    out2 = tmp_path / "default.jsonl"
    assert main(["score", str(src), "-o", str(out2), "-q", "--no-progress"]) == 0
    default = [json.loads(line) for line in out2.read_text().splitlines()]
    assert all(0 < r["hallucination_probability"] < 1 for r in default)
    # The scored output as CSV (anchors as JSON text, numbers as text) calibrates as it is.
    as_csv = tmp_path / "scored.csv"
    assert main(["score", str(src), "-o", str(as_csv), "-q", "--no-progress"]) == 0
    cal2 = tmp_path / "cal2.json"
    assert main(["calibrate", str(as_csv), "-o", str(cal2), "-q", "--folds", "3"]) == 0
    assert load_calibration(cal2).coefficients == load_calibration(cal).coefficients
