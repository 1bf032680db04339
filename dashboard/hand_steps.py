"""One hand as steps for the replayer: after each action, who holds which cards, stacks, bets, pot.

The steps follow the hand's own lines as the parser reads them (the deal of each street, every
action, the shows, the collections, the summary), so that each step knows the file lines it
covers and a finding on any line lands on the step of that line. The money after each action
is the store's (`actions.pot_after`, `stack_after`: what the auditor computed); a line the store
has no action for falls back on the amounts written in the log.

A player's down cards are known only when the log shows them: the hero's (the log's owner)
from the deal on, anyone else's from the step where they are shown. Nothing here is HTML:
names and texts stay plain strings (see `table_html` for drawing them safely).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from razz.parser import events as ev

STREETS = ("3rd", "4th", "5th", "6th", "7th")
STREET_NAMES = {"3rd": "3rd street", "4th": "4th street", "5th": "5th street",
                "6th": "6th street", "7th": "7th street (river)"}


@dataclass(frozen=True, slots=True)
class Card:
    """A card in front of a player: `code` ('Ah') when known, '' when only its back is seen."""

    code: str
    down: bool  # dealt face down (a hole card)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at one step."""

    seat: int
    player: str
    hero: bool
    stack: int
    bet: int = 0  # put in on the current street
    cards: tuple[Card, ...] = ()
    folded: bool = False
    all_in: bool = False
    action: str = ""  # the player's last action on this street, e.g. "calls $0.04"
    acting: bool = False  # the player of this step's action
    collected: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one step of the hand."""

    lines: tuple[int, ...]  # file lines this step covers, the first being where it starts
    text: str  # what happened, e.g. "Zoë the hero raises $0.02 to $0.04"
    street: str | None  # '3rd' … '7th'; None before the deal and from the showdown on
    phase: str  # 'seats', 'antes', a street, 'showdown', 'summary'
    pot: int
    seats: tuple[Seat, ...]
    community: str | None = None
    notes: tuple[str, ...] = ()  # chat and other lines said during this step, as written

    @property
    def line(self) -> int:
        return self.lines[0]


@dataclass
class _Table:
    """The mutable state the steps are snapshots of."""

    seats: dict[str, Seat]
    order: list[str]
    pot: int = 0
    street: str | None = None
    phase: str = "seats"
    community: str | None = None
    steps: list[Step] = field(default_factory=list)

    def set(self, player: str, **changes: Any) -> None:
        if player in self.seats:
            self.seats[player] = replace(self.seats[player], **changes)

    def snapshot(self, lines: Sequence[int], text: str, actor: str | None = None,
                 notes: Iterable[str] = ()) -> None:
        seats = tuple(replace(self.seats[p], acting=p == actor) for p in self.order)
        self.steps.append(Step(tuple(lines), text, self.street, self.phase, self.pot, seats,
                               self.community, tuple(notes)))


_ACTION_EVENTS = (ev.BringIn, ev.Bet, ev.Complete, ev.Call, ev.Raise, ev.Check, ev.Fold)
_HIDDEN = ev.UNKNOWN_CARD  # "??": a card the log does not show


def build(
    hand: ev.Hand,
    first_line: int,
    seats: Iterable[tuple[int, str, bool, int]],
    actions: dict[int, dict[str, Any]],
    money: Callable[[int], str],
) -> list[Step]:
    """The steps of a parsed hand.

    `seats` are (seat, player, hero, starting stack) of the players dealt in; `actions` maps a
    file line to the store's action there (kind, amount, to_amount, all_in, pot_after,
    stack_after); `money` writes an amount as people read it. Event lines are counted from the
    hand's text, which starts at `first_line` of the file.
    """
    ordered = sorted(seats)
    table = _Table(
        seats={p: Seat(s, p, bool(h), int(stack)) for s, p, h, stack in ordered},
        order=[p for _, p, _, _ in ordered],
    )
    offset = first_line - 1
    items = [(e.line + offset, e) for e in hand.events]
    last_seat = max((line for line, e in items if isinstance(e, ev.SeatLine)),
                    default=first_line)
    start_lines = list(range(first_line, last_seat + 1))  # the header, table and seat lines
    table.snapshot(start_lines, f"{len(ordered)} players sit down; their stacks as the hand "
                                "starts.")
    i = 0
    pending: list[int] = []  # lines (a `SHOW DOWN` marker…) that open the next step
    while i < len(items):
        line, event = items[i]
        if isinstance(event, ev.SeatLine):
            i += 1
        elif isinstance(event, ev.PostAnte):
            i = _antes(table, items, i, actions, money)
        elif isinstance(event, ev.StreetStart):
            i = _deal(table, items, i)
        elif isinstance(event, _ACTION_EVENTS):
            _action(table, line, event, actions.get(line), money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.UncalledBet):
            _uncalled(table, line, event, actions.get(line), money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.ShowDown):
            table.phase, table.street = "showdown", None
            pending.append(line)
            i += 1
        elif isinstance(event, ev.Show | ev.Muck | ev.NoShow):
            _show(table, line, event, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.Collect):
            _collect(table, line, event, actions.get(line), money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.Summary):
            i = _summary(table, items, i, money)
        else:  # chat, joins, a capped betting round…: said during the current step
            _note(table, line, event)
            i += 1
    return table.steps


def _antes(table: _Table, items: list[tuple[int, ev.Event]], i: int,
           actions: dict[int, dict[str, Any]], money: Callable[[int], str]) -> int:
    """All the antes, one step."""
    lines, amounts = [], []
    table.phase = "antes"
    while i < len(items) and isinstance(items[i][1], ev.PostAnte):
        line, ante = items[i]
        assert isinstance(ante, ev.PostAnte)
        stored = actions.get(line)
        seat = table.seats.get(ante.player)
        if stored is not None:
            table.pot = int(stored["pot_after"])
            table.set(ante.player, stack=int(stored["stack_after"]),
                      all_in=bool(stored["all_in"]))
        elif seat is not None:
            table.pot += ante.amount
            table.set(ante.player, stack=seat.stack - ante.amount, all_in=ante.all_in)
        lines.append(line)
        amounts.append(ante.amount)
        i += 1
    same = len(set(amounts)) == 1
    text = (f"Antes: {len(amounts)} × {money(amounts[0])}" if same
            else "Antes: " + ", ".join(money(a) for a in amounts))
    table.snapshot(lines, text + f", in the pot {money(table.pot)}.")
    return i


def _deal(table: _Table, items: list[tuple[int, ev.Event]], i: int) -> int:
    """A street's cards, one step: the street line and every `Dealt to` line after it."""
    line, start = items[i]
    assert isinstance(start, ev.StreetStart)
    street = str(start.street)
    table.street, table.phase = street, street
    table.community = start.community or table.community
    lines = [line]
    for player in table.order:  # the chips of the last street are in the pot now
        seat = table.seats[player]
        table.set(player, bet=0, action="folded" if seat.folded else "")
    dealt: dict[str, ev.Dealt] = {}
    i += 1
    while i < len(items) and isinstance(items[i][1], ev.Dealt):
        dealt_line, event = items[i]
        assert isinstance(event, ev.Dealt)
        dealt.setdefault(event.player, event)  # a second line for one player: a finding
        lines.append(dealt_line)
        i += 1
    for player in table.order:
        seat = table.seats[player]
        if seat.folded:
            continue
        line_of = dealt.get(player)
        held = seat.cards
        if line_of is not None and line_of.previous:  # `[old …] [new]`: the cards so far
            held = _filled(held, line_of.previous)
        table.set(player, cards=held + _new_cards(street, line_of, start.community is not None))
    what = {"3rd": "two cards down and one up each", "7th": "one card down each"}
    text = f"{STREET_NAMES[street]}: " + what.get(street, "one card up each")
    if start.community:
        text = (f"{STREET_NAMES[street]}: too few cards left for everyone, one community card "
                f"for all: {start.community}")
    table.snapshot(lines, text + ".")
    return i


