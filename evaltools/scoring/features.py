"""What the scorers need from each text, derived once from its parse.

A context is parsed as :mod:`evaltools.scoring.context` reads it (JSON
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
from evaltools.scoring.anchors.claims import Claim, extract_claims
from evaltools.scoring.anchors.context_index import ContextIndex
from evaltools.scoring.anchors.implied import implied_mentions
from evaltools.scoring.anchors.mentions import Mention, find_mentions
from evaltools.scoring.anchors.own_counts import own_counts
from evaltools.scoring.anchors.schedule import Week
from evaltools.scoring.context import ReadContext, has_reviews, parsed_text, read_context
from evaltools.scoring.matcher import SentenceIndex, Word, sentence_spans, words_of
from evaltools.scoring.relevance import asked_type, is_chat_turn, is_instruction
from evaltools.scoring.sources import site_names, source_spans
from evaltools.text import (
    bounded_runs,
    content_lemmas,
    doc_text,
    is_content_word,
    keywords,
    looks_english,
    ngrams,
    topic_keywords,
    words,
)


@dataclass(frozen=True)
class QueryFeatures:
    tokens: tuple[str, ...]
    keywords: tuple[str, ...]
    mentions: tuple[Mention, ...] = ()
    instruction: bool = False  # an instruction, not a question (relevance.reference = "auto")
    asks: str | None = None  # the answer type a question asks for (relevance.answer_type)
    keys: frozenset[str] = frozenset()  # matcher keys of its content words (grounding)
    text: str = ""
    # an instruction's topical words and keywords (relevance.instruction = "topical"): its
    # content lemmas that are neither task words nor its verb; () for a question
    topical: tuple[str, ...] = ()
    topical_keywords: tuple[str, ...] = ()
    english: bool = True  # evaltools.text.looks_english (a warning, never a score)
    # a turn of a conversation, not a question about the context (relevance.chat_turn)
    chat: str = ""  # "statement", "question" or ""
    # the keywords of what a question is about: its noun phrases holding a name
    # (completeness.referred; text.topic_keywords)
    topic: tuple[str, ...] = ()


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
    # abstaining sentences and attribution phrases (evaltools.scoring.sources): not checked
    about_sources: tuple[tuple[int, int], ...] = ()
    # the words outside them (the detector's novelty signals); ``words`` when there are none
    checked_words: tuple[str, ...] = ()
    # a third-person pronoun ("it", "they"): the response may refer to what the query names
    refers: bool = False
    # (start, why) of each mention that is the response's own count ("two reasons:", "the
    # two"): shown by the anchors, not counted, left out of grounding (anchors.own_counts)
    own_counts: tuple[tuple[int, str], ...] = ()


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
    structured: bool = False  # read from a JSON record (scoring.context)
    n_words: int = 0  # words of the read text (signals)
    # content lemmas of each sentence (as the matcher numbers them), for relevance.restated_context
    sentence_lemmas: tuple[frozenset[str], ...] = ()
    # a JSON record that holds reviews (scoring.context.has_reviews): grounding gives the
    # words of who said what no weight (claims.REVIEW_FRAMING)
    reviews: bool = False
    # a JSON record's weekly opening hours (scoring.context.week_hours), or None
    week: Week | None = None
    # the web sites its passages come from, by their title lines (sources.site_names)
    sites: frozenset[str] = frozenset()


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


def _counts_task_words(toks, k: int, task: set[str]) -> bool:
    """Whether the number ``toks[k]`` counts task words: the next content word that is not a
    number either is one ("100 words", "100 - 200 words", "100 to 200 words")."""
    for t in toks[k + 1:]:
        if not t.like_num:
            return t.lower_ in task or t.lemma_.lower() in task
    return False


def topical_words(doc, task_words: Iterable[str], pos: Iterable[str]
                  ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An instruction's topical content lemmas and keywords: not its verb, not a task word.

    The first content word (the instruction's verb, "Summarise"), words of
    ``task_words`` ("article", "facts", "plain", "English") and a number
    that counts task words ("in 100 words", "100 - 200 words") name the
    task, not its topic.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> topical_words(nlp("Summarise the following news in 100 words."),
    ...               ["following", "news", "words"],
    ...               ["NOUN", "NUM"])
    ((), ())
    >>> topical_words(nlp("Summarize what the article says about the Tokyo election."),
    ...               ["article"], ["NOUN", "PROPN"])
    (('tokyo', 'election'), ('tokyo', 'election'))
    >>> topical_words(nlp("Write an overview of the record. It should be 100 - 200 words."),
    ...               ["overview", "record", "words"], ["NOUN", "NUM"])
    ((), ())
    """
    task = {w.lower() for w in task_words}
    allowed = set(pos)
    toks = [t for t in doc if is_content_word(t)]
    while toks and toks[0].lower_ in ("please", "kindly"):
        toks = toks[1:]
    lemmas: list[str] = []
    keys: dict[str, None] = {}
    for k, t in enumerate(toks):
        lemma = t.lemma_.lower()
        if k == 0 or t.lower_ in task or lemma in task:
            continue
        if t.like_num and _counts_task_words(toks, k, task):
            continue
        if t.pos_ == "VERB" and t.lemma_.lower() in ("say", "base", "use"):
            continue
        lemmas.append(lemma)
        if t.pos_ in allowed:
            keys.setdefault(lemma, None)
    return tuple(lemmas), tuple(keys)


