"""The renderer-free report: frozen descriptions of what a report shows.

Nothing here knows HTML. A :class:`Report` is a title, some
:class:`Section` objects and the provenance (evaltools version, the
configuration, the input files and their hashes). A section holds blocks:
:class:`Stats` (headline numbers), :class:`Table` (rows already limited, with
the count of what was left out), :class:`Figure` (a plot as SVG text),
:class:`Case` (one record shown in full, with its anchors and evidence) and
:class:`Text`. The HTML renderer (:mod:`evaltools.report.html`), notebooks and
widgets all read these same objects.

Examples
--------
>>> t = Table.from_rows("verdicts", "Verdict mix",
...                     [Column("verdict", "Verdict", "verdict"), Column("n", "Records", "int")],
...                     [("PASS", 3), ("FAIL", 1)], limit=1)
>>> t.rows_shown, t.rows_omitted, t.rows_total
(1, 1, 2)
>>> t.to_records()
[{'verdict': 'PASS', 'n': 3}]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from evaltools.arguments import check_one_of, check_positive_int
from evaltools.report.html import (
    render_block,
    render_fragment,
    render_html,
    render_section,
    write_html,
)

#: Kinds of table columns: how a renderer formats and sorts a cell.
COLUMN_KINDS = ("text", "int", "float", "percent", "verdict", "code", "list", "link")


@dataclass(frozen=True)
class Column:
    """One column of a :class:`Table`.

    ``kind`` is one of :data:`COLUMN_KINDS`: ``int``, ``float`` and
    ``percent`` (a share in [0, 1]) are numbers and sort as numbers;
    ``verdict`` is PASS/WARN/FAIL; ``code`` is monospaced text; ``list`` a
    sequence of strings; ``link`` a ``(text, target)`` pair, the text linking
    to the element of id ``target`` in the same page.
    """

    key: str
    label: str
    kind: str = "text"
    help: str = ""

    def __post_init__(self) -> None:
        check_one_of(self.kind, "kind", "Column", COLUMN_KINDS)

    @property
    def numeric(self) -> bool:
        """Whether the column sorts as numbers."""
        return self.kind in ("int", "float", "percent")


@dataclass(frozen=True)
class Stat:
    """A headline number: ``Stat("Records", 1200)``."""

    label: str
    value: Any
    help: str = ""


@dataclass(frozen=True)
class Block:
    """Base of every block a section holds; ``kind`` names the template."""

    kind: ClassVar[str] = "block"

    def _repr_html_(self) -> str:  # a notebook shows a block as the report does

        return render_block(self)


@dataclass(frozen=True)
class Stats(Block):
    """A row of headline numbers."""

    kind: ClassVar[str] = "stats"
    items: tuple[Stat, ...]


@dataclass(frozen=True)
class Text(Block):
    """A paragraph of plain text (no markup)."""

    kind: ClassVar[str] = "text"
    text: str
    tone: str = "info"


@dataclass(frozen=True)
class Alert(Block):
    """One thing that needs attention, linking to the section or table that shows it."""

    kind: ClassVar[str] = "alert"
    text: str
    target: str
    tone: str = "warn"


@dataclass(frozen=True)
class Table(Block):
    """A table whose rows are already limited.

    ``rows`` are tuples in column order; ``rows_total`` counts every row
    there was before the limit, so ``rows_omitted`` says what was left out.
    """

    kind: ClassVar[str] = "table"
    id: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Any, ...], ...]
    rows_total: int
    note: str = ""

    @property
    def rows_shown(self) -> int:
        """Rows the table holds."""
        return len(self.rows)

    @property
    def rows_omitted(self) -> int:
        """Rows left out by the limit."""
        return self.rows_total - len(self.rows)

    @classmethod
    def from_rows(cls, id: str, title: str, columns: Sequence[Column],
                  rows: Iterable[Sequence[Any]], *, limit: int | None = None,
                  rows_total: int | None = None, note: str = "") -> Table:
        """A table of the first ``limit`` rows of ``rows``.

        ``rows_total`` defaults to the number of rows given (pass it when the
        rows were limited before, e.g. a top-k kept while streaming).
        """
        all_rows = [tuple(r) for r in rows]
        for r in all_rows:
            if len(r) != len(columns):
                raise ValueError(f"table {id!r}: a row has {len(r)} cells but there are "
                                 f"{len(columns)} columns")
        kept = all_rows if limit is None else all_rows[:limit]
        total = len(all_rows) if rows_total is None else max(rows_total, len(kept))
        return cls(id=id, title=title, columns=tuple(columns), rows=tuple(kept),
                   rows_total=total, note=note)

    def to_records(self) -> list[dict[str, Any]]:
        """The rows shown, as dicts keyed by column key."""
        keys = [c.key for c in self.columns]
        return [dict(zip(keys, row, strict=True)) for row in self.rows]

    def to_frame(self):
        """The rows shown as a pandas DataFrame (column labels as headers)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows), columns=[c.label for c in self.columns])


@dataclass(frozen=True)
class Figure(Block):
    """A plot as SVG text (no script, no external reference)."""

    kind: ClassVar[str] = "figure"
    id: str
    title: str
    svg: str
    alt: str = ""


