"""How a context is read: the one text that every scorer sees.

Plain text is read as it is. A context that is JSON as a whole (an object or
an array, or a JSON string that itself holds one) is a *record*, and is read
as key/value sentences, so that the words, numbers and times in it can be
matched like prose::

    {"name": "Blue Door Cafe", "isOpen": true, "stars": 4.5,
     "hours": {"Mon": "9:0-17:30"}, "parking_lot": null}

reads as::

    name: Blue Door Cafe. is open: yes. stars: 4.5. hours Monday: 9:00–17:30.

The rules:

- each scalar becomes ``path: value.``, where the path is the keys leading to
  it (list positions left out); a list of scalars becomes ``path: a, b, c.``;
- keys are split into words: CamelCase (``BusinessAcceptsCreditCards`` ->
  ``business accepts credit cards``), snake_case and kebab-case;
- ``true``/``false`` (also the strings ``"True"``/``"False"``) read as
  ``yes``/``no``; ``null``, empty strings and empty containers are dropped;
- values written as Python literals (``"u'free'"``, ``"{'garage': False}"``)
  are unwrapped the same way (never evaluated);
- compact clock times gain their padding: ``9:0-17:30`` reads as
  ``9:00–17:30``;
- weekday abbreviations in keys and values are written out: ``Mon`` ->
  ``Monday``, ``Thurs`` -> ``Thursday``;
- a yes/no key is also said in the phrases overviews use for it, each a line of its
  own (:func:`key_phrases`: ``by appointment only: no.`` is followed by ``appointment
  required: no.`` and ``walk-ins welcome: yes.``), and consecutive weekdays with the
  same hours are also read as a run (``hours Monday–Thursday: 7:00–19:00.``);
- nesting deeper than :data:`MAX_DEPTH` levels is read as nothing, and a text
  that is not valid JSON (or nests too deep to parse) is read as plain text.

Offsets: everything downstream (anchors' ``evidence_start``/``evidence_end``,
grounding's closest context spans) indexes :attr:`ReadContext.text`. For plain
text that *is* the context, so offsets index the context as given; for a JSON
record they index the key/value text, which is what the evidence highlighter
shows (:func:`evaltools.highlight.highlight_evidence_html` reads the context
through :func:`read_context` too).
"""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass
from typing import Any

#: Containers nested deeper than this are not read.
MAX_DEPTH = 12

WEEKDAYS = {
    "mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday",
    "thu": "Thursday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday",
    "sat": "Saturday", "sun": "Sunday",
}
#: A value of at most this many words (or one holding a time) is read as a schedule.
SCHEDULE_WORDS = 4
_DAY_NAMES = frozenset(d.lower() for d in WEEKDAYS.values())
_WEEKDAY = re.compile(r"\b(" + "|".join(sorted(WEEKDAYS, key=len, reverse=True))
                      + r")\b\.?", re.IGNORECASE)
#: Capitalised words a schedule may hold beside weekdays ("Closed Sun", "Daily").
_SCHEDULE_TERMS = frozenset({"closed", "open", "daily", "to", "through", "thru", "and",
                             "by", "appointment", "only", "except", "noon", "midnight"})
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
_TIME = re.compile(r"(?<![\d:.])([01]?\d|2[0-4]):([0-5]?\d)(?![\d:])")
_TIME_RANGE = re.compile(r"(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)")
_SNAKE_VALUE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
_KEY_SEP = re.compile(r"[_\-.\s]+")
_PY_STRING = re.compile(r"""^u?(['"])(.*)\1$""", re.DOTALL)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
#: Short forms in keys, read as prose writes them ("avg_stars": the average stars).
KEY_WORDS = {"avg": "average", "qty": "quantity", "num": "number", "addr": "address",
             "desc": "description", "info": "information", "pct": "percent", "cnt": "count",
             "max": "maximum", "yr": "year", "yrs": "years"}  # not "min": minimum or minutes
