"""How a business record's values are read against an overview, each rule with a supported
and an unsupported (or contradicted) case: a record's yes denies a negated claim; its
yes/no keys said the ways overviews put them (``evaltools/scoring/data/record_keys.json``);
a derivation of a key that is "no"; a compound's light part; Canadian province codes;
runs of weekdays with the same hours; Markdown headings and labels; "not" on an adverb of
degree; a qualifier before an article."""

import json

import pytest

import evaltools
from evaltools.scoring.context import _runs, _unmarkdown, key_phrases, read_context
from evaltools.scoring.verdict import denied_by_record

Q = "Write an objective overview of this business based only on the record."


def _record(**attributes) -> str:
    return json.dumps({"name": "Harbor Paws", "city": "Tampa", "state": "FL",
                       "attributes": attributes})


def _claims(context: str, response: str) -> list[tuple[str, bool, str | None]]:
    result = evaltools.score(Q, context, response)
    return [(a.text, a.supported, a.contradiction) for a in result.anchors if a.kind == "claim"]


def test_a_records_yes_denies_a_negated_claim_and_fails_rule_1():
    ctx = _record(RestaurantsReservations="True", RestaurantsDelivery="False")
    bad = evaltools.score(Q, ctx, "Harbor Paws does not take reservations.")
    assert [(a.supported, a.contradiction) for a in bad.anchors] == [(False, "record_yes")]
    assert bad.anchors[0].note.endswith("a record's 'yes' affirms it")
    assert bad.verdict_inputs.record_denied and denied_by_record(bad.anchors[0])
    assert bad.verdict == "FAIL"
    assert bad.reasons[0] == "a record's own value denies a claim (safety first)"
    ok = evaltools.score(Q, ctx, "Harbor Paws takes reservations but does not deliver.")
    assert ok.verdict == "PASS" and not ok.verdict_inputs.record_denied
    # the same words negated in prose are a contradiction, but no record's own value
    prose = evaltools.score(Q, "Harbor Paws takes reservations.",
                            "Harbor Paws does not take reservations.")
    assert [a.contradiction for a in prose.anchors] == ["negation"]
    assert not prose.verdict_inputs.record_denied


@pytest.mark.parametrize(("attributes", "response", "denied"), [
    # "neither ... nor" denies both
    ({"WheelchairAccessible": "False", "DogsAllowed": "False"},
     "It is neither wheelchair accessible nor dog-friendly.", False),
    ({"WheelchairAccessible": "True", "DogsAllowed": "False"},
     "It is neither wheelchair accessible nor dog-friendly.", True),
    # "alcohol-free" is no alcohol (an affirmed "alcohol" was denied by "alcohol: none"; the
    # word is a modifier of "free", so the other side is clause_negated's doctest)
    ({"Alcohol": "u'none'"}, "Harbor Paws is inexpensive and alcohol-free.", False),
    # what a verb keeps out is not had: "bars dogs"
    ({"DogsAllowed": "False"}, "Harbor Paws bars dogs.", False),
    ({"DogsAllowed": "True"}, "Harbor Paws bars dogs.", True),
    # a verb the tagger hangs on a listed noun shares the list's "not"
    ({"OutdoorSeating": "False", "RestaurantsDelivery": "False"},
     "It does not serve alcohol, deliver, or offer outdoor seating.", False),
    ({"OutdoorSeating": "True"}, "It does not offer outdoor seating.", True),
])
def test_four_ways_overviews_say_no_that_blind_batches_74_to_76_wrote(attributes, response,
                                                                      denied):
    r = evaltools.score(Q, _record(**attributes), response)
    assert r.verdict_inputs.record_denied is denied


