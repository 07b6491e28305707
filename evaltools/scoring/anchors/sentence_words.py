"""A response's words read beside the context sentence that says the same thing.

The quantifiers (:mod:`~evaltools.scoring.anchors.quantifiers`) and the opposites
(:mod:`~evaltools.scoring.anchors.opposites`) read a response word against a context sentence
that shares the words around it, from the words both texts already have (no second parse):
:class:`TextWords` reads either text by position, :func:`sentence_keys` a context sentence's
keys, and :class:`WordConflict` is what either finds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaltools.scoring.matcher import SentenceIndex, Word

#: Words around a response word (in its sentence) whose content words a context sentence
#: must share to say the same thing.
AROUND = 8


@dataclass(frozen=True)
class WordConflict:
    """A word of the response (``start``/``end``, ``word``) that the context sentence at
    ``evidence_start``/``evidence_end``, saying the same thing, says otherwise (``said``): a
    weaker quantifier, an opposite."""

    start: int
    end: int
    word: str
    said: str
    evidence_start: int
    evidence_end: int

    @property
    def note(self) -> str:
        return f"the context says '{self.said}' where it says '{self.word}'"


class TextWords:
    """One text's words by position: folded forms, keys, parts of speech, content flags
    and sentences, read from a response's :class:`~evaltools.scoring.matcher.Word` list or,
    word by word as asked, from a context's
    :class:`~evaltools.scoring.matcher.SentenceIndex` (a long context is not copied)."""

    __slots__ = ("content", "key", "pos", "sent", "size", "text")

    def __init__(self, size, text, key, pos, content, sent):
        self.size, self.text, self.key, self.pos, self.content, self.sent = (
            size, text, key, pos, content, sent)

    @classmethod
    def of_words(cls, words: Sequence[Word]) -> TextWords:
        texts = [w.text.lower() for w in words]
        content = [w.content and not w.num for w in words]
        return cls(len(words), texts.__getitem__, lambda p: words[p].key,
                   lambda p: words[p].pos, content.__getitem__, lambda p: words[p].sent)

    @classmethod
    def of_index(cls, index: SentenceIndex) -> TextWords:
        return cls(index.size, index.folded_at, index.key_at, index.pos_at,
                   lambda p: index.is_content(p) and not index.folded_at(p)[:1].isdigit(),
                   index.sentence_of)

    def around(self, i: int, reach: int = AROUND) -> set[str]:
        """Keys of the content words within ``reach`` words of ``i`` in its sentence."""
        return {self.key(p) for p in range(max(0, i - reach), min(self.size, i + reach + 1))
                if p != i and self.sent(p) == self.sent(i) and self.content(p)}

    def next_content(self, i: int, reach: int) -> int | None:
        return next((p for p in range(i + 1, min(self.size, i + reach + 1))
                     if self.sent(p) == self.sent(i) and self.content(p)), None)


def sentence_keys(index: SentenceIndex, s: int) -> frozenset[str]:
    """The keys of sentence ``s`` of ``index``."""
    return frozenset(index.key_at(p) for p in index.sentence_positions(s))
