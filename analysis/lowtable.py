"""The value of every seven-rank Razz hand in one table, read by the index of its rank multiset.

A Razz hand's value depends on its ranks only (HAND-LOW: suits never count), so the value of
any seven cards is a function of their multiset of ranks, of which there are 50,388
(C(19, 7); 49,205 of them have at most four of a rank and can be dealt). Each multiset gets a
dense index by the combinatorial number system (colex order over sorted ranks), so evaluating
a hand is one sort of seven small integers, seven reads of a 7 x 13 table and one read of
`LOW7`. Values are those of `razz.replay.lowhand.low_value` (lower is better), which the table
is built from: five-card values come from `value_of_ranks`, six and seven cards take the best
(lowest) value among the hands with one card left out, which is the best five of seven.

Ranks here are rank indexes, 0 for the ace to 12 for the king (`RANK[card] - 1`).

>>> import numpy as np
>>> wheel_and_kings = np.array([[0, 1, 2, 3, 4, 12, 12]])
>>> int(low7(wheel_and_kings)[0]) == value_of_ranks([5, 4, 3, 2, 1])
True
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache, lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from razz.replay.lowhand import value_of_ranks

RANKS = 13
CARDS = 7
FIVE = 5

IntArray = npt.NDArray[np.int64]
# Low values fit in 32 bits (below 7 * 16**5): the table and every table read from it hold
# them as int32, which halves what a worker's cached completion tables keep.
ValueArray = npt.NDArray[np.int32]


def _colex_weights(size: int) -> IntArray:
    """W[j, r] = C(r + j, j + 1): the index of sorted ranks r_0 <= … is the sum of W[j, r_j].

    Sorted ranks r_j map to the strictly increasing c_j = r_j + j, and the colex rank of that
    combination is the sum of C(c_j, j + 1): a bijection onto 0 … C(13 + size - 1, size) - 1.
    """
    return np.array(
        [[comb(r + j, j + 1) for r in range(RANKS)] for j in range(size)], dtype=np.int64
    )


_WEIGHTS = {size: _colex_weights(size) for size in range(1, CARDS + 1)}


def multiset_index(sorted_ranks: npt.ArrayLike) -> IntArray:
    """The dense index of each row of sorted rank indexes (rows of equal length, 1 to 7).

    >>> [int(i) for i in multiset_index([[0, 0, 0, 0, 0, 0, 0], [12] * 7])]
    [0, 50387]
    """
    ranks = np.asarray(sorted_ranks, dtype=np.intp)
    weights = _WEIGHTS[ranks.shape[1]]
    index = weights[0, ranks[:, 0]].copy()
    for j in range(1, ranks.shape[1]):
        index += weights[j, ranks[:, j]]
    return index


def all_multisets(size: int) -> npt.NDArray[np.int8]:
    """Every multiset of `size` rank indexes as sorted rows, row i having index i.

    >>> all_multisets(2)[:3].tolist()
    [[0, 0], [0, 1], [1, 1]]
    """
    return _all_multisets(size)


@cache
def _all_multisets(size: int) -> npt.NDArray[np.int8]:
    if size == 0:
        return np.zeros((1, 0), dtype=np.int8)
    # In colex order the multisets whose largest rank is m come after all those with a
    # smaller largest rank, and those of one card fewer with largest rank <= m are a prefix
    # (C(m + size - 1, size - 1) rows) of the smaller list: append m to that prefix.
    smaller = _all_multisets(size - 1)
    blocks = []
    for m in range(RANKS):
        prefix = smaller[: comb(m + size - 1, size - 1)]
        blocks.append(np.hstack([prefix, np.full((len(prefix), 1), m, dtype=np.int8)]))
    rows = np.vstack(blocks)
    rows.flags.writeable = False
    return rows


def _best_of_one_fewer(rows: npt.NDArray[np.int8], smaller: ValueArray) -> ValueArray:
    """For sorted rows of n ranks, the lowest value of `smaller` over the n rows of n - 1."""
    best: ValueArray | None = None
    for left_out in range(rows.shape[1]):
        kept = np.delete(rows, left_out, axis=1)  # still sorted
        values = smaller[multiset_index(kept)]
        best = values if best is None else np.minimum(best, values)
    assert best is not None
    return best


@cache
def _table() -> ValueArray:
    fives = all_multisets(FIVE)
    table = np.array([value_of_ranks([r + 1 for r in row]) for row in fives.tolist()], np.int32)
    for size in range(FIVE + 1, CARDS + 1):
        table = _best_of_one_fewer(all_multisets(size), table)
    table.flags.writeable = False
    return table


def low7_table() -> ValueArray:
    """`low_value` of every seven-rank multiset, by `multiset_index` (built once, ~0.1 s).

    Multisets with five of a rank cannot be dealt; their entries are computed all the same.

    >>> len(low7_table())
    50388
    """
    return _table()


def low7(ranks: npt.ArrayLike) -> ValueArray:
    """The value of each row of seven rank indexes (any order): one table read per hand.

    >>> import numpy as np
    >>> a, b = low7(np.array([[7, 6, 5, 3, 2, 12, 12], [8, 3, 2, 1, 0, 0, 0]]))
    >>> bool(a < b)  # 8-7-6-4-3 beats 9-4-3-2-A
    True
    """
    rows = np.sort(np.asarray(ranks, dtype=np.intp), axis=1)
    return _table()[multiset_index(rows)]


# Completions are cached up to this many cards to come (1,820 multisets of four ranks, 7 KB
# of values per hand), the most a hand of the logs still gets (on 3rd street); `??` cards in a
# hand given by hand (`razz equity`) can ask for more, which is computed each time.
CACHED_TO_COME = 4


def completion_values(known: tuple[int, ...], to_come: int) -> ValueArray:
    """The value of `known` plus each multiset of `to_come` ranks (row i of `all_multisets`).

    What a hand's cards to come are worth depends on its known ranks only, so a worker
    computes this once for each (known ranks, cards to come) it meets and reads it after.

    >>> values = completion_values((0, 1, 2, 3), 3)
    >>> len(values), int(values[0]) == int(low7([[0, 1, 2, 3, 0, 0, 0]])[0])
    (455, True)
    """
    if to_come > CACHED_TO_COME:
        return _completion_values(known, to_come)
    return _CACHES[to_come](known, to_come)


# One cache per count of cards to come, so that the many cheap tables of 5th and 6th street
# never push out the costly ones of 3rd street: every table of three and four ranks to come
# fits (455 of four known ranks' … 1,820 of three, 7 KB and 1.8 KB each: about 6.5 MB at most
# in a worker), and the last 2,048 of one and two.
_CACHES = {
    size: lru_cache(maxsize=2048)(lambda known, to_come: _completion_values(known, to_come))
    for size in range(CACHED_TO_COME + 1)
}


def _completion_values(known: tuple[int, ...], to_come: int) -> ValueArray:
    """`low7` of `known` (sorted) plus each row of `all_multisets(to_come)`, without sorting
    the rows of seven: both parts are sorted, so each rank's place in the merged hand is known.

    Among equal ranks the known ones come first: known rank i goes to place i plus the row's
    ranks below it, the row's rank j to place j plus the known ranks at or below it; the
    multiset's index is the sum of W[place, rank] (`multiset_index`).
    """
    if to_come <= SMALL_TO_COME:
        return _few_completion_values(known, to_come)
    rows, below = _rows_below(to_come)
    weights = _WEIGHTS[len(known) + to_come]
    ranks = np.arange(RANKS)
    known_at_or_below = np.searchsorted(np.asarray(known, np.intp), ranks, side="right")
    index = np.zeros(len(rows), np.int64)
    for j in range(to_come):
        index += weights[j + known_at_or_below, ranks][rows[:, j]]
    for i, rank in enumerate(known):
        index += weights[:, rank][i + below[:, rank]]
    values = _table()[index]
    values.flags.writeable = False
    return values


# Up to this many cards to come (one multiset, or 13), the places are counted in Python: each
# multiset's index is a few reads of prefix sums, which costs less than numpy's calls (half
# the instructions; from two cards to come on, numpy's fewer calls cost less).
SMALL_TO_COME = 1


def _few_completion_values(known: tuple[int, ...], to_come: int) -> ValueArray:
    """`_completion_values` for 0 or 1 card to come.

    The known ranks at places 0 … n - 1 shifted by m (the row's ranks below them) weigh
    W[i + m, known[i]]: those at or below the card to come keep their place, those above it move
    by one, a difference of prefix sums; the card to come takes the place after the first.
    """
    n = len(known)
    weights = _WEIGHT_LISTS[n + to_come]
    kept, moved = [0], [0]
    for i, rank in enumerate(known):
        kept.append(kept[-1] + weights[i][rank])
        if to_come:
            moved.append(moved[-1] + weights[i + 1][rank])
    if to_come == 0:
        index = [kept[n]]
    else:
        index = []
        for r in range(RANKS):
            at = bisect_right(known, r)  # known ranks at or below r
            index.append(kept[at] + moved[n] - moved[at] + weights[at][r])
    values = _table()[np.array(index, np.int64)]
    values.flags.writeable = False
    return values


_WEIGHT_LISTS = {size: weights.tolist() for size, weights in _WEIGHTS.items()}


@cache
def _rows_below(size: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """`all_multisets(size)` and, for each row and rank, how many of its ranks are below it."""
    rows = all_multisets(size).astype(np.intp)
    counts = np.zeros((len(rows), RANKS), np.intp)
    for j in range(size):
        np.add.at(counts, (np.arange(len(rows)), rows[:, j]), 1)
    below = np.zeros_like(counts)
    below[:, 1:] = np.cumsum(counts, axis=1)[:, :-1]
    return rows, below


def ordered_index(size: int) -> IntArray:
    """For `size` ranks in any order, read as the base-13 number d_0 d_1 …, the index of
    their multiset (`multiset_index`): a lookup that needs no sort (up to 4 ranks).

    >>> index = ordered_index(2)
    >>> int(index[3 * 13 + 1]) == int(index[1 * 13 + 3]) == int(multiset_index([[1, 3]])[0])
    True
    """
    return _ordered_index(size)


@cache
def _ordered_index(size: int) -> IntArray:
    if not 1 <= size <= CACHED_TO_COME:
        raise ValueError(f"ordered_index covers 1 to {CACHED_TO_COME} ranks, not {size}")
    digits = np.indices((RANKS,) * size).reshape(size, -1).T  # row n: the digits of n
    index = multiset_index(np.sort(digits, axis=1))
    index.flags.writeable = False
    return index
