"""Monte Carlo's fast paths give the numbers of the plain computation, to the last bit.

`razz.analysis.montecarlo` draws its deals' positions from the generator's raw output
(Lemire's method, as numpy's `integers` does with array bounds) and sums the shares hand by
hand; the estimates stored for all-in EV must not move when the code gets faster. The plain
computation is written out here as it was: numpy's `integers`, a row per deal, a matrix of
shares summed down its columns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from razz.analysis.lowtable import low7
from razz.analysis.montecarlo import _positions, sample
from razz.analysis.situation import Situation, situation


def numpy_positions(rng: np.random.Generator, n: int, needed: int, size: int) -> Any:
    return rng.integers(np.arange(needed), size, size=(n, needed)) - np.arange(needed)


def held_state(rng: np.random.Generator) -> tuple[Any, int]:
    state = rng.bit_generator.state
    return state["state"], state["has_uint32"]


@pytest.mark.parametrize(("seed", "n", "needed", "size"), [
    (1, 2000, 8, 46), (2, 7, 3, 7), (3, 1, 1, 2), (4, 2001, 5, 25), (5, 333, 16, 40),
    (247, 50_000, 8, 46),  # a draw numpy drops (Lemire's rejection) and replaces
])
@pytest.mark.parametrize("half_held", [False, True])
def test_positions_are_numpys_draws_and_leave_the_generator_as_numpy_does(
    seed: int, n: int, needed: int, size: int, half_held: bool
) -> None:
    ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
    if half_held:  # a 32-bit draw before: half of a 64-bit output is held for the next
        ours.integers(0, 10), theirs.integers(0, 10)
    assert (_positions(ours, n, needed, size) == numpy_positions(theirs, n, needed, size)
            .reshape(-1)).all()
    assert held_state(ours) == held_state(theirs)
    assert ours.integers(0, 10**9, 5).tolist() == theirs.integers(0, 10**9, 5).tolist()


def test_the_seed_with_a_dropped_draw_drops_one() -> None:
    """Seed 247 above covers the rejection: numpy uses more 32-bit outputs than it draws."""
    rng, plain = np.random.default_rng(247), np.random.default_rng(247)
    numpy_positions(rng, 50_000, 8, 46)
    plain.bit_generator.random_raw(50_000 * 8 // 2)
    assert held_state(rng) != held_state(plain)


def plain_sample(spot: Situation, samples: int, seed: int, block: int) -> tuple[Any, ...]:
    """The estimate as a row per deal, a full matrix of shares and numpy's column sums."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(13, dtype=np.int8), spot.unseen)
    size, needed = len(deck), sum(spot.to_come) + spot.community_to_come
    total, squares = np.zeros(len(spot.known)), np.zeros(len(spot.known))
    done = 0
    while done < samples:
        n = min(block, samples - done)
        if 2 * needed > size:
            dealt = rng.permuted(np.broadcast_to(deck, (n, size)), axis=1)[:, :needed]
        else:
            flat = np.tile(deck, n)
            start = np.arange(0, n * size, size)
            drawn = (rng.integers(np.arange(needed), size, size=(n, needed)) + start[:, None]).T
            for j in range(needed):
                here, there = start + j, drawn[j]
                card = flat[there]
                flat[there] = flat[here]
                flat[here] = card
            dealt = flat.reshape(n, size)[:, :needed]
        shared = dealt[:, -1:] if spot.community_to_come else dealt[:, :0]
        values = np.empty((n, len(spot.known)), dtype=np.int64)
        at = 0
        for i, (known, k) in enumerate(zip(spot.known, spot.to_come, strict=True)):
            own = np.broadcast_to(np.asarray(known, np.int8), (n, len(known)))
            values[:, i] = low7(np.hstack([own, dealt[:, at : at + k], shared]))
            at += k
        best = values == values.min(axis=1, keepdims=True)
        shares = best / best.sum(axis=1, keepdims=True)
        total += shares.sum(axis=0)
        squares += np.square(shares).sum(axis=0)
        done += n
    mean = total / samples
    error = np.sqrt(np.maximum(squares - samples * mean**2, 0.0) / (samples - 1) / samples)
    return tuple(map(float, mean)), tuple(map(float, error))


SPOTS = [
    (["As 2s 3c", "Kd Qd 9d"], "7s"),  # heads-up on 3rd street
    (["As 2s 3s 4s 5s Ks", "Ad 2d 3d 4d 5d Kd", "Ah 2h 3h 4h 5h Kh"], ""),  # three-way ties
    (["As 2s 3s 4s", "Ad 2d 3d 4d", "Ah 2h 3h 4h", "Ac 2c 3c 4c"], "5s 5d"),
    (["?? ?? 3c 4c 5c 6c", "?? ?? 3d 4d 5d 6d", "?? ?? 3s 4s 5s 6s", "?? ?? 7s 7h 7d 7c"], ""),
    (["As 2d 3c", "4h 5s 6d", "7c 8h 9s", "Td Jc Qh", "Ks Ad 2c"], ""),  # the full shuffle
    (["?? ?? ?? ?? ?? ??"] * 8, ""),  # a community card to come
    (["?? ??", "?? ?? ??"], ""),  # five cards to come: values by low7
]


@pytest.mark.parametrize(("hands", "dead"), SPOTS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sample_is_the_plain_computation_to_the_last_bit(
    hands: list[str], dead: str, seed: int
) -> None:
    spot = situation(hands, dead)
    for samples in (2, 2000, 2001):
        estimate = sample(spot, samples, seed)
        assert repr((estimate.equity, estimate.std_error)) == repr(
            plain_sample(spot, samples, seed, block=50_000))


def test_blocks_continue_the_same_stream() -> None:
    from razz.analysis import montecarlo

    spot = situation(["As 2s 3c", "Kd Qd 9d", "?? ?? 8h"])
    estimate = sample(spot, 120_001, 9)
    assert repr((estimate.equity, estimate.std_error)) == repr(
        plain_sample(spot, 120_001, 9, block=montecarlo.BLOCK))
