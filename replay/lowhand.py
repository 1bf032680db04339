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

from collections.abc import Callable, Collection, Iterable, Sequence
from enum import IntEnum, StrEnum
from itertools import combinations
from typing import Any

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


# Values by rank multiset: there are few of them (50,388 of seven ranks, 1,819 of one to
# four), so each is computed once and replays only look them up. A worker keeps them for its
# life (an import's worker meets some 27,000 multisets in 100,000 hands, and a bound loses
# too many hits: cleared at 8,192, ~2.8 times as many misses), so a multiset is one int, not
# a tuple of its ranks: each rank's count in four bits (rank r in bits 4(r-1) to 4r-1), the
# sum of its cards' weights (`_WEIGHT`). An int of at most 52 bits takes 32 bytes where a
# tuple of seven ranks takes 96, and is made without sorting the cards (only a miss sorts
# them). Up to `_MAX_CARDS` cards, no count reaches 16 and carries into the next rank; more
# are not cached.
_WEIGHT: dict[str, int] = {card: 1 << 4 * (rank - 1) for card, rank in RANK.items()}
_MAX_CARDS = 15
_LOW: dict[int, int] = {}
_BOARD: dict[int, int] = {}


def _multiset(cards: Collection[str]) -> int | None:
    """The multiset key of the ranks of the cards read (the others left out); None when there
    are too many cards for one."""
    if len(cards) > _MAX_CARDS:
        return None
    try:
        return sum(map(_WEIGHT.__getitem__, cards))
    except KeyError:  # an unseen or unreadable card: leave it out
        return sum([_WEIGHT[c] for c in cards if c in _WEIGHT])


def _sorted_ranks(cards: Collection[str]) -> tuple[int, ...]:
    try:
        return tuple(sorted(map(RANK.__getitem__, cards)))
    except KeyError:  # an unseen or unreadable card: leave it out
        return tuple(sorted([RANK[c] for c in cards if c in RANK]))


def low_value(cards: Collection[str]) -> int:
    """The value of the best low made by five of the cards (all of them if fewer than five).

    Unknown tokens are ignored. Lower is better.

    >>> low_value(["9d", "4c", "3h", "As", "Ah"]) < low_value(["9d", "4c", "3h", "2s", "2h"])
    True
    """
    key = _multiset(cards)
    value = None if key is None else _LOW.get(key)
    if value is None:
        value = value_of_ranks(best_five(_sorted_ranks(cards)))
        if key is not None:
            _LOW[key] = value
    return value


def board_value(up_cards: Collection[str]) -> int:
    """The value of an exposed board of one to four cards, to choose who acts first.

    Pairs count against a board; lower is better.

    >>> board_value(["7h", "3c"]) < board_value(["2d", "2c"])
    True
    """
    key = _multiset(up_cards)
    value = None if key is None else _BOARD.get(key)
    if value is None:
        value = value_of_ranks(_sorted_ranks(up_cards))
        if key is not None:
            _BOARD[key] = value
    return value


