"""PHH, the open Poker Hand History standard (TOML; ../docs/phh-std): hands into neutral events.

A `.phh` file is one hand; a `.phhs` file holds several, one TOML table (`[1]`, `[2]` …)
each. `variant = 'FR'` is fixed-limit Razz and is read; every other variant is skipped with
its name. A hand is its fields (`antes`, `bring_in`, `small_bet`, `big_bet`,
`starting_stacks`) and its `actions`: `d dh pN cards` deals (3rd street: down, down, up),
`d db card` the community river card, `pN pb` the bring-in, `pN cbr X` a completion, bet or
raise to X, `pN cc` a check or call, `pN f` a fold, `pN sm [cards]` a show (or, without
cards, a muck). PHH writes no streets, no amounts for calls, no pots, no summary: streets are
known from the deal, and the LOG- checks hold a PHH hand to none of those lines (its dialect).
`finishing_stacks`, when given, become one `SeatResult` per player with the final stack.

>>> hand = SITE.reader().read(RawHand("x.phh", 1, EXAMPLE))
>>> hand.header.bring_in, [type(e).__name__ for e in hand.events][:5]
(1, ['SeatLine', 'SeatLine', 'PostAnte', 'PostAnte', 'StreetStart'])
>>> SITE.reader().read(RawHand("x.phh", 1, "variant = 'NT'\\nhand = 3\\n")).reason
'PHH variant NT is not Razz'
"""

from __future__ import annotations

import datetime as dt
import math
import re
import tomllib
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from razz.parser import events as ev
from razz.parser.events import UNKNOWN_CARD
from razz.parser.sites.base import (
    HAND_TOO_LONG,
    LINE_TOO_LONG,
    MAX_HAND_LINES,
    NO_LOG_LINES,
    RAZZ,
    RawHand,
    Site,
)

NAME = "PHH"
# What a TOML file can start with: a key, a table, a comment.
_HEADER = re.compile(r"(?:[A-Za-z_][\w-]*\s*=|\[[^\[\]'\",=]+\]\s*$|#)")
_TABLE = re.compile(r"\[[^\[\]'\",=]+\]\s*$")
_VARIANT = re.compile(r"^\s*variant\s*=\s*['\"]([^'\"]*)['\"]", re.M)
_HAND = re.compile(r"^\s*hand\s*=\s*['\"]?([^'\"\s#]+)", re.M)
REQUIRED = frozenset(
    ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
)
VARIANTS = {"FR": RAZZ, "F7S": "Seven Card Stud", "F7S/8": "Seven Card Stud Hi/Lo"}
_CARD = re.compile(r"[2-9TJQKA?][cdhs?]")
_STREETS = {3: ev.Street.THIRD, 4: ev.Street.FOURTH, 5: ev.Street.FIFTH, 6: ev.Street.SIXTH}
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

EXAMPLE = """\
variant = 'FR'
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ['d dh p1 Ah2c9d', 'd dh p2 3s4sKd', 'p2 pb', 'p1 cbr 2', 'p2 f']
players = ['ann', 'bob']
"""


def game_of(text: str) -> tuple[str | None, str | None]:
    """(hand number, game) of one PHH hand, read from its text without TOML.

    >>> game_of("variant = 'FR'\\nhand = 20\\n")
    ('20', 'Razz')
    """
    variant = _VARIANT.search(text)
    hand = _HAND.search(text)
    game = None
    if variant is not None:
        game = VARIANTS.get(variant.group(1), f"PHH variant {variant.group(1)}")
    return (hand.group(1) if hand else None), game


class PhhError(ValueError):
    """What is wrong with a PHH hand, and on which line of its text (0-based)."""

    def __init__(self, message: str, index: int = 0) -> None:
        super().__init__(message)
        self.index = index


def cards_of(text: str) -> tuple[str, ...]:
    """`7c3hKc` as ("7c", "3h", "Kc"); `??` is a card the hand does not show.

    >>> cards_of("????Kc")
    ('??', '??', 'Kc')
    """
    if len(text) % 2 or _CARD.fullmatch(text[:2] or "x") is None:
        raise ValueError(f"{text!r} is not a run of cards")
    found = tuple(text[k : k + 2] for k in range(0, len(text), 2))
    if any(_CARD.fullmatch(c) is None or ("?" in c and c != UNKNOWN_CARD) for c in found):
        raise ValueError(f"{text!r} is not a run of cards")
    return found


