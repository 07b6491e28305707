"""``evaltools calibrate LABELLED_FILE -o calibration.json``: fit a hallucination probability.

Reads labelled records (.jsonl, .csv or .parquet) — raw ``query, context,
response`` records, which are scored first, or the output of ``evaltools
score`` — fits the logistic model of :mod:`evaltools.calibration.learned`,
prints its cross-validated AUROC, and writes the model as JSON (atomically:
a temporary file renamed at the end). Use it with ``evaltools score
--calibration calibration.json``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import math
import re
from pathlib import Path

from evaltools import __version__
from evaltools.calibration.learned import DEFAULT_FEATURES, fit_calibration, is_feature
from evaltools.cli.progress import progress
from evaltools.config import load_config
from evaltools.errors import InputError
from evaltools.io import refuse_overwriting_input
from evaltools.io.labelled import group_keys, read_labelled
from evaltools.scoring.restore import score_labelled
from evaltools.scoring.result import has_calibration_inputs

EXAMPLES = """\
examples:
  evaltools calibrate labelled.jsonl -o calibration.json
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
    p.add_argument("--C", type=float, default=1.0, dest="C",
                   help="inverse L2 regularisation strength (default 1.0)")
    p.add_argument("--group-by", metavar="FIELD",
                   help="keep records with the same FIELD value in one fold")
    p.add_argument("--group-regex", metavar="REGEX",
                   help="with --group-by: the group is REGEX's first group in FIELD "
                        "(e.g. '^(.*)_(?:right|halluc)$' for HaluEval ids)")
    p.add_argument("--features", metavar="NAMES",
                   help="comma-separated features to fit on: signal names (the 'signals' "
                        "output field), score features such as claims_score, or products "
                        "a*b, or 'all' for every signal (default: "
                        + ",".join(DEFAULT_FEATURES) + ")")
    p.add_argument("--balance-by", metavar="FIELD",
                   help="weight records so that every FIELD value (e.g. a data set) and, "
                        "within it, both labels weigh the same in the fit")
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
    if not (math.isfinite(args.C) and args.C > 0):
        raise InputError(f"--C must be a positive finite number. Got {args.C} instead.",
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
    refuse_overwriting_input(args.output, [args.input])
    config = load_config(args.config)
    records = read_labelled(args.input, label=args.label)
    if not records:
        raise InputError("no records: a calibration needs labelled records",
                         source=args.input.name)
    groups = _groups(records, args)
    frame = score_labelled(_scored(records, config, args), config=config)
    import sklearn

    metadata = {
        "fitted_on": {"file": args.input.name, "sha256": _sha256(args.input),
                      "label_field": args.label or "label_hallucinated|label",
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
        fit = fit_calibration(frame, C=args.C, folds=args.folds, seed=args.seed,
                              groups=groups, metadata=metadata, features=features,
                              strata=strata, balance=bool(args.balance_by))
    except ValueError as exc:
        raise InputError(str(exc), source=args.input.name) from None
    fit.calibration.save(args.output)
    if not args.quiet:
        m = fit.calibration.metadata["fitted_on"]
        print(f"evaltools calibrate: {args.input} -> {args.output}")
        print(f"records  {m['n']} ({m['n_hallucinated']} hallucinated)"
              + (f", {fit.n_dropped} left out (error or no label)" if fit.n_dropped else ""))
        print(f"cross-validated AUROC  {fit.cv_auroc:.3f}  ({args.folds} folds"
              + (", grouped" if groups is not None else "") + ")")
        print(f"cross-validated Brier  {fit.cv_brier:.3f}")
        print("coefficients (standardised features)")
        for c in fit.calibration.coefficients:
            print(f"  {c.name:<27} {c.coefficient:+.3f}")
        print(f"  {'intercept':<27} {fit.calibration.intercept:+.3f}")
    return 0


def _argv(args: argparse.Namespace) -> list[str]:
    out = [args.input.name, "-o", args.output.name]
    for flag, value, default in (("--label", args.label, None), ("--folds", args.folds, 5),
                                 ("--seed", args.seed, 0), ("--C", args.C, 1.0),
                                 ("--group-by", args.group_by, None),
                                 ("--group-regex", args.group_regex, None),
                                 ("--features", args.features, None),
                                 ("--balance-by", args.balance_by, None)):
        if value is not None and value != default:
            text = str(value)
            out += [flag, f"'{text}'" if re.search(r"[^\w.,/-]", text) else text]
    for f in args.source:
        out += ["--source", f.name]
    return out
