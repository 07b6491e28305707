"""Anchors highlighted in HTML: supported and unsupported in different colours.

Presentation only: it reads anchors (from :class:`evaltools.scoring` results,
as objects or as their ``to_dict()`` dicts) and never scores anything. Every
piece of text is HTML-escaped. Each highlighted stretch is a ``<mark>`` with
the CSS classes ``evaltools-anchor``, ``evaltools-supported`` or
``evaltools-unsupported`` and ``evaltools-kind-<kind>``, an inline colour (so
it shows without a stylesheet: in a notebook, an exported report, a widget),
and a ``title`` attribute (the tooltip) naming the kind, the verdict on it and
the evidence found in the context.

Text between two ``$`` signs must not become maths: JupyterLab typesets
HTML outputs with MathJax, so "regular $35.00, now at $28.00" would lose its
prices. :func:`escape` writes every ``$`` as ``&#36;``, and every fragment
here sits in a container of class :data:`NO_MATHS` (``mathjax_ignore`` for
MathJax 3, ``tex2jax_ignore`` for MathJax 2), which MathJax skips.

Unsupported spans (grounding, the ``unsupported_spans`` output field) are
shown the same way, as unsupported marks of kind ``span``
(:func:`span_marks`); their tooltip gives the span's weight and the closest
context sentence.

Anchors may overlap (a claim that contains a number): the text is cut at every
anchor boundary, and each piece is marked by the anchors that cover it. The
innermost (shortest) covering anchor decides a piece's colour — a supported
price inside an unsupported claim shows green, the rest of the claim red —
and the tooltip lists every covering anchor.

Examples
--------
>>> anchors = [{"kind": "number", "text": "$44.95", "start": 10, "end": 16,
...             "supported": True, "evidence": "$44.95"},
...            {"kind": "date", "text": "2019", "start": 29, "end": 33,
...             "supported": False, "evidence": None}]
>>> html = highlight_html("It costs $44.95, released in 2019 <b>.", anchors)
>>> "evaltools-supported" in html and "evaltools-unsupported" in html
True
>>> "&lt;b&gt;" in html and "<b>" not in html
True
"""

from __future__ import annotations

import html as _html
import itertools
from collections.abc import Iterable, Mapping
from typing import Any

from evaltools.errors import shorten
from evaltools.palette import (
    BAD,
    EVIDENCE_BG,
    EVIDENCE_LINE,
    GOOD,
    MUTED,
    RULE,
    SUPPORTED_BG,
    UNSUPPORTED_BG,
    VERDICT_COLOURS,
)
from evaltools.scoring.context import read_context

#: The classes MathJax 2 and 3 skip: no ``$...$`` inside them is typeset.
NO_MATHS = "tex2jax_ignore mathjax_ignore"


def escape(text: Any, *, quote: bool = True) -> str:
    """``text`` HTML-escaped, with ``$`` written as ``&#36;`` (never read as maths).

    Examples
    --------
    >>> escape("regular $35.00, now <b>$28.00</b>")
    'regular &#36;35.00, now &lt;b&gt;&#36;28.00&lt;/b&gt;'
    """
    return _html.escape(str(text), quote=quote).replace("$", "&#36;")


#: Inline styles, so the colours show with no stylesheet loaded.
COLOURS = {
    "supported": f"background-color:{SUPPORTED_BG};border-bottom:2px solid {GOOD};",
    "unsupported": f"background-color:{UNSUPPORTED_BG};border-bottom:2px solid {BAD};",
    "evidence": f"background-color:{EVIDENCE_BG};border-bottom:2px solid {EVIDENCE_LINE};",
}

#: Anchor kinds (and ``span``, an unsupported span) that become a CSS class
#: ``evaltools-kind-<kind>``; any other
#: value (a scored file may hold anything) becomes ``evaltools-kind-other``.
KINDS = frozenset({"number", "date", "claim", "anchor", "span"})

_WRAP = (f'<div class="evaltools-highlight {NO_MATHS}" '
         'style="white-space:pre-wrap;line-height:1.7;font-family:inherit;">{}</div>')


