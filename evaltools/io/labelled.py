"""Labelled files: records with a human (or constructed) hallucination label.

- :func:`read_labelled` — any record file with a hallucination label, the
  label normalised to ``label_hallucinated``.
- :func:`group_keys` — the cross-validation group of each record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from evaltools.errors import InputError
from evaltools.io.records import read_records, row_unit
from evaltools.values import binary_label

# ------------------------------------------------------------------ labelled files

LABEL_FIELDS = ("label_hallucinated", "label")


def read_labelled(path: str | Path, *, label: str | None = None,
                  require_label: bool = True) -> list[dict[str, Any]]:
    """Records of a labelled file, the hallucination label as ``label_hallucinated``.

    Parameters
    ----------
    path : str or Path
        .jsonl, .csv or .parquet (:func:`evaltools.io.read_records`).
    label : str, optional
        The field holding the 0/1 hallucination label. Default:
        ``label_hallucinated``, else ``label`` (the benchmark samples' name),
        whichever the first record has.
    require_label : bool, default True
        Raise on a record without the label; else keep it with None.

    Returns
    -------
    list of dict
        The records; ``label_hallucinated`` and ``label_relevant`` as 0/1 or
        None, ``label_verdict`` upper-cased.

    Raises
    ------
    evaltools.errors.InputError
        A label missing or not 0/1 (file, line, field).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "l.csv"
    >>> _ = p.write_text("query,context,response,label\\nq,c,r,1\\n")
    >>> read_labelled(p)[0]["label_hallucinated"]
    1
    """
    p = Path(path)
    unit = row_unit(p)
    out: list[dict[str, Any]] = []
    field = label
    for line, rec in read_records(p):
        if field is None:
            field = next((f for f in LABEL_FIELDS if f in rec), LABEL_FIELDS[0])
        rec = dict(rec)
        if field not in rec or rec[field] is None or rec[field] == "":
            if require_label:
                raise InputError(f"field '{field}' is missing (the 0/1 hallucination label; "
                                 "choose another field with --label)", source=p.name,
                                 line=line, field=field, unit=unit)
            value = None
        else:
            try:
                value = binary_label(rec[field])
            except ValueError as exc:
                raise InputError(f"field '{field}' {exc}", source=p.name, line=line,
                                 field=field, unit=unit) from None
        rec["label_hallucinated"] = value
        if "label_relevant" in rec:
            try:
                rec["label_relevant"] = binary_label(rec["label_relevant"])
            except ValueError as exc:
                raise InputError(f"field 'label_relevant' {exc}", source=p.name, line=line,
                                 field="label_relevant", unit=unit) from None
        if isinstance(rec.get("label_verdict"), str):
            rec["label_verdict"] = rec["label_verdict"].strip().upper() or None
        out.append(rec)
    return out


def group_keys(records: Iterable[Mapping[str, Any]], field: str, *,
               regex: str | None = None, source: str = "<records>") -> list[str]:
    """One group key per record: ``record[field]``, or ``regex``'s first group in it.

    Records of one group (the two answers of a HaluEval question) must share a
    cross-validation fold, or a model is judged on near-copies of its
    training data.

    Parameters
    ----------
    records : iterable of dict
    field : str
    regex : str, optional
        Applied with ``re.search``; its first group (else the whole match) is
        the key. A value it does not match is its own key.
    source : str
        The file the records come from, for error messages.

    Returns
    -------
    list of str

    Raises
    ------
    evaltools.errors.InputError
        A record without ``field`` (record number, field), or a bad regex.

    Examples
    --------
    >>> group_keys([{"id": "q7_right"}, {"id": "q7_halluc"}], "id",
    ...            regex=r"^(.*)_(?:right|halluc)$")
    ['q7', 'q7']
    """
    import re

    try:
        pattern = re.compile(regex) if regex else None
    except re.error as exc:
        raise InputError(f"group regex {regex!r} is not a valid regular expression ({exc})",
                         source="<groups>") from None
    out = []
    for i, rec in enumerate(records, start=1):
        if rec.get(field) is None:
            raise InputError(f"field '{field}' is missing (the group key)", source=source,
                             line=i, field=field, unit="record")
        value = str(rec[field])
        if pattern is not None:
            m = pattern.search(value)
            if m:
                value = m.group(1) if m.groups() else m.group(0)
        out.append(value)
    return out
