"""Play random legal Razz hands with the rules engine and record them as PokerStars hands.

Every decision point comes from the engine (`razz.replay.engine`): `ante_due` who owes what
ante, `next_street` and `players_to_deal` what to deal to whom, `community_needed` when the
deck runs out, `legal_actions` who acts and what they may do with exact amounts, `capped`
when a round is capped, `uncalled_bet` what goes back, `settle` and `show_order` who wins
what and who shows first. The simulator only shuffles, seats players, picks one legal action
per turn through a play style, and writes down what happened, line by line, as events that
carry the line they will have in their file. Each event is also applied to the engine as it
is made, so a simulated hand is audited while it is played.

Tables are sessions: cash tables where players come and go (with the join and leave lines
PokerStars writes) and top up between hands, and sit-and-go tournaments whose levels rise
until one player has every chip. Stacks carry from hand to hand. The same seed gives the
same hands, byte for byte.

>>> run = simulate(hands=3, seed=7)
>>> sum(len(f.hands) for f in run), run[0].hands[0].events[0].line
(3, 3)
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BettingCapped,
    Board,
    BringIn,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    GameKind,
    HandHeader,
    Muck,
    Noise,
    NoiseKind,
    NoShow,
    Outcome,
    PostAnte,
    Raise,
    SeatLine,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    TotalPot,
    TournamentFinish,
    TournamentWin,
    UncalledBet,
    Unit,
)
from razz.parser.sites.pokerstars_writer import write_hands
from razz.replay.betting import capped
from razz.replay.cards import DECK
from razz.replay.engine import (
    Action,
    ante_due,
    community_needed,
    finish,
    legal_actions,
    new_hand,
    next_street,
    players_to_deal,
    settle,
    show_order,
    step,
    uncalled_bet,
)
from razz.replay.findings import Finding
from razz.replay.lowhand import lo_text, low_value
from razz.replay.pots import Settlement
from razz.replay.ruleset import Ruleset, get_ruleset
from razz.replay.state import HandState, in_hand
from razz.simulate.players import (
    HERO_NAMES,
    STYLES,
    Style,
    low_strength,
    pick_names,
)

__all__ = [
    "CASH_STAKES",
    "ROOMS",
    "TOURNAMENT_LEVELS",
    "FaultHook",
    "PlayerOutcome",
    "PotOutcome",
    "RoomPlay",
    "SimulatedFile",
    "SimulatedHand",
    "SimulationError",
    "TableStakes",
    "file_text",
    "run_tables",
    "simulate",
    "write_files",
]

ET = ZoneInfo("America/New_York")


class SimulationError(RuntimeError):
    """The engine found a rule broken in a hand the simulator meant to be legal."""


@dataclass(frozen=True, slots=True)
class TableStakes:
    """The amounts of one stake level, in the hand's unit (cents, or chips)."""

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    level: str | None = None  # tournament level (Roman numeral)


# PokerStars-like fixed-limit Razz cash games: ante about a tenth of the small bet and a
# bring-in about a quarter to a half of it ($0.04/$0.08: ante $0.01, bring-in $0.02).
CASH_STAKES: tuple[TableStakes, ...] = (
    TableStakes(4, 8, 1, 2),
    TableStakes(10, 20, 2, 5),
    TableStakes(25, 50, 5, 10),
    TableStakes(50, 100, 10, 25),
    TableStakes(100, 200, 20, 50),
    TableStakes(200, 400, 40, 100),
)


def roman(n: int) -> str:
    """A level number in Roman numerals, as tournament headers write it.

    >>> roman(4), roman(31), roman(19)
    ('IV', 'XXXI', 'XIX')
    """
    out = []
    for value, numeral in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


