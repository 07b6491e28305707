"""Agreement of automatic scores and verdicts with human labels.

scikit-learn computes every metric it has; this package arranges the calls,
names the semantics (which side of a threshold is flagged, strict or not) and
returns small frozen results with ``to_dict()``.

- :mod:`~evaltools.calibration.curves` — ROC and PR curves with their areas.
- :mod:`~evaltools.calibration.thresholds` — metrics at one threshold, a sweep,
  a recommended threshold (Youden's J, maximum F1, or a cost ratio), and the
  spec's own thresholds evaluated as they stand.
- :mod:`~evaltools.calibration.agreement` — verdicts against human verdicts:
  confusion matrix, Cohen's kappa, the worst disagreements.
- :mod:`~evaltools.calibration.brier_reliability` — Brier score and reliability bins.
- :mod:`~evaltools.calibration.bootstrap` — percentile bootstrap intervals for
  AUC and kappa (optionally resampling whole groups).
- :mod:`~evaltools.calibration.score_tables` — detectors side by side: AUROC
  with intervals, AUROC and Brier of probabilities.
- :mod:`~evaltools.calibration.baselines` — word-overlap baselines (length,
  shares of words, content words and bigrams absent from the context).
- :mod:`~evaltools.calibration.learned` — the learned hallucination
  probability (logistic regression stored as JSON of named coefficients).
- :mod:`~evaltools.calibration.labelled_fit` — fitted on a user's labels:
  the learning curve (cross-validated AUROC and F1 against the number of
  labels) and the recommended probability threshold.

Names are imported lazily: ``import evaltools.calibration.learned`` (used by
``evaltools score``) does not load scikit-learn.

Examples
--------
>>> from evaltools import calibration
>>> calibration.roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).auc
0.75
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "RocCurve": "curves", "PrCurve": "curves", "roc": "curves", "pr": "curves",
    "ThresholdMetrics": "thresholds", "ThresholdSweep": "thresholds",
    "ThresholdRecommendation": "thresholds", "SpecCheck": "thresholds",
    "evaluate_threshold": "thresholds", "threshold_sweep": "thresholds",
    "recommend_threshold": "thresholds", "spec_thresholds": "thresholds",
    "threshold_table": "thresholds",
    "VERDICTS": "agreement", "VerdictAgreement": "agreement",
    "verdict_agreement": "agreement", "worst_disagreements": "agreement",
    "spec_agreement": "agreement", "agreement_from_pairs": "agreement",
    "Reliability": "brier_reliability", "ReliabilityBin": "brier_reliability",
    "brier": "brier_reliability", "reliability": "brier_reliability",
    "ConfidenceInterval": "bootstrap", "bootstrap_ci": "bootstrap", "auc_ci": "bootstrap",
    "kappa_ci": "bootstrap",
    "auc_table": "score_tables", "probability_table": "score_tables",
    "LearnedCalibration": "learned", "FitResult": "learned", "FEATURES": "learned",
    "fit_calibration": "learned", "load_calibration": "learned", "features_frame": "learned",
    "cross_validated_probabilities": "learned", "fold_prior": "learned",
    "LearningCurve": "labelled_fit", "CurvePoint": "labelled_fit",
    "ProbabilityThreshold": "labelled_fit", "LabelledFit": "labelled_fit",
    "learning_curve": "labelled_fit", "fit_on_labels": "labelled_fit",
    "recommend_probability_threshold": "labelled_fit", "curve_sizes": "labelled_fit",
    "cross_fitted_f1": "labelled_fit", "draw_groups": "labelled_fit",
    "prior_options": "labelled_fit",
    "BASELINES": "baselines", "lexical_baselines": "baselines", "baselines_frame": "baselines",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        module = importlib.import_module(f"evaltools.calibration.{_EXPORTS[name]}")
        return getattr(module, name)
    raise AttributeError(f"module 'evaltools.calibration' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
