"""Automatic rule checks: what can be decided from a record's ``output``,
``expected`` and ``input`` alone, by name (``CHECKS``), each with the module
types it applies to. ``modules.toml`` names a rule's check; :mod:`evaltools.judging.rules`
decides the rules with them.

Every check returns a :class:`Check` whose ``compliant`` is True, False, or
None (cannot decide for this record: e.g. no ``input.brand``). A check with
``params = { only_violations = true }`` decides violations only: when it finds
none, the rule is left to the judge.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaltools.errors import shorten

if TYPE_CHECKING:
    from evaltools.judging.registry import Module


@dataclass(frozen=True)
class Check:
    """What an automatic check found: True, False or None (cannot decide), and why."""

    compliant: bool | None
    evidence: str


@dataclass(frozen=True)
class CheckSpec:
    fn: Callable[..., Check]
    types: tuple[str, ...]
    summary: str


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _texts(value: Any) -> list[str]:
    """The text of each extraction item (``attribute`` of ranked objects)."""
    if not isinstance(value, (list, tuple)):
        return []
    out = []
    for item in value:
        if isinstance(item, Mapping):
            item = item.get("attribute")
        if isinstance(item, str) and item.strip():
            out.append(item)
    return out


def _str_list(value: Any) -> list[str] | None:
    if isinstance(value, str) and value.strip():
        return [value]
    if isinstance(value, (list, tuple)):
        items = [v for v in value if isinstance(v, str) and v.strip()]
        return items or None
    return None


def _brand(inp: Mapping[str, Any]) -> str | None:
    b = inp.get("brand")
    return b if isinstance(b, str) and b.strip() else None


def _contains(text: str, term: str) -> bool:
    """``term`` occurs in ``text`` as whole words, ignoring case and spacing."""
    t, w = _collapse(text).casefold(), _collapse(term).casefold()
    return bool(w) and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", t) is not None


def _quote(items: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(repr(i) for i in items[:limit])
    return shown + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


# ---------------------------------------------------------------------------- checks


def includes_input_brand(output, expected, inp, module, params) -> Check:
    """The brand of ``input.brand`` is one of the items, exactly (spacing collapsed)."""
    brand = _brand(inp)
    if brand is None:
        return Check(None, "no input.brand to look for")
    items = _texts(output)
    for pos, item in enumerate(items, start=1):
        if _collapse(item) == _collapse(brand):
            return Check(True, f"brand {shorten(brand)} is item {pos}")
    near = [i for i in items if module.norm(i) == module.norm(brand)]
    hint = f" (only as {_quote(near)})" if near else ""
    return Check(False, f"brand {shorten(brand)} is not among the {len(items)} items exactly{hint}")


def has_variations(output, expected, inp, module, params) -> Check:
    """At least one item differs from ``input.brand`` (exactly, spacing collapsed)."""
    brand = _brand(inp)
    if brand is None:
        return Check(None, "no input.brand to compare with")
    others = [i for i in _texts(output) if _collapse(i) != _collapse(brand)]
    if others:
        return Check(True, f"{len(others)} variation(s): {_quote(others)}")
    return Check(False, f"no item other than the brand {shorten(brand)}")


def no_competitor_terms(output, expected, inp, module, params) -> Check:
    """No item names a brand of ``input.competitors``."""
    competitors = _str_list(inp.get("competitors"))
    if competitors is None:
        return Check(None, "no input.competitors to look for")
    hits = [f"{shorten(item)} names {shorten(c)}" for item in _texts(output) for c in competitors
            if _contains(item, c)]
    if hits:
        return Check(False, "competitor term(s): " + "; ".join(hits))
    return Check(True, f"none of {len(competitors)} competitor brand(s) appears")


def count_between(output, expected, inp, module, params) -> Check:
    """The number of distinct items is within [min, max].

    Items are told apart by the module's normalisation, or, with
    ``distinct = "exact"``, by their exact text (spacing collapsed), so that
    case variations count as variations.
    """
    lo, hi = params.get("min", 0), params.get("max")
    if params.get("distinct", "module") == "exact":
        keys = list(dict.fromkeys(_collapse(i) for i in _texts(output)))
    else:
        keys = list(dict.fromkeys(module.norm(i) for i in _texts(output)))
    n = len(keys)
    want = f"{lo}" if lo == hi else f"{lo}-{hi}" if hi is not None else f"at least {lo}"
    ok = n >= lo and (hi is None or n <= hi)
    return Check(ok, f"{n} distinct item(s); required {want}")


def case_variations(output, expected, inp, module, params) -> Check:
    """The brand appears in upper case, lower case and title case (exactly)."""
    brand = _brand(inp)
    if brand is None:
        return Check(None, "no input.brand to vary")
    b = _collapse(brand)
    have = {_collapse(i) for i in _texts(output)}
    forms = {"upper": b.upper(), "lower": b.lower(), "title": b.title()}
    missing = [f"{k} {shorten(v)}" for k, v in forms.items() if v not in have]
    if missing:
        return Check(False, "missing case form(s): " + ", ".join(missing))
    return Check(True, "upper, lower and title case present: "
                 + ", ".join(repr(v) for v in forms.values()))


def no_brand_terms(output, expected, inp, module, params) -> Check:
    """No item contains ``input.brand`` or a term of ``input.brand_terms``."""
    terms = [t for t in [_brand(inp), *(_str_list(inp.get("brand_terms")) or [])] if t]
    if not terms:
        return Check(None, "no input.brand or input.brand_terms to look for")
    hits = [f"{shorten(item)} contains {shorten(t)}" for item in _texts(output) for t in terms
            if _contains(item, t)]
    if hits:
        return Check(False, "brand term(s) left: " + "; ".join(hits))
    return Check(True, f"none of {_quote(terms)} appears")


def keeps_expected(output, expected, inp, module, params) -> Check:
    """Every expected item is in the output (nothing valid filtered out)."""
    have = {module.norm(i) for i in _texts(output)}
    lost = [i for i in _texts(expected) if module.norm(i) not in have]
    if lost:
        return Check(False, "expected term(s) removed: " + _quote(lost))
    return Check(True, "every expected term is kept")


def first_matches_expected(output, expected, inp, module, params) -> Check:
    """The first item (level 1) is the expected first item."""
    out, exp = _texts(output), _texts(expected)
    if not out or not exp:
        return Check(None, "no first item to compare")
    if module.norm(out[0]) == module.norm(exp[0]):
        return Check(True, f"level 1 is {shorten(out[0])} as expected")
    return Check(False, f"level 1 is {shorten(out[0])}, expected {shorten(exp[0])}")


def no_duplicates(output, expected, inp, module, params) -> Check:
    """No item appears twice (module normalisation)."""
    counts = Counter(module.norm(i) for i in _texts(output))
    dups = [k for k, n in counts.items() if n > 1]
    if dups:
        return Check(False, "repeated: " + _quote(dups))
    return Check(True, f"{len(counts)} distinct item(s), none repeated")


def no_duplicate_ranks(output, expected, inp, module, params) -> Check:
    """Each rank is used once (strings take their 1-based position as rank)."""
    if not isinstance(output, (list, tuple)):
        return Check(None, "output is not a list")
    ranks = [item.get("rank") if isinstance(item, Mapping) else pos
             for pos, item in enumerate(output, start=1)]
    dups = sorted({r for r in ranks if ranks.count(r) > 1}, key=str)
    if dups:
        return Check(False, "rank(s) used more than once: " + ", ".join(map(str, dups)))
    return Check(True, f"{len(ranks)} rank(s), each used once")


def label_in_set(output, expected, inp, module, params) -> Check:
    """A label outside the module's label set violates the rule (violations only)."""
    if isinstance(output, str) and module.canonical_label(output) is not None:
        return Check(None, f"label {module.canonical_label(output)} is in the label set; "
                     "whether it is the right one is for the judge")
    return Check(False, f"label {shorten(output)} is not one of {'/'.join(module.labels)}")


