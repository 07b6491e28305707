"""Opening hours a response states, checked against a record's weekly schedule
(:mod:`evaltools.scoring.anchors.schedule`): each rule with a hand-made case, and
through the scorer a denied and an agreeing overview."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaltools
from evaltools.scoring.anchors.schedule import (
    WEEK,
    Statement,
    Week,
    denied,
    statements,
)
from evaltools.scoring.context import read_context

HOURS = {"Mon": "7:0-17:0", "Tue": "7:0-17:0", "Wed": "7:0-17:0", "Thu": "7:0-17:0",
         "Fri": "7:0-17:0", "Sat": "8:0-14:0"}
RECORD = json.dumps({"name": "Truckee Flow Plumbing", "hours": HOURS})


def test_the_record_week_is_read_with_the_record():
    w = Week(read_context(RECORD).week)
    # 7:00 = 420 minutes, 17:00 = 1020, 8:00 = 480, 14:00 = 840; Sunday left out (closed)
    assert w.hours == (("Monday", 420, 1020), ("Tuesday", 420, 1020),
                       ("Wednesday", 420, 1020), ("Thursday", 420, 1020),
                       ("Friday", 420, 1020), ("Saturday", 480, 840))
    assert w.of("Sunday") is None
    # prose, or a record with two days only, has no week
    assert read_context("Open Monday: 7:00–17:00. Tuesday: 7:00–17:00.").week == ()
    assert read_context(json.dumps({"hours": {"Mon": "7:0-17:0", "Tue": "7:0-17:0"}})).week == ()


@pytest.mark.parametrize(("text", "expected"), [
    # a range, its hours after it; "closed on" a day
    ("It is open Monday through Friday from 7 AM to 5 PM and closed on Sundays.",
     [(WEEK[:5], True, (420, 1020)), (("Sunday",), False, None)]),
    # the hours before the days, as many overviews write them; noon and midnight
    ("Hours are noon to midnight on Saturday and 9:30 AM to 5:15 PM Monday–Wednesday.",
     [(("Saturday",), True, (720, 0)), (WEEK[:3], True, (570, 1035))]),
    # a list shares the hours stated beside its last day
    ("It is open Thursday and Friday, 9 AM-5 PM.",
     [(("Thursday",), True, (540, 1020)), (("Friday",), True, (540, 1020))]),
    # the whole week, but for the excepted day
    ("It is open daily except Mondays.", [(WEEK[1:], True, None), (("Monday",), False, None)]),
    # "weekends" are Saturday and Sunday
    ("It is closed on weekends.", [(WEEK[5:], False, None)]),
    # "not open" is closed, as "closed" is
    ("The shop does not open on Sundays.", [(("Sunday",), False, None)]),
    ("It isn't open on Sundays.", [(("Sunday",), False, None)]),
    # ... with a curly apostrophe, as chat models write it
    ("It isn\u2019t open on Sundays.", [(("Sunday",), False, None)]),
    ("It\u2019s closed Mondays and doesn\u2019t open Sundays.",
     [(("Monday",), False, None), (("Sunday",), False, None)]),
    # hours by appointment are a schedule of their own
    ("It is open Monday through Saturday, and Sunday by appointment.", []),
    # no word of opening or closing: nothing is said of the hours
    ("On Saturdays the line is long.", []),
    # a meal or a special has hours of its own
    ("Brunch is served Saturday and Sunday from 9 AM to 2 PM, and it is open daily.", []),
    # a bare hour starts a range a clock time ends, in its half of the day when before the
    # end: 4-10 p.m. is 16:00-22:00 (not the next range's hours), 11-2 p.m. is 11:00-14:00
    ("It is open 4-10 p.m. Tuesday, 4 p.m. to midnight on Friday and 11-2 p.m. on Sunday.",
     [(("Tuesday",), True, (960, 1320)), (("Friday",), True, (960, 0)),
      (("Sunday",), True, (660, 840))]),
])
def test_statements_by_hand(text, expected):
    assert [(s.days, s.open, s.hours) for s in statements(text)] == expected


def test_a_day_named_again_is_held_to_no_range_hours():
    (rng, thu, sat) = statements("It is open Tuesday through Friday from 10 AM to 6 PM, with "
                                 "extended hours until 7 PM on Thursdays, and Saturdays from "
                                 "9 AM to 5 PM.")
    assert rng.timed == ("Tuesday", "Wednesday", "Friday") and rng.hours == (600, 1080)
    assert (thu.days, thu.hours) == (("Thursday",), None)
    assert (sat.days, sat.hours) == (("Saturday",), (540, 1020))


def test_closing_times_stated_alone():
    text = ("It opens at 11 AM, closing at 8 PM Tuesday through Thursday, 9 PM on Friday "
            "and Saturday, and staying open until 6 PM on Sundays.")
    got = [(s.days, s.closes) for s in statements(text)]
    # 8 PM = 1200 minutes, 9 PM = 1260, 6 PM = 1080; a list shares its closing time
    assert got == [(WEEK[1:4], 1200), (("Friday",), 1260), (("Saturday",), 1260),
                   (("Sunday",), 1080)]
    w = Week((("Tuesday", 660, 1200), ("Friday", 660, 1320)))
    assert denied(Statement(("Tuesday",), True, 0, 7, closes=1200), w) is None
    assert denied(Statement(("Friday",), True, 0, 6, closes=1260), w) == (
        "Friday", "the record's Friday hours close at 22:00, not 21:00")
    # "from 9 AM on Saturdays" is an opening time, no closing one
    assert [s.closes for s in statements("It is open from 9 AM on Saturdays.")] == [None]


def test_denied_by_hand():
    w = Week((("Monday", 420, 1020), ("Friday", 960, 120), ("Saturday", 0, 0)))
    st_ = Statement
    assert denied(st_(("Monday",), True, 0, 6, (420, 1020)), w) is None
    # past midnight: 4 PM to 2 AM is 960-120
    assert denied(st_(("Friday",), True, 0, 6, (960, 120)), w) is None
    assert denied(st_(("Friday",), True, 0, 6, (960, 0)), w) == (
        "Friday", "the record's Friday hours are 16:00–2:00, not 16:00–0:00")
    # Yelp's 0:0-0:0 (open around the clock, or closed) denies nothing of that day
    assert denied(st_(("Saturday",), True, 0, 6, (540, 1020)), w) is None
    assert denied(st_(("Saturday",), False, 0, 6), w) is None
    assert denied(st_(("Sunday",), True, 0, 6), w) == (
        "Sunday", "the record's hours list no Sunday (closed)")
    assert denied(st_(("Sunday",), False, 0, 6), w) is None
    assert denied(st_(("Monday",), False, 0, 6), w) == (
        "Monday", "the record's hours list Monday as open (7:00–17:00)")


def test_through_the_scorer_a_denied_schedule_fails_and_a_right_one_passes():
    q = "Write an overview of this business."
    wrong = "It operates Monday through Saturday from 7 AM to 5 PM and is closed on Sundays."
    right = ("It is open Monday through Friday from 7 AM to 5 PM and Saturday from 8 AM to "
             "2 PM, and it is closed on Sundays.")
    bad = evaltools.score(q, RECORD, wrong)
    (claim,) = [a for a in bad.anchors if a.contradiction == "record_hours"]
    assert (claim.text, claim.supported) == ("operates Monday through Saturday", False)
    assert claim.evidence == "hours open Saturday: 8:00–14:00."
    assert "8:00–14:00, not 7:00–17:00" in claim.note
    assert bad.verdict == "FAIL" and "a record's own value denies a claim" in bad.reasons[0]
    good = evaltools.score(q, RECORD, right)
    assert not [a for a in good.anchors if a.contradiction == "record_hours"]
    # hours before the days, with no claim over them: the statement is a claim of its own
    alone = evaltools.score(q, RECORD, "Hours are 7 AM to 5 PM Monday through Saturday.")
    (claim,) = [a for a in alone.anchors if a.contradiction == "record_hours"]
    assert claim.text == "Monday through Saturday" and claim.kind == "claim"


def test_what_a_sentence_says_of_part_of_a_day_or_one_visit_is_no_weekly_closure():
    """Four readings of the hours, each with the statement it still makes (docs/validity.md,
    "Twenty-eighth round"). RECORD: Monday-Friday 7:00-17:00, Saturday 8:00-14:00, no Sunday."""
    w = Week(read_context(RECORD).week)
    # part of a day: "closed Saturday afternoons" is no closed Saturday (nothing stated) ...
    assert statements("Clients found the closed Saturday afternoons hard to plan around.") == []
    # ... "closed on Saturdays" is, and the record denies it
    (sat,) = statements("Clients found it closed on Saturdays.")
    assert denied(sat, w) == ("Saturday", "the record's hours list Saturday as open (8:00–14:00)")
    # one visit: "closed at 2 p.m. one Saturday" says nothing of every Saturday
    assert statements("One client found it closed at 2 p.m. one Saturday.") == []
    # "except Sunday, when it closes at 3": Sunday's own hours follow, no closed Sunday, and
    # the whole week's statement leaves it out ...
    assert [(s.days, s.open) for s in statements(
        "It is open at 7 a.m. every day except Sunday, when it opens at 8 a.m.")] == [
        (WEEK[:6], True)]
    # ... "except Tuesday, when it is closed" is a closed Tuesday
    assert [(s.days, s.open) for s in statements(
        "It opens at 7 AM every day except Tuesday, when it is closed.")] == [
        (("Monday", *WEEK[2:]), True), (("Tuesday",), False)]
    assert [(s.days, s.open) for s in statements("It is open daily except Sunday.")][-1] == (
        ("Sunday",), False)


def test_three_more_readings_of_blind_batches_53_to_55():
    """A day whose hours are said to be unlisted is closed; a closing time followed by its own
    days is theirs, not the range's before it; a bare time before *weekdays* is beside it."""
    # 0 = midnight; the range keeps no closing time, Friday and Saturday get it
    got = [(s.days, s.closes) for s in statements(
        "It is open Wednesday through Sunday, until midnight on Fridays and Saturdays.")]
    assert got == [(WEEK[2:], None), (("Friday",), 0), (("Saturday",), 0)]
    # "(Monday hours aren't listed)" is a closed Monday, as "no hours listed for Monday" is
    assert [(s.days, s.open) for s in statements(
        "It is open Tuesday through Sunday (Monday hours aren't listed).")] == [
        (WEEK[1:], True), (("Monday",), False)]
    # "... and 10 AM on weekdays": the time before the group makes it the open weekdays
    (_, weekdays) = statements("It opens at 9 AM on weekends and 10 AM on weekdays.")
    assert weekdays.days == WEEK[:5] and weekdays.loose


