"""Scoring and judging on Dask: lazy DataFrames, and record files cut into parts.

Two entry points, one engine. :func:`score_frame` and :func:`judge_frame`
take a ``dask.dataframe.DataFrame`` and return one, lazily (``map_partitions``
with an explicit ``meta``: the output columns and dtypes of the data contract).
:func:`run_parts` runs the tasks ``evaltools score/judge --workers`` submit:
each reads one part of the input files (:mod:`evaltools.io.parts`) on the
worker and returns its output records, or writes them as one Parquet file of
a partitioned dataset.

Every partition is scored by the streaming engine
(:func:`evaltools.scoring.stream.score_stream`) and judged by
:func:`evaltools.judging.api.judge_records`, numbered from the partition's first
record, so the results are those of a single-process run record for record:
the same floats, anchors, ``id`` defaults and error messages, in input order.

Each worker process loads the spaCy pipeline once
(:func:`evaltools.text.load_pipeline` caches it per process; the
:class:`PreloadPipeline` plugin loads it when a worker starts): the pipeline
is never pickled from the client.

Examples
--------
>>> import dask.dataframe as dd, pandas as pd
>>> pdf = pd.DataFrame({"query": ["What does the mug cost?"] * 2,
...                     "context": ["The mug costs $5."] * 2,
...                     "response": ["The mug costs $5.", "The mug costs $7."]})
>>> out = score_frame(dd.from_pandas(pdf, npartitions=2))
>>> out.columns[-3:].tolist()
['verdict', 'reasons', 'error']
>>> out.compute(scheduler="sync")[["id", "verdict"]].to_dict("records")
[{'id': 1, 'verdict': 'PASS'}, {'id': 2, 'verdict': 'FAIL'}]
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin

from evaltools.config import DEFAULT_CONFIG, Config, InputConfig
from evaltools.errors import ClusterError, EvaltoolsError, InputError, OutputError
from evaltools.io.parts import Part, Plan, read_part, write_parquet_part
from evaltools.judging.registry import DEFAULT_REGISTRY
from evaltools.judging.result import JUDGE_ROW_SCHEMA, JUDGE_SCHEMA
from evaltools.judging.stream import judge_records, judge_stream
from evaltools.judging.summary import JudgeSummary
from evaltools.scoring.result import SCORE_SCHEMA, SCORED_OUTPUT_SCHEMA
from evaltools.scoring.summary import ScoreStats
from evaltools.text import load_pipeline
from evaltools.values import plain_value

__all__ = ["JUDGE_DTYPES", "SCORE_DTYPES", "PreloadPipeline", "judge_frame", "judge_part",
           "run_parts", "score_frame", "score_part"]

#: dtypes of the columns :func:`score_frame` adds (the data contract's fields).
SCORE_DTYPES: dict[str, str] = SCORE_SCHEMA.dtypes()
#: dtypes of the columns :func:`judge_frame` adds (``JudgeResult.to_row``).
JUDGE_DTYPES: dict[str, str] = JUDGE_ROW_SCHEMA.dtypes()

# Parquet kinds (evaltools.io.convert.arrow_type) of the fields the commands add, so every
# part of a partitioned output has the same schema. Lists and objects are JSON text.
SCORE_KINDS: dict[str, set[str]] = SCORED_OUTPUT_SCHEMA.parquet_kinds()
JUDGE_KINDS: dict[str, set[str]] = JUDGE_SCHEMA.parquet_kinds()


# ---------------------------------------------------------------------------- workers


class PreloadPipeline(WorkerPlugin):
    """A ``distributed`` worker plugin that loads the spaCy pipeline when a worker starts.

    Register it with ``client.register_plugin(PreloadPipeline(config))``: every
    worker, including one started later to replace a dead one, loads the
    pipeline once, before its first task (the tasks would otherwise load it on
    first use; :func:`evaltools.text.load_pipeline` caches it per process).
    """

    name = "evaltools-preload-pipeline"

    def __init__(self, config: Config | None = None):
        self.config = config or DEFAULT_CONFIG

    def setup(self, worker=None) -> None:
        load_pipeline(self.config)



@functools.lru_cache(maxsize=4)
def _worker_scorer(config: Config, thread: int):
    """The scorer of this process (and thread) for ``config``, built on its first part.

    Its feature cache outlives a part: a context whose responses fall on both
    sides of a part boundary is parsed once, not once per part, and each part
    does not start with a cold cache. The cache is bounded (``config.batch``),
    and caching never changes a score. One per thread, as the feature cache is
    not shared between threads (a threaded Dask scheduler runs several parts at once).
    """
    from evaltools.scoring.scorer import ResponseScorer

    return ResponseScorer(config)


def _scorer(config: Config):
    return _worker_scorer(config, threading.get_ident())


def _score_rows(numbered, *, config: Config, source: str, unit: str, skip_invalid: bool,
                start: int, calibration=None) -> Iterator[dict[str, Any]]:
    from evaltools.scoring.stream import output_record

    stream = _scorer(config).stream(numbered, source=source, unit=unit,
                                           skip_invalid=skip_invalid, start=start)
    for _, rec, result in stream:
        yield output_record(rec, result, calibration)


def _judge_rows(numbered, *, registry, source: str, unit: str,
                skip_invalid: bool) -> Iterator[dict[str, Any]]:
    for _, rec, result in judge_stream(numbered, registry=registry, source=source, unit=unit,
                                       skip_invalid=skip_invalid):
        yield {**rec, **result.to_dict()}


def _error_payload(exc: EvaltoolsError) -> dict[str, Any]:
    """An error as plain data: returned, not raised, so no worker logs a traceback."""
    if isinstance(exc, InputError):
        return {"error": ("input", exc.message, exc.source, exc.line, exc.field, exc.unit)}
    return {"error": ("output" if isinstance(exc, OutputError) else "other", str(exc))}


def _raise_payload(payload: tuple) -> None:
    if payload[0] == "input":
        _, message, source, line, field, unit = payload
        raise InputError(message, source=source, line=line, field=field, unit=unit)
    if payload[0] == "output":
        raise OutputError(payload[1])
    raise EvaltoolsError(payload[1])


def _unreachable(part: Part, exc: OSError) -> InputError:
    import socket

    return InputError(f"cannot be read on worker host {socket.gethostname()} "
                      f"({exc.strerror or exc}); every worker must reach the inputs at the "
                      f"same path", source=part.path)


def part_file(part: Part, width: int = 5) -> str:
    """The name of a part's file in a partitioned output: ``part-00037.parquet``."""
    return f"part-{part.index:0{width}d}.parquet"