def _filled(cards: tuple[Card, ...], seen: Sequence[str]) -> tuple[Card, ...]:
    """Cards completed by a later line that repeats them in position order (`??` where it
    hides one): a player whose 3rd-street line is missing is seen with his door card on 4th.

    >>> _filled((Card("", True), Card("", True), Card("", False)), ("??", "??", "Qc"))[2]
    Card(code='Qc', down=False)
    """
    if len(seen) != len(cards):  # not the same cards: keep what is known
        return cards
    return tuple(Card(code, card.down) if not card.code and code != _HIDDEN else card
                 for card, code in zip(cards, seen, strict=True))


def _new_cards(street: str, dealt: ev.Dealt | None, community: bool) -> tuple[Card, ...]:
    """The cards a player gets on a street, known or not: on 3rd street down, down, up; on
    7th one down (none when a community card is dealt instead); else one up."""
    if street == "7th" and community:
        return ()
    count = 3 if street == "3rd" else 1
    new = list(dealt.new if dealt is not None else ())[-count:]
    new = [_HIDDEN] * (count - len(new)) + new
    down = [True, True, False] if street == "3rd" else [street == "7th"]
    return tuple(Card("" if code == _HIDDEN else code, is_down)
                 for code, is_down in zip(new, down, strict=True))


