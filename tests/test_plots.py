"""Plots return figures with the panels, curves and marks they promise."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib.text
import pytest
from matplotlib.figure import Figure

from evaltools import plots
from evaltools.calibration import (
    CurvePoint,
    LearningCurve,
    reliability,
    threshold_sweep,
    verdict_agreement,
)
from evaltools.config import load_config


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


RECORDS = [
    {"relevance": 0.05, "completeness": 0.2, "hallucination": 0.0, "label_hallucinated": 0,
     "verdict": "FAIL", "label_verdict": "FAIL"},
    {"relevance": 0.5, "completeness": 1.0, "hallucination": 0.55, "label_hallucinated": 0,
     "verdict": "FAIL", "label_verdict": "PASS"},
    {"relevance": 0.4, "completeness": 0.5, "hallucination": 0.7, "label_hallucinated": 1,
     "verdict": "FAIL", "label_verdict": "FAIL"},
    {"relevance": 0.3, "completeness": 0.9, "hallucination": 0.2, "label_hallucinated": 1,
     "verdict": "PASS", "label_verdict": "WARN"},
]


def test_score_distributions_panels_and_spec_lines():
    fig = plots.score_distributions(RECORDS)
    assert isinstance(fig, Figure)
    assert [ax.get_title() for ax in fig.axes] == ["relevance", "completeness", "hallucination"]
    hall = fig.axes[2]
    xs = sorted(line.get_xdata()[0] for line in hall.get_lines())
    assert xs == [0.5, 0.6]  # fail_above and high_risk_above
    assert [t.get_text() for t in hall.get_legend().get_texts()] == [
        "label_hallucinated = 0 (n=2)", "label_hallucinated = 1 (n=2)"]


def test_score_distributions_follow_config_and_work_unlabelled():
    cfg = load_config().replace(relevance={"fail_below": 0.25})
    fig = plots.score_distributions(RECORDS, scores=["relevance"], label=None, config=cfg)
    assert fig.axes[0].get_lines()[0].get_xdata()[0] == 0.25
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == "all (n=4)"


def test_roc_pr_legends_carry_the_areas():
    y = [r["label_hallucinated"] for r in RECORDS]
    fig = plots.roc_pr(y, {"hallucination": [r["hallucination"] for r in RECORDS],
                           "relevance": [r["relevance"] for r in RECORDS]},
                       higher_is_positive={"relevance": False})
    roc_ax, pr_ax = fig.axes
    labels = [t.get_text() for t in roc_ax.get_legend().get_texts()]
    assert labels[0].startswith("hallucination (AUC ") and labels[1].startswith("relevance")
    assert pr_ax.get_legend().get_texts()[-1].get_text() == "chance (0.50)"


def test_threshold_sweep_marks():
    y = [r["label_hallucinated"] for r in RECORDS]
    sw = threshold_sweep(y, [r["hallucination"] for r in RECORDS])
    fig = plots.threshold_sweep(sw, score="hallucination", marks={"spec": 0.5, "J": 0.2},
                                metrics=["f1", "kappa"])
    ax = fig.axes[0]
    assert len(ax.get_lines()) == 4
    assert "flag when hallucination > threshold" in ax.get_xlabel()


def test_reliability_diagram_one_or_many():
    rel = reliability([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9], n_bins=4)
    fig = plots.reliability_diagram(rel)
    assert fig.axes[0].get_title() == "Reliability" and len(fig.axes) == 2
    fig2 = plots.reliability_diagram({"a": rel, "b": rel})
    assert len(fig2.axes[0].get_lines()) == 3  # diagonal + two curves
    assert len(fig2.axes[1].patches) == 8


def test_confusion_matrix_annotates_counts():
    agreement = verdict_agreement([r["label_verdict"] for r in RECORDS],
                                  [r["verdict"] for r in RECORDS])
    fig = plots.confusion_matrix(agreement)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["0", "0", "1", "1", "0", "0", "0", "0", "2"]
    assert fig.axes[0].get_title().startswith("kappa ")


def test_verdict_mix_counts():
    fig = plots.verdict_mix(RECORDS)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == [1, 0, 3, 1, 1, 2]  # predicted, then human
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["verdict", "label_verdict"]


# ------------------------------------------------------------------ legibility of every figure


_CURVE = LearningCurve((CurvePoint(25, 25.5, 5, (0.7, 0.8, 0.75), (0.6, 0.7, 0.65), 0),
                        CurvePoint(50, 50.0, 5, (0.85, 0.9, 0.8), (0.75, 0.8, 0.7), 0),
                        CurvePoint(74, 74.0, 5, (0.9, 0.91, 0.89), (0.8, 0.82, 0.78), 1)),
                       n_total=74, grouped=True, folds=5, repeats=3, seed=0)


def test_learning_curve_plots_means_bands_and_every_run():
    fig = plots.learning_curve({"here": _CURVE})
    auroc, f1 = fig.axes
    mean = auroc.get_lines()[0]
    assert list(mean.get_xdata()) == [25, 50, 74]
    assert list(mean.get_ydata()) == pytest.approx([0.75, 0.85, 0.9])
    assert list(f1.get_lines()[0].get_ydata()) == pytest.approx([0.65, 0.75, 0.8])
    dots = auroc.collections[-1].get_offsets()
    assert len(dots) == 9  # three runs at each of three sizes
    assert [t.get_text() for t in auroc.get_xticklabels()] == ["25", "50", "74"]
    legend = [t.get_text() for t in auroc.get_legend().get_texts()]
    assert "chance (0.5)" in legend and "here: mean of 3 subsamples" in legend


def _every_figure():
    """One figure of each public function of evaltools.plots, on small hand-made inputs."""
    from evaltools.judging.module_audit import module_audit

    y = [r["label_hallucinated"] for r in RECORDS]
    hall = [r["hallucination"] for r in RECORDS]
    rel = reliability([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9], n_bins=4)
    data = Path(__file__).resolve().parent.parent / "data" / "judgments.jsonl"
    return {
        "score_distributions": plots.score_distributions(RECORDS),
        "roc_pr": plots.roc_pr(y, {"hallucination": hall,
                                   "relevance": [r["relevance"] for r in RECORDS]}),
        "threshold_sweep": plots.threshold_sweep(threshold_sweep(y, hall), score="hallucination",
                                                 marks={"spec FAIL": 0.5, "spec high risk": 0.6,
                                                        "Youden's J": 0.2}),
        "reliability_diagram": plots.reliability_diagram({"fitted": rel, "shipped": rel}),
        "learning_curve": plots.learning_curve(_CURVE),
        "confusion_matrix": plots.confusion_matrix(verdict_agreement(
            [r["label_verdict"] for r in RECORDS], [r["verdict"] for r in RECORDS])),
        "verdict_mix": plots.verdict_mix(RECORDS),
        "plot_module_audit": plots.plot_module_audit(module_audit(data, "M01")),
        "plot_module_audit boolean": plots.plot_module_audit(module_audit(data, "M15")),
        "histograms": plots.histograms({"total_score": [10, 70, 95], "empty": []},
                                       value_range=(0, 100),
                                       thresholds={"total_score": [(70, "PASS at")]}),
        "verdict_bars": plots.verdict_bars({"M01": {"PASS": 3, "FAIL": 1}, "M02": {"FAIL": 2}}),
    }


def _texts(fig):
    return [t for t in fig.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text().strip() and t.figure is fig]


def test_every_public_plot_is_covered():
    # the *_svg functions give one of these figures as SVG text
    public = {n for n in dir(plots) if not n.startswith("_") and callable(getattr(plots, n))
              and getattr(getattr(plots, n), "__module__", "") == plots.__name__
              and not n.endswith("svg")}
    assert public <= {k.split()[0] for k in _every_figure()}


def test_no_legend_covers_data_or_labels():
    for key, fig in _every_figure().items():
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        texts = _texts(fig)
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is None:
                continue
            box = legend.get_window_extent(r)
            inside = set(legend.get_texts()) | {legend.get_title()}
            assert not box.overlaps(ax.get_window_extent(r)), f"{key}: legend on the data"
            for t in texts:
                if t not in inside:
                    assert not box.overlaps(t.get_window_extent(r)), \
                        f"{key}: legend covers {t.get_text()!r}"


def test_text_is_legible_and_threshold_labels_are_level():
    for key, fig in _every_figure().items():
        for t in _texts(fig):
            assert t.get_fontsize() >= 9, f"{key}: {t.get_text()!r} at {t.get_fontsize()} pt"
            ylabels = {ax.yaxis.label for ax in fig.axes}
            if t not in ylabels:
                assert t.get_rotation() == 0, f"{key}: {t.get_text()!r} rotated"


def _threshold_lines(ax):
    """Vertical or horizontal straight lines spanning the axes (axvline / axhline)."""
    for line in ax.get_lines():
        xs, ys = list(line.get_xdata()), list(line.get_ydata())
        if len(xs) == 2 and xs[0] == xs[1] and list(ys) == [0, 1]:
            yield float(xs[0])
        elif len(ys) == 2 and ys[0] == ys[1] and list(xs) == [0, 1] and \
                line.get_transform() is not ax.transData:
            yield float(ys[0])


def test_every_threshold_line_says_its_value():
    seen = 0
    for key, fig in _every_figure().items():
        for ax in fig.axes:
            legend = ax.get_legend()
            words = [t.get_text() for t in ax.texts] + \
                    ([t.get_text() for t in legend.get_texts()] if legend else [])
            for value in _threshold_lines(ax):
                seen += 1
                shown = {f"{value:g}", f"{value:.2f}", f"{value:.3g}"}
                assert any(s in w for w in words for s in shown), \
                    f"{key}: the line at {value} does not say its value ({words})"
    assert seen >= 9


def test_threshold_labels_stand_clear_of_bars():
    from matplotlib.patches import Rectangle

    for key, fig in _every_figure().items():
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        for ax in fig.axes:
            values = list(_threshold_lines(ax))
            labels = [t for t in ax.texts if any(f"{v:g}" in t.get_text() for v in values)]
            bars = [b for b in ax.patches if isinstance(b, Rectangle) and b.get_height() > 0]
            for t in labels:
                box = t.get_window_extent(r)
                for b in bars:
                    assert not box.overlaps(b.get_window_extent(r)), \
                        f"{key}: {t.get_text()!r} is drawn over a bar"


def test_module_audit_f1_panel_marks_the_credit_bands():
    from evaltools.judging.module_audit import module_audit

    data = Path(__file__).resolve().parent.parent / "data" / "judgments.jsonl"
    fig = plots.plot_module_audit(module_audit(data, "M01"))
    ax = fig.axes[0]
    assert sorted(_threshold_lines(ax)) == [0.5, 0.8]
    assert [t.get_text() for t in ax.texts] == ["partial ≥ 0.5", "full ≥ 0.8"]
