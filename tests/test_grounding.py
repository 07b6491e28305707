"""Grounding: support and unsupported spans, hand-computed, and their invariants."""

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools import score
from evaltools.config import DEFAULT_CONFIG as DEFAULT
from evaltools.highlight import case_html, highlight_html
from evaltools.scoring.anchors.mentions import find_mentions
from evaltools.scoring.grounding import grounding_score
from evaltools.scoring.matcher import SentenceIndex, sentence_spans, words_of
from evaltools.scoring.probability import load_calibration
from evaltools.text import load_pipeline


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def grounded(nlp, response, context, **kw):
    r, c = nlp(response), nlp(context)
    return grounding_score(r.text, words_of(r), find_mentions(r.text), sentence_spans(r),
                           SentenceIndex(c), find_mentions(c.text), **kw)


def test_equal_weights_count_content_words(nlp):
    # power 0: every content word weighs 1. Paris, capital found; Spain not: 2 of 3.
    g = grounded(nlp, "Paris is the capital of Spain.", "Paris is the capital of France.",
                 power=0.0)
    assert g.support == pytest.approx(2 / 3)
    (span,) = g.unsupported_spans
    assert (span.text, span.start, span.end, span.weight) == ("Spain", 24, 29, 1.0)
    assert span.closest == "Paris is the capital of France."
    assert (span.closest_start, span.closest_end) == (0, 31)


def test_rare_words_weigh_more(nlp):
    # one generic and one rare word missing, each in an otherwise supported response
    ctx = "The Dyson purifier removes formaldehyde from the room."
    generic = grounded(nlp, "The Dyson purifier removes formaldehyde from the office.", ctx)
    rare = grounded(nlp, "The Dyson purifier removes benzene from the room.", ctx)
    assert rare.support < generic.support < 1.0


def test_nothing_to_check_is_fully_supported(nlp):
    assert grounded(nlp, "Yes, it is.", "Nothing here.").support == 1.0
    assert grounded(nlp, "", "Nothing here.").unsupported_spans == ()


def test_empty_context_supports_nothing(nlp):
    g = grounded(nlp, "The mug costs $5.", "")
    assert g.support == 0.0
    assert [s.text for s in g.unsupported_spans] == ["mug costs $5"]
    assert g.unsupported_spans[0].closest is None


def test_facts_from_two_context_sentences_earn_the_scattered_credit(nlp):
    ctx = "Anna lives in Leeds. Her brother Tom lives in York."
    full = grounded(nlp, "Anna lives in York.", ctx, power=0.0)
    half = grounded(nlp, "Anna lives in York.", ctx, power=0.0, scattered_credit=0.5)
    assert full.support == 1.0
    # Anna, live in sentence 0 (the closest); York only in sentence 1: (1 + 1 + 0.5) / 3
    assert half.support == pytest.approx(2.5 / 3)


def test_neighbours_must_stay_neighbours(nlp):
    ctx = "Tom Smith met Anna Barman in Paris."
    kept = grounded(nlp, "Anna Barman met Tom Smith.", ctx, power=0.0, adjacency_window=2,
                    adjacency_credit=0.5)
    mixed = grounded(nlp, "Tom Barman met Anna Smith.", ctx, power=0.0, adjacency_window=2,
                     adjacency_credit=0.5)
    assert kept.support == 1.0
    # Barman is 3 words from Tom in the context (1 in the response, window 2: 3 allowed) -> ok;
    # Smith is 4 words from Anna (1 + 2 = 3 allowed) -> 0.5: (1 + 1 + 1 + 1 + 0.5) / 5
    assert mixed.support == pytest.approx(4.5 / 5)


