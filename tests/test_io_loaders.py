"""Benchmark loaders on small fixtures the tests write, and labelled files."""

from __future__ import annotations

import json

import pytest

from evaltools.errors import InputError
from evaltools.io.benchmarks import load_begin, load_halueval_qa, load_ragtruth
from evaltools.io.labelled import group_keys, read_labelled
from evaltools.scoring.restore import score_labelled


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------- HaluEval

HALU = [
    {"knowledge": "Super Bowl XLVIII was won by Seattle.", "question": "Who won XLVIII?",
     "right_answer": "Seattle", "hallucinated_answer": "Denver won Super Bowl XLVIII in 2014."},
    {"knowledge": "Ada Lovelace wrote notes in 1843.", "question": "When?",
     "right_answer": "1843", "hallucinated_answer": "She wrote them in 1851."},
]


def test_halueval_two_labelled_records_per_line(tmp_path):
    p = write_jsonl(tmp_path / "qa_data.json", HALU)
    recs = load_halueval_qa(p)
    assert [(r["id"], r["label_hallucinated"]) for r in recs] == [
        ("halueval_qa_00001_right", 0), ("halueval_qa_00001_halluc", 1),
        ("halueval_qa_00002_right", 0), ("halueval_qa_00002_halluc", 1)]
    assert recs[1] == {"id": "halueval_qa_00001_halluc", "query": "Who won XLVIII?",
                       "context": "Super Bowl XLVIII was won by Seattle.",
                       "response": "Denver won Super Bowl XLVIII in 2014.",
                       "label_hallucinated": 1, "group": "halueval_qa_00001"}
    assert recs[2]["group"] == recs[3]["group"] != recs[0]["group"]


def test_halueval_blank_lines_keep_numbers_and_bad_lines_are_named(tmp_path):
    p = tmp_path / "qa.jsonl"
    p.write_text(json.dumps(HALU[0]) + "\n\n" + json.dumps({**HALU[1], "right_answer": 5})
                 + "\n")
    with pytest.raises(InputError) as err:
        load_halueval_qa(p)
    assert str(err.value) == "qa.jsonl line 3: field 'right_answer' must be a string, got int"
    p.write_text(json.dumps({k: v for k, v in HALU[0].items() if k != "knowledge"}) + "\n")
    with pytest.raises(InputError, match="line 1: field 'knowledge' is missing"):
        load_halueval_qa(p)
    p.write_text("[1, 2]\n")
    with pytest.raises(InputError, match="must be a JSON object"):
        load_halueval_qa(p)
    with pytest.raises(InputError, match="not found"):
        load_halueval_qa(tmp_path / "missing.jsonl")


# ---------------------------------------------------------------- BEGIN

BEGIN_TSV = (
    "model_name\tdata_source\tknowledge\tmessage\tresponse\tbegin_label\n"
    "t5\twow\tcrayola began with chalk.\twhat did they make?\tthey began with chalk\t"
    "Fully attributable\n"
    "gpt2\twow\tThe \"King\" was born in 1935.\tTell me more\tHe was born in 1940 .\t"
    "Not fully attributable\n"
    "ctrl\twow\tSkiing is a sport.\tI love it\tme too!\tGeneric\n"
)


def test_begin_labels_and_passthrough(tmp_path):
    p = tmp_path / "begin_dev.tsv"
    p.write_text(BEGIN_TSV, encoding="utf-8")
    recs = load_begin(p)
    assert [(r["id"], r["label_hallucinated"]) for r in recs] == [
        ("begin_00001", 0), ("begin_00002", 1), ("begin_00003", None)]
    assert recs[1]["context"] == 'The "King" was born in 1935.'  # quotes are literal
    assert recs[1]["query"] == "Tell me more"
    assert recs[1]["model_name"] == "gpt2" and recs[1]["begin_label"] == "Not fully attributable"
    assert [r["id"] for r in load_begin(p, generic="drop")] == ["begin_00001", "begin_00002"]


