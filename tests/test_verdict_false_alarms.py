"""Verdict false alarms, by category: one supported and one unsupported case each,
through the one scorer (reader, matcher, claims, grounding, verdict)."""

import dataclasses
import json
import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.calibration.learned import Coefficient, LearnedCalibration
from evaltools.config import load_config
from evaltools.errors import ConfigError
from evaltools.scoring.anchors.claims import clause_negated
from evaltools.scoring.anchors.mentions import find_mentions
from evaltools.scoring.anchors.numbers import find_numbers
from evaltools.scoring.completeness import completeness_score
from evaltools.scoring.context import unmark
from evaltools.scoring.features import topical_words
from evaltools.scoring.scorer import ResponseScorer
from evaltools.scoring.sources import abstention_sentences
from evaltools.scoring.verdict import redecide
from evaltools.text import load_pipeline

YETI = "The Yeti Rambler mug costs $44.95. It is made of stainless steel."


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


# ------------------------------------------------------------ instruction queries

def test_instruction_without_topical_word_is_not_failed_for_relevance():
    ctx = "The storm hit Florida on Monday. It killed three people in Miami."
    ok = evaltools.score("Summarise the following news in 100 words.", ctx,
                         "The storm that hit Florida killed three people in Miami.")
    assert ok.verdict == "PASS"
    assert any("not applicable" in r for r in ok.reasons)
    bad = evaltools.score("Summarise the following news in 100 words.", ctx,
                          "The storm that hit Florida killed forty people in Tampa.")
    assert bad.verdict == "FAIL" and bad.reasons[0].startswith("hallucination")


def test_instruction_with_topical_words_reads_them(nlp):
    q = nlp("Summarize what the article says about the Tokyo election.")
    assert topical_words(q, ["article"], ["NOUN", "PROPN"]) == (("tokyo", "election"),
                                                                ("tokyo", "election"))
    ctx = "The Tokyo election was held on Sunday. Turnout was low."
    on = evaltools.score(q.text, ctx, "The Tokyo election was held on Sunday.")
    off = evaltools.score(q.text, ctx, "Turnout was low.")
    assert on.completeness == 1.0 and on.verdict == "PASS"
    # "Turnout was low" restates a sentence that does not name the election: incomplete
    assert off.completeness == 0.0 and off.verdict != "PASS"


def test_an_instructions_task_verbs_and_word_count_range_are_not_its_topic(nlp):
    cfg = load_config(None)
    q = nlp("Write an objective overview about the following local business based only on "
            "the provided structured data in the JSON format. You should include details and "
            "cover the information mentioned in the customers' review. The overview should be "
            "100 - 200 words. Don't make up information.")
    # nothing left: the verbs include/cover/mention/make, "review", "customers" (whose
    # review to cover) and the word-count range "100 - 200 words" name the task
    assert topical_words(q, cfg.relevance.task_words, cfg.completeness.keyword_pos) == (
        (), ())
    ctx = '{"name": "Joe\'s Pizza", "review_info": [{"review_text": "Customers love the crust."}]}'
    told = evaltools.score(q.text, ctx, "Customers praise the great crust at Joe's Pizza.")
    silent = evaltools.score(q.text, ctx, "Joe's Pizza has a great crust.")
    # the record's own "customers" does not make an overview that leaves it out incomplete
    assert told.keywords == silent.keywords == ()
    assert told.verdict == silent.verdict == "PASS"
    # a topical word the context lacks is about the task: reviews by patients never say
    # "customers", so a faithful overview that says "patients" is not incomplete
    dentist = '{"name": "Bright Smile Dental", "review_info": [{"review_text": "Painless."}]}'
    patients = evaltools.score(q.text, dentist, "Patients find Bright Smile Dental painless.")
    assert patients.keywords == () and patients.verdict == "PASS"
    assert any("no topical word the context holds" in r for r in patients.reasons)


def test_spec_letter_still_available():
    cfg = load_config().replace(relevance={"instruction": "query", "answer_type": False,
                                           "restated_context": False, "waive_at_support": 0.0})
    r = evaltools.score("Summarise the following news in 100 words.",
                        "The storm hit Florida on Monday.", "The storm hit Florida.",
                        config=cfg)
    assert r.verdict == "FAIL" and r.reasons[0].startswith("relevance")
    with pytest.raises(ConfigError, match="instruction"):
        load_config().replace(relevance={"instruction": "sometimes"})


# ------------------------------------------------------------ short correct answers

def test_keyword_covered_by_restated_context_sentence():
    # hand-computed: K_Q = {yeti, rambler, mug}; the response holds none, the sentence it
    # restates ("The Yeti Rambler mug costs $44.95.") holds all three -> 3/3
    cfg = load_config().replace(completeness={"referred": False})
    ok = evaltools.score("How much is the Yeti Rambler mug?", YETI, "It costs $44.95.",
                         config=cfg)
    assert ok.completeness == 1.0 and ok.verdict == "PASS"
    assert ok.missing_keywords == ()
    # an unsupported price restates nothing: the keywords stay missing, and it fails
    bad = evaltools.score("How much is the Yeti Rambler mug?", YETI, "It costs $29.99.",
                          config=cfg)
    assert bad.completeness == 0.0 and bad.verdict == "FAIL"


def test_relevance_reads_a_restated_sentence_only_for_the_query_words_it_holds():
    ctx = YETI + " It ships free within the US."
    q = "How much is the Yeti Rambler mug?"
    # hand-computed: reference {yeti, rambler, mug}; "It costs $44.95." shares none of them
    # (relevance 0 < 0.1); the sentence it restates adds yeti, rambler, mug: Jaccard 3/5;
    # TF-IDF on the pair, shared idf 1, one-sided (cost, 44.95) ln(3/2) + 1:
    # cosine 3 / (sqrt(3) * sqrt(3 + 2 (ln 1.5 + 1)^2)) = 0.65697; relevance 0.62849
    one_sided = math.log(1.5) + 1
    cosine = 3 / (math.sqrt(3) * math.sqrt(3 + 2 * one_sided ** 2))
    price = evaltools.score(q, ctx, "It costs $44.95.")
    assert price.relevance_jaccard == pytest.approx(0.6)
    assert price.relevance_cosine == pytest.approx(cosine)
    assert price.relevance == pytest.approx(0.5 * cosine + 0.3)
    note = "relevance counts the words of the context sentences the response restates"
    assert any(r.startswith(note) for r in price.reasons)
    # "It ships free." restates a sentence without a word of the query: relevance stays 0
    # and no note says the restated sentence was read
    ships = evaltools.score(q, ctx, "It ships free.")
    assert ships.relevance == 0.0
    assert not any(r.startswith(note) for r in ships.reasons)


ROADIE = ("YETI Roadie 24 Hard Cooler, $250.00. Holds up to 18 cans (2:1 ice-to-contents "
          "ratio). Weighs 13 lbs empty.")


def test_what_the_question_is_about_is_not_asked_when_the_response_refers_to_it():
    # hand-computed: K_Q = {price, yeti, roadie, 24, can}; topic (the noun phrase with a
    # name) = {yeti, roadie, 24}; "The Roadie 24" refers to it, so K_Q' = {price, can}:
    # neither is in the response -> 0/2 (the spec's letter: roadie, 24 present -> 2/5)
    q = "What's the price of the Yeti Roadie 24 and how many cans does it hold?"
    part = evaltools.score(q, ROADIE, "The Roadie 24 costs $250.")
    assert part.keywords == ("price", "yeti", "roadie", "24", "can")
    assert part.completeness == 0.0 and part.missing_keywords == ("price", "can")
    assert part.verdict == "WARN"
    letter = evaltools.score(q, ROADIE, "The Roadie 24 costs $250.",
                             config=load_config().replace(completeness={"referred": False}))
    assert letter.completeness == pytest.approx(2 / 5)
    # both parts answered, the product called "it": 1/2 ("cans" present; the context never
    # says "price", so "costs" covers it neither as a word nor through a restated sentence)
    whole = evaltools.score(q, ROADIE, "It costs $250.00 and holds up to 18 cans.")
    assert whole.completeness == 0.5 and whole.missing_keywords == ("price",)
    assert any("completeness.referred): yeti, roadie, 24" in r for r in whole.reasons)
    # a response that names another product refers to nothing: K_Q stays whole
    other = evaltools.score(q, ROADIE, "The Tundra 45 costs $250.")
    assert "yeti" in other.missing_keywords


@pytest.mark.parametrize(("query", "response", "answered"), [
    ("How long does the battery last?", "Up to 70 days on a full charge.", True),
    ("Is the skillet pre-seasoned?", "Yes.", True),
    ("When does the deal end?", "The deal ends on July 17, 2024.", True),
    ("When does the deal end?", "Soon, the site says.", False),
    ("What is the price and how many cans does it hold?", "It costs $250.", False),
])
def test_one_thing_asked_and_answered_with_its_type_is_complete(query, response, answered):
    r = evaltools.score(query, "The battery lasts up to 70 days. The skillet is pre-seasoned. "
                               "The deal ends on July 17, 2024. It costs $250.", response)
    assert r.verdict_inputs.completeness_waived is answered


def test_completeness_restated_formula():
    c = completeness_score(["yeti", "mug", "lid"], ["44.95"], restated={"yeti", "mug"})
    assert c.completeness == pytest.approx(2 / 3)
    assert c.missing == ("lid",) and c.restated == ("yeti", "mug")


# ------------------------------------------------------------ abstentions

def test_abstention_is_neither_unsupported_nor_irrelevant():
    ctx = "The Yeti Rambler mug is made of stainless steel."
    r = evaltools.score("How much does the Yeti mug cost?", ctx,
                        "I am unable to answer based on the given text.")
    assert r.support == 1.0 and r.unsupported_spans == () and r.verdict != "FAIL"
    r = evaltools.score("How much does the Yeti mug cost?", ctx,
                        "The passages do not say whether it costs $5.")
    assert r.anchors_total == 0 and r.support == 1.0 and r.verdict != "FAIL"
    # an answer, not an abstention: checked as usual
    r = evaltools.score("How much does the Yeti mug cost?", ctx, "The Yeti mug costs $5.")
    assert r.verdict == "FAIL" and r.anchors_unsupported == 1


YETI_CTX = "The Yeti Rambler 20 oz tumbler costs $35 and keeps drinks cold for up to 24 hours."
YETI_Q = "How much does the Yeti Rambler tumbler cost?"


@pytest.mark.parametrize("prefix", ["Based on the given passages, ",
                                    "According to the information provided in the passages, ",
                                    "The passages state that "])
def test_saying_where_the_answer_comes_from_is_not_checked(prefix):
    bare = evaltools.score(YETI_Q, YETI_CTX, "The Yeti Rambler 20 oz tumbler costs $35.")
    told = evaltools.score(YETI_Q, YETI_CTX, prefix + "the Yeti Rambler 20 oz tumbler costs $35.")
    assert told.support == bare.support == 1.0 and told.unsupported_spans == ()
    assert told.signals["novel_rare"] == bare.signals["novel_rare"] == 0.0
    assert [a for a in told.anchors if not a.supported] == []
    # what follows the attribution is still checked
    made_up = evaltools.score(YETI_Q, YETI_CTX, prefix + "the Yeti Rambler 20 oz tumbler is "
                                                         "made in Italy.")
    assert [s.text for s in made_up.unsupported_spans] == ["Italy"] and made_up.support < 1.0


@pytest.mark.parametrize("said", [
    "Based on the given passages, which focus almost entirely on tumblers, "
    "the Yeti Rambler 20 oz tumbler costs $35.",
    "According to the Forbes passage, the Yeti Rambler 20 oz tumbler costs $35.",
    "As the price given in passage 1 shows, the Yeti Rambler 20 oz tumbler costs $35.",
])
def test_the_sources_named_any_way_are_not_checked(said):
    r = evaltools.score(YETI_Q, YETI_CTX, said)
    assert [(a.text, a.supported) for a in r.anchors if a.counted and not a.supported] == []
    assert r.hallucination == 0.0


def test_a_number_in_an_attribution_is_not_counted():
    r = evaltools.score(YETI_Q, YETI_CTX, "According to passage 2, the tumbler costs $35.")
    (two,) = [a for a in r.anchors if a.text == "2"]
    assert not two.counted and two.note.startswith("in a statement about the sources")
    assert r.hallucination == 0.0


def test_abstention_sentences():
    t = "The text does not mention a lid. The lid is blue."
    assert [t[a:b] for a, b in abstention_sentences(t, [(0, 32), (33, 49)])] == [
        "The text does not mention a lid."]
    assert abstention_sentences("The text is blue.", [(0, 17)]) == ()


@pytest.mark.parametrize("text, silent", [
    ("The passages do not provide information about the price.", True),
    ("Passage 2 doesn't mention the lid.", True),
    ("None of the passages mention the lid.", True),
    ("There is no information about it in the provided text.", True),
    ("The given data lacks a price.", True),
    ("I could not find the price in the passages.", True),
    # the sources' silence with a contracted negation, straight or curly apostrophe, and a
    # passive verb: "n't" inside "isn't" has no word boundary before it
    ("Climate policy isn't covered by these sources.", True),
    ("That comparison isn\u2019t made in the sources.", True),
    ("The price isn't mentioned.", True),
    ("The price wasn\u2019t specified.", True),
    # a negated statement about the world, with or without a noun that can name a source
    ("It does not provide outdoor seating.", False),
    ("Breakfast is not included.", False),
    ("The results were not significant.", False),
    ("None of the reviews were negative.", False),
    ("Small asteroids are not round: gravity cannot pull all the material in.", False),
    ("The article reports that there is no magic bullet.", False),
    ("According to reviews, the mechanics do not try to upsell customers.", False),
    ("The damage isn't covered by insurance.", False),
    ("Breakfast isn't included.", False),
])
def test_only_the_sources_silence_is_an_abstention(text, silent):
    assert bool(abstention_sentences(text, [(0, len(text))])) is silent


def test_a_negated_world_statement_is_checked_like_any_other():
    # "does not provide outdoor seating" once made the whole sentence an abstention, and its
    # "delivery", which the record denies, went unchecked
    rec = ('{"name": "Golden Crust Bakery", "attributes": {"RestaurantsTakeOut": "True", '
           '"RestaurantsDelivery": "False", "OutdoorSeating": "False"}}')
    ok = evaltools.score(CAFE_Q, rec, "It offers takeout but does not provide outdoor seating.")
    assert [(a.text, a.supported) for a in ok.anchors if a.kind == "claim"] == [
        ("offers takeout", True), ("does not provide outdoor seating", True)]
    bad = evaltools.score(CAFE_Q, rec, "It offers takeout and delivery but does not provide "
                                       "outdoor seating.")
    assert [(a.text, a.supported, a.counted) for a in bad.anchors if a.kind == "claim"] == [
        ("offers takeout", True, True), ("delivery", False, True),
        ("does not provide outdoor seating", True, True)]


def test_a_no_in_a_name_negates_nothing():
    rec = '[{"name": "Nord (Year of No Light album)", "genre": "Sludge metal"}]'
    ok = evaltools.score("Describe the album.", rec, "Nord is a sludge metal album.")
    (claim,) = [a for a in ok.anchors if a.kind == "claim"]
    assert claim.supported and "negates" not in claim.note
    # a "no" that is a determiner still negates
    bad = evaltools.score("Describe the album.", '[{"name": "Nord", "note": "no sludge metal '
                          'album"}]', "Nord is a sludge metal album.")
    assert [a.note.split(": ", 1)[1] for a in bad.anchors if a.kind == "claim"] == [
        "the context negates it"]


def test_an_opposite_word_contradicts_only_beside_the_claims_words():
    ctx = ("Parents of children aged 4 to 17 years old said school meals helped the children "
           "try foods.")
    q = "Summarize the survey."
    ok = evaltools.score(q, ctx, "School meals helped children try new foods.")
    assert not any("where it says" in a.note for a in ok.anchors)   # "years old" opposes nothing
    bad = evaltools.score(q, "School meals helped the children try new foods.",
                          "School meals helped children try old foods.")
    assert [a.note.split(": ", 1)[1] for a in bad.anchors if a.kind == "claim"] == [
        "the context says 'new' where it says 'old'"]


def test_a_discourse_marker_is_no_part_of_a_claim():
    ctx = "Guests reported that the pool was cold. The hotel offers a free breakfast."
    q = "Write an overview of the hotel."
    r = evaltools.score(q, ctx, "On the other hand, guests reported that the pool was cold. "
                                "In addition, the hotel offers a free breakfast.")
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "claim"] == [
        ("the pool was cold", True), ("the hotel offers a free breakfast", True)]
    # a fronted phrase with content is still part of the claim
    r = evaltools.score(q, ctx, "In Paris, the hotel offers a free breakfast.")
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "claim"] == [
        ("In Paris, the hotel offers a free breakfast", False)]


def test_a_count_of_the_items_the_response_lists_is_its_own():
    ctx = ("The frigates HMS Cumberland, HMS Campbeltown, HMS Chatham and HMS Cornwall are "
           "moored in Portsmouth Harbour.")
    q = "Summarize the article."
    listed = evaltools.score(q, ctx, "Four frigates - HMS Cumberland, HMS Campbeltown, HMS "
                                     "Chatham and HMS Cornwall - are moored in Portsmouth.")
    (four,) = [a for a in listed.anchors if a.kind == "number"]
    assert not four.counted and four.note.startswith("counts the response's own")
    assert listed.hallucination == 0.0
    # without its list, the count is checked against the context, whose list has four names
    bare = evaltools.score(q, ctx, "Four frigates are moored in Portsmouth Harbour.")
    assert [(a.text, a.counted, a.supported) for a in bare.anchors if a.kind == "number"] == [
        ("Four", True, True)]
    five = evaltools.score(q, ctx, "Five frigates are moored in Portsmouth Harbour.")
    assert [(a.text, a.counted, a.supported) for a in five.anchors if a.kind == "number"] == [
        ("Five", True, False)]


BLUE_DOOR = ('{"name": "Blue Door Cafe", "city": "Tucson", "state": "AZ", "categories": '
             '"Cafes, Breakfast & Brunch, Coffee & Tea", "hours": {"Tuesday": "7:0-15:0", '
             '"Wednesday": "7:0-15:0", "Thursday": "7:0-15:0", "Friday": "7:0-15:0", '
             '"Saturday": "8:0-14:0", "Sunday": "8:0-14:0"}, "attributes": '
             '{"RestaurantsPriceRange2": "2", "WiFi": "u\'free\'"}}')


def test_a_preamble_introduces_the_response_and_is_not_checked():
    body = "Blue Door Cafe is a cafe in Tucson, AZ. It offers free WiFi."
    bare = evaltools.score(CAFE_Q, BLUE_DOOR, body)
    told = evaltools.score(CAFE_Q, BLUE_DOOR, "Sure! Here is a summary of the business in "
                                              "under 150 words:\n\n" + body)
    (n150,) = [a for a in told.anchors if a.text == "150"]
    assert not n150.counted and "introducing the response" in n150.note
    assert told.support == bare.support == 1.0 and told.verdict == bare.verdict == "PASS"
    # "Here is why:" names no response of the task: checked as usual
    why = evaltools.score(CAFE_Q, BLUE_DOOR, "Here is why it has 150 seats:\n\n" + body)
    assert [(a.text, a.counted) for a in why.anchors if a.kind == "number"] == [("150", True)]


@pytest.mark.parametrize("response, supported", [
    ("Blue Door Cafe is open six days a week.", True),
    ("Blue Door Cafe is closed on Mondays.", True),
    ("Blue Door Cafe is open seven days a week.", False),
])
def test_a_weekly_schedule_says_how_many_days_and_which_are_closed(response, supported):
    r = evaltools.score(CAFE_Q, BLUE_DOOR, response)
    assert all(a.supported for a in r.anchors) is supported, [
        (a.text, a.note) for a in r.anchors]


def test_a_subjects_modifier_is_found_as_its_derivation():
    # the participle's subject is "a moderately priced cafe"; the record says "(moderate)"
    r = evaltools.score(CAFE_Q, BLUE_DOOR, "Blue Door Cafe is a moderately priced cafe, "
                                           "serving breakfast, coffee and tea.")
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "claim"] == [
        ("Blue Door Cafe is a moderately priced cafe", True), ("serving breakfast", True),
        ("coffee", True), ("tea", True)]


def test_a_category_lists_capitalised_plural_is_found_as_its_singular():
    rec = ('{"name": "Bluebird Bean Co.", "categories": "Coffee & Tea, Cafes, Bakeries", '
           '"city": "Cherry Hill", "state": "NJ"}')
    r = evaltools.score(CAFE_Q, rec, "Bluebird Bean is a cafe and bakery in Cherry Hill, "
                                     "New Jersey.")
    assert r.unsupported_spans == () and all(a.supported for a in r.anchors)
    # beside a name a plural stays as written: "Georges Herpin" is not "George Herpin"
    herpin = evaltools.score("Who coined it?", "It was coined by Georges Herpin in 1864.",
                             "It was coined by George Herpin.")
    assert [a.supported for a in herpin.anchors if a.kind == "claim"] == [False]
    bad = evaltools.score(CAFE_Q, rec, "Bluebird Bean is a brewery in Cherry Hill, New Mexico.")
    assert [(a.text, a.supported) for a in bad.anchors] == [
        ("Bluebird Bean is a brewery in Cherry Hill", False), ("Cherry Hill, New Mexico", False)]


def test_an_agentless_passive_of_praise_weighs_nothing_but_naming_does():
    ctx = "Reviewers loved the pizza. He is writing the sixth novel, The Winds of Winter."
    q = "Summarize the reviews."
    praised = evaltools.score(q, ctx, "The pizza is praised.")
    assert [a.supported for a in praised.anchors if a.kind == "claim"] == [True]
    named = evaltools.score(q, ctx, "he is writing a sixth novel called the winter's watch.")
    assert [(a.text, a.supported) for a in named.anchors if a.kind == "claim"][-1][1] is False


def test_a_pronoun_subjects_polarity_contradicts_no_lent_subject():
    ctx = "Summit Gym takes appointments online. They required a written notice."
    q = "Write an overview of the gym."
    r = evaltools.score(q, ctx, "Appointments are not required.")
    assert [(a.contradiction, a.note.split(": ", 1)[1]) for a in r.anchors] == [
        (None, "the context has the other polarity, of a subject it does not name")]
    # a record's own line still contradicts: "Includes a lid." speaks of the product
    lid = evaltools.score(q, "YETI Rambler 20 oz Tumbler. Includes a MagSlider Lid.",
                          "The Rambler does not include a lid.")
    assert [a.contradiction for a in lid.anchors] == ["negation"]


def test_a_wished_for_thing_is_neither_affirmed_nor_negated():
    ctx = "Good gym. I wish there was a sauna, but for the price it's hard to complain."
    q = "Write an overview of the gym."
    r = evaltools.score(q, ctx, "The gym has no sauna.")
    assert [a.contradiction for a in r.anchors] == [None]
    said = evaltools.score(q, "Good gym. There was a sauna.", "The gym has no sauna.")
    assert [a.contradiction for a in said.anchors] == ["negation"]


# ------------------------------------------------------------ HTML markup

def test_unmark_keeps_offsets():
    s = "Tom&rsquo;s caf&eacute; &amp; bar<br>Open"
    out = unmark(s)
    assert len(out) == len(s)
    assert out.startswith("Tom’s") and "café" in out and "<br>" not in out
    assert out[s.index("Open"):s.index("Open") + 4] == "Open"
    assert unmark("3 < 4 and 5 > 2") == "3 < 4 and 5 > 2"


def test_html_entities_in_context_support_the_response():
    ctx = "Tom&rsquo;s caf&eacute; opened in Paris.<br>It sells bread &amp; cheese."
    ok = evaltools.score("Where did Tom's café open?", ctx, "Tom’s café opened in Paris.")
    assert ok.support == 1.0 and ok.anchors_unsupported == 0
    bad = evaltools.score("Where did Tom's café open?", ctx, "Tom’s café opened in Rome.")
    assert bad.anchors_unsupported == 1


# ------------------------------------------------------------ numbers as words

def test_money_in_words_joins_units_and_cents():
    (m,) = find_mentions("forty-four dollars and ninety-five cents")
    assert m.value == ("money", "USD", Decimal("44.95"))
    ok = evaltools.score("How much does the Yeti mug cost?", YETI,
                         "It costs forty-four dollars and ninety-five cents.")
    assert ok.verdict == "PASS" and ok.anchors_unsupported == 0
    bad = evaltools.score("How much does the Yeti mug cost?", YETI,
                          "It costs forty-four dollars and fifty cents.")
    assert bad.verdict == "FAIL" and bad.anchors_unsupported == 1


# ------------------------------------------------------------ fused facts

def test_claim_supported_by_two_adjacent_sentences():
    ctx = ("The Falcon engine was tested in Nevada. Engineers at Acme designed it. "
           "Rain fell in May.")
    fused = "Acme designed the Falcon engine."
    (claim,) = [a for a in evaltools.score("Who designed it?", ctx, fused).anchors
                if a.kind == "claim"]
    assert claim.supported and "context sentences 1-2" in claim.note
    assert claim.evidence == ("The Falcon engine was tested in Nevada. "
                              "Engineers at Acme designed it.")
    one = evaltools.score("Who designed it?", ctx, fused,
                          config=load_config().replace(hallucination={"claim_window": 0}))
    assert not next(a for a in one.anchors if a.kind == "claim").supported
    far = ("The Falcon engine was tested in Nevada. Rain fell. Snow came. "
           "Engineers at Acme designed it.")
    (claim,) = [a for a in evaltools.score("Who designed it?", far, fused).anchors
                if a.kind == "claim"]
    assert not claim.supported


# ------------------------------------------------------------ verdict from a calibration

def test_verdict_from_probability_uses_recommended_threshold():
    cal = LearnedCalibration((Coefficient("unsupported_share", 0.0, 1.0, 10.0),), -5.0,
                             {"recommended_threshold": 0.2})
    # p = 1 / (1 + exp(-(10 * (1 - support) - 5)))
    cfg = load_config().replace(hallucination={"verdict_from": "probability"})
    scorer = ResponseScorer(cfg, calibration=cal)
    q = "How much does the Yeti mug cost?"
    ok = scorer.score(q, YETI, "The Yeti mug costs $44.95.")
    assert ok.verdict == "PASS"
    bad = scorer.score(q, YETI, "The Yeti mug costs $44.95 and glows purple at night.")
    p = 1 / (1 + math.exp(-(10 * (1 - bad.support) - 5)))
    assert p == pytest.approx(cal.probability(bad.to_dict())) and 0.2 <= p < 0.5
    assert bad.hallucination <= 0.5  # the spec's rule would pass it
    assert bad.verdict == "FAIL" and bad.reasons[0].startswith("hallucination probability")
    assert cal.recommended_threshold == 0.2
    assert LearnedCalibration((), 0.0).recommended_threshold == 0.5
    with pytest.raises(ConfigError, match="verdict_from"):
        load_config().replace(hallucination={"verdict_from": "llm"})


# ------------------------------------------------------------ grounded answers and relevance

WATER = ("Molecules in a liquid move at different speeds. Some molecules gain enough speed to "
         "escape into the air, so a puddle dries at room temperature.")
WATER_Q = "How can water boil below 100 degrees?"


def test_grounded_answer_is_not_failed_for_relevance():
    # no query word in the response or in the sentence it restates: relevance 0, support 1
    answer = ("Some molecules gain enough speed to escape into the air, so a puddle dries at "
              "room temperature.")
    waived = evaltools.score(WATER_Q, WATER, answer)
    assert waived.relevance == 0.0 and waived.support == 1.0
    assert waived.verdict == "WARN"  # completeness 0 < 0.6 still warns
    assert ("relevance 0.00 < 0.1 not failed: the context backs the response (support 1.00 "
            ">= 0.6; relevance.waive_at_support)") in waived.reasons
    spec = evaltools.score(WATER_Q, WATER, answer,
                           config=load_config().replace(relevance={"waive_at_support": 0.0}))
    assert spec.verdict == "FAIL" and spec.reasons[0] == "relevance 0.00 < 0.1 (irrelevant)"


def test_unsupported_irrelevant_answer_still_fails_for_relevance():
    off = evaltools.score(WATER_Q, WATER, "Volcanic vents on the ocean floor release sulfur "
                                          "gases into seawater.")
    assert off.support == 0.0 and off.relevance == 0.0
    assert "relevance 0.00 < 0.1 (irrelevant)" in off.reasons
    assert not any("waive_at_support" in r for r in off.reasons)


def test_waiver_threshold_is_inclusive_and_configurable():
    answer = ("Some molecules gain enough speed to escape into the air, so a puddle dries at "
              "room temperature.")
    at_one = evaltools.score(WATER_Q, WATER, answer,
                             config=load_config().replace(relevance={"waive_at_support": 1.0}))
    assert at_one.verdict == "WARN"  # support 1.0 >= 1.0
    with pytest.raises(ConfigError, match="waive_at_support"):
        load_config().replace(relevance={"waive_at_support": 1.5})


def test_default_verdict_reads_the_shipped_probability_at_its_threshold():
    from evaltools.scoring.probability import load_calibration

    cal = load_calibration()
    assert load_config().hallucination.verdict_from == "probability"
    assert cal.recommended_threshold == 0.75
    q = "How much does the Yeti mug cost?"
    bad = evaltools.score(q, YETI, "The Yeti mug costs $59.99 and was designed by NASA "
                                   "engineers in Houston.")
    p = cal.probability(bad.to_dict())
    assert p >= 0.75
    assert bad.verdict == "FAIL"
    assert bad.reasons[0] == (f"hallucination probability {p:.2f} >= 0.75 "
                              "(safety first; calibration)")
    ok = evaltools.score(q, YETI, "The Yeti mug costs $44.95.")
    assert cal.probability(ok.to_dict()) < 0.75 and ok.verdict == "PASS"
    assert ok.reasons[0].startswith("hallucination probability ")


# ------------------------------------------------------------ business records with reviews

CAFE = ('{"name": "Blue Door Cafe", "attributes": {"WiFi": "free", "HiFiSystem": true}, '
        '"review_info": [{"review_text": "Great pancakes and the staff were so friendly.", '
        '"review_stars": 5}]}')
CAFE_Q = "Write an overview of this business."


def _claims(result):
    return {a.text: a.supported for a in result.anchors if a.kind == "claim"}


def test_a_short_camelcase_key_is_one_word():
    ok = _claims(evaltools.score(CAFE_Q, CAFE, "The cafe offers free WiFi."))
    assert ok == {"The cafe offers free WiFi": True}
    bad = _claims(evaltools.score(CAFE_Q, CAFE, "The cafe offers free parking."))
    assert bad == {"The cafe offers free parking": False}


def test_what_reviewers_do_with_what_they_review_weighs_nothing():
    ok = evaltools.score(CAFE_Q, CAFE, "Customers rave about the pancakes.")
    assert _claims(ok) == {"rave about the pancakes": True}
    bad = evaltools.score(CAFE_Q, CAFE, "Customers rave about the waffles.")
    assert _claims(bad) == {"rave about the waffles": False}
    # the verb is weighed as usual when the subject is not a reviewer
    chefs = evaltools.score(CAFE_Q, CAFE, "Chefs rave about the pancakes.")
    assert list(_claims(chefs).values()) == [False]


def test_reviewers_as_subject_claim_what_the_reviews_say():
    ok = evaltools.score(CAFE_Q, CAFE, "Customers praise the pancakes.")
    assert _claims(ok) == {"praise the pancakes": True}
    (claim,) = [a for a in ok.anchors if a.kind == "claim"]
    assert claim.note.startswith("(pronoun) / praise / pancake")  # the subject is not looked up
    bad = evaltools.score(CAFE_Q, CAFE, "Customers praise the waffles.")
    assert _claims(bad) == {"praise the waffles": False}
    # a named subject is still looked up
    named = evaltools.score(CAFE_Q, CAFE, "Chefs praise the pancakes.")
    assert list(_claims(named).values()) == [False]


