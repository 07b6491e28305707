"""benchmarks/static_embeddings.py's signals, on hand-made vectors (the function takes the
embedding function)."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_module import load

VECTORS = {
    # sentences and whole texts
    "The cat sat.": [1, 0], "The dog ran.": [0, 1], "A bird flew.": [0.6, 0.8],
    "The cat sat. A bird flew.": [1, 0], "The cat sat. The dog ran.": [0.6, 0.8],
    # words
    "cat": [1, 0], "sat": [1, 0], "dog": [0, 1], "ran": [0, 1],
    "bird": [0, 1], "flew": [0.28, -0.96],
}


@pytest.fixture(scope="module")
def bench():
    return load("static_embeddings")


def embed(texts):
    return np.array([VECTORS[t] for t in texts], dtype=float)


def test_signals_by_hand(bench):
    s = bench.signals("The cat sat. The dog ran.", "The cat sat. A bird flew.", embed,
                      frozenset({"the", "a"}))
    # closest context sentence: "The cat sat." 1.0; "A bird flew." 0.8 (to "The dog ran.")
    assert s["sem_sentence_min"] == pytest.approx(0.8)
    assert s["sem_sentence_mean"] == pytest.approx(0.9)
    assert s["sem_far_share"] == 0.0  # neither is under 0.6
    assert s["sem_whole"] == pytest.approx(0.6)
    # content words cat, sat, bird, flew; absent: bird (closest dog/ran, 1.0) and flew
    # (closest cat/sat, 0.28 < 0.5): one unmatched of four
    assert s["sem_unmatched"] == pytest.approx(0.25)
    assert s["sem_novel_closeness"] == pytest.approx((1.0 + 0.28) / 2)
    assert sorted(s) == sorted(bench.SIGNAL_NAMES)


def test_nothing_absent_reads_as_close(bench):
    s = bench.signals("The cat sat. The dog ran.", "The cat sat.", embed, frozenset({"the"}))
    assert s["sem_unmatched"] == 0.0 and s["sem_novel_closeness"] == 1.0


def test_sentences(bench):
    assert bench.sentences("It rained. Then it stopped!\nOk") == ["It rained.",
                                                                  "Then it stopped!"]
    assert bench.sentences("Ok") == ["Ok"]
