"""benchmarks/probe.py --spans and benchmarks/span_model.py on it: the characters a hallucinated
variant's edit wrote are its gold, and the span model's rows are labelled against them."""

from __future__ import annotations

import json

from benchmark_module import load


def test_edit_spans_are_the_replaced_and_inserted_tokens():
    probe = load("probe")
    old = "The cafe opens at 9 am and serves espresso."
    new = "The cafe opens at 10 am and serves espresso and free pastries."
    # a replaced token (9 -> 10) and a replaced-with-more run at the end
    assert probe.edit_spans(old, new) == [[18, 20], [35, 62]]
    assert new[18:20] == "10" and new[35:62] == "espresso and free pastries."
    # an insertion in the middle; a pure deletion marks nothing
    assert probe.edit_spans("It is red.", "It is very red.") == [[6, 10]]
    assert probe.edit_spans("It is very red.", "It is red.") == []


def test_gold_spans_pair_each_variant_with_its_original():
    probe = load("probe")
    rows = [{"id": "biz01", "label": 0, "response": "It is red."},
            {"id": "biz01_h", "label": 1, "response": "It is blue."},
            {"id": "qa07_h", "label": 1, "response": "No original."}]
    assert probe.gold_spans(rows) == [{"id": "biz01", "spans": []},
                                      {"id": "biz01_h", "spans": [[6, 11]]}]


def test_span_rows_are_labelled_against_the_edit(tmp_path):
    probe, span_model = load("probe"), load("span_model")
    ctx = '{"name": "Blue Door Cafe", "hours": "9am-5pm", "reviews": [{"text": "Good tea."}]}'
    rows = [{"id": "biz01", "query": "Write an overview.", "context": ctx, "label": 0,
             "task": "data2text", "response": "Blue Door Cafe opens at 9am and serves tea."},
            {"id": "biz01_h", "query": "Write an overview.", "context": ctx, "label": 1,
             "task": "data2text",
             "response": "Blue Door Cafe opens at 9am and serves tea and Belgian waffles."}]
    probe.write_jsonl(rows, tmp_path / "probe.jsonl")
    probe.write_jsonl(probe.gold_spans(rows), tmp_path / "probe_spans.jsonl")
    (tmp_path / "spans.jsonl").write_text("", encoding="utf-8")
    faithful, edited = span_model.collect(tmp_path, ("probe",))
    assert faithful["gold"] == set() and faithful["task"] == "data2text"
    text = rows[1]["response"]
    start = text.index("tea and")
    assert edited["gold"] == set(range(start, len(text)))  # "tea and Belgian waffles."
    # the grounding's span over "Belgian waffles" lies in the edit: labelled 1
    labelled = {text[a:b]: lab for (a, b), _, lab in edited["spans"]}
    assert labelled == {"Belgian waffles": 1}
    assert json.loads((tmp_path / "probe_spans.jsonl").read_text().splitlines()[1])["id"] == (
        "biz01_h")
