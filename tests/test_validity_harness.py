"""The validity harness (benchmarks/validity.py) on a small hand-labelled fixture.

Structure and ranges only: figures from 22 records are noise.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from evaltools.calibration.baselines import BASELINES, lexical_baselines

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "validity_small.jsonl"


def _harness():
    spec = importlib.util.spec_from_file_location("validity_harness",
                                                  ROOT / "benchmarks" / "validity.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def harness():
    return _harness()


@pytest.fixture(scope="module")
def scored_dir(harness, tmp_path_factory):
    return tmp_path_factory.mktemp("scored")


@pytest.fixture(scope="module")
def run(harness, scored_dir):
    out = scored_dir.parent / "v.json"
    harness.main([str(FIXTURE), "--resamples", "50", "--folds", "3", "--json", str(out),
                  "--save-scored", str(scored_dir)])
    return json.loads(out.read_text())


def test_partitions_are_each_task_then_all(run):
    names = [p["name"] for p in run["partitions"]]
    assert names == ["qa", "summary", "all"]
    n = {p["name"]: (p["n"], p["positives"]) for p in run["partitions"]}
    assert n == {"qa": (12, 5), "summary": (10, 4), "all": (22, 9)}


def test_every_signal_and_baseline_has_an_auroc_in_range(run):
    for part in run["partitions"]:
        auroc = part["auroc"]
        for name in ("hallucination", "claims_score", "1 - ngram_overlap",
                     "hallucination_probability", "length", "unigrams absent",
                     "content words absent", "bigrams absent"):
            ci = auroc[name]
            # a percentile interval need not hold the estimate: ranges only
            assert 0.0 <= ci["low"] <= ci["high"] <= 1.0, (part["name"], name)
            assert 0.0 <= ci["estimate"] <= 1.0
        kinds = {v["kind"] for v in auroc.values()}
        assert kinds == {"evaltools", "baseline"}


def test_probability_quality_and_flags_in_range(run):
    for part in run["partitions"]:
        for v in part["calibration"].values():
            assert 0.0 <= v["brier"] <= 1.0 and 0.0 <= v["ece"] <= 1.0
        for flags in (part["verdict"], part["probability_threshold"]):
            assert 0 <= flags["flagged"] <= part["n"]
            for k in ("precision", "recall", "f1"):
                assert 0.0 <= flags[k] <= 1.0


def test_markdown_summary_names_a_winner_per_task(harness, run, scored_dir, capsys):
    # the scored file written by the first run is read as it is, not scored again
    scored = scored_dir / "validity_small.jsonl"
    harness.main([str(scored), "--resamples", "50", "--folds", "3", "--markdown"])
    out = capsys.readouterr().out
    table = [line for line in out.splitlines() if line.startswith("| ")]
    assert table[0].startswith("| task | records (unfaithful) | best evaltools signal")
    rows = {line.split(" | ")[0][2:]: line for line in table[1:4]}
    assert set(rows) == {"qa", "summary", "all"}
    assert all("evaltools (+" in r or "baseline:" in r for r in rows.values())


def test_verdict_positive_definition(harness):
    flags = harness.verdict_positive(
        ["FAIL", "WARN", "WARN", "PASS", "FAIL"],
        [["relevance 0.05 < 0.1 (irrelevant)"],
         ["completeness 0.40 < 0.6 (potentially incomplete)"],
         ["hallucination 0.40 > 0.3"],
         ["all fine"], ["hallucination 0.90 > 0.5 (safety first)"]])
    assert flags.tolist() == [True, False, True, False, True]


def test_threshold_from_other_folds_never_sees_its_fold(harness):
    # Two groups per class; the threshold of each fold comes from the others.
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1] * 3)
    p = np.array([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9] * 3)
    groups = np.array([f"g{i}" for i in range(12) for _ in range(2)])
    res = harness.threshold_on_other_folds(y, p, groups, 3, 0)
    assert res["f1"] == 1.0 and all(0.4 < t <= 0.6 for t in res["thresholds"])


@pytest.mark.parametrize("response,context,expected", [
    ("", "anything", {"length": 0, "unigrams_absent": 0.0, "content_absent": 0.0,
                      "bigrams_absent": 0.0}),
    ("The the the", "x", {"length": 3, "unigrams_absent": 1.0, "content_absent": 0.0,
                          "bigrams_absent": 1.0}),
    ("Café e-mail", "CAFÉ E-MAIL", {"length": 3, "unigrams_absent": 0.0,
                                    "content_absent": 0.0, "bigrams_absent": 0.0}),
])
def test_lexical_baselines_by_hand(response, context, expected):
    got = lexical_baselines(response, context)
    assert list(got) == list(BASELINES)
    assert all(math.isclose(got[k], v) for k, v in expected.items())


def test_held_out_files_are_reported_apart(harness, run, scored_dir, tmp_path):
    # the summary records as a second file given after --held-out
    records = [json.loads(line) for line in (scored_dir / "validity_small.jsonl").open()]
    dev, held = tmp_path / "dev.jsonl", tmp_path / "held.jsonl"
    dev.write_text("".join(json.dumps(r) + "\n" for r in records if r["task"] == "qa"))
    held.write_text("".join(json.dumps(r) + "\n" for r in records if r["task"] == "summary"))
    out = tmp_path / "h.json"
    harness.main([str(dev), "--held-out", str(held), "--resamples", "50", "--folds", "3",
                  "--json", str(out)])
    got = json.loads(out.read_text())
    parts = {p["name"]: p for p in got["partitions"]}
    # one development task: no pooled row; the held-out task apart, not pooled with it
    assert list(parts) == ["qa", "summary (held out)"]
    assert (parts["qa"]["n"], parts["summary (held out)"]["n"]) == (12, 10)
    assert parts["summary (held out)"]["held_out"] and not parts["qa"]["held_out"]
    assert [f["name"] for f in got["held_out"]] == ["held.jsonl"]
    # a held-out row's best evaltools signal is never the refit on its own records
    best = harness.best(harness.Partition(**parts["summary (held out)"]), "evaltools")
    assert best[0] != harness.PROBABILITY_CV
    # refitted among themselves only: the same figures as the held-out file run alone
    alone = tmp_path / "alone.json"
    harness.main([str(held), "--resamples", "50", "--folds", "3", "--json", str(alone)])
    solo = json.loads(alone.read_text())["partitions"][0]["auroc"][harness.PROBABILITY_CV]
    assert parts["summary (held out)"]["auroc"][harness.PROBABILITY_CV] == solo


@pytest.fixture(scope="module")
def lodo_run(harness, tmp_path_factory):
    """The fixture split in two files (qa, summary): each is measured by a model fitted
    on the other."""
    folder = tmp_path_factory.mktemp("lodo")
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    for task in ("qa", "summary"):
        (folder / f"{task}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows if r["task"] == task))
    out = folder / "v.json"
    harness.main([str(folder / "qa.jsonl"), str(folder / "summary.jsonl"), "--resamples", "50",
                  "--folds", "3", "--json", str(out)])
    return json.loads(out.read_text())


def test_lodo_table_measures_each_file_with_a_model_that_never_saw_it(lodo_run):
    lodo = lodo_run["lodo"]
    assert set(lodo["rows"]) == {"qa", "summary"}
    assert lodo["rows"]["qa"]["n"] == 12 and lodo["rows"]["summary"]["positives"] == 4
    for row in lodo["rows"].values():
        for key in ("probability", "hallucination", "unsupported_share",
                    *[f"baseline:{b}" for b in BASELINES]):
            v = row[key]
            eps = 1e-9  # the estimate and a bound may differ in the last bit
            assert -eps <= v["low"] <= v["estimate"] + eps, key
            assert v["estimate"] <= v["high"] + eps <= 1 + 2 * eps, key
        assert row["best_baseline"] in BASELINES and row["best_baseline"] != "length"
        assert row["margin"] == pytest.approx(
            row["probability"]["estimate"] - row[f"baseline:{row['best_baseline']}"]["estimate"])


def test_lodo_markdown_names_every_file_and_the_features(harness, lodo_run):
    text = harness.lodo_markdown(lodo_run["lodo"])
    assert "| qa | 12 (5) |" in text and "| summary | 10 (4) |" in text
    assert "Features: `" in text


def test_select_from_starts_the_selection_from_the_given_features(harness, tmp_path, capsys):
    from evaltools.scoring.probability import DEFAULT_FEATURES

    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    for task in ("qa", "summary"):
        (tmp_path / f"{task}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows if r["task"] == task))
    files = [str(tmp_path / "qa.jsonl"), str(tmp_path / "summary.jsonl")]
    common = ["--resamples", "20", "--folds", "3", "--select"]
    harness.main([*files, *common, "--select-from", "shipped"])
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("forward selection on all dev files: "))
    chosen = line.split(": ", 1)[1].split(", ")
    assert chosen[:len(DEFAULT_FEATURES)] == list(DEFAULT_FEATURES)
    harness.main([*files, *common, "--select-from", "novel_rare, abstains"])
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("forward selection on all dev files: "))
    assert line.split(": ", 1)[1].split(", ")[:2] == ["novel_rare", "abstains"]
    with pytest.raises(SystemExit):
        harness.main([*files, *common, "--select-from", "no_such_signal"])
    assert "--select-from: not a signal: no_such_signal" in capsys.readouterr().err


def test_add_one_reports_each_other_signal_against_the_features_alone(harness):
    import pandas as pd

    # three sets of four records; unsupported_share separates the labels in each, every
    # other signal is 0 everywhere, every word-overlap baseline is 0.5 (AUROC 0.5)
    n = 12
    frame = pd.DataFrame({name: [0.0] * n for name in harness.SIGNALS})
    frame["unsupported_share"] = [0.1, 0.2, 0.8, 0.9] * 3
    frame["label"] = [0, 0, 1, 1] * 3
    frame["dataset"] = ["a"] * 4 + ["b"] * 4 + ["c"] * 4
    for col in harness.WORD_OVERLAP_COLUMNS:
        frame[col] = 0.5
    lines = harness.add_one_markdown(frame, ["unsupported_share"]).splitlines()
    assert lines[0] == "| added | a | b | c | mean | worst margin |"
    # leaving each set out, the other two teach the direction: AUROC 1 on each,
    # mean 1, and 1 - 0.5 over the best baseline
    assert lines[2] == "| (the calibration's features) | 1.000 | 1.000 | 1.000 | 1.0000 | +0.500 |"
    others = [s for s in harness.SIGNALS if s != "unsupported_share"]
    assert len(lines) == 3 + len(others)
    # a signal that is the same everywhere adds exactly nothing
    assert lines[3] == f"| `{others[0]}` | +0.000 | +0.000 | +0.000 | 1.0000 | +0.500 |"
