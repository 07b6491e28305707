"""One configuration object for every threshold and weight.

The defaults live in ``default_config.toml`` beside this file, and only there:
the dataclasses below name each setting, its type and (numbers) its accepted
range, and every value is read from the file. A user's TOML file overlays
them key by key. Scorers never read thresholds: only the verdict
does (scores and pass/fail stay apart).

Examples
--------
>>> cfg = load_config()
>>> cfg.relevance.fail_below, cfg.hallucination.fail_above
(0.1, 0.5)
>>> cfg.replace(hallucination={"fail_above": 0.6}).hallucination.fail_above
0.6
"""

from __future__ import annotations

import dataclasses
import functools
import math
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from evaltools.errors import ConfigError, one_line, shorten


def setting(low: float, high: float) -> Any:
    """A numeric setting accepting ``[low, high]`` (inclusive); its value, like every
    setting's, comes from ``default_config.toml`` (no default is written here)."""
    return field(metadata={"range": (low, high)})


@dataclass(frozen=True)
class PipelineConfig:
    name: str
    exclude: tuple[str, ...]


@dataclass(frozen=True)
class ContextConfig:
    read_json: bool


@dataclass(frozen=True)
class RelevanceConfig:
    weight_cosine: float = setting(0.0, 1.0)
    weight_jaccard: float = setting(0.0, 1.0)
    fail_below: float = setting(0.0, 1.0)
    reference: str
    instruction_verbs: tuple[str, ...]
    answer_type: bool
    answer_type_max_words: int = setting(1, 1000)
    instruction: str
    task_words: tuple[str, ...]
    restated_context: bool
    chat_turn: str
    waive_at_support: float = setting(0.0, 1.0)


@dataclass(frozen=True)
class CompletenessConfig:
    warn_below: float = setting(0.0, 1.0)
    keyword_pos: tuple[str, ...]
    referred: bool
    answered: bool


@dataclass(frozen=True)
class HallucinationConfig:
    fail_above: float = setting(0.0, 1.0)
    high_risk_above: float = setting(0.0, 1.0)
    claim_min_share: float = setting(0.0, 1.0)
    claim_rare_above: float = setting(0.0, 1.0)
    claim_head_rare_above: float = setting(0.0, 1.0)
    count_query_anchors: bool
    number_context: bool
    number_context_window: int = setting(1, 200)
    verdict_from: str
    value_fail_probability: float = setting(0.0, 1.0)
    name_fail_probability: float = setting(0.0, 1.0)
    amenities: tuple[str, ...]
    offering_verbs: tuple[str, ...]
    provenance: tuple[str, ...]
    amenity_fail_probability: float = setting(0.0, 1.0)
    generalised_fail_probability: float = setting(0.0, 1.0)
    term_zipf_below: float = setting(0.0, 8.0)
    term_fail_probability: float = setting(0.0, 1.0)
    answer_term_fail_probability: float = setting(0.0, 1.0)
    summary_term_fail_probability: float = setting(0.0, 1.0)
    long_response_words: int = setting(1, 100_000)
    long_fail_probability: float = setting(0.0, 1.0)
    long_answer_fail_probability: float = setting(0.0, 1.0)
    long_summary_fail_probability: float = setting(0.0, 1.0)
    claim_window: int = setting(0, 5)
    claim_threshold: float = setting(0.0, 1.0)


@dataclass(frozen=True)
class GroundingConfig:
    rarity_power: float = setting(0.0, 100.0)
    number_weight: float = setting(0.0, 1.0)
    scattered_credit: float = setting(0.0, 1.0)
    adjacency_window: int = setting(0, 200)
    adjacency_credit: float = setting(0.0, 1.0)
    query_words: bool
    skip_hedged: bool
    personal_weight: float = setting(0.0, 1.0)
    derived_credit: float = setting(0.0, 1.0)
    paraphrase: bool
    paraphrase_credit: float = setting(0.0, 1.0)
    paraphrase_cosine: float = setting(0.0, 1.0)
    reasons_max: int = setting(1, 100)
    span_threshold: float = setting(0.0, 1.0)
    span_record_gate: float = setting(0.0, 1.0)
    span_merge_words: int = setting(0, 100)
    span_lone_word_zipf: float = setting(0.0, 8.0)


