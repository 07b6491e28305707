"""Executed notebooks as HTML pages that open offline, widgets included.

JupyterLab's HTML export loads require.js, the widget manager, MathJax and
Mermaid from public CDNs; offline, widgets then show nothing and the page
logs failed requests. Here the page is exported with the template
``templates/nbconvert/evaltools_offline`` (the lab template minus MathJax and
Mermaid), require.js and the widget manager are referenced by relative URL,
and :func:`copy_widget_assets` puts ``require.js``, ``embed-amd.js`` (from
``@jupyter-widgets/html-manager@1``, fetched once by
``scripts/fetch_widget_bundle.sh``) and the icon fonts beside the pages.
Without the bundle, the widget state is dropped: pages still request nothing
and widget outputs show their static text. A page without widgets does not
load require.js either.

An exported page has no kernel, so nothing a widget shows could be
recomputed: every control is stored disabled and each widget output is
preceded by a note, "static snapshot — run the notebook to interact", so a
page never looks live while it is not. A notebook executed by papermill shows
each parameter once: in the default ``parameters`` cell, the assignments the
``injected-parameters`` cell overrides are turned into comments.

Used by ``scripts/export_notebooks.py``; any script that exports notebooks
can call :func:`export_html` the same way.

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title")])
>>> page = export_html(nb, name="demo", widgets=False)
>>> "cdnjs" in page or "unpkg" in page, "require.js" in page
(False, False)
"""

from __future__ import annotations

import ast
import copy
import re
import shutil
from pathlib import Path

from evaltools.palette import BAD, CAUTION_BG, CAUTION_TEXT, EVIDENCE_LINE

TEMPLATES = Path(__file__).resolve().parent / "templates" / "nbconvert"
TEMPLATE_NAME = "evaltools_offline"
#: The widget manager's files, as scripts/fetch_widget_bundle.sh leaves them.
BUNDLE_FILES = ("require.js", "embed-amd.js")
FONT_SUFFIXES = (".woff2",)
#: Where embed-amd.js looks for its icon fonts, relative to the page (its webpack publicPath).
FONT_DIRS = ("@jupyter-widgets", "@jupyter-widgets/html-manager/dist")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Shown above every widget of an exported page.
SNAPSHOT_NOTE = ("static snapshot — run the notebook to interact "
                 "(the controls are disabled: nothing on this page is recomputed)")


class NotebookFailed(Exception):
    """A notebook's cell raised; the message names the notebook, the cell and the error."""


def bundle_files(bundle: str | Path) -> list[Path]:
    """The widget-manager files in ``bundle`` to copy beside pages; empty when absent.

    Examples
    --------
    >>> bundle_files("/nonexistent")
    []
    """
    bundle = Path(bundle)
    if not all((bundle / name).is_file() for name in BUNDLE_FILES):
        return []
    fonts = sorted(p for p in bundle.iterdir() if p.suffix in FONT_SUFFIXES)
    return [bundle / name for name in BUNDLE_FILES] + fonts


def copy_widget_assets(bundle: str | Path, out: str | Path) -> bool:
    """Copy require.js, embed-amd.js and the icon fonts into ``out``; False without a bundle."""
    files = bundle_files(bundle)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for src in files:
        targets = [out / sub for sub in FONT_DIRS] if src.suffix in FONT_SUFFIXES else [out]
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, folder / src.name)
    return bool(files)