def test_a_weekday_short_form_in_a_name_is_no_weekday():
    """A record's name "Desert Sun Car Rental" was read as "Desert Sunday Car Rental", so
    *Desert Sun* in a faithful overview was a name the context never mentions."""
    ctx = json.dumps({"name": "Desert Sun Car Rental", "city": "Reno",
                      "hours": {"Sunday": "7:0-22:0", "Monday": "Sat-Sun"}})
    assert read_context(ctx).text.startswith("name: Desert Sun Car Rental. city: Reno.")
    assert "Monday: Saturday-Sunday" in read_context(ctx).text  # a schedule still is one
    r = evaltools.score(Q, ctx, "Desert Sun Car Rental is a car rental agency in Reno.")
    assert [(a.supported, a.absent) for a in r.anchors] == [(True, ())]
    bad = evaltools.score(Q, ctx, "Desert Moon Car Rental is a car rental agency in Reno.")
    assert [(a.supported, a.absent) for a in bad.anchors] == [(False, ("Moon",))]


def test_a_bracketed_apposition_is_not_denied_by_its_heads_negation():
    """"does not accept credit cards (cash or check only)": the apposition names what is
    taken; read as negated, the record's ``cash only: yes`` denied it and failed a faithful
    overview. Its own negation still counts."""
    ctx = _record(BusinessAcceptsCreditCards="False")
    said = "Harbor Paws does not accept credit cards (cash or check only)."
    ok = evaltools.score(Q, ctx, said)
    assert _claims(ctx, said) == [("Harbor Paws does not accept credit cards", True, None),
                                  ("credit cards (cash", True, None)]  # "cash only: yes"
    assert ok.verdict == "PASS" and not ok.verdict_inputs.record_denied
    bad = evaltools.score(Q, ctx, "Harbor Paws accepts credit cards.")
    assert bad.verdict_inputs.record_denied and bad.verdict == "FAIL"


@pytest.mark.parametrize(("value", "response", "expected"), [
    # by appointment only: "appointment required" means the same, "walk-in" the opposite
    ("False", "Appointments are not required.", (True, None)),
    ("True", "Appointments are not required.", (False, "record_yes")),
    ("False", "No appointment is needed.", (True, None)),
    ("True", "No appointment is needed.", (False, "record_yes")),
    ("True", "Appointments are required.", (True, None)),
    ("False", "Appointments are required.", (False, "record_no")),
])
def test_by_appointment_only_is_read_as_overviews_put_it(value, response, expected):
    (claim,) = _claims(_record(ByAppointmentOnly=value), response)
    assert claim[1:] == expected


@pytest.mark.parametrize(("attributes", "response", "expected"), [
    ({"GoodForKids": "True"}, "It is family-friendly.", (True, None)),
    ({"GoodForKids": "False"}, "It is family-friendly.", (False, "record_no")),
    ({"GoodForKids": "True"}, "It is suitable for kids.", (True, None)),
    ({"GoodForKids": "False"}, "It is suitable for kids.", (False, "record_no")),
    ({"DogsAllowed": "True"}, "Harbor Paws is pet-friendly.", (True, None)),
    ({"DogsAllowed": "False"}, "Harbor Paws is pet-friendly.", (False, "record_no")),
    ({"BusinessAcceptsCreditCards": "False"}, "It is cash only.", (True, None)),
    ({"BusinessAcceptsCreditCards": "True"}, "It is cash only.", (False, "record_no")),
    ({"OutdoorSeating": "True"}, "Harbor Paws offers patio seating.", (True, None)),
    ({"OutdoorSeating": "False"}, "Harbor Paws offers patio seating.", (False, "record_no")),
    ({"Caters": "True"}, "Harbor Paws offers catering.", (True, None)),
    ({"Caters": "False"}, "Harbor Paws offers catering.", (False, "record_no")),
])
def test_yes_no_keys_are_read_in_the_phrases_overviews_use(attributes, response, expected):
    (claim,) = _claims(_record(**attributes), response)
    assert claim[1:] == expected


def test_key_phrases_are_shipped_data_read_once():
    table = key_phrases()
    assert table["good for kids"][0][:2] == ("family-friendly", "child-friendly")
    assert table["business accepts credit cards"] == (("cards accepted",), ("cash only",))
    # each key as split_key reads a record's attribute name
    assert all(k == k.lower() and v[0] + v[1] for k, v in table.items())
    text = read_context(_record(ByAppointmentOnly="True")).text
    assert ("attributes by appointment only: yes. attributes appointment required: yes."
            in text and "attributes walk-in: no." in text)


