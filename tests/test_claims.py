"""Claims in every common construction, and their support in one context sentence.

Each construction has a supported and an unsupported pair; the expectations
are written by hand from the sentences, not read off the code.
"""


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.config import DEFAULT_CONFIG as DEFAULT
from evaltools.scoring.anchors.claims import extract_claims
from evaltools.scoring.anchors.context_index import ContextIndex
from evaltools.scoring.anchors.mentions import find_mentions

SHARE = DEFAULT.hallucination.claim_min_share
RARE = DEFAULT.hallucination.claim_rare_above
HEAD = DEFAULT.hallucination.claim_head_rare_above


def claims(nlp, text):
    return extract_claims(nlp(text), mentions=find_mentions(text))


def triples(nlp, text):
    return [(c.subject, c.verb, c.object, c.negated) for c in claims(nlp, text)]


def check(nlp, context, response, kind=None):
    idx = ContextIndex(nlp(context), find_mentions(context))
    return [(c, idx.support(c, min_share=SHARE, rare_above=RARE,
                                    head_rare_above=HEAD)) for c in claims(nlp, response)
            if kind is None or c.kind == kind]


def assert_first_claim(nlp, context, response, supported, note):
    """The response's first claim is ``supported`` (or not) by ``context``, with ``note``."""
    (c, s), *_ = check(nlp, context, response)
    assert s.supported is supported, (c.text, s.note)
    assert note in s.note


# --- extraction --------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("The Rambler includes a lid.", [("rambler", "include", "lid", False)]),
    ("The Hydro Flask includes a Flex Cap and a straw lid.",
     [("flask", "include", "cap", False), ("flask", "include", "lid", False)]),
    ("It does not include a lid.", [(None, "include", "lid", True)]),
    ("The set has no lid.", [("set", "have", "lid", True)]),
    ("The kit comes without batteries.", [("kit", "come", "battery", True)]),
    # "or" after a "not" carries it (neither ... nor), "but" does not
    ("The salon is not wheelchair accessible or geared toward kids.",
     [("salon", "be", "wheelchair", True), ("salon", "gear", "kid", True)]),
    ("The salon is not wheelchair accessible but geared toward kids.",
     [("salon", "be", "wheelchair", True), ("salon", "gear", "kid", False)]),
    ("The battery is not replaceable.", [("battery", "be", "replaceable", True)]),
    ("The blender is a Ninja product.", [("blender", "be", "product", False)]),
])
def test_subject_verb_object_claims(nlp, text, expected):
    assert triples(nlp, text) == expected


@pytest.mark.parametrize(("text", "kind", "span"), [
    ("The bridge was built in 1932.", "passive", "The bridge was built in 1932"),
    ("The bridge, which was built in 1932, spans the river.", "relative",
     "was built in 1932"),
    ("Founded in 1990, the company makes shoes.", "participle", "Founded in 1990"),
    ("Tim Cook, the former CEO of Apple, visited Paris.", "appositive",
     "Tim Cook, the former CEO of Apple"),
    ("Lake Victoria is the largest lake in Africa.", "comparison",
     "Lake Victoria is the largest lake in Africa"),
    ("The Hydro Flask is larger than the Yeti.", "comparison",
     "The Hydro Flask is larger than the Yeti"),
    ("Preheat the oven to 350 degrees.", "imperative", "Preheat the oven"),
    ("Do not use bleach.", "imperative", "Do not use bleach"),
    ("No pets are allowed.", "passive", "No pets are allowed"),
    ("Includes a 2-year limited warranty.", "svo", "Includes a 2-year limited warranty"),
    ("The battery is replaceable.", "copula", "The battery is replaceable"),
])
def test_each_construction_is_a_claim(nlp, text, kind, span):
    found = {(c.kind, c.text) for c in claims(nlp, text)}
    assert (kind, span) in found
    for c in claims(nlp, text):
        assert text[c.start:c.end] == c.text


def test_coordinated_verbs_make_one_claim_each(nlp):
    cs = claims(nlp, "Apple acquired Beats and hired its founders.")
    assert [(c.subject, c.verb, c.object) for c in cs] == [
        ("apple", "acquire", "beats"), ("apple", "hire", "founder")]


