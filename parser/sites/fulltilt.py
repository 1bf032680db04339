"""Full Tilt Poker hand histories (FORMATS.md §2): the registry's entry (`SITE`), and the lines
of `grammar/fulltilt.lark` turned into neutral events.

Full Tilt wrote its files in UTF-16 with a BOM (2010–2011) or ASCII (2012); the reader
decodes both. Its header states the ante (`Ante $0.02`), so the hand's ante is known before
any ante line. The rest maps onto the neutral events directly: `is high with [Ks]` is a
`BringInCard`, `completes it to` a `Complete`, `raises to` a `Raise` with no increment,
`wins the pot (X) with …` a `Collect` with the winning hand's description, an ante's excess
returned before 3rd street an `UncalledBet`.

>>> hand = SITE.reader().read(RawHand("x.txt", 1, EXAMPLE))
>>> hand.header.ante, hand.header.small_bet, [type(e).__name__ for e in hand.events][10:13]
(2, 10, ['BringInCard', 'BringIn', 'Complete'])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache, partial
from typing import Any

from razz.parser import events as ev
from razz.parser.amounts import CURRENCY_BY_SYMBOL, currency_symbol, to_units
from razz.parser.events import UNKNOWN_CARD
from razz.parser.lines import Record
from razz.parser.sites.base import Dialect, HandReader, RawHand, Site, action_tail
from razz.parser.sites.textsite import Amounts, PlayerActions, Reader, TextParser
from razz.parser.timestamps import to_utc

NAME = "Full Tilt Poker"
_ALL_IN = ", and is all in"
_GAME = re.compile(
    r" - (?:(?P<mixed>[A-Za-z0-9][A-Za-z0-9 '/&.-]*?) - )?"
    r"(?P<limit>Limit|No Limit|Pot Limit|No-Limit|Pot-Limit|Fixed Limit) (?P<game>.+?)"
    r"(?: \(partial\))? - $"
)
_TOURNAMENT = re.compile(r"\((\d+)\), Table (.+)$")
_STAKE = re.compile(r" - (.+?)/(.+)$")
_TIME = re.compile(r"(\d{1,2}):(\d\d)(?::(\d\d))? ([A-Z]{1,5}) - (.+)$")
_CARD_GROUPS = re.compile(r"\[([^\]]*)\]")
_WINS = re.compile(
    r" (wins|ties for) the (pot|main pot|side pot(?: #?(\d+))?) \(([^)]*)\)(?: with ?(.*))?$"
)
_SHOWS = re.compile(r" shows \[([^\]]*)\](?: (.*))?$")
_FOLDED = re.compile(r" folded on ([2-7])(?:nd|rd|th) St\.")
_SHOWED = re.compile(r" showed \[([^\]]*)\] and (?:won \(([^)]*)\)|lost)(?: with ?(.*))?$")
_POT_PART = re.compile(r"(Main pot|Side pot(?: #?\d+)?) ([$€£]?\d[\d,]*(?:\.\d+)?)")
_STREETS = {
    "street_3rd": ev.Street.THIRD,
    "street_4th": ev.Street.FOURTH,
    "street_5th": ev.Street.FIFTH,
    "street_6th": ev.Street.SIXTH,
    "street_7th": ev.Street.SEVENTH,
}
_STREET_NUMBER = {s.number: s for s in ev.STREETS}
_NOISE = {
    "TIME_LEFT": ev.NoiseKind.TIME,
    "IS_SITTING_OUT": ev.NoiseKind.SITTING_OUT,
    "STANDS_UP": ev.NoiseKind.SEATING,
    "SITS_DOWN": ev.NoiseKind.SEATING,
    "ADDS": ev.NoiseKind.SEATING,
    "TIMED_OUT": ev.NoiseKind.TIMED_OUT,
    "RETURNED": ev.NoiseKind.RETURNED,
    "IS_DISCONNECTED": ev.NoiseKind.DISCONNECTED,
    "IS_CONNECTED": ev.NoiseKind.CONNECTED,
}
_OTHER_NOISE = (
    (" left to act", ev.NoiseKind.TIME),
    (" is sitting out", ev.NoiseKind.SITTING_OUT),
    (" stands up", ev.NoiseKind.SEATING),
    (" sits down", ev.NoiseKind.SEATING),
    (" adds ", ev.NoiseKind.SEATING),
    (" has timed out", ev.NoiseKind.TIMED_OUT),
    (" has returned", ev.NoiseKind.RETURNED),
    (" is disconnected", ev.NoiseKind.DISCONNECTED),
    (" is connected", ev.NoiseKind.CONNECTED),
)
_MONTHS = {m: i for i, m in enumerate(
    ("January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"), start=1)}  # fmt: skip

EXAMPLE = """\
Full Tilt Poker Game #26190453000: Table Mart - $0.10/$0.20 Ante $0.02 - Limit Razz - \
17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]
Seat 1: Hero ($4.50)
Seat 5: Player5 ($8.18)
Seat 8: Player8 ($1.75)
Player5 antes $0.02
Player8 antes $0.02
Hero antes $0.02
*** 3RD STREET ***
Dealt to Hero [6d Kd] [4s]
Dealt to Player5 [Ks]
Dealt to Player8 [7s]
Player5 is high with [Ks]
Player5 brings in for $0.03
Player8 completes it to $0.10
Hero folds
Player5 folds
Uncalled bet of $0.07 returned to Player8
Player8 mucks
Player8 wins the pot ($0.12)
*** SUMMARY ***
Total pot $0.12 | Rake $0
Seat 1: Hero folded on 3rd St.
Seat 5: Player5 folded on 3rd St.
Seat 8: Player8 collected ($0.12), mucked
"""


def _cards(text: str) -> tuple[str, ...]:
    return tuple(text.split(" "))


_tail = partial(action_tail, all_in=_ALL_IN)  # the site's all-in words


def started(time_text: str) -> datetime:
    """A Full Tilt time and date (`17:10:10 CCT - 2010/12/07`, `15:13 ET - Wed, July 21,
    2010`) in UTC.

    >>> started("04:10:10 ET - 2010/12/07").isoformat()
    '2010-12-07T09:10:10+00:00'
    >>> started("15:13 ET - Wed, July 21, 2010").isoformat()
    '2010-07-21T19:13:00+00:00'
    """
    m = _TIME.match(time_text)
    if m is None:
        raise ValueError(f"not a Full Tilt time: {time_text!r}")
    hour, minute, second, zone, date = m.groups()
    if "/" in date:
        day = date
    else:  # "Wed, July 21, 2010"
        _, month_day, year = date.split(", ")
        month, number = month_day.split(" ")
        day = f"{year}/{_MONTHS.get(month, 1)}/{number}"
    return to_utc(f"{day} {hour}:{minute}:{second or '00'} {zone}")


# ------------------------------------------------------------------ lines to records


class _Records(PlayerActions):
    """Each line rule of `grammar/fulltilt.lark` to a `Record` (amounts stay text)."""

    all_in = _ALL_IN

    def header_line(self, c: list[Any]) -> Record:
        _, hand_id, _, table_part, stakes, ante, game, when, when_et = c
        g = _GAME.match(str(game))
        assert g is not None  # GAME has this shape
        small, big = _STAKE.match(str(stakes)).groups()  # type: ignore[union-attr]
        table = str(table_part)
        tournament = _TOURNAMENT.search(table)
        stamp = str(when_et).strip()[1:-1] if when_et else str(when)
        return self.record(
            "header_line",
            {
                "hand_id": str(hand_id),
                "game": g.group("game"),
                "limit": g.group("limit").replace("-", " ").title(),
                "mixed": g.group("mixed"),
                "small": small,
                "big": big,
                "ante": str(ante)[6:] if ante else None,  # " Ante "
                "tournament_id": tournament.group(1) if tournament else None,
                "table": tournament.group(2) if tournament else table.removeprefix("Table "),
                "started_text": str(when) + (str(when_et) if when_et else ""),
                "time_zone": str(when).split(" ")[1],
                "stamp": stamp,
            },
        )

    def seat_line(self, c: list[Any]) -> Record:
        seat_name, stack = c
        seat_no, _, name = str(seat_name).partition(": ")
        text = str(stack).rstrip()
        sitting_out = text.endswith(", is sitting out")
        amount = text[2 : text.index(")")]
        return self.record("seat_line", (name, int(seat_no[5:]), amount, sitting_out))

    def ante(self, c: list[Any]) -> Record:
        return self.record("ante", (str(c[0]), *_tail(c[1], 7)), c[0])  # " antes "

    def ante_returned(self, c: list[Any]) -> Record:
        amount = str(c[0])[8 : -len(" returned to ")]  # "Ante of "
        return self.record("uncalled", (str(c[1]), amount), c[1])

    def _street(self, kind: str) -> Record:
        return self.record(kind, None)

    def street_3rd(self, c: list[Any]) -> Record:
        return self._street("street_3rd")

    def street_4th(self, c: list[Any]) -> Record:
        return self._street("street_4th")

    def street_5th(self, c: list[Any]) -> Record:
        return self._street("street_5th")

    def street_6th(self, c: list[Any]) -> Record:
        return self._street("street_6th")

    def street_7th(self, c: list[Any]) -> Record:
        return self._street("street_7th")

    def show_down(self, c: list[Any]) -> Record:
        return self.record("show_down", None)

    def dealt(self, c: list[Any]) -> Record:
        name = str(c[0])[9:]  # "Dealt to "
        groups = [_cards(g) for g in _CARD_GROUPS.findall(str(c[1]))]
        return self.record(
            "dealt", (name, *groups) if len(groups) == 2 else (name, (), groups[0]), c[0]
        )

    def high_with(self, c: list[Any]) -> Record:
        text = str(c[1])
        card = _CARD_GROUPS.search(text).group(1)  # type: ignore[union-attr]
        return self.record("high_with", (str(c[0]), card, " is high" in text), c[0])

    def complete(self, c: list[Any]) -> Record:
        return self.record("complete", (str(c[0]), *_tail(c[1], 17)), c[0])  # " completes it to "

    def uncalled(self, c: list[Any]) -> Record:
        amount = str(c[0])[16 : -len(" returned to ")]  # "Uncalled bet of "
        return self.record("uncalled", (str(c[1]), amount), c[1])

    def wins(self, c: list[Any]) -> Record:
        m = _WINS.match(str(c[1]).rstrip())
        assert m is not None  # WINS has this shape
        label = m.group(2)
        side = int(m.group(3)) if m.group(3) else (1 if label.startswith("side") else None)
        return self.record("wins", (str(c[0]), m.group(4), label, side, m.group(5)), c[0])

    def shows(self, c: list[Any]) -> Record:
        m = _SHOWS.match(str(c[1]).rstrip())
        assert m is not None  # SHOWS has this shape
        return self.record("shows", (str(c[0]), _cards(m.group(1)), m.group(2)), c[0])

    def mucks(self, c: list[Any]) -> Record:
        return self.record("mucks", (str(c[0]),), c[0])

    def summary(self, c: list[Any]) -> Record:
        return self.record("summary", None)

    def total_pot(self, c: list[Any]) -> Record:
        text = str(c[0]).rstrip()
        head, _, rake = text.partition(" | Rake ")
        total = head[10:].split(" ", 1)[0]  # "Total pot "
        parts = _POT_PART.findall(head)
        main = next((a for label, a in parts if label == "Main pot"), None)
        sides = tuple(a for label, a in parts if label.startswith("Side"))
        return self.record("total_pot", (total, rake, main, sides))

    def _result(self, kind: str, c: list[Any], fields: tuple[Any, ...]) -> Record:
        seat, _, name = str(c[0]).partition(": ")
        return self.record(kind, (name, int(seat[5:]), *fields), c[0])

    def folded_result(self, c: list[Any]) -> Record:
        m = _FOLDED.search(str(c[1]))
        assert m is not None  # FOLDED_ON has this shape
        return self._result("folded_result", c, (_STREET_NUMBER[int(m.group(1))],))

    def collected_result(self, c: list[Any]) -> Record:
        text = str(c[1]).rstrip()
        amount = text[text.index("(") + 1 : text.index(")", text.index(" collected ("))]
        return self._result("collected_result", c, (amount, text.endswith(", mucked")))

    def won_result(self, c: list[Any]) -> Record:
        m = _SHOWED.search(str(c[1]).rstrip())
        assert m is not None  # SHOWED_WON has this shape
        return self._result("won_result", c, (_cards(m.group(1)), m.group(2), m.group(3)))

    def lost_result(self, c: list[Any]) -> Record:
        m = _SHOWED.search(str(c[1]).rstrip())
        assert m is not None  # SHOWED_LOST has this shape
        return self._result("lost_result", c, (_cards(m.group(1)), m.group(3)))

    def mucked_result(self, c: list[Any]) -> Record:
        text = str(c[1]).rstrip()
        cards = _CARD_GROUPS.search(text).group(1)  # type: ignore[union-attr]
        description = text.partition("] - ")[2] or None
        return self._result("mucked_result", c, (_cards(cards), description))

    def sat_out_result(self, c: list[Any]) -> Record:
        return self._result("sat_out_result", c, ())

    def noise(self, c: list[Any]) -> Record:
        name, what = c
        return self.record("noise", (str(name), _NOISE[what.type], str(what)), name)

    def other_noise(self, c: list[Any]) -> Record:
        text = str(c[0]).rstrip()
        kind, cut = ev.NoiseKind.OTHER, -1
        for marker, k in _OTHER_NOISE:
            at = text.find(marker)
            if at >= 0:
                kind, cut = k, at
                break
        player = text[:cut] if cut > 0 and c[0].type == "PLAYER_NOISE" else None
        return self.record("other_noise", (kind, player, text))


# ------------------------------------------------------------------ records to events


class _Builder:
    """Full Tilt's records as the neutral events."""

    def game(self, header: Any) -> tuple[str, str]:
        return header["hand_id"], header["game"]

    def is_razz(self, game: str) -> bool:
        return game.lower() == "razz"

    def build(
        self, records: Sequence[Record], texts: Sequence[str], source: str, first_line: int
    ) -> tuple[ev.HandHeader, list[ev.Event]]:
        h = records[0].payload
        symbol = currency_symbol(h["small"])
        currency = CURRENCY_BY_SYMBOL.get(symbol) if symbol else None
        amount = Amounts(100 if currency else 1, texts, to_units)
        header = ev.HandHeader(
            site=NAME,
            hand_id=h["hand_id"],
            game=h["game"],
            is_razz=True,
            mixed=h["mixed"],
            limit=h["limit"],
            kind=ev.GameKind.TOURNAMENT if h["tournament_id"] else ev.GameKind.CASH,
            small_bet=amount(h["small"]),
            big_bet=amount(h["big"]),
            ante=amount.optional(h["ante"]),
            bring_in=None,  # the header states the ante only
            unit=ev.Unit.CENT if currency else ev.Unit.CHIP,
            currency=currency,
            play_money=currency is None and h["tournament_id"] is None,
            table=h["table"],
            max_seats=None,
            tournament_id=h["tournament_id"],
            buy_in=(),
            level=None,
            match_round=None,
            club=None,
            started_at=started(h["stamp"]),
            started_text=h["started_text"],
            time_zone=h["time_zone"],
            source=source,
            first_line=first_line,
        )
        events: list[ev.Event] = []
        street = ev.Street.THIRD
        for i, r in enumerate(records):
            if i == 0 or r is None:
                continue
            amount.index = i
            line = first_line + i
            kind, p = r.kind, r.payload
            if kind in _STREETS:
                street = _STREETS[kind]
                events.append(ev.StreetStart(line, street))
            elif kind == "dealt":
                events.append(_dealt(line, street, *p))
            else:
                events.append(_EVENT[kind](line, p, amount))
        return header, events


