"""The statistics of a deal-fairness report: goodness-of-fit tests and multiple-test corrections.

A fair deal makes every card equally likely wherever it lands, so the counts of exposed cards
by rank, suit, street or seat follow known proportions. `chi_square` and `g_test` measure how
far observed counts are from them and give the probability (p-value) of a distance at least
that large if the deal were fair. A small p-value is evidence against fairness for that one
question; it says nothing about why, and with enough hands any tiny bias (or a modelling
mistake in the expected counts) becomes significant. Asking many questions at once makes
some small p-values certain by chance: `bonferroni` bounds the chance of any false alarm
(the family-wise error rate), `benjamini_hochberg` the expected share of false alarms among
the alarms raised (the false discovery rate) and loses less power.

The p-values come from the chi-square distribution, through the regularised incomplete gamma
function, written here (series and continued fraction, as in Numerical Recipes §6.2) rather
than adding SciPy (tens of megabytes) for one function; the tests check it against closed
forms for every whole and half-integer shape, which covers every chi-square distribution.

>>> result = chi_square([5, 8, 9, 8, 10, 20])  # 60 rolls of a die
>>> round(result.statistic, 2), result.dof, round(result.p_value, 4)
(13.4, 5, 0.0199)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import exp, isfinite, lgamma, log
from typing import Any

_EPSILON = 1e-15
_TINY = 1e-300
_MAX_TERMS = 100_000


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the upper regularised incomplete gamma function.

    >>> from math import erfc, exp, sqrt
    >>> abs(regularized_gamma_q(0.5, 2.0) - erfc(sqrt(2.0))) < 1e-15
    True
    >>> abs(regularized_gamma_q(1.0, 3.0) - exp(-3.0)) < 1e-15
    True
    """
    if not (0 < a < float("inf")) or not x >= 0:  # NaN fails both comparisons
        raise ValueError(f"need a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    if x == float("inf"):
        return 0.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def regularized_gamma_p(a: float, x: float) -> float:
    """P(a, x) = 1 - Q(a, x): the lower regularised incomplete gamma function.

    >>> round(regularized_gamma_p(2.0, 2.0), 12)  # 1 - 3 e^-2
    0.59399415029
    """
    if a > 0 and 0 <= x < a + 1:
        return _lower_series(a, x)
    return 1.0 - regularized_gamma_q(a, x)


def _prefactor(a: float, x: float) -> float:
    """x^a e^-x / Γ(a), in logarithms so that large a and x do not overflow."""
    return exp(a * log(x) - x - lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series, which converges fast for x < a + 1."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_TERMS):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            return total * _prefactor(a, x)
    raise ArithmeticError(f"incomplete gamma series did not converge for a={a}, x={x}")


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), which converges for x >= a + 1."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPSILON:
            return h * _prefactor(a, x)
    raise ArithmeticError(f"incomplete gamma fraction did not converge for a={a}, x={x}")


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square distributed with `dof` degrees of freedom.

    >>> round(chi2_sf(3.841458820694124, 1), 12)
    0.05
    """
    if dof <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {dof}")
    if statistic <= 0:
        return 1.0
    return regularized_gamma_q(dof / 2, statistic / 2)


@dataclass(frozen=True)
class GoodnessOfFit:
    """One goodness-of-fit test: statistic, degrees of freedom, p-value and what it rests on.

    `min_expected` is the smallest expected count: below about 5 the chi-square
    approximation of the p-value is rough (Cochran's rule), and the report should say so.
    """

    test: str
    statistic: float
    dof: int
    p_value: float
    n: int
    min_expected: float


def chi_square(
    observed: Sequence[float],
    probabilities: Sequence[float] | None = None,
    ddof: int = 0,
    design: float = 1.0,
) -> GoodnessOfFit:
    """Pearson's chi-square test of counts against proportions (equal ones by default).

    `ddof` lowers the degrees of freedom (k - 1 - ddof) for parameters estimated from the data.
    `design` is the variance of the counts relative to independent draws, when it is the same
    for every category: cards of one hand are dealt without replacement, so k door cards of a
    hand vary less than k independent cards, by (52 - k) / 51. The statistic is divided by
    it, which makes it chi-square again (a statistic left undivided would be conservative).

    >>> chi_square([30, 10], [0.5, 0.5]).statistic
    10.0
    >>> chi_square([30, 10], [0.5, 0.5], design=0.5).statistic
    20.0
    """
    if not design > 0:
        raise ValueError(f"the design factor must be positive, not {design}")
    expected, n = _expected(observed, probabilities)
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True)) / design
    return _result("chi-square", statistic, len(observed) - 1 - ddof, n, expected)


def g_test(
    observed: Sequence[float], probabilities: Sequence[float] | None = None, ddof: int = 0
) -> GoodnessOfFit:
    """The G-test (likelihood ratio) of counts against proportions: G = 2 Σ O ln(O / E).

    >>> round(g_test([30, 10]).statistic, 4)
    10.465
    """
    expected, n = _expected(observed, probabilities)
    statistic = 2 * sum(o * log(o / e) for o, e in zip(observed, expected, strict=True) if o > 0)
    return _result("G", statistic, len(observed) - 1 - ddof, n, expected)


def _expected(
    observed: Sequence[float], probabilities: Sequence[float] | None
) -> tuple[list[float], int]:
    k = len(observed)
    if k < 2:
        raise ValueError(f"a goodness-of-fit test needs at least 2 categories, not {k}")
    if any(o < 0 or not isfinite(o) for o in observed):
        raise ValueError("observed counts must be finite and not negative")
    n = sum(observed)
    if n <= 0:
        raise ValueError("no observations")
    probs = [1 / k] * k if probabilities is None else list(probabilities)
    if len(probs) != k:
        raise ValueError(f"{k} counts but {len(probs)} proportions")
    if any(p <= 0 for p in probs) or abs(sum(probs) - 1) > 1e-9:
        raise ValueError("proportions must be positive and sum to 1")
    return [n * p for p in probs], round(n)


def _result(
    test: str, statistic: float, dof: int, n: int, expected: list[float]
) -> GoodnessOfFit:
    statistic = max(statistic, 0.0)  # rounding can leave -1e-16 for a perfect fit
    return GoodnessOfFit(test, statistic, dof, chi2_sf(statistic, dof), n, min(expected))


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni-adjusted p-values (m p, at most 1): reject where adjusted <= alpha.

    Controls the chance of even one false alarm among the m tests.

    >>> bonferroni([0.01, 0.04, 0.5])
    [0.03, 0.12, 1.0]
    """
    m = len(p_values)
    return [min(1.0, round(p * m, 15)) for p in p_values]


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values): reject where adjusted <= alpha.

    With independent (or positively dependent) tests, the expected share of false alarms
    among the rejections is at most alpha.

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.5])
    [0.04, 0.05333333333333334, 0.05333333333333334, 0.5]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = running
    return adjusted


