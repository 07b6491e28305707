"""Rendering: one self-contained page, escaped, deterministic, written atomically."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from report_synth import judged_records, scored_records

from evaltools.report import Limits, report_from_records
from evaltools.report import html as report_html


@pytest.fixture(scope="module")
def report():
    scored = list(scored_records(300, labelled_every=3))
    scored[0]["response"] = "<script>alert('x')</script> costs $1"
    scored[0]["verdict"], scored[0]["hallucination"] = "FAIL", 1.0
    scored[0]["anchors"] = []
    return report_from_records(scored=scored, judged=list(judged_records(170)),
                               limits=Limits(table_rows=40, recommend_records=1))


@pytest.fixture(scope="module")
def page(report):
    return report.to_html()


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def test_page_loads_nothing(page):
    parser = _Tags()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert "src" not in attrs, (tag, attrs)
        if tag == "link":
            pytest.fail(f"external stylesheet: {attrs}")
        href = attrs.get("href", "")
        assert not href or href.startswith(("#", "data:")), (tag, href)
    assert "@import" not in page
    for url in re.findall(r"url\(([^)]*)\)", page):
        assert url.strip("'\" ").startswith(("#", "data:")), url
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_script_is_inline_and_small(page):
    parser = _Tags()
    parser.feed(page)
    assert len(parser.scripts) == 1
    assert len(parser.scripts[0]) < 6_000


def test_user_text_is_escaped(page):
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(" in page


def test_every_section_and_table_is_rendered(report, page):
    for s in report.sections:
        assert f'<section class="ev-section" id="{s.id}">' in page
        for t in s.tables():
            assert f'id="table-{t.id}"' in page
            if t.rows_omitted:
                assert f"{t.rows_omitted:,} more row" in page
    assert page.count("<svg") >= 4
    assert 'aria-sort="none"' in page


def test_numeric_cells_sort_by_their_value(page):
    assert re.search(r'<td data-v="0\.\d+" class="ev-float">', page)
    assert re.search(r'<td data-v="\d+\.0" class="ev-int">', page)


def test_rendering_is_deterministic(report):
    assert report.to_html() == report.to_html()


def test_html_layer_renders_with_templates_only():
    source = Path(report_html.__file__).read_text(encoding="utf-8")
    assert "<table" not in source and "<td" not in source and "<section" not in source


def test_fragment_for_notebooks(report):
    frag = report._repr_html_()
    assert frag.startswith('<div class="ev-report ') and "<html" not in frag
    one = report_html.render_section(report.section("summary"))
    assert 'id="summary"' in one


def test_write_is_atomic(tmp_path, report, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("old report")

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        report.to_file(target)
    assert target.read_text() == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    monkeypatch.undo()
    report.to_file(target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_a_failing_render_leaves_no_file(tmp_path, monkeypatch):
    rep = report_from_records()

    def broken(report):
        raise RuntimeError("template error")

    monkeypatch.setattr(report_html, "render_html", broken)
    with pytest.raises(RuntimeError):
        report_html.write_html(rep, tmp_path / "r.html")
    assert list(tmp_path.iterdir()) == []


def test_notebook_and_widget_views_share_the_model(report):
    summary = report.section("summary")
    assert 'id="summary"' in summary._repr_html_()
    table = summary.tables()[0]
    assert f'id="table-{table.id}"' in table._repr_html_()
    assert "<svg" in summary.figures()[0]._repr_html_()
    import ipywidgets

    tab = report.to_widgets()
    try:
        assert len(tab.children) == len(report.sections)
        assert tab.get_title(1) == "Summary"
        assert 'id="table-scored-verdicts"' in tab.children[1].value
    finally:
        ipywidgets.Widget.close_all()


def test_anchor_probabilities_are_shown_and_hostile_ones_are_not():
    # a case's side (the diff page's before / now) lists its anchors with their probability
    side = report_html.environment().from_string(
        '{% import "_blocks.j2" as ev %}{{ ev.side(c, "Now") }}')
    anchor = {"kind": "number", "text": "$7", "start": 0, "end": 2, "supported": False}

    def item(**extra) -> str:
        c = {"verdict": "FAIL", "reasons": [], "response": "$7 now", "response_cut": 0,
             "anchors": [{**anchor, **extra}]}
        (li,) = re.findall(r'<li class="ev-unsupported">[^<]*</li>', side.render(c=c))
        return li

    assert item(probability=0.8349, hallucinated=True) == (
        '<li class="ev-unsupported">number “$7”: unsupported, P 0.83, likely hallucinated</li>')
    assert item(probability=0.1, hallucinated=False) == (
        '<li class="ev-unsupported">number “$7”: unsupported, P 0.10</li>')
    bare = '<li class="ev-unsupported">number “$7”: unsupported</li>'
    assert item() == bare
    assert item(probability="<b>0.9</b>", hallucinated="yes") == bare  # not a number
    assert item(probability=True, hallucinated=True) == bare
