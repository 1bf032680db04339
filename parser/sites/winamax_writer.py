"""Write hands as Winamax writes them (FORMATS.md §3): the inverse of the reader beside it
(`razz.parser.sites.winamax`).

A file is UTF-8 with CRLF line ends, hands separated by one empty line, and no line end after
the last line. The header states the ante with the bets, the currency after the number
(`Razz fixed limit (5€/25€/50€)`), the time in UTC and a three-part hand id; the table line
ends with a space. Names have no colon; opponents' hidden cards are `X` (their river card
too: `[X X Kc 6d 7d 2d] [X]`); `brings in 10€`; a completion is `raises 25€ to 25€` (both
amounts the total), a raise `raises 25€ to 50€`. Winamax writes no uncalled-bet line: the bet
nobody called stays in the pot the winner collects, and `Total pot` is that pot after the
rake (`| No rake` when there is none). The summary lists the winners only (`Seat 4: Player0
won 258€`), and the hands shown (`showed [..] and won 70.30€`, `… and lost`). No cap line,
no all-in mark, no muck line, no chat: those events get no line.

>>> _amount(154672), _amount(500), _amount(50)
('1546.72€', '5€', '0.50€')
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from razz.parser.amounts import format_cents
from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Dealt,
    Event,
    Fold,
    HandHeader,
    Outcome,
    PostAnte,
    Raise,
    SeatLine,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    TotalPot,
    UncalledBet,
)
from razz.parser.sites.room_writer import (
    HandLines,
    WrittenFile,
    completions,
    join_hands,
    own_pot,
)

_STREET = {
    Street.THIRD: "*** 3rd STREET ***",
    Street.FOURTH: "*** 4th STREET ***",
    Street.FIFTH: "*** 5th STREET ***",
    Street.SIXTH: "*** 6th STREET ***",
    Street.SEVENTH: "*** 7th STREET ***",
}


def _amount(units: int) -> str:
    return format_cents(units, "") + "€"


def _cards(cards: Sequence[str]) -> str:
    return "[" + " ".join("X" if c == UNKNOWN_CARD else c for c in cards) + "]"


def hand_id(header: HandHeader, number: int) -> str:
    """A three-part Winamax hand id: the table's number, the hand's, the start (Unix time).

    >>> from razz.parser.sites.base import RawHand
    >>> from razz.parser.sites.winamax import EXAMPLE, SITE
    >>> hand_id(SITE.reader().read(RawHand("x.txt", 1, EXAMPLE)).header, 444)
    '2910938-444-1478990340'
    """
    table = zlib.crc32(header.table.encode("utf-8")) % 10_000_000
    return f"{table}-{number}-{int(header.started_at.timestamp())}"


def hand_lines(header: HandHeader, events: Sequence[Event], number: int) -> HandLines:
    """One hand's lines, each with the line of the event it writes."""
    a = _amount
    out = HandLines()
    when = f"{header.started_at:%Y/%m/%d %H:%M:%S} UTC"
    ante = f"{a(header.ante)}/" if header.ante is not None else ""
    out.add(
        f"Winamax Poker - CashGame - HandId: #{hand_id(header, number)} - Razz fixed limit "
        f"({ante}{a(header.small_bet)}/{a(header.big_bet)}) - {when}",
        header.first_line,
    )
    out.add(f"Table: '{header.table}' {header.max_seats or 8}-max (real money) ")
    completing = completions(events, header.small_bet)
    # The bet nobody called stays in the pot: the winner's collection and the total hold it.
    back = {e.player: e.amount for e in events if isinstance(e, UncalledBet)}
    collects = [e for e in events if isinstance(e, Collect)]
    kept = sum(back.values())
    # At a showdown, a bet nobody called (a call all-in for less) is a pot of its own, the
    # last one, settled first; a bet nobody called when everyone folded goes to the winner.
    sides = max((e.side or 0 for e in collects), default=0)
    separate = {p: u for p, u in back.items() if own_pot(events, p, u)}
    # Otherwise it goes with the last pot its bettor collects.
    top: dict[str, int] = {}
    for c in sorted(collects, key=lambda c: c.side or 0):
        if c.player in back and c.player not in separate:
            top[c.player] = c.line
    first_collect = True
    if separate:
        events = _owner_shows_first(events, set(separate))
    antes_written = False
    cards: dict[str, list[str]] = {}
    river: set[str] | None = None  # on 7th street: opponents whose face-down card is due
    for e in events:
        if river is not None and not isinstance(e, Dealt):
            _river_lines(out, cards, river)
            river = None
        if isinstance(e, SeatLine):
            out.add(f"Seat {e.seat}: {e.player} ({a(e.stack)})", e.line)
        elif isinstance(e, PostAnte):
            if not antes_written:
                out.add("*** ANTE/BLINDS ***")
                antes_written = True
            out.add(f"{e.player} posts ante {a(e.amount)}{_all_in(e)}", e.line)
        elif isinstance(e, StreetStart):
            if e.street is Street.SEVENTH and e.community is None:
                river = set(cards)
            out.add(_STREET[e.street], e.line)
        elif isinstance(e, Dealt):
            previous = cards.setdefault(e.player, [])
            if river is not None:
                river.discard(e.player)
            if previous:  # the earlier cards as the event repeats them, when it does
                shown = e.previous if len(e.previous) == len(previous) else previous
                out.add(f"Dealt to {e.player} {_cards(shown)} {_cards(e.new)}", e.line)
            else:
                out.add(f"Dealt to {e.player} {_cards(e.new)}", e.line)
            previous.extend(e.new)
        elif isinstance(e, BringIn):
            out.add(f"{e.player} brings in {a(e.amount or 0)}{_all_in(e)}", e.line)
        elif isinstance(e, Raise) and e.line in completing:
            out.add(f"{e.player} raises {a(e.to)} to {a(e.to)}{_all_in(e)}", e.line)
        elif isinstance(e, Bet):
            out.add(f"{e.player} bets {a(e.amount)}{_all_in(e)}", e.line)
        elif isinstance(e, Raise):
            out.add(f"{e.player} raises {a(e.amount or 0)} to {a(e.to)}{_all_in(e)}", e.line)
        elif isinstance(e, Call):
            out.add(f"{e.player} calls {a(e.amount or 0)}{_all_in(e)}", e.line)
        elif isinstance(e, Check):
            out.add(f"{e.player} checks", e.line)
        elif isinstance(e, Fold):
            cards.pop(e.player, None)
            out.add(f"{e.player} folds", e.line)
        elif isinstance(e, ShowDown):
            out.add("*** SHOW DOWN ***", e.line)
        elif isinstance(e, Show) and any(isinstance(x, ShowDown) for x in events):
            out.add(f"{e.player} shows {_cards(e.cards)}", e.line)
        elif isinstance(e, Collect):
            if first_collect:
                for name, amount in separate.items():
                    out.add(f"{name} collected {a(amount)} from side pot {sides + 1}")
                first_collect = False
            extra = back[e.player] if top.get(e.player) == e.line else 0
            label = "pot" if e.pot_label == "pot" and not separate else _label(e)
            out.add(f"{e.player} collected {a(e.amount + extra)} from {label}", e.line)
        elif isinstance(e, Summary):
            out.add("*** SUMMARY ***", e.line)
        elif isinstance(e, TotalPot):
            total = (e.total or 0) - e.rake + kept
            rake = f"Rake {a(e.rake)}" if e.rake else "No rake"
            out.add(f"Total pot {a(total)} | {rake}", e.line)
        elif isinstance(e, SeatResult):
            extra = back.get(e.player, 0)
            if e.outcome is Outcome.COLLECTED and e.amount:
                out.add(f"Seat {e.seat}: {e.player} won {a(e.amount + extra)}", e.line)
            elif e.outcome is Outcome.SHOWED_WON:
                won = a((e.amount or 0) + extra)
                out.add(f"Seat {e.seat}: {e.player} showed {_cards(e.cards)} and won {won}", e.line)
            elif e.outcome is Outcome.SHOWED_LOST and extra:
                won = a(extra)
                out.add(f"Seat {e.seat}: {e.player} showed {_cards(e.cards)} and won {won}", e.line)
            elif e.outcome is Outcome.MUCKED and extra:
                out.add(f"Seat {e.seat}: {e.player} won {a(extra)}", e.line)
            elif e.outcome is Outcome.SHOWED_LOST:
                out.add(f"Seat {e.seat}: {e.player} showed {_cards(e.cards)} and lost", e.line)
    return out


