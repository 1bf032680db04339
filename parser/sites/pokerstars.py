"""PokerStars hand histories (FORMATS.md §1): the registry's entry (`SITE`), and the lines of
`grammar/pokerstars.lark` turned into events.

A hand is read line by line (`razz.parser.lines`): each line becomes a record (`_Records`,
which only converts: tokens to texts, cards, names), the order of the lines is checked
against the grammar's `hand` rule, and the records become events with their file line
(`_Hand`), amounts as integers in the hand's smallest unit. The game is decided from the
header before anything else: a hand of another game is skipped with that reason, whatever its
body holds. `PokerStarsParser.parse(text, source, first_line)` never raises on bad input.

>>> parser = PokerStarsParser()
>>> hand = parser.parse(EXAMPLE, "x.txt", 1)
>>> hand.header.small_bet, [type(e).__name__ for e in hand.events][:3]
(4, ['SeatLine', 'SeatLine', 'PostAnte'])
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from operator import attrgetter
from typing import Any

from lark.exceptions import LarkError

from razz.parser import events as ev
from razz.parser.amounts import CURRENCY_BY_SYMBOL, AmountError, currency_symbol, to_units
from razz.parser.events import UNKNOWN_CARD
from razz.parser.lines import FileLines, LineGrammar, LineRecords, Record
from razz.parser.sites.base import RawHand, Site, action_tail
from razz.parser.timestamps import to_utc, zone_of

NAME = "PokerStars"
_GAME_LIMIT = re.compile(r"(?i)^(.*?) ((?:no |pot |fixed |cap )?limit)$")
_STREET = {
    "street_3rd": ev.Street.THIRD,
    "street_4th": ev.Street.FOURTH,
    "street_5th": ev.Street.FIFTH,
    "street_6th": ev.Street.SIXTH,
    "river": ev.Street.SEVENTH,
}
_SUMMARY_STREET = {
    "3rd Street": ev.Street.THIRD,
    "4th Street": ev.Street.FOURTH,
    "5th Street": ev.Street.FIFTH,
    "6th Street": ev.Street.SIXTH,
    "River": ev.Street.SEVENTH,
}
_NOISE_KIND = {
    "SAID": ev.NoiseKind.CHAT,
    "JOINS": ev.NoiseKind.JOINS,
    "LEAVES": ev.NoiseKind.LEAVES,
    "IS_CONNECTED": ev.NoiseKind.CONNECTED,
    "IS_DISCONNECTED": ev.NoiseKind.DISCONNECTED,
    "IS_SITTING_OUT": ev.NoiseKind.SITTING_OUT,
    "COLON_SITTING_OUT": ev.NoiseKind.SITTING_OUT,
    "SITS_OUT": ev.NoiseKind.SITS_OUT,
    "TIMED_OUT": ev.NoiseKind.TIMED_OUT,
    "RETURNED": ev.NoiseKind.RETURNED,
    "REMOVED": ev.NoiseKind.REMOVED,
    "ALLOWED_TO_PLAY": ev.NoiseKind.OTHER,
}
_A = r"((?:[$€£₹]|Rs\. ?)?\d[\d,]*(?:\.\d+)?)"
_OTHER_NOISE = re.compile(
    r"(.+?)(?: said, \"(?:.*)\"| joins the table at seat #\d+| leaves the table| is (dis)?connected"
    r"| is sitting out|: is sitting out|: sits out| has timed out.*| has returned"
    r"| was removed from the table for failing to post| will be allowed to play after the button)$"
)
_OTHER_NOISE_KIND = (
    (' said, "', ev.NoiseKind.CHAT),
    (" joins the table", ev.NoiseKind.JOINS),
    (" leaves the table", ev.NoiseKind.LEAVES),
    (" is disconnected", ev.NoiseKind.DISCONNECTED),
    (" is connected", ev.NoiseKind.CONNECTED),
    ("is sitting out", ev.NoiseKind.SITTING_OUT),
    (": sits out", ev.NoiseKind.SITS_OUT),
    (" has timed out", ev.NoiseKind.TIMED_OUT),
    (" has returned", ev.NoiseKind.RETURNED),
    (" was removed from the table", ev.NoiseKind.REMOVED),
)
_HAND_ID = re.compile(r"^\S.*? #(\d+):")
_PLACE = re.compile(r" finished the tournament in (\d+)\w\w place(?: and received (.*)\.)?$")
_STACK = re.compile(r" \(" + _A + r" in chips(?:, (.*) bounty)?\)( is sitting out| out of hand)?")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SHOWS = re.compile(r": shows \[([^\]]*)\](?: \((.*)\))?")
_TOTAL = re.compile(r"Total pot " + _A + r"(.*?) \| Rake " + _A)
_POT_PART = re.compile(r"(Main pot|Side pot(?:-\d+)?|STP) " + _A)
_FOLDED = re.compile(
    r"(?: \([^)]*\))? folded on the (3rd Street|4th Street|5th Street|6th Street"
    r"|River)( \(didn't bet\))?"
)
_COLLECTED_SUM = re.compile(r"(?: \([^)]*\))? collected \(" + _A + r"\)")
_SHOWED = re.compile(
    r"(?: \([^)]*\))? showed \[([^\]]*)\] and (?:won \(" + _A + r"\)|lost)(?: with (.*))?"
)
_ALL_IN = " and is all-in"

EXAMPLE = """\
PokerStars Game #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'T' 8-max
Seat 1: ann ($1.00 in chips)
Seat 2: bob ($1.00 in chips)
ann: posts the ante $0.01
bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to ann [Kc]
Dealt to bob [4d]
ann: brings in for $0.02
bob: raises $0.02 to $0.04
ann: folds
Uncalled bet ($0.02) returned to bob
bob collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
Seat 1: ann folded on the 3rd Street
Seat 2: bob collected ($0.06)
"""


def _cards(text: str) -> tuple[str, ...]:
    """ "Ah 2c" as ("Ah", "2c")."""
    return tuple(text.split(" "))


_tail = partial(action_tail, all_in=_ALL_IN)  # the site's all-in words


# ------------------------------------------------------------------ lines to records


class _Records(LineRecords):
    """Each line rule of the grammar to a `Record`: texts, cards and names; amounts stay text
    until the hand's unit is known (only the header's are converted: it states the unit)."""

    # ------------------------------------------------------------------ header
    def plain_cash(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[0]), "stakes": str(c[2]), "mixed": None, "tournament": None}

    def mixed_cash(self, c: list[Any]) -> dict[str, Any]:
        return {
            "game_limit": str(c[1]),
            "stakes": str(c[3]),
            "mixed": str(c[0])[:-2],
            "tournament": None,
        }

    def plain_tournament(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[2]), "mixed": None, "tournament": (c[0], c[1], c[3])}

    def mixed_tournament(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[3]), "mixed": str(c[2])[:-2], "tournament": (c[0], c[1], c[4])}

    def header_line(self, c: list[Any]) -> Record:
        _, hand_id, _, club, game, when, when_et = c
        m = _GAME_LIMIT.match(game["game_limit"])
        name, limit = (m.group(1), m.group(2)) if m else (game["game_limit"], "Limit")
        if name.isupper():  # old PT2 exports write "7 CARD STUD HI/LO LIMIT"
            name = name.title()
        header: dict[str, Any] = {
            "hand_id": str(hand_id),
            "club": str(club).strip()[1:-1] if club else None,
            "game": name,
            "limit": limit.title(),
            "mixed": game["mixed"],
            "started_text": str(when) + (str(when_et) if when_et else ""),
        }
        # The ET datetime in brackets, when present, is the server clock: prefer it.
        stamp = str(when_et).strip()[1:-1] if when_et else str(when)
        header["started_at"] = to_utc(stamp)
        header["time_zone"] = zone_of(str(when))
        tournament = game["tournament"]
        if tournament is None:
            small, _, big = str(game["stakes"]).partition("/")
            big, _, iso = big.partition(" ")
            symbol = currency_symbol(small)
            currency = iso or (CURRENCY_BY_SYMBOL.get(symbol) if symbol else None)
            scale = 100 if currency else 1
            header.update(
                kind=ev.GameKind.CASH,
                currency=currency,
                play_money=currency is None,
                tournament_id=None,
                buy_in=(),
                level=None,
                match_round=None,
                small_bet=to_units(small, scale),
                big_bet=to_units(big, scale),
                unit=ev.Unit.CENT if currency else ev.Unit.CHIP,
            )
        else:
            number, buy_in, level = (str(t) for t in tournament)
            parts, _, iso = buy_in.strip().partition(" ")
            symbol = currency_symbol(parts)
            currency = iso or (CURRENCY_BY_SYMBOL.get(symbol) if symbol else None)
            buy_scale = 100 if currency else 1
            amounts = (
                ()
                if not parts[:1].isdigit() and symbol is None
                else tuple(to_units(p, buy_scale) for p in parts.split("+"))
            )
            lv = re.search(
                r"(?:(?i:match round) ([IVXLCDM\d]+), )?(?i:level) ([IVXLCDM\d]+) "
                r"\((\d[\d,]*)/(\d[\d,]*)\)",
                level,
            )
            assert lv is not None  # the LEVEL terminal has this shape
            header.update(
                kind=ev.GameKind.TOURNAMENT,
                currency=currency,
                play_money=False,
                tournament_id=number.split("#")[1].rstrip(", "),
                buy_in=amounts,
                level=lv.group(2),
                match_round=lv.group(1),
                small_bet=to_units(lv.group(3), 1),
                big_bet=to_units(lv.group(4), 1),
                unit=ev.Unit.CHIP,
            )
        return self.record("header_line", header)

    def table_line(self, c: list[Any]) -> Record:
        name, max_seats, play_money, _ = c
        return self.record(
            "table_line",
            {
                "table": str(name)[7:-1],
                "max_seats": int(str(max_seats).strip()[:-4]) if max_seats else None,
                "play_money_table": play_money is not None,
            },
        )

    def seat_line(self, c: list[Any]) -> Record:
        seat_name, stack = c
        seat_no, _, name = str(seat_name).partition(": ")
        m = _STACK.match(str(stack))
        assert m is not None  # SEAT_STACK has this shape
        status = m.group(3) or ""
        return self.record(
            "seat_line",
            (name, int(seat_no[5:]), m.group(1), status == " is sitting out",
             status == " out of hand", m.group(2)),
        )  # fmt: skip

    # ----------------------------------------------------------------- actions
    def ante(self, c: list[Any]) -> Record:
        return self.record("ante", (str(c[0]), *_tail(c[1], 17)), c[0])  # ": posts the ante "

    def bring_in(self, c: list[Any]) -> Record:
        return self.record("bring_in", (str(c[0]), *_tail(c[1], 16)), c[0])  # ": brings in for "

    def bet(self, c: list[Any]) -> Record:
        return self.record("bet", (str(c[0]), *_tail(c[1], 7)), c[0])  # ": bets "

    def call(self, c: list[Any]) -> Record:
        return self.record("call", (str(c[0]), *_tail(c[1], 8)), c[0])  # ": calls "

    def raise_to(self, c: list[Any]) -> Record:
        amounts, all_in = _tail(c[1], 9)  # ": raises "
        by, _, to = amounts.partition(" to ")
        return self.record("raise_to", (str(c[0]), to, by, all_in), c[0])

    def check(self, c: list[Any]) -> Record:
        return self.record("check", (str(c[0]),), c[0])

    def fold(self, c: list[Any]) -> Record:
        return self.record("fold", (str(c[0]),), c[0])

    def capped(self, c: list[Any]) -> Record:
        return self.record("capped", ())

    def uncalled(self, c: list[Any]) -> Record:
        amount = str(c[0])[14:-14]  # "Uncalled bet (" … ") returned to "
        return self.record("uncalled", (str(c[1]), amount), c[1])

    def collected(self, c: list[Any]) -> Record:
        amount, _, label = str(c[1])[11:].rstrip().partition(" from ")  # " collected "
        side = None
        if label.startswith("side pot"):
            side = int(label[9:]) if label.startswith("side pot-") else 1
        return self.record("collected", (str(c[0]), amount, label, side), c[0])

    def shows(self, c: list[Any]) -> Record:
        m = _SHOWS.match(str(c[1]).rstrip())
        assert m is not None  # SHOWS has this shape
        return self.record("shows", (str(c[0]), _cards(m.group(1)), m.group(2)), c[0])

    def mucks(self, c: list[Any]) -> Record:
        return self.record("mucks", (str(c[0]),), c[0])

    def no_show(self, c: list[Any]) -> Record:
        return self.record("no_show", (str(c[0]),), c[0])

    def finished(self, c: list[Any]) -> Record:
        m = _PLACE.match(str(c[1]).rstrip())
        assert m is not None  # FINISHED has this shape
        return self.record("finished", (str(c[0]), int(m.group(1)), m.group(2)), c[0])

    def won_tournament(self, c: list[Any]) -> Record:
        text = str(c[1]).rstrip()
        prize = text[len(" wins the tournament and receives ") : -len(" - congratulations!")]
        return self.record("won_tournament", (str(c[0]), prize), c[0])

    # ------------------------------------------------------------------ streets
    def _street(self, kind: str, c: list[Any]) -> Record:
        card = _BRACKETS.search(str(c[0])) if kind == "river" else None
        return self.record(kind, card.group(1) if card else None)

    def street_3rd(self, c: list[Any]) -> Record:
        return self._street("street_3rd", c)

    def street_4th(self, c: list[Any]) -> Record:
        return self._street("street_4th", c)

    def street_5th(self, c: list[Any]) -> Record:
        return self._street("street_5th", c)

    def street_6th(self, c: list[Any]) -> Record:
        return self._street("street_6th", c)

    def river(self, c: list[Any]) -> Record:
        return self._street("river", c)

    def show_down(self, c: list[Any]) -> Record:
        return self.record("show_down", None)

    def hand_cancelled(self, c: list[Any]) -> Record:
        return self.record("hand_cancelled", None)

    def _dealt(self, kind: str, c: list[Any]) -> Record:
        name = c[0]
        # " [Qc]\n", " [3s 4d 2c]\n" or " [Qc 8s] [3d]\n": one or two bracketed groups
        groups = str(c[1]).split("]")
        if len(groups) == 2:  # one bracket
            previous: tuple[str, ...] = ()
            new = tuple(groups[0][2:].split(" "))
        else:
            previous = tuple(groups[0][2:].split(" "))
            new = tuple(groups[1][2:].split(" "))
        return self.record(kind, (str(name)[9:], previous, new), name)  # "Dealt to "

    def dealt_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_1", c)

    def dealt_3(self, c: list[Any]) -> Record:
        return self._dealt("dealt_3", c)

    def dealt_1_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_1_1", c)

    def dealt_3_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_3_1", c)

    def dealt_2_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_2_1", c)

    def dealt_4_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_4_1", c)

    def dealt_5_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_5_1", c)

    def dealt_6_1(self, c: list[Any]) -> Record:
        return self._dealt("dealt_6_1", c)

    def dealt_other(self, c: list[Any]) -> Record:
        return self._dealt("dealt_other", c)

    # ------------------------------------------------------------------ summary
    def summary(self, c: list[Any]) -> Record:
        return self.record("summary", None)

    def total_pot(self, c: list[Any]) -> Record:
        m = _TOTAL.match(str(c[0]))
        assert m is not None  # TOTAL_POT has this shape
        parts = _POT_PART.findall(m.group(2))
        main = next((a for label, a in parts if label == "Main pot"), None)
        sides = tuple(a for label, a in parts if label.startswith("Side"))
        return self.record("total_pot", (m.group(1), m.group(3), main, sides))

    def board(self, c: list[Any]) -> Record:
        m = _BRACKETS.search(str(c[0]))
        assert m is not None  # BOARD has this shape
        return self.record("board", _cards(m.group(1)))

    def _result(self, kind: str, c: list[Any], fields: tuple[Any, ...]) -> Record:
        seat, _, name = str(c[0]).partition(": ")  # RESULT_NAME is "Seat N: NAME"
        return self.record(kind, (name, int(seat[5:]), *fields), c[0])

    def folded_result(self, c: list[Any]) -> Record:
        m = _FOLDED.match(str(c[1]))
        assert m is not None  # FOLDED_ON has this shape
        return self._result("folded_result", c, (_SUMMARY_STREET[m.group(1)], m.group(2) is not None))

    def collected_result(self, c: list[Any]) -> Record:
        m = _COLLECTED_SUM.match(str(c[1]))
        assert m is not None  # COLLECTED_SUM has this shape
        return self._result("collected_result", c, (m.group(1),))

    def won_result(self, c: list[Any]) -> Record:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_WON has this shape
        return self._result("won_result", c, (_cards(m.group(1)), m.group(2), m.group(3)))

    def lost_result(self, c: list[Any]) -> Record:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_LOST has this shape
        return self._result("lost_result", c, (_cards(m.group(1)), m.group(3)))

    def mucked_result(self, c: list[Any]) -> Record:
        m = _BRACKETS.search(str(c[1]))
        assert m is not None  # MUCKED has this shape
        return self._result("mucked_result", c, (_cards(m.group(1)),))

    # -------------------------------------------------------------------- noise
    def noise(self, c: list[Any]) -> Record:
        name, what = c
        return self.record("noise", (str(name), _NOISE_KIND[what.type], str(what)), name)

    def other_noise(self, c: list[Any]) -> Record:
        token = c[0]
        text = str(token).rstrip()
        if token.type == "DOUBLE_BET_NOISE":
            return self.record("other_noise", (ev.NoiseKind.OTHER, None, text))
        m = _OTHER_NOISE.match(text)
        player = m.group(1) if m else None
        kind = next(
            (k for key, k in _OTHER_NOISE_KIND if key in text[len(player or "") :]),
            ev.NoiseKind.OTHER,
        )
        if player and player.endswith(":"):
            player = player[:-1]
        return self.record("other_noise", (kind, player, text))


def _seated(record: Record) -> str | None:
    """The name a seat line gives."""
    return record.payload[0] if record.kind == "seat_line" else None


# ------------------------------------------------------------------ records to events


class _Hand:
    """Turns a hand's records into events: file lines, amounts in the hand's unit, streets.

    A line that repeats one read before in the file (the same record) gives the same event
    on its own line: its fields are kept (`memo`, per file and unit), and only the streets'
    markers and `Dealt to` lines, which depend on where they are, are built every time.
    """

    __slots__ = ("lines", "makers", "offset", "scale", "street", "units")

    def __init__(
        self, offset: int, scale: int, lines: Sequence[str], memo: dict[Any, Any]
    ) -> None:
        self.offset = offset  # the file line of the hand's first line, minus one
        self.scale = scale  # 100 for cents, 1 for chips
        self.street = ev.Street.THIRD
        self.lines = lines
        self.units: dict[str, int] = memo.setdefault(("units", scale), {})
        # record (or record and street) -> (record, None, its first event), then (record,
        # (event type, every field but the line), None) once it came twice
        self.makers: dict[Any, tuple[Record, Any, Any]] = memo.setdefault(
            ("events", scale), {}
        )

    def amount(self, text: str, index: int) -> int:
        try:
            return self.units[text]
        except KeyError:
            pass
        try:
            value = self.units[text] = to_units(text, self.scale)
        except AmountError as exc:
            exc.line = index + 1
            exc.column = self.lines[index].find(text) + 1
            raise
        return value

    def events(self, records: Sequence[Record | None]) -> list[ev.Event]:
        """The events of a hand's records (in order), from its third line on.

        A record's event is kept as it is the first time (most lines read anew are never
        read again: their cards or stacks are new); only when the same record comes again
        are its fields taken apart, for every later copy on its own line."""
        makers = self.makers
        get = makers.get
        out = []
        line = self.offset + 2
        for index in range(2, len(records)):
            record = records[index]
            line += 1
            if record is None:
                continue
            kind = record.kind
            dealt = kind in _DEALT
            key: Any = (id(record), self.street) if dealt else id(record)
            known = get(key)
            if known is not None and known[0] is record:
                maker = known[1]
                if maker is None:  # the second time: its fields, once
                    first = known[2]
                    maker = (type(first), _after_line(first))
                    makers[key] = (record, maker, None)
                out.append(maker[0](line, *maker[1]))
                continue
            event = _BUILD[kind](self, line, index, record.payload)
            if dealt or kind not in _IN_PLACE:  # the same line, the same event
                if len(makers) > 50_000:
                    makers.clear()
                makers[key] = (record, None, event)
            out.append(event)
        return out


# Events that depend on where their line is in the hand, not only on its text.
_IN_PLACE = frozenset(
    ("street_3rd", "street_4th", "street_5th", "street_6th", "river", "dealt_1", "dealt_3",
     "dealt_1_1", "dealt_3_1", "dealt_2_1", "dealt_4_1", "dealt_5_1", "dealt_6_1",
     "dealt_other")
)  # fmt: skip


_DEALT = frozenset(k for k in _IN_PLACE if k.startswith("dealt_"))

_NUMBER = {street: street.number for street in ev.STREETS}

_FIELDS: dict[type, Callable[[ev.Event], tuple[Any, ...]]] = {}


def _after_line(event: ev.Event) -> tuple[Any, ...]:
    """Every field of an event but its line, in order."""
    kind = type(event)
    get = _FIELDS.get(kind)
    if get is None:
        get = _FIELDS[kind] = _getter(tuple(f.name for f in dataclasses.fields(event))[1:])
    return get(event)


def _getter(names: tuple[str, ...]) -> Callable[[ev.Event], tuple[Any, ...]]:
    """One call that gives these fields as a tuple (attrgetter gives a bare value for one)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda e: (one(e),)
    return lambda e: ()


