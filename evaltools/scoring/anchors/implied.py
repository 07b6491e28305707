"""Amounts a context states without writing a numeral: *for a month*, a list of seven names.

A response that condenses its context writes these as numbers: *a £500 overdraft for a month*
becomes *a one-month overdraft*, *The affected counties are Conwy, Anglesey, Gwynedd,
Pembrokeshire, Carmarthenshire, Ceredigion and Powys* becomes *seven Welsh counties*.
:func:`implied_mentions` finds them in a **context** only, as extra
:class:`~evaltools.scoring.anchors.mentions.Mention` objects the support index reads beside
:func:`~evaltools.scoring.anchors.mentions.find_mentions`' (each with the exact text it was
read from, so the evidence points at it). A response's own *a month* or list is no anchor to
check: :func:`find_mentions` alone reads responses, so these only ever support.

- *a* or *an* (or *one*) before a unit of time, and *a dozen*: the amount 1 (12) of that
  unit (``("quantity", "month", 1)``, ``("number", 12)``);
- a US coin as a price (*everything is a quarter*, *a dime each*): its worth,
  ``("money", "USD", 0.25)``, which a response's *25-cent stamps* restates;
- a list of three to twelve names joined by commas and *and* / *or* on one line (*Conwy,
  Anglesey, ... and Powys*): the number of its items, ``("number", 7)``, as a mention of kind
  ``"count"``, which supports only a bare count (*seven counties*), never an amount with a
  unit (*three years*) nor a qualified one (:func:`~evaltools.scoring.anchors.mentions.supports`).
  Lists of two are left out (a pair is everywhere in prose, and *two* would be excused by any
  of them), and so are lists of common nouns (*efficiency, multiplexability and ease*): a
  summary counts the people, places and firms it names. *Both* is left out for the same
  reason: read as two, it supported *two elevators* from *both drivers and customers* and
  *two studio albums* from *they both share custody* (docs/validity.md, "Thirty-second
  round");
- two clock times of one sentence, the later within twelve hours of the earlier (*a 7:30
  reservation ... weren't seated until almost 8:15*; an hour without *am* / *pm* may be the
  afternoon's: *a 2pm appointment ... seated until 2:40*; the first may be a bare hour read
  as a clock time: *an appointment at 2 ... until 2:25*): the minutes between them,
  ``("quantity", "min", 45)``, which a review's *waited about 45 minutes* restates;
- a count of years *later* or *earlier* than a year of the same sentence (*in 1952 and ...
  four years later*): that year, ``("year", 1956)``;
- hours and minutes written as one duration (*an hour and ten minutes*): its minutes,
  ``("quantity", "min", 70)``;
- two amounts of money joined by *plus* in one sentence (*$12 for the tube plus $10 labor*):
  their sum, ``("money", "USD", 22)``, which a response's *$22 total* restates;
- two amounts of money in one currency, in one sentence or the next, the smaller a whole
  percentage of the larger (*put $1,000 in an account ... loan $900 of that money out*):
  that percentage, ``("percent", 90)``, as a mention of kind ``"share"``, which supports
  only the same percentage (*lend roughly 90%*), never a bare *90* nor *90 people*;
- an ordinal word that :func:`~evaltools.scoring.anchors.mentions.find_mentions` leaves out as
  a fraction or a text's own count (*a third straight five-under 67*): ``("ordinal", 3)``,
  which a response's *his third straight* restates.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from decimal import Decimal

from evaltools.scoring.anchors.dates import HALF_DAY
from evaltools.scoring.anchors.mentions import Mention
from evaltools.scoring.anchors.numbers import ordinal_words
from evaltools.text import doc_text

#: Unit words of time, singular, with the unit key ``find_mentions`` gives them.
_TIME_WORDS = {"second": "s", "minute": "min", "hour": "h", "day": "day", "week": "week",
               "month": "month", "year": "year"}
_ONE_UNIT = re.compile(r"(?i)\b(?:an?|one)\s+(?:full\s+|single\s+|whole\s+)?("
                       + "|".join(_TIME_WORDS) + r")\b(?!-)")
_DOZEN = re.compile(r"(?i)\ba\s+dozen\b(?!s)")
#: US coins, by their worth in dollars.
COINS = {"penny": Decimal("0.01"), "nickel": Decimal("0.05"), "dime": Decimal("0.10"),
         "quarter": Decimal("0.25")}
#: A coin as a price: *a* and the coin, after a word that prices (*everything is a quarter*,
#: *for a dime*) or before *each* / *apiece*, or as a difference in price (*even a penny
#: less*, *a dime more*; not *a quarter more*, which may be a share); not *a quarter of the
#: staff* nor *the first quarter*.
_COIN = re.compile(r"(?i)\b(?:is|was|are|were|for|costs?|paid|pay|just|only|charges?)\s+"
                   r"(?P<at>an?\s+(?P<coin>" + "|".join(COINS) + r"))\b(?!\s+of\b|-)"
                   r"|\b(?P<each>a\s+(?P<coin_each>" + "|".join(COINS) + r"))\s+(?:each|apiece)\b"
                   r"|\b(?P<than>a\s+(?P<coin_than>penny|nickel|dime))\s+"
                   r"(?:less|more|cheaper|dearer|off|extra)\b")
#: The fewest and most items of a list whose count is read.
LIST_MIN, LIST_MAX = 3, 12


def implied_mentions(doc, mentions: Sequence[Mention] = ()) -> tuple[Mention, ...]:
    """The amounts ``doc`` (a parsed context) implies, sorted by start; ``mentions``: the
    ones :func:`~evaltools.scoring.anchors.mentions.find_mentions` read in it (their clock
    times give the durations).

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Smile charges £7.34 for a month. The affected counties are "
    ...                       "Conwy, Anglesey, Gwynedd and Powys. Tom and Ann came.")
    >>> for m in implied_mentions(doc):
    ...     print(repr(m.text), m.value)
    'a month' ('quantity', 'month', Decimal('1'))
    'Conwy, Anglesey, Gwynedd and Powys' ('number', Decimal('4'))
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> doc = load_pipeline()("We had a 7:30 reservation but sat at 8:15. It opens at 9 am. "
    ...                       "A 2pm slot began at 2:40. It was banned in 1952 and four years "
    ...                       "later. We waited an hour and ten minutes, then 2 hours, 5 min. "
    ...                       "Booked at 2 but seated at 2:25. A $12 tube plus $10 labor. In at "
    ...                       "6:15, sat around 7.")
    >>> for m in implied_mentions(doc, find_mentions(doc.text)):
    ...     print(repr(m.text), m.value)
    '7:30 reservation but sat at 8:15' ('quantity', 'min', Decimal('45'))
    '2pm slot began at 2:40' ('quantity', 'min', Decimal('40'))
    'four years later' ('year', 1956)
    'an hour' ('quantity', 'h', Decimal('1'))
    'an hour and ten minutes' ('quantity', 'min', Decimal('70'))
    '2 hours, 5 min' ('quantity', 'min', Decimal('125'))
    '2 but seated at 2:25' ('quantity', 'min', Decimal('25'))
    '$12 tube plus $10' ('money', 'USD', Decimal('22'))
    '6:15, sat around 7' ('quantity', 'min', Decimal('45'))
    >>> for m in implied_mentions(load_pipeline()("Everything is a quarter, a dime each. "
    ...                                           "A quarter of us paid for a quarter of it. "
    ...                                           "A penny less matters; a quarter more too.")):
    ...     print(repr(m.text), m.value)
    'a quarter' ('money', 'USD', Decimal('0.25'))
    'a dime' ('money', 'USD', Decimal('0.10'))
    'A penny' ('money', 'USD', Decimal('0.01'))
    """
    text = doc_text(doc)
    found = [Mention("number", m.group(), m.start(), m.end(),
                     ("quantity", _TIME_WORDS[m.group(1).lower()], Decimal(1)))
             for m in _ONE_UNIT.finditer(text)]
    found += [Mention("number", m.group(), m.start(), m.end(), ("number", Decimal(12)))
              for m in _DOZEN.finditer(text)]
    for m in _COIN.finditer(text):
        g = next(k for k in ("at", "each", "than") if m.group(k))
        coin = (m.group("coin") or m.group("coin_each") or m.group("coin_than")).lower()
        found.append(Mention("number", m.group(g), m.start(g), m.end(g),
                             ("money", "USD", COINS[coin])))
    found += _list_counts(doc)
    starts = [sent.start_char for sent in doc.sents]  # once, for both readings by sentence
    ordered = sorted(mentions, key=lambda m: m.start)  # once, for the three readings below
    found += _durations(doc, ordered, starts)
    found += _years_on(doc, ordered, starts)
    found += _hours_and_minutes(text, ordered)
    found += _sums(text, ordered, starts)
    found += _shares(text, ordered, starts)
    read = {m.start for m in mentions}  # ordinals find_mentions leaves out: "a third straight"
    found += [Mention("number", text[a:b], a, b, value)
              for a, b, _, value in ordinal_words(text) if a not in read]
    return tuple(sorted(found, key=lambda m: (m.start, m.end)))


def _list_counts(doc) -> list[Mention]:
    """Each list of :data:`LIST_MIN` to :data:`LIST_MAX` names on one line, with its count.

    The parser hangs a list's items on its first (*Conwy*), chained or flat; every name
    reached by ``conj`` links counts, and so does a name before the first, a comma apart,
    that the parser hung on it as a modifier (*The Metropolitan, Wiltshire, Hampshire, Jersey
    and Kent forces*: five).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The Metropolitan, Wiltshire, Hampshire, Jersey and Kent forces "
    ...                       "are conducting separate inquiries.")
    >>> [m.value for m in _list_counts(doc)]
    [('number', Decimal('5'))]
    """
    text = doc_text(doc)
    out = []
    for tok in doc:
        if tok.dep_ == "conj" or tok.pos_ != "PROPN":
            continue  # a list starts at its first item, which is no conjunct
        items, stack = [tok], [tok]
        while stack:
            nxt = [c for c in stack.pop().children if c.dep_ == "conj" and c.pos_ == "PROPN"]
            items += nxt
            stack += nxt
        first = tok
        while (first.i >= 2 and doc[first.i - 1].text == ","
               and doc[first.i - 2].pos_ == "PROPN" and doc[first.i - 2].head.i == first.i
               and doc[first.i - 2].dep_ in ("nmod", "compound", "appos")):
            first = doc[first.i - 2]
            items.append(first)
        if not LIST_MIN <= len(items) <= LIST_MAX:
            continue
        start = first.left_edge.idx
        last = max(items, key=lambda w: w.i)
        end = last.idx + len(last.text)
        if "\n" not in text[start:end]:
            out.append(Mention("count", text[start:end], start, end,
                               ("number", Decimal(len(items)))))
    return out


#: "four years later", "two years earlier": a count of years from a year said before it.
_YEARS_ON = re.compile(r"(?i)\s*(later|after(?:wards)?|on|earlier|before)\b")
#: The longest span between two clock times read as a duration, in minutes.
DURATION_MAX = 12 * 60


#: What puts a bare hour on the clock: *sat around 7*, *left at 9*, *open until 5*.
_AT_HOUR = re.compile(r"(?i)\b(?:at|around|about|until|till|by)\s+$")


def _durations(doc, ordered: Sequence[Mention], starts: Sequence[int]) -> list[Mention]:
    """The minutes between each two successive clock times of one sentence (``ordered``: the
    context's mentions sorted by start; ``starts``: the sentences' first characters), when
    the later is within :data:`DURATION_MAX` of the earlier (an hour without *am* / *pm*
    read on the same half of the day); either may be a bare hour read as a clock time
    (*at 11 ... until 11:40*: 40 minutes; *in at 6:15 and sat around 7*: 45)."""
    text = doc_text(doc)
    times = [(m, m.value[1:]) for m in ordered if m.kind == "date" and m.value[0] == "time"]
    pairs = list(itertools.pairwise(times))
    # a bare hour read as a clock time (*an appointment at 2 ... until 2:25*) and the clock
    # time after it: its morning reading, the afternoon's found below as for an hour
    # without am / pm
    begins = [m.start for m, _ in times]
    for m in ordered:
        if m.kind == "number" and m.others and m.others[0][0] == "time":
            k = bisect.bisect_right(begins, m.start)
            if k < len(times):
                pairs.append(((m, m.others[0][1:]), times[k]))
        if (m.kind == "number" and begins and m.start > begins[0] and len(m.value) == 2
                and m.value[1] in range(1, 13)
                and _AT_HOUR.search(text, max(0, m.start - 10), m.start)):
            # ... and a bare hour after a clock time (*put our name in at 6:15 and sat
            # around 7*: 45 minutes)
            earlier = times[bisect.bisect_right(begins, m.start) - 1]
            if not HALF_DAY.search(earlier[0].text):
                pairs.append((earlier, (m, (int(m.value[1]), 0))))
    out = []
    for (a, (ah, am)), (b, (bh, bm)) in sorted(pairs, key=lambda p: p[0][0].start):
        if bisect.bisect_right(starts, a.start) != bisect.bisect_right(starts, b.start):
            continue  # not one sentence
        gap = (bh * 60 + bm) - (ah * 60 + am)
        if gap <= 0 and bh < 12 and not HALF_DAY.search(b.text):
            gap += 12 * 60  # "a 2pm appointment ... seated until 2:40": 2:40 pm
        if 0 < gap <= DURATION_MAX:
            out.append(Mention("number", text[a.start:b.end], a.start, b.end,
                               ("quantity", "min", Decimal(gap))))
    return out


#: What adds one amount of money to the one before it: *$12 for the tube plus $10 labor*.
_PLUS = re.compile(r"(?i)\bplus\b|\+")
#: Most characters between two amounts read as one sum.
SUM_GAP = 40


def _sums(text: str, ordered: Sequence[Mention], starts: Sequence[int]) -> list[Mention]:
    """Two amounts of money in one currency, the second after *plus* or *+* within
    :data:`SUM_GAP` characters of the first, in one sentence: their sum, which a response's
    *$22 total* restates. ``ordered``: the text's mentions, sorted by start."""
    money = [m for m in ordered if m.value[0] == "money"]
    out = []
    for a, b in itertools.pairwise(money):
        if (a.value[1] == b.value[1] and 0 < b.start - a.end <= SUM_GAP
                and _PLUS.search(text, a.end, b.start)
                and bisect.bisect_right(starts, a.start) == bisect.bisect_right(starts, b.start)):
            out.append(Mention("number", text[a.start:b.end], a.start, b.end,
                               ("money", a.value[1], a.value[2] + b.value[2])))
    return out