#: What an instruction's length counts ("in 100 words", "100 - 200 words", "in 3 bullet
#: points"): a number before one of these is the response's length, not a fact.
LENGTH_UNITS = frozenset({"word", "sentence", "paragraph", "character", "line", "bullet",
                          "point"})


def length_numbers(doc, mentions: Iterable[Mention]) -> frozenset[int]:
    """The start offsets of the mentions that give the response's length: numbers that
    count a length unit (:func:`_counts_task_words` with :data:`LENGTH_UNITS`).

    A query's "100 - 200 words" then excuses no "$100" of the response as restated from
    the query.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Write 100 - 200 words about the $100 mug in 3 points.")
    >>> sorted(length_numbers(doc, find_mentions(doc.text)))
    [6, 12, 44]
    """
    toks = [t for t in doc if is_content_word(t)]
    counting = [t.idx for k, t in enumerate(toks)
                if t.like_num and _counts_task_words(toks, k, LENGTH_UNITS)]
    return frozenset(m.start for m in mentions
                     if any(m.start <= i < m.end for i in counting))


def _facts(doc) -> tuple[Mention, ...]:
    """The query's numbers and dates, without those that give the response's length."""
    mentions = find_mentions(doc_text(doc))
    length = length_numbers(doc, mentions)
    return tuple(m for m in mentions if m.start not in length)


def query_features(doc, config: Config) -> QueryFeatures:
    keys = frozenset(f for w in words_of(doc) if w.content for f in w.forms)
    instruction = is_instruction(doc, config.relevance.instruction_verbs)
    topical, topical_keys = (topical_words(doc, config.relevance.task_words,
                                           config.completeness.keyword_pos)
                             if instruction else ((), ()))
    ccfg = config.completeness
    topic = (tuple(topic_keywords(doc, ccfg.keyword_pos))
             if ccfg.referred and not instruction else ())
    text = doc_text(doc)
    return QueryFeatures(tuple(content_lemmas(doc)),
                         tuple(keywords(doc, ccfg.keyword_pos)),
                         _facts(doc), instruction,
                         asked_type(text), keys, text, topical, topical_keys,
                         looks_english(text), is_chat_turn(doc, instruction), topic)


def sentence_lemmas(doc) -> tuple[frozenset[str], ...]:
    """The content lemmas of each sentence, numbered as the matcher numbers them.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> [sorted(s) for s in sentence_lemmas(load_pipeline()("The mug costs $5. It is red."))]
    [['5', 'cost', 'mug'], ['red']]
    """
    if not doc.has_annotation("SENT_START"):
        return (frozenset(content_lemmas(doc)),)
    return tuple(frozenset(t.lemma_.lower() for t in s if is_content_word(t)) for s in doc.sents)


#: Pronouns by which a response refers to what the query names ("It holds 16 ounces").
REFERRING_PRONOUNS = frozenset({"it", "its", "itself", "they", "them", "their", "theirs"})


def response_features(doc, config: Config | None = None) -> ResponseFeatures:
    text = doc_text(doc)
    mentions = tuple(find_mentions(text))
    hall = config.hallucination if config is not None else None
    near = (mention_neighbours(doc, mentions, hall.number_context_window)
            if hall is not None and hall.number_context else ())
    sents = sentence_spans(doc)
    about = source_spans(text, sents)
    ws = tuple(words(doc))
    matcher_words = tuple(words_of(doc))  # one pass, shared with the claims
    return ResponseFeatures(tuple(content_lemmas(doc)), ws, mentions,
                            tuple(extract_claims(doc, mentions=mentions, words=matcher_words)),
                            near, sum(_name_like(t) for t in doc),
                            matcher_words, sents, text,
                            looks_english(text), about,
                            tuple(words(doc, outside=about)) if about else ws,
                            any(t.lower_ in REFERRING_PRONOUNS for t in doc),
                            own_counts(text, mentions))


