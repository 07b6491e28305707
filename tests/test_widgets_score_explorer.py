"""ScoreExplorer logic, driven headlessly: set values, move sliders, read the widgets."""

from __future__ import annotations

import html

import ipywidgets
import pandas as pd
import pytest

import evaltools
from evaltools.config import load_config
from evaltools.scoring.verdict import decide, redecide
from evaltools.widgets import ScoreExplorer

Q = "How much does the Yeti Rambler 20 oz cost?"
C = "The Yeti Rambler 20 oz tumbler costs $35.00 and ships in 2 days."
WRONG = "The Yeti Rambler 20 oz costs $29.99."
RIGHT = "The Yeti Rambler 20 oz costs $35."
WRONG_AMONG_RIGHT = "The Yeti Rambler 20 oz costs $29.99 and ships in 2 days."


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    ipywidgets.Widget.close_all()


@pytest.fixture(scope="module")
def frame():
    return pd.DataFrame({
        "id": ["a", "b", "c"],
        "query": [Q, Q, "Is it dishwasher safe?"],
        "context": [C, C, "The lid is dishwasher safe."],
        "response": [WRONG, RIGHT, "Yes."],
        "label_verdict": ["FAIL", "PASS", "PASS"],
    })


def test_scores_are_the_core_scores(frame):
    ex = ScoreExplorer(query=Q, context=C, response=WRONG)
    core = evaltools.score(Q, C, WRONG)
    assert ex.result.to_dict() | {"id": None} == core.to_dict() | {"id": None}
    assert ex.verdict.verdict == core.verdict == "FAIL"
    assert "data-verdict='FAIL'" in ex.verdict_html.value
    assert html.escape(core.reasons[0], quote=False) in ex.reasons_html.value
    assert f"<b>{core.hallucination:.3f}</b>" in ex.details_html.value
    assert "FAIL above 0.5" in ex.scores_html.value   # a bar against its threshold


def test_verdict_once_then_the_highlighted_response_then_bars(frame):
    ex = ScoreExplorer(frame)
    kids = list(ex.widget.children)
    order = [kids.index(w) for w in (ex.verdict_html, ex.highlight, ex.scores_html, ex.more)]
    assert order == sorted(order)
    html = " ".join(w.value for w in (ex.verdict_html, ex.reasons_html, ex.highlight,
                                      ex.scores_html, ex.agreement_html))
    assert html.count("data-verdict") == 1
    assert "font-weight:bold;\">FAIL" not in ex.highlight.value   # the card repeats no verdict
    assert ex.scores_html.value.count("threshold") == 3


def test_agreement_with_human_labels_is_shown_next_to_the_verdict(frame):
    from evaltools.calibration import spec_agreement

    ex = ScoreExplorer(frame)
    a = spec_agreement(evaltools.score_frame(frame))
    assert a.n == 3
    text = ex.agreement_html.value
    assert f"on {a.n - a.n_disagree} of 3 records" in text and "kappa" in text
    assert "evaltools calibrate" in text and "02_calibration" in text
    assert ScoreExplorer(query=Q, context=C, response=WRONG).agreement_html.value == ""


