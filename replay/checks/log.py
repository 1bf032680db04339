"""Consistency of the log itself: LOG-STACK, LOG-CARDS, LOG-DESC and LOG-SUMMARY.

Not rules of the game but what a truthful log must satisfy (RAZZ_RULES.md, last section):
chips never exceed the stack and an all-in says so, cards repeat unchanged, a `Lo:` text is
the best low of the cards shown, the summary agrees with the body. LOG-CONTINUITY, across
hands, is in `tablecheck`.
"""

from __future__ import annotations

from collections.abc import Sequence

from razz.parser.events import UNKNOWN_CARD, Board, Outcome, SeatResult, Show
from razz.parser.sites.base import SeatSummary
from razz.replay.cards import RANK
from razz.replay.findings import Finding, Severity
from razz.replay.game import FIRST_STREET
from razz.replay.holdings import Note
from razz.replay.lowhand import description_matches, lo_text
from razz.replay.rules import RuleId
from razz.replay.state import NO_FINDINGS, HandSetup, HandState, PlayerState, make_finding

# The summary outcomes that say a player won chips, and those that say they showed cards;
# two outcomes by name, asked of every seat line (as `state.BETTING` names a phase).
_COLLECTED = frozenset((Outcome.COLLECTED, Outcome.SHOWED_WON))
_SHOWED = frozenset((Outcome.SHOWED_WON, Outcome.SHOWED_LOST))
_STACK, _FOLDED = Outcome.STACK, Outcome.FOLDED


def stack(
    setup: HandSetup, name: str, p: PlayerState, chips: int, all_in: bool, line: int
) -> list[Finding]:
    """LOG-STACK: chips put in never exceed the stack, and an all-in is marked as such."""
    if chips > p.stack:
        return [
            make_finding(
                setup,
                RuleId.LOG_STACK,
                line,
                f"at most {setup.money(p.stack)}",
                setup.money(chips),
                f"{name} puts in {setup.money(chips)} but has only {setup.money(p.stack)} left.",
            )
        ]
    if not setup.dialect.all_in_marked:
        return []  # the format does not mark all-ins: only the amount can be wrong
    if all_in and chips < p.stack:
        return [
            make_finding(
                setup,
                RuleId.LOG_STACK,
                line,
                f"all-in for {setup.money(p.stack)}",
                f"all-in for {setup.money(chips)}",
                f"{name} is marked all-in but keeps {setup.money(p.stack - chips)} behind.",
            )
        ]
    if not all_in and chips == p.stack and chips > 0:
        return [
            make_finding(
                setup,
                RuleId.LOG_STACK,
                line,
                "and is all-in",
                "not marked all-in",
                f"{name} puts in every chip left, but the log does not say all-in.",
            )
        ]
    return []


def stack_if_all(
    setup: HandSetup, name: str, p: PlayerState, chips: int, all_in: bool, line: int
) -> list[Finding]:
    """LOG-STACK of a line that puts in `chips`, when they may be the whole stack."""
    if all_in or chips >= p.stack:
        return stack(setup, name, p, chips, all_in, line)
    return []


def bad_tokens(setup: HandSetup, tokens: Sequence[str], line: int) -> list[Finding]:
    """LOG-CARDS: every card token must name a card (or be a card the log hides)."""
    return [
        make_finding(
            setup,
            RuleId.LOG_CARDS,
            line,
            "a card such as Ah",
            token,
            f"'{token}' is not a card.",
        )
        for token in tokens
        if token not in RANK and token != UNKNOWN_CARD
    ]


def changed_card(setup: HandSetup, i: int, note: Note, rule: RuleId, line: int) -> Finding:
    """A card of player `i` written differently from before (LOG-CARDS, or LOG-SUMMARY)."""
    pos, card, old = note
    return make_finding(
        setup,
        rule,
        line,
        old,
        card,
        f"{setup.name(i)}'s card number {pos + 1} was {old} and is now written {card}.",
    )


def unseated_show(state: HandState, e: Show) -> tuple[Finding, ...]:
    """LOG-CARDS: only a seated player shows cards."""
    return (
        make_finding(
            state.setup,
            RuleId.LOG_CARDS,
            e.line,
            "a seated player",
            e.player,
            f"{e.player} shows cards but has no seat in this hand.",
        ),
    )


