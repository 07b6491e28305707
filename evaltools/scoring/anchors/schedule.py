"""Opening hours a response states, checked against a record's weekly schedule.

An overview of a business record says when it is open: "open Monday through Saturday
from 7 AM to 5 PM", "closed on Sundays", "open seven days a week". Claims and numbers
cannot check that: the record is read as one unit, so every weekday and every hour of
it is "found together", and a day the schedule leaves out is simply not there. The
record's schedule is read with the record (:attr:`~evaltools.scoring.context.ReadContext.week`,
:func:`~evaltools.scoring.context.week_hours`, held here as a :class:`Week`); this module
reads the statements a response makes about it (:func:`statements`) and says which the
record denies (:func:`denied`):

- a day said to be closed that the schedule lists as open;
- a day said to be open (in a range, a list, "daily", "seven days a week") that the
  schedule leaves out, or whose hours differ from the ones stated beside it;
- "except" days said to be open.

Only sentences about the business's own hours are read: a sentence naming a meal, a
kitchen, a happy hour or another service with its own times (:data:`OTHER_SCHEDULES`) is
left alone, as is a day range no word of opening or closing goes with, a day of one visit
(*closed at 2 p.m. one Saturday*) and part of a day (*closed Wednesday mornings*); *weekdays*
or *weekends* beside a time are the days of the group the business opens. A denied statement
is reported as a claim the record's own value denies (contradiction ``"record_hours"``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaltools.scoring.anchors.dates import HALF_DAY, MERIDIEM, MONTH
from evaltools.scoring.anchors.mentions import Mention, find_mentions
from evaltools.scoring.context import WEEK
from evaltools.text import opens_sentence_after_clock

_DAY = rf"(?:{'|'.join(WEEK)})s?"
_RANGE_SEP = r"\s*(?:through|thru|to|until|till|-|–|—)\s*"
#: A clock time of the response, masked (:func:`_masked`): the times are the ones the anchors
#: find (:func:`~evaltools.scoring.anchors.dates.find_dates`: *7 AM*, *7 a.m.*, *19:00*,
#: *noon*), read once, and the patterns below see each as a run of this character.
_MASK = "\ue000"
_TIME = f"{_MASK}+"
_TIME_RANGE = re.compile(
    rf"(?:from|between)?\s*({_TIME})\s*(?:to|until|till|and|-|–|—)\s*({_TIME})", re.IGNORECASE)
_OPEN_WORDS = re.compile(r"\b(?:open|opens|opening|hours|operates|operating|operate)\b",
                         re.IGNORECASE)
_CLOSED = re.compile(r"\b(?:closed|closures?)\b", re.IGNORECASE)
#: What says the day right after it is closed (*closed Mondays*, *closed on Sunday*).
_SHUT_BEFORE = re.compile(r"\bclosed\s+(?:on\s+)?$", re.IGNORECASE)
_WHOLE_WEEK = re.compile(r"\b(?:(?:7|seven) days a week|every day|daily)\b", re.IGNORECASE)
_EXCEPT = re.compile(
    rf"\bexcept\s+(?:on\s+|for\s+)?({_DAY}(?:\s*(?:,|and|or|&)\s*{_DAY})*)")
#: Words of a sentence about a schedule of its own (a meal, a service, a special), not the
#: business's opening hours.
OTHER_SCHEDULES = re.compile(
    r"\b(?:happy hours?|brunch|breakfast|lunch|dinner|kitchen|delivery|buffet|special|specials|"
    r"class|classes|session|sessions|story time|event|events|market|show|shows|trivia|"
    r"music|deal|deals|discount|discounts|half-price|service hours|pickup|drop-off|"
    r"appointments?)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?;]+(?:[.!?;]|$)")


def _day(text: str) -> str:
    """The weekday a name in :data:`_DAY` form stands for ("Sundays": Sunday)."""
    return text[:-1] if text.endswith("s") else text


def _days_between(a: str, b: str) -> list[str]:
    i, j = WEEK.index(a), WEEK.index(b)
    return [WEEK[(i + k) % 7] for k in range((j - i) % 7 + 1)]


#: Most characters between a bare hour and the clock time that ends its range: "4-10 p.m.",
#: "4 to 10 p.m.", "between 4 and 10 p.m.".
_RANGE_START_GAP = 5


def _is_time(m: Mention) -> bool:
    return m.kind == "date" and m.value[0] == "time"


def clock_times(mentions: Sequence[Mention]) -> list[tuple[int, int, int]]:
    """``(start, end, minute after midnight)`` of each clock time among a text's mentions
    (:func:`~evaltools.scoring.anchors.mentions.find_mentions`), and of a bare hour that
    starts a range a clock time ends: *4-10 p.m.* is 4 p.m. to 10 p.m., *11-2 p.m.* 11 a.m.
    to 2 p.m., *10-2 a.m.* 10 p.m. to 2 a.m. (the latest of its two readings not after the
    end, else the later).

    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> [t for _, _, t in clock_times(find_mentions("Open 4-10 p.m., 11-2 p.m. or 10-2 a.m."))]
    [960, 1320, 660, 840, 1320, 120]

    A clock time with minutes and no half of the day starts such a range the same way:

    >>> [t for _, _, t in clock_times(find_mentions("Friday 6:30 to 11 p.m., 11:30-2 p.m."))]
    [1110, 1380, 690, 840]

    (not from *noon* or *midnight*: *Saturday 10:00 to midnight* opens at 10:00):

    >>> [t for _, _, t in clock_times(find_mentions("Saturday 10:00 to midnight"))]
    [600, 0]

    So does a bare hour given as the alternative of a clock time: *from 7 or 8 AM*.

    >>> [t for _, _, t in clock_times(find_mentions("from 7 or 8 AM until 4 or 6 PM"))]
    [420, 480, 960, 1080]
    """
    out = []
    for k, m in enumerate(mentions):
        end = mentions[k + 1] if k + 1 < len(mentions) else None
        ends = (end is not None and _is_time(end) and 0 < end.start - m.end <= _RANGE_START_GAP)
        if _is_time(m):
            minute = m.value[1] * 60 + m.value[2]
            if not (ends and 1 <= m.value[1] <= 12 and not HALF_DAY.search(m.text)
                    and MERIDIEM.search(end.text)):  # a.m. or p.m.: not noon, midnight
                out.append((m.start, m.end, minute))
                continue
            readings = [minute, (minute + 720) % 1440]  # "6:30 to 11 p.m.": either half
        elif ends and m.others and all(o[0] == "time" for o in m.others):
            readings = [o[1] * 60 + o[2] for o in m.others]  # "4-10 p.m."
        else:
            continue
        closes = end.value[1] * 60 + end.value[2]
        out.append((m.start, m.end, max((r for r in readings if r <= closes),
                                        default=max(readings))))
    return out


#: After a time's closing period, the next two words ("... to 8 p.m. The restaurant offers
#: ...", "4-10 p.m. Tuesday", "until 8 p.m. Saturday hours are ..."), a line break or the
#: text's end.
_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_][\w'-]*)(?:[ \t]+([\w'-]+))?|[ \t]*(?:\n|$)")


def _masked(text: str, times: Sequence[tuple[int, int, int]]) -> str:
    """``text`` with each clock time written as a run of :data:`_MASK` (offsets kept); the
    period of a *p.m.* that ends its sentence stays, to end it.

    >>> t = _masked("Sunday 11 a.m. to 8 p.m. Delivery too.", [(7, 14, 660), (18, 24, 1200)])
    >>> t.replace(_MASK, "#")
    'Sunday ####### to #####. Delivery too.'
    """
    chars = list(text)
    for start, end, _ in times:
        after = _NEXT_WORD.match(text, end) if text[end - 1] == "." else None
        stop = end - 1 if after and (
            after.group(1) is None
            or opens_sentence_after_clock(after.group(1), after.group(2) or "")) else end
        chars[start:stop] = _MASK * (stop - start)
    return "".join(chars)


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


@dataclass(frozen=True)
class Week:
    """A record's weekly schedule (``ReadContext.week``): each open day's opening and
    closing minute (a day left out is closed; ``(0, 0)`` is Yelp's ``0:0-0:0``, read as
    open around the clock and as closed alike, so nothing said of that day is denied)."""

    hours: tuple[tuple[str, int, int], ...]

    def of(self, day: str) -> tuple[int, int] | None:
        return next(((a, b) for d, a, b in self.hours if d == day), None)

    def open_past(self, minute: int) -> str | None:
        """The first day whose hours run past ``minute`` (after midnight: ``0``), its
        closing minute counted on from its opening one, or None.

        >>> w = Week((("Friday", 630, 120), ("Sunday", 660, 1260), ("Monday", 0, 0)))
        >>> w.open_past(0), w.open_past(1200), w.open_past(1320), w.open_past(180)
        ('Friday', 'Friday', 'Friday', None)
        >>> Week((("Sunday", 660, 1260),)).open_past(0)
        """
        for day, a, b in self.hours:
            if (a, b) == (0, 0):
                continue  # Yelp's 0:0-0:0 says nothing of the hours
            close = b if b > a else b + 1440
            at = minute if minute >= a else minute + 1440
            if a <= at < close:
                return day
        return None


#: What says a time is passed ("open after midnight", "serves past 10 p.m.").
_PASSED = re.compile(r"(?i)\b(?:after|past|beyond)\s+$")


def times_run_past(text: str, times: Sequence[tuple[int, int, int]], week: Week
                   ) -> dict[int, str]:
    """The start of each clock time of ``times`` (:func:`clock_times` of ``text``) that the
    text says a business is open after or past ("open after midnight on weekends") and that
    some day of ``week`` runs past (:meth:`Week.open_past`), with that day.

    >>> text = "It is open after midnight and past 11 PM."
    >>> times_run_past(text, clock_times(find_mentions(text)),
    ...                Week((("Friday", 630, 120), ("Sunday", 660, 1260))))
    {17: 'Friday', 35: 'Friday'}
    """
    out = {}
    for start, _, minute in times:
        if _PASSED.search(text, max(0, start - 8), start):
            day = week.open_past(minute)
            if day is not None:
                out[start] = day
    return out


@dataclass(frozen=True)
class Statement:
    """What a response says of some days: ``open`` or not, and the hours stated beside
    them (minutes, or None); ``start``/``end`` index the response."""


    days: tuple[str, ...]
    open: bool
    start: int
    end: int
    hours: tuple[int, int] | None = None
    #: the days held to ``hours`` (None: all of ``days``)
    timed: tuple[str, ...] | None = None
    #: the closing minute stated alone beside them ("until 7 PM on Thursdays"), or None
    closes: int | None = None
    #: "weekdays" or "weekends" beside a time ("opens at 9 a.m. on weekdays"): the days of
    #: the group the business opens, so a day the record leaves out is not denied
    loose: bool = False


_GROUP = re.compile(rf"\b(?:({_DAY})(?:{_RANGE_SEP}({_DAY}))?|(weekdays?)|(weekends?))\b")


def _day_groups(clause: str):
    """(days, start, end) of each day, day range, "weekdays" or "weekends" of a clause."""
    for m in _GROUP.finditer(clause):
        if m.group(3):
            days = list(WEEK[:5])
        elif m.group(4):
            days = list(WEEK[5:])
        else:
            a = _day(m.group(1))
            days = _days_between(a, _day(m.group(2))) if m.group(2) else [a]
        yield days, m.start(), m.end()


#: Words that deny the day after them: "closed on Sundays", "no Monday hours", "the lack of
#: Sunday hours".
_NEGATED = re.compile(r"\b(?:closed|no|not|never|lack(?:s|ing)?(?: of)?|absence of)\b"
                      r"|n['\u2019]t\b", re.IGNORECASE)
#: A wish or suggestion, whose days are what someone wanted, not what the business does
#: (*wished the bar were open Mondays*), up to a clause that turns back to the facts.
_WISH = re.compile(r"\b(?:wish(?:ed|es)?|hop(?:e|ed|es|ing)|would (?:like|love|prefer)|"
                   r"if only|suggest(?:s|ed)?)\b", re.IGNORECASE)
_TURN = re.compile(r"\b(?:but|while|though|although|however|whereas)\b", re.IGNORECASE)
_NOT_OPEN = re.compile(r"(?:\bnot|n['\u2019]t|\bnever)\s+(?:be\s+|been\s+)?open\b",
                       re.IGNORECASE)
_OPEN_VERB = re.compile(r"\bopens?\b", re.IGNORECASE)
#: A day of one visit, not of the week: "found it closed at 2 p.m. one Saturday".
_OCCASION = re.compile(r"(?:\b(?:one|a|last|that|this|this past|opening|holiday|long)"
                       r"|['\"\u2019\u201d])\s+$", re.IGNORECASE)
#: ... (also an *opening weekend*, a *long weekend*, a named one: *"open sew" weekends*), or
#: "the" before it and "of" after it:
#: "the Sunday night of opening weekend", "the Saturday of Memorial Day weekend".
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_OF_AFTER = re.compile(r"^\s*(?:(?:mornings?|afternoons?|evenings?|nights?)\s+)?of\b",
                       re.IGNORECASE)
#: A season after a day group: "closed Sundays after Aug 1", "open Mondays in summer", "closed
#: Saturdays from November to March": the days of part of the year, not of the record's week.
_SEASON_AFTER = re.compile(
    r"^\s*(?:after|until|till|through|from|before|starting|in|during)\s+(?:(?:early|mid|late)"
    r"[\s-]+)?(?:" + MONTH + r"(?=\s|$|[,;.])"
    r"|(?:the\s+)?(?:summer|winter|spring|fall|autumn|off-?season|high\s+season|low\s+season)"
    r"s?\b)", re.IGNORECASE)
#: A closure named after its days: "the weekend closure", "Sunday closures".
_CLOSURE_AFTER = re.compile(r"^\s*closures?\b", re.IGNORECASE)
#: Part of a day: "the closed Wednesday mornings" are not a closed Wednesday.
_PART_OF_DAY = re.compile(r"^\s*(?:mornings?|afternoons?|evenings?|nights?)\b", re.IGNORECASE)
#: After "except Sunday": the day's own hours follow ("except Sunday, when it closes at 3").
_EXCEPT_WHEN = re.compile(r"^\s*,?\s*when\b(?![^.;]*\bclosed\b)", re.IGNORECASE)
_LIST_GAP = re.compile(r"\s*(?:,|and|&|or|,\s*and|,\s*or)\s*")
#: One clock time beside a day ("until 7 PM on Thursdays"): a day of its own, held to no
#: range's hours and sharing none.
_ONE_TIME_BEFORE = re.compile(
    rf"\b(until|till|from|after|before|at|by|past)\s+({_TIME})\s*,?\s*(?:on\s+)?$",
    re.IGNORECASE)
_ONE_TIME_AFTER = re.compile(rf"^\s*,?\s*(until|till|after|before|at|by|past)\s+({_TIME})",
                             re.IGNORECASE)
_BARE_TIME = re.compile(rf"(?:,|\band)\s*({_TIME})\s*,?\s*(?:on\s+)?$", re.IGNORECASE)
_CLOSING_WORD = re.compile(r"\b(?:until|till|clos(?:es|ing)\s+at)\b", re.IGNORECASE)
#: Words that make the times after them opening times again (*until 2 p.m., starting at 6:30
#: a.m. on weekdays and 7 a.m. on weekends*).
_OPENING_WORD = re.compile(r"\b(?:from|opens?|opening|start(?:s|ing)?|begin(?:s|ning)?)\b",
                           re.IGNORECASE)
#: Before a one-sided time, what makes it the closing time: "until 7 PM", "closes at 9 PM".
_CLOSING = re.compile(r"(?:\buntil|\btill|\bclos(?:es|ing)\s+at)\s*$", re.IGNORECASE)
#: Between a day group and the hours after it: "Saturday, 9 AM-5 PM", "Saturday hours run
#: from 9:30 a.m. to 5 p.m.", "Saturday hours are 9 to 5".
_AFTER_GAP = re.compile(r"[\s,:]*(?:hours(?:\s+(?:run|are|go))?[\s,:]*)?", re.IGNORECASE)
#: A day group right after a time ("until midnight on Fridays"): the time is that group's.
_DAY_NEXT = re.compile(rf"\s*,?\s*(?:on\s+|every\s+)?(?:{_DAY}|weekdays?|weekends?)\b")
#: A day whose hours the response says are not given: "(Monday hours aren't listed)".
_HOURS_UNLISTED = re.compile(
    r"^\s*hours\s+(?:are\s+not|aren['\u2019]t|were\s+not|weren['\u2019]t|not)\s+"
    r"(?:listed|given|posted|shown|stated)\b", re.IGNORECASE)
#: A clock time right before a day group ("10 AM on weekdays") or right after it.
_TIME_BEFORE = re.compile(rf"{_TIME}\s*,?\s*(?:on\s+)?$")
_TIME_AFTER = re.compile(rf"^\s*,?\s*(?:from|until|till|after|before|at|by|past)?\s*{_TIME}",
                         re.IGNORECASE)
_BEFORE_GAP = re.compile(r"\s*,?\s*(?:on|every)?\s*")
#: ... and written with *on* ("noon to 11 p.m. on Friday"), whatever order a sentence began with.
_ON_GAP = re.compile(r"\s+(?:on|every)\s+")


def _closing_time(sentence: str, a: int, b: int, minute) -> int | None:
    """The closing minute a one-sided time beside the day group at ``a:b`` states ("open
    until 7 PM on Thursdays", "Fridays until 2 AM", "closes at 9 PM on Sundays"), or None
    (an opening time, "from 9 AM on Saturdays", or none). ``minute(i)``: the minute of the
    time that starts at ``sentence[i]``."""
    before = _ONE_TIME_BEFORE.search(sentence[:a])
    if before is not None and _CLOSING.search(sentence[:before.start(2)]):
        return minute(before.start(2))
    # "closing at 8 PM Tuesday through Thursday, 9 PM on Friday": a bare time continuing
    # a list of closing times
    bare = _BARE_TIME.search(sentence[:a])
    if bare is not None:
        said = list(_CLOSING_WORD.finditer(sentence[:bare.start(1)]))
        if said and not _OPENING_WORD.search(sentence[said[-1].end():bare.start(1)]):
            return minute(bare.start(1))
    after = _ONE_TIME_AFTER.search(sentence[b:])
    if (after is not None and after.group(1).lower() in ("until", "till")
            and not _DAY_NEXT.match(sentence, b + after.end())):
        # not "open Wednesday through Sunday, until midnight on Fridays": that is Friday's
        return minute(b + after.start(2))
    return None


def _time_ranges(sentence: str, minute) -> list[tuple[int, int, tuple[int, int]]]:
    """(start, end, (opens, closes)) of each clock-time range of a sentence."""
    return [(t.start() + len(t.group()) - len(t.group().lstrip()), t.end(),
             (minute(t.start(1)), minute(t.start(2))))
            for t in _TIME_RANGE.finditer(sentence)]


def statements(text: str, times: Sequence[tuple[int, int, int]] | None = None
               ) -> list[Statement]:
    """The response's statements about the days it is open or closed, each open day group
    with the hours stated right beside it, after it ("Monday through Friday from 7 AM to 5
    PM") or before it ("from 4 PM to 2 AM Monday through Thursday"), as the sentence's
    first hours and days are ordered; a day listed with others ("Thursday and Friday")
    shares their hours, and a day a range covers that the sentence names again on its own
    ("extended hours until 7 PM on Thursdays") is not held to the range's hours.
    ``times``: the text's clock times (:func:`clock_times`; found when None).

    >>> [(s.days, s.open, s.hours) for s in statements(
    ...     "It is open Tuesday through Saturday from 10 AM to 7 PM and is closed on "
    ...     "Sundays and Mondays.")]
    [(('Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'), True, (600, 1140)), \
(('Sunday',), False, None), (('Monday',), False, None)]
    >>> [(s.days, s.hours) for s in statements("It opens at 2 PM Tuesday (until 10 PM), "
    ...     "noon to 11 PM on Friday, 10 AM to 11 PM on Saturday.")][1:]
    [(('Friday',), (720, 1380)), (('Saturday',), (600, 1380))]
    >>> [(s.days, s.hours) for s in statements("Hours: Thursday and Friday, 9 AM-5 PM.")]
    [(('Thursday',), (540, 1020)), (('Friday',), (540, 1020))]
    >>> [(s.days, s.hours) for s in statements(
    ...     "It is open 4 PM to 2 AM Monday and Tuesday, and noon to 4 AM on Friday.")]
    [(('Monday',), (960, 120)), (('Tuesday',), (960, 120)), (('Friday',), (720, 240))]
    >>> [(len(s.days), s.open) for s in statements("It is open daily except Mondays.")]
    [(6, True), (1, False)]
    >>> [(s.days[0], s.open) for s in statements(
    ...     "It is open weekdays, with no hours listed for Saturday or Sunday.")]
    [('Monday', True), ('Saturday', False), ('Sunday', False)]
    >>> [(s.days, s.hours) for s in statements(
    ...     "It is open Tuesday through Friday from 10 AM to 6 PM, with extended hours until "
    ...     "7 PM on Thursdays, and Saturdays from 9 AM to 5 PM.")][1:]
    [(('Thursday',), None), (('Saturday',), (540, 1020))]
    >>> [(len(s.days), s.hours) for s in statements(
    ...     "It is open Monday through Friday from 7 a.m. to 5 p.m. and closed on weekends.")]
    [(5, (420, 1020)), (2, None)]
    >>> [(s.days, s.hours) for s in statements("Saturday hours run from 9:30 a.m. to 5 p.m.")]
    [(('Saturday',), (570, 1020))]
    >>> statements("Happy hour runs Monday through Friday from 3 PM to 6 PM.")
    []
    >>> [(s.days[0], s.open) for s in statements(  # no closed Saturday
    ...     "It is open weekdays. Drawbacks include no email, and short Saturday hours.")]
    [('Monday', True)]
    >>> [(s.days, s.open) for s in statements(  # Saturday is no closed day either
    ...     "It opens Tuesday to Saturday. Complaints include no Monday hours while "
    ...     "Saturdays book up quickly.")][1:]
    [(('Monday',), False), (('Saturday',), True)]
    >>> [(s.days, s.open) for s in statements(  # a closure named after its days
    ...     "One patient found the short Friday hours and weekend closure hard.")]
    [(('Saturday', 'Sunday'), False)]
    >>> [s.days for s in statements("It is open Tuesday to Friday, and one regular wished "
    ...                             "it were open Mondays.")]
    [('Tuesday', 'Wednesday', 'Thursday', 'Friday')]

    A day excepted with hours of its own is open and not held to the group's hours:

    >>> [(s.timed, s.hours) for s in statements("It is open 10:00 to 17:30 Monday through "
    ...     "Wednesday, except Tuesday, when it stays open until 20:00.")]
    [(('Monday', 'Wednesday'), (600, 1050))]
    """
    if times is None:
        times = clock_times(find_mentions(text))
    at = {start: value for start, _, value in times}
    out: list[Statement] = []
    # masked, "7 a.m." is no sentence end either
    for sent in _SENTENCE.finditer(_masked(text, times)):
        s, base = sent.group(), sent.start()

        def minute(i: int, base: int = base) -> int:
            return at[base + i]

        if OTHER_SCHEDULES.search(s) or not (_OPEN_WORDS.search(s) or _CLOSED.search(s)):
            continue
        mine: list[Statement] = []
        excepted: set[int] = set()
        other_hours: set[str] = set()  # "except Sunday, when it closes at 3"
        for m in _EXCEPT.finditer(s):  # "open daily except Mondays": Monday is closed
            days = tuple(_day(x.group()) for x in re.finditer(_DAY, m.group(1)))
            if _EXCEPT_WHEN.match(s[m.end():]):
                other_hours.update(days)  # open, with hours of their own
            else:
                mine.append(Statement(days, False, base + m.start(), base + m.end()))
            excepted.update(range(m.start(1), m.end(1)))
        groups = [g for g in _day_groups(s) if g[1] not in excepted]
        ranges = _time_ranges(s, minute)
        # "open Tuesday through Sunday: from 4:30 PM to 10 PM Tuesday to Thursday, ...": a
        # group whose every day a smaller group names again heads the list and orders nothing
        named = [frozenset(days) for days, _, _ in groups]
        heads = {k for k, days in enumerate(named) if days <= frozenset().union(
            *(other for j, other in enumerate(named) if j != k and len(other) < len(days)))}
        ordered = [g for k, g in enumerate(groups) if k not in heads] or groups
        # "closed Mondays and open 10 a.m. to 6 p.m. Tuesday, ...": a day said closed right
        # before the hours orders nothing either
        ordered = [g for g in ordered if not _SHUT_BEFORE.search(s[:g[1]])] or ordered
        times_first = bool(ranges and ordered and ranges[0][0] < ordered[0][1])
        hours: list[tuple[int, int] | None] = []
        for k, (_, a, b) in enumerate(groups):
            lo = groups[k - 1][2] if k else 0
            hi = groups[k + 1][1] if k + 1 < len(groups) else len(s)
            beside = [value for t0, t1, value in ranges if (
                (lo <= t0 and t1 <= a and _BEFORE_GAP.fullmatch(s[t1:a])) if times_first
                else (b <= t0 < hi and _AFTER_GAP.fullmatch(s[b:t0])))]
            # "noon to 11 p.m. on Friday, 10 a.m. to 11 p.m. on Saturday": *on* binds a day
            # to the hours just before it, whatever order the sentence began with
            on = [value for t0, t1, value in ranges if lo <= t0 and t1 <= a
                  and _ON_GAP.fullmatch(s[t1:a])]
            hours.append(on[-1] if on else beside[-1] if beside else None)
        alone = [hours[k] is None and bool(_ONE_TIME_BEFORE.search(s[:a])
                                           or _ONE_TIME_AFTER.search(s[b:]))
                 for k, (_, a, b) in enumerate(groups)]
        closes = [_closing_time(s, a, b, minute) if hours[k] is None else None
                  for k, (_, a, b) in enumerate(groups)]
        for k in range(1, len(groups)):  # "until 10 PM on Fridays and Saturdays"
            if (closes[k] is None and hours[k] is None and closes[k - 1] is not None
                    and _LIST_GAP.fullmatch(s[groups[k - 1][2]:groups[k][1]])):
                closes[k] = closes[k - 1]
        # a day listed with others shares their hours: "Thursday and Friday, 9 AM-5 PM"
        order = range(1, len(groups)) if times_first else range(len(groups) - 2, -1, -1)
        for k in order:
            j = k - 1 if times_first else k + 1
            gap = s[groups[j][2]:groups[k][1]] if times_first else s[groups[k][2]:groups[j][1]]
            if (hours[k] is None and hours[j] is not None and not alone[k]
                    and _LIST_GAP.fullmatch(gap)):
                hours[k] = hours[j]
        for k, (days, a, b) in enumerate(groups):
            if (_OCCASION.search(s[:a]) or _SEASON_AFTER.match(s[b:])
                    or (_THE_BEFORE.search(s[:a]) and _OF_AFTER.match(s[b:]))):
                continue  # "closed at 2 p.m. one Saturday": a visit, not the week; "closed
                # Sundays after Aug 1": a season's, not the week the record gives
            before = s[max(0, a - 25):a]
            # a "no" that a comma closes denies what it stands before, not the day: "no
            # email, and short Saturday hours" (a day *closed* stays denied along a list);
            # nor does one a turn closes: "no Monday hours while Saturdays book up"
            negs = [n for n in _NEGATED.finditer(before)
                    if (n.group().lower() == "closed" or "," not in before[n.end():])
                    and not _TURN.search(before, n.end())]
            listed = (k and mine and not mine[-1].open and mine[-1].end == base + groups[k - 1][2]
                      and _LIST_GAP.fullmatch(s[groups[k - 1][2]:a]))
            if (negs and not _OPEN_VERB.search(before[negs[-1].end():])) or listed or (
                    _NOT_OPEN.search(before)) or _HOURS_UNLISTED.match(s[b:]) or (
                    _CLOSURE_AFTER.match(s[b:])):
                # "closed on Sundays", "no hours listed for Sunday or Monday", "the weekend
                # closure"
                if not _PART_OF_DAY.match(s[b:]):  # not "closed Wednesday mornings"
                    mine.append(Statement(tuple(days), False, base + a, base + b))
                continue
            if _OPEN_WORDS.search(s[:a]) is None and hours[k] is None:
                continue  # "on Saturdays the line is long": no word of opening
            wishes = list(_WISH.finditer(s, 0, a))
            if wishes and not _TURN.search(s, wishes[-1].end(), a):
                continue  # "wished it opened on Tuesdays"
            again = {d for j, other in enumerate(named) if j != k for d in other
                     if len(other) < len(days)}
            # (a time right beside the group; hours shared along a list or a closing time
            # continuing one come from further off)
            loose = s[a:b].lower().startswith("week") and (
                hours[k] is not None or closes[k] is not None
                or _TIME_BEFORE.search(s[:a]) is not None or _TIME_AFTER.match(s[b:]) is not None)
            mine.append(Statement(tuple(days), True, base + a, base + b, hours[k],
                                  tuple(d for d in days if d not in again | other_hours),
                                  closes[k], loose))
        whole = _WHOLE_WEEK.search(s)
        if whole is not None and _OPEN_WORDS.search(s):
            shut = {d for st in mine if not st.open for d in st.days} | other_hours
            mine.append(Statement(tuple(d for d in WEEK if d not in shut), True,
                                  base + whole.start(), base + whole.end()))
        out.extend(sorted(mine, key=lambda st: st.start))
    return out


def denied(statement: Statement, week: Week) -> tuple[str, str] | None:
    """``(day, why)``: the first day of a statement the record's schedule denies and why,
    or None when it denies none.

    >>> w = Week((("Monday", 420, 1020), ("Saturday", 480, 840)))
    >>> denied(Statement(("Saturday",), False, 0, 8), w)
    ('Saturday', "the record's hours list Saturday as open (8:00–14:00)")
    >>> denied(Statement(("Monday", "Tuesday"), True, 0, 8), w)
    ('Tuesday', "the record's hours list no Tuesday (closed)")
    >>> denied(Statement(("Saturday",), True, 0, 8, (420, 1020)), w)
    ('Saturday', "the record's Saturday hours are 8:00–14:00, not 7:00–17:00")
    >>> denied(Statement(("Monday",), True, 0, 8, (420, 1020)), w) is None
    True
    """
    loose = statement.loose and any(week.of(d) is not None for d in statement.days)
    for day in statement.days:
        hours = week.of(day)
        if hours == (0, 0):
            continue  # Yelp's 0:0-0:0: open around the clock, or closed; either may be said
        if hours is None and loose:
            continue  # "opens at 9 a.m. on weekdays": on the weekdays it opens
        if not statement.open:
            if hours is not None:
                return day, (f"the record's hours list {day} as open "
                             f"({_clock(hours[0])}–{_clock(hours[1])})")
            continue
        if hours is None:
            return day, f"the record's hours list no {day} (closed)"
        timed = statement.timed is None or day in statement.timed
        if timed and statement.hours is not None and hours != (0, 0) and (
                statement.hours[0] % 1440, statement.hours[1] % 1440) != (
                hours[0] % 1440, hours[1] % 1440):
            return day, (f"the record's {day} hours are {_clock(hours[0])}–"
                         f"{_clock(hours[1])}, not {_clock(statement.hours[0])}–"
                         f"{_clock(statement.hours[1])}")
        if timed and statement.closes is not None and hours != (0, 0) and (
                statement.closes % 1440 != hours[1] % 1440):
            return day, (f"the record's {day} hours close at {_clock(hours[1])}, not "
                         f"{_clock(statement.closes)}")
    return None


def confirmed(statement: Statement, week: Week) -> bool:
    """Whether the record's schedule states what ``statement`` says: each of its days open
    (with the hours stated beside them, :func:`denied`) or, said closed or without hours,
    left out of the week.

    >>> w = Week((("Monday", 420, 1020), ("Saturday", 480, 840)))
    >>> confirmed(Statement(("Sunday",), False, 0, 8), w)
    True
    >>> confirmed(Statement(("Saturday",), False, 0, 8), w)
    False
    >>> confirmed(Statement(("Monday",), True, 0, 8, (420, 1020)), w)
    True
    """
    return denied(statement, week) is None and all(
        (week.of(day) is not None) is statement.open for day in statement.days)


#: The words of a statement about the days a business is open, besides its days and clock
#: times ("no Sunday hours listed", "no hours are listed for Tuesday", "closed Mondays").
HOURS_WORDS = frozenset({
    "no", "not", "n't", "nor", "neither", "none", "any", "and", "or", "but", "is", "are",
    "was", "were", "be", "been", "has", "have", "had", "hour", "hours", "listed", "list",
    "lists", "given", "posted", "shown", "stated", "open", "opens", "closed", "closes", "for",
    "on", "the", "its", "it", "there", "from", "to", "until", "through", "day", "days",
    "week", "weekly", "except", "record", "schedule"})
_WORD = re.compile(r"[A-Za-z]+(?:['\u2019][a-z]+)?")


def says_only_hours(text: str, times: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether ``text`` says nothing but days, clock times (``times``: their spans in
    ``text``) and :data:`HOURS_WORDS`.

    >>> says_only_hours("no Sunday hours listed"), says_only_hours("no hours listed for Tuesday")
    (True, True)
    >>> says_only_hours("no Sunday brunch")
    False
    """
    for a, b in sorted(times, reverse=True):
        text = text[:a] + " " * (b - a) + text[b:]
    text = _GROUP.sub(" ", text)
    words = [w.lower().replace("\u2019", "'") for w in _WORD.findall(text)]
    return bool(words) and all(w in HOURS_WORDS or w.endswith("n't") for w in words)


def evidence(read_text: str, day: str) -> tuple[int, int] | None:
    """Where a read record states ``day``'s hours (``hours open Saturday: 8:00–14:00.``),
    or, for a day it leaves out, its week (``hours open: open 6 days a week, closed
    Sunday.``); None when neither is there.

    >>> text = "name: X. hours open Monday: 7:00–17:00. hours open: open 1 days a week."
    >>> [text[a:b] for a, b in (evidence(text, "Monday"), evidence(text, "Sunday"))]
    ['hours open Monday: 7:00–17:00.', 'hours open: open 1 days a week.']
    """
    for pattern in (rf"[^.]*\b{day}:\s*\d[^.]*\.", r"[^.]*\bdays a week\b[^.]*\."):
        m = re.search(pattern, read_text)
        if m is not None:
            lead = len(m.group()) - len(m.group().lstrip())
            return m.start() + lead, m.end()
    return None
