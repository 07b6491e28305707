"""Annotator: label cases of a table one by one, never losing a label.

Each click on a label button appends the label to a JSON Lines file (written,
flushed and fsync'ed before the click handler returns; see
:mod:`evaltools.io.label_store`) and moves to the next case. Opening the same
file again resumes at the first case that has neither a label nor a skip.

Examples
--------
>>> import tempfile, pathlib
>>> import pandas as pd
>>> df = pd.DataFrame({"id": ["a", "b", "c"], "query": ["q1", "q2", "q3"],
...                    "response": ["r1", "r2", "r3"]})
>>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.jsonl"
>>> ann = Annotator(df, path, labels=("PASS", "WARN", "FAIL"))
>>> ann.current_id
'a'
>>> ann.label("FAIL")          # saved now, moves on
>>> ann.current_id
'b'
>>> ann.skip()
>>> Annotator(df, path, labels=("PASS", "WARN", "FAIL")).current_id   # resumes
'c'
>>> read_labels(path)[["id", "label_verdict"]]
  id label_verdict
0  a          FAIL
"""

from __future__ import annotations

import os
import weakref
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from evaltools.arguments import check_one_of, check_value, parameter_message
from evaltools.highlight import NO_MATHS, escape
from evaltools.io.label_store import LabelStore, iter_label_events, read_labels
from evaltools.palette import RULE

__all__ = ["DEFAULT_LABELS", "Annotator", "read_labels"]

DEFAULT_LABELS: dict[str, str] = {"PASS": "PASS", "WARN": "WARN", "FAIL": "FAIL"}

#: The live Annotator of each (labels file, field) in this process.
_OPEN: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
"""Default buttons: a verdict label per case, stored in ``label_verdict``."""

_DEFAULT_FIELDS = ("query", "context", "response", "module", "output", "expected")


def _case_ids(frame: Any) -> list[str]:
    if "id" in frame.columns:
        return [str(v) for v in frame["id"].tolist()]
    # DESIGN: without an id, the 1-based record number is the id.
    return [str(i) for i in range(1, len(frame) + 1)]


