"""Relevance: TF-IDF cosine and token Jaccard between query and response (spec 1).

``S_rel = w_cos * S_cosine + w_jac * S_jaccard`` with both weights 0.5 by
default. Tokens are content lemmas (:func:`evaltools.text.content_lemmas`).

Two options (``[relevance]`` in the configuration; both off by default, the
spec's behaviour):

- ``reference = "auto"``: when the query is an *instruction* ("Summarize the
  following article", "Describe this business": its first word, after an
  optional "please", is one of ``instruction_verbs`` or a base-form verb at
  the root of a query that does not end in "?") or is empty, relevance is
  measured between the context and the response, by the same formula. A
  faithful summary shares few words with "Summarize this article" but many
  with the article. ``reference = "query"`` is the spec.
- ``answer_type = true``: a short response (at most ``answer_type_max_words``
  words) of the type the question asks for is not failed for relevance: a
  number to "how much/how many/how long...", a date or time to "when/what
  year", a name (a proper noun) to "who/where", yes or no to a yes/no question
  (one opening with an auxiliary verb: "Is", "Does", "Can"...). "$37.99"
  shares no word with "How much does the Yeti cost?", yet answers it.

By default the TF-IDF weights are fitted on the two texts alone (scikit-learn's
smoothed idf, ``ln((1 + n) / (1 + df)) + 1`` with n = 2, then l2
normalisation), so one record's score never depends on the rest of a batch.
:class:`CorpusTfidf` fits the idf once on a corpus instead.

The pair's cosine is computed here rather than by scikit-learn's
``TfidfVectorizer``: with two documents the idf takes two values (1 for a
token both texts hold, ``ln(3/2) + 1`` for one only one holds), and importing
scikit-learn costs a scoring run about 1.3 s at start, more than the whole
scoring of 500 records (docs/validity.md, "Fifty-fourth round"). The tests
check the two agree on random token lists. :class:`CorpusTfidf`, which fits a
corpus, still uses scikit-learn, imported when it is fitted.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from evaltools.text import doc_text

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

#: Smoothed idf of a token one of the pair's two texts holds: ``ln((1 + 2) / (1 + 1)) + 1``
#: (a token both hold: ``ln(3 / 3) + 1 = 1``).
_ONE_SIDED_IDF = math.log(1.5) + 1.0


def _identity(tokens):
    return tokens


def _cosine(matrix) -> float:
    a, b = matrix[0], matrix[1]
    value = float(a.multiply(b).sum())  # rows are l2-normalised
    return min(max(value, 0.0), 1.0)


def tfidf_cosine(query_tokens: Sequence[str], response_tokens: Sequence[str]) -> float:
    """Cosine of the TF-IDF vectors of two token lists, idf fitted on the pair.

    A token's weight is its count times its idf: 1 when both lists hold it,
    ``ln(3/2) + 1`` when one does. 0.0 when either list is empty.

    Examples
    --------
    >>> u = math.log(1.5) + 1
    >>> round(tfidf_cosine(["lid", "price"], ["lid", "steel"]), 6) == round(1 / (1 + u * u), 6)
    True
    >>> tfidf_cosine([], ["lid"])
    0.0
    """
    if not query_tokens or not response_tokens:
        return 0.0
    q, r = Counter(query_tokens), Counter(response_tokens)
    dot = sum(n * r[t] for t, n in q.items() if t in r)  # shared tokens: idf 1
    if not dot:
        return 0.0
    norm_q = math.sqrt(sum((n if t in r else n * _ONE_SIDED_IDF) ** 2 for t, n in q.items()))
    norm_r = math.sqrt(sum((n if t in q else n * _ONE_SIDED_IDF) ** 2 for t, n in r.items()))
    return min(max(dot / (norm_q * norm_r), 0.0), 1.0)


def jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    """``|A ∩ B| / |A ∪ B|`` of the token sets; 0.0 when both are empty.

    Examples
    --------
    >>> jaccard(["lid", "price", "lid"], ["lid", "steel"])
    0.3333333333333333
    >>> jaccard([], [])
    0.0
    """
    sa, sb = set(a), set(b)
    union = sa | sb
    return len(sa & sb) / len(union) if union else 0.0


@dataclass(frozen=True)
class RelevanceScore:
    relevance: float
    cosine: float
    jaccard: float

    def to_dict(self) -> dict:
        return {"relevance": self.relevance, "relevance_cosine": self.cosine,
                "relevance_jaccard": self.jaccard}


class CorpusTfidf:
    """TF-IDF fitted once on a corpus of token lists, for ``score(..., tfidf=...)``.

    Examples
    --------
    >>> model = CorpusTfidf.fit([["lid", "price"], ["lid", "steel"], ["cap"]])
    >>> 0.0 < model.cosine(["lid", "price"], ["lid", "steel"]) < 1.0
    True
    """

    def __init__(self, vectorizer: TfidfVectorizer):
        self._vectorizer = vectorizer

    @classmethod
    def fit(cls, corpus: Sequence[Sequence[str]]) -> CorpusTfidf:
        from sklearn.feature_extraction.text import TfidfVectorizer  # only a corpus fit needs it

        vec = TfidfVectorizer(analyzer=_identity, lowercase=False)
        vec.fit([list(doc) for doc in corpus] or [["_"]])
        return cls(vec)

    def cosine(self, query_tokens: Sequence[str], response_tokens: Sequence[str]) -> float:
        if not query_tokens or not response_tokens:
            return 0.0
        matrix = self._vectorizer.transform([list(query_tokens), list(response_tokens)])
        if not np.isfinite(matrix.data).all():
            return 0.0
        return _cosine(matrix)


def relevance_score(query_tokens: Sequence[str], response_tokens: Sequence[str], *,
                    weight_cosine: float = 0.5, weight_jaccard: float = 0.5,
                    tfidf: CorpusTfidf | None = None) -> RelevanceScore:
    """Spec 1: the weighted mean of TF-IDF cosine and token Jaccard.

    Examples
    --------
    >>> r = relevance_score(["lid", "price"], ["lid", "steel"])
    >>> round(r.cosine, 4), round(r.jaccard, 4), round(r.relevance, 4)
    (0.3361, 0.3333, 0.3347)
    >>> relevance_score(["lid"], ["steel"]).relevance
    0.0
    """
    if tfidf is not None:
        cos = tfidf.cosine(query_tokens, response_tokens)
    else:
        cos = tfidf_cosine(query_tokens, response_tokens)
    jac = jaccard(query_tokens, response_tokens)
    return RelevanceScore(weight_cosine * cos + weight_jaccard * jac, cos, jac)


# ------------------------------------------------------------------ options

_LEAD = ("please", "kindly")
_AUX = frozenset([
    "am", "is", "are", "was", "were", "be", "do", "does", "did", "can", "could", "will", "would",
    "shall", "should", "may", "might", "must", "has", "have", "had", "isn't", "aren't", "wasn't",
    "weren't", "doesn't", "don't", "didn't", "can't", "couldn't", "won't", "wouldn't",
    "shouldn't", "hasn't", "haven't"])
_YES_NO = frozenset({"yes", "no", "yeah", "yep", "nope"})
#: (pattern on the lower-cased query, the answer type it asks for), first match wins
_ASKS = (
    (re.compile(r"\bhow (much|many|long|old|far|big|tall|heavy|fast|large|wide|high|often|"
                r"deep|small|short|low)\b|\b(cost|costs|price|capacity|weigh|weight|percentage|"
                r"size)\b"), "number"),
    (re.compile(r"\bwhen\b|\b(what|which) (year|date|day|month|time)\b|\bwhat time\b"), "date"),
    (re.compile(r"\b(who|whom|whose|where)\b"), "name"),
)


def is_instruction(doc, verbs: Iterable[str]) -> bool:
    """Whether a parsed query is an instruction rather than a question.

    True when its first word (after "please" or "kindly") is one of ``verbs``
    (compared by lemma and by lower-cased text), or is a base-form verb
    (tag ``VB``) at the root of a query that does not end with "?".

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> verbs = ("summarize", "describe")
    >>> is_instruction(nlp("Summarize the following article."), verbs)
    True
    >>> is_instruction(nlp("Please describe this business"), verbs)
    True
    >>> is_instruction(nlp("How much does the mug cost?"), verbs)
    False
    """
    toks = [t for t in doc if not (t.is_punct or t.is_space)]
    while toks and toks[0].lower_ in _LEAD:
        toks = toks[1:]
    if not toks:
        return False
    first = toks[0]
    allowed = {v.lower() for v in verbs}
    if first.lower_ in allowed or first.lemma_.lower() in allowed:
        return True
    return (first.tag_ == "VB" and first.dep_ == "ROOT"
            and not doc_text(doc).rstrip().endswith("?"))


#: Words by which a turn speaks of its speaker or addresses its listener ("do you know...?",
#: "I didn't know that. What does it do?").
_PERSONAL = frozenset({"you", "your", "yours", "yourself", "u", "ya", "i", "me", "my", "mine",
                       "myself", "we", "us", "our", "ours"})
_WH = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})


def is_chat_turn(doc, instruction: bool) -> str:
    """Whether a parsed query is a turn of a conversation rather than a question about the
    context or an instruction: ``"statement"``, ``"question"`` or ``""`` (not a turn).

    A chat turn is not an instruction and either is a statement (it does not end with "?"
    and opens with neither a question word nor an auxiliary verb) holding a verb or an
    interjection ("i love cheerleading!", "yes I like to watch that some times"), or is a
    question in which the speaker speaks of themselves or to the listener ("I", "my", "you":
    "do you know much about it?"), or is empty (a conversation's opening turn). A question
    about a thing ("How much is the Yeti mug?") and a string of keywords ("Yeti mug
    price") are not.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> [is_chat_turn(nlp(q), False) for q in ("i love cheerleading!",
    ...  "okay cool, and his band? do you know much about it?",
    ...  "How much is the Yeti mug?", "Yeti mug price", "Why is the sky blue")]
    ['statement', 'question', '', '', '']
    >>> is_chat_turn(nlp("Summarise the article."), True), is_chat_turn(nlp(""), False)
    ('', 'statement')
    """
    if instruction:
        return ""
    toks = [t for t in doc if not (t.is_punct or t.is_space)]
    if not toks:
        return "statement"  # no query: the opening turn of a conversation
    question = (doc_text(doc).rstrip().endswith("?") or toks[0].lower_ in _WH
                or toks[0].lower_ in _AUX)
    if question:
        personal = any(t.lower_ in _PERSONAL and t.pos_ == "PRON" for t in toks)
        return "question" if personal else ""
    return "statement" if any(t.pos_ in ("VERB", "AUX", "INTJ") for t in toks) else ""


def asked_type(query: str) -> str | None:
    """The type of answer a question asks for: ``"number"``, ``"date"``, ``"name"``,
    ``"yes_no"``, or None.

    Examples
    --------
    >>> [asked_type(q) for q in ("How much is it?", "When does it ship?",
    ...  "Who makes it?", "Does it have a lid?", "What colours are there?")]
    ['number', 'date', 'name', 'yes_no', None]
    """
    text = " ".join(query.lower().split())
    for pattern, kind in _ASKS:
        if pattern.search(text):
            return kind
    first = re.match(r"[^\w']*([\w']+)", text)
    return "yes_no" if first and first.group(1) in _AUX else None


def answers_type(asks: str | None, words: Sequence[str], mention_kinds: Iterable[str],
                 proper_nouns: int, *, max_words: int) -> bool:
    """Whether a response is a short answer of the asked type.

    Parameters
    ----------
    asks : str or None
        :func:`asked_type` of the query.
    words : sequence of str
        The response's lower-cased words.
    mention_kinds : iterable of str
        The kinds of its number/date mentions (``"number"``, ``"date"``).
    proper_nouns : int
        How many proper nouns it has.
    max_words : int
        Longer responses are not short answers.

    Examples
    --------
    >>> answers_type("number", ["37.99"], ["number"], 0, max_words=6)
    True
    >>> answers_type("yes_no", ["yes"], [], 0, max_words=6)
    True
    >>> answers_type("date", ["soon"], [], 0, max_words=6)
    False
    >>> answers_type("name", ["yeti", "makes", "it"], [], 1, max_words=2)
    False
    """
    if asks is None or not words or len(words) > max_words:
        return False
    kinds = set(mention_kinds)
    if asks == "number":
        return "number" in kinds
    if asks == "date":
        return "date" in kinds
    if asks == "name":
        return proper_nouns > 0
    return words[0] in _YES_NO


_MORE_THAN_ONE_ASK = re.compile(r"\b(?:and|or|as well as|also)\b|[,;]|\?.*\?", re.DOTALL)


def answers_single_ask(query: str, asks: str | None, words: Sequence[str],
                       mention_kinds: Iterable[str]) -> bool:
    """Whether a question that asks one thing (no *and*, *or*, list or second question)
    for a number, a date or a yes/no is answered with a value of that type: a number or
    date mention, or a first word *yes*/*no* (config ``completeness.answered``). Such an
    answer leaves nothing asked that completeness could find missing.

    Examples
    --------
    >>> answers_single_ask("How long does the battery last?", "number", ["up", "to", "70"],
    ...                    ["number"])
    True
    >>> answers_single_ask("What's the price and how many cans does it hold?", "number",
    ...                    ["it", "costs", "250"], ["number"])
    False
    >>> answers_single_ask("Is it pre-seasoned?", "yes_no", ["yes"], [])
    True
    >>> answers_single_ask("When does the deal end?", "date", ["soon"], [])
    False
    """
    if asks == "name" or _MORE_THAN_ONE_ASK.search(query.strip().lower()):
        return False
    return answers_type(asks, words, mention_kinds, 0, max_words=max(1, len(words)))


def relevance_reference(query_tokens: Sequence[str], instruction: bool,
                        context_tokens: Sequence[str], reference: str
                        ) -> tuple[tuple[str, ...], str]:
    """The tokens relevance is measured against, and which text they are.

    ``reference="query"`` (the spec): always the query. ``"auto"``: the
    context when the query is an instruction or has no content word, and the
    context has content words.

    Examples
    --------
    >>> relevance_reference(("summarize", "article"), True, ("storm", "coast"), "auto")
    (('storm', 'coast'), 'context')
    >>> relevance_reference(("summarize", "article"), True, ("storm", "coast"), "query")
    (('summarize', 'article'), 'query')
    """
    if reference == "auto" and (instruction or not query_tokens) and context_tokens:
        return tuple(context_tokens), "context"
    return tuple(query_tokens), "query"
