"""How often does the verdict FAIL faithful and hallucinated responses, per file and task?

    PYTHONPATH=$PWD .venv/bin/python benchmarks/verdict_rates.py FILE... [--config TOML]
        [--calibration JSON] [--save DIR] [--markdown]

For each labelled file (label 1 = unfaithful; ``benchmarks/devsets.py`` builds
the development sets) and each value of its ``task`` field, prints:

- ``faithful FAIL`` — the share of faithful (label 0) responses whose verdict is
  FAIL (the false-alarm rate a user meets; target <= 25 %);
- ``hallucinated FAIL`` — the share of unfaithful (label 1) responses given FAIL;
- ``F1`` — F1 of "verdict is FAIL" against the label (positive: unfaithful);
- ``flag all F1`` — the F1 of flagging every response, for comparison;
- the rule that decided the faithful FAILs (``reasons[0]``, first words), counted.

Rows ``all`` pool every file given. By default the verdict's hallucination rule
reads the shipped calibration's probability and threshold (``hallucination.verdict_from
= "probability"``); ``--calibration`` reads another one, and ``--config
benchmarks/configs/verdict_spec.toml`` gives the spec's verdict. ``--save DIR`` writes each
scored file as JSON Lines (for inspection; not data to commit).
Nothing is fitted; the figures depend only on the files and the configuration.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402


def rates(y: np.ndarray, fail: np.ndarray) -> dict:
    """Shares of FAIL among faithful and unfaithful responses and F1 of FAIL.

    >>> r = rates(np.array([0, 0, 1, 1]), np.array([True, False, True, False]))
    >>> r["faithful_fail"], r["halluc_fail"], round(r["f1"], 4), round(r["flag_all_f1"], 4)
    (0.5, 0.5, 0.5, 0.6667)
    """
    y = y.astype(int)
    pos, neg = y == 1, y == 0
    tp = int(np.sum(fail & pos))
    fp = int(np.sum(fail & neg))
    fn = int(np.sum(~fail & pos))
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    flag_all = 2 * int(pos.sum()) / (2 * int(pos.sum()) + int(neg.sum())) if pos.any() else 0.0
    return {"n": len(y), "pos": int(pos.sum()),
            "faithful_fail": float(np.mean(fail[neg])) if neg.any() else float("nan"),
            "halluc_fail": float(np.mean(fail[pos])) if pos.any() else float("nan"),
            "f1": f1, "flag_all_f1": flag_all}


def reason_kind(reason: str) -> str:
    """The rule a reason names: its first word ("hallucination", "relevance"...)."""
    return reason.split(" ", 1)[0] if reason else "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", type=Path, nargs="+")
    ap.add_argument("--config", type=Path)
    ap.add_argument("--calibration", type=Path)
    ap.add_argument("--save", type=Path)
    args = ap.parse_args(argv)
    config = load_config(args.config)
    if args.calibration is not None:
        config = config.replace(hallucination={"verdict_from": "probability"})
    pooled_y, pooled_fail, pooled_task = [], [], []
    print("| file | task | n | unfaithful | faithful FAIL | hallucinated FAIL | F1 of FAIL "
          "| flag all F1 | faithful FAILs decided by |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for path in args.inputs:
        t0 = time.perf_counter()
        records = read_labelled(path, label=None)
        if args.calibration is not None:
            import pandas as pd

            from evaltools.calibration import load_calibration
            from evaltools.scoring.scorer import ResponseScorer
            scorer = ResponseScorer(config, calibration=load_calibration(args.calibration))
            df = scorer.score_frame(pd.DataFrame(records))
        else:
            df = score_labelled(records, config=config)
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            with open(args.save / f"{path.stem}.jsonl", "w", encoding="utf-8") as fh:
                for rec in df.to_dict(orient="records"):
                    fh.write(json.dumps(rec, default=str) + "\n")
        y = df["label_hallucinated"].astype(int).to_numpy()
        fail = (df["verdict"] == "FAIL").to_numpy()
        tasks = df["task"].to_numpy() if "task" in df.columns else np.array(["-"] * len(df))
        pooled_y.append(y)
        pooled_fail.append(fail)
        pooled_task.append(tasks)
        for task in sorted(set(tasks)):
            m = tasks == task
            r = rates(y[m], fail[m])
            why = collections.Counter(reason_kind(rs[0]) for rs, f, lab, mm in zip(
                df["reasons"], fail, y, m, strict=True) if f and lab == 0 and mm)
            print(f"| {path.name} | {task} | {r['n']} | {r['pos']} | {r['faithful_fail']:.1%} "
                  f"| {r['halluc_fail']:.1%} | {100 * r['f1']:.1f} | {100 * r['flag_all_f1']:.1f} "
                  f"| {', '.join(f'{k} {v}' for k, v in why.most_common())} |", flush=True)
        print(f"<!-- {path.name} scored in {time.perf_counter() - t0:.1f} s -->", file=sys.stderr)
    y, fail, tasks = (np.concatenate(pooled_y), np.concatenate(pooled_fail),
                      np.concatenate(pooled_task))
    for task in sorted(set(tasks)):
        m = tasks == task
        r = rates(y[m], fail[m])
        print(f"| all | {task} | {r['n']} | {r['pos']} | {r['faithful_fail']:.1%} "
              f"| {r['halluc_fail']:.1%} | {100 * r['f1']:.1f} | {100 * r['flag_all_f1']:.1f} | |")
    r = rates(y, fail)
    print(f"| all | all | {r['n']} | {r['pos']} | {r['faithful_fail']:.1%} "
          f"| {r['halluc_fail']:.1%} | {100 * r['f1']:.1f} | {100 * r['flag_all_f1']:.1f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
