"""A response's word whose opposite the context sentence saying the same thing holds
(evaltools.scoring.anchors.opposites), and what scoring does with it."""

from __future__ import annotations

import pytest

import evaltools
from evaltools.scoring.anchors.opposites import opposite_conflicts, opposite_keys
from evaltools.scoring.matcher import SentenceIndex, words_of
from evaltools.text import load_pipeline

PORTAL = ("The new portal made filing a tax return much easier for small firms. "
          "Support staff answer calls on weekdays.")
PLANS = "A yearly plan is more expensive than paying monthly, but it includes support."
SLEEP = "Regular exercise can help you sleep better at night, doctors say."


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def conflicts(nlp, context: str, response: str) -> list[tuple[str, str, str]]:
    index = SentenceIndex(nlp(context))
    return [(c.word, c.said, context[c.evidence_start:c.evidence_end].strip())
            for c in opposite_conflicts(words_of(nlp(response)), index)]


def test_a_words_opposites_come_from_each_of_its_forms(nlp):
    # "worse" is found under its lemma "bad": the lexicon's and the graded table's opposites
    # of both forms, none of its own
    worse = next(w for w in words_of(nlp("It got worse.")) if w.text == "worse")
    assert {"bad", "worse"} <= set(worse.forms)
    assert {"good", "better"} <= opposite_keys(worse)
    assert not opposite_keys(worse) & {"bad", "worse"}
    cheaper = next(w for w in words_of(nlp("It is cheaper.")) if w.text == "cheaper")
    assert "expensive" in opposite_keys(cheaper)


@pytest.mark.parametrize(("context", "response", "expected"), [
    # a hedged sentence makes no claim, yet "harder" turns the context's "easier"; the
    # sentence shares portal, filing, tax, return, small, firms (3 needed)
    (PORTAL, "The portal seems to have made filing a tax return harder for small firms.",
     [("harder", "easier", PORTAL.split(". ")[0] + ".")]),
    # a modal sentence: "cheaper" (cheap) against "more expensive"; shares yearly, plan,
    # paying, monthly
    (PLANS, "A yearly plan would be cheaper than paying monthly.",
     [("cheaper", "expensive", PLANS)]),
    # "worse" (bad) against "better" (good): shares exercise, help, sleep, night
    (SLEEP, "Regular exercise can make you sleep worse at night.",
     [("worse", "better", SLEEP)]),
    # "less" against "more": a comparative the lexicon leaves out (the graded table)
    ("Electric cars need more maintenance than petrol cars in cold climates.",
     "Electric cars need less maintenance than petrol cars in cold climates.",
     [("less", "more", "Electric cars need more maintenance than petrol cars in cold "
                       "climates.")]),
    # the same comparison turned: what the response compares with ("petrol") follows the
    # context's "than" too
    ("Electric cars cost more to insure than petrol cars in most states.",
     "Electric cars cost less to insure than petrol cars in most states.",
     [("less", "more", "Electric cars cost more to insure than petrol cars in most "
                       "states.")]),
])
def test_a_word_turning_the_context_sentence_is_a_conflict(nlp, context, response, expected):
    assert conflicts(nlp, context, response) == expected


@pytest.mark.parametrize(("context", "response"), [
    # the same word as the context
    (PORTAL, "The portal made filing a tax return easier for small firms."),
    # negated in the response: "not ... harder" says no more than the context
    (PORTAL, "The portal did not make filing a tax return harder for small firms."),
    # negated in the context: "not easier" is no opposite of "harder"
    ("The new portal did not make filing a tax return easier for small firms.",
     "The portal made filing a tax return harder for small firms."),
    # the context's sentence holds both words: a range, not a turn
    ("Filing a tax return on the portal runs from easy to hard for small firms.",
     "Filing a tax return on the portal is hard for small firms."),
    # another context sentence says it as the response does
    ("Filing a tax return on paper is harder for small firms. Filing a tax return on the "
     "portal is easier for small firms.",
     "Filing a tax return on paper is harder for small firms."),
    # "rarely" negates: "rarely remember their dreams" says "forget their dreams"
    ("Most people forget their dreams within minutes of waking up.",
     "Most people rarely remember their dreams within minutes of waking up."),
    # a word before a number belongs to a value, which the numbers read
    ("Natural earthquakes occur at depths of more than 10 kilometres below the crust.",
     "Natural earthquakes occur at depths of less than 10 kilometres below the crust."),
    # the response's own sentence holds both words
    ("Some birds that breed in the southern hemisphere migrate north in March each year.",
     "Some birds migrate from the southern to the northern hemisphere in March each year."),
    # the other side of a comparison: what the response compares with ("idle") stands
    # before the context's opposite
    ("An idle heart needs more beats per minute than a runner's heart to pump blood.",
     "A runner's heart needs fewer beats per minute than an idle heart to pump blood."),
    # a context's opposite that is one side of a comparison, against a response that
    # compares nothing
    ("Because we read from left to right, we pay less attention to the end of a price "
     "versus the beginning.",
     "Because we read from left to right, we pay more attention to the beginning of a price."),
    # "unlike" sets the context's opposite apart from what the response says
    ("Unlike the winter months when the air is cold and dry, summer air in the bathroom is "
     "humid.",
     "In summer the air in the bathroom is hot and humid."),
    # how often is the quantifiers' to read: "rarely" against "often"
    ("People who often recall their dreams show more activity in one brain region.",
     "People who rarely recall their dreams show more activity in one brain region."),
    # too few shared words around the word (only "portal"): not the same thing
    (PORTAL, "The portal's design looks harder."),
    # words of times and order are read by the schedule and the numbers
    ("The shop opens early on weekdays for commuters.",
     "The shop opens late on weekdays for commuters."),
    # a comparative against a superlative: two scales
    ("Banks in the north charge the highest fees in the region for transfers.",
     "Banks in the north charge lower fees in the region for transfers."),
])
def test_no_conflict_where_the_context_says_the_same(nlp, context, response):
    assert conflicts(nlp, context, response) == []


def test_scoring_marks_the_sentence_with_the_opposite_as_evidence():
    r = evaltools.score("How did the portal change filing?", PORTAL,
                        "The portal seems to have made filing a tax return harder for small "
                        "firms.")
    turned = [a for a in r.anchors if a.contradiction == "opposite"]
    assert len(turned) == 1 and not turned[0].supported
    assert turned[0].text == ("The portal seems to have made filing a tax return harder for "
                              "small firms.")
    assert turned[0].note == "the context says 'easier' where it says 'harder'"
    assert turned[0].evidence.strip() == PORTAL.split(". ")[0] + "."
    faithful = evaltools.score("How did the portal change filing?", PORTAL,
                               "The portal seems to have made filing a tax return easier for "
                               "small firms.")
    assert not any(a.contradiction == "opposite" for a in faithful.anchors)


def test_a_question_claims_nothing():
    r = evaltools.score("How did the portal change filing?", PORTAL,
                        "Did the portal make filing a tax return harder for small firms?")
    assert not any(a.contradiction == "opposite" for a in r.anchors)