def _seat_line(h: _Hand, line: int, i: int, p: Any) -> ev.Event:
    name, seat, stack, sitting_out, out_of_hand, bounty = p
    return ev.SeatLine(line, name, seat, h.amount(stack, i), sitting_out, out_of_hand, bounty)


def _street(h: _Hand, line: int, i: int, p: Any, street: ev.Street) -> ev.Event:
    h.street = street
    return ev.StreetStart(line, street, p)


def _dealt(h: _Hand, line: int, i: int, p: Any) -> ev.Event:
    name, previous, new = p
    street = h.street
    number = _NUMBER[street]  # not `street.number`: an enum property is two calls a line
    # The file owner's lines show every card; everyone else's only the up cards, after two
    # down cards the log does not show. After 3rd street the earlier cards tell them apart
    # (the owner repeats all of them), also on a line that deals a wrong number of new cards.
    hero = len(previous) == number - 1 if previous else len(new) == number
    if not hero:
        if previous:
            previous = (UNKNOWN_CARD, UNKNOWN_CARD, *previous)
        else:
            new = (UNKNOWN_CARD, UNKNOWN_CARD, *new)
    return ev.Dealt(line, name, street, previous, new, hero)


def _total(h: _Hand, line: int, i: int, p: Any) -> ev.Event:
    total, rake, main, sides = p
    return ev.TotalPot(
        line,
        h.amount(total, i),
        h.amount(rake, i),
        h.amount(main, i) if main is not None else None,
        tuple(h.amount(s, i) for s in sides),
    )


