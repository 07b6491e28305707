"""Per-module audit: what one pipeline module got right, and how far its LLM judge can be trusted.

:func:`module_audit` judges every record of one module with
:func:`evaltools.judge` (evaltools' own recomputation, which also audits each
LLM judge's JSON: :mod:`evaltools.judging.audit`), then
summarises them as tables for ``notebooks/03_module_audit.ipynb``:

- :meth:`ModuleAudit.correctness_mix` — EXACT/PARTIAL/NONE (YES/NO for
  boolean modules) counts and shares;
- :meth:`ModuleAudit.f1_summary` — the F1 distribution and credit bands
  (extraction modules);
- :meth:`ModuleAudit.confusion` — expected against output labels
  (classification and boolean modules);
- :meth:`ModuleAudit.rule_violations` — for each of the four rules, how often
  it is violated by evaltools' decision, by the automatic check, by the LLM
  judge, and how often judge and check disagree;
- :meth:`ModuleAudit.reasoning_spread` — the reasoning sub-scores' spread;
- :meth:`ModuleAudit.judge_findings` / :meth:`ModuleAudit.judge_overview` —
  how often, and how, the judge's own arithmetic or verdict is wrong;
- :meth:`ModuleAudit.failing` — the failing examples and why;

and :func:`modules_overview`, one row per module, for all modules at once.

Nothing here scores: every number comes from the judge calculators. The
Its figure is drawn by :func:`evaltools.plots.plot_module_audit` (presentation).

Examples
--------
>>> recs = [
...     {"id": "a", "module": "M15", "output": True, "expected": True,
...      "rules": [True, True, True, True],
...      "reasoning": {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}},
...     {"id": "b", "module": "M15", "output": False, "expected": True,
...      "judge": {"evaluation": {"correctness": {"score": 40, "match": True},
...                "rule_compliance": {"score": 40, "rules": [
...                    {"name": "r", "compliant": True, "score": 10}] * 4},
...                "reasoning_quality": {"score": 20, "chain_of_thought": 8,
...                    "evidence_usage": 8, "confidence_calibration": 4}},
...                "total_score": 100, "verdict": "PASS"}},
...     {"id": "c", "module": "M02", "output": "OWN", "expected": "OWN"}]
>>> audit = module_audit(recs, "M15")
>>> audit.n_records, audit.n_with_judge
(2, 1)
>>> audit.correctness_mix()["count"].to_dict()
{'YES': 1, 'NO': 1}
>>> audit.judge_overview()["verdict_differs"]
1
>>> audit.failing()["id"].tolist()
['b']
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.io import read_records
from evaltools.judging.audit import CODES, FINDING_KINDS
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.judging.result import JudgeResult
from evaltools.judging.stream import judge_records
from evaltools.judging.summary import ModuleStats
from evaltools.values import as_records, finite_float

__all__ = ["FINDING_KINDS", "ModuleAudit", "module_audit", "modules_overview"]

_LEVELS = {"boolean": ("YES", "NO"), "classification": ("EXACT", "PARTIAL", "NONE"),
           "extraction": ("EXACT", "PARTIAL", "NONE")}




def _records(records: Any) -> list[dict[str, Any]]:
    if isinstance(records, (str, Path)):
        return [rec for _, rec in read_records(records)]
    return as_records(records)


def _show(v: Any, width: int = 80) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(frozen=True)
class ModuleAudit:
    """One module's judged records and the judges' answers, with summary tables.

    Attributes
    ----------
    module : Module
        The registry's description (name, type, rules).
    records : tuple of dict
        The module's input records, in input order.
    results : tuple of JudgeResult
        evaltools' judgment of each record.
    judge_rules : tuple
        Per record: the LLM judge's four ``compliant`` answers (True, False or
        None each), or None when the record has no judge.
    """

    module: Module
    records: tuple[dict[str, Any], ...]
    results: tuple[JudgeResult, ...]
    judge_rules: tuple[tuple[bool | None, ...] | None, ...]
    registry: Registry

    # ------------------------------------------------------------ headline
    @property
    def n_records(self) -> int:
        return len(self.results)

    @property
    def n_with_judge(self) -> int:
        """Records that carry an LLM judge's result (audited)."""
        return self.stats().judged

    def stats(self) -> ModuleStats:
        """The module's counts, as ``evaltools judge`` and the report count them."""
        return ModuleStats.of(self.results)

    def frame(self):
        """One row per record: :meth:`JudgeResult.to_row` plus output and expected."""
        import pandas as pd

        rows = []
        for rec, res in zip(self.records, self.results, strict=True):
            row = res.to_row()
            row["output"] = rec.get("output")
            row["expected"] = rec.get("expected")
            rows.append(row)
        return pd.DataFrame(rows)

    def headline(self) -> str:
        """A few sentences with the module's main figures.

        Examples
        --------
        >>> module_audit([{"module": "M04", "output": True, "expected": True}],
        ...              "M04").headline().splitlines()[0]
        'M04 Competitor Brand Check (boolean): 1 record, 0 with an LLM judge.'
        """
        m, n, st = self.module, self.n_records, self.stats()
        lines = [f"{m.id} {m.name} ({m.type}): {n} record{'s' * (n != 1)}, "
                 f"{st.judged} with an LLM judge."]
        if st.mean_total is not None:
            lines.append(f"evaltools: {st.passed} PASS, {st.failed} FAIL; mean total "
                         f"{st.mean_total:.1f}/{self.registry.settings.verdict.max_total:g}.")
        o = self.judge_overview()
        if o["judged"]:
            lines.append(
                f"LLM judge: {o['with_findings']} of {o['judged']} judgments have findings, "
                f"{o['inconsistent']} inconsistent; arithmetic wrong in "
                f"{o['arithmetic_wrong']}, verdict inconsistent with its "
                f"own figures in {o['verdict_inconsistent']}, verdict different from "
                f"evaltools' in {o['verdict_differs']}.")
        return "\n".join(line for line in lines if line)

    # --------------------------------------------------------- correctness
    def correctness_mix(self):
        """Counts and shares of the match levels, all levels listed (YES/NO for boolean)."""
        import pandas as pd

        levels = list(_LEVELS[self.module.type])
        got = [r.correctness.match_level for r in self.results if r.correctness is not None]
        extra = sorted(set(got) - set(levels))
        counts = pd.Series([got.count(lv) for lv in levels + extra], index=levels + extra,
                           name="count", dtype="int64")
        total = int(counts.sum())
        out = pd.DataFrame({"count": counts,
                            "share": (counts / total).round(3) if total else counts * 0.0})
        out.index.name = "match_level"
        return out

    def match_rate(self) -> float | None:
        """Share of records whose output matches expected exactly (None without records)."""
        matches = [r.correctness.match for r in self.results if r.correctness is not None]
        return round(sum(matches) / len(matches), 3) if matches else None

    def f1_values(self):
        """The F1 of each record (extraction modules; empty otherwise)."""
        import pandas as pd

        return pd.Series([r.correctness.f1 for r in self.results
                          if r.correctness is not None and r.correctness.f1 is not None],
                         name="f1", dtype="float64")

    def f1_summary(self):
        """F1 distribution (count, mean, quartiles) and credit-band counts.

        For a module that is not an extraction module, one row saying so.
        """
        import pandas as pd

        if self.module.type != "extraction":
            return pd.DataFrame({"note": [f"{self.module.id} is a {self.module.type} "
                                          "module: no F1 (see the correctness mix)"]})
        f1 = self.f1_values()
        desc = f1.describe().round(3) if len(f1) else pd.Series(dtype="float64")
        bands = [r.correctness.credit_band for r in self.results if r.correctness is not None]
        rows = {k: desc.get(k) for k in ("count", "mean", "std", "min", "25%", "50%", "75%",
                                         "max")}
        rows["count"] = len(f1)
        for band in ("full", "partial", "low"):
            rows[f"credit {band}"] = bands.count(band)
        return pd.DataFrame({"f1": pd.Series(rows, dtype="object")})

    def confusion(self):
        """Expected (rows) against output (columns) labels, for classification and boolean
        modules: every label of the module listed, other outputs added as columns."""
        import pandas as pd

        m = self.module
        if m.type == "extraction":
            return pd.DataFrame({"note": [f"{m.id} is an extraction module: no confusion "
                                          "matrix (see the F1 distribution)"]})
        def key(v: Any) -> str:
            if m.type == "boolean":
                return "true" if v is True else "false" if v is False else str(v)
            return str(v)

        labels = ["true", "false"] if m.type == "boolean" else list(m.labels)
        exp = [key(r.correctness.expected_value) for r in self.results]
        out = [key(r.correctness.output_value) for r in self.results]
        cols = labels + sorted(set(out) - set(labels))
        rows = labels + sorted(set(exp) - set(labels))
        table = pd.DataFrame(0, index=pd.Index(rows, name="expected"),
                             columns=pd.Index(cols, name="output"), dtype="int64")
        for e, o in zip(exp, out, strict=True):
            table.loc[e, o] += 1
        return table

    # --------------------------------------------------------------- rules
    def rule_violations(self):
        """Each rule's violation frequency: evaltools' decision, the automatic check, the LLM
        judge, and where judge and check disagree.

        Columns: ``rule``, ``description``, ``check`` (the automatic check's name
        or ``-``), ``violated`` / ``assessed`` / ``violation_rate`` (evaltools'
        final decision), ``check_violated`` / ``check_decided``,
        ``judge_violated`` / ``judge_assessed`` / ``judge_violation_rate``,
        ``judge_vs_check`` (records where both decided and disagree),
        ``unassessed``.
        """
        import pandas as pd

        rows = []
        for i, rule in enumerate(self.module.rules):
            final = [r.rule_compliance.rules[i] for r in self.results]
            decided = [x.compliant for x in final if x.compliant is not None]
            checks = [x.check for x in final if x.check is not None]
            judge = [jr[i] for jr in self.judge_rules if jr is not None and jr[i] is not None]
            both = [(x.check, jr[i]) for x, jr in zip(final, self.judge_rules, strict=True)
                    if jr is not None and jr[i] is not None and x.check is not None]
            rows.append({
                "rule": f"{i + 1}. {rule.name}",
                "description": rule.description,
                "check": rule.check or "-",
                "violated": decided.count(False),
                "assessed": len(decided),
                "violation_rate": round(decided.count(False) / len(decided), 3)
                if decided else None,
                "check_violated": checks.count(False),
                "check_decided": len(checks),
                "judge_violated": judge.count(False),
                "judge_assessed": len(judge),
                "judge_violation_rate": round(judge.count(False) / len(judge), 3)
                if judge else None,
                "judge_vs_check": sum(c != j for c, j in both),
                "unassessed": sum(x.compliant is None for x in final),
            })
        return pd.DataFrame(rows)

    # ----------------------------------------------------------- reasoning
    def reasoning_spread(self):
        """Count, mean, std, min, median, max of each reasoning sub-score and the section
        score, with the maximum possible (unassessed sub-scores left out)."""
        import pandas as pd

        subs = [(s.name, s.max) for s in self.registry.settings.reasoning.subscores]
        subs.append(("score", self.registry.settings.reasoning.max_points))
        rows = []
        for name, top in subs:
            vals = pd.Series([getattr(r.reasoning_quality, name) for r in self.results
                              if r.reasoning_quality is not None
                              and getattr(r.reasoning_quality, name) is not None],
                             dtype="float64")
            rows.append({"sub_score": "reasoning total" if name == "score" else name,
                         "max": top, "count": len(vals),
                         "mean": round(vals.mean(), 2) if len(vals) else None,
                         "std": round(vals.std(), 2) if len(vals) > 1 else None,
                         "min": vals.min() if len(vals) else None,
                         "median": vals.median() if len(vals) else None,
                         "max_seen": vals.max() if len(vals) else None})
        return pd.DataFrame(rows)

    def reasoning_bands(self):
        """How many records fall in each scoring-guide band (``none`` = not assessed)."""
        import pandas as pd

        labels = [b.label for b in self.registry.settings.reasoning.bands]
        got = [r.reasoning_quality.band or "not assessed" for r in self.results
               if r.reasoning_quality is not None]
        names = labels + [x for x in ("not assessed",) if x in got]
        return pd.Series([got.count(b) for b in names], index=pd.Index(names, name="band"),
                         name="count", dtype="int64")

    # ---------------------------------------------------------- judge audit
    def judge_findings(self):
        """Each finding code met in this module: kind, records affected, findings, an example.

        Rows in :data:`evaltools.judging.audit.CODES` order; codes never met left out.
        """
        import pandas as pd

        rows = []
        for code in CODES:
            hits = [(r.id, f) for r in self.results for f in (r.audit or ()) if f.code == code]
            if not hits:
                continue
            rows.append({"code": code, "kind": FINDING_KINDS.get(code, "other"),
                         "records": len({rid for rid, _ in hits}), "findings": len(hits),
                         "example": f"{hits[0][0]}: {hits[0][1].message}"})
        return pd.DataFrame(rows, columns=["code", "kind", "records", "findings", "example"])

    def judge_findings_by_record(self):
        """One row per finding: record id, code, kind, path in the judge's JSON, message."""
        import pandas as pd

        rows = [{"id": r.id, "code": f.code, "kind": FINDING_KINDS.get(f.code, "other"),
                 "path": f.path, "message": f.message}
                for r in self.results for f in (r.audit or ())]
        return pd.DataFrame(rows, columns=["id", "code", "kind", "path", "message"])

    def judge_overview(self) -> dict[str, Any]:
        """How often the LLM judge is wrong, by kind, over the records it judged.

        Keys: ``judged``, ``with_findings``, ``inconsistent`` (arithmetic wrong
        or verdict inconsistent: :mod:`evaltools.judging.summary`),
        ``arithmetic_wrong`` (its own sums or rule scores do not add up),
        ``verdict_inconsistent`` (its verdict contradicts its own figures),
        ``verdict_differs`` (its verdict differs from evaltools'), ``correctness_wrong``,
        ``rules_contradict_checks``, ``format_broken``, ``total_gap_mean`` (mean
        absolute difference between its total and evaltools' total, where it gave a
        number) and
        ``total_gap_max``.
        """
        st = self.stats()
        judged = [r for r in self.results if r.audit is not None]
        gaps = []
        for r in judged:
            jt, total = finite_float(r.judge_total_score), finite_float(r.total_score)
            if jt is not None and total is not None:  # a 401-digit total is no number
                gaps.append(abs(jt - total))
        return {
            "judged": st.judged,
            "with_findings": st.with_findings,
            "inconsistent": st.inconsistent,
            "arithmetic_wrong": st.kinds["arithmetic"],
            "verdict_inconsistent": st.kinds["verdict"],
            "verdict_differs": st.verdict_differs,
            "correctness_wrong": st.kinds["correctness"],
            "rules_contradict_checks": st.kinds["rules"],
            "format_broken": st.kinds["format"],
            "total_gap_mean": round(sum(gaps) / len(gaps), 2) if gaps else None,
            "total_gap_max": round(max(gaps), 2) if gaps else None,
        }

    # ------------------------------------------------------------ examples
    def failing(self, *, include_judge_disagreements: bool = True):
        """The failing examples: evaltools FAIL, or (by default) a judge verdict that differs.

        Columns: ``id, output, expected, match_level, total_score, verdict,
        judge_verdict, judge_total_score, why`` (evaltools' verdict reason and
        the first issues).
        """
        import pandas as pd

        rows = []
        for rec, r in zip(self.records, self.results, strict=True):
            differs = r.judge_verdict is not None and r.judge_verdict != r.verdict
            if r.verdict != "FAIL" and not (include_judge_disagreements and differs):
                continue
            why = [r.verdict_reason or ""] + [i for i in r.issues[:3]]
            rows.append({"id": r.id, "output": _show(rec.get("output"), 60),
                         "expected": _show(rec.get("expected"), 60),
                         "match_level": r.correctness.match_level,
                         "total_score": r.total_score, "verdict": r.verdict,
                         "judge_verdict": r.judge_verdict,
                         "judge_total_score": r.judge_total_score,
                         "why": "; ".join(w for w in why if w)})
        return pd.DataFrame(rows, columns=["id", "output", "expected", "match_level",
                                           "total_score", "verdict", "judge_verdict",
                                           "judge_total_score", "why"])

    def to_dict(self) -> dict[str, Any]:
        """The summaries as plain JSON types."""
        def records(df):
            return json.loads(df.to_json(orient="records"))

        return {
            "module": self.module.id, "name": self.module.name, "type": self.module.type,
            "n_records": self.n_records, "n_with_judge": self.n_with_judge,
            "match_rate": self.match_rate(),
            "correctness_mix": records(self.correctness_mix().reset_index()),
            "rule_violations": records(self.rule_violations()),
            "reasoning_spread": records(self.reasoning_spread()),
            "judge_overview": self.judge_overview(),
            "judge_findings": records(self.judge_findings()),
            "failing": records(self.failing()),
        }


