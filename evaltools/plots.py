"""Matplotlib figures of scores and their agreement with people.

Presentation only: every function takes records or the result objects of
:mod:`evaltools.calibration` and returns a :class:`matplotlib.figure.Figure`
(made with ``pyplot``, so ``plt.show()`` in a notebook displays it and
``plt.close(fig)`` frees it). Nothing here computes a score.

- :func:`score_distributions` — histograms of scores by human label, with
  the spec's thresholds marked.
- :func:`roc_pr` — ROC and precision-recall curves of several scores.
- :func:`threshold_sweep` — precision, recall, F1, accuracy, kappa against
  the threshold.
- :func:`reliability_diagram` — predicted probability against the observed rate.
- :func:`learning_curve` — cross-validated AUROC and F1 against the number of labels.
- :func:`confusion_matrix` — human against predicted verdicts.
- :func:`verdict_mix` — how many PASS / WARN / FAIL.
- :func:`histograms`, :func:`verdict_bars` — the report's histograms with
  threshold lines and its stacked verdict shares; :func:`figure_to_svg`,
  :func:`histograms_svg`, :func:`verdict_bars_svg` give them as SVG text (same
  data, same bytes).

The one figure module: one threshold line (:func:`_threshold_line`), one
histogram (:func:`_histogram`) and one set of verdict bar colours
(:func:`_verdict_colours`), all colours from :mod:`evaltools.palette`.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> fig = roc_pr([0, 0, 1, 1], {"hallucination": [0.1, 0.4, 0.35, 0.8]})
>>> [ax.get_title() for ax in fig.axes]
['ROC', 'Precision-recall']
>>> import matplotlib.pyplot as plt; plt.close(fig)
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from evaltools.config import DEFAULT_CONFIG
from evaltools.palette import (
    CONTRAST,
    GREY,
    LABEL_COLOURS,
    MUTED,
    SERIES,
    TEXT,
    VERDICT_COLOURS,
    WHITE,
)
from evaltools.scoring.result import VERDICT_ORDER, VERDICTS
from evaltools.scoring.verdict import SPEC_THRESHOLDS
from evaltools.text import figure_labels

_HEAD = re.compile(r"\A.*?(?=<svg)", re.S)


def _plt():
    import matplotlib.pyplot as plt

    return plt


def _frame(records):
    import pandas as pd

    return records if isinstance(records, pd.DataFrame) else pd.DataFrame(list(records))


def _legend_outside(ax, **kwargs):
    """A legend to the right of the axes, so it never covers bars, curves or threshold labels."""
    return ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False,
                     borderaxespad=0.0, **kwargs)


def _threshold_line(ax, value: float, text: str, *, row: int = 0, colour: str = TEXT,
                    style: str = "--"):
    """The one threshold line: vertical, labelled with its value (``text value``).

    Labels of several lines on one panel stack by ``row``, so close lines keep
    both labels readable; the ids (``ev-threshold-line-<row>`` and
    ``ev-threshold-label-<row>``) let a test pair each line with its label.
    """
    ax.axvline(value, color=colour, linestyle=style, linewidth=1,
               gid=f"ev-threshold-line-{row}")
    lo, hi = ax.get_xlim()
    right = value >= lo + 0.7 * (hi - lo)
    ax.annotate(f"{text} {value:g}" if text else f"{value:g}", (value, 1),
                xycoords=("data", "axes fraction"),
                xytext=(-3 if right else 3, -4 - 14 * row), textcoords="offset points",
                fontsize=9, va="top", ha="right" if right else "left", color=colour,
                gid=f"ev-threshold-label-{row}",
                bbox={"facecolor": WHITE, "edgecolor": "none", "alpha": 0.8, "pad": 1})


def _histogram(ax, values, edges, *, colour: str = SERIES, label: str | None = None,
               alpha: float = 1.0) -> None:
    """The one histogram: ``values`` counted into ``edges``, drawn as bars."""
    counts, _ = np.histogram(np.asarray(values, dtype=float), bins=edges)
    ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge", color=colour,
           edgecolor=WHITE, linewidth=0.5, alpha=alpha, label=label)


def _verdict_colours(labels: Sequence[str]) -> list[str]:
    """The palette's colour of each verdict (grey for anything else)."""
    return [VERDICT_COLOURS.get(v, GREY) for v in labels]


