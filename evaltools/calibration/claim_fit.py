"""Fitting the claim model (:mod:`evaltools.scoring.claim_probability`) on labelled anchors.

Scoring applies the claim model; fitting it is calibration's, as for the span model
(:mod:`evaltools.calibration.span_fit`). ``benchmarks/claim_model.py`` fits the shipped
one on the written probe's twins.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from evaltools.scoring.claim_probability import CLAIM_FEATURES, FORMAT, ClaimModel

#: The trees' settings: fixed, and no early stopping (which would hold out a random
#: validation share), so a refit on the same rows gives the same trees.
TREE_PARAMS: dict[str, Any] = {
    "max_iter": 200, "learning_rate": 0.05, "max_leaf_nodes": 15,
    "l2_regularization": 1.0, "early_stopping": False, "random_state": 0}


def claim_classifier(**params: Any):
    """A new, unfitted ``HistGradientBoostingClassifier`` with :data:`TREE_PARAMS`."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(**{**TREE_PARAMS, **params})


def from_classifier(clf: Any, *, metadata: Mapping[str, Any] | None = None) -> ClaimModel:
    """The JSON form of a fitted binary ``HistGradientBoostingClassifier`` whose columns
    are :data:`CLAIM_FEATURES` in order (numeric splits only).

    scikit-learn keeps the trees in private attributes (``_predictors``,
    ``_baseline_prediction``); the tests check that this form gives
    ``predict_proba``'s numbers, so a change there fails loudly.
    """
    import numpy as np

    if len(getattr(clf, "classes_", ())) != 2:
        raise ValueError("a fitted binary classifier is needed")
    trees = []
    for (predictor,) in clf._predictors:
        nodes = predictor.nodes
        if nodes["is_categorical"].any():
            raise ValueError("categorical splits cannot be written")
        trees.append({"feature": [int(v) for v in nodes["feature_idx"]],
                      "threshold": [float(v) for v in nodes["num_threshold"]],
                      "left": [int(v) for v in nodes["left"]],
                      "right": [int(v) for v in nodes["right"]],
                      "value": [float(v) for v in nodes["value"]],
                      "leaf": [int(v) for v in nodes["is_leaf"]]})
    data = {"format": FORMAT, "version": 1, "features": list(CLAIM_FEATURES),
            "baseline": float(np.ravel(clf._baseline_prediction)[0]),
            **dict(metadata or {}), "trees": trees}
    return ClaimModel.from_dict(json.loads(json.dumps(data)), source="<fitted trees>")


def fit_claim_model(rows: Sequence[Mapping[str, float]], labels: Sequence[int], *,
                    metadata: Mapping[str, Any] | None = None) -> ClaimModel:
    """Fit the claim model's trees on feature rows (mappings of :data:`CLAIM_FEATURES`)."""
    import numpy as np

    X = np.asarray([[r[n] for n in CLAIM_FEATURES] for r in rows], dtype=float)
    clf = claim_classifier().fit(X, np.asarray(labels, dtype=int))
    return from_classifier(clf, metadata=metadata)
