"""JudgeForm: the Unified Judge Template as a live form.

Pick a module: the output and expected inputs take the module's shape (a
true/false choice for boolean modules, the label set for classification
modules, one item a line for extraction modules), its four rules appear as
checkboxes with their names and descriptions, pre-filled by the automatic
checks where a check can decide (and marked as such), and the reasoning
sub-scores as sliders with their ranges. Every change re-judges the record
with :func:`evaltools.judge` and shows correctness, the section scores, the
total, the verdict and the template JSON (in a text box, to copy).

The form computes nothing itself: the rules, ranges and checks come from the
judge registry (``modules.toml``), the scores from :func:`evaltools.judge`.

Given a ``client`` (:class:`evaltools.judging.llm_client.JudgeClient`), the
"Ask the judge" button sends the form's record to that LLM judge through
:func:`evaltools.judging.ask` (the module's prompt, the tolerant parse, the
cache when one is given): the judge's rule answers and sub-scores fill the
boxes and sliders, and the audit of its JSON shows among the issues. Changing
the module, output, expected or input drops the answer (it was for other
inputs).

Examples
--------
>>> form = JudgeForm(module="M01")
>>> form.set_values(output=["Hydro Flask", "hydroflask", "Hydro Flsk"],
...                 expected=["Hydro Flask", "hydroflask", "hydro flask"],
...                 input={"brand": "Hydro Flask", "competitors": ["Yeti"]})
>>> form.auto                      # rules 1, 2 and 4 are decided by automatic checks
[True, True, False, True]
>>> [box.value for box in form.rule_boxes], form.result.total_score
([True, True, False, True], 62)
>>> form.rule_boxes[2].value = True          # a reviewer ticks rule 3
>>> form.set_reasoning(chain_of_thought=6, evidence_usage=6, confidence_calibration=3)
>>> form.result.total_score, form.result.verdict
(87, 'PASS')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from evaltools.arguments import check_one_of
from evaltools.errors import EvaltoolsError, InputError, shorten
from evaltools.highlight import NO_MATHS, escape
from evaltools.judging.api import judge
from evaltools.judging.checks import run_check
from evaltools.judging.correctness import parse_boolean
from evaltools.judging.judge_json import TemplateJSON
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.palette import BAD, LINK, MUTED, VERDICT_COLOURS
from evaltools.values import as_records

__all__ = ["TEMPLATE_KEYS", "JudgeForm"]

TEMPLATE_KEYS = ("evaluation", "total_score", "verdict", "summary", "improvement_suggestions")
"""The keys of the template's JSON result, shown in the form's JSON box."""


# A plain HTML button (no kernel round trip) that copies the JSON box of its own form.
_COPY_JS = ("var t=this.closest('.evaltools-judge-form')"
            ".querySelector('.evaltools-json textarea');"
            "if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t.value)}"
            "else{t.select();document.execCommand('copy')}"
            "this.textContent='Copied';setTimeout(()=>{this.textContent='Copy JSON'},1500)")
COPY_BUTTON_HTML = (f'<button type="button" class="jupyter-button evaltools-copy" '
                    f'title="Copy the template JSON to the clipboard" '
                    f'onclick="{_COPY_JS}">Copy JSON</button>')
_AUTO = "automatic check"


def _items_text(value: Any) -> str:
    if not isinstance(value, (list, tuple)):
        return "" if value is None else str(value)
    return "\n".join(item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
                     for item in value)


def parse_items(text: str) -> list[Any]:
    """One extraction item a line; a line starting with ``{`` is a JSON object.

    Blank lines are ignored. Ranked items are ``{"attribute": ..., "rank": n}``
    objects or plain lines ranked by position.

    Examples
    --------
    >>> parse_items('hydro flask\\n\\n{"attribute": "color", "rank": 2}')
    ['hydro flask', {'attribute': 'color', 'rank': 2}]
    """
    items: list[Any] = []
    for n, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if not s:
            continue
        if s.startswith("{"):
            try:
                items.append(json.loads(s))
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {n} is not a valid JSON object ({exc.msg})") from None
        else:
            items.append(s)
    return items


class JudgeForm:
    """A form over the judge template: live correctness, total, verdict and JSON.

    Parameters
    ----------
    records : pandas.DataFrame or list of dict, optional
        Judging records (``data/judgments.jsonl``): a picker loads one into
        the form (module, output, expected, input, rules, reasoning).
    module : str
        The module shown first (when no records are given).
    registry : Registry, optional
        Modules and numbers; the shipped ``modules.toml`` by default.
    client : JudgeClient, optional
        An LLM judge for the "Ask the judge" button (disabled without one).
    cache : JudgeCache, optional
        Where the button's answers are kept (none by default).

    Attributes
    ----------
    widget : ipywidgets.VBox
    module : ipywidgets.Dropdown
    picker : ipywidgets.Dropdown or None
    output, expected : ipywidgets.Dropdown or ipywidgets.Textarea
        Shaped by the module's type; rebuilt when the module changes.
    input_json : ipywidgets.Textarea
        The module's input as JSON (brand, competitors, ...), for the checks.
    rule_boxes : list of ipywidgets.Checkbox
    rule_notes : list of ipywidgets.HTML
        Each rule's description, and whether an automatic check pre-filled it.
    sliders : dict of str to ipywidgets.IntSlider
    correctness_html, score_html, issues_html, status : ipywidgets.HTML
    json_box : ipywidgets.Textarea
        The template JSON of the current judgment.
    copy_html : ipywidgets.HTML
        A "Copy JSON" button: copies the JSON box in the browser (no kernel needed).
    result : JudgeResult or None
        The current judgment (None while the inputs cannot be judged).
    ask_button : ipywidgets.Button
        "Ask the judge": :meth:`ask_judge`.
    judge_html : ipywidgets.HTML
        What the last answer was: attempts, repairs, tokens, or why there is none.
    judge_answer : dict or str or None
        The LLM judge's answer for the current inputs (its JSON, or its text
        when it could not be read); ``judge_llm`` says how it was asked.
    auto : list of bool
        Which rules an automatic check decides for the current inputs.
    """

    def __init__(self, records: Any = None, *, module: str = "M01",
                 registry: Registry | None = None, client: Any = None, cache: Any = None):
        self.registry = registry or DEFAULT_REGISTRY
        self.records = self._as_records(records)
        self.result = None
        self.client, self.cache = client, cache
        self.judge_answer: Any = None
        self.judge_llm: dict[str, Any] | None = None
        self.auto: list[bool] = [False] * self.registry.settings.rules.count
        self._quiet = 0
        self._build(module)
        if self.records:
            self.load_record(0)
        else:
            self.set_module(module)

    # ---------------------------------------------------------------- public
    def set_module(self, module_id: str) -> None:
        """Show ``module_id``: inputs shaped by its type, its rules, then judge."""
        m = self.registry.module(module_id)
        self.judge_answer = self.judge_llm = None  # an answer is about one module's record
        if hasattr(self, "judge_html"):
            self.judge_html.value = ""
        self._quiet += 1
        try:
            if self.module.value != m.id:
                self.module.value = m.id
            self._shape_inputs(m)
            for i, (box, rule) in enumerate(zip(self.rule_boxes, m.rules, strict=True)):
                box.description = f"{i + 1}. {rule.name}"
                box.value = False
        finally:
            self._quiet -= 1
        self.update()

    def set_values(self, *, output: Any = None, expected: Any = None,
                   input: Mapping[str, Any] | None = None) -> None:
        """Fill output, expected and input (Python values), then judge."""
        self._quiet += 1
        try:
            if output is not None:
                self._put(self.output, output)
            if expected is not None:
                self._put(self.expected, expected)
            if input is not None:
                self.input_json.value = json.dumps(dict(input), ensure_ascii=False)
        finally:
            self._quiet -= 1
        self.update(inputs_changed=True)

    def set_rules(self, values: list[bool]) -> None:
        """Tick or untick the four rule boxes, then judge."""
        self._quiet += 1
        try:
            for box, v in zip(self.rule_boxes, values, strict=True):
                box.value = bool(v)
        finally:
            self._quiet -= 1
        self.update()

    def set_reasoning(self, **values: int) -> None:
        """Move reasoning sliders by sub-score name, then judge."""
        self._quiet += 1
        try:
            for name, v in values.items():
                check_one_of(name, "name", "JudgeForm.set_reasoning", self.sliders)
                self.sliders[name].value = v
        finally:
            self._quiet -= 1
        self.update()

    def load_record(self, which: int | str) -> None:
        """Load a judging record (by position or id) into the form."""
        if not self.records:
            raise ValueError("JudgeForm.load_record needs records; none were given.")
        ids = [str(r.get("id", i + 1)) for i, r in enumerate(self.records)]
        pos = which if isinstance(which, int) else ids.index(str(which))
        if self.picker is not None and self.picker.value != pos:
            self.picker.value = pos  # the observer loads it
            return
        rec = self.records[pos]
        m = self.registry.module(str(rec["module"]).strip())
        self._quiet += 1
        try:
            self.set_module(m.id)
            self._put(self.output, rec.get("output"))
            self._put(self.expected, rec.get("expected"))
            inp = rec.get("input")
            self.input_json.value = (json.dumps(inp, ensure_ascii=False)
                                     if isinstance(inp, Mapping) else "")
            rules = self._given_rules(rec)
            for box, v in zip(self.rule_boxes, rules, strict=False):
                box.value = bool(v)
            reasoning = self._given_reasoning(rec)
            for name, s in self.sliders.items():
                s.value = int(reasoning.get(name, 0) or 0)
        finally:
            self._quiet -= 1
        self.update(inputs_changed=True)

    def record(self) -> dict[str, Any]:
        """The judging record the form describes (raises ValueError on unreadable inputs)."""
        m = self.registry.module(self.module.value)
        inp_text = self.input_json.value.strip()
        try:
            inp = json.loads(inp_text) if inp_text else None
        except json.JSONDecodeError as exc:
            raise ValueError(f"input: not valid JSON ({exc.msg})") from None
        if inp is not None and not isinstance(inp, Mapping):
            raise ValueError("input: must be a JSON object, e.g. {\"brand\": \"Yeti\"}")
        rec: dict[str, Any] = {"module": m.id, "output": self._get(self.output, "output"),
                               "expected": self._get(self.expected, "expected"),
                               "rules": [box.value for box in self.rule_boxes],
                               "reasoning": {k: s.value for k, s in self.sliders.items()}}
        if inp is not None:
            rec["input"] = dict(inp)
        if self.judge_answer is not None:
            rec["judge"] = self.judge_answer
        return rec

    def ask_judge(self) -> None:
        """Ask the LLM judge (``client``) about the form's record, then judge and audit.

        The judge's rule answers tick the boxes (where no automatic check
        decides) and its sub-scores move the sliders; its JSON is audited with
        the record. A request that fails, or an answer that cannot be read,
        is said in ``judge_html`` (an unreadable answer is still audited:
        ``unparseable``).
        """
        if self.client is None:
            raise ValueError("JudgeForm.ask_judge needs a client: "
                             "JudgeForm(client=JudgeClient(model, base_url))")
        from evaltools.judging.asking import ask
        from evaltools.prompt import render_prompt

        try:
            rec = self.record()
        except ValueError as exc:
            self._fail(str(exc))
            return
        rec = {k: v for k, v in rec.items() if k not in ("rules", "reasoning", "judge")}
        try:
            asked = ask([rec], client=self.client, prompt=render_prompt, cache=self.cache,
                        registry=self.registry, rejudge=True)[0]
        except EvaltoolsError as exc:
            self.judge_html.value = (f"<span style='color:{BAD}'>The judge could not be "
                                     f"asked: {escape(str(exc))}</span>")
            return
        self.judge_answer, self.judge_llm = asked.get("judge"), asked.get("judge_llm")
        if isinstance(self.judge_answer, Mapping):
            self._quiet += 1
            try:
                for i, (box, v) in enumerate(zip(self.rule_boxes,
                                                 self._given_rules(asked), strict=True)):
                    if not self.auto[i]:
                        box.value = v
                reasoning = self._given_reasoning(asked)
                for name, slider in self.sliders.items():
                    slider.value = int(reasoning.get(name, 0))
            finally:
                self._quiet -= 1
        self._show_judge()
        self.update()

    def _show_judge(self) -> None:
        info = self.judge_llm or {}
        if info.get("error"):
            self.judge_html.value = (f"<span style='color:{BAD}'>{escape(info['error'])}"
                                     f"</span>")
            return
        repairs = ", ".join(info.get("repairs") or []) or "none"
        self.judge_html.value = (
            f"<b>Judge</b> {escape(str(info.get('model', '')))}: answered · attempts "
            f"{info.get('attempts')} · repairs: {escape(repairs)} · tokens "
            f"{info.get('prompt_tokens')} in, {info.get('completion_tokens')} out")

    def template_json(self) -> str:
        """The current judgment in the template's JSON format ("" if none)."""
        if self.result is None:
            return ""
        d = self.result.to_dict()
        return json.dumps({k: d[k] for k in TEMPLATE_KEYS}, indent=2, ensure_ascii=False)

    def update(self, *, inputs_changed: bool = False) -> None:
        """Re-run the automatic checks (when inputs changed) and re-judge."""
        if self._quiet:
            return
        if inputs_changed and self.judge_answer is not None:
            self.judge_answer = self.judge_llm = None  # it answered about other inputs
            self.judge_html.value = ""
        try:
            rec = self.record()
        except ValueError as exc:
            self._fail(str(exc))
            return
        if inputs_changed:
            self._apply_checks(rec)
            rec["rules"] = [box.value for box in self.rule_boxes]
        try:
            self.result = judge(rec, source="form")
        except InputError as exc:
            self._fail(exc.message)
            return
        self.status.value = ""
        self._render()

    # ------------------------------------------------------------- internals
    @staticmethod
    def _as_records(records: Any) -> list[dict[str, Any]]:
        return [] if records is None else as_records(records)

    def _given_rules(self, rec: Mapping[str, Any]) -> list[bool]:
        """Rules of a loaded record, else its judge's answers, else all unticked."""
        n = self.registry.settings.rules.count
        given: Any = rec.get("rules")
        if given is None:
            given = [entry.raw for entry in TemplateJSON.of(rec.get("judge")).rules or ()]
        out = []
        for entry in (given or [])[:n]:
            v = entry.get("compliant") if isinstance(entry, Mapping) else entry
            out.append(v is True)
        return out + [False] * (n - len(out))

    def _given_reasoning(self, rec: Mapping[str, Any]) -> dict[str, Any]:
        r = rec.get("reasoning")
        if r is None:
            r = TemplateJSON.of(rec.get("judge")).reasoning_quality
        if not isinstance(r, Mapping):
            return {}
        return {k: v for k, v in r.items()
                if k in self.sliders and isinstance(v, int) and not isinstance(v, bool)
                and 0 <= v <= self.sliders[k].max}

    def _apply_checks(self, rec: Mapping[str, Any]) -> None:
        """Pre-fill the rules an automatic check decides, and mark them."""
        m = self.registry.module(rec["module"])
        self._quiet += 1
        try:
            for i in range(len(m.rules)):
                chk = run_check(m, i, rec["output"], rec["expected"], rec.get("input"))
                decided = chk is not None and chk.compliant is not None
                self.auto[i] = decided
                if decided:
                    self.rule_boxes[i].value = bool(chk.compliant)
        finally:
            self._quiet -= 1

    def _put(self, w: W.Widget, value: Any) -> None:
        if isinstance(w, W.Textarea):
            w.value = _items_text(value)
            return
        m = self.registry.module(self.module.value)
        if m.type == "boolean":
            b = parse_boolean(value, registry=self.registry)
            if b is None:
                w.options = [*w.options, (f"{shorten(value)} (not a boolean)", value)]
                w.value = value
            else:
                w.value = b
        else:
            label = m.canonical_label(str(value)) if isinstance(value, str) else None
            if label is None:
                w.options = [*w.options, (f"{value} (not a label)", str(value))]
                label = str(value)
            w.value = label

    def _get(self, w: W.Widget, name: str) -> Any:
        if isinstance(w, W.Textarea):
            try:
                return parse_items(w.value)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
        return w.value

    def _shape_inputs(self, m: Module) -> None:
        def make(name: str) -> W.Widget:
            if m.type == "boolean":
                w = W.Dropdown(options=[("true", True), ("false", False)], value=True,
                               description=name)
            elif m.type == "classification":
                w = W.Dropdown(options=[(lab, lab) for lab in m.labels], value=m.labels[0],
                               description=name)
            else:
                hint = ("one item a line; ranked: plain lines in rank order, or "
                        '{"attribute": "...", "rank": 1} a line' if m.items == "ranked"
                        else "one item a line")
                w = W.Textarea(description=name, placeholder=hint, continuous_update=False,
                               layout=W.Layout(width="auto", height="110px"))
            w.observe(lambda _ch: self.update(inputs_changed=True), names="value")
            return w

        for old in (getattr(self, "output", None), getattr(self, "expected", None)):
            if old is not None:
                old.close()
        self.output, self.expected = make("output"), make("expected")
        self.values_box.children = [self.output, self.expected]
        self.type_html.value = (f"<b>{escape(m.id)} · {escape(m.name)}</b> — "
                                f"{escape(m.type)} module")
        if m.type == "classification":
            self.type_html.value += f" (labels: {escape(', '.join(m.labels))})"
        for i, rule in enumerate(m.rules):
            self.rule_notes[i].value = escape(rule.description)

    def _build(self, module: str) -> None:
        reg = self.registry
        self.module = W.Dropdown(
            options=[(f"{mid} · {m.name} ({m.type})", mid) for mid, m in reg.modules.items()],
            value=reg.module(module).id, description="module",
            layout=W.Layout(width="480px"))
        self.module.observe(lambda ch: None if self._quiet else self.set_module(ch["new"]),
                            names="value")
        self.picker = None
        top: list[W.Widget] = [self.module]
        if self.records:
            self.picker = W.Dropdown(
                options=[(f"{r.get('id', i + 1)} · {r.get('module')}", i)
                         for i, r in enumerate(self.records)],
                description="record", layout=W.Layout(width="320px"))
            self.picker.observe(lambda ch: self.load_record(ch["new"]), names="value")
            top.insert(0, self.picker)
        self.type_html = W.HTML()
        self.values_box = W.VBox()
        self.input_json = W.Textarea(
            description="input", continuous_update=False,
            placeholder='the module\'s input as JSON, e.g. {"brand": "Hydro Flask", '
                        '"competitors": ["Yeti"]} (used by the automatic checks)',
            layout=W.Layout(width="auto", height="56px"))
        self.input_json.observe(lambda _ch: self.update(inputs_changed=True), names="value")
        n = reg.settings.rules.count
        self.rule_boxes = [W.Checkbox(value=False, description=f"{i + 1}.", indent=False,
                                      layout=W.Layout(width="260px")) for i in range(n)]
        self.rule_notes = [W.HTML() for _ in range(n)]
        self.rule_marks = [W.HTML() for _ in range(n)]
        for box in self.rule_boxes:
            box.observe(lambda _ch: self.update(), names="value")
        rules = W.VBox([W.HTML(f"<b>Rule compliance</b> ({reg.settings.rules.points_per_rule} "
                               "points per compliant rule)")]
                       + [W.HBox([b, W.VBox([note, mark])])
                          for b, note, mark in zip(self.rule_boxes, self.rule_notes,
                                                   self.rule_marks, strict=True)])
        self.sliders = {}
        for sub in reg.settings.reasoning.subscores:
            s = W.IntSlider(value=0, min=0, max=sub.max, step=1,
                            description=f"{sub.name.replace('_', ' ')} (0–{sub.max})",
                            style={"description_width": "220px"},
                            layout=W.Layout(width="480px"))
            s.observe(lambda _ch: self.update(), names="value")
            self.sliders[sub.name] = s
        reasoning = W.VBox([W.HTML(f"<b>Reasoning quality</b> (0–"
                                   f"{reg.settings.reasoning.max_points})"),
                            *self.sliders.values()])
        self.correctness_html = W.HTML()
        self.score_html = W.HTML()
        self.score_html.add_class("evaltools-judge-total")
        self.issues_html = W.HTML()
        self.status = W.HTML()
        self.json_box = W.Textarea(description="JSON", disabled=False,
                                   layout=W.Layout(width="auto", height="260px"))
        self.json_box.add_class("evaltools-json")
        self.copy_html = W.HTML(COPY_BUTTON_HTML)
        self.ask_button = W.Button(
            description="Ask the judge", disabled=self.client is None, icon="gavel",
            tooltip=("send this record's prompt to the LLM judge and audit its answer"
                     if self.client is not None else "JudgeForm(client=...) enables this"))
        self.ask_button.on_click(lambda _b: self.ask_judge())
        self.judge_html = W.HTML()
        self.widget = W.VBox([
            W.HBox(top), self.type_html, self.values_box, self.input_json, rules, reasoning,
            W.HBox([self.ask_button, self.judge_html]), self.status, self.correctness_html,
            self.score_html, self.issues_html,
            W.HBox([W.HTML("<i>The template JSON (select all and copy, or):</i>"),
                    self.copy_html]),
            self.json_box,
        ])
        self.widget.add_class("evaltools-judge-form")
        for cls in NO_MATHS.split():
            self.widget.add_class(cls)

    def _fail(self, message: str) -> None:
        self.result = None
        self.status.value = (f"<span style='color:{BAD}'>Cannot judge: "
                             f"{escape(message)}</span>")
        self.json_box.value = ""
        self.score_html.value = ""
        self.correctness_html.value = ""

    def _render(self) -> None:
        r = self.result
        c, rc, q = r.correctness, r.rule_compliance, r.reasoning_quality
        s = self.registry.settings
        corr = (f"<b>Correctness</b> {c.score}/{s.correctness.max_points} · "
                f"{escape(c.match_level)}")
        if c.f1 is not None:
            corr += f" · P {c.precision:.2f} R {c.recall:.2f} F1 {c.f1:.2f} ({c.credit_band})"
        corr += f"<br><span style='font-size:90%'>{escape(c.details)}</span>"
        self.correctness_html.value = corr
        colour = VERDICT_COLOURS.get(r.verdict, MUTED)
        self.score_html.value = (
            f"rules {rc.score}/{s.rules.max_points} · reasoning {q.score}/"
            f"{s.reasoning.max_points} · <b>total {r.total_score}</b> → "
            f"<span style='font-weight:bold;font-size:1.2em;color:{colour}' "
            f"data-verdict='{escape(r.verdict)}'>{escape(r.verdict)}</span> "
            f"({escape(r.verdict_reason)})")
        for i, (mark, rr) in enumerate(zip(self.rule_marks, rc.rules, strict=True)):
            if self.auto[i]:
                text = (f"<span style='color:{LINK}'>pre-filled by the {_AUTO}: "
                        f"{escape(rr.check_evidence or '')}</span>")
            else:
                text = f"<span style='color:{MUTED}'>your assessment</span>"
            if rr.source == "check" and rr.given is not None and rr.given != rr.check:
                text += (f" <span style='color:{BAD}'>(ticked otherwise; the automatic "
                         "check decides)</span>")
            mark.value = f"<span style='font-size:85%'>{text}</span>"
        issues = "".join(f"<li>{escape(i)}</li>" for i in r.issues)
        self.issues_html.value = f"<ul style='font-size:90%'>{issues}</ul>" if issues else ""
        self.json_box.value = self.template_json()

    # -------------------------------------------------------------- display
    def __repr__(self) -> str:
        extra = f", {len(self.records)} records" if self.records else ""
        return f"JudgeForm({len(self.registry.modules)} modules{extra})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)  # stable under nbval (no model ids, no state)
        return data
