"""Verdict false alarms, second round: chat turns, paraphrase, codes and short forms, claims
echoing the query. One supported and one unsupported case each, through the one scorer
(reader, matcher, claims, grounding, verdict), and the formulas hand-computed."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.config import load_config
from evaltools.errors import ConfigError
from evaltools.scoring.matcher import (
    SentenceIndex,
    abbreviations,
    paraphrases,
    rarity,
    token_key,
    words_of,
)
from evaltools.scoring.relevance import is_chat_turn
from evaltools.text import load_pipeline

U = math.log(1.5) + 1  # the smoothed idf of a token one of the two texts holds


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


# ------------------------------------------------------------ chat turns

def test_chat_turn_kinds(nlp):
    kinds = [is_chat_turn(nlp(q), False) for q in (
        "yes I like to watch that some times", "I didn't know that. What does it do?",
        "How much is the Yeti mug?", "Yeti mug price", "", "Have you been there?")]
    assert kinds == ["statement", "question", "", "", "statement", "question"]


def test_chat_statement_relevance_measured_with_the_context():
    ctx = "Tea is a drink."
    ok = evaltools.score("i love it!", ctx, "Tea is a drink.")
    # hand-computed: reference = Q + C tokens = [love, tea, drink], response [tea, drink];
    # idf fitted on the pair: love u, tea 1, drink 1 -> cos = 2 / (sqrt(u^2 + 2) * sqrt(2));
    # Jaccard = 2/3; the spec's value (Q alone: [love]) is 0
    cos = 2 / (math.sqrt(U * U + 2) * math.sqrt(2))
    assert ok.relevance == pytest.approx((cos + 2 / 3) / 2)
    assert ok.verdict == "PASS"
    assert any("query and the context together" in r for r in ok.reasons)
    bad = evaltools.score("i love it!", ctx, "My cat sleeps on the sofa all day.")
    assert bad.relevance == 0.0 and bad.verdict == "FAIL"
    letter = evaltools.score("i love it!", ctx, "Tea is a drink.",
                             config=load_config().replace(relevance={"chat_turn": "query",
                                                                     "waive_at_support": 0.0}))
    assert letter.relevance == 0.0 and letter.verdict == "FAIL"
    assert letter.reasons[0].startswith("relevance")
    with pytest.raises(ConfigError, match="chat_turn"):
        load_config().replace(relevance={"chat_turn": "always"})


def test_chat_statement_is_not_warned_for_completeness():
    ctx = "Gardening is considered by many people to be a relaxing activity."
    r = evaltools.score("I like gardening in my small yard.", ctx,
                        "Many people consider gardening relaxing.")
    assert r.completeness < 0.6 and r.verdict == "PASS"
    assert any("completeness not applied" in x for x in r.reasons)
    # a question about a thing keeps the spec's completeness
    q = evaltools.score("Is gardening relaxing in a small yard?", ctx,
                        "Many people consider gardening relaxing.")
    assert q.verdict == "WARN"


def test_empty_query_is_an_opening_turn():
    ctx = "Horses have been domesticated since 4000 BC."
    ok = evaltools.score("", ctx, "Horses have been domesticated since 4000 BC.")
    assert ok.verdict == "PASS"
    bad = evaltools.score("", ctx, "Horses were first tamed in 1200 AD in Peru.")
    assert bad.verdict == "FAIL"


# ------------------------------------------------------------ paraphrase

def test_paraphrase_table_from_wordnet():
    p = paraphrases()
    assert "death" in p["fatality"] and "fatality" in p["death"]
    assert "purchase" in p["buy"] and "buy" in p["purchase"]
    assert "sedan" in p["car"] and "car" not in p.get("sedan", ())  # direction kept


def test_paraphrase_supports_claims_and_earns_its_credit(nlp):
    ctx = "The crash caused three deaths. Acme purchased the plant in 2019."
    ok = evaltools.score("Summarise the news.", ctx, "Acme bought the plant in 2019.")
    assert ok.anchors_unsupported == 0 and ok.verdict == "PASS"
    bad = evaltools.score("Summarise the news.", ctx, "Acme demolished the plant in 2019.")
    assert bad.anchors_unsupported == 1
    storm = "The storm caused many deaths in the harbour town."
    said = "The storm caused fatalities."
    assert evaltools.score("Summarise the news.", storm, said).anchors_unsupported == 0
    off = evaltools.score("Summarise the news.", storm, said,
                          config=load_config().replace(grounding={"paraphrase": False}))
    assert off.anchors_unsupported == 1
    # grounding, hand-computed: "Fatalities rose." against "Deaths rose.": fatality is
    # found only as a paraphrase (credit 0.8), rise exactly (credit 1)
    g = evaltools.score("Summarise the news.", "Deaths rose.", "Fatalities rose.")
    wf, wr = rarity("fatality"), rarity("rise")
    assert g.support == pytest.approx((0.8 * wf + wr) / (wf + wr))
    half = evaltools.score("Summarise the news.", "Deaths rose.", "Fatalities rose.",
                           config=load_config().replace(grounding={"paraphrase_credit": 0.5}))
    assert half.support == pytest.approx((0.5 * wf + wr) / (wf + wr))
    more_specific = evaltools.score("Summarise the news.", "Acme sold a car.",
                                    "Acme sold a sedan.")
    assert more_specific.anchors_unsupported == 1


# ------------------------------------------------------------ codes and short forms

def test_codes_and_short_forms_are_data():
    t = abbreviations()
    assert (t["us_states"]["ca"], t["countries"]["de"], t["units"]["km"],
            t["months"]["Sept"]) == ("california", "germany", "kilometer", "september")


def test_state_and_country_codes_match_their_names(nlp):
    ctx = '{"name": "Blue Door Cafe", "state": "CA", "country": "DE"}'
    ok = evaltools.score("Describe this business.", ctx,
                         "Blue Door Cafe is in California.")
    assert ok.support == 1.0
    bad = evaltools.score("Describe this business.", ctx, "Blue Door Cafe is in Texas.")
    assert bad.support < 1.0
    idx = SentenceIndex(nlp("It ships from New York and from Germany."))
    (ny,) = [w for w in words_of(nlp("NY")) if w.content]
    assert idx.locate(ny) == (3,)  # "New" of "New York"
    (de,) = [w for w in words_of(nlp("DE")) if w.content]
    assert idx.locate(de) == (7,)
    # the other way: a name found as a code only when the code is written in capitals
    (cal,) = [w for w in words_of(nlp("California")) if w.content]
    assert SentenceIndex(nlp("Based in CA.")).locate(cal) == (2,)
    assert SentenceIndex(nlp("about 40 ca. per day")).locate(cal) == ()


def test_units_and_months_share_a_key(nlp):
    assert [token_key(t) for t in nlp("5 km, 5 kilometres, 3 lbs, Sept")] == [
        "5", "kilometer", "", "5", "kilometer", "", "3", "pound", "", "september"]
    assert [token_key(t) for t in nlp("The SEC said")][1] == "sec"  # a name, not seconds


def test_reviewers_short_forms_are_their_long_forms_in_lower_case_only(nlp):
    assert [token_key(t) for t in nlp("The sims, my bday appt, Mr Sims")] == [
        "the", "simulator", "", "my", "birthday", "appointment", "", "mr", "sims"]
    ctx = ('{"name": "Back Nine", "review_info": [{"review_text": "The Trackman sims are '
           'accurate."}]}')
    ok = evaltools.score("Describe this business.", ctx,
                         "A reviewer found the Trackman simulators accurate.")
    assert [a.supported for a in ok.anchors if a.kind == "claim"] == [True]
    bad = evaltools.score("Describe this business.", ctx,
                          "A reviewer found the Trackman putting greens accurate.")
    assert [a.supported for a in bad.anchors if a.kind == "claim"] == [False]


def test_a_restroom_is_a_bathroom_both_ways():
    """WordNet files a restroom as a kind of toilet: a review's "Bathroom is a porta-potty"
    did not support an overview's "the restroom is a porta-potty"."""
    assert "bathroom" in paraphrases()["restroom"] and "restroom" in paraphrases()["bathroom"]
    ctx = "Bathroom is a porta-potty by the barn."
    ok = evaltools.score("Summarise the review.", ctx, "The restroom is a porta-potty.")
    assert [a.supported for a in ok.anchors] == [True]
    bad = evaltools.score("Summarise the review.", ctx, "The kitchen is a porta-potty.")
    assert [a.supported for a in bad.anchors] == [False]