GARAGE = ('{"name": "Fix-It Auto", "attributes": {"BusinessAcceptsCreditCards": "True"}, '
          '"review_info": [{"review_text": "My AC died in July and they had me back on the '
          'road in two hours. Paid exactly the quote.", "review_stars": 5}]}')


def test_an_overview_retelling_one_review_names_its_reviewer():
    """REVIEW_STORY: in a record with reviews, "one driver" and "a recent visit" are the
    review's *I* and its visit, as "customers" are; what they did is still looked up."""
    ok = _claims(evaltools.score(CAFE_Q, GARAGE, "One driver paid exactly the quote."))
    assert ok == {"One driver paid exactly the quote": True}
    bad = _claims(evaltools.score(CAFE_Q, GARAGE, "One driver paid for new brakes."))
    assert list(bad.values()) == [False]
    visit = _claims(evaltools.score(CAFE_Q, GARAGE, "A July visit fixed the AC."))
    assert list(visit.values()) == [True]
    # over prose the driver is a fact to check: "the driver" of a news story
    news = ("My AC died in July and they had me back on the road in two hours. "
            "Paid exactly the quote.")
    told = _claims(evaltools.score("Summarize the news.", news,
                                   "One driver paid exactly the quote."))
    assert list(told.values()) == [False]


def _spans(ctx, response):
    import json

    r = evaltools.score(CAFE_Q, json.dumps(ctx), response)
    return r, [s.text for s in r.unsupported_spans]


def test_key_pieces_prose_writes_as_one_word_are_found_joined():
    _, found = _spans({"attributes": {"RestaurantsTakeOut": True}}, "The cafe offers takeout.")
    assert found == ["cafe"]           # "takeout" is in the record; "offers" weighs nothing
    _, missing = _spans({"attributes": {"RestaurantsTakeOut": True}}, "The cafe offers delivery.")
    assert missing == ["cafe offers delivery"]


def test_short_forms_in_keys_are_read_out():
    rec = {"name": "Sunrise Cafe", "business_stats": {"avg_stars": 4.3}}
    ok, spans = _spans(rec, "Sunrise Cafe has an average of 4.3 stars.")
    assert ok.support == 1.0 and spans == [] and all(a.supported for a in ok.anchors)
    bad, spans = _spans(rec, "Sunrise Cafe has a median of 4.3 stars.")
    assert spans == ["median"] and not bad.anchors[0].supported


def test_weekdays_in_the_plural_are_the_weekday():
    rec = {"name": "Sunrise Cafe", "hours": {"Monday": "7:0-15:0"}}
    ok, _ = _spans(rec, "Sunrise Cafe is open on Mondays.")
    assert [a.supported for a in ok.anchors if a.kind == "claim"] == [True]
    bad, spans = _spans(rec, "Sunrise Cafe is open on Sundays.")
    assert [a.supported for a in bad.anchors if a.kind == "claim"] == [False]
    assert spans == ["Sundays"]  # "open": the record's "hours"


def test_a_quoted_none_is_a_word_and_a_bare_none_is_nothing():
    from evaltools.scoring.context import flatten_json

    assert flatten_json({"Alcohol": "u'none'", "WiFi": "None", "Noise": None}) == "alcohol: none."


ATTRS = ('{"name": "Sunrise Cafe", "categories": "Cafes", "attributes": {"RestaurantsTakeOut": '
         'true, "RestaurantsDelivery": false, "Alcohol": "u\'none\'", "DogsAllowed": true}}')


#: a record the parser reads as one sentence: the "no" sits between other keys
LONG_RECORD = ('{"name": "Joe\'s Pizza", "address": "123 Main St", "attributes": '
               '{"OutdoorSeating": "False", "RestaurantsTakeOut": "True", "WiFi": "u\'free\'"}}')


@pytest.mark.parametrize("record,response,supported,note", [
    (ATTRS, "Takeout is available.", True, "takeout / be / available: found together"),
    (ATTRS, "Takeout is not available.", False,
     "takeout / not be / available: a record's 'yes' affirms it"),
    (ATTRS, "Delivery is not offered.", True, "delivery / not offer / : found together"),
    (ATTRS, "Delivery is offered.", False, "delivery / offer / : a record's 'no' negates it"),
    (ATTRS, "The cafe does not serve alcohol.", True,
     "cafe / not serve / alcohol: found together"),
    (ATTRS, "The cafe serves alcohol.", False,
     "cafe / serve / alcohol: a record's 'no' negates it"),
    (ATTRS, "Dogs are allowed.", True, "dog / allow / : found together"),
    (ATTRS, "Dogs are not allowed.", False, "dog / not allow / : a record's 'yes' affirms it"),
    (ATTRS, "Cats are allowed.", False, "cat / allow / : only 0% of its subject's words"),

    # a false value between other keys of a record read as one sentence
    (LONG_RECORD, "It does not have outdoor seating.", True,
     "(pronoun) / not have / seating: found"),
    (LONG_RECORD, "It has outdoor seating.", False,
     "(pronoun) / have / seating: a record's 'no' negates it"),
    (LONG_RECORD, "It does not offer takeout.", False,
     "(pronoun) / not offer / takeout: a record's 'yes' affirms it"),
])
def test_availability_claims_read_a_records_yes_and_no(record, response, supported, note):
    (claim,) = [a for a in evaltools.score(CAFE_Q, record, response).anchors
                if a.kind == "claim"]
    assert claim.supported is supported and claim.note.startswith(note)


def test_a_claim_a_records_no_denies_fails_rule_1():
    said = "Sunrise Cafe is a cafe that offers takeout and allows dogs. "
    bad = evaltools.score(CAFE_Q, ATTRS, said + "It also offers delivery.")
    assert [(a.text, a.contradiction) for a in bad.anchors if a.kind == "claim"] == [
        ("Sunrise Cafe is a cafe", None), ("offers takeout", None), ("allows dogs", None),
        ("offers delivery", "record_no")]
    # the probability reads the record's "no" too (signal record_denied), and the record's
    # own word is the reason given
    assert bad.verdict_inputs.record_denied and bad.signals["record_denied"] == 1.0
    assert bad.verdict_inputs.probability[0] >= bad.verdict_inputs.probability[1]
    assert bad.verdict == "FAIL"
    assert bad.reasons[0] == "a record's own value denies a claim (safety first)"
    # below the threshold the record's "no" still fails it
    low = dataclasses.replace(bad, verdict_inputs=dataclasses.replace(
        bad.verdict_inputs, probability=(0.2, bad.verdict_inputs.probability[1])))
    assert redecide(low).reasons[0] == "a record's own value denies a claim (safety first)"
    ok = evaltools.score(CAFE_Q, ATTRS, said + "It does not offer delivery.")
    assert ok.verdict == "PASS" and not ok.verdict_inputs.record_denied
    # a claim the context negates in prose is shown as contradicted, but is no record's "no"
    prose = evaltools.score(CAFE_Q, "Sunrise Cafe does not offer delivery.",
                            "Sunrise Cafe offers delivery.")
    assert [a.contradiction for a in prose.anchors] == ["negation"]
    assert not prose.verdict_inputs.record_denied
    # the spec's rule 1 reads S_hall alone
    spec = evaltools.score(CAFE_Q, ATTRS, said + "It also offers delivery.",
                           config=load_config().replace(hallucination={"verdict_from": "spec"}))
    assert spec.verdict == "PASS"


def test_a_conjunct_that_opens_with_not_is_negated():
    """"kid-friendly but not wheelchair accessible": the parser hangs "not" on "wheelchair",
    inside the conjunct; the conjunct is negated all the same (claims.clause_negated)."""
    rec = ('{"name": "Clip Joint", "categories": "Barbers", "attributes": '
           '{"GoodForKids": "True", "WheelchairAccessible": "False"}}')
    ok = evaltools.score(CAFE_Q, rec, "It is kid-friendly but not wheelchair accessible.")
    assert _claims(ok) == {"is kid-friendly": True, "not wheelchair accessible": True}
    bad = evaltools.score(CAFE_Q, rec, "It is kid-friendly and wheelchair accessible.")
    assert [(a.supported, a.contradiction) for a in bad.anchors
            if a.kind == "claim" and "wheelchair" in a.text] == [(False, "record_no")]


def test_a_records_no_denies_its_compound_not_the_compounds_modifier_or_another_kind():
    """``table service: no`` (a faithful overview of a plate-lunch counter was failed on
    it twice): it denies table service, not *the owner checked on the table* (*table*
    only modifies *service* there) nor *counter-service* (another kind of service)."""
    rec = ('{"name": "Ono Grindz", "categories": "Hawaiian", "attributes": '
           '{"RestaurantsTableService": "False", "RestaurantsPriceRange2": "1"}}')

    def judged(response):
        return [(a.text, a.supported, a.contradiction)
                for a in evaltools.score(CAFE_Q, rec, response).anchors if a.kind == "claim"]
    # unsupported (no owner in the record), but not denied
    assert judged("The owner checked on the table.") == [
        ("The owner checked on the table", False, None)]
    assert judged("It is inexpensive and counter-service.") == [
        ("is inexpensive and counter-service", True, None)]
    assert judged("It is inexpensive, with counter service.") == [("is inexpensive", True, None)]
    # the compound itself, and a hyphenated form of it, are still denied
    assert judged("It has table service.") == [("has table service", False, "record_no")]
    assert judged("It is table-service only.") == [("is table-service only", False, "record_no")]


def test_a_key_that_says_no_itself_denies_nothing_and_a_yes_is_not_negated_from_beside_it():
    """A record's music attributes: ``no music: no`` says there is music, and the parser,
    reading the record as one sentence, hung that "no" on ``background music: yes``; a
    faithful *background music* was failed as denied by the record."""
    rec = ('{"name": "Cork & Ember", "categories": "Wine Bars", "attributes": {"Music": '
           '"{\'dj\': False, \'background_music\': True, \'no_music\': False, '
           '\'live\': False}"}}')

    def judged(response):
        return [(a.text, a.supported, a.contradiction)
                for a in evaltools.score(CAFE_Q, rec, response).anchors if a.kind == "claim"]
    assert judged("It has background music.") == [("has background music", True, None)]
    assert judged("It has live music.") == [("has live music", False, "record_no")]
    assert judged("It has a DJ.") == [("has a DJ", False, "record_no")]


def test_a_bare_verb_joined_to_a_negated_one_shares_its_not():
    # "the place" names the record's own entity (ENTITY_NOUNS)
    ok = evaltools.score(CAFE_Q, ATTRS, "The place does not serve alcohol or offer delivery.")
    assert [(a.supported, a.note) for a in ok.anchors if a.kind == "claim"] == [
        (True, "place / not serve / alcohol: found together in one context sentence"),
        (True, "place / not offer / delivery: found together in one context sentence")]
    bad = evaltools.score(CAFE_Q, ATTRS, "The place does not serve alcohol but offers delivery.")
    assert [(a.supported, a.note) for a in bad.anchors if a.kind == "claim"] == [
        (True, "place / not serve / alcohol: found together in one context sentence"),
        (False, "place / offer / delivery: a record's 'no' negates it")]
    # a subject that is not such a noun is still looked up
    cats = evaltools.score(CAFE_Q, ATTRS, "The cat does not serve alcohol.")
    assert [a.supported for a in cats.anchors if a.kind == "claim"] == [False]


def test_a_no_is_found_piece_by_piece_not_sentence_by_sentence():
    from evaltools.scoring.anchors.claims import KEY_YES_NO

    # the piece "attributes outdoor seating: no" is found though the record is one sentence
    text = "name: Joe's Pizza. attributes outdoor seating: no. attributes wifi: free."
    assert [m.group() for m in KEY_YES_NO.finditer(text)] == ["attributes outdoor seating: no"]
    assert [m.group() for m in KEY_YES_NO.finditer("name: No Name Bar. alcohol: none")] == [
        "alcohol: none"]


# ------------------------------------------------------------ codes and names in business records

def test_a_price_level_is_read_as_its_word():
    from evaltools.scoring.context import flatten_json

    assert (flatten_json({"RestaurantsPriceRange2": "2"})
            == "restaurants price range 2: 2 (moderate; mid-range, mid-priced).")
    assert flatten_json({"price_level": "$$$"}) == (
        "price level: $$$ (expensive; pricey, pricier, high-end, higher end, upscale).")
    assert flatten_json({"price": 2}) == "price: 2."            # an amount, not a level
    rec = {"name": "Casa Verde", "attributes": {"RestaurantsPriceRange2": "2"}}
    ok = _claims(_spans(rec, "Casa Verde is moderately priced.")[0])
    assert list(ok.values()) == [True]
    bad = _claims(_spans(rec, "Casa Verde is very expensive.")[0])
    assert list(bad.values()) == [False]


def test_a_snake_case_value_is_words():
    rec = {"name": "Casa Verde", "attributes": {"Alcohol": "u'beer_and_wine'"}}
    ok, spans = _spans(rec, "Casa Verde serves beer and wine.")
    assert spans == [] and ok.support > 0.9   # name and drinks stand in two record sentences
    _, spans = _spans(rec, "Casa Verde serves cocktails and wine.")
    assert spans == ["cocktails"]


def test_stars_are_a_rating_and_an_address_a_location():
    rec = {"name": "Casa Verde", "address": "1120 Elm St", "stars": 4.5}
    ok = _spans(rec, "Casa Verde is located at 1120 Elm St and has a rating of 4.5 stars.")[0]
    assert ok.support == 1.0 and all(a.supported for a in ok.anchors)
    bad = _spans(rec, "Casa Verde is located at 1120 Elm St and has a rating of 4 stars.")[0]
    assert [(a.kind, a.text) for a in bad.anchors if not a.supported] == [
        ("claim", "has a rating of 4 stars"), ("number", "4 stars")]


def test_stars_in_a_longer_key_are_a_rating_too():
    rec = {"name": "Casa Verde", "business_stars": 4.5}
    ok = _spans(rec, "Casa Verde has a rating of 4.5 stars.")[0]
    assert ok.support == 1.0 and all(a.supported for a in ok.anchors)
    bad = _spans(rec, "Casa Verde has a rating of 3.5 stars.")[0]
    assert [(a.kind, a.text) for a in bad.anchors if not a.supported] == [
        ("claim", "Casa Verde has a rating of 3.5 stars"), ("number", "3.5 stars")]


def test_a_weekday_short_form_in_a_review_is_a_word():
    from evaltools.scoring.context import flatten_json

    rec = {"name": "Casa Verde", "hours": {"Sat": "8:0-16:0"},
           "review_info": [{"review_text": "We sat outside with our dog. The sun was out."}]}
    assert flatten_json(rec) == ("name: Casa Verde. hours open Saturday: 8:00–16:00. "
                                 "review information review text: We sat outside with our dog. "
                                 "The sun was out.")
    ok = _claims(_spans(rec, "One reviewer sat outside with their dog.")[0])
    assert ok == {"sat outside with their dog": True}
    bad = _claims(_spans(rec, "One reviewer sat inside with their cat.")[0])
    assert ok.keys() != bad.keys() and list(bad.values()) == [False]


def test_a_record_stays_one_unit_where_the_parser_splits_a_key_from_its_value():
    # spaCy ends a sentence at "Monday:", so "7:00-15:00." stood alone and broke the
    # record in two: the name and the ambience were no longer read together
    days = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
    rec = {"name": "The Blue Door Cafe", "hours": dict.fromkeys(days, "7:0-15:0"),
           "attributes": {"Ambience": "{'casual': True, 'upscale': False}"}}
    ok = _claims(_spans(rec, "The Blue Door Cafe is a casual cafe.")[0])
    assert list(ok.values()) == [True]
    bad = _claims(_spans(rec, "The Blue Door Cafe is a casual bakery.")[0])
    assert list(bad.values()) == [False]
    negated = _spans(rec, "The Blue Door Cafe is an upscale cafe.")[0]
    assert next(a.note for a in negated.anchors if a.kind == "claim").endswith(
        "a record's 'no' negates it")


def test_a_compound_of_a_kind_is_found_where_its_first_part_is():
    rec = {"name": "The Blue Door Cafe", "address": "1214 Pine St",
           "attributes": {"Ambience": "{'hipster': True}"}}
    ok = _claims(_spans(rec, "The hipster-style cafe is located at 1214 Pine St.")[0])
    assert ok == {"The hipster-style cafe is located at 1214 Pine St.": True}
    bad = _claims(_spans(rec, "The retro-style cafe is located at 1214 Pine St.")[0])
    assert bad == {"The retro-style cafe is located at 1214 Pine St.": False}


def test_availability_words_weigh_nothing_in_grounding():
    rec = {"name": "Casa Verde", "attributes": {"OutdoorSeating": True}}
    assert _spans(rec, "Casa Verde offers outdoor seating.")[1] == []
    assert _spans(rec, "Casa Verde offers valet parking.")[1] == ["valet parking"]


# ------------------------------------------------------------ fame and nationality

ACTRESS = "Florencia Bertotti is an actress. She played the lead role in Floricienta, a telenovela."


def test_best_known_is_fame_not_a_degree():
    q = "Who is Florencia Bertotti?"
    ok = _claims(evaltools.score(q, ACTRESS, "Florencia Bertotti is best known for her role in "
                                             "Floricienta."))
    assert list(ok.values()) == [True]
    bad = _claims(evaltools.score(q, ACTRESS, "Florencia Bertotti is best known for her role in "
                                              "Rebelde Way."))
    assert list(bad.values()) == [False]
    # a superlative that is a degree is still required
    best = _claims(evaltools.score(q, ACTRESS, "Florencia Bertotti is the best actress in "
                                               "Floricienta."))
    assert list(best.values()) == [False]


CYCLIST = "Joeri Adams (born 1989) is a Belgian cyclocross cyclist."


def test_a_country_is_found_as_its_adjective_and_back():
    q = "Who is Joeri Adams?"
    ok = evaltools.score(q, CYCLIST, "Joeri Adams is from Belgium.")
    assert list(_claims(ok).values()) == [True] and ok.unsupported_spans == ()
    bad = evaltools.score(q, CYCLIST, "Joeri Adams is from the Netherlands.")
    assert list(_claims(bad).values()) == [False]
    assert [s.text for s in bad.unsupported_spans] == ["Netherlands"]
    back = evaltools.score("Where is Adams from?", "Adams was born in Belgium in 1989.",
                           "Adams is a Belgian.")
    assert list(_claims(back).values()) == [True]


def test_a_name_form_is_found_only_capitalised(nlp):
    from evaltools.scoring.matcher import SentenceIndex, words_of

    idx = SentenceIndex(nlp("We ate french fries. The French team won."))
    (france,) = words_of(nlp("France"))
    # positions count the words: We 0, ate 1, french 2, fries 3, The 4, French 5
    assert idx.name_form_positions(france) == (5,)
    (paris,) = words_of(nlp("Paris"))
    assert idx.name_form_positions(paris) == ()


# ------------------------------------------------------------ a subject named in full elsewhere

HOGWOOD = ("Manchester City is a rival. Conductor Christopher Hogwood has died at the age of "
           "73. He founded the Academy of Ancient Music in 1973. It toured widely. "
           "Hogwood was considered one of the most influential exponents of early music. "
           "Liverpool Football Club has won 3 UEFA Super Cups.")


def test_a_subject_named_by_its_head_lends_its_full_name_written_beside_it():
    q = "Summarise the news."
    ok = evaltools.score(q, HOGWOOD, "Christopher Hogwood was considered one of the most "
                                     "influential exponents of early music.")
    assert list(_claims(ok).values()) == [True]
    # a name the context writes elsewhere, not beside the head, is not lent
    bad = evaltools.score(q, HOGWOOD, "Manchester City Football Club has won 3 UEFA Super Cups.")
    assert [(a.supported, a.note) for a in bad.anchors if a.kind == "claim"] == [
        (False, "club / win / cups: 'City', 'Manchester' are not in the same context sentence")]


def test_a_plural_the_lemmatizer_reads_as_another_word(nlp):
    from evaltools.scoring.matcher import token_key

    assert [token_key(t) for t in nlp("Property taxes and the axes.")] == [
        "property", "tax", "and", "the", "axis", ""]
    ctx = "A tax on property was used by almost all OECD countries because it was stable."
    ok = evaltools.score("Summarise the review.", ctx, "Property taxes are stable.")
    assert list(_claims(ok).values()) == [True]
    bad = evaltools.score("Summarise the review.", ctx, "Property taxes are unstable.")
    assert list(_claims(bad).values()) == [False]


# ------------------------------------------------------------ numbered lists and the sources

ONIONS = ("Cutting an onion breaks its cells. The enzymes released make a gas, "
          "syn-propanethial-S-oxide, in about 30 seconds. The gas reaches the eyes and "
          "the eyes make tears to wash it away.")


def test_a_numbered_lists_item_numbers_and_count_are_not_facts():
    q = "Why do onions make you cry?"
    ok = evaltools.score(q, ONIONS, "Based on the passages, it happens in three steps:\n"
                                    "1. Cutting an onion breaks its cells.\n"
                                    "2. The enzymes make a gas in about 30 seconds.\n"
                                    "3. The gas reaches the eyes, which make tears.")
    assert ok.verdict == "PASS" and ok.anchors_unsupported == 0
    assert [(a.text, a.counted) for a in ok.anchors if a.kind == "number"] == [
        ("three", False), ("30 seconds", True)]
    bad = evaltools.score(q, ONIONS, "Based on the passages, it happens in three steps:\n"
                                     "1. Cutting an onion breaks its cells.\n"
                                     "2. The enzymes make a gas in about 90 seconds.\n"
                                     "3. The gas reaches the eyes, which make tears.")
    assert bad.verdict == "FAIL"
    assert [a.text for a in bad.anchors if a.counted and not a.supported] == [
        "The enzymes make a gas", "90 seconds"]


def test_the_sources_pointing_to_something_is_about_the_sources():
    ctx = "Prices rose because buyers wanted more cars. Factories also made fewer cars."
    q = "Why did prices rise?"
    reasons = ": buyers wanted more cars, and factories made fewer cars."
    ok = evaltools.score(q, ctx, "The passages point to several reasons" + reasons)
    assert [(a.text, a.supported) for a in ok.anchors] == [
        ("wanted more cars", True), ("factories made fewer cars", True)]
    bad = evaltools.score(q, ctx, "Economists point to several reasons" + reasons)
    assert [(a.text, a.supported) for a in bad.anchors] == [
        ("Economists point to several reasons", False), ("wanted more cars", True),
        ("factories made fewer cars", True)]


def test_a_count_of_the_responses_own_points_is_not_a_fact():
    ctx = "Prices rose because buyers wanted more cars. Factories also made fewer cars."
    ok = evaltools.score("Why did prices rise?", ctx,
                         "The passages give two main reasons. Buyers wanted more cars, and "
                         "factories made fewer cars.")
    assert [(a.text, a.counted) for a in ok.anchors if a.kind == "number"] == [("two", False)]
    assert ok.verdict == "PASS" and ok.anchors_unsupported == 0
    bad = evaltools.score("Why did prices rise?", ctx,
                          "There are two main factories. Buyers wanted more cars, and "
                          "factories made fewer cars.")
    assert [(a.text, a.counted, a.supported) for a in bad.anchors if a.kind == "number"] == [
        ("two", True, False)]
    assert "are two main factories" in [a.text for a in bad.anchors if not a.supported]
    # "there are several reasons" states the response's own structure, not a fact
    several = evaltools.score("Why did prices rise?", ctx,
                              "There are several reasons. Buyers wanted more cars.")
    assert [(a.text, a.supported) for a in several.anchors] == [("wanted more cars", True)]


# ------------------------------------------------------------ the third probe batch

def _unsupported(result):
    return [(a.kind, a.text) for a in result.anchors if a.counted and not a.supported]


def test_a_source_named_by_its_number_and_a_citation_are_no_facts():
    ctx = ("Microwaves damage the structure of cooked food and change its taste. "
           "Heat heightens flavors.")
    q = "Why do reheated fries taste bad?"
    ok = evaltools.score(q, ctx, "According to passage 3, microwaves damage the structure of "
                                 "cooked food, changing its taste. Passage 5, which is short, "
                                 "notes that heat heightens flavors [1][2].")
    assert _unsupported(ok) == []
    # numbers elsewhere are still checked
    bad = evaltools.score(q, ctx, "According to passage 3, microwaves damage 5 structures.")
    assert _unsupported(bad) == [("number", "5")]


def test_a_qualifier_may_take_an_article_before_its_amount():
    ctx = "We went to well over a $100,000 a month."
    q = "How much do they make?"
    assert _unsupported(evaltools.score(q, ctx, "They make well over $100,000 a month.")) == []
    bad = evaltools.score(q, ctx, "They make under $100,000 a month.")
    assert [a.note for a in bad.anchors if a.kind == "number"] == [
        "'$100,000' is in the context, but as 'more than $100,000', not 'less than $100,000'"]


def test_an_age_written_as_one_word_is_found_where_its_number_is():
    ctx = "Morata, 23, joined Juventus in 2014."
    q = "Summarise the news."
    ok = evaltools.score(q, ctx, "The 23-year-old Morata joined Juventus in 2014.")
    assert _unsupported(ok) == []
    bad = evaltools.score(q, ctx, "The 24-year-old Morata joined Juventus in 2014.")
    assert ("number", "24-year") in _unsupported(bad)


def test_a_compounds_person_is_found_as_people():
    ctx = ('{"name": "Smoke Pit", "review_info": [{"review_text": "They catered a party for '
           '40 people."}]}')
    ok = evaltools.score(CAFE_Q, ctx, "Smoke Pit catered a 40-person party.")
    assert _unsupported(ok) == []
    bad = evaltools.score(CAFE_Q, ctx, "Smoke Pit catered a 50-person party.")
    assert ("number", "50") in _unsupported(bad)


