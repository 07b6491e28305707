"""The report's sections, each built from a :class:`~evaltools.report.stats.ReportStats`.

One function per section; each returns a :class:`~evaltools.report.model.Section`
of tables, figures, stats and cases. They summarise what the builder
gathered; they compute no score.
"""

from __future__ import annotations

import dataclasses
import platform
from collections import Counter
from collections.abc import Mapping

from evaltools import __version__, plots
from evaltools.judging.audit import FINDING_KINDS
from evaltools.report import calibration as cal
from evaltools.report.alerts import CALIBRATION_POINTER, human_agreement
from evaltools.report.calibration import agreement_blocks
from evaltools.report.model import Case, Column, Figure, Section, Stat, Stats, Table, Text
from evaltools.report.stats import EXTRA_SCORES, SCORE_NAMES, ReportStats, clip, describe
from evaltools.scoring.result import VERDICT_ORDER
from evaltools.scoring.summary import kind_label

_DESCRIBE_COLUMNS = (
    Column("score", "Score", "code"), Column("n", "Records", "int"),
    Column("mean", "Mean", "float"), Column("std", "Std", "float"),
    Column("min", "Min", "float"), Column("p10", "P10", "float"),
    Column("median", "Median", "float"), Column("p90", "P90", "float"),
    Column("max", "Max", "float"),
)


def _share(n: int, total: int) -> float | None:
    return n / total if total else None


def _mean(values) -> float | None:
    return describe(values)["mean"]


def _verdict_table(id: str, title: str, counts, order) -> Table:
    total = sum(counts.values())
    keys = [v for v in order if counts.get(v)] + sorted(k for k in counts if k not in order)
    rows = [(v, counts[v], _share(counts[v], total)) for v in keys]
    return Table.from_rows(id, title, [Column("verdict", "Verdict", "verdict"),
                                       Column("records", "Records", "int"),
                                       Column("share", "Share", "percent")], rows)


# ----------------------------------------------------------------------------- summary


def summary(b: ReportStats) -> Section:
    """Record counts, verdict mix and score distributions."""
    n_err = b.scored_errors + sum(m.counts.errors for m in b.modules.values())
    blocks: list = [Stats((
        Stat("Records", b.n_scored + b.n_judged),
        Stat("Scored responses", b.n_scored),
        Stat("Judged module outputs", b.n_judged),
        Stat("Recomputed by this run", b.n_recomputed + 0, "raw records scored or judged now"),
        Stat("Invalid records", n_err, "kept with an error under --skip-invalid"),
        Stat("Input files", len(b.inputs)),
    ))]
    if not b.n_scored and not b.n_judged:
        blocks.append(Text("The inputs hold no records.", tone="warn"))
    if b.n_scored:
        blocks.append(_verdict_table("scored-verdicts", "Response verdicts",
                                     b.scored_verdicts, VERDICT_ORDER))
        agreement = human_agreement(b)
        if agreement is not None:  # next to the verdicts, however good or bad
            low = not agreement.kappa >= b.config.alerts.kappa_below
            blocks.append(Text(f"Against human labels: {agreement.sentence()}. "
                               f"{CALIBRATION_POINTER}.", tone="warn" if low else "info"))
        import pandas as pd

        frame = pd.DataFrame({n: pd.Series(b.scores[n], dtype=float) for n in SCORE_NAMES})
        blocks.append(Figure(
            "score-distributions", "Score distributions",
            plots.figure_to_svg(plots.score_distributions(frame, label=None,
                                                            config=b.config)),
            alt="Histograms of relevance, completeness and hallucination scores with the "
                "verdict thresholds as dashed lines."))
        rows = [(n, *describe(b.scores[n]).values())
                for n in (*SCORE_NAMES, *EXTRA_SCORES) if len(b.scores[n])]
        blocks.append(Table.from_rows("score-stats", "Score statistics", _DESCRIBE_COLUMNS,
                                      rows))
        a = b.anchors
        blocks.append(Table.from_rows(
            "anchor-kinds", "Anchors by kind",
            [Column("kind", "Kind", "code"), Column("anchors", "Checked", "int"),
             Column("unsupported", "Unsupported", "int"),
             Column("share", "Unsupported share", "percent"),
             Column("not_counted", "Restated from the query (not counted)", "int")],
            [(kind_label(k), a.total[k], a.unsupported[k], _share(a.unsupported[k], a.total[k]),
              a.not_counted[k]) for k in a.kinds()],
            note="date/time: dates and times of day (9am, 15:00) are one kind of anchor."))
    if b.n_judged:
        counts = sum((Counter(m.counts.verdicts()) for m in b.modules.values()), start=Counter())
        blocks.append(_verdict_table("judged-verdicts", "Judge verdicts", counts,
                                     ("PASS", "FAIL", "ERROR")))
        totals = [v for m in b.modules.values() for v in m.total]
        verdict = b.registry.settings.verdict
        pass_at, top = float(verdict.pass_at), float(verdict.max_total)
        blocks.append(Figure(
            "judge-total-distribution", "Judge total scores",
            plots.histograms_svg({"total_score": totals}, value_range=(0.0, top),
                                   thresholds={"total_score": [(pass_at, "PASS at")]}),
            alt=f"Histogram of recomputed judge total scores (0-{top:g}) with the PASS "
                "threshold."))
        blocks.append(Table.from_rows("judge-total-stats", "Judge score statistics",
                                      _DESCRIBE_COLUMNS,
                                      [("total_score", *describe(totals).values())]))
    errors = b.errors.items()
    if errors:
        blocks.append(Table.from_rows(
            "invalid-records", "Invalid records",
            [Column("id", "Id", "code"), Column("source", "File", "code"),
             Column("line", "Line", "int"), Column("error", "Error")],
            errors, rows_total=n_err))
    return Section("summary", "Summary", tuple(blocks))


