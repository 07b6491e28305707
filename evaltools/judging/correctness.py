"""Section 1 of the template: does a module's output match the expected value?

Three calculators, one per module type, each a pure function returning a
frozen :class:`Correctness`:

- :func:`boolean_correctness` — YES 40 / NO 0. Booleans are read from
  ``true/false``, ``yes/no``, ``1/0`` in any case, with trailing punctuation
  (``"Yes."``); anything else is reported in ``issues`` and scored as no
  match, never guessed.
- :func:`classification_correctness` — EXACT 40 / PARTIAL 20 (both labels in
  one of the module's label groups) / NONE 0.
- :func:`extraction_correctness` — precision, recall, F1 over normalised sets;
  score ``F1 * 40`` rounded to 2 decimals; credit band full (F1 ≥ 0.8),
  partial (F1 ≥ 0.5) or low. Both sets empty: F1 = 1 (nothing was expected
  and nothing was extracted). One set empty: precision = recall = F1 = 0.

Examples
--------
>>> from evaltools.judging.registry import load_registry
>>> reg = load_registry()
>>> boolean_correctness("Yes.", True, reg.module("M15")).score
40
>>> classification_correctness("COMPETITOR", "OWN", reg.module("M02")).match_level
'PARTIAL'
>>> c = extraction_correctness(["Hydro Flask", "hydroflask"], ["hydro flask"], reg.module("M01"))
>>> c.precision, c.recall, c.f1, c.score
(0.5, 1.0, 0.6667, 26.67)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from evaltools.errors import shorten
from evaltools.judging.registry import DEFAULT_REGISTRY, Module, Registry
from evaltools.values import plain_value


@dataclass(frozen=True)
class Correctness:
    """The correctness section of a judgment.

    ``match_level`` is YES/NO (boolean), EXACT/PARTIAL/NONE (classification)
    or EXACT/PARTIAL/NONE by F1 = 1 / 0 < F1 < 1 / F1 = 0 (extraction).
    ``precision``, ``recall``, ``f1``, ``credit_band``, ``missing`` and
    ``extra`` are set for extraction modules only.
    """

    score: float
    output_value: Any
    expected_value: Any
    match: bool
    match_level: str
    details: str
    precision: float | None = None
    recall: float | None = None
    f1: float | None = None
    credit_band: str | None = None
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    issues: tuple[str, ...] = ()

    def __post_init__(self) -> None:  # deep-freeze the values a caller passed in
        object.__setattr__(self, "output_value", _frozen(self.output_value))
        object.__setattr__(self, "expected_value", _frozen(self.expected_value))

    def to_dict(self, module_type: str) -> dict[str, Any]:
        """The template's ``evaluation.correctness`` object (plus type-specific keys)."""
        d: dict[str, Any] = {
            "score": self.score,
            "output_value": plain_value(self.output_value),
            "expected_value": plain_value(self.expected_value),
            "match": self.match,
            "match_level": self.match_level,
            "details": self.details,
        }
        if module_type == "extraction":
            d.update(precision=self.precision, recall=self.recall, f1=self.f1,
                     credit_band=self.credit_band, missing=list(self.missing),
                     extra=list(self.extra))
        return d


