"""Quantifiers of a response read against the context sentence that says the same thing.

A response that keeps a context sentence's words but makes its quantifier stronger
generalises past it: *every jurisdiction* where the context says *in most jurisdictions*,
*always intervene* where it says *in most cases*, *most students* where it says *many
students*. The claims' matcher finds the words and misses the change, as a quantifier is a
function word to it; :func:`quantifier_conflicts` reads them from the words both texts
already have (no second parse) and says where each is and which context sentence it goes
past.

Quantifiers rank by strength (:data:`QUANTIFIER_RANK`: *some* < *many* < *most* < *all*). A
response's *all*, *every*, *always* (or *nearly all*, *the vast majority*, which go past a
plain *most*), or its determiner *most* / *majority*, is read against each context sentence
that holds the word it quantifies (the next content word) and at least
:data:`SHARED_WORDS` of the content words around it; when one of them has a weaker
quantifier within :data:`QUANTIFIER_REACH` words of that word, and none says the same as
strongly, the response goes past the context. Not read: a negated quantifier (*not all*), a
superlative *most* (*the most common*), *most often* (how often, read as *usually*), an
idiom (*at all*, *after all*), a *majority* without *of* (*failed to deliver a majority at the
election*: a vote, not a share), a word before a number (*all three*, *every two weeks*: a
count; *some 4.6 billion years ago*: about), a floating *all* before a verb (*they have all
been linked*); and *usually* against *often*, which is a paraphrase more than a claim. A
question claims nothing: scoring leaves out a quantifier in a sentence that asks
(:func:`~evaltools.scoring.hallucination.check_anchors`).
"""

from __future__ import annotations

from collections.abc import Sequence

from evaltools.scoring.anchors.sentence_words import (
    TextWords,
    WordConflict,
    sentence_keys,
)
from evaltools.scoring.matcher import SentenceIndex, Word

#: Quantifiers by strength: 1 some, 2 many, 3 most, 4 all. *Nearly all*, *the vast
#: majority* read 3.5 (:func:`_rank`).
QUANTIFIER_RANK: dict[str, float] = {
    **dict.fromkeys(("some", "several", "certain", "sometimes", "occasionally"), 1),
    **dict.fromkeys(("many", "often", "frequently", "commonly", "numerous"), 2),
    **dict.fromkeys(("most", "mostly", "majority", "usually", "generally", "typically",
                     "largely", "predominantly", "mainly"), 3),
    **dict.fromkeys(("all", "every", "always", "everyone", "everybody", "everything",
                     "invariably", "universally"), 4),
}

#: Quantifiers of a thing (not of how often): before a verb they float (*they have all
#: been linked*) and quantify the subject, not the verb.
_DETERMINERS = frozenset({"all", "every", "most", "majority", "everyone", "everybody",
                          "everything"})

#: A response's quantifier below *all* is read only when it quantifies a thing (*most
#: students*): *usually* against *often* is a paraphrase more than a claim.
_READ_BELOW_ALL = frozenset({"most", "majority"})

#: Words that soften *all* to *nearly all* (3.5), and that make *majority* vast (3.5).
_NEARLY = frozenset({"nearly", "almost", "virtually", "practically", "essentially"})
_VAST = frozenset({"vast", "overwhelming", "great"})

#: *most* before these is a quantifier of how often (*most often*), not a superlative.
_MOST_OFTEN = frozenset({"often", "commonly", "frequently"})

#: A word before *all* that makes an idiom (*at all*, *above all*, *after all*), and after.
_ALL_IDIOM_BEFORE = frozenset({"at", "above", "after"})
_ALL_IDIOM_AFTER = frozenset({"but", "along", "in"})

#: Words that negate a quantifier right before it (*not all*, *never always*).
_NEGATORS = frozenset({"not", "n't", "no", "nor", "never"})

#: Content words around the quantifier (within
#: :data:`~evaltools.scoring.anchors.sentence_words.AROUND` words in its sentence) that the
#: context sentence must share, at least this many (fewer when the response has fewer).
SHARED_WORDS = 3
#: Words between a context sentence's quantifier and the word the response quantifies.
QUANTIFIER_REACH = 8


