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
}


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

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {
            name: {k: list(v) if isinstance(v, tuple) else v
                   for k, v in dataclasses.asdict(getattr(self, name)).items()}
            for name in _SECTIONS
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
            updates[key] = _coerce(section, key, known[key], value, source)
        changes[section] = dataclasses.replace(current, **updates)
    cfg = dataclasses.replace(base, **changes)
    rel = cfg.relevance
    if rel.reference not in ("query", "auto"):
        raise ConfigError(f"{source}: [relevance] reference must be \"query\" or \"auto\". "
                          f"Got {shorten(rel.reference)} instead.")
    if abs(rel.weight_cosine + rel.weight_jaccard - 1.0) > 1e-9:
        raise ConfigError(
            f"{source}: [relevance] weight_cosine + weight_jaccard must be 1. "
            f"Got {rel.weight_cosine} + {rel.weight_jaccard} instead."
        )
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
