"""Winamax hand histories (FORMATS.md §3): the registry's entry (`SITE`), and the lines of
`grammar/winamax.lark` turned into neutral events.

The header states the ante with the bets (`Razz fixed limit (5€/25€/50€)`); amounts carry
the currency after the number; opponents' hidden cards are `X` (the neutral `??`). A
completion is written as a raise whose two amounts are equal (`raises 25€ to 25€`) and a
re-raise can read `raises -6.10€ to 18.90€`: the first amount is not the increment, so a
raise keeps its total only and the engine decides from the state whether it completes.

>>> from razz.parser.sites.base import RawHand
>>> hand = SITE.reader().read(RawHand("x.txt", 1, EXAMPLE))
>>> hand.header.ante, hand.header.small_bet, hand.header.currency
(500, 2500, 'EUR')
>>> [e.new for e in hand.events if type(e).__name__ == "Dealt"][:2]
[('4s', 'Ad', 'Td'), ('??', '??', '8h')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any

from razz.parser import events as ev
from razz.parser.amounts import CURRENCY_BY_SYMBOL, AmountError, to_units
from razz.parser.events import UNKNOWN_CARD
from razz.parser.lines import LineRecords, Record
from razz.parser.sites.base import Dialect, HandReader, SeatSummary, Site, action_tail
from razz.parser.sites.textsite import Amounts, Reader, TextParser
from razz.parser.timestamps import to_utc

NAME = "Winamax"
_ALL_IN = " and is all-in"
_GAME = re.compile(r" - (.+?) ((?i:fixed limit|no limit|pot limit|limit)) \($")
_AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?[$€£]?"
_TOURNAMENT = re.compile(r'Tournament "?(.*?)"?(?: buyIn: .*)? - HandId: #$')
_CARD_GROUPS = re.compile(r"\[([^\]]*)\]")
_SHOWS = re.compile(r" shows \[([^\]]*)\](?: \((.*)\))?$")
_SHOWED = re.compile(r" showed \[([^\]]*)\] and (?:won (" + _AMOUNT + r")|lost)(?: with (.*))?$")
_STREETS = {
    "street_3rd": ev.Street.THIRD,
    "street_4th": ev.Street.FOURTH,
    "street_5th": ev.Street.FIFTH,
    "street_6th": ev.Street.SIXTH,
    "street_7th": ev.Street.SEVENTH,
}
# Game names as Winamax writes them (FORMATS.md §3: `Razz`; play money `7stud`, `7stud8`).
_RAZZ = frozenset(("razz",))

EXAMPLE = """\
Winamax Poker - CashGame - HandId: #9250793-444-1478990340 - Razz fixed limit (5€/25€/50€) \
- 2016/11/12 22:39:00 UTC
Table: 'Pampelune' 6-max (real money)
Seat 1: Hero (1546.72€)
Seat 4: Player0 (664.56€)
*** ANTE/BLINDS ***
Hero posts ante 5€
Player0 posts ante 5€
*** 3rd STREET ***
Dealt to Hero [4s Ad Td]
Dealt to Player0 [X X 8h]
Hero brings in 10€
Player0 raises 25€ to 25€
Hero folds
Player0 collected 45€ from pot
*** SUMMARY ***
Total pot 45€ | No rake
Seat 4: Player0 won 45€
"""


def winamax_units(text: str, scale: int) -> int:
    """A Winamax amount (`5€`, `1546.72€`, `-6.10€`, play money `0.02`) in 1/`scale` units.

    >>> winamax_units("1546.72€", 100), winamax_units("0.02", 100)
    (154672, 2)
    """
    digits = text.strip("$€£")
    if not digits or not digits[0].isdigit():
        raise AmountError(f"not an amount: {text!r}")
    return to_units(digits, scale)


def _cards(text: str) -> tuple[str, ...]:
    return tuple(UNKNOWN_CARD if c == "X" else c for c in text.split(" "))


_tail = partial(action_tail, all_in=_ALL_IN)  # the site's all-in words


# ------------------------------------------------------------------ lines to records


class _Records(LineRecords):
    """Each line rule of `grammar/winamax.lark` to a `Record` (amounts stay text)."""

    def header_line(self, c: list[Any]) -> Record:
        _, kind, hand_id, game, stakes, when = c
        g = _GAME.match(str(game))
        assert g is not None  # GAME has this shape
        amounts = str(stakes)[: -len(") - ")].split("/")
        ante, small, big = amounts if len(amounts) == 3 else (None, *amounts)
        tournament = _TOURNAMENT.match(str(kind))
        return self.record(
            "header_line",
            {
                "hand_id": str(hand_id),
                "game": g.group(1),
                "limit": "Limit" if g.group(2).lower() == "fixed limit" else g.group(2).title(),
                "ante": ante,
                "small": small,
                "big": big,
                "tournament": tournament.group(1) if tournament else None,
                "when": str(when),
            },
        )

    def table_line(self, c: list[Any]) -> Record:
        name, max_seats, money, _ = c
        return self.record(
            "table_line",
            {
                "table": str(name)[8:-1],  # "Table: '" … "'"
                "max_seats": int(str(max_seats).strip()[:-4]) if max_seats else None,
                "play_money": money is not None and "play" in str(money),
            },
        )

    def seat_line(self, c: list[Any]) -> Record:
        seat_name, stack = c
        seat_no, _, name = str(seat_name).partition(": ")
        return self.record("seat_line", (name, int(seat_no[5:]), str(stack).strip()[1:-1]))

    def antes_blinds(self, c: list[Any]) -> Record:
        return self.record("antes_blinds", None)

    def ante(self, c: list[Any]) -> Record:
        return self.record("ante", (str(c[0]), *_tail(c[1], 12)), c[0])  # " posts ante "

    def street_3rd(self, c: list[Any]) -> Record:
        return self.record("street_3rd", None)

    def street_4th(self, c: list[Any]) -> Record:
        return self.record("street_4th", None)

    def street_5th(self, c: list[Any]) -> Record:
        return self.record("street_5th", None)

    def street_6th(self, c: list[Any]) -> Record:
        return self.record("street_6th", None)

    def street_7th(self, c: list[Any]) -> Record:
        return self.record("street_7th", None)

    def show_down(self, c: list[Any]) -> Record:
        return self.record("show_down", None)

    def dealt(self, c: list[Any]) -> Record:
        groups = [_cards(g) for g in _CARD_GROUPS.findall(str(c[1]))]
        previous, new = groups if len(groups) == 2 else ((), groups[0])
        return self.record("dealt", (str(c[0])[9:], previous, new), c[0])  # "Dealt to "

    def bring_in(self, c: list[Any]) -> Record:
        text = str(c[1])
        prefix = 11 if text.startswith(" brings in ") else 10  # " brings in " / " bring-in "
        return self.record("bring_in", (str(c[0]), *_tail(text, prefix)), c[0])

    def bet(self, c: list[Any]) -> Record:
        return self.record("bet", (str(c[0]), *_tail(c[1], 6)), c[0])  # " bets "

    def call(self, c: list[Any]) -> Record:
        return self.record("call", (str(c[0]), *_tail(c[1], 7)), c[0])  # " calls "

    def raise_to(self, c: list[Any]) -> Record:
        amounts, all_in = _tail(c[1], 8)  # " raises "
        to = amounts.rpartition(" to ")[2]
        return self.record("raise_to", (str(c[0]), to, all_in), c[0])

    def check(self, c: list[Any]) -> Record:
        return self.record("check", (str(c[0]),), c[0])

    def fold(self, c: list[Any]) -> Record:
        return self.record("fold", (str(c[0]),), c[0])

    def collected(self, c: list[Any]) -> Record:
        amount, _, label = str(c[1]).rstrip()[11:].partition(" from ")  # " collected "
        side = None
        if label.startswith("side pot"):
            number = re.search(r"\d+", label)
            side = int(number.group()) if number else 1
        return self.record("collected", (str(c[0]), amount, label, side), c[0])

    def shows(self, c: list[Any]) -> Record:
        m = _SHOWS.match(str(c[1]).rstrip())
        assert m is not None  # SHOWS has this shape
        return self.record("shows", (str(c[0]), _cards(m.group(1)), m.group(2)), c[0])

    def summary(self, c: list[Any]) -> Record:
        return self.record("summary", None)

    def total_pot(self, c: list[Any]) -> Record:
        head, _, rake = str(c[0]).rstrip()[10:].partition(" | ")  # "Total pot "
        return self.record("total_pot", (head, rake[5:] if rake.startswith("Rake ") else None))

    def _result(self, kind: str, c: list[Any], fields: tuple[Any, ...]) -> Record:
        seat, _, name = str(c[0]).partition(": ")
        return self.record(kind, (name, int(seat[5:]), *fields), c[0])

    def won_result(self, c: list[Any]) -> Record:
        return self._result("won_result", c, (str(c[1]).strip()[4:],))  # "won "

    def showed_won_result(self, c: list[Any]) -> Record:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_WON has this shape
        return self._result("showed_won_result", c, (_cards(m.group(1)), m.group(2), m.group(3)))

    def showed_lost_result(self, c: list[Any]) -> Record:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_LOST has this shape
        return self._result("showed_lost_result", c, (_cards(m.group(1)), m.group(3)))


# ------------------------------------------------------------------ records to events


class _Builder:
    """Winamax's records as the neutral events."""

    def game(self, header: Any) -> tuple[str, str]:
        return header["hand_id"], header["game"]

    def is_razz(self, game: str) -> bool:
        return game.lower() in _RAZZ

    def build(
        self, records: Sequence[Record], texts: Sequence[str], source: str, first_line: int
    ) -> tuple[ev.HandHeader, list[ev.Event]]:
        h, table = records[0].payload, records[1].payload
        symbol = next((ch for ch in h["small"] if ch in "$€£"), None)
        currency = CURRENCY_BY_SYMBOL.get(symbol) if symbol else None
        tournament = h["tournament"] is not None
        # Cash games count cents (play money has decimals too); tournaments count chips.
        unit = ev.Unit.CHIP if tournament else ev.Unit.CENT
        amount = Amounts(1 if tournament else 100, texts, winamax_units)
        when = h["when"]
        header = ev.HandHeader(
            site=NAME,
            hand_id=h["hand_id"],
            game=h["game"],
            is_razz=True,
            mixed=None,  # the mix is named only in the file name (FORMATS.md §3)
            limit=h["limit"],
            kind=ev.GameKind.TOURNAMENT if tournament else ev.GameKind.CASH,
            small_bet=amount(h["small"]),
            big_bet=amount(h["big"]),
            ante=amount.optional(h["ante"]),
            bring_in=None,
            unit=unit,
            currency=currency,
            play_money=table["play_money"],
            table=table["table"],
            max_seats=table["max_seats"],
            tournament_id=h["tournament"],
            buy_in=(),
            level=None,
            match_round=None,
            club=None,
            started_at=to_utc(when if when[-1].isalpha() else when + " UTC"),
            started_text=when,
            time_zone=when.rsplit(" ", 1)[1] if when[-1].isalpha() else "UTC",
            source=source,
            first_line=first_line,
        )
        events: list[ev.Event] = []
        street = ev.Street.THIRD
        for i, r in enumerate(records):
            if i < 2:
                continue
            amount.index = i
            line = first_line + i
            kind, p = r.kind, r.payload
            if kind in _STREETS:
                street = _STREETS[kind]
                events.append(ev.StreetStart(line, street))
            elif kind == "dealt":
                name, previous, new = p
                # A line that shows every card is the file owner's (or a hand shown all-in).
                hero = UNKNOWN_CARD not in previous and UNKNOWN_CARD not in new
                events.append(ev.Dealt(line, name, street, previous, new, hero))
            elif kind != "antes_blinds":
                events.append(_EVENT[kind](line, p, amount))
        return header, events


