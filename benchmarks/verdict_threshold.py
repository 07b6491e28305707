"""Choose the verdict's probability threshold and relevance waiver leaving one data set out.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/verdict_threshold.py SCORED... \
        [--held-out SCORED] [--thresholds 0.5 0.55 ...] [--waivers 0 0.6 ...] [--max-false 0.25]

Reads development sets scored under the spec's verdict
(``benchmarks/verdict_rates.py FILE... --config benchmarks/configs/verdict_spec.toml
--save DIR``: rule 1 is ``S_hall > 0.5`` and relevance is never waived, so each record's
reasons say whether rule 2 was crossed). Each set's probability comes from the shipped
family (the shipped calibration's features, L2 logistic, each set and label weighing the
same) **fitted on the other sets** (:func:`evaltools.calibration.lodo.fit_predict`), so a
threshold is judged on data its model never saw; a ``--held-out`` file is scored by the model
fitted on all of them. For every rule it prints, per set, the share of faithful responses
given FAIL and the F1 of FAIL (label 1 = unfaithful), the worst faithful FAIL over the
sets, and the worst over the task types (each task's development records pooled: QA is LFQA
and HaluEval, dialogue BEGIN and Q²). Rules:

- ``spec``: FAIL if ``S_hall > 0.5`` or relevance < 0.1 (the spec);
- ``p >= t``: FAIL if the probability is at least ``t``, if a record's own value denies a
  claim, or if ``S_hall > 0.5`` with an unsupported number or date;
- ``p >= t, value at p >= q``: the same, and an unsupported number or date also fails from
  probability ``q`` on (what ``hallucination.verdict_from = "probability"`` does, with
  ``q = hallucination.value_fail_probability``);
- ``p >= t, value at p >= q, name at p >= r`` (``--name-probabilities``): the same, and an
  unsupported claim with a name the context never mentions (``Anchor.absent``) also fails
  from probability ``r`` on (``hallucination.name_fail_probability``);
- ``p >= t only``: the probability alone, for comparison;
- with ``--record-thresholds``, each rule also with ``records at p >= u``: a response whose
  context is read as a record (a JSON business record, a data-to-text input) fails from
  ``min(t, u)`` on (``hallucination.record_fail_probability``);
- with ``--long-thresholds``, each rule also with ``long at p >= u``: a response of at least
  ``--long-words`` words fails from ``min(t, u)`` on (``hallucination.long_fail_probability``
  and ``hallucination.long_response_words``);

each under each relevance waiver ``w`` (rule 2 not applied when ``support >= w``; 0: never).
The amenity clause (``hallucination.amenity_fail_probability``) is not simulated: it reads
JSON business records only, which no development set holds (docs/validity.md, "Nineteenth
round").
The chosen rule is the one with the highest mean F1 over the development sets among those
whose worst faithful FAIL **per task type** is at most ``--max-false`` (the target is stated
per task type: a user's pipeline is one task, and two sets of one task that disagree on what
a faithful reply is, as BEGIN and Q² do, are both that task). Nothing is written.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verdict_rates import rates  # noqa: E402  (this folder: the same shares and F1)

from evaltools.calibration.lodo import fit_predict  # noqa: E402
from evaltools.scoring.context import read_context  # noqa: E402
from evaltools.scoring.probability import features_frame, load_calibration  # noqa: E402
from evaltools.scoring.verdict import RECORD_CONTRADICTIONS, VALUE_KINDS  # noqa: E402


def read(path: Path):
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    rows = [r for r in rows if r.get("error") is None and r.get("label") in (0, 1)]
    features = [c.name for c in load_calibration().coefficients]
    frame = features_frame(rows, features)
    frame["label"] = [int(r["label"]) for r in rows]
    frame["dataset"] = path.stem
    frame["task"] = [str(r.get("task") or path.stem) for r in rows]
    frame["s_hall"] = [float(r["hallucination"]) for r in rows]
    frame["support"] = [float(r["support"]) for r in rows]
    frame["relevance_fail"] = [any(x.startswith("relevance ") and "(irrelevant)" in x
                                   for x in r["reasons"]) for r in rows]
    frame["value_unsupported"] = [any(a.get("counted", True) and not a["supported"]
                                      and a["kind"] in VALUE_KINDS for a in r["anchors"])
                                  for r in rows]
    frame["record_denied"] = [any(a.get("counted", True) and not a["supported"]
                                  and a.get("contradiction") in RECORD_CONTRADICTIONS
                                  for a in r["anchors"]) for r in rows]
    frame["record"] = [read_context(str(r.get("context") or "")).structured for r in rows]
    frame["words"] = [round(math.expm1((r.get("signals") or {}).get("log_response_words", 0.0)))
                      for r in rows]
    frame["name_absent"] = [any(a.get("counted", True) and not a["supported"] and a.get("absent")
                                for a in r["anchors"]) for r in rows]
    return frame, features


def _fail(frame, t: float | None, w: float, value_rule: bool,
          value_p: float | None = None, name_p: float | None = None,
          record_p: float | None = None, long_p: float | None = None,
          long_words: int = 0) -> np.ndarray:
    """FAIL under one rule: rule 1 (spec, or the probability at ``t``) or rule 2 unwaived.

    With ``value_rule`` an unsupported number or date also fails when ``S_hall > 0.5``,
    or (``value_p``) when the probability reaches ``value_p``; with ``name_p`` so does an
    unsupported claim with a name the context never mentions, from ``name_p`` on; with
    ``record_p`` a response whose context is a record fails from ``min(t, record_p)`` on; with
    ``long_p`` a response of at least ``long_words`` words fails from ``min(t, long_p)`` on."""
    rel = frame["relevance_fail"].to_numpy()
    if w > 0:
        rel = rel & (frame["support"].to_numpy() < w)
    if t is None:
        rule1 = frame["s_hall"].to_numpy() > 0.5
    else:
        p = frame["p"].to_numpy()
        cut = np.full(len(p), t)
        if record_p is not None:
            cut[frame["record"].to_numpy()] = min(t, record_p)
        if long_p is not None:
            long = frame["words"].to_numpy() >= long_words
            cut[long] = np.minimum(cut[long], long_p)
        rule1 = (p >= cut) | frame["record_denied"].to_numpy()
        if value_rule:
            value = frame["s_hall"].to_numpy() > 0.5
            if value_p is not None:
                value |= p >= value_p
            rule1 |= value & frame["value_unsupported"].to_numpy()
            if name_p is not None:
                named = (frame["s_hall"].to_numpy() > 0.5) | (p >= name_p)
                rule1 |= named & frame["name_absent"].to_numpy()
    return rule1 | rel


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scored", type=Path, nargs="+")
    ap.add_argument("--held-out", type=Path, action="append", default=[])
    ap.add_argument("--thresholds", type=float, nargs="+",
                    default=[0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8])
    ap.add_argument("--waivers", type=float, nargs="+", default=[0.0, 0.6, 0.7, 0.8, 0.9])
    ap.add_argument("--value-probabilities", type=float, nargs="*", default=[0.4, 0.5],
                    help="also rules where an unsupported number or date fails from this "
                         "probability on (hallucination.value_fail_probability)")
    ap.add_argument("--name-probabilities", type=float, nargs="*", default=[],
                    help="also rules where, besides the value clause, an unsupported claim "
                         "with a name the context never mentions fails from this probability "
                         "on (hallucination.name_fail_probability)")
    ap.add_argument("--record-thresholds", type=float, nargs="*", default=[],
                    help="also each rule with responses whose context is a record failing "
                         "from this probability on (hallucination.record_fail_probability)")
    ap.add_argument("--long-thresholds", type=float, nargs="*", default=[],
                    help="also each rule with responses of at least --long-words words failing "
                         "from this probability on (hallucination.long_fail_probability)")
    ap.add_argument("--long-words", type=int, default=60,
                    help="how many words make a response long (hallucination."
                         "long_response_words)")
    ap.add_argument("--long-max-false", type=float, default=0.15,
                    help="the long responses' threshold is the lowest keeping their faithful "
                         "FAIL at or under this in every set and task")
    ap.add_argument("--max-false", type=float, default=0.25)
    args = ap.parse_args(argv)
    import pandas as pd

    parts, features = zip(*(read(p) for p in args.scored), strict=True)
    dev = pd.concat(parts, ignore_index=True)
    names = sorted(dev["dataset"].unique())
    dev["p"] = np.nan
    for name in names:
        test = dev["dataset"] == name
        dev.loc[test, "p"] = fit_predict(dev[~test], dev[test], features[0])
    held = []
    for path in args.held_out:
        frame, _ = read(path)
        frame["p"] = fit_predict(dev, frame, features[0])
        held.append(frame)
    frame = pd.concat([dev, *held], ignore_index=True)
    held_names = [p.stem for p in args.held_out]

    rules = [("spec", None, w, False, None, None) for w in args.waivers]
    rules += [(f"p >= {t:g}", t, w, True, None, None) for t in args.thresholds
              for w in args.waivers]
    rules += [(f"p >= {t:g}, value at p >= {q:g}", t, w, True, q, None)
              for q in args.value_probabilities
              for t in args.thresholds for w in args.waivers if q < t]
    rules += [(f"p >= {t:g}, value at p >= {q:g}, name at p >= {r:g}", t, w, True, q, r)
              for r in args.name_probabilities for q in args.value_probabilities
              for t in args.thresholds for w in args.waivers if q < t and r < t]
    rules += [(f"p >= {t:g} only", t, w, False, None, None) for t in args.thresholds
              for w in args.waivers]
    rules = [(*r, None, None) for r in rules]
    rules += [(f"{label}, records at p >= {u:g}", t, w, v, q, n, u, None)
              for u in args.record_thresholds
              for label, t, w, v, q, n, _, _ in list(rules) if t is not None and u < t]
    rules += [(f"{label}, long at p >= {u:g}", t, w, v, q, n, rp, u)
              for u in args.long_thresholds
              for label, t, w, v, q, n, rp, _ in list(rules) if t is not None and u < t]
    print(f"features: {', '.join(features[0])}; each set's probability from the model fitted "
          "on the others\n")
    cols = [*names, *held_names]
    tasks = sorted(dev["task"].unique())
    print("| rule 1 | relevance waived at support | worst faithful FAIL per task (dev) | "
          "worst per set (dev) | mean F1 (dev) | "
          + " | ".join(f"{c} faithful FAIL / F1" for c in cols) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(cols))
    best = None
    fails = []
    for label, t, w, value_rule, value_p, name_p, record_p, long_p in rules:
        fail = _fail(frame, t, w, value_rule, value_p, name_p, record_p, long_p,
                     args.long_words)
        fails.append(fail)
        per = {}
        for name in cols:
            d = frame["dataset"] == name
            r = rates(frame.loc[d, "label"].to_numpy(), fail[d.to_numpy()])
            per[name] = (r["faithful_fail"], r["f1"])
        in_dev = (~frame["dataset"].isin(held_names)).to_numpy()
        by_task = [rates(frame.loc[in_dev & (frame["task"] == k).to_numpy(), "label"].to_numpy(),
                         fail[in_dev & (frame["task"] == k).to_numpy()])["faithful_fail"]
                   for k in tasks]
        worst_task = max(by_task)
        worst = max(per[n][0] for n in names)
        mean_f1 = float(np.mean([per[n][1] for n in names]))
        print(f"| {label} | {w:g} | {worst_task:.1%} | {worst:.1%} | {100 * mean_f1:.1f} | "
              + " | ".join(f"{per[c][0]:.1%} / {100 * per[c][1]:.1f}" for c in cols) + " |")
        if long_p is None and worst_task <= args.max_false and (
                best is None or mean_f1 > best[0]):
            best = (mean_f1, label, w, worst_task)
    if best:
        print(f"\nchosen (worst faithful FAIL per task <= {args.max_false:.0%}, highest mean "
              f"F1): {best[1]}, relevance waived at support >= {best[2]:g} "
              f"(mean F1 {100 * best[0]:.1f}, worst faithful FAIL per task {best[3]:.1%})")
    else:
        print(f"\nno rule keeps every task's faithful FAIL at or under {args.max_false:.0%}")
    _leave_one_out(frame, names, tasks, [r for r in rules if r[-1] is None],
                   [f for r, f in zip(rules, fails, strict=True) if r[-1] is None],
                   args.max_false)
    if best and args.long_thresholds:
        base = next(i for i, r in enumerate(rules) if r[0] == best[1] and r[2] == best[2])
        longer = {r[-1]: fails[i] for i, r in enumerate(rules)
                  if r[0].startswith(best[1] + ", long at") and r[2] == best[2]}
        _long_choice(frame, names, fails[base], longer, args.long_words, args.long_max_false)
    return 0


def _long_cells(frame, fail, long_words: int, keep) -> dict:
    """Faithful FAIL and F1 among long responses, per set and task with ten faithful or more."""
    long = (frame["words"] >= long_words).to_numpy()
    cells = {}
    for (name, task), part in frame[long].groupby(["dataset", "task"]):
        if name in keep and (part["label"] == 0).sum() >= 10:
            cells[(name, task)] = rates(part["label"].to_numpy(), fail[part.index.to_numpy()])
    return cells


def _long_choice(frame, names, base, longer: dict, long_words: int, max_false: float) -> None:
    """The long responses' threshold: the lowest whose faithful FAIL among long responses stays
    at or under ``max_false`` in every set and task cell (the sets' own cells, not pooled:
    the few long responses of a task would hide behind a large set of short ones), and each
    set under the threshold chosen on the other sets' cells."""
    def choose(keep):
        ok = [u for u, fail in longer.items()
              if all(c["faithful_fail"] <= max_false
                     for c in _long_cells(frame, fail, long_words, keep).values())]
        return min(ok, default=None)

    print(f"\nresponses of {long_words} words or more, per set and task: faithful FAIL / F1\n")
    cells = _long_cells(frame, base, long_words, names)
    print("| long at | " + " | ".join(f"{n} {t}" for n, t in cells) + " |")
    print("|---|" + "---:|" * len(cells))
    for u, fail in [(None, base), *sorted(longer.items())]:
        got = _long_cells(frame, fail, long_words, names)
        print(f"| {'the rule' if u is None else f'p >= {u:g}'} | "
              + " | ".join(f"{got[c]['faithful_fail']:.1%} / {100 * got[c]['f1']:.1f}"
                           for c in cells) + " |")
    chosen = choose(names)
    print(f"\nchosen (lowest with every cell's faithful FAIL <= {max_false:.0%}): "
          + ("none" if chosen is None else f"long at p >= {chosen:g}"))
    print("\n| set | long at, chosen without it | long responses: faithful FAIL | F1 | "
          "whole set: faithful FAIL | F1 |")
    print("|---|---|---:|---:|---:|---:|")
    labels, sets = frame["label"].to_numpy(), frame["dataset"].to_numpy()
    for n in sorted({name for name, _ in cells}):
        u = choose([m for m in names if m != n])
        fail = base if u is None else longer[u]
        long = (frame["words"] >= long_words).to_numpy() & (sets == n)
        r, whole = rates(labels[long], fail[long]), rates(labels[sets == n], fail[sets == n])
        print(f"| {n} | {'none' if u is None else f'p >= {u:g}'} | {r['faithful_fail']:.1%} | "
              f"{100 * r['f1']:.1f} | {whole['faithful_fail']:.1%} | {100 * whole['f1']:.1f} |")