def test_a_derivation_earns_the_derived_credit(nlp):
    # "located" is held only as "location" (a shared 6-letter prefix, 2 letters left over)
    ctx = "The museum's location is Paris."
    full = grounded(nlp, "The museum is located in Paris.", ctx, power=0.0)
    half = grounded(nlp, "The museum is located in Paris.", ctx, power=0.0, derived_credit=0.5)
    none = grounded(nlp, "The museum is located in Paris.", ctx, power=0.0, derived_credit=0.0)
    assert full.support == 1.0 and full.unsupported_spans == ()
    # museum 1 + located 0.5 + Paris 1, of 3
    assert half.support == pytest.approx(2.5 / 3)
    assert none.support == pytest.approx(2 / 3)
    assert [s.text for s in none.unsupported_spans] == ["located"]
    # a word that merely starts alike is no derivation: "present" / "president"
    other = grounded(nlp, "The museum is present in Paris.", "The president of Paris.",
                     power=0.0)
    assert [s.text for s in other.unsupported_spans] == ["museum is present"]


@pytest.mark.parametrize(("context", "response"), [
    ('{"name": "Blue Door", "hours": {"Mon": "9:0-17:30"}}',
     "Blue Door's hours on Monday are 9:00 to 17:30."),
    ("It was 72 degrees in the shade.", "It was 72 °F in the shade."),
    ("Send an e-mail to the café.", "Send an email to the cafe."),
    ("Returns accepted within 30 days.", "Returns are accepted within thirty days."),
])
def test_rules_of_the_matcher_reach_support(context, response):
    r = score("", context, response)
    assert r.support == 1.0 and r.unsupported_spans == ()


def test_a_number_read_from_the_same_characters(nlp):
    # the context's "Collins.51" hides the number from the number reader: the text decides
    g = grounded(nlp, "51 Birch Street", "Directed by Collins.51 Birch Street is a film.")
    assert g.support == 1.0


def test_reasons_name_unsupported_spans_even_on_pass():
    r = score("What does the cafe serve?", "The cafe serves espresso and cakes.",
              "The cafe serves espresso and cakes every morning.")
    assert r.verdict == "PASS"
    assert any(x.startswith("unsupported spans (support") and "“morning”" in x for x in r.reasons)


def test_output_fields():
    d = score("", "The mug costs $5.", "The mug costs $5 and is blue.").to_dict()
    assert list(d)[list(d).index("anchors") + 1:][:2] == ["support", "unsupported_spans"]
    span = d["unsupported_spans"][0]
    assert d["unsupported_spans"] == [{"text": "blue", "start": 24, "end": 28,
                                       "weight": span["weight"],
                                       "closest": "The mug costs $5.", "closest_start": 0,
                                       "closest_end": 17, "probability": span["probability"],
                                       "hallucinated": span["hallucinated"]}]
    # "blue" alone is an everyday word (Zipf 5.1 >= grounding.span_lone_word_zipf, 4):
    # never reported as hallucinated; with that rule off, the threshold and the gate decide
    assert span["hallucinated"] is False
    off = DEFAULT.replace(grounding={"span_lone_word_zipf": 0.0})
    d = score("", "The mug costs $5.", "The mug costs $5 and is blue.", config=off).to_dict()
    span = d["unsupported_spans"][0]
    p_record = load_calibration().probability(d)
    assert span["hallucinated"] == (span["probability"] >= DEFAULT.grounding.span_threshold
                                    and p_record >= DEFAULT.grounding.span_record_gate)
    assert 0.0 < span["probability"] < 1.0


def test_unsupported_runs_a_few_words_apart_are_one_span():
    q, c = "", "The author won an award in 2001."
    r = "The author won the Hugo award for best novel in 2019."
    spans = [s.text for s in score(q, c, r).unsupported_spans]
    # "Hugo" and "best novel in 2019": 2 words apart ("award for") within one sentence
    assert spans == ["Hugo award for best novel in 2019"]
    cfg = DEFAULT.replace(grounding={"span_merge_words": 0})
    # unmerged: "award" (in the context) splits the runs; "in" is no unit, so "best novel
    # in 2019" was one run already
    assert [s.text for s in score(q, c, r, config=cfg).unsupported_spans] == [
        "Hugo", "best novel in 2019"]


