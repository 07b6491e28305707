"""A script of ``benchmarks/`` loaded as a module, for the tests of its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(stem: str):
    """``benchmarks/<stem>.py`` as a module; the folder is importable, as when the script
    runs (``verdict_threshold`` reads ``verdict_rates`` beside it)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"{stem}_bench", BENCHMARKS / f"{stem}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod
