"""Asking an LLM judge: the real client against a scripted chat-completions server on 127.0.0.1.

Each scripted case (tests/llm_server.py) has its expected record: the answer
kept in ``judge``, what ``judge_llm`` says, the audit's findings and
evaltools' own verdict. The record is M04 (boolean) with output = expected =
true; its rules have no automatic checks, so a judge's four ``compliant``
answers decide them: a consistent judge gives 40 + 40 + (8 + 8 + 4) = 100, PASS.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.cli import main
from evaltools.config import DEFAULT_CONFIG
from evaltools.errors import LLMError
from evaltools.judging import ask
from evaltools.judging.asking import Asker
from evaltools.judging.judge_cache import JudgeCache
from evaltools.judging.llm_client import JudgeClient
from evaltools.prompt import render_prompt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from llm_server import VALID, ScriptedServer, template

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "judgments.jsonl"
FAST = {"backoff_base": 0.01, "backoff_max": 0.05, "max_retries": 2, "timeout": 10.0,
        "total_timeout": 20.0, "requests_per_minute": 10_000}


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch):
    """No proxy, and any connection beyond 127.0.0.1 fails the test."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    real = socket.socket.connect

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            assert address[0] in ("127.0.0.1", "::1"), f"a test tried to reach {address}"
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)


@pytest.fixture
def server():
    with ScriptedServer() as srv:
        yield srv


def record(case: str, **extra):
    return {"id": case, "module": "M04", "output": True, "expected": True,
            "input": {"brand": "Hydro Flask", "keyword": "yeti rambler", "case": case}, **extra}


def client(srv, **llm):
    return JudgeClient("judge-model", srv.url, config=DEFAULT_CONFIG.replace(
        llm={**FAST, **llm}).llm)


def one(srv, case, **llm):
    """Ask for one record and judge it: (record as asked, its result's dict)."""
    rec = ask([record(case)], client=client(srv, **llm), prompt=render_prompt)[0]
    return rec, evaltools.judge(rec).to_dict()


def codes(result):
    return sorted(f["code"] for f in result["audit"] or ())


# ------------------------------------------------------------------- the scripted cases


def test_valid_json(server):
    rec, res = one(server, "valid")
    assert rec["judge"] == template()
    assert rec["judge_llm"] == {"model": "judge-model", "attempts": 1, "finish_reason": "stop",
                                "repairs": [], "prompt_tokens": 1000, "completion_tokens": 200,
                                "cost_usd": None, "answer": None, "error": None}
    assert res["audit"] == [] and (res["total_score"], res["verdict"]) == (100, "PASS")
    body = server.requests[0]["body"]
    assert (body["model"], body["temperature"], body["seed"]) == ("judge-model", 0.0, 0)
    assert body["response_format"]["type"] == "json_schema"
    assert body["messages"][1]["content"] == render_prompt("M04", record("valid"))


def test_json_in_a_code_fence(server):
    rec, res = one(server, "fence")
    assert rec["judge"] == template()
    assert rec["judge_llm"]["repairs"] == ["code fence"]
    assert rec["judge_llm"]["answer"].startswith("Here is my evaluation:\n```json\n{")
    assert res["audit"] == [] and res["verdict"] == "PASS"


def test_malformed_json_is_asked_again_quoting_the_error(server):
    rec, res = one(server, "malformed_then_valid")
    assert rec["judge"] == template() and rec["judge_llm"]["attempts"] == 2
    assert (rec["judge_llm"]["prompt_tokens"], rec["judge_llm"]["completion_tokens"]) == \
        (2000, 400)
    second = server.requests[1]["body"]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "{'verdict': 'PASS'}"
    assert "Expecting property name enclosed in double quotes at line 1 column 2" in \
        second[3]["content"]
    assert res["audit"] == []


