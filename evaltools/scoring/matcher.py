"""One word matcher: when a response word is "the same" as a context word, and what it weighs.

Every scorer that compares response words with context words (grounding,
claims, numbers' neighbours) uses the definitions here:

- :func:`fold` — lower case, accents folded (``café`` -> ``cafe``), hyphens
  and apostrophes removed (``e-mail`` -> ``email``);
- :func:`token_key` — the key of one spaCy token: its folded lemma, with unit
  and weekday equivalents (``%`` -> ``percent``, ``°``/``degrees`` ->
  ``degree``, ``Tues`` -> ``tuesday``);
- :func:`is_content` — whether a token carries content: a word (or a unit
  symbol) that is not a stop word, of a content part of speech
  (:data:`CONTENT_POS`);
- :func:`rarity` — a weight in [0, 1] from the word's frequency in English
  (``wordfreq``'s Zipf scale, data shipped in its wheel): generic words
  (*offer*, *company*) weigh little, rare words, names and numbers much;
- :func:`words_of` — a parsed text as :class:`Word` units, hyphenated
  compounds joined (``e - mail`` is one word ``email``, with parts
  ``e``, ``mail``);
- :class:`SentenceIndex` — which sentences of a parsed text hold each key, so
  a span can be required to be found *together* in one sentence.

Everything returned is plain Python data (no spaCy objects), so it can be cached.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from evaltools.scoring import word_vectors
from evaltools.text import doc_text, has_alnum

#: Parts of speech that carry content (the rest are function words and symbols).
CONTENT_POS = frozenset({"NOUN", "PROPN", "NUM", "ADJ", "VERB", "ADV", "X"})
#: Non-alphanumeric tokens and abbreviations with a word equivalent.
UNIT_KEYS = {
    "%": "percent", "pct": "percent", "percent": "percent", "percentage": "percent",
    "°": "degree", "º": "degree", "°f": "degree", "°c": "degree", "deg": "degree",
    "degree": "degree", "degrees": "degree",
    "&": "and", "+": "plus", "w/": "with", "w/o": "without",
}
#: Abbreviated weekdays, matched when capitalised (``Sat``/``Sun`` are left alone: *sat*, *sun*).
WEEKDAY_KEYS = {"Mon": "monday", "Tue": "tuesday", "Tues": "tuesday", "Wed": "wednesday",
                "Thu": "thursday", "Thur": "thursday", "Thurs": "thursday", "Fri": "friday"}
#: Weekdays in the plural ("open on Mondays") are the weekday.
_WEEKDAY_PLURALS = {f"{d}s": d for d in ("monday", "tuesday", "wednesday", "thursday",
                                         "friday", "saturday", "sunday")}
_HYPHENS = "-\u2010\u2011\u2012\u2013\u2014\u2212'\u2019"
#: The marks that join the parts of a compound written without spaces (*e-mail*,
#: *anise–scented*): hyphens, the en dash, the minus sign; not the em dash, which sets a
#: phrase off (*the food—just chips*), nor an apostrophe.
JOINERS = "-\u2010\u2011\u2012\u2013\u2212"
_APOSTROPHES = frozenset("'\u2019`")
#: Endings of contractions, as tokens of their own when a text was written with spaces
#: around its apostrophes (tokenised corpora: ``it ' s``, ``i ' m``, ``we ' ve``).
CLITICS = frozenset({"s", "m", "t", "re", "ve", "ll", "d"})
#: Letters with periods, one of them a capital: ``U.S.``, ``R.``, ``Ph.D.`` (read without
#: them); ``a.m.`` and ``e.g.`` stay as they are.
_ABBREVIATION = re.compile(r"^(?=.*[A-Z])(?:[A-Za-z]{1,2}\.)+[A-Za-z]?$")
_DROP = str.maketrans("", "", _HYPHENS)
#: The site a web address names: ``www.webmd.com`` is found as *WebMD*.
_SITE = re.compile(r"(?:https?://)?(?:www\d?\.)?([a-z0-9-]+)\.[a-z]{2,}")
#: A capitalised word right after a word (*Georges Herpin*): one name.
_NAME_AFTER = re.compile(r"[ \t]+[A-Z]")
_INNER_DASH = re.compile(r"(?<=\w)[-\u2010-\u2014\u2212](?=\w)")
#: Zipf frequency at or above which a word carries no information (``the`` is 7.7).
ZIPF_CEILING = 8.0


@functools.lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case, accents folded, hyphens and apostrophes removed (kept for the last
    65,536 texts asked: the words of a run repeat).

    Examples
    --------
    >>> fold("Café"), fold("e-mail"), fold("NAÏVE"), fold("Straße")
    ('cafe', 'email', 'naive', 'strasse')
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.casefold().translate(_DROP)


def _is_wordlike(tok) -> bool:
    return not tok.is_space and has_alnum(tok.text)


_NOT_PLURAL = ("ss", "us", "news", "series", "species", "ics", "means")
#: A capitalised plural is read as its singular only when the singular is at least this common
#: (wordfreq Zipf; 2 admits a record's trades, *locksmith* 2.8, *groomer* 2.4, *taqueria* 2.0)
#: and more common than the plural.
SINGULAR_MIN_ZIPF = 2.0


def _singular(low: str) -> str:
    """A capitalised plural's singular where English uses the singular more ("cafes" ->
    "cafe", "bakeries" -> "bakery", a record's "Locksmiths", "Pet Groomers"); names stay
    ("james", "texas", "wales", "news").

    >>> [_singular(w) for w in ("cafes", "bakeries", "lounges", "locksmiths", "groomers",
    ...                         "delis", "james", "texas", "wales", "news", "paris", "davis")]
    ['cafe', 'bakery', 'lounge', 'locksmith', 'groomer', 'deli', 'james', 'texas', 'wales', \
'news', 'paris', 'davis']
    """
    if not low.endswith("s") or low.endswith(_NOT_PLURAL) or len(low) <= 3:
        return low  # "is", "his", "gas"
    one = (low[:-3] + "y" if low.endswith("ies")
           else low[:-2] if low.endswith(("ches", "shes", "xes", "sses")) else low[:-1])
    return one if zipf(one) >= SINGULAR_MIN_ZIPF and zipf(one) > zipf(low) else low


def _in_name(tok) -> bool:
    """Whether a name stands beside ``tok`` ("Georges Herpin", "Cocktail Bars")."""
    doc = tok.doc
    return any(0 <= j < len(doc) and doc[j].pos_ == "PROPN" for j in (tok.i - 1, tok.i + 1))


def _closes_name(tok) -> bool:
    """Whether ``tok`` is the capitalised last word of a run of names (*Nail Salons*,
    *Cocktail Bars*; not *Georges* of *Georges Herpin*) or a capitalised word standing
    alone between punctuation (*Delis* in *"Delis, Sandwiches"*): a plural there may be a
    category's, so the matcher also finds it as its singular.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Nail Salons, by Georges Herpin.")
    >>> [t.text for t in doc if _closes_name(t)]
    ['Salons', 'Herpin']
    >>> doc = load_pipeline()('{"categories": "Delis, Sandwiches, Jewish"}')
    >>> [t.text for t in doc if _closes_name(t)]
    ['Delis']
    """
    doc = tok.doc
    if not (tok.pos_ == "PROPN" and tok.text[:1].isupper()):
        return False
    last = tok.i + 1 == len(doc) or doc[tok.i + 1].pos_ != "PROPN"
    if tok.i > 0 and doc[tok.i - 1].pos_ == "PROPN":
        return last
    return ((tok.i == 0 or doc[tok.i - 1].is_punct)
            and (tok.i + 1 == len(doc) or doc[tok.i + 1].is_punct))


#: Street suffixes that are also titles or codes (*Dr* for *Doctor*, *Ct* for Connecticut),
#: read as the street's only right after its name and before no other name (*Airline Dr*,
#: not *Dr Ruiz*).
STREET_AFTER_NAME = {"dr": "drive", "ct": "court"}


def _ends_street_name(tok) -> bool:
    """Whether ``tok`` (a capitalised *Dr* or *Ct*) ends a street's name: a capitalised word
    right before it, and no capitalised word after it."""
    doc = tok.doc
    before = doc[tok.i - 1] if tok.i else None
    after = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    return (tok.text[:1].isupper() and before is not None and before.text[:1].isupper()
            and before.is_alpha and before.whitespace_ != ""
            and (after is None or not after.text[:1].isupper()))


def token_key(tok) -> str:
    """The matching key of a spaCy token: folded lemma, with unit and weekday equivalents.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The café e-mailed 15% on Tues.")
    >>> [token_key(t) for t in doc]
    ['the', 'cafe', 'e', '', 'mail', '15', 'percent', 'on', 'tuesday', '']
    >>> [token_key(t) for t in load_pipeline()("5 km on 3 Sept, 2 kilometres")]
    ['5', 'kilometer', 'on', '3', 'september', '', '2', 'kilometer']
    >>> [token_key(t) for t in load_pipeline()("Open on Mondays")]
    ['open', 'on', 'monday']
    >>> [token_key(t) for t in load_pipeline()("taxes, crises, inboxes")]
    ['tax', '', 'crisis', '', 'inbox']
    >>> [token_key(t) for t in load_pipeline()("1250 S Broadway, Ste 104")]
    ['1250', 'south', 'broadway', '', 'suite', '104']
    >>> [token_key(t) for t in load_pipeline()("5530 Airline Dr, Maple Ct, Dr Ruiz, Ct.")]
    ['5530', 'airline', 'drive', '', 'maple', 'court', '', 'dr', 'ruiz', '', 'ct', '']
    >>> [token_key(t) for t in load_pipeline()("Multifuel Energy Ltd. and Apple Inc. said")]
    ['multifuel', 'energy', 'ltd', 'and', 'apple', 'inc', 'say']
    >>> [token_key(t) for t in load_pipeline()("The sims and Ms Sims, our bday")]
    ['the', 'simulator', 'and', 'ms', 'sims', '', 'our', 'birthday']
    """
    text = tok.text
    low = text.lower()
    if (low in ("f", "c") or low.rstrip(".") in STREET_AFTER_NAME
            or (tok.pos_ == "PROPN" and text[:1].isupper())):
        return _key(tok, text, tok.lemma_, tok.pos_, tok.is_space)  # its neighbours count
    return _word_key(text, tok.lemma_, tok.pos_, tok.is_space)


@functools.lru_cache(maxsize=65536)
def _word_key(text: str, lemma: str, pos: str, is_space: bool) -> str:
    """:func:`token_key` of a token whose key does not depend on its neighbours (no *F* or
    *C* after a degree sign, no street's *Dr* or *Ct*, no capitalised name), kept for the
    last 65,536 tokens asked: a run's words repeat."""
    return _key(None, text, lemma, pos, is_space)


def _key(tok, text: str, lemma: str, pos: str, is_space: bool) -> str:
    """:func:`token_key` from the token's text, lemma, part of speech and whether it is
    space; ``tok`` (for its neighbours) is read only where :func:`token_key` says."""
    if text in WEEKDAY_KEYS:
        return WEEKDAY_KEYS[text]
    if text.lower() in _WEEKDAY_PLURALS:
        return _WEEKDAY_PLURALS[text.lower()]
    tables = abbreviations()
    if text.rstrip(".") in tables["months"]:  # Jan, Sept. (capitalised only: "mar", "jun")
        return tables["months"][text.rstrip(".")]
    low = text.lower()
    if low in UNIT_KEYS:
        return UNIT_KEYS[low]
    if low in ("f", "c") and tok.i > 0 and tok.doc[tok.i - 1].text.endswith(("°", "º")):
        return ""  # the scale after a degree sign: 72 °F = 72 degrees
    if is_space or not has_alnum(text):
        return ""
    if low.rstrip(".") in STREET_AFTER_NAME and _ends_street_name(tok):
        return STREET_AFTER_NAME[low.rstrip(".")]  # "5530 Airline Dr": drive, not doctor
    if _ABBREVIATION.match(text):  # U.S. = US, R. = R; St. = street
        key = fold(text.replace(".", ""))
        return tables["address"].get(key, key)
    key = fold(lemma or text)
    if key.endswith(".") and key[:-1].isalpha():
        key = key[:-1]  # the parser keeps an abbreviation's period: "Ltd." is "Ltd", "vs." "vs"
    if key.endswith("is") and low == key[:-2] + "es" and zipf(low[:-2]) > zipf(key):
        key = low[:-2]  # "taxes": tax, not taxis (the lemmatizer's table); "crises": crisis
    if key.endswith("xe") and low == key + "s" and zipf(key[:-1]) > zipf(key):
        key = key[:-1]  # "inboxes": inbox (the lemmatizer's "inboxe"); "axes" stays axe
    if pos == "PROPN" and key == low and text[:1].isupper() and not _in_name(tok):
        key = _singular(low)  # a category list's "Cafes, Bakeries" (tagged as names)
    if text.isupper() and len(text) > 1:
        return key  # SEC, MI, FT: names, not units
    if text[:1].isupper() and low in tables["address"]:
        return tables["address"][low]  # "Ste 104" is "Suite 104" (a record's address)
    if text == low and (low in tables["informal"] or key in tables["informal"]):
        return tables["informal"].get(low, tables["informal"].get(key))  # sims = simulators
    return tables["units"].get(key, tables["units"].get(low, key))  # km = kilometre = kilometer


#: Words an acronym may spell or skip inside a name (``Bank of America``: BoA or BA).
ACRONYM_INNER = frozenset({"of", "and", "the", "for"})
#: Longest name, in words, an acronym is read as.
ACRONYM_MAX = 6

#: What may stand between two words of a name that its initials abbreviate (*Police and
#: Crime Commissioner* for *PCC*, *Bank of England* for *BoE*): the words the matcher's
#: acronyms skip (:data:`ACRONYM_INNER`), and *&*.
NAME_GAP = re.compile(rf"(?:['\u2019]s)?\s+(?:(?:{'|'.join(sorted(ACRONYM_INNER))}|&)\s+){{0,2}}")


def name_runs(names: Sequence, text: str = "") -> list[list]:
    """Runs of two or more capitalised words (``names``, in text order) one space apart
    (*Cashier Teddy*); given their ``text``, also across *and*, *of*, *for*, *the* and *&*,
    and a possessive's *'s* (*New Year's Eve*; :data:`NAME_GAP`).

    >>> NAME_GAP.fullmatch(" and "), NAME_GAP.fullmatch(" or ")  # doctest: +ELLIPSIS
    (<re.Match object...>, None)
    """
    runs: list[list] = []
    for w in names:
        if runs and (w.start - runs[-1][-1].end == 1 or (
                text and NAME_GAP.fullmatch(text, runs[-1][-1].end, w.start))):
            runs[-1].append(w)
        else:
            runs.append([w])
    return [r for r in runs if len(r) > 1]
#: Second parts of a compound that only say "of that kind" (*hipster-style*, *Italian-inspired*)
#: or "suits it" (*kid-friendly* where a record says ``GoodForKids``, *dog-friendly* for
#: ``DogsAllowed``) or "lasts that long" (*an hour-long delay* where a review says "pushed back
#: an hour"): the compound is found where its other parts are.
LIGHT_PARTS = frozenset({"style", "like", "type", "base", "based", "theme", "themed", "inspire",
                         "inspired", "esque", "friendly", "long"})
#: A compound's part found also as its plural the lemmatizer keeps (*a 40-person party* where
#: *40 people* stands).
PART_PLURALS = {"person": "people"}
#: Parts of an age written as one word (*the 23-year-old striker*): it is found where its
#: number is, as news writes an age after a name (*Morata, 23,*).
AGE_PARTS = ("year", "old")
#: Words for the people a compound counts (*a 60-guest dinner*, *$24-per-person*): found
#: where its number is, as a review writes the party's size or the price alone (*catered our
#: dinner for 60*, *$24 a head*).
COUNTED_PEOPLE = frozenset({"person", "guest", "people"})


def initials(items: Iterable) -> str:
    """The first letters of ``items`` (words or tokens: anything with ``text``), in lower
    case: what an acronym of them writes (*Environment Agency*: ``"ea"``).

    >>> from evaltools.text import load_pipeline
    >>> initials(words_of(load_pipeline()("air conditioning")))
    'ac'
    """
    return "".join(x.text[0] for x in items).lower()


def is_acronym(text: str) -> bool:
    """2-5 capital letters, periods allowed: ``US``, ``U.S.``, ``NFL`` (not ``I``, ``Ok``);
    or 3-5 letters that begin and end with a capital, the small ones an inner word's
    (``MoD``, ``DfE``: the Ministry of Defence, the Department for Education).

    Examples
    --------
    >>> [is_acronym(t) for t in ("US", "U.S.", "NASA", "I", "Ok", "NATOS1", "MoD", "Mod")]
    [True, True, True, False, False, False, True, False]
    """
    letters = text.replace(".", "")
    return 2 <= len(letters) <= 5 and letters.isalpha() and (
        letters.isupper() or (len(letters) >= 3 and letters[0].isupper()
                              and letters[-1].isupper()))


def _is_name_acronym(tok) -> bool:
    """A capitalised short name spelled like a function word: ``US``, ``IT``, ``WHO``."""
    return is_acronym(tok.text) and tok.pos_ == "PROPN"


def _is_clitic(tok) -> bool:
    """What is left of a contraction written with spaces (``it ' s``, ``don ' t``, ``i ' m``).

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("they don ' t know , i ' m sure")
    >>> [t.text for t in doc if _is_clitic(t)]
    ['don', 't', 'm']
    """
    doc, i = tok.doc, tok.i
    low = tok.text.lower()
    if low in CLITICS and i > 0 and doc[i - 1].text in _APOSTROPHES:
        return True
    return (low.endswith("n") and i + 2 < len(doc) and doc[i + 1].text in _APOSTROPHES
            and doc[i + 2].text.lower() == "t")


def is_content(tok) -> bool:
    """A content-bearing token: a word or unit, not a stop word, of a content part of speech.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The café offers 3 free e-mail accounts.")
    >>> [t.text for t in doc if is_content(t)]
    ['café', 'offers', '3', 'free', 'e', 'mail', 'accounts']
    """
    if tok.is_space or (tok.is_punct and tok.text.lower() not in UNIT_KEYS):
        return False
    if tok.text.lower() in UNIT_KEYS and not tok.is_alpha:
        return UNIT_KEYS[tok.text.lower()] not in ("and", "plus", "with", "without")
    if not _is_wordlike(tok) or (tok.is_stop and not _is_name_acronym(tok)) or _is_clitic(tok):
        return False
    return tok.pos_ in CONTENT_POS or tok.like_num


#: Pairs of opposite words (matching keys): a sentence with the opposite contradicts. Not
#: converses, which tell one event from its two sides (*you can buy bags* is *sold by the
#: bag*; *before* / *after*).
ANTONYM_PAIRS = (
    ("open", "close"), ("open", "closed"), ("include", "exclude"), ("available", "unavailable"),
    ("allow", "prohibit"), ("allow", "ban"), ("free", "paid"), ("increase", "decrease"),
    ("rise", "fall"), ("win", "lose"), ("accept", "reject"),
    ("large", "small"), ("larger", "smaller"), ("largest", "smallest"), ("high", "low"),
    ("higher", "lower"), ("highest", "lowest"), ("early", "late"), ("earlier", "later"),
    ("old", "new"), ("older", "newer"), ("male", "female"), ("north", "south"),
    ("east", "west"), ("indoor", "outdoor"), ("hot", "cold"), ("up", "down"),
    ("start", "end"), ("begin", "end"), ("minimum", "maximum"),
    ("safe", "unsafe"), ("possible", "impossible"), ("legal", "illegal"),
)
ANTONYMS: dict[str, tuple[str, ...]] = {}
for _a, _b in ANTONYM_PAIRS:
    ANTONYMS[_a] = tuple(sorted({*ANTONYMS.get(_a, ()), _b}))  # sorted: notes are deterministic
    ANTONYMS[_b] = tuple(sorted({*ANTONYMS.get(_b, ()), _a}))


#: Prefixes that make a word its opposite (*unstable*, *illegal*, *dishonest*, *nonprofit*).
NEGATING_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "mis")
#: Words of one kind that static vectors put close and that say different things (one
#: never paraphrases another): relations, outcomes, counts, parts of a day or a contest.
#: Found reviewing the pairs the vectors matched on the development sets (docs/validity.md,
#: "Thirteenth round").
COHYPONYMS = (
    frozenset({"husband", "wife"}), frozenset({"boyfriend", "girlfriend"}),
    frozenset({"son", "daughter"}), frozenset({"brother", "sister"}),
    frozenset({"mother", "father", "mum", "dad"}), frozenset({"man", "woman"}),
    frozenset({"boy", "girl"}), frozenset({"king", "queen"}),
    frozenset({"victory", "defeat", "draw"}), frozenset({"winner", "loser"}),
    frozenset({"win", "defeat"}), frozenset({"die", "kill", "injure", "wound"}),
    frozenset({"once", "twice"}), frozenset({"hundred", "thousand", "million", "billion"}),
    frozenset({"first", "second", "third", "last"}),
    frozenset({"morning", "afternoon", "evening", "night"}),
    frozenset({"final", "semifinal", "quarterfinal"}),
)
_COHYPONYMS_OF: dict[str, frozenset[str]] = {}
for _kind in COHYPONYMS:
    for _w in _kind:
        _COHYPONYMS_OF[_w] = _COHYPONYMS_OF.get(_w, frozenset()) | (_kind - {_w})