def _result(outcome: ev.Outcome) -> Callable[[_Hand, int, int, Any], ev.Event]:
    def build(h: _Hand, line: int, i: int, p: Any) -> ev.Event:
        name, seat = p[0], p[1]
        if outcome is ev.Outcome.FOLDED:
            return ev.SeatResult(line, name, seat, outcome, p[2], p[3])
        if outcome is ev.Outcome.COLLECTED:
            return ev.SeatResult(line, name, seat, outcome, amount=h.amount(p[2], i))
        if outcome is ev.Outcome.SHOWED_WON:
            return ev.SeatResult(
                line, name, seat, outcome, cards=p[2], amount=h.amount(p[3], i), description=p[4]
            )
        if outcome is ev.Outcome.SHOWED_LOST:
            return ev.SeatResult(line, name, seat, outcome, cards=p[2], description=p[3])
        return ev.SeatResult(line, name, seat, outcome, cards=p[2])

    return build


_BUILD: dict[str, Callable[[_Hand, int, int, Any], ev.Event]] = {
    "seat_line": _seat_line,
    "ante": lambda h, line, i, p: ev.PostAnte(line, p[0], h.amount(p[1], i), p[2]),
    "street_3rd": lambda h, line, i, p: _street(h, line, i, p, ev.Street.THIRD),
    "street_4th": lambda h, line, i, p: _street(h, line, i, p, ev.Street.FOURTH),
    "street_5th": lambda h, line, i, p: _street(h, line, i, p, ev.Street.FIFTH),
    "street_6th": lambda h, line, i, p: _street(h, line, i, p, ev.Street.SIXTH),
    "river": lambda h, line, i, p: _street(h, line, i, p, ev.Street.SEVENTH),
    "show_down": lambda h, line, i, p: ev.ShowDown(line),
    "hand_cancelled": lambda h, line, i, p: ev.HandCancelled(line),
    **{
        f"dealt_{shape}": _dealt
        for shape in ("1", "3", "1_1", "3_1", "2_1", "4_1", "5_1", "6_1", "other")
    },
    "bring_in": lambda h, line, i, p: ev.BringIn(line, p[0], h.amount(p[1], i), p[2]),
    "bet": lambda h, line, i, p: ev.Bet(line, p[0], h.amount(p[1], i), p[2]),
    "call": lambda h, line, i, p: ev.Call(line, p[0], h.amount(p[1], i), p[2]),
    "raise_to": lambda h, line, i, p: ev.Raise(
        line, p[0], h.amount(p[1], i), h.amount(p[2], i), p[3]
    ),
    "check": lambda h, line, i, p: ev.Check(line, p[0]),
    "fold": lambda h, line, i, p: ev.Fold(line, p[0]),
    "capped": lambda h, line, i, p: ev.BettingCapped(line),
    "uncalled": lambda h, line, i, p: ev.UncalledBet(line, p[0], h.amount(p[1], i)),
    "collected": lambda h, line, i, p: ev.Collect(line, p[0], h.amount(p[1], i), p[2], p[3]),
    "shows": lambda h, line, i, p: ev.Show(line, p[0], p[1], p[2]),
    "mucks": lambda h, line, i, p: ev.Muck(line, p[0]),
    "no_show": lambda h, line, i, p: ev.NoShow(line, p[0]),
    "finished": lambda h, line, i, p: ev.TournamentFinish(line, p[0], p[1], p[2]),
    "won_tournament": lambda h, line, i, p: ev.TournamentWin(line, p[0], p[1]),
    "summary": lambda h, line, i, p: ev.Summary(line),
    "total_pot": _total,
    "board": lambda h, line, i, p: ev.Board(line, p),
    "folded_result": _result(ev.Outcome.FOLDED),
    "collected_result": _result(ev.Outcome.COLLECTED),
    "won_result": _result(ev.Outcome.SHOWED_WON),
    "lost_result": _result(ev.Outcome.SHOWED_LOST),
    "mucked_result": _result(ev.Outcome.MUCKED),
    "noise": lambda h, line, i, p: ev.Noise(line, p[1], p[0], (p[0] + p[2]).rstrip()),
    "other_noise": lambda h, line, i, p: ev.Noise(line, *p),
}