def test_unreadable_answer_is_a_record_error_with_its_text_kept(server):
    rec, res = one(server, "malformed")
    raw = "The output is correct. Score: 85/100, verdict PASS."
    assert rec["judge"] == raw and rec["judge_llm"]["answer"] == raw
    assert rec["judge_llm"]["attempts"] == 2 and server.count("malformed") == 2
    assert rec["judge_llm"]["error"] == ("the answer could not be read as JSON after 2 "
                                         "attempts (no JSON object in the answer); its text "
                                         "is kept in judge")
    # the audit says so, and evaltools' verdict stands without the judge's answers:
    # correctness 40, rules unassessed 0, reasoning unassessed 0 -> 40, FAIL
    assert codes(res) == ["unparseable"]
    assert (res["total_score"], res["verdict"]) == (40, "FAIL")


def test_parse_retries_zero_asks_once(server):
    rec, _ = one(server, "malformed", parse_retries=0)
    assert rec["judge_llm"]["attempts"] == 1 and server.count() == 1


def test_truncated_json_keeps_what_is_complete(server):
    rec, res = one(server, "truncated")
    assert rec["judge_llm"]["finish_reason"] == "length"
    assert rec["judge_llm"]["repairs"] == ["truncated: cut back to the last complete value"]
    # "total_score": 10 (of 100) was cut in the middle: dropped, never read as 10
    assert "total_score" not in rec["judge"]
    assert rec["judge"]["evaluation"] == template()["evaluation"]
    assert codes(res) == ["missing_key"] * 4
    assert sorted(f["path"] for f in res["audit"]) == \
        ["improvement_suggestions", "summary", "total_score", "verdict"]
    assert (res["total_score"], res["verdict"]) == (100, "PASS")


def test_wrong_arithmetic_is_a_finding(server):
    rec, res = one(server, "wrong_arithmetic")
    assert rec["judge"]["evaluation"]["rule_compliance"]["score"] == 30
    assert codes(res) == ["rule_total_mismatch"]
    assert (res["total_score"], res["verdict"], res["judge_total_score"]) == (100, "PASS", 90)


def test_verdict_that_does_not_follow_is_a_finding(server):
    _, res = one(server, "verdict_not_following")
    assert codes(res) == ["verdict_differs", "verdict_mismatch"]
    assert (res["verdict"], res["judge_verdict"]) == ("PASS", "FAIL")


def test_429_then_success(server):
    rec, res = one(server, "rate_limited")
    assert server.count("rate_limited") == 2
    assert rec["judge"] == template() and rec["judge_llm"]["error"] is None
    assert res["audit"] == []


def test_500_is_retried_then_a_record_error(server):
    rec, res = one(server, "server_error", max_retries=1)
    assert server.count("server_error") == 2
    assert "judge" not in rec
    assert rec["judge_llm"]["error"] == ("no answer from the judge: no answer after 2 "
                                         "attempts (HTTP 500: scripted failure)")
    assert rec["judge_llm"]["attempts"] == 0
    assert res["audit"] is None and (res["total_score"], res["verdict"]) == (40, "FAIL")


def test_a_slow_answer_past_the_timeout(server):
    rec, _ = one(server, "slow", timeout=0.3, max_retries=0)
    assert rec["judge_llm"]["error"] == ("no answer from the judge: no answer after 1 attempt "
                                         "(timed out after 0.3 s)")


def test_total_timeout_bounds_retries(server):
    start = time.monotonic()
    rec, _ = one(server, "slow", timeout=0.2, total_timeout=0.5, max_retries=10,
                 backoff_base=0.0)
    # each answer takes 3 s and 10 retries are allowed: only the total bound ends it early
    assert time.monotonic() - start < 5.0
    assert rec["judge_llm"]["error"].startswith("no answer from the judge: no answer within "
                                                "total_timeout = 0.5 s")
    assert 1 <= server.count("slow") <= 4   # 0.2 s a try within 0.5 s (3 on an idle machine)