def opposed(a: str, b: str) -> bool:
    """Whether keys ``a`` and ``b`` are the same word or say different things: opposites
    (:func:`opposites`), one with a negating prefix of the other
    (:data:`NEGATING_PREFIXES`), or two of one kind (:data:`COHYPONYMS`).

    >>> opposed("stable", "unstable"), opposed("illegal", "legal"), opposed("win", "lose")
    (True, True, True)
    >>> opposed("wife", "husband"), opposed("toxic", "harmful"), opposed("ink", "k")
    (True, False, False)
    """
    if a == b or b in opposites(a) or b in _COHYPONYMS_OF.get(a, ()):
        return True
    return prefix_negated(a, b)


def prefix_negated(a: str, b: str) -> bool:
    """Whether one of keys ``a`` and ``b`` is the other with a negating prefix
    (:data:`NEGATING_PREFIXES`), the shorter of 3 letters or more.

    >>> prefix_negated("available", "unavailable"), prefix_negated("ink", "k")
    (True, False)
    """
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and any(long_ == p + short for p in NEGATING_PREFIXES)


#: Coarse parts of speech: a context word paraphrases a response word of the same class only
#: (a participle is a verb or an adjective; a noun may be tagged a name in a headline).
POS_CLASS = {"NOUN": "noun", "PROPN": "noun", "VERB": "verb", "AUX": "verb", "ADJ": "verb",
             "ADV": "adv"}

