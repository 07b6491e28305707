"""Date and time anchors: full dates, month and year, day and month, times, decades.

Pure Python (compiled regular expressions and tables), no spaCy. Values are
canonical tuples, so ``2024-03-05``, ``March 5, 2024``, ``5th March 2024``
and ``03/05/2024`` are all ``("date", 2024, 3, 5)``:

- ``("date", year, month, day)`` — ISO ``2024-03-05`` (also ``2024/03/05``),
  numeric ``03/05/2024`` (US month/day first; day/month when the first number
  is above 12; ``05.03.2024`` with dots is day.month.year), month names
  ``March 5, 2024``, ``Mar. 5 2024``, ``5 March 2024``, ``5th of March, 2024``;
- ``("day", month, day)`` — a day without a year: ``March 5th``, ``5 March``;
- ``("month", year, month)`` — ``March 2024``, ``Mar 2024``, ``March of 2024``;
- ``("monthname", month)`` — a month's full name alone, capitalised (``leaves in March``;
  not a first name, as *June Carter*, nor *May* or *March* but after a word that dates,
  *in May*, *by March*);
- ``("decade", first_year)`` — ``1990s``, ``1990's``, and of the twentieth century written
  ``'90s`` or in words, capitalised (``Nineties``) or after *the* (``the late nineties``,
  ``the 30s and 40s``) or bare (``60s and 70s Fenders``; *in her forties*, *in her 60s*
  and *over 60s* are ages, not decades);
- ``("time", hour, minute)`` on a 24-hour clock — ``3pm``, ``3 p.m.``,
  ``9:30am``, ``15:00``, ``noon`` (12, 0), ``midnight`` (0, 0). A time
  without a.m./p.m. is read as written on a 24-hour clock (``3:00`` is 03:00).

Bare years (``2019``) are found by :mod:`evaltools.scoring.anchors.numbers`,
because whether ``2000`` is a year depends on what follows it (``2000 mAh``
is not). Month names must start with a capital letter (``may 5`` is not a
date). Invalid calendar dates (``February 30, 2024``, ``13/13/2024``) are not
dates. The decisions are listed in ``docs/anchors.md``.
"""

from __future__ import annotations

import bisect
import calendar
import re

__all__ = ["find_dates"]

FULL_YEAR_MIN, FULL_YEAR_MAX = 1000, 2999
"""Years accepted inside a full date or a month-year."""

Span = tuple[int, int, str, tuple]

_SP = "[ \u00a0\u202f]"

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
    "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}
_ABBREVIATIONS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
#: A month's name or short form, its period allowed (case as the caller's pattern reads it).
MONTH = ("(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True))
         + "|(?:" + "|".join(sorted(_ABBREVIATIONS, key=len, reverse=True)) + r")\.?)")
_MON = "(?P<mon>(?i:" + MONTH + "))"
_ORD = "(?:st|nd|rd|th)?"
_YEAR_SEP = f"(?:,{_SP}*|{_SP}+)"
# A year after a month name: four digits, or two after an apostrophe ("March '24").
_Y = "(?P<y>[0-9]{4}|['’][0-9]{2})"
_END = r"(?![\w])"

