"""Write hands as Full Tilt Poker writes them (FORMATS.md §2): the inverse of the reader
beside it (`razz.parser.sites.fulltilt`).

A file is UTF-16LE with a BOM and CRLF line ends, hands separated by three empty lines. The
header states the table, the stakes and the ante (`Table Mart - $0.10/$0.20 Ante $0.02 -
Limit Razz - 04:10:10 ET - 2010/12/07`; a sit-and-go's `$2 + $0.10 Sit & Go (220338000),
Table 1 - 80/160 Ante 15`); names have no colon; chips have thousands commas; the file
owner's 3rd-street cards are `[6d Kd] [4s]`, an opponent's up cards only (`[7c] [8c]`);
`Player5 is high with [Ks]` announces the bring-in; a completion is `completes it to`, a raise
`raises to` (no increment); `, and is all in`; a winner who does not show `mucks`, then `wins
the pot ($1.12)`; a shown hand reads `J,T,6,5,2` (no `Lo:`); the summary's seats read
`folded on 3rd St.`, `collected ($1.12), mucked`, `showed [..] and won (48) with J,T,6,5,2`.
Full Tilt writes no `Betting is capped`, no chat and no community card: those events get no
line (a table that deals a community card cannot be written: its simulated tables seat seven).

>>> from razz.parser.events import Complete, Fold
>>> w = _Writer(cents=True)
>>> w.line(Complete(0, "Player8", 10, False)), w.line(Fold(0, "Hero"))
('Player8 completes it to $0.10', 'Hero folds')
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from razz.parser.amounts import format_cents
from razz.parser.events import (
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    GameKind,
    HandHeader,
    Muck,
    Noise,
    NoiseKind,
    NoShow,
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
    Unit,
)
from razz.parser.sites.room_writer import (
    HandLines,
    WrittenFile,
    completions,
    door_cards,
    join_hands,
    up_cards,
)
from razz.replay.lowhand import lo_text

ET = ZoneInfo("America/New_York")
_ALL_IN = ", and is all in"
_STREET = {
    Street.THIRD: "*** 3RD STREET ***",
    Street.FOURTH: "*** 4TH STREET ***",
    Street.FIFTH: "*** 5TH STREET ***",
    Street.SIXTH: "*** 6TH STREET ***",
    Street.SEVENTH: "*** 7TH STREET ***",
}
_NOISE = {
    NoiseKind.JOINS: "sits down",
    NoiseKind.LEAVES: "stands up",
    NoiseKind.DISCONNECTED: "is disconnected",
    NoiseKind.CONNECTED: "is connected",
}
_RANK_NAMES = {
    "A": "Aces", "2": "Deuces", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes",
    "7": "Sevens", "8": "Eights", "9": "Nines", "T": "Tens", "J": "Jacks", "Q": "Queens",
    "K": "Kings",
}  # fmt: skip


def description(cards: Sequence[str]) -> str:
    """A Razz hand as Full Tilt reads it: `J,T,6,5,2`, or `a pair of Sevens` when the best
    five are paired (the real all-in hand of the corpus).

    >>> description(["5d", "6s", "2s", "Td", "Jh", "2h", "Qc"])
    'J,T,6,5,2'
    >>> description(["6c", "7c", "7d", "7s", "3s", "Jd", "Jc"])
    'a pair of Sevens'
    """
    text = lo_text(cards)
    ranks = text.split(",")
    pairs = sorted({r for r in ranks if ranks.count(r) > 1}, key=ranks.index)
    if not pairs:
        return text
    if len(pairs) == 1 and ranks.count(pairs[0]) == 2:
        return f"a pair of {_RANK_NAMES[pairs[0]]}"
    return text  # two pair or trips: rare in a Razz low, written as the ranks


class _Writer:
    """The lines of one hand's events."""

    def __init__(self, *, cents: bool) -> None:
        self.cents = cents

    def amount(self, units: int) -> str:
        return format_cents(units, "$") if self.cents else f"{units:,}"

    def line(self, e: Event) -> str | None:
        a, tail = self.amount, _ALL_IN if getattr(e, "all_in", False) else ""
        match e:
            case SeatLine():
                out = ", is sitting out" if e.sitting_out else ""
                return f"Seat {e.seat}: {e.player} ({a(e.stack)}){out}"
            case PostAnte():
                return f"{e.player} antes {a(e.amount)}{tail}"
            case StreetStart():
                return _STREET[e.street]
            case BringIn():
                return f"{e.player} brings in for {a(e.amount or 0)}{tail}"
            case Complete():
                return f"{e.player} completes it to {a(e.to)}{tail}"
            case Bet():
                return f"{e.player} bets {a(e.amount)}{tail}"
            case Call():
                return f"{e.player} calls {a(e.amount or 0)}{tail}"
            case Raise():
                return f"{e.player} raises to {a(e.to)}{tail}"
            case Check():
                return f"{e.player} checks"
            case Fold():
                return f"{e.player} folds"
            case UncalledBet():
                return f"Uncalled bet of {a(e.amount)} returned to {e.player}"
            case ShowDown():
                return "*** SHOW DOWN ***"
            case Muck() | NoShow():
                return f"{e.player} mucks"
            case Summary():
                return "*** SUMMARY ***"
            case Noise() if e.kind in _NOISE and e.player:
                return f"{e.player} {_NOISE[e.kind]}"
        return None


