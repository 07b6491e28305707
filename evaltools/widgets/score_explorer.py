"""ScoreExplorer: score a response live and see why, anchor by anchor.

Type or paste a query, context and response (or pick a record of a
DataFrame): the scores, the verdict with its reasons and the response with
its anchors highlighted (supported / unsupported colours, evidence in the
tooltip) update as soon as a text box loses focus. Three threshold sliders
re-decide the verdict live, without rescoring.

Everything shown comes from the core: :func:`evaltools.score` for the
scores, :func:`evaltools.scoring.verdict.redecide` for the verdict under the
slider thresholds, :mod:`evaltools.highlight` for the HTML.

Examples
--------
>>> ex = ScoreExplorer(query="How much is the Yeti Rambler 20 oz?",
...                    context="The Yeti Rambler 20 oz costs $35.00.",
...                    response="It costs $29.99.")
>>> ex.result.verdict, ex.verdict.verdict
('FAIL', 'FAIL')
>>> ex.verdict.reasons[0]                        # rule 1 from the shipped calibration
'hallucination probability 0.98 >= 0.75 (safety first; calibration)'
>>> ex.set_thresholds(hallucination=1.0)        # S_hall's threshold; the probability's stays
>>> ex.verdict.verdict
'FAIL'
>>> ex.set_thresholds(probability=0.99)         # the calibration's threshold, live
>>> ex.verdict.reasons[0]                        # the unsupported price still fails
'hallucination probability 0.98 >= 0.25 with an unsupported number or date (safety first)'
>>> ex.set_thresholds(value_probability=1.0)    # ... from probability 0.3 on; now never
>>> ex.verdict.verdict  # no rule crossed: "It" answers what the question names (completeness 1)
'PASS'
>>> spec = ScoreExplorer(query=ex.query.value, context=ex.context.value,
...                      response=ex.response.value,
...                      config=DEFAULT_CONFIG.replace(hallucination={"verdict_from": "spec"}))
>>> spec.set_thresholds(hallucination=1.0)      # the spec's rule: tolerate any hallucination
>>> spec.verdict.verdict != "FAIL" or spec.verdict.reasons[0].startswith("relevance")
True
>>> "evaltools-unsupported" in ex.highlight.value
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from evaltools.arguments import parameter_message
from evaltools.config import DEFAULT_CONFIG, Config
from evaltools.highlight import NO_MATHS, case_html, escape, legend_html
from evaltools.palette import BAD, CAUTION_TEXT, MUTED, SURFACE, TEXT, VERDICT_COLOURS
from evaltools.scoring.result import COUNT_FIELDS, SCORE_FIELDS
from evaltools.scoring.scorer import ResponseScorer
from evaltools.scoring.verdict import VERDICT_RULES, ScoreVerdict, redecide

__all__ = ["SLIDERS", "ScoreExplorer"]

SLIDERS: dict[str, tuple[str, str, str]] = {
    # slider key: (config section, config key, label), from the verdict's rules
    r.score: (r.section, r.key, f"{r.verdict} if {r.score} {r.sign}") for r in VERDICT_RULES
}
"""The verdict thresholds the sliders set, as named in the config."""

PROBABILITY_SLIDERS: dict[str, tuple[str, str]] = {
    # slider key: (key of [hallucination], label); shown when rule 1 reads the probability
    "value_probability": ("value_fail_probability", "... with a wrong number from"),
    "long_probability": ("long_fail_probability", "... a long response from"),
    "answer_probability": ("long_answer_fail_probability", "... a long RAG answer from"),
    "summary_probability": ("long_summary_fail_probability", "... a long summary from"),
}
"""The probabilities from which parts of rule 1 fail, besides the calibration's threshold."""

_SCORES = (*SCORE_FIELDS, *COUNT_FIELDS)


#: Where a reader goes when the verdicts disagree with their labels.
CALIBRATION_POINTER = ("Thresholds fitted to labels: <code>notebooks/02_calibration.ipynb</code>"
                       " (<code>evaltools.calibration.threshold_table</code>); a hallucination "
                       "probability: <code>evaltools calibrate</code>.")
#: Frames up to this size are scored whole for the agreement line.
AGREEMENT_MAX_ROWS = 5000


