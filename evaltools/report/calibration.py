"""The calibration section: automatic scores and verdicts against human labels.

Every number comes from :mod:`evaltools.calibration` (ROC/PR curves, the
spec's thresholds and recommended ones, verdict agreement and kappa,
reliability of the learned probability, worst disagreements); this module
arranges its results into tables and figures. A part whose labels cannot be
used (one class only, values that are not labels) is replaced by a sentence
saying why, never by an error.
"""

from __future__ import annotations

import math
from typing import Any

from evaltools import calibration as cal
from evaltools import plots
from evaltools.report.model import Column, Figure, Section, Stat, Stats, Table, Text
from evaltools.report.stats import ReportStats
from evaltools.scoring.result import VERDICTS
from evaltools.values import binary_label, is_finite_number


def _binary(v: Any) -> int | None:
    """:func:`evaltools.values.binary_label`, with None for a value that is not a label
    (the section says which part it cannot show rather than stopping the report)."""
    try:
        return binary_label(v)
    except ValueError:
        return None


def _pairs(labels, scores, *, flip: bool = False) -> tuple[list[int], list[float]]:
    ys, ss = [], []
    for lab, sc in zip(labels, scores, strict=True):
        y = _binary(lab)
        if y is None or not is_finite_number(sc):
            continue
        ys.append(1 - y if flip else y)
        ss.append(float(sc))
    return ys, ss


def _verdict_rows(agreement) -> list[tuple]:
    rows = []
    for lab, counts in zip(agreement.labels, agreement.confusion, strict=True):
        rows.append((lab, *counts, sum(counts)))
    return rows


def agreement_blocks(id: str, title: str, human, predicted, labels, *,
                     reference: str = "Reference") -> list:
    """Stats, a note on kappa and the confusion table of two verdict series
    (:func:`evaltools.calibration.verdict_agreement`); the matrix is shown once, as a table."""
    pairs = [(h, p) for h, p in zip(human, predicted, strict=True)
             if h in labels and p in labels]
    if not pairs:
        return [Text(f"{title}: no records with both verdicts.")]
    a = cal.verdict_agreement([h for h, _ in pairs], [p for _, p in pairs], labels=labels)
    seen = {v for pair in pairs for v in pair}
    kappa = "—" if math.isnan(a.kappa) else f"{a.kappa:.3f}"
    stats = [Stat(f"{title}: records", a.n), Stat("Agreement", f"{100 * a.accuracy:.1f}%")]
    if len(seen) > 2:
        stats += [
            Stat("Cohen's kappa", kappa, help="agreement beyond chance; every disagreement "
                                              "counts the same"),
            Stat("Weighted kappa", "—" if math.isnan(a.weighted_kappa)
                 else f"{a.weighted_kappa:.3f}",
                 help="linearly weighted: PASS against FAIL counts twice PASS against WARN")]
    else:  # with two verdicts, the linearly weighted kappa is Cohen's kappa
        stats.append(Stat("Cohen's kappa", kappa,
                          help="agreement beyond chance; with two verdicts the weighted "
                               "kappa is the same number, so it is not shown"))
    stats.append(Stat("Disagreements", a.n_disagree))
    note = ("Kappa: agreement beyond chance (1 perfect, 0 no better than chance). "
            + ("Cohen's counts every disagreement the same; the linearly weighted one counts "
               "PASS against FAIL twice PASS against WARN, so it is higher when most "
               "disagreements are one step apart." if len(seen) > 2 else
               "With two verdicts the linearly weighted kappa equals Cohen's, so only one "
               "is shown."))
    blocks: list = [Stats(tuple(stats)), Text(note)]
    blocks.append(Table.from_rows(
        id, f"{title}: confusion (rows: {reference.lower()}, columns: evaltools)",
        [Column("reference", reference, "verdict"),
         *(Column(f"p_{lab}", lab, "int") for lab in a.labels), Column("total", "Total", "int")],
        _verdict_rows(a)))
    return blocks