# ----------------------------------------------------------------------------- modules


def modules(b: ReportStats) -> Section:
    """Per-module judge results: correctness, rules, reasoning, LLM-judge inconsistencies."""
    if not b.n_judged:
        return Section("modules", "Per-module judge results",
                       (Text("No judging records in the inputs."),))
    lim = b.limits

    def module_info(mid: str):
        return b.registry.modules.get(mid)  # None for a module the registry does not know

    order = sorted(b.modules, key=lambda m: (m[:3], m))
    judge = b.registry.settings
    # Two tables of at most nine columns, the ones read first on the left: how each
    # module did, then its section scores and how far its LLM judge can be trusted.
    blocks: list = [Table.from_rows(
        "modules", "Modules",
        [Column("module", "Module", "code"), Column("name", "Name"),
         Column("records", "Records", "int"),
         Column("pass_rate", "Pass rate", "percent"),
         Column("total", f"Mean total (of {judge.verdict.max_total:g})", "float"),
         Column("pass", "PASS", "int"), Column("fail", "FAIL", "int"),
         Column("errors", "Invalid", "int"), Column("type", "Type")],
        [(mid, getattr(module_info(mid), "name", ""), st.records, _share(st.passed, st.valid),
          _mean(m.total), st.passed, st.failed, st.errors,
          m.module_type or getattr(module_info(mid), "type", ""))
         for mid, m, st in ((mid, b.modules[mid], b.modules[mid].counts) for mid in order)]),
        Table.from_rows(
        "module-scores", "Section scores and LLM judges, by module",
        [Column("module", "Module", "code"),
         Column("correctness", f"Correctness (of {judge.correctness.max_points:g})", "float"),
         Column("rules", f"Rules (of {judge.rules.max_points:g})", "float"),
         Column("reasoning", f"Reasoning (of {judge.reasoning.max_points:g})", "float"),
         Column("with_issues", "With issues", "int", "records whose judgment lists issues"),
         Column("llm_judged", "LLM-judged", "int",
                "records carrying an LLM judge's result"),
         Column("llm_findings", "LLM with findings", "int",
                "LLM judge results with any audit finding"),
         Column("llm_inconsistent", "LLM inconsistent", "int",
                "LLM judge results whose own figures contradict each other "
                "(arithmetic or verdict findings)"),
         Column("llm_disagree", "LLM verdict differs", "int",
                "LLM judge verdict differs from the recomputed one")],
        [(mid, _mean(m.correctness), _mean(m.rules), _mean(m.reasoning), st.with_issues,
          st.judged, st.with_findings, st.inconsistent, st.verdict_differs)
         for mid, m, st in ((mid, b.modules[mid], b.modules[mid].counts) for mid in order)],
        note="Mean section scores of the recomputed judgments; the LLM judge's own results "
             "checked by the judge audit.")]
    blocks.append(Figure("module-verdicts", "Verdicts by module",
                         plots.verdict_bars_svg({mid: b.modules[mid].counts.verdicts()
                                                   for mid in order}),
                         alt="Stacked bars of PASS/FAIL shares per module."))
    levels = ("EXACT", "YES", "PARTIAL", "NONE", "NO")
    seen = [lv for lv in levels if any(b.modules[m].match_levels.get(lv) for m in order)]
    other = sorted({lv for m in order for lv in b.modules[m].match_levels} - set(levels))
    blocks.append(Table.from_rows(
        "correctness-mix", "Correctness",
        [Column("module", "Module", "code"),
         *(Column(lv.lower(), lv, "int") for lv in (*seen, *other)),
         Column("match_rate", "Full match", "percent",
                "EXACT or YES, of the records with a correctness level"),
         Column("f1", "Mean F1", "float", "extraction modules")],
        [(mid, *(b.modules[mid].match_levels.get(lv, 0) for lv in (*seen, *other)),
          _share(sum(b.modules[mid].match_levels.get(lv, 0) for lv in ("EXACT", "YES")),
                 sum(b.modules[mid].match_levels.values())),
          _mean(b.modules[mid].f1)) for mid in order],
        note="The correctness level of each recomputed judgment: EXACT/PARTIAL/NONE "
             "(classification, extraction) or YES/NO (boolean)."))
    rule_rows = []
    for mid in order:
        m = b.modules[mid]
        info = module_info(mid)
        names = {i: r.name for i, r in enumerate(getattr(info, "rules", ()) or ())}
        for i in sorted(set(m.rule_assessed) | set(names) | set(m.rule_names)):
            rule_rows.append((mid, i + 1, m.rule_names.get(i) or names.get(i, ""),
                              m.rule_assessed[i], m.rule_violations[i],
                              _share(m.rule_violations[i], m.rule_assessed[i])))
    rule_rows.sort(key=lambda r: (-(r[5] or 0), r[0], r[1]))
    blocks.append(Table.from_rows(
        "rule-violations", "Rule violations",
        [Column("module", "Module", "code"), Column("rule", "Rule", "int"),
         Column("name", "Rule name"), Column("assessed", "Assessed", "int"),
         Column("violations", "Violations", "int"),
         Column("rate", "Violation rate", "percent")],
        rule_rows, limit=lim.table_rows,
        note="Most violated first. Rules no judge assessed count as not assessed."))
    subs = judge.reasoning.subscores
    blocks.append(Table.from_rows(
        "reasoning", "Reasoning quality",
        [Column("module", "Module", "code"), Column("n", "Scored", "int"),
         *(Column(sub.name, f"{sub.name.replace('_', ' ').capitalize()} (of {sub.max:g})",
                  "float") for sub in subs),
         Column("mean", f"Reasoning mean (of {judge.reasoning.max_points:g})", "float"),
         Column("min", "Min", "float"), Column("max", "Max", "float")],
        [(mid, len(b.modules[mid].reasoning),
          *(_mean(b.modules[mid].subscores[sub.name]) for sub in subs),
          *(describe(b.modules[mid].reasoning)[k] for k in ("mean", "min", "max")))
         for mid in order]))
    if b.llm_usage:
        blocks.append(Table.from_rows(
            "llm-usage", "LLM judge requests",
            [Column("model", "Model", "code"), Column("records", "Records asked", "int"),
             Column("failed", "No answer", "int", "requests that got no answer (retries or "
                                                  "the total timeout used up)"),
             Column("unreadable", "Unreadable", "int",
                    "answers that could not be read as JSON (kept as text, audited)"),
             Column("prompt_tokens", "Tokens in", "int"),
             Column("completion_tokens", "Tokens out", "int"),
             Column("cost", "Estimated cost (USD)", "float",
                    "from [llm.prices]; empty when the model has no price")],
            [(m, u["records"], u["failed"], u["unreadable"], int(u["prompt_tokens"]),
              int(u["completion_tokens"]), u["cost"] if u["priced"] else None)
             for m, u in sorted(b.llm_usage.items())],
            limit=lim.table_rows,
            note="From the judge_llm field that evaltools judge --llm adds: what asking "
                 "the LLM judges took. Cached answers count the tokens they first cost."))
    kinds = sorted(b.issue_kinds.items(), key=lambda kv: (-kv[1], kv[0]))
    blocks.append(Table.from_rows(
        "issue-kinds", "LLM-judge findings, by kind",
        [Column("module", "Module", "code"), Column("kind", "Finding", "code"),
         Column("about", "About"), Column("count", "Count", "int")],
        [(m, k, FINDING_KINDS.get(k, ""), n) for (m, k), n in kinds], limit=lim.table_rows,
        note="Findings of the judge audit on the LLM judges' JSON (totals that are not "
             "the sum of their parts, verdicts that do not follow, rules the automatic "
             "checks contradict)."))
    if b.llm_verdicts:
        blocks.extend(_llm_agreement(b))
    blocks.append(Table.from_rows(
        "issue-records", "Records with issues",
        [Column("id", "Id", "code"), Column("module", "Module", "code"),
         Column("verdict", "Verdict", "verdict"), Column("total", "Total", "float"),
         Column("issues", "Issues")],
        b.judge_issues.items(), rows_total=sum(m.counts.with_issues for m in b.modules.values()),
        note="Records with the most issues first."))
    n_fail = sum(m.counts.failed for m in b.modules.values())
    blocks.append(Table.from_rows(
        "failing", "Failing examples",
        [Column("id", "Id", "code"), Column("module", "Module", "code"),
         Column("total", "Total", "float"), Column("correctness", "Correctness", "float"),
         Column("rules", "Rules", "float"), Column("reasoning", "Reasoning", "float"),
         Column("output", "Output", "code"), Column("expected", "Expected", "code"),
         Column("summary", "Summary")],
        b.judge_failing.items(), rows_total=n_fail, note="Lowest totals first."))
    return Section("modules", "Per-module judge results", tuple(blocks))