def _level(n: int, small_bet: int) -> TableStakes:
    # Ante about 20% and bring-in about 30% of the small bet: 50/100 has ante 10, bring-in 15.
    return TableStakes(small_bet, 2 * small_bet, small_bet // 5, small_bet * 3 // 10, roman(n))


TOURNAMENT_LEVELS: tuple[TableStakes, ...] = tuple(
    _level(n, sb)
    for n, sb in enumerate(
        (10, 20, 30, 50, 60, 80, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1500, 2000,
         2500, 3000, 4000, 5000),
        start=1,
    )
)  # fmt: skip



@dataclass(frozen=True, slots=True)
class RoomPlay:
    """How a room's tables are played: its ruleset, its stakes and what its logs can hold.

    A room whose format has no line for a community river card (every room but PokerStars
    and PHH) seats seven players at most, so that the deck never runs out. Every other room
    ends its players' names with a mark of its own (`name_tag`), since a screen name is a
    room's: the store counts a name's hands over every room it played in, and simulated
    PokerStars and Full Tilt tables drawing from one pool would seat the same `RazzHero`.
    """

    name: str  # as `razz simulate --site` names it
    ruleset: str
    cash_stakes: tuple[TableStakes, ...] = CASH_STAKES
    currency: str = "USD"
    tournaments: bool = True  # whether its format writes sit-and-go tournaments
    header_ante: bool = False  # whether its header states the ante
    max_players: int = 8
    name_tag: str = ""  # ends every player's name (PokerStars': none, as it always was)


ROOMS: dict[str, RoomPlay] = {
    r.name: r
    for r in (
        RoomPlay("pokerstars", "pokerstars"),
        # `$0.10/$0.20 Ante $0.02`, `brings in for $0.03` (FORMATS.md §2, the real hands).
        RoomPlay(
            "fulltilt", "fulltilt", header_ante=True, max_players=7, name_tag=" FT",
            cash_stakes=(TableStakes(10, 20, 2, 3), TableStakes(25, 50, 5, 10),
                         TableStakes(50, 100, 10, 15), TableStakes(100, 200, 20, 30),
                         TableStakes(200, 400, 40, 60)),
        ),
        # `Razz fixed limit (5€/25€/50€)`, `brings in 10€` (§3); cash games only.
        RoomPlay(
            "winamax", "winamax", currency="EUR", tournaments=False, header_ante=True,
            max_players=7, name_tag=" WMX",
            cash_stakes=(TableStakes(50, 100, 10, 25), TableStakes(100, 200, 20, 50),
                         TableStakes(500, 1000, 100, 250), TableStakes(2500, 5000, 500, 1000)),
        ),
        # `Limit Razz - 40/80`, `posts ante 10`, `brings in for 10`; 500/1,000 with 125 (§5):
        # the bring-in is the ante. Cash games only.
        RoomPlay(
            "kingsclub", "kingsclub", tournaments=False, max_players=7, name_tag=" KC",
            cash_stakes=(TableStakes(2000, 4000, 500, 500), TableStakes(4000, 8000, 1000, 1000),
                         TableStakes(50000, 100000, 12500, 12500)),
        ),
        # `Limit $0.50/$1`, antes 0.05, bring-in 0.10 (§4).
        RoomPlay(
            "merge", "merge", max_players=7, name_tag=" MRG",
            cash_stakes=(TableStakes(10, 20, 2, 5), TableStakes(50, 100, 5, 10),
                         TableStakes(100, 200, 10, 25), TableStakes(200, 400, 25, 50)),
        ),
        RoomPlay("phh", "phh", header_ante=True, name_tag=" PHH"),
    )
}  # fmt: skip
"""Every room `razz simulate --site` writes, by name."""

TABLE_NAMES: tuple[str, ...] = (
    "Gotha", "Laomedon", "Salm", "Ricarda", "Naef", "Antares", "Bellatrix", "Ceres", "Hygiea",
    "Ljubljana", "Pampelune", "Sørensen", "Vesta", "Eunomia", "Ceské Budejovice", "Zoë",
)  # fmt: skip

# Local time zones PokerStars prints before the ET time, with their zone database names.
LOCAL_ZONES: tuple[tuple[str, str], ...] = (
    ("CET", "Europe/Paris"),
    ("WET", "Europe/Lisbon"),
    ("EET", "Europe/Helsinki"),
    ("PT", "America/Los_Angeles"),
    ("MSK", "Europe/Moscow"),
    ("JST", "Asia/Tokyo"),
)

CHAT: tuple[str, ...] = (
    "nh", "gl", "ty", "lol", "this.is.lucky", "rzzzzz'", "wp [Ah 2s] :)", 'he said "fold"',
    "Seat 3: you're next", "*** SHOW DOWN ***", "brb", "K high again...", "5,4,3,2,A pls",
)  # fmt: skip


# ------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class PlayerOutcome:
    """One player's money in one simulated hand."""

    player: str
    seat: int
    starting_stack: int
    invested: int  # ante and bets, uncalled bets returned
    collected: int
    net: int


@dataclass(frozen=True, slots=True)
class PotOutcome:
    """A pot as the simulator paid it."""

    index: int  # 0 = main pot (or the only pot)
    amount: int  # before rake
    rake: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    """A played hand: what the log says (header, events) and what the simulator computed."""

    header: HandHeader
    events: tuple[Event, ...]
    hero: str
    players: tuple[PlayerOutcome, ...]
    pots: tuple[PotOutcome, ...]
    total_pot: int
    rake: int
    bring_in_player: str | None
    community_card: str | None
    went_to_showdown: bool
    last_line: int  # line of the last summary line in the file
    findings: tuple[Finding, ...] = ()  # what the engine said while it was played


@dataclass(frozen=True, slots=True)
class SimulatedFile:
    """One table's hands, in the order of the file."""

    name: str
    kind: GameKind
    newline: str
    bom: bool
    hands: tuple[SimulatedHand, ...]


# ------------------------------------------------------------------------ tables


@dataclass(slots=True)
class Seat:
    """A player at a simulated table (mutable: stacks change from hand to hand)."""

    seat: int
    name: str
    stack: int
    style: Style
    sitting_out: bool = False


@dataclass(slots=True)
class _Clock:
    """Hand ids and start times shared by every table of a run (ids only ever increase)."""

    rng: random.Random
    hand_id: int
    time: datetime

    def next_hand(self) -> tuple[str, datetime]:
        self.hand_id += self.rng.randrange(1_000, 90_000)
        self.time += timedelta(seconds=self.rng.randrange(12, 140))
        return str(self.hand_id), self.time


def _format_time(moment: datetime, zone: ZoneInfo) -> str:
    local = moment.astimezone(zone)
    # PokerStars does not pad the hour: `2013/06/06 0:00:10`.
    return f"{local:%Y/%m/%d} {local.hour}:{local:%M:%S}"


@dataclass(slots=True)
class _Table:
    """A table session: its seats, stakes and what every hand's header shares."""

    name: str
    kind: GameKind
    stakes: TableStakes
    seats: list[Seat]
    hero: str
    max_seats: int = 8
    local_zone: tuple[str, str] | None = None
    tournament_id: str | None = None
    buy_in: tuple[int, ...] = ()
    currency: str | None = "USD"
    header_ante: bool = False  # the header states the ante (Full Tilt, Winamax, PHH)
    max_players: int = 8
    name_tag: str = ""  # the room's mark ending every player's name (RoomPlay.name_tag)
    hands_per_level: int = 10
    hands_played: int = 0
    entrants: int = 0
    joining: list[Seat] = field(default_factory=list)  # announced, seated from next hand
    done: bool = False
    last_hand: set[str] = field(default_factory=set)  # who played the previous hand (and stays)
    # Bring-ins posted (not all-in) so far, by (small bet, amount): what the table shows.
    bring_ins: Counter[tuple[int, int]] = field(default_factory=Counter)

    @property
    def unit(self) -> Unit:
        return Unit.CHIP if self.kind is GameKind.TOURNAMENT else Unit.CENT

    def header(self, hand_id: str, moment: datetime, source: str, first_line: int) -> HandHeader:
        s = self.stakes
        if self.local_zone is None:
            started_text, zone = f"{_format_time(moment, ET)} ET", "ET"
        else:
            abbreviation, zone_name = self.local_zone
            local = _format_time(moment, ZoneInfo(zone_name))
            started_text = f"{local} {abbreviation} [{_format_time(moment, ET)} ET]"
            zone = abbreviation
        return HandHeader(
            site="PokerStars",
            hand_id=hand_id,
            game="Razz",
            is_razz=True,
            mixed=None,
            limit="Limit",
            kind=self.kind,
            small_bet=s.small_bet,
            big_bet=s.big_bet,
            # PokerStars headers state neither: the ante and bring-in lines do.
            ante=s.ante if self.header_ante else None,
            bring_in=s.bring_in if self.header_ante else None,
            unit=self.unit,
            currency=self.currency,
            play_money=False,
            table=self.name,
            max_seats=self.max_seats,
            tournament_id=self.tournament_id,
            buy_in=self.buy_in,
            level=s.level,
            match_round=None,
            club=None,
            started_at=moment.replace(microsecond=0),
            started_text=started_text,
            time_zone=zone,
            source=source,
            first_line=first_line,
        )


# ------------------------------------------------------------------------ faults


class FaultHook:
    """Where a hand can be made to break a rule on purpose (see `razz.simulate.violations`).

    Every method is called at one moment of a hand and, as written here, changes nothing;
    a subclass overrides the moment its rule is broken at.
    """

    def before_hand(self, play: HandPlay) -> None:
        """Before the header: the seats and stacks may still change."""

    def header(self, play: HandPlay, header: HandHeader) -> HandHeader:
        return header

    def rig_deck(self, play: HandPlay) -> None:
        """After the shuffle: `play.deck` is dealt from its end."""

    def ante(self, play: HandPlay, name: str, amount: int, all_in: bool) -> tuple[int, bool]:
        return amount, all_in

    def community(self, play: HandPlay, needed: bool) -> bool:
        """Whether the river is one community card (`needed`: the deck is too short)."""
        return needed

    def draw(self, play: HandPlay, street: Street, name: str, cards: list[str]) -> list[str]:
        """The cards a player gets on a street (drawn from the end of `play.deck`)."""
        return cards

    def dealt(self, play: HandPlay, street: Street, name: str, line: Dealt | None) -> Dealt | None:
        """The `Dealt to` line to write for a player (None: no line); its line is set later."""
        return line

    def after_deal(self, play: HandPlay, street: Street) -> None:
        """After a street's `Dealt to` lines, before its first action."""

    def action(
        self, play: HandPlay, street: Street, actions: Sequence[Action], chosen: Action
    ) -> Callable[[int], Event] | None:
        """Another event to write instead of the chosen legal action (None: the action)."""
        return None

    def uncalled(self, play: HandPlay, player: str, amount: int) -> int:
        return amount

    def settlement(self, play: HandPlay, settlement: Settlement) -> Settlement:
        return settlement

    def after_hand(self, play: HandPlay) -> None:
        """Once every line is written: `play.events` may be edited in place."""


HandPlanner = Callable[
    ["Session", str, datetime, int, "Seat | None"], tuple["SimulatedHand", "HandPlay"]
]
"""Plays one hand of a session: (session, hand id, start time, first line, joiner)."""


# ------------------------------------------------------------------------ one hand


@dataclass(slots=True)
class HandPlay:
    """Plays one hand at a table and writes it down as events, applying each to the engine."""

    table: _Table
    rng: random.Random
    ruleset: Ruleset
    source: str
    first_line: int
    strict: bool
    hook: FaultHook | None = None
    events: list[Event] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    state: HandState = field(init=False)
    cards: dict[str, list[str]] = field(default_factory=dict)  # every card, down ones too
    deck: list[str] = field(default_factory=list)
    community: str | None = None
    folded_on: dict[str, Street] = field(default_factory=dict)
    leaving: set[str] = field(default_factory=set)
    joiner: Seat | None = None  # announced during this hand, seated from the next one
    seats: list[Seat] = field(default_factory=list)

    # -------------------------------------------------------------- recording

    @property
    def next_line(self) -> int:
        """The line the next event will have: the header and table line come first."""
        return self.first_line + 2 + len(self.events)

    def emit(self, make: Callable[..., Event], *args: Any, **kwargs: Any) -> Event:
        """Record `make(next line, *args, **kwargs)`, and apply it to the engine."""
        event = make(self.next_line, *args, **kwargs)
        self.events.append(event)
        found = step(self.state, event)
        if found:
            self.findings.extend(found)
            if self.strict:
                raise SimulationError("; ".join(str(f) for f in found))
        return event

    def seat_of(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)

    def live(self) -> list[str]:
        setup = self.state.setup
        return [setup.name(i) for i, p in enumerate(self.state.players) if in_hand(p)]

    def maybe_noise(self, chance: float) -> None:
        rng = self.rng
        if rng.random() >= chance:
            return
        names = [s.name for s in self.seats]
        if rng.random() < 0.8:
            name = rng.choice(names)
        else:
            name = pick_names(rng, 1, names, self.table.name_tag)[0]
        kind = rng.choice((NoiseKind.CHAT, NoiseKind.CHAT, NoiseKind.DISCONNECTED,
                           NoiseKind.CONNECTED))  # fmt: skip
        if kind is NoiseKind.CHAT:
            text = f'{name} said, "{rng.choice(CHAT)}"'
        elif kind is NoiseKind.DISCONNECTED:
            text = f"{name} is disconnected"
        else:
            text = f"{name} is connected"
        self.emit(Noise, kind, name, text)

    def announce_joiner(self) -> None:
        joiner = self.joiner
        if joiner is None:
            return
        self.joiner = None
        text = f"{joiner.name} joins the table at seat #{joiner.seat}"
        self.emit(Noise, NoiseKind.JOINS, joiner.name, text)

    # -------------------------------------------------------------- the hand

    def play(self, hand_id: str, moment: datetime) -> SimulatedHand:
        table, hook = self.table, self.hook
        stakes = table.stakes
        self.seats = sorted(table.seats, key=lambda s: s.seat)
        if hook is not None:
            hook.before_hand(self)
        header = table.header(hand_id, moment, self.source, self.first_line)
        if hook is not None:
            header = hook.header(self, header)
        self.state = new_hand(
            self.ruleset,
            [(s.seat, s.name, s.stack) for s in self.seats],
            header.small_bet,
            header.big_bet,
            ante=stakes.ante,
            bring_in=stakes.bring_in,
            hand_id=hand_id,
            source=self.source,
            tournament=table.kind is GameKind.TOURNAMENT,
            unit=header.unit,
            currency=header.currency,
        )
        self.deck = list(DECK)
        self.rng.shuffle(self.deck)
        if hook is not None:
            hook.rig_deck(self)
        starting = {s.name: s.stack for s in self.seats}

        for s in self.seats:
            self.emit(SeatLine, s.name, s.seat, s.stack, sitting_out=s.sitting_out)
        antes: dict[str, int] = {}
        for name, amount, all_in in ante_due(self.state):
            if hook is not None:
                amount, all_in = hook.ante(self, name, amount, all_in)
            antes[name] = amount
            self.emit(PostAnte, name, amount, all_in)

        while (street := next_street(self.state)) is not None:
            self.deal(street)
            self.betting(street)
        showdown = len(self.live()) >= 2
        settlement = self.settle(showdown)
        self.announce_joiner()
        won = {name: settlement.won(name) for name in starting}
        self.tournament_lines(starting, won)
        self.summary(settlement, won, antes, showdown)
        if hook is not None:
            hook.after_hand(self)
        # The checks that need the whole hand: winners, amounts, show order, the summary.
        found, _ = finish(self.state, self.events[-1].line)
        if found:
            self.findings.extend(found)
            if self.strict:
                raise SimulationError("; ".join(str(f) for f in found))

        players = tuple(
            PlayerOutcome(
                s.name,
                s.seat,
                starting[s.name],
                self.state.players[k].committed,
                won[s.name],
                won[s.name] - self.state.players[k].committed,
            )
            for k, s in enumerate(self.seats)
        )
        for s, outcome in zip(self.seats, players, strict=True):
            s.stack = outcome.starting_stack + outcome.net
        bring_in = self.state.deal.bring_in
        return SimulatedHand(
            header=header,
            events=tuple(self.events),
            hero=table.hero,
            players=players,
            pots=tuple(
                PotOutcome(p.index, p.amount, p.rake, p.eligible, p.winners, p.shares)
                for p in settlement.pots
            ),
            total_pot=settlement.total,
            rake=settlement.rake,
            bring_in_player=self.state.setup.name(bring_in) if bring_in is not None else None,
            community_card=self.community,
            went_to_showdown=showdown,
            last_line=self.first_line + 1 + len(self.events),
            findings=tuple(self.findings),
        )

    # -------------------------------------------------------------- dealing

    def deal(self, street: Street) -> None:
        hero, hook = self.table.hero, self.hook
        community = street is Street.SEVENTH and community_needed(self.state)
        if hook is not None and street is Street.SEVENTH:
            community = hook.community(self, community)
        if community:
            # The deck ran out: one community card for everyone still in (DEAL-COMMUNITY).
            card = self.deck.pop()
            self.community = card
            self.emit(StreetStart, street, community=card)
            return
        self.emit(StreetStart, street)
        for name in players_to_deal(self.state):
            old = self.cards.setdefault(name, [])
            new = [self.deck.pop() for _ in range(3 if street is Street.THIRD else 1)]
            if hook is not None:
                new = hook.draw(self, street, name, new)
            self.cards[name] = old + new
            line: Dealt | None
            if name == hero:
                line = Dealt(0, name, street, tuple(old), tuple(new), True)
            elif street is Street.THIRD:
                line = Dealt(0, name, street, (), (UNKNOWN_CARD, UNKNOWN_CARD, new[2]), False)
            elif street is not Street.SEVENTH:
                # Others show their up cards only; their river card is dealt face down.
                previous = (UNKNOWN_CARD, UNKNOWN_CARD, *old[2:])
                line = Dealt(0, name, street, previous, (new[0],), False)
            else:
                line = None
            if hook is not None:
                line = hook.dealt(self, street, name, line)
            if line is not None:
                self.emit(Dealt, line.player, line.street, line.previous, line.new, line.hero)
        if hook is not None:
            hook.after_deal(self, street)
        self.maybe_noise(0.03)

    def take(self, card: str) -> str:
        """Take a given card out of the deck (for a rigged deal); it must still be there."""
        self.deck.remove(card)
        return card

    # -------------------------------------------------------------- betting

    def betting(self, street: Street) -> None:
        rng, hook = self.rng, self.hook
        while actions := legal_actions(self.state):
            name = actions[0].player
            action = self.choose(name, actions)
            make: Callable[[int], Event] = action.to_event
            if hook is not None:
                make = hook.action(self, street, actions, action) or make
            event = self.emit(make)
            if isinstance(event, Fold):
                self.folded_on[event.player] = street
                if self.may_leave(event.player):
                    self.leave(event.player)
            if (
                isinstance(event, (Bet, Complete, Raise))
                and capped(self.state)
                and not self.state.round.capped_line
            ):
                self.emit(BettingCapped)
            self.maybe_noise(0.012)
            if self.joiner is not None and rng.random() < 0.2:
                self.announce_joiner()
        pending = uncalled_bet(self.state)
        if pending is not None:
            who, amount = pending
            if hook is not None:
                amount = hook.uncalled(self, who, amount)
            self.emit(UncalledBet, who, amount)

    def may_leave(self, name: str) -> bool:
        table = self.table
        if table.kind is GameKind.TOURNAMENT or name == table.hero:
            return False
        # A table keeps two players at least.
        return len(self.seats) - len(self.leaving) > 2 and self.rng.random() < 0.04

    def leave(self, name: str) -> None:
        self.leaving.add(name)
        self.emit(Noise, NoiseKind.LEAVES, name, f"{name} leaves the table")

    def choose(self, name: str, actions: Sequence[Action]) -> Action:
        seat = self.seat_of(name)
        by_kind = {a.kind.value: a for a in actions}
        if seat.sitting_out:
            # PokerStars acts for a player who sits out: forced bets, then check or fold.
            for kind in ("bring_in", "check", "fold"):
                if kind in by_kind:
                    return by_kind[kind]
        setup = self.state.setup
        others = [
            self.cards[setup.name(i)][2:]
            for i, p in enumerate(self.state.players)
            if in_hand(p) and setup.name(i) != name
        ]
        strength = low_strength(self.cards[name], others)
        to_call = "call" in by_kind
        kind = seat.style.choose(self.rng, list(by_kind), strength=strength, to_call=to_call)
        return by_kind[kind]

    # -------------------------------------------------------------- the end

    def rake(self) -> int:
        if self.table.kind is GameKind.TOURNAMENT or self.state.street is Street.THIRD:
            return 0  # no rake in tournaments, nor when the hand ends on 3rd street
        total = sum(p.committed for p in self.state.players)
        cap = 50 if self.table.stakes.small_bet < 100 else 300
        return min(cap, total * 5 // 100)

    def shown_cards(self, name: str) -> tuple[str, ...]:
        """A player's own cards in deal order (six when the river was a community card)."""
        return tuple(self.cards[name])

    def lo(self, cards: Sequence[str]) -> str:
        every = (*cards, self.community) if self.community else cards
        return f"Lo: {lo_text(every)}"

    def settle(self, showdown: bool) -> Settlement:
        """Pay the pots as the engine settles them, writing shows, mucks and collections."""
        hook = self.hook
        live = self.live()
        hands = {name: self.shown_cards(name) for name in live}
        settlement = settle(self.state, rake=self.rake(), hands=hands)
        if hook is not None:
            settlement = hook.settlement(self, settlement)
        if not showdown:
            (pot,) = settlement.pots
            winner = pot.winners[0]
            self.emit(Collect, winner, pot.shares[0], "pot", None)
            self.after_uncontested(winner)
            return settlement
        self.emit(ShowDown)
        order = show_order(self.state)
        labels = _pot_labels(len(settlement.pots))
        winners = {w for pot in settlement.pots for w in pot.winners}
        board = (self.community,) if self.community else ()
        values = {name: low_value((*hands[name], *board)) for name in live}
        shown: list[str] = []
        done: set[str] = set()
        for pot in reversed(settlement.pots):
            for name in order:
                if name in done or name not in pot.eligible:
                    continue
                done.add(name)
                beaten = any(values[other] < values[name] for other in shown)
                if name not in winners and beaten and self.rng.random() < 0.75:
                    self.emit(Muck, name)
                    continue
                shown.append(name)
                cards, text = hands[name], self.lo(hands[name])
                self.emit(Show, name, cards, text)
            label = labels[pot.index]
            side = None if pot.index == 0 else pot.index
            for name in sorted(pot.winners, key=order.index):
                share = pot.shares[pot.winners.index(name)]
                self.emit(Collect, name, share, label, side)
        return settlement

    def after_uncontested(self, winner: str) -> None:
        """A winner without showdown may say nothing, decline to show, or show."""
        cards = self.shown_cards(winner)
        roll = self.rng.random()
        if len(cards) == 4 and roll < self.seat_of(winner).style.show_when_uncontested:
            # A voluntary show of four cards: ranks in card order, pair and all (Lo: 3,3,5,4).
            text = "Lo: " + ",".join(c[0] for c in cards)
            self.emit(Show, winner, cards, text)
        elif roll > 0.85:
            self.emit(NoShow, winner)

    def tournament_lines(self, starting: dict[str, int], won: dict[str, int]) -> None:
        table = self.table
        if table.kind is not GameKind.TOURNAMENT:
            return
        final = {
            s.name: starting[s.name] - self.state.players[k].committed + won[s.name]
            for k, s in enumerate(self.seats)
        }
        seat_order = [s.name for s in self.seats]
        # Players out in the same hand: whoever started it with fewer chips finishes lower.
        busted = sorted(
            (n for n in seat_order if final[n] <= 0),
            key=lambda n: (starting[n], -seat_order.index(n)),
        )
        remaining = len(seat_order) - len(busted)
        for k, name in enumerate(busted):
            place = remaining + len(busted) - k
            prize = _prize(table, place)
            self.emit(TournamentFinish, name, place, prize)
        if remaining == 1:
            winner = next(n for n in seat_order if final[n] > 0)
            prize = _prize(table, 1) or "$0.00"
            self.emit(TournamentWin, winner, prize)

    def summary(
        self,
        settlement: Settlement,
        won: dict[str, int],
        antes: dict[str, int],
        showdown: bool,
    ) -> None:
        self.emit(Summary)
        pots = settlement.pots
        total, rake = settlement.total, settlement.rake
        if len(pots) > 1:
            main = pots[0].amount - pots[0].rake
            sides = tuple(p.amount - p.rake for p in pots[1:])
            self.emit(TotalPot, total, rake, main, sides)
        else:
            self.emit(TotalPot, total, rake)
        if self.community:
            board = (self.community,)
            self.emit(Board, board)
        shown = {e.player for e in self.events if isinstance(e, Show)}
        mucked = {e.player for e in self.events if isinstance(e, Muck)}
        for k, s in enumerate(self.seats):
            name, seat = s.name, s.seat
            if name in self.folded_on:
                street = self.folded_on[name]
                # `(didn't bet)`: nothing put in but the ante (a bring-in poster did bet).
                quiet = self.state.players[k].committed <= antes.get(name, 0)
                self.emit(SeatResult, name, seat, Outcome.FOLDED, street, didnt_bet=quiet)
            elif not showdown:
                self.emit(SeatResult, name, seat, Outcome.COLLECTED, amount=won[name])
            elif name in mucked:
                cards = self.shown_cards(name)
                self.emit(SeatResult, name, seat, Outcome.MUCKED, cards=cards)
            elif name in shown:
                cards = self.shown_cards(name)
                amount, text = won[name], self.lo(cards)
                if amount:
                    self.emit(SeatResult, name, seat, Outcome.SHOWED_WON, cards=cards,
                              amount=amount, description=text)  # fmt: skip
                else:
                    self.emit(SeatResult, name, seat, Outcome.SHOWED_LOST, cards=cards,
                              description=text)  # fmt: skip


def _pot_labels(n: int) -> list[str]:
    """`pot`; or `main pot`, `side pot`; or `main pot`, `side pot-1`, `side pot-2` …"""
    if n == 1:
        return ["pot"]
    if n == 2:
        return ["main pot", "side pot"]
    return ["main pot", *(f"side pot-{k}" for k in range(1, n))]


def _prize(table: _Table, place: int) -> str | None:
    """The prize of a finishing place in a sit-and-go (top three paid), as `$12.34`."""
    shares = {1: 50, 2: 30, 3: 20} if table.entrants > 4 else {1: 65, 2: 35}
    if place not in shares or not table.buy_in:
        return None
    pool = table.buy_in[0] * table.entrants
    cents = pool * shares[place] // 100
    return f"${cents // 100}.{cents % 100:02d}"


# ------------------------------------------------------------------------ sessions

BUY_INS: tuple[tuple[int, ...], ...] = (
    (98, 12),
    (200, 20),
    (1000, 100),
    (2000, 150),
    (20000, 1500),
)


# Most tables mix every style; some are full of players who see every card, so that 8-way
# rivers run out of cards (DEAL-COMMUNITY) and split pots happen.
_TIGHT_MIX = {"rock": 2, "tight aggressive": 3, "loose aggressive": 2, "loose passive": 1,
              "calling station": 1, "maniac": 1, "weak tight": 2}  # fmt: skip
_LOOSE_MIX = {"river rat": 6, "calling station": 1, "maniac": 1}


def _pick_style(rng: random.Random, *, loose: bool) -> Style:
    mix = _LOOSE_MIX if loose else _TIGHT_MIX
    return STYLES[rng.choices(list(mix), weights=list(mix.values()))[0]]


def _stack_for(rng: random.Random, stakes: TableStakes) -> int:
    """A cash buy-in: often short, so that all-ins, side pots and all-in antes happen."""
    roll = rng.random()
    if roll < 0.08:
        return stakes.ante * rng.randrange(1, 4)  # all-in on the ante, or nearly
    if roll < 0.35:
        return stakes.small_bet * rng.randrange(1, 9) + stakes.ante * rng.randrange(0, 5)
    return stakes.small_bet * rng.randrange(10, 80) + stakes.ante * rng.randrange(0, 10)


@dataclass(slots=True)
class Session:
    """Plays the hands of one table, one file."""

    table: _Table
    rng: random.Random
    ruleset: Ruleset
    source: str
    strict: bool
    tight_table: bool = False
    hands: list[SimulatedHand] = field(default_factory=list)

    def styles(self) -> Style:
        return _pick_style(self.rng, loose=not self.tight_table)

    def new_player(self, seat: int, taken: Iterable[str]) -> Seat:
        name = pick_names(self.rng, 1, list(taken), self.table.name_tag)[0]
        return Seat(seat, name, _stack_for(self.rng, self.table.stakes), self.styles())

    def free_seats(self) -> list[int]:
        used = {s.seat for s in self.table.seats} | {s.seat for s in self.table.joining}
        return [k for k in range(1, self.table.max_seats + 1) if k not in used]

    def names(self) -> list[str]:
        return [s.name for s in self.table.seats] + [s.name for s in self.table.joining]

    def play(self, budget: int, clock: _Clock, planner: HandPlanner | None = None) -> None:
        """Play up to `budget` hands (a tournament may end sooner); `planner` plays each hand
        when given (it can retry a hand from a snapshot), else it is played as it comes."""
        line = 1
        for _ in range(budget):
            self.before_hand()
            if self.table.done:
                break
            hand_id, moment = clock.next_hand()
            joiner = self.announce_join()
            if planner is None:
                play = self.new_play(line, joiner)
                hand = play.play(hand_id, moment)
            else:
                hand, play = planner(self, hand_id, moment, line, joiner)
            self.hands.append(hand)
            self.after_hand(play)
            line = hand.last_line + 4  # three empty lines between hands

    def new_play(self, line: int, joiner: Seat | None, hook: FaultHook | None = None) -> HandPlay:
        play = HandPlay(
            self.table, self.rng, self.ruleset, self.source, line, self.strict, hook=hook
        )
        play.joiner = joiner
        return play

    def snapshot(self) -> Callable[[], None]:
        """A function that puts the table back as it is now (to play a hand again)."""
        table = self.table
        rng_state = self.rng.getstate()
        seats = list(table.seats)
        mutable = [(s.stack, s.sitting_out) for s in seats]
        joining, done = list(table.joining), table.done

        def restore() -> None:
            self.rng.setstate(rng_state)
            table.seats = list(seats)
            for s, (stack, sitting_out) in zip(seats, mutable, strict=True):
                s.stack, s.sitting_out = stack, sitting_out
            table.joining, table.done = list(joining), done

        return restore

    def announce_join(self) -> Seat | None:
        table = self.table
        if table.kind is GameKind.TOURNAMENT or not self.free_seats():
            return None
        if len(table.seats) + len(table.joining) >= table.max_players:
            return None
        chance = 0.3 if len(table.seats) < 5 else 0.12
        if self.rng.random() >= chance:
            return None
        joiner = self.new_player(self.rng.choice(self.free_seats()), self.names())
        table.joining.append(joiner)
        return joiner

    def before_hand(self) -> None:
        table, rng = self.table, self.rng
        if table.kind is GameKind.TOURNAMENT:
            table.seats = [s for s in table.seats if s.stack > 0]
            if len(table.seats) < 2 or table.hero not in {s.name for s in table.seats}:
                table.done = True
                return
            level = min(table.hands_played // table.hands_per_level, len(TOURNAMENT_LEVELS) - 1)
            table.stakes = TOURNAMENT_LEVELS[level]
            for s in table.seats:
                if s.name != table.hero:
                    if s.sitting_out and rng.random() < 0.3:
                        s.sitting_out = False
                    elif not s.sitting_out and rng.random() < 0.01:
                        s.sitting_out = True
        else:
            table.seats = [s for s in table.seats if s.stack > 0 or s.name == table.hero]
            table.seats.extend(table.joining)
            table.joining.clear()
            for s in table.seats:
                short = s.stack < table.stakes.small_bet * 3
                if s.stack == 0 or (short and rng.random() < 0.15):
                    # Top-ups are not logged; the stack simply grows (LOG-CONTINUITY allows it).
                    s.stack += _stack_for(rng, table.stakes) + table.stakes.small_bet
            while len(table.seats) < 2:
                table.seats.append(self.new_player(rng.choice(self.free_seats()), self.names()))
        table.seats.sort(key=lambda s: s.seat)
        table.hands_played += 1

    def after_hand(self, play: HandPlay) -> None:
        table = self.table
        table.seats = [s for s in table.seats if s.name not in play.leaving]
        table.last_hand = {s.name for s in play.seats} - play.leaving
        small_bet = play.state.setup.small_bet
        for e in play.events:
            if isinstance(e, BringIn) and not e.all_in and e.amount is not None:
                table.bring_ins[small_bet, e.amount] += 1


CASH_TABLE_NUMBERS = 39  # `Gotha I` to `Gotha XXXIX`
CASH_TABLE_NAMES = len(TABLE_NAMES) * CASH_TABLE_NUMBERS


def cash_table_name(rng: random.Random, taken: set[str]) -> str:
    """A cash table's name that no table of the run has had yet, added to `taken`.

    One session per table name, so that stacks carry unambiguously from hand to hand. Once
    every one of the 624 names is taken, each is used again with a number: `Gotha XII 2`,
    then `Gotha XII 3` … so that a run of any length finds a name.

    >>> rng, taken = random.Random(1), set()
    >>> names = [cash_table_name(rng, taken) for _ in range(CASH_TABLE_NAMES + 1)]
    >>> len(taken), names[0], names[-1]
    (625, 'Naef XXXVII', 'Pampelune IV 2')
    """
    # A name in every round of `CASH_TABLE_NAMES` tables is free while the round lasts; the
    # first round draws exactly as the simulator always has (same seed, same files).
    round_ = len(taken) // CASH_TABLE_NAMES
    suffix = f" {round_ + 1}" if round_ else ""
    name = f"{rng.choice(TABLE_NAMES)} {roman(rng.randrange(1, CASH_TABLE_NUMBERS + 1))}{suffix}"
    while name in taken:
        name = f"{rng.choice(TABLE_NAMES)} {roman(rng.randrange(1, CASH_TABLE_NUMBERS + 1))}{suffix}"
    taken.add(name)
    return name


def _new_table(
    rng: random.Random,
    kind: GameKind,
    taken: set[str],
    *,
    copy: bool = False,
    room: RoomPlay = ROOMS["pokerstars"],
) -> tuple[_Table, bool]:
    tight = rng.random() < 0.8
    players = rng.choice((2, 3, 4, 5, 6, 7, 8, 8, 8, 8)) if tight else 8
    players = min(players, room.max_players)
    seats_numbers = sorted(rng.sample(range(1, 9), players))
    tag = room.name_tag
    hero = rng.choice(HERO_NAMES) + tag if rng.random() < 0.7 else pick_names(rng, 1, (), tag)[0]
    names = [hero, *pick_names(rng, players - 1, [hero], tag)]
    rng.shuffle(names)
    local_zone = rng.choice(LOCAL_ZONES) if rng.random() < 0.25 else None
    if kind is GameKind.TOURNAMENT:
        tournament_id = str(3_000_000_000 + rng.randrange(10**9) + (1 if copy else 0))
        stakes = TOURNAMENT_LEVELS[0]
        start = rng.choice((500, 1000, 1500))
        table = _Table(
            name=f"{tournament_id} 1", kind=kind, stakes=stakes,
            seats=[], hero=hero, local_zone=local_zone, tournament_id=tournament_id,
            buy_in=rng.choice(BUY_INS), hands_per_level=rng.randrange(5, 12), entrants=players,
            header_ante=room.header_ante, max_players=room.max_players, name_tag=tag,
        )  # fmt: skip
        table.seats = [
            Seat(seat, name, start, _pick_style(rng, loose=not tight))
            for seat, name in zip(seats_numbers, names, strict=True)
        ]
        return table, tight
    stakes = rng.choice(room.cash_stakes)
    name = cash_table_name(rng, taken)
    if copy:
        name += " V"
    table = _Table(
        name=name, kind=kind, stakes=stakes, seats=[], hero=hero, local_zone=local_zone,
        currency=room.currency, header_ante=room.header_ante, max_players=room.max_players,
        name_tag=tag,
    )  # fmt: skip
    table.seats = [
        Seat(seat, name_, _stack_for(rng, stakes), _pick_style(rng, loose=not tight))
        for seat, name_ in zip(seats_numbers, names, strict=True)
    ]
    return table, tight


def _file_name(number: int, table: _Table) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", table.name).strip("-").lower() or "table"
    if table.kind is GameKind.TOURNAMENT:
        return f"{number:03d}-razz-tournament-{slug}.txt"
    s = table.stakes
    stakes = (
        f"{s.small_bet // 100}.{s.small_bet % 100:02d}-{s.big_bet // 100}.{s.big_bet % 100:02d}"
    )
    return f"{number:03d}-razz-cash-{stakes}-{slug}.txt"


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one file of a run is: its number, game kind, the seed of its table, its length."""

    number: int
    kind: GameKind
    seed: int
    length: int


def _plans(seed: int, tournament_share: float) -> Iterable[_Plan]:
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        kind = GameKind.TOURNAMENT if rng.random() < tournament_share else GameKind.CASH
        yield _Plan(number, kind, rng.getrandbits(64), rng.randrange(20, 400))


def _clock(seed: int, *, copy: bool = False) -> _Clock:
    rng = random.Random(seed ^ 0x5EED)
    return _Clock(
        rng=random.Random(rng.getrandbits(64)),
        # A copy's hand ids differ from the original's by a few, so no id is used twice.
        hand_id=200_000_000_000 + rng.randrange(10**10) + (7 if copy else 0),
        time=datetime(2019, 1, 1, tzinfo=UTC) + timedelta(days=rng.randrange(2000)),
    )


def run_tables(
    hands: int,
    seed: int,
    *,
    ruleset: Ruleset | None = None,
    strict: bool = True,
    tournament_share: float = 0.4,
    planner: HandPlanner | None = None,
    until: Callable[[], bool] | None = None,
    site: str = "pokerstars",
) -> tuple[SimulatedFile, ...]:
    """Play `hands` hands, table after table; with `planner`, it plays every hand (the
    fault-injecting copies of `razz.simulate.violations` are made this way). `until` stops the
    run before a new table once it returns true. `site` names the room whose tables are
    played (`ROOMS`: its stakes and, unless `ruleset` is given, its ruleset)."""
    room = ROOMS[site]
    if ruleset is None:
        ruleset = get_ruleset(room.ruleset)
    if not room.tournaments:
        tournament_share = 0.0
    copy = planner is not None
    clock = _clock(seed, copy=copy)
    files: list[SimulatedFile] = []
    remaining = hands
    names: set[str] = set()
    for plan in _plans(seed, tournament_share):
        if remaining <= 0 or (until is not None and until()):
            break
        table_rng = random.Random(plan.seed)
        table, tight = _new_table(table_rng, plan.kind, names, copy=copy, room=room)
        name = _file_name(plan.number, table)
        session = Session(table, table_rng, ruleset, name, strict, tight_table=tight)
        session.play(min(remaining, plan.length), clock, planner)
        if not session.hands:
            continue
        crlf = table_rng.random() < 0.7
        files.append(
            SimulatedFile(
                name=name,
                kind=plan.kind,
                newline="\r\n" if crlf else "\n",
                bom=crlf and table_rng.random() < 0.2,
                hands=tuple(session.hands),
            )
        )
        remaining -= len(session.hands)
    return tuple(files)


def simulate(
    hands: int,
    seed: int,
    *,
    ruleset: Ruleset | None = None,
    strict: bool = True,
    tournament_share: float = 0.4,
    site: str = "pokerstars",
) -> tuple[SimulatedFile, ...]:
    """Play `hands` legal hands, table after table, and return them file by file.

    With `strict`, a rule the engine finds broken while a hand is played raises
    `SimulationError` (the simulator is meant to play legal hands only). `site` plays the
    tables of another room (`ROOMS`), with its ruleset unless `ruleset` is given.
    """
    return run_tables(
        hands, seed, ruleset=ruleset, strict=strict, tournament_share=tournament_share,
        site=site,
    )  # fmt: skip


# ------------------------------------------------------------------------ files


def file_text(simulated: SimulatedFile) -> str:
    """The text of a simulated file, as PokerStars writes it (BOM and line ends included)."""
    text = write_hands(
        ((hand.header, hand.events) for hand in simulated.hands),
        newline="\r\n" if simulated.newline == "\r\n" else "\n",
    )
    return ("\ufeff" if simulated.bom else "") + text


def write_files(files: Iterable[SimulatedFile], directory: Path) -> list[Path]:
    """Write each simulated file into `directory` (created if needed); return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for simulated in files:
        path = directory / simulated.name
        path.write_bytes(file_text(simulated).encode("utf-8"))
        paths.append(path)
    return paths
