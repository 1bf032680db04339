"""The deal-fairness report: do the cards the logs show look like the deal of a fair shuffle?

A fair shuffle makes every order of the 52 cards equally likely. What an auditor sees of a
deal is partial and, for most cards, *selected by the players*: 4th-street cards are dealt
only to players who stayed, and players stay with low cards; down cards are seen at a
showdown only, and players reach a showdown with low cards. The ranks of those cards are not
uniform in a fair room, so a test against the uniform deal would raise an alarm on every fair
room given enough hands. Every test of this report compares with what a fair shuffle implies
*whatever the players do*:

* door cards: every player dealt in gets one before anybody acts, so door cards are a uniform
  sample of the deck (by rank, by suit, and the same at every seat); the seat of the highest
  door card (the bring-in by the rules) is uniform among the seats dealt in;
* the hero's starting cards (two hole cards and the door card) are a uniform 3-card sample
  whoever the hero is, and one hand's start says nothing about the next;
* the up cards of 4th, 5th and 6th street go to the players still in, chosen before those
  cards are dealt: given the cards of a street, which player gets which is uniform, so the
  seat (and the hero) getting the lowest card of the street is uniform among those dealt;
* suits: Razz ignores suits except to break a tie for the bring-in, so who stays, who shows
  and who folds does not depend on suits, and the suits of every card shown are uniform
  (given its rank) on every street, showdowns included.

What the report does not test, and says so: the ranks of 4th to 7th street cards and of cards
shown at a showdown (selected by play, as above).

Each test gives a p-value: how often a fair deal would give data at least this far from what
it implies. Asking eleven questions at once makes a small p-value likely somewhere by chance:
p-values are adjusted (Benjamini–Hochberg by default, Bonferroni on request), and a test
raises an alarm when its adjusted p-value is at most alpha. An alarm is a reason to look,
not proof of a rigged deal; no alarm is not proof of a fair one: each test states the size of
bias it could have found at this sample size.

>>> import duckdb
>>> from razz.store.db import apply_schema
>>> con = duckdb.connect()
>>> apply_schema(con)
>>> report = fairness_report(duckdb_fetch(con))
>>> report.hands, report.alarms
(0, 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from razz.analysis.fairness_queries import (
    RANKS,
    SUITS,
    Duplicate,
    Fetch,
    Scope,
    Tallies,
    collect,
    duckdb_fetch,
)
from razz.analysis.fairness_stats import (
    GoodnessOfFit,
    benjamini_hochberg,
    bonferroni,
    chi2_sf,
    chi_square,
    detectable_noncentrality,
    quadratic_form_test,
    runs_test,
)

__all__ = [
    "ALPHA", "CORRECTIONS", "FairnessReport", "Scope", "TestResult", "collect",
    "duckdb_fetch", "fairness_report", "report_from_tallies", "start_category_probabilities",
]

ALPHA = 0.01  # one fair room in a hundred gets an alarm from the whole report
CORRECTIONS = {"bh": "Benjamini–Hochberg", "bonferroni": "Bonferroni"}
POWER = 0.8  # the minimum detectable effect is the one found this often
MIN_EXPECTED = 5.0  # categories expected fewer times than this are merged (Cochran's rule)
DECK = 52
# Door-card ranks by seat are compared in three classes, as a Razz player grades a door card.
RANK_CLASSES = (("A–5", range(0, 5)), ("6–8", range(5, 8)), ("9–K", range(8, 13)))
LATER_KINDS = (1, 2, 3, 4, 5)  # hole, 4th, 5th, 6th, river: the suit test beyond door cards
KIND_NAMES = {0: "door cards", 1: "hole cards", 2: "4th street", 3: "5th street",
              4: "6th street", 5: "river cards"}


# ------------------------------------------------------------------- starting hands


START_CATEGORIES = (
    "three to a wheel (A–5)", "three to a 6 or 7", "three to an 8",
    "three with a 9 or 10 high", "three with a J, Q or K high", "a pair", "rolled up",
)


def start_category(ranks: Sequence[int]) -> int:
    """The category (index into `START_CATEGORIES`) of three ranks, 1 (ace) … 13 (king).

    >>> [START_CATEGORIES[start_category(r)] for r in ((1, 2, 3), (8, 2, 5), (9, 9, 1), (4, 4, 4))]
    ['three to a wheel (A–5)', 'three to an 8', 'a pair', 'rolled up']
    """
    distinct = len(set(ranks))
    if distinct == 1:
        return 6
    if distinct == 2:
        return 5
    high = max(ranks)
    for index, limit in enumerate((5, 7, 8, 10, 13)):
        if high <= limit:
            return index
    raise ValueError(f"not three ranks from 1 to 13: {ranks}")


@lru_cache(maxsize=1)
def start_category_probabilities() -> tuple[float, ...]:
    """The exact chance of each starting-hand category: three cards of a fair 52-card deck.

    >>> p = start_category_probabilities()
    >>> round(p[0] * 22100), round(p[5] * 22100), round(p[6] * 22100)
    (640, 3744, 52)
    """
    counts = [0] * len(START_CATEGORIES)
    deck = [rank for rank in range(1, 14) for _ in range(4)]
    for trio in combinations(range(DECK), 3):
        counts[start_category([deck[i] for i in trio])] += 1
    total = sum(counts)  # C(52, 3) = 22,100
    return tuple(c / total for c in counts)


GOOD_START = "three different ranks, 8 or lower"  # the runs test's "good" start


def good_start_probability() -> float:
    """The chance of three different ranks of 8 or lower: 3,584 of the 22,100 starts."""
    p = start_category_probabilities()
    return p[0] + p[1] + p[2]


# ------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Bar:
    """One category of a test: what was counted and what a fair deal gives on average."""

    label: str
    observed: float
    expected: float


@dataclass(frozen=True)
class TestResult:
    """One test of the report, with everything an auditor needs to read it."""

    id: str
    title: str
    hypothesis: str  # what a fair deal implies, the null hypothesis
    can_show: str
    cannot_show: str
    n: int  # the sample: how many `unit`
    unit: str
    fit: GoodnessOfFit | None  # None: too few data to test
    why_not: str = ""  # when `fit` is None
    note: str = ""  # how the statistic was made (corrections, merged categories)
    design: float = 1.0  # variance of the counts relative to independent cards
    detectable: str = ""  # the bias this sample would reveal 80% of the time
    bars: tuple[Bar, ...] = ()
    adjusted: float | None = None
    alarm: bool = False

    @property
    def verdict(self) -> str:
        """`alarm`, `no alarm` or `not tested`."""
        if self.fit is None:
            return "not tested"
        return "alarm" if self.alarm else "no alarm"

    def to_json(self) -> dict[str, Any]:
        """The test as a JSON-ready dict."""
        fit = self.fit
        return {
            "id": self.id, "title": self.title, "hypothesis": self.hypothesis,
            "n": self.n, "unit": self.unit,
            "method": None if fit is None else fit.test,
            "statistic": None if fit is None else fit.statistic,
            "dof": None if fit is None else fit.dof,
            "p_value": None if fit is None else fit.p_value,
            "adjusted_p_value": self.adjusted,
            "verdict": self.verdict, "alarm": self.alarm,
            "min_expected": None if fit is None else fit.min_expected,
            "note": self.note, "why_not_tested": self.why_not or None,
            "detectable": self.detectable or None,
            "can_show": self.can_show, "cannot_show": self.cannot_show,
            "observed_vs_expected": [
                {"category": b.label, "observed": b.observed, "expected": b.expected}
                for b in self.bars
            ],
        }


@dataclass(frozen=True)
class Untested:
    """Cards the report counts but does not test, and why."""

    id: str
    title: str
    n: int
    by_rank: tuple[int, ...]
    why: str

    @property
    def mean_rank(self) -> float | None:
        """The average rank, ace 1 … king 13 (a fair uniform deal averages 7)."""
        if not self.n:
            return None
        return sum((r + 1) * c for r, c in enumerate(self.by_rank)) / self.n


@dataclass(frozen=True)
class FairnessReport:
    """The whole report: the tests, the corrected verdicts, the repeated cards, what is left out."""

    scope: Scope
    hands: int
    hero_hands: int
    first_day: Any
    last_day: Any
    sites: tuple[str, ...]
    alpha: float
    correction: str
    tests: tuple[TestResult, ...]
    duplicate_hands: int
    duplicates: tuple[Duplicate, ...]
    bring_in_findings: int
    untested: tuple[Untested, ...] = field(default=())

    @property
    def tested(self) -> tuple[TestResult, ...]:
        """The tests that had data enough to run: the family the correction is over."""
        return tuple(t for t in self.tests if t.fit is not None)

    @property
    def alarms(self) -> int:
        """Alarms raised: tests whose adjusted p-value is at most alpha, and one for any
        hand that repeats a card (impossible with one deck, whatever the statistics)."""
        return sum(t.alarm for t in self.tests) + (1 if self.duplicate_hands else 0)

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready dict."""
        return {
            "scope": {**self.scope.to_json(), "hands": self.hands, "hero_hands": self.hero_hands,
                      "first_day": _day(self.first_day), "last_day": _day(self.last_day),
                      "sites": list(self.sites)},
            "alpha": self.alpha, "correction": self.correction,
            "correction_name": CORRECTIONS[self.correction],
            "tests_run": len(self.tested), "alarms": self.alarms,
            "verdict": "alarm" if self.alarms else "no alarm",
            "tests": [t.to_json() for t in self.tests],
            "repeated_cards": {
                "hands": self.duplicate_hands,
                "listed": [
                    {"hand_key": d.hand_key, "cards": list(d.cards), "source": d.source,
                     "line": d.first_line, "started_at": d.started_at.isoformat(),
                     "table": d.table_name, "deal_unique_finding": d.finding}
                    for d in self.duplicates
                ],
            },
            "bring_in_findings": self.bring_in_findings,
            "not_tested": [
                {"id": u.id, "title": u.title, "n": u.n, "by_rank": list(u.by_rank),
                 "mean_rank": u.mean_rank, "why": u.why}
                for u in self.untested
            ],
        }


