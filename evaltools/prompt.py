"""The filled judge prompt: the template's three sections for one module and one record.

Presentation (a text rendered with jinja2 for an LLM to read), so it lives beside
:mod:`evaltools.plots` and :mod:`evaltools.report`, not in :mod:`evaltools.judging`,
which never imports it.

The text lives in ``templates/judge_prompt.j2``; the module's type, labels
and rules come from ``modules.toml`` and every number from its ``[judge]``
section, so a prompt always matches what evaltools recomputes.

Examples
--------
>>> text = render_prompt("M04", {"output": True, "expected": False,
...                              "input": {"brand": "Hydro Flask", "keyword": "yeti rambler"}})
>>> print(text.splitlines()[0])
# Judge: M04 Competitor Brand Check
>>> "Rule 2: Not Own Brand" in text and "Score: 40 if YES, 0 if NO" in text
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry


def _num(x: float) -> str:
    r = round(float(x), 2)
    return str(int(r)) if r == int(r) else str(r)


def _dump(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, default=str)


def output_format(module: Module, *, registry: Registry | None = None) -> dict[str, Any]:
    """The template's JSON answer format, with the module's rule names filled in.

    >>> [r["name"] for r in output_format(load_module("M09"))["evaluation"]
    ...  ["rule_compliance"]["rules"]]
    ['Single Primary Use', 'From Product Data', 'User Perspective', 'Not Too Broad']
    """
    s = (registry or DEFAULT_REGISTRY).settings
    return {
        "evaluation": {
            "correctness": {"score": 0, "output_value": "...", "expected_value": "...",
                            "match": True, "details": "..."},
            "rule_compliance": {
                "score": 0,
                "rules": [{"name": r.name, "compliant": True, "score": s.rules.points_per_rule,
                           "evidence": "..."} for r in module.rules],
            },
            "reasoning_quality": {"score": 0, **{sub.name: 0 for sub in s.reasoning.subscores}},
        },
        "total_score": 0,
        "verdict": "PASS or FAIL",
        "summary": "...",
        "improvement_suggestions": ["..."],
    }


def load_module(module_id: str, *, registry: Registry | None = None) -> Module:
    """The registry's module ``module_id`` (a KeyError naming the known ids otherwise)."""
    return (registry or DEFAULT_REGISTRY).module(module_id)


def render_prompt(module: str | Module, record: Mapping[str, Any], *,
                  registry: Registry | None = None) -> str:
    """The judge prompt for ``module`` filled with ``record``'s input, output and expected.

    Parameters
    ----------
    module : str or Module
        A module id (``"M01"``) or a registry module.
    record : mapping
        Uses ``output``, ``expected`` and ``input`` (absent values show as null).
    registry : Registry, optional
        Modules and numbers; the shipped ``modules.toml`` by default.

    Returns
    -------
    str
        Markdown text, ready to send to any LLM; it asks for the template's
        JSON answer, which :func:`evaltools.judge` can then audit.

    Examples
    --------
    >>> p = render_prompt("M12b", {"output": "S", "expected": "C"})
    >>> "- Labels: R, S, C, N" in p
    True
    >>> "F1 >= 0.8: Full credit (32-40 pts)" in render_prompt("M05", {"output": [], "expected": []})
    True
    """
    import jinja2

    reg = registry or DEFAULT_REGISTRY
    mod = module if isinstance(module, Module) else reg.module(module)
    text = resources.files("evaltools").joinpath("templates/judge_prompt.j2") \
        .read_text("utf-8")
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, trim_blocks=False)
    env.globals["num"] = _num
    inp = record.get("input")
    return env.from_string(text).render(
        module=mod, s=reg.settings,
        input_json=json.dumps(inp if inp is not None else {}, ensure_ascii=False, indent=2,
                              default=str),
        output_json=_dump(record.get("output")),
        expected_json=_dump(record.get("expected")),
        format_json=json.dumps(output_format(mod, registry=reg), ensure_ascii=False, indent=2),
    )
