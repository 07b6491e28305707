"""Assertive claims of a response, read from its dependency parse.

A claim is one asserted clause of the response, read from the dependency
parse, in any of the common constructions:

========================  =================================================
construction              example (the claim's predicate in bold)
========================  =================================================
subject-verb-object       the Rambler **includes** a lid
copula                    the battery **is** replaceable; Acme **is** a brand
passive                   the bridge **was built** in 1932 (by Smith)
relative clause           the bridge, which **was built** in 1932, ...
participial clause        the bridge **built** in 1932 ...; **Founded** in 1990, Acme ...
appositive                Tim Cook, **the former CEO of Apple**, ...
comparative/superlative   X **is larger** than Y; the **largest** lake
coordinated verbs         it **washes** and **dries** clothes (two claims)
coordinated objects       includes a cap and a straw (one claim per object)
imperative                **preheat** the oven to 350 °F; **do not use** bleach
negated clause            it **does not include** a straw; **no** pets are allowed
subjectless               **Includes** a 2-year warranty.
verbless list item        ``- Free parking``
named speaker             **Professor Jay O'Berski** suggests that ...
========================  =================================================

A named speaker's claim holds only the speaker's words (kind ``"speaker"``): that the
context names them, whatever is said to have been said.

Not claims (:func:`_not_asserted`): questions; hedges — a modal (*may,
might, could, would, should*), a hedging word (*reportedly, possibly,
likely, ...*), a hedging governor (*appears to*, *I think*, *suggests*) or a
condition (*if, unless*); statements about the sources (*the document does
not say ...*, *there is no information about ...*); opinions (*I love*, *it
is great*) and anything said in the first person singular. A clause whose
object is a number or date anchor (*costs $35*) is left to that anchor, and a
clause with nothing to look up (*it was released in 2019*) makes no claim.

Each claim carries its **words** (content words from :mod:`evaltools.scoring.matcher`,
each with its rarity weight and its role: the subject's or the predicate's),
and the number and date mentions inside it.

Their support in the context: :mod:`evaltools.scoring.anchors.context_index`.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaltools.scoring.anchors.mentions import Mention
from evaltools.scoring.matcher import (
    JOINERS,
    LIGHT_PARTS,
    Word,
    fold,
    rarity,
    token_key,
    words_of,
)
from evaltools.text import BULLETS, doc_text, list_mark

HEDGE_AUX = frozenset({"may", "might", "could", "would", "should"})
HEDGE_VERBS = frozenset({
    "suggest", "appear", "seem", "believe", "think", "guess", "assume", "speculate",
    "hope", "expect", "rumor", "rumour", "estimate", "imagine", "suppose", "suspect",
    "feel", "doubt", "wonder",
})
HEDGE_WORDS = frozenset({
    "reportedly", "possibly", "perhaps", "probably", "likely", "apparently", "allegedly",
    "supposedly", "maybe", "presumably", "seemingly", "potentially", "arguably",
    "unlikely", "rumored", "rumoured", "purportedly", "conceivably",
})
CONDITION_MARKS = frozenset({"if", "whether", "unless"})
#: Nouns that name the sources themselves: "the document does not say ...".
SOURCE_NOUNS = frozenset({
    "document", "context", "text", "passage", "article", "source", "information", "excerpt",
    "snippet", "page", "description", "listing", "record", "material", "data", "detail",
    "mention", "knowledge", "paragraph", "review", "reviews", "summary", "input",
})
#: Nouns that name nothing but a source: with one as subject the clause speaks of the
#: sources whatever its verb ("the passages focus on milk", "the article covers ...").
SOURCE_ONLY_NOUNS = frozenset({"passage", "document", "article", "excerpt", "snippet", "text"})
#: Nouns for the points a response makes ("two main reasons", "three ways"): a count of them
#: is the response's own structure (``anchors.own_counts.counts_own_list``), "there are two
#: reasons" is no claim, and the sources "giving" them is an attribution (``sources``).
#: Not *types*, *kinds*, *causes*: "there are three types of guitars" is a fact of the world;
#: but *layers*, *aspects*, *angles*, *sides*: how the response parts its answer ("there are
#: two layers to the controversy").
POINT_NOUNS = (r"(?:reasons|ways|steps|factors|points|options|methods|tips|explanations|"
               r"possibilities|approaches|layers|aspects|angles|sides)")
#: Nouns that name the authors of reviews in the context: "customers praise the pancakes"
#: claims what the reviews say, so its subject is not looked up (as a pronoun's is not).
REVIEWER_NOUNS = frozenset({
    "customer", "reviewer", "guest", "visitor", "patron", "user", "buyer", "client", "shopper",
    "purchaser", "consumer", "diner", "patient", "traveler", "traveller",
    # how overviews describe one reviewer ("one couple celebrated ...", "a parent praised ...")
    "couple", "parent", "regular", "local", "newcomer", "commuter", "mom", "dad",
    # who goes to such a place ("moviegoers value the low prices")
    "moviegoer", "filmgoer", "theatergoer", "theatregoer", "concertgoer", "partygoer",
    "clubgoer", "beachgoer", "gymgoer", "museumgoer", "festivalgoer", "churchgoer",
    # who a reviewer is by what they came to do ("one homeowner had oak cabinets", "a bowler
    # bought a ball", "one enthusiast found 1:12-scale furniture")
    # (not a news story's rider, bride or resident: who they are is a fact there)
    "homeowner", "participant", "attendee", "enthusiast", "hobbyist",
    "bowler", "boater", "quilter", "consignor",
    # who wrote a forum passage ("one forum commenter in Maine reports thundersnow")
    "commenter",
})
#: Nouns for what reviews say ("Complaints include a tiny space", "Downsides include slow
#: service"): as a subject they speak for the reviewers, and are not looked up, as a reviewer
#: is not; what follows is the claim.
REVIEW_NOUNS = frozenset({
    "downside", "drawback", "complaint", "criticism", "critique", "highlight", "praise",
    "compliment", "gripe", "con", "pro", "negative", "positive", "concern", "feedback",
})
#: Nouns that name whatever a record or text is about ("the shop is open ...", "the company
#: was founded ..."): as a subject the context never uses, they name its own entity.
ENTITY_NOUNS = frozenset({
    "business", "place", "shop", "store", "company", "establishment", "venue", "spot",
    "location", "firm", "outlet", "organization", "organisation", "product", "item",
    "property", "facility", "practice", "office",
    # kinds of place too general to be wrong, which an overview calls a record's own by
    # (*the clinic accepts insurance* for a record whose categories say "Chiropractors");
    # a specific kind is still looked up (*the bakery* of a nail salon is no bakery)
    "clinic", "studio", "center", "centre", "eatery", "joint", "academy", "agency",
    # the place by a general name (*the space is wheelchair accessible*), and its people
    # (*staff brought a water bowl* where a review says "they brought her a water bowl"; *the
    # crew arrived within three hours* where it says "came within 3 hours of calling")
    "space", "staff", "team", "crew", "attraction",
    # and its atmosphere, which a record states as an attribute (*the vibe is casual*, *the
    # atmosphere is casual* for ``Ambience: casual``): what the claim says of it is checked
    "vibe", "atmosphere", "ambience", "ambiance",
})
#: Nouns that name what a person is to a place or to another person (*Theo, the studio's
#: founder*; *Rosa, his wife*): as the head of what a claim says someone is, looked up however
#: common, since a relation the context never gives is a fact invented about that person; not
#: as a subject (*one owner said ...* is a reviewer who owns a dog).
RELATION_NOUNS = frozenset({
    "founder", "cofounder", "owner", "coowner", "proprietor", "wife", "husband", "son",
    "daughter", "father", "mother", "brother", "sister", "grandson", "granddaughter",
    "grandfather", "grandmother", "nephew", "niece", "cousin", "uncle", "aunt",
})
#: What reviewers do with what they review ("customers rave about the pancakes"): with a
#: reviewer as subject the verb weighs nothing; what is praised is the claim.
REVIEW_VERBS = frozenset({
    "praise", "rave", "laud", "commend", "applaud", "appreciate", "highlight", "complain",
    "criticize", "criticise", "note", "mention", "describe", "report", "say", "find", "call",
    "love", "like", "enjoy", "recommend", "rate", "point", "comment", "remark", "express",
    "credit", "value",
})
#: Verbs by which a thing receives what reviews say of it (*Earl earns praise*, *the tune-up
#: earns raves*): with one of :data:`PRAISE_NOUNS` as object, neither weighs anything; the
#: claim is its subject, and what it is praised for.
RECEIVING_VERBS = frozenset({"earn", "draw", "win", "garner", "receive", "attract"})
#: Adverbs that restrict what a verb says to its object (*accepts cash only*): part of the
#: claim's text, where a record's *cash only: no* reads them.
RESTRICTING = frozenset({"only", "exclusively"})
#: What reviews give a thing (*praise*, *raves*, *complaints*); plurals too, read from the
#: word as written, as the lemmatiser makes *raves* "raf".
PRAISE_NOUNS = frozenset({"praise", "compliment", "complaint", "criticism", "rave", "kudos",
                          "acclaim", "gripe", "compliments", "complaints", "raves", "gripes"})
#: Verbs of reviewing that weigh nothing in an agentless passive too ("the pizza is
#: praised", "parking was described as limited"); not "called", "found" or "said", which
#: in the passive name or state ("a novel called ...", "it was found in 1990").
PRAISE_VERBS = REVIEW_VERBS - {"call", "comment", "complain", "express", "find", "point",
                               "remark", "report", "say"}
#: Subjects that speak for the reviewers: the reviewers themselves and what reviews say.
FOR_REVIEWERS = REVIEWER_NOUNS | REVIEW_NOUNS
#: The words by which an overview sums up how its reviews lean ("reviews are mixed",
#: "generally positive", "opinions differ"): matching words cannot check a sum of opinions
#: against the reviews (they say "great", "slow", not "positive"), so in a record that holds
#: reviews these weigh nothing in grounding, as :data:`REVIEW_FRAMING` does. Not the words
#: that claim every reviewer (*consistently*, *unanimously*, *always*): a probe's invented
#: generalisations use them, so they stay units.
REVIEW_SUM = frozenset({
    "positive", "negative", "mixed", "generally", "largely", "mostly", "overall",
    "enthusiastic", "favorable", "favourable", "unfavorable", "unfavourable", "differ",
    "lean", "sentiment", "vary", "opinion", "impression", "satisfied", "dissatisfied",
    # matcher keys of "well-regarded", "well-liked", "well-reviewed"
    "wellregard", "welllike", "wellreview",
    # how a reviewer found the people, the space or the price, in the overview's words
    # (*knowledgeable*, *attentive*, *unhurried* staff; a *cramped*, *tidy* shop; *steep*
    # prices) where the review tells what happened ("he knew exactly which part", "we
    # waited 40 minutes"); not *best*, *always* or *certified*, which invented details use
    "knowledgeable", "attentive", "patient", "patiently", "patience", "unhurried",
    "nopressure", "lowpressure", "curt", "cramp", "tidy", "punctual", "punctuality",
    "inconvenient", "frustrated", "frustrating", "hassle", "steep", "pricey", "inconsistent",
    "uneven", "generous", "reassuring", "impress", "overcrowded", "warmly", "standout",
    "unhurrie",  # the matcher's key of "unhurried"
})
#: The words by which an overview retells one review ("One driver whose AC failed in July was
#: seen within two hours", "a recent visit ended with cold fries", "members praise the
#: plates"): the reviews say *I*, *we*, *my car*, so in a record that holds reviews these
#: name a reviewer or their visit, as :data:`REVIEWER_NOUNS` do, and weigh nothing. Apart from
#: the reviewer nouns: a news story's *driver* or *family* is a fact to check.
REVIEW_STORY = frozenset({
    "driver", "member", "worker", "person", "family", "party", "student", "visit", "stay",
    "trip", "experience",
    # the place's people by a job every such place has, where the review says "the guy at
    # the register" or "she" (*a staffer was curt*, *the cashier*, *the bartender*)
    "staffer", "cashier", "bartender",
})
#: The words by which an overview of a record's reviews says who said what ("Customers
#: speak highly of ...", "one diner noted ...", "complaints include ..."): in a record that
#: holds reviews they name its reviews and their authors, so grounding gives them no weight
#: (``grounding.ground``), as claims do not look them up; nor the words by which it sums up
#: how they lean (:data:`REVIEW_SUM`). Not what was praised.
REVIEW_FRAMING = (REVIEWER_NOUNS | REVIEW_STORY | REVIEW_VERBS
                  | (REVIEW_NOUNS - {"pro", "con", "concern"})
                  | {"speak", "warn", "advise", "share", "cite", "tout", "caution", "observe",
                     "recount", "add", "review"} | REVIEW_SUM)
#: Words that say only that something is there to be had ("takeout is available", "the cafe
#: serves alcohol", "dogs are allowed"): a record says it as "takeout: yes". They weigh nothing
#: in a claim's support, and when one is the claim's predicate its polarity is that of its
#: subject ("delivery: no" contradicts "delivery is offered").
AVAILABILITY_WORDS = frozenset({
    "available", "unavailable", "offer", "provide", "serve", "allow", "accept", "permit",
    "welcome", "feature",
})
#: Predicates that hand their polarity to their subject (:data:`AVAILABILITY_WORDS`, and
#: *take* as a business takes reservations or cards: "reservations are not taken" is
#: "reservations: no"); unlike those, *take* keeps its weight.
SUBJECT_FOCUS = AVAILABILITY_WORDS | {"take"}
#: Verbs that say only what kind of thing a business is (*a restaurant specializing in
#: noodles and soup*, where the record's categories say *Noodles, Soup*): they weigh nothing
#: in a claim's support; what it specializes in is the claim.
KIND_VERBS = frozenset({"specialize", "specialise"})
#: Verbs by which a sentence lists what falls under a common noun in the plural (*other
#: examples include binoculars*, *drinks include $22 pitchers of Cass*): the noun heads the
#: list and is no fact of its own, so only what is listed is looked up; a name, a singular
#: noun (*the tumbler includes a lid*) or a noun after *the* or *these* still is.
LISTING_VERBS = frozenset({"include"})
#: Determiners that point at particular things: *the tumbler includes a lid* and *these
#: bottles include a lid* speak of those things, no list's heading.
DEMONSTRATIVES = frozenset({"the", "this", "that", "these", "those"})
#: Titles before a name, which name no one themselves (*Ms Miller* where the context says
#: *Gina Miller*): not looked up in a claim, nor an absent name.
TITLES = frozenset({"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "mister",
                    "lord", "lady", "baron", "baroness"})
#: Nouns that say only that what a record's categories name is food (*serves Sicilian and
#: Italian cuisine*, *classic pub fare*): they weigh nothing in a claim's support, as
#: :data:`KIND_VERBS` do, and are no term the context never uses; what kind is the claim.
KIND_NOUNS = frozenset({"cuisine", "fare"})
#: Verbs that report what a source says.
REPORT_VERBS = frozenset({
    "say", "mention", "state", "specify", "indicate", "discuss", "address", "cover",
    "detail", "describe", "report", "tell", "provide", "contain", "list", "include", "give",
    "show", "note", "clarify", "confirm", "explain", "reference", "refer", "be",
    "point", "highlight", "outline", "emphasize", "emphasise", "identify", "present", "focus",
})
#: Verbs by which a response says who said or thinks something (*Jay O'Berski suggests
#: that ...*, *Chief Inspector Parsons said ...*): with a named speaker the attribution is a
#: claim of its own (:func:`_speaker_claim`), whether or not what was said is asserted.
SPEECH_VERBS = frozenset({
    "say", "tell", "suggest", "believe", "argue", "claim", "note", "explain", "write", "add",
    "warn", "insist", "think", "estimate", "predict", "recall", "admit", "acknowledge",
    "announce", "state", "report", "observe", "contend", "maintain", "caution", "stress",
    "emphasise", "emphasize", "propose", "speculate", "describe", "reveal", "confirm", "deny",
})
#: Verbs of liking: "you will love it" is an opinion.
OPINION_VERBS = frozenset({"love", "like", "enjoy", "prefer", "hate", "recommend", "adore"})
#: Evaluative adjectives: "it is great" is an opinion.
OPINION_ADJ = frozenset({
    "great", "good", "nice", "awesome", "amazing", "wonderful", "fantastic", "excellent",
    "interesting", "cool", "fun", "lovely", "perfect", "terrible", "awful", "bad",
    "horrible", "boring", "fascinating", "glad", "happy", "sorry", "sure", "right",
    "welcome", "true",
})
#: Opinion adjectives that state a policy when a noun is their subject (*dogs are welcome*).
POLICY_ADJ = frozenset({"welcome"})
#: Words that qualify a claim; a context sentence must hold them too.
QUALIFIERS = frozenset({"only", "sole"})
#: Adverbs that make a claim hold without exception (*the officer can always search your
#: car*, *a gunshot always causes pain*): a context sentence must say so too. (*never* is
#: a negation, checked as one.)
ABSOLUTES = frozenset({"always", "invariably"})
#: Comparative forms that state an amount rather than a degree.
AMOUNT_WORDS = frozenset({"more", "most", "less", "least", "fewer", "fewest"})
#: degrees of *known* that say only that something is famous (*best known for*)
FAME_DEGREES = frozenset({"best", "better"})
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
OBJECT_DEPS = frozenset({"dobj", "attr", "dative", "oprd", "obj"})
CLAUSE_LINKS = frozenset({"xcomp", "ccomp", "conj"})
#: Dependencies of a predicate that start a claim of their own.
PREDICATE_DEPS = frozenset({"ROOT", "conj", "ccomp", "relcl", "acl", "advcl", "parataxis"})
#: Children that belong to a claim's predicate (with their phrases).
ARGUMENT_DEPS = frozenset({"dobj", "attr", "dative", "oprd", "obj", "acomp", "prep", "agent",
                           "xcomp", "advmod", "npadvmod", "prt", "neg", "nmod"})
#: Children whose phrases are claims (or clauses) of their own, never part of another's words.
OWN_CLAUSE_DEPS = frozenset({"relcl", "acl", "advcl", "ccomp", "parataxis", "appos", "punct",
                             "mark", "cc"})
RELATIVE_TAGS = frozenset({"WDT", "WP", "WP$"})
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
#: Discourse markers: a fronted adverbial made of one of these ("On the other hand, ...",
#: "Overall, ...", "In addition, ...") links the sentence to the text around it and is no
#: word of the claim (it was read as the predicate's object or words, and the context rarely
#: says "overall" or "the other hand").
DISCOURSE_MARKERS = frozenset({
    "on the other hand", "on the one hand", "on the downside", "on the upside",
    "on the plus side", "on the minus side", "on the bright side", "on the positive side",
    "on the negative side", "on the whole", "in addition", "in contrast", "by contrast",
    "in comparison", "by comparison", "in general", "in summary", "in conclusion", "in short",
    "in brief", "in particular", "in fact", "in reality", "in practice", "in other words",
    "in the end", "in any case", "for example", "for instance", "as a result", "as such",
    "at the same time", "after all", "of course", "above all", "all in all", "to summarize",
    "to sum up", "to conclude", "overall", "however", "additionally", "furthermore",
    "moreover", "also", "notably", "meanwhile", "nonetheless", "nevertheless", "besides",
    "similarly", "likewise", "ultimately", "finally", "lastly", "firstly", "secondly",
    "thirdly", "first", "second", "third", "thus", "therefore", "hence", "consequently",
    "instead", "otherwise", "indeed", "importantly", "interestingly", "unfortunately",
    "fortunately", "generally", "specifically", "essentially", "basically", "altogether",
})
#: A "key: no" (or "key: none") or "key: yes" piece of a key/value text, as a JSON record's
#: false or true value reads ("outdoor seating: no."): the key's words stand negated, or
#: affirmed, by the record itself (group ``value``). Found piece by piece, not sentence by
#: sentence: the parser may read a whole record as one sentence.
KEY_YES_NO = re.compile(
    r"(?:^|(?<=[.;]\s))[^.;:\n]*:\s*(?P<value>no|none|yes)\s*(?=[.;\n]|$)",
    re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ClaimWord:
    """One content word of a claim: the matcher's word, its weight, and whose it is.

    ``role`` is ``"subject"`` or ``"predicate"``; ``head`` marks the subject's
    or object's head word (always required); ``qualifier`` a comparative,
    superlative or qualifier word (always required; matched on its surface form, a plain
    *-er* comparative on its lemma: :func:`_plain_comparative`);
    ``negated`` a word its clause negates (:func:`clause_negated`: *without an
    **appointment***, *the lack of **dinner** hours*).
    """

    word: Word
    weight: float
    role: str
    head: bool = False
    qualifier: bool = False
    negated: bool = False
    #: a word of what the claim likens its subject to (*looks like a garage*, *resembles
    #: a diner*): not something the subject has (:func:`_likened`)
    likened: bool = False

    @property
    def name(self) -> bool:
        """A name or a number: always required."""
        return self.word.pos == "PROPN" or self.word.num

    def to_dict(self) -> dict:
        return {"text": self.word.text, "key": self.word.key, "weight": round(self.weight, 3),
                "role": self.role, "head": self.head, "qualifier": self.qualifier}


@dataclass(frozen=True)
class Claim:
    """One asserted clause of a response.

    ``subject``, ``verb`` and ``object`` are head lemmas for the note
    (``subject`` None for a pronoun or no subject, ``object`` "" when the
    predicate has none); ``kind`` names the construction; ``words`` and
    ``values`` are what support looks up; ``roles`` is (agent, relation,
    patient) keys when both participants are named, for the swapped-role test;
    ``focus`` the key whose polarity is compared; ``antecedent`` the subject
    words of the name a definite description stands for (*the striker* after
    *Morata ...*): the last named subject of an earlier sentence; ``past`` whether
    its verb is in the past with a direct object (*the team offered advice*; not *served
    with popcorn*, a participle the tagger may also call past).
    """

    text: str
    start: int
    end: int
    subject: str | None
    verb: str
    object: str
    negated: bool
    kind: str = "svo"
    words: tuple[ClaimWord, ...] = ()
    values: tuple[Mention, ...] = ()
    roles: tuple[str, str, str] | None = None
    focus: str = ""
    definite: bool = False
    antecedent: tuple[ClaimWord, ...] = ()
    past: bool = False

    @property
    def relations(self) -> tuple[ClaimWord, ...]:
        """The words by which the claim says what someone is to a place or a person: the
        heads of its predicate among :data:`RELATION_NOUNS` in a claim of *be* (*Theo, the
        studio's founder*), looked up however common; not a subject (*one owner said*)."""
        if self.verb != "be":
            return ()
        return tuple(w for w in self.words if w.role == "predicate" and w.head
                     and w.word.key in RELATION_NOUNS)

    def to_dict(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end,
                "subject": self.subject, "verb": self.verb, "object": self.object,
                "negated": self.negated, "kind": self.kind, "past": self.past,
                "words": [w.to_dict() for w in self.words],
                "values": [m.to_dict() for m in self.values]}


_OWN_POINT = re.compile(POINT_NOUNS, re.IGNORECASE)


def _lemma(tok) -> str:
    return tok.lemma_.lower()


def _for_reviewers(tok) -> bool:
    """Whether ``tok`` names the reviewers or what reviews say (:data:`FOR_REVIEWERS`), also
    where the parser tags it a plural name and keeps the plural as its lemma (*Reviewers
    describe ...* after a line of hours)."""
    low = tok.lower_
    return _lemma(tok) in FOR_REVIEWERS or (
        tok.tag_ == "NNPS" and low.endswith("s") and low[:-1] in FOR_REVIEWERS)


def _is_pronoun(tok) -> bool:
    return tok.pos_ == "PRON" or tok.dep_ == "expl" or tok.tag_ in RELATIVE_TAGS


def _first_person(tok) -> bool:
    return tok.lower_ in FIRST_PERSON


def _not_asserted(verb) -> bool:
    """A hedge, a condition, a statement about the sources, an opinion, or first person.

    Walks up through the clauses that govern ``verb`` (*appears to*, *I think
    that*, *the document says that*).
    """
    tok = verb
    conjunct = False  # reached from a coordinated verb: the head's own opinion is not its
    for _ in range(12):  # clause chains are short; bound the walk
        lemma = _lemma(tok)
        if lemma in HEDGE_VERBS or lemma in OPINION_VERBS:
            return True
        subj = opinion = None
        for child in tok.children:
            low = child.lower_
            if child.dep_ in ("aux", "auxpass") and _lemma(child) in HEDGE_AUX:
                return True
            if low in HEDGE_WORDS:
                return True
            if child.dep_ == "mark" and low in CONDITION_MARKS:
                return True
            if child.dep_ in SUBJECT_DEPS:
                subj = child
            if child.dep_ == "acomp" and _lemma(child) in OPINION_ADJ and not conjunct:
                opinion = _lemma(child)  # "it is good for kids, and takes reservations"
        # "you're welcome" is a courtesy; "dogs are welcome" a policy a record may deny
        if opinion and not (opinion in POLICY_ADJ and subj is not None
                            and subj.pos_ in ("NOUN", "PROPN")):
            return True
        if subj is not None:
            if _first_person(subj):
                return True
            if _lemma(subj) in SOURCE_NOUNS and lemma in REPORT_VERBS:
                return True
            named = tok.head if subj.tag_ in RELATIVE_TAGS and tok.dep_ == "relcl" else subj
            if _lemma(named) in SOURCE_ONLY_NOUNS:  # "the passages (, which) focus on milk"
                return True
            if subj.dep_ == "expl" and lemma == "be" and any(
                    c.dep_ in OBJECT_DEPS and _lemma(c) in SOURCE_NOUNS for c in tok.children):
                return True  # "there is no information about ..."
        if tok.dep_ in CLAUSE_LINKS and tok.head.i != tok.i:
            conjunct = tok.dep_ == "conj"
            tok = tok.head
        else:
            return False
    return False


def _is_predicate(tok) -> bool:
    if _absolute_participle(tok):
        return True  # "..., with towels and earplugs provided": a fact of its own
    if tok.dep_ not in PREDICATE_DEPS or _speaking_of_manner(tok):
        return False
    if tok.pos_ == "VERB":
        return True
    return tok.pos_ == "AUX" and tok.lemma_ in ("be", "have")


def _absolute_participle(tok) -> bool:
    """Whether ``tok`` is the participle of an absolute clause as the parser may read it,
    hung on *with* with its own subject (*with towels and earplugs provided*)."""
    return (tok.dep_ == "pcomp" and tok.tag_ in ("VBG", "VBN") and tok.head.lower_ == "with"
            and any(c.dep_ in SUBJECT_DEPS for c in tok.children))


def _speaking_of_manner(tok) -> bool:
    """Whether ``tok`` is *speaking* said only with an adverb of how one speaks, before or
    inside a sentence (*Strictly speaking, ...*, *generally speaking*): it states nothing."""
    return (tok.dep_ == "advcl" and tok.lower_ == "speaking"
            and all(c.dep_ in ("advmod", "punct") for c in tok.children)
            and any(c.dep_ == "advmod" for c in tok.children))


def _infinitive(tok) -> bool:
    return tok.tag_ == "VB" and any(c.dep_ == "aux" and c.lower_ == "to" for c in tok.children)


def _conjoined(tok) -> list:
    """The clauses joined to ``tok`` as its conjuncts, and theirs, in any depth."""
    out, stack = [], [tok]
    while stack:
        for c in stack.pop().children:
            if c.dep_ == "conj":
                out.append(c)
                stack.append(c)
    return out


def _after_semicolon(subj, pred):
    """The subject ``subj`` of ``pred`` where the parser runs it back across a semicolon:
    its first conjunct after the semicolon (*does not offer takeout, seating or Wi-Fi;
    garage and street parking are available*: the parking is available, not the seating).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It does not offer takeout, outdoor seating or Wi-Fi; garage "
    ...                       "and street parking are available.")
    >>> _after_semicolon(doc[7], doc[18]).text
    'parking'
    """
    semi = next((c for c in subj.children if c.text == ";" and subj.i < c.i < pred.i), None)
    if semi is None:
        return subj
    after = [c for c in subj.conjuncts if semi.i < c.i < pred.i]
    return min(after, key=lambda t: t.i) if after else subj


def _subject(pred):
    """The subject token of a predicate (relatives resolved), or None; and whether passive."""
    passive = any(c.dep_ in ("auxpass", "nsubjpass", "csubjpass") for c in pred.children) or (
        pred.tag_ == "VBN" and _absolute_participle(pred))  # "with towels provided"
    tok = pred
    for _ in range(12):
        for child in tok.children:
            if child.dep_ in SUBJECT_DEPS:
                if child.tag_ in RELATIVE_TAGS and tok.dep_ == "relcl":
                    return tok.head, passive
                return _after_semicolon(child, tok), passive
        if tok.dep_ in ("relcl", "acl") and tok.head.pos_ in ("NOUN", "PROPN"):
            return tok.head, passive or tok.tag_ == "VBN"
        if tok.dep_ == "advcl" and tok.tag_ in ("VBN", "VBG"):
            return _subject(tok.head)[0], passive or tok.tag_ == "VBN"
        if tok.dep_ == "conj" and tok.head.i != tok.i:
            # a clause without a subject shares that of the nearest clause before it in its
            # list (*No appointment is needed, and the clinic accepts cards, is accessible*:
            # the clinic is accessible), not always that of the list's first clause
            # (a clause joined to an earlier one counts where it stands: in *no appointment
            # is needed, and the shop is accessible, offers bike parking*, the shop offers)
            before = sorted({g for c in tok.head.children
                             if c.dep_ == "conj" and c.i < tok.i and c.pos_ in ("VERB", "AUX")
                             for g in (c, *_conjoined(c))
                             if g.i < tok.i and g.pos_ in ("VERB", "AUX")}, key=lambda g: g.i)
            for sibling in reversed(before):
                own = [c for c in sibling.children if c.dep_ in SUBJECT_DEPS
                       and c.tag_ not in RELATIVE_TAGS]
                if own:
                    return own[0], passive
        listed = _listed_before(tok)
        if listed is not None:
            return listed, passive
        if tok.dep_ in ("conj", "xcomp") and tok.head.i != tok.i:
            tok = tok.head
        else:
            return None, passive
    return None, passive


def _listed_before(verb):
    """The subject of a list's first clause that the parser hung under a later verb without
    a subject of its own (*The business works by appointment only, offers free estimates,
    and keeps hours ...*: *works* a ``ccomp`` of *offers*): the list's subject, or None.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The business works by appointment only, offers free "
    ...                       "estimates, and keeps hours on weekdays.")
    >>> [_listed_before(t).text for t in doc if t.text == "offers"]
    ['business']
    """
    for child in verb.children:
        if child.dep_ == "ccomp" and child.i < verb.i and child.pos_ in ("VERB", "AUX"):
            gap = verb.doc[child.right_edge.i + 1:verb.i]
            own = [c for c in child.children if c.dep_ in SUBJECT_DEPS
                   and c.tag_ not in RELATIVE_TAGS and c.i < child.i]
            others = [t for t in child.subtree if t.dep_ in SUBJECT_DEPS and t.i != own[0].i
                      ] if own else []
            if own and not others and len(gap) == 1 and gap[0].text == ",":
                return own[0]  # (a clause of its own inside the first, "while the pie,
                # likened to gumbo, was ...", leaves the subject unknown)
    return None


def _objects(pred) -> list:
    """The predicate's object heads with their conjuncts.

    The direct object (or attribute) first; for *be*, an adjective complement;
    in a relative clause, the noun it modifies when the relative pronoun is the
    object; else the object of a preposition.
    """
    for child in pred.children:
        if child.dep_ in OBJECT_DEPS:
            if child.tag_ in RELATIVE_TAGS and pred.dep_ == "relcl":
                return [pred.head]
            return [child, *child.conjuncts]
    for child in pred.children:
        if child.dep_ == "acomp":
            return [child, *child.conjuncts]
    for child in pred.children:
        if child.dep_ in ("agent", "prep") and not _discourse(child, pred):
            for grandchild in child.children:
                if grandchild.dep_ == "pobj":
                    return [grandchild, *grandchild.conjuncts]
    return []


def _no_det(tok) -> bool:
    """Whether ``tok`` is the determiner *no*, not a word of a title or name.

    A capitalised *No* after a word and before a capitalised word is part of a
    name ("Nord (Year of No Light album)", "the No Name Bar"): it negates nothing.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> [_no_det(t) for t in nlp("No pets are allowed.") if t.lower_ == "no"]
    [True]
    >>> [_no_det(t) for t in nlp("It is a Year of No Light album.") if t.lower_ == "no"]
    [False]

    *zero* counting a noun says *no* as well (*zero echo*, *zero issues*):

    >>> [_no_det(t) for t in nlp("The room is treated well, zero echo.") if t.text == "zero"]
    [True]
    """
    if tok.lower_ == "zero":
        return tok.dep_ in ("det", "nummod") and tok.head.pos_ in ("NOUN", "PROPN")
    if tok.dep_ != "det" or tok.lower_ != "no":
        return False
    doc = tok.doc
    return not (tok.text == "No" and 0 < tok.i < len(doc) - 1 and doc[tok.i - 1].is_alpha
                and doc[tok.i + 1].text[:1].isupper())


def _discourse(child, pred) -> bool:
    """Whether ``child`` of ``pred`` is a fronted discourse marker ("On the other hand, ...").

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("In addition, the hotel offers a pool. In Paris, it opened.")
    >>> [c.text for t in doc for c in t.children if _discourse(c, t)]
    ['In']
    """
    if child.i > pred.i or child.dep_ not in ("prep", "advmod", "npadvmod"):
        return False
    sub = list(child.subtree)
    return " ".join(t.lower_ for t in sub if not t.is_punct) in DISCOURSE_MARKERS


def _absolute(child) -> bool:
    """Whether ``child`` is an absolute clause, *with* a noun and a participle (*..., with
    reviewers paying $65 to $72*): a fact of its own, which its participle's claim and
    the anchors check, not part of the clause it hangs on.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Varieties include Fraser firs, with reviewers paying $65 to "
    ...                       "$72. It opened, with prices starting at $5. It comes with a lid.")
    >>> [(c.text, _absolute(c)) for c in doc if c.text == "with"]
    [('with', True), ('with', True), ('with', False)]
    """
    if child.dep_ != "prep" or child.lower_ != "with":
        return False
    # the parser's two readings: a noun with its participle, or the participle with its
    # subject (:func:`_absolute_participle`)
    return any(_absolute_participle(g) or (g.dep_ == "pobj" and any(
        c.dep_ == "acl" and c.tag_ in ("VBG", "VBN") and c.i > g.i for c in g.children))
        for g in child.children)


#: Verbs whose clause states no fact: "I wish there was a sauna" says there is none.
WISH_VERBS = frozenset({"wish", "hope"})
#: Words without which a sentence holds no wished-for or conditional clause (a cheap test
#: before :func:`hypothetical` walks a sentence's words).
HYPOTHETICAL_CUES = frozenset({"wish", "wished", "wishes", "wishing", "hope", "hoped", "hopes",
                               "hoping", *CONDITION_MARKS})


def hypothetical(tok) -> bool:
    """Whether ``tok`` stands in a wished-for or conditional clause ("I wish there was a
    sauna", "if you want a table"): it is neither affirmed nor negated there.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("I wish there was a sauna. There is a pool.")
    >>> [(t.text, hypothetical(t)) for t in doc if t.pos_ == "NOUN"]
    [('sauna', True), ('pool', False)]
    """
    t = tok
    for _ in range(12):
        if t.i != tok.i and t.lemma_.lower() in WISH_VERBS:
            return True
        if any(c.dep_ == "mark" and c.lower_ in CONDITION_MARKS for c in t.children):
            return True
        if t.head.i == t.i:
            return False
        t = t.head
    return False


#: Adverbs of degree through which a "not" negates the word they modify: "not well suited",
#: "not very friendly" ("not only cheap" is no negation of "cheap").
NEGATED_DEGREE = frozenset({
    "well", "very", "too", "particularly", "especially", "really", "so", "that", "overly",
    "entirely", "fully", "exactly", "quite", "terribly", "all", "as", "super", "remotely",
})


#: Nouns whose "of" negates what follows: "the lack of dinner hours".
LACK_NOUNS = frozenset({"lack", "absence", "shortage"})
#: Subjects that deny their verb: "nobody hogs equipment" says no one does.
NEGATIVE_SUBJECTS = frozenset({"nobody", "nothing", "none", "neither", "noone"})


#: Words that negate the word they hang on whatever label the parser gives them: in a long
#: sentence it may label the *n’t* of *wasn’t* as punctuation.
NEGATION_WORDS = frozenset({"not", "n't", "n\u2019t", "never"})
#: Verbs that keep out what they take as object: their object is not had ("bars dogs",
#: "prohibits smoking"), as a record's "no" says; negated, it is ("does not ban dogs").
#: (Not *limit* or *restrict*: "limits groups to ten" has groups.)
PREVENTING_VERBS = frozenset({"ban", "bar", "prohibit", "forbid", "disallow", "prevent",
                              "preclude", "lack"})
#: An adjective that denies the noun it modifies, or whose conjunct does ("a lot cramped and
#: lacking shade", as the parser may read it): "lacking shade" says there is no shade.
LACKING_ADJ = frozenset({"lacking"})


#: Verbs of opinion whose *not* denies the clause they take: *I don't think it's a disaster*
#: says that it is not one.
NEG_RAISING = frozenset({"think", "believe", "expect", "suppose", "reckon", "imagine"})
#: Nouns of what can go wrong, which *without* takes to say that something went well
#: (*the card was accepted without issue*, *installed without a hitch*).
TROUBLE_NOUNS = frozenset({"issue", "problem", "hitch", "hiccup", "trouble", "incident",
                           "fuss", "hassle", "complaint", "difficulty", "drama", "glitch"})


def _went_smoothly(tok) -> bool:
    """Whether ``tok`` is a noun of :data:`TROUBLE_NOUNS` that *without* takes: the verb it
    hangs on is affirmed, not denied (*accepted without issue* is accepted).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It was accepted without issue. It comes without a lid.")
    >>> [t.text for t in doc if _went_smoothly(t)]
    ['issue']
    """
    return (tok.dep_ == "pobj" and tok.head.lower_ == "without"
            and _lemma(tok) in TROUBLE_NOUNS)


def _negates(child) -> bool:
    """Whether a child negates its head: a ``neg`` ("not suited"), a negation word the
    parser mislabelled (:data:`NEGATION_WORDS` as ``punct`` or ``dep``), or an adverb of
    degree that has one ("not well suited": the parser may hang "not" on "well")."""
    return child.dep_ == "neg" or (
        child.dep_ in ("punct", "dep") and child.lower_ in NEGATION_WORDS) or (
        child.dep_ == "advmod" and child.lower_ in NEGATED_DEGREE
        and any(g.dep_ == "neg" for g in child.children))


def _likened(tok) -> bool:
    """Whether ``tok`` belongs to what a comparison likens something to: the object of
    *like* or *unlike*, or of *resemble*, with its modifiers (*looks like a garage from
    outside*: the shop has no garage for it).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The shop looks like a garage. It has a garage.")
    >>> [(t.text, _likened(t)) for t in doc if t.text == "garage"]
    [('garage', True), ('garage', False)]
    """
    t = tok
    while t.dep_ in ("compound", "amod", "det", "nummod") and t.head.i != t.i:
        t = t.head
    return ((t.dep_ == "pobj" and t.head.lower_ in ("like", "unlike"))
            or (t.dep_ == "dobj" and t.head.lemma_.lower() == "resemble"))


def _comma_not(tok, since) -> bool:
    """Whether ``tok`` is a *not* after ``since`` (the X of *X, not Y*) that opens its part
    after a comma (*, not*, *, but not*), which denies what follows it, however the parser
    hangs it: on X (*credit cards, not Bitcoin*) or on Y (*transferable, not refundable*);
    not a clause's own *not* after a comma (*it is not accessible, dogs are not allowed*).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It takes cards, but not Bitcoin, and dogs are not allowed.")
    >>> [_comma_not(t, doc[2]) for t in doc if t.dep_ == "neg"]
    [True, False]
    """
    if tok.dep_ != "neg" or tok.i <= since.i + 1:
        return False
    before = tok.doc[tok.i - 1]
    if before.lower_ in ("but", "and", "yet") and tok.i >= since.i + 3:
        before = tok.doc[tok.i - 2]
    return before.text == ","


def _before_not(tok) -> bool:
    """Whether ``tok`` is the X of *X not Y* written without a comma, where the parser may
    hang X under Y (*crispy not soggy*: *crispy* the subject of *soggy*): a noun or
    adjective right before a *not* that negates the noun or adjective right after it.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It comes out crispy not soggy.")
    >>> [t.text for t in doc if _before_not(t)]
    ['crispy']
    """
    doc, i = tok.doc, tok.i
    return (i + 2 < len(doc) and tok.pos_ in ("ADJ", "NOUN") and doc[i + 1].lower_ == "not"
            and doc[i + 1].dep_ == "neg" and doc[i + 1].head.i == i + 2
            and doc[i + 2].pos_ in ("ADJ", "NOUN"))


def _opens_neither(tok) -> bool:
    """Whether ``tok`` carries the *neither* of a *neither ... nor* pair (``preconj``)."""
    return any(g.dep_ == "preconj" and g.lower_ == "neither" for g in tok.children)


def _fragment_before_there(tok) -> bool:
    """Whether ``tok`` belongs to a subject the parser gave a *there is* clause that a comma
    opens after it (*Cash only, there's no ATM on site*): a fragment of its own, which the
    clause's *no* does not deny. Not where the clause names nothing else (*Parking, there is
    none*: the parking is denied).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Cash only, there's no ATM on site.")
    >>> [t.text for t in doc if _fragment_before_there(t)]
    ['Cash', 'only']
    """
    n = tok
    while n.dep_ in ("compound", "amod", "advmod", "nummod", "det") and n.head.i != n.i \
            and n.head.pos_ in ("NOUN", "PROPN"):
        n = n.head
    verb = n.head
    if n.dep_ not in ("nsubj", "advmod") or verb.i == n.i:
        return False
    return any(c.dep_ == "expl" and c.i > n.i
               and any(x.text == "," for x in tok.doc[n.i + 1:c.i]) for c in verb.children) \
        and any(c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN") for c in verb.children)


def _lower_words(doc) -> frozenset[str]:
    """The lower-case words of ``doc``, once per document (``clause_negated`` reads every
    token of a context: rare words such as *neither* are looked for only where they are)."""
    words = doc.user_data.get("evaltools.lower_words")
    if words is None:
        words = doc.user_data["evaltools.lower_words"] = frozenset(t.lower_ for t in doc)
    return words


#: Words without which no clause is denied: every way :func:`clause_negated` finds a
#: negation starts from one of them (or from a token the parser labels ``neg``).
NEGATION_CUES = (NEGATION_WORDS | NEGATIVE_SUBJECTS | LACKING_ADJ | LACK_NOUNS
                 | PREVENTING_VERBS | frozenset({"no", "zero", "without", "neither", "nor", "free",
                                                 "rather", "instead", "yet", "lacks"}))


def _root(tok):
    """The root of the sentence tree ``tok`` belongs to."""
    for _ in range(len(tok.doc)):
        if tok.head.i == tok.i:
            break
        tok = tok.head
    return tok


def _denying_roots(doc) -> frozenset[int]:
    """The roots of the sentences of ``doc`` that hold a word of :data:`NEGATION_CUES` or a
    ``neg``, once per document: :func:`clause_negated` climbs a sentence's tree only, so a
    word of any other sentence is not denied (most of a long context is read in one step).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("The shop sells yarn. It has no parking.")
    >>> sorted(_denying_roots(doc)) == [_root(doc[6]).i]
    True
    """
    roots = doc.user_data.get("evaltools.denying_roots")
    if roots is None:
        roots = doc.user_data["evaltools.denying_roots"] = frozenset(
            _root(t).i for t in doc
            if t.dep_ == "neg" or t.lower_ in NEGATION_CUES or _lemma(t) in NEGATION_CUES)
    return roots


def _joined_by_or(tok) -> bool:
    """Whether the conjunct ``tok`` is joined to its head by *or* or *nor*: the nearest
    coordinating word between them, so that in *does not take reservations or serve
    alcohol, and relies on street parking* *serve* is and *relies* is not.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It does not take cards or serve beer, and has a lot.")
    >>> [t.text for t in doc if t.dep_ == "conj" and _joined_by_or(t)]
    ['serve']
    """
    ccs = [c for c in tok.head.children if c.dep_ == "cc" and tok.head.i < c.i < tok.i]
    return bool(ccs) and max(ccs, key=lambda c: c.i).lower_ in ("or", "nor")


def _own_no(item, came) -> bool:
    """Whether the *no* of the listed noun ``item`` is that item's own, not that of
    ``came``, the conjunct below it the climb came from: ``item`` continues a list after a
    comma, after an item its *no* does not deny, and no *or* (*nor*) joins what follows it
    (*small locker rooms, no showers, air conditioning that struggles, and street
    parking*). After *but* the *no* opens a list of its own (*a lot but no reservations,
    alcohol, and outdoor seating*), and *or* carries it along (*no showers, lockers or
    towels*).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It has small lockers, no showers, and street parking.")
    >>> _own_no(doc[6], doc[10]), _own_no(doc[6], None)
    (True, False)
    """
    if came is None or came.dep_ != "conj" or came.head.i != item.i:
        return False
    if item.dep_ != "conj" or item.head.i > item.i or any(
            c.dep_ == "cc" and item.head.i < c.i < item.i for c in item.head.children):
        return False
    return not any(c.dep_ == "cc" and c.lower_ in ("or", "nor")
                   for x in (item, *_conjoined(item)) for c in x.children)


def clause_negated(tok) -> bool:
    """Whether the clause that ``tok`` belongs to is negated.

    True when ``tok`` (or a noun above it) is determined by *no* or governed
    by *without*, or when the nearest governing verb has a ``neg`` child or
    an argument determined by *no* (*no pets are allowed*); a bare verb joined
    to a negated verb shares its negation (*does not serve alcohol or take
    reservations*). An object with *no* denies only itself when its verb has an object
    without one (*offers takeout and catering (no delivery)*), and a noun listed after
    *but*, *plus* or *yet* is had whatever came before it (*no delivery, plus lot
    parking*); what follows *rather than* or *instead of* is set aside, and an adjective of
    *nothing* denied (*nothing fancy*). Used alike for a claim and for every context token,
    so both sides read polarity the same way.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It does not serve alcohol, take reservations or offer catering.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['alcohol', 'reservations', 'catering']
    >>> doc = load_pipeline()("It does not serve alcohol, allow dogs, or offer Wi-Fi.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "PROPN") and clause_negated(t)]
    ['alcohol', 'dogs', 'Wi', 'Fi']
    >>> doc = load_pipeline()("It does not take reservations, serve alcohol, or have "
    ...                       "outdoor seating. It takes cards but not Bitcoin.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "PROPN") and clause_negated(t)]
    ['reservations', 'alcohol', 'seating', 'Bitcoin']
    >>> doc = load_pipeline()("A new date has yet to be announced. It is not necessary.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "ADJ") and clause_negated(t)]
    ['new', 'date', 'necessary']
    >>> doc = load_pipeline()("It takes cards but does not serve alcohol, take "
    ...                       "reservations, offer table service, cater, or provide WiFi.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "PROPN") and clause_negated(t)][-2:]
    ['cater', 'WiFi']
    >>> doc = load_pipeline()("The shop accepts credit cards (but not Bitcoin), allows dogs.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "PROPN") and clause_negated(t)]
    ['Bitcoin']
    >>> doc = load_pipeline()("It has no elevator, a dated room, and thin walls.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['elevator']
    >>> doc = load_pipeline()("It has small lockers, no showers, air conditioning that "
    ...                       "struggles, and street parking. It has no showers or towels.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['showers', 'showers', 'towels']
    >>> doc = load_pipeline()("It has a lot but no reservations, alcohol or outdoor seating. "
    ...                       "It has lockers, no showers, towels or soap.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['reservations', 'alcohol', 'seating', 'showers', 'towels', 'soap']
    >>> doc = load_pipeline()("It has no delivery and only street parking.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['delivery']
    >>> doc = load_pipeline()("He did not win but finished second.")
    >>> clause_negated(doc[5]), clause_negated(doc[3])
    (False, True)
    >>> doc = load_pipeline()("It is quiet. It is cosy but not well suited to groups.")
    >>> [t.text for t in doc if t.pos_ in ("ADJ", "NOUN") and clause_negated(t)]
    ['suited', 'groups']
    >>> doc = load_pipeline()("It is kid-friendly but not wheelchair accessible.")
    >>> [t.text for t in doc if t.pos_ in ("ADJ", "NOUN") and clause_negated(t)]
    ['wheelchair', 'accessible']
    >>> doc = load_pipeline()("Nobody answered the phone, so we left a message.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['phone']
    >>> doc = load_pipeline()("The deposit was only transferable, not refundable.")
    >>> [t.text for t in doc if t.pos_ == "ADJ" and clause_negated(t)]
    ['refundable']
    >>> doc = load_pipeline()("It takes credit cards, not Bitcoin, and has street parking.")
    >>> [t.text for t in doc if t.pos_ in ("NOUN", "PROPN") and clause_negated(t)]
    ['Bitcoin']
    >>> doc = load_pipeline()("It is neither wheelchair accessible nor dog-friendly.")
    >>> [t.text for t in doc if t.pos_ in ("ADJ", "NOUN") and clause_negated(t)]
    ['wheelchair', 'accessible', 'dog', 'friendly']
    >>> doc = load_pipeline()("It is neither kid-friendly nor wheelchair accessible.")
    >>> [t.text for t in doc if t.pos_ in ("ADJ", "NOUN") and clause_negated(t)]
    ['friendly', 'wheelchair', 'accessible']
    >>> doc = load_pipeline()("It is alcohol-free. The park bars dogs.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['alcohol', 'dogs']
    >>> doc = load_pipeline()("It does not serve alcohol, deliver, or offer outdoor seating.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['alcohol', 'seating']

    *Lacks* and *lacking* deny what they take, as *bars* does:

    >>> doc = load_pipeline()("The lot lacks shade. The lot was cramped and lacking shade.")
    >>> [t.text for t in doc if t.text == "shade" and clause_negated(t)]
    ['shade', 'shade']

    What *or* (or *nor*) joins to a negated word shares its negation, what *but* joins
    does not, nor does a gerund after a finite verb:

    >>> doc = load_pipeline()("Causes are a lens that doesn't fit or rubbing your eyes.")
    >>> [t.text for t in doc if t.text in ("fit", "rubbing", "eyes") and clause_negated(t)]
    ['fit']

    *X not Y* without a comma affirms X:

    >>> doc = load_pipeline()("They reheat it so it comes out crispy not soggy.")
    >>> [t.text for t in doc if t.text in ("crispy", "soggy") and clause_negated(t)]
    ['soggy']

    >>> doc = load_pipeline()("It is not cheap or suited to kids. It is not cheap but "
    ...                       "suited to kids.")
    >>> [t.text for t in doc if t.text in ("suited", "kids") and clause_negated(t)]
    ['suited', 'kids']
    >>> doc = load_pipeline()("It does not take reservations or serve alcohol, and relies "
    ...                       "on street parking.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['reservations', 'alcohol']

    A verb of opinion's *not* denies the clause it takes (:data:`NEG_RAISING`):

    >>> doc = load_pipeline()("I don't think it's a disaster. I think it's a mess.")
    >>> [t.text for t in doc if t.text in ("disaster", "mess") and clause_negated(t)]
    ['disaster']

    What *besides* or *except* takes is left out of a negation above it:

    >>> doc = load_pipeline()("No food besides chips and frozen pizza.")
    >>> [t.text for t in doc if t.pos_ == "NOUN" and clause_negated(t)]
    ['food']
    """
    if _root(tok).i not in _denying_roots(tok.doc):
        return False
    if "," in _lower_words(tok.doc) and _fragment_before_there(tok):
        return False  # "Cash only, there's no ATM": the cash is no subject of "no ATM"
    t = tok
    own_article = False
    came = None  # the word the climb came from, a child of t
    words = _lower_words(tok.doc)
    if "not" in words and _before_not(tok):
        return False  # "comes out crispy not soggy": the "not" is the next word's
    if "lacking" in words and tok.pos_ in ("NOUN", "PROPN") and any(
            c.dep_ == "amod" and (c.lower_ in LACKING_ADJ or any(
                g.dep_ == "conj" and g.lower_ in LACKING_ADJ for g in c.children))
            for c in tok.children):
        return True  # "cramped and lacking shade" (the parser's "lacking" on "shade")
    neither = "neither" in words
    for _ in range(12):
        if any(_no_det(c) for c in t.children):
            return not _own_no(t, came)
        if t.dep_ == "pobj" and t.head.lower_ in EXCEPTING:
            return False  # "no food besides chips", "nothing except coffee": these are had
        if neither and (any(c.dep_ == "preconj" and c.lower_ == "neither" for c in t.children)
                        or (t.head.i != t.i and any(
                            c.i < t.i and _opens_neither(c) for c in t.head.children))
                        or (t.pos_ == "ADJ" and any(
                            c.i < t.i and c.dep_ == "amod" and _opens_neither(c)
                            for c in t.children))):
            # "is neither wheelchair accessible nor dog-friendly"; "neither kid-friendly
            # nor wheelchair accessible", where the parser hangs the first adjective, with
            # the "neither", on the last as its modifier
            return True
        if (t.dep_ == "npadvmod" and t.head.lower_ == "free" and t.i + 2 == t.head.i
                and t.doc[t.i + 1].text in JOINERS):
            return True  # "alcohol-free": no alcohol
        if (came is not None and came.dep_ in ("dobj", "nsubjpass")
                and ((t.pos_ == "VERB" and _lemma(t) in PREVENTING_VERBS)
                     or t.lower_ in LACKING_ADJ)):
            # "bars dogs", "prohibits smoking": what is kept out is not had
            return not any(_negates(c) for c in t.children)
        came = t
        if "," in words and t.head.i != t.i:
            # "X, not Y": X hung on Y is affirmed ("transferable, not refundable"), Y hung
            # on X denied ("takes credit cards, not Bitcoin")
            first, last = sorted((t, t.head), key=lambda x: x.i)
            if any(_comma_not(c, first) and c.i < last.i for c in t.head.children):
                if t.head.i > t.i:
                    return False
                if t.dep_ in ("appos", "conj"):
                    return True
        if _set_aside(t):
            return True  # "a dense gel rather than a thin liquid", "instead of a liquid"
        if t.dep_ == "conj" and t.left_edge.dep_ == "neg" and t.left_edge.i > t.head.i:
            # a conjunct that opens with "not", where the parser hangs it on a word inside:
            # "kid-friendly but not wheelchair accessible", "reservations but not walk-ins"
            return True
        if t.dep_ == "conj" and t.head.i < t.i and _joined_by_or(t) and not any(
                c.dep_ in ("nsubj", "nsubjpass", "aux") for c in t.children) and not (
                t.tag_ == "VBG" and t.head.tag_ in ("VB", "VBP", "VBZ", "VBD")):
            # "not accessible or geared toward kids": neither; a gerund is no verb the
            # "not" of a finite one reaches ("a lens that doesn't fit or rubbing your eyes"),
            # nor a conjunct joined by "and" after the "or" ("does not take reservations or
            # serve alcohol, and relies on street parking")
            t = t.head
            continue
        if (t.dep_ == "conj" and t.pos_ in ("NOUN", "PROPN")
                and any(c.dep_ == "det" or c.lower_ in ("only", "just") for c in t.children)):
            # a listed noun with its own article keeps it: "has no elevator, a dated room"
            # (the parser chains the list) does not deny the room, nor "no delivery and only
            # street parking" the parking; a "not" above does
            while t.dep_ == "conj":
                t = t.head
            if t.head.i == t.i:
                return False
            t, own_article = t.head, True
            continue
        if t.dep_ in ("pobj", "pcomp") and (t.head.lower_ == "without" or (
                t.head.lower_ == "of" and t.head.head.lemma_.lower() in LACK_NOUNS)):
            return True  # "without an appointment", "without requiring appointments", "the
            # lack of dinner hours"
        if t.dep_ == "amod" and t.head.lower_ in NEGATIVE_SUBJECTS:
            return True  # "the room is nothing fancy"
        if t.pos_ in ("NOUN", "PROPN") and any(
                c.dep_ == "neg" and not _comma_not(c, t) for c in t.children):
            # "accepts credit cards but not Bitcoin", "cards (but not Bitcoin)", "cards
            # are accepted (not Bitcoin)" (the parser's object predicate)
            return True
        if t.pos_ == "ADJ" and any(_negates(c) for c in t.children):
            return True  # it is "not normally necessary" (the parser hangs "not" on the word)
        if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass"):
            if any(_negates(c) or (
                    not own_article and c.dep_ in SUBJECT_DEPS | OBJECT_DEPS
                    and any(_no_det(g) for g in c.children)
                    and not (c.dep_ in OBJECT_DEPS and _has_plain_object(t))
                    # a verb the parser gives two subjects joins two clauses: "No food
                    # besides chips, and the bathroom situation is one stall"
                    and not (c.dep_ in SUBJECT_DEPS
                             and sum(x.dep_ in SUBJECT_DEPS for x in t.children) > 1))
                    or (c.dep_ in SUBJECT_DEPS and c.lower_ in NEGATIVE_SUBJECTS)
                    for c in t.children):
                return True
            if _lemma(t) in ("have", "be") and any(c.lower_ == "yet" for c in t.children) \
                    and any(c.dep_ == "xcomp" for c in t.children):
                return True  # "a new date has yet to be announced": not announced
            # a bare verb joined to a negated one shares its "not": "does not serve
            # alcohol, take reservations or cater" ("did not go but stayed" does not)
            # (a bare verb the tagger reads as VBP after a bare one: "... or have seating");
            # after a participle a bare verb is an order of its own: "Lunch isn't provided
            # so pack one"
            if (t.dep_ == "conj" and t.head.pos_ in ("VERB", "AUX")
                    and t.tag_ in ("VB", "VBP") and _bare_verb(t.head)
                    and not any(c.dep_ in ("aux", "nsubj") for c in t.children)):
                t = t.head
                continue
            # ... and one the tagger hangs on a listed noun it misread: "does not offer
            # table service, cater, or provide WiFi" (*cater* a noun, *provide* its conj)
            if (t.dep_ == "conj" and t.tag_ in ("VB", "VBP") and t.head.pos_ == "NOUN"
                    and not any(c.dep_ in ("aux", "nsubj") for c in t.children)):
                t = t.head
                continue
            # a verb's complement shares its "not": "did not try to push new tires"
            if t.dep_ == "xcomp" and t.head.pos_ in ("VERB", "AUX"):
                t = t.head
                continue
            # "I don't think it's a disaster" says it is not one (the "not" of a verb of
            # opinion is its clause's)
            return (t.dep_ == "ccomp" and _lemma(t.head) in NEG_RAISING
                    and any(_negates(c) for c in t.head.children))
        if t.dep_ == "conj" and t.pos_ in ("NOUN", "PROPN") and any(
                c.dep_ == "cc" and c.lower_ in CONTRAST_CC and t.head.i < c.i < t.i
                for c in t.head.children):
            return False  # "takeout but no delivery, plus lot parking": the lot is had
        if t.head.i == t.i:
            return False
        t = t.head
    return False


#: Prepositions whose object a negation above them leaves out of what it denies (*no food
#: besides chips*, *nothing is served except coffee*).
EXCEPTING = frozenset({"besides", "except", "excepting"})
#: Words that set aside what follows them: "rather than", "instead of".
SET_ASIDE = {"than": "rather", "of": "instead"}


def _set_aside(tok) -> bool:
    """Whether ``tok`` follows *rather than* or *instead of*: the object of the preposition
    (*rather than a thin liquid*) or, as the parser may read it, a conjunct after it.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It is a dense gel rather than a thin liquid. Ordering is done "
    ...                       "at the counter rather than at tables, and the shop offers takeout.")
    >>> [(t.text, _set_aside(t)) for t in doc if t.text in ("liquid", "offers")]
    [('liquid', True), ('offers', False)]

    Also where the parser hangs the phrase after them elsewhere:

    >>> doc = load_pipeline()("The studio has street parking rather than a lot.")
    >>> [(t.text, _set_aside(t)) for t in doc if t.text in ("parking", "lot")]
    [('parking', False), ('lot', True)]
    """
    def marks(c) -> bool:
        return SET_ASIDE.get(c.lower_) is not None and any(
            g.lower_ == SET_ASIDE[c.lower_] for g in c.children)

    if tok.dep_ == "pobj" and marks(tok.head):
        return True
    start = tok.left_edge.i  # "has street parking rather than a lot", "a lot" hung elsewhere
    if start >= 2 and SET_ASIDE.get(tok.doc[start - 1].lower_) == tok.doc[start - 2].lower_:
        return True
    if tok.dep_ != "conj":
        return False
    # the conjunction right before the conjunct: after "rather than through table service,
    # and the shop offers takeout", the shop's takeout is not set aside
    joins = [c for c in tok.head.children if c.dep_ == "cc" and tok.head.i < c.i < tok.i]
    return bool(joins) and marks(joins[-1])


#: Conjunctions after which a listed noun is had whatever came before it: "no delivery,
#: plus lot parking", "no delivery but takeout".
CONTRAST_CC = frozenset({"but", "plus", "yet"})


def _has_plain_object(verb) -> bool:
    """Whether ``verb`` has an object without *no*: then an object with *no* denies only
    itself ("offers takeout and catering (no delivery)" offers takeout)."""
    return any(c.dep_ in OBJECT_DEPS and not any(_no_det(g) for g in c.children)
               for c in verb.children)


def _bare_verb(tok) -> bool:
    """A bare verb (VB), or a VBP conjunct of one that the tagger misread: in *does not serve
    alcohol, allow dogs, or offer Wi-Fi* it tags *allow* and *offer* VBP, chained."""
    for _ in range(12):
        if tok.tag_ == "VB":
            return True
        if tok.tag_ != "VBP" or tok.dep_ != "conj" or tok.head.i == tok.i:
            return False
        tok = tok.head
    return False


def _phrase(tok, *, drop_conj: bool = False) -> list:
    """Tokens of the phrase headed by ``tok``, clauses of their own left out."""
    out, stack = [], [(tok, True)]
    while stack:
        t, top = stack.pop()
        out.append(t)
        for c in t.children:
            if c.dep_ in OWN_CLAUSE_DEPS:
                continue
            if c.dep_ == "conj" and ((top and drop_conj) or c.pos_ in ("VERB", "AUX")):
                continue
            stack.append((c, False))
    return out


def _example_items(tokens) -> frozenset[int]:
    """The items of an example list among ``tokens``: the nouns after *such as* and their
    conjuncts (*goods such as bourbon, jeans and motorcycles*). Each is a head of what the
    claim says, looked up as an object is: an item the context never lists is invented,
    however well the rest of the list matches.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It taxes goods such as bourbon, jeans and motorcycles.")
    >>> sorted(doc[i].text for i in _example_items(list(doc)))
    ['bourbon', 'jeans', 'motorcycles']
    """
    out = set()
    for t in tokens:
        if (t.dep_ == "pobj" and t.head.lower_ == "as"
                and any(c.lower_ == "such" for c in t.head.children)):
            out.update(x.i for x in (t, *t.conjuncts) if x.pos_ in ("NOUN", "PROPN"))
    return frozenset(out)


def _degree(tok) -> bool:
    """A comparative or superlative word (*larger, best*), *only* before a noun, or
    *always* qualifying a verb or an adjective.

    *more*, *most*, *less* and *least* alone are amounts, not degrees (*burns
    more fuel*); the adjective they grade (*more expensive*) carries the claim.
    *best known* and *better known* say that something is famous, as *well known*
    does: no degree a source has to state.
    """
    if tok.lower_ in FAME_DEGREES and tok.head.lemma_.lower() in ("know", "known"):
        return False
    if tok.lower_ in QUALIFIERS:
        return tok.head.pos_ in ("NOUN", "PROPN", "NUM")
    if tok.lower_ in ABSOLUTES:
        return tok.dep_ == "advmod" and tok.head.pos_ in ("VERB", "AUX", "ADJ")
    return tok.tag_ in ("JJR", "JJS", "RBR", "RBS") and tok.lower_ not in AMOUNT_WORDS


def _a_little(tok) -> bool:
    """Whether ``tok`` is the *little* or *bit* of *a little* / *a bit* grading the word
    it hangs on (*a little heavy on coriander*, *a bit slow*): a degree, no amount, so no
    opposite of the context's *much* (*a bit too much coriander*).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("It was a little heavy. A little salt helps.")
    >>> [t.i for t in doc if _a_little(t)]
    [3]
    """
    return (tok.lower_ in ("little", "bit") and tok.dep_ in ("npadvmod", "amod", "advmod")
            and tok.head.pos_ in ("ADJ", "ADV", "VERB")
            and any(c.dep_ == "det" and c.lower_ == "a" for c in tok.children))


def _reached(tok):
    """What *access to* reaches, when ``tok`` is the noun *access* with it (*a membership
    gives access to the repair stands*: the stands): a claim of what someone may use, not
    of the building's access for wheelchairs (*wheelchair accessible: no*); else None.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Members get access to the tools. Access is easy.")
    >>> [(t.text, _reached(t).text if _reached(t) is not None else None)
    ...  for t in doc if t.lower_ == "access"]
    [('access', 'tools'), ('Access', None)]
    """
    if tok.lower_ != "access" or tok.pos_ != "NOUN":
        return None
    return next((g for c in tok.children if c.dep_ == "prep" and c.lower_ == "to"
                 for g in c.children if g.dep_ == "pobj"), None)


def _plain_comparative(tok) -> bool:
    """A comparative formed with *-er* from its own lemma (*slower*, *busier*, *larger*):
    required as a degree is, but found wherever its lemma stands (*service slowed down*,
    *a busy day*), since a summary writes a change or a contrast in its own words. Not a
    superlative (*the largest* is a rank the context must give), nor an irregular one
    (*better*, *worse*, *further*), nor a comparative of amount (*more*, *less*).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Service got slower, better and the largest.")
    >>> [t.text for t in doc if _plain_comparative(t)]
    ['slower']
    """
    low, lemma = tok.lower_, tok.lemma_.lower()
    return (tok.tag_ in ("JJR", "RBR") and low.endswith("er") and low != lemma
            and low not in AMOUNT_WORDS and len(lemma) >= 3 and low[:3] == lemma[:3])


class _Words:
    """The response's matcher words and mentions, looked up by token."""

    def __init__(self, doc, mentions: Sequence[Mention], words: Sequence[Word] | None = None):
        self.doc = doc
        self.text = doc_text(doc)
        self.words = list(words) if words is not None else words_of(doc)
        self.by_token: list[int] = [-1] * len(doc)
        k = 0
        for tok in doc:
            while k < len(self.words) and self.words[k].end <= tok.idx:
                k += 1
            if k < len(self.words) and self.words[k].start <= tok.idx < self.words[k].end:
                self.by_token[tok.i] = k
        self.mentions = sorted(mentions, key=lambda m: m.start)
        self._starts = [m.start for m in self.mentions]

    def mention_at(self, start: int, end: int) -> Mention | None:
        i = bisect.bisect_right(self._starts, start) - 1
        for j in (i, i + 1):
            if 0 <= j < len(self.mentions):
                m = self.mentions[j]
                if m.start < end and start < m.end:
                    return m
        return None

    def claim_words(self, tokens, role: str, heads: frozenset[int]
                    ) -> tuple[list[ClaimWord], list[Mention]]:
        words: dict[int, ClaimWord] = {}
        values: dict[int, Mention] = {}
        for tok in tokens:
            m = self.mention_at(tok.idx, tok.idx + len(tok.text))
            if m is not None:
                values[m.start] = m
                continue
            k = self.by_token[tok.i]
            if k < 0 or _titles_name(tok) or _a_little(tok) or _reached(tok) is not None:
                continue
            w = self.words[k]
            qualifier = _degree(tok)
            if qualifier and not _plain_comparative(tok):
                surface = fold(tok.text)
                w = Word(w.text, w.start, w.end, surface, (surface,), (surface,), w.sent,
                         True, w.pos, w.num)
            elif not w.content:
                continue
            head = tok.i in heads
            prev = words.get(k)
            if prev is not None:
                head, qualifier = head or prev.head, qualifier or prev.qualifier
            words[k] = ClaimWord(w, rarity(w.key), role, head, qualifier,
                                 negated=clause_negated(tok), likened=_likened(tok))
        return list(words.values()), list(values.values())


def _titles_name(tok) -> bool:
    """Whether ``tok`` is a title (:data:`TITLES`) right before a name: *Sir* of *Sir
    Nicholas Winton*, *Mr* of *Mr Jones*."""
    return (tok.lower_.rstrip(".") in TITLES and tok.i + 1 < len(tok.doc)
            and tok.doc[tok.i + 1].pos_ == "PROPN")


def _span_of(tokens) -> tuple[int, int]:
    first = min(tokens, key=lambda t: t.i)
    last = max(tokens, key=lambda t: t.i)
    while last.i > first.i and (last.is_punct or last.is_space):
        last = last.doc[last.i - 1]
    while first.i < last.i and first.is_space:  # a blanked heading before the sentence
        first = first.doc[first.i + 1]
    return first.idx, last.idx + len(last.text)


def _key(tok) -> str:
    return token_key(tok) if not _is_pronoun(tok) else ""


def _roles(pred, subj, objs, passive: bool) -> tuple[str, str, str] | None:
    """(agent, relation, patient) keys of a predicate, when both participants are named."""
    if subj is None or _is_pronoun(subj):
        return None
    rel = token_key(pred)
    if passive:
        agent = next((g for c in pred.children if c.dep_ == "agent"
                      for g in c.children if g.dep_ == "pobj"), None)
        if agent is None or not _key(agent):
            return None
        return (_key(agent), rel, _key(subj))
    for o in objs[:1]:
        if o.dep_ == "acomp" and o.tag_ in ("JJR", "RBR"):  # "X is larger than Y"
            than = next((g for c in o.children if c.dep_ == "prep" and c.lower_ == "than"
                         for g in c.children if g.dep_ == "pobj"), None)
            if than is not None and _key(than):
                return (_key(subj), fold(o.text), _key(than))
        if o.dep_ in OBJECT_DEPS and o.dep_ != "attr" and _key(o):
            return (_key(subj), rel, _key(o))
    return None


def _opens_line(tok) -> bool:
    """Whether only list markers and punctuation precede ``tok`` in its sentence and line."""
    i = tok.i - 1
    while i >= tok.sent.start:
        prev = tok.doc[i]
        if prev.is_space and "\n" in prev.text:
            return True
        if not (prev.is_punct or prev.is_space or list_mark(prev)):
            return False
        i -= 1
    return True


def _speaker_claim(pred, words: _Words) -> Claim | None:
    """The attribution of a verb of saying or thinking to a named speaker (*Duke University
    professor Jay O'Berski suggests that ...*): a claim of kind ``"speaker"`` whose words
    are the speaker's phrase, or None (no such verb; a speaker that is a pronoun, the
    first person, a source or a reviewer, or holds no capitalised name; a modal, a
    hedging word or a negation on the verb)."""
    if _lemma(pred) not in SPEECH_VERBS or pred.pos_ != "VERB":
        return None
    subj = next((c for c in pred.children if c.dep_ == "nsubj"), None)
    if (subj is None or _is_pronoun(subj) or _first_person(subj)
            or _lemma(subj) in SOURCE_NOUNS or _for_reviewers(subj)):
        return None
    if any((c.dep_ in ("aux", "auxpass") and _lemma(c) in HEDGE_AUX)
           or c.lower_ in HEDGE_WORDS or _negates(c) for c in pred.children):
        return None
    tokens = _phrase(subj, drop_conj=False)
    if not any(t.pos_ == "PROPN" and t.text[:1].isupper() for t in tokens):
        return None
    subj_words, subj_values = words.claim_words(tokens, "subject", frozenset({subj.i}))
    if not subj_words:
        return None
    start, end = _span_of([*tokens, pred])
    return Claim(text=words.text[start:end], start=start, end=end, subject=_lemma(subj),
                 verb=_lemma(pred), object="", negated=False, kind="speaker",
                 words=tuple(subj_words), values=tuple(subj_values))


def _predicate_claims(pred, words: _Words) -> list[Claim]:
    if pred.dep_ in ("acl", "advcl", "relcl") and _infinitive(pred):
        return []  # "a way to clean it", "to keep drinks cold": purposes, not facts
    if _not_asserted(pred):
        return []
    subj, passive = _subject(pred)
    imperative = (subj is None and pred.dep_ == "ROOT" and pred.tag_ == "VB")
    if subj is not None and subj.tag_ in RELATIVE_TAGS:
        return []
    if subj is not None and _first_person(subj):
        return []
    objs = _objects(pred)
    if (subj is not None and subj.dep_ == "expl" and objs
            and _OWN_POINT.fullmatch(objs[0].lower_)):
        return []  # "There are two main reasons (why ...)": the response's own structure
    primary = next((c for c in pred.children if c.dep_ in OBJECT_DEPS | {"acomp"}), None)
    if primary is not None and (
            words.mention_at(primary.idx, primary.idx + len(primary.text))
            or (primary.dep_ == "acomp" and any(
                words.mention_at(t.idx, t.idx + len(t.text)) for t in primary.subtree))):
        return []  # "costs $35", "is 3.5 inches wide": left to the number anchor
    reviewer = subj is not None and _for_reviewers(subj)
    praise = (frozenset(token_key(o) for o in objs
                        if _lemma(o) in PRAISE_NOUNS or o.lower_ in PRAISE_NOUNS)
              if _lemma(pred) in RECEIVING_VERBS else frozenset())
    praised = bool(praise)
    listing = (subj is not None and not passive and subj.tag_ == "NNS"
               and _lemma(pred) in LISTING_VERBS
               and not any(c.dep_ == "det" and c.lower_ in DEMONSTRATIVES
                           for c in subj.children))
    named_subject = subj is not None and not _is_pronoun(subj) and not reviewer and not listing
    own_subject = named_subject and (subj.head.i == pred.i or (  # or across a semicolon
        subj.dep_ == "conj" and subj.i < pred.i and any(a.i == pred.i for a in subj.ancestors)))
    subj_tokens = _phrase(subj, drop_conj=False) if named_subject else []
    # the predicate's own tokens: the verb, its particles and arguments (objects apart)
    shared = [pred]
    obj_ids = {o.i for o in objs}
    for child in pred.children:
        if child.dep_ in ARGUMENT_DEPS and child.i not in obj_ids and not _discourse(
                child, pred) and not _absolute(child) and not (
                child.dep_ in ("prep", "agent") and any(g.i in obj_ids for g in child.children)):
            shared.extend(_phrase(child))
    prep_objs = {o.i for o in objs if o.dep_ == "pobj"}
    heads = frozenset({subj.i} if named_subject else set())
    subj_words, subj_values = words.claim_words(subj_tokens, "subject", heads)
    out = []
    groups = [[o] for o in objs] or [[]]
    if prep_objs:  # objects of a preposition stay together: "comes with a cap and a lid"
        groups = [objs]
    for k, group in enumerate(groups):
        obj_tokens = []
        for o in group:
            if o.i == pred.head.i:  # relative pronoun object: the noun is outside the clause
                continue
            if o.dep_ == "pobj":
                obj_tokens.extend([o.head, *_phrase(o, drop_conj=True)])
            else:
                obj_tokens.extend(_phrase(o, drop_conj=True))
        obj_heads = frozenset(o.i for o in group if not _is_pronoun(o)) | _example_items(
            obj_tokens)
        pred_words, pred_values = words.claim_words(
            [*shared, *obj_tokens], "predicate", obj_heads)
        # the verb of reviewing weighs nothing with a reviewer as subject, and in a passive
        # without an agent: "the pizza is praised", "parking was described as limited"
        agentless = passive and not any(c.dep_ == "agent" for c in pred.children)
        light = AVAILABILITY_WORDS | KIND_VERBS | KIND_NOUNS | (
            REVIEW_VERBS if reviewer else PRAISE_VERBS if agentless else frozenset()) | (
            LISTING_VERBS if listing else frozenset()) | (
            RECEIVING_VERBS | praise if praised else frozenset())
        pred_words = [dataclasses.replace(w, weight=0.0, head=False)
                      if w.word.key in light and not w.qualifier else w
                      for w in pred_words]
        if any(o.i == pred.head.i for o in group):  # "the car that she bought": car is the object
            extra, _ = words.claim_words(_phrase(pred.head), "predicate", frozenset({pred.head.i}))
            pred_words.extend(extra)
        has_object = any(not _is_pronoun(o) and not words.mention_at(o.idx, o.idx + len(o.text))
                         for o in group)
        if imperative and not has_object:
            continue
        if not named_subject and not has_object:
            continue  # nothing to look up: "it was released in 2019"
        if subj is None and not imperative and not _opens_line(pred):
            continue  # a subject the parser lost mid-sentence; "Includes a lid." is kept
        if not pred_values and not any(w.word.start != pred.idx for w in pred_words) and (
                not passive or any(c.dep_ in ("ccomp", "xcomp") for c in pred.children)):
            continue  # the active verb alone: "its breakthrough came", "economists assert"
        if k == 0:
            span_tokens = [t for t in shared if not group or t.i <= max(
                x.i for x in obj_tokens or [pred])] + obj_tokens
            span_tokens += [c for c in pred.children
                            if (c.dep_ in ("aux", "auxpass", "neg") and c.i < pred.i)
                            or (c.dep_ == "advmod" and c.lower_ in RESTRICTING)]
            if own_subject and subj.i < pred.i:
                span_tokens += subj_tokens
        else:
            span_tokens = obj_tokens or [pred]
        start, end = _span_of(span_tokens)
        obj = group[0] if group else None
        focus_tok = obj if obj is not None and not _is_pronoun(obj) else pred
        available = ((focus_tok is pred or focus_tok.dep_ == "acomp")
                     and token_key(focus_tok) in SUBJECT_FOCUS)
        placed = focus_tok.dep_ == "pobj" and token_key(pred) in AVAILABILITY_WORDS
        if named_subject and (available or placed):
            # "delivery is not offered": is delivery negated in the record? "dogs are allowed
            # on the patio": what is allowed is the dogs, not the patio
            focus_tok = subj
        if (subj is not None and subj.lower_ in NEGATIVE_SUBJECTS and focus_tok is not pred
                and focus_tok.dep_ == "pobj"):
            # "none have been spotted at the site": what is denied is the sighting, not the
            # site (the context may name it in an affirmed clause: "recorded on the site")
            focus_tok = pred
        if (token_key(focus_tok) in LIGHT_PARTS and focus_tok.i >= 2
                and focus_tok.nbor(-1).text == "-"):
            focus_tok = focus_tok.nbor(-2)  # "not kid-friendly": is "kids" negated?
        reached = _reached(focus_tok)
        if reached is not None:
            focus_tok = reached  # "gives access to the repair stands": the stands, no ramp
        focus = ("" if focus_tok.is_stop else
                 fold(focus_tok.text) if _degree(focus_tok) else token_key(focus_tok))
        smooth = obj is not None and _went_smoothly(obj)  # "accepted without issue"
        if smooth and focus_tok is obj:
            focus_tok = pred
            focus = token_key(pred)
        negated = (clause_negated(obj) if obj is not None and not smooth
                   else clause_negated(pred)) or (
            named_subject and any(_no_det(c) for c in subj.children))
        kind = ("imperative" if imperative else "relative" if pred.dep_ == "relcl"
                else "participle" if pred.dep_ in ("acl", "advcl") else "passive" if passive
                else "copula" if pred.lemma_ == "be" else "svo")
        if any(w.qualifier for w in pred_words) and kind in ("copula", "svo"):
            kind = "comparison" if any(w.word.text.lower().endswith(("er", "est"))
                                       for w in pred_words if w.qualifier) else kind
        out.append(Claim(
            text=words.text[start:end], start=start, end=end,
            subject=_lemma(subj) if named_subject else None, verb=_lemma(pred),
            object=_lemma(obj) if obj is not None else "", negated=negated, kind=kind,
            words=tuple(subj_words + pred_words), values=tuple(subj_values + pred_values),
            roles=_roles(pred, subj, group, passive), focus=focus,
            definite=named_subject and _definite_description(subj, subj_tokens),
            past=pred.tag_ == "VBD" and any(c.dep_ == "dobj" for c in pred.children)))
    return out


#: Determiners of a description that refers back (*the striker*, *this move*).
DEFINITE_DETS = frozenset({"the", "this", "that", "these", "those"})


def _definite_description(subj, subj_tokens) -> bool:
    """Whether a subject is a common noun that refers back (*the striker*, *the firm*), not
    a name (*the BBC*) nor a noun a name stands in (*the Welsh Government*)."""
    return (subj.pos_ == "NOUN"
            and any(c.dep_ == "det" and c.lower_ in DEFINITE_DETS for c in subj.children)
            and not any(t.pos_ == "PROPN" or t.like_num for t in subj_tokens))


def _with_antecedents(claims: list[Claim], sent_starts: list[int]) -> list[Claim]:
    """Each definite description's antecedent: the subject words of the last claim of an
    earlier sentence whose subject holds a name (*The 29-year-old will make his debut* after
    *Conor McGregor ...*). Read only when the description itself finds no support."""
    out: list[Claim] = []
    named: tuple[int, tuple[ClaimWord, ...]] | None = None  # (sentence, subject words)
    for c in claims:
        sent = bisect.bisect_right(sent_starts, c.start) - 1
        if c.definite and named is not None and named[0] < sent:
            c = dataclasses.replace(c, antecedent=named[1])
        subject = tuple(w for w in c.words if w.role == "subject")
        if any(w.name and not w.word.num for w in subject):
            named = (sent, subject)
        out.append(c)
    return out


def _listed_items(tok) -> list:
    """The items of a list the parser read as an apposition to its first item (*mention a
    400 fps limit, a thorough safety briefing, eye protection, and Friday night games*:
    *briefing* an apposition of *limit*, the rest its conjuncts): ``tok`` and its
    conjuncts, when a comma stands before the first conjunct and *and*, *or* or *nor*
    joins them; else nothing (*Tim Cook, the CEO and co-founder*: one apposition).

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Players mention a 400 fps limit, a thorough safety briefing, "
    ...                       "eye protection, and Friday night games.")
    >>> [t.text for t in _listed_items(doc[10])]
    ['briefing', 'protection', 'games']
    >>> doc = load_pipeline()("Tim Cook, the CEO and co-founder, spoke.")
    >>> doc[4].text, _listed_items(doc[4])
    ('CEO', [])
    """
    items = [tok, *sorted(tok.conjuncts, key=lambda t: t.i)]
    if len(items) < 2:
        return []
    doc = tok.doc
    k = items[1].left_edge.i - 1
    if k >= 0 and doc[k].dep_ == "cc":
        k -= 1
    if k < 0 or doc[k].text != ",":
        return []
    if not any(c.dep_ == "cc" and c.lower_ in ("and", "or", "nor")
               for t in items for c in t.children):
        return []
    return items


def _appositive_claims(tok, words: _Words) -> list[Claim]:
    """"Tim Cook, the former CEO of Apple, ...": Tim Cook is the former CEO of Apple.

    Negated only by a negation of its own ("Tim Cook, not the CEO, ..."), never by its head's
    verb: "The shop does not accept credit cards (cash or check only)" does not deny cash;
    but for a list of bare nouns the parser took for one ("does not offer seating, Wi-Fi, or
    TV"), whose items the verb's "not" denies too. A list of several items the parser took
    for one (:func:`_listed_items`) gives a claim per item, each looked up alone (the first
    item is looked up with its verb): no item is said to be the one before it."""
    head = tok.head
    if (head.pos_ not in ("NOUN", "PROPN") or tok.pos_ not in ("NOUN", "PROPN")
            or head.dep_ == "ROOT"):
        return []  # a verbless fragment ("Great question, happy shopping!") asserts nothing
    before = tok.left_edge.i - 1
    if head.i > tok.i or before < 0 or tok.doc[before].text not in (",", "(", "—", "–"):
        return []  # set off by a comma, a bracket or a dash: "Tim Cook, the CEO of Apple,"
    if tok.doc[before].text == ",":
        items = _listed_items(tok)
        if items:
            return [c for c in (_list_item_claim(t, head, words) for t in items) if c]
        if any(_no_det(c) for c in head.children):  # "stairs with no elevator, tough street
            # parking": nothing renames what is not there; a list item, looked up alone
            item = _list_item_claim(tok, head, words)
            return [item] if item else []
    if words.mention_at(tok.idx, tok.idx + len(tok.text)):
        return []
    # a list of bare nouns the parser read as an apposition ("doesn't offer seating, Wi-Fi,
    # or TV"): its items are what its head's clause says of them, "not" and all ("Ann, the
    # owner, and Bob" is an apposition)
    listed = (tok.doc[before].text == ","
              and any(c.dep_ == "cc" and c.lower_ in ("or", "and", "nor") for c in tok.children)
              and any(c.dep_ == "conj" for c in tok.children)
              and not any(c.dep_ in ("det", "poss") for c in tok.children))
    subj_tokens = _phrase(head)
    obj_tokens = _phrase(tok)
    subj_words, subj_values = words.claim_words(subj_tokens, "subject", frozenset({head.i}))
    pred_words, pred_values = words.claim_words(obj_tokens, "predicate", frozenset({tok.i}))
    if not subj_words or not pred_words:
        return []
    start, end = _span_of([*subj_tokens, *obj_tokens])
    return [Claim(text=words.text[start:end], start=start, end=end, subject=_lemma(head),
                 verb="be", object=_lemma(tok), kind="appositive",
                 # what the apposition names holds whatever its head's verb says ("does not
                 # accept credit cards (cash or check only)": no claim that cash is refused);
                 # a head's "no" reaches an apposition without an article of its own, a list
                 # item the parser misread ("no outdoor seating, Wi-Fi, or TV")
                 negated=any(_no_det(c) or _negates(c) for c in tok.children) or (
                     any(_no_det(c) for c in head.children)
                     and not any(c.dep_ == "det" for c in tok.children))
                 or (listed and clause_negated(head)),
                 words=tuple(subj_words + pred_words), values=tuple(subj_values + pred_values),
                 focus=token_key(tok))]


def _list_item_claim(item, first, words: _Words) -> Claim | None:
    """One item of a list the parser read as an apposition to its ``first`` item
    (:func:`_listed_items`): the item's own phrase, denied by a negation of its own, or
    (with no article of its own) by whatever denies the first item (*offers no seating,
    Wi-Fi, or TV*), unless that is the object of a preposition other than *without*: in
    *complaints include a staircase with no elevator, difficult street parking, ...* the
    list is the staircase's, and the parking is no more denied than the staircase."""
    tokens = _phrase(item, drop_conj=True)
    if words.mention_at(item.idx, item.idx + len(item.text)):
        return None
    pred_words, pred_values = words.claim_words(tokens, "predicate", frozenset({item.i}))
    if not pred_words:
        return None
    start, end = _span_of(tokens)
    return Claim(text=words.text[start:end], start=start, end=end, subject=None,
                 verb="be", object=_lemma(item), kind="appositive",
                 negated=any(_no_det(c) or _negates(c) for c in item.children) or (
                     not any(c.dep_ in ("det", "poss") for c in item.children)
                     and (first.dep_ != "pobj" or first.head.lower_ == "without")
                     and clause_negated(first)),
                 words=tuple(pred_words), values=tuple(pred_values), focus=token_key(item))


#: Verbs that judge their object to be something ("reviewers consider it the best clinic in
#: town", "guests find the rooms spacious", "diners call it the best pho"): the judgement is a
#: claim about the object, as "it is the best clinic in town" is.
JUDGING_VERBS = frozenset({
    "consider", "find", "call", "deem", "rate", "rank", "name", "dub", "label", "judge",
    "declare", "crown", "vote",
})


def _small_clause_claim(tok, words: _Words) -> Claim | None:
    """A judging verb's verbless complement as a claim of its own: "reviewers consider
    **it the best clinic in Madison**" claims that it is the best clinic in Madison, as
    "they say it is ..." does.

    ``tok`` heads the complement: a noun or adjective clause of the verb with a subject of
    its own (``ccomp``: "consider it the best clinic", "find the rooms spacious"), or the
    verb's object predicate after a pronoun object ("call it the most caring clinic"; after
    a noun object, "call the pho the best", the verb's own claim holds both).
    """
    verb = tok.head
    if verb.pos_ != "VERB" or _lemma(verb) not in JUDGING_VERBS or _not_asserted(verb):
        return None
    if tok.dep_ == "ccomp" and tok.pos_ in ("NOUN", "ADJ"):
        subj = next((c for c in tok.children if c.dep_ == "nsubj"), None)
    elif tok.dep_ == "oprd" and tok.pos_ in ("NOUN", "ADJ"):
        subj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if subj is None or not _is_pronoun(subj):
            return None
    else:
        return None
    if subj is None or _first_person(subj) or words.mention_at(tok.idx, tok.idx + len(tok.text)):
        return None
    named = not _is_pronoun(subj)
    subj_tokens = _phrase(subj) if named else []
    obj_tokens = [t for t in _phrase(tok) if t.i != subj.i and t not in subj_tokens]
    subj_words, subj_values = words.claim_words(subj_tokens, "subject",
                                                frozenset({subj.i} if named else ()))
    pred_words, pred_values = words.claim_words(obj_tokens, "predicate", frozenset({tok.i}))
    if not pred_words:
        return None
    start, end = _span_of([*subj_tokens, *obj_tokens])
    return Claim(text=words.text[start:end], start=start, end=end,
                 subject=_lemma(subj) if named else None, verb="be", object=_lemma(tok),
                 negated=clause_negated(tok) or clause_negated(verb), kind="copula",
                 words=tuple(subj_words + pred_words), values=tuple(subj_values + pred_values),
                 focus=fold(tok.text) if _degree(tok) else token_key(tok),
                 definite=named and _definite_description(subj, subj_tokens))


def _lines(sent):
    """Runs of a sentence's tokens between line breaks."""
    line: list = []
    for tok in sent:
        if tok.is_space and "\n" in tok.text:
            if line:
                yield line
            line = []
        elif not tok.is_space:
            line.append(tok)
    if line:
        yield line


def _list_item_claims(line, words: _Words) -> list[Claim]:
    """A verbless list item ("- Free parking") as a claim of its own; an item whose parts
    semicolons or commas separate, a claim for each part that holds a noun (*- Free WiFi;
    street parking only*, *- Not wheelchair accessible, not good for kids, and no dogs*:
    each part with its own head and its own *not*)."""
    if not list_mark(line[0]) or any(
            t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass") for t in line
    ) or _labels_a_body(line):
        return []
    body = line[1:]
    while body and (body[0].is_punct or body[0].text in BULLETS):
        body = body[1:]
    parts: list[list] = [[]]
    for t in body:
        if t.text in (";", ","):
            parts.append([])
        elif not (t.lower_ in ("and", "or") and not parts[-1]):
            parts[-1].append(t)
    parts = [x for x in parts if any(t.pos_ in ("NOUN", "PROPN") for t in x)]
    if len(parts) < 2:
        parts = [body]
    return [c for c in (_list_part_claim(x, words) for x in parts) if c is not None]


def _labels_a_body(line) -> bool:
    """Whether a verbless list item is the label of a body its line goes on with: it ends
    with a period or a colon and a verb follows before the line ends (*- **Combining
    images.** Photographers pieced negatives together*): the body states the facts, the
    label names them. An item alone on its line (*- Free parking.*) or before more verbless
    words (*- Free WiFi. Street parking only.*) states its own.

    >>> from evaltools.text import load_pipeline
    >>> doc = load_pipeline()("Ways:\\n- Combining images. Photographers pieced photos.\\n"
    ...                       "- Free WiFi. Street parking only.\\n- Hand retouching.")
    >>> [c.text for c in extract_claims(doc) if c.kind == "list item"]
    ['Free WiFi', 'Hand retouching']
    """
    last = line[-1]
    if last.text not in (".", ":"):
        return False
    for t in last.doc[last.i + 1:]:
        if t.is_space and "\n" in t.text:
            return False
        if t.pos_ in ("VERB", "AUX"):
            return True
    return False


def _list_part_claim(body, words: _Words) -> Claim | None:
    if not body:
        return None
    heads = frozenset({max((t for t in body if t.pos_ in ("NOUN", "PROPN")),
                           key=lambda t: t.i, default=body[-1]).i})
    found, values = words.claim_words(body, "predicate", heads)
    if not found or (values and len(found) <= 1):
        return None  # "- Price: $35" is the number's anchor
    start, end = _span_of(body)
    head = body[0].doc[next(iter(heads))]
    negated = any(t.lower_ in ("no", "not", "without") for t in body)
    return Claim(text=words.text[start:end], start=start, end=end, subject=None, verb="",
                 object=_lemma(head), negated=negated, kind="list item", words=tuple(found),
                 values=tuple(values), focus=token_key(head))


def extract_claims(doc, *, mentions: Sequence[Mention] = (),
                   words: Sequence[Word] | None = None) -> list[Claim]:
    """Asserted claims of a parsed response, in text order.

    ``mentions`` are the response's number and date anchors: a clause whose
    object is one is left to it; others become the claim's ``values``.
    ``words`` are ``words_of(doc)`` when the caller has them already.
    Linear in the length of the text.

    Examples
    --------
    >>> from evaltools.text import load_pipeline
    >>> nlp = load_pipeline()
    >>> doc = nlp("The Rambler includes a lid but it does not include a straw.")
    >>> [(c.subject, c.verb, c.object, c.negated) for c in extract_claims(doc)]
    [('rambler', 'include', 'lid', False), (None, 'include', 'straw', True)]
    >>> extract_claims(nlp("The Rambler may include a lid."))
    []
    >>> [(c.kind, c.text) for c in extract_claims(nlp("The bridge was built by Smith."))]
    [('passive', 'The bridge was built by Smith')]
    """
    words = _Words(doc, mentions, words)
    claims: list[Claim] = []
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    for sent in sents:
        if sent.text.rstrip().endswith("?"):
            continue
        for tok in sent:
            speaker = _speaker_claim(tok, words)
            if speaker is not None:
                claims.append(speaker)
            if _is_predicate(tok):
                claims.extend(_predicate_claims(tok, words))
            elif tok.dep_ == "appos" and not _not_asserted(tok.head.head):
                claims.extend(_appositive_claims(tok, words))
            elif tok.dep_ in ("ccomp", "oprd"):
                c = _small_clause_claim(tok, words)
                if c is not None:
                    claims.append(c)
        for line in _lines(sent):
            claims.extend(_list_item_claims(line, words))
    claims.sort(key=lambda c: (c.start, c.end))
    return _with_antecedents(claims, [s.start_char for s in sents])