CHECKS: dict[str, CheckSpec] = {
    fn.__name__: CheckSpec(fn=fn, types=types, summary=(fn.__doc__ or "").strip())
    for fn, types in [
        (includes_input_brand, ("extraction",)),
        (has_variations, ("extraction",)),
        (no_competitor_terms, ("extraction",)),
        (count_between, ("extraction",)),
        (case_variations, ("extraction",)),
        (no_brand_terms, ("extraction",)),
        (keeps_expected, ("extraction",)),
        (first_matches_expected, ("extraction",)),
        (no_duplicates, ("extraction",)),
        (no_duplicate_ranks, ("extraction",)),
        (label_in_set, ("classification",)),
    ]
}
"""Automatic checks by name, each with the module types it applies to."""


def run_check(module: Module, index: int, output: Any, expected: Any,
              inp: Mapping[str, Any] | None) -> Check | None:
    """The automatic check of rule ``index`` (0-based), or None when the rule has none.

    >>> from evaltools.judging.registry import load_registry
    >>> m = load_registry().module("M06")
    >>> run_check(m, 3, ["Water Bottle", "water  bottle"], [], None)
    Check(compliant=False, evidence="repeated: 'water bottle'")
    """
    rule = module.rules[index]
    if rule.check is None:
        return None
    result = CHECKS[rule.check].fn(output, expected, inp or {}, module, rule.params)
    if result.compliant is True and rule.params.get("only_violations", False):
        return Check(None, result.evidence + " (this check decides violations only)")
    return result