def test_a_listed_clause_without_a_subject_shares_the_nearest_one_before_it(nlp):
    """The parser hangs every clause of the list on the first (*needed*); a faithful
    overview's *is wheelchair accessible* took *No appointment* as its subject and its
    *no* with it, and the record's ``wheelchair accessible: yes`` then denied it."""
    cs = claims(nlp, "No appointment is needed, and the clinic accepts cards, is wheelchair "
                     "accessible and has parking.")
    assert [(c.subject, c.negated) for c in cs] == [
        ("appointment", True), ("clinic", False), ("clinic", False), ("clinic", False)]
    # a list whose later clauses have no subject of their own before them keeps the first's
    cs = claims(nlp, "The shop does not sell shoes, but repairs them and offers delivery.")
    assert [(c.subject, c.negated) for c in cs] == [("shop", True), ("shop", False)]


def test_verbless_list_items_are_claims(nlp):
    text = "Amenities:\n- Free parking\n- Outdoor pool\n- Price: $35"
    cs = claims(nlp, text)
    assert [(c.kind, c.text) for c in cs] == [("list item", "Free parking"),
                                              ("list item", "Outdoor pool")]


@pytest.mark.parametrize(("text", "items"), [
    # a bold label whose body goes on in its line names the body's facts: no claim
    ("The main risks are:\n- **Bypassing Secure Boot.** Users with admin rights can boot "
     "any system.\n- **Hand retouching.** Photos were retouched with ink.", []),
    # the same items alone on their lines state their own
    ("The main risks are:\n- **Bypassing Secure Boot.**\n- **Hand retouching.**",
     ["Bypassing Secure Boot", "Hand retouching"]),
])
def test_a_label_whose_line_goes_on_with_its_body_is_no_claim(nlp, text, items):
    response = evaltools.score("What are the risks?", "Users can boot any system.", text)
    labels = ("Bypassing Secure Boot", "Hand retouching")
    assert [a.text for a in response.anchors
            if a.kind == "claim" and a.text in labels] == items


def test_a_list_items_parts_are_claims_each_with_its_own_not(nlp):
    """One claim for *- Not wheelchair accessible, not good for kids, and no dogs* was
    negated by any *no* in it and headed by its last noun; *- Free WiFi; street parking
    only* was one claim whose *street* no record sentence needed (a record's *parking lot:
    no* denied it)."""
    text = ("Details:\n- Free WiFi; street parking only\n- Not wheelchair accessible, not "
            "good for kids, and no dogs\n- Quiet, cozy atmosphere")
    assert [(c.text, c.object, c.negated) for c in claims(nlp, text)] == [
        ("Free WiFi", "wifi", False), ("street parking only", "parking", False),
        ("Not wheelchair accessible", "wheelchair", True), ("not good for kids", "kid", True),
        ("no dogs", "dog", True), ("Quiet, cozy atmosphere", "atmosphere", False)]


@pytest.mark.parametrize("text", [
    "The bottle may include a carrying case.",
    "The bottle might include a carrying case.",
    "The bottle could include a carrying case.",
    "It appears to include a strap.",
    "It seems to include a strap.",
    "Stanley reportedly released the Quencher.",
    "The lid possibly contains BPA.",
    "I think it includes a case.",
    "The data suggests a defect.",
    "If it includes a lid, keep it.",
    # statements about the sources
    "The document does not say when the bridge opened.",
    "The context doesn't mention parking.",
    "There is no information about parking in the document.",
    # opinions and first person
    "I love this hotel.",
    "You will love the rooftop bar.",
    "The view is amazing.",
    "I visited the museum last year.",
    # questions
    "Does the hotel have a pool?",
    "Is the bridge older than the tunnel?",
])
def test_hedges_meta_opinions_and_questions_are_not_claims(nlp, text):
    assert claims(nlp, text) == []


def test_a_coordinated_verb_is_asserted_though_its_first_conjunct_is_an_opinion(nlp):
    # "is good for kids" is an opinion; "has no WiFi" and "takes reservations" are facts a
    # record may deny, and were skipped with it
    texts = [c.text for c in extract_claims(nlp(
        "It is good for kids, has no WiFi, and takes reservations."))]
    assert texts == ["has no WiFi", "takes reservations"]
    # a conjunct that is an opinion of its own stays one
    assert claims(nlp, "The view is amazing and the food is great.") == []


