"""Number and date anchors on labelled files: false alarms on faithful answers, and AUROC.

    python benchmarks/number_anchors.py [FILE ...] [--label FIELD] [--config TOML]

For each labelled file (default ``data/responses.jsonl``) this scores every
record with the shipped scorer and prints:

- ``num/date anchors (faithful)`` — counted number and date anchors in the
  responses labelled faithful (label 0), and the share of them called
  unsupported (each one a false alarm, if the label is right);
- the same share in the hallucinated responses (label 1);
- the hallucination AUROC (``S_hall``) with a 95% bootstrap interval.

Run it once with ``PYTHONPATH`` set to the checkout before a change and once
after, to compare. Nothing is fitted or tuned here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

from evaltools.calibration import auc_ci  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402


def number_anchor_counts(anchors_lists, labels, label: int) -> tuple[int, int]:
    """(counted number/date anchors, unsupported ones) over records with ``label``."""
    total = bad = 0
    for anchors, y in zip(anchors_lists, labels, strict=True):
        if y != label:
            continue
        for a in anchors:
            if a["kind"] in ("number", "date") and a.get("counted", True):
                total += 1
                bad += not a["supported"]
    return total, bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", type=Path, nargs="*",
                    default=[ROOT / "data" / "responses.jsonl"])
    ap.add_argument("--label")
    ap.add_argument("--config", type=Path)
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args(argv)
    config = load_config(args.config)
    print(f"{'file':<28} {'n':>5} {'faithful: anchors':>18} {'unsupported':>12} "
          f"{'halluc.: anchors':>17} {'unsupported':>12} {'AUROC S_hall':>13} {'95% CI':>13}")
    for path in args.inputs:
        records = read_labelled(path, label=args.label)
        df = score_labelled(records, config=config)
        ok = df["error"].isna() if "error" in df.columns else np.ones(len(df), bool)
        df = df[ok].reset_index(drop=True)
        y = df["label_hallucinated"].astype(int).to_numpy()
        t0, b0 = number_anchor_counts(df["anchors"], y, 0)
        t1, b1 = number_anchor_counts(df["anchors"], y, 1)
        ci = auc_ci(y, df["hallucination"].to_numpy(dtype=float), n_resamples=args.resamples)
        print(f"{path.name:<28} {len(df):>5} {t0:>18} {b0 / max(t0, 1):>12.1%} "
              f"{t1:>17} {b1 / max(t1, 1):>12.1%} {ci.estimate:>13.3f} "
              f"{ci.low:>6.3f}–{ci.high:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