def _frozen(v: Any) -> Any:
    """Lists as tuples and objects as read-only mappings, all the way down."""
    if isinstance(v, Mapping):
        return MappingProxyType({k: _frozen(x) for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    return v


def number(x: float | Fraction, decimals: int = 2) -> int | float:
    """``x`` rounded to ``decimals``; an int when whole (40, not 40.0).

    >>> number(Fraction(80, 3)), number(40.0), number(Fraction(1, 3), 4)
    (26.67, 40, 0.3333)
    """
    r = round(float(x), decimals)
    return int(r) if r == int(r) else r


# ---------------------------------------------------------------------------- boolean


def parse_boolean(value: Any, *, registry: Registry | None = None) -> bool | None:
    """``value`` read as a boolean, or None when it is not one of the accepted spellings.

    Accepted: JSON ``true``/``false``, the numbers 1/0 (also 1.0/0.0, as
    pandas stores an integer column with gaps), and the strings true/false,
    yes/no, 1/0 in any case, surrounded by whitespace and followed by
    trailing punctuation (``.!?,;:``).

    >>> [parse_boolean(v) for v in (True, 0, "YES", "no.", " False! ", "1", "maybe", 2, "y")]
    [True, False, True, False, False, True, None, None, None]
    >>> [parse_boolean(v) for v in (1.0, 0.0, 0.5)]
    [True, False, None]
    """
    s = (registry or DEFAULT_REGISTRY).settings.correctness
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return {1: True, 0: False}.get(value)
    if not isinstance(value, str):
        return None
    word = value.strip().rstrip(s.trailing_punctuation).strip().casefold()
    if word in s.true_words:
        return True
    if word in s.false_words:
        return False
    return None


def boolean_correctness(output: Any, expected: Any, module: Module, *,
                        registry: Registry | None = None) -> Correctness:
    """Boolean module: 40 when output and expected are the same boolean, else 0.

    Parameters
    ----------
    output, expected : bool, int or str
        Read with :func:`parse_boolean`. A value that is not a boolean is
        reported in ``issues`` and the record scores no match.
    module : Module
    registry : Registry, optional
        Points and accepted spellings; the shipped registry by default.

    Examples
    --------
    >>> from evaltools.judging.registry import load_registry
    >>> m = load_registry().module("M13")
    >>> boolean_correctness("no", False, m).score, boolean_correctness(1, "false", m).score
    (40, 0)
    >>> c = boolean_correctness("probably", True, m)
    >>> c.score
    0
    >>> c.issues[0]
    "output 'probably' is not a boolean (accepted: true/false, yes/no, 1/0); scored as no match"
    """
    reg = registry or DEFAULT_REGISTRY
    s = reg.settings.correctness
    out_b = parse_boolean(output, registry=reg)
    exp_b = parse_boolean(expected, registry=reg)
    issues = []
    accepted = "true/false, yes/no, 1/0"
    if out_b is None:
        issues.append(f"output {shorten(output)} is not a boolean (accepted: {accepted}); "
                      "scored as no match")
    if exp_b is None:
        issues.append(f"expected {shorten(expected)} is not a boolean (accepted: {accepted}); "
                      "scored as no match")
    match = out_b is not None and exp_b is not None and out_b == exp_b
    if out_b is None or exp_b is None:
        details = "Not comparable: " + "; ".join(issues)
    else:
        details = f"Output {str(out_b).lower()} {'matches' if match else 'differs from'} " \
                  f"expected {str(exp_b).lower()}"
    return Correctness(
        score=s.boolean_match if match else s.boolean_no_match,
        output_value=out_b if out_b is not None else output,
        expected_value=exp_b if exp_b is not None else expected,
        match=match, match_level="YES" if match else "NO", details=details,
        issues=tuple(issues))


# ---------------------------------------------------------------------------- classification


def classification_correctness(output: str, expected: str, module: Module, *,
                               registry: Registry | None = None) -> Correctness:
    """Classification module: EXACT 40, PARTIAL 20, NONE 0.

    Labels compare under the module's normalisation (case-insensitive and
    whitespace-collapsed unless the module says ``exact``). PARTIAL means
    both labels lie in one of the module's label groups; a module without
    groups scores only EXACT or NONE. A label outside the module's label set
    is reported in ``issues`` and matches nothing.

    Examples
    --------
    >>> from evaltools.judging.registry import load_registry
    >>> reg = load_registry()
    >>> [classification_correctness(o, "OWN", reg.module("M02")).score
    ...  for o in ("own", "COMPETITOR", "NONE", "BRAND")]
    [40, 20, 0, 0]
    >>> classification_correctness("S", "C", reg.module("M12b")).match_level
    'NONE'
    """
    s = (registry or DEFAULT_REGISTRY).settings.correctness
    issues = []
    out_c = module.canonical_label(output) if isinstance(output, str) else None
    exp_c = module.canonical_label(expected) if isinstance(expected, str) else None
    allowed = "/".join(module.labels)
    if out_c is None:
        issues.append(f"output label {shorten(output)} is not in the label set {allowed}; "
                      "scored as no match")
    if exp_c is None:
        issues.append(f"expected label {shorten(expected)} is not in the label set {allowed}; "
                      "scored as no match")
    if out_c is not None and exp_c is not None and out_c == exp_c:
        level, score, details = "EXACT", s.exact, f"Output {out_c} matches expected {exp_c}"
    elif (out_c is not None and exp_c is not None and module.group_of(out_c) is not None
          and module.group_of(out_c) == module.group_of(exp_c)):
        level, score = "PARTIAL", s.partial
        details = (f"Output {out_c} is in the same category "
                   f"({module.group_of(out_c)}) as expected {exp_c} but is a different label")
    else:
        level, score = "NONE", s.none
        details = (f"Output {out_c} differs from expected {exp_c}"
                   if out_c is not None and exp_c is not None
                   else "Not comparable: " + "; ".join(issues))
    return Correctness(score=score, output_value=out_c if out_c is not None else output,
                       expected_value=exp_c if exp_c is not None else expected,
                       match=level == "EXACT", match_level=level, details=details,
                       issues=tuple(issues))


# ---------------------------------------------------------------------------- extraction


def item_keys(items: Sequence[Any], module: Module) -> tuple[list[Any], list[str]]:
    """The normalised keys of extraction ``items`` in order, and issues about dropped items.

    Text items key on their normalised text. Ranked items (M08) key on
    ``(text, rank)``: an object ``{"attribute": ..., "rank": n}``, or a string
    whose rank is its 1-based position. Items that normalise to empty text are
    dropped, with an issue.

    >>> from evaltools.judging.registry import load_registry
    >>> reg = load_registry()
    >>> item_keys(["Wide  Mouth", " ", "wide mouth"], reg.module("M07"))
    (['wide mouth', 'wide mouth'], ['item 2 is empty; ignored'])
    >>> item_keys([{"attribute": "Insulated", "rank": 1}, "32 oz"], reg.module("M08"))
    ([('insulated', 1), ('32 oz', 2)], [])
    """
    keys: list[Any] = []
    issues: list[str] = []
    for pos, item in enumerate(items, start=1):
        if isinstance(item, Mapping):
            text, rank = item.get("attribute", ""), item.get("rank")
        else:
            text, rank = item, pos
        k = module.norm(text)
        if not k:
            issues.append(f"item {pos} is empty; ignored")
            continue
        keys.append((k, rank) if module.items == "ranked" else k)
    return keys, issues


def show_key(key: Any) -> str:
    """A key of :func:`item_keys` as text: ``'insulated'`` or ``'insulated (rank 1)'``."""
    return f"{key[0]} (rank {key[1]})" if isinstance(key, tuple) else key


def credit_band(f1: float | Fraction, *, registry: Registry | None = None) -> str:
    """``"full"`` (F1 ≥ 0.8), ``"partial"`` (F1 ≥ 0.5) or ``"low"``.

    >>> credit_band(0.8), credit_band(0.79), credit_band(0.5), credit_band(0.0)
    ('full', 'partial', 'partial', 'low')
    """
    s = (registry or DEFAULT_REGISTRY).settings.correctness
    f = Fraction(str(f1)) if isinstance(f1, float) else Fraction(f1)
    if f >= Fraction(str(s.full_credit_f1)):
        return "full"
    if f >= Fraction(str(s.partial_credit_f1)):
        return "partial"
    return "low"


def extraction_correctness(output: Sequence[Any], expected: Sequence[Any], module: Module, *,
                           registry: Registry | None = None) -> Correctness:
    """Extraction module: precision, recall and F1 of the output set; score ``F1 * 40``.

    Items compare as sets of normalised keys (:func:`item_keys`), so a
    repeated item counts once here (the rules may still count the repeat).

    Edge cases: both sets empty → precision = recall = F1 = 1, score 40;
    output empty, expected not → all 0; expected empty, output not → all 0.

    Examples
    --------
    >>> from evaltools.judging.registry import load_registry
    >>> m = load_registry().module("M07")
    >>> c = extraction_correctness(["32 oz", "black", "straw lid"], ["32 oz", "black"], m)
    >>> c.precision, c.recall, c.f1, c.score, c.credit_band, c.extra
    (0.6667, 1.0, 0.8, 32, 'full', ('straw lid',))
    >>> extraction_correctness([], [], m).score, extraction_correctness([], ["black"], m).score
    (40, 0)
    """
    reg = registry or DEFAULT_REGISTRY
    s = reg.settings.correctness
    out_keys, out_issues = item_keys(output, module)
    exp_keys, exp_issues = item_keys(expected, module)
    issues = [f"output {i}" for i in out_issues] + [f"expected {i}" for i in exp_issues]
    o, e = set(out_keys), set(exp_keys)
    tp = len(o & e)
    if not o and not e:
        p = r = f = Fraction(1)
    else:
        p = Fraction(tp, len(o)) if o else Fraction(0)
        r = Fraction(tp, len(e)) if e else Fraction(0)
        f = Fraction(2 * tp, len(o) + len(e))
    missing = tuple(show_key(k) for k in dict.fromkeys(exp_keys) if k not in o)
    extra = tuple(show_key(k) for k in dict.fromkeys(out_keys) if k not in e)
    level = "EXACT" if o == e else ("PARTIAL" if tp else "NONE")
    if not o and not e:
        details = "Nothing expected and nothing extracted"
    else:
        details = (f"{tp} of {len(o)} extracted items expected, {tp} of {len(e)} expected "
                   f"items extracted")
        if missing:
            details += "; missing: " + ", ".join(missing)
        if extra:
            details += "; extra: " + ", ".join(extra)
    return Correctness(
        score=number(s.extraction_scale * f, s.decimals),
        output_value=list(output), expected_value=list(expected),
        match=o == e, match_level=level, details=details,
        precision=round(float(p), 4), recall=round(float(r), 4), f1=round(float(f), 4),
        credit_band=credit_band(f, registry=reg), missing=missing, extra=extra,
        issues=tuple(issues))


# ---------------------------------------------------------------------------- dispatch


def value_problem(value: Any, module: Module) -> str | None:
    """What is wrong with the JSON shape of an output/expected value, or None.

    Boolean modules take a boolean, a number or a string (values that are not
    a boolean are scored, with an issue, not rejected); classification modules a
    string; extraction modules a list of strings (M08 also ``{attribute,
    rank}`` objects with a string and a whole number).

    >>> from evaltools.judging.registry import load_registry
    >>> reg = load_registry()
    >>> value_problem(["a"], reg.module("M04"))
    'must be a boolean (true/false, yes/no, 1/0), got list'
    >>> value_problem("hydro flask", reg.module("M01"))
    'must be a list of strings, got str'
    """
    t = type(value).__name__
    if module.type == "boolean":
        if isinstance(value, (bool, int, float, str)):  # not a boolean word: an issue
            return None
        return f"must be a boolean (true/false, yes/no, 1/0), got {t}"
    if module.type == "classification":
        if isinstance(value, str):
            return None
        return f"must be a label ({'/'.join(module.labels)}) as a string, got {t}"
    if module.items == "ranked":
        want = "a list of strings or {attribute, rank} objects"
    else:
        want = "a list of strings"
    if not isinstance(value, (list, tuple)):
        return f"must be {want}, got {t}"
    for i, item in enumerate(value, start=1):
        if isinstance(item, str):
            continue
        if module.items == "ranked" and isinstance(item, Mapping):
            attr, rank = item.get("attribute"), item.get("rank")
            if (isinstance(attr, str) and isinstance(rank, int)
                    and not isinstance(rank, bool)):
                continue
        return f"must be {want}; item {i} is {type(item).__name__}"
    return None


def correctness(output: Any, expected: Any, module: Module, *,
                registry: Registry | None = None) -> Correctness:
    """The correctness calculator for ``module``'s type.

    >>> from evaltools.judging.registry import load_registry
    >>> correctness("true", True, load_registry().module("M04")).score
    40
    """
    fn = {"boolean": boolean_correctness, "classification": classification_correctness,
          "extraction": extraction_correctness}[module.type]
    return fn(output, expected, module, registry=registry)
