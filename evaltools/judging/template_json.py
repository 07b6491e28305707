"""The template's JSON read at its fixed paths: :class:`TemplateJSON`.

A frozen view of an object in the Unified Judge Template's format — an LLM
judge's answer or a judged record — that never fails and judges nothing.
It is the one place the template's paths (``evaluation.correctness.score``,
``evaluation.rule_compliance.rules``...) are spelled for reading:
:func:`~evaltools.judging.judge_json.read_judgment` and
:func:`~evaltools.judging.audit.audit_judgment`, the report's accumulation,
:class:`~evaltools.widgets.JudgeForm` and :meth:`JudgeResult.from_dict
<evaltools.judging.result.JudgeResult.from_dict>` read attributes from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["RuleEntry", "TemplateJSON"]


@dataclass(frozen=True)
class RuleEntry:
    """One entry of ``evaluation.rule_compliance.rules`` as written.

    ``raw`` is the entry itself; the attributes are its keys when it is an
    object (None when absent or when the entry is not an object).
    """

    raw: Any

    @property
    def is_object(self) -> bool:
        return isinstance(self.raw, Mapping)

    def _key(self, key: str) -> Any:
        return self.raw.get(key) if isinstance(self.raw, Mapping) else None

    @property
    def name(self) -> Any:
        return self._key("name")

    @property
    def compliant(self) -> Any:
        return self._key("compliant")

    @property
    def score(self) -> Any:
        return self._key("score")

    @property
    def evidence(self) -> Any:
        return self._key("evidence")


def _at(obj: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def _object(v: Any) -> Mapping[str, Any] | None:
    return MappingProxyType(dict(v)) if isinstance(v, Mapping) else None


@dataclass(frozen=True)
class TemplateJSON:
    """A JSON object in the template's format, read at its fixed paths.

    Every attribute is the value at its path as written — None when the path
    is absent or runs through something that is not an object. Objects are
    read-only mappings and ``rules`` a tuple of :class:`RuleEntry` (None when
    ``evaluation.rule_compliance.rules`` is not a list). Reading judges
    nothing: :func:`read_judgment` reports what is missing or mistyped,
    :func:`~evaltools.judging.audit.audit_judgment` checks the figures. A
    judged record (``evaltools judge`` output) is in the same format, so the
    report reads it through this view too.

    >>> t = TemplateJSON.of({"evaluation": {"correctness": {"score": 40, "match": True},
    ...                      "rule_compliance": {"rules": [{"compliant": False}, 3]}},
    ...                      "verdict": "PASS"})
    >>> t.correctness_score, t.has_match, t.match, t.verdict, t.total_score
    (40, True, True, 'PASS', None)
    >>> [(r.is_object, r.compliant) for r in t.rules]
    [(True, False), (False, None)]
    >>> TemplateJSON.of("not an object").correctness_score is None
    True
    """

    correctness: Mapping[str, Any] | None
    rule_compliance: Mapping[str, Any] | None
    reasoning_quality: Mapping[str, Any] | None
    rules: tuple[RuleEntry, ...] | None
    total_score: Any
    verdict: Any
    summary: Any

    @classmethod
    def of(cls, obj: Any) -> TemplateJSON:
        """The view of ``obj`` (anything; only an object has values)."""
        ev = _at(obj, "evaluation")
        rule_list = _at(ev, "rule_compliance", "rules")
        return cls(
            correctness=_object(_at(ev, "correctness")),
            rule_compliance=_object(_at(ev, "rule_compliance")),
            reasoning_quality=_object(_at(ev, "reasoning_quality")),
            rules=(tuple(RuleEntry(e) for e in rule_list) if isinstance(rule_list, list)
                   else None),
            total_score=_at(obj, "total_score"), verdict=_at(obj, "verdict"),
            summary=_at(obj, "summary"))

    @property
    def correctness_score(self) -> Any:
        return _at(self.correctness, "score")

    @property
    def has_match(self) -> bool:
        """Whether ``evaluation.correctness`` has a ``match`` key (whatever its value)."""
        return self.correctness is not None and "match" in self.correctness

    @property
    def match(self) -> Any:
        return _at(self.correctness, "match")

    @property
    def match_level(self) -> Any:
        return _at(self.correctness, "match_level")

    @property
    def f1(self) -> Any:
        return _at(self.correctness, "f1")

    @property
    def output_value(self) -> Any:
        return _at(self.correctness, "output_value")

    @property
    def expected_value(self) -> Any:
        return _at(self.correctness, "expected_value")

    @property
    def rules_score(self) -> Any:
        return _at(self.rule_compliance, "score")

    @property
    def reasoning_score(self) -> Any:
        return _at(self.reasoning_quality, "score")

    def reasoning_value(self, key: str) -> Any:
        """``evaluation.reasoning_quality.<key>`` (a sub-score or an item)."""
        return _at(self.reasoning_quality, key)