def module_audit(records: Any, module: str, *,
                 registry: Registry | None = None) -> ModuleAudit:
    """Judge one module's records and read their LLM judges' answers.

    Parameters
    ----------
    records : DataFrame, iterable of dict, or path
        Judging records (``data/judgments.jsonl`` shape); only those whose
        ``module`` is ``module`` are used. A path is read with
        :func:`evaltools.io.read_records`.
    module : str
        A module id of the registry, e.g. ``"M01"``.
    registry : Registry, optional

    Returns
    -------
    ModuleAudit

    Raises
    ------
    KeyError
        For a module id the registry does not know.
    evaltools.errors.InputError
        For a record that breaks the data contract.

    Examples
    --------
    >>> a = module_audit([{"module": "M02", "output": "OWN", "expected": "COMPETITOR"}], "M02")
    >>> int(a.confusion().loc["COMPETITOR", "OWN"])
    1
    >>> a.correctness_mix()["count"].to_dict()
    {'EXACT': 0, 'PARTIAL': 1, 'NONE': 0}
    """
    reg = registry or DEFAULT_REGISTRY
    m = reg.module(module)
    recs = [r for r in _records(records)
            if isinstance(r.get("module"), str) and r["module"].strip() == m.id]
    results = tuple(judge_records(recs, source=f"<{m.id} records>", registry=reg))
    return ModuleAudit(module=m, records=tuple(recs), results=results,
                       judge_rules=tuple(r.judge_rules for r in results), registry=reg)


