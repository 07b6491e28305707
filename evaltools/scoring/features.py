"""What the scorers need from each text, derived once from its parse.

A context is parsed as :mod:`evaltools.scoring.reader` reads it (JSON
records as key/value text), so ``ContextFeatures.text`` and every evidence
offset index the read text.

Features hold plain Python data (no spaCy objects), so a context shared by
many responses is parsed once and its features reused from a bounded cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass

from evaltools.config import Config
from evaltools.scoring.anchors.claims import Claim, ContextIndex, extract_claims
from evaltools.scoring.anchors.mentions import Mention, find_mentions
from evaltools.scoring.matcher import SentenceIndex, Word, sentence_spans, words_of
from evaltools.scoring.reader import read_context
from evaltools.scoring.relevance import asked_type, is_instruction
from evaltools.text import content_lemmas, is_content_word, keywords, looks_english, ngrams, words


@dataclass(frozen=True)
class QueryFeatures:
    tokens: tuple[str, ...]
    keywords: tuple[str, ...]
    mentions: tuple[Mention, ...] = ()
    instruction: bool = False  # an instruction, not a question (relevance.reference = "auto")
    asks: str | None = None  # the answer type a question asks for (relevance.answer_type)
    keys: frozenset[str] = frozenset()  # matcher keys of its content words (grounding)
    english: bool = True  # evaltools.text.looks_english (a warning, never a score)


@dataclass(frozen=True)
class ResponseFeatures:
    tokens: tuple[str, ...]
    words: tuple[str, ...]
    mentions: tuple[Mention, ...]
    claims: tuple[Claim, ...]
    # per mention, the content lemmas near it (config hallucination.number_context); else ()
    near: tuple[frozenset[str], ...] = ()
    proper_nouns: int = 0  # for the answer-type check (relevance.answer_type)
    units: tuple[Word, ...] = ()  # the matcher's words (grounding)
    sentences: tuple[tuple[int, int], ...] = ()  # character spans of its sentences
    text: str = ""
    english: bool = True  # evaltools.text.looks_english (a warning, never a score)


@dataclass(frozen=True)
class ContextFeatures:
    text: str
    index: ContextIndex
    mentions: tuple[Mention, ...]
    ngrams_by_n: dict[int, frozenset[int]]  # hashes of the word n-grams (small to cache)
    near: tuple[frozenset[str], ...] = ()  # as for the response
    lemmas: frozenset[str] = frozenset()  # every content lemma (with number_context only)
    tokens: tuple[str, ...] = ()  # content lemmas in order (relevance.reference = "auto")
    sentences: SentenceIndex | None = None  # the matcher's sentence index (grounding)
    structured: bool = False  # read from a JSON record (scoring.reader)


def mention_neighbours(doc, mentions, window: int) -> tuple[frozenset[str], ...]:
    """For each mention, the content lemmas within ``window`` words of it, same sentence.

    Words inside the mention and numbers are left out, so "$29.99 and 2 days"
    gives each amount the words around it, not the other amount.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> doc = load_pipeline()("Founded in 2006 in Austin. The Tundra came out in 2008.")
    >>> [sorted(n) for n in mention_neighbours(doc, find_mentions(doc.text), 4)]
    [['austin', 'found'], ['come', 'tundra']]
    """
    out = []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            out.append(frozenset())
            continue
        sent = span.sent if doc.has_annotation("SENT_START") else doc[:]
        lo = max(sent.start, span.start - window)
        hi = min(sent.end, span.end + window)
        near = {t.lemma_.lower() for t in (*doc[lo:span.start], *doc[span.end:hi])
                if is_content_word(t) and not t.like_num}
        out.append(frozenset(near))
    return tuple(out)


def _name_like(tok) -> bool:
    """A proper noun, or a capitalised word that is not a stop word ("Yeti." alone is
    often tagged as a common noun)."""
    return tok.pos_ == "PROPN" or (tok.is_alpha and tok.is_title and not tok.is_stop)


def query_features(doc, config: Config) -> QueryFeatures:
    keys = frozenset(f for w in words_of(doc) if w.content for f in w.forms)
    return QueryFeatures(tuple(content_lemmas(doc)),
                         tuple(keywords(doc, config.completeness.keyword_pos)),
                         tuple(find_mentions(doc.text)),
                         is_instruction(doc, config.relevance.instruction_verbs),
                         asked_type(doc.text), keys, looks_english(doc.text))


def response_features(doc, config: Config | None = None) -> ResponseFeatures:
    mentions = tuple(find_mentions(doc.text))
    hall = config.hallucination if config is not None else None
    near = (mention_neighbours(doc, mentions, hall.number_context_window)
            if hall is not None and hall.number_context else ())
    return ResponseFeatures(tuple(content_lemmas(doc)), tuple(words(doc)), mentions,
                            tuple(extract_claims(doc, mentions=mentions)), near,
                            sum(_name_like(t) for t in doc),
                            tuple(words_of(doc)), sentence_spans(doc), doc.text,
                            looks_english(doc.text))


def context_features(doc, config: Config, structured: bool = False) -> ContextFeatures:
    ws = words(doc)
    by_n = {n: frozenset(map(hash, ngrams(ws, n))) for n in range(1, config.drift.ngram + 1)}
    mentions = tuple(find_mentions(doc.text))
    hall = config.hallucination
    tokens = tuple(content_lemmas(doc)) if config.relevance.reference == "auto" else ()
    near, lemmas = ((mention_neighbours(doc, mentions, hall.number_context_window),
                     frozenset(content_lemmas(doc))) if hall.number_context
                    else ((), frozenset()))
    index = ContextIndex(doc, mentions, words_of(doc))  # claims and grounding share its words
    return ContextFeatures(doc.text, index, mentions, by_n, near, lemmas, tokens,
                           index.sentences, structured)


def _memory_zone(nlp):
    """``nlp.memory_zone()`` (spaCy >= 3.8), or a no-op for older pipelines."""
    zone = getattr(nlp, "memory_zone", None)
    return zone() if zone is not None else nullcontext()


class _LRU(OrderedDict):
    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def put(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.maxsize:
            self.popitem(last=False)


class FeatureCache:
    """Features by role and text; parses only texts it has not seen, each once.

    Bounded, so memory stays flat on large files: ``config.batch.cache_texts``
    queries and as many contexts (the texts that repeat across a file), and
    one chunk of responses.
    """

    ROLES = ("query", "context", "response")

    def __init__(self, nlp, config: Config):
        self.nlp = nlp
        self.config = config
        shared = config.batch.cache_texts
        self._caches = {"query": _LRU(shared), "context": _LRU(shared),
                        "response": _LRU(config.batch.chunk_size)}
        self.parsed = 0  # distinct texts parsed so far, for benchmarks and tests

    def prepare(self, items: Iterable[tuple[str, str]]) -> None:
        """Parse, in one ``nlp.pipe`` call, every (role, text) not cached yet.

        A context is parsed as :func:`~evaltools.scoring.reader.read_context`
        reads it (a JSON record as key/value text); features are cached under
        the text as given.
        """
        needed: dict[str, list] = {}  # parsed text -> (role, given text, structured)
        read_json = self.config.context.read_json
        for role, text in items:
            cache = self._caches[role]
            if text in cache:
                cache.move_to_end(text)
                continue
            read = read_context(text, read_json=read_json) if role == "context" else None
            parsed = read.text if read is not None else text
            wanted = needed.setdefault(parsed, [])
            if all((r, t) != (role, text) for r, t, _ in wanted):
                wanted.append((role, text, read is not None and read.structured))
        if not needed:
            return
        texts = list(needed)
        # Inside a memory zone spaCy forgets the strings and lexemes these parses
        # added once the block ends, so a long run does not grow with every new
        # token; the features derived here are plain Python data that outlive it.
        with _memory_zone(self.nlp):
            for parsed, doc in zip(texts, self.nlp.pipe(texts, batch_size=64), strict=True):
                self.parsed += 1
                for role, text, structured in needed[parsed]:
                    self._caches[role].put(text, self._derive(role, doc, structured))

    def _derive(self, role: str, doc, structured: bool = False):
        if role == "query":
            return query_features(doc, self.config)
        if role == "context":
            return context_features(doc, self.config, structured)
        return response_features(doc, self.config)

    def get(self, role: str, text: str):
        cache = self._caches[role]
        if text not in cache:
            self.prepare([(role, text)])
        return cache[text]
