"""Showdown and the pot: SHOW-ORDER, HAND-LOW, HAND-PAIRS, HAND-COMPARE, WIN-NOQUAL,
WIN-SPLIT, POT-SIDE and POT-RAKE.

Line by line: only players still in the hand show, muck or collect. Once the hand is over
(`end_of_hand`): each pot goes to its best eligible low, ties split with the odd chip by the
ruleset, the summary's total is every contribution and the winners get it less the rake, and
the last bettor shows first.
"""

from __future__ import annotations

from dataclasses import replace

from razz.parser.events import Collect, Muck, Street
from razz.replay.checks.log import cards_of as _cards_of
from razz.replay.findings import Finding, Severity
from razz.replay.lowhand import lo_text, low_value, misreading
from razz.replay.order import show_order
from razz.replay.pots import Settlement, split_pot
from razz.replay.rules import RuleId
from razz.replay.state import NO_FINDINGS, HandState, in_hand, make_finding, pot_total


def folded_shows(state: HandState, name: str, i: int, line: int, mucks: bool) -> list[Finding]:
    """SHOW-ORDER: only the players left in the hand show (or muck) at the showdown."""
    if not state.players[i].folded:
        return []
    if mucks:
        message = f"{name} folded earlier; only the players left in the hand show or muck."
    else:
        message = f"{name} folded; only the players left in the hand show down."
    return [
        make_finding(
            state.setup, RuleId.SHOW_ORDER, line, "players still in the hand", name, message
        )
    ]


def mucked(state: HandState, e: Muck) -> tuple[Finding, ...] | list[Finding]:
    """SHOW-ORDER of a `mucks hand` line at the showdown."""
    i = state.setup.index.get(e.player)
    if i is None or state.record.showdown_line == 0:
        return NO_FINDINGS
    return folded_shows(state, e.player, i, e.line, mucks=True)


def collector(state: HandState, e: Collect) -> tuple[Finding, ...]:
    """POT-SIDE: only a player still in the hand collects a pot."""
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return (
            make_finding(
                setup,
                RuleId.POT_SIDE,
                e.line,
                "a player in the hand",
                e.player,
                f"{e.player} collects a pot but has no seat in this hand.",
            ),
        )
    if in_hand(state.players[i]):
        return NO_FINDINGS
    return (
        make_finding(
            setup,
            RuleId.POT_SIDE,
            e.line,
            "a player in the hand",
            e.player,
            f"{e.player} folded and cannot win a pot.",
        ),
    )


def end_of_hand(state: HandState, expected: Settlement, last_line: int) -> list[Finding]:
    """The pots (labels, winners, amounts), the total and the show order of a finished hand,
    against `expected`, the settlement the rules give."""
    record = state.record
    if not record.collects and not state.setup.dialect.payouts:
        # The log does not state what was paid (a PHH hand without `winnings` or
        # `finishing_stacks`): nothing to hold the payment to, only the show order.
        return _check_show_order(state, expected)
    by_pot, first_line, found = _collects_by_pot(state, expected)
    line = record.summary_line or last_line
    found += _check_pots(state, expected, by_pot, first_line, line)
    collected_sum = sum(c.amount for _, c in record.collects)
    found += _check_total(state, expected, by_pot, pot_total(state), collected_sum)
    found += _check_show_order(state, expected)
    return found


def _collects_by_pot(
    state: HandState, expected: Settlement
) -> tuple[dict[int, dict[int, int]], dict[int, int], list[Finding]]:
    setup = state.setup
    n_pots = len(expected.pots)
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
                    f"Under the {setup.ruleset.title} ruleset the pots are settled from the"
                    " last side pot down to the main pot.",
                    Severity.WARNING,
                )
            )
        previous_side = k
        for pot_k, amount in _spread(setup.name(i), c.amount, k, expected, c.pot_label):
            pot = by_pot.setdefault(pot_k, {})
            pot[i] = pot.get(i, 0) + amount
            first_line.setdefault(pot_k, c.line)
    return by_pot, first_line, found


