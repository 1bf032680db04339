"""Betting lines: who may act, what they may do, and how much.

Rules checked here: BRINGIN-WHO, BRINGIN-SUIT, BRINGIN-ALLIN, BRINGIN-CHOICE,
STRUCT-BRINGIN-SIZE, ORDER-3RD, ORDER-LATER, ORDER-TIE, ORDER-ALLIN, ORDER-CLOCKWISE,
ACT-TURN, ACT-CHOICES, ACT-CHECK, ACT-CALL, ACT-COMPLETE, ACT-RAISE-SIZE, ACT-ALLIN-SHORT,
STRUCT-SMALL, STRUCT-BIG, STRUCT-NO-DOUBLE, STRUCT-CAP and LOG-STACK.

Wrong sizes are reported as: an opening bet → STRUCT-SMALL (3rd, 4th street) or STRUCT-BIG
(5th to 7th); a completion → ACT-COMPLETE; a raise → ACT-RAISE-SIZE; a big bet or big raise
on 4th street → STRUCT-NO-DOUBLE. The line is always applied as written, so one mistake gives
one finding and the replay goes on from what the log says.
"""

from __future__ import annotations

from dataclasses import replace

from razz.parser.events import (
    Bet,
    BettingCapped,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    Raise,
    Street,
)
from razz.replay.betting import (
    ActionKind,
    cap_applies,
    capped,
    counts_as_full,
    heads_up,
    wager_target,
)
from razz.replay.cards import RANK
from razz.replay.dealing import stack_findings
from razz.replay.findings import Finding, Severity
from razz.replay.lowhand import board_value
from razz.replay.order import bring_in_players, door_card, first_actor, next_to_act
from razz.replay.rules import RuleId
from razz.replay.ruleset import AllInOpener
from razz.replay.state import (
    NO_FINDINGS,
    HandState,
    Phase,
    PlayerState,
    Round,
    bet_unit,
    evolve,
    folded,
    in_hand,
    make_finding,
    new_tuple,
    put_in,
    set_deal,
    set_round,
    up_cards,
    with_fold,
)
from razz.replay.transitions import close_deal_checked

Result = tuple[HandState, tuple[Finding, ...]]


# ------------------------------------------------------------------------ whose turn


def _actor(
    state: HandState, name: str, line: int, kind: ActionKind, found: list[Finding]
) -> int | None:
    """The index of the player acting on `line`, with findings about their right to act.

    None when the line cannot be applied at all (an unknown, folded or all-in player, or no
    betting round open).
    """
    setup = state.setup
    i = setup.index.get(name)
    if (
        i is not None
        and i == state.round.to_act
        and state.phase is Phase.BETTING
        and (state.deal.brought_in or state.street is not Street.THIRD)
    ):
        return i  # whose turn it is: able to act by construction of `to_act`
    if i is None:
        found.append(_turn(state, line, name, f"{name} has no seat in this hand and cannot act."))
        return None
    p = state.players[i]
    if not p.dealt_in:
        found.append(_turn(state, line, name, f"{name} was not dealt in and cannot act."))
        return None
    if p.folded:
        found.append(_turn(state, line, name, f"{name} folded earlier and cannot act again."))
        return None
    if p.all_in:
        found.append(_turn(state, line, name, f"{name} is all-in and cannot act any more."))
        return None
    if state.phase is not Phase.BETTING:
        found.append(_turn(state, line, name, f"{name} acts while no betting round is open."))
        return None
    rnd = state.round
    if state.street is Street.THIRD and not state.deal.brought_in:
        if kind in (ActionKind.BRING_IN, ActionKind.BET, ActionKind.COMPLETE):
            return i  # who may open 3rd street is the bring-in check of the handler
        expected = state.deal.bring_in
        if i == expected:
            found.append(
                make_finding(
                    setup,
                    RuleId.BRINGIN_CHOICE,
                    line,
                    "bring-in or completion",
                    str(kind),
                    f"{name} must open 3rd street with the bring-in or a completion, not a {kind}.",
                )
            )
        else:
            first = setup.name(expected) if expected is not None else "the bring-in"
            found.append(
                make_finding(
                    setup,
                    RuleId.ORDER_3RD,
                    line,
                    first,
                    name,
                    f"{first} must bring in before anyone else acts on 3rd street; {name} acted"
                    " first.",
                )
            )
        return i
    if rnd.to_act is None:
        if sum(1 for q in state.players if in_hand(q)) <= 1:
            message = f"The hand is over; {name} cannot act."
        else:
            message = (
                f"Every player has acted and the bets are equal; {name} cannot act again on"
                f" {state.street} street."
            )
        found.append(_turn(state, line, name, message))
        return i
    if i != rnd.to_act:
        found.append(_order_finding(state, i, line))
    return i


