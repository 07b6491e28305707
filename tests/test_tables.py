"""Readable notebook tables: counts as integers, rates as percentages, floats to 2-3 digits."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.tables import readable

ROOT = Path(__file__).resolve().parent.parent
TABLE_NOTEBOOKS = ["01_exploration.ipynb", "02_calibration.ipynb", "03_module_audit.ipynb"]


def test_a_verdict_table_by_hand():
    t = pd.DataFrame({"records": [10, 24, 40], "share": [10 / 74, 24 / 74, 40 / 74],
                      "mean": [0.074388, 0.5, 1.0], "total": [76.798, 30.632, 5.5]},
                     index=["PASS", "WARN", "FAIL"])
    r = readable(t)
    assert r.to_dict("list") == {"records": ["10", "24", "40"],
                                 "share": ["13.5%", "32.4%", "54.1%"],
                                 "mean": ["0.074", "0.500", "1.000"],
                                 "total": ["76.8", "30.6", "5.5"]}
    assert list(r.index) == ["PASS", "WARN", "FAIL"]
    assert t["share"].iloc[0] == 10 / 74  # the numeric table is left alone


def test_an_overview_series_of_counts_and_measures():
    s = pd.Series({"judged": 6, "arithmetic_wrong": 2, "total_gap_mean": 4.1666,
                   "total_gap_max": 10.0, "none": None}, name="M01")
    assert readable(s).tolist() == ["6", "2", "4.17", "10", "—"]


def test_text_lists_and_named_percent_columns():
    t = pd.DataFrame({"rule": ["1. A", "2. B"], "flagged": [0.25, None],
                      "reasons": [["x"], []]})
    r = readable(t, percent=["flagged"])
    assert r["rule"].tolist() == ["1. A", "2. B"]
    assert r["flagged"].tolist() == ["25.0%", "—"]
    assert r["reasons"].tolist() == [["x"], []]


@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                          st.integers(-10**9, 10**9)), min_size=1, max_size=20))
def test_never_crashes_and_keeps_shape(values):
    t = pd.DataFrame({"x": values, "share": values})
    r = readable(t)
    assert r.shape == t.shape and list(r.columns) == ["x", "share"]
    for text in r["x"]:
        if isinstance(text, str) and re.fullmatch(r"-?[\d,]+\.\d+", text):
            assert len(text.split(".")[1]) <= 3, text


class _Tables(HTMLParser):
    """The header and body cells of every <table> in an HTML output."""

    def __init__(self):
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list[str] | None = None
        self._row: list[str] = []
        self._in_head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"head": [], "rows": []})
        elif tag == "thead":
            self._in_head = True
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "tr":
            self._row = []

    def handle_endtag(self, tag):
        if tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append(("".join(self._cell).strip(), tag))
            self._cell = None
        elif tag == "tr" and self.tables:
            if self._in_head:
                self.tables[-1]["head"].append([t for t, _ in self._row])
            else:
                self.tables[-1]["rows"].append([t for t, k in self._row if k == "td"])

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _stored_tables(name):
    nb = json.loads((ROOT / "notebooks" / name).read_text("utf-8"))
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            html = "".join(out.get("data", {}).get("text/html", ""))
            if 'class="dataframe' in html:
                parser = _Tables()
                parser.feed(html)
                for table in parser.tables:
                    yield i, table


@pytest.mark.parametrize("name", TABLE_NOTEBOOKS)
def test_stored_notebook_tables_are_readable(name):
    tables = list(_stored_tables(name))
    assert tables, f"{name} shows no table"
    for i, table in tables:
        cells = [c for row in table["rows"] for c in row]
        long = [c for c in cells if re.fullmatch(r"-?[\d,]*\.\d{4,}", c)]
        assert not long, f"{name} cell {i}: floats with more than 3 decimals {long[:5]}"
        head = table["head"][0] if table["head"] else []
        index_cols = len(head) - len(table["rows"][0]) if table["rows"] else 0
        for j, col in enumerate(head[index_cols:]):
            values = [row[j] for row in table["rows"] if j < len(row)]
            if re.fullmatch(r"share|rate|.*_share|.*_rate", col):
                assert all(v.endswith("%") or v == "—" for v in values), (name, i, col, values)
            if col in ("count", "records", "n", "n_valid", "tp", "fp", "tn", "fn", "assessed",
                       "violated", "supported", "unsupported", "total"):
                assert all(re.fullmatch(r"[\d,]+|—", v) for v in values), (name, i, col, values)
