"""Scaling out on Dask: real clusters of worker processes on 127.0.0.1.

Every distributed result is compared with the single-process run of the same
input, record for record (the output files byte for byte where the format
allows). The module shares one LocalCluster of two worker processes; the
killed-worker test and the `dask scheduler` / `dask worker` test start their own.
"""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest
from distributed import Client, LocalCluster

from evaltools.cli import main
from evaltools.config import DEFAULT_CONFIG
from evaltools.dask import (
    SCORE_KINDS,
    judge_frame,
    output_kinds,
    run_parts,
    score_frame,
    score_part,
)
from evaltools.io import read_records
from evaltools.io.parts import expand_inputs, plan_parts, read_part

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as c, Client(c) as client:
        yield client


def generated(n: int, seed: int = 3) -> list[dict]:
    """Product answers; every third context is shared; every seventh record has no id."""
    rng = random.Random(seed)
    brands = ["Yeti", "Stanley", "Owala", "Lodge", "Ninja"]
    out = []
    for i in range(n):
        c = i // 3
        brand, price, days = brands[c % 5], 10 + c % 40, 2 + c % 4
        context = (f"The {brand} bottle model {c} costs ${price}.99 and ships in {days} days. "
                   f"It was released in {2010 + c % 12}.")
        shown = price + (3 if rng.random() < 0.3 else 0)
        rec = {"query": f"How much is the {brand} bottle model {c}?", "context": context,
               "response": f"The {brand} bottle model {c} costs ${shown}.99 (answer {i}).",
               "batch": i % 4}
        if i % 7:
            rec = {"id": f"g{i}", **rec}
        out.append(rec)
    return out


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n"
                            for r in records), encoding="utf-8")
    return path


