"""Records full of markup and script, opened in real Chromium with the network refused.

The report (from a scored file and a judged file whose every field is hostile),
a notebook fragment and a notebook case card are opened in Debian's
``/usr/bin/chromium``. Each hostile payload would change ``document.title``,
set ``window.__pwned``, open a dialog or request a URL if it ran; the test
focuses and hovers every element to fire ``autofocus``/``onfocus``/``onmouseover``
payloads, and asserts none of that happened and no request was made. The
report's own script must still run (its tables sort).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_report_browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium"),
]

ROOT = Path(__file__).resolve().parent.parent
RUN = "document.title='PWNED';window.__pwned=1;alert(1)"
PAYLOADS = [
    f"<script>{RUN}</script>",
    f'"><img src=x onerror="{RUN}">',
    f"'><svg onload=\"{RUN}\">",
    f"</style><script>{RUN}</script><style>",
    f"</textarea></title><script>{RUN}</script>",
    f"javascript:{RUN}",
    "{{ 7*7 }} ${7*7} {% raw %}",
    f'x" autofocus onfocus="{RUN}" data-x="',
    f"<a href=\"javascript:{RUN}\">click</a>",
    "<img src=http://example.invalid/track.png>",
    "<link rel=stylesheet href=http://example.invalid/x.css>",
    f"<base href=http://example.invalid/><form action=http://example.invalid/>"
    f"<button>go</button></form><iframe src=\"javascript:{RUN}\"></iframe>",
]


def _hostile(i: int) -> str:
    return " ".join(PAYLOADS[(i + k) % len(PAYLOADS)] for k in range(3))


def scored(n: int = 24):
    for i in range(n):
        response = _hostile(i) + " costs $5."
        start = response.index("$5")
        yield {"id": _hostile(i + 1), "query": _hostile(i + 2), "context": _hostile(i + 3)
               + " $5", "response": response,
               "relevance": 0.1, "completeness": 0.1, "hallucination": 1.0,
               "verdict": ["PASS", "FAIL", PAYLOADS[i % len(PAYLOADS)]][i % 3],
               "reasons": [_hostile(i + 4)], "keywords": [_hostile(i)],
               "category": _hostile(i + 5), "label_verdict": _hostile(i + 6),
               "anchors": [{"kind": PAYLOADS[(i + 7) % len(PAYLOADS)], "text": "$5",
                            "start": start, "end": start + 2, "supported": bool(i % 2),
                            "evidence": _hostile(i + 8), "note": _hostile(i + 9)}]}


def judged(n: int = 12):
    base = json.loads((ROOT / "data" / "judgments.jsonl").read_text("utf-8").splitlines()[0])
    for i in range(n):
        yield {**base, "id": _hostile(i), "output": [_hostile(i + 1)],
               "expected": [_hostile(i + 2)],
               "judge": {"verdict": _hostile(i + 3), "summary": _hostile(i + 4),
                         "total_score": _hostile(i + 5)}}


class Watched:
    def __init__(self, browser):
        self.context = browser.new_context(offline=True, java_script_enabled=True)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def _route(self, route):
        url = route.request.url
        if url.startswith("file:") and url.endswith((".html", ".htm")) and \
                route.request.is_navigation_request():
            route.continue_()
        else:
            self.requests.append(url)
            route.abort()

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        self.page.evaluate("""() => {
            for (const el of document.querySelectorAll('*')) {
                try { el.focus(); } catch (e) {}
                for (const t of ['mouseover', 'mouseenter', 'click', 'focus']) {
                    if (el.tagName === 'A' || el.tagName === 'BUTTON') { continue; }
                    el.dispatchEvent(new Event(t, {bubbles: true}));
                }
            }
        }""")
        self.page.wait_for_timeout(300)
        return self.page

    def assert_nothing_ran(self, title: str):
        assert self.page.title() == title
        assert self.page.evaluate("() => window.__pwned === undefined")
        assert self.dialogs == []
        assert self.requests == [], self.requests


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _write(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_hostile_report_runs_nothing(browser, tmp_path):
    from evaltools.cli import main

    s = _write(tmp_path / "scored.jsonl", scored())
    j = _write(tmp_path / "judged.jsonl", judged())
    out = tmp_path / "report.html"
    assert main(["report", str(s), str(j), "-o", str(out), "-q", "--no-progress", "--skip-invalid",
                 "--title", PAYLOADS[0]]) == 0
    w = Watched(browser)
    page = w.open(out)
    w.assert_nothing_ran(PAYLOADS[0])        # the title is the text, not a script
    # The report's own script ran (its hash is in the policy): tables are ready.
    assert int(page.get_attribute("html", "data-ev-tables")) >= 3
    assert page.locator("mark.evaltools-anchor").count() > 0
    assert "{{ 7*7 }}" in page.inner_text("body")
    w.context.close()


def test_hostile_notebook_html_runs_nothing(browser, tmp_path):
    from evaltools.highlight import case_html
    from evaltools.report.build import report_from_records
    from evaltools.report.html import render_fragment

    cards = "".join(case_html(r) for r in scored(6))
    fragment = render_fragment(report_from_records(scored=list(scored()),
                                                   judged=list(judged())))
    page_path = tmp_path / "notebook.html"
    page_path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>nb</title>"
                         f"</head><body>{cards}{fragment}</body></html>", encoding="utf-8")
    w = Watched(browser)
    page = w.open(page_path)
    w.assert_nothing_ran("nb")
    assert page.locator(".evaltools-case").count() == 6
    w.context.close()