def _spread(
    name: str, amount: int, k: int, expected: Settlement, label: str
) -> list[tuple[int, int]]:
    """The pots one collection pays. A collection from an unnamed `pot` when there are side
    pots (KingsClub writes one `wins pot (4,100)` for a main and a side pot) pays, in order,
    the share of each pot its player wins while it lasts; the rest stays on the main pot."""
    if label != "pot" or len(expected.pots) < 2:
        return [(k, amount)]
    out: dict[int, int] = {}
    for award in expected.pots:
        if name in award.winners and amount > 0:
            share = min(amount, award.shares[award.winners.index(name)])
            out[award.index] = share
            amount -= share
    if amount or not out:
        out[0] = out.get(0, 0) + amount
    return sorted(out.items())


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
        if sum(actual.values()) > award.amount and len(expected.pots) > 1:
            # (one pot: more collected than the pot holds is POT-RAKE, at the collection)
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
            # A contender's cards are unknown (a hand neither shown nor mucked: Winamax writes
            # no muck line): the winner cannot be named, but a collector beaten by a hand
            # shown for the pot is not it, whatever the unknown cards are.
            found += _beaten(state, actual, eligible, collect_line, k, line, pot_name)
            continue
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
            # (the cards place an odd chip, which only two or more winners have)
            cards = {i: _cards_of(state, i) for i in winners} if len(winners) > 1 else {}
            paid = split_pot(sum(actual.values()), winners, setup.ruleset, cards)
            if actual != paid:
                odd_only = sorted(actual.values()) == sorted(paid.values())
                # the line that is wrong: the collection of a winner paid more than their share
                over = next((i for i in sorted(actual) if actual[i] > paid.get(i, 0)), None)
                found.append(
                    make_finding(
                        setup,
                        RuleId.WIN_SPLIT,
                        line if over is None else collect_line.get((over, k), line),
                        ", ".join(f"{setup.name(i)} {money(a)}" for i, a in sorted(paid.items())),
                        ", ".join(f"{setup.name(i)} {money(a)}" for i, a in sorted(actual.items())),
                        "Tied hands split the pot equally; the odd chip goes by the room's rule."
                        if odd_only
                        else "Tied hands split the pot equally.",
                        Severity.WARNING
                        if odd_only and not setup.ruleset.settles("odd_chip")
                        else Severity.ERROR,
                    )
                )
            continue
        extra = [i for i in sorted(got - want) if i in eligible]  # others: POT-SIDE above
        if extra and want <= got:
            # one pot shared with hands that do not win it: one fault, one finding, at the
            # first collection of a player who gets nothing
            names = ", ".join(setup.name(i) for i in extra)
            found.append(
                make_finding(
                    setup,
                    RuleId.WIN_NOQUAL,
                    collect_line.get((extra[0], k), line),
                    ", ".join(award.winners),
                    names,
                    f"The best low ({', '.join(award.winners)}) takes the whole of"
                    f" {pot_name}; {names} {'get' if len(extra) > 1 else 'gets'} no share.",
                )
            )
        elif extra:
            for i in extra:
                at = collect_line.get((i, k), line)
                found.append(_wrong_winner(state, i, winners[0], at, pot_name, eligible))
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


def _beaten(
    state: HandState,
    actual: dict[int, int],
    eligible: set[int],
    collect_line: dict[tuple[int, int], int],
    k: int,
    line: int,
    pot_name: str,
) -> list[Finding]:
    """A wrong winner of a pot with contenders whose cards are unknown: each collector whose
    seven shown cards lose to another contender's seven shown cards."""
    mucked = {i for i, showed, _ in state.record.shows if not showed}
    shown = {
        i: low_value(cards)
        for i in sorted(eligible)
        if in_hand(state.players[i]) and i not in mucked and len(cards := _cards_of(state, i)) == 7
    }
    if len(shown) < 2:
        return []
    best = min(shown, key=lambda i: (shown[i], i))
    return [
        _wrong_winner(state, i, best, collect_line.get((i, k), line), pot_name, set(shown))
        for i in sorted(actual)
        if actual[i] > 0 and i in shown and shown[i] > shown[best]
    ]


def _wrong_winner(
    state: HandState, i: int, w: int, line: int, pot_name: str, eligible: set[int]
) -> Finding:
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
    # the misreading of the rules under which the paid hand wins among every contender
    reading = misreading(mine, theirs, [_cards_of(state, j) for j in sorted(eligible)])
    return make_finding(
        setup,
        RuleId(reading.rule),
        line,
        winner,
        name,
        reading.message(winner, want_text, name, have_text),
    )