# ------------------------------------------------------------ claims that echo the query

def test_claim_echoing_the_query_is_not_counted():
    ctx = "The tower opened in 1889 and is 330 metres tall."
    q = "I heard the Eiffel Tower is in Paris."
    echo = evaltools.score(q, ctx, "The Eiffel Tower is in Paris.")
    (claim,) = [a for a in echo.anchors if a.kind == "claim"]
    assert not claim.supported and not claim.counted
    assert "restated from the query" in claim.note and echo.claims_score == 0.0
    new = evaltools.score(q, ctx, "The Eiffel Tower is in Lyon.")
    (claim,) = [a for a in new.anchors if a.kind == "claim"]
    assert not claim.supported and claim.counted and new.claims_score == 1.0
    # a question states nothing: the answer that turns its words into a claim claims them
    asked = evaltools.score("Is the Eiffel Tower in Paris?", ctx, "The Eiffel Tower is in Paris.")
    (claim,) = [a for a in asked.anchors if a.kind == "claim"]
    assert claim.counted and asked.claims_score == 1.0


# ------------------------------------------------------------ escaped and tokenised quotes

def test_escaped_quotes_are_read_as_quotes():
    ctx = "The union's members voted to strike on Monday."
    ok = evaltools.score("Summarise the news.", ctx,
                         "the union\\'s members voted to strike on monday.")
    assert ok.support == 1.0 and ok.anchors_unsupported == 0
    bad = evaltools.score("Summarise the news.", ctx,
                          "the union\\'s members voted to resign on friday.")
    assert bad.support < 1.0 and bad.anchors_unsupported >= 1
    quoted = evaltools.score("Summarise the news.", ctx,
                             "the union ``voted to strike''on monday.")
    assert quoted.anchors_unsupported == 0 and quoted.unsupported_spans == ()


