"""Asking an LLM judge: each record's prompt to the model, its answer read, cached and kept.

:func:`ask` (and :class:`Asker` for a stream) fills the ``judge`` field of
records that lack one (or of every record, ``rejudge=True``) with the
answer of an LLM, so that :func:`evaltools.judge` then audits it and
recomputes the verdict exactly as for a judge's JSON pasted by hand. For each
record:

1. the prompt is rendered by ``prompt(module, record, registry=...)``, in
   practice :func:`evaltools.prompt.render_prompt` (passed in: the judging core
   never imports the presentation layer that renders text with jinja2);
2. the cache (:mod:`evaltools.judging.judge_cache`) is looked up by endpoint,
   model, messages and parameters; a hit asks nothing;
3. otherwise the client (:class:`~evaltools.judging.llm_client.JudgeClient`)
   asks, with the template's answer format as a JSON schema where the server
   takes one, and the answer is read by
   :func:`~evaltools.judging.answer_parse.read_answer`; an answer that cannot
   be read is asked again ``parse_retries`` times, quoting the parse error;
4. the exchange is stored in the cache at once (a killed run resumes there).

Each record that was to be asked gets ``judge_llm``: the model, the
attempts, the repairs the parse applied, the finish reason, the token counts,
the estimated cost, the raw answer (when it was repaired or could not be read)
and ``error``. An answer that cannot be read puts its raw text in ``judge``
(the audit then reports ``unparseable``) and says why in ``error``; a request
that got no answer (retries or the total timeout used up) leaves ``judge``
absent and says why in ``error``. Nothing becomes a silent NaN.
"""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from evaltools.errors import LLMError
from evaltools.io.records import Unreadable
from evaltools.judging.answer_parse import RETRY_MESSAGE, read_answer
from evaltools.judging.judge_cache import JudgeCache, cache_key
from evaltools.judging.llm_client import JudgeClient
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.values import is_missing

__all__ = ["SYSTEM_MESSAGE", "AskStats", "Asker", "ask", "judgment_schema"]

SYSTEM_MESSAGE = ("You are a careful, impartial evaluation judge. Follow the scoring rules "
                  "in the prompt exactly and answer with one JSON object in the format it "
                  "gives, and nothing else.")
"""The system message sent before every prompt (part of the cache key)."""

PromptFn = Callable[..., str]


def judgment_schema(module: Module, *, registry: Registry | None = None) -> dict[str, Any]:
    """The template's answer format as a JSON schema (sent as structured output).

    Loose on purpose (``strict`` off, values of any JSON type where the
    template allows several): the audit, not the server, decides what is wrong.

    >>> s = judgment_schema(DEFAULT_REGISTRY.module("M04"))
    >>> s["required"]
    ['evaluation', 'total_score', 'verdict', 'summary', 'improvement_suggestions']
    >>> rules = s["properties"]["evaluation"]["properties"]["rule_compliance"]
    >>> rules["properties"]["rules"]["minItems"], rules["properties"]["rules"]["maxItems"]
    (4, 4)
    """
    s = (registry or DEFAULT_REGISTRY).settings
    num = {"type": "number"}
    subs = [sub.name for sub in s.reasoning.subscores]

    def obj(props: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "properties": props, "required": list(props)}

    rule = obj({"name": {"type": "string"}, "compliant": {"type": "boolean"}, "score": num,
                "evidence": {"type": "string"}})
    return obj({
        "evaluation": obj({
            "correctness": obj({"score": num, "output_value": {}, "expected_value": {},
                                "match": {}, "details": {"type": "string"}}),
            "rule_compliance": obj({"score": num, "rules": {
                "type": "array", "items": rule, "minItems": s.rules.count,
                "maxItems": s.rules.count}}),
            "reasoning_quality": obj({"score": num, **{k: {"type": "integer"} for k in subs}}),
        }),
        "total_score": num,
        "verdict": {"type": "string", "enum": ["PASS", "FAIL"]},
        "summary": {"type": "string"},
        "improvement_suggestions": {"type": "array", "items": {"type": "string"}},
    })


