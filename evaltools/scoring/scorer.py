"""``ResponseScorer``: the pipeline, the feature cache and the config, owned once.

Every way of scoring goes through one object: :func:`score`,
:func:`score_records` and :func:`score_frame` (``evaltools.score``...) use a
cached default instance when no ``config``, ``nlp`` or ``tfidf`` is given; the CLI, the
report, the widgets and the benchmarks build one from their config. The
config travels once: the feature cache derives features under the same
config the scorers read (a cache built under one config and scored under
another used to index features that were never derived).

Examples
--------
>>> scorer = ResponseScorer()
>>> scorer.score("What does the mug cost?", "The mug costs $5.", "The mug costs $7.").verdict
'FAIL'
>>> [r.verdict for r in scorer.score_records(
...     [{"query": "What does the mug cost?", "context": "The mug costs $5.",
...       "response": "The mug costs $5."}])]
['PASS']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from evaltools.arguments import check_type
from evaltools.config import DEFAULT_CONFIG, Config
from evaltools.io import map_columns, parse_column_map
from evaltools.scoring.features import FeatureCache
from evaltools.scoring.relevance import CorpusTfidf
from evaltools.scoring.result import OUTPUT_FIELDS, ScoreResult
from evaltools.scoring.stream import score_stream
from evaltools.text import load_pipeline


class ResponseScorer:
    """Scores responses under one config with one pipeline and one feature cache.

    Parameters
    ----------
    config : Config, optional
        Thresholds and weights; the shipped defaults when None.
    nlp : spacy.Language, optional
        A loaded English pipeline; the one the config names (loaded once per
        process) when None, on first use.
    tfidf : CorpusTfidf, optional
        A TF-IDF model fitted on a corpus; by default idf is fitted per pair.
    calibration : LearnedCalibration, optional
        Decides the verdict's hallucination rule when the config's
        ``hallucination.verdict_from`` is ``"probability"`` (the shipped
        calibration when None).

    Notes
    -----
    The feature cache is bounded (``config.batch``) and shared by every call,
    so a context scored twice is parsed once.
    """

    def __init__(self, config: Config | None = None, nlp: Any = None,
                 tfidf: CorpusTfidf | None = None, calibration: Any = None):
        check_type(config, "config", "ResponseScorer", Config, "a Config", optional=True)
        self.config = config if config is not None else DEFAULT_CONFIG
        self._nlp = nlp
        self.tfidf = tfidf
        self.calibration = calibration
        self._cache: FeatureCache | None = None

    @property
    def nlp(self):
        """The spaCy pipeline (loaded on first use)."""
        if self._nlp is None:
            self._nlp = load_pipeline(self.config)
        return self._nlp

    @property
    def cache(self) -> FeatureCache:
        """The feature cache, built under this scorer's config."""
        if self._cache is None:
            self._cache = FeatureCache(self.nlp, self.config)
        return self._cache

    def stream(self, numbered: Iterable[tuple[int, Mapping[str, Any]]], *,
               source: str = "<records>", unit: str = "line", skip_invalid: bool = False,
               start: int = 1) -> Iterator[tuple[int, Mapping[str, Any], ScoreResult]]:
        """Yield ``(line, record, result)`` for ``(line, record)`` pairs, in order.

        See :func:`evaltools.scoring.stream.score_stream` (validation, chunking,
        ``skip_invalid``, ``start``).
        """
        return score_stream(numbered, cache=self.cache, source=source, unit=unit,
                            skip_invalid=skip_invalid, tfidf=self.tfidf, start=start,
                            calibration=self.calibration)

    def score(self, query: str, context: str, response: str, *, id: Any = 1) -> ScoreResult:
        """Score one response against its query and context (see :func:`evaltools.score`)."""
        for name, value in (("query", query), ("context", context), ("response", response)):
            check_type(value, name, "score", str, "a str")
        rec = {"query": query, "context": context, "response": response, "id": id}
        ((_, _, result),) = self.stream([(1, rec)])
        return result

    def score_records(self, records: Iterable[Mapping[str, Any]], *,
                      skip_invalid: bool = False, source: str = "<records>",
                      unit: str = "record", columns: Mapping[str, str] | None = None,
                      ) -> Iterator[ScoreResult]:
        """Score many records lazily (numbered 1, 2, ...); see :func:`evaltools.score_records`."""
        numbered = map_columns(enumerate(records, start=1), parse_column_map(
            columns, source="columns"))
        for _, _, result in self.stream(numbered, source=source,
                                        unit=unit, skip_invalid=skip_invalid):
            yield result

    def score_frame(self, df, *, skip_invalid: bool = False,
                    columns: Mapping[str, str] | None = None):
        """A copy of ``df`` with every output field as a column (:func:`evaltools.score_frame`)."""
        import pandas as pd

        records = df.to_dict("records")
        rows = [r.to_dict() for r in self.score_records(records, skip_invalid=skip_invalid,
                                                         source="<DataFrame>", unit="row",
                                                         columns=columns)]
        out = pd.DataFrame(rows, columns=list(OUTPUT_FIELDS), index=df.index)
        keep = [c for c in df.columns if c not in out.columns or c == "id"]
        return pd.concat([df[keep].drop(columns=["id"], errors="ignore"), out], axis=1)


