"""The checks that need the whole hand: pots and winners, the rake, the show order, the summary.

Rules checked here: HAND-LOW, HAND-PAIRS, HAND-COMPARE, WIN-NOQUAL, WIN-SPLIT, POT-SIDE,
POT-RAKE, SHOW-ORDER, LOG-SUMMARY and LOG-DESC (summary descriptions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from razz.parser.events import Outcome, Street
from razz.parser.sites.base import SeatSummary
from razz.replay.cards import RANK
from razz.replay.findings import Finding, Severity
from razz.replay.lowhand import (
    best_five,
    description_matches,
    is_straight,
    lo_text,
    low_value,
    shape_of,
    value_aces_high,
)
from razz.replay.order import show_order
from razz.replay.pots import (
    PotAward,
    Settlement,
    best_hands,
    hand_values,
    pots_of,
    split_pot,
    split_rake,
)
from razz.replay.rules import RuleId
from razz.replay.state import (
    HandState,
    Phase,
    in_hand,
    make_finding,
    pot_total,
    take_back,
    uncalled,
    with_player,
)
from razz.replay.transitions import end_round

EMPTY_SETTLEMENT = Settlement((), 0, 0, None)


def settle_state(
    state: HandState,
    rake: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
    per_pot: Mapping[int, int] | None = None,
) -> Settlement:
    """Pots, winners and shares of a finished hand.

    A bet still uncalled is returned first. Contenders are the players left who did not muck
    at the showdown; a pot whose contenders' cards are not all known has no winners (`()`).
    `per_pot` gives the amount actually paid from some pots, which then replaces their share
    of the rake.
    """
    pending = (
        uncalled(state) if state.round.to_act is None or state.phase is not Phase.BETTING else None
    )
    returned = None
    if pending is not None:
        i, amount = pending
        state = with_player(state, i, take_back(state.players[i], amount))
        returned = (state.setup.name(i), amount)
    players, setup = state.players, state.setup
    pots = pots_of(
        [p.committed for p in players],
        [not in_hand(p) for p in players],
        [p.all_in for p in players],
    )
    live = [i for i, p in enumerate(players) if in_hand(p)]
    mucked = {i for i, showed, _ in state.record.shows if not showed}
    contenders = [i for i in live if i not in mucked]
    cards = {i: tuple(hands[i]) if hands and i in hands else players[i].cards for i in contenders}
    values = hand_values(cards, state.deal.community)
    rakes = split_rake([pot.amount for pot in pots], rake)
    awards = []
    for pot, pot_rake in zip(pots, rakes, strict=True):
        eligible = [i for i in pot.eligible if i in contenders]
        if len(live) == 1:
            winners = live
        elif len(eligible) == 1:
            winners = eligible
        elif eligible and all(i in values for i in eligible):
            winners = best_hands(values, eligible)
        else:
            winners = []
        paid = per_pot[pot.index] if per_pot and pot.index in per_pot else pot.amount - pot_rake
        shares = split_pot(paid, winners, setup.ruleset, cards)
        awards.append(
            PotAward(
                pot.index,
                pot.amount,
                pot.amount - paid,
                tuple(setup.name(i) for i in pot.eligible),
                tuple(setup.name(i) for i in sorted(shares)),
                tuple(shares[i] for i in sorted(shares)),
            )
        )
    return Settlement(tuple(awards), sum(p.committed for p in players), rake, returned)


def finish(state: HandState, last_line: int) -> tuple[HandState, list[Finding], Settlement]:
    """Run the end-of-hand checks; return the final state, their findings and the settlement."""
    if state.record.cancelled:
        return state, [], EMPTY_SETTLEMENT
    found: list[Finding] = []
    if state.phase in (Phase.DEALING, Phase.BETTING):
        state, found = end_round(state, last_line)
    record = state.record
    pot_sum = pot_total(state)
    collected_sum = sum(c.amount for _, c in record.collects)
    if record.total is not None:
        rake = record.total.rake
    else:
        rake = max(0, pot_sum - collected_sum) if record.collects else 0
    line = record.summary_line or last_line
    expected = settle_state(state, rake)
    by_pot, first_line, label_found = _collects_by_pot(state, len(expected.pots))
    found += label_found
    found += _check_pots(state, expected, by_pot, first_line, line)
    found += _check_total(state, expected, by_pot, pot_sum, collected_sum)
    found += _check_show_order(state, expected)
    found += _check_summary(state, last_line)
    # Where the log paid exactly the right players, its per-pot amounts replace our rake split.
    per_pot = {
        award.index: paid
        for award in expected.pots
        if award.index in by_pot
        and (paid := sum(by_pot[award.index].values())) != award.amount - award.rake
        and set(award.winners) == {state.setup.name(i) for i in by_pot[award.index]}
    }
    settlement = settle_state(state, rake, per_pot=per_pot) if per_pot else expected
    return state, found, settlement


def _collects_by_pot(
    state: HandState, n_pots: int
) -> tuple[dict[int, dict[int, int]], dict[int, int], list[Finding]]:
    setup = state.setup
    by_pot: dict[int, dict[int, int]] = {}
    first_line: dict[int, int] = {}
    found: list[Finding] = []
    previous_side = None
    for i, c in state.record.collects:
        k = c.side or 0
        if k >= max(n_pots, 1):
            found.append(
                make_finding(
                    setup,
                    RuleId.POT_SIDE,
                    c.line,
                    f"{n_pots} pot{'s' if n_pots != 1 else ''}",
                    c.pot_label,
                    f"There is no {c.pot_label} in this hand: the stacks make {n_pots} pot"
                    f"{'s' if n_pots != 1 else ''}.",
                )
            )
            continue
        if n_pots > 1 and c.pot_label == "pot":
            found.append(
                make_finding(
                    setup,
                    RuleId.POT_SIDE,
                    c.line,
                    "main pot or side pot",
                    "pot",
                    "With side pots each collection names the main pot or its side pot.",
                    Severity.WARNING,
                )
            )
        if previous_side is not None and k > previous_side:
            found.append(
                make_finding(
                    setup,
                    RuleId.SHOW_ORDER,
                    c.line,
                    "the last side pot first, the main pot last",
                    c.pot_label,
                    "PokerStars settles the pots from the last side pot down to the main pot.",
                    Severity.WARNING,
                )
            )
        previous_side = k
        pot = by_pot.setdefault(k, {})
        pot[i] = pot.get(i, 0) + c.amount
        first_line.setdefault(k, c.line)
    return by_pot, first_line, found


def _cards_of(state: HandState, i: int) -> list[str]:
    cards = [c for c in state.players[i].cards if c]
    community = state.deal.community
    if community and len(cards) == 6:
        cards.append(community)
    return cards


def _check_pots(
    state: HandState,
    expected: Settlement,
    by_pot: dict[int, dict[int, int]],
    first_line: dict[int, int],
    fallback_line: int,
) -> list[Finding]:
    setup = state.setup
    money = setup.money
    found: list[Finding] = []
    collect_line = {(i, c.side or 0): c.line for i, c in state.record.collects}
    for award in expected.pots:
        k = award.index
        actual = by_pot.get(k, {})
        line = first_line.get(k, fallback_line)
        pot_name = (
            "the pot"
            if len(expected.pots) == 1
            else ("the main pot" if k == 0 else f"side pot {k}")
        )
        eligible = {setup.index[n] for n in award.eligible}
        for i in actual:
            if i not in eligible and in_hand(state.players[i]):
                found.append(
                    make_finding(
                        setup,
                        RuleId.POT_SIDE,
                        collect_line.get((i, k), line),
                        ", ".join(award.eligible),
                        setup.name(i),
                        f"{setup.name(i)} did not put in enough to play for {pot_name}, so they"
                        " cannot win it.",
                    )
                )
        if sum(actual.values()) > award.amount:
            found.append(
                make_finding(
                    setup,
                    RuleId.POT_SIDE,
                    line,
                    f"at most {money(award.amount)}",
                    money(sum(actual.values())),
                    f"{pot_name.capitalize()} holds {money(award.amount)}, but"
                    f" {money(sum(actual.values()))} is collected from it.",
                )
            )
        if not award.winners:
            continue  # a contender's cards are unknown: the winner cannot be checked
        winners = [setup.index[n] for n in award.winners]
        if not actual:
            if award.amount - award.rake > 0:
                found.append(
                    make_finding(
                        setup,
                        RuleId.WIN_NOQUAL,
                        fallback_line,
                        ", ".join(award.winners),
                        "nobody",
                        f"Nobody collects {pot_name}; there is no qualifier, so the best low"
                        f" ({', '.join(award.winners)}) wins it.",
                    )
                )
            continue
        got, want = set(actual), set(winners)
        if got == want:
            paid = split_pot(
                sum(actual.values()),
                winners,
                setup.ruleset,
                {i: _cards_of(state, i) for i in winners},
            )
            if actual != paid:
                odd_only = sorted(actual.values()) == sorted(paid.values())
                found.append(
                    make_finding(
                        setup,
                        RuleId.WIN_SPLIT,
                        line,
                        ", ".join(f"{setup.name(i)} {money(a)}" for i, a in sorted(paid.items())),
                        ", ".join(f"{setup.name(i)} {money(a)}" for i, a in sorted(actual.items())),
                        "Tied hands split the pot equally; the odd chip goes by the room's rule."
                        if odd_only
                        else "Tied hands split the pot equally.",
                        Severity.WARNING if odd_only else Severity.ERROR,
                    )
                )
            continue
        for i in sorted(got - want):
            if i not in eligible:
                continue  # reported above (POT-SIDE)
            at = collect_line.get((i, k), line)
            if want <= got:
                found.append(
                    make_finding(
                        setup,
                        RuleId.WIN_NOQUAL,
                        at,
                        ", ".join(award.winners),
                        setup.name(i),
                        f"The best low ({', '.join(award.winners)}) takes the whole of"
                        f" {pot_name}; {setup.name(i)} gets no share.",
                    )
                )
            else:
                found.append(_wrong_winner(state, i, winners[0], at, pot_name))
        if got < want:
            missing = ", ".join(setup.name(i) for i in sorted(want - got))
            found.append(
                make_finding(
                    setup,
                    RuleId.WIN_SPLIT,
                    line,
                    ", ".join(award.winners),
                    ", ".join(setup.name(i) for i in sorted(got)),
                    f"{missing} ties for the best low and must share {pot_name}.",
                )
            )
    return found


def _wrong_winner(state: HandState, i: int, w: int, line: int, pot_name: str) -> Finding:
    """The rule a log breaks by paying player `i` a pot that player `w` wins."""
    setup = state.setup
    name, winner = setup.name(i), setup.name(w)
    mine, theirs = _cards_of(state, i), _cards_of(state, w)
    want_text = f"Lo: {lo_text(theirs)}"
    if len(mine) < 7:
        return make_finding(
            setup,
            RuleId.HAND_COMPARE,
            line,
            winner,
            name,
            f"{name} collects {pot_name} without showing a hand that beats {winner}'s {want_text}.",
        )
    have_text = f"Lo: {lo_text(mine)}"
    mv, tv = low_value(mine), low_value(theirs)
    if mv == tv:
        return make_finding(
            setup,
            RuleId.WIN_SPLIT,
            line,
            f"{winner} and {name} split",
            name,
            f"{winner} and {name} hold equal lows ({want_text}); suits never break a tie.",
        )
    if shape_of(mv) != shape_of(tv):
        return make_finding(
            setup,
            RuleId.HAND_PAIRS,
            line,
            winner,
            name,
            f"{winner}'s {want_text} beats {name}'s {have_text}: fewer pairs always make the"
            " better low.",
        )
    if value_aces_high(mine) < value_aces_high(theirs) or is_straight(
        best_five([RANK[c] for c in theirs])
    ):
        return make_finding(
            setup,
            RuleId.HAND_LOW,
            line,
            winner,
            name,
            f"Aces are low and straights and flushes do not count, so {winner}'s {want_text}"
            f" beats {name}'s {have_text}.",
        )
    return make_finding(
        setup,
        RuleId.HAND_COMPARE,
        line,
        winner,
        name,
        f"Lows compare from the highest card down: {winner}'s {want_text} beats {name}'s"
        f" {have_text}.",
    )


def _check_total(
    state: HandState,
    expected: Settlement,
    by_pot: dict[int, dict[int, int]],
    pot_sum: int,
    collected_sum: int,
) -> list[Finding]:
    setup, record = state.setup, state.record
    money = setup.money
    total = record.total
    if total is None:
        if record.summary_line and setup.dialect.total_pot:
            return [
                make_finding(
                    setup,
                    RuleId.POT_RAKE,
                    record.summary_line,
                    f"Total pot {money(pot_sum)}",
                    "no total",
                    "The summary does not give the total pot and the rake.",
                )
            ]
        return []
    found: list[Finding] = []
    if total.total is None:  # the summary gives the rake only (KingsClub)
        return found
    if total.total != pot_sum:
        found.append(
            make_finding(
                setup,
                RuleId.POT_RAKE,
                total.line,
                money(pot_sum),
                money(total.total),
                f"Everything put in makes a pot of {money(pot_sum)}; the summary says"
                f" {money(total.total)}.",
            )
        )
    if total.rake < 0 or total.rake > total.total:
        found.append(
            make_finding(
                setup,
                RuleId.POT_RAKE,
                total.line,
                f"between {money(0)} and {money(total.total)}",
                money(total.rake),
                f"A rake of {money(total.rake)} cannot come out of a pot of {money(total.total)}.",
            )
        )
    elif record.collects and collected_sum != total.total - total.rake:
        found.append(
            make_finding(
                setup,
                RuleId.POT_RAKE,
                total.line,
                money(total.total - total.rake),
                money(collected_sum),
                f"The winners collect {money(collected_sum)}, but the pot minus the rake is"
                f" {money(total.total)} - {money(total.rake)} = {money(total.total - total.rake)}.",
            )
        )
    if total.main is not None:
        listed = (total.main, *total.sides)
        if len(listed) != len(expected.pots):
            found.append(
                make_finding(
                    setup,
                    RuleId.POT_SIDE,
                    total.line,
                    f"{len(expected.pots)} pots",
                    f"{len(listed)} pots",
                    f"The stacks make {len(expected.pots)} pot(s); the summary lists {len(listed)}.",
                )
            )
        else:
            for award, amount in zip(expected.pots, listed, strict=True):
                paid = sum(by_pot[award.index].values()) if award.index in by_pot else None
                want = paid if paid is not None else award.amount - award.rake
                if amount != want:
                    name = "main pot" if award.index == 0 else f"side pot {award.index}"
                    found.append(
                        make_finding(
                            setup,
                            RuleId.POT_SIDE,
                            total.line,
                            money(want),
                            money(amount),
                            f"The {name} pays {money(want)} after rake; the summary lists"
                            f" {money(amount)}.",
                        )
                    )
    return found


def _check_show_order(state: HandState, expected: Settlement) -> list[Finding]:
    record, setup = state.record, state.setup
    if not record.showdown_line or not record.shows:
        return []
    contenders = [i for i, p in enumerate(state.players) if in_hand(p)]
    eligible = [[setup.index[n] for n in award.eligible] for award in expected.pots]
    order = show_order(state, contenders, eligible)
    seen: list[tuple[int, int]] = []
    for i, _, line in record.shows:
        # A folded player who shows was reported when they showed (SHOW-ORDER).
        if i in contenders and all(i != j for j, _ in seen):
            seen.append((i, line))
    actual = [i for i, _ in seen]
    want = [i for i in order if i in actual]
    all_in = any(state.players[i].all_in for i in contenders)
    for (i, line), j in zip(seen, want, strict=True):
        if i != j:
            aggressor = state.round.aggressor
            why = (
                f"{setup.name(aggressor)} made the last bet or raise"
                if aggressor is not None and aggressor in contenders
                else "with no bet on the last round the earliest seat shows first"
            )
            return [
                make_finding(
                    setup,
                    RuleId.SHOW_ORDER,
                    line,
                    setup.name(j),
                    setup.name(i),
                    f"{setup.name(j)} shows before {setup.name(i)} ({why}; then clockwise).",
                    Severity.WARNING if len(expected.pots) > 1 or all_in else Severity.ERROR,
                )
            ]
    return []


def _check_summary(state: HandState, last_line: int) -> list[Finding]:
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
    money = setup.money
    won: dict[int, int] = {}
    for k, c in record.collects:
        won[k] = won.get(k, 0) + c.amount
    found: list[Finding] = []
    seen: set[int] = set()

    def bad(line: int, want: str, got: str, message: str, sev: Severity = Severity.ERROR) -> None:
        found.append(make_finding(setup, RuleId.LOG_SUMMARY, line, want, got, message, sev))

    for r in record.seat_results:
        i = setup.index.get(r.player)
        if i is None:
            bad(
                r.line,
                "a seated player",
                r.player,
                f"The summary lists {r.player}, who has no seat.",
            )
            continue
        if i in seen:
            bad(r.line, "one line", "a second line", f"The summary lists {r.player} twice.")
            continue
        seen.add(i)
        if setup.seats[i].seat != r.seat:
            bad(
                r.line,
                f"seat {setup.seats[i].seat}",
                f"seat {r.seat}",
                f"{r.player} sits in seat {setup.seats[i].seat}, not seat {r.seat}.",
            )
        p, amount = players[i], won.get(i, 0)
        folded_on = state.deal.folded_on[i]
        if p.folded and r.outcome is not Outcome.FOLDED:
            bad(
                r.line,
                f"folded on the {folded_on} Street",
                str(r.outcome),
                f"{r.player} folded on {folded_on} street.",
            )
            continue
        if r.outcome is Outcome.FOLDED:
            if not p.folded:
                bad(r.line, str(_outcome(state, i, amount)), "folded", f"{r.player} did not fold.")
            elif r.street is not None and r.street is not folded_on:
                bad(
                    r.line,
                    f"folded on {folded_on}",
                    f"folded on {r.street}",
                    f"{r.player} folded on {folded_on} street, not on {r.street} street.",
                )
            elif r.street is Street.THIRD and dialect.didnt_bet:
                didnt_bet = p.committed == state.deal.antes[i]
                if r.didnt_bet != didnt_bet:
                    bad(
                        r.line,
                        "(didn't bet)" if didnt_bet else "no (didn't bet)",
                        "(didn't bet)" if r.didnt_bet else "no (didn't bet)",
                        f"{r.player} {'put nothing' if didnt_bet else 'put chips'} in the pot"
                        " beyond the ante before folding.",
                        Severity.WARNING,
                    )
            continue
        if r.outcome in (Outcome.COLLECTED, Outcome.SHOWED_WON):
            if amount == 0:
                bad(
                    r.line,
                    "nothing won",
                    f"won {money(r.amount)}",
                    f"{r.player} collected nothing.",
                )
            elif r.amount is not None and r.amount != amount:
                bad(
                    r.line,
                    money(amount),
                    money(r.amount),
                    f"{r.player} collected {money(amount)}, not {money(r.amount)}.",
                )
        elif amount > 0:
            bad(
                r.line,
                f"won {money(amount)}",
                str(r.outcome),
                f"{r.player} collected {money(amount)} and did not lose.",
            )
        if r.outcome in (Outcome.SHOWED_WON, Outcome.SHOWED_LOST) and i not in record.shown:
            bad(r.line, "no cards shown", "showed", f"{r.player} showed no cards in the hand.")
        if (
            r.description is not None
            and r.outcome in (Outcome.SHOWED_WON, Outcome.SHOWED_LOST)
            and dialect.lo_description
        ):
            cards = _cards_of(state, i)
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
    for i, p in enumerate(players):
        if dialect.seat_summary is SeatSummary.NONE:
            break
        if dialect.seat_summary is SeatSummary.WINNERS and not won.get(i):
            continue
        if p.dealt_in and i not in seen:
            bad(
                record.summary_line,
                f"a line for {setup.name(i)}",
                "none",
                f"The summary has no line for {setup.name(i)}, who was dealt in.",
            )
    return found


def _outcome(state: HandState, i: int, amount: int) -> str:
    if amount:
        return "won"
    return "lost" if state.record.showdown_line else "in the hand"