def _turn(state: HandState, line: int, name: str, message: str) -> Finding:
    return make_finding(state.setup, RuleId.ACT_TURN, line, "no action", name, message)


def _order_finding(state: HandState, i: int, line: int) -> Finding:
    """The rule broken by player `i` acting out of turn: which one depends on the moment."""
    setup, rnd = state.setup, state.round
    expected = rnd.to_act
    assert expected is not None
    name, want = setup.name(i), setup.name(expected)
    if state.street is Street.THIRD:
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
        other_setup = replace(setup, ruleset=replace(setup.ruleset, all_in_opener=other))
        _, other_opener = first_actor(evolve(state, setup=other_setup))
        return make_finding(
            setup,
            RuleId.ORDER_ALLIN,
            line,
            want,
            name,
            f"{setup.name(best)} shows the best board but is all-in, so {want} acts first, not"
            f" {name}.",
            Severity.WARNING if i == other_opener else Severity.ERROR,
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
            Severity.WARNING,
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


def _bring_in_identity(state: HandState, i: int, line: int, found: list[Finding]) -> None:
    """BRINGIN-WHO / -SUIT / -ALLIN: is player `i` the one who must open 3rd street?"""
    natural, expected = bring_in_players(state)
    if expected is None or i == expected:
        return
    setup, players = state.setup, state.players
    name, want = setup.name(i), setup.name(expected)
    mine, theirs = door_card(players[i]) or "?", door_card(players[expected]) or "?"
    if natural is not None and natural != expected:
        found.append(
            make_finding(
                setup,
                RuleId.BRINGIN_ALLIN,
                line,
                want,
                name,
                f"{setup.name(natural)} has the highest door card but is all-in from the ante,"
                f" so the bring-in passes clockwise to {want}, not {name}.",
            )
        )
    elif mine in RANK and theirs in RANK and RANK[mine] == RANK[theirs]:
        found.append(
            make_finding(
                setup,
                RuleId.BRINGIN_SUIT,
                line,
                want,
                name,
                f"{want} ({theirs}) and {name} ({mine}) share the highest rank; the higher suit"
                f" ({want}) brings in.",
            )
        )
    else:
        found.append(
            make_finding(
                setup,
                RuleId.BRINGIN_WHO,
                line,
                want,
                name,
                f"{want} has the highest door card ({theirs}) and must bring in, not {name}"
                f" ({mine}).",
            )
        )


# ------------------------------------------------------------------------ applying


def _next(
    state: HandState,
    i: int,
    players: tuple[PlayerState, ...],
    level: int,
    full_level: int,
    bets: int,
    acted: frozenset[int],
    aggressor: int | None,
) -> HandState:
    """The state after player `i` acted: the round moves on to the next player owing action."""
    rnd = state.round
    to_act = next_to_act(players, i, level, acted)
    new_round = new_tuple(
        Round,
        (
            level,
            full_level,
            bets,
            acted,
            to_act,
            rnd.opener,
            aggressor,
            rnd.capped_line,
            rnd.cap_at,
            rnd.actions + 1,
        ),
    )
    result: HandState = new_tuple(
        HandState,
        (state.setup, players, state.phase, state.street, new_round, state.deal, state.record),
    )
    return result


def _replace_player(
    players: tuple[PlayerState, ...], i: int, p: PlayerState
) -> tuple[PlayerState, ...]:
    return (*players[:i], p, *players[i + 1 :])


def _passive(state: HandState, i: int, chips: int, all_in: bool) -> HandState:
    """Apply a call or check (or a bring-in): chips in, no change to the bet count."""
    rnd = state.round
    p = put_in(state.players[i], chips, all_in) if chips or all_in else state.players[i]
    players = _replace_player(state.players, i, p)
    level = max(rnd.level, p.street_bet)
    return _next(state, i, players, level, rnd.full_level, rnd.bets, rnd.acted | {i}, rnd.aggressor)


def _wager(state: HandState, i: int, chips: int, all_in: bool, line: int) -> HandState:
    """Apply a bet, completion or raise: a full one reopens the betting and counts to the cap."""
    rnd = state.round
    p = state.players[i]
    to = p.street_bet + chips
    full = counts_as_full(state, to, wager_target(state, i))
    p = put_in(p, chips, all_in)
    players = _replace_player(state.players, i, p)
    level = max(rnd.level, to)
    if full:
        state = _next(state, i, players, level, level, rnd.bets + 1, frozenset((i,)), i)
    else:
        bets = rnd.bets + (1 if state.setup.ruleset.short_all_in_counts_to_cap else 0)
        state = _next(state, i, players, level, rnd.full_level, bets, rnd.acted | {i}, i)
    if not rnd.cap_at and capped(state):
        # Remember where the cap was reached: the log owes a `Betting is capped` line.
        state = evolve(state, round=evolve(state.round, cap_at=line))
    return state


def _begin(state: HandState) -> tuple[HandState, list[Finding]]:
    """Before a betting line: close the deal if it is still open (checking it)."""
    if state.phase is Phase.DEALING:
        return close_deal_checked(state)
    return state, []


def _opened(state: HandState) -> HandState:
    return evolve(state, deal=evolve(state.deal, brought_in=True))


def _done(state: HandState, found: list[Finding]) -> Result:
    return state, tuple(found) if found else NO_FINDINGS


# ------------------------------------------------------------------------ handlers


def on_bring_in(state: HandState, e: BringIn) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.BRING_IN, found)
    if i is None:
        return _done(state, found)
    setup, p = state.setup, state.players[i]
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `pb`): the known bring-in
        amount = min(setup.bring_in or 0, p.stack)
    if state.street is not Street.THIRD or state.deal.brought_in:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_CHOICES,
                e.line,
                "fold, check, bet, call or raise",
                "bring-in",
                "The bring-in is posted once, as the first action of 3rd street.",
            )
        )
        found += stack_findings(setup, e.player, p, amount, e.all_in, e.line)
        return _done(_passive(state, i, amount, e.all_in), found)
    _bring_in_identity(state, i, e.line, found)
    found += _bring_in_size(state, e, amount)
    if e.all_in or amount >= p.stack:
        found += stack_findings(setup, e.player, p, amount, e.all_in, e.line)
    state = _opened(state)
    p2 = put_in(p, amount, e.all_in)
    players = _replace_player(state.players, i, p2)
    return _done(_next(state, i, players, p2.street_bet, 0, 0, frozenset((i,)), None), found)


