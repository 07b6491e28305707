"""The report's first section, "Needs attention": the few things a reader must see first.

Each alert is one line linking to the section or table that shows the detail:

- invalid records (kept with an error under ``--skip-invalid``);
- low agreement of the verdicts with human verdicts (Cohen's kappa below
  ``alerts.kappa_below``, computed by :func:`evaltools.calibration.spec_agreement`),
  with where calibrated thresholds are;
- modules whose FAIL rate is above ``alerts.module_fail_rate_above``;
- LLM judgments whose own JSON is inconsistent (arithmetic, verdicts that do
  not follow; the judge audit's findings).

Thresholds come from the config; this module only compares and words them.
"""

from __future__ import annotations

from evaltools.report.model import Alert, Section

#: Where calibrated thresholds are, named in the agreement alert.
CALIBRATION_POINTER = ("Thresholds fitted to labels: notebooks/02_calibration.ipynb; "
                       "a hallucination probability: evaltools calibrate")


def human_agreement(b):
    """How far the records' verdicts agree with their human verdicts (None without any)."""
    from evaltools.calibration.agreement import spec_agreement

    lab = b.labelled
    rows = [{"verdict": v, "label_verdict": h}
            for v, h in zip(lab["verdict"], lab["label_verdict"], strict=True)]
    return spec_agreement(rows) if rows else None


def alerts(b) -> list[Alert]:
    """The alerts of a :class:`~evaltools.report.stats.ReportStats`'s records."""
    cfg = b.config.alerts
    out: list[Alert] = []
    n_err = b.scored_errors + sum(m.counts.errors for m in b.modules.values())
    if n_err:
        out.append(Alert(f"{n_err:,} invalid record{'s' if n_err != 1 else ''}: kept with "
                         "an error and left out of every score", "table-invalid-records"))
    agreement = human_agreement(b)
    if agreement is not None and not agreement.kappa >= cfg.kappa_below:
        out.append(Alert(f"Low agreement with human labels: {agreement.sentence()}, "
                         f"below kappa {cfg.kappa_below:g}. {CALIBRATION_POINTER}",
                         "calibration"))
    failing = []
    for mid, m in sorted(b.modules.items()):
        judged = m.counts.valid
        rate = m.counts.failed / judged if judged else 0.0
        if rate > cfg.module_fail_rate_above:
            failing.append(f"{mid} ({100 * rate:.0f}% of {judged})")
    if failing:
        out.append(Alert(f"{len(failing)} module{'s' if len(failing) != 1 else ''} FAIL more "
                         f"than {100 * cfg.module_fail_rate_above:.0f}% of records: "
                         + ", ".join(failing), "table-modules"))
    inconsistent = sum(m.counts.inconsistent for m in b.modules.values())
    judged = sum(m.counts.judged for m in b.modules.values())
    if inconsistent:
        out.append(Alert(f"{inconsistent:,} of {judged:,} LLM judgments are inconsistent "
                         "(arithmetic wrong or a verdict that does not follow)",
                         "table-issue-kinds"))
    return out


def section(b) -> Section:
    """The "Needs attention" section; one reassuring line when nothing does."""
    found = alerts(b)
    if not found:
        found = [Alert("Nothing needs attention: no invalid records, no module failing "
                       "most records, no inconsistent LLM judgments and no low agreement "
                       "with human labels.", "summary", tone="ok")]
    return Section("alerts", "Needs attention", tuple(found))
