"""Claim-based hallucination (spec 3): anchors checked against the context.

``S_claims = A_unsupported / A_total`` over the response's anchors (numbers,
dates and times, assertive claims); 0.0 when there are none (DESIGN decision
2). ``S_hall = max(S_claims, P_drift)`` with the drift gate of
:mod:`evaltools.scoring.drift`.

A number or date that the query states too ("How much is the **20 oz**?")
is listed with ``counted=False`` and left out of ``A_total``: the response
repeats the question rather than claiming it. With
``hallucination.count_query_anchors = true`` it counts, as the spec's letter
has it.

A bare count of 2 to 10 of the response's own points or list items ("It works
in **three** steps:" then the steps, "there are **two** main reasons") is
listed with ``counted=False`` too, as is a count written as a word after *the*, *these* or
*those* ("they do not compare **the two**"), which refers back to what the response names
(:mod:`evaltools.scoring.anchors.own_counts`).

With ``hallucination.number_context`` on, a number or date must also stand
near what it is said of (:func:`number_support`): "introduced the Tundra in
**2006**" is not supported by "founded the company in 2006" when the context
dates the Tundra 2008.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from evaltools.scoring.anchors.ages import age_conflict, bound_ages
from evaltools.scoring.anchors.claims import (
    ENTITY_NOUNS,
    KIND_NOUNS,
    RELATION_NOUNS,
    REVIEW_FRAMING,
    TITLES,
)
from evaltools.scoring.anchors.dates import DECADE_WORDS
from evaltools.scoring.anchors.mentions import (
    Mention,
    describe_support,
    find_support,
    supports,
)
from evaltools.scoring.anchors.opposites import opposite_conflicts
from evaltools.scoring.anchors.own_counts import OWN_LIST
from evaltools.scoring.anchors.quantifiers import quantifier_conflicts
from evaltools.scoring.anchors.schedule import (
    clock_times,
    confirmed,
    denied,
    evidence,
    says_only_hours,
    statements,
    times_run_past,
)
from evaltools.scoring.anchors.support_index import SupportIndex
from evaltools.scoring.drift import drift_gate, ngram_overlap
from evaltools.scoring.features import ContextFeatures, QueryFeatures, ResponseFeatures
from evaltools.scoring.matcher import (
    Word,
    abstract_nouns,
    ing_things,
    initials,
    lower_words,
    name_forms,
    name_runs,
    not_nouns,
    paraphrases,
    stem,
    zipf,
)
from evaltools.scoring.result import Anchor
from evaltools.scoring.sources import inside, names_sources, opens_site


@dataclass(frozen=True)
class HallucinationScore:
    hallucination: float
    claims_score: float
    drift_penalty: float
    ngram_overlap: float
    anchors: tuple[Anchor, ...]

    @property
    def anchors_total(self) -> int:
        return sum(1 for a in self.anchors if a.counted)

    @property
    def anchors_unsupported(self) -> int:
        return sum(1 for a in self.anchors if a.counted and not a.supported)

    def to_dict(self) -> dict:
        return {"hallucination": self.hallucination, "claims_score": self.claims_score,
                "drift_penalty": self.drift_penalty, "ngram_overlap": self.ngram_overlap,
                "anchors_total": self.anchors_total,
                "anchors_unsupported": self.anchors_unsupported,
                "anchors": [a.to_dict() for a in self.anchors]}


def claims_score(anchors: Sequence[Anchor]) -> float:
    """``A_unsupported / A_total`` over counted anchors; 0.0 without any.

    Examples
    --------
    >>> a = Anchor("number", "$5", 0, 2, supported=False)
    >>> b = Anchor("date", "2024", 3, 7, supported=True)
    >>> echo = Anchor("number", "20 oz", 8, 13, supported=True, counted=False)
    >>> claims_score([a, b, b, echo]), claims_score([])
    (0.3333333333333333, 0.0)
    """
    counted = [a for a in anchors if a.counted]
    if not counted:
        return 0.0
    return sum(1 for a in counted if not a.supported) / len(counted)


def number_support(m: Mention, near: frozenset[str], context: ContextFeatures
                   ) -> tuple[Mention | None, str]:
    """The context mention that supports ``m`` near the same words, and a note.

    ``near`` holds the content lemmas around ``m`` in the response. Those the
    context uses anywhere are the *checkable* ones; with none, the value alone
    decides (as with ``number_context`` off). Otherwise a matching context
    mention supports ``m`` only when a checkable lemma stands near it too.

    Examples
    --------
    >>> from evaltools.scoring.features import ContextFeatures
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> text = "The Tundra came out in 2008; the company was founded in 2006."
    >>> ms = tuple(find_mentions(text))
    >>> ctx = ContextFeatures(text, None, ms, {}, (frozenset({"tundra", "come"}),
    ...                       frozenset({"company", "found"})),
    ...                       frozenset({"tundra", "come", "company", "found"}))
    >>> claim = find_mentions("The Tundra came out in 2006.")[0]
    >>> found, note = number_support(claim, frozenset({"tundra", "come"}), ctx)
    >>> found is None, note
    (True, "'2006' is in the context, but not near 'come', 'tundra'")
    >>> number_support(claim, frozenset({"found"}), ctx)[0].text
    '2006'
    """
    checkable = near & context.lemmas
    matches = [(f, n) for f, n in zip(context.mentions, context.near, strict=True)
               if supports(m, f)]
    if not matches:
        return None, describe_support(m, None, context.mentions)
    if not checkable:
        f = matches[0][0]
        return f, describe_support(m, f)
    for f, n in matches:
        if n & checkable:
            words = ", ".join(f"'{w}'" for w in sorted(n & checkable))
            return f, f"{describe_support(m, f)}, near {words}"
    words = ", ".join(f"'{w}'" for w in sorted(checkable))
    return None, f"'{matches[0][0].text}' is in the context, but not near {words}"


def echoes_query(claim, query: QueryFeatures) -> bool:
    """Whether every word and value of a claim is one the query states (the response only
    repeats what it was told). Only a statement or an instruction states anything: a
    response that turns a question's words into an answer ("Is the V8 battery
    replaceable?" - "No, the V8 battery is not replaceable.") claims them.

    Examples
    --------
    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import query_features
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> q = query_features(nlp("I heard the Eiffel Tower is in Paris."), load_config())
    >>> [echoes_query(c, q) for c in extract_claims(nlp("The Eiffel Tower is in Paris. "
    ...                                                 "It opened in 1889."))]
    [True, False]
    >>> q = query_features(nlp("Is the Eiffel Tower in Paris?"), load_config())
    >>> [echoes_query(c, q) for c in extract_claims(nlp("The Eiffel Tower is in Paris."))]
    [False]
    """
    if not claim.words or not (query.instruction or query.chat == "statement"):
        return False  # a question states nothing: "No, the V8 battery is not replaceable"
    if any(find_support(m, query.mentions) is None for m in claim.values):
        return False
    return all(any(f in query.keys for f in w.word.forms) for w in claim.words)


#: The Zipf frequency from which a capitalised first word of a sentence that names a role
#: (:func:`role_noun`) is read as written with a capital because it comes first
#: (*Instructor Mariana's class*).
INITIAL_COMMON_ZIPF = 2.5
#: The kinds of person a role noun is, in the shipped WordNet table (``matcher.paraphrases``):
#: *instructor* is an educator, *bartender* an employee, *cashier* a financier; and those a
#: business serves, whom reviews speak of (*a beginner*, *a homeowner*, *regulars*).
ROLE_KINDS = ("worker", "employee", "professional", "educator", "assistant", "artisan",
              "caregiver", "cook", "proprietor", "administrator", "financier", "expert",
              "leader", "official", "physician", "artist", "merchant", "specialist",
              "practitioner", "technician", "attendant", "investigator", "officer",
              "policeman", "soldier", "politician", "legislator", "journalist", "writer",
              "operator", "agent", "host", "hairdresser", "dentist", "pharmacist", "clerk",
              "servant", "performer", "trainer", "customer", "novice", "newcomer", "visitor",
              "householder")
#: What may stand between a sentence's (or a line's, or a list item's) start and its first word.
_SENTENCE_START = re.compile(r"(?:^|[.!?][\"'\u201d\u2019)]*\s+|\n)[ \t]*(?:[-*\u2022][ \t]+|"
                             r"\d{1,2}[.)][ \t]+)?(?:\*\*|__)?$")


#: Initials before a surname (*J.K. Rowling* where the context says *Rowling*).
INITIALS = re.compile(r"(?:[A-Z]\.){1,3}|[A-Z]{2}")


#: A name made of capitals and digits (*the A3*, *the M25*, *a PS5*), which the tagger may
#: take for a common noun.
CODE_NAME = re.compile(r"[A-Z]{1,3}[0-9]{1,4}[A-Z]?")


#: A colon right after a claim, then a list of three or more items in its sentence (two
#: commas at least), or the end of its line (the list's items on the lines after): the claim
#: may name the kind of what the list tells.
_HEADS_LIST = re.compile(r"[ \t]*:(?:[^.!?\n:]{2,300}?,[^.!?\n:]{2,300}?,|[ \t]*\n)")
#: Most words, names and values aside, a claim that heads a list has.
HEADS_LIST_WORDS = 3


def _heads_list(claim, text: str) -> bool:
    """Whether ``claim`` heads the list a colon after it opens: of at most
    :data:`HEADS_LIST_WORDS` words, no name nor value among them, it names the kind of
    what the list tells ("Complaints focus on logistics: a chaotic check-in, a lost
    reservation, and worn boots"; "the most common pre-digital techniques were:" ending its
    line, the items on the lines after); the items are the claims.

    >>> from evaltools.text import load_pipeline
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> heads = lambda text: [_heads_list(c, text) for c in extract_claims(load_pipeline()(text))]
    >>> heads("Photographers used these techniques:\\n- Burning.")
    [True]
    >>> heads("Photographers used these techniques: burning.")
    [False]
    """
    own = [w for w in claim.words if claim.start <= w.word.start < claim.end]
    return (not claim.values and len(own) <= HEADS_LIST_WORDS
            and not any(w.name or w.word.pos == "PROPN" for w in own)
            and _HEADS_LIST.match(text, claim.end) is not None)


def absent_names(claim, context: ContextFeatures,
                 query: QueryFeatures | None = None, text: str = "") -> tuple[str, ...]:
    """The claim's names (capitalised proper nouns, numbers and :data:`TITLES` aside, and
    codes of capitals and digits, :data:`CODE_NAME`) that
    the context never mentions under any form the matcher reads (:meth:`SentenceIndex.locate`:
    codes, name forms, acronyms) and the query does not name either.

    Examples
    --------
    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features, query_features
    >>> from evaltools.text import load_pipeline
    >>> nlp, cfg = load_pipeline(), load_config()
    >>> q = query_features(nlp("Who needs a permit in Spokane?"), cfg)
    >>> c = context_features(nlp("Washington law requires a permit."), cfg)
    >>> [absent_names(x, c, q) for x in extract_claims(nlp(
    ...     "California law requires a permit in Spokane, Washington."))]
    [('California',), ()]

    A run of names whose initials the context writes (*Great Britain* for *GB*) is no absent
    name; a first name the context does not hold is (*Jane Smith* where it has *John Smith*):

    >>> c = context_features(nlp("GB beat John Smith's team."), cfg)
    >>> [absent_names(x, c) for x in extract_claims(nlp("Great Britain beat Jane Smith's team."))]
    [('Jane',)]

    Given the response's ``text``, a word naming a role (:func:`role_noun`) that starts a
    sentence before a name the context holds is capitalised for its place, not a name
    (*Instructor Mariana's class* where the context has *Mariana*); inside a sentence it is
    part of the name, and a first name is a name wherever it stands:

    >>> c = context_features(nlp("Teddy was friendly."), cfg)
    >>> [absent_names(x, c, text=t) for t in ("Cashier Teddy was friendly.",
    ...                                       "The owner said that Cashier Teddy was friendly.")
    ...  for x in extract_claims(nlp(t)) if "Teddy" in x.text]
    [(), ('Cashier',)]
    >>> c = context_features(nlp("Lisa and Amy were friendly."), cfg)
    >>> [absent_names(x, c, text=t) for t in ("Therapists Lisa and Amy were friendly.",)
    ...  for x in extract_claims(nlp(t))]
    [()]

    A name that begins a hyphenated word inside a sentence is a name too:

    >>> c = context_features(nlp("Ms. Hana is a patient pianist."), cfg)
    >>> t = "Ms. Hana is a Juilliard-trained pianist. Patient-first teaching is rare."
    >>> [absent_names(x, c, text=t) for x in extract_claims(nlp(t))]
    [('Juilliard',), ()]

    Initials before a surname the context holds are no absent name, nor is a given name
    where the context writes the surname after a title and after no other name
    (:func:`_given_name`); a given name is where it writes the surname after another, or
    never after a title (*Mariana* of a review is a first name itself):

    >>> c = context_features(nlp("Ms Rowling thanked her readers."), cfg)
    >>> [absent_names(x, c, text=t) for t in ("J.K. Rowling thanked her readers.",
    ...                                       "Joanne Rowling thanked her readers.")
    ...  for x in extract_claims(nlp(t))]
    [(), ()]
    >>> c = context_features(nlp("Ann Rowling thanked her readers."), cfg)
    >>> [absent_names(x, c, text=t) for t in ("Joanne Rowling thanked her readers.",)
    ...  for x in extract_claims(nlp(t))]
    [('Joanne',)]

    So is any word of its own that opens a sentence and that WordNet has as a common word
    (a key of the shipped table, :func:`~evaltools.scoring.matcher.paraphrases`, itself, as
    a singular or by its stem, :func:`~evaltools.scoring.matcher.stem`), as headings and
    lists begin theirs (*Reviewers praise ...*, *Drawbacks: ...*, *Charred foods ...*); a
    first name (*Priyanka*), or a word that begins a run of names, is still a name:

    >>> c = context_features(nlp("The artists were careful. The wall is for kids."), cfg)
    >>> t = ("Overview.\\nReviewers highlight the artists' care.\\n- Drawbacks: the wall is "
    ...      "for kids.\\n- Priyanka praised the wall.")
    >>> [absent_names(x, c, text=t) for x in extract_claims(nlp(t))]
    [(), (), ('Priyanka',)]
    >>> c = context_features(nlp("Foods like toast contain acrylamide."), cfg)
    >>> t = "Overview.\\n-      Charred foods like toast contain acrylamide."
    >>> [absent_names(x, c) for x in extract_claims(nlp(t))], \\
    ...     [absent_names(x, c, text=t) for x in extract_claims(nlp(t))]
    ([('Charred',)], [()])
    """
    return read_names(claim, context, query, text).absent


class NameReading(NamedTuple):
    """How a claim's names stand in the context (:func:`read_names`)."""

    #: the names the context never mentions, as :func:`absent_names` gives them
    absent: tuple[str, ...]
    #: the starts of the names it writes otherwise: short (by initials, *GB*; as one word,
    #: *Physics Forums*; clipped, *Lib Dems*), as the name of a site its passages come from
    #: (*Singularity Hub* of *singularityhub.com*), or a role noun, initials or a given name
    #: before a name it holds (*Instructor Mariana*, *JK Rowling*, *Barack Obama*)
    otherwise: frozenset[int]


def read_names(claim, context: ContextFeatures, query: QueryFeatures | None = None,
               text: str = "") -> NameReading:
    """The claim's names the context never mentions, and those it writes otherwise. A claim
    the context does not support is looked up again without the second
    (:func:`check_anchors`): they are the names the context gives, in its own way.

    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features
    >>> from evaltools.text import load_pipeline
    >>> nlp, cfg = load_pipeline(), load_config()
    >>> c = context_features(nlp("Why It Speeds Up (singularityhub.com)\\nProgress speeds "
    ...                          "up. Rowling wrote."), cfg)
    >>> t = "Singularity Hub says progress speeds up. JK Rowling wrote. Ann Hub wrote."
    >>> [(r.absent, sorted(t[i:i + 3] for i in r.otherwise))
    ...  for r in (read_names(x, c, text=t) for x in extract_claims(nlp(t)))]
    [((), ['Hub', 'Sin']), ((), ['JK ']), (('Ann', 'Hub'), [])]
    """
    keys = query.keys if query is not None else frozenset()
    index = context.index.sentences
    names = sorted((w.word for w in claim.words
                    if (w.word.pos == "PROPN" and w.word.text[:1].isupper() and not w.word.num
                        and w.word.text.rstrip(".").lower() not in TITLES)
                    or CODE_NAME.fullmatch(w.word.text)),
                   key=lambda w: w.start)
    absent = [w for w in names if not any(f in keys for f in w.forms) and not index.locate(w)
              and not _parts_held(w, index)]
    named_by = tuple(_name_in_compound(w.word, index, keys, text) for w in claim.words
                     if w.word.pos != "PROPN")
    named_by = tuple(n for n in named_by if n)
    if not absent:
        return NameReading(named_by, frozenset())
    excused: set[int] = set()
    runs = name_runs(names)
    for run in runs:
        excused.update(w.start for w in _written_short(run, index))
    for run in [*runs, *([w] for w in absent)]:  # "USA Hockey" of www.usahockeyrulebook.com
        if _opens_site(run, context.sites):
            excused.update(w.start for w in run)
    for run in name_runs(names, text) if text else ():
        excused.update(w.start for w in _written_short(run, index, whole=False))
    # "New Year's" where a review writes "New Years", without its apostrophe
    excused.update(w.start for w in absent if text and text[w.end:w.end + 2] in _POSSESSIVE
                   and w.key + "s" in index)
    for run in runs:
        if any(w.start in excused for w in run):
            continue  # written short: every word of it, or a stretch, excused above
        if (text and _SENTENCE_START.search(text, max(0, run[0].start - 40), run[0].start)
                and any(role_noun(k) or k in lower_words()
                        for k in (run[0].text.lower(), run[0].text.lower().removesuffix("s")))
                and all(index.locate(w) for w in run[1:])):
            # "Instructor Mariana", "Therapists Lisa and Amy", "Presenter Miranda Krestovnikoff"
            excused.add(run[0].start)
        elif INITIALS.fullmatch(run[0].text) and all(index.locate(w) for w in run[1:]):
            excused.add(run[0].start)  # "J.K. Rowling", "JK Rowling": the context's "Rowling"
        elif _given_name(run, index):
            excused.add(run[-2].start)  # "Barack Obama" where the context has "Mr Obama"
    otherwise = frozenset(w.start for w in absent if w.start in excused)
    in_runs = {w.start for run in runs for w in run}
    if text:  # "Reviewers praise ...", "- Drawbacks: ...": capitalised for their place
        table, words = paraphrases(), lower_words()
        excused.update(w.start for w in absent if w.start not in in_runs
                       and (any(k in table or k in words for f in w.forms
                                for k in (f.lower(), f.lower().removesuffix("s"),
                                          stem(f.lower())))
                            or _written_lower(w.text, text))  # "- Mapmakers could walk"
                       and _SENTENCE_START.search(text, max(0, w.start - 40), w.start))
    return NameReading(tuple(dict.fromkeys([*(w.text for w in absent
                                              if w.start not in excused), *named_by])),
                       otherwise)


#: Words that join the parts of a hyphenated name without naming anything (*Wednesday-to-
#: Saturday*, *Paris-to-London*).
_PART_JOINERS = frozenset({"to", "and", "or", "through", "thru", "via", "on", "upon", "of"})


#: Words of office written before a surname, besides :data:`TITLES` and role nouns
#: (:func:`role_noun`: *Senator*, *Coach*, *Judge*), that the shipped table does not give as
#: a person's role.
OFFICES = frozenset({
    "president", "prime", "minister", "captain", "officer", "general", "colonel", "sergeant",
    "lieutenant", "commander", "inspector", "constable", "chancellor", "king", "queen",
    "prince", "princess", "pope", "bishop", "rev", "reverend", "pastor", "rabbi", "imam",
    "professor", "justice", "secretary", "ambassador", "councillor", "chairman", "speaker",
    "premier",
})
#: A word this common (Zipf) is read as a word, not a given name (*David* 5.1, *New* 6.3).
GIVEN_NAME_ZIPF = 5.5


def _given_name(run: Sequence, index) -> bool:
    """Whether the word before the last of a run of names is a given name the context
    leaves out: the surname is there after a title or a word of office (:data:`OFFICES`,
    role nouns: *President*, *Coach*, *Mr*), never after another name (*President Barack
    Obama* where it says "President Obama" and "Mr Obama"; not *Richard Wood* where it
    says "Chris Wood"). The word must be no common word: none of the shipped WordNet
    table's, and rarer than :data:`GIVEN_NAME_ZIPF` (*New*, *Will*, *Real* of *Real
    Madrid* are not given names here)."""
    first, last = run[-2], run[-1]
    if (index.locate(first) or not index.locate(last) or not first.text.istitle()
            or not first.text.isalpha() or first.key in paraphrases() or role_noun(first.key)
            or zipf(first.key) >= GIVEN_NAME_ZIPF):
        return False
    before = index.capitalised_before(last)
    return bool(before) and all(k in TITLES or k in OFFICES or role_noun(k) for k in before)


def _parts_held(word, index) -> bool:
    """Whether every part of a hyphenated name but its joiners (:data:`_PART_JOINERS`) is a
    word the context holds, wherever it stands (*a Wednesday-to-Saturday schedule* where the
    record lists those days' hours)."""
    parts = [p for p in word.parts if p not in _PART_JOINERS]
    return len(word.parts) > 2 and "-" in word.text and all(p in index for p in parts)


def _name_in_compound(word, index, keys: frozenset[str], text: str) -> str:
    """The name that begins a hyphenated word inside a sentence (*a Juilliard-trained
    pianist*, *a Michelin-starred chef*) when neither the context, as it is or in its other
    form (:func:`~evaltools.scoring.matcher.name_forms`: *French* for *France*), nor the
    query holds it; else "". A capital at a sentence's start says nothing (*Family-owned*)."""
    first = word.text.split("-", 1)[0]
    if (len(word.parts) < 2 or "-" not in word.text or not first[:1].isupper()
            or not first.isalpha() or first.isupper() or not text
            or _SENTENCE_START.search(text, max(0, word.start - 40), word.start)):
        return ""
    key = word.parts[0]
    if key in keys or key in index or any(f in index for f in name_forms().get(key, ())):
        return ""
    return first


def absent_terms(claim, context: ContextFeatures, query: QueryFeatures | None = None, *,
                 zipf_below: float = 4.0, paraphrase: bool = False,
                 paraphrase_cosine: float = 0.0) -> tuple[str, ...]:
    """The claim's common nouns that are not everyday words (Zipf frequency of the word as
    written below ``zipf_below``, config ``hallucination.term_zipf_below``) and that neither
    the context, under any form claim support reads for the word (:meth:`ContextIndex.holds`:
    its forms, with ``paraphrase`` paraphrases and close static vectors too) or a derivation
    of it (:meth:`~evaltools.scoring.matcher.SentenceIndex.derived_positions`: *recallers*
    where the context says *recall*), nor the query
    uses: what a claim adds that nothing given speaks of (*consultations*, *recipe*,
    *cortisol*). A noun that names the sources
    (:func:`~evaltools.scoring.sources.names_sources`: *passages*) adds nothing, nor one that
    sums up or judges what they say rather than naming a thing (an abstract noun of the
    shipped WordNet table, :func:`~evaltools.scoring.matcher.abstract_nouns`: *hindsight*,
    *practicality*, *warmth*), nor one that names a role a person has (:func:`role_noun`:
    *cashier*, *staffer*, *seamstress*: how overviews call the people reviews speak of, "the
    girl at the register"; as often in faithful overviews as in those with an invented
    detail, docs/validity.md, "Thirtieth round"), nor one that names what someone does by a
    verb and *-ing* (:func:`action_noun`: *booking*, *sightings*; docs/validity.md,
    "Thirty-first round"), nor a word the tagger calls a noun that WordNet knows only as an
    adjective or a verb (:func:`~evaltools.scoring.matcher.not_nouns`: *a curt cashier*,
    *described as calmer*; "Thirty-second round"), nor a decade in words (*from their
    twenties to their eighties*: an age or a decade is a value), nor a compound each of
    whose parts is an everyday word or one the context uses (*the single-stall restroom*
    where the context says "only one stall"), nor a word with a capital inside that the
    context holds as a name is found (*the MoD* where it says "the Ministry of Defence").

    Examples
    --------
    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features, query_features
    >>> from evaltools.text import load_pipeline
    >>> nlp, cfg = load_pipeline(), load_config()
    >>> c = context_features(nlp("Renata does great color work. Parking is free."), cfg)
    >>> [absent_terms(x, c) for x in extract_claims(nlp(
    ...     "Renata offers complimentary consultations. Parking is free."))]
    [('consultations',), ()]

    An everyday noun is no term (*staff*, Zipf 5.1), nor one the query asks about:

    >>> [absent_terms(x, c) for x in extract_claims(nlp("The staff is friendly."))]
    [()]
    >>> [absent_terms(x, c) for x in extract_claims(nlp(
    ...     "Its practicality earns praise. Its sauna earns praise."))]
    [(), ('sauna',)]
    >>> [absent_terms(x, c) for x in extract_claims(nlp(
    ...     "A cashier earns praise. A hammock earns praise."))]
    [(), ('hammock',)]
    >>> q = query_features(nlp("Does Renata offer consultations?"), cfg)
    >>> [absent_terms(x, c, q) for x in extract_claims(nlp("Renata offers consultations."))]
    [()]
    >>> c = context_features(nlp("People who recall dreams react to sounds."), cfg)
    >>> [absent_terms(x, c) for x in extract_claims(nlp(
    ...     "High recallers react to sounds. Sleepwalkers react to sounds."))]
    [(), ('Sleepwalkers',)]
    """
    if zipf_below <= 0:
        return ()
    keys = query.keys if query is not None else frozenset()
    index = context.index
    abstract = abstract_nouns()
    terms = [w for w in claim.words
             if w.word.pos == "NOUN" and not w.name and not w.word.num
             and not any(ch.isdigit() for ch in w.word.text)  # "$120-per-month": a value
             and not names_sources(w.word.text)  # "A few other points from the passages:"
             and w.word.key not in abstract  # "hindsight", "practicality": a judgement
             and w.word.key not in KIND_NOUNS  # "Sicilian cuisine": the record's category
             and not role_noun(w.word.key)  # "a cashier", "a staffer": who reviews speak of
             and not action_noun(w.word.key)  # "rebooking": what the record's verbs say
             and w.word.text.lower() not in not_nouns()  # "a curt cashier": no noun at all
             and w.word.text.lower() not in DECADE_WORDS  # "in their twenties": an age
             and zipf(w.word.text.lower()) < zipf_below
             and not any(f in keys for f in w.word.forms)
             and not index.holds(w, paraphrase, paraphrase_cosine)
             and not index.sentences.derived_positions(w.word)
             and not (w.word.text[1:] != w.word.text[1:].lower()  # "MoD": as names are found
                      and index.sentences.locate(w.word))
             and not (len(w.word.parts) > 1 and all(  # "single-stall": "only one stall"
                 p in index.sentences or zipf(p) >= zipf_below  # "hail-damage": "hailstorm"
                 or index.sentences.opens_compound(p, zipf_below) for p in w.word.parts))
             and not index.sentences.initials_run(w.word, [c.word for c in claim.words])[0]]
    return tuple(dict.fromkeys(w.word.text for w in sorted(terms, key=lambda w: w.word.start)))


def action_noun(key: str) -> bool:
    """Whether ``key`` (a noun's lower-case key) names what someone does by a verb and
    *-ing* (*booking*, *scheduling*, *sightings*, *rebooking*): an *-ing* noun that is none of
    the shipped WordNet table's things (:func:`~evaltools.scoring.matcher.ing_things`:
    *painting*, *frosting*). A record says such an act with its verb (*book ahead*, *saw
    dolphins*), so the noun adds nothing of its own.

    >>> [action_noun(w) for w in ("booking", "sightings", "rebooking", "painting", "bingo")]
    [True, True, True, False, False]
    """
    one = key[:-1] if key.endswith("ings") else key
    return one.endswith("ing") and one not in ing_things()


#: Endings of the nouns that name a quality (*craftsmanship*, *friendliness*, *availability*,
#: *consistency*; not *pharmacy*).
QUALITY_ENDINGS = ("ship", "ness", "ity", "ncy")


def quality_noun(word) -> bool:
    """Whether ``word`` (a matcher word) is a noun that names a quality: an abstract noun of
    the shipped WordNet table (:func:`~evaltools.scoring.matcher.abstract_nouns`) with one of
    :data:`QUALITY_ENDINGS`. In an overview of a record's reviews it is what a reviewer
    judged, which the review says its own way ("praise the craftsmanship" where it says
    "beautiful stitching"): in the written probe's overviews of batches 1-166, such nouns
    were named absent in faithful claims 39 times and once inside an edit (docs/validity.md,
    "Forty-sixth round").

    >>> from evaltools.scoring.matcher import words_of
    >>> from evaltools.text import load_pipeline
    >>> [(w.text, quality_noun(w)) for w in words_of(load_pipeline()(
    ...     "craftsmanship and friendliness, a clinic, a pharmacy and a sauna")) if w.content]
    [('craftsmanship', True), ('friendliness', True), ('clinic', False), ('pharmacy', False), \
('sauna', False)]
    """
    return (word.pos == "NOUN" and word.key in abstract_nouns()
            and word.text.lower().endswith(QUALITY_ENDINGS))


def _judged_quality(w) -> bool:
    """Whether the claim word ``w`` is a quality a reviewer judged (:func:`quality_noun`)
    standing as a head (*praise the craftsmanship*), not naming a kind of another thing (*a
    lifetime workmanship warranty*, an invented detail of the written probe)."""
    return w.head and quality_noun(w.word)


def role_noun(key: str) -> bool:
    """Whether ``key`` (a lower-case word) names a role a person has, by the shipped WordNet
    table (a kind of one of :data:`ROLE_KINDS`), and is common enough (Zipf >=
    :data:`INITIAL_COMMON_ZIPF`). First names are not, but for a few that are also trades.

    >>> [role_noun(w) for w in ("instructor", "cashier", "bartender", "jane", "peter", "victor")]
    [True, True, True, False, False, False]
    >>> [role_noun(w) for w in ("beginner", "homeowner", "regular", "sauna")]
    [True, True, True, False]
    """
    return key in _role_nouns() and zipf(key) >= INITIAL_COMMON_ZIPF


def misplaced_roles(units: Sequence, index) -> tuple[tuple[int, int, str], ...]:
    """A role written right before a name (*owner Dana*, *instructor Tomás*) that the
    context gives only to someone else: the name stands in the context, the role too, never
    in one sentence together, the role stands beside another name (*the owner, Mike*;
    *Owner Mike*: :func:`_beside_role`), and no sentence with the name says what the role
    does (*90 min with Marcus coaching* for *coach Marcus*). Each as (start, end, the response's
    words): a role moved from one person to another, the swap of two people an overview may
    make. ``units`` are the response's words, ``index`` the context's
    (:class:`~evaltools.scoring.matcher.SentenceIndex`).

    >>> from evaltools.scoring.matcher import SentenceIndex, words_of
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> index = SentenceIndex(nlp("Dana rang us up. The owner, Mike, fixed the bike."))
    >>> misplaced_roles(words_of(nlp("Owner Dana fixed the bike.")), index)
    ((0, 10, 'Owner Dana'),)
    >>> misplaced_roles(words_of(nlp("Owner Mike fixed the bike.")), index)
    ()
    >>> misplaced_roles(words_of(nlp("Owner Dana fixed it.")),
    ...                 SentenceIndex(nlp("Dana, the owner, fixed it. The owner is kind.")))
    ()

    The role stands right before the name, a space between (the parser's tag is not asked:
    it reads *guide Hank took us* as a verb), not a word a stop sets apart (*Face ID was
    still working; Dana explained*, where the context has *Mike was working*):

    >>> index = SentenceIndex(nlp("Dana rang us up. The cashier, Mike, was working."))
    >>> [misplaced_roles(words_of(nlp(t)), index) for t in (
    ...     "Face ID was still working; Dana explained it.", "Cashier Dana fixed it.")]
    [(), ((0, 12, 'Cashier Dana'),)]
    """
    found = []
    for role, name in itertools.pairwise(units):
        key = role.key
        if (name.sent != role.sent or name.pos != "PROPN" or not name.text[:1].isupper()
                or name.start - role.end != 1
                or name.text.rstrip(".").lower() in TITLES
                or not (role_noun(key) or key in RELATION_NOUNS)):
            continue
        with_name = {index.sentence_of(j) for j in index.locate(name)}
        with_role = index.sentences(key)
        if not with_name or not with_role or with_name & with_role:
            continue
        others = any(index.pos_at(k) == "PROPN" and index.is_capitalised(k)
                     and index.sentence_of(k) == index.sentence_of(j)
                     and index.key_at(k) not in name.forms
                     and index.folded_at(k) not in name.forms
                     for j in index.positions(key) for k in _beside_role(index, j))
        if others and not any(index.sentence_of(j) in with_name
                              for j in index.derived_positions(role)):
            # not where the name's sentence says what the role does: "90 min with Marcus
            # coaching" for *coach Marcus*
            found.append((role.start, name.end, f"{role.text} {name.text}"))
    return tuple(found)


def _beside_role(index, j: int) -> tuple[int, ...]:
    """Where a name given the role at position ``j`` of ``index`` may stand: within two
    words of a role in lower case (*the owner, Mike*; *Mike, our instructor*), right after
    one written as a title (*Owner Mike*); none after a role inside a run of capitals (a
    category's *Mobile Notary Services*)."""
    if not index.is_capitalised(j):
        return tuple(k for k in (j - 2, j - 1, j + 1, j + 2) if 0 <= k < index.size)
    first = j == 0 or index.sentence_of(j - 1) != index.sentence_of(j)
    if j + 1 < index.size and (first or not index.is_capitalised(j - 1)):
        return (j + 1,)
    return ()


@functools.lru_cache(maxsize=1)
def _role_nouns() -> frozenset[str]:
    """Every word the shipped WordNet table gives as a kind of one of :data:`ROLE_KINDS`."""
    table = paraphrases()
    return frozenset(w for k in ROLE_KINDS for w in table.get(k, ()))


def _written_lower(word: str, text: str) -> bool:
    """Whether ``text`` also writes ``word`` in lower case (*mapmakers* of *doesn't name
    specific mapmakers*): a common word where it opens a sentence or a list item."""
    low = word.lower()
    return low != word and re.search(rf"\b{re.escape(low)}\b", text) is not None


#: A possessive's ending, as the response may write it.
_POSSESSIVE = frozenset({"'s", "\u2019s"})


def _written_short(run: Sequence, index, whole: bool = True) -> list:
    """The words of a run of names (:func:`~evaltools.scoring.matcher.name_runs`) that the
    context writes short: a stretch of them whose initials the context holds (*Great
    Britain* for *GB*, with ``whole`` the whole run; else three or more: *Sussex Police and
    Crime Commissioner* for *Sussex PCC*, not *Egypt and Lebanon* for an *El*), whose
    words it writes as one (*Physics Forums* for *www.physicsforums.com*), or each clipped
    (:meth:`~evaltools.scoring.matcher.SentenceIndex.holds_clipped`: *Liberal Democrats*
    for *Lib Dems*).

    >>> from evaltools.scoring.matcher import SentenceIndex, words_of
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> idx = SentenceIndex(nlp("Sussex PCC Katy Bourne wrote (www.physicsforums.com)."))
    >>> ws = {w.text: w for w in words_of(nlp("Police Crime Commissioner Physics Forums Bob"))}
    >>> [w.text for w in _written_short([ws["Police"], ws["Crime"], ws["Commissioner"]], idx)]
    ['Police', 'Crime', 'Commissioner']
    >>> [w.text for w in _written_short([ws["Physics"], ws["Forums"], ws["Bob"]], idx)]
    ['Physics', 'Forums']
    >>> _written_short([ws["Crime"], ws["Commissioner"], ws["Bob"]], idx)
    []
    """
    found: list = []
    n = len(run)
    for i in range(n):
        for j in range(i + 2, n + 1):
            part = run[i:j]
            short = initials(part)
            by_initials = ((whole and j - i == n) or j - i >= 3) and index.positions(short)
            if (by_initials or index.positions("".join(w.key for w in part))
                    or index.holds_clipped([w.key for w in part])):
                found.extend(w for w in part if w not in found)
    return found


def _opens_site(run: Sequence, sites: frozenset[str]) -> bool:
    """Whether a run of names, its words written as one, of five letters or more, opens the
    name of a web site the context's passages come from (*USA Hockey* of
    *www.usahockeyrulebook.com*; ``sites`` as :func:`~evaltools.scoring.sources.site_names`
    reads them).

    >>> from evaltools.scoring.matcher import words_of
    >>> from evaltools.text import load_pipeline
    >>> ws = {w.text: w for w in words_of(load_pipeline()("USA Hockey and NHL Jones"))}
    >>> sites = frozenset({"usahockeyrulebook", "nhl"})
    >>> [_opens_site(run, sites) for run in ([ws["USA"], ws["Hockey"]], [ws["USA"]],
    ...                                      [ws["NHL"]], [ws["Hockey"]])]
    [True, False, False, False]
    """
    return opens_site("".join(w.key for w in run), sites)


def absent_amenities(claim, context: ContextFeatures, amenities: frozenset[str],
                     offering: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The words of ``claim`` that name an amenity (one of ``amenities``, config
    ``hallucination.amenities``, by any of the word's forms), or the object of a verb that
    offers it (one of ``offering``, config ``hallucination.offering_verbs``: *offers free
    hemming*, *handles installation*), which the context never mentions under any form the
    matcher reads. Asked of a business's records only (a JSON record with reviews or weekly
    hours): such a record lists what its business has and offers, so an amenity it never
    mentions is one the response adds.

    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features
    >>> from evaltools.text import load_pipeline
    >>> nlp, cfg = load_pipeline(), load_config()
    >>> c = context_features(nlp("categories: Gyms. wifi: free. Great trainers."), cfg)
    >>> [absent_amenities(x, c, frozenset(cfg.hallucination.amenities))
    ...  for x in extract_claims(nlp("The gym offers free Wi-Fi and a sauna."))]
    [(), ('sauna',)]

    An amenity the claim denies is none it adds (*no in-house delivery*):

    >>> [absent_amenities(x, c, frozenset(cfg.hallucination.amenities))
    ...  for x in extract_claims(nlp("The gym has no sauna."))]
    [()]

    What the business is said to offer, not what a person the reviews name gave on a visit,
    nor a passive's subject:

    >>> c = context_features(nlp("categories: Tailors. Great alterations, fast hems."), cfg)
    >>> verbs = frozenset(cfg.hallucination.offering_verbs)
    >>> [absent_amenities(x, c, frozenset(), verbs) for x in extract_claims(nlp(
    ...     "The shop offers alterations. The shop also offers free shipping. The shop does "
    ...     "not offer shipping. Shipping costs extra. Dana offered free shipping. Shipping "
    ...     "is handled by the staff."))]
    [(), ('shipping',), (), (), (), ()]
    """
    offered = _offers(claim, offering)
    index = context.index.sentences
    return tuple(dict.fromkeys(
        w.word.text for w in claim.words
        if not w.negated and (
            any(f in amenities for f in w.word.forms)
            or (offered and w.role == "predicate" and w.head and w.word.pos != "PROPN"
                and claim.object in (w.word.key, *w.word.forms)))
        and not index.locate(w.word)))


def absent_relations(claim, context: ContextFeatures) -> tuple[str, ...]:
    """The word by which ``claim`` says what a named person is to the place or to another
    person (:attr:`~evaltools.scoring.anchors.claims.Claim.relations`: *Theo, the studio's
    founder*; *Ana is the owner*),
    where the context never uses it under any form the matcher reads. Asked of a business's
    records only: a founder or an owner the record and its reviews never name is one the
    response invents. Not a reviewer who owns a dog (*one owner said ...*: the subject).

    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features
    >>> from evaltools.text import load_pipeline
    >>> nlp, cfg = load_pipeline(), load_config()
    >>> c = context_features(nlp("We watched Theo make a vase. Ana, the owner, was kind."), cfg)
    >>> [absent_relations(x, c) for x in extract_claims(nlp(
    ...     "Theo, the studio's founder, made a vase. Ana, the owner, was kind. "
    ...     "One owner said her dog loved it."))]
    [('founder',), (), (), ()]
    """
    if claim.negated or not any(w.role == "subject" and w.name for w in claim.words):
        return ()
    index = context.index.sentences
    return tuple(w.word.text for w in claim.relations if not index.locate(w.word))


def _offers(claim, verbs: frozenset[str]) -> bool:
    """Whether ``claim`` says the business offers its object: an affirmed, active verb of
    ``verbs`` in the present, whose subject is no name. A person the reviews name (*Owner
    Renee gives a low-pressure introduction*, *Dan handled the sale*) and a verb in the past
    (*the team offered advice*, *offered a taste of burnt ends*) tell what happened on a
    visit: of the written probe's invented offers that a record never mentions, none has a
    verb in the past with a direct object
    (:attr:`~evaltools.scoring.anchors.claims.Claim.past`; docs/validity.md,
    "Forty-sixth round").

    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.text import load_pipeline
    >>> verbs = frozenset({"offer", "sell"})
    >>> claims = extract_claims(load_pipeline()(
    ...     "The shop offers free hemming. The team offered advice. Dan sells kites. "
    ...     "The shop sold us a kite. The ceremony, with beans roasted at the table and "
    ...     "offered with popcorn, is a highlight."))
    >>> [_offers(c, verbs) for c in claims if c.verb in verbs]
    [True, False, False, False, True]
    """
    return (bool(verbs) and not claim.negated and claim.verb in verbs and bool(claim.object)
            and claim.kind != "passive" and not any(
                w.role == "subject" and w.head and w.word.pos == "PROPN" for w in claim.words)
            and not claim.past)


#: A denial right before a phrase: "*no* in-house delivery", "is *not* homemade".
_DENIED_BEFORE = re.compile(r"(?i)(?:\b(?:no|not|without|never)|n['\u2019]t)\s+$")


#: The two words after a word (*bar service* of *in-house bar service*).
_TWO_WORDS = re.compile(r"\s+([A-Za-z]+)\s+([A-Za-z]+)\b")


def _squeezed(text: str) -> str:
    """Lower case without spaces or hyphens: *family-owned*, *Family owned* and *familyowned*
    read alike."""
    return re.sub(r"[\s\u00a0-]+", "", text.lower())


@dataclass(frozen=True)
class Provenance:
    """Claims of where a business's goods come from and who runs it (config
    ``hallucination.provenance``: each entry one claim's ways of writing it, ``|`` between
    them: ``"family-owned|family-run"``), which a business's record states if they are so.

    >>> p = Provenance.from_config(("family-owned|family-run", "house-made|homemade"))
    >>> p.absent("A family-owned diner with homemade pie.", "Our homemade pie is the best.")
    ((2, 14, 'family-owned'),)
    >>> p.absent("A family run diner.", "A diner run by the Family Run group.")
    ()

    A way the response denies is no claim (*no in-house delivery*, *not homemade*):

    >>> p.absent("No in-house delivery; the pie is not homemade.", "Pie.")
    ()

    *In-house* before two words the context writes together names the business's own
    service the record speaks of (*the in-house bar service* where a review says "you have
    to use their bar service"); before others it is a claim:

    >>> p = Provenance.from_config(("in-house|house-made",))
    >>> p.absent("An in-house bar service and an in-house bakery.", "Use their bar service.")
    ((31, 39, 'in-house'),)
    """

    pattern: re.Pattern | None
    #: each claim's ways of writing it, :func:`_squeezed`
    groups: tuple[frozenset[str], ...]

    @classmethod
    def from_config(cls, entries: Sequence[str]) -> Provenance:
        ways = [[v.strip() for v in e.split("|") if v.strip()] for e in entries]
        variants = sorted({v for w in ways for v in w}, key=len, reverse=True)
        if not variants:
            return cls(None, ())
        alt = "|".join(r"[\s\u00a0-]*".join(map(re.escape, re.split(r"[\s-]+", v)))
                       for v in variants)
        return cls(re.compile(rf"(?i)(?<![\w-])(?:{alt})(?![\w-])"),
                   tuple(frozenset(map(_squeezed, w)) for w in ways if w))

    def absent(self, text: str, context: str) -> tuple[tuple[int, int, str], ...]:
        """``(start, end, text)`` of each claim of ``text`` none of whose ways of writing
        the ``context`` holds."""
        if self.pattern is None:
            return ()
        found = list(self.pattern.finditer(text))
        if not found:
            return ()
        held = _squeezed(context)
        out = []
        for m in found:
            if _DENIED_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue
            if _squeezed(m.group()) == "inhouse":
                pair = _TWO_WORDS.match(text, m.end())
                if pair is not None and re.search(
                        rf"(?i)\b{re.escape(pair.group(1))}\s+{re.escape(pair.group(2))}\b",
                        context):
                    continue  # "the in-house bar service": "use their bar service"
            said = _squeezed(m.group())
            group = next((g for g in self.groups if said in g), (said,))
            if not any(v in held for v in group):
                out.append((m.start(), m.end(), m.group()))
        return tuple(out)


def said_in_words(said: tuple[int, int, str], units: Sequence[Word], index) -> bool:
    """Whether the context holds every word of a claim of provenance ``said`` (its
    ``(start, end, text)`` in the response, :meth:`Provenance.absent`) together in one
    sentence under any form the matcher reads, where it writes the claim another way
    (*made by hand* where a review says "they make them by hand", *insured* where it says
    "they insure it"; not *every morning* where it says "one morning").

    >>> from evaltools.scoring.matcher import SentenceIndex, words_of
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> idx = SentenceIndex(nlp("They make the tortillas by hand. They insure it. One morning."))
    >>> text = "Tortillas are made by hand every morning, and it is insured and bonded."
    >>> ws = words_of(nlp(text))
    >>> [said_in_words((m, m + len(w), w), ws, idx) for w in (
    ...     "made by hand", "insured", "bonded", "every morning") for m in [text.index(w)]]
    [True, True, False, False]

    Or each word in a sentence that holds the noun the claim describes, right before or
    after it (*tortillas made fresh* where one review says "the tortillas are made on the
    comal" and another "fresh tortillas"; not *made fresh daily*, which no sentence with the
    tortillas says):

    >>> idx = SentenceIndex(nlp("The tortillas are made on the comal. It has fresh tortillas."))
    >>> text = "Tortillas made fresh. Salsa made fresh. Tortillas made fresh daily."
    >>> ws = words_of(nlp(text))
    >>> [said_in_words((m, m + len(w), w), ws, idx) for m, w in (
    ...     (10, "made fresh"), (28, "made fresh"), (50, "made fresh daily"))]
    [True, False, False]
    """
    start, end, _ = said
    words = [w for w in units if start <= w.start < end]
    if not words:
        return False
    found = [{index.sentence_of(p) for p in index.locate(w)} for w in words]
    if set.intersection(*found):
        return True
    k = next(i for i, w in enumerate(units) if w.start >= start)
    nouns = [units[j] for j in (k - 1, k + len(words)) if 0 <= j < len(units)
             and units[j].pos in ("NOUN", "PROPN") and units[j].sent == words[0].sent
             and (0 <= start - units[j].end <= 1 or 0 <= units[j].start - end <= 1)]
    for noun in nouns:
        with_noun = {index.sentence_of(p) for p in index.locate(noun)}
        if all(f & with_noun for f in found):
            return True
    return False


#: A record's rating: the value right after a key that ends in "stars" (read as
#: "business stars rating: 3.5", "review information review stars rating: 5.0").
_RATING_KEY = re.compile(r"(?:^|[.:;]\s)([^.:;]*?)\bstars rating: $")
#: A response's rating: "a 4.0-star rating", "4 stars", "4.5 out of 5", "rated 4.0".
_RATING_AFTER = re.compile(r"(?i)[- ]?(?:stars?\b|out of (?:5|five)\b)")
_RATING_BEFORE = re.compile(r"(?i)\b(?:rating of|rated|rates|average of)\s+$")
#: Words that make a rating one reviewer's: "one reviewer gave it 4 stars".
_ONE_REVIEW = re.compile(r"(?i)\b(?:reviews?|reviewers?|gave|give|gives|giving)\b")
#: A rating right before a person who gave it: "one four-star customer", "a 5-star guest".
_RATING_PERSON = re.compile(r"(?i)(?:[- ]?stars?)?[ \u00a0]+(?:customers?|diners?|guests?|"
                            r"clients?|patients?|visitors?|shoppers?|patrons?|buyers?)\b")


def record_ratings(context: ContextFeatures) -> tuple[Mention, ...]:
    """A business record's own ratings (``business_stars``), when it also gives its
    reviews' (``review_stars``); else empty: then a rating is read by value alone.

    Examples
    --------
    >>> from evaltools.scoring.features import ContextFeatures
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> ctx = ("business stars rating: 3.5. review information review stars rating: 4.0. "
    ...        "review information review text: Great.")
    >>> [r.text for r in record_ratings(ContextFeatures(ctx, None, tuple(find_mentions(ctx)),
    ...                                                 {}, structured=True))]
    ['3.5']
    """
    if not context.structured:
        return ()
    own, reviews = [], False
    for f in context.mentions:
        key = _RATING_KEY.search(context.text, max(0, f.start - 80), f.start)
        if key is None:
            continue
        if "review" in key.group(1):
            reviews = True
        else:
            own.append(f)
    return tuple(own) if reviews else ()


def is_own_rating(m: Mention, text: str, sentence: tuple[int, int]) -> bool:
    """Whether the response's mention ``m`` states a business's rating ("has a 4.0-star
    rating", "rated 4.0", "4.5 out of 5") and its sentence (``sentence``: start and end
    offsets in ``text``) speaks of no review: "one reviewer gave it 4 stars" is a review's.

    A business record gives its own rating and each review's; the response's own rating is
    checked against the record's only (:func:`record_ratings`), so a review's 4.0 does not
    support it when the business's rating is 3.5.

    Examples
    --------
    >>> said = "It has a 4.0-star rating. One reviewer gave it 4.0 stars. It opened in 2001."
    >>> from evaltools.scoring.anchors.mentions import find_mentions
    >>> first, second, third = find_mentions(said)
    >>> [is_own_rating(first, said, (0, 25)), is_own_rating(second, said, (26, 57)),
    ...  is_own_rating(third, said, (58, len(said)))]
    [True, False, False]

    A rating right before the person who gave it is that person's review:

    >>> said = "One four-star customer paid $75. A four-star salon."
    >>> first, _, third = find_mentions(said)
    >>> [is_own_rating(first, said, (0, 32)), is_own_rating(third, said, (33, len(said)))]
    [False, True]
    """
    if not (_RATING_AFTER.match(text, m.end) or "star" in m.text.lower()
            or _RATING_BEFORE.search(text, max(0, m.start - 20), m.start)):
        return False
    if _RATING_PERSON.match(text, m.end):
        return False  # "one four-star customer": the customer's review
    return _ONE_REVIEW.search(text, *sentence) is None


#: What an overview says when it generalises past a record's reviews: *always* (not "not
#: always"), *invariably*, *widely considered*, *many consider*, *the best ... in* a place,
#: *the city's best*, *nearly every night*.
#: Case matters: "Always" in a title ("We Have Always Lived in the Castle") is no claim.
_GENERALISES = re.compile(
    r"\b(?:(?<!not )(?<!n't )always|invariably|universally|without exception"
    r"|widely (?:considered|regarded|known|seen|praised|recognized|recognised)"
    r"|many (?:consider|call|regard)"
    r"|(?:the|its) (?:best|finest)\b[^.;:,]{0,40}?\b(?:in|on) (?:the )?"
    r"(?:[A-Z]|town\b|city\b|area\b)"
    r"|the (?:city|town|area|neighbou?rhood|region)(?:'s|’s) (?:best|finest|top)\b"
    r"|(?:nearly|almost|virtually) every (?:night|day|weekend|evening|morning|visit|time)\b)")


def generalises(text: str) -> str | None:
    """The words by which a claim generalises past what a record's reviews say, or None.

    Read only in an unsupported claim of an overview of a business's record: a review
    says "packed on Friday", the overview "always packed"; a review says "my favorite",
    the overview "widely considered the best in Boise".

    Examples
    --------
    >>> generalises("the store is widely considered the best guitar shop in Boise")
    'widely considered'
    >>> generalises("among the best tacos in town")
    'the best tacos in town'
    >>> generalises("the hall is always packed")
    'always'
    >>> generalises("it is not always packed") is None
    True
    >>> generalises("We Have Always Lived in the Castle") is None
    True
    >>> generalises("new stock arrives every Thursday") is None
    True
    >>> generalises("it does the city's best resoling"), generalises("a line nearly every night")
    ("the city's best", 'nearly every night')
    >>> generalises("the city's bus stops nearby") is None
    True
    """
    m = _GENERALISES.search(text)
    return m.group() if m else None


def said_of_subject(said: str, claim, context: ContextFeatures) -> bool:
    """Whether a sentence of the context holds the generalising words ``said`` (every word
    of them) and the claim's subject (every claim word where it names none): the record's
    own generalisation, which a paraphrase restates ("Tony always explains what can wait"
    of a review's "Tony always tells us what can wait"), not one past it.

    >>> from evaltools.config import load_config
    >>> from evaltools.scoring.anchors.claims import extract_claims
    >>> from evaltools.scoring.features import context_features
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> ctx = context_features(nlp("We came twice. Tony always tells us what can wait."),
    ...                        load_config())
    >>> said = lambda text: said_of_subject("always", extract_claims(nlp(text))[0], ctx)
    >>> said("Tony always explains what can wait."), said("The line is always long.")
    (True, False)
    """
    idx = context.index.sentences
    keys = re.findall(r"[a-z]+", said.lower())
    held = frozenset.intersection(*(idx.sentences(k) for k in keys)) if keys else frozenset()
    words = [w for w in claim.words if w.role == "subject"] or list(claim.words)
    return bool(held) and any(held & idx.find(w.word) for w in words)


def _sentence_at(response: ResponseFeatures, start: int, end: int) -> tuple[int, int]:
    """The span of the response's sentence holding ``start``, without its surrounding
    spaces (``start``/``end`` when no sentence holds it): a claim anchor for words no
    claim holds."""
    lo, hi = next(((lo, hi) for lo, hi in response.sentences if lo <= start < hi),
                  (start, end))
    sentence = response.text[lo:hi]
    return (lo + len(sentence) - len(sentence.lstrip()),
            hi - (len(sentence) - len(sentence.rstrip())))


def check_anchors(response: ResponseFeatures, context: ContextFeatures,
                  query: QueryFeatures | None = None, *, min_share: float = 0.5,
                  rare_above: float = 0.55, head_rare_above: float = 0.45,
                  count_query_anchors: bool = False,
                  number_context: bool = False, claim_window: int = 0,
                  paraphrase: bool = False,
                  paraphrase_cosine: float = 0.0,
                  amenities: frozenset[str] = frozenset(),
                  offering: frozenset[str] = frozenset(),
                  provenance: Provenance | None = None,
                  term_zipf_below: float = 0.0) -> tuple[Anchor, ...]:
    """Every anchor of the response with its support in the context, in text order.

    With ``number_context`` (features built with config
    ``hallucination.number_context``), numbers and dates are checked near
    their words; else by value alone. A claim the context does not support whose
    every word and value the query states ("i love cheerleading" to "i love
    cheerleading!") only echoes the query: shown, not counted.
    """
    anchors: list[Anchor] = []
    query_mentions = query.mentions if query is not None and not count_query_anchors else ()
    index = SupportIndex(context.mentions) if not number_context else None
    declined = response.about_sources  # abstentions and attributions

    def about_sources(start: int) -> bool:
        return inside(declined, start)

    # counts that are the response's own (its points or list items, or things it names:
    # "the two"), found once with the features for anchors, claims and grounding
    own_counts = dict(response.own_counts)
    # the response's clock times, read once for what it says of a record's hours: "open
    # after midnight on weekends" (a time the hours run past) and its days and hours
    times = clock_times(response.mentions) if context.week is not None else []
    past = times_run_past(response.text, times, context.week) if times else {}
    echoed: set[int] = set()  # numbers the query states too, found below for the claims
    # a business record's own rating, beside its reviews': what the response's rating is
    # checked against ("has a 4.0-star rating" where the record's is 3.5), read once
    ratings = record_ratings(context)
    # ages the response binds to names (*Daniel Timbers, 29,*), against the context's, read
    # there only when the response binds one
    response_ages = bound_ages(response.text)
    ages_at = {a[0] for a in response_ages}
    context_ages = None

    for k, m in enumerate(response.mentions):
        if about_sources(m.start):  # "the passages do not give the 2019 price": not counted
            anchors.append(Anchor(m.kind, m.text, m.start, m.end, False,
                                  note="in a statement about the sources (declining to "
                                       "answer, saying where the answer comes from, or "
                                       "introducing the response); not counted",
                                  counted=False))
            continue
        if m.start in own_counts:
            anchors.append(Anchor(m.kind, m.text, m.start, m.end, False,
                                  note=f"{own_counts[m.start]}; not counted", counted=False))
            continue
        if m.start in past:
            anchors.append(Anchor(m.kind, m.text, m.start, m.end, True,
                                  note=f"the record's hours run past it ({past[m.start]})"))
            continue
        if ratings and m.kind == "number" and is_own_rating(
                m, response.text, _sentence_at(response, m.start, m.end)):
            found = find_support(m, ratings)
            note = (describe_support(m, found) if found is not None else
                    f"the record's own rating is {', '.join(r.text for r in ratings)} "
                    f"(a review's rating is one reviewer's)")
        elif number_context:
            found, note = number_support(m, response.near[k], context)
        else:
            found = index.find(m)
            note = describe_support(m, found, index.candidates(m))
        if found is not None and m.kind == "number" and m.start in ages_at:
            # "Daniel Timbers, 56," where the article says "Daniel Timbers, 29,"
            if context_ages is None:
                context_ages = bound_ages(context.text)
            swapped = age_conflict(m.start, response_ages, context_ages)
            if swapped is not None:
                found, note = None, swapped
        echo = find_support(m, query_mentions) is not None
        if echo:
            echoed.add(m.start)
        suffix = "; restated from the query, not counted" if echo else ""
        if found is None:
            anchors.append(Anchor(m.kind, m.text, m.start, m.end, False,
                                  note=f"{note}{suffix}", counted=not echo))
        else:
            anchors.append(Anchor(m.kind, m.text, m.start, m.end, True, found.text,
                                  found.start, found.end, note=f"{note}{suffix}",
                                  counted=not echo))
    support = functools.partial(context.index.support, min_share=min_share,
                                rare_above=rare_above, head_rare_above=head_rare_above,
                                window=claim_window, paraphrase=paraphrase,
                                paraphrase_cosine=paraphrase_cosine)
    # a business's record (reviews or weekly hours): it lists what the business has and is
    business = context.structured and (context.reviews or context.week is not None)
    unstated = ()  # "a family-owned diner" where a business's record never says so
    if provenance is not None and business:
        unstated = tuple(u for u in provenance.absent(response.text, context.text)
                         if not about_sources(u[0])
                         and not said_in_words(u, response.units, context.index.sentences))
    if business and context.reviews:  # "owner Dana" where the reviews' owner is Mike
        unstated += tuple(u for u in misplaced_roles(response.units, context.index.sentences)
                          if not about_sources(u[0]))
    for c in response.claims:
        if about_sources(c.start):
            # "According to the passages, factories made trucks": the claim goes on after the
            # attribution, and from its first word outside it, it is checked as any claim
            after = [w.word.start for w in c.words if not about_sources(w.word.start)]
            after += [v.start for v in c.values if not about_sources(v.start)]
            if not after:
                continue
            start = min(after)
            # (a claim's subject may stand after its span: "here is an overview of ...")
            end = max(c.end, *(w.word.end for w in c.words), *(v.end for v in c.values))
            c = dataclasses.replace(c, start=start, end=end, text=response.text[start:end])
        # "it happens in three steps:", "squinting does two useful things:": a line that
        # introduces the response's own points states no fact of the context
        introduces = any(own_counts.get(v.start) == OWN_LIST for v in c.values) or (
            _heads_list(c, response.text))
        # values that are the response's own counts, run past the record's hours, stand in
        # a statement about the sources or restate the query ("whether the creditor owed
        # $1M gets paid" to "I have $1M debt") are no facts the claim needs the context for
        kept = tuple(v for v in c.values if v.start not in own_counts and v.start not in past
                     and not about_sources(v.start) and v.start not in echoed)
        if len(kept) < len(c.values):
            c = dataclasses.replace(c, values=kept)
        if any(about_sources(w.word.start) for w in c.words):  # "according to passage 3, ..."
            c = dataclasses.replace(c, words=tuple(
                w for w in c.words if not about_sources(w.word.start)))
        if context.reviews and any(w.word.key in REVIEW_FRAMING or _judged_quality(w)
                                   for w in c.words):
            # a record's reviews: who said what and how they lean weigh nothing, as in
            # grounding ("guests report mixed experiences", "a well-regarded gym"), nor the
            # quality a reviewer judged ("praise the craftsmanship")
            c = dataclasses.replace(c, words=tuple(
                w for w in c.words
                if w.word.key not in REVIEW_FRAMING and not _judged_quality(w)))
            if not c.values and all(w.role == "subject" and w.word.key in ENTITY_NOUNS
                                    for w in c.words):
                continue  # nothing left but the place itself: "the store is cramped"
        s = support(c)
        if not s.supported and s.contradiction is None and c.antecedent and any(
                w.role == "subject" and w.head and context.index.sentences.find(w.word)
                for w in c.words):
            # "the striker scored twice": read as the name it stands for, said before, when
            # the context too calls something a striker
            named = support(dataclasses.replace(c, words=c.antecedent + tuple(
                w for w in c.words if w.role != "subject")))
            if named.supported:
                name = " ".join(w.word.text for w in sorted(c.antecedent,
                                                            key=lambda w: w.word.start))
                s = dataclasses.replace(
                    named, note=f"{named.note} (its subject read as '{name}', named before)")
        absent, otherwise = NameReading((), frozenset()) if s.supported else read_names(
            c, context, query, response.text)
        if otherwise and s.contradiction is None:
            # "Singularity Hub ties this ..." of singularityhub.com, "JK Rowling" where the
            # context says "Rowling": looked up without the names it writes otherwise
            again = support(dataclasses.replace(c, words=tuple(
                w for w in c.words if w.word.start not in otherwise)))
            if again.supported:
                s = dataclasses.replace(again, note=f"{again.note} (with its names as the "
                                                    f"context writes them)")
                absent = ()
        evidence = context.text[s.evidence_start:s.evidence_end] \
            if s.evidence_start is not None else None
        triple = f"{c.subject or '(pronoun)'} / {'not ' if c.negated else ''}{c.verb} / {c.object}"
        echo = not s.supported and query is not None and echoes_query(c, query)
        introduces = introduces and not s.supported and s.contradiction is None
        suffix = ("; restated from the query, not counted" if echo else
                  "; introduces the response's own points or list items, not counted"
                  if introduces else "")
        terms = () if s.supported or echo else absent_terms(
            c, context, query, zipf_below=term_zipf_below, paraphrase=paraphrase,
            paraphrase_cosine=paraphrase_cosine)
        if s.contradiction is None and (amenities or offering or unstated) and not echo and (
                business):
            # "a sauna" in an overview of a gym's record that never mentions one (a claim
            # the matcher does not support); "a family-owned diner" where the record never
            # says so (any claim: the diner may be one the record names)
            added = (() if s.supported else absent_amenities(c, context, amenities, offering)
                     + absent_relations(c, context)) + tuple(
                said for start, _, said in unstated if c.start <= start < c.end)
            if added:
                s = dataclasses.replace(s, supported=False, contradiction="record_absent",
                                        note=f"{s.note}; the record never mentions "
                                             f"{', '.join(repr(a) for a in added)}")
        if not s.supported and s.contradiction is None and business and not echo:
            said = generalises(c.text)  # "always packed" of a review's "packed on Friday"
            if said is not None and not said_of_subject(said, c, context):
                s = dataclasses.replace(s, contradiction="generalised",
                                        note=f"{s.note}; it generalises past the record "
                                             f"({said!r})")
        anchors.append(Anchor("claim", c.text, c.start, c.end, s.supported, evidence,
                              s.evidence_start, s.evidence_end,
                              note=f"{triple}: {s.note}{suffix}",
                              counted=not echo and not introduces,
                              contradiction=s.contradiction, absent=absent, terms=terms))
    # a quantifier stronger than the context sentence's that says the same thing ("every
    # jurisdiction" where it says "in most jurisdictions"): the claim holding it, or else
    # its sentence, goes past the context; a word whose opposite that sentence says ("made
    # filing harder" where it says "easier"): the claim, or else its sentence, contradicts it
    turned = [(q, "generalised") for q in quantifier_conflicts(
        response.units, context.index.sentences)] + [(o, "opposite") for o in opposite_conflicts(
            response.units, context.index.sentences)]
    for q, kind in turned:
        lo, hi = _sentence_at(response, q.start, q.end)
        if about_sources(q.start) or response.text[lo:hi].endswith("?"):
            continue  # a question claims nothing ("did they always rescue dogs?")
        evidence = context.text[q.evidence_start:q.evidence_end]
        k = next((k for k, a in enumerate(anchors)
                  if a.kind == "claim" and a.start <= q.start < a.end), None)
        if k is None:
            anchors.append(Anchor("claim", response.text[lo:hi], lo, hi, False, evidence,
                                  q.evidence_start, q.evidence_end, note=q.note,
                                  contradiction=kind))
        elif anchors[k].counted and anchors[k].contradiction is None:
            anchors[k] = dataclasses.replace(
                anchors[k], supported=False, evidence=evidence,
                evidence_start=q.evidence_start, evidence_end=q.evidence_end,
                note=f"{anchors[k].note}; {q.note}", contradiction=kind)
    for start, end, said in unstated:  # one no claim holds ("pork, slow-smoked over pecan")
        if not any(a.kind == "claim" and a.start <= start < a.end for a in anchors):
            lo, hi = _sentence_at(response, start, end)
            anchors.append(Anchor("claim", response.text[lo:hi], lo, hi, False,
                                  note=f"the record never mentions {said!r}",
                                  contradiction="record_absent"))
    if context.week is not None:
        anchors = checked_by_hours(anchors, response, context, about_sources, times)
    anchors.sort(key=lambda a: (a.start, a.end))
    return tuple(anchors)


def checked_by_hours(anchors: Sequence[Anchor], response: ResponseFeatures,
                     context: ContextFeatures, about_sources=lambda start: False,
                     times: Sequence[tuple[int, int, int]] | None = None) -> list[Anchor]:
    """``anchors`` with what the response says of the days and hours it is open checked
    against the record's weekly schedule (:mod:`~evaltools.scoring.anchors.schedule`): a
    claim over a statement the schedule denies becomes unsupported, contradicted by the
    record (``"record_hours"``) with the day's line as evidence; a denied statement no claim
    covers ("open from 4 PM to 2 AM Monday through Thursday") is a claim of its own. A claim
    that says nothing but days, hours and words of opening (``schedule.says_only_hours``:
    *no Sunday hours listed*, *no hours are listed for Tuesday*) in a sentence whose
    statements the schedule all confirms (``schedule.confirmed``) is supported by it, with
    the first day's line (or the week's, for a day it leaves out) as evidence.
    ``times``: the response's clock times (:func:`~evaltools.scoring.anchors.schedule.
    clock_times`; found when None).
    """
    out = list(anchors)
    text = response.text
    if times is None:
        times = clock_times(response.mentions)
    said = [(st, None if about_sources(st.start) else denied(st, context.week))
            for st in statements(text, times)]
    for st, found in said:
        if found is None:
            continue
        day, why = found
        ev = _hours_evidence(context, day)
        hit = [k for k, a in enumerate(out)
               if a.kind == "claim" and a.start < st.end and st.start < a.end]
        for k in hit:
            triple = out[k].note.split(": ", 1)[0]
            out[k] = dataclasses.replace(out[k], supported=False, evidence=ev[0],
                                         evidence_start=ev[1], evidence_end=ev[2],
                                         note=f"{triple}: {why}", contradiction="record_hours",
                                         absent=(), terms=())
        if not hit:
            out.append(Anchor("claim", text[st.start:st.end], st.start, st.end, False, *ev,
                              note=f"days and hours open: {why}",
                              contradiction="record_hours"))
    for k, a in enumerate(out):
        if a.kind != "claim" or a.supported or a.contradiction not in (None, "negation"):
            continue
        lo, hi = _sentence_at(response, a.start, a.end)  # "has no hours listed for Tuesday"
        over = [(st, found) for st, found in said if lo <= st.start < hi]
        if not over or any(found is not None or about_sources(st.start)
                           or not confirmed(st, context.week) for st, found in over):
            continue
        clocks = [(s - a.start, e - a.start) for s, e, _ in times if a.start <= s and e <= a.end]
        if says_only_hours(text[a.start:a.end], clocks):
            day = next((st.days[0] for st, _ in over if a.start < st.end and st.start < a.end),
                       over[0][0].days[0])
            ev = _hours_evidence(context, day)
            triple = a.note.split(": ", 1)[0]
            out[k] = dataclasses.replace(a, supported=True, evidence=ev[0],
                                         evidence_start=ev[1], evidence_end=ev[2],
                                         note=f"{triple}: the record's hours say so",
                                         contradiction=None, absent=(), terms=())
    return out


def _hours_evidence(context: ContextFeatures, day: str
                    ) -> tuple[str | None, int | None, int | None]:
    """Where the read record states ``day``'s hours, or its week (``schedule.evidence``)."""
    at = evidence(context.text, day)
    return (context.text[at[0]:at[1]], *at) if at is not None else (None, None, None)


def hallucination_score(response: ResponseFeatures, context: ContextFeatures,
                        query: QueryFeatures | None = None, *, min_share: float = 0.5,
                        rare_above: float = 0.55, head_rare_above: float = 0.45,
                        count_query_anchors: bool = False, number_context: bool = False,
                        ngram: int = 2, overlap_below: float = 0.2,
                        penalty: float = 0.2, claim_window: int = 0,
                        paraphrase: bool = False,
                        paraphrase_cosine: float = 0.0,
                        amenities: frozenset[str] = frozenset(),
                        offering: frozenset[str] = frozenset(),
                        provenance: Provenance | None = None,
                        term_zipf_below: float = 0.0) -> HallucinationScore:
    """Spec 3: anchors, ``S_claims``, the drift gate and ``S_hall``."""
    anchors = check_anchors(response, context, query, min_share=min_share,
                            rare_above=rare_above, head_rare_above=head_rare_above,
                            count_query_anchors=count_query_anchors,
                            number_context=number_context, claim_window=claim_window,
                            paraphrase=paraphrase, paraphrase_cosine=paraphrase_cosine,
                            amenities=amenities, offering=offering, provenance=provenance,
                            term_zipf_below=term_zipf_below)
    s_claims = claims_score(anchors)
    overlap, _ = ngram_overlap(response.words, context.ngrams_by_n, n=ngram)
    p_drift = drift_gate(overlap, overlap_below=overlap_below, penalty=penalty)
    return HallucinationScore(max(s_claims, p_drift), s_claims, p_drift, overlap, anchors)
