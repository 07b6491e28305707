"""Completeness: the share of the query's keywords present in the response (spec 2).

``S_comp = |K_Q ∩ Tokens(R)| / |K_Q|`` where ``K_Q`` are the query's keywords
(:func:`evaltools.text.keywords`) and ``Tokens(R)`` the response's content
lemmas. A query with no keywords scores 1.0 (nothing was asked that could be
missed; DESIGN decision 3) and says so in ``note``. Keywords of what the
question is about that the response refers to (config
``completeness.referred``) are left out of ``K_Q``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CompletenessScore:
    completeness: float
    keywords: tuple[str, ...]
    missing: tuple[str, ...]
    note: str | None = None
    # keywords counted as present because a context sentence the response restates carries them
    restated: tuple[str, ...] = ()
    # keywords of what the question is about that the response refers to: not in K_Q
    referred: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"completeness": self.completeness, "keywords": list(self.keywords),
                "missing_keywords": list(self.missing)}


def completeness_score(keywords: Sequence[str], response_tokens: Sequence[str], *,
                       restated: Collection[str] = (),
                       referred: Collection[str] = ()) -> CompletenessScore:
    """Spec 2, with the missing keywords listed.

    ``restated`` holds the content lemmas of the context sentences the
    response restates (config ``relevance.restated_context``): a keyword
    there counts as present ("$44.95" restates "The Yeti mug costs $44.95."
    and so answers "How much is the Yeti mug?"). ``referred`` holds keywords
    the response refers to rather than asks about (config
    ``completeness.referred``): they leave ``K_Q``, present or not (naming the
    product does not make an answer more complete than "it" does); with none
    left, 1.0.

    Examples
    --------
    >>> c = completeness_score(["yeti", "mug"], ["44.95"], restated={"yeti", "mug", "cost"})
    >>> c.completeness, c.restated
    (1.0, ('yeti', 'mug'))
    >>> c = completeness_score(["price", "lid", "warranty"], ["price", "lid", "steel"])
    >>> round(c.completeness, 4), c.missing
    (0.6667, ('warranty',))
    >>> completeness_score([], ["lid"]).completeness
    1.0
    >>> c = completeness_score(["yeti", "roadie", "can", "price"], ["roadie", "250"],
    ...                        referred={"yeti", "roadie"})
    >>> c.completeness, c.missing, c.referred
    (0.0, ('can', 'price'), ('yeti', 'roadie'))
    >>> completeness_score(["yeti", "hold"], ["hold"], referred={"yeti"}).completeness
    1.0
    """
    kws = tuple(dict.fromkeys(keywords))
    if not kws:
        return CompletenessScore(1.0, (), (), "the query has no keywords")
    present = set(response_tokens)
    gone = tuple(k for k in kws if k in referred)
    asked = len(kws) - len(gone)
    missing = tuple(k for k in kws if k not in present and k not in restated and k not in gone)
    via = tuple(k for k in kws if k not in present and k in restated)
    if not asked:
        return CompletenessScore(1.0, kws, (), "the response refers to every keyword",
                                 via, gone)
    return CompletenessScore((asked - len(missing)) / asked, kws, missing, None, via, gone)
