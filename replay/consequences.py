"""One violation, one finding: which findings of a hand only follow from an earlier one.

A log that breaks one rule often breaks others downstream: a call for too little leaves a bet
unpaid, so the round seems to end early, the bet seems unreturned and the pot does not add up.
Those later findings are true of the log, but they are not new mistakes: each is marked as a
consequence of the first (`Finding.consequence_of`), and the reports count violations apart
from consequences. A finding is a consequence of an earlier error of the same hand when one of
these rules, each stated and tested, says so:

1. **Made right, it is gone.** The hand is replayed with the earlier line made legal (the call
   for the amount due; a check facing a bet as the call it should have been; the uncalled bet
   the rules return, to its owner; the ante the stakes fix; a seat stack that holds what the
   player puts in, or the all-in the log forgot to write). Every later finding that the
   corrected replay no longer gives follows from that line.
2. **Right as the log counts.** After a wager of the wrong size in a betting round (STRUCT-SMALL,
   STRUCT-BIG, STRUCT-NO-DOUBLE, ACT-COMPLETE, ACT-RAISE-SIZE), a later wager of the round that
   is one full unit over the total the log wrote before it is right relative to the wrong bet:
   its size, short-all-in and reopening findings follow from the wrong bet; so does a `Betting
   is capped` line written after as many wagers as the cap allows, counted as the log writes
   them.
3. **The same wrong ante.** A STRUCT-ANTE finding stating the same expected and posted ante as
   an earlier one is the same mistake (the room used one wrong ante for the hand); so is an
   ante posted all-in for more than the right ante and less than that wrong one (the wrong
   ante took all the player had).
4. **A pot paid as one.** After a collection that takes more than its pot holds (POT-SIDE, the
   violation or one of its consequences), a later finding that a pot nobody collects (rules
   WIN-, POT-) follows, and so does a summary that lists fewer pots than the stacks make: the
   collection took those pots.
5. **The same chips.** The chips a line moved wrongly (a call's, an uncalled bet's or an ante's
   difference from what the rules say, and those of its consequences) show again where the
   hand is added up: a later pot, rake, side-pot, payment or summary finding off by exactly
   those chips (or their sum) follows from it; so does a pot of its own that holds them (and
   the summary listing that pot), a stack or call finding of the player whose chips they were
   off by them (and every other finding of the line where that player is all in), a side pot
   over-collected by at most them on a line they already explain or by them once per player
   in the pot, and a side pot a player is found not to have paid for when that player's call
   is explained.

6. **An ante the table settles.** At stakes the ruleset does not know, the table check
   (`tablecheck`) settles a hand's ante from the other hands of its table, once every hand is
   read: the hand's findings that a replay with every ante of the wrong amount made right no
   longer gives follow from that STRUCT-ANTE finding (`of_the_table_ante`).

Consequences point at the root cause (the first finding of the chain), so that an auditor sees
the one violation and everything it explains. Only errors cause consequences.

>>> from razz.parser import read_text
>>> from razz.replay.audit import audit_hand
>>> for f in audit_hand(next(iter(read_text(EXAMPLE)))).findings:
...     print(f.line, f.rule, f.consequence_of)
11 ACT-CALL None
12 ORDER-CLOCKWISE ACT-CALL at line 11
19 POT-RAKE ACT-CALL at line 11
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from razz.parser.events import (
    Bet,
    BettingCapped,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Event,
    Fold,
    Hand,
    PostAnte,
    Raise,
    SeatLine,
    StreetStart,
    UncalledBet,
)
from razz.replay.findings import Cause, Finding, Severity
from razz.replay.game import BIG_BET_STREETS
from razz.replay.ruleset import Ruleset

EXAMPLE = """\
PokerStars Hand #2:  Razz Limit ($0.04/$0.08 USD) - 2024/04/22 22:52:35 ET
Table 'T' 8-max
Seat 1: ann ($1.00 in chips)
Seat 2: bob ($1.00 in chips)
ann: posts the ante $0.01
bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to ann [Kc]
Dealt to bob [4d]
ann: brings in for $0.02
bob: calls $0.01
*** 4th STREET ***
Dealt to ann [Kc] [7h]
Dealt to bob [4d] [5s]
bob: checks
ann: bets $0.04
bob: folds
Uncalled bet ($0.04) returned to ann
ann collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
Seat 1: ann collected ($0.06)
Seat 2: bob folded on the 4th Street
"""

# At stakes the ruleset does not know, the antes ($0.03) are the hand's only measure of the
# bring-in ($0.02), which then seems too small.
ANTE_EXAMPLE = """\
PokerStars Hand #4:  Razz Limit ($0.10/$0.20 USD) - 2024/04/22 22:52:35 ET
Table 'T' 8-max
Seat 1: ann ($1.00 in chips)
Seat 2: bob ($1.00 in chips)
ann: posts the ante $0.03
bob: posts the ante $0.03
*** 3rd STREET ***
Dealt to ann [Kc]
Dealt to bob [4d]
ann: brings in for $0.02
bob: folds
Uncalled bet ($0.02) returned to ann
ann collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
Seat 1: ann collected ($0.06)
Seat 2: bob folded on the 3rd Street (didn't bet)
"""

SIZE_CAUSES = frozenset(
    ("STRUCT-SMALL", "STRUCT-BIG", "STRUCT-NO-DOUBLE", "ACT-COMPLETE", "ACT-RAISE-SIZE")
)
# What a wager right as the log counts can still be found to break, relative to the rules' bet.
SIZE_FOLLOWS = SIZE_CAUSES | {"ACT-ALLIN-SHORT", "STRUCT-CAP"}
# Lines that move chips, and the checks that add up, pay and summarise the chips moved.
MOVES = frozenset(("ACT-CALL", "ACT-UNCALLED", "STRUCT-ANTE"))
SETTLES = frozenset(("POT-RAKE", "POT-SIDE", "LOG-SUMMARY", "WIN-SPLIT", "WIN-NOQUAL"))
CORRECTABLE = frozenset(("ACT-CALL", "ACT-CHECK", "ACT-UNCALLED", "STRUCT-ANTE", "LOG-STACK"))
# On one line, the stack and the ante come before what the line's action is found to break.
_FIRST_ON_A_LINE = {"LOG-STACK": 0, "STRUCT-ANTE": 1}
_WAGERS = (Bet, Complete, Raise)

_MAX_SEATS = 10  # the most players a pot of a stud table can have
_AMOUNT = re.compile(r"[^\w\s]{0,3}(\d[\d.,]*)\s?[^\w\s]{0,3}")

Replay = Callable[[Hand, Ruleset], Sequence[Finding]]


def amount(text: str) -> int | None:
    """The amount an expected or actual text states, in the hand's unit (cents or chips);
    None unless the text is an amount (the digits of `on the 4th Street` are none).

    >>> amount("$0.20 returned to meg1"), amount("to 1,320"), amount("at most 99"), amount("check")
    (20, 1320, 99, None)
    >>> amount("folded on the 4th Street"), amount("0,20 €")
    (None, 20)
    """
    head = text.split(" returned to ", 1)[0].strip()
    for prefix in ("to ", "at most ", "all-in for "):
        head = head.removeprefix(prefix)
    match = _AMOUNT.fullmatch(head)
    return int(re.sub(r"\D", "", match.group(1))) if match else None


def link(
    hand: Hand, findings: Sequence[Finding], ruleset: Ruleset, replay: Replay
) -> list[Finding]:
    """The findings (in line order) with each consequence marked with its root cause.

    `replay` gives the findings of a hand (the engine's replay, passed in so that this module
    does not import the engine it serves).
    """
    if len(findings) < 2:
        return list(findings)
    ordered = sorted(findings, key=lambda f: (f.line, _FIRST_ON_A_LINE.get(f.rule, 2)))
    causes: dict[int, Cause] = {}  # index in `ordered` -> root cause
    by_line = _events_by_line(hand)
    rounds = _log_rounds(hand, ruleset) if any(f.rule in SIZE_CAUSES for f in ordered) else {}
    for k, f in enumerate(ordered):
        if k in causes or f.severity is not Severity.ERROR:
            continue
        later = [j for j in range(len(ordered)) if j != k and j not in causes
                 and (ordered[j].line > f.line or (ordered[j].line == f.line and j > k))]
        if not later:
            continue
        follow: set[int] = set()
        if f.rule in SIZE_CAUSES and f.line in rounds:
            follow |= _right_as_the_log_counts(f, ordered, later, rounds)
        if f.rule == "STRUCT-ANTE":
            follow |= _same_wrong_ante(hand, f, ordered, later, by_line)
        if f.rule in CORRECTABLE:
            follow |= _gone_when_made_right(hand, ruleset, replay, f, ordered, later, by_line)
        gaps = {g for g in (_gap(ordered[j]) for j in (k, *follow)) if g}
        if gaps:
            follow |= _same_chips(hand, f, ordered, later, follow, gaps, by_line)
        follow |= _pots_taken(ordered, later, {k, *follow})
        for j in follow:
            causes[j] = Cause(f.rule, f.line)
    if not causes:
        return ordered
    return [dataclasses.replace(f, consequence_of=causes[k]) if k in causes else f
            for k, f in enumerate(ordered)]


# ------------------------------------------------------------------ rule 3: the same wrong ante


def _same_wrong_ante(
    hand: Hand, f: Finding, ordered: list[Finding], later: list[int], by_line: dict[int, list[int]]
) -> set[int]:
    """The later STRUCT-ANTE findings stating `f`'s expected and posted ante, and those of an
    ante posted all-in between the right amount and `f`'s wrong one."""
    right, wrong = amount(f.expected), amount(f.actual)
    out = set()
    for j in later:
        g = ordered[j]
        if g.rule != f.rule or g.expected != f.expected:
            continue
        if g.actual == f.actual:
            out.add(j)
            continue
        posted = amount(g.actual)
        if right is None or wrong is None or posted is None or not right < posted < wrong:
            continue
        if any(isinstance(e := hand.events[n], PostAnte) and e.all_in and e.amount == posted
               for n in by_line.get(g.line, ())):
            out.add(j)
    return out


# ------------------------------------------------------------------ rule 4: a pot paid as one


def _pots_taken(ordered: list[Finding], later: list[int], chain: set[int]) -> set[int]:
    """After a collection that takes more than its pot holds (the cause or one of its
    consequences), the later findings that a pot nobody collects, and that the summary lists
    fewer pots than the stacks make: the collection took those pots."""
    took = [ordered[j].line for j in chain
            if ordered[j].rule == "POT-SIDE" and ordered[j].expected.startswith("at most")]
    if not took:
        return set()
    first = min(took)
    out = set()
    for j in later:
        g = ordered[j]
        if j in chain or g.line < first:
            continue
        nobody = g.actual == "nobody" and g.rule.startswith(("WIN-", "POT-"))
        fewer = (g.rule == "POT-SIDE" and g.expected.endswith(" pots")
                 and (amount(g.actual.split()[0]) or 0) < (amount(g.expected.split()[0]) or 0))
        if nobody or fewer:
            out.add(j)
    return out


# ------------------------------------------------------------------ rule 5: the same chips


def _gap(f: Finding) -> int | None:
    """The chips a finding says were moved wrongly: what it expected minus what the log did,
    in absolute value (an uncalled bet returned to the wrong player: the whole bet)."""
    if f.rule not in MOVES and f.rule not in SETTLES and f.rule != "LOG-STACK":
        return None
    want, got = amount(f.expected), amount(f.actual)
    if f.rule == "ACT-UNCALLED":
        to_want = f.expected.split(" returned to ", 1)[-1] if " returned to " in f.expected else ""
        to_got = f.actual.split(" returned to ", 1)[-1] if " returned to " in f.actual else ""
        if want is None or got is None or to_want != to_got:
            return want if want is not None else got
    if f.rule == "STRUCT-ANTE" and got is None:
        return want
    if want is None or got is None or want == got:
        return None
    return abs(want - got)


def _same_chips(
    hand: Hand,
    f: Finding,
    ordered: list[Finding],
    later: list[int],
    follow: set[int],
    gaps: set[int],
    by_line: dict[int, list[int]],
) -> set[int]:
    """Rule 5: the later findings off by exactly the chips `f` (and what follows from it)
    moved wrongly: the pot, rake, payment and summary findings; a pot of its own holding
    those chips (and the summary listing that pot); the stack or call of the player whose
    chips they were; a side pot over-collected by at most those chips on a collection line
    they explain; and a side pot a player is found not to have paid for, whose call is already
    explained."""
    gaps = gaps | {sum(gaps)}
    players = {_player_at(hand, f.line, by_line)} | {
        text.split(" returned to ", 1)[1] for text in (f.expected, f.actual)
        if " returned to " in text}
    out: set[int] = set()
    extra_pot = False
    for j in later:
        if j in follow:
            continue
        g = ordered[j]
        if g.rule in SETTLES and _gap(g) in gaps:
            out.add(j)
        elif g.rule == "POT-SIDE" and g.message.startswith("There is no "):
            collected = _collected_at(hand, g.line, by_line)
            if collected in gaps:
                out.add(j)
                extra_pot = True
        elif g.rule == "POT-SIDE" and extra_pot and g.expected.endswith("pots"):
            out.add(j)  # the summary lists the pot of its own
        elif (g.rule in ("ACT-CALL", "LOG-STACK") and _gap(g) in gaps
              and _player_at(hand, g.line, by_line) in players):
            out.add(j)
    # A side pot a player is found not to have paid for, when the calls the engine found
    # short are already explained (an over-call raised the bet they paid in full), or the
    # round's end waited for them.
    short = {_player_at(hand, ordered[j].line, by_line) for j in out | follow
             if ordered[j].rule == "ACT-CALL"} | {
        ordered[j].expected.removesuffix(" acts") for j in out | follow
        if ordered[j].rule == "ORDER-CLOCKWISE"}  # who the round still waited for
    for j in later:
        g = ordered[j]
        if (j not in out and g.rule == "POT-SIDE" and "did not put in enough" in g.message
                and _player_at(hand, g.line, by_line) in short):
            out.add(j)
    # A side pot over-collected by no more than those chips (the rake took its share of the
    # rest), on a collection line they already explain; or by those chips once for each player
    # in it (an all-in player's share of every pot above it moved with them).
    explained = {ordered[j].line for j in out | follow}
    for j in later:
        g = ordered[j]
        over = _gap(g) if g.rule == "POT-SIDE" and g.expected.startswith("at most") else None
        if j in out or not over:
            continue
        if (over <= max(gaps) and g.line in explained) or any(
                over % gap == 0 and over // gap <= _MAX_SEATS for gap in gaps):
            out.add(j)
    # The other findings of a line whose all-in the chain explains (the player was all in
    # with the chips the log says, so the line's amount was all they had).
    all_in = {ordered[j].line for j in out | follow
              if ordered[j].rule == "LOG-STACK" and ordered[j].message.find(" keeps ") > 0}
    out |= {j for j in later if j not in follow and ordered[j].line in all_in}
    return out


def _player_at(hand: Hand, line: int, by_line: dict[int, list[int]]) -> str | None:
    for n in by_line.get(line, ()):
        player = getattr(hand.events[n], "player", None)
        if player is not None:
            return str(player)
    return None


def _collected_at(hand: Hand, line: int, by_line: dict[int, list[int]]) -> int | None:
    for n in by_line.get(line, ()):
        e = hand.events[n]
        if isinstance(e, Collect):
            return e.amount
    return None


# ------------------------------------------------------------------ rule 1: made right


def _events_by_line(hand: Hand) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for n, e in enumerate(hand.events):
        out.setdefault(e.line, []).append(n)
    return out


def _gone_when_made_right(
    hand: Hand,
    ruleset: Ruleset,
    replay: Replay,
    f: Finding,
    ordered: list[Finding],
    later: list[int],
    by_line: dict[int, list[int]],
) -> set[int]:
    """The later findings that a replay of the hand with `f`'s line made legal no longer gives
    (with the first correction, likeliest first, that explains any; an uncalled bet returned
    to another player, both as made right and as the log has it)."""
    out: set[int] = set()
    for corrected in _corrections(hand, f, by_line):
        try:
            again = {(g.line, g.rule) for g in replay(corrected, ruleset)}
        except Exception:  # a correction the engine cannot replay explains nothing
            continue
        out |= {j for j in later if (ordered[j].line, ordered[j].rule) not in again}
        if out and f.rule != "ACT-UNCALLED":
            break
    return out


def _corrections(hand: Hand, f: Finding, by_line: dict[int, list[int]]) -> list[Hand]:
    """The hand with `f`'s line made legal, in each way the rules allow (likeliest first)."""
    events = list(hand.events)
    at = [n for n in by_line.get(f.line, ()) if type(events[n]) is not StreetStart] or list(
        by_line.get(f.line, ())
    )
    if not at:
        return []
    n = at[0]
    e = events[n]
    due = amount(f.expected)
    player = getattr(e, "player", None)

    def with_event(new: Event | None, index: int = n, insert: bool = False) -> Hand:
        changed = list(events)
        if insert:
            assert new is not None
            changed.insert(index, new)
        elif new is None:
            del changed[index]
        else:
            changed[index] = new
        return dataclasses.replace(hand, events=tuple(changed))

    if f.rule == "ACT-CALL" and isinstance(e, Call):
        if f.expected == "check":
            return [with_event(Check(e.line, e.player))]
        return [with_event(dataclasses.replace(e, amount=due))] if due is not None else []
    if f.rule == "ACT-CHECK" and isinstance(e, Check):
        return [with_event(Call(e.line, e.player, None)), with_event(Fold(e.line, e.player))]
    if f.rule == "ACT-UNCALLED":
        if f.expected == "nothing returned" and isinstance(e, UncalledBet):
            return [with_event(None)]
        owner = f.expected.split(" returned to ", 1)[1] if " returned to " in f.expected else None
        if owner is None or due is None:
            return []
        back = UncalledBet(f.line, owner, due)
        if not isinstance(e, UncalledBet):
            return [with_event(back, insert=True)]
        made_right = with_event(back)
        if e.player == owner or e.player not in {getattr(x, "player", None) for x in events}:
            return [made_right]
        # As the log has it: the chips went to the player the line names, who plays on with
        # them (an all in before the line is not one), and the owner is short of them.
        moved = {owner: -due, e.player: e.amount}
        written = [
            dataclasses.replace(x, stack=max(x.stack + moved[x.player], 0))
            if isinstance(x, SeatLine) and x.player in moved
            else dataclasses.replace(x, all_in=False)  # type: ignore[call-arg]
            if k < n and getattr(x, "player", None) == e.player and getattr(x, "all_in", False)
            else x
            for k, x in enumerate(made_right.events)
        ]
        return [made_right, dataclasses.replace(made_right, events=tuple(written))]
    if f.rule == "STRUCT-ANTE" and due is not None:
        if isinstance(e, PostAnte):
            return [with_event(dataclasses.replace(e, amount=due))]
        if player is not None and f.actual == "no ante":
            posts = [k for k, x in enumerate(events) if isinstance(x, PostAnte)]
            deal = next(k for k, x in enumerate(events) if isinstance(x, StreetStart)) if any(
                isinstance(x, StreetStart) for x in events) else n
            where = posts[-1] + 1 if posts else deal
            return [with_event(PostAnte(f.line, player, due), where, insert=True)]
        return []
    if f.rule == "LOG-STACK" and player is not None:
        if f.expected.startswith("at most"):
            # the seat line understated the stack: it held every chip the log has the player
            # put in (and more, unless the log says they went all in)
            seat = next((k for k, x in enumerate(events)
                         if isinstance(x, SeatLine) and x.player == player), None)
            if seat is None:
                return []
            seat_line = events[seat]
            assert isinstance(seat_line, SeatLine)
            put, all_in = _put_in(hand, player)
            stack = max(seat_line.stack, put + (0 if all_in else hand.header.big_bet))
            return [with_event(dataclasses.replace(seat_line, stack=stack), seat)]
        if f.expected == "and is all-in" and hasattr(e, "all_in"):
            return [with_event(dataclasses.replace(e, all_in=True))]  # type: ignore[call-arg]
    return []


def _put_in(hand: Hand, player: str) -> tuple[int, bool]:
    """Every chip the log has `player` put in over the hand, and whether it says all-in."""
    total = street = 0
    all_in = False
    for e in hand.events:
        if isinstance(e, StreetStart):
            street = 0
        if getattr(e, "player", None) != player:
            continue
        all_in = all_in or bool(getattr(e, "all_in", False))
        if isinstance(e, PostAnte):
            total += e.amount
        elif isinstance(e, (BringIn, Call, Bet)):
            total += e.amount or 0
            street += e.amount or 0
        elif isinstance(e, (Raise, Complete)):
            total += max(e.to - street, 0)
            street = e.to
    return total, all_in


# ------------------------------------------------------------------ rule 2: as the log counts


@dataclasses.dataclass(frozen=True, slots=True)
class _Line:
    """A line of a betting round as the log counts it."""

    round: int  # the round's number in the hand
    wager: bool  # a bet, completion or raise
    right: bool  # a wager one full unit over the log's total before it
    capped: bool  # a `Betting is capped` line after as many wagers as the cap allows


def _log_rounds(hand: Hand, ruleset: Ruleset) -> dict[int, _Line]:
    """Each betting line's round, and whether it is right relative to the totals the log
    wrote before it (not relative to the rules' bet sizes)."""
    h = hand.header
    out: dict[int, _Line] = {}
    rnd = -1
    level = 0
    wagers = 0
    unit = h.small_bet
    put: dict[str, int] = {}
    for e in hand.events:
        if isinstance(e, StreetStart):
            rnd += 1
            level, wagers, put = 0, 0, {}
            unit = h.big_bet if e.street in BIG_BET_STREETS else h.small_bet
        elif rnd < 0:
            continue
        elif isinstance(e, BringIn):
            put[e.player] = e.amount or 0
            level = max(level, e.amount or 0)
        elif isinstance(e, Call):
            put[e.player] = level if e.amount is None else put.get(e.player, 0) + e.amount
        elif isinstance(e, _WAGERS):
            to = put.get(e.player, 0) + e.amount if isinstance(e, Bet) else e.to
            # a completion of the bring-in goes to the small bet; any other wager one unit up
            right = to == (unit if wagers == 0 and level < unit else level + unit)
            wagers += 1
            out[e.line] = _Line(rnd, True, right, False)
            put[e.player] = to
            level = max(level, to)
        elif isinstance(e, BettingCapped):
            cap = ruleset.max_raises
            out[e.line] = _Line(rnd, False, False, cap is not None and wagers == cap + 1)
    return out


def _right_as_the_log_counts(
    f: Finding, ordered: list[Finding], later: list[int], rounds: dict[int, _Line]
) -> set[int]:
    cause = rounds[f.line]
    follow = set()
    for j in later:
        g = ordered[j]
        line = rounds.get(g.line)
        if line is None or line.round != cause.round or g.rule not in SIZE_FOLLOWS:
            continue
        if (line.wager and line.right and g.rule != "STRUCT-CAP") or (
            line.capped and g.rule == "STRUCT-CAP"
        ):
            follow.add(j)
    return follow


# ------------------------------------------------------------------ an ante the table settles


def of_the_table_ante(
    hand: Hand,
    findings: Sequence[Finding],
    cause: Cause,
    wrong: int,
    right: int,
    ruleset: Ruleset,
    replay: Replay,
) -> list[Finding]:
    """The findings of a hand whose ante the other hands of its table settle as wrong (`cause`,
    the table check's STRUCT-ANTE error: `wrong` posted where `right` is due), with each
    finding that only follows from that ante marked as its consequence.

    Rule 1, for the whole hand: the hand is replayed with every ante of the wrong amount made
    right; each later violation the replay no longer gives follows from the ante, and so do
    the findings that followed from those (consequences point at the root cause). The table
    check settles an ante only once every hand is read, so this runs after `link`.

    >>> from razz.parser import read_text
    >>> from razz.replay.audit import audit_hand, _findings_of
    >>> from razz.replay.ruleset import POKERSTARS
    >>> hand = next(iter(read_text(ANTE_EXAMPLE)))  # its table's other hands post $0.01
    >>> found = audit_hand(hand).findings
    >>> [(f.line, f.rule, f.consequence_of) for f in found]
    [(10, 'STRUCT-BRINGIN-SIZE', None)]
    >>> ante = Cause("STRUCT-ANTE", 5)
    >>> for f in of_the_table_ante(hand, found, ante, 3, 1, POKERSTARS, _findings_of):
    ...     print(f.line, f.rule, f.consequence_of)
    10 STRUCT-BRINGIN-SIZE STRUCT-ANTE at line 5
    """
    if not any(f.consequence_of is None and f.line >= cause.line for f in findings):
        return list(findings)
    events = tuple(
        dataclasses.replace(e, amount=right)
        if isinstance(e, PostAnte) and e.amount == wrong and not e.all_in
        else e
        for e in hand.events
    )
    try:
        again = {(g.line, g.rule) for g in replay(dataclasses.replace(hand, events=events), ruleset)}
    except Exception:  # a correction the engine cannot replay explains nothing
        return list(findings)
    gone = {
        (f.line, f.rule)
        for f in findings
        if f.consequence_of is None
        and f.line >= cause.line
        and (f.line, f.rule) != (cause.line, cause.rule)
        and (f.line, f.rule) not in again
    }
    if not gone:
        return list(findings)
    out = []
    for f in findings:
        of = f.consequence_of
        if (of is None and (f.line, f.rule) in gone) or (
            of is not None and (of.line, of.rule) in gone
        ):
            f = dataclasses.replace(f, consequence_of=cause)
        out.append(f)
    return out


__all__ = ["CORRECTABLE", "SIZE_CAUSES", "amount", "link", "of_the_table_ante"]