def _get(anchor: Any, key: str, default: Any = None) -> Any:
    if isinstance(anchor, Mapping):
        return anchor.get(key, default)
    return getattr(anchor, key, default)


def _span(anchor: Any, length: int, *, start_key: str, end_key: str,
          what: str) -> tuple[int, int] | None:
    start, end = _get(anchor, start_key), _get(anchor, end_key)
    if start is None or end is None:
        return None
    if (isinstance(start, bool) or isinstance(end, bool)
            or not isinstance(start, int) or not isinstance(end, int)):
        raise ValueError(f"anchor {shorten(_get(anchor, 'text'))}: {start_key}/{end_key} must be "
                         f"integers. Got {shorten(start)}, {shorten(end)} instead.")
    if not 0 <= start <= end <= length:
        raise ValueError(f"anchor {shorten(_get(anchor, 'text'))}: {start_key}={start}, "
                         f"{end_key}={end} lie outside the {what} (length {length}).")
    return start, end


def kind_class(kind: Any) -> str:
    """The class-name part for an anchor kind: the kind if known, else ``other``.

    Values reaching a ``class`` attribute are allow-listed, not just escaped.

    >>> kind_class("date"), kind_class('x" autofocus onfocus="alert(1)'), kind_class(None)
    ('date', 'other', 'anchor')
    """
    if kind is None or kind == "":
        return "anchor"
    return kind if isinstance(kind, str) and kind in KINDS else "other"


def _title(anchor: Any) -> str:
    kind = _get(anchor, "kind") or "anchor"
    if _get(anchor, "supported"):
        head = f"{kind}: supported"
        evidence = _get(anchor, "evidence")
        body = f" — evidence: “{evidence}”" if evidence else ""
    else:
        head = f"{kind}: unsupported"
        body = " — no evidence found in the context"
    note = _get(anchor, "note")
    return head + body + (f" ({note})" if note else "")


def _render(text: str, marks: list[tuple[int, int, Any]], style_of, class_of, title_of) -> str:
    cuts = sorted({0, len(text), *(s for s, _, _ in marks), *(e for _, e, _ in marks)})
    out: list[str] = []
    for a, b in itertools.pairwise(cuts):
        piece = escape(text[a:b])
        covering = [m for s, e, m in marks if s <= a and b <= e]
        if not covering:
            out.append(piece)
            continue
        classes, style = class_of(covering), style_of(covering)
        title = _html.escape("\n".join(title_of(m) for m in covering), quote=True)
        out.append(f'<mark class="{classes}" style="{style}padding:0 1px;color:inherit;" '
                   f'title="{title}">{piece}</mark>')
    return _WRAP.format("".join(out))


