"""Number and date support in linear time: :class:`SupportIndex` over one context's mentions.

The support rules are :func:`evaltools.scoring.anchors.mentions.supports`;
the index gives the answer :func:`~evaltools.scoring.anchors.mentions.find_support` gives.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from evaltools.scoring.anchors.mentions import (
    ROUNDING_QUALIFIERS,
    Mention,
    _amount,
    _readings,
    find_support,
    rounding_family,
    supports,
)
from evaltools.scoring.anchors.units import conversion_keys, magnitude_key


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
    >>> from evaltools.scoring.anchors.mentions import find_mentions
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
            keys = _filed_under(_readings(m))
            if not keys:
                self._unkeyed.append(i)
            for k in keys:
                self._buckets.setdefault(k, []).append(i)
        # quantities by magnitude band: the ones a unit conversion can relate to a claim
        self._quantities: dict[tuple, list[int]] = {}
        for i, m in enumerate(self._mentions):
            if _is_quantity(m.value):
                key = magnitude_key(m.value[2], m.value[1])
                if key is not None:
                    self._quantities.setdefault(key, []).append(i)
        # exact amounts by kind and currency or unit: the ones a qualified claim may round
        self._amounts: dict[tuple, list[int]] = {}
        for i, m in enumerate(self._mentions):
            family = rounding_family(m.value) if m.qualifier in ("", "=") else None
            if family is not None:
                with contextlib.suppress(TypeError):
                    self._amounts.setdefault(family, []).append(i)
        self._memo: dict[Any, Mention | None] = {}

    def _candidate_indices(self, mention: Mention) -> list[int]:
        keys = _looked_up_under(_readings(mention))
        if keys is None:
            return list(range(len(self._mentions)))
        found = {i for k in keys for i in self._buckets.get(k, ())} | set(self._unkeyed)
        if _is_quantity(mention.value):
            for k in conversion_keys(mention.value[2], mention.value[1]):
                found.update(self._quantities.get(k, ()))
        family = rounding_family(mention.value)
        if mention.qualifier in ROUNDING_QUALIFIERS and family is not None:
            with contextlib.suppress(TypeError):
                found.update(self._amounts.get(family, ()))
        return sorted(found)

    def candidates(self, mention: Mention) -> list[Mention]:
        """The context mentions that can support ``mention``, in context order: those
        filed under a key one of its readings is looked up under
        (:func:`_looked_up_under`: the same value, amount, year or day of the
        month), for a quantity those near its magnitude in a unit it converts to
        (a conversion changes the amount;
        :func:`~evaltools.scoring.anchors.units.conversion_keys`), for a claim under a
        rounding qualifier the exact amounts of its kind and currency or unit
        (:func:`~evaltools.scoring.anchors.mentions.rounds`), and those with no key."""
        return [self._mentions[i] for i in self._candidate_indices(mention)]

    def supporting(self, mention: Mention) -> tuple[int, ...]:
        """Positions (in the context mentions given) of every mention that
        :func:`supports` ``mention``; remembered per claimed value, so a long
        text that repeats its values is checked once per distinct value."""
        key = ("all", mention.value, _readings(mention), mention.qualifier, mention.denied)
        try:
            return self._memo[key]
        except (KeyError, TypeError):
            pass
        verdicts: dict[Any, bool] = {}  # one test per distinct context value
        out = []
        for i in self._candidate_indices(mention):
            f = self._mentions[i]
            fk = (f.kind, f.value, f.qualifier, f.denied, _readings(f))  # a count supports less
            try:
                ok = verdicts.get(fk)
            except TypeError:  # an unhashable value: test it as it is
                fk, ok = None, None
            if ok is None:
                ok = supports(mention, f)
                if fk is not None:
                    verdicts[fk] = ok
            if ok:
                out.append(i)
        found = tuple(out)
        with contextlib.suppress(TypeError):
            self._memo[key] = found
        return found

    def find(self, mention: Mention) -> Mention | None:
        """The first context mention supporting ``mention`` (as :func:`find_support`)."""
        memo_key = (mention.value, _readings(mention), mention.qualifier, mention.denied)
        try:
            return self._memo[memo_key]
        except (KeyError, TypeError):
            pass
        found = find_support(mention, self.candidates(mention))
        with contextlib.suppress(TypeError):
            self._memo[memo_key] = found
        return found


def _is_quantity(value: tuple) -> bool:
    return (bool(value) and value[0] == "quantity" and len(value) == 3
            and isinstance(value[2], Decimal) and isinstance(value[1], str))


def _filed_under(readings: tuple[tuple, ...]) -> set[Any]:
    """The keys a context mention is filed under: its values, amounts, years, month-days.

    Every relation of :func:`_supports_value` between a claimed and a context
    value holds only when they share one of these keys (see
    :func:`_looked_up_under`), so the rest of a long context is never tried.
    A value that cannot be hashed gets no key (and is tried for every claim).
    """
    keys: set[Any] = set()
    for v in readings:
        if not v:
            continue
        try:
            hash(v)
        except TypeError:
            return set()
        keys.add(("value", v))
        amount = _amount(v)
        if amount is not None:
            keys.add(("amount", amount))
        if v[0] in ("year", "month", "date") and len(v) >= 2:
            keys.add(("year", v[1]))
        if v[0] == "date" and len(v) >= 4:
            keys.add(("month-day", v[2], v[3]))
        if v[0] in ("month", "date") and len(v) >= 3:
            keys.add(("month-name", v[2]))
        elif v[0] == "day" and len(v) >= 2:
            keys.add(("month-name", v[1]))
    return keys


def _looked_up_under(readings: tuple[tuple, ...]) -> set[Any] | None:
    """The keys under which the context values that can support these claimed readings are
    filed (:func:`_filed_under`); None when a reading cannot be hashed (try them all).

    By :func:`_supports_value`: an equal value shares ``("value", v)``; an amount
    with or without a unit (a krona in any krona currency, a bare year as a
    number) shares ``("amount", a)``; a year, a month or a decade is supported by
    the finer dates of its years (``("year", y)``); a day of the month by the
    dates on it (``("month-day", m, d)``); a month named alone by any date in it
    (``("month-name", m)``). Unit conversions are looked up by
    magnitude band (:meth:`SupportIndex._candidate_indices`).
    """
    keys: set[Any] = set()
    for c in readings:
        if not c:
            continue
        try:
            hash(c)
        except TypeError:
            return None
        keys.add(("value", c))
        amount = _amount(c)
        if amount is not None:
            keys.add(("amount", amount))
        if c[0] in ("year", "month") and len(c) >= 2:
            keys.add(("year", c[1]))
        elif c[0] == "decade" and len(c) >= 2 and isinstance(c[1], int):
            keys.update(("year", y) for y in range(c[1], c[1] + 10))
        elif c[0] == "day" and len(c) >= 3:
            keys.add(("month-day", c[1], c[2]))
        elif c[0] == "monthname" and len(c) >= 2:
            keys.add(("month-name", c[1]))
    return keys
