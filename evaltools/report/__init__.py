"""Self-contained HTML reports over scored and judged records.

:mod:`evaltools.report.model` describes a report without any renderer;
:mod:`evaltools.report.build` fills it from records (streaming);
:mod:`evaltools.report.html` renders it with Jinja2 templates. Notebooks
and widgets read the same model (tables as DataFrames, figures as SVG).

Examples
--------
>>> from evaltools.report import report_from_records
>>> rep = report_from_records(scored=[{"id": "1", "relevance": 0.5, "completeness": 1.0,
...                                    "hallucination": 0.0, "verdict": "PASS"}])
>>> rep.section("summary").tables()[0].to_records()[0]
{'verdict': 'PASS', 'records': 1, 'share': 1.0}
"""

from __future__ import annotations

from evaltools.report.build import ReportBuilder, build_report, report_from_records
from evaltools.report.compare import compare_report
from evaltools.report.html import render_html, write_html
from evaltools.report.model import (
    Case,
    Column,
    Figure,
    InputFile,
    Limits,
    Report,
    Section,
    Stat,
    Stats,
    Table,
    Text,
)

__all__ = ["Case", "Column", "Figure", "InputFile", "Limits", "Report", "ReportBuilder",
           "Section", "Stat", "Stats", "Table", "Text", "build_report", "compare_report",
           "render_html",
           "report_from_records", "write_html"]
