"""Judge calculators: the Unified Judge Template v2.0 for modules M01..M16.

``evaltools.judge`` is both this package and a function: calling it judges
one record (it is :func:`evaltools.judge.api.judge`).

>>> import evaltools
>>> r = evaltools.judge({"module": "M15", "output": "Yes.", "expected": True,
...                      "rules": [True, True, True, True],
...                      "reasoning": {"chain_of_thought": 8, "evidence_usage": 8,
...                                    "confidence_calibration": 4}})
>>> r.verdict, r.total_score
('PASS', 100)
>>> evaltools.judge.registry.MODULES["M05"].type
'extraction'

Parts: ``registry`` (modules.toml as data), ``correctness``, ``rules``
(automatic checks), ``reasoning``, ``verdict``, ``result``, ``audit`` (LLM
judge JSON), ``prompt`` (the filled judge prompt), ``api``.
"""

from __future__ import annotations

import sys
import types


class _CallableModule(types.ModuleType):
    """The package, callable as :func:`evaltools.judge.api.judge`."""

    def __call__(self, record, **options):
        from evaltools.judge.api import judge

        return judge(record, **options)


sys.modules[__name__].__class__ = _CallableModule

from evaltools.judge import registry  # noqa: E402  (after the class swap, on purpose)
from evaltools.judge.api import judge  # noqa: E402
from evaltools.judge.result import Finding, JudgeResult  # noqa: E402
from evaltools.judge.stream import judge_frame, judge_records, judge_stream  # noqa: E402

__all__ = ["Finding", "JudgeResult", "judge", "judge_frame", "judge_records", "judge_stream",
           "registry"]