def _bar(name: str, value: float | None, threshold: float, rule: str, bad: bool) -> str:
    """A small bar of a 0-1 score with the threshold marked, and the rule in words."""
    v = 0.0 if value is None else max(0.0, min(1.0, float(value)))
    colour = VERDICT_COLOURS["FAIL" if bad else "PASS"]
    return (
        "<div style='display:flex;align-items:center;gap:8px;margin:2px 0;'>"
        f"<span style='width:104px'>{escape(name)}</span>"
        "<span style='position:relative;display:inline-block;width:180px;height:10px;"
        f"background:{SURFACE};border-radius:3px;'>"
        f"<span style='position:absolute;left:0;top:0;bottom:0;width:{100 * v:.1f}%;"
        f"background:{colour};border-radius:3px;'></span>"
        f"<span title='threshold {threshold:g}' style='position:absolute;"
        f"left:{100 * threshold:.1f}%;top:-3px;bottom:-3px;width:2px;"
        f"background:{TEXT};'></span></span>"
        f"<b style='width:40px;text-align:right'>{escape(_fmt(value))}</b>"
        f"<span style='color:{MUTED};font-size:90%'>{escape(rule)}</span></div>")


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3f}"
    return "–" if v is None else str(v)


def _option_label(rid: str, query: Any, width: int = 70) -> str:
    q = " ".join(str(query or "").split())
    return f"{rid} · {q[:width]}{'…' if len(q) > width else ''}"