#: One-word keys that prose names another way too: a count of "stars" is a rating, an address
#: where a place is located, hours when it is open.
KEY_ALSO = {"stars": "rating", "address": "location", "hours": "open"}
#: A price level 1-4 read as the words prose uses for it (the scale Google Places' price_level
#: and Yelp's RestaurantsPriceRange2 define: 1 inexpensive, $, ... 4 very expensive).
PRICE_LEVELS = {1: "inexpensive", 2: "moderate", 3: "expensive", 4: "very expensive"}
#: How overviews also put a price level ("on the pricier side", "budget-friendly").
PRICE_ALSO = {1: "cheap, budget-friendly, low-priced", 2: "mid-range, mid-priced",
              3: "pricey, pricier, high-end, higher end, upscale",
              4: "pricey, priciest, high-end, upscale, luxury, top tier, highest"}
_PRICE_KEY = re.compile(r"\bprice ?(?:range|level)\b")
#: The file holding how overviews put a record's yes/no keys (:func:`key_phrases`).
RECORD_KEYS = "record_keys.json"
#: Two CamelCase pieces of a key are also read joined when the joined word is this common
#: (wordfreq Zipf scale): "TakeOut" is "takeout" in prose, "WheelChair" "wheelchair".
COMPOUND_ZIPF = 2.5


@dataclass(frozen=True)
class ReadContext:
    """A context as the scorers read it.

    Attributes
    ----------
    text : str
        What is parsed and matched; offsets of evidence index this text.
    source : str
        The context as given.
    structured : bool
        True when ``source`` was read as a JSON record.
    week : tuple
        A JSON record's weekly opening hours, as :func:`week_hours` reads them.
    """

    text: str
    source: str
    structured: bool = False
    #: the record's weekly schedule (:func:`week_hours`): ``(day, opening minute, closing
    #: minute)`` in week order, read from the record's own values; () without one
    week: tuple[tuple[str, int, int], ...] = ()


#: HTML tags read as space (a closed list of names: "x<y and z>w" is no tag).
_TAG = re.compile(r"</?(?:br|p|div|span|b|i|u|em|strong|a|ul|ol|li|h[1-6]|table|tr|td|th|sup|"
                  r"sub|hr|img|font|blockquote|code|pre|small|big|s|strike|del|ins|mark|"
                  r"section|article|header|footer|nav|dl|dt|dd|caption|tbody|thead)"
                  r"(?:\s[^<>]{0,300})?\s*/?>", re.IGNORECASE)
#: Character references, with the letters that follow in the same word.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});(\w*)")


_ESCAPED_QUOTE = re.compile(r"""\\(['"])(\w*)""")


def unescape_quotes(text: str) -> str:
    """Escaped and typewriter-tokenised quotes read as quotes, **keeping every offset**:
    ``britain\\'s`` is ``britain's`` followed by a space; a text using the tokenised
    quotes ```` `` ```` and ``''`` gets ``"`` and a space for each pair (some model outputs
    and corpora are written so).

    Examples
    --------
    >>> unescape_quotes("britain\\'s navy")
    "britain's  navy"
    >>> unescape_quotes("found ``dumping clippings''in colwyn bay")
    'found " dumping clippings" in colwyn bay'
    >>> unescape_quotes("a \\n b"), unescape_quotes("it''s")
    ('a \\n b', "it''s")
    """
    out = _ESCAPED_QUOTE.sub(lambda m: m.group(1) + m.group(2) + " ", text)
    if "``" in out:
        out = out.replace("``", '" ').replace("''", '" ')
    return out


#: The number of a numbered list's item: "1." or "2)" opening a line, also inside the bold or
#: heading marks that open it ("**1. Habitat:**", "### 2. Light", "**3.** Depth").
_LIST_NUMBER = re.compile(r"(?m)^([ \t]*)(\d{1,2}[.)])(?=[ \t])")


#: A Markdown heading: a line of ``#`` marks and words, or a line wholly in bold (``**Overview**``).
_MD_HEADING = re.compile(r"(?m)^[ \t]*(?:#{1,6}[ \t][^\n]*|(\*\*|__)[^*_\n]+\1[ \t]*:?)[ \t]*$")
#: A bold label opening a line or a list item: ``- **Hours:** 9-5``, ``4. **Ketosis:** The``
#: (the label, colon included).
_MD_LABEL = re.compile(
    r"(?m)^([ \t]*(?:(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+)?)((\*\*|__)[^*_\n]{1,40}?(?::\3|\3:))")
