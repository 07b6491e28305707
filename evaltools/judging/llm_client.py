"""A client for any OpenAI-compatible chat-completions endpoint, with evaltools' limits.

:class:`JudgeClient` sends one conversation and returns the answer's text,
finish reason and token counts. It wraps the maintained ``openai`` package
(``pip install evaltools[llm]``), which speaks the protocol to OpenAI, Azure's
OpenAI-compatible endpoint, vLLM, Ollama, the llama.cpp server or a LiteLLM
proxy alike (``base_url``). Around it, evaltools keeps its own limits
(``[llm]`` in the configuration), so that every attempt, retries included,
counts against them:

- **requests per minute**: :class:`RateLimiter`, a sliding 60-second window
  shared by every thread;
- **retries**: HTTP 429 and 5xx, a timeout or a lost connection are retried
  up to ``max_retries`` times, after ``backoff_base * 2**n`` seconds (at most
  ``backoff_max``) times a random factor in [0.5, 1] (jitter), or after the
  server's ``Retry-After`` when it sends one (also capped at ``backoff_max``);
  the ``openai`` package's own retries are off (``max_retries=0``) so that
  they cannot bypass the rate limit;
- **timeouts**: ``timeout`` seconds per request, and ``total_timeout`` seconds
  per conversation, retries and waits included.

A server that answers HTTP 400 to ``response_format`` (structured output) is
asked again without it, and then, if it still answers 400, without ``seed``;
each is dropped once for the client's lifetime. HTTP 401, 403 and 404 (a
refused key, an unknown model or path) would fail every request the same way:
they raise a *fatal* :class:`~evaltools.errors.LLMError`
that stops a run. Other HTTP 4xx are not retried.

The API key is read from an environment variable (``api_key_env``), never from
a file or an argument, and is never logged or stored: the cache key holds the
endpoint and the model, not the key. A local server needs no key: when the
variable is unset, a placeholder is sent.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaltools.config import DEFAULT_CONFIG, LLMConfig
from evaltools.errors import LLMError, one_line

__all__ = ["Completion", "JudgeClient", "RateLimiter", "backoff_delay"]

#: The key sent when ``api_key_env`` is not set (local servers ignore it).
NO_KEY = "no-key"


@dataclass(frozen=True)
class Completion:
    """One answer: its text, why it ended (``stop``, ``length``...) and its token counts."""

    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "finish_reason": self.finish_reason,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens}


class RateLimiter:
    """At most ``per_minute`` starts in any 60 seconds (a sliding window), across threads.

    Examples
    --------
    >>> now = [0.0]
    >>> rl = RateLimiter(2, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    >>> [rl.acquire() for _ in range(3)]          # the third waits for the first to age out
    [0.0, 0.0, 60.0]
    >>> now[0]
    60.0
    """

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.per_minute = per_minute
        self._clock, self._sleep = clock, sleep
        self._starts: deque[float] = deque()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Wait until a request may start; return the seconds waited."""
        waited = 0.0
        while True:
            with self._lock:
                now = self._clock()
                while self._starts and self._starts[0] <= now - 60.0:
                    self._starts.popleft()
                if len(self._starts) < self.per_minute:
                    self._starts.append(now)
                    return waited
                wait = self._starts[0] + 60.0 - now
            self._sleep(wait)
            waited += wait


def backoff_delay(attempt: int, *, base: float, cap: float, retry_after: float | None = None,
                  rng: random.Random | None = None) -> float:
    """Seconds to wait before retry ``attempt`` (0 for the first retry).

    ``min(cap, base * 2**attempt)`` times a random factor in [0.5, 1]; the
    server's ``Retry-After`` instead when given (capped at ``cap`` too).

    >>> backoff_delay(0, base=1.0, cap=30.0, retry_after=2.5)
    2.5
    >>> backoff_delay(10, base=1.0, cap=30.0, rng=random.Random(0)) <= 30.0
    True
    >>> 4.0 <= backoff_delay(3, base=1.0, cap=30.0) <= 8.0
    True
    """
    if retry_after is not None:
        return max(0.0, min(cap, retry_after))
    r = rng.uniform(0.5, 1.0) if rng is not None else random.uniform(0.5, 1.0)
    return min(cap, base * 2 ** attempt) * r


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class JudgeClient:
    """Asks one model at one OpenAI-compatible endpoint, within the ``[llm]`` limits.

    Parameters
    ----------
    model : str
        The model name the server knows (``gpt-4o-mini``, ``qwen2.5-7b-instruct``...).
    base_url : str
        The API root, e.g. ``https://api.openai.com/v1`` or ``http://127.0.0.1:8080/v1``.
    api_key_env : str
        The environment variable holding the API key (default ``OPENAI_API_KEY``).
    config : LLMConfig, optional
        Limits and request parameters; ``[llm]`` of the shipped configuration by default.
    """

    def __init__(self, model: str, base_url: str, *, api_key_env: str = "OPENAI_API_KEY",
                 config: LLMConfig | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        try:
            import openai
        except ImportError:  # pragma: no cover - depends on the installation
            raise LLMError("asking an LLM judge needs the openai package: "
                           "pip install 'evaltools[llm]'", fatal=True) from None
        if not isinstance(model, str) or not model.strip():
            raise LLMError("the model name is empty (--llm MODEL)", fatal=True)
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise LLMError(f"the base URL must start with http:// or https:// "
                           f"(--base-url); got {base_url!r}", fatal=True)
        self.model = model.strip()
        self.base_url = base_url.rstrip("/")
        self.config = config if config is not None else DEFAULT_CONFIG.llm
        self._openai = openai
        self._sleep, self._clock = sleep, clock
        self._limiter = RateLimiter(self.config.requests_per_minute, clock=clock, sleep=sleep)
        self._dropped: set[str] = set()  # request parameters the server refused (HTTP 400)
        self._lock = threading.Lock()
        key = os.environ.get(api_key_env) or NO_KEY
        self._client = openai.OpenAI(api_key=key, base_url=self.base_url, max_retries=0,
                                     timeout=self.config.timeout)
        self.requests = 0  # HTTP requests sent, retries included

    def close(self) -> None:
        """Close the connections; requests in flight fail at once (a run being stopped)."""
        with contextlib.suppress(Exception):  # best effort: the run is stopping anyway
            self._client.close()

    def __repr__(self) -> str:  # never the key
        return f"JudgeClient(model={self.model!r}, base_url={self.base_url!r})"

    def params(self) -> dict[str, Any]:
        """The request parameters an answer depends on (they enter the cache key)."""
        c = self.config
        return {"temperature": c.temperature, "seed": c.seed, "max_tokens": c.max_tokens,
                "response_format": c.response_format}

    def complete(self, messages: Sequence[Mapping[str, str]],
                 schema: Mapping[str, Any] | None = None) -> Completion:
        """Send ``messages``; the answer, after retries within the limits.

        Raises
        ------
        evaltools.errors.LLMError
            No answer: retries or ``total_timeout`` used up (the message says
            what happened last), or a fatal HTTP status.
        """
        c = self.config
        deadline = self._clock() + c.total_timeout
        rng = random.Random()
        last = "no request was sent"
        attempt = 0
        while True:
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise LLMError(f"no answer within total_timeout = {c.total_timeout:g} s "
                               f"({last})")
            self._limiter.acquire()
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise LLMError(f"no answer within total_timeout = {c.total_timeout:g} s "
                               f"(waiting for the rate limit; {last})")
            kwargs = self._request(messages, schema)
            with self._lock:
                self.requests += 1
            try:
                resp = self._client.chat.completions.create(
                    **kwargs, timeout=min(c.timeout, remaining))
                return self._completion(resp)
            except self._openai.BadRequestError as exc:
                # a server that refuses structured output, then one that refuses a seed:
                # ask without it (once per client), before calling the request bad
                dropped = next((p for p in ("response_format", "seed")
                                if p in kwargs and p not in self._dropped), None)
                if dropped is not None:
                    self._dropped.add(dropped)
                    last = f"HTTP 400 with {dropped} ({_brief(exc)})"
                    continue
                raise LLMError(f"HTTP 400 from {self.base_url}: {_brief(exc)}") from None
            except (self._openai.AuthenticationError, self._openai.PermissionDeniedError,
                    self._openai.NotFoundError) as exc:
                hint = {401: " (is the key in the environment variable given by "
                             "--api-key-env?)",
                        404: f" (does the server know the model {self.model!r}, and is "
                             f"{self.base_url!r} its API root, usually ending in /v1?)"}
                raise LLMError(f"HTTP {exc.status_code} from {self.base_url}: {_brief(exc)}"
                               f"{hint.get(exc.status_code, '')}", fatal=True) from None
            except self._openai.APIStatusError as exc:
                if exc.status_code != 429 and exc.status_code < 500:
                    raise LLMError(f"HTTP {exc.status_code} from {self.base_url}: "
                                   f"{_brief(exc)}") from None
                last = f"HTTP {exc.status_code}: {_brief(exc)}"
                wait_for = _retry_after(exc)
            except self._openai.APITimeoutError:
                last = f"timed out after {min(c.timeout, remaining):g} s"
                wait_for = None
            except self._openai.APIConnectionError as exc:
                last = f"connection failed: {_brief(exc)}"
                wait_for = None
            if attempt >= c.max_retries:
                tries = attempt + 1
                raise LLMError(f"no answer after {tries} attempt{'s' if tries > 1 else ''} "
                               f"({last})")
            delay = backoff_delay(attempt, base=c.backoff_base, cap=c.backoff_max,
                                  retry_after=wait_for, rng=rng)
            attempt += 1
            if delay >= deadline - self._clock():
                raise LLMError(f"no answer within total_timeout = {c.total_timeout:g} s "
                               f"({last})")
            self._sleep(delay)

    def _request(self, messages: Sequence[Mapping[str, str]],
                 schema: Mapping[str, Any] | None) -> dict[str, Any]:
        c = self.config
        kwargs: dict[str, Any] = {"model": self.model,
                                  "messages": [dict(m) for m in messages],
                                  "temperature": c.temperature, "max_tokens": c.max_tokens}
        if "seed" not in self._dropped:
            kwargs["seed"] = c.seed
        if "response_format" not in self._dropped:
            if c.response_format == "json_schema" and schema is not None:
                kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": "judgment", "schema": dict(schema), "strict": False}}
            elif c.response_format in ("json_object", "json_schema"):
                kwargs["response_format"] = {"type": "json_object"}
        return kwargs

    def _completion(self, resp: Any) -> Completion:
        choices = getattr(resp, "choices", None) or []
        if not choices:
            raise LLMError(f"the answer from {self.base_url} has no choices")
        choice = choices[0]
        message = getattr(choice, "message", None)
        text = getattr(message, "content", None)
        usage = getattr(resp, "usage", None)
        return Completion(text=text if isinstance(text, str) else "",
                          finish_reason=getattr(choice, "finish_reason", None),
                          prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                          completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0))


def _brief(exc: Any) -> str:
    """The server's error message on one line (the ``openai`` exception text, shortened)."""
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        err = body.get("error", body)
        msg = err.get("message") if isinstance(err, Mapping) else err
        if isinstance(msg, str) and msg.strip():
            return one_line(msg, 160)
    return one_line(getattr(exc, "message", None) or exc, 160)
