"""Comparing two runs: core numbers by hand, then the CLI page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.compare import compare_runs, difference_ci

ROOT = Path(__file__).resolve().parent.parent


def test_shift_flips_and_module_deltas_by_hand():
    ref = [{"id": "a", "verdict": "PASS", "relevance": 0.2},
           {"id": "b", "verdict": "WARN", "relevance": 0.4},
           {"id": "c", "verdict": "FAIL", "relevance": 0.6},
           {"id": "m1", "module": "M04", "verdict": "PASS", "total_score": 80},
           {"id": "m2", "module": "M04", "verdict": "FAIL", "total_score": 60}]
    cur = [{"id": "a", "verdict": "FAIL", "relevance": 0.5,
            "reasons": ["hallucination 1.00 > 0.5 (safety first)"],
            "anchors": [{"kind": "number", "text": "$9", "supported": False}]},
           {"id": "b", "verdict": "PASS", "relevance": 0.7},
           {"id": "c", "verdict": "FAIL", "relevance": 0.9},
           {"id": "m1", "module": "M04", "verdict": "PASS", "total_score": 90},
           {"id": "m2", "module": "M04", "verdict": "PASS", "total_score": 70}]
    c = compare_runs(ref, cur, scores=("relevance",))
    (s,) = c.shifts
    # means 0.4 -> 0.7: difference 0.3
    assert s.mean_reference == pytest.approx(0.4) and s.mean_current == pytest.approx(0.7)
    assert s.difference == pytest.approx(0.3)
    assert s.low <= 0.3 <= s.high
    # a: PASS -> FAIL (worse, first), b: WARN -> PASS and m2: FAIL -> PASS (better); c same
    assert [(f.id, f.before, f.after, f.worse) for f in c.flips] == [
        ("a", "PASS", "FAIL", True), ("b", "WARN", "PASS", False),
        ("m2", "FAIL", "PASS", False)]
    assert c.flips[0].unsupported_after == ("number “$9”",)
    assert c.n_matched == 5
    (m,) = c.modules
    # M04 totals 80, 60 -> 90, 70: mean 70 -> 80; PASS rate 1/2 -> 2/2
    assert (m.mean_total_reference, m.mean_total_current, m.difference) == (70, 80, 10)
    assert (m.pass_rate_reference, m.pass_rate_current) == (0.5, 1.0)
    assert c.to_dict()["flips"][0]["worse"] is True


def test_difference_interval_excludes_zero_only_for_a_real_shift():
    same = difference_ci([0.1, 0.2, 0.3, 0.4] * 10, [0.1, 0.2, 0.3, 0.4] * 10)
    assert same[0] == 0 and same[1] < 0 < same[2]
    moved = difference_ci([0.1, 0.2, 0.3] * 20, [0.6, 0.7, 0.8] * 20)
    assert moved[0] == pytest.approx(0.5) and moved[1] > 0.4


@pytest.mark.slow
def test_cli_compare_two_runs(tmp_path, capsys):
    from evaltools.cli import main

    rows = [json.loads(line) for line in (ROOT / "data" / "responses.jsonl").read_text(
        encoding="utf-8").splitlines()[:12]]
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    extra = " It ships in 17 days and costs $999."
    changed = [dict(r, response=r["response"] + extra) if i == 0 else r
               for i, r in enumerate(rows)]
    new.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    out = tmp_path / "diff.html"
    assert main(["report", "--reference", str(old), str(new), "-o", str(out),
                 "--no-progress"]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'id="table-flips"' in page and 'id="table-shifts"' in page
    assert "number “&#36;999”" in page or "number “$999”" in page
    assert "95% interval" in page and "verdict worse" in capsys.readouterr().out

    from evaltools.report import compare_report

    again = compare_report(old, new)
    assert [s.id for s in again.sections] == ["alerts", "summary", "changes", "shift", "flips",
                                              "modules"]
    flips = again.section("flips").tables()[0]
    assert flips.rows[0][0] == rows[0]["id"]


# ------------------------------------------------------------- record by record, paired


KETTLE_Q = "What does the Acme kettle cost?"
KETTLE_C = "The Acme kettle costs $40 and holds 1.7 liters. Shipping is free."
KETTLE_BEFORE = "The Acme kettle costs $40."
KETTLE_AFTER = "The Acme kettle costs $40, or $75 with the stand."


def test_paired_difference_by_hand():
    from evaltools.compare import paired_difference

    # differences +0.1, +0.1, +0.1, +0.1: mean 0.1, every resample 0.1; of the 2**4 = 16
    # sign flips, all + and all - are as extreme: p = 2/16 = 0.125 (exact)
    d, lo, hi, p = paired_difference([0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5])
    assert (round(d, 9), round(lo, 9), round(hi, 9), p) == (0.1, 0.1, 0.1, 0.125)
    # differences +1, -1, 0, 0: mean 0; flips of the two non-zero ones: 4 of 4 give |mean|
    # >= 0, so p = 1
    d, lo, hi, p = paired_difference([0, 1, 0.5, 0.5], [1, 0, 0.5, 0.5])
    assert d == 0 and lo <= 0 <= hi and p == 1.0
    # no difference at all
    assert paired_difference([0.3, 0.3], [0.3, 0.3]) == (0.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        paired_difference([1.0], [1.0, 2.0])


def test_paired_interval_is_narrower_than_unpaired_for_matched_records():
    """A +0.05 shift on records that differ widely: the pairs see it, the runs apart do not."""
    base = [i / 40 for i in range(40)]
    ref = [{"id": str(i), "verdict": "PASS", "relevance": v} for i, v in enumerate(base)]
    cur = [{"id": str(i), "verdict": "PASS", "relevance": v + 0.05} for i, v in enumerate(base)]
    paired = compare_runs(ref, cur, scores=("relevance",)).shifts[0]
    assert paired.paired and paired.n_pairs == 40
    assert paired.difference == pytest.approx(0.05) and paired.significant
    assert paired.p_value < 0.01
    apart = compare_runs(ref, [{**r, "id": "x" + r["id"]} for r in cur],
                         scores=("relevance",)).shifts[0]
    assert not apart.paired and apart.n_pairs == 0
    assert apart.difference == pytest.approx(0.05) and not apart.significant
    assert apart.p_value > 0.05


def test_changes_list_moves_beyond_tolerance_that_flip_no_verdict():
    ref = [{"id": "a", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.8},
           {"id": "b", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.8},
           {"id": "c", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.8},
           {"id": "d", "verdict": "WARN", "hallucination": 0.0, "relevance": 0.8}]
    cur = [{"id": "a", "verdict": "PASS", "hallucination": 0.5, "relevance": 0.8},   # +0.5
           {"id": "b", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.78},  # -0.02
           {"id": "c", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.7},   # -0.1
           {"id": "d", "verdict": "PASS", "hallucination": 0.0, "relevance": 0.8}]   # flip
    c = compare_runs(ref, cur, scores=("hallucination", "relevance"), tolerance=0.05)
    # b moved 0.02 <= 0.05: not listed; the flip d first, then a (0.5), then c (0.1)
    assert [(ch.id, ch.largest_score, round(ch.largest_delta, 3)) for ch in c.changes] == [
        ("d", "hallucination", 0.0), ("a", "hallucination", 0.5), ("c", "relevance", -0.1)]
    assert [ch.worse for ch in c.changes] == [False, True, True]
    assert c.n_changed == 3 and c.changes[1].delta("relevance") == 0
    # bounded: only the top one is kept, the others counted
    top = compare_runs(ref, cur, scores=("hallucination", "relevance"), tolerance=0.05,
                       max_changes=1)
    assert [ch.id for ch in top.changes] == ["d"] and top.n_changed == 3
    # the tolerance comes from the config
    from evaltools.config import load_config

    strict = load_config().replace(compare={"tolerance": 0.01})
    assert compare_runs(ref, cur, scores=("hallucination", "relevance"),
                        config=strict).n_changed == 4


def test_regression_verdict_one_line():
    ref = [{"id": str(i), "verdict": "PASS", "hallucination": 0.0} for i in range(30)]
    worse = [{**r, "hallucination": 0.5} for r in ref]
    c = compare_runs(ref, worse, scores=("hallucination",))
    assert c.verdict == "worse"
    assert c.headline.startswith("Worse beyond chance (hallucination +0.500; paired by id). "
                                 "30 records moved beyond ±0.05; 0 verdicts worse, 0 better.")
    better = compare_runs(worse, ref, scores=("hallucination",))
    assert better.verdict == "better" and better.headline.startswith("Better beyond chance")
    one = [{**r, "hallucination": 0.5} if r["id"] == "0" else r for r in ref]
    same = compare_runs(ref, one, scores=("hallucination",))
    assert same.verdict == "unchanged"
    assert same.headline == ("No change beyond chance (paired by id). 1 record moved beyond "
                             "±0.05; 0 verdicts worse, 0 better.")
    assert same.to_dict()["verdict"] == "unchanged" and same.to_dict()["changes"][0]["worse"]


def _kettle_runs(tmp_path):
    import evaltools

    rows = [{"id": "kettle", "query": KETTLE_Q, "context": KETTLE_C}]
    rows += [{"id": f"r{i}", "query": "What colour is the mug?",
              "context": "The mug is blue and holds 350 ml.",
              "response": "The mug is blue."} for i in range(3)]
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    for path, response in ((old, KETTLE_BEFORE), (new, KETTLE_AFTER)):
        recs = [dict(r, response=r.get("response", response)) for r in rows]
        path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    before = evaltools.score(KETTLE_Q, KETTLE_C, KETTLE_BEFORE)
    after = evaltools.score(KETTLE_Q, KETTLE_C, KETTLE_AFTER)
    # the case of the issue: hallucination 0.0 -> 0.5, which the spec's rule still passed;
    # the probability (the default rule 1) fails it
    assert (before.verdict, before.hallucination, after.verdict, after.hallucination) == (
        "PASS", 0.0, "FAIL", 0.5)
    return old, new


def test_diff_page_shows_a_response_that_gained_an_unsupported_price(tmp_path, capsys):
    import evaltools
    from evaltools.cli import main

    old, new = _kettle_runs(tmp_path)
    out = tmp_path / "diff.html"
    assert main(["report", "--reference", str(old), str(new), "-o", str(out),
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "No change beyond chance (paired by id). 1 record moved beyond ±0.05" in said
    page = out.read_text(encoding="utf-8")
    assert 'id="table-changes"' in page and 'id="change-1"' in page
    changed = page[page.index('id="change-1"'):]
    changed = changed[:changed.index("</details>\n</details>") if "</details>\n</details>"
                      in changed else len(changed)]
    assert '<a href="#change-1">kettle</a>' in page
    assert "hallucination +0.500" in changed
    # both responses, the new price marked unsupported in the current one, reasons of both
    before = changed[changed.index("<h4>Before"):changed.index("<h4>Now")]
    now = changed[changed.index("<h4>Now"):]
    assert "&#36;40</mark>.</div>" in before and "&#36;75" not in before
    p_before = evaltools.score(KETTLE_Q, KETTLE_C, KETTLE_BEFORE).verdict_inputs.probability[0]
    p_now = evaltools.score(KETTLE_Q, KETTLE_C, KETTLE_AFTER).verdict_inputs.probability[0]
    assert p_before < 0.75 <= p_now
    assert f"hallucination probability {p_before:.2f} &lt; 0.75" in before
    assert "evaltools-unsupported" in now and "&#36;75</mark> with the stand." in now
    assert "not supported by the context: number “$75”" in now
    assert (f"hallucination probability {p_now:.2f} &gt;= 0.75 (safety first; calibration)"
            in now)
    # the wrong price with the claim model's probability, reported as likely hallucinated
    # (it reaches hallucination.claim_threshold, 0.15)
    (price,) = [a for a in evaltools.score(KETTLE_Q, KETTLE_C, KETTLE_AFTER).anchors
                if a.text == "$75"]
    assert price.hallucinated
    assert (f'<li class="ev-unsupported">number “$75”: unsupported, P {price.probability:.2f}, '
            "likely hallucinated</li>") in now


def test_no_scipy_warning_reaches_the_user(monkeypatch):
    """Before: 'RuntimeWarning: ks_2samp: Exact calculation unsuccessful' reached stderr even
    with -q. scipy warns so for some sample sizes; here it is made to warn every time."""
    import warnings

    import scipy.stats

    original = scipy.stats.ks_2samp

    def noisy(*args, **kwargs):
        warnings.warn("ks_2samp: Exact calculation unsuccessful. Switching to method=asymp.",
                      RuntimeWarning, stacklevel=2)
        return original(*args, **kwargs)

    monkeypatch.setattr(scipy.stats, "ks_2samp", noisy)
    ref = [{"id": str(i), "verdict": "PASS", "relevance": i / 50} for i in range(50)]
    cur = [{**r, "relevance": r["relevance"] / 2} for r in ref]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c = compare_runs(ref, cur, scores=("relevance",))
        compare_runs(ref, [{**r, "id": "x" + r["id"]} for r in cur], scores=("relevance",))
    assert [str(w.message) for w in caught] == []
    assert c.shifts[0].ks_pvalue is not None and c.shifts[0].ks_pvalue < 0.05