def test_a_list_items_not_stays_in_its_line(nlp):
    """The parser ran a bullet's line into the next (no period ends it): the *not* of
    *not wheelchair accessible* hung on *range* and denied the line's bike parking, which
    the record affirms (a faithful overview failed). Sentences now start at list items."""
    from evaltools.scoring.context import unmark

    text = ("- **Hours:** Friday 9 AM–6 PM, Saturday 9 AM–5 PM\n- **Details:** By "
            "appointment only, accepts credit cards, higher price range, street parking and "
            "bike parking, good for kids; not wheelchair accessible\n\n**What customers "
            "say:**\n- Reviewers praise stylist Tessa for her work with curly hair.")
    assert [c.object for c in extract_claims(nlp(unmark(text, titles=True))) if c.negated] == []
    denied = text.replace("accepts credit cards, higher price range, street parking and bike "
                          "parking", "does not offer bike parking")
    assert [(c.verb, c.object) for c in extract_claims(nlp(unmark(denied, titles=True)))
            if c.negated] == [("offer", "parking")]


def test_a_number_object_is_left_to_its_anchor(nlp):
    assert claims(nlp, "The Yeti costs $35.") == []
    assert claims(nlp, "The base is 3.5 inches wide.") == []
    assert claims(nlp, "It was released in 2019.") == []  # nothing else to look up


def test_numbers_inside_a_claim_are_its_values(nlp):
    (c,) = claims(nlp, "The bridge was built in 1932.")
    assert [m.text for m in c.values] == ["1932"]
    assert {w.word.key for w in c.words} == {"bridge", "build"}


def test_claim_offsets_point_into_the_response(nlp):
    text = ("With a 140W charger it goes from empty to full. The pack, which ships in a box, "
            "has 2 bottles.\n- Free parking\n- Spa  access")
    for c in claims(nlp, text):
        assert 0 <= c.start < c.end <= len(text)
        assert text[c.start:c.end] == c.text


# --- support: one supported and one unsupported pair per construction ---------------------

CONTEXT = (
    "The Golden Gate Bridge was built in 1937 by Joseph Strauss. "
    "Tim Cook is the chief executive of Apple; he was the CEO of Apple from 2011. "
    "Lake Victoria is the largest lake in Africa. "
    "The hotel offers free parking and an outdoor pool, and the spa is closed on Mondays. "
    "Preheat the oven to 350 degrees and bake the cake for 30 minutes. "
    "Apple acquired Beats in 2014. "
    "Pets are not allowed in the rooms. "
    "The Hydro Flask 32 oz comes with a Flex Cap. It does not include a straw lid. "
    "The kit comes without batteries."
)


@pytest.mark.parametrize(("response", "supported", "note"), [
    # passive
    ("The bridge was built in 1937.", True, "found together"),
    ("The tunnel was built in 1937.", False, "'tunnel' is not in the context"),
    ("The bridge was built in 1938.", False, "'1938' is not in the context"),
    # active with the passive's agent: roles read as the active
    ("Joseph Strauss built the bridge.", True, "found together"),
    # superlative
    ("Lake Victoria is the largest lake in Africa.", True, "found together"),
    ("Lake Victoria is the smallest lake in Africa.", False, "'largest' where it says"),
    ("Lake Victoria is the only lake in Africa.", False, "'only' is not in the context"),
    # coordinated objects (first conjunct)
    ("The hotel offers free parking and a gym.", True, "found together"),
    # imperative
    ("Preheat the oven to 350 degrees.", True, "found together"),
    ("Preheat the grill to 350 degrees.", False, "'grill' is not in the context"),
    # negated clause
    ("Pets are not allowed.", True, "found together"),
    ("Pets are allowed in the rooms.", False, "the context negates it"),
    ("It does not include a straw lid.", True, "found together"),
    ("The kit includes batteries.", False, "the context negates it"),
    # antonym
    ("The spa is closed on Mondays.", True, "found together"),
    ("The spa is open on Mondays.", False, "the context says 'close'"),
    # swapped roles
    ("Apple acquired Beats.", True, "found together"),
    ("Beats was acquired by Apple.", True, "found together"),
    ("Beats acquired Apple.", False, "roles swapped"),
    # generic verb need not occur verbatim: "includes" for "comes with"
    ("The Hydro Flask includes a Flex Cap.", True, "found together"),
    ("The Hydro Flask includes a carrying case.", False, "only 32% of its predicate's words"),
])
def test_claim_support_pairs(nlp, response, supported, note):
    assert_first_claim(nlp, CONTEXT, response, supported, note)


OPPOSITES = ("The rebels attacked the northern fort in May. The team succeeded in its first "
             "bid. A temperature below zero kelvin is not possible. You can buy bags of beans "
             "for $16.")


