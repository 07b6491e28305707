"""The judge registry: modules M01..M16 and the template's numbers, as data.

Everything is read from ``modules.toml`` beside this file (or from a TOML file
of the same shape passed to :func:`load_registry`). Code never holds a module
table or a threshold; it reads them from a :class:`Registry`.

Examples
--------
>>> reg = load_registry()
>>> len(reg.modules)
17
>>> m = reg.module("M02")
>>> m.type, m.labels
('classification', ('OWN', 'COMPETITOR', 'NONE'))
>>> [r.name for r in reg.module("M01").rules]
['Include Original Brand', 'Generate Variations', 'No Unrelated Terms', 'Reasonable Count']
>>> reg.settings.verdict.pass_at, reg.settings.verdict.cap_when_incorrect
(70, 60)
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from evaltools.errors import ConfigError, one_line, shorten
from evaltools.judging.checks import CHECKS

MODULE_TYPES = ("boolean", "classification", "extraction")
NORMALISATIONS = ("casefold", "exact")
ITEM_KINDS = ("text", "ranked")


@dataclass(frozen=True)
class Rule:
    """One of a module's four rules; ``check`` names an automatic check or is None."""

    name: str
    description: str
    check: str | None = None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Module:
    """One pipeline module as the registry describes it."""

    id: str
    name: str
    type: str
    rules: tuple[Rule, ...]
    normalise: str = "casefold"
    items: str = "text"
    labels: tuple[str, ...] = ()
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def case_sensitive(self) -> bool:
        return self.normalise == "exact"

    def norm(self, text: str) -> str:
        """``text`` with whitespace collapsed, case-folded unless the module is case-sensitive.

        >>> load_registry().module("M01").norm("  Hydro   FLASK ")
        'hydro flask'
        >>> load_registry().module("M01a").norm("  Hydro   FLASK ")
        'Hydro FLASK'
        """
        collapsed = " ".join(text.split())
        return collapsed if self.case_sensitive else collapsed.casefold()

    def canonical_label(self, label: str) -> str | None:
        """The label of the set that ``label`` normalises to, or None.

        >>> load_registry().module("M02").canonical_label(" own ")
        'OWN'
        """
        key = self.norm(label)
        for known in self.labels:
            if self.norm(known) == key:
                return known
        return None

    def group_of(self, label: str) -> str | None:
        """The name of the first group holding ``label`` (a canonical label), or None."""
        for name, members in self.groups.items():
            if label in members:
                return name
        return None


@dataclass(frozen=True)
class CorrectnessSettings:
    max_points: int
    boolean_match: int
    boolean_no_match: int
    exact: int
    partial: int
    none: int
    extraction_scale: int
    full_credit_f1: float
    partial_credit_f1: float
    decimals: int
    true_words: tuple[str, ...]
    false_words: tuple[str, ...]
    trailing_punctuation: str


@dataclass(frozen=True)
class RuleSettings:
    count: int
    points_per_rule: int
    max_points: int


@dataclass(frozen=True)
class SubscoreSpec:
    name: str
    max: int
    items: Mapping[str, int]


@dataclass(frozen=True)
class Band:
    start: int
    label: str
    description: str


@dataclass(frozen=True)
class ReasoningSettings:
    max_points: int
    subscores: tuple[SubscoreSpec, ...]
    bands: tuple[Band, ...]  # highest first


@dataclass(frozen=True)
class VerdictSettings:
    pass_at: float
    cap_when_incorrect: float
    max_total: float
    reason_incorrect: str
    reason_pass: str
    reason_below: str


@dataclass(frozen=True)
class AuditSettings:
    tolerance: float
    correctness_tolerance: float


@dataclass(frozen=True)
class JudgeSettings:
    correctness: CorrectnessSettings
    rules: RuleSettings
    reasoning: ReasoningSettings
    verdict: VerdictSettings
    audit: AuditSettings


@dataclass(frozen=True)
class Registry:
    """The modules (by id, in file order) and the template's numbers."""

    modules: Mapping[str, Module]
    settings: JudgeSettings
    source: str = "modules.toml"

    def module(self, module_id: str) -> Module:
        """The module ``module_id``; a :class:`KeyError` naming the known ids otherwise."""
        try:
            return self.modules[module_id]
        except (KeyError, TypeError):
            raise KeyError(
                f"unknown module {shorten(module_id)} (known: {', '.join(self.modules)})"
            ) from None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self.modules)


# ---------------------------------------------------------------------------- loading


