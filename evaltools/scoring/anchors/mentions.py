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
   does not support ``$44.95``; ``2 lb`` does not support ``2 kg`` (no
   conversions).
3. A claim with no unit is supported by any context amount equal to it:
   ``44.95`` is supported by ``$44.95``.
4. A coarser date is supported by a finer one inside it (``2024`` by
   ``March 5, 2024``; ``March 2024`` by ``2024-03-05``; ``the 1990s`` by
   ``1995``; ``March 5`` by ``March 5, 2024``); a finer date is never
   supported by a coarser one (``March 5, 2024`` is not supported by ``2024``
   nor by ``March 5``).
5. Times must be equal (``3pm`` = ``15:00``; ``3pm`` is not ``3am``).
6. Ambiguous forms are read both ways: a numeric date whose first two
   numbers are both 12 or less (``05/03/2024`` is May 3 or March 5) and a
   clock time with no a.m./p.m. and an hour from 1 to 12 (``5:00`` is 05:00
   or 17:00). Their ``value`` keeps the first reading (US month/day; as
   written), but either reading can support or be supported.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from evaltools.scoring.anchors.dates import find_dates
from evaltools.scoring.anchors.numbers import find_numbers

__all__ = ["Mention", "SupportIndex", "find_mentions", "find_support", "supports"]

_UNIT_BEARING = ("money", "quantity", "percent", "ordinal")
# Numeric dates whose first two numbers are both 12 or less read either way.
_AMBIGUOUS_DATE = re.compile(r"(0?[1-9]|1[0-2])([/.-])(0?[1-9]|1[0-2])\2[0-9]{2,4}")
# Clock times with no a.m./p.m. and an hour from 1 to 12 (no leading zero): 5:00, 12:30.
_AMBIGUOUS_TIME = re.compile(r"(?:[1-9]|1[0-2]):[0-5][0-9](?::[0-9]{2}(?:\.[0-9]+)?)?")


@dataclass(frozen=True)
class Mention:
    """One number or date in a text.

    Attributes
    ----------
    kind : str
        ``"number"`` or ``"date"`` (times and years are dates).
    text : str
        The exact substring: ``source[start:end] == text``.
    start, end : int
        Character offsets into the text it was found in.
    value : tuple
        Canonical, hashable key that matching compares, e.g.
        ``("money", "USD", Decimal("19.99"))``, ``("quantity", "kg", Decimal("2"))``,
        ``("percent", Decimal("15"))``, ``("number", Decimal("1200"))``,
        ``("ordinal", Decimal("5"))``, ``("date", 2024, 3, 5)``,
        ``("day", 3, 5)``, ``("month", 2024, 3)``, ``("year", 2024)``,
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

    def to_dict(self) -> dict:
        """Plain JSON types: decimals in ``value`` become strings (exact, no exponent).

        Returns
        -------
        dict
            ``{"kind", "text", "start", "end", "value"}`` with ``value`` a list.

        Examples
        --------
        >>> find_mentions("Only $19.99")[0].to_dict()
        {'kind': 'number', 'text': '$19.99', 'start': 5, 'end': 11,
         'value': ['money', 'USD', '19.99']}
        """
        return {
            "kind": self.kind,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "value": [format(v, "f") if isinstance(v, Decimal) else v for v in self.value],
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
    """
    if not isinstance(text, str):
        raise TypeError(
            f"The 'text' parameter of find_mentions must be a str. Got {type(text).__name__} "
            "instead."
        )
    if not text:
        return []
    dates = find_dates(text)
    starts = [d[0] for d in dates]
    spans = list(dates)
    for span in find_numbers(text):
        s, e = span[0], span[1]
        i = bisect.bisect_left(starts, e)  # dates starting before this span ends
        if i and dates[i - 1][1] > s:
            continue  # overlaps the date just before (dates never overlap each other)
        spans.append(span)
    spans.sort(key=lambda sp: sp[0])
    return [Mention(kind, text[s:e], s, e, value) for s, e, kind, value in spans]


