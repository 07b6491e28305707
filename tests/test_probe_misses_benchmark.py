"""benchmarks/probe_misses.py: FAIL by the probe's kind of edit, and polarity contradictions."""

from __future__ import annotations

import json

from benchmark_module import load


def test_edit_kinds_and_polarity_kinds_by_hand():
    bench = load("probe_misses")
    assert bench.edit_kind("Contradiction: says the fee is waived.") == "Contradiction"
    assert bench.edit_kind("Invented sentence: a loyalty program.") == "Invented sentence"
    assert bench.edit_kind("Evident baseless info: adds a sauna.") == "other"
    assert bench.edit_kind("") == "other"
    anchors = [{"kind": "claim", "supported": False, "contradiction": "negation"},
               {"kind": "claim", "supported": True, "contradiction": "opposite"},
               {"kind": "number", "supported": False, "contradiction": "opposite"},
               {"kind": "claim", "supported": False, "contradiction": "record_no"}]
    assert bench.polarity_kinds(anchors) == {"negation"}


def test_counts_the_twins_by_edit_and_the_contradicted_outputs(tmp_path, capsys):
    bench = load("probe_misses")
    ctx = "The Hydro lamp costs $40. The shop is open on Sundays."
    q = "Write an overview of the shop."
    rows = [
        {"id": "t1", "task": "qa", "label": 0, "query": q, "context": ctx,
         "response": "The Hydro lamp costs $40."},
        # a wrong price: FAIL by the value clause
        {"id": "t1_h", "task": "qa", "label": 1, "query": q, "context": ctx,
         "response": "The Hydro lamp costs $45."},
        # "closed" against "open": an opposite, its claim unsupported
        {"id": "t2_h", "task": "qa", "label": 1, "query": q, "context": ctx,
         "response": "The shop is closed on Sundays."},
    ]
    data = tmp_path / "probe.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        json.dumps({"id": "t1_h", "edit": "Subtle conflict: $40 to $45."}) + "\n"
        + json.dumps({"id": "t2_h", "edit": "Contradiction: open to closed."}) + "\n",
        encoding="utf-8")
    assert bench.main([str(data), "--responses", str(responses)]) == 0
    out = capsys.readouterr().out
    assert "| qa | Subtle conflict | 1 | 100.0% |" in out
    assert "| qa | Contradiction | 1 |" in out
    assert "| negation | 0 (0) | 0 (0) |" in out
    assert "| opposite | 0 (0) | 1 (" in out
    # t1_h against t1: the wrong price is seen (ranked above) and fails alone
    assert "| qa | all | 1 | 100.0% | 0.0% | 0 | 1 | 0 | 0 |" in out


def test_twin_table_by_hand():
    bench = load("probe_misses")
    rows = [
        # ranked above, both FAIL
        {"id": "a", "task": "qa", "label": 0, "verdict": "FAIL", "p": 0.50},
        {"id": "a_h", "task": "qa", "label": 1, "verdict": "FAIL", "p": 0.80},
        # a tie (the edit moves P by 0.001): counts half; only the twin fails
        {"id": "b", "task": "qa", "label": 0, "verdict": "PASS", "p": 0.400},
        {"id": "b_h", "task": "qa", "label": 1, "verdict": "FAIL", "p": 0.401},
        # ranked below, neither fails
        {"id": "c", "task": "qa", "label": 0, "verdict": "PASS", "p": 0.30},
        {"id": "c_h", "task": "qa", "label": 1, "verdict": "WARN", "p": 0.20},
        # a twin without its original is no pair (its row still counts in the AUROC)
        {"id": "d_h", "task": "qa", "label": 1, "verdict": "PASS", "p": 0.90},
    ]
    kinds = {"a_h": "Invented detail", "b_h": "Contradiction", "c_h": "Contradiction"}
    lines = bench.twin_table(rows, kinds)
    # pairs: a (1), b (1/2), c (0) -> 50 % ranked above, one tie of three
    assert "| qa | all | 3 | 50.0% | 33.3% | 1 | 1 | 0 | 1 |" in lines[-1]
    # AUROC over all seven outputs: faithful 0.5, 0.4, 0.3 against twins 0.8, 0.401, 0.2,
    # 0.9: of 12 pairs the twin is above in 3 + 2 + 0 + 3 = 8 -> 0.667
    assert lines[-1].endswith("| 0.667 |")
    assert "| qa | Contradiction | 2 | 25.0% | 50.0% | 0 | 1 | 0 | 1 |  |" in lines
    assert "| qa | Invented detail | 1 | 100.0% | 0.0% | 1 | 0 | 0 | 0 |  |" in lines


def test_span_table_measures_reported_spans_against_each_twins_edit():
    bench = load("probe_misses")
    ctx = "It opens at 9 am."
    original = "It opens at 9 am daily."
    twin = "It opens at 10 am daily."  # the edit wrote characters 12-14 ("10")
    rows = [
        {"id": "q1", "task": "qa", "label": 0, "response": original, "context": ctx,
         # a faithful output reporting "daily" (17-22): 5 characters against precision
         "unsupported_spans": [{"start": 17, "end": 22, "hallucinated": True}]},
        {"id": "q1_h", "task": "qa", "label": 1, "response": twin, "context": ctx,
         "unsupported_spans": [{"start": 12, "end": 14, "hallucinated": True},
                               {"start": 18, "end": 23, "hallucinated": False}]},
    ]
    lines = bench.span_table(rows)
    # reported: 2 + 5 characters, 2 of them the edit's 2: P 2/7, R 1, F1 4/9
    assert lines[2].startswith("| qa | 2 | P 0.286 R 1.000 F1 0.444 |")
    # every unsupported span adds the twin's "daily" (5 more): P 2/12, R 1, F1 2/7
    assert "| P 0.167 R 1.000 F1 0.286 |" in lines[2]
    # absent-word runs: "daily" in both (5 + 5) and "10" (2): P 2/12
    assert lines[2].endswith("| P 0.167 R 1.000 F1 0.286 |")
    assert lines[3].startswith("| all | 2 |")


def test_found_table_by_hand():
    bench = load("probe_misses")
    rows = [
        # the twin's "$45" is an unsupported anchor its original lacks: found
        {"id": "a", "task": "qa", "label": 0, "unsupported": frozenset()},
        {"id": "a_h", "task": "qa", "label": 1, "unsupported": frozenset({"$45"})},
        # the twin's only unsupported anchor is its original's too: not found
        {"id": "b", "task": "qa", "label": 0, "unsupported": frozenset({"a sauna"})},
        {"id": "b_h", "task": "qa", "label": 1, "unsupported": frozenset({"a sauna"})},
        # nothing unsupported in the twin: not found
        {"id": "c", "task": "qa", "label": 0, "unsupported": frozenset()},
        {"id": "c_h", "task": "qa", "label": 1, "unsupported": frozenset()},
        # a twin without its original is no pair
        {"id": "d_h", "task": "qa", "label": 1, "unsupported": frozenset({"x"})},
    ]
    kinds = {"a_h": "Wrong value", "b_h": "Contradiction", "c_h": "Contradiction"}
    lines = bench.found_table(rows, kinds)
    assert lines[2:] == ["| qa | Contradiction | 2 | 0.0% |",
                         "| qa | Wrong value | 1 | 100.0% |",
                         "| qa | all | 3 | 33.3% |"]
    assert bench.edit_kind("Wrong value: $40 to $45.") == "Wrong value"
