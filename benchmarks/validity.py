"""Validity harness: do evaltools' hallucination signals agree with human labels better
than counting words?

    python benchmarks/validity.py FILE... [--held-out FILE...] [--config TOML]
        [--calibration JSON] [--markdown] [--json OUT] [--save-scored DIR]
        [--resamples 1000] [--folds 5] [--select [--select-from NAMES]] [--add-one]

The headline is **leave one data set out** (LODO): for each input file, the
learned probability's model is fitted on every other file and measured on that
one (AUROC with a group-bootstrap 95 % interval), beside the spec's
``hallucination`` and the word-overlap baselines on the same records. That
figure predicts a new user's data; an in-sample or within-set cross-validated
figure does not. ``--nested`` also reports the feature *selection* measured
the same way (features chosen by :func:`evaltools.calibration.lodo.forward_select`
on the other files only); ``--select`` prints the features that selection
chooses on all files (how ``DEFAULT_FEATURES`` was chosen), starting from
``unsupported_share`` or from the features ``--select-from`` names (``shipped``: the
calibration's own, to ask what a selection would add to them); ``--add-one`` prints, for
each other signal added to the calibration's features alone, every file's LODO AUROC
against the features without it, their mean and the worst margin over a file's best
word-overlap baseline. Held-out files get the model fitted on all the other files.

Each FILE holds labelled records (``query, context, response, label``; optional
``task`` and ``group``; ``benchmarks/devsets.py`` builds the development sets).
Records are scored with :func:`evaltools.score_frame` (a file that already holds
the score fields, e.g. written by ``--save-scored``, is not scored again). For
every task and for all records pooled it prints:

- AUROC, with a 95 % bootstrap interval, of every evaltools signal
  (``hallucination``, ``claims_score``, ``1 - ngram_overlap``,
  ``hallucination_probability`` from the shipped or given calibration, the same
  model refitted out-of-fold on these records, ``1 - support`` when the scorer
  gives ``support``) and of the four word-overlap baselines of
  :mod:`evaltools.calibration.baselines`, all computed on the same records; the
  bootstrap resamples whole groups (``group``) where the records have them;
- Brier score and expected calibration error of the probability;
- precision, recall and F1 of the verdict (positive: ``FAIL``, or ``WARN``
  decided by a hallucination rule) and of the probability at a threshold chosen
  (maximum F1) on the other folds of a grouped K-fold split.

A signal whose calibration was fitted on one of the input files (same sha256,
or a file of the same name among the calibration's ``fitted_on.sources``) is
marked in-sample and is not picked as "best evaltools signal".

Files given after ``--held-out`` hold data nothing was tuned or fitted on. Their
records are reported apart, as ``<task> (held out)``, and left out of the pooled
``all`` row; the out-of-fold refit is done within them alone (and within the
other files alone for theirs), and it is never their "best evaltools signal": a
held-out row shows what a user gets from the shipped scorer and calibration.
``--markdown`` prints the README's summary table and the full tables.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration import auc_ci, load_calibration  # noqa: E402
from evaltools.calibration.baselines import BASELINES, baselines_frame  # noqa: E402
from evaltools.calibration.brier_reliability import reliability  # noqa: E402
from evaltools.calibration.learned import (  # noqa: E402
    cross_validated_probabilities,
    features_frame,
)
from evaltools.calibration.lodo import (  # noqa: E402
    best_baselines,
    fit_predict,
    forward_select,
    leave_one_dataset_out,
    lodo_aurocs,
)
from evaltools.calibration.thresholds import recommend_threshold  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402
from evaltools.scoring.signals import SIGNALS  # noqa: E402

OVERALL = "all"
BASELINE_NAMES = {"length": "length", "unigrams_absent": "unigrams absent",
                  "content_absent": "content words absent", "bigrams_absent": "bigrams absent"}
PROBABILITY = "hallucination_probability"
PROBABILITY_CV = "hallucination_probability (CV)"
HELD_OUT = " (held out)"
#: the LODO frame's baseline columns a model must beat (length is a baseline, not word overlap)
WORD_OVERLAP_COLUMNS = tuple(f"baseline:{b}" for b in BASELINES if b != "length")


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verdict_positive(verdicts, reasons) -> np.ndarray:
    """Response-level verdict flag: FAIL, or a WARN whose deciding reason is about
    hallucination (names ``hallucination``, ``support`` or ``unsupported``)."""
    out = []
    for v, rs in zip(verdicts, reasons, strict=True):
        first = (rs[0] if isinstance(rs, (list, tuple)) and rs else str(rs or "")).lower()
        out.append(v == "FAIL" or (v == "WARN" and any(
            k in first for k in ("hallucination", "support"))))
    return np.asarray(out, dtype=bool)


def prf(y: np.ndarray, flag: np.ndarray) -> dict:
    tp = int((flag & (y == 1)).sum())
    fp = int((flag & (y == 0)).sum())
    fn = int((~flag & (y == 1)).sum())
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "flagged": int(flag.sum())}


def grouped_folds(y: np.ndarray, groups: np.ndarray, folds: int, seed: int):
    """Stratified grouped K-fold test indices (fewer folds when there are few groups)."""
    from sklearn.model_selection import StratifiedGroupKFold

    k = min(folds, len(np.unique(groups)), int(y.sum()), int((1 - y).sum()))
    if k < 2:
        return None
    split = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    return [test for _, test in split.split(np.zeros(len(y)), y, groups)]


def threshold_on_other_folds(y: np.ndarray, p: np.ndarray, groups: np.ndarray, folds: int,
                             seed: int) -> dict | None:
    """Flags from a threshold chosen (max F1) on the other folds, pooled over folds."""
    tests = grouped_folds(y, groups, folds, seed)
    if tests is None:
        return None
    flag = np.zeros(len(y), dtype=bool)
    chosen = []
    for test in tests:
        train = np.setdiff1d(np.arange(len(y)), test)
        if len(np.unique(y[train])) < 2:
            return None
        t = recommend_threshold(y[train], p[train], criterion="f1").threshold
        chosen.append(t)
        flag[test] = p[test] >= t
    return {**prf(y, flag), "thresholds": [round(float(t), 4) for t in chosen]}


@dataclass
class Partition:
    name: str
    n: int
    positives: int
    groups: int
    auroc: dict = field(default_factory=dict)
    calibration: dict = field(default_factory=dict)
    verdict: dict = field(default_factory=dict)
    probability_threshold: dict | None = None
    notes: list = field(default_factory=list)
    held_out: bool = False

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def load_inputs(paths: list[Path], config, save_scored: Path | None,
                held_out: list[Path] = ()):
    import pandas as pd

    frames = []
    for path in [*paths, *held_out]:
        records = read_labelled(path, label=None)
        t0 = time.perf_counter()
        df = score_labelled(records, config=config)
        if save_scored is not None:
            save_scored.mkdir(parents=True, exist_ok=True)
            df.to_json(save_scored / f"{path.stem}.jsonl", orient="records", lines=True,
                       force_ascii=False)
        if "task" not in df.columns:
            df["task"] = path.stem
        df["task"] = df["task"].fillna(path.stem).astype(str)
        ids = df["id"].astype(str) if "id" in df.columns else pd.Series(range(len(df))).astype(str)
        own = f"{path.stem}:" + ids
        df["group"] = (df["group"].astype(str).where(df["group"].notna(), own)
                       if "group" in df.columns else own)
        df["_file"] = path.name
        df["_held_out"] = path in held_out
        if path in held_out:
            df["task"] = df["task"] + HELD_OUT
        df["_sha256"] = file_sha256(path)
        print(f"scored {path.name}: {len(df)} records in {time.perf_counter() - t0:.1f} s",
              file=sys.stderr)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    if "error" in df.columns:
        bad = df["error"].notna()
        if bad.any():
            print(f"left out {int(bad.sum())} records the scorer refused", file=sys.stderr)
        df = df[~bad].reset_index(drop=True)
    return df


def signals(df, calibration, folds: int, seed: int) -> tuple[dict, np.ndarray]:
    """name -> values (higher = more likely unfaithful); and which records come from a
    file the shipped (or given) calibration was fitted on."""
    out = {
        "hallucination": df["hallucination"].astype(float).to_numpy(),
        "claims_score": df["claims_score"].astype(float).to_numpy(),
        "1 - ngram_overlap": 1.0 - df["ngram_overlap"].astype(float).to_numpy(),
    }
    if "support" in df.columns and df["support"].notna().all():
        out["1 - support"] = 1.0 - df["support"].astype(float).to_numpy()
    out[PROBABILITY] = np.asarray(calibration.probabilities(df), dtype=float)
    y = df["label_hallucinated"].astype(int).to_numpy()
    features = features_frame(df, list(calibration.feature_names))
    cv = np.full(len(df), np.nan)
    try:
        for split in (False, True):  # held-out records are refitted among themselves only
            rows = (df["_held_out"] == split).to_numpy()
            if rows.any():
                cv[rows] = cross_validated_probabilities(
                    features[rows], y[rows], groups=df["group"].to_numpy()[rows],
                    folds=folds, seed=seed)
        out[PROBABILITY_CV] = cv
    except ValueError as exc:  # too few records or groups to refit
        print(f"no out-of-fold probability: {exc}", file=sys.stderr)
    fitted = calibration.metadata.get("fitted_on", {})
    sources = fitted.get("sources", [])
    fitted_sha = {s.get("sha256") for s in sources} | {fitted.get("sha256")}
    fitted_names = {s.get("file") for s in sources}
    fitted_on = (fitted_sha | fitted_names) - {None}
    in_sample = (df["_sha256"].isin(fitted_on) | df["_file"].isin(fitted_on)).to_numpy()
    return out, in_sample


def evaluate(df, sig: dict, base, fitted: np.ndarray, *, resamples: int, folds: int,
             seed: int) -> list[Partition]:
    parts = []
    held = df["_held_out"].to_numpy(bool)
    tasks = sorted(df["task"].unique(), key=lambda t: (t.endswith(HELD_OUT), t))
    dev_tasks = [t for t in tasks if not t.endswith(HELD_OUT)]
    names = [*dev_tasks, OVERALL] if len(dev_tasks) > 1 else dev_tasks
    for name in [*names, *(t for t in tasks if t.endswith(HELD_OUT))]:
        mask = ~held if name == OVERALL else (df["task"] == name).to_numpy()
        y = df.loc[mask, "label_hallucinated"].astype(int).to_numpy()
        groups = df.loc[mask, "group"].to_numpy()
        part = Partition(name, int(mask.sum()), int(y.sum()), len(set(groups)),
                         held_out=name.endswith(HELD_OUT))
        parts.append(part)
        if y.min() == y.max():
            part.notes.append("one class only: no AUROC")
            continue
        grouped = len(set(groups)) < len(groups)
        in_sample = {PROBABILITY} if fitted[mask].any() else set()
        values = {**sig, **{BASELINE_NAMES[b]: base[b].to_numpy(float) for b in BASELINES}}
        for sname, v in values.items():
            ci = auc_ci(y, v[mask], n_resamples=resamples, seed=seed,
                        groups=groups if grouped else None)
            part.auroc[sname] = {"estimate": ci.estimate, "low": ci.low, "high": ci.high,
                                 "kind": "baseline" if sname in BASELINE_NAMES.values()
                                 else "evaltools", "in_sample": sname in in_sample}
        for pname in (PROBABILITY, PROBABILITY_CV):
            if pname in sig:
                rel = reliability(y, sig[pname][mask], n_bins=10)
                part.calibration[pname] = {"brier": rel.brier, "ece": rel.ece,
                                           "in_sample": pname in in_sample}
        part.verdict = prf(y, verdict_positive(df.loc[mask, "verdict"],
                                               df.loc[mask, "reasons"]))
        part.probability_threshold = threshold_on_other_folds(
            y, sig[PROBABILITY][mask], groups, folds, seed)
    return parts


def best(part: Partition, kind: str) -> tuple[str, dict] | None:
    cands = [(k, v) for k, v in part.auroc.items() if v["kind"] == kind and not v["in_sample"]
             and not (part.held_out and k == PROBABILITY_CV)]
    return max(cands, key=lambda kv: kv[1]["estimate"]) if cands else None


def fmt(v: dict | None) -> str:
    return "–" if v is None else f"{v['estimate']:.3f} [{v['low']:.3f}, {v['high']:.3f}]"


def summary_markdown(parts: list[Partition]) -> str:
    head = ["task", "records (unfaithful)", "best evaltools signal", "`hallucination`",
            *[BASELINE_NAMES[b] for b in BASELINES], "winner"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in parts:
        if not p.auroc:
            continue
        be, bb = best(p, "evaltools"), best(p, "baseline")
        if be[1]["estimate"] > bb[1]["estimate"]:
            win = f"evaltools (+{be[1]['estimate'] - bb[1]['estimate']:.3f})"
        else:
            win = f"**baseline: {bb[0]}** (+{bb[1]['estimate'] - be[1]['estimate']:.3f})"
        row = [p.name, f"{p.n} ({p.positives})", f"`{be[0]}` {fmt(be[1])}",
               fmt(p.auroc.get("hallucination")),
               *[fmt(p.auroc.get(BASELINE_NAMES[b])) for b in BASELINES], win]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def full_markdown(parts: list[Partition]) -> str:
    out = []
    for p in parts:
        out.append(f"#### {p.name}: {p.n} records, {p.positives} unfaithful, {p.groups} groups\n")
        if not p.auroc:
            out.append("; ".join(p.notes) + "\n")
            continue
        out.append("| signal | kind | AUROC [95% CI] |\n|---|---|---|")
        for k, v in sorted(p.auroc.items(), key=lambda kv: -kv[1]["estimate"]):
            kind = v["kind"] + (" (in-sample)" if v["in_sample"] else "")
            out.append(f"| {k} | {kind} | {fmt(v)} |")
        out.append("")
        out.append("| probability | Brier | ECE |\n|---|---|---|")
        for k, v in p.calibration.items():
            out.append(f"| {k}{' (in-sample)' if v['in_sample'] else ''} | {v['brier']:.3f} "
                       f"| {v['ece']:.3f} |")
        out.append("")
        out.append("| flag | precision | recall | F1 | flagged |\n|---|---|---|---|---|")
        rows = [("verdict (FAIL, or WARN for hallucination)", p.verdict)]
        if p.probability_threshold:
            rows.append(("probability ≥ threshold from other folds", p.probability_threshold))
        for k, v in rows:
            out.append(f"| {k} | {v['precision']:.3f} | {v['recall']:.3f} | {v['f1']:.3f} "
                       f"| {v['flagged']} |")
        out.append("")
    return "\n".join(out)


def text_report(parts: list[Partition]) -> str:
    out = []
    for p in parts:
        out.append(f"== {p.name}: {p.n} records, {p.positives} unfaithful, {p.groups} groups")
        for note in p.notes:
            out.append(f"   {note}")
        for k, v in sorted(p.auroc.items(), key=lambda kv: -kv[1]["estimate"]):
            tag = " (in-sample)" if v["in_sample"] else ""
            out.append(f"   {k + tag:<44} {v['kind']:<9} AUROC {fmt(v)}")
        for k, v in p.calibration.items():
            out.append(f"   {k:<44} Brier {v['brier']:.3f}  ECE {v['ece']:.3f}")
        if p.verdict:
            v = p.verdict
            out.append(f"   verdict flags   P {v['precision']:.3f} R {v['recall']:.3f} "
                       f"F1 {v['f1']:.3f} ({v['flagged']} flagged)")
        if p.probability_threshold:
            v = p.probability_threshold
            out.append(f"   probability ≥ t (t from other folds)   P {v['precision']:.3f} "
                       f"R {v['recall']:.3f} F1 {v['f1']:.3f} ({v['flagged']} flagged)")
    return "\n".join(out)


def lodo_frame(df, base, features=()):
    """One row per record: every signal (and any other named feature), the label, the
    data set (file), group, baselines."""
    import pandas as pd

    sig = pd.DataFrame([dict(s) if isinstance(s, dict) else json.loads(s)
                        for s in df["signals"]], index=df.index)
    frame = sig[list(SIGNALS)].astype(float)
    other = [f for f in features if f not in frame.columns]
    if other:
        extra = features_frame(df, other)
        extra.index = df.index
        frame = pd.concat([frame, extra], axis=1)
    frame["label"] = df["label_hallucinated"].astype(int)
    frame["dataset"] = df["_file"].str.rsplit(".", n=1).str[0]
    frame["group"] = df["group"].astype(str)
    frame["held_out"] = df["_held_out"].to_numpy(bool)
    frame["hallucination"] = df["hallucination"].astype(float)
    for b in BASELINES:
        frame[f"baseline:{b}"] = base[b].to_numpy(float)
    return frame


def lodo_report(frame, features, *, nested: bool, resamples: int, seed: int) -> dict:
    """LODO AUROC of ``features`` (and, with ``nested``, of the selection) on every dev
    file; held-out files scored by the model fitted on all dev files; baselines beside."""
    dev = frame[~frame["held_out"]]
    baselines = list(WORD_OVERLAP_COLUMNS)
    res = leave_one_dataset_out(dev, features, group="group", resamples=resamples, seed=seed)
    rows = {}
    for name, r in res.per_dataset.items():
        rows[name] = {"n": r.n, "positives": r.n_positive, "probability": r.auroc.to_dict(),
                      "held_out": False}
    if nested:
        nres = leave_one_dataset_out(dev, ["unsupported_share"], group="group",
                                     resamples=resamples, seed=seed, nested=True,
                                     candidates=[c for c in SIGNALS if c != "unsupported_share"],
                                     baselines=baselines)
        for name, r in nres.per_dataset.items():
            rows[name]["nested"] = {**r.auroc.to_dict(), "features": list(r.features)}
    for name in sorted(frame.loc[frame["held_out"], "dataset"].unique()):
        part = frame[frame["dataset"] == name]
        p = fit_predict(dev, part, features)
        ci = auc_ci(part["label"].to_numpy(), p, n_resamples=resamples, seed=seed,
                    groups=part["group"].to_numpy())
        rows[name] = {"n": len(part), "positives": int(part["label"].sum()),
                      "probability": ci.to_dict(), "held_out": True}
    for name, row in rows.items():
        part = frame[frame["dataset"] == name]
        for col in ["hallucination", "unsupported_share", *[f"baseline:{b}" for b in BASELINES]]:
            ci = auc_ci(part["label"].to_numpy(), part[col].to_numpy(), n_resamples=resamples,
                        seed=seed, groups=part["group"].to_numpy())
            row[col] = ci.to_dict()
        best_base = max(baselines, key=lambda b: row[b]["estimate"])
        row["best_baseline"] = best_base.split(":", 1)[1]
        row["margin"] = row["probability"]["estimate"] - row[best_base]["estimate"]
    return {"features": list(features), "rows": rows}


def add_one_markdown(dev, features) -> str:
    """Each signal not in ``features`` added to them alone: the LODO AUROC of every dev
    file (the change against ``features`` alone), their mean and the worst margin over a
    file's best word-overlap baseline (what :func:`forward_select` weighs)."""
    names = sorted(dev["dataset"].unique())
    best = best_baselines(dev, WORD_OVERLAP_COLUMNS)
    base = lodo_aurocs(dev, list(features))

    def row(label, scores, delta):
        cells = [f"{scores[n] - base[n]:+.3f}" if delta else f"{scores[n]:.3f}"
                 for n in names]
        mean = sum(scores.values()) / len(scores)
        worst = min(scores[n] - best[n] for n in names)
        return f"| {label} | " + " | ".join(cells) + f" | {mean:.4f} | {worst:+.3f} |"

    lines = ["| added | " + " | ".join(names) + " | mean | worst margin |",
             "|" + "---|" * (len(names) + 3), row("(the calibration's features)", base, False)]
    for c in [c for c in SIGNALS if c not in features]:
        lines.append(row(f"`{c}`", lodo_aurocs(dev, [*features, c]), True))
    return "\n".join(lines)