@dataclass
class AskStats:
    """What asking cost: records served from the cache, asked, failed; tokens; cost.

    ``unreadable`` counts answers (cached or asked) that could not be read;
    ``cost`` is None while no asked model has a price in ``[llm.prices]``.
    """

    model: str = ""
    cached: int = 0
    asked: int = 0
    failed: int = 0
    unreadable: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    price: tuple[float, float] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "cached": self.cached, "asked": self.asked,
                "failed": self.failed, "unreadable": self.unreadable,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost": self.cost}

    def status(self) -> str:
        """The progress bar's counts: ``cached 3 asked 5 failed 0``."""
        return f"cached {self.cached} asked {self.asked} failed {self.failed}"

    def line(self) -> str:
        """One line for a summary.

        >>> print(AskStats("m", cached=2, asked=1, prompt_tokens=1200, completion_tokens=300,
        ...                cost=0.00036, price=(0.15, 0.6)).line())
        LLM judge m: 3 records: 2 from the cache, 1 asked, 0 failed, 0 unreadable;
        tokens 1,200 in, 300 out; estimated cost $0.0004
        (at $0.15 / $0.6 per million tokens in / out)
        """
        n = self.cached + self.asked + self.failed
        cost = ("no price for this model in [llm.prices], so no cost estimate"
                if self.price is None else
                f"estimated cost ${self.cost or 0.0:.4f} (at ${self.price[0]:g} / "
                f"${self.price[1]:g} per million tokens in / out)")
        return (f"LLM judge {self.model}: {n} record{'s' if n != 1 else ''}: {self.cached} "
                f"from the cache, {self.asked} asked, {self.failed} failed, "
                f"{self.unreadable} unreadable; tokens {self.prompt_tokens:,} in, "
                f"{self.completion_tokens:,} out; {cost}")


@dataclass(frozen=True)
class _Exchange:
    turns: tuple[dict[str, Any], ...]
    cached: bool
    error: str | None = None


class _DaemonPool:
    """``n`` daemon threads running submitted calls (a ``concurrent.futures`` pool would hold
    the process at exit until every request in flight ended: a stopped run would wait out
    the timeouts)."""

    def __init__(self, n: int) -> None:
        self._q: queue.SimpleQueue = queue.SimpleQueue()
        self._n = n
        for i in range(n):
            threading.Thread(target=self._work, name=f"evaltools-judge-{i}", daemon=True).start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        fut: Future = Future()
        self._q.put((fut, fn, args))
        return fut

    def _work(self) -> None:
        while (item := self._q.get()) is not None:
            fut, fn, args = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to the consumer by fut.result()
                fut.set_exception(exc)

    def shutdown(self) -> None:
        """Let each thread end after the call it runs (queued calls still run or are
        cancelled by their futures)."""
        for _ in range(self._n):
            self._q.put(None)


def _needs_judge(rec: Mapping[str, Any], rejudge: bool) -> bool:
    return rejudge or "judge" not in rec or is_missing(rec.get("judge"))