def test_a_derivation_of_a_key_that_is_no_denies_an_affirmed_claim():
    # not in the shipped phrases: "delivers" is read as "delivery" (a derivation)
    ctx = json.dumps({"name": "Harbor Paws", "delivers": False, "grooms_cats": True})
    assert _claims(ctx, "Harbor Paws offers delivery.") == [
        ("Harbor Paws offers delivery", False, "record_no")]
    ctx = json.dumps({"name": "Harbor Paws", "delivers": True})
    assert _claims(ctx, "Harbor Paws offers delivery.") == [
        ("Harbor Paws offers delivery", True, None)]


def test_canadian_province_codes_name_their_province():
    ctx = json.dumps({"name": "Iron Den Gym", "city": "Edmonton", "state": "AB"})
    assert _claims(ctx, "Iron Den Gym is a gym in Edmonton, Alberta.")[-1] == (
        "Edmonton, Alberta", True, None)
    assert _claims(ctx, "Iron Den Gym is a gym in Edmonton, Ontario.")[-1] == (
        "Edmonton, Ontario", False, None)


def test_weekdays_with_the_same_hours_are_read_as_a_run():
    hours = {"Monday": "7:0-19:0", "Tuesday": "7:0-19:0", "Wednesday": "7:0-19:0",
             "Thursday": "7:0-19:0", "Friday": "7:0-15:0"}
    assert _runs(hours) == [("Monday–Thursday", "7:00–19:00")]
    assert _runs({"Mon": "9:0-17:0", "Wed": "9:0-17:0", "Fri": "9:0-17:0"}) == []
    ctx = json.dumps({"name": "Keystone Motion", "hours": hours})
    assert _claims(ctx, "Keystone Motion is open Monday–Thursday.")[0][1] is True
    assert _claims(ctx, "Keystone Motion is open Tuesday–Friday.")[0][1] is False


def test_markdown_headings_and_bold_labels_state_nothing_in_a_response():
    text = "**Harbor Paws – Overview**\n\n- **Hours:** 9-5\n### Concerns\n**Gina** is kind."
    read = _unmarkdown(text, titles=True)
    assert len(read) == len(text)
    assert read.split("\n") == [" " * 26, "", "-            9-5", " " * 12, "  Gina   is kind."]
    ctx = "Harbor Paws is a dog groomer in Tampa. Gina is kind."
    response = ("**Harbor Paws – Overview**\n\nHarbor Paws is a dog groomer in Tampa.\n\n"
                "- **What customers like:** Gina is kind.")
    assert _claims(ctx, response) == [
        ("Harbor Paws is a dog groomer in Tampa", True, None), ("Gina is kind", True, None)]
    # a bold name inside a sentence is read without its marks; the claim quotes the response
    # as written at its offsets
    assert _claims(ctx, "**Gina** is rude.") == [("Gina** is rude", False, None)]


def test_a_contexts_markdown_headings_keep_their_words():
    # a heading of a scraped page may hold the fact ("By Jane Roe, May 24, 2019")
    ctx = "# Nasdaq expands\n###### By Jane Roe, May 24, 2019\nNasdaq leased a floor."
    assert _unmarkdown(ctx).split("\n")[1] == "       By Jane Roe, May 24, 2019"
    result = evaltools.score("When did Nasdaq expand?", ctx, "Nasdaq expanded in May 2019.")
    assert [(a.kind, a.supported) for a in result.anchors if a.kind == "date"] == [
        ("date", True)]