def _dealt(
    line: int, street: ev.Street, name: str, previous: tuple[str, ...], new: tuple[str, ...]
) -> ev.Dealt:
    """A `Dealt to` line: Full Tilt shows the file owner's down cards (and every card of a
    hand shown all-in) in the first bracket; everyone else's only their up cards."""
    if street is ev.Street.THIRD and previous:  # `[6d Kd] [4s]`: down cards, then the door
        previous, new = (), (*previous, *new)
    hero = len(previous) + len(new) == street.number
    if not hero:
        if previous:
            previous = (UNKNOWN_CARD, UNKNOWN_CARD, *previous)
        else:
            new = (UNKNOWN_CARD, UNKNOWN_CARD, *new)
    return ev.Dealt(line, name, street, previous, new, hero)


def _result(outcome: ev.Outcome) -> Any:
    def build(line: int, p: Any, amount: Amounts) -> ev.Event:
        name, seat = p[0], p[1]
        if outcome is ev.Outcome.FOLDED:
            return ev.SeatResult(line, name, seat, outcome, street=p[2])
        if outcome is ev.Outcome.COLLECTED:
            return ev.SeatResult(line, name, seat, outcome, amount=amount(p[2]), mucked=p[3])
        if outcome is ev.Outcome.SHOWED_WON:
            return ev.SeatResult(
                line, name, seat, outcome, cards=p[2], amount=amount(p[3]), description=p[4]
            )
        if outcome is ev.Outcome.SHOWED_LOST:
            return ev.SeatResult(line, name, seat, outcome, cards=p[2], description=p[3])
        if outcome is ev.Outcome.MUCKED:
            return ev.SeatResult(line, name, seat, outcome, cards=p[2], description=p[3])
        return ev.SeatResult(line, name, seat, outcome)

    return build