class ScoreExplorer:
    """Live response scores, verdict and highlighted anchors.

    Parameters
    ----------
    frame : pandas.DataFrame, optional
        Records with ``query``, ``context``, ``response`` (and optionally
        ``id`` and the human labels). A picker then loads a record into the
        text boxes; editing them rescores the edited text.
    query, context, response : str
        Initial texts when no frame is given.
    config : Config, optional
        Thresholds and weights; the sliders start at its thresholds.
    nlp : spacy.Language, optional
        The pipeline to score with (loaded once by default).
    live : bool
        Rescore when a text box changes (on blur); otherwise only on the
        Score button.

    Attributes
    ----------
    widget : ipywidgets.VBox
    query, context, response : ipywidgets.Textarea
    picker : ipywidgets.Dropdown or None
    prev_button, next_button, score_button : ipywidgets.Button
    sliders : dict of str to ipywidgets.FloatSlider
        Keys ``hallucination``, ``relevance``, ``completeness`` (the config's
        thresholds), and, when rule 1 reads the calibrated probability
        (``hallucination.verdict_from = "probability"``, the default),
        ``probability`` (the calibration's threshold), ``value_probability``
        (``hallucination.value_fail_probability``: from where an unsupported
        number or date fails) and ``long_probability``
        (``hallucination.long_fail_probability``: from where a response of
        ``hallucination.long_response_words`` words or more fails) and
        ``answer_probability`` (``hallucination.long_answer_fail_probability``: the same
        for an answer to a question over prose passages) and ``summary_probability``
        (``hallucination.long_summary_fail_probability``: the same for a response to an
        instruction about prose, a summary).
    verdict_html, scores_html, reasons_html, highlight, anchors_html : ipywidgets.HTML
    result : ScoreResult
        The scores of the texts shown (verdict under the config's thresholds).
    verdict : ScoreVerdict
        The verdict under the slider thresholds.
    """

    def __init__(self, frame: Any = None, *, query: str = "", context: str = "",
                 response: str = "", config: Config | None = None, nlp: Any = None,
                 live: bool = True):
        self.config = config or DEFAULT_CONFIG
        self.scorer = ResponseScorer(self.config, nlp)
        self._cache: dict[tuple[str, str, str], Any] = {}
        self.frame = None if frame is None else frame.reset_index(drop=True)
        self.result = None
        self.verdict: ScoreVerdict | None = None
        self._loading = False
        self._build(live)
        if self.frame is not None and len(self.frame):
            self.select(0)
        else:
            self._set_texts(query, context, response)
            self.score_now()

    # -------------------------------------------------------------- handlers
    @property
    def thresholds_config(self) -> Config:
        """The config with the sliders' thresholds."""
        sections: dict[str, dict[str, float]] = {}
        for key, (section, name, _) in SLIDERS.items():
            sections.setdefault(section, {})[name] = float(self.sliders[key].value)
        for key, (name, _) in PROBABILITY_SLIDERS.items():
            if key in self.sliders:
                sections["hallucination"][name] = float(self.sliders[key].value)
        return self.config.replace(**sections)

    def score_now(self) -> None:
        """Score the three texts (cached per triple) and redraw everything."""
        q, c, r = self.query.value, self.context.value, self.response.value
        key = (q, c, r)
        if key not in self._cache:
            self._cache[key] = self.scorer.score(q, c, r)
        rid = self._current_id() if self._texts_match_record() else "edited"
        self.result = dataclasses.replace(self._cache[key], id=rid)
        self.redecide()

    def _slid(self, res):
        """``res`` with the probability slider's threshold in its verdict inputs."""
        inputs = res.verdict_inputs
        if "probability" not in self.sliders or inputs is None or inputs.probability is None:
            return res
        cut = float(self.sliders["probability"].value)
        return dataclasses.replace(res, verdict_inputs=dataclasses.replace(
            inputs, probability=(inputs.probability[0], cut)))

    def redecide(self) -> None:
        """Re-decide the verdict under the slider thresholds (no rescoring)."""
        if self.result is None:
            return
        self.verdict = redecide(self._slid(self.result), self.thresholds_config)
        self._render()

    def set_thresholds(self, *, hallucination: float | None = None,
                       relevance: float | None = None,
                       completeness: float | None = None,
                       probability: float | None = None,
                       value_probability: float | None = None,
                       long_probability: float | None = None,
                       answer_probability: float | None = None,
                       summary_probability: float | None = None) -> None:
        """Move sliders (the verdict follows through the slider observers)."""
        for key, value in (("hallucination", hallucination), ("relevance", relevance),
                           ("completeness", completeness), ("probability", probability),
                           ("value_probability", value_probability),
                           ("long_probability", long_probability),
                           ("answer_probability", answer_probability),
                           ("summary_probability", summary_probability)):
            if value is not None:
                if key not in self.sliders:
                    raise ValueError(f"ScoreExplorer.set_thresholds: {key} needs "
                                     "hallucination.verdict_from = \"probability\"")
                self.sliders[key].value = value

    def _probability_threshold(self) -> float:
        cal = self.scorer.calibration
        if cal is None:
            from evaltools.scoring.probability import load_calibration

            cal = load_calibration()
        return float(cal.recommended_threshold)

    def reset_thresholds(self) -> None:
        """Sliders back to the config's thresholds (and the calibration's)."""
        for key, (section, name, _) in SLIDERS.items():
            self.sliders[key].value = getattr(getattr(self.config, section), name)
        if "probability" in self.sliders:
            self.sliders["probability"].value = self._probability_threshold()
            for key, (name, _) in PROBABILITY_SLIDERS.items():
                self.sliders[key].value = getattr(self.config.hallucination, name)

    def select(self, which: int | str) -> None:
        """Load a record of the frame by position (int) or id (str), and score it."""
        if self.frame is None:
            raise ValueError("ScoreExplorer.select needs a frame; none was given.")
        pos = which if isinstance(which, int) else self._ids.index(str(which))
        if not 0 <= pos < len(self.frame):
            raise IndexError(parameter_message(
                "which", "ScoreExplorer.select",
                f"a position in [0, {len(self.frame) - 1}] or an id", repr(which)))
        if self.picker.value != pos:
            self.picker.value = pos   # observer calls back into _load
        else:
            self._load(pos)

    def next(self) -> None:
        """The next record of the frame."""
        if self.frame is not None and self.picker.value < len(self.frame) - 1:
            self.select(self.picker.value + 1)

    def previous(self) -> None:
        """The previous record of the frame."""
        if self.frame is not None and self.picker.value > 0:
            self.select(self.picker.value - 1)

    # ------------------------------------------------------------- internals
    def _current_id(self) -> str:
        if self.frame is None:
            return "edited"
        return self._ids[self.picker.value]

    def _record(self, pos: int) -> Mapping[str, Any]:
        return self.frame.iloc[pos].to_dict()

    def _texts_match_record(self) -> bool:
        if self.frame is None:
            return False
        rec = self._record(self.picker.value)
        return all(str(rec.get(f) or "") == getattr(self, f).value
                   for f in ("query", "context", "response"))

    def _load(self, pos: int) -> None:
        rec = self._record(pos)
        self._set_texts(*(str(rec.get(f) or "") for f in ("query", "context", "response")))
        self.prev_button.disabled = pos == 0
        self.next_button.disabled = pos == len(self.frame) - 1
        self.score_now()

    def _set_texts(self, q: str, c: str, r: str) -> None:
        self._loading = True    # one rescore for three boxes, not three
        try:
            self.query.value, self.context.value, self.response.value = q, c, r
        finally:
            self._loading = False

    def _on_text(self, change: Mapping[str, Any]) -> None:
        if not self._loading and self.live.value:
            self.score_now()

    def _build(self, live: bool) -> None:
        box = W.Layout(width="auto")
        self.query = W.Textarea(description="query", continuous_update=False,
                                layout=W.Layout(width="auto", height="48px"))
        self.context = W.Textarea(description="context", continuous_update=False,
                                  layout=W.Layout(width="auto", height="96px"))
        self.response = W.Textarea(description="response", continuous_update=False,
                                   layout=W.Layout(width="auto", height="72px"))
        for t in (self.query, self.context, self.response):
            t.observe(self._on_text, names="value")
        self.live = W.Checkbox(value=live, description="rescore on edit", indent=False,
                               layout=W.Layout(width="auto"))
        self.score_button = W.Button(description="Score", button_style="primary",
                                     tooltip="Score the three texts now")
        self.score_button.on_click(lambda _b: self.score_now())
        self.prev_button = W.Button(description="Previous", icon="arrow-left")
        self.next_button = W.Button(description="Next", icon="arrow-right")
        self.prev_button.on_click(lambda _b: self.previous())
        self.next_button.on_click(lambda _b: self.next())
        self.picker = None
        top: list[W.Widget] = []
        if self.frame is not None:
            self._ids = ([str(v) for v in self.frame["id"].tolist()] if "id" in self.frame
                         else [str(i) for i in range(1, len(self.frame) + 1)])
            queries = self.frame["query"].tolist() if "query" in self.frame else [""] * len(
                self.frame)
            self.picker = W.Dropdown(
                options=[(_option_label(rid, q), i)
                         for i, (rid, q) in enumerate(zip(self._ids, queries, strict=True))],
                description="record", layout=W.Layout(width="70%"))
            self.picker.observe(lambda ch: self._load(ch["new"]), names="value")
            top = [W.HBox([self.picker, self.prev_button, self.next_button])]
        self.sliders: dict[str, W.FloatSlider] = {}
        for key, (section, name, label) in SLIDERS.items():
            s = W.FloatSlider(value=getattr(getattr(self.config, section), name), min=0.0,
                              max=1.0, step=0.01, readout_format=".2f",
                              description=label, continuous_update=True,
                              style={"description_width": "170px"},
                              layout=W.Layout(width="420px"))
            s.observe(lambda _ch: self.redecide(), names="value")
            self.sliders[key] = s
        if self.config.hallucination.verdict_from == "probability":
            for key, value, label in (
                    ("probability", self._probability_threshold(), "FAIL if probability >="),
                    *((k, getattr(self.config.hallucination, name), label)
                      for k, (name, label) in PROBABILITY_SLIDERS.items())):
                s = W.FloatSlider(value=value, min=0.0, max=1.0,
                                  step=0.01, readout_format=".2f",
                                  description=label, continuous_update=True,
                                  style={"description_width": "170px"},
                                  layout=W.Layout(width="420px"))
                s.observe(lambda _ch: self.redecide(), names="value")
                self.sliders[key] = s
        self.reset_button = W.Button(description="Spec thresholds",
                                     tooltip="Sliders back to the configured thresholds")
        self.reset_button.on_click(lambda _b: self.reset_thresholds())
        self.verdict_html = W.HTML()
        self.verdict_html.add_class("evaltools-verdict")
        self.reasons_html = W.HTML()
        self.agreement_html = W.HTML(self._agreement_text())
        self.agreement_html.add_class("evaltools-agreement")
        self.scores_html = W.HTML()
        self.highlight = W.HTML(layout=box)
        self.highlight.add_class("evaltools-highlighted")
        self.anchors_html = W.HTML(layout=box)
        self.details_html = W.HTML(layout=box)
        # Verdict once, then the highlighted response, then score bars against the
        # thresholds: all above the fold. Texts to edit, sliders and the full
        # table of scores and anchors below.
        texts = W.VBox([self.query, self.context, self.response,
                        W.HBox([self.score_button, self.live])])
        thresholds = W.VBox([*self.sliders.values(), self.reset_button])
        details = W.VBox([self.anchors_html, self.details_html])
        self.more = W.Accordion(children=[texts, thresholds, details])
        for i, title in enumerate(("Edit the texts", "Thresholds",
                                   "All scores and anchors")):
            self.more.set_title(i, title)
        self.more.selected_index = 1
        self.widget = W.VBox([
            *top,
            self.verdict_html, self.reasons_html, self.agreement_html,
            self.highlight, W.HTML(legend_html()), self.scores_html,
            self.more,
        ])
        self.widget.add_class("evaltools-score-explorer")
        for cls in NO_MATHS.split():
            self.widget.add_class(cls)

    def _render(self) -> None:
        res, v = self.result, self.verdict
        colour = VERDICT_COLOURS.get(v.verdict, MUTED)
        base = res.verdict
        moved = ("" if base == v.verdict else
                 f" <span style='color:{MUTED}'>(at the configured thresholds: "
                 f"{escape(base)})</span>")
        self.verdict_html.value = (f"<span style='font-size:1.3em;font-weight:bold;"
                                   f"color:{colour}' data-verdict='{escape(v.verdict)}'>"
                                   f"{escape(v.verdict)}</span> <span style='color:{MUTED}'>record "
                                   f"{escape(res.id)}</span>{moved}")
        # The scorer's reasons are the verdict's reasons followed by notes.
        n_base = len(redecide(res, self.config).reasons)  # as scored: the calibration's cut
        notes = list(res.reasons[n_base:])
        items = "".join(f"<li>{escape(r)}</li>" for r in v.reasons)
        items += "".join(f"<li><i>{escape(n)}</i></li>" for n in notes)
        self.reasons_html.value = f"<ul style='margin:2px 0'>{items}</ul>"
        cfg = self.thresholds_config
        self.scores_html.value = (
            "<div class='evaltools-scores'>"
            + "".join(_bar(rule.score, getattr(res, rule.score), rule.threshold(cfg),
                           f"{rule.verdict} {rule.direction} {rule.threshold(cfg):g}",
                           rule.crossed(getattr(res, rule.score), cfg))
                      for rule in VERDICT_RULES)
            + "</div>")
        cells = "".join(f"<tr><td>{k}</td><td style='text-align:right'><b>"
                        f"{escape(_fmt(getattr(res, k)))}</b></td></tr>" for k in _SCORES)
        kw = (f"<tr><td>keywords</td><td>{escape(', '.join(res.keywords))}</td></tr>"
              f"<tr><td>missing keywords</td><td>"
              f"{escape(', '.join(res.missing_keywords)) or '–'}</td></tr>")
        self.details_html.value = (f"<table class='evaltools-details' style='font-size:90%'>"
                                   f"{cells}{kw}</table>")
        record = {"id": res.id, "query": self.query.value, "context": self.context.value,
                  "response": self.response.value, **res.to_dict(),
                  "verdict": v.verdict, "reasons": list(v.reasons)}
        if self._texts_match_record():
            rec = self._record(self.picker.value)
            for lab in ("label_hallucinated", "label_relevant", "label_verdict"):
                if lab in rec and rec[lab] is not None and rec[lab] == rec[lab]:
                    record[lab] = rec[lab]
        self.highlight.value = case_html(record, header=False)
        rows = "".join(
            f"<tr><td>{escape(a.kind)}</td><td>{escape(a.text)}</td>"
            f"<td style='color:{VERDICT_COLOURS['PASS' if a.supported else 'FAIL']}'>"
            f"{'supported' if a.supported else 'unsupported'}"
            f"{'' if a.counted else ' (not counted)'}</td>"
            f"<td>{escape(a.evidence or '–')}</td></tr>" for a in res.anchors)
        rows += "".join(
            f"<tr><td>span</td><td>{escape(s.text)}</td>"
            f"<td style='color:{BAD}'>unsupported (weight {s.weight:.2f})</td>"
            f"<td>closest: {escape(s.closest or '–')}</td></tr>"
            for s in res.unsupported_spans)
        self.anchors_html.value = (
            "<table class='evaltools-anchors' style='font-size:90%'><tr><th>kind</th>"
            f"<th>anchor</th><th>status</th><th>evidence</th></tr>{rows}</table>"
            if rows else "<i>no anchors in the response</i>")

    def _agreement_text(self) -> str:
        """How far the verdicts agree with the frame's human verdicts, if it has any."""
        frame = self.frame
        if frame is None or "label_verdict" not in frame or not frame["label_verdict"].notna(
                ).any():
            return ""
        if len(frame) > AGREEMENT_MAX_ROWS:
            return ""
        from evaltools.calibration.agreement import spec_agreement

        scored = frame
        if "verdict" not in frame:
            scored = self.scorer.score_frame(frame, skip_invalid=True)
        agreement = spec_agreement(scored)
        if agreement is None:
            return ""
        return (f"<div style='font-size:90%;color:{MUTED};border-left:3px solid {CAUTION_TEXT};"
                f"padding-left:6px;margin:4px 0;'>On these records, "
                f"{escape(agreement.sentence())}. {CALIBRATION_POINTER}</div>")

    # -------------------------------------------------------------- display
    def __repr__(self) -> str:
        n = "" if self.frame is None else f"{len(self.frame)} records"
        return f"ScoreExplorer({n})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)  # stable under nbval (no model ids, no state)
        return data