_MDY_RE = re.compile(
    rf"(?<![\w]){_MON}{_SP}+(?P<d>[0-9]{{1,2}}){_ORD}"
    rf"(?:{_YEAR_SEP}(?:of{_SP}+)?{_Y}(?![\w]|[.,][0-9]))?{_END}"
)
_DMY_RE = re.compile(
    rf"(?<![\w.,$€£¥₹])(?P<d>[0-9]{{1,2}}){_ORD}{_SP}+(?:of{_SP}+)?{_MON}"
    rf"(?:{_YEAR_SEP}{_Y}(?![\w]|[.,][0-9]))?{_END}"
)
_MY_RE = re.compile(
    rf"(?<![\w]){_MON}{_YEAR_SEP}(?:of{_SP}+)?{_Y}(?![\w]|[.,][0-9])"
)
_ISO_RE = re.compile(
    r"(?<![\w.,/-])(?P<y>[0-9]{4})(?P<s>[-/])(?P<m>[0-9]{1,2})(?P=s)(?P<d>[0-9]{1,2})"
    r"(?:(?=T[0-9])|(?![\w]|[./-][0-9]))"
)
_NUMERIC_RE = re.compile(
    r"(?<![\w.,/-])(?P<a>[0-9]{1,2})(?P<s>[/.-])(?P<b>[0-9]{1,2})(?P=s)"
    r"(?P<y>[0-9]{4}|[0-9]{2})(?![\w]|[./-][0-9])"
)
#: A clock time's half of the day written out (*p.m.*, *am*; with *noon* and *midnight*,
#: ``HALF_DAY``): a time without it may be either half (`schedule.clock_times`,
#: `implied._durations`).
MERIDIEM = re.compile(r"(?i)[ap]\.?\s?m\b")
HALF_DAY = re.compile(MERIDIEM.pattern + "|noon|midnight")
_MERIDIEM_RE = re.compile(
    r"(?<![\w:.,])(?P<h>[0-9]{1,2})(?:[:.](?P<mi>[0-9]{2}))?(?::[0-9]{2})?"
    rf"{_SP}?(?P<mer>(?i:[ap]\.m\.|[ap]\.m|[ap]m)){_END}"
)
_CLOCK_RE = re.compile(
    r"(?:(?<=[0-9]T)|(?<![\w:.,]))(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2})(?::[0-9]{2}(?:\.[0-9]+)?)?"
    r"(?:(?=Z(?![\w]))|(?![\w:]|[.,][0-9]))"
)
# "14h30" (French and others); "14h" alone is a quantity of hours.
_H_CLOCK_RE = re.compile(r"(?<![\w:.,])(?P<h>[0-9]{1,2})h(?P<mi>[0-5][0-9])(?![\w])")
# "14.30" is a time only where a time is expected: after "at", "until", "opens"...,
# before "h"/"Uhr"/"hrs", or as one end of a range of two such ("9.00-17.30").
_DOT_CLOCK = r"(?:[01]?[0-9]|2[0-3])\.[0-5][0-9]"
_DOT_CLOCK_RE = re.compile(rf"(?<![\w:.,]){_DOT_CLOCK}(?![\w]|[.,][0-9])")
_DOT_CLOCK_BEFORE = re.compile(
    rf"(?:(?<![\w])(?i:at|until|till|opens|closes|open|close|between){_SP}+|[-–]{_SP}*)$")
_DOT_CLOCK_AFTER = re.compile(
    rf"{_SP}*(?:[-–]{_SP}*{_DOT_CLOCK}(?![0-9])|(?i:h|hrs|uhr|o'clock)(?![\w]))")
_NOON_RE = re.compile(rf"(?<![\w])(?:12{_SP}?)?(?P<w>(?i:noon|midday|midnight)){_END}")
#: A year written with two digits after an apostrophe that opens a word: "my '68 Mustang"
#: (not the '80s, a decade).
_SHORT_YEAR_RE = re.compile(r"(?<![\w'\u2018\u2019])(?P<y>['\u2018\u2019]\d{2})(?![\w'\u2019])")
#: "1990s", "1990's", and "1790-something" (a year of that decade, which one not said).
_DECADE_RE = re.compile(r"(?<![\w.,])(?P<y>1[0-9]{2}0|20[0-9]0)(?:'?s|-something)(?![\w])")
#: The decades in words; also the ages ("in their twenties"): a value, not a thing named.
DECADE_WORDS = {"twenties": 1920, "thirties": 1930, "forties": 1940, "fifties": 1950,
                 "sixties": 1960, "seventies": 1970, "eighties": 1980, "nineties": 1990}
#: "'90s", "Nineties", "the late nineties": a decade of the twentieth century.
_DECADE_WORD_RE = re.compile(
    r"(?<![\w'’])['’](?P<yy>[3-9]0)'?s(?![\w])"
    r"|(?<![\w-])(?P<cap>(?:" + "|".join(w.title() for w in DECADE_WORDS) + r"))(?![\w-])"
    r"|(?<![\w-])(?i:the)[ \u00a0]+(?:(?i:early|mid|late|mid-)[ \u00a0-]*)?"
    r"(?P<low>" + "|".join(DECADE_WORDS) + r")(?![\w-])"
    r"|(?<![\w-])(?i:the)[ \u00a0]+(?:(?i:early|mid|late|mid-)[ \u00a0-]*)?"
    r"(?P<dd>[3-9]0s)(?![\w'’])(?:(?:[ \u00a0]+(?i:and|or|to|through)[ \u00a0]+"
    r"|[ \u00a0]*[-\u2013][ \u00a0]*)(?P<dd2>[3-9]0s)(?![\w'’]))?")