class Asker:
    """Asks one client for the judgments of many records, with a cache and bounded concurrency.

    Parameters
    ----------
    client : JudgeClient
        The model and endpoint (its ``config`` gives concurrency, retries, prices).
    prompt : callable
        ``prompt(module, record, registry=...) -> str``; pass
        :func:`evaltools.prompt.render_prompt`.
    registry : Registry, optional
    cache : JudgeCache, optional
        None: nothing is cached.
    rejudge : bool
        Ask for every record, not only those without a ``judge``.
    refresh : bool
        Ask even when the cache has an answer (and store the new one).
    """

    def __init__(self, client: JudgeClient, prompt: PromptFn, *,
                 registry: Registry | None = None, cache: JudgeCache | None = None,
                 rejudge: bool = False, refresh: bool = False) -> None:
        self.client, self.prompt = client, prompt
        self.registry = registry or DEFAULT_REGISTRY
        self.cache, self.rejudge, self.refresh = cache, rejudge, refresh
        price = client.config.price(client.model)
        self.stats = AskStats(model=client.model, price=price,
                              cost=0.0 if price is not None else None)

    # ------------------------------------------------------------------ one record

    def _module(self, rec: Any) -> Module | None:
        if isinstance(rec, Unreadable) or not isinstance(rec, Mapping):
            return None
        m = rec.get("module")
        return self.registry.modules.get(m.strip()) if isinstance(m, str) else None

    def _exchange(self, rec: Mapping[str, Any], module: Module) -> _Exchange:
        text = self.prompt(module.id, rec, registry=self.registry)
        messages = [{"role": "system", "content": SYSTEM_MESSAGE},
                    {"role": "user", "content": text}]
        c = self.client
        params = {**c.params(), "parse_retries": c.config.parse_retries}
        key = cache_key(c.base_url, c.model, messages, params)
        if self.cache is not None and not self.refresh:
            got = self.cache.get(key)
            if got is not None and isinstance(got.get("turns"), list) and got["turns"]:
                return _Exchange(tuple(got["turns"]), cached=True)
        schema = judgment_schema(module, registry=self.registry)
        turns: list[dict[str, Any]] = []
        for _ in range(c.config.parse_retries + 1):
            try:
                done = c.complete(messages, schema)
            except LLMError as exc:
                if exc.fatal:
                    raise
                return _Exchange(tuple(turns), cached=False, error=exc.message)
            turns.append(done.to_dict())
            answer = read_answer(done.text)
            if answer.obj is not None:
                break
            messages = [*messages, {"role": "assistant", "content": done.text},
                        {"role": "user", "content": RETRY_MESSAGE.format(error=answer.error)}]
        if self.cache is not None:
            self.cache.put(key, {"turns": turns})
        return _Exchange(tuple(turns), cached=False)

    def _apply(self, rec: Mapping[str, Any], ex: _Exchange) -> dict[str, Any]:
        """The record with ``judge`` and ``judge_llm`` set from an exchange; counts it."""
        out = dict(rec)
        st = self.stats
        pt = sum(int(t.get("prompt_tokens") or 0) for t in ex.turns)
        ct = sum(int(t.get("completion_tokens") or 0) for t in ex.turns)
        cost = None
        if st.price is not None:
            cost = round((pt * st.price[0] + ct * st.price[1]) / 1e6, 6)
        info: dict[str, Any] = {"model": self.client.model, "attempts": len(ex.turns),
                                "finish_reason": None, "repairs": [], "prompt_tokens": pt,
                                "completion_tokens": ct, "cost_usd": cost, "answer": None,
                                "error": None}
        if ex.error is not None:
            st.failed += 1
            out.pop("judge", None)
            info["error"] = f"no answer from the judge: {ex.error}"
        else:
            if ex.cached:
                st.cached += 1
            else:
                st.asked += 1
            last = ex.turns[-1]
            raw = last.get("text") if isinstance(last.get("text"), str) else ""
            answer = read_answer(raw)
            info["finish_reason"] = last.get("finish_reason")
            info["repairs"] = list(answer.repairs)
            if answer.obj is not None:
                out["judge"] = answer.obj
                if answer.repairs:
                    info["answer"] = raw
            else:
                st.unreadable += 1
                out["judge"] = raw
                info["answer"] = raw
                n = len(ex.turns)
                info["error"] = (f"the answer could not be read as JSON after {n} "
                                 f"attempt{'s' if n != 1 else ''} ({answer.error}); its text "
                                 f"is kept in judge")
        # tokens of a failed exchange were spent too (an unreadable first answer)
        st.prompt_tokens += pt
        st.completion_tokens += ct
        if cost is not None and st.cost is not None:
            st.cost = round(st.cost + cost, 6)
        out["judge_llm"] = info
        return out

    # ------------------------------------------------------------------ many records

    def stream(self, numbered: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
        """``(line, record)`` pairs in, the same pairs out, in order, judges filled in.

        Records that need no asking (they have a ``judge``, or no known
        ``module``, or are unreadable lines) pass through unchanged, apart from
        ``judge_llm: null`` on records, so every output record has the same
        fields. Up to ``concurrency`` requests are in flight.
        """
        width = self.client.config.concurrency
        window: collections.deque[tuple[int, Any, Future | None]] = collections.deque()
        pool = _DaemonPool(width)
        finished = False
        try:
            for line, rec in numbered:
                module = self._module(rec)
                fut = None
                if module is not None and _needs_judge(rec, self.rejudge):
                    fut = pool.submit(self._exchange, rec, module)
                window.append((line, rec, fut))
                while len(window) > 2 * width:
                    yield self._finish(*window.popleft())
            while window:
                yield self._finish(*window.popleft())
            finished = True
        finally:
            pool.shutdown()
            if not finished:  # stopped (an error, Ctrl-C, SIGTERM, the consumer gave up)
                for _, _, fut in window:
                    if fut is not None:
                        fut.cancel()
                self.client.close()

    def _finish(self, line: int, rec: Any, fut: Future | None) -> tuple[int, Any]:
        if fut is None:
            if isinstance(rec, Mapping) and not isinstance(rec, Unreadable):
                return line, {**rec, "judge_llm": None}
            return line, rec
        return line, self._apply(rec, fut.result())


def ask(records: Iterable[Mapping[str, Any]], *, client: JudgeClient, prompt: PromptFn,
        registry: Registry | None = None, cache: JudgeCache | None = None,
        rejudge: bool = False, refresh: bool = False) -> list[dict[str, Any]]:
    """Records with ``judge`` filled by the LLM judge (and ``judge_llm`` saying how).

    Parameters
    ----------
    records : iterable of mappings
    client : JudgeClient
    prompt : callable
        :func:`evaltools.prompt.render_prompt`.
    registry, cache, rejudge, refresh
        As for :class:`Asker`.

    Returns
    -------
    list of dict
        Judge them with :func:`evaltools.judge_records` (or ``judge_frame``).

    Raises
    ------
    evaltools.errors.LLMError
        A fatal HTTP status (401, 403, 404): no request could succeed.
    """
    asker = Asker(client, prompt, registry=registry, cache=cache, rejudge=rejudge,
                  refresh=refresh)
    return [rec for _, rec in asker.stream(enumerate(records, start=1))]