#: Words the static vectors are asked about (:meth:`SentenceIndex.paraphrase_positions`):
#: keys of three or more lower-case letters (no number, code or compound of symbols).
VECTOR_WORD = re.compile(r"[a-z]{3,}")

#: Units that name a scale of a more general unit: a context that leaves the scale unstated
#: (``72 degrees``) supports the claim that states it (``72 °F``), and the other way round.
UNIT_GENERAL = {"°F": "°", "°C": "°"}


def same_quantity(claimed: tuple, found: tuple) -> bool:
    """Whether two canonical quantity values are equal up to an unstated scale.

    Values are :class:`~evaltools.scoring.anchors.mentions.Mention` values,
    ``("quantity", unit, amount)``. ``72 °F`` and ``72 degrees`` (unit ``°``)
    are the same quantity; ``72 °F`` and ``72 °C`` are not.

    Examples
    --------
    >>> from decimal import Decimal
    >>> f, c, d = (("quantity", u, Decimal(72)) for u in ("°F", "°C", "°"))
    >>> same_quantity(f, d), same_quantity(d, c), same_quantity(f, c)
    (True, True, False)
    """
    if len(claimed) != 3 or len(found) != 3 or claimed[0] != "quantity" != found[0] \
            or found[0] != "quantity" or claimed[2] != found[2]:
        return False
    a, b = claimed[1], found[1]
    return a == b or UNIT_GENERAL.get(a, a) == b or UNIT_GENERAL.get(b, b) == a