# ------------------------------------------------------------------ the parser


class PokerStarsParser:
    """Reads PokerStars hands, one at a time; never raises on bad input.

    One per process (the grammar is built once); `lines()` gives a file its own cache of the
    lines already read.
    """

    def __init__(self, *, pure_python: bool = False) -> None:
        self.grammar = LineGrammar("pokerstars", _Records, cython=not pure_python)
        self.backend = self.grammar.backend
        self._lines = self.lines()

    def lines(self) -> FileLines:
        """A new cache of lines, for one file."""
        return FileLines(self.grammar, "seat_line", frozenset(("other_noise",)))

    def parse(
        self, text: str, source: str, first_line: int, lines: FileLines | None = None
    ) -> ev.ParseResult:
        """Read the text of one hand (LF line ends, ending with a newline).

        The game is decided from the header before the body is read: a hand of another game
        is skipped with that reason, whatever its body holds.
        """
        texts = text.splitlines(keepends=True)
        file_lines = lines or self._lines
        records = file_lines.records(texts)
        head = records[0] if records else None
        header = head.payload if head is not None and head.kind == "header_line" else None
        if header is not None and header["game"].lower() != "razz":
            game = header["game"]
            return ev.SkippedHand(source, first_line, header["hand_id"], game, f"{game} is not Razz")
        # The first thing wrong, in line order: a line that does not read, or a line that
        # cannot come where it is.
        order = self.grammar.order
        if None in records:
            bad = records.index(None)
            kinds = [r.kind for r in records[:bad]]  # type: ignore[union-attr]
        else:
            bad = len(records)
            kinds = [r.kind for r in records]  # type: ignore[union-attr]
        if bad < len(records) or not order.check(kinds):
            hand_id = header["hand_id"] if header is not None else _hand_id(texts)
            index, message = order.error(kinds)
            if index < len(kinds) or bad == len(records):
                return _order_error(texts, index, message, text, source, first_line, hand_id)
            return self._error(texts, records, text, source, first_line, hand_id)
        assert header is not None  # the order starts with the header
        scale = 100 if header["unit"] is ev.Unit.CENT else 1
        hand = _Hand(first_line - 1, scale, texts, file_lines.memo)
        try:
            events = hand.events(records)
        except AmountError as exc:
            return self.grammar.line_error(
                exc, text, source, first_line, header["hand_id"]
            )
        table = records[1].payload  # type: ignore[union-attr]  # the order checked it
        return ev.Hand(_header(header, table, source, first_line), tuple(events), text)

    def _error(
        self,
        texts: list[str],
        records: list[Record | None],
        text: str,
        source: str,
        first_line: int,
        hand_id: str | None,
    ) -> ev.ParseError:
        """The first line that does not read, with what the grammar expected there."""
        index = next((i for i, r in enumerate(records) if r is None), 0)
        names = [n for n in (_seated(r) for r in records if r is not None) if n]
        try:
            self.grammar.read(texts[index], "line", names)
        except (LarkError, ValueError) as exc:
            error = self.grammar.line_error(exc, texts[index], source, first_line + index, hand_id)
            if error.column == 1:  # no line type begins so: say which lines may come here
                kinds = [r.kind for r in records[:index] if r is not None]
                here = self.grammar.order.expected(kinds)
                if here:
                    error = replace(error, message=f"{error.message}; expected here {here}")
            return _in_hand(error, text, first_line)
        raise AssertionError("a line that did not read, read")  # pragma: no cover


