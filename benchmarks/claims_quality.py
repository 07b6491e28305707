"""How often are claims false alarms, and how often do hallucinations carry an unsupported anchor?

    PYTHONPATH=$PWD .venv/bin/python benchmarks/claims_quality.py [FILE ...] [--label FIELD]
        [--task FIELD] [--config TOML] [--resamples 1000]

For each labelled file (default ``data/responses.jsonl``; label 1 = unfaithful),
and within it for each value of the ``--task`` field (default ``task``, when
the records have it), prints:

- ``claims`` — claim anchors in faithful (label 0) responses, and the share of
  them called unsupported: the claim **false-alarm rate** (target <= 15%);
- ``faithful>=1`` — the share of faithful responses with at least one
  unsupported anchor of any kind;
- ``recall`` — the share of hallucinated (label 1) responses with at least one
  unsupported anchor of any kind, and with at least one unsupported claim;
- ``rep.FA`` and ``rep.rec`` — the same false-alarm rate and recall (any kind) counting
  only the anchors *reported* hallucinated (``Anchor.hallucinated``: the claim model's
  probability reaches ``hallucination.claim_threshold``);
- AUROC (95% bootstrap interval) of ``hallucination`` and ``claims_score``.

Nothing is fitted; figures depend only on the files and the configuration.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration import auc_ci  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402


def _auc(y: np.ndarray, s: np.ndarray, resamples: int) -> str:
    if y.min() == y.max():
        return "   n/a"
    ci = auc_ci(y, s, n_resamples=resamples, seed=0)
    return f"{ci.estimate:.3f} ({ci.low:.2f}–{ci.high:.2f})"


def summarise(df, resamples: int) -> dict:
    y = df["label_hallucinated"].astype(int).to_numpy()
    claims = [[a for a in anchors if a["kind"] == "claim" and a["counted"]]
              for anchors in df["anchors"]]
    unsup = [[a for a in anchors if a["counted"] and not a["supported"]]
             for anchors in df["anchors"]]
    reported = [[a for a in u if a.get("hallucinated")] for u in unsup]
    faithful = y == 0
    fc = [c for ok, cs in zip(faithful, claims, strict=True) if ok for c in cs]
    return {
        "n": len(df), "pos": int(y.sum()),
        "claims0": len(fc),
        "false_alarm": (sum(not c["supported"] for c in fc) / len(fc)) if fc else float("nan"),
        "claims_per_resp": np.mean([len(c) for c in claims]) if claims else float("nan"),
        "faithful_any": np.mean([bool(u) for ok, u in zip(faithful, unsup, strict=True)
                                 if ok]) if faithful.any() else float("nan"),
        "recall_any": np.mean([bool(u) for ok, u in zip(~faithful, unsup, strict=True)
                               if ok]) if (~faithful).any() else float("nan"),
        "recall_claim": np.mean([any(a["kind"] == "claim" for a in u)
                                 for ok, u in zip(~faithful, unsup, strict=True) if ok])
        if (~faithful).any() else float("nan"),
        "reported_false_alarm": (sum(bool(c.get("hallucinated")) for c in fc) / len(fc))
        if fc else float("nan"),
        "reported_recall": np.mean([bool(u) for ok, u in zip(~faithful, reported, strict=True)
                                    if ok]) if (~faithful).any() else float("nan"),
        "auc_hall": _auc(y, df["hallucination"].to_numpy(float), resamples),
        "auc_claims": _auc(y, df["claims_score"].to_numpy(float), resamples),
    }


HEADER = (f"{'file / task':<28} {'n':>5} {'pos':>5} {'claims/r':>8} {'claims(0)':>9} "
          f"{'false-al':>8} {'faith>=1':>8} {'recall':>7} {'rec.cl':>7} {'rep.FA':>7} "
          f"{'rep.rec':>7}  "
          f"{'AUROC hall':<19} {'AUROC claims':<19}")


def row(name: str, s: dict) -> str:
    return (f"{name:<28} {s['n']:>5} {s['pos']:>5} {s['claims_per_resp']:>8.2f} "
            f"{s['claims0']:>9} {s['false_alarm']:>8.1%} {s['faithful_any']:>8.1%} "
            f"{s['recall_any']:>7.1%} {s['recall_claim']:>7.1%} "
            f"{s['reported_false_alarm']:>7.1%} {s['reported_recall']:>7.1%}  {s['auc_hall']:<19} "
            f"{s['auc_claims']:<19}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", type=Path, nargs="*",
                    default=[ROOT / "data" / "responses.jsonl"])
    ap.add_argument("--label")
    ap.add_argument("--task", default="task", help="field to split figures by, if present")
    ap.add_argument("--config", type=Path)
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args(argv)
    config = load_config(args.config)
    print(HEADER)
    for path in args.inputs:
        t0 = time.perf_counter()
        df = score_labelled(read_labelled(path, label=args.label), config=config)
        if "error" in df.columns:
            df = df[df["error"].isna()].reset_index(drop=True)
        print(row(path.name[:28], summarise(df, args.resamples)))
        if args.task in df.columns and df[args.task].nunique() > 1:
            for task, part in df.groupby(args.task, sort=True):
                print(row(f"  {task}"[:28], summarise(part.reset_index(drop=True),
                                                      args.resamples)))
        print(f"{'':<28} scored in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
