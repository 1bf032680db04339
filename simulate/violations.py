"""Simulated hands that each break one rule of Razz on purpose, and the manifest saying where.

A fault is a `FaultHook` for one rule ID of RAZZ_RULES.md: at the first moment of a hand
where its rule can be broken, it writes what breaks it (a wrong bring-in player, a raise
past the cap, a card dealt twice, the wrong winner paid …) and lets the hand go on from
there, legal again, so that the log breaks that one rule and stays consistent everywhere
else: chips, stacks carried to the next hand, summary. It records the rule and the line.

Each hand of a copy is first played once with every fault watching but changing nothing, to
learn which faults it allows; then it is played again with the least used of those, so that
the copies cover as many rule IDs as the hands allow. The same seed gives the same bytes.

>>> files, injections = simulate_violations(hands=4, seed=3)
>>> len(injections), sum(len(f.hands) for f in files)
(4, 4)
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from razz.parser.events import (
    STREETS,
    UNKNOWN_CARD,
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Dealt,
    Event,
    Fold,
    GameKind,
    HandHeader,
    Muck,
    Outcome,
    Raise,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    TotalPot,
)
from razz.replay.betting import Action, capped, wager_target
from razz.replay.cards import RANK, RANK_CHARS
from razz.replay.lowhand import (
    board_value,
    description_matches,
    lo_text,
    low_value,
    shape_of,
    value_aces_high,
    value_high,
    value_lowest_first,
    value_pairs_ignored,
    value_straights_count,
    value_sum,
)
from razz.replay.order import bring_in_players, door_card, first_actor
from razz.replay.pots import PotAward, Settlement
from razz.replay.ruleset import Ruleset
from razz.replay.state import HandState, PlayerState, in_hand
from razz.replay.transitions import open_round
from razz.simulate.simulator import (
    FaultHook,
    HandPlay,
    Seat,
    Session,
    SimulatedFile,
    SimulatedHand,
    SimulationError,
    file_text,
    run_tables,
)

__all__ = ["FAULTS", "Fault", "Injection", "simulate_violations", "write_violations"]


@dataclass(frozen=True, slots=True)
class Injection:
    """One injected violation: the rule it breaks, its hand and line, and what was done."""

    file: str
    hand_id: str
    rule: str
    line: int
    note: str

    def to_json(self) -> str:
        """The manifest line of this injection.

        >>> Injection("a.txt", "12", "STRUCT-CAP", 40, "a 4th raise").to_json()
        '{"file": "a.txt", "hand_id": "12", "rule": "STRUCT-CAP", "line": 40, "note": "a 4th raise"}'
        """
        return json.dumps(
            {
                "file": self.file,
                "hand_id": self.hand_id,
                "rule": self.rule,
                "line": self.line,
                "note": self.note,
            },
            ensure_ascii=False,
        )


# ------------------------------------------------------------------------ helpers


def _betting_state(play: HandPlay) -> HandState:
    """The state with the current deal closed, so that the round's opener is known (a copy
    while the deal is still open: the hand's own state is not changed)."""
    return open_round(play.state)


def _index(state: HandState, name: str) -> int:
    return state.setup.index[name]


def _can_act(p: PlayerState) -> bool:
    return p.dealt_in and not p.folded and not p.all_in


def _ups(play: HandPlay, name: str) -> tuple[str, ...]:
    return tuple(play.cards.get(name, [])[2:6])


def _full_hand(play: HandPlay, name: str) -> tuple[str, ...]:
    cards = tuple(play.cards[name])
    return (*cards, play.community) if play.community else cards


def _find_line(play: HandPlay, match: Callable[[Event], bool]) -> int:
    for event in play.events:
        if match(event):
            return event.line
    raise SimulationError("an injected line is missing from the hand")


def _door_slot(play: HandPlay, k: int) -> int:
    """The deck index of the door card of the k-th player dealt on 3rd street."""
    return len(play.deck) - 1 - (3 * k + 2)


def _put_in_slot(play: HandPlay, card: str, slot: int) -> None:
    deck = play.deck
    j = deck.index(card)
    deck[j], deck[slot] = deck[slot], deck[j]


def _active_after_ante(play: HandPlay) -> list[Seat]:
    """Seated players who will still have chips once the ante is posted."""
    ante = play.table.stakes.ante
    bring_in = play.table.stakes.bring_in
    return [s for s in play.seats if s.stack > ante + bring_in]


# ------------------------------------------------------------------------ the faults


class Fault(FaultHook):
    """A hook that breaks one rule once, at the first moment of the hand it can.

    With `dry`, it changes nothing and only notes whether the hand offers that moment.
    """

    rule: ClassVar[str] = ""
    cash_only: ClassVar[bool] = False  # the evidence needs many hands at the same stakes

    def __init__(self, rng: random.Random, *, dry: bool) -> None:
        self.rng = rng
        self.dry = dry
        self.possible = False
        self.line = 0
        self.note = ""

    @property
    def injected(self) -> bool:
        return self.possible and not self.dry

    def fire(self, line: int, note: str) -> bool:
        """Note the moment; True when the fault must now break the rule (not a dry run)."""
        self.possible = True
        self.line, self.note = line, note
        return not self.dry

    @property
    def spent(self) -> bool:
        return self.possible


