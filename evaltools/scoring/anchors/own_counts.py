"""Numbers that are the response's own structure, not facts to check.

A bare count of 2 to 10 of the response's own points or list items ("It works
in **three** steps:" then the steps, "there are **two** main reasons") is the
response's own (:func:`counts_own_list`), as is a count written as a word after *the*,
*these* or *those* ("they do not compare **the two**", :func:`refers_back`), and so is the
number of a label that opens a line ("**Theory 1:** ...", :func:`labels_a_point`). Found once per
response (:func:`own_counts`, kept in the response's features) for the anchors, which show
them with ``counted=False``, and for grounding, which leaves them out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaltools.scoring.anchors.claims import POINT_NOUNS
from evaltools.scoring.anchors.mentions import Mention
from evaltools.text import BULLETS

#: Why a count is the response's own (:func:`own_counts`): it counts its points or list items
#: (the line holding it introduces them), it refers back to things the response names, or it
#: numbers one of the response's points (a label opening a line).
OWN_LIST = "counts the response's own points or list items"
REFERS_BACK = "refers back to things the response names"
LABEL = "numbers the response's own points"

#: Characters after a count within which the colon and line end that introduce a list must be.
OWN_LIST_REACH = 120


#: "three main reasons", "two ways", "two related points": a count of the points the
#: response itself makes (one word may qualify them); "two side effects are worth knowing":
#: a count of things it goes on to tell; "two different things": the response telling
#: apart what it has just named; "comes down to two things:": the things it lists next.
_OWN_POINTS = re.compile(
    r"\s+(?:(?:[a-z]+\s+)?" + POINT_NOUNS + r"\b|(?:[\w-]+\s+){1,3}?(?:are|is)\s+worth\s+"
    r"(?:knowing|noting|mentioning|keeping\s+in\s+mind)\b|(?:different|separate|distinct)\s+"
    r"(?:things|issues|questions|concepts|ideas|matters|measures)\b|(?:[a-z]+\s+)?things:)",
    re.IGNORECASE)

#: Words that open the sentences of a count's items in turn (*First, ...* *Second, ...*).
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")
#: One such opening, where a sentence or line begins (*First,*, *Secondly,*, ***Third:***),
#: or a number opening a line (***1. A stronger heart***, *2)*).
_ORDINAL_OPENER = re.compile(
    r"(?:^|(?<=[.!?:])\s+|\n)[\s*_#-]*(?:(" + "|".join(ORDINALS) + r")(?:ly)?\b\W"
    r"|(?<![^\s*_#-])([1-9]|10)[.)]\s)", re.IGNORECASE)
#: Characters from the count's sentence end within which its first item must open.
ORDINAL_REACH = 300
#: Where the count's sentence (or the line it opens with a colon) ends.
_SENTENCE_STOP = re.compile(r"[.!?:](?=\s|$)")


#: A count's noun phrase, then a dash, colon or parenthesis that opens the list of its items.
_ENUMERATION = re.compile(
    r"(?:\s+[\w'-]+){1,6}?\s*(?:[-\u2013\u2014:(]|,\s+(?:namely|including)\b)\s*"
    r"([^.;:()\u2013\u2014]{3,300}?)(?=\s+[-\u2013\u2014]\s|[.;:()\u2013\u2014]|$)")
_ITEM_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


#: A name in an appositive list, with the age news writes after it (*Barry Joy, 56*).
_LISTED_NAME = r"[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}(?:,\s+\d{1,3}\b)?"
#: A count's noun, then the names it counts between commas (*Two men, Daniel Timbers, 29,
#: and Barry Joy, 56, were killed*).
_APPOSITION = re.compile(
    r"(?:\s+[\w'-]+){1,3}?,\s+(" + _LISTED_NAME + r"(?:(?:,\s+(?:and\s+)?|\s+and\s+)"
    + _LISTED_NAME + r")+)(?=,|\s+(?:were|are|was|is|have|had|who)\b)")


#: The items a count sums up, named just before it as its sentence's subject (*Aperture and
#: shutter speed are two key settings*, *Rome, Milan and Turin were the three hosts*).
_LISTED_BEFORE = re.compile(
    r"(?:^|[.!?:]\s+|\n)[\s*_-]*([^.!?:;\n]{3,200}?)\s+(?:are|were|remain|form|make up)"
    r"\s+(?:the\s+|all\s+|both\s+)?$")


#: The most words an item of a list after a colon may have when the items open alike.
PARALLEL_LONGEST = 15
#: Words that open the items of a list of two or three in turn (*one ..., and one ...*,
#: *one ..., the other ...*).
_ONE_OTHER = frozenset({"one", "another", "the other", "a second", "a third"})


def _parallel(items: Sequence[str]) -> bool:
    """Whether the items of a list open alike: each with the same word, or each with *one*,
    *another* or *the other* (*one about the phrase itself, and one about how the film
    portrays Black characters*): the response's own parallel points.

    >>> _parallel(["one about the phrase itself", "one about the film's portrayal"])
    True
    >>> _parallel(["one about the phrase itself", "the other about the film"])
    True
    >>> _parallel(["the phrase itself", "how the film portrays them"])
    False
    """
    if len(items) < 2:
        return False
    firsts = [i.split()[0].lower() if i.split() else "" for i in items]
    if len(set(firsts)) == 1 and firsts[0]:
        return True
    return all(f in _ONE_OTHER or " ".join(i.lower().split()[:2]) in _ONE_OTHER
               for f, i in zip(firsts, items, strict=True))


def _enumerates(text: str, m: Mention, n: int) -> bool:
    """Whether a list of exactly ``n`` short items follows the count ``m`` in its sentence
    (*four frigates - HMS Cumberland, HMS Campbeltown, HMS Chatham and HMS Cornwall*; up to
    five words an item, eight after a colon: *two related issues: the term itself, and the
    film's overall portrayal of Black characters*), or exactly ``n`` names between commas
    (*two men, Daniel Timbers, 29, and Barry Joy, 56,*), or before it as the subject it sums
    up (*Aperture and shutter speed are two key settings*, also after a lead such as *Based
    on the passages,*)."""
    e = _ENUMERATION.match(text, m.end, m.end + 400)
    if e is not None:
        items = [i for i in _ITEM_SPLIT.split(e.group(1).strip()) if i]
        colon = ":" in text[m.end:e.start(1)]
        longest = 8 if colon else 5  # a colon opens longer items
        if colon and _parallel(items):
            longest = PARALLEL_LONGEST  # "two kinds of criticism: one about ..., and one ..."
        if len(items) == n and all(len(i.split()) <= longest for i in items):
            return True
    a = _APPOSITION.match(text, m.end, m.end + 300)
    if a is not None and len(re.findall(_LISTED_NAME, a.group(1))) == n:
        return True
    if _ordinals_follow(text, m, n) or _bullets_follow(text, m, n):
        return True
    b = _LISTED_BEFORE.search(text, max(0, m.start - 250), m.start)
    if b is None:
        return False
    subject = _LEAD.sub("", b.group(1).strip(), count=1)
    items = [i for i in _ITEM_SPLIT.split(subject) if i]
    return len(items) == n and all(len(i.split()) <= 5 for i in items)


def _ordinals_follow(text: str, m: Mention, n: int) -> bool:
    """Whether the sentences after the count ``m`` open its ``n`` items in turn, *First,* to
    the ``n``-th ordinal and no further (*comes mainly from two training adaptations.
    First, ... Second, ...*), or lines numbered 1 to ``n`` (*with two effects working
    together. **1. A stronger heart** ... **2. ...***); the first within
    :data:`ORDINAL_REACH` characters of the count's sentence end."""
    stop = _SENTENCE_STOP.search(text, m.end)
    if stop is None:
        return False
    count = int(n)
    end = stop.start() + ORDINAL_REACH * (count + 2)  # bounded: linear in long texts
    found = list(_ORDINAL_OPENER.finditer(text, stop.start(), end))
    seen = [o.group(1).lower() if o.group(1) else ORDINALS[int(o.group(2)) - 1]
            for o in found]
    return (bool(found) and found[0].start() - stop.start() <= ORDINAL_REACH
            and seen[:count] == list(ORDINALS[:count])
            and not set(seen) & set(ORDINALS[count:]))


#: A bulleted line (*- **The tear film.** ...*, *\u2022 lid pressure*): a mark of
#: :data:`~evaltools.text.BULLETS`, the marks the pipeline starts list items at.
_BULLET_LINE = re.compile(r"(?m)^[ \t]*[" + "".join(re.escape(b) for b in sorted(BULLETS))
                          + r"][ \t]+\S")


def _bullets_follow(text: str, m: Mention, n: int) -> bool:
    """Whether the first bulleted list after the count ``m``'s sentence, opening within
    :data:`ORDINAL_REACH` characters of its end (a heading may come between), has exactly
    ``n`` items, one a line (*two things hold a lens in place. ... ### What keeps it\n-
    **The tear film.** ...\n- **Eyelid pressure.** ...*)."""
    stop = _SENTENCE_STOP.search(text, m.end)
    if stop is None:
        return False
    first = _BULLET_LINE.search(text, stop.end(), stop.end() + ORDINAL_REACH)
    if first is None:
        return False
    lines = text[first.start():first.start() + ORDINAL_REACH * (int(n) + 2)].split("\n")
    items = 0
    for line in lines:
        if _BULLET_LINE.match(line):
            items += 1
        elif line.strip() and not line.startswith((" ", "\t")):
            break  # the list ends at the first line that is neither an item nor inside one
    return items == n


#: What may open a sentence before the subject a count sums up (*Based on the passages
#: provided, aperture and shutter speed are two ...*).
_LEAD = re.compile(r"(?i)^(?:based\s+on|according\s+to|in\s+short|in\s+summary|overall|"
                   r"put\s+simply|simply\s+put|in\s+general|essentially|basically)"
                   r"\b[^,]{0,60},\s*")


#: "the two", "these three", "the other two": a definite article or demonstrative before a
#: count.
_DEFINITE = re.compile(r"\b(?:the|these|those)\s+(?:other\s+)?$", re.IGNORECASE)
#: ... and after it nothing it modifies, or a plural: "compare the two.", "the two kinds of",
#: "the two are"; or a verb in the past, whose subject the count is ("the two traded blows",
#: "the two met in 2009"); not "the ten pin bowling" (a count inside a name or a compound).
_AFTER_BACK = re.compile(r"\s*(?:[^\w\s]|$|[A-Za-z-]+s\b|[a-z]{2,}ed\b|(?:are|were|have|had|differ|"
                         r"do|did|can|could|would|will|may|might|and|or|but|of|in|to|met|"
                         r"fought|won|lost|spoke|went|began|made|took|got|left|split|said)\b)")


def refers_back(text: str, m: Mention) -> bool:
    """Whether ``m`` is a count of 2 to 10 written as a word after *the*, *these* or *those*
    (*there is no way to correlate **the two***, ***the two** kinds of smoke*): it refers back
    to things the response has named, it does not state a number the context should hold.
    A count written in digits (*the 3 victims*) is checked as usual.

    Examples
    --------
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "It does not compare the two. These three rules hold. The 3 rules hold. Two rose."
    >>> [(m.text, refers_back(text, m)) for m in find_mentions(text)]
    [('two', True), ('three', True), ('3', False), ('Two', False)]
    >>> [refers_back(t, find_mentions(t)[0]) for t in ("I play the ten pin game.",
    ...                                                 "The two are alike.",
    ...                                                 "The other two relate to typos.",
    ...                                                 "The two traded blows.",
    ...                                                 "The two kicked off the tour.")]
    [False, True, True, True, True]
    """
    value = m.value
    if not (len(value) == 2 and value[0] == "number" and 2 <= value[1] <= 10
            and m.text.isalpha()):
        return False
    before = _DEFINITE.search(text, max(0, m.start - 14), m.start)
    # "the other two" refers back whatever follows ("the other two relate to typos")
    return before is not None and ("other" in before.group().lower()
                                   or _AFTER_BACK.match(text, m.end) is not None)


def counts_own_list(text: str, m: Mention) -> bool:
    r"""Whether ``m`` is a bare count (2-10) of the response's own points: in a line
    that ends with a colon and introduces lines that follow, before a noun that
    names points made (*two reasons*, *three main ways*: :data:`_OWN_POINTS`), or
    before the list of exactly as many items that it counts (*four frigates - HMS
    Cumberland, HMS Campbeltown, HMS Chatham and HMS Cornwall*: the items are checked,
    their count is the response's own).

    Examples
    --------
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "It stays put in two ways:\n- tear film\n- lid pressure\nIt has 3 rooms:"
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('two', True), ('3', False)]
    >>> [counts_own_list(t, find_mentions(t)[0]) for t in (
    ...     "It has 3 rooms. Options are:\n- a", "It costs $5:\n- a", "Two:\n")]
    [False, False, False]
    >>> text = "The passages give three main reasons. It comes in two sizes."
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('three', True), ('two', False)]
    >>> text = "Based on the passages, there are two layers to the controversy."
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('two', True)]
    >>> text = ("Two related points: it reverses. Two side effects are worth knowing. "
    ...         "Two sizes are sold.")
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('Two', True), ('Two', True), ('Two', False)]
    >>> text = ("Four frigates - HMS Cumberland, HMS Chatham, HMS Kent and HMS York - are "
    ...         "moored. Three sizes (small and large) are sold.")
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('Four', True), ('Three', False)]
    >>> text = ("Two men, Daniel Timbers, 29, and Barry Joy, 56, were killed. Two men, "
    ...         "police said, were hurt. Three firms, Apple and Google, grew.")
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text) if m.text[0] in "TF"]
    [('Two', True), ('Two', False), ('Three', False)]
    >>> text = ("Two things hold it. A note first.\n### Why\n- **Tear film.** It sticks.\n"
    ...         "- Lid pressure.\n\nIt has three rooms. Perks:\n- a pool\n- a bar")
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('Two', True), ('three', False)]
    >>> text = ("Based on the passages provided, aperture and shutter speed are two of the "
    ...         "main settings. Rain and hail are three of the hazards.")
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('two', True), ('three', False)]
    >>> text = "So it comes down to two things: molds and rinds. She bought two things."
    >>> [(m.text, counts_own_list(text, m)) for m in find_mentions(text)]
    [('two', True), ('two', False)]
    """
    value = m.value
    if not (len(value) == 2 and value[0] == "number" and 2 <= value[1] <= 10):
        return False
    if _OWN_POINTS.match(text, m.end, m.end + OWN_LIST_REACH) or _enumerates(text, m, value[1]):
        return True
    nl = text.find("\n", m.end, m.end + OWN_LIST_REACH)  # bounded: linear in long texts
    if nl < 0 or not text[nl:nl + OWN_LIST_REACH].strip():
        return False
    line = text[m.end:nl].rstrip()
    return line.endswith(":") and ". " not in line and len(line) > 1


#: A label that numbers a point where a line begins: a word for a point (*Theory*, *Step*,
#: *Reason*; not *Room* or *Gate*, which name things), then the number, then a colon, stop,
#: parenthesis, dash or the end of bold marks (*Theory 1:*, ***Step 2.***).
_LABEL_NUMBER = re.compile(
    r"(?m)^[ \t]*(?:[-*+\u2022][ \t]+)?(?:\*\*|__|#{1,6}[ \t]+)?(?:Reason|Way|Step|Factor|Point|"
    r"Option|Method|Tip|Explanation|Possibility|Approach|Theory|Idea|Stage|Phase|Part|Example|"
    r"Scenario|Hypothesis|Takeaway|Caveat)[ \t]+(\d{1,2})(?=[ \t]*(?:[:.)\u2013\u2014-]|\*\*|__))")


def labels_a_point(text: str, m: Mention) -> bool:
    r"""Whether ``m`` is the number of a label that opens a line of the response
    (*Theory 1: Pants used to be two pieces*, *- **Step 2.** Mix*): it numbers the
    response's own points, it states nothing the context should hold.

    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "Two ideas:\n**Theory 1: Pants were two pieces.**\nStep 2 - mix.\nRoom 12: $90"
    >>> [(m.text, labels_a_point(text, m)) for m in find_mentions(text)]
    [('Two', False), ('1', True), ('two pieces', False), ('2', True), ('12', False), ('$90', False)]
    """
    line = text.rfind("\n", 0, m.start) + 1
    hit = _LABEL_NUMBER.match(text, line, m.end + 3)
    return hit is not None and hit.start(1) == m.start and hit.end(1) == m.end


def own_counts(text: str, mentions: Sequence[Mention]) -> tuple[tuple[int, str], ...]:
    r"""The start of each mention of ``text`` that is the response's own count, with why.

    Examples
    --------
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "It does two things:\n- cuts light\n- sharpens. Compare the two. It costs $5."
    >>> for start, why in own_counts(text, find_mentions(text)):
    ...     print(text[start:start + 3], "-", why)
    two - counts the response's own points or list items
    two - refers back to things the response names
    """
    out = []
    for m in mentions:
        if counts_own_list(text, m):  # "in three steps:", "two reasons"
            out.append((m.start, OWN_LIST))
        elif refers_back(text, m):  # "compare the two"
            out.append((m.start, REFERS_BACK))
        elif labels_a_point(text, m):  # "Theory 1:"
            out.append((m.start, LABEL))
    return tuple(out)
