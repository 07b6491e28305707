"""Scored records restored from files, or scored when they are not yet.

- :func:`score_labelled` — a DataFrame of scored records: already-scored
  records (the output of ``evaltools score``) restored from CSV text, others
  scored with :func:`evaltools.score_frame`.
"""

from __future__ import annotations

from evaltools.io.cells import restore_cells
from evaltools.schema import NUMBER_KINDS
from evaltools.scoring.result import SCORED_OUTPUT_SCHEMA, has_calibration_inputs

#: The cells of a scored file read back (:func:`evaltools.io.cells.restore_cells`).
_CELLS = {"numbers": SCORED_OUTPUT_SCHEMA.of_kind(*NUMBER_KINDS),
          "json_fields": SCORED_OUTPUT_SCHEMA.of_kind("json"),
          "text": SCORED_OUTPUT_SCHEMA.of_kind("text")}


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
    if len(frame) and has_calibration_inputs(frame.columns):
        # Scored already; from CSV every cell is text: numbers and lists come back.
        restorable = [c for fields in _CELLS.values() for c in fields if c in frame.columns]
        if not any(frame[c].map(lambda v: isinstance(v, str)).any() for c in restorable):
            return frame.copy()
        rows = [restore_cells(rec, **_CELLS, line=i, empty_json=[])
                for i, rec in enumerate(frame.to_dict("records"), start=1)]
        return pd.DataFrame(rows, columns=frame.columns, index=frame.index)
    from evaltools.scoring.scorer import score_frame

    return score_frame(frame, config=config, nlp=nlp)
