"""Cards as the logs write them (`"Ah"`, `"Td"`), with their Razz rank and suit precomputed.

In Razz the ace is the lowest card and the king the highest. Suits matter only to choose the
bring-in: spades are highest, then hearts, diamonds, clubs.

>>> RANK["Ah"], RANK["Td"], RANK["Kc"]
(1, 10, 13)
>>> door_key("Qh") > door_key("Qd")
True
"""

from __future__ import annotations

from collections.abc import Iterable

RANK_CHARS = "A23456789TJQK"  # index + 1 is the Razz rank: the ace is 1, the king 13
SUIT_CHARS = "cdhs"  # index is the suit's order for the bring-in: clubs lowest, spades highest

DECK: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
RANK: dict[str, int] = {card: RANK_CHARS.index(card[0]) + 1 for card in DECK}
SUIT: dict[str, int] = {card: SUIT_CHARS.index(card[1]) for card in DECK}
# One bit per card, to know in one operation whether a card was already seen.
BIT: dict[str, int] = {card: 1 << k for k, card in enumerate(DECK)}
# The bring-in order as one number: rank first, then suit (the higher, the sooner it brings in).
_DOOR: dict[str, int] = {card: RANK[card] * 4 + SUIT[card] for card in DECK}


def is_card(token: str) -> bool:
    """Whether the token names one of the 52 cards.

    >>> is_card("7c"), is_card("of"), is_card("1h")
    (True, False, False)
    """
    return token in RANK


def rank_char(rank: int) -> str:
    """The character PokerStars prints for a rank (1 → `A`, 10 → `T`)."""
    return RANK_CHARS[rank - 1]


def door_key(card: str) -> int:
    """Order of door cards for the bring-in: the highest key must bring in.

    >>> sorted(["Ks", "Ac", "Kh", "2d"], key=door_key)
    ['Ac', '2d', 'Kh', 'Ks']
    """
    return _DOOR[card]


def ranks(cards: Iterable[str]) -> list[int]:
    """The Razz ranks of the known cards among `cards` (unknown tokens are left out)."""
    return [RANK[c] for c in cards if c in RANK]