def _day(value: Any) -> str | None:
    return None if value is None else str(value)


# ------------------------------------------------------------------------ the report


def fairness_report(
    fetch: Fetch, scope: Scope | None = None, alpha: float = ALPHA, correction: str = "bh"
) -> FairnessReport:
    """Count in the store (`collect`), test (`report_from_tallies`): the report for `scope`."""
    scope = scope or Scope()
    return report_from_tallies(collect(fetch, scope), scope, alpha, correction)


def report_from_tallies(
    tallies: Tallies, scope: Scope | None = None, alpha: float = ALPHA, correction: str = "bh"
) -> FairnessReport:
    """Run every test on the counts, correct for testing many things at once, give verdicts."""
    scope = scope or Scope()
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {correction!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha}")
    builders: list[Callable[[Tallies], TestResult]] = [
        door_ranks, door_suits, door_ranks_by_seat, highest_door_seat, lowest_later_seat,
        later_suits, hero_bring_in, hero_lowest_later, hero_hole_ranks, hero_starts,
        hero_runs,
    ]
    tests = [build(tallies) for build in builders]
    ran = [i for i, t in enumerate(tests) if t.fit is not None]
    p_values = [tests[i].fit.p_value for i in ran]  # type: ignore[union-attr]
    adjusted = (benjamini_hochberg if correction == "bh" else bonferroni)(p_values)
    level = alpha / max(1, len(ran))  # the level a lone effect must pass under either method
    final: list[TestResult] = []
    for i, test in enumerate(tests):
        if i in ran:
            q = adjusted[ran.index(i)]
            test = _replace(test, adjusted=q, alarm=q <= alpha,
                            detectable=_detectable(test, tallies, level))
        final.append(test)
    starts = sum(tallies.hero_starts.values())
    return FairnessReport(
        scope=scope, hands=tallies.hands, hero_hands=starts, first_day=tallies.first_day,
        last_day=tallies.last_day, sites=tallies.sites, alpha=alpha, correction=correction,
        tests=tuple(final), duplicate_hands=tallies.duplicate_hands,
        duplicates=tallies.duplicates, bring_in_findings=tallies.bring_in_findings,
        untested=_untested(tallies),
    )