#: "60s and 70s Fenders", "a 50s diner": a decade written bare, without "the" or an
#: apostrophe; not an age ("in her 60s", "aged 70s", "over 60s": :data:`_AGE_BEFORE`).
_BARE_DECADE_RE = re.compile(r"(?<![\w'’$£€.,:/-])(?P<dd>[3-9]0s)(?![\w'’])")
_AGE_BEFORE = re.compile(r"(?i)\b(?:her|his|their|my|your|our|its|aged?|over|under|the)"
                         r"[ \u00a0]+(?:(?:early|mid|late)[ \u00a0-]*)?$")

#: A month's full name alone, capitalised, not the first of two capitalised words (*June
#: Carter*); *May* and *March*, also a modal and a verb, only after a word that dates
#: (:data:`_DATING_WORD`).
_MONTH_ALONE_RE = re.compile(
    r"(?<![\w'’-])(?P<mon>January|February|March|April|May|June|July|August|September|"
    r"October|November|December)(?:['’]s)?(?![\w'’-])(?![ \u00a0]+[A-Z])")
#: A short month alone, capitalised (*Nov*, *Sept.*), of :data:`_ABBREVIATIONS`: not *Jan* or
#: *Mar*, also a name and a word, which count only inside a range (:data:`_MONTH_RANGE_RE`).
_SHORT_MONTH_RE = re.compile(
    r"(?<![\w'’-])(?P<mon>" + "|".join(a.capitalize() for a in sorted(
        set(_ABBREVIATIONS) - {"jan", "mar"}, key=lambda a: (-len(a), a))) + r")\.?"
    r"(?![\w'’])(?![ \u00a0]+[A-Z])")
_CAP_MONTH = ("(?:" + "|".join(m.capitalize() for m in sorted(_MONTHS, key=len, reverse=True))
              + "|" + "|".join(a.capitalize() for a in sorted(_ABBREVIATIONS, key=len,
                                                             reverse=True)) + r")\.?")
#: Two months joined by a dash (*Nov-Mar*, *November–March*): a season a record writes, whose
#: ends an overview may spell out (*November through March*); each end is a month.
_MONTH_RANGE_RE = re.compile(r"(?<![\w'’-])(?P<a>" + _CAP_MONTH + r")[ \u00a0]?[-–—][ \u00a0]?"
                             r"(?P<b>" + _CAP_MONTH + r")(?![\w'’-])")
_DATING_WORD = re.compile(r"\b(?:in|by|of|since|until|till|through|from|to|early|mid|late|"
                          r"last|next|this|every|each|and|or)[ \u00a0]$")


# Month names that are also common English words: in lower case they need a year.
_WORDLIKE_MONTHS = frozenset({"may", "march", "mar"})


def _month(m: re.Match) -> int | None:
    word = m.group("mon")
    key = word.rstrip(".").lower()
    if not word[:1].isupper() and key in _WORDLIKE_MONTHS and not m.group("y"):
        return None  # "you may 5 times", "they march 5 miles"
    return _MONTHS.get(key) or _ABBREVIATIONS.get(key)


def _year(text: str) -> int:
    """``"2024"`` -> 2024; ``"'24"`` -> 2024, ``"'97"`` -> 1997 (00-49 are 2000-2049)."""
    if text[0] in "'\u2018\u2019":
        two = int(text[1:])
        return 2000 + two if two < 50 else 1900 + two
    return int(text)


def _valid(year: int | None, month: int, day: int) -> bool:
    if not 1 <= month <= 12 or day < 1:
        return False
    if year is None:
        return day <= calendar.monthrange(2000, month)[1]  # a leap year: Feb 29 is a day
    if not FULL_YEAR_MIN <= year <= FULL_YEAR_MAX:
        return False
    return day <= calendar.monthrange(year, month)[1]


def _named(m: re.Match, out: list[Span]) -> None:
    month = _month(m)
    if month is None:
        return
    day = int(m.group("d"))
    year = _year(m.group("y")) if m.group("y") else None
    if not _valid(year, month, day):
        return
    value = ("date", year, month, day) if year is not None else ("day", month, day)
    out.append((m.start(), m.end(), "date", value))