def _bring_in_size(state: HandState, e: BringIn, amount: int) -> list[Finding]:
    """STRUCT-BRINGIN-SIZE: the known bring-in, else more than the ante, less than the small bet."""
    setup = state.setup
    money = setup.money
    expected = setup.bring_in
    if expected is not None and (amount > expected or (amount < expected and not e.all_in)):
        want, problem = money(expected), f"The bring-in is {money(expected)}"
    elif not e.all_in and amount >= setup.small_bet:
        want = f"less than {money(setup.small_bet)}"
        problem = f"The bring-in must be smaller than the small bet ({money(setup.small_bet)})"
    elif not e.all_in and setup.ante is not None and amount <= setup.ante:
        want = f"more than {money(setup.ante)}"
        problem = f"The bring-in must be larger than the ante ({money(setup.ante)})"
    else:
        return []
    return [
        make_finding(
            setup,
            RuleId.STRUCT_BRINGIN_SIZE,
            e.line,
            want,
            money(amount),
            f"{problem}; {e.player} posted {money(amount)}.",
        )
    ]


def on_bet(state: HandState, e: Bet) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.BET, found)
    if i is None:
        return _done(state, found)
    setup, p, rnd, street = state.setup, state.players[i], state.round, state.street
    money = setup.money
    if street is Street.THIRD and not state.deal.brought_in:
        _bring_in_identity(state, i, e.line, found)
        if e.amount != setup.small_bet and not (e.all_in and e.amount < setup.small_bet):
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_COMPLETE,
                    e.line,
                    money(setup.small_bet),
                    money(e.amount),
                    f"Instead of the bring-in, {e.player} may complete to exactly the small bet"
                    f" ({money(setup.small_bet)}), not {money(e.amount)}.",
                )
            )
        state = _opened(state)
    elif rnd.level > 0:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_CHOICES,
                e.line,
                "fold, call or raise",
                "bet",
                f"{e.player} bets although there is already a bet of {money(rnd.level)}; facing"
                " a bet a player folds, calls or raises.",
            )
        )
    else:
        unit = bet_unit(setup, street)
        if e.amount != unit and not (e.all_in and e.amount < unit):
            found.append(_bet_size_finding(state, e.line, e.player, unit, e.amount))
    if e.all_in or e.amount >= p.stack:
        found += stack_findings(setup, e.player, p, e.amount, e.all_in, e.line)
    return _done(_wager(state, i, e.amount, e.all_in, e.line), found)