def test_spans_are_highlighted():
    r = score("", "The mug costs $5.", "The mug costs $5 and is blue.")
    html = highlight_html("The mug costs $5 and is blue.", r.anchors, r.unsupported_spans)
    assert "evaltools-kind-span" in html and "closest context sentence" in html
    card = case_html({"response": "The mug costs $5 and is blue.", "context": "The mug costs $5.",
                      **r.to_dict()})
    assert "evaltools-kind-span" in card


def test_config_reaches_the_score():
    strict = dataclasses.replace(DEFAULT, grounding=dataclasses.replace(
        DEFAULT.grounding, scattered_credit=0.0))
    ctx = "Anna lives in Leeds. Her brother Tom lives in York."
    assert score("", ctx, "Anna lives in York.", config=strict).support < \
        score("", ctx, "Anna lives in York.").support


TEXT = st.lists(st.sampled_from([
    "The", "café", "costs", "$5", "12,99 €", "e-mail", "Paris", "is", "not", "open", "9:0-17:30",
    "Mon", "72 °F", ".", ",", "and", "JSON", "{", "}", '"a":', "true", "\n", "  ", "Ünïcode",
    "2024-03-05", "3pm", "-", "—", "x" * 30, "🙂",
]), max_size=25).map(" ".join)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, TEXT, st.text(max_size=40))
def test_spans_are_valid_and_support_in_range(context, response, noise):
    response = response + noise
    r = score("", context, response)
    assert 0.0 <= r.support <= 1.0
    for s in r.unsupported_spans:
        assert 0 <= s.start < s.end <= len(response)
        assert s.text == response[s.start:s.end]
        assert s.weight > 0
        if s.closest is not None:
            assert s.closest_start < s.closest_end
    again = score("", context, response)
    assert again.support == r.support and again.unsupported_spans == r.unsupported_spans


def test_hedged_clauses_are_not_checked(nlp):
    ctx = "The base is 3.5 inches wide."
    hedged = grounded(nlp, "The base is 3.5 inches wide, so it may fit cup holders.", ctx,
                      skip_hedged=True)
    checked = grounded(nlp, "The base is 3.5 inches wide, so it may fit cup holders.", ctx)
    assert hedged.support == 1.0 and hedged.unsupported_spans == ()
    assert checked.support < 1.0
    assert [s.text for s in checked.unsupported_spans] == ["fit cup holders"]


def test_grounding_config_keys_accept_their_ranges():
    from evaltools.errors import ConfigError

    cfg = DEFAULT.replace(grounding={"rarity_power": 3, "adjacency_window": 0})
    assert (cfg.grounding.rarity_power, cfg.grounding.adjacency_window) == (3.0, 0)
    with pytest.raises(ConfigError, match=r"whole number in \[0, 200\]"):
        DEFAULT.replace(grounding={"adjacency_window": -1})
    with pytest.raises(ConfigError, match=r"\[0, 1\]"):
        DEFAULT.replace(grounding={"scattered_credit": 2})


def test_personal_words_are_units_the_context_must_hold(nlp):
    # power 0, personal weight 0.5: "I", "seen", "movie" (stop word "have", "this" left
    # out). The context holds "movie" only: (0 + 0 + 1) / (0.5 + 1 + 1) = 0.4
    ctx = "The movie came out in 2012."
    g = grounded(nlp, "I have seen this movie.", ctx, power=0.0, personal=0.5)
    assert g.support == pytest.approx(1 / 2.5)
    assert [s.text for s in g.unsupported_spans] == ["I have seen"]
    # off (0): only "seen" and "movie" count, 1 of 2
    assert grounded(nlp, "I have seen this movie.", ctx, power=0.0).support == 0.5
    # a context that speaks in the first person holds "I": (0.5 + 0 + 1) / 2.5
    mine = grounded(nlp, "I have seen this movie.", "I liked the movie.", power=0.0,
                    personal=0.5)
    assert mine.support == pytest.approx(1.5 / 2.5)
    # "you" in a question to the user: (0.5 weight) "like" is not a content word
    ask = grounded(nlp, "Do you like football?", "Football is a team sport.", power=0.0,
                   personal=0.5)
    assert ask.support == pytest.approx(1 / 1.5)
    assert [s.text for s in ask.unsupported_spans] == ["you"]


