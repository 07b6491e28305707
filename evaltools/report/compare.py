"""The comparison report of two runs (``evaltools report --reference OLD NEW``).

Reads both runs (raw records are scored or judged as for any report), has
:func:`evaltools.compare.compare_runs` compute the shifts, flips and module
deltas, and lays them out as report sections. Nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaltools import __version__
from evaltools.compare import compare_runs
from evaltools.config import DEFAULT_CONFIG
from evaltools.report.cases import case_payload
from evaltools.report.inputs import file_sha256, iter_items
from evaltools.report.model import (
    Alert,
    Case,
    Change,
    Column,
    InputFile,
    Limits,
    Report,
    Section,
    Stat,
    Stats,
    Text,
    generation_time,
)
from evaltools.report.model import Table as _Table
from evaltools.scoring.result import VERDICT_ORDER


def _stream(paths: Sequence[str | Path], inputs: list[InputFile], *, config,
            skip_invalid: bool,
            progress: Callable[[Iterable[Any], str], Iterable[Any]] | None,
            columns: Mapping[str, str] | None = None) -> Iterator[dict[str, Any]]:
    """The records of ``paths`` one at a time (none is kept); each file's
    :class:`InputFile` is appended to ``inputs`` once it has been read."""
    from evaltools.scoring.scorer import ResponseScorer

    scorer = ResponseScorer(config)
    for path in paths:
        p = Path(path)
        items = iter_items(p, scorer=scorer, skip_invalid=skip_invalid, columns=columns)
        n = 0
        for item in items if progress is None else progress(items, p.name):
            yield item.record
            n += 1
        digest, size = file_sha256(p)
        inputs.append(InputFile(path=str(path), sha256=digest, size_bytes=size, records=n))


def _ci(low, high) -> str:
    return "—" if low is None else f"[{low:+.3f}, {high:+.3f}]"


def _side(change, which: str, lim: Limits) -> Case:
    before = which == "before"
    rec = {"response": change.response_before if before else change.response_after,
           "context": change.context, "query": change.query,
           "anchors": list(change.anchors_before if before else change.anchors_after),
           "reasons": list(change.reasons_before if before else change.reasons_after),
           "verdict": change.verdict_before if before else change.verdict_after}
    p = case_payload(rec, change.id, "", 0, lim)
    return Case(id=p["id"], source="", verdict=p["verdict"], headline=change.id,
                reasons=p["reasons"], fields=(), query=p["query"], response=p["response"],
                context=p["context"], anchors=p["anchors"], response_cut=p["response_cut"],
                context_cut=p["context_cut"], anchors_cut=p["anchors_cut"])


def _changes(c, lim: Limits) -> list:
    """The changed-records table (sortable by each delta) and each record side by side."""
    names = [s for s in ("hallucination", "relevance", "completeness", "claims_score")
             if any(ch.delta(s) is not None for ch in c.changes)]
    if any(ch.module for ch in c.changes):
        names.append("total_score")
    shown = c.changes[: lim.table_rows]
    rows = [((ch.id, f"change-{i}"), ch.module or "", ch.verdict_before, ch.verdict_after,
             *(ch.delta(n) for n in names), f"{ch.largest_score} {ch.largest_delta:+.3f}",
             "worse" if ch.worse else "better")
            for i, ch in enumerate(shown, start=1)]
    cols = [Column("id", "Id", "link"), Column("module", "Module", "code"),
            Column("before", "Before", "verdict"), Column("after", "Now", "verdict"),
            *(Column(f"d_{n}", f"Δ {n}", "float") for n in names),
            Column("largest", "Largest move", "code"), Column("way", "Direction")]
    if not any(ch.module for ch in c.changes):
        cols.pop(1)
        rows = [(r[0], *r[2:]) for r in rows]
    blocks: list = [_Table.from_rows(
        "changes", f"Records whose scores moved beyond ±{c.tolerance:g} or whose verdict "
                   f"changed", cols, rows, rows_total=c.n_changed,
        note="Δ = now − before, per record present in both runs (same id); verdict flips "
             "first, then the largest move. Click a column to sort by it, an id to see the "
             "record's responses and reasons before and now. The tolerance is [compare] "
             "tolerance in the configuration.")]
    if not c.changes:
        blocks.append(Text(f"No record present in both runs moved beyond ±{c.tolerance:g} "
                           "or changed its verdict."))
    for i, ch in enumerate(shown, start=1):
        if i > lim.worst_cases:
            blocks.append(Text(f"The first {lim.worst_cases} records are shown side by side "
                               "(--worst); the table lists the rest."))
            break
        deltas = ", ".join(f"{n} {b - a:+.3f}" for n, a, b in ch.deltas if abs(b - a) > 0)
        headline = f"{ch.id} — {deltas or 'no score moved'}"
        blocks.append(Change(anchor=f"change-{i}", headline=headline, deltas=ch.deltas,
                             before=_side(ch, "before", lim), after=_side(ch, "after", lim)))
    return blocks


def comparison_report(comparison, *, title: str = "evaltools comparison",
                      inputs: Sequence[InputFile] = (), config=None,
                      reference_name: str = "reference",
                      current_name: str = "current", limits: Limits | None = None) -> Report:
    """A :class:`Report` showing a :class:`evaltools.compare.RunComparison`."""
    c = comparison
    config = config if config is not None else DEFAULT_CONFIG
    lim = limits or Limits()
    worse = [f for f in c.flips if f.worse]
    moved = [s for s in c.shifts if s.significant]
    deltas = [m for m in c.modules if m.significant]
    alerts = []
    if worse:
        alerts.append(Alert(f"{len(worse)} verdict{'s' if len(worse) != 1 else ''} got worse "
                            f"(e.g. PASS→FAIL) in {current_name}", "table-flips"))
    if moved:
        alerts.append(Alert("Scores that moved beyond chance (95% interval of the difference "
                            "excludes 0): " + ", ".join(
                                f"{s.score} {s.difference:+.3f}" for s in moved),
                            "table-shifts"))
    if deltas:
        alerts.append(Alert("Modules whose mean total moved beyond chance: " + ", ".join(
            f"{m.module} {m.difference:+.1f}" for m in deltas), "table-module-deltas"))
    if c.n_changed:
        alerts.append(Alert(f"{c.n_changed:,} record{'s' if c.n_changed != 1 else ''} present "
                            f"in both runs moved beyond ±{c.tolerance:g} (see them side by "
                            "side)", "table-changes", tone="warn" if c.verdict == "worse"
                            else "info"))
    if not alerts:
        alerts.append(Alert("No verdict got worse and no difference is beyond chance.",
                            "summary", tone="ok"))
    tone = {"worse": "warn", "better": "ok"}.get(c.verdict, "info")
    summary = [Text(c.headline, tone=tone), Stats((
        Stat(f"Records in {reference_name}", c.n_reference),
        Stat(f"Records in {current_name}", c.n_current),
        Stat("Matched by id", c.n_matched),
        Stat("Verdict flips", len(c.flips)),
        Stat("Got worse", len(worse)),
        Stat(f"Moved beyond ±{c.tolerance:g}", c.n_changed),
    )), _Table.from_rows(
        "verdict-mix", "Verdicts",
        [Column("verdict", "Verdict", "verdict"),
         Column("reference", reference_name, "int"),
         Column("current", current_name, "int")],
        [(v, c.verdicts_reference.get(v, 0), c.verdicts_current.get(v, 0))
         for v in VERDICT_ORDER
         if c.verdicts_reference.get(v) or c.verdicts_current.get(v)])]
    paired = any(s.paired for s in c.shifts)
    shifts = [_Table.from_rows(
        "shifts", "Score distributions: reference against current",
        [Column("score", "Score", "code"), Column("ref", "Mean before", "float"),
         Column("cur", "Mean now", "float"), Column("pairs", "Pairs", "int"),
         Column("diff", "Difference", "float"),
         Column("ci", "95% interval", "code"), Column("pv", "p-value", "float"),
         Column("ks", "KS statistic", "float"),
         Column("p", "KS p-value", "float"), Column("sig", "Beyond chance")],
        [(s.score, s.mean_reference, s.mean_current, s.n_pairs, s.difference,
          _ci(s.low, s.high), s.p_value, s.ks_statistic, s.ks_pvalue,
          "yes" if s.significant else "no") for s in c.shifts],
        note=("Records matched by id (paired): Difference = mean over the pairs of "
              "(now − before); its 95% interval is a percentile bootstrap of the pairs "
              "(1,000 resamples) and the p-value a sign-flip permutation test. "
              if paired else
              "No records matched by id, so the runs are compared apart: Difference = "
              "mean now − mean before, its 95% interval a bootstrap with each run resampled "
              "apart and the p-value a permutation test of the two samples. ")
        + "'Beyond chance' when the interval excludes 0. The KS statistic compares the "
          "two distributions' shapes.")]
    flips = [_Table.from_rows(
        "flips", "Verdict flips, with their evidence",
        [Column("id", "Id", "code"), Column("before", "Before", "verdict"),
         Column("after", "Now", "verdict"), Column("unsupported", "Unsupported now"),
         Column("reasons", "Reasons now"), Column("was", "Reasons before")],
        [(f.id, f.before, f.after, "; ".join(f.unsupported_after) or "—",
          "; ".join(f.reasons_after), "; ".join(f.reasons_before)) for f in c.flips],
        note="Records present in both runs (same id) whose verdict changed; worse first.")]
    if not c.flips:
        flips.append(Text("No record present in both runs changed its verdict."))
    modules = [_Table.from_rows(
        "module-deltas", "Per-module judge results",
        [Column("module", "Module", "code"), Column("nr", "Records before", "int"),
         Column("nc", "Records now", "int"), Column("ref", "Mean total before", "float"),
         Column("cur", "Mean total now", "float"), Column("diff", "Difference", "float"),
         Column("ci", "95% interval", "code"), Column("pr", "PASS rate before", "percent"),
         Column("pc", "PASS rate now", "percent")],
        [(m.module, m.n_reference, m.n_current, m.mean_total_reference,
          m.mean_total_current, m.difference, _ci(m.low, m.high), m.pass_rate_reference,
          m.pass_rate_current) for m in c.modules])] if c.modules else [
        Text("Neither run has judged module outputs.")]
    sections = (Section("alerts", "Needs attention", tuple(alerts)),
                Section("summary", "Summary", tuple(summary)),
                Section("changes", "Changed records", tuple(_changes(c, lim)),
                        intro="Every record whose scores moved, not only verdict flips: "
                              "anchors marked green when the context supports them, red "
                              "when not."),
                Section("shift", "Score shift", tuple(shifts)),
                Section("flips", "Verdict flips", tuple(flips)),
                Section("modules", "Judge modules", tuple(modules)))
    return Report(title=title, sections=sections, version=__version__,
                  generated=generation_time(),
                  config=config.to_dict(), inputs=tuple(inputs))


def compare_files(reference: Sequence[str | Path], current: Sequence[str | Path], *,
                  config=None, title: str = "evaltools comparison", skip_invalid: bool = False,
                  progress=None, n_resamples: int = 1000, seed: int = 0,
                  limits: Limits | None = None,
                  columns: Mapping[str, str] | None = None) -> Report:
    """Read two runs' files and return their comparison report."""
    config = config if config is not None else DEFAULT_CONFIG
    ref_inputs: list[InputFile] = []
    cur_inputs: list[InputFile] = []
    # streamed: compare_runs reads the reference, then the current run, keeping no record
    comparison = compare_runs(
        _stream(reference, ref_inputs, config=config, skip_invalid=skip_invalid,
                progress=progress, columns=columns),
        _stream(current, cur_inputs, config=config, skip_invalid=skip_invalid,
                progress=progress, columns=columns), n_resamples=n_resamples, seed=seed,
        config=config)
    return comparison_report(comparison, title=title, inputs=(*ref_inputs, *cur_inputs),
                             config=config, limits=limits,
                             reference_name=" + ".join(Path(p).name for p in reference),
                             current_name=" + ".join(Path(p).name for p in current))


def compare_report(reference, current, **kwargs) -> Report:
    """The comparison report of two runs: ``compare_report("old.jsonl", "new.jsonl")``.

    ``reference`` and ``current`` are files (a path, or a list of paths) of
    raw, scored or judged records; keyword arguments go to :func:`compare_files`.
    """
    def paths(x):
        return [x] if isinstance(x, (str, bytes)) or hasattr(x, "__fspath__") else list(x)

    return compare_files(paths(reference), paths(current), **kwargs)
