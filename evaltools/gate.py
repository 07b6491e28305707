"""A CI gate: is a run above the bar? (``evaltools check``, the pytest plugin).

:func:`check_records` tests a run's output records (scored responses and/or
judged module outputs) against limits and returns a :class:`GateResult`
holding one :class:`GateFailure` per condition that failed, each a one-line
message. The conditions, each optional:

- ``max_fail``: the share of FAIL verdicts among valid records is above it;
- ``min_mean`` / ``max_mean``: ``{score: limit}``, a mean score below / above it
  (e.g. ``min_mean={"relevance": 0.5}``, ``max_mean={"hallucination": 0.2}``);
- ``reference``: any record whose verdict is worse than in a reference run
  (matched by ``id``: PASS→WARN, PASS→FAIL, WARN→FAIL);
- ``max_probability``: any record's ``hallucination_probability`` is above it
  (computed with the shipped calibration, or ``calibration``, when a record
  lacks it).

:func:`check_files` reads files first (raw records are scored or judged as
``evaltools score`` / ``judge`` would). The command line and the pytest
plugin only print what this finds.

Examples
--------
>>> run = [{"id": "a", "verdict": "PASS", "relevance": 0.8},
...        {"id": "b", "verdict": "FAIL", "relevance": 0.2}]
>>> g = check_records(run, max_fail=0.25, min_mean={"relevance": 0.4})
>>> g.passed, g.lines()
(False, ['FAIL share 50.0% (1 of 2 records) is above the limit 25.0% (--max-fail)'])
>>> check_records(run, reference=[{"id": "a", "verdict": "PASS"},
...                               {"id": "b", "verdict": "WARN"}]).lines()
['1 verdict worse than in the reference run: b WARN→FAIL']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from evaltools.compare import _ORDER, _number

#: Ids listed in one failure line at most (the rest are counted).
IDS_SHOWN = 5


@dataclass(frozen=True)
class GateFailure:
    """One failed condition: which (``max_fail``, ``min_mean``, ...) and its one-line message."""

    condition: str
    message: str


@dataclass(frozen=True)
class GateResult:
    """What :func:`check_records` found: the records checked and the failed conditions."""

    records: int
    invalid: int
    conditions: int
    failures: tuple[GateFailure, ...]

    @property
    def passed(self) -> bool:
        return not self.failures

    def lines(self) -> list[str]:
        """One line per failed condition."""
        return [f.message for f in self.failures]

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "passed": self.passed}


def _ids(items: Sequence[str]) -> str:
    shown = ", ".join(items[:IDS_SHOWN])
    return shown + (f" and {len(items) - IDS_SHOWN} more" if len(items) > IDS_SHOWN else "")


def _check_limit(value: Any, what: str, low: float = 0.0, high: float = 1.0) -> float:
    from evaltools.errors import InputError

    f = _number(value)
    if f is None or not low <= f <= high:
        raise InputError(f"{what} must be a number in [{low:g}, {high:g}], got {value!r}",
                         source="limits")
    return f


def check_records(records: Iterable[Mapping[str, Any]], *, max_fail: float | None = None,
                  min_mean: Mapping[str, float] | None = None,
                  max_mean: Mapping[str, float] | None = None,
                  reference: Iterable[Mapping[str, Any]] | None = None,
                  max_probability: float | None = None, calibration=None) -> GateResult:
    """Test a run's output records against limits; see the module docstring.

    Records with ``error`` set are counted as invalid and left out of every
    condition. A score named in ``min_mean``/``max_mean`` that no record
    carries is a failed condition (a gate that cannot be evaluated fails).
    """
    max_fail = None if max_fail is None else _check_limit(max_fail, "max_fail")
    max_probability = (None if max_probability is None
                       else _check_limit(max_probability, "max_probability"))
    min_mean = {k: _check_limit(v, f"min_mean {k}", -1e9, 1e9)
                for k, v in (min_mean or {}).items()}
    max_mean = {k: _check_limit(v, f"max_mean {k}", -1e9, 1e9)
                for k, v in (max_mean or {}).items()}
    before = None if reference is None else {
        str(r.get("id")): r.get("verdict") for r in reference
        if not r.get("error") and r.get("id") is not None}
    prob = None
    if max_probability is not None:
        from evaltools.scoring.probability import load_calibration

        prob = calibration if calibration is not None else load_calibration()
    n = invalid = fails = 0
    sums = {k: [0.0, 0] for k in (*min_mean, *max_mean)}
    worse: list[str] = []
    above: list[tuple[str, float]] = []
    for rec in records:
        if rec.get("error"):
            invalid += 1
            continue
        n += 1
        fails += rec.get("verdict") == "FAIL"
        for k, acc in sums.items():
            v = _number(rec.get(k))
            if v is not None:
                acc[0] += v
                acc[1] += 1
        rid = str(rec.get("id"))
        if before is not None and rid in before:
            was, now = before[rid], rec.get("verdict")
            if _ORDER.get(now, 3) > _ORDER.get(was, 3):
                worse.append(f"{rid} {was}→{now}")
        if prob is not None and "module" not in rec:
            p = _number(rec.get("hallucination_probability"))
            if p is None:
                p = prob.probability(rec)
            if p is not None and p > max_probability:
                above.append((rid, p))
    failures = []
    if max_fail is not None and n and fails / n > max_fail:
        failures.append(GateFailure("max_fail", (
            f"FAIL share {100 * fails / n:.1f}% ({fails} of {n} records) is above the limit "
            f"{100 * max_fail:.1f}% (--max-fail)")))
    for condition, limits, sign, side in (("min_mean", min_mean, -1, "below"),
                                          ("max_mean", max_mean, 1, "above")):
        flag = "--" + condition.replace("_", "-")
        for k, limit in limits.items():
            total, count = sums[k]
            if not count:
                failures.append(GateFailure(condition, f"no record has score '{k}', so its "
                                                       f"mean cannot be checked ({flag})"))
            elif sign * (total / count - limit) > 0:
                failures.append(GateFailure(condition, (
                    f"mean {k} {total / count:.3f} is {side} the limit {limit:g} ({flag})")))
    if worse:
        failures.append(GateFailure("reference", (
            f"{len(worse)} verdict{'s' if len(worse) != 1 else ''} worse than in the reference "
            f"run: {_ids(worse)}")))
    if above:
        above.sort(key=lambda t: -t[1])
        failures.append(GateFailure("max_probability", (
            f"{len(above)} record{'s' if len(above) != 1 else ''} with hallucination "
            f"probability above {max_probability:g}: "
            f"{_ids([f'{i} ({p:.2f})' for i, p in above])}")))
    if n == 0:
        failures.append(GateFailure("records", "no valid record to check"))
    conditions = (max_fail is not None) + len(min_mean) + len(max_mean) \
        + (reference is not None) + (max_probability is not None)
    return GateResult(records=n, invalid=invalid, conditions=conditions,
                      failures=tuple(failures))


def read_outputs(path: str | Path, *, config=None, registry=None, skip_invalid: bool = False,
                 columns: Mapping[str, str] | None = None):
    """Yield a file's output records: scored or judged ones as they are, raw ones scored
    (``query``/``context``/``response``) or judged (``module``) first."""
    from evaltools.errors import InputError
    from evaltools.io import read_records, row_unit
    from evaltools.io.records import ReadFailed, Unreadable, errors_in_order
    from evaltools.judging.api import judge
    from evaltools.scoring.scorer import ResponseScorer

    p = Path(path)
    scorer = ResponseScorer(config)
    unit = row_unit(p)
    lim = scorer.config.input
    pending: list = []

    def flush():
        for _, rec, res in scorer.stream(pending, source=p.name, unit=unit,
                                         skip_invalid=skip_invalid):
            yield {**rec, **res.to_dict()}
        pending.clear()

    for line, rec in errors_in_order(read_records(p, skip_invalid=skip_invalid, limits=lim,
                                                  columns=columns)):
        if isinstance(rec, ReadFailed):  # earlier records first: errors in file order
            yield from flush()
            raise rec.error
        if isinstance(rec, Unreadable):
            yield from flush()
            yield {"id": line, "error": rec.message}
        elif "verdict" in rec:
            yield from flush()
            yield rec
        elif "module" in rec:
            yield from flush()
            try:
                yield {**rec, **judge(rec, source=p.name, line=line, unit=unit,
                                      registry=registry).to_dict()}
            except InputError as exc:
                if not skip_invalid:
                    raise
                yield {**rec, "error": exc.message}
        else:
            pending.append((line, rec))
            if len(pending) >= scorer.config.batch.chunk_size:
                yield from flush()
    yield from flush()


def check_files(paths: Sequence[str | Path], *, reference: Sequence[str | Path] = (),
                config=None, registry=None, skip_invalid: bool = False,
                columns: Mapping[str, str] | None = None, **limits) -> GateResult:
    """:func:`check_records` over files (``evaltools check``); ``limits`` as there."""
    def records(files):
        for path in files:
            yield from read_outputs(path, config=config, registry=registry,
                                    skip_invalid=skip_invalid, columns=columns)

    ref = None
    if reference:
        ref = [{"id": r.get("id"), "verdict": r.get("verdict"), "error": r.get("error")}
               for r in records(reference)]
    return check_records(records(paths), reference=ref, **limits)
