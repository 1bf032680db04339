"""Any hand read, from any room, as PHH (TOML; ../docs/phh-std): the required fields, the
optional ones the hand knows, and the room's own identity as `_`-prefixed custom fields.

Players are listed in seat order (PHH numbers them from the dealer's left, and stud has no
button: seat order is the dealing order) and only those dealt in. The actions follow the
standard: every player still in is dealt each street (`??` where the log hides a card: a
text log never writes an opponent's river card), `pb`, `cbr` with the street total, `cc`,
`f`, and at the showdown `sm` with the cards shown, or `sm` alone for a hand mucked or never
shown. When everyone left is all-in before 7th street, the cards dealt after are the ones the
hands show at the end, and the hands are shown after the river, whole (PokerKit kills a hand
shown at the all-in whose river card comes after the show). A player all-in for less than
the ante is written with the full ante and `ante_trimming_status = true`: he wins only what he
matched, as in every room.

A PHH hand written back keeps every field of its text that the events do not carry (author,
event, venue …), so PHH -> events -> PHH gives the same fields.

>>> from razz.parser import read_text
>>> from razz.parser.sites.phh import EXAMPLE
>>> [hand] = read_text(EXAMPLE, "x.phh")
>>> print(dumps(fields(hand)).split("\\n")[6])
actions = ['d dh p1 Ah2c9d', 'd dh p2 3s4sKd', 'p2 pb', 'p1 cbr 2', 'p2 f']
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import tomllib
from collections.abc import Sequence
from typing import Any

from razz.parser import events as ev
from razz.parser.events import UNKNOWN_CARD

REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
# Fields the events decide; the rest of a PHH hand's own text is kept as it was.
FROM_EVENTS = frozenset((*REQUIRED, "players", "seats", "finishing_stacks"))
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class NotExportable(ValueError):
    """Why a hand cannot be written as PHH (no Razz deal to write)."""


def fields(hand: ev.Hand, final_stacks: dict[str, int] | None = None) -> dict[str, Any]:
    """The PHH fields of a hand, required ones first. `final_stacks` (by player: what the
    replay left each) gives `finishing_stacks`; without it, the hand's own are kept."""
    h = hand.header
    events = hand.events
    seats = [e for e in events if isinstance(e, ev.SeatLine)]
    dealt_in = {e.player for e in events if isinstance(e, ev.Dealt | ev.PostAnte | ev.BringIn)}
    seats = sorted(
        (s for s in seats if s.player in dealt_in and not s.out_of_hand), key=lambda s: s.seat
    )
    if len(seats) < 2:
        raise NotExportable("fewer than two players are dealt in")
    names = [s.player for s in seats]
    index = {name: k for k, name in enumerate(names)}
    num = _Number(h.unit)
    antes_posted = {e.player: e for e in events if isinstance(e, ev.PostAnte)}
    nominal = h.ante
    if nominal is None:
        full = [e.amount for e in antes_posted.values() if not e.all_in]
        nominal = max(full, default=max((e.amount for e in antes_posted.values()), default=0))
    antes = []
    for name in names:
        posted = antes_posted.get(name)
        antes.append(0 if posted is None else posted.amount if not posted.all_in else nominal)
    out: dict[str, Any] = {
        "variant": "FR",
        "antes": [num(a) for a in antes],
        "bring_in": num(_bring_in(hand)),
        "small_bet": num(h.small_bet),
        "big_bet": num(h.big_bet),
        "starting_stacks": [num(s.stack) for s in seats],
        "actions": _Actions(hand, index, num).write(),
        "players": names,
        "seats": [s.seat for s in seats],
    }
    if any(p.all_in and p.amount < nominal for p in antes_posted.values()):
        # A player all-in for less than the ante wins only what he matched (every room
        # returns the excess); PHH's default (false) would let him win every ante.
        out["ante_trimming_status"] = True
    if final_stacks is not None:
        out["finishing_stacks"] = [num(final_stacks[name]) for name in names]
    else:
        finals = {e.player: e.final_stack for e in events if isinstance(e, ev.SeatResult)}
        if all(finals.get(name) is not None for name in names):
            out["finishing_stacks"] = [num(finals[name] or 0) for name in names]
    if h.site == "PHH":
        return _as_written(hand, out)
    out.update(_described(h))
    return out


