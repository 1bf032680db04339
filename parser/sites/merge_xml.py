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
import itertools
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import cast
from xml.parsers import expat

from razz.parser import events as ev
from razz.parser.events import UNKNOWN_CARD
from razz.parser.sites.base import RAZZ, RawHand

NAME = "Merge Network"
_STATED = re.compile(r"\$?([\d,]+(?:\.\d+)?)\s*/\s*\$?([\d,]+(?:\.\d+)?)")
_DEALT = {  # the rounds that deal cards: the bring-in's deals 3rd street
    "BRING_IN": ev.Street.THIRD,
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


Element = tuple[str, dict[str, str], int]
"""An element where it opens: its tag, its attributes and its line in the file."""


def _elements(raw: RawHand) -> list[Element | str]:
    """Every element of the text in file order: `(tag, attributes, line)` where it opens, its
    tag alone where it closes (expat calls back for each; the closing one is `list.append`
    itself, no Python frame)."""
    parser = expat.ParserCreate()
    items: list[Element | str] = []
    append = items.append
    before = raw.first_line - 1

    def start(tag: str, attrs: dict[str, str]) -> None:
        append((tag, attrs, before + parser.CurrentLineNumber))

    parser.StartElementHandler = start
    parser.EndElementHandler = append
    try:
        parser.Parse(raw.text, True)
    except expat.ExpatError as exc:
        raise MergeError(
            f"not well-formed XML: {expat.ErrorString(exc.code)}", raw.first_line + exc.lineno - 1
        ) from None
    finally:
        parser.StartElementHandler = parser.EndElementHandler = None  # no cycle to collect
    return items


@dataclass(slots=True)
class _Round:
    """A `<round>` and its children: its actions, its cards and its winners, each in file
    order (other children, and anything deeper, are not the hand's)."""

    round: Element
    actions: list[Element] = field(default_factory=list)
    cards: list[Element] = field(default_factory=list)
    winners: list[Element] = field(default_factory=list)


def _game(items: list[Element | str]) -> tuple[Element | None, list[Element], list[_Round]]:
    """Of the game's elements (the first is the `<game>`): its first `<players>`, the children
    of that (whatever their tag), and its `<round>`s."""
    players: Element | None = None
    seats: list[Element] = []
    rounds: list[_Round] = []
    depth = 1  # the <game>'s children are at depth 2
    round_: _Round | None = None  # the <round> whose children come, if they are a round's
    into_seats = False  # the children that come are the first <players>'
    for item in itertools.islice(items, 1, None):
        if item.__class__ is str:
            depth -= 1
            continue
        element = cast(Element, item)
        depth += 1
        if depth == 3:
            if into_seats:
                seats.append(element)
            elif round_ is not None:
                tag = element[0]
                if tag == "event":
                    round_.actions.append(element)
                elif tag == "cards":
                    round_.cards.append(element)
                elif tag == "winner":
                    round_.winners.append(element)
        elif depth == 2:
            tag = element[0]
            into_seats, round_ = False, None
            if tag == "round":
                round_ = _Round(element)
                rounds.append(round_)
            elif tag == "players" and players is None:
                players, into_seats = element, True
    return players, seats, rounds


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


_AMOUNTS: dict[int, dict[str, int]] = {1: {}, 100: {}}
"""Amounts read, by the hand's scale: a file repeats the same few (`0.05`, `10.00`)."""
_CARDS: dict[str, tuple[tuple[str, ...], tuple[int, int]]] = {}
"""Card lists read, with how much each shows: a player's list is repeated round after round."""
_CACHED = 4096  # entries of each, at most


def _cards(text: str) -> tuple[tuple[str, ...], tuple[int, int]]:
    """A `cards` list, and how much it shows (cards known, then cards): of two lists of a
    player's cards, the one that shows more is kept (the later one when they tie)."""
    found = _CARDS.get(text)
    if found is None:
        cards = tuple(UNKNOWN_CARD if c == "null" else c for c in text.split(",") if c)
        found = (cards, (len(cards) - cards.count(UNKNOWN_CARD), len(cards)))
        if len(_CARDS) >= _CACHED:
            _CARDS.clear()
        _CARDS[text] = found
    return found


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
    amounts: dict[str, int]  # _AMOUNTS of the scale
    events: list[ev.Event] = field(default_factory=list)
    street: ev.Street | None = None
    level: int = 0
    completed: bool = False
    small_bets: list[int] = field(default_factory=list)
    big_bets: list[int] = field(default_factory=list)
    shows: list[tuple[int, ev.Show | ev.Muck]] = field(default_factory=list)  # where in events
    # the most seen of each player's cards, and how much that shows
    known: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = field(default_factory=dict)

    def seat(self, attrs: dict[str, str], line: int) -> _Seat:
        who = self.seats.get(attrs.get("player", ""))
        if who is None:
            raise MergeError(f"no player sits in seat {attrs.get('player')!r}", line)
        return who

    def amount(self, text: str | None, line: int) -> int:
        value = self.amounts.get(text) if text else None
        if value is None:
            value = _amount(text, self.scale, line)
            if len(self.amounts) >= _CACHED:
                self.amounts.clear()
            self.amounts[text] = value  # type: ignore[index]
        return value

    def see(self, name: str, cards: tuple[str, ...], shows: tuple[int, int]) -> None:
        """A list of the player's cards: kept when it shows no less than the one kept."""
        kept = self.known.get(name)
        if kept is None or shows >= kept[0]:
            self.known[name] = (shows, cards)

    def cards_of(self, name: str) -> tuple[str, ...]:
        kept = self.known.get(name)
        return () if kept is None else kept[1]

    def new_street(self, street: ev.Street, line: int) -> None:
        self.street, self.level = street, 0
        for s in self.seats.values():
            s.street_bet = 0
        self.events.append(ev.StreetStart(line, street))

    def deal(self, attrs: dict[str, str], line: int) -> None:
        """The cards a `<cards>` element deals. (What it shows of the player's cards is
        seen after the round's actions, with every other list of the round.)"""
        who = self.seats.get(attrs.get("player", "")) or self.seat(attrs, line)
        cards = _cards(attrs.get("cards", ""))[0]
        if who.folded or len(cards) <= who.held or self.street is None:
            return  # a folded hero's cards repeated, or nothing new
        hero = attrs.get("type") == "HOLE"
        new = cards[who.held :]
        who.held = len(cards)
        if not hero:
            if self.street is ev.Street.SEVENTH:
                return  # an opponent's river card, face down: the show gives it, if any
            # An opponent's cards as the other rooms' lines give them: the new up card (the
            # down cards, shown later in the list when the hand is shown, are the show's).
            new = new if self.street is ev.Street.THIRD else new[-1:]
            if self.street is ev.Street.THIRD:
                new = (UNKNOWN_CARD, UNKNOWN_CARD, *new[2:3])
        self.events.append(ev.Dealt(line, who.name, self.street, (), new, hero))

    def put(self, who: _Seat, chips: int) -> bool:
        """Chips into the pot; whether they were the player's last."""
        who.stack = max(0, who.stack - chips)
        who.street_bet += chips
        self.level = max(self.level, who.street_bet)
        return who.stack == 0

    def act(self, attrs: dict[str, str], line: int) -> None:
        kind = attrs.get("type", "")
        if kind in ("CHAT", "PLAYER_OUT"):
            return
        who = self.seats.get(attrs.get("player", "")) or self.seat(attrs, line)
        name = who.name
        street = self.street
        if kind == "FOLD":
            who.folded = True
            self.events.append(ev.Fold(line, name))
        elif kind == "CALL":
            amount = self.amount(attrs.get("amount"), line)
            self.events.append(ev.Call(line, name, amount, self.put(who, amount)))
        elif kind == "CHECK":
            self.events.append(ev.Check(line, name))
        elif kind == "ANTE":
            amount = self.amount(attrs.get("amount"), line)
            self.events.append(ev.PostAnte(line, name, amount, self.put(who, amount)))
            who.street_bet = 0
            self.level = 0
        elif kind == "BET":
            amount = self.amount(attrs.get("amount"), line)
            all_in = self.put(who, amount)
            (self.big_bets if street and street.is_big_bet else self.small_bets).append(amount)
            self.events.append(ev.Bet(line, name, amount, all_in))
        elif kind == "RAISE":
            to = self.amount(attrs.get("amount"), line)
            before = self.level
            all_in = self.put(who, to - who.street_bet)
            if street is ev.Street.THIRD and not self.completed:
                self.completed = True
                self.events.append(ev.Complete(line, name, to, all_in))
            else:
                self.events.append(ev.Raise(line, name, to, to - before, all_in))
        elif kind == "BRING_IN":
            amount = self.amount(attrs.get("amount"), line)
            self.events.append(ev.BringIn(line, name, amount, self.put(who, amount)))
        elif kind == "COMPLETE":
            to = self.amount(attrs.get("amount"), line)
            all_in = self.put(who, to - who.street_bet)
            self.completed = True
            self.small_bets.append(to)
            self.events.append(ev.Complete(line, name, to, all_in))
        elif kind == "ALL_IN":
            self._all_in(who, self.amount(attrs.get("amount"), line), line)
        elif kind == "SHOW":
            show = ev.Show(line, name, (), None)  # cards from <cards SHOWN>, at the end
            self.shows.append((len(self.events), show))
            self.events.append(show)
        elif kind == "MUCK":
            muck = ev.Muck(line, name)
            self.shows.append((len(self.events), muck))
            self.events.append(muck)
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
    items = _elements(raw)
    tag, attrs, game_line = cast(Element, items[0])  # an element opens the text (or expat fails)
    if tag != "game":
        raise MergeError("not a <game> element", game_line)
    players, seats, rounds = _game(items)
    data = attrs.get("data", "").split("|")
    tournament = data[-1] == "true"
    scale = 1 if tournament else 100
    if players is None:
        raise MergeError("the game has no <players>", game_line)
    hand = _Hand({}, scale, _AMOUNTS[scale])
    for _, p, line in seats:
        seat = p.get("seat", "")
        if p.get("dealtin", "true") != "true":
            continue
        if not seat.isdigit():
            raise MergeError(f"seat {seat!r} is not a number", line)
        try:
            number = int(seat)  # `٣` is a digit int reads; `²` is one it does not
        except ValueError:
            raise MergeError(f"seat {seat!r} is not a number", line) from None
        stack = hand.amount(p.get("balance"), line)
        # Merge numbers seats from 0: seat N is the N+1th (seat 1 … of the other rooms).
        who = hand.seats[seat] = _Seat(
            p.get("nickname", f"Seat {seat}"), number + 1, stack, start=stack
        )
        hand.events.append(ev.SeatLine(line, who.name, number + 1, stack))
    if len(hand.seats) < 2:
        raise MergeError("fewer than two players are dealt in", players[2])
    first_stamp: int | None = None
    winners: list[Element] = []
    for rnd in rounds:
        if first_stamp is None:
            for _, e, _ in rnd.actions:
                first_stamp = _number(e.get("timestamp", ""))
                if first_stamp is not None:
                    break
        street = _DEALT.get(rnd.round[1].get("id", ""))
        if street is not None:
            hand.new_street(street, rnd.round[2])
            for _, c, line in rnd.cards:
                if c.get("type") in ("HOLE", "DRAW_DRAWN_CARDS"):
                    hand.deal(c, line)
        for _, e, line in rnd.actions:
            hand.act(e, line)
        for _, c, line in rnd.cards:  # what each list shows of the player's cards
            if c.get("type") in ("SHOWN", "DRAW_DRAWN_CARDS", "HOLE"):
                who = hand.seats.get(c.get("player", "")) or hand.seat(c, line)
                hand.see(who.name, *_cards(c.get("cards", "")))
        winners += rnd.winners
    left = [s for s in hand.seats.values() if not s.folded]
    showdown = len(left) > 1 and hand.street is ev.Street.SEVENTH
    # A hand shown (all-in, or at the end) is shown at the showdown with every card it shows
    # by then; before it, nothing but the deal. A hand mucked there is mucked at the
    # showdown too, in the file's order of the shows and mucks.
    events = hand.events
    shows = [
        (k, ev.Show(e.line, e.player, hand.cards_of(e.player), None) if type(e) is ev.Show else e)
        for k, e in hand.shows
    ]
    if showdown:
        if shows:
            events = [x for x in events if type(x) is not ev.Show and type(x) is not ev.Muck]
        events.append(ev.ShowDown(winners[0][2] if winners else game_line))
        events += [shown for _, shown in shows]
    else:
        for k, shown in shows:
            events[k] = shown
    pots = {w.get("potnumber", "1") for _, w, _ in winners if w.get("uncalled") != "true"}
    # A bet nobody called is paid back inside the winner's amount unless the file gives it
    # its own `uncalled` winner: it is returned, not won.
    back = _uncalled(hand) if not any(w.get("uncalled") == "true" for _, w, _ in winners) else {}
    for _, w, line in winners:
        who = hand.seat(w, line)
        amount = hand.amount(w.get("amount"), line)
        if back.get(who.name) and w.get("uncalled") != "true":
            _return(events, ev.UncalledBet(line, who.name, back[who.name]))
            amount -= back.pop(who.name)
        if w.get("uncalled") == "true":
            _return(events, ev.UncalledBet(line, who.name, amount))
            continue
        pot = _number(w.get("potnumber", "1") or "1")
        if pot is None:
            raise MergeError(f"pot number {w['potnumber']!r} is not a number", line)
        if len(pots) == 1:
            label, side = "pot", None
        else:
            label, side = (
                ("main pot", None) if pot == 1 else (f"side pot-{pot - 1}", pot - 1)
            )
        events.append(ev.Collect(line, who.name, amount, label, side, w.get("hand")))
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
