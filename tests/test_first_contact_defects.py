"""What a new user tripped on (first contact), each fixed and held here.

Items 2 (exported widgets), 3 (setup noise), 4 (two rates), 5 (scipy warning) and 6
(notebook plumbing) are tested in test_report_browser, test_setup_quiet,
test_module_audit, test_compare_runs and test_notebook_checks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evaltools.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SMALL = str(DATA / "responses_small.csv")


def _lines(path: Path, rows) -> Path:
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows),
                    encoding="utf-8")
    return path


# ---------------------------------------------------------------- 1: output paths


def test_output_in_a_missing_folder_is_an_error_and_makes_no_folder(tmp_path, capsys):
    out = tmp_path / "typo" / "dir" / "x.jsonl"
    assert main(["score", SMALL, "-o", str(out), "--no-progress", "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"evaltools score: error: {out}: cannot write there (the folder "
                   f"{out.parent} does not exist; create it first, evaltools creates no "
                   f"folders)")
    assert not (tmp_path / "typo").exists()
    assert main(["report", SMALL, "-o", str(tmp_path / "nope" / "r.html"), "-q",
                 "--no-progress"]) == 2
    assert not (tmp_path / "nope").exists()


def test_output_to_dev_null_drains(capsys):
    assert main(["score", SMALL, "-o", os.devnull, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "unknown file type" not in err and "records  12" in out


# ---------------------------------------------------------------- 7: the report


@pytest.fixture(scope="module")
def labelled_report(tmp_path_factory):
    from evaltools.report.build import build_report

    return build_report([DATA / "responses.jsonl", DATA / "judgments.jsonl"])


def test_report_header_has_the_generation_time(tmp_path, monkeypatch):
    from evaltools.report.build import report_from_records

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    page = report_from_records(scored=[{"id": "1", "relevance": 0.5, "completeness": 1.0,
                                        "hallucination": 0.0, "verdict": "PASS"}]).to_html()
    header = page[page.index('<header class="ev-header">'):page.index("</header>")]
    assert "generated <time>2023-11-14 22:13 UTC</time>" in header


def test_confusion_matrix_once_and_kappas_explained(labelled_report):
    cal = labelled_report.section("calibration")
    ids = [getattr(b, "id", None) for b in cal.blocks]
    assert "verdict-confusion" in ids and "verdict-confusion-figure" not in ids
    judge = labelled_report.section("judge") if any(
        s.id == "judge" for s in labelled_report.sections) else None
    for section in filter(None, (cal, judge)):
        for i, b in enumerate(section.blocks):
            labels = [s.label for s in getattr(b, "items", ())]
            if "Cohen's kappa" in labels:
                note = section.blocks[i + 1].text
                assert note.startswith("Kappa: agreement beyond chance")
                if "Weighted kappa" not in labels:
                    assert "With two verdicts the linearly weighted kappa equals Cohen's" \
                        in note


def test_two_verdicts_show_one_kappa():
    from evaltools.report.calibration import agreement_blocks

    blocks = agreement_blocks("x", "Judge", ["PASS", "FAIL", "PASS", "FAIL"],
                              ["PASS", "FAIL", "FAIL", "FAIL"], ("PASS", "FAIL"))
    labels = [s.label for s in blocks[0].items]
    assert "Cohen's kappa" in labels and "Weighted kappa" not in labels
    # kappa by hand: observed 3/4; expected (2/4*1/4 + 2/4*3/4) = 1/2; (0.75-0.5)/0.5 = 0.5
    assert dict((s.label, s.value) for s in blocks[0].items)["Cohen's kappa"] == "0.500"
    three = agreement_blocks("y", "Verdicts", ["PASS", "WARN", "FAIL"],
                             ["PASS", "FAIL", "FAIL"], ("PASS", "WARN", "FAIL"))
    assert "Weighted kappa" in [s.label for s in three[0].items]
    assert [b.kind for b in blocks] == ["stats", "text", "table"]


def test_a_threshold_that_flags_everything_is_not_recommended():
    from evaltools.report.build import report_from_records

    # completeness 1.0 everywhere and most people did not PASS: F1 is best when every
    # record is flagged ("completeness <= 1", 100%), which separates nothing
    scored = [{"id": str(i), "relevance": 0.2 + i / 40, "completeness": 1.0,
               "hallucination": (i % 2) * 0.6, "verdict": "FAIL" if i % 2 else "PASS",
               "label_hallucinated": i % 2, "label_relevant": 1 if i % 3 else 0,
               "label_verdict": "PASS" if i % 4 == 0 else "WARN"}
              for i in range(24)]
    import pandas as pd

    import evaltools.calibration as cal

    raw = cal.threshold_table(pd.DataFrame(scored))
    assert ((raw["check"] == "completeness WARN") & (raw["source"] != "spec")
            & (raw["flagged_share"] == 1.0)).any()  # what the report used to recommend
    cal = report_from_records(scored=scored).section("calibration")
    table = next(t for t in cal.tables() if t.id == "thresholds")
    rows = table.to_records()
    assert not [r for r in rows if r["source"] != "spec" and r["flagged_share"] == 1.0]
    assert not [r for r in rows if r["rule"] == "completeness <= 1"
                and r["source"] != "spec"]
    assert "flags every record or none" in table.note and "completeness" in table.note


def test_collapsed_worst_case_shows_query_and_reason(labelled_report):
    from evaltools.report.model import Case

    case = next(b for b in labelled_report.section("worst").blocks if isinstance(b, Case))
    assert case.query and f"“{case.query[:20]}" in case.headline
    assert case.reasons[0][:30] in case.headline
    assert "responses.jsonl line" in case.headline


# ---------------------------------------------------------------- 8: messages


def test_empty_response_says_it_is_empty():
    import evaltools

    r = evaltools.score("How much?", "It costs $35.", "   ")
    assert r.completeness == 1.0  # the query has no keywords: nothing asked could be missed
    assert r.reasons[1].startswith("the response is empty")
    full = evaltools.score("How much?", "It costs $35.", "It costs $35.")
    assert not any("empty" in x for x in full.reasons)


def test_semicolon_csv_shows_the_header_read(tmp_path, capsys):
    src = tmp_path / "semi.csv"
    src.write_text("query;context;response\nq;c;r\n", encoding="utf-8")
    assert main(["score", str(src), "--no-progress"]) == 2
    assert ("columns read: 'query;context;response' (one column: is the file separated by "
            "';'? CSV must be comma-separated)") in capsys.readouterr().err


@pytest.mark.parametrize("command", ["score", "report", "check"])
def test_errors_come_in_file_order(tmp_path, capsys, command):
    """Before: the invalid JSON of line 3 was reported before the missing field of line 1."""
    src = _lines(tmp_path / "in.jsonl", [{"query": "q", "context": "c"},
                                         {"query": "q", "context": "c", "response": "r"},
                                         "not json\n"])
    extra = {"score": [], "report": ["-o", str(tmp_path / "r.html")],
             "check": ["--max-fail", "0"]}[command]
    argv = [command, str(src), *extra] + (["--no-progress"] if command != "check" else [])
    assert main(argv) == 2
    assert "in.jsonl line 1: field 'response' is missing" in capsys.readouterr().err


def test_bare_command_prints_help(capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: evaltools") and "examples:" in out and err == ""


def test_mistyped_subcommand_gets_did_you_mean(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["scroe", "x.jsonl"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown command 'scroe' (did you mean score?)" in err
    assert "invalid choice" not in err


# ---------------------------------------------------------------- 9: kinds and languages


def test_times_are_shown_as_date_time_anchors(capsys):
    from evaltools.scoring.summary import ScoreStats

    assert main(["score", SMALL, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "  date/time " in out and "  date " not in out
    stats = ScoreStats.of([{"verdict": "PASS", "anchors": [
        {"kind": "date", "text": "9am", "supported": True}]}])
    assert list(stats.anchor_table().index) == ["date/time", "total"]


def test_non_english_input_is_warned_about():
    import evaltools

    r = evaltools.score("¿Cuánto cuesta el termo Yeti Rambler de acero?",
                        "El termo Yeti Rambler cuesta 35 dólares.",
                        "El termo Yeti Rambler de acero cuesta 35 dólares.")
    assert any(x.startswith("the text does not look like English") for x in r.reasons)
    en = evaltools.score("How much does the Yeti Rambler cost?",
                         "The Yeti Rambler costs $35.", "The Yeti Rambler costs $35.")
    assert not any("English" in x for x in en.reasons)
