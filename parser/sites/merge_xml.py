"""One Merge Network `<game>` element (a Razz hand) into neutral events.

The element is read with expat (the standard library's XML parser), which gives each element
its line; every event carries the line of the element it comes from.

>>> hand = read_game(RawHand("x.xml", 1, EXAMPLE))
>>> [type(e).__name__ for e in hand.events][4:8]
['StreetStart', 'Dealt', 'Dealt', 'BringIn']
>>> hand.header.small_bet, hand.header.unit.value
(50, 'cent')
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from xml.parsers import expat

from razz.parser import events as ev
from razz.parser.events import UNKNOWN_CARD
from razz.parser.sites.base import RAZZ, RawHand

NAME = "Merge Network"
_STATED = re.compile(r"\$?([\d,]+(?:\.\d+)?)\s*/\s*\$?([\d,]+(?:\.\d+)?)")
_STREET = {
    "THIRD_STREET": ev.Street.THIRD,
    "FOURTH_STREET": ev.Street.FOURTH,
    "FIFTH_STREET": ev.Street.FIFTH,
    "SIXTH_STREET": ev.Street.SIXTH,
    "SEVENTH_STREET": ev.Street.SEVENTH,
}

EXAMPLE = """\
<game id="1-1" starttime="20111115223628" numholecards="7" gametype="47" realmoney="true" data="20111115|T (1)|1|1-1|false">
  <players dealer="1">
    <player seat="3" nickname="Hero" balance="$2.96" dealtin="true" />
    <player seat="5" nickname="Ann" balance="$10.00" dealtin="true" />
  </players>
  <round id="BLINDS" sequence="1">
    <event sequence="1" type="ANTE" timestamp="1321414699986" player="3" amount="0.05"/>
    <event sequence="2" type="ANTE" timestamp="1321414700236" player="5" amount="0.05"/>
  </round>
  <round id="BRING_IN" sequence="2">
    <event sequence="3" type="BRING_IN" timestamp="1321414708889" player="3" amount="0.10"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,6c" player="5"/>
    <cards type="HOLE" cards="As,7h,Kc" player="3" hand="K-7-A"/>
  </round>
  <round id="THIRD_STREET" sequence="3">
    <event sequence="4" type="COMPLETE" timestamp="1321414710730" player="5" amount="0.50"/>
    <event sequence="5" type="FOLD" timestamp="1321414712337" player="3"/>
  </round>
  <round id="END_OF_FOLDED_GAME" sequence="4">
    <winner amount="0.40" uncalled="true" potnumber="1" player="5" pottype="n"/>
    <winner amount="0.30" uncalled="false" potnumber="1" player="5" pottype="n"/>
  </round>
</game>
"""


class MergeError(ValueError):
    """What is wrong with a `<game>` element, and on which line of the file."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int  # in the file
    children: list[_Element] = field(default_factory=list)


def _tree(raw: RawHand) -> _Element:
    """The element and its children, each with its line in the file."""
    parser = expat.ParserCreate()
    root: list[_Element] = []
    stack: list[_Element] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = _Element(tag, attrs, raw.first_line + parser.CurrentLineNumber - 1)
        if stack:
            stack[-1].children.append(element)
        else:
            root.append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(raw.text, True)
    except expat.ExpatError as exc:
        raise MergeError(
            f"not well-formed XML: {expat.ErrorString(exc.code)}", raw.first_line + exc.lineno - 1
        ) from None
    return root[0]


_MAX_DIGITS = 30
"""Digits of the largest amount read: more is no stake, and `1e999999999` would take the
memory of a billion digits."""


def _number(text: str) -> int | None:
    """A whole number written in ASCII digits (`isdigit` alone lets `²` through, which `int`
    refuses)."""
    return int(text) if text.isascii() and text.isdigit() else None


