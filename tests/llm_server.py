"""A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, with scripted answers.

The tests point the real judge client (the ``openai`` package inside
:class:`evaltools.judging.llm_client.JudgeClient`) at its URL; nothing leaves
the machine. A script decides each reply from the request: which case the
prompt names (records carry ``input.case``) and how often that case was asked.

Run as a program (``python tests/llm_server.py PORT_FILE``) it serves the
default script until killed, writing its port to PORT_FILE and one line per
request to PORT_FILE + ".log" (the resume-after-kill test counts them).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RULES = ["Competitor Identification", "Not Own Brand", "Market Segment", "Brand Variations"]
USAGE = {"prompt_tokens": 1000, "completion_tokens": 200}


def template(*, correctness: float = 40, rules: tuple[bool, ...] = (True,) * 4,
             rule_scores: tuple[int, ...] | None = None, rule_total: float | None = None,
             subs: tuple[int, int, int] = (8, 8, 4), reasoning_total: float | None = None,
             total: float | None = None, verdict: str | None = None) -> dict[str, Any]:
    """A judge's answer for the M04 record of the tests (output true, expected true), by hand.

    With the defaults every figure is consistent: 40 + 40 + 20 = 100, PASS.
    """
    scores = rule_scores if rule_scores is not None else tuple(10 if r else 0 for r in rules)
    rt = rule_total if rule_total is not None else sum(scores)
    qt = reasoning_total if reasoning_total is not None else sum(subs)
    t = total if total is not None else correctness + rt + qt
    return {
        "evaluation": {
            "correctness": {"score": correctness, "output_value": True, "expected_value": True,
                            "match": True, "details": "both true"},
            "rule_compliance": {"score": rt, "rules": [
                {"name": n, "compliant": c, "score": s, "evidence": "from the input"}
                for n, c, s in zip(RULES, rules, scores, strict=True)]},
            "reasoning_quality": {"score": qt, "chain_of_thought": subs[0],
                                  "evidence_usage": subs[1], "confidence_calibration": subs[2]},
        },
        "total_score": t,
        "verdict": verdict if verdict is not None else ("PASS" if t >= 70 else "FAIL"),
        "summary": "Competitor correctly identified.",
        "improvement_suggestions": [],
    }


VALID = json.dumps(template())


@dataclass
class Reply:
    """One scripted reply: an answer's text, or an HTTP error status; optional delay."""

    text: str | None = None
    status: int = 200
    delay: float = 0.0
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    error: str = "scripted failure"


def default_script(case: str | None, n: int, body: dict[str, Any]) -> Reply:
    """The reply for the ``n``-th request (0-based) naming ``case``."""
    if case == "fence":
        return Reply(f"Here is my evaluation:\n```json\n{json.dumps(template(), indent=2)}\n```")
    if case == "malformed_then_valid":
        return Reply("{'verdict': 'PASS'}" if n == 0 else VALID)
    if case == "malformed":
        return Reply("The output is correct. Score: 85/100, verdict PASS.")
    if case == "truncated":
        text = json.dumps(template())
        cut = text.index('"total_score": ') + len('"total_score": ') + 2  # "10" of 100
        return Reply(text[:cut], finish_reason="length")
    if case == "wrong_arithmetic":  # rules sum to 40, the judge says 30 (and totals 90)
        return Reply(json.dumps(template(rule_total=30)))
    if case == "verdict_not_following":  # 100 points, FAIL
        return Reply(json.dumps(template(verdict="FAIL")))
    if case == "rate_limited":
        return Reply(status=429, headers={"Retry-After": "0"}) if n == 0 else Reply(VALID)
    if case == "server_error":
        return Reply(status=500)
    if case == "slow":
        return Reply(VALID, delay=3.0)
    if case == "unauthorised":
        return Reply(status=401, error="Incorrect API key provided")
    if case == "no_response_format":
        if "response_format" in body:
            return Reply(status=400, error="response_format is not supported")
        return Reply(VALID)
    if case == "no_seed":  # refuses structured output and a seed
        if "response_format" in body or "seed" in body:
            return Reply(status=400, error="unsupported parameter")
        return Reply(VALID)
    if case == "bad_request":
        return Reply(status=400, error="messages too long")
    if case == "delay":  # a valid answer after a pause (concurrency and order)
        return Reply(VALID, delay=0.3)
    return Reply(VALID)


_CASE = re.compile(r'"case":\s*"([a-z_]+)"')


class ScriptedServer:
    """``ScriptedServer(script).url`` is ``http://127.0.0.1:PORT/v1``; ``requests`` what came."""

    def __init__(self, script=default_script, log: Path | None = None) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.log = log
        self._lock = threading.Lock()
        self._counts: dict[str | None, int] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(size) or b"{}")
                server._serve(self, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def count(self, case: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self.requests if case is None or r["case"] == case)

    def _serve(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        messages = body.get("messages") or []
        prompt = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
        m = _CASE.search(prompt)
        case = m.group(1) if m else None
        with self._lock:
            n = self._counts.get(case, 0)
            self._counts[case] = n + 1
            self.requests.append({"case": case, "body": body,
                                  "authorization": handler.headers.get("Authorization")})
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            if self.log is not None:
                with open(self.log, "a", encoding="utf-8") as f:
                    f.write(f"{case}\n")
        try:
            reply = self.script(case, n, body)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.status != 200:
                payload = {"error": {"message": reply.error, "type": "scripted",
                                     "code": reply.status}}
            else:
                payload = {
                    "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0,
                    "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                                 "message": {"role": "assistant", "content": reply.text}}],
                    "usage": {**USAGE, "total_tokens": sum(USAGE.values())},
                }
            data = json.dumps(payload).encode()
            handler.send_response(reply.status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            for k, v in reply.headers.items():
                handler.send_header(k, v)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
            pass
        finally:
            with self._lock:
                self.in_flight -= 1


if __name__ == "__main__":
    port_file = Path(sys.argv[1])
    delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0

    def slow_script(case, n, body):
        reply = default_script(case, n, body)
        reply.delay = max(reply.delay, delay)
        return reply

    srv = ScriptedServer(slow_script, log=Path(str(port_file) + ".log"))
    with srv:
        port_file.write_text(str(srv.port))
        threading.Event().wait()
