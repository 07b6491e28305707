"""`evaltools calibrate`, and `evaltools score` adding hallucination_probability."""

from __future__ import annotations

import json

import pytest

from evaltools.calibration.learned import DEFAULT_FEATURES, FEATURES, load_calibration
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


@pytest.mark.slow  # 6.4 s alone
def test_calibrate_prescored_file(tmp_path, capsys):
    src = write_jsonl(tmp_path / "scored.jsonl", prescored())
    out = tmp_path / "cal.json"
    code = main(["calibrate", str(src), "-o", str(out), "--group-by", "id",
                 "--group-regex", r"^(.*)_(?:right|halluc)$", "--folds", "4", "--note", "test",
                 "--features", ",".join(FEATURES), "--prior", "none"])  # no signals here
    assert code == 0
    printed = capsys.readouterr().out
    assert "cross-validated AUROC" in printed and "(4 folds, grouped)" in printed
    cal = load_calibration(out)
    meta = cal.metadata
    assert meta["fitted_on"]["file"] == "scored.jsonl" and meta["fitted_on"]["n"] == 40
    assert len(meta["fitted_on"]["sha256"]) == 64
    assert meta["fitting"]["command"] == (
        "evaltools calibrate scored.jsonl -o cal.json --folds 4 --prior none --group-by id "
        "--group-regex '^(.*)_(?:right|halluc)$' --features " + ",".join(FEATURES))
    assert meta["metrics"]["cv_grouped"] is True and meta["note"] == "test"
    assert b"\x80" not in out.read_bytes()  # JSON text, not a pickle


@pytest.mark.parametrize("rows,args,message", [
    ([{"claims_score": 0.1, "label": 3}], [], "in.jsonl line 1: field 'label' must be 0 or 1"),
    ([{"claims_score": 0.1}], ["--label", "y"], "in.jsonl line 1: field 'y' is missing"),
    ([], [], "in.jsonl: no records"),
    (prescored(), ["--group-regex", "x"], "--group-regex needs --group-by"),
    (prescored(), ["--folds", "1"], "--folds must be at least 2"),
    (prescored(6), ["--prior", "none"], "each label needs at least folds=5 records"),
    (prescored(), [], "in.jsonl: the records have no 'signals' field (scored by an older "
                      "evaltools?), which the prior reads: score them again, or fit from "
                      "scratch with --prior none"),
    (prescored(), ["--prior", "nowhere.json"], "nowhere.json: calibration file not found"),
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
    # By default the fit starts from the shipped probability, folded into one linear model
    shipped, got = load_calibration(), load_calibration(cal)
    assert got.metadata["prior"]["features"] == list(shipped.feature_names)
    assert set(shipped.feature_names) < set(got.feature_names)  # beside every signal
    assert got.metadata["fitting"]["C"] == 0.01
    scratch = tmp_path / "scratch.json"
    assert main(["calibrate", str(src), "-o", str(scratch), "-q", "--folds", "3",
                 "--prior", "none"]) == 0
    fitted = load_calibration(scratch)
    assert "prior" not in fitted.metadata and fitted.feature_names == DEFAULT_FEATURES
    assert fitted.metadata["fitting"]["C"] == 1.0
    # any calibration file can be the prior
    chained = tmp_path / "chained.json"
    assert main(["calibrate", str(src), "-o", str(chained), "-q", "--folds", "3",
                 "--prior", str(scratch), "--features", "claims_score"]) == 0
    got = load_calibration(chained)
    assert got.metadata["prior"]["fitted_on"]["file"] == "raw.jsonl"
    assert got.feature_names == ("claims_score", *DEFAULT_FEATURES)


# ------------------------------------------------------------------ learning curve, threshold

#: Hand-made files carry the score fields, not the scorer's signals.
SCORE_FEATURES = ["--features", ",".join(FEATURES), "--prior", "none"]  # no signals


def test_calibrate_reports_learning_curve_and_threshold(tmp_path, capsys):
    src = write_jsonl(tmp_path / "scored.jsonl", prescored(60))
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(out), "--group-by", "id", "--group-regex",
                 r"^(.*)_(?:right|halluc)$", "--repeats", "2", *SCORE_FEATURES]) == 0
    printed = capsys.readouterr().out
    cal = load_calibration(out)
    value = cal.metadata["recommended_threshold"]
    t = cal.metadata["threshold_metrics"]
    assert cal.recommended_threshold == value and 0.0 <= value <= 1.0
    assert set(t) >= {"rule", "f1", "precision", "recall", "f1_cross_fitted", "n"}
    assert t["n"] == 60 and t["rule"] == f"hallucination_probability >= {value:.4g}"
    assert (f"recommended threshold  hallucination_probability >= {value:.4g}  "
            f"(max F1 out-of-fold: F1 {t['f1']:.3f}, precision {t['precision']:.3f}, "
            f"recall {t['recall']:.3f}") in printed
    lc = cal.metadata["learning_curve"]
    assert lc["grouped"] and lc["repeats"] == 2 and lc["folds"] == 5
    assert [p["n"] for p in lc["points"]] == [25, 50, 60]
    assert "learning curve  (2 random subsamples per size, by group; 5-fold CV in each)" \
        in printed
    rows = printed.split("learning curve", 1)[1].splitlines()[1:5]
    assert rows[0].split() == ["labels", "records", "halluc", "runs", "AUROC", "sd", "min",
                               "max", "F1", "sd"]
    for row, point in zip(rows[1:], lc["points"], strict=True):
        cells = row.split()
        assert int(cells[0]) == point["n"] and int(cells[3]) == point["repeats"]
        assert int(cells[2]) == round(point["n_positive"])
        assert float(cells[4]) == pytest.approx(point["auroc_mean"], abs=5e-4)
        assert float(cells[8]) == pytest.approx(point["f1_mean"], abs=5e-4)
    assert "--repeats 2" in cal.metadata["fitting"]["command"]