def test_reasons_name_unsupported_anchors_below_the_fail_threshold():
    """'24 hours' against a context that says 11: not FAIL (2 of 4 anchors), but named."""
    q = "How long does the Yeti keep drinks cold?"
    c = ("The Yeti Rambler keeps drinks cold for 11 hours and hot for 6. "
         "It has a stainless steel body and a lid.")
    resp = "It keeps drinks cold for 24 hours. It has a stainless steel body and comes with a lid."
    spec = load_config().replace(hallucination={"verdict_from": "spec"})
    r = evaltools.score(q, c, resp, config=spec)
    # claim "keeps drinks (cold for 24 hours)" and number "24 hours" unsupported; the body
    # and lid claims supported: 2 / 4 = 0.5, not above the spec's FAIL threshold 0.5
    assert (r.anchors_unsupported, r.anchors_total, r.hallucination) == (2, 4, 0.5)
    assert r.verdict != "FAIL"
    named = [x for x in r.reasons if x.startswith("not supported by the context")]
    assert len(named) == 1 and "“24 hours”" in named[0], r.reasons
    ex = ScoreExplorer(query=q, context=c, response=resp, config=spec)
    assert "24 hours" in ex.reasons_html.value and ex.verdict.verdict == r.verdict
    # by default the probability (the shipped calibration) decides rule 1, live as in the core
    core = evaltools.score(q, c, resp)
    live = ScoreExplorer(query=q, context=c, response=resp)
    assert core.verdict == live.verdict.verdict == "FAIL"
    assert live.verdict.reasons == core.reasons[:len(live.verdict.reasons)]
    assert live.verdict.reasons[0].startswith("hallucination probability")


def test_editing_the_response_rescores_live():
    ex = ScoreExplorer(query=Q, context=C, response=WRONG)
    assert ex.verdict.verdict == "FAIL"
    ex.response.value = RIGHT                     # what typing + blur does
    assert ex.result.hallucination == evaltools.score(Q, C, RIGHT).hallucination
    assert ex.result.anchors_unsupported == 0
    assert "data-verdict='FAIL'" not in ex.verdict_html.value


def test_live_off_waits_for_the_score_button():
    ex = ScoreExplorer(query=Q, context=C, response=WRONG, live=False)
    ex.response.value = RIGHT
    assert ex.result.anchors_unsupported == 1     # not rescored yet
    ex.score_button.click()
    assert ex.result.anchors_unsupported == 0


def test_highlight_marks_anchors_with_evidence_tooltips():
    ex = ScoreExplorer(query=Q, context=C, response=WRONG)
    h = ex.highlight.value
    assert "evaltools-unsupported" in h and ">&#36;29.99</mark>" in h
    assert "no evidence found in the context" in h
    ex.response.value = RIGHT
    h = ex.highlight.value
    assert "evaltools-supported" in h and "evidence: “$35.00”" in h
    assert "evaltools-evidence" in h              # the context with the evidence marked
    assert "&#36;35.00" in ex.anchors_html.value and "supported" in ex.anchors_html.value


def test_sliders_redecide_without_rescoring(monkeypatch):
    # a wrong price beside a right date: S_hall 0.5 and P under the calibration's 0.75, so the
    # value clause (P >= 0.25) is what fails it, and the two sliders below can tolerate it
    ex = ScoreExplorer(query=Q, context=C, response=WRONG_AMONG_RIGHT)
    h = ex.result.hallucination
    calls = []
    real = ex.scorer.score
    monkeypatch.setattr(ex.scorer, "score", lambda *a, **k: calls.append(a) or real(*a, **k))
    # Empty the widget's per-text cache: a slider that rescored would now reach the patched
    # call (with the cache full, a rescoring slider would pass unseen).
    ex._cache.clear()
    ex.sliders["hallucination"].value = 1.0       # tolerate everything
    ex.sliders["value_probability"].value = 1.0   # ... a wrong number too
    assert calls == []                            # the sliders only re-decide
    cfg = load_config().replace(hallucination={"fail_above": 1.0,
                                               "value_fail_probability": 1.0})
    unsupported = [(a.kind, a.text) for a in ex.result.anchors if a.counted and not a.supported]
    inputs = ex.result.verdict_inputs  # the probability and its threshold, as scored
    expected = decide(ex.result.relevance, ex.result.completeness, h, config=cfg,
                      unsupported=unsupported, probability=inputs.probability,
                      value_unsupported=inputs.value_unsupported)
    assert ex.verdict == expected == redecide(ex.result, cfg)
    assert inputs.probability[0] < inputs.probability[1] and ex.verdict.verdict == "PASS"
    assert "at the configured thresholds: FAIL" in ex.verdict_html.value
    ex.reset_button.click()
    assert ex.sliders["hallucination"].value == 0.5
    assert ex.sliders["value_probability"].value == 0.25
    assert ex.verdict.verdict == "FAIL"
    assert "configured thresholds" not in ex.verdict_html.value
    assert calls == []
    ex.response.value = WRONG_AMONG_RIGHT + " Really."  # new text: the patched call is used
    ex.score_now()
    assert calls and calls[-1][2] == WRONG_AMONG_RIGHT + " Really."


