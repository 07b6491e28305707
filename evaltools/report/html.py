"""Render a :class:`~evaltools.report.model.Report` as one self-contained HTML page.

Rendering only: Jinja2 templates in ``templates/`` turn the model into HTML;
the CSS and the small sort/filter script are inlined from files beside them;
plots are already SVG text. The page loads nothing: a Content-Security-Policy
``default-src 'none'`` forbids every request, so it opens the same offline.

Every value from the records is HTML-escaped (Jinja2 autoescaping, attributes
included), and values that become class names are allow-listed. The policy
runs only the report's own script and style elements, named by their SHA-256
hashes (no ``'unsafe-inline'``): an injected ``<script>``, ``onerror=`` or
``javascript:`` URL would not run even if escaping failed. Style attributes
are allowed (the highlight colours and the SVG figures use them); they cannot
load anything. Forms (``form-action 'none'``), ``<base>`` (``base-uri
'none'``), frames, plugins and workers are refused; links in the page only
point within it (CSP has no directive browsers honour for link navigation).
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

import base64
import hashlib
import math
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from markupsafe import Markup

from evaltools.errors import shorten
from evaltools.highlight import (
    highlight_evidence_html,
    highlight_html,
    legend_html,
)
from evaltools.io import atomic_path
from evaltools.palette import VERDICT_COLOURS, css_variables
from evaltools.scoring.result import VERDICT_ORDER
from evaltools.text import displayable
from evaltools.values import is_finite_number


def _fmt(value: Any, kind: str = "text") -> str:
    """A cell's display text.

    Examples
    --------
    >>> _fmt(0.12345, "float"), _fmt(0.5, "percent"), _fmt(12345, "int"), _fmt(None, "float")
    ('0.123', '50.0%', '12,345', '—')
    >>> _fmt(76.798, "float"), _fmt(5.6667, "float"), _fmt(0.0004, "float"), _fmt(1234.6, "float")
    ('76.8', '5.67', '0', '1,235')
    >>> _fmt(10**400, "float")
    'a 401-digit integer'
    """
    if isinstance(value, int) and not isinstance(value, bool) and not is_finite_number(value):
        return shorten(value)  # beyond the float range: no float format can show it
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if kind == "percent" and isinstance(value, (int, float)):
        return f"{100 * value:.1f}%"
    if kind == "float" and isinstance(value, (int, float)):
        if value == int(value):
            return f"{value:,.0f}"
        # Three significant digits, at most three decimals: 0.123, 5.67, 76.8, 1,235.
        decimals = max(0, min(3, 2 - math.floor(math.log10(abs(value)))))
        return f"{value:,.{decimals}f}".rstrip("0").rstrip(".")
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
    if isinstance(value, tuple) and len(value) == 2:  # a link: (text, target)
        return str(value[0])
    if isinstance(value, (int, float)):
        return repr(float(value)) if is_finite_number(value) else ""
    return str(value)


def _highlight(text: str, anchors) -> Markup:
    return Markup(highlight_html(text or "", list(anchors or ())))


def _highlight_evidence(text: str, anchors) -> Markup:
    return Markup(highlight_evidence_html(text or "", list(anchors or ())))


def _legend() -> Markup:
    return Markup(legend_html())


#: Verdict values that become a class name (``ev-PASS``); anything else is ``ev-other``.
VERDICT_CLASSES = frozenset(VERDICT_ORDER)


def _verdict_class(value: Any) -> str:
    """The class-name part for a verdict: allow-listed, never the raw value.

    >>> _verdict_class("FAIL"), _verdict_class('"><script>'), _verdict_class(None)
    ('FAIL', 'other', 'ERROR')
    """
    if value is None or value == "":
        return "ERROR"
    return value if isinstance(value, str) and value in VERDICT_CLASSES else "other"


_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()
                                         ).decode("ascii") + "'"


def content_security_policy(scripts: list[str], styles: list[str]) -> str:
    """The page's policy: nothing loads; only these script and style elements run.

    Examples
    --------
    >>> csp = content_security_policy(["init()"], ["p{}"])
    >>> "'unsafe-inline'" in csp.split("style-src-attr")[0], "form-action 'none'" in csp
    (False, True)
    """
    script = " ".join(sorted({_sha256(t) for t in scripts})) or "'none'"
    style = " ".join(sorted({_sha256(t) for t in styles})) or "'none'"
    return ("default-src 'none'; "
            f"script-src {script}; "
            f"style-src-elem {style}; "
            "style-src-attr 'unsafe-inline'; "
            "img-src data:; font-src data:; "
            "form-action 'none'; base-uri 'none'; frame-src 'none'; object-src 'none'; "
            "worker-src 'none'; manifest-src 'none'")


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
                       highlight_evidence=_highlight_evidence, verdict_class=_verdict_class)
    env.globals.update(legend=_legend)
    return env


def _asset(name: str) -> Markup:
    # CSS and JS are our own files, inlined verbatim (they hold no user data); the CSS
    # gets its verdict colours from the one palette.
    source, _, _ = environment().loader.get_source(environment(), name)
    if name.endswith(".css"):
        c = VERDICT_COLOURS
        source = (f".ev-report {{ {css_variables()} --ev-pass: {c['PASS']}; "
                  f"--ev-warn: {c['WARN']}; --ev-fail: {c['FAIL']}; --ev-err: {c['ERROR']}; }}\n"
                  + source)
    return Markup(source)


def render_html(report) -> str:
    """The whole page: one self-contained HTML document."""
    env = environment()
    css, js = _asset("report.css"), _asset("report.js")
    svg_styles = [m for sec in report.sections for b in sec.blocks
                  if b.kind == "figure" for m in _STYLE_ELEMENT.findall(b.svg)]
    csp = content_security_policy([str(js)], [str(css), *svg_styles])
    # Markup: the policy is our own text (hashes, keywords; no quote character)
    return env.get_template("report.html.j2").render(report=report, css=css, js=js,
                                                     csp=Markup(csp))


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

    Lone surrogates (bytes that were not UTF-8, in ``--title`` or a file name) are
    written as U+FFFD. The file appears complete or not at all: the text goes to a temporary file
    beside the target, is flushed to disk, then renamed over the target. On
    any error the temporary file is removed and the target is untouched.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.html"
    >>> write_text_atomic("<p>hi</p>", p).read_text()
    '<p>hi</p>'
    """
    target = Path(path)
    with atomic_path(target) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(displayable(text))  # a title of bytes that are not UTF-8 cannot stop it
        fh.flush()
        os.fsync(fh.fileno())
    return target


def write_html(report, path: str | Path) -> Path:
    """Render ``report`` and write it to ``path`` atomically."""
    return write_text_atomic(render_html(report), path)
