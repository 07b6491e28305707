"""Labelled files: records with a human (or constructed) hallucination label.

- :func:`read_labelled` — any record file with a hallucination label, the
  label normalised to ``label_hallucinated``.
- :func:`group_keys` — the cross-validation group of each record.
- :func:`join_labels` — records joined with the Annotator's labels file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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


# ------------------------------------------------------------------ the Annotator's labels


@dataclass(frozen=True)
class LabelJoin:
    """Records joined with a labels file: those that have a label, and what was left out.

    ``n_unlabelled`` records had no label in the file (not labelled yet, or
    skipped); ``n_unmatched`` labelled ids are not among the records.
    """

    records: tuple[dict[str, Any], ...]
    n_unlabelled: int
    n_unmatched: int

    def to_dict(self) -> dict[str, Any]:
        return {"records": list(self.records), "n_unlabelled": self.n_unlabelled,
                "n_unmatched": self.n_unmatched}


def join_labels(records: Iterable[Mapping[str, Any]], labels: Any, *,
                field: str = "label_hallucinated", source: str = "<records>",
                labels_source: str | None = None) -> LabelJoin:
    """Records with the label the Annotator saved for them, as ``label_hallucinated``.

    The one-line way to calibrate on labels made with
    :class:`evaltools.widgets.Annotator` (``field="label_hallucinated"``, buttons
    mapped to 1 and 0): ``evaltools calibrate scored.jsonl --labels labels.jsonl``,
    or in Python ``join_labels(records, "labels.jsonl").records``. Records are
    matched on ``id`` as text (the 1-based record number when records have no
    ``id``, as the Annotator numbers them); the last label of an id wins
    (:func:`evaltools.io.label_store.read_labels`). Records without a label are left
    out: an Annotator usually labels a part of a file.

    Parameters
    ----------
    records : iterable of dict
        Raw or scored records.
    labels : str, Path or DataFrame
        A labels file written by the Annotator (:class:`~evaltools.io.label_store.LabelStore`),
        or the frame :func:`~evaltools.io.label_store.read_labels` returns.
    field : str, default "label_hallucinated"
        The labelled field holding 0/1 (the Annotator's ``field``).
    source, labels_source : str
        Names of the two inputs, for error messages.

    Returns
    -------
    LabelJoin

    Raises
    ------
    evaltools.errors.InputError
        Two records with one id; no label in ``field``; a label that is not 0/1
        (naming the labels file, the field and the case id); no labelled id
        among the records.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from evaltools.io.label_store import LabelStore
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.jsonl"
    >>> store = LabelStore(path)
    >>> _ = store.append("a", "label_hallucinated", "hallucinated", value=1)
    >>> _ = store.append("b", "label_hallucinated", "faithful", value=0)
    >>> joined = join_labels([{"id": "a"}, {"id": "b"}, {"id": "c"}], path)
    >>> [(r["id"], r["label_hallucinated"]) for r in joined.records], joined.n_unlabelled
    ([('a', 1), ('b', 0)], 1)
    """
    from evaltools.io.label_store import read_labels

    if isinstance(labels, (str, Path)):
        labels_source = labels_source or Path(labels).name
        if not Path(labels).is_file():
            raise InputError("labels file not found", source=str(labels))
        frame = read_labels(labels)
    else:
        frame = labels
    labels_source = labels_source or "<labels>"
    if field not in frame.columns or frame[field].isna().all():
        have = [c for c in frame.columns
                if c not in ("id", "note", "labeler", "labeled_at", "n_events")]
        raise InputError(f"no labels in field '{field}' (fields labelled: "
                         f"{', '.join(have) or 'none'}; label with "
                         f"Annotator(..., field='{field}', labels={{'hallucinated': 1, "
                         "'faithful': 0}))", source=labels_source, field=field)
    by_id: dict[str, int] = {}
    for cid, value in zip(frame["id"].astype(str), frame[field].tolist(), strict=True):
        try:
            y = binary_label(value)
        except ValueError as exc:
            raise InputError(f"case '{cid}': field '{field}' {exc} (map the buttons to 1 "
                             "and 0: labels={'hallucinated': 1, 'faithful': 0})",
                             source=labels_source, field=field) from None
        if y is not None:
            by_id[cid] = y
    out, seen = [], {}
    for i, rec in enumerate(records, start=1):
        cid = str(rec["id"]) if rec.get("id") is not None else str(i)
        if cid in seen:
            raise InputError(f"field 'id': {cid!r} is also record {seen[cid]} (labels are "
                             "joined by id, so ids must be unique)", source=source, line=i,
                             field="id", unit="record")
        seen[cid] = i
        if cid in by_id:
            out.append({**rec, "label_hallucinated": by_id[cid]})
    if not out:
        raise InputError(f"none of the {len(by_id)} labelled ids is a record id of {source} "
                         "(ids are compared as text)", source=labels_source, field="id")
    return LabelJoin(records=tuple(out), n_unlabelled=len(seen) - len(out),
                     n_unmatched=len(set(by_id) - set(seen)))
