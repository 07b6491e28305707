"""Notebook export for offline reading (evaltools.report.notebooks), without a browser."""

from __future__ import annotations

import re

import nbformat
import pytest

from evaltools.report.notebooks import (
    FONT_DIRS,
    NotebookFailed,
    bundle_files,
    copy_widget_assets,
    execute_notebook,
    export_html,
)

CELLS = [
    "import ipywidgets as w\nw.IntSlider(value=3, description='k')",
    "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
    "plt.plot([0, 1], [0, 1])\nplt.show()",
    "print('done')",
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    d = tmp_path_factory.mktemp("nb")
    path = d / "small.ipynb"
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# Small $x^2$"),
               *(nbformat.v4.new_code_cell(c) for c in CELLS)]), path)
    return execute_notebook(path, timeout=120)


def _external(page: str) -> list[str]:
    return re.findall(r"""(?:src|href)=["'](https?:[^"']+)""", page)


def test_export_with_widgets_refers_to_local_files_only(executed):
    page = export_html(executed, name="small", widgets=True)
    assert _external(page) == []
    assert "cdnjs" not in page and "unpkg" not in page and "jsdelivr" not in page
    assert 'src="require.js"' in page and '"embed-amd.js"' in page
    assert "application/vnd.jupyter.widget-state+json" in page
    assert "data:image/png;base64," in page
    assert "done" in page


def test_export_without_bundle_drops_widget_state(executed):
    page = export_html(executed, name="small", widgets=False)
    assert _external(page) == []
    assert "application/vnd.jupyter.widget-state+json" not in page
    assert "embed-amd.js" not in page
    assert "widgets" in executed.metadata  # the notebook itself is left as it was


def test_a_failing_cell_is_named(tmp_path):
    path = tmp_path / "broken.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"),
                                                   nbformat.v4.new_code_cell("1 / 0")]), path)
    with pytest.raises(NotebookFailed, match=r"^broken.ipynb: cell 2 failed: "
                                             r"ZeroDivisionError: division by zero$"):
        execute_notebook(path, timeout=60)


def test_widget_assets_are_copied_where_embed_amd_looks(tmp_path):
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    assert bundle_files(bundle) == [] and not copy_widget_assets(bundle, tmp_path / "none")
    for name in ("require.js", "embed-amd.js", "abc.woff2", "abc.ttf"):
        (bundle / name).write_text(name)
    out = tmp_path / "out"
    assert copy_widget_assets(bundle, out)
    assert (out / "require.js").read_text() == "require.js"
    assert (out / "embed-amd.js").is_file()
    for sub in FONT_DIRS:
        assert (out / sub / "abc.woff2").is_file()
    assert not list(out.rglob("*.ttf"))