def _action(table: _Table, line: int, event: ev.Event, stored: dict[str, Any] | None,
            money: Callable[[int], str], pending: list[int]) -> None:
    """A bring-in, completion, bet, raise, call, check or fold: one step."""
    assert isinstance(event, ev.PlayerEvent)
    player = event.player
    seat = table.seats.get(player)
    before = seat.bet if seat is not None else 0
    kind = str(stored["kind"]) if stored is not None else ""
    written = getattr(event, "amount", None)  # None where the site writes no amount
    if written is None and stored is not None and not pd.isna(stored["amount"]):
        written = int(stored["amount"])
    bet = before
    if isinstance(event, ev.Raise | ev.Complete):
        bet = event.to
        if isinstance(event, ev.Complete) or kind == "complete":
            said = f"completes to {money(event.to)}"
        elif isinstance(event, ev.Raise) and event.amount is not None:
            said = f"raises {money(event.amount)} to {money(event.to)}"
        else:
            said = f"raises to {money(event.to)}"
    elif isinstance(event, ev.BringIn):
        bet += written or 0
        said = f"brings in for {money(written)}" if written else "brings in"
    elif isinstance(event, ev.Bet):
        bet += written or 0
        said = (f"completes to {money(bet)}" if kind == "complete"
                else f"bets {money(written or 0)}")
    elif isinstance(event, ev.Call):
        if written is None:  # what matches the highest bet of the street
            written = max((s.bet for s in table.seats.values()), default=0) - before
        bet += written
        said = f"calls {money(written)}"
    elif isinstance(event, ev.Check):
        said = "checks"
    else:
        said = "folds"
    all_in = bool(getattr(event, "all_in", False))
    if all_in:
        said += " and is all-in"
    changes: dict[str, Any] = {
        "bet": bet, "action": "folded" if isinstance(event, ev.Fold) else said,
        "all_in": all_in or (seat is not None and seat.all_in)}
    if isinstance(event, ev.Fold):
        changes["folded"] = True
    if stored is not None:
        table.pot = int(stored["pot_after"])
        changes["stack"] = int(stored["stack_after"])
    elif seat is not None:
        table.pot += bet - before
        changes["stack"] = seat.stack - (bet - before)
    table.set(player, **changes)
    table.snapshot([*pending, line], f"{player} {said}", actor=player)


def _uncalled(table: _Table, line: int, event: ev.UncalledBet, stored: dict[str, Any] | None,
              money: Callable[[int], str], pending: list[int]) -> None:
    seat = table.seats.get(event.player)
    if seat is not None:
        stack = int(stored["stack_after"]) if stored is not None else seat.stack + event.amount
        table.set(event.player, stack=stack, bet=max(0, seat.bet - event.amount))
    table.pot = int(stored["pot_after"]) if stored is not None else table.pot - event.amount
    table.snapshot([*pending, line],
                   f"The uncalled {money(event.amount)} goes back to {event.player}",
                   actor=event.player)


def _show(table: _Table, line: int, event: ev.Event, pending: list[int]) -> None:
    """A player shows (their down cards become known), mucks, or does not show."""
    assert isinstance(event, ev.PlayerEvent)
    table.phase, table.street = "showdown", None
    seat = table.seats.get(event.player)
    if isinstance(event, ev.Show):
        if seat is not None:
            table.set(event.player, cards=_revealed(seat.cards, event.cards))
        described = f" ({event.description})" if event.description else ""
        text = f"{event.player} shows {' '.join(event.cards)}{described}"  # as written
        table.set(event.player, action=f"shows{described}")
    elif isinstance(event, ev.Muck):
        text = f"{event.player} mucks"
        table.set(event.player, action="mucks")
    else:
        text = f"{event.player} does not show"
        table.set(event.player, action="does not show")
    table.snapshot([*pending, line], text, actor=event.player)


