"""Public benchmark formats turned into the scoring contract.

Every loader returns a list of records ``{id, query, context, response,
label_hallucinated, ...}`` — the scoring input of the data contract with the
human (or constructed) label — ready for :func:`evaltools.score_records`, a
DataFrame, or :func:`evaltools.io.open_writer`. Fields a format carries
beyond those pass through under their own names. A file that breaks its
format raises :class:`~evaltools.errors.InputError` naming the file, the line
and the field.

- :func:`load_halueval_qa` — HaluEval QA: JSON lines of ``knowledge``,
  ``question``, ``right_answer``, ``hallucinated_answer``; two records each.
- :func:`load_begin` — BEGIN: TSV with ``knowledge``, ``message``,
  ``response``, ``begin_label``.
- :func:`load_ragtruth` — RAGTruth: ``response.jsonl`` + ``source_info.jsonl``.

Examples
--------
>>> import json, tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "qa_data.json"
>>> _ = p.write_text(json.dumps({"knowledge": "Paris is in France.",
...     "question": "Where is Paris?", "right_answer": "France",
...     "hallucinated_answer": "Paris is in Spain."}) + "\\n")
>>> [(r["response"], r["label_hallucinated"]) for r in load_halueval_qa(p)]
[('France', 0), ('Paris is in Spain.', 1)]
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from evaltools.arguments import check_one_of
from evaltools.errors import InputError, shorten
from evaltools.io.records import read_json_lines
from evaltools.io.validation import require_text

# ------------------------------------------------------------------ HaluEval QA

_HALUEVAL = ("knowledge", "question", "right_answer", "hallucinated_answer")


def load_halueval_qa(path: str | Path, *, prefix: str = "halueval_qa") -> list[dict[str, Any]]:
    """HaluEval QA records, two per line: the right answer (label 0) and the
    hallucinated one (label 1).

    Parameters
    ----------
    path : str or Path
        JSON lines (HaluEval's ``qa_data.json``) of objects with
        ``knowledge``, ``question``, ``right_answer``, ``hallucinated_answer``.
    prefix : str, default "halueval_qa"
        Start of the ids: ``{prefix}_{line:05d}_right`` / ``_halluc``.

    Returns
    -------
    list of dict
        ``id, query, context, response, label_hallucinated, group`` where
        ``group`` (``{prefix}_{line:05d}``) ties the two answers of a question
        together — keep them in one fold when cross-validating.

    Raises
    ------
    evaltools.errors.InputError
        Not JSON lines, or a field missing or not a string (file, line, field).

    Examples
    --------
    See the module docstring.
    """
    p = Path(path)
    out: list[dict[str, Any]] = []
    for line, rec in read_json_lines(p):
        q, k, right, wrong = (require_text(rec, f, source=p.name, line=line, required=_HALUEVAL)
                              for f in ("question", "knowledge", "right_answer",
                                        "hallucinated_answer"))
        group = f"{prefix}_{line:05d}"
        for suffix, response, label in (("right", right, 0), ("halluc", wrong, 1)):
            out.append({"id": f"{group}_{suffix}", "query": q, "context": k,
                        "response": response, "label_hallucinated": label, "group": group})
    return out


# ------------------------------------------------------------------ BEGIN

BEGIN_LABELS = {"fully attributable": 0, "not fully attributable": 1, "generic": None}
_BEGIN = ("knowledge", "message", "response", "begin_label")


def load_begin(path: str | Path, *, generic: str = "keep") -> list[dict[str, Any]]:
    """BEGIN records (knowledge-grounded dialogue turns labelled for attribution).

    ``message`` (the previous dialogue turn) becomes the query, ``knowledge``
    the context. "Fully attributable" is label 0, "Not fully attributable"
    label 1; "Generic" responses (no factual content) have no hallucination
    label: kept with ``label_hallucinated`` None, or dropped.

    Parameters
    ----------
    path : str or Path
        Tab-separated, with a header naming at least ``knowledge``,
        ``message``, ``response``, ``begin_label``. Quotes are literal text.
    generic : {"keep", "drop"}, default "keep"

    Returns
    -------
    list of dict
        ``id`` (``begin_{row:05d}``), ``query``, ``context``, ``response``,
        ``label_hallucinated``, ``begin_label`` and any other columns
        (``model_name``, ``data_source``).

    Raises
    ------
    evaltools.errors.InputError
        A missing column, a row with the wrong number of cells, or an unknown
        label (file, row, field).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "begin.tsv"
    >>> _ = p.write_text("knowledge\\tmessage\\tresponse\\tbegin_label\\n"
    ...                  "Sky is blue.\\tColour?\\tIt is blue.\\tFully attributable\\n")
    >>> [(r["query"], r["label_hallucinated"]) for r in load_begin(p)]
    [('Colour?', 0)]
    """
    check_one_of(generic, "generic", "load_begin", ("keep", "drop"))
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found or not a regular file", source=str(p))
    try:
        with p.open("r", encoding="utf-8-sig", newline="") as fh:
            return begin_records(fh, source=p.name, generic=generic)
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 ({exc.reason})", source=p.name) from None


def begin_records(lines: Iterable[str], *, source: str = "<begin>",
                  generic: str = "keep") -> list[dict[str, Any]]:
    """BEGIN records from the lines of one BEGIN file (what :func:`load_begin` reads).

    ``source`` names the file in errors. Rows are numbered from 1 after the
    header, blank rows included (``id`` is ``begin_{row:05d}``).

    >>> [r["id"] for r in begin_records(["knowledge\\tmessage\\tresponse\\tbegin_label\\n",
    ...     "\\n", "K\\tM\\tR\\tGeneric\\n", "K\\tM\\tR\\tNot fully attributable\\n"],
    ...     generic="drop")]
    ['begin_00003']
    """
    out: list[dict[str, Any]] = []
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if header is None:
        return out
    missing = [c for c in _BEGIN if c not in header]
    if missing:
        raise InputError(f"column '{missing[0]}' is missing from the header "
                         f"(required: {', '.join(_BEGIN)})", source=source, line=1,
                         field=missing[0])
    for row_no, cells in enumerate(reader, start=1):
        if not cells or cells == [""]:
            continue
        if len(cells) != len(header):
            raise InputError(f"has {len(cells)} cells but the header has {len(header)}",
                             source=source, line=row_no, unit="row")
        row = dict(zip(header, cells, strict=True))
        key = row["begin_label"].strip().lower()
        if key not in BEGIN_LABELS:
            raise InputError(
                f"field 'begin_label' must be one of Fully attributable, Not fully "
                f"attributable, Generic. Got {shorten(row['begin_label'])} instead.",
                source=source, line=row_no, field="begin_label", unit="row")
        label = BEGIN_LABELS[key]
        if label is None and generic == "drop":
            continue
        extra = {k: v for k, v in row.items() if k not in _BEGIN}
        out.append({"id": f"begin_{row_no:05d}", "query": row["message"],
                    "context": row["knowledge"], "response": row["response"],
                    "label_hallucinated": label, "begin_label": row["begin_label"],
                    **extra})
    return out


# ------------------------------------------------------------------ RAGTruth


def _instruction(prompt: str) -> str:
    for line in prompt.splitlines():
        line = line.strip()
        if line and line.lower().rstrip(":") != "instruction":
            return line
    return ""


def load_ragtruth(response_path: str | Path, source_info_path: str | Path, *,
                  split: str | None = None,
                  task_types: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """RAGTruth records: each response joined to its source, labelled 1 when
    annotators marked any hallucinated span in it.

    QA sources give ``query`` = the question and ``context`` = the passages;
    Summary sources give the article as context; Data2txt sources give the
    structured data as JSON text. For Summary and Data2txt the query is the
    instruction line of the prompt (e.g. "Summarize the following news within
    116 words:").

    Parameters
    ----------
    response_path : str or Path
        ``response.jsonl``: ``id, source_id, model, labels, split, response, ...``
    source_info_path : str or Path
        ``source_info.jsonl``: ``source_id, task_type, source_info, prompt, ...``
    split : {"train", "test"}, optional
        Keep one split only.
    task_types : iterable of str, optional
        Keep these task types only (``QA``, ``Summary``, ``Data2txt``).

    Returns
    -------
    list of dict
        ``id`` (``ragtruth_{id}``), ``query``, ``context``, ``response``,
        ``label_hallucinated``, ``hallucination_spans`` (the annotated
        ``labels``), ``task_type``, ``model``, ``split``, ``quality``,
        ``source_id``.

    Raises
    ------
    evaltools.errors.InputError
        A field missing or of the wrong type, or a ``source_id`` with no
        source (file, line, field).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "source_info.jsonl").write_text(json.dumps({"source_id": "7",
    ...     "task_type": "QA", "source_info": {"question": "q?", "passages": "p."},
    ...     "prompt": "..."}) + "\\n")
    >>> _ = (d / "response.jsonl").write_text(json.dumps({"id": "1", "source_id": "7",
    ...     "model": "m", "labels": [], "split": "test", "response": "r."}) + "\\n")
    >>> [(r["id"], r["query"], r["label_hallucinated"])
    ...  for r in load_ragtruth(d / "response.jsonl", d / "source_info.jsonl")]
    [('ragtruth_1', 'q?', 0)]
    """
    rp, sp = Path(response_path), Path(source_info_path)
    wanted = None if task_types is None else set(task_types)
    sources: dict[str, tuple[int, dict[str, Any]]] = {}
    for line, rec in read_json_lines(sp):
        sid = rec.get("source_id")
        if sid is None:
            raise InputError("field 'source_id' is missing", source=sp.name, line=line,
                             field="source_id")
        require_text(rec, "task_type", source=sp.name, line=line,
              required=("source_id", "task_type", "source_info"))
        if "source_info" not in rec or rec["source_info"] is None:
            raise InputError("field 'source_info' is missing", source=sp.name, line=line,
                             field="source_info")
        sources[str(sid)] = (line, rec)
    out: list[dict[str, Any]] = []
    req = ("id", "source_id", "response", "labels")
    for line, rec in read_json_lines(rp):
        response = require_text(rec, "response", source=rp.name, line=line, required=req)
        sid = rec.get("source_id")
        if sid is None:
            raise InputError(f"field 'source_id' is missing (required: {', '.join(req)})",
                             source=rp.name, line=line, field="source_id")
        if str(sid) not in sources:
            raise InputError(f"field 'source_id' is {shorten(sid)}, which {sp.name} does not hold",
                             source=rp.name, line=line, field="source_id")
        labels = rec.get("labels")
        if not isinstance(labels, list):
            raise InputError(f"field 'labels' must be a list of spans, got "
                             f"{type(labels).__name__}", source=rp.name, line=line,
                             field="labels")
        if split is not None and rec.get("split") != split:
            continue
        sline, src = sources[str(sid)]
        task = src["task_type"]
        if wanted is not None and task not in wanted:
            continue
        info = src["source_info"]
        if task == "QA":
            if not isinstance(info, Mapping):
                raise InputError("field 'source_info' of a QA source must be an object with "
                                 "'question' and 'passages'", source=sp.name, line=sline,
                                 field="source_info")
            query = require_text(info, "question", source=sp.name, line=sline,
                          required=("question", "passages"))
            context = require_text(info, "passages", source=sp.name, line=sline,
                            required=("question", "passages"))
        else:
            context = info if isinstance(info, str) else json.dumps(info, ensure_ascii=False)
            query = _instruction(str(src.get("prompt") or ""))
        out.append({"id": f"ragtruth_{rec.get('id', line)}", "query": query,
                    "context": context, "response": response,
                    "label_hallucinated": int(bool(labels)), "hallucination_spans": labels,
                    "task_type": task, "model": rec.get("model"), "split": rec.get("split"),
                    "quality": rec.get("quality"), "source_id": str(sid)})
    return out