def lodo_markdown(rep: dict) -> str:
    def ci(v):
        return f"{v['estimate']:.3f} [{v['low']:.3f}, {v['high']:.3f}]"

    nested = any("nested" in r for r in rep["rows"].values())
    head = ["data set", "records (unfaithful)", "probability, LODO",
            *(["selection + fit, nested LODO"] if nested else []), "`1 - support`",
            "`hallucination` (spec)", *[BASELINE_NAMES[b] for b in BASELINES],
            "probability vs best word-overlap baseline"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in sorted(rep["rows"].items(), key=lambda kv: (kv[1]["held_out"], kv[0])):
        label = name + (" (held out: model fitted on all dev sets)" if r["held_out"] else "")
        margin = r["margin"]
        verdict = (f"+{margin:.3f}" if margin > 0 else f"**{margin:.3f}** ({r['best_baseline']})")
        row = [label, f"{r['n']} ({r['positives']})", ci(r["probability"]),
               *([ci(r["nested"]) if "nested" in r else "–"] if nested else []),
               ci(r["unsupported_share"]), ci(r["hallucination"]),
               *[ci(r[f"baseline:{b}"]) for b in BASELINES], verdict]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append("Features: " + ", ".join(f"`{f}`" for f in rep["features"]))
    if nested:
        lines.append("")
        lines.append("Features the nested selection chose without each set:")
        for name, r in sorted(rep["rows"].items()):
            if "nested" in r:
                lines.append(f"- {name}: " + ", ".join(f"`{f}`" for f in r["nested"]["features"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", type=Path, nargs="+", help="labelled .jsonl/.csv/.parquet files")
    ap.add_argument("--held-out", type=Path, nargs="+", default=[], metavar="FILE",
                    help="labelled files nothing was tuned on, reported apart")
    ap.add_argument("--config", type=Path, help="a TOML configuration (default: the shipped one)")
    ap.add_argument("--calibration", type=Path,
                    help="a calibration JSON (default: the shipped one)")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    ap.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    ap.add_argument("--save-scored", type=Path, metavar="DIR",
                    help="write each file's scored records to DIR/<name>.jsonl")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nested", action="store_true",
                    help="also measure the feature selection itself leaving one set out "
                         "(slow: a selection per file)")
    ap.add_argument("--select", action="store_true",
                    help="print the features forward selection chooses on all dev files")
    ap.add_argument("--select-from", default="unsupported_share", metavar="NAMES",
                    help="comma-separated features the selection starts from ('shipped': "
                         "the calibration's own; default: unsupported_share)")
    ap.add_argument("--add-one", action="store_true",
                    help="print what each other signal adds to the calibration's features, "
                         "leaving one set out")
    ap.add_argument("--no-lodo", action="store_true", help="skip the leave-one-dataset-out table")
    args = ap.parse_args(argv)

    config = load_config(args.config)
    calibration = load_calibration(args.calibration)
    df = load_inputs(args.files, config, args.save_scored, args.held_out)
    sig, fitted = signals(df, calibration, args.folds, args.seed)
    base = baselines_frame(df["response"], df["context"])
    parts = evaluate(df, sig, base, fitted, resamples=args.resamples, folds=args.folds,
                     seed=args.seed)
    lodo = None
    dev_files = {p.stem for p in args.files}
    if not args.no_lodo and len(dev_files) >= 2:
        frame = lodo_frame(df, base, calibration.feature_names)
        if args.select:
            dev = frame[~frame["held_out"]]
            start = (calibration.feature_names if args.select_from == "shipped"
                     else tuple(n.strip() for n in args.select_from.split(",") if n.strip()))
            unknown = [n for n in start if n not in SIGNALS]
            if unknown:
                ap.error(f"--select-from: not a signal: {', '.join(unknown)}")
            chosen = forward_select(
                dev, [c for c in SIGNALS if c not in start], start=start,
                baselines=WORD_OVERLAP_COLUMNS)
            print("forward selection on all dev files: " + ", ".join(chosen))
        if args.add_one:
            print(add_one_markdown(frame[~frame["held_out"]], calibration.feature_names))
            print()
        lodo = lodo_report(frame, list(calibration.feature_names), nested=args.nested,
                           resamples=args.resamples, seed=args.seed)
        print("## Leave one data set out\n")
        print(lodo_markdown(lodo))
        print()
    if args.markdown:
        print(summary_markdown(parts))
        print()
        print(full_markdown(parts))
    else:
        print(text_report(parts))
    if args.json:
        args.json.write_text(json.dumps({
            "files": [{"name": p.name, "sha256": file_sha256(p)} for p in args.files],
            "held_out": [{"name": p.name, "sha256": file_sha256(p)} for p in args.held_out],
            "config": str(args.config) if args.config else None,
            "calibration": calibration.metadata.get("fitted_on"),
            "resamples": args.resamples, "folds": args.folds, "seed": args.seed,
            "lodo": lodo,
            "partitions": [p.to_dict() for p in parts]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
