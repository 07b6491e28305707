"""Unit conversions between the canonical units of :mod:`~evaltools.scoring.anchors.numbers`.

A response that writes ``72 °F`` where the context says ``22 °C``, or
``1000 g`` for ``1 kg``, has converted the context's figure. Matching reports
such a conversion in the anchor's note instead of calling it a different fact
(``docs/anchors.md``): :func:`convert` gives the context amount in the claim's
unit, and :func:`same_after_conversion` decides whether the claim is that
amount as written (rounded to the claim's last digit, and within 2%).

A plain table of exact factors (SI definitions of the US customary units),
no unit library: the units here are the few that the number finder knows.
"""

from __future__ import annotations

import math
from decimal import Decimal

__all__ = [
    "DURATIONS",
    "RELATIVE_TOLERANCE",
    "conversion_keys",
    "convert",
    "magnitude_key",
    "same_after_conversion",
]

RELATIVE_TOLERANCE = Decimal("0.02")
"""A converted amount may differ from the claim by this share of it (rounding: 2.2 lb = 1 kg)."""

# unit -> (dimension, factor to the dimension's base unit)
_FACTORS: dict[str, tuple[str, Decimal]] = {
    "kg": ("mass", Decimal(1)), "g": ("mass", Decimal("0.001")),
    "mg": ("mass", Decimal("0.000001")), "lb": ("mass", Decimal("0.45359237")),
    "oz": ("mass", Decimal("0.028349523125")),
    "m": ("length", Decimal(1)), "mm": ("length", Decimal("0.001")),
    "cm": ("length", Decimal("0.01")), "km": ("length", Decimal(1000)),
    "in": ("length", Decimal("0.0254")), "ft": ("length", Decimal("0.3048")),
    "yd": ("length", Decimal("0.9144")), "mi": ("length", Decimal("1609.344")),
    "l": ("volume", Decimal(1)), "ml": ("volume", Decimal("0.001")),
    "fl oz": ("volume", Decimal("0.0295735295625")), "gal": ("volume", Decimal("3.785411784")),
    "qt": ("volume", Decimal("0.946352946")), "pt": ("volume", Decimal("0.473176473")),
    "cup": ("volume", Decimal("0.2365882365")), "tbsp": ("volume", Decimal("0.01478676478125")),
    "tsp": ("volume", Decimal("0.00492892159375")),
    "sq m": ("area", Decimal(1)), "sq ft": ("area", Decimal("0.09290304")),
    "km/h": ("speed", Decimal(1)), "mph": ("speed", Decimal("1.609344")),
    "W": ("power", Decimal(1)), "kW": ("power", Decimal(1000)),
    "Wh": ("energy", Decimal(1)), "kWh": ("energy", Decimal(1000)),
    "MB": ("data", Decimal(1)), "GB": ("data", Decimal(1000)), "TB": ("data", Decimal(10**6)),
    "Hz": ("frequency", Decimal(1)), "kHz": ("frequency", Decimal(1000)),
    "MHz": ("frequency", Decimal(10**6)), "GHz": ("frequency", Decimal(10**9)),
    "s": ("time", Decimal(1)), "min": ("time", Decimal(60)), "h": ("time", Decimal(3600)),
    "day": ("time", Decimal(86400)), "week": ("time", Decimal(604800)),
    # calendar months, years and decades convert only to each other (a month is no fixed
    # count of days)
    "month": ("calendar", Decimal(1)), "year": ("calendar", Decimal(12)),
    "decade": ("calendar", Decimal(120)),
}


#: Units of a span of time, clock or calendar (*40 years*, *two and a half hours*).
DURATIONS = frozenset(u for u, (dimension, _) in _FACTORS.items()
                      if dimension in ("time", "calendar"))


