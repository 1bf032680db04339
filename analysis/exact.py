"""Exact equity by enumerating the cards to come as rank multisets, with their card counts.

A Razz hand's value depends on its ranks only, so the cards a hand still gets matter only as a
multiset of ranks: 455 multisets of three ranks stand for the 13,244 three-card combinations
of 44 unseen cards. Dealing hand after hand, a hand receives the multiset a from the cards
still unseen (n_r of rank r) in prod_r C(n_r, a_r) ways, and a joint outcome's number of deals
is the product of those counts over the hands.

The enumeration joins all hands but one into rows (pruning any join that needs more cards of
a rank than are unseen), and meets the last hand (the one with the most multisets) in a matrix.
Rows that took the same ranks in total leave the same cards for the last hand, so the matrix
has one line per such group: its entry for the last hand's multiset d is prod_r C(n_r, d_r),
a product of at most k reads (one per rank in d) from a small table of C(n_r, c) per group.
The weights are integers and every sum of them is exact in floating point (below 2**53);
shares of a tie (WIN-SPLIT) are the only fractions.

The last hand's multisets are sorted by value, so who wins a row is a cut in a cumulative sum
of its group's line: if the best value among the joined hands is m, held by t of them, the
last hand wins the weight of its multisets below m and a 1 / (t + 1) share of those equal to
m, and the t hands share the weight above m and the rest of the ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from razz.analysis.lowtable import RANKS, all_multisets, completion_values

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
COUNT_STATES = 5  # a rank is dealt 0 to 4 times
CHUNK = 1 << 20  # matrix entries per block (8 MB per float array)
# BINOMIAL[n, k] = C(n, k): the ways to deal k cards of a rank with n left (0 when k > n).
BINOMIAL = np.array(
    [[comb(n, k) for k in range(COUNT_STATES)] for n in range(COUNT_STATES)], np.float64
)
# The same as integers, for the matrix of the last hand's weights: a line of it sums to the
# ways to deal that hand's k cards from what is left, C(left, k) <= C(52, 7) < 2**31, so its
# running sums are exact in int32, which numpy adds several times faster than float64 (whose
# running sums wait on each addition), and are the same numbers.
BINOMIAL_INT = BINOMIAL.astype(np.int32)


@dataclass(frozen=True)
class Hand:
    """One hand's possible completions: the multisets to come and the value of each."""

    ranks: npt.NDArray[np.int8]  # (M, k) the ranks to come, sorted
    counts: npt.NDArray[np.int8]  # (M, 13) the same as counts per rank
    # (M, k) per card, the column r * 5 + c of a (rank, count) table: c is the count of the
    # card's rank r in the multiset at its first card of that rank, 0 at the others.
    columns: npt.NDArray[np.intp]
    values: npt.NDArray[np.int32]  # (M,) low value of the seven-card hand (lower is better)


@dataclass(frozen=True)
class Sums:
    """Unnormalised results: the deals won by each hand (ties shared), all deals, outcomes."""

    shares: FloatArray
    total: float
    outcomes: int


@cache
def _catalog(
    size: int,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.intp]]:
    """All multisets of `size` ranks: sorted ranks, counts per rank, (rank, count) columns."""
    rows = all_multisets(size)
    counts = np.zeros((len(rows), RANKS), dtype=np.int8)
    for j in range(size):
        np.add.at(counts, (np.arange(len(rows)), rows[:, j]), 1)
    ranks = rows.astype(np.intp)
    first = np.ones(rows.shape, dtype=bool)
    first[:, 1:] = rows[:, 1:] != rows[:, :-1]
    count = np.take_along_axis(counts, ranks, axis=1).astype(np.intp)
    columns = ranks * COUNT_STATES + np.where(first, count, 0)
    return rows, counts, columns


def completions(known: tuple[int, ...], to_come: int, unseen: tuple[int, ...]) -> Hand:
    """Every multiset of ranks the unseen cards can complete a hand with, and its value.

    >>> hand = completions((0, 1, 2, 3, 4, 5), 1, (3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4))
    >>> len(hand.values), hand.ranks[:3, 0].tolist()
    (13, [0, 1, 2])
    """
    rows, counts, columns = _catalog(to_come)
    values = completion_values(known, to_come)
    fits = (counts <= np.asarray(unseen, dtype=np.int8)).all(axis=1)
    if not fits.all():
        rows, counts, columns, values = rows[fits], counts[fits], columns[fits], values[fits]
    return Hand(rows, counts, columns, values)


