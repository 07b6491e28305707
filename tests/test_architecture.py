"""What the layout promises: the core never imports presentation; notebooks only call."""

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evaltools"
PRESENTATION = ("plots", "highlight", "widgets", "report", "cli", "__main__")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _is_presentation(path: Path) -> bool:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py") in PRESENTATION


def _imported(tree: ast.AST, module: str) -> set[str]:
    """Every evaltools module a file imports, at the top or inside functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing module
                parent = module.rsplit(".", node.level)[0]
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return {n for n in names if n == "evaltools" or n.startswith("evaltools.")}


CORE = sorted(p for p in PACKAGE.rglob("*.py") if not _is_presentation(p))


def test_the_split_is_not_empty():
    assert len(CORE) > 20
    assert {p.name for p in CORE} >= {"stream.py", "records.py", "hallucination.py", "audit.py"}


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_modules_do_not_import_presentation(path):
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    bad = sorted(n for n in _imported(ast.parse(path.read_text("utf-8")), module)
                 if n.split(".")[1:2] and n.split(".")[1] in PRESENTATION)
    assert not bad, f"{module} imports presentation: {bad}"


def _code_cells(nb_path):
    nb = json.loads(nb_path.read_text("utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_define_no_functions_or_classes(nb_path):
    for i, cell in enumerate(_code_cells(nb_path)):
        src = "".join(cell["source"])
        tree = ast.parse("\n".join(line for line in src.splitlines()
                                   if not line.lstrip().startswith(("%", "!"))))
        defs = [n.name for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        assert not defs, f"{nb_path.name} cell {i} defines {defs}: move it into evaltools"


MACHINE_PATH = re.compile(r"(/work/|/tmp/|/home/|/root/|[A-Z]:\\\\)")


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_outputs_hold_no_machine_paths(nb_path):
    for i, cell in enumerate(_code_cells(nb_path)):
        text = json.dumps(cell.get("outputs", []))
        assert not MACHINE_PATH.search(text), f"{nb_path.name} cell {i}: a machine path"