def test_weekdays_beside_a_time_are_the_weekdays_it_opens():
    """"opens at 9 a.m. on weekdays" gives a time, not five open days: a weekday the record
    leaves out is not denied; "open weekdays" alone still is, and so are the hours."""
    week = Week((("Monday", 540, 1020), ("Tuesday", 540, 1020), ("Thursday", 540, 1020),
                 ("Friday", 540, 1020), ("Saturday", 510, 1020)))  # no Wednesday, no Sunday
    (wd, _) = statements("It opens at 9 a.m. on weekdays and 8:30 a.m. on weekends.")
    assert (wd.days, wd.loose) == (WEEK[:5], True)
    assert denied(wd, week) is None
    (timed,) = statements("It is open from 9 a.m. to 5 p.m. on weekdays.")
    assert timed.loose and denied(timed, week) is None
    (wrong,) = statements("It is open from 9 a.m. to 6 p.m. on weekdays.")
    assert denied(wrong, week) == ("Monday", "the record's Monday hours are 9:00–17:00, "
                                   "not 9:00–18:00")
    (bare,) = statements("It is open weekdays.")
    assert not bare.loose
    assert denied(bare, week) == ("Wednesday", "the record's hours list no Wednesday (closed)")
    # "weekends" beside a time, neither day open in the record: still denied
    assert denied(Statement(WEEK[5:], True, 0, 8, loose=True), Week((("Monday", 1, 2),))) == (
        "Saturday", "the record's hours list no Saturday (closed)")


