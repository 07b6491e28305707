"""The learned hallucination probability: features, arithmetic, JSON, fitting."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

from evaltools.calibration.learned import (
    FEATURES,
    Coefficient,
    LearnedCalibration,
    feature_vector,
    features_frame,
    fit_calibration,
    load_calibration,
)
from evaltools.errors import InputError

#: the features computed from the score fields alone (no ``signals``)
LEGACY = list(FEATURES)


def anchor(kind, supported, counted=True):
    return {"kind": kind, "text": "x", "start": 0, "end": 1, "supported": supported,
            "evidence": None, "counted": counted}


def scored(claims, overlap, anchors, **extra):
    return {"claims_score": claims, "ngram_overlap": overlap, "anchors_total": len(anchors),
            "anchors": anchors, "hallucination": max(claims, 0.2 if overlap < 0.2 else 0.0),
            "support": 1.0 - claims / 2, "error": None, **extra}


def test_features_count_unsupported_anchors_by_kind():
    rec = scored(0.75, 0.4, [anchor("number", False), anchor("number", False),
                             anchor("date", False), anchor("claim", True),
                             anchor("number", False, counted=False)])
    x = dict(zip(FEATURES, feature_vector(rec), strict=True))
    assert x == pytest.approx({"claims_score": 0.75, "ngram_overlap": 0.4,
                               "log1p_unsupported_numbers": math.log(3),
                               "log1p_unsupported_dates": math.log(2),
                               "log1p_unsupported_claims": 0.0,
                               "unsupported_share": 0.375})  # 1 - support, 1 - 0.75 / 2


def test_anchors_as_json_text_from_csv():
    rec = scored(1.0, 0.0, [anchor("claim", False)])
    rec["anchors"] = json.dumps(rec["anchors"])
    rec["claims_score"] = "1.0"
    assert feature_vector(rec)[4] == pytest.approx(math.log(2))


def test_missing_feature_field_is_named():
    with pytest.raises(ValueError, match="'anchors' is missing"):
        feature_vector({"claims_score": 0.0, "ngram_overlap": 0.0})
    with pytest.raises(ValueError, match="'ngram_overlap' must be a number"):
        feature_vector({"claims_score": 0.0, "ngram_overlap": None, "anchors": []})


def test_probability_by_hand():
    cal = LearnedCalibration(
        (Coefficient("claims_score", 0.5, 0.25, 2.0),
         Coefficient("log1p_unsupported_claims", 0.0, 1.0, 1.0)), intercept=-1.0)
    rec = scored(1.0, 0.5, [anchor("claim", False)])
    z = -1.0 + 2.0 * (1.0 - 0.5) / 0.25 + 1.0 * math.log(2)
    assert cal.logit(rec) == pytest.approx(z)
    assert cal.probability(rec) == pytest.approx(1 / (1 + math.exp(-z)))
    assert cal.probability({**rec, "claims_score": -1000.0}) == pytest.approx(0.0, abs=1e-12)
    assert cal.probability({**rec, "error": "field 'query' is missing"}) is None
    assert cal.probabilities([rec, {**rec, "claims_score": None}])[1] is None


def test_json_round_trip_and_atomic_save(tmp_path):
    cal = LearnedCalibration((Coefficient("claims_score", 0.3, 0.4, 1.5),), 0.25,
                             {"fitted_on": {"file": "x.jsonl", "n": 10}})
    path = cal.save(tmp_path / "sub" / "cal.json")
    data = json.loads(path.read_text())
    assert data["format"] == "evaltools-calibration" and data["version"] == 1
    assert data["features"] == [{"name": "claims_score", "center": 0.3, "scale": 0.4,
                                 "coefficient": 1.5}]
    back = load_calibration(path)
    assert back == cal
    assert [p.name for p in path.parent.iterdir()] == ["cal.json"]  # no temp file left


@pytest.mark.parametrize("change,field", [
    ({"format": "pickle"}, "format"),
    ({"version": 2}, "version"),
    ({"intercept": float("nan")}, "intercept"),
    ({"features": []}, "features"),
    ({"features": [{"name": "length", "center": 0, "scale": 1, "coefficient": 1}]},
     "features[0].name"),
    ({"features": [{"name": "claims_score", "center": 0, "scale": 0, "coefficient": 1}]},
     "features[0].scale"),
    ({"features": [{"name": "claims_score", "center": "0", "scale": 1, "coefficient": 1}]},
     "features[0].center"),
])
def test_bad_calibration_files_name_file_and_field(tmp_path, change, field):
    good = LearnedCalibration((Coefficient("claims_score", 0.0, 1.0, 1.0),), 0.0).to_dict()
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({**good, **change}))
    with pytest.raises(InputError) as err:
        load_calibration(p)
    assert err.value.field == field
    assert str(err.value).startswith("bad.json: ")


def test_unreadable_calibration_files(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_calibration(tmp_path / "nope.json")
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(InputError, match=r"x.json line 1: not valid JSON"):
        load_calibration(tmp_path / "x.json")


def test_shipped_default_is_present_with_provenance():
    from evaltools.calibration.learned import DEFAULT_FEATURES

    cal = load_calibration()
    meta = cal.metadata
    assert cal.feature_names == DEFAULT_FEATURES
    # fitted on the shipped, text-free sample (docs/calibration.md), byte for byte
    sample = Path(__file__).resolve().parent.parent / "data" / "calibration_fit.jsonl"
    assert meta["fitted_on"]["file"] == sample.name
    assert meta["fitted_on"]["sha256"] == hashlib.sha256(sample.read_bytes()).hexdigest()
    assert meta["fitted_on"]["n"] == sum(1 for line in sample.open() if line.strip())
    assert [s["file"] for s in meta["fitted_on"]["sources"]] == [
        "lfqa.jsonl", "halueval_qa.jsonl", "xsumfaith.jsonl", "webnlg.jsonl", "begin_dev.jsonl",
        "q2_wow.jsonl", "wice.jsonl", "factscore.jsonl", "probe_1_136.jsonl"]
    assert "evaltools calibrate calibration_fit.jsonl" in meta["fitting"]["command"]
    assert "--balance-by dataset" in meta["fitting"]["command"]
    assert 0.5 < meta["metrics"]["cv_auroc"] <= 1.0
    assert 0.0 < cal.recommended_threshold < 1.0

    def rec(unsupported, span, rare, claim, names, absent=0.0, amenity=0.0, denied=0.0,
            claims=0.0, counted=0.0):
        return {**scored(0.0, 1.0, []), "support": 1 - unsupported, "signals": {
            "unsupported_share": unsupported, "span_probability_max": span, "novel_rare": rare,
            "claim_probability_max": claim, "names_unsupported": names,
            "log_absent_names": absent, "amenity_absent": amenity, "record_denied": denied,
            "log_unsupported_claims": claims, "log_unsupported_numbers": counted}}
    bad = cal.probability(rec(0.9, 0.9, 0.8, 0.9, 1.0, 1.1, claims=1.4, counted=0.7))
    good = cal.probability(rec(0.0, 0.0, 0.0, 0.0, 0.0))
    assert 0 < good < 0.5 < bad < 1
    # every feature of the shipped model raises the probability (none was fitted negative)
    assert all(c.coefficient > 0 for c in cal.coefficients)
    assert good < cal.probability(rec(0.0, 0.0, 0.0, 0.0, 0.0, denied=1.0))
    assert good < cal.probability(rec(0.0, 0.0, 0.0, 0.0, 0.0, amenity=1.0))
    assert good < cal.probability(rec(0.0, 0.0, 0.0, 0.0, 0.0, claims=1.1))
    assert good < cal.probability(rec(0.0, 0.0, 0.0, 0.0, 0.0, counted=0.7))
    assert good < cal.probability(rec(0.0, 0.0, 0.0, 0.9, 0.0))  # the claim model's rating


def synthetic(n=60, seed=0):
    rng = np.random.default_rng(seed)
    recs = []
    for i in range(n):
        y = i % 2
        claims = float(np.clip(rng.normal(0.7 if y else 0.2, 0.25), 0, 1))
        overlap = float(np.clip(rng.normal(0.3 if y else 0.7, 0.2), 0, 1))
        anchors = [anchor("claim", not (y and rng.random() < 0.7)) for _ in range(2)]
        recs.append(scored(claims, overlap, anchors, label_hallucinated=y, id=f"q{i // 2}"))
    return recs


def test_fit_is_deterministic_and_honest():
    recs = synthetic()
    a, b = fit_calibration(recs, features=LEGACY), fit_calibration(recs, features=LEGACY)
    assert a.calibration == b.calibration and a.cv_probabilities == b.cv_probabilities
    assert 0.7 < a.cv_auroc <= 1.0
    assert a.calibration.metadata["metrics"]["cv_folds"] == 5
    assert len(a.cv_probabilities) == len(a.labels) == 60
    rel = a.reliability(n_bins=4)
    assert sum(b.count for b in rel.bins) == 60
    coefs = a.calibration.coefficients_frame()
    assert coefs.loc[0, "coefficient"] == max(coefs["coefficient"], key=abs)
    by_name = {c.name: c.coefficient for c in a.calibration.coefficients}
    assert by_name["claims_score"] > 0 > by_name["ngram_overlap"]


def test_fit_groups_and_drops_errors_and_unlabelled():
    recs = synthetic()
    recs.append({**recs[0], "error": "bad", "claims_score": None})
    recs.append({**recs[1], "label_hallucinated": None})
    fit = fit_calibration(recs, features=LEGACY, groups=[r["id"] for r in recs],
                          metadata={"fitted_on": {"file": "s.jsonl"}, "note": "n"})
    assert fit.n_dropped == 2
    meta = fit.calibration.metadata
    assert meta["metrics"]["cv_grouped"] is True
    assert meta["fitted_on"] == {"n": 60, "n_hallucinated": 30, "file": "s.jsonl"}
    assert meta["note"] == "n"


def test_fit_errors():
    recs = synthetic(10)
    with pytest.raises(ValueError, match="at least folds=5"):
        fit_calibration(recs[:6])
    with pytest.raises(ValueError, match="both labels"):
        fit_calibration([r for r in recs if r["label_hallucinated"] == 1])
    with pytest.raises(ValueError, match="record 1, field 'label_hallucinated'"):
        fit_calibration([{**recs[0], "label_hallucinated": 2}, *recs[1:]])
    with pytest.raises(ValueError, match="no label field 'y'"):
        fit_calibration(recs, label="y")
    with pytest.raises(ValueError, match="one key per record"):
        fit_calibration(recs, groups=["a"])


def test_features_frame_marks_error_rows_nan():
    df = features_frame([scored(0.5, 0.5, []), {"error": "x", "claims_score": None}],
                        names=LEGACY)
    assert list(df.columns) == list(FEATURES)
    assert df.iloc[1].isna().all() and not df.iloc[0].isna().any()


def test_signal_and_product_features_by_hand():
    rec = scored(0.5, 0.5, [], signals={"names_unsupported": 0.25, "query_instruction": 1.0,
                                        "log_response_words": math.log1p(9)})
    assert feature_vector(rec, ["names_unsupported", "log_response_words",
                                "unsupported_share*query_instruction"]) == pytest.approx(
        [0.25, math.log(10), 0.25 * 1.0])  # unsupported_share = 1 - support = 0.25
    rec_csv = {**rec, "signals": json.dumps(rec["signals"])}  # CSV cells hold JSON text
    assert feature_vector(rec_csv, ["names_unsupported"]) == [0.25]
    with pytest.raises(ValueError, match="'signals' has no 'echo_share'"):
        feature_vector(rec, ["echo_share"])
    with pytest.raises(ValueError, match="'signals' is missing"):
        feature_vector(scored(0.5, 0.5, []), ["echo_share"])
    with pytest.raises(ValueError, match="unknown feature"):
        fit_calibration(synthetic(), features=["no_such_signal"])


def test_balanced_fit_weighs_each_stratum_and_label_alike():
    from evaltools.calibration.learned import balancing_weights

    # stratum a: 1 positive, 3 negatives; stratum b: 2 and 2. Each stratum weighs 1/2,
    # each label within it 1/4: a's positive 1/4, a's negatives 1/12 each, b's 1/8 each;
    # scaled to average 1 over 8 records: 2, 2/3, 1.
    w = balancing_weights([1, 0, 0, 0, 1, 1, 0, 0], list("aaaabbbb"))
    assert w == pytest.approx([2, 2 / 3, 2 / 3, 2 / 3, 1, 1, 1, 1])
    recs = synthetic()
    fit = fit_calibration(recs, features=LEGACY, strata=["s"] * 30 + ["t"] * 30, balance=True)
    assert fit.calibration.metadata["fitting"]["balanced"] is True
    assert fit.calibration.metadata["fitting"]["strata"] == ["s", "t"]
    with pytest.raises(ValueError, match="'strata' must have one key per record"):
        fit_calibration(recs, features=LEGACY, strata=["s"])


def test_a_fit_from_a_prior_is_one_model_equal_to_the_fit_it_folds():
    """The prior's log-odds as a feature, folded back: the same probabilities as the
    scikit-learn model fitted on [prior log-odds, features], record by record."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(3)
    recs = []
    for i in range(80):
        claims, overlap = float(rng.uniform()), float(rng.uniform())
        recs.append({**scored(claims, overlap, [anchor("number", bool(i % 3))]),
                     "label_hallucinated": int(claims + 0.3 * rng.normal() > 0.5)})
    # a prior over claims_score (shared with the fit) and a number count (prior only)
    prior = LearnedCalibration((Coefficient("claims_score", 0.4, 0.3, 1.5),
                                Coefficient("log1p_unsupported_numbers", 0.2, 0.5, 0.7)), -0.2)
    fit = fit_calibration(recs, features=["claims_score", "ngram_overlap"], prior=prior, C=0.5)
    cal = fit.calibration
    assert cal.feature_names == ("claims_score", "ngram_overlap", "log1p_unsupported_numbers")
    X = np.column_stack([[prior.logit(r) for r in recs],
                         features_frame(recs, ["claims_score", "ngram_overlap"]).to_numpy()])
    y = [r["label_hallucinated"] for r in recs]
    ref = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=1000)).fit(X, y)
    assert cal.probabilities(recs) == pytest.approx(list(ref.predict_proba(X)[:, 1]), abs=1e-9)
    assert cal.metadata["prior"]["weight"] == pytest.approx(
        ref.steps[-1][1].coef_[0][0], abs=1e-4)
    # a prior with no signal in it gets (nearly) no weight
    noise = LearnedCalibration((Coefficient("ngram_overlap", 0.5, 0.3, 2.0),), 0.0)
    assert abs(fit_calibration(recs, features=["claims_score"], prior=noise)
               .calibration.metadata["prior"]["weight"]) < 0.5