def _described(h: ev.HandHeader) -> dict[str, Any]:
    """The optional fields the header knows, and the room's identity (`_site`, `_hand_id`)."""
    out: dict[str, Any] = {}
    if h.max_seats:
        out["seat_count"] = h.max_seats
    if h.table:
        out["table"] = h.table
    if h.hand_id.isdigit() and int(h.hand_id) < 2**63:
        out["hand"] = int(h.hand_id)
    if h.currency and h.unit is ev.Unit.CENT:  # a tournament's currency is its buy-in's
        out["currency"] = h.currency
    if h.started_at.year > 1970:
        utc = h.started_at.astimezone(dt.UTC)
        out |= {"time": utc.time().replace(tzinfo=None), "time_zone": "UTC"}
        out |= {"day": utc.day, "month": utc.month, "year": utc.year}
    out["_site"] = h.site
    out["_hand_id"] = h.hand_id
    out["_kind"] = str(h.kind)
    if h.tournament_id:
        out["_tournament_id"] = h.tournament_id
    if h.level:
        out["_level"] = h.level
    if h.mixed:
        out["_mixed"] = h.mixed
    if h.started_text:
        out["_started_text"] = h.started_text
    return out


def _as_written(hand: ev.Hand, out: dict[str, Any]) -> dict[str, Any]:
    """A PHH hand's fields: what the events decide, and every other field of its own text
    (an optional field the events decide is written only where the text had it)."""
    try:
        data = tomllib.loads(hand.text)
    except tomllib.TOMLDecodeError:
        return out
    tables = [v for v in data.values() if isinstance(v, dict)]
    if "variant" not in data and len(tables) == 1:
        data = tables[0]
    written = {k: v for k, v in out.items() if k in REQUIRED or k in data}
    return written | {k: v for k, v in data.items() if k not in FROM_EVENTS}


