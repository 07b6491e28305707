"""Bootstrap intervals: seeded, containing the estimate, AUC resampling checked."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import mannwhitneyu
from sklearn.metrics import roc_auc_score

from evaltools.calibration import auc_ci, bootstrap_ci, kappa_ci

rng = np.random.default_rng(7)
Y = rng.integers(0, 2, 120)
S = np.round(rng.random(120) + 0.4 * Y, 1)  # rounded: plenty of ties


def test_auc_ci_is_seeded_and_contains_the_estimate():
    a = auc_ci(Y, S, n_resamples=400, seed=3)
    b = auc_ci(Y, S, n_resamples=400, seed=3)
    assert a == b
    assert a.estimate == pytest.approx(roc_auc_score(Y, S))
    assert a.low < a.estimate < a.high
    assert a.n_valid == 400 and a.confidence_level == 0.95
    assert auc_ci(Y, S, n_resamples=400, seed=4) != a
    assert "95% CI" in str(a)


def test_mann_whitney_u_is_the_auc_with_ties():
    # The vectorised resampling rests on AUC = U / (n_pos * n_neg).
    pos, neg = S[Y == 1], S[Y == 0]
    u = mannwhitneyu(pos, neg, method="asymptotic", use_continuity=False).statistic
    assert u / (len(pos) * len(neg)) == pytest.approx(roc_auc_score(Y, S))


def test_auc_ci_lower_is_positive():
    a = auc_ci(Y, S, n_resamples=200)
    b = auc_ci(1 - Y, S, higher_is_positive=False, n_resamples=200)
    assert b.estimate == pytest.approx(a.estimate)


def test_wider_confidence_gives_a_wider_interval():
    narrow = auc_ci(Y, S, n_resamples=500, confidence_level=0.5)
    wide = auc_ci(Y, S, n_resamples=500, confidence_level=0.99)
    assert wide.low <= narrow.low and narrow.high <= wide.high


def test_kappa_ci_by_hand_estimate():
    # p_o = 5/6; marginals a (3,3), b (2,4): p_e = (3*2 + 3*4)/36 = 1/2 -> kappa 2/3.
    ci = kappa_ci([0, 0, 1, 1, 1, 0], [0, 1, 1, 1, 1, 0], n_resamples=300)
    assert ci.estimate == pytest.approx(2 / 3)
    assert -1 <= ci.low <= ci.estimate <= ci.high <= 1


def test_kappa_ci_of_verdicts_weighted():
    h = ["PASS", "FAIL", "WARN", "FAIL", "PASS", "WARN"] * 5
    p = ["PASS", "FAIL", "PASS", "WARN", "PASS", "WARN"] * 5
    ci = kappa_ci(h, p, labels=["PASS", "WARN", "FAIL"], weights="linear", n_resamples=200)
    assert ci.low <= ci.estimate <= ci.high


def test_generic_bootstrap_skips_undefined_resamples():
    def needs_a_one(a):
        if a.sum() == 0:
            raise ValueError("undefined without a 1")
        return a.mean()

    x = np.array([0] * 9 + [1])
    ci = bootstrap_ci(needs_a_one, x, n_resamples=300)
    assert 100 < ci.n_valid < 300  # about (9/10)^10 = 35% of resamples have no 1
    assert bootstrap_ci(needs_a_one, x, n_resamples=300, strata=x).n_valid == 300

    def rarely_defined(a):  # defined on the data; on about 27% of resamples
        if a.sum() != 3:
            raise ValueError("undefined")
        return a.mean()

    with pytest.raises(ValueError, match="undefined on"):
        bootstrap_ci(rarely_defined, np.array([0] * 7 + [1] * 3), n_resamples=100)


@pytest.mark.parametrize("kwargs,match", [({"n_resamples": 0}, "n_resamples"),
                                          ({"confidence_level": 1.0}, "confidence_level")])
def test_arguments_checked(kwargs, match):
    with pytest.raises(ValueError, match=match):
        auc_ci(Y, S, **kwargs)
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(np.mean, [1.0, 2.0], **kwargs)


def test_generic_bootstrap_is_scipys_percentile_interval():
    """bootstrap_ci resamples through scipy.stats.bootstrap: same seed, same interval."""
    from scipy.stats import bootstrap

    x = np.round(np.random.default_rng(2).random(40), 2)
    ours = bootstrap_ci(np.mean, x, n_resamples=300, seed=5)
    theirs = bootstrap((x,), np.mean, n_resamples=300, method="percentile", vectorized=False,
                       rng=np.random.default_rng(5)).confidence_interval
    assert (ours.low, ours.high) == pytest.approx((theirs.low, theirs.high))
    # a stratum of one row is the same in every resample: with two strata of one, no spread
    fixed = bootstrap_ci(np.mean, [2.0, 4.0], strata=[0, 1], n_resamples=50)
    assert (fixed.estimate, fixed.low, fixed.high, fixed.n_valid) == (3.0, 3.0, 3.0, 50)


def test_difference_ci_by_hand_with_a_sample_of_one():
    from evaltools.compare import difference_ci

    # reference [1.0] never changes; current [0, 1] resampled: means 0, 0.5 or 1 -> d in
    # {-1, -0.5, 0}; the estimate is 0.5 - 1 = -0.5
    d, lo, hi = difference_ci([1.0], [0.0, 1.0], n_resamples=400, seed=1)
    assert d == -0.5 and lo == -1.0 and hi == 0.0
    assert difference_ci([1.0], [3.0]) == (2.0, 2.0, 2.0)