def test_a_refused_key_stops_the_run(server, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    c = JudgeClient("judge-model", server.url, api_key_env="MY_KEY",
                    config=DEFAULT_CONFIG.replace(llm=FAST).llm)
    with pytest.raises(LLMError) as err:
        ask([record("unauthorised")], client=c, prompt=render_prompt)
    assert err.value.fatal and "HTTP 401" in err.value.message
    assert "sk-secret" not in err.value.message and "sk-secret" not in repr(c)
    assert server.requests[0]["authorization"] == "Bearer sk-secret-123"
    assert server.count() == 1   # not retried


def test_a_server_refusing_structured_output_is_asked_without_it(server):
    rec, res = one(server, "no_response_format")
    bodies = [r["body"] for r in server.requests]
    assert ["response_format" in b for b in bodies] == [True, False]
    assert rec["judge"] == template() and res["audit"] == []


def test_a_server_refusing_a_seed_too_is_asked_without_both(server):
    rec, _ = one(server, "no_seed")
    sent = [("response_format" in r["body"], "seed" in r["body"]) for r in server.requests]
    assert sent == [(True, True), (False, True), (False, False)]
    assert rec["judge"] == template()


def test_another_400_fails_the_record_only(server):
    c = client(server)
    out = ask([record("bad_request"), record("valid")], client=c, prompt=render_prompt)
    # structured output and seed dropped in turn, then the 400 stands: 3 requests, then valid
    assert out[0]["judge_llm"]["error"] == ("no answer from the judge: HTTP 400 from "
                                            f"{server.url}: messages too long")
    assert out[1]["judge"] == template() and server.count("bad_request") == 3


def test_records_with_a_judge_are_not_asked_unless_rejudge(server):
    given = record("valid", judge=template(verdict="FAIL"))
    out = ask([given, record("fence")], client=client(server), prompt=render_prompt)
    assert out[0]["judge"] == template(verdict="FAIL") and out[0]["judge_llm"] is None
    assert server.count() == 1
    out = ask([given], client=client(server), prompt=render_prompt, rejudge=True)
    assert out[0]["judge"] == template() and server.count() == 2


def test_unknown_module_passes_through_unasked(server):
    out = ask([{"module": "M99", "output": 1, "expected": 1}], client=client(server),
              prompt=render_prompt)
    assert out == [{"module": "M99", "output": 1, "expected": 1, "judge_llm": None}]
    assert server.count() == 0


def test_concurrency_is_bounded_and_order_kept(server):
    recs = [record("delay", id=f"r{i}") for i in range(6)]
    out = ask(recs, client=client(server, concurrency=2), prompt=render_prompt)
    assert [r["id"] for r in out] == [f"r{i}" for i in range(6)]
    assert server.max_in_flight == 2


def test_cost_from_the_price_table(server):
    c = JudgeClient("judge-model", server.url, config=DEFAULT_CONFIG.replace(
        llm={**FAST, "prices": {"judge-model": {"input": 0.15, "output": 0.60}}}).llm)
    asker = Asker(c, render_prompt)
    out = [r for _, r in asker.stream(enumerate([record("valid"), record("fence")], 1))]
    # 1000 x 0.15 / 1e6 + 200 x 0.60 / 1e6 = 0.00015 + 0.00012
    assert [r["judge_llm"]["cost_usd"] for r in out] == [0.00027, 0.00027]
    assert asker.stats.to_dict() == {"model": "judge-model", "cached": 0, "asked": 2,
                                     "failed": 0, "unreadable": 0, "prompt_tokens": 2000,
                                     "completion_tokens": 400, "cost": 0.00054}


# ------------------------------------------------------------------------------ the cache


def test_rerun_is_served_from_the_cache(server, tmp_path):
    recs = [record(c) for c in ("valid", "fence", "malformed", "wrong_arithmetic")]
    with JudgeCache(tmp_path / "c.sqlite") as cache:
        first = ask(recs, client=client(server), prompt=render_prompt, cache=cache)
        asked = server.count()
        second = ask(recs, client=client(server), prompt=render_prompt, cache=cache)
        assert server.count() == asked == 5          # malformed was asked twice
        assert second == first
        third = ask(recs[:1], client=client(server), prompt=render_prompt, cache=cache,
                    refresh=True)
        assert server.count() == 6 and third == first[:1]
        assert len(cache) == 4


def test_failures_are_not_cached(server, tmp_path):
    with JudgeCache(tmp_path / "c.sqlite") as cache:
        ask([record("server_error")], client=client(server, max_retries=0),
            prompt=render_prompt, cache=cache)
        ask([record("server_error")], client=client(server, max_retries=0),
            prompt=render_prompt, cache=cache)
        assert server.count() == 2 and len(cache) == 0


def test_cache_key_follows_model_and_parameters(server, tmp_path):
    with JudgeCache(tmp_path / "c.sqlite") as cache:
        ask([record("valid")], client=client(server), prompt=render_prompt, cache=cache)
        ask([record("valid")], client=client(server, temperature=0.5), prompt=render_prompt,
            cache=cache)
        other = JudgeClient("other-model", server.url, config=client(server).config)
        ask([record("valid")], client=other, prompt=render_prompt, cache=cache)
        assert server.count() == 3 and len(cache) == 3
        with (tmp_path / "c.sqlite").open("rb") as f:
            assert b"sk-" not in f.read()


def test_a_file_that_is_not_a_database_is_a_one_line_error(tmp_path):
    bad = tmp_path / "c.sqlite"
    bad.write_text("not a database, just text " * 100)
    with pytest.raises(evaltools.errors.ConfigError, match="cannot be used as the judge "
                                                           "cache"):
        JudgeCache(bad).get("k")


# -------------------------------------------------------------------------------- the CLI


def _write(path, recs):
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def test_cli_asks_audits_and_reruns_byte_identical(server, tmp_path, capsys):
    src = _write(tmp_path / "in.jsonl", [record(c) for c in
                                         ("valid", "fence", "wrong_arithmetic", "malformed")])
    args = ["judge", str(src), "--llm", "judge-model", "--base-url", server.url,
            "--cache", str(tmp_path / "c.sqlite"), "--no-progress", "--max-retries", "1"]
    assert main([*args, "-o", str(tmp_path / "a.jsonl")]) == 0
    out = capsys.readouterr().out
    assert ("LLM judge judge-model: 4 records: 0 from the cache, 4 asked, 0 failed, "
            "1 unreadable; tokens 5,000 in, 1,000 out; no price for this model") in out
    assert main([*args, "-o", str(tmp_path / "b.jsonl")]) == 0
    assert "4 from the cache, 0 asked" in capsys.readouterr().out
    assert server.count() == 5
    a, b = (tmp_path / "a.jsonl").read_bytes(), (tmp_path / "b.jsonl").read_bytes()
    assert a == b
    rows = [json.loads(line) for line in a.decode().splitlines()]
    assert [codes(r) for r in rows] == [[], [], ["rule_total_mismatch"], ["unparseable"]]


def test_cli_no_cache_asks_every_time(server, tmp_path, capsys):
    src = _write(tmp_path / "in.jsonl", [record("valid")])
    args = ["judge", str(src), "--llm", "judge-model", "--base-url", server.url, "--no-cache",
            "-q", "--no-progress"]
    assert main(args) == 0 and main(args) == 0
    assert server.count() == 2


def test_cli_refused_key_exits_2_and_writes_nothing(server, tmp_path, capsys):
    src = _write(tmp_path / "in.jsonl", [record("unauthorised")])
    out = tmp_path / "out.jsonl"
    assert main(["judge", str(src), "--llm", "m", "--base-url", server.url, "--no-cache",
                 "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("evaltools judge: error: HTTP 401 from http://")
    assert not out.exists()


@pytest.mark.parametrize("argv, message", [
    (["--rejudge"], "--rejudge needs --llm MODEL"),
    (["--no-cache"], "--no-cache needs --llm MODEL"),
    (["--llm", "m", "--base-url", "ftp://x"], "must start with http:// or https://"),
    (["--llm", "m", "--no-cache", "--refresh"], "--no-cache and --refresh contradict"),
    (["--llm", "m", "--workers", "2"], "--llm asks from one process"),
    (["--llm", "m", "--concurrency", "0"],
     "--concurrency: concurrency must be a whole number in [1, 256]. Got 0 instead."),
    (["--llm", "m", "--timeout", "0"], "--timeout: timeout must be a float in [0.01, 86400]"),
])
def test_cli_option_errors(argv, message, capsys):
    assert main(["judge", str(DATA), "--no-progress", *argv]) == 2
    assert message in capsys.readouterr().err


def test_without_llm_nothing_touches_the_network(tmp_path, monkeypatch, capsys):
    def refuse(self, address):
        raise AssertionError(f"network use without --llm: {address}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    out = tmp_path / "judged.jsonl"
    assert main(["judge", str(DATA), "-o", str(out), "-q", "--no-progress"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    src = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    assert len(rows) == len(src) == 89
    assert all("judge_llm" not in r for r in rows)
    # every output record is the input record with the judge result added, as before
    expected = [{**s, **r.to_dict()} for s, r in zip(src, evaltools.judge_records(src),
                                                     strict=True)]
    assert rows == json.loads(json.dumps(expected))


@pytest.mark.slow
def test_killed_run_resumes_from_the_cache(tmp_path):
    """Kill a run after 3 answers; the rerun asks only for the rest."""
    port_file = tmp_path / "port"
    log = Path(str(port_file) + ".log")
    srv = subprocess.Popen([sys.executable, str(Path(__file__).parent / "llm_server.py"),
                            str(port_file), "0.25"])
    try:
        for _ in range(100):
            if port_file.exists() and port_file.read_text():
                break
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port_file.read_text()}/v1"
        recs = [record("valid", id=f"r{i}", input={"brand": "Hydro Flask", "case": "valid",
                                                   "keyword": f"yeti rambler {i}"})
                for i in range(8)]
        src = _write(tmp_path / "in.jsonl", recs)
        cmd = [sys.executable, "-m", "evaltools", "judge", str(src), "--llm", "judge-model",
               "--base-url", url, "--cache", str(tmp_path / "c.sqlite"), "--concurrency",
               "1", "-o", str(tmp_path / "out.jsonl"), "--no-progress", "-q"]
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "NO_PROXY": "127.0.0.1"}
        run = subprocess.Popen(cmd, env=env, cwd=tmp_path)
        for _ in range(400):     # the 4th request is in flight: 3 answers are stored
            if log.exists() and len(log.read_text().splitlines()) >= 4:
                break
            time.sleep(0.05)
        run.kill()
        run.wait()
        assert not (tmp_path / "out.jsonl").exists()
        asked_before = len(log.read_text().splitlines())
        assert asked_before == 4
        with JudgeCache(tmp_path / "c.sqlite") as cache:
            assert len(cache) == 3
        done = subprocess.run(cmd, env=env, cwd=tmp_path, timeout=120)
        assert done.returncode == 0
        assert len(log.read_text().splitlines()) - asked_before == 5   # 8 - 3 stored
        rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
        assert [r["id"] for r in rows] == [f"r{i}" for i in range(8)]
        assert all(r["judge"] == json.loads(VALID) for r in rows)
    finally:
        srv.kill()
        srv.wait()



# ----------------------------------------------------------------------------- the report


def test_report_counts_what_asking_cost(server, tmp_path, capsys):
    from evaltools.report import ReportBuilder

    src = _write(tmp_path / "in.jsonl", [record(c) for c in
                                         ("valid", "fence", "malformed", "server_error")])
    out = tmp_path / "judged.jsonl"
    cfg = tmp_path / "c.toml"
    cfg.write_text('[llm]\nmax_retries = 0\nbackoff_base = 0.0\n'
                   '[llm.prices]\n"judge-model" = { input = 0.15, output = 0.60 }\n')
    assert main(["judge", str(src), "--llm", "judge-model", "--base-url", server.url,
                 "--no-cache", "--config", str(cfg), "-o", str(out), "--no-progress"]) == 0
    assert ("4 records: 0 from the cache, 3 asked, 1 failed, 1 unreadable; tokens 4,000 in, "
            "800 out; estimated cost $0.0011") in capsys.readouterr().out
    b = ReportBuilder()
    for i, line in enumerate(out.read_text().splitlines(), 1):
        b.add_judged(json.loads(line), source="judged.jsonl", line=i)
    blocks = {t.id: t for t in b.build().section("modules").tables()}
    # valid 1 request, fence 1, malformed 2 (asked again), server_error 1 with no answer:
    # 4 answers x 1000 / 200 tokens; cost 4 x (0.00015 + 0.00012) = 0.00108
    assert blocks["llm-usage"].to_records() == [
        {"model": "judge-model", "records": 4, "failed": 1, "unreadable": 1,
         "prompt_tokens": 4000, "completion_tokens": 800, "cost": pytest.approx(0.00108)}]
    plain = ReportBuilder()
    plain.add_judged(json.loads(DATA.read_text().splitlines()[0]), source="j", line=1)
    assert "llm-usage" not in {t.id for t in plain.build().section("modules").tables()}


@pytest.mark.slow
def test_sigterm_stops_a_run_without_waiting_for_requests_in_flight(tmp_path):
    port_file = tmp_path / "port"
    log = Path(str(port_file) + ".log")
    srv = subprocess.Popen([sys.executable, str(Path(__file__).parent / "llm_server.py"),
                            str(port_file), "30"])       # every answer takes 30 s
    try:
        for _ in range(100):
            if port_file.exists() and port_file.read_text():
                break
            time.sleep(0.05)
        src = _write(tmp_path / "in.jsonl", [record("valid")])
        out = tmp_path / "out.jsonl"
        cmd = [sys.executable, "-m", "evaltools", "judge", str(src), "--llm", "m",
               "--base-url", f"http://127.0.0.1:{port_file.read_text()}/v1", "--no-cache",
               "-o", str(out), "--no-progress"]
        run = subprocess.Popen(cmd, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                         "NO_PROXY": "127.0.0.1"}, cwd=tmp_path,
                               stderr=subprocess.PIPE, text=True)
        for _ in range(400):
            if log.exists() and log.read_text():
                break
            time.sleep(0.05)
        start = time.monotonic()
        run.terminate()
        err = run.communicate(timeout=20)[1]
        assert run.returncode == 143 and time.monotonic() - start < 10
        assert "terminated; nothing was written" in err and not out.exists()
    finally:
        srv.kill()
        srv.wait()


@settings(max_examples=40, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda k: st.lists(k, max_size=3)
                    | st.dictionaries(st.sampled_from(["model", "error", "answer",
                                                       "prompt_tokens", "completion_tokens",
                                                       "cost_usd", "x"]), k, max_size=7),
                    max_leaves=15))
def test_report_never_crashes_on_any_judge_llm(info):
    from evaltools.report import ReportBuilder

    b = ReportBuilder()
    b.add_judged({"module": "M04", "verdict": "PASS", "total_score": 80, "judge_llm": info})
    tables = {t.id: t for t in b.build().section("modules").tables()}
    if isinstance(info, dict):
        row = tables["llm-usage"].to_records()[0]
        assert row["records"] == 1 and row["prompt_tokens"] >= 0
    else:
        assert "llm-usage" not in tables