def score_distributions(records, scores: Sequence[str] = ("relevance", "completeness",
                                                          "hallucination"), *,
                        label: str | None = "label_hallucinated", bins: int = 20,
                        config=None):
    """Histograms of each score, split by a 0/1 human label, spec thresholds dashed.

    Parameters
    ----------
    records : DataFrame or iterable of dict
        Scored records.
    scores : sequence of str
        Score columns, one panel each.
    label : str or None, default "label_hallucinated"
        A 0/1 column to split by; None (or absent, or all null) draws one
        histogram.
    bins : int, default 20
        Equal-width bins over [0, 1].
    config : evaltools.config.Config, optional
        Where the thresholds come from.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = score_distributions([{"hallucination": 0.2, "label_hallucinated": 0},
    ...                            {"hallucination": 0.9, "label_hallucinated": 1}],
    ...                           scores=["hallucination"])
    >>> fig.axes[0].get_title()
    'hallucination'
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    config = config if config is not None else DEFAULT_CONFIG
    plt = _plt()
    df = _frame(records)
    fig, axes = plt.subplots(1, len(scores), figsize=(4.2 * len(scores), 3.4), squeeze=False)
    edges = np.linspace(0.0, 1.0, bins + 1)
    split = label is not None and label in df.columns and df[label].notna().any()
    for ax, name in zip(axes[0], scores, strict=True):
        values = df[name] if name in df.columns else None
        if values is None:
            ax.set_title(f"{name} (absent)")
            continue
        groups = ([(v, df.loc[df[label] == v, name]) for v in (0, 1)] if split
                  else [(None, values)])
        for key, vals in groups:
            vals = vals.dropna().astype(float)
            what = {0: f"{label} = 0", 1: f"{label} = 1", None: "all"}[key]
            _histogram(ax, vals, edges, colour=LABEL_COLOURS[key], alpha=0.6,
                       label=f"{what} (n={len(vals)})")
        ax.set_xlim(0, 1)
        lines = SPEC_THRESHOLDS.get(name, ())
        if lines:  # head room: the threshold labels sit above the tallest bar
            ax.set_ylim(0, ax.get_ylim()[1] * (1.15 + 0.12 * len(lines)))
        for i, rule in enumerate(lines):
            _threshold_line(ax, rule.threshold(config), rule.key, row=i)
        ax.set_title(name)
        ax.set_xlabel("score")
        # Below the panel (under the axis label): a legend in the corner would cover bars
        # and threshold labels.
        ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.24), ncol=1,
                  frameon=False)
    axes[0][0].set_ylabel("records")
    fig.tight_layout()
    return fig


def roc_pr(y_true, scores: Mapping[str, Any], *,
           higher_is_positive: Mapping[str, bool] | None = None):
    """ROC and precision-recall curves of several scores against one 0/1 label.

    Parameters
    ----------
    y_true : array-like of 0/1
    scores : mapping of name -> array-like
        Each score, same length as ``y_true``.
    higher_is_positive : mapping of name -> bool, optional
        False for a score whose *low* values flag the positive class.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels; legends give ROC AUC and average precision.

    Examples
    --------
    >>> fig = roc_pr([0, 1, 0, 1], {"a": [0.1, 0.9, 0.2, 0.8], "b": [0.5, 0.5, 0.4, 0.6]})
    >>> len(fig.axes[0].get_lines())  # two curves and the chance diagonal
    3
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    from evaltools.calibration.curves import pr, roc

    plt = _plt()
    hip = dict(higher_is_positive or {})
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    prevalence = None
    for name, s in scores.items():
        r = roc(y_true, s, higher_is_positive=hip.get(name, True))
        p = pr(y_true, s, higher_is_positive=hip.get(name, True))
        prevalence = p.prevalence
        ax1.plot(r.fpr, r.tpr, label=f"{name} (AUC {r.auc:.3f})")
        ax2.step(p.recall, p.precision, where="post",
                 label=f"{name} (AP {p.average_precision:.3f})")
    ax1.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
    ax1.set(title="ROC", xlabel="false-positive rate", ylabel="true-positive rate",
            xlim=(0, 1), ylim=(0, 1.02))
    if prevalence is not None:
        ax2.axhline(prevalence, color="grey", linestyle=":", linewidth=1,
                    label=f"chance ({prevalence:.2f})")
    ax2.set(title="Precision-recall", xlabel="recall", ylabel="precision", xlim=(0, 1),
            ylim=(0, 1.02))
    # Below each panel, under the axis label: inside, a legend covers the curves.
    for ax in (ax1, ax2):
        ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.16),
                  frameon=False)
    fig.tight_layout()
    return fig