def _replace(test: TestResult, **changes: Any) -> TestResult:
    from dataclasses import replace

    return replace(test, **changes)


# ------------------------------------------------------------------- door cards


def _door_hands(tallies: Tallies) -> list[tuple[int, int, int | None, int]]:
    """(seats dealt as a mask, seat of the highest door card, hero's seat, hands) per row."""
    return [(mask, chosen, hero, n) for street, mask, chosen, hero, n in tallies.deals
            if street == 3]


def door_ranks(tallies: Tallies) -> TestResult:
    """Door cards by rank against 1/13 each."""
    observed = [sum(row[r] for row in tallies.door_by_seat.values()) for r in range(13)]
    n = sum(observed)
    # k door cards of one hand are drawn without replacement: their counts vary less than k
    # independent cards, by (52 - k) / 51; the statistic is divided by the average factor.
    cards = sum(_popcount(mask) * count for mask, _, _, count in _door_hands(tallies))
    design = (sum(_popcount(mask) * (DECK - _popcount(mask)) / (DECK - 1) * count
                  for mask, _, _, count in _door_hands(tallies)) / cards) if cards else 1.0
    base = _base(
        "door-rank", "Door cards by rank",
        "Every rank is 1/13 of the door cards (each player's 3rd-street up card).",
        "a deck or shuffle that deals some ranks face up more often than others (for example "
        "low cards as door cards), at every seat alike",
        "which seat or player gains; a bias on hole cards or later streets; cheating by "
        "players (collusion does not change the deal)",
        n, "door cards")
    bars = _bars(list(RANKS), observed, [n / 13] * 13)
    if n / 13 < MIN_EXPECTED:
        return _not_tested(base, bars, n)
    fit = chi_square(observed, design=design)
    return _with(base, fit, bars,
                 f"Pearson chi-square divided by {design:.3f}, the variance of door cards "
                 "dealt without replacement relative to independent cards", design)