@functools.lru_cache(maxsize=65536)
def zipf(key: str) -> float:
    """The Zipf frequency of a key in English (0 for words ``wordfreq`` does not know)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(key, "en") if key else ZIPF_CEILING


@functools.lru_cache(maxsize=65536)
def rarity(key: str, power: float = 1.0) -> float:
    """Weight in [0, 1] of a key: ``((8 - zipf) / 8) ** power``; numbers and unknown words 1.

    Examples
    --------
    >>> rarity("the") < rarity("company") < rarity("formaldehyde") < rarity("xq17") == 1.0
    True
    >>> round(rarity("company"), 2), rarity("2024")
    (0.3, 1.0)
    """
    if not key:
        return 0.0
    if any(ch.isdigit() for ch in key):
        return 1.0
    info = max(0.0, ZIPF_CEILING - zipf(key)) / ZIPF_CEILING
    return min(1.0, math.pow(info, power))


@dataclass(frozen=True)
class Word:
    """One word of a parsed text, hyphenated compounds joined.

    ``key`` is the matching key (compound parts concatenated: ``email``);
    ``forms`` the keys it may be found under: ``key`` and its folded surface
    text (a name tagged differently in two texts keeps its lemma in one,
    ``Cafés`` vs ``café``);
    ``parts`` the keys of its pieces (``("e", "mail")``; a single-token word
    has one part). ``start``/``end`` are character offsets in the text,
    ``sent`` the index of its sentence, ``content`` whether it carries
    content, ``pos`` the part of speech of its last token, ``num`` whether
    it is a number.
    """

    text: str
    start: int
    end: int
    key: str
    forms: tuple[str, ...]
    parts: tuple[str, ...]
    sent: int
    content: bool
    pos: str
    num: bool


def _joins(prev, tok) -> bool:
    """Whether ``tok`` continues the word of ``prev`` across a hyphen (no spaces)."""
    if prev.idx + len(prev.text) != tok.idx:
        return False
    return (len(tok.text) == 1 and tok.text in JOINERS) or (
        len(prev.text) == 1 and prev.text in JOINERS)


def words_of(doc) -> list[Word]:
    """The words of a parsed text in order, hyphenated compounds joined.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> ws = words_of(load_pipeline()("Send an e-mail to the café. Open 24/7."))
    >>> [(w.text, w.key, w.parts, w.sent, w.content) for w in ws if w.content]
    [('Send', 'send', ('send',), 0, True), ('e-mail', 'email', ('e', 'mail'), 0, True), \
('café', 'cafe', ('cafe',), 0, True), ('Open', 'open', ('open',), 1, True), \
('24/7', '24/7', ('24/7',), 1, True)]
    >>> [w.pos for w in words_of(load_pipeline()(
    ...     "Gulfside Lock & Key is a locksmith offering home services.")) if w.text == "locksmith"]
    ['NOUN']

    An em dash sets a phrase off; a hyphen or an en dash joins a compound:

    >>> [w.text for w in words_of(load_pipeline()("The food\u2014just chips, anise\u2013scented."))]
    ['The', 'food', 'just', 'chips', 'anise\u2013scented']
    """
    sent_of = _sentence_numbers(doc)
    groups: list[list] = []
    for tok in doc:
        if tok.is_space:
            continue
        if groups and _joins(groups[-1][-1], tok) and not (
                tok.i + 1 < len(doc) and tok.text in JOINERS
                and not _joins(tok, doc[tok.i + 1])):
            groups[-1].append(tok)
        else:
            groups.append([tok])
    text = doc_text(doc)
    # in cased text a lowercase word is no name, whatever the tagger says (*a locksmith*,
    # *the chicken*); in text written all in lower case the tagger's PROPN is all there is
    cased = any(ch.isupper() for ch in text)
    out = []
    for group in groups:
        pieces = [t for t in group if t.text not in _HYPHENS]
        if not pieces:
            continue
        parts = tuple(k for k in (token_key(t) for t in pieces) if k)
        if len(pieces) == 1 and _INNER_DASH.search(pieces[0].text):  # 9:00–17:30, Mon-Fri
            parts = tuple(fold(p) for p in _INNER_DASH.split(pieces[0].text) if p) or parts
        if not parts:
            continue
        first, last = group[0], group[-1]
        start, end = first.idx, last.idx + len(last.text)
        content = any(is_content(t) for t in pieces)
        key = "".join(parts)
        surface = fold(text[start:end])
        forms = (key,) if surface == key or not surface.isalnum() else (key, surface)
        if len(pieces) == 1 and key == surface and _closes_name(pieces[0]):
            one = _singular(key)
            if one != key:
                forms = (*forms, one)  # "Nail Salons" (a name-run): also "salon"
        site = _SITE.match(surface) if len(pieces) == 1 and pieces[0].like_url else None
        if site is not None and site.group(1) not in forms:
            forms = (*forms, site.group(1))  # "www.webmd.com" names WebMD
        pos = "NOUN" if cased and last.pos_ == "PROPN" and last.text.islower() else last.pos_
        out.append(Word(text[start:end], start, end, key, forms, parts,
                        sent_of[first.i], content, pos, all(t.like_num for t in pieces)))
    return out


def _sentence_numbers(doc) -> list[int]:
    if not doc.has_annotation("SENT_START"):
        return [0] * len(doc)
    out = [0] * len(doc)
    for k, sent in enumerate(doc.sents):
        for i in range(sent.start, sent.end):
            out[i] = k
    return out


def sentence_spans(doc) -> tuple[tuple[int, int], ...]:
    """Character spans of the sentences of ``doc`` (the whole text if unparsed)."""
    if not doc.has_annotation("SENT_START"):
        return ((0, len(doc_text(doc))),)
    return tuple((s.start_char, s.end_char) for s in doc.sents)


#: Words found under another word's key: a verb and the noun the context uses for it
#: ("born" in "birth date: 1989-02-24"). Shared prefixes are matched without a table
#: (:func:`derived`); this holds only pairs that share none.
DERIVATIONS = {
    "bear": ("birth",), "born": ("birth",), "die": ("death",), "dead": ("death",),
    "marry": ("spouse", "married"), "married": ("spouse",), "wife": ("spouse",),
    "husband": ("spouse",), "lead": ("leader",), "live": ("residence",),
    "buy": ("purchase",), "purchase": ("buy",),
}
#: Comparatives of a direction (*higher*, *lower*, *faster*, by their lemma) and the words by
#: which a text says that change happened (*a higher heart rate* where a passage says the
#: heart rate *increases*; *at lower cost* for costs that *fall*). Only the comparative is read
#: so (not *the highest*, a rank the context must give), and never against its own opposite
#: (*rise* is no *lower*).
DIRECTIONS = {
    "high": ("increase", "rise", "raise", "boost", "elevate", "climb", "jump", "soar", "grow",
             "more"),
    "low": ("decrease", "reduce", "reduction", "fall", "drop", "cut", "decline", "less", "fewer",
            "shrink", "slash", "lower"),
    "fast": ("quick", "quickly", "rapid", "rapidly", "speed", "accelerate"),
    "slow": ("slowly", "delay", "decelerate"),
    "big": ("large", "grow", "expand", "increase"),
    "small": ("little", "shrink", "reduce", "decrease"),
    "cheap": ("inexpensive", "low", "less"),
}
#: Shortest shared prefix that makes two words derivations of each other.
DERIVED_PREFIX = 5


def derived(a: str, b: str) -> bool:
    """Whether two keys are forms of one word: a shared prefix of at least 5 letters that
    leaves at most 2 letters of the shorter (``locate``/``location``, ``compose``/``composer``).

    Examples
    --------
    >>> derived("locate", "location"), derived("certify", "certification")
    (True, True)
    >>> derived("present", "president"), derived("car", "card")
    (False, False)
    """
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= DERIVED_PREFIX and n >= min(len(a), len(b)) - 2


#: Shortest Snowball stem by which two words are read as forms of one (:func:`stem`).
STEM_MIN = 4
#: Particles of the phrasal verbs a noun is written from (*pickup*, *turnaround*, *payout*;
#: :meth:`SentenceIndex.phrasal_positions`), and the most words between verb and particle
#: (*picked the car up*).
PHRASAL_PARTICLES = ("up", "out", "off", "back", "around", "down", "over", "away")
PHRASAL_GAP = 3


@functools.lru_cache(maxsize=65536)
def stem(key: str) -> str:
    """The English Snowball (Porter 2) stem of a lower-case word: the maintained stemmer
    reads suffixes that a shared prefix misses (*altering*, *alterations*: *alter*) and
    leaves words apart that a cruder one joins (*organization*, *organ*).

    >>> [stem(w) for w in ("altering", "alterations", "organization", "organ")]
    ['alter', 'alter', 'organiz', 'organ']
    """
    return _stemmer().stemWord(key)


@functools.lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


_DATA = "data"


@functools.lru_cache(maxsize=1)
def abbreviations() -> dict[str, dict[str, str]]:
    """Codes and short forms shipped in ``evaltools/scoring/data/abbreviations.json``.

    ``us_states`` (``ca`` -> ``california``), ``ca_provinces`` (``ab`` -> ``alberta``),
    ``countries`` (ISO 3166-1: ``de`` -> ``germany``), ``country_names`` (``uk`` ->
    ``united kingdom``), ``units`` (``km`` -> ``kilometer``), ``months`` (``Sept`` ->
    ``september``) and ``address`` (USPS street suffixes, read capitalised: ``Ste`` ->
    ``suite``) and ``informal`` (reviewers' short forms, read in lower case: ``sims`` ->
    ``simulator``); sources in the file and in ``scripts/build_abbreviations.py``.

    Examples
    --------
    >>> t = abbreviations()
    >>> t["us_states"]["ca"], t["countries"]["de"], t["units"]["lbs"], t["months"]["Sept"]
    ('california', 'germany', 'pound', 'september')
    """
    import json
    from importlib.resources import files

    data = json.loads(files(__package__).joinpath(_DATA, "abbreviations.json")
                      .read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if isinstance(v, dict)}


@functools.lru_cache(maxsize=1)
def _codes() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]],
                    dict[str, tuple[str, ...]]]:
    """(code -> the names it stands for, as word keys; one-word name -> its codes; a word
    of a name of several -> their codes: *Jersey* -> NJ, *New* -> NH, NJ, NM, NY)."""
    tables = abbreviations()
    names: dict[str, list[tuple[str, ...]]] = {}
    codes: dict[str, list[str]] = {}
    parts: dict[str, list[str]] = {}
    for section in ("us_states", "ca_provinces", "countries", "country_names"):
        for code, name in tables[section].items():
            words = tuple(fold(w) for w in re.split(r"[\s&]+", name) if w and w != "and")
            names.setdefault(code, []).append(words)
            if len(words) == 1:
                codes.setdefault(words[0], []).append(code)
            else:
                for w in words:
                    if w not in ("of", "the"):
                        parts.setdefault(w, []).append(code)
    return ({k: tuple(v) for k, v in names.items()},
            {k: tuple(dict.fromkeys(v)) for k, v in codes.items()},
            {k: tuple(dict.fromkeys(v)) for k, v in parts.items()})


@functools.lru_cache(maxsize=1)
def _ap_states() -> dict[str, tuple[str, ...]]:
    """A state's name key -> its Associated Press abbreviations (``massachusetts`` ->
    ``mass``), from :func:`abbreviations`' ``us_states_ap``."""
    out: dict[str, list[str]] = {}
    for short, name in abbreviations()["us_states_ap"].items():
        out.setdefault(fold(name), []).append(short)
    return {k: tuple(v) for k, v in out.items()}