def _leave_one_out(frame, names, tasks, rules, fails, max_false: float) -> None:
    """Each development set under the rule chosen on the others (the same criterion: the
    highest mean F1 among rules whose worst faithful FAIL per task is at most ``max_false``;
    if none is, the lowest such worst), beside the rule chosen on all sets: what a new
    user's data would see of the choice."""
    labels = frame["label"].to_numpy()
    sets = frame["dataset"].to_numpy()
    task = frame["task"].to_numpy()

    def judged(fail, keep):
        f1 = np.mean([rates(labels[sets == n], fail[sets == n])["f1"] for n in keep])
        inside = np.isin(sets, keep)
        worst = max(rates(labels[inside & (task == k)], fail[inside & (task == k)])
                    ["faithful_fail"] for k in tasks if (inside & (task == k)).any())
        return max(worst, max_false), -f1

    print("\nleave one set out: each set under the rule chosen on the others\n")
    print("| set | rule chosen without it | faithful FAIL | F1 of FAIL |")
    print("|---|---|---:|---:|")
    for n in names:
        keep = [m for m in names if m != n]
        k = min(range(len(rules)), key=lambda i: judged(fails[i], keep))
        r = rates(labels[sets == n], fails[k][sets == n])
        print(f"| {n} | {rules[k][0]}, waiver {rules[k][2]:g} | {r['faithful_fail']:.1%} | "
              f"{100 * r['f1']:.1f} |")


if __name__ == "__main__":
    raise SystemExit(main())