#: The marks of a heading, and bold marks (``**Little Harbor** is ...``; not inside a word
#: or a number: ``2**10``, ``snake__case``).
_MD_MARKS = re.compile(r"(?m)^[ \t]*#{1,6}(?=[ \t])|(?<![\w*])(?:\*\*|__)(?=\S)"
                       r"|(?<=\S)(?:\*\*|__)(?![\w*])")


def _unmarkdown(text: str, titles: bool = False) -> str:
    """Markdown's marks read as spaces, keeping every offset: the ``#`` of a heading and
    bold marks; with ``titles``, also a whole heading line and a bold label opening a line
    (``**Concerns:**``): a response's titles state nothing, while a context's headings
    may hold its facts ("By Jane Doe, May 24, 2019").

    >>> text = "**Overview**\\n- **Hours:** 9-5\\n## Gina\\n**Gina** is kind."
    >>> _unmarkdown(text, titles=True)
    '            \\n-            9-5\\n       \\n  Gina   is kind.'
    >>> _unmarkdown("4. **Ketosis:** The liver", titles=True)
    '4.              The liver'
    >>> _unmarkdown(text)
    '  Overview  \\n-   Hours:   9-5\\n   Gina\\n  Gina   is kind.'
    >>> _unmarkdown("2**10 is 1024; snake__case")
    '2**10 is 1024; snake__case'
    """
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    if titles:
        text = _MD_HEADING.sub(blank, text)
        text = _MD_LABEL.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    return _MD_MARKS.sub(blank, text)


#: UTF-8 read as Latin-1 or Windows-1252 leaves these letters in words ("SÃ£o", "Â£1,000").
_MOJIBAKE_MARK = re.compile("[\u00c2\u00c3\u00c5]|\u00e2\u20ac")
_MOJIBAKE = re.compile(r"\S*(?:" + _MOJIBAKE_MARK.pattern + r")\S*")  # a word holding one


def _fix_word(m: re.Match) -> str:
    """A word's mojibake repaired (``ftfy.fix_encoding``, which leaves text it cannot
    read as mojibake alone), padded with spaces to its length."""
    import ftfy

    word = m.group(0)
    fixed = ftfy.fix_encoding(word)
    return fixed + " " * (len(word) - len(fixed)) if len(fixed) <= len(word) else word


def unmark(text: str, *, mojibake: bool = False, titles: bool = False) -> str:
    """HTML markup read as text, **keeping every offset**: a tag becomes spaces, a
    character reference its character (stdlib :func:`html.unescape`) with the
    rest of its word moved up and spaces after the word.

    Offsets into the result are offsets into the given text (evidence and
    highlights stay right); only the characters of a word holding a reference
    move, within the word.

    Examples
    --------
    >>> unmark("Tom&rsquo;s <b>caf&eacute;</b> &amp; bar<br>Open")
    'Tom’s          café            &     bar    Open'
    >>> len(unmark("a&amp;b")) == len("a&amp;b"), unmark("x<y and z>w"), unmark("AT&T")
    (True, 'x<y and z>w', 'AT&T')
    >>> unmark("the union\\'s vote")   # escaped quotes too (unescape_quotes)
    "the union's  vote"

    With ``mojibake``, UTF-8 text decoded as Latin-1 is repaired word by word (``ftfy``;
    done for contexts, which are scraped and stored, not for responses, whose spans must
    quote the response as written):

    >>> unmark("fined Â£1,000 in SÃ£o Paulo", mojibake=True)
    'fined £1,000  in São  Paulo'

    Markdown's marks are markup too, and with ``titles`` (done for responses) so are its
    headings and bold labels (:func:`_unmarkdown`):

    >>> unmark("## Hours\\n- **Sat:** 9-5", titles=True)
    '        \\n-          9-5'

    The number of a numbered list's item is markup too (a bullet, not a
    fact); a number that starts a line otherwise is kept:

    >>> unmark("Two steps:\\n1. Cut it.\\n 2) Cry.\\n1990. 12.5 kg")
    'Two steps:\\n   Cut it.\\n    Cry.\\n1990. 12.5 kg'
    >>> unmark("Why:\\n**1. Habitat:** it hides.\\n**2.** Light.\\n**3 of 5** sold").split("\\n")
    ['Why:', '     Habitat:   it hides.', '       Light.', '  3 of 5   sold']
    """
    if "\\" in text or "``" in text:
        text = unescape_quotes(text)
    if "**" in text or "__" in text or "#" in text:
        text = _unmarkdown(text, titles)  # first: "**1. Habitat:**" is a numbered item too
    if "\n" in text or text[:1].isdigit() or text[:1] in " \t":
        # a list item's number is markup as a bullet is: "1. Cut the onion" states no 1
        text = _LIST_NUMBER.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    if mojibake and _MOJIBAKE_MARK.search(text):
        text = _MOJIBAKE.sub(_fix_word, text)
    if "<" not in text and "&" not in text:
        return text

    def entity(m: re.Match) -> str:
        ref = m.group(0)[:len(m.group(0)) - len(m.group(1))]
        char = html.unescape(ref)
        if char == ref:
            return m.group(0)
        out = char + m.group(1)
        return out + " " * (len(m.group(0)) - len(out))

    text = _TAG.sub(lambda m: " " * len(m.group(0)), text)
    return _ENTITY.sub(entity, text)