#: Where an AP state abbreviation is one: after a comma and a space (the town before it),
#: capitalised, with its period (*Westwood, Mass.*; not *Miss Smith* nor *wash.*).
_AP_DATELINE = re.compile(r", [A-Z][a-z]{1,4}\.")


@functools.lru_cache(maxsize=1)
def paraphrases() -> dict[str, tuple[str, ...]]:
    """For a word key, the keys of context words that support it: synonyms, more specific
    words and derivations, from WordNet 3.0 (``evaltools/scoring/data/paraphrases.json``,
    built by ``scripts/build_paraphrases.py``; licence in ``data/WORDNET_LICENSE.txt``).

    Examples
    --------
    >>> p = paraphrases()
    >>> "death" in p["fatality"], "purchase" in p["buy"], "sedan" in p["car"]
    (True, True, True)
    >>> "car" in p.get("sedan", ())   # a sedan is a car; a car need not be a sedan
    False
    """
    return {k: tuple(v) for k, v in _wordnet_tables()["supports"].items()}


@functools.lru_cache(maxsize=1)
def name_forms() -> dict[str, tuple[str, ...]]:
    """For a proper name's key, the keys of its other forms: the place or person and the
    adjective that pertains to it, from WordNet 3.0 (``paraphrases.json``, ``name_forms``).

    Examples
    --------
    >>> f = name_forms()
    >>> f["belgium"], f["belgian"], "argentinian" in f["argentina"]
    (('belgian',), ('belgium',), True)
    """
    return {k: tuple(v) for k, v in _wordnet_tables()["name_forms"].items()}


@functools.lru_cache(maxsize=1)
def abstract_nouns() -> frozenset[str]:
    """Keys of the nouns whose first sense WordNet 3.0 files as an idea, a quality, a feeling,
    a group, a possession, a motive or a relation (``paraphrases.json``, ``abstract_nouns``):
    words that sum up or judge rather than name a thing.

    Examples
    --------
    >>> [w in abstract_nouns() for w in ("hindsight", "warmth", "payoff", "sauna", "pastry")]
    [True, True, True, False, False]
    """
    return frozenset(_wordnet_tables()["abstract_nouns"])


@functools.lru_cache(maxsize=1)
def ing_things() -> frozenset[str]:
    """Keys of the nouns in *-ing* whose first sense WordNet 3.0 files as anything but an act
    (``paraphrases.json``, ``ing_things``): *painting*, *frosting*, *wedding* name a thing;
    *booking* and *scheduling*, which are not here, name what someone does.

    Examples
    --------
    >>> [w in ing_things() for w in ("painting", "frosting", "booking", "scheduling")]
    [True, True, False, False]
    """
    return frozenset(_wordnet_tables()["ing_things"])


@functools.lru_cache(maxsize=1)
def not_nouns() -> frozenset[str]:
    """Words WordNet 3.0 knows only as adjectives, adverbs or verbs, with their regular
    comparatives, superlatives and verb forms in *-s* and *-ed*, none a noun under any
    reading of its ending (``paraphrases.json``, ``not_nouns``): a tagger that calls one a
    noun has misread it.

    Examples
    --------
    >>> [w in not_nouns() for w in ("curt", "pricier", "calmer", "diagnose", "sauna", "cooler")]
    [True, True, True, True, False, False]
    """
    return frozenset(_wordnet_tables()["not_nouns"])


@functools.lru_cache(maxsize=1)
def lower_words() -> frozenset[str]:
    """Words WordNet 3.0 writes in lower case in every synset that holds them: words, never
    names (``paraphrases.json``, ``lower_words``). A capital at a sentence's start does not
    make one a name (*Turnaround can be slow*, *Presenter Miranda Krestovnikoff*); WordNet
    also writes *Wales* and *Hull* as names, so they are not here.

    Examples
    --------
    >>> [w in lower_words() for w in ("turnaround", "presenter", "wales", "hull")]
    [True, True, False, False]
    """
    return frozenset(_wordnet_tables()["lower_words"])


@functools.lru_cache(maxsize=1)
def _opposites() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {k: set(v) for k, v in _wordnet_tables()["antonyms"].items()}
    for key, opposite in ANTONYMS.items():
        table.setdefault(key, set()).update(opposite)
    return {k: tuple(sorted(v)) for k, v in table.items()}  # sorted: notes are deterministic


def opposites(key: str) -> tuple[str, ...]:
    """The keys of the words opposite to ``key``: :data:`ANTONYMS`, and WordNet 3.0's
    antonyms of verbs, adjectives and adverbs (``paraphrases.json``, ``antonyms``, built by
    ``scripts/build_paraphrases.py``; not nouns, nor converses such as *buy* / *sell*).

    Examples
    --------
    >>> opposites("admit"), opposites("increase"), opposites("higher"), opposites("sell")
    (('deny',), ('decrease',), ('lower',), ())
    """
    return _opposites().get(key, ())


@functools.lru_cache(maxsize=1)
def _wordnet_tables() -> dict[str, Any]:
    import json
    from importlib.resources import files

    return json.loads(files(__package__).joinpath(_DATA, "paraphrases.json")
                      .read_text(encoding="utf-8"))