@dataclass(frozen=True)
class Case(Block):
    """One record shown in full: texts with their anchors, and the evidence.

    ``response`` and ``context`` may be cut to a length limit; ``anchors``
    then holds only those inside the part shown, and ``response_cut`` /
    ``context_cut`` count the characters left out. Anchors are dicts in the
    scorer's format (``kind, text, start, end, supported, evidence,
    evidence_start, evidence_end, note``).
    """

    kind: ClassVar[str] = "case"
    id: str
    source: str
    verdict: str | None
    headline: str
    reasons: tuple[str, ...]
    fields: tuple[tuple[str, Any], ...]
    query: str
    response: str
    context: str
    anchors: tuple[dict[str, Any], ...]
    response_cut: int = 0
    context_cut: int = 0
    anchors_cut: int = 0


@dataclass(frozen=True)
class Change(Block):
    """One record in two runs, side by side: ``before`` and ``after`` are :class:`Case`
    objects (texts, anchors, reasons of each run); ``deltas`` is ``(score, before,
    after)`` per score; ``anchor`` the element id a table links to."""

    kind: ClassVar[str] = "change"
    anchor: str
    headline: str
    deltas: tuple[tuple[str, float, float], ...]
    before: Case
    after: Case


@dataclass(frozen=True)
class Section:
    """A titled part of the report."""

    id: str
    title: str
    blocks: tuple[Block, ...]
    intro: str = ""

    def tables(self) -> list[Table]:
        """The section's tables."""
        return [b for b in self.blocks if isinstance(b, Table)]

    def figures(self) -> list[Figure]:
        """The section's figures."""
        return [b for b in self.blocks if isinstance(b, Figure)]

    def _repr_html_(self) -> str:  # a notebook shows a section as the report does

        return render_section(self)


@dataclass(frozen=True)
class InputFile:
    """Provenance of one input file."""

    path: str
    sha256: str
    size_bytes: int
    records: int
    kinds: tuple[tuple[str, int], ...] = ()


#: The stated bound on a report's size with the default :class:`Limits`, whatever
#: the number of records and the length of their texts, plus
#: :data:`BYTES_PER_INPUT_FILE` for each input file listed in the provenance. A
#: report over 100k ordinary records is about 0.5 MB; records built to be as
#: large as possible (50 kB texts, 5 kB ids, hundreds of nested anchors) give
#: about 2.3 MB. ``tests/test_report_scale.py`` checks both.
MAX_REPORT_BYTES = 4_000_000
BYTES_PER_INPUT_FILE = 1_000


@dataclass(frozen=True)
class Limits:
    """How much of a large input a report shows; bounds the file size.

    Parameters
    ----------
    table_rows : int
        Rows kept in any long table (the rest are counted, not shown).
    worst_cases : int
        Records shown in full in the worst-cases section.
    text_chars : int
        Characters kept of a response or context shown in a case.
    cell_chars : int
        Characters kept of any text cell in a table.
    anchors_per_case : int
        Anchors listed for one case.
    anchor_chars : int
        Characters kept of an anchor's text, evidence and note.
    recommend_records : int
        Recommended thresholds (Youden's J, F1) are searched when at most this
        many labelled records are present (the search ranks every observed
        score in one pass: about 50 ms for 20,000 records); beyond it the
        report shows the spec's thresholds only and says so.
    """

    table_rows: int = 100
    worst_cases: int = 20
    text_chars: int = 2000
    cell_chars: int = 200
    anchors_per_case: int = 25
    anchor_chars: int = 100
    recommend_records: int = 1_000_000

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            check_positive_int(getattr(self, f.name), f.name, "Limits")


def generation_time() -> str:
    """Now, as the report header shows it (``2026-11-24 07:45 UTC``).

    ``SOURCE_DATE_EPOCH`` (seconds since 1970, the reproducible-builds convention)
    fixes the time, so that the same inputs give the same bytes.
    """
    import datetime as dt
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        when = (dt.datetime.fromtimestamp(int(epoch), dt.UTC) if epoch
                else dt.datetime.now(dt.UTC))
    except (ValueError, OverflowError, OSError):
        when = dt.datetime.now(dt.UTC)
    return when.strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Report:
    """A whole report: sections plus provenance. Render with :meth:`to_html`.

    ``generated`` is the generation time shown in the header (:func:`generation_time`).
    """

    title: str
    sections: tuple[Section, ...]
    version: str
    config: dict[str, Any]
    inputs: tuple[InputFile, ...]
    limits: Limits = field(default_factory=Limits)
    generated: str = ""

    def section(self, id: str) -> Section:
        """The section with this id (KeyError if none)."""
        for s in self.sections:
            if s.id == id:
                return s
        raise KeyError(id)

    def to_html(self) -> str:
        """The report as one self-contained HTML page."""
        return render_html(self)

    def to_file(self, path) -> None:
        """Write the HTML page to ``path`` atomically."""
        write_html(self, path)

    def _repr_html_(self) -> str:  # notebooks show the report inline

        return render_fragment(self)

    def to_widgets(self):
        """The report as an ``ipywidgets.Tab``: one tab per section (same model, same HTML)."""
        import ipywidgets as widgets

        tab = widgets.Tab(children=[widgets.HTML(render_section(s)) for s in self.sections])
        for i, s in enumerate(self.sections):
            tab.set_title(i, s.title)
        return tab
