"""benchmarks/static_embeddings.py's signals and paraphrase neighbours, on hand-made vectors
(wordllama's own vectors are not needed: the functions take the embedding function)."""

from __future__ import annotations

import math

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


def test_neighbours_leave_out_the_word_and_its_antonyms(bench):
    vec = {"buy": [1.0, 0.0], "purchase": [0.8, 0.6], "sell": [0.9, 0.1], "cat": [0.0, 1.0]}

    def unit(ws):
        return bench.unit_rows(np.array([vec[w] for w in ws], dtype=float))

    keys = ["purchase", "sell", "cat", "buy"]
    assert bench.neighbours(keys, "buy", unit, 0.7, antonyms=["sell"]) == ["purchase"]
    # cos(buy, sell) = 0.9 / sqrt(0.82) = 0.994: a neighbour unless it is an antonym
    assert bench.neighbours(keys, "buy", unit, 0.7) == ["purchase", "sell"]
    assert bench.neighbours(keys, "buy", unit, 0.995) == []
    assert math.isclose(float(unit(["sell"])[0] @ unit(["buy"])[0]), 0.9 / math.sqrt(0.82))


def test_unit_rows_and_sentences(bench):
    assert bench.unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist() == [[0.6, 0.8],
                                                                           [0.0, 0.0]]
    assert bench.sentences("It rained. Then it stopped!\nOk") == ["It rained.",
                                                                  "Then it stopped!"]
    assert bench.sentences("Ok") == ["Ok"]
