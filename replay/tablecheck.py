"""Checks across the hands of one table, in time order: stack continuity, the ante, the bring-in.

`TableCheck` is fed hands one by one (the importer streams them) and keeps a little state per
table: each player's last final stack, and how often each ante and bring-in amount was seen.

* LOG-CONTINUITY: a player's starting stack equals their final stack in the previous hand of
  the table. Cash stacks may grow (top-ups are not logged) but never shrink; tournament
  stacks match exactly. Only consecutive hands are compared: a player absent from the
  previous hand (who left and came back), or a gap longer than `max_gap`, starts afresh.
* STRUCT-ANTE, STRUCT-BRINGIN-SIZE: PokerStars headers never print the ante and bring-in, so
  they are inferred per table and stakes as the amount `min_agree` hands agree on; hands that
  disagree are flagged (warnings: the evidence is the rest of the table). Hands seen before
  the amount is known are flagged when it becomes known, or by `finish()`.

`check_tables(pairs)` runs it in one batch, sorting the hands of each table by time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial

from razz.parser.events import (
    BringIn,
    GameKind,
    Hand,
    Noise,
    NoiseKind,
    PostAnte,
    SeatLine,
    Unit,
)
from razz.replay.findings import Finding, Severity
from razz.replay.results import HandResult
from razz.replay.rules import RuleId
from razz.replay.state import format_money

HandKey = tuple[str, str]  # (source, hand id)


@dataclass(frozen=True, slots=True)
class _Seen:
    """One hand's amount, kept until the table's amount is known."""

    value: int
    rule: RuleId
    what: str  # "the ante at table 'Gotha II' ($0.04/$0.08)"
    source: str
    hand_id: str
    line: int
    unit: Unit
    currency: str | None

    def flag(self, expected: int) -> Finding:
        money = partial(format_money, unit=self.unit, currency=self.currency)
        return Finding(
            rule=self.rule,
            severity=Severity.WARNING,
            source=self.source,
            hand_id=self.hand_id,
            line=self.line,
            expected=money(expected),
            actual=money(self.value),
            message=f"{self.what[0].upper()}{self.what[1:]} is {money(expected)} in its other"
            f" hands; this hand has {money(self.value)}.",
        )


@dataclass(slots=True)
class _Amounts:
    """How often each amount (ante or bring-in) was seen at one table and stakes."""

    counts: Counter[int] = field(default_factory=Counter)
    known: int | None = None  # the amount the table agrees on, once it does
    pending: list[_Seen] = field(default_factory=list)  # hands seen before it is known


@dataclass(slots=True)
class _Table:
    last_time: datetime | None = None
    stacks: dict[str, int] = field(default_factory=dict)  # final stacks of the previous hand
    left: set[str] = field(default_factory=set)  # players who left during the previous hand
    amounts: dict[tuple[str, int, int, str], _Amounts] = field(default_factory=dict)


class TableCheck:
    """Cross-hand checks, fed one hand at a time in time order per table.

    >>> check = TableCheck()
    >>> check.finish()
    ()
    """

    def __init__(self, *, max_gap: timedelta = timedelta(minutes=10), min_agree: int = 3) -> None:
        self.max_gap = max_gap
        self.min_agree = min_agree
        self._tables: dict[tuple[str, str, str | None], _Table] = {}

    def feed(self, hand: Hand, result: HandResult) -> tuple[Finding, ...]:
        """Check one hand against the previous ones of its table.

        Returns its own findings, and those of earlier hands of the table that the new hand
        shows to disagree with the table's ante or bring-in (each names its hand).
        """
        header = hand.header
        key = (header.site, header.table, header.tournament_id)
        table = self._tables.setdefault(key, _Table())
        found = self._continuity(hand, result, table)
        money = _money(hand)
        stakes = f"{money(header.small_bet)}/{money(header.big_bet)}"
        where = f"at table '{header.table}' ({stakes})"
        ante_line, bring_in_line = _lines(hand, result)
        for name, value, line, rule in (
            ("ante", result.ante, ante_line, RuleId.STRUCT_ANTE),
            ("bring-in", result.bring_in, bring_in_line, RuleId.STRUCT_BRINGIN_SIZE),
        ):
            if value is None:
                continue
            seen = _Seen(
                value,
                rule,
                f"the {name} {where}",
                header.source,
                header.hand_id,
                line,
                header.unit,
                header.currency,
            )
            stakes_key = (name, header.small_bet, header.big_bet, str(header.unit))
            found += self._amount(table, stakes_key, seen)
        if table.last_time is None or header.started_at >= table.last_time:
            table.last_time = header.started_at
            table.stacks = {p.player: p.final_stack for p in result.players}
            for e in hand.events:
                if isinstance(e, SeatLine) and e.player not in table.stacks:
                    table.stacks[e.player] = e.stack
            table.left = {
                e.player
                for e in hand.events
                if isinstance(e, Noise) and e.kind is NoiseKind.LEAVES and e.player
            }
        return tuple(found)

    def finish(self) -> tuple[Finding, ...]:
        """Flag the hands of tables whose amount never reached `min_agree` agreeing hands,
        against the amount most of their hands show (when a strict majority shows one)."""
        found: list[Finding] = []
        for table in self._tables.values():
            for amounts in table.amounts.values():
                if amounts.known is not None or not amounts.pending:
                    continue
                ranked = [*amounts.counts.most_common(2), (0, 0)]
                (top, count), (_, runner_up) = ranked[0], ranked[1]
                if count >= 2 and count > runner_up:
                    found += [s.flag(top) for s in amounts.pending if s.value != top]
                amounts.pending.clear()
        return tuple(found)

    def _continuity(self, hand: Hand, result: HandResult, table: _Table) -> list[Finding]:
        header = hand.header
        last = table.last_time
        if last is None or header.started_at < last or header.started_at - last > self.max_gap:
            return []
        money = _money(hand)
        tournament = header.kind is GameKind.TOURNAMENT
        found: list[Finding] = []
        for e in hand.events:
            if not isinstance(e, SeatLine) or e.player in table.left:
                continue
            before = table.stacks.get(e.player)
            if before is None or e.stack == before or (e.stack > before and not tournament):
                continue
            if tournament:
                message = (
                    f"{e.player} ended the previous hand of this tournament table with"
                    f" {money(before)} and starts this one with {money(e.stack)}."
                )
            else:
                message = (
                    f"{e.player} ended the previous hand at this table with {money(before)}"
                    f" and starts this one with less, {money(e.stack)}, without leaving."
                )
            found.append(
                Finding(
                    rule=RuleId.LOG_CONTINUITY,
                    severity=Severity.ERROR,
                    source=header.source,
                    hand_id=header.hand_id,
                    line=e.line,
                    expected=money(before) if tournament else f"at least {money(before)}",
                    actual=money(e.stack),
                    message=message,
                )
            )
        return found

    def _amount(self, table: _Table, key: tuple[str, int, int, str], seen: _Seen) -> list[Finding]:
        amounts = table.amounts.setdefault(key, _Amounts())
        amounts.counts[seen.value] += 1
        if amounts.known is not None:
            return [seen.flag(amounts.known)] if seen.value != amounts.known else []
        top, count = amounts.counts.most_common(1)[0]
        if count < self.min_agree:
            amounts.pending.append(seen)
            return []
        amounts.known = top
        late = [s.flag(top) for s in (*amounts.pending, seen) if s.value != top]
        amounts.pending.clear()
        return late


def _money(hand: Hand) -> Callable[[int], str]:
    header = hand.header
    return partial(format_money, unit=header.unit, currency=header.currency)


def _lines(hand: Hand, result: HandResult) -> tuple[int, int]:
    """The line of the hand's ante (the first one of its amount) and of its bring-in."""
    ante_line = bring_in_line = hand.header.first_line
    for e in hand.events:
        if (
            isinstance(e, PostAnte)
            and e.amount == result.ante
            and ante_line == hand.header.first_line
        ):
            ante_line = e.line
        elif isinstance(e, BringIn) and e.amount == result.bring_in:
            bring_in_line = e.line
            break
    return ante_line, bring_in_line


def check_tables(pairs: Iterable[tuple[Hand, HandResult]]) -> dict[HandKey, tuple[Finding, ...]]:
    """Run the cross-hand checks over a batch of hands; findings by (source, hand id)."""
    ordered = sorted(
        pairs, key=lambda pair: (pair[0].header.started_at, _id_order(pair[0].header.hand_id))
    )
    check = TableCheck()
    found: list[Finding] = []
    for hand, result in ordered:
        found += check.feed(hand, result)
    found += check.finish()
    by_hand: dict[HandKey, list[Finding]] = {}
    for f in found:
        by_hand.setdefault((f.source, f.hand_id or ""), []).append(f)
    return {k: tuple(v) for k, v in by_hand.items()}


def with_findings(result: HandResult, extra: Iterable[Finding]) -> HandResult:
    """The result with more findings (e.g. from the table checks), kept in line order."""
    more = tuple(extra)
    if not more:
        return result
    return replace(result, findings=tuple(sorted((*result.findings, *more), key=lambda f: f.line)))


def _id_order(hand_id: str) -> tuple[int, str]:
    return (int(hand_id), "") if hand_id.isdigit() else (0, hand_id)