def _cards(cards: Sequence[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _dealt(e: Dealt) -> str:
    if e.hero:
        if e.street is Street.THIRD and not e.previous:
            return f"Dealt to {e.player} {_cards(e.new[:2])} {_cards(e.new[2:])}"
        return f"Dealt to {e.player} {_cards(e.previous)} {_cards(e.new)}"
    previous, new = up_cards(e.previous), up_cards(e.new)
    if previous:
        return f"Dealt to {e.player} {_cards(previous)} {_cards(new)}"
    return f"Dealt to {e.player} {_cards(new)}"


def _time(moment: datetime) -> str:
    et = moment.astimezone(ET)
    return f"{et:%H:%M:%S} ET - {et:%Y/%m/%d}"


def header_line(header: HandHeader, writer: _Writer) -> str:
    """`Full Tilt Poker Game #…: Table Mart - $0.10/$0.20 Ante $0.02 - Limit Razz - …`."""
    a = writer.amount
    if header.kind is GameKind.TOURNAMENT:
        buy_in = header.buy_in or (0,)
        parts = [format_cents(p, "$") for p in buy_in]
        table = f"{' + '.join(parts)} Sit & Go ({header.tournament_id}), Table 1"
    else:
        table = f"Table {header.table}"
    ante = f" Ante {a(header.ante)}" if header.ante is not None else ""
    return (
        f"Full Tilt Poker Game #{header.hand_id}: {table} - {a(header.small_bet)}/"
        f"{a(header.big_bet)}{ante} - Limit Razz - {_time(header.started_at)}"
    )


def hand_lines(header: HandHeader, events: Sequence[Event]) -> HandLines:
    """One hand's lines, each with the line of the event it writes."""
    w = _Writer(cents=header.unit is Unit.CENT)
    a = w.amount
    out = HandLines()
    out.add(header_line(header, w), header.first_line)
    doors = door_cards(events)
    shown = {e.player: e.cards for e in events if isinstance(e, Show)}
    showdown = any(isinstance(e, ShowDown) for e in events)
    pots = [e for e in events if isinstance(e, Collect)]
    split = {e.pot_label for e in pots if sum(p.pot_label == e.pot_label for p in pots) > 1}
    sides = {e.side for e in pots if e.side is not None}
    completing = completions(events, header.small_bet)
    k = 0
    while k < len(events):
        e = events[k]
        k += 1
        if isinstance(e, Dealt):
            out.add(_dealt(e), e.line)
        elif isinstance(e, Bet | Raise) and e.line in completing:
            to = e.to if isinstance(e, Raise) else e.amount
            all_in = _ALL_IN if e.all_in else ""
            out.add(f"{e.player} completes it to {a(to)}{all_in}", e.line)
        elif isinstance(e, BringIn):
            out.add(f"{e.player} is high with [{doors.get(e.player, '??')}]")
            out.add(w.line(e) or "", e.line)
        elif isinstance(e, Collect) and not showdown:
            # The winner of a pot nobody contested `mucks` first, or shows (after: none).
            after = events[k] if k < len(events) else None
            if isinstance(after, Show) and after.player == e.player:
                out.add(f"{e.player} shows {_cards(after.cards)}", after.line)
                k += 1
            elif isinstance(after, NoShow) and after.player == e.player:
                out.add(f"{e.player} mucks", after.line)
                k += 1
            else:
                out.add(f"{e.player} mucks")
            out.add(f"{e.player} wins the pot ({a(e.amount)})", e.line)
        elif isinstance(e, Collect):
            label = _pot(e, len(sides))
            verb = "ties for" if e.pot_label in split else "wins"
            cards = shown.get(e.player)
            tail = f" with {description(cards)}" if cards else ""
            out.add(f"{e.player} {verb} the {label} ({a(e.amount)}){tail}", e.line)
        elif isinstance(e, Show):
            tail = f" {description(e.cards)}" if len(e.cards) >= 5 else ""
            out.add(f"{e.player} shows {_cards(e.cards)}{tail}", e.line)
        elif isinstance(e, TotalPot):
            parts = ""
            if e.main is not None:
                parts = f" Main pot {a(e.main)}."
                many = len(e.sides) > 1
                for n, side in enumerate(e.sides, start=1):
                    parts += f" Side pot{f' #{n}' if many else ''} {a(side)}."
            out.add(f"Total pot {a(e.total or 0)}{parts} | Rake {a(e.rake)}", e.line)
        elif isinstance(e, SeatResult):
            text = _result(e, w, shown)
            if text is not None:
                out.add(text, e.line)
        else:
            text = w.line(e)
            if text is not None:
                out.add(text, e.line)
    return out


def _pot(e: Collect, sides: int) -> str:
    if e.side is None:
        return "main pot" if e.pot_label == "main pot" else "pot"
    return f"side pot #{e.side}" if sides > 1 else "side pot"


def _result(e: SeatResult, w: _Writer, shown: dict[str, tuple[str, ...]]) -> str | None:
    head = f"Seat {e.seat}: {e.player}"
    a = w.amount
    if e.outcome is Outcome.FOLDED and e.street is not None:
        return f"{head} folded on {e.street.number}{_suffix(e.street.number)} St."
    if e.outcome is Outcome.COLLECTED:
        return f"{head} collected ({a(e.amount or 0)}), mucked"
    if e.outcome is Outcome.SHOWED_WON:
        return f"{head} showed {_cards(e.cards)} and won ({a(e.amount or 0)}) with " + (
            description(e.cards)
        )
    if e.outcome is Outcome.SHOWED_LOST:
        return f"{head} showed {_cards(e.cards)} and lost with {description(e.cards)}"
    if e.outcome is Outcome.MUCKED:
        return f"{head} mucked {_cards(e.cards)} - {description(e.cards)}"
    if e.outcome is Outcome.SAT_OUT:
        return f"{head} is sitting out"
    return None


def _suffix(n: int) -> str:
    return {2: "nd", 3: "rd"}.get(n, "th")


def write_file(
    name: str, hands: Sequence[tuple[HandHeader, Sequence[Event]]]
) -> list[WrittenFile]:
    """A table's hands as one Full Tilt file: UTF-16LE with a BOM, CRLF, three empty lines
    after every hand."""
    text, written = join_hands(
        [(h.hand_id, hand_lines(h, events)) for h, events in hands], newline="\r\n", gap=3, end=4
    )
    return [WrittenFile(name, ("\ufeff" + text).encode("utf-16-le"), tuple(written))]
