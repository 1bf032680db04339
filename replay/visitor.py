"""Observers of a replay: the one interface through which anything reads a hand as it is replayed.

The engine (`engine.replay`) owns the only loop over a hand's lines. Whatever needs the hand
line by line (the audit's findings and per-player results, the table checks' facts, a
statistics or equity module) is a `Visitor`, as with python-chess's `chess.pgn.BaseVisitor`:
the engine calls its methods in this order and returns what `result()` gives.

    begin(state)              once: seats and stakes known, nothing posted yet
    visit(state, event)       each line, before the engine checks and applies it (or only
                              those of `visit_kinds`)
    found(findings)           what that line broke (only when it broke something)
    visited(state, event)     the same line, once it is applied
    end(state, settlement)    once: after the end-of-hand checks, with how the hand is paid
    result()                  what the visitor made of the hand

Findings of the header come after `begin`, those of the end of the hand before `end`. A
visitor that reads only some kinds of line names them in `kinds`: `visit` and `visited` are
then called for those lines only. A visitor reads the state and never changes it. Several visitors can share one replay:
`Visitors(a, b)` forwards each call to each, and its result is theirs, in order.

>>> from razz.parser import read_text
>>> from razz.replay.audit import EXAMPLE
>>> from razz.replay.engine import replay
>>> class Wagers(Visitor[list[str]]):
...     def __init__(self) -> None:
...         self.seen: list[str] = []
...     def visited(self, state: HandState, event: Event) -> None:
...         if hasattr(event, "all_in"):  # the lines that can put chips in
...             self.seen.append(f"{type(event).__name__} {state.round.level}")
...     def result(self) -> list[str]:
...         return self.seen
>>> replay(next(iter(read_text(EXAMPLE))), Wagers())
['PostAnte 0', 'PostAnte 0', 'BringIn 2', 'Raise 4']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from razz.parser.events import Event
from razz.replay.findings import Finding
from razz.replay.pots import Settlement
from razz.replay.state import HandState

T = TypeVar("T")


class Visitor(Generic[T]):
    """Observes one replayed hand; every method but `result` does nothing unless overridden."""

    kinds: frozenset[type] | None = None
    """The kinds of line (event types) shown to `visit` and `visited`; None: every line.

    The audit reads 12 kinds of the 24 a hand has (not the deals, seats or summary lines):
    naming them spares two calls on half the lines of a hand, 1.9% of the audit's
    instructions (2.67 M against 2.62 M per hand on 300 hands of sample_histories/,
    callgrind, `benchmarks/audit_instructions.py`'s method).
    """

    @property
    def visit_kinds(self) -> frozenset[type] | None:
        """The kinds of line shown to `visit` (among `kinds`): by default the same as `kinds`.

        A visitor that needs the state before a line only for some of the lines it reads
        names those here (the audit: the betting lines, 7 kinds of its 12).
        """
        return self.kinds

    def begin(self, state: HandState) -> None:
        """The state before the hand's first line: seats and stakes known, nothing posted."""

    def visit(self, state: HandState, event: Event) -> None:
        """A line, before it is checked and applied: `state` is as the previous line left it."""

    def found(self, findings: Sequence[Finding]) -> None:
        """What the header, a line or the end of the hand breaks (never empty)."""

    def visited(self, state: HandState, event: Event) -> None:
        """The same line, once it is applied."""

    def end(self, state: HandState, settlement: Settlement) -> None:
        """The hand is over: its final state and how it is paid."""

    def result(self) -> T:
        """What the visitor made of the hand."""
        raise NotImplementedError


class Visitors(Visitor[tuple[Any, ...]]):
    """Several visitors sharing one replay; the result is each one's result, in order."""

    def __init__(self, *visitors: Visitor[Any]) -> None:
        self.visitors = visitors
        wanted = [v.kinds for v in visitors]
        self.kinds = None if None in wanted else frozenset().union(*wanted)  # type: ignore[arg-type]
        before = [v.visit_kinds for v in visitors]
        self._visit_kinds = None if None in before else frozenset().union(*before)  # type: ignore[arg-type]

    @property
    def visit_kinds(self) -> frozenset[type] | None:
        return self._visit_kinds

    def begin(self, state: HandState) -> None:
        for v in self.visitors:
            v.begin(state)

    def visit(self, state: HandState, event: Event) -> None:
        kind = type(event)
        for v in self.visitors:
            if v.visit_kinds is None or kind in v.visit_kinds:
                v.visit(state, event)

    def found(self, findings: Sequence[Finding]) -> None:
        for v in self.visitors:
            v.found(findings)

    def visited(self, state: HandState, event: Event) -> None:
        kind = type(event)
        for v in self.visitors:
            if v.kinds is None or kind in v.kinds:
                v.visited(state, event)

    def end(self, state: HandState, settlement: Settlement) -> None:
        for v in self.visitors:
            v.end(state, settlement)

    def result(self) -> tuple[Any, ...]:
        return tuple(v.result() for v in self.visitors)
