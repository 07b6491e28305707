"""benchmarks/verdict_threshold.py on a hand-made frame: the name clause of rule 1 and the
rule chosen leaving one set out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from benchmark_module import load


@pytest.fixture(scope="module")
def bench():
    return load("verdict_threshold")


def frame(rows):
    cols = ("label", "dataset", "task", "p", "s_hall", "name_absent")
    out = pd.DataFrame([dict(zip(cols, r, strict=True)) for r in rows])
    out["support"] = 1.0
    out["relevance_fail"] = False
    out["value_unsupported"] = False
    out["record_denied"] = False
    return out


def test_a_name_the_context_never_mentions_fails_from_its_probability(bench):
    f = frame([(1, "a", "qa", 0.65, 0.2, True),    # P 0.65 >= 0.6, a name: FAIL with the clause
               (0, "a", "qa", 0.65, 0.2, False),   # no name: P 0.65 < 0.7, PASS
               (1, "a", "qa", 0.10, 0.8, True),    # S_hall 0.8 > 0.5 with a name: FAIL
               (1, "a", "qa", 0.55, 0.2, True)])   # P 0.55 < 0.6: PASS
    assert bench._fail(f, 0.7, 0.0, True, 0.3).tolist() == [False, False, False, False]
    assert bench._fail(f, 0.7, 0.0, True, 0.3, 0.6).tolist() == [True, False, True, False]
    assert bench._fail(f, 0.5, 0.0, True, 0.3, 0.6).tolist() == [True, True, True, True]


def test_a_records_own_threshold_applies_to_records_only(bench):
    f = frame([(0, "a", "data2text", 0.62, 0.2, False),   # a record at P 0.62
               (1, "a", "data2text", 0.58, 0.2, False),   # a record at P 0.58
               (1, "a", "qa", 0.62, 0.2, False)])         # prose at P 0.62
    f["record"] = [True, True, False]
    assert bench._fail(f, 0.7, 0.0, True, 0.3, None).tolist() == [False, False, False]
    # records fail from min(0.7, 0.6) = 0.6; prose still from 0.7
    assert bench._fail(f, 0.7, 0.0, True, 0.3, None, 0.6).tolist() == [True, False, False]
    assert bench._fail(f, 0.7, 0.0, True, 0.3, None, 0.55).tolist() == [True, True, False]


def test_each_set_is_measured_under_the_rule_chosen_on_the_others(bench, capsys):
    # set "a": the name clause finds its two hallucinated answers and fails no faithful one;
    # set "b": the clause would fail its faithful answer (P 0.65 with a name)
    f = frame([(1, "a", "qa", 0.65, 0.2, True), (1, "a", "qa", 0.62, 0.2, True),
               (0, "a", "qa", 0.20, 0.0, False),
               (0, "b", "qa", 0.65, 0.2, True), (1, "b", "qa", 0.90, 0.9, False)])
    rules = [("without", 0.7, 0.0, True, 0.3, None), ("with", 0.7, 0.0, True, 0.3, 0.6)]
    fails = [bench._fail(f, *r[1:]) for r in rules]
    bench._leave_one_out(f, ["a", "b"], ["qa"], rules, fails, 0.25)
    out = capsys.readouterr().out
    # without "a", set "b" alone: "with" fails its faithful answer (100 % > 25 %), so
    # "without" is chosen and "a" keeps F1 0; without "b", "with" wins on "a" (F1 1.0)
    assert "| a | without, waiver 0 | 0.0% | 0.0 |" in out
    assert "| b | with, waiver 0 | 100.0% | 66.7 |" in out
    assert np.array_equal(fails[1], [True, True, False, True, True])