def split_key(key: str) -> str:
    """A JSON key as words: CamelCase, snake_case and kebab-case split, weekdays written out.

    Examples
    --------
    >>> split_key("BusinessAcceptsCreditCards")
    'business accepts credit cards'
    >>> split_key("opening_hours"), split_key("WiFi"), split_key("HTMLParser")
    ('opening hours', 'wifi', 'html parser')

    A key whose CamelCase pieces are all one or two letters ("WiFi", "HiFi") is
    one word, as it is written in prose:

    >>> split_key("HiFiSystem"), split_key("free_WiFi")
    ('hi fi system', 'free wifi')

    Pieces that prose writes as one word are read joined too, and short forms
    written out (:data:`KEY_WORDS`):

    >>> split_key("RestaurantsTakeOut"), split_key("avg_stars")
    ('restaurants takeout take out', 'average stars')
    >>> split_key("Mon")
    'Monday'

    A version digit is its own word, and a one-word key that prose also names
    another way (:data:`KEY_ALSO`) is read both ways:

    >>> split_key("RestaurantsPriceRange2"), split_key("stars")
    ('restaurants price range 2', 'stars rating')

    Stars are a rating in any key that ends with them, unless a short form
    already says what they are (``avg_stars``):

    >>> split_key("business_stars"), split_key("review_stars")
    ('business stars rating', 'review stars rating')
    """
    words = []
    for segment in _KEY_SEP.split(str(key)):
        pieces = _CAMEL.sub(" ", segment).split()
        if pieces and all(len(p) <= 2 for p in pieces):
            pieces = [segment]
        for i, part in enumerate(pieces):
            nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
            if part.isalpha() and nxt.isalpha() and _common(f"{part}{nxt}".lower()):
                words.append(f"{part}{nxt}".lower())
            words.append(_key_word(part))
    if len(words) == 1:  # a one-word key: "stars", not "review_stars" or "opening_hours"
        words.append(KEY_ALSO.get(words[0], ""))
    elif words[-1:] == ["stars"] and words[-2] not in KEY_WORDS.values():
        words.append(KEY_ALSO["stars"])  # "business_stars" is a rating; "avg_stars" an average
    return " ".join(w for w in words if w)