class _ActionFault(Fault, ABC):
    """A fault that replaces (or precedes) a betting action."""

    streets: ClassVar[tuple[Street, ...]] = STREETS

    def action(
        self, play: HandPlay, street: Street, actions: Sequence[Action], chosen: Action
    ) -> Callable[[int], Event] | None:
        if self.spent or street not in self.streets:
            return None
        state = _betting_state(play)
        made = self.make(play, state, street, actions, chosen)
        if made is None:
            return None
        event, note = made
        if not self.fire(play.next_line, note):
            return None
        return lambda line: replace(event, line=line)

    @abstractmethod
    def make(
        self,
        play: HandPlay,
        state: HandState,
        street: Street,
        actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:
        """The event to write instead of `chosen`, and a note; None when not possible now."""


def _kinds(actions: Sequence[Action]) -> dict[str, Action]:
    return {a.kind.value: a for a in actions}


# --- structure


class StructLimit(Fault):
    rule = "STRUCT-LIMIT"

    def header(self, play: HandPlay, header: HandHeader) -> HandHeader:
        if self.spent or not self.fire(play.first_line, "big bet three small bets"):
            return header
        return replace(header, big_bet=3 * header.small_bet)


class StructAnte(Fault):
    rule = "STRUCT-ANTE"
    chosen: str | None = None

    def before_hand(self, play: HandPlay) -> None:
        ante = play.table.stakes.ante
        able = [s.name for s in play.seats if s.stack > ante + 1]
        # The hand's ante is the amount most players post: the others must outnumber this one.
        if len(able) >= 3:
            self.chosen = self.rng.choice(able)

    def ante(self, play: HandPlay, name: str, amount: int, all_in: bool) -> tuple[int, bool]:
        if self.spent or name != self.chosen:
            return amount, all_in
        if not self.fire(play.next_line, f"ante {amount + 1} instead of {amount}"):
            return amount, all_in
        return amount + 1, False


class StructBringinSize(_ActionFault):
    rule = "STRUCT-BRINGIN-SIZE"
    cash_only = True  # the table's bring-in is learned from its other hands
    streets = (Street.THIRD,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        kinds = _kinds(actions)
        if "bring_in" not in kinds:
            return None
        stakes = play.table.stakes
        # The table must already show its bring-in (three hands agree on it, none on another).
        seen = {a: n for (sb, a), n in play.table.bring_ins.items() if sb == stakes.small_bet}
        if seen.get(stakes.bring_in, 0) < 3 or max(seen.values()) != seen[stakes.bring_in]:
            return None
        amount = stakes.bring_in + max(1, stakes.bring_in // 2)
        p = state.players[_index(state, chosen.player)]
        if amount >= stakes.small_bet or amount <= stakes.ante or p.stack <= amount:
            return None
        return BringIn(0, chosen.player, amount), f"bring-in {amount}, not {stakes.bring_in}"


class StructSmall(_ActionFault):
    rule = "STRUCT-SMALL"
    streets = (Street.FOURTH,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        kinds = _kinds(actions)
        if "bet" not in kinds:
            return None
        setup = state.setup
        amount = setup.small_bet + max(1, setup.small_bet // 4)
        p = state.players[_index(state, chosen.player)]
        if amount in (setup.small_bet, setup.big_bet) or p.stack <= amount:
            return None
        return Bet(0, chosen.player, amount), f"a 4th-street bet of {amount}"


class StructBig(_ActionFault):
    rule = "STRUCT-BIG"
    streets = (Street.FIFTH, Street.SIXTH, Street.SEVENTH)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "bet" not in _kinds(actions):
            return None
        amount = state.setup.small_bet
        if state.players[_index(state, chosen.player)].stack <= amount:
            return None
        return Bet(0, chosen.player, amount), f"a small bet on {street} street"


class StructNoDouble(_ActionFault):
    rule = "STRUCT-NO-DOUBLE"
    streets = (Street.FOURTH,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "bet" not in _kinds(actions):
            return None
        amount = state.setup.big_bet
        if state.players[_index(state, chosen.player)].stack <= amount:
            return None
        return Bet(0, chosen.player, amount), "a big bet on 4th street"


class StructCap(_ActionFault):
    rule = "STRUCT-CAP"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if not capped(state) or len(play.live()) < 3:
            return None
        i = _index(state, chosen.player)
        p, rnd = state.players[i], state.round
        unit = state.setup.bet_unit(street)
        to = rnd.level + unit
        if p.stack <= to - p.street_bet:
            return None
        return Raise(0, chosen.player, to=to, amount=unit), "a raise after the cap"


# --- bring-in


class BringinWho(_ActionFault):
    rule = "BRINGIN-WHO"
    streets = (Street.THIRD,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "bring_in" not in _kinds(actions):
            return None
        natural, expected = bring_in_players(state)
        i = _index(state, chosen.player)
        if natural != expected or expected != i:
            return None
        door = door_card(state.players[i])
        lower = [
            k
            for k, p in enumerate(state.players)
            if k != i
            and _can_act(p)
            and (d := door_card(p)) is not None
            and door is not None
            and RANK[d] < RANK[door]
        ]
        if not lower:
            return None
        k = self.rng.choice(lower)
        return _bring_in_by(state, k), f"{state.setup.name(k)} brings in, not {chosen.player}"


def _bring_in_by(state: HandState, k: int) -> BringIn:
    p = state.players[k]
    amount = min(state.setup.bring_in or 0, p.stack)
    return BringIn(0, state.setup.name(k), amount, amount == p.stack)


class _RiggedBringIn(_ActionFault, ABC):
    """Rigs the door cards before the deal, then has the wrong player bring in."""

    streets = (Street.THIRD,)
    rigged: bool = False

    def rig_deck(self, play: HandPlay) -> None:
        plan = self.plan(play)
        if plan is None:
            return
        if self.dry:
            self.possible = True  # the rig is what makes the moment
            return
        dealt = [s.name for s in play.seats if s.stack > 0]
        for name, card in plan.items():
            _put_in_slot(play, card, _door_slot(play, dealt.index(name)))
        self.rigged = True

    @abstractmethod
    def plan(self, play: HandPlay) -> dict[str, str] | None:
        """The door card to give each of some players, or None when the hand cannot."""

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if not self.rigged or "bring_in" not in _kinds(actions):
            return None
        return self.wrong(state, _index(state, chosen.player))

    @abstractmethod
    def wrong(self, state: HandState, expected: int) -> tuple[Event, str] | None:
        """The bring-in by the wrong player, when `expected` must bring in."""


class BringinSuit(_RiggedBringIn):
    rule = "BRINGIN-SUIT"
    pair: tuple[str, str] = ("", "")

    def plan(self, play: HandPlay) -> dict[str, str] | None:
        able = _active_after_ante(play)
        if len(able) < 3:
            return None
        high, low = self.rng.sample([s.name for s in able], 2)
        self.pair = (high, low)
        return {high: "Ks", low: "Kh"}

    def wrong(self, state: HandState, expected: int) -> tuple[Event, str] | None:
        high, low = self.pair
        if state.setup.name(expected) != high:
            return None
        return _bring_in_by(state, _index(state, low)), f"{low} (Kh) brings in, not {high} (Ks)"


class BringinAllin(_RiggedBringIn):
    rule = "BRINGIN-ALLIN"

    def plan(self, play: HandPlay) -> dict[str, str] | None:
        ante = play.table.stakes.ante
        broke = [s.name for s in play.seats if 0 < s.stack <= ante]
        if not broke or len(_active_after_ante(play)) < 3:
            return None
        return {self.rng.choice(broke): "Ks"}

    def wrong(self, state: HandState, expected: int) -> tuple[Event, str] | None:
        natural, _ = bring_in_players(state)
        if natural is None or natural == expected:
            return None
        others = [k for k, p in enumerate(state.players) if k != expected and _can_act(p)]
        if not others:
            return None
        k = self.rng.choice(others)
        note = f"{state.setup.name(k)} brings in; it passes to {state.setup.name(expected)}"
        return _bring_in_by(state, k), note


class BringinChoice(_ActionFault):
    rule = "BRINGIN-CHOICE"
    streets = (Street.THIRD,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "bring_in" not in _kinds(actions):
            return None
        return Check(0, chosen.player), "the bring-in player checks"


# --- order


class Order3rd(_ActionFault):
    rule = "ORDER-3RD"
    streets = (Street.THIRD,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if not state.deal.brought_in:
            return None
        rnd = state.round
        to_act = _index(state, chosen.player)
        others = [
            k
            for k, p in enumerate(state.players)
            if _can_act(p) and k not in (to_act, state.deal.bring_in) and k not in rnd.acted
        ]
        if not others:
            return None
        k = self.rng.choice(others)
        return _out_of_turn(state, k), f"{state.setup.name(k)} acts before {chosen.player}"


def _out_of_turn(state: HandState, k: int) -> Event:
    """What player `k` does out of turn: call what they face if they can, else check or fold."""
    p, rnd, name = state.players[k], state.round, state.setup.name(k)
    facing = rnd.level - p.street_bet
    if facing <= 0:
        return Check(0, name)
    if facing < p.stack:
        return Call(0, name, facing)
    return Fold(0, name)


class OrderLater(_ActionFault):
    rule = "ORDER-LATER"
    streets = (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if state.round.actions:
            return None
        best, opener = first_actor(state)
        i = _index(state, chosen.player)
        if best != opener or opener != i:
            return None
        mine = board_value(_ups(play, chosen.player))
        others = [
            k
            for k, p in enumerate(state.players)
            if k != i and _can_act(p) and board_value(_ups(play, state.setup.name(k))) != mine
        ]
        if not others:
            return None
        k = self.rng.choice(others)
        return Check(0, state.setup.name(k)), f"{state.setup.name(k)} opens, not {chosen.player}"


class OrderTie(_ActionFault):
    rule = "ORDER-TIE"
    streets = (Street.FOURTH,)
    pair: tuple[str, str] = ("", "")
    rigged: bool = False

    def rig_deck(self, play: HandPlay) -> None:
        able = _active_after_ante(play)
        if len(able) < 2:
            return
        if self.dry:
            self.possible = True
            return
        first, second = sorted(self.rng.sample(able, 2), key=lambda s: s.seat)
        self.pair = (first.name, second.name)
        dealt = [s.name for s in play.seats if s.stack > 0]
        # Both get an ace door and, on 4th street, a deuce: two equal best boards.
        _put_in_slot(play, "Ac", _door_slot(play, dealt.index(first.name)))
        _put_in_slot(play, "Ad", _door_slot(play, dealt.index(second.name)))
        self.rigged = True

    def draw(self, play: HandPlay, street: Street, name: str, cards: list[str]) -> list[str]:
        if not self.rigged or street is not Street.FOURTH or name not in self.pair:
            return cards
        deuces = [c for c in ("2c", "2d", "2h", "2s") if c in play.deck]
        if not deuces:
            return cards
        play.deck.append(cards[0])  # the card drawn goes back on top of the deck
        return [play.take(deuces[0])]

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if not self.rigged or state.round.actions:
            return None
        second = self.pair[1]
        k = state.setup.index[second]
        if chosen.player == second or not _can_act(state.players[k]):
            return None
        if board_value(_ups(play, second)) != board_value(_ups(play, chosen.player)):
            return None
        return Check(0, second), f"{second} acts before {chosen.player} on an equal board"


class OrderAllin(_ActionFault):
    rule = "ORDER-ALLIN"
    streets = (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if state.round.actions:
            return None
        best, opener = first_actor(state)
        i = _index(state, chosen.player)
        if best is None or opener != i or not state.players[best].all_in:
            return None
        others = [k for k, p in enumerate(state.players) if k != i and _can_act(p)]
        if not others:
            return None
        k = self.rng.choice(others)
        return Check(0, state.setup.name(k)), f"{state.setup.name(k)} opens, not {chosen.player}"


class OrderClockwise(_ActionFault):
    rule = "ORDER-CLOCKWISE"
    streets = (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        rnd = state.round
        if not rnd.actions:
            return None
        i = _index(state, chosen.player)
        owing = [
            k
            for k, p in enumerate(state.players)
            if k != i and _can_act(p) and (k not in rnd.acted or p.street_bet < rnd.level)
        ]
        if not owing:
            return None
        k = self.rng.choice(owing)
        return _out_of_turn(state, k), f"{state.setup.name(k)} acts before {chosen.player}"


# --- actions


class ActTurn(_ActionFault):
    rule = "ACT-TURN"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        gone = [name for name in play.folded_on if not in_hand(state.players[_index(state, name)])]
        if not gone:
            return None
        name = self.rng.choice(gone)
        # Written before the legal action, which then follows as usual.
        if self.fire(play.next_line, f"{name} folds again after folding"):
            play.emit(Fold, name)
        return None


class ActChoices(_ActionFault):
    rule = "ACT-CHOICES"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        raise_ = _kinds(actions).get("raise")
        if raise_ is None or raise_.all_in:
            return None
        return Bet(0, chosen.player, raise_.chips), "a bet facing a bet, instead of a raise"


class ActCheck(_ActionFault):
    rule = "ACT-CHECK"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "call" not in _kinds(actions):
            return None
        return Check(0, chosen.player), "a check facing a bet"


class ActCall(_ActionFault):
    rule = "ACT-CALL"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        call = _kinds(actions).get("call")
        if call is None or call.all_in or call.chips < 2:
            return None
        return Call(0, chosen.player, call.chips // 2), f"calls {call.chips // 2} of {call.chips}"


class ActComplete(_ActionFault):
    rule = "ACT-COMPLETE"
    streets = (Street.THIRD,)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        complete = _kinds(actions).get("complete")
        if complete is None or complete.as_bet:
            return None
        setup, rnd = state.setup, state.round
        p = state.players[_index(state, chosen.player)]
        to = setup.small_bet + (setup.bring_in or 1)
        if p.stack <= to - p.street_bet:
            return None
        return Raise(0, chosen.player, to=to, amount=to - rnd.level), f"completes to {to}"


class ActRaiseSize(_ActionFault):
    rule = "ACT-RAISE-SIZE"
    streets = (Street.FIFTH, Street.SIXTH, Street.SEVENTH)

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        raise_ = _kinds(actions).get("raise")
        if raise_ is None:
            return None
        p, rnd = state.players[_index(state, chosen.player)], state.round
        unit = state.setup.bet_unit(street)
        to = rnd.level + 2 * unit
        if p.stack <= to - p.street_bet:
            return None
        return Raise(0, chosen.player, to=to, amount=2 * unit), "a raise of two big bets"


class ActAllinShort(_ActionFault):
    rule = "ACT-ALLIN-SHORT"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        if "raise" in _kinds(actions) or capped(state):
            return None
        i = _index(state, chosen.player)
        p, rnd = state.players[i], state.round
        if i not in rnd.acted or rnd.level <= p.street_bet:
            return None
        to = wager_target(state, i)
        if to <= rnd.level or p.stack <= to - p.street_bet:
            return None
        return Raise(0, chosen.player, to=to, amount=to - rnd.level), "a re-raise after a short all-in"


class ActUncalled(Fault):
    rule = "ACT-UNCALLED"

    def uncalled(self, play: HandPlay, player: str, amount: int) -> int:
        state = play.state
        # Only a whole street's bet: the engine returns no more than the bet, so one chip
        # too many is written but not paid, and the chips stay right.
        if self.spent or state.players[_index(state, player)].street_bet != amount:
            return amount
        if not self.fire(play.next_line, f"returns {amount + 1}, not {amount}"):
            return amount
        return amount + 1


class LogStack(_ActionFault):
    rule = "LOG-STACK"

    def make(
        self, play: HandPlay, state: HandState, street: Street, actions: Sequence[Action],
        chosen: Action,
    ) -> tuple[Event, str] | None:  # fmt: skip
        kinds = _kinds(actions)
        bet, call = kinds.get("bet"), kinds.get("call")
        unit = state.setup.bet_unit(street)
        if bet is not None and bet.all_in and bet.chips < unit and chosen.player != play.table.hero:
            return Bet(0, chosen.player, unit), f"bets {unit} with {bet.chips} left"
        # Not marked all-in: half the chances are left for a bet beyond the stack, later.
        if call is not None and call.all_in and self.rng.random() < 0.5:
            return Call(0, chosen.player, call.chips), "calls every chip, not marked all-in"
        return None


# --- dealing


class DealUnique(Fault):
    rule = "DEAL-UNIQUE"

    def draw(self, play: HandPlay, street: Street, name: str, cards: list[str]) -> list[str]:
        if self.spent or street not in (Street.FIFTH, Street.SIXTH):
            return cards
        seen = [c for other in play.live() if other != name for c in _ups(play, other)]
        if not seen:
            return cards
        card = self.rng.choice(seen)
        if not self.fire(play.next_line, f"{card} dealt to {name} a second time"):
            return cards
        play.deck.append(cards[0])
        return [card]


class DealCommunity(Fault):
    rule = "DEAL-COMMUNITY"

    def community(self, play: HandPlay, needed: bool) -> bool:
        if self.spent or needed or len(play.live()) < 2:
            return needed
        return self.fire(play.next_line, "a community card with cards enough for everyone")


class Deal7th(Fault):
    rule = "DEAL-7TH"

    def dealt(self, play: HandPlay, street: Street, name: str, line: Dealt | None) -> Dealt | None:
        # The file owner still in the hand gets no river card line (another player's river
        # line, `[4 up cards] [card]`, is not a line the PokerStars format has).
        if self.spent or street is not Street.SEVENTH or line is None or not line.hero:
            return line
        marker = max(e.line for e in play.events if isinstance(e, StreetStart))
        if not self.fire(marker, f"no river card line for {name}"):
            return line
        return None


class Deal3rd(Fault):
    rule = "DEAL-3RD"

    def dealt(self, play: HandPlay, street: Street, name: str, line: Dealt | None) -> Dealt | None:
        if self.spent or street is not Street.THIRD or line is None or line.hero:
            return line
        if len(play.state.players) > 6:
            return line  # the deck must not run out: the engine counts only the cards it saw
        doors = [cards[2] for other, cards in play.cards.items() if other != name]
        mine = play.cards[name][2]
        # Another door must be higher, so that the bring-in does not depend on the missing card.
        if not doors or max(RANK[d] for d in doors) <= RANK[mine]:
            return line
        marker = max(e.line for e in play.events if isinstance(e, StreetStart))
        if not self.fire(marker, f"no 3rd-street card line for {name}"):
            return line
        return None


class DealUp(Fault):
    rule = "DEAL-UP"

    def after_deal(self, play: HandPlay, street: Street) -> None:
        if self.spent or street not in (Street.FOURTH, Street.FIFTH, Street.SIXTH):
            return
        if len(play.live()) > 6:
            return
        previous = STREETS[STREETS.index(street) - 1]
        gone = [n for n, s in play.folded_on.items() if s is previous]
        if not gone:
            return
        name = self.rng.choice(gone)
        if self.fire(play.next_line, f"{name} folded and is dealt a card"):
            shown = (UNKNOWN_CARD, UNKNOWN_CARD, *_ups(play, name))
            play.emit(Dealt, name, street, shown, (play.deck.pop(0),), False)


class DealCount(Fault):
    rule = "DEAL-COUNT"

    def after_deal(self, play: HandPlay, street: Street) -> None:
        if self.spent or street not in (Street.FOURTH, Street.FIFTH, Street.SIXTH):
            return
        live = [n for n in play.live() if n != play.table.hero]
        if not live or len(play.live()) > 6:
            return
        name = self.rng.choice(live)
        if self.fire(play.next_line, f"{name} is dealt a second card on {street} street"):
            previous = (UNKNOWN_CARD, UNKNOWN_CARD, *play.cards[name][2:-1])
            play.emit(Dealt, name, street, previous, (play.deck.pop(0),), False)


class LogCards(Fault):
    rule = "LOG-CARDS"

    def dealt(self, play: HandPlay, street: Street, name: str, line: Dealt | None) -> Dealt | None:
        if self.spent or street not in (Street.FIFTH, Street.SIXTH) or line is None:
            return line
        if line.hero or len(play.live()) > 6:
            return line
        hidden = 2  # an opponent's line repeats the up cards after two hidden down cards
        k = hidden + self.rng.randrange(len(line.previous) - hidden)
        old = line.previous[k]
        same_rank = [c for c in play.deck if c[0] == old[0]]
        other = same_rank[0] if same_rank else play.deck[0]
        if not self.fire(play.next_line, f"{name}'s {old} is written {other}"):
            return line
        play.take(other)
        previous = (*line.previous[:k], other, *line.previous[k + 1 :])
        return replace(line, previous=previous)


# --- the continuity of stacks


class LogContinuity(Fault):
    rule = "LOG-CONTINUITY"

    def before_hand(self, play: HandPlay) -> None:
        table = play.table
        tournament = table.kind is GameKind.TOURNAMENT
        candidates = [
            (k, s)
            for k, s in enumerate(play.seats)
            if s.name in table.last_hand and s.name != table.hero and s.stack >= 4
        ]
        if self.spent or not candidates:
            return
        k, seat = self.rng.choice(candidates)
        change = max(1, seat.stack // 4)
        if tournament and self.rng.random() < 0.5:
            change = -change  # a tournament stack must match exactly: more is wrong too
        note = f"{seat.name} starts with {seat.stack - change}, not {seat.stack}"
        if self.fire(play.first_line + 2 + k, note):
            seat.stack -= change


# --- the showdown and the pot


class _PayFault(Fault, ABC):
    """Pays a single pot, won at a showdown, to the wrong players."""

    payee: str = ""

    def settlement(self, play: HandPlay, settlement: Settlement) -> Settlement:
        if self.spent or len(settlement.pots) != 1 or len(play.live()) < 2:
            return settlement
        (pot,) = settlement.pots
        values = {name: low_value(_full_hand(play, name)) for name in play.live()}
        changed = self.pay(play, pot, values)
        if changed is None:
            return settlement
        winners, shares, payee, note = changed
        if not self.fire(0, note):
            return settlement
        self.payee = payee
        return replace(settlement, pots=(replace(pot, winners=winners, shares=shares),))

    @abstractmethod
    def pay(
        self, play: HandPlay, pot: PotAward, values: dict[str, int]
    ) -> tuple[tuple[str, ...], tuple[int, ...], str, str] | None:
        """Winners, shares, the player whose collection breaks the rule, and a note."""

    def after_hand(self, play: HandPlay) -> None:
        if self.injected:
            self.line = _find_line(
                play, lambda e: isinstance(e, Collect) and e.player == self.payee
            )


def _eight_low(cards: Sequence[str]) -> bool:
    """Whether the cards make an eight-or-better low (five distinct ranks, eight or lower)."""
    ranks = sorted({RANK[c] for c in cards if c in RANK})
    return len(ranks) >= 5 and ranks[4] <= 8


def payment_rule(hands: Mapping[str, Sequence[str]], loser: str, winner: str) -> str:
    """The one rule a log breaks by paying `loser` the pot that `winner` wins ("": no one rule).

    `hands` are the seven-card hands of every player who plays for the pot. A wrong payment
    breaks the rule whose misreading of Razz ranks the paid hand first among all of them: aces
    high or straights and flushes counted (HAND-LOW), pairs not counted (HAND-PAIRS), lows
    compared from the lowest card or by their sum (HAND-COMPARE), or an eight-or-better
    qualifier that gives the pot to the best high hand (WIN-NOQUAL). When no misreading
    explains it, a paired hand paid over an unpaired one breaks HAND-PAIRS, any other wrong
    low HAND-COMPARE. A payment that the misreadings of two rules explain alike has no one
    cause: "" (the simulator injects only faults with one cause, one rule).

    >>> payment_rule({"ann": "8h 7d 6c 4s 2h Kc Qs".split(), "bob": "Ah Ad 2c 2s 3h Kd Kc".split()}, "bob", "ann")
    'HAND-PAIRS'
    """
    mine, theirs = hands[loser], hands[winner]
    mv, tv = low_value(mine), low_value(theirs)
    if mv == tv:
        return "WIN-SPLIT"
    others = [h for n, h in hands.items() if n != loser]

    def first(key: Callable[[Sequence[str]], Any]) -> bool:
        paid = key(mine)
        return all(paid <= key(h) for h in others)

    causes = set()
    if first(value_aces_high) or first(value_straights_count):
        causes.add("HAND-LOW")
    if first(value_pairs_ignored):
        causes.add("HAND-PAIRS")
    if first(value_lowest_first) or first(value_sum):
        causes.add("HAND-COMPARE")
    if not any(_eight_low(h) for h in hands.values()) and all(
        value_high(mine) > value_high(h) for h in others
    ):
        causes.add("WIN-NOQUAL")  # a qualifier pays the best high hand when no low qualifies
    if len(causes) > 1:
        return ""
    if causes:
        return causes.pop()
    return "HAND-PAIRS" if shape_of(mv) != shape_of(tv) else "HAND-COMPARE"


def _misread(play: HandPlay, loser: str, winner: str) -> str:
    """The rule a log breaks by paying `loser` instead of `winner` (`payment_rule`)."""
    return payment_rule({n: _full_hand(play, n) for n in play.live()}, loser, winner)


class _WrongWinner(_PayFault):
    def pay(
        self, play: HandPlay, pot: PotAward, values: dict[str, int]
    ) -> tuple[tuple[str, ...], tuple[int, ...], str, str] | None:
        if len(pot.winners) != 1:
            return None
        (winner,) = pot.winners
        losers = [n for n in play.live() if n != winner and _misread(play, n, winner) == self.rule]
        if not losers:
            return None
        loser = self.rng.choice(losers)
        note = f"{loser} paid instead of {winner}"
        return (loser,), (sum(pot.shares),), loser, note


class HandCompare(_WrongWinner):
    rule = "HAND-COMPARE"


class HandPairs(_WrongWinner):
    rule = "HAND-PAIRS"


class HandLow(_WrongWinner):
    rule = "HAND-LOW"


class WinNoqual(_PayFault):
    rule = "WIN-NOQUAL"

    def pay(
        self, play: HandPlay, pot: PotAward, values: dict[str, int]
    ) -> tuple[tuple[str, ...], tuple[int, ...], str, str] | None:
        if len(pot.winners) != 1:
            return None
        (winner,) = pot.winners
        losers = [n for n in play.live() if n != winner]
        loser = self.rng.choice(losers)
        total = sum(pot.shares)
        half = total // 2
        if half == 0:
            return None
        return (winner, loser), (total - half, half), loser, f"{loser} gets half of the pot"


class WinSplit(_PayFault):
    rule = "WIN-SPLIT"
    rigged: bool = False

    def after_deal(self, play: HandPlay, street: Street) -> None:
        """Ties are rare: give two players river cards that make equal best lows.

        Only other players' river cards are changed; nobody has seen them yet.
        """
        if self.spent or self.rigged or street is not Street.SEVENTH or play.community:
            return
        hero = play.table.hero
        others = [n for n in play.live() if n != hero and len(play.cards[n]) == 7]
        if len(others) < 2:
            return
        a, b = self.rng.sample(others, 2)
        rest = [low_value(play.cards[n]) for n in play.live() if n not in (a, b)]
        best_rest = min(rest, default=None)
        pool = [*play.deck, play.cards[a][6], play.cards[b][6]]
        hand_a, hand_b = play.cards[a][:6], play.cards[b][:6]
        values_b = {card: low_value((*hand_b, card)) for card in pool}
        for card_a in pool:
            value = low_value((*hand_a, card_a))
            if best_rest is not None and value > best_rest:
                continue
            card_b = next((c for c, v in values_b.items() if v == value and c != card_a), None)
            if card_b is None:
                continue
            if self.dry:
                self.possible = True
                return
            play.deck.extend((play.cards[a][6], play.cards[b][6]))
            play.cards[a][6], play.cards[b][6] = play.take(card_a), play.take(card_b)
            self.rigged = True
            return

    def pay(
        self, play: HandPlay, pot: PotAward, values: dict[str, int]
    ) -> tuple[tuple[str, ...], tuple[int, ...], str, str] | None:
        if len(pot.winners) < 2:
            return None
        winner = self.rng.choice(pot.winners)
        return (winner,), (sum(pot.shares),), winner, f"{winner} takes a split pot alone"

    def after_hand(self, play: HandPlay) -> None:
        if self.injected:  # the engine points at the first collection of the pot
            self.line = _find_line(play, lambda e: isinstance(e, Collect))


class PotSide(Fault):
    rule = "POT-SIDE"
    payee: str = ""
    side: int = 0

    def settlement(self, play: HandPlay, settlement: Settlement) -> Settlement:
        if self.spent or len(settlement.pots) < 2:
            return settlement
        pots = list(settlement.pots)
        k = self.rng.randrange(1, len(pots))
        pot = pots[k]
        outside = [n for n in play.live() if n not in pot.eligible]
        if not outside:
            return settlement
        payee = self.rng.choice(outside)
        if not self.fire(0, f"{payee} collects side pot {k}, which they cannot win"):
            return settlement
        self.payee, self.side = payee, k
        pots[k] = replace(pot, winners=(payee,), shares=(sum(pot.shares),))
        return replace(settlement, pots=tuple(pots))

    def after_hand(self, play: HandPlay) -> None:
        if self.injected:
            self.line = _find_line(
                play,
                lambda e: isinstance(e, Collect) and e.player == self.payee and e.side == self.side,
            )


class _EditFault(Fault, ABC):
    """Edits the written hand after the fact (the chips do not change)."""

    def after_hand(self, play: HandPlay) -> None:
        if self.spent:
            return
        self.edit(play, play.events)

    @abstractmethod
    def edit(self, play: HandPlay, events: list[Event]) -> None:
        """Change the written events in place (their lines stay)."""


class ShowOrder(_EditFault):
    rule = "SHOW-ORDER"

    def edit(self, play: HandPlay, events: list[Event]) -> None:
        starts = [k for k, e in enumerate(events) if isinstance(e, ShowDown)]
        if not starts:
            return
        k = starts[0] + 1
        first, second = events[k], events[k + 1]
        if not (isinstance(first, (Show, Muck)) and isinstance(second, (Show, Muck))):
            return
        if first.player == second.player:
            return
        if self.fire(first.line, f"{second.player} shows before {first.player}"):
            events[k], events[k + 1] = (
                replace(second, line=first.line),
                replace(first, line=second.line),
            )


class LogDesc(_EditFault):
    rule = "LOG-DESC"

    def edit(self, play: HandPlay, events: list[Event]) -> None:
        showdown = next((e.line for e in events if isinstance(e, ShowDown)), None)
        if showdown is None:
            return
        for k, e in enumerate(events):
            if not isinstance(e, Show) or e.line < showdown:
                continue
            hand = _full_hand(play, e.player)
            best = lo_text(hand).split(",")
            # A plausible misreading: the top card one rank lower (or higher), the rest kept.
            top = RANK_CHARS.index(best[0])
            for j in (top - 1, top + 1, top - 2, top + 2):
                if not 0 <= j < len(RANK_CHARS) or RANK_CHARS[j] in best:
                    continue
                wrong = "Lo: " + ",".join([RANK_CHARS[j], *best[1:]])
                if not description_matches(wrong, hand):
                    if self.fire(e.line, f"{wrong} for {lo_text(hand)}"):
                        events[k] = replace(e, description=wrong)
                    return


class LogSummary(_EditFault):
    rule = "LOG-SUMMARY"

    def edit(self, play: HandPlay, events: list[Event]) -> None:
        results = [(k, e) for k, e in enumerate(events) if isinstance(e, SeatResult)]
        folded = [(k, e) for k, e in results if e.outcome is Outcome.FOLDED and e.street]
        if folded:
            k, e = self.rng.choice(folded)
            assert e.street is not None
            j = STREETS.index(e.street)
            street = STREETS[j + 1] if j + 1 < len(STREETS) else STREETS[j - 1]
            if self.fire(e.line, f"folded on {street}, not {e.street}"):
                events[k] = replace(e, street=street, didnt_bet=False)
            return
        paid = [(k, e) for k, e in results if e.amount]
        if paid:
            k, e = self.rng.choice(paid)
            assert e.amount is not None
            if self.fire(e.line, f"won {e.amount + 1}, not {e.amount}"):
                events[k] = replace(e, amount=e.amount + 1)


class PotRake(_EditFault):
    rule = "POT-RAKE"

    def edit(self, play: HandPlay, events: list[Event]) -> None:
        for k, e in enumerate(events):
            if not isinstance(e, TotalPot) or e.total is None or e.rake >= e.total:
                continue
            if self.rng.random() < 0.5:
                if self.fire(e.line, f"total pot {e.total + 1}, not {e.total}"):
                    events[k] = replace(e, total=e.total + 1)
            elif self.fire(e.line, f"rake {e.rake + 1}, not {e.rake}"):
                events[k] = replace(e, rake=e.rake + 1)
            return


FAULTS: tuple[type[Fault], ...] = (
    StructLimit, StructAnte, StructBringinSize, StructSmall, StructBig, StructNoDouble,
    StructCap, Deal3rd, DealUp, Deal7th, DealCommunity, DealUnique, DealCount, BringinWho,
    BringinSuit, BringinAllin, BringinChoice, Order3rd, OrderLater, OrderTie, OrderAllin,
    OrderClockwise, ActChoices, ActCheck, ActCall, ActComplete, ActRaiseSize, ActAllinShort,
    ActTurn, ActUncalled, ShowOrder, HandLow, HandPairs, HandCompare, WinNoqual, WinSplit,
    PotSide, PotRake, LogStack, LogContinuity, LogDesc, LogSummary, LogCards,
)  # fmt: skip
"""Every fault, one per rule ID of RAZZ_RULES.md, in the document's order (roughly)."""


# ------------------------------------------------------------------------ planning


class _Probe(FaultHook):
    """Every fault watching a hand at once, dry: the hand is played unchanged."""

    def __init__(self, faults: Sequence[Fault]) -> None:
        self.faults = faults

    def before_hand(self, play: HandPlay) -> None:
        for f in self.faults:
            f.before_hand(play)

    def header(self, play: HandPlay, header: HandHeader) -> HandHeader:
        for f in self.faults:
            f.header(play, header)
        return header

    def rig_deck(self, play: HandPlay) -> None:
        for f in self.faults:
            f.rig_deck(play)

    def ante(self, play: HandPlay, name: str, amount: int, all_in: bool) -> tuple[int, bool]:
        for f in self.faults:
            f.ante(play, name, amount, all_in)
        return amount, all_in

    def community(self, play: HandPlay, needed: bool) -> bool:
        for f in self.faults:
            f.community(play, needed)
        return needed

    def draw(self, play: HandPlay, street: Street, name: str, cards: list[str]) -> list[str]:
        for f in self.faults:
            f.draw(play, street, name, cards)
        return cards

    def dealt(self, play: HandPlay, street: Street, name: str, line: Dealt | None) -> Dealt | None:
        for f in self.faults:
            f.dealt(play, street, name, line)
        return line

    def after_deal(self, play: HandPlay, street: Street) -> None:
        for f in self.faults:
            f.after_deal(play, street)

    def action(
        self, play: HandPlay, street: Street, actions: Sequence[Action], chosen: Action
    ) -> Callable[[int], Event] | None:
        for f in self.faults:
            f.action(play, street, actions, chosen)
        return None

    def uncalled(self, play: HandPlay, player: str, amount: int) -> int:
        for f in self.faults:
            f.uncalled(play, player, amount)
        return amount

    def settlement(self, play: HandPlay, settlement: Settlement) -> Settlement:
        for f in self.faults:
            f.settlement(play, settlement)
        return settlement

    def after_hand(self, play: HandPlay) -> None:
        for f in self.faults:
            f.after_hand(play)


class _Planner:
    """Plays each hand of a copy with the least used fault that the hand allows."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.counts: Counter[str] = Counter()
        self.injections: list[Injection] = []

    def faults(self, hand_id: str, *, dry: bool) -> list[Fault]:
        base = (self.seed * 1_000_003 + int(hand_id)) % 2**63
        return [cls(random.Random(base + k), dry=dry) for k, cls in enumerate(FAULTS)]

    def __call__(
        self, session: Session, hand_id: str, moment: datetime, line: int, joiner: Seat | None
    ) -> tuple[SimulatedHand, HandPlay]:
        restore = session.snapshot()
        probe = _Probe(self.faults(hand_id, dry=True))
        session.new_play(line, joiner, probe).play(hand_id, moment)
        restore()
        cash = session.table.kind is GameKind.CASH
        tiebreak = random.Random(int(hand_id) ^ self.seed)
        possible = [
            k
            for k, f in enumerate(probe.faults)
            if f.possible and (cash or not FAULTS[k].cash_only)
        ]
        possible.sort(key=lambda k: (self.counts[FAULTS[k].rule], tiebreak.random()))
        # Raising the rake is always possible, so every hand breaks some rule.
        fallback = FAULTS.index(PotRake)
        for k in [*possible, fallback]:
            fault = self.faults(hand_id, dry=False)[k]
            play = session.new_play(line, joiner, fault)
            hand = play.play(hand_id, moment)
            if fault.injected:
                self.counts[fault.rule] += 1
                self.injections.append(
                    Injection(session.source, hand_id, fault.rule, fault.line, fault.note)
                )
                return hand, play
            restore()
        raise SimulationError(f"no rule could be broken in hand {hand_id}")


def simulate_violations(
    hands: int,
    seed: int,
    *,
    ruleset: Ruleset | None = None,
    tournament_share: float = 0.4,
    site: str = "pokerstars",
) -> tuple[tuple[SimulatedFile, ...], tuple[Injection, ...]]:
    """Copies of `simulate(hands, seed)`'s tables in which every hand breaks exactly one rule.

    The copies start like the originals (same seats, stakes and cards) and part from them at
    the first injected fault; their table names end in ` V` and their hand ids differ.
    """
    planner = _Planner(seed)
    files = run_tables(
        hands,
        seed,
        ruleset=ruleset,
        strict=False,
        tournament_share=tournament_share,
        planner=planner,
        site=site,
    )
    return files, tuple(planner.injections)


def write_violations(
    files: Iterable[SimulatedFile],
    injections: Iterable[Injection],
    directory: Path,
    *,
    manifest: str = "manifest.jsonl",
) -> list[Path]:
    """Write the copies and their manifest (one JSON object per line) into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for simulated in files:
        path = directory / simulated.name
        path.write_bytes(file_text(simulated).encode("utf-8"))
        paths.append(path)
    lines = "".join(injection.to_json() + "\n" for injection in injections)
    (directory / manifest).write_text(lines, encoding="utf-8")
    return paths


# ------------------------------------------------------------------------ one file per rule


class _OneFault:
    """Plays clean hands, then breaks one rule in the first hand that allows it, and stops."""

    def __init__(self, cls: type[Fault], seed: int, clean_first: int) -> None:
        self.cls = cls
        self.seed = seed
        self.clean_first = clean_first
        self.injection: Injection | None = None

    def __call__(
        self, session: Session, hand_id: str, moment: datetime, line: int, joiner: Seat | None
    ) -> tuple[SimulatedHand, HandPlay]:
        if len(session.hands) >= self.clean_first and self.injection is None:
            restore = session.snapshot()
            rng_seed = (self.seed * 1_000_003 + int(hand_id)) % 2**63
            probe = self.cls(random.Random(rng_seed), dry=True)
            session.new_play(line, joiner, probe).play(hand_id, moment)
            restore()
            if probe.possible:
                fault = self.cls(random.Random(rng_seed), dry=False)
                play = session.new_play(line, joiner, fault)
                hand = play.play(hand_id, moment)
                if fault.injected:
                    self.injection = Injection(
                        session.source, hand_id, fault.rule, fault.line, fault.note
                    )
                    session.table.done = True  # the file ends with the broken hand
                    return hand, play
                restore()
        play = session.new_play(line, joiner)
        return play.play(hand_id, moment), play


def _renumber(hand: SimulatedHand, offset: int) -> SimulatedHand:
    """The hand moved `offset` lines up in its file."""
    header = replace(hand.header, first_line=hand.header.first_line - offset)
    events = tuple(replace(e, line=e.line - offset) for e in hand.events)
    return replace(hand, header=header, events=events, last_line=hand.last_line - offset)


def simulate_rule_samples(
    seed: int,
    *,
    rules: Iterable[str] | None = None,
    clean_first: int = 3,
    max_hands: int = 3000,
) -> dict[str, tuple[SimulatedFile, Injection]]:
    """For each rule (all, or `rules`), a small file: `clean_first` legal hands at a table,
    then one hand that breaks the rule (found by playing tables until a hand allows it).
    Rules that no table allowed within `max_hands` hands are left out."""
    wanted = set(rules) if rules is not None else {cls.rule for cls in FAULTS}
    samples: dict[str, tuple[SimulatedFile, Injection]] = {}
    for k, cls in enumerate(FAULTS):
        if cls.rule not in wanted:
            continue
        played = 0
        attempt = 0
        while played < max_hands and cls.rule not in samples:
            attempt += 1
            planner = _OneFault(cls, seed + k, clean_first)
            share = 0.0 if cls.cash_only else (0.5 if attempt % 2 else 0.0)

            def injected(p: _OneFault = planner) -> bool:
                return p.injection is not None

            files = run_tables(
                400,
                (seed * 7919 + k * 104_729 + attempt) % 2**63,
                strict=False,
                tournament_share=share,
                planner=planner,
                until=injected,
            )
            played += sum(len(f.hands) for f in files)
            if planner.injection is None:
                continue
            injection = planner.injection
            simulated = next(f for f in files if f.name == injection.file)
            kept = simulated.hands[-(clean_first + 1) :]
            offset = kept[0].header.first_line - 1
            name = f"{cls.rule}.txt"
            hands = tuple(_renumber(h, offset) for h in kept)
            samples[cls.rule] = (
                replace(simulated, name=name, hands=hands),
                replace(injection, file=name, line=injection.line - offset),
            )
    return samples


def write_rule_samples(
    samples: dict[str, tuple[SimulatedFile, Injection]], directory: Path
) -> list[Path]:
    """Write `RULE-ID.txt` files and their `manifest.jsonl` into `directory`."""
    files = [simulated for simulated, _ in samples.values()]
    injections = [injection for _, injection in samples.values()]
    return write_violations(files, injections, directory)
