"""How well do evaltools' hallucination scores rank labelled records? AUROC beside baselines.

    .venv/bin/python benchmarks/calibration_auroc.py [LABELLED_FILE] [--label FIELD]
        [--group-by FIELD [--group-regex REGEX]] [--folds 5] [--resamples 1000]

Prints, for a file of records with a 0/1 hallucination label, the AUROC (with
a 95% percentile bootstrap interval, positives and negatives resampled apart)
of:

- ``hallucination``, ``claims_score``, ``1 - ngram_overlap`` — the scorers;
- ``hallucination_probability (CV)`` — the learned probability, refitted in
  each fold and scored on records it did not see (grouped folds with
  ``--group-by``), so it is never judged on its own fit data;
- ``hallucination_probability (shipped)`` — the default calibration as
  shipped; on the HaluEval sample it was fitted on, this line is in-sample;
- two baselines that know nothing of claims: response length in words, and
  the share of response words absent from the context.

Default file: ``data/responses.jsonl``. For the HaluEval sample:

    .venv/bin/python benchmarks/calibration_auroc.py ../shared/benchmarks/halueval_qa_400.jsonl \\
        --label label --group-by id --group-regex '^(.*)_(?:right|halluc)$'
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

from evaltools.calibration import auc_ci, load_calibration  # noqa: E402
from evaltools.calibration.baselines import lexical_baselines, words  # noqa: E402
from evaltools.calibration.learned import (  # noqa: E402
    cross_validated_probabilities,
    features_frame,
)
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import group_keys, read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402


def absent_share(response: str, context: str) -> float:
    """Share of the response's word tokens that never occur in the context."""
    return lexical_baselines(response, context)["unigrams_absent"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", type=Path, nargs="?", default=ROOT / "data" / "responses.jsonl")
    ap.add_argument("--label")
    ap.add_argument("--group-by")
    ap.add_argument("--group-regex")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--config", type=Path, help="a TOML configuration (default: the shipped one)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    records = read_labelled(args.input, label=args.label)
    groups = (group_keys(records, args.group_by, regex=args.group_regex)
              if args.group_by else None)
    df = score_labelled(records, config=load_config(args.config))
    ok = df["error"].isna() if "error" in df.columns else np.ones(len(df), bool)
    df = df[ok].reset_index(drop=True)
    if groups is not None:
        groups = [g for g, keep in zip(groups, ok, strict=True) if keep]
    y = df["label_hallucinated"].astype(int).to_numpy()
    cv = cross_validated_probabilities(features_frame(df), y, folds=args.folds, seed=args.seed,
                                       groups=None if groups is None else np.asarray(groups))
    shipped = load_calibration()
    rows = [
        ("hallucination", df["hallucination"], "scorer: max(claims_score, drift penalty)"),
        ("claims_score", df["claims_score"], "scorer: unsupported / total anchors"),
        ("1 - ngram_overlap", 1.0 - df["ngram_overlap"], "scorer: drift gate's input"),
        ("hallucination_probability (CV)", cv,
         f"learned, {args.folds}-fold out-of-fold" + (", grouped" if groups else "")),
        ("hallucination_probability (shipped)",
         np.asarray(shipped.probabilities(df), dtype=float),
         f"default calibration (fitted on {shipped.metadata['fitted_on']['file']})"),
        ("baseline: response length", df["response"].map(lambda s: len(words(s))),
         "words in the response"),
        ("baseline: unigrams absent from context",
         [absent_share(r, c) for r, c in zip(df["response"], df["context"], strict=True)],
         "share of response words not in the context"),
    ]
    elapsed = time.perf_counter() - t0
    print(f"file: {args.input.name}   records: {len(df)} ({int(y.sum())} hallucinated)   "
          f"scored and fitted in {elapsed:.1f} s")
    print(f"AUROC with 95% bootstrap interval ({args.resamples} resamples, seed {args.seed})")
    print()
    print(f"{'score':<40} {'AUROC':>6}  {'95% CI':<13}  note")
    for name, values, note in rows:
        ci = auc_ci(y, np.asarray(values, dtype=float), n_resamples=args.resamples,
                    seed=args.seed)
        print(f"{name:<40} {ci.estimate:6.3f}  {ci.low:.3f}–{ci.high:.3f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
