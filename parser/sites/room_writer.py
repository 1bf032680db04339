"""What every room's writer shares: a hand's lines with the event each comes from, and files
made of them (bytes as the room writes them, and where each event landed).

A room's writer (`<room>_writer.py`) turns a hand's neutral events into the lines that room
writes. Events the room has no line for are left out, and lines the room writes that no event
holds (Full Tilt's `is high with`) are added; so each written hand keeps, for every event
that has a line, the line it is on in the file (`WrittenHand.lines`): a finding the auditor
makes on the room's file can be matched to the event the simulator wrote.

>>> out = HandLines()
>>> out.add("Seat 1: Ann (12)", 3); out.add("Ann antes 1", 4); out.add("*** 3RD STREET ***")
>>> text, hands = join_hands([("7", out)], newline="\\r\\n", gap=2, end=1)
>>> text.count("\\r\\n"), hands[0].lines
(3, {3: 1, 4: 2})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BringIn,
    Call,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    PostAnte,
    Raise,
    Street,
    StreetStart,
    UncalledBet,
)


@dataclass(frozen=True, slots=True)
class WrittenHand:
    """One hand as written: its id as the room writes it, its first line, and the line in
    the file of each event that has one (by the event's own line)."""

    hand_id: str
    first_line: int
    lines: dict[int, int]


@dataclass(frozen=True, slots=True)
class WrittenFile:
    """A file as the room writes it: its name, its bytes, and its hands in order."""

    name: str
    data: bytes
    hands: tuple[WrittenHand, ...]


@dataclass(slots=True)
class HandLines:
    """The lines of one hand, each with the line of the event it writes (if any)."""

    texts: list[str] = field(default_factory=list)
    origin: dict[int, int] = field(default_factory=dict)  # event line -> index in texts

    def add(self, text: str, source: int | None = None) -> None:
        if source is not None:
            self.origin.setdefault(source, len(self.texts))
        self.texts.append(text)


def join_hands(
    hands: Sequence[tuple[str, HandLines]], *, newline: str, gap: int, end: int
) -> tuple[str, list[WrittenHand]]:
    """Hands one after the other with `gap` empty lines between them; the last hand's last
    line is followed by `end` line ends (0: the file ends without one)."""
    parts: list[str] = []
    written: list[WrittenHand] = []
    line = 1
    for k, (hand_id, out) in enumerate(hands):
        written.append(
            WrittenHand(hand_id, line, {src: line + i for src, i in out.origin.items()})
        )
        parts.append(newline.join(out.texts))
        parts.append(newline * (gap + 1 if k < len(hands) - 1 else end))
        line += len(out.texts) + gap
    return "".join(parts), written


def up_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The cards a line shows of an opponent's hand: the hidden ones left out.

    >>> up_cards(("??", "??", "7c", "8d"))
    ('7c', '8d')
    """
    return tuple(c for c in cards if c != UNKNOWN_CARD)


def door_cards(events: Sequence[Event]) -> dict[str, str]:
    """Each player's door card (the third card of the 3rd-street deal)."""
    return {
        e.player: e.new[-1]
        for e in events
        if isinstance(e, Dealt) and e.street is Street.THIRD and e.new
    }


def completions(events: Sequence[Event], small_bet: int) -> set[int]:
    """The lines of the wagers that complete the bring-in: on 3rd street, the first bet or
    raise, up to the small bet (PokerStars writes it `raises 35 to 50` after a bring-in,
    `bets 50` without one; other rooms have their own words for it).

    >>> from razz.parser.events import BringIn, Raise
    >>> completions([StreetStart(1, Street.THIRD), BringIn(2, "A", 3, False),
    ...              Raise(3, "B", 10, 7, False), Raise(4, "A", 20, 10, False)], 10)
    {3}
    """
    found: set[int] = set()
    third = done = False
    for e in events:
        if isinstance(e, StreetStart):
            third = e.street is Street.THIRD
        elif third and not done and isinstance(e, Bet | Raise | Complete):
            to = e.amount if isinstance(e, Bet) else e.to
            if to <= small_bet:
                found.add(e.line)
            done = True
    return found


def committed(events: Sequence[Event]) -> tuple[dict[str, int], set[str], set[str]]:
    """What each player put in (antes and wagers, before any bet is returned), who went
    all-in and who folded."""
    put: dict[str, int] = {}
    street: dict[str, int] = {}
    all_in: set[str] = set()
    folded: set[str] = set()
    for e in events:
        if isinstance(e, StreetStart):
            street = {}
        elif isinstance(e, PostAnte):
            put[e.player] = put.get(e.player, 0) + e.amount
        elif isinstance(e, BringIn | Bet | Call):
            add = e.amount or 0
            put[e.player] = put.get(e.player, 0) + add
            street[e.player] = street.get(e.player, 0) + add
        elif isinstance(e, Raise | Complete):
            add = e.to - street.get(e.player, 0)
            put[e.player] = put.get(e.player, 0) + add
            street[e.player] = e.to
        elif isinstance(e, Fold):
            folded.add(e.player)
        if getattr(e, "all_in", False):
            all_in.add(e.player)  # type: ignore[attr-defined]
    return put, all_in, folded


def own_pot(events: Sequence[Event], player: str, amount: int) -> bool:
    """Whether a bet nobody called is a pot of its own where the log keeps it in the pots
    (Winamax): it is when a live player called all-in for less (the pots are cut at that
    stack); when the others folded, it is part of the last pot, which its bettor wins."""
    put, all_in, folded = committed(events)
    level = put.get(player, 0) - amount
    return any(
        p != player and p in all_in and p not in folded and c == level for p, c in put.items()
    )


def unmatched_pot(events: Sequence[Event]) -> Collect | None:
    """The side pot that holds only chips nobody could match (a player all-in on the ante
    for less than the others: PokerStars pays the excess back as a pot of its own), as its
    collection; None when there is none. A room whose log writes no uncalled-bet line has
    its replay return those chips itself, so they are no pot there."""
    put, _, _ = committed(events)
    for e in events:
        if isinstance(e, UncalledBet):
            put[e.player] = put.get(e.player, 0) - e.amount
    ranked = sorted(put.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None
    (top, most), (_, second) = ranked[0], ranked[1]
    sides = [e for e in events if isinstance(e, Collect) and e.side is not None]
    last = max((e.side or 0 for e in sides), default=0)
    for e in sides:
        if e.player == top and e.side == last and e.amount == most - second:
            return e
    return None