@functools.lru_cache(maxsize=4096)
def _common(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") >= COMPOUND_ZIPF


def _key_word(part: str) -> str:
    """One word of a key, lower-cased, a weekday written out."""
    low = part.lower()
    return (WEEKDAYS.get(low) or (low.capitalize() if low in _DAY_NAMES else None)
            or KEY_WORDS.get(low, low))


def read_value(value: str) -> str:
    """A JSON string value as text: booleans, Python quoting, times and weekdays read.

    Examples
    --------
    >>> read_value("9:0-17:30"), read_value("True"), read_value("u'free'")
    ('9:00–17:30', 'yes', 'free')
    >>> read_value("Mon-Fri 8:0-18:0")
    'Monday-Friday 8:00–18:00'

    Weekday short forms are read only in a schedule: a value of at most
    :data:`SCHEDULE_WORDS` words with no capitalised word but weekdays and schedule words
    (a name such as *Desert Sun Car Rental* is none), or, written with a capital, in one
    that holds a time. In prose they are words (*we sat outside*, *the sun*):

    >>> read_value("Sat"), read_value("We sat outside in the sun at 9:30 with our dog.")
    ('Saturday', 'We sat outside in the sun at 9:30 with our dog.')
    >>> read_value("Closed Sun"), read_value("Desert Sun Car Rental")  # a name
    ('Closed Sunday', 'Desert Sun Car Rental')
    >>> read_value("Open Mon to Sat from 9:0 to 17:0 daily")
    'Open Monday to Saturday from 9:00 to 17:00 daily'

    ``none`` in lower case is a word ("Alcohol": "u'none'" or "none": no alcohol
    is served); ``None`` and ``null`` unquoted are Python's and JSON's nothing:

    >>> read_value("u'none'"), read_value("none"), read_value("None")
    ('none', 'none', '')

    A snake_case value is words ("Alcohol": "u'beer_and_wine'"):

    >>> read_value("u'beer_and_wine'"), read_value("full_bar")
    ('beer and wine', 'full bar')
    """
    s = value.strip()
    m = _PY_STRING.match(s)
    if m:
        s = m.group(2).strip()
    low = s.lower()
    if low in ("true", "false"):
        return "yes" if low == "true" else "no"
    if s in ("None", "null", "NULL") and not m:
        return ""
    if _SNAKE_VALUE.match(s):
        return s.replace("_", " ")
    short = len(s.split()) <= SCHEDULE_WORDS and not any(  # not a name: "Desert Sun Cars"
        w.lower() not in WEEKDAYS and w.lower() not in _DAY_NAMES
        and w.lower() not in _SCHEDULE_TERMS for w in _CAPITALISED.findall(s))
    timed = _TIME.search(s) is not None
    s = _TIME.sub(lambda t: f"{int(t.group(1))}:{int(t.group(2)):02d}", s)
    s = _TIME_RANGE.sub(r"\1–\2", s)
    return _WEEKDAY.sub(lambda d: WEEKDAYS[d.group(1).lower()] if short or (
        timed and d.group(1)[0].isupper()) else d.group(0), s)


def _scalar(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return json.dumps(value)  # 4.5, 12, 1e-05: as written in JSON
    return read_value(str(value))


def _python_literal(value: str) -> Any:
    """A string holding a Python dict/list literal as JSON data, or None (never evaluated)."""
    s = value.strip()
    if len(s) < 2 or s[0] + s[-1] not in ("{}", "[]") or "'" not in s:
        return None
    converted = re.sub(r"\b(True|False|None)\b", lambda m: _PY_LITERALS[m.group(1)], s)
    converted = re.sub(r"u?'((?:[^'\\]|\\.)*)'", lambda m: json.dumps(m.group(1)), converted)
    try:
        return json.loads(converted)
    except (ValueError, RecursionError):
        return None


def _price_level(text: str) -> str:
    """A price level's value with its word: ``"2"`` -> ``"2 (moderate)"``; other values as given.

    >>> _price_level("2"), _price_level("12.50")
    ('2 (moderate; mid-range, mid-priced)', '12.50')
    >>> _price_level("$$$")
    '$$$ (expensive; pricey, pricier, high-end, higher end, upscale)'
    """
    level = len(text) if text and set(text) == {"$"} else int(text) if text.isdigit() else 0
    word = PRICE_LEVELS.get(level)
    return f"{text} ({word}; {PRICE_ALSO[level]})" if word else text


@functools.lru_cache(maxsize=1)
def key_phrases() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """A yes/no key (as :func:`split_key` reads it) -> the phrases prose uses for it: those
    meaning the same and those meaning its opposite, shipped in
    ``evaltools/scoring/data/record_keys.json`` (written for this project; the keys are
    the attribute names of business records such as the Yelp Open Dataset's).

    >>> same, opposite = key_phrases()["by appointment only"]
    >>> "appointment required" in same, "walk-in" in opposite
    (True, True)
    """
    from importlib.resources import files

    data = json.loads(files("evaltools.scoring").joinpath("data", RECORD_KEYS)
                      .read_text(encoding="utf-8"))
    return {key: (tuple(v["same"]), tuple(v["opposite"])) for key, v in data["keys"].items()}


def _also_said(path: tuple[str, ...], value: str) -> list[str]:
    """The lines that say a yes/no key's value the ways prose puts it (:func:`key_phrases`),
    each a ``key: value`` line of its own, so that it is read as the record's value is.

    >>> _also_said(("attributes", "by appointment only"), "no")[:2]
    ['attributes appointment required: no.', 'attributes appointment needed: no.']
    >>> _also_said(("attributes", "by appointment only"), "yes")[-2:]
    ['attributes walk-in: no.', 'attributes walk-in basis: no.']
    >>> _also_said(("attributes", "business parking", "lot"), "yes")[1]
    'attributes business parking on-site lot: yes.'
    >>> _also_said(("attributes", "noise level"), "no"), _also_said(("caters",), "2")
    ([], [])
    """
    keys = key_phrases()  # a nested key with its parent: "business parking" "lot"
    phrases = (keys.get(path[-1]) or keys.get(" ".join(path[-2:]))
               if path and value in ("yes", "no") else None)
    if not phrases:
        return []
    other = "no" if value == "yes" else "yes"
    prefix = " ".join(p for p in path[:-1] if p)
    same, opposite = phrases
    return [f"{prefix} {p}: {v}.".lstrip() for ps, v in ((same, value), (opposite, other))
            for p in ps]


def _flatten(value: Any, path: tuple[str, ...], depth: int, out: list[str],
             weeks: list[dict]) -> None:
    """Append ``value``'s sentences to ``out``, and each mapping that is a weekly schedule
    (:func:`_week`) to ``weeks``."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        nested = _python_literal(value)
        if nested is not None:
            value = nested
    label = " ".join(p for p in path if p)
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, (*path, split_key(key)), depth + 1, out, weeks)
        week = _week(value)
        if week:
            weeks.append(value)
            out.append(f"{label}: {week}." if label else f"{week}.")
            out.extend(f"{label} {days}: {hours}.".lstrip() for days, hours in _runs(value))
        return
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            items = [s for s in map(_scalar, value) if s]
            if items:
                out.append(f"{label}: {', '.join(items)}." if label else ", ".join(items) + ".")
            return
        for item in value:
            _flatten(item, path, depth + 1, out, weeks)
        return
    text = _scalar(value)
    if text and _PRICE_KEY.search(label):
        text = _price_level(text)
    if text:
        also = _also_said(path, text)
        if label:
            text = f"{label}: {text}"
        out.append(text if text.endswith((".", "!", "?")) else text + ".")
        out.extend(also)


WEEK = tuple(dict.fromkeys(WEEKDAYS.values()))  # Monday ... Sunday, in order


def _week(value: dict) -> str:
    """What a schedule keyed by weekday says of the whole week, as a record's overview
    puts it: "open 6 days a week, closed Monday" (a day the schedule leaves out is
    closed); "" for a mapping that is not such a schedule (under three weekdays, or
    another key).

    >>> _week({"Mon": "9:0-17:0", "Tuesday": "9:0-17:0", "Sat": "10:0-14:0"})
    'open 3 days a week, closed Wednesday, Thursday, Friday and Sunday'
    >>> _week(dict.fromkeys(WEEK, "8:0-20:0"))
    'open 7 days a week, daily, every day'
    >>> _week(dict.fromkeys(WEEK[:5], "8:0-17:0")).split(", ")
    ['open 5 days a week', 'closed Saturday and Sunday', 'closed on weekends', \
'open weekdays', 'Monday through Friday']
    >>> _week(dict.fromkeys(WEEK, "0:0-0:0"))   # Yelp's way of writing "open 24 hours"
    'open 7 days a week, daily, every day, 24 hours a day, around the clock'
    >>> _week({"Monday": "9:0-17:0", "notes": "x"}), _week({})
    ('', '')
    """
    days = {split_key(str(k)) for k in value}
    if len(days) < 3 or not days <= set(WEEK):
        return ""
    closed = [d for d in WEEK if d not in days]
    around = [str(v).replace(" ", "") in ("0:0-0:0", "0:00-0:00") for v in value.values()]
    whole = ", 24 hours a day, around the clock" if all(around) else ""
    if not closed:
        return "open 7 days a week, daily, every day" + whole
    shut = closed[0] if len(closed) == 1 else ", ".join(closed[:-1]) + " and " + closed[-1]
    week = f"open {len(days)} days a week, closed {shut}"
    if "Saturday" in closed and "Sunday" in closed:
        week += ", closed on weekends"
    if all(d in days for d in WEEK[:5]):
        week += ", open weekdays, Monday through Friday"
    return week + whole


_CLOCK_RANGE = re.compile(r"\s*(\d{1,2}):(\d{1,2})\s*[-–]\s*(\d{1,2}):(\d{1,2})\s*")


def week_hours(value: dict) -> tuple[tuple[str, int, int], ...]:
    """A schedule keyed by weekday (:func:`_week` tells one) as ``(day, opening minute,
    closing minute)`` in week order; () when a day's value is not a clock range.

    >>> week_hours({"Mon": "7:0-17:0", "Tue": "7:0-17:0", "Sat": "8:0-14:0"})
    (('Monday', 420, 1020), ('Tuesday', 420, 1020), ('Saturday', 480, 840))
    >>> week_hours({"Mon": "7:0-17:0", "Tue": "closed", "Sat": "8:0-14:0"})
    ()
    """
    by_day = {split_key(str(k)): v for k, v in value.items()}
    out = []
    for day in WEEK:
        if day in by_day:
            m = _CLOCK_RANGE.fullmatch(str(by_day[day]))
            if m is None:
                return ()
            h1, m1, h2, m2 = map(int, m.groups())
            out.append((day, h1 * 60 + m1, h2 * 60 + m2))
    return tuple(out)


def _runs(value: dict) -> list[tuple[str, str]]:
    """Consecutive weekdays with the same hours, as an overview groups them: ``("Monday–
    Thursday", "7:00–19:00")``; only runs of two days or more (a day alone has its line).

    >>> _runs({"Mon": "7:0-19:0", "Tue": "7:0-19:0", "Wed": "7:0-19:0", "Fri": "7:0-15:0",
    ...        "Sat": "7:0-15:0", "Sun": "9:0-12:0"})
    [('Monday–Wednesday', '7:00–19:00'), ('Friday–Saturday', '7:00–15:00')]
    """
    hours = {split_key(str(k)): _scalar(v) for k, v in value.items()}
    runs: list[list[str]] = []
    for prev, day in zip((None, *WEEK), WEEK, strict=False):
        if day not in hours or not hours[day]:
            continue
        if runs and runs[-1][-1] == prev and hours[prev] == hours[day]:
            runs[-1].append(day)
        else:
            runs.append([day])
    return [(f"{run[0]}–{run[-1]}", hours[run[0]]) for run in runs if len(run) > 1]


def flatten_json(data: Any) -> str:
    """Parsed JSON data as key/value sentences, one per scalar (or list of scalars).

    Examples
    --------
    >>> flatten_json({"rating": 4.5, "OpeningHours": {"Tue": "9:0-17:30"}, "wifi": False,
    ...               "notes": None, "tags": ["quiet", "cosy"]})
    'rating: 4.5. opening hours Tuesday: 9:00–17:30. wifi: no. tags: quiet, cosy.'
    """
    return _flatten_record(data)[0]


def _flatten_record(data: Any) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """:func:`flatten_json`'s text and the record's weekly opening hours (:func:`week_hours`
    of its first weekly schedule; () without one), from one walk of the record."""
    out: list[str] = []
    weeks: list[dict] = []
    _flatten(data, (), 0, out, weeks)
    return " ".join(out), (week_hours(weeks[0]) if weeks else ())


def _parse_json(text: str) -> Any:
    s = text.strip()
    if len(s) < 2 or s[0] not in "{[\"":
        return None
    try:
        data = json.loads(s)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, str):  # a JSON string holding the record: read it once more
        inner = data.strip()
        if inner[:1] not in ("{", "["):
            return None
        try:
            data = json.loads(inner)
        except (ValueError, RecursionError):
            return None
    return data if isinstance(data, (dict, list)) else None


_REVIEW = re.compile(r"\breview", re.IGNORECASE)


def has_reviews(text: str) -> bool:
    """Whether a read context holds reviews: a field or a word *review...*.

    >>> has_reviews("name: Lotus. review info review text: Great nails."), has_reviews("x: 1")
    (True, False)
    """
    return _REVIEW.search(text) is not None


@functools.lru_cache(maxsize=4096)
def read_context(text: str, *, read_json: bool = True) -> ReadContext:
    """The context as the scorers read it: JSON records flattened, plain text as it is.

    Parameters
    ----------
    text : str
        The context as given.
    read_json : bool
        False reads every context as plain text (config ``context.read_json``).

    Examples
    --------
    >>> read_context("Open daily.").text
    'Open daily.'
    >>> r = read_context('{"name": "Cafe Nero", "BikeParking": true, "hours": {"Sat": "9:0-13:0"}}')
    >>> r.structured, r.text
    (True, 'name: Cafe Nero. bike parking: yes. hours open Saturday: 9:00–13:00.')

    A weekly schedule of three days or more is also kept as data (:func:`week_hours`):

    >>> read_context('{"hours": {"Mon": "9:0-17:0", "Tue": "9:0-17:0", "Sat": "9:0-13:0"}}').week
    (('Monday', 540, 1020), ('Tuesday', 540, 1020), ('Saturday', 540, 780))

    A yes/no key is also said the ways overviews put it (:func:`key_phrases`):

    >>> read_context('{"DogsAllowed": "False"}').text
    'dogs allowed: no. dog-friendly: no. pet-friendly: no. pets allowed: no. dogs welcome: no.'
    >>> read_context('"{\\\\"a\\\\": 1}"').text
    'a: 1.'
    >>> read_context("Chinabank | numberOfLocations | 295").text   # triples (read_triples)
    'Chinabank | number of locations | 295'
    """
    if not read_json:
        return ReadContext(text, text)
    data = _parse_json(text)
    if data is None:
        triples = read_triples(text)
        if triples is not None:
            return ReadContext(triples, text, structured=True)
        return ReadContext(text, text)
    flat, week = _flatten_record(data)
    return ReadContext(flat, text, structured=True, week=week)


_TRIPLE = re.compile(r"^\s*([^|\n]+?)\s*\|\s*([^|\n]+?)\s*\|\s*([^|\n]*?)\s*$")


def parsed_text(text: str, role: str, read: ReadContext | None = None) -> str:
    """``text`` of ``role`` ("query", "context" or "response") as scoring parses it: a
    context as :func:`read_context` reads it (``read``, when read already), then markup read
    as text with every offset kept (:func:`unmark`; in a context, mojibake too; in a
    response, its titles).

    >>> parsed_text('{"name": "Cafe &amp; Co"}', "context")
    'name: Cafe &     Co.'
    >>> parsed_text("# Overview", "response"), parsed_text("# Overview", "query")
    ('          ', '  Overview')
    """
    if role == "context" and read is None:
        read = read_context(text)
    return unmark(read.text if read is not None else text, mojibake=role == "context",
                  titles=role == "response")


def read_triples(text: str) -> str | None:
    """Subject | predicate | object lines (RDF-style triples, one a line) with their
    predicates read as words, as JSON keys are (:func:`split_key`), and underscores in
    names as spaces; None when the text is not triples.

    Examples
    --------
    >>> print(read_triples("Chinabank | numberOfLocations | 295\\n"
    ...                    "Alan_Shepard | birthPlace | New_Hampshire"))
    Chinabank | number of locations | 295
    Alan Shepard | birthplace birth place | New Hampshire
    >>> read_triples("Open daily | 9 to 5.") is None, read_triples("") is None
    (True, True)
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    out = []
    for line in lines:
        m = _TRIPLE.match(line)
        if m is None:
            return None
        subject, predicate, obj = (g.replace("_", " ") for g in m.groups())
        out.append(f"{subject} | {split_key(predicate)} | {obj}")
    return "\n".join(out)
