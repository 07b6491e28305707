"""People's ages as a text binds them to names: *Daniel Timbers, 29,* *Mr Ratcliffe, 41 has*.

A response that swaps two people's ages (*Daniel Timbers, 56, and Barry Joy, 29*, where the
article says *Daniel Timbers, 29, and Barry Joy, 56*) writes numbers the context holds, near
the same words, so the number anchors find them. :func:`bound_ages` reads the ages a text
writes right after a name and a comma (the newswire form), and :func:`age_conflict` says when
the context gives the response's person another age and never this one.

A name is one to four capitalised words, a title (*Mr*, *Mrs*, *Ms*, *Miss*, *Dr*) allowed
before them; two names are one person's when the words of one are all words of the other
(*Mr Mitchell* and *Jamie Mitchell*, *Samantha* and *Samantha Mitchell*; not *Zaghari-Ratcliffe*
and *Ratcliffe*), and an age is the context's when any name of the person has it there; the age
is a whole number from 1 to 120 followed by a comma, a closing parenthesis, a semicolon or one
of the verbs and joining words that follow such an apposition (*has*, *was*, *and*, *from*,
*who* ...), so a date (*London, 25 March*) and a year (*Paris, 2015*) are no ages.
"""

from __future__ import annotations

import re

_NAME = (r"(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?"
         r"(?P<name>(?:[A-Z][\w'\u2019-]+\s+){0,3}[A-Z][\w'\u2019-]+)")
_AFTER = (r"(?=\s*[,;)]|\s+(?:has|had|have|is|are|was|were|and|from|of|who|said|says|told|"
          r"died|appeared|admitted|denied|pleaded|will|would)\b)")
#: A name, a comma, an age (*Daniel Timbers, 29,*; *Mrs Zaghari-Ratcliffe, 38 has*).
_BOUND = re.compile(_NAME + r",\s+(?:aged\s+)?(?P<age>\d{1,3})" + _AFTER)


def bound_ages(text: str) -> tuple[tuple[int, int, frozenset[str], int, str], ...]:
    """Each age ``text`` binds to a name: (start, end of the age, the name's words in lower
    case, the age, the name's last word as written).

    >>> [(a, b, sorted(w), age, last) for a, b, w, age, last in bound_ages(
    ...     "Daniel Timbers, 29, and Barry Joy, 56, were working there.")]
    [(16, 18, ['daniel', 'timbers'], 29, 'Timbers'), (35, 37, ['barry', 'joy'], 56, 'Joy')]
    >>> bound_ages("In London, 25 March, and Paris, 2015, it rained.")
    ()
    """
    out = []
    for m in _BOUND.finditer(text):
        age = int(m.group("age"))
        words = m.group("name").split()
        if 1 <= age <= 120:
            out.append((m.start("age"), m.end("age"), frozenset(w.lower() for w in words),
                        age, words[-1]))
    return tuple(out)


def _same_person(one: frozenset[str], other: frozenset[str]) -> bool:
    return one <= other or other <= one


def age_conflict(start: int, response: tuple, context: tuple) -> str | None:
    """The note for a response age at ``start`` (``response``: its :func:`bound_ages`) that
    the context (its :func:`bound_ages`) gives the same person otherwise, never as written;
    else None.

    >>> ctx = bound_ages("Daniel Timbers, 29, and Barry Joy, 56, were working there.")
    >>> resp = bound_ages("Daniel Timbers, 56, and Barry Joy, 29, were killed.")
    >>> age_conflict(16, resp, ctx)
    "the context gives Timbers's age as 29"
    >>> age_conflict(16, bound_ages("Daniel Timbers, 29, was killed."), ctx) is None
    True

    A mother and son of one surname keep their own ages:

    >>> ctx = bound_ages("Jamie Mitchell, 35, was there. He and his mother Samantha, 57, left.")
    >>> resp = bound_ages("His mother, Samantha Mitchell, 57, left.")
    >>> age_conflict(resp[0][0], resp, ctx) is None
    True
    """
    mine = next(((words, age, last) for s, _, words, age, last in response if s == start),
                None)
    if mine is None:
        return None
    words, age, last = mine
    given = sorted({a for _, _, w, a, _ in context if _same_person(words, w)})
    if not given or age in given:
        return None
    said = " or ".join(str(a) for a in given)
    return f"the context gives {last}'s age as {said}"