def _llm_agreement(b: ReportStats) -> list:
    return agreement_blocks("llm-verdict-confusion", "LLM judge verdicts vs recomputed",
                            [h for h, _ in b.llm_verdicts], [p for _, p in b.llm_verdicts],
                            ("PASS", "FAIL"), reference="LLM judge")


# ----------------------------------------------------------------------------- worst cases


def worst(b: ReportStats) -> Section:
    """The worst scored responses, with anchors highlighted and their evidence."""
    valid = b.n_scored - b.scored_errors
    if not valid:
        return Section("worst", "Worst cases", (Text("No scored responses in the inputs."),))
    lim = b.limits
    items = b.worst.items()
    rows = [(p["id"], p["source"], p["line"], p["verdict"], p["hallucination"], p["relevance"],
             p["completeness"], "; ".join(p["reasons"])) for p in items[: lim.table_rows]]
    blocks: list = [Table.from_rows(
        "worst-table", "Worst responses",
        [Column("id", "Id", "code"), Column("source", "File", "code"),
         Column("line", "Line", "int"), Column("verdict", "Verdict", "verdict"),
         Column("hallucination", "Hallucination", "float"),
         Column("relevance", "Relevance", "float"),
         Column("completeness", "Completeness", "float"), Column("reasons", "Reasons")],
        rows, rows_total=valid,
        note="FAIL before WARN before PASS; then highest hallucination, lowest relevance, "
             "lowest completeness.")]
    for p in items[: lim.worst_cases]:
        blocks.append(Case(
            id=p["id"], source=p["source"], verdict=p["verdict"],
            headline=case_headline(p),
            reasons=p["reasons"], fields=p["fields"], query=p["query"],
            response=p["response"], context=p["context"], anchors=p["anchors"],
            response_cut=p["response_cut"], context_cut=p["context_cut"],
            anchors_cut=p["anchors_cut"]))
    return Section("worst", "Worst cases", tuple(blocks),
                   intro=f"The {min(lim.worst_cases, len(items))} worst responses in full: "
                         "anchors marked green when the context supports them, red when not; "
                         "evidence marked in the context.")