@dataclass(frozen=True)
class DriftConfig:
    ngram: int = setting(1, 10)
    overlap_below: float = setting(0.0, 1.0)
    penalty: float = setting(0.0, 1.0)


@dataclass(frozen=True)
class BatchConfig:
    chunk_size: int = setting(1, 100000)
    cache_texts: int = setting(1, 1000000)


@dataclass(frozen=True)
class AlertsConfig:
    kappa_below: float = setting(-1.0, 1.0)
    module_fail_rate_above: float = setting(0.0, 1.0)


@dataclass(frozen=True)
class ScaleConfig:
    score_min_records_per_worker: int = setting(0, 10_000_000)
    stall_seconds: float = setting(1.0, 86_400.0)


@dataclass(frozen=True)
class CompareConfig:
    tolerance: float = setting(0.0, 1.0)
    max_changes: int = setting(1, 100000)


@dataclass(frozen=True)
class InputConfig:
    max_line_bytes: int = setting(1024, 1073741824)
    max_depth: int = setting(2, 500)
    max_text_chars: int = setting(1, 1000000)


@dataclass(frozen=True)
class LLMConfig:
    """``[llm]``: how ``evaltools judge --llm`` asks an LLM judge (see ``docs/judge.md``)."""

    temperature: float = setting(0.0, 2.0)
    seed: int = setting(0, 2147483647)
    max_tokens: int = setting(16, 1000000)
    response_format: str
    concurrency: int = setting(1, 256)
    requests_per_minute: int = setting(1, 1000000)
    timeout: float = setting(0.01, 86400.0)
    total_timeout: float = setting(0.01, 86400.0)
    max_retries: int = setting(0, 20)
    backoff_base: float = setting(0.0, 600.0)
    backoff_max: float = setting(0.0, 3600.0)
    parse_retries: int = setting(0, 5)
    #: ``(model, USD per million input tokens, USD per million output tokens)``, from
    #: ``[llm.prices]``; a tuple so that a configuration stays hashable.
    prices: tuple[tuple[str, float, float], ...]

    def price(self, model: str) -> tuple[float, float] | None:
        """USD per million input and output tokens for ``model``, or None without an entry.

        >>> load_config().llm.price("gpt-4o-mini"), load_config().llm.price("my-local-model")
        ((0.15, 0.6), None)
        """
        for name, inp, out in self.prices:
            if name == model:
                return inp, out
        return None


_SECTIONS: dict[str, type] = {
    "pipeline": PipelineConfig,
    "context": ContextConfig,
    "relevance": RelevanceConfig,
    "completeness": CompletenessConfig,
    "hallucination": HallucinationConfig,
    "grounding": GroundingConfig,
    "drift": DriftConfig,
    "batch": BatchConfig,
    "alerts": AlertsConfig,
    "input": InputConfig,
    "compare": CompareConfig,
    "llm": LLMConfig,
    "scale": ScaleConfig,
}

#: The accepted range of every numeric setting, inclusive (documented in
#: ``default_config.toml``), read from the fields' :func:`setting` metadata. Weights and
#: thresholds are shares in [0, 1]; sizes and windows are bounded so that a typo cannot
#: ask for gigabytes.
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    (section, f.name): f.metadata["range"]
    for section, cls in _SECTIONS.items() for f in dataclasses.fields(cls)
    if "range" in f.metadata
}

#: The values ``[llm] response_format`` accepts.
RESPONSE_FORMATS = ("json_schema", "json_object", "none")