@pytest.mark.parametrize(("response", "supported", "contradiction", "note"), [
    # WordNet's antonyms of verbs: the rest of the claim is in the sentence, its verb's
    # opposite too
    ("The rebels attacked the northern fort.", True, None, "found together"),
    ("The rebels defended the northern fort.", False, "opposite",
     "the context says 'attack' where it says 'defended'"),
    ("The team failed in its first bid.", False, "opposite",
     "the context says 'succeed' where it says 'failed'"),
    # an opposite the sentence negates agrees with the claim: no contradiction, and the
    # negating prefix carries the sentence's negation, so it supports the claim
    ("A temperature below zero kelvin is impossible.", True, None, "found together"),
    # converses tell one event from its two sides
    ("You can sell bags of beans for $16.", True, None, "found together"),
])
def test_a_claim_words_opposite_in_its_sentence_contradicts_it(nlp, response, supported,
                                                                contradiction, note):
    (c, s), *_ = check(nlp, OPPOSITES, response)
    assert (s.supported, s.contradiction) == (supported, contradiction), (c.text, s.note)
    assert note in s.note


@pytest.mark.parametrize(("response", "supported", "kind", "note"), [
    ("The bridge, which was built by Joseph Strauss, is red.", True, "relative", "found"),
    ("The lake, which was built by Joseph Strauss, is deep.", False, "relative",
     "only 0% of its subject's words are in one context sentence"),
    ("Built in 1937, the bridge spans the bay.", True, "participle", "found"),
    ("Built in 1937, the lake is huge.", False, "participle",
     "only 0% of its subject's words are in one context sentence"),
    ("Tim Cook, the CEO of Apple, spoke.", True, "appositive", "found"),
    ("Tim Cook, the CEO of Google, spoke.", False, "appositive",
     "'Google' is not in the context"),
])
def test_claims_inside_a_sentence(nlp, response, supported, kind, note):
    (c, s), = check(nlp, CONTEXT, response, kind=kind)
    assert s.supported is supported, (c.text, s.note)
    assert note in s.note


@pytest.mark.parametrize(("response", "span", "subject", "supported", "note"), [
    # a judging verb's complement with a subject of its own (ccomp)
    ("Geologists consider it the largest lake in Africa.", "the largest lake in Africa",
     None, True, "found together"),
    ("Geologists consider it the largest lake in Asia.", "the largest lake in Asia",
     None, False, "'Asia' is not in the context"),
    ("Guests find the parking free.", "the parking free", "parking", True, "found together"),
    ("Guests find the pool outdoor.", "the pool outdoor", "pool", True, "found together"),
    # the object predicate after a pronoun object (oprd)
    ("Critics call it the largest lake in Africa.", "the largest lake in Africa", None, True,
     "found together"),
    ("Critics call it the deepest lake in Africa.", "the deepest lake in Africa", None, False,
     "'deepest' is not in the context"),
])
def test_a_judging_verbs_complement_is_a_claim(nlp, response, span, subject, supported, note):
    """"Reviewers consider it the best clinic in Madison" claims what "it is the best
    clinic in Madison" does (``claims.JUDGING_VERBS``); before, no claim was read."""
    (c, s), = [(c, s) for c, s in check(nlp, CONTEXT, response) if c.verb == "be"]
    assert (c.text, c.subject, c.kind) == (span, subject, "copula")
    assert response[c.start:c.end] == c.text
    assert s.supported is supported, (c.text, s.note)
    assert note in s.note


@pytest.mark.parametrize("text", [
    "I consider it the largest lake in Africa.",      # first person
    "They may consider it the largest lake.",         # hedged
    "Critics call the lake the largest in Africa.",   # a noun object: the verb's own claim
])
def test_a_judging_verbs_complement_not_read_alone(nlp, text):
    assert not [c for c in claims(nlp, text) if c.verb == "be"]


def test_always_must_be_in_the_supporting_sentence(nlp):
    """``claims.ABSOLUTES``: "always" makes a claim hold without exception; a sentence
    that says the rest without it does not support it."""
    ctx = "The hotel offers free parking and an outdoor pool. The ferry always leaves at dawn."
    found = {c.text: s.supported for c, s in check(nlp, ctx, "The hotel always offers free "
                                                             "parking. The ferry always leaves "
                                                             "at dawn. The hotel offers free "
                                                             "parking.")}
    assert found == {"The hotel always offers free parking": False,
                     "The ferry always leaves at dawn": True,
                     "The hotel offers free parking": True}


def test_list_items_against_the_context(nlp):
    results = check(nlp, CONTEXT, "Amenities:\n- Free parking\n- Outdoor pool\n- Rooftop bar")
    assert [(c.text, s.supported) for c, s in results] == [
        ("Free parking", True), ("Outdoor pool", True), ("Rooftop bar", False)]


