"""Records/s and memory of ``evaltools score/judge --workers N`` (a Dask LocalCluster).

Runs the real commands as child processes on generated inputs and prints:

- ``evaltools score`` on 20k records: one process (no cluster), then 1 and 2
  workers: records/s and the speedup of 2 workers over 1 (target >= 1.7x on
  2 free cores);
- peak RSS of each worker process at 20k and 200k records (2 workers; target:
  flat), sampled every 0.25 s from the command's process tree;
- the time 1M records would take, from the 200k run's rate;
- ``evaltools judge`` on 1M generated judge records (``data/judgments.jsonl``
  repeated with new ids) with 1 and 2 workers.

Times include starting the cluster and loading the pipeline in each worker
(what a user waits for). Outputs are folders of Parquet parts (``-o DIR/``).
Run: ``python benchmarks/scale_out.py [--score N] [--memory N ...]
[--judge N]`` (defaults: 20k, 200k, 1M; about 30-40 minutes on 2 quiet
cores, 2 GB of temporary files). Figures depend on the machine and on what
else runs on it; nothing here is asserted.

``--sizes 1000 4000 20000`` instead times ``score`` at each size in one
process and on 1 and 2 workers (forced past ``[scale]
score_min_records_per_worker``), and where the time goes: starting the
cluster, loading the pipeline in the workers, the planning pass.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scoring_speed import generate

ROOT = Path(__file__).resolve().parents[1]


def generate_judgments(n: int, path: Path) -> None:
    """``n`` judge records: the sample records repeated, each with its own id."""
    sample = [json.loads(x) for x in (ROOT / "data" / "judgments.jsonl").read_text(
        encoding="utf-8").splitlines() if x.strip()]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            rec = dict(sample[i % len(sample)])
            rec["id"] = f"j{i}"
            fh.write(json.dumps(rec) + "\n")


def run(cmd: list[str]) -> dict:
    """Wall seconds of one command and the peak RSS (MiB) of each process in its tree."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peaks: dict[int, float] = {}
    names: dict[int, str] = {}
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for p in procs:
            try:
                rss = p.memory_info().rss / 2**20
                if p.pid not in names:
                    names[p.pid] = " ".join(p.cmdline())
            except psutil.Error:
                continue
            peaks[p.pid] = max(peaks.get(p.pid, 0.0), rss)
        time.sleep(0.25)
    wall = time.perf_counter() - t0
    err = proc.stderr.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    # worker processes: the children that load the pipeline (the biggest), not the
    # scheduler/nanny/resource tracker; with N workers, the N largest children
    children = sorted((v for k, v in peaks.items() if k != proc.pid), reverse=True)
    return {"wall": wall, "client": peaks.get(proc.pid, 0.0), "children": children}


def evaltools(*args: str) -> list[str]:
    return [sys.executable, "-m", "evaltools", *args, "--no-progress", "-q"]


def breakdown(src: Path, workers: int) -> dict:
    """Seconds to start a LocalCluster of ``workers``, to load the pipeline in all of
    them (in parallel), and to plan ``src`` into parts (this process)."""
    import logging

    from distributed import Client, LocalCluster

    from evaltools.io.parts import plan_parts
    from evaltools.text import load_pipeline

    t0 = time.perf_counter()
    plan_parts([src], records_per_part=2048)
    plan = time.perf_counter() - t0
    t0 = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None,
                      silence_logs=logging.ERROR) as c, Client(c) as client:
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        client.run(lambda: bool(load_pipeline()))
        load = time.perf_counter() - t0
    return {"plan": plan, "start": start, "load": load}