def rejected(p_values: Sequence[float], alpha: float = 0.05, method: str = "bh") -> list[bool]:
    """Which tests raise an alarm at level alpha after the correction (`bh` or `bonferroni`).

    >>> rejected([0.001, 0.02, 0.04, 0.3], method="bh"), rejected([0.001, 0.02, 0.04, 0.3], method="bonferroni")
    ([True, True, False, False], [True, False, False, False])
    """
    if method == "bh":
        adjusted = benjamini_hochberg(p_values)
    elif method == "bonferroni":
        adjusted = bonferroni(p_values)
    else:
        raise ValueError(f"method must be bh or bonferroni, not {method!r}")
    return [a <= alpha for a in adjusted]


# ------------------------------------------------------------------ beyond plain counts


def chi2_isf(level: float, dof: int) -> float:
    """The critical value c with P(X >= c) = level for X chi-square with `dof` degrees of freedom.

    >>> round(chi2_isf(0.05, 1), 6), round(chi2_isf(0.01, 12), 4)
    (3.841459, 26.217)
    """
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level}")
    low, high = 0.0, max(1.0, 2.0 * dof)
    while chi2_sf(high, dof) > level:
        low, high = high, high * 2
    for _ in range(200):  # bisection to full double precision
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if chi2_sf(middle, dof) > level:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def noncentral_chi2_sf(x: float, dof: int, noncentrality: float) -> float:
    """P(X >= x) for X noncentral chi-square: the power of a chi-square test against an effect.

    A Poisson(λ/2) mixture of central chi-squares with dof + 2j degrees of freedom, summed
    until the Poisson weights left are negligible.

    >>> round(noncentral_chi2_sf(3.841458820694124, 1, 7.848879), 4)  # z = 1.96 + 0.8416
    0.8
    """
    if noncentrality < 0:
        raise ValueError(f"noncentrality must not be negative, not {noncentrality}")
    if noncentrality == 0:
        return chi2_sf(x, dof)
    half = noncentrality / 2
    centre = int(half)
    log_weight = -half + centre * log(half) - lgamma(centre + 1) if centre else -half
    total = 0.0
    # Sum outward from the Poisson mode, where the weights are largest.
    weight = exp(log_weight)
    j, w = centre, weight
    while j >= 0:
        total += w * chi2_sf(x, dof + 2 * j)
        if w < 1e-17 and j < centre:
            break
        w *= j / half
        j -= 1
    j, w = centre + 1, weight * half / (centre + 1)
    while w > 1e-17 or j < centre + 10:
        total += w * chi2_sf(x, dof + 2 * j)
        j += 1
        w *= half / j
    return min(1.0, total)


