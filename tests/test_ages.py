"""Ages a text binds to names (evaltools.scoring.anchors.ages), and the number anchors that
read them: a response that swaps two people's ages is caught, one that keeps them is not."""

from __future__ import annotations

import pytest

import evaltools
from evaltools.scoring.anchors.ages import age_conflict, bound_ages

ARTICLE = ("Daniel Timbers, 29, and Barry Joy, 56, were working at the site when the blast "
           "happened. Mrs Zaghari-Ratcliffe, 38 has spent time in solitary confinement. "
           "Mr Ratcliffe, 41, believes his wife is being used.")


@pytest.mark.parametrize(("text", "read"), [
    ("Daniel Timbers, 29, and Barry Joy, 56, died.",
     [(16, 18, {"daniel", "timbers"}, 29, "Timbers"), (35, 37, {"barry", "joy"}, 56, "Joy")]),
    # a title before the name (not one of its words), and the age before a verb
    ("Mrs Zaghari-Ratcliffe, 38 has spent time there.",
     [(23, 25, {"zaghari-ratcliffe"}, 38, "Zaghari-Ratcliffe")]),
    ("Mr Ratcliffe (41) spoke.", []),  # only the newswire form with a comma
    # a date, a year, a number of something: no ages
    ("In London, 25 March, it rained.", []),
    ("Paris, 2015, was cold.", []),
    ("Timbers, 290, was the score.", []),
])
def test_bound_ages(text, read):
    assert [(a, b, set(words), age, last)
            for a, b, words, age, last in bound_ages(text)] == read


@pytest.mark.parametrize(("response", "supported"), [
    # the article's ages, as it binds them
    ("Daniel Timbers, 29, and Barry Joy, 56, were killed.", [True, True]),
    # swapped: each age is in the article, but for the other man
    ("Daniel Timbers, 56, and Barry Joy, 29, were killed.", [False, False]),
    # two people of one family, each with a surname key of its own
    ("Nazanin Zaghari-Ratcliffe, 41, is appealing; her husband, Richard Ratcliffe, 38, "
     "says the hearing is secret.", [False, False]),
    ("Nazanin Zaghari-Ratcliffe, 38, is appealing; her husband, Richard Ratcliffe, 41, "
     "says the hearing is secret.", [True, True]),
])
def test_swapped_ages_are_unsupported(response, supported):
    r = evaltools.score("Summarise the article.", ARTICLE, response)
    ages = [a for a in r.anchors if a.kind == "number" and a.text.isdigit()]
    assert [a.supported for a in ages] == supported
    for a in ages:
        if not a.supported:
            assert "age as" in a.note


def test_relatives_of_one_surname_keep_their_own_ages():
    # "Samantha, 57" is the mother, "Jamie Mitchell, 35" the son: neither age is the other's
    ctx = "Jamie Mitchell, 35, was charged. He and his mother Samantha, 57, left."
    r = evaltools.score("Summarise the article.", ctx,
                        "Jamie Mitchell, 35, and his mother, Samantha Mitchell, 57, left.")
    assert [a.supported for a in r.anchors if a.kind == "number"] == [True, True]
    r = evaltools.score("Summarise the article.", ctx,
                        "Jamie Mitchell, 57, and his mother, Samantha Mitchell, 35, left.")
    assert [a.supported for a in r.anchors if a.kind == "number"] == [False, False]


def test_an_age_the_context_does_not_bind_is_left_to_the_number_reading():
    ctx = bound_ages("The two men were 29 and 56.")
    resp = bound_ages("Daniel Timbers, 56, was killed.")
    assert ctx == () and age_conflict(resp[0][0], resp, ctx) is None