def _bet_size_finding(state: HandState, line: int, name: str, unit: int, amount: int) -> Finding:
    setup, street = state.setup, state.street
    money = setup.money
    if street is Street.FOURTH and amount == setup.big_bet:
        return make_finding(
            setup,
            RuleId.STRUCT_NO_DOUBLE,
            line,
            money(unit),
            money(amount),
            f"Razz has no double bet on 4th street: {name}'s bet is one small bet"
            f" ({money(unit)}), not {money(amount)}.",
        )
    big = street is not None and street.is_big_bet
    return make_finding(
        setup,
        RuleId.STRUCT_BIG if big else RuleId.STRUCT_SMALL,
        line,
        money(unit),
        money(amount),
        f"A bet on {street} street is one {'big' if big else 'small'} bet ({money(unit)});"
        f" {name} bet {money(amount)}.",
    )


def on_raise(state: HandState, e: Raise) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.RAISE, found)
    if i is None:
        return _done(state, found)
    setup, p, rnd, street = state.setup, state.players[i], state.round, state.street
    chips = e.to - p.street_bet
    if street is Street.THIRD and not state.deal.brought_in:
        state = _opened(state)  # _actor reported who should have opened, and how
    elif rnd.level == 0:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_CHOICES,
                e.line,
                "check or bet",
                "raise",
                f"{e.player} raises but there is no bet to raise; with no bet a player checks or"
                " bets.",
            )
        )
    else:
        found += _raise_findings(state, i, e, chips, e.amount)
    if e.all_in or chips >= p.stack:
        found += stack_findings(setup, e.player, p, chips, e.all_in, e.line)
    return _done(_wager(state, i, chips, e.all_in, e.line), found)