def door_suits(tallies: Tallies) -> TestResult:
    """Door cards by suit against 1/4 each."""
    observed = list(tallies.suits[0])
    n = sum(observed)
    design = _suit_design(n, tallies.door_same_rank)
    base = _base(
        "door-suit", "Door cards by suit",
        "Every suit is 1/4 of the door cards.",
        "a shuffle that favours some suits face up",
        "anything about ranks; suits decide only ties for the bring-in, so a suit bias "
        "hardly changes who wins",
        n, "door cards")
    bars = _bars(list(SUITS), observed, [n / 4] * 4)
    if n / 4 < MIN_EXPECTED:
        return _not_tested(base, bars, n)
    fit = chi_square(observed, design=design)
    return _with(base, fit, bars,
                 f"Pearson chi-square divided by {design:.3f}: cards of one rank in a hand "
                 "cannot share a suit, so their suits vary less than independent cards'", design)


def door_ranks_by_seat(tallies: Tallies) -> TestResult:
    """Door-card rank classes (A–5, 6–8, 9–K) the same at every seat."""
    probs = np.array([len(r) / 13 for _, r in RANK_CLASSES])
    base = _base(
        "door-rank-by-seat", "Door cards by seat",
        "The door card's class (A–5, 6–8, 9–K) has the same distribution at every seat.",
        "a deal that gives some seats better or worse door cards than others",
        "a bias that follows a player from seat to seat (see the hero's tests); a bias "
        "shared by every seat (see door cards by rank)",
        0, "door cards")
    seats = sorted(tallies.door_by_seat)
    counts = np.array([[sum(tallies.door_by_seat[s][r] for r in ranks)
                        for _, ranks in RANK_CLASSES] for s in seats], dtype=float)
    totals = counts.sum(axis=1) if len(seats) else np.zeros(0)
    kept = [i for i, t in enumerate(totals) if t * probs.min() >= MIN_EXPECTED]
    n = int(totals.sum())
    base = _replace(base, n=n)
    bars = tuple(Bar(f"seat {seats[i]} A–5", float(counts[i, 0]), float(totals[i] * probs[0]))
                 for i in range(len(seats)))
    if len(kept) < 2:
        return _not_tested(base, bars, n, "fewer than two seats with enough door cards")
    # Seats a and b dealt in the same hand hold two cards of one deck: their class counts
    # covary by -Σ/51, where Σ is one card's covariance. The exact covariance of the table is
    # M ⊗ Σ; the statistic is the part of xᵀ(M ⊗ Σ)⁺x not explained by the classes' total
    # (which "door cards by rank" tests): the seats' differences, chi-square with
    # (seats - 1) × 2 degrees of freedom.
    index = {seats[i]: j for j, i in enumerate(kept)}
    m = np.zeros((len(kept), len(kept)))
    by_mask: dict[int, int] = {}
    for mask, _, _, count in _door_hands(tallies):
        by_mask[mask] = by_mask.get(mask, 0) + count
    for mask, count in by_mask.items():
        present = [index[s] for s in _seats(mask) if s in index]
        m[np.ix_(present, present)] -= count / (DECK - 1)
        m[present, present] += count + count / (DECK - 1)
    sigma = np.diag(probs) - np.outer(probs, probs)
    x = counts[kept] - np.outer(totals[kept], probs)
    whole = quadratic_form_test(x.ravel(), np.kron(m, sigma), n, 0.0)
    pooled = quadratic_form_test(x.sum(axis=0), m.sum() * sigma, n, 0.0)
    statistic = max(0.0, whole.statistic - pooled.statistic)
    fit = _fit("seats × classes", statistic, whole.dof - pooled.dof, n,
               float(totals[kept].min() * probs.min()))
    left_out = len(seats) - len(kept)
    note = ("The table's exact covariance (cards of one hand are dealt from one deck), minus "
            "the part shared by every seat")
    if left_out:
        note += f"; {left_out} seat(s) with too few door cards left out"
    return _with(base, fit, bars, note)