def test_a_range_starting_at_minutes_takes_the_ends_half_of_the_day():
    """A faithful overview said "Friday from 6:30 to 11 p.m." of a record's 18:30-23:00 and
    was failed on 6:30 read as 6:30 a.m.; the start takes p.m. as a bare hour does
    (*6 to 9 p.m.*), unless that would pass the end (*11:30-2 p.m.* starts at 11:30 a.m.)."""
    week = Week((("Friday", 18 * 60 + 30, 23 * 60), ("Saturday", 11 * 60 + 30, 14 * 60)))
    (friday, saturday) = statements("Open Friday from 6:30 to 11 p.m. and Saturday 11:30-2 p.m.")
    assert (friday.days, friday.hours) == (("Friday",), (1110, 1380))
    assert (saturday.days, saturday.hours) == (("Saturday",), (690, 840))
    assert denied(friday, week) is None and denied(saturday, week) is None
    (wrong,) = statements("Open Friday from 5:30 to 11 p.m.")
    assert denied(wrong, week) == ("Friday", "the record's Friday hours are 18:30–23:00, "
                                   "not 17:30–23:00")


def test_a_bare_hour_given_as_the_alternative_of_a_clock_time_takes_its_half_of_the_day():
    """"open ... generally from 7 or 8 AM until between 4 and 6 PM" of a record opening at
    7:0 on weekends: the bare *7* was an unsupported number and failed a faithful overview."""
    ctx = json.dumps({"name": "Saltmarsh Kayak Co.", "hours": {
        "Friday": "8:0-18:0", "Saturday": "7:0-18:0", "Sunday": "7:0-16:0"}})
    said = "It is open Friday through Sunday, generally from {} or 8 AM until 4 or 6 PM."
    ok = evaltools.score("Describe this business.", ctx, said.format(7))
    assert [(a.text, a.supported) for a in ok.anchors if a.kind != "claim"] == [
        ("7", True), ("8 AM", True), ("4", True), ("6 PM", True)]
    bad = evaltools.score("Describe this business.", ctx, said.format(5))
    assert next((a.text, a.supported) for a in bad.anchors if a.kind != "claim") == ("5", False)