#: What the overview's rate columns mean (printed under the table): two shares with
#: similar names that answer different questions.
OVERVIEW_COLUMNS = {
    "pass_rate": "share of records whose verdict is PASS (the report's 'Pass rate')",
    "match_rate": "share of records whose output matches the expected one exactly "
                  "(correctness EXACT or YES; the report's 'Full match'); a PASS may "
                  "match only partly",
}


def modules_overview(records: Any, *, modules: Iterable[str] | None = None,
                     registry: Registry | None = None):
    """One row per module: records, match rate, verdicts, and how often its LLM judge is wrong.

    Parameters
    ----------
    records : DataFrame, iterable of dict, or path
        Judging records of any modules.
    modules : iterable of str, optional
        Module ids (default: every module of the registry, in registry order).
    registry : Registry, optional

    Returns
    -------
    pandas.DataFrame
        Columns ``module, name, type, records, pass, fail, pass_rate, mean_total,
        match_rate, judged, judge_with_findings, inconsistent, arithmetic_wrong,
        verdict_inconsistent, verdict_differs``; modules without records are listed with 0
        records. ``pass_rate`` and ``match_rate`` are defined in :data:`OVERVIEW_COLUMNS`.

    Examples
    --------
    >>> df = modules_overview([{"module": "M04", "output": True, "expected": False}],
    ...                       modules=["M04", "M15"])
    >>> df[["module", "records", "match_rate", "fail"]].to_dict("records")
    [{'module': 'M04', 'records': 1, 'match_rate': 0.0, 'fail': 1}, \
{'module': 'M15', 'records': 0, 'match_rate': None, 'fail': 0}]
    """
    import pandas as pd

    reg = registry or DEFAULT_REGISTRY
    recs = _records(records)
    rows = []
    for mid in (list(modules) if modules is not None else list(reg.ids)):
        a = module_audit(recs, mid, registry=reg)
        st, o = a.stats(), a.judge_overview()
        mean = st.mean_total
        rows.append({"module": a.module.id, "name": a.module.name, "type": a.module.type,
                     "records": a.n_records, "pass": st.passed, "fail": st.failed,
                     "pass_rate": (round(st.passed / a.n_records, 3) if a.n_records
                                   else None),
                     "mean_total": round(mean, 2) if mean is not None else None,
                     "match_rate": a.match_rate(),
                     "judged": o["judged"], "judge_with_findings": o["with_findings"],
                     "inconsistent": o["inconsistent"],
                     "arithmetic_wrong": o["arithmetic_wrong"],
                     "verdict_inconsistent": o["verdict_inconsistent"],
                     "verdict_differs": o["verdict_differs"]})
    df = pd.DataFrame(rows)
    for col in ("pass_rate", "match_rate", "mean_total"):  # None, not NaN, without records
        df[col] = pd.Series([r[col] for r in rows], dtype="object", index=df.index)
    return df
