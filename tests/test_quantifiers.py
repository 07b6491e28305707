"""A response's quantifier stronger than the context sentence's that says the same thing
(evaltools.scoring.anchors.quantifiers), and what scoring does with it."""

from __future__ import annotations

import pytest

import evaltools
from evaltools.scoring.anchors.quantifiers import QUANTIFIER_RANK, quantifier_conflicts
from evaltools.scoring.matcher import SentenceIndex, words_of
from evaltools.text import load_pipeline

JURISDICTIONS = ("In most jurisdictions in the Americas, an arrested person must be brought "
                 "before a judge within 72 hours. Bail is set at that hearing.")
STUDENTS = "Many students feel obliged to binge drink when their friends do."
BRAWLS = ("Managers and umpires intervene in most cases, and the players calm down. "
          "A fight can still break out.")


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def conflicts(nlp, context: str, response: str) -> list[tuple[str, str, str]]:
    index = SentenceIndex(nlp(context))
    return [(c.word, c.said, context[c.evidence_start:c.evidence_end].strip())
            for c in quantifier_conflicts(words_of(nlp(response)), index)]


def test_the_ranks_run_from_some_to_all():
    assert [QUANTIFIER_RANK[w] for w in ("some", "many", "most", "all")] == [1, 2, 3, 4]
    assert QUANTIFIER_RANK["always"] == QUANTIFIER_RANK["every"] == 4
    assert QUANTIFIER_RANK["usually"] == 3 and QUANTIFIER_RANK["often"] == 2


@pytest.mark.parametrize(("context", "response", "expected"), [
    # every (4) past most (3): the sentence holds "jurisdiction" and the words around it
    (JURISDICTIONS, "In every jurisdiction in the Americas, an arrested person must be "
                    "brought before a judge within 72 hours.",
     [("every", "most", JURISDICTIONS.split(". ")[0] + ".")]),
    # most (3) past many (2): the determiner most is read below all
    (STUDENTS, "Most students feel obliged to binge drink.", [("Most", "many", STUDENTS)]),
    # always (4) past "in most cases", 8 words or fewer from "intervene"
    (BRAWLS, "Managers and umpires always intervene, and the players calm down.",
     [("always", "most", BRAWLS.split(". ")[0] + ".")]),
    # nearly all (3.5) past most (3)
    (JURISDICTIONS, "In nearly all jurisdictions in the Americas, an arrested person must "
                    "be brought before a judge.",
     [("all", "most", JURISDICTIONS.split(". ")[0] + ".")]),
    # every (4) past almost all (3.5), named with its softener
    ("Almost all OECD countries tax property because the tax is stable.",
     "Every OECD country taxes property because the tax is stable.",
     [("Every", "almost all", "Almost all OECD countries tax property because the tax is "
                              "stable.")]),
])
def test_a_stronger_quantifier_goes_past_the_context_sentence(nlp, context, response,
                                                             expected):
    assert conflicts(nlp, context, response) == expected


