"""The report's case cards: what one scored record shows (texts, scores, highlighted anchors).

The worst records are kept by :class:`~evaltools.report.stats.ReportStats`;
this module turns one into the bounded payload the case card draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltools.highlight import span_marks
from evaltools.report.cells import _as_list, _num, _offset, _verdict, clip
from evaltools.report.model import Limits
from evaltools.scoring.context import read_context
from evaltools.scoring.result import VERDICT_SCORES

SCORE_NAMES = VERDICT_SCORES


def _pieces_covered(spans: list[tuple[int, int]]) -> int:
    """How many (piece, span) pairs a highlighter marks: text cut at every boundary."""
    cuts = sorted({p for span in spans for p in span})
    total = 0
    for s, e in spans:
        total += max(sum(1 for c in cuts if s < c < e) + 1, 1)
    return total


def _within_overlap_budget(anchors: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """The anchors, minus the latest ones while nested spans mark too many pieces.

    A highlighter marks each piece of text with every anchor covering it, so
    ``n`` nested anchors cost about ``n**2`` marks. Anchors are kept in order
    while the (piece, anchor) pairs stay within ``2 * budget`` in both the
    response and the context: at most ``budget`` anchors, each marking a
    couple of pieces, bounds the size of a case whatever the overlap.

    Examples
    --------
    >>> nested = [{"start": k, "end": 100 - k} for k in range(10)]
    >>> len(_within_overlap_budget(nested, 10))
    4
    >>> flat = [{"start": 10 * k, "end": 10 * k + 5} for k in range(10)]
    >>> len(_within_overlap_budget(flat, 10))
    10
    """
    kept: list[dict[str, Any]] = []
    # Unsupported anchors first (they explain a verdict), then in text order.
    order = sorted(range(len(anchors)), key=lambda i: (bool(anchors[i].get("supported")), i))
    for a in (anchors[i] for i in order):
        trial = [*kept, a]
        ok = True
        for sk, ek in (("start", "end"), ("evidence_start", "evidence_end")):
            spans = [(x[sk], x[ek]) for x in trial
                     if isinstance(x.get(sk), int) and isinstance(x.get(ek), int)]
            if _pieces_covered(spans) > 2 * budget:
                ok = False
        if ok:
            kept.append(a)
    position = {id(a): i for i, a in enumerate(anchors)}
    return sorted(kept, key=lambda a: position[id(a)])


def case_payload(rec: Mapping[str, Any], rid: str, source: str, line: int,
                 limits: Limits) -> dict[str, Any]:
    """One worst case as the report's case card shows it: texts, scores and anchors,
    each cut to ``limits`` (the anchors also within the highlighter's budget)."""
    lim = limits
    response = rec.get("response") if isinstance(rec.get("response"), str) else ""
    context = rec.get("context") if isinstance(rec.get("context"), str) else ""
    context = read_context(context).text  # evidence offsets index the read context
    query = rec.get("query") if isinstance(rec.get("query"), str) else ""
    r_keep, c_keep = response[: lim.text_chars], context[: lim.text_chars]
    anchors = []
    dropped = 0
    for a in _as_list(rec.get("anchors")):
        if not isinstance(a, Mapping):
            continue
        a = dict(a)
        s, e = _offset(a.get("start")), _offset(a.get("end"))
        if not (s is not None and e is not None and s <= e <= len(r_keep)):
            if s is not None and s < len(response):
                dropped += 1  # inside the part of the response that was cut
                continue
            a["start"] = a["end"] = None
        es, ee = _offset(a.get("evidence_start")), _offset(a.get("evidence_end"))
        if not (es is not None and ee is not None and es <= ee <= len(c_keep)):
            a["evidence_start"] = a["evidence_end"] = None
        for k in ("text", "evidence", "note"):
            if a.get(k) is not None:
                a[k] = clip(a[k], lim.anchor_chars)
        anchors.append(a)
    for a in span_marks(_as_list(rec.get("unsupported_spans"))):
        s, e = _offset(a.get("start")), _offset(a.get("end"))
        if s is None or e is None or not s < e <= len(r_keep) or not isinstance(
                a.get("text"), str):
            continue  # a span outside the part shown (or malformed) is not drawn
        a["text"], a["note"] = clip(a["text"], lim.anchor_chars), clip(a["note"],
                                                                       lim.anchor_chars)
        anchors.append(a)
    kept = _within_overlap_budget(anchors[: lim.anchors_per_case], lim.anchors_per_case)
    extra = len(anchors) - len(kept)
    anchors = kept
    fields = tuple((n, _num(rec.get(n))) for n in (*SCORE_NAMES, "claims_score",
                                                    "drift_penalty", "ngram_overlap"))
    if _num(rec.get("support")) is not None:
        fields += (("support", _num(rec.get("support"))),)
    n_unsup, n_total = (_num(rec.get(k)) for k in ("anchors_unsupported", "anchors_total"))
    fields += (("anchors", f"{n_unsup or 0:g} unsupported of {n_total or 0:g}"),)
    missing = _as_list(rec.get("missing_keywords"))
    if missing:
        fields += (("missing keywords", clip(", ".join(map(str, missing)), lim.cell_chars)),)
    reasons = _as_list(rec.get("reasons"))
    return {
        "id": rid, "source": source, "line": line, "verdict": _verdict(rec.get("verdict")),
        "reasons": tuple(clip(r, lim.cell_chars) for r in reasons),
        "fields": fields, "query": clip(query, lim.text_chars),
        "response": r_keep, "context": c_keep, "anchors": tuple(anchors),
        "response_cut": len(response) - len(r_keep), "context_cut": len(context) - len(c_keep),
        "anchors_cut": extra + dropped,
        "relevance": _num(rec.get("relevance")), "completeness": _num(rec.get("completeness")),
        "hallucination": _num(rec.get("hallucination")),
    }