def enumerate_hands(hands: list[Hand], unseen: tuple[int, ...]) -> Sums:
    """The deals each hand wins over every joint completion (see the module docstring).

    >>> from razz.analysis.situation import situation
    >>> spot = situation(["As 2s 3s 4s 5s 6s", "7s 8s 9s Ts Js Qs"])
    >>> hands = [completions(k, n, spot.unseen) for k, n in zip(spot.known, spot.to_come)]
    >>> sums = enumerate_hands(hands, spot.unseen)
    >>> sums.shares.tolist(), sums.total == 40 * 39
    ([1560.0, 0.0], True)
    """
    last_at = max(range(len(hands)), key=lambda i: len(hands[i].values))
    others = [h for i, h in enumerate(hands) if i != last_at]
    rows_counts, rows_ways, rows_values, rows_key = _join(others, unseen)

    last = hands[last_at]
    order = np.argsort(last.values, kind="stable")
    last_values = last.values[order]
    columns = last.columns[order]

    # Rows dealing the same ranks in total meet the last hand with the same weights.
    if len(others) == 1:
        # One joined hand (heads-up): its rows are distinct multisets, each its own group.
        # Every sum is then of integers and halves (a tie of two), exact in any order.
        count = len(rows_counts)
        group_of = by_group = np.arange(count)
        group_start = np.arange(count + 1)
        left = np.asarray(unseen, np.intp) - rows_counts
    else:
        # Groups numbered in the order of their key, rows in the order of their group (and
        # in their own order within it): what np.unique's inverse and a stable sort of it
        # give, from one stable sort of the keys.
        by_group = np.argsort(rows_key, kind="stable")
        sorted_key = rows_key[by_group]
        starts = np.flatnonzero(np.concatenate(([True], sorted_key[1:] != sorted_key[:-1])))
        count = len(starts)
        group_of = np.empty(len(rows_key), np.intp)
        group_of[by_group] = np.repeat(np.arange(count), np.diff(starts, append=len(rows_key)))
        group_start = np.append(starts, len(rows_key))
        left = np.asarray(unseen, np.intp) - rows_counts[by_group[starts]]
    choose = _choose_table(left, BINOMIAL_INT)

    best = rows_values[0]
    for v in rows_values[1:]:
        best = np.minimum(best, v)
    at_best = [v == best for v in rows_values]
    holders = np.zeros(len(best), np.int64)
    for held in at_best:
        holders += held
    below = np.searchsorted(last_values, best, side="left")
    upto = np.searchsorted(last_values, best, side="right")

    share_rows = np.zeros(len(best))
    share_last = 0.0
    total = 0.0
    step = max(1, CHUNK // len(last_values))
    for first in range(0, count, step):
        stop = min(first + step, count)
        table = choose[first:stop]
        if columns.shape[1] == 0:  # the last hand is complete: one way
            line = np.ones((stop - first, 1), np.int32)
        else:
            line = np.take(table, columns[:, 0], axis=1)
            for j in range(1, columns.shape[1]):
                line *= np.take(table, columns[:, j], axis=1)
        cumulative = np.cumsum(line, axis=1, dtype=np.int32)

        rows = by_group[group_start[first] : group_start[stop]]
        g = group_of[rows] - first
        lo, hi = below[rows], upto[rows]
        ways = rows_ways[rows]
        before = np.where(lo > 0, cumulative[g, lo - 1], 0.0) * ways
        through = np.where(hi > 0, cumulative[g, hi - 1], 0.0) * ways
        row_total = cumulative[g, -1] * ways
        tied = through - before
        t = holders[rows]
        share_rows[rows] = (row_total - through) / t + tied / (t + 1)
        share_last += float(before.sum() + (tied / (t + 1)).sum())
        total += float(row_total.sum())

    # Each joined hand's share: its rows' shares where it holds the best value, summed in the
    # order of the rows, one after the other (as numpy sums a matrix of them down its columns).
    shares = np.zeros(len(hands))
    shares[[i for i in range(len(hands)) if i != last_at]] = [
        np.cumsum(held * share_rows)[-1] if len(share_rows) else 0.0 for held in at_best
    ]
    shares[last_at] = share_last
    return Sums(shares, total, len(best) * len(last_values))


def _join(
    hands: list[Hand], unseen: tuple[int, ...]
) -> tuple[npt.NDArray[np.int8], FloatArray, list[npt.NDArray[np.int32]], IntArray]:
    """Rows of joint completions of the hands, in the order of the hands' completions: rank
    counts dealt, deals, each hand's values, and a key of the counts (equal counts, equal keys).

    A completion the cards left cannot deal has no ways (C(n, c) = 0 for c > n): the ways of
    every pair of row and completion, then those that are not 0.
    """
    limit = np.asarray(unseen, dtype=np.int8)
    digits = COUNT_STATES ** np.arange(RANKS, dtype=np.int64)
    counts = np.zeros((1, RANKS), dtype=np.int8)
    key = np.zeros(1, np.int64)
    ways = np.ones(1)
    values: list[npt.NDArray[np.int32]] = []  # low values fit: below 7 * 16**5
    for hand in hands:
        choose = _choose_table(limit - counts)
        dealt = np.ones((len(counts), len(hand.values)))
        for j in range(hand.columns.shape[1]):
            dealt *= np.take(choose, hand.columns[:, j], axis=1)
        flat = dealt.reshape(-1)
        fits = np.flatnonzero(flat)
        old, new = np.divmod(fits, len(hand.values))
        counts = counts[old] + hand.counts[new]
        key = key[old] + (hand.counts.astype(np.int64) @ digits)[new]
        ways = ways[old] * flat[fits]
        values = [v[old] for v in values] + [hand.values[new]]
    return counts, ways, values, key


def _choose_table(
    left: npt.NDArray[np.integer], binomial: npt.NDArray[np.number] = BINOMIAL
) -> npt.NDArray[np.number]:
    """T[i, r * 5 + c] = C(left[i, r], c): the ways to deal c cards of rank r from what is left."""
    index = left.astype(np.intp)[:, :, None]
    return binomial[index, np.arange(COUNT_STATES)].reshape(len(left), -1)
