"""Verdicts (PASS / WARN / FAIL) against human verdicts.

Cohen's kappa and the confusion matrix are scikit-learn's. The verdicts are
ordered PASS < WARN < FAIL, so a linearly weighted kappa is given beside the
plain one: it counts a PASS read as FAIL as a worse disagreement than a PASS
read as WARN. A disagreement's *severity* is that distance (1 or 2).

Examples
--------
>>> a = verdict_agreement(["PASS", "FAIL", "WARN", "FAIL"], ["PASS", "FAIL", "PASS", "WARN"])
>>> a.accuracy, a.confusion[2]
(0.5, (0, 1, 1))
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.metrics import accuracy_score, cohen_kappa_score, confusion_matrix

from evaltools.arguments import parameter_message
from evaltools.calibration._checks import json_value
from evaltools.errors import shorten
from evaltools.scoring.result import VERDICTS
from evaltools.values import as_records


@dataclass(frozen=True)
class VerdictAgreement:
    """How far predicted verdicts agree with human ones.

    ``confusion[i][j]`` counts records whose human verdict is ``labels[i]``
    and whose predicted verdict is ``labels[j]``.
    """

    labels: tuple[str, ...]
    confusion: tuple[tuple[int, ...], ...]
    kappa: float
    weighted_kappa: float
    accuracy: float
    n: int
    n_disagree: int

    def to_frame(self):
        """The confusion matrix as a DataFrame (rows: human, columns: predicted)."""
        import pandas as pd

        return pd.DataFrame(list(self.confusion),
                            index=pd.Index(self.labels, name="human"),
                            columns=pd.Index(self.labels, name="predicted"))

    def to_dict(self) -> dict[str, Any]:
        return json_value({k: getattr(self, k) for k in self.__dataclass_fields__})

    def sentence(self, what: str = "the verdicts", against: str = "human labels") -> str:
        """One plain sentence: how many agree, the share and kappa.

        Examples
        --------
        >>> verdict_agreement(["PASS", "FAIL", "WARN", "FAIL"],
        ...                   ["PASS", "FAIL", "PASS", "WARN"]).sentence()
        'the verdicts agree with human labels on 2 of 4 records (50%, kappa 0.27)'
        """
        kappa = "undefined" if self.kappa != self.kappa else f"{self.kappa:.2f}"
        agree = self.n - self.n_disagree
        return (f"{what} agree with {against} on {agree} of {self.n} records "
                f"({100 * agree / self.n:.0f}%, kappa {kappa})")


def agreement_from_pairs(pairs: Mapping[tuple[str, str], int], *,
                         labels: Sequence[str] = VERDICTS) -> VerdictAgreement | None:
    """:func:`verdict_agreement` from counts of ``(human, predicted)`` pairs; None if none.

    For summaries that count pairs as records stream past (constant memory).

    Examples
    --------
    >>> a = agreement_from_pairs({("PASS", "PASS"): 1, ("FAIL", "FAIL"): 1,
    ...                           ("WARN", "PASS"): 1, ("FAIL", "WARN"): 1})
    >>> round(a.kappa, 6) == round(3 / 11, 6)
    True
    >>> agreement_from_pairs({}) is None
    True
    """
    human = [h for (h, _), n in pairs.items() for _ in range(n)]
    predicted = [p for (_, p), n in pairs.items() for _ in range(n)]
    return verdict_agreement(human, predicted, labels=labels) if human else None


def spec_agreement(records, *, human: str = "label_verdict", predicted: str = "verdict",
                   labels: Sequence[str] = VERDICTS) -> VerdictAgreement | None:
    """Agreement of scored records' verdicts with their human verdicts, where both exist.

    Records (dicts or a DataFrame) without a human verdict, or with an error,
    are left out; None when no record has both.

    Examples
    --------
    >>> spec_agreement([{"verdict": "PASS", "label_verdict": "pass"},
    ...                 {"verdict": "FAIL", "label_verdict": None},
    ...                 {"verdict": "WARN", "label_verdict": "FAIL"}]).n
    2
    """
    rows = as_records(records)
    pairs: dict[tuple[str, str], int] = {}
    for r in rows:
        h, p = r.get(human), r.get(predicted)
        if isinstance(h, str) and h.strip().upper() in labels and p in labels \
                and not r.get("error"):
            key = (h.strip().upper(), p)
            pairs[key] = pairs.get(key, 0) + 1
    return agreement_from_pairs(pairs, labels=labels)


def _verdicts(values, name: str, labels: Sequence[str]) -> list[str]:
    out = []
    for i, v in enumerate(values):
        if v not in labels:
            raise ValueError(parameter_message(name, "verdict_agreement",
                                               f"hold verdicts ({', '.join(labels)})",
                                               f"{shorten(v)} at position {i}"))
        out.append(v)
    return out


def verdict_agreement(human, predicted, *,
                      labels: Sequence[str] = VERDICTS) -> VerdictAgreement:
    """Confusion matrix, Cohen's kappa (plain and linearly weighted) and accuracy.

    Parameters
    ----------
    human, predicted : sequence of str
        Verdicts, position by position.
    labels : sequence of str, default VERDICTS (best first)
        The verdicts in order; the order gives the weights of the weighted kappa.

    Returns
    -------
    VerdictAgreement
        Kappa is NaN when undefined (both sides give one and the same verdict).

    Examples
    --------
    By hand: observed agreement 2/4. Marginals human (1, 1, 2), predicted
    (2, 1, 1) over PASS/WARN/FAIL: chance agreement (1*2 + 1*1 + 2*1) / 16 =
    5/16, so kappa = (8/16 - 5/16) / (11/16) = 3/11.

    >>> a = verdict_agreement(["PASS", "FAIL", "WARN", "FAIL"],
    ...                       ["PASS", "FAIL", "PASS", "WARN"])
    >>> round(a.kappa, 6) == round(3 / 11, 6), a.n_disagree
    (True, 2)
    """
    labels = tuple(labels)
    h = _verdicts(list(human), "human", labels)
    p = _verdicts(list(predicted), "predicted", labels)
    if len(h) != len(p):
        raise ValueError(f"verdict_agreement: inputs must have the same length. "
                         f"Got human={len(h)}, predicted={len(p)} instead.")
    if not h:
        raise ValueError("verdict_agreement: needs at least one pair of verdicts. Got none.")
    cm = confusion_matrix(h, p, labels=list(labels))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kappa = cohen_kappa_score(h, p, labels=list(labels), replace_undefined_by=np.nan)
        weighted = cohen_kappa_score(h, p, labels=list(labels), weights="linear",
                                     replace_undefined_by=np.nan)
    return VerdictAgreement(
        labels=labels, confusion=tuple(tuple(int(c) for c in row) for row in cm),
        kappa=float(kappa), weighted_kappa=float(weighted),
        accuracy=float(accuracy_score(h, p)), n=len(h),
        n_disagree=sum(a != b for a, b in zip(h, p, strict=True)),
    )


def worst_disagreements(records, *, human: str = "label_verdict", predicted: str = "verdict",
                        k: int | None = 10, labels: Sequence[str] = VERDICTS,
                        columns: Sequence[str] = ("id", "relevance", "completeness",
                                                  "hallucination", "reasons")):
    """The records where the verdicts disagree most, worst first (DataFrame).

    Severity is the distance between the two verdicts in ``labels`` order
    (PASS vs FAIL: 2; neighbours: 1). Ties keep the records' order. Records
    missing either verdict are left out.

    Parameters
    ----------
    records : DataFrame or iterable of dict
    human, predicted : str
        Column names of the human and the predicted verdict.
    k : int or None, default 10
        How many rows; None for all disagreements.
    labels : sequence of str
    columns : sequence of str
        Further columns to show, when present.

    Returns
    -------
    pandas.DataFrame
        ``human``, ``predicted``, ``severity`` and the requested columns.

    Examples
    --------
    >>> recs = [{"id": "a", "label_verdict": "PASS", "verdict": "WARN"},
    ...         {"id": "b", "label_verdict": "PASS", "verdict": "FAIL"},
    ...         {"id": "c", "label_verdict": "FAIL", "verdict": "FAIL"}]
    >>> worst_disagreements(recs)[["id", "severity"]].values.tolist()
    [['b', 2], ['a', 1]]
    """
    import pandas as pd

    frame = records if isinstance(records, pd.DataFrame) else pd.DataFrame(list(records))
    rank = {v: i for i, v in enumerate(labels)}
    if human not in frame.columns or predicted not in frame.columns:
        missing = [c for c in (human, predicted) if c not in frame.columns]
        raise ValueError(f"worst_disagreements: column(s) {', '.join(map(repr, missing))} "
                         f"not found (columns: {', '.join(map(str, frame.columns))}).")
    keep = frame[frame[human].isin(rank) & frame[predicted].isin(rank)]
    keep = keep[keep[human] != keep[predicted]]
    extra = [c for c in columns if c in keep.columns and c not in (human, predicted)]
    out = pd.DataFrame({
        **{c: keep[c] for c in extra[:1]},
        "human": keep[human], "predicted": keep[predicted],
        "severity": [abs(rank[a] - rank[b]) for a, b in zip(keep[human], keep[predicted],
                                                               strict=True)],
        **{c: keep[c] for c in extra[1:]},
    })
    out = out.sort_values("severity", ascending=False, kind="stable").reset_index(drop=True)
    return out if k is None else out.head(k)
