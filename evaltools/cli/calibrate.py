"""``evaltools calibrate LABELLED_FILE -o calibration.json``: fit a hallucination probability.

Reads labelled records (.jsonl, .csv or .parquet) — raw ``query, context,
response`` records, which are scored first, or the output of ``evaltools
score`` — fits the logistic model of :mod:`evaltools.calibration.learned`,
prints its cross-validated AUROC, a recommended threshold on the probability
(maximum F1 out-of-fold) and a learning curve (cross-validated AUROC and F1
at 25, 50, 100, ... labels; :mod:`evaltools.calibration.labelled_fit`), and
writes the model as JSON with both in its metadata (atomically: a temporary
file renamed at the end). ``--labels`` takes the labels from an Annotator's
labels file, joined on ``id``. Use it with ``evaltools score --calibration
calibration.json``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import math
import re
from pathlib import Path

from evaltools import __version__
from evaltools.calibration.labelled_fit import (
    DEFAULT_REPEATS,
    PRIOR_C,
    SHIPPED,
    LabelledFit,
    fit_on_labels,
)
from evaltools.calibration.learned import DEFAULT_FEATURES, is_feature, load_calibration
from evaltools.cli.progress import progress
from evaltools.config import load_config
from evaltools.errors import InputError
from evaltools.io.labelled import group_keys, join_labels, read_labelled
from evaltools.scoring.restore import score_labelled
from evaltools.scoring.result import has_calibration_inputs

EXAMPLES = """\
examples:
  evaltools calibrate labelled.jsonl -o calibration.json
  evaltools calibrate scored.jsonl --labels reports/labels/mine.jsonl -o calibration.json
  evaltools calibrate halueval_qa.jsonl -o cal.json --label label \\
      --group-by id --group-regex '^(.*)_(?:right|halluc)$'
  evaltools score --calibration calibration.json runs.jsonl -o scored.jsonl
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", type=Path, help="labelled records: .jsonl, .csv or .parquet")
    p.add_argument("-o", "--output", type=Path, required=True,
                   help="where to write the calibration JSON")
    p.add_argument("--label", help="field of the 0/1 hallucination label "
                                   "(default: label_hallucinated, else label)")
    p.add_argument("--config", type=Path, help="a TOML file overriding default settings")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the fold shuffling (default 0)")
    p.add_argument("--C", type=float, default=None, dest="C",
                   help=f"inverse L2 regularisation strength (default {PRIOR_C} with a prior, "
                        "1.0 without)")
    p.add_argument("--prior", default=SHIPPED, metavar="shipped|none|FILE",
                   help="start from a fitted probability: its log-odds are one feature beside "
                        "the signals, so the labels correct it ('shipped': the default "
                        "calibration, the default; 'none': fit from scratch; or a "
                        "calibration JSON)")
    p.add_argument("--group-by", metavar="FIELD",
                   help="keep records with the same FIELD value in one fold")
    p.add_argument("--group-regex", metavar="REGEX",
                   help="with --group-by: the group is REGEX's first group in FIELD "
                        "(e.g. '^(.*)_(?:right|halluc)$' for HaluEval ids)")
    p.add_argument("--labels", type=Path, metavar="LABELS_FILE",
                   help="take the 0/1 labels from an Annotator's labels file (field "
                        "label_hallucinated, or --label), joined on id; records without a "
                        "label there are left out")
    p.add_argument("--repeats", type=int, default=DEFAULT_REPEATS,
                   help="random subsamples per size of the learning curve (default "
                        f"{DEFAULT_REPEATS}; 0: no learning curve)")
    p.add_argument("--features", metavar="NAMES",
                   help="comma-separated features to fit on: signal names (the 'signals' "
                        "output field), score features such as claims_score, or products "
                        "a*b, or 'all' for every signal (default: every signal with a "
                        "prior, else " + ",".join(DEFAULT_FEATURES) + ")")
    p.add_argument("--balance-by", metavar="FIELD",
                   help="weight records so that every FIELD value (e.g. a data set) and, "
                        "within it, both labels weigh the same in the fit")
    p.add_argument("--threshold", type=float, metavar="P",
                   help="the verdict's threshold on the probability (0 < P < 1) instead of the "
                        "out-of-fold maximum-F1 one, e.g. one chosen for few false alarms")
    p.add_argument("--note", help="free text stored in the JSON (e.g. what the data is)")
    p.add_argument("--source", type=Path, action="append", default=[], metavar="FILE",
                   help="a file INPUT was built from (repeatable): its name and sha256 are "
                        "recorded in fitted_on.sources, so a validity run can tell in-sample data")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _groups(records, args) -> list[str] | None:
    if not args.group_by:
        if args.group_regex:
            raise InputError("--group-regex needs --group-by FIELD", source=args.input.name)
        return None
    return group_keys(records, args.group_by, regex=args.group_regex, source=args.input.name)