def test_calibrate_given_threshold_is_the_verdicts_and_its_metrics_are_hand_checkable(
        tmp_path, capsys):
    src = write_jsonl(tmp_path / "scored.jsonl", prescored(60))
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(out), "--repeats", "0", "--threshold",
                 "0.7", *SCORE_FEATURES]) == 0
    printed = capsys.readouterr().out
    cal = load_calibration(out)
    t = cal.metadata["threshold_metrics"]
    assert cal.recommended_threshold == 0.7 and cal.metadata["recommended_threshold"] == 0.7
    assert t["criterion"] == "given" and t["rule"] == "hallucination_probability >= 0.7"
    assert t["chosen_on"].startswith("given (evaltools calibrate --threshold)")
    assert "recommended threshold  hallucination_probability >= 0.7  (given; out-of-fold" \
        in printed
    assert "--threshold 0.7" in cal.metadata["fitting"]["command"]
    # the metrics are those of p >= 0.7 on the out-of-fold probabilities, by hand
    from evaltools.calibration.labelled_fit import fit_on_labels

    rows = prescored(60)
    lf = fit_on_labels(rows, label="label", repeats=1, curve=False, threshold=0.7,
                       features=list(FEATURES), prior=None)
    p = lf.fit.cv_probabilities
    y = [r["label"] for r in rows]
    flagged = [pi >= 0.7 for pi in p]
    tp = sum(f and yi for f, yi in zip(flagged, y, strict=True))
    assert lf.threshold.value == 0.7 and lf.threshold.given
    assert lf.threshold.flagged_share == pytest.approx(sum(flagged) / 60)
    assert lf.threshold.recall == pytest.approx(tp / sum(y))
    out.unlink()
    for bad in ("0", "1", "1.5"):
        assert main(["calibrate", str(src), "-o", str(out), "--threshold", bad]) == 2
        assert f"--threshold must be between 0 and 1 (exclusive). Got {float(bad)} instead." \
            in capsys.readouterr().err
        assert not out.exists()


def test_calibrate_without_curve_and_bad_repeats(tmp_path, capsys):
    src = write_jsonl(tmp_path / "scored.jsonl", prescored())
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(out), "--repeats", "0",
                 *SCORE_FEATURES]) == 0
    assert "learning curve" not in capsys.readouterr().out
    cal = load_calibration(out)
    assert "learning_curve" not in cal.metadata
    assert "recommended_threshold" in cal.metadata and "threshold_metrics" in cal.metadata
    out.unlink()
    assert main(["calibrate", str(src), "-o", str(out), "--repeats", "-1"]) == 2
    assert "--repeats must be 0 or more. Got -1 instead." in capsys.readouterr().err
    assert not out.exists()