def _revealed(cards: tuple[Card, ...], shown: Sequence[str]) -> tuple[Card, ...]:
    """A player's cards once shown: the unknown down cards take the shown cards not yet seen,
    in order (a stud hand is shown as down, down, up … up, down)."""
    seen = {c.code for c in cards if c.code}
    hidden = [code for code in shown if code not in seen and code != _HIDDEN]
    out = []
    for card in cards:
        if not card.code and hidden:
            out.append(Card(hidden.pop(0), card.down))
        else:
            out.append(card)
    return tuple(out)


def _collect(table: _Table, line: int, event: ev.Collect, stored: dict[str, Any] | None,
             money: Callable[[int], str], pending: list[int]) -> None:
    if table.phase not in ("showdown", "summary"):
        table.phase, table.street = "showdown", None
    seat = table.seats.get(event.player)
    if seat is not None:
        stack = int(stored["stack_after"]) if stored is not None else seat.stack + event.amount
        table.set(event.player, stack=stack, collected=seat.collected + event.amount)
    for player in table.order:  # the bets are swept into the pot being paid
        table.set(player, bet=0)
    table.pot = int(stored["pot_after"]) if stored is not None else table.pot - event.amount
    table.snapshot([*pending, line],
                   f"{event.player} collects {money(event.amount)} from the {event.pot_label}",
                   actor=event.player)


def _summary(table: _Table, items: list[tuple[int, ev.Event]], i: int,
             money: Callable[[int], str]) -> int:
    """The summary, one step: cards shown there become known; the total pot and rake."""
    table.phase, table.street = "summary", None
    lines, total = [], None
    while i < len(items):
        line, event = items[i]
        lines.append(line)
        if isinstance(event, ev.SeatResult) and event.cards:
            seat = table.seats.get(event.player)
            if seat is not None:
                table.set(event.player, cards=_revealed(seat.cards, event.cards))
        elif isinstance(event, ev.TotalPot):
            total = event
        i += 1
    text = "Summary"
    if total is not None and total.total is not None:
        text += f": total pot {money(total.total)}, rake {money(total.rake)}"
    elif total is not None:
        text += f": rake {money(total.rake)}"
    table.snapshot(lines, text + ".")
    return i


def _note(table: _Table, line: int, event: ev.Event) -> None:
    """A line that changes nothing: attach it to the step being played, as written."""
    if isinstance(event, ev.Noise):
        said = f"{event.player}: {event.text}" if event.player else event.text
    elif isinstance(event, ev.BettingCapped):
        said = "The betting is capped."
    elif isinstance(event, ev.BringInCard):
        said = f"{event.player} has the {'highest' if event.high else 'lowest'} door card, " \
               f"{event.card}, and brings in."
    else:
        said = type(event).__name__
    if not table.steps:
        return
    last = table.steps[-1]
    table.steps[-1] = replace(last, lines=(*last.lines, line), notes=(*last.notes, said))


def step_of_line(steps: Sequence[Step], line: int) -> int:
    """The step a file line belongs to: the last one starting at or before it.

    >>> steps = [Step((10, 11), "a", None, "seats", 0, ()), Step((14,), "b", None, "antes", 4, ())]
    >>> step_of_line(steps, 12), step_of_line(steps, 14), step_of_line(steps, 3)
    (0, 1, 0)
    """
    found = 0
    for index, step in enumerate(steps):
        if step.line <= line:
            found = index
        else:
            break
    return found


def from_text(
    text: str,
    first_line: int,
    seats: Iterable[tuple[int, str, bool, int]],
    actions: Any,
    money: Callable[[int], str],
) -> list[Step]:
    """The steps of a stored hand: its text read again by the parser, with the store's
    actions (a frame with line, kind, amount, to_amount, all_in, pot_after, stack_after).
    Empty when the text no longer reads as a hand."""
    from razz.parser import Hand, read_text

    hand = next((r for r in read_text(text) if isinstance(r, Hand)), None)
    if hand is None:
        return []
    columns = ["kind", "amount", "to_amount", "all_in", "pot_after", "stack_after"]
    stored = {int(line): dict(zip(columns, values, strict=True))
              for line, *values in actions[["line", *columns]].itertuples(index=False)}
    return build(hand, first_line, seats, stored, money)
