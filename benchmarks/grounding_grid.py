"""AUROC of ``1 - support`` per labelled file under several grounding settings.

    python benchmarks/grounding_grid.py --files devdata/begin_dev.jsonl ... \\
        --settings '{}' '{"skip_hedged": false, "rarity_power": 1}'

Each setting is a JSON object of ``[grounding]`` keys applied with
``Config.replace``; every file (``query, context, response, label``) is scored
once per setting. This is how the grounding defaults were chosen
(``docs/grounding.md``, Measured): on the development sets only, never on
held-out data. Figures depend on nothing random; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sklearn.metrics import roc_auc_score

from evaltools.config import DEFAULT_CONFIG
from evaltools.io import read_records
from evaltools.scoring.scorer import ResponseScorer


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=Path, nargs="+", required=True)
    ap.add_argument("--settings", nargs="+", default=["{}"])
    args = ap.parse_args(argv)
    data = {p.stem: [r for _, r in read_records(p)] for p in args.files}
    for text in args.settings:
        scorer = ResponseScorer(DEFAULT_CONFIG.replace(grounding=json.loads(text)))
        t0 = time.perf_counter()
        row = {}
        for name, recs in data.items():
            support = [res.support for res in scorer.score_records(recs)]
            row[name] = round(roc_auc_score([r["label"] for r in recs],
                                            [1 - s for s in support]), 3)
        print(text, json.dumps(row), f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
