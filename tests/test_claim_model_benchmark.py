"""benchmarks/claim_model.py: the record-level AUROC of the claim model's highest rating."""

from __future__ import annotations

import pytest
from benchmark_module import load


def test_record_aurocs_by_hand():
    bench = load("claim_model")
    rated = [("qa", 1, 0.9), ("qa", 1, 0.3), ("qa", 0, 0.2), ("qa", 0, 0.9),
             ("data2text", 1, 0.6), ("data2text", 0, 0.5),
             ("summary", 1, 0.4), ("summary", 1, 0.5)]
    got = bench.record_aurocs(rated)
    # qa: positives 0.9, 0.3 against negatives 0.2, 0.9: 0.9 > 0.2 (1), 0.9 = 0.9 (1/2),
    # 0.3 > 0.2 (1), 0.3 < 0.9 (0): 2.5 of 4 pairs; summaries have one label: left out
    assert got == {"data2text": 1.0, "qa": pytest.approx(0.625)}
    assert list(got) == ["data2text", "qa"]
    assert bench.record_aurocs([]) == {}