def highest_door_seat(tallies: Tallies) -> TestResult:
    """The seat of the highest door card, uniform among the seats dealt in."""
    base = _base(
        "bring-in-seat", "Seat of the highest door card (the bring-in)",
        "The highest door card (rank, then suit: the player who must bring in) is at each "
        "seat dealt in with equal chance, 1/k with k players.",
        "a deal that makes some seats bring in (start with the worst door card) more often",
        "whether the right player brought in: that follows from the door cards by the rules "
        "and is the audit's BRINGIN-WHO and BRINGIN-SUIT check",
        0, "hands")
    return _seat_test(base, _door_hands(tallies))


def lowest_later_seat(tallies: Tallies) -> TestResult:
    """The seat of the lowest up card of 4th, 5th and 6th street, uniform among those dealt."""
    rows = [(mask, chosen, hero, n) for street, mask, chosen, hero, n in tallies.deals
            if 4 <= street <= 6 and _popcount(mask) >= 2]
    base = _base(
        "lowest-later-seat", "Seat of the lowest up card on 4th to 6th street",
        "On each of 4th, 5th and 6th street, the lowest up card dealt goes to each player still "
        "in with equal chance (the players still in are known before the cards come).",
        "a deal that sends the best later cards to some seats",
        "anything about which players stay in: that is up to them; the ranks of later cards "
        "(they depend on who stayed)",
        0, "streets dealt")
    return _seat_test(base, rows)


def _seat_test(base: TestResult, rows: Sequence[tuple[int, int, int | None, int]]) -> TestResult:
    """Observed against expected counts of a chosen seat, each hand uniform over its seats,
    with the exact covariance of those counts (seats sparse in the data merged)."""
    seats = sorted({s for mask, _, _, _ in rows for s in _seats(mask)})
    n = sum(count for _, _, _, count in rows)
    base = _replace(base, n=n)
    if not seats or n == 0:
        return _not_tested(base, (), n)
    at = {s: i for i, s in enumerate(seats)}
    observed = np.zeros(len(seats))
    expected = np.zeros(len(seats))
    covariance = np.zeros((len(seats), len(seats)))
    by_mask: dict[int, int] = {}
    for mask, chosen, _, count in rows:
        if chosen in at:
            observed[at[chosen]] += count
        by_mask[mask] = by_mask.get(mask, 0) + count
    for mask, count in by_mask.items():  # expectations depend on the seats dealt only
        present = [at[s] for s in _seats(mask)]
        p = 1 / len(present)
        expected[present] += count * p
        covariance[np.ix_(present, present)] -= count * p * p
        covariance[present, present] += count * p
    bars = tuple(Bar(f"seat {s}", float(observed[i]), float(expected[i]))
                 for i, s in enumerate(seats))
    kept = [i for i in range(len(seats)) if expected[i] >= MIN_EXPECTED]
    merged = [i for i in range(len(seats)) if i not in kept]
    groups = [[i] for i in kept] + ([merged] if merged else [])
    if len(groups) < 2 or (merged and expected[merged].sum() < MIN_EXPECTED):
        return _not_tested(base, bars, n)
    a = np.zeros((len(groups), len(seats)))
    for g, members in enumerate(groups):
        a[g, members] = 1
    fit = quadratic_form_test(a @ (observed - expected), a @ covariance @ a.T, n,
                              float((a @ expected).min()), "seats")
    note = "Exact covariance of the counts (each hand has its own number of seats)"
    if merged:
        note += f"; {len(merged)} rarely dealt seat(s) counted together"
    return _with(base, fit, bars, note)


# ------------------------------------------------------------------ suits of later cards


