"""The engine shows each visitor the lines it asks for (`Visitor.kinds`), and all of them
when it asks for none; several visitors sharing a replay each see their own kinds."""

from __future__ import annotations

from typing import Any

from razz.parser import read_text
from razz.parser.events import Dealt, Event, Fold, Hand
from razz.replay.audit import EXAMPLE, HandAudit, audit_hand
from razz.replay.engine import Recorder, replay
from razz.replay.state import HandState
from razz.replay.visitor import Visitor, Visitors


class Seen(Visitor[list[tuple[str, str]]]):
    """Every call of `visit` and `visited`, as (method, event type)."""

    def __init__(self, kinds: frozenset[type] | None = None) -> None:
        self.kinds = kinds
        self.calls: list[tuple[str, str]] = []

    def visit(self, state: HandState, event: Event) -> None:
        self.calls.append(("visit", type(event).__name__))

    def visited(self, state: HandState, event: Event) -> None:
        self.calls.append(("visited", type(event).__name__))

    def result(self) -> list[tuple[str, str]]:
        return self.calls


def _hand() -> Hand:
    hand = next(iter(read_text(EXAMPLE)))
    assert isinstance(hand, Hand)
    return hand


def test_a_visitor_without_kinds_sees_every_line_before_and_after_it_is_applied() -> None:
    hand = _hand()
    calls = replay(hand, Seen())
    names = [type(e).__name__ for e in hand.events]
    assert calls == [(m, n) for n in names for m in ("visit", "visited")]


def test_a_visitor_with_kinds_sees_only_those_lines() -> None:
    calls = replay(_hand(), Seen(frozenset((Dealt, Fold))))
    assert calls == [
        ("visit", "Dealt"), ("visited", "Dealt"), ("visit", "Dealt"), ("visited", "Dealt"),
        ("visit", "Fold"), ("visited", "Fold"),
    ]


def test_visitors_sharing_a_replay_each_see_their_own_kinds() -> None:
    hand = _hand()
    every, folds = Seen(), Seen(frozenset((Fold,)))
    shared = Visitors(every, folds)
    assert shared.kinds is None
    replay(hand, shared)
    assert every.calls == replay(hand, Seen())
    assert folds.calls == [("visit", "Fold"), ("visited", "Fold")]
    assert Visitors(Seen(frozenset((Fold,))), Seen(frozenset((Dealt,)))).kinds == {Fold, Dealt}


def test_the_audit_sharing_a_replay_gives_what_it_gives_alone() -> None:
    hand = _hand()
    audit, recorder = replay(hand, Visitors(HandAudit(hand), Recorder()))
    alone: Any = audit_hand(hand)
    assert audit == alone
    assert recorder.settlement.won("bob") == 6


class SeenAfter(Seen):
    """Reads folds and deals, but needs the state before the line only for folds."""

    visit_kinds = frozenset((Fold,))


def test_a_visitor_sees_before_a_line_only_the_kinds_it_names_in_visit_kinds() -> None:
    calls = replay(_hand(), SeenAfter(frozenset((Dealt, Fold))))
    assert calls == [("visited", "Dealt"), ("visited", "Dealt"), ("visit", "Fold"), ("visited", "Fold")]
    shared = Visitors(SeenAfter(frozenset((Dealt, Fold))), Seen(frozenset((Dealt,))))
    assert shared.visit_kinds == {Fold, Dealt}
    after, every = replay(_hand(), shared)
    assert after == calls
    assert every == [("visit", "Dealt"), ("visited", "Dealt")] * 2