def _finish(rows: Iterator[dict[str, Any]], part: Part, summary, output_dir: str | None,
            kinds: dict[str, set[str]] | None, width: int) -> dict[str, Any]:
    if output_dir is None:
        return {"rows": list(rows)}
    out = []
    for row in rows:
        summary.add(row)
        out.append(row)
    path = Path(output_dir) / part_file(part, width)
    try:
        write_parquet_part(out, path, kinds or {})
    except OSError as exc:
        raise OutputError(f"{path}: cannot write there ({exc.strerror or exc})") from None
    return {"count": len(out), "summary": summary}


def score_part(part: Part, *, config: Config | None = None, calibration=None,
               skip_invalid: bool = False, output_dir: str | None = None,
               kinds: dict[str, set[str]] | None = None, width: int = 5,
               limits: InputConfig | None = None) -> dict[str, Any]:
    """Score one part of the input files (a task; runs on a worker).

    Returns ``{"rows": [...]}`` (the output records, in order), or with
    ``output_dir`` writes them as :func:`part_file` there and returns
    ``{"count": n, "summary": ScoreStats}``. A record that breaks the
    contract returns ``{"error": ...}`` (raised on the client by :func:`run_parts`).
    """
    cfg = config or DEFAULT_CONFIG
    try:
        rows = _score_rows(read_part(part, skip_invalid=skip_invalid,
                                     limits=limits or cfg.input),
                           config=cfg,
                           source=part.source, unit=part.unit, skip_invalid=skip_invalid,
                           start=part.first_record, calibration=calibration)
        return _finish(rows, part, ScoreStats(), output_dir, kinds, width)
    except EvaltoolsError as exc:
        return _error_payload(exc)
    except OSError as exc:
        return _error_payload(_unreachable(part, exc))


