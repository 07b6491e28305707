"""Plots for the report, as SVG text.

Figures are drawn with matplotlib (Agg, no display) and serialised to SVG
with text kept as text, no timestamp and a fixed id salt, so the same data
gives the same bytes. Plotting functions here only draw numbers they are
given; every score comes from the scorers, the judge or
:mod:`evaltools.calibration`.

Examples
--------
>>> svg = histograms_svg({"relevance": [0.1, 0.5, 0.9]}, title="Scores")
>>> svg.startswith("<svg") and "<script" not in svg
True
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Mapping, Sequence

from evaltools.highlight import VERDICT_COLOURS
from evaltools.scoring.result import VERDICT_ORDER

_HEAD = re.compile(r"\A.*?(?=<svg)", re.S)


def _plt():
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

    plt = _plt()
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


def histograms_svg(series: Mapping[str, Sequence[float]], *, title: str = "",
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
    str
        SVG text.
    """
    import numpy as np

    plt = _plt()
    names = list(series)
    fig, axes = plt.subplots(1, max(len(names), 1), figsize=(3.2 * max(len(names), 1), 2.6),
                             squeeze=False)
    for ax, name in zip(axes[0], names, strict=False):
        values = np.asarray(series[name], dtype=float)
        if values.size:
            counts, edges = np.histogram(values, bins=bins, range=value_range)
            ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge",
                   color="#4c72b0", edgecolor="white", linewidth=0.5)
        else:
            ax.text(0.5, 0.5, "no values", ha="center", va="center", transform=ax.transAxes)
        marks = (thresholds or {}).get(name, ())
        if marks and values.size:  # head room: the threshold labels sit above the bars
            ax.set_ylim(0, ax.get_ylim()[1] * (1.15 + 0.12 * len(marks)))
        for i, (value, label) in enumerate(marks):
            # Every threshold line says its value; ids let a test pair lines and labels.
            ax.axvline(value, color="#c62828", linestyle="--", linewidth=1,
                       gid=f"ev-threshold-line-{i}")
            right = value >= value_range[0] + 0.6 * (value_range[1] - value_range[0])
            ax.text(value, 1.0 - 0.1 * i, f" {label} {value:g} " if label else f" {value:g} ",
                    color="#c62828", fontsize=9, va="top", ha="right" if right else "left",
                    transform=ax.get_xaxis_transform(), gid=f"ev-threshold-label-{i}",
                    bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1})
        ax.set_xlim(*value_range)
        ax.set_title(f"{name} (n={values.size:,})", fontsize=10)
        ax.tick_params(labelsize=9)
        ax.spines[["top", "right"]].set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return figure_to_svg(fig)


def verdict_bars_svg(groups: Mapping[str, Mapping[str, int]], *, title: str = "",
                     order: Sequence[str] = VERDICT_ORDER) -> str:
    """Horizontal stacked bars of verdict shares, one bar per group.

    Parameters
    ----------
    groups : mapping of group name to {verdict: count}
    title : str
    order : verdicts in stacking order; verdicts absent from every group are skipped.

    Returns
    -------
    str
        SVG text.

    Examples
    --------
    >>> svg = verdict_bars_svg({"M01": {"PASS": 3, "FAIL": 1}})
    >>> "PASS" in svg
    True
    """
    plt = _plt()
    names = list(groups)
    used = [v for v in order if any(groups[g].get(v) for g in names)]
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * max(len(names), 1) + 1.0))
    left = [0.0] * len(names)
    for v in used:
        shares = []
        for g in names:
            total = sum(groups[g].values()) or 1
            shares.append(groups[g].get(v, 0) / total)
        ax.barh(names, shares, left=left, color=VERDICT_COLOURS.get(v, "#4c72b0"), label=v,
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
    return figure_to_svg(fig)

