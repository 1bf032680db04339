"""The seven-rank lookup table of razz.analysis.lowtable: the same values as the evaluator of
razz.replay.lowhand on every rank multiset a deck can deal, and a dense, ordered index; the
cached values of a hand's completions and the sort-free index of ranks in any order."""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz.analysis.lowtable import (
    all_multisets,
    completion_values,
    low7,
    low7_table,
    multiset_index,
    ordered_index,
)
from razz.replay.cards import RANK_CHARS
from razz.replay.lowhand import low_value

SUITS = "cdhs"


def _cards(ranks: tuple[int, ...]) -> list[str]:
    """Cards with these rank indexes, the n-th card of a rank in the n-th suit."""
    seen: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(RANK_CHARS[r] + SUITS[seen.get(r, 0)])
        seen[r] = seen.get(r, 0) + 1
    return cards


def test_the_table_gives_low_value_for_every_seven_rank_multiset_a_deck_can_deal() -> None:
    dealable = [m for m in combinations_with_replacement(range(13), 7)
                if max(m.count(r) for r in set(m)) <= 4]
    assert len(dealable) == 49_205
    table = low7_table()
    index = multiset_index(np.array(dealable))
    mismatches = [
        m for m, i in zip(dealable, index.tolist(), strict=True)
        if table[i] != low_value(_cards(m))
    ]
    assert mismatches == []


def test_the_index_is_dense_and_follows_the_enumeration_order() -> None:
    for size in range(1, 8):
        rows = all_multisets(size)
        assert len(rows) == comb(13 + size - 1, size)
        assert multiset_index(rows).tolist() == list(range(len(rows)))
        assert sorted(map(tuple, rows.tolist())) == list(
            combinations_with_replacement(range(13), size)
        )


def test_low7_reads_hands_in_any_card_order() -> None:
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 7, replace=False) // 4 for _ in range(2000)])
    shuffled = rng.permuted(hands, axis=1)
    assert (low7(hands) == low7(shuffled)).all()
    expected = [low_value(_cards(tuple(sorted(h)))) for h in hands.tolist()]
    assert low7(hands).tolist() == expected


def test_the_rooms_examples_rank_as_the_rules_say() -> None:
    """HAND-COMPARE's examples, padded to seven cards with their first two ranks again, which
    leaves the same five as the best low."""

    def value(text: str) -> int:
        ranks = [RANK_CHARS.index(c) for c in text + text[:2]]
        return int(low7(np.array([ranks]))[0])

    assert value("87643") < value("9432A")  # 8 is lower than 9
    assert value("85432") < value("8632A")  # 5 < 6
    assert value("8543A") < value("85432")  # the ace is low
    assert value("5432A") < value("6432A")  # the wheel is the best hand
    assert value("943AA") < value("94322")  # pairs: the pair's rank first


@given(st.lists(st.integers(0, 12), min_size=0, max_size=7), st.integers(1, 7))
@settings(max_examples=60, deadline=None)
def test_completion_values_are_the_table_values_of_the_known_ranks_plus_each_multiset(
    known: list[int], to_come: int
) -> None:
    known = sorted(known)[: 7 - to_come]
    values = completion_values(tuple(known), to_come)
    rows = all_multisets(to_come)
    assert len(values) == len(rows)
    expected = low7(np.hstack([np.full((len(rows), len(known)), known, np.int8)
                               if known else np.zeros((len(rows), 0), np.int8), rows]))
    assert (values == expected).all()


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_ordered_index_gives_every_order_of_ranks_the_index_of_its_multiset(size: int) -> None:
    index = ordered_index(size)
    assert len(index) == 13**size
    digits = np.indices((13,) * size).reshape(size, -1).T
    assert (index == multiset_index(np.sort(digits, axis=1))).all()
    # every multiset of `size` ranks is reached
    assert set(index.tolist()) == set(range(len(all_multisets(size))))
