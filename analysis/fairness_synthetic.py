"""Random Razz deals counted straight into the report's `Tallies`: the report's validation bench.

Playing hands with the rules engine and loading them into DuckDB costs milliseconds a hand;
checking that the report alarms at no more than its nominal rate takes hundreds of reports.
This module deals shuffled decks with NumPy, lets players stay or fold by a crude rule that
favours low cards (so that later streets and showdowns are *selected*, as in a real room),
and counts what the logs of those hands would show, the way `fairness_queries.collect` counts
a store. `door_boost` deals with the same bias as `razz simulate --biased-deck`: each low card
(A–5) that much more likely than any other card to be a door card.

>>> import numpy as np
>>> t = synthetic_tallies(200, np.random.default_rng(1))
>>> t.hands, sum(map(sum, t.door_by_seat.values())) == sum(t.ranks[0])
(200, True)
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from razz.analysis.fairness_queries import Tallies

LOW = 5  # ranks A–5: the cards a biased deck favours as door cards
SLOTS = 8


def door_swap_chance(boost: float) -> float:
    """The chance of swapping a door card for a card of the other class that gives each low
    card (A–5) `1 + boost` times the chance of any other card to be a door card.

    Fair, a door card is low with chance 5/13; biased, with 5(1 + b) / (13 + 5b). A high door
    card becomes a low one with chance q (b > 0), or a low one a high one (b < 0).

    >>> round(door_swap_chance(0.10), 5), door_swap_chance(0.0)
    (0.03704, 0.0)
    """
    if boost <= -1:
        raise ValueError(f"the boost must be more than -100%, not {boost:.0%}")
    fair = LOW / 13
    biased = LOW * (1 + boost) / (13 + LOW * boost)
    if boost >= 0:
        return (biased - fair) / (1 - fair)
    return 1 - biased / fair


def synthetic_tallies(hands: int, rng: np.random.Generator, door_boost: float = 0.0) -> Tallies:
    """Deal `hands` hands of 2 to 8 players (one of them the hero) and count what logs show."""
    players = rng.integers(2, SLOTS + 1, hands)
    present = np.arange(SLOTS)[None, :] < players[:, None]  # slots 0 … k-1 are dealt in
    seats = np.argsort(rng.random((hands, SLOTS)), axis=1) + 1  # a random seat per slot
    seats = np.where(present, seats, 0)
    deck = np.argsort(rng.random((hands, 52)), axis=1)  # card = 4 * rank + suit, ace = 0
    if door_boost:
        _bias_doors(deck, present, rng, door_boost)
    hole = np.stack([deck[:, 0:24:3], deck[:, 1:24:3]], axis=2)  # [hand, slot, 2]
    door = deck[:, 2:24:3]
    up = np.stack([deck[:, 24 + 8 * s: 32 + 8 * s] for s in range(3)], axis=2)  # 4th–6th
    river = np.concatenate([deck[:, 48:52], np.full((hands, 4), -1)], axis=1)  # slots ≥ 4: none
    hero = rng.integers(0, players)
    is_hero = np.arange(SLOTS)[None, :] == hero[:, None]

    # Who stays: low cards keep a player in (the selection a real room has), others fold
    # sometimes; the hero plays by the same rule. Suits never matter, as in Razz.
    stay = present & ((door // 4 <= 6) | (rng.random((hands, SLOTS)) < 0.25))
    dealt = [stay]  # players dealt 4th street
    for street in range(3):
        keep = (up[:, :, street] // 4 <= 7) | (rng.random((hands, SLOTS)) < 0.3)
        stay = stay & keep & (dealt[-1].sum(axis=1) >= 2)[:, None]
        dealt.append(stay)  # dealt 5th, 6th, river
    at_river = dealt[3]
    showdown = at_river & (at_river.sum(axis=1) >= 2)[:, None]

    ranks = [[0] * 13 for _ in range(6)]
    suits = [[0] * 4 for _ in range(6)]

    def count(kind: int, cards: np.ndarray) -> None:
        cards = cards[cards >= 0]
        for r, n in zip(*np.unique(cards // 4, return_counts=True), strict=True):
            ranks[kind][int(r)] += int(n)
        for s, n in zip(*np.unique(cards % 4, return_counts=True), strict=True):
            suits[kind][int(s)] += int(n)

    shown = is_hero | showdown
    count(0, door[present])
    count(1, hole[shown])
    for street in range(3):
        count(2 + street, up[:, :, street][dealt[street]])
    count(5, river[(is_hero & at_river) | showdown])

    door_by_seat: dict[int, list[int]] = {}
    for seat, rank in zip(seats[present], door[present] // 4, strict=True):
        door_by_seat.setdefault(int(seat), [0] * 13)[int(rank)] += 1

    deals: Counter[tuple[int, int, int, int | None]] = Counter()
    bits = np.where(present, 1 << (seats - 1), 0)
    hero_seat = seats[np.arange(hands), hero]
    _count_deals(deals, 3, bits.sum(axis=1), seats, np.where(present, door, -1).argmax(axis=1),
                 hero_seat, np.ones(hands, dtype=bool))
    for street in range(3):
        mask = dealt[street]
        value = np.where(mask, up[:, :, street], 99)
        _count_deals(deals, 4 + street, np.where(mask, bits, 0).sum(axis=1), seats,
                     value.argmin(axis=1), np.where(mask[np.arange(hands), hero], hero_seat, 0),
                     mask.sum(axis=1) >= 2)

    door_squares = _same_rank_squares(np.where(present, door // 4, -1))
    later = np.concatenate([
        np.where(shown[:, :, None], hole // 4, -1).reshape(hands, -1),
        np.where(np.stack(dealt[:3], axis=2), up // 4, -1).reshape(hands, -1),
        np.where((is_hero & at_river) | showdown, np.where(river >= 0, river // 4, -1), -1),
    ], axis=1)
    later_squares = _same_rank_squares(later)

    index = np.arange(hands)
    trio = np.stack([hole[index, hero, 0] // 4, hole[index, hero, 1] // 4,
                     door[index, hero] // 4], axis=1) + 1
    starts: Counter[tuple[int, int, int]] = Counter(
        (int(a), int(b), int(c)) for a, b, c in trio)
    good = (np.sort(trio, axis=1)[:, [0, 1]] != np.sort(trio, axis=1)[:, [1, 2]]).all(axis=1)
    good &= trio.max(axis=1) <= 8
    runs = 1 + int(np.count_nonzero(good[1:] != good[:-1])) if hands else 0
    return Tallies(
        hands=hands, first_day=None, last_day=None, door_by_seat=door_by_seat,
        deals=[(street, mask, chosen, hero_, n) for (street, mask, chosen, hero_), n
               in deals.items()],
        ranks=ranks, suits=suits, door_same_rank=door_squares, later_same_rank=later_squares,
        hero_starts=dict(starts), hero_sequence=(hands, int(good.sum()), runs),
        duplicate_hands=0, duplicates=(), bring_in_findings=0, sites=("synthetic",),
    )


def _count_deals(deals: Counter[tuple[int, int, int, int | None]], street: int,
                 masks: np.ndarray, seats: np.ndarray, chosen_slot: np.ndarray,
                 hero_seat: np.ndarray, keep: np.ndarray) -> None:
    chosen = seats[np.arange(len(masks)), chosen_slot]
    for mask, seat, hero in zip(masks[keep], chosen[keep], hero_seat[keep], strict=True):
        deals[street, int(mask), int(seat), int(hero) or None] += 1


def _same_rank_squares(ranks: np.ndarray) -> int:
    """Σ c² over every (hand, rank), c the cards of that rank in the hand (-1: no card)."""
    counts = np.zeros((len(ranks), 13), dtype=np.int64)
    rows = np.repeat(np.arange(len(ranks)), ranks.shape[1])
    flat = ranks.ravel()
    np.add.at(counts, (rows[flat >= 0], flat[flat >= 0]), 1)
    return int((counts * counts).sum())


def _bias_doors(deck: np.ndarray, present: np.ndarray, rng: np.random.Generator,
                boost: float) -> None:
    """Swap door cards with cards still in the deck, slot by slot in the order they are dealt,
    as the biased simulator does (`razz.analysis.fairness_bias`)."""
    q = door_swap_chance(boost)
    want_low = boost > 0
    for slot in range(SLOTS):
        position = 3 * slot + 2
        door = deck[:, position]
        is_low = door // 4 < LOW
        swap = present[:, slot] & (is_low != want_low) & (rng.random(len(deck)) < q)
        # Candidates: cards not dealt yet (after this door card in the deck) of the other class.
        later = np.arange(52)[None, :] > position
        wanted = (deck // 4 < LOW) == want_low
        keys = np.where(later & wanted, rng.random(deck.shape), -1.0)
        target = keys.argmax(axis=1)
        swap &= keys[np.arange(len(deck)), target] >= 0
        rows = np.nonzero(swap)[0]
        cols = target[rows]
        deck[rows, position], deck[rows, cols] = deck[rows, cols], deck[rows, position].copy()


def alarm_rates(runs: int, hands: int, boost: float = 0.0, alpha: float = 0.01,
                seed: int = 0) -> tuple[float, float]:
    """Over `runs` synthetic rooms of `hands` hands: the share with any alarm, and the share
    whose "door cards by rank" test alarms (the README's figures come from here)."""
    from razz.analysis.fairness import report_from_tallies

    rng = np.random.default_rng(seed)
    any_alarm = door = 0
    for _ in range(runs):
        report = report_from_tallies(synthetic_tallies(hands, rng, boost), alpha=alpha)
        any_alarm += report.alarms > 0
        door += next(t for t in report.tests if t.id == "door-rank").alarm
    return any_alarm / runs, door / runs


if __name__ == "__main__":  # python -m razz.analysis.fairness_synthetic RUNS HANDS BOOST ALPHA
    import sys

    runs_, hands_, boost_, alpha_ = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                                     float(sys.argv[4]))
    rates = alarm_rates(runs_, hands_, boost_, alpha_)
    print(f"{runs_} runs of {hands_:,} hands, boost {boost_:+.0%}, alpha {alpha_:g}: "
          f"any alarm {rates[0]:.1%}, door cards by rank {rates[1]:.1%}")
