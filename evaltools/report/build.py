"""Build a :class:`~evaltools.report.model.Report` from scored and judged records.

:class:`ReportBuilder` is a :class:`~evaltools.report.stats.ReportStats` (the
accumulated counts and bounded top-k lists) that can :meth:`~ReportBuilder.build`
the report: each section function of :mod:`evaltools.report.sections` reads
the stats. Curves, thresholds and agreement come from
:mod:`evaltools.calibration`.

Examples
--------
>>> b = ReportBuilder()
>>> b.add_scored({"id": "a", "relevance": 0.8, "completeness": 1.0, "hallucination": 0.0,
...               "verdict": "PASS", "reasons": ["all thresholds met"], "anchors": []})
>>> b.add_judged({"id": "j1", "module": "M04", "total_score": 90, "verdict": "PASS",
...               "evaluation": {"correctness": {"score": 40}}})
>>> r = b.build()
>>> [s.id for s in r.sections]
['alerts', 'summary', 'modules', 'worst', 'calibration', 'configuration', 'provenance']
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaltools import __version__
from evaltools.report import alerts, sections
from evaltools.report.cells import clip
from evaltools.report.inputs import file_sha256, iter_items
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
    generation_time,
)
from evaltools.report.stats import ReportStats, describe


class ReportBuilder(ReportStats):
    """Accumulate scored and judged records, then :meth:`build` a report.

    Parameters are those of :class:`~evaltools.report.stats.ReportStats`
    (``config``, ``registry``, ``limits``, ``title``).
    """

    # -- building -------------------------------------------------------------------

    def build(self) -> Report:
        """The report over everything added so far."""
        parts = (alerts.section(self), sections.summary(self), sections.modules(self),
                 sections.worst(self),
                 sections.calibration(self), sections.configuration(self),
                 sections.provenance(self))
        return Report(
            title=clip(self.title, 200),
            sections=tuple(_clip_section(s, self.limits.cell_chars) for s in parts),
            version=__version__,
            config=self.config.to_dict(),
            inputs=tuple(self.inputs),
            limits=self.limits,
            generated=generation_time(),
        )


def _clip_section(section: Section, limit: int) -> Section:
    """Every text cell of every table cut to ``limit`` characters (bounds the page size)."""
    blocks = []
    for b in section.blocks:
        if isinstance(b, Table):
            rows = tuple(tuple(clip(v, limit) if isinstance(v, str) else v for v in row)
                         for row in b.rows)
            b = dataclasses.replace(b, rows=rows)
        elif isinstance(b, Case):
            b = dataclasses.replace(b, headline=clip(b.headline, limit),
                                    source=clip(b.source, limit))
        blocks.append(b)
    return dataclasses.replace(section, blocks=tuple(blocks))


def build_report(paths: Sequence[str | Path], *, config=None, registry=None,
                 limits: Limits | None = None,
                 title: str = "evaltools report", skip_invalid: bool = False,
                 progress: Callable[[Iterable[Any], str], Iterable[Any]] | None = None,
                 columns: Mapping[str, str] | None = None) -> Report:
    """Read, score or judge as needed, and build the report over ``paths``.

    Parameters
    ----------
    paths : sequence of path
        .jsonl, .csv or .parquet files of raw scoring or judging records, or of
        results already scored or judged (used as they are).
    config : evaltools.config.Config, optional
        Used to score raw records, and shown in the report.
    registry : evaltools.judging.registry.Registry, optional
        Used to judge raw records and to check judged ones (``--registry``).
    limits : Limits, optional
        What the report shows of a large input.
    title : str
        The report's title.
    skip_invalid : bool
        Keep invalid records as error rows instead of stopping.
    progress : callable, optional
        ``progress(items, file_name)`` wraps each file's stream of records
        (the CLI passes a progress bar).
    columns : mapping, optional
        Input columns renamed to fields as they are read (``--map``):
        ``{"question": "query", "answer": "response"}``.

    Raises
    ------
    evaltools.errors.InputError
        A file or record breaks the data contract (unless ``skip_invalid``).
    """
    from evaltools.scoring.scorer import ResponseScorer

    builder = ReportBuilder(config=config, registry=registry, limits=limits, title=title)
    scorer = ResponseScorer(builder.config)
    for path in paths:
        p = Path(path)
        kinds: Counter = Counter()
        n = 0
        items = iter_items(p, scorer=scorer, registry=builder.registry,
                           skip_invalid=skip_invalid, columns=columns)
        for item in items if progress is None else progress(items, p.name):
            n += 1
            kinds[("recomputed " if item.recomputed else "") + item.kind] += 1
            builder.add_items([item])
        digest, size = file_sha256(p)
        builder.add_input(InputFile(path=str(path), sha256=digest, size_bytes=size, records=n,
                                    kinds=tuple(sorted(kinds.items()))))
    return builder.build()


def report_from_records(scored: Iterable[Mapping[str, Any]] = (),
                        judged: Iterable[Mapping[str, Any]] = (), **kwargs) -> Report:
    """A report over records already in memory (e.g. a notebook's results).

    ``scored`` are ``ScoreResult.to_dict()`` merged with their input fields,
    ``judged`` are ``JudgeResult.to_dict()``; objects with ``to_dict()`` are
    accepted too.

    Examples
    --------
    >>> r = report_from_records(scored=[{"id": "1", "relevance": 0.5, "completeness": 1.0,
    ...                                  "hallucination": 0.0, "verdict": "PASS"}])
    >>> r.section("summary").title
    'Summary'
    """
    builder = ReportBuilder(**kwargs)
    for rec in scored:
        builder.add_scored(rec.to_dict() if hasattr(rec, "to_dict") else rec)
    for rec in judged:
        builder.add_judged(rec.to_dict() if hasattr(rec, "to_dict") else rec)
    return builder.build()


__all__ = ["Case", "Column", "Figure", "ReportBuilder", "Section", "Stat", "Stats", "Table",
           "Text", "build_report", "clip", "describe", "report_from_records"]
