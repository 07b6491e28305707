#!/usr/bin/env python
"""Run notebooks/03_module_audit.ipynb once per module with papermill.

Writes ``reports/audits/03_module_audit_<MODULE>.ipynb`` for every module of
the judge registry (or those named with ``--modules``) and, when nbconvert is
installed, the same as ``.html`` beside it; then ``summary.csv``, one row per
module (:func:`evaltools.judging.module_audit.modules_overview`), also printed.
Each notebook runs with the ``notebooks/`` folder as its working directory, so
its relative paths hold.

Usage::

    .venv/bin/python scripts/run_module_audits.py                 # all 17 modules
    .venv/bin/python scripts/run_module_audits.py --modules M01 M02 --jobs 2
    .venv/bin/python scripts/run_module_audits.py --data ../data/judgments.jsonl --no-html

Exit status 0 when every module's notebook ran, 1 otherwise (each failure is
named on stderr; the others are still written).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "03_module_audit.ipynb"


def run_one(module: str, out_dir: str, data: str | None, html: bool,
            timeout: int) -> tuple[str, str | None, float]:
    """Execute the audit notebook for ``module``; returns (module, error or None, seconds)."""
    import papermill as pm

    t0 = time.monotonic()
    out = Path(out_dir) / f"03_module_audit_{module}.ipynb"
    params = {"module": module}
    if data is not None:
        params["data"] = data
    try:
        pm.execute_notebook(str(NOTEBOOK), str(out), parameters=params,
                            cwd=str(NOTEBOOK.parent), progress_bar=False,
                            execution_timeout=timeout, kernel_name="python3",
                            extra_arguments=["--IPKernelApp.log_level=ERROR"])
        _relative_paths(out)
        if html:
            _to_html(out)
    except Exception as exc:  # report and go on with the other modules
        return module, f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1:]}", \
            time.monotonic() - t0
    return module, None, time.monotonic() - t0


def _relative_paths(notebook: Path) -> None:
    """Papermill records absolute paths in the metadata; keep the files machine-free."""
    import os

    import nbformat

    nb = nbformat.read(notebook, 4)
    meta = nb.metadata.get("papermill", {})
    for key in ("input_path", "output_path"):
        if meta.get(key):
            meta[key] = os.path.relpath(meta[key], ROOT)
    nbformat.write(nb, notebook)


def _to_html(notebook: Path) -> None:
    """The offline page of an executed audit (no CDN scripts; the audits show no widgets)."""
    import nbformat

    from evaltools.report.notebooks import export_html

    body = export_html(nbformat.read(notebook, 4), name=notebook.stem, widgets=False)
    notebook.with_suffix(".html").write_text(body, encoding="utf-8")


def _write_overview(args: argparse.Namespace, out_dir: Path) -> None:
    """All modules at a glance: ``summary.csv`` beside the notebooks, and on stdout."""
    import pandas as pd

    from evaltools.judging.module_audit import OVERVIEW_COLUMNS, modules_overview
    from evaltools.tables import readable

    data = NOTEBOOK.parent / (args.data or "../data/judgments.jsonl")
    overview = modules_overview(data, modules=args.modules)
    overview.to_csv(out_dir / "summary.csv", index=False)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(readable(overview.drop(columns=["name"]),
                       percent=("pass_rate", "match_rate")).to_string(index=False))
    for name, meaning in OVERVIEW_COLUMNS.items():
        print(f"{name}: {meaning}")


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))  # this checkout's evaltools, installed or not
    from evaltools.judging.registry import load_registry

    ids = list(load_registry().ids)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", nargs="+", metavar="ID", default=ids,
                    help="module ids (default: all of the registry)")
    ap.add_argument("--data", default=None,
                    help="judging records, relative to notebooks/ (default: the notebook's, "
                         "../data/judgments.jsonl)")
    ap.add_argument("--out", default=str(ROOT / "reports" / "audits"),
                    help="output folder (default: reports/audits)")
    ap.add_argument("--jobs", type=int, default=1, help="notebooks run at once (default 1)")
    ap.add_argument("--no-html", action="store_true", help="skip the .html export")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    args = ap.parse_args(argv)
    unknown = [m for m in args.modules if m not in ids]
    if unknown:
        ap.error(f"unknown module(s) {', '.join(unknown)} (known: {', '.join(ids)})")
    if args.jobs < 1:
        ap.error(f"--jobs must be a positive integer. Got {args.jobs} instead.")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    # The kernels must import this checkout's evaltools too.
    import os

    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    jobs = [(m, str(out_dir), args.data, not args.no_html, args.timeout) for m in args.modules]
    failures = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for module, error, seconds in pool.map(run_one, *zip(*jobs, strict=True)):
            if error:
                failures += 1
                print(f"{module}: FAILED ({error})", file=sys.stderr)
            else:
                print(f"{module}: {out_dir / f'03_module_audit_{module}.ipynb'} "
                      f"({seconds:.1f} s)")
    print(f"{len(jobs) - failures} of {len(jobs)} module audits written to {out_dir}")
    _write_overview(args, out_dir)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
