"""Render a :class:`~evaltools.report.model.Report` as one self-contained HTML page.

Rendering only: Jinja2 templates in ``templates/`` turn the model into HTML;
the CSS and the small sort/filter script are inlined from files beside them;
plots are already SVG text. The page loads nothing: a Content-Security-Policy
``default-src 'none'`` forbids every request, so it opens the same offline.
Anchors are marked with :func:`evaltools.highlight.highlight_html`, the same
function the widgets use.

Examples
--------
>>> from evaltools.report.build import report_from_records
>>> page = render_html(report_from_records(scored=[{"id": "1", "relevance": 0.5,
...     "completeness": 1.0, "hallucination": 0.0, "verdict": "PASS"}]))
>>> page.startswith("<!DOCTYPE html>") and "http://" not in page.split("<svg")[0]
True
"""

from __future__ import annotations

import math
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from markupsafe import Markup


def _fmt(value: Any, kind: str = "text") -> str:
    """A cell's display text.

    Examples
    --------
    >>> _fmt(0.12345, "float"), _fmt(0.5, "percent"), _fmt(12345, "int"), _fmt(None, "float")
    ('0.123', '50.0%', '12,345', '—')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if kind == "percent" and isinstance(value, (int, float)):
        return f"{100 * value:.1f}%"
    if kind == "float" and isinstance(value, (int, float)):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    if kind == "int" and isinstance(value, (int, float)):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    if isinstance(value, int):
        return f"{value:,}" if kind != "code" else str(value)
    return str(value)


def _sortkey(value: Any) -> str:
    """The ``data-v`` attribute a cell sorts by: numbers as numbers, else text."""
    if value is None or isinstance(value, bool):
        return "" if value is None else str(int(value))
    if isinstance(value, (int, float)):
        return repr(float(value)) if math.isfinite(value) else ""
    return str(value)


def _highlight(text: str, anchors) -> Markup:
    from evaltools.highlight import highlight_html

    return Markup(highlight_html(text or "", list(anchors or ())))


def _highlight_evidence(text: str, anchors) -> Markup:
    from evaltools.highlight import highlight_evidence_html

    return Markup(highlight_evidence_html(text or "", list(anchors or ())))


def _legend() -> Markup:
    from evaltools.highlight import legend_html

    return Markup(legend_html())


@lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment of the report templates (autoescaping on)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=PackageLoader("evaltools.report", "templates"),
        autoescape=select_autoescape(["j2", "html"], default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(fmt=_fmt, sortkey=_sortkey, highlight=_highlight,
                       highlight_evidence=_highlight_evidence)
    env.globals.update(legend=_legend)
    return env


def _asset(name: str) -> Markup:
    # CSS and JS are our own files, inlined verbatim (they hold no user data).
    source, _, _ = environment().loader.get_source(environment(), name)
    return Markup(source)


def render_html(report) -> str:
    """The whole page: one self-contained HTML document."""
    env = environment()
    return env.get_template("report.html.j2").render(
        report=report, css=_asset("report.css"), js=_asset("report.js"))


def render_fragment(report) -> str:
    """The report's sections as an HTML fragment (for a notebook cell)."""
    env = environment()
    return env.get_template("fragment.html.j2").render(
        report=report, css=_asset("report.css"), js=_asset("report.js"))


def render_section(section) -> str:
    """One section as an HTML fragment (a notebook can show sections one by one)."""
    env = environment()
    return env.get_template("section.html.j2").render(section=section, css=_asset("report.css"))


def render_block(block) -> str:
    """One block (table, figure, case, stats, text) as an HTML fragment."""
    env = environment()
    return env.get_template("block.html.j2").render(block=block, css=_asset("report.css"))


def write_text_atomic(text: str, path: str | Path) -> Path:
    """Write ``text`` to ``path`` through a temporary file in the same folder.

    The file appears complete or not at all: the text goes to a temporary file
    beside the target, is flushed to disk, then renamed over the target. On
    any error the temporary file is removed and the target is untouched.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.html"
    >>> write_text_atomic("<p>hi</p>", p).read_text()
    '<p>hi</p>'
    """
    from evaltools.io import atomic_path

    target = Path(path)
    with atomic_path(target) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    return target


def write_html(report, path: str | Path) -> Path:
    """Render ``report`` and write it to ``path`` atomically."""
    return write_text_atomic(render_html(report), path)
