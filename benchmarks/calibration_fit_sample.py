"""Build the fit sample of the shipped calibration from scored development sets.

    python benchmarks/calibration_fit_sample.py SCORED... -o data/calibration_fit.jsonl

Each SCORED file is a development set scored by evaltools (as
``benchmarks/validity.py --save-scored DIR`` writes them). The output keeps,
per record, what the calibration needs and what identifies the record, and
no text from the upstream data sets (some have no licence that allows
redistribution): ``id, task, group, source, label``, ``dataset`` (the
scored file's name, for ``--balance-by dataset``), the numeric score fields,
the ``signals`` (numbers only), and the anchors and unsupported spans reduced
to their kind, support and weight. ``evaltools calibrate`` reads it as already scored::

    evaltools calibrate data/calibration_fit.jsonl -o calibration.json \\
        --label label --group-by group --balance-by dataset
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

KEEP = ("id", "task", "group", "source", "label")
NUMERIC = ("relevance", "completeness", "hallucination", "claims_score", "drift_penalty",
           "ngram_overlap", "anchors_total", "anchors_unsupported", "support")


def _clean(v):
    return None if isinstance(v, float) and math.isnan(v) else v


def reduce(rec: dict) -> dict:
    out = {k: rec[k] for k in KEEP if k in rec}
    out.update({k: _clean(rec[k]) for k in NUMERIC if k in rec})
    out["anchors"] = [{"kind": a.get("kind"), "supported": a.get("supported"),
                       "counted": a.get("counted", True)} for a in rec.get("anchors") or []]
    if "unsupported_spans" in rec:
        out["unsupported_spans"] = [{"weight": s.get("weight")}
                                    for s in rec.get("unsupported_spans") or []]
    if isinstance(rec.get("signals"), dict):
        out["signals"] = {k: v for k, v in rec["signals"].items()
                          if isinstance(v, (int, float)) and not isinstance(v, bool)}
    out["error"] = None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scored", type=Path, nargs="+")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    lines = []
    for path in args.scored:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                if rec.get("error"):
                    continue
                lines.append(json.dumps({**reduce(rec), "dataset": path.stem},
                                        ensure_ascii=False, sort_keys=True))
    data = "\n".join(lines) + "\n"
    args.output.write_text(data, encoding="utf-8")
    print(f"{args.output}: {len(lines)} records, sha256 "
          f"{hashlib.sha256(data.encode('utf-8')).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
