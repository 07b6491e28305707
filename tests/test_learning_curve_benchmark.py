"""benchmarks/learning_curve.py on a hand-made scored file: fit on n records by group,
test on the rest."""

from __future__ import annotations

import json

import pytest
from benchmark_module import load


@pytest.fixture(scope="module")
def bench():
    return load("learning_curve")


def pair(i: int) -> list[dict]:
    """One group: a faithful answer and one with a price the context does not hold."""
    base = {"query": "How much is the jar?", "context": f"The jar costs ${10 + i}.",
            "ngram_overlap": 0.5, "anchors_total": 1, "support": 1.0, "hallucination": 0.0,
            "error": None, "group": f"q{i}"}
    return [{**base, "id": f"q{i}_right", "response": f"The jar costs ${10 + i}.",
             "claims_score": 0.0, "label": 0,
             "anchors": [{"kind": "number", "supported": True}]},
            {**base, "id": f"q{i}_halluc", "response": "The jar costs $99 on Mars.",
             "claims_score": 1.0, "label": 1, "hallucination": 1.0,
             "anchors": [{"kind": "number", "supported": False}]}]


def test_fit_on_n_by_group_and_measure_on_the_rest(bench, tmp_path, capsys):
    src = tmp_path / "pairs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for i in range(40) for r in pair(i)))
    out = tmp_path / "out.json"
    # hand-made scored records carry the score fields, not the scorer's signals
    assert bench.main([str(src), "--sizes", "20", "80", "--repeats", "2", "--min-test", "20",
                       "--features", "claims_score", "--prior", "none", "--json", str(out),
                       "--markdown"]) == 0
    printed = capsys.readouterr().out
    (res,) = json.loads(out.read_text())
    assert (res["set"], res["n"], res["n_hallucinated"]) == ("pairs", 80, 40)
    st = res["sizes"]["20"]
    # separable: perfect ranking and F1 on the 60 records of the 30 groups not drawn
    assert st["runs"] == 2 and st["n_test"] == 60
    assert st["auroc"] == 1.0 and st["f1"] == 1.0 and st["baseline_auroc"] == 1.0
    # half the test records are unfaithful: flagging all has F1 2 * 0.5 / 1.5
    assert st["f1_flag_all"] == pytest.approx(2 / 3)
    # 80 labels leave nothing to test on: both runs left out, no row
    assert "80" not in res["sizes"] and res["runs_left_out"] == {"20": 0, "80": 2}
    assert "| pairs | 80 (40) | 20 | 1.000 ± 0.000 | 1.000 ± 0.000 |" in printed
    assert "runs left out (too few test records or of a label): 2 of 80" in printed


def test_each_file_starts_from_a_prior_fitted_on_the_other_files(bench, tmp_path, capsys):
    # raw records: the script scores them (real parse), so the signals the prior reads exist
    paths = []
    for name, offset in (("shop", 0), ("store", 100)):
        path = tmp_path / f"{name}.jsonl"
        rows = [{k: r[k] for k in ("id", "query", "context", "response", "label", "group")}
                for i in range(30) for r in pair(i + offset)]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        paths.append(str(path))
    out = tmp_path / "out.json"
    assert bench.main([*paths, "--sizes", "20", "--repeats", "2", "--min-test", "20",
                       "--json", str(out)]) == 0
    for res in json.loads(out.read_text()):
        st = res["sizes"]["20"]
        # the other file's model ranks the made-up price first with no label of this file
        assert st["no_labels_auroc"] == 1.0 and st["auroc"] == 1.0
    with pytest.raises(SystemExit):  # one file has no other file to fit a prior on
        bench.main([paths[0], "--sizes", "20"])
    assert "--prior lodo needs two files or more" in capsys.readouterr().err