def later_suits(tallies: Tallies) -> TestResult:
    """Suits of every card the logs show beyond the door cards, against 1/4 each."""
    base = _base(
        "later-suits", "Suits of hole, 4th–6th street and river cards",
        "Every suit is 1/4 of the cards the logs show besides door cards: the hole and river "
        "cards (the hero's, and those shown at a showdown) and the up cards of 4th, 5th and "
        "6th street. Players' choices do not depend on suits in Razz, so even cards seen "
        "because players stayed or showed have uniform suits.",
        "a shuffle that favours some suits after the door cards",
        "anything about ranks, which decide every pot; a bias on one street that another "
        "street's opposite bias cancels (the counts street by street are shown)",
        0, "cards")
    observed = [sum(tallies.suits[k][s] for k in LATER_KINDS) for s in range(4)]
    n = sum(observed)
    base = _replace(base, n=n)
    bars = tuple(
        Bar(f"{KIND_NAMES[k]} {SUITS[s]}", float(tallies.suits[k][s]), sum(tallies.suits[k]) / 4)
        for k in LATER_KINDS for s in range(4))
    if n / 4 < MIN_EXPECTED:
        return _not_tested(base, bars, n)
    # Given the ranks dealt, each rank's four suits fall on its four cards in a uniformly
    # random order: c cards of one rank in one hand vary in suit like c draws without
    # replacement from the four suits, (4 - c) / 3 times the variance of independent cards.
    design = _suit_design(n, tallies.later_same_rank)
    fit = chi_square(observed, design=design)
    return _with(base, fit, bars,
                 f"Pearson chi-square divided by {design:.3f}: cards of one rank in a hand "
                 "cannot share a suit, so their suits vary less than independent cards'",
                 design)


# ------------------------------------------------------------------- the hero's cards


def hero_bring_in(tallies: Tallies) -> TestResult:
    """How often the hero holds the highest door card, against 1/k per hand."""
    rows = [(mask, chosen, hero, n) for mask, chosen, hero, n in _door_hands(tallies)
            if hero is not None]
    base = _base(
        "hero-bring-in", "The hero brings in (highest door card)",
        "The hero (the player whose hole cards the logs show) holds the highest door card "
        "with chance 1/k in a hand of k players.",
        "a deal that gives the log's owner worse (or better) door cards than the others",
        "a bias against other players; whether the hero played well",
        0, "hands")
    return _hero_test(base, rows, "highest door card")


def hero_lowest_later(tallies: Tallies) -> TestResult:
    """How often the hero gets the lowest up card of 4th to 6th street, against 1/k."""
    rows = [(mask, chosen, hero, n) for street, mask, chosen, hero, n in tallies.deals
            if 4 <= street <= 6 and hero is not None and _popcount(mask) >= 2]
    base = _base(
        "hero-lowest-later", "The hero gets the lowest up card on 4th to 6th street",
        "On each of 4th, 5th and 6th street the hero is dealt in, the lowest up card goes to "
        "the hero with chance 1/k among the k players dealt.",
        "a deal that gives the log's owner worse (or better) cards once the hand is under way",
        "a bias against other players; anything about the streets the hero did not see",
        0, "streets dealt")
    return _hero_test(base, rows, "lowest up card")


def _hero_test(base: TestResult, rows: Sequence[tuple[int, int, int | None, int]],
               what: str) -> TestResult:
    n = sum(count for _, _, _, count in rows)
    observed = sum(count for _, chosen, hero, count in rows if chosen == hero)
    expected = sum(count / _popcount(mask) for mask, _, _, count in rows)
    variance = sum(count / _popcount(mask) * (1 - 1 / _popcount(mask))
                   for mask, _, _, count in rows)
    base = _replace(base, n=n)
    bars = (Bar(f"hero has the {what}", float(observed), expected),
            Bar("another player has it", float(n - observed), n - expected))
    if expected < MIN_EXPECTED or n - expected < MIN_EXPECTED:
        return _not_tested(base, bars, n)
    fit = quadratic_form_test([observed - expected], [[variance]], n,
                              min(expected, n - expected), "z²")
    return _with(base, fit, bars, "z-test of the count against the sum of 1/k over the hands, "
                                  "with its exact variance")


def hero_hole_ranks(tallies: Tallies) -> TestResult:
    """The hero's two hole cards by rank against 1/13 each."""
    observed = [0] * 13
    for (a, b, _), count in tallies.hero_starts.items():
        observed[a - 1] += count
        observed[b - 1] += count
    n = sum(observed)
    base = _base(
        "hero-hole-rank", "The hero's hole cards by rank",
        "Every rank is 1/13 of the hero's two hole cards.",
        "a deal that gives the log's owner worse (or better) hole cards",
        "a bias against other players, whose hole cards are seen only when they reach a "
        "showdown (and those are low because they stayed in)",
        n, "hole cards")
    bars = _bars(list(RANKS), observed, [n / 13] * 13)
    if n / 13 < MIN_EXPECTED:
        return _not_tested(base, bars, n)
    design = (DECK - 2) / (DECK - 1)  # two cards of one deck per hand
    fit = chi_square(observed, design=design)
    return _with(base, fit, bars, f"Pearson chi-square divided by {design:.3f} (two cards per "
                                  "hand, dealt without replacement)", design)