def shown_description(state: HandState, e: Show) -> list[Finding]:
    """LOG-DESC: a `shows` line's `Lo:` text is the best low of the cards shown."""
    if e.description is None or not state.setup.dialect.lo_description:
        return []
    community = state.deal.community
    shown = [c for c in e.cards if c in RANK]
    hand = [*shown, community] if community and len(shown) == 6 else shown
    if description_matches(e.description, hand):
        return []
    low = lo_text(hand)
    return [
        make_finding(
            state.setup,
            RuleId.LOG_DESC,
            e.line,
            f"Lo: {low}",
            e.description,
            f"{e.player}'s cards make Lo: {low}, not what the log writes ({e.description}).",
        )
    ]


def board(state: HandState, e: Board) -> tuple[Finding, ...]:
    """LOG-SUMMARY: the summary's board is the community card dealt on the river."""
    community = state.deal.community
    if tuple(e.cards) == ((community,) if community else ()):
        return NO_FINDINGS
    return (
        make_finding(
            state.setup,
            RuleId.LOG_SUMMARY,
            e.line,
            f"Board [{community}]" if community else "no board",
            f"Board [{' '.join(e.cards)}]",
            "The summary's board is not the community card dealt on the river.",
        ),
    )


def cards_of(state: HandState, i: int) -> list[str]:
    """Player `i`'s known cards, with the community card when the river was one."""
    cards = [c for c in state.players[i].cards if c]
    community = state.deal.community
    if community and len(cards) == 6:
        cards.append(community)
    return cards


def summary(state: HandState, last_line: int) -> list[Finding]:
    """LOG-SUMMARY (and LOG-DESC of the summary's descriptions), once the hand is over."""
    setup, record, players = state.setup, state.record, state.players
    dialect = setup.dialect
    if not record.summary_line:
        if not dialect.summary:
            return []  # the format has no summary section
        return [
            make_finding(
                setup,
                RuleId.LOG_SUMMARY,
                last_line,
                "*** SUMMARY ***",
                "no summary",
                "The hand has no summary.",
            )
        ]
    won: dict[int, int] = {}
    for k, c in record.collects:
        won[k] = won.get(k, 0) + c.amount
    found: list[Finding] = []
    seen: set[int] = set()
    for r in record.seat_results:
        i = setup.index.get(r.player)
        if i is None:
            found.append(
                _summary(
                    setup,
                    r.line,
                    "a seated player",
                    r.player,
                    f"The summary lists {r.player}, who has no seat.",
                )
            )
            continue
        if i in seen:
            found.append(
                _summary(
                    setup,
                    r.line,
                    "one line",
                    "a second line",
                    f"The summary lists {r.player} twice.",
                )
            )
            continue
        seen.add(i)
        found += _seat_line(state, i, r, won.get(i, 0))
    lines_for = dialect.seat_summary
    if lines_for is SeatSummary.NONE:
        return found
    winners_only = lines_for is SeatSummary.WINNERS
    for i, p in enumerate(players):
        if winners_only and not won.get(i):
            continue
        if p.dealt_in and i not in seen:
            found.append(
                _summary(
                    setup,
                    record.summary_line,
                    f"a line for {setup.name(i)}",
                    "none",
                    f"The summary has no line for {setup.name(i)}, who was dealt in.",
                )
            )
    return found


def _summary(
    setup: HandSetup,
    line: int,
    want: str,
    got: str,
    message: str,
    severity: Severity = Severity.ERROR,
) -> Finding:
    return make_finding(setup, RuleId.LOG_SUMMARY, line, want, got, message, severity)


def _stack_line(setup: HandSetup, i: int, r: SeatResult, net: int) -> list[Finding]:
    """A summary line giving the stack after the hand and the net (`Seat 1: Player0
    (1,010.38) -50`): both follow from the stack before, what was put in and what was won."""
    money, stack = setup.money, setup.seats[i].stack + net
    if (r.final_stack, r.net) in ((stack, net), (stack, None), (None, net)):
        return []
    return [
        _summary(
            setup,
            r.line,
            f"{money(stack)} ({'+' if net > 0 else ''}{money(net)})",
            f"{money(r.final_stack)} ({money(r.net)})",
            f"{r.player} started with {money(setup.seats[i].stack)} and won {money(net)} net:"
            f" the stack after the hand is {money(stack)}.",
        )
    ]


