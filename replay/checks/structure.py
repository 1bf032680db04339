"""The betting structure: STRUCT-LIMIT, STRUCT-ANTE, STRUCT-BRINGIN-SIZE, STRUCT-SMALL,
STRUCT-BIG, STRUCT-NO-DOUBLE and STRUCT-CAP.

Fixed limit with a big bet of two small bets, an ante from every player dealt in, a bring-in
between the ante and the small bet, bets of one unit (`game.BET_SIZE`), and a cap of one bet
plus the ruleset's number of raises.
"""

from __future__ import annotations

from razz.parser.events import BettingCapped, BringIn, Dealt, HandHeader, PostAnte, Street
from razz.replay.betting import cap_applies, capped, heads_up
from razz.replay.findings import Finding, Severity
from razz.replay.game import BIG_BET_STREETS, cap
from razz.replay.rules import RuleId
from razz.replay.state import ANTES, BETTING, NO_FINDINGS, HandSetup, HandState, make_finding


def header(setup: HandSetup, head: HandHeader, first_ante_line: int) -> list[Finding]:
    """STRUCT-LIMIT and STRUCT-ANTE of the stakes themselves."""
    found: list[Finding] = []
    money = setup.money
    if head.big_bet != 2 * head.small_bet or head.limit.lower() != "limit":
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_LIMIT,
                head.first_line,
                f"Limit, {money(head.small_bet)}/{money(2 * head.small_bet)}",
                f"{head.limit}, {money(head.small_bet)}/{money(head.big_bet)}",
                "Razz is fixed-limit with a big bet twice the small bet.",
            )
        )
    ante = setup.ante
    if ante is not None and ante >= head.small_bet:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                first_ante_line,
                f"less than {money(head.small_bet)}",
                money(ante),
                f"The ante is a fraction of the small bet; {money(ante)} is not.",
            )
        )
    return found


def ante(state: HandState, e: PostAnte) -> list[Finding]:
    """STRUCT-ANTE of an ante line: a seated player, before the deal, once, the right amount."""
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return [
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                "a seated player",
                e.player,
                f"{e.player} posts an ante but has no seat in this hand.",
            )
        ]
    found: list[Finding] = []
    if state.phase is not ANTES:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                "antes before the first card",
                "an ante after the deal began",
                f"{e.player} posts the ante after cards were dealt; antes come first.",
            )
        )
    if state.deal.antes[i]:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                "one ante",
                "a second ante",
                f"{e.player} posts the ante twice.",
            )
        )
    due = setup.ante
    if due is not None and (e.amount > due or (e.amount < due and not e.all_in)):
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                setup.money(due),
                setup.money(e.amount),
                f"The ante is {setup.money(due)}; {e.player} posted {setup.money(e.amount)}.",
            )
        )
    return found


def dealt_without_ante(state: HandState, i: int, e: Dealt) -> list[Finding]:
    """STRUCT-ANTE: nobody is dealt in without posting the ante."""
    setup = state.setup
    if not setup.ante or state.deal.antes[i]:
        return []
    return [
        make_finding(
            setup,
            RuleId.STRUCT_ANTE,
            e.line,
            setup.money(setup.ante),
            "no ante",
            f"{e.player} is dealt in without posting the ante.",
        )
    ]


def bring_in_size(state: HandState, e: BringIn, amount: int) -> list[Finding]:
    """STRUCT-BRINGIN-SIZE: the known bring-in, else more than the ante, less than the small bet."""
    setup = state.setup
    money = setup.money
    expected = setup.bring_in
    if expected is not None and (amount > expected or (amount < expected and not e.all_in)):
        want, problem = money(expected), f"The bring-in is {money(expected)}"
    elif not e.all_in and amount >= setup.small_bet:
        want = f"less than {money(setup.small_bet)}"
        problem = f"The bring-in must be smaller than the small bet ({money(setup.small_bet)})"
    elif (
        not e.all_in
        and setup.ante is not None
        and (amount < setup.ante or (amount == setup.ante and setup.ruleset.bring_in_over_ante))
    ):
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


def bet_size(state: HandState, line: int, name: str, amount: int, all_in: bool) -> list[Finding]:
    """STRUCT-SMALL, STRUCT-BIG, STRUCT-NO-DOUBLE: an opening bet is one unit of its street."""
    setup, street = state.setup, state.street
    unit = setup.bet_unit(street)
    if amount == unit or (all_in and amount < unit):
        return []
    money = setup.money
    if street is Street.FOURTH and amount == setup.big_bet:
        return [
            make_finding(
                setup,
                RuleId.STRUCT_NO_DOUBLE,
                line,
                money(unit),
                money(amount),
                f"Razz has no double bet on 4th street: {name}'s bet is one small bet"
                f" ({money(unit)}), not {money(amount)}.",
            )
        ]
    big = street in BIG_BET_STREETS
    return [
        make_finding(
            setup,
            RuleId.STRUCT_BIG if big else RuleId.STRUCT_SMALL,
            line,
            money(unit),
            money(amount),
            f"A bet on {street} street is one {'big' if big else 'small'} bet ({money(unit)});"
            f" {name} bet {money(amount)}.",
        )
    ]


def raise_over_cap(state: HandState, name: str, line: int) -> list[Finding]:
    """STRUCT-CAP: no raise once the round has its bet and the ruleset's raises."""
    if not capped(state):
        return []
    max_raises = state.setup.ruleset.max_raises
    return [
        make_finding(
            state.setup,
            RuleId.STRUCT_CAP,
            line,
            "fold or call",
            "raise",
            f"The betting is capped at a bet and {max_raises} raises; {name} cannot raise again.",
            # a warning only where the ruleset's cap heads-up is not settled by its evidence
            Severity.WARNING
            if heads_up(state) and not state.setup.ruleset.settles("cap_heads_up")
            else Severity.ERROR,
        )
    ]


def cap_line(state: HandState, e: BettingCapped) -> tuple[Finding, ...]:
    """STRUCT-CAP: `Betting is capped` comes when the cap is reached, and not heads-up where
    the ruleset lifts it."""
    setup, rnd = state.setup, state.round
    max_raises, bets = setup.ruleset.max_raises, cap(setup.ruleset)
    if state.phase is not BETTING or bets is None or rnd.bets < bets:
        limit = "no cap" if max_raises is None else f"a bet and {max_raises} raises"
        return (
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                e.line,
                limit,
                f"capped after {rnd.bets} bets",
                f"The log says the betting is capped after {rnd.bets} bets; the cap is {limit}.",
            ),
        )
    if not cap_applies(state):
        return (
            make_finding(
                setup,
                RuleId.STRUCT_CAP,
                e.line,
                "no cap heads-up",
                "capped",
                "The log caps the betting heads-up, where this ruleset lifts the cap.",
                Severity.ERROR if setup.ruleset.settles("cap_heads_up") else Severity.WARNING,
            ),
        )
    return NO_FINDINGS


def missing_cap_line(state: HandState, line: int) -> list[Finding]:
    """STRUCT-CAP (warning): a round that reached its cap says `Betting is capped`."""
    rnd = state.round
    if not rnd.cap_at or rnd.capped_line or not state.setup.dialect.cap_line:
        return []
    return [
        make_finding(
            state.setup,
            RuleId.STRUCT_CAP,
            line,
            "Betting is capped",
            "no cap line",
            "The round reached its cap but the log never says `Betting is capped`.",
            Severity.WARNING,
        )
    ]
