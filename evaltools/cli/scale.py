"""What ``evaltools score`` and ``evaltools judge`` share to run on many files and processes.

``--workers N`` starts a ``distributed.LocalCluster`` of N worker processes
(one thread each, on 127.0.0.1); ``--scheduler tcp://HOST:PORT`` uses a
running Dask cluster. Inputs may be several files, globs or folders of
parts; an output ending in ``/`` is a folder of Parquet parts written by the
workers, complete with a ``_SUCCESS`` file, or not there at all.

Without these options and with one input file, the commands run as they
always did: one process, no cluster, no planning pass.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evaltools.cli.progress import progress_bar
from evaltools.errors import ClusterError, InputError, OutputError
from evaltools.io import refuse_overwriting_input, write_or_drain
from evaltools.io.atomic import current_umask, remove_stale_temps
from evaltools.io.parts import expand_inputs, plan_parts, write_parquet_part

SUCCESS = "_SUCCESS"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of a run on several processes or machines."""
    g = p.add_argument_group("scaling out (Dask)")
    g.add_argument("--workers", type=int, metavar="N",
                   help="run on N local worker processes (a Dask LocalCluster on 127.0.0.1)")
    g.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on the Dask cluster at this scheduler address; inputs and a "
                        "folder output must be paths every worker can reach")
    g.add_argument("--partition-size", type=int, default=2048, metavar="RECORDS",
                   help="records per task (default 2048)")


def refuse_map(columns) -> None:
    """``--map`` renames columns in one process; parts are read by workers as they are."""
    if columns:
        from evaltools.errors import InputError

        raise InputError("--map is read by one process only: rename the columns before "
                         "scoring several files, a folder or with --workers/--scheduler",
                         source="--map")


def scaled(args: argparse.Namespace) -> bool:
    """True when the run goes through parts: a cluster, several inputs, or a folder output."""
    out = args.output
    return bool(args.workers or args.scheduler or len(args.input) > 1
                or Path(args.input[0]).is_dir() or glob.has_magic(args.input[0])
                or (out is not None and is_folder(out)))


def is_folder(output: str) -> bool:
    """An output that names a folder: it ends in ``/`` or is an existing folder."""
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def check_arguments(args: argparse.Namespace) -> None:
    if args.workers is not None and args.workers < 1:
        raise ClusterError("--workers must be at least 1")
    if args.workers and args.scheduler:
        raise ClusterError("give --workers or --scheduler, not both")
    if args.partition_size < 1:
        raise ClusterError("--partition-size must be at least 1")


def _dashboard_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None


#: How long ``--scheduler ADDRESS`` waits for the scheduler to answer.
CONNECT_TIMEOUT = "30s"


@contextmanager
def connect(args: argparse.Namespace, *, plugin=None, quiet: bool = False) -> Iterator[Any]:
    """A ``distributed.Client`` for ``--workers`` / ``--scheduler``, or None (in-process)."""
    if not (args.workers or args.scheduler):
        yield None
        return
    import logging

    import dask
    from distributed import Client, LocalCluster

    say = (lambda msg: None) if quiet else (lambda msg: print(msg, file=sys.stderr))
    cluster = None
    try:
        if args.scheduler:
            client = Client(args.scheduler, timeout=CONNECT_TIMEOUT)
            n = len(client.scheduler_info().get("workers", {}))
            say(f"dask: using the cluster at {args.scheduler} ({n} workers)")
        else:
            dash = _dashboard_available()
            # Dask's statistical profiler keeps a tree of every call stack it samples: in
            # a long run it grew each worker by ~10,000 objects a part (benchmarks/
            # worker_memory.py); the workers started here run without it.
            with dask.config.set({"distributed.worker.profile.enabled": False}):
                cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                       processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0" if dash else None,
                                       silence_logs=logging.ERROR)
            client = Client(cluster)
            say(f"dask: started {args.workers} local worker processes "
                f"(scheduler {cluster.scheduler_address})")
            if not dash:
                say("dask: dashboard off (bokeh is not installed; pip install bokeh to get it)")
    except (OSError, TimeoutError) as exc:
        where = args.scheduler or "127.0.0.1"
        raise ClusterError(f"cannot start or reach a Dask cluster at {where} ({exc})") from None
    try:
        if client.dashboard_link and (args.scheduler or _dashboard_available()):
            say(f"dask: dashboard at {client.dashboard_link}")
        if plugin is not None:
            client.register_plugin(plugin)
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _staging_folder(target: Path) -> Path:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".part",
                                     dir=target.parent))
    except OSError as exc:
        raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None


def success_marker(records: int, parts: int) -> str:
    """The text of evaltools' ``_SUCCESS`` file: JSON naming evaltools, records and parts."""
    return json.dumps({"written_by": "evaltools", "records": records, "parts": parts}) + "\n"


def is_evaltools_output(folder: Path) -> bool:
    """True when ``folder/_SUCCESS`` is evaltools' own JSON marker.

    Spark and Hadoop jobs leave an empty ``_SUCCESS`` too; only a marker that
    parses as evaltools' JSON (``records`` and ``parts`` counts; outputs of
    earlier versions lack ``written_by``) lets a folder output be replaced.
    """
    try:
        with (folder / SUCCESS).open("rb") as fh:
            data = json.loads(fh.read(4096))
    except (OSError, ValueError):
        return False
    return (isinstance(data, dict) and data.get("written_by", "evaltools") == "evaltools"
            and set(data) - {"written_by"} == {"records", "parts"}
            and all(type(data[k]) is int for k in ("records", "parts")))


