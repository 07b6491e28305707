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


def test_a_long_responses_own_threshold_applies_to_long_responses_only(bench):
    f = frame([(1, "a", "qa", 0.58, 0.2, False),    # 60 words at P 0.58
               (0, "a", "qa", 0.52, 0.2, False),    # 200 words at P 0.52
               (1, "a", "qa", 0.62, 0.2, False)])   # 59 words at P 0.62
    f["words"] = [60, 200, 59]
    assert bench._fail(f, 0.7, 0.0, True, 0.3).tolist() == [False, False, False]
    # 60 words or more fail from min(0.7, 0.55) = 0.55; 59 words still from 0.7
    assert bench._fail(f, 0.7, 0.0, True, 0.3, None, None, 0.55, 60).tolist() == [
        True, False, False]
    assert bench._fail(f, 0.7, 0.0, True, 0.3, None, None, 0.5, 60).tolist() == [
        True, True, False]
    # a long threshold above the rule's changes nothing: min(0.6, 0.65) = 0.6
    assert bench._fail(f, 0.6, 0.0, True, 0.3, None, None, 0.65, 60).tolist() == [
        False, False, True]


def test_the_long_threshold_is_the_lowest_keeping_every_set_and_task_cell(bench, capsys):
    # set "a" qa: 10 faithful long answers, one at P 0.52 and one at 0.57; 2 hallucinated
    # set "b" summary: 10 faithful long summaries, two at P 0.56; 1 hallucinated at 0.6
    a = [(0, "a", "qa", 0.52, 0.0, False), (0, "a", "qa", 0.57, 0.0, False)]
    a += [(0, "a", "qa", 0.1, 0.0, False)] * 8 + [(1, "a", "qa", 0.6, 0.0, False)] * 2
    b = [(0, "b", "summary", 0.56, 0.0, False)] * 2 + [(0, "b", "summary", 0.1, 0.0, False)] * 8
    b += [(1, "b", "summary", 0.6, 0.0, False)]
    f = frame(a + b)
    f["words"] = 100
    base = bench._fail(f, 0.7, 0.0, True, 0.3)
    longer = {u: bench._fail(f, 0.7, 0.0, True, 0.3, None, None, u, 60) for u in (0.5, 0.55, 0.6)}
    bench._long_choice(f, ["a", "b"], base, longer, 60, 0.15)
    out = capsys.readouterr().out
    # at 0.5: a 20 %, b 20 %; at 0.55: a 10 %, b 20 %; at 0.6: a 0 %, b 0 % -> 0.6
    assert "| p >= 0.55 | 10.0% / 80.0 | 20.0% / 50.0 |" in out
    assert "chosen (lowest with every cell's faithful FAIL <= 15%): long at p >= 0.6" in out
    # without "a", b alone still needs 0.6; without "b", a alone takes 0.55: 10 % and F1 80
    assert "| a | p >= 0.6 | 0.0% | 100.0 | 0.0% | 100.0 |" in out
    assert "| b | p >= 0.55 | 20.0% | 50.0 | 20.0% | 50.0 |" in out