# ------------------------------------------------------------ triples

def test_triples_read_with_their_predicates_as_words():
    ctx = "Chinabank | numberOfLocations | 295\nChinabank | foundingDate | 1920-08-16"
    ok = evaltools.score("Describe the facts in this record.", ctx,
                         "Chinabank has 295 locations.")
    (claim,) = [a for a in ok.anchors if a.kind == "claim"]
    assert claim.supported and ok.support == 1.0
    bad = evaltools.score("Describe the facts in this record.", ctx,
                          "Chinabank has 295 employees.")
    assert bad.support < 1.0
    raw = evaltools.score("Describe the facts in this record.", ctx,
                          "Chinabank has 295 locations.",
                          config=load_config().replace(context={"read_json": False}))
    assert raw.support < 1.0  # "numberOfLocations" read as one word


def test_tables_ship_in_the_package_and_load_without_a_network(monkeypatch):
    import socket
    from importlib.resources import files

    from evaltools.scoring import matcher

    data = files("evaltools.scoring").joinpath("data")
    for name in ("paraphrases.json", "abbreviations.json", "WORDNET_LICENSE.txt"):
        assert data.joinpath(name).is_file(), name
    assert "Princeton University" in data.joinpath("WORDNET_LICENSE.txt").read_text()

    def no_network(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    for loader in (matcher.paraphrases, matcher.abbreviations, matcher._codes):
        loader.cache_clear()
    assert len(matcher.paraphrases()) > 10_000
    assert matcher.abbreviations()["us_states"]["tx"] == "texas"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab '\"`\\\n|_xY.")), max_size=60))
def test_quote_reading_keeps_every_offset_and_triples_never_crash(text):
    from evaltools.scoring.context import read_triples, unescape_quotes, unmark

    assert len(unescape_quotes(text)) == len(text)
    assert len(unmark(text)) == len(text)
    out = read_triples(text)
    assert out is None or out.count("\n") == len([x for x in text.splitlines() if x.strip()]) - 1
