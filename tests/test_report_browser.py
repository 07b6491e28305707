"""``report.html`` and an exported notebook, opened in headless Chromium with networking refused.

Playwright drives Debian's ``/usr/bin/chromium``. Every request that is not a
``file:`` (or ``data:``) URL is aborted and counted; the tests require none,
and no failed request, no script error. The report's summary table must be
there, its plots drawn, a column sort and a filter must work; a screenshot of
each page is saved in the test's temporary folder.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from report_synth import scored_records

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-default-apps", "--disable-extensions"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install -y chromium; scripts/setup.sh --browser)"),
]


class Page:
    """A Chromium page that refuses the network and records what went wrong."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 1600},
                                           offline=True, java_script_enabled=True)
        self.page = self.context.new_page()
        self.blocked: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console",
                     lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def _route(self, route):
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        return self.page

    def assert_clean(self):
        assert self.blocked == [], f"network requests: {self.blocked}"
        assert self.failed == [], f"failed requests: {self.failed}"
        assert self.errors == [], f"script errors: {self.errors}"


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    from evaltools.cli import main

    d = tmp_path_factory.mktemp("report")
    scored = d / "scored.jsonl"
    with scored.open("w", encoding="utf-8") as fh:
        for rec in scored_records(400, labelled_every=4):
            fh.write(json.dumps(rec) + "\n")
    out = d / "report.html"
    assert main(["report", str(scored), str(ROOT / "data" / "judgments.jsonl"),
                 "-o", str(out), "-q"]) == 0
    return out


def _column(page, table: str, index: int) -> list[str]:
    return page.eval_on_selector_all(
        f"#table-{table} tbody tr:not([hidden])",
        f"rows => rows.map(r => r.cells[{index}].getAttribute('data-v'))")


def test_report_renders_offline(browser, report_html, tmp_path):
    w = Page(browser)
    page = w.open(report_html)

    # The summary table is there, with the verdict mix.
    summary = page.locator("#table-scored-verdicts table")
    assert summary.is_visible()
    assert summary.locator("tbody tr").count() >= 2
    assert page.locator("#summary .ev-stat").first.is_visible()
    assert int(page.get_attribute("html", "data-ev-tables")) >= 10

    # Plots are drawn: visible SVGs with paths and a real size.
    figures = page.locator("figure.ev-figure svg")
    assert figures.count() >= 4
    box = figures.first.bounding_box()
    assert box["width"] > 200 and box["height"] > 100
    assert figures.first.locator("path").count() > 10

    # Sorting a numeric column: ascending, then descending.
    header = page.locator("#table-worst-table th", has_text="Relevance")
    index = page.eval_on_selector_all("#table-worst-table th",
                                      "hs => hs.findIndex(h => h.textContent.trim() === "
                                      "'Relevance')")
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    values = [float(v) for v in _column(page, "worst-table", index)]
    assert values == sorted(values) and values[0] < values[-1]
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    values = [float(v) for v in _column(page, "worst-table", index)]
    assert values == sorted(values, reverse=True)

    # Sorting a text column.
    page.locator("#table-modules th", has_text="Module").first.locator("button").click()
    names = _column(page, "modules", 0)
    assert names == sorted(names, key=str.lower)

    # Filtering rows by typing.
    total = page.locator("#table-modules tbody tr:not([hidden])").count()
    page.locator("#table-modules .ev-filter").fill("M12")
    shown = page.locator("#table-modules tbody tr:not([hidden])")
    assert 0 < shown.count() < total
    assert all("M12" in t for t in shown.all_inner_texts())
    assert "of" in page.locator("#table-modules .ev-count").inner_text()

    # Highlighted anchors in the worst cases.
    assert page.locator("#worst mark.evaltools-anchor").count() > 0

    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000
    w.assert_clean()
    w.context.close()