@pytest.mark.parametrize(("context", "response"), [
    # as strong as the context: the same quantifier, or one the same rank
    (JURISDICTIONS, "In most jurisdictions in the Americas, an arrested person must be "
                    "brought before a judge within 72 hours."),
    (JURISDICTIONS, "In the majority of jurisdictions in the Americas, an arrested person "
                    "must be brought before a judge."),
    # weaker than the context
    (JURISDICTIONS, "In many jurisdictions in the Americas, an arrested person must be "
                    "brought before a judge."),
    # one sentence says it as strongly: another's weaker word is no conflict
    ("Many students feel obliged to drink. All students feel obliged to drink at parties.",
     "All students feel obliged to drink."),
    # not a quantifier of a thing: negated, a superlative, how often, an idiom, a count
    (STUDENTS, "Not all students feel obliged to binge drink."),
    (STUDENTS, "The most anxious students feel obliged to binge drink."),
    (STUDENTS, "Students most often feel obliged to binge drink when friends do."),
    (STUDENTS, "Students do not feel obliged at all to binge drink."),
    (STUDENTS, "All three students feel obliged to binge drink."),
    # some before a number is "about", not a quantifier of the context's
    ("Some 4.6 billion years ago, the planets formed from one disc of dust.",
     "All the planets formed from one disc of dust 4.6 billion years ago."),
    # a floating all before a verb quantifies its subject, not the verb
    ("Onions have been linked to odd smells in some people.",
     "Onions and garlic have all been linked to odd smells in people."),
    # usually (3) against often (2): read only for most and majority below all
    (STUDENTS, "Students usually feel obliged to binge drink when their friends do."),
    # the quantified word's sentence shares too few other words
    (STUDENTS, "Every student should read the library's guide."),
    # no weaker quantifier near the word: nothing to go past
    ("Students feel obliged to binge drink when their friends do.",
     "All students feel obliged to binge drink."),
])
def test_no_conflict_where_the_context_says_as_much(nlp, context, response):
    assert conflicts(nlp, context, response) == []


def test_scoring_marks_the_claim_generalised_with_the_context_sentence_as_evidence():
    r = evaltools.score("When must an arrested person see a judge?", JURISDICTIONS,
                        "In every jurisdiction in the Americas, an arrested person must be "
                        "brought before a judge within 72 hours.")
    said = [a for a in r.anchors if a.contradiction == "generalised"]
    assert len(said) == 1 and not said[0].supported
    assert said[0].note.endswith("the context says 'most' where it says 'every'")
    assert said[0].evidence.strip() == JURISDICTIONS.split(". ")[0] + "."
    assert r.signals["generalised"] == 1.0 and r.verdict_inputs.generalised
    faithful = evaltools.score("When must an arrested person see a judge?", JURISDICTIONS,
                               "In most jurisdictions in the Americas, an arrested person "
                               "must be brought before a judge within 72 hours.")
    assert not any(a.contradiction == "generalised" for a in faithful.anchors)
    assert not faithful.verdict_inputs.generalised


def test_a_quantifier_no_claim_holds_is_read_as_its_sentence():
    r = evaltools.score("Why do students binge drink?", STUDENTS,
                        "Most students feel obliged to binge drink.")
    assert [(a.kind, a.text, a.supported, a.note) for a in r.anchors] == [
        ("claim", "Most students feel obliged to binge drink.", False,
         "the context says 'many' where it says 'Most'")]


def test_a_question_claims_nothing():
    r = evaltools.score("Why do students binge drink?", STUDENTS,
                        "Do most students feel obliged to binge drink?")
    assert not any(a.contradiction == "generalised" for a in r.anchors)


def test_the_sentence_index_reads_words_by_position(nlp):
    idx = SentenceIndex(nlp("Prices were higher. Few came back."))
    assert idx.size == 6
    assert [idx.folded_at(p) for p in range(idx.size)] == ["prices", "were", "higher", "few",
                                                          "came", "back"]
    assert idx.key_at(2) == "high" and idx.is_content(2) and not idx.is_content(1)
    assert list(idx.sentence_positions(0)) == [0, 1, 2]
    assert list(idx.sentence_positions(1)) == [3, 4, 5]
    assert list(idx.sentence_positions(2)) == []


def test_a_majority_without_of_is_no_quantifier(nlp):
    # "a majority at the election" is a vote, not a share of the voters
    ctx = SentenceIndex(nlp("Left-leaning young voters in the UK frequently backed Ed Miliband "
                            "online, but his following failed to deliver a majority at the "
                            "general election."))
    assert quantifier_conflicts(words_of(nlp(
        "Ed Miliband's following failed to deliver a majority at the general election.")),
        ctx) == ()
    assert [c.word for c in quantifier_conflicts(words_of(nlp(
        "The majority of young voters in the UK backed Ed Miliband online.")), ctx)] == [
        "majority"]
