"""Ace-to-five low: the value of a Razz hand, of an exposed board, and PokerStars' `Lo:` text.

A value is an `int`; the lower the value, the better the low. It encodes the shape of the hand
first (no pair, one pair, two pair, trips, full house, quads: any unpaired hand beats any
paired one), then the ranks group by group, largest group first and higher rank first, so
that unpaired hands compare from their highest card down and paired hands compare the pair
first. Straights and flushes do not exist in this ranking and the ace is always low.

>>> low_value(["5d", "4c", "3h", "2s", "Ah"]) < low_value(["6d", "4c", "3h", "2s", "Ah"])
True
>>> lo_text(["2h", "8d", "Kh", "6h", "3d", "6d", "4h"])
'8,6,4,3,2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import combinations

from razz.replay.cards import RANK, RANK_CHARS, rank_char


class Shape(IntEnum):
    """The shape of a low, best first."""

    NO_PAIR = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    FULL_HOUSE = 4
    QUADS = 5


_SLOTS = 5  # rank slots in a value; each slot is a hex digit (ranks are 1 … 13)
_SHAPE_UNIT = 16**_SLOTS


def _shape(counts: Sequence[int]) -> Shape:
    """The shape from the group sizes, largest first."""
    top = counts[0]
    if top == 1:
        return Shape.NO_PAIR
    if top == 2:
        return Shape.TWO_PAIR if len(counts) > 1 and counts[1] == 2 else Shape.ONE_PAIR
    if top == 3:
        return Shape.FULL_HOUSE if len(counts) > 1 and counts[1] >= 2 else Shape.TRIPS
    return Shape.QUADS


def _groups(ranks: Iterable[int]) -> list[tuple[int, int]]:
    """(count, rank) groups in comparison order: largest group first, then higher rank."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


def value_of_ranks(ranks: Iterable[int]) -> int:
    """The value of exactly these ranks (1 to 5 of them), with no choice of cards.

    >>> value_of_ranks([8, 7, 6, 4, 3]) < value_of_ranks([9, 4, 3, 2, 1])
    True
    """
    groups = _groups(ranks)
    if not groups:
        return _SHAPE_UNIT * (Shape.QUADS + 1)  # no cards at all: worse than any hand
    value = _shape([n for n, _ in groups]) * _SHAPE_UNIT
    unit = _SHAPE_UNIT
    for _, r in groups[:_SLOTS]:
        unit //= 16
        value += r * unit
    return value


def best_five(ranks: Sequence[int]) -> tuple[int, ...]:
    """The ranks of the best five-card low among up to seven ranks, in PokerStars' print order.

    With fewer than five ranks, all of them in print order.

    >>> best_five([6, 8, 3, 1, 1, 13, 8])
    (13, 8, 6, 3, 1)
    >>> best_five([9, 9, 9, 2, 2, 5, 5])
    (5, 5, 2, 2, 9)
    """
    distinct = sorted(set(ranks))
    if len(distinct) >= _SLOTS:
        # Five different ranks make an unpaired hand, and the five lowest make the best one.
        return tuple(reversed(distinct[:_SLOTS]))
    if len(ranks) <= _SLOTS:
        chosen: Sequence[int] = ranks
    else:
        chosen = min(combinations(ranks, _SLOTS), key=value_of_ranks)
    return tuple(r for n, r in _groups(chosen) for _ in range(n))


# Values by sorted ranks: there are few rank multisets (50,388 of seven ranks, 1,819 of one
# to four), so each is computed once and replays only look them up.
_LOW: dict[tuple[int, ...], int] = {}
_BOARD: dict[tuple[int, ...], int] = {}


def low_value(cards: Iterable[str]) -> int:
    """The value of the best low made by five of the cards (all of them if fewer than five).

    Unknown tokens are ignored. Lower is better.

    >>> low_value(["9d", "4c", "3h", "As", "Ah"]) < low_value(["9d", "4c", "3h", "2s", "2h"])
    True
    """
    try:
        key = tuple(sorted(map(RANK.__getitem__, cards)))
    except KeyError:  # an unseen or unreadable card: leave it out
        key = tuple(sorted([RANK[c] for c in cards if c in RANK]))
    value = _LOW.get(key)
    if value is None:
        value = _LOW[key] = value_of_ranks(best_five(key))
    return value