def _amount(text: str | None, scale: int, line: int) -> int:
    if text and text.isascii() and text.isdigit():  # a tournament's chips: most amounts
        return int(text) * scale
    try:
        value = Decimal((text or "").replace("$", "").replace(",", "")) * scale
    except ArithmeticError:  # not a number (InvalidOperation), past Decimal's range (Overflow)
        raise MergeError(f"{text!r} is not an amount", line) from None
    if not value.is_finite() or value.adjusted() > _MAX_DIGITS:  # `Infinity`, `1e999999999`
        raise MergeError(f"{text!r} is not an amount", line)
    if value != value.to_integral_value() or value < 0:
        raise MergeError(f"{text!r} is not a whole number of the hand's units", line)
    return int(value)


@lru_cache(maxsize=4096)
def _cards(text: str) -> tuple[str, ...]:
    # Cached: a player's `<cards>` list is repeated in every round of the hand.
    return tuple(UNKNOWN_CARD if c == "null" else c for c in text.split(",") if c)


def _fuller(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """Of two lists of a player's cards, the one that shows more."""

    def score(c: tuple[str, ...]) -> tuple[int, int]:
        return (len(c) - c.count(UNKNOWN_CARD), len(c))

    return b if score(b) >= score(a) else a


@dataclass(slots=True)
class _Seat:
    name: str
    seat: int
    stack: int
    held: int = 0  # cards dealt so far
    start: int = 0
    street_bet: int = 0
    folded: bool = False


@dataclass(slots=True)
class _Hand:
    seats: dict[str, _Seat]
    scale: int
    events: list[ev.Event] = field(default_factory=list)
    street: ev.Street | None = None
    level: int = 0
    completed: bool = False
    small_bets: list[int] = field(default_factory=list)
    big_bets: list[int] = field(default_factory=list)
    shown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    known: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the most seen of each

    def seat(self, e: _Element) -> _Seat:
        who = self.seats.get(e.attrs.get("player", ""))
        if who is None:
            raise MergeError(f"no player sits in seat {e.attrs.get('player')!r}", e.line)
        return who

    def amount(self, e: _Element) -> int:
        return _amount(e.attrs.get("amount"), self.scale, e.line)

    def new_street(self, street: ev.Street, line: int) -> None:
        self.street, self.level = street, 0
        for s in self.seats.values():
            s.street_bet = 0
        self.events.append(ev.StreetStart(line, street))

    def deal(self, e: _Element) -> None:
        who = self.seat(e)
        cards = _cards(e.attrs.get("cards", ""))
        if who.folded or len(cards) <= who.held or self.street is None:
            return  # a folded hero's cards repeated, or nothing new
        hero = e.attrs.get("type") == "HOLE"
        new = cards[who.held :]
        who.held = len(cards)
        self.known[who.name] = _fuller(self.known.get(who.name, ()), cards)
        if not hero:
            if self.street is ev.Street.SEVENTH:
                return  # an opponent's river card, face down: the show gives it, if any
            # An opponent's cards as the other rooms' lines give them: the new up card (the
            # down cards, shown later in the list when the hand is shown, are the show's).
            new = new if self.street is ev.Street.THIRD else new[-1:]
            if self.street is ev.Street.THIRD:
                new = (UNKNOWN_CARD, UNKNOWN_CARD, *new[2:3])
        self.events.append(ev.Dealt(e.line, who.name, self.street, (), new, hero))

    def put(self, who: _Seat, chips: int) -> bool:
        """Chips into the pot; whether they were the player's last."""
        who.stack = max(0, who.stack - chips)
        who.street_bet += chips
        self.level = max(self.level, who.street_bet)
        return who.stack == 0

    def act(self, e: _Element) -> None:
        kind = e.attrs.get("type", "")
        if kind in ("CHAT", "PLAYER_OUT"):
            return
        who = self.seat(e)
        line, name = e.line, who.name
        street = self.street
        if kind == "ANTE":
            amount = self.amount(e)
            self.events.append(ev.PostAnte(line, name, amount, self.put(who, amount)))
            who.street_bet = 0
            self.level = 0
        elif kind == "BRING_IN":
            amount = self.amount(e)
            self.events.append(ev.BringIn(line, name, amount, self.put(who, amount)))
        elif kind == "COMPLETE":
            to = self.amount(e)
            all_in = self.put(who, to - who.street_bet)
            self.completed = True
            self.small_bets.append(to)
            self.events.append(ev.Complete(line, name, to, all_in))
        elif kind == "BET":
            amount = self.amount(e)
            all_in = self.put(who, amount)
            (self.big_bets if street and street.is_big_bet else self.small_bets).append(amount)
            self.events.append(ev.Bet(line, name, amount, all_in))
        elif kind == "RAISE":
            to = self.amount(e)
            before = self.level
            all_in = self.put(who, to - who.street_bet)
            if street is ev.Street.THIRD and not self.completed:
                self.completed = True
                self.events.append(ev.Complete(line, name, to, all_in))
            else:
                self.events.append(ev.Raise(line, name, to, to - before, all_in))
        elif kind == "CALL":
            amount = self.amount(e)
            self.events.append(ev.Call(line, name, amount, self.put(who, amount)))
        elif kind == "ALL_IN":
            self._all_in(who, self.amount(e), line)
        elif kind == "CHECK":
            self.events.append(ev.Check(line, name))
        elif kind == "FOLD":
            who.folded = True
            self.events.append(ev.Fold(line, name))
        elif kind == "SHOW":
            self.shown.setdefault(name, ())
            self.events.append(ev.Show(line, name, (), None))  # cards from <cards SHOWN>
        elif kind == "MUCK":
            self.events.append(ev.Muck(line, name))
        else:
            raise MergeError(f"event type {kind!r} is not one of a Razz hand", line)

    def _all_in(self, who: _Seat, chips: int, line: int) -> None:
        """`ALL_IN` gives the chips put in: a call, a bet, a completion or a raise to the
        street total they make."""
        to = who.street_bet + chips
        if to <= self.level:
            self.put(who, chips)
            self.events.append(ev.Call(line, who.name, chips, True))
        elif self.street is ev.Street.THIRD and not self.completed:
            self.put(who, chips)
            self.completed = True
            self.events.append(ev.Complete(line, who.name, to, True))
        elif self.level == 0:
            self.put(who, chips)
            self.events.append(ev.Bet(line, who.name, chips, True))
        else:
            before = self.level
            self.put(who, chips)
            self.events.append(ev.Raise(line, who.name, to, to - before, True))


def _uncalled(hand: _Hand) -> dict[str, int]:
    """The chips the top contributor put in beyond anyone else: returned, not won."""
    put = sorted(((s.start - s.stack, s.name) for s in hand.seats.values()), reverse=True)
    if len(put) > 1 and put[0][0] > put[1][0]:
        return {put[0][1]: put[0][0] - put[1][0]}
    return {}


def _return(events: list[ev.Event], back: ev.UncalledBet) -> None:
    """The bet nobody called goes back when its betting round ends, as a text log writes it:
    before the next street's deal (the hand goes on when a player is all-in), not after the
    showdown. The file gives it with the winners, at the end of the game."""
    wagers = (ev.PostAnte, ev.BringIn, ev.Bet, ev.Raise, ev.Complete)
    last = max(
        (k for k, e in enumerate(events) if isinstance(e, wagers) and e.player == back.player),
        default=None,
    )
    if last is None:
        events.append(back)
        return
    after = next(
        (
            k
            for k in range(last + 1, len(events))
            if isinstance(events[k], ev.StreetStart | ev.ShowDown | ev.Show | ev.Collect)
        ),
        len(events),
    )
    events.insert(after, back)


def stated_stakes(stakes: str | None, scale: int) -> tuple[int, int] | None:
    """The small and big bet a `<description stakes=…>` states, in the hand's units; None
    when it states none (a tournament's `"Limit"`) or none that can be read.

    >>> stated_stakes("Limit $0.50/$1", 100), stated_stakes("Limit", 1)
    ((50, 100), None)
    """
    m = _STATED.search(stakes or "")
    if m is None:
        return None
    try:
        small, big = (_amount(m.group(k), scale, 0) for k in (1, 2))
    except MergeError:
        return None
    return (small, big) if 0 < small < big else None


def read_game(raw: RawHand, stakes: str | None = None) -> ev.ParseResult:
    """A Razz `<game>` element as a hand (`stakes`: its file's `<description stakes=…>`);
    never raises on bad input."""
    try:
        return _read(raw, stakes)
    except MergeError as exc:
        lines = raw.text.split("\n")
        index = min(max(0, exc.line - raw.first_line), len(lines) - 1)
        return ev.ParseError(
            raw.source, exc.line, 1, lines[index].strip(), str(exc), (), None,
            raw.first_line, raw.text,
        )  # fmt: skip


def _read(raw: RawHand, stakes: str | None) -> ev.Hand:
    game = _tree(raw)
    if game.tag != "game":
        raise MergeError("not a <game> element", game.line)
    attrs = game.attrs
    data = attrs.get("data", "").split("|")
    tournament = data[-1] == "true"
    scale = 1 if tournament else 100
    players = [c for c in game.children if c.tag == "players"]
    if not players:
        raise MergeError("the game has no <players>", game.line)
    hand = _Hand({}, scale)
    for p in players[0].children:
        seat = p.attrs.get("seat", "")
        if p.attrs.get("dealtin", "true") != "true":
            continue
        if not seat.isdigit():
            raise MergeError(f"seat {seat!r} is not a number", p.line)
        try:
            number = int(seat)  # `٣` is a digit int reads; `²` is one it does not
        except ValueError:
            raise MergeError(f"seat {seat!r} is not a number", p.line) from None
        stack = _amount(p.attrs.get("balance"), scale, p.line)
        # Merge numbers seats from 0: seat N is the N+1th (seat 1 … of the other rooms).
        hand.seats[seat] = _Seat(
            p.attrs.get("nickname", f"Seat {seat}"), number + 1, stack, start=stack
        )
        hand.events.append(ev.SeatLine(p.line, hand.seats[seat].name, number + 1, stack))
    if len(hand.seats) < 2:
        raise MergeError("fewer than two players are dealt in", players[0].line)
    first_stamp: int | None = None
    winners: list[_Element] = []
    for rnd in (c for c in game.children if c.tag == "round"):
        kind = rnd.attrs.get("id", "")
        actions = [c for c in rnd.children if c.tag == "event"]
        cards = [c for c in rnd.children if c.tag == "cards"]
        for e in actions:
            if first_stamp is None:
                first_stamp = _number(e.attrs.get("timestamp", ""))
        if kind == "BRING_IN":
            hand.new_street(ev.Street.THIRD, rnd.line)
            for c in cards:
                if c.attrs.get("type") in ("HOLE", "DRAW_DRAWN_CARDS"):
                    hand.deal(c)
        elif kind in _STREET and _STREET[kind] is not ev.Street.THIRD:
            hand.new_street(_STREET[kind], rnd.line)
            for c in cards:
                if c.attrs.get("type") in ("HOLE", "DRAW_DRAWN_CARDS"):
                    hand.deal(c)
        for e in actions:
            hand.act(e)
        for c in cards:
            if c.attrs.get("type") in ("SHOWN", "DRAW_DRAWN_CARDS", "HOLE"):
                name = hand.seat(c).name
                shown = _cards(c.attrs.get("cards", ""))
                hand.known[name] = _fuller(hand.known.get(name, ()), shown)
        winners += [c for c in rnd.children if c.tag == "winner"]
    left = [s for s in hand.seats.values() if not s.folded]
    showdown = len(left) > 1 and hand.street is ev.Street.SEVENTH
    # A hand shown (all-in, or at the end) is shown at the showdown with every card it shows
    # by then; before it, nothing but the deal. A hand mucked there is mucked at the
    # showdown too, in the file's order of the shows and mucks.
    shows = [e for e in hand.events if isinstance(e, ev.Show | ev.Muck)]
    events: list[ev.Event] = [
        e for e in hand.events if not (showdown and isinstance(e, ev.Show | ev.Muck))
    ]
    if showdown:
        events.append(ev.ShowDown(winners[0].line if winners else game.line))
    events += [
        ev.Show(e.line, e.player, hand.known.get(e.player, ()), None)
        if isinstance(e, ev.Show)
        else e
        for e in (shows if showdown else [])
    ]
    events = [
        ev.Show(e.line, e.player, hand.known.get(e.player, ()), None)
        if isinstance(e, ev.Show) and not e.cards
        else e
        for e in events
    ]
    pots = {w.attrs.get("potnumber", "1") for w in winners if w.attrs.get("uncalled") != "true"}
    # A bet nobody called is paid back inside the winner's amount unless the file gives it
    # its own `uncalled` winner: it is returned, not won.
    back = _uncalled(hand) if not any(w.attrs.get("uncalled") == "true" for w in winners) else {}
    for w in winners:
        who = hand.seat(w)
        amount = _amount(w.attrs.get("amount"), scale, w.line)
        if back.get(who.name) and w.attrs.get("uncalled") != "true":
            _return(events, ev.UncalledBet(w.line, who.name, back[who.name]))
            amount -= back.pop(who.name)
        if w.attrs.get("uncalled") == "true":
            _return(events, ev.UncalledBet(w.line, who.name, amount))
            continue
        number = _number(w.attrs.get("potnumber", "1") or "1")
        if number is None:
            raise MergeError(f"pot number {w.attrs['potnumber']!r} is not a number", w.line)
        if len(pots) == 1:
            label, side = "pot", None
        else:
            label, side = (
                ("main pot", None) if number == 1 else (f"side pot-{number - 1}", number - 1)
            )
        events.append(ev.Collect(w.line, who.name, amount, label, side, w.attrs.get("hand")))
    bring_in = next((e.amount for e in events if isinstance(e, ev.BringIn) and not e.all_in), None)
    stated = stated_stakes(stakes, scale)
    if stated is not None:
        small, big = stated
    else:  # the smallest full wagers; with none, twice the bring-in (a guess)
        small = min(hand.small_bets, default=0) or (
            min(hand.big_bets) // 2 if hand.big_bets else 2 * (bring_in or 1)
        )
        big = min(hand.big_bets, default=0) or 2 * small
    start = attrs.get("starttime", "")
    try:  # the first action's time, in milliseconds; else the game's start
        if first_stamp is None:
            raise ValueError("no time stamp")
        started = dt.datetime.fromtimestamp(first_stamp / 1000, dt.UTC)
    except (ValueError, OverflowError, OSError):  # a stamp no date has
        try:
            started = dt.datetime.strptime(start, "%Y%m%d%H%M%S").replace(tzinfo=dt.UTC)
        except ValueError:
            started = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    table = data[1] if len(data) > 1 else ""
    header = (ev.HandHeader if stated is not None else ev.UnstatedStakes)(
        site=NAME,
        hand_id=attrs.get("id", ""),
        game=RAZZ,
        is_razz=True,
        # the mix is named only in the file's <description>, outside the hand
        mixed="Mixed games" if "multigametype" in attrs else None,
        limit="Limit",
        kind=ev.GameKind.TOURNAMENT if tournament else ev.GameKind.CASH,
        small_bet=small,
        big_bet=big,
        ante=None,
        bring_in=None,
        unit=ev.Unit.CHIP if tournament else ev.Unit.CENT,
        currency=None if tournament or attrs.get("realmoney") != "true" else "USD",  # `$`
        play_money=not tournament and attrs.get("realmoney") != "true",
        table=table,
        max_seats=None,
        tournament_id=data[2] if tournament and len(data) > 2 else None,
        buy_in=(),
        level=None,
        match_round=None,
        club=None,
        started_at=started,
        started_text=start,
        time_zone="ET",
        source=raw.source,
        first_line=raw.first_line,
    )
    return ev.Hand(header, tuple(events), raw.text)