def test_mojibake_in_a_context_is_repaired():
    assert unmark("fined Â£1,000 in SÃ£o Paulo", mojibake=True) == "fined £1,000  in São  Paulo"
    assert unmark("SÃ£o") == "SÃ£o"  # responses are quoted as written
    ctx = "He was fined Â£1,000 and banned from driving."
    q = "Summarise the news."
    assert _unsupported(evaltools.score(q, ctx, "He was fined £1,000.")) == []
    assert _unsupported(evaltools.score(q, ctx, "He was fined £2,000.")) == [
        ("number", "£2,000")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Â£Ã©â€™\x9d\xa0.,1")), max_size=40))
def test_mojibake_repair_keeps_every_offset_and_never_crashes(text):
    out = unmark(text, mojibake=True)
    assert len(out) == len(text)
    assert [i for i, ch in enumerate(text) if ch.isspace()] == [
        i for i, ch in enumerate(out) if ch.isspace() and text[i].isspace()]


def test_a_count_of_the_names_that_follow_it_is_the_responses_own():
    ctx = "Daniel Timbers, 29, and Barry Joy, 56, were killed on Monday. The men were welders."
    q = "Summarise the news."
    ok = evaltools.score(q, ctx, "Two men, Daniel Timbers, 29, and Barry Joy, 56, were "
                                 "killed on Monday.")
    assert _unsupported(ok) == []
    bad = evaltools.score(q, ctx, "Three men, Daniel Timbers, 29, and Barry Joy, 56, were "
                                  "killed on Monday.")
    assert ("number", "Three") in _unsupported(bad)


BITCOIN = ('{"name": "Desert Shine", "attributes": {"BusinessAcceptsCreditCards": "True", '
           '"BusinessAcceptsBitcoin": "False", "RestaurantsReservations": "False", '
           '"OutdoorSeating": "False", "Alcohol": "u\'none\'", "ByAppointmentOnly": "False", '
           '"WiFi": "u\'no\'", "RestaurantsTableService": "False", "Caters": "False"}}')
TAKEOUT = ('{"name": "Loaf & Ladle", "attributes": {"RestaurantsTakeOut": "True", '
           '"RestaurantsDelivery": "False", "Caters": "True", "BusinessParking": '
           '"{\'garage\': False, \'street\': True, \'lot\': True}"}}')


@pytest.mark.parametrize(("context", "response", "supported"), [
    (BITCOIN, "It accepts credit cards but not Bitcoin.", True),
    (BITCOIN, "It accepts credit cards and Bitcoin.", False),
    (BITCOIN, "It accepts credit cards (but not Bitcoin).", True),  # the parser: an apposition
    (BITCOIN, "It accepts credit cards (and Bitcoin).", False),
    # the parser: an object predicate with its own "not"
    (BITCOIN, "Credit cards are accepted (not Bitcoin).", True),
    (BITCOIN, "Credit cards are accepted (Bitcoin too).", False),
    # the tagger reads *cater* as a listed noun and hangs *provide* on it
    (BITCOIN, "It does not serve alcohol, take reservations, offer table service, cater, or "
              "provide WiFi.", True),
    (BITCOIN, "It serves no alcohol but offers table service, caters, and provides WiFi.", False),
    (BITCOIN, "It does not take reservations, serve alcohol, or have outdoor seating.", True),
    (BITCOIN, "It does not take reservations but has outdoor seating.", False),
    # an object with "no" denies itself, not the verb's other objects
    (TAKEOUT, "It offers takeout and catering (no delivery).", True),
    (TAKEOUT, "It offers takeout and catering (and delivery).", False),
    # a noun listed after "plus" or "but" is had, whatever "no" came before it
    (TAKEOUT, "It offers takeout but no delivery, plus lot and street parking.", True),
    (TAKEOUT, "It offers takeout but no delivery, catering or lot parking.", False),
])
def test_a_negated_conjunct_reads_the_records_no(context, response, supported):
    r = evaltools.score(CAFE_Q, context, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported for a in claims) is supported, [
        (a.text, a.supported, a.contradiction) for a in claims]
    assert (r.verdict == "FAIL") is not supported  # a record's own "no" fails rule 1


@pytest.mark.parametrize(("text", "word", "negated"), [
    ("It is a dense gel rather than a thin liquid.", "thin", True),
    ("It is a dense gel rather than a thin liquid.", "dense", False),
    ("Use a dense gel instead of a thin liquid.", "thin", True),   # the parser: a conjunct
    ("It is made of a thin liquid.", "thin", False),
    ("The room is nothing fancy.", "fancy", True),
    ("The room is fancy.", "fancy", False),
])
def test_what_rather_than_sets_aside_and_an_adjective_of_nothing_are_negated(text, word,
                                                                              negated):
    doc = load_pipeline()(text)
    assert clause_negated(next(t for t in doc if t.text == word)) is negated


def test_a_mislabelled_nt_still_negates():
    # in this long sentence the parser labels the "n’t" of "wasn’t" punctuation
    ctx = ("At the time, several European figures—such as France’s Marquis de Lafayette, a "
           "hero of the Revolutionary War—were quite popular in the New World, so the idea "
           "wasn’t completely far-fetched.")
    doc = load_pipeline()(ctx)
    assert [t.dep_ for t in doc if t.text == "n’t"] == ["punct"]
    assert clause_negated(next(t for t in doc if t.text == "fetched"))
    q = "Why must the President be born in the United States?"
    ok = evaltools.score(q, ctx, "The idea wasn't completely far-fetched.")
    assert [(a.supported, a.contradiction) for a in ok.anchors if a.kind == "claim"] == [
        (True, None)]


WASHINGTON = ("Under Washington law, drivers must show a license and registration when "
              "an officer asks. Passengers need not answer questions.")


def test_a_claim_naming_what_the_context_never_mentions_fails_from_its_own_probability():
    q = "What must I show when pulled over?"
    alone = evaltools.score(q, WASHINGTON, "Under California law, drivers must show a license.")
    assert alone.hallucination == 1.0 and alone.verdict == "FAIL"
    # S_hall alone fails it whatever P: under the calibration's threshold (0.75), the clause
    # names the name
    under = dataclasses.replace(alone, verdict_inputs=dataclasses.replace(
        alone.verdict_inputs, probability=(0.5, 0.75)))
    assert redecide(under, load_config()).reasons[0] == (
        "hallucination 1.00 > 0.5 with a name the context never mentions (safety first)")
    # with a supported claim beside it S_hall is 1/2, not > 0.5: the probability decides
    bad = evaltools.score(q, WASHINGTON, "Under California law, drivers must show a license. "
                                         "Passengers need not answer questions.")
    assert bad.hallucination == 0.5
    (claim,) = [a for a in bad.anchors if a.kind == "claim" and not a.supported]
    assert claim.absent == ("California",) and claim.to_dict()["absent"] == ["California"]
    assert bad.verdict_inputs.name_absent
    p = bad.verdict_inputs.probability[0]
    at = {"name_fail_probability": round(p, 2) - 0.01}   # just under P: the clause fails it
    v = redecide(bad, load_config().replace(hallucination=at))
    assert v.verdict == "FAIL" and v.reasons[0] == (
        f"hallucination probability {p:.2f} >= {at['name_fail_probability']:g} with a name "
        "the context never mentions (safety first)")
    off = redecide(bad, load_config().replace(hallucination={"name_fail_probability": 1.0}))
    assert "name the context never mentions" not in off.reasons[0]
    # the right state: supported, nothing absent
    ok = evaltools.score(q, WASHINGTON, "Under Washington law, drivers must show a license.")
    assert not ok.verdict_inputs.name_absent
    assert all(a.absent == () for a in ok.anchors)
    # a name the query gives is not invented by the response
    asked = evaltools.score("Do the rules in California match?", WASHINGTON,
                            "Under California law, drivers must show a license.")
    assert not asked.verdict_inputs.name_absent


WINE_BAR = ('{"name": "Vine & Ember", "attributes": {"RestaurantsReservations": "True", '
            '"RestaurantsTakeOut": "False"}}')


def test_a_verb_is_no_attribute_a_records_no_can_deny():
    # "take" stands in the record only in "restaurants takeout take out: no"; the claim is
    # about reservations, which the record affirms
    ok = evaltools.score(CAFE_Q, WINE_BAR, "Vine & Ember takes reservations.")
    assert [(a.supported, a.contradiction) for a in ok.anchors] == [(True, None)]
    bad = evaltools.score(CAFE_Q, WINE_BAR, "Vine & Ember offers takeout.")
    assert [(a.supported, a.contradiction) for a in bad.anchors] == [(False, "record_no")]


@pytest.mark.parametrize(("context", "response", "supported"), [
    ('The guidance says it is "not normally necessary".', "It is not normally necessary.", True),
    ('The guidance says it is "not normally necessary".', "It is normally necessary.", False),
    ("A new release date has yet to be announced.", "No new release date has been announced.",
     True),
    ("A new release date has yet to be announced.", "A new release date has been announced.",
     False),
])
def test_not_on_an_adjective_and_yet_to_negate(context, response, supported):
    (claim,) = [a for a in evaltools.score("Summarise the news.", context, response).anchors
                if a.kind == "claim"]
    assert claim.supported is supported


def test_a_records_street_abbreviations_are_the_words_an_overview_writes():
    ctx = '{"name": "Lockbox Escape Games", "address": "1250 S Broadway, Ste 104"}'
    ok = evaltools.score(CAFE_Q, ctx, "Lockbox Escape Games is at 1250 S Broadway, Suite 104.")
    assert _unsupported(ok) == [] and not ok.verdict_inputs.name_absent
    bad = evaltools.score(CAFE_Q, ctx, "Lockbox Escape Games is at 1250 S Broadway, Suite 105.")
    assert ("number", "105") in _unsupported(bad)
    # codes in capitals stay codes, and a lower-case "st" is no street
    from evaltools.scoring.matcher import token_key

    doc = load_pipeline()("Ave. Maria Rd, CT; the 1st st")
    assert [(t.text, token_key(t)) for t in doc if t.is_alpha] == [
        ("Ave", "avenue"), ("Maria", "maria"), ("Rd", "road"), ("CT", "ct"), ("the", "the"),
        ("st", "st")]


def test_a_listed_noun_with_its_own_article_keeps_its_polarity():
    ctx = '{"name": "Magnolia Row Inn", "review_info": [{"review_text": "The room was ' \
          'somewhat dated and the walls are thin. There is no elevator."}]}'
    ok = evaltools.score(CAFE_Q, ctx, "Drawbacks include no elevator, a somewhat dated room, "
                                      "and thin walls.")
    assert _unsupported(ok) == []
    bad = evaltools.score(CAFE_Q, ctx, "Drawbacks include an elevator, a somewhat dated room, "
                                       "and thin walls.")
    assert [a.contradiction for a in bad.anchors if not a.supported] == ["negation"]


def test_a_golf_score_under_par_is_no_qualifier():
    ctx = "McIlroy carded a third straight five under-par 67 to move to 15 under par."
    q = "Summarise the news."
    assert _unsupported(evaltools.score(q, ctx, "McIlroy carded his third straight "
                                                "five-under 67.")) == []
    assert ("number", "68") in _unsupported(evaltools.score(
        q, ctx, "McIlroy carded his third straight five-under 68."))
    # "under" before an amount is still "less than"
    assert [m.qualifier for m in find_mentions("under 67 people")] == ["<"]


@pytest.mark.parametrize(("text", "value"), [
    ("a year-and-a-half", ("quantity", "year", Decimal("1.5"))),
    ("an hour and a half", ("quantity", "h", Decimal("1.5"))),
    ("two and a half hours", ("quantity", "h", Decimal("2.5"))),
    ("3 years and a half", ("quantity", "year", Decimal("3.5"))),
    ("half an hour", ("quantity", "h", Decimal("0.5"))),
    ("a 50-cent refill", ("money", "USD", Decimal("0.5"))),
])
def test_amounts_written_with_a_half_or_a_hyphen(text, value):
    assert [m.value for m in find_mentions(text)] == [value]


def test_a_duration_in_words_is_converted_and_over_a_duration_is_during_it():
    ctx = ('NRW said: "We have held detailed discussions with the developer for a '
           'year-and-a-half where we have shared our methodology."')
    q = "Summarise the news."
    ok = evaltools.score(q, ctx, "NRW said it had shared its methodology with the developer "
                                 "over 18 months.")
    assert _unsupported(ok) == []
    (n,) = [a for a in ok.anchors if a.kind == "number"]
    assert "converted" in n.note  # 1.5 years = 18 months
    bad = evaltools.score(q, ctx, "NRW said it had shared its methodology with the developer "
                                  "over 20 months.")
    assert ("number", "20 months") in _unsupported(bad)
    # "for over" a duration is "more than" it
    assert [m.qualifier for m in find_mentions("for over 18 months")] == [">"]


@pytest.mark.parametrize(("response", "supported"), [
    ("The shop is kid-friendly and dog-friendly.", True),
    ("The shop is not kid-friendly.", False),
])
def test_a_friendly_compound_is_found_where_its_first_part_is(response, supported):
    ctx = ('{"name": "Marginalia Books", "attributes": {"GoodForKids": "True", '
           '"DogsAllowed": "True"}}')
    claims = [a for a in evaltools.score(CAFE_Q, ctx, response).anchors if a.kind == "claim"]
    assert claims and all(a.supported for a in claims) is supported


def _numbers_supported(query: str, context: str, response: str) -> list[bool]:
    """Whether each number anchor of the scored response is supported, in order."""
    r = evaltools.score(query, context, response)
    return [a.supported for a in r.anchors if a.kind == "number"]


def _review(name: str, text: str) -> str:
    """A business record holding one review, as a JSON string."""
    return json.dumps({"name": name, "review_info": [{"review_text": text}]})


@pytest.mark.parametrize(("review", "ok", "bad", "unsupported"), [
    pytest.param("Wine and cheese hour at 5 was a nice touch.",
                 "Guests enjoy a 5 PM wine and cheese hour.",
                 "Guests enjoy a 6 PM wine and cheese hour.", ("date", "6 PM"), id="at-5"),
    pytest.param("Happy hour 3-6 weekdays knocks $1 off pints.",
                 "Reviewers noted a weekday 3-6 PM happy hour.",
                 "Reviewers noted a weekday 3-7 PM happy hour.", ("date", "7 PM"), id="range-3-6"),
    pytest.param("Happy hour from 4 to 6 is a steal.",
                 "Reviewers praise happy hour from 4 to 6 PM.",
                 "Reviewers praise happy hour from 4 to 7 PM.", ("date", "7 PM"), id="from-4-to-6"),
    pytest.param("After-work hours, roughly 5 to 8, get really crowded.",
                 "Reviewers note crowds from 5 to 8 PM.",
                 "Reviewers note crowds from 5 to 9 PM.", ("date", "9 PM"), id="5-to-8"),
    pytest.param("It gets packed between 6 and 9 on Fridays.",
                 "Reviewers say it is packed between 6 and 9 PM on Fridays.",
                 "Reviewers say it is packed between 6 and 10 PM on Fridays.", ("date", "10 PM"),
                 id="between-6-and-9"),
    pytest.param("The guava pastries sell out by 9, so get there early.",
                 "One regular says the guava pastries sell out by 9 AM.",
                 "One regular says the guava pastries sell out by 10 AM.", ("date", "10 AM"),
                 id="by-9"),
    pytest.param("We usually stop in after 5 when the line is short.",
                 "A regular drops in after 5 PM, when the line is short.",
                 "A regular drops in after 4 PM, when the line is short.", ("date", "4 PM"),
                 id="after-5"),
])
def test_a_bare_hour_after_at_or_in_a_range_is_a_clock_time(review, ok, bad, unsupported):
    ctx = _review("Hollow Log Inn", review)
    assert _unsupported(evaltools.score(CAFE_Q, ctx, ok)) == []
    assert unsupported in _unsupported(evaltools.score(CAFE_Q, ctx, bad))
    # a number with a unit is no hour
    assert [m.others for m in find_mentions("ages 3-6 years")] == [
        (("time", 3, 0), ("time", 15, 0)), ()]


def test_a_web_address_names_its_site():
    from evaltools.scoring.matcher import words_of

    doc = load_pipeline()("Nausea tips (www.webmd.com) and https://www.wikihow.com/Stop")
    assert [w.forms for w in words_of(doc) if "." in w.text] == [
        ("www.webmd.com", "webmd"), ("https://www.wikihow.com/stop", "wikihow")]
    ctx = ("Prevention of Nausea and Vomiting (www.webmd.com)\n"
           "Sit down or lie in a propped-up position. Physical activity will make you feel worse.")
    q = "Why does lying down help nausea?"
    notes = [a.note for a in evaltools.score(q, ctx, "WebMD advises sitting down or lying in a "
                                                     "propped-up position.").anchors]
    assert notes and not any("'WebMD' is not in the context" in n for n in notes)
    notes = [a.note for a in evaltools.score(q, ctx, "Healthline advises sitting down or lying "
                                                     "in a propped-up position.").anchors]
    assert any("'Healthline' is not in the context" in n for n in notes)


def test_one_reviewer_described_by_an_overview_speaks_for_the_reviews():
    ctx = ('{"name": "Sakura Counter", "review_info": [{"review_text": "We celebrated our '
           'anniversary here and Chef Hiroshi explained every course."}]}')
    ok = evaltools.score(CAFE_Q, ctx, "One couple celebrated an anniversary and praised Chef "
                                      "Hiroshi's explanations.")
    assert _unsupported(ok) == []
    bad = evaltools.score(CAFE_Q, ctx, "One couple celebrated an anniversary and praised Chef "
                                       "Kenji's explanations.")
    assert _unsupported(bad) == [("claim", "praised Chef Kenji's explanations")]


def test_a_definite_description_is_read_as_the_name_said_before_it():
    ctx = ("McGregor is the UFC champion. He is 29. He lives in Dublin. He trains daily. "
           "McGregor will earn a fortune from the fight.")
    q = "Summarise the news."
    ok = evaltools.score(q, ctx, "McGregor is the UFC champion. The champion will earn a "
                                 "fortune from the fight.")
    assert _unsupported(ok) == []
    (claim,) = [a for a in ok.anchors if a.text.startswith("The champion")]
    assert claim.note.endswith("(its subject read as 'McGregor', named before)")
    # a description the context never uses is not read as the name
    bad = evaltools.score(q, ctx, "McGregor is the UFC champion. The club will earn a "
                                  "fortune from the fight.")
    assert _unsupported(bad) == [("claim", "The club will earn a fortune")]
    # nor is a description before any name
    first = evaltools.score(q, ctx, "The champion will earn a fortune from the fight.")
    assert _unsupported(first) == [("claim", "The champion will earn a fortune")]


MUSEUM = ("The Harbour Museum opened in 1998 in a former grain warehouse on the north quay. "
          "Its permanent collection covers three centuries of shipbuilding in the town, with "
          "models, tools and photographs donated by local families. The museum is open from "
          "Tuesday to Sunday, and entry is free for children under twelve. A cafe on the top "
          "floor looks out over the estuary. Guided tours run every Saturday morning and must "
          "be booked in advance by phone.")
MUSEUM_LONG = ("The Harbour Museum opened in 1998 in a former grain warehouse on the north "
               "quay. Its collection covers three centuries of shipbuilding in the town, with "
               "models, tools and photographs donated by local families. It is open from "
               "Tuesday to Sunday, and children under twelve get in free. A cafe on the top "
               "floor looks out over the estuary. Guided tours run every Saturday morning and "
               "are led by retired shipwrights.")


def test_a_long_summary_fails_from_the_summaries_threshold():
    """An instruction about prose that names nothing the context speaks of ("Summarize the
    following news in 100 words") is answered by a summary: from 60 words it fails from
    hallucination.long_summary_fail_probability (0.6), not the long responses' 0.65; an
    instruction about a topic the context holds ("Tell me about the Harbour Museum") or a
    JSON record, or a question over prose (a RAG answer), is no summary."""
    told = evaltools.score("Summarize the following text in about 70 words.", MUSEUM,
                           MUSEUM_LONG)
    assert told.verdict_inputs.summary and not told.verdict_inputs.answer
    p = told.verdict_inputs.probability[0]
    assert p < 0.6 and told.reasons[0].startswith(f"hallucination probability {p:.2f} < 0.6")
    at = load_config().replace(hallucination={"long_summary_fail_probability": round(p, 2) - 0.01})
    assert redecide(told, at).reasons[0] == (
        f"hallucination probability {p:.2f} >= {round(p, 2) - 0.01:g} (safety first; "
        "calibration; a summary of 60 words or more)")
    asked = evaltools.score("What is the Harbour Museum like?", MUSEUM, MUSEUM_LONG)
    assert asked.verdict_inputs.answer and not asked.verdict_inputs.summary
    topic = evaltools.score("Tell me about the Harbour Museum.", MUSEUM, MUSEUM_LONG)
    assert not (topic.verdict_inputs.summary or topic.verdict_inputs.answer)
    record = json.dumps({"name": "Harbour Museum", "review_info": [{"review_text": MUSEUM}]})
    overview = evaltools.score("Describe this business.", record, MUSEUM_LONG)
    assert not (overview.verdict_inputs.summary or overview.verdict_inputs.answer)
    assert told.verdict_inputs.to_dict()["summary"] is True


def test_a_long_response_fails_from_the_long_responses_threshold():
    q = "Tell me about the Harbour Museum."  # neither a RAG answer nor a summary
    long = evaltools.score(q, MUSEUM, MUSEUM_LONG)
    assert not (long.verdict_inputs.answer or long.verdict_inputs.summary)
    assert long.verdict_inputs.response_words == 71 == len(MUSEUM_LONG.split())
    assert long.verdict_inputs.to_dict()["response_words"] == 71
    p = long.verdict_inputs.probability[0]
    assert p < 0.65 and long.verdict == "PASS"   # one invented detail among many supported
    assert long.reasons[0].startswith(f"hallucination probability {p:.2f} < 0.65, ")
    at = {"long_fail_probability": round(p, 2) - 0.01}   # just under P
    v = redecide(long, load_config().replace(hallucination=at))
    assert v.verdict == "FAIL" and v.reasons[0] == (
        f"hallucination probability {p:.2f} >= {at['long_fail_probability']:g} (safety first; "
        "calibration; a response of 60 words or more)")
    # 72 words needed: the same threshold no longer applies to this response
    more = load_config().replace(hallucination={**at, "long_response_words": 72})
    assert redecide(long, more).verdict == "PASS"
    assert redecide(long, more).reasons[0].startswith(f"hallucination probability {p:.2f} < 0.75")
    # a short response at the same setting keeps the calibration's threshold
    short = evaltools.score(q, MUSEUM, "Guided tours run every Saturday morning and are led "
                                       "by retired shipwrights.")
    assert short.verdict_inputs.response_words == 12
    low = load_config().replace(hallucination={"long_fail_probability": 0.0})
    assert (redecide(short, low).verdict, redecide(short, low).reasons) == (
        redecide(short, load_config()).verdict, redecide(short, load_config()).reasons)
    assert not any("60 words or more" in r for r in redecide(short, low).reasons)


# ------------------------------------------------------------ the tenth probe batch

def test_one_passage_saying_something_is_about_the_sources():
    ctx = "Spam filters once missed misspelled words. Filters improved after 2010."
    q = "Why do spammers misspell words?"
    ok = evaltools.score(q, ctx, "One passage notes that spam filters once missed misspelled "
                                 "words.")
    assert ok.support == 1.0 and ok.anchors_unsupported == 0
    bad = evaltools.score(q, ctx, "One expert notes that spam filters once missed misspelled "
                                  "words.")
    assert [s.text for s in bad.unsupported_spans] == ["expert notes"]


@pytest.mark.parametrize(("text", "silent"), [
    ("Based on the given passages, there isn't a direct answer to why it happens.", True),
    ("There is no clear explanation for it in the passages.", True),
    ("The passages touch on related points but don't compare the two.", True),
    ("The documents were signed but not filed.", False),
    ("There is a direct flight to Paris.", False),
    # the eleventh batch: sources that only partly answer
    ("The passages only partly answer this.", True),
    ("The given passages partially address the question.", True),
    ("The drug only partly explains the decline.", False),
])
def test_the_sources_lacking_a_direct_answer_is_an_abstention(nlp, text, silent):
    doc = nlp(text)
    sents = [(s.start_char, s.end_char) for s in doc.sents]
    assert bool(abstention_sentences(text, sents)) is silent


def test_the_two_refers_back_and_is_not_a_number_to_check():
    ctx = ("Megapixels describe an image's size. File size is the number of bytes used to "
           "store it.")
    q = "Why do photos with the same megapixels differ in file size?"
    ok = evaltools.score(q, ctx, "Megapixels describe an image's size, and file size is the "
                                 "number of bytes; there is no way to relate the two.")
    assert [(a.text, a.counted) for a in ok.anchors if a.kind == "number"] == [("two", False)]
    assert not ok.verdict_inputs.value_unsupported
    # a count in digits, or one that does not refer back, is checked
    bad = evaltools.score(q, ctx, "Megapixels describe the size of two images.")
    assert [(a.text, a.counted, a.supported) for a in bad.anchors if a.kind == "number"] == [
        ("two", True, False)]


def test_experiences_vary_sums_up_reviews_and_weighs_nothing():
    ctx = json.dumps({"name": "Gulf Lock", "categories": "Locksmiths", "review_info": [
        {"review_stars": 5, "review_text": "Fast and professional."},
        {"review_stars": 2, "review_text": "The quote went up a lot."}]})
    q = "Write an overview of this business."
    ok = evaltools.score(q, ctx, "Gulf Lock is a locksmith. Customer experiences vary.")
    bad = evaltools.score(q, ctx, "Gulf Lock is a locksmith. Customer experiences improve.")
    assert ok.support > bad.support
    assert not any("vary" in s.text for s in ok.unsupported_spans)


@pytest.mark.parametrize(("response", "absent"), [
    ("Great Britain were beaten by the Netherlands.", False),  # initials the context writes
    ("New Zealand were beaten by the Netherlands.", True),    # initials it does not write
    ("Jane Smith was friendly to one customer.", True),        # another first name
])
def test_a_name_whose_initials_the_context_writes_is_no_absent_name(response, absent):
    ctx = ("The guy at the register, Teddy, was friendly. John Smith runs it. "
           "GB were beaten by the Netherlands in the final.")
    r = evaltools.score("Write an overview of the news.", ctx, response)
    assert r.verdict_inputs.name_absent is absent


# ---------------------------------------------------------- the eleventh probe batch

WINDS = ("It issued a yellow warning of wind, saying gusts of up to 75mph (120kmph) could "
         "occur. The affected counties are Conwy, Anglesey, Gwynedd, Pembrokeshire, "
         "Carmarthenshire, Ceredigion and Powys. Smile charges £7.34 to fund a £500 overdraft "
         "for a month.")


@pytest.mark.parametrize(("response", "unsupported"), [
    ("A warning covers seven Welsh counties.", []),  # the context lists seven
    ("A warning covers six Welsh counties.", [("number", "six")]),
    ("The warning lasts seven years.", [("number", "seven years")]),  # a count of names only
    ("Gusts of up to 120km/h could occur.", []),  # kmph is km/h
    ("Gusts of up to 130km/h could occur.", [("number", "130km/h")]),
    ("Smile charges £7.34 for a one-month £500 overdraft.", []),  # "for a month"
    ("Smile charges £7.34 for a two-month £500 overdraft.", [("number", "two-month")]),
])
def test_amounts_the_context_implies_support_a_summary(response, unsupported):
    r = evaltools.score("Summarise the news.", WINDS, response)
    assert [u for u in _unsupported(r) if u[0] == "number"] == unsupported


def test_a_responses_own_a_month_or_list_is_no_anchor():
    r = evaltools.score("Summarise the news.", WINDS, "Smile lends for a month to Ann, Bo and "
                                                      "Cy.")
    assert [a for a in r.anchors if a.kind == "number"] == []


@pytest.mark.parametrize(("response", "supported"), [
    ("His breakthrough was a 1990s photo shoot for Katharine Hamnett.", True),
    ("His breakthrough was a 1980s photo shoot for Katharine Hamnett.", False),
])
def test_a_decade_in_words_is_the_decade_in_digits(response, supported):
    ctx = "His breakthrough was a famous Nineties photo-shoot for Katharine Hamnett."
    r = evaltools.score("Why is he famous?", ctx, response)
    (d,) = [a for a in r.anchors if a.kind == "date"]
    assert d.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("The accent was everywhere in films and radio shows from the '30s.", True),
    ("The accent was everywhere in films and radio shows from the '50s.", False),
])
def test_a_decade_written_the_30s_supports_the_30s_with_an_apostrophe(response, supported):
    """A faithful answer was failed on *the '30s* for the passage's *the 30s and 40s*."""
    ctx = "Countless films, newsreels and radio shows from the 30s and 40s used that accent."
    (d,) = [a for a in evaltools.score("Why?", ctx, response).anchors if a.kind == "date"]
    assert d.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("Breakfast was good, though the menu didn't change over three mornings.", True),
    ("Breakfast was good, though the menu didn't change over four mornings.", False),
])
def test_over_a_count_of_mornings_is_during_them(response, supported):
    ctx = _review("The Marlowe Inn", "Breakfast was good but the same menu all three mornings.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("Reviewers praise Rosa for a bustle and hem completed over three fittings.", True),
    ("Reviewers praise Rosa for a bustle and hem completed over four fittings.", False),
])
def test_over_a_count_of_fittings_is_across_them(response, supported):
    """A faithful overview was failed on *over three fittings* read as *more than three*."""
    ctx = _review("Stitch & Hem", "Rosa did a bustle and hem, and finished in three fittings.")
    (n,) = [a for a in evaltools.score(CAFE_Q, ctx, response).anchors if a.kind == "number"]
    assert n.supported is supported


@pytest.mark.parametrize(("response", "supported", "absent_names"), [
    ("Multifuel Energy Ltd will run the new plant.", True, 0.0),
    ("Multifuel Energy Inc will run the new plant.", False, math.log(2)),
])
def test_an_abbreviation_the_parser_keeps_its_period_on_is_the_same_word(
        response, supported, absent_names):
    """A faithful summary was failed on *Ltd* where the article wrote *Ltd.* (the parser's
    token keeps the period: the key was "ltd.")."""
    r = evaltools.score("Summarise the news.", "The new plant will be run by Multifuel "
                                                "Energy Ltd.", response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]
    assert r.signals["log_absent_names"] == pytest.approx(absent_names)


NO_WIFI = json.dumps({"name": "Crumb", "attributes": {
    "WiFi": "u'no'", "Alcohol": "u'none'", "DogsAllowed": "False"}})


@pytest.mark.parametrize(("response", "supported"), [
    ("It does not serve alcohol, allow dogs, or offer Wi-Fi.", True),
    ("It does not serve alcohol or allow dogs, but it offers Wi-Fi.", False),
])
def test_not_reaches_every_verb_of_a_list_of_three(response, supported):
    r = evaltools.score(CAFE_Q, NO_WIFI, response)
    assert all(_claims(r).values()) is supported
    assert (r.verdict == "FAIL") is not supported  # a record's own "no" fails rule 1


def test_a_count_before_a_colon_and_two_long_items_is_the_responses_own():
    ctx = "The term tar baby is a slur. The film's portrayal of Black characters drew protests."
    q = "Why is the film racist?"
    ok = evaltools.score(q, ctx, 'There are two related issues: the term "tar baby" itself, '
                                 "and the film's overall portrayal of Black characters.")
    assert [(a.text, a.counted) for a in ok.anchors if a.kind == "number"] == [("two", False)]
    bad = evaltools.score(q, ctx, 'There are three related issues: the term "tar baby" itself, '
                                  "and the film's overall portrayal of Black characters.")
    assert [(a.text, a.counted) for a in bad.anchors if a.kind == "number"] == [("three", True)]


@pytest.mark.parametrize(("response", "absent"), [
    ("Instructor Mariana teaches the 6 AM class.", False),  # capitalised for its place
    ("The 6 AM class is taught by Instructor Mariana.", True),  # a title inside a sentence
    ("- Instructor Mariana teaches the 6 AM class.", False),  # a list item's first word
    ("Jane Mariana teaches the 6 AM class.", True),  # a first name, however common
])
def test_a_role_opening_a_sentence_before_a_name_is_no_name(response, absent):
    ctx = _review("Flow Yoga", "Mariana teaches the 6 AM class with clear cues.")
    r = evaltools.score(CAFE_Q, ctx, response)
    assert r.verdict_inputs.name_absent is absent


@pytest.mark.parametrize(("level", "supported"), [("3", True), ("1", False)])
def test_upscale_is_a_high_price_level(level, supported):
    ctx = json.dumps({"name": "The Marlowe Inn", "categories": "Hotels",
                      "attributes": {"RestaurantsPriceRange2": level}})
    r = evaltools.score(CAFE_Q, ctx, "The Marlowe Inn is an upscale hotel.")
    assert all(_claims(r).values()) is supported


@pytest.mark.parametrize(("lot", "supported"), [(True, True), (False, False)])
def test_an_on_site_lot_is_the_records_parking_lot(lot, supported):
    parking = f"{{'garage': False, 'street': True, 'lot': {lot}, 'valet': False}}"
    ctx = json.dumps({"name": "Muddy Paws", "attributes": {"BusinessParking": parking}})
    r = evaltools.score(CAFE_Q, ctx, "Muddy Paws has an on-site parking lot.")
    assert all(_claims(r).values()) is supported


def test_a_count_of_listed_names_leaves_the_same_number_its_support():
    # "Coffee & Tea, Cafes, Bakeries" counts four names; the rating 4 still supports "4-star"
    ctx = json.dumps({"name": "Crumb", "categories": "Coffee & Tea, Cafes, Bakeries",
                      "stars": 4.0})
    r = evaltools.score(CAFE_Q, ctx, "Crumb is a bakery with a 4-star rating.")
    assert all(_claims(r).values()) and _unsupported(r) == []


def test_a_named_piece_or_passage_that_hints_is_about_the_sources():
    ctx = ("In the fashion and art worlds, realms that have celebrated subversive ideas, "
           "predatory behavior can get covered up.")
    q = "Why was he still hired?"
    ok = evaltools.score(q, ctx, "The HuffPost piece explains that the fashion and art worlds "
                                 "have celebrated subversive ideas.")
    assert ok.unsupported_spans == () and ok.anchors_unsupported == 0
    bad = evaltools.score(q, ctx, "The HuffPost critic explains that the fashion and art "
                                  "worlds have celebrated subversive ideas.")
    assert [s.text for s in bad.unsupported_spans] == ["HuffPost critic explains"]
    assert bad.support < ok.support


# ---------------------------------------------------------- the twelfth probe batch

TRATTORIA = json.dumps({"name": "Nonna Rosa", "hours": {
    "Tuesday": "16:30-22:0", "Wednesday": "16:30-22:0", "Thursday": "16:30-22:0",
    "Friday": "16:30-23:0", "Saturday": "12:0-23:0", "Sunday": "12:0-21:0"}})


@pytest.mark.parametrize(("friday", "denied"), [("11 PM", False), ("10 PM", True)])
def test_hours_stated_before_their_days_after_a_heading_range(friday, denied):
    # "open Tuesday through Sunday:" heads the list; each time range then precedes its days
    r = evaltools.score(CAFE_Q, TRATTORIA,
                        "It is open Tuesday through Sunday: from 4:30 PM to 10 PM Tuesday to "
                        f"Thursday, 4:30 PM to {friday} on Friday, noon to 11 PM on Saturday, "
                        "and noon to 9 PM on Sunday.")
    hours = [a for a in r.anchors if a.contradiction == "record_hours"]
    assert [a.note.split(": ", 1)[-1] for a in hours] == (
        ["the record's Friday hours are 16:30–23:00, not 16:30–22:00"] if denied else [])


TITLES = ("Leading the fight is Gina Miller. Lord Pannick QC represents her. Italy take on "
          "Belgium in Bordeaux at 14:00 the following day.")
SHORT = ("Sussex PCC Katy Bourne wrote to the council. El is used. Why do bikes stay up? "
         "(www.physicsforums.com) The gyroscopic effect is small.")


@pytest.mark.parametrize(("context", "query", "response", "absent"), [
    (TITLES, "Summarise the news.", "Lord Pannick QC is arguing Ms Miller's case.",
     False),  # a title, not a name
    (TITLES, "Summarise the news.", "Italy play Belgium in Bordeaux in July.",
     False),  # a month alone is a date now, which the value clause checks (below)
    (TITLES, "Summarise the news.", "Lord Pannick QC is arguing Ms Jones's case.",
     True),  # the name after it still counts
    # initials across "and": "Police and Crime Commissioner" is the context's "PCC"
    (SHORT, "Summarise the passages.",
     "Sussex Police and Crime Commissioner Katy Bourne wrote to the council.", False),
    (SHORT, "Summarise the passages.",
     "Sussex Fire and Rescue Commissioner Katy Bourne wrote to the council.", True),
    # a name the context writes as one word, a site's: "Physics Forums", physicsforums.com
    (SHORT, "Summarise the passages.", "One Physics Forums answer says the effect is small.",
     False),
    (SHORT, "Summarise the passages.", "One Physics Today answer says the effect is small.",
     True),
    # two names joined by "and" are no initials: "Egypt and Lebanon" is no "El"
    (SHORT, "Summarise the passages.", "El is used in Egypt and Lebanon, says Bourne.", True),
])
def test_a_title_or_a_name_the_context_writes_short_is_no_absent_name(context, query, response,
                                                                      absent):
    r = evaltools.score(query, context, response)
    assert r.verdict_inputs.name_absent is absent


