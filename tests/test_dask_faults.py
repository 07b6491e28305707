"""Dask runs whose workers die (issue 28's last part, issue 29 item 1), on a real
LocalCluster on 127.0.0.1 whose worker processes the tests kill with SIGKILL.

A run whose workers all die at once either finishes (its parts run again on
the restarted workers) or stops within ``[scale] stall_seconds`` with one line
and no output; a killed worker loses and duplicates no record.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from test_hostile_input import run, write_lines

ROOT = Path(__file__).resolve().parent.parent
JUDGED = [json.loads(x) for x in (ROOT / "data" / "judgments.jsonl").read_text().splitlines()]

pytestmark = pytest.mark.slow


def slow_judge(part, **options):
    """A real judging task, slowed so that workers can be killed in the middle of a run."""
    from evaltools.dask import judge_part

    time.sleep(0.4)
    return judge_part(part, **options)


def judgments(path: Path, n: int) -> Path:
    return write_lines(path, [{**JUDGED[i % len(JUDGED)], "id": f"j{i}"} for i in range(n)])


@pytest.fixture
def cluster():
    from distributed import Client, LocalCluster

    # closed with a bound: a cluster whose workers were killed must not hold the suite
    c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                     dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(c, timeout=60)
    try:
        yield c, client
    finally:
        client.close(timeout=30)
        c.close(timeout=30)


def kill_workers(cluster, after: float, *, restart: bool = True) -> tuple[threading.Thread,
                                                                         list[int]]:
    """SIGKILL every worker process at once after ``after`` seconds; the PIDs killed are
    appended to the list returned. The PIDs come from the nannies' own process handles,
    not from a call to the workers, so that the killing cannot wait on the cluster."""
    killed: list[int] = []

    def go():
        time.sleep(after)
        nannies = list(cluster.workers.values())
        if not restart:  # a nanny closing gracefully does not restart its worker
            from distributed.core import Status

            for nanny in nannies:
                nanny.status = Status.closing_gracefully
        for nanny in nannies:
            pid = nanny.process.pid if nanny.process is not None else None
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t, killed


def test_all_workers_killed_at_once_the_run_finishes_every_record_once(cluster, tmp_path):
    """Issue 29 item 1 and issue 28 ("a killed worker loses and duplicates no record"):
    parts preferred a worker by its address, which a restarted worker does not keep,
    so after both workers died every part waited in 'no-worker' forever."""
    import pandas as pd

    from evaltools.dask import JUDGE_KINDS, output_kinds, run_parts
    from evaltools.io.parts import plan_parts

    c, client = cluster
    src = judgments(tmp_path / "j.jsonl", 400)
    plan = plan_parts([src], records_per_part=20)
    out = tmp_path / "out"
    out.mkdir()
    killer, killed = kill_workers(c, 2.5)
    t = time.monotonic()
    results = list(run_parts(client, plan, slow_judge, runs=True, stall_seconds=60,
                             output_dir=str(out), kinds=output_kinds(plan, JUDGE_KINDS),
                             width=5))
    killer.join(timeout=30)
    assert len(killed) == 2  # both workers died in the middle of the run
    assert time.monotonic() - t < 90
    assert len(results) == len(plan.parts) == 20
    ids = pd.read_parquet(out)["id"].tolist()
    assert sorted(ids) == sorted(f"j{i}" for i in range(400))  # none lost, none twice


def test_workers_that_never_come_back_stop_the_run_in_bounded_time(cluster, tmp_path, capsys):
    """Issue 29 item 1: with every worker dead and none restarted the command waited in
    Future.result() forever; it now stops after [scale] stall_seconds with one line,
    naming the parts left, and writes nothing."""
    c, _ = cluster
    src = judgments(tmp_path / "j.jsonl", 3000)
    cfg = tmp_path / "c.toml"
    cfg.write_text("[scale]\nstall_seconds = 3\n")
    out = tmp_path / "judged.jsonl"
    from evaltools import dask as evaldask

    real = evaldask.judge_part
    evaldask.judge_part = slow_judge  # the CLI's task, slowed (workers import it by name)
    try:
        killer, killed = kill_workers(c, 2.0, restart=False)
        t = time.monotonic()
        code, _, err = run(capsys, "judge", src, "-o", out, "--scheduler",
                           c.scheduler_address, "--partition-size", "50", "--config", cfg,
                           "-q")
        killer.join(timeout=30)
    finally:
        evaldask.judge_part = real
    assert time.monotonic() - t < 60
    assert len(killed) == 2
    assert code == 2, (err, time.monotonic() - t)
    lines = [x for x in err.splitlines() if x.startswith("evaltools judge:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "were not run for 3 s: no worker is running" in lines[0]
    assert lines[0].startswith("evaltools judge: error: part")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["c.toml",
                                                                                 "j.jsonl"]


def flaky_judge(part, *, marks: str, always: bool = False, **options):
    """A real judging task whose first run of each part raises what a dying cluster
    raises in the client (``always``: every run does, as a bug would)."""
    from evaltools.dask import judge_part

    mark = Path(marks) / f"{part.index}"
    if always or not mark.exists():
        mark.touch()
        raise RuntimeError("<asyncio.locks.Event object> is bound to a different event loop")
    return judge_part(part, **options)


def test_a_part_whose_result_the_cluster_lost_is_run_once_more(cluster, tmp_path):
    """A part's future that raised something other than its input's error (the client's
    own RuntimeError as every worker died, seen once in a run of the suite) was
    reported as lost at once; it is run again, once, and every record is written once."""
    import pandas as pd

    from evaltools.dask import JUDGE_KINDS, output_kinds, run_parts
    from evaltools.io.parts import plan_parts

    _, client = cluster
    src = judgments(tmp_path / "j.jsonl", 60)
    plan = plan_parts([src], records_per_part=20)
    out, marks = tmp_path / "out", tmp_path / "marks"
    out.mkdir()
    marks.mkdir()
    results = list(run_parts(client, plan, flaky_judge, runs=True, stall_seconds=30,
                             output_dir=str(out), kinds=output_kinds(plan, JUDGE_KINDS),
                             width=5, marks=str(marks)))
    assert len(results) == len(plan.parts) == 3
    ids = pd.read_parquet(out)["id"].tolist()
    assert sorted(ids) == sorted(f"j{i}" for i in range(60))  # none lost, none twice


def test_a_part_that_fails_again_when_run_once_more_stops_the_run_with_one_line(cluster,
                                                                              tmp_path):
    from evaltools.dask import JUDGE_KINDS, output_kinds, run_parts
    from evaltools.errors import ClusterError
    from evaltools.io.parts import plan_parts

    _, client = cluster
    plan = plan_parts([judgments(tmp_path / "j.jsonl", 20)], records_per_part=20)
    out, marks = tmp_path / "out", tmp_path / "marks"
    out.mkdir()
    marks.mkdir()
    with pytest.raises(ClusterError) as e:
        list(run_parts(client, plan, flaky_judge, stall_seconds=30, output_dir=str(out),
                       kinds=output_kinds(plan, JUDGE_KINDS), width=5, marks=str(marks),
                       always=True))
    assert str(e.value) == ("part 1 (records 1-20) lost: RuntimeError: <asyncio.locks.Event "
                            "object> is bound to a different event loop; nothing was written")
    assert list(out.iterdir()) == []


class LostAfterFinishing:
    """A future as ``distributed.wait`` can hand one over while every worker dies: seen
    finished, then lost, so that ``result()`` waits for a run no worker will make (the
    suite hung there once in CI and once here, in
    ``test_workers_that_never_come_back_stop_the_run_in_bounded_time``). ``result`` with a
    timeout raises as Dask's does; without one it would wait forever, so it fails the test."""

    def __init__(self):
        self.timeouts = []

    def result(self, timeout=None):
        self.timeouts.append(timeout)
        if timeout is None:
            raise AssertionError("result() without a timeout waits forever here")
        raise TimeoutError(f"Result not available within {timeout} s")


