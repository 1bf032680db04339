"""Cards and ace-to-five lows, written from RAZZ_RULES.md alone (HAND-*, BRINGIN-*, ORDER-LATER).

A card is a two-character string (`"Ah"`, `"Td"`). Aces are low everywhere in Razz: the
rank value of an ace is 1 and of a king 13.

>>> low_text(("2h", "8d", "Kh", "6h", "3d", "6d", "4h"))
'8,6,4,3,2'
>>> low_key(("6h", "8h", "3d", "Ad", "Ac", "Kh", "8c")) > low_key(("2d", "4s", "9d", "7c", "Ts", "5s", "Tc"))
True
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "cdhs"  # clubs lowest, spades highest (BRINGIN-SUIT)
DECK = tuple(r + s for r in RANKS for s in SUITS)
Key = tuple[int, tuple[int, ...]]


def rank(card: str) -> int:
    """1 for an ace … 13 for a king."""
    return RANKS.index(card[0]) + 1


def suit(card: str) -> int:
    """0 for clubs … 3 for spades."""
    return SUITS.index(card[1])


def door_strength(card: str) -> tuple[int, int]:
    """How bad a door card is: the highest value brings in (K high, A low, then suit s>h>d>c)."""
    return rank(card), suit(card)


def _category(counts: list[int]) -> int:
    """0 unpaired, 1 one pair, 2 two pair, 3 trips, 4 full house, 5 quads (HAND-PAIRS)."""
    if counts[0] == 4:
        return 5
    if counts[0] == 3:
        return 4 if len(counts) > 1 and counts[1] >= 2 else 3
    if counts[0] == 2:
        return 2 if len(counts) > 1 and counts[1] == 2 else 1
    return 0


def group_key(cards: tuple[str, ...] | list[str]) -> Key:
    """The low ranking of a group of cards (a 5-card hand, or an exposed board of 1 to 4 cards).

    Lower is better: the pattern of pairs first, then the ranks by count and from the top down
    (HAND-PAIRS, HAND-COMPARE; ORDER-LATER compares boards the same way).

    >>> group_key(("9h", "4c", "3d", "Ah", "As")) < group_key(("9d", "4s", "3c", "2h", "2s"))
    True
    """
    return values_key([rank(c) for c in cards])


def values_key(values: list[int]) -> Key:
    """`group_key` of rank values (a test may rank the ace 14 to model a faulty room)."""
    counts = Counter(values)
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    category = _category([n for _, n in ordered])
    return category, tuple(r for r, n in ordered for _ in range(n))


def best_five(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The best five-card low among the cards (HAND-LOW: aces low, straights and flushes ignored)."""
    if len(cards) <= 5:
        return tuple(cards)
    return min(combinations(cards, 5), key=group_key)


@lru_cache(maxsize=65536)
def _low_of_ranks(ranks: tuple[int, ...]) -> Key:
    distinct = sorted(set(ranks))
    if len(distinct) >= 5:  # five different ranks make the best low: the lowest five of them
        return 0, tuple(sorted(distinct[:5], reverse=True))
    fake = tuple(RANKS[r - 1] + "c" for r in ranks)  # suits play no part in a low
    return group_key(best_five(fake))


def low_key(cards: tuple[str, ...] | list[str]) -> Key:
    """The ranking of the best low the cards make; lower is better."""
    return _low_of_ranks(tuple(sorted(rank(c) for c in cards)))


def distinct_ranks(cards: tuple[str, ...] | list[str]) -> int:
    return len({rank(c) for c in cards})


def low_text(cards: tuple[str, ...] | list[str]) -> str:
    """The low as PokerStars names it in `(Lo: …)`: five ranks, highest first, ace as A."""
    ordered = sorted(low_key(cards)[1], reverse=True)
    return ",".join(RANKS[r - 1] for r in ordered)


def board_key(board: tuple[str, ...] | list[str]) -> Key:
    """The ranking of a player's exposed cards for who acts first (ORDER-LATER)."""
    return group_key(board)
