"""Judge calculators: the Unified Judge Template v2.0 for modules M01..M16.

The package is ``evaltools.judging``; the function that judges one record is
:func:`evaltools.judge` (:func:`evaltools.judging.api.judge`), as
``evaltools.scoring`` holds what :func:`evaltools.score` runs.

>>> import evaltools
>>> r = evaltools.judge({"module": "M15", "output": "Yes.", "expected": True,
...                      "rules": [True, True, True, True],
...                      "reasoning": {"chain_of_thought": 8, "evidence_usage": 8,
...                                    "confidence_calibration": 4}})
>>> r.verdict, r.total_score
('PASS', 100)
>>> evaltools.judging.registry.MODULES["M05"].type
'extraction'

Parts: ``registry`` (modules.toml as data), ``correctness``, ``checks`` and
``rules`` (automatic rule checks), ``reasoning``, ``verdict``, ``result``,
``audit`` (LLM judge JSON), ``api``
(one record), ``stream`` (many records), ``module_audit``; asking an LLM judge:
``asking`` (:func:`ask`), ``llm_client``, ``answer_parse``, ``judge_cache``.
"""

from __future__ import annotations

from evaltools.judging import registry
from evaltools.judging.api import judge
from evaltools.judging.asking import ask
from evaltools.judging.result import Finding, JudgeResult
from evaltools.judging.stream import judge_frame, judge_records, judge_stream

__all__ = ["Finding", "JudgeResult", "ask", "judge", "judge_frame", "judge_records", "judge_stream",
           "registry"]