def _numeric(m: re.Match, out: list[Span]) -> None:
    a, b, ytext, sep = int(m.group("a")), int(m.group("b")), m.group("y"), m.group("s")
    if len(ytext) == 2:
        if sep != "/" and (len(m.group("a")) != 2 or len(m.group("b")) != 2):
            return  # "05.03.24" and "05-03-24" are dates; "1.2.24" is not
        year = 2000 + int(ytext) if int(ytext) < 50 else 1900 + int(ytext)
    else:
        year = int(ytext)
    if sep == ".":
        month, day = b, a  # 05.03.2024: day.month.year
    elif a > 12:
        month, day = b, a  # 25/12/2024 can only be day/month
    else:
        month, day = a, b  # 03/05/2024: US month/day
    if _valid(year, month, day):
        out.append((m.start(), m.end(), "date", ("date", year, month, day)))


def _clock(h: int, mi: int, meridiem: str | None) -> tuple | None:
    if not 0 <= mi <= 59:
        return None
    if meridiem is None:
        return ("time", h, mi) if 0 <= h <= 23 else None
    if not 1 <= h <= 12:
        return None
    pm = meridiem.lower().startswith("p")
    return ("time", (h % 12) + (12 if pm else 0), mi)


def find_dates(text: str) -> list[Span]:
    """Find every date, time and decade in a text, with its canonical value.

    Parameters
    ----------
    text : str
        Any text. Never raises on any string.

    Returns
    -------
    list of (start, end, kind, value)
        Sorted by start and non-overlapping (the longest reading wins where
        two overlap). ``kind`` is always ``"date"``; ``value`` is the
        canonical tuple described in the module docstring. Bare years are
        not found here: see
        :func:`evaltools.scoring.anchors.mentions.find_mentions`.

    Examples
    --------
    >>> for s, e, kind, value in find_dates("Released March 5, 2024 at 3 p.m.; ships 2024-04-01."):
    ...     print(s, e, value)
    9 22 ('date', 2024, 3, 5)
    26 32 ('time', 15, 0)
    40 50 ('date', 2024, 4, 1)
    >>> for *_, v in find_dates("5th of March 2024, 03/05/2024, March 2024, 15:00, the 1990s"):
    ...     print(v)
    ('date', 2024, 3, 5)
    ('date', 2024, 3, 5)
    ('month', 2024, 3)
    ('time', 15, 0)
    ('decade', 1990)
    >>> [v for *_, v in find_dates("a Nineties shoot, the '80s, the late sixties, her forties")]
    [('decade', 1990), ('decade', 1980), ('decade', 1960)]
    >>> [v for *_, v in find_dates("60s and 70s guitars, a man in his 60s, over 60s")]
    [('decade', 1960), ('decade', 1970)]
    >>> [v for *_, v in find_dates("It leaves in May, back by October; June Carter; May I?")]
    [('monthname', 5), ('monthname', 10)]
    >>> [v for *_, v in find_dates("Since August's move, ...")]
    [('monthname', 8)]
    >>> [v for *_, v in find_dates("my '68 Mustang, a \u201924 model, Dan's 68")]
    [('year', 1968), ('year', 2024)]
    """
    if not isinstance(text, str) or not text:
        return []
    found: list[Span] = []
    has_digit = any("0" <= c <= "9" for c in text)
    lowered = text.lower()
    if has_digit:
        for m in _ISO_RE.finditer(text):
            y, mo, d = int(m.group("y")), int(m.group("m")), int(m.group("d"))
            if _valid(y, mo, d):
                found.append((m.start(), m.end(), "date", ("date", y, mo, d)))
        for m in _NUMERIC_RE.finditer(text):
            _numeric(m, found)
        for m in _MDY_RE.finditer(text):
            _named(m, found)
        for m in _DMY_RE.finditer(text):
            _named(m, found)
        for m in _MY_RE.finditer(text):
            month = _month(m)
            year = _year(m.group("y"))
            if month is not None and FULL_YEAR_MIN <= year <= FULL_YEAR_MAX:
                found.append((m.start(), m.end(), "date", ("month", year, month)))
        for m in _MERIDIEM_RE.finditer(text):
            value = _clock(int(m.group("h")), int(m.group("mi") or 0), m.group("mer"))
            if value is not None:
                found.append((m.start(), m.end(), "date", value))
        for m in _CLOCK_RE.finditer(text):
            value = _clock(int(m.group("h")), int(m.group("mi")), None)
            if value is not None:
                found.append((m.start(), m.end(), "date", value))
        if "h" in text:
            for m in _H_CLOCK_RE.finditer(text):
                value = _clock(int(m.group("h")), int(m.group("mi")), None)
                if value is not None:
                    found.append((m.start(), m.end(), "date", value))
        if "." in text:
            for m in _DOT_CLOCK_RE.finditer(text):
                if _DOT_CLOCK_BEFORE.search(text, max(0, m.start() - 10), m.start()) or \
                        _DOT_CLOCK_AFTER.match(text, m.end()):
                    h, mi = m.group().split(".")
                    found.append((m.start(), m.end(), "date", ("time", int(h), int(mi))))
        for m in _DECADE_RE.finditer(text):
            found.append((m.start(), m.end(), "date", ("decade", int(m.group("y")))))
        if "'" in text or "\u2018" in text or "\u2019" in text:
            for m in _SHORT_YEAR_RE.finditer(text):
                found.append((m.start(), m.end(), "date",
                              ("year", _year(m.group("y")))))
    for m in _MONTH_RANGE_RE.finditer(text):
        for g in ("a", "b"):
            key = m.group(g).rstrip(".").lower()
            found.append((m.start(g), m.end(g), "date",
                          ("monthname", _MONTHS.get(key) or _ABBREVIATIONS[key])))
    for m in _SHORT_MONTH_RE.finditer(text):
        found.append((m.start(), m.end(), "date",
                      ("monthname", _ABBREVIATIONS[m.group("mon").lower()])))
    for m in _MONTH_ALONE_RE.finditer(text):
        if m.group("mon") in ("May", "March") and not _DATING_WORD.search(
                text, max(0, m.start() - 8), m.start()):
            continue  # "May I", "March on"
        found.append((m.start(), m.end(), "date",
                      ("monthname", _MONTHS[m.group("mon").lower()])))
    if "ties" in lowered or "0s" in lowered:
        for m in _DECADE_WORD_RE.finditer(text):
            if m.group("dd"):  # "the 30s and 40s", "the 50s-60s": two decades, each its own
                found.append((m.start(), m.end("dd"), "date",
                              ("decade", 1900 + int(m.group("dd")[:2]))))
                if m.group("dd2"):
                    found.append((m.start("dd2"), m.end("dd2"), "date",
                                  ("decade", 1900 + int(m.group("dd2")[:2]))))
                continue
            year = (1900 + int(m.group("yy")) if m.group("yy")
                    else DECADE_WORDS[(m.group("cap") or m.group("low")).lower()])
            found.append((m.start(), m.end(), "date", ("decade", year)))
        for m in _BARE_DECADE_RE.finditer(text):
            if not _AGE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                found.append((m.start(), m.end(), "date",
                              ("decade", 1900 + int(m.group("dd")[:2]))))
    if "noon" in lowered or "midday" in lowered or "midnight" in lowered:
        for m in _NOON_RE.finditer(text):
            hour = 0 if m.group("w").lower() == "midnight" else 12
            found.append((m.start(), m.end(), "date", ("time", hour, 0)))
    return select_longest(found)


def select_longest(spans: list[Span]) -> list[Span]:
    """Keep the longest of overlapping spans (earlier start on ties), sorted by start.

    Parameters
    ----------
    spans : list of (start, end, kind, value)
        Candidate spans, in any order; earlier entries win exact ties.

    Returns
    -------
    list of (start, end, kind, value)
        Non-overlapping, sorted by start.

    Examples
    --------
    >>> select_longest([(0, 4, "date", ("year", 2024)), (0, 10, "date", ("date", 2024, 3, 5)),
    ...                 (12, 14, "number", ("number", 1))])
    [(0, 10, 'date', ('date', 2024, 3, 5)), (12, 14, 'number', ('number', 1))]
    """
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0] - spans[i][1], spans[i][0], i))
    starts: list[int] = []  # kept spans never overlap, so sorted by start is sorted by end
    kept: list[Span] = []
    for i in order:
        s, e = spans[i][0], spans[i][1]
        if e <= s:
            continue
        k = bisect.bisect_left(starts, s)
        if k < len(kept) and kept[k][0] < e:
            continue  # overlaps the next kept span
        if k and kept[k - 1][1] > s:
            continue  # overlaps the previous kept span
        starts.insert(k, s)
        kept.insert(k, spans[i])
    return kept
