"""Fit and measure the span model: which unsupported spans would people mark hallucinated?

    python benchmarks/span_model.py DEVDATA [--write evaltools/scoring/span_model.json]
        [--records SCORED_DIR]

DEVDATA is the folder ``benchmarks/devsets.py`` writes: ``spans.jsonl`` holds
the character spans people marked in ``lfqa.jsonl`` (unsupported sentences),
``xsumfaith.jsonl`` (hallucinated spans, at least two of three annotators)
and ``wice_tokens.jsonl`` (WiCE sub-claims' unsupported tokens).
``probe_spans.jsonl`` (``benchmarks/probe.py --spans``) holds the characters
each hallucinated variant of the written probe (``probe.jsonl``) changed from
its faithful original, and nothing for the faithful ones: outputs of the three
RAG shapes, mostly faithful text with a short edit. Every record of those four
sets is scored; each unsupported span the grounding finds is labelled 1 when
at least half of its characters lie in marked text. The span model is fitted
on the first three (people's marks) and the probe measured by it, also per task
(``probe/qa``, ``probe/summary``, ``probe/data2text``); ``--fit-probe`` fits on
the probe's edits too.

It prints, for each set, character-level precision, recall and F1 of the
text flagged as hallucinated (micro-averaged over the set's records, faithful
ones included), **leaving that set out** of the span model's fit:

- ``span model >= t``: spans whose probability reaches the threshold ``t``
  (chosen on the other sets, maximum F1);
- ``every unsupported span``: the grounding's runs without the model;
- ``absent-word runs``: maximal runs of response words (``[^\\W_]+``) absent
  from the context, a baseline that needs no parse.

With ``--records SCORED_DIR`` (the scored development sets
``benchmarks/validity.py --save-scored`` writes) three more measurements, for
``grounding.span_record_gate``:

- ``+ record gate``: the spans of a record count only when the record's
  hallucination probability reaches the gate. The probability of a record is
  that of the shipped model's recipe fitted on the *other* record sets
  (balanced, as the shipped fit), so the set measured is unseen by it too.
- ``shipped gates``: each set under the shipped span model and threshold, for
  each gate, and their mean (how the shipped gate was chosen);
- ``with faithful responses mixed in``: each held-out span set together with
  every faithful record of the record sets without span labels (their gold
  is empty: people marked nothing), which is what a pipeline whose responses
  are mostly faithful looks like; the figures are the mean over two halves of
  those sets, the threshold and gate chosen with the other half.

Always, at the end, the shipped span model swept over one setting at a time, the others as
shipped (the record gate only with ``--records``): F1 of each set for each value of
``grounding.span_lone_word_zipf`` in ``LONE_WORD_CUTS`` (a span that is one everyday word is
not reported; how the value was chosen) and for each threshold in ``THRESHOLDS``; then the
character precision of the probe's reported spans by shape, the rule off (what the rule is
for).

With ``--write`` the model fitted on the three sets of people's marks (and the
probe's edits with ``--fit-probe``) is saved (JSON
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
from evaltools.config import load_config  # noqa: E402
from evaltools.scoring.grounding import (  # noqa: E402
    ground,
    lone_common_words,
    span_feature_rows,
)
from evaltools.scoring.scorer import ResponseScorer  # noqa: E402

SETS = ("lfqa", "xsumfaith", "wice_tokens", "probe")
#: the sets the span model is fitted on: people's marks (the probe is measured, not fitted,
#: unless ``--fit-probe``)
FIT_SETS = ("lfqa", "xsumfaith", "wice_tokens")
#: the files of marked characters: people's (devsets.py) and the probe's edits (probe.py)
SPAN_FILES = ("spans.jsonl", "probe_spans.jsonl")
PROBE_TASKS = ("qa", "summary", "data2text")
#: record sets without span labels whose faithful records are mixed in, in two halves
FAITHFUL = (("halueval_qa", "begin_dev", "wice"), ("webnlg", "q2_wow", "factscore"))
#: the record set each span set is drawn from (left out of its record model)
RECORD_SET = {"lfqa": "lfqa", "xsumfaith": "xsumfaith", "wice_tokens": "wice", "probe": "probe"}
RECORD_SETS = ("lfqa", "halueval_qa", "xsumfaith", "webnlg", "begin_dev", "q2_wow", "wice",
               "factscore")
GATES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7)
#: the values of ``grounding.span_lone_word_zipf`` measured (0: the rule off)
LONE_WORD_CUTS = (0.0, 3.0, 3.5, 4.0, 4.5, 5.0)
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


def collect(devdata: Path, names=SETS, faithful_only: bool = False, config=None,
            cuts=LONE_WORD_CUTS):
    """Per record: its gold characters, its spans (offsets, features), the baseline and
    its score output (for the record probability); scored with ``config`` (default: the
    shipped one). ``lone`` holds the spans that are lone everyday words at the config's
    ``grounding.span_lone_word_zipf``, ``lone_by_cut`` those at each of ``cuts`` too."""
    gold_spans = {}
    for file in SPAN_FILES:
        if not (devdata / file).is_file():
            raise SystemExit(f"{devdata / file}: not found (spans.jsonl: benchmarks/devsets.py; "
                             "probe_spans.jsonl: benchmarks/probe.py --spans)")
        for line in (devdata / file).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            gold_spans[r["id"]] = r["spans"]
    scorer = ResponseScorer(config)
    cfg = scorer.config
    out = []
    for name in names:
        records = [json.loads(x) for x in
                   (devdata / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        if faithful_only:
            records = [r for r in records if r["label"] == 0]
        results = list(scorer.score_records(records))
        cache = scorer.cache
        for i in range(0, len(records), 256):
            chunk = records[i:i + 256]
            cache.prepare((role, r[role]) for r in chunk for role in cache.ROLES)
            for r, result in zip(chunk, results[i:i + 256], strict=True):
                q, c, resp = (cache.get(role, r[role]) for role in cache.ROLES)
                g = ground(resp, c, q, cfg.grounding)
                feats = span_feature_rows(g, resp.text, resp.sentences)
                gold = set() if faithful_only else char_set(gold_spans.get(r["id"], []))
                spans = []
                for s, f in zip(g.unsupported_spans, feats, strict=True):
                    inside = sum(1 for k in range(s.start, s.end) if k in gold)
                    spans.append(((s.start, s.end), f, int(inside * 2 >= s.end - s.start)))
                lone = {cut: {(s.start, s.end) for s, is_lone in zip(
                    g.unsupported_spans, lone_common_words(g, resp.text, cut), strict=True)
                    if is_lone} for cut in {*cuts, cfg.grounding.span_lone_word_zipf}}
                out.append({"set": name, "task": r.get("task"), "gold": gold, "spans": spans,
                            "lone": lone[cfg.grounding.span_lone_word_zipf], "lone_by_cut": lone,
                            "text": r["response"],
                            "baseline": char_set(absent_runs(r["response"], r["context"])),
                            "score": result.to_dict(), "p_record": 1.0})
        print(f"scored {name}: {len(records)} records", file=sys.stderr)
    return out


def record_probabilities(rows, scored: Path) -> None:
    """Set each row's ``p_record``: the shipped model's features, fitted (balanced per set
    and label) on the record sets other than the row's own."""
    import pandas as pd

    from evaltools.calibration.lodo import fit_predict
    from evaltools.scoring.probability import DEFAULT_FEATURES, features_frame

    names = list(DEFAULT_FEATURES)
    parts = []
    for name in RECORD_SETS:
        recs = [json.loads(x) for x in
                (scored / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        part = features_frame(recs, names)
        part["label"], part["dataset"] = [r["label"] for r in recs], name
        parts.append(part)
    train = pd.concat(parts, ignore_index=True)
    for name in {r["set"] for r in rows}:
        mine = [r for r in rows if r["set"] == name]
        own = RECORD_SET.get(name, name)
        p = fit_predict(train[train["dataset"] != own],
                        features_frame([r["score"] for r in mine], names), names)
        for r, v in zip(mine, p, strict=True):
            r["p_record"] = float(v)


def fit(rows, C: float = 1.0, fit_sets=FIT_SETS):
    rows = [r for r in rows if r["set"] in fit_sets]
    X = [f for r in rows for _, f, _ in r["spans"]]
    y = [lab for r in rows for _, _, lab in r["spans"]]
    sets = [r["set"] for r in rows for _ in r["spans"]]
    # each set weighs the same, whatever its number of spans
    counts = {s: sets.count(s) for s in set(sets)}
    w = [len(sets) / (len(counts) * counts[s]) for s in sets]
    return fit_span_model(X, y, C=C, weights=w)


def flagged(rows, model, t: float, gate: float = 0.0) -> list[set[int]]:
    """The characters reported as hallucinated: spans at ``t`` or more that are not a lone
    everyday word (``grounding.span_lone_word_zipf``), in records at ``gate`` or more."""
    return [char_set([o for o, f, _ in r["spans"]
                      if model.probability(f) >= t and o not in r["lone"]])
            if r["p_record"] >= gate else set() for r in rows]


def best_threshold(rows, model, gates=(0.0,)) -> tuple[float, float]:
    """The (threshold, gate) with the maximum F1 on ``rows``."""
    gold = [r["gold"] for r in rows]
    grid = [(float(t), g) for t in np.round(np.arange(0.05, 0.96, 0.05), 2) for g in gates]
    return max(grid, key=lambda tg: prf(flagged(rows, model, *tg), gold)["f1"])


def cell(v) -> str:
    return f"P {v['precision']:.3f} R {v['recall']:.3f} F1 **{v['f1']:.3f}**"


def gate_table(rows, faithful, fit_sets=FIT_SETS) -> dict:
    """Span F1 of each span set, alone and with faithful records mixed in, without and
    with the record gate (threshold and gate chosen on the other sets)."""
    print()
    print("| held-out set | mixed in | span model >= t | + record gate >= g | every unsupported "
          "span | absent-word runs |")
    print("|---|---|---|---|---|---|")
    out = {}
    for name in SETS:
        test = [r for r in rows if r["set"] == name]
        train = [r for r in rows if r["set"] != name and r["set"] in fit_sets]
        model = fit(train, fit_sets=fit_sets)
        mixes = [("nothing", test, train, None)] + [
            (f"faithful of {', '.join(half)}", test + [r for r in faithful if r["set"] in half],
             train + [r for r in faithful if r["set"] in other], half)
            for half, other in (FAITHFUL, FAITHFUL[::-1])]
        if name == "probe":  # and each of its tasks, nothing mixed in
            mixes += [(f"nothing, {task} only", [r for r in test if r["task"] == task], train,
                       None) for task in PROBE_TASKS]
        for label, te, tu, _ in mixes:
            t0, _ = best_threshold(tu, model)
            t1, g1 = best_threshold(tu, model, GATES)
            gold = [r["gold"] for r in te]
            got = {"model": prf(flagged(te, model, t0), gold),
                   "gated": prf(flagged(te, model, t1, g1), gold),
                   "every_span": prf([char_set([o for o, _, _ in r["spans"]]) for r in te], gold),
                   "absent_runs": prf([r["baseline"] for r in te], gold),
                   "threshold": t0, "gated_threshold": t1, "gate": g1}
            out[f"{name} + {label}"] = got
            print(f"| {name} | {label} | {cell(got['model'])} (t = {t0:.2f}) | "
                  f"{cell(got['gated'])} (t = {t1:.2f}, g = {g1:.1f}) | "
                  f"{cell(got['every_span'])} | {cell(got['absent_runs'])} |")
    return out


def sweep(rows, title: str, column: str, values, setting) -> dict:
    """F1 of each span set (and the probe's tasks) under the shipped span model, for each
    of ``values`` of one setting; ``setting(value)`` gives the (threshold, record gate,
    lone-word Zipf cut) to flag with. The mean and the worst are over the four span sets."""
    from evaltools.scoring.span_probability import load_span_model

    model = load_span_model()
    parts = [(name, [r for r in rows if r["set"] == name]) for name in SETS] + [
        (f"probe/{task}", [r for r in rows if r["set"] == "probe" and r["task"] == task])
        for task in PROBE_TASKS]
    print()
    print(title)
    print()
    print(f"| {column} | " + " | ".join(name for name, _ in parts)
          + " | mean of the span sets | worst span set |")
    print("|---|" + "---:|" * (len(parts) + 2))
    out = {}
    for value in values:
        t, gate, cut = setting(value)
        f1 = {name: prf(flagged([r | {"lone": r["lone_by_cut"][cut]} for r in part], model, t,
                                gate), [r["gold"] for r in part])["f1"]
              for name, part in parts}
        mean = sum(f1[name] for name in SETS) / len(SETS)
        worst = min(f1[name] for name in SETS)
        out[str(value)] = f1 | {"mean": mean, "worst": worst}
        print(f"| {value} | " + " | ".join(f"{f1[name]:.3f}" for name, _ in parts)
              + f" | {mean:.3f} | {worst:.3f} |")
    return out


#: the thresholds of the span model measured under the shipped gate and lone-word rule
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45)


def shipped_sweeps(rows, gates: bool = True) -> dict:
    """The shipped span model under each record gate (with ``gates``: how
    ``grounding.span_record_gate`` was chosen), each lone-word Zipf cut
    (``grounding.span_lone_word_zipf``) and each threshold (``grounding.span_threshold``),
    the other two settings as shipped. Records without ``p_record`` (no ``--records``) are
    not gated."""
    cfg = load_config().grounding
    t, gate, cut = cfg.span_threshold, cfg.span_record_gate, cfg.span_lone_word_zipf
    out = {}
    if gates:
        out["shipped_gates"] = sweep(rows, f"shipped span model at t = {t}, lone words at "
                                     f"Zipf >= {cut}: F1 per record gate", "gate", GATES,
                                     lambda g: (t, g, cut))
    return out | {
        "lone_words": sweep(rows, f"shipped span model at t = {t}, record gate {gate}: F1 per "
                            "grounding.span_lone_word_zipf (0: off)", "lone word at Zipf >=",
                            LONE_WORD_CUTS, lambda c: (t, gate, c)),
        "thresholds": sweep(rows, f"shipped span model, record gate {gate}, lone words at "
                            f"Zipf >= {cut}: F1 per threshold", "threshold", THRESHOLDS,
                            lambda v: (v, gate, cut)),
    }


def span_shape(text: str) -> str:
    """What a span looks like: a number in it, one everyday word (Zipf >= 4, not
    capitalised), one rarer word, two or three words, or more."""
    from evaltools.scoring.matcher import zipf

    words = _WORD.findall(text)
    if any(ch.isdigit() for ch in text):
        return "with a number"
    if len(words) == 1:
        common = zipf(words[0].lower()) >= 4 and not words[0][:1].isupper()
        return "one everyday word" if common else "one rarer word"
    return "2-3 words" if len(words) <= 3 else "4+ words"


SHAPES = ("one everyday word", "one rarer word", "2-3 words", "4+ words", "with a number")


def shape_table(rows) -> dict:
    """The probe's spans the shipped span model reports (threshold and record gate of the
    config, the lone-word rule off), by :func:`span_shape`: how many, and the share of
    their characters inside the edits (precision)."""
    from evaltools.scoring.span_probability import load_span_model

    cfg = load_config().grounding
    model, t, gate = load_span_model(), cfg.span_threshold, cfg.span_record_gate
    print()
    print(f"the probe's spans at t = {t:.2f}, record gate {gate:.1f}, lone-word rule off: "
          "character precision by shape (spans)")
    print()
    print("| probe | " + " | ".join(SHAPES) + " |")
    print("|---|" + "---:|" * len(SHAPES))
    out = {}
    for task in PROBE_TASKS:
        cells = {shape: [0, 0, 0] for shape in SHAPES}  # characters, inside the edits, spans
        for r in rows:
            if r["set"] != "probe" or r["task"] != task or r["p_record"] < gate:
                continue
            for (a, b), f, _ in r["spans"]:
                if model.probability(f) >= t:
                    cell_ = cells[span_shape(r["text"][a:b])]
                    cell_[0] += b - a
                    cell_[1] += sum(1 for k in range(a, b) if k in r["gold"])
                    cell_[2] += 1
        out[task] = {shape: {"precision": c[1] / c[0] if c[0] else 0.0, "spans": c[2]}
                     for shape, c in cells.items()}
        print(f"| {task} | " + " | ".join(
            f"{v['precision']:.3f} ({v['spans']})" for v in out[task].values()) + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("devdata", type=Path)
    ap.add_argument("--write", type=Path, help="save the fitted span model here")
    ap.add_argument("--json", type=Path, help="write the figures as JSON")
    ap.add_argument("--config", type=Path,
                    help="a TOML configuration to score with (default: the shipped one), "
                         "e.g. [grounding] span_merge_words = 8")
    ap.add_argument("--fit-probe", action="store_true",
                    help="fit the span model on the probe's edits too (measured leaving each "
                         "set out, as the others)")
    ap.add_argument("--records", type=Path, metavar="SCORED_DIR",
                    help="scored record sets (benchmarks/validity.py --save-scored): also "
                         "measure the record gate, with faithful responses mixed in")
    args = ap.parse_args(argv)
    config = load_config(args.config) if args.config else None
    rows = collect(args.devdata, config=config)
    figures = {}
    print("| held-out set | records | span model >= t (t from the other sets) "
          "| every unsupported span | absent-word runs |")
    print("|---|---|---|---|---|")
    fit_sets = SETS if args.fit_probe else FIT_SETS
    for name in SETS:
        test = [r for r in rows if r["set"] == name]
        train = [r for r in rows if r["set"] != name and r["set"] in fit_sets]
        model = fit(train, fit_sets=fit_sets)
        t, _ = best_threshold(train, model)
        gold = [r["gold"] for r in test]
        got = {"model": prf(flagged(test, model, t), gold),
               "every_span": prf([char_set([o for o, _, _ in r["spans"]]) for r in test], gold),
               "absent_runs": prf([r["baseline"] for r in test], gold), "threshold": t}
        figures[name] = got
        print(f"| {name} | {len(test)} | {cell(got['model'])} (t = {t:.2f}) "
              f"| {cell(got['every_span'])} | {cell(got['absent_runs'])} |")
        if name == "probe":
            for task in PROBE_TASKS:
                part = [r for r in test if r["task"] == task]
                gold = [r["gold"] for r in part]
                got = {"model": prf(flagged(part, model, t), gold),
                       "every_span": prf([char_set([o for o, _, _ in r["spans"]])
                                          for r in part], gold),
                       "absent_runs": prf([r["baseline"] for r in part], gold),
                       "threshold": t}
                figures[f"probe/{task}"] = got
                print(f"| probe/{task} | {len(part)} | {cell(got['model'])} (t = {t:.2f}) "
                      f"| {cell(got['every_span'])} | {cell(got['absent_runs'])} |")
    if args.records:
        faithful = collect(args.devdata, [n for half in FAITHFUL for n in half],
                           faithful_only=True, config=config)
        record_probabilities(rows + faithful, args.records)
        figures["record_gate"] = gate_table(rows, faithful, fit_sets)
    figures |= shipped_sweeps(rows, gates=bool(args.records))
    figures["probe_shapes"] = shape_table(rows)
    if args.write:
        fitted = [r for r in rows if r["set"] in fit_sets]
        model = fit(fitted, fit_sets=fit_sets)
        t, _ = best_threshold(fitted, model)
        digest = hashlib.sha256((args.devdata / SPAN_FILES[0]).read_bytes()).hexdigest()
        if args.fit_probe:
            digest += " + " + hashlib.sha256((args.devdata / SPAN_FILES[1]).read_bytes()
                                             ).hexdigest()
        model = type(model)(model.names, model.centers, model.scales, model.coefficients,
                            model.intercept, {
                                "threshold_max_f1": t,
                                "fitted_on": {"sets": list(fit_sets), "spans_sha256": digest,
                                              "spans": sum(len(r["spans"]) for r in fitted)},
                                "command": "python benchmarks/span_model.py DEVDATA --write "
                                           "evaltools/scoring/span_model.json"})
        args.write.write_text(json.dumps(model.to_dict(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.write} (threshold with maximum F1 on all sets: {t:.2f})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
