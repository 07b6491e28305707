"""Re-execute notebooks in place, as nbval will check them, without stored widget state.

Usage: ``.venv/bin/python scripts/execute_notebooks.py [notebooks/NB.ipynb ...]``
(every notebook under ``notebooks/`` when none is named). Run it after a change
that alters a notebook's outputs. Widget state is not stored: an exported page
shows a static snapshot, and a live kernel rebuilds the widgets.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)
    tmp = path.with_suffix(".ipynb.part")
    nbformat.write(nb, tmp)
    tmp.replace(path)
    print(f"executed {path}")


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent / "notebooks"
    paths = [Path(a) for a in argv] or sorted(root.glob("*.ipynb"))
    for p in paths:
        execute(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
