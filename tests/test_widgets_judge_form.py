"""JudgeForm logic, driven headlessly: pick modules, set values, tick rules, read outputs."""

from __future__ import annotations

import html
import json
from pathlib import Path

import ipywidgets
import pandas as pd
import pytest

import evaltools
from evaltools.judging.registry import load_registry
from evaltools.widgets import JudgeForm
from evaltools.widgets.judge_form import TEMPLATE_KEYS, parse_items

DATA = Path(__file__).resolve().parent.parent / "data" / "judgments.jsonl"
REG = load_registry()


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    ipywidgets.Widget.close_all()


@pytest.fixture(scope="module")
def judgments():
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("mid", list(REG.modules))
def test_inputs_rules_and_sliders_follow_the_module(mid):
    form = JudgeForm()
    form.module.value = mid                        # what choosing in the dropdown does
    m = REG.module(mid)
    if m.type == "boolean":
        assert isinstance(form.output, ipywidgets.Dropdown)
        assert [v for _, v in form.output.options] == [True, False]
    elif m.type == "classification":
        assert [v for _, v in form.expected.options] == list(m.labels)
    else:
        assert isinstance(form.output, ipywidgets.Textarea)
    assert [b.description for b in form.rule_boxes] == [f"{i}. {r.name}"
                                                        for i, r in enumerate(m.rules, 1)]
    assert [n.value for n in form.rule_notes] == [html.escape(r.description) for r in m.rules]
    assert {k: s.max for k, s in form.sliders.items()} == {
        s.name: s.max for s in REG.settings.reasoning.subscores}
    assert "0–8" in form.sliders["chain_of_thought"].description
    assert m.name in form.type_html.value
    # The form's judgment is the core's judgment of the record it describes.
    assert form.result.to_dict() == evaltools.judge(form.record(), source="form").to_dict()


def test_live_total_verdict_and_json():
    form = JudgeForm(module="M15")
    form.output.value = True
    form.expected.value = True
    assert form.result.correctness.score == 40
    form.set_rules([True, True, True, False])
    form.sliders["chain_of_thought"].value = 8
    form.sliders["evidence_usage"].value = 8
    form.sliders["confidence_calibration"].value = 4
    assert form.result.total_score == 90 and form.result.verdict == "PASS"
    assert "total 90" in form.score_html.value and "data-verdict='PASS'" in form.score_html.value
    doc = json.loads(form.json_box.value)
    assert tuple(doc) == TEMPLATE_KEYS
    assert doc["evaluation"]["rule_compliance"]["score"] == 30
    assert doc["evaluation"]["reasoning_quality"]["score"] == 20
    assert doc["total_score"] == 90 and doc["verdict"] == "PASS"
    assert form.template_json() == form.json_box.value
    # the copy button copies the JSON box of its own form (checked in a browser elsewhere)
    assert "evaltools-copy" in form.copy_html.value and "evaltools-json" in form.copy_html.value
    assert "evaltools-json" in form.json_box._dom_classes
    form.output.value = False                       # wrong answer: FAIL, capped at 60
    assert form.result.correctness.score == 0
    assert form.result.verdict == "FAIL" and form.result.total_score == 50   # 0 + 30 + 20
    form.expected.value = False
    form.set_rules([True] * 4)
    form.output.value = True
    assert form.result.total_score == 60                                     # 0 + 40 + 20 capped
    assert "Incorrect output" in form.score_html.value


def test_automatic_checks_prefill_and_are_marked():
    form = JudgeForm(module="M01")
    form.input_json.value = json.dumps({"brand": "Hydro Flask", "competitors": ["Yeti"]})
    form.expected.value = "Hydro Flask\nhydroflask\nhydro flask"
    form.output.value = "Hydro Flask\nhydroflask\nHydro Flsk"
    assert form.auto == [True, True, False, True]
    assert [b.value for b in form.rule_boxes] == [True, True, False, True]
    assert "pre-filled by the automatic check" in form.rule_marks[0].value
    assert "your assessment" in form.rule_marks[2].value
    # "Hydro Flask" and "hydro flask" are one item (case-insensitive): P 2/3, R 1, F1 0.8
    assert form.result.correctness.f1 == pytest.approx(0.8)
    assert "P 0.67 R 1.00 F1 0.80" in form.correctness_html.value
    # A competitor in the output: the check finds the violation of rule 3.
    form.output.value = "Hydro Flask\nhydroflask\nYeti"
    assert form.auto[2] is True and form.rule_boxes[2].value is False
    assert "Yeti" in form.rule_marks[2].value
    # Unticking a rule the check decided: the check still decides, and the form says so.
    form.rule_boxes[0].value = False
    assert form.result.rule_compliance.rules[0].compliant is True
    assert "the automatic check decides" in form.rule_marks[0].value


def test_unreadable_inputs_are_reported_not_raised():
    form = JudgeForm(module="M01")
    form.input_json.value = "{brand: Yeti"
    assert form.result is None
    assert "Cannot judge: input: not valid JSON" in form.status.value
    assert form.json_box.value == ""
    form.input_json.value = '{"brand": "Yeti"}'
    assert form.result is not None and form.status.value == ""
    form.output.value = 'Yeti\n{"attribute": '
    assert "output: line 2 is not a valid JSON object" in form.status.value