_EVENT: dict[str, Any] = {
    "seat_line": lambda line, p, a: ev.SeatLine(line, p[0], p[1], a(p[2])),
    "ante": lambda line, p, a: ev.PostAnte(line, p[0], a(p[1]), p[2]),
    "show_down": lambda line, p, a: ev.ShowDown(line),
    "bring_in": lambda line, p, a: ev.BringIn(line, p[0], a(p[1]), p[2]),
    "bet": lambda line, p, a: ev.Bet(line, p[0], a(p[1]), p[2]),
    "call": lambda line, p, a: ev.Call(line, p[0], a(p[1]), p[2]),
    "raise_to": lambda line, p, a: ev.Raise(line, p[0], a(p[1]), None, p[2]),
    "check": lambda line, p, a: ev.Check(line, p[0]),
    "fold": lambda line, p, a: ev.Fold(line, p[0]),
    "collected": lambda line, p, a: ev.Collect(line, p[0], a(p[1]), p[2], p[3]),
    "shows": lambda line, p, a: ev.Show(line, p[0], p[1], p[2]),
    "summary": lambda line, p, a: ev.Summary(line),
    "total_pot": lambda line, p, a: ev.TotalPot(line, a(p[0]), a(p[1]) if p[1] else 0),
    "won_result": lambda line, p, a: ev.SeatResult(
        line, p[0], p[1], ev.Outcome.COLLECTED, amount=a(p[2])
    ),
    "showed_won_result": lambda line, p, a: ev.SeatResult(
        line, p[0], p[1], ev.Outcome.SHOWED_WON, cards=p[2], amount=a(p[3]), description=p[4]
    ),
    "showed_lost_result": lambda line, p, a: ev.SeatResult(
        line, p[0], p[1], ev.Outcome.SHOWED_LOST, cards=p[2], description=p[3]
    ),
}


