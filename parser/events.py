"""Typed, immutable records of what a hand history says, one per line.

The parser turns each line of a hand into one of the frozen event classes below. Every event
carries the number of its line in the source file, so any later finding can point at it.
Amounts are exact integers in the hand's smallest unit (cents for real-money cash games,
chips otherwise; see `HandHeader.unit`); a raise keeps both its increment and its total.

>>> Bet(line=30, player="willy32948", amount=4, all_in=False).amount
4
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Street(StrEnum):
    """A betting round of seven-card stud, named as players name it."""

    THIRD = "3rd"
    FOURTH = "4th"
    FIFTH = "5th"
    SIXTH = "6th"
    SEVENTH = "7th"

    @property
    def number(self) -> int:
        """3 for 3rd street … 7 for 7th street (the river)."""
        return int(self.value[0])

    @property
    def is_big_bet(self) -> bool:
        """Bets and raises are one big bet from 5th street on."""
        return self.number >= 5


STREETS: tuple[Street, ...] = tuple(Street)


class Unit(StrEnum):
    """The smallest unit of a hand's amounts."""

    CENT = "cent"  # real-money cash game: $0.04 is 4
    CHIP = "chip"  # tournament chips and play money


class GameKind(StrEnum):
    CASH = "cash"
    TOURNAMENT = "tournament"


@dataclass(frozen=True, slots=True)
class HandHeader:
    """What the header and table lines say about a hand, and where the hand was read."""

    site: str  # "PokerStars"
    hand_id: str  # digits, kept as text: ids exceed 2**63 at some sites
    game: str  # the game as written, e.g. "Razz", "7 Card Stud", "7 Card Stud Hi/Lo"
    is_razz: bool
    mixed: str | None  # "HORSE", "8-Game", "Triple Stud" … when the game is part of a mix
    limit: str  # "Limit", "No Limit", "Pot Limit"
    kind: GameKind
    small_bet: int  # in `unit`
    big_bet: int
    unit: Unit
    currency: str | None  # ISO code ("USD", "EUR", "GBP") or None for chips / play money
    play_money: bool
    table: str
    max_seats: int | None
    tournament_id: str | None
    buy_in: tuple[
        int, ...
    ]  # tournament buy-in parts in cents of `currency` (or chips), e.g. (20000, 1500)
    level: str | None  # Roman numeral, e.g. "IV"
    match_round: str | None  # shootout round, e.g. "I"
    club: str | None  # home-game club name
    started_at: datetime  # UTC, timezone-aware
    started_text: str  # the datetime exactly as written, zone included
    time_zone: str  # the zone of the first datetime, e.g. "ET", "CET"
    source: str  # file path as given
    first_line: int  # line number of the header in the file (1-based)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event: the line of the file it was read from."""

    line: int


@dataclass(frozen=True, slots=True)
class PlayerEvent(Event):
    player: str


@dataclass(frozen=True, slots=True)
class SeatLine(PlayerEvent):
    """`Seat 3: willy32948 ($2.17 in chips)`."""

    seat: int
    stack: int
    sitting_out: bool = False
    out_of_hand: bool = False
    bounty: str | None = None


@dataclass(frozen=True, slots=True)
class PostAnte(PlayerEvent):
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class StreetStart(Event):
    """`*** 3rd STREET ***` … `*** RIVER ***` (with the community card, if any)."""

    street: Street
    community: str | None = None


@dataclass(frozen=True, slots=True)
class Dealt(PlayerEvent):
    """`Dealt to NAME [old …] [new]`.

    `hero` is true for the file owner's lines, which show the down cards too: 3 cards on 3rd
    street, then all previous cards plus the new one. Other players' lines show up cards only.
    """

    street: Street
    previous: tuple[str, ...]
    new: tuple[str, ...]
    hero: bool


@dataclass(frozen=True, slots=True)
class BringIn(PlayerEvent):
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Bet(PlayerEvent):
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Call(PlayerEvent):
    amount: int  # the increment put in
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Raise(PlayerEvent):
    amount: int  # the increment over the previous bet, as written
    to: int  # the player's total for the street after the raise
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Check(PlayerEvent):
    pass


@dataclass(frozen=True, slots=True)
class Fold(PlayerEvent):
    pass


@dataclass(frozen=True, slots=True)
class BettingCapped(Event):
    pass


