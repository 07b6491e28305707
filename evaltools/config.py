"""One configuration object for every threshold and weight.

The defaults live in ``default_config.toml`` beside this file; a user's TOML
file overlays them key by key. Scorers never read thresholds: only the verdict
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


@dataclass(frozen=True)
class PipelineConfig:
    name: str = ""
    exclude: tuple[str, ...] = ("ner",)


@dataclass(frozen=True)
class ContextConfig:
    read_json: bool = True


@dataclass(frozen=True)
class RelevanceConfig:
    weight_cosine: float = 0.5
    weight_jaccard: float = 0.5
    fail_below: float = 0.1
    reference: str = "query"
    instruction_verbs: tuple[str, ...] = ()
    answer_type: bool = False
    answer_type_max_words: int = 12
    instruction: str = "topical"
    task_words: tuple[str, ...] = ()
    restated_context: bool = True


@dataclass(frozen=True)
class CompletenessConfig:
    warn_below: float = 0.6
    keyword_pos: tuple[str, ...] = ("NOUN", "PROPN", "ADJ", "NUM")


@dataclass(frozen=True)
class HallucinationConfig:
    fail_above: float = 0.5
    high_risk_above: float = 0.6
    claim_min_share: float = 0.5
    claim_rare_above: float = 0.55
    claim_head_rare_above: float = 0.45
    count_query_anchors: bool = False
    number_context: bool = False
    number_context_window: int = 6
    verdict_from: str = "spec"
    claim_window: int = 1


@dataclass(frozen=True)
class GroundingConfig:
    rarity_power: float = 1.0
    number_weight: float = 1.0
    scattered_credit: float = 1.0
    adjacency_window: int = 0
    adjacency_credit: float = 0.7
    query_words: bool = False
    skip_hedged: bool = False
    personal_weight: float = 0.1
    derived_credit: float = 1.0
    reasons_max: int = 3
    span_threshold: float = 0.5
    span_merge_words: int = 4


@dataclass(frozen=True)
class DriftConfig:
    ngram: int = 2
    overlap_below: float = 0.2
    penalty: float = 0.2


@dataclass(frozen=True)
class BatchConfig:
    chunk_size: int = 512
    cache_texts: int = 2048


@dataclass(frozen=True)
class AlertsConfig:
    kappa_below: float = 0.4
    module_fail_rate_above: float = 0.5


@dataclass(frozen=True)
class CompareConfig:
    tolerance: float = 0.05
    max_changes: int = 200


@dataclass(frozen=True)
class InputConfig:
    max_line_bytes: int = 64 * 1024 * 1024
    max_depth: int = 64
    max_text_chars: int = 1_000_000


@dataclass(frozen=True)
class LLMConfig:
    """``[llm]``: how ``evaltools judge --llm`` asks an LLM judge (see ``docs/judge.md``)."""

    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 2048
    response_format: str = "json_schema"
    concurrency: int = 4
    requests_per_minute: int = 60
    timeout: float = 60.0
    total_timeout: float = 300.0
    max_retries: int = 4
    backoff_base: float = 1.0
    backoff_max: float = 30.0
    parse_retries: int = 1
    #: ``(model, USD per million input tokens, USD per million output tokens)``, from
    #: ``[llm.prices]``; a tuple so that a configuration stays hashable.
    prices: tuple[tuple[str, float, float], ...] = ()

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
}

#: The accepted range of every numeric setting, inclusive (documented in
#: ``default_config.toml``). Weights and thresholds are shares in [0, 1]; sizes
#: and windows are bounded so that a typo cannot ask for gigabytes.
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("relevance", "weight_cosine"): (0.0, 1.0),
    ("relevance", "weight_jaccard"): (0.0, 1.0),
    ("relevance", "fail_below"): (0.0, 1.0),
    ("completeness", "warn_below"): (0.0, 1.0),
    ("hallucination", "fail_above"): (0.0, 1.0),
    ("hallucination", "high_risk_above"): (0.0, 1.0),
    ("hallucination", "number_context_window"): (1, 200),
    ("hallucination", "claim_min_share"): (0.0, 1.0),
    ("hallucination", "claim_rare_above"): (0.0, 1.0),
    ("hallucination", "claim_head_rare_above"): (0.0, 1.0),
    ("drift", "ngram"): (1, 10),
    ("drift", "overlap_below"): (0.0, 1.0),
    ("drift", "penalty"): (0.0, 1.0),
    ("batch", "chunk_size"): (1, 100_000),
    ("batch", "cache_texts"): (1, 1_000_000),
    ("relevance", "answer_type_max_words"): (1, 1000),
    ("hallucination", "claim_window"): (0, 5),
    ("alerts", "kappa_below"): (-1.0, 1.0),
    ("alerts", "module_fail_rate_above"): (0.0, 1.0),
    ("input", "max_line_bytes"): (1024, 1024 ** 3),
    ("input", "max_depth"): (2, 500),
    ("input", "max_text_chars"): (1, 1_000_000),
    ("grounding", "rarity_power"): (0.0, 100.0),
    ("grounding", "number_weight"): (0.0, 1.0),
    ("grounding", "scattered_credit"): (0.0, 1.0),
    ("grounding", "adjacency_window"): (0, 200),
    ("grounding", "adjacency_credit"): (0.0, 1.0),
    ("grounding", "personal_weight"): (0.0, 1.0),
    ("grounding", "derived_credit"): (0.0, 1.0),
    ("grounding", "reasons_max"): (1, 100),
    ("compare", "tolerance"): (0.0, 1.0),
    ("compare", "max_changes"): (1, 100_000),
    ("grounding", "span_threshold"): (0.0, 1.0),
    ("grounding", "span_merge_words"): (0, 100),
    ("llm", "temperature"): (0.0, 2.0),
    ("llm", "seed"): (0, 2**31 - 1),
    ("llm", "max_tokens"): (16, 1_000_000),
    ("llm", "concurrency"): (1, 256),
    ("llm", "requests_per_minute"): (1, 1_000_000),
    ("llm", "timeout"): (0.01, 86_400.0),
    ("llm", "total_timeout"): (0.01, 86_400.0),
    ("llm", "max_retries"): (0, 20),
    ("llm", "backoff_base"): (0.0, 600.0),
    ("llm", "backoff_max"): (0.0, 3600.0),
    ("llm", "parse_retries"): (0, 5),
}

#: The values ``[llm] response_format`` accepts.
RESPONSE_FORMATS = ("json_schema", "json_object", "none")


@dataclass(frozen=True)
class Config:
    """All thresholds and weights, grouped by the spec section they belong to."""

    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    relevance: RelevanceConfig = field(default_factory=RelevanceConfig)
    completeness: CompletenessConfig = field(default_factory=CompletenessConfig)
    hallucination: HallucinationConfig = field(default_factory=HallucinationConfig)
    grounding: GroundingConfig = field(default_factory=GroundingConfig)
    drift: DriftConfig = field(default_factory=DriftConfig)
    batch: BatchConfig = field(default_factory=BatchConfig)
    alerts: AlertsConfig = field(default_factory=AlertsConfig)
    input: InputConfig = field(default_factory=InputConfig)
    compare: CompareConfig = field(default_factory=CompareConfig)
    llm: LLMConfig = field(default_factory=LLMConfig)

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
    cfg = dataclasses.replace(base, **changes)
    rel = cfg.relevance
    if rel.reference not in ("query", "auto"):
        raise ConfigError(f"{source}: [relevance] reference must be \"query\" or \"auto\". "
                          f"Got {shorten(rel.reference)} instead.")
    if rel.instruction not in ("query", "topical"):
        raise ConfigError(f"{source}: [relevance] instruction must be \"query\" or \"topical\". "
                          f"Got {shorten(rel.instruction)} instead.")
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


@functools.lru_cache(maxsize=1)
def _default_config() -> Config:
    return _overlay(Config(), tomllib.loads(default_config_text()), source="default_config.toml")


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
