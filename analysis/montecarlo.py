"""Equity by sampling deals of the unseen cards, for situations too large to enumerate.

Each sample draws the cards to come from the unseen cards (their ranks: suits never count)
in a uniformly random order, without replacement, gives every hand its cards to come in turn
and the community card if one is to come, and splits the pot among the best lows (WIN-SPLIT);
a hand's value is read from its completion values (`razz.analysis.lowtable`). The estimate of a hand's equity is its mean share; its standard error
is the standard deviation of its share over the samples divided by the square root of their
number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from razz.analysis.lowtable import CACHED_TO_COME, RANKS, completion_values, low7, ordered_index
from razz.analysis.situation import Situation

BLOCK = 50_000  # samples per block: bounds the memory of the shuffled decks


@dataclass(frozen=True)
class Estimate:
    """Mean share and its standard error per hand, over `samples` deals."""

    equity: tuple[float, ...]
    std_error: tuple[float, ...]
    samples: int


def sample(spot: Situation, samples: int, seed: int | None = None) -> Estimate:
    """Estimate each hand's equity from `samples` random deals (the same seed, the same result).

    >>> from razz.analysis.situation import situation
    >>> spot = situation(["As 2d 3c 4h 5s Kd Kc", "6s 6d 6c 6h 7s 7d"])
    >>> sample(spot, 1000, seed=1).equity
    (1.0, 0.0)
    """
    if samples < 2:
        raise ValueError("Monte Carlo needs at least 2 samples")
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(len(spot.unseen), dtype=np.int8), spot.unseen)
    needed = sum(spot.to_come) + spot.community_to_come
    total = np.zeros(len(spot.known))
    squares = np.zeros(len(spot.known))
    done = 0
    while done < samples:
        n = min(BLOCK, samples - done)
        block_total, block_squares = _sums(_values(spot, _deal(rng, deck, n, needed), n))
        total += block_total
        squares += block_squares
        done += n
    mean = total / samples
    variance = np.maximum(squares - samples * mean**2, 0.0) / (samples - 1)
    error = np.sqrt(variance / samples)
    return Estimate(tuple(map(float, mean)), tuple(map(float, error)), samples)


Column = npt.NDArray[np.int8]


def _deal(rng: np.random.Generator, deck: Column, n: int, needed: int) -> list[Column]:
    """`n` deals of the first `needed` cards of a shuffled `deck`: the ranks dealt, one array
    per card (column j holds card j of every deal).

    The first `needed` steps of a Fisher-Yates shuffle, all rows at once: step j swaps card j
    with a card drawn uniformly from j on, so the first `needed` cards are a uniformly random
    ordered draw without replacement; the rest of the deck is never shuffled, which a full
    shuffle of each row (heads-up on 3rd street, 8 cards of 46) would spend most of its time on.
    When more than half the deck is needed, each row is shuffled in full, which then costs less.
    """
    size = len(deck)
    if 2 * needed > size:  # most of the deck: one full shuffle per row costs less
        shuffled = rng.permuted(np.broadcast_to(deck, (n, size)), axis=1)
        return [shuffled[:, j] for j in range(needed)]
    if needed == 0:
        return []
    flat = np.tile(deck, n)  # row i is flat[i * size : (i + 1) * size]
    rows = flat.reshape(n, size)
    # Where step j swaps from, in every row at once: row j (flat indexes, contiguous).
    # Each draw plus its step (numpy's low bound) and its row's start in the flat deck (summed
    # first: numpy broadcasts a (n, 1) column over rows of a few draws slowly).
    drawn = _positions(rng, n, needed, size).reshape(n, needed) + (
        np.arange(0, n * size, size)[:, None] + np.arange(needed))
    drawn = drawn.T.copy()
    columns = []
    for j in range(needed):
        there = drawn[j]
        columns.append(flat[there])  # card j once dealt: no later step moves it again
        flat[there] = rows[:, j]  # the card it replaces goes where it was
    return columns


_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)


def _positions(rng: np.random.Generator, n: int, needed: int, size: int) -> npt.NDArray[np.intp]:
    """`rng.integers(np.arange(needed), size, size=(n, needed))` flattened: the same numbers
    from the same stream, leaving the generator in the same state, about four times faster.

    numpy draws each of those bounded integers in turn (its loop over array bounds), by
    Lemire's method: the next 32-bit output u of the generator (PCG64 gives the low then the
    high half of each 64-bit output) times the range s = size - low; the high 32 bits of the
    product are the number, unless its low 32 bits fall below 2**32 mod s (about one draw in
    10**8 for a deck), when u is dropped and the next one taken. Here every product is taken at
    once from the raw 64-bit outputs, and a dropped u shifts the draws after it.
    """
    bits = rng.bit_generator
    count = n * needed
    # Each step's range (size - step) and Lemire's threshold for it (2**32 mod range), the
    # same in every row: broadcast over the rows rather than kept as arrays of every draw (an
    # lru_cache of those, 32 of up to 384 KB, held 10 MB of a worker after 10,000 hands).
    ranges = np.arange(size, size - needed, -1, dtype=np.uint64)
    thresholds = np.uint64(1 << 32) % ranges
    state = bits.state
    held = np.array([state["uinteger"]] if state["has_uint32"] else [], np.uint32)
    stream = bits.random_raw((count - len(held) + 1) // 2).view(np.uint32)
    if len(held):
        stream = np.concatenate([held, stream])
    product = (stream[:count].reshape(n, needed) * ranges).reshape(count)
    taken = count  # outputs of the stream used
    dropped = np.flatnonzero((product & _LOW32).reshape(n, needed) < thresholds)
    while len(dropped):
        first = dropped[0]
        taken += 1
        if taken > len(stream):
            stream = np.concatenate([stream, bits.random_raw(1).view(np.uint32)])
        shift = taken - count
        step = np.arange(first, count) % needed
        product[first:] = stream[first + shift : taken] * ranges[step]
        dropped = first + np.flatnonzero((product[first:] & _LOW32) < thresholds[step])
    if len(held) or taken < len(stream):  # the generator's held half-output, as numpy leaves it
        bits.state = {**bits.state, "has_uint32": int(taken < len(stream)),
                      "uinteger": int(stream[-1])}
    return (product >> _SHIFT32).astype(np.intp)


def _values(spot: Situation, dealt: list[Column], n: int) -> list[npt.NDArray[np.int32]]:
    """Each hand's low value in each deal (its cards to come, then the community card)."""
    shared = dealt[-1:] if spot.community_to_come else []
    values = []
    start = 0
    for known, k in zip(spot.known, spot.to_come, strict=True):
        drawn = dealt[start : start + k] + shared
        start += k
        size = len(drawn)
        if size == 0:
            values.append(np.full(n, low7([known])[0]))
        elif size <= CACHED_TO_COME:
            # The hand's value of each multiset to come, read without sorting the deal: the
            # drawn ranks as a base-13 number index a table of their multisets.
            number = drawn[0].astype(np.intp)
            for column in drawn[1:]:
                number = number * RANKS + column
            values.append(completion_values(known, size)[ordered_index(size)[number]])
        else:
            own = np.broadcast_to(np.asarray(known, np.int8), (n, len(known)))
            values.append(low7(np.hstack([own, np.column_stack(drawn)])))
    return values


def _sums(
    values: list[npt.NDArray[np.int32]],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Over the deals, each hand's summed share of the pot (the best lows split it) and summed
    square of that share.

    The sums are those of a matrix of shares (a row per deal) summed down its columns, which
    numpy does one row after the other: each hand's are running sums (`cumsum`) in the same
    order, so the figures are the same to the last bit. Heads-up every share is 0, 1/2 or 1
    and the sums are exact: they are counted.
    """
    n = len(values[0])
    if len(values) == 2:
        first, second = values
        wins = np.count_nonzero(first < second)
        ties = np.count_nonzero(first == second)
        losses = n - wins - ties
        return (np.array([wins + ties / 2, losses + ties / 2]),
                np.array([wins + ties / 4, losses + ties / 4]))
    best = values[0]
    for v in values[1:]:
        best = np.minimum(best, v)
    holds = [v == best for v in values]
    holders = np.zeros(n, np.int64)
    for h in holds:
        holders += h
    total, squares = np.empty(len(values)), np.empty(len(values))
    for i, h in enumerate(holds):
        share = h / holders
        total[i] = np.cumsum(share)[-1]
        squares[i] = np.cumsum(np.square(share))[-1]
    return total, squares
