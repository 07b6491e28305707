"""Words parsed by each worker when parts are dealt one by one or in runs (a count, no timing).

Replays ``benchmarks/scale_out.py``'s score input through the real planner
(:func:`evaltools.io.parts.plan_parts`) and the real run length
(:func:`evaltools.dask.runs_of_parts`), with a model of each worker's
feature cache: the LRUs :class:`evaltools.scoring.features.FeatureCache`
keeps per role (``[batch] cache_texts`` queries and contexts, ``chunk_size``
responses), holding word counts instead of features. A text is parsed when
its worker's cache does not hold it. Prints the
words parsed by all workers, relative to one worker, for parts dealt one by
one (part ``i`` on worker ``i mod W``) and in runs. The dealing is a model:
Dask's scheduler may move a part to an idle worker.

Run: ``python benchmarks/part_locality.py [--records 20000] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring_speed import generate

from evaltools.config import DEFAULT_CONFIG
from evaltools.dask import runs_of_parts
from evaltools.io.parts import plan_parts, read_part
from evaltools.scoring.features import _LRU, FeatureCache


def words_parsed(parts_records: list[list[dict]], worker_of, n_workers: int) -> int:
    batch = DEFAULT_CONFIG.batch
    sizes = {"query": batch.cache_texts, "context": batch.cache_texts,
             "response": batch.chunk_size}
    caches = [{r: _LRU(sizes[r]) for r in FeatureCache.ROLES} for _ in range(n_workers)]
    words = 0
    for i, records in enumerate(parts_records):
        cache = caches[worker_of(i)]
        for rec in records:
            for role in FeatureCache.ROLES:
                text, lru = rec[role], cache[role]
                if text in lru:
                    lru.move_to_end(text)
                else:
                    lru.put(text, None)
                    words += len(text.split())
    return words


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--partition-size", type=int, default=2048)
    args = ap.parse_args()
    src = Path(tempfile.mkdtemp(prefix="evaltools-locality-")) / "in.jsonl"
    generate(args.records, src)
    plan = plan_parts([src], records_per_part=args.partition_size)
    parts = [[rec for _, rec in read_part(p)] for p in plan.parts]
    w = args.workers
    one = words_parsed(parts, lambda i: 0, 1)
    dealt = words_parsed(parts, lambda i: i % w, w)
    run = runs_of_parts(len(parts), w)
    runs = words_parsed(parts, lambda i: (i // run) % w, w)
    print(f"{args.records:,} records, {len(parts)} parts, {w} workers; words parsed by one "
          f"worker: {one:,}")
    print(f"parts dealt one by one: {dealt / one:.2f}x")
    print(f"runs of {run} parts:     {runs / one:.2f}x")
    src.unlink()


if __name__ == "__main__":
    main()
