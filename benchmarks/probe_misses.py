"""Which edits does the verdict miss? FAIL by the written probe's kind of edit, and claims
read as contradicted, by label.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/probe_misses.py devdata/probe_bN.jsonl...
        [--responses benchmarks/probe_responses.jsonl] [--config TOML]

For the written probe's batches (``benchmarks/probe.py`` builds them from
``benchmarks/probe_responses.jsonl``), or files ``verdict_rates.py --save`` wrote from them:

- per task and kind of edit, the hallucinated twins and the share of them given FAIL; the
  kind is the opening of the twin's ``edit`` field (*Invented detail*, *Invented sentence*,
  *Subtle conflict*, *Contradiction*, as the briefs ask; any other opening is ``other``);
- per label, the outputs with an unsupported claim that the context contradicts by polarity
  (the anchor's ``contradiction`` is ``negation``) or by an opposite word (``opposite``), and
  how many of those are given FAIL.

Nothing is fitted; the figures depend only on the files and the configuration.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402

#: The kinds of edit the probe's briefs ask for, as their ``edit`` fields open.
EDIT_KINDS = ("Invented detail", "Invented sentence", "Subtle conflict", "Contradiction")
#: Contradictions a claim's support reads from the context's own words.
POLARITY = ("negation", "opposite")


def edit_kind(edit: str) -> str:
    """The kind of a twin's edit: the brief's kind its ``edit`` field opens with, else
    ``"other"``.

    >>> edit_kind("Subtle conflict: changed $85 to $65."), edit_kind("Added a sauna.")
    ('Subtle conflict', 'other')
    """
    head = edit.split(":", 1)[0].strip()
    return head if head in EDIT_KINDS else "other"


def polarity_kinds(anchors) -> set[str]:
    """The polarity contradictions (:data:`POLARITY`) among a response's unsupported claims.

    >>> sorted(polarity_kinds([{"kind": "claim", "supported": False, "contradiction":
    ...     "opposite"}, {"kind": "claim", "supported": True, "contradiction": None}]))
    ['opposite']
    """
    return {a.get("contradiction") for a in anchors
            if a.get("kind") == "claim" and not a.get("supported")
            and a.get("contradiction") in POLARITY}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", type=Path, nargs="+")
    ap.add_argument("--responses", type=Path, default=ROOT / "benchmarks" / "probe_responses.jsonl")
    ap.add_argument("--config", type=Path)
    args = ap.parse_args(argv)
    config = load_config(args.config) if args.config else load_config()
    edits = {}
    with args.responses.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("edit"):
                edits[str(row["id"])] = row["edit"]
    twins: collections.Counter = collections.Counter()
    failed: collections.Counter = collections.Counter()
    polar: collections.Counter = collections.Counter()
    for path in args.inputs:
        frame = score_labelled(read_labelled(path), config=config)
        for row in frame.to_dict("records"):
            fail = row["verdict"] == "FAIL"
            label = int(row["label"])
            for kind in polarity_kinds(row["anchors"]):
                polar[(kind, label, fail)] += 1
            if label == 1:
                key = (row.get("task", "-"), edit_kind(edits.get(str(row["id"]), "")))
                twins[key] += 1
                failed[key] += fail
    print("| task | kind of edit | twins | given FAIL |")
    print("|---|---|---:|---:|")
    for task, kind in sorted(twins, key=lambda k: (k[0], (*EDIT_KINDS, "other").index(k[1]))):
        n = twins[(task, kind)]
        print(f"| {task} | {kind} | {n} | {failed[(task, kind)] / n:.1%} |")
    print()
    print("| contradiction | faithful outputs (FAIL) | hallucinated outputs (FAIL) |")
    print("|---|---:|---:|")
    for kind in POLARITY:
        cells = [f"{polar[(kind, y, False)] + polar[(kind, y, True)]} "
                 f"({polar[(kind, y, True)]})" for y in (0, 1)]
        print(f"| {kind} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