_EVENT: dict[str, Any] = {
    "seat_line": lambda line, p, a: ev.SeatLine(line, p[0], p[1], a(p[2]), p[3]),
    "ante": lambda line, p, a: ev.PostAnte(line, p[0], a(p[1]), p[2]),
    "show_down": lambda line, p, a: ev.ShowDown(line),
    "high_with": lambda line, p, a: ev.BringInCard(line, p[0], p[1], p[2]),
    "bring_in": lambda line, p, a: ev.BringIn(line, p[0], a(p[1]), p[2]),
    "complete": lambda line, p, a: ev.Complete(line, p[0], a(p[1]), p[2]),
    "bet": lambda line, p, a: ev.Bet(line, p[0], a(p[1]), p[2]),
    "call": lambda line, p, a: ev.Call(line, p[0], a(p[1]), p[2]),
    "raise_to": lambda line, p, a: ev.Raise(line, p[0], a(p[1]), None, p[2]),
    "check": lambda line, p, a: ev.Check(line, p[0]),
    "fold": lambda line, p, a: ev.Fold(line, p[0]),
    "uncalled": lambda line, p, a: ev.UncalledBet(line, p[0], a(p[1])),
    "wins": lambda line, p, a: ev.Collect(line, p[0], a(p[1]), p[2], p[3], p[4]),
    "shows": lambda line, p, a: ev.Show(line, p[0], p[1], p[2]),
    "mucks": lambda line, p, a: ev.Muck(line, p[0]),
    "summary": lambda line, p, a: ev.Summary(line),
    "total_pot": lambda line, p, a: ev.TotalPot(
        line, a(p[0]), a(p[1]), a.optional(p[2]), tuple(a(s) for s in p[3])
    ),
    "folded_result": _result(ev.Outcome.FOLDED),
    "collected_result": _result(ev.Outcome.COLLECTED),
    "won_result": _result(ev.Outcome.SHOWED_WON),
    "lost_result": _result(ev.Outcome.SHOWED_LOST),
    "mucked_result": _result(ev.Outcome.MUCKED),
    "sat_out_result": _result(ev.Outcome.SAT_OUT),
    "noise": lambda line, p, a: ev.Noise(line, p[1], p[0], (p[0] + p[2]).rstrip()),
    "other_noise": lambda line, p, a: ev.Noise(line, *p),
}