@pytest.mark.parametrize(("said", "denied_day"), [
    # "10:00 to midnight" opens at 10:00: a time with minutes takes a.m. or p.m. from the
    # end, not noon or midnight (read as 22:00, the record's Saturday was denied)
    ("It is open Friday 15:00 to midnight and Saturday 10:00 to midnight.", None),
    ("It is open Friday 15:00 to midnight and Saturday 11:00 to midnight.", "Saturday"),
    # a day excepted with hours of its own is not held to the group's hours
    ("It is open 10:00 to 17:30 Monday through Saturday, except Thursday, when it stays "
     "open until 20:00.", None),
    ("It is open 10:00 to 17:30 Monday through Saturday.", "Thursday"),
    # "on" binds a day to the hours before it, though the sentence began days first
    ("It opens at 2 p.m. Tuesday through Thursday (until 10 p.m.), noon to 11 p.m. on "
     "Friday, 10 a.m. to 11 p.m. on Saturday.", None),
    ("It opens at 2 p.m. Tuesday through Thursday (until 10 p.m.), 10 a.m. to 11 p.m. on "
     "Friday, noon to 11 p.m. on Saturday.", "Friday"),
])
def test_three_schedule_readings_of_blind_batches_71_to_73(said, denied_day):
    ctx = json.dumps({"name": "Checkered Flag", "hours": {
        "Monday": "10:0-17:30", "Tuesday": "14:0-22:0", "Wednesday": "14:0-22:0",
        "Thursday": "14:0-22:0", "Friday": "12:0-23:0", "Saturday": "10:0-23:0"}})
    if "Thursday, when" in said or said.endswith("Monday through Saturday."):
        ctx = json.dumps({"name": "Thimble", "hours": {
            **{d: "10:0-17:30" for d in ("Monday", "Tuesday", "Wednesday", "Friday",
                                         "Saturday")}, "Thursday": "10:0-20:0"}})
    if "midnight" in said:
        ctx = json.dumps({"name": "Bark", "hours": {"Friday": "15:0-0:0",
                                                    "Saturday": "10:0-0:0",
                                                    "Sunday": "10:0-20:0"}})
    r = evaltools.score("Describe this business.", ctx, said)
    found = [a.note for a in r.anchors if a.contradiction == "record_hours"]
    if denied_day is None:
        assert found == []
    else:
        assert any(f"record's {denied_day} hours are" in note for note in found)


