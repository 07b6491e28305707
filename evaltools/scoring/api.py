"""The Python API of response scoring: one record, an iterable of records, a DataFrame.

Each function delegates to a :class:`~evaltools.scoring.scorer.ResponseScorer`:
the cached default one when no ``config``, ``nlp`` or ``tfidf`` is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from evaltools.config import Config
from evaltools.scoring.relevance import CorpusTfidf
from evaltools.scoring.result import ScoreResult
from evaltools.scoring.scorer import ResponseScorer, default_scorer, scorer_for


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