def judge_part(part: Part, *, registry=None, skip_invalid: bool = False,
               output_dir: str | None = None, kinds: dict[str, set[str]] | None = None,
               width: int = 5, limits: InputConfig | None = None) -> dict[str, Any]:
    """Judge one part of the input files (a task); returns as :func:`score_part` does.

    ``limits`` bound the lines read (default: the ``[input]`` settings).
    """
    try:
        rows = _judge_rows(read_part(part, skip_invalid=skip_invalid, limits=limits),
                           registry=registry or DEFAULT_REGISTRY, source=part.source,
                           unit=part.unit, skip_invalid=skip_invalid)
        return _finish(rows, part, JudgeSummary(), output_dir, kinds, width)
    except EvaltoolsError as exc:
        return _error_payload(exc)
    except OSError as exc:
        return _error_payload(_unreachable(part, exc))


def output_kinds(plan: Plan, contract: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Column kinds of a partitioned output: the inputs' columns, then the contract's.

    A contract field that is also an input column keeps the input's position
    (as ``{**record, **result}`` does) and takes the contract's kind; ``id``
    may be the input's or a record number.
    """
    kinds = {c: set(ks) for c, ks in plan.kinds.items()}
    kinds["id"] = kinds.get("id", set()) | {"int"}
    for c, ks in contract.items():
        kinds[c] = set(ks)
    return kinds


# ---------------------------------------------------------------------------- client


#: Consecutive parts go to one worker in runs of up to ``RUN_PARTS // workers`` parts
#: (:func:`_submit`), so that the run's results waiting to be written in input order stay
#: within about ``RUN_PARTS`` parts.
RUN_PARTS = 16


def runs_of_parts(n_parts: int, n_workers: int) -> int:
    """How many consecutive parts one worker is given before the next worker's turn.

    A context whose responses fall on both sides of a part boundary is parsed
    by both workers when the two parts run on different ones, but once when
    they run on the same worker (its feature cache outlives a part). Dealing
    parts one by one made two workers parse about a third more text than one
    on ``benchmarks/scale_out.py``'s data; runs of consecutive parts keep that
    to the boundaries between runs.

    >>> runs_of_parts(10, 2), runs_of_parts(100, 2), runs_of_parts(100, 16), runs_of_parts(3, 4)
    (5, 8, 1, 1)
    """
    workers = max(1, n_workers)
    return max(1, min(-(-n_parts // workers), RUN_PARTS // workers))


def _name(info: Mapping[str, Any], name: str) -> Any:
    """The worker name a restriction uses (as the scheduler knows it: int or text)."""
    return next(w["name"] for w in info.values() if str(w.get("name")) == name)


def _submit(client, task: Callable[..., dict[str, Any]], parts: tuple[Part, ...],
            options: dict[str, Any], runs: bool) -> list[Any]:
    """One future a part, in input order; with ``runs``, runs of consecutive parts
    prefer one worker.

    The preference is loose (``allow_other_workers``): a part whose worker
    died, or that an idle worker steals, runs elsewhere. It names workers by
    name, which a restarted worker keeps.
    """
    # by worker *name*: a worker its nanny restarts keeps its name but not its address, so
    # restrictions by address left every part in 'no-worker' once all workers had died
    info = client.scheduler_info().get("workers", {}) if runs else {}
    workers = sorted({str(w.get("name", a)): a for a, w in info.items()})
    workers = [_name(info, n) for n in workers]
    if len(workers) < 2:
        return client.map(task, parts, pure=False, **options)
    run = runs_of_parts(len(parts), len(workers))
    futures: list[Any] = []
    for turn, first in enumerate(range(0, len(parts), run)):
        futures += client.map(task, parts[first:first + run], pure=False,
                              workers=[workers[turn % len(workers)]],
                              allow_other_workers=True, **options)
    return futures


def run_parts(client, plan: Plan, task: Callable[..., dict[str, Any]], *,
              on_done: Callable[[Part], None] | None = None, runs: bool = False,
              stall_seconds: float | None = None, **options) -> Iterator[dict[str, Any]]:
    """Run ``task(part, **options)`` for every part on ``client``'s cluster.

    With ``client=None`` the parts run one after the other in this process.
    ``runs``: give consecutive parts to one worker (:func:`runs_of_parts`),
    for a task whose worker keeps a cache from part to part (scoring); else
    each part goes to whichever worker is free.

    Yields each part's result in input order as soon as the parts before it
    are done. Parts whose worker died are run again by Dask, and a part whose
    future raised anything else (:func:`_result`) is run once more here, so every
    part yields exactly once. The first part (in input order) that returns an error
    stops the run: the parts after it are cancelled and the error is raised
    here, as the :class:`~evaltools.errors.InputError` a single-process run
    would raise.

    The wait is bounded: a part Dask gives up on (its worker died three times)
    and parts that no worker runs for ``stall_seconds`` (default: the
    ``[scale] stall_seconds`` setting; every worker died and none came back)
    are a one-line :class:`~evaltools.errors.ClusterError` naming them.
    """
    if stall_seconds is None:
        stall_seconds = DEFAULT_CONFIG.scale.stall_seconds
    parts = plan.parts
    if client is None:  # in this process, one part after the other
        for part in parts:
            result = task(part, **options)
            if on_done is not None:
                on_done(part)
            if "error" in result:
                _raise_payload(result["error"])
            yield result
        return
    if not parts:
        return
    from distributed import wait

    futures = _submit(client, task, parts, options, runs)
    index = {f.key: i for i, f in enumerate(futures)}
    ready: dict[int, dict[str, Any]] = {}
    done: set[int] = set()
    failed: tuple[int, tuple] | None = None
    nxt = 0
    pending = set(futures)
    rerun: set[int] = set()  # parts run again after the client lost their result
    watch = _Watchdog(client, parts, stall_seconds)
    try:
        while pending:
            try:
                finished, _ = wait(pending, timeout=watch.poll, return_when="FIRST_COMPLETED")
            except TimeoutError:
                # raises once no worker runs them for too long; True when workers are up but
                # idle: parts that preferred a dead worker's address wait in 'no-worker'
                # (a restarted worker has a new address), so they are submitted again
                if watch.check(pending, index):
                    again = sorted(pending, key=lambda f: index[f.key])
                    for f in again:
                        f.cancel()
                    fresh = client.map(task, [parts[index[f.key]] for f in again], pure=False,
                                       **options)
                    for old, new in zip(again, fresh, strict=True):
                        i = index.pop(old.key)
                        index[new.key] = i
                        futures[i] = new
                    pending = set(fresh)
                continue
            watch.progress()
            pending -= finished
            for fut in sorted(finished, key=lambda f: index[f.key]):
                i = index[fut.key]
                if fut.cancelled():
                    continue
                result = _result(fut, parts[i], again=i not in rerun, timeout=stall_seconds)
                if result is None:  # the client lost it, the task did not fail: once more
                    rerun.add(i)
                    new = client.submit(task, parts[i], pure=False, **options)
                    del index[fut.key]
                    index[new.key] = i
                    futures[i] = new
                    pending.add(new)
                    continue
                futures[i] = None  # released: its data leaves the cluster
                done.add(i)
                if on_done is not None:
                    on_done(parts[i])
                if "error" in result:
                    if failed is None or i < failed[0]:
                        failed = (i, result["error"])
                        for f in futures[i + 1:]:
                            if f is not None:
                                f.cancel()
                                pending.discard(f)
                else:
                    ready[i] = result
            while nxt in ready and (failed is None or nxt < failed[0]):
                yield ready.pop(nxt)
                nxt += 1
            if failed is not None and all(j in done for j in range(failed[0])):
                break
    finally:
        for f in futures:
            if f is not None:
                f.cancel()
    if failed is not None:
        _raise_payload(failed[1])


def _describe(parts: list[Part]) -> str:
    """``parts 3-5 and 9 of 20 (records 4,097-10,240 ...)``: which parts, briefly."""
    idx = sorted(p.index + 1 for p in parts)
    spans, start = [], idx[0]
    for a, b in zip(idx, [*idx[1:], None], strict=True):
        if b != a + 1:
            spans.append(f"{start}" if start == a else f"{start}-{a}")
            start = b
    first = min(parts, key=lambda p: p.index)
    last = max(parts, key=lambda p: p.index)
    shown = ", ".join(spans[:5]) + (", ..." if len(spans) > 5 else "")
    return (f"part{'s' if len(idx) > 1 else ''} {shown} (records {first.first_record:,}-"
            f"{last.first_record + last.records - 1:,})")


def _result(fut, part: Part, *, again: bool = False,
            timeout: float | None = None) -> dict[str, Any] | None:
    """A finished future's result; a part Dask gave up on is a one-line ClusterError.

    A task returns its input's errors (:func:`score_part`, :func:`judge_part`), so an
    exception here is the cluster's: ``KilledWorker`` (Dask ran it three times), or,
    with ``again``, anything else (a comm error, the client's own *Event is bound to
    a different event loop* as every worker dies) gives None, and the caller runs the
    part once more; a part that no worker then runs is the watchdog's to report.

    The wait is bounded by ``timeout`` seconds: a future :func:`distributed.wait` saw
    finished can be lost before its result is fetched (its worker killed in between),
    and then ``result()`` waits for a run that no worker will make (seen as a hung test
    suite); such a part is run once more, then reported, as above.
    """
    try:
        return fut.result(timeout=timeout)
    except Exception as exc:  # KilledWorker, a lost worker's CancelledError, comm errors
        name = type(exc).__name__
        if again and name != "KilledWorker":
            return None
        why = ("its worker died each time it ran it (out of memory: the worker's memory "
               "limit, or killed)" if name == "KilledWorker"
               else f"its result did not arrive within {timeout:g} s (its worker died)"
               if isinstance(exc, TimeoutError) and timeout is not None
               else f"{name}: {exc}")
        raise ClusterError(f"{_describe([part])} lost: {why}; nothing was written") from None


class _Watchdog:
    """Bounds a run whose parts no worker runs. Workers up but idle beside waiting
    parts (every worker died at once: the parts preferred the dead workers'
    addresses) for ``grace`` seconds: :meth:`check` says to submit them again,
    once. No worker (none came back), or still nothing running after
    ``stall_seconds`` without a finished part: a one-line ClusterError naming the
    parts left."""

    def __init__(self, client, parts, stall_seconds: float):
        import time

        self.client, self.parts, self.limit = client, parts, stall_seconds
        self.poll = min(5.0, max(0.5, stall_seconds / 4))
        self.grace = 10.0  # idle workers beside waiting parts this long: submit them again
        self.resubmitted = False
        self._clock = time.monotonic
        self.since = self._clock()

    def progress(self) -> None:
        self.since = self._clock()
        self.resubmitted = False

    def check(self, pending, index) -> bool:
        try:
            processing = sum(len(v) for v in self.client.processing().values())
            workers = len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # the scheduler itself is gone
            processing, workers = 0, 0
        if processing:
            self.since = self._clock()  # a part is running: a long part is no stall
            return False
        idle = self._clock() - self.since
        if workers and not self.resubmitted and idle >= min(self.grace, self.limit / 2):
            self.resubmitted = True
            self.since = self._clock()
            return True
        if idle < self.limit:
            return False
        left = [self.parts[index[f.key]] for f in pending]
        why = ("no worker is running (they died and were not restarted)" if not workers
               else f"{workers} worker(s) are up but none runs them")
        raise ClusterError(f"{_describe(left)} were not run for {self.limit:g} s: {why}; "
                           f"nothing was written (the [scale] stall_seconds setting)")


# ---------------------------------------------------------------------------- DataFrames


def _offsets(lengths) -> list[int]:
    """The number of rows before each partition (``lengths``: one Series or int a partition)."""
    out, total = [], 0
    for n in lengths:
        out.append(total)
        total += int(n.sum()) if hasattr(n, "sum") else int(n)
    return out


def _records(pdf) -> list[dict[str, Any]]:
    return [{k: plain_value(v) for k, v in rec.items()} for rec in pdf.to_dict("records")]


def _score_partition(pdf, offsets, *, config: Config, skip_invalid: bool, columns,
                     partition_info=None):
    import pandas as pd

    first = offsets[partition_info["number"]] + 1 if partition_info else 1
    records = pdf.to_dict("records")
    stream = _scorer(config).stream(enumerate(records, start=first),
                                           source="<DataFrame>", unit="record",
                                           skip_invalid=skip_invalid, start=first)
    out = pd.DataFrame([r.to_dict() for _, _, r in stream], columns=list(SCORE_SCHEMA.names),
                       index=pdf.index)
    out = out.astype(SCORE_DTYPES)
    keep = [c for c in pdf.columns if c not in SCORE_DTYPES]
    return pd.concat([pdf[keep], out], axis=1)[columns]


def score_frame(ddf, *, config: Config | None = None, skip_invalid: bool = False):
    """Score every row of a Dask DataFrame, lazily; one output row per input row.

    The input's columns (less those the contract defines), then the contract's
    fields with the dtypes of :data:`SCORE_DTYPES`; nested fields (``anchors``,
    ``keywords``, ``reasons``) are Python lists. Rows are numbered across
    partitions (a row without ``id`` gets its 1-based number, errors name it),
    so the result equals :func:`evaltools.scoring.scorer.score_frame` on the
    whole frame. Numbering needs each partition's length, which is computed
    with the result.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        Columns ``query``, ``context``, ``response`` (and any others).
    config : Config, optional
    skip_invalid : bool
        False: a bad row raises :class:`~evaltools.errors.InputError` at compute
        time, naming the row and field. True: its ``error`` column says why.

    Returns
    -------
    dask.dataframe.DataFrame
    """
    import pandas as pd

    cfg = config or DEFAULT_CONFIG
    keep = [c for c in ddf.columns if c not in SCORE_DTYPES]
    meta = pd.DataFrame({**{c: pd.Series(dtype=ddf.dtypes[c]) for c in keep},
                         **{c: pd.Series(dtype=t) for c, t in SCORE_DTYPES.items()}})
    offsets = _lazy_offsets(ddf)
    return ddf.map_partitions(_score_partition, offsets, config=cfg, skip_invalid=skip_invalid,
                              columns=list(meta.columns), meta=meta, align_dataframes=False)


def _lazy_offsets(ddf):
    from dask import delayed

    lengths = ddf.map_partitions(len, meta=("n", "int64"), align_dataframes=False)
    return delayed(_offsets)(lengths.to_delayed())


def _judge_partition(pdf, offsets, *, registry, skip_invalid: bool, columns,
                     partition_info=None):
    import pandas as pd

    first = offsets[partition_info["number"]] + 1 if partition_info else 1
    numbered = zip(range(first, first + len(pdf)), _records(pdf), strict=True)
    rows = [r.to_row() for r in judge_records(numbered, source="<DataFrame>", unit="row",
                                              skip_invalid=skip_invalid, registry=registry)]
    out = pd.DataFrame(rows, columns=list(JUDGE_DTYPES), index=pdf.index).astype(JUDGE_DTYPES)
    keep = [c for c in pdf.columns if c not in JUDGE_DTYPES]
    return pd.concat([pdf[keep], out], axis=1)[columns]


def judge_frame(ddf, *, registry=None, skip_invalid: bool = False):
    """Judge every row of a Dask DataFrame, lazily: its columns, then the result's.

    The result columns are those of ``JudgeResult.to_row`` with the dtypes of
    :data:`JUDGE_DTYPES`; rows are numbered across partitions, so the result
    equals :func:`evaltools.judging.api.judge_frame` on the whole frame.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        One record a row (``module``, ``output``, ``expected``, ...).
    registry : Registry, optional
    skip_invalid : bool

    Returns
    -------
    dask.dataframe.DataFrame
    """
    import pandas as pd

    keep = [c for c in ddf.columns if c not in JUDGE_DTYPES]
    meta = pd.DataFrame({**{c: pd.Series(dtype=ddf.dtypes[c]) for c in keep},
                         **{c: pd.Series(dtype=t) for c, t in JUDGE_DTYPES.items()}})
    return ddf.map_partitions(_judge_partition, _lazy_offsets(ddf),
                              registry=registry or DEFAULT_REGISTRY, skip_invalid=skip_invalid,
                              columns=list(meta.columns), meta=meta, align_dataframes=False)
