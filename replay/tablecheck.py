"""Checks across the hands of one table: stack continuity, the ante, the bring-in.

`TableCheck` is fed hands in any order (files in any order, hands newest first, several
imports) and judges them all at `finish()`, in time order per table (ties by hand id), so
the findings never depend on the order the hands came in. Of each hand it keeps only the few
facts the checks need (`HandFacts`).

* LOG-CONTINUITY: a player's starting stack equals their final stack in the previous hand of
  the table. Cash stacks may grow (top-ups are not logged) but never shrink; tournament
  stacks match exactly. Only consecutive hands are compared: a player absent from the
  previous hand (who left and came back), or a gap longer than `max_gap`, starts afresh.
* STRUCT-ANTE, STRUCT-BRINGIN-SIZE at stakes the ruleset's stakes table does not know (where
  it does, each hand is judged alone by the engine): the other hands at the same stakes
  settle the amount when at least `min_agree` of them agree and none differs. A hand with
  another amount is then an error that names the hands that settled it. With weaker
  evidence (a majority of two or more, or one other hand that differs too) it is a warning.
  The hands compared are those of the table (cash) or of the tournament (every table of a
  tournament plays one structure), and only those whose stakes are known: a Merge hand that
  states none and shows none has stakes guessed from its bring-in, and is left out.

A hand's own findings may only follow from an ante the table settles as wrong (at stakes the
ruleset does not know, the posted ante is the hand's only measure of its bring-in): they are
then marked as consequences of the table's STRUCT-ANTE finding (`TableCheck.relinked`), by
the rule of `consequences.of_the_table_ante`. For that, a hand with an error after its ante
keeps a compressed copy of itself in its facts (`HandFacts.retry`); the others keep none.

`check_tables(pairs)` runs it in one batch.
"""

from __future__ import annotations

import pickle
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from itertools import pairwise

from razz.parser.events import (
    Bet,
    BringIn,
    Complete,
    GameKind,
    Hand,
    Noise,
    NoiseKind,
    PostAnte,
    SeatLine,
    Unit,
)
from razz.replay.consequences import of_the_table_ante
from razz.replay.findings import Cause, Finding, Severity
from razz.replay.results import HandResult
from razz.replay.rules import RuleId
from razz.replay.ruleset import Ruleset, site_ruleset
from razz.replay.state import format_money

HandKey = tuple[str, str]  # (source, hand id)

_NAMED = 6  # settling hands named in a message; more are counted