def _rank(words: TextWords, i: int) -> float | None:
    """The strength of the quantifier at ``i`` (:data:`QUANTIFIER_RANK`), or None when the
    word there is none (a superlative *most*, an idiom, a count, a negated one)."""
    word = words.text(i)
    rank = QUANTIFIER_RANK.get(word)
    if rank is None:
        return None
    before = words.text(i - 1) if i else ""
    after = words.text(i + 1) if i + 1 < words.size else ""
    if before in _NEGATORS:
        return None
    if word == "most":
        if after in _MOST_OFTEN:
            return 3
        if i + 1 < words.size and words.pos(i + 1) in ("ADJ", "ADV"):  # the most common
            return None
    if word == "all" and (before in _ALL_IDIOM_BEFORE or after in _ALL_IDIOM_AFTER):
        return None
    if i + 1 < words.size and (after[:1].isdigit() or words.pos(i + 1) == "NUM"):
        return None  # all three, every two weeks: a count; some 4.6 billion: about
    if rank == 4 and before in _NEARLY:
        return 3.5
    if word == "majority" and after != "of":
        return None  # "failed to deliver a majority at the election": a vote, not a share
    if word == "majority" and before in _VAST:
        return 3.5
    return rank


def quantifier_conflicts(words: Sequence[Word],
                         index: SentenceIndex) -> tuple[WordConflict, ...]:
    """The response's quantifiers that go past the context sentence saying the same thing
    (the module's docstring has the rules), in order.

    ``words`` are the response's words (:func:`~evaltools.scoring.matcher.words_of`),
    ``index`` the context's sentence index.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.matcher import words_of
    >>> nlp = load_pipeline()
    >>> ctx = SentenceIndex(nlp("In most jurisdictions, a suspect must see a judge within "
    ...                         "two days. Many students feel obliged to drink."))
    >>> def read(text):
    ...     return [(c.word, c.said) for c in quantifier_conflicts(words_of(nlp(text)), ctx)]
    >>> read("In every jurisdiction, a suspect must see a judge within two days.")
    [('every', 'most')]
    >>> read("In most jurisdictions, a suspect must see a judge within two days.")
    []
    >>> read("Most students feel obliged to drink.")
    [('Most', 'many')]
    >>> read("Some students feel obliged to drink, and not all of them do.")
    []
    """
    if not words or index.size == 0:
        return ()
    resp = TextWords.of_words(words)
    ctx: TextWords | None = None
    found: list[WordConflict] = []
    for i in range(resp.size):
        text = resp.text(i)
        if text not in QUANTIFIER_RANK:
            continue
        if ctx is None:
            ctx = TextWords.of_index(index)
        conflict = _quantifier_conflict(resp, ctx, index, words, i)
        if conflict is not None:
            found.append(conflict)
    return tuple(found)


def _conflict(words: Sequence[Word], i: int, said: str, index: SentenceIndex,
              s: int) -> WordConflict:
    lo, hi = index.spans[s]
    return WordConflict(words[i].start, words[i].end, words[i].text, said, lo, hi)


def _written(words: TextWords, i: int, rank: float) -> str:
    """The quantifier at ``i`` as the note names it: with its softener (*almost all*, *vast
    majority*) when that made its rank."""
    return f"{words.text(i - 1)} {words.text(i)}" if rank == 3.5 else words.text(i)


def _quantifier_conflict(resp: TextWords, ctx: TextWords, index: SentenceIndex,
                         words: Sequence[Word], i: int) -> WordConflict | None:
    rank = _rank(resp, i)
    if rank is None or (rank < 3.5 and resp.text(i) not in _READ_BELOW_ALL):
        return None
    if i + 1 < resp.size and resp.text(i + 1) in _MOST_OFTEN:
        return None  # most often: how often, read as usually
    head = next((p for p in range(i + 1, min(resp.size, i + 4))
                 if resp.sent(p) == resp.sent(i) and resp.content(p)
                 and resp.text(p) not in QUANTIFIER_RANK), None)
    if head is None or (resp.text(i) in _DETERMINERS and resp.pos(head) in ("VERB", "AUX")):
        return None
    local = resp.around(i) - set(QUANTIFIER_RANK)
    need = min(SHARED_WORDS, len(local))
    best: tuple[int, float, str, int] | None = None  # shared words, rank, word, sentence
    for s in sorted({ctx.sent(p) for p in index.positions(resp.key(head))}):
        shared = len(local & sentence_keys(index, s))
        if shared < need:
            continue
        heads = [p for p in index.sentence_positions(s) if ctx.key(p) == resp.key(head)]
        weaker = [(r, _written(ctx, p, r)) for p in index.sentence_positions(s)
                  if (r := _rank(ctx, p)) is not None
                  and any(abs(p - h) <= QUANTIFIER_REACH for h in heads)]
        if any(r >= rank for r, _ in weaker):
            return None  # a sentence says the same as strongly
        if weaker and (best is None or shared > best[0]):
            top = max(weaker)
            best = (shared, top[0], top[1], s)
    if best is None:
        return None
    return _conflict(words, i, best[2], index, best[3])