def test_words_must_be_together_in_one_sentence_not_anywhere(nlp):
    ctx = "The tumbler is made of steel. A separate lid is sold by the store."
    (_, s), = check(nlp, ctx, "The tumbler includes a lid.")
    assert not s.supported and "in the same context sentence" in s.note


def test_a_long_sentence_with_a_parenthetical_still_supports(nlp):
    ctx = ("The tumbler, which we tested for many long weeks in the field (through rain, "
           "snow, dust and two cross-country road trips), has a leakproof lid.")
    (_, s), = check(nlp, ctx, "The tumbler has a leakproof lid.")
    assert s.supported
    assert ctx[s.evidence_start:s.evidence_end] == ctx


def test_evidence_is_the_context_sentence(nlp):
    (_, s), = check(nlp, CONTEXT, "It includes a straw lid.")
    assert not s.supported and "negates" in s.note
    assert CONTEXT[s.evidence_start:s.evidence_end] == "It does not include a straw lid."


def test_a_subjectless_context_sentence_lends_the_subject(nlp):
    ctx = "YETI Rambler 20 oz Tumbler. Includes a MagSlider Lid. Dishwasher safe."
    (_, s), = check(nlp, ctx, "The Rambler includes a lid.")
    assert s.supported
    (_, s), = check(nlp, ctx, "No, the Rambler does not include a lid.")
    assert not s.supported and "affirms" in s.note


def test_a_json_no_negates(nlp):
    from evaltools.scoring.context import read_context
    ctx = read_context('{"name": "Blue Door Cafe", "attributes": {"OutdoorSeating": "no", '
                       '"DogsAllowed": true}}').text
    (_, s), = check(nlp, ctx, "Blue Door Cafe allows dogs.")
    assert s.supported
    (_, s), = check(nlp, ctx, "Blue Door Cafe has outdoor seating.")
    assert not s.supported and "negates" in s.note


PARAPHRASED = ("A forensic search has been carried out at the company, which makes buckets "
               "for diggers. They were ahead after 500 metres. "
               "Inspectors looked at 100 cases and interviewed 86 offenders.")


@pytest.mark.parametrize(("response", "supported", "note"), [
    # a prose sentence whose subject is a pronoun: a subject word the context never uses is
    # the response's own name for it, "crew" (0.41 < head_rare_above 0.45: not required)
    # left out of the subject's share, which is then empty (1.0); "ahead" is there
    ("The crew were ahead after 500 metres.", True, "found together"),
    # ... a subject the sentence names itself is still the context's: "firm" is not
    # "company", 0 % of the subject's weight
    ("The firm makes buckets for diggers.", False, "only 0% of its subject's words"),
    # (a subject word the context uses for something else still counts: "The lake, which
    # was built by Joseph Strauss", test_claims_inside_a_sentence)
    # the predicate's verb may be paraphrased when its object's head is in the sentence:
    # "examined" is left out, "cases" (and the value 100) are there
    ("Inspectors examined 100 cases.", True, "found together"),
    # ... not when it is not: "prisons" is not in the sentence, "examined" counts,
    # 0 of 0.48 + 0.40
    ("Inspectors examined 100 prisons.", False, "only 0% of its predicate's words"),
    # (an opposite verb still contradicts: test_a_claim_words_opposite_in_its_sentence_...)
])
def test_a_claim_may_name_its_subject_and_verb_its_own_way(nlp, response, supported, note):
    assert_first_claim(nlp, PARAPHRASED, response, supported, note)


def test_thresholds_come_from_the_config(nlp):
    ctx = ContextIndex(nlp("The hotel offers parking."), [])
    (c,) = claims(nlp, "The hotel provides secure parking.")
    assert ctx.support(c, min_share=0.3, rare_above=RARE).supported
    assert not ctx.support(c, min_share=0.9, rare_above=RARE).supported


# --- robustness and resources ---------------------------------------------------------------

@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("abc XYZ.,;:-\n?!'\"()019$%é")), max_size=120))
def test_extraction_never_crashes_and_offsets_are_exact(nlp, text):
    idx = ContextIndex(nlp("The abc is XYZ. It has no 019 abc."), find_mentions("019"))
    for c in extract_claims(nlp(text), mentions=find_mentions(text)):
        assert text[c.start:c.end] == c.text
        s = idx.support(c, min_share=SHARE, rare_above=RARE,
                                    head_rare_above=HEAD)
        assert isinstance(s.supported, bool)