@pytest.mark.parametrize(("response", "expected"), [
    ("It is kid-friendly but not well suited to groups.", (True, None)),
    ("It is kid-friendly and well suited to groups.", (False, "record_no")),
])
def test_not_on_an_adverb_of_degree_negates_the_word_it_modifies(response, expected):
    # after a first sentence the parser hangs "not" on "well", not on "suited"
    ctx = _record(RestaurantsGoodForGroups="False", GoodForKids="True", NoiseLevel="u'quiet'")
    claims = _claims(ctx, "The noise level is quiet. " + response)
    assert claims[-1][1:] == expected


def test_a_compounds_light_part_carries_no_polarity_of_its_own():
    # "dog-friendly: no" denies dogs, not that anyone is friendly
    ctx = json.dumps({"name": "Harbor Paws", "attributes": {"DogsAllowed": "False"},
                      "review_info": [{"review_text": "Maria at the desk was so friendly."}]})
    assert _claims(ctx, "Maria is described as friendly.") == [
        ("Maria is described as friendly", True, None)]
    assert _claims(ctx, "Harbor Paws is dog-friendly.") == [
        ("Harbor Paws is dog-friendly", False, "record_no")]


@pytest.mark.parametrize(("response", "supported"), [
    ("The bouquets came in under a $2,200 budget.", True),   # the budget is $2,200
    ("The bouquets came in under a $2,500 budget.", False),
    ("The bouquets cost under $2,200.", False),              # less than $2,200: not stated
])
def test_a_qualifier_before_an_article_qualifies_the_noun_not_the_amount(response, supported):
    ctx = ("Our wedding budget for flowers was $2,200 and the bouquets were stunning. "
           "They cost $2,200 in total.")
    (money,) = [a for a in evaltools.score(Q, ctx, response).anchors if a.kind == "number"]
    assert money.supported is supported


@pytest.mark.parametrize(("value", "response", "expected"), [
    # "welcome" with a noun subject states a policy the record may deny
    ("True", "Dogs are welcome on the patio.", [("Dogs are welcome", True, None)]),
    ("False", "Dogs are welcome on the patio.", [("Dogs are welcome", False, "record_no")]),
    ("False", "Pets are welcome.", [("Pets are welcome", False, "record_no")]),
    # what is allowed "on the patio" is the dogs, not the patio
    ("True", "Dogs are allowed on the patio.",
     [("Dogs are allowed on the patio", True, None)]),
    ("False", "Dogs are allowed on the patio.",
     [("Dogs are allowed on the patio", False, "record_no")]),
    ("True", "Dogs are not allowed on the patio.",
     [("Dogs are not allowed on the patio", False, "record_yes")]),
])
def test_a_policy_said_with_welcome_or_allowed_somewhere_is_read_against_the_record(
        value, response, expected):
    assert _claims(_record(DogsAllowed=value, OutdoorSeating="True"), response) == expected


def test_welcome_with_a_person_as_subject_is_still_a_courtesy():
    # "you are welcome" states nothing a record holds: no claim, as before
    assert _claims(_record(DogsAllowed="False"), "You are welcome.") == []



@pytest.mark.parametrize(("negated", "affirmed"), [
    ("Harbor Paws sees walk-ins without an appointment.",
     "Harbor Paws sees walk-ins with an appointment."),
    ("Harbor Paws is noted for the lack of dinner hours.",
     "Harbor Paws is noted for the dinner hours."),
])
def test_a_word_the_claim_itself_negates_is_not_denied_by_the_records_no(negated, affirmed):
    # ByAppointmentOnly and GoodForMeal's dinner are "no": "without an appointment" and "the
    # lack of dinner hours" say so; the same words affirmed are denied by the record
    ctx = _record(ByAppointmentOnly="False", GoodForMeal="{'dinner': False, 'lunch': True}")
    assert [c for _, _, c in _claims(ctx, negated)] == [None]
    assert [c for _, _, c in _claims(ctx, affirmed)] == ["record_no"]


def _reviewed(review: str, **attributes) -> str:
    return json.dumps({"name": "Harbor Paws", "city": "Tampa", "state": "FL",
                       "attributes": attributes,
                       "review_info": [{"review_stars": 5.0, "review_date": "2021-01-02",
                                        "review_text": review}]})