def _scored(records: list[dict], config, args) -> list[dict]:
    """``records`` with their score fields, scored under a progress bar unless scored already."""
    from evaltools.scoring.scorer import ResponseScorer

    if has_calibration_inputs(records[0]) and ("signals" in records[0] or not all(
            isinstance(records[0].get(f), str) for f in ("query", "context", "response"))):
        return records  # scored already (by an older evaltools when it has no signals)
    stream = ResponseScorer(config).stream(enumerate(records, start=1), source=args.input.name)
    return [{**rec, **result.to_dict()} for _, rec, result in
            progress(stream, "scoring", total=len(records), disabled=args.no_progress)]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run(args: argparse.Namespace) -> int:
    if args.folds < 2:
        raise InputError(f"--folds must be at least 2. Got {args.folds} instead.",
                         source=args.input.name)
    if args.C is not None and not (math.isfinite(args.C) and args.C > 0):
        raise InputError(f"--C must be a positive finite number. Got {args.C} instead.",
                         source="command line")

    if args.threshold is not None and not 0.0 < args.threshold < 1.0:
        raise InputError(f"--threshold must be between 0 and 1 (exclusive). Got "
                         f"{args.threshold} instead.", source="command line")
    if args.repeats < 0:
        raise InputError(f"--repeats must be 0 or more. Got {args.repeats} instead.",
                         source="command line")
    features = None
    if args.features is not None:
        features = [f.strip() for f in args.features.split(",") if f.strip()]
        if features == ["all"]:  # every signal the scorer writes
            from evaltools.scoring.signals import SIGNALS

            features = list(SIGNALS)
        unknown = [f for f in features if not is_feature(f)]
        if unknown or not features:
            raise InputError(f"--features: unknown feature {', '.join(map(repr, unknown))}"
                             if unknown else "--features names no feature",
                             source="command line")
    prior = (None if args.prior == "none" else args.prior if args.prior == SHIPPED
             else load_calibration(args.prior))
    config = load_config(args.config)
    joined = None
    if args.labels is None:
        records = read_labelled(args.input, label=args.label)
    else:
        records = read_labelled(args.input, require_label=False)
    if not records:
        raise InputError("no records: a calibration needs labelled records",
                         source=args.input.name)
    if args.labels is not None:
        joined = join_labels(records, args.labels, field=args.label or "label_hallucinated",
                             source=args.input.name)
        records = list(joined.records)
    groups = _groups(records, args)
    frame = score_labelled(_scored(records, config, args), config=config)
    if prior is not None and "signals" not in frame.columns:
        raise InputError("the records have no 'signals' field (scored by an older evaltools?), "
                         "which the prior reads: score them again, or fit from scratch with "
                         "--prior none", source=args.input.name)
    import sklearn

    metadata = {
        "fitted_on": {"file": args.input.name, "sha256": _sha256(args.input),
                      "label_field": (f"{args.label or 'label_hallucinated'} of "
                                      f"{args.labels.name}" if args.labels
                                      else args.label or "label_hallucinated|label"),
                      **({"labels": {"file": args.labels.name,
                                     "sha256": _sha256(args.labels),
                                     "n_unlabelled": joined.n_unlabelled}}
                         if args.labels else {}),
                      **({"sources": [{"file": f.name, "sha256": _sha256(f)}
                                      for f in args.source]} if args.source else {})},
        "fitting": {"command": "evaltools calibrate " + " ".join(_argv(args)),
                    "evaltools": __version__, "scikit_learn": sklearn.__version__,
                    "date": _dt.date.today().isoformat()},
    }
    if args.note:
        metadata["note"] = args.note
    try:
        strata = None
        if args.balance_by:
            if args.balance_by not in frame.columns:
                raise ValueError(f"--balance-by: field '{args.balance_by}' is missing")
            strata = frame[args.balance_by].astype(str).tolist()
        labelled = fit_on_labels(frame, groups=groups, folds=args.folds, seed=args.seed,
                                 repeats=max(args.repeats, 1), curve=args.repeats > 0,
                                 strata=strata, C=args.C, metadata=metadata,
                                 features=features, balance=bool(args.balance_by),
                                 threshold=args.threshold, prior=prior)
    except ValueError as exc:
        raise InputError(str(exc), source=args.input.name) from None
    labelled.calibration.save(args.output)
    if not args.quiet:
        _print_summary(labelled, args, grouped=groups is not None, joined=joined)
    return 0


