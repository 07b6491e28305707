"""04_interactive_scoring.ipynb in a real JupyterLab, in headless Chromium.

Starts ``jupyter lab`` on a free port of 127.0.0.1 over a temporary copy of
``notebooks/`` and ``data/`` (so clicks write their labels there, not into the
repository), opens the notebook with Playwright driving Debian's
``/usr/bin/chromium``, runs all cells, and checks that the widgets render and
update live after a click: the ScoreExplorer's "Next" loads and scores the
next record, ticking a JudgeForm rule changes the total, and an Annotator
label click moves to the next case and lands in the labels file on disk.

Every wait is bounded; the server and its kernels are stopped in teardown.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "04_interactive_scoring.ipynb"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install -y chromium)"),
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str, timeout: float = 5) -> object:
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return json.loads(resp.read().decode("utf-8"))


def _jupyter_bin() -> str:
    exe = Path(sys.executable).with_name("jupyter")
    return str(exe) if exe.exists() else "jupyter"


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server over a temporary copy of the notebooks and data."""
    work = tmp_path / "lab"
    (work / "notebooks").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, work / "notebooks" / NOTEBOOK)
    shutil.copytree(ROOT / "data", work / "data")
    port = _free_port()
    env = dict(os.environ)
    # The kernel must import this checkout of evaltools, installed or not.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "jupyter_config")   # no user settings
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "lab_settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "lab_workspaces")
    # No news toast over the widgets, and no request for news or updates.
    notif = tmp_path / "lab_settings" / "@jupyterlab" / "apputils-extension"
    notif.mkdir(parents=True)
    (notif / "notification.jupyterlab-settings").write_text(json.dumps(
        {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True}))
    log = (tmp_path / "jupyter.log").open("w")
    cmd = [
        _jupyter_bin(), "lab", "--allow-root", "--no-browser",
        "--ip", "127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.token=", "--ServerApp.password=",
        f"--ServerApp.root_dir={work}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        # Safety net: a server leaked by a crashed test exits on its own.
        "--ServerApp.shutdown_no_activity_timeout=900",
        "--MappingKernelManager.cull_idle_timeout=900",
    ]
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited ({proc.returncode}): "
                            f"{(tmp_path / 'jupyter.log').read_text()[-3000:]}")
            try:
                _get_json(f"{base}/api/status", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("jupyter lab not ready within 60 s")
                time.sleep(0.3)
        yield {"base": base, "work": work, "log": tmp_path / "jupyter.log"}
    finally:
        _stop_server(proc, base)
        log.close()


def _stop_server(proc: subprocess.Popen, base: str) -> None:
    # Kernels run in their own sessions: shut them down through the API first.
    try:
        for k in _get_json(f"{base}/api/kernels", timeout=3):
            req = urllib.request.Request(f"{base}/api/kernels/{k['id']}", method="DELETE")
            urllib.request.urlopen(req, timeout=10).close()
    except Exception:
        pass
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_notebook_runs_in_jupyterlab_and_widgets_update_live(lab):
    from playwright.sync_api import expect, sync_playwright

    t0 = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM),
                                    args=["--no-sandbox", "--disable-gpu",
                                          "--disable-dev-shm-usage"])
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                          permissions=["clipboard-read", "clipboard-write"])
            page = context.new_page()
            page.set_default_timeout(30_000)
            _open_and_run_all(page, lab, NOTEBOOK)
            _check_widgets(page, lab, expect)
            page.screenshot(path=str(lab["work"].parent / "jupyterlab.png"))
        finally:
            browser.close()
    elapsed = time.monotonic() - t0
    print(f"browser part took {elapsed:.1f} s")


def _open_and_run_all(page, lab, name: str) -> None:
    """Open ``notebooks/NAME`` in JupyterLab, wait for the kernel, and run all cells."""
    page.goto(f"{lab['base']}/lab/tree/notebooks/{name}",
              wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=30_000)
    # Wait for the kernel, then "Run All". The command's promise is not
    # awaited (page.evaluate has no timeout of its own). "Run All" sometimes
    # does nothing on a fresh kernel: retry until a code cell's prompt shows
    # an execution number.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
        ".some(e => /Idle/.test(e.textContent))", timeout=60_000)
    deadline = time.monotonic() + 90
    while True:
        page.evaluate("() => { window.jupyterapp.commands.execute("
                      "'notebook:run-all-cells'); return true; }")
        try:
            page.wait_for_function(
                "() => [...document.querySelectorAll('.jp-InputPrompt')]"
                ".some(e => /\\[\\d+\\]/.test(e.textContent))", timeout=15_000)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise


def _check_widgets(page, lab, expect) -> None:
    # --- ScoreExplorer: rendered with a verdict; "Next" loads and scores another record.
    explorer = page.locator(".evaltools-score-explorer").first
    expect(explorer).to_be_visible(timeout=90_000)
    verdict = explorer.locator("[data-verdict]").first
    expect(verdict).to_have_text(re.compile("PASS|WARN|FAIL"), timeout=60_000)
    card = explorer.locator(".evaltools-case").first
    expect(card).to_contain_text("r001", timeout=30_000)
    expect(explorer.locator("mark.evaltools-anchor").first).to_be_attached(timeout=30_000)
    explorer.get_by_role("button", name="Next").click()
    expect(card).to_contain_text("r002", timeout=30_000)   # live update after the click
    expect(verdict).to_have_text("FAIL", timeout=30_000)   # r002: a price not in the context
    expect(explorer.locator("mark.evaltools-unsupported").first).to_be_attached()
    explorer.screenshot(path=str(lab["work"].parent / "score_explorer.png"))

    # --- JudgeForm: ticking a rule changes the total live.
    form = page.locator(".evaltools-judge-form").first
    expect(form).to_be_visible(timeout=30_000)
    total = form.locator(".evaltools-judge-total").first
    expect(total).to_contain_text("total", timeout=30_000)
    before = total.inner_text()
    boxes = form.locator("input[type=checkbox]")
    # a rule no automatic check decides for the loaded record (m15-05: M15 has no checks)
    boxes.nth(2).click()
    expect(total).not_to_have_text(before, timeout=30_000)
    # "Copy JSON" puts the form's template JSON on the clipboard.
    form.locator("button.evaltools-copy").click()
    copied = page.evaluate("() => Promise.race([navigator.clipboard.readText(), new Promise("
                           "r => setTimeout(() => r('TIMEOUT'), 5000))])")
    assert json.loads(copied) == json.loads(form.locator(".evaltools-json textarea")
                                            .input_value())
    assert '"verdict"' in copied
    form.screenshot(path=str(lab["work"].parent / "judge_form.png"))

    # --- Annotator: a click saves a label to disk and moves to the next case.
    annotator = page.locator(".evaltools-annotator").first
    expect(annotator).to_be_visible(timeout=30_000)
    header = annotator.locator(".widget-html").first
    expect(header).to_contain_text("of 74", timeout=30_000)
    before = header.inner_text()
    annotator.get_by_role("button", name="FAIL", exact=True).click()
    expect(header).not_to_have_text(before, timeout=30_000)
    expect(annotator).to_contain_text("Saved FAIL for case", timeout=30_000)
    labels = lab["work"] / "reports" / "labels" / "04_interactive_scoring.jsonl"
    deadline = time.monotonic() + 10
    while not labels.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    events = [json.loads(line) for line in labels.read_text().splitlines()]
    assert events[-1]["label"] == "FAIL" and events[-1]["id"] == "r001"


PRICES = {"query": "Is the Stanley Quencher regular $35.00, now 20% off at $28.00?",
          "context": "The Stanley Quencher 40 oz is regular $35.00, now 20% off at $28.00.",
          "response": "It was regular $35.00, now 20% off at $28.00."}


def test_prices_are_not_typeset_as_maths_in_jupyterlab(lab):
    """Two prices in a case card and a table: JupyterLab's MathJax must leave them alone."""
    import nbformat
    from playwright.sync_api import expect, sync_playwright

    code = (
        "import pandas as pd\n"
        "from IPython.display import HTML, display\n"
        "import evaltools\n"
        "from evaltools.highlight import case_html\n"
        "from evaltools.report.build import report_from_records\n"
        f"rec = {PRICES!r}\n"
        "rec = {**rec, **evaltools.score(rec['query'], rec['context'], rec['response'])"
        ".to_dict()}\n"
        "display(HTML('<p class=\"control\">regular $35.00, now 20% off at $28.00</p>'))\n"
        "display(HTML(case_html(rec)))\n"
        "display(report_from_records(scored=[rec]).section('worst'))"
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, lab["work"] / "notebooks" / "prices.ipynb")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM),
                                    args=["--no-sandbox", "--disable-gpu",
                                          "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            _open_and_run_all(page, lab, "prices.ipynb")
            card = page.locator(".jp-OutputArea .evaltools-case").first
            expect(card).to_be_visible(timeout=60_000)
            # The control: the same text in plain HTML is typeset (so the test can fail).
            expect(page.locator(".jp-OutputArea p.control mjx-container")).to_have_count(
                1, timeout=30_000)
            text = " ".join(card.inner_text().split())
            assert "It was regular $35.00, now 20% off at $28.00." in text, text
            assert "Is the Stanley Quencher regular $35.00, now 20% off at $28.00?" in text
            assert card.locator("mjx-container, .MathJax").count() == 0
            worst = page.locator(".jp-OutputArea .ev-report").first
            expect(worst).to_contain_text("$28.00")
            assert page.locator(".jp-OutputArea mjx-container").count() == 1  # the control
            page.screenshot(path=str(lab["work"].parent / "prices.png"))
        finally:
            browser.close()