@dataclass(frozen=True)
class Config:
    """All thresholds and weights, grouped by the spec section they belong to."""

    pipeline: PipelineConfig
    context: ContextConfig
    relevance: RelevanceConfig
    completeness: CompletenessConfig
    hallucination: HallucinationConfig
    grounding: GroundingConfig
    drift: DriftConfig
    batch: BatchConfig
    alerts: AlertsConfig
    input: InputConfig
    compare: CompareConfig
    llm: LLMConfig
    scale: ScaleConfig

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Every section that decides a score, as plain values (what reports show and compare).

        ``[llm]`` is left out: it says how an LLM judge is asked (``evaltools judge
        --llm``), never how a record is scored, and it is read as ``config.llm``.
        """
        return {
            name: {k: list(v) if isinstance(v, tuple) else v
                   for k, v in dataclasses.asdict(getattr(self, name)).items()}
            for name in _SECTIONS if name != "llm"
        }

    def replace(self, **sections: dict[str, Any]) -> Config:
        """A copy with some keys changed: ``cfg.replace(drift={"penalty": 0.3})``."""
        return _overlay(self, sections, source="replace()")


def _coerce(section: str, key: str, default: Any, value: Any, source: str) -> Any:
    where = f"{source}: [{section}] {key}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false. Got {shorten(value)} instead.")
        return value
    if default is None:
        return value
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where} must be a list of strings. Got {shorten(value)} instead.")
        return tuple(value)
    if isinstance(default, int) and not isinstance(default, bool):
        lo, hi = RANGES.get((section, key), (1, 2**31 - 1))
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ConfigError(f"{where} must be a whole number in [{lo:,}, {hi:,}]. "
                              f"Got {shorten(value)} instead.")
        return value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{where} must be a number. Got {shorten(value)} instead.")
        lo, hi = RANGES.get((section, key), (0.0, 1.0))
        try:
            value = float(value)
        except OverflowError:
            value = math.inf
        if not lo <= value <= hi:
            raise ConfigError(f"{where} must be a float in [{lo:g}, {hi:g}]. "
                              f"Got {shorten(value)} instead.")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string. Got {shorten(value)} instead.")
        return value
    return value


def _prices(value: Any, where: str) -> tuple[tuple[str, float, float], ...]:
    """``[llm.prices]``: model -> ``{input = USD, output = USD}`` per million tokens."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of models. Got {shorten(value)} instead.")
    out = {}
    for model, price in value.items():
        ok = isinstance(price, dict) and set(price) == {"input", "output"} and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < math.inf
            for v in price.values())
        if not ok:
            raise ConfigError(f"{where}.{shorten(model, quote=False)} must be "
                              f"{{input = USD, output = USD}} per million tokens, two numbers "
                              f">= 0. Got {shorten(price)} instead.")
        out[model] = (model, float(price["input"]), float(price["output"]))
    return tuple(out.values())


def _overlay(base: Config, data: dict[str, Any], *, source: str) -> Config:
    changes = {}
    for section, values in data.items():
        if section not in _SECTIONS:
            raise ConfigError(
                f"{source}: unknown section [{shorten(section, quote=False)}] "
                f"(known: {', '.join(_SECTIONS)})"
            )
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of keys.")
        current = getattr(base, section)
        known = {f.name: getattr(current, f.name) for f in dataclasses.fields(current)}
        updates = {}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(
                    f"{source}: unknown key {shorten(key)} in [{section}] "
                    f"(known: {', '.join(known)})"
                )
            if (section, key) == ("llm", "prices"):
                updates[key] = _prices(value, f"{source}: [llm.prices]")
                continue
            updates[key] = _coerce(section, key, known[key], value, source)
        changes[section] = dataclasses.replace(current, **updates)
    return _checked(dataclasses.replace(base, **changes), source)


