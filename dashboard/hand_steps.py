"""One hand as steps for the replayer: after each action, who holds which cards, stacks, bets, pot.

The steps follow the hand's events in the order the parser gives them, which is the order of
the game (the deal of each street, every action, the shows, the collections, the summary), not
always the order of the file's lines: a Merge XML file writes an uncalled bet and the showdown
in its end-of-game block, a PHH file its antes and payouts in its header. Each step knows the
file lines it covers, so that a finding on any line lands on the step of that line. The money
after each action is the store's (`actions.pot_after`, `stack_after`: what the auditor
computed), matched to the event by its line, its player and its rank among that player's
events on that line (a PHH line holds every ante); an event the store has no action for falls
back on the amounts written in the log. A bet nobody called goes back to its owner when the
betting ends, written on a line or not (KingsClub and PHH write none).

A player's down cards are known only when the log shows them: the hero's (the log's owner)
from the deal on, anyone else's from the step where they are shown. A format that writes
every player's down cards as they are dealt (PHH) keeps the others' face down until they are
shown, or until the hand's end. Nothing here is HTML: names and texts stay plain strings (see
`table_html` for drawing them safely).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from razz.parser import events as ev
from razz.replay.engine import dialect_of

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
    actions: dict[ActionKey, dict[str, Any]] = field(default_factory=dict)
    ranks: dict[tuple[int, str], int] = field(default_factory=dict)
    starts: dict[str, int] = field(default_factory=dict)  # each player's stack as dealt in
    bring_in: int | None = None  # as the header states it (PHH writes no amount on its line)
    returns_unwritten: bool = False  # a bet nobody called goes back with no line saying so
    hides_others: bool = False  # the log gives others' down cards as dealt: keep them down
    withheld: dict[str, dict[int, str]] = field(default_factory=dict)  # hidden: position, card
    paid: bool = False  # a pot was collected: the stacks are no longer what was put in
    unsaid: list[str] = field(default_factory=list)  # notes for the next step

    def set(self, player: str, **changes: Any) -> None:
        if player in self.seats:
            self.seats[player] = replace(self.seats[player], **changes)

    def stored(self, line: int, player: str) -> dict[str, Any] | None:
        """The store's row of the next recorded event of `player` on `line`."""
        rank = self.ranks.get((line, player), 0)
        self.ranks[line, player] = rank + 1
        return self.actions.get((line, player, rank))

    def snapshot(self, lines: Sequence[int], text: str, actor: str | None = None,
                 notes: Iterable[str] = ()) -> None:
        seats = tuple(replace(self.seats[p], acting=p == actor) for p in self.order)
        said = (*self.unsaid, *notes)
        self.unsaid.clear()
        self.steps.append(Step(tuple(lines), text, self.street, self.phase, self.pot, seats,
                               self.community, said))


_ACTION_EVENTS = (ev.BringIn, ev.Bet, ev.Complete, ev.Call, ev.Raise, ev.Check, ev.Fold)
_HIDDEN = ev.UNKNOWN_CARD  # "??": a card the log does not show
ActionKey = tuple[int, str, int]
"""A store action's place in the log: (file line, player, rank among that player's recorded
events on that line, from 0)."""


