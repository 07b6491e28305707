"""A fresh clone names nothing it does not hold: README, docs and notebooks
refer to no file outside the repository (a design document, a specification,
a benchmark sample next to the checkout, a machine path)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(
    r"\.\./shared|(?<![\w/])shared/(spec|benchmarks)|DESIGN\.md|DESIGN decision|"
    r"/work/|/root/|/home/|scoring-criteria\.md|unified-judge-template\.md")


def _files() -> list[Path]:
    return sorted([ROOT / "README.md", ROOT / "data" / "README.md",
                   *(ROOT / "docs").glob("*.md"), *(ROOT / "notebooks").glob("*.ipynb")])


def test_docs_and_notebooks_name_nothing_outside_the_repository():
    found = []
    for path in _files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if m := OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)!r} in {line.strip()[:90]}")
    assert found == [], "\n".join(found)


def test_the_specifications_are_described_in_the_repository():
    spec = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    for needle in ("S_rel = (S_cosine + S_jaccard) / 2", "S_hall = max(S_claims, P_drift)",
                   "FAIL** if `S_hall > 0.5`", "total ≥ 70", "capped at 60",
                   *(f"| {m} |" for m in ("M01", "M01a", "M01b", "M02", "M04", "M05", "M06",
                                           "M07", "M08", "M09", "M11", "M12", "M12b", "M13",
                                           "M14", "M15", "M16"))):
        assert needle in spec, needle
    datasets = (ROOT / "docs" / "datasets.md").read_text(encoding="utf-8")
    for needle in ("RUCAIBox/HaluEval", "qa_data.json", "MIT", "load_halueval_qa("):
        assert needle in datasets, needle


def test_every_doc_path_the_readme_names_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for rel in set(re.findall(r"`((?:docs|data|notebooks|scripts|benchmarks)/[\w./-]+)`",
                              readme)):
        assert (ROOT / rel).exists() or any(ROOT.glob(rel)), rel