@dataclass(frozen=True, slots=True)
class UncalledBet(PlayerEvent):
    amount: int


@dataclass(frozen=True, slots=True)
class ShowDown(Event):
    """`*** SHOW DOWN ***`."""


@dataclass(frozen=True, slots=True)
class Show(PlayerEvent):
    """`NAME: shows [cards] (description)`; the description is kept as written."""

    cards: tuple[str, ...]
    description: str | None


@dataclass(frozen=True, slots=True)
class Muck(PlayerEvent):
    """`NAME: mucks hand`."""


@dataclass(frozen=True, slots=True)
class NoShow(PlayerEvent):
    """`NAME: doesn't show hand`."""


@dataclass(frozen=True, slots=True)
class Collect(PlayerEvent):
    """`NAME collected 160 from side pot-1`.

    `side` is the side-pot number: None for `pot` / `main pot`, 1 for `side pot` and
    `side pot-1`, 2 for `side pot-2` …
    """

    amount: int
    pot_label: str  # "pot", "main pot", "side pot", "side pot-2" …
    side: int | None


@dataclass(frozen=True, slots=True)
class TournamentFinish(PlayerEvent):
    """`NAME finished the tournament in 28th place[ and received $N.]`."""

    place: int
    prize: str | None


@dataclass(frozen=True, slots=True)
class TournamentWin(PlayerEvent):
    """`NAME wins the tournament and receives 200.00 - congratulations!`."""

    prize: str


@dataclass(frozen=True, slots=True)
class HandCancelled(Event):
    pass


@dataclass(frozen=True, slots=True)
class Summary(Event):
    """`*** SUMMARY ***`."""


@dataclass(frozen=True, slots=True)
class TotalPot(Event):
    """`Total pot $1.08 Main pot $0.42. Side pot $0.61. | Rake $0.05`."""

    total: int
    rake: int
    main: int | None = None
    sides: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Board(Event):
    """`Board [6h]` (community card dealt on the river)."""

    cards: tuple[str, ...]


class Outcome(StrEnum):
    FOLDED = "folded"
    COLLECTED = "collected"
    SHOWED_WON = "showed_won"
    SHOWED_LOST = "showed_lost"
    MUCKED = "mucked"


@dataclass(frozen=True, slots=True)
class SeatResult(PlayerEvent):
    """A summary line for one seat, e.g. `Seat 7: Hero folded on the 3rd Street (didn't bet)`."""

    seat: int
    outcome: Outcome
    street: Street | None = None  # where the player folded
    didnt_bet: bool = False
    cards: tuple[str, ...] = ()
    amount: int | None = None  # collected / won
    description: str | None = None  # "Lo: 8,6,4,3,2"


class NoiseKind(StrEnum):
    CHAT = "chat"
    JOINS = "joins"
    LEAVES = "leaves"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    SITTING_OUT = "sitting_out"
    SITS_OUT = "sits_out"
    TIMED_OUT = "timed_out"
    RETURNED = "returned"
    REMOVED = "removed"
    OTHER = "other"  # e.g. "Pair on board - a double bet is allowed" (Stud high)


@dataclass(frozen=True, slots=True)
class Noise(Event):
    """A line that changes nothing in the hand: chat, joins, (dis)connections, sitting out …

    `player` is the name as written; it need not be seated in the hand.
    """

    kind: NoiseKind
    player: str | None
    text: str


# ---------------------------------------------------------------- parse results


@dataclass(frozen=True, slots=True)
class Hand:
    """A parsed hand: its header and its events in file order, with the raw text."""

    header: HandHeader
    events: tuple[Event, ...]
    text: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class ParseError:
    """A hand that could not be read. Every other hand of the file is still read."""

    source: str
    line: int  # 1-based line in the file
    column: int  # 1-based column
    line_text: str
    message: str
    expected: tuple[str, ...]
    hand_id: str | None
    first_line: int
    text: str = field(repr=False)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message} (column {self.column})"


@dataclass(frozen=True, slots=True)
class SkippedHand:
    """A hand of another game (Stud, Stud Hi/Lo, Hold'em …) found in a Razz file."""

    source: str
    first_line: int
    hand_id: str | None
    game: str
    reason: str


ParseResult = Hand | ParseError | SkippedHand