def build(
    hand: ev.Hand,
    first_line: int,
    seats: Iterable[tuple[int, str, bool, int]],
    actions: dict[ActionKey, dict[str, Any]],
    money: Callable[[int], str],
) -> list[Step]:
    """The steps of a parsed hand.

    `seats` are (seat, player, hero, starting stack) of the players dealt in; `actions` maps
    an event's place (`ActionKey`, file lines) to the store's action there (kind, amount,
    to_amount, all_in, pot_after, stack_after); `money` writes an amount as people read it.
    Event lines are counted from the hand's text, which starts at `first_line` of the file.
    """
    ordered = sorted(seats)
    dialect = dialect_of(hand.header.site)
    table = _Table(
        seats={p: Seat(s, p, bool(h), int(stack)) for s, p, h, stack in ordered},
        order=[p for _, p, _, _ in ordered],
        actions=actions,
        starts={p: int(stack) for _, p, _, stack in ordered},
        bring_in=hand.header.bring_in,
        # Merge XML has no line of its own for a return but its reader gives one where the
        # file states it: a hand with such an event has its returns written.
        returns_unwritten=not dialect.uncalled_line and not dialect.uncalled_in_pot
        and not any(isinstance(e, ev.UncalledBet) for e in hand.events),
        hides_others=dialect.others_down_cards == "always",
    )
    offset = first_line - 1
    items = [(e.line + offset, e) for e in hand.events]
    last_seat = max((line for line, e in items if isinstance(e, ev.SeatLine)),
                    default=first_line)
    start_lines = list(range(first_line, last_seat + 1))  # the header, table and seat lines
    table.snapshot(start_lines, f"{len(ordered)} players sit down; their stacks as the hand "
                                "starts.")
    i = 0
    pending: list[int] = []  # lines (a `SHOW DOWN` marker…) that belong to the next step
    while i < len(items):
        line, event = items[i]
        if isinstance(event, ev.SeatLine):
            i += 1
        elif isinstance(event, ev.PostAnte):
            i = _antes(table, items, i, money)
        elif isinstance(event, ev.StreetStart):
            _return_uncalled(table, money)
            i = _deal(table, items, i)
        elif isinstance(event, _ACTION_EVENTS):
            _action(table, line, event, money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.UncalledBet):
            _uncalled(table, line, event, money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.ShowDown):
            _return_uncalled(table, money)
            table.phase, table.street = "showdown", None
            pending.append(line)
            i += 1
        elif isinstance(event, ev.Show | ev.Muck | ev.NoShow):
            _return_uncalled(table, money)
            _show(table, line, event, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.Collect):
            _return_uncalled(table, money)
            _collect(table, line, event, money, pending)
            pending = []
            i += 1
        elif isinstance(event, ev.Summary):
            _return_uncalled(table, money)
            i = _summary(table, items, i, money)
        elif isinstance(event, ev.SeatResult):  # a result outside a summary (PHH's stacks)
            _seat_result(table, event)
            _note(table, line, None)
            i += 1
        else:  # chat, joins, a capped betting round…: said during the current step
            _note(table, line, _said(event))
            i += 1
    _return_uncalled(table, money)
    if table.unsaid and len(table.steps) > 1:  # a return at the very end: on the last step
        last = table.steps[-1]
        table.steps[-1] = replace(last, notes=(*last.notes, *table.unsaid), pot=table.pot,
                                  seats=tuple(replace(table.seats[s.player], acting=s.acting)
                                              for s in last.seats))
        table.unsaid.clear()
    _reveal_withheld(table)
    return table.steps


def _return_uncalled(table: _Table, money: Callable[[int], str]) -> None:
    """The betting is over for now: a bet nobody called goes back to its owner, where the
    log writes no line for it (a written `Uncalled bet` line is its own step). As the auditor
    does: the excess of the biggest contribution over the second biggest, of this street's
    chips only."""
    if not table.returns_unwritten or table.paid:
        return
    top, first, second = None, 0, 0
    for player in table.order:
        put_in = table.starts[player] - table.seats[player].stack
        if put_in > first:
            top, first, second = player, put_in, first
        elif put_in > second:
            second = put_in
    if top is None:
        return
    seat = table.seats[top]
    excess = min(first - second, seat.bet)
    if excess <= 0:
        return
    table.set(top, stack=seat.stack + excess, bet=seat.bet - excess, all_in=False)
    table.pot -= excess
    table.unsaid.append(f"The uncalled {money(excess)} goes back to {top} (the log writes no "
                        "line for it).")


def _antes(table: _Table, items: list[tuple[int, ev.Event]], i: int,
           money: Callable[[int], str]) -> int:
    """All the antes, one step."""
    lines, amounts = [], []
    table.phase = "antes"
    while i < len(items) and isinstance(items[i][1], ev.PostAnte):
        line, ante = items[i]
        assert isinstance(ante, ev.PostAnte)
        stored = table.stored(line, ante.player)
        seat = table.seats.get(ante.player)
        if stored is not None:
            table.pot = int(stored["pot_after"])
            table.set(ante.player, stack=int(stored["stack_after"]),
                      all_in=bool(stored["all_in"]))
        elif seat is not None:
            table.pot += ante.amount
            table.set(ante.player, stack=seat.stack - ante.amount, all_in=ante.all_in)
        if line not in lines:  # PHH: every ante on one line
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
        if dealt_line not in lines:  # PHH deals the first card on the street's line
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
        held += _new_cards(street, line_of, start.community is not None)
        if table.hides_others and not seat.hero:
            held = _withhold(table, player, held)
        table.set(player, cards=held)
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


