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

from decimal import Decimal

__all__ = ["RELATIVE_TOLERANCE", "convert", "same_after_conversion"]

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
}


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
