"""Who acts, and when: BRINGIN-WHO, BRINGIN-SUIT, BRINGIN-ALLIN, BRINGIN-CHOICE, ORDER-3RD,
ORDER-LATER, ORDER-TIE, ORDER-ALLIN, ORDER-CLOCKWISE and ACT-TURN.

The highest door card brings in (passing clockwise over a player all-in from the ante); later
streets are opened by the best exposed low (`order`), ties and all-in openers as the ruleset
says; then action moves clockwise among the players who can act.
"""

from __future__ import annotations

from razz.replay.betting import ActionKind, opening_third
from razz.replay.cards import RANK
from razz.replay.findings import Finding, Severity
from razz.replay.game import FIRST_STREET
from razz.replay.lowhand import board_value
from razz.replay.order import bring_in_players, door_card, first_actor
from razz.replay.rules import RuleId
from razz.replay.ruleset import AllInOpener
from razz.replay.state import BETTING, NO_FINDINGS, HandState, make_finding, players_left, up_cards

Actor = tuple[int | None, list[Finding] | tuple[Finding, ...]]
# The actions that may open 3rd street (the bring-in player's choice: see `bring_in_identity`).
_OPENING = frozenset((ActionKind.BRING_IN, ActionKind.BET, ActionKind.COMPLETE))


def who_acts(state: HandState, name: str, line: int, kind: ActionKind) -> Actor:
    """The index of the player acting on `line` and what their acting breaks, if anything.

    The index is None when the line cannot be applied at all (an unknown, folded or all-in
    player, or no betting round open): the line's other checks then have nothing to judge.
    """
    setup = state.setup
    i = setup.index.get(name)
    if (
        i is not None
        and i == state.round.to_act
        and state.phase is BETTING
        and (state.deal.brought_in or state.street is not FIRST_STREET)  # not opening_third
    ):
        return i, NO_FINDINGS  # whose turn it is: able to act by construction of `to_act`
    if i is None:
        return None, [_turn(state, line, name, f"{name} has no seat in this hand and cannot act.")]
    p = state.players[i]
    if not p.dealt_in:
        return None, [_turn(state, line, name, f"{name} was not dealt in and cannot act.")]
    if p.folded:
        return None, [_turn(state, line, name, f"{name} folded earlier and cannot act again.")]
    if p.all_in:
        return None, [_turn(state, line, name, f"{name} is all-in and cannot act any more.")]
    if state.phase is not BETTING:
        return None, [_turn(state, line, name, f"{name} acts while no betting round is open.")]
    rnd = state.round
    if opening_third(state):
        if kind in _OPENING:
            return i, NO_FINDINGS  # who may open 3rd street: see `bring_in_identity`
        expected = state.deal.bring_in
        if i == expected:
            return i, [
                make_finding(
                    setup,
                    RuleId.BRINGIN_CHOICE,
                    line,
                    "bring-in or completion",
                    str(kind),
                    f"{name} must open 3rd street with the bring-in or a completion, not a {kind}.",
                )
            ]
        first = setup.name(expected) if expected is not None else "the bring-in"
        return i, [
            make_finding(
                setup,
                RuleId.ORDER_3RD,
                line,
                first,
                name,
                f"{first} must bring in before anyone else acts on 3rd street; {name} acted first.",
            )
        ]
    if rnd.to_act is None:
        if players_left(state) <= 1:
            message = f"The hand is over; {name} cannot act."
        else:
            message = (
                f"Every player has acted and the bets are equal; {name} cannot act again on"
                f" {state.street} street."
            )
        return i, [_turn(state, line, name, message)]
    if i != rnd.to_act:
        return i, [out_of_turn(state, i, line)]
    return i, NO_FINDINGS


def _turn(state: HandState, line: int, name: str, message: str) -> Finding:
    return make_finding(state.setup, RuleId.ACT_TURN, line, "no action", name, message)


