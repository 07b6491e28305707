"""Word-overlap baselines: what counting words alone says about hallucination.

A hallucination score is only worth its cost if it ranks unfaithful responses
above faithful ones better than these do. Each is a number per record, higher
meaning "more likely unfaithful", computed from the raw texts with no parser:

- ``length``: the response's word count;
- ``unigrams_absent``: the share of the response's words that never occur in
  the context;
- ``content_absent``: the same over content words only, i.e. words that are
  not English stop words (scikit-learn's ``ENGLISH_STOP_WORDS``, 318 words);
  a response without content words scores 0;
- ``bigrams_absent``: the share of the response's adjacent word pairs that
  never occur in the context (a one-word response: its ``unigrams_absent``).

Words are maximal runs of letters and digits (``[^\\W_]+``, Unicode-aware),
case-folded; nothing is lemmatised and the context is read as given (a JSON
context as its JSON text). An empty response scores 0 on every share.

Examples
--------
>>> b = lexical_baselines("The mug costs $5 and ships today.", "The mug costs $5.")
>>> b["length"], b["unigrams_absent"], b["content_absent"], round(b["bigrams_absent"], 4)
(7, 0.42857142857142855, 0.4, 0.5)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

#: The baselines, in report order, with what each measures.
BASELINES = {
    "length": "response words",
    "unigrams_absent": "share of response words absent from the context",
    "content_absent": "share of response content words (not stop words) absent from the context",
    "bigrams_absent": "share of response word bigrams absent from the context",
}

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str | None) -> list[str]:
    """Case-folded runs of letters and digits.

    Examples
    --------
    >>> words("Café e-mail, 72°F")
    ['café', 'e', 'mail', '72', 'f']
    """
    return _WORD.findall((text or "").casefold())


def _absent(items: list, present: set) -> float:
    return sum(x not in present for x in items) / len(items) if items else 0.0


def lexical_baselines(response: str | None, context: str | None) -> dict[str, float]:
    """The four baselines of one record (see the module docstring).

    Parameters
    ----------
    response, context : str

    Returns
    -------
    dict
        ``{"length", "unigrams_absent", "content_absent", "bigrams_absent"}``.

    Examples
    --------
    By hand: response words ``the cat sat`` against ``the cat``: one of three
    words absent; content words ``cat sat`` (``the`` is a stop word), one of
    two absent; bigrams ``the cat``, ``cat sat``, one of two absent.

    >>> b = lexical_baselines("The cat sat.", "the CAT")
    >>> b["length"], b["unigrams_absent"] == 1 / 3, b["content_absent"], b["bigrams_absent"]
    (3, True, 0.5, 0.5)
    >>> lexical_baselines("Yes.", "No.")["bigrams_absent"]
    1.0
    """
    r, c = words(response), words(context)
    present = set(c)
    content = [w for w in r if w not in ENGLISH_STOP_WORDS]
    if len(r) < 2:
        bigram_share = _absent(r, present)
    else:
        bigram_share = _absent(list(itertools.pairwise(r)), set(itertools.pairwise(c)))
    return {"length": len(r), "unigrams_absent": _absent(r, present),
            "content_absent": _absent(content, present), "bigrams_absent": bigram_share}


def baselines_frame(responses: Iterable[str], contexts: Iterable[str]):
    """:func:`lexical_baselines` of many records as a DataFrame (one column per baseline).

    Examples
    --------
    >>> baselines_frame(["The cat sat."], ["the cat"])["unigrams_absent"].round(4).tolist()
    [0.3333]
    """
    import pandas as pd

    rows = [lexical_baselines(r, c) for r, c in zip(responses, contexts, strict=True)]
    return pd.DataFrame(rows, columns=list(BASELINES))