def on_complete(state: HandState, e: Complete) -> Result:
    """A completion written as such (Full Tilt, Merge): a wager to the small bet on 3rd street."""
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.COMPLETE, found)
    if i is None:
        return _done(state, found)
    setup, p, rnd, street = state.setup, state.players[i], state.round, state.street
    money = setup.money
    chips = e.to - p.street_bet
    if street is Street.THIRD and not state.deal.brought_in:
        # The bring-in player completes instead of bringing in.
        _bring_in_identity(state, i, e.line, found)
        if e.to != setup.small_bet and not (e.all_in and e.to < setup.small_bet):
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_COMPLETE,
                    e.line,
                    money(setup.small_bet),
                    money(e.to),
                    f"Instead of the bring-in, {e.player} may complete to exactly the small bet"
                    f" ({money(setup.small_bet)}), not {money(e.to)}.",
                )
            )
        state = _opened(state)
    elif street is Street.THIRD and rnd.bets == 0 and rnd.level > 0:
        found += _raise_findings(state, i, e, chips, None)
    else:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_CHOICES,
                e.line,
                "bet or raise",
                "complete",
                f"{e.player} completes, but only the bring-in on 3rd street can be completed.",
            )
        )
    if e.all_in or chips >= p.stack:
        found += stack_findings(setup, e.player, p, chips, e.all_in, e.line)
    return _done(_wager(state, i, chips, e.all_in, e.line), found)


def _raise_findings(
    state: HandState, i: int, e: Raise | Complete, chips: int, amount: int | None
) -> list[Finding]:
    """ACT-RAISE-SIZE, STRUCT-CAP, ACT-ALLIN-SHORT, ACT-COMPLETE, STRUCT-NO-DOUBLE of a raise
    to `e.to`; `amount` is the increment the line writes, if it writes one."""
    setup, p, rnd, street = state.setup, state.players[i], state.round, state.street
    money = setup.money
    unit = bet_unit(setup, street)
    found: list[Finding] = []
    if amount is not None and setup.dialect.raise_increments and e.to - rnd.level != amount:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_RAISE_SIZE,
                e.line,
                f"raises {money(e.to - rnd.level)} to {money(e.to)}",
                f"raises {money(amount)} to {money(e.to)}",
                f"A raise of {money(amount)} over the bet of {money(rnd.level)} makes"
                f" {money(rnd.level + amount)}, not {money(e.to)}.",
            )
        )
    max_raises = setup.ruleset.max_raises
    if max_raises is not None and rnd.bets >= 1 + max_raises and cap_applies(state):
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                e.line,
                "fold or call",
                "raise",
                f"The betting is capped at a bet and {max_raises} raises; {e.player} cannot raise"
                " again.",
                Severity.WARNING if heads_up(state) else Severity.ERROR,
            )
        )
    elif i in rnd.acted:
        half = (rnd.level - rnd.full_level) * 2 >= unit
        found.append(
            make_finding(
                setup,
                RuleId.ACT_ALLIN_SHORT,
                e.line,
                "fold or call",
                "raise",
                f"{e.player} already acted, and an all-in for less than a full raise does not"
                f" reopen the betting: {e.player} may only call or fold.",
                Severity.WARNING if half else Severity.ERROR,
            )
        )
    target = wager_target(state, i)
    if e.to != target and not (e.all_in and e.to < target and chips == p.stack):
        if rnd.bets == 0 and street is Street.THIRD:
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_COMPLETE,
                    e.line,
                    f"to {money(target)}",
                    f"to {money(e.to)}",
                    f"Completing the bring-in makes the bet exactly the small bet"
                    f" ({money(target)}), not {money(e.to)}.",
                )
            )
        elif street is Street.FOURTH and e.to - (target - unit) == setup.big_bet:
            found.append(
                make_finding(
                    setup,
                    RuleId.STRUCT_NO_DOUBLE,
                    e.line,
                    f"to {money(target)}",
                    f"to {money(e.to)}",
                    f"Razz has no double bet on 4th street: a raise is one small bet, to"
                    f" {money(target)}, not {money(e.to)}.",
                )
            )
        else:
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_RAISE_SIZE,
                    e.line,
                    f"to {money(target)}",
                    f"to {money(e.to)}",
                    f"A raise on {street} street is one {'big' if unit == setup.big_bet else 'small'}"
                    f" bet, to {money(target)}; {e.player} raised to {money(e.to)}.",
                )
            )
    return found