def shape_of(value: int) -> Shape:
    """The shape encoded in a value."""
    return Shape(min(value // _SHAPE_UNIT, Shape.QUADS))


# By multiset key (as `_LOW`); one text for all the multisets whose best five are the same
# ranks (`_TEXT_OF_FIVE`: a few thousand texts for tens of thousands of multisets).
_LO_TEXT: dict[int, str] = {}
_TEXT_OF_FIVE: dict[tuple[int, ...], str] = {}


def lo_text(cards: Collection[str]) -> str:
    """The text PokerStars writes after `Lo:` for a shown hand: the best five, highest first.

    >>> lo_text(["6h", "8h", "3d", "Ad", "Ac", "Kh", "8c"])
    'K,8,6,3,A'
    """
    key = _multiset(cards)
    text = None if key is None else _LO_TEXT.get(key)
    if text is None:
        text = _new_lo_text(key, _sorted_ranks(cards))
    return text


def _new_lo_text(multiset: int | None, ranks: Sequence[int]) -> str:
    """`lo_text` of these ranks, kept by their multiset key (None: not kept)."""
    five = best_five(ranks)
    text = _TEXT_OF_FIVE.get(five)
    if text is None:
        text = _TEXT_OF_FIVE[five] = ",".join(rank_char(r) for r in five)
    if multiset is not None:
        _LO_TEXT[multiset] = text
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
        text = lo_text(cards)
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


# -- why a pot went to the wrong hand -----------------------------------------------------------


class Misreading(StrEnum):
    """A wrong way to rank Razz hands that pays a pot to a hand that does not win it.

    Each names the rule of RAZZ_RULES.md it breaks (`rule`): a finding blames the misreading
    that explains the payment, not merely the comparison that failed.
    """

    ACES_HIGH = "aces ranked high"  # HAND-LOW
    STRAIGHTS_COUNT = "straights and flushes counted against a low"  # HAND-LOW
    PAIRS_IGNORED = "pairs not counted"  # HAND-PAIRS
    QUALIFIER = "an eight-or-better qualifier, the pot to the best high hand"  # WIN-NOQUAL
    COMPARISON = "lows not compared from the highest card down"  # HAND-COMPARE

    def message(self, winner: str, winner_low: str, paid: str, paid_low: str) -> str:
        """Why `winner`'s low (`Lo: …`) takes the pot that `paid` collects.

        >>> Misreading.PAIRS_IGNORED.message("ann", "Lo: 9,7,6,4,2", "bob", "Lo: K,4,3,2,A")
        "ann's Lo: 9,7,6,4,2 beats bob's Lo: K,4,3,2,A: a pair counts against a low, so any unpaired low beats A-A-… and the like."
        """
        beats = f"{winner}'s {winner_low} beats {paid}'s {paid_low}"
        return {
            Misreading.ACES_HIGH: f"Aces are low, so {beats}.",
            Misreading.STRAIGHTS_COUNT: f"Straights and flushes do not count in Razz, so {beats}.",
            Misreading.PAIRS_IGNORED: f"{beats}: a pair counts against a low, so any unpaired"
            " low beats A-A-… and the like.",
            Misreading.QUALIFIER: f"Razz has no qualifier: the best low wins even without an"
            f" eight-low, so {beats}; the best high hand wins nothing.",
            Misreading.COMPARISON: f"Lows compare from the highest card down: {beats}.",
        }[self]

    @property
    def rule(self) -> str:
        return {
            Misreading.ACES_HIGH: "HAND-LOW",
            Misreading.STRAIGHTS_COUNT: "HAND-LOW",
            Misreading.PAIRS_IGNORED: "HAND-PAIRS",
            Misreading.QUALIFIER: "WIN-NOQUAL",
            Misreading.COMPARISON: "HAND-COMPARE",
        }[self]


def _straight_or_flush(five: Sequence[str]) -> bool:
    ranks = sorted(RANK[c] for c in five)
    if len({c[1] for c in five}) == 1:
        return True
    return len(set(ranks)) == _SLOTS and (
        ranks[-1] - ranks[0] == _SLOTS - 1 or ranks == [1, 10, 11, 12, 13]
    )


def value_straights_count(cards: Sequence[str]) -> tuple[float, int]:
    """The low as a room that counts straights and flushes against it would rank it
    (a misreading of HAND-LOW; an unpaired straight or flush ranks between trips and a full
    house, as in deuce-to-seven). Lower is better."""
    best: tuple[float, int] = (float(Shape.QUADS + 1), 0)
    known = [c for c in cards if c in RANK]
    for five in combinations(known, min(_SLOTS, len(known))):
        value = value_of_ranks([RANK[c] for c in five])
        shape: float = shape_of(value)
        if shape == Shape.NO_PAIR and len(five) == _SLOTS and _straight_or_flush(five):
            shape = Shape.TRIPS + 0.5
        best = min(best, (shape, value))
    return best


def value_pairs_ignored(cards: Iterable[str]) -> tuple[int, ...]:
    """The low as a room that ignores pairs would rank it: its five lowest cards, pairs
    included, compared from the highest down (a misreading of HAND-PAIRS). Lower is better.

    >>> value_pairs_ignored(["Ah", "Ad", "2c", "3s", "4h", "Kd", "Qc"])
    (4, 3, 2, 1, 1)
    """
    return tuple(sorted(sorted(RANK[c] for c in cards if c in RANK)[:_SLOTS], reverse=True))


def value_high(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """The best high poker hand of the cards, aces high (bigger is better), as a room applying
    a high-low qualifier would rank it.

    >>> value_high(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])
    (8, (14,))
    >>> value_high(["2c", "2d", "2h", "5s", "5c", "9d", "Kh"])
    (6, (2, 5))
    """
    best: tuple[int, tuple[int, ...]] = (-1, ())
    known = [c for c in cards if c in RANK]
    for five in combinations(known, min(_SLOTS, len(known))):
        values = sorted((14 if RANK[c] == 1 else RANK[c] for c in five), reverse=True)
        groups = sorted(((values.count(v), v) for v in set(values)), reverse=True)
        shape = [n for n, _ in groups]
        order = tuple(v for _, v in groups)
        flush = len(five) == _SLOTS and len({c[1] for c in five}) == 1
        top = 0
        if len(set(values)) == _SLOTS == len(values):
            if values[0] - values[-1] == _SLOTS - 1:
                top = values[0]
            elif values == [14, 5, 4, 3, 2]:
                top = 5
        key: tuple[int, tuple[int, ...]]
        if top and flush:
            key = (8, (top,))
        elif shape[0] == 4:
            key = (7, order)
        elif shape[:2] == [3, 2]:
            key = (6, order)
        elif flush:
            key = (5, tuple(values))
        elif top:
            key = (4, (top,))
        elif shape[0] == 3:
            key = (3, order)
        elif shape[:2] == [2, 2]:
            key = (2, order)
        elif shape[0] == 2:
            key = (1, order)
        else:
            key = (0, tuple(values))
        best = max(best, key)
    return best


def _eight_or_better(cards: Sequence[str]) -> bool:
    ranks = [RANK[c] for c in cards if c in RANK]
    return len(set(ranks)) >= _SLOTS and sorted(set(ranks))[_SLOTS - 1] <= 8


def value_lowest_first(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """The best low compared from its lowest card up (a misreading of HAND-COMPARE)."""
    value = low_value(cards)
    return shape_of(value), tuple(sorted(best_five([RANK[c] for c in cards if c in RANK])))


def value_sum(cards: Sequence[str]) -> tuple[int, int]:
    """The best low compared by the sum of its ranks (a misreading of HAND-COMPARE)."""
    value = low_value(cards)
    return shape_of(value), sum(best_five([RANK[c] for c in cards if c in RANK]))


def _first_by(
    key: Callable[[Sequence[str]], Any], paid: Sequence[str], hands: list[Sequence[str]]
) -> bool:
    """Whether `paid` ranks first (alone or tied) among the hands by this ranking."""
    mine = key(paid)
    return all(mine <= key(h) for h in hands)


def misreading(
    paid: Sequence[str], winner: Sequence[str], contenders: Sequence[Sequence[str]] = ()
) -> Misreading:
    """Which misreading of the rules pays the pot to the paid hand and not to the winner.

    `paid` and `winner` are seven-card hands with `low_value(paid) > low_value(winner)`;
    `contenders` are the other hands that play for the pot. A reading explains the payment
    when, read that way, the paid hand ranks first among all of them. Readings are tried from
    the most specific: aces high, straights and flushes counted, a high-low qualifier (no
    eight-or-better low among them and the paid hand the best high hand), pairs ignored, and
    lows compared from the lowest card or by their sum; otherwise a paired hand paid over an
    unpaired one is HAND-PAIRS, and anything else a wrong comparison of two lows.

    >>> misreading(["Ah", "Ad", "2c", "3s", "4h", "Kd", "Qc"], ["9h", "7d", "6c", "4s", "2h", "Kc", "Ks"])
    <Misreading.PAIRS_IGNORED: 'pairs not counted'>
    >>> misreading(["9h", "4d", "3c", "2s", "Ah", "Kc", "Ks"], ["8h", "7d", "6c", "4s", "3h", "Qc", "Qs"])
    <Misreading.COMPARISON: 'lows not compared from the highest card down'>
    >>> misreading(["Kh", "Kd", "Qc", "Qs", "9h", "9c", "2d"], ["Th", "9d", "6c", "4s", "3h", "Jc", "Js"])
    <Misreading.QUALIFIER: 'an eight-or-better qualifier, the pot to the best high hand'>
    """
    hands = [winner, *(c for c in contenders if list(c) != list(paid))]
    if _first_by(value_aces_high, paid, hands):
        return Misreading.ACES_HIGH
    if _first_by(value_straights_count, paid, hands):
        return Misreading.STRAIGHTS_COUNT
    if _first_by(value_pairs_ignored, paid, hands):
        return Misreading.PAIRS_IGNORED
    if _first_by(value_lowest_first, paid, hands) or _first_by(value_sum, paid, hands):
        return Misreading.COMPARISON
    if not any(_eight_or_better(c) for c in hands) and all(
        value_high(paid) > value_high(h) for h in hands
    ):
        return Misreading.QUALIFIER
    if shape_of(low_value(paid)) > shape_of(low_value(winner)):
        return Misreading.PAIRS_IGNORED
    return Misreading.COMPARISON
