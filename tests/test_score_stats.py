"""ScoreStats: the one accumulator of a run's score statistics (hand-computed)."""

from evaltools.scoring.summary import ScoreStats

BASE = {"relevance": 0.5, "completeness": 1.0, "hallucination": 0.0, "claims_score": 0.0,
        "ngram_overlap": 1.0}


def test_means_over_the_records_that_hold_the_field():
    s = ScoreStats()
    s.add({**BASE, "verdict": "PASS", "support": 0.8})
    s.add({**BASE, "verdict": "WARN", "relevance": 0.1})  # an older output: no support
    s.add({"error": "field 'query' is missing"})
    built = s.build()
    assert built.means["relevance"] == (0.5 + 0.1) / 2
    assert built.means["support"] == 0.8  # one record had it, not (0.8 + 0) / 2
    assert s.score_table().loc["support", "mean"] == 0.8


def test_plus_merges_counts_sums_and_ranges():
    a, b = ScoreStats(), ScoreStats()
    a.add({**BASE, "verdict": "PASS", "support": 1.0,
           "anchors": [{"kind": "number", "supported": False}]})
    b.add({**BASE, "verdict": "FAIL", "support": 0.5, "relevance": 0.9,
           "anchors": [{"kind": "number", "supported": True},
                       {"kind": "date", "supported": True, "counted": False}]})
    both = (a + b).build()
    assert both.records == 2 and both.verdicts == {"PASS": 1, "WARN": 0, "FAIL": 1}
    assert both.means["support"] == 0.75 and both.means["relevance"] == 0.7
    assert both.by_kind == {"number": (2, 1)}  # the uncounted date is left out
    assert (a + b).score_table().loc["relevance", "max"] == 0.9
