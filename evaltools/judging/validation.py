"""Validating a judging record: each field checked and parsed, or an InputError naming it.

A record (see ``data/README.md``) names its ``module`` and carries the
module's ``output`` and ``expected`` value; optionally ``input``, ``rules``,
``reasoning`` and ``judge``. Fields holding a list or an object may be JSON
text (CSV cells). :func:`validate_record` returns the parsed fields that
:func:`evaltools.judging.api.judge` orchestrates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltools.config import DEFAULT_CONFIG as _CONFIG
from evaltools.errors import InputError, shorten
from evaltools.io.validation import depth_exceeds, loads_bounded
from evaltools.judging.correctness import value_problem
from evaltools.judging.reasoning import reasoning_problems
from evaltools.judging.registry import Registry
from evaltools.values import is_missing, is_record_id, plain_value

REQUIRED = ("module", "output", "expected")


class Where:
    def __init__(self, source: str, line: int, unit: str):
        self.source, self.line, self.unit = source, line, unit

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, source=self.source, line=self.line, field=field,
                          unit=self.unit)


def _json_text(value: Any, field: str, want: str, where: Where) -> Any:
    """A str holding JSON is parsed (CSV cells); anything else is returned as is."""
    if not isinstance(value, str):
        return value
    try:
        return loads_bounded(value, _CONFIG.input.max_depth)
    except ValueError as exc:
        msg = shorten(getattr(exc, "msg", str(exc)), 120, quote=False)
        raise where.error(f"field '{field}' must be {want} (or JSON text of one); "
                          f"got text that is not valid JSON ({msg}): {shorten(value[:200], 40)}",
                          field) from None


def validate_record(record: Any, where: Where, registry: Registry) -> dict[str, Any]:
    """The record's fields, checked and parsed; an InputError naming the field otherwise."""
    if not isinstance(record, Mapping):
        raise where.error(f"a record must be an object, got {type(record).__name__}")
    if depth_exceeds({k: plain_value(v) if hasattr(v, "tolist") else v
                      for k, v in record.items()}, _CONFIG.input.max_depth + 1):
        raise where.error(f"the record is nested deeper than {_CONFIG.input.max_depth} levels")
    rec = {k: (None if is_missing(v) else plain_value(v)) for k, v in record.items()}
    for f in REQUIRED:
        if rec.get(f) is None:
            what = "is empty" if isinstance(record.get(f), str) else "is missing"
            raise where.error(f"field '{f}' {what} (required: {', '.join(REQUIRED)})", f)
    mid = rec["module"]
    if not isinstance(mid, str):
        raise where.error(f"field 'module' must be a string, got {type(mid).__name__}",
                          "module")
    mid = mid.strip()
    if mid not in registry.modules:
        raise where.error(f"field 'module': unknown module {shorten(mid)} "
                          f"(known: {', '.join(registry.modules)})", "module")
    module = registry.modules[mid]
    if not is_record_id(rec.get("id")):  # the CLI's readers never give one; the API may
        raise where.error(f"field 'id' must be text or a finite number, got "
                          f"{shorten(rec.get('id'))}", "id")
    out = {"module": module, "id": rec.get("id")}
    for f in ("output", "expected"):
        v = rec[f]
        if module.type == "extraction":
            v = _json_text(v, f, "a list of strings", where)
        problem = value_problem(v, module)
        if problem:
            raise where.error(f"field '{f}' {problem} (module {mid} is {module.type})", f)
        out[f] = v
    inp = _json_text(rec.get("input"), "input", "an object", where)
    if inp is not None and not isinstance(inp, Mapping):
        raise where.error(f"field 'input' must be an object, got {type(inp).__name__}",
                          "input")
    out["input"] = inp
    out["rules"] = _validate_rules(rec.get("rules"), where, registry)
    reasoning = _json_text(rec.get("reasoning"), "reasoning", "an object", where)
    if reasoning is not None:
        if not isinstance(reasoning, Mapping):
            raise where.error(f"field 'reasoning' must be an object, got "
                              f"{type(reasoning).__name__}", "reasoning")
        problems = reasoning_problems(reasoning, registry=registry)
        if problems:
            raise where.error(f"field 'reasoning': {problems[0][1]}", "reasoning")
        reasoning = {k: v for k, v in reasoning.items() if v is not None}
    out["reasoning"] = reasoning
    jv = rec.get("judge")
    if jv is not None and not isinstance(jv, (str, Mapping)):
        raise where.error(f"field 'judge' must be the judge's JSON object or its text, got "
                          f"{type(jv).__name__}", "judge")
    out["judge"] = jv
    return out


def _validate_rules(value: Any, where: Where, registry: Registry) -> list[Any] | None:
    value = _json_text(value, "rules", "a list", where)
    if value is None:
        return None
    n = registry.settings.rules.count
    want = (f"a list of {n} booleans or {n} {{compliant, evidence}} objects "
            "(null for not assessed)")
    if not isinstance(value, (list, tuple)) or len(value) != n:
        got = f"{len(value)} items" if isinstance(value, (list, tuple)) else \
            type(value).__name__
        raise where.error(f"field 'rules' must be {want}, got {got}", "rules")
    for i, entry in enumerate(value, start=1):
        if entry is None or isinstance(entry, bool):
            continue
        if isinstance(entry, Mapping):
            c, ev = entry.get("compliant"), entry.get("evidence")
            if (c is None or isinstance(c, bool)) and (ev is None or isinstance(ev, str)):
                continue
            raise where.error(f"field 'rules' item {i}: compliant must be true, false or "
                              f"null and evidence a string; got {shorten(dict(entry))}", "rules")
        raise where.error(f"field 'rules' item {i} must be a boolean, null or a "
                          f"{{compliant, evidence}} object, got {shorten(entry)}", "rules")
    return list(value)
