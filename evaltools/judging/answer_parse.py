"""Reading an LLM judge's answer: one tolerant parse, documented, then the template's audit.

An LLM asked for a JSON object often wraps it: a code fence, a sentence before
or after, a trailing comma, or an answer cut off at the token limit.
:func:`read_answer` takes the JSON object out of such text with these rules,
in this order, and says which ones it applied (``repairs``):

1. **Code fence.** When the text holds a fenced block (three backticks at
   the start of a line, with or without a language), the first block that contains ``{`` is read;
   text outside it is dropped. ``"code fence"``.
2. **Text around the JSON.** The object starts at the first ``{``; text
   before it is dropped (``"text before the JSON"``). Its end is the
   matching ``}`` (brackets inside strings do not count); text after it is
   dropped (``"text after the JSON"``).
3. **Trailing commas.** A comma followed only by whitespace and ``}`` or
   ``]`` (outside strings) is removed. ``"trailing comma"``.
4. **Truncation.** When the text ends before the object closes, it is cut
   back to the last *complete* value (a string, number, ``true``/``false``/
   ``null`` followed by a delimiter, or a closed object or list) and the open
   lists and objects are closed. A value cut in the middle (``"total_score":
   8`` of an 85) is dropped, never guessed; the keys lost are then
   ``missing_key`` findings of the audit. ``"truncated: cut back to the last
   complete value"``.

Nothing else is repaired: single quotes, comments, unquoted keys, ``NaN`` words
outside JSON's grammar stay errors. An answer that still cannot be read gives
``obj=None`` and ``error`` (the JSON parser's message, with line and column);
the caller keeps the raw text (never a silent NaN) and may ask once more,
quoting that error (:data:`RETRY_MESSAGE`).

Examples
--------
>>> a = read_answer('Here is my evaluation:\\n```json\\n{"verdict": "PASS",}\\n```')
>>> a.obj, a.repairs
({'verdict': 'PASS'}, ('code fence', 'trailing comma'))
>>> read_answer('{"total_score": 85, "verdict": "PA').obj
{'total_score': 85}
>>> read_answer("The output is correct. Score: 85").error
'no JSON object in the answer'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from evaltools.errors import one_line

__all__ = ["RETRY_MESSAGE", "Answer", "read_answer"]

RETRY_MESSAGE = ("Your answer could not be read as the JSON object asked for ({error}). "
                 "Reply again with only that JSON object, in the format given, and no other "
                 "text.")
"""What a judge is told when its answer cannot be read (``{error}`` is the parse error)."""

# A fence starts a line (a JSON string cannot hold a raw line break, so never inside JSON).
_FENCE_OPEN = re.compile(r"^[ \t]*```[A-Za-z0-9_-]*[ \t]*(?:\r?\n|$)", re.MULTILINE)
_FENCE_CLOSE = re.compile(r"^[ \t]*```", re.MULTILINE)
_WS = " \t\r\n"


@dataclass(frozen=True)
class Answer:
    """One answer as read: the JSON object (or None), the repairs applied, the error."""

    obj: dict[str, Any] | None
    repairs: tuple[str, ...]
    error: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"obj": self.obj, "repairs": list(self.repairs), "error": self.error}


def _fenced(text: str) -> str | None:
    """The text after the opening fence of the first fenced block that contains ``{``.

    The object's end is then found by the scan (which skips strings), not at
    the closing fence: a judge's evidence may quote a fence itself.
    """
    pos = 0
    while True:
        m = _FENCE_OPEN.search(text, pos)
        if m is None:
            return None
        close = _FENCE_CLOSE.search(text, m.end())
        end = close.start() if close else -1
        brace = text.find("{", m.end())
        if brace >= 0 and (end < 0 or brace < end):
            return text[m.end():]
        if close is None:
            return None
        pos = close.end()


def _string_end(text: str, i: int) -> int:
    """The index after the string starting at ``text[i] == '"'``, or -1 when it never ends."""
    j, n = i + 1, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return j + 1
        j += 1
    return -1


def _scan(text: str, start: int) -> tuple[int, int | None, tuple[str, ...]]:
    """Scan the object starting at ``text[start] == '{'``.

    Returns ``(end, cut, stack)``: ``end`` is the index after the matching
    ``}`` (or -1 when the text ends first); then ``cut`` is the index after the
    last complete value and ``stack`` the brackets open there.
    """
    stack: list[str] = []
    key_next: list[bool] = []
    cut: int | None = None
    cut_stack: tuple[str, ...] = ()
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            if j < 0:
                break
            i = j
            if stack and stack[-1] == "{" and key_next[-1]:
                key_next[-1] = False
            else:
                cut, cut_stack = i, tuple(stack)
        elif c in "{[":
            stack.append(c)
            key_next.append(c == "{")
            i += 1
            cut, cut_stack = i, tuple(stack)
        elif c in "}]":
            if stack:
                stack.pop()
                key_next.pop()
            i += 1
            if not stack:
                return i, None, ()
            cut, cut_stack = i, tuple(stack)
        elif c == ",":
            if stack and stack[-1] == "{":
                key_next[-1] = True
            i += 1
        elif c == ":" or c in _WS:
            i += 1
        else:  # a number or a literal: complete only when a delimiter follows
            j = i
            while j < n and text[j] not in ",}]:" + _WS:
                j += 1
            if j >= n:
                break
            i = j
            cut, cut_stack = i, tuple(stack)
    return -1, cut, cut_stack


def _drop_trailing_commas(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
            continue
        if c == ",":
            k = i + 1
            while k < n and text[k] in _WS:
                k += 1
            if k < n and text[k] in "}]":
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _loads(text: str) -> tuple[Any, str | None]:
    try:
        return json.loads(text), None
    except RecursionError:
        return None, "the JSON is nested too deeply"
    except json.JSONDecodeError as exc:
        return None, f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    except ValueError as exc:
        return None, one_line(exc, 120)


def read_answer(raw: Any) -> Answer:
    """The JSON object in an LLM judge's answer text, by the rules in this module's docstring.

    Parameters
    ----------
    raw : str
        The answer as the server sent it.

    Returns
    -------
    Answer
        ``obj`` the object (None when it cannot be read), ``repairs`` the rules
        applied, ``error`` why it cannot be read (None when it can).

    Examples
    --------
    >>> read_answer('{"a": [1, 2,], "b": {"c": "}"}} thanks!').repairs
    ('text after the JSON', 'trailing comma')
    >>> read_answer("{'verdict': 'PASS'}").error
    'Expecting property name enclosed in double quotes at line 1 column 2'
    >>> read_answer("").error
    'the answer is empty'
    """
    if not isinstance(raw, str):
        return Answer(None, (), f"the answer is {type(raw).__name__}, not text")
    text = raw.replace("\ufeff", "")  # a byte order mark anywhere is no text
    if not text.strip():
        return Answer(None, (), "the answer is empty")
    repairs: list[str] = []
    body = _fenced(text)
    if body is not None:
        text = body
        repairs.append("code fence")
    start = text.find("{")
    if start < 0:
        return Answer(None, tuple(repairs), "no JSON object in the answer")
    if body is None and text[:start].strip():
        repairs.append("text before the JSON")
    end, cut, stack = _scan(text, start)
    if end >= 0:
        candidate = text[start:end]
        if body is None and text[end:].strip():
            repairs.append("text after the JSON")
    else:
        cut = start + 1 if cut is None else cut  # (the scan always passes the first "{")
        closers = "".join("}" if b == "{" else "]" for b in reversed(stack))
        candidate = text[start:cut].rstrip(_WS).rstrip(",") + closers
        repairs.append("truncated: cut back to the last complete value")
    obj, error = _loads(candidate)
    if error is not None:
        fixed = _drop_trailing_commas(candidate)
        if fixed != candidate:
            obj, error2 = _loads(fixed)
            if error2 is None:
                repairs.append("trailing comma")
                error = None
    if error is not None:
        return Answer(None, tuple(repairs), error)
    if not isinstance(obj, dict):  # pragma: no cover - a text starting at '{' is an object
        return Answer(None, tuple(repairs), f"the JSON is {type(obj).__name__}, not an object")
    return Answer(obj, tuple(repairs), None)