def _hand_id(texts: list[str]) -> str | None:
    """The hand number of a header that does not read."""
    m = _HAND_ID.search(texts[0] if texts else "")
    return m.group(1) if m else None


def _in_hand(error: ev.ParseError, text: str, first_line: int) -> ev.ParseError:
    """A line's error as an error of its hand (the hand's text and first line)."""
    return ev.ParseError(
        error.source, error.line, error.column, error.line_text, error.message, error.expected,
        error.hand_id, first_line, text,
    )  # fmt: skip


def _order_error(
    texts: list[str],
    index: int,
    message: str,
    text: str,
    source: str,
    first_line: int,
    hand_id: str | None,
) -> ev.ParseError:
    if index >= len(texts):  # the hand ends too early: at the end of its last line
        index = len(texts) - 1
        column = len(texts[index].rstrip("\n")) + 1
    else:
        column = 1
    return ev.ParseError(
        source=source,
        line=first_line + index,
        column=column,
        line_text=texts[index].rstrip("\n"),
        message=message,
        expected=(),
        hand_id=hand_id,
        first_line=first_line,
        text=text,
    )


def _header(header: dict[str, Any], table: dict[str, Any], source: str, first_line: int) -> ev.HandHeader:
    return ev.HandHeader(
        site=NAME,
        hand_id=header["hand_id"],
        game=header["game"],
        is_razz=True,
        mixed=header["mixed"],
        limit=header["limit"],
        kind=header["kind"],
        small_bet=header["small_bet"],
        big_bet=header["big_bet"],
        ante=None,  # PokerStars headers never state the ante or the bring-in
        bring_in=None,
        unit=header["unit"],
        currency=header["currency"],
        play_money=header["play_money"] or table["play_money_table"],
        table=table["table"],
        max_seats=table["max_seats"],
        tournament_id=header["tournament_id"],
        buy_in=header["buy_in"],
        level=header["level"],
        match_round=header["match_round"],
        club=header["club"],
        started_at=header["started_at"],
        started_text=header["started_text"],
        time_zone=header["time_zone"],
        source=source,
        first_line=first_line,
    )


