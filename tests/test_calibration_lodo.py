"""Leave one data set out: each set measured by a model that never saw it."""

from __future__ import annotations

import pandas as pd
import pytest

from evaltools.calibration.lodo import (
    _objective,
    forward_select,
    leave_one_dataset_out,
    lodo_aurocs,
)


def frame(flip: str | None = None) -> pd.DataFrame:
    """Three sets of 8 records; ``x`` ranks every set perfectly (reversed in ``flip``)."""
    rows = []
    for name in "abc":
        for i in range(8):
            y = int(i >= 4)
            x = float(i) if name != flip else float(7 - i)
            rows.append({"dataset": name, "label": y, "x": x, "constant": 1.0,
                         "group": f"{name}{i // 2}"})
    return pd.DataFrame(rows)


def test_perfect_feature_gives_auroc_one_on_every_held_out_set():
    res = leave_one_dataset_out(frame(), ["x"], group="group", resamples=20)
    assert {k: r.auroc.estimate for k, r in res.per_dataset.items()} == {
        "a": 1.0, "b": 1.0, "c": 1.0}
    assert res.mean_auroc == 1.0 and res.per_dataset["a"].n == 8
    assert res.per_dataset["a"].n_positive == 4
    assert res.to_dict()["per_dataset"]["b"]["features"] == ["x"]


def test_a_set_that_reverses_the_feature_is_measured_by_the_others_direction():
    # Fitted on a and b (x up -> hallucinated), c's reversed x ranks every pair wrong: 0.0.
    # Held out a or b, the training data mixes a rising and a falling set: the two cancel
    # only partly, so those figures lie strictly between 0 and 1.
    scores = lodo_aurocs(frame(flip="c"), ["x"])
    assert scores["c"] == 0.0
    assert set(scores) == {"a", "b", "c"}


def test_constant_feature_gives_chance():
    assert lodo_aurocs(frame(), ["constant"]) == {"a": 0.5, "b": 0.5, "c": 0.5}


def test_forward_selection_keeps_what_transfers_and_stops():
    f = frame()
    assert forward_select(f, ["constant", "x"]) == ("x",)
    # nothing left that gains: the start is returned as it is
    assert forward_select(f, ["constant"], start=("x",)) == ("x",)


def test_objective_is_the_mean_while_every_set_beats_its_baseline():
    # Set a: x ranks all 16 (positive, negative) pairs right (AUROC 1); set b: x = i with
    # the labels 0 1 0 0 1 1 0 1 ranks 1 + 3 + 3 + 4 = 11 of 16 pairs right (the positives at
    # 1, 4, 5, 7 above the negatives at 0, 2, 3, 6: AUROC 0.6875). Either set alone fits a
    # rising x, so the LODO AUROCs are 1 and 0.6875. Baseline column: 0.5 on a (constant),
    # 1.0 on b (equal to the label). Margins 0.5 and -0.3125: b is under its baseline, so
    # the objective is -1 - 0.3125. A baseline column of 0.5 on both leaves margins 0.5
    # and 0.1875: the mean AUROC, 0.84375.
    rows = []
    for i in range(8):
        rows.append({"dataset": "a", "label": int(i >= 4), "x": float(i), "base": 0.0})
    for i, y in enumerate([0, 1, 0, 0, 1, 1, 0, 1]):
        rows.append({"dataset": "b", "label": y, "x": float(i), "base": float(y)})
    f = pd.DataFrame(rows)
    assert lodo_aurocs(f, ["x"]) == {"a": 1.0, "b": 0.6875}
    assert _objective(f, ["x"], "label", "dataset", 1.0, ["base"]) == pytest.approx(
        -1.3125)
    assert _objective(f.assign(flat=0.0), ["x"], "label", "dataset", 1.0,
                      ["flat"]) == pytest.approx(0.84375)
    # without baselines the margin is the AUROC itself: the mean
    assert _objective(f, ["x"], "label", "dataset", 1.0, []) == pytest.approx(0.84375)


def test_nested_selection_records_its_choice_per_held_out_set():
    res = leave_one_dataset_out(frame(), ["constant"], candidates=["x"], nested=True,
                                resamples=10)
    assert all(r.features == ("constant", "x") for r in res.per_dataset.values())
    assert res.nested is True


def test_single_label_set_is_skipped():
    f = frame()
    f.loc[f.dataset == "c", "label"] = 1
    assert set(lodo_aurocs(f, ["x"])) == {"a", "b"}


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_regularisation_does_not_change_a_ranking_by_one_feature(C):
    assert lodo_aurocs(frame(), ["x"], C=C) == {"a": 1.0, "b": 1.0, "c": 1.0}