def test_a_month_alone_the_context_never_gives_is_an_unsupported_value():
    r = evaltools.score("Summarise the news.", TITLES, "Italy play Belgium in Bordeaux in July.")
    assert r.verdict_inputs.value_unsupported is True
    assert [a.text for a in r.anchors if a.kind == "date" and not a.supported] == ["July"]


@pytest.mark.parametrize(("response", "own"), [
    ("Aperture and shutter speed are two key camera settings.", True),
    ("Rome, Milan and Turin were the three host cities.", True),
    ("Aperture and shutter speed are three key camera settings.", False),  # two are named
])
def test_a_count_of_the_subject_just_named_is_the_responses_own(response, own):
    r = evaltools.score("How do cameras control light?", "Cameras use settings.", response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.counted is not own


@pytest.mark.parametrize(("response", "supported"), [
    ("One diner waited about 45 minutes past a 7:30 reservation.", True),
    ("One diner waited about 90 minutes past a 7:30 reservation.", False),
])
def test_the_minutes_between_two_times_of_a_sentence_support_a_wait(response, supported):
    ctx = _review("Bella Notte", "We had a 7:30 reservation and weren't seated until almost "
                                 "8:15. No apology from the host.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("Iron Works is a well-regarded gym.", True),  # how the reviews lean: no word to look up
    ("Iron Works is a well-regarded sauna.", False),  # what it is still is
])
def test_how_reviews_lean_weighs_nothing_in_a_claim_on_a_record_with_reviews(response,
                                                                              supported):
    ctx = json.dumps({"name": "Iron Works", "categories": "Gyms, Fitness",
                      "review_info": [{"review_text": "Great gym, friendly trainers."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert all(_claims(r).values()) is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("Pho Saigon is a restaurant specializing in noodles and soup.", True),
    ("Pho Saigon is a restaurant specializing in sushi.", False),
])
def test_specializing_says_only_what_kind_of_business_it_is(response, supported):
    ctx = json.dumps({"name": "Pho Saigon", "categories": "Restaurants, Noodles, Soup"})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert all(_claims(r).values()) is supported


GYM = json.dumps({"name": "Iron Works", "categories": "Gyms, Fitness",
                  "attributes": {"WiFi": "u'free'", "BusinessParking": "{'lot': True}"},
                  "review_info": [{"review_text": "Clean lockers, friendly trainers."}]})


@pytest.mark.parametrize(("response", "added"), [
    ("Iron Works offers free Wi-Fi, a parking lot and clean lockers.", ()),
    ("Iron Works offers free Wi-Fi, a sauna and clean lockers.", ("sauna",)),
])
def test_an_amenity_the_record_never_mentions_is_added(response, added):
    r = evaltools.score(CAFE_Q, GYM, response)
    absent = [a for a in r.unsupported() if a.contradiction == "record_absent"]
    assert [a.note.rsplit("never mentions ", 1)[1] for a in absent] == [
        ", ".join(repr(w) for w in added)] * bool(added)
    assert r.verdict_inputs.amenity_absent is bool(added)


def test_the_amenity_clause_fails_from_its_own_probability_and_only_on_records():
    from evaltools.config import load_config
    from evaltools.scoring.verdict import redecide

    r = evaltools.score(CAFE_Q, GYM, "Iron Works offers free Wi-Fi, a sauna and clean lockers.")
    (p, cut) = r.verdict_inputs.probability
    # the probability reads the added amenity too (signal amenity_absent) and fails it alone
    assert r.signals["amenity_absent"] == 1.0 and p >= cut and r.verdict == "FAIL"
    # the clause's own threshold (0.3), for a probability under it and the calibration's
    p = 0.2
    r = dataclasses.replace(r, verdict_inputs=dataclasses.replace(
        r.verdict_inputs, probability=(p, cut)))
    assert redecide(r).verdict != "FAIL"
    at = load_config().replace(hallucination={"amenity_fail_probability": p - 0.01})
    assert redecide(r, at).reasons[0].endswith(
        "with an amenity or provenance the record never mentions (safety first)")
    off = load_config().replace(hallucination={"amenity_fail_probability": 1.0})
    assert redecide(r, off).verdict != "FAIL"
    prose = evaltools.score("What does the gym offer?", "Iron Works has free Wi-Fi and a "
                            "parking lot.", "Iron Works offers free Wi-Fi and a sauna.")
    assert not prose.verdict_inputs.amenity_absent  # passages are not a record's list
    triples = evaltools.score("Describe it.", json.dumps({"name": "Death on a Factory Farm",
                                                          "broadcastedBy": "HBO"}),
                              "Death on a Factory Farm is a tv series shown by HBO.")
    assert not triples.verdict_inputs.amenity_absent  # no business: no reviews, no hours


@pytest.mark.parametrize(("review", "response", "generalised"), [
    # the reviews say it was packed once; "always" is the overview's
    ("Packed on Friday, clean lockers, friendly trainers.",
     "Iron Works is always packed and has free Wi-Fi.", "always"),
    ("My favorite gym, clean lockers.",
     "Iron Works is widely considered the best gym in Denver and has free Wi-Fi.",
     "widely considered"),
    ("My favorite gym, clean lockers.",
     "Iron Works offers the city's best spin classes and has free Wi-Fi.", "the city's best"),
    # a review that says so itself supports it
    ("The city's best spin classes, clean lockers.",
     "Iron Works offers the city's best spin classes and has free Wi-Fi.", None),
    # a review that says it supports it; "not always" generalises nothing
    ("Always packed, clean lockers, friendly trainers.",
     "Iron Works is always packed and has free Wi-Fi.", None),
    ("Packed on Friday, clean lockers.", "Iron Works is not always packed.", None),
])
def test_a_generalisation_past_the_reviews_fails_from_its_own_probability(
        review, response, generalised):
    from evaltools.config import load_config
    from evaltools.scoring.verdict import redecide

    ctx = json.dumps({"name": "Iron Works", "categories": "Gyms, Fitness",
                      "attributes": {"WiFi": "u'free'"}, "review_info": [{"review_text": review}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    said = [a for a in r.anchors if a.contradiction == "generalised"]
    assert [a.note.rsplit("generalises past the record ", 1)[1] for a in said] == (
        [f"({generalised!r})"] if generalised else [])
    assert r.verdict_inputs.generalised is bool(generalised)
    if not generalised:
        return
    # the clause alone, from its own threshold (0.3): no other clause, S_hall under 0.5
    cut = r.verdict_inputs.probability[1]
    below = dataclasses.replace(r, hallucination=0.2, verdict_inputs=dataclasses.replace(
        r.verdict_inputs, probability=(0.35, cut), name_absent=False, term_absent=False,
        value_unsupported=False, amenity_absent=False))
    assert redecide(below).reasons[0] == ("hallucination probability 0.35 >= 0.3 with a "
                                          "generalisation the context does not make (safety "
                                          "first)")
    off = load_config().replace(hallucination={"generalised_fail_probability": 1.0})
    assert redecide(below, off).verdict != "FAIL"


# ---------------------------------------------------------- the thirteenth probe batch

@pytest.mark.parametrize(("response", "supported"), [
    ("One customer wasn't seated until 40 minutes after a 2pm appointment.", True),
    ("One customer wasn't seated until 70 minutes after a 2pm appointment.", False),
])
def test_an_hour_without_am_or_pm_after_an_afternoon_time_is_the_afternoons(response,
                                                                            supported):
    ctx = _review("Polished", "I had a 2pm appointment and wasn't seated until 2:40.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("One customer waited 25 minutes past a 2 p.m. appointment.", True),
    ("One customer waited 35 minutes past a 2 p.m. appointment.", False),
])
def test_a_bare_hour_read_as_a_clock_time_starts_a_wait(response, supported):
    """Blind batch 60: *an appointment at 2 but didn't sit down until 2:25* for *waited 25
    minutes*; the bare *2* (a number that may be a time after *at*) starts the wait."""
    ctx = _review("Polished", "We had an appointment at 2 but didn't sit down until 2:25.")
    (n,) = [a for a in evaltools.score(CAFE_Q, ctx, response).anchors if a.kind == "number"]
    assert n.supported is supported


def test_a_bare_hour_between_two_clock_times_keeps_their_wait():
    from evaltools.scoring.anchors.implied import implied_mentions
    from evaltools.scoring.anchors.mentions import find_mentions
    from evaltools.text import load_pipeline

    doc = load_pipeline()("We had a 7:30 reservation, got there at 8 and sat at 8:15.")
    assert sorted(m.value[2] for m in implied_mentions(doc, find_mentions(doc.text))
                  if m.value[:2] == ("quantity", "min")) == [15, 30, 45]  # late by 30


@pytest.mark.parametrize(("response", "supported"), [
    ("One rider had a flat fixed for $22 total.", True),
    ("One rider had a flat fixed for $24 total.", False),
])
def test_two_amounts_joined_by_plus_support_their_sum(response, supported):
    """Blind batch 60: *$12 for the tube plus $10 labor* for *$22 total*."""
    ctx = _review("Spoke & Chain", "Got a flat fixed while I waited - $12 for the tube plus $10 "
                                   "labor, done in 15 minutes.")
    amounts = [a for a in evaltools.score(CAFE_Q, ctx, response).anchors if a.kind == "number"]
    assert [a.supported for a in amounts] == [supported]


@pytest.mark.parametrize(("year", "supported"), [("1956", True), ("1957", False)])
def test_a_count_of_years_later_names_the_year(year, supported):
    ctx = ("It banned the Socialist Reich Party in 1952 and the Communist Party (KPD) four "
           "years later.")
    r = evaltools.score("How does Germany guard against dictatorship?", ctx,
                        f"It banned the Socialist Reich Party in 1952 and the KPD in {year}.")
    assert [a.supported for a in r.anchors if a.kind == "date"] == [True, supported]


@pytest.mark.parametrize(("categories", "response", "supported"), [
    ("Nail Salons, Beauty & Spas", "The salon accepts credit cards.", True),  # "Nail Salons"
    ("Nail Salons, Beauty & Spas", "The bakery accepts credit cards.", False),
    # a plural alone in the list of categories (batch 29)
    ("Delis, Sandwiches, Jewish", "The deli accepts credit cards.", True),
    ("Delis, Sandwiches, Jewish", "The bakery accepts credit cards.", False),
])
def test_a_plural_inside_a_records_category_name_is_found_as_its_singular(categories, response,
                                                                         supported):
    ctx = json.dumps({"name": "Polished", "categories": categories,
                      "attributes": {"BusinessAcceptsCreditCards": "True"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert all(_claims(r).values()) is supported


def test_a_general_kind_of_place_names_the_records_own_business():
    """"the clinic" of a chiropractor's record is the record's business (claims.ENTITY_NOUNS),
    so what is said of it is checked against the record: before, "'clinic' is not in the
    context" left the claim unsupported either way, and a contradiction unread."""
    rec = json.dumps({"name": "Align Spine Center", "categories": "Chiropractors, Health",
                      "attributes": {"AcceptsInsurance": "True",
                                     "WheelchairAccessible": "True"}})
    ok = evaltools.score(CAFE_Q, rec, "The clinic accepts insurance.")
    assert _claims(ok) == {"The clinic accepts insurance": True}
    bad = evaltools.score(CAFE_Q, rec, "The clinic is not wheelchair accessible.")
    assert [(a.supported, a.contradiction) for a in bad.anchors if a.kind == "claim"] == [
        (False, "record_yes")]
    assert bad.verdict == "FAIL"


# ------------------------------------------------- the fourteenth and fifteenth probe batches

@pytest.mark.parametrize(("response", "supported"), [
    ("Aguero received a four-match ban.", True),
    ("Aguero received a five-match ban.", False),  # a count before a hyphen is still a count
])
def test_a_count_written_before_a_hyphen_is_a_number(response, supported):
    ctx = "Aguero, 28, received a four-match ban for a high and late challenge."
    r = evaltools.score("Summarise the news.", ctx, response)
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "number"][-1] == (
        response.split()[-2].split("-")[0], supported)


@pytest.mark.parametrize(("response", "supported"), [
    ("Wrexham finished eighth in the table.", True),  # the context's 8th
    ("Wrexham finished fourth in the table.", False),
])
def test_an_ordinal_in_words_is_a_number(response, supported):
    r = evaltools.score("Summarise the news.", "Wrexham finished 8th in the table last season.",
                        response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


def test_a_fraction_and_a_set_phrase_are_no_ordinals():
    r = evaltools.score("Summarise the news.", "The bill passed.",
                        "A third of voters backed the bill, a third party said.")
    assert [a for a in r.anchors if a.kind == "number"] == []


@pytest.mark.parametrize(("road", "absent"), [("A3", False), ("A31", True)])
def test_a_code_of_capitals_and_digits_is_a_name(road, absent):
    ctx = ("A man died in a crash near the Hindhead tunnel. The A3 was closed northbound "
           "until early evening.")
    r = evaltools.score("Summarise the news.", ctx,
                        f"A man died in a crash near the Hindhead tunnel. The {road} was closed.")
    assert r.verdict_inputs.name_absent is absent


@pytest.mark.parametrize(("response", "denied"), [
    ("It is open Wednesday to Sunday; one couple wished the bar were open Mondays.", False),
    ("It is open Wednesday to Sunday, but it is also open Mondays.", True),
])
def test_days_someone_wished_for_are_no_statement_of_hours(response, denied):
    ctx = json.dumps({"name": "Vine", "hours": {d: "16:0-22:0" for d in (
        "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")}})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert any(a.contradiction == "record_hours" for a in r.anchors) is denied


@pytest.mark.parametrize(("response", "supported"), [
    ("One Saturday party waited 70 minutes for a table.", True),
    ("One Saturday party waited 80 minutes for a table.", False),
])
def test_hours_and_minutes_written_as_one_duration_support_their_minutes(response, supported):
    ctx = _review("Seoul Ember", "Waited an hour and ten minutes on a Saturday even with our "
                                 "name on the list.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


@pytest.mark.parametrize(("response", "declines"), [
    ("The text holds only a timestamp and no actual article content, so there is nothing to "
     "summarize. If you share the full article, I'd be happy to summarize it.", True),
    ("The text holds only a timestamp. The storm killed three people.", False),
])
def test_nothing_to_summarize_declines(response, declines):
    r = evaltools.score("Summarise the news.", "23 March 2017 Last updated at 14:55 GMT",
                        response)
    assert any("declines" in x for x in r.reasons) is declines


DINER = json.dumps({"name": "Rosie's", "categories": "Diners, Breakfast",
                    "review_info": [{"review_text": "The pie is made in house and the pork is "
                                                    "smoked low and slow. Service is quick."}]})


@pytest.mark.parametrize(("response", "unstated"), [
    ("Rosie's serves house-made pie and quick service.", []),  # "made in house": one claim
    ("Rosie's is a family-owned diner with quick service.", ["family-owned"]),
    # a phrase no claim holds is still read, as a claim of its sentence
    ("Reviewers liked the pork, wood-fired over pecan, and the quick service.",
     ["wood-fired"]),
    # a credential, or goods from elsewhere, the record never gives (the forty-second round)
    ("Rosie's cooks are certified, and the diner serves house-made pie.", ["certified"]),
    ("Rosie's is licensed, bonded, and insured, with quick service.",
     ["licensed", "bonded", "insured"]),
    ("Rosie's serves imported cheese and quick service.", ["imported"]),
])
def test_a_provenance_the_record_never_states_is_added(response, unstated):
    r = evaltools.score(CAFE_Q, DINER, response)
    found = [a.note.rsplit("never mentions ", 1)[-1].strip("'") for a in r.anchors
             if a.contradiction == "record_absent"]
    assert found == unstated
    assert r.verdict_inputs.amenity_absent is bool(unstated)


def test_a_credential_the_record_states_is_none_added():
    ctx = json.dumps({"name": "Keystone Lock", "categories": "Locksmiths",
                      "review_info": [{"review_text": "Licensed and insured techs, and the "
                                                      "owner is a certified safe expert."}]})
    r = evaltools.score(CAFE_Q, ctx, "Keystone Lock's licensed, insured technicians include "
                                     "a certified safe expert.")
    assert not any(a.contradiction == "record_absent" for a in r.anchors)


def test_a_provenance_is_read_in_business_records_only():
    r = evaltools.score("Summarise the news.", "The diner opened in May.",
                        "The family-owned diner opened in May.")
    assert not r.verdict_inputs.amenity_absent


def test_a_records_no_inside_the_claim_window_denies_a_fused_claim():
    # the sixteenth probe batch's overview of an inn: its bullet's words are found across
    # neighbouring units of the record (claim_window); the record's "wheelchair accessible:
    # no." among them still denies it, and the faithful twin's "not wheelchair accessible"
    # stays supported
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "probe_responses.jsonl"
    rows = {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())
            if r["id"] in ("biz189", "biz189_h")}
    for rid, denied in (("biz189", False), ("biz189_h", True)):
        r = evaltools.score(rows[rid]["query"], rows[rid]["context"], rows[rid]["response"])
        (claim,) = [a for a in r.anchors if a.kind == "claim" and "wheelchair" in a.text]
        assert claim.supported is not denied
        assert (claim.contradiction == "record_no") is denied


# ------------------------------------------------------ the seventeenth probe batch

SALON = json.dumps({"name": "Studio Lumen", "city": "Tampa", "categories": "Hair Salons",
                    "hours": {"Tuesday": "10:0-19:0", "Wednesday": "10:0-19:0",
                              "Thursday": "10:0-19:0"},
                    "review_info": [{"review_text": "Renata did my color and it came out "
                                                    "perfect. Fair prices for the work."}]})


@pytest.mark.parametrize(("response", "terms"), [
    ("Renata is praised for her color work at fair prices.", []),
    # "consultations" (Zipf 3.3): no form of it in the record or the query
    ("Renata offers complimentary consultations for color work.", ["consultations"]),
    # "staff" (Zipf 5.1) is an everyday word: unsupported, but no term
    ("The staff offer complimentary color work.", []),
    # "practicality" (Zipf 3.0) is abstract in WordNet (noun.attribute): a judgement, no term;
    # "shampoo" (Zipf 3.3, noun.artifact) names a thing the record never mentions
    ("Renata is praised for the practicality of her color work.", []),
    ("Renata is praised for the shampoo of her color work.", ["shampoo"]),
    # a role a person has ("cashier", Zipf 3.4) is how overviews call who reviews speak
    # of; "standouts" sums up what they say; "$60-per-visit" is a value, checked as one
    ("A cashier praised the color work.", []),
    ("A hairstylist praised the color work.", []),
    ("Standouts include the color work.", []),
    ("A client found the $120-per-month color plan fair.", []),
    ("A hammock is praised beside the color work.", ["hammock"]),
    # what a stay was like, summed up: "inconvenience", "discomfort" (WordNet's noun.state)
    ("The wait for color work was an inconvenience.", []),
    # what someone does, by a verb and -ing ("rebooking", not in WordNet; "scheduling", an
    # act in WordNet): the record says it with its verb; a thing in -ing is still a term
    ("Clients praise the rebooking and scheduling of color work.", []),
    ("Clients praise the frosting beside the color work.", ["frosting"]),
])
def test_a_word_the_context_never_uses_is_a_term(response, terms):
    r = evaltools.score(CAFE_Q, SALON, response)
    assert [t for a in r.unsupported() for t in a.terms] == terms
    assert r.verdict_inputs.term_absent is bool(terms)
    assert all(a.to_dict()["terms"] == list(a.terms) for a in r.anchors)


def test_the_term_clause_fails_from_its_own_probability():
    from evaltools.config import load_config
    from evaltools.scoring.verdict import redecide

    opening = ("Studio Lumen is a hair salon in Tampa, open Tuesday through Thursday from 10 AM "
               "to 7 PM. One reviewer says Renata did her color and it came out perfect, with "
               "fair prices for the work. ")
    more = ("Reviewers describe Renata as a colorist whose work came out perfect and whose "
            "prices were fair for the work she did at Studio Lumen in Tampa. ")
    added = "Renata also offers complimentary consultations."
    r = evaltools.score(CAFE_Q, SALON, opening + more + added)
    assert r.verdict_inputs.response_words >= 60 and r.verdict_inputs.term_absent
    # the clause decides it: FAIL exactly when P reaches term_fail_probability (0.5)
    assert (r.verdict == "FAIL") == (r.verdict_inputs.probability[0] >= 0.5)
    # under 60 words the probability alone decides: one word weighs more in it there
    short = evaltools.score(CAFE_Q, SALON, opening + added)
    assert short.verdict_inputs.term_absent and short.verdict_inputs.response_words < 60
    assert short.verdict != "FAIL"
    (p, cut) = r.verdict_inputs.probability
    assert p < cut  # the calibration's threshold alone would pass it
    at = load_config().replace(hallucination={"term_fail_probability": round(p, 2) - 0.01})
    assert redecide(r, at).reasons[0].endswith("with a word the context never uses "
                                               "(safety first)")
    off = load_config().replace(hallucination={"term_fail_probability": 1.0})
    assert redecide(r, off).verdict != "FAIL"
    # term_zipf_below 0 reads no term at all
    none = evaltools.score(CAFE_Q, SALON, opening + more + added, config=load_config().replace(
                               hallucination={"term_zipf_below": 0.0}))
    assert not none.verdict_inputs.term_absent
    # a term the query names is restated, not added
    asked = evaltools.score("Does Renata offer consultations?", SALON,
                            "Renata offers consultations.")
    assert not asked.verdict_inputs.term_absent


def test_a_noun_naming_the_sources_is_no_term():
    # the eighteenth probe batch's answer: a heading "A few other points from the passages:"
    # read into its bullet's claim; "passages" (Zipf below 4) names the sources, adds nothing
    ctx = "The belly and the chest are the most common spots for the reflex."
    for response, terms in (("A few other points from the passages:\n- The belly is the most "
                             "common spot for the reflex, near the spleen.", ["spleen"]),
                            ("A few other points from the passages:\n- The belly is the most "
                             "common spot for the reflex.", [])):
        r = evaltools.score("Why do dogs kick when scratched?", ctx, response)
        assert [t for a in r.unsupported() for t in a.terms] == terms


@pytest.mark.parametrize(("context", "supported"), [
    ("The coffee ceremony takes about 30 minutes.", True),   # a half hour = 30 minutes
    ("The coffee ceremony takes about 20 minutes.", False),  # the eighteenth batch's edit
])
def test_a_half_hour_without_an_is_thirty_minutes(context, supported):
    for response in ("The coffee ceremony takes about a half hour.",
                     "Guests enjoy a roughly half-hour coffee ceremony."):
        r = evaltools.score("Describe the cafe.", context, response)
        (half,) = [a for a in r.anchors if a.kind == "number"]
        assert half.text in ("half hour", "half-hour") and half.supported is supported


@pytest.mark.parametrize(("context", "supported"), [
    ("Farron was asked two times whether it is a sin and refused to answer.", True),
    ("Farron was asked twice whether it is a sin and refused to answer.", True),
    # the eighteenth batch's edit: "twice" for three times
    ("Farron was asked three times whether it is a sin and refused to answer.", False),
])
def test_twice_is_the_count_two(context, supported):
    r = evaltools.score("Summarise the news.", context, "Farron twice refused to answer.")
    (twice,) = [a for a in r.anchors if a.kind == "number"]
    assert twice.text == "twice" and twice.supported is supported


# ------------------------------------------------------ the twentieth probe batch's round

def test_a_bold_numbered_items_number_is_markup_as_a_plain_one():
    q = "Why do onions make you cry?"
    listed = ("It happens in a chain:\n\n**1. Cells break:** cutting an onion breaks its "
              "cells.\n\n**2. A gas forms:** the enzymes make a gas in about {} seconds.")
    ok = evaltools.score(q, ONIONS, listed.format(30))
    assert [(a.text, a.counted, a.supported) for a in ok.anchors if a.kind == "number"] == [
        ("30 seconds", True, True)]
    bad = evaltools.score(q, ONIONS, listed.format(90))
    assert [(a.text, a.counted, a.supported) for a in bad.anchors if a.kind == "number"] == [
        ("90 seconds", True, False)]


def test_grounding_leaves_out_the_responses_own_counts_as_the_anchors_do():
    q = "Why do onions make you cry?"
    own = evaltools.score(q, ONIONS, "Cutting does two things:\n- it breaks the cells\n"
                                     "- it makes a gas that reaches the eyes")
    assert [(a.text, a.counted) for a in own.anchors if a.kind == "number"] == [("two", False)]
    assert not any("two" in s.text.split() for s in own.unsupported_spans)
    claimed = evaltools.score(q, ONIONS, "Cutting breaks two cells, and it makes a gas that "
                                         "reaches the eyes.")
    assert [(a.text, a.counted, a.supported) for a in claimed.anchors if a.kind == "number"] \
        == [("two", True, False)]
    assert any("two" in s.text for s in claimed.unsupported_spans)


SITES = ("Why Squinting Helps You See Better | WIRED (www.wired.com)\n"
         "Light from everything else in your field of view acts like noise. Squinting cuts "
         "some of that noise away.\n\n"
         "Nausea at Night (www.verywellhealth.com)\n"
         "Lying with your head raised keeps stomach acid down.")


def test_an_attribution_to_a_passages_site_is_about_the_sources():
    q = "Why does squinting help?"
    ok = evaltools.score(q, SITES, "According to WIRED, light from everything else in your "
                                   "field of view acts like noise. Verywell Health notes that "
                                   "lying with your head raised keeps stomach acid down.")
    assert [(a.text, a.supported) for a in ok.anchors if a.kind == "claim"] == [
        ("light from everything else in your field of view acts like noise", True)]
    assert not any("WIRED" in s.text or "Verywell" in s.text for s in ok.unsupported_spans)
    # a name that is no passage's site is checked as any name
    bad = evaltools.score(q, SITES, "According to Dr. Smith, light from everything else in "
                                    "your field of view acts like noise.")
    assert [a.supported for a in bad.anchors if a.kind == "claim"] == [False]


def test_a_passages_site_as_the_owner_of_what_it_describes_is_no_absent_name():
    ctx = ("Overview of the Junk Email Filter (support.microsoft.com)\n"
           "The Junk Email Filter evaluates each incoming message on several factors.")
    q = "How do spam filters work?"
    ok = evaltools.score(q, ctx, "Microsoft's Junk Email Filter evaluates each incoming "
                                 "message on several factors.")
    assert [(a.kind, a.supported) for a in ok.anchors] == [("claim", True)]
    bad = evaltools.score(q, ctx, "Google's Junk Email Filter evaluates each incoming "
                                  "message on several factors.")
    assert [(a.kind, a.supported) for a in bad.anchors] == [("claim", False)]
    assert "Google" in bad.anchors[0].absent


def test_the_sources_focusing_or_discussing_is_about_the_sources():
    ctx = "Prices rose because buyers wanted more cars. Factories also made fewer cars."
    q = "Why did prices rise?"
    ok = evaltools.score(q, ctx, "The passages focus instead on demand: buyers wanted more "
                                 "cars. Key points from the passages: factories made fewer "
                                 "cars.")
    assert all(a.supported for a in ok.anchors if a.counted)
    assert not any("passages" in s.text or "focus" in s.text for s in ok.unsupported_spans)
    bad = evaltools.score(q, ctx, "Economists focus instead on demand: buyers wanted more "
                                  "cars.")
    assert any("Economists" in a.text and not a.supported for a in bad.anchors)


def test_a_claim_after_an_attribution_is_checked_from_its_first_word_outside_it():
    ctx = "Prices rose because buyers wanted more cars. Factories also made fewer cars."
    q = "Why did prices rise?"
    ok = evaltools.score(q, ctx, "Based on the passages, factories made fewer cars.")
    assert [(a.text, a.supported, a.counted) for a in ok.anchors] == [
        ("factories made fewer cars", True, True)]
    bad = evaltools.score(q, ctx, "According to the passages, factories made more trucks.")
    assert [(a.text, a.supported, a.counted) for a in bad.anchors] == [
        ("factories made more trucks", False, True)]
    # wholly about the sources: nothing to check
    silent = evaltools.score(q, ctx, "The passages do not say whether factories made trucks.")
    assert silent.anchors == ()


def test_a_line_introducing_the_responses_own_points_is_shown_not_counted():
    q = "Why do onions make you cry?"
    ok = evaltools.score(q, ONIONS, "Cutting an onion does two things:\n"
                                    "- it breaks the cells\n- it makes a gas")
    intro = [a for a in ok.anchors if a.kind == "claim" and "two things" in a.text]
    assert [(a.counted, a.supported) for a in intro] == [(False, False)]
    assert "introduces the response's own points" in intro[0].note
    # a count that is no list's is a claim like any other
    bad = evaltools.score(q, ONIONS, "Cutting an onion breaks two cells. It makes a gas.")
    assert any(a.counted and not a.supported and "two cells" in a.text for a in bad.anchors)


def test_a_label_numbering_the_responses_points_is_not_checked():
    """*Theory 1:* heading an answer's point read as an unsupported number 1 (a faithful
    answer failed on the wrong-value clause); the label is the response's own."""
    q = "Why do onions make you cry?"
    ok = evaltools.score(q, ONIONS, "**Theory 1: the cells break.** Cutting breaks the "
                                    "cells.\n**Theory 2: a gas forms.** It makes a gas.")
    labels = [a for a in ok.anchors if a.kind == "number"]
    assert [(a.text, a.counted) for a in labels] == [("1", False), ("2", False)]
    assert "numbers the response's own points" in labels[0].note
    bad = evaltools.score(q, ONIONS, "**Room 1: the cells break.** Cutting breaks the cells.")
    assert [(a.text, a.counted, a.supported) for a in bad.anchors if a.kind == "number"] == [
        ("1", True, False)]


# ------------------------------------------------------- the twenty-ninth and thirtieth batches


@pytest.mark.parametrize(("response", "terms"), [
    ("Photographers had many techniques for altering images.", []),  # "alterations": alter
    ("Photographers had many techniques for stencils.", ["stencils"]),
])
def test_a_word_of_the_same_stem_is_no_term_the_context_never_uses(response, terms):
    ctx = ("Before computers, photographers used double exposures and alterations on the "
           "negative to change their images.")
    r = evaltools.score("How were photos manipulated before computers?", ctx, response)
    assert [t for a in r.anchors for t in a.terms] == terms


# ------------------------------------------------------------ thirty-first round's readings

WORKSHOP = json.dumps({
    "name": "Second Grain", "categories": "Furniture Stores, Antiques",
    "hours": {"Tuesday": "10:0-18:0", "Wednesday": "10:0-18:0", "Saturday": "9:0-15:0"},
    "attributes": {"BusinessAcceptsCreditCards": "True"},
    "review_info": [{"review_text": "Bought a dresser for $480. They don't deliver "
                                    "themselves; a guy with a truck charged $80. Every "
                                    "previous customer seemed happy."}]})
OVERVIEW_Q = ("Write an objective overview about the following local business based only on "
              "the provided structured data in the JSON format. You should include details "
              "and cover the information mentioned in the customers' review.")


@pytest.mark.parametrize(("response", "absent"), [
    # an amenity or a provenance the response denies is none it adds to the record
    ("Second Grain sells furniture, with no in-house delivery.", False),
    ("Second Grain sells furniture and has no sauna.", False),
    ("Second Grain sells furniture with in-house delivery.", True),
    ("Second Grain sells furniture and has a sauna.", True),
])
def test_a_denied_amenity_or_provenance_is_none_the_response_adds(response, absent):
    r = evaltools.score(CAFE_Q, WORKSHOP, response)
    assert any(a.contradiction == "record_absent" for a in r.anchors) is absent
    assert r.verdict_inputs.amenity_absent is absent


@pytest.mark.parametrize(("response", "denied"), [
    # the "no" is Monday's; "while" turns to Saturday, which the record opens
    ("It is open Tuesday, Wednesday and Saturday. Complaints include no Monday hours while "
     "Saturdays book up quickly.", False),
    ("It is open Tuesday and Wednesday, with no Saturday hours.", True),
])
def test_a_turn_ends_what_a_no_denies_of_the_days(response, denied):
    r = evaltools.score(CAFE_Q, WORKSHOP, response)
    assert any(a.contradiction == "record_hours" for a in r.anchors) is denied


def test_an_attributed_here_is_line_is_the_responses_preamble():
    text = ("Based on the provided data, here is an overview of Second Grain:\n\n"
            "Second Grain sells furniture.")
    r = evaltools.score(CAFE_Q, WORKSHOP, text)
    # the line says what follows: none of its words is checked, and no claim is cut empty
    assert all(a.start < a.end and a.text for a in r.anchors)
    assert not any(s.start < text.index("\n") for s in r.unsupported_spans)
    assert r.verdict == "PASS"


def test_the_instructions_customers_are_no_topic_of_a_record():
    # "customers' review" names what to cover, as "reviews" does: the record's own
    # "customer" does not make it a topical word that the overview must repeat
    r = evaltools.score(OVERVIEW_Q, WORKSHOP, "Second Grain sells furniture; a dresser "
                        "cost $480.")
    assert r.verdict_inputs.completeness_waived and r.missing_keywords == ()


FONDUE = json.dumps({"name": "Le Caquelon", "address": "2415 N Lincoln Ave", "city": "Chicago",
                     "categories": "Fondue, Restaurants",
                     "review_info": [{"review_text": "Our server Claudia and her colleague "
                                                     "Mateo were great."}]})


@pytest.mark.parametrize(("response", "absent"), [
    # a record's one-letter directional is the word (USPS: N = North)
    ("Le Caquelon is on North Lincoln Avenue in Chicago.", []),
    ("Le Caquelon is on South Lincoln Avenue in Chicago.", ["South"]),
    # a role in the plural opening a sentence before names the record holds
    ("Servers Claudia and Mateo poured the wine.", []),
    ("Servers Pierre and Mateo poured the wine.", ["Servers", "Pierre"]),
])
def test_a_directional_and_a_plural_role_are_no_absent_names(response, absent):
    r = evaltools.score(CAFE_Q, FONDUE, response)
    assert [n for a in r.anchors for n in a.absent] == absent


CRYO = json.dumps({"name": "Polar Recovery", "categories": "Cryotherapy",
                   "attributes": {"BusinessAcceptsCreditCards": "True",
                                  "BusinessAcceptsBitcoin": "False"},
                   "review_info": [{"review_text": "Sessions are 3 min at like -200F, "
                                                   "intense but bearable."}]})


@pytest.mark.parametrize(("response", "supported"), [
    # a scale's letter right after the digits is degrees: -200F = -200 °F
    ("Sessions last three minutes at about -200°F.", True),
    ("Sessions last three minutes at about -250°F.", False),
])
def test_degrees_written_without_their_sign_are_degrees(response, supported):
    r = evaltools.score(CAFE_Q, CRYO, response)
    assert [a.supported for a in r.anchors if a.kind == "number" and "F" in a.text] == [supported]


@pytest.mark.parametrize(("response", "denied"), [
    # "not" after a comma denies what follows it, though the parser hangs it on "cards"
    ("Polar Recovery takes credit cards, not Bitcoin.", False),
    ("Polar Recovery takes Bitcoin, not credit cards.", True),
])
def test_a_comma_not_denies_what_follows_it(response, denied):
    r = evaltools.score(CAFE_Q, CRYO, response)
    assert any(a.contradiction in ("record_no", "record_yes") for a in r.anchors) is denied


@pytest.mark.parametrize("sentence", [
    # what the sources leave out, after what they say ("though", an adverb, "quantify")
    "Here's what the passages say, though they don't directly compare TV episodes with films.",
    "Whether the EU would retaliate over climate policy is not something these passages "
    "discuss.",
])
def test_what_an_answer_says_of_its_sources_is_not_checked(sentence):
    ctx = "Binge-watching makes the brain produce dopamine."
    r = evaltools.score("Why does binge-watching feel good?", ctx,
                        "Binge-watching makes the brain produce dopamine. " + sentence)
    assert not [a for a in r.anchors if not a.supported and a.counted]


UPHOLSTERY = json.dumps({
    "name": "Stitchworks Auto Trim", "categories": "Auto Upholstery",
    "attributes": {"BusinessParking": "{'garage': False, 'street': False, 'validated': False, "
                                      "'lot': True, 'valet': False}"},
    "review_info": [{"review_text": "Brought in my '68 Mustang with the original seats. "
                                    "The place looks like a garage from outside."}]})


@pytest.mark.parametrize(("response", "denied"), [
    # what a claim likens the shop to is nothing it has: "garage: no" does not deny it
    ("The shop looks like a garage from outside.", False),
    ("The shop has a garage.", True),
])
def test_a_likeness_is_nothing_a_record_denies(response, denied):
    r = evaltools.score(CAFE_Q, UPHOLSTERY, response)
    assert any(a.contradiction == "record_no" for a in r.anchors) is denied


@pytest.mark.parametrize(("response", "supported"), [
    # "'68" after an apostrophe is the year 1968
    ("Ron redid the seats of a 1968 Mustang.", True),
    ("Ron redid the seats of a 1967 Mustang.", False),
])
def test_a_year_written_short_is_the_year(response, supported):
    r = evaltools.score(CAFE_Q, UPHOLSTERY, response)
    assert [a.supported for a in r.anchors if a.kind == "date"] == [supported]


# ------------------------------------------------- the thirty-second round (batches 89-91)

JUICE = json.dumps({
    "name": "Pressed Roots", "categories": "Juice Bars",
    "attributes": {"RestaurantsTakeOut": "True", "RestaurantsReservations": "False",
                   "BusinessAcceptsCreditCards": "True"},
    "review_info": [{"review_text": "Knows everything about 60s and 70s Fenders, weirdly. "
                                    "Lady at the register was kind of short with me. Only "
                                    "one stall in the bathroom. Ages range from 20s to 80s."}]})


@pytest.mark.parametrize(("response", "contradiction"), [
    # "taken" says only that reservations are there to be had: the record's
    # "reservations: no" agrees, and its "take out: yes" is not what is negated
    ("Reservations are not taken.", None),
    ("Reservations are taken.", "record_no"),
    ("Credit cards are not taken.", "record_yes"),
])
def test_a_passive_take_is_read_as_its_subject(response, contradiction):
    r = evaltools.score(CAFE_Q, JUICE, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.contradiction == contradiction
    assert claim.supported is (contradiction is None)


@pytest.mark.parametrize(("response", "supported"), [
    # "60s and 70s Fenders": decades written bare (not "in her 60s", an age)
    ("The owner knows 1960s Fenders well.", True),
    ("The owner knows 1950s Fenders well.", False),
])
def test_a_bare_decade_supports_the_decade(response, supported):
    r = evaltools.score(CAFE_Q, JUICE, response)
    assert [a.supported for a in r.anchors if a.kind == "date"] == [supported]


@pytest.mark.parametrize(("response", "terms"), [
    # "curt": WordNet knows it only as an adjective, whatever the tagger says
    ("One reviewer described a curt cashier.", []),
    # decades in words are ages or values; a compound of common or held parts adds nothing
    ("Students range from their twenties to their eighties.", []),
    ("There is a single-stall restroom.", []),
    # still terms: a noun the record never uses, and a compound with such a part
    ("The bar sells snow-cones.", ["snow-cones"]),
    ("One reviewer described a curt sommelier.", ["sommelier"]),
])
def test_adjectives_ages_and_held_compounds_are_no_terms(response, terms):
    r = evaltools.score(CAFE_Q, JUICE, response)
    assert [t for a in r.anchors for t in a.terms] == terms


@pytest.mark.parametrize(("response", "terms"), [
    # a beginner is someone a business serves, as a cashier is someone who works there
    ("Kyle steered a beginner toward a starter kit.", []),
    ("Kyle steered a beginner toward a trellis.", ["trellis"]),
])
def test_a_customer_noun_is_no_term(response, terms):
    ctx = json.dumps({"name": "Grow Up", "categories": "Hydroponics",
                      "review_info": [{"review_text": "Kyle set me up with a starter kit."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [t for a in r.anchors for t in a.terms] == terms


@pytest.mark.parametrize(("response", "terms"), [
    # "MoD" spells the initials of a name the article uses, as "US" does
    ("The MoD declined to comment on the bids.", []),
    ("The MoJ declined to comment on the bids.", ["MoJ"]),
])
def test_a_mixed_case_acronym_is_found_as_its_name(response, terms):
    ctx = ("The Ministry of Defence would not comment on the bids. The frigates are moored "
           "in Portsmouth.")
    r = evaltools.score("Summarize the following news within 90 words:", ctx, response)
    assert [t for a in r.anchors for t in a.terms] == terms


def test_an_answer_that_cannot_fully_answer_is_an_abstention():
    ctx = "Wages for low-wage workers fell 5 percent from 1979 to 2013."
    r = evaltools.score("Do migrants lower wages in Mexico?", ctx,
                        "I can't fully answer that, because none of them discuss wages in "
                        "Mexico. Wages for low-wage workers fell 5 percent from 1979 to 2013.")
    assert not [a for a in r.anchors if not a.supported and a.counted]


GLASS = json.dumps({
    "name": "Clearview Glass", "categories": "Windshield Installation",
    "attributes": {"BikeParking": "False", "WiFi": "u'no'", "RestaurantsDelivery": "False",
                   "BusinessParking": "{'garage': False, 'street': False, 'validated': False, "
                                      "'lot': True, 'valet': False}"},
    "review_info": [{"review_text": "Pull up and park right in front. They dont deliver "
                                    "parts, which is a bummer."}]})


@pytest.mark.parametrize(("response", "contradiction"), [
    # "bike parking: no" beside "business parking lot: yes": the piece that names the
    # claim's kind (bike) decides, and a review's "park right in front" does not name it
    ("Bike parking is available.", "record_no"),
    ("The shop offers bike parking.", "record_no"),
    ("Street parking is available.", "record_no"),
    ("Lot parking is available.", None),
    ("There is no bike parking.", None),
    # "Wi-Fi" is the record's "wifi", not its part "fi"
    ("There is free Wi-Fi.", "record_no"),
    ("There is no Wi-Fi.", None),
])
def test_a_records_no_for_the_kind_a_claim_names_denies_it(response, contradiction):
    r = evaltools.score(CAFE_Q, GLASS, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.contradiction == contradiction
    assert claim.supported is (contradiction is None)


@pytest.mark.parametrize(("context", "contradiction"), [
    # "they dont deliver" (a reviewer's spelling) negates the verb "offers delivery" derives
    # from; "they deliver" affirms it
    ("They dont deliver parts, which is a bummer.", "negation"),
    ("They deliver parts, which is great.", None),
])
def test_a_negated_derivation_contradicts_the_claim(context, contradiction):
    r = evaltools.score("Does the shop deliver parts?", context, "The shop offers delivery "
                        "of parts.")
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.contradiction == contradiction


@pytest.mark.parametrize(("response", "absent"), [
    # a name that begins a hyphenated word names something too
    ("Hana is a Juilliard-trained pianist.", ["Juilliard"]),
    ("Hana is a Boston-trained pianist.", []),  # the record's city
    ("Hana is a French-trained pianist.", []),  # France, in the address, in its other form
    ("Family-owned since 2001, the school is small.", []),  # capitalised for its place
])
def test_a_name_inside_a_hyphenated_word_is_looked_for(response, absent):
    ctx = json.dumps({"name": "Keys Studio", "city": "Boston", "address": "2 Rue de France",
                      "categories": "Music Schools",
                      "review_info": [{"review_text": "Hana is a patient pianist."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [n for a in r.anchors for n in a.absent] == absent


BAGELS = json.dumps({
    "name": "Knead Bagels", "categories": "Bagels",
    "attributes": {"OutdoorSeating": "False", "WiFi": "u'no'", "HasTV": "False",
                   "RestaurantsDelivery": "False",
                   "BusinessParking": "{'garage': False, 'street': True, 'validated': False, "
                                      "'lot': False, 'valet': False}"},
    "review_info": [{"review_text": "Great everything bagel."}]})


@pytest.mark.parametrize("response", [
    # "no" reaches a list item the parser reads as an apposition, and stops at "only"
    "There is no outdoor seating, Wi-Fi, or TV.",
    "It has no delivery and only street parking.",
])
def test_a_no_over_a_list_reads_as_the_record_does(response):
    r = evaltools.score(CAFE_Q, BAGELS, response)
    assert not [a for a in r.anchors if a.contradiction]


@pytest.mark.parametrize(("response", "absent"), [
    # a hyphenated run of days is held where the record holds each day
    ("Reviewers note the limited Wednesday-to-Saturday schedule.", []),
    ("Reviewers note the limited Monday-to-Saturday schedule.", ["Monday-to-Saturday"]),
])
def test_a_hyphenated_run_of_held_names_is_no_absent_name(response, absent):
    ctx = json.dumps({"name": "Toy Town", "categories": "Toys",
                      "hours": {"Wednesday": "10:0-18:0", "Saturday": "10:0-16:0"},
                      "review_info": [{"review_text": "Ruth is sweet."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [n for a in r.anchors for n in a.absent] == absent


@pytest.mark.parametrize(("response", "supported"), [
    # "both" in the context says nothing of what a response counts: "two elevators" is not
    # supported by "both drivers and customers" (a pair is everywhere in prose)
    ("The overpass has two elevators.", False),
    ("The overpass has an elevator.", None),
])
def test_both_in_the_context_supports_no_count(response, supported):
    ctx = "Delays hurt both drivers and customers. The overpass has an elevator."
    r = evaltools.score("What will the overpass have?", ctx, response)
    got = [a.supported for a in r.anchors if a.kind == "number"]
    assert got == ([] if supported is None else [supported])


@pytest.mark.parametrize("sentence", [
    # what the sources are, or how they stand to each other, is no claim about the world
    "The sources differ somewhat on the main mechanism.",
    "The passages present the multiverse as a theory rather than a confirmed fact.",
    "Both sources are written from a US perspective.",
    "The sources are a dealer and a chain, and neither gives figures for the loss.",
    "For those points you'd need sources beyond these passages.",
    # after a sentence that names them, "they" are the sources
    "The passages focus on waking. They don't explain the underlying biology.",
    "Because the source is a dictionary definition, it doesn't describe specific measures.",
])
def test_what_an_answer_says_the_sources_are_is_not_checked(sentence):
    ctx = "Sleepers wake to sudden noises because the brain stays alert."
    r = evaltools.score("Why do noises wake us?", ctx,
                        "Sleepers wake to sudden noises because the brain stays alert. "
                        + sentence)
    assert not [a for a in r.anchors if not a.supported and a.counted]


# ------------------------------------------------------------ thirty-third round's readings

@pytest.mark.parametrize(("sentence", "negated"), [
    # a bare verb after a negated participle is an order of its own; after a negated bare
    # verb it shares the "not"
    ("Lunch isn't provided so pack a big one, they're hungry.", ["provided"]),
    ("They do not serve alcohol or take reservations.", ["serve", "take"]),
])
def test_a_bare_verb_shares_only_a_bare_verbs_not(nlp, sentence, negated):
    doc = nlp(sentence)
    assert [t.text for t in doc if t.pos_ == "VERB" and clause_negated(t)] == negated


@pytest.mark.parametrize(("response", "contradiction"), [
    ("Lunch must be packed.", None),
    ("Lunch is provided.", "negation"),
])
def test_a_packed_lunch_is_not_denied_by_lunch_not_provided(response, contradiction):
    r = evaltools.score("Tell me about the camp.",
                        "Lunch isn't provided so pack a big one, they're hungry.", response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.contradiction == contradiction


@pytest.mark.parametrize(("response", "supported"), [
    ("A six-year-old loved the creek hikes.", True),   # "my 6yo": 6 years
    ("A seven-year-old loved the creek hikes.", False),
])
def test_an_age_written_yo_is_years(response, supported):
    r = evaltools.score("Tell me about the camp.", "My 6yo loved the creek hikes.", response)
    assert [a.supported for a in r.anchors if a.kind == "number"] == [supported]


@pytest.mark.parametrize(("text", "own"), [
    # a count whose items the next sentences open in turn, "First," to its last ordinal
    ("It drops for two reasons here. First, x. Second, y.", True),
    ("It drops from two adaptations.\n\nFirst, the heart grows.\n\nSecond, tone rises.",
     True),
    ("It drops from two adaptations. First, the heart grows. Second, x. Third, y.", False),
    ("It drops from two adaptations. The heart grows.", False),
    # "two different things": the response tells apart what it has just named
    ("An image's size in pixels (megapixels) and its file size (the bytes that store it) "
     "are two different things.", True),
    ("The shop sold two different bikes.", False),
])
def test_a_count_its_ordinals_open_is_the_responses_own(text, own):
    from evaltools.scoring.anchors.own_counts import own_counts
    got = own_counts(text, [m for m in find_mentions(text) if m.text == "two"])
    assert bool(got) is own


@pytest.mark.parametrize(("response", "absent"), [
    # a run of names that opens a passage's web address is the passage's source
    ("USA Hockey gives a major penalty to any player who leaves the bench.", []),
    ("NHL Hockey gives a major penalty to any player who leaves the bench.",
     ["NHL", "Hockey"]),
])
def test_a_name_that_opens_a_passages_site_is_no_absent_name(response, absent):
    ctx = ("Rule 629 | Leaving the Bench (www.usahockeyrulebook.com)\nA major penalty shall "
           "be assessed to any player who leaves the bench.")
    r = evaltools.score("What happens to players who leave the bench?", ctx, response)
    assert [n for a in r.anchors for n in a.absent] == absent


CINEMA = json.dumps({
    "name": "Rialto", "categories": "Cinema",
    "attributes": {"BusinessAcceptsCreditCards": "False"},
    "review_info": [{"review_text": "Low prices, $6 tickets. Marisol at the desk sold us "
                                    "the last seats."}]})


@pytest.mark.parametrize(("response", "unsupported"), [
    # who goes to a cinema is a reviewer; crediting and valuing are what reviewers do
    ("Moviegoers value the low prices.", []),
    ("Marisol is credited.", []),
    # the record's "credit cards: no" denies cards, not credit
    ("The cinema accepts credit cards.", ["record_no"]),
    ("Moviegoers value the free popcorn.", [None]),
])
def test_reviewer_words_and_credit_cards(response, unsupported):
    r = evaltools.score(CAFE_Q, CINEMA, response)
    assert [a.contradiction for a in r.anchors if not a.supported and a.counted] == unsupported


@pytest.mark.parametrize(("context", "contradiction"), [
    # a trip "taken instead of a skiing holiday" where the context too sets the holiday aside
    ("He was due to go on a skiing holiday but decided instead to travel to Prague.", None),
    ("He went on a skiing holiday and travelled to Prague.", "negation"),
])
def test_what_both_set_aside_is_no_contradiction(context, contradiction):
    r = evaltools.score("Summarize the following news within 90 words:", context,
                        "A trip to Prague, taken instead of a skiing holiday, moved him.")
    assert [a.contradiction for a in r.anchors if a.kind == "claim"
            and a.text.startswith("taken")] == [contradiction]


@pytest.mark.parametrize(("response", "counted"), [
    # a claim that heads a list after a colon names the kind of what the list tells
    ("Complaints focus on logistics: a chaotic check-in, worn boots, and a full lot.", False),
    ("Complaints focus on logistics.", True),
    ("Complaints focus on logistics: a chaotic check-in and worn boots.", True),
])
def test_a_claim_heading_a_list_is_not_counted(response, counted):
    ctx = json.dumps({"name": "Ski School", "categories": "Ski Schools",
                      "review_info": [{"review_text": "Check-in was chaotic. Boots were "
                                                      "worn."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim" and "logistics" in a.text]
    assert not claim.supported and claim.counted is counted


def test_a_claim_with_a_name_before_a_colon_is_counted():
    ctx = "About 40 seahorses were recorded at the site in 2008."
    r = evaltools.score("Summarize the following news within 90 words:", ctx,
                        "Seahorses vanished from a site in Studland Bay: about 40 were "
                        "recorded there in 2008, none since, and divers, sadly, saw none.")
    (claim,) = [a for a in r.anchors if a.kind == "claim" and "Studland" in a.text]
    assert not claim.supported and claim.counted


@pytest.mark.parametrize(("context", "supported"), [
    # four-digit 24-hour times in a range, as news writes them
    ("The Daily Politics is on BBC2 from 1100-1215 on weekdays.", [True, True]),
    ("The abbey was built 1199-1216 on the hill.", [False, False]),
    ("It has an 1100 start and a 1215 finish.", [True, True]),
    ("It had 1100 guests and 1215 seats.", [False, False]),
])
def test_four_digit_clock_times(context, supported):
    r = evaltools.score("Summarize the following news within 90 words:", context,
                        "It airs from 11:00 to 12:15.")
    assert [a.supported for a in r.anchors if a.kind == "date"] == supported


@pytest.mark.parametrize(("hours", "supported"), [
    # "open after midnight": a day of the record runs past it
    ({"Thursday": "10:30-22:0", "Friday": "10:30-2:0", "Sunday": "11:0-21:0"}, [True]),
    ({"Thursday": "10:30-22:0", "Friday": "10:30-22:0", "Sunday": "11:0-21:0"}, [False]),
])
def test_open_after_a_time_the_hours_run_past(hours, supported):
    ctx = json.dumps({"name": "Gyro Hut", "categories": "Gyros", "hours": hours,
                      "review_info": [{"review_text": "Great gyros."}]})
    r = evaltools.score(CAFE_Q, ctx, "Late diners like that it is open after midnight.")
    assert [a.supported for a in r.anchors if a.kind == "date"] == supported


@pytest.mark.parametrize(("response", "unchecked"), [
    # how the sources stand to each other is no claim about the world
    ("Here's what the passages say, and they don't fully agree with each other.", True),
    ("The passages explain speed. They don't settle the question definitively.", True),
    ("The riders met, and they don't fully agree with each other.", False),
    # "there's no ... given": what the sources do not give
    ("There's no actual probability given for a fall.", True),
    ("There's no actual brake fitted to a racing bike.", False),
    # "none of them discusses", "can't explain", "isn't covered here": the sources' silence
    ("None of them discusses brakes, so they can't explain stopping.", True),
    ("Whether that logic holds for trikes isn't covered here.", True),
    ("None of them survived the crash.", False),
    ("Stopping is not covered by the warranty.", False),
])
def test_what_they_say_of_the_sources_agreeing_is_not_checked(response, unchecked):
    r = evaltools.score("Why do bikes stay up?", "Speed makes a bike easier to balance.",
                        response)
    assert (not [a for a in r.anchors if not a.supported and a.counted]) is unchecked


@pytest.mark.parametrize(("response", "counted"), [
    # a poster or answer of a site a passage comes from, saying something: an attribution
    ("Another Physics Forums answer says speed makes a bike easier to balance.", False),
    ("Another Bike Forums answer says speed makes a bike easier to balance.", True),
])
def test_a_sites_poster_is_an_attribution(response, counted):
    ctx = ("Bike balance (www.physicsforums.com)\nSpeed makes a bike easier to balance.")
    r = evaltools.score("Why do bikes stay up?", ctx, response)
    assert bool([a for a in r.anchors if not a.supported and a.counted]) is counted


@pytest.mark.parametrize(("response", "terms"), [
    # a compound whose initials the context writes in capitals; a compound's part that
    # opens a context word written together with an everyday one; food by its category
    ("Downsides include a loud air conditioner.", []),
    ("Downsides include a loud bar compressor.", ["compressor"]),
    ("Becky started a hail-damage claim.", []),
    ("Becky started a termite-damage claim.", ["termite-damage"]),
    ("It serves Sicilian cuisine.", []),
])
def test_initials_compounds_and_cuisine_are_no_terms(response, terms):
    ctx = json.dumps({"name": "Trattoria", "categories": "Sicilian, Restaurants",
                      "review_info": [{"review_text": "The AC was loud. After a hailstorm "
                                                      "Becky started our claim."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [t for a in r.anchors for t in a.terms] == terms


@pytest.mark.parametrize(("response", "supported"), [
    # a title before a name is not looked up: the name is
    ("Sir Nicholas Winton kept quiet about the rescue.", True),
    ("Mr Winton kept quiet about the rescue.", True),
    ("Sir Nicholas Smith kept quiet about the rescue.", False),
])
def test_a_title_before_a_name_is_not_looked_up(response, supported):
    r = evaltools.score("Summarize the following news within 90 words:",
                        "Nicholas Winton kept quiet about the rescue for decades.", response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


@pytest.mark.parametrize(("response", "supported"), [
    # "25ish" is about 25
    ("Groups run roughly 25 people.", [True]),
    ("Groups run exactly 25 people.", [False]),
])
def test_an_amount_written_ish_is_about_it(response, supported):
    assert _numbers_supported("How big are the groups?", "Group was big (25ish) but he projected "
                              "well.", response) == supported


CATERER = json.dumps({
    "name": "Casa Milpas", "categories": "Caterers",
    "review_info": [{"review_text": "Casa Milpas catered our rehearsal dinner for 60. Taco "
                                    "bar package was $24 a head. You have to use their bar "
                                    "service."}]})


@pytest.mark.parametrize(("response", "unsupported"), [
    # a count of people written as one word is found where its number is
    ("A $24-per-person taco bar package fed a 60-guest rehearsal dinner.", []),
    ("A $24-per-person taco bar package fed a 70-guest rehearsal dinner.", [None, None]),
    # "in-house" before a service the record names is its own; before others, a claim
    ("Events must use the in-house bar service.", [None]),
    ("Events must use the in-house bakery.", ["record_absent"]),
])
def test_counted_people_and_in_house_services(response, unsupported):
    r = evaltools.score(CAFE_Q, CATERER, response)
    assert [a.contradiction for a in r.anchors if not a.supported and a.counted] == unsupported


@pytest.mark.parametrize(("text", "own"), [
    # a count whose items are the lines numbered after it
    ("It works through two effects.\n\n**1. A stronger heart** x.\n\n**2. Tone** y.", True),
    ("It works through two effects.\n1. Heart\n2. Tone\n3. Blood", False),
])
def test_a_count_its_numbered_lines_list_is_the_responses_own(text, own):
    from evaltools.scoring.anchors.own_counts import own_counts
    got = own_counts(text, [m for m in find_mentions(text) if m.text == "two"])
    assert bool(got) is own


@pytest.mark.parametrize(("response", "absent"), [
    # a capitalised word opening a list item that the response also writes in lower case
    ("- Mapmakers walked the coast.\nThe passages name no mapmakers.", []),
    ("- Mercator walked the coast.\nThe passages name no mapmakers.", ["Mercator"]),
])
def test_a_word_the_response_writes_in_lower_case_is_no_name(response, absent):
    r = evaltools.score("How were maps made?", "People walked the coast to map it.",
                        response)
    assert [n for a in r.anchors for n in a.absent] == absent


@pytest.mark.parametrize(("response", "supported"), [
    # a qualifier word after another amount compares that amount, not the count after it
    ("The quote was $1,200 below two competitors.", [True, True]),
    ("The quote was $1,200 below three competitors.", [True, False]),
])
def test_a_qualifier_after_an_amount_compares_it(response, supported):
    assert _numbers_supported("How was the quote?", "Quote was $1,200 less than the other 2 "
                              "companies.", response) == supported


# ------------------------------------------------------------ thirty-fourth round's readings
SHOP = json.dumps({
    "name": "Bargain Barn Outlet", "address": "5530 Airline Dr", "city": "Metairie",
    "categories": "Discount Store, Fireworks",
    "review_info": [{"review_text": "Came by Dec 30 for New Years stuff. Brittany walked me "
                                    "through the mortar kits. They were out of sparklers "
                                    "which was weird for NYE. He also has a bargain box "
                                    "where everything is a quarter. Only downside the lot "
                                    "is kind of cramped and there's no shade."}]})


@pytest.mark.parametrize(("response", "absent"), [
    # a street's suffix the record writes short, a name's apostrophe it drops, and a name
    # it writes by initials across a possessive
    ("Bargain Barn Outlet is at 5530 Airline Drive.", []),
    ("Bargain Barn Outlet is at 5530 Airline Road.", ["Road"]),
    ("Before New Year's, Brittany walked a shopper through the mortar kits.", []),
    ("Sparklers sold out before New Year's Eve.", []),
    ("Sparklers sold out before Christmas Eve.", ["Christmas", "Eve"]),
])
def test_names_the_record_writes_otherwise(response, absent):
    r = evaltools.score(CAFE_Q, SHOP, response)
    assert [n for a in r.anchors for n in a.absent] == absent


@pytest.mark.parametrize(("response", "supported"), [
    # a coin as a price is its worth
    ("A bargain box holds 25-cent stamps.", [True]),
    ("A bargain box holds 10-cent stamps.", [False]),
])
def test_a_coin_as_a_price_is_its_worth(response, supported):
    assert _numbers_supported(CAFE_Q, SHOP, response) == supported


@pytest.mark.parametrize(("response", "contradicted"), [
    # "lacking" denies what it takes, as the record's "no shade" does
    ("The lot was described as cramped and lacking shade.", False),
    ("The lot offers shade.", True),
])
def test_lacking_agrees_with_no(response, contradicted):
    r = evaltools.score(CAFE_Q, SHOP, response)
    claims = [a for a in r.anchors if a.kind == "claim" and "shade" in a.text]
    assert bool(claims) and any(a.contradiction for a in claims) is contradicted


@pytest.mark.parametrize(("response", "absent"), [
    # a name written with initials, or with each word clipped, where the context has it so
    ("JK Rowling said she had blocked some users.", []),
    ("The Liberal Democrats tabled an amendment to the bill.", []),
    ("The Liberal Party tabled an amendment to the bill.", ["Liberal", "Party"]),
])
def test_names_written_by_initials_or_clipped(response, absent):
    r = evaltools.score("Summarise the article.", "Rowling said she had blocked some "
                        "users. The Lib Dems tabled an amendment to the bill.", response)
    assert [n for a in r.anchors for n in a.absent] == absent


def test_a_sites_name_is_no_absent_name_of_a_claim():
    ctx = ("Why Tech Speeds Up | Feature (singularityhub.com)\nThe pace of progress speeds "
           "up over time.")
    r = evaltools.score("Why does technology speed up?", ctx,
                        "At Singularity Hub, the pace of progress speeds up over time.")
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported and not a.absent for a in claims)


@pytest.mark.parametrize(("text", "own"), [
    # a count whose items are the bullets of the first list after it
    ("Two things hold a lens. A note first.\n\n### Why\n- **Tear film.** x\n- Lids.\n", True),
    ("Two things hold a lens. A note first.\n\n### Why\n- Tear film.\n- Lids.\n- Tears.\n",
     False),
])
def test_a_count_its_bullets_list_is_the_responses_own(text, own):
    from evaltools.scoring.anchors.own_counts import own_counts
    got = own_counts(text, [m for m in find_mentions(text) if m.text == "Two"])
    assert bool(got) is own


@pytest.mark.parametrize(("text", "negated"), [
    # a gerund after "or" is no verb the "not" of a finite verb reaches; a bare verb is
    ("Causes are a lens that doesn't fit or rubbing your eyes.", False),
    ("Causes are a lens that doesn't fit or rub your eyes.", True),
])
def test_not_does_not_reach_a_gerund(text, negated):
    doc = load_pipeline()(text)
    assert clause_negated(next(t for t in doc if t.text == "eyes")) is negated


def test_a_number_the_query_states_is_no_value_a_claim_needs():
    r = evaltools.score("If my company has $1M debt and goes bankrupt, who gets paid?",
                        "Secured creditors get paid first when a company goes bankrupt.",
                        "Whether the creditor owed $1M gets paid depends on the assets. "
                        "Secured creditors get paid first.")
    assert not any(a.counted and not a.supported and "$1M" in a.note for a in r.anchors)


@pytest.mark.parametrize(("response", "absent"), [
    # a given name before a surname the context writes only after a title or an office
    ('President Barack Obama offered his "deepest condolences".', []),
    ('President Barack Smith offered his "deepest condolences".', ["Barack", "Smith"]),
])
def test_a_given_name_before_a_surname_after_titles_only(response, absent):
    ctx = ('President Obama expressed his "deepest condolences". Offering his "deepest '
           'condolences", Mr Obama asked for a full accounting.')
    r = evaltools.score("Summarise the article.", ctx, response)
    assert [n for a in r.anchors for n in a.absent] == absent


@pytest.mark.parametrize(("response", "supported"), [
    # "over the age of" and "and over" qualify the amount as "over" and "or more" do
    ("It houses men over 35.", [True]),
    ("It houses men under 35.", [False]),
])
def test_over_the_age_of_is_more_than(response, supported):
    assert _numbers_supported("Who does it house?", "It houses single homeless men over the age "
                              "of 35.", response) == supported


@pytest.mark.parametrize(("response", "supported"), [
    # a bare hour after a clock time in one sentence is on the clock: 6:15 to 7 is 45 min
    ("Waits ran about 45 minutes.", [True]),
    ("Waits ran about 55 minutes.", [False]),
])
def test_a_bare_hour_after_a_clock_time_gives_the_minutes(response, supported):
    ctx = _review("Trattoria Sole", "No reservations so we put our name in at 6:15 and sat "
                                    "around 7. Valet was $8.")
    assert _numbers_supported(CAFE_Q, ctx, response) == supported


@pytest.mark.parametrize(("response", "supported"), [
    # a code written as a plural of its number (*quarterly 941s*) is that number
    ("They file the quarterly 941 forms.", [True]),
    ("They file the quarterly 940 forms.", [False]),
])
def test_a_numbered_form_in_the_plural_is_its_number(response, supported):
    ctx = _review("Keystone Payroll", "They also handle my quarterly 941s now.")
    assert _numbers_supported(CAFE_Q, ctx, response) == supported


def test_the_other_two_refers_back():
    text = ("There are three reasons:\n1. Filters.\n2. Typos.\n3. Trust.\n\nThe first "
            "explains the swaps; the other two relate to typos.")
    from evaltools.scoring.anchors.own_counts import own_counts
    assert len(own_counts(text, [m for m in find_mentions(text) if m.text == "two"])) == 1


@pytest.mark.parametrize(("wifi", "contradicted"), [
    # a list the parser reads as an apposition keeps its verb's "not"
    ("u'no'", False),
    ("u'free'", True),
])
def test_a_list_read_as_an_apposition_keeps_its_not(wifi, contradicted):
    rec = json.dumps({"name": "FuelBox", "categories": "Meal Prep",
                      "attributes": {"OutdoorSeating": "False", "WiFi": wifi,
                                     "RestaurantsReservations": "False"},
                      "review_info": [{"review_text": "Good meals."}]})
    r = evaltools.score(CAFE_Q, rec, "It doesn't offer outdoor seating, Wi-Fi, or "
                                     "reservations.")
    assert any(a.contradiction for a in r.anchors if a.kind == "claim") is contradicted


# ------------------------------------------------------------ thirty-fifth round's readings
@pytest.mark.parametrize(("text", "silent"), [
    # where to look instead is about the sources, not the world
    ("For those details you'd need additional sources.", True),
    ("For that, you'd need a source that covers the server's behaviour.", True),
    ("For a fuller explanation you'd want an optometrist or a more detailed source.", True),
    ("A technical source on the player would be needed to answer it properly.", True),
    ("You'd need a permit from the city.", False),
    ("The data would be needed by Friday.", False),
    # the writer's own step beyond them
    ("Linking them to your question is my inference.", True),
    ("That's an inference from the passages, not something they state.", True),
    ("The court drew an inference that the defendant lied.", False),
    ("The inference engine runs fast.", False),
    # how far it declines, and how the sources stand to each other
    ("I can't give a full answer to this specific question.", True),
    ("None of them deals with seeking within a buffered video.", True),
    ("None of them compares episodes with films.", True),
    ("There's only a partial answer here.", True),
    ("The sources pull in slightly different directions.", True),
    ("The teams pull in different directions.", False),
    ("There isn't a direct technical explanation of why pages stop loading.", True),
    ("There's nothing here on how the player manages its buffer.", True),
    ("So that part of your question isn't really answered here.", True),
    ("I can't give the dog chocolate.", False),
    ("There's nothing here but sand.", False),
])
def test_referrals_inferences_and_partial_answers_are_about_the_sources(text, silent):
    assert bool(abstention_sentences(text, [(0, len(text))])) is silent


def test_they_after_but_is_silent_after_a_sentence_naming_the_sources():
    t = "The passages explain the grip. But they don't directly discuss penalties."
    assert [t[a:b] for a, b in abstention_sentences(t, [(0, 30), (31, len(t))])] == [
        "But they don't directly discuss penalties."]
    t = "The pitcher explains the grip. But they don't directly discuss penalties."
    assert abstention_sentences(t, [(0, 30), (31, len(t))]) == ()


@pytest.mark.parametrize(("text", "lead"), [
    # "the same source" is a source; implying and giving an example are reporting
    ("The same source gives a worked example.", "The same source gives a worked example"),
    ("The passages imply the payoff is more movement.", "The passages imply"),
    ("The same wine gives a worked example.", None),
])
def test_the_same_source_and_implying_are_attributions(text, lead):
    from evaltools.scoring.sources import attribution_spans
    spans = [text[a:b] for a, b in attribution_spans(text)]
    assert spans == ([lead] if lead else [])


@pytest.mark.parametrize(("text", "sentences"), [
    # a clock time's "p.m." that ends a sentence ends it
    ("Saturday from 5:30 a.m. to 2 p.m. Care is by appointment only.", 2),
    ("It closes at 10 p.m. Reviewers love the pie.", 2),
    ("It opens at 9 a.m. Monday through Friday.", 1),
    ("It opens at 9 a.m. and closes at 5 p.m. daily.", 1),
    ("Doors open at 7 p.m. ET on the day.", 1),
])
def test_a_clock_times_full_stop_can_end_its_sentence(nlp, text, sentences):
    assert len(list(nlp(text).sents)) == sentences


@pytest.mark.parametrize(("response", "supported"), [
    # "over" after leaving, before a priced thing, is because of it
    ("One member left a big bank over $12 maintenance fees.", [True]),
    ("One member left a big bank over $15 maintenance fees.", [False]),
])
def test_leaving_over_a_fee_is_because_of_it(response, supported):
    ctx = _review("Summit Credit Union", "Switched from a big bank after getting hit with one "
                                         "too many $12 maintenance fees.")
    assert _numbers_supported(CAFE_Q, ctx, response) == supported


# ---------------------------------------- thirty-fifth round: readings from batches 113-115
@pytest.mark.parametrize(("text", "silent"), [
    ("The passages describe this process in fairly general terms.", True),
    ("Any comparison with a movie goes beyond what these sources cover.", True),
    ("There's no actual probability figure in them.", True),
    ("The treaty was written in general terms.", False),
    ("It goes beyond what the law requires.", False),
])
def test_general_terms_and_beyond_the_sources_are_about_the_sources(text, silent):
    assert bool(abstention_sentences(text, [(0, len(text))])) is silent


@pytest.mark.parametrize(("wheelchair", "contradicted"), [
    # a clause's own "not" after a comma is its own, not the "X, not Y" of a list
    ("False", False),
    ("True", True),
])
def test_a_clauses_not_after_a_comma_is_its_own(wheelchair, contradicted):
    rec = json.dumps({"name": "Canyon Jump", "categories": "Bungee Jumping",
                      "attributes": {"WheelchairAccessible": wheelchair, "DogsAllowed": "False"},
                      "review_info": [{"review_text": "Great jump."}]})
    r = evaltools.score(CAFE_Q, rec, "The shop is not wheelchair accessible, dogs are not "
                                     "allowed, and the jump is great.")
    claim = next(a for a in r.anchors if a.kind == "claim" and "wheelchair" in a.text)
    assert claim.supported is not contradicted
    assert (claim.contradiction == "record_yes") is contradicted


def test_good_alone_is_no_good_for_kids_key():
    # batch 113-115's overview of a yakitori bar: its record's "good for kids: no" denied
    # "Cocktails such as the yuzu highball also get good marks" for its "good"
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "probe_responses.jsonl"
    row = next(r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())
               if r["id"] == "biz1360")
    r = evaltools.score(row["query"], row["context"],
                        "Cocktails such as the yuzu highball also get good marks.")
    assert not any(a.contradiction for a in r.anchors)
    r = evaltools.score(row["query"], row["context"], "It is a good spot for kids.")
    assert any(a.contradiction == "record_no" for a in r.anchors)


@pytest.mark.parametrize(("word", "contradicted"), [
    # "X not Y" without a comma affirms X
    ("crispy", False),
    ("soggy", True),
])
def test_x_not_y_without_a_comma_affirms_x(word, contradicted):
    ctx = _review("Slice Shack", "Huge slices, thin crust. They reheat in the deck oven so it "
                                 "comes out crispy not soggy.")
    r = evaltools.score(CAFE_Q, ctx, "Reviewers describe huge slices with a thin crust, "
                                     f"reheated in a deck oven so they come out {word}.")
    claim = next(a for a in r.anchors if a.kind == "claim" and word in a.text)
    assert (claim.contradiction == "negation") is contradicted


@pytest.mark.parametrize(("text", "sentences"), [
    # a day's name after "p.m." that is the next sentence's subject starts it
    ("It stays open until 8 p.m. Saturday hours are 9 a.m. to 5 p.m.", 2),
    ("It stays open until 8 p.m. Saturday through Monday.", 1),
])
def test_a_day_after_pm_can_open_the_next_sentence(nlp, text, sentences):
    assert len(list(nlp(text).sents)) == sentences


# ---------------------------------------------------------- thirty-sixth round's readings
# (batches 116-118 and 119-121)

_SNOW = ("\"Fake Snow\" Debunked (wafflesatnoon.com)\nThe water wicks into the snow.\n"
         "Fake snow? (www.popularmechanics.com)\nThe snow sublimates.\n")


@pytest.mark.parametrize(("response", "unsupported"), [
    # a site named with a small word inside ("Waffles at Noon"), after an adverb ("instead
    # says") or as "the ... site" is the passage's site; an unknown one is checked as a name
    ("Waffles at Noon adds that the water wicks into the snow.", []),
    ("Popular Mechanics instead says the snow sublimates.", []),
    ("The Waffles at Noon site says the water wicks into the snow.", []),
    ("Snopes and the Waffles at Noon site say the water wicks into the snow.",
     ["Snopes and the Waffles at Noon site say", "Noon"]),
    ("Pancakes at Noon adds that the water wicks into the snow.",
     ["Pancakes at Noon adds", "Noon"]),
])
def test_a_sites_name_with_small_words_or_an_adverb_is_an_attribution(response, unsupported):
    r = evaltools.score("What is going on with fake snow?", _SNOW, response)
    assert [a.text for a in r.anchors if a.counted and not a.supported] == unsupported


@pytest.mark.parametrize(("hours", "denied"), [
    # "Saturday hours run from 9:30 a.m. to 7 p.m." states Saturday's hours
    ("9:30-19:0", False),
    ("9:30-17:0", True),
])
def test_a_days_hours_run_from_a_range(hours, denied):
    week = {d: "10:0-19:0" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")}
    rec = json.dumps({"name": "Kashan Rugs", "hours": {**week, "Saturday": hours},
                      "review_info": [{"review_text": "Lovely rugs."}]})
    r = evaltools.score(CAFE_Q, rec, "It is open Friday from 10 a.m. to 7 p.m., while Saturday "
                                     "hours run from 9:30 a.m. to 7 p.m.")
    assert any(a.contradiction == "record_hours" for a in r.anchors) is denied


@pytest.mark.parametrize(("response", "supported"), [
    # "over two $140 visits" is during them, not more than two
    ("Sam tuned the piano over two $140 visits.", [True, True]),
    ("Sam tuned the piano in over two visits.", [False]),
])
def test_over_a_count_of_priced_occasions_is_during_them(response, supported):
    ctx = _review("Harmonia Pianos", "Sam said it needed two tunings, $140 each, and came "
                                     "on time both visits.")
    assert _numbers_supported(CAFE_Q, ctx, response) == supported


@pytest.mark.parametrize(("response", "supported"), [
    # a list whose first clause the parser hangs under the second keeps its subject: the
    # second clause is checked, as it is when the parse is right
    ("The business works by appointment only, offers free estimates, and keeps weekday "
     "hours.", True),
    ("The business works by appointment only, offers free concrete, and keeps weekday "
     "hours.", False),
])
def test_a_list_of_clauses_hung_under_its_second_keeps_its_subject(response, supported):
    ctx = _review("Ironwood Fence", "By appointment only. They offer free estimates and keep "
                                    "weekday hours.")
    claims = evaltools.score(CAFE_Q, ctx, response).anchors
    offers = next(a for a in claims if a.kind == "claim" and a.text.startswith("offers"))
    assert offers.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # "..., with reviewers paying $65 to $72" is a fact of its own: the varieties need not
    # share a sentence with the prices
    ("Varieties include white pines, with reviewers paying $65 to $72.", True),
    ("Varieties include red cedars, with reviewers paying $65 to $72.", False),
])
def test_an_absolute_clause_is_no_part_of_the_claim_it_hangs_on(response, supported):
    ctx = _review("Hollow Pines", "Paid $65 for a 7 footer. Fraser firs were $72. They also "
                                  "have white pines and a few blue spruce.")
    claims = evaltools.score(CAFE_Q, ctx, response).anchors
    include = next(a for a in claims if a.kind == "claim" and "include" in a.text)
    assert include.supported is supported


@pytest.mark.parametrize(("review", "supported"), [
    # ... and the absolute clause's own participle is a claim: "with towels provided"
    ("Showers stocked with nice shampoo. Towels provided too.", True),
    ("Showers stocked with nice shampoo.", False),
])
def test_an_absolute_clause_is_a_claim_of_its_own(review, supported):
    r = evaltools.score(CAFE_Q, _review("Float Haus", review),
                        "Reviewers describe showers stocked with nice shampoo, with towels "
                        "provided.")
    towels = next(a for a in r.anchors if a.kind == "claim" and a.text.startswith("towels"))
    assert towels.supported is supported


@pytest.mark.parametrize(("takeout", "contradicted"), [
    # "rather than" sets aside its own conjunct, not a later clause after "and"
    ("True", False),
    ("False", True),
])
def test_rather_than_does_not_reach_past_the_next_and(takeout, contradicted):
    rec = json.dumps({"name": "El Cortadito", "attributes": {"RestaurantsTakeOut": takeout,
                                                             "RestaurantsTableService": "False"},
                      "review_info": [{"review_text": "Great cubano."}]})
    r = evaltools.score(CAFE_Q, rec, "Ordering is done at the counter rather than through "
                                     "table service, and the shop offers takeout.")
    claim = next(a for a in r.anchors if a.kind == "claim" and "takeout" in a.text)
    assert (claim.contradiction == "record_no") is contradicted
    assert claim.contradiction != "record_yes"


# ---------------------------------------- thirty-sixth round: readings from batches 122-124

@pytest.mark.parametrize(("response", "unsupported"), [
    # a site that "gives a similar explanation" or "offers a different account" is cited
    ("Snopes gives a similar explanation: the water wicks into the snow.", []),
    ("Popular Mechanics offers a somewhat different account: the snow sublimates.", []),
    # a site doing something else is checked: its name is about the sources, the rest is not
    ("Popular Mechanics offers a free subscription.", ["offers a free subscription"]),
])
def test_a_site_giving_an_explanation_is_an_attribution(response, unsupported):
    ctx = _SNOW + "Snow Myths | Snopes.com (www.snopes.com)\nSnow is porous.\n"
    r = evaltools.score("What is going on with fake snow?", ctx, response)
    assert [a.text for a in r.anchors if a.counted and not a.supported] == unsupported


@pytest.mark.parametrize(("text", "silent"), [
    # "the passages ...; they don't cover ...": a semicolon or a dash joins them as a comma does
    ("The passages focus on file copies; they don't cover internet downloads.", True),
    ("The passages focus on file copies \u2014 they don't cover downloads.", True),
    ("The studies focus on mice; they don't cover humans.", False),
])
def test_they_after_a_semicolon_in_a_sentence_naming_the_sources(text, silent):
    assert bool(abstention_sentences(text, [(0, len(text))])) is silent


@pytest.mark.parametrize(("review", "contradiction"), [
    # what an overview says the business offers, when its record never uses the word, is
    # added as an amenity is; a service the reviews name is not
    ("Great alterations and quick hemming.", None),
    ("Great alterations, done fast.", "record_absent"),
])
def test_an_offered_thing_the_record_never_names_is_added(review, contradiction):
    r = evaltools.score(CAFE_Q, _review("Stitch Tailors", review),
                        "The shop also offers free hemming.")
    claim = next(a for a in r.anchors if a.kind == "claim")
    assert claim.contradiction == contradiction
    assert claim.supported is (contradiction is None)


@pytest.mark.parametrize(("response", "supported"), [
    # a reviewer's "30+ people" states "more than 30" as much as "at least 30"; not "fewer"
    ("One session was packed with more than 30 people.", [True]),
    ("One session was packed with at least 30 people.", [True]),
    ("One session was packed with fewer than 30 people.", [False]),
    ("One session was packed with more than 40 people.", [False]),
])
def test_a_figure_with_a_plus_states_more_than_it(response, supported):
    ctx = _review("Paint & Sip", "The room was packed, 30+ people at long tables.")
    assert _numbers_supported(CAFE_Q, ctx, response) == supported



# ------------------------------------- thirty-seventh round: readings from batches 128-133

@pytest.mark.parametrize(("response", "unsupported"), [
    # "X include ..." with a common noun lists what X heads: only the items are looked up
    ("Amenities include showers, eucalyptus towels and free filtered water.", []),
    ("Other examples include showers and towels.", []),
    ("Amenities include showers and a sauna.", ["a sauna"]),
])
def test_a_common_noun_heading_a_list_is_not_looked_up(response, unsupported):
    ctx = _review("Ember Hot Yoga", "Locker rooms have showers and eucalyptus towels, plus "
                                    "free filtered water. Tom teaches the 9am class.")
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.text for a in r.anchors if a.kind == "claim" and not a.supported] == unsupported


@pytest.mark.parametrize(("response", "supported"), [
    # "the space", "staff": the record's own place and people, as "the shop" is
    ("The space is wheelchair accessible.", True),
    ("Staff brought a water bowl.", True),
    ("The space is not wheelchair accessible.", False),
    ("Staff brought a cake.", False),
])
def test_the_space_and_its_staff_name_the_records_own(response, supported):
    ctx = json.dumps({"name": "Old Pine Carving", "attributes": {"WheelchairAccessible": "True"},
                      "review_info": [{"review_text": "Ate on the patio with my dog, they "
                                                      "brought her a water bowl."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # a state is found at its code beside the city even where a review also names it
    ("It is in Denver, Colorado.", True),
    ("It is in Boulder, Colorado.", False),
])
def test_a_state_is_found_at_its_code_even_where_its_name_stands_too(response, supported):
    ctx = json.dumps({"name": "Brushline Sign Co.", "address": "912 S Broadway",
                      "city": "Denver", "state": "CO", "postal_code": "80209",
                      "categories": "Sign Painters, Graphic Design",
                      "hours": {"Monday": "8:0-16:30", "Friday": "8:0-16:30"},
                      "attributes": {"ByAppointmentOnly": "True", "WheelchairAccessible": "True",
                                     "BusinessAcceptsBitcoin": "False"},
                      "review_info": [{"review_text": "Hired them for our window. Luis did "
                                                      "the gold leaf lettering. Quote was "
                                                      "$1,400."},
                                      {"review_text": "Small job, a sandwich board for $275. "
                                                      "Maya was patient with me. Paint has held "
                                                      "up great through a Colorado summer."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    claim = next(a for a in r.anchors if a.kind == "claim" and a.text.endswith("Colorado"))
    assert claim.supported is supported


@pytest.mark.parametrize(("response", "unsupported"), [
    # a list the parser reads as an apposition to its first item: each item alone
    ("Reviewers mention a 400 fps limit, a thorough safety briefing, eye protection, and "
     "Friday night games.", []),
    ("Reviewers mention a 400 fps limit, a thorough safety briefing, free pizza, and "
     "Friday night games.", ["free pizza"]),
])
def test_a_list_read_as_an_apposition_checks_each_item(response, unsupported):
    ctx = _review("Fort Airsoft", "400 fps limit, strictly enforced. The safety briefing was "
                                  "thorough. Eye protection is mandatory. Went for the Friday "
                                  "night games.")
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.text for a in r.anchors if a.kind == "claim" and not a.supported] == unsupported


@pytest.mark.parametrize(("response", "denied"), [
    # "the lack of Sunday hours" says Sunday is closed, as "no Sunday hours" does
    ("Shoppers note one register open on Saturdays and the lack of Sunday hours.", False),
    ("Shoppers note one register open on Saturdays and short Sunday hours.", True),
])
def test_the_lack_of_a_days_hours_is_a_closed_day(response, denied):
    week = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
    ctx = json.dumps({"name": "Sugar Arts Supply", "hours": {d: "10:0-18:0" for d in week},
                      "review_info": [{"review_text": "Wish they were open Sundays."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert any(a.contradiction and "Sunday" in a.text for a in r.anchors) is denied


@pytest.mark.parametrize(("attrs", "contradicted"), [
    # "...; garage and street parking are available": the parking is the subject, not the
    # seating the parser ran back across the semicolon
    ({"OutdoorSeating": "False", "BusinessParking": "{'garage': True, 'street': True}"}, False),
    ({"OutdoorSeating": "False", "BusinessParking": "{'garage': False, 'street': False}"}, True),
])
def test_a_subject_does_not_run_back_across_a_semicolon(attrs, contradicted):
    ctx = json.dumps({"name": "Le Chalet", "attributes": attrs})
    r = evaltools.score(CAFE_Q, ctx, "It does not offer takeout, outdoor seating or Wi-Fi; "
                                     "garage and street parking are available.")
    claim = next(a for a in r.anchors if a.kind == "claim" and "available" in a.text)
    assert claim.text.startswith("garage and street parking")
    assert (claim.contradiction is not None) is contradicted


def test_a_listed_item_after_with_no_is_not_denied():
    # an item of such a list is not denied by the "no" of a preposition's object before it
    # (the list is the staircase's): "difficult street parking" agrees with street: True
    ctx = json.dumps({"name": "Loom Room", "attributes": {
        "BusinessParking": "{'garage': False, 'street': True}"}})
    r = evaltools.score(CAFE_Q, ctx, "Complaints include a steep staircase with no elevator, "
                                     "difficult street parking, a chilly room in "
                                     "winter, and the early Sunday close.")
    claim = next(a for a in r.anchors if a.kind == "claim" and "street parking" in a.text)
    assert claim.contradiction is None


@pytest.mark.parametrize(("response", "contradiction"), [
    # a record's "outdoor seating: yes" affirms outdoor seating, not the indoor kind
    ("Downsides include so-so coffee, no indoor seating, and tough parking.", None),
    ("Downsides include so-so coffee, no outdoor seating, and tough parking.", "record_yes"),
])
def test_an_opposite_kind_is_not_the_records_key(response, contradiction):
    ctx = json.dumps({"name": "Bagel Hub", "attributes": {"OutdoorSeating": "True"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    claim = next(a for a in r.anchors if a.kind == "claim" and "seating" in a.text)
    assert claim.contradiction == contradiction


def test_besides_and_a_second_subject_escape_a_no():
    # "No food besides chips and frozen pizza ..., and the bathroom situation is one stall":
    # what "besides" takes is had, and the clause after "and" has a subject of its own
    ctx = _review("Tilt Pinball", "No food besides chips and frozen pizza which is kinda "
                                  "lame, and the bathroom situation is one stall for the "
                                  "whole place.")
    r = evaltools.score(CAFE_Q, ctx, "Downsides include limited food (chips and frozen pizza) "
                                     "and a single bathroom stall.")
    verdicts = {a.text: (a.supported, a.contradiction) for a in r.anchors if a.kind == "claim"}
    assert verdicts["chips"] == (True, None)
    assert verdicts["a single bathroom stall"] == (True, None)
    r = evaltools.score(CAFE_Q, ctx, "It serves hot food.")
    assert [a.contradiction for a in r.anchors if a.kind == "claim"] == ["negation"]


@pytest.mark.parametrize(("review", "response", "supported"), [
    # a four-digit count with a plus is no year: "2000+ piece options" states more than 2,000
    ("Wish they had more 2000+ piece options.", "Some want more puzzles over 2,000 pieces.",
     [True]),
    ("Wish they had more 2000+ piece options.", "Some want more puzzles over 3,000 pieces.",
     [False]),
    # "$75pp" is $75 per person
    ("The dumpling class was $75pp for 2 hours.", "The class costs $75 per person.", [True]),
    ("The dumpling class was $75pp for 2 hours.", "The class costs $85 per person.", [False]),
])
def test_a_count_with_a_plus_and_a_price_per_person(review, response, supported):
    assert _numbers_supported(CAFE_Q, _review("Puzzle Cafe", review), response) == supported


@pytest.mark.parametrize(("attrs", "contradicted"), [
    # "no appointment is needed, and the shop is wheelchair accessible, offers bike parking":
    # the clause after the shop's takes its subject, not the appointment's "no"
    ({"ByAppointmentOnly": "False", "BikeParking": "True"}, False),
    ({"ByAppointmentOnly": "False", "BikeParking": "False"}, True),
])
def test_a_clause_takes_the_subject_of_the_clause_just_before_it(attrs, contradicted):
    ctx = json.dumps({"name": "Sal's Heel & Sole", "attributes": attrs})
    r = evaltools.score(CAFE_Q, ctx, "Prices are moderate, no appointment is needed, and the "
                                     "shop is wheelchair accessible, offers bike parking, and "
                                     "relies on street parking.")
    claim = next(a for a in r.anchors if a.kind == "claim" and "bike" in a.text)
    assert (claim.contradiction is not None) is contradicted


@pytest.mark.parametrize(("response", "supported"), [
    # the vibe, the atmosphere: what a record's Ambience states; the attraction: the place
    ("The vibe is casual and hipster.", [True, True]),
    ("The atmosphere is romantic.", [False]),
    ("The attraction is kid-friendly.", [True]),
])
def test_the_vibe_and_the_attraction_are_the_records_own(response, supported):
    ctx = json.dumps({"name": "Tilt Arcade", "attributes": {
        "Ambience": "{'romantic': False, 'casual': True, 'hipster': True}",
        "GoodForKids": "True"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == supported


@pytest.mark.parametrize(("response", "contradiction"), [
    # a word the record never uses does not hide the record's "no" for the claim's focus
    ("Leashed dogs are welcome.", "record_no"),
    ("Leashed cats are welcome.", None),
    # only the focus's own "no": the record's "walk-in: no" is not "by appointment only"'s
    ("Service is by appointment only, with no walk-in drop-offs.", None),
    # only a claim that the business has the thing: "stairs-only access" is what was noted
    ("Reviewers note stairs-only access.", None),
])
def test_a_record_no_is_named_though_a_modifier_is_missing(response, contradiction):
    ctx = json.dumps({"name": "Tiki Supply", "attributes": {"DogsAllowed": "False",
                                                            "ByAppointmentOnly": "True",
                                                            "WheelchairAccessible": "False"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert not claim.supported
    assert claim.contradiction == contradiction


# -------------------------------------- thirty-eighth round: readings from batches 137-142

@pytest.mark.parametrize(("response", "contradiction"), [
    # "cash only: no" (which the reader writes for a record that takes cards) denies that
    # only cash is taken, not cash
    ("Cash and cards are accepted.", None),
    ("It accepts only cash.", "record_no"),
    ("It accepts cash only.", "record_no"),  # "only" after the object: in the claim's text
])
def test_a_restricted_keys_no_denies_the_restriction(response, contradiction):
    ctx = json.dumps({"name": "Griddle Hollow", "attributes": {"BusinessAcceptsCreditCards":
                                                               "True"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (contradiction is None, contradiction)


def test_a_quote_mark_is_inches_only_after_digits():
    # the quote closing "two over one" is no unit; 12" is twelve inches
    quoted = find_numbers('the "one over two, two over one" rule')
    assert all(m[3][0] == "number" for m in quoted)
    assert [m[3] for m in find_numbers('a 12" pizza')] == [("quantity", "in", Decimal("12"))]


_WOOD_FIRED = json.dumps({"name": "Ember & Rye", "categories": "Wood Fired Bagels, Bagels"})
_HOHNERS = _review("Blue Reed", "Walls of Hohners, Seydels, Suzukis in every key. Great "
                                "harmonicas.")


@pytest.mark.parametrize(("ctx", "response", "supported"), [
    # a compound's part is found as written where its key is a lemma: "wood-fired" (wood,
    # fire) where the record's category writes "Wood Fired"
    (_WOOD_FIRED, "It sells wood-fired bagels.", True),
    (_WOOD_FIRED, "It sells wood-smoked bagels.", False),
    # a brand in the plural ("walls of Hohners") is the brand
    (_HOHNERS, "It stocks Hohner harmonicas.", True),
    (_HOHNERS, "It stocks Bushman harmonicas.", False),
])
def test_a_compound_as_written_and_a_name_in_the_plural(ctx, response, supported):
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


@pytest.mark.parametrize(("response", "supported"), [
    # "X earns praise": what reviews give weighs nothing; X is the claim
    ("Earl earns praise.", True),
    ("The in-house tune-up earns raves.", True),
    ("Marcus earns praise.", False),
])
def test_earning_praise_is_a_claim_about_its_subject(response, supported):
    ctx = _review("Blue Reed", "Earl let me try a couple through his little test amp. "
                               "Earl's in-house tune-up is worth it.")
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


@pytest.mark.parametrize(("street", "contradiction"), [
    # "stairs with no elevator, tough street parking, ...": the parser makes the parking an
    # apposition of the elevator; nothing renames what is not there, so the parking is an
    # item of the list, looked up alone and not denied by the elevator's "no"
    ("True", None),
    ("False", "record_no"),
])
def test_an_apposition_to_a_denied_thing_is_a_list_item(street, contradiction):
    ctx = json.dumps({"name": "Pressing Tours", "attributes": {
        "BusinessParking": f"{{'garage': False, 'street': {street}}}"}})
    r = evaltools.score(CAFE_Q, ctx, "Downsides include many stairs with no elevator, tough "
                                     "street parking, booking about two weeks ahead for "
                                     "Saturdays, and tours running only three days a week.")
    (claim,) = [a for a in r.anchors if a.kind == "claim" and "parking" in a.text]
    assert claim.text == "tough street parking"
    assert claim.contradiction == contradiction


@pytest.mark.parametrize(("review", "supported"), [
    # who someone is to the place is looked up, however common the word, and not as a
    # paraphrase (WordNet's founder is a "beginner"): "the studio's founder" where the
    # reviews only name Theo is invented, and a business record never naming a founder
    # says so ("record_absent", as for an amenity it never mentions)
    ("We watched Theo make a vase in the beginner class.", False),
    ("Theo, who founded the studio in 2009, made a vase.", True),
    ("The founder, Theo, made a vase.", True),
])
def test_a_persons_relation_to_the_place_is_looked_up(review, supported):
    r = evaltools.score(CAFE_Q, _review("Glass Studio", review),
                        "Theo, the studio's founder, made a vase.")
    claim = next(a for a in r.anchors if a.kind == "claim" and a.text.endswith("founder"))
    assert claim.supported is supported
    assert claim.contradiction == (None if supported else "record_absent")


def test_a_reviewer_who_owns_a_dog_is_no_relation():
    # "owner" as a subject is a reviewer (a dog's owner), not the business's owner
    r = evaltools.score(CAFE_Q, _review("Paws Inn", "They gave my dog a water bowl."),
                        "One dog owner noted a water bowl.")
    assert [(a.supported, a.contradiction) for a in r.anchors if a.kind == "claim"] == [
        (True, None)]


# ---- forty-third round's readings (batches 155-157)

@pytest.mark.parametrize(("response", "supported"), [
    # a plain -er comparative is found where its lemma stands ("service slowed down"), as a
    # summary writes a change in its own words; an irregular one or a superlative still
    # needs its own form, and a word the context never uses stays unsupported
    ("Complaints include slower service on busy nights.", True),
    ("Complaints include the slowest service on busy nights.", False),
    ("Complaints include worse service on busy nights.", False),
    ("Complaints include quieter service on busy nights.", False),
])
def test_a_plain_comparative_is_found_at_its_lemma(response, supported):
    ctx = _review("Cocina", "Service slowed down on busy nights once the room got packed.")
    r = evaltools.score(CAFE_Q, ctx, response)
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


@pytest.mark.parametrize(("ctx", "supported"), [
    # sentences fused into a claim's support (claim_window) must not say its contrary:
    # "the device is slower" is not read from "it slowed" beside "the device is fast"
    ("Loading slowed after the update. Some say the device is heavy.", True),
    ("Loading slowed after the update. Some say the device is fast.", False),
])
def test_a_window_holding_the_opposite_supports_nothing(ctx, supported):
    r = evaltools.score("What do users say?", ctx, "Users say the device is slower.")
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


@pytest.mark.parametrize(("response", "counted"), [
    # "the two" before a verb in the past is the two people the response has named, not a
    # count the context must hold; "the two red cars" still counts cars
    ("Pulido was left with one abductor; the two traded blows.", False),
    ("Pulido saw the two red cars.", True),
])
def test_the_two_before_a_past_verb_refers_back(response, counted):
    ctx = "Pulido was left alone with one of his abductors. They traded blows. He saw red cars."
    r = evaltools.score("Summarise the article.", ctx, response)
    (two,) = [a for a in r.anchors if a.kind == "number"]
    assert two.counted is counted


@pytest.mark.parametrize(("review", "supported"), [
    # a mixed number or a vulgar fraction in a review is the amount it writes: "2 1/2
    # hours" is the "two-and-a-half-hour job" an overview makes of it (not 2, 1 and 2 hours)
    ("Took about 2 1/2 hours.", True),
    ("Took about 2\u00bd hours.", True),
    ("Took about 2 hours.", False),
])
def test_a_fraction_in_digits_is_its_amount(review, supported):
    r = evaltools.score(CAFE_Q, _review("Harmony Piano", review),
                        "It was a roughly two-and-a-half-hour job.")
    (n,) = [a for a in r.anchors if a.kind == "number"]
    assert n.supported is supported


# ---- forty-fourth round's readings (batches 158-160)

@pytest.mark.parametrize(("response", "framed"), [
    # a RAG answer's frame is no claim: "the answer is that", "the premise needs a small
    # qualification", "your premise is only partly right"; the facts after it still are
    ("Based on the passages, the answer is that banks lend deposits at higher rates.", True),
    ("The premise needs a small qualification: banks lend deposits at higher rates.", True),
    ("Your premise is only partly right: banks lend deposits at higher rates.", True),
    ("The premise of the loan is wrong, and banks lend deposits at higher rates.", False),
])
def test_the_answers_frame_is_no_claim(response, framed):
    ctx = "Banks lend the money you deposit to borrowers at higher rates than they pay you."
    r = evaltools.score("How does a bank make money on deposits?", ctx, response)
    counted = [a.text for a in r.anchors if a.kind == "claim" and a.counted]
    assert any(t.startswith("banks lend") for t in counted)
    assert any(("answer" in t or "premise" in t) for t in counted) is not framed


@pytest.mark.parametrize(("response", "attributed"), [
    # a site named as its address writes it (The Hill for thehill.com) or by the address's
    # first word (Verywell for verywellhealth.com), and a past-tense report verb; a name the
    # context gives no site stays a claim
    ("The Hill reported that the EU would file a case.", True),
    ("Verywell explains that the EU would file a case.", True),
    ("The Herald reported that the EU would file a case.", False),
])
def test_a_site_named_as_its_address_writes_it(response, attributed):
    ctx = ("EU says it will retaliate | TheHill (thehill.com)\nThe EU said it will file a case "
           "at the WTO.\nTrade rules explained (www.verywellhealth.com)\nTariffs are taxes.")
    r = evaltools.score("How would the EU retaliate?", ctx, response)
    names = [a.text for a in r.anchors if a.kind == "claim" and a.counted
             and a.text.split()[0] in ("The", "Verywell")]
    assert (names == []) is attributed


@pytest.mark.parametrize(("response", "counted"), [
    # "another source cites" says where a figure comes from, as "another source says" does
    ("Another source cites an average savings yield of 0.06%.", False),
    ("Another bank cites an average savings yield of 0.06%.", True),
])
def test_another_source_cites_is_an_attribution(response, counted):
    ctx = "For example, the average annual percentage yield on a savings account is 0.06%."
    r = evaltools.score("How do banks make money?", ctx, response)
    opening = [a for a in r.anchors if a.kind == "claim" and a.text.startswith("Another")]
    assert bool(opening and opening[0].counted) is counted


@pytest.mark.parametrize(("ctx", "contradiction"), [
    # "ends up tasting rancid" says where the oil comes to, no opposite of "start to taste";
    # "the oil ends" still is
    ("The oil ends up tasting rancid, too.", None),
    ("The oil taste ends after a day.", "opposite"),
])
def test_end_up_is_no_opposite_of_start(ctx, contradiction):
    r = evaltools.score("Why do fries taste bad reheated?", ctx, "The oil taste starts to turn.")
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.contradiction == contradiction


@pytest.mark.parametrize(("ctx", "supported"), [
    # "hour-long" is found where its hour is (LIGHT_PARTS); a week the context never gives
    # is not
    ("The tour got pushed back an hour because of fog.", True),
    ("The tour got pushed back because of fog.", False),
])
def test_an_hour_long_delay_is_found_where_its_hour_is(ctx, supported):
    r = evaltools.score(CAFE_Q, _review("Harbor Tours", ctx), "Reviewers mention an hour-long fog "
                        "delay.")
    assert [a.supported for a in r.anchors if a.kind == "claim"] == [supported]


def test_a_near_empty_article_said_to_be_short_is_no_claim():
    # what a summary says of its own source ("This piece is very short ... little to
    # summarise") is no claim the article could support; its facts still are
    ctx = "Here are some of your pictures from the 26 beaches ranked most excellent."
    resp = ("This piece is very short (it's essentially a caption), so there is little to "
            "summarise. It shows pictures of the 26 beaches.")
    r = evaltools.score("Summarise the article in 60 words.", ctx, resp)
    counted = [a.text for a in r.anchors if a.kind == "claim" and a.counted]
    assert counted and all("short" not in t and "caption" not in t for t in counted)


# ---- forty-fifth round's readings (batches 161-163)

@pytest.mark.parametrize(("ctx", "supported", "contradiction"), [
    # the claim's verb has a named doer in the context who is not the claim's subject: support
    # fused from nearby sentences is refused, and one sentence contradicts it
    ("The EHRC called the adverts appalling. The Fawcett Society said firms must do better.",
     False, None),
    ("Brenda came out for the estimate, and Luis installed it.", False, "roles"),
    # the doer is the claim's subject, its acronym, its conjunct, or no name at all
    ("The Fawcett Society called the adverts appalling.", True, None),
    ("The campaigners called the adverts appalling. The Fawcett Society said so too.",
     True, None),
])
def test_a_named_doer_in_the_context_is_not_lent_to_another(ctx, supported, contradiction):
    response = ("The Fawcett Society called the adverts appalling." if "adverts" in ctx
                else "Luis came out for the estimate.")
    r = evaltools.score("Summarise the text.", ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("ctx", "response", "supported"), [
    # a subject headed by no name has no doer to compare; a country is its government
    ("Liverpool completed the turnaround with goals from Coutinho and Sakho.",
     "Goals from Coutinho and Sakho completed the turnaround.", True),
    ("Convoys sailed from Britain. The British Government created the Arctic Star in 2012.",
     "Britain created the Arctic Star in 2012.", True),
    # the same claims where the context's doer is another
    ("Liverpool completed the turnaround with goals from Coutinho and Sakho.",
     "Coutinho completed the turnaround.", False),
    ("Convoys sailed from Britain. The Russian Embassy created the Arctic Star in 2012.",
     "Britain created the Arctic Star in 2012.", False),
])
def test_the_doer_may_be_named_another_way(ctx, response, supported):
    r = evaltools.score("Summarise the text.", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims[0].supported is supported


@pytest.mark.parametrize(("ctx", "supported"), [
    # the acronym of the named doer and a doer among conjuncts are the claim's subject
    ("The Equality and Human Rights Commission called the adverts appalling.", True),
    ("The Equality and Human Rights Commission and the Fawcett Society called the adverts "
     "appalling.", True),
    ("The Fawcett Society called the adverts appalling. The EHRC had been asked.", False),
])
def test_an_acronym_names_its_doer(ctx, supported):
    r = evaltools.score("Summarise the text.", ctx, "The EHRC called the adverts appalling.")
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.supported is supported


@pytest.mark.parametrize(("ctx", "response", "supported"), [
    # "not available" is "unavailable", "not possible" "impossible", and the reverse
    ("He needs experimental treatment unavailable in the UK.",
     "The treatment is not available in the UK.", True),
    ("The treatment is not available in the UK.", "The treatment is unavailable in the UK.",
     True),
    ("Such a cure is impossible.", "Such a cure is not possible.", True),
    # the same words with the polarity the context denies
    ("The treatment is available in the UK.", "The treatment is not available in the UK.",
     False),
    ("The treatment is available in the UK.", "The treatment is unavailable in the UK.", False),
    ("Such a cure is possible.", "Such a cure is not possible.", False),
])
def test_a_negating_prefix_is_a_negation(ctx, response, supported):
    r = evaltools.score("Summarise the text.", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims[-1].supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # each item of an example list after "such as" is looked up, as an object is
    ("The EU plans duties on goods such as bourbon, jeans, orange juice and motorcycles.", False),
    ("The EU plans duties on goods such as bourbon and motorcycles.", True),
])
def test_an_example_lists_items_are_looked_up(response, supported):
    ctx = "The EU plans duties on iconic American goods such as bourbon, jeans and motorcycles."
    r = evaltools.score("Summarise the text.", ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # who a reviewer is by what they came to do names the reviewer, not a fact to look up
    ("One homeowner had 1998 oak cabinets refinished.", True),
    ("A bowler bought a Storm Phaze II ball.", True),
    # a trade the review never names is
    ("A plumber bought a Storm Phaze II ball.", False),
])
def test_a_reviewer_named_by_what_they_came_to_do(response, supported):
    ctx = _review("Oak & Co Refinishing", "We had 1998 oak cabinets refinished. I bought a "
                  "Storm Phaze II ball.")
    r = evaltools.score(CAFE_Q, ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and claims[0].supported is supported


@pytest.mark.parametrize(("ctx", "response", "supported"), [
    # a comparative of direction is found where the text says the change happened
    ("Anxiety increases the heart rate.", "Anxiety causes a higher heart rate.", True),
    ("The FTSE 100 fell 1.1% to 6,044.9 points.",
     "The FTSE 100 ended the day 1.1% lower at 6,044.9 points.", True),
    # not against the opposite change, and not a superlative (a rank the text must give)
    ("Anxiety reduces the heart rate.", "Anxiety causes a higher heart rate.", False),
    ("The FTSE 100 rose 1.1% to 6,044.9 points.",
     "The FTSE 100 ended the day 1.1% lower at 6,044.9 points.", False),
    ("Anxiety increases the heart rate.", "Anxiety causes the highest heart rate.", False),
])
def test_a_comparative_of_direction_is_found_where_the_change_is(ctx, response, supported):
    r = evaltools.score("Summarise the text.", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims[-1].supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # how a reviewer found the people or the space, in the overview's words, and a staff
    # member by a job the place has, where the review tells what happened
    ("Annette is knowledgeable and attentive.", True),
    ("A cashier was rude.", True),
    # a name, a fact or a trade the review never gives is still looked up
    ("Marisol is knowledgeable and attentive.", False),
    ("A cashier was certified.", False),
])
def test_a_reviewers_judgment_in_the_overviews_words(response, supported):
    ctx = _review("Kiln Country Clay Supply", "Annette knew exactly which kiln elements I "
                  "needed from a phone photo. The guy at the register was rude though.")
    r = evaltools.score(CAFE_Q, ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


# ---- forty-sixth round's readings (batches 164-166)

@pytest.mark.parametrize(("response", "absent"), [
    # a capital at a sentence's start does not make a word WordNet writes only in lower case
    # a name, alone or before a name the context gives
    ("Turnaround can be slow.", ()),
    ("Presenter Walt Hensley fixed the clock.", ()),
    # a name the context never gives still is one
    ("Hollister can be slow.", ("Hollister",)),
    ("Presenter Walt Brennan fixed the clock.", ("Presenter", "Brennan")),
])
def test_a_word_capitalised_at_a_sentence_start_is_no_name(response, absent):
    ctx = _review("Hensley Clock Repair", "Walt Hensley fixed our clock but it took nine "
                  "weeks instead of four.")
    r = evaltools.score(CAFE_Q, ctx, response)
    named = tuple(x for a in r.anchors if a.kind == "claim" for x in a.absent)
    assert named == absent


@pytest.mark.parametrize(("review", "response", "denied"), [
    # a claim of provenance the record writes its own way, its words in one sentence
    ("Kids loved the tortillas, they make them by hand on a comal.",
     "Tortillas are made by hand.", False),
    ("Storage runs $95. They insure it at your appraised value.",
     "Furs are insured at their appraised value.", False),
    ("The pork is smoked low and slow.", "Reviewers liked the pork, slow-smoked over pecan.",
     False),
    # the same claims where the record never says so
    ("Kids loved the tortillas, warm from the comal.", "Tortillas are made by hand.", True),
    ("Storage runs $95 at your appraised value.",
     "Furs are insured at their appraised value.", True),
])
def test_a_claim_of_provenance_in_the_records_own_words(review, response, denied):
    r = evaltools.score(CAFE_Q, _review("Casa Comal", review), response)
    kinds = [a.contradiction for a in r.anchors if a.kind == "claim"]
    assert ("record_absent" in kinds) is denied


@pytest.mark.parametrize(("response", "denied"), [
    # an offer in the past tells what happened on a visit; an offer in the present is the
    # business's, and the record must give it
    ("The team offered pottery classes.", False),
    ("The studio offers pottery classes.", True),
    ("The studio also handles installations.", True),
])
def test_an_offer_in_the_past_tells_of_a_visit(response, denied):
    ctx = _review("Kiln Country Clay", "We loved the glazes. Dana said the old kiln was "
                  "not worth fixing.")
    r = evaltools.score(CAFE_Q, ctx, response)
    kinds = [a.contradiction for a in r.anchors if a.kind == "claim"]
    assert ("record_absent" in kinds) is denied


def test_a_count_inside_father_of_four_is_a_number():
    assert [(m.text, m.value) for m in find_mentions("The father-of-four and a mother-of-two "
                                                     "left a one-of-a-kind piece.")] == [
        ("four", ("number", Decimal("4"))), ("two", ("number", Decimal("2")))]
    r = evaltools.score("Summarise the text.", "The father-of-four pleaded guilty.",
                        "Werner, a father of four, pleaded guilty.")
    (number,) = [a for a in r.anchors if a.kind == "number"]
    assert number.supported


@pytest.mark.parametrize(("ctx", "supported", "contradiction"), [
    # a subject that denies its clause denies the verb, not the place after it
    ("In 2008, about 40 were recorded on the study site, but none have been spotted there "
     "since 2013.", True, None),
    ("In 2008, about 40 were spotted at the study site.", False, "negation"),
])
def test_none_denies_the_verb_not_the_place(ctx, supported, contradiction):
    r = evaltools.score("Summarise the text.", ctx, "None have been spotted at the study site.")
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("response", "supported", "contradiction"), [
    # a verb a record's key holds (*appointment needed: yes*) speaks of the key's subject only
    ("No break-in is needed.", True, None),
    ("No appointment is needed.", False, "record_yes"),
])
def test_a_records_verb_needs_its_subject(response, supported, contradiction):
    ctx = json.dumps({"name": "Rio Lobo Boots", "attributes": {"ByAppointmentOnly": "True"},
                      "review_info": [{"review_text": "They fit like they were always mine. "
                                                      "Zero break-in needed."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("response", "supported"), [
    # the quality a reviewer judged, as the head of what the claim says, weighs nothing
    ("Reviewers praise the craftsmanship of the boots.", True),
    ("Customers note the reliability of the boots.", True),
    # a quality noun that names a kind of another thing is looked up with it
    ("Armando backs the boots with a lifetime workmanship warranty.", False),
])
def test_a_quality_a_reviewer_judged_in_the_overviews_words(response, supported):
    ctx = _review("Rio Lobo Boots", "Armando made my boots and the stitching is beautiful. "
                  "Armando was super friendly.")
    r = evaltools.score(CAFE_Q, ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


@pytest.mark.parametrize(("ctx", "supported"), [
    # a decade is ten years: three decades are the context's 30 years, not its 20
    ("Rick, the owner, has been doing this for 30 years.", True),
    ("Rick, the owner, has been doing this for 20 years.", False),
])
def test_decades_are_years(ctx, supported):
    assert [(m.text, m.value) for m in find_mentions("three decades")] == [
        ("three decades", ("quantity", "decade", Decimal("3")))]
    r = evaltools.score("Summarise the text.", ctx, "Owner Rick has three decades in the trade.")
    (number,) = [a for a in r.anchors if a.kind == "number"]
    assert number.supported is supported


@pytest.mark.parametrize(("response", "attributed"), [
    # a site the passages come from that "puts it" or "goes further" says what follows
    ("Atheist Republic puts it bluntly: agnostic sounds softer.", True),
    ("Atheist Republic goes further: agnostic sounds softer.", True),
    # a name no passage comes from is a name to check
    ("Atheist Weekly puts it bluntly: agnostic sounds softer.", False),
])
def test_a_site_that_puts_it_says_what_follows(response, attributed):
    ctx = ("What is the difference? (www.atheistrepublic.com)\nSome people say agnostic "
           "sounds softer than atheist.")
    r = evaltools.score("What does agnostic mean?", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert [a.text for a in claims if not a.supported] == (
        [] if attributed else ["Atheist Weekly puts it"])


# ---- forty-seventh round's readings (batches 173-181, and the role reading's review on 1-136)

@pytest.mark.parametrize(("address", "response", "supported"), [
    # a record's USPS street suffix or Mt is the word an overview spells out
    ("4120 Hempstead Tpke", "The shop is at 4120 Hempstead Turnpike.", True),
    ("12 Elk Trl", "The shop is at 12 Elk Trail.", True),
    ("5 Mt Vernon Rd", "The shop is at 5 Mount Vernon Road.", True),
    # another suffix is not the one the record writes
    ("4120 Hempstead Tpke", "The shop is at 4120 Hempstead Trail.", False),
])
def test_a_records_street_suffix_spelled_out(address, response, supported):
    ctx = json.dumps({"name": "Crease Lax Shop", "address": address,
                      "review_info": [{"review_text": "Great sticks."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.supported is supported


def test_months_of_a_range_and_short_months_alone():
    assert [(m.text, m.value) for m in find_mentions(
        "A contract for Nov-Mar, open Sept. to Dec; Jan Smith and Jun–Aug.")] == [
        ("Nov", ("monthname", 11)), ("Mar", ("monthname", 3)), ("Sept.", ("monthname", 9)),
        ("Dec", ("monthname", 12)), ("Jun", ("monthname", 6)), ("Aug.", ("monthname", 8))]
    ctx = _review("North Star Snow", "Seasonal contract for our driveway was $525 for Nov-Mar.")
    r = evaltools.score(CAFE_Q, ctx, "A homeowner paid $525 for November through March.")
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "date"] == [
        ("November", True), ("March", True)]
    r = evaltools.score(CAFE_Q, ctx, "A homeowner paid $525 for October through March.")
    assert [(a.text, a.supported) for a in r.anchors if a.kind == "date"] == [
        ("October", False), ("March", True)]


@pytest.mark.parametrize(("response", "moved"), [
    # a role beside a name the reviews give only beside someone else's name
    ("Owner Dana fixed the derailleur.", True),
    ("Mechanic Mike rang us up.", True),
    # the role the reviews give that person, or a role they never use (another reading)
    ("Owner Mike fixed the derailleur.", False),
    ("Mechanic Dana rang us up.", False),
])
def test_a_role_the_reviews_give_someone_else(response, moved):
    ctx = _review("Spoke & Chain", "Dana at the counter rang us up. The owner, Mike, fixed "
                  "the derailleur in ten minutes. Our mechanic Dana was quick too.")
    r = evaltools.score(CAFE_Q, ctx, response)
    notes = [a.note for a in r.anchors if a.kind == "claim"
             and a.contradiction == "record_absent"]
    assert bool(notes) is moved
    if moved:
        assert "the record never mentions" in notes[0]


@pytest.mark.parametrize(("review", "moved"), [
    # the name's own sentence says what the role does: the role is the record's, in its words
    ("Coach Linda runs the clinic. The junior session was 90 min with Marcus coaching.", False),
    ("Coach Linda runs the clinic. The junior session was 90 min with Marcus watching.", True),
])
def test_a_role_the_names_sentence_does(review, moved):
    r = evaltools.score(CAFE_Q, _review("Dink City Pickleball", review),
                        "Juniors train with coach Marcus.")
    assert any(a.contradiction == "record_absent" for a in r.anchors) is moved


@pytest.mark.parametrize(("response", "supported"), [
    # "upward of" (American, singular) states "more than" as "upwards of" does
    ("Helmets can cost more than $1,500 each.", True),
    ("Helmets can cost less than $1,500 each.", False),
])
def test_upward_of_is_more_than(response, supported):
    r = evaltools.score("Why don't officers wear helmets?",
                        "Helmets like these can run upward of $1,500 each.", response)
    (number,) = [a for a in r.anchors if a.kind == "number"]
    assert number.supported is supported


@pytest.mark.parametrize(("review", "supported"), [
    # a reviewer's "grandkids" are the overview's grandchildren
    ("She hears her grandkids again.", True),
    ("She hears her kids again.", False),
])
def test_grandkids_are_grandchildren(review, supported):
    r = evaltools.score(CAFE_Q, _review("ClearSound Hearing", review),
                        "She can hear her grandchildren again.")
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


@pytest.mark.parametrize(("ctx", "supported"), [
    # "1790-something" is a year of the 1790s, the decade an overview may name
    ("She found baptism records going back to 1790-something.", True),
    ("She found baptism records going back to 1810-something.", False),
])
def test_a_year_something_is_its_decade(ctx, supported):
    assert [(m.text, m.value) for m in find_mentions("back to 1790-something")] == [
        ("1790-something", ("decade", 1790))]
    r = evaltools.score("Summarise the text.", ctx, "She found baptism records from the 1790s.")
    (date,) = [a for a in r.anchors if a.kind == "date"]
    assert date.supported is supported


@pytest.mark.parametrize(("doer", "supported", "contradiction"), [
    # the context's doer written as the acronym of the claim's named subject is that subject
    ("the EA", True, None),
    # another named doer is still a misattribution
    ("Natural England", False, "roles"),
])
def test_a_doer_written_as_its_acronym(doer, supported, contradiction):
    ctx = ("The Environment Agency (EA) suspended Recovered Fuels from accepting waste after the "
           "fire. Crews spent days at the site. Trains were delayed for a week. A spokesman "
           f"said: \"After consideration of all the facts, {doer} has now decided to revoke the "
           "environmental permit.\"")
    r = evaltools.score("Summarise the text.", ctx, "The Environment Agency suspended Recovered "
                        "Fuels from accepting waste after the fire and has now decided to revoke "
                        "its permit.")
    claim = [a for a in r.anchors if a.kind == "claim"][-1]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("response", "supported"), [
    # the business's people by a general name, where a review leaves its subject out
    ("The crew piled snow right on top of the mailbox.", True),
    ("The staff piled snow right on top of the mailbox.", True),
    # a particular person is still looked up
    ("The owner piled snow right on top of the mailbox.", False),
])
def test_the_crew_of_a_review_without_a_subject(response, supported):
    ctx = _review("North Star Snow Removal", "Also piled snow right on top of my mailbox and "
                  "the mail carrier skipped us.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert claim.supported is supported


# ---- forty-eighth round's readings (batches 182-187)

@pytest.mark.parametrize(("review", "response", "supported", "contradiction"), [
    # a noun written with the word before it as initials the review writes in capitals
    ("Downside: the building gets hot in the summer, no AC, I was dripping.",
     "The building has no air conditioning.", True, None),
    ("The AC struggled in the bedrooms at night.",
     "The bedroom air conditioning struggled at night.", True, None),
    # the review's "no AC" still denies it
    ("Downside: the building gets hot in the summer, no AC, I was dripping.",
     "The building has air conditioning.", False, "negation"),
    # other initials are not these
    ("The AC struggled in the bedrooms at night.",
     "The bedroom heat pump struggled at night.", False, None),
])
def test_a_noun_the_review_writes_as_initials(review, response, supported, contradiction):
    r = evaltools.score(CAFE_Q, _review("Skyline Aerial Arts", review), response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


def test_initials_run_reads_one_or_two_words_before(nlp):
    from evaltools.scoring.matcher import SentenceIndex, words_of

    idx = SentenceIndex(nlp("Our PT was great. The ER was calm. A BBC crew came."))
    ws = words_of(nlp("Her physical therapist met the emergency room nurse and a big crew."))
    runs = {w.text: ([x.text for x in idx.initials_run(w, ws)[0]],
                     sorted(idx.initials_run(w, ws)[1])) for w in ws}
    assert runs["therapist"] == (["physical", "therapist"], [0])
    assert runs["room"] == (["emergency", "room"], [1])
    assert runs["nurse"] == ([], [])  # "ERN" is not written
    assert runs["crew"] == ([], [])  # "BC" of "big crew" is not "BBC"


@pytest.mark.parametrize(("level", "response", "supported"), [
    # the top price level in the words overviews use for it
    ("4", "The workshop sits in the top price tier.", True),
    ("4", "The workshop is in the highest price range.", True),
    ("4", "The workshop is in the priciest tier.", True),
    # not for a lower level
    ("2", "The workshop sits in the top price tier.", False),
    ("3", "The workshop is in the highest price range.", False),
])
def test_the_top_price_level_in_words(level, response, supported):
    ctx = json.dumps({"name": "Lindqvist Harpsichord Workshop",
                      "attributes": {"RestaurantsPriceRange2": level}})
    r = evaltools.score(CAFE_Q, ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


@pytest.mark.parametrize(("text", "values"), [
    # dimensions written with the letter x: each side is a number, a unit after the last
    ("about 10x8 ft", [("number", Decimal("10")), ("quantity", "ft", Decimal("8"))]),
    ("a 3x3x3 cube", [("number", Decimal("3"))] * 3),
    ("Two 10x14s came out to", [("number", Decimal("2")), ("number", Decimal("10")),
                                ("number", Decimal("14"))]),
    # not a hexadecimal number, nor a letter's code, nor a speed
    ("a 0x1F code", []),
    ("model A10x8", []),
    ("at 3x speed", [("quantity", "x", Decimal("3"))]),
])
def test_dimensions_written_with_an_x(text, values):
    assert [v for *_, v in find_numbers(text)] == values


@pytest.mark.parametrize(("response", "supported"), [
    ("Reggie painted a jungle scene on a 10-by-8-foot bedroom wall.", True),
    ("Reggie painted a jungle scene on a 12-by-8-foot bedroom wall.", False),
])
def test_a_size_the_review_writes_with_an_x(response, supported):
    ctx = _review("Chromatic Walls Studio", "Reggie painted a jungle mural on my son's bedroom "
                  "wall, about 10x8 ft.")
    r = evaltools.score(CAFE_Q, ctx, response)
    numbers = [a for a in r.anchors if a.kind == "number"]
    assert len(numbers) == 2 and all(a.supported for a in numbers) is supported


def test_a_day_said_closed_first_orders_no_hours():
    from evaltools.scoring.anchors.schedule import statements

    text = ("It is closed Mondays and open 10 a.m. to 6 p.m. Tuesday and Friday, 10 a.m. to "
            "8 p.m. on Thursday, and noon to 5 p.m. on Sunday.")
    assert [(s.days, s.open, s.hours) for s in statements(text)] == [
        (("Monday",), False, None), (("Tuesday",), True, (600, 1080)),
        (("Friday",), True, (600, 1080)), (("Thursday",), True, (600, 1200)),
        (("Sunday",), True, (720, 1020))]
    # days before their hours still read so
    assert [(s.days, s.hours) for s in statements(
        "It is closed Mondays and open Tuesday to Friday from 9 a.m. to 5 p.m.")] == [
        (("Monday",), None), (("Tuesday", "Wednesday", "Thursday", "Friday"), (540, 1020))]


@pytest.mark.parametrize(("thursday", "verdict"), [("8", "PASS"), ("9", "FAIL")])
def test_hours_after_a_closed_day(thursday, verdict):
    ctx = json.dumps({"name": "Purl & Pine Yarn Co.", "hours": {
        "Tuesday": "10:0-18:0", "Wednesday": "10:0-18:0", "Thursday": "10:0-20:0",
        "Friday": "10:0-18:0", "Saturday": "10:0-18:0", "Sunday": "12:0-17:0"}})
    r = evaltools.score(CAFE_Q, ctx, "The shop is closed Mondays and open 10 a.m. to 6 p.m. "
                        "Tuesday, Wednesday, Friday and Saturday, 10 a.m. to "
                        f"{thursday} p.m. on Thursday, and noon to 5 p.m. on Sunday.")
    assert r.verdict == verdict


@pytest.mark.parametrize(("response", "supported"), [
    # "Reviewers" opening a sentence, which the parser tags as a name, still names the reviews
    ("Reviewers describe a collection full of cathedral radios.", True),
    ("Customers describe a collection full of cathedral radios.", True),
    # a subject that is no reviewer is looked up
    ("Curators describe a collection full of cathedral radios.", False),
])
def test_reviewers_opening_a_sentence(response, supported):
    ctx = json.dumps({"name": "Static & Tubes Antique Radio", "hours": {"Sunday": "12:0-16:0"},
                      "review_info": [{"review_text": "The collection is full of cathedral "
                                                      "radios."}]})
    # after a line of hours the parser tags "Reviewers" NNPS, a plural name
    r = evaltools.score(CAFE_Q, ctx, f"It is open Sunday from noon to 4 p.m.\n\n{response}")
    claims = [a for a in r.anchors if a.kind == "claim" and "open" not in a.text]
    assert claims and all(a.supported is supported for a in claims)


def test_says_only_hours():
    from evaltools.scoring.anchors.schedule import says_only_hours

    assert says_only_hours("no Sunday hours listed")
    assert says_only_hours("It has no hours listed for Tuesday or Sunday")
    assert says_only_hours("open 10 a.m. to 6 p.m. on Fridays", [(5, 12), (16, 22)])
    assert not says_only_hours("no Sunday brunch")
    assert not says_only_hours("Tuesday")  # days alone say nothing of them


@pytest.mark.parametrize(("response", "verdict", "supported"), [
    # the record leaves Tuesday out of its week: "no hours listed" for it is what it says
    ("It is open Monday, Wednesday and Friday from 10 a.m. to 8 p.m.; no hours are listed "
     "for Tuesday.", "PASS", True),
    ("It has no hours listed for Tuesday or Sunday.", "PASS", True),
    # a day the record lists is still denied
    ("It has no hours listed for Monday or Sunday.", "FAIL", False),
])
def test_no_hours_listed_for_a_day_the_record_leaves_out(response, verdict, supported):
    ctx = json.dumps({"name": "Pho Place", "hours": dict.fromkeys(
        ("Monday", "Wednesday", "Friday"), "10:0-20:0"),
        "review_info": [{"review_text": "Best bowl of pho tai nam in South Philly."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    hours = [a for a in r.anchors if a.kind == "claim" and (
        "no hours" in a.text or "listed" in a.text)]
    assert r.verdict == verdict
    assert hours and all(a.supported is supported for a in hours)


@pytest.mark.parametrize(("response", "supported"), [
    # degrees with a scale for degrees a review writes without one
    ("With 52°F water, the 7mm rental wetsuit was essential.", True),
    # no conversion from a scale the review never states (52 °F would be 11.1 °C)
    ("With 11°C water, the 7mm rental wetsuit was essential.", False),
    ("With 55°F water, the 7mm rental wetsuit was essential.", False),
])
def test_degrees_without_a_scale(response, supported):
    ctx = _review("Monterey Dive Co.", "Water was 52 degrees so the 7mm rental wetsuit was a "
                  "must.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (number,) = [a for a in r.anchors if a.kind == "number" and "°" in a.text]
    assert number.supported is supported


@pytest.mark.parametrize(("response", "verdict", "supported"), [
    # "without issue" says it went well: the card was accepted
    ("Their card was accepted without issue.", "PASS", True),
    ("Their card was accepted without any problem.", "PASS", True),
    # a card refused is still denied by the record
    ("Cards are not accepted.", "FAIL", False),
])
def test_without_issue_affirms_its_verb(response, verdict, supported):
    ctx = json.dumps({"name": "Northwoods Custom Sawmill", "attributes": {
        "BusinessAcceptsCreditCards": "True"}, "review_info": [
        {"review_text": "Great source for live edge slabs. Paid by card, no problem."}]})
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (r.verdict, claim.supported) == (verdict, supported)


@pytest.mark.parametrize(("response", "supported", "contradiction"), [
    # "we don't think X have the authority" says they do not have it
    ("The executive does not have the authority to do that.", True, None),
    ("The executive has the authority to do that.", False, "negation"),
])
def test_a_negated_verb_of_opinion_denies_its_clause(response, supported, contradiction):
    ctx = ("\"We don't think the executive have the authority to do that, we think it should "
           "go to congress,\" Austin told BBC Sport.")
    r = evaltools.score("Summarise the article.", ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("text", "read"), [
    # an occasion, not the week: "opening weekend", "the Sunday night of ..."
    ("One customer waited an hour to drop off on the Sunday night of opening weekend, when "
     "hours run late.", []),
    ("It was closed over the long weekend.", []),
    # the week's days are still read
    ("It is open weekends from 9 to 5.", [(("Saturday", "Sunday"), True)]),
    ("It is closed on the Sunday.", [(("Sunday",), False)]),
])
def test_a_weekend_that_is_an_occasion(text, read):
    from evaltools.scoring.anchors.schedule import statements

    assert [(s.days, s.open) for s in statements(text)] == read


@pytest.mark.parametrize(("response", "verdict"), [
    # what "rather than" sets aside is no claim, where the parser hangs it off the verb too
    ("The studio has street parking rather than a lot.", "PASS"),
    # the parking the record says no to is still denied
    ("The studio has a parking lot rather than street parking.", "FAIL"),
])
def test_rather_than_a_lot(response, verdict):
    ctx = json.dumps({"name": "Brushstroke Sign Co.", "attributes": {"BusinessParking": (
        "{'garage': False, 'street': True, 'validated': False, 'lot': False, 'valet': False}")}})
    assert evaltools.score(CAFE_Q, ctx, response).verdict == verdict


# ---- forty-ninth round's readings (batches 200-202)

@pytest.mark.parametrize(("response", "verdict", "supported", "contradiction"), [
    # "neither A nor B" denies both, where the parser hangs A on B as its modifier
    ("It is neither kid-friendly nor wheelchair accessible.", "PASS", True, None),
    ("It is neither wheelchair accessible nor kid-friendly.", "PASS", True, None),
    # without "neither" the record's "no" still denies it
    ("It is kid-friendly and wheelchair accessible.", "FAIL", False, "record_no"),
])
def test_neither_nor_with_the_first_adjective_as_a_modifier(response, verdict, supported,
                                                           contradiction):
    ctx = json.dumps({"name": "Casa Arepa Cooking Studio", "attributes": {
        "GoodForKids": "False", "WheelchairAccessible": "False"}})
    r = evaltools.score(CAFE_Q, ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert r.verdict == verdict
    assert {(a.supported, a.contradiction) for a in claims} == {(supported, contradiction)}


@pytest.mark.parametrize(("response", "supported", "contradiction"), [
    # "a little heavy" grades "heavy": no amount, so no opposite of the review's "too much"
    ("His wife found it a little heavy on coriander.", True, None),
    ("His wife found it a bit heavy on coriander.", True, None),
    # an amount still is one
    ("His wife found very little coriander in it.", False, "opposite"),
])
def test_a_little_is_a_degree(response, supported, contradiction):
    ctx = _review("Springbok Biltong", "Droewors was great, a bit too much coriander for my "
                                       "wife's taste.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("context", "response", "contradiction"), [
    # "earlier" ranks against the latest find, "latest" against all: no opposites
    ("\"The same officers are looking into the latest discoveries and will look to confirm "
     "that they are linked,\" a spokesman said. Detectives are keeping an open mind about "
     "whether the two finds are connected.", "Detectives are keeping an open mind about "
     "whether it is connected to two earlier discoveries in the city.", None),
    # a comparative against a comparative still is one, and a base form against a base form
    ("Prices were higher last year.", "Prices were lower last year.", "opposite"),
    ("The second train arrived late.", "The second train arrived early.", "opposite"),
])
def test_a_comparative_and_a_superlative_are_no_opposites(context, response, contradiction):
    r = evaltools.score("Summarise the article.", context, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.contradiction == contradiction for a in claims)


@pytest.mark.parametrize(("context", "supported"), [
    # a dateline's AP abbreviation names the state
    ("Richard Fraser is a forensic handwriting examiner in Westwood, Mass.", True),
    ("Fraser, a forensic handwriting examiner from Sacramento, Calif., spoke first.", True),
    # not the word elsewhere, nor another state's
    ("Richard Fraser went to Mass. in Westwood.", False),
    ("Richard Fraser is a forensic handwriting examiner in Westwood, Conn.", False),
])
def test_ap_state_abbreviations(context, supported):
    state = "California" if "Calif" in context else "Massachusetts"
    r = evaltools.score("Who is Fraser?", context, f"Fraser works in {state}.")
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


@pytest.mark.parametrize(("review", "supported"), [
    # a bare hour after "by" with a hedge between is a clock time
    ("They sell out by like 11 on Saturdays so go early.", True),
    ("They sell out by about 11 on Saturdays.", True),
    # another hour is not this one
    ("They sell out by like 10 on Saturdays.", False),
])
def test_a_hedged_bare_hour(review, supported):
    r = evaltools.score(CAFE_Q, _review("Musubi Mike's", review),
                        "They sell out by around 11 a.m. on Saturdays.")
    (time,) = [a for a in r.anchors if a.kind == "date"]
    assert time.supported is supported


@pytest.mark.parametrize(("response", "supported", "contradiction"), [
    # "zero echo" says there is no echo
    ("The room is so well treated there's no echo.", True, None),
    ("The room has an echo.", False, "negation"),
])
def test_zero_before_a_noun_says_no(response, supported, contradiction):
    ctx = _review("Loud Thoughts Podcast Studio",
                  "They hand you the files same day via Dropbox. Room is treated really well, "
                  "zero echo.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


@pytest.mark.parametrize(("response", "supported"), [
    # a name the context writes clipped: "Lib Dem" for "Liberal Democrat"
    ("The new Liberal Democrat leader, Mr Farron, spoke to the BBC.", True),
    # not a name it does not clip
    ("The new Liberal Unionist leader, Mr Farron, spoke to the BBC.", False),
])
def test_a_clipped_name_supports_the_full_name(response, supported):
    ctx = "The new Lib Dem leader Tim Farron spoke to the BBC on Sunday."
    r = evaltools.score("Summarise the article.", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


def test_a_records_yes_in_the_window_denies_a_negated_claim():
    # "No break-in needed" beside the record's "appointment needed: yes" fuses no support
    ctx = json.dumps({"name": "Rio Lobo Boots", "attributes": {"ByAppointmentOnly": "True"},
                      "review_info": [{"review_text": "They fit like they were always mine. "
                                                      "No break-in needed."}]})
    r = evaltools.score(CAFE_Q, ctx, "No appointment is needed.")
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (False, "record_yes")


@pytest.mark.parametrize(("response", "supported"), [
    # a share of two amounts the context gives is that percentage
    ("The bank could lend out roughly 90% of that money.", True),
    # another share is not
    ("The bank could lend out roughly 80% of that money.", False),
])
def test_a_share_of_two_amounts_is_a_percentage(response, supported):
    ctx = ("If you put $1,000 in a high yield savings account, you might only earn around "
           "1.35%. The bank, though, might be able to loan $900 of that money out.")
    r = evaltools.score("How do banks make money on savings accounts?", ctx, response)
    (number,) = [a for a in r.anchors if a.kind == "number"]
    assert number.supported is supported


def test_a_share_needs_one_currency_and_nearby_sentences():
    from evaltools.scoring.anchors.implied import implied_mentions
    from evaltools.scoring.anchors.mentions import find_mentions
    from evaltools.text import load_pipeline

    nlp = load_pipeline()

    def shares(text):
        return [m.value for m in implied_mentions(nlp(text), find_mentions(text))
                if m.value[0] == "percent"]

    # $50 of $200 in the next sentence is 25 %; pounds are no share of dollars
    assert shares("It cost $200. The deposit was $50. Later a fee of £150.") == [
        ("percent", Decimal("25"))]
    # two sentences apart, or a share that is no whole percentage: none
    assert shares("It cost $200. Nobody came. Then $100 more.") == []
    assert shares("It cost $300. The deposit was $100.") == []


@pytest.mark.parametrize(("response", "verdict"), [
    # "without requiring appointments" denies the appointments, as the record does
    ("It accepts credit cards without requiring appointments.", "PASS"),
    # an appointment required is still denied by the record
    ("It accepts credit cards and requires appointments.", "FAIL"),
])
def test_without_a_gerund_denies_it(response, verdict):
    ctx = json.dumps({"name": "Twin Cities Sump & Drain", "attributes": {
        "BusinessAcceptsCreditCards": "True", "ByAppointmentOnly": "False"}})
    assert evaltools.score(CAFE_Q, ctx, response).verdict == verdict


@pytest.mark.parametrize(("review", "supported"), [
    # "til" with a hedge before a bare hour
    ("They gave me an 8-12 window and the tech didn't arrive til almost 2.", True),
    ("They gave me an 8-12 window and the tech didn't arrive til almost 3.", False),
])
def test_til_almost_a_bare_hour(review, supported):
    r = evaltools.score(CAFE_Q, _review("Greenline Sprinkler Repair", review),
                        "The technician showed up close to 2 p.m.")
    (time,) = [a for a in r.anchors if a.kind == "date" and "2" in a.text]
    assert time.supported is supported


@pytest.mark.parametrize(("response", "supported"), [
    # a name of capitalised words the context writes as its initials
    ("Great Britain led 35-24 in the second quarter.", True),
    # a name whose initials the context does not write
    ("Greater Manchester led 35-24 in the second quarter.", False),
])
def test_a_name_the_context_writes_as_initials(response, supported):
    ctx = "GB led 35-24 on Lawrence's three in the second quarter."
    r = evaltools.score("Summarise the article.", ctx, response)
    claims = [a for a in r.anchors if a.kind == "claim"]
    assert claims and all(a.supported is supported for a in claims)


@pytest.mark.parametrize(("response", "verdict"), [
    # "access to" what a membership lets you use is no access for wheelchairs
    ("Members get access to the repair stands and tools.", "PASS"),
    # the building's access still is
    ("The shop has wheelchair access.", "FAIL"),
    ("The shop is accessible.", "FAIL"),
])
def test_access_to_what_is_used(response, verdict):
    ctx = json.dumps({"name": "Spoke & Wrench Bike Co-op", "attributes": {
        "WheelchairAccessible": "False"}, "review_info": [{"review_text": (
            "Paid the $40 annual membership and now members can use the repair stands and "
            "tools whenever they're open.")}]})
    assert evaltools.score(CAFE_Q, ctx, response).verdict == verdict


@pytest.mark.parametrize(("text", "read"), [
    # a named weekend is an event, not the week's Saturday and Sunday
    ("Guests can join \"open sew\" weekends.", []),
    ("Guests can join 'open sew' weekends.", []),
    # the week's weekend is still read
    ("It is open weekends.", [(("Saturday", "Sunday"), True)]),
])
def test_a_named_weekend_is_an_occasion(text, read):
    from evaltools.scoring.anchors.schedule import statements

    assert [(s.days, s.open) for s in statements(text)] == read


def test_a_share_supports_only_a_percentage():
    # "£35" of "£70" is 50 %, which supports no bare 50 (the leniency of a unitless amount)
    ctx = ("Another trust was quoted £70 an hour for a junior doctor. The fee is meant to be "
           "£35.")
    r = evaltools.score("Summarise the article.", ctx,
                        "The regulator will collect data on the 50 highest-earning staff.")
    (number,) = [a for a in r.anchors if a.kind == "number"]
    assert number.supported is False
    r = evaltools.score("Summarise the article.", ctx,
                        "The fee is meant to be 50% of what the trust was quoted.")
    assert [a.supported for a in r.anchors if a.kind == "number"] == [True]


@pytest.mark.parametrize(("text", "read"), [
    # the days of part of the year are not the record's week
    ("Closed Sundays after Aug 1 per the sign.", []),
    ("The farm is closed Sundays after August 1.", []),
    ("It is open Mondays in summer.", []),
    # the week's days are still read, a month elsewhere in the sentence or not
    ("Closed Sundays.", [(("Sunday",), False)]),
    ("Closed Mondays, May is busy.", [(("Monday",), False)]),
])
def test_days_of_a_season_are_not_the_week(text, read):
    from evaltools.scoring.anchors.schedule import statements

    assert [(s.days, s.open) for s in statements(text)] == read


@pytest.mark.parametrize(("response", "supported", "contradiction"), [
    # "Cash only, there's no ATM": the cash is no subject of the "no"
    ("The farm is cash only.", True, None),
    ("There is no ATM on site.", True, None),
    ("There is an ATM on site.", False, "negation"),
])
def test_a_fragment_before_there_is_no(response, supported, contradiction):
    ctx = _review("Blue Heron Berry Farm", "Cash only, there's no ATM on site so come prepared.")
    r = evaltools.score(CAFE_Q, ctx, response)
    (claim,) = [a for a in r.anchors if a.kind == "claim"]
    assert (claim.supported, claim.contradiction) == (supported, contradiction)


WEB_PASSAGES = (
    "EU says it will retaliate for US tariffs | TheHill (thehill.com)\n"
    "The tariffs would cost European exporters $2 billion a year.\n\n"
    "Solved! - HTPC to replace cable service (forums.tomsguide.com)\n"
    "I built a media PC with a 3 TB hard drive for about $400.\n\n"
    "What binge-watching does to your brain (www.nbcnews.com)\n"
    "Watching releases dopamine.")


@pytest.mark.parametrize(("response", "unsupported"), [
    # a passage's site named as the source of a claim, wherever it stands, with what the
    # response calls its page or writer: the rest of the claim is checked as any claim
    ("The Hill puts the tariffs' cost at $2 billion a year.", []),
    ("The Hill puts the tariffs' cost at $5 billion a year.", ["$5 billion"]),
    ("The Globe puts the tariffs' cost at $2 billion a year.", ["Globe"]),
    ("The Tom's Guide poster used a 3 TB hard drive.", []),
    ("The Tom's Guide poster used a 6 TB hard drive.", ["6 TB"]),
    ("The NBC piece says watching releases dopamine.", []),
    ("The NBC piece says watching releases cortisol.", ["cortisol"]),
])
def test_a_passages_site_named_as_a_claims_source_is_about_the_sources(response, unsupported):
    r = evaltools.score("What do the tariffs cost?", WEB_PASSAGES, response)
    got = [a for a in r.anchors if a.counted and not a.supported]
    assert [u for u in unsupported if any(u in a.text for a in got)] == unsupported
    assert bool(got) is bool(unsupported)


BAGEL_WEEK = json.dumps({"name": "Family Bagel Co.", "hours": {
    "Tuesday": "6:30-14:0", "Wednesday": "6:30-14:0", "Thursday": "6:30-14:0",
    "Friday": "6:30-14:0", "Saturday": "7:0-14:0", "Sunday": "7:0-14:0"},
    "review_info": [{"review_text": "Dozen is $16 and they throw in a 13th. My dad's albums "
                                    "of plate blocks from the 50s-60s."}]})


# the fifty-first round's readings of numbers and times, each with a supported and an
# unsupported case
@pytest.mark.parametrize(("context", "response", "supported"), [
    # a coin as a difference in price is its worth (*even a penny less*)
    ("Even a penny less may make a huge psychological difference.",
     "Even a one-cent difference can matter a lot.", True),
    ("Even a penny less may make a huge psychological difference.",
     "Even a five-cent difference can matter a lot.", False),
    # a unit joined by a hyphen to a word that is no measure names a thing: no amount
    ('{"name": "Lakeview Cabins", "review_info": [{"review_text": "We rented the day-house '
     'and ran out of propane at 2 pm."}]}',
     "One day-house renter ran out of propane around 2 p.m.", True),
    ('{"name": "Lakeview Cabins", "review_info": [{"review_text": "We rented the day-house '
     'and ran out of propane at 2 pm."}]}',
     "One day-house renter ran out of propane around 4 p.m.", False),
    # a bare hour before "on" a day is that day's hour, as a schedule's exception
    ('{"name": "Slot Cars R Us", "hours": {"Thursday": "15:0-22:0", "Friday": "15:0-23:0"}}',
     "It closes at 10 p.m. Thursday (11 on Friday).", True),
    ('{"name": "Slot Cars R Us", "hours": {"Thursday": "15:0-22:0", "Friday": "15:0-23:0"}}',
     "It closes at 10 p.m. Thursday (12 on Friday).", False),
    # millions written with "m" before a currency word are money, not metres
    ("The fee was reported to be up to 30m euros (£23m).",
     "Real can buy him back for up to €30m.", True),
    ("The fee was reported to be up to 30m euros (£23m).",
     "Real can buy him back for up to €40m.", False),
    # "around" a bare hour that counts nothing (a clause ends after it) may be a clock time
    ('{"name": "Sharp Edge", "review_info": [{"review_text": "Line was long around 11, drop '
     'off early."}]}', "Reviewers note a long line around 11 a.m.", True),
    ('{"name": "Sharp Edge", "review_info": [{"review_text": "Line was long around 11, drop '
     'off early."}]}', "Reviewers note a long line around 1 p.m.", False),
    # "starting at" after "until" makes the times after it opening times again
    (BAGEL_WEEK, "It is open Tuesday through Sunday until 2 p.m., starting at 6:30 a.m. on "
             "weekdays and 7 a.m. on weekends.", True),
    (BAGEL_WEEK, "It is open Tuesday through Sunday until 2 p.m., starting at 6:30 a.m. on "
             "weekdays and 8 a.m. on weekends.", False),
    # a price before "dozen" is the dozen's price, not so many dozen dollars
    (BAGEL_WEEK, "A $16 dozen comes with a free 13th.", True),
    (BAGEL_WEEK, "A $18 dozen comes with a free 13th.", False),
    # two decades joined by a hyphen are both decades
    (BAGEL_WEEK, "He had albums of 1950s and '60s plate blocks.", True),
    (BAGEL_WEEK, "He had albums of 1950s and '70s plate blocks.", False),
    # half of one percent is 0.5 %
    ("UK fishing only produces a half of one percent of GDP.",
     "Fishing accounts for just 0.5% of GDP.", True),
    ("UK fishing only produces a half of one percent of GDP.",
     "Fishing accounts for just 1.5% of GDP.", False),
])
def test_numbers_and_times_read_in_the_fifty_first_round(context, response, supported):
    r = evaltools.score("Write an overview of the business.", context, response)
    values = [a for a in r.anchors if a.counted and a.kind in ("number", "date")]
    assert values and all(a.supported for a in values) is supported


@pytest.mark.parametrize(("context", "response", "unsupported"), [
    # a title may hold words in brackets: its address still names the passage's site
    ("The Real (and Very Normal) Reason You're So Exhausted After Therapy "
     "(www.realsimple.com)\nExhaustion can set in once a stressful event is over.",
     "Real Simple adds that exhaustion can set in once a stressful event is over.", []),
    ("The Real (and Very Normal) Reason You're So Exhausted After Therapy "
     "(www.realsimple.com)\nExhaustion can set in once a stressful event is over.",
     "Good Housekeeping adds that exhaustion can set in once a stressful event is over.",
     ["Good Housekeeping adds"]),
    # a name the address writes by its initials (nytimes.com: New York Times)
    ("Opinion | Handwriting Just Doesn't Matter (www.nytimes.com)\nHandwriting is now "
     "taught at a younger age.",
     "A New York Times opinion piece says handwriting is now taught at a younger age.", []),
    ("Opinion | Handwriting Just Doesn't Matter (www.nytimes.com)\nHandwriting is now "
     "taught at a younger age.",
     "A New York Post opinion piece says handwriting is now taught at a younger age.",
     ["A New York Post opinion piece says"]),
    # a network's acronym whose address adds "news", saying something (cbsnews.com: CBS)
    ("Ebola: Should we be worried? (www.cbsnews.com)\nIndividual cases will not lead to "
     "widespread outbreaks.",
     "CBS also says individual cases will not lead to widespread outbreaks.", []),
    ("Ebola: Should we be worried? (www.cbsnews.com)\nIndividual cases will not lead to "
     "widespread outbreaks.",
     "ABC also says individual cases will not lead to widespread outbreaks.",
     ["ABC also says"]),
])
def test_a_site_named_as_a_reader_knows_it(context, response, unsupported):
    r = evaltools.score("What do the sources say?", context, response)
    assert [a.text for a in r.anchors
            if a.kind == "claim" and a.counted and not a.supported] == unsupported


BAKERY = {"name": "La Esquina", "categories": "Bakeries, Cuban",
          "attributes": {"RestaurantsReservations": "False", "Alcohol": "u'none'",
                         "BusinessParking": "{'garage': False, 'street': True, "
                                            "'validated': False, 'lot': False, 'valet': False}"}}


@pytest.mark.parametrize(("response", "contradictions"), [
    # a conjunct joined by "and" after the "or" is out of the "not": it relies on the street
    ("La Esquina does not take reservations or serve alcohol, and relies on street parking.",
     []),
    # every conjunct of "not ..., ..., or ..." is denied, and the record's street parking
    # denies the last
    ("La Esquina does not take reservations, serve alcohol, or offer street parking.",
     ["record_yes"]),
])
def test_a_conjunct_after_and_leaves_the_not_of_an_or_list(response, contradictions):
    record = dict(BAKERY, review_info=[{"review_text": "Great coffee."}])
    r = evaltools.score(CAFE_Q, json.dumps(record), response)
    assert [a.contradiction for a in r.anchors
            if not a.supported and a.counted and a.contradiction] == contradictions


@pytest.mark.parametrize(("review", "absent"), [
    # "baked right here" is the record's way of saying the bread is baked in-house
    ("Cuban bread baked right here, $9.75 and it's huge.", []),
    ("Cuban bread, $9.75 and it's huge.", ["baked in-house"]),
])
def test_baked_right_here_states_baked_in_house(review, absent):
    record = dict(BAKERY, review_info=[{"review_text": review}])
    r = evaltools.score(CAFE_Q, json.dumps(record),
                        "Reviewers praise the sandwich on bread baked in-house.")
    assert [a.text for a in r.anchors
            if not a.supported and a.contradiction == "record_absent"] == absent


BOXING_GYM = {"name": "Mile High Boxing", "categories": "Boxing, Gyms",
              "attributes": {"BusinessParking": "{'garage': False, 'street': True, "
                                                "'validated': False, 'lot': False, "
                                                "'valet': False}"}}


@pytest.mark.parametrize(("response", "contradictions"), [
    # the "no" of a listed noun after one it does not deny is its own: the street parking
    # the record gives is not denied
    ("Downsides include small locker rooms, no showers, air conditioning that struggles in "
     "summer, and street parking that fills up.", []),
    # a "no" that opens the list denies what "or" joins to it, and the record denies that
    ("Downsides include no showers or street parking.", ["record_yes"]),
])
def test_a_no_inside_a_list_denies_its_own_item(response, contradictions):
    record = dict(BOXING_GYM, review_info=[{"review_text": "Small locker rooms, no showers."}])
    r = evaltools.score(CAFE_Q, json.dumps(record), response)
    assert [a.contradiction for a in r.anchors
            if not a.supported and a.counted and a.contradiction == "record_yes"] == contradictions


@pytest.mark.parametrize(("review", "generalised"), [
    # the review itself says "always" of Tony: the overview restates it
    ("Tony always tells us what can wait and what can't.", []),
    # a review that says it once: "always" goes past the record
    ("Tony told us what could wait and what couldn't.", ["Tony always explains"]),
])
def test_a_generalisation_the_record_makes_of_the_same_subject(review, generalised):
    record = {"name": "Keystone Auto Care", "categories": "Auto Repair",
              "review_info": [{"review_text": review}]}
    r = evaltools.score(CAFE_Q, json.dumps(record),
                        "A regular said Tony always explains what can wait.")
    assert [a.text for a in r.anchors if a.contradiction == "generalised"] == generalised


RAMEN = {"name": "Kumo Ramen", "categories": "Ramen, Japanese, Restaurants",
         "attributes": {"OutdoorSeating": "False", "RestaurantsDelivery": "False",
                        "NoiseLevel": "u'loud'"},
         "review_info": [{"review_text": "It's LOUD in there, hard to hear my friend."}]}


@pytest.mark.parametrize(("response", "denied"), [
    # a dining room is a room: the record's "outdoor seating: no" (and its "outdoor dining")
    # says nothing of it
    ("Reviewers mention a dining room loud enough to make conversation hard.", []),
    # the kind the record denies, named with its own modifier, is still denied
    ("Reviewers mention an outdoor dining area loud enough to make conversation hard.",
     ["mention an outdoor dining area loud enough to make"]),
    # a word the key does not end with is no kind it names: patio tables are patio seating
    ("It offers a few patio tables.", ["offers a few patio tables"]),
])
def test_a_word_naming_another_nouns_kind_is_not_the_records_key(response, denied):
    r = evaltools.score(CAFE_Q, json.dumps(RAMEN), response)
    assert [a.text for a in r.anchors if a.contradiction == "record_no"] == denied


NAIL_SALON = {"name": "Polished Nail Lounge", "categories": "Nail Salons",
              "business_stars": 3.5,
              "review_info": [{"review_stars": 4, "review_text": "Gel mani for $75. Linda was "
                                                                 "careful."},
                              {"review_stars": 2, "review_text": "Dip powder lifted."}]}


@pytest.mark.parametrize(("response", "unsupported"), [
    # the customer's own four stars: a review's rating, which the record gives
    ("One four-star customer paid $75 for a gel manicure.", []),
    # the salon's own rating is the record's 3.5, not a review's 4
    ("It is a four-star salon.", ["four-star"]),
])
def test_a_rating_right_before_the_person_who_gave_it(response, unsupported):
    r = evaltools.score(CAFE_Q, json.dumps(NAIL_SALON), response)
    assert [a.text for a in r.anchors if a.kind == "number" and not a.supported] == unsupported


def _never_mentioned(result) -> list[str]:
    """What each ``record_absent`` anchor's note says the record never mentions."""
    return [a.note.rsplit("never mentions ", 1)[1].strip("'") for a in result.anchors
            if a.contradiction == "record_absent"]


PHONE_REPAIR = {"name": "FixIt Phones", "categories": "Mobile Phone Repair",
                "review_info": [{"review_text": "Face ID still works. Guy at the counter, "
                                                "Luis, explained the warranty."},
                                {"review_text": "Mike was working the register, the "
                                                "cashier Mike was kind."}]}


@pytest.mark.parametrize(("response", "absent"), [
    # "working" before a stop is no role given to Luis
    ("Face ID kept working; Luis explained the warranty.", []),
    # a role right before the name is one
    ("Cashier Luis explained the warranty.", ["Cashier Luis"]),
])
def test_a_role_stands_right_before_the_name(response, absent):
    assert _never_mentioned(evaltools.score(CAFE_Q, json.dumps(PHONE_REPAIR), response)) == absent


@pytest.mark.parametrize(("response", "supported"), [
    # "should not be paying more than 55%" is a limit: up to 55%
    ("Trusts should pay no more than 55% above normal rates.", True),
    # as it is the comparison, restated with its denial in other words
    ("A cap bars trusts from paying more than 55% above normal rates.", True),
    # and not a floor below it
    ("Trusts should pay less than 55% above normal rates.", False),
])
def test_a_denied_comparison_reads_either_way(response, supported):
    context = ("Hospitals should not be paying more than 55% above normal shift rates for "
               "any staff.")
    r = evaltools.score("How much may trusts pay agency staff?", context, response)
    assert [a.supported for a in r.anchors if a.kind == "number"] == [supported]


TAQUERIA = {"name": "Taqueria El Sol", "categories": "Mexican, Restaurants",
            "review_info": [{"review_text": "The tortillas are made right in front of you on "
                                            "the comal."},
                            {"review_text": "Menudo special comes with fresh tortillas."}]}


@pytest.mark.parametrize(("response", "absent"), [
    # made (one review) and fresh (another), each said of the tortillas
    ("Reviewers praise the tortillas made fresh on the comal.", []),
    # daily is said of them nowhere
    ("Reviewers praise the tortillas made fresh daily on the comal.", ["made fresh daily"]),
])
def test_a_provenance_whose_words_the_reviews_say_of_its_noun(response, absent):
    assert _never_mentioned(evaltools.score(CAFE_Q, json.dumps(TAQUERIA), response)) == absent


@pytest.mark.parametrize(("response", "counted"), [
    # the count of the response's own parallel points (each opens with "one")
    ('The passages point to two kinds of criticism: one about the phrase "tar baby" itself, '
     "and one about how the film portrays Black characters more broadly.", []),
    # items that do not open alike and run long are no list the count sums up
    ('The passages point to two kinds of criticism: the phrase "tar baby" itself and how '
     "the film portrays Black characters more broadly across the decades.", ["two"]),
])
def test_a_count_of_parallel_points_after_a_colon_is_the_responses_own(response, counted):
    context = ('Some see the term "tar baby" as derogatory. Critics say the film portrays '
               "Black characters as subservient.")
    r = evaltools.score("Why is Song of the South controversial?", context, response)
    assert [a.text for a in r.anchors if a.kind == "number" and a.counted
            and not a.supported] == counted