def _need(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in table:
        raise ConfigError(f"{where}: key '{key}' is missing")
    value = table[key]
    if isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{where}: key '{key}' must be {_kind_name(kind)}. Got {shorten(value)}.")
    if not isinstance(value, kind):
        raise ConfigError(f"{where}: key '{key}' must be {_kind_name(kind)}. Got {shorten(value)}.")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if set(kinds) == {int, float}:
        return "a number"
    names = {int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "a table", bool: "a boolean"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _settings(data: Mapping[str, Any], src: str) -> JudgeSettings:
    judge = _need(data, "judge", dict, src)
    c = _need(judge, "correctness", dict, f"{src} [judge]")
    cw = f"{src} [judge.correctness]"
    words = _need(c, "boolean_words", dict, cw)
    ww = f"{src} [judge.correctness.boolean_words]"
    true_words = tuple(str(w).casefold() for w in _need(words, "true", list, ww))
    false_words = tuple(str(w).casefold() for w in _need(words, "false", list, ww))
    if set(true_words) & set(false_words):
        raise ConfigError(f"{ww}: a word cannot be both true and false")
    correctness = CorrectnessSettings(
        max_points=_need(c, "max_points", int, cw),
        boolean_match=_need(c, "boolean_match", int, cw),
        boolean_no_match=_need(c, "boolean_no_match", int, cw),
        exact=_need(c, "exact", int, cw),
        partial=_need(c, "partial", int, cw),
        none=_need(c, "none", int, cw),
        extraction_scale=_need(c, "extraction_scale", int, cw),
        full_credit_f1=float(_need(c, "full_credit_f1", (int, float), cw)),
        partial_credit_f1=float(_need(c, "partial_credit_f1", (int, float), cw)),
        decimals=_need(c, "decimals", int, cw),
        true_words=true_words,
        false_words=false_words,
        trailing_punctuation=_need(words, "trailing_punctuation", str, ww),
    )
    r = _need(judge, "rules", dict, f"{src} [judge]")
    rw = f"{src} [judge.rules]"
    rules = RuleSettings(count=_need(r, "count", int, rw),
                         points_per_rule=_need(r, "points_per_rule", int, rw),
                         max_points=_need(r, "max_points", int, rw))
    if rules.count * rules.points_per_rule != rules.max_points:
        raise ConfigError(f"{rw}: count * points_per_rule must equal max_points")
    q = _need(judge, "reasoning", dict, f"{src} [judge]")
    qw = f"{src} [judge.reasoning]"
    subs = []
    for name, spec in _need(q, "subscores", dict, qw).items():
        sw = f"{qw[:-1]}.subscores.{name}]"
        items = _need(spec, "items", dict, sw)
        if not all(isinstance(v, int) for v in items.values()):
            raise ConfigError(f"{sw}: item maxima must be integers")
        sub = SubscoreSpec(name=name, max=_need(spec, "max", int, sw),
                           items=MappingProxyType(dict(items)))
        if items and sum(items.values()) != sub.max:
            raise ConfigError(f"{sw}: the items' maxima must add up to max")
        subs.append(sub)
    bands = []
    for i, b in enumerate(_need(q, "bands", list, qw)):
        bw = f"{qw} band {i + 1}"
        bands.append(Band(start=_need(b, "from", int, bw), label=_need(b, "label", str, bw),
                          description=_need(b, "description", str, bw)))
    bands.sort(key=lambda band: -band.start)
    reasoning = ReasoningSettings(max_points=_need(q, "max_points", int, qw),
                                  subscores=tuple(subs), bands=tuple(bands))
    if sum(s.max for s in subs) != reasoning.max_points:
        raise ConfigError(f"{qw}: the sub-scores' maxima must add up to max_points")
    v = _need(judge, "verdict", dict, f"{src} [judge]")
    vw = f"{src} [judge.verdict]"
    verdict = VerdictSettings(
        pass_at=_need(v, "pass_at", (int, float), vw),
        cap_when_incorrect=_need(v, "cap_when_incorrect", (int, float), vw),
        max_total=_need(v, "max_total", (int, float), vw),
        reason_incorrect=_need(v, "reason_incorrect", str, vw),
        reason_pass=_need(v, "reason_pass", str, vw),
        reason_below=_need(v, "reason_below", str, vw),
    )
    if correctness.max_points + rules.max_points + reasoning.max_points != verdict.max_total:
        raise ConfigError(f"{vw}: max_total must be the sum of the three sections' maxima")
    a = _need(judge, "audit", dict, f"{src} [judge]")
    aw = f"{src} [judge.audit]"
    audit = AuditSettings(tolerance=float(_need(a, "tolerance", (int, float), aw)),
                          correctness_tolerance=float(
                              _need(a, "correctness_tolerance", (int, float), aw)))
    return JudgeSettings(correctness=correctness, rules=rules, reasoning=reasoning,
                         verdict=verdict, audit=audit)


_ID = re.compile(r"^M\d\d[a-z]?$")


def _module(mid: str, spec: Mapping[str, Any], settings: JudgeSettings, src: str) -> Module:
    where = f"{src} [modules.{mid}]"
    if not _ID.match(mid):
        raise ConfigError(f"{where}: a module id looks like M01 or M01a")
    mtype = _need(spec, "type", str, where)
    if mtype not in MODULE_TYPES:
        raise ConfigError(f"{where}: type must be one of {', '.join(MODULE_TYPES)}. "
                          f"Got {shorten(mtype)}.")
    normalise = spec.get("normalise", "casefold")
    if normalise not in NORMALISATIONS:
        raise ConfigError(f"{where}: normalise must be one of {', '.join(NORMALISATIONS)}. "
                          f"Got {shorten(normalise)}.")
    items = spec.get("items", "text")
    if items not in ITEM_KINDS:
        raise ConfigError(f"{where}: items must be one of {', '.join(ITEM_KINDS)}. "
                          f"Got {shorten(items)}.")
    labels = tuple(spec.get("labels", ()))
    groups_raw = spec.get("groups", {})
    if mtype == "classification" and not labels:
        raise ConfigError(f"{where}: a classification module needs labels")
    if not all(isinstance(x, str) for x in labels):
        raise ConfigError(f"{where}: labels must be strings")
    groups = {}
    for gname, members in groups_raw.items():
        if not isinstance(members, list) or not set(members) <= set(labels):
            raise ConfigError(f"{where}: group '{gname}' must list labels of the module")
        groups[gname] = tuple(members)
    rules = []
    for i, r in enumerate(_need(spec, "rules", list, where), start=1):
        rw = f"{where} rule {i}"
        check = r.get("check")
        if check is not None and check not in CHECKS:
            raise ConfigError(f"{rw}: unknown check {shorten(check)} (known: {', '.join(CHECKS)})")
        if check is not None and mtype not in CHECKS[check].types:
            raise ConfigError(f"{rw}: check {shorten(check)} applies to "
                              f"{'/'.join(CHECKS[check].types)} modules, not {mtype}")
        rules.append(Rule(name=_need(r, "name", str, rw),
                          description=_need(r, "description", str, rw),
                          check=check, params=MappingProxyType(dict(r.get("params", {})))))
    if len(rules) != settings.rules.count:
        raise ConfigError(f"{where}: needs exactly {settings.rules.count} rules, "
                          f"has {len(rules)}")
    return Module(id=mid, name=_need(spec, "name", str, where), type=mtype,
                  rules=tuple(rules), normalise=normalise, items=items, labels=labels,
                  groups=MappingProxyType(groups))


def parse_registry(text: str, *, source: str = "modules.toml") -> Registry:
    """A :class:`Registry` from TOML text shaped like ``modules.toml``.

    Examples
    --------
    >>> text = default_registry_text().replace("pass_at = 70", "pass_at = 75")
    >>> parse_registry(text, source="strict.toml").settings.verdict.pass_at
    75
    >>> parse_registry("[judge]")
    Traceback (most recent call last):
    ...
    evaltools.errors.ConfigError: modules.toml [judge]: key 'correctness' is missing
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML ({one_line(exc)})") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML (nested too deeply)") from None
    settings = _settings(data, source)
    mods = _need(data, "modules", dict, source)
    modules = {mid: _module(mid, spec, settings, source) for mid, spec in mods.items()}
    return Registry(modules=MappingProxyType(modules), settings=settings, source=source)


def default_registry_text() -> str:
    """The text of the shipped ``modules.toml``."""
    return resources.files("evaltools.judging").joinpath("modules.toml").read_text("utf-8")


@functools.lru_cache(maxsize=1)
def _default_registry() -> Registry:
    return parse_registry(default_registry_text(), source="modules.toml")


def load_registry(path: str | Path | None = None) -> Registry:
    """The shipped registry, or the one in the TOML file at ``path`` (a whole replacement).

    Parameters
    ----------
    path : str or Path, optional
        A file shaped like the shipped ``modules.toml``.

    Returns
    -------
    Registry

    Examples
    --------
    >>> load_registry().module("M05").type
    'extraction'
    """
    if path is None:
        return _default_registry()
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: judge registry file not found") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not valid UTF-8 ({exc.reason})") from None
    except OSError as exc:
        raise ConfigError(f"{p}: judge registry file not readable "
                          f"({exc.strerror or one_line(exc)})") from None
    return parse_registry(text, source=str(p))


#: The shipped registry (``load_registry()``); functions taking ``registry=None`` use it.
DEFAULT_REGISTRY: Registry = load_registry()
MODULES: Mapping[str, Module] = DEFAULT_REGISTRY.modules
