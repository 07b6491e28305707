"""Tables comparing detectors on one labelled set (what notebook 02 shows).

- :func:`auc_table` — each score's ROC AUC with its bootstrap interval.
- :func:`probability_table` — each probability's AUROC and Brier score.

Examples
--------
>>> t = probability_table([0, 1, 1, 0], {"p": [0.0, 0.5, 1.0, 0.5]})
>>> t.loc["p", "AUROC"], t.loc["p", "Brier"]
(np.float64(0.875), np.float64(0.125))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltools.calibration.bootstrap import auc_ci
from evaltools.calibration.brier_reliability import brier
from evaltools.calibration.curves import roc


def auc_table(y_true, scores: Mapping[str, Any], *, n_resamples: int = 1000,
              seed: int = 0):
    """One row a score: its ROC AUC (``estimate``) and bootstrap interval (``low``,
    ``high``, ``n_valid``), in the order given (:func:`~evaltools.calibration.auc_ci`).

    >>> t = auc_table([0, 0, 1, 1], {"s": [0.1, 0.4, 0.35, 0.8]}, n_resamples=50)
    >>> t.loc["s", "estimate"]
    np.float64(0.75)
    """
    import pandas as pd

    rows = {name: auc_ci(y_true, s, n_resamples=n_resamples, seed=seed).to_dict()
            for name, s in scores.items()}
    return pd.DataFrame(rows).T[["estimate", "low", "high", "n_valid"]].astype(float)


def probability_table(y_true, probabilities: Mapping[str, Any]):
    """One row a probability: ``AUROC`` and ``Brier`` (lower is better) against the labels.

    By hand (module example): of the 4 positive-negative pairs, (1.0, 0.0),
    (1.0, 0.5) and (0.5, 0.0) are ordered right and (0.5, 0.5) is a tie:
    AUROC = 3.5 / 4 = 0.875; Brier = (0 + 0.25 + 0 + 0.25) / 4 = 0.125.
    """
    import pandas as pd

    return pd.DataFrame({"AUROC": [roc(y_true, p).auc for p in probabilities.values()],
                         "Brier": [brier(y_true, p) for p in probabilities.values()]},
                        index=list(probabilities))
