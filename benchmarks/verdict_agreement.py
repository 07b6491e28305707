"""Verdict agreement with people under the spec's relevance and under the options.

    python benchmarks/verdict_agreement.py FILE... [--resamples 1000] [--markdown]

Scores each file under four relevance settings and compares the verdicts with
human ones:

- ``spec``: ``reference = "query"``, ``answer_type = false`` (the spec);
- ``auto``: ``reference = "auto"`` (instructions measured against the context);
- ``answer_type``: the answer-type check only;
- ``auto + answer_type``: both.

A file with ``label_verdict`` (PASS/WARN/FAIL, as ``data/responses.jsonl``) is
compared on the three verdicts: accuracy and Cohen's kappa. A file with only
the 0/1 hallucination ``label`` (the development sets) is compared on "FAIL or
not": a faithful response (0) should not be failed, an unfaithful one (1)
should; accuracy and kappa of that binary call. Kappa intervals are 95 %
percentile bootstraps.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools import score_frame  # noqa: E402
from evaltools.calibration.agreement import verdict_agreement  # noqa: E402
from evaltools.calibration.bootstrap import kappa_ci  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402

SETTINGS = {
    "spec": {"reference": "query", "answer_type": False},
    "auto": {"reference": "auto", "answer_type": False},
    "answer_type": {"reference": "query", "answer_type": True},
    "auto + answer_type": {"reference": "auto", "answer_type": True},
}


def agreement(df, resamples: int, seed: int) -> dict:
    if "label_verdict" in df.columns and df["label_verdict"].notna().all():
        human, pred, kind = list(df["label_verdict"]), list(df["verdict"]), "PASS/WARN/FAIL"
        labels = ("PASS", "WARN", "FAIL")
    else:
        human = ["FAIL" if v == 1 else "OK" for v in df["label_hallucinated"]]
        pred = ["FAIL" if v == "FAIL" else "OK" for v in df["verdict"]]
        kind, labels = "FAIL or not", ("OK", "FAIL")
    a = verdict_agreement(human, pred, labels=labels)
    ci = kappa_ci(human, pred, labels=list(labels), n_resamples=resamples, seed=seed)
    return {"compared": kind, "n": a.n, "accuracy": a.accuracy, "kappa": a.kappa,
            "kappa_low": ci.low, "kappa_high": ci.high,
            "failed": int(np.sum(np.asarray(pred) == "FAIL"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--config", type=Path, help="base TOML configuration (default: shipped)")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--settings", nargs="+", choices=list(SETTINGS), default=list(SETTINGS))
    args = ap.parse_args(argv)
    import pandas as pd

    base = load_config(args.config)
    print("| file | compared | n | setting | accuracy | kappa [95% CI] | FAIL verdicts |")
    print("|---|---|---:|---|---:|---|---:|")
    for path in args.files:
        df = pd.DataFrame(read_labelled(path, label=None))
        for name in args.settings:
            rel = SETTINGS[name]
            scored = score_frame(df, config=base.replace(relevance=rel))
            r = agreement(scored, args.resamples, args.seed)
            print(f"| {path.name} | {r['compared']} | {r['n']} | {name} | {r['accuracy']:.3f} "
                  f"| {r['kappa']:.3f} [{r['kappa_low']:.3f}, {r['kappa_high']:.3f}] "
                  f"| {r['failed']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
