"""Write hands back as PokerStars text, byte for byte as PokerStars writes them.

The writer is the inverse of the PokerStars reader beside it (`razz.parser.sites.pokerstars`): a `HandHeader` and the hand's events
become the hand's lines, trailing spaces included on the line types that PokerStars ends
with a space (FORMATS.md §0): seat lines, `checks`, `folds`, `Total pot … | Rake …`,
`mucks hand`, `doesn't show hand`, `joins the table`, `is (dis)connected`, `sits out` and
`collected … from side pot-N`. It writes what the events say and checks nothing: the
simulator uses it to write legal hands and, on purpose, illegal ones.

PokerStars prints neither hidden cards nor a completion as such: a `Dealt` line shows only
the cards that are not `UNKNOWN_CARD`, a `Complete` is written as PokerStars writes a
completion (`raises 35 to 50` after a bring-in, `bets 50` without one), and amounts a site
leaves out (a raise's increment, a PHH bring-in or call, a total pot) are worked out from the
hand's betting so far.

>>> from razz.parser.events import Fold, Raise
>>> w = HandWriter(unit=Unit.CENT, currency="USD")
>>> w.line(Raise(line=0, player="PC [Mittel]", to=4, amount=2))
'PC [Mittel]: raises $0.02 to $0.04'
>>> w.line(Fold(line=0, player="Hero"))
'Hero: folds '
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from razz.parser.amounts import CURRENCY_SYMBOLS, format_cents
from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BettingCapped,
    Board,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    GameKind,
    HandCancelled,
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
    TournamentFinish,
    TournamentWin,
    UncalledBet,
    Unit,
)

Newline = Literal["\n", "\r\n"]

HANDS_SEPARATOR_BLANK_LINES = 3
"""PokerStars follows every hand of a file, the last one included, with three empty lines."""

# How the summary names the street a player folded on.
_FOLD_STREET: dict[Street, str] = {
    Street.THIRD: "the 3rd Street",
    Street.FOURTH: "the 4th Street",
    Street.FIFTH: "the 5th Street",
    Street.SIXTH: "the 6th Street",
    Street.SEVENTH: "the River",
}

_STREET_MARKER: dict[Street, str] = {
    Street.THIRD: "*** 3rd STREET ***",
    Street.FOURTH: "*** 4th STREET ***",
    Street.FIFTH: "*** 5th STREET ***",
    Street.SIXTH: "*** 6th STREET ***",
    Street.SEVENTH: "*** RIVER ***",
}

# Noise lines that PokerStars ends with a space (FORMATS.md §0 and §1.13).
_NOISE_WITH_TRAILING_SPACE = frozenset(
    {NoiseKind.JOINS, NoiseKind.CONNECTED, NoiseKind.DISCONNECTED, NoiseKind.SITS_OUT}
)

_ALL_IN = " and is all-in"


def format_buy_in(parts: Sequence[int], symbol: str) -> str:
    """A tournament buy-in: `$200+$15`, but `$2.00+$0.20` as soon as one part has cents.

    >>> format_buy_in((20000, 1500), "$"), format_buy_in((200, 20), "$")
    ('$200+$15', '$2.00+$0.20')
    >>> format_buy_in((100, 9), "")
    '100+9'
    """
    if not symbol:  # play chips (home games): the parts are plain integers
        return "+".join(str(part) for part in parts)
    if all(part % 100 == 0 for part in parts):
        return "+".join(f"{symbol}{part // 100}" for part in parts)
    return "+".join(f"{symbol}{part // 100}.{part % 100:02d}" for part in parts)


def _cards(cards: Sequence[str]) -> str:
    return "[" + " ".join(cards) + "]"


_HIDDEN_DOWN = (UNKNOWN_CARD, UNKNOWN_CARD)


def _visible(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The cards a PokerStars line prints: hidden ones are left out (all of them, if none shows)."""
    if cards[:2] == _HIDDEN_DOWN:  # an opponent's line: the two down cards are hidden
        cards = cards[2:] or cards
    if UNKNOWN_CARD not in cards:
        return cards
    return tuple(c for c in cards if c != UNKNOWN_CARD) or cards


