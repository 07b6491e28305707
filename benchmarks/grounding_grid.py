"""AUROC of ``1 - support`` per labelled file under several grounding settings.

    python benchmarks/grounding_grid.py --files devdata/begin_dev.jsonl ... \\
        --settings '{}' '{"skip_hedged": false, "rarity_power": 1}'

Files hold ``query, context, response`` and ``label`` (or ``label_hallucinated``).
Each setting is a JSON object of ``[grounding]`` keys applied with
``Config.replace``. Every record is parsed once (its query, context and
response features, as the scorer derives them), then grounded under each
setting, so a grid of many settings costs little more than one. The last row
is the "content words absent" baseline on the same records. This is how the
grounding defaults were chosen (``docs/grounding.md``, Measured): on the
development sets only, never on held-out data. Figures depend on nothing
random; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sklearn.metrics import roc_auc_score

from evaltools.calibration.baselines import lexical_baselines
from evaltools.config import DEFAULT_CONFIG
from evaltools.io import read_records
from evaltools.scoring.features import FeatureCache
from evaltools.scoring.grounding import ground
from evaltools.text import load_pipeline


def parsed(records: list[dict], cache: FeatureCache) -> list[tuple]:
    """(query, context, response) features of every record, parsed in chunks."""
    out = []
    for k in range(0, len(records), 256):
        chunk = records[k:k + 256]
        cache.prepare((role, r[role]) for r in chunk for role in FeatureCache.ROLES)
        out.extend(tuple(cache.get(role, r[role]) for role in FeatureCache.ROLES)
                   for r in chunk)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=Path, nargs="+", required=True)
    ap.add_argument("--settings", nargs="+", default=["{}"])
    args = ap.parse_args(argv)
    cache = FeatureCache(load_pipeline(DEFAULT_CONFIG), DEFAULT_CONFIG)
    data = {}
    for p in args.files:
        t0 = time.perf_counter()
        recs = [r for _, r in read_records(p)]
        labels = [r["label"] if "label" in r else r["label_hallucinated"] for r in recs]
        data[p.stem] = (labels, parsed(recs, cache), recs)
        print(f"parsed {p.name}: {len(recs)} records in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr, flush=True)
    for text in args.settings:
        cfg = DEFAULT_CONFIG.replace(grounding=json.loads(text)).grounding
        row = {}
        for name, (labels, feats, _) in data.items():
            support = [ground(r, c, q, cfg).support for q, c, r in feats]
            row[name] = round(roc_auc_score(labels, [1 - s for s in support]), 3)
        print(text, json.dumps(row), flush=True)
    row = {name: round(roc_auc_score(labels, [lexical_baselines(r["response"], r["context"])
                                              ["content_absent"] for r in recs]), 3)
           for name, (labels, _, recs) in data.items()}
    print("baseline: content words absent", json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
