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
