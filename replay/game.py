"""The shape of Razz as data: its streets, the cards each deals, the bet sizes, who opens.

Everything that says how the game is dealt and bet is read from `RAZZ`, never written as a
literal elsewhere: the engine (how many cards a player holds after a street, which are up,
the size of a bet, who opens a round), the simulator (what to deal) and the results (the
street and visibility of each card). What rooms choose differently (the number of raises,
tie-breaks, the odd chip) is not the game's shape but a room's option: see `ruleset`.

A street deals each player still in the hand some cards, each face up or face down; its
bets and raises are one small or one big bet; its round is opened by the bring-in (3rd
street: the highest door card) or by the best exposed low (later streets). The cap is one
bet (or completion) plus the ruleset's number of raises; the bring-in is not a bet for it.

>>> [shape.street.value for shape in RAZZ.streets]
['3rd', '4th', '5th', '6th', '7th']
>>> RAZZ.shape(Street.THIRD).cards
(<Face.DOWN: 'down'>, <Face.DOWN: 'down'>, <Face.UP: 'up'>)
>>> CARDS_AFTER[Street.FIFTH], BET_SIZE[Street.FIFTH], OPENING[Street.THIRD]
(5, <BetSize.BIG: 'big'>, <Opening.BRING_IN: 'bring_in'>)
>>> POSITION_STREET[6], POSITION_FACE[6], UP_CARDS
(<Street.SEVENTH: '7th'>, <Face.DOWN: 'down'>, slice(2, 6, None))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from razz.parser.events import Street
from razz.replay.ruleset import Ruleset


class Face(StrEnum):
    """How a card is dealt: seen by its owner only, or by everyone."""

    DOWN = "down"
    UP = "up"


class BetSize(StrEnum):
    """The betting unit of a street: every bet and raise is exactly one of it."""

    SMALL = "small"
    BIG = "big"


class Opening(StrEnum):
    """Who opens a street's betting round (RAZZ_RULES.md BRINGIN-WHO, ORDER-LATER)."""

    BRING_IN = "bring_in"  # the highest door card (suits break ties) posts the bring-in
    BEST_BOARD = "best_board"  # the best (lowest) exposed low acts first


@dataclass(frozen=True, slots=True)
class StreetShape:
    """One street: the cards it deals each player, its bet size and who opens its round."""

    street: Street
    cards: tuple[Face, ...]  # in position order
    bet: BetSize
    opening: Opening


@dataclass(frozen=True, slots=True)
class Game:
    """A stud game as a table of streets."""

    name: str
    streets: tuple[StreetShape, ...]
    deck_size: int = 52
    max_players: int = 8  # 8 x 7 cards is more than the deck: see DEAL-COMMUNITY

    def shape(self, street: Street) -> StreetShape:
        """The shape of one street."""
        for shape in self.streets:
            if shape.street is street:
                return shape
        raise KeyError(street)

    @property
    def faces(self) -> tuple[Face, ...]:
        """The face of each card position, in deal order (position 1 first)."""
        return tuple(face for shape in self.streets for face in shape.cards)


RAZZ = Game(
    name="Razz",
    streets=(
        StreetShape(Street.THIRD, (Face.DOWN, Face.DOWN, Face.UP), BetSize.SMALL, Opening.BRING_IN),
        StreetShape(Street.FOURTH, (Face.UP,), BetSize.SMALL, Opening.BEST_BOARD),
        StreetShape(Street.FIFTH, (Face.UP,), BetSize.BIG, Opening.BEST_BOARD),
        StreetShape(Street.SIXTH, (Face.UP,), BetSize.BIG, Opening.BEST_BOARD),
        # The river is dealt face down: 7th street keeps the order of 6th (ORDER-LATER).
        StreetShape(Street.SEVENTH, (Face.DOWN,), BetSize.BIG, Opening.BEST_BOARD),
    ),
)

# The same table, looked up by street or card position on the replay's hot paths.
STREETS: tuple[Street, ...] = tuple(shape.street for shape in RAZZ.streets)
FIRST_STREET: Street = STREETS[0]
LAST_STREET: Street = STREETS[-1]
NEXT_STREET: dict[Street, Street | None] = {
    s: (STREETS[k + 1] if k + 1 < len(STREETS) else None) for k, s in enumerate(STREETS)
}
STREET_INDEX: dict[Street, int] = {s: k for k, s in enumerate(STREETS)}
NEW_CARDS: dict[Street, int] = {shape.street: len(shape.cards) for shape in RAZZ.streets}
CARDS_AFTER: dict[Street, int] = {
    s: sum(len(shape.cards) for shape in RAZZ.streets[: k + 1]) for k, s in enumerate(STREETS)
}
CARDS_BEFORE: dict[Street, int] = {s: CARDS_AFTER[s] - NEW_CARDS[s] for s in STREETS}
BET_SIZE: dict[Street, BetSize] = {shape.street: shape.bet for shape in RAZZ.streets}
BIG_BET_STREETS: frozenset[Street] = frozenset(s for s in STREETS if BET_SIZE[s] is BetSize.BIG)
OPENING: dict[Street, Opening] = {shape.street: shape.opening for shape in RAZZ.streets}
POSITION_STREET: tuple[Street, ...] = tuple(
    shape.street for shape in RAZZ.streets for _ in shape.cards
)
POSITION_FACE: tuple[Face, ...] = RAZZ.faces
HAND_SIZE: int = len(POSITION_FACE)  # 7
DOOR: int = POSITION_FACE.index(Face.UP)  # the first up card, which decides the bring-in
UP_CARDS: slice = slice(DOOR, max(k for k, f in enumerate(POSITION_FACE) if f is Face.UP) + 1)
"""The positions of the exposed board, which decides who opens later streets."""


def cap(ruleset: Ruleset) -> int | None:
    """The bets a round allows (STRUCT-CAP): the bet or completion, then the ruleset's raises.

    The bring-in is not a bet for this count. None: no cap.

    >>> from razz.replay.ruleset import POKERSTARS
    >>> cap(POKERSTARS)
    4
    """
    return None if ruleset.max_raises is None else 1 + ruleset.max_raises


def up_on(street: Street) -> bool:
    """Whether the card a later street deals is face up (4th to 6th) or down (the river).

    >>> up_on(Street.SIXTH), up_on(Street.SEVENTH)
    (True, False)
    """
    return RAZZ.shape(street).cards[-1] is Face.UP