def test_a_word_in_many_context_sentences_votes_only_where_rarer_words_do(nlp):
    # "tumbler" stands in 70 context sentences (more than VOTE_CAP 64), "Owala" in one: the
    # closest sentence is the one holding both, found without trying all 70
    from evaltools.scoring.grounding import VOTE_CAP

    sentences = ["A tumbler is a cup."] * 70 + ["The Owala tumbler is blue."]
    g = grounded(nlp, "The Owala tumbler is blue.", " ".join(sentences), power=0.0)
    assert VOTE_CAP < 70 and g.support == 1.0
    assert g.unsupported_spans == ()
    wrong = grounded(nlp, "The Owala tumbler is red.", " ".join(sentences), power=0.0)
    (span,) = wrong.unsupported_spans
    assert (span.text, span.closest) == ("red", "The Owala tumbler is blue.")


@pytest.mark.parametrize(("ctx", "resp", "off_support", "off_spans"), [
    # REVIEW_FRAMING: "Customers praise ..." names a record's reviews and their authors;
    # off, customers and praise are two unsupported words of five (espresso, friendly, staff)
    ("name: Blue Door Cafe. review text: Great espresso, friendly staff.",
     "Customers praise the espresso and the friendly staff.", 3 / 5, ["Customers praise"]),
    # REVIEW_SUM: "mixed but generally positive" sums up how the reviews lean, which matching
    # words cannot check; off, mixed, generally, positive are three unsupported words of five
    # ("reviews", framing only with the rule on, is found as "review"; espresso), and "but"
    # ends a run (grounding._BREAK)
    ("name: Blue Door Cafe. review text: Great espresso. review text: Slow service.",
     "Reviews are mixed but generally positive about the espresso.", 2 / 5,
     ["mixed", "generally positive"]),
])
def test_in_a_record_with_reviews_framing_and_sums_weigh_nothing(nlp, ctx, resp, off_support,
                                                                 off_spans):
    """With ``reviews`` on (a JSON record holding reviews) who said what and how the reviews
    lean weigh nothing; what was praised is still looked up. Power 0: every other content
    word weighs 1."""
    on = grounded(nlp, resp, ctx, power=0.0, reviews=True)
    assert on.support == 1.0 and on.unsupported_spans == ()
    off = grounded(nlp, resp, ctx, power=0.0)
    assert off.support == pytest.approx(off_support)
    assert [s.text for s in off.unsupported_spans] == off_spans


def test_a_generalisation_the_reviews_do_not_make_stays_a_unit(nlp):
    g = grounded(nlp, "Reviewers consistently criticize the slow service.",
                 "review text: The service was slow.", power=0.0, reviews=True)
    assert [s.text for s in g.unsupported_spans] == ["consistently"]
    assert g.support == pytest.approx(2 / 3)  # slow, service of slow, service, consistently


def test_review_framing_needs_a_record_with_reviews():
    """Through the scorer: a JSON record with a ``reviews`` field turns the rule on; the same
    words over prose, or over a record without reviews, are looked up as any word."""
    resp = "Customers praise the espresso."
    with_reviews = '{"name": "Blue Door Cafe", "reviews": [{"text": "Great espresso."}]}'
    without = '{"name": "Blue Door Cafe", "menu": "espresso"}'
    assert score("", with_reviews, resp).support == 1.0
    assert [s.text for s in score("", without, resp).unsupported_spans] == ["Customers praise"]
    prose = "Blue Door Cafe. Its reviews say: great espresso."
    assert [s.text for s in score("", prose, resp).unsupported_spans] == ["Customers praise"]
