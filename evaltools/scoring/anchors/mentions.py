"""Number and date anchors: find them in a text and match them against a context.

The public surface used by the hallucination scorer:

- :class:`Mention` — one number or date found in a text, with character
  offsets and a canonical value;
- :func:`find_mentions` — every number and date in a text, non-overlapping,
  sorted; a date or time wins over the numbers inside it;
- :func:`supports` — whether one mention (found in the context) supports
  another (claimed in the response);
- :func:`find_support` — the first context mention that supports a claim.

Matching compares canonical values, never surface text: ``$1,299.00``,
``1299 USD`` and ``USD 1299`` are the same claim; so are ``2024-03-05``,
``March 5, 2024`` and ``03/05/2024``; so are ``3pm`` and ``15:00``.

The leniency rules (see ``docs/anchors.md``):

1. Same canonical value: supported.
2. A context number with no unit supports a claim with a unit of the same
   amount: ``44.95`` supports ``$44.95``, ``16 oz`` and ``16%`` — the context
   left the unit unstated. A different unit or currency does not: ``€44.95``
   does not support ``$44.95``; ``2 lb`` does not support ``2 kg``. A
   conversion the claim made (``72 °F`` for ``22 °C``) supports, and the
   note says so (:func:`describe_support`).
3. A claim with no unit is supported by any context amount equal to it:
   ``44.95`` is supported by ``$44.95``.
4. A coarser date is supported by a finer one inside it (``2024`` by
   ``March 5, 2024``; ``March 2024`` by ``2024-03-05``; ``the 1990s`` by
   ``1995``; ``March 5`` by ``March 5, 2024``); a finer date is never
   supported by a coarser one (``March 5, 2024`` is not supported by ``2024``
   nor by ``March 5``).
5. Times must be equal (``3pm`` = ``15:00``; ``3pm`` is not ``3am``).
6. A qualifier the claim writes (``more than 40``) must be stated or
   implied by the context's (:func:`qualifier_allows`).
7. Ambiguous forms are read both ways: a numeric date whose first two
   numbers are both 12 or less (``05/03/2024`` is May 3 or March 5) and a
   clock time with no a.m./p.m. and an hour from 1 to 12 (``5:00`` is 05:00
   or 17:00). Their ``value`` keeps the first reading (US month/day; as
   written), but either reading can support or be supported.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from evaltools.arguments import check_type
from evaltools.scoring.anchors.dates import find_dates
from evaltools.scoring.anchors.numbers import KRONA_CODES, find_number_spans
from evaltools.scoring.anchors.units import DURATIONS, same_after_conversion

__all__ = [
    "QUALIFIERS",
    "Mention",
    "comparison_denied",
    "conversion",
    "describe_support",
    "find_mentions",
    "find_support",
    "qualifier_allows",
    "qualifiers_allow",
    "supports",
]

_UNIT_BEARING = ("money", "quantity", "percent", "ordinal")
# Numeric dates whose first two numbers are both 12 or less read either way.
_AMBIGUOUS_DATE = re.compile(r"(0?[1-9]|1[0-2])([/.-])(0?[1-9]|1[0-2])\2[0-9]{2,4}")
# Clock times with no a.m./p.m. and an hour from 1 to 12 (no leading zero): 5:00, 12:30.
_AMBIGUOUS_TIME = re.compile(r"(?:[1-9]|1[0-2])[:.][0-5][0-9](?::[0-9]{2}(?:\.[0-9]+)?)?")
# A time written "14.30" with nothing else saying it is a time also reads as the number 14.3.
_DOTTED_TIME = re.compile(r"[0-9]{1,2}\.[0-9]{2}")


@dataclass(frozen=True)
class Mention:
    """One number or date in a text.

    Attributes
    ----------
    kind : str
        ``"number"`` or ``"date"`` (times and years are dates); in a context, also
        ``"count"``: the number of names it lists, and ``"share"``: the percentage one
        amount is of another (:mod:`~evaltools.scoring.anchors.implied`).
    text : str
        The exact substring: ``source[start:end] == text``.
    start, end : int
        Character offsets into the text it was found in.
    qualifier : str
        What the text says of the amount just before or after it (a key of
        :data:`QUALIFIERS`, or ``"+"``): ``"more than 40"`` is ``">"``,
        ``"up to 3"`` ``"<="``, ``"about 2 million"`` ``"~"``, ``"exactly 40"``
        ``"="``, ``"40+"`` ``"+"`` (more than, or at least, 40); ``""`` when
        nothing is said.
    others : tuple
        Other readings of an ambiguous digit run (``1.234`` is 1.234 or
        1234): values that may match as well as ``value``.
    value : tuple
        Canonical, hashable key that matching compares, e.g.
        ``("money", "USD", Decimal("19.99"))``, ``("quantity", "kg", Decimal("2"))``,
        ``("percent", Decimal("15"))``, ``("number", Decimal("1200"))``,
        ``("ordinal", Decimal("5"))``, ``("date", 2024, 3, 5)``,
        ``("day", 3, 5)``, ``("month", 2024, 3)``, ``("monthname", 3)``, ``("year", 2024)``,
        ``("decade", 1990)``, ``("time", 15, 0)``, ``("phone", "8005550199")``.

    Examples
    --------
    >>> text = "Ships 5 March 2024 in a 2kg box"
    >>> date, weight = find_mentions(text)
    >>> date
    Mention(kind='date', text='5 March 2024', start=6, end=18, value=('date', 2024, 3, 5))
    >>> text[weight.start:weight.end], weight.value
    ('2kg', ('quantity', 'kg', Decimal('2')))
    """

    kind: str
    text: str
    start: int
    end: int
    value: tuple
    qualifier: str = field(default="", repr=False)
    others: tuple = field(default=(), repr=False)
    #: its comparison stands under a denial (:func:`comparison_denied`): it also reads as
    #: the limit it denies (*should not be paying more than 55%*: *up to 55%*)
    denied: bool = field(default=False, repr=False)

    def to_dict(self) -> dict:
        """Plain JSON types: decimals in ``value`` become strings (exact, no exponent).

        Returns
        -------
        dict
            ``{"kind", "text", "start", "end", "value", "qualifier"}`` with
        ``value`` a list.

        Examples
        --------
        >>> find_mentions("Now $19.99")[0].to_dict()
        {'kind': 'number', 'text': '$19.99', 'start': 4, 'end': 10,
         'value': ['money', 'USD', '19.99'], 'qualifier': ''}
        """
        return {
            "kind": self.kind,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "value": [format(v, "f") if isinstance(v, Decimal) else v for v in self.value],
            "qualifier": self.qualifier,
        }


def find_mentions(text: str) -> list[Mention]:
    """Find every number and date anchor in a text.

    Parameters
    ----------
    text : str
        Any text; never raises on any string. The empty string gives ``[]``.

    Returns
    -------
    list of Mention
        Non-overlapping, sorted by ``start``. A date or time wins over the
        numbers inside it: ``2024-03-05`` is one date, ``$1,299.00`` one
        money amount. ``"one"`` and ``"a"`` alone are not anchors (``one of
        the best``); ``two`` and above are.

    Raises
    ------
    TypeError
        If ``text`` is not a string.

    Examples
    --------
    >>> text = "Launched 2024-03-05 at 3pm for $1,299.00, 15% off, 2 kg, twelve colours."
    >>> for m in find_mentions(text):
    ...     print(m.start, m.end, m.kind, repr(m.text), m.value)
    9 19 date '2024-03-05' ('date', 2024, 3, 5)
    23 26 date '3pm' ('time', 15, 0)
    31 40 number '$1,299.00' ('money', 'USD', Decimal('1299'))
    42 45 number '15%' ('percent', Decimal('15'))
    51 55 number '2 kg' ('quantity', 'kg', Decimal('2'))
    57 63 number 'twelve' ('number', Decimal('12'))
    >>> find_mentions("one of the best")
    []

    Whole units and cents written apart are one amount:

    >>> [(m.text, m.value) for m in find_mentions("forty-four dollars and ninety-five cents")]
    [('forty-four dollars and ninety-five cents', ('money', 'USD', Decimal('44.95')))]
    """
    check_type(text, "text", "find_mentions", str, "a str")
    if not text:
        return []
    dates = find_dates(text)
    starts = [d[0] for d in dates]
    spans = [(*d, ()) for d in dates]
    for span in find_number_spans(text):
        s, e = span[0], span[1]
        i = bisect.bisect_left(starts, e)  # dates starting before this span ends
        if i and dates[i - 1][1] > s:
            continue  # overlaps the date just before (dates never overlap each other)
        spans.append(span)
    spans.sort(key=lambda sp: sp[0])
    spans = _join_money(text, spans)
    range_ends = {m.start(g) for m in _HOUR_RANGE.finditer(text)
                  for g in range(1, 5) if m.start(g) >= 0}
    clock_ends = {m.start(g) for m in _HHMM_RANGE.finditer(text) for g in (1, 2)
                  if _HHMM.fullmatch(m.group(1)) and _HHMM.fullmatch(m.group(2))}
    out = []
    for s, e, kind, value, others in spans:
        if (value[0] == "number" and not others and value[1] in _HOURS
                and not _NOT_HOUR.match(text, e)
                and (s in range_ends or _AT_HOUR.search(text, max(0, s - AT_HOUR_REACH), s)
                     or _ON_DAY.match(text, e)
                     or (_AROUND_HOUR.search(text, max(0, s - AT_HOUR_REACH), s)
                         and _NOTHING_COUNTED.match(text, e)))):
            others = _HOURS[value[1]]  # "wine and cheese hour at 5", "happy hour 3-6"
        elif (value[0] == "number" and not others and _HHMM.fullmatch(text, s, e)
              and (s in clock_ends or _AT_HOUR.search(text, max(0, s - AT_HOUR_REACH), s)
                   or _CLOCK_AFTER.match(text, e))):
            others = (("time", int(text[s:s + 2]), int(text[s + 2:e])),)  # "from 1100-1215"
        qualifier = _qualifier(text, s, e, value) if value[0] in _QUALIFIABLE else ""
        out.append(Mention(kind, text[s:e], s, e, value, qualifier, others,
                           comparison_denied(text, s, qualifier)))
    return out


_AND = re.compile(r"\s*(?:,\s*)?(?:and\s+)?$", re.IGNORECASE)
# A bare whole number 1-12 after "at", "until", "till" ("til"), "by", "before", "after" or
# "past" ("wine and cheese hour at 5", "the pastries sell out by 9", with a hedge between:
# "they sell out by like 11", "by about 9", "didn't arrive til almost 2"), or at one end of
# a range of two such numbers ("happy hour 3-6", "5 to 8", "between 9 and 11") or of two
# hours given as alternatives ("from 7 or 8 AM"), may be an hour;
# not one a digit, separator or "%" follows (a number with a unit is a quantity, not a bare
# number). Not "around": "around 7 people" is a count more often than a time.
_HOURS = {Decimal(h): (("time", h % 12, 0), ("time", h % 12 + 12, 0)) for h in range(1, 13)}
_AT_HOUR = re.compile(r"(?i)\b(?:at|until|till|til|by|before|after|past)[ \u00a0]+"
                      r"(?:(?:like|about|around|roughly|approximately|almost|nearly)"
                      r"[ \u00a0]+)?$")
#: The day after a bare hour that holds on it, as a schedule's exception writes it (*closes at
#: 10 p.m. (11 on Friday)*, *opens at 9 on Sundays*).
_ON_DAY = re.compile(r"(?i)[ \u00a0]+on[ \u00a0]+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
                     r"|weekends?|weekdays?)\b")
#: *Around* a bare hour that counts nothing (a clause ends after it: *the line was long around
#: 11, drop off early*); *around 7 people* is a count.
_AROUND_HOUR = re.compile(r"(?i)\b(?:around|about|roughly|approximately)[ \u00a0]+$")
_NOTHING_COUNTED = re.compile(r"[ \u00a0]*(?:[,;:)\u2013\u2014]|\.(?![0-9])|$"
                              r"|o['\u2019]clock\b|-?ish\b)")
#: Characters before a bare number within which :data:`_AT_HOUR` is looked for.
AT_HOUR_REACH = 22
_NOT_HOUR = re.compile(r"[ \u00a0]*(?:[:.,]?[0-9]|%)")
_HOUR_OR_TIME = r"(?:[1-9]|1[0-2])(?::[0-5][0-9])?"
_HOUR_END = r"(?![0-9%]|[.,][0-9])"
#: A range of two such hours (or clock times): "3-6", "5 to 8", "5:30 to 8", "between 9 and
#: 11", or two of them as alternatives, "7 or 8"; the groups are its two ends.
_HOUR_RANGE = re.compile(
    rf"(?i)\bbetween[ \u00a0]+({_HOUR_OR_TIME})[ \u00a0]+and[ \u00a0]+({_HOUR_OR_TIME}){_HOUR_END}"
    rf"|(?<![0-9.,:])({_HOUR_OR_TIME})(?: ?[-\u2013] ?|[ \u00a0]+(?:to|or)[ \u00a0]+)"
    rf"({_HOUR_OR_TIME}){_HOUR_END}")

#: A clock time written as four digits, 24-hour, as news writes it ("on BBC1 from
#: 1100-1215", "at 1130 GMT", "an 1130 start"): read as a time too in a range of two such,
#: after "at", "until" and the like (:data:`_AT_HOUR`), or before a time zone, "hrs" or a
#: word for what happens at a time (:data:`_CLOCK_AFTER`).
_HHMM = re.compile(r"(?:[01][0-9]|2[0-3])[0-5][0-9]")
_HHMM_RANGE = re.compile(r"(?<![0-9.,:])(\d{4}) ?[-\u2013] ?(\d{4})(?![0-9])")
_CLOCK_AFTER = re.compile(r"[ \u00a0]*(?:GMT|BST|UTC|CET|EST|EDT|PST|PDT|hrs\b|hours\b|"
                          r"(?:start|finish|kick-?off|deadline|departure|arrival)s?\b)")


def _join_money(text: str, spans: list) -> list:
    """A whole money amount followed by "and" and an amount of cents of the same
    currency ("forty-four dollars and ninety-five cents", "$44 and 95 cents") is
    one amount: 44.95."""
    out: list = []
    for span in spans:
        s, e, _, value, _ = span
        if out:
            ps, pe, pkind, pvalue, _ = out[-1]
            gap = text[pe:s]
            if (pvalue[0] == "money" and value[0] == "money" and pvalue[1] == value[1]
                    and pvalue[2] == pvalue[2].to_integral_value() and 0 < value[2] < 1
                    and len(gap) <= 8 and _AND.fullmatch(gap) and "cent" in text[s:e].lower()):
                out[-1] = (ps, e, pkind, ("money", pvalue[1], pvalue[2] + value[2]), ())
                continue
        out.append(span)
    return out


#: Qualifiers an amount can carry, and the words that state them (``docs/anchors.md``).
QUALIFIERS = {
    ">": ("more than", "over", "above", "greater than", "in excess of", "exceeding",
          "upwards of", "upward of", "higher than", "larger than", "longer than", "older than",
          "over the age of", "above the age of"),
    ">=": ("at least", "no less than", "not less than", "no fewer than", "minimum of",
           "a minimum of", "minimum", "min.", "starting at", "starting from", "from"),
    "<": ("less than", "fewer than", "under", "below", "lower than", "shorter than",
          "younger than", "cheaper than", "under the age of", "below the age of"),
    "<=": ("up to", "at most", "no more than", "not more than", "maximum of",
           "a maximum of", "maximum", "max.", "max", "as many as", "as much as", "within"),
    "~": ("about", "around", "approximately", "approx.", "approx", "roughly", "nearly",
          "almost", "some", "circa", "ca.", "c.", "an estimated", "estimated", "~", "≈",
          "close to", "just over", "just under", "more or less"),
    "=": ("exactly", "precisely"),
}
# Written after the amount: "40+", "40 or more", "3 or fewer".
_AFTER = {"+": "+", "or more": ">=", "or higher": ">=", "or above": ">=", "and up": ">=",
          "and above": ">=", "or over": ">=", "and over": ">=", "or older": ">=",
          "and older": ">=", "plus": "+", "or less": "<=", "or fewer": "<=",
          "or under": "<=", "or below": "<=", "and under": "<=", "or younger": "<=",
          "and younger": "<="}
_QUALIFIABLE = ("money", "quantity", "percent", "number")
_BEFORE_RE = re.compile(
    r"(?i)(?:^|(?<=[^\w.\-]))(?P<q>"  # not a compound's part: "five-under 67" (golf)
    + "|".join(sorted((re.escape(w) for ws in QUALIFIERS.values() for w in ws),
                      key=len, reverse=True))
    + r")(?P<article>[ \u00a0]+an?)?[ \u00a0]*$"  # "well over a $100,000"
)
_AFTER_RE = re.compile(
    r"(?i)(?P<q>\+(?![\w])|[ \u00a0]+(?:"
    + "|".join(sorted((re.escape(w) for w in _AFTER if w != "+"), key=len, reverse=True))
    + r")(?![\w]))"
)
_BEFORE_WORD = {w: q for q, ws in QUALIFIERS.items() for w in ws}
#: A lower-case word right after an amount: the noun it describes ("a $2,200 budget").
_NOUN_AFTER = re.compile(r"[ \u00a0]+[a-z]{3,}\b(?<!\bper)")


#: An amount just before a qualifier word (*$1,200 below*, *10% above*).
_AMOUNT_BEFORE = re.compile(r"[0-9%]\s*$")
_FOR_OVER = re.compile(r"(?i)\b(?:for|in|lasted|lasting|took|taking)[ \u00a0]+$")
#: A denial up to five words before a comparison, in one clause (*should not be paying more
#: than 55%*, *you won't see a longboard that is over 51 inches*): :func:`comparison_denied`.
_DENIED_COMPARISON = re.compile(r"(?i)(?:\b(?:not|never)|n['\u2019]t)(?:[ \u00a0]+[a-z]+){0,5}"
                                r"[ \u00a0]+$")
_TURNED = {">": "<=", "<": ">="}
#: The rest of a range after its first amount: "to 8", "- 10", "until $15".
_RANGE_END = re.compile(r"(?i)[ \u00a0]*(?:[-\u2013]|to\b|until\b|till\b)[ \u00a0]*\$?[0-9]")
#: Verbs of leaving or disputing before *over* and a priced thing: *left a big bank over $12
#: maintenance fees* is because of them, not more than $12.
_LEFT_OVER = re.compile(r"(?i)\b(?:left|leave|leaves|leaving|quit|quits|switched|switching|"
                        r"complained|complaining|complaints?|sued|suing|fired|dispute[sd]?|"
                        r"argued|arguing|fought|fighting|upset|frustrated|frustration|angry|"
                        r"anger)(?:[ \u00a0]+[\w'-]+){0,4}[ \u00a0]+$")
#: Plural nouns of occasions a count can span, up to two words after it (a price may be one):
#: *over three mornings*, *over two $140 visits* are during them.
_OCCASIONS = re.compile(r"(?:[ \u00a0]+[\w$\u00a3\u20ac.,-]+){0,2}?[ \u00a0]+(?:mornings|"
                        r"afternoons|evenings|nights|weekends|visits|sessions|seasons|meals|"
                        r"stays|trips|games|matches|rounds|fittings|appointments|treatments|"
                        r"lessons|classes|courses|sittings|shifts|episodes)\b", re.IGNORECASE)


def _qualifier(text: str, start: int, end: int, value: tuple = ()) -> str:
    """The qualifier written just before (``more than 40``) or after (``40+``) an amount.

    *Over* a duration, or a count of occasions, is *during* it (*a loss of 26% over 40
    years*, *the same menu over three mornings*), not *more than* it, unless *for*, *in* or a
    verb of lasting comes first (*for over 40 years*).

    >>> [_qualifier(t, t.index("40"), t.index("40") + 8, ("quantity", "year", 40))
    ...  for t in ("a loss over 40 years", "for over 40 years", "over 40 years old")]
    ['', '>', '>']
    >>> [_qualifier(t, t.index("3"), t.index("3") + 1, ("number", 3))
    ...  for t in ("the same menu over 3 mornings", "over 3 people",
    ...            "a sleeve done over 3 roughly four-hour sessions", "hemmed over 3 fittings",
    ...            "tuned over 3 $140 visits")]
    ['', '>', '', '', '']

    With an article between, the word qualifies the noun the amount describes, not the
    amount: *came in under a $2,200 budget* (the budget is $2,200), but *well over a
    $100,000*:

    >>> [_qualifier(t, t.index("$"), t.index("$") + 6) for t in (
    ...  "came in under a $2,200 budget", "paid well over a $100,000.")]
    ['', '>']

    *From* where a range starts is no floor (*from 5 to 8*), as it is alone (*from $15*):

    >>> [_qualifier(t, 5, 8) for t in ("from $15 to $20", "from $15-$20", "from $15 a night")]
    ['', '', '>=']

    A word right after another amount compares that one (*$1,200 below two competitors*):

    >>> _qualifier("about $1,200 below two competitors", 20, 23)
    ''

    *Over* after a verb of leaving or disputing, before a priced thing, is because of it:

    >>> t = "who left a big bank over $12 maintenance fees"
    >>> _qualifier(t, t.index("$"), t.index("$") + 3, ("money", "USD", 12))
    ''
    >>> t = "who left a tip over $12 in cash"
    >>> _qualifier(t, t.index("$"), t.index("$") + 3, ("money", "USD", 12))
    '>'

    An amount written with *-ish* is about it:

    >>> _qualifier("was 25ish people", 4, 9), _qualifier("was 30-ish", 4, 10)
    ('~', '~')
    """
    if text[end - 3:end].lower() == "ish":
        return "~"  # "25ish", "30-ish"
    m = _BEFORE_RE.search(text, max(0, start - 24), start)
    if m is not None and _AMOUNT_BEFORE.search(text, max(0, m.start() - 12), m.start()):
        return ""  # "$1,200 below two competitors": the word compares the amount before it
    if m is not None and not (m.group("article") and _NOUN_AFTER.match(text, end)):
        q = m.group("q").lower()
        if (q == "over" and ((value[:1] == ("quantity",) and value[1] in DURATIONS)
                             or (value[:1] == ("number",) and _OCCASIONS.match(text, end)))
                and not _FOR_OVER.search(text, max(0, m.start() - 12), m.start())
                and not text[end:end + 4].lower().startswith(" old")):
            return ""
        if (q == "over" and value[:1] == ("money",) and _NOUN_AFTER.match(text, end)
                and _LEFT_OVER.search(text, max(0, m.start() - 60), m.start())):
            return ""  # "left a big bank over $12 maintenance fees": because of them
        if q == "from" and _RANGE_END.match(text, end):
            return ""  # "from 5 to 8", "from $10-$15": where a range starts, not a floor
        return _BEFORE_WORD[q]
    m = _AFTER_RE.match(text, end)
    if m is not None:
        return _AFTER[m.group("q").strip().lower()]
    return ""


def comparison_denied(text: str, start: int, qualifier: str) -> bool:
    """Whether the comparison before the amount at ``start`` (``qualifier`` ``">"`` or
    ``"<"``) stands under a denial up to five words before it, with no stop between
    (*should not be paying more than 55%*, *you won't see a longboard that is over 51
    inches*, *won't cost less than $50*): it may be read either way, as the comparison or
    as the limit it denies (*up to 55%*), since a text that restates it keeps the denial in
    other words (*bars hospitals from paying more than 55%*, *you'll rarely see one over 51
    inches*) as often as it turns it (*no more than 55%*).

    >>> [comparison_denied(t, t.rindex(" ") + 1, q) for t, q in (
    ...  ("should not be paying more than 55%", ">"), ("won't cost less than $50", "<"),
    ...  ("you won't see a longboard that is over 51", ">"), ("not a big deal, over 40", ">"),
    ...  ("paid more than 55%", ">"), ("not more than 55%", "<="))]
    [True, True, True, False, False, False]
    """
    if qualifier not in _TURNED:
        return False
    m = _BEFORE_RE.search(text, max(0, start - 24), start)
    return m is not None and _DENIED_COMPARISON.search(
        text, max(0, m.start() - 60), m.start()) is not None


def _amount(value: tuple) -> Decimal | int | None:
    """The number a numeric value states, whatever its unit; a bare year counts."""
    if value[0] in _UNIT_BEARING or value[0] == "number":
        return value[-1]
    if value[0] == "year":
        return value[1]
    return None


#: Kinds of a context's implied amounts (:mod:`~evaltools.scoring.anchors.implied`), each
#: with its own rule in :func:`supports`.
_IMPLIED_KINDS = ("count", "share")

#: Qualifiers under which a response may round an exact figure of the context (*more than
#: £570,000* for £572,206, *about 1,500* for 1,480, *nearly 10%* for 9.6%): see
#: :func:`rounds`. *Up to* and *at most* are left out: they state a limit, not a rounding.
ROUNDING_QUALIFIERS = frozenset({"~", ">", ">=", "<"})
#: The largest share of the response's figure by which *about* may miss the context's.
ROUNDING_SHARE = Decimal("0.1")
#: The smallest plain count (no currency, unit or %) a response may round: a small one is
#: too often another of the text's small numbers (*around 30 evacuees* where an article
#: has 32 of something else; *over three cycles* against a rating of 4.0).
ROUNDING_MIN_COUNT = Decimal(100)
#: The kinds of value a response may round (amounts of one currency, unit or kind).
_ROUNDED_KINDS = frozenset({"money", "quantity", "percent", "number"})


def rounding_family(value: tuple) -> tuple | None:
    """The part of an amount's value that a rounding keeps (its kind and currency or
    unit); None for a value no response rounds (dates, times, ordinals, phones...).

    >>> from decimal import Decimal as D
    >>> rounding_family(("money", "GBP", D("572206"))), rounding_family(("year", 2024))
    (('money', 'GBP'), None)
    """
    if (not value or value[0] not in _ROUNDED_KINDS or len(value) < 2
            or not isinstance(value[-1], Decimal)):
        return None
    return value[:-1]


def rounds(claimed: Mention, found: Mention) -> bool:
    """Whether the response's ``claimed`` amount, under its qualifier, rounds the context's
    exact ``found`` amount of the same kind, currency or unit.

    The step is the place of the claimed figure's last significant digit (570,000: ten
    thousand; 1,500: a hundred; 2.4: a tenth). *About* (``~``: *around*, *nearly*,
    *almost*, *roughly*, ...) allows half a step either way and at most
    :data:`ROUNDING_SHARE` of the figure; *more than* (``>``, ``>=``) a context figure
    above it by at most one step; *less than* (``<``) one below it by at most one step.
    A bare figure never rounds (*£570,000* for £572,206 is another figure), nor does a
    context figure that is itself qualified, nor a plain count under
    :data:`ROUNDING_MIN_COUNT`.

    Examples
    --------
    >>> ctx = find_mentions("He took £572,206. It employs 1,480 staff. Sales rose 9.6%.")
    >>> [rounds(find_mentions(t)[0], f) for t, f in (("more than £570,000", ctx[0]),
    ...     ("about 1,500", ctx[1]), ("nearly 10%", ctx[2]), ("under 1,500", ctx[1]))]
    [True, True, True, True]
    >>> [rounds(find_mentions(t)[0], f) for t, f in (("£570,000", ctx[0]),
    ...     ("more than £580,000", ctx[0]), ("about 1,400", ctx[1]), ("about $1,480", ctx[1]),
    ...     ("about 10", ctx[2]), ("under 1,400", ctx[1]), ("up to 1,500", ctx[1]))]
    [False, False, False, False, False, False, False]
    >>> rounds(find_mentions("around 30 evacuees")[0], find_mentions("32 homes")[0])
    False
    """
    q = claimed.qualifier
    if q not in ROUNDING_QUALIFIERS or found.qualifier not in ("", "="):
        return False
    family = rounding_family(claimed.value)
    if family is None or family != rounding_family(found.value):
        return False
    x, v = claimed.value[-1], found.value[-1]
    if x <= 0 or v <= 0 or v == x or not (x.is_finite() and v.is_finite()):
        return False
    if family == ("number",) and x < ROUNDING_MIN_COUNT:
        return False
    step = Decimal(1).scaleb(x.normalize().as_tuple().exponent)
    if q == "~":
        return abs(v - x) * 2 <= step and abs(v - x) <= ROUNDING_SHARE * x
    if q == "<":
        return x - step <= v < x
    return x < v <= x + step


def supports(claimed: Mention, found: Mention) -> bool:
    """Whether a context mention supports a claimed mention.

    Parameters
    ----------
    claimed : Mention
        A mention from the response.
    found : Mention
        A mention from the context.

    Returns
    -------
    bool
        True when the values are equal, or when one of the documented
        leniencies applies (module docstring and ``docs/anchors.md``): a
        context amount with no unit supports the same amount with a unit; a
        claimed amount with no unit is supported by the same amount with any
        unit; a coarser date is supported by a finer date inside it; an
        ambiguous numeric date or clock time matches in either reading. A
        context's count of the names it lists (kind ``"count"``,
        :mod:`~evaltools.scoring.anchors.implied`) supports only the same bare
        count, and its share of two amounts (kind ``"share"``) only the same percentage.
        Always true for ``supports(m, m)``.

    Examples
    --------
    >>> def first(t):
    ...     return find_mentions(t)[0]
    >>> supports(first("$1,299.00"), first("1299 USD"))
    True
    >>> supports(first("$44.95"), first("44.95")), supports(first("$44.95"), first("€44.95"))
    (True, False)
    >>> supports(first("2 kg"), first("2 kilograms")), supports(first("2 kg"), first("2 lb"))
    (True, False)
    >>> supports(first("in 2024"), first("on March 5, 2024"))
    True
    >>> supports(first("on March 5, 2024"), first("in 2024"))
    False
    >>> supports(first("at 3pm"), first("at 15:00")), supports(first("at 3pm"), first("3am"))
    (True, False)
    >>> supports(first("closes at 5pm"), first("closes at 5:00"))  # 5:00 may be 17:00
    True
    >>> supports(first("2024-03-05"), first("05/03/2024"))  # May 3 or March 5
    True

    A comparison under a denial reads either way (:func:`comparison_denied`):

    >>> ctx = first("Trusts should not be paying more than 55% above normal rates.")
    >>> [supports(first(t), ctx) for t in ("pay no more than 55%", "bars paying more than 55%",
    ...                                     "pay less than 55%")]
    [True, True, False]
    """
    if found.kind == "count":  # a list's number of names (anchors.implied): a bare count only
        return claimed.value == found.value and not claimed.qualifier
    if found.kind == "share":  # one amount's share of another: that percentage only
        return claimed.value == found.value and qualifier_allows(claimed.qualifier, "")
    if rounds(claimed, found):  # "more than £570,000" for £572,206
        return True
    if not qualifiers_allow(claimed, found):
        return False
    if claimed.value == found.value or _supports_readings(_readings(claimed), found):
        return True
    return conversion(claimed, found) is not None


# claimed qualifier -> the context qualifiers that state it (besides the same one)
_IMPLIED_BY = {
    # A bare "40" restates the context's figure, whatever it says of it: "over 40 years" is
    # often answered "40 years". Dropping a qualifier is noted, not held against the claim.
    "": ("", "=", "~", ">=", "<=", ">", "<", "+"),
    "=": ("",),
    # "about 5 minutes" rounds the context's "more than 5 minutes", as a bare "5" would
    "~": ("", "=", ">=", "<=", ">", "<", "+"),
    ">=": ("", "=", ">", "+"),
    "<=": ("", "=", "<"),
    # "30+ people" (code "+") is how a reviewer writes "more than 30" as much as "30 or more"
    ">": ("+",),
    "+": ("", "=", ">", ">="),
    "<": (),
}


def qualifiers_allow(claimed: Mention, found: Mention) -> bool:
    """:func:`qualifier_allows` of two mentions' qualifiers, where a comparison under a
    denial (``Mention.denied``: :func:`comparison_denied`) also reads as the limit it denies.

    >>> ctx = find_mentions("They should not be paying more than 55%.")[0]
    >>> [qualifiers_allow(m, ctx) for m in find_mentions("up to 55%, over 55%, under 55%")]
    [True, True, False]
    """
    return (qualifier_allows(claimed.qualifier, found.qualifier)
            or (found.denied and qualifier_allows(claimed.qualifier, _TURNED[found.qualifier]))
            or (claimed.denied and qualifier_allows(_TURNED[claimed.qualifier],
                                                    found.qualifier)))


def qualifier_allows(claimed: str, found: str) -> bool:
    """Whether a context amount qualified ``found`` states the same amount qualified ``claimed``.

    A qualifier the claim writes must be one the context states or implies:
    ``"at least 40"`` is stated by ``"40"`` and by ``"more than 40"``;
    ``"more than 40"`` only by ``"more than 40"`` (not by ``"40"`` nor ``"up
    to 40"``); ``"about 40"`` by ``"40"`` and by any qualified 40 (*about 5 minutes* for
    *more than 5 minutes* rounds it, as a bare figure does). A bare ``"40"`` restates the
    context's figure whatever its qualifier (the note names the dropped one).

    Examples
    --------
    >>> qualifier_allows(">", "<="), qualifier_allows(">=", ">"), qualifier_allows("", ">")
    (False, True, True)
    >>> qualifier_allows("~", ">"), qualifier_allows(">", "~")
    (True, False)

    A figure written with a plus (*30+ people*, code ``"+"``) states *more than 30* and *at
    least 30* alike; a claim's *30+* is stated as *at least 30* is:

    >>> qualifier_allows(">", "+"), qualifier_allows(">=", "+"), qualifier_allows("+", "")
    (True, True, True)
    >>> qualifier_allows("<", "+"), qualifier_allows("+", "<")
    (False, False)
    """
    return claimed == found or found in _IMPLIED_BY.get(claimed, ())


def conversion(claimed: Mention, found: Mention) -> Decimal | None:
    """The context quantity in the claim's unit, when the claim converts it (``72 °F``/``22 °C``).

    Examples
    --------
    >>> conversion(find_mentions("72 °F")[0], find_mentions("22 °C")[0])
    Decimal('71.6')
    """
    c, f = claimed.value, found.value
    if c[0] != "quantity" or f[0] != "quantity":
        return None
    return same_after_conversion(c[2], c[1], f[2], f[1])


_QUALIFIER_WORDS = {">": "more than", ">=": "at least", "<": "less than", "<=": "up to",
                    "~": "about", "=": "exactly"}


def describe_support(claimed: Mention, found: Mention | None,
                     context_mentions: Sequence[Mention] = ()) -> str:
    """The note for an anchor: what matched, a qualifier or conversion, or why nothing did.

    Examples
    --------
    >>> ctx = find_mentions("Seats up to 40 guests. Keep it at 22 °C.")
    >>> claim = find_mentions("Seats more than 40 guests.")[0]
    >>> describe_support(claim, find_support(claim, ctx), ctx)
    "'40' is in the context, but as 'up to 40', not 'more than 40'"
    >>> claim = find_mentions("Keep it at 72 °F.")[0]
    >>> describe_support(claim, find_support(claim, ctx), ctx)
    "matches '22 °C' in the context, converted: 22 °C = 71.6 °F"
    """
    if found is None:
        for f in context_mentions:
            if not qualifier_allows(claimed.qualifier, f.qualifier) and supports(
                    _unqualified(claimed), _unqualified(f)):
                return (f"'{f.text}' is in the context, but as "
                        f"'{_qualified(f)}', not '{_qualified(claimed)}'")
        return f"no matching {claimed.kind} in the context"
    note = f"matches '{found.text}' in the context"
    if found.qualifier != claimed.qualifier and found.qualifier:
        note += f" ('{_qualified(found)}')"
    converted = None if claimed.value == found.value else conversion(claimed, found)
    if converted is not None:
        unit = claimed.value[1]
        note += (f", converted: {_amount_text(found.value[2])} {found.value[1]} = "
                 f"{_amount_text(converted)} {unit}")
    elif claimed.value != found.value and rounds(claimed, found):
        note += f", which '{_qualified(claimed)}' rounds"
    return note


def _amount_text(d: Decimal) -> str:
    q = d.quantize(Decimal("0.01")).normalize() if d != d.to_integral_value() else d
    return format(q.normalize() if q == q.to_integral_value() else q, "f")


def _unqualified(m: Mention) -> Mention:
    return Mention(m.kind, m.text, m.start, m.end, m.value, "", m.others)


def _qualified(m: Mention) -> str:
    if m.qualifier == "+":
        return f"{m.text}+"
    words = _QUALIFIER_WORDS.get(m.qualifier)
    return f"{words} {m.text}" if words else m.text


def _supports_readings(claimed_readings: tuple[tuple, ...], found: Mention) -> bool:
    found_readings = _readings(found)
    if len(claimed_readings) == 1 and len(found_readings) == 1:  # the usual case
        return _supports_value(claimed_readings[0], found_readings[0])
    return any(_supports_value(c, f) for c in claimed_readings for f in found_readings)


def _readings(mention: Mention) -> tuple[tuple, ...]:
    """Every value a mention can mean: its canonical value, plus the other reading
    of an ambiguous numeric date (``05/03/2024``) or a clock time (``5:00``)."""
    value = mention.value
    if mention.others:
        return (value, *mention.others)
    if not value or value[0] not in ("date", "time"):
        return (value,)
    return _date_time_readings(mention.text, value)


@functools.lru_cache(maxsize=1 << 14)
def _date_time_readings(text: str, value: tuple) -> tuple[tuple, ...]:
    if value[0] == "date":
        m = _AMBIGUOUS_DATE.fullmatch(text)
        if m and m.group(1) != m.group(3):
            return (value, ("date", value[1], value[3], value[2]))
        return (value,)
    readings = [value]
    if _AMBIGUOUS_TIME.fullmatch(text):
        readings.append(("time", (value[1] + 12) % 24, value[2]))
    if _DOTTED_TIME.fullmatch(text):
        readings.append(("number", _canon_decimal(text)))
    return tuple(readings)


def _canon_decimal(text: str) -> Decimal:
    d = Decimal(text)
    return Decimal(int(d)) if d == d.to_integral_value() else d.normalize()


#: Degrees with a scale and degrees without one (*52 degrees*, *52°*): the same temperature
#: either way, the scale left to the reader.
_SCALED_DEGREES = ({"°F", "°"}, {"°C", "°"})


def _supports_value(c: tuple, f: tuple) -> bool:
    if c == f:
        return True
    if not c or not f:
        return False
    ck, fk = c[0], f[0]
    if ck == "money" and fk == "money":  # "kr" is any krona/krone
        return c[2] == f[2] and "kr" in (c[1], f[1]) and {c[1], f[1]} <= KRONA_CODES
    if ck == "number":
        return _amount(f) == c[1]
    if ck == fk == "quantity" and {c[1], f[1]} in _SCALED_DEGREES:
        return c[2] == f[2]  # "52 °F water" where a review says "water was 52 degrees"
    if ck in _UNIT_BEARING:
        return fk in ("number", "year") and _amount(f) == c[-1]
    if ck == "year":
        if fk in ("date", "month"):
            return f[1] == c[1]
        return fk == "number" and f[1] == c[1]
    if ck == "decade":
        return fk in ("year", "month", "date") and c[1] <= f[1] < c[1] + 10
    if ck == "month":
        return fk == "date" and f[1:3] == c[1:3]
    if ck == "monthname":  # "in March" by any date in March
        return (fk in ("month", "date") and f[2] == c[1]) or (fk == "day" and f[1] == c[1])
    if ck == "day":
        return fk == "date" and f[2:4] == c[1:3]
    return False


def find_support(mention: Mention, context_mentions: Sequence[Mention]) -> Mention | None:
    """The first context mention that supports a claimed mention.

    Parameters
    ----------
    mention : Mention
        A mention from the response.
    context_mentions : sequence of Mention
        Mentions from the context, usually ``find_mentions(context)``.

    Returns
    -------
    Mention or None
        The first (in the order given) ``m`` with ``supports(mention, m)``;
        None when none does, including for an empty context.

    Examples
    --------
    >>> ctx = find_mentions("The 32 oz bottle costs 44.95 and shipped on 5th March 2024.")
    >>> [find_support(m, ctx) for m in find_mentions("It costs $44.95.")]
    [Mention(kind='number', text='44.95', start=23, end=28, value=('number', Decimal('44.95')))]
    >>> find_support(find_mentions("released 03/05/2024")[0], ctx).text
    '5th March 2024'
    >>> find_support(find_mentions("It costs $45.95.")[0], ctx) is None
    True
    """
    value = mention.value
    readings = _readings(mention)
    q = mention.qualifier
    for found in context_mentions:
        if found.kind in _IMPLIED_KINDS:  # implied amounts: their rules are in supports()
            if supports(mention, found):
                return found
        elif (found.value == value or _supports_readings(readings, found)) and (
                q == found.qualifier or qualifiers_allow(mention, found)):
            return found
    if value[0] == "quantity":  # a conversion only when no value matched as written
        for found in context_mentions:
            if (found.kind not in _IMPLIED_KINDS and qualifiers_allow(mention, found)
                    and conversion(mention, found) is not None):
                return found
    if q in ROUNDING_QUALIFIERS:  # a rounding only when nothing matched as written
        for found in context_mentions:
            if found.kind not in _IMPLIED_KINDS and rounds(mention, found):
                return found
    return None