# ------------------------------------------------------------------ where things are written


def _key_lines(text: str) -> dict[str, int]:
    """The 0-based line of each top-level key of one hand's TOML text."""
    found: dict[str, int] = {}
    for k, line in enumerate(text.split("\n")):
        m = re.match(r"\s*([A-Za-z_][\w-]*)\s*=", line)
        if m and m.group(1) not in found:
            found[m.group(1)] = k
    return found


def _action_lines(text: str, start: int, count: int) -> list[int]:
    """The 0-based line of each of the `count` strings of the `actions` array, which starts
    on line `start` (one line or many, comments between); the array's line where unsure."""
    lines = text.split("\n")
    out: list[int] = []
    k = start
    rest = lines[start].split("=", 1)[1] if start < len(lines) else ""
    string = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"|#.*|\]")
    while k < len(lines) and len(out) < count:
        for m in string.finditer(rest):
            token = m.group(0)
            if token == "]":
                return out + [start] * (count - len(out))
            if token[0] != "#":
                out.append(k)
        k += 1
        rest = lines[k] if k < len(lines) else ""
    return out + [start] * (count - len(out))


# ------------------------------------------------------------------ amounts


class _Amounts:
    """PHH numbers as integers of the hand's unit: chips, or cents where a currency is set."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.scale = 100 if isinstance(data.get("currency"), str) else 1
        self.unit = ev.Unit.CENT if self.scale == 100 else ev.Unit.CHIP

    def __call__(self, value: Any, what: str, index: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PhhError(f"{what} is not a number: {value!r}", index)
        if isinstance(value, float) and not math.isfinite(value):
            raise PhhError(f"{what} is not a finite number: {value!r}", index)
        units = value * self.scale
        if abs(units - round(units)) > 1e-6:
            smallest = "cent" if self.scale == 100 else "chip"
            raise PhhError(f"{what} {value!r} is not a whole number of {smallest}s", index)
        if units < 0:
            raise PhhError(f"{what} is negative: {value!r}", index)
        return round(units)


# ------------------------------------------------------------------ the header


def _started(data: dict[str, Any]) -> tuple[dt.datetime, str, str]:
    """(UTC start, the time as written, its zone) from `time`, `day`/`month`/`year` and
    `time_zone`; the start of the day in UTC when no time is given, 1970 when no date is."""
    when = data.get("time")
    zone_name = data.get("time_zone")
    abbreviation = data.get("time_zone_abbreviation")
    zone: dt.tzinfo = dt.UTC
    if isinstance(zone_name, str):
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            zone = dt.UTC
    label = abbreviation if isinstance(abbreviation, str) else (zone_name or "")
    date: dt.date | None = None
    if all(isinstance(data.get(k), int) for k in ("year", "month", "day")):
        try:
            date = dt.date(data["year"], data["month"], data["day"])
        except ValueError:
            date = None
    if isinstance(when, dt.datetime):
        local = when if when.tzinfo else when.replace(tzinfo=zone)
        return local.astimezone(dt.UTC), when.isoformat(), str(label)
    if isinstance(when, dt.date):
        date = when
    if date is None:
        return _EPOCH, "", str(label)
    clock = when if isinstance(when, dt.time) else dt.time()
    local = dt.datetime.combine(date, clock, tzinfo=zone)
    text = date.isoformat() + (f" {clock.isoformat()}" if isinstance(when, dt.time) else "")
    return local.astimezone(dt.UTC), text, str(label)


def _hand_id(data: dict[str, Any], source: str, table_key: str | None) -> str:
    """The hand's identity: the room's own id where an export kept it (`_hand_id`), else the
    date, the event (a short digest: two events of a day number their hands alike), the
    table and the hand number, else the file and its table."""
    own = data.get("_hand_id")
    if isinstance(own, str | int) and str(own):
        return str(own)
    parts: list[str] = []
    if all(isinstance(data.get(k), int) for k in ("year", "month", "day")):
        parts.append(f"{data['year']:04d}-{data['month']:02d}-{data['day']:02d}")
    if isinstance(data.get("event"), str):
        parts.append(f"{zlib.crc32(data['event'].encode()):08x}")
    if isinstance(data.get("table"), str | int):
        parts.append(str(data["table"]))
    if isinstance(data.get("hand"), str | int):
        parts.append(str(data["hand"]))
    else:
        parts.append(PurePath(source).stem + (f"[{table_key}]" if table_key else ""))
    return "-".join(parts)


# ------------------------------------------------------------------ the actions


@dataclass(slots=True)
class _Player:
    name: str
    stack: int  # behind, as the hand goes
    start: int = 0  # the starting stack
    cards: int = 0  # dealt so far
    street_bet: int = 0
    folded: bool = False


@dataclass(slots=True)
class _Play:
    """The hand as its actions go: enough to name each wager as the neutral events do."""

    players: list[_Player]
    small_bet: int
    bring_in: int
    amount: _Amounts
    street: ev.Street | None = None
    level: int = 0  # the highest street total
    completed: bool = False  # 3rd street: a completion (or more) was made
    events: list[ev.Event] = field(default_factory=list)
    showdown: bool = False
    antes: list[int] = field(default_factory=list)  # each player's ante, as posted

    def wager(self, i: int, to: int, line: int, index: int) -> ev.Event:
        p = self.players[i]
        put = to - p.street_bet
        if put <= 0:
            raise PhhError(f"p{i + 1} cannot bet or raise to {to}: {p.street_bet} in", index)
        # More than the stack is the auditor's to report (LOG-STACK), not a reading error.
        all_in = put >= p.stack
        event: ev.Event
        if self.street is ev.Street.THIRD and not self.completed:
            event = ev.Complete(line, p.name, to, all_in)
            self.completed = to >= self.small_bet
        elif self.level == 0:
            event = ev.Bet(line, p.name, to, all_in)
        else:
            event = ev.Raise(line, p.name, to, to - self.level, all_in)
        self._put(p, put)
        self.level = max(self.level, to)
        return event

    def _put(self, p: _Player, chips: int) -> None:
        p.stack = max(0, p.stack - chips)
        p.street_bet += chips

    def call(self, i: int, line: int) -> ev.Event:
        p = self.players[i]
        if self.level <= p.street_bet:
            return ev.Check(line, p.name)
        put = min(self.level - p.street_bet, p.stack)
        self._put(p, put)
        return ev.Call(line, p.name, None, p.stack == 0)

    def bring(self, i: int, line: int) -> ev.Event:
        p = self.players[i]
        put = min(self.bring_in, p.stack)
        self._put(p, put)
        self.level = max(self.level, put)
        return ev.BringIn(line, p.name, None, p.stack == 0)


def _read_actions(actions: list[Any], lines: list[int], play: _Play, first: int) -> None:
    """The events of the `actions` array (`lines`: the 0-based line of each in the hand)."""
    for k, action in enumerate(actions):
        index = lines[k]
        line = first + index
        if not isinstance(action, str):
            raise PhhError(f"action {action!r} is not a string", index)
        words = action.split("#", 1)[0].split()
        if not words:
            continue  # a no-op: a commentary alone
        try:
            _read_action(words, action, play, line, index)
        except (IndexError, ValueError) as exc:
            if isinstance(exc, PhhError):
                raise
            raise PhhError(f"action {action!r}: {exc}", index) from None


def _player(word: str, play: _Play, index: int) -> int:
    if not re.fullmatch(r"p[1-9]\d*", word) or int(word[1:]) > len(play.players):
        raise PhhError(f"{word!r} is no player of the hand (p1…p{len(play.players)})", index)
    return int(word[1:]) - 1


def _read_action(words: list[str], action: str, play: _Play, line: int, index: int) -> None:
    out = play.events
    if words[0] == "d":
        if words[1:2] == ["dh"] and len(words) == 4:
            _deal(play, _player(words[2], play, index), cards_of(words[3]), line, index)
        elif words[1:2] == ["db"] and len(words) == 3:
            card = cards_of(words[2])
            if len(card) != 1:
                raise PhhError(f"action {action!r}: a stud board is one river card", index)
            _new_street(play, ev.Street.SEVENTH, line, card[0])
        else:
            raise PhhError(f"action {action!r} is no dealing action of the standard", index)
        return
    i = _player(words[0], play, index)
    verb, args = words[1] if len(words) > 1 else "", words[2:]
    name = play.players[i].name
    if verb == "pb" and not args:
        out.append(play.bring(i, line))
    elif verb == "cbr" and len(args) == 1:
        to = _amount_of(play, args[0], index)
        out.append(play.wager(i, to, line, index))
    elif verb == "cc" and not args:
        out.append(play.call(i, line))
    elif verb == "f" and not args:
        play.players[i].folded = True
        out.append(ev.Fold(line, name))
    elif verb == "sm" and len(args) <= 1:
        if not play.showdown and _betting_over(play):
            play.showdown = True
            out.append(ev.ShowDown(line))
        if not args:
            out.append(ev.Muck(line, name))
        else:
            shown = _known(play, i) if args[0] == "-" else cards_of(args[0])
            out.append(ev.Show(line, name, shown, None))
    elif verb == "sd":
        raise PhhError(f"action {action!r}: Razz has no draws", index)
    else:
        raise PhhError(f"action {action!r} is no player action of the standard", index)


def _known(play: _Play, i: int) -> tuple[str, ...]:
    """The cards dealt to player i, for `sm -` (show the cards already given)."""
    name = play.players[i].name
    cards: list[str] = []
    for e in play.events:
        if isinstance(e, ev.Dealt) and e.player == name:
            cards.extend(e.new)
    return tuple(cards)


def _betting_over(play: _Play) -> bool:
    """Whether a show is the showdown's: 7th street is dealt (an all-in player's hand shown
    before that is a show before the showdown, as Full Tilt writes one)."""
    return play.street is ev.Street.SEVENTH


def _amount_of(play: _Play, text: str, index: int) -> int:
    try:
        value = float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        raise PhhError(f"{text!r} is not an amount", index) from None
    return play.amount(value, "the amount", index)


def _new_street(play: _Play, street: ev.Street, line: int, community: str | None = None) -> None:
    play.street = street
    play.level = 0
    for p in play.players:
        p.street_bet = 0
    play.events.append(ev.StreetStart(line, street, community))


def _deal(play: _Play, i: int, cards: tuple[str, ...], line: int, index: int) -> None:
    p = play.players[i]
    if p.cards == 0:
        street = ev.Street.THIRD
    elif p.cards in _STREETS or p.cards == 6:
        street = _STREETS.get(p.cards + 1, ev.Street.SEVENTH)
    else:
        raise PhhError(f"p{i + 1} is dealt an eighth card", index)
    if play.street is None or street.number > play.street.number:
        if street is not ev.Street.THIRD and play.street is None:
            raise PhhError(f"p{i + 1} is dealt {street} street cards before 3rd street", index)
        _new_street(play, street, line)
    p.cards += len(cards)
    hidden = street is ev.Street.THIRD and cards[:2] == (UNKNOWN_CARD, UNKNOWN_CARD)
    if street is ev.Street.SEVENTH and cards == (UNKNOWN_CARD,):
        return  # a river card face down, as the opponent's line a text log never writes
    down = street in (ev.Street.THIRD, ev.Street.SEVENTH)
    hero = down and not hidden
    play.events.append(ev.Dealt(line, p.name, street, (), cards, hero or not down))


# ------------------------------------------------------------------ one hand


def read_hand(raw: RawHand) -> ev.ParseResult:
    """One PHH hand (a `.phh` file, or one table of a `.phhs` file) as events; never raises.

    >>> read_hand(RawHand("x.phh", 1, "variant = 'FR'\\nantes = [1]\\n")).message[:21]
    'a Razz hand needs its'
    """
    text = raw.text
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        index = max(0, getattr(exc, "lineno", 1) - 1)
        message = str(exc).split(" (at ", 1)[0]
        return _error(raw, index, f"not valid TOML: {message}")
    table_key = None
    tables = [(k, v) for k, v in data.items() if isinstance(v, dict)]
    if "variant" not in data and len(tables) == 1:
        table_key, data = tables[0]
    hand_id, game = game_of(text)
    variant = data.get("variant")
    if variant != "FR":
        game = VARIANTS.get(str(variant), f"PHH variant {variant}") if variant else "PHH"
        reason = f"{game} is not Razz" if variant else "no variant: not a PHH hand"
        return ev.SkippedHand(raw.source, raw.first_line, hand_id, game, reason)
    keys = _key_lines(text)
    try:
        return _read(raw, data, keys, table_key)
    except PhhError as exc:
        return _error(raw, exc.index, str(exc), _hand_id(data, raw.source, table_key))


def _error(raw: RawHand, index: int, message: str, hand_id: str | None = None) -> ev.ParseError:
    lines = raw.text.split("\n")
    index = min(index, max(0, len(lines) - 1))
    return ev.ParseError(
        raw.source, raw.first_line + index, 1, lines[index], message, (), hand_id,
        raw.first_line, raw.text,
    )  # fmt: skip


def _read(
    raw: RawHand, data: dict[str, Any], keys: dict[str, int], table_key: str | None
) -> ev.Hand:
    missing = sorted(REQUIRED - data.keys())
    if missing:
        raise PhhError(f"a Razz hand needs its {', '.join(missing)}", 0)
    if "blinds_or_straddles" in data and any(data["blinds_or_straddles"] or ()):
        raise PhhError("Razz has a bring-in, not blinds", keys.get("blinds_or_straddles", 0))
    amount = _Amounts(data)
    stacks_line = keys.get("starting_stacks", 0)
    raw_stacks = data["starting_stacks"]
    if not isinstance(raw_stacks, list) or not 2 <= len(raw_stacks) <= 8:
        raise PhhError("starting_stacks must list two to eight players", stacks_line)
    n = len(raw_stacks)
    stacks = [
        amount(s, f"p{k + 1}'s starting stack", stacks_line) for k, s in enumerate(raw_stacks)
    ]

    def per_player(key: str, kind: type | tuple[type, ...]) -> list[Any] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != n:
            raise PhhError(f"{key} must have one entry per player ({n})", keys.get(key, 0))
        if not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
            raise PhhError(f"{key} has an entry of the wrong type", keys.get(key, 0))
        return value

    antes_raw = per_player("antes", (int, float)) or []
    antes = [amount(a, "an ante", keys["antes"]) for a in antes_raw]
    names_raw = per_player("players", str)
    names = [
        (nm.strip() if names_raw and nm.strip() else f"p{k + 1}")
        for k, nm in enumerate(names_raw or [""] * n)
    ]
    if len(set(names)) != n:
        raise PhhError("two players have the same name", keys.get("players", 0))
    seats = per_player("seats", int) or list(range(1, n + 1))
    if len(set(seats)) != n:
        raise PhhError("two players have the same seat", keys.get("seats", 0))
    small, big = (amount(data[k], k, keys[k]) for k in ("small_bet", "big_bet"))
    bring_in = amount(data["bring_in"], "bring_in", keys["bring_in"])
    if not 0 < bring_in <= small <= big:
        raise PhhError("the stakes need 0 < bring_in <= small_bet <= big_bet", keys["bring_in"])
    actions = data["actions"]
    if not isinstance(actions, list):
        raise PhhError("actions must be an array of strings", keys["actions"])
    first = raw.first_line
    events: list[ev.Event] = []
    for k in range(n):
        events.append(ev.SeatLine(first + stacks_line, names[k], seats[k], stacks[k]))
    players = [_Player(names[k], stacks[k], stacks[k]) for k in range(n)]
    posted = [0] * n
    for k, a in enumerate(antes):
        if a:
            posted[k] = put = min(a, players[k].stack)
            players[k].stack -= put
            events.append(ev.PostAnte(first + keys["antes"], names[k], put, players[k].stack == 0))
    play = _Play(players, small, bring_in, amount, events=events, antes=posted)
    where = _action_lines(raw.text, keys["actions"], len(actions))
    _read_actions(actions, where, play, first)
    left = sum(not p.folded for p in players)
    if left > 1 and not play.showdown and play.street is ev.Street.SEVENTH:
        # every hand was shown before the river (all-in), or none is: the showdown is still
        # where the last action leaves the hand
        events.append(ev.ShowDown(first + (where[-1] if where else keys["actions"])))
    finishing = per_player("finishing_stacks", (int, float))
    winnings = per_player("winnings", (int, float))
    finals: list[int] | None = None
    if finishing is not None:
        finals = [
            amount(s, f"p{k + 1}'s finishing stack", keys["finishing_stacks"])
            for k, s in enumerate(finishing)
        ]
    events += _collects(play, keys, first, finals, winnings, amount)
    if finals is not None:
        line = first + keys["finishing_stacks"]
        for k, final in enumerate(finals):
            events.append(
                ev.SeatResult(line, names[k], seats[k], ev.Outcome.STACK, final_stack=final,
                              net=final - stacks[k])
            )  # fmt: skip
    started, started_text, zone = _started(data)
    ante_values = [a for a in antes if a]
    seat_count = data.get("seat_count")
    table = data.get("table")
    header = ev.HandHeader(
        site=NAME,
        hand_id=_hand_id(data, raw.source, table_key),
        game=RAZZ,
        is_razz=True,
        mixed=None,
        limit="Limit",
        kind=ev.GameKind.CASH
        if data.get("_kind") == "cash" or ("_kind" not in data and amount.unit is ev.Unit.CENT)
        else ev.GameKind.TOURNAMENT,
        small_bet=small,
        big_bet=big,
        ante=max(ante_values, key=ante_values.count) if ante_values else None,
        bring_in=bring_in,
        unit=amount.unit,
        currency=data["currency"] if isinstance(data.get("currency"), str) else None,
        play_money=False,
        table=str(table) if isinstance(table, str | int) else "",
        max_seats=seat_count if isinstance(seat_count, int) else None,
        tournament_id=str(data["_tournament_id"]) if "_tournament_id" in data else None,
        buy_in=(),
        level=str(data["level"]) if isinstance(data.get("level"), int | str) else None,
        match_round=None,
        club=None,
        started_at=started,
        started_text=started_text,
        time_zone=zone,
        source=raw.source,
        first_line=first,
    )
    return ev.Hand(header, tuple(events), raw.text)


def _returned(players: list[_Player], antes: list[int]) -> list[int]:
    """What each player gets back uncalled at the end: the most put in over the next most,
    out of what was bet (PHH writes no line for it; the engine returns it the same way). An
    ante nobody could match is not returned: with `ante_trimming_status` its excess is a pot
    of its own that its owner wins back, as PokerKit and the rooms pay it.

    >>> _returned([_Player("a", 0, 10), _Player("b", 4, 10)], [0, 0])
    [4, 0]
    >>> _returned([_Player("a", 0, 96), _Player("b", 5784, 5904)], [120, 120])
    [0, 0]
    """
    back = [0] * len(players)
    put = sorted(((p.start - p.stack, k) for k, p in enumerate(players)), reverse=True)
    if len(put) > 1 and put[0][0] > put[1][0]:
        (most, top), (second, _) = put[0], put[1]
        back[top] = min(most - second, most - min(antes[top], most))
    return back


def _collects(
    play: _Play,
    keys: dict[str, int],
    first: int,
    finals: list[int] | None,
    winnings: list[Any] | None,
    amount: _Amounts,
) -> list[ev.Event]:
    """The pots paid, as the hand states them: its `winnings`, else what its
    `finishing_stacks` hold beyond what each player kept (and got back uncalled). A hand
    that states neither says nobody was paid: the auditor then says who should have been."""
    names = [p.name for p in play.players]
    if winnings is not None:
        line = first + keys["winnings"]
        won = [amount(w, f"p{k + 1}'s winnings", keys["winnings"]) for k, w in enumerate(winnings)]
    elif finals is not None:
        line = first + keys["finishing_stacks"]
        back = _returned(play.players, play.antes)
        won = [finals[k] - p.stack - back[k] for k, p in enumerate(play.players)]
    else:
        return []
    back = _returned(play.players, play.antes)
    put = [p.start - p.stack - back[k] for k, p in enumerate(play.players)]
    pots = _pots(put, [p.folded for p in play.players])
    if len(pots) == 1:
        return [ev.Collect(line, names[k], w, "pot", None) for k, w in enumerate(won) if w > 0]
    left = list(won)
    paid: list[tuple[int, int, int]] = []  # (pot, player, amount)
    # From the main pot up, the winners who can win least (the shortest all-in) take each
    # pot first, and the others what is left of it. The rake (what was put in and not paid)
    # comes out of each pot in proportion, as PokerStars takes it.
    total, paid_out = sum(put), sum(w for w in won if w > 0)
    reach = {k: max(n for n, (_, e) in enumerate(pots) if k in e) for _, e in pots for k in e}
    for number, (in_pot, eligible) in enumerate(pots):
        amount_left = round(in_pot * paid_out / total) if total else 0
        taken = False
        for k in sorted(eligible, key=lambda k: (reach[k], k)):
            # (a few units left over once the pot is paid are the rake's rounding, not a
            # share of a split pot; a side pot of a few units nobody took yet is a pot)
            rest = amount_left if amount_left > len(pots) or not taken else 0
            share = left[k] if reach[k] == number else min(left[k], rest)
            if share > 0:
                taken = True
                paid.append((number, k, share))
                left[k] -= share
                amount_left -= share
    return [
        ev.Collect(line, names[k], w, "main pot" if n == 0 else f"side pot-{n}", n or None)
        for n, k, w in sorted(paid, key=lambda t: (-t[0], t[1]))  # the last side pot first
    ]


def _pots(put: list[int], folded: list[bool]) -> list[tuple[int, list[int]]]:
    """The main pot and the side pots: (amount, the players who can win it), in order.

    >>> _pots([10, 30, 30], [False, False, False])
    [(30, [0, 1, 2]), (40, [1, 2])]
    """
    levels = sorted({put[k] for k in range(len(put)) if not folded[k] and put[k] > 0})
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in put)
        eligible = [k for k in range(len(put)) if not folded[k] and put[k] >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        below = level
    rest = sum(put) - sum(a for a, _ in pots)
    if rest and pots:  # chips of folded players above every live level: the last pot's
        pots[-1] = (pots[-1][0] + rest, pots[-1][1])
    return pots


class _Reader:
    def read(self, raw: RawHand) -> ev.ParseResult:
        return read_hand(raw)


class Phh(Site):
    name = NAME
    title = "PHH"
    suffixes = (".phh", ".phhs")
    # The actions only (../docs/phh-std/required.rst): no street lines, no amount on a call,
    # no all-in mark, no uncalled bet, no pots, no summary, no hand descriptions; and the
    # pots paid only when the hand gives `winnings` or `finishing_stacks`, both optional
    # (../docs/phh-std/optional.rst): a hand without them says nothing about the payment.
    dialect = replace(NO_LOG_LINES, payouts=False, others_down_cards="always")  # every hand known
    # The standard asks annotators to follow the WSOP rules; the WSOP hands of the corpus
    # play as PokerStars does (see replay/ruleset.py, `phh`).
    ruleset = "phh"

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def starts_hand(self, line: str) -> bool:
        return _TABLE.match(line) is not None

    def cut(self, lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
        """The whole file, or one hand per table of a `.phhs` file (empty lines are TOML's)."""
        block: list[str] = []
        first, problem, problem_line = 1, None, 0
        for number, (line, too_long) in enumerate(lines, start=1):
            if _TABLE.match(line) and any(x.strip() for x in block):
                yield RawHand(source, first, "".join(block), problem, problem_line)
                block, problem = [], None
            if not block:
                if not line.strip():
                    continue
                first = number
            if too_long and problem is None:
                problem, problem_line = LINE_TOO_LONG, number
            if len(block) < MAX_HAND_LINES:
                block.append(line if line.endswith("\n") else line + "\n")
            elif problem is None:
                problem, problem_line = HAND_TOO_LONG, number
        if any(x.strip() for x in block):
            yield RawHand(source, first, "".join(block), problem, problem_line)

    def reader(self) -> _Reader:
        return _Reader()

    def complete(self, text: str) -> bool:
        """The TOML reads, and the hand has every field the standard requires of a stud game
        (optional fields, such as the finishing stacks, may follow them)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
        tables = [data, *(v for v in data.values() if isinstance(v, dict))]
        return any(t.keys() >= REQUIRED for t in tables)


SITE = Phh()
