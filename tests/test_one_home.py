"""Regression tests for the duplicated record logic that disagreed (issue: one home per concept).

Each test reproduces a bug that existed while the same concept had several copies:
report vs score on unreadable lines, "row" vs "line" for CSV, the config carried
twice (cache and argument), the label "true", and a report without ``--registry``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import evaltools
from evaltools.cli import main
from evaltools.config import DEFAULT_CONFIG, load_config
from evaltools.judging.registry import default_registry_text

M15 = {"module": "M15", "output": "yes", "expected": True,
       "rules": [True, True, True, True],
       "reasoning": {"chain_of_thought": 8, "evidence_usage": 8, "confidence_calibration": 4}}
GOOD = {"id": "a", "query": "How much is the Yeti Rambler?",
        "context": "The Yeti Rambler costs $35.", "response": "It costs $35."}


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_report_skip_invalid_goes_on_over_an_unreadable_line(tmp_path, capsys):
    src = tmp_path / "bad.jsonl"
    src.write_text(json.dumps(GOOD) + "\n{not json\n" + json.dumps(M15) + "\n", "utf-8")
    out = tmp_path / "r.html"
    # score goes on...
    rc, _, err = _run(capsys, "score", src, "--skip-invalid", "-q", "--no-progress")
    assert rc == 0, err
    # ...and so does report, keeping the line as an invalid record
    rc, stdout, err = _run(capsys, "report", src, "-o", out, "--skip-invalid", "--no-progress")
    assert rc == 0, err
    assert "records: 3" in stdout
    page = out.read_text("utf-8")
    assert 'id="table-invalid-records"' in page
    # without --skip-invalid both stop on it
    rc, _, err = _run(capsys, "report", src, "-o", tmp_path / "s.html", "--no-progress")
    assert rc == 2 and "bad.jsonl line 2" in err


def test_report_and_judge_name_a_csv_row_alike(tmp_path, capsys):
    src = tmp_path / "j.csv"
    src.write_text("module,output,expected\nM99,yes,true\n", "utf-8")
    rc, _, judge_err = _run(capsys, "judge", src, "--no-progress")
    assert rc == 2
    rc, _, report_err = _run(capsys, "report", src, "-o", tmp_path / "r.html", "--no-progress")
    assert rc == 2
    assert "j.csv row 1" in judge_err and "j.csv row 1" in report_err


def test_number_context_config_travels_once():
    from evaltools.scoring.features import FeatureCache
    from evaltools.scoring.scorer import ResponseScorer
    from evaltools.scoring.stream import score_stream
    from evaltools.text import load_pipeline

    on = load_config().replace(hallucination={"number_context": True})
    rec = {"query": "When was it founded?", "context": "Founded in 2006 in Austin.",
           "response": "It was founded in 2006."}
    # The scorer owns its cache, built under its own config: no IndexError.
    assert ResponseScorer(on).score(**rec).anchors_unsupported == 0
    # A cache and a config given together are refused instead of disagreeing.
    cache = FeatureCache(load_pipeline(), DEFAULT_CONFIG)
    with pytest.raises(TypeError, match="not both"):
        list(score_stream([(1, rec)], cache=cache, config=on))


@pytest.mark.parametrize("text", ["true", "True", "1", "1.0"])
def test_one_binary_label_parser(tmp_path, text):
    from evaltools.calibration._checks import binary_labels
    from evaltools.calibration.learned import fit_calibration
    from evaltools.io.labelled import read_labelled
    from evaltools.report.calibration import _binary
    from evaltools.values import binary_label

    assert binary_label(text) == 1 and binary_label("false") == 0
    src = tmp_path / "l.csv"
    src.write_text(f"query,context,response,label_hallucinated\nq,c,r,{text}\n", "utf-8")
    assert read_labelled(src)[0]["label_hallucinated"] == 1
    assert _binary(text) == 1  # the report's calibration section no longer drops it
    assert binary_labels([text, "false"]).tolist() == [1, 0]
    # fit_calibration reads the label (it then needs both classes and scores to fit)
    with pytest.raises(ValueError) as info:
        fit_calibration([{"label_hallucinated": text}], folds=2)
    assert "must be 0 or 1" not in str(info.value)


def _registry_with_m99(tmp_path: Path, pass_at: int = 70) -> Path:
    text = default_registry_text().replace("pass_at = 70", f"pass_at = {pass_at}")
    text += ('\n[modules.M99]\nname = "Custom Check"\ntype = "boolean"\n'
             + "".join(f'\n[[modules.M99.rules]]\nname = "Rule {i}"\ndescription = "r{i}"\n'
                       for i in range(1, 5)))
    path = tmp_path / "modules.toml"
    path.write_text(text, "utf-8")
    return path


def test_report_takes_the_judge_registry(tmp_path, capsys):
    reg = _registry_with_m99(tmp_path, pass_at=90)
    src = tmp_path / "j.jsonl"
    src.write_text(json.dumps({**M15, "module": "M99"}) + "\n", "utf-8")
    judged = tmp_path / "judged.jsonl"
    rc, _, err = _run(capsys, "judge", src, "--registry", reg, "-o", judged, "-q")
    assert rc == 0, err
    for inp in (src, judged):  # raw and already judged
        out = tmp_path / f"{inp.stem}.html"
        rc, _, err = _run(capsys, "report", inp, "--registry", reg, "-o", out, "-q")
        assert rc == 0, err
        page = out.read_text("utf-8")
        assert "M99" in page and "Custom Check" in page
        assert "pass_at" in page and ">90<" in page  # the registry's PASS line, not 70
    rc, _, err = _run(capsys, "report", src, "-o", tmp_path / "x.html", "-q")
    assert rc == 2 and "M99" in err


def test_report_takes_a_config(tmp_path, capsys):
    cfg = tmp_path / "strict.toml"
    cfg.write_text("[completeness]\nwarn_below = 0.77\n", "utf-8")
    src = tmp_path / "s.jsonl"
    src.write_text(json.dumps(GOOD) + "\n", "utf-8")
    out = tmp_path / "r.html"
    rc, _, err = _run(capsys, "report", src, "--config", cfg, "-o", out, "-q")
    assert rc == 0, err
    assert "0.77" in out.read_text("utf-8")


# ---------------------------------------------------------------- one aggregation per domain

_RULES = [{"name": f"r{i}", "compliant": True, "score": 10, "evidence": "e"} for i in range(4)]


def _llm_judge(total: int, verdict: str) -> dict:
    return {"evaluation": {
        "correctness": {"score": 40, "match": True, "output_value": "yes",
                        "expected_value": "yes", "details": "d"},
        "rule_compliance": {"score": 40, "rules": _RULES},
        "reasoning_quality": {"score": 20, "chain_of_thought": 8, "evidence_usage": 8,
                              "confidence_calibration": 4}},
        "total_score": total, "verdict": verdict, "summary": "s", "improvement_suggestions": []}


# clean: no finding; sum: its total is not the sum of its parts (arithmetic: inconsistent);
# differs: output wrong, the judge still says correct and PASS (correctness_mismatch,
# match_mismatch, verdict_differs: findings, but its own figures agree: not inconsistent);
# nojudge: no LLM judge.
JUDGED = [{**M15, "id": "clean", "judge": _llm_judge(100, "PASS")},
          {**M15, "id": "sum", "judge": _llm_judge(90, "PASS")},
          {**M15, "id": "differs", "output": "no", "judge": _llm_judge(100, "PASS")},
          {**M15, "id": "nojudge"}]


def test_module_stats_add_up_by_hand():
    from evaltools.judging.summary import ModuleStats

    results = [evaltools.judge(r) for r in JUDGED]
    assert [r.verdict for r in results] == ["PASS", "PASS", "FAIL", "PASS"]
    st = ModuleStats.of(results[:2]) + ModuleStats.of(r.to_dict() for r in results[2:])
    assert (st.records, st.passed, st.failed, st.errors) == (4, 3, 1, 0)
    assert st.mean_total == (100 + 100 + 60 + 100) / 4
    assert (st.judged, st.with_findings, st.inconsistent, st.findings) == (3, 2, 1, 4)
    assert st.verdict_differs == 1
    assert dict(st.kinds) == {"arithmetic": 1, "correctness": 1, "verdict vs evaltools": 1}
    assert ModuleStats.of(results) == st


def test_module_stats_skip_a_total_no_float_holds():
    """A JSON total of 10**400 (or inf) is no number: counted as a record, not in the mean
    (by hand: the mean of the two usable totals 80 and 60 is 70.0)."""
    from evaltools.judging.summary import ModuleStats

    st = ModuleStats.of([{"verdict": "PASS", "total_score": 10**400},
                         {"verdict": "PASS", "total_score": 80},
                         {"verdict": "FAIL", "total_score": float("inf")},
                         {"verdict": "FAIL", "total_score": 60}])
    assert (st.records, st.passed, st.failed, st.totals) == (4, 2, 2, 2)
    assert st.mean_total == 70.0


def test_inconsistent_means_one_thing_in_every_view(tmp_path, capsys):
    from evaltools.judging.module_audit import module_audit, modules_overview
    from evaltools.report import report_from_records

    src = tmp_path / "j.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in JUDGED), "utf-8")
    rc, out, err = _run(capsys, "judge", src)
    assert rc == 0, err
    head, row = out.splitlines()[1], next(ln for ln in out.splitlines() if ln.startswith("M15"))
    cells = dict(zip(["records", "PASS", "FAIL", "invalid", "mean total", "judges",
                      "with findings", "inconsistent", "findings"], row.split()[1:], strict=True))
    assert "with findings  inconsistent" in head
    assert (cells["judges"], cells["with findings"], cells["inconsistent"]) == ("3", "2", "1")

    rep = report_from_records(judged=[evaltools.judge(r).to_dict() | {"module": "M15"}
                                      for r in JUDGED])
    t = next(t for t in rep.section("modules").tables()
             if t.id == "module-scores").to_records()[0]
    assert (t["llm_judged"], t["llm_findings"], t["llm_inconsistent"], t["llm_disagree"]) \
        == (3, 2, 1, 1)

    o = module_audit(JUDGED, "M15").judge_overview()
    assert (o["judged"], o["with_findings"], o["inconsistent"]) == (3, 2, 1)
    row = modules_overview(JUDGED, modules=["M15"]).iloc[0]
    assert (row["judged"], row["judge_with_findings"], row["inconsistent"]) == (3, 2, 1)


def test_one_argument_message_format():
    """Parameter errors are worded by evaltools.arguments only (it had 18 hand-written copies)."""
    import evaltools.arguments as arguments

    root = Path(evaltools.__file__).parent
    own = Path(arguments.__file__)
    written = [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*.py")) if p != own
               for n, line in enumerate(p.read_text("utf-8").splitlines(), start=1)
               if "parameter of" in line and ">>>" not in line
               and not line.lstrip().startswith(("TypeError:", "ValueError:"))]
    assert written == []
    with pytest.raises(ValueError, match=r"^The 'n_bins' parameter of reliability must be a "
                                         r"positive integer\. Got 0 instead\.$"):
        from evaltools.calibration import reliability
        reliability([0, 1], [0.2, 0.8], n_bins=0)


def test_each_record_shape_has_one_schema_its_results_follow():
    from evaltools.judging.result import JUDGE_ROW_SCHEMA, JUDGE_SCHEMA
    from evaltools.schema import Schema
    from evaltools.scoring.result import SCORE_SCHEMA

    scored = evaltools.score("What does the mug cost?", "The mug costs $5.", "It costs $7.")
    assert tuple(scored.to_dict()) == SCORE_SCHEMA.names
    judged = evaltools.judge(M15)
    assert tuple(judged.to_dict()) == JUDGE_SCHEMA.names
    assert tuple(judged.to_row()) == JUDGE_ROW_SCHEMA.names
    # by hand: float, nullable integer, and object (JSON text in Parquet) for the rest
    assert SCORE_SCHEMA.dtypes()["support"] == "float64"
    assert SCORE_SCHEMA.dtypes()["anchors_total"] == "Int64"
    assert SCORE_SCHEMA.parquet_kinds()["signals"] == {"str"}
    assert JUDGE_SCHEMA.parquet_kinds()["total_score"] == {"int", "float"}
    with pytest.raises(ValueError, match="twice"):
        Schema((("a", "text"), ("a", "score")))
    with pytest.raises(ValueError, match="unknown field kinds"):
        Schema((("a", "fraction"),))


def test_two_questions_about_a_scored_record_have_two_names():
    """'Is it score output?' (the report) and 'does it hold what calibration reads?'."""
    from evaltools.report.inputs import record_kind
    from evaltools.scoring.result import has_calibration_inputs, is_score_output

    out = evaltools.score("What does the mug cost?", "The mug costs $5.", "It costs $7.")
    full = {"query": "q", **out.to_dict()}
    assert is_score_output(full) and has_calibration_inputs(full)
    assert record_kind(full) == "scored"
    # a hand-made summary row: score output for the report, too little for calibration
    short = {"id": 1, "verdict": "PASS", "relevance": 0.9}
    assert is_score_output(short) and not has_calibration_inputs(short)
    # calibration's fields without a verdict: nothing the report counts as scored
    bare = {k: full[k] for k in ("claims_score", "ngram_overlap", "anchors_total", "anchors",
                                 "hallucination")}
    assert has_calibration_inputs(bare) and not is_score_output(bare)


def test_one_csv_cell_restorer(tmp_path):
    """The report and calibration read a scored CSV back through io.cells.restore_cells."""
    import pandas as pd

    from evaltools.report.inputs import restore_cells as report_restore
    from evaltools.scoring.restore import score_labelled

    package = Path(evaltools.__file__).parent
    homes = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
             if "is not valid JSON text" in p.read_text(encoding="utf-8")]
    assert homes == ["io/cells.py"]
    row = {"id": "a", "claims_score": "0.5", "ngram_overlap": "", "anchors_total": "2",
           "hallucination": "0.25", "anchors": "", "error": "", "verdict": "WARN",
           "relevance": "0.75"}
    got = report_restore(row, source="s.csv", line=2)
    assert (got["claims_score"], got["ngram_overlap"], got["anchors_total"], got["anchors"],
            got["error"]) == (0.5, None, 2.0, None, None)
    frame = score_labelled(pd.DataFrame([row]))
    assert frame.loc[0, "claims_score"] == 0.5 and frame.loc[0, "anchors"] == []
    with pytest.raises(evaltools.errors.InputError, match=r"row 1: field 'hallucination' must "
                                                           r"be a finite number"):
        score_labelled(pd.DataFrame([{**row, "hallucination": "high"}]))


def test_worst_cases_rank_as_the_report_does():
    """Notebook 01 and the report show the same worst cases (scoring.summary.worst_key)."""
    from evaltools.report.stats import ReportStats
    from evaltools.scoring.summary import partly_supported, worst_cases

    recs = [{"id": "a", "verdict": "PASS", "hallucination": 0.9, "relevance": 0.1},
            {"id": "b", "verdict": "FAIL", "hallucination": 0.1, "relevance": 0.9},
            {"id": "c", "verdict": "FAIL", "hallucination": 0.1, "relevance": 0.2},
            {"id": "d", "verdict": "WARN", "hallucination": None, "relevance": "x"},
            {"id": "e", "error": "field 'query' is missing"},
            {"id": "f", "verdict": "FAIL", "hallucination": 0.1, "relevance": 0.2}]
    # by hand: FAIL first (c and f tie on hallucination and relevance: input order; b has
    # the higher relevance), then WARN, then PASS; the error is no case
    assert [r["id"] for r in worst_cases(recs, 10)] == ["c", "f", "b", "d", "a"]
    stats = ReportStats()
    for line, rec in enumerate(recs, start=1):
        stats.add_scored(rec, line=line)
    assert [card["id"] for card in stats.worst.items()] == ["c", "f", "b", "d", "a"]
    import pandas as pd

    frame = evaltools.score_frame(pd.DataFrame([{"query": "What does it cost?",
                                                 "context": "It costs $5.",
                                                 "response": r}
                                                for r in ("It costs $7.", "It costs $5.")]))
    assert list(worst_cases(frame, 1).index) == [0]
    assert partly_supported(frame).empty


def test_one_table_of_verdict_rules():
    """VERDICT_RULES is read by the verdict, the spec checks, the plots and the sliders."""
    from evaltools.calibration.thresholds import SPEC_RULES
    from evaltools.scoring.verdict import HIGH_RISK, VERDICT_RULES, decide
    from evaltools.widgets.score_explorer import SLIDERS

    assert [(r.score, r.key, r.direction, r.verdict) for r in VERDICT_RULES] == [
        ("hallucination", "fail_above", "above", "FAIL"),
        ("relevance", "fail_below", "below", "FAIL"),
        ("completeness", "warn_below", "below", "WARN")]
    assert {(r.section, r.key) for r in SPEC_RULES} == {
        (r.section, r.key) for r in (*VERDICT_RULES, HIGH_RISK)}
    assert SLIDERS["completeness"] == ("completeness", "warn_below", "WARN if completeness <")
    # the table decides: a config that moves a rule's threshold moves the verdict
    cfg = DEFAULT_CONFIG.replace(completeness={"warn_below": 0.2})
    assert VERDICT_RULES[2].threshold(cfg) == 0.2
    assert decide(0.5, 0.3, 0.0).verdict == "WARN" and decide(0.5, 0.3, 0.0, config=cfg
                                                               ).verdict == "PASS"
    package = Path(evaltools.__file__).parent
    orders = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
              if any('"PASS", "WARN", "FAIL"' in line and ">>>" not in line
                     for line in p.read_text(encoding="utf-8").splitlines())]
    assert orders == ["scoring/result.py"]


def test_defaults_live_only_in_the_toml(monkeypatch):
    """config.py's dataclasses hold no default; every value comes from default_config.toml."""
    import dataclasses
    import tomllib

    from evaltools import config as config_module

    for section, cls in config_module._SECTIONS.items():
        for f in dataclasses.fields(cls):
            assert f.default is dataclasses.MISSING and \
                f.default_factory is dataclasses.MISSING, (section, f.name)
    text = config_module.default_config_text()
    assert DEFAULT_CONFIG.hallucination.fail_above == \
        tomllib.loads(text)["hallucination"]["fail_above"]
    # a shipped file without a key is refused, naming the key (nothing falls back)
    broken = text.replace("warn_below", "# warn_below", 1)
    with pytest.raises(evaltools.errors.ConfigError,
                       match=r"default_config.toml: \[completeness\] warn_below is missing"):
        config_module._from_toml(tomllib.loads(broken), source="default_config.toml")