def _owner_shows_first(events: Sequence[Event], owners: set[str]) -> list[Event]:
    """The showdown with the owner of a bet nobody called showing first: that bet is the
    last pot here, and the pots are settled (and shown for) from the last one down."""
    out = list(events)
    start = next((k for k, e in enumerate(out) if isinstance(e, ShowDown)), None)
    if start is None:
        return out
    shows = [k for k in range(start + 1, len(out)) if isinstance(out[k], Show)]
    first = [out[k] for k in shows if out[k].player in owners]  # type: ignore[attr-defined]
    rest = [out[k] for k in shows if out[k].player not in owners]  # type: ignore[attr-defined]
    for k, e in zip(shows, first + rest, strict=True):
        out[k] = e
    return out


def _all_in(e: PostAnte | BringIn | Bet | Raise | Call) -> str:
    """Winamax's all-in words, as its Hold'em logs write them (no Razz all-in is in the
    corpus; the reader takes them)."""
    return " and is all-in" if e.all_in else ""


def _river_lines(out: HandLines, cards: dict[str, list[str]], players: set[str]) -> None:
    """An opponent's river card, face down, as Winamax writes it: `[X X Kc 6d 7d 2d] [X]`."""
    for name in sorted(players, key=list(cards).index):
        out.add(f"Dealt to {name} {_cards(cards[name])} [X]")
        cards[name].append(UNKNOWN_CARD)


def _label(e: Collect) -> str:
    return "main pot" if e.side is None else f"side pot {e.side}"


def write_file(
    name: str, hands: Sequence[tuple[HandHeader, Sequence[Event]]]
) -> list[WrittenFile]:
    """A table's hands as one Winamax file: UTF-8, CRLF, an empty line between hands, no line
    end after the last one."""
    text, written = join_hands(
        [
            (hand_id(h, k), hand_lines(h, events, k))
            for k, (h, events) in enumerate(hands, start=1)
        ],
        newline="\r\n",
        gap=1,
        end=0,
    )
    return [WrittenFile(name, text.encode("utf-8"), tuple(written))]