def _amount(value: tuple) -> Decimal | int | None:
    """The number a numeric value states, whatever its unit; a bare year counts."""
    if value[0] in _UNIT_BEARING or value[0] == "number":
        return value[-1]
    if value[0] == "year":
        return value[1]
    return None


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
        ambiguous numeric date or clock time matches in either reading.
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
    """
    if claimed.value == found.value:
        return True
    return _supports_readings(_readings(claimed), found)


def _supports_readings(claimed_readings: tuple[tuple, ...], found: Mention) -> bool:
    found_readings = _readings(found)
    if len(claimed_readings) == 1 and len(found_readings) == 1:  # the usual case
        return _supports_value(claimed_readings[0], found_readings[0])
    return any(_supports_value(c, f) for c in claimed_readings for f in found_readings)


def _readings(mention: Mention) -> tuple[tuple, ...]:
    """Every value a mention can mean: its canonical value, plus the other reading
    of an ambiguous numeric date (``05/03/2024``) or a clock time (``5:00``)."""
    value = mention.value
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
    if _AMBIGUOUS_TIME.fullmatch(text):
        return (value, ("time", (value[1] + 12) % 24, value[2]))
    return (value,)


def _supports_value(c: tuple, f: tuple) -> bool:
    if c == f:
        return True
    if not c or not f:
        return False
    ck, fk = c[0], f[0]
    if ck == "number":
        return _amount(f) == c[1]
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
    for found in context_mentions:
        if found.value == value or _supports_readings(readings, found):
            return found
    return None


class SupportIndex:
    """:func:`find_support` over one context's mentions in time linear in the text.

    Every support relation of :func:`supports` needs the claimed value and the
    context value to share a component (the amount, the year, the month...;
    a decade any year in it), so the context mentions are bucketed by their
    value components and a claimed mention is checked only against the
    mentions of its buckets, in context order, with the same test. Results are
    remembered per claimed value. The answer is the one :func:`find_support`
    gives.

    Examples
    --------
    >>> ctx = find_mentions("Listed at $44.95 in 2024; the 32 oz bottle ships 5th March 2024.")
    >>> index = SupportIndex(ctx)
    >>> [index.find(m).text for m in find_mentions("It costs 44.95 and came in the 2020s.")]
    ['$44.95', '2024']
    >>> index.find(find_mentions("It costs $45.95.")[0]) is None
    True
    """

    def __init__(self, context_mentions: Sequence[Mention]):
        self._mentions = tuple(context_mentions)
        self._buckets: dict[Any, list[int]] = {}
        self._unkeyed: list[int] = []
        for i, m in enumerate(self._mentions):
            keys = _components(m.value)
            if not keys:
                self._unkeyed.append(i)
            for k in keys:
                self._buckets.setdefault(k, []).append(i)
        self._memo: dict[Any, Mention | None] = {}

    def find(self, mention: Mention) -> Mention | None:
        """The first context mention supporting ``mention`` (as :func:`find_support`)."""
        readings = _readings(mention)
        memo_key = (mention.value, readings)
        try:
            return self._memo[memo_key]
        except (KeyError, TypeError):
            pass
        keys: set[Any] = set()
        for c in readings:
            ck = _components(c)
            if not ck:
                keys = None
                break
            keys |= ck
            if c and c[0] == "decade" and isinstance(c[1], int):
                keys.update(range(c[1], c[1] + 10))
        if keys is None:
            candidates = range(len(self._mentions))
        else:
            candidates = sorted({i for k in keys for i in self._buckets.get(k, ())}
                                | set(self._unkeyed))
        value = mention.value
        found = None
        for i in candidates:
            m = self._mentions[i]
            if m.value == value or _supports_readings(readings, m):
                found = m
                break
        with contextlib.suppress(TypeError):
            self._memo[memo_key] = found
        return found


def _components(value: tuple) -> set[Any]:
    """The hashable components of a value after its kind (amounts, years, months...)."""
    out = set()
    for v in value[1:] if value else ():
        try:
            hash(v)
        except TypeError:
            continue
        out.add(v)
    return out