def test_a_result_lost_after_its_future_finished_is_waited_for_with_a_bound(tmp_path):
    from evaltools.dask import _result
    from evaltools.errors import ClusterError
    from evaltools.io.parts import plan_parts

    (part,) = plan_parts([judgments(tmp_path / "j.jsonl", 20)], records_per_part=20).parts
    fut = LostAfterFinishing()
    assert _result(fut, part, again=True, timeout=3) is None  # run once more
    with pytest.raises(ClusterError) as e:
        _result(fut, part, timeout=3)
    assert str(e.value) == ("part 1 (records 1-20) lost: its result did not arrive within 3 s "
                            "(its worker died); nothing was written")
    assert fut.timeouts == [3, 3]


def test_a_few_records_on_two_workers_run_in_one_process_and_say_why(tmp_path, capsys):
    """Issue 28 (scale-out): 4,000 records took 37.6 s on two workers against 20.9 s in one
    process, without a word; below [scale] score_min_records_per_worker × N the command
    runs in one process and says so."""
    from test_dask import generated

    src = write_lines(tmp_path / "in.jsonl", generated(12))
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "a.jsonl", "--workers", "2")
    assert code == 0, err
    assert ("dask: 12 records are fewer than 5,000 per worker ([scale] "
            "score_min_records_per_worker): one process is faster for this input, so this run "
            "starts no workers") in err
    assert "dask: started" not in err
    code, _, err = run(capsys, "score", src, "-o", tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
