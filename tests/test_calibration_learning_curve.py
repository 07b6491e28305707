"""Fitting on a user's labels: the learning curve, the recommended threshold, the
Annotator's labels as the labelled file."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.calibration import (
    CurvePoint,
    LearningCurve,
    cross_fitted_f1,
    curve_sizes,
    draw_groups,
    fit_on_labels,
    learning_curve,
    recommend_probability_threshold,
)
from evaltools.calibration.learned import load_calibration
from evaltools.errors import InputError
from evaltools.io.label_store import LabelStore
from evaltools.io.labelled import join_labels

#: Hand-made records carry the score fields, not the scorer's signals: fit on a
#: score-field feature (the shipped default features read signals).
FEATURE = {"features": ["claims_score"]}


def scored(x: float, y: int, **extra) -> dict:
    """A scored record whose every feature but claims_score is constant."""
    return {"claims_score": x, "ngram_overlap": 0.5, "anchors_total": 0, "anchors": [],
            "support": 1.0, "hallucination": x, "error": None, "label_hallucinated": y,
            **extra}


def separable(n: int, pair_groups: bool = False) -> list[dict]:
    return [scored(float(i % 2), i % 2, **({"group": f"g{i // 2}"} if pair_groups else {}))
            for i in range(n)]


# ------------------------------------------------------------------ sizes and draws


@pytest.mark.parametrize("n,sizes", [
    (1, (1,)), (25, (25,)), (26, (25, 26)), (74, (25, 50, 74)), (100, (25, 50, 100)),
    (1494, (25, 50, 100, 200, 400, 800, 1494)),
])
def test_curve_sizes_double_from_25_and_end_at_the_file(n, sizes):
    assert curve_sizes(n) == sizes


def test_draw_takes_whole_groups_until_the_size_is_reached():
    groups = np.repeat([f"g{i}" for i in range(20)], [1, 2, 3, 4] * 5)  # 50 records
    for seed in range(20):
        idx = draw_groups(groups, 10, np.random.default_rng(seed))
        drawn = set(groups[idx].tolist())
        # whole groups: every record of a drawn group is in the draw
        assert sorted(idx.tolist()) == [i for i, g in enumerate(groups) if g in drawn]
        # at least 10 records; without its last group, fewer than 10
        assert 10 <= len(idx) < 10 + 4


# ------------------------------------------------------------------ the curve


def test_perfectly_separable_feature_gives_auroc_and_f1_one_at_every_size():
    curve = learning_curve(separable(70), groups=[f"g{i // 2}" for i in range(70)],
                           repeats=2, **FEATURE)
    assert [p.n for p in curve.points] == [25, 50, 70]
    assert curve.points[-1].n_positive == 35  # the whole file: 35 of each label
    for p in curve.points:
        assert p.auroc == (1.0, 1.0) and p.f1 == (1.0, 1.0) and p.skipped == 0
        assert p.auroc_sd == 0.0
    assert curve.grouped and curve.n_total == 70


def test_constant_feature_gives_auroc_one_half():
    # 60 records, 30 of each label, 5 stratified folds of 6 + 6: every training part
    # is balanced, so every out-of-fold probability is the same (intercept 0): AUROC
    # 0.5, and the one threshold flags everything: precision 1/2, recall 1, F1 2/3.
    rows = [scored(0.5, i % 2) for i in range(60)]
    full = learning_curve(rows, repeats=2, **FEATURE).points[-1]
    assert full.n == 60 and full.auroc == (0.5, 0.5)
    assert full.f1 == pytest.approx((2 / 3, 2 / 3))
    # In an unbalanced subsample the intercept of each training part leans away from
    # its test fold's labels: a constant feature never ranks above chance.
    for p in learning_curve(rows, repeats=2, **FEATURE).points[:-1]:
        assert max(p.auroc) <= 0.5


@pytest.mark.slow  # 5.6 s alone
def test_curve_is_deterministic_for_a_seed_and_changes_with_it():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 90)
    rows = [scored(float(v) * 0.3 + float(rng.random()), int(v)) for v in y]
    a = learning_curve(rows, repeats=2, seed=1, **FEATURE).to_dict()
    assert learning_curve(rows, repeats=2, seed=1, **FEATURE).to_dict() == a
    assert learning_curve(rows, repeats=2, seed=2, **FEATURE).to_dict() != a
    # adding a size changes no other size's draws
    b = learning_curve(rows, repeats=2, seed=1, sizes=[25, 40, 50, 90],
                       **FEATURE).to_dict()
    assert [p for p in b["points"] if p["n"] != 40] == a["points"]


def test_curve_structure_and_json():
    curve = learning_curve(separable(60), repeats=2, folds=4, seed=7, **FEATURE)
    d = json.loads(json.dumps(curve.to_dict(), allow_nan=False))
    assert d["n_total"] == 60 and d["folds"] == 4 and d["repeats"] == 2 and d["seed"] == 7
    assert not d["grouped"]
    assert set(d["points"][0]) == {"n", "n_records", "n_positive", "folds", "repeats",
                                   "skipped",
                                   "auroc_mean", "auroc_sd", "auroc_min", "auroc_max",
                                   "f1_mean", "f1_sd"}
    frame = curve.to_frame()
    assert frame["n"].tolist() == [25, 50, 60] and (frame["folds"] == 4).all()


def test_fit_is_called_through_the_public_interface_with_whole_groups():
    calls = []

    class Fit:
        def __init__(self, p):
            self.cv_probabilities = p

    def fake_fit(rows, *, label, groups, folds, seed):
        calls.append((len(rows), label, list(groups), folds, seed))
        return Fit([r["claims_score"] for r in rows])

    rows = [scored(float(i % 2), i % 2, lab=i % 2) for i in range(40)]
    groups = [f"g{i // 4}" for i in range(40)]  # ten groups of four
    curve = learning_curve(rows, label="lab", groups=groups, repeats=2, folds=3, seed=5,
                           fit=fake_fit)
    assert [p.n for p in curve.points] == [25, 40]
    assert [c[0] for c in calls] == [28, 28, 40, 40]  # 25 asked: seven groups of four
    assert {c[1] for c in calls} == {"lab"} and {c[3] for c in calls} == {3}
    assert [c[4] for c in calls] == [5, 6, 5, 6]
    for _, _, g, _, _ in calls:
        counts = {k: g.count(k) for k in set(g)}
        assert set(counts.values()) == {4}


def test_subsample_with_too_few_of_a_label_is_skipped_not_fatal():
    rows = [scored(1.0 if i < 3 else 0.0, int(i < 3)) for i in range(100)]
    curve = learning_curve(rows, repeats=4, **FEATURE)
    small = curve.points[0]
    assert small.n == 25 and small.skipped + small.repeats == 4 and small.skipped >= 1
    full = curve.points[-1]
    assert full.folds == 3  # as many folds as label-1 records allow
    d = json.loads(json.dumps(curve.to_dict(), allow_nan=False))
    assert all(p["repeats"] + p["skipped"] == 4 for p in d["points"])


def test_records_with_an_error_or_no_label_are_left_out():
    rows = [*separable(40), {**scored(1.0, 1), "error": "field 'query' is missing"},
            {**scored(0.0, 0), "label_hallucinated": None}]
    assert learning_curve(rows, repeats=1, **FEATURE).n_total == 40


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="'repeats' parameter of learning_curve"):
        learning_curve(separable(30), repeats=0)
    with pytest.raises(ValueError, match="'folds' parameter of learning_curve"):
        learning_curve(separable(30), folds=1)
    with pytest.raises(ValueError, match="record 1, field 'label_hallucinated'"):
        learning_curve([scored(0.0, 3)])
    with pytest.raises(ValueError, match="one key per record"):
        learning_curve(separable(30), groups=["a"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 1), st.integers(0, 6)),
                min_size=1, max_size=60),
       st.integers(0, 3))
def test_curve_never_crashes_and_stays_in_range(data, seed):
    class Fit:
        def __init__(self, p):
            self.cv_probabilities = p

    rows = [scored(x, y) for x, y, _ in data]
    groups = [str(g) for _, _, g in data]
    curve = learning_curve(rows, groups=groups, repeats=2, seed=seed,
                           fit=lambda rows, **kw: Fit([r["claims_score"] for r in rows]))
    for p in curve.points:
        assert p.repeats + p.skipped == 2
        assert all(0.0 <= v <= 1.0 for v in (*p.auroc, *p.f1))
    json.dumps(curve.to_dict(), allow_nan=False)


# ------------------------------------------------------------------ the threshold


def test_recommended_threshold_by_hand():
    # p >= 0.3 flags 0.3, 0.4, 0.6, 0.8: TP 3, FP 1, FN 0 -> precision 3/4, recall 1,
    # F1 = 6/7. p >= 0.6: TP 2, FN 1 -> F1 4/5. p >= 0.2: FP 2 -> F1 6/8.
    t = recommend_probability_threshold([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.6, 0.8])
    assert t.value == 0.3 and t.f1 == pytest.approx(6 / 7)
    assert (t.precision, t.recall, t.flagged_share) == (0.75, 1.0, 4 / 6)
    assert t.n == 6 and t.n_positive == 3
    assert t.rule == "hallucination_probability >= 0.3"
    d = t.to_dict()
    assert d["value"] == 0.3 and d["criterion"] == "f1" and d["f1"] == 0.8571


def test_cross_fitted_f1_by_hand():
    # Every probability 0.5: whatever a fold's training part, the only candidate
    # threshold 0.5 flags everything; pooled TP 3, FP 3 -> F1 = 6 / 9.
    assert cross_fitted_f1([1, 0, 1, 0, 1, 0], [0.5] * 6, folds=3) == pytest.approx(2 / 3)
    # Too few of a label for two folds: undefined.
    assert math.isnan(cross_fitted_f1([1, 0, 0], [0.9, 0.1, 0.2]))


# ------------------------------------------------------------------ fit_on_labels


def test_fit_on_labels_stores_threshold_and_curve_in_the_calibration(tmp_path):
    lf = fit_on_labels(separable(60), repeats=2, metadata={"note": "x"}, prior=None, **FEATURE)
    cal = lf.calibration
    assert cal.metadata["note"] == "x"
    # one value: the fit's recommended_threshold (what the verdict reads), with metrics
    assert cal.recommended_threshold == lf.threshold.value \
        == lf.fit.calibration.metadata["recommended_threshold"]
    metrics = cal.metadata["threshold_metrics"]
    assert "value" not in metrics and metrics["rule"] == lf.threshold.rule
    assert metrics["f1"] == 1.0 and metrics["precision"] == 1.0 and metrics["recall"] == 1.0
    assert [p["n"] for p in cal.metadata["learning_curve"]["points"]] == [25, 50, 60]
    back = load_calibration(cal.save(tmp_path / "cal.json"))
    assert back.recommended_threshold == lf.threshold.value
    assert back.metadata["learning_curve"] == json.loads(json.dumps(cal.metadata[
        "learning_curve"]))
    assert "learning_curve" not in lf.fit.calibration.metadata  # the bare fit is unchanged
    assert fit_on_labels(separable(60), curve=False, prior=None, **FEATURE).curve is None


def test_threshold_is_rounded_down_so_the_chosen_record_stays_flagged():
    # The label-1 records' probability is 0.99996 (say): rounded to nearest, 1.0
    # would flag nothing. Rounded down, 0.9999 flags all three: F1 1.
    t = recommend_probability_threshold([0, 0, 1, 1, 1], [0.1, 0.2] + [0.99996] * 3)
    assert t.value == 0.9999 and t.f1 == 1.0
    # A value chosen already is kept, and only measured: p >= 0.15 flags four, TP 3.
    t = recommend_probability_threshold([0, 0, 1, 1, 1], [0.1, 0.2, 0.5, 0.6, 0.7],
                                        value=0.15)
    assert (t.value, t.precision, t.recall) == (0.15, 0.75, 1.0)


def test_balancing_strata_follow_the_drawn_records():
    calls = []

    class Fit:
        def __init__(self, p):
            self.cv_probabilities = p

    def fake_fit(rows, *, label, groups, folds, seed, strata=None, **options):
        calls.append((len(rows), strata, options))
        assert [r["set"] for r in rows] == strata  # each fit gets its records' strata
        return Fit([r["claims_score"] for r in rows])

    rows = [scored(float(i % 2), i % 2, set=f"s{i % 3}") for i in range(30)]
    rows.append({**scored(1.0, 1, set="s9"), "error": "bad"})  # left out, its stratum too
    lf = fit_on_labels(rows, strata=[r["set"] for r in rows], repeats=1, fit=fake_fit,
                       balance=True, metadata={"note": "x"}, prior=None)
    assert lf.n_left_out == 1
    assert calls[0][2] == {"balance": True, "metadata": {"note": "x"}}  # the full fit
    assert all(c[2] == {"balance": True} for c in calls[1:])  # the curve's fits
    assert [c[0] for c in calls] == [30, 25, 30]


def test_plotted_curve_points_are_what_to_dict_says():
    p = CurvePoint(25, 25.5, 5, (0.7, 0.8), (0.5, 0.7), 1)
    assert p.to_dict()["auroc_mean"] == 0.75 and p.to_dict()["auroc_sd"] == pytest.approx(
        round(float(np.std([0.7, 0.8], ddof=1)), 4))
    assert p.repeats == 2 and p.to_dict()["skipped"] == 1
    empty = CurvePoint(25, float("nan"), 0, (), (), 3)
    d = LearningCurve((empty,), n_total=30, grouped=False, folds=5, repeats=3, seed=0).to_dict()
    assert d["points"][0]["auroc_mean"] is None and d["points"][0]["n_records"] is None


# ------------------------------------------------------------------ the Annotator's labels


def labels_file(tmp_path, events):
    path = tmp_path / "labels.jsonl"
    store = LabelStore(path, clock=lambda: "T0")
    for cid, value, *action in events:
        store.append(cid, "label_hallucinated", str(value), value=value,
                     action=action[0] if action else "label")
    return path


def test_join_labels_last_wins_and_unlabelled_are_left_out(tmp_path):
    path = labels_file(tmp_path, [("a", 1), ("b", 0), ("a", 0), ("c", None, "skip"),
                                  ("zz", 1)])
    joined = join_labels([{"id": "a", "x": 1}, {"id": "b"}, {"id": "c"}, {"id": "d"}], path)
    assert [(r["id"], r["label_hallucinated"]) for r in joined.records] == [("a", 0), ("b", 0)]
    assert joined.records[0]["x"] == 1
    assert (joined.n_unlabelled, joined.n_unmatched) == (2, 1)


def test_join_labels_numbers_records_without_ids_like_the_annotator(tmp_path):
    path = labels_file(tmp_path, [(2, 1), (3, 0)])
    joined = join_labels([{"q": "x"}, {"q": "y"}, {"q": "z"}], path)
    assert [r["q"] for r in joined.records] == ["y", "z"]


@pytest.mark.parametrize("events,records,message", [
    ([("a", "hallucinated")], [{"id": "a"}],
     "labels.jsonl: case 'a': field 'label_hallucinated' must be 0 or 1"),
    ([("a", 1)], [{"id": "b"}], "labels.jsonl: none of the 1 labelled ids is a record id"),
    ([("a", 1)], [{"id": "a"}, {"id": "a"}],
     "in.jsonl record 2: field 'id': 'a' is also record 1"),
])
def test_join_labels_errors_name_file_and_field(tmp_path, events, records, message):
    path = labels_file(tmp_path, events)
    with pytest.raises(InputError) as err:
        join_labels(records, path, source="in.jsonl")
    assert str(err.value).startswith(message)


def test_join_labels_without_the_field_names_the_fields_there(tmp_path):
    path = tmp_path / "labels.jsonl"
    LabelStore(path).append("a", "label_verdict", "PASS")
    with pytest.raises(InputError, match=r"labels.jsonl: no labels in field "
                                         r"'label_hallucinated' \(fields labelled: "
                                         r"label_verdict"):
        join_labels([{"id": "a"}], path)
    with pytest.raises(InputError, match="labels file not found"):
        join_labels([{"id": "a"}], tmp_path / "missing.jsonl")


def test_records_the_model_cannot_read_raise_instead_of_an_empty_curve():
    # Every fit fails the same way (a feature the model does not know): that is
    # said, not reported as a curve of skipped subsamples.
    with pytest.raises(ValueError, match="unknown feature 'not_a_feature'"):
        learning_curve(separable(30), repeats=1, features=["not_a_feature"])
