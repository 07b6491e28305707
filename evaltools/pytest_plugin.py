"""The evaltools pytest plugin: fail a test (and the CI job) when output is not grounded.

Installed with evaltools (entry point ``pytest11``), or loaded with
``pytest -p evaltools.pytest_plugin``. It gives:

- :func:`assert_grounded` (also the fixture ``evaltools_grounded``): score one
  response and raise ``AssertionError`` with the reasons and the unsupported
  anchors when its verdict is FAIL (or worse than ``allow``), or its
  hallucination is above ``max_hallucination``;
- the marker ``@pytest.mark.evaltools_check(path, ..., max_fail=0.1, ...)``:
  before the test runs, the files are checked against the limits of
  :func:`evaltools.gate.check_records` (``max_fail``, ``min_mean``,
  ``max_mean``, ``reference``, ``max_probability``, ``columns``); each failed
  condition is a line of the test's failure;
- the fixture ``evaltools_check``: the same as a function,
  ``evaltools_check("runs.jsonl", max_fail=0.1)``.

Importing this module loads nothing heavy: spaCy is loaded by the first score.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

_RANK = {"PASS": 0, "WARN": 1, "FAIL": 2}


def assert_grounded(response: str, context: str, query: str = "", *,
                    max_hallucination: float | None = None, allow: str = "WARN",
                    config=None):
    """Score ``response`` and raise ``AssertionError`` unless it is grounded enough.

    Parameters
    ----------
    response, context, query : str
        As for :func:`evaltools.score` (the query may be empty).
    max_hallucination : float, optional
        Fail when the hallucination score is above it (in addition to the verdict).
    allow : str
        The worst verdict that passes: ``"WARN"`` (default: only FAIL fails)
        or ``"PASS"``.
    config : Config, optional
        Thresholds, as for :func:`evaltools.score`.

    Returns
    -------
    ScoreResult
        The result, for further checks.
    """
    from evaltools.scoring.scorer import score

    if allow not in _RANK:
        raise ValueError(f"allow must be PASS, WARN or FAIL, got {allow!r}")
    r = score(query, context, response, config=config)
    problems = []
    if _RANK[r.verdict] > _RANK[allow]:
        problems.append(f"verdict {r.verdict} (allowed: {allow} or better)")
    if max_hallucination is not None and r.hallucination > max_hallucination:
        problems.append(f"hallucination {r.hallucination:.2f} > {max_hallucination:g}")
    if problems:
        unsupported = [f"{a.kind} “{a.text}”" for a in r.unsupported()]
        lines = ["response not grounded: " + "; ".join(problems),
                 *(f"  reason: {x}" for x in r.reasons)]
        if unsupported:
            lines.append("  unsupported: " + ", ".join(unsupported))
        lines.append(f"  response: {response[:200]}")
        raise AssertionError("\n".join(lines))
    return r


def check_files(*paths: str | Path, reference: str | Path | Sequence[str | Path] = (),
                columns=None, config=None, **limits: Any):
    """Check files against limits; ``pytest.fail`` with one line per failed condition."""
    from evaltools.gate import check_files as _check

    refs = [reference] if isinstance(reference, (str, Path)) else list(reference)
    result = _check([Path(p) for p in paths], reference=refs, config=config,
                    columns=columns, **limits)
    if not result.passed:
        pytest.fail("evaltools check failed:\n" + "\n".join(
            f"  {line}" for line in result.lines()), pytrace=False)
    return result


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "evaltools_check(*paths, max_fail=None, min_mean=None, max_mean=None, "
                   "reference=(), max_probability=None, columns=None): fail the test when "
                   "the files are below these limits (evaltools check)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item) -> None:
    for marker in item.iter_markers(name="evaltools_check"):
        base = Path(str(item.fspath)).parent
        paths = [p if Path(p).is_absolute() else base / p for p in marker.args]
        kwargs = dict(marker.kwargs)
        ref = kwargs.pop("reference", ())
        refs = [ref] if isinstance(ref, (str, Path)) else list(ref)
        kwargs["reference"] = [r if Path(r).is_absolute() else base / r for r in refs]
        check_files(*paths, **kwargs)


@pytest.fixture
def evaltools_grounded():
    """:func:`assert_grounded` as a fixture."""
    return assert_grounded


@pytest.fixture
def evaltools_check():
    """``evaltools_check(path, ..., max_fail=0.1, reference=old)``: fails the test when
    the files are below the limits."""
    return check_files