def threshold_sweep(sweep, *, score: str = "score",
                    marks: Mapping[str, float] | None = None,
                    metrics: Sequence[str] = ("precision", "recall", "f1", "accuracy",
                                              "kappa")):
    """Metrics of a :class:`~evaltools.calibration.thresholds.ThresholdSweep` against
    the threshold, with named thresholds marked.

    Parameters
    ----------
    sweep : ThresholdSweep
    score : str
        The score's name, for the axis label.
    marks : mapping of name -> threshold, optional
        Vertical lines, e.g. ``{"spec 0.5": 0.5, "Youden": 0.41}``.
    metrics : sequence of str
        Fields of :class:`~evaltools.calibration.thresholds.ThresholdMetrics`.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from evaltools.calibration import threshold_sweep as sweep_of
    >>> sw = sweep_of([0, 0, 1, 1], [0.1, 0.6, 0.55, 0.9])
    >>> fig = threshold_sweep(sw, score="hallucination", marks={"spec": 0.5})
    >>> len(fig.axes[0].get_lines())
    6
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.5, 4))
    t = [r.threshold for r in sweep.rows]
    for m in metrics:
        ax.plot(t, [getattr(r, m) for r in sweep.rows], label=m)
    styles = [("black", "--"), ("black", "-."), ("tab:gray", ":"), ("tab:brown", "--"),
              ("tab:olive", "-.")]
    for i, (name, value) in enumerate((marks or {}).items()):
        colour, style = styles[i % len(styles)]
        ax.axvline(value, color=colour, linestyle=style, linewidth=1.2,
                   label=f"{name} ({value:.3g})")
    direction = sweep.rows[0].direction if sweep.rows else "above"
    op = ">" if direction == "above" else "<"
    ax.set(xlabel=f"threshold (flag when {score} {op} threshold)", ylabel="metric",
           title=f"Threshold sweep: {score}", ylim=(-0.05, 1.05))
    _legend_outside(ax)
    fig.tight_layout()
    return fig


def reliability_diagram(reliability):
    """Observed rate of label 1 against mean predicted probability, per bin.

    Parameters
    ----------
    reliability : Reliability or mapping of name -> Reliability
        From :func:`evaltools.calibration.reliability`.

    Returns
    -------
    matplotlib.figure.Figure
        Top: the curve(s) with the diagonal of perfect calibration; bottom:
        records per bin.

    Examples
    --------
    >>> from evaltools.calibration import reliability
    >>> fig = reliability_diagram(reliability([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], n_bins=5))
    >>> fig.axes[0].get_title()
    'Reliability'
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    plt = _plt()
    items = reliability.items() if isinstance(reliability, Mapping) else [("", reliability)]
    items = list(items)
    fig, (ax, axh) = plt.subplots(2, 1, figsize=(8, 6), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1]})
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="perfect")
    width = None
    for i, (name, rel) in enumerate(items):
        full = [b for b in rel.bins if b.count]
        tag = f"{name} " if name else ""
        ax.plot([b.mean_predicted for b in full], [b.fraction_positive for b in full],
                marker="o", label=f"{tag}(Brier {rel.brier:.3f}, ECE {rel.ece:.3f})")
        width = min(b.upper - b.lower for b in rel.bins) / (len(items) + 0.5)
        axh.bar([b.lower + width * (i + 0.25) for b in rel.bins], [b.count for b in rel.bins],
                width=width, align="edge", alpha=0.7, label=name or None)
    ax.set(title="Reliability", ylabel="observed rate of label 1", xlim=(0, 1),
           ylim=(-0.02, 1.02))
    _legend_outside(ax)
    axh.set(xlabel="predicted probability", ylabel="records")
    fig.tight_layout()
    return fig


def learning_curve(curve):
    """Cross-validated AUROC and F1 of the learned probability against the number of labels.

    Parameters
    ----------
    curve : LearningCurve or mapping of name -> LearningCurve
        From :func:`evaltools.calibration.learning_curve` (module ``labelled_fit``).

    Returns
    -------
    matplotlib.figure.Figure
        Top: AUROC, bottom: F1 (at the threshold chosen on the other folds),
        each the mean over the random subsamples of a size, a band of ± one
        standard deviation between them and every subsample as a dot; the
        number of labels on a log scale. AUROC 0.5 (chance) is marked.

    Examples
    --------
    >>> from evaltools.calibration.labelled_fit import CurvePoint, LearningCurve
    >>> pts = (CurvePoint(25, 25.0, 5, (0.7, 0.8), (0.6, 0.7), 0),
    ...        CurvePoint(50, 50.0, 5, (0.85, 0.9), (0.75, 0.8), 0))
    >>> fig = learning_curve(LearningCurve(pts, n_total=50, grouped=False, folds=5,
    ...                                    repeats=2, seed=0))
    >>> [ax.get_title() for ax in fig.axes]
    ['AUROC (cross-validated)', 'F1 (threshold chosen on the other folds)']
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    plt = _plt()
    items = list(curve.items()) if isinstance(curve, Mapping) else [("", curve)]
    fig, axes = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    sizes: list[int] = []
    for i, (name, c) in enumerate(items):
        colour = f"C{i}"
        pts = [p for p in c.points if p.repeats]
        ns = np.asarray([p.n for p in pts], dtype=float)
        sizes += [p.n for p in pts]
        for ax, attr in zip(axes, ("auroc", "f1"), strict=True):
            mean = np.asarray([getattr(p, f"{attr}_mean") for p in pts])
            sd = np.nan_to_num(np.asarray([getattr(p, f"{attr}_sd") for p in pts]))
            tag = f"{name}: " if name else ""
            ax.plot(ns, mean, marker="o", color=colour,
                    label=f"{tag}mean of {c.repeats} subsamples")
            ax.fill_between(ns, mean - sd, mean + sd, color=colour, alpha=0.15,
                            label=f"{tag}± 1 sd")
            xs = [p.n for p in pts for _ in getattr(p, attr)]
            ys = [v for p in pts for v in getattr(p, attr)]
            ax.scatter(xs, ys, s=10, color=colour, alpha=0.4, label=f"{tag}each subsample")
    axes[0].axhline(0.5, color="grey", linestyle=":", linewidth=1, label="chance (0.5)")
    for ax, title, ylabel in ((axes[0], "AUROC (cross-validated)", "AUROC"),
                              (axes[1], "F1 (threshold chosen on the other folds)", "F1")):
        ax.set(title=title, ylabel=ylabel, ylim=(0, 1.02))
        ax.set_xscale("log", base=2)
        if sizes:
            ticks = sorted(set(sizes))
            ax.set_xticks(ticks, [str(t) for t in ticks])
            ax.minorticks_off()
        _legend_outside(ax)
    axes[1].set_xlabel("labels (records fitted on)")
    axes[0].tick_params(labelbottom=True)
    fig.tight_layout()
    return fig


def confusion_matrix(agreement, *, title: str | None = None, reference: str = "human verdict",
                     predicted: str = "predicted verdict"):
    """Heat map of a :class:`~evaltools.calibration.agreement.VerdictAgreement`.

    Parameters
    ----------
    agreement : VerdictAgreement
    title : str, optional
        Default: the kappas and accuracy.
    reference, predicted : str
        Axis labels of the rows (the reference verdicts) and the columns.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from evaltools.calibration import verdict_agreement
    >>> fig = confusion_matrix(verdict_agreement(["PASS", "FAIL"], ["PASS", "WARN"]))
    >>> fig.axes[0].get_ylabel()
    'human verdict'
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    >>> fig = confusion_matrix(verdict_agreement(["PASS"], ["FAIL"]), reference="LLM judge")
    >>> fig.axes[0].get_ylabel(); plt.close(fig)
    'LLM judge'
    """
    plt = _plt()
    cm = np.asarray(agreement.confusion)
    fig, ax = plt.subplots(figsize=(4.6, 4))
    ax.imshow(cm, cmap="Blues")
    labels = figure_labels(agreement.labels)  # user text: literal, cut, distinct
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    top = cm.max() if cm.size else 0
    for i in range(cm.shape[0]):
        for j in range(cm.shape[1]):
            ax.text(j, i, str(cm[i, j]), ha="center", va="center",
                    color="white" if top and cm[i, j] > top / 2 else "black")
    ax.set(xlabel=predicted, ylabel=reference,
           title=title or (f"kappa {agreement.kappa:.2f} · weighted {agreement.weighted_kappa:.2f}"
                           f" · accuracy {agreement.accuracy:.2f}"))
    fig.tight_layout()
    return fig


def verdict_mix(records, *, column: str = "verdict", human: str | None = "label_verdict",
                labels: Sequence[str] = VERDICTS):
    """Bar chart of verdict counts, beside the human verdicts when present.

    Parameters
    ----------
    records : DataFrame or iterable of dict
    column : str, default "verdict"
    human : str or None, default "label_verdict"
    labels : sequence of str

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = verdict_mix([{"verdict": "PASS"}, {"verdict": "FAIL"}])
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
    ['PASS', 'WARN', 'FAIL']
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    plt = _plt()
    df = _frame(records)
    series = [(column, df[column])] if column in df.columns else []
    if human and human in df.columns:
        series.append((human, df[human]))
    fig, ax = plt.subplots(figsize=(6, 3.4))
    x = np.arange(len(labels))
    width = 0.8 / max(len(series), 1)
    for i, (name, s) in enumerate(series):
        counts = [int((s == v).sum()) for v in labels]
        bars = ax.bar(x + i * width - 0.4 + width / 2, counts, width,
                      color=_verdict_colours(labels),
                      alpha=1.0 if i == 0 else 0.45, edgecolor="black", linewidth=0.5,
                      label=name, hatch=None if i == 0 else "//")
        ax.bar_label(bars, fontsize=9)
    ax.set_xticks(x, list(labels))
    ax.set(ylabel="records", title="Verdict mix")
    if len(series) > 1:
        _legend_outside(ax)
    fig.tight_layout()
    return fig