def test_calibrate_on_annotator_labels_then_score_applies_it(tmp_path, capsys):
    from evaltools.io.label_store import LabelStore

    rows = prescored(50)
    unlabelled = [{k: v for k, v in r.items() if k != "label"} for r in rows]
    src = write_jsonl(tmp_path / "scored.jsonl", unlabelled)
    labels = tmp_path / "labels.jsonl"
    store = LabelStore(labels)
    for r in rows[:44]:  # the Annotator labelled 44 of 50
        store.append(r["id"], "label_hallucinated", "hallucinated" if r["label"] else
                     "faithful", value=r["label"])
    store.append("not-a-record", "label_hallucinated", "faithful", value=0)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "--labels", str(labels), "-o", str(out),
                 "--repeats", "1", *SCORE_FEATURES]) == 0
    printed = capsys.readouterr().out
    assert ("labels   44 records labelled in labels.jsonl; 6 without a label left out; "
            "1 labelled ids not in scored.jsonl") in printed
    cal = load_calibration(out)
    assert cal.metadata["fitted_on"]["n"] == 44
    assert cal.metadata["fitted_on"]["labels"]["file"] == "labels.jsonl"
    assert cal.metadata["fitted_on"]["labels"]["n_unlabelled"] == 6
    assert "--labels labels.jsonl" in cal.metadata["fitting"]["command"]
    # The same fit as from a file that carries the labels itself.
    direct = tmp_path / "direct.jsonl"
    write_jsonl(direct, rows[:44])
    assert main(["calibrate", str(direct), "-o", str(tmp_path / "d.json"), "-q",
                 "--repeats", "0", *SCORE_FEATURES]) == 0
    assert load_calibration(tmp_path / "d.json").coefficients == cal.coefficients
    # A label file written with text buttons: one line naming the file, field and case.
    bad = tmp_path / "bad.jsonl"
    LabelStore(bad).append(rows[0]["id"], "label_hallucinated", "hallucinated")
    assert main(["calibrate", str(src), "--labels", str(bad), "-o", str(out) + "x",
                 *SCORE_FEATURES]) == 2
    err = capsys.readouterr().err
    assert (f"bad.jsonl: case '{rows[0]['id']}': field 'label_hallucinated' must be 0 or 1"
            in err)


def test_score_applies_a_calibration_with_a_threshold(tmp_path, nlp):
    rows = prescored(40)
    src = write_jsonl(tmp_path / "scored.jsonl", rows)
    cal_path = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "-o", str(cal_path), "-q", "--repeats", "1",
                 *SCORE_FEATURES]) == 0
    raw = write_jsonl(tmp_path / "raw.jsonl", [
        {"id": "a", "query": "Price?", "context": "The jar costs $10.", "response":
         "The jar costs $10."},
        {"id": "b", "query": "Price?", "context": "The jar costs $10.", "response":
         "The jar costs $99 and ships from Mars in 2019."}])
    out = tmp_path / "out.jsonl"
    assert main(["score", str(raw), "-o", str(out), "-q", "--no-progress",
                 "--calibration", str(cal_path)]) == 0
    cal = load_calibration(cal_path)
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["hallucination_probability"] for r in recs] == pytest.approx(
        [cal.probability(r) for r in recs])
    assert 0.0 <= cal.recommended_threshold <= 1.0


def test_calibrate_counts_error_records_it_leaves_out(tmp_path, capsys):
    rows = [*prescored(), {**prescored(1)[0], "id": "bad", "error": "field 'query' is missing",
                           "claims_score": None}]
    src = write_jsonl(tmp_path / "scored.jsonl", rows)
    assert main(["calibrate", str(src), "-o", str(tmp_path / "cal.json"),
                 "--repeats", "0", *SCORE_FEATURES]) == 0
    assert "records  40 (20 hallucinated), 1 left out (error or no label)" \
        in capsys.readouterr().out