def _bring_in(hand: ev.Hand) -> int:
    """The bring-in: as the header states it, else as posted in full, else the one the
    table's other hands show (the auditor infers it), else the usual half small bet."""
    h = hand.header
    if h.bring_in is not None:
        return h.bring_in
    for e in hand.events:
        if isinstance(e, ev.BringIn) and e.amount is not None and not e.all_in:
            return e.amount
    return max(1, h.small_bet // 2)


class _Number:
    """Amounts of the hand's unit as PHH numbers: chips as integers, cents as currency."""

    def __init__(self, unit: ev.Unit) -> None:
        self.cents = unit is ev.Unit.CENT

    def __call__(self, units: int) -> int | float:
        return units / 100 if self.cents else units

    def text(self, units: int) -> str:
        return _value(self(units))


class _Actions:
    """The `actions` array of a hand: its events in PHH notation, street by street."""

    def __init__(self, hand: ev.Hand, index: dict[str, int], num: _Number) -> None:
        self.hand, self.index, self.num = hand, index, num
        self.out: list[str] = []
        self.folded: set[int] = set()
        self.dealt: dict[int, list[str]] = {}  # pending deals of the current street
        self.street: ev.Street | None = None
        self.street_bet = [0] * len(index)
        self.stack = [0] * len(index)
        self.shown: set[int] = set()
        self.showdown = False
        self.pending = False  # a street began and its deal is not written yet
        self.all_in_shown = False
        self.finals = self._final_cards()
        self.held = [0] * len(index)  # cards dealt so far

    def _final_cards(self) -> dict[int, tuple[str, ...]]:
        """Each player's cards as the hand finally shows them (for all-in run-outs)."""
        found: dict[int, tuple[str, ...]] = {}
        for e in self.hand.events:
            if isinstance(e, ev.Show) and e.player in self.index:
                found[self.index[e.player]] = e.cards
        return found

    def p(self, name: str) -> str:
        return f"p{self.index[name] + 1}"

    def write(self) -> list[str]:
        for e in self.hand.events:
            if isinstance(e, ev.SeatLine) and e.player in self.index:
                self.stack[self.index[e.player]] = e.stack
            elif isinstance(e, ev.PostAnte) and e.player in self.index:
                self.stack[self.index[e.player]] -= e.amount
            elif isinstance(e, ev.StreetStart):
                self._flush()
                self.street = e.street
                self.street_bet = [0] * len(self.index)
                self.pending = e.community is None
                if e.community is not None:
                    self.out.append(f"d db {e.community}")
            elif isinstance(e, ev.Dealt) and e.player in self.index:
                self.dealt[self.index[e.player]] = list(e.new)
            elif isinstance(e, ev.Show | ev.Muck) and e.player in self.index:
                self._flush()
                self._show(e)
            elif isinstance(e, ev.ShowDown):
                self._flush()
                self.showdown = True
            elif isinstance(e, ev.PlayerEvent) and e.player in self.index:
                action = self._action(e)
                if action is not None:
                    self._flush()
                    self.out.append(action)
                    self._after_betting()
        self._flush()
        if self.showdown or self._contested() or self.all_in_shown:
            for k in range(len(self.index)):
                if k not in self.folded and k not in self.shown:
                    # A hand shown all-in before the river is shown here, whole.
                    shown = "".join(self.finals.get(k, ()))
                    self.out.append(f"p{k + 1} sm {shown}".rstrip())
        return self.out

    def _contested(self) -> bool:
        return len(self.index) - len(self.folded) > 1 and self.street is ev.Street.SEVENTH

    def _flush(self) -> None:
        """The deals of the street, once, in player order: every player still in, with
        hidden cards where the log has no line for them."""
        if not self.pending or self.street is None:
            return
        self.pending = False
        count = 3 if self.street is ev.Street.THIRD else 1
        for k in range(len(self.index)):
            if k in self.folded:
                continue
            cards = self.dealt.get(k) or [UNKNOWN_CARD] * count
            if self.all_in_shown and k in self.finals:
                final, at = self.finals[k], self.held[k]
                cards = [
                    final[at + j] if c == UNKNOWN_CARD and at + j < len(final) else c
                    for j, c in enumerate(cards)
                ]
            self.held[k] += len(cards)
            self.out.append(f"d dh p{k + 1} {''.join(cards)}")
        self.dealt = {}

    def _action(self, e: ev.Event) -> str | None:
        assert isinstance(e, ev.PlayerEvent)
        k = self.index[e.player]
        p = self.p(e.player)
        if isinstance(e, ev.BringIn):
            put = e.amount if e.amount is not None else min(_bring_in(self.hand), self.stack[k])
            self._put(k, put)
            return f"{p} pb"
        if isinstance(e, ev.Complete | ev.Raise):
            self._put(k, e.to - self.street_bet[k])
            return f"{p} cbr {self.num.text(e.to)}"
        if isinstance(e, ev.Bet):
            to = self.street_bet[k] + e.amount
            self._put(k, e.amount)
            return f"{p} cbr {self.num.text(to)}"
        if isinstance(e, ev.Call):
            level = max(self.street_bet)
            self._put(k, min(level - self.street_bet[k], self.stack[k]))
            return f"{p} cc"
        if isinstance(e, ev.Check):
            return f"{p} cc"
        if isinstance(e, ev.Fold):
            self.folded.add(k)
            return f"{p} f"
        return None  # collects, summary lines, noise: PHH writes none

    def _put(self, k: int, chips: int) -> None:
        self.street_bet[k] += chips
        self.stack[k] -= chips

    def _after_betting(self) -> None:
        """Everyone left all-in but one at most, the betting matched, before 7th street: the
        rest is dealt face up as the hands are shown at the end. The hands are shown after the
        river (the standard allows the show then or at the all-in): PokerKit kills a hand
        shown at the all-in whose river card is dealt after the show, and pays nobody."""
        if self.all_in_shown or self.street is None or self.street is ev.Street.SEVENTH:
            return
        left = [k for k in range(len(self.index)) if k not in self.folded]
        if len(left) < 2 or sum(self.stack[k] > 0 for k in left) > 1:
            return
        level = max(self.street_bet)
        if any(self.stack[k] > 0 and self.street_bet[k] < level for k in left):
            return  # someone still has to act
        if not all(k in self.finals for k in left):
            return  # the log does not show them: nothing to show early
        self.all_in_shown = True

    def _show(self, e: ev.Show | ev.Muck) -> None:
        k = self.index[e.player]
        if k in self.shown or k in self.folded:
            return
        left = len(self.index) - len(self.folded)
        if isinstance(e, ev.Show) and left > 1 and not self.showdown and (
            self.street is not ev.Street.SEVENTH
        ):
            return  # a hand exposed all-in (Full Tilt, KingsClub): shown whole at the end
        self.shown.add(k)
        if isinstance(e, ev.Muck):
            self.out.append(f"p{k + 1} sm")
        else:
            self.out.append(f"p{k + 1} sm {''.join(e.cards)}")


# ------------------------------------------------------------------ TOML


def _value(v: Any) -> str:
    """A TOML value: strings quoted as the standard's examples do, numbers, times, arrays."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        if "'" not in v and "\n" not in v and v.isprintable():
            return f"'{v}'"
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dt.datetime | dt.date | dt.time):
        return v.isoformat()
    if isinstance(v, Sequence):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def dumps(data: dict[str, Any]) -> str:
    """One hand's fields as a `.phh` text: `key = value` lines, in the order given."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


def dumps_all(hands: Sequence[dict[str, Any]]) -> str:
    """Several hands as a `.phhs` text: one table each, `[1]`, `[2]` …"""
    return "\n".join(f"[{k}]\n{dumps(data)}" for k, data in enumerate(hands, start=1))
