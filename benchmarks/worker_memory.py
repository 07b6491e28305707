"""RSS of one Dask worker process part after part, with Dask's profiler on and off.

    python benchmarks/worker_memory.py [RECORDS]   (default 30,000: 15 parts)

Scores generated records (``scoring_speed.generate``) as parts of 2,048 records
on a LocalCluster of one worker process, writing Parquet parts as
``evaltools score --workers`` does, and prints the worker's RSS (MiB) after
every third part, first with Dask's statistical profiler on (Dask's default),
then off (what ``--workers`` starts). Flat memory: the RSS stops growing once
the feature cache is full. Figures depend on the machine; nothing is asserted.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring_speed import generate


def _rss() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def run(src: Path, out: Path, profile: bool) -> list[float]:
    import dask
    from distributed import Client, LocalCluster

    from evaltools.config import DEFAULT_CONFIG
    from evaltools.dask import SCORE_KINDS, output_kinds, run_parts, score_part
    from evaltools.io.parts import plan_parts

    plan = plan_parts([src], records_per_part=2048)
    out.mkdir()
    rss = []
    with dask.config.set({"distributed.worker.profile.enabled": profile}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None) as cluster, Client(cluster) as client:
        for k, _ in enumerate(run_parts(client, plan, score_part, config=DEFAULT_CONFIG,
                                        output_dir=str(out),
                                        kinds=output_kinds(plan, SCORE_KINDS)), start=1):
            if k % 3 == 0 or k == len(plan.parts):
                (value,) = client.run(_rss).values()
                rss.append(value)
    return rss


def main(n: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="evaltools-workermem-"))
    src = tmp / "in.jsonl"
    generate(n, src)
    for profile in (True, False):
        rss = run(src, tmp / f"out-{profile}", profile)
        print(f"profiler {'on ' if profile else 'off'}: worker RSS (MiB) every 3 parts: "
              + ", ".join(f"{x:.0f}" for x in rss), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30_000)