def _seat_line(state: HandState, i: int, r: SeatResult, amount: int) -> list[Finding]:
    """What one seat's summary line gets wrong about player `i`, who collected `amount`."""
    setup, record = state.setup, state.record
    money = setup.money
    p = state.players[i]
    found: list[Finding] = []
    if setup.seats[i].seat != r.seat:
        found.append(
            _summary(
                setup,
                r.line,
                f"seat {setup.seats[i].seat}",
                f"seat {r.seat}",
                f"{r.player} sits in seat {setup.seats[i].seat}, not seat {r.seat}.",
            )
        )
    outcome = r.outcome
    if outcome is _STACK:  # KingsClub: the stack after the hand and the net only
        return found + _stack_line(setup, i, r, amount - p.committed)
    folded_on = state.deal.folded_on[i]
    folded = outcome is _FOLDED
    if p.folded and not folded:
        found.append(
            _summary(
                setup,
                r.line,
                f"folded on the {folded_on} Street",
                str(r.outcome),
                f"{r.player} folded on {folded_on} street.",
            )
        )
        return found
    if folded:
        if not p.folded:
            found.append(
                _summary(
                    setup,
                    r.line,
                    str(_outcome(state, amount)),
                    "folded",
                    f"{r.player} did not fold.",
                )
            )
        elif r.street is not None and r.street is not folded_on:
            found.append(
                _summary(
                    setup,
                    r.line,
                    f"folded on {folded_on}",
                    f"folded on {r.street}",
                    f"{r.player} folded on {folded_on} street, not on {r.street} street.",
                )
            )
        elif r.street is FIRST_STREET and setup.dialect.didnt_bet:
            didnt_bet = p.committed == state.deal.antes[i]
            if r.didnt_bet != didnt_bet:
                found.append(
                    _summary(
                        setup,
                        r.line,
                        "(didn't bet)" if didnt_bet else "no (didn't bet)",
                        "(didn't bet)" if r.didnt_bet else "no (didn't bet)",
                        f"{r.player} {'put nothing' if didnt_bet else 'put chips'} in the pot"
                        " beyond the ante before folding.",
                        Severity.WARNING,
                    )
                )
        return found
    if outcome in _COLLECTED:
        if amount == 0:
            found.append(
                _summary(
                    setup,
                    r.line,
                    "nothing won",
                    f"won {money(r.amount)}",
                    f"{r.player} collected nothing.",
                )
            )
        elif r.amount is not None and r.amount != amount:
            found.append(
                _summary(
                    setup,
                    r.line,
                    money(amount),
                    money(r.amount),
                    f"{r.player} collected {money(amount)}, not {money(r.amount)}.",
                )
            )
    elif amount > 0:
        found.append(
            _summary(
                setup,
                r.line,
                f"won {money(amount)}",
                str(r.outcome),
                f"{r.player} collected {money(amount)} and did not lose.",
            )
        )
    showed = outcome in _SHOWED
    if showed and i not in record.shown:
        found.append(
            _summary(
                setup,
                r.line,
                "no cards shown",
                "showed",
                f"{r.player} showed no cards in the hand.",
            )
        )
    if r.description is not None and showed and setup.dialect.lo_description:
        cards = cards_of(state, i)
        if not description_matches(r.description, cards):
            found.append(
                make_finding(
                    setup,
                    RuleId.LOG_DESC,
                    r.line,
                    f"Lo: {lo_text(cards)}",
                    r.description,
                    f"{r.player}'s cards make Lo: {lo_text(cards)}, not what the summary"
                    f" writes ({r.description}).",
                )
            )
    return found


def _outcome(state: HandState, amount: int) -> str:
    if amount:
        return "won"
    return "lost" if state.record.showdown_line else "in the hand"
