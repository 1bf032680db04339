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
    observed: Sequence[float], probabilities: Sequence[float] | None = None, ddof: int = 0
) -> GoodnessOfFit:
    """Pearson's chi-square test of counts against proportions (equal ones by default).

    `ddof` lowers the degrees of freedom (k - 1 - ddof) for parameters estimated from the data.

    >>> chi_square([30, 10], [0.5, 0.5]).statistic
    10.0
    """
    expected, n = _expected(observed, probabilities)
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
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