def span_marks(spans: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Unsupported spans (dicts or :class:`~evaltools.scoring.result.UnsupportedSpan`) as
    anchor-like dicts of kind ``span``, for :func:`highlight_html` and anchor tables.

    Examples
    --------
    >>> span_marks([{"text": "matcha", "start": 4, "end": 10, "weight": 0.9,
    ...              "closest": "It serves espresso."}])[0]["note"]
    'weight 0.90; closest context sentence: “It serves espresso.”'
    """
    out = []
    for span in spans or ():
        weight, closest = _get(span, "weight"), _get(span, "closest")
        note = [f"weight {weight:.2f}"] if isinstance(weight, (int, float)) else []
        if closest:
            note.append(f"closest context sentence: “{closest}”")
        out.append({"kind": "span", "text": _get(span, "text"), "start": _get(span, "start"),
                    "end": _get(span, "end"), "supported": False, "evidence": None,
                    "note": "; ".join(note)})
    return out


def highlight_html(text: str, anchors: Iterable[Any], spans: Iterable[Any] = ()) -> str:
    """HTML of ``text`` with its anchors (and unsupported spans) marked.

    Parameters
    ----------
    text : str
        The response the anchors were found in.
    anchors : iterable of dict or Anchor
        Each with ``kind``, ``start``, ``end`` (character offsets in ``text``),
        ``supported``, and optionally ``evidence`` and ``note``. Anchors with
        no offsets (``None``) are skipped; offsets outside ``text`` raise.
    spans : iterable of dict or UnsupportedSpan
        The response's ``unsupported_spans``, marked as unsupported (kind ``span``).

    Returns
    -------
    str
        A ``<div>`` fragment; all text escaped, colours inline, evidence in
        each mark's ``title`` (tooltip).

    Raises
    ------
    ValueError
        If an anchor's offsets are not integers within ``text``.

    Examples
    --------
    >>> a = {"kind": "claim", "text": "Acme makes jars", "start": 0, "end": 15,
    ...      "supported": False, "evidence": None}
    >>> html = highlight_html("Acme makes jars.", [a])
    >>> html[html.index("<mark"):]  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
    '<mark class="evaltools-anchor evaltools-unsupported evaltools-kind-claim"
    style="background-color:...;border-bottom:2px solid ...;padding:0 1px;color:inherit;"
    title="claim: unsupported — no evidence found in the context">Acme makes jars</mark>.</div>'
    >>> "<mark" in highlight_html("", [])
    False
    """
    text = text or ""
    marks = []
    for anchor in [*(anchors or ()), *span_marks(spans)]:
        span = _span(anchor, len(text), start_key="start", end_key="end", what="text")
        if span is not None and span[0] < span[1]:
            marks.append((span[0], span[1], anchor))

    def unsupported(cover):
        innermost = min(cover, key=lambda m: (_get(m, "end") - _get(m, "start"),
                                              bool(_get(m, "supported"))))
        return not _get(innermost, "supported")

    def class_of(cover):
        status = "evaltools-unsupported" if unsupported(cover) else "evaltools-supported"
        kinds = sorted({f"evaltools-kind-{kind_class(_get(m, 'kind'))}" for m in cover})
        return " ".join(["evaltools-anchor", status, *kinds])

    def style_of(cover):
        return COLOURS["unsupported"] if unsupported(cover) else COLOURS["supported"]

    return _render(text, marks, style_of, class_of, _title)


def highlight_evidence_html(context: str, anchors: Iterable[Any], *,
                            read_json: bool = True) -> str:
    """HTML of ``context`` with the evidence of supported anchors marked.

    Uses each anchor's ``evidence_start`` / ``evidence_end``: offsets in the
    context as the scorers read it (:func:`evaltools.scoring.context.read_context`:
    the context itself, or a JSON record's key/value text, which is then what
    is shown); anchors without them (unsupported ones) are skipped.

    Parameters
    ----------
    context : str
        The context the evidence was found in, as given.
    anchors : iterable of dict or Anchor
    read_json : bool
        As config ``context.read_json`` was when the anchors were scored.

    Returns
    -------
    str
        A ``<div>`` fragment with marks of class ``evaltools-evidence``; the
        tooltip names the response text each piece of evidence supports.

    Examples
    --------
    >>> a = {"kind": "number", "text": "$44.95", "start": 9, "end": 15, "supported": True,
    ...      "evidence": "$44.95", "evidence_start": 14, "evidence_end": 20}
    >>> html = highlight_evidence_html("The jar costs $44.95.", [a])
    >>> html.count("evaltools-evidence")
    1
    """
    context = read_context(context or "", read_json=read_json).text
    marks = []
    for anchor in anchors or ():
        span = _span(anchor, len(context), start_key="evidence_start",
                     end_key="evidence_end", what="context")
        if span is not None and span[0] < span[1]:
            marks.append((span[0], span[1], anchor))
    return _render(
        context, marks,
        style_of=lambda cover: COLOURS["evidence"],
        class_of=lambda cover: "evaltools-evidence",
        title_of=lambda m: f"supports {_get(m, 'kind') or 'anchor'} “{_get(m, 'text')}”",
    )


_CASE_CSS = (f"border:1px solid {RULE};border-radius:6px;padding:8px 12px;margin:8px 0;"
             "font-family:inherit;")


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}"
    return "–" if v is None else str(v)


def case_html(record: Mapping[str, Any], *,
              scores: tuple[str, ...] = ("relevance", "completeness", "hallucination",
                                         "claims_score", "ngram_overlap", "support"),
              labels: tuple[str, ...] = ("label_hallucinated", "label_relevant",
                                         "label_verdict"),
              header: bool = True) -> str:
    """One scored record as an HTML card: verdict, scores, query, the response
    with its anchors and unsupported spans highlighted, and the context with
    the evidence marked.

    Parameters
    ----------
    record : mapping
        A scored record (input fields plus the score output), e.g. a row of
        :func:`evaltools.score_frame` as a dict.
    scores : tuple of str
        Score fields to show, when present.
    labels : tuple of str
        Human label fields to show, when present.
    header : bool
        Show the id, verdict, reasons and scores (False when the page shows
        them already, as the ScoreExplorer does).

    Returns
    -------
    str
        A ``<div class="evaltools-case">`` fragment; all text escaped.

    Examples
    --------
    >>> rec = {"id": "r1", "query": "Price?", "context": "It costs $5.",
    ...        "response": "It costs $7.", "verdict": "FAIL", "hallucination": 1.0,
    ...        "reasons": ["hallucination 1.00 > 0.5"],
    ...        "anchors": [{"kind": "number", "text": "$7", "start": 9, "end": 11,
    ...                     "supported": False, "evidence": None}]}
    >>> html = case_html(rec)
    >>> "evaltools-unsupported" in html and "FAIL" in html and "1.00" in html
    True
    """
    esc = escape
    anchors = record.get("anchors") or []
    if not isinstance(anchors, (list, tuple)):
        anchors = []
    spans = record.get("unsupported_spans") or []
    if not isinstance(spans, (list, tuple)):
        spans = []
    verdict = record.get("verdict")
    colour = VERDICT_COLOURS.get(verdict, MUTED)
    shown = [f"{esc(k)} <b>{esc(_fmt(record[k]))}</b>" for k in scores if k in record]
    human = [f"{esc(k)} <b>{esc(_fmt(record[k]))}</b>" for k in labels
             if k in record and record[k] is not None]
    reasons = record.get("reasons") or []
    if isinstance(reasons, str):
        reasons = [reasons]
    parts = [f'<div class="evaltools-case {NO_MATHS}" style="{_CASE_CSS}">']
    if header:
        parts += [
            f'<div><b>{esc(_fmt(record.get("id")))}</b> · '
            f'<span style="color:{colour};font-weight:bold;">{esc(_fmt(verdict))}</span>'
            + (f" — {esc('; '.join(map(str, reasons)))}" if reasons else "") + "</div>",
            f'<div style="font-size:90%;">{" · ".join(shown)}</div>',
        ]
    else:
        parts.append(f'<div style="font-size:90%;color:{MUTED};">record '
                     f'<b>{esc(_fmt(record.get("id")))}</b></div>')
    if human:
        parts.append(f'<div style="font-size:90%;">human: {" · ".join(human)}</div>')
    parts += [
        f'<div style="margin-top:6px;"><i>query</i>: {esc(str(record.get("query") or ""))}</div>',
        '<div style="margin-top:6px;"><i>response</i>:</div>',
        highlight_html(str(record.get("response") or ""), anchors, spans),
        '<div style="margin-top:6px;"><i>context</i> (evidence marked):</div>',
        highlight_evidence_html(str(record.get("context") or ""), anchors),
        "</div>",
    ]
    return "".join(parts)


def legend_html() -> str:
    """A one-line legend of the highlight colours.

    Examples
    --------
    >>> "unsupported" in legend_html()
    True
    """
    items = [("supported", "supported: found in the context"),
             ("unsupported", "unsupported: not found in the context"),
             ("evidence", "evidence in the context")]
    return f'<span class="{NO_MATHS}">' + " ".join(
        f'<mark style="{COLOURS[k]}padding:0 3px;color:inherit;">{escape(v)}</mark>'
        for k, v in items) + "</span>"
