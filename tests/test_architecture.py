"""What the layout promises: the core never imports presentation; notebooks only call."""

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evaltools"
PRESENTATION = ("plots", "highlight", "prompt", "tables", "widgets", "report", "cli",
                "__main__")
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


# ------------------------------------------------------------------ the import graph

GUI_LIBRARIES = ("matplotlib", "ipywidgets", "jinja2")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _runtime_nodes(tree: ast.AST):
    """Every node outside ``if TYPE_CHECKING:`` blocks (annotations only, never imported)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return [n for n in ast.walk(tree) if id(n) not in skip]


def _edges(module: str, path: Path) -> set[str]:
    """The evaltools modules ``module`` imports at run time (top level or in functions).

    ``from pkg import sub`` depends on ``pkg.sub`` when that is a module, on
    ``pkg`` otherwise; a package's ``__init__`` running before its submodules is
    the import system's order, not an edge.
    """
    def resolve(name: str) -> str | None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        return name or None

    out = set()
    for node in _runtime_nodes(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = f"{pkg}.{base}" if base else pkg
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        out.update(r for n in names if n.startswith("evaltools")
                   and (r := resolve(n)) is not None and r != module)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_check_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_cycles():
    graph = {m: _edges(m, p) for m, p in MODULES.items()}
    assert sum(map(len, graph.values())) > 50  # the graph was read
    assert _cycles(graph) == []


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_modules_import_no_gui_or_template_library(path):
    bad = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            bad.update(a.name for a in node.names if a.name.split(".")[0] in GUI_LIBRARIES)
        elif (isinstance(node, ast.ImportFrom) and not node.level
              and (node.module or "").split(".")[0] in GUI_LIBRARIES):
            bad.add(node.module)
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: presentation only"


# ------------------------------------------------------------------ thin notebooks

#: Calls that aggregate (count, group, summarise): the package computes these, a
#: notebook cell only calls it and shows the result.
AGGREGATING_METHODS = {"groupby", "value_counts", "describe", "agg", "aggregate",
                       "pivot_table", "crosstab", "mean", "median", "std", "sum", "nunique",
                       "quantile", "resample", "rolling", "cumsum"}
AGGREGATING_FUNCTIONS = {"Counter", "crosstab", "pivot_table", "sum", "mean", "statistics"}


def _aggregations(src: str) -> list[str]:
    tree = ast.parse("\n".join(line for line in src.splitlines()
                               if not line.lstrip().startswith(("%", "!"))))
    asserted = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert)
                for n in ast.walk(a)}  # checks of a result may count; they compute nothing shown
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in asserted:
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in AGGREGATING_METHODS:
            found.append(f.attr)
        elif isinstance(f, ast.Name) and f.id in AGGREGATING_FUNCTIONS:
            found.append(f.id)
    return found


def test_the_aggregation_check_finds_aggregations():
    assert _aggregations("df.groupby('k').size()") == ["groupby"]
    assert _aggregations("pd.crosstab(a, b)") == ["crosstab"]
    assert _aggregations("x = Counter(v)") == ["Counter"]
    assert _aggregations("assert df['n'].sum() == 3\nstats.verdict_table()") == []


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_compute_no_aggregates(nb_path):
    for i, cell in enumerate(_code_cells(nb_path)):
        found = _aggregations("".join(cell["source"]))
        assert not found, (f"{nb_path.name} cell {i} aggregates ({', '.join(found)}): "
                           "compute it in evaltools and call it from the cell")


# ------------------------------------------------------------------ the layer order

#: The packages (and top-level modules) of evaltools, lowest layer first. A package
#: imports only from its own layer or a lower one, and no two packages import each
#: other, directly or round a loop. docs/CONTRACTS.md ("Layer order") says why.
LAYERS = (
    ("foundation", ("errors", "values", "arguments", "config", "text", "schema", "palette")),
    ("io", ("io",)),
    ("core", ("scoring", "judging")),
    ("calibration", ("calibration",)),
    ("engines", ("compare", "gate", "dask", "__init__")),
    ("presentation", ("highlight", "tables", "prompt", "plots")),
    ("views", ("widgets", "report")),
    ("commands", ("cli", "__main__", "pytest_plugin")),
)
LAYER_OF = {pkg: i for i, (_, pkgs) in enumerate(LAYERS) for pkg in pkgs}


def _package(module: str) -> str:
    """``evaltools.scoring.anchors.claims`` -> ``scoring``; ``evaltools`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _package_graph(graph: dict[str, set[str]]) -> dict[str, dict[str, list[str]]]:
    """package -> imported package -> the file-level imports behind that edge."""
    out: dict[str, dict[str, list[str]]] = {}
    for module, targets in graph.items():
        for target in targets:
            a, b = _package(module), _package(target)
            if a != b:
                out.setdefault(a, {}).setdefault(b, []).append(f"{module} -> {target}")
    return out


def _layer_violations(packages: dict[str, dict[str, list[str]]]) -> list[str]:
    """Every import of a higher layer, and within a layer every import between the
    core packages (scoring and judging are independent of each other)."""
    bad = []
    for a, targets in sorted(packages.items()):
        for b, why in sorted(targets.items()):
            la, lb = LAYER_OF[a], LAYER_OF[b]
            if lb > la or (la == lb and LAYERS[la][0] in ("io", "core", "calibration")):
                bad.append(f"{a} ({LAYERS[la][0]}) imports {b} ({LAYERS[lb][0]}): {why[0]}")
    return bad


FILE_GRAPH = {m: _edges(m, p) for m, p in MODULES.items()}


def test_every_package_has_a_layer():
    assert {_package(m) for m in MODULES} == set(LAYER_OF)


def test_the_layer_check_finds_an_upward_import():
    fake = {"evaltools.io.results": {"evaltools.scoring.result"},
            "evaltools.scoring.summary": {"evaltools.calibration.agreement"},
            "evaltools.judging.api": {"evaltools.scoring.result"},
            "evaltools.report.build": {"evaltools.scoring.result"}}
    assert _layer_violations(_package_graph(fake)) == [
        "io (io) imports scoring (core): evaltools.io.results -> evaltools.scoring.result",
        "judging (core) imports scoring (core): evaltools.judging.api -> "
        "evaltools.scoring.result",
        "scoring (core) imports calibration (calibration): evaltools.scoring.summary -> "
        "evaltools.calibration.agreement"]


def test_packages_import_only_their_layer_or_lower():
    assert _layer_violations(_package_graph(FILE_GRAPH)) == []


def test_no_import_loop_between_packages():
    packages = _package_graph(FILE_GRAPH)
    assert sum(map(len, packages.values())) > 20  # the graph was read
    assert _cycles({a: set(t) for a, t in packages.items()}) == []