def test_one_palette_and_one_figure_module():
    """Colours are written only in evaltools/palette.py; figures live in evaltools/plots.py."""
    import re

    from evaltools import palette, plots

    package = Path(evaltools.__file__).parent
    hex_colour = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
    found = sorted({p.relative_to(package).as_posix()
                    for p in package.rglob("*") if p.suffix in (".py", ".j2", ".css")
                    and hex_colour.search(p.read_text(encoding="utf-8"))})
    assert found == ["palette.py"]
    assert not (package / "report" / "figures.py").exists()
    assert palette.VERDICT_COLOURS["FAIL"] == palette.BAD  # one red for "bad"
    # the one threshold line: a dark dashed line whose label states its value
    svg = plots.histograms_svg({"total_score": [10, 80, 90]}, value_range=(0, 100),
                               thresholds={"total_score": [(70, "PASS at")]})
    assert 'id="ev-threshold-line-0"' in svg and 'id="ev-threshold-label-0"' in svg
    assert "PASS at 70" in svg


def test_io_modules_import_no_private_name_and_parts_read_as_files_do(tmp_path):
    """One line reader and one atomic writer: io/parts.py uses records' and atomic's."""
    import ast

    from evaltools.io.parts import plan_parts, read_part
    from evaltools.io.records import read_records

    package = Path(evaltools.__file__).parent
    offenders = [(p.relative_to(package).as_posix(), a.name)
                 for p in package.rglob("*.py")
                 for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                 if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                     "evaltools.io") for a in node.names if a.name.startswith("_")]
    assert offenders == []
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'\xef\xbb\xbf{"id": 1}\n\n{"id": 2}\nnot json\n{"id": 4}\n')
    plan = plan_parts([src], records_per_part=2)
    got = [item for part in plan.parts for item in read_part(part, skip_invalid=True)]
    assert [(n, r if isinstance(r, dict) else r.message[:14]) for n, r in got] == [
        (n, r if isinstance(r, dict) else r.message[:14])
        for n, r in read_records(src, skip_invalid=True)]
    assert [n for n, _ in got] == [1, 3, 4, 5]  # the blank line 2 keeps its number
    with pytest.raises(evaltools.errors.InputError, match=r"in.jsonl line 4: not valid JSON"):
        [item for part in plan.parts for item in read_part(part)]
