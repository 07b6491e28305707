"""Fit and measure the span model: which unsupported spans would people mark hallucinated?

    python benchmarks/span_model.py DEVDATA [--write evaltools/scoring/span_model.json]

DEVDATA is the folder ``benchmarks/devsets.py`` writes: ``spans.jsonl`` holds
the character spans people marked in ``lfqa.jsonl`` (unsupported sentences),
``xsumfaith.jsonl`` (hallucinated spans, at least two of three annotators)
and ``wice_tokens.jsonl`` (WiCE sub-claims' unsupported tokens). Every record of those three sets is
scored; each unsupported span the grounding finds is labelled 1 when at least
half of its characters lie in marked text.

It prints, for each set, character-level precision, recall and F1 of the
text flagged as hallucinated (micro-averaged over the set's records, faithful
ones included), **leaving that set out** of the span model's fit:

- ``span model >= t``: spans whose probability reaches the threshold ``t``
  (chosen on the other sets, maximum F1);
- ``every unsupported span``: the grounding's runs without the model;
- ``absent-word runs``: maximal runs of response words (``[^\\W_]+``) absent
  from the context, a baseline that needs no parse.

With ``--write`` the model fitted on all three sets is saved (JSON
coefficients) with its provenance and the threshold chosen on all of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaltools.calibration.span_fit import fit_span_model  # noqa: E402
from evaltools.scoring.grounding import ground, span_feature_rows  # noqa: E402
from evaltools.scoring.scorer import ResponseScorer  # noqa: E402

SETS = ("lfqa", "xsumfaith", "wice_tokens")
_WORD = re.compile(r"[^\W_]+")


def char_set(spans) -> set[int]:
    return {i for a, b in spans for i in range(a, b)}


def absent_runs(response: str, context: str) -> list[tuple[int, int]]:
    """Maximal runs of response words absent from the context (case-folded)."""
    present = {w.lower() for w in _WORD.findall(context)}
    runs: list[list[int]] = []
    prev_absent = False
    for m in _WORD.finditer(response):
        absent = m.group().lower() not in present
        if absent and prev_absent:
            runs[-1][1] = m.end()
        elif absent:
            runs.append([m.start(), m.end()])
        prev_absent = absent
    return [(a, b) for a, b in runs]


def prf(pred: list[set[int]], gold: list[set[int]]) -> dict:
    tp = sum(len(p & g) for p, g in zip(pred, gold, strict=True))
    n_pred = sum(len(p) for p in pred)
    n_gold = sum(len(g) for g in gold)
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def collect(devdata: Path):
    """Per record: its gold characters, its spans (offsets, features) and the baseline."""
    gold_spans = {}
    for line in (devdata / "spans.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        gold_spans[r["id"]] = r["spans"]
    scorer = ResponseScorer()
    cfg = scorer.config
    out = []
    for name in SETS:
        records = [json.loads(x) for x in
                   (devdata / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        cache = scorer.cache
        for i in range(0, len(records), 256):
            chunk = records[i:i + 256]
            cache.prepare((role, r[role]) for r in chunk for role in cache.ROLES)
            for r in chunk:
                q, c, resp = (cache.get(role, r[role]) for role in cache.ROLES)
                g = ground(resp, c, q, cfg.grounding)
                feats = span_feature_rows(g, resp.text, resp.sentences)
                gold = char_set(gold_spans.get(r["id"], []))
                spans = []
                for s, f in zip(g.unsupported_spans, feats, strict=True):
                    inside = sum(1 for k in range(s.start, s.end) if k in gold)
                    spans.append(((s.start, s.end), f, int(inside * 2 >= s.end - s.start)))
                out.append({"set": name, "gold": gold, "spans": spans,
                            "baseline": char_set(absent_runs(r["response"], r["context"]))})
        print(f"scored {name}: {len(records)} records", file=sys.stderr)
    return out


def fit(rows, C: float = 1.0):
    X = [f for r in rows for _, f, _ in r["spans"]]
    y = [lab for r in rows for _, _, lab in r["spans"]]
    sets = [r["set"] for r in rows for _ in r["spans"]]
    # each set weighs the same, whatever its number of spans
    counts = {s: sets.count(s) for s in set(sets)}
    w = [len(sets) / (len(counts) * counts[s]) for s in sets]
    return fit_span_model(X, y, C=C, weights=w)


def flagged(rows, model, t: float) -> list[set[int]]:
    return [char_set([o for o, f, _ in r["spans"] if model.probability(f) >= t]) for r in rows]


def best_threshold(rows, model) -> float:
    gold = [r["gold"] for r in rows]
    grid = np.round(np.arange(0.05, 0.96, 0.05), 2)
    return float(max(grid, key=lambda t: prf(flagged(rows, model, t), gold)["f1"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("devdata", type=Path)
    ap.add_argument("--write", type=Path, help="save the model fitted on all sets here")
    ap.add_argument("--json", type=Path, help="write the figures as JSON")
    args = ap.parse_args(argv)
    rows = collect(args.devdata)
    figures = {}
    print("| held-out set | records | span model >= t (t from the other sets) "
          "| every unsupported span | absent-word runs |")
    print("|---|---|---|---|---|")
    for name in SETS:
        test = [r for r in rows if r["set"] == name]
        train = [r for r in rows if r["set"] != name]
        model = fit(train)
        t = best_threshold(train, model)
        gold = [r["gold"] for r in test]
        got = {"model": prf(flagged(test, model, t), gold),
               "every_span": prf([char_set([o for o, _, _ in r["spans"]]) for r in test], gold),
               "absent_runs": prf([r["baseline"] for r in test], gold), "threshold": t}
        figures[name] = got

        def cell(v):
            return f"P {v['precision']:.3f} R {v['recall']:.3f} F1 **{v['f1']:.3f}**"
        print(f"| {name} | {len(test)} | {cell(got['model'])} (t = {t:.2f}) "
              f"| {cell(got['every_span'])} | {cell(got['absent_runs'])} |")
    if args.write:
        model = fit(rows)
        t = best_threshold(rows, model)
        digest = hashlib.sha256((args.devdata / "spans.jsonl").read_bytes()).hexdigest()
        model = type(model)(model.names, model.centers, model.scales, model.coefficients,
                            model.intercept, {
                                "threshold_max_f1": t,
                                "fitted_on": {"sets": list(SETS), "spans_sha256": digest,
                                              "spans": sum(len(r["spans"]) for r in rows)},
                                "command": "python benchmarks/span_model.py DEVDATA --write "
                                           "evaltools/scoring/span_model.json"})
        args.write.write_text(json.dumps(model.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.write} (threshold with maximum F1 on all sets: {t:.2f})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
