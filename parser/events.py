"""The neutral event model: what a hand history says, one record per line, for every site.

Every reader (one per site) turns the lines of a hand into a `HandHeader`
and a tuple of the events below; the rules engine, the auditor, the store, the writers and the
simulator read and write only these. Each event carries the number of its line in the source
file, so that any finding can point at it. Amounts are exact integers in the hand's smallest
unit (cents for real-money cash games, chips otherwise; see `HandHeader.unit`).

What sites write differently is explicit or optional here, never PokerStars text:

* **The header** keeps the site's own hand id and table name as written. `ante` and `bring_in`
  are what the header states (Full Tilt `Ante $0.02`, Winamax `(5€/25€/50€)`, PHH `antes`
  and `bring_in`), None where it states none (PokerStars never prints them: the auditor then
  learns them from the ante and bring-in lines). `site` names the site's registry entry.
* **Wagers.** `Bet` opens a round (`amount` is the bet). `Complete` is a completion written as
  such (Full Tilt `completes it to`, Merge `COMPLETE`): the street total `to`. `Raise` gives
  the street total `to`; its increment `amount` is optional because Full Tilt and KingsClub
  write only `raises to`. A site that writes a completion as a raise (PokerStars `raises 35
  to 50` after a bring-in of 15, Winamax `raises 25€ to 25€`) or as a bet (KingsClub) gives a
  `Raise` or a `Bet`, as written: the engine knows from the state whether a wager completes.
  `BringIn.amount` and `Call.amount` (the increment put in) are None where the site writes no
  amount (PHH `pb`, `cc`): the engine then takes the known bring-in or what matches the bet.
* **Cards.** `UNKNOWN_CARD` ("??") is a card the log does not show (Winamax and KingsClub
  `X`, Merge `null`, PHH `??`). `Dealt.new` is every card dealt on that street in position
  order: three on 3rd street (down, down, up), one later, hidden ones as `??`; so PokerStars'
  `Dealt to kobreli [Qc]` is new=("??", "??", "Qc"). `Dealt.previous` is the player's earlier
  cards as the line repeats them, in position order with `??` where hidden (PokerStars
  `Dealt to kobreli [Qc] [8s]`: previous=("??", "??", "Qc")), or () when the format repeats
  none (KingsClub). `Dealt.hero` says the line is the file owner's, who sees their own down
  cards; the site's reader decides it.
* **The end of the hand.** `TotalPot.total` is None when the summary gives only the rake
  (KingsClub `Rake 5`). `SeatResult` is one seat's summary line: PokerStars writes one per
  seat with how the hand ended; Winamax one per winner (`won 258€`: `COLLECTED`); Full Tilt
  adds `collected ($1.12), mucked` (`mucked=True`) and `is sitting out` (`SAT_OUT`); KingsClub
  gives every seat's final stack and net and nothing else (`STACK`, `final_stack`, `net`).
  `Collect` is a pot paid (`collected … from pot`, Full Tilt `wins the pot (…) with …`,
  KingsClub `wins pot (…)`), with the winning hand's description where the site writes one.
* **Lines other sites write and PokerStars has no line for**: `BringInCard` (Full Tilt `is
  high with [Ks]`, the site naming the player who must bring in). A hand shown before the
  showdown (Full Tilt and KingsClub expose all-in hands mid-hand) is just a `Show`; an ante
  excess given back before 3rd street (Full Tilt `Uncalled bet of 1 returned to Hero`) is an
  `UncalledBet`.

Events are records nothing changes once read (`dataclasses.replace` makes a changed copy),
hashable and compared by value, but not `frozen` dataclasses: a frozen dataclass's
constructor sets each field through `object.__setattr__`, five times the cost of a plain
one, and a hand is some fifty events (a fifth of the time to read it).

What a site's format promises beyond the events (a summary line per seat, raise increments, a
`Lo:` description …) is its log dialect, not a property of the events.

>>> Bet(line=30, player="willy32948", amount=4, all_in=False).amount
4
>>> Raise(line=31, player="Player5", to=38).amount is None
True
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

UNKNOWN_CARD = "??"
"""A card dealt but not shown by the log (an opponent's down card, a hidden river card)."""


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

    site: str  # the site's registry entry, e.g. "PokerStars" (hand keys are `site:hand_id`)
    hand_id: str  # as the site writes it, kept as text: "35874566077", "9250793-444-1478990340"
    game: str  # the game as written, e.g. "Razz", "7 Card Stud", "7 Card Stud Hi/Lo"
    is_razz: bool
    mixed: str | None  # "HORSE", "8-Game", "Triple Stud" … when the game is part of a mix
    limit: str  # "Limit", "No Limit", "Pot Limit"
    kind: GameKind
    small_bet: int  # in `unit`
    big_bet: int
    ante: int | None  # as the header states it (Full Tilt, Winamax, PHH); None: not stated
    bring_in: int | None  # as the header states it (PHH); None: not stated
    unit: Unit
    currency: str | None  # ISO code ("USD", "EUR", "GBP") or None for chips / play money
    play_money: bool
    table: str  # the table's name as written
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

    @property
    def stakes_stated(self) -> bool:
        """Whether the file states the stakes (False: `UnstatedStakes`)."""
        return not isinstance(self, UnstatedStakes)


@dataclass(frozen=True, slots=True)  # as HandHeader
class UnstatedStakes(HandHeader):
    """The header of a hand whose file states no stakes (a Merge tournament's games): the
    reader took `small_bet`/`big_bet` from the hand's wagers, or guessed them from its
    bring-in. The same fields as any header."""


# --------------------------------------------------------------------------- events


@dataclass(slots=True, unsafe_hash=True)
class Event:
    """Base of every event: the line of the file it was read from."""

    line: int


@dataclass(slots=True, unsafe_hash=True)
class PlayerEvent(Event):
    player: str


@dataclass(slots=True, unsafe_hash=True)
class SeatLine(PlayerEvent):
    """`Seat 3: willy32948 ($2.17 in chips)`."""

    seat: int
    stack: int
    sitting_out: bool = False
    out_of_hand: bool = False
    bounty: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class PostAnte(PlayerEvent):
    amount: int
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class StreetStart(Event):
    """`*** 3rd STREET ***` … `*** RIVER ***` (with the community card, if any)."""

    street: Street
    community: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Dealt(PlayerEvent):
    """`Dealt to NAME [old …] [new]`: the cards a player gets on a street.

    `new` holds every card dealt on the street in position order (3rd street: down, down, up;
    later streets: one card), `UNKNOWN_CARD` where the log hides it. `previous` holds the
    player's earlier cards as the line repeats them, in position order with `UNKNOWN_CARD`
    where hidden, or () when the line repeats none. `hero` is true for the file owner's lines,
    which show the owner's down cards.

    >>> Dealt(line=9, player="kobreli", street=Street.FOURTH,
    ...       previous=("??", "??", "Qc"), new=("8s",), hero=False).previous[2]
    'Qc'
    """

    street: Street
    previous: tuple[str, ...]
    new: tuple[str, ...]
    hero: bool


@dataclass(slots=True, unsafe_hash=True)
class BringInCard(PlayerEvent):
    """The site names who must bring in, and the door card that decides it.

    Full Tilt `Player5 is high with [Ks]` (Razz; `is low with` in Stud). PokerStars writes
    no such line.
    """

    card: str
    high: bool = True


@dataclass(slots=True, unsafe_hash=True)
class BringIn(PlayerEvent):
    """`brings in for $0.02`; `amount` None where the site writes none (PHH `pb`)."""

    amount: int | None
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Bet(PlayerEvent):
    """`bets $0.04`: the first wager of a round (KingsClub also writes a completion so)."""

    amount: int
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Complete(PlayerEvent):
    """A completion written as such: Full Tilt `completes it to $0.10`, Merge `COMPLETE`."""

    to: int  # the player's total for the street: the small bet, or less all-in
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Call(PlayerEvent):
    """`calls $0.02`; `amount` is the increment put in, None where not written (PHH `cc`)."""

    amount: int | None
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Raise(PlayerEvent):
    """`raises $0.08 to $0.16`; Full Tilt and KingsClub write only `raises to $0.16`."""

    to: int  # the player's total for the street after the raise
    amount: int | None = None  # the increment over the bet faced, where the site writes it
    all_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Check(PlayerEvent):
    pass


@dataclass(slots=True, unsafe_hash=True)
class Fold(PlayerEvent):
    pass


@dataclass(slots=True, unsafe_hash=True)
class BettingCapped(Event):
    pass


@dataclass(slots=True, unsafe_hash=True)
class UncalledBet(PlayerEvent):
    """`Uncalled bet ($0.08) returned to SilkZone`; before 3rd street, an ante excess."""

    amount: int


@dataclass(slots=True, unsafe_hash=True)
class ShowDown(Event):
    """`*** SHOW DOWN ***`."""


@dataclass(slots=True, unsafe_hash=True)
class Show(PlayerEvent):
    """`NAME: shows [cards] (description)`; the description is kept as written.

    Also a hand exposed before the showdown (Full Tilt, KingsClub: all-in players).
    """

    cards: tuple[str, ...]
    description: str | None


@dataclass(slots=True, unsafe_hash=True)
class Muck(PlayerEvent):
    """`NAME: mucks hand`."""


@dataclass(slots=True, unsafe_hash=True)
class NoShow(PlayerEvent):
    """`NAME: doesn't show hand`."""


@dataclass(slots=True, unsafe_hash=True)
class Collect(PlayerEvent):
    """A pot paid: `NAME collected 160 from side pot-1`, Full Tilt `NAME wins the pot (48)`.

    `side` is the side-pot number: None for `pot` / `main pot`, 1 for `side pot` and
    `side pot-1`, 2 for `side pot-2` …; `description` is the winning hand as the line
    writes it (Full Tilt `with J,T,6,5,2`), None where it writes none.
    """

    amount: int
    pot_label: str  # "pot", "main pot", "side pot", "side pot-2" …
    side: int | None
    description: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class TournamentFinish(PlayerEvent):
    """`NAME finished the tournament in 28th place[ and received $N.]`."""

    place: int
    prize: str | None


@dataclass(slots=True, unsafe_hash=True)
class TournamentWin(PlayerEvent):
    """`NAME wins the tournament and receives 200.00 - congratulations!`."""

    prize: str


@dataclass(slots=True, unsafe_hash=True)
class HandCancelled(Event):
    pass


@dataclass(slots=True, unsafe_hash=True)
class Summary(Event):
    """`*** SUMMARY ***`."""


@dataclass(slots=True, unsafe_hash=True)
class TotalPot(Event):
    """`Total pot $1.08 Main pot $0.42. Side pot $0.61. | Rake $0.05`.

    `total` is None where the summary gives only the rake (KingsClub `Rake 5`).
    """

    total: int | None
    rake: int
    main: int | None = None
    sides: tuple[int, ...] = ()


@dataclass(slots=True, unsafe_hash=True)
class Board(Event):
    """`Board [6h]` (community card dealt on the river)."""

    cards: tuple[str, ...]


class Outcome(StrEnum):
    """How a seat's summary line says the hand ended for its player."""

    FOLDED = "folded"
    COLLECTED = "collected"  # won without showing (Winamax `won 258€` too)
    SHOWED_WON = "showed_won"
    SHOWED_LOST = "showed_lost"
    MUCKED = "mucked"
    SAT_OUT = "sat_out"  # Full Tilt `Seat 6: Player6 is sitting out`
    STACK = "stack"  # only the final stack and net, for every seat (KingsClub)


@dataclass(slots=True, unsafe_hash=True)
class SeatResult(PlayerEvent):
    """A summary line for one seat, e.g. `Seat 7: Hero folded on the 3rd Street (didn't bet)`.

    KingsClub `Seat 1: Player0 (1,010.38) -50` is `Outcome.STACK` with `final_stack` and `net`.
    """

    seat: int
    outcome: Outcome
    street: Street | None = None  # where the player folded
    didnt_bet: bool = False
    cards: tuple[str, ...] = ()
    amount: int | None = None  # collected / won
    description: str | None = None  # "Lo: 8,6,4,3,2"
    mucked: bool = False  # Full Tilt `collected ($1.12), mucked`: won without showing
    final_stack: int | None = None  # KingsClub: the stack after the hand
    net: int | None = None  # KingsClub: won or lost in the hand


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
    TIME = "time"  # Full Tilt `has 15 seconds left to act`
    SEATING = "seating"  # Full Tilt `stands up`, `sits down`, `adds $152`
    OTHER = "other"  # e.g. "Pair on board - a double bet is allowed" (Stud high)


@dataclass(slots=True, unsafe_hash=True)
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
    """A hand that is not read: another game (Stud, Hold'em …), or a site not read yet."""

    source: str
    first_line: int
    hand_id: str | None
    game: str
    reason: str


ParseResult = Hand | ParseError | SkippedHand