def cli(capsys, *argv):
    code = main([*map(str, argv), "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- parts


def test_parts_read_back_exactly_what_the_file_holds(tmp_path):
    lines = ['{"x": 1}', "", '{"x": 2}', "  ", '{"x": 3}', '{"x": 4}', "", '{"x": 5}', ""]
    src = tmp_path / "a.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode())
    whole = list(read_records(src))
    for size in (1, 2, 3, 10):
        plan = plan_parts([src], records_per_part=size)
        got = [pair for p in plan.parts for pair in read_part(p)]
        assert got == whole, size
        assert [p.first_record for p in plan.parts] == list(range(1, 6, size))
    plan = plan_parts([src], records_per_part=2)
    # lines 1, 3 | 5, 6 | 8: each part starts at its first record's line
    assert [(p.first_line, p.records) for p in plan.parts] == [(1, 2), (5, 2), (8, 1)]


def test_parquet_parts_are_row_groups_and_csv_parts_row_ranges(tmp_path):
    df = pd.DataFrame({"x": range(10), "y": [f"r{i}" for i in range(10)]})
    df.to_parquet(tmp_path / "a.parquet", row_group_size=3)
    df.to_csv(tmp_path / "b.csv", index=False)
    plan = plan_parts(expand_inputs([tmp_path]), records_per_part=4)
    pq_parts = [p for p in plan.parts if p.fmt == "parquet"]
    # row groups of 3, 3, 3, 1: whole groups, up to 4 records a part
    assert [(p.first_line, p.records) for p in pq_parts] == [(1, 3), (4, 3), (7, 4)]
    assert [p.first_record for p in plan.parts] == [1, 4, 7, 11, 15, 19]
    for name in ("a.parquet", "b.csv"):
        got = [pair for p in plan.parts if p.source == name for pair in read_part(p)]
        assert got == list(read_records(tmp_path / name))
    assert plan.kinds == {"x": {"int", "str"}, "y": {"str"}}  # CSV cells are text


def test_expand_inputs_globs_folders_and_misses(tmp_path):
    for name in ("b.jsonl", "a.jsonl", "_SUCCESS", ".hidden.jsonl", "notes.txt"):
        (tmp_path / name).write_text("")
    assert [p.name for p in expand_inputs([tmp_path])] == ["a.jsonl", "b.jsonl"]
    assert [p.name for p in expand_inputs([str(tmp_path / "*.jsonl")])] == ["a.jsonl", "b.jsonl"]
    from evaltools.errors import InputError

    with pytest.raises(InputError, match="no file matches"):
        expand_inputs([str(tmp_path / "*.parquet")])


# ---------------------------------------------------------------------------- DataFrames


def _same_frames(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert list(a.columns) == list(b.columns)
    ra, rb = a.astype(object).to_dict("records"), b.astype(object).to_dict("records")
    clean = [[{k: (None if v is None or v is pd.NA or (isinstance(v, float) and v != v)
                   else v) for k, v in r.items()} for r in rs] for rs in (ra, rb)]
    assert clean[0] == clean[1]


@pytest.mark.slow  # 8.7 s alone
def test_score_frame_equals_pandas_score_frame_on_data(cluster):
    from evaltools.scoring.scorer import score_frame as pandas_score_frame

    pdf = pd.DataFrame([rec for _, rec in read_records(DATA / "responses.jsonl")])
    pdf = pdf.drop(columns=["id"])[::2].reset_index(drop=True)  # ids from row numbers
    ddf = score_frame(dd.from_pandas(pdf, npartitions=4))
    assert dict(ddf.dtypes[["relevance", "anchors_total", "verdict"]].astype(str)) == {
        "relevance": "float64", "anchors_total": "Int64", "verdict": "object"}
    got = cluster.compute(ddf).result()
    _same_frames(got, pandas_score_frame(pdf).astype(dict(got.dtypes)))
    assert got["id"].tolist() == list(range(1, len(pdf) + 1))


def test_score_frame_error_names_the_row_across_partitions(cluster):
    from evaltools.errors import InputError

    recs = generated(40)
    recs[33] = {k: v for k, v in recs[33].items() if k != "response"}
    pdf = pd.DataFrame(recs)
    ddf = score_frame(dd.from_pandas(pdf, npartitions=4))
    with pytest.raises(InputError, match=r"record 34: field 'response' is missing"):
        ddf.compute(scheduler="sync")
    out = score_frame(dd.from_pandas(pdf, npartitions=4), skip_invalid=True)
    errors = out["error"].compute(scheduler="sync")
    assert errors.notna().tolist() == [i == 33 for i in range(40)]


def test_judge_frame_equals_pandas_judge_frame_on_data(cluster):
    from evaltools.judging.stream import judge_frame as pandas_judge_frame

    pdf = pd.DataFrame([rec for _, rec in read_records(DATA / "judgments.jsonl")])
    for col in ("input", "output", "expected", "judge", "rules", "reasoning"):
        if col in pdf:
            pdf[col] = pdf[col].map(  # JSON text cells, as a CSV would hold
                lambda v: v if v is None or (isinstance(v, float) and v != v) else json.dumps(v))
    got = cluster.compute(judge_frame(dd.from_pandas(pdf, npartitions=3))).result()
    _same_frames(got, pandas_judge_frame(pdf).astype(dict(got.dtypes)))


# ---------------------------------------------------------------------------- commands


def test_score_on_a_cluster_writes_what_one_process_writes(tmp_path, capsys, cluster):
    src = DATA / "responses.jsonl"
    code, single_out, err = cli(capsys, "score", src, "-o", tmp_path / "one.jsonl")
    assert code == 0, err
    code, out, err = cli(capsys, "score", src, "-o", tmp_path / "many.jsonl",
                         "--scheduler", cluster.scheduler.address, "--partition-size", 9)
    assert code == 0, err
    assert (tmp_path / "many.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert out.split("\n", 1)[1] == single_out.split("\n", 1)[1]  # the same summary
    assert f"using the cluster at {cluster.scheduler.address} (2 workers)" in err


def test_judge_on_a_cluster_writes_what_one_process_writes(tmp_path, capsys, cluster):
    src = DATA / "judgments.jsonl"
    code, single_out, err = cli(capsys, "judge", src, "-o", tmp_path / "one.jsonl")
    assert code == 0, err
    code, out, err = cli(capsys, "judge", src, "-o", tmp_path / "many.jsonl",
                         "--scheduler", cluster.scheduler.address, "--partition-size", 10)
    assert code == 0, err
    assert (tmp_path / "many.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert out.split("\n", 1)[1] == single_out.split("\n", 1)[1]
    # a folder of parts: read back with pandas, the same records
    code, out_dir, err = cli(capsys, "judge", src, "-o", f"{tmp_path / 'parts'}/",
                             "--scheduler", cluster.scheduler.address, "--partition-size", 10)
    assert code == 0, err
    back = pd.read_parquet(tmp_path / "parts")
    one = [json.loads(x) for x in (tmp_path / "one.jsonl").read_text().splitlines()]
    assert back["id"].tolist() == [r["id"] for r in one]
    assert back["total_score"].tolist() == [float(r["total_score"]) for r in one]
    assert [None if pd.isna(a) else json.loads(a) for a in back["audit"]] == [
        r["audit"] for r in one]
    assert out_dir.split("\n", 1)[1] == single_out.split("\n", 1)[1]


@pytest.mark.slow
def test_2000_generated_records_equal_one_process(tmp_path, capsys, cluster):
    whole = write_jsonl(tmp_path / "all.jsonl", generated(2000))
    code, single_out, err = cli(capsys, "score", whole, "-o", tmp_path / "one.jsonl")
    assert code == 0, err
    code, out, err = cli(capsys, "score", whole, "-o", tmp_path / "many.jsonl",
                         "--scheduler", cluster.scheduler.address, "--partition-size", 256)
    assert code == 0, err
    assert (tmp_path / "many.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert out.split("\n", 1)[1] == single_out.split("\n", 1)[1]


def test_folder_of_parts_in_parquet_parts_out(tmp_path, capsys, cluster):
    recs = generated(300)
    code, single_out, err = cli(capsys, "score", write_jsonl(tmp_path / "all.jsonl", recs),
                                "-o", tmp_path / "one.jsonl")
    assert code == 0, err
    one = [json.loads(x) for x in (tmp_path / "one.jsonl").read_text().splitlines()]
    (tmp_path / "in").mkdir()
    write_jsonl(tmp_path / "in" / "p1.jsonl", recs[:100])
    pd.DataFrame(recs[100:]).to_parquet(tmp_path / "in" / "p2.parquet", row_group_size=60)
    code, out, err = cli(capsys, "score", tmp_path / "in", "-o", f"{tmp_path / 'out'}/",
                         "--scheduler", cluster.scheduler.address, "--partition-size", 64)
    assert code == 0, err
    assert out.split("\n", 1)[1] == single_out.split("\n", 1)[1]
    marker = json.loads((tmp_path / "out" / "_SUCCESS").read_text())
    assert marker == {"written_by": "evaltools", "records": 300,
                      "parts": 2 + 4}  # 100 = 64+36; 200 in 60,60,60+20
    back = pd.read_parquet(tmp_path / "out")
    # ids: the input's; a JSON Lines record without one gets its number across the inputs,
    # a Parquet row without one has a null id (as in a single-process run of that file)
    want = [str(r["id"]) if i < 100 or "id" in recs[i] else None for i, r in enumerate(one)]
    assert [None if pd.isna(v) else v for v in back["id"]] == want
    for col in ("relevance", "relevance_cosine", "hallucination", "ngram_overlap"):
        assert back[col].tolist() == [r[col] for r in one], col  # the same floats, exactly
    assert [json.loads(a) for a in back["anchors"]] == [r["anchors"] for r in one]
    assert back["anchors_total"].tolist() == [r["anchors_total"] for r in one]
    assert back["batch"].tolist() == [r["batch"] for r in one]  # input columns pass through


def test_malformed_record_in_partition_37_stops_the_run(tmp_path, capsys, cluster):
    recs = generated(400)
    recs[373] = {**recs[373], "context": 17}       # line 374, partition 37 (10 a part)
    recs[385] = {**recs[385], "query": None}        # a later one is not the first error
    src = write_jsonl(tmp_path / "runs.jsonl", recs)
    for out in ("out.jsonl", "out/"):
        code, _, err = cli(capsys, "score", src, "-o", f"{tmp_path}/{out}", "--scheduler",
                           cluster.scheduler.address, "--partition-size", 10)
        assert code == 2
        assert err.strip().splitlines()[-1] == ("evaltools score: error: runs.jsonl line 374: "
                                                "field 'context' must be a string, got int")
        assert "Traceback" not in err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.jsonl"]  # nothing left

    code, out, err = cli(capsys, "score", src, "-o", tmp_path / "out.jsonl", "--scheduler",
                         cluster.scheduler.address, "--partition-size", 10, "--skip-invalid")
    assert code == 0, err
    rows = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(rows) == 400
    assert [i for i, r in enumerate(rows) if r["error"]] == [373, 385]
    assert "records  400  (invalid: 2)" in out


def test_empty_input_on_a_cluster(tmp_path, capsys, cluster):
    src = tmp_path / "empty.jsonl"
    src.write_text("\n")
    code, out, err = cli(capsys, "score", src, "-o", tmp_path / "out.jsonl",
                         "--scheduler", cluster.scheduler.address)
    assert code == 0, err
    assert (tmp_path / "out.jsonl").read_text() == "" and "records  0" in out
    code, out, err = cli(capsys, "judge", src, "-o", f"{tmp_path / 'parts'}/",
                         "--scheduler", cluster.scheduler.address)
    assert code == 0, err
    assert json.loads((tmp_path / "parts" / "_SUCCESS").read_text())["records"] == 0
    back = pd.read_parquet(tmp_path / "parts")
    assert len(back) == 0 and "verdict" in back.columns


def test_each_worker_loads_the_pipeline_once(cluster):
    from evaltools import text

    plan = plan_parts([DATA / "responses.jsonl"], records_per_part=5)
    rows = [r for res in run_parts(cluster, plan, score_part, config=DEFAULT_CONFIG)
            for r in res["rows"]]
    assert len(rows) == 74
    loads = cluster.run(lambda: text._load.cache_info().misses)
    assert sorted(loads.values()) == [1, 1]


def _index(part, **options):
    return {"rows": [part.index]}


def test_runs_of_consecutive_parts_prefer_one_worker(tmp_path, cluster):
    """6 parts on 2 workers: parts 0-2 prefer one worker, 3-5 the other (runs of 3)."""
    from evaltools.dask import _submit

    src = write_jsonl(tmp_path / "in.jsonl", generated(12))
    plan = plan_parts([src], records_per_part=2)
    assert len(plan.parts) == 6
    futures = _submit(cluster, _index, plan.parts, {}, runs=True)
    assert [f.result()["rows"] for f in futures] == [[0], [1], [2], [3], [4], [5]]

    def restrictions(dask_scheduler, keys):
        return [(sorted(dask_scheduler.tasks[k].worker_restrictions),
                 dask_scheduler.tasks[k].loose_restrictions) for k in keys]

    got = cluster.run_on_scheduler(restrictions, keys=[f.key for f in futures])
    workers = set(cluster.scheduler_info()["workers"])
    first, second = got[0][0], got[3][0]
    # which worker takes the first run is the scheduler's choice; the runs are what count
    assert got == [(first, True)] * 3 + [(second, True)] * 3
    assert len(first) == len(second) == 1 and first != second
    assert {*first, *second} == workers


def test_parts_scored_in_one_process_share_its_feature_cache(tmp_path):
    """A context whose records fall in two parts is parsed once: the process keeps one
    scorer (and its feature cache) for every part it scores. By hand: 4 records, one
    context, 4 queries, 4 responses, parts of 2 records: 9 texts parsed, not 10."""
    from evaltools.dask import _scorer

    recs = [{"id": i, "query": f"Question number {i}?", "context": "One shared context.",
             "response": f"Answer number {i}."} for i in range(4)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    config = DEFAULT_CONFIG.replace(batch={"cache_texts": 7})  # a config of this test's own
    plan = plan_parts([src], records_per_part=2)
    assert len(plan.parts) == 2
    rows = [r for p in plan.parts for r in score_part(p, config=config)["rows"]]
    assert [r["id"] for r in rows] == [0, 1, 2, 3]
    assert _scorer(config) is _scorer(config)
    assert _scorer(config).cache.parsed == 9


@pytest.mark.slow
def test_a_worker_killed_mid_run_is_survived(tmp_path):
    recs = generated(300)
    src = write_jsonl(tmp_path / "in.jsonl", recs)
    plan = plan_parts([src], records_per_part=10)
    single = [r for res in run_parts(None, plan, score_part, config=DEFAULT_CONFIG)
              for r in res["rows"]]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as c, Client(c) as client:
        client.wait_for_workers(2)
        pids = client.run(os.getpid)
        killed = []

        def kill_one(part):  # after the first part, SIGKILL a worker that is busy
            if killed:
                return
            busy = [w for w, keys in client.processing().items() if keys and w in pids]
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(busy[0])

        out = tmp_path / "parts"
        out.mkdir()
        results = list(run_parts(client, plan, score_part, on_done=kill_one, config=DEFAULT_CONFIG,
                                 output_dir=str(out), kinds=output_kinds(plan, SCORE_KINDS)))
        assert killed, "no worker was busy to kill"
    assert sum(r["count"] for r in results) == 300
    back = pd.read_parquet(out)
    assert back["id"].tolist() == [str(r["id"]) for r in single]  # each record exactly once


@pytest.mark.slow
def test_dask_scheduler_and_worker_commands(tmp_path, capsys):
    dask = Path(sys.executable).with_name("dask")
    sched_file = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(sched_file)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(300):
            if sched_file.exists() and sched_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen(
                [str(dask), "worker", address, "--nworkers", "1", "--nthreads", "1",
                 "--host", "127.0.0.1", "--no-dashboard"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with Client(address) as client:
            client.wait_for_workers(2, timeout=60)
        src = DATA / "responses.jsonl"
        code, _, err = cli(capsys, "score", src, "-o", tmp_path / "one.jsonl")
        assert code == 0, err
        code, _, err = cli(capsys, "score", src, "-o", f"{tmp_path / 'parts'}/",
                           "--scheduler", address, "--partition-size", 20)
        assert code == 0, err
        one = [json.loads(x) for x in (tmp_path / "one.jsonl").read_text().splitlines()]
        back = pd.read_parquet(tmp_path / "parts")
        assert back["id"].tolist() == [r["id"] for r in one]
        assert back["hallucination"].tolist() == [r["hallucination"] for r in one]
        assert back["verdict"].tolist() == [r["verdict"] for r in one]
    finally:
        for p in reversed(procs):  # by their own PIDs
            os.kill(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                p.wait()


@pytest.mark.slow
def test_workers_option_starts_a_local_cluster(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", generated(30))
    code, _, err = cli(capsys, "score", src, "-o", tmp_path / "one.jsonl")
    assert code == 0, err
    cfg = tmp_path / "c.toml"  # 30 records: below the threshold, one process would run them
    cfg.write_text("[scale]\nscore_min_records_per_worker = 0\n")
    code, _, err = cli(capsys, "score", src, "-o", tmp_path / "many.jsonl", "--workers", "2",
                       "--partition-size", "8", "--config", cfg)
    assert code == 0, err
    assert "dask: started 2 local worker processes (scheduler tcp://127.0.0.1:" in err
    assert "dask: dashboard at http://127.0.0.1:" in err
    assert (tmp_path / "many.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


@pytest.mark.slow
def test_workers_started_by_the_cli_run_without_the_profiler():
    """Dask's profiler grew each worker by a tree of sampled call stacks, part after part."""
    import argparse

    import dask

    from evaltools.cli.scale import connect

    with connect(argparse.Namespace(workers=1, scheduler=None), quiet=True) as client:
        enabled = client.run(lambda: dask.config.get("distributed.worker.profile.enabled"))
    assert list(enabled.values()) == [False]


def test_unreachable_scheduler_is_one_line(tmp_path, capsys, monkeypatch):
    from evaltools.cli import scale

    monkeypatch.setattr(scale, "CONNECT_TIMEOUT", "2s")  # the same error, not 30 s later
    src = write_jsonl(tmp_path / "in.jsonl", generated(2))
    code, _, err = cli(capsys, "score", src, "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert err.strip().startswith("evaltools score: error: cannot start or reach a Dask")
    assert "Traceback" not in err


def test_an_input_a_worker_cannot_reach_is_an_input_error(tmp_path):
    from evaltools.errors import InputError

    src = write_jsonl(tmp_path / "in.jsonl", generated(3))
    plan = plan_parts([src])
    src.unlink()  # as if the worker's host had no such path
    with pytest.raises(InputError, match=r"in.jsonl: cannot be read on worker host .* same path"):
        list(run_parts(None, plan, score_part, config=DEFAULT_CONFIG))