# ------------------------------------------------------------------ the registry's entry

_HEADER = re.compile(r"PokerStars (?:Home Game |Zoom )?(?:Hand|Game) #")
_SEAT = re.compile(r"^Seat \d+: ", re.M)
# How a summary seat line ends: `mucked [..]`, `collected ($0.39)`, `(didn't bet)`, `folded on
# the 4th Street`, `on the River`, `with Lo: 8,6,4,3,2` (five ranks; fewer is a line cut short).
_WHOLE_RESULT = re.compile(r"(?:[\])]|Street|River|Lo: [2-9TJQKA](?:,[2-9TJQKA]){4})[ \t]*\Z")
# ... but a winner who showed is described after the amount (`and won ($1.33) with Lo: …`).
_SHOWN_WIN_CUT = re.compile(r"showed \[[^\]\n]*\] and won \([^)\n]*\)[ \t]*\Z")


@lru_cache(maxsize=1)
def default_parser() -> PokerStarsParser:
    """One parser per process: the grammar is built (or loaded from Lark's cache) once."""
    return PokerStarsParser()


class _Reader:
    """Reads the hands of one file, remembering the lines it read."""

    def __init__(self, parser: PokerStarsParser) -> None:
        self.parser = parser
        self.lines = parser.lines()

    def read(self, raw: RawHand) -> ev.ParseResult:
        return self.parser.parse(raw.text, raw.source, raw.first_line, self.lines)