def section(b: ReportStats) -> Section:
    """The calibration section over the labelled records the builder kept."""
    lab = b.labelled
    n_lab = len(lab["id"])
    blocks: list = []
    if not n_lab and not b.judge_labels:
        return Section("calibration", "Calibration", (Text(
            "No human labels in the inputs (label_hallucinated, label_relevant, "
            "label_verdict): nothing to calibrate against."),))
    if n_lab:
        blocks.extend(_scoring_blocks(b))
    if b.judge_labels:
        blocks.extend(agreement_blocks(
            "judge-human-confusion", "Judge verdicts vs human verdicts",
            [h for h, _ in b.judge_labels], [p for _, p in b.judge_labels], ("PASS", "FAIL"),
            reference="Human"))
    return Section("calibration", "Calibration", tuple(blocks),
                   intro="Automatic scores and verdicts held against human labels. "
                         "Positive cases: hallucinated (label_hallucinated = 1) and "
                         "irrelevant (label_relevant = 0).")


def _scoring_blocks(b: ReportStats) -> list:
    import pandas as pd

    lab = b.labelled
    lim = b.limits
    blocks: list = []
    hall_y, hall_s = _pairs(lab["label_hallucinated"], lab["hallucination"])
    irr_y, irr_s = _pairs(lab["label_relevant"], lab["relevance"], flip=True)
    blocks.append(Stats((
        Stat("Labelled responses", len(lab["id"])),
        Stat("with label_hallucinated", len(hall_y)),
        Stat("with label_relevant", len(irr_y)),
        Stat("with label_verdict", sum(v is not None for v in lab["label_verdict"])),
    )))
    rocs, prs, area_rows, notes = {}, {}, [], []
    curves = (("hallucination vs hallucinated", hall_y, hall_s, True),
              ("relevance vs irrelevant", irr_y, irr_s, False))
    for name, ys, ss, higher in curves:
        if not ys:
            continue
        if len(set(ys)) < 2:
            notes.append(f"{name}: the labels hold one class only; no curve.")
            continue
        try:
            r = cal.roc(ys, ss, higher_is_positive=higher)
            p = cal.pr(ys, ss, higher_is_positive=higher)
        except ValueError as exc:
            notes.append(f"{name}: {exc}")
            continue
        rocs[name], prs[name] = r, p
        area_rows.append((name, len(ys), r.n_positive, r.auc, p.average_precision,
                          p.prevalence))
    if rocs:
        for name, ys, ss, higher in curves:
            if name in rocs:
                score = name.split()[0]
                blocks.append(Figure(
                    f"curves-{score}", f"ROC and precision-recall: {name}",
                    plots.figure_to_svg(plots.roc_pr(ys, {score: ss},
                                                       higher_is_positive={score: higher})),
                    alt=f"ROC and precision-recall curves of {name}."))
        blocks.append(Table.from_rows(
            "calibration-areas", "Areas under the curves",
            [Column("score", "Score vs label", "code"), Column("n", "Records", "int"),
             Column("positives", "Positives", "int"), Column("roc_auc", "ROC AUC", "float"),
             Column("ap", "Average precision", "float"),
             Column("prevalence", "Prevalence", "percent")], area_rows))
    blocks.extend(Text(n, tone="warn") for n in notes)
    frame = pd.DataFrame({k: v for k, v in lab.items()})
    for col in ("label_hallucinated", "label_relevant"):
        frame[col] = [_binary(v) for v in frame[col]]
    n_lab = len(lab["id"])
    search = n_lab <= lim.recommend_records
    try:
        table = cal.threshold_table(frame, config=b.config,
                                    criteria=("youden", "f1") if search else ())
    except ValueError as exc:
        blocks.append(Text(f"Thresholds: {exc}", tone="warn"))
    else:
        cols = [Column("check", "Check"), Column("source", "Threshold from"),
                Column("rule", "Rule", "code"), Column("threshold", "Threshold", "float"),
                Column("n", "Records", "int"), Column("precision", "Precision", "float"),
                Column("recall", "Recall", "float"), Column("f1", "F1", "float"),
                Column("accuracy", "Accuracy", "float"), Column("kappa", "Kappa", "float"),
                Column("youden_j", "Youden J", "float"),
                Column("flagged_share", "Flagged", "percent")]
        records = table.to_dict("records")
        # A "recommended" threshold that flags every record (or none) separates nothing:
        # it is not a recommendation (e.g. "completeness <= 1, flagged 100%").
        useless = sorted({f"{r['check']} ({r['source']})" for r in records
                          if r["source"] != "spec" and r["flagged_share"] in (0.0, 1.0)})
        records = [r for r in records
                   if r["source"] == "spec" or r["flagged_share"] not in (0.0, 1.0)]
        rows = [tuple(None if isinstance(v, float) and math.isnan(v) else v
                      for v in (r[c.key] for c in cols)) for r in records]
        note = ("'spec' rows are the configured thresholds as they stand; 'youden' and "
                "'f1' rows the thresholds that maximise Youden's J and F1 on these labels.")
        if useless:
            note += (" Not shown, because the best threshold found flags every record or "
                     "none (the score does not separate these labels): "
                     + ", ".join(useless) + ".")
        if not search:
            note = (f"The configured thresholds as they stand. Recommended thresholds are "
                    f"searched for at most {lim.recommend_records:,} labelled records "
                    f"(here {n_lab:,}); use evaltools.calibration.recommend_threshold or "
                    f"the calibration notebook.")
        blocks.append(Table.from_rows(
            "thresholds", "Thresholds: the spec's and recommended ones" if search
            else "Thresholds: the spec's", cols, rows, note=note))
    verdict_labels = VERDICTS
    if any(v in verdict_labels for v in lab["label_verdict"]):
        blocks.extend(agreement_blocks("verdict-confusion", "Verdicts vs human verdicts",
                                       lab["label_verdict"], lab["verdict"], verdict_labels,
                                       reference="Human"))
        try:
            worst = cal.worst_disagreements(frame, k=lim.table_rows)
        except ValueError as exc:
            blocks.append(Text(f"Worst disagreements: {exc}", tone="warn"))
        else:
            keys = [c for c in worst.columns]
            kinds = {"id": "code", "label_verdict": "verdict", "verdict": "verdict",
                     "relevance": "float", "completeness": "float", "hallucination": "float"}
            n_dis = sum(1 for h, p in zip(lab["label_verdict"], lab["verdict"], strict=True)
                        if h in verdict_labels and p in verdict_labels and h != p)
            blocks.append(Table.from_rows(
                "worst-disagreements", "Worst disagreements with human verdicts",
                [Column(k, k.replace("_", " "), kinds.get(k, "text")) for k in keys],
                [tuple(None if isinstance(v, float) and math.isnan(v) else v for v in row)
                 for row in worst.itertuples(index=False)], rows_total=n_dis))
    prob_y, prob_p = _pairs(lab["label_hallucinated"], lab["hallucination_probability"])
    if prob_y:
        try:
            rel = cal.reliability(prob_y, prob_p)
        except ValueError as exc:
            blocks.append(Text(f"Reliability: {exc}", tone="warn"))
        else:
            blocks.append(Figure("reliability", "Reliability of the hallucination probability",
                                 plots.figure_to_svg(plots.reliability_diagram(rel)),
                                 alt="Reliability diagram of hallucination_probability."))
            blocks.append(Table.from_rows(
                "reliability-bins", "Reliability bins",
                [Column("lower", "From", "float"), Column("upper", "To", "float"),
                 Column("count", "Records", "int"),
                 Column("mean_predicted", "Mean predicted", "float"),
                 Column("fraction_positive", "Fraction hallucinated", "float")],
                [(x.lower, x.upper, x.count, x.mean_predicted, x.fraction_positive)
                 for x in rel.bins],
                note=f"Brier score {rel.brier:.4f}; expected calibration error {rel.ece:.4f}."))
    return blocks