def test_ranked_items_as_json_lines():
    form = JudgeForm(module="M08")
    form.expected.value = ('{"attribute": "insulation", "rank": 1}\n'
                           '{"attribute": "color", "rank": 2}')
    form.output.value = ('{"attribute": "insulation", "rank": 1}\n'
                         '{"attribute": "color", "rank": 1}')
    assert form.auto[2] is True and form.rule_boxes[2].value is False   # duplicate ranks
    assert form.result.correctness.score == evaltools.judge(form.record()).correctness.score


def test_records_picker_loads_module_values_rules_and_reasoning(judgments):
    form = JudgeForm(pd.DataFrame(judgments))
    assert form.picker is not None and len(form.picker.options) == len(judgments)
    for pos in (0, 20, len(judgments) - 1):
        rec = judgments[pos]
        form.picker.value = pos
        assert form.module.value == rec["module"]
        core = evaltools.judge(rec)
        assert form.result.correctness.score == core.correctness.score
        assert form.result.correctness.match_level == core.correctness.match_level
        judged_rq = core.reasoning_quality
        assert {k: s.value for k, s in form.sliders.items()} == {
            k: getattr(judged_rq, k) or 0 for k in form.sliders}
    form.load_record(judgments[5]["id"])
    assert form.picker.value == 5


def test_loaded_boolean_text_and_unknown_label(judgments):
    form = JudgeForm(module="M15")
    form.set_values(output="Yes.", expected=True)
    assert form.output.value is True and form.result.correctness.match
    form = JudgeForm(module="M02")
    form.set_values(output="MAYBE", expected="OWN")
    assert form.output.value == "MAYBE"
    assert form.result.correctness.match_level == "NONE"
    assert "not in the label set" in form.issues_html.value


def test_bad_arguments():
    form = JudgeForm()
    with pytest.raises(KeyError, match="unknown module 'M99'"):
        form.set_module("M99")
    with pytest.raises(ValueError, match="must be one of"):
        form.set_reasoning(depth=3)
    with pytest.raises(ValueError, match="needs records"):
        form.load_record(0)


def test_parse_items_and_repr():
    assert parse_items(" a \n\n b ") == ["a", "b"]
    assert JudgeForm()._repr_mimebundle_()["text/plain"] == "JudgeForm(17 modules)"


# ------------------------------------------------------------ "Ask the judge" (LLM judge)


@pytest.fixture
def llm_server(monkeypatch):
    import sys

    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from llm_server import ScriptedServer

    with ScriptedServer() as srv:
        yield srv


def _asking_form(srv, case):
    from evaltools.config import DEFAULT_CONFIG
    from evaltools.judging.llm_client import JudgeClient

    client = JudgeClient("judge-model", srv.url, config=DEFAULT_CONFIG.replace(
        llm={"backoff_base": 0.01, "max_retries": 1}).llm)
    form = JudgeForm(module="M04", client=client)
    form.set_values(output=True, expected=True,
                    input={"brand": "Hydro Flask", "keyword": "yeti rambler", "case": case})
    return form


def test_ask_the_judge_fills_the_form_and_audits_the_answer(llm_server):
    form = _asking_form(llm_server, "wrong_arithmetic")
    assert not form.ask_button.disabled
    assert form.result.total_score == 40 and form.result.audit is None   # nothing ticked yet
    form.ask_button.click()
    assert llm_server.count("wrong_arithmetic") == 1
    assert [b.value for b in form.rule_boxes] == [True] * 4
    assert {k: s.value for k, s in form.sliders.items()} == \
        {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}
    # 40 + 40 + 20, and the judge's rule_compliance.score of 30 is a finding
    assert (form.result.total_score, form.result.verdict) == (100, "PASS")
    assert [f.code for f in form.result.audit] == ["rule_total_mismatch"]
    assert "rule_compliance.score" in form.issues_html.value
    assert "answered · attempts 1" in form.judge_html.value
    form.set_values(output=False)       # other inputs: the answer no longer applies
    assert form.result.audit is None and form.judge_answer is None
    assert form.judge_html.value == ""


def test_ask_the_judge_shows_a_failure(llm_server):
    form = _asking_form(llm_server, "server_error")
    form.ask_button.click()
    assert llm_server.count("server_error") == 2
    assert "no answer from the judge" in form.judge_html.value
    assert form.result.audit is None and form.result.total_score == 40


def test_ask_the_judge_unreadable_answer_is_audited(llm_server):
    form = _asking_form(llm_server, "malformed")
    form.ask_button.click()
    assert [f.code for f in form.result.audit] == ["unparseable"]
    assert "could not be read as JSON" in form.judge_html.value


def test_ask_button_without_client_is_disabled():
    form = JudgeForm(module="M04")
    assert form.ask_button.disabled
    with pytest.raises(ValueError, match="needs a client"):
        form.ask_judge()