def _action(table: _Table, line: int, event: ev.Event, money: Callable[[int], str],
            pending: list[int]) -> None:
    """A bring-in, completion, bet, raise, call, check or fold: one step."""
    assert isinstance(event, ev.PlayerEvent)
    player = event.player
    stored = table.stored(line, player)
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
        if written is None and table.bring_in is not None:  # PHH: the header's amount
            written = min(table.bring_in, seat.stack) if seat is not None else table.bring_in
        bet += written or 0
        said = f"brings in for {money(written)}" if written else "brings in"
    elif isinstance(event, ev.Bet):
        bet += written or 0
        said = (f"completes to {money(bet)}" if kind == "complete"
                else f"bets {money(written or 0)}")
    elif isinstance(event, ev.Call):
        if written is None:  # what matches the highest bet of the street, or all it has
            written = max((s.bet for s in table.seats.values()), default=0) - before
            if seat is not None:
                written = min(written, seat.stack)
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
    table.snapshot(sorted({*pending, line}), f"{player} {said}", actor=player)


def _uncalled(table: _Table, line: int, event: ev.UncalledBet, money: Callable[[int], str],
              pending: list[int]) -> None:
    stored = table.stored(line, event.player)
    seat = table.seats.get(event.player)
    if seat is not None:
        stack = int(stored["stack_after"]) if stored is not None else seat.stack + event.amount
        table.set(event.player, stack=stack, bet=max(0, seat.bet - event.amount))
    table.pot = int(stored["pot_after"]) if stored is not None else table.pot - event.amount
    table.snapshot(sorted({*pending, line}),
                   f"The uncalled {money(event.amount)} goes back to {event.player}",
                   actor=event.player)


def _show(table: _Table, line: int, event: ev.Event, pending: list[int]) -> None:
    """A player shows (their down cards become known), mucks, or does not show."""
    assert isinstance(event, ev.PlayerEvent)
    table.phase, table.street = "showdown", None
    seat = table.seats.get(event.player)
    if isinstance(event, ev.Show):
        if seat is not None:
            cards = _unwithheld(table, event.player, seat.cards)
            table.set(event.player, cards=_revealed(cards, event.cards))
        described = f" ({event.description})" if event.description else ""
        text = f"{event.player} shows {' '.join(event.cards)}{described}"  # as written
        table.set(event.player, action=f"shows{described}")
    elif isinstance(event, ev.Muck):
        text = f"{event.player} mucks"
        table.set(event.player, action="mucks")
    else:
        text = f"{event.player} does not show"
        table.set(event.player, action="does not show")
    table.snapshot(sorted({*pending, line}), text, actor=event.player)


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


def _collect(table: _Table, line: int, event: ev.Collect, money: Callable[[int], str],
             pending: list[int]) -> None:
    stored = table.stored(line, event.player)
    table.paid = True
    if table.phase not in ("showdown", "summary"):
        table.phase, table.street = "showdown", None
    seat = table.seats.get(event.player)
    if seat is not None:
        stack = int(stored["stack_after"]) if stored is not None else seat.stack + event.amount
        table.set(event.player, stack=stack, collected=seat.collected + event.amount)
    for player in table.order:  # the bets are swept into the pot being paid
        table.set(player, bet=0)
    table.pot = int(stored["pot_after"]) if stored is not None else table.pot - event.amount
    table.snapshot(sorted({*pending, line}),
                   f"{event.player} collects {money(event.amount)} from the {event.pot_label}",
                   actor=event.player)


def _summary(table: _Table, items: list[tuple[int, ev.Event]], i: int,
             money: Callable[[int], str]) -> int:
    """The summary, one step: cards shown there become known; the total pot and rake."""
    table.phase, table.street = "summary", None
    for player in table.order:  # the betting is over: the chips are in the pot (KingsClub
        table.set(player, bet=0)  # pays it after its summary)
    lines, total = [], None
    while i < len(items):
        line, event = items[i]
        if isinstance(event, ev.Collect | ev.UncalledBet):  # KingsClub pays after its summary
            break
        lines.append(line)
        if isinstance(event, ev.SeatResult):
            _seat_result(table, event)
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


def _seat_result(table: _Table, event: ev.SeatResult) -> None:
    """A result line: the cards it shows become known."""
    seat = table.seats.get(event.player)
    if seat is not None and event.cards:
        cards = _unwithheld(table, event.player, seat.cards)
        table.set(event.player, cards=_revealed(cards, event.cards))


