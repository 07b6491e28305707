"""The LLM judge's answers, kept in a local SQLite file so that a rerun asks nothing.

One table, ``answers (key TEXT PRIMARY KEY, value TEXT)``: the key is the
SHA-256 of the endpoint, the model, the messages sent (the rendered prompt)
and the request parameters (:func:`cache_key`); the value is the JSON of the
exchange (each answer's text, finish reason and token counts). The API key
is never part of it. The file is opened in WAL mode (readers never block the
writer) and each answer is committed as it arrives, so a run that is killed
keeps every answer it got and the next run asks only for the rest. Only
answers are stored: a request that failed (HTTP 500 after the retries, a
timeout) is asked again next time.

The standard library's :mod:`sqlite3`; values are JSON, never pickled.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "judge.sqlite"
>>> with JudgeCache(path) as cache:
...     cache.put("k", {"turns": [{"text": "{}"}]})
...     cache.get("k"), cache.get("other"), len(cache)
({'turns': [{'text': '{}'}]}, None, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaltools.errors import ConfigError, one_line

__all__ = ["CACHE_VERSION", "JudgeCache", "cache_key", "default_cache_path"]

#: Part of every key: a change in what is stored starts a fresh cache.
CACHE_VERSION = 1


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/evaltools/judge.sqlite`` (``~/.cache/evaltools/judge.sqlite``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "evaltools" / "judge.sqlite"


def cache_key(endpoint: str, model: str, messages: Sequence[Mapping[str, str]],
              params: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of what an answer depends on.

    >>> k = cache_key("http://127.0.0.1:8080/v1", "m", [{"role": "user", "content": "hi"}],
    ...               {"temperature": 0.0})
    >>> len(k), k == cache_key("http://127.0.0.1:8080/v1", "m",
    ...                        [{"role": "user", "content": "hi"}], {"temperature": 0.5})
    (64, False)
    """
    blob = json.dumps({"v": CACHE_VERSION, "endpoint": endpoint, "model": model,
                       "messages": [dict(m) for m in messages], "params": dict(params)},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class JudgeCache:
    """A SQLite file of answers by key; safe to share between threads of one process."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS answers "
                             "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.commit()
        except (sqlite3.Error, OSError) as exc:
            raise ConfigError(f"{self.path}: cannot be used as the judge cache "
                              f"({one_line(exc, 160)}); pass another --cache path or "
                              f"--no-cache") from None

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored exchange for ``key``, or None (also for a value that is not JSON)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM answers WHERE key = ?",
                                   (key,)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        """Store (or replace) ``key`` and commit at once."""
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers (key, value) VALUES (?, ?)",
                             (key, text))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> JudgeCache:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