def out_of_turn(state: HandState, i: int, line: int) -> Finding:
    """The rule broken by player `i` acting out of turn: which one depends on the moment."""
    setup, rnd = state.setup, state.round
    expected = rnd.to_act
    assert expected is not None
    name, want = setup.name(i), setup.name(expected)
    if state.street is FIRST_STREET:
        return make_finding(
            setup,
            RuleId.ORDER_3RD,
            line,
            want,
            name,
            f"On 3rd street action goes clockwise from the bring-in: it is {want}'s turn, not"
            f" {name}'s.",
        )
    if rnd.actions > 0:
        return make_finding(
            setup,
            RuleId.ORDER_CLOCKWISE,
            line,
            want,
            name,
            f"Action moves clockwise: it is {want}'s turn, not {name}'s.",
        )
    players = state.players
    best, _ = first_actor(state)
    if best is not None and players[best].all_in:
        other = (
            AllInOpener.NEXT_CLOCKWISE
            if setup.ruleset.all_in_opener is AllInOpener.BEST_ACTIVE
            else AllInOpener.BEST_ACTIVE
        )
        _, other_opener = first_actor(state, other)
        return make_finding(
            setup,
            RuleId.ORDER_ALLIN,
            line,
            want,
            name,
            f"{setup.name(best)} shows the best board but is all-in, so {want} acts first, not"
            f" {name}.",
            # the other reading of ORDER-ALLIN is only a warning where the ruleset leaves it open
            Severity.WARNING
            if i == other_opener and not setup.ruleset.settles("all_in_opener")
            else Severity.ERROR,
        )
    mine, theirs = up_cards(players[i]), up_cards(players[expected])
    if board_value(mine) == board_value(theirs):
        return make_finding(
            setup,
            RuleId.ORDER_TIE,
            line,
            want,
            name,
            f"{want} ({' '.join(theirs)}) and {name} ({' '.join(mine)}) show equal boards; the"
            f" tie goes to {want}, who acts first.",
            Severity.ERROR if setup.ruleset.settles("tie_break") else Severity.WARNING,
        )
    return make_finding(
        setup,
        RuleId.ORDER_LATER,
        line,
        want,
        name,
        f"{want} shows the best low board ({' '.join(theirs)}) and acts first, not {name}"
        f" ({' '.join(mine)}).",
    )


def bring_in_identity(state: HandState, i: int, line: int) -> list[Finding]:
    """BRINGIN-WHO / -SUIT / -ALLIN: is player `i` the one who must open 3rd street?"""
    natural, expected = bring_in_players(state)
    if expected is None or i == expected:
        return []
    setup, players = state.setup, state.players
    name, want = setup.name(i), setup.name(expected)
    mine, theirs = door_card(players[i]) or "?", door_card(players[expected]) or "?"
    if natural is not None and natural != expected:
        return [
            make_finding(
                setup,
                RuleId.BRINGIN_ALLIN,
                line,
                want,
                name,
                f"{setup.name(natural)} has the highest door card but is all-in from the ante,"
                f" so the bring-in passes clockwise to {want}, not {name}.",
            )
        ]
    if mine in RANK and theirs in RANK and RANK[mine] == RANK[theirs]:
        return [
            make_finding(
                setup,
                RuleId.BRINGIN_SUIT,
                line,
                want,
                name,
                f"{want} ({theirs}) and {name} ({mine}) share the highest rank; the higher suit"
                f" ({want}) brings in.",
            )
        ]
    return [
        make_finding(
            setup,
            RuleId.BRINGIN_WHO,
            line,
            want,
            name,
            f"{want} has the highest door card ({theirs}) and must bring in, not {name} ({mine}).",
        )
    ]


def owed_action(state: HandState, line: int) -> list[Finding]:
    """BRINGIN-CHOICE, ORDER-CLOCKWISE: a betting round ends only when nobody owes an action."""
    rnd = state.round
    if rnd.to_act is None or players_left(state) < 2:
        return []
    setup = state.setup
    name = setup.name(rnd.to_act)
    if opening_third(state):
        return [
            make_finding(
                setup,
                RuleId.BRINGIN_CHOICE,
                line,
                f"{name} posts the bring-in or completes",
                "no bring-in",
                f"{name} had to post the bring-in or complete, and the log shows neither.",
            )
        ]
    return [
        make_finding(
            setup,
            RuleId.ORDER_CLOCKWISE,
            line,
            f"{name} acts",
            "the round ends",
            f"The betting round ended before {name} acted.",
        )
    ]