def detectable_noncentrality(dof: int, level: float, power: float = 0.8) -> float:
    """The noncentrality a chi-square test at `level` detects with probability `power`.

    Divided by the sample size, it is the squared effect size (Cohen's w²) the test finds
    80% of the time: the basis of a report's "minimum detectable effect".

    >>> round(detectable_noncentrality(1, 0.05), 3)  # (1.95996 + 0.84162)²
    7.849
    """
    critical = chi2_isf(level, dof)
    low, high = 0.0, 1.0
    while noncentral_chi2_sf(critical, dof, high) < power:
        low, high = high, high * 2
    for _ in range(100):
        middle = (low + high) / 2
        if noncentral_chi2_sf(critical, dof, middle) < power:
            low = middle
        else:
            high = middle
        if high - low < 1e-9 * high:
            break
    return (low + high) / 2


def quadratic_form_test(
    deviation: Sequence[float] | Any,
    covariance: Sequence[Sequence[float]] | Any,
    n: int,
    min_expected: float,
    test: str = "Wald",
) -> GoodnessOfFit:
    """The test of observed minus expected counts against their exact covariance: xᵀ V⁺ x.

    For counts that are not multinomial (each hand has its own probabilities, cards dealt
    without replacement), the covariance under the null hypothesis is computed exactly and
    the statistic is chi-square with rank(V) degrees of freedom for large samples; the
    Moore–Penrose inverse handles the constraint every set of counts has (they sum to n).

    >>> # 40 draws of 2 equally likely categories, 30 in the first: Pearson's 10.0
    >>> round(quadratic_form_test([10, -10], [[10, -10], [-10, 10]], 40, 20).statistic, 6)
    10.0
    """
    import numpy as np

    x = np.asarray(deviation, dtype=float)
    v = np.asarray(covariance, dtype=float)
    if v.shape != (len(x), len(x)):
        raise ValueError(f"{len(x)} deviations but a covariance of shape {v.shape}")
    scale = float(np.abs(v).max()) if v.size else 0.0
    if scale == 0:
        raise ValueError("no variance: nothing to test")
    eigen, vectors = np.linalg.eigh((v + v.T) / 2)
    keep = eigen > scale * 1e-10
    dof = int(keep.sum())
    projected = vectors[:, keep].T @ x
    statistic = float(np.sum(projected**2 / eigen[keep]))
    return _result(test, statistic, dof, n, [min_expected])


def runs_test(sequence_runs: int, first: int, second: int) -> GoodnessOfFit:
    """Wald–Wolfowitz runs test: too few runs (streaks) or too many (alternation) in a sequence
    of `first` + `second` outcomes of two kinds, given those counts; two-sided, as z² on 1 df.

    Valid for an exchangeable sequence (independent draws in any order under the null);
    the normal approximation wants at least about 10 of each kind.

    >>> r = runs_test(2, 10, 10)  # ten good starts, then ten bad ones: one long streak each
    >>> r.dof, r.p_value < 1e-4
    (1, True)
    """
    n = first + second
    if first < 1 or second < 1:
        raise ValueError("a runs test needs both kinds of outcome")
    mean = 1 + 2 * first * second / n
    variance = 2 * first * second * (2 * first * second - n) / (n * n * (n - 1)) if n > 1 else 0
    if variance <= 0:
        raise ValueError("too few outcomes for a runs test")
    z = (sequence_runs - mean) / variance**0.5
    return _result("runs", z * z, 1, n, [float(min(first, second))])