def hero_starts(tallies: Tallies) -> TestResult:
    """The hero's 3-card starting hands by category against the exact combinatorial chances."""
    probs = list(start_category_probabilities())
    observed = [0] * len(probs)
    for ranks, count in tallies.hero_starts.items():
        observed[start_category(ranks)] += count
    n = sum(observed)
    labels = list(START_CATEGORIES)
    base = _base(
        "hero-starts", "The hero's starting hands by category",
        "The hero's three 3rd-street cards fall in each category (three to a wheel, … a pair, "
        "rolled up) as often as three cards of a fair deck: 640, 1,600, 1,344, 4,096, 10,624, "
        "3,744 and 52 in 22,100.",
        "a deal that gives the log's owner fewer (or more) good starting hands",
        "a bias against other players; whether the hero played the hands well",
        n, "hands")
    bars = _bars(labels, observed, [n * p for p in probs])
    if n == 0:
        return _not_tested(base, bars, n)
    labels, observed_m, probs_m = _merge_sparse(labels, observed, probs, n)
    if len(labels) < 2:
        return _not_tested(base, bars, n)
    fit = chi_square(observed_m, probs_m)
    note = "Pearson chi-square against the exact chances"
    if len(labels) < len(START_CATEGORIES):
        note += "; categories expected fewer than 5 times counted with their neighbour"
    return _with(base, fit, bars, note)


def hero_runs(tallies: Tallies) -> TestResult:
    """Streaks of good and bad starts in time order: the Wald–Wolfowitz runs test."""
    n, good, runs = tallies.hero_sequence
    bad = n - good
    base = _base(
        "hero-runs", "Streaks of the hero's good and bad starts",
        f"The hero's starts, in time order, are good ({GOOD_START}) or not independently "
        "of the hands before: the number of streaks (runs) is what chance gives.",
        "a deal whose luck comes in streaks: long runs of bad (or good) starting hands, or "
        "starts that alternate too regularly",
        "how often starts are good (see starting hands by category)",
        n, "hands")
    expected = 1 + 2 * good * bad / n if n else 0.0
    bars = (Bar("runs of good and bad starts", float(runs), expected),)
    if min(good, bad) < 10:
        return _not_tested(base, bars, n, "fewer than 10 good or 10 bad starts")
    fit = runs_test(runs, good, bad)
    return _with(base, fit, bars, "Wald–Wolfowitz runs test, two-sided, in the order the "
                                  "hands were played")


# ------------------------------------------------------------------- left untested


def _untested(tallies: Tallies) -> tuple[Untested, ...]:
    def ranks(kinds: Sequence[int]) -> tuple[int, ...]:
        return tuple(sum(tallies.ranks[k][r] for k in kinds) for r in range(13))

    later = ranks((2, 3, 4))
    river = ranks((5,))
    return (
        Untested("later-ranks", "Ranks of 4th to 6th street up cards", sum(later), later,
                 "Dealt only to players who stayed in, and players stay with low cards, so "
                 "the cards left in the deck are higher than average: a fair deal usually "
                 "gives them an average rank above 7 (ace 1 … king 13), by how much depends "
                 "on how the players play."),
        Untested("river-ranks", "Ranks of river cards (the hero's and those shown)",
                 sum(river), river,
                 "Seen only for the hero and at a showdown, reached with low cards: the same "
                 "selection, and more of it."),
    )


# ------------------------------------------------------------------- the detectable effect


