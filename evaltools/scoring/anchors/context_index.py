"""The support of a claim in one sentence of the context: :class:`ContextIndex`.

Claims are extracted by :mod:`evaltools.scoring.anchors.claims`.

Support (:meth:`ContextIndex.support`): the claim is supported by a context
**sentence** that holds

- every *required* word: the subject and object heads, names, numbers and
  dates (matched as values, :func:`~evaltools.scoring.anchors.mentions.supports`),
  comparatives, superlatives and qualifiers (*only, more, most, ...*), and
  words rarer than ``rare_above``;
- at least ``min_share`` of the weight of the subject's words and, apart,
  of the predicate's words (generic words such as *offers*, *has*, *company*
  weigh little, so they need not occur verbatim);

where a context sentence without a subject of its own (*It is designed ...*,
*Includes a lid.*, a key/value line of a JSON record), or one that names the
claim's subject by its head word, lends the claim's subject words from
anywhere in the context; a subject the context never names, when it is a
noun for whatever a text is about (*the shop*, *the company*:
:data:`~evaltools.scoring.anchors.claims.ENTITY_NOUNS`), is, in a sentence
without a subject, the one it speaks of. The sentence must also agree:

- **polarity** — the claim's object (else its predicate) negated in the
  context sentence exactly when the claim is negated (*not/n't/never*,
  *no X*, *without X*, a JSON ``no``; read by
  :func:`~evaltools.scoring.anchors.claims.clause_negated`);
- **no antonym** — a predicate word the sentence lacks whose opposite it has
  (*open*/*closed*) contradicts;
- **roles** — *Apple acquired Beats* is not supported by *Beats acquired
  Apple* (passives read as their active: *Beats was acquired by Apple*
  supports it).

The evidence is that context sentence.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaltools.scoring.anchors.claims import (
    AVAILABILITY_WORDS,
    ENTITY_NOUNS,
    HYPOTHETICAL_CUES,
    KEY_YES_NO,
    RELATION_NOUNS,
    RESTRICTING,
    SET_ASIDE,
    SUBJECT_FOCUS,
    Claim,
    ClaimWord,
    _objects,
    _roles,
    _subject,
    clause_negated,
    hypothetical,
)
from evaltools.scoring.anchors.mentions import Mention
from evaltools.scoring.anchors.support_index import SupportIndex
from evaltools.scoring.matcher import (
    ACRONYM_INNER,
    DIRECTIONS,
    LIGHT_PARTS,
    POS_CLASS,
    SentenceIndex,
    Word,
    fold,
    initials,
    is_acronym,
    name_runs,
    opposites,
    prefix_negated,
    token_key,
    words_of,
)
from evaltools.text import doc_text

#: Verbs by which a claim says the business has a thing (*it has a patio*), with
#: :data:`~evaltools.scoring.anchors.claims.AVAILABILITY_WORDS` (*dogs are welcome*).
HAVING_VERBS = frozenset({"have", "be"})


@dataclass(frozen=True)
class ClaimSupport:
    supported: bool
    evidence_start: int | None
    evidence_end: int | None
    note: str
    #: how the evidence contradicts the claim (:data:`CONTRADICTIONS`), or None
    contradiction: str | None = None


#: Kinds of contradiction: the context negates (or affirms) what the claim affirms (or
#: negates); a record's own ``key: no`` denies a word of an affirmed claim; a record's own
#: ``key: yes`` affirms what a negated claim denies; the context says the opposite word
#: beside the claim's words; the context has the roles swapped; a record's weekly hours deny
#: the days or hours a response says it is open (:mod:`~evaltools.scoring.anchors.schedule`);
#: a record never mentions an amenity the claim gives the business
#: (:func:`~evaltools.scoring.hallucination.absent_amenities`); "generalised": the claim
#: generalises past what a record and its reviews say
#: (:func:`~evaltools.scoring.hallucination.generalises`), or its quantifier goes past the
#: context sentence that says the same (:mod:`~evaltools.scoring.anchors.quantifiers`).
CONTRADICTIONS = ("negation", "record_no", "record_yes", "opposite", "roles", "record_hours",
                  "record_absent", "generalised")


#: Words of a schedule whose opposite a claim with an hour does not contradict.
SCHEDULE_VERBS = frozenset({"open", "close", "closed"})
#: Verbs that with *up* say where something comes to (*ends up tasting rancid*): no opposite
#: of *start* or *begin*.
_ENDS_UP = frozenset({"end", "wind"})

#: Candidate sentences searched for the closest miss of an unsupported claim (its
#: evidence); a supporting sentence is always found wherever it is.
MISS_SCAN = 256


#: A key that says "no" itself (*no music*, *not listed*): its piece's value is read twice over.
_KEY_NEGATION = re.compile(r"\b(?:no|not|non|without)\b", re.IGNORECASE)

#: A key that restricts its thing (*cash only*): its "no" denies the restriction, not the
#: thing (*cash only: no* says cash is taken, and more besides); a claim that restricts it
#: too (*it accepts cash only*) is what it denies.
_KEY_ONLY = re.compile(r"\b(?:" + "|".join(sorted(RESTRICTING)) + r")\b", re.IGNORECASE)


#: Heads of a record's keys that name a kind of service by a thing (*table service: no*),
#: or a means of payment by its kind (*credit cards: no*): the key denies that service or
#: card, not the thing (*checked on the table*, *credited with the sale*). Other keys' nouns
#: deny what they name (*patio seating: no* denies a patio).
SERVICE_HEADS = frozenset({"service", "card"})

#: Words that open a record's keys of several words (*good for kids*, *good for groups*):
#: alone, a claim's *good* (*the highball gets good marks*) is none of those keys, so a
#: key's "no" does not deny it; *good for kids* is still read by its *kids*.
KEY_PREFIX_WORDS = frozenset({"good"})
#: Words a flattened record puts before its keys' own words: the attributes' prefixes and
#: the names of nested attributes (*attributes restaurants delivery: no*, *attributes good
#: for meal dinner: no*, *business parking valet: no*), which name no kind of the word.
_RECORD_WORDS = frozenset({"attribute", "attributes", "restaurant", "restaurants", "business",
                           "businesses", "no", "yes", "good", "for", "meal", "parking",
                           "ambience", "music", "best", "nights", "dietary", "restrictions",
                           "hair", "specializes", "in"})


def _modifies_in_piece(tok, start: int, pieces, piece_starts) -> bool:
    """Whether ``tok`` (at character ``start``) is a noun modifying a head of
    :data:`SERVICE_HEADS` in the same ``key: yes/no`` piece (*table* of *restaurants table
    service: no*): the piece speaks of the service, not of the modifier alone."""
    if (tok.pos_ not in ("NOUN", "PROPN") or tok.dep_ != "compound" or tok.head is tok
            or token_key(tok.head) not in SERVICE_HEADS):
        return False
    i = bisect.bisect_right(piece_starts, start) - 1
    return i >= 0 and pieces[i][0] <= tok.head.idx < pieces[i][1]


def _names_kind(before: Word, word: Word) -> bool:
    """Whether ``before`` is a noun right before ``word`` in its sentence, naming its kind
    (*counter* of *counter service*, *bike* of *bike parking*)."""
    return (before.pos == "NOUN" and before.sent == word.sent
            and 0 < word.start - before.end <= 1)


#: How a claim sets aside what it denies (*instead of a skiing holiday*, *rather than a
#: liquid*; :data:`~evaltools.scoring.anchors.claims.SET_ASIDE`): against a context sentence
#: that sets something aside too, no contradiction.
_SET_ASIDE = re.compile(r"(?i)\b(?:" + "|".join(
    rf"{first}\s+{second}" for second, first in SET_ASIDE.items()) + r")\b")


#: Claim kinds whose subject is the doer of its verb (not a passive's patient, not *be*).
AGENT_KINDS = frozenset({"svo", "relative", "comparison"})


def _is_name(pos: str, text: str) -> bool:
    """A proper noun, or an acronym the parser tags as a noun (*EHRC*:
    :func:`~evaltools.scoring.matcher.is_acronym`)."""
    return pos == "PROPN" or is_acronym(text)


def _named_agent(subj) -> frozenset[str] | None:
    """The keys of the name that is a verb's subject, with its appositions and conjuncts, and
    the initials of each (*EHRC* for *the Equality and Human Rights Commission*); None when
    the subject is no name (a pronoun, *the company*)."""
    if subj is None or not _is_name(subj.pos_, subj.text):
        return None
    heads = [subj, *(c for c in subj.conjuncts if _is_name(c.pos_, c.text))]
    heads += [c for h in list(heads) for c in h.children
              if c.dep_ == "appos" and _is_name(c.pos_, c.text)]
    keys: set[str] = set()
    for h in heads:
        words = _name_words(h)
        if len(words) == 1 and not is_acronym(h.text) and any(
                c.dep_ == "det" and c.lower_ == "the" for c in h.children):
            continue  # "the Spaniard", "the Briton": a description, as "the driver" is
        keys.update(token_key(t) for t in words)
        if len(words) > 1:
            keys.add(initials(words))
    return frozenset(keys) or None


def _same_party(names: set[str], agent: frozenset[str]) -> bool:
    """Whether a claim's subject names the doer the context names: a key in common, or a
    stem of four letters or more (*Britain* for *the British Government*, *Russia* for
    *the Russian Embassy*)."""
    return bool(names & agent) or any(
        len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4] for a in names for b in agent)


def _name_words(head) -> list:
    """The capitalised words of the name ``head`` ends: ``head`` and the capitalised words
    right before it in its sentence, with the inner words a name may hold between them
    (:data:`~evaltools.scoring.matcher.ACRONYM_INNER`: *Equality and Human Rights
    Commission*, *Bank of England*), which are not among them."""
    words = [head]
    i = head.i - 1
    while i >= head.sent.start:
        t = head.doc[i]
        if t.lower_ in ACRONYM_INNER and i > head.sent.start and head.doc[i - 1].text[:1].isupper():
            i -= 1
            continue
        if not (t.text[:1].isupper() and t.text.isalpha() and t.pos_ != "DET"):
            break
        words.insert(0, t)
        i -= 1
    return words


def _name_runs(words: Sequence[Word]) -> list[tuple[Word, ...]]:
    """The runs of two or three capitalised words of ``words`` written one space apart
    (:func:`~evaltools.scoring.matcher.name_runs`; *Liberal Democrat*), longest first from
    each word on."""
    out = []
    for run in name_runs(sorted((w for w in words if w.text[:1].isupper()),
                                key=lambda w: w.start)):
        out += [tuple(run[i:i + 3]) for i in range(len(run) - 1)]
    return out


def grade(written: str, key: str) -> str:
    """How a word is graded as written: ``"er"`` for a comparative of its key (*earlier* of
    *early*), ``"est"`` for a superlative (*latest*), ``""`` otherwise."""
    if written == key:
        return ""
    if written.endswith("est"):
        return "est"
    return "er" if written.endswith("er") else ""


def other_scale(one: str, other: str) -> bool:
    """Whether two grades (:func:`grade`) rank on different scales: a comparative against a
    superlative (*two earlier discoveries* and *the latest discoveries* are no opposites:
    one ranks against the other, the other against all).

    >>> other_scale("er", "est"), other_scale("er", ""), other_scale("est", "est")
    (True, False, False)
    """
    return {one, other} == {"er", "est"}


class ContextIndex:
    """What claim support needs from a parsed context, unit by unit.

    A unit is a sentence; consecutive ``key: value`` (or ``a | b | c``) lines,
    as a JSON record reads, form one unit, so a record is read whole (a value
    the parser split from its key, ``hours open Monday:`` | ``7:00–15:00.``,
    stays in it). For
    each unit: which words it holds (:class:`~evaltools.scoring.matcher.SentenceIndex`),
    where each word stands negated or affirmed, whether it has a subject of
    its own, the (agent, relation, patient) roles of its clauses, and its
    number and date mentions. Plain Python data only (no spaCy objects), so
    it can be cached.
    """

    __slots__ = ("_aff", "_aff_pos", "_agents", "_beside_memo", "_elided", "_keyed",
                 "_mention_unit", "_mentions", "_modified", "_modifiers", "_neg", "_neg_pos",
                 "_no_heads",
                 "_no_key", "_no_pos", "_only_no", "_pronoun", "_roles", "_unit",
                 "_unit_memo", "_yes_key", "sentences", "spans", "text")

    def __init__(self, doc, mentions: Sequence[Mention] = (), words: Sequence[Word] | None = None):
        self.text = doc_text(doc)
        ws = list(words) if words is not None else words_of(doc)
        self.sentences = SentenceIndex(doc, ws)
        spans = self.sentences.spans
        starts = [s for s, _ in spans]

        def sent_of_tok(t) -> int:
            return bisect.bisect_right(starts, t.idx) - 1

        subjects: set[int] = set()
        pronouns: set[int] = set()
        keyed: set[int] = set()  # "key: value" and "a | b | c" lines have no subject
        for tok in doc:
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ in ("NOUN", "PROPN"):
                subjects.add(sent_of_tok(tok))
            elif tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ == "PRON":
                pronouns.add(sent_of_tok(tok))
            elif tok.text in (":", "|"):
                keyed.add(sent_of_tok(tok))
        for k in range(1, len(spans)):  # "hours Monday:" | "7:00-15:00.": a key and its value
            if k - 1 in keyed and self.text[spans[k - 1][0]:spans[k - 1][1]].rstrip().endswith(":"):
                keyed.add(k)
        unit: list[int] = []
        unit_spans: list[tuple[int, int]] = []
        for k, (a, b) in enumerate(spans):
            if k and k in keyed and k - 1 in keyed:
                unit.append(unit[-1])
                unit_spans[-1] = (unit_spans[-1][0], b)
            else:
                unit.append(len(unit_spans))
                unit_spans.append((a, b))
        self._unit = unit
        self.spans = tuple(unit_spans)
        pieces = [(m.start(), m.end(), m.group("value").lower() != "yes",
                   bool(_KEY_NEGATION.search(m.group(), 0, m.start("value") - m.start())),
                   bool(_KEY_ONLY.search(m.group(), 0, m.start("value") - m.start())),
                   m.start("value"))
                  for m in KEY_YES_NO.finditer(self.text)]
        piece_starts = [a for a, *_ in pieces]

        def piece_at(pos: int) -> tuple[bool | None, bool]:
            """(True inside a "key: no" piece, False inside a "key: yes" one, else None;
            whether the piece's key itself is negated: "no music: no")."""
            i = bisect.bisect_right(piece_starts, pos) - 1
            return pieces[i][2:4] if i >= 0 and pos < pieces[i][1] else (None, False)

        neg: dict[str, set[int]] = {}
        aff: dict[str, set[int]] = {}
        no_key: dict[str, set[int]] = {}
        yes_key: dict[str, set[int]] = {}
        only_no: dict[str, set[int]] = {}  # "cash" of "cash only: no"
        no_pos: set[int] = set()  # positions of words inside a "key: no" piece
        neg_pos: set[int] = set()  # positions of negated words
        aff_pos: set[int] = set()  # positions of affirmed words
        modifiers: dict[str, set[int]] = {}  # "table" of "table service: no"
        modified: dict[str, set[int]] = {}  # "service" of "table service: no"
        # each "key: yes/no" piece's words, by unit: (its words, whether it says no)
        keyed_words: dict[int, dict[int, tuple[set[str], bool]]] = {}
        key_heads: dict[int, dict[int, tuple[str, ...]]] = {}  # each piece's last word's forms
        tok_at = {tok.idx: tok for tok in doc}
        # sentences that may hold a wished-for or conditional clause: only their words are
        # walked up for it (claims.hypothetical), so a long context is read once
        maybe = {sent_of_tok(t) for t in doc if t.lower_ in HYPOTHETICAL_CUES}
        for j, w in enumerate(ws):
            tok = tok_at.get(w.start)
            if tok is not None and w.sent in maybe and hypothetical(tok):
                continue  # "I wish there was a sauna": neither affirmed nor negated
            key_negated, key_said_no = piece_at(w.start)
            i = bisect.bisect_right(piece_starts, w.start) - 1
            if key_negated and i >= 0 and pieces[i][4]:
                for f in w.forms:  # "cash only: no" denies only "only cash"
                    only_no.setdefault(f, set()).add(unit[w.sent])
                continue
            if key_negated is not None and i >= 0:
                keyed_words.setdefault(unit[w.sent], {}).setdefault(
                    i, (set(), key_negated))[0].update(w.forms)
                if w.start < pieces[i][5]:  # a word of the key, not its value
                    key_heads.setdefault(unit[w.sent], {})[i] = w.forms  # the last so far
            if key_negated and key_said_no:
                continue  # "music no music: no" says there is music: no word of it is denied
            keyed_negated = key_negated is True
            if keyed_negated and tok is not None and tok.is_stop:
                continue  # a key's function word says nothing: "only" of "cash only: no"
            if keyed_negated and tok is not None and _modifies_in_piece(tok, w.start, pieces,
                                                                        piece_starts):
                # "table service: no" denies table service, not a table
                for f in w.forms:
                    modifiers.setdefault(f, set()).add(unit[w.sent])
                modified.setdefault(token_key(tok.head), set()).add(unit[w.sent])
                continue
            # a "key: yes" piece is negated only by its own key ("no music: yes"), not by a
            # "no" the parser hung on it from a piece beside it (a record read as one sentence)
            negated = keyed_negated or (tok is not None and (key_negated is None or key_said_no)
                                        and clause_negated(tok))
            # a compound's light part ("friendly" of "dog-friendly: no") says nothing of
            # the word alone ("friendly staff")
            parts = [p for p in w.parts if p not in LIGHT_PARTS] if len(w.parts) > 1 else ()
            (neg_pos if negated else aff_pos).add(j)
            for f in (*w.forms, *parts):
                (neg if negated else aff).setdefault(f, set()).add(unit[w.sent])
                if keyed_negated:
                    no_key.setdefault(f, set()).add(unit[w.sent])
                    no_pos.add(j)
                elif not negated and key_negated is False:
                    yes_key.setdefault(f, set()).add(unit[w.sent])
        self._neg = {k: frozenset(v) for k, v in neg.items()}
        self._aff = {k: frozenset(v) for k, v in aff.items()}
        self._no_key = {k: frozenset(v) for k, v in no_key.items()}
        self._yes_key = {k: frozenset(v) for k, v in yes_key.items()}
        self._only_no = {k: frozenset(v) for k, v in only_no.items()}
        self._no_pos = frozenset(no_pos)
        self._neg_pos = frozenset(neg_pos)
        self._aff_pos = frozenset(aff_pos)
        self._modifiers = {k: frozenset(v) for k, v in modifiers.items()}
        self._modified = {k: frozenset(v) for k, v in modified.items()}
        self._keyed = {u: tuple((frozenset(ws_), no) for ws_, no in by_piece.values())
                       for u, by_piece in keyed_words.items()}
        #: per unit, the last word's forms of each ``key: no`` piece (*dining* of *outdoor
        #: dining: no*): the thing the key names a kind of
        self._no_heads = {u: tuple((frozenset(keyed_words[u][i][0]), frozenset(h))
                                   for i, h in heads.items() if keyed_words[u][i][1])
                          for u, heads in key_heads.items()}
        roles: dict[int, set[tuple[str, str, str]]] = {}
        agents: dict[int, dict[str, list[frozenset[str] | None]]] = {}
        for tok in doc:
            if tok.pos_ in ("VERB", "AUX") and tok.dep_ not in ("aux", "auxpass"):
                subj, passive = _subject(tok)
                r = _roles(tok, subj, _objects(tok), passive)
                if r is not None:
                    roles.setdefault(unit[sent_of_tok(tok)], set()).add(r)
                if tok.pos_ == "VERB":  # its own subject only: one lent by a parse is a guess
                    own = next((c for c in tok.children if c.dep_ == "nsubj"), None)
                    agents.setdefault(unit[sent_of_tok(tok)], {}).setdefault(
                        tok.lemma_.lower(), []).append(None if passive else _named_agent(own))
        self._elided = frozenset(unit[k] for k in range(len(spans))
                                 if k not in subjects or k in keyed)
        # prose sentences whose only subject is a pronoun ("They required a notice"): who
        # they speak of is not known, so a polarity there contradicts no lent subject
        self._pronoun = frozenset(unit[k] for k in pronouns - subjects - keyed)
        self._roles = {k: frozenset(v) for k, v in roles.items()}
        self._agents = {k: {verb: tuple(v) for verb, v in by_verb.items()}
                        for k, by_verb in agents.items()}
        self._mention_unit = tuple(
            unit[k] if k < len(unit) else 0
            for k in (max(0, bisect.bisect_right(starts, m.start) - 1) for m in mentions))
        self._mentions = SupportIndex(mentions)
        self._unit_memo: dict[frozenset[int], frozenset[int]] = {}
        self._beside_memo: dict[tuple, bool] = {}

    def _units(self, sents: frozenset[int]) -> frozenset[int]:
        hit = self._unit_memo.get(sents)
        if hit is None:
            unit = self._unit
            hit = self._unit_memo[sents] = frozenset(unit[s] for s in sents if s < len(unit))
        return hit

    def _find(self, w: ClaimWord, paraphrase: bool = False,
              cosine: float = 0.0) -> frozenset[int]:
        found = self.sentences.find(w.word)
        if w.qualifier and w.word.key in DIRECTIONS and w.word.text.lower().endswith("er"):
            # "a higher heart rate" where the passage says the heart rate increases
            for key in DIRECTIONS[w.word.key]:
                found = found | self.sentences.sentences(key)
        # derivations for the predicate's words and the subject's modifiers (*a moderately
        # priced cafe* where the record says "moderate"), not for the subject's head
        if (w.role == "predicate" or not w.head) and not w.name and not w.qualifier:
            found = found | self.sentences.find_derived(w.word)
        if paraphrase and not w.name and not w.qualifier and w.word.key not in RELATION_NOUNS:
            # (kin and roles are read as written or derived: WordNet's founder is a "beginner",
            # a mother a "sire")
            found = found | self.sentences.find_paraphrase(w.word, cosine)
        return self._units(found)

    def _with_initials(self, claim: Claim, found: list[frozenset[int]]
                       ) -> list[frozenset[int]]:
        """``found`` (the units holding each of the claim's words), where a noun found
        nowhere is written, with the one or two words before it, as initials the context
        writes in capitals (:meth:`~evaltools.scoring.matcher.SentenceIndex.initials_run`:
        *the building has no air conditioning* where a review says "no AC"): each word of
        that run is also found in the units holding the initials. A name of two or three
        capitalised words one space apart (:func:`_name_runs`) with a word found nowhere is
        looked up the same way (*Great Britain* where the context says "GB"), and written
        clipped (*Liberal Democrat* where it says "Lib Dem": :meth:`~evaltools.scoring.
        matcher.SentenceIndex.clipped_positions`), each of its words in the units holding
        that."""
        words = [w.word for w in claim.words]
        at = {w.word.start: i for i, w in enumerate(claim.words)}
        out = list(found)
        for i, w in enumerate(claim.words):
            if found[i] or w.word.pos != "NOUN" or w.name:
                continue
            run, sents = self.sentences.initials_run(w.word, words)
            for x in run:
                out[at[x.start]] = out[at[x.start]] | self._units(sents)
        for run in _name_runs(words):
            if all(out[at[x.start]] for x in run):
                continue
            got, sents = self.sentences.initials_run(run[-1], words)
            if got and all(x in got for x in run[:-1]):  # *Great Britain* for "GB"
                for x in got:
                    out[at[x.start]] = out[at[x.start]] | self._units(sents)
                continue
            starts = self.sentences.clipped_positions([x.key for x in run])  # "Lib Dem"
            units = self._units(frozenset(self.sentences.sentence_of(p) for p in starts))
            for x in run:
                out[at[x.start]] = out[at[x.start]] | units
        return out

    def holds(self, w: ClaimWord, paraphrase: bool = False, cosine: float = 0.0) -> bool:
        """Whether any unit holds the claim's word under a form :meth:`support` reads (with
        ``paraphrase`` and ``cosine`` as there)."""
        return bool(self._find(w, paraphrase, cosine))

    def _polarity(self, claim: Claim, s: int) -> str | None:
        """None when the claim's polarity agrees with sentence ``s``; else "negation" (the
        claim's focus negated there exactly when the claim is not, or the reverse),
        "record_no" (a word of an affirmed claim's predicate, not its verb, there only as a
        record's ``key: no``: *an upscale cafe* against ``ambience upscale: no``) or
        "record_yes" (a negated claim's focus there as a record's ``key: yes``: *does not
        take reservations* against ``restaurants reservations: yes``)."""
        kind = self._focus_polarity(claim, s)
        if kind is not None:
            return kind
        if not claim.negated and any(  # a verb is no attribute: "takes reservations" is
                w.role == "predicate" and w.weight > 0 and not w.word.num  # not denied by
                and w.word.pos not in ("VERB", "AUX")                   # "take out: no"
                and w.word.key not in KEY_PREFIX_WORDS  # "good marks": no "good for kids: no"
                and not w.negated  # "squeezed in without an appointment": by_appointment: no
                and not w.likened  # "looks like a garage": the record's "garage: no" is not it
                and self._only_keyed_no(w.word, s)
                and self._modifiers_there(claim, w.word.parts[-1], s)
                and not self._kind_of_other(claim, w.word, s) for w in claim.words):
            return "record_no"
        return None

    def _kind_of_other(self, claim: Claim, word: Word, s: int) -> bool:
        """Whether the claim's ``word`` names the kind of a noun right after it that unit
        ``s`` does not hold, where each record ``key: no`` there that holds ``word`` ends with
        it and names a kind of it by a word the claim does not use: *a dining room* is a
        room, of which the record's ``outdoor dining: no`` says nothing; *an outdoor dining
        area* is still denied, and so are *patio tables* by ``patio seating: no`` (the key
        ends with *seating*)."""
        claim_forms = {f for w in claim.words for f in w.word.forms}
        pieces = [(ws_, head) for ws_, head in self._no_heads.get(s, ()) if word.key in ws_]
        if not pieces or not all(word.key in head and ws_ - claim_forms - _RECORD_WORDS
                                 for ws_, head in pieces):
            return False
        words = sorted((w.word for w in claim.words), key=lambda x: x.start)
        k = next((i for i, x in enumerate(words) if x.start == word.start), None)
        if k is None or k + 1 == len(words) or not _names_kind(word, words[k + 1]):
            return False
        return not self._holds_key(words[k + 1].key, s)

    def _holds_key(self, k: str, s: int) -> bool:
        """Whether unit ``s`` holds the word ``k``, negated, affirmed or as a ``key: yes/no``
        piece's modifier (*table* of *table service: no*)."""
        return (s in self._neg.get(k, ()) or s in self._aff.get(k, ())
                or s in self._modifiers.get(k, ()))

    def _focus_polarity(self, claim: Claim, s: int) -> str | None:
        """What :meth:`_polarity` reads from the claim's focus word alone in unit ``s``:
        "negation", "record_no", "record_yes", or None."""
        if claim.negated and _SET_ASIDE.search(claim.text) and any(
                s in table.get(w, ()) for table in (self._aff, self._neg)
                for w in SET_ASIDE.values()):
            return None  # "a trip taken instead of a skiing holiday": the context sets it
            # aside too ("due to go skiing, he decided instead to ...")
        key = claim.focus
        if key and any(w.likened and w.word.key == key for w in claim.words):
            key = None  # "looks like a garage": no garage is claimed, nor denied
        if key:
            whole = next((w.word.key for w in claim.words  # "Wi-Fi" is "wifi", not "fi"
                          if len(w.word.parts) > 1 and w.word.parts[-1] == key
                          and (s in self._neg.get(w.word.key, ())
                               or s in self._aff.get(w.word.key, ()))), None)
            key = whole or key
            if s not in self._neg.get(key, ()) and s not in self._aff.get(key, ()):
                key = self._initials_key(claim, key, s) or key  # "no AC": air conditioning
            if (not claim.negated and s in self._only_no.get(key, ())
                    and _KEY_ONLY.search(claim.text)):
                return "record_no"  # "accepts cash only" against "cash only: no"
            seen = {True} if s in self._neg.get(key, ()) else set()
            if s in self._aff.get(key, ()):
                seen.add(False)
            keyed_no = s in self._no_key.get(key, ())
            if not seen:  # "offers delivery" where the unit says "they dont deliver"
                seen, keyed_no = self._derived_polarity(claim, key, s)
            if seen and not self._modifiers_there(claim, key, s):
                seen = set()  # "counter-service" is not the record's "table service: no"
            if seen == {True, False}:  # "bike parking: no" and "business parking lot: yes"
                seen = self._kind_polarity(claim, key, s) or seen
            if seen and claim.negated not in seen:
                if not claim.negated and keyed_no:
                    return "record_no"
                return "record_yes" if s in self._yes_key.get(key, ()) else "negation"
        return None

    def _initials_key(self, claim: Claim, key: str, s: int) -> str | None:
        """The key of the initials in capitals that unit ``s`` writes for the claim's word
        ``key`` and the words before it (:meth:`_with_initials`: ``"ac"`` for *air
        conditioning*), or None."""
        w = next((w for w in claim.words if w.word.key == key), None)
        if w is None:
            return None
        run, sents = self.sentences.initials_run(w.word, [c.word for c in claim.words])
        if not run or s not in self._units(sents):
            return None
        return initials(run)

    def _derived_polarity(self, claim: Claim, key: str, s: int) -> tuple[set[bool], bool]:
        """The polarity in unit ``s`` of the derivations of the claim's word ``key`` where
        the unit does not hold the word itself (*they don't deliver* for *offers
        delivery*): {True} when every one is negated, {False} when every one is affirmed,
        else empty; and whether every one stands in a record's ``key: no`` (*delivers: no*)."""
        w = next((w for w in claim.words if w.word.key == key), None)
        if w is None:
            return set(), False
        derived = [j for j in self.sentences.derived_positions(w.word)
                   if self._unit[self.sentences.sentence_of(j)] == s]
        keyed_no = bool(derived) and all(j in self._no_pos for j in derived)
        if derived and all(j in self._neg_pos for j in derived):
            return {True}, keyed_no
        if derived and all(j in self._aff_pos for j in derived):
            return {False}, keyed_no
        return set(), keyed_no

    @staticmethod
    def _kind_words(claim: Claim, key: str) -> list[str]:
        """The nouns a claim puts right before its word ``key``, which name its kind (*bike*
        of *bike parking is available*)."""
        words = sorted(claim.words, key=lambda w: w.word.start)
        return [b.word.key for b, w in itertools.pairwise(words)
                if w.word.parts[-1] == key and _names_kind(b.word, w.word)]

    def _kind_polarity(self, claim: Claim, key: str, s: int,
                       kinds: list[str] | None = None) -> set[bool]:
        """The polarity of unit ``s``'s ``key: yes/no`` pieces that hold ``key`` and the
        nouns the claim names its kind by (:meth:`_kind_words`) too: where a record says
        *bike parking: no* and *business parking lot: yes*, {True} for *bike parking is
        available* (only "no" pieces hold *bike*), {False} when only "yes" pieces do, else
        empty (no kind, or no piece)."""
        kinds = self._kind_words(claim, key) if kinds is None else kinds
        if not kinds:
            return set()
        return {no for piece, no in self._keyed.get(s, ())
                if key in piece and all(m in piece for m in kinds)}

    def _kind_denied(self, claim: Claim, kinds: list[str], candidates: set[int],
                     s: int) -> int | None:
        """The unit whose record says no to exactly the kind an affirmed claim names
        (*bike parking: no* for *offers bike parking*), when the unit ``s`` that supports
        it does not name that kind (a review's *park right in front*); else None."""
        if not kinds or claim.negated or all(
                s in self._units(self.sentences.sentences(k)) for k in kinds):
            return None
        return next((u for u in sorted(candidates)
                     if self._kind_polarity(claim, claim.focus, u, kinds) == {True}), None)

    def _modifiers_there(self, claim: Claim, key: str, s: int) -> bool:
        """Whether unit ``s`` also holds the nouns that modify the claim's word ``key``
        where a record's ``key: yes/no`` there names a kind of it (*table service: no*):
        the other parts of a hyphenated word ending in it (*counter* of *counter-service*;
        a light part such as *friendly* need not be there) and a noun right before it
        (*counter* of *counter service*). Where the record's key names no kind (*patio:
        no*), a claim's kind (*a courtyard patio*) is still of it. A word before it whose
        opposite the key names (*indoor* against *outdoor seating: yes*) makes it another
        kind. A verb there (*needed* of *appointment needed: yes*) needs the claim's subject
        there too (*no break-in needed* is no claim about appointments)."""
        def there(k: str) -> bool:
            return self._holds_key(k, s)

        words = sorted(claim.words, key=lambda w: w.word.start)
        if ((s in self._yes_key.get(key, ()) or s in self._no_key.get(key, ()))
                and any(w.word.parts[-1] == key and w.word.pos in ("VERB", "AUX")
                        for w in words)
                and not any(there(w.word.key) for w in words if w.role == "subject")):
            return False  # "no break-in needed" is not the record's "appointment needed"
        for before, w in itertools.pairwise(words):
            if (w.word.parts[-1] == key and before.word.sent == w.word.sent
                    and 0 < w.word.start - before.word.end <= 1 and not there(before.word.key)
                    and any(there(o) for o in opposites(before.word.key))):
                return False  # "no indoor seating" is not the record's "outdoor seating: yes"
        if s not in self._modified.get(key, ()):
            return True
        for k, w in enumerate(words):
            parts = w.word.parts
            if parts[-1] != key:
                continue
            # the whole word there (*Wi-Fi* where the record says "wifi: no") is enough
            mods = [p for p in parts[:-1] if p not in LIGHT_PARTS] if not there(w.word.key) else []
            if k and _names_kind(words[k - 1].word, w.word):
                mods.append(words[k - 1].word.key)
            return all(there(p) for p in mods)
        return True

    def _only_keyed_no(self, word: Word, s: int) -> bool:
        """Whether ``word`` stands in unit ``s`` only as a record's ``key: no``, itself or,
        when it is not there as it is, a derivation of it (*offers delivery* against
        ``delivers: no``)."""
        key = word.key
        if s in self._aff.get(key, ()):
            return False
        if s in self._no_key.get(key, ()):
            return True
        if s in self._units(self.sentences.find(word)):
            return False
        derived = [j for j in self.sentences.derived_positions(word)
                   if self._unit[self.sentences.sentence_of(j)] == s]
        return bool(derived) and all(j in self._no_pos for j in derived)

    def _value_units(self, m: Mention) -> frozenset[int]:
        return frozenset(self._mention_unit[i] for i in self._mentions.supporting(m))

    def _widen(self, units: frozenset[int], window: int) -> frozenset[int]:
        n = len(self.spans)
        return frozenset(v for u in units for v in range(max(0, u - window),
                                                         min(n, u + window + 1)))

    def support(self, claim: Claim, *, min_share: float, rare_above: float,
                head_rare_above: float = 0.45, window: int = 0,
                paraphrase: bool = False, paraphrase_cosine: float = 0.0) -> ClaimSupport:
        """Whether one context sentence (or record) supports ``claim``, with it as evidence.

        Parameters
        ----------
        claim : Claim
        min_share : float
            Share of the weight of the subject's words, and apart of the
            predicate's words, that the sentence must hold
            (config ``hallucination.claim_min_share``).
        rare_above : float
            Words at least this rare (:func:`~evaltools.scoring.matcher.rarity`)
            are required (config ``hallucination.claim_rare_above``).
        head_rare_above : float
            The subject's and object's head words are required from this
            rarity on; more generic heads (*company*, *player*) count in the
            share only (config ``hallucination.claim_head_rare_above``).
        window : int
            When no one sentence supports the claim, sentences within
            ``window`` of each other may, together (config
            ``hallucination.claim_window``); the evidence spans them.
        paraphrase : bool
            A word that is not a name may be found as a paraphrase
            (:meth:`~evaltools.scoring.matcher.SentenceIndex.find_paraphrase`: *deaths*
            for *fatalities*; config ``grounding.paraphrase``).
        paraphrase_cosine : float
            With ``paraphrase``, also a context word whose static vector is this close
            (config ``grounding.paraphrase_cosine``; 0: WordNet's table only).

        Examples
        --------
        >>> from evaltools.scoring.anchors.claims import extract_claims
        >>> from evaltools.text import load_pipeline
        >>> nlp = load_pipeline()
        >>> ctx = ContextIndex(nlp("The Rambler ships with a MagSlider lid. "
        ...                        "It is not dishwasher safe."))
        >>> [ctx.support(c, min_share=0.5, rare_above=0.55).note
        ...  for c in extract_claims(nlp("The Rambler includes a lid. It is dishwasher safe."))]
        ['found together in one context sentence', 'the context negates it']
        """
        result = self._support(claim, min_share, rare_above, head_rare_above, window,
                               paraphrase, paraphrase_cosine)
        if not result.supported and result.contradiction in (None, "negation"):
            flipped = self._flipped(claim, paraphrase, paraphrase_cosine)
            if flipped is not None:
                other = self._support(flipped, min_share, rare_above, head_rare_above, window,
                                      paraphrase, paraphrase_cosine)
                if other.supported:
                    return other
        return result

    def _flipped(self, claim: Claim, paraphrase: bool, cosine: float) -> Claim | None:
        """The claim with its polarity carried by a negating prefix of a predicate adjective
        the context does not use, where the context uses the prefixed (or unprefixed) word:
        *is not available* as *is unavailable*, *isn't possible* as *is impossible*, and the
        reverse. Not an antonym of another stem (*little seating inside* is not *seating
        outside*). None when there is no such word."""
        for i, w in enumerate(claim.words):
            if w.role != "predicate" or w.word.pos != "ADJ" or w.name or w.qualifier:
                continue
            if self._find(w, paraphrase, cosine):
                continue
            for key in opposites(w.word.key):
                if not prefix_negated(key, w.word.key) or not self.sentences.positions(key):
                    continue
                word = dataclasses.replace(w.word, text=key, key=key, forms=(key,),
                                           parts=(key,))
                words = (*claim.words[:i], dataclasses.replace(w, word=word, negated=False),
                         *claim.words[i + 1:])
                focus = key if claim.focus == w.word.key else claim.focus
                return dataclasses.replace(claim, negated=not claim.negated, words=words,
                                           focus=focus)
        return None

    def _support(self, claim: Claim, min_share: float, rare_above: float,
                 head_rare_above: float, window: int, paraphrase: bool,
                 paraphrase_cosine: float) -> ClaimSupport:
        """:meth:`support` as the claim is written."""
        found = self._with_initials(
            claim, [self._find(w, paraphrase, paraphrase_cosine) for w in claim.words])
        vals = [self._value_units(m) for m in claim.values]
        # a subject that names the text's own entity by its kind (*the clinic*, *the
        # venue*) is looked for, not required: a record need not call itself so
        # what a claim says someone is to the place or a person (*Theo, the studio's founder*)
        # is looked up however common the word: a relation the context never gives is invented
        relations = claim.relations
        required = [((w.head and (w.weight >= head_rare_above or w in relations))
                     or w.qualifier or w.name or w.weight >= rare_above)
                    and not (w.role == "subject" and w.word.key in ENTITY_NOUNS)
                    for w in claim.words]
        for w, f, req in zip(claim.words, found, required, strict=True):
            if req and not f and not any(a in self.sentences for a in opposites(w.word.key)):
                return self._record_denies(claim, found) or ClaimSupport(
                    False, None, None, f"'{w.word.text}' is not in the context")
        for m, f in zip(claim.values, vals, strict=True):
            if not f:
                return ClaimSupport(False, None, None, f"'{m.text}' is not in the context")
        candidates: set[int] = set()
        for w, f in zip(claim.words, found, strict=True):
            if w.role == "predicate":
                candidates |= f
        for f in vals:
            candidates |= f
        if not candidates:
            for f in found:
                candidates |= f
        # Only a sentence holding every required predicate word and every value can
        # support the claim: look there first (the same answer, linear in long texts).
        must = [f for w, f, req in zip(claim.words, found, required, strict=True)
                if req and w.role == "predicate"] + list(vals)
        kinds = self._kind_words(claim, claim.focus) if claim.focus and self._keyed else []
        for s in sorted(candidates.intersection(*must)):
            ok, _, note, _ = self._judge(claim, s, found, vals, required, min_share)
            if ok:
                denied = self._kind_denied(claim, kinds, candidates, s)
                if denied is not None:
                    start, end = self.spans[denied]
                    return ClaimSupport(False, start, end, "a record's 'no' names its kind",
                                        "record_no")
                if not claim.negated:  # "takeout and delivery are offered": "delivery: no"
                    own = self._conjunct_denied(claim, found)
                    if own is not None:
                        return own
                start, end = self.spans[s]
                return ClaimSupport(True, start, end, note)
        if window > 0:  # facts fused from nearby sentences: a window either side
            wide = [self._widen(f, window) for f in found]
            wide_vals = [self._widen(f, window) for f in vals]
            wide_must = [self._widen(f, window) for f in must]
            for s in sorted(candidates.intersection(*wide_must)):
                ok, _, _, _ = self._judge(claim, s, wide, wide_vals, required, min_share)
                if ok:
                    held = [u for u in range(max(0, s - window),
                                             min(len(self.spans), s + window + 1))
                            if any(u in f for f in (*found, *vals))]
                    if any(self._polarity(claim, u) in ("record_no", "record_yes")
                           for u in held):
                        # a record's "no" in the window denies it ("wheelchair: no."), its
                        # "yes" a negated claim ("no appointment is needed" from "appointment
                        # needed: yes" and a review's "No break-in needed")
                        break
                    if self._opposed_in(claim, held, found):
                        break  # "the device is slower" from "it slowed. The device is fast."
                    if self._other_agent(claim, held) is not None:
                        continue  # "Luis came out" from "Luis installed it. Brenda came out"
                    start, end = self.spans[held[0]][0], self.spans[held[-1]][1]
                    return ClaimSupport(True, start, end,
                                        f"found together in context sentences {held[0] + 1}-"
                                        f"{held[-1] + 1} (claim_window {window})")
        best: tuple[tuple, int, str, str | None] | None = None
        for s in sorted(candidates)[:MISS_SCAN]:  # the closest miss, for the evidence
            _, rank, note, kind = self._judge(claim, s, found, vals, required, min_share)
            if best is None or rank > best[0]:
                best = (rank, s, note, kind)
        if best is None:
            return ClaimSupport(False, None, None, "its words are not in the context")
        rank, s, note, kind = best
        start, end = self.spans[s]
        return ClaimSupport(False, start, end, note, kind)

    def _other_agent(self, claim: Claim, units: Sequence[int]) -> frozenset[str] | None:
        """The name that ``units`` give as the doer of the claim's verb, when every time they
        use the verb its subject is a name and none is the claim's named subject: *the Fawcett
        Society called the adverts appalling* against *the EHRC called it appalling* (a
        misattribution), *Luis came out for the estimate* against *Brenda came out for the
        estimate*. None when the claim's subject is no name, its kind has no doer
        (:data:`AGENT_KINDS`), the units do not use its verb, or one use leaves the doer
        open (a pronoun, a common noun, a passive)."""
        if claim.kind not in AGENT_KINDS or not claim.subject:
            return None
        subject = [w for w in claim.words if w.role == "subject"]
        if not any(w.head and _is_name(w.word.pos, w.word.text) for w in subject):
            return None  # "goals from Coutinho and Sakho": the doer is no name
        named = sorted((w.word for w in subject if _is_name(w.word.pos, w.word.text)),
                       key=lambda w: w.start)
        names = {w.key for w in named}
        if len(named) > 1:  # as the context's doer has them: *EA* for *the Environment Agency*
            names.add(initials(named))
        uses = [a for u in units for a in self._agents.get(u, {}).get(claim.verb, ())]
        if not uses or any(a is None or _same_party(names, a) for a in uses):
            return None
        return uses[0]

    def _opposed_in(self, claim: Claim, units: Sequence[int], found) -> bool:
        """Whether one of ``units`` that lacks a degree word of the claim's predicate (a
        comparative: *slower*) writes its opposite beside another word of the claim
        (:meth:`_opposes`, as one sentence is read): sentences fused into a claim's support
        must not say the contrary of its comparison (*the device is slower* from *it slowed*
        beside *the device is fast*). Other words are not read so: a text that says both
        *automatic* and *manual* of one task supports either."""
        keys = {w.word.key for w in claim.words}
        for w, f in zip(claim.words, found, strict=True):
            if w.role != "predicate" or not w.qualifier:
                continue
            for a in opposites(w.word.key):
                if a in keys:
                    continue
                held = self._units(self.sentences.sentences(a))
                if any(u in held and u not in f and self._opposes(a, u, w, claim)
                       for u in units):
                    return True
        return False

    def _record_denies(self, claim: Claim, found) -> ClaimSupport | None:
        """A record's own ``key: no`` (or ``yes``) against the claim's focus, where a word
        of the claim the record never uses leaves it unsupported anyway (*leashed dogs are
        welcome* against ``dogs allowed: no``): named as the contradiction it is; else None.
        Only for a claim that the business has the thing (its verb *have* or *be*, or a
        word of :data:`~evaltools.scoring.anchors.claims.AVAILABILITY_WORDS`)."""
        key = claim.focus
        if not key or not self._keyed or not (
                claim.verb in HAVING_VERBS
                or any(w.word.key in AVAILABILITY_WORDS for w in claim.words)):
            return None  # a claim that the business has the thing, not what was said of it
            # ("noting stairs-only access" agrees with "wheelchair access: no")
        denied = self._denied_at(claim, found, key, ("record_no", "record_yes"))
        if denied is None:
            return None
        s, kind = denied
        start, end = self.spans[s]
        return ClaimSupport(False, start, end, "a record's 'no' negates it"
                            if kind == "record_no" else "a record's 'yes' affirms it", kind)

    def _denied_at(self, claim: Claim, found, key: str,
                   kinds: tuple[str, ...]) -> tuple[int, str] | None:
        """The first unit holding the claim's word ``key`` whose record's own value denies
        the claim, read with ``key`` as its focus (that key's own value, no other word's),
        and the kind of denial (one of ``kinds``); else None."""
        read = claim if key == claim.focus else dataclasses.replace(claim, focus=key)
        units = sorted({u for w, f in zip(claim.words, found, strict=True)
                        if w.word.key == key for u in f})
        for s in units:
            kind = self._focus_polarity(read, s)
            if kind in kinds:
                return s, kind
        return None

    def _conjunct_denied(self, claim: Claim, found) -> ClaimSupport | None:
        """A record's ``key: no`` against a subject noun of an affirmed claim of
        :data:`~evaltools.scoring.anchors.claims.SUBJECT_FOCUS` other than its focus, as
        :meth:`_record_denies` reads the focus (*takeout and delivery are offered*
        against ``restaurants delivery: no``); else None."""
        if not self._keyed or not any(w.word.key in SUBJECT_FOCUS for w in claim.words
                                      if w.role == "predicate"):
            return None
        for w in claim.words:
            if (w.role != "subject" or w.word.key == claim.focus or w.likened
                    or w.word.pos not in ("NOUN", "PROPN")):
                continue
            denied = self._denied_at(claim, found, w.word.key, ("record_no",))
            if denied is not None:
                start, end = self.spans[denied[0]]
                return ClaimSupport(False, start, end, f"a record's 'no' negates "
                                    f"'{w.word.text}'", "record_no")
        return None

    def _opposes(self, opposite: str, s: int, w: ClaimWord, claim: Claim,
                 reach: int = 3) -> bool:
        """Whether sentence ``s`` writes ``opposite`` within ``reach`` words of another word
        of the claim: it says *old foods* to the claim's *new foods*, not *4-17 years old*;
        as the same part of speech (*the end* is no opposite of *started*), and with the
        claim word's polarity (*can't be possible* agrees with *impossible*, *outdoor seating*
        with *no indoor seating*)."""
        if s not in (self._neg if w.negated else self._aff).get(opposite, ()):
            return False
        kind = POS_CLASS.get(w.word.pos, w.word.pos)  # *closed* is an opposite of *open*
        graded = grade(fold(w.word.text), w.word.key)
        at = [p for p in self.sentences.positions(opposite)
              if self._unit[self.sentences.sentence_of(p)] == s
              and POS_CLASS.get(self.sentences.pos_at(p)) == kind
              and not self._ends_up(opposite, p)
              and not other_scale(graded, grade(self.sentences.folded_at(p), opposite))]
        for o in claim.words:
            if o is w or o.weight <= 0:
                continue
            for q in self.sentences.locate(o.word):
                i = bisect.bisect_left(at, q - reach)
                if i < len(at) and at[i] <= q + reach:
                    return True
        return False

    def _ends_up(self, key: str, position: int) -> bool:
        """Whether the context word at ``position`` is *end up* (*wind up*): where something
        comes to, no opposite of *start* (*the oil ends up tasting rancid* for *the oil can
        start to taste rancid*)."""
        return (key in _ENDS_UP and position + 1 < self.sentences.size
                and self.sentences.key_at(position + 1) == "up")

    def _beside(self, w: ClaimWord, head: ClaimWord, reach: int = 3) -> bool:
        """Whether the context writes ``w`` within ``reach`` words of ``head`` somewhere
        (remembered per pair; each position found by bisection, so a long context that
        repeats both words is read in time linear in their counts)."""
        memo = (w.word.forms, w.word.parts, head.word.forms, head.word.parts, reach)
        hit = self._beside_memo.get(memo)
        if hit is None:
            near = self.sentences.locate(head.word)  # sorted
            hit = False
            for p in self.sentences.locate(w.word):
                i = bisect.bisect_left(near, p - reach)
                if i < len(near) and near[i] <= p + reach:
                    hit = True
                    break
            self._beside_memo[memo] = hit
        return hit

    def _judge(self, claim: Claim, s: int, found, vals, required, min_share: float
               ) -> tuple[bool, tuple, str, str | None]:
        """Whether sentence ``s`` supports ``claim``; a rank for the closest miss; a note;
        the kind of contradiction (:data:`CONTRADICTIONS`) or None."""
        weight = {"subject": 0.0, "predicate": 0.0}
        got = {"subject": 0.0, "predicate": 0.0}
        missing = []
        # the subject's other words are lent from anywhere in the context when the
        # sentence has no subject of its own; when it names the claim's subject by its
        # head, those the context writes next to that head somewhere (*Hogwood was
        # considered...* and *Conductor Christopher Hogwood* elsewhere; not *Manchester
        # City* for *the club* of another sentence, nor *brain* for *activity*)
        elided = s in self._elided
        head = next((w for w, f in zip(claim.words, found, strict=True)
                     if w.role == "subject" and w.head and s in f), None)
        lent = False  # a subject word credited from elsewhere in the context
        # an affirmed claim's verb need not be there when its object's head is (*Inspectors
        # examined 100 cases* against *Inspectors looked at 100 cases*); an opposite verb
        # still contradicts the claim, below, and a negated claim keeps its verb
        verb_free = not claim.negated and any(
            s in f for w, f in zip(claim.words, found, strict=True)
            if w.role == "predicate" and w.head and w.word.pos not in ("VERB", "AUX"))
        for w, f, req in zip(claim.words, found, required, strict=True):
            if not req and not f and w.role == "subject" and s in self._pronoun:
                continue  # a prose sentence whose subject is a pronoun: the response names
                # it its own way, with a word the context never uses (*the crew* for *they*)
            if (not req and verb_free and s not in f and w.role == "predicate"
                    and w.word.pos in ("VERB", "AUX")):
                continue
            weight[w.role] += w.weight
            if s in f:
                got[w.role] += w.weight
            elif w.role == "subject" and f and (
                    elided or (head is not None and self._beside(w, head))):
                got[w.role] += w.weight
                lent = True
            elif req:
                missing.append(w.word.text)
        for m, f in zip(claim.values, vals, strict=True):
            if s not in f:
                missing.append(m.text)
        if elided and got["subject"] < weight["subject"] and all(
                w.word.key in ENTITY_NOUNS for w, f in zip(claim.words, found, strict=True)
                if w.role == "subject" and not f):
            got["subject"] = weight["subject"]  # "The shop is open ...": the record's own entity
            lent = True
        shares = {r: (got[r] / weight[r] if weight[r] else 1.0) for r in weight}
        share = min(shares.values())
        # "closing at 3 PM" against "open 6:00-15:00": an hour is checked as a value, and a
        # schedule's "open" holds its closing time
        timed = any(m.kind == "date" for m in claim.values)
        for w, f in zip(claim.words, found, strict=True):
            if w.role == "predicate" and s not in f and not (
                    timed and w.word.key in SCHEDULE_VERBS):
                opposite = next((a for a in opposites(w.word.key)
                                 if s in self._units(self.sentences.sentences(a))
                                 and self._opposes(a, s, w, claim)), None)
                if opposite is not None:
                    return False, (True, 1, share), (
                        f"the context says '{opposite}' where it says '{w.word.text}'"), "opposite"
        kind = None
        note = "found together in one context sentence"
        if missing:
            note = (f"{', '.join(repr(x) for x in missing[:3])} "
                    f"{'is' if len(missing) == 1 else 'are'} not in the same context sentence")
        elif share < min_share:
            note = (f"only {share:.0%} of its {min(shares, key=shares.get)}'s words are in one "
                    "context sentence")
        else:
            kind = self._polarity(claim, s)
            if kind == "negation" and lent and s in self._pronoun:
                # "They required a written notice" says nothing against "Appointments are
                # not required": a sentence whose subject is a pronoun
                return False, (True, 0, share), (
                    "the context has the other polarity, of a subject it does not name"), None
            if kind == "record_no":
                note = "a record's 'no' negates it"
            elif kind == "record_yes":
                note = "a record's 'yes' affirms it"
            elif kind is not None:
                note = f"the context {'affirms' if claim.negated else 'negates'} it"
            if kind is None and claim.roles is not None:
                a, rel, p = claim.roles
                ctx_roles = self._roles.get(s, frozenset())
                if (p, rel, a) in ctx_roles and (a, rel, p) not in ctx_roles:
                    kind = "roles"
                    note = f"the context has the roles swapped: '{p}' {rel} '{a}'"
            other = self._other_agent(claim, (s,)) if kind is None else None
            if other is not None:
                kind = "roles"
                note = f"the context has someone else {claim.verb}: '{' '.join(sorted(other))}'"
            if kind is None:
                return True, (), note, None
        return False, (not missing, int(kind is not None), share), note, kind