def case_headline(p: dict) -> str:
    """What a collapsed worst case says: id, the query, the first reason, where it is.

    >>> case_headline({"id": "r7", "query": "What does the mug cost?", "source": "a.jsonl",
    ...                "line": 7, "reasons": ("hallucination 1.00 > 0.5 (safety first)",)})
    'r7 — “What does the mug cost?” — hallucination 1.00 > 0.5 (safety first) (a.jsonl line 7)'
    """
    parts = [str(p["id"])]
    if p.get("query"):
        parts.append(f"“{clip(' '.join(str(p['query']).split()), 90)}”")
    if p.get("reasons"):
        parts.append(clip(str(p["reasons"][0]), 90))
    where = f"{p['source']}" + (f" line {p['line']}" if p.get("line") else "")
    return " — ".join(parts) + (f" ({where})" if where else "")


# ----------------------------------------------------------------------------- calibration


def calibration(b: ReportStats) -> Section:
    """Agreement with human labels, when the records carry any."""
    return cal.section(b)


# ----------------------------------------------------------------------------- provenance


def configuration(b: ReportStats) -> Section:
    """The configuration used: every threshold and weight."""
    rows = []
    for section, values in b.config.to_dict().items():
        for key, value in values.items():
            rows.append((section, key, value))
    blocks: list = [Table.from_rows(
        "config", "Scoring configuration",
        [Column("section", "Section", "code"), Column("key", "Key", "code"),
         Column("value", "Value", "code")], rows,
        note="Used to score raw records in this run and to draw the thresholds; records "
             "already scored keep the verdicts they carry.")]
    settings = b.registry.settings
    if dataclasses.is_dataclass(settings):
        jrows = []
        for group in dataclasses.fields(settings):
            part = getattr(settings, group.name)
            if not dataclasses.is_dataclass(part):
                continue
            for f in dataclasses.fields(part):
                jrows.append((group.name, f.name, _setting(getattr(part, f.name))))
        blocks.append(Table.from_rows(
            "judge-config", "Judge settings (registry)",
            [Column("section", "Section", "code"), Column("key", "Key", "code"),
             Column("value", "Value", "code")], jrows))
    return Section("configuration", "Configuration", tuple(blocks))


def _setting(value):
    """A registry setting as plain text or number (nested specs shown compactly)."""
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    if dataclasses.is_dataclass(value):
        return _setting({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(_setting(v)) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_setting(v)}" for k, v in value.items()) + "}"
    return str(value)


def provenance(b: ReportStats) -> Section:
    """Versions and the input files' hashes."""
    rows = [(f.path, f.records, ", ".join(f"{k}: {n}" for k, n in f.kinds), f.size_bytes,
             f.sha256) for f in b.inputs]
    return Section("provenance", "Provenance", (
        Stats((Stat("evaltools", __version__), Stat("Python", platform.python_version()))),
        Table.from_rows("inputs", "Input files",
                        [Column("path", "File", "code"), Column("records", "Records", "int"),
                         Column("kinds", "Kinds"), Column("bytes", "Bytes", "int"),
                         Column("sha256", "SHA-256", "code")], rows),
    ))