def test_begin_errors(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_text("knowledge\tmessage\tresponse\n")
    with pytest.raises(InputError, match="column 'begin_label' is missing"):
        load_begin(p)
    p.write_text("knowledge\tmessage\tresponse\tbegin_label\nk\tm\tr\tmaybe\n")
    with pytest.raises(InputError) as err:
        load_begin(p)
    assert str(err.value).startswith("b.tsv row 1: field 'begin_label' must be one of")
    p.write_text("knowledge\tmessage\tresponse\tbegin_label\nk\tm\tr\n")
    with pytest.raises(InputError, match="row 1: has 3 cells but the header has 4"):
        load_begin(p)
    with pytest.raises(ValueError, match="'generic'"):
        load_begin(p, generic="maybe")
    p.write_text("")
    assert load_begin(p) == []


# ---------------------------------------------------------------- RAGTruth

SOURCES = [
    {"source_id": "14312", "task_type": "QA", "source": "MARCO",
     "source_info": {"question": "how to prepare beets", "passages": "passage 1: Bake 45 min."},
     "prompt": "Briefly answer the following question:\nhow to prepare beets\n..."},
    {"source_id": "11316", "task_type": "Summary", "source": "CNN/DM",
     "source_info": "The Palestinian Authority became the 123rd member of the ICC.",
     "prompt": "Summarize the following news within 116 words:\nThe Palestinian ...\noutput:"},
    {"source_id": "13661", "task_type": "Data2txt", "source": "Yelp",
     "source_info": {"name": "Subway", "city": "Santa Barbara"},
     "prompt": "Instruction:\nWrite an objective overview about the following local business."},
]
RESPONSES = [
    {"id": "1", "source_id": "14312", "model": "gpt-4-0613", "temperature": 0.7, "labels": [],
     "split": "train", "quality": "good", "response": "Bake them for 45 minutes."},
    {"id": "2", "source_id": "11316", "model": "mistral-7B-instruct", "temperature": 0.9,
     "labels": [{"start": 4, "end": 14, "text": "Gaza Strip",
                 "label_type": "Evident Baseless Info"}],
     "split": "test", "quality": "good", "response": "The Gaza Strip joined the ICC."},
    {"id": "3", "source_id": "13661", "model": "llama-2-7b-chat", "temperature": 0.8,
     "labels": [], "split": "test", "quality": "good", "response": "Subway is in Santa Barbara."},
]


def test_ragtruth_joins_responses_to_sources(tmp_path):
    rp = write_jsonl(tmp_path / "response.jsonl", RESPONSES)
    sp = write_jsonl(tmp_path / "source_info.jsonl", SOURCES)
    recs = load_ragtruth(rp, sp)
    assert [(r["id"], r["task_type"], r["label_hallucinated"]) for r in recs] == [
        ("ragtruth_1", "QA", 0), ("ragtruth_2", "Summary", 1), ("ragtruth_3", "Data2txt", 0)]
    qa, summary, data = recs
    assert (qa["query"], qa["context"]) == ("how to prepare beets", "passage 1: Bake 45 min.")
    assert summary["query"] == "Summarize the following news within 116 words:"
    assert summary["context"].startswith("The Palestinian Authority")
    assert summary["hallucination_spans"][0]["text"] == "Gaza Strip"
    assert data["query"] == "Write an objective overview about the following local business."
    assert json.loads(data["context"]) == {"name": "Subway", "city": "Santa Barbara"}
    assert data["model"] == "llama-2-7b-chat" and data["split"] == "test"
    assert [r["id"] for r in load_ragtruth(rp, sp, split="test", task_types=["Summary"])] == [
        "ragtruth_2"]


def test_ragtruth_errors_name_file_line_field(tmp_path):
    sp = write_jsonl(tmp_path / "source_info.jsonl", SOURCES)
    rp = write_jsonl(tmp_path / "response.jsonl",
                     [RESPONSES[0], {**RESPONSES[1], "source_id": "999"}])
    with pytest.raises(InputError) as err:
        load_ragtruth(rp, sp)
    assert err.value.line == 2 and err.value.field == "source_id"
    assert "source_info.jsonl does not hold" in str(err.value)
    write_jsonl(rp, [{**RESPONSES[0], "labels": "none"}])
    with pytest.raises(InputError, match=r"response\.jsonl line 1: field 'labels' must be a list"):
        load_ragtruth(rp, sp)
    write_jsonl(rp, [{k: v for k, v in RESPONSES[0].items() if k != "response"}])
    with pytest.raises(InputError, match="field 'response' is missing"):
        load_ragtruth(rp, sp)
    write_jsonl(sp, [{**SOURCES[0], "source_info": "not a dict"}])
    write_jsonl(rp, [RESPONSES[0]])
    with pytest.raises(InputError, match=r"source_info\.jsonl line 1: field 'source_info' of a QA"):
        load_ragtruth(rp, sp)


# ---------------------------------------------------------------- labelled files


def test_read_labelled_normalises_the_label(tmp_path):
    p = write_jsonl(tmp_path / "l.jsonl", [
        {"query": "q", "context": "c", "response": "r", "label": 1},
        {"query": "q", "context": "c", "response": "r", "label": False}])
    assert [r["label_hallucinated"] for r in read_labelled(p)] == [1, 0]
    csv = tmp_path / "l.csv"
    csv.write_text("query,context,response,label_hallucinated,label_relevant,label_verdict\n"
                   "q,c,r,1,0, fail \nq,c,r,0,1,PASS\nq,c,r,0,,\n")
    recs = read_labelled(csv)
    assert [(r["label_hallucinated"], r["label_relevant"], r["label_verdict"])
            for r in recs] == [(1, 0, "FAIL"), (0, 1, "PASS"), (0, None, None)]
    csv.write_text("query,context,response,label\nq,c,r,\n")
    with pytest.raises(InputError, match=r"l\.csv row 1: field 'label' is missing"):
        read_labelled(csv)


def test_read_labelled_errors(tmp_path):
    p = write_jsonl(tmp_path / "l.jsonl", [
        {"query": "q", "context": "c", "response": "r", "label_hallucinated": 1},
        {"query": "q", "context": "c", "response": "r"},
        {"query": "q", "context": "c", "response": "r", "label_hallucinated": "yes"}])
    with pytest.raises(InputError) as err:
        read_labelled(p)
    assert str(err.value).startswith("l.jsonl line 2: field 'label_hallucinated' is missing")
    with pytest.raises(InputError, match="line 3: field 'label_hallucinated' must be 0 or 1"):
        read_labelled(p, require_label=False)
    write_jsonl(p, [{"label_hallucinated": 1}, {}])
    assert [r["label_hallucinated"] for r in read_labelled(p, require_label=False)] == [1, None]
    write_jsonl(p, [{"y": 1}])
    assert read_labelled(p, label="y")[0]["label_hallucinated"] == 1


def test_group_keys():
    recs = [{"id": "q1_right"}, {"id": "q1_halluc"}, {"id": "other"}]
    assert group_keys(recs, "id", regex=r"^(.*)_(?:right|halluc)$") == ["q1", "q1", "other"]
    assert group_keys(recs, "id") == ["q1_right", "q1_halluc", "other"]
    with pytest.raises(InputError, match="record 2: field 'g' is missing"):
        group_keys([{"g": 1}, {}], "g")
    with pytest.raises(InputError, match="not a valid regular expression"):
        group_keys(recs, "id", regex="(")


def test_score_labelled_keeps_already_scored_records():
    recs = [{"id": "a", "claims_score": 0.5, "ngram_overlap": 0.2, "anchors_total": 1,
             "hallucination": 0.5,
             "anchors": json.dumps([{"kind": "number", "supported": False}]),
             "label_hallucinated": 1}]
    df = score_labelled(recs)
    assert df.loc[0, "anchors"] == [{"kind": "number", "supported": False}]
    assert df.loc[0, "claims_score"] == 0.5


def test_loaded_records_score(tmp_path, nlp):
    recs = load_halueval_qa(write_jsonl(tmp_path / "qa.jsonl", HALU[1:]))
    df = score_labelled(recs, nlp=nlp)
    assert list(df["id"]) == ["halueval_qa_00001_right", "halueval_qa_00001_halluc"]
    assert df["error"].isna().all()
    right, wrong = df.to_dict("records")
    assert right["claims_score"] < wrong["claims_score"]
