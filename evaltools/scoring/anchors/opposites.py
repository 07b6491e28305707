"""Words of a response read against the context sentence that says the opposite.

A response that keeps a context sentence's words but turns one of them into its opposite
contradicts it: *the change made filing harder* where the context says *the change made
filing easier*, *a subscription would be cheaper* where it says *more expensive*. The
claims' matcher reads an opposite only inside a claim, and a hedged or modal sentence (*it
seems to have made filing harder*, *would be cheaper*) makes no claim;
:func:`opposite_conflicts` reads every sentence, from the words both texts already have (no
second parse), and says where each opposite is and which context sentence it turns.

A response's adjective, adverb or verb is read against each context sentence that holds one
of its opposites (:func:`~evaltools.scoring.matcher.opposites` of any of its forms, so
*worse* is read as *bad*, and :data:`GRADED` for the comparatives the lexicon leaves out)
and at least :data:`SHARED_WORDS` of the content words around it (fewer when the response
has fewer, never fewer than :data:`MIN_SHARED`). The response turns the context when one such
sentence has the opposite, as the same part of speech and on the same scale (*lower* is no
opposite of *the highest*), and no context sentence that shares as many of those words
holds the word itself. Not read: a negated word or opposite (*not easier* says the same as
*harder*; *rarely remember* as *forget*), a word before a number (*less than 10 km*: the
numbers are read as values), words of times, order and direction (:data:`NOT_READ`:
*open*, *first*, *up*), which the schedule and the dates read, a sentence that holds both
words (*from the southern to the northern hemisphere*), and the other side of a comparison
(*a runner's heart needs fewer beats than an idle one's* against *an idle heart needs more
beats*; *more attention to the beginning* against *less attention to the end versus the
beginning*). A question claims nothing: scoring leaves out an opposite in a sentence that asks
(:func:`~evaltools.scoring.hallucination.check_anchors`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from evaltools.scoring.anchors.context_index import grade, other_scale
from evaltools.scoring.anchors.quantifiers import QUANTIFIER_RANK
from evaltools.scoring.anchors.sentence_words import (
    AROUND,
    TextWords,
    WordConflict,
    sentence_keys,
)
from evaltools.scoring.matcher import SentenceIndex, Word, opposites

#: Comparatives and their plain forms that the opposites' lexicon leaves out: amounts
#: (*more* / *less*) and the commonest grades of ease, cost and quality.
GRADED: dict[str, tuple[str, ...]] = {
    "more": ("less", "fewer"), "less": ("more",), "fewer": ("more",),
    "good": ("bad", "poor"), "better": ("worse",), "bad": ("good",), "worse": ("better",),
    "poor": ("good",), "hard": ("easy",), "harder": ("easier",), "easy": ("hard", "difficult"),
    "easier": ("harder",), "difficult": ("easy",), "cheap": ("expensive",),
    "expensive": ("cheap", "inexpensive"),
}

#: Words of times, order, direction and age: the schedule, dates and numbers read them,
#: and their opposites name the other end of one span (*open 9 to 5, closed Sundays*); of
#: motion, the two ends of one trip (*leave*, *arrive*); and of how many or how often,
#: which the quantifiers read (:mod:`~evaltools.scoring.anchors.quantifiers`).
NOT_READ = frozenset({
    "open", "close", "closed", "start", "end", "begin", "finish", "first", "last", "early",
    "late", "earlier", "later", "up", "down", "in", "out", "on", "off", "new", "old", "young",
    "before", "after", "come", "go", "give", "take", "buy", "sell", "left", "right",
    "leave", "arrive", "depart", "rise", "fall", "little", "much", "least", "rarely", "seldom",
    *QUANTIFIER_RANK,
})

#: Words after a context's opposite that make it one side of a comparison (*less attention
#: to the end versus the beginning*): read only against a response that compares too.
_COMPARING = frozenset({"than", "versus", "vs", "compared", "whereas"})

#: Parts of speech read, by class: a word and its opposite are of one class (*closed* is no
#: opposite of *the end*), and the parser tells a comparative adjective from an adverb
#: unreliably (*made filing harder*), so they are one class. A noun's opposite is rarely a
#: contradiction (*the winner* and *the loser* of one game).
_CLASS = {"VERB": "verb", "AUX": "verb", "ADJ": "graded", "ADV": "graded"}

#: Words that negate within :data:`NEGATION_REACH` words before in the sentence (*not
#: easier*, *did not make filing a return harder*).
_NEGATORS = frozenset({"not", "n't", "n’t", "no", "nor", "never", "neither", "without",
                       "hardly", "rarely", "seldom", "barely", "scarcely", "least",
                       "inability", "unable", "fail", "fails", "failed", "lack", "lacks",
                       "unless", "unlike"})
NEGATION_REACH = 8
#: A number this many words after a word makes it part of a value (*less than 10 km*).
NUMBER_REACH = 3

#: Content words around the word (within
#: :data:`~evaltools.scoring.anchors.sentence_words.AROUND` words in its sentence) that the
#: context sentence must share: at least this many, fewer when the response has fewer, never
#: fewer than :data:`MIN_SHARED`.
SHARED_WORDS = 3
MIN_SHARED = 2
#: Every content word this near the word (at least :data:`MIN_SHARED` of them) must be in
#: the context sentence: the response says the context's words with one turned, not another
#: side of them (*we pay more attention to the beginning* against *we pay less attention to
#: the end*).
NEAR = 4


def _negated(words: TextWords, i: int) -> bool:
    """Whether a negator (:data:`_NEGATORS`) stands within :data:`NEGATION_REACH` words
    before ``i`` in its sentence."""
    return any(words.text(p) in _NEGATORS
               for p in range(max(0, i - NEGATION_REACH), i) if words.sent(p) == words.sent(i))


def opposite_keys(word: Word) -> frozenset[str]:
    """The keys of the words opposite to ``word``: the opposites of each of its forms and of
    its written text (:data:`GRADED`), none of its own forms.

    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.matcher import words_of
    >>> [sorted(opposite_keys(w)) for w in words_of(load_pipeline()("It got harder."))][2]
    ['easier', 'easy', 'soft']
    """
    written = word.text.lower()
    keys = {o for f in (*word.forms, written) for o in (*opposites(f), *GRADED.get(f, ()))}
    return frozenset(keys - {*word.forms, written})


def opposite_conflicts(words: Sequence[Word],
                       index: SentenceIndex) -> tuple[WordConflict, ...]:
    """The response's words whose opposite the context sentence saying the same thing holds
    (the module's docstring has the rules), in order.

    ``words`` are the response's words (:func:`~evaltools.scoring.matcher.words_of`),
    ``index`` the context's sentence index.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.matcher import words_of
    >>> nlp = load_pipeline()
    >>> ctx = SentenceIndex(nlp("The new portal made filing a tax return much easier for "
    ...                         "small firms. A yearly plan is more expensive than paying "
    ...                         "monthly."))
    >>> def read(text):
    ...     return [(c.word, c.said) for c in opposite_conflicts(words_of(nlp(text)), ctx)]
    >>> read("The portal seems to have made filing a tax return harder for small firms.")
    [('harder', 'easier')]
    >>> read("The portal made filing a tax return easier for small firms.")
    []
    >>> read("The portal did not make filing a tax return harder for small firms.")
    []
    >>> read("A yearly plan would be cheaper than paying monthly.")
    [('cheaper', 'expensive')]
    """
    if not words or index.size == 0:
        return ()
    resp = TextWords.of_words(words)
    ctx: TextWords | None = None
    said: dict[int, set[str]] = {}  # the response's keys and words, by sentence
    for p, w in enumerate(words):
        said.setdefault(w.sent, set()).update((w.key, resp.text(p)))
    keys_of = functools.cache(lambda s: sentence_keys(index, s))
    found: list[WordConflict] = []
    for i, word in enumerate(words):
        written = resp.text(i)
        if (word.num or written in NOT_READ or word.key in NOT_READ
                or (word.pos not in _CLASS and written not in GRADED)):
            continue
        keys = opposite_keys(word)
        if not keys or not any(k in index for k in keys) or _negated(resp, i):
            continue
        if ctx is None:
            ctx = TextWords.of_index(index)
        if keys & said[word.sent]:
            continue  # the response's sentence holds both ("from the southern to the northern")
        conflict = _opposite_conflict(resp, ctx, index, words, i, keys, keys_of)
        if conflict is not None:
            found.append(conflict)
    return tuple(found)


def _opposite_conflict(resp: TextWords, ctx: TextWords, index: SentenceIndex,
                       words: Sequence[Word], i: int, keys: frozenset[str],
                       keys_of: Callable[[int], frozenset[str]]) -> WordConflict | None:
    """The conflict of the response's word at ``i`` (its opposites' keys ``keys``; a context
    sentence's keys from ``keys_of``), or None."""
    word = words[i]
    own = {*word.forms, resp.text(i)}
    if _before_number(resp, i):
        return None  # "less than 10 km", "as low as 35 °C": the numbers are read as values
    local = resp.around(i, AROUND) - own - keys
    need = min(SHARED_WORDS, len(local))
    near = resp.around(i, NEAR) - own - keys
    if need < MIN_SHARED or len(near) < MIN_SHARED:
        return None
    own_sentences = {s for k in own for s in index.sentences(k)}
    if any(len(local & keys_of(s)) >= need for s in own_sentences):
        return None  # a sentence says it as the response does
    kind = _CLASS.get(word.pos)
    graded = grade(resp.text(i), word.key)
    compared = _compared(resp, i)
    best: tuple[int, int, str] | None = None  # shared words, sentence, word
    for key in sorted(keys):
        for p in index.positions(key):
            s = ctx.sent(p)
            if s in own_sentences:
                continue
            keys_there = keys_of(s)  # the sentence's words first: most share too few
            shared = len(local & keys_there)
            if shared < need or near - keys_there or (best is not None and shared <= best[0]):
                continue
            said = ctx.text(p)
            if (_negated(ctx, p) or _before_number(ctx, p)
                    or other_scale(graded, grade(said, ctx.key(p)))
                    or (_CLASS.get(ctx.pos(p)) != kind and said not in GRADED)
                    or _converse(compared, ctx, index, p)):
                continue
            best = (shared, s, said)
    if best is None:
        return None
    lo, hi = index.spans[best[1]]
    return WordConflict(word.start, word.end, word.text, best[2], lo, hi)


def _before_number(words: TextWords, i: int) -> bool:
    """Whether a number follows within :data:`NUMBER_REACH` words in the sentence (*less
    than 10*, *as low as 35*)."""
    return any(words.sent(p) == words.sent(i) and (words.text(p)[:1].isdigit()
                                                   or words.pos(p) == "NUM")
               for p in range(i + 1, min(words.size, i + NUMBER_REACH + 1)))


def _compared(words: TextWords, i: int) -> frozenset[str]:
    """What the word at ``i`` compares with: the content words of the three after a *than*
    within :data:`AROUND` words after it, less those of the sentence before it (*a runner's
    heart needs fewer beats than an idle heart* -> *idle*)."""
    than = next((p for p in range(i + 1, min(words.size, i + AROUND + 1))
                 if words.sent(p) == words.sent(i) and words.text(p) == "than"), None)
    if than is None:
        return frozenset()
    before = {words.key(p) for p in range(max(0, i - AROUND), i) if words.sent(p) == words.sent(i)}
    return frozenset(words.key(p) for p in range(than + 1, min(words.size, than + 4))
                     if words.sent(p) == words.sent(i) and words.content(p)) - before


def _converse(compared: frozenset[str], ctx: TextWords, index: SentenceIndex, p: int) -> bool:
    """Whether the context sentence at ``p`` makes the other side of the response's
    comparison: what the response compares with stands before the opposite there, not after
    its *than* (*a runner's heart needs fewer beats than an idle one's* is *an idle heart
    needs more beats than a runner's*); or, where the response compares nothing, the
    context's opposite is one side of a comparison (*we pay less attention to the end versus
    the beginning* is *more attention to the beginning*)."""
    if not compared:
        return any(ctx.text(q) in _COMPARING and ctx.sent(q) == ctx.sent(p)
                   for q in range(p + 1, min(ctx.size, p + AROUND + 1)))
    after = _compared(ctx, p)
    if compared & after:
        return False
    return any(ctx.key(q) in compared for q in index.sentence_positions(ctx.sent(p)) if q < p)
