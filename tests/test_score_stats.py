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


def test_report_counts_scored_records_through_score_stats():
    """ReportStats holds a ScoreStats: its counts are the CLI summary's (issue 25 item 7)."""
    from evaltools.report.stats import ReportStats
    recs = [{"verdict": "PASS", "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0,
             "anchors": [{"kind": "number", "supported": False}]},
            {"verdict": "FAIL", "relevance": "high", "completeness": float("nan"),
             "hallucination": 1.0, "anchors": []},
            {"verdict": None, "relevance": 0.25},
            {"error": "field 'query' is missing"}]
    r = ReportStats()
    for i, rec in enumerate(recs, start=1):
        r.add_scored(rec, line=i)
    assert isinstance(r.scored, ScoreStats)
    assert (r.n_scored, r.scored_errors) == (4, 1)
    # no verdict and an error are both ERROR in the report
    assert dict(r.scored_verdicts) == {"PASS": 1, "FAIL": 1, "ERROR": 2}
    built = r.scored.build()
    # a score that is not a finite number is left out of its mean: (0.5 + 0.25) / 2
    assert built.means["relevance"] == 0.375 and built.means["completeness"] == 1.0
    assert (built.anchors_total, built.anchors_unsupported) == (1, 1)
    assert r.anchors is r.scored.anchors