class _Betting:
    """The betting of the street being written: what a wager must say that its event may not.

    PokerStars prints every amount and writes a completion as a raise (or a bet); other sites'
    events may leave amounts out (PHH, KingsClub's total pot) or be a `Complete` (Full Tilt).
    """

    __slots__ = ("bring_in", "level", "pot", "put")

    def __init__(self, bring_in: int | None = None) -> None:
        self.bring_in = bring_in  # the header's, for a bring-in written without an amount
        self.level = 0  # the street total to match
        self.put: dict[str, int] = {}  # each player's street total
        self.pot = 0  # antes and the streets before this one, less what was returned

    def fill(self, e: Event) -> Event:
        """`e` with every amount PokerStars prints (a completion as a raise or a bet)."""
        filler = _FILLERS.get(type(e))
        return e if filler is None else filler(self, e)

    def _street(self, e: StreetStart) -> Event:
        self.pot += sum(self.put.values())
        self.level, self.put = 0, {}
        return e

    def _ante(self, e: PostAnte) -> Event:
        self.pot += e.amount
        return e

    def _uncalled(self, e: UncalledBet) -> Event:
        self.pot -= e.amount
        return e

    def _total(self, e: TotalPot) -> Event:
        if e.total is None:
            e = replace(e, total=self.pot + sum(self.put.values()))
        return e

    def _bring_in(self, e: BringIn) -> Event:
        if e.amount is None:
            e = replace(e, amount=self.bring_in or 0)
        self._put(e.player, e.amount or 0)
        return e

    def _bet(self, e: Bet) -> Event:
        self._put(e.player, self.put.get(e.player, 0) + e.amount)
        return e

    def _call(self, e: Call) -> Event:
        before = self.put.get(e.player, 0)
        if e.amount is None:
            e = replace(e, amount=max(0, self.level - before))
        self._put(e.player, before + (e.amount or 0))
        return e

    def _complete(self, e: Complete) -> Event:
        to, level, before = e.to, self.level, self.put.get(e.player, 0)
        self._put(e.player, to)
        if level:
            return Raise(e.line, e.player, to=to, amount=to - level, all_in=e.all_in)
        return Bet(e.line, e.player, to - before, e.all_in)

    def _raise(self, e: Raise) -> Event:
        if e.amount is None:
            e = replace(e, amount=e.to - self.level)
        self._put(e.player, e.to)
        return e

    def _put(self, player: str, total: int) -> None:
        self.put[player] = total
        if total > self.level:
            self.level = total


class _Unwritten(Exception):
    """A wager without what PokerStars prints: its text depends on the betting before it."""


_FILLERS: dict[type[Event], Callable[[_Betting, Any], Event]] = {
    StreetStart: _Betting._street,
    PostAnte: _Betting._ante,
    UncalledBet: _Betting._uncalled,
    TotalPot: _Betting._total,
    BringIn: _Betting._bring_in,
    Bet: _Betting._bet,
    Call: _Betting._call,
    Complete: _Betting._complete,
    Raise: _Betting._raise,
}


class _AmountTexts(dict[int, str]):
    """Amount -> text, formatted once: a table writes the same few amounts again and again."""

    __slots__ = ("symbol",)

    def __init__(self, symbol: str) -> None:
        super().__init__()
        self.symbol = symbol

    def __missing__(self, amount: int) -> str:
        text = format_cents(amount, self.symbol) if self.symbol else str(amount)
        if len(self) < 100_000:
            self[amount] = text
        return text


