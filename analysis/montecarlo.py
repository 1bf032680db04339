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
        shares = _shares(spot, _deal(rng, deck, n, needed))
        total += shares.sum(axis=0)
        squares += np.square(shares).sum(axis=0)
        done += n
    mean = total / samples
    variance = np.maximum(squares - samples * mean**2, 0.0) / (samples - 1)
    error = np.sqrt(variance / samples)
    return Estimate(tuple(map(float, mean)), tuple(map(float, error)), samples)


def _deal(
    rng: np.random.Generator, deck: npt.NDArray[np.int8], n: int, needed: int
) -> npt.NDArray[np.int8]:
    """`n` deals of the first `needed` cards of a shuffled `deck`: rows of ranks.

    The first `needed` steps of a Fisher-Yates shuffle, all rows at once: step j swaps card j
    with a card drawn uniformly from j on, so the first `needed` cards are a uniformly random
    ordered draw without replacement; the rest of the deck is never shuffled, which a full
    shuffle of each row (heads-up on 3rd street, 8 cards of 46) would spend most of its time on.
    When more than half the deck is needed, each row is shuffled in full, which then costs less.
    """
    size = len(deck)
    if 2 * needed > size:  # most of the deck: one full shuffle per row costs less
        return rng.permuted(np.broadcast_to(deck, (n, size)), axis=1)[:, :needed]
    flat = np.tile(deck, n)  # row i is flat[i * size : (i + 1) * size]
    if needed == 0:
        return flat.reshape(n, size)[:, :0]
    start = np.arange(0, n * size, size)
    # Where step j swaps from, in every row at once (flat indexes, one row per step).
    drawn = (rng.integers(np.arange(needed), size, size=(n, needed)) + start[:, None]).T.copy()
    for j in range(needed):
        here, there = start + j, drawn[j]
        card = flat[there]
        flat[there] = flat[here]
        flat[here] = card
    return flat.reshape(n, size)[:, :needed]


def _shares(spot: Situation, dealt: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
    """Each hand's share of the pot in each deal (rows of dealt rank indexes)."""
    n = len(dealt)
    shared = dealt[:, -1:] if spot.community_to_come else dealt[:, :0]
    values = np.empty((n, len(spot.known)), dtype=np.int64)
    start = 0
    for i, (known, k) in enumerate(zip(spot.known, spot.to_come, strict=True)):
        drawn = np.hstack([dealt[:, start : start + k], shared])
        start += k
        size = drawn.shape[1]
        if size == 0:
            values[:, i] = low7([known])[0]
        elif size <= CACHED_TO_COME:
            # The hand's value of each multiset to come, read without sorting the deal: the
            # drawn ranks as a base-13 number index a table of their multisets.
            number = drawn[:, 0].astype(np.intp)
            for j in range(1, size):
                number = number * RANKS + drawn[:, j]
            values[:, i] = completion_values(known, size)[ordered_index(size)[number]]
        else:
            own = np.broadcast_to(np.asarray(known, np.int8), (n, len(known)))
            values[:, i] = low7(np.hstack([own, drawn]))
    best = values == values.min(axis=1, keepdims=True)
    return best / best.sum(axis=1, keepdims=True)