def _checked(cfg: Config, source: str) -> Config:
    """``cfg``, once the settings that depend on each other or on a word list agree."""
    rel = cfg.relevance
    if rel.reference not in ("query", "auto"):
        raise ConfigError(f"{source}: [relevance] reference must be \"query\" or \"auto\". "
                          f"Got {shorten(rel.reference)} instead.")
    if rel.instruction not in ("query", "topical"):
        raise ConfigError(f"{source}: [relevance] instruction must be \"query\" or \"topical\". "
                          f"Got {shorten(rel.instruction)} instead.")
    if rel.chat_turn not in ("query", "with_context"):
        raise ConfigError(f"{source}: [relevance] chat_turn must be \"query\" or "
                          f"\"with_context\". Got {shorten(rel.chat_turn)} instead.")
    if cfg.hallucination.verdict_from not in ("spec", "probability"):
        raise ConfigError(f"{source}: [hallucination] verdict_from must be \"spec\" or "
                          f"\"probability\". Got {shorten(cfg.hallucination.verdict_from)} "
                          "instead.")
    if abs(rel.weight_cosine + rel.weight_jaccard - 1.0) > 1e-9:
        raise ConfigError(
            f"{source}: [relevance] weight_cosine + weight_jaccard must be 1. "
            f"Got {rel.weight_cosine} + {rel.weight_jaccard} instead."
        )
    if cfg.llm.response_format not in RESPONSE_FORMATS:
        raise ConfigError(f"{source}: [llm] response_format must be one of "
                          f"{', '.join(RESPONSE_FORMATS)}. Got "
                          f"{shorten(cfg.llm.response_format)} instead.")
    return cfg


def default_config_text() -> str:
    """The text of the shipped default TOML file."""
    return resources.files("evaltools").joinpath("default_config.toml").read_text("utf-8")


#: A value of each setting type, for :func:`_coerce` (which checks a value against the
#: type of the one it replaces).
_KIND_OF_TYPE: dict[str, Any] = {"bool": False, "int": 0, "float": 0.0, "str": "",
                                 "tuple[str, ...]": ()}


def _from_toml(data: dict[str, Any], *, source: str) -> Config:
    """A whole configuration from a TOML table holding every section and key."""
    unknown = [name for name in data if name not in _SECTIONS]
    if unknown:
        raise ConfigError(f"{source}: unknown section [{shorten(unknown[0], quote=False)}] "
                          f"(known: {', '.join(_SECTIONS)})")
    sections = {}
    for name, cls in _SECTIONS.items():
        values = data.get(name)
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: section [{name}] is missing")
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in values:
                raise ConfigError(f"{source}: [{name}] {f.name} is missing")
            if (name, f.name) == ("llm", "prices"):
                kwargs[f.name] = _prices(values[f.name], f"{source}: [llm.prices]")
            else:
                kwargs[f.name] = _coerce(name, f.name, _KIND_OF_TYPE[f.type], values[f.name],
                                         source)
        extra = [k for k in values if k not in kwargs]
        if extra:
            raise ConfigError(f"{source}: unknown key {shorten(extra[0])} in [{name}] "
                              f"(known: {', '.join(kwargs)})")
        sections[name] = cls(**kwargs)
    return _checked(Config(**sections), source)


@functools.lru_cache(maxsize=1)
def _default_config() -> Config:
    return _from_toml(tomllib.loads(default_config_text()), source="default_config.toml")


def load_config(path: str | Path | None = None) -> Config:
    """The default configuration, overlaid with the TOML file at ``path`` if given.

    Without ``path`` this is :data:`DEFAULT_CONFIG`, read once per process
    (configs are immutable, so sharing one is safe).
    """
    cfg = _default_config()
    if path is None:
        return cfg
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: configuration file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: not valid TOML ({one_line(exc)})") from None
    except RecursionError:
        raise ConfigError(f"{p}: not valid TOML (nested too deeply)") from None
    except OSError as exc:
        raise ConfigError(f"{p}: configuration file not readable "
                          f"({exc.strerror or one_line(exc)})") from None
    return _overlay(cfg, data, source=str(p))


#: The shipped configuration (``load_config()``); functions taking ``config=None`` use it.
DEFAULT_CONFIG: Config = load_config()