def test_prose_contexts_are_not_read_as_a_week():
    prose = "The shop is open Monday to Friday, 7:00–17:00. Saturday: 8:00–14:00."
    r = evaltools.score("", prose, "It is closed on Saturdays.")
    assert not [a for a in r.anchors if a.contradiction == "record_hours"]


PIECES = [*"abc ,.;:-–", "Monday", "Sunday", "through", " 7 AM", " 5 PM", " to ", "closed",
          " open", "except", "noon", "weekends", " and "]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_statements_never_crash_and_stay_in_the_text(text):
    w = Week((("Monday", 420, 1020), ("Tuesday", 0, 0), ("Saturday", 480, 840)))
    for s in statements(text):
        assert 0 <= s.start < s.end <= len(text) and set(s.days) <= set(WEEK)
        found = denied(s, w)
        assert found is None or found[0] in s.days


@pytest.mark.parametrize(("closes", "denied"), [("6 p.m.", False), ("8 p.m.", True)])
def test_a_pm_that_ends_a_sentence_ends_it(closes, denied):
    # the period of "8 p.m." also ends the sentence: the next one's "delivery" (another
    # schedule's word) does not set the hours aside
    ctx = json.dumps({"name": "Frankly", "hours": {
        "Monday": "10:30-20:0", "Tuesday": "10:30-20:0", "Wednesday": "10:30-20:0",
        "Thursday": "10:30-20:0", "Friday": "10:30-22:30", "Saturday": "10:30-22:30",
        "Sunday": "11:0-18:0"}})
    said = (f"It is open Saturday from 10:30 a.m. to 10:30 p.m. and Sunday from 11 a.m. to "
            f"{closes} The restaurant offers takeout but no delivery.")
    r = evaltools.score("Describe this business.", ctx, said)
    assert any(a.contradiction == "record_hours" for a in r.anchors) is denied


WEEKDAYS = {"Monday": "7:0-16:0", "Tuesday": "7:0-16:0", "Wednesday": "7:0-16:0",
            "Thursday": "7:0-16:0", "Friday": "7:0-13:0"}


@pytest.mark.parametrize(("hours", "denied"), [
    # the record lists no weekend day: its weekend closure is the record's own
    (WEEKDAYS, False),
    # ... and one that lists Saturday's hours denies it
    ({**WEEKDAYS, "Saturday": "8:0-12:0"}, True),
])
def test_a_closure_named_after_its_days_is_a_closed_day(hours, denied):
    ctx = json.dumps({"name": "Valley Dentistry", "hours": hours})
    said = ("One patient found the short Friday hours and weekend closure hard to work "
            "around.")
    r = evaltools.score("Describe this business.", ctx, said)
    assert any(a.contradiction == "record_hours" for a in r.anchors) is denied