def check_replaceable(target: Path) -> None:
    """An existing folder output may be replaced only when it is empty or evaltools' own."""
    if target.is_dir() and any(target.iterdir()) and not is_evaltools_output(target):
        raise OutputError(f"{target}: is a folder that is not an evaltools output "
                          f"(no evaltools {SUCCESS} file); give an empty or new folder")


def _publish(stage: Path, target: Path) -> None:
    """Put the finished folder at ``target`` (replacing an earlier evaltools output there)."""
    old = None
    os.chmod(stage, 0o777 & ~current_umask())  # a folder as mkdir makes it, not mkdtemp's 0700
    if target.exists():
        check_replaceable(target)
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(stage, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _rows(results, summary) -> Iterator[dict[str, Any]]:
    for res in results:
        for row in res["rows"]:
            summary.add(row)
            yield row


def refuse_overwriting_inputs(output: str | None, paths: list[Path]) -> None:
    """An output that is one of the expanded inputs, or a folder holding one, is refused.

    A glob or a folder of parts can name the output file itself (``'runs/*.jsonl'
    -o runs/b.jsonl``), and a folder output is replaced as a whole: either would
    destroy an input.
    """
    if output is None or output == "-":
        return
    refuse_overwriting_input(output, paths)
    if is_folder(output):
        root = Path(output).resolve()
        for p in paths:
            if root in p.resolve().parents:
                raise InputError(f"the output folder {output} holds this input, and a folder "
                                 "output replaces the folder; write elsewhere", source=p.name)


def one_process_is_faster(args: argparse.Namespace, records: int, min_per_worker: int) -> bool:
    """True (and said on stderr) when ``--workers N`` has fewer than N × ``min_per_worker``
    records: starting N workers and loading the pipeline in each costs more than they
    save (4,000 records: 37.6 s on two workers against 20.9 s in one process)."""
    if not args.workers or not min_per_worker or records >= args.workers * min_per_worker:
        return False
    if not args.quiet:
        print(f"dask: {records:,} records are fewer than {min_per_worker:,} per worker "
              f"([scale] score_min_records_per_worker): one process is faster for this "
              f"input, so this run starts no workers", file=sys.stderr)
    return True


def run(args: argparse.Namespace, *, task: Callable[..., dict[str, Any]],
        contract: dict[str, set[str]], summary, desc: str, plugin=None, limits=None,
        runs: bool = False, min_records_per_worker: int = 0, stall_seconds=None,
        **options) -> None:
    """Plan the inputs, run ``task`` on every part, write the output, fill ``summary``.

    ``limits`` (an :class:`~evaltools.config.InputConfig`, default the
    ``[input]`` settings) bound the lines planned and read. ``runs``: consecutive
    parts go to one worker (:func:`evaltools.dask.run_parts`). With
    ``--workers N`` and fewer than N × ``min_records_per_worker`` records the
    parts run in this process (:func:`one_process_is_faster`);
    ``stall_seconds`` bounds a run whose workers all died.
    """
    from evaltools.dask import output_kinds, run_parts

    check_arguments(args)
    options["limits"] = limits
    paths = expand_inputs(args.input)
    refuse_overwriting_inputs(args.output, paths)
    plan = plan_parts(paths, records_per_part=args.partition_size,
                      skip_invalid=bool(options.get("skip_invalid")), limits=limits)
    folder = args.output is not None and is_folder(args.output)
    target = Path(args.output) if args.output is not None else None
    stage = None
    if folder:
        check_replaceable(target)  # before any work, and again when publishing
        remove_stale_temps(target)
        stage = _staging_folder(target)
        options.update(output_dir=str(stage), kinds=output_kinds(plan, contract),
                       width=max(5, len(str(len(plan.parts)))))
    if one_process_is_faster(args, plan.records, min_records_per_worker):
        args = argparse.Namespace(**{**vars(args), "workers": None})
    try:
        with connect(args, plugin=plugin, quiet=args.quiet) as client, \
                progress_bar(plan.records, desc, disabled=args.no_progress) as bar:
            results = run_parts(client, plan, task, on_done=lambda p: bar.update(p.records),
                                runs=runs, stall_seconds=stall_seconds, **options)
            if folder:
                for res in results:
                    summary.merge(res["summary"])
            else:
                write_or_drain(_rows(results, summary), args.output,
                               csv_raw=getattr(args, "csv_raw", False))
        if folder:
            try:
                if not plan.parts:  # a readable, empty dataset
                    write_parquet_part([], stage / "part-00000.parquet", options["kinds"])
                (stage / SUCCESS).write_text(success_marker(plan.records,
                                                            max(1, len(plan.parts))))
                _publish(stage, target)
            except OSError as exc:  # a full disk, a quota, a read-only file system
                raise OutputError(f"{target}: cannot write there "
                                  f"({exc.strerror or exc})") from None
            stage = None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
