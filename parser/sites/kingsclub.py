"""KingsClub hand histories (FORMATS.md §5): the registry's entry (`SITE`), and the lines of
`grammar/kingsclub.lark` turned into neutral events.

One hand per file. `2-7 Razz` (deuce-to-seven low: aces high, straights and flushes count) is
another game: its hands are skipped with that reason. Street labels: the 2021 files deal 3rd
street with no marker and label each later street one too low (`*** 3RD STREET ***` is 4th
street); the 2022 files label them as they are. Which one a hand is, is read from the hand:
cards dealt before the first marker mean the shifted labels. Later streets show only the new
card, opponents' hidden cards are `X` (the neutral `??`), a completion is written `bets`
(the first one over the bring-in on 3rd street is read as the `Complete` it is), a call
gives the caller's street total (read as what the call adds), and amounts have thousands
commas.

>>> from razz.parser.sites.base import RawHand
>>> hand = SITE.reader().read(RawHand("x.txt", 1, EXAMPLE))
>>> [(e.street.value, e.line) for e in hand.events if type(e).__name__ == "StreetStart"]
[('3rd', 8), ('4th', 13)]
>>> SITE.reader().read(RawHand("x.txt", 1, EXAMPLE.replace("Limit Razz", "Limit 2-7 Razz"))).reason
'2-7 Razz is not Razz'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache, partial
from typing import Any

from razz.parser import events as ev
from razz.parser.amounts import to_units
from razz.parser.events import UNKNOWN_CARD
from razz.parser.lines import Record
from razz.parser.sites.base import Dialect, HandReader, SeatSummary, Site, action_tail
from razz.parser.sites.textsite import Amounts, LineProblem, PlayerActions, Reader, TextParser

NAME = "KingsClub"
_ALL_IN = ", and is all in"
_GAME = re.compile(r"(Limit|No Limit|Pot Limit) (.+?) - $")
_CARD_GROUP = re.compile(r"\[([^\]]*)\]")
_WINS = re.compile(
    r" wins (?:(pot|main pot|side pot(?: (\d+))?) \(([^)]*)\)"
    r"|\(([^)]*)\) from (pot|main pot|side pot(?: (\d+))?))$"
)
_MARKERS = ("street_3rd", "street_4th", "street_5th", "street_6th", "street_7th")

EXAMPLE = """\
#39969356: Limit Razz - 40/80
2021-01-02 15:48:40
Table '8 Game Mix'
Seat 1: Player0 (1,060.38)
Seat 6: Hero (2,058.40)
Player0: posts ante 10
Hero: posts ante 10
Dealt to Player0: [X X Tc]
Dealt to Hero: [9d 3h 6d]
Player0 brings in for 10
Hero bets 40
Player0 calls 40
*** 3RD STREET ***
Dealt to Player0: [Qs]
Dealt to Hero: [2c]
Hero bets 40
Player0 folds
*** SUMMARY ***
Seat 1: Player0 (1,010.38) -50
Seat 6: Hero (2,107.40) +49
Rake 1
Hero wins pot (99)
"""


def _cards(text: str) -> tuple[str, ...]:
    return tuple(UNKNOWN_CARD if c == "X" else c for c in text.split(" "))


_tail = partial(action_tail, all_in=_ALL_IN)  # the site's all-in words


# ------------------------------------------------------------------ lines to records


class _Records(PlayerActions):
    """Each line rule of `grammar/kingsclub.lark` to a `Record` (amounts stay text)."""

    all_in = _ALL_IN

    def header_line(self, c: list[Any]) -> Record:
        hand_id, game, stakes = c
        g = _GAME.match(str(game))
        assert g is not None  # GAME has this shape
        small, _, big = str(stakes).partition("/")
        return self.record(
            "header_line",
            {
                "hand_id": str(hand_id)[1:-2],  # "#" … ": "
                "limit": g.group(1),
                "game": g.group(2),
                "small": small,
                "big": big,
            },
        )

    def date_line(self, c: list[Any]) -> Record:
        return self.record("date_line", str(c[0]))

    def table_line(self, c: list[Any]) -> Record:
        return self.record("table_line", str(c[0])[7:-1])  # "Table '" … "'"

    def seat_line(self, c: list[Any]) -> Record:
        seat_name, stack = c
        seat_no, _, name = str(seat_name).partition(": ")
        return self.record("seat_line", (name, int(seat_no[5:]), str(stack).strip()[1:-1]))

    def ante(self, c: list[Any]) -> Record:
        return self.record("ante", (str(c[0]), *_tail(c[1], 13)), c[0])  # ": posts ante "

    def street_3rd(self, c: list[Any]) -> Record:
        return self.record("street_3rd", 3)

    def street_4th(self, c: list[Any]) -> Record:
        return self.record("street_4th", 4)

    def street_5th(self, c: list[Any]) -> Record:
        return self.record("street_5th", 5)

    def street_6th(self, c: list[Any]) -> Record:
        return self.record("street_6th", 6)

    def street_7th(self, c: list[Any]) -> Record:
        return self.record("street_7th", 7)

    def dealt(self, c: list[Any]) -> Record:
        cards = _CARD_GROUP.search(str(c[1])).group(1)  # type: ignore[union-attr]
        return self.record("dealt", (str(c[0])[9:], _cards(cards)), c[0])  # "Dealt to "

    def shows(self, c: list[Any]) -> Record:
        cards = _CARD_GROUP.search(str(c[1])).group(1)  # type: ignore[union-attr]
        return self.record("shows", (str(c[0]), _cards(cards)), c[0])

    def summary(self, c: list[Any]) -> Record:
        return self.record("summary", None)

    def stack_result(self, c: list[Any]) -> Record:
        seat, _, name = str(c[0]).partition(": ")
        stack, _, net = str(c[1]).strip()[1:].partition(") ")
        return self.record("stack_result", (name, int(seat[5:]), stack, net), c[0])

    def rake(self, c: list[Any]) -> Record:
        return self.record("rake", str(c[0]).strip()[5:])  # "Rake "

    def wins(self, c: list[Any]) -> Record:
        m = _WINS.match(str(c[1]).rstrip())
        assert m is not None  # WINS has this shape
        label, number, amount = (
            (m.group(1), m.group(2), m.group(3))
            if m.group(1)
            else (m.group(5), m.group(6), m.group(4))
        )
        side = int(number) if number else (1 if label.startswith("side") else None)
        return self.record("wins", (str(c[0]), amount, label, side), c[0])


# ------------------------------------------------------------------ records to events


class _Builder:
    """KingsClub's records as the neutral events."""

    def game(self, header: Any) -> tuple[str, str]:
        return header["hand_id"], header["game"]

    def is_razz(self, game: str) -> bool:
        return game.lower() == "razz"

    def build(
        self, records: Sequence[Record], texts: Sequence[str], source: str, first_line: int
    ) -> tuple[ev.HandHeader, list[ev.Event]]:
        h = records[0].payload
        when = records[1].payload
        try:  # the grammar reads the digits; the calendar says whether they are a date
            started = datetime.strptime(when, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        except ValueError:
            raise LineProblem(f"{when!r} is not a date and time", 2) from None
        # Amounts have cents (`1,060.38`) and no currency (USD, says only the file name).
        amount = Amounts(100, texts, to_units)
        header = ev.HandHeader(
            site=NAME,
            hand_id=h["hand_id"],
            game=h["game"],
            is_razz=True,
            mixed=None,  # the mix is the table's name (`8 Game Mix`), not a field
            limit=h["limit"],
            kind=ev.GameKind.CASH,
            small_bet=amount(h["small"]),
            big_bet=amount(h["big"]),
            ante=None,
            bring_in=None,
            unit=ev.Unit.CENT,
            currency=None,
            play_money=False,
            table=records[2].payload,
            max_seats=None,
            tournament_id=None,
            buy_in=(),
            level=None,
            match_round=None,
            club=None,
            # No zone is written: the clock is read as UTC.
            started_at=started,
            started_text=when,
            time_zone="UTC",
            source=source,
            first_line=first_line,
        )
        # The 2021 labels: cards dealt before the first street marker (3rd street unmarked).
        first_marker = next((i for i, r in enumerate(records) if r.kind in _MARKERS), len(records))
        shifted = any(r.kind == "dealt" for r in records[:first_marker])
        events: list[ev.Event] = []
        street: ev.Street | None = None
        hero: str | None = None  # the file owner: the player whose 3rd-street cards all show
        brought_in = opened = False  # on 3rd street: the bring-in posted, a wager over it
        street_bet: dict[str, int] = {}  # what each player has put in on this street
        for i, r in enumerate(records):
            if i < 3:
                continue
            amount.index = i
            line = first_line + i
            kind, p = r.kind, r.payload
            if kind in _MARKERS:
                number = p + 1 if shifted else p
                if number > 7:
                    raise LineProblem(
                        f"{texts[i].strip()} comes after 7th street: these labels are one"
                        " street behind (3rd street was dealt with no marker)",
                        i + 1,
                    )
                street = ev.STREETS[number - 3]
                events.append(ev.StreetStart(line, street))
                street_bet = {}
            elif kind == "dealt":
                if street is None:  # the unmarked 3rd street begins with its first card
                    street = ev.Street.THIRD
                    events.append(ev.StreetStart(line, street))
                name, cards = p
                if street is ev.Street.THIRD:
                    shown = UNKNOWN_CARD not in cards
                    if shown and hero is None:
                        hero = name
                    events.append(ev.Dealt(line, name, street, (), cards, shown))
                else:  # the new card only: the earlier ones are not repeated
                    events.append(ev.Dealt(line, name, street, (), cards, name == hero))
            elif kind == "bet" and street is ev.Street.THIRD and brought_in and not opened:
                # FORMATS.md §5: the completion of the bring-in is written `bets`.
                events.append(ev.Complete(line, p[0], amount(p[1]), p[2]))
                opened = True
                street_bet[p[0]] = amount(p[1])
            elif kind == "call":
                # `calls X` gives the player's street total, not what the call adds: `Player0
                # brings in for 10`, `Hero bets 40`, `Player0 calls 40` (the real 40/80 hand).
                name, to, all_in = p[0], amount(p[1]), p[2]
                events.append(ev.Call(line, name, to - street_bet.get(name, 0), all_in))
                street_bet[name] = to
            else:
                if street is ev.Street.THIRD:
                    brought_in = brought_in or kind == "bring_in"
                    opened = opened or kind in ("bet", "raise_to")
                if kind in ("bring_in", "bet", "raise_to"):
                    street_bet[p[0]] = amount(p[1])
                events.append(_EVENT[kind](line, p, amount))
        return header, events


_EVENT: dict[str, Any] = {
    "seat_line": lambda line, p, a: ev.SeatLine(line, p[0], p[1], a(p[2])),
    "ante": lambda line, p, a: ev.PostAnte(line, p[0], a(p[1]), p[2]),
    "bring_in": lambda line, p, a: ev.BringIn(line, p[0], a(p[1]), p[2]),
    "bet": lambda line, p, a: ev.Bet(line, p[0], a(p[1]), p[2]),
    "raise_to": lambda line, p, a: ev.Raise(line, p[0], a(p[1]), None, p[2]),
    "check": lambda line, p, a: ev.Check(line, p[0]),
    "fold": lambda line, p, a: ev.Fold(line, p[0]),
    "shows": lambda line, p, a: ev.Show(line, p[0], p[1], None),
    "summary": lambda line, p, a: ev.Summary(line),
    "stack_result": lambda line, p, a: ev.SeatResult(
        line,
        p[0],
        p[1],
        ev.Outcome.STACK,
        final_stack=(-1 if p[2].startswith("-") else 1) * a(p[2].lstrip("-")),
        net=(-1 if p[3].startswith("-") else 1) * a(p[3].lstrip("+-")),
    ),
    "rake": lambda line, p, a: ev.TotalPot(line, None, a(p)),
    "wins": lambda line, p, a: ev.Collect(line, p[0], a(p[1]), p[2], p[3]),
}


@lru_cache(maxsize=1)
def default_parser() -> TextParser:
    """One parser per process: the grammar is built (or loaded from Lark's cache) once."""
    return TextParser("kingsclub", _Records, _Builder())


# ------------------------------------------------------------------ the registry's entry

_HEADER = re.compile(r"#\d+: (?:Limit|No Limit|Pot Limit) ")
_PAID = re.compile(
    r"^.+ wins (?:(?:main |side )?pot(?: \d+)? \([\d,.]+\)|\([\d,.]+\) from .*pot.*)[ \t]*$", re.M
)


class KingsClub(Site):
    name = NAME
    title = "KingsClub"
    ruleset = "kingsclub"
    # FORMATS.md §5: no uncalled-bet line, no SHOW DOWN, no hand descriptions; the summary
    # gives each seat's stack and net and the rake only (`Rake 5`, no total); later `Dealt`
    # lines show the new card only; `raises to 38.58` has no increment.
    dialect = Dialect(
        cap_line=False,
        uncalled_line=False,
        total_pot=False,
        seat_summary=SeatSummary.NONE,
        didnt_bet=False,
        lo_description=False,
        raise_increments=False,
        repeats_cards=False,
    )

    def recognises(self, line: str) -> bool:
        """`#39969356: Limit Razz - 40/80`.

        >>> SITE.recognises("#39969356: Limit Razz - 40/80"), SITE.recognises("# a comment")
        (True, False)
        """
        return _HEADER.match(line) is not None

    def reader(self) -> HandReader:
        return Reader(default_parser())

    def complete(self, text: str) -> bool:
        """A summary that ends with the pot paid (`Hero wins pot (99)`, after the seats)."""
        _, marker, summary = text.partition("*** SUMMARY ***")
        return bool(marker) and _PAID.search(summary) is not None


SITE = KingsClub()
