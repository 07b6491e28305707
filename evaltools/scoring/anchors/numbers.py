"""Numeric anchors: prices, quantities with units, percentages, plain numbers.

Pure Python (compiled regular expressions and tables), no spaCy. Every value
is canonical so that matching never looks at the surface text:

- ``("money", currency, amount)`` — ``$1,299.00``, ``1299 USD``, ``USD 1299``,
  ``€5``, ``$3 million``, ``3 million dollars``, ``99 cents``;
- ``("quantity", unit, amount)`` — ``2 kg``, ``2kg``, ``2 kilograms``,
  ``32-ounce``, ``12"``, ``3-pack``, ``twelve ounces``;
- ``("percent", amount)`` — ``15%``, ``15 percent``, ``15 per cent``;
- ``("ordinal", amount)`` — ``5th``, ``21st``, ``fifth``, ``twenty-first`` (words from
  *third*: *first* and *second* say too much else);
- ``("quantity", "x", amount)`` — ``3x zoom``, ``10×``;
- ``("phone", digits)`` — North American phone numbers: ``1-800-555-0199``,
  ``(800) 555-0199``, ``800.555.0199`` (country code 1 dropped);
- ``("number", amount)`` — ``1,200``, ``3.50``, ``twelve``, ``a dozen``,
  ``three million``, ``1.5 billion``, ``2k``;
- ``("year", year)`` (kind ``"date"``) — a bare four-digit integer from 1900
  to 2099 with no currency, unit, scale or sign.

Amounts are :class:`decimal.Decimal` without trailing zeros (``20.00`` and
``20`` give ``Decimal("20")``). A digit run is read with its separators as
one value (:func:`read_digit_run`: ``1.299,00``, ``4 500 Kč``, ``2'300,50``,
``Rp 45.000``); an ambiguous ``1.234`` keeps both readings. Units are
spelled one way (``kg``, ``oz``, ``fl oz``, ``l``, ``ml``, ``in`` ...) and
not converted here (:mod:`~evaltools.scoring.anchors.units` reports
conversions when matching). The decisions are listed in ``docs/anchors.md``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from evaltools.scoring.anchors.units import DURATIONS

__all__ = ["decimal_convention", "find_number_spans", "find_numbers", "ordinal_words",
           "read_digit_run"]

YEAR_MIN, YEAR_MAX = 1900, 2099
"""A bare integer in this range (four digits, nothing attached) is a year."""

MAX_DIGITS = 30
"""Numbers written with more digits than this are not anchors (IDs, hashes)."""

Span = tuple[int, int, str, tuple]

_SPACES = " \u00a0\u202f"  # a space, also non-breaking and narrow no-break
_SP = f"[{_SPACES}]"

# --- currencies -----------------------------------------------------------

_PREFIX_CURRENCY = {
    "US$": "USD", "$": "USD", "C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD",
    "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "SG$": "SGD", "R$": "BRL", "MX$": "MXN",
    "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "Rs.": "INR", "Rs": "INR",
    "₩": "KRW", "₽": "RUB", "₺": "TRY", "₱": "PHP", "฿": "THB", "₪": "ILS", "₴": "UAH",
    "₫": "VND", "RM": "MYR", "Rp": "IDR", "Fr.": "CHF", "zł": "PLN", "Kč": "CZK",
}
_CODES = (
    "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "INR", "CHF", "CNY", "RMB", "NZD", "SEK",
    "NOK", "DKK", "ISK", "MXN", "PLN", "CZK", "HUF", "RON", "BGN", "TRY", "RUB", "BRL",
    "ZAR", "HKD", "SGD", "KRW", "IDR", "MYR", "THB", "PHP", "VND", "ILS", "AED", "SAR",
    "EGP", "NGN", "KES", "ARS", "CLP", "COP", "PEN", "TWD", "UAH",
)
_CODE_ALIAS = {"RMB": "CNY"}
_SUFFIX_SYMBOL = {
    "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB",
    "₺": "TRY", "₱": "PHP", "฿": "THB", "₪": "ILS", "₴": "UAH", "₫": "VND", "円": "JPY",
    "元": "CNY", "원": "KRW", "zł": "PLN", "zl": "PLN", "Kč": "CZK", "kr": "kr", "Kr": "kr",
    "kr.": "kr", "Ft": "HUF", "lei": "RON", "лв": "BGN", "руб": "RUB", "Fr.": "CHF",
}
_SUFFIX_WORD = {
    "dollar": "USD", "dollars": "USD", "bucks": "USD", "euro": "EUR", "euros": "EUR",
    "yen": "JPY", "rupee": "INR", "rupees": "INR", "yuan": "CNY", "renminbi": "CNY",
    "won": "KRW", "rubles": "RUB", "roubles": "RUB", "francs": "CHF", "zloty": "PLN",
    "złoty": "PLN", "zlotys": "PLN", "forint": "HUF", "ringgit": "MYR", "rupiah": "IDR",
    "baht": "THB", "pesos": "MXN", "reais": "BRL", "kronor": "SEK", "kroner": "kr",
    "koruna": "CZK", "korun": "CZK", "lira": "TRY", "shekels": "ILS", "dong": "VND",
}
#: The Scandinavian ``kr`` stands for any of these codes.
KRONA_CODES = frozenset({"SEK", "NOK", "DKK", "ISK", "kr"})
_CENTS = {"cent", "cents", "¢"}  # amount / 100, in USD

# --- units: canonical -> surface forms -------------------------------------
# Words are matched case-insensitively; symbols exactly as written.

_UNIT_WORDS: dict[str, tuple[str, ...]] = {
    "kg": ("kilograms", "kilogram", "kilos", "kilo", "kgs"),
    "g": ("grams", "gram", "grammes", "gramme"),
    "mg": ("milligrams", "milligram"),
    "lb": ("pounds", "pound", "lbs"),
    "oz": ("ounces", "ounce"),
    "fl oz": ("fluid ounces", "fluid ounce", "fl oz", "fl. oz.", "fl. oz", "fl oz."),
    "l": ("liters", "liter", "litres", "litre", "ltr"),
    "ml": ("milliliters", "milliliter", "millilitres", "millilitre"),
    "mm": ("millimeters", "millimeter", "millimetres", "millimetre"),
    "cm": ("centimeters", "centimeter", "centimetres", "centimetre"),
    "m": ("meters", "meter", "metres", "metre"),
    "km": ("kilometers", "kilometer", "kilometres", "kilometre"),
    "in": ("inches", "inch"),
    "ft": ("feet", "foot"),
    "yd": ("yards", "yard"),
    "mi": ("miles", "mile"),
    "sq ft": ("square feet", "square foot", "sq ft", "sq. ft."),
    "sq m": ("square meters", "square meter", "square metres", "square metre", "sq m"),
    "mph": ("miles per hour", "mph"),
    "km/h": ("kilometers per hour", "kilometres per hour", "kph", "kmh", "kmph"),
    "gal": ("gallons", "gallon"),
    "qt": ("quarts", "quart"),
    "pt": ("pints", "pint"),
    "cup": ("cups", "cup"),
    "tbsp": ("tablespoons", "tablespoon", "tbsp"),
    "tsp": ("teaspoons", "teaspoon", "tsp"),
    "W": ("watts", "watt"),
    "kW": ("kilowatts", "kilowatt"),
    "V": ("volts", "volt"),
    "A": ("amps", "amp", "amperes", "ampere"),
    "GB": ("gigabytes", "gigabyte"),
    "TB": ("terabytes", "terabyte"),
    "MB": ("megabytes", "megabyte"),
    "MP": ("megapixels", "megapixel"),
    "kcal": ("calories", "calorie", "kcal"),
    "°F": ("degrees fahrenheit", "degrees f"),
    "°C": ("degrees celsius", "degrees centigrade", "degrees c"),
    "°": ("degrees", "degree"),
    "h": ("hours", "hour", "hrs", "hr"),
    "min": ("minutes", "minute", "mins"),
    "s": ("seconds", "second", "secs"),
    "day": ("days", "day"),
    "week": ("weeks", "week"),
    "month": ("months", "month"),
    "year": ("years", "year", "yrs"),
    "decade": ("decades", "decade"),
    "pack": ("packs", "pack"),
    "count": ("count",),
    "piece": ("pieces", "piece", "pcs"),
    "serving": ("servings", "serving"),
    "star": ("stars", "star"),
}
_UNIT_SYMBOLS: dict[str, tuple[str, ...]] = {
    "kg": ("kg", "KG", "Kg"),
    "g": ("g",),
    "mg": ("mg",),
    "lb": ("lb", "lbs", "LB", "LBS", "Lb", "Lbs"),
    "oz": ("oz", "OZ", "Oz"),
    "fl oz": ("fl oz", "FL OZ", "fl. oz.", "floz"),
    "l": ("L", "l", "ltr"),
    "ml": ("ml", "mL", "ML"),
    "mm": ("mm",),
    "cm": ("cm",),
    "m": ("m",),
    "sq m": ("m²", "m2"),
    "sq ft": ("ft²",),
    "h": ("h",),
    "km": ("km",),
    "in": ('"', "″", "in."),
    "ft": ("ft", "′"),
    "yd": ("yd", "yds"),
    "mi": ("mi",),
    "gal": ("gal",),
    "qt": ("qt",),
    "W": ("W",),
    "kW": ("kW",),
    "kWh": ("kWh",),
    "Wh": ("Wh",),
    "V": ("V",),
    "mAh": ("mAh",),
    "Hz": ("Hz",),
    "kHz": ("kHz",),
    "MHz": ("MHz",),
    "GHz": ("GHz",),
    "GB": ("GB",),
    "TB": ("TB",),
    "MB": ("MB",),
    "MP": ("MP",),
    "km/h": ("km/h", "kmph", "kph", "km/hr"),
    "kcal": ("cal", "Cal"),
    "°F": ("°F", "° F", "℉"),
    "°C": ("°C", "° C", "℃"),
    "°": ("°",),
    "min": ("min",),
    "s": ("sec",),
    "year": ("yo", "y/o", "yr"),  # an age: "my 6yo", "a 10 y/o"
    "pack": ("pk",),
    "count": ("ct",),
    "piece": ("pc",),
}

_WORD_TO_UNIT = {w: unit for unit, words in _UNIT_WORDS.items() for w in words}
_SYMBOL_TO_UNIT = {s: unit for unit, syms in _UNIT_SYMBOLS.items() for s in syms}


def _alternation(forms, *, flexible_space: bool = True) -> str:
    parts = []
    for form in sorted(set(forms), key=lambda f: (-len(f), f)):
        pat = re.escape(form)
        if flexible_space:
            pat = pat.replace(r"\ ", f"{_SP}+")
        parts.append(pat)
    return "|".join(parts)


# Written right after the digits only: "12in" is inches (" in " is a preposition),
# "3x" is a multiple ("12 x 10" is a dimension, left as two numbers), "-200F" and "22C"
# are degrees (reviewers drop the degree sign; "Ste 5 F" stays a letter), and a quote
# mark is inches or feet (12" or 6′; the quote after "two over one" closes a quotation).
_QUOTE_UNITS = ('"', "″", "′")
_UNIT_RE = (
    f"(?i:{_alternation(_WORD_TO_UNIT)})"
    f"|{_alternation(s for s in _SYMBOL_TO_UNIT if s not in _QUOTE_UNITS)}"
    f"|(?<=[0-9])(?:in|[xX×FC]|{'|'.join(_QUOTE_UNITS)})"
)
#: A scale's letter written right after the digits: degrees.
_BARE_DEGREES = {"F": "°F", "C": "°C"}

# --- scales -----------------------------------------------------------------

_SCALE_WORDS = {
    "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
}
_SCALE_SYMBOLS = {"k": 10**3, "K": 10**3, "M": 10**6, "MM": 10**6, "mn": 10**6,
                  "m": 10**6, "B": 10**9, "bn": 10**9, "Bn": 10**9, "BN": 10**9}

# --- number words -----------------------------------------------------------

_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9,
}
_TEENS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}
_NUMBER_WORDS = [*_SMALL, *_TEENS, *_TENS, "hundred", *_SCALE_WORDS, "dozen"]
_WORD_ALT = "|".join(sorted(_NUMBER_WORDS, key=lambda w: (-len(w), w)))
_AFTER_A = "hundred|thousand|million|billion|trillion|dozen"
#: Words after a hyphen that make a number word a fraction (*two-thirds*), no count of its own;
#: any other word after one is what it counts (*a five-match ban*, *a two-time champion*).
_FRACTION_ALT = ("halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?"
                 "|ninths?|tenths?")

# --- the two scanners ---------------------------------------------------------

#: A unit joined by a hyphen to a word that is no measure of it names a thing, not an
#: amount (*one day-house renter*, *two day-use permits*): *3-day-old*, *10-minute-long* still
#: measure.
_COMPOUND_AFTER_UNIT = r"(?!(?:old|long|plus|ish|wide|high|deep|tall|thick|odd)\b)[^\W\d_]"
_SYMBOL_CHARS = "$€£¥₹₩₽₺₱฿₪₴₫"
_LETTER_SYMBOLS = sorted((k for k in _SUFFIX_SYMBOL if k[0] not in _SYMBOL_CHARS),
                         key=lambda k: (-len(k), k))
_CJK_SYMBOLS = "円元원"  # word characters, so no word boundary is asked after them
_SUFFIX = (
    "(?:"
    f"(?P<pct>{_SP}?%|(?:{_SP}|-)(?i:percent|per{_SP}cent|pct)(?![\\w]))"
    f"|(?P<cents>{_SP}?¢|(?:{_SP}|-)(?i:cents?)(?![\\w]))"  # "a 50-cent refill"
    f"|(?P<csym>{_SP}?(?:[{_SYMBOL_CHARS}{_CJK_SYMBOLS}]"
    f"|(?:{'|'.join(re.escape(k) for k in _LETTER_SYMBOLS)})(?![\\w])))"
    f"|(?P<ccode>{_SP}?(?:{'|'.join(_CODES)})(?![A-Za-z]))"
    f"|(?P<cword>{_SP}(?i:{'|'.join(sorted(_SUFFIX_WORD, key=len, reverse=True))})(?![\\w]))"
    f"|(?:{_SP}?|-)(?P<unit>{_UNIT_RE})(?![\\w]|-{_COMPOUND_AFTER_UNIT})"
    ")"
)

_PREFIX_ALT = (
    f"(?P<precode>{'|'.join(_CODES)}){_SP}?(?P<presym>[$€£¥])"
    "|" + "|".join([re.escape(p) for p in sorted(_PREFIX_CURRENCY, key=len, reverse=True)]
                   + list(_CODES))
)

# One digit run with its separators: thousands grouped by "," "." "'" "’" or a
# non-breaking / narrow space (always grouping), and one decimal mark. Which of
# "," and "." is the decimal mark is decided afterwards (:func:`read_digit_run`).
_RUN = r"[0-9]+(?:(?:[.,]|['’\u00a0\u202f](?=[0-9]{3}(?![0-9])))[0-9]+)*|\.[0-9]+"
# Plain-space grouping ("4 500 Kč") is read only for money; elsewhere "3 100" is two numbers.
_SPACED_RUN = r"[0-9]{1,3}(?: [0-9]{3}(?![0-9]))+(?:[.,][0-9]+)?"


def _digits_re(run: str) -> re.Pattern:
    return re.compile(
        "(?:"
        f"(?<![\\w{_SYMBOL_CHARS}])(?P<pre>{_PREFIX_ALT}){_SP}?"
        "|(?:(?<![^\\s(\\[])(?P<neg>[-−]))"
        f"|(?<![\\w.,'’{_SYMBOL_CHARS}])"
        ")"
        f"(?P<num>{run})"
        "(?![.,'’][0-9])"
        "(?:"
        f"(?P<scale>k|K|MM|M|mn|m|B|bn|Bn|BN)(?![\\w])"
        f"|(?:{_SP}|-)(?P<scalew>(?i:thousand|million|billion|trillion|dozen))(?![\\w])"
        ")?"
        "(?:"
        "(?P<ord>st|nd|rd|th)"
        f"|{_SUFFIX}"
        "|(?P<ish>-?ish)"  # "25ish": about 25 (mentions read the qualifier)
        "|(?P<pp>pp)"  # "$75pp": per person (read after a currency only)
        "|(?<=[0-9]{2}[1-9])s"  # "quarterly 941s", "1099s": forms or models by number
        ")?"
        f"(?:(?<=[{_CJK_SYMBOLS}])|(?![\\w]))"
    )


_DIGITS_RE = _digits_re(_RUN)
#: The letter x between two digit runs, as dimensions are written (*10x8 ft*, *46x74*, two
#: *10x14s*; not the hexadecimal *0x1F*): read as the multiplication sign, so each side is a
#: number (a plural's *s* as a space).
_BY_X = re.compile(r"(?<![\w.,])[1-9][0-9]*(?:[xX][0-9]+)+(?:s\b)?")
_SPACED_DIGITS_RE = _digits_re(_SPACED_RUN)
_LONE_MARK = re.compile(r"[1-9][0-9]{0,2}[.,][0-9]{3}")  # "1.234": the text's convention decides
_SPACED_HINT = re.compile(r"[0-9] [0-9]{3}(?![0-9])")  # cheap test before the full scan

# Evidence of a text's decimal mark: a lone "," or "." followed by one, two, or
# four or more digits (``12,99``, ``3.5``), or the last of two different marks
# (``1.299,00``, ``1,299.00``).
_DECIMAL_EVIDENCE = re.compile(
    r"(?<![\w.,'’])[0-9]+(?:(?P<g>[.,'’\u00a0\u202f])[0-9]{3})*"
    r"(?P<d>[.,])(?:[0-9]{1,2}|[0-9]{4,})(?![0-9]|[.,][0-9])"
)


def decimal_convention(text: str) -> str | None:
    """The decimal mark a text uses, judged from its unambiguous numbers.

    ``","`` when every unambiguous decimal in the text has a decimal comma
    (``12,99``, ``1.299,00``), ``"."`` when every one has a point (``3.5``,
    ``1,299.00``), else None (none, or both).

    Examples
    --------
    >>> decimal_convention("Preis 12,99 €, Gewicht 1.250 g")
    ','
    >>> decimal_convention("Rated 4.5, 1,250 reviews"), decimal_convention("1,250 reviews")
    ('.', None)
    """
    marks = set()
    for m in _DECIMAL_EVIDENCE.finditer(text):
        if m.group("g") is None or m.group("g") != m.group("d"):
            marks.add(m.group("d"))
            if len(marks) > 1:
                return None
    return marks.pop() if marks else None


def read_digit_run(run: str, *, money: bool = False, convention: str | None = None
                   ) -> tuple[Decimal, Decimal | None] | None:
    """The value of one digit run with its separators, and its other reading if ambiguous.

    The rule, in order (documented in ``docs/anchors.md``):

    1. ``'``, ``’``, a non-breaking or a narrow space only group thousands.
    2. With both ``,`` and ``.`` (``1.299,00``, ``1,299.00``) the last one is
       the decimal mark and occurs once; the others group thousands.
    3. A mark that occurs more than once groups thousands (``1.000.000``).
    4. A single mark is decimal when thousands are also grouped otherwise
       (``2'300,50``), when it is not followed by exactly three digits
       (``12,99``, ``3.5``) or when the part before it cannot open a group
       (``0.500``, ``1234.567``).
    5. Otherwise (``1.234``, ``1,234``) it is ambiguous. Money groups thousands
       (prices carry no third decimal: ``Rp 45.000`` is 45000); a text whose
       unambiguous numbers all use one decimal mark decides
       (:func:`decimal_convention`); else both readings are kept, the English
       one first (``1,234`` = 1234, ``1.234`` = 1.234).

    Groups after the first must have three digits and the first one to three.

    Returns
    -------
    (value, other) or None
        None when the run is no number (``1,2,3``, ``1.2.3``); ``other`` is the
        second reading of an ambiguous run, else None.

    Examples
    --------
    >>> read_digit_run("1.299,00"), read_digit_run("2'300,50"), read_digit_run("4\u202f500")
    ((Decimal('1299.00'), None), (Decimal('2300.50'), None), (Decimal('4500'), None))
    >>> read_digit_run("45.000", money=True), read_digit_run("12,99")
    ((Decimal('45000'), None), (Decimal('12.99'), None))
    >>> read_digit_run("1.234"), read_digit_run("1,234")
    ((Decimal('1.234'), Decimal('1234')), (Decimal('1234'), Decimal('1.234')))
    >>> read_digit_run("1.234", convention=",")
    (Decimal('1234'), None)
    >>> read_digit_run("1.2.3") is None
    True
    """
    if run.isdigit():
        return Decimal(run), None
    if run.startswith("."):  # ".5"
        return (Decimal("0" + run), None) if run[1:].isdigit() else None
    parts = re.split(r"([^0-9])", run)
    digits, seps = parts[0::2], parts[1::2]
    marks = [c for c in seps if c in ".,"]
    grouped_otherwise = len(marks) < len(seps)
    decimal_at: int | None = None  # index in seps of the decimal mark
    if len(set(marks)) == 2:
        if seps[-1] not in ".," or marks.count(seps[-1]) != 1:
            return None
        decimal_at = len(seps) - 1
    elif len(marks) == 1:
        if seps[-1] not in ".,":
            return None  # "1.234'567": a mark before grouping
        decimal_at = len(seps) - 1
        head = digits[0]
        lone = len(seps) == 1 and len(digits[1]) == 3 and 0 < len(head) <= 3 \
            and not head.startswith("0")
        if lone and not grouped_otherwise:  # rule 5: "1.234", "1,234"
            mark = marks[0]
            if money or convention == ("," if mark == "." else "."):
                decimal_at = None
            elif convention is None:
                grouped = Decimal(head + digits[1])
                decimal = Decimal(f"{head}.{digits[1]}")
                return (decimal, grouped) if mark == "." else (grouped, decimal)
    whole = digits[:decimal_at + 1] if decimal_at is not None else digits
    if not whole[0] or (len(whole) > 1 and len(whole[0]) > 3):
        return None
    inner = [len(d) for d in whole[1:]]
    if (inner and inner[-1] != 3) or any(n not in (2, 3) for n in inner) \
            or (2 in inner and (len(set(seps[:len(inner)])) != 1 or seps[0] != ",")):
        return None  # groups of three; Indian lakh grouping "1,00,000" also
    text = "".join(whole)
    if decimal_at is not None:
        text += "." + digits[-1]
    return Decimal(text), None


_WORDS_RE = re.compile(  # not inside a hyphenated word, but a "father-of-four"'s count
    f"(?:(?<![\\w-])|(?<=\\w-of-))(?P<words>(?i:(?:an?{_SP}+(?=(?:{_AFTER_A})\\b))?"
    f"(?:{_WORD_ALT})(?:(?:{_SP}+and{_SP}+|{_SP}+|-)(?:{_WORD_ALT}))*))"
    f"(?:{_SUFFIX})?"
    f"(?![\\w]|-(?:{_FRACTION_ALT}|[0-9])(?![\\w]))"
)
# North American phone numbers: 800-555-0199, 1-800-555-0199, (800) 555-0199, 800.555.0199.
_PHONE_RE = re.compile(
    r"(?<![\w.,/+-])(?:\+?1[-. ])?(?:\([0-9]{3}\)[ ]?|[0-9]{3}[-.])"
    r"[0-9]{3}[-.][0-9]{4}(?![\w]|[-.,/][0-9])"
)
_TOKEN_RE = re.compile(f"(?i)\\b(?:{_WORD_ALT}|and|an|a)\\b")


def _canon(d: Decimal) -> Decimal:
    """``Decimal("20.00")`` -> ``Decimal("20")``; ``Decimal("1.50")`` -> ``Decimal("1.5")``."""
    try:
        if d == d.to_integral_value():
            return Decimal(int(d))
        return d.normalize()
    except (InvalidOperation, OverflowError, ValueError):  # pragma: no cover - see MAX_DIGITS
        return d


def _with_suffix(m: re.Match, amount: Decimal, prefix_currency: str | None) -> tuple | None:
    """The canonical value of an amount given what was written around it."""
    if m.group("pct") is not None:
        return ("percent", _canon(amount))
    if m.group("cents") is not None:
        return ("money", "USD", _canon(amount / 100))
    suffix_currency = None
    if m.group("csym") is not None:
        suffix_currency = _SUFFIX_SYMBOL[m.group("csym").strip(_SPACES)]
    elif m.group("ccode") is not None:
        code = m.group("ccode").strip(_SPACES)
        suffix_currency = _CODE_ALIAS.get(code, code)
    elif m.group("cword") is not None:
        suffix_currency = _SUFFIX_WORD[m.group("cword").strip(_SPACES).lower()]
    if suffix_currency is not None:
        return ("money", suffix_currency, _canon(amount))
    if m.group("unit") is not None:
        return ("quantity", _unit(m.group("unit")), _canon(amount))
    if prefix_currency is not None:
        return ("money", prefix_currency, _canon(amount))
    return None


def _unit(surface: str) -> str:
    if surface in _SYMBOL_TO_UNIT:
        return _SYMBOL_TO_UNIT[surface]
    if surface in _BARE_DEGREES:
        return _BARE_DEGREES[surface]
    key = re.sub(r"\s+", " ", surface).lower()
    if key in _WORD_TO_UNIT:
        return _WORD_TO_UNIT[key]
    if key in _SYMBOL_TO_UNIT:  # "FL OZ" and friends
        return _SYMBOL_TO_UNIT[key]
    return "x" if key in ("x", "×") else key


def _money_currency(m: re.Match) -> str | None:
    """The currency written before or after the amount, if any."""
    if m.group("pre") is not None:
        return _prefix_currency(m)
    if m.group("csym") is not None:
        return _SUFFIX_SYMBOL[m.group("csym").strip(_SPACES)]
    if m.group("ccode") is not None:
        code = m.group("ccode").strip(_SPACES)
        return _CODE_ALIAS.get(code, code)
    if m.group("cword") is not None:
        return _SUFFIX_WORD[m.group("cword").strip(_SPACES).lower()]
    if m.group("cents") is not None:
        return "USD"
    return None


def _prefix_currency(m: re.Match) -> str:
    if m.group("precode") is not None:  # "CAD $20": the code decides
        code = m.group("precode")
        return _CODE_ALIAS.get(code, code)
    pre = m.group("pre")
    return _PREFIX_CURRENCY.get(pre) or _CODE_ALIAS.get(pre, pre)


def _digit_spans(text: str) -> list[tuple]:
    """Spans ``(start, end, kind, value, other_values)`` of numbers written with digits."""
    out: list[tuple] = []
    convention: list[str | None] = []  # computed once, on the first ambiguous run
    spaced = [m for m in _SPACED_DIGITS_RE.finditer(text) if _money_currency(m) is not None] \
        if _SPACED_HINT.search(text) else []
    for m in spaced:
        _digit_span(m, text, convention, out)
    taken = [(m.start(), m.end()) for m in spaced]
    for m in _DIGITS_RE.finditer(text):
        if taken and any(s < m.end() and m.start() < e for s, e in taken):
            continue
        _digit_span(m, text, convention, out)
    return out


def _digit_span(m: re.Match, text: str, convention: list, out: list) -> None:
    num = m.group("num")
    if sum(c.isdigit() for c in num) > MAX_DIGITS:
        return
    pre = m.group("pre")
    prefix_currency = _prefix_currency(m) if pre is not None else None
    if m.group("pp") and prefix_currency is None:
        return  # "2pp" may be percentage points or pages: no amount is read
    money = _money_currency(m) is not None
    if not money and not convention and _LONE_MARK.fullmatch(num):
        convention.append(decimal_convention(text))
    read = read_digit_run(num, money=money, convention=convention[0] if convention else None)
    if read is None:
        return
    amount, other = read
    if m.group("neg"):
        amount = -amount
        other = -other if other is not None else None
    value = _digit_value(m, num, amount, prefix_currency)
    if value is None:
        return
    start, end, kind, val = value
    others: tuple = ()
    if other is not None:
        alt = _digit_value(m, num, other, prefix_currency)
        if alt is not None and alt[3] != val:
            others = (alt[3],)
    out.append((start, end, kind, val, others))


def _digit_value(m: re.Match, num: str, amount: Decimal,
                 prefix_currency: str | None) -> Span | None:
    """The span and canonical value of one digit match, given its amount."""
    scale = m.group("scale")
    if scale is not None:
        if scale == "m" and _money_currency(m) is None:
            # "5m" without a currency is five metres ("$5m", "30m euros" are millions).
            return (m.start(), m.end("scale"), "number", ("quantity", "m", _canon(amount)))
        amount *= _SCALE_SYMBOLS[scale]
    elif m.group("scalew") is not None:
        if prefix_currency is not None and m.group("scalew").lower() == "dozen":
            # "a $16 dozen": the price of a dozen, not sixteen dozen dollars
            return (m.start(), m.end("num"), "number", ("money", prefix_currency,
                                                        _canon(amount)))
        amount *= _SCALE_WORDS.get(m.group("scalew").lower(), 12)  # or "dozen"
    if m.group("ord") is not None:
        if scale or m.group("scalew") or not num.isdigit() or m.group("neg"):
            return None
        return (m.start(), m.end(), "number", ("ordinal", _canon(amount)))
    if prefix_currency is not None and _conflicting_suffix(m, prefix_currency):
        # "$15%", "€20 USD", "$2kg": keep only the prefixed amount.
        end = m.end("scale") if scale else (
            m.end("scalew") if m.group("scalew") else m.end("num"))
        return (m.start(), end, "number", ("money", prefix_currency, _canon(amount)))
    value = _with_suffix(m, amount, prefix_currency)
    if value is None:
        if (
            scale is None and m.group("scalew") is None and not m.group("neg")
            and len(num) == 4 and num.isdigit() and YEAR_MIN <= int(num) <= YEAR_MAX
            and not m.string.startswith("+", m.end())  # "2000+ piece puzzles": a count
        ):
            return (m.start(), m.end(), "date", ("year", int(num)))
        value = ("number", _canon(amount))
    return (m.start(), m.end(), "number", value)


def _conflicting_suffix(m: re.Match, prefix_currency: str) -> bool:
    """Whether what follows a prefixed amount disagrees with its currency.

    ``"$20 USD"`` agrees; ``"$20 CAD"`` refines a bare ``$`` (the code decides);
    ``"€20 USD"``, ``"$15%"`` and ``"$2 kg"`` disagree.
    """
    if m.group("pct") or m.group("unit") or m.group("cents"):
        return True
    if m.group("csym"):
        return _SUFFIX_SYMBOL[m.group("csym").strip(_SPACES)] != prefix_currency
    if m.group("ccode"):
        code = m.group("ccode").strip(_SPACES)
        return _CODE_ALIAS.get(code, code) != prefix_currency and m.group("pre") != "$"
    if m.group("cword"):
        return _SUFFIX_WORD[m.group("cword").strip(_SPACES).lower()] != prefix_currency
    return False


def _parse_words(tokens: list[tuple[str, int, int]]) -> list[tuple[int, int, int]]:
    """Split number-word tokens into valid numbers: ``(first_token, last_token, value)``.

    ``"two hundred and fifty"`` is one number (250); ``"two three"`` is two.
    """
    results: list[tuple[int, int, int]] = []
    i, n = 0, len(tokens)
    while i < n:
        total = current = 0
        last: str | None = None
        last_scale: int | None = None
        j = i
        end_tok = -1
        pending_and = False
        while j < n:
            w = tokens[j][0].lower()
            if w in ("a", "an"):
                if last is not None or j + 1 >= n or tokens[j + 1][0].lower() not in _AFTER_A:
                    break
                current, last = 1, "a"
            elif w == "and":
                if last not in ("hundred", "scale") or pending_and:
                    break
                pending_and = True
                j += 1
                continue
            elif w in _SMALL:
                if last not in (None, "tens", "hundred", "scale"):
                    break
                current += _SMALL[w]
                last = "unit"
            elif w in _TEENS:
                if last not in (None, "hundred", "scale"):
                    break
                current += _TEENS[w]
                last = "teen"
            elif w in _TENS:
                if last not in (None, "hundred", "scale"):
                    break
                current += _TENS[w]
                last = "tens"
            elif pending_and:
                break
            elif w == "hundred":
                if last not in ("unit", "teen", "a") or not 0 < current < 100:
                    break
                current *= 100
                last = "hundred"
            elif w in _SCALE_WORDS:
                scale = _SCALE_WORDS[w]
                if last not in ("unit", "teen", "tens", "hundred", "a") or current == 0:
                    break
                if last_scale is not None and scale >= last_scale:
                    break
                total += current * scale
                current, last, last_scale = 0, "scale", scale
            elif w == "dozen":
                if last not in (None, "unit", "teen", "tens", "a"):
                    break
                current = (current or 1) * 12
                end_tok = j
                j += 1
                last = "dozen"
                break
            else:  # pragma: no cover - the token regex only yields the words above
                break
            pending_and = False
            end_tok = j
            j += 1
        if end_tok < i:
            i += 1
            continue
        value = total + current
        words = [t[0].lower() for t in tokens[i:end_tok + 1]]
        if words not in (["a"], ["an"]):
            results.append((i, end_tok, value))
        i = end_tok + 1
    return results


def _word_spans(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _WORDS_RE.finditer(text):
        base = m.start("words")
        tokens = [(t.group(), base + t.start(), base + t.end())
                  for t in _TOKEN_RE.finditer(m.group("words"))]
        parsed = _parse_words(tokens)
        glued = text[m.end("words"):m.end("words") + 1].isalpha()  # "eighth": no "h" unit
        for k, (first, last, value) in enumerate(parsed):
            start, end = tokens[first][1], tokens[last][2]
            amount = Decimal(value)
            if k == len(parsed) - 1 and end == m.end("words") and not glued:
                suffixed = _with_suffix(m, amount, None)
                if suffixed is not None:  # "one year", "one dollar" are anchors
                    out.append((start, m.end(), "number", suffixed))
                    continue
            if first == last and tokens[first][0].lower() == "one":
                continue  # "one of the best": a lone "one" is not an anchor
            out.append((start, end, "number", ("number", amount)))
    return out


_HALF_UNIT_ALT = _alternation(w for w, u in _WORD_TO_UNIT.items() if u in DURATIONS)
_HALF_NUMBER = {**_SMALL, **_TEENS, **_TENS, "a": 1, "an": 1}
# "a year and a half", "year-and-a-half", "two and a half hours", "half an hour", "a half
# hour", "a half-hour wait"; "a half of one percent", "half a per cent" (0.5 %)
_HALF_RE = re.compile(
    f"(?i)\\b(?:(?:(?P<n>{'|'.join(_HALF_NUMBER)}|[0-9]{{1,3}})[ \u00a0-]+)?"
    f"(?:(?P<u1>{_HALF_UNIT_ALT})[ \u00a0-]+)?and[ \u00a0-]+a[ \u00a0-]+half"
    f"(?:[ \u00a0-]+(?P<u2>{_HALF_UNIT_ALT}))?"
    f"|half(?:[ \u00a0-]+an?)?[ \u00a0-]+(?P<u3>{_HALF_UNIT_ALT})"
    f"|(?P<pct>half(?:[ \u00a0]+of)?[ \u00a0]+(?:an?|one|1)[ \u00a0]*"
    f"(?:percent|per[ \u00a0]cent|%)))"
    f"(?![\\w])")


def _half_spans(text: str) -> list[Span]:
    """Amounts with a half written in words: *a year and a half* is 1.5 years (docs/anchors.md).

    >>> [v for *_, v in _half_spans("for a year-and-a-half, two and a half hours, half an hour")]
    [('quantity', 'year', Decimal('1.5')), ('quantity', 'h', Decimal('2.5')), \
('quantity', 'h', Decimal('0.5'))]
    >>> [t[s:e] for t in ("a half hour", "a roughly half-hour ceremony", "half the day")
    ...  for s, e, *_ in _half_spans(t)]
    ['half hour', 'half-hour']
    >>> [v for *_, v in _half_spans("a half of one percent of GDP, half a per cent")]
    [('percent', Decimal('0.5')), ('percent', Decimal('0.5'))]
    """
    out: list[Span] = []
    for m in _HALF_RE.finditer(text):
        if m.group("pct"):  # "a half of one percent", "half a per cent": 0.5 %
            out.append((m.start("pct"), m.end(), "number", ("percent", Decimal("0.5"))))
            continue
        if m.group("u3"):
            out.append((m.start(), m.end(), "number",
                        ("quantity", _WORD_TO_UNIT[m.group("u3").lower()], Decimal("0.5"))))
            continue
        n, u1, u2 = m.group("n"), m.group("u1"), m.group("u2")
        if (u1 is None) == (u2 is None) or (n is None and u1 is None):
            continue  # "and a half" after no amount, or with two units
        if n is None or n.lower() in ("a", "an"):
            if u1 is None:
                continue  # "a ... and a half hours": not an amount
            whole = 1
        else:
            whole = int(n) if n.isdigit() else _HALF_NUMBER[n.lower()]
        unit = _WORD_TO_UNIT[(u1 or u2).lower()]
        out.append((m.start(), m.end(), "number",
                    ("quantity", unit, _canon(Decimal(whole) + Decimal("0.5")))))
    return out


#: Vulgar fractions written as one character, and the simple fractions read in digits.
_VULGAR = {"\u00bd": Decimal("0.5"), "\u00bc": Decimal("0.25"), "\u00be": Decimal("0.75"),
           "\u2153": Decimal("0.33"), "\u2154": Decimal("0.67"), "\u215b": Decimal("0.125")}
_FRACTION_RE = re.compile(
    "(?<![\\w/.,])(?:(?P<whole>[0-9]{1,3})(?:[ \u00a0]+|-))?(?P<n>[1-7])/(?P<d>[2348])(?![\\w/])"
    f"|(?<![\\w/.,])(?P<whole2>[0-9]{{1,3}})?[ \u00a0]?(?P<v>[{''.join(_VULGAR)}])")


def _fraction_spans(text: str) -> list[Span]:
    """Amounts with a fraction: a mixed number (*2 1/2 hours*, *1-1/2 cups*), a fraction in
    digits before a unit (*1/2 mile*, *3/4 cup*) or a vulgar fraction (*2\u00bd hours*,
    *\u00bd lb*).
    A lone *1/2* without a whole number or a unit is left alone: it may be a date or a score.

    >>> [(t[s:e], v) for t in ("Took about 2 1/2 hours.", "a 1/2 mile walk", "2\u00bd lbs")
    ...  for s, e, _, v in _fraction_spans(t)]
    [('2 1/2 hours', ('quantity', 'h', Decimal('2.5'))), \
('1/2 mile', ('quantity', 'mi', Decimal('0.5'))), \
('2\u00bd lbs', ('quantity', 'lb', Decimal('2.5')))]
    >>> _fraction_spans("Scores of 1/2 and 3/4, on 3/4/2021.")
    []
    """
    out: list[Span] = []
    for m in _FRACTION_RE.finditer(text):
        if m.group("v"):
            whole, part = m.group("whole2"), _VULGAR[m.group("v")]
        else:
            whole = m.group("whole")
            n, d = int(m.group("n")), int(m.group("d"))
            if n >= d:
                continue
            part = (Decimal(n) / Decimal(d)).quantize(Decimal("0.01")) if d == 3 else \
                Decimal(n) / Decimal(d)
        amount = _canon(Decimal(whole or 0) + part)
        head = format(amount, "f")
        # the unit after it, read as the digits' reader reads "2.5 hours"
        tail = text[m.end():m.end() + 40]
        spans = [sp for sp in _digit_spans(head + tail) if sp[0] == 0]
        if spans and spans[0][1] > len(head):
            end, value = m.end() + spans[0][1] - len(head), spans[0][3]
        elif whole is not None or m.group("v"):
            end, value = m.end(), ("number", amount)
        else:
            continue
        out.append((m.start(), end, "number", value))
    return out


#: Counts of times written as one word: *refused twice* against "asked three times".
_TIMES_WORDS = {"twice": 2, "thrice": 3}
_TIMES_RE = re.compile(r"(?i)\b(twice|thrice)\b")


def _times_spans(text: str) -> list[Span]:
    """*Twice* and *thrice* as the counts 2 and 3 (docs/anchors.md).

    >>> [(m, v) for s, e, _, v in _times_spans("He scored twice; thrice-weekly") for m in [s]]
    [(10, ('number', Decimal('2'))), (17, ('number', Decimal('3')))]
    """
    return [(m.start(), m.end(), "number",
             ("number", Decimal(_TIMES_WORDS[m.group(1).lower()])))
            for m in _TIMES_RE.finditer(text)]


_ORDINAL_UNITS = {
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
}
_ORDINAL_WORDS = {
    **_ORDINAL_UNITS, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90, "hundredth": 100,
}
#: Words after an ordinal that make a set phrase of it, no rank (*a third party*, *the Third
#: World*, *third-degree burns*, *the fourth quarter*: a period some call the last).
_ORDINAL_PHRASES = "party|parties|world|person|wheel|rail|estate|wall|column|reich|degree|quarter"
_ORDINAL_ALT = "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True))
_ORDINAL_RE = re.compile(
    f"(?i)(?<![\\w-])(?:(?P<tens>{'|'.join(_TENS)})-(?P<unit>first|second|"
    f"{'|'.join(_ORDINAL_UNITS)})|(?P<word>{_ORDINAL_ALT}))"
    f"(?![\\w]|-(?![A-Za-z])|[ -](?i:{_ORDINAL_PHRASES})(?![\\w]))")
#: A list's marker: an ordinal opening a sentence or line, before a comma (*Third, ...*).
_MARKER = re.compile(r"(?:^|[.!?:]\s+|\n)[\s*_-]*$")
#: The ordinal word just before each (*second* before *third*): a text that writes it counts
#: its own items (*the first ..., the second ..., the third*).
_ORDINAL_BEFORE = {3: "second", **{v + 1: w for w, v in _ORDINAL_UNITS.items()}}
_SMALL_ORDINAL_RE = re.compile(f"(?i)\\b(?:{'|'.join(_ORDINAL_BEFORE.values())})\\b")
#: Before an ordinal: *a third* is a fraction (*a third of the vote*) or the next of the
#: response's own items (*One reviewer ..., another ..., a third praised*), no rank.
_ORDINAL_NOT_AFTER = re.compile(f"(?i)\\b(?:an?|another|one|{'|'.join(_SMALL)}){_SP}+$")


def _ordinal_spans(text: str, *, every: bool = False) -> list[Span]:
    """Ordinals written as words, from *third* (*first* and *second* say too much else: *at
    first*, *a second opinion*), and any *twenty-first*: *finishing fourth* is 4th, *the
    third-most popular* 3rd. Not after *a*, *another* or a count (*a third of the vote*,
    *one fifth*, *another ..., a third praised*: a fraction or the response's own next item),
    in a set phrase (*the third party*), as a list's marker (*Third, ...*) or after the ordinal
    before it (*the first ..., the second ..., the third*: the text's own count).

    >>> [v for *_, v in _ordinal_spans("finishing fourth, his twenty-first goal")]
    [('ordinal', Decimal('4')), ('ordinal', Decimal('21'))]
    >>> [v for *_, v in _ordinal_spans("a third of the vote, the third party. Third, it "
    ...                                "rose. A third praised it, the third-most popular")]
    [('ordinal', Decimal('3'))]
    >>> _ordinal_spans("The first was found in May, the second in June, the third in July.")
    []

    With ``every``, all but those in a set phrase: what a context may support
    (:func:`ordinal_words`).
    """
    out: list[Span] = []
    written: set[str] | None = None  # the ordinals up to ninth the text writes, read once
    for m in _ORDINAL_RE.finditer(text):
        if not every and (
                _ORDINAL_NOT_AFTER.search(text, max(0, m.start() - 12), m.start())
                or (text.startswith(",", m.end())
                    and _MARKER.search(text, max(0, m.start() - 8), m.start()))):
            continue  # "a third of the vote", "another ..., a third praised", "Third, ..."
        if m.group("word"):
            value = _ORDINAL_WORDS[m.group("word").lower()]
            before = _ORDINAL_BEFORE.get(value)
            if not every and before:
                if written is None:
                    written = {w.lower() for w in _SMALL_ORDINAL_RE.findall(text)}
                if before in written:
                    continue  # "The first ..., the second ..., the third": the text's own count
        else:
            unit = m.group("unit").lower()
            value = _TENS[m.group("tens").lower()] + {"first": 1, "second": 2}.get(
                unit, _ORDINAL_UNITS.get(unit, 0))
        out.append((m.start(), m.end(), "number", ("ordinal", Decimal(value))))
    return out


def ordinal_words(text: str) -> list[Span]:
    """Every ordinal written as a word but in a set phrase, also those :func:`find_numbers`
    leaves out as a fraction or a text's own count (*a third straight win*, *the first ...,
    the second ..., the third*): a context's ordinal supports a response's *his third
    straight win* however the context wrote it.

    >>> [v for *_, v in ordinal_words("a third straight win. Another, a fourth, the third party")]
    [('ordinal', Decimal('3')), ('ordinal', Decimal('4'))]
    """
    return _ordinal_spans(text, every=True) if isinstance(text, str) else []


def find_numbers(text: str) -> list[Span]:
    """Find every number in a text, with its canonical value.

    Parameters
    ----------
    text : str
        Any text. Never raises on any string.

    Returns
    -------
    list of (start, end, kind, value)
        Sorted by start and non-overlapping. ``text[start:end]`` is the
        mention; ``kind`` is ``"number"``, or ``"date"`` for a bare year;
        ``value`` is the canonical tuple described in the module docstring.
        Dates written with digits (``2024-03-05``) are not recognised here
        and come out as numbers: use
        :func:`evaltools.scoring.anchors.mentions.find_mentions`, which lets
        dates win.

    Examples
    --------
    >>> for s, e, kind, value in find_numbers("Now $1,299.00, was 1,350 USD: 15% off a 2kg pack."):
    ...     print(s, e, kind, value)
    4 13 number ('money', 'USD', Decimal('1299'))
    19 28 number ('money', 'USD', Decimal('1350'))
    30 33 number ('percent', Decimal('15'))
    40 43 number ('quantity', 'kg', Decimal('2'))
    >>> [v for *_, v in find_numbers("twenty-four cans, a dozen eggs, one of the best, in 2019")]
    [('number', Decimal('24')), ('number', Decimal('12')), ('year', 2019)]
    """
    return [span[:4] for span in find_number_spans(text)]


def find_number_spans(text: str) -> list[tuple]:
    """As :func:`find_numbers`, each span with a fifth item: the other readings.

    ``(start, end, kind, value, others)``, where ``others`` holds the second
    reading of an ambiguous digit run (``1.234`` is 1.234 or 1234), else ``()``.

    Examples
    --------
    >>> [(v, o) for *_, v, o in find_number_spans("1.234 kg, Rp 45.000")]
    [(('quantity', 'kg', Decimal('1.234')), (('quantity', 'kg', Decimal('1234')),)), \
(('money', 'IDR', Decimal('45000')), ())]
    """
    if not isinstance(text, str) or not text:
        return []
    if "x" in text or "X" in text:
        # "10x8 ft" as "10×8 ft" (the same length): 10 by 8 ft
        text = _BY_X.sub(lambda m: re.sub("[xX]", "×", m.group()).replace("s", " "), text)
    spans = _digit_spans(text)
    if "/" in text or any(c in text for c in _VULGAR):
        spans.extend((*span, ()) for span in _fraction_spans(text))
    for m in _PHONE_RE.finditer(text):
        digits = "".join(c for c in m.group() if "0" <= c <= "9")
        out_digits = digits[1:] if len(digits) == 11 else digits
        spans.append((m.start(), m.end(), "number", ("phone", out_digits), ()))
    if any(c.isalpha() for c in text):
        spans.extend((*span, ()) for span in _word_spans(text))
        low = text.lower()  # once, for the cheap tests before two rarer readers
        if "half" in low:
            spans.extend((*span, ()) for span in _half_spans(text))
        spans.extend((*span, ()) for span in _ordinal_spans(text))
        if "twice" in low or "thrice" in low:
            spans.extend((*span, ()) for span in _times_spans(text))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    out: list[tuple] = []
    last_end = -1
    for span in spans:
        if span[0] >= last_end:
            out.append(span)
            last_end = span[1]
    return out