def test_every_threshold_line_says_its_value(browser, report_html):
    w = Page(browser)
    page = w.open(report_html)
    lines = page.locator("figure.ev-figure svg [id^='ev-threshold-line']")
    labels = page.locator("figure.ev-figure svg [id^='ev-threshold-label']")
    assert lines.count() >= 1
    assert labels.count() == lines.count()
    texts = [" ".join(t.split()) for t in labels.all_text_contents()]
    assert all(re.search(r"\d", t) for t in texts), texts
    judge = page.locator("#fig-judge-total-distribution svg")
    assert re.search(r"PASS at \d+", " ".join(judge.all_text_contents())), texts
    # Legible: no threshold label or tick smaller than 9 px.
    sizes = page.eval_on_selector_all(
        "figure.ev-figure svg text",
        "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize))")
    assert sizes and min(sizes) >= 9, sorted(sizes)[:5]
    w.assert_clean()
    w.context.close()


def test_module_tables_fit_the_page_with_readable_numbers(browser, report_html):
    w = Page(browser)
    page = w.open(report_html)
    # No table of the judge section needs sideways scrolling at 1280 px; the module
    # overview leads with what is read first.
    for tid in ("modules", "module-scores", "correctness-mix", "reasoning"):
        table = page.locator(f"#table-{tid} .ev-scroll")
        assert table.count() == 1, tid
        sizes = table.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert sizes[0] <= sizes[1] + 1, (tid, sizes)
    heads = page.locator("#table-modules thead th").all_inner_texts()
    assert len(heads) <= 9, heads
    assert [h.strip() for h in heads[:5]] == ["Module", "Name", "Records", "Pass rate",
                                              "Mean total (of 100)"], heads
    # Floats to three significant digits (76.8, 5.67, 0.123), rates as percentages.
    cells = page.eval_on_selector_all(
        "#table-module-scores tbody td, #table-modules tbody td, #table-reasoning tbody td",
        "tds => tds.map(t => t.innerText.trim())")
    assert cells
    assert not [c for c in cells if re.fullmatch(r"\d{2,}\.\d{2,}|\d\.\d{3,}", c)], cells
    rates = page.eval_on_selector_all("#table-modules tbody td:nth-child(4)",
                                      "tds => tds.map(t => t.innerText.trim())")
    assert rates and all(r.endswith("%") for r in rates), rates
    w.assert_clean()
    w.context.close()


def test_alerts_at_the_top_link_to_their_sections(browser, report_html):
    w = Page(browser)
    page = w.open(report_html)
    first = page.locator("main section.ev-section").first
    assert first.get_attribute("id") == "alerts"
    links = first.locator(".ev-alert a")
    assert links.count() >= 2
    texts = " ".join(links.all_inner_texts())
    assert "LLM judgments are inconsistent" in texts
    for href in links.evaluate_all("as => as.map(a => a.getAttribute('href'))"):
        assert href.startswith("#")
        assert page.locator(f"[id='{href[1:]}']").count() == 1, href
    box = first.bounding_box()
    assert box["y"] < 400              # seen without scrolling
    links.last.click()
    target = links.last.get_attribute("href")
    assert page.evaluate("() => location.hash") == target
    assert page.locator(f"[id='{target[1:]}']").bounding_box()["y"] < 200  # scrolled to it
    w.assert_clean()
    w.context.close()


def test_index_links_every_page_with_time_version_and_checksums(browser, report_html,
                                                                tmp_path):
    import hashlib

    from evaltools import __version__
    from evaltools.report.index import write_index

    reports = tmp_path / "reports"
    (reports / "notebooks").mkdir(parents=True)
    (reports / "audits").mkdir()
    shutil.copy(report_html, reports / "report.html")
    for sub, name in (("notebooks", "01_exploration"), ("audits", "03_module_audit_M02")):
        (reports / sub / f"{name}.html").write_text(f"<!DOCTYPE html><title>{name}</title>"
                                                    f"<h1>{name}</h1>", encoding="utf-8")
    data = ROOT / "data" / "judgments.jsonl"
    write_index(reports, inputs=[data])

    w = Page(browser)
    page = w.open(reports / "index.html")
    body = page.locator("body").inner_text()
    assert __version__ in body and "UTC" in body
    assert hashlib.sha256(data.read_bytes()).hexdigest() in body
    hrefs = page.eval_on_selector_all("a", "as => as.map(a => a.getAttribute('href'))")
    assert sorted(hrefs) == ["./audits/03_module_audit_M02.html",
                             "./notebooks/01_exploration.html", "./report.html"]
    page.locator("a", has_text="01 exploration").click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == "01_exploration"
    page.go_back()
    page.locator("a", has_text="report").first.click()
    page.wait_for_load_state("load")
    assert page.locator("#alerts").count() == 1
    w.assert_clean()
    w.context.close()