def _withhold(table: _Table, player: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Another player's cards as the table sees them: the down ones face down, kept aside
    until the player shows them or the hand ends."""
    kept = table.withheld.setdefault(player, {})
    out = []
    for position, card in enumerate(cards):
        if card.down and card.code:
            kept[position] = card.code
            card = Card("", True)
        out.append(card)
    return tuple(out)


def _unwithheld(table: _Table, player: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A player's cards with the down cards kept aside turned up, in their places."""
    kept = table.withheld.pop(player, {})
    return tuple(Card(kept[n], True) if n in kept and not card.code else card
                 for n, card in enumerate(cards))


def _reveal_withheld(table: _Table) -> None:
    """The hand is over: the down cards the log gave and nobody showed are turned up on the
    last step, as the log has them."""
    if not table.withheld or not table.steps:
        return
    revealed = {p: _unwithheld(table, p, table.seats[p].cards) for p in list(table.withheld)}
    last = table.steps[-1]
    table.steps[-1] = replace(last, seats=tuple(
        replace(seat, cards=revealed.get(seat.player, seat.cards)) for seat in last.seats))


def _said(event: ev.Event) -> str:
    """A line that changes nothing, as the step tells it."""
    if isinstance(event, ev.Noise):
        return f"{event.player}: {event.text}" if event.player else event.text
    if isinstance(event, ev.BettingCapped):
        return "The betting is capped."
    if isinstance(event, ev.BringInCard):
        return f"{event.player} has the {'highest' if event.high else 'lowest'} door card, " \
               f"{event.card}, and brings in."
    return type(event).__name__


def _note(table: _Table, line: int, said: str | None) -> None:
    """A line that changes nothing: attach it to the step being played, with what it says
    (None: nothing worth a note)."""
    if not table.steps:
        return
    last = table.steps[-1]
    lines = last.lines if line in last.lines else (*last.lines, line)
    notes = last.notes if said is None else (*last.notes, said)
    table.steps[-1] = replace(last, lines=lines, notes=notes)


def step_of_line(steps: Sequence[Step], line: int) -> int:
    """The step a file line belongs to: the first one starting at it, else the first one
    covering it, else the one starting closest before it (the first step if none does).

    Steps follow the game, and a file may write the game out of its order (Merge XML's end
    of game, PHH's header), so the steps' lines are not always increasing.

    >>> steps = [Step((10, 11), "a", None, "seats", 0, ()), Step((14,), "b", None, "antes", 4, ())]
    >>> step_of_line(steps, 12), step_of_line(steps, 14), step_of_line(steps, 3)
    (0, 1, 0)
    >>> merge = [*steps, Step((20, 30), "shows", None, "showdown", 4, ()),
    ...          Step((30,), "collects", None, "showdown", 0, ())]
    >>> step_of_line(merge, 30), step_of_line(merge, 11), step_of_line(merge, 25)
    (3, 0, 2)
    """
    covering = None
    before, nearest = 0, None
    for index, step in enumerate(steps):
        if step.line == line:
            return index
        if covering is None and line in step.lines:
            covering = index
        if step.line < line and (nearest is None or step.line > nearest):
            before, nearest = index, step.line
    return covering if covering is not None else before


def from_text(
    text: str,
    first_line: int,
    seats: Iterable[tuple[int, str, bool, int]],
    actions: Any,
    money: Callable[[int], str],
) -> list[Step]:
    """The steps of a stored hand: its text read again by the parser, with the store's
    actions (a frame: see `action_places`).
    Empty when the text no longer reads as a hand."""
    from razz.parser import Hand, read_text

    hand = next((r for r in read_text(text) if isinstance(r, Hand)), None)
    if hand is None:
        return []
    return build(hand, first_line, seats, action_places(actions), money)


def action_places(actions: Any) -> dict[ActionKey, dict[str, Any]]:
    """The store's actions of a hand (a frame with seq, line, player, kind, amount, to_amount,
    all_in, pot_after, stack_after) by their place in the log: line, player, and rank among
    that player's actions on that line, in the order of the hand.

    >>> frame = pd.DataFrame({"seq": [1, 0], "line": [3, 3], "player": ["b", "a"],
    ...     "kind": ["ante"] * 2, "amount": [2, 2], "to_amount": [None] * 2,
    ...     "all_in": [False] * 2, "pot_after": [4, 2], "stack_after": [98, 98]})
    >>> {key: row["pot_after"] for key, row in action_places(frame).items()}
    {(3, 'a', 0): 2, (3, 'b', 0): 4}
    """
    columns = ["kind", "amount", "to_amount", "all_in", "pot_after", "stack_after"]
    ordered = actions.sort_values("seq") if "seq" in actions else actions
    places: dict[ActionKey, dict[str, Any]] = {}
    ranks: dict[tuple[int, str], int] = {}
    for line, player, *values in ordered[["line", "player", *columns]].itertuples(index=False):
        at = (int(line), str(player))
        rank = ranks.get(at, 0)
        ranks[at] = rank + 1
        places[(*at, rank)] = dict(zip(columns, values, strict=True))
    return places