def context_features(doc, config: Config, structured: bool = False,
                     week: tuple[tuple[str, int, int], ...] = ()) -> ContextFeatures:
    ws = words(doc)
    # n-grams up to the drift gate's n, and up to 3 for the detector's novelty signals
    by_n = {n: frozenset(map(hash, ngrams(ws, n)))
            for n in range(1, max(config.drift.ngram, 3) + 1)}
    # with the amounts it implies ("for a month", a list of seven names): support only
    text = doc_text(doc)
    found = find_mentions(text)
    mentions = tuple(sorted((*found, *implied_mentions(doc, found)),
                            key=lambda m: (m.start, m.end)))
    hall = config.hallucination
    rcfg = config.relevance
    tokens = (tuple(content_lemmas(doc))
              if rcfg.reference == "auto" or rcfg.chat_turn == "with_context"
              or config.completeness.referred else ())
    near, lemmas = ((mention_neighbours(doc, mentions, hall.number_context_window),
                     frozenset(content_lemmas(doc))) if hall.number_context
                    else ((), frozenset()))
    index = ContextIndex(doc, mentions, words_of(doc))  # claims and grounding share its words
    per_sentence = sentence_lemmas(doc) if config.relevance.restated_context else ()
    return ContextFeatures(text, index, mentions, by_n, near, lemmas, tokens,
                           index.sentences, structured, len(ws), per_sentence,
                           structured and has_reviews(text),
                           Week(week) if week else None, site_names(text))


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
        self._read: dict[str, ReadContext] = {}  # contexts read ahead of the next prepare()

    def read_context(self, text: str) -> ReadContext:
        """The context as the scorers read it (:func:`~evaltools.scoring.context.read_context`),
        read once per batch: a context read ahead (to measure it, :meth:`read_length`) is
        not read again by :meth:`prepare`."""
        read = self._read.get(text)
        if read is None:
            read = self._read[text] = read_context(text,
                                                   read_json=self.config.context.read_json)
        return read

    def read_length(self, text: str) -> int:
        """Characters of the context as read (the text that is parsed), without reading
        a context again that is parsed already (markup is read with every offset kept, so
        the parsed text has the read text's length)."""
        cached = self._caches["context"].get(text)
        return len(cached.text) if cached is not None else len(self.read_context(text).text)

    def prepare(self, items: Iterable[tuple[str, str]]) -> None:
        """Parse, in one ``nlp.pipe`` call, every (role, text) not cached yet.

        A context is parsed as :func:`~evaltools.scoring.context.read_context`
        reads it (a JSON record as key/value text); features are cached under
        the text as given.
        """
        needed: dict[str, list] = {}  # parsed text -> (role, given text, read context)
        for role, text in items:
            cache = self._caches[role]
            if text in cache:
                cache.move_to_end(text)
                continue
            read = self.read_context(text) if role == "context" else None
            # HTML and Markdown markup read as text, every offset kept
            parsed = parsed_text(text, role, read)
            wanted = needed.setdefault(parsed, [])
            if all((r, t) != (role, text) for r, t, _ in wanted):
                wanted.append((role, text, read))
        self._read.clear()  # read ahead for this batch only
        if not needed:
            return
        texts = list(needed)
        # Inside a memory zone spaCy forgets the strings and lexemes these parses
        # added once the block ends, so a long run does not grow with every new
        # token; the features derived here are plain Python data that outlive it.
        with _memory_zone(self.nlp):
            # the one bounded-text rule: long symbol runs broken, offsets unchanged
            docs = self.nlp.pipe((bounded_runs(t) for t in texts), batch_size=64)
            for parsed, doc in zip(texts, docs, strict=True):
                self.parsed += 1
                for role, text, read in needed[parsed]:
                    self._caches[role].put(text, self._derive(role, doc, read))

    def _derive(self, role: str, doc, read: ReadContext | None = None):
        if role == "query":
            return query_features(doc, self.config)
        if role == "context":
            return context_features(doc, self.config, read.structured, read.week)
        return response_features(doc, self.config)

    def get(self, role: str, text: str):
        cache = self._caches[role]
        if text not in cache:
            self.prepare([(role, text)])
        return cache[text]
