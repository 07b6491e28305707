"""Scoring whole tables: validation, chunked streaming, one parse per distinct text.

Records are read in chunks of ``config.batch.chunk_size``; within a chunk
every distinct query, context and response text not seen recently is parsed
once with ``nlp.pipe`` (a context shared by many responses is parsed once),
so memory is bounded by one chunk plus a bounded feature cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

from evaltools.config import DEFAULT_CONFIG, Config
from evaltools.errors import InputError, shorten
from evaltools.io import Unreadable, require_text
from evaltools.scoring.combine import score_features
from evaltools.scoring.context import read_context
from evaltools.scoring.features import FeatureCache
from evaltools.scoring.relevance import CorpusTfidf
from evaltools.scoring.result import ScoreResult
from evaltools.text import load_pipeline
from evaltools.values import is_record_id

REQUIRED = ("query", "context", "response")


def validate_record(record: Any, *, source: str, line: int, unit: str = "line",
                    max_chars: int | None = None, read_json: bool = True,
                    read_length: Callable[[str], int] | None = None,
                    ) -> tuple[str, str, str]:
    """The record's (query, context, response), or an InputError naming where and what.

    Each must be text (no lone surrogates) of at most ``max_chars`` characters
    (default: the ``[input] max_text_chars`` setting, 1,000,000 — the longest
    text the spaCy parser takes in one piece). A longer text makes the record
    invalid; ``--skip-invalid`` then records it with ``error`` set. The limit
    holds for the text parsed: a JSON context is measured as it is read
    (flattened to key/value text, which may be longer than the JSON), by
    ``read_length`` when given (:meth:`FeatureCache.read_length`, which reads
    each context once for validation and parsing alike).

    Examples
    --------
    >>> validate_record({"query": "q", "context": "", "response": "r"}, source="a.jsonl", line=3)
    ('q', '', 'r')
    >>> validate_record({"query": "q", "context": ""}, source="a.jsonl", line=3)
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: a.jsonl line 3: field 'response' is missing (required: ...);
    columns read: query, context
    """
    if not isinstance(record, Mapping):
        raise InputError(f"a record must be an object, got {type(record).__name__}",
                         source=source, line=line, unit=unit)
    if max_chars is None:
        max_chars = DEFAULT_CONFIG.input.max_text_chars
    q, c, r = (require_text(record, f, source=source, line=line, unit=unit,
                            required=REQUIRED, max_chars=max_chars, suggest_map=True)
               for f in REQUIRED)
    parsed = (read_length(c) if read_length is not None
              else len(read_context(c, read_json=read_json).text))
    if parsed > max_chars:
        raise InputError(f"field 'context' is read as {parsed:,} characters of text (its JSON "
                         f"flattened); the limit is {max_chars:,} (the [input] max_text_chars "
                         f"setting)", source=source, line=line, field="context", unit=unit)
    return q, c, r


def _chunks(it: Iterable, size: int, first: int = 32) -> Iterator[list]:
    """Lists of up to ``size`` items; the first ones smaller (``first``, doubling).

    Small first chunks give a progress bar its first rate and time left after
    a fraction of a second; results do not depend on chunking.

    >>> [len(c) for c in _chunks(range(300), 128)]
    [32, 64, 128, 76]

    A reader error (an unreadable line) met while filling a chunk comes after the
    records read before it: they are yielded first, so an earlier record's bad field
    is reported before a later line's invalid JSON.
    """
    iterator = iter(it)
    n = min(first, size)
    while True:
        chunk: list = []
        try:
            chunk.extend(islice(iterator, n))
        except InputError:
            if chunk:
                yield chunk
            raise
        if not chunk:
            return
        yield chunk
        n = min(2 * n, size)


def score_stream(numbered: Iterable[tuple[int, Mapping[str, Any]]], *,
                 cache: FeatureCache | None = None, config: Config | None = None,
                 nlp=None, source: str = "<records>", unit: str = "line",
                 skip_invalid: bool = False, tfidf: CorpusTfidf | None = None, start: int = 1,
                 calibration=None) -> Iterator[tuple[int, Mapping[str, Any], ScoreResult]]:
    """Yield ``(line, record, result)`` for ``(line, record)`` pairs, in order.

    A record that breaks the contract raises :class:`InputError`, or, with
    ``skip_invalid``, yields a result whose ``error`` names the problem.
    A record without ``id`` gets its 1-based record number; ``start`` is the
    number of the first record when the stream is one part of a larger input
    (:mod:`evaltools.dask` scores partitions this way).

    The config travels once: give a ``cache`` (features derived under its
    config, which the scorers then read) or a ``config`` and ``nlp``, not
    both. :class:`evaltools.scoring.scorer.ResponseScorer` passes its cache.
    ``calibration`` (a :class:`~evaltools.scoring.probability.LearnedCalibration`)
    decides rule 1 when ``hallucination.verdict_from = "probability"`` (the
    shipped one when None).
    """
    if cache is None:
        config = config if config is not None else DEFAULT_CONFIG
        cache = FeatureCache(nlp if nlp is not None else load_pipeline(config), config)
    elif config is not None or nlp is not None:
        raise TypeError("score_stream takes a cache or a config and nlp, not both: the "
                        "cache derives features under its own config")
    config = cache.config
    ordinal = start - 1
    for chunk in _chunks(numbered, config.batch.chunk_size):
        checked = []
        for line, rec in chunk:
            ordinal += 1
            if isinstance(rec, Unreadable):  # read under skip_invalid: not a record at all
                checked.append((line, {}, ordinal, None, rec.message))
                continue
            rid = rec.get("id", ordinal) if isinstance(rec, Mapping) else ordinal
            try:
                if not is_record_id(rid):  # the CLI's readers never give one; the API may
                    bad, rid = rid, ordinal
                    raise InputError(f"field 'id' must be text or a finite number, got "
                                     f"{shorten(bad)}", source=source, line=line, field="id",
                                     unit=unit)
                texts = validate_record(rec, source=source, line=line, unit=unit,
                                        max_chars=config.input.max_text_chars,
                                        read_length=cache.read_length)
            except InputError as exc:
                if not skip_invalid:
                    raise
                checked.append((line, rec, rid, None, exc.message))
                continue
            checked.append((line, rec, rid, texts, None))
        cache.prepare((role, text) for *_, texts, _ in checked if texts
                      for role, text in zip(FeatureCache.ROLES, texts, strict=True))
        features = [(cache.get("query", texts[0]), cache.get("context", texts[1]),
                     cache.get("response", texts[2])) if texts else None
                    for *_, texts, _ in checked]
        for (line, rec, rid, texts, error), feats in zip(checked, features, strict=True):
            if feats is None:
                yield line, rec, ScoreResult(id=rid, error=error)
                continue
            yield line, rec, score_features(
                rid, *feats, config=config, tfidf=tfidf, calibration=calibration,
                given=texts[2], given_context=texts[1])


def output_record(record: Mapping[str, Any], result: ScoreResult, calibration=None
                  ) -> dict[str, Any]:
    """The record as ``evaltools score`` writes it: its own fields, then the result's.

    With a ``calibration`` (:func:`evaltools.scoring.probability.load_calibration`),
    ``hallucination_probability`` is added (None for an invalid record).
    """
    out = {**record, **result.to_dict()}
    if calibration is not None:
        out["hallucination_probability"] = (
            None if result.error else calibration.probability(out))
    return out