def _export_module():
    spec = importlib.util.spec_from_file_location("export_notebooks",
                                                  ROOT / "scripts" / "export_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUNDLE = ROOT / "vendor" / "widgets"


def _widget_notebook() -> Path | None:
    """The first notebook that displays widgets (stored widget views), else imports them."""
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for marker in ("application/vnd.jupyter.widget-view+json", "evaltools.widgets"):
        for nb in notebooks:
            if marker in nb.read_text(encoding="utf-8"):
                return nb
    return None


@pytest.mark.slow
def test_exported_notebook_widgets_render_offline(browser, tmp_path):
    from evaltools.report.notebooks import bundle_files

    export = _export_module()
    if not bundle_files(BUNDLE):
        pytest.skip("no widget bundle in vendor/widgets/ (run scripts/fetch_widget_bundle.sh)")
    nb = _widget_notebook()
    if nb is None:
        pytest.skip("no notebook uses evaltools.widgets")
    # Run a copy: executing a notebook may write files next to it (labels).
    work = tmp_path / "repo"
    shutil.copytree(ROOT / "notebooks", work / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(ROOT / "data", work / "data")
    out = tmp_path / "html"
    assert export.main([str(work / "notebooks" / nb.name), "--out", str(out)]) == 0
    page_path = out / f"{nb.stem}.html"
    assert 'src="require.js"' in page_path.read_text(encoding="utf-8")

    w = Page(browser)
    page = w.open(page_path)
    page.wait_for_selector(".jupyter-widgets", timeout=20_000)
    assert page.locator(".jupyter-widgets").count() > 0
    assert page.locator(".widget-button, .jupyter-button").count() > 0

    # Honest about being static: a note above each widget, every control disabled.
    notes = page.locator(".evaltools-snapshot-note")
    assert notes.count() >= 3 and notes.first.is_visible()
    assert "run the notebook to interact" in notes.first.inner_text()
    assert notes.first.inner_text().strip().startswith("static snapshot")  # no missing glyph
    # Widgets in the page's font, not the browser's default serif.
    page_font = page.locator(".jp-RenderedMarkdown p").first.evaluate(
        "e => getComputedStyle(e).fontFamily")
    for sel in (".widget-html-content", ".jupyter-widgets .widget-label",
                ".evaltools-snapshot-note"):
        font = page.locator(sel).first.evaluate("e => getComputedStyle(e).fontFamily")
        assert font == page_font, (sel, font, page_font)
    controls = ".jupyter-widgets button, .jupyter-widgets input, .jupyter-widgets textarea, " \
               ".jupyter-widgets select"
    assert page.locator(controls).count() > 5
    # "Copy JSON" copies the JSON shown on the page: it works without a kernel.
    live = page.eval_on_selector_all(controls, "els => els.filter(e => !e.disabled && "
                                               "!e.classList.contains('evaltools-copy'))"
                                               ".map(e => e.outerHTML.slice(0, 80))")
    assert live == [], live
    # A slider handle does not move when dragged.
    slider = page.locator(".jupyter-widgets .widget-slider").first
    readout = slider.locator(".widget-readout").first
    before = readout.inner_text()
    handle = slider.locator(".noUi-handle, .ui-slider-handle").first
    box = handle.bounding_box()
    page.mouse.move(box["x"] + 2, box["y"] + 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 150, box["y"] + 2)
    page.mouse.up()
    assert readout.inner_text() == before
    shot = tmp_path / "notebook.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    w.assert_clean()
    w.context.close()


@pytest.mark.slow
def test_module_audit_page_loads_nothing_missing_and_shows_parameters_once(browser, tmp_path):
    out = tmp_path / "audits"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_module_audits.py"),
                           "--modules", "M02", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    page_path = out / "03_module_audit_M02.html"
    text = page_path.read_text(encoding="utf-8")
    assert "require.js" not in text

    w = Page(browser)
    page = w.open(page_path)
    page.wait_for_timeout(500)
    inputs = page.locator(".jp-InputArea-editor").all_inner_texts()
    assigned = [t for t in inputs if re.search(r"^module\s*=", t, re.M)]
    assert len(assigned) == 1 and '"M02"' in assigned[0], assigned
    # The defaults papermill did not override stay: every name the page uses is defined on it.
    assert [t for t in inputs if re.search(r"^data\s*=", t, re.M)], inputs[:3]
    assert any("papermill set module" in t for t in inputs), inputs[:3]
    assert "M02" in page.locator("h1, h2").first.inner_text() or "M02" in page.content()
    page.screenshot(path=str(tmp_path / "audit.png"), full_page=False)
    w.assert_clean()
    w.context.close()


def test_diff_page_shows_a_changed_record_side_by_side(browser, tmp_path):
    """The comparison page: a response that gained an unsupported "$75" (hallucination
    0.0 -> 0.5, still PASS) is in the changed-records table; its link opens it."""
    from test_compare_runs import _kettle_runs

    from evaltools.cli import main

    old, new = _kettle_runs(tmp_path)
    out = tmp_path / "diff.html"
    assert main(["report", "--reference", str(old), str(new), "-o", str(out), "-q",
                 "--no-progress"]) == 0
    w = Page(browser)
    page = w.open(out)
    assert "No change beyond chance" in page.locator("#summary p.ev-text").first.inner_text()
    rows = page.locator("#table-changes tbody tr")
    assert rows.count() == 1 and "kettle" in rows.first.inner_text()
    change = page.locator("#change-1")
    assert change.get_attribute("open") is None
    assert not change.locator(".ev-sides").is_visible()
    rows.first.locator("a").click()  # the link goes to the record and opens it
    page.wait_for_function("document.getElementById('change-1').open")
    assert change.locator(".ev-sides").is_visible()
    now = change.locator(".ev-side").nth(1)
    assert now.locator("mark.evaltools-unsupported").inner_text() == "$75"
    assert "not supported by the context" in now.inner_text()
    assert change.locator(".ev-side").nth(0).locator("mark.evaltools-unsupported").count() == 0
    # sortable by the delta
    header = page.locator("#table-changes th", has_text="Δ hallucination")
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    w.assert_clean()
    w.context.close()


def test_exported_widget_page_copied_alone_says_its_widgets_are_missing(browser, tmp_path):
    """Before: the page loaded require.js/embed-amd.js from beside it, failed, and its
    widgets went blank without a word. Now it says what is missing, where they would be."""
    import nbformat

    from evaltools.report.notebooks import execute_notebook, export_html

    path = tmp_path / "w.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import ipywidgets as w\nw.IntSlider(value=3, description='k')")]), path)
    page_path = tmp_path / "alone" / "w.html"
    page_path.parent.mkdir()
    page_path.write_text(export_html(execute_notebook(path, timeout=120), name="w"),
                         encoding="utf-8")
    w = Page(browser)
    page = w.open(page_path)
    banner = page.locator("#evaltools-widgets-missing")
    banner.wait_for(timeout=10_000)
    assert banner.is_visible()
    assert "require.js and embed-amd.js" in banner.inner_text()
    note = page.locator(".evaltools-snapshot-note")
    assert note.count() == 1 and "cannot be shown" in note.first.inner_text()
    assert w.blocked == []  # it looked for the files beside it, nothing else
    w.context.close()
