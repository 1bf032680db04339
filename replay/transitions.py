"""The two moments between lines: a street's deal is complete, and a betting round is over.

Both are found lazily, at the first line that needs them (the first action after the deal;
the next street marker, the showdown, the first `collected` line or the summary), so they
work the same for a log and for a simulator that applies events one by one.
"""

from __future__ import annotations

from razz.parser.events import Street
from razz.replay.betting import close_deal
from razz.replay.findings import Finding, Severity
from razz.replay.rules import RuleId
from razz.replay.state import (
    NUMBER,
    HandState,
    Phase,
    make_finding,
    take_back,
    uncalled,
    with_player,
    with_record,
)

_UP_STREETS = frozenset((Street.FOURTH, Street.FIFTH, Street.SIXTH))


def close_deal_checked(state: HandState) -> tuple[HandState, list[Finding]]:
    """Close the current deal, reporting players who did not get the cards they are owed."""
    if state.phase is not Phase.DEALING:
        return state, []
    setup, street, found = state.setup, state.street, []
    line = state.deal.street_line
    # Cards each player still in the hand must hold now (the river is checked for the hero).
    owed = 3 if street is Street.THIRD else 6 if street is Street.SEVENTH else NUMBER[street]
    for i, p in enumerate(state.players):
        if not p.dealt_in or p.folded or (len(p.cards) >= owed and street is not Street.SEVENTH):
            continue
        name = setup.name(i)
        if street is Street.THIRD and len(p.cards) < 3:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_3RD,
                    line,
                    "a door card",
                    "no card",
                    f"{name} is in the hand but was dealt no door card on 3rd street.",
                )
            )
        elif street in _UP_STREETS and len(p.cards) < owed:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_UP,
                    line,
                    f"a card on {street} street",
                    "no card",
                    f"{name} is still in the hand but got no card on {street} street.",
                )
            )
        elif (
            street is Street.SEVENTH
            and i == state.deal.hero
            and state.deal.community is None
            and len(p.cards) < 7
        ):
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_7TH,
                    line,
                    "a river card, face down",
                    "no card",
                    f"{name} is still in the hand but the log shows no river card for them.",
                )
            )
    return close_deal(state), found


def end_round(state: HandState, line: int) -> tuple[HandState, list[Finding]]:
    """Close the betting round: report actions owed, a missing cap line, an unreturned bet."""
    state, found = close_deal_checked(state)
    if state.phase is not Phase.BETTING:
        return state, found
    setup, rnd = state.setup, state.round
    n_live = 0
    for p in state.players:
        if p.dealt_in and not p.folded:
            n_live += 1
    if rnd.to_act is not None and n_live >= 2:
        name = setup.name(rnd.to_act)
        if state.street is Street.THIRD and not state.deal.brought_in:
            found.append(
                make_finding(
                    setup,
                    RuleId.BRINGIN_CHOICE,
                    line,
                    f"{name} posts the bring-in or completes",
                    "no bring-in",
                    f"{name} had to post the bring-in or complete, and the log shows neither.",
                )
            )
        else:
            found.append(
                make_finding(
                    setup,
                    RuleId.ORDER_CLOCKWISE,
                    line,
                    f"{name} acts",
                    "the round ends",
                    f"The betting round ended before {name} acted.",
                )
            )
        return state, found
    if rnd.cap_at and not rnd.capped_line and setup.dialect.cap_line:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                line,
                "Betting is capped",
                "no cap line",
                "The round reached its cap but the log never says `Betting is capped`.",
                Severity.WARNING,
            )
        )
    pending = uncalled(state)
    if pending is not None:
        i, amount = pending
        name = setup.name(i)
        if setup.dialect.uncalled_line:  # else the format returns it without a line
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_UNCALLED,
                    line,
                    f"{setup.money(amount)} returned to {name}",
                    "nothing returned",
                    f"Nobody called {name}'s last {setup.money(amount)}, but the log never"
                    " returns it.",
                )
            )
        state = with_player(state, i, take_back(state.players[i], amount))
        state = with_record(state, returned=(*state.record.returned, (i, amount, line)))
    return state, found