@functools.lru_cache(maxsize=1)
def default_scorer() -> ResponseScorer:
    """The process's scorer under the default config (what ``evaltools.score`` uses)."""
    return ResponseScorer()


def scorer_for(config: Config | None = None, nlp: Any = None,
               tfidf: CorpusTfidf | None = None) -> ResponseScorer:
    """The default scorer when nothing is given, else a new one for these settings."""
    if config is None and nlp is None and tfidf is None:
        return default_scorer()
    return ResponseScorer(config, nlp, tfidf)


def score(query: str, context: str, response: str, *, config: Config | None = None,
          nlp=None, tfidf: CorpusTfidf | None = None, id: Any = 1) -> ScoreResult:
    """Score one response against its query and context.

    Parameters
    ----------
    query, context, response : str
        The shopper's question, the text the answer must be grounded in (may
        be empty: every anchor is then unsupported), and the answer.
    config : Config, optional
        Thresholds and weights; :func:`evaltools.config.load_config` by default.
    nlp : spacy.Language, optional
        A loaded English pipeline, to compare alternatives; loaded once by default.
    tfidf : CorpusTfidf, optional
        A TF-IDF model fitted on a corpus; by default idf is fitted on the pair.

    Examples
    --------
    >>> r = score("How much does the Yeti Rambler 20 oz cost?",
    ...           "The Yeti Rambler 20 oz tumbler costs $35.00 and ships in 2 days.",
    ...           "The Yeti Rambler 20 oz costs $29.99.")
    >>> r.verdict, r.anchors_unsupported, [a.text for a in r.unsupported()]
    ('FAIL', 1, ['$29.99'])
    """
    return scorer_for(config, nlp, tfidf).score(query, context, response, id=id)


def score_records(records: Iterable[Mapping[str, Any]], *, config: Config | None = None,
                  nlp=None, tfidf: CorpusTfidf | None = None,
                  skip_invalid: bool = False,
                  columns: Mapping[str, str] | None = None) -> Iterator[ScoreResult]:
    """Score many records lazily; each distinct text is parsed once.

    A record breaking the contract raises ``InputError`` naming its 1-based
    number and field, or with ``skip_invalid`` gets a result with ``error``.
    ``columns`` maps fields named otherwise: ``{"question": "query"}``.

    Examples
    --------
    >>> q, c = "What does the mug cost?", "The mug costs $5."
    >>> recs = [{"id": "a", "query": q, "context": c, "response": "The mug costs $5."},
    ...         {"id": "b", "query": q, "context": c, "response": "The mug costs $7."}]
    >>> [(r.id, r.verdict) for r in score_records(recs)]
    [('a', 'PASS'), ('b', 'FAIL')]
    """
    yield from scorer_for(config, nlp, tfidf).score_records(records, skip_invalid=skip_invalid,
                                                            columns=columns)


def score_frame(df, *, config: Config | None = None, nlp=None,
                tfidf: CorpusTfidf | None = None, skip_invalid: bool = False,
                columns: Mapping[str, str] | None = None):
    """A copy of ``df`` with every output field as a column (one row per record).

    Output columns replace input columns of the same name; nested fields
    (``anchors``, ``keywords``, ``reasons``) are Python lists. ``columns``
    maps columns named otherwise to fields, as ``--map`` does:
    ``score_frame(df, columns={"question": "query", "answer": "response"})``
    (or ``"question=query,answer=response"``).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"query": ["What does the mug cost?"],
    ...                    "context": ["The mug costs $5."], "response": ["The mug costs $5."]})
    >>> score_frame(df)[["verdict", "hallucination"]].to_dict("records")
    [{'verdict': 'PASS', 'hallucination': 0.0}]
    """
    return scorer_for(config, nlp, tfidf).score_frame(df, skip_invalid=skip_invalid,
                                                      columns=columns)


__all__ = ["ResponseScorer", "default_scorer", "score", "score_frame", "score_records"]
