"""evaltools: deterministic, explained scores for LLM pipeline outputs and their judges.

>>> import evaltools
>>> r = evaltools.score("price of the Hydro Flask 32 oz?",
...                     "The Hydro Flask 32 oz costs $44.95.",
...                     "The Hydro Flask 32 oz costs $44.95.")
>>> r.verdict
'PASS'
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["ResponseScorer", "__version__", "judge", "judge_frame", "judge_records",
           "load_config", "score", "score_frame", "score_records"]


def __getattr__(name: str):
    # Lazy: importing evaltools must not load spaCy or pandas.
    if name in ("score", "score_frame", "score_records", "ResponseScorer"):
        from evaltools.scoring import scorer

        return getattr(scorer, name)
    if name == "load_config":
        from evaltools.config import load_config

        return load_config
    if name == "judge":
        # The function; the package is evaltools.judging (no name shared with a subpackage).
        from evaltools.judging.api import judge

        return judge
    if name in ("judge_frame", "judge_records"):
        from evaltools.judging import stream as judge_stream

        return getattr(judge_stream, name)
    raise AttributeError(f"module 'evaltools' has no attribute {name!r}")
