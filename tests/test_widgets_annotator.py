"""Annotator logic, driven headlessly: set values, click, read the widgets."""

from __future__ import annotations

import json

import ipywidgets
import pandas as pd
import pytest

from evaltools.io.label_store import iter_label_events
from evaltools.widgets import Annotator, read_labels


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    ipywidgets.Widget.close_all()


@pytest.fixture
def frame():
    return pd.DataFrame({
        "id": ["r1", "r2", "r3", "r4"],
        "query": ["price of X?", "weight of Y?", "color of Z?", "size <b>W</b>?"],
        "context": ["X costs $5.", "Y weighs 2 kg.", "Z is red.", "W is 3 m."],
        "response": ["X costs $5.", "Y weighs 9 kg.", "Z is blue.", "W is 3 m."],
        "extra": [1, 2, 3, 4],
    })


def make(frame, path, **kw):
    kw.setdefault("clock", lambda: "2026-01-01T00:00:00+00:00")
    return Annotator(frame, path, **kw)


def test_shows_the_first_case_escaped_and_default_fields(frame, tmp_path):
    ann = make(frame, tmp_path / "l.jsonl")
    assert ann.current_id == "r1"
    assert "Case 1 of 4" in ann.header.value
    assert "not labelled" in ann.header.value
    assert "price of X?" in ann.case_html.value
    assert "extra" not in ann.case_html.value          # only query/context/response
    assert list(ann.label_buttons) == ["PASS", "WARN", "FAIL"]
    assert ann.prev_button.disabled
    ann.go_to(3)
    assert "size &lt;b&gt;W&lt;/b&gt;?" in ann.case_html.value