@lru_cache(maxsize=1)
def default_parser() -> TextParser:
    """One parser per process: the grammar is built (or loaded from Lark's cache) once."""
    return TextParser("winamax", _Records, _Builder())


# ------------------------------------------------------------------ the registry's entry

_HEADER = re.compile(r"Winamax Poker\b")
_WON = re.compile(r"^Seat \d+: .+ won -?[\d.,]+(\S*)(?: with .+)?[ \t]*$", re.M)
_CURRENCY = re.compile(r"\(([\d.,]+)(\D*)/")


class Winamax(Site):
    name = NAME
    title = "Winamax"
    header_bytes = (b"Winamax Poker ",)
    ruleset = "winamax"
    # FORMATS.md §3: the summary lists the winners only (`Seat 4: Player0 won 258€`); a bet
    # nobody called goes back with no line (`Player0 bets 50€`, `Hero folds`, `Player0
    # collected 258€`); a completion reads `raises 25€ to 25€` and a re-raise can read
    # `raises -6.10€ to 18.90€`: the increment is not one; no cap line, no all-in mark and no
    # Razz hand description is known. The bet nobody called is not given back: it stays in
    # the pot the winner collects, and `Total pot` is that pot after the rake (the real hand:
    # 260€ put in, `Player0 bets 50€`, `Hero folds`, `Player0 collected 258€ from pot`,
    # `Total pot 258€ | Rake 2€`).
    dialect = Dialect(
        cap_line=False,
        all_in_marked=False,
        uncalled_line=False,
        seat_summary=SeatSummary.WINNERS,
        didnt_bet=False,
        lo_description=False,
        raise_increments=False,
        uncalled_in_pot=True,
        total_after_rake=True,
        others_down_cards="all-in",  # a hand shown all-in is written whole on its `Dealt` lines
    )

    def recognises(self, line: str) -> bool:
        """`Winamax Poker - CashGame - HandId: #…` and the tournament form.

        >>> SITE.recognises("Winamax Poker - CashGame - HandId: #9-4-1 - Razz fixed limit (5€/25€/50€)")
        True
        """
        return _HEADER.match(line) is not None

    def reader(self) -> HandReader:
        return Reader(default_parser())

    def complete(self, text: str) -> bool:
        """A summary with its total pot and a winner (Winamax lists the winners only; its
        files end without a final line end, so the line end proves nothing)."""
        _, marker, summary = text.partition("*** SUMMARY ***")
        if not marker or "Total pot " not in summary:
            return False
        # A winner's amount carries the currency of the stakes (`won 258€`): a line cut in
        # its amount does not.
        stakes = _CURRENCY.search(text.split("\n", 1)[0])
        currency = stakes.group(2) if stakes else ""
        return any(m.group(1) == currency for m in _WON.finditer(summary))


SITE = Winamax()