def _print_summary(labelled: LabelledFit, args: argparse.Namespace, *, grouped: bool,
                   joined) -> None:
    fit, calibration = labelled.fit, labelled.calibration
    m = calibration.metadata["fitted_on"]
    print(f"evaltools calibrate: {args.input} -> {args.output}")
    if joined is not None:
        print(f"labels   {len(joined.records)} records labelled in {args.labels.name}"
              + (f"; {joined.n_unlabelled} without a label left out" if joined.n_unlabelled
                 else "")
              + (f"; {joined.n_unmatched} labelled ids not in {args.input.name}"
                 if joined.n_unmatched else ""))
    print(f"records  {m['n']} ({m['n_hallucinated']} hallucinated)"
          + (f", {labelled.n_left_out} left out (error or no label)"
             if labelled.n_left_out else ""))
    print(f"cross-validated AUROC  {fit.cv_auroc:.3f}  ({args.folds} folds"
          + (", grouped" if grouped else "") + ")")
    print(f"cross-validated Brier  {fit.cv_brier:.3f}")
    t = labelled.threshold
    print(f"recommended threshold  {t.rule}  ("
          + ("given; out-of-fold" if t.given else "max F1 out-of-fold")
          + f": F1 {t.f1:.3f}, "
          f"precision {t.precision:.3f}, recall {t.recall:.3f}, flags {t.flagged_share:.0%}; "
          f"chosen on other folds: F1 {t.f1_cross_fitted:.3f})")
    if labelled.curve is not None:
        c = labelled.curve
        print(f"learning curve  ({c.repeats} random subsamples per size"
              + (", by group" if c.grouped else "") + f"; {c.folds}-fold CV in each)")
        print(_curve_table(c))
    prior = calibration.metadata.get("prior") if hasattr(calibration, "metadata") else None
    if prior:
        name = "the shipped calibration" if args.prior == SHIPPED else Path(args.prior).name
        print(f"prior    {name} ({len(prior['features'])} features): its "
              f"log-odds weigh {prior['weight']:+.3f} (standardised); the coefficients below "
              "hold it and the labels' correction together")
    coefs = sorted(getattr(calibration, "coefficients", ()), key=lambda c: -abs(c.coefficient))
    shown = coefs[:COEFFICIENTS_SHOWN]
    print("coefficients (standardised features" + (f"; the {len(shown)} largest of "
                                                   f"{len(coefs)}, all in the JSON)"
                                                   if len(coefs) > len(shown) else ")"))
    for co in shown:
        print(f"  {co.name:<27} {co.coefficient:+.3f}")
    if hasattr(calibration, "intercept"):
        print(f"  {'intercept':<27} {calibration.intercept:+.3f}")


#: coefficients printed by ``calibrate`` (largest first; the JSON holds all of them)
COEFFICIENTS_SHOWN = 12


def _fmt(x: float, width: int = 5, digits: int = 3) -> str:
    return f"{x:.{digits}f}".rjust(width) if math.isfinite(x) else "-".rjust(width)


def _curve_table(curve) -> str:
    """The learning curve as text: one row per number of labels."""
    head = ("labels", "records", "halluc", "runs", "AUROC", "sd", "min", "max", "F1", "sd")
    widths = (6, 7, 6, 4, 6, 6, 6, 6, 6, 6)
    lines = ["  " + "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    for p in curve.points:
        cells = (str(p.n), _fmt(p.n_records, 0, 0), _fmt(p.n_positive, 0, 0), str(p.repeats),
                 _fmt(p.auroc_mean),
                 _fmt(p.auroc_sd), _fmt(min(p.auroc, default=math.nan)),
                 _fmt(max(p.auroc, default=math.nan)), _fmt(p.f1_mean), _fmt(p.f1_sd))
        lines.append("  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))
                     + (f"  ({p.skipped} skipped: too few of a label)" if p.skipped else ""))
    lines.append("  (records, halluc: mean per run; AUROC and F1: mean over runs, sd between "
                 "runs; F1 at the threshold chosen on the other folds)")
    return "\n".join(lines)


def _argv(args: argparse.Namespace) -> list[str]:
    out = [args.input.name, "-o", args.output.name]
    for flag, value, default in (("--label", args.label, None), ("--folds", args.folds, 5),
                                 ("--seed", args.seed, 0), ("--C", args.C, None),
                                 ("--prior", args.prior, SHIPPED),
                                 ("--group-by", args.group_by, None),
                                 ("--group-regex", args.group_regex, None),
                                 ("--features", args.features, None),
                                 ("--balance-by", args.balance_by, None),
                                 ("--threshold", args.threshold, None),
                                 ("--labels", args.labels and args.labels.name, None),
                                 ("--repeats", args.repeats, DEFAULT_REPEATS)):
        if value is not None and value != default:
            text = str(value)
            out += [flag, f"'{text}'" if re.search(r"[^\w.,/-]", text) else text]
    for f in args.source:
        out += ["--source", f.name]
    return out
