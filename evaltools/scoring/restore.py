"""Scored records restored from files, or scored when they are not yet.

- :func:`score_labelled` — a DataFrame of scored records: already-scored
  records (the output of ``evaltools score``) restored from CSV text, others
  scored with :func:`evaltools.score_frame`.
"""

from __future__ import annotations

from evaltools.config import DEFAULT_CONFIG
from evaltools.errors import InputError, shorten
from evaltools.io.records import loads_bounded
from evaltools.scoring.result import COUNT_FIELDS, LIST_FIELDS, SCORE_FIELDS

#: A record that has these fields is scored already (they are what calibration reads).
_SCORED_MARKERS = ("claims_score", "ngram_overlap", "anchors_total", "anchors", "hallucination")
_NUMERIC_FIELDS = (*SCORE_FIELDS, *COUNT_FIELDS, "hallucination_probability")


def is_scored(fields) -> bool:
    """True when a record's fields (or a frame's columns) show it is scored already.

    >>> is_scored({"claims_score": 0, "ngram_overlap": 1, "anchors_total": 0, "anchors": [],
    ...            "hallucination": 0.0}), is_scored(["query", "response"])
    (True, False)
    """
    return all(f in fields for f in _SCORED_MARKERS)


def score_labelled(records, *, config=None, nlp=None):
    """Scored records as a DataFrame: input columns, then every score column.

    Records that already carry the score fields (the output of ``evaltools
    score``) are kept, with CSV text turned back into numbers, lists and a
    null ``error``; others are scored with :func:`evaltools.score_frame`.

    Parameters
    ----------
    records : list of dict or DataFrame
        E.g. from :func:`read_labelled` or a loader.
    config : evaltools.config.Config, optional
    nlp : spacy.Language, optional

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> df = score_labelled([{"id": "a", "claims_score": "0.5", "ngram_overlap": "0.2",
    ...     "anchors_total": "1", "hallucination": "0.5", "error": "",
    ...     "anchors": '[{"kind": "date", "supported": false}]'}])
    >>> df.loc[0, "claims_score"], df.loc[0, "anchors"], df.loc[0, "error"] is None
    (np.float64(0.5), [{'kind': 'date', 'supported': False}], True)
    """
    import pandas as pd

    frame = records if isinstance(records, pd.DataFrame) else pd.DataFrame(list(records))
    if len(frame) and is_scored(frame.columns):
        # Scored already; from CSV every cell is text: numbers and lists come back.
        frame = frame.copy()
        for col in _NUMERIC_FIELDS:
            if col in frame.columns and frame[col].map(lambda v: isinstance(v, str)).any():
                frame[col] = pd.to_numeric(frame[col].replace("", None), errors="coerce")
        for col in LIST_FIELDS:
            if col in frame.columns:
                frame[col] = frame[col].map(
                    lambda v, col=col: _json_list(v, col) if isinstance(v, str) else v)
        if "error" in frame.columns:
            frame["error"] = frame["error"].map(lambda v: None if v == "" else v)
        return frame
    from evaltools.scoring.scorer import score_frame

    return score_frame(frame, config=config, nlp=nlp)


def _json_list(text: str, column: str):
    """A CSV cell's JSON text (a list), or an InputError naming the column."""
    if not text.strip():
        return []
    try:
        return loads_bounded(text, DEFAULT_CONFIG.input.max_depth)
    except ValueError as exc:
        raise InputError(f"field '{column}' is not valid JSON text "
                         f"({shorten(str(exc), 120, quote=False)})", field=column) from None
