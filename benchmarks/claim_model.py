"""Fit and measure the claim model: which unsupported anchors are the hallucination?

    python benchmarks/claim_model.py SCORED_PROBE [SCORED_PROBE ...]
        [--write evaltools/scoring/claim_model.json] [--held-out SCORED ...]

SCORED_PROBE is the written probe's batches 1-136 as ``benchmarks/verdict_rates.py
devdata/probe_1_136.jsonl --save DIR`` writes them (every record with its anchors,
unsupported spans and signals); several files are pooled (later batches, scored the
same way: what more written data teaches the trees). Each faithful original ``ID`` and
its hallucinated twin ``ID_h`` (one edit, everything else word for word) give the
labels: every unsupported, counted anchor of the original is a false alarm (0); an
anchor of the twin that is unsupported and not one of the original's unsupported
anchors (same kind and text, counted with multiplicity) comes from the edit (1). An
edit that changes how a neighbouring clause parses gives that clause a 1 too; an edit
the scorer misses gives no 1. The features are
:data:`evaltools.scoring.claim_probability.CLAIM_FEATURES`.

It prints the anchor-level AUROC of the trees under 5 folds grouped by the item (an
original and its twin in one fold), of a logistic model over the same features and of
single features, then fits the trees on every row. ``--held-out`` files (later probe
batches, scored the same way) are rated by that fit: anchor-level AUROC, and the
record-level AUROC of each record's highest rating (``claim_probability_max``) per
task, and the same over every held-out file pooled. ``--other-sets`` (the other
development sets, scored) measures the probe left out as ``benchmarks/validity.py``
does, strictly: the record probability with the shipped
calibration's features, fitted on those sets alone (each set and label weighing the
same), rates the probe's records with ``claim_probability_max`` computed **out of fold**
(each item's anchors rated by the trees fitted on the other four folds), beside the
same without the claim model's feature (``numbers_unsupported`` in its place, the
thirty-ninth round's features). ``--write`` saves the model (JSON trees, its provenance
inside) after checking that the JSON form gives scikit-learn's probabilities on every
training row.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from evaltools.calibration.claim_fit import TREE_PARAMS, claim_classifier, from_classifier
from evaltools.scoring.claim_probability import CLAIM_FEATURES, rated_features
from evaltools.scoring.context import parsed_text
from evaltools.scoring.result import Anchor, UnsupportedSpan


def record_rows(rec: dict) -> tuple[list[Anchor], list[dict[str, float]]]:
    """The rated anchors of one scored output and their features, as scoring computed them."""
    anchors = [Anchor(**{**a, "absent": tuple(a["absent"]), "terms": tuple(a["terms"])})
               for a in rec["anchors"]]
    sig = rec["signals"]
    return rated_features(anchors, rec["response"],
                          context=parsed_text(rec["context"], "context"),
                          query=parsed_text(rec["query"], "query"),
                          spans=[UnsupportedSpan(**s) for s in rec["unsupported_spans"]],
                          structured=bool(sig["context_structured"]),
                          instruction=bool(sig["query_instruction"]))


def twin_rows(records: list[dict]):
    """Feature rows, labels and groups from the originals and their twins."""
    by_id = {r["id"]: r for r in records}
    X, y, groups = [], [], []
    for rid, rec in by_id.items():
        twin = by_id.get(f"{rid}_h")
        if rid.endswith("_h") or twin is None:
            continue
        mine, feats = record_rows(rec)
        seen = collections.Counter((a.kind, a.text) for a in mine)
        X += feats
        y += [0] * len(feats)
        groups += [rid] * len(feats)
        for a, f in zip(*record_rows(twin), strict=True):
            if seen[(a.kind, a.text)]:
                seen[(a.kind, a.text)] -= 1
                continue
            X.append(f)
            y.append(1)
            groups.append(rid)
    return np.array([[f[n] for n in CLAIM_FEATURES] for f in X]), np.array(y), np.array(groups)


def _probe_left_out(probe: list[dict], fold_models, fold_of: dict, others: list[Path]) -> None:
    """The probe's AUROC per task from the record model fitted on the other sets, with
    the claim feature out of fold (see the module's docstring)."""
    import pandas as pd

    from evaltools.calibration.lodo import fit_predict
    from evaltools.scoring.probability import features_frame, load_calibration

    shipped = list(load_calibration().feature_names)
    old = [("numbers_unsupported" if f == "claim_probability_max" else f) for f in shipped]

    def frame(records: list[dict], name: str):
        df = features_frame(records, sorted({*shipped, *old}))
        df["label"] = [r["label_hallucinated"] for r in records]
        df["dataset"] = name
        df["task"] = [r.get("task", name) for r in records]
        return df

    for rec in probe:  # an item's twin is rated by the trees that did not see the item
        item = rec["id"].removesuffix("_h")
        model = fold_models[fold_of[item]] if item in fold_of else None
        rows = record_rows(rec)[1]
        rec["signals"] = {**rec["signals"], "claim_probability_max": max(
            model.probabilities(rows), default=0.0) if model else 0.0}
    train = pd.concat([frame(_load(p), p.stem) for p in others], ignore_index=True)
    test = frame(probe, "probe")
    for name, feats in (("without the claim model", old), ("shipped features", shipped)):
        p = fit_predict(train, test, feats)
        cells = [f"all {roc_auc_score(test['label'], p):.3f}"]
        for task in sorted(test["task"].unique()):
            k = (test["task"] == task).to_numpy()
            cells.append(f"{task} {roc_auc_score(test['label'][k], p[k]):.3f}")
        print(f"  probe left out, {name}: " + " | ".join(cells))


def record_aurocs(rated: list[tuple[str, int, float]]) -> dict[str, float]:
    """Per task, the AUROC of each record's highest rating (``claim_probability_max``)
    from ``(task, label, highest rating)`` triples; a task with one label only is left out.

    >>> got = record_aurocs([("qa", 1, 0.9), ("qa", 0, 0.2), ("qa", 0, 0.9),
    ...                      ("summary", 1, 0.4), ("summary", 1, 0.5)])
    >>> got
    {'qa': 0.75}
    """
    by_task: dict[str, tuple[list[int], list[float]]] = collections.defaultdict(
        lambda: ([], []))
    for task, label, top in rated:
        by_task[task][0].append(label)
        by_task[task][1].append(top)
    return {t: float(roc_auc_score(y, p)) for t, (y, p) in sorted(by_task.items())
            if len(set(y)) == 2}


def _load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("probe", type=Path, nargs="+",
                    help="the scored probe (originals and twins); several files are pooled")
    ap.add_argument("--held-out", type=Path, nargs="*", default=[],
                    help="scored files rated by the fit, never fitted on")
    ap.add_argument("--other-sets", type=Path, nargs="*", default=[],
                    help="the other scored development sets: measure the probe left out")
    ap.add_argument("--write", type=Path, help="save the fitted model here (JSON)")
    args = ap.parse_args(argv)

    probe = [r for path in args.probe for r in _load(path)]
    X, y, groups = twin_rows(probe)
    print(f"{', '.join(p.name for p in args.probe)}: {len(y)} unsupported anchors, "
          f"{int(y.sum())} from an edit, {len(set(groups))} items")
    folds = list(GroupKFold(n_splits=5).split(X, y, groups))
    for name, make in (("trees", claim_classifier),
                       ("logistic", lambda: make_pipeline(StandardScaler(),
                                                          LogisticRegression(max_iter=2000)))):
        p = np.zeros(len(y))
        for train, test in folds:
            p[test] = make().fit(X[train], y[train]).predict_proba(X[test])[:, 1]
        print(f"  {name:10s} anchor AUROC, 5 folds by item: {roc_auc_score(y, p):.3f}")
        if name == "trees":
            oof = p
    singles = {n: roc_auc_score(y, X[:, k]) for k, n in enumerate(CLAIM_FEATURES)}
    print("  single features:", ", ".join(
        f"{n} {v:.3f}" for n, v in sorted(singles.items(), key=lambda t: -abs(t[1] - 0.5))[:6]))
    clf = claim_classifier().fit(X, y)
    files = [{"file": p.name, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
             for p in args.probe]
    meta = {"fitted_on": {**(files[0] if len(files) == 1 else {"files": files}),
                          "anchors": len(y), "from_an_edit": int(y.sum()),
                          "items": len(set(groups))},
            "fitting": {"params": TREE_PARAMS, "command": "python benchmarks/claim_model.py "
                        + " ".join(sys.argv[1:] if argv is None else argv),
                        "scikit_learn": sklearn.__version__,
                        "date": datetime.date.today().isoformat()},
            "metrics": {"anchor_auroc_5_folds_by_item": round(float(roc_auc_score(y, oof)), 4)}}
    model = from_classifier(clf, metadata=meta)
    rows = [dict(zip(CLAIM_FEATURES, r, strict=True)) for r in X]
    gap = np.abs(np.array(model.probabilities(rows)) - clf.predict_proba(X)[:, 1]).max()
    print(f"  JSON trees against scikit-learn on the training rows: largest difference {gap:.2e}")
    if gap > 1e-9:
        raise SystemExit("the JSON form does not reproduce scikit-learn's probabilities")
    pooled_anchors: tuple[list, list] = ([], [])
    pooled_records: list[tuple[str, int, float]] = []
    for path in args.held_out:
        records = _load(path)
        Xh, yh, _ = twin_rows(records)
        ph = clf.predict_proba(Xh)[:, 1]
        pooled_anchors[0].extend(yh)
        pooled_anchors[1].extend(ph)
        rated = [(rec.get("task", "all"), rec["label_hallucinated"],
                  max(model.probabilities(record_rows(rec)[1]), default=0.0))
                 for rec in records]
        pooled_records += rated
        line = [f"{path.name}: anchors {roc_auc_score(yh, ph):.3f}"]
        line += [f"{t} {v:.3f}" for t, v in record_aurocs(rated).items()]
        print("  " + " | ".join(line))
    if len(args.held_out) > 1:
        line = [f"held-out files pooled: anchors {roc_auc_score(*pooled_anchors):.3f}"]
        line += [f"{t} {v:.3f}" for t, v in record_aurocs(pooled_records).items()]
        print("  " + " | ".join(line))
    if args.other_sets:
        fold_models = [from_classifier(claim_classifier().fit(X[train], y[train]))
                       for train, _ in folds]
        fold_of = {g: k for k, (_, test) in enumerate(folds) for g in groups[test]}
        _probe_left_out(probe, fold_models, fold_of, args.other_sets)
    if args.write:
        args.write.write_text(model.to_json(), encoding="utf-8")
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
