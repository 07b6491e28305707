r"""How well does ``1 - support`` rank labelled records, per task, beside word-overlap baselines?

    PYTHONPATH=$PWD .venv/bin/python benchmarks/grounding_auroc.py FILE [FILE ...]
        [--label FIELD] [--task FIELD] [--grid] [--resamples 1000] [--limit N]

Each file holds JSON Lines records ``query, context, response`` and a 0/1
label (``label``, else ``label_hallucinated``; 1 = unfaithful) and
optionally a task (``task``, else the file name). Prints per task and
overall the AUROC of:

- ``1 - support`` (grounding, default config) and ``hallucination`` (the spec's);
- four baselines: response length in words (``\w+``, lower case); share
  of response unigrams absent from the context; share of its content words
  (non-stop-word lemmas, :func:`evaltools.text.content_lemmas`) absent from
  the context's; share of its word bigrams absent.

With ``--grid`` it also prints ``1 - support`` for each grounding setting in
:data:`GRID` (features are parsed once; only grounding is recomputed), to
choose the defaults. The interval is a 95% bootstrap (positives and negatives
resampled apart). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import itertools
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration import auc_ci  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.scoring.features import FeatureCache  # noqa: E402
from evaltools.scoring.grounding import ground  # noqa: E402
from evaltools.scoring.hallucination import hallucination_score  # noqa: E402
from evaltools.text import content_lemmas, load_pipeline, ngrams  # noqa: E402

GRID = {
    "rarity_power": [1.0, 2.0],
    "scattered_credit": [1.0, 0.5],
    "adjacency_credit": [1.0, 0.5],
    "skip_hedged": [False, True],
}


def read(paths, label_field, task_field, limit):
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for k, line in enumerate(fh):
                if limit and k >= limit:
                    break
                r = json.loads(line)
                label = r.get(label_field, r.get("label_hallucinated"))
                if label is None:
                    continue
                rows.append({"query": r.get("query") or "", "context": r.get("context") or "",
                             "response": r.get("response") or "", "label": int(label),
                             "task": r.get(task_field) or Path(path).stem})
    return rows


def absent(items, present) -> float:
    return sum(1 for x in items if x not in present) / len(items) if items else 0.0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--label", default="label")
    ap.add_argument("--task", default="task")
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--limit", type=int, default=0, help="records per file (0: all)")
    args = ap.parse_args(argv)
    cfg = load_config()
    nlp = load_pipeline(cfg)
    rows = read(args.files, args.label, args.task, args.limit)
    cache = FeatureCache(nlp, cfg)
    signals: dict[str, list[float]] = defaultdict(list)
    variants = [dict(zip(GRID, v, strict=True)) for v in itertools.product(*GRID.values())]
    for chunk in range(0, len(rows), 256):
        part = rows[chunk:chunk + 256]
        cache.prepare((role, r[role]) for r in part for role in FeatureCache.ROLES)
        for r in part:
            q, c, p = (cache.get(role, r[role]) for role in FeatureCache.ROLES)
            signals["1 - support"].append(1 - ground(p, c, q, cfg.grounding).support)
            signals["hallucination (spec)"].append(hallucination_score(
                p, c, q, window=cfg.hallucination.claim_window).hallucination)
            rw, cw = words(r["response"]), words(r["context"])
            signals["baseline: length"].append(len(rw))
            signals["baseline: unigrams absent"].append(absent(rw, set(cw)))
            signals["baseline: content words absent"].append(
                absent(p.tokens, context_lemmas(nlp, r["context"])))
            signals["baseline: bigrams absent"].append(
                absent(ngrams(rw, 2), set(ngrams(cw, 2))))
            if args.grid:
                for v in variants:
                    g = ground(p, c, q, dataclasses.replace(cfg.grounding, **v))
                    name = "grid " + " ".join(f"{k[:4]}={x}" for k, x in v.items())
                    signals[name].append(1 - g.support)
    tasks = sorted({r["task"] for r in rows})
    y_all = np.array([r["label"] for r in rows])
    header = f"{'signal':60s}" + "".join(f"{t[:14]:>22s}" for t in [*tasks, "all"])
    print(header)
    sizes = [sum(1 for r in rows if r["task"] == t) for t in tasks] + [len(rows)]
    print(f"{'':60s}" + "".join(f"{'n=' + str(n):>22s}" for n in sizes))
    for name, values in signals.items():
        s_all = np.array(values, dtype=float)
        cells = []
        for t in [*tasks, None]:
            mask = np.ones(len(rows), bool) if t is None else np.array(
                [r["task"] == t for r in rows])
            y, s = y_all[mask], s_all[mask]
            if len(set(y)) < 2:
                cells.append(f"{'–':>22s}")
                continue
            ci = auc_ci(y, s, n_resamples=args.resamples)
            cells.append(f"{ci.estimate:.3f} [{ci.low:.2f},{ci.high:.2f}]".rjust(22))
        print(f"{name[:60]:60s}" + "".join(cells))


_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@functools.lru_cache(maxsize=4096)
def context_lemmas(nlp, text: str) -> frozenset[str]:
    return frozenset(content_lemmas(nlp(text)))


if __name__ == "__main__":
    main()