def execute_notebook(path: str | Path, *, timeout: int = 900, kernel: str = "python3"):
    """The notebook at ``path``, executed in its own folder with its widget state stored.

    Raises
    ------
    NotebookFailed
        A cell raised: the message names the notebook, the cell (1-based) and the error.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, store_widget_state=True,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"],
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        index = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and any(
            o.get("output_type") == "error" for o in c.get("outputs", []))), None)
        where = f"cell {index + 1}" if index is not None else "a cell"
        message = f"{getattr(exc, 'ename', 'error')}: {getattr(exc, 'evalue', exc)}"
        raise NotebookFailed(f"{path.name}: {where} failed: {_ANSI.sub('', message)}") from None
    return nb


def export_html(nb, *, name: str, widgets: bool = True) -> str:
    """HTML of a notebook with the offline lab template.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        Usually executed, with its widget state in ``nb.metadata.widgets``.
    name : str
        The page title when the notebook has none.
    widgets : bool
        True when ``require.js`` and ``embed-amd.js`` will sit beside the page
        (:func:`copy_widget_assets`); False drops the widget state so the page
        tries to load no renderer.

    Returns
    -------
    str
        The page. It refers to ``require.js`` (and with widgets ``embed-amd.js``)
        by relative URL and to nothing else outside itself.
    """
    from nbconvert import HTMLExporter

    nb = without_default_parameters(copy.deepcopy(nb))
    exporter = HTMLExporter(template_name=TEMPLATE_NAME,
                            extra_template_basedirs=[str(TEMPLATES)])
    if widgets and _has_widget_views(nb):
        exporter.require_js_url = "require.js"
        exporter.widget_renderer_url = "embed-amd.js"
        nb = as_snapshot(nb)
    else:
        exporter.require_js_url = ""
        nb.metadata.pop("widgets", None)
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": name},
                                                           "evaltools_bad": BAD})
    return body


def _has_widget_views(nb) -> bool:
    return any(WIDGET_VIEW in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", []))


def without_default_parameters(nb):
    """``nb`` showing each parameter once when papermill injected parameters.

    In the default ``parameters`` cell, every assignment that the
    ``injected-parameters`` cell after it overrides becomes a comment (the
    value the page was run with is the injected one); a default cell left with
    nothing else is dropped. Defaults that were not overridden stay, so every
    name the page uses is defined on it.

    Examples
    --------
    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell('module = "M01"', metadata={"tags": ["parameters"]}),
    ...     v4.new_code_cell('module = "M02"', metadata={"tags": ["injected-parameters"]})])
    >>> [c.source for c in without_default_parameters(nb).cells]
    ['module = "M02"']
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell('module = "M01"  # any id\\ndata = "x.jsonl"',
    ...                      metadata={"tags": ["parameters"]}),
    ...     v4.new_code_cell('module = "M02"', metadata={"tags": ["injected-parameters"]})])
    >>> print(without_default_parameters(nb).cells[0].source)
    # Defaults; papermill set module in the next cell.
    # module = "M01"  # any id
    data = "x.jsonl"
    """
    tags = [set(c.get("metadata", {}).get("tags", [])) for c in nb.cells]
    injected: set[str] = set()
    for cell, t in zip(nb.cells, tags, strict=True):
        if "injected-parameters" in t:
            injected |= _assigned(ast.parse(cell.source))
    if not injected:
        return nb
    kept = []
    for cell, t in zip(nb.cells, tags, strict=True):
        if "parameters" in t:
            lines = cell.source.splitlines()
            overridden = set()
            for node in ast.parse(cell.source).body:
                if _assigned(node) and _assigned(node) <= injected:
                    overridden.update(range(node.lineno - 1, node.end_lineno))
            code = [i for i, line in enumerate(lines)
                    if line.strip() and not line.lstrip().startswith("#")]
            if all(i in overridden for i in code):
                continue
            names = ", ".join(sorted(injected))
            cell.source = "\n".join(
                [f"# Defaults; papermill set {names} in the next cell."]
                + [f"# {line}" if i in overridden else line for i, line in enumerate(lines)])
        kept.append(cell)
    nb.cells = kept
    return nb


def _assigned(tree) -> set[str]:
    """Names a statement (or module) assigns at its top level."""
    body = tree.body if isinstance(tree, ast.Module) else [tree]
    names = set()
    for node in body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def as_snapshot(nb):
    """``nb`` with every stored widget control disabled and a note above each widget output.

    The note is a ``text/html`` output of class ``evaltools-snapshot-note``.

    Examples
    --------
    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> cell = v4.new_code_cell("w", outputs=[v4.new_output("display_data", data={
    ...     WIDGET_VIEW: {"model_id": "a"}, "text/plain": "Button()"})])
    >>> nb = v4.new_notebook(cells=[cell])
    >>> nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
    ...     "a": {"model_name": "ButtonModel", "state": {"disabled": False}}}}}
    >>> nb = as_snapshot(nb)
    >>> nb.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"]["a"]
    {'model_name': 'ButtonModel', 'state': {'disabled': True}}
    >>> "static snapshot" in nb.cells[0].outputs[0].data["text/html"]
    True
    """
    import nbformat

    state = nb.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model in state.values():
        if "disabled" in model.get("state", {}):
            model["state"]["disabled"] = True
    note = nbformat.v4.new_output("display_data", data={
        "text/html": f'<div class="evaltools-snapshot-note" style="font-size:90%;'
                     f'color:{CAUTION_TEXT};background:{CAUTION_BG};'
                     f'border:1px solid {EVIDENCE_LINE};'
                     f'border-radius:4px;padding:4px 8px;margin:4px 0;">'
                     f'{SNAPSHOT_NOTE}</div>',
        "text/plain": SNAPSHOT_NOTE})
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for out in cell.get("outputs", []):
            if WIDGET_VIEW in out.get("data", {}):
                outputs.append(copy.deepcopy(note))
            outputs.append(out)
        cell.outputs = outputs
    return nb
