"""Which edits does the verdict miss? FAIL by the written probe's kind of edit, claims read
as contradicted, by label, and each hallucinated twin against its faithful original.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/probe_misses.py devdata/probe_bN.jsonl...
        [--responses benchmarks/probe_responses.jsonl] [--config TOML] [--calibration JSON]

For the written probe's batches (``benchmarks/probe.py`` builds them from
``benchmarks/probe_responses.jsonl``), or files ``verdict_rates.py --save`` wrote from them:

- per task and kind of edit, the hallucinated twins and the share of them given FAIL; the
  kind is the opening of the twin's ``edit`` field (*Invented detail*, *Invented sentence*,
  *Subtle conflict*, *Contradiction*, *Wrong value*, *Swapped entities*, *Misattribution*,
  *Unsupported generalisation*, as the briefs ask; any other opening is ``other``);
- per label, the outputs with an unsupported claim that the context contradicts by polarity
  (the anchor's ``contradiction`` is ``negation``) or by an opposite word (``opposite``), and
  how many of those are given FAIL;
- per task and kind of edit, the twins beside their faithful originals (the twin's id is the
  original's with ``_h``): the share of pairs in which the probability (the shipped
  calibration, or ``--calibration``) ranks the twin above its original (a tie counts half),
  the share of ties (the edit moves it by less than :data:`TIE`: the scorer does not see it),
  and the verdicts of the pair (both FAIL, only the twin, only the original, neither); beside
  them, per task, the AUROC of the probability over all the task's outputs. A pair ranked
  right with a pooled AUROC far below it says that the edit is seen but that faithful outputs
  differ among themselves by more than an edit moves one;
- per task and kind of edit, the share of twins whose scoring has an unsupported, counted
  anchor whose text none of its original's unsupported anchors has (the edit is found as an
  anchor, whatever the verdict: :func:`found_table`);
- per task, character precision, recall and F1 of the spans each output reports as
  hallucinated, against the characters each twin's edit wrote (``probe.gold_spans``; a
  faithful output's gold is empty, so its reported spans count against precision),
  micro-averaged over the task's outputs, as ``span_model.py`` measures the probe; beside
  them every unsupported span and the runs of absent words (``span_model.absent_runs``).

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

from probe import gold_spans  # noqa: E402  (this folder)
from span_model import absent_runs, char_set, prf  # noqa: E402

from evaltools.calibration.curves import roc  # noqa: E402
from evaltools.config import load_config  # noqa: E402
from evaltools.io.labelled import read_labelled  # noqa: E402
from evaltools.scoring.probability import load_calibration  # noqa: E402
from evaltools.scoring.restore import score_labelled  # noqa: E402

#: The kinds of edit the probe's briefs ask for, as their ``edit`` fields open.
EDIT_KINDS = ("Invented detail", "Invented sentence", "Subtle conflict", "Contradiction",
              "Wrong value", "Swapped entities", "Misattribution", "Unsupported generalisation")
#: Contradictions a claim's support reads from the context's own words.
POLARITY = ("negation", "opposite")
#: A twin whose probability differs from its original's by less than this is a tie.
TIE = 0.005
#: The verdicts of a pair (original FAIL, twin FAIL), as the twin table names them.
PAIR_OUTCOMES = {(True, True): "both", (False, True): "only twin", (True, False): "only original",
                 (False, False): "neither"}


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


def pair_rank(original: float, twin: float) -> float:
    """1 when the twin's probability is above its original's, 0 when below, 1/2 within
    :data:`TIE` of it (the edit unseen).

    >>> pair_rank(0.30, 0.42), pair_rank(0.30, 0.302), pair_rank(0.42, 0.30)
    (1.0, 0.5, 0.0)
    """
    if abs(twin - original) < TIE:
        return 0.5
    return 1.0 if twin > original else 0.0


def twin_table(rows: list[dict], kinds: dict[str, str]) -> list[str]:
    """The markdown lines of the twin table (module docstring) from scored rows holding
    ``id``, ``task``, ``label``, ``verdict`` and ``p`` (the probability); ``kinds`` maps a
    twin's id to its kind of edit."""
    by_id = {str(r["id"]): r for r in rows}
    cells: dict[tuple[str, str], list] = collections.defaultdict(list)
    for r in rows:
        original = by_id.get(str(r["id"])[:-2]) if str(r["id"]).endswith("_h") else None
        if int(r["label"]) != 1 or original is None or int(original["label"]) != 0:
            continue
        rank = pair_rank(original["p"], r["p"])
        outcome = PAIR_OUTCOMES[(original["verdict"] == "FAIL", r["verdict"] == "FAIL")]
        for kind in (kinds.get(str(r["id"]), "other"), "all"):
            cells[(r["task"], kind)].append((rank, outcome))
    out = ["| task | kind of edit | pairs | twin ranked above | ties | both FAIL | only twin "
           "| only original | neither | AUROC, all outputs |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    order = (*EDIT_KINDS, "other", "all")
    for task, kind in sorted(cells, key=lambda k: (k[0], order.index(k[1]))):
        got = cells[(task, kind)]
        n = len(got)
        counts = collections.Counter(o for _, o in got)
        auc = ""
        if kind == "all":
            mine = [r for r in rows if r["task"] == task]
            labels = [int(r["label"]) for r in mine]
            if 0 < sum(labels) < len(labels):
                auc = f"{roc(labels, [r['p'] for r in mine]).auc:.3f}"
        out.append(f"| {task} | {kind} | {n} | {sum(r for r, _ in got) / n:.1%} "
                   f"| {sum(r == 0.5 for r, _ in got) / n:.1%} | "
                   + " | ".join(str(counts[o]) for o in PAIR_OUTCOMES.values())
                   + f" | {auc} |")
    return out


def unsupported_texts(anchors) -> frozenset[str]:
    """The texts of a response's unsupported, counted anchors.

    >>> sorted(unsupported_texts([{"text": "$45", "supported": False},
    ...     {"text": "a lamp", "supported": True},
    ...     {"text": "as the query says", "supported": False, "counted": False}]))
    ['$45']
    """
    return frozenset(a["text"] for a in anchors
                     if not a.get("supported") and a.get("counted", True))


def found_table(rows: list[dict], kinds: dict[str, str]) -> list[str]:
    """The markdown lines of the found table (module docstring) from scored rows holding
    ``id``, ``task``, ``label`` and ``unsupported`` (:func:`unsupported_texts`); ``kinds``
    maps a twin's id to its kind of edit."""
    by_id = {str(r["id"]): r for r in rows}
    found: dict[tuple[str, str], list[bool]] = collections.defaultdict(list)
    for r in rows:
        original = by_id.get(str(r["id"])[:-2]) if str(r["id"]).endswith("_h") else None
        if int(r["label"]) != 1 or original is None or int(original["label"]) != 0:
            continue
        new = bool(r["unsupported"] - original["unsupported"])
        for kind in (kinds.get(str(r["id"]), "other"), "all"):
            found[(r["task"], kind)].append(new)
    out = ["| task | kind of edit | pairs | twin has a new unsupported anchor |",
           "|---|---|---:|---:|"]
    order = (*EDIT_KINDS, "other", "all")
    for task, kind in sorted(found, key=lambda k: (k[0], order.index(k[1]))):
        got = found[(task, kind)]
        out.append(f"| {task} | {kind} | {len(got)} | {sum(got) / len(got):.1%} |")
    return out


def span_table(rows: list[dict]) -> list[str]:
    """The markdown lines of the span table (module docstring) from scored rows holding
    ``id``, ``task``, ``label``, ``response``, ``context`` and ``unsupported_spans``."""
    gold = {g["id"]: char_set(g["spans"]) for g in gold_spans(rows)}
    out = ["| task | outputs | reported spans | every unsupported span | absent-word runs |",
           "|---|---:|---|---|---|"]
    tasks = sorted({r["task"] for r in rows if r["id"] in gold})
    for task in (*tasks, "all"):
        mine = [r for r in rows if r["id"] in gold and task in (r["task"], "all")]
        truth = [gold[r["id"]] for r in mine]
        cells = []
        for pick in (lambda r: [(s["start"], s["end"]) for s in r["unsupported_spans"]
                                if s.get("hallucinated")],
                     lambda r: [(s["start"], s["end"]) for s in r["unsupported_spans"]],
                     lambda r: absent_runs(r["response"], r["context"])):
            m = prf([char_set(pick(r)) for r in mine], truth)
            cells.append(f"P {m['precision']:.3f} R {m['recall']:.3f} F1 {m['f1']:.3f}")
        out.append(f"| {task} | {len(mine)} | " + " | ".join(cells) + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", type=Path, nargs="+")
    ap.add_argument("--responses", type=Path, default=ROOT / "benchmarks" / "probe_responses.jsonl")
    ap.add_argument("--config", type=Path)
    ap.add_argument("--calibration", type=Path,
                    help="the probability's calibration file (default: the shipped one)")
    args = ap.parse_args(argv)
    config = load_config(args.config) if args.config else load_config()
    calibration = load_calibration(args.calibration)
    edits = {}
    with args.responses.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("edit"):
                edits[str(row["id"])] = row["edit"]
    twins: collections.Counter = collections.Counter()
    failed: collections.Counter = collections.Counter()
    polar: collections.Counter = collections.Counter()
    scored: list[dict] = []
    spans: list[dict] = []
    for path in args.inputs:
        frame = score_labelled(read_labelled(path), config=config)
        for row, p in zip(frame.to_dict("records"), calibration.probabilities(frame),
                          strict=True):
            fail = row["verdict"] == "FAIL"
            if isinstance(row.get("unsupported_spans"), list):  # not an errored record
                spans.append({k: row.get(k) for k in ("id", "task", "label", "response",
                                                       "context", "unsupported_spans")})
            if p is not None:
                scored.append({"id": row["id"], "task": row.get("task", "-"),
                               "label": row["label"], "verdict": row["verdict"], "p": p,
                               "unsupported": unsupported_texts(row["anchors"])})
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
    print()
    kinds = {i: edit_kind(e) for i, e in edits.items()}
    print("\n".join(twin_table(scored, kinds)))
    print()
    print("\n".join(found_table(scored, kinds)))
    print()
    print("\n".join(span_table(spans)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
