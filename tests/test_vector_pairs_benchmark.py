"""benchmarks/vector_pairs.py: the pairs the static vectors alone matched, counted per lookup."""

from __future__ import annotations

import json

from benchmark_module import load

from evaltools.config import load_config
from evaltools.scoring import matcher


def test_counts_the_pairs_only_the_vectors_found(tmp_path, capsys):
    bench = load("vector_pairs")
    path = tmp_path / "one.jsonl"
    rows = [
        # toxic is found as harmful by the vectors only (cosine 0.60; WordNet has no pair)
        {"id": "a", "query": "Is mold dangerous?", "context": "Mold on bread is harmful.",
         "response": "Mold on bread is toxic.", "label": 0},
        # fatality is found as death by WordNet's table: not counted
        {"id": "b", "query": "What happened?", "context": "The crash caused deaths.",
         "response": "The crash caused fatalities.", "label": 0},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    plain = matcher.SentenceIndex.paraphrase_positions
    pairs = bench.count_pairs([path], load_config())
    assert matcher.SentenceIndex.paraphrase_positions is plain  # put back
    assert set(pairs) == {("toxic", "harmful")} and pairs[("toxic", "harmful")] >= 1
    off = load_config().replace(grounding={"paraphrase_cosine": 0.0})
    assert bench.count_pairs([path], off) == {}
    assert bench.main([str(path), "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "1 distinct pairs (grounding.paraphrase_cosine = 0.5)" in out
    assert "| toxic | harmful | 0.60" in out