def sizes(ns: list[int], tmp: Path) -> None:
    cfg = tmp / "force.toml"
    cfg.write_text("[scale]\nscore_min_records_per_worker = 0\n")
    for n in ns:
        src = tmp / f"s{n}.jsonl"
        generate(n, src)
        one = run(evaltools("score", str(src), "-o", str(tmp / "one.jsonl")))["wall"]
        walls = {w: run(evaltools("score", str(src), "-o", str(tmp / f"w{w}.jsonl"),
                                  "--workers", str(w), "--config", str(cfg)))["wall"]
                 for w in (1, 2)}
        b = breakdown(src, 2)
        print(f"score {n:>6,}: one process {one:6.1f} s | 1 worker {walls[1]:6.1f} s | "
              f"2 workers {walls[2]:6.1f} s ({one / walls[2]:.2f}x one process) | "
              f"start 2 workers {b['start']:.1f} s, pipeline load {b['load']:.1f} s, "
              f"plan {b['plan']:.2f} s | load avg {os.getloadavg()[0]:.1f}", flush=True)
        src.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--score", type=int, default=20_000,
                    help="records for the speed runs (0: skip)")
    ap.add_argument("--memory", type=int, nargs="*", default=[200_000],
                    help="more record counts for the memory runs (2 workers; the speed run "
                         "gives the first)")
    ap.add_argument("--judge", type=int, default=1_000_000, help="judge records (0: skip)")
    ap.add_argument("--sizes", type=int, nargs="*", help="time score at these sizes in one "
                    "process and on 1 and 2 workers, with where the time goes; nothing else")
    args = ap.parse_args()
    print(f"cpus: {os.cpu_count()}  load average at start: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="evaltools-scale-"))
    if args.sizes:
        sizes(args.sizes, tmp)
        return
    rows = []

    rate_at: dict[int, float] = {}
    peak_at: dict[int, float] = {}
    if args.score:
        src = tmp / f"score{args.score}.jsonl"
        generate(args.score, src)
        single = run(evaltools("score", str(src), "-o", str(tmp / "one.jsonl")))
        print(f"score {args.score:>9,} records, 1 process (no cluster): {single['wall']:7.1f} s "
              f"{args.score / single['wall']:7.1f} rec/s  peak {single['client']:.0f} MiB",
              flush=True)
        rates = {}
        for n in (1, 2):
            r = run(evaltools("score", str(src), "-o", f"{tmp / f'w{n}'}/", "--workers", str(n)))
            rates[n] = args.score / r["wall"]
            workers = r["children"][:n]
            print(f"score {args.score:>9,} records, {n} worker(s):          {r['wall']:7.1f} s "
                  f"{rates[n]:7.1f} rec/s  worker peak "
                  f"{', '.join(f'{w:.0f}' for w in workers)} MiB", flush=True)
            rows.append({"command": "score", "records": args.score, "workers": n, **r})
            if n == 2:
                rate_at[args.score] = rates[2]
                peak_at[args.score] = max(workers)
        print(f"speedup of 2 workers over 1: {rates[2] / rates[1]:.2f}x (target >= 1.7x)",
              flush=True)

    for n_rec in args.memory:
        path = tmp / f"mem{n_rec}.jsonl"
        generate(n_rec, path)
        r = run(evaltools("score", str(path), "-o", f"{tmp / f'm{n_rec}'}/", "--workers", "2"))
        rate_at[n_rec] = n_rec / r["wall"]
        print(f"score {n_rec:>9,} records, 2 workers:           {r['wall']:7.1f} s "
              f"{rate_at[n_rec]:7.1f} rec/s  worker peak "
              f"{', '.join(f'{w:.0f}' for w in r['children'][:2])} MiB  "
              f"client peak {r['client']:.0f} MiB", flush=True)
        rows.append({"command": "score", "records": n_rec, "workers": 2, **r})
        peak_at[n_rec] = max(r["children"][:2])
        path.unlink()
    if len(peak_at) > 1:
        small, big = min(peak_at), max(peak_at)
        print(f"worker peak memory, 2 workers: {peak_at[small]:.0f} MiB at {small:,} records, "
              f"{peak_at[big]:.0f} MiB at {big:,} ({peak_at[big] / peak_at[small] - 1:+.0%}; "
              f"target: flat)", flush=True)
    if rate_at:
        biggest = max(rate_at)
        est = 1_000_000 / rate_at[biggest]
        print(f"estimated time for 1M records on 2 workers: {est / 60:.0f} min "
              f"({est / 3600:.1f} h) at the {biggest:,}-record rate", flush=True)

    if args.judge:
        path = tmp / "judge.jsonl"
        generate_judgments(args.judge, path)
        print(f"judge input: {path.stat().st_size / 2**20:.0f} MiB", flush=True)
        times = {}
        for n in (1, 2):
            r = run(evaltools("judge", str(path), "-o", f"{tmp / f'j{n}'}/", "--workers", str(n)))
            times[n] = r["wall"]
            print(f"judge {args.judge:>9,} records, {n} worker(s):          {r['wall']:7.1f} s "
                  f"{args.judge / r['wall']:7.0f} rec/s  worker peak "
                  f"{', '.join(f'{w:.0f}' for w in r['children'][:n])} MiB  "
                  f"client peak {r['client']:.0f} MiB", flush=True)
            rows.append({"command": "judge", "records": args.judge, "workers": n, **r})
        print(f"judge speedup of 2 workers over 1: {times[1] / times[2]:.2f}x", flush=True)
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    (tmp / "results.json").write_text(json.dumps(rows, indent=1))
    print(f"results: {tmp / 'results.json'}")


if __name__ == "__main__":
    main()