def test_set_thresholds_and_warn_slider():
    ex = ScoreExplorer(query=Q, context=C, response=RIGHT)
    ex.set_thresholds(completeness=1.0, relevance=0.0, hallucination=1.0)
    r = ex.result
    assert ex.verdict.verdict == ("WARN" if r.completeness < 1.0 else "PASS")
    assert ex.thresholds_config.completeness.warn_below == 1.0


def test_frame_picker_next_previous_and_labels(frame):
    ex = ScoreExplorer(frame)
    assert ex.result.id == "a" and ex.response.value == WRONG
    assert ex.prev_button.disabled and not ex.next_button.disabled
    assert "label_verdict <b>FAIL</b>" in ex.highlight.value
    ex.next_button.click()
    assert ex.result.id == "b" and ex.response.value == RIGHT
    ex.picker.value = 2                           # what choosing in the dropdown does
    assert ex.result.id == "c" and ex.next_button.disabled
    ex.previous()
    assert ex.result.id == "b"
    ex.select("a")
    assert ex.query.value == Q and ex.result.anchors_unsupported == 1
    ex.response.value = RIGHT                     # edited text: no longer record "a"
    assert ex.result.id == "edited"
    assert "label_verdict" not in ex.highlight.value
    assert [o[0] for o in ex.picker.options][2] == "c · Is it dishwasher safe?"


def test_notes_of_the_scorer_are_kept():
    ex = ScoreExplorer(query="Is it dishwasher safe?", context="The lid is dishwasher safe.",
                       response="Yes.")
    assert "no anchors in the response" in ex.reasons_html.value
    assert "no anchors in the response" in ex.anchors_html.value


def test_select_errors_say_what_is_expected(frame):
    ex = ScoreExplorer(frame)
    with pytest.raises(IndexError, match="position in \\[0, 2\\] or an id"):
        ex.select(7)
    with pytest.raises(ValueError):
        ex.select("nope")
    with pytest.raises(ValueError, match="needs a frame"):
        ScoreExplorer(query=Q, context=C, response=RIGHT).select(0)


def test_html_is_escaped():
    ex = ScoreExplorer(query="<script>x</script>", context="<b>c</b>", response="<i>r</i>")
    assert "<script>" not in ex.highlight.value and "&lt;script&gt;" in ex.highlight.value


def test_repr_is_stable(frame):
    assert ScoreExplorer(frame)._repr_mimebundle_()["text/plain"] == "ScoreExplorer(3 records)"