def on_call(state: HandState, e: Call) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.CALL, found)
    if i is None:
        return _done(state, found)
    setup, p, rnd = state.setup, state.players[i], state.round
    money = setup.money
    facing = rnd.level - p.street_bet
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `cc`): what matches the bet
        amount = max(0, min(facing, p.stack))
    if state.street is Street.THIRD and not state.deal.brought_in:
        state = _opened(state)
    elif facing <= 0:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_CALL,
                e.line,
                "check",
                f"calls {money(e.amount)}" if e.amount is not None else "calls",
                f"There is no bet for {e.player} to call; {e.player} could check.",
            )
        )
    else:
        needed = min(facing, p.stack)
        if amount != needed and not (e.all_in and amount == p.stack):
            found.append(
                make_finding(
                    setup,
                    RuleId.ACT_CALL,
                    e.line,
                    money(needed),
                    money(amount),
                    f"A call puts in exactly what matches the bet: {money(needed)} for"
                    f" {e.player}, not {money(amount)}.",
                )
            )
    if e.all_in or amount >= p.stack:
        found += stack_findings(setup, e.player, p, amount, e.all_in, e.line)
    return _done(_passive(state, i, amount, e.all_in), found)


def on_check(state: HandState, e: Check) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.CHECK, found)
    if i is None:
        return _done(state, found)
    p, rnd = state.players[i], state.round
    if state.street is Street.THIRD and not state.deal.brought_in:
        state = _opened(state)
    elif p.street_bet < rnd.level:
        found.append(
            make_finding(
                state.setup,
                RuleId.ACT_CHECK,
                e.line,
                "fold, call or raise",
                "check",
                f"{e.player} checks facing a bet of {state.setup.money(rnd.level)}; a check is"
                " only legal with nothing to call.",
            )
        )
    return _done(_passive(state, i, 0, False), found)


def on_fold(state: HandState, e: Fold) -> Result:
    state, found = _begin(state)
    i = _actor(state, e.player, e.line, ActionKind.FOLD, found)
    if i is None:
        return _done(state, found)
    if state.street is Street.THIRD and not state.deal.brought_in:
        state = _opened(state)
    rnd = state.round
    players = _replace_player(state.players, i, folded(state.players[i]))
    deal = with_fold(state.deal, i, state.street)
    state = _next(
        set_deal(state, deal),
        i,
        players,
        rnd.level,
        rnd.full_level,
        rnd.bets,
        rnd.acted | {i},
        rnd.aggressor,
    )
    left = 0
    for p in players:
        if p.dealt_in and not p.folded:
            left += 1
    if left <= 1:
        # The last player left has won: nobody acts any more.
        state = set_round(state, evolve(state.round, to_act=None))
    return _done(state, found)


def on_capped(state: HandState, e: BettingCapped) -> Result:
    setup, rnd = state.setup, state.round
    max_raises = setup.ruleset.max_raises
    found: list[Finding] = []
    if state.phase is not Phase.BETTING or max_raises is None or rnd.bets < 1 + max_raises:
        cap = "no cap" if max_raises is None else f"a bet and {max_raises} raises"
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                e.line,
                cap,
                f"capped after {rnd.bets} bets",
                f"The log says the betting is capped after {rnd.bets} bets; the cap is {cap}.",
            )
        )
    elif not cap_applies(state):
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                e.line,
                "no cap heads-up",
                "capped",
                "The log caps the betting heads-up, where this ruleset lifts the cap.",
                Severity.WARNING,
            )
        )
    state = evolve(state, round=evolve(rnd, capped_line=e.line))
    return _done(state, found)