def _detectable(test: TestResult, tallies: Tallies, level: float) -> str:
    """The bias the test finds 80% of the time at this sample size, at the level a lone effect
    must pass after the correction (alpha divided by the number of tests): rough, as the
    effect's shape is assumed."""
    fit = test.fit
    if fit is None or fit.n == 0:
        return ""
    nc = _noncentrality(fit.dof, level)
    w = math.sqrt(nc / fit.n)  # Cohen's w for independent observations
    if test.id == "door-rank":
        w *= math.sqrt(test.design)
        x = 13 * w / (math.sqrt(40) - 5 * w) if 5 * w < math.sqrt(40) else math.inf
        return (f"one rank {_percent(w * math.sqrt(12))} more or less often than 1/13; or the "
                f"low cards A–5 each {_percent(x)} more likely as a door card than the others")
    if test.id in ("door-suit", "later-suits"):
        return f"one suit {_percent(w * math.sqrt(3 * test.design))} more or less often than 1/4"
    if test.id == "hero-hole-rank":
        return f"one rank {_percent(w * math.sqrt(12 * 50 / 51))} more or less often than 1/13"
    if test.id == "hero-starts":
        p = start_category_probabilities()[0]
        return (f"three to a wheel {_percent(w * math.sqrt((1 - p) / p))} more or less often "
                f"than {p:.2%} (or a shift of the same size over several categories)")
    if test.id == "hero-runs":
        return (f"a correlation of ±{w:.3f} between one start and the next (streaks of good "
                "or bad starts that strong)")
    if test.id == "door-rank-by-seat":
        seats = max(1, len(tallies.door_by_seat))
        per_seat = fit.n / seats
        p = 5 / 13
        spread = math.sqrt(nc * p * (1 - p) * DECK / (DECK - 1)
                           / (per_seat * (1 - 1 / seats))) if seats > 1 else math.inf
        return (f"one seat's share of A–5 door cards off by ±{100 * spread:.1f} percentage "
                f"points (fair: {p:.1%})")
    if test.id in ("bring-in-seat", "lowest-later-seat"):
        dealt = [b for b in test.bars if b.expected > 0]
        mean_e = sum(b.expected for b in dealt) / len(dealt)
        share = mean_e / fit.n
        r = math.sqrt(nc * mean_e * (1 - share)) / mean_e
        return f"a seat getting it {_percent(r)} more or less often than its fair share"
    if test.id in ("hero-bring-in", "hero-lowest-later"):
        expected = test.bars[0].expected
        variance = expected * (1 - expected / fit.n)
        return (f"the hero getting it {_percent(math.sqrt(nc * variance) / expected)} more or "
                f"less often than the fair {expected:,.0f} times")
    return ""


@lru_cache(maxsize=256)
def _noncentrality(dof: int, level: float) -> float:
    return detectable_noncentrality(dof, level, POWER)


def _percent(share: float) -> str:
    if not math.isfinite(share) or share > 10:
        return "more than 1000%"
    return f"{100 * share:.1f}%"


# ----------------------------------------------------------------------------- helpers


def _base(id_: str, title: str, hypothesis: str, can: str, cannot: str, n: int,
          unit: str) -> TestResult:
    return TestResult(id=id_, title=title, hypothesis=hypothesis, can_show=can,
                      cannot_show=cannot, n=n, unit=unit, fit=None)


def _with(base: TestResult, fit: GoodnessOfFit, bars: Sequence[Bar], note: str,
          design: float = 1.0) -> TestResult:
    return _replace(base, fit=fit, bars=tuple(bars), note=note, design=design)


def _not_tested(base: TestResult, bars: Sequence[Bar], n: int,
                why: str = "") -> TestResult:
    return _replace(base, n=n, bars=tuple(bars),
                    why_not=why or f"too few {base.unit} ({n:,}) for the test's approximation")


def _fit(test: str, statistic: float, dof: int, n: int, min_expected: float) -> GoodnessOfFit:
    return GoodnessOfFit(test, statistic, dof, chi2_sf(statistic, dof) if dof > 0 else 1.0,
                         n, min_expected)


def _bars(labels: Sequence[str], observed: Sequence[float],
          expected: Sequence[float]) -> tuple[Bar, ...]:
    return tuple(Bar(label, float(o), float(e))
                 for label, o, e in zip(labels, observed, expected, strict=True))


def _merge_sparse(labels: Sequence[str], observed: Sequence[int], probs: Sequence[float],
                  n: int) -> tuple[list[str], list[int], list[float]]:
    """Merge the category expected least often into its neighbour until each is expected at
    least `MIN_EXPECTED` times (or one is left)."""
    labels, observed, probs = list(labels), list(observed), list(probs)
    while len(probs) > 1 and min(probs) * n < MIN_EXPECTED:
        i = probs.index(min(probs))
        j = i - 1 if i == len(probs) - 1 or (i > 0 and probs[i - 1] < probs[i + 1]) else i + 1
        a, b = sorted((i, j))
        labels[a:b + 1] = [f"{labels[a]} or {labels[b]}"]
        observed[a:b + 1] = [observed[a] + observed[b]]
        probs[a:b + 1] = [probs[a] + probs[b]]
    return labels, observed, probs


def _suit_design(n: int, same_rank_squares: int) -> float:
    """The variance of suit counts relative to independent cards: Σ c (4 - c) / 3 over every
    (hand, rank), divided by the cards, with c the cards of that rank in that hand."""
    if n == 0:
        return 1.0
    return (4 * n - same_rank_squares) / (3 * n)


def _popcount(mask: int) -> int:
    return int(mask).bit_count()


def _seats(mask: int) -> list[int]:
    return [s + 1 for s in range(int(mask).bit_length()) if mask >> s & 1]