def test_probability_slider_moves_the_calibrations_threshold_live():
    q = "How much is the Yeti Rambler 20 oz?"
    c = "The Yeti Rambler 20 oz costs $35.00."
    ex = ScoreExplorer(query=q, context=c, response="It costs $29.99 and glows at night.")
    p, cut = ex.result.verdict_inputs.probability
    assert cut == 0.75 and ex.sliders["probability"].value == 0.75 and p >= 0.75
    assert ex.verdict.reasons[0] == f"hallucination probability {p:.2f} >= 0.75 (safety first; " \
                                    "calibration)"
    ex.set_thresholds(probability=1.0, hallucination=1.0)   # the wrong price still fails
    assert ex.verdict.reasons[0] == (f"hallucination probability {p:.2f} >= 0.25 with an "
                                     "unsupported number or date (safety first)")
    ex.set_thresholds(value_probability=1.0)                 # no part of rule 1 crossed
    assert ex.verdict.verdict == "PASS"   # "It" refers to every keyword: completeness 1.0
    assert ex.verdict.reasons[0] == (f"hallucination probability {p:.2f} < 1, relevance "
                                     "0.00 (rule not applied), completeness 1.00 >= 0.6")
    assert "at the configured thresholds: FAIL" in ex.verdict_html.value
    ex.set_thresholds(hallucination=0.5)   # S_hall 1.0 > 0.5 with the unsupported "$29.99"
    assert ex.verdict.reasons[0] == ("hallucination 1.00 > 0.5 with an unsupported number or "
                                     "date (safety first)")
    ex.reset_thresholds()
    assert ex.sliders["probability"].value == 0.75 and ex.verdict.verdict == "FAIL"
    assert ex.sliders["value_probability"].value == 0.25
    spec = ScoreExplorer(query=q, context=c, response="It costs $35.00.",
                         config=load_config().replace(hallucination={"verdict_from": "spec"}))
    assert "probability" not in spec.sliders and "value_probability" not in spec.sliders
    with pytest.raises(ValueError, match="verdict_from"):
        spec.set_thresholds(probability=0.5)


def test_long_response_slider_moves_the_long_responses_threshold_live():
    from test_verdict_false_alarms import MUSEUM, MUSEUM_LONG

    ex = ScoreExplorer(query="", context=MUSEUM, response=MUSEUM_LONG)
    assert not (ex.result.verdict_inputs.answer or ex.result.verdict_inputs.summary)
    p = ex.result.verdict_inputs.probability[0]
    assert ex.sliders["long_probability"].value == 0.65 and p < 0.65
    assert ex.verdict.verdict == "PASS"
    ex.set_thresholds(long_probability=round(p, 2) - 0.01)   # 71 words: the long threshold
    assert ex.verdict.verdict == "FAIL" and ex.verdict.reasons[0].endswith(
        "(safety first; calibration; a response of 60 words or more)")
    ex.set_thresholds(probability=round(p, 2) - 0.01, long_probability=1.0)
    assert ex.verdict.reasons[0].endswith("(safety first; calibration)")
    ex.reset_thresholds()
    assert ex.sliders["long_probability"].value == 0.65 and ex.verdict.verdict == "PASS"


@pytest.mark.parametrize(("query", "shape", "slider", "value", "said", "other"), [
    # a question over prose passages (a RAG answer); an instruction is none
    ("What is the Harbour Museum like?", "answer", "answer_probability", 0.7, "an answer",
     "Tell me about the Harbour Museum."),
    # an instruction about prose (a summary); a question is none
    ("Summarize the following text in about 70 words.", "summary", "summary_probability",
     0.6, "a summary", "What is the Harbour Museum like?"),
])
def test_a_shapes_slider_moves_its_long_threshold_and_not_anothers(query, shape, slider,
                                                                    value, said, other):
    from test_verdict_false_alarms import MUSEUM, MUSEUM_LONG

    ex = ScoreExplorer(query=query, context=MUSEUM, response=MUSEUM_LONG)
    assert getattr(ex.result.verdict_inputs, shape)
    p = ex.result.verdict_inputs.probability[0]
    assert ex.sliders[slider].value == value and p < min(value, 0.65)
    assert ex.verdict.verdict == "PASS"
    ex.set_thresholds(long_probability=round(p, 2) - 0.01)   # not this shape's threshold
    assert ex.verdict.verdict == "PASS"
    ex.set_thresholds(**{slider: round(p, 2) - 0.01})
    assert ex.verdict.verdict == "FAIL" and ex.verdict.reasons[0].endswith(
        f"(safety first; calibration; {said} of 60 words or more)")
    elsewhere = ScoreExplorer(query=other, context=MUSEUM, response=MUSEUM_LONG)
    assert not getattr(elsewhere.result.verdict_inputs, shape)
    elsewhere.set_thresholds(**{slider: 0.0})
    assert elsewhere.verdict.verdict == "PASS"