def convert(amount: Decimal, unit: str, to: str) -> Decimal | None:
    """``amount`` in ``unit`` expressed in ``to``; None when the two do not convert.

    Examples
    --------
    >>> convert(Decimal(22), "°C", "°F"), format(convert(Decimal(1), "kg", "g"), "f")
    (Decimal('71.6'), '1000')
    >>> convert(Decimal(1), "kg", "lb").quantize(Decimal("0.001")), convert(Decimal(1), "kg", "l")
    (Decimal('2.205'), None)
    """
    if unit == to:
        return amount
    if {unit, to} == {"°C", "°F"}:
        return amount * 9 / 5 + 32 if unit == "°C" else (amount - 32) * 5 / 9
    a, b = _FACTORS.get(unit), _FACTORS.get(to)
    if a is None or b is None or a[0] != b[0]:
        return None
    return amount * a[1] / b[1]


def same_after_conversion(claimed: Decimal, claimed_unit: str, found: Decimal,
                          found_unit: str) -> Decimal | None:
    """The converted context amount when the claim states it, else None.

    The claim states it when the converted amount, rounded to the claim's last
    written digit, is the claim, and differs from it by at most
    :data:`RELATIVE_TOLERANCE` (temperatures: by at most one degree).

    Examples
    --------
    >>> same_after_conversion(Decimal(72), "°F", Decimal(22), "°C")
    Decimal('71.6')
    >>> same_after_conversion(Decimal("2.2"), "lb", Decimal(1), "kg") is not None
    True
    >>> same_after_conversion(Decimal(2), "lb", Decimal(1), "kg") is None  # 2.2046: 10% off
    True
    """
    if claimed_unit == found_unit:
        return None
    value = convert(found, found_unit, claimed_unit)
    if value is None:
        return None
    exponent = min(claimed.as_tuple().exponent, 0) if isinstance(
        claimed.as_tuple().exponent, int) else 0
    try:
        rounded = value.quantize(Decimal(1).scaleb(exponent))
    except ArithmeticError:
        return None
    if rounded != claimed:
        return None
    if claimed_unit in ("°C", "°F"):
        return value if abs(value - claimed) <= 1 else None
    if abs(value - claimed) > RELATIVE_TOLERANCE * abs(claimed):
        return None
    return value


_BAND = math.log(1.01)  # magnitude bands 1 % wide


def magnitude_key(amount: Decimal, unit: str) -> tuple | None:
    """The band of a quantity among those it converts to: ``(dimension, band)``.

    The band is the amount in the dimension's base unit on a log scale, 1 %
    wide (temperatures: the whole degree Celsius); None for a unit that
    converts to no other. Two quantities that :func:`same_after_conversion`
    relates lie at most 3 bands (2 degrees) apart, so a long text's
    quantities can be looked up by band instead of tried one by one.

    Examples
    --------
    >>> magnitude_key(Decimal(1), "kg") == magnitude_key(Decimal(1000), "g")
    True
    >>> magnitude_key(Decimal(72), "°F"), magnitude_key(Decimal(22), "°C")
    (('temperature', 22), ('temperature', 22))
    >>> magnitude_key(Decimal(5), "stars") is None
    True
    """
    if unit in ("°C", "°F"):
        celsius = amount if unit == "°C" else (amount - 32) * 5 / 9
        try:
            return ("temperature", math.floor(celsius))
        except (OverflowError, ValueError):  # Infinity / NaN amounts
            return ("temperature", "extreme")
    factor = _FACTORS.get(unit)
    if factor is None:
        return None
    try:
        return (factor[0], math.floor(math.log(float(amount * factor[1])) / _BAND))
    except (OverflowError, ValueError, ArithmeticError):  # 0, negative, huge, tiny
        return (factor[0], "extreme")


def conversion_keys(amount: Decimal, unit: str) -> tuple[tuple, ...]:
    """The :func:`magnitude_key` bands where a quantity ``amount unit`` may be a conversion.

    Examples
    --------
    >>> conversion_keys(Decimal(1), "kg")[0], len(conversion_keys(Decimal(1), "kg"))
    (('mass', -3), 7)
    >>> conversion_keys(Decimal(5), "stars")
    ()
    """
    key = magnitude_key(amount, unit)
    if key is None:
        return ()
    if not isinstance(key[1], int):
        return (key,)
    return tuple((key[0], key[1] + d) for d in range(-3, 4))