def plot_module_audit(audit):
    """One figure for a :class:`evaltools.judging.module_audit.ModuleAudit`:
    correctness mix (or F1 histogram), rule violations judge vs evaltools,
    reasoning sub-scores. Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4))
    if audit.module.type == "extraction" and len(audit.f1_values()):
        axes[0].hist(audit.f1_values(), bins=[i / 10 for i in range(11)],
                     color=SERIES, edgecolor=WHITE)
        axes[0].set(title="F1 and credit bands", xlabel="F1", ylabel="records", xlim=(0, 1))
        bands = audit.registry.settings.correctness
        # The credit bands, each line labelled with its value; head room keeps labels off bars.
        axes[0].set_ylim(0, axes[0].get_ylim()[1] * 1.45)
        for i, (value, text) in enumerate(((bands.partial_credit_f1, "partial ≥"),
                                           (bands.full_credit_f1, "full ≥"))):
            _threshold_line(axes[0], value, text, row=i, colour=MUTED)
    else:
        mix = audit.correctness_mix()["count"]
        axes[0].bar(mix.index.astype(str), mix.values, color=SERIES)
        axes[0].set(title="correctness mix", ylabel="records")
    rv = audit.rule_violations()
    x = range(len(rv))
    axes[1].bar([i - 0.2 for i in x], rv["violated"], width=0.4, label="evaltools",
                color=CONTRAST)
    axes[1].bar([i + 0.2 for i in x], rv["judge_violated"], width=0.4, label="LLM judge",
                color=GREY)
    axes[1].set_xticks(list(x), [f"rule {i + 1}" for i in x])
    axes[1].set_ylabel("records")
    axes[1].set_title("rule violations", pad=26)
    # Between the title and the bars, never on them.
    axes[1].legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2,
                   frameon=False, borderaxespad=0.2)
    subs = [s.name for s in audit.registry.settings.reasoning.subscores]
    data = [[getattr(r.reasoning_quality, s) for r in audit.results
             if r.reasoning_quality is not None
             and getattr(r.reasoning_quality, s) is not None] for s in subs]
    if any(data):
        axes[2].boxplot([d or [0] for d in data])
        axes[2].set_xticks(range(1, len(subs) + 1), [s.replace("_", "\n") for s in subs],
                           fontsize=9)
    axes[2].set(title="reasoning sub-scores", ylabel="points")
    from matplotlib.ticker import MaxNLocator

    for ax in axes[:2]:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"{audit.module.id} {audit.module.name}")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- the report's SVG figures


def _svg_plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


#: An SVG larger than this (a curve over very many points) is drawn as a PNG instead.
MAX_SVG_BYTES = 250_000


def figure_to_svg(fig, *, max_bytes: int = MAX_SVG_BYTES, dpi: int = 96) -> str:
    """A matplotlib figure as inline SVG text (no XML prolog), then closed.

    Text stays text, there is no timestamp and ids are salted, so the same
    figure gives the same bytes. A figure whose vector form exceeds
    ``max_bytes`` (a curve over 100k points) is rasterised: the SVG then
    wraps one PNG as a ``data:`` image, so every figure's size is bounded.

    Examples
    --------
    >>> plt = _plt()
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1])
    >>> figure_to_svg(fig)[:4]
    '<svg'
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot(range(5000), range(5000), marker=".")
    >>> svg = figure_to_svg(fig, max_bytes=10_000)
    >>> "data:image/png;base64," in svg and len(svg) < 100_000
    True
    """
    import matplotlib

    plt = _svg_plt()
    try:
        buf = io.StringIO()
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "evaltools"}):
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None},
                        bbox_inches="tight")
        svg = _HEAD.sub("", buf.getvalue()).strip()
        if len(svg) <= max_bytes:
            return svg
        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=dpi, bbox_inches="tight",
                    metadata={"Software": None})
    finally:
        plt.close(fig)
    from PIL import Image

    png.seek(0)
    with Image.open(png) as im:
        width, height = im.size
    data = base64.b64encode(png.getvalue()).decode("ascii")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><image width="{width}" height="{height}" '
            f'href="data:image/png;base64,{data}"/></svg>')


def histograms(series: Mapping[str, Sequence[float]], *, title: str = "",
                   thresholds: Mapping[str, Sequence[tuple[float, str]]] | None = None,
                   bins: int = 20, value_range: tuple[float, float] = (0.0, 1.0)) -> str:
    """Side-by-side histograms, one per named series, with threshold lines.

    Parameters
    ----------
    series : mapping of name to numbers
        Values to bin; an empty series draws an empty panel saying so.
    title : str
        Figure title.
    thresholds : mapping of name to list of (value, label)
        Vertical dashed lines drawn on that series' panel, each labelled with
        its label and value (``PASS at 70``).
    bins : int
        Number of equal bins over ``value_range``.
    value_range : (float, float)
        The x range of every panel.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _svg_plt()
    names = list(series)
    fig, axes = plt.subplots(1, max(len(names), 1), figsize=(3.2 * max(len(names), 1), 2.6),
                             squeeze=False)
    for ax, name in zip(axes[0], names, strict=False):
        values = np.asarray(series[name], dtype=float)
        if values.size:
            _histogram(ax, values, np.linspace(*value_range, bins + 1))
        else:
            ax.text(0.5, 0.5, "no values", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlim(*value_range)
        marks = (thresholds or {}).get(name, ())
        if marks and values.size:  # head room: the threshold labels sit above the bars
            ax.set_ylim(0, ax.get_ylim()[1] * (1.15 + 0.12 * len(marks)))
        for i, (value, label) in enumerate(marks):
            _threshold_line(ax, value, label, row=i)
        ax.set_title(f"{name} (n={values.size:,})", fontsize=10)
        ax.tick_params(labelsize=9)
        ax.spines[["top", "right"]].set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def histograms_svg(series: Mapping[str, Sequence[float]], **options: Any) -> str:
    """:func:`histograms` as SVG text (the report's figure).

    >>> svg = histograms_svg({"relevance": [0.1, 0.5, 0.9]}, title="Scores")
    >>> svg.startswith("<svg") and "<script" not in svg
    True
    """
    return figure_to_svg(histograms(series, **options))


def verdict_bars(groups: Mapping[str, Mapping[str, int]], *, title: str = "",
                     order: Sequence[str] = VERDICT_ORDER) -> str:
    """Horizontal stacked bars of verdict shares, one bar per group.

    Parameters
    ----------
    groups : mapping of group name to {verdict: count}
    title : str
    order : verdicts in stacking order; verdicts absent from every group are skipped.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _svg_plt()
    names = list(groups)
    labels = figure_labels(names)  # user text: shown literally (no mathtext), cut, distinct
    used = [v for v in order if any(groups[g].get(v) for g in names)]
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * max(len(names), 1) + 1.0))
    left = [0.0] * len(names)
    for v, colour in zip(used, _verdict_colours(used), strict=True):
        shares = []
        for g in names:
            total = sum(groups[g].values()) or 1
            shares.append(groups[g].get(v, 0) / total)
        ax.barh(labels, shares, left=left, color=colour, label=v,
                edgecolor="white", linewidth=0.5)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of records", fontsize=9)
    ax.tick_params(labelsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    if used:
        ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def verdict_bars_svg(groups: Mapping[str, Mapping[str, int]], **options: Any) -> str:
    """:func:`verdict_bars` as SVG text (the report's figure).

    >>> svg = verdict_bars_svg({"M01": {"PASS": 3, "FAIL": 1}})
    >>> "PASS" in svg
    True
    """
    return figure_to_svg(verdict_bars(groups, **options))