class PokerStars(Site):
    """PokerStars, and the rooms that write its format (Home Games, Zoom)."""

    name = NAME
    title = "PokerStars"
    header_bytes = (b"PokerStars ",)

    def recognises(self, line: str) -> bool:
        """`PokerStars Hand #…`, `PokerStars Game #…`, `PokerStars Home Game Hand #…`.

        >>> SITE.recognises("PokerStars Game #35874566077:  Razz Limit ($0.04/$0.08 USD)")
        True
        """
        return line.startswith("PokerStars ") and _HEADER.match(line) is not None

    def reader(self) -> _Reader:
        return _Reader(default_parser())

    def complete(self, text: str) -> bool:
        """The summary lists every seat of the hand (a cancelled hand: at least one), and its
        last line is whole: ended, or ending as a seat's summary line ends (a file may lack
        its final line end).

        >>> SITE.complete("PokerStars Hand #1: …\\nSeat 1: a (5 in chips)\\n*** SUMMARY ***\\n"
        ...               "Seat 1: a collected (5)\\n")
        True
        """
        head, marker, summary = text.partition("*** SUMMARY ***")
        if not marker or not (
            text.endswith("\n")
            or (_WHOLE_RESULT.search(text) and not _SHOWN_WIN_CUT.search(text))
        ):
            return False
        seats, listed = len(_SEAT.findall(head)), len(_SEAT.findall(summary))
        return listed >= 1 if "\nHand cancelled" in head else listed >= seats > 0


SITE = PokerStars()