@pytest.mark.parametrize(("attributes", "response", "expected"), [
    # the key's words are what "no" denies ...
    ({"RestaurantsTableService": "False"}, "Harbor Paws offers table service.",
     (False, "record_no")),
    ({"CashOnly": "False", "WiFi": "u'free'"}, "Harbor Paws is cash only.",
     (False, "record_no")),
    # ... not one of its function words ("only" of "cash only: no")
    ({"CashOnly": "False", "WiFi": "u'free'"}, "It has free Wi-Fi and street parking only.",
     (True, None)),
])
def test_a_keys_function_word_is_not_denied_by_its_no(attributes, response, expected):
    ctx = _reviewed("The owner, George, came by to ask how everything was.", **attributes)
    (claim,) = _claims(ctx, response)
    assert claim[1:] == expected



def _business(stars: float, review_stars: list[float], **attributes) -> str:
    return json.dumps({"name": "Harbor Paws", "city": "Tampa", "state": "FL",
                       "attributes": attributes, "business_stars": stars,
                       "review_info": [{"review_stars": s, "review_date": "2023-01-0"
                                        f"{k + 1} 10:00:00", "review_text": text}
                                       for k, (s, text) in enumerate(zip(
                                           review_stars,
                                           ("Cute concept but Friday night was chaotic. "
                                            "Every table was full with a big group and "
                                            "there's no way to reserve so we waited about "
                                            "35 min. Once we sat down it was fun.",
                                            "Great latte and the comic selection is great "
                                            "tho. Thursday night they had a trivia thing "
                                            "and it got packed, hard to find a seat.",
                                            "Staff were kind."), strict=False))]})


@pytest.mark.parametrize(("response", "supported"), [
    ("Harbor Paws has a 4.0-star rating.", False),      # 4.0 is a review's; the record's 3.5
    ("Harbor Paws holds a 3.5-star rating.", True),
    ("It is rated 4.0 out of 5.", False),
    ("One reviewer gave it 4.0 stars.", True),          # a review's rating: the review's 4.0
    ("Reviews range from 4.0 to 5.0 stars.", True),
])
def test_a_rating_is_the_records_own_unless_its_sentence_names_a_review(response, supported):
    ctx = _business(3.5, [4.0, 5.0])
    r = evaltools.score(Q, ctx, response)
    numbers = [a for a in r.anchors if a.kind == "number" and a.counted]
    assert numbers and numbers[0].supported is supported
    if not supported:
        assert numbers[0].note == ("the record's own rating is 3.5 (a review's rating is "
                                   "one reviewer's)")


def test_a_rating_without_the_records_own_is_read_by_value():
    # no business_stars: a review's 4.0 may stand for it, as before
    ctx = json.dumps({"name": "Harbor Paws", "review_info": [
        {"review_stars": 4.0, "review_date": "2023-01-01 10:00:00", "review_text": "Fine."}]})
    r = evaltools.score(Q, ctx, "Harbor Paws has a 4.0-star rating.")
    assert [a.supported for a in r.anchors if a.kind == "number"] == [True]


@pytest.mark.parametrize(("attributes", "denied"), [
    ({"RestaurantsTakeOut": "True", "RestaurantsDelivery": "False"}, "delivery"),
    ({"RestaurantsTakeOut": "False", "RestaurantsDelivery": "True"}, None),  # the focus: "it"
    ({"RestaurantsTakeOut": "True", "RestaurantsDelivery": "True"}, ""),
])
def test_each_noun_of_a_conjoined_subject_is_read_against_the_record(attributes, denied):
    r = evaltools.score(Q, _record(**attributes), "Takeout and delivery are offered.")
    claim = next(a for a in r.anchors if a.kind == "claim")
    if denied == "":
        assert claim.supported and claim.contradiction is None
    else:
        assert (claim.supported, claim.contradiction) == (False, "record_no")
        assert claim.note.endswith(f"a record's 'no' negates '{denied}'" if denied
                                   else "a record's 'no' negates it")