def test_click_saves_immediately_with_note_and_advances(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    ann = make(frame, path, labeler="ana")
    ann.note.value = "numbers match"
    ann.label_buttons["PASS"].click()
    # On disk the moment the click returns, before anything else happens.
    events = list(iter_label_events(path))
    assert events == [{
        "id": "r1", "field": "label_verdict", "label": "PASS", "value": "PASS",
        "note": "numbers match", "action": "label", "position": 0, "labeler": "ana",
        "time": "2026-01-01T00:00:00+00:00"}]
    assert ann.current_id == "r2"
    assert ann.note.value == ""                           # note box cleared
    assert "Saved PASS for case r1" in ann.status.value
    assert ann.progress.value == 1
    assert ann.progress.description == "1/4 labelled"


def test_previous_next_and_relabel_last_wins(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    ann = make(frame, path)
    ann.label_buttons["FAIL"].click()
    ann.prev_button.click()
    assert ann.current_id == "r1"
    assert "labelled <b>FAIL</b>" in ann.header.value
    assert ann.label_buttons["FAIL"].button_style == "info"
    ann.label_buttons["WARN"].click()
    ann.next_button.click()                                # r3, no label saved
    assert ann.current_id == "r3"
    assert len(list(iter_label_events(path))) == 2         # append-only
    df = read_labels(path)
    assert df[["id", "label_verdict"]].values.tolist() == [["r1", "WARN"]]
    assert df.loc[0, "n_events"] == 2


def test_saved_note_comes_back_on_previous(frame, tmp_path):
    ann = make(frame, tmp_path / "l.jsonl")
    ann.note.value = "price matches"
    ann.label("PASS")
    assert ann.note.value == ""
    ann.previous()
    assert ann.note.value == "price matches"
    ann.label("WARN")                                      # relabel keeps the note
    assert read_labels(ann.store.path).loc[0, "note"] == "price matches"


def test_repeated_ids_are_refused(tmp_path):
    df = pd.DataFrame({"id": ["a", "b", "a"], "response": ["x", "y", "z"]})
    with pytest.raises(ValueError, match=r"unique ids .* repeated ids \['a'\]"):
        make(df, tmp_path / "l.jsonl")


def test_skip_is_recorded_and_not_offered_again_on_resume(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    ann = make(frame, path)
    ann.label_buttons["PASS"].click()                      # r1
    ann.skip_button.click()                                # r2
    assert ann.current_id == "r3"
    assert "Skipped case r2" in ann.status.value
    again = make(frame, path)
    assert again.current_id == "r3"
    assert again.n_labelled == 1
    assert read_labels(path)["id"].tolist() == ["r1"]
    assert read_labels(path, include_skipped=True)["id"].tolist() == ["r1", "r2"]
    again.previous()
    assert "skipped" in again.header.value


def test_skip_does_not_erase_a_saved_label(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    ann = make(frame, path)
    ann.label("PASS")
    ann.previous()
    ann.skip()
    assert read_labels(path)["label_verdict"].tolist() == ["PASS"]
    assert len(list(iter_label_events(path))) == 1


def test_all_done_state_disables_labelling(frame, tmp_path):
    ann = make(frame, tmp_path / "l.jsonl")
    for _ in range(4):
        ann.label_buttons["PASS"].click()
    assert ann.done and ann.current_id is None
    assert "All 4 cases seen" in ann.header.value
    assert all(b.disabled for b in ann.label_buttons.values())
    assert ann.next_button.disabled and not ann.prev_button.disabled
    ann.label("PASS")                                      # no crash, nothing written
    assert "nothing to label" in ann.status.value
    assert len(read_labels(ann.store.path)) == 4
    assert make(frame, ann.store.path).done                # resume: all done


def test_mapping_labels_store_values_for_calibration(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    ann = make(frame, path, labels={"hallucinated": 1, "faithful": 0},
               field="label_hallucinated")
    ann.label_buttons["faithful"].click()
    ann.label_buttons["hallucinated"].click()
    df = read_labels(path)
    assert df["label_hallucinated"].tolist() == [0, 1]
    merged = frame.merge(df, on="id")
    assert merged["label_hallucinated"].tolist() == [0, 1]


def test_two_fields_in_one_file_become_two_columns(frame, tmp_path):
    path = tmp_path / "l.jsonl"
    make(frame, path).label("FAIL")
    rel = make(frame, path, labels={"relevant": 1, "off-topic": 0}, field="label_relevant")
    assert rel.current_id == "r1"                          # resume is per field
    rel.label("relevant")
    df = read_labels(path)
    assert list(df.columns[:3]) == ["id", "label_verdict", "label_relevant"]
    assert df.iloc[0][["label_verdict", "label_relevant"]].tolist() == ["FAIL", 1]


def test_without_id_column_row_numbers_are_ids(tmp_path):
    df = pd.DataFrame({"query": ["a", "b"], "response": ["x", "y"]}, index=[10, 20])
    ann = make(df, tmp_path / "l.jsonl", fields=["response"])
    assert ann.current_id == "1"
    ann.label("PASS")
    assert read_labels(ann.store.path)["id"].tolist() == ["1"]
    assert "query" not in ann.case_html.value


def test_list_values_are_shown_as_json(tmp_path):
    df = pd.DataFrame({"id": ["j1"], "module": ["M01"], "output": [["Hydro Flask", "hydroflask"]],
                       "expected": [["Hydro Flask"]]})
    ann = make(df, tmp_path / "l.jsonl")
    assert json.dumps(["Hydro Flask", "hydroflask"]).replace('"', "&quot;") in ann.case_html.value


def test_bad_arguments_say_what_is_expected(frame, tmp_path):
    with pytest.raises(ValueError, match="'labels' parameter of Annotator"):
        make(frame, tmp_path / "l.jsonl", labels=())
    ann = make(frame, tmp_path / "l.jsonl")
    with pytest.raises(ValueError, match=r"must be one of 'PASS', 'WARN', 'FAIL'. Got"):
        ann.label("MAYBE")


def test_repr_is_stable_for_nbval(frame, tmp_path):
    ann = make(frame, tmp_path / "l.jsonl")
    bundle = ann._repr_mimebundle_()
    assert bundle["text/plain"] == ("Annotator(4 cases, field='label_verdict', "
                                    "labels=['PASS', 'WARN', 'FAIL'])")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_missing_file_reads_as_empty_frame(tmp_path):
    df = read_labels(tmp_path / "none.jsonl")
    assert df.empty and list(df.columns) == ["id", "note", "labeler", "labeled_at", "n_events"]


def test_annotator_labels_feed_calibrate(frame, tmp_path, capsys):
    """Label in the widget, then `evaltools calibrate --labels` on the raw file: the one
    step from the Annotator to a fitted probability (scoring the labelled records only)."""
    from evaltools.calibration.learned import load_calibration
    from evaltools.cli import main
    from evaltools.io.labelled import join_labels

    rows = []
    for i in range(12):
        rows.append({"id": f"ok{i}", "query": "How much is the jar?",
                     "context": f"The jar costs ${10 + i}.00.",
                     "response": f"The jar costs ${10 + i}.00."})
        rows.append({"id": f"bad{i}", "query": "How much is the jar?",
                     "context": f"The jar costs ${10 + i}.00.",
                     "response": f"The jar costs ${40 + i}.50 since 2019."})
    rows.append({"id": "unlabelled", "query": "q", "context": "c", "response": "r"})
    src = tmp_path / "raw.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    path = tmp_path / "labels.jsonl"
    ann = make(pd.DataFrame(rows), path, labels={"hallucinated": 1, "faithful": 0},
               field="label_hallucinated")
    for r in rows[:-1]:
        ann.label_buttons["hallucinated" if r["id"].startswith("bad") else "faithful"].click()
    assert len(join_labels(rows, path).records) == 24
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(src), "--labels", str(path), "-o", str(out), "--folds", "3",
                 "--repeats", "1", "--no-progress"]) == 0
    assert "24 records labelled in labels.jsonl; 1 without a label left out" \
        in capsys.readouterr().out
    cal = load_calibration(out)
    assert cal.metadata["fitted_on"]["n"] == 24 and cal.metadata["metrics"]["cv_auroc"] > 0.9
    assert "recommended_threshold" in cal.metadata and "threshold_metrics" in cal.metadata
