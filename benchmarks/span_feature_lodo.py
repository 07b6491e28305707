"""Leave one data set out for ``span_probability_max`` with the span model left out too.

    python benchmarks/span_feature_lodo.py DEVDATA SCORED_DIR [--features a,b,...]

``span_probability_max`` (the span model's highest probability among a response's
unsupported spans) is a signal of the record model. The shipped span model is fitted on
people's marks in LFQA, XSumFaith and WiCE (``benchmarks/span_model.py``), so when the
record model is measured leaving one of those sets out (``benchmarks/validity.py``), the
span model that made the feature has seen that set's marks. This script measures those
three sets the strict way: the span model fitted on the other two sets' marks rates the
held-out record set's spans, and the record model fitted on the other seven record sets
reads the result. Sets the span model never saw are measured as ``validity.py`` does.

SCORED_DIR is ``benchmarks/validity.py --save-scored``'s folder (the shipped span model's
probabilities); DEVDATA the folder ``benchmarks/devsets.py`` writes. It prints, per held-out
set, the record model's AUROC with the feature from the shipped span model and from the span
model fitted without that set.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from span_model import FIT_SETS, RECORD_SET, RECORD_SETS, collect, fit  # noqa: E402  (this folder)

from evaltools.calibration.lodo import fit_predict  # noqa: E402
from evaltools.scoring.probability import DEFAULT_FEATURES, features_frame  # noqa: E402

#: each span set the span model is fitted on -> the record set drawn from it
HELD = {span_set: RECORD_SET[span_set] for span_set in FIT_SETS}


def main(argv: list[str] | None = None) -> int:
    import pandas as pd
    from sklearn.metrics import roc_auc_score

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("devdata", type=Path)
    ap.add_argument("scored", type=Path)
    ap.add_argument("--features", default=",".join(DEFAULT_FEATURES),
                    help="the record model's features (default: the shipped ones)")
    args = ap.parse_args(argv)
    names = [f.strip() for f in args.features.split(",") if f.strip()]
    if "span_probability_max" not in names:
        raise SystemExit("--features must include span_probability_max")
    parts = []
    for name in RECORD_SETS:
        recs = [json.loads(x) for x in
                (args.scored / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        part = features_frame(recs, names)
        part["label"], part["dataset"] = [r["label"] for r in recs], name
        parts.append(part)
    frame = pd.concat(parts, ignore_index=True)
    # the span sets' spans (to fit on) and the record sets' spans (to rate), in file order
    rated = tuple(dict.fromkeys(r for r in HELD.values() if r not in HELD))
    rows = collect(args.devdata, names=(*HELD, *rated))
    print("| held-out set | records | shipped span model | span model fitted without it |")
    print("|---|---:|---:|---:|")
    for span_set, record_set in HELD.items():
        model = fit([r for r in rows if r["set"] in HELD and r["set"] != span_set],
                    fit_sets=tuple(s for s in HELD if s != span_set))
        mine = [r for r in rows if r["set"] == record_set]
        test = frame[frame["dataset"] == record_set].copy()
        if len(mine) != len(test):
            raise SystemExit(f"{record_set}: {len(mine)} collected, {len(test)} scored")
        train = frame[frame["dataset"] != record_set]
        shipped = roc_auc_score(test["label"], fit_predict(train, test, names))
        test["span_probability_max"] = [
            max((model.probability(f) for _, f, _ in r["spans"]), default=0.0) for r in mine]
        strict = roc_auc_score(test["label"], fit_predict(train, test, names))
        print(f"| {record_set} | {len(test)} | {shipped:.3f} | {strict:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