#: How many amounts on from each amount a share of it is looked for (:func:`_shares`).
SHARE_REACH = 3


def _shares(text: str, ordered: Sequence[Mention], starts: Sequence[int]) -> list[Mention]:
    """Two amounts of money in one currency, in one sentence or the next, the smaller a whole
    percentage of the larger (*put $1,000 in a savings account. The bank might loan $900 of
    that money out*): that percentage, ``("percent", 90)``, which a response's *lend roughly
    90% of that money* restates. Each amount is paired with the :data:`SHARE_REACH` after it.
    ``ordered``: the text's mentions, sorted by start.

    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "You put $1,000 in an account. The bank loans $900 of it out."
    >>> ms = sorted(find_mentions(text), key=lambda m: m.start)
    >>> [(m.text, m.value) for m in _shares(text, ms, [0, 30])]
    [('$1,000 in an account. The bank loans $900', ('percent', Decimal('90')))]
    """
    money = [m for m in ordered if m.value[0] == "money"]
    out = []
    for k, a in enumerate(money):
        sa = bisect.bisect_right(starts, a.start)
        for b in money[k + 1:k + 1 + SHARE_REACH]:
            if b.value[1] != a.value[1] or bisect.bisect_right(starts, b.start) - sa > 1:
                continue
            low, high = sorted((a.value[2], b.value[2]))
            if not 0 < low < high:
                continue
            share = low * 100 / high
            if share == share.to_integral_value():
                out.append(Mention("share", text[a.start:b.end], a.start, b.end,
                                   ("percent", share.to_integral_value())))
    return out


