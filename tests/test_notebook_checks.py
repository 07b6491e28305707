"""Notebooks shown to users carry no test plumbing; the checks they held live here.

Before: cells ended in ``assert`` lines, one showed ``# NBVAL_IGNORE_OUTPUT`` and the
module audit printed raw ``Name: count, dtype: int64`` Series. Now the checks run here
on the same data through the same package calls, nbval's ignore marker is a cell tag,
and every table is a table.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
DATA = ROOT / "data"


def _cells(path: Path):
    return [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_asserts_no_nbval_comments_no_raw_series(path):
    for i, cell in enumerate(_cells(path)):
        src = "".join(cell["source"])
        asserts = [n.lineno for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Assert)]
        assert not asserts, f"{path.name} code cell {i}: assert on line {asserts}"
        assert "NBVAL" not in src, f"{path.name} code cell {i}: an nbval comment"
        for out in cell.get("outputs", []):
            text = "".join(out.get("text", "")) + "".join(
                out.get("data", {}).get("text/plain", ""))
            assert "dtype: " not in text, f"{path.name} code cell {i}: a raw Series"


def test_ignored_output_is_a_cell_tag():
    cells = _cells(ROOT / "notebooks" / "04_interactive_scoring.ipynb")
    tagged = [c for c in cells if "nbval-ignore-output" in c["metadata"].get("tags", [])]
    assert len(tagged) == 1 and "labels" in "".join(tagged[0]["source"])


def test_exploration_checks():
    """What 01_exploration asserted, on its data."""
    import pandas as pd

    import evaltools
    from evaltools.highlight import case_html
    from evaltools.io.labelled import read_labelled
    from evaltools.scoring.summary import ScoreStats

    records = pd.DataFrame(read_labelled(DATA / "responses.jsonl", require_label=False))
    scored = evaltools.score_frame(records)
    assert len(scored) == len(records) > 0 and scored["error"].isna().all()
    stats = ScoreStats.of(scored)
    summary = stats.score_table()
    assert summary["min"].min() >= 0 and summary.loc["hallucination", "max"] <= 1
    assert stats.verdict_table()["records"].sum() == len(scored)
    assert stats.anchor_table().loc["total", "total"] == scored["anchors_total"].sum()
    worst = scored.sort_values(["hallucination", "anchors_unsupported", "relevance"],
                               ascending=[False, False, True], kind="stable").head(5)
    assert worst["hallucination"].is_monotonic_decreasing
    cards = [case_html(r) for r in worst.to_dict("records")]
    assert all("evaltools-unsupported" in c
               for c, n in zip(cards, worst["anchors_unsupported"], strict=True) if n > 0)


def test_module_audit_checks():
    """What 03_module_audit asserted: its default module has records; its tables are tables."""
    from evaltools.judging.module_audit import module_audit

    audit = module_audit(DATA / "judgments.jsonl", "M01")
    assert audit.n_records > 0
    assert audit.reasoning_bands().to_frame("records")["records"].sum() == audit.n_records
