"""How the long responses' probability thresholds move the verdict, group by group of the probe.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/probe_thresholds.py PROBE.jsonl \
        [--task summary] [--key long_summary_fail_probability] \
        [--values 0.5 0.55 0.6 0.65] [--read-upto 235]

Scores a file written by ``benchmarks/probe.py`` once, then re-decides every record's verdict
under each value of one ``[hallucination]`` threshold (:func:`evaltools.scoring.verdict.redecide`:
nothing is rescored) and prints, for each value, the share of faithful responses given FAIL
and of hallucinated ones, and the F1 of FAIL at the batch's even mix and at a 42 % mix
(``2·0.42h / (0.42h + 0.58f + 0.42)``), for the groups whose false alarms were read
(batches up to ``--read-upto``) and for those after, which nobody read. A threshold
chosen on the read groups' rates meets the target there by construction; the unread groups
say what a new user meets.

It also prints the selection rule's own held-out figure: for each group of three batches
after ``--read-upto``, the lowest value at which every *other* group pooled keeps
faithful FAIL at or under ``--target``, and that group's faithful FAIL under it.
Nothing is written.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import verdict_rates  # noqa: E402  (this folder: the shares of FAIL)
from probe import batch_of  # noqa: E402  (this folder: the batch of an id)

from evaltools.config import DEFAULT_CONFIG  # noqa: E402
from evaltools.scoring.scorer import ResponseScorer  # noqa: E402
from evaltools.scoring.verdict import redecide  # noqa: E402


def f1_at(faithful_fail: float, halluc_fail: float, mix: float) -> float:
    """F1 of FAIL (positive: hallucinated) at a share ``mix`` of hallucinated responses.

    >>> round(f1_at(0.2, 0.6, 0.5), 4)   # tp 0.3, fp 0.1, fn 0.2: 0.6 / (0.6 + 0.3)
    0.6667
    >>> round(f1_at(0.2, 0.6, 0.42), 4)  # 0.504 / (0.252 + 0.116 + 0.42)
    0.6396
    """
    tp = mix * halluc_fail
    return 2 * tp / (tp + (1 - mix) * faithful_fail + mix) if tp else 0.0


def group_of(batch: int) -> int:
    """The first batch of the group of three a batch was written and measured in (137-139,
    140-142, ..., 245-247: since batch 137 the batches have been written three at a time).

    >>> group_of(137), group_of(139), group_of(140), group_of(244), group_of(247)
    (137, 137, 140, 242, 245)
    """
    return batch - (batch - 2) % 3


def rates(rows: list[tuple[int, bool]]) -> tuple[float, float, int, int]:
    """Faithful FAIL and hallucinated FAIL shares of ``(label, failed)`` rows, and counts
    (the shares as :func:`verdict_rates.rates` computes them; 0 where a side is empty).

    >>> rates([(0, True), (0, False), (1, True), (1, True)])
    (0.5, 1.0, 2, 2)
    """
    y = np.array([label for label, _ in rows], dtype=int)
    r = verdict_rates.rates(y, np.array([failed for _, failed in rows], dtype=bool))
    shares = [0.0 if np.isnan(x) else x for x in (r["faithful_fail"], r["halluc_fail"])]
    return (*shares, r["n"] - r["pos"], r["pos"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probe", type=Path, help="a file written by benchmarks/probe.py")
    ap.add_argument("--task", default="summary", choices=("summary", "qa", "data2text"))
    ap.add_argument("--key", default="long_summary_fail_probability",
                    help="the [hallucination] threshold to vary")
    ap.add_argument("--values", type=float, nargs="+", default=[0.5, 0.55, 0.6, 0.65, 0.7])
    ap.add_argument("--read-upto", type=int, default=235,
                    help="the last batch whose false alarms were read (default 235)")
    ap.add_argument("--target", type=float, default=0.25,
                    help="the faithful FAIL the selection rule keeps to (default 0.25)")
    args = ap.parse_args(argv)

    records = [json.loads(line) for line in args.probe.open(encoding="utf-8")]
    records = [r for r in records if r["task"] == args.task]
    scorer = ResponseScorer()
    results = list(scorer.score_records(records))
    configs = {v: DEFAULT_CONFIG.replace(hallucination={args.key: v}) for v in args.values}
    # group of three batches -> value -> [(label, failed)]
    table: dict[int, dict[float, list]] = collections.defaultdict(
        lambda: collections.defaultdict(list))
    for record, result in zip(records, results, strict=True):
        group = group_of(batch_of(record["id"]))
        for v, cfg in configs.items():
            failed = redecide(result, cfg).verdict == "FAIL"
            table[group][v].append((int(record["label"]), failed))

    def pooled(groups, v):
        return [row for g in groups for row in table[g][v]]

    read = [g for g in table if g <= args.read_upto]
    unread = [g for g in table if g > args.read_upto]
    print(f"{args.task}: {args.key}; read groups "
          f"{f'{min(read)}-{max(read) + 2}' if read else '-'}, unread "
          f"{', '.join(f'{g}-{g + 2}' for g in sorted(unread))}")
    print("| value | groups | n faithful | faithful FAIL | hallucinated FAIL | F1 (even) "
          "| F1 (42 %) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for v in args.values:
        for name, groups in (("read", read), ("unread", unread)):
            if not groups:
                continue
            f, h, nf, _ = rates(pooled(groups, v))
            print(f"| {v:g} | {name} | {nf} | {100 * f:.1f} % | {100 * h:.1f} % "
                  f"| {100 * f1_at(f, h, 0.5):.1f} | {100 * f1_at(f, h, 0.42):.1f} |")
    print()
    print(f"Selection rule held out (lowest value with faithful FAIL <= {args.target:g} on "
          "every other group pooled):")
    print("| held-out group | chosen | its faithful FAIL | its hallucinated FAIL |")
    print("|---|---:|---:|---:|")
    for g in sorted(unread):
        others = [o for o in table if o != g]
        ok = [v for v in sorted(args.values) if rates(pooled(others, v))[0] <= args.target]
        chosen = ok[0] if ok else max(args.values)
        f, h, _, _ = rates(table[g][chosen])
        print(f"| {g}-{g + 2} | {chosen:g} | {100 * f:.1f} % | {100 * h:.1f} % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
