"""The reader and the word matcher: one supported and one unsupported pair per rule."""

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.scoring.context import MAX_DEPTH, flatten_json, read_context, split_key
from evaltools.scoring.matcher import SentenceIndex, fold, is_content, rarity, words_of
from evaltools.text import load_pipeline


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def unsupported_words(nlp, response: str, context: str) -> list[str]:
    """The response's content words that the (read) context does not hold."""
    index = SentenceIndex(nlp(read_context(context).text))
    return [w.text for w in words_of(nlp(response)) if w.content and not index.find(w)]


# (rule, context, response found in it, response not found in it)
PAIRS = [
    ("case", "The YETI Rambler ships free.", "yeti rambler", "hydro flask"),
    ("lemma", "The bottles leaked twice.", "a bottle leaks", "a bottle cracks"),
    ("accent", "Visit the cafe on Main Street.", "the café", "the bistro"),
    ("accent, reversed", "Visit the café on Main Street.", "the cafe", "the bistro"),
    ("hyphen", "Send us an email today.", "an e-mail", "a letter"),
    ("hyphen, reversed", "Send us an e-mail today.", "an email", "a letter"),
    ("percent sign", "The loan costs 5 percent a year.", "5 %", "5 dollars"),
    ("degree sign", "It was 72 degrees outside.", "72 °F", "72 meters"),
    ("weekday abbreviation", "Closed on Tuesday.", "closed Tues", "closed Wednesday"),
    ("JSON value", '{"name": "Blue Door Cafe", "city": "Leeds"}', "Blue Door in Leeds",
     "Blue Door in York"),
    ("JSON CamelCase key", '{"BusinessAcceptsCreditCards": true}', "accepts credit cards",
     "accepts cheques"),
    ("JSON snake_case key", '{"outdoor_seating": true}', "outdoor seating", "indoor seating"),
    ("JSON boolean", '{"delivery": false}', "delivery: no", "delivery: maybe"),
    ("JSON compact time", '{"hours": {"Mon": "9:0-17:30"}}', "9:00", "10:00"),
    ("JSON weekday abbreviation", '{"hours": {"Fri": "9:0-17:0"}}', "Friday", "Thursday"),
    ("JSON embedded as a string", json.dumps(json.dumps({"cuisine": "Thai"})), "Thai cuisine",
     "Greek cuisine"),
    ("JSON Python literal", '{"Parking": "{\'garage\': True}"}', "a garage", "a driveway"),
    ("abbreviation periods", "She moved to the U.S. in 1990.", "the US", "the UK"),
    ("abbreviation periods, reversed", "She moved to the US in 1990.", "the U.S.", "the U.K."),
    ("initials of a name", "Chelsea joined the National Football League.", "the NFL",
     "the NBA"),
    ("initials past of/and/the", "He works for the Department of Defense.", "the DOD",
     "the DOE"),
    ("initials in a lower-case text", "presley had a hit in the united states.",
     "a hit in the US", "a hit in the UK"),
    ("contraction written apart", "They know the band.", "they don ' t know it ' s the band",
     "they don ' t hate the band"),
]


@pytest.mark.parametrize(("rule", "context", "found", "missing"), PAIRS,
                         ids=[p[0] for p in PAIRS])
def test_each_rule_supports_one_and_not_the_other(nlp, rule, context, found, missing):
    assert unsupported_words(nlp, found, context) == []
    assert unsupported_words(nlp, missing, context) != []


def test_initials_need_capitalised_content_words(nlp):
    # "used since" spells U, S but is no name; in a text with capitals, names are capitalised
    index = SentenceIndex(nlp("The term was used since 1990. The United States agreed."))
    (us,) = [w for w in words_of(nlp("The US agreed.")) if w.text == "US"]
    assert index.locate(us) == (7,)  # "United", the 8th word; not "used", the 4th
    assert index.expansions("us") == (7,) and index.expansions("tu") == ()


def test_an_index_answers_a_word_as_written_whatever_was_asked_before(nlp):
    # one context's index serves every response about it; "usa" in lower case is no code,
    # "USA" is the United States, so asking the one first must not answer the other
    text = "It first developed in the united states. We paid out fast."
    (lower,) = [w for w in words_of(nlp("made in the usa")) if w.key == "usa"]
    (upper,) = [w for w in words_of(nlp("made in the USA")) if w.key == "usa"]
    assert lower.forms == upper.forms  # the same key: only the writing tells them apart
    fresh = SentenceIndex(nlp(text))
    assert fresh.code_positions(upper) == (5,) and fresh.find(upper) == frozenset({0})
    shared = SentenceIndex(nlp(text))
    assert shared.code_positions(lower) == () and shared.find(lower) == frozenset()
    assert shared.code_positions(upper) == (5,) and shared.find(upper) == frozenset({0})
    # a noun is also found where the phrasal verb it is written from stands ("paid out"
    # for "payout", positions 8 and 9); a verb of the same key is not
    (noun,) = [w for w in words_of(nlp("The payout was fast.")) if w.key == "payout"]
    verb = dataclasses.replace(noun, pos="VERB")
    shared = SentenceIndex(nlp(text))
    assert shared.derived_positions(verb) == ()
    assert shared.derived_positions(noun) == (8, 9)
    assert SentenceIndex(nlp(text)).derived_positions(noun) == (8, 9)