def _unraked(state: HandState) -> bool:
    """Whether the room takes no rake from this hand: it ends on 3rd street at a room that
    takes none there (`Ruleset.no_rake_on_third_street`; where its evidence does not settle
    it, a rake that adds up is only a warning)."""
    return state.setup.ruleset.no_rake_on_third_street and state.street is Street.THIRD


def _misstated_rake(
    state: HandState, line: int, rake: int, pot_sum: int, collected_sum: int
) -> Finding:
    """POT-RAKE at the summary's `Rake` when the room cannot have taken that rake."""
    setup = state.setup
    money, ruleset = setup.money, setup.ruleset
    if setup.tournament:
        why = "tournament hands are not raked"
    elif _unraked(state):
        why = f"{ruleset.title} takes no rake from a hand that ends on 3rd street"
    elif ruleset.max_rake_percent is not None:
        why = f"{ruleset.title} takes at most {ruleset.max_rake_percent}% of the pot"
    else:
        why = f"the pot less the collections is {money(pot_sum - collected_sum)}"
    return make_finding(
        setup,
        RuleId.POT_RAKE,
        line,
        f"Rake {money(max(0, pot_sum - collected_sum))}",
        f"Rake {money(rake)}",
        f"The summary takes a rake of {money(rake)} from the pot of {money(pot_sum)}, but {why};"
        f" the winners collect {money(collected_sum)}.",
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
    if total.total is not None and setup.dialect.total_after_rake:
        total = replace(total, total=total.total + total.rake)  # the pot less the rake (Winamax)
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
    elif _unraked(state) and total.rake > 0 and collected_sum == pot_sum - total.rake:
        # the payment agrees with the rake the summary states, but the room takes none here
        found.append(
            make_finding(
                setup,
                RuleId.POT_RAKE,
                total.line,
                f"Rake {money(0)}",
                f"Rake {money(total.rake)}",
                f"{setup.ruleset.title} takes no rake from a hand that ends on 3rd street; the"
                f" summary takes {money(total.rake)} from the pot of {money(pot_sum)}.",
                Severity.ERROR
                if setup.ruleset.settles("no_rake_on_third_street")
                else Severity.WARNING,
            )
        )
    elif record.collects and collected_sum != pot_sum - total.rake:
        # Everything put in is pot_sum (a wrong `Total pot` is reported above, once). Either
        # the rake or a payment is wrong: the rake when it is more than the room ever takes
        # (tournament hands and, at rooms that say so, hands that end on 3rd street take
        # none), else the collection of the winner paid other than their share.
        line = total.line
        limit = setup.ruleset.max_rake_percent
        rake_possible = total.rake == 0 or (
            not setup.tournament
            and not _unraked(state)
            and limit is not None
            and total.rake * 100 <= limit * total.total
        )
        if rake_possible:
            for i, c in record.collects:
                if sum(x.amount for j, x in record.collects if j == i) != expected.won(
                    setup.name(i)
                ):
                    line = c.line
                    break
            found.append(
                make_finding(
                    setup,
                    RuleId.POT_RAKE,
                    line,
                    money(pot_sum - total.rake),
                    money(collected_sum),
                    f"The winners collect {money(collected_sum)}, but the pot minus the rake is"
                    f" {money(pot_sum)} - {money(total.rake)} = {money(pot_sum - total.rake)}.",
                )
            )
        else:
            found.append(_misstated_rake(state, total.line, total.rake, pot_sum, collected_sum))
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
    for (i, line), j in zip(seen, want, strict=True):
        if i != j:
            aggressor = state.round.aggressor
            bet = aggressor is not None and aggressor in contenders
            why = (
                f"{setup.name(aggressor)} made the last bet or raise"
                if bet and aggressor is not None
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
                    # RAZZ_RULES.md SHOW-ORDER: the last bettor shows first (an error, side pots
                    # or not); after a checked last round real Stars logs do not always follow
                    # seat order, so a deviation there is only a warning.
                    Severity.ERROR if bet else Severity.WARNING,
                )
            ]
    return []