@dataclass(frozen=True, slots=True)
class HandWriter:
    """Formats the lines of hands that share a unit and currency (one table, one file)."""

    unit: Unit
    currency: str | None
    amount: Callable[[int], str] = field(init=False, repr=False, compare=False)
    """An amount in the hand's unit, as the body of a hand prints it (`$0.04`, `$2`, `150`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", _AmountTexts(self.symbol).__getitem__)

    @classmethod
    def for_header(cls, header: HandHeader) -> HandWriter:
        """The writer for the amounts of this hand's header."""
        return cls(unit=header.unit, currency=header.currency)

    @property
    def symbol(self) -> str:
        if self.unit is Unit.CHIP or self.currency is None:
            return ""
        return CURRENCY_SYMBOLS.get(self.currency, "")

    # ------------------------------------------------------------------ header

    def header_line(self, header: HandHeader, label: str = "Hand") -> str:
        """The first line of a hand; `label` is the word after `PokerStars` (`Game` before ~2011).

        A cash header has two spaces after the colon, a tournament header one (FORMATS §1.2).
        """
        game = f"{header.game} {header.limit}"
        code = f" {header.currency}" if header.currency and not header.play_money else ""
        if header.kind is GameKind.CASH:
            stakes = f"{self.amount(header.small_bet)}/{self.amount(header.big_bet)}{code}"
            body = f"{header.mixed} ({game}, {stakes})" if header.mixed else f"{game} ({stakes})"
            return f"{header.site} {label} #{header.hand_id}:  {body} - {header.started_text}"
        # Tournament: chips for the stakes, the currency for the buy-in.
        symbol = CURRENCY_SYMBOLS.get(header.currency, "") if header.currency else ""
        buy_in = format_buy_in(header.buy_in, symbol) if header.buy_in else "Freeroll"
        game_text = f"{header.mixed} ({game})" if header.mixed else game
        club = f"{{{header.club}}} " if header.club else ""
        round_ = f"Match Round {header.match_round}, " if header.match_round else ""
        level = f"Level {header.level} " if header.level else ""
        stakes = f"({header.small_bet}/{header.big_bet})"
        site = f"{header.site} Home Game" if header.club else header.site
        return (
            f"{site} {label} #{header.hand_id}: {club}Tournament #{header.tournament_id}, "
            f"{buy_in}{code} {game_text} - {round_}{level}{stakes} - {header.started_text}"
        )

    @staticmethod
    def table_line(header: HandHeader) -> str:
        """`Table 'Gotha II' 8-max` (stud tables have no button clause)."""
        max_seats = f" {header.max_seats}-max" if header.max_seats else ""
        play_money = " (Play Money)" if header.play_money else ""
        return f"Table '{header.table}'{max_seats}{play_money}"

    # ------------------------------------------------------------------ events

    def line(self, event: Event) -> str:
        """The text of one event's line, without its line ending.

        Amounts the event leaves out are worked out as at the start of a street; write whole
        hands with `hand_lines`, which follows the betting.
        """
        event = _Betting().fill(event)
        return _FORMATTERS[type(event)](self, event)

    def _seat(self, e: SeatLine) -> str:
        chips = f"{self.amount(e.stack)} in chips"
        if e.bounty is not None:
            chips += f", {e.bounty} bounty"
        if e.sitting_out:
            return f"Seat {e.seat}: {e.player} ({chips}) is sitting out"
        if e.out_of_hand:
            # The reason is not kept in the event; this is the only one seen in real files.
            return (
                f"Seat {e.seat}: {e.player} ({chips}) out of hand"
                " (moved from another table into small blind)"
            )
        return f"Seat {e.seat}: {e.player} ({chips}) "

    def _ante(self, e: PostAnte) -> str:
        return f"{e.player}: posts the ante {self.amount(e.amount)}{_ALL_IN if e.all_in else ''}"

    def _street(self, e: StreetStart) -> str:
        marker = _STREET_MARKER[e.street]
        return f"{marker} [{e.community}]" if e.community else marker

    def _dealt(self, e: Dealt) -> str:
        previous, new = e.previous, e.new
        if not e.hero:  # the file owner sees every card; the others show their up cards
            previous, new = _visible(previous), _visible(new)
        if previous:
            return f"Dealt to {e.player} {_cards(previous)} {_cards(new)}"
        return f"Dealt to {e.player} {_cards(new)}"

    def _bring_in(self, e: BringIn) -> str:
        if e.amount is None:
            raise _Unwritten
        return f"{e.player}: brings in for {self.amount(e.amount)}{_ALL_IN if e.all_in else ''}"

    def _bet(self, e: Bet) -> str:
        return f"{e.player}: bets {self.amount(e.amount)}{_ALL_IN if e.all_in else ''}"

    def _call(self, e: Call) -> str:
        if e.amount is None:
            raise _Unwritten
        return f"{e.player}: calls {self.amount(e.amount)}{_ALL_IN if e.all_in else ''}"

    def _raise(self, e: Raise) -> str:
        if e.amount is None:
            raise _Unwritten
        tail = _ALL_IN if e.all_in else ""
        return f"{e.player}: raises {self.amount(e.amount)} to {self.amount(e.to)}{tail}"

    def _complete(self, e: Complete) -> str:
        raise _Unwritten  # PokerStars writes a completion as a raise or a bet

    def _check(self, e: Check) -> str:
        return f"{e.player}: checks "

    def _fold(self, e: Fold) -> str:
        return f"{e.player}: folds "

    def _capped(self, e: BettingCapped) -> str:
        return "Betting is capped"

    def _uncalled(self, e: UncalledBet) -> str:
        return f"Uncalled bet ({self.amount(e.amount)}) returned to {e.player}"

    def _show_down(self, e: ShowDown) -> str:
        return "*** SHOW DOWN ***"

    def _show(self, e: Show) -> str:
        if e.description is None:
            return f"{e.player}: shows {_cards(e.cards)}"
        return f"{e.player}: shows {_cards(e.cards)} ({e.description})"

    def _muck(self, e: Muck) -> str:
        return f"{e.player}: mucks hand "

    def _no_show(self, e: NoShow) -> str:
        return f"{e.player}: doesn't show hand "

    def _collect(self, e: Collect) -> str:
        # Only the numbered side pots (`side pot-1`) carry PokerStars' trailing space.
        tail = " " if e.pot_label.startswith("side pot-") else ""
        return f"{e.player} collected {self.amount(e.amount)} from {e.pot_label}{tail}"

    def _finish(self, e: TournamentFinish) -> str:
        prize = f" and received {e.prize}." if e.prize else ""
        return f"{e.player} finished the tournament in {_ordinal(e.place)} place{prize}"

    def _win(self, e: TournamentWin) -> str:
        return f"{e.player} wins the tournament and receives {e.prize} - congratulations!"

    def _cancelled(self, e: HandCancelled) -> str:
        return "Hand cancelled"

    def _summary(self, e: Summary) -> str:
        return "*** SUMMARY ***"

    def _total(self, e: TotalPot) -> str:
        pots = ""
        if e.main is not None:
            pots = f" Main pot {self.amount(e.main)}."
            if len(e.sides) == 1:
                pots += f" Side pot {self.amount(e.sides[0])}."
            else:
                pots += "".join(
                    f" Side pot-{i} {self.amount(side)}." for i, side in enumerate(e.sides, 1)
                )
        if e.total is None:  # a site that gives only the rake: PokerStars always writes both
            raise _Unwritten
        return f"Total pot {self.amount(e.total)}{pots} | Rake {self.amount(e.rake)} "

    def _board(self, e: Board) -> str:
        return f"Board {_cards(e.cards)}"

    def _seat_result(self, e: SeatResult) -> str:
        head = f"Seat {e.seat}: {e.player}"
        outcome = e.outcome
        if outcome is Outcome.FOLDED:
            where = _FOLD_STREET[e.street] if e.street else "the 3rd Street"
            didnt_bet = " (didn't bet)" if e.didnt_bet else ""
            return f"{head} folded on {where}{didnt_bet}"
        if outcome is Outcome.COLLECTED:
            return f"{head} collected ({self.amount(e.amount or 0)})"
        if outcome is Outcome.MUCKED:
            return f"{head} mucked {_cards(e.cards)}"
        with_ = f" with {e.description}" if e.description else ""
        if outcome is Outcome.SHOWED_WON:
            return f"{head} showed {_cards(e.cards)} and won ({self.amount(e.amount or 0)}){with_}"
        return f"{head} showed {_cards(e.cards)} and lost{with_}"

    def _noise(self, e: Noise) -> str:
        text = e.text.rstrip(" ")
        return text + " " if e.kind in _NOISE_WITH_TRAILING_SPACE else text

    # ------------------------------------------------------------------ hands

    def hand_lines(
        self, header: HandHeader, events: Iterable[Event], label: str = "Hand"
    ) -> list[str]:
        """Every line of one hand, header and table line first, without line endings."""
        lines = [self.header_line(header, label), self.table_line(header)]
        formatters = _FORMATTERS
        events = events if isinstance(events, list | tuple) else list(events)
        try:
            lines.extend(formatters[type(event)](self, event) for event in events)
            return lines
        except _Unwritten:  # a wager states less than PokerStars prints: follow the betting
            del lines[2:]
        fillers, betting, add = _FILLERS, _Betting(header.bring_in), lines.append
        for event in events:
            filler = fillers.get(type(event))
            if filler is not None:
                event = filler(betting, event)
            add(formatters[type(event)](self, event))
        return lines


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