class Annotator:
    """Step through a DataFrame and label each case with a button click.

    Parameters
    ----------
    frame : pandas.DataFrame
        The cases, one per row. ``id`` is used when present, else the 1-based
        row number.
    path : str or Path
        The append-only labels file (JSONL). Existing labels are loaded and
        the annotator resumes at the first case not yet labelled or skipped.
    labels : sequence of str or mapping of str to value
        The buttons. A sequence stores the button text; a mapping
        ``{"hallucinated": 1, "faithful": 0}`` stores the mapped value.
    field : str
        The label column filled (``label_verdict``, ``label_hallucinated``,
        ``label_relevant``, ...), as calibration expects.
    fields : sequence of str, optional
        Columns shown for each case (default: those of ``query, context,
        response, module, output, expected`` that exist, else all columns).
    labeler : str
        Stored with every label.
    clock : callable, optional
        Timestamp source for the stored labels (tests).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole form; a notebook displays the Annotator itself or this.
    label_buttons : dict of str to ipywidgets.Button
    note : ipywidgets.Textarea
    prev_button, next_button, skip_button : ipywidgets.Button
    case_html, header, status : ipywidgets.HTML
    progress : ipywidgets.IntProgress
    """

    def __init__(self, frame: Any, path: str | Path, *,
                 labels: Sequence[str] | Mapping[str, Any] = DEFAULT_LABELS,
                 field: str = "label_verdict", fields: Sequence[str] | None = None,
                 labeler: str = "", clock: Any = None):
        if isinstance(labels, Mapping):
            self.label_values = dict(labels)
        else:
            self.label_values = {str(lab): str(lab) for lab in labels}
        check_value(labels, "labels", "Annotator", bool(self.label_values),
                    "at least one label")
        self.frame = frame.reset_index(drop=True)
        self.ids = _case_ids(self.frame)
        dupes = sorted(i for i, n in Counter(self.ids).items() if n > 1)
        if dupes:
            raise ValueError(parameter_message("frame", "Annotator",
                                               "a frame with unique ids (labels are saved by id)",
                                               f"repeated ids {dupes[:5]}"))
        self.field = field
        if fields is None:
            shown = [c for c in _DEFAULT_FIELDS if c in self.frame.columns]
            fields = shown or [c for c in self.frame.columns if c != "id"]
        self.fields = list(fields)
        self.store = LabelStore(path, labeler=labeler, clock=clock)
        self._retired = False

        # State from the file: last label (or skip) per id for this field.
        self.saved: dict[str, dict[str, Any]] = {}
        self.skipped: set[str] = set()
        for ev in iter_label_events(self.store.path):
            if ev.get("field") != field:
                continue
            self._remember(ev)

        self._build()
        self.position = 0
        self.go_to(self._first_open(0))
        # One live Annotator per labels file in a process: a newer one (a re-run
        # cell, a second widget) takes over; the older one stops saving, so two
        # widgets never label the same file from stale state.
        key = (os.path.realpath(self.store.path), field)
        older = _OPEN.get(key)
        if older is not None and older is not self:
            older._retire()
        _OPEN[key] = self

    def _retire(self) -> None:
        self._retired = True
        for b in [*self.label_buttons.values(), self.skip_button]:
            b.disabled = True
        self._say("Closed: a newer Annotator opened the same labels file in this kernel; "
                  "label there (every label saved here is in the file).")

    def _check_open(self) -> None:
        if self._retired:
            raise RuntimeError(f"This Annotator was closed: a newer one opened "
                               f"{self.store.path.name} in this process. Label with that one.")

    # ----------------------------------------------------------------- state
    def _remember(self, ev: dict[str, Any]) -> None:
        cid = str(ev["id"])
        if ev.get("action") == "skip":
            self.skipped.add(cid)
        else:
            self.saved[cid] = ev
            self.skipped.discard(cid)

    def _first_open(self, start: int) -> int:
        """Position of the first case at or after ``start`` with no label and no skip."""
        n = len(self.ids)
        for pos in range(start, n):
            cid = self.ids[pos]
            if cid not in self.saved and cid not in self.skipped:
                return pos
        return n  # past the end: "all done"

    @property
    def done(self) -> bool:
        """True when the position is past the last case."""
        return self.position >= len(self.ids)

    @property
    def current_id(self) -> str | None:
        """The id of the case shown (None when all are done)."""
        return None if self.done else self.ids[self.position]

    @property
    def n_labelled(self) -> int:
        """How many cases of the table have a saved label."""
        return sum(1 for cid in self.ids if cid in self.saved)

    def current_label(self) -> str | None:
        """The saved label (button text) of the case shown, if any."""
        ev = self.saved.get(self.current_id) if not self.done else None
        return None if ev is None else ev.get("label")

    # -------------------------------------------------------------- handlers
    def label(self, label: str, note: str | None = None) -> None:
        """Save ``label`` for the current case (durably, now) and move on.

        ``note`` defaults to the note box's text. Visiting a labelled case
        puts its saved note back in the box.
        """
        self._check_open()
        check_one_of(label, "label", "Annotator.label", self.label_values)
        if self.done:
            self._say("All cases are done; nothing to label. Use Previous to go back.")
            return
        cid = self.current_id
        text = self.note.value if note is None else note
        try:
            ev = self.store.append(cid, self.field, label, value=self.label_values[label],
                                   note=text, position=self.position)
        except (OSError, ValueError) as exc:  # a full disk, a note too long: say so, keep it
            why = getattr(exc, "strerror", None) or str(exc)
            self._say(f"<b>Not saved</b> ({escape(why[:300])}): "
                      f"case {escape(cid)} keeps no label.")
            raise
        self._remember(ev)
        self._say(f"Saved {escape(label)!s} for case {escape(cid)}.")
        self.go_to(self.position + 1, keep_status=True)

    def skip(self) -> None:
        """Record that the current case is left unlabeled, and move on."""
        self._check_open()
        if self.done:
            return
        cid = self.current_id
        if cid not in self.saved:
            ev = self.store.append(cid, self.field, "", action="skip", position=self.position)
            self._remember(ev)
            self._say(f"Skipped case {escape(cid)}.")
        self.go_to(self.position + 1, keep_status=True)

    def next(self) -> None:
        """Show the next case (no label saved)."""
        self.go_to(self.position + 1)

    def previous(self) -> None:
        """Show the previous case (its saved label can be changed)."""
        self.go_to(self.position - 1)

    def next_open(self) -> None:
        """Jump to the next case with neither a label nor a skip."""
        self.go_to(self._first_open(self.position + 1 if not self.done else 0))

    def go_to(self, position: int, *, keep_status: bool = False) -> None:
        """Show the case at ``position`` (clamped to ``0..len(frame)``)."""
        self.position = max(0, min(int(position), len(self.ids)))
        saved = self.saved.get(self.current_id) if not self.done else None
        self.note.value = (saved or {}).get("note") or ""   # a saved note comes back
        if not keep_status:
            self._say("")
        self._render()

    # ------------------------------------------------------------------- UI
    def _build(self) -> None:
        self.header = W.HTML()
        self.progress = W.IntProgress(min=0, max=max(len(self.ids), 1), value=0,
                                      description="0 labelled",
                                      style={"description_width": "initial"},
                                      layout=W.Layout(width="360px"))
        self.case_html = W.HTML(layout=W.Layout(width="auto"))
        self.label_buttons: dict[str, W.Button] = {}
        for lab in self.label_values:
            b = W.Button(description=lab, tooltip=f"Save '{lab}' and go to the next case",
                         layout=W.Layout(width="auto"))
            b.on_click(lambda _b, lab=lab: self.label(lab))
            self.label_buttons[lab] = b
        self.note = W.Textarea(placeholder="Optional note, saved with the label",
                               layout=W.Layout(width="auto", height="48px"))
        self.prev_button = W.Button(description="Previous", icon="arrow-left")
        self.next_button = W.Button(description="Next", icon="arrow-right")
        self.skip_button = W.Button(description="Skip", tooltip="Leave unlabeled; not "
                                    "offered again on resume")
        self.prev_button.on_click(lambda _b: self.previous())
        self.next_button.on_click(lambda _b: self.next())
        self.skip_button.on_click(lambda _b: self.skip())
        self.status = W.HTML()
        self.widget = W.VBox([
            W.HBox([self.header, self.progress]),
            self.case_html,
            W.HBox(list(self.label_buttons.values())),
            self.note,
            W.HBox([self.prev_button, self.skip_button, self.next_button]),
            self.status,
        ])
        self.widget.add_class("evaltools-annotator")
        for cls in NO_MATHS.split():
            self.widget.add_class(cls)

    def _say(self, text: str) -> None:
        self.status.value = f"<span class='evaltools-status'>{text}</span>" if text else ""

    def _render(self) -> None:
        n = len(self.ids)
        self.progress.value = self.n_labelled
        self.progress.description = f"{self.n_labelled}/{n} labelled"
        self.prev_button.disabled = self.position == 0
        self.next_button.disabled = self.done
        self.skip_button.disabled = self.done
        for b in self.label_buttons.values():
            b.disabled = self.done
        if self.done:
            self.header.value = (f"<b>All {n} cases seen</b> · {self.n_labelled} labelled")
            self.case_html.value = ("<i>Nothing left to label. Labels are in the file; "
                                    "read them with <code>read_labels(path)</code>.</i>")
            for b in self.label_buttons.values():
                b.button_style = ""
            return
        cid = self.current_id
        current = self.current_label()
        state = (f"labelled <b>{escape(current)}</b>" if current is not None
                 else "skipped" if cid in self.skipped else "not labelled")
        self.header.value = (f"<b>Case {self.position + 1} of {n}</b> · id "
                             f"<code>{escape(cid)}</code> · {state}")
        for lab, b in self.label_buttons.items():
            b.button_style = "info" if lab == current else ""
        row = self.frame.iloc[self.position]
        parts = []
        for col in self.fields:
            value = row[col] if col in row.index else None
            parts.append(
                f"<div><b>{escape(str(col))}</b>"
                f"<div style='white-space:pre-wrap;border-left:3px solid {RULE};"
                f"padding-left:6px;margin-bottom:6px'>{escape(_text(value))}</div></div>")
        self.case_html.value = "".join(parts)

    # -------------------------------------------------------------- display
    def labels_frame(self) -> Any:
        """The labels saved so far in this file (all fields), as :func:`read_labels` gives."""
        return read_labels(self.store.path)

    def __repr__(self) -> str:
        return (f"Annotator({len(self.ids)} cases, field={self.field!r}, "
                f"labels={list(self.label_values)})")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)  # stable under nbval (no model ids, no state)
        return data


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value != value:
        return ""
    if isinstance(value, (list, tuple, dict)):
        import json

        return json.dumps(value, ensure_ascii=False)
    return str(value)