@dataclass(frozen=True, slots=True)
class Amount:
    """A hand's ante or bring-in, and the line that shows it."""

    name: str  # "ante" or "bring-in"
    rule: RuleId
    value: int
    line: int


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the cross-hand checks need to know of one hand (small, picklable)."""

    site: str
    table: str
    tournament_id: str | None
    source: str
    hand_id: str
    started_at: datetime
    tournament: bool
    unit: Unit
    currency: str | None
    small_bet: int
    big_bet: int
    seats: tuple[tuple[str, int, int], ...]  # (player, starting stack, seat line)
    finals: tuple[tuple[str, int], ...]  # (player, final stack)
    left: frozenset[str]  # players who left the table during the hand
    amounts: tuple[Amount, ...]
    context: bool = False  # known for the checks of other hands; its own were reported
    # The hand, its ruleset and its own findings (zlib-compressed pickle), kept when an error
    # follows its ante: what the table settles of the ante may explain that error.
    retry: bytes | None = None

    @property
    def order(self) -> tuple[datetime, tuple[int, str]]:
        """Time order, ties by hand id."""
        return self.started_at, _id_order(self.hand_id)

    def money(self, amount: int) -> str:
        return format_money(amount, unit=self.unit, currency=self.currency)


def facts_of(
    hand: Hand, result: HandResult, *, context: bool = False, ruleset: Ruleset | None = None
) -> HandFacts:
    """The facts of one audited hand (`context`: only there for its neighbours' checks;
    `ruleset`: the one it was audited against, its site's when None)."""
    header = hand.header
    finals = {p.player: p.final_stack for p in result.players}
    seats = []
    for e in hand.events:
        if isinstance(e, SeatLine):
            seats.append((e.player, e.stack, e.line))
            finals.setdefault(e.player, e.stack)
    left = frozenset(
        e.player
        for e in hand.events
        if isinstance(e, Noise) and e.kind is NoiseKind.LEAVES and e.player
    )
    ante_line, bring_in_line = _lines(hand, result)
    known = _stakes_known(hand)
    amounts = tuple(
        Amount(name, rule, value, line)
        for name, rule, value, line in (
            ("ante", RuleId.STRUCT_ANTE, result.ante, ante_line),
            ("bring-in", RuleId.STRUCT_BRINGIN_SIZE, result.bring_in, bring_in_line),
        )
        if value is not None and known
    )
    return HandFacts(
        site=header.site,
        table=header.table,
        tournament_id=header.tournament_id,
        source=header.source,
        hand_id=header.hand_id,
        started_at=header.started_at,
        tournament=header.kind is GameKind.TOURNAMENT,
        unit=header.unit,
        currency=header.currency,
        small_bet=header.small_bet,
        big_bet=header.big_bet,
        seats=tuple(seats),
        finals=tuple(finals.items()),
        left=left,
        amounts=amounts,
        context=context,
        retry=_retry(hand, result, amounts, ruleset),
    )


def _retry(
    hand: Hand, result: HandResult, amounts: tuple[Amount, ...], ruleset: Ruleset | None
) -> bytes | None:
    """What the table check needs to replay the hand with its ante made right, when an error
    of the hand's own follows its ante line and only the table can tell its ante (neither the
    header nor the ruleset's stakes table states it); else None: most hands keep nothing."""
    ante = next((a for a in amounts if a.rule is RuleId.STRUCT_ANTE), None)
    if ante is None or not any(
        f.consequence_of is None and f.severity is Severity.ERROR and f.line > ante.line
        for f in result.findings
    ):
        return None
    if ruleset is None:
        ruleset = site_ruleset(hand.header.site)
    h = hand.header
    stated = ruleset.stakes_for(h.unit, h.small_bet, h.big_bet,
                                tournament=h.kind is GameKind.TOURNAMENT)
    if h.ante is not None or (stated is not None and stated.ante is not None):
        return None  # the ante is known: the engine judged it, and linked what follows
    return zlib.compress(pickle.dumps((hand, ruleset, result.findings), pickle.HIGHEST_PROTOCOL))


@dataclass(slots=True)
class _Group:
    """The hands that must agree on one amount (ante or bring-in) at one stakes."""

    where: str  # "at table 'Gotha II' ($0.04/$0.08)"
    hands: list[tuple[HandFacts, Amount]] = field(default_factory=list)


class TableCheck:
    """Cross-hand checks over hands fed in any order, judged at `finish()`.

    >>> check = TableCheck()
    >>> check.finish()
    ()
    """

    def __init__(self, *, max_gap: timedelta = timedelta(minutes=10), min_agree: int = 3) -> None:
        self.max_gap = max_gap
        self.min_agree = min_agree
        self._tables: dict[tuple[str, str, str | None], list[HandFacts]] = {}
        # After `finish()`: the own findings of each hand some of whose findings follow from
        # an ante the table settled as wrong, with those marked as its consequences.
        self.relinked: dict[HandKey, tuple[Finding, ...]] = {}

    def feed(
        self,
        hand: Hand,
        result: HandResult,
        *,
        context: bool = False,
        ruleset: Ruleset | None = None,
    ) -> tuple[Finding, ...]:
        """Keep one hand for the checks; its findings come with `finish()`.

        A `context` hand (one whose own findings were reported elsewhere) informs the checks
        of the others and gets none of its own. `ruleset` is the one the hand was audited
        against (its site's when None). Returns () (kept for streaming callers).
        """
        self.add(facts_of(hand, result, context=context, ruleset=ruleset))
        return ()

    def add(self, facts: HandFacts) -> None:
        """Keep one hand's facts (e.g. sent by a worker process) for the checks."""
        key = (facts.site, facts.table, facts.tournament_id)
        self._tables.setdefault(key, []).append(facts)

    def finish(self) -> tuple[Finding, ...]:
        """Every cross-hand finding of the hands fed, in time order per table.

        The same hands give the same findings whatever order they were fed in, and the same
        `relinked` findings of their own. The hands are forgotten: the check can be fed anew.
        """
        found: list[Finding] = []
        self.relinked = {}
        groups: dict[tuple[object, ...], _Group] = {}
        for key in sorted(self._tables, key=lambda k: (k[0], k[1], k[2] or "")):
            hands = sorted(self._tables[key], key=lambda h: h.order)
            found += self._continuity(hands)
            for h in hands:
                stakes = f"{h.money(h.small_bet)}/{h.money(h.big_bet)}"
                if h.tournament and h.tournament_id:
                    scope: tuple[object, ...] = ("tournament", h.site, h.tournament_id)
                    where = f"in tournament {h.tournament_id} ({stakes})"
                else:
                    scope = ("table", *key)
                    where = f"at table '{h.table}' ({stakes})"
                for a in h.amounts:
                    gkey = (*scope, a.name, h.unit, h.small_bet, h.big_bet)
                    groups.setdefault(gkey, _Group(f"the {a.name} {where}")).hands.append((h, a))
        for group in groups.values():
            found += self._amounts(group)
        self._tables.clear()
        return tuple(sorted(found, key=lambda f: (*hand_order((f.source, f.hand_id or "")), f.line)))

    def _continuity(self, hands: list[HandFacts]) -> list[Finding]:
        found: list[Finding] = []
        for prev, cur in pairwise(hands):
            if cur.context or cur.started_at - prev.started_at > self.max_gap:
                continue
            if _hands_between(prev, cur):
                continue  # the hands played in between are not in the files read
            before_of = dict(prev.finals)
            for player, stack, line in cur.seats:
                before = before_of.get(player)
                if player in prev.left or before is None or stack == before:
                    continue
                if stack > before and not cur.tournament:
                    continue  # a cash top-up, which Stars does not log
                found.append(_continuity_finding(prev, cur, player, before, stack, line))
        return found

    def _amounts(self, group: _Group) -> list[Finding]:
        counts = Counter(a.value for _, a in group.hands)
        found: list[Finding] = []
        for h, a in group.hands:
            if h.context:
                continue
            others = counts.copy()
            others[a.value] -= 1
            others = +others  # drop the amounts no other hand shows
            if not others or (a.value in others and len(others) == 1):
                continue
            ranked = others.most_common()
            top, count = ranked[0]
            if top == a.value:
                continue  # the table's most common amount: nothing to say against it
            settled = len(others) == 1 and count >= self.min_agree
            runner_up = ranked[1][1] if len(ranked) > 1 else 0
            if not settled and not (count >= 2 and count > max(runner_up, counts[a.value])):
                continue
            agreeing = sorted(
                (o for o, b in group.hands if b.value == top and o is not h),
                key=lambda o: o.order,
            )
            finding = _amount_finding(group.where, h, a, top, agreeing, settled, self.min_agree)
            found.append(finding)
            if settled and a.rule is RuleId.STRUCT_ANTE and h.retry is not None:
                self._relink(h, finding, a.value, top)
        return found

    def _relink(self, h: HandFacts, cause: Finding, wrong: int, right: int) -> None:
        """Mark the hand's own findings that follow from its wrong ante as its consequences."""
        # the engine's replay, as `consequences.link` gets it (audit imports this module's peers)
        from razz.replay.audit import _findings_of

        assert h.retry is not None
        hand, ruleset, own = pickle.loads(zlib.decompress(h.retry))
        linked = of_the_table_ante(
            hand, own, Cause(cause.rule, cause.line), wrong, right, ruleset, _findings_of
        )
        if linked != list(own):
            self.relinked[(h.source, h.hand_id)] = tuple(linked)


def _continuity_finding(
    prev: HandFacts, cur: HandFacts, player: str, before: int, stack: int, line: int
) -> Finding:
    money = cur.money
    if cur.tournament:
        message = (
            f"{player} ended the previous hand of this tournament table (#{prev.hand_id}) with"
            f" {money(before)} and starts this one with {money(stack)}."
        )
    else:
        message = (
            f"{player} ended the previous hand at this table (#{prev.hand_id}) with"
            f" {money(before)} and starts this one with less, {money(stack)}, without leaving."
        )
    return Finding(
        rule=RuleId.LOG_CONTINUITY,
        severity=Severity.ERROR,
        source=cur.source,
        hand_id=cur.hand_id,
        line=line,
        expected=money(before) if cur.tournament else f"at least {money(before)}",
        actual=money(stack),
        message=message,
    )


def _amount_finding(
    where: str,
    h: HandFacts,
    a: Amount,
    top: int,
    agreeing: list[HandFacts],
    settled: bool,
    min_agree: int,
) -> Finding:
    money = h.money
    named = ", ".join(f"#{o.hand_id}" for o in agreeing[:_NAMED])
    if len(agreeing) > _NAMED:
        named += f" and {len(agreeing) - _NAMED} more"
    what = f"{where[0].upper()}{where[1:]}"
    if settled:
        message = (
            f"{what} is {money(top)}: the hands {named} all post {money(top)} and no other hand"
            f" differs; this hand has {money(a.value)}."
        )
    elif len(agreeing) < min_agree:
        message = (
            f"{what} is {money(top)} in the hands {named}, too few to settle it ({min_agree}"
            f" agreeing hands would); this hand has {money(a.value)}."
        )
    else:
        message = (
            f"{what} is {money(top)} in most of its hands ({named}), but another hand differs"
            f" too; this hand has {money(a.value)}."
        )
    return Finding(
        rule=a.rule,
        severity=Severity.ERROR if settled else Severity.WARNING,
        source=h.source,
        hand_id=h.hand_id,
        line=a.line,
        expected=money(top),
        actual=money(a.value),
        message=message,
    )


def _stakes_known(hand: Hand) -> bool:
    """Whether the hand's stakes are known: stated (every room but a Merge tournament), or
    shown by a full completion or bet. Without either the reader took them from the bring-in
    (twice it), a guess made of the very amount the check compares: the hand is then held to
    no table's ante or bring-in, lest it outvote the hands truly played at the stakes guessed.
    """
    header = hand.header
    if header.stakes_stated:
        return True
    full = (header.small_bet, header.big_bet)
    return any(
        (isinstance(e, Complete) and not e.all_in and e.to == header.small_bet)
        or (isinstance(e, Bet) and not e.all_in and e.amount in full)
        for e in hand.events
    )


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
    check = TableCheck()
    for hand, result in pairs:
        check.feed(hand, result)
    by_hand: dict[HandKey, list[Finding]] = {}
    for f in check.finish():
        by_hand.setdefault((f.source, f.hand_id or ""), []).append(f)
    return {k: tuple(v) for k, v in by_hand.items()}


def with_findings(result: HandResult, extra: Iterable[Finding]) -> HandResult:
    """The result with more findings (e.g. from the table checks), kept in line order."""
    more = tuple(extra)
    if not more:
        return result
    return replace(result, findings=tuple(sorted((*result.findings, *more), key=lambda f: f.line)))


def _hands_between(prev: HandFacts, cur: HandFacts) -> bool:
    """Whether the log numbers its hands and other hands came between these two.

    A PHH hand has its number at the table (`hand = 24`; its id ends with it), and often no
    time of day, so two hands of one day start at the same time: hand 24 is followed by 25,
    not by 83. Other rooms' ids are not numbered per table.

    >>> from datetime import datetime
    >>> f = lambda i: HandFacts("PHH", "t", None, "", i, datetime(2023, 6, 22), True,
    ...     Unit.CHIP, None, 1, 2, (), (), frozenset(), ())
    >>> _hands_between(f("2023-06-22-ad173279-24"), f("2023-06-22-ad173279-83"))
    True
    >>> _hands_between(f("2023-06-22-ad173279-23"), f("2023-06-22-ad173279-24"))
    False
    """
    if prev.site != "PHH" or cur.site != "PHH":
        return False
    head, _, number = prev.hand_id.rpartition("-")
    cur_head, _, cur_number = cur.hand_id.rpartition("-")
    if not (head and head == cur_head and number.isdigit() and cur_number.isdigit()):
        return False
    return int(cur_number) != int(number) + 1


def hand_order(key: HandKey) -> tuple[str, tuple[int, str]]:
    """The order the table check lists its findings in: by file, then by hand id.

    >>> sorted([("a", "10"), ("a", "9"), ("a", "x")], key=hand_order)
    [('a', 'x'), ('a', '9'), ('a', '10')]
    """
    return key[0], _id_order(key[1])


def _id_order(hand_id: str) -> tuple[int, str]:
    return (int(hand_id), "") if hand_id.isdigit() else (0, hand_id)
