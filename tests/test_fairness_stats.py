"""razz.analysis.fairness_stats: the incomplete gamma function against closed forms, p-values
that are uniform on fair counts (alarms at the nominal rate), power against a biased deck, and
the multiple-test corrections holding their error rates."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from math import erfc, exp, factorial, gamma, inf, sqrt

import numpy as np
import pytest

from razz.analysis.fairness_stats import (
    GoodnessOfFit,
    benjamini_hochberg,
    bonferroni,
    chi2_isf,
    chi2_sf,
    chi_square,
    detectable_noncentrality,
    g_test,
    noncentral_chi2_sf,
    quadratic_form_test,
    regularized_gamma_p,
    regularized_gamma_q,
    rejected,
    runs_test,
)

SHAPES = [0.5 * k for k in range(1, 121)]  # every chi-square with 1 to 120 degrees of freedom
POINTS = [0.001, 0.01, 0.1, 0.5, 1, 2, 3.7, 5, 8, 13, 21, 34, 55, 89, 144, 233, 400, 700]


def closed_form_q(a: float, x: float) -> float:
    """Q(a, x) for whole and half-integer a: Q(1, x) = e^-x, Q(1/2, x) = erfc(√x), and
    Q(a + 1, x) = Q(a, x) + x^a e^-x / Γ(a + 1)."""
    if a == int(a):
        q, base = exp(-x), 1.0
    else:
        q, base = erfc(sqrt(x)), 0.5
    while base < a:
        q += x**base * exp(-x) / gamma(base + 1)
        base += 1
    return q


@pytest.mark.parametrize("a", SHAPES)
def test_the_incomplete_gamma_matches_closed_forms(a: float) -> None:
    for x in POINTS:
        expected = closed_form_q(a, x)
        got = regularized_gamma_q(a, x)
        if expected > 1e-250:  # the closed form's own terms underflow beyond that
            assert got == pytest.approx(expected, rel=1e-10, abs=1e-300), (a, x)
        assert regularized_gamma_p(a, x) == pytest.approx(1 - expected, abs=1e-13), (a, x)


def test_whole_shapes_match_the_poisson_sum() -> None:
    for n in (1, 2, 5, 10, 30):
        for x in (0.5, 4.0, 20.0, 60.0):
            poisson = exp(-x) * sum(x**k / factorial(k) for k in range(n))
            assert regularized_gamma_q(n, x) == pytest.approx(poisson, rel=1e-12)


@pytest.mark.parametrize(
    ("critical", "dof", "level"),
    [  # textbook critical values of the chi-square distribution
        (3.841458820694124, 1, 0.05),
        (6.634896601021214, 1, 0.01),
        (11.344866730144373, 3, 0.01),
        (18.307038053275146, 10, 0.05),
        (21.02606981748307, 12, 0.05),
        (124.34211340400407, 100, 0.05),
    ],
)
def test_textbook_critical_values(critical: float, dof: int, level: float) -> None:
    assert chi2_sf(critical, dof) == pytest.approx(level, rel=1e-9)


def test_edges_of_the_domain() -> None:
    assert regularized_gamma_q(3.0, 0.0) == 1.0
    assert regularized_gamma_q(3.0, inf) == 0.0
    assert chi2_sf(0.0, 4) == 1.0
    assert 0.0 <= chi2_sf(5000.0, 1) < 1e-300
    for bad in [(0.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, float("nan"))]:
        with pytest.raises(ValueError):
            regularized_gamma_q(*bad)


def test_statistics_on_hand_computed_counts() -> None:
    fit = chi_square([5, 8, 9, 8, 10, 20])
    assert fit.statistic == pytest.approx(13.4) and fit.dof == 5 and fit.n == 60
    assert fit.p_value == pytest.approx(closed_form_q(2.5, 6.7), rel=1e-12)
    g = g_test([30, 10], [0.5, 0.5])
    assert g.statistic == pytest.approx(2 * (30 * np.log(1.5) + 10 * np.log(0.5)))
    assert g.dof == 1 and g.min_expected == 20
    assert chi_square([25, 25, 50], [0.25, 0.25, 0.5]).statistic == 0
    assert chi_square([10, 20, 30], ddof=1).dof == 1
    for bad in ([5], [3, -1], [0, 0]):
        with pytest.raises(ValueError):
            chi_square(bad)
    with pytest.raises(ValueError):
        g_test([3, 4], [0.5, 0.6])


@pytest.mark.parametrize("test", [chi_square, g_test])
def test_p_values_are_uniform_on_fair_counts(test: Callable[..., GoodnessOfFit]) -> None:
    """13 ranks of 1,300 door cards, 4,000 times: each alarm rate is the nominal one."""
    rng = np.random.default_rng(20261201)
    runs = 4000
    counts = rng.multinomial(1300, [1 / 13] * 13, size=runs)
    p = np.array([test(row.tolist()).p_value for row in counts])
    for level in (0.01, 0.05, 0.1, 0.5):
        spread = 4 * sqrt(level * (1 - level) / runs)
        assert abs((p < level).mean() - level) < spread, (level, (p < level).mean())
    deciles = np.histogram(p, bins=10, range=(0, 1))[0]
    assert chi_square(deciles.tolist()).p_value > 1e-4


def test_a_deck_with_low_door_cards_ten_percent_more_likely_is_detected() -> None:
    """A to 5 each 10% more likely as a door card: 20,000 door cards find it nearly always at
    the 0.001 level; 1,000 rarely do (what a report must say about small samples)."""
    weights = np.array([1.1] * 5 + [1.0] * 8)
    biased = weights / weights.sum()
    rng = np.random.default_rng(7)
    large = [chi_square(rng.multinomial(20_000, biased).tolist()).p_value for _ in range(200)]
    small = [chi_square(rng.multinomial(1_000, biased).tolist()).p_value for _ in range(200)]
    assert np.mean(np.array(large) < 0.001) > 0.9
    assert np.mean(np.array(small) < 0.001) < 0.2
    fair = [chi_square(rng.multinomial(20_000, [1 / 13] * 13).tolist()).p_value
            for _ in range(200)]
    assert np.mean(np.array(fair) < 0.001) < 0.02


def test_the_benjamini_hochberg_example_of_their_paper() -> None:
    """The 15 p-values of Benjamini & Hochberg (1995): BH rejects four, Bonferroni three."""
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
         0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0]
    assert rejected(p, 0.05, "bh") == [True] * 4 + [False] * 11
    assert rejected(p, 0.05, "bonferroni") == [True] * 3 + [False] * 12
    assert bonferroni(p)[0] == pytest.approx(0.0015)
    assert benjamini_hochberg(p)[3] == pytest.approx(0.0095 * 15 / 4)
    shuffled = [p[i] for i in (5, 0, 14, 3, 2, 1, 4, 6, 7, 8, 9, 10, 11, 12, 13)]
    assert sorted(benjamini_hochberg(shuffled)) == sorted(benjamini_hochberg(p))
    with pytest.raises(ValueError):
        rejected(p, 0.05, "holm")


def test_corrections_keep_false_alarms_at_the_nominal_rate_over_many_tests() -> None:
    """20 fair tests per report, 4,000 reports: uncorrected, most reports raise an alarm;
    corrected, at most 5% do (BH and Bonferroni both control the family-wise rate when
    every hypothesis is true)."""
    rng = np.random.default_rng(11)
    reports = rng.uniform(size=(4000, 20)).tolist()
    spread = 4 * sqrt(0.05 * 0.95 / 4000)
    raw = np.mean([min(r) < 0.05 for r in reports])
    assert raw > 0.6
    for method in ("bh", "bonferroni"):
        alarms = np.mean([any(rejected(r, 0.05, method)) for r in reports])
        assert alarms < 0.05 + spread, (method, alarms)


def test_bh_finds_more_true_effects_than_bonferroni_and_keeps_its_false_discovery_rate() -> None:
    rng = np.random.default_rng(12)
    bh_found = bonferroni_found = 0
    shares = []
    for _ in range(2000):
        null = rng.uniform(size=15)
        real = rng.uniform(size=5) * 0.002  # five real effects with small p-values
        p = np.concatenate([null, real]).tolist()
        bh = rejected(p, 0.05, "bh")
        bonferroni_found += sum(rejected(p, 0.05, "bonferroni")[15:])
        bh_found += sum(bh[15:])
        shares.append(sum(bh[:15]) / max(1, sum(bh)))
    assert bh_found >= bonferroni_found
    assert np.mean(shares) < 0.05 + 4 * np.std(shares) / sqrt(len(shares))


# ------------------------------------------------------------ beyond plain counts


@pytest.mark.parametrize("dof", [1, 2, 5, 12, 40])
@pytest.mark.parametrize("level", [0.2, 0.05, 0.01, 1e-4])
def test_the_critical_value_inverts_the_tail(dof: int, level: float) -> None:
    assert chi2_sf(chi2_isf(level, dof), dof) == pytest.approx(level, rel=1e-9)


@pytest.mark.parametrize("x", [0.5, 3.84, 10.0])
@pytest.mark.parametrize("noncentrality", [0.3, 4.0, 25.0])
def test_the_noncentral_tail_on_one_degree_of_freedom_is_two_normal_tails(
    x: float, noncentrality: float
) -> None:
    # X = (Z + √λ)², so P(X >= x) = P(Z >= √x - √λ) + P(Z <= -√x - √λ).
    root, shift = sqrt(x), sqrt(noncentrality)
    exact = 0.5 * erfc((root - shift) / sqrt(2)) + 0.5 * erfc((root + shift) / sqrt(2))
    assert noncentral_chi2_sf(x, 1, noncentrality) == pytest.approx(exact, rel=1e-9)


def test_the_detectable_effect_is_found_with_the_stated_power() -> None:
    rng = np.random.default_rng(3)
    dof, level = 3, 0.01
    nc = detectable_noncentrality(dof, level, 0.8)
    shift = np.array([sqrt(nc), 0.0, 0.0])
    draws = ((rng.standard_normal((20_000, dof)) + shift) ** 2).sum(axis=1)
    assert np.mean(draws >= chi2_isf(level, dof)) == pytest.approx(0.8, abs=0.015)


def test_the_quadratic_form_is_pearson_for_multinomial_counts() -> None:
    observed = np.array([30.0, 50.0, 20.0])
    p = np.array([0.3, 0.4, 0.3])
    n = observed.sum()
    covariance = n * (np.diag(p) - np.outer(p, p))
    fit = quadratic_form_test(observed - n * p, covariance, int(n), float((n * p).min()))
    pearson = chi_square(list(observed), list(p))
    assert (fit.dof, fit.statistic) == (2, pytest.approx(pearson.statistic, rel=1e-12))


def test_the_design_factor_divides_the_statistic() -> None:
    plain = chi_square([30, 10, 20])
    assert chi_square([30, 10, 20], design=0.8).statistic == pytest.approx(plain.statistic / 0.8)
    with pytest.raises(ValueError):
        chi_square([30, 10], design=0.0)


def test_the_runs_test_alarms_at_its_nominal_rate_on_independent_sequences() -> None:
    rng = np.random.default_rng(11)
    alarms = 0
    trials = 2000
    for _ in range(trials):
        seq = rng.random(200) < 0.3
        first = int(seq.sum())
        runs = 1 + int(np.count_nonzero(seq[1:] != seq[:-1]))
        alarms += runs_test(runs, first, 200 - first).p_value <= 0.05
    assert alarms / trials == pytest.approx(0.05, abs=0.015)


def test_the_runs_test_finds_streaks() -> None:
    streaky = [True] * 15 + [False] * 15 + [True] * 15 + [False] * 15
    runs = 1 + sum(a != b for a, b in pairwise(streaky))
    assert runs_test(runs, 30, 30).p_value < 1e-6