@pytest.mark.slow
def test_extraction_of_a_repeated_text_repeats_its_claims(nlp):
    """Ten times the text, ten times the claims. Time against length is measured by
    benchmarks/long_text.py (10k-1M characters), not asserted here."""
    unit = ("The Rambler, which ships in a box, includes a lid and a straw. "
            "Preheat the oven.\n- Free parking\n")
    small, large = extract_claims(nlp(unit * 6)), extract_claims(nlp(unit * 60))
    assert len(large) == 10 * len(small) > 0


def test_a_lowercase_word_the_tagger_calls_a_name_is_read_as_a_word():
    # the parser tags "locksmith" in this sentence as a proper noun; the record's category
    # "Keys & Locksmiths" is a capitalised plural read as its singular (locksmith: Zipf 2.8)
    import json

    import evaltools

    record = json.dumps({"name": "Gulfside Lock & Key", "city": "Tampa",
                         "categories": "Keys & Locksmiths, Home Services, Automotive"})
    ok = evaltools.score("Describe it.", record, "Gulfside Lock & Key is a locksmith offering "
                                                 "home, automotive, and local services.")
    assert [(a.text, a.supported) for a in ok.anchors if a.kind == "claim"][:2] == [
        ("Gulfside Lock & Key is a locksmith", True), ("offering home", True)]
    bad = evaltools.score("Describe it.", record, "Gulfside Lock & Key is a plumber offering "
                                                  "home, automotive, and local services.")
    first = next(a for a in bad.anchors if a.kind == "claim")
    assert first.text.startswith("Gulfside Lock & Key is a plumber") and not first.supported
    assert first.note.endswith("'plumber' is not in the context")


# --- a named speaker ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("Professor Jay O'Berski suggests that it is a vestige of radio.",
     [("Professor Jay O'Berski suggests", ["O'Berski", "Jay", "Professor"])]),
    ("Chief Inspector Henry Parsons said drivers were warned.",
     [("Chief Inspector Henry Parsons said", ["Parsons", "Henry", "Inspector", "Chief"])]),
    ("The passages suggest that it is a vestige of radio.", []),  # a source, not a speaker
    ("Experts suggest that it is a vestige of radio.", []),  # nobody named
    ("O'Berski did not say that it is a vestige of radio.", []),  # a negated attribution
    ("O'Berski might say that it is a vestige of radio.", []),  # a hedged one
])
def test_a_named_speaker_is_a_claim_of_its_own(nlp, text, expected):
    assert [(c.text, [w.word.text for w in c.words]) for c in claims(nlp, text)
            if c.kind == "speaker"] == expected


@pytest.mark.parametrize(("response", "supported"), [
    ("Theatre professor Jay O'Berski suggests that the accent is a vestige of radio.", True),
    ("Duke University professor Jay O'Berski suggests that the accent is a vestige of radio.",
     False),
])
def test_a_speakers_affiliation_is_checked_though_what_they_say_is_hedged(nlp, response,
                                                                         supported):
    ctx = "Jay O'Berski, a theatre professor, suggests the accent is a vestige of early radio."
    ((_claim, support),) = check(nlp, ctx, response, kind="speaker")
    assert support.supported is supported


def test_what_stands_before_a_comma_and_not_is_affirmed():
    """"the $300 deposit was only transferable, not refundable": the parser hangs
    *transferable* on *refundable*, and its *not* denied a faithful overview's "the deposit
    was transferable"."""
    ctx = "It took four days to get a new date and the $300 deposit was only transferable, " \
          "not refundable."
    ok = evaltools.score("Summarise the review.", ctx, "The deposit was transferable.")
    assert [(a.supported, a.contradiction) for a in ok.anchors] == [(True, None)]
    bad = evaltools.score("Summarise the review.", ctx, "The deposit was refundable.")
    assert [(a.supported, a.contradiction) for a in bad.anchors] == [(False, "negation")]



@pytest.mark.parametrize(("sentence", "claims"), [
    # "speaking" with only an adverb of manner states nothing; with a place it does
    ("Strictly speaking, contact lenses sit on tears.", ["contact lenses sit on tears"]),
    ("Strictly speaking in public, Smith warned of risks.",
     ["Strictly speaking in public", "Smith warned", "Smith warned of risks"]),
])
def test_speaking_of_manner_is_no_claim(nlp, sentence, claims):
    assert [c.text for c in extract_claims(nlp(sentence))] == claims