def board_value(up_cards: Iterable[str]) -> int:
    """The value of an exposed board of one to four cards, to choose who acts first.

    Pairs count against a board; lower is better.

    >>> board_value(["7h", "3c"]) < board_value(["2d", "2c"])
    True
    """
    try:
        key = tuple(sorted(map(RANK.__getitem__, up_cards)))
    except KeyError:  # an unseen or unreadable card: leave it out
        key = tuple(sorted([RANK[c] for c in up_cards if c in RANK]))
    value = _BOARD.get(key)
    if value is None:
        value = _BOARD[key] = value_of_ranks(key)
    return value


def shape_of(value: int) -> Shape:
    """The shape encoded in a value."""
    return Shape(min(value // _SHAPE_UNIT, Shape.QUADS))


_LO_TEXT: dict[tuple[int, ...], str] = {}


def lo_text(cards: Iterable[str]) -> str:
    """The text PokerStars writes after `Lo:` for a shown hand: the best five, highest first.

    >>> lo_text(["6h", "8h", "3d", "Ad", "Ac", "Kh", "8c"])
    'K,8,6,3,A'
    """
    return _lo_text_of(tuple(sorted([RANK[c] for c in cards if c in RANK])))


def _lo_text_of(ranks: tuple[int, ...]) -> str:
    """`lo_text` of sorted ranks, computed once per rank multiset."""
    text = _LO_TEXT.get(ranks)
    if text is None:
        text = _LO_TEXT[ranks] = ",".join(rank_char(r) for r in best_five(ranks))
    return text


def parse_lo(description: str | None) -> tuple[int, ...] | None:
    """The ranks of a `Lo:` description as written (`(Lo: 8,6,4,3,2)` or `Lo: 8,6,4,3,2`).

    None when the description is not a Razz low (e.g. `two pair, Queens and Sevens`).

    >>> parse_lo("(Lo: 3,3,5,4)")
    (3, 3, 5, 4)
    >>> parse_lo("a pair of Tens") is None
    True
    """
    if description is None:
        return None
    text = description.strip().removeprefix("(").removesuffix(")").strip()
    if not text.startswith("Lo:"):
        return None
    tokens = [t.strip() for t in text[3:].split(",")]
    if not tokens or any(len(t) != 1 or t not in RANK_CHARS for t in tokens):
        return None
    return tuple(RANK_CHARS.index(t) + 1 for t in tokens)


def description_matches(description: str | None, cards: Sequence[str]) -> bool:
    """Whether a shown hand's `Lo:` description is the best low the shown cards make.

    Five or more cards: the best five, highest first; when the best low is paired, any order
    of the same ranks is accepted (PokerStars' order for those is not documented). Fewer than
    five cards (a voluntary show such as `[3d 3s 5h 4h] (Lo: 3,3,5,4)`): the ranks of the shown
    cards, in any order, as PokerStars writes them unsorted.

    >>> description_matches("Lo: 8,6,4,3,2", ["2h", "8d", "Kh", "6h", "3d", "6d", "4h"])
    True
    >>> description_matches("Lo: 3,3,5,4", ["3d", "3s", "5h", "4h"])
    True
    >>> description_matches("Lo: 8,6,4,3,A", ["2h", "8d", "Kh", "6h", "3d", "6d", "4h"])
    False
    """
    if description is None:
        return False
    known = [RANK[c] for c in cards if c in RANK]
    if len(known) >= _SLOTS:
        # The usual case: exactly the text PokerStars writes for the best five.
        text = _lo_text_of(tuple(sorted(known)))
        if description == "Lo: " + text or description == "(Lo: " + text + ")":
            return True
    written = parse_lo(description)
    if written is None:
        return False
    if len(known) < _SLOTS:
        return sorted(written) == sorted(known)
    best = best_five(known)
    if written == best:
        return True
    return len(set(best)) < _SLOTS and sorted(written) == sorted(best)


def value_aces_high(cards: Iterable[str]) -> int:
    """The value the cards would have if aces counted high (a misreading of HAND-LOW)."""
    return value_of_ranks(best_five([14 if RANK[c] == 1 else RANK[c] for c in cards if c in RANK]))


def is_straight(ranks: Sequence[int]) -> bool:
    """Whether five ranks run in sequence (`5-4-3-2-A` included), which Razz ignores.

    >>> is_straight((5, 4, 3, 2, 1)), is_straight((8, 6, 4, 3, 2))
    (True, False)
    """
    distinct = sorted(set(ranks))
    return len(distinct) == _SLOTS == len(ranks) and distinct[-1] - distinct[0] == _SLOTS - 1