def test_a_score_does_not_depend_on_what_was_scored_before():
    from evaltools.scoring.scorer import ResponseScorer

    context = ("the scope of the role varies widely across the world, having originally "
               "developed as a paraprofession in the united states during the 1970s.")
    query, response = "true, not in yours?", "It was developed in the USA."
    alone = ResponseScorer().score(query, context, response).to_dict()
    after = ResponseScorer()
    after.score(query, context, "it is developed in the usa")
    assert after.score(query, context, response).to_dict() == alone
    assert [a["supported"] for a in alone["anchors"]] == [True]
    assert alone["unsupported_spans"] == []


def test_a_tokens_kept_key_is_its_key_read_afresh(nlp):
    # token_key keeps the key of a token whose neighbours do not count; a token whose
    # neighbours do (F after a degree sign, a street's Dr, a capitalised name) is read
    # afresh each time, so the same word asked first elsewhere gives its own key here
    from evaltools.scoring import matcher

    texts = ["Dr Ruiz said the F grade was fair.", "5530 Airline Dr, 72 °F, Maple Ct.",
             "The Cafes and Bakeries, by Georges Herpin.", "cafes, bakeries and taxes",
             "Open Mondays 9 a.m. to 5 p.m. at 1250 S Broadway, Ste 104, 5 km away.",
             "I saw the saw that she leaves on the leaves."]
    docs = [nlp(t) for t in texts]
    for doc in (*docs, *reversed(docs)):
        for t in doc:
            assert matcher.token_key(t) == matcher._key(t, t.text, t.lemma_, t.pos_,
                                                        t.is_space), t.text
    keys = {(t.text, t.i): matcher.token_key(t) for t in docs[1]}
    assert keys[("Dr", 2)] == "drive" and keys[("F", 6)] == ""
    assert [matcher.token_key(t) for t in docs[0]][:2] == ["dr", "ruiz"]
    assert [matcher.token_key(t) for t in docs[-1] if t.text == "saw"] == ["see", "saw"]


def test_acronym_and_clitic_tokens(nlp):
    from evaltools.scoring.matcher import is_acronym

    assert [is_acronym(t) for t in ("US", "U.S.", "NASA", "I", "Ok", "Us", "ABCDEF")] == [
        True, True, True, False, False, False, False]
    # periods go where a capital shows an abbreviation; "a.m." is not "am"
    from evaltools.scoring.matcher import token_key

    keys = {t.text: token_key(t) for t in nlp("At 9 a.m. the U.S. team met Dr. Ph.D. Smith.")}
    assert (keys["U.S."], keys["Dr."], keys["Ph.D."], keys["a.m."]) == ("us", "dr", "phd", "a.m.")
    # "US" the country is a content word although "us" is a stop word; the pronoun is not
    doc = nlp("The US told us. I ' m sure they didn ' t leave.")
    assert [t.text for t in doc if is_content(t)] == ["US", "told", "sure", "leave"]


def test_fold():
    assert fold("Café") == "cafe"
    assert fold("e-mail") == fold("email") == "email"
    assert fold("O’Neill") == fold("ONeill") == "oneill"
    assert fold("ÉCOLE") == "ecole"


def test_read_context_flattens_records():
    text = read_context(json.dumps({
        "name": "Blue Door", "isOpen": True, "rating": 4.5, "phone": None,
        "tags": ["quiet", "wifi"],
        "hours": {"Mon": "9:0-17:30", "Sun": ""}, "reviews": [{"stars": 5}, {"stars": 3}],
    })).text
    assert text == ("name: Blue Door. is open: yes. rating: 4.5. tags: quiet, wifi. "
                    "hours open Monday: 9:00–17:30. reviews stars rating: 5. "
                    "reviews stars rating: 3.")


def test_plain_text_and_broken_json_are_read_as_given():
    for text in ("Open daily, 9-5.", "{not json", "[1, 2", "", "  ", '"just a string"',
                 "42", "{}"[:1]):
        r = read_context(text)
        assert r.text == text and not r.structured
    assert read_context('{"a": true}', read_json=False).text == '{"a": true}'


def test_nesting_is_bounded():
    deep = {"k": "v"}
    for _ in range(MAX_DEPTH + 5):
        deep = {"level": deep}
    assert "v" not in flatten_json(deep).split(": ")[-1:]  # the deepest value is not read
    assert read_context("[" * 100000 + "]" * 100000).structured is False  # too deep to parse


def test_split_key():
    assert split_key("BusinessAcceptsCreditCards") == "business accepts credit cards"
    assert split_key("opening_hours") == "opening hours"
    assert split_key("drive-thru") == "drive thru"
    assert split_key("Tues") == "Tuesday"


def test_content_words_and_rarity(nlp):
    doc = nlp("The company offers Formaldehyde filters for 3 rooms.")
    assert [t.text for t in doc if is_content(t)] == [
        "company", "offers", "Formaldehyde", "filters", "3", "rooms"]
    # generic words weigh little, rare words and numbers much
    assert rarity("the") < 0.05
    assert rarity("offer") < 0.5 and rarity("company") < 0.5
    assert rarity("formaldehyde") > 0.6
    assert rarity("3") == rarity("zzyzxq") == 1.0


def test_rarity_needs_no_download(monkeypatch):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("network access")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    rarity.cache_clear()
    assert 0.0 < rarity("espresso") < 1.0


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=3)
                    | st.dictionaries(st.text(max_size=6), kids, max_size=3), max_leaves=12))
def test_any_json_reads_without_error(data):
    text = json.dumps(data)
    r = read_context(text)
    assert isinstance(r.text, str) and r.source == text
    assert r.text == read_context(text).text
