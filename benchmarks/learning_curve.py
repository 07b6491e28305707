"""Fitted on a user's labels: how good is the probability after 50, 100, 200, 400 labels?

    python benchmarks/learning_curve.py FILE... [--sizes 50 100 200 400] [--repeats 5]
        [--save-scored DIR] [--min-test 100] [--seed 0] [--features NAMES]
        [--prior lodo|none] [--C C] [--markdown] [--json OUT]

Each FILE holds labelled records (``query, context, response, label``; optional
``group``; ``benchmarks/devsets.py`` builds the development sets). For each file
and each size n, ``--repeats`` times: draw n records as whole groups at random
(:func:`evaltools.calibration.labelled_fit.draw_groups`' draw), fit the
probability on them with
:func:`evaltools.calibration.learned.fit_calibration` (5-fold grouped CV
inside, as ``evaltools calibrate`` does), choose its threshold on those n
alone (maximum F1 of their out-of-fold probabilities,
:func:`~evaltools.calibration.labelled_fit.recommend_probability_threshold`),
and measure on **the rest of the file** (records of groups not drawn): AUROC,
and precision, recall and F1 of ``p >= threshold``. A size that leaves fewer
than ``--min-test`` records (or one label only) for testing is left out.
Beside it, on the same test records: the word-overlap baseline "content words
absent" (no fitting), so a row says what the labels bought, and the F1 of
flagging every test record (what F1 is worth on a set that is mostly unfaithful).

The fit is the one ``evaltools calibrate`` runs on a user's labels: it starts
from a prior model (:func:`evaltools.calibration.labelled_fit.prior_options`:
the prior's log-odds beside every signal, strongly regularised). The shipped
prior was fitted on these very files, so here the prior of each file is
fitted **on the other files** (``--prior lodo``, the default: the shipped
model's features, each file and label weighing the same, as the shipped fit
does), which is what a new user's pipeline meets. The column "no labels" is
that prior's AUROC on the same test records, before any label of the file.
``--prior none`` fits from scratch (``fit_calibration``'s default features);
``--features`` (comma-separated) fits on other features.

Records are scored with :func:`evaltools.score_frame` first; a file that already
holds the score fields (written by ``--save-scored DIR``, or by ``evaltools
score``) is used as it is. Scored files go stale when the scorers change:
score again (delete DIR) after such a change.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration.baselines import baselines_frame  # noqa: E402
from evaltools.calibration.labelled_fit import (  # noqa: E402
    draw_groups,
    prior_options,
    recommend_probability_threshold,
)
from evaltools.calibration.learned import DEFAULT_FEATURES, fit_calibration  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402

BASELINE = "content_absent"


def load(path: Path, save_scored: Path | None):
    """The scored records of one file, with ``group`` (the record's own id when absent)."""
    t0 = time.perf_counter()
    df = score_labelled(read_labelled(path, label=None))
    if save_scored is not None:
        save_scored.mkdir(parents=True, exist_ok=True)
        tmp = save_scored / f"{path.stem}.jsonl.part"
        df.to_json(tmp, orient="records", lines=True, force_ascii=False)
        tmp.replace(save_scored / f"{path.stem}.jsonl")
    if "error" in df.columns:
        df = df[df["error"].isna()].reset_index(drop=True)
    ids = df["id"].astype(str) if "id" in df.columns else df.index.astype(str)
    own = f"{path.stem}:" + ids
    df["group"] = (df["group"].astype(str).where(df["group"].notna(), own)
                   if "group" in df.columns else own)
    print(f"{path.name}: {len(df)} records in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    return df


def lodo_prior(frames):
    """The shipped model's recipe fitted on other files: its default features, each file
    and, within it, each label weighing the same."""
    import pandas as pd

    rows = pd.concat([f.assign(_set=i) for i, f in enumerate(frames)], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit_calibration(rows, label="label_hallucinated", groups=list(rows["group"]),
                               features=list(DEFAULT_FEATURES), strata=list(rows["_set"]),
                               balance=True).calibration


def prf(y: np.ndarray, flag: np.ndarray) -> tuple[float, float, float]:
    from sklearn.metrics import precision_recall_fscore_support

    p, r, f, _ = precision_recall_fscore_support(y, flag.astype(int), average="binary",
                                                 zero_division=0.0)
    return float(p), float(r), float(f)


def one_run(df, base: np.ndarray, size: int, repeat: int, seed: int, min_test: int,
            options: dict | None = None):
    """Fit on ``size`` records drawn by group, test on the rest; None when it cannot be
    (too few test records, one label in the test part, or too few of a label to fit)."""
    from sklearn.metrics import roc_auc_score

    y_all = df["label_hallucinated"].to_numpy(int)
    groups = df["group"].to_numpy(str)
    rng = np.random.default_rng([seed, size, repeat])
    train = draw_groups(groups, size, rng)
    test = np.setdiff1d(np.arange(len(df)), train)
    y_tr, y_te = y_all[train], y_all[test]
    if len(test) < min_test or len(set(y_te)) < 2:
        return None
    k = int(min(5, y_tr.sum(), (1 - y_tr).sum(), len(np.unique(groups[train]))))
    if k < 2:
        return None
    rows = df.iloc[train].to_dict("records")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = fit_calibration(rows, label="label_hallucinated",
                                  groups=list(groups[train]), folds=k, seed=seed + repeat,
                                  **(options or {}))
    except ValueError:  # a cross-validation training part with one label only
        return None
    threshold = recommend_probability_threshold(
        y_tr, fit.cv_probabilities, groups[train], folds=k, seed=seed + repeat,
        value=fit.calibration.metadata.get("recommended_threshold"))
    p = np.asarray([fit.calibration.probability(r) for r in df.iloc[test].to_dict("records")],
                   dtype=float)
    precision, recall, f1 = prf(y_te, p >= threshold.value)
    prior = (options or {}).get("prior")
    no_labels = (float(roc_auc_score(y_te, [prior.logit(r) for r in
                                            df.iloc[test].to_dict("records")]))
                 if prior is not None else float("nan"))
    return {"n_train": len(train), "n_test": len(test),
            "auroc": float(roc_auc_score(y_te, p)), "no_labels_auroc": no_labels,
            "baseline_auroc": float(roc_auc_score(y_te, base[test])),
            "threshold": threshold.value, "precision": precision, "recall": recall, "f1": f1,
            "f1_flag_all": 2 * y_te.mean() / (1 + y_te.mean()),
            "train_cv_auroc": float(fit.cv_auroc)}


def summarise(name: str, df, runs_by_size: dict[int, list[dict]], repeats: int) -> dict:
    out = {"set": name, "n": len(df), "n_hallucinated": int(df["label_hallucinated"].sum()),
           "sizes": {}}
    for size, runs in runs_by_size.items():
        if not runs:
            continue
        stat = {}
        for key in ("auroc", "f1", "precision", "recall", "baseline_auroc", "n_test",
                    "f1_flag_all", "no_labels_auroc"):
            v = np.asarray([r[key] for r in runs], dtype=float)
            stat[key] = float(v.mean())
            stat[key + "_sd"] = float(v.std(ddof=1)) if len(v) > 1 else float("nan")
        stat["runs"] = len(runs)
        out["sizes"][size] = stat
    out["runs_left_out"] = {size: repeats - len(runs) for size, runs in runs_by_size.items()}
    return out


def text_table(results: list[dict], sizes: list[int]) -> str:
    lines = ["AUROC / F1 on the rest of each file (mean ± sd over runs); "
             "baseline: content words absent, same test records"]
    head = f"{'set':<16} {'n':>5} {'halluc':>6}" + "".join(
        f"  {f'{s} labels':>29}" for s in sizes)
    lines.append(head)
    for r in results:
        cells = []
        for s in sizes:
            st = r["sizes"].get(s)
            cells.append(f"  {'-':>29}" if st is None else
                         f"  {st['auroc']:.3f}±{st['auroc_sd']:.3f} {st['f1']:.3f}±"
                         f"{st['f1_sd']:.3f} ({st['baseline_auroc']:.3f})")
        lines.append(f"{r['set']:<16} {r['n']:>5} {r['n_hallucinated']:>6}" + "".join(cells))
        left = {s: k for s, k in r["runs_left_out"].items() if k}
        if left:
            lines.append(f"{'':<16} runs left out (too few test records or of a label): "
                         + ", ".join(f"{k} of {s}" for s, k in left.items()))
    return "\n".join(lines)


def _cell(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.3f}"


def markdown_table(results: list[dict], sizes: list[int]) -> str:
    lines = ["| set | records (unfaithful) | labels | AUROC on the rest | F1 | precision | "
             "recall | F1 flagging all | no labels (prior) AUROC | baseline AUROC | "
             "test records | runs |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for s in sizes:
            st = r["sizes"].get(s)
            if st is None:
                continue
            lines.append(
                f"| {r['set']} | {r['n']} ({r['n_hallucinated']}) | {s} | "
                f"{st['auroc']:.3f} ± {st['auroc_sd']:.3f} | {st['f1']:.3f} ± {st['f1_sd']:.3f} | "
                f"{st['precision']:.3f} | {st['recall']:.3f} | {st['f1_flag_all']:.3f} | "
                f"{_cell(st['no_labels_auroc'])} | {st['baseline_auroc']:.3f} | "
                f"{st['n_test']:.0f} | {st['runs']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 400])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--min-test", type=int, default=100,
                    help="least records left for testing (default 100)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-scored", type=Path, metavar="DIR")
    ap.add_argument("--features", metavar="NAMES",
                    help="comma-separated features (default: fit_calibration's)")
    ap.add_argument("--C", type=float, dest="C",
                    help="inverse L2 strength (default: 0.01 with a prior, 1.0 without)")
    ap.add_argument("--prior", choices=("lodo", "none"), default="lodo",
                    help="start each file's fit from a model fitted on the other files "
                         "(default), or fit from scratch")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", type=Path, metavar="OUT")
    args = ap.parse_args(argv)

    given = ({"features": [f.strip() for f in args.features.split(",") if f.strip()]}
             if args.features else {})
    if args.features == "all":
        from evaltools.scoring.signals import SIGNALS

        given["features"] = list(SIGNALS)
    given["C"] = args.C
    frames = {path: load(path, args.save_scored) for path in args.files}
    results = []
    for path, df in frames.items():
        prior = None
        if args.prior == "lodo":
            others = [f for p, f in frames.items() if p != path]
            if not others:
                ap.error("--prior lodo needs two files or more")
            prior = lodo_prior(others)
        options = prior_options(prior, given)
        base = baselines_frame(df["response"], df["context"])[BASELINE].to_numpy(float)
        runs = {s: [r for r in (one_run(df, base, s, i, args.seed, args.min_test, options)
                                for i in range(args.repeats)) if r is not None]
                for s in args.sizes}
        results.append(summarise(path.stem, df, runs, args.repeats))
    print(text_table(results, args.sizes))
    if args.markdown:
        print()
        print(markdown_table(results, args.sizes))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