@lru_cache(maxsize=1)
def default_parser() -> TextParser:
    """One parser per process: the grammar is built (or loaded from Lark's cache) once."""
    return TextParser("fulltilt", _Records, _Builder(), frozenset(("other_noise",)))


# ------------------------------------------------------------------ the registry's entry


class _Reader(Reader):
    """Full Tilt's reader; a tournament summary (`Full Tilt Poker Tournament Summary …`, not a
    hand history, FORMATS.md §2) is skipped as such."""

    def read(self, raw: RawHand) -> ev.ParseResult:
        if _SUMMARY_FILE.match(raw.text):
            return ev.SkippedHand(
                raw.source, raw.first_line, None, "Tournament summary",
                "a Full Tilt Poker tournament summary, not a hand history",
            )  # fmt: skip
        return super().read(raw)


_HEADER = re.compile(r"Full ?Tilt ?Poker ")
_SUMMARY_FILE = re.compile(r"Full ?Tilt ?Poker Tournament Summary ")
_SUMMARY_SEAT = re.compile(r"^Seat \d+: ", re.M)


class FullTilt(Site):
    name = NAME
    title = "Full Tilt Poker"
    header_bytes = (b"Full Tilt Poker ", b"FullTiltPoker")
    ruleset = "fulltilt"
    # FORMATS.md §2: no `Betting is capped` line; `folded on 3rd St.` never says "(didn't
    # bet)"; hands read `J,T,6,5,2`, not `Lo: …`; raises are written `raises to $6` only.
    # FORMATS.md: when everyone is all in, every player gets a 7th-street line with every card
    dialect = Dialect(cap_line=False, didnt_bet=False, lo_description=False, raise_increments=False,
                      others_down_cards="all-in")

    def recognises(self, line: str) -> bool:
        """`Full Tilt Poker Game #…` (`FullTiltPoker Game #…` in some exports).

        >>> SITE.recognises("Full Tilt Poker Game #26190453000: Table Mart - $0.10/$0.20")
        True
        """
        return _HEADER.match(line) is not None

    def reader(self) -> HandReader:
        return _Reader(default_parser())

    def complete(self, text: str) -> bool:
        """A summary with one line per seat listed at the top, the last line ended."""
        head, marker, summary = text.partition("*** SUMMARY ***")
        seats = len(_SUMMARY_SEAT.findall(head))
        return (
            bool(marker)
            and text.endswith("\n")
            and len(_SUMMARY_SEAT.findall(summary)) >= seats > 0
        )


SITE = FullTilt()
