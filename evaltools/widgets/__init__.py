"""Interactive widgets (ipywidgets 8) over the scorers and judge calculators.

Every widget is built here, in package code; notebooks only display them. Each
is a class whose ``.widget`` is the ipywidgets container (displaying the
object itself shows it too) and whose handler methods (``label``, ``next``,
``update``, ...) are what the buttons and sliders call, so tests drive them
without a browser. Widgets only call the core (``evaltools.scoring``,
``evaltools.judge``); they compute no score themselves.

- :class:`ScoreExplorer` — live response scores, verdict, highlighted anchors.
- :class:`JudgeForm` — the judge template as a form: live total and verdict.
- :class:`Annotator` — label cases into an append-only, fsync'ed JSONL file;
  :func:`read_labels` reads them back for calibration.
"""

from __future__ import annotations

__all__ = ["Annotator", "JudgeForm", "LabelStore", "ScoreExplorer", "read_labels"]

_WHERE = {
    "Annotator": "evaltools.widgets.annotator",
    "LabelStore": "evaltools.io.label_store",
    "read_labels": "evaltools.io.label_store",
    "ScoreExplorer": "evaltools.widgets.score_explorer",
    "JudgeForm": "evaltools.widgets.judge_form",
}


def __getattr__(name: str):
    # Lazy, so importing one widget never loads spaCy for another.
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'evaltools.widgets' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