# Each formatter takes the one event class it is registered for: dispatch is on type(event).
_FORMATTERS: dict[type[Event], Callable[[HandWriter, Any], str]] = {
    SeatLine: HandWriter._seat,
    PostAnte: HandWriter._ante,
    StreetStart: HandWriter._street,
    Dealt: HandWriter._dealt,
    BringIn: HandWriter._bring_in,
    Bet: HandWriter._bet,
    Call: HandWriter._call,
    Raise: HandWriter._raise,
    Complete: HandWriter._complete,
    Check: HandWriter._check,
    Fold: HandWriter._fold,
    BettingCapped: HandWriter._capped,
    UncalledBet: HandWriter._uncalled,
    ShowDown: HandWriter._show_down,
    Show: HandWriter._show,
    Muck: HandWriter._muck,
    NoShow: HandWriter._no_show,
    Collect: HandWriter._collect,
    TournamentFinish: HandWriter._finish,
    TournamentWin: HandWriter._win,
    HandCancelled: HandWriter._cancelled,
    Summary: HandWriter._summary,
    TotalPot: HandWriter._total,
    Board: HandWriter._board,
    SeatResult: HandWriter._seat_result,
    Noise: HandWriter._noise,
}


def write_hand(
    header: HandHeader, events: Iterable[Event], *, newline: Newline = "\n", label: str = "Hand"
) -> str:
    """One hand as PokerStars text: every line ends with `newline`; no blank lines after it.

    >>> from datetime import datetime, timezone
    >>> from razz.parser.events import GameKind, HandHeader, SeatLine, Unit
    >>> h = HandHeader(site="PokerStars", hand_id="1", game="Razz", is_razz=True, mixed=None,
    ...     limit="Limit", kind=GameKind.CASH, small_bet=4, big_bet=8, unit=Unit.CENT,
    ...     ante=None, bring_in=None, currency="USD", play_money=False, table="Gotha II",
    ...     max_seats=8,
    ...     tournament_id=None, buy_in=(), level=None, match_round=None, club=None,
    ...     started_at=datetime(2009, 11, 26, 15, 24, 42, tzinfo=timezone.utc),
    ...     started_text="2009/11/26 10:24:42 ET", time_zone="ET", source="-", first_line=1)
    >>> print(write_hand(h, [SeatLine(line=3, player="kobreli", seat=1, stack=133)],
    ...                  label="Game").replace(" \\n", "·\\n"), end="")
    PokerStars Game #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
    Table 'Gotha II' 8-max
    Seat 1: kobreli ($1.33 in chips)·
    """
    writer = HandWriter.for_header(header)
    return newline.join(writer.hand_lines(header, events, label)) + newline


def write_hands(
    hands: Iterable[tuple[HandHeader, Sequence[Event]]],
    *,
    newline: Newline = "\n",
    label: str = "Hand",
) -> str:
    """Several hands as one PokerStars file; every hand, the last too, ends with 3 empty lines."""
    gap = newline * (HANDS_SEPARATOR_BLANK_LINES + 1)
    parts: list[str] = []
    writer: HandWriter | None = None
    for header, events in hands:
        if writer is None or writer.unit is not header.unit or writer.currency != header.currency:
            writer = HandWriter.for_header(header)
        parts.append(newline.join(writer.hand_lines(header, events, label)))
        parts.append(gap)
    return "".join(parts)