#: A written word from its first character (:meth:`SentenceIndex.folded_at`).
_WORD_RUN = re.compile(r"[\w'’-]+")


class SentenceIndex:
    """Where a text holds each key: word positions and sentences (whole words and compound parts).

    Plain data, so it can be cached with a context's features. Positions
    count the text's words (:func:`words_of`) from 0.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> idx = SentenceIndex(load_pipeline()("Email us. The café opens at 9."))
    >>> idx.sentences("email"), idx.sentences("cafe"), idx.sentences("mail")
    (frozenset({0}), frozenset({1}), frozenset())
    >>> idx.positions("cafe"), idx.word_at(idx.text.index("9"))
    ((3,), 6)
    >>> idx.has_all(["cafe", "open"]), idx.has_all(["email", "open"])
    (1, None)
    """

    __slots__ = ("_at", "_flags", "_initials", "_keys", "_memo", "_pos", "_sorted", "_starts",
                 "_word_pos", "_word_sent", "spans", "text")

    def __init__(self, doc, words: Sequence[Word] | None = None):
        self.text = doc_text(doc)
        self.spans = sentence_spans(doc)
        at: dict[str, list[int]] = {}
        pos: dict[str, set[str]] = {}  # a key's parts of speech: the vectors' candidates
        starts, word_sent = [], []
        words = words if words is not None else words_of(doc)
        # what initials are read from (expansions): each word's key, and one byte of flags,
        # 1 = capitalised, 2 = content; compact, as a long text holds many words
        self._keys = tuple(w.key for w in words)
        self._flags = bytes(w.text[:1].isupper() | w.content << 1 for w in words)
        self._initials: dict[str, tuple[int, ...]] | None = None
        for j, w in enumerate(words):
            starts.append(w.start)
            word_sent.append(w.sent)
            keys = dict.fromkeys(w.forms + (w.parts if len(w.parts) > 1 else ()))
            for k in keys:
                at.setdefault(k, []).append(j)
            pos.setdefault(w.key, set()).add(w.pos)
        self._at = {k: tuple(v) for k, v in at.items()}
        self._pos = {k: frozenset(v) for k, v in pos.items()}
        self._starts = tuple(starts)
        self._word_sent = tuple(word_sent)
        self._word_pos = tuple(w.pos for w in words)
        self._sorted: list[str] | None = None
        # lookups remembered: a long text asks for the same words again and again
        self._memo: dict[tuple, Any] = {}

    def positions(self, key: str) -> tuple[int, ...]:
        """Positions of the words holding ``key``, in order."""
        return self._at.get(key, ())

    def _capitals_positions(self, key: str) -> tuple[int, ...]:
        """Positions of the words holding ``key`` written as ``key`` in capitals."""
        def written(start: int) -> bool:
            text = self.text[start:start + len(key)]
            return (text.isupper() and text.lower() == key
                    and not self.text[start + len(key):start + len(key) + 1].isalnum())

        return tuple(p for p in self.positions(key) if written(self._starts[p]))

    def initials_run(self, word: Word, words: Sequence[Word]
                     ) -> tuple[tuple[Word, ...], frozenset[int]]:
        """``word`` with the one or two of ``words`` written right before it in its sentence
        (one space apart) whose initials the text writes as a word of capitals, and the
        sentences where it does (*air conditioning* where a review says "no AC", *heart
        rate* for *HR*); ``((), frozenset())`` where none does. The shorter run is tried
        first.

        >>> from evaltools.text import load_pipeline
        >>> nlp = load_pipeline()
        >>> idx = SentenceIndex(nlp("The AC in our dorm was loud."))
        >>> ws = words_of(nlp("a loud air conditioner and a loud bar counter"))
        >>> [(w.text, [x.text for x in idx.initials_run(w, ws)[0]], idx.initials_run(w, ws)[1])
        ...  for w in ws if w.text in ("conditioner", "counter")]
        [('conditioner', ['air', 'conditioner'], frozenset({0})), ('counter', [], frozenset())]
        """
        before = sorted((w for w in words if w.end <= word.start), key=lambda w: w.start)[-2:]
        run = [word]
        for w in reversed(before):
            if run[0].start - w.end != 1 or w.sent != word.sent:
                break
            run.insert(0, w)
            found = self._capitals_positions(initials(run))
            if found:
                return tuple(run), frozenset(self._word_sent[p] for p in found)
        return (), frozenset()

    def capitalised_before(self, word: Word) -> tuple[str, ...]:
        """The keys of the capitalised words right before each place the text holds
        ``word`` (:meth:`locate`), in order: *president* and *mr* for *Obama* in
        "President Obama said ... Mr Obama"; none where a lower-case word or nothing
        comes first.

        >>> from evaltools.text import load_pipeline
        >>> nlp = load_pipeline()
        >>> idx = SentenceIndex(nlp("President Obama spoke. Then Mr Obama left; Obama wept."))
        >>> idx.capitalised_before(words_of(nlp("Obama"))[0])
        ('president', 'mr')
        """
        return tuple(self._keys[j - 1] for j in self.locate(word)
                     if j and self._flags[j - 1] & 1
                     and self._word_sent[j - 1] == self._word_sent[j])

    def holds_clipped(self, keys: Sequence[str]) -> bool:
        """Whether the text writes a name of two or more words (``keys``, in order) with
        each word clipped to its first letters, three or more, a plural *s* aside, and
        capitalised (*Lib Dems* for ``["liberal", "democrats"]``; *Fed Reserve*).

        >>> from evaltools.text import load_pipeline
        >>> idx = SentenceIndex(load_pipeline()("The Lib Dems tabled it. The lib won."))
        >>> [idx.holds_clipped(k) for k in (["liberal", "democrats"], ["liberal", "party"],
        ...                                  ["lib", "dems"], ["liberty", "dems"])]
        [True, False, False, True]
        """
        return bool(self.clipped_positions(keys))

    def clipped_positions(self, keys: Sequence[str]) -> tuple[int, ...]:
        """The positions where a clipped name of ``keys`` (:meth:`holds_clipped`) starts.

        >>> from evaltools.text import load_pipeline
        >>> idx = SentenceIndex(load_pipeline()("He joined. The Lib Dem leader spoke."))
        >>> idx.clipped_positions(["liberal", "democrat"])
        (3,)
        """
        memo = ("clipped", tuple(keys))
        if memo not in self._memo:
            n = len(keys)

            def clips(j: int, key: str) -> bool:
                short = self._keys[j].removesuffix("s") if len(self._keys[j]) > 3 \
                    else self._keys[j]
                return (self._flags[j] & 1 and len(short) >= 3 and key.startswith(short))

            self._memo[memo] = tuple(
                j for j in range(len(self._keys) - n + 1) if n > 1
                and all(clips(j + i, k) for i, k in enumerate(keys))
                and any(len(self._keys[j + i]) < len(k) for i, k in enumerate(keys)))
        return self._memo[memo]

    @property
    def size(self) -> int:
        """How many words the text holds (positions run from 0 to ``size - 1``)."""
        return len(self._keys)

    def key_at(self, position: int) -> str:
        """The matching key of the word at ``position``."""
        return self._keys[position]

    def is_content(self, position: int) -> bool:
        """Whether the word at ``position`` carries content."""
        return bool(self._flags[position] & 2)

    def is_capitalised(self, position: int) -> bool:
        """Whether the word at ``position`` is written with a capital first letter."""
        return bool(self._flags[position] & 1)

    def folded_at(self, position: int) -> str:
        """The word at ``position`` as written, in lower case (its first run of letters,
        digits, apostrophes and hyphens: *higher* where its key is *high*).

        >>> from evaltools.text import load_pipeline
        >>> idx = SentenceIndex(load_pipeline()("Prices were Higher. Few came."))
        >>> [idx.folded_at(p) for p in range(idx.size)], idx.key_at(2)
        (['prices', 'were', 'higher', 'few', 'came'], 'high')
        """
        m = _WORD_RUN.match(self.text, self._starts[position])
        return m.group().lower() if m else ""

    def sentence_positions(self, sentence: int) -> range:
        """The positions of the words of sentence ``sentence``, in order."""
        return range(bisect.bisect_left(self._word_sent, sentence),
                     bisect.bisect_right(self._word_sent, sentence))

    def pos_at(self, position: int) -> str:
        """The part of speech (spaCy's coarse tag) of the word at ``position``."""
        return self._word_pos[position]

    def sentence_of(self, position: int) -> int:
        """The sentence of the word at ``position``."""
        return self._word_sent[position]

    def word_at(self, offset: int) -> int:
        """Position of the word starting at or before character ``offset`` (0 if none)."""
        return max(bisect.bisect_right(self._starts, offset) - 1, 0)

    def sentences(self, key: str) -> frozenset[int]:
        """Indices of the sentences holding ``key``."""
        memo = ("sentences", key)
        if memo not in self._memo:
            self._memo[memo] = frozenset(self._word_sent[j] for j in self.positions(key))
        return self._memo[memo]

    def __contains__(self, key: str) -> bool:
        return key in self._at

    def locate(self, word: Word) -> tuple[int, ...]:
        """Positions holding ``word``: under any of its forms, or (a compound) its first
        part where all its parts share a sentence, or (an acronym) the first word of
        a name it abbreviates (:meth:`expansions`), or (a code or a capitalised name) the
        name or code it stands for (:meth:`code_positions`; a capitalised word also where
        it is found as itself) or the name's other form
        (:meth:`name_form_positions`: *Belgian* for *Belgium*), or (a one-word name of four
        letters or more) the name in the other number, not as a word of a longer name
        (*Hohner* where *Hohners, Seydels* stands; not *George* for *Georges Herpin*).

        ``e-mail`` is found as ``email``, ``e-mail`` or ``e mail``; ``email``
        is found as ``e-mail`` too (the compound's key is indexed), and a part also as
        written where its key is a lemma (``wood-fired``, parts *wood* and *fire*, where
        *Wood Fired* stands). A part after
        the first that only says "of that kind" (:data:`LIGHT_PARTS`) is not
        looked for: *hipster-style* is found where *hipster* is, and an age
        (*23-year-old*, :data:`AGE_PARTS`) or a count of people (*60-guest*,
        :data:`COUNTED_PEOPLE`) where its number is.
        """
        found = {j for f in word.forms for j in self.positions(f)}
        if not found or word.text[:1].isupper():
            # a state or country is found at its code even where its name also stands
            # elsewhere: "Denver, Colorado" where the record's "state: CO" sits beside
            # "city: Denver" and a review speaks of "a Colorado summer"
            found.update(self.code_positions(word))
        if not found and word.text[:1].isupper():
            found = set(self.name_form_positions(word))
        if (not found and word.text[:1].isupper() and word.pos == "PROPN"
                and len(word.key) >= 4 and word.key.isalpha()):
            # a brand in the plural: "a Hohner" where a review says "walls of Hohners, ...";
            # not a word of a longer name ("Georges Herpin" is not "George Herpin")
            other = (word.key[:-1] if word.key.endswith("s") and not word.key.endswith("ss")
                     else word.key + "s")
            found = {j for j in self.positions(other)
                     if not _NAME_AFTER.match(self.text, self._starts[j] + len(other))}
        if not found and is_acronym(word.text):
            return self.expansions(word.key)
        if len(word.parts) > 1:
            # a part as written, where its key is its lemma: "wood-fired" (wood, fire) is
            # found where a record's "Wood Fired Bagels" writes "fired"
            written = [fold(p) for p in _INNER_DASH.split(word.text) if p]
            as_written = {p: w for p, w in zip(word.parts, written, strict=True)
                          if w != p} if len(written) == len(word.parts) else {}
            parts = [word.parts[0], *(p for p in word.parts[1:] if p not in LIGHT_PARTS)]
            counted = [p for p in parts[1:] if p != "per"]
            if parts[0].isdigit() and (parts[1:] == list(AGE_PARTS) or (
                    counted and all(p in COUNTED_PEOPLE for p in counted))):
                # "23-year-old" where "Morata, 23," stands; "60-guest", "$24-per-person"
                parts = parts[:1]
            together = None
            for p in parts:
                s = self.sentences(p)
                if p in PART_PLURALS:
                    s = s | self.sentences(PART_PLURALS[p])
                if p in as_written:
                    s = s | self.sentences(as_written[p])
                together = s if together is None else together & s
            if together:
                head = parts[0]
                first = self.positions(head) + (self.positions(as_written[head])
                                                if head in as_written else ())
                found.update(j for j in first if self._word_sent[j] in together)
        return tuple(sorted(found))

    def code_positions(self, word: Word) -> tuple[int, ...]:
        """Positions of what a code stands for, or of the code for a name
        (:func:`abbreviations`): ``CA`` is found as ``California`` (the first word of a
        name of several, the rest following it), ``California`` as ``CA`` written in
        capitals (``ca``, ``in`` and ``me`` in lower case are words, not codes), each
        capitalised word of a name of several as its code (*New Jersey* as ``NJ``), and a
        state's name as its AP abbreviation after a town (*Massachusetts* as *Westwood,
        Mass.*).

        >>> from evaltools.text import load_pipeline
        >>> nlp = load_pipeline()
        >>> idx = SentenceIndex(nlp("Richard Fraser is an examiner in Westwood, Mass. He "
        ...                         "went to Mass. on Sunday."))
        >>> [idx.word_at(idx.text.index("Mass."))] == list(idx.code_positions(
        ...     words_of(nlp("Massachusetts"))[0]))
        True
        """
        acronym = is_acronym(word.text)
        capitalised = word.text[:1].isupper()  # "New Jersey" for NJ; not "new" for NY
        # what the answer depends on besides the forms: "USA" finds "United States", "usa"
        # does not, so one written form's answer is not another's
        memo = ("codes", word.forms, acronym, capitalised)
        if memo in self._memo:
            return self._memo[memo]
        names, codes, parts = _codes()
        found: set[int] = set()
        if acronym:
            for name in names.get(word.key, ()):
                for j in self.positions(name[0]):
                    if all(j + i < len(self._keys) and self._keys[j + i] == w
                           for i, w in enumerate(name[1:], start=1)):
                        found.add(j)
        for key in word.forms:
            for code in (*codes.get(key, ()), *(parts.get(key, ()) if capitalised else ())):
                for j in self.positions(code):
                    start = self._starts[j]
                    if self.text[start:start + len(code)].isupper():
                        found.add(j)
            if capitalised:
                for short in _ap_states().get(key, ()):
                    found.update(j for j in self.positions(short)
                                 if _AP_DATELINE.match(self.text, self._starts[j] - 2))
        self._memo[memo] = out = tuple(sorted(found))
        return out

    def name_form_positions(self, word: Word) -> tuple[int, ...]:
        """Positions of a capitalised other form of the name ``word`` (:func:`name_forms`):
        ``Belgium`` is found as ``Belgian``, ``Argentinian`` as ``Argentina``; a word in
        lower case (``french fries``) is not a name."""
        return self._table_positions("name forms", name_forms(), word, capitalised=True)

    def paraphrase_positions(self, word: Word, cosine: float = 0.0) -> tuple[int, ...]:
        """Positions of context words that paraphrase ``word`` (:func:`paraphrases`):
        a synonym (*deaths* for *fatalities*), a more specific word (*sedan* for *car*)
        or a derivation the table knows (*election* for *elected*).

        With ``cosine`` above 0 (config ``grounding.paraphrase_cosine``), also a context
        word whose static vector is at least that close to the word's
        (:func:`evaltools.scoring.word_vectors.near`: *harmful* for *toxic*). Vectors put
        related words close as well as similar ones, so the context word must be a common
        word of letters only (:data:`VECTOR_WORD`) of the same part of speech
        (:data:`POS_CLASS`: *price* is close to *expensive*, and says nothing of it), share
        no token of the vectors' tokenizer with the word (*shipwright* and *ship* are close
        for their shared piece; derivations are the matcher's other rules), not be
        :func:`opposed` to it (*unstable* for *stable*, *wife* for *husband*), and not be a
        pair WordNet's table already decides (*car* does not support *sedan*); the word is
        content, not a name or a number.
        """
        found = self._table_positions("paraphrase", paraphrases(), word)
        if (cosine <= 0 or word.num or word.pos == "PROPN" or not word.content
                or not VECTOR_WORD.fullmatch(word.key)):
            return found
        pos_class = POS_CLASS.get(word.pos, word.pos)
        memo = ("near", word.forms, pos_class, cosine)
        if memo not in self._memo:
            table, own = paraphrases(), word_vectors.tokens(word.key)
            near = [k for k in word_vectors.near(word.key, self._vector_keys(pos_class), cosine)
                    if not opposed(word.key, k) and word.key not in table.get(k, ())
                    and not own & word_vectors.tokens(k)]
            self._memo[memo] = tuple(sorted({*found, *(j for k in near
                                                        for j in self.positions(k))}))
        return self._memo[memo]

    def _vector_keys(self, pos_class: str) -> tuple[str, ...]:
        """The text's keys of a part of speech of ``pos_class`` (:data:`POS_CLASS`) the
        vectors are asked about (:data:`VECTOR_WORD`), found once per text."""
        memo = ("vector keys", pos_class)
        if memo not in self._memo:
            self._memo[memo] = tuple(sorted(
                k for k, tags in self._pos.items() if VECTOR_WORD.fullmatch(k)
                and any(POS_CLASS.get(t, t) == pos_class for t in tags)))
        return self._memo[memo]

    def _table_positions(self, tag: str, table: dict[str, tuple[str, ...]], word: Word,
                         capitalised: bool = False) -> tuple[int, ...]:
        """Positions of the context words ``table`` lists for any form of ``word``
        (only those written with a capital first letter when ``capitalised``)."""
        memo = (tag, word.forms)
        if memo in self._memo:
            return self._memo[memo]
        found: set[int] = set()
        for key in word.forms:
            for other in table.get(key, ()):
                found.update(j for j in self.positions(other) if not capitalised
                             or self.text[self._starts[j]:self._starts[j] + 1].isupper())
        self._memo[memo] = out = tuple(sorted(found))
        return out

    def find_paraphrase(self, word: Word, cosine: float = 0.0) -> frozenset[int]:
        """Sentences holding a paraphrase of ``word`` (:meth:`paraphrase_positions`)."""
        return frozenset(self._word_sent[j] for j in self.paraphrase_positions(word, cosine))

    def expansions(self, acronym: str) -> tuple[int, ...]:
        """Positions of the names ``acronym`` (a key) abbreviates: runs of 2 to
        :data:`ACRONYM_MAX` words of one sentence whose initials spell it, with or
        without their inner *of/and/the/for*.

        A run's words are capitalised content words (any case in a text written
        all in lower case): ``United States`` for ``us``, ``Department of Defense``
        for ``dod`` or ``dd``; ``used since`` is no ``US``.
        """
        if self._initials is None:
            lower = not any(c.isupper() for c in self.text)
            name_word = 2 if lower else 3  # content, and capitalised unless all is lower case
            table: dict[str, list[int]] = {}
            keys, flags, sents = self._keys, self._flags, self._word_sent
            for j in range(len(keys)):
                if flags[j] & name_word != name_word:
                    continue
                full, short = "", ""
                for k in range(j, min(j + ACRONYM_MAX, len(keys))):
                    key = keys[k]
                    if sents[k] != sents[j] or not key.isalpha():
                        break
                    inner = key in ACRONYM_INNER
                    if not inner and flags[k] & name_word != name_word:
                        break
                    full += key[0]
                    short += "" if inner else key[0]
                    if k > j and not inner:
                        for spelled in {full, short}:
                            table.setdefault(spelled, []).append(j)
            self._initials = {k: tuple(dict.fromkeys(v)) for k, v in table.items()}
        return self._initials.get(acronym, ())

    def find(self, word: Word) -> frozenset[int]:
        """Sentences holding ``word`` (see :meth:`locate`)."""
        # locate reads the word as written (a capital, an acronym, a compound's parts) and
        # its part of speech, so those are in the key with its forms
        memo = ("find", word.forms, word.parts, word.text, word.pos)
        if memo not in self._memo:
            self._memo[memo] = frozenset(self._word_sent[j] for j in self.locate(word))
        return self._memo[memo]

    def derived_positions(self, word: Word) -> tuple[int, ...]:
        """Positions holding a derivation of ``word`` (:func:`derived`, :data:`DERIVATIONS`,
        an equal :func:`stem` of at least :data:`STEM_MIN` letters).

        ``birth`` for ``born``, ``location`` for ``located``, ``composer`` for ``compose``,
        ``alterations`` for ``altering``.
        """
        memo = ("derived", word.forms, word.pos in ("NOUN", "ADJ"))
        if memo in self._memo:
            return self._memo[memo]
        found: set[int] = set()
        for key in word.forms:
            for other in DERIVATIONS.get(key, ()):
                found.update(self.positions(other))
            if not key.isalpha():
                continue
            if word.pos in ("NOUN", "ADJ"):
                found.update(self.phrasal_positions(key))
            stemmed = stem(key)
            if len(stemmed) >= STEM_MIN:
                for other in self._stems().get(stemmed, ()):
                    found.update(self.positions(other))
            if len(key) < DERIVED_PREFIX:
                continue
            if self._sorted is None:
                self._sorted = sorted(self._at)
            prefix = key[:DERIVED_PREFIX]
            i = bisect.bisect_left(self._sorted, prefix)
            while i < len(self._sorted) and self._sorted[i].startswith(prefix):
                other = self._sorted[i]
                if derived(key, other):
                    found.update(self.positions(other))
                i += 1
        self._memo[memo] = out = tuple(sorted(found))
        return out

    def opens_compound(self, part: str, min_zipf: float) -> bool:
        """Whether a word of the text is ``part`` (four letters or more) written together
        with an everyday word of Zipf ``min_zipf`` or more after it (*hail* of *hailstorm*,
        *rain* of *raincoat*).

        >>> from evaltools.text import load_pipeline
        >>> idx = SentenceIndex(load_pipeline()("A hailstorm trashed the roof. Hailey came."))
        >>> [idx.opens_compound(p, 4.0) for p in ("hail", "roof", "hai")]
        [True, False, False]
        """
        if len(part) < 4:
            return False
        if self._sorted is None:
            self._sorted = sorted(self._at)
        i = bisect.bisect_left(self._sorted, part)
        while i < len(self._sorted) and self._sorted[i].startswith(part):
            rest = self._sorted[i][len(part):]
            if len(rest) >= 3 and rest.isalpha() and zipf(rest) >= min_zipf:
                return True
            i += 1
        return False

    def phrasal_positions(self, key: str) -> tuple[int, ...]:
        """Positions of a phrasal verb that the noun ``key`` is written from: a verb of at
        least 3 letters and its particle after it in its sentence, at most
        :data:`PHRASAL_GAP` words between (*pickup* where the context says *picked it up*,
        *turnaround*: *turned the order around*, *payout*: *paid out*).

        >>> from evaltools.text import load_pipeline
        >>> idx = SentenceIndex(load_pipeline()("We picked the car up. They paid out fast."))
        >>> idx.phrasal_positions("pickup"), idx.phrasal_positions("payout")
        ((1, 4), (6, 7))
        >>> idx.phrasal_positions("setup"), idx.phrasal_positions("up")
        ((), ())
        """
        out: list[int] = []
        for particle in PHRASAL_PARTICLES:
            verb = key.removesuffix(particle)
            if verb == key or len(verb) < 3:
                continue
            for j in self.positions(verb):
                for k in range(j + 1, min(j + 2 + PHRASAL_GAP, len(self._keys))):
                    if self._word_sent[k] != self._word_sent[j]:
                        break
                    if self._keys[k] == particle:
                        out += (j, k)
                        break
        return tuple(out)

    def _stems(self) -> dict[str, tuple[str, ...]]:
        """The text's words by their :func:`stem`, read once when first asked."""
        memo = ("stems",)
        if memo not in self._memo:
            by: dict[str, list[str]] = {}
            for k in self._at:
                if k.isalpha():
                    by.setdefault(stem(k), []).append(k)
            self._memo[memo] = {k: tuple(v) for k, v in by.items()}
        return self._memo[memo]

    def find_derived(self, word: Word) -> frozenset[int]:
        """Sentences holding a derivation of ``word`` (:meth:`derived_positions`)."""
        return frozenset(self._word_sent[j] for j in self.derived_positions(word))

    def has_all(self, keys: Iterable[str]) -> int | None:
        """The first sentence that holds every key, or None."""
        common: frozenset[int] | None = None
        for k in keys:
            s = self.sentences(k)
            common = s if common is None else common & s
            if not common:
                return None
        return min(common) if common else None