#: What joins hours to minutes in one duration: *an hour and ten minutes*, *2 hours, 15 min*.
_HOURS_AND = re.compile(r"(?i)(?P<one>\b(?:an?|one)\s+hour)?,?\s+(?:and\s+)?$")


def _hours_and_minutes(text: str, ordered: Sequence[Mention]) -> list[Mention]:
    """Hours and minutes written as one duration (*waited an hour and ten minutes*, *two hours
    and 15 minutes*): its minutes, ``("quantity", "min", 70)``, which *a 70-minute wait*
    restates. ``ordered``: the text's mentions, sorted by start."""
    out = []
    for k, m in enumerate(ordered):
        if m.value[:2] != ("quantity", "min"):
            continue
        before = _HOURS_AND.search(text, max(0, m.start - 24), m.start)
        if before is None:
            continue
        prev = ordered[k - 1] if k else None
        if before.group("one"):  # "an hour and ten minutes"
            hours, start = Decimal(1), before.start("one")
        elif (prev is not None and prev.value[:2] == ("quantity", "h")
              and prev.end == before.start()):
            hours, start = prev.value[2], prev.start
        else:
            continue
        out.append(Mention("number", text[start:m.end], start, m.end,
                           ("quantity", "min", hours * 60 + m.value[2])))
    return out


def _years_on(doc, ordered: Sequence[Mention], starts: Sequence[int]) -> list[Mention]:
    """The year a count of years after (or before) a year of the same sentence names: *the
    Socialist Reich Party in 1952 and the Communist Party four years later* implies 1956.
    ``ordered``: the context's mentions, sorted by start."""
    text = doc_text(doc)
    out = []
    year = None  # (sentence, the last year mention)
    for m in ordered:
        sent = bisect.bisect_right(starts, m.start)
        if m.kind == "date" and m.value[0] == "year":
            year = (sent, m)
            continue
        if (year is None or year[0] != sent or m.value[0] != "quantity"
                or m.value[1] != "year" or m.value[2] != int(m.value[2])):
            continue
        on = _YEARS_ON.match(text, m.end)
        if on is None:
            continue
        sign = -1 if on.group(1).lower() in ("earlier", "before") else 1
        out.append(Mention("date", text[m.start:on.end()], m.start, on.end(),
                           ("year", year[1].value[1] + sign * int(m.value[2]))))
    return out
