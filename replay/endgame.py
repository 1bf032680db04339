"""The end of the hand: uncalled bets, the showdown, shows and mucks, collections, the summary.

Rules checked here as the lines come: ACT-UNCALLED, DEAL-COUNT, DEAL-UNIQUE, LOG-CARDS,
LOG-DESC, SHOW-ORDER (who may show), POT-SIDE (who may collect) and LOG-SUMMARY (the board).
What needs the whole hand (winners, amounts, show order, the summary lines) is in `closing`.
"""

from __future__ import annotations

from razz.parser.events import (
    Board,
    Collect,
    HandCancelled,
    Muck,
    SeatResult,
    Show,
    ShowDown,
    Summary,
    TotalPot,
    UncalledBet,
)
from razz.replay.cards import RANK
from razz.replay.dealing import bad_tokens, learn_cards
from razz.replay.findings import Finding
from razz.replay.lowhand import description_matches, lo_text
from razz.replay.rules import RuleId
from razz.replay.state import (
    NO_FINDINGS,
    HandState,
    Phase,
    collected,
    evolve,
    in_hand,
    make_finding,
    set_deal,
    take_back,
    uncalled,
    with_cards,
    with_player,
    with_record,
    with_seen,
)
from razz.replay.transitions import end_round

Result = tuple[HandState, tuple[Finding, ...]]


def _done(state: HandState, found: list[Finding]) -> Result:
    return state, tuple(found) if found else NO_FINDINGS


def _betting_over(state: HandState) -> bool:
    return (
        state.phase is not Phase.BETTING
        or state.round.to_act is None
        or sum(1 for p in state.players if in_hand(p)) <= 1
    )


def on_uncalled(state: HandState, e: UncalledBet) -> Result:
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return state, (
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "a seated player",
                e.player,
                f"An uncalled bet is returned to {e.player}, who has no seat in this hand.",
            ),
        )
    found: list[Finding] = []
    pending = uncalled(state) if _betting_over(state) else None
    if pending is None:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "nothing returned",
                f"{setup.money(e.amount)} returned to {e.player}",
                f"Every bet was called, so nothing is returned to {e.player}.",
            )
        )
    elif pending != (i, e.amount):
        owner, amount = pending
        found.append(
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                f"{setup.money(amount)} returned to {setup.name(owner)}",
                f"{setup.money(e.amount)} returned to {e.player}",
                f"The bet nobody called is {setup.name(owner)}'s {setup.money(amount)}; the log"
                f" returns {setup.money(e.amount)} to {e.player}.",
            )
        )
    p = state.players[i]
    amount = max(0, min(e.amount, p.street_bet))
    state = with_player(state, i, take_back(p, amount))
    state = with_record(state, returned=(*state.record.returned, (i, amount, e.line)))
    return _done(state, found)


def on_showdown(state: HandState, e: ShowDown) -> Result:
    state, found = end_round(state, e.line)
    left = [i for i, p in enumerate(state.players) if in_hand(p)]
    if len(left) <= 1:
        who = state.setup.name(left[0]) if left else "nobody"
        found.append(
            make_finding(
                state.setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "no showdown",
                "*** SHOW DOWN ***",
                f"Only {who} is left, so the hand ends without a showdown.",
            )
        )
    state = evolve(state, phase=Phase.SHOWDOWN)
    return _done(with_record(state, showdown_line=e.line), found)


def on_show(state: HandState, e: Show) -> Result:
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return state, (
            make_finding(
                setup,
                RuleId.LOG_CARDS,
                e.line,
                "a seated player",
                e.player,
                f"{e.player} shows cards but has no seat in this hand.",
            ),
        )
    found = bad_tokens(state, e.cards, e.line)
    p = state.players[i]
    at_showdown = state.record.showdown_line > 0
    community = state.deal.community
    if at_showdown and p.folded:
        found.append(
            make_finding(
                setup,
                RuleId.SHOW_ORDER,
                e.line,
                "players still in the hand",
                e.player,
                f"{e.player} folded; only the players left in the hand show down.",
            )
        )
    elif at_showdown:
        want = 6 if community else 7
        if len(e.cards) != want:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_COUNT,
                    e.line,
                    f"{want} cards",
                    f"{len(e.cards)} cards",
                    f"A hand at the showdown holds {want} cards"
                    f"{' and the community card' if community else ''}; {e.player} shows"
                    f" {len(e.cards)}.",
                )
            )
    elif len(e.cards) > max(len(p.cards), 3):
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                f"at most {len(p.cards)} cards",
                f"{len(e.cards)} cards",
                f"{e.player} shows {len(e.cards)} cards but was dealt {len(p.cards)}.",
            )
        )
    cards, seen = learn_cards(state, i, e.cards, 0, e.line, RuleId.LOG_CARDS, found)
    state = with_player(state, i, with_cards(p, cards) if p.dealt_in else p)
    state = set_deal(state, with_seen(state.deal, seen))
    shown = [c for c in e.cards if c in RANK]
    hand = [*shown, community] if community and len(shown) == 6 else shown
    if (
        e.description is not None
        and setup.dialect.lo_description
        and not description_matches(e.description, hand)
    ):
        low = lo_text(hand)
        found.append(
            make_finding(
                setup,
                RuleId.LOG_DESC,
                e.line,
                f"Lo: {low}",
                e.description,
                f"{e.player}'s cards make Lo: {low}, not what the log writes ({e.description}).",
            )
        )
    record = state.record
    shows = (*record.shows, (i, True, e.line)) if at_showdown else record.shows
    return _done(with_record(state, shows=shows, shown=record.shown | {i}), found)


def on_muck(state: HandState, e: Muck) -> Result:
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None or state.record.showdown_line == 0:
        return state, NO_FINDINGS
    found: list[Finding] = []
    if state.players[i].folded:
        found.append(
            make_finding(
                setup,
                RuleId.SHOW_ORDER,
                e.line,
                "players still in the hand",
                e.player,
                f"{e.player} folded earlier; only the players left in the hand show or muck.",
            )
        )
    return _done(with_record(state, shows=(*state.record.shows, (i, False, e.line))), found)


def on_collect(state: HandState, e: Collect) -> Result:
    state, found = end_round(state, e.line)
    if state.phase in (Phase.BETTING, Phase.DEALING):
        state = evolve(state, phase=Phase.SHOWDOWN)
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        found.append(
            make_finding(
                setup,
                RuleId.POT_SIDE,
                e.line,
                "a player in the hand",
                e.player,
                f"{e.player} collects a pot but has no seat in this hand.",
            )
        )
        return _done(state, found)
    p = state.players[i]
    if not in_hand(p):
        found.append(
            make_finding(
                setup,
                RuleId.POT_SIDE,
                e.line,
                "a player in the hand",
                e.player,
                f"{e.player} folded and cannot win a pot.",
            )
        )
    state = with_player(state, i, collected(p, e.amount))
    return _done(with_record(state, collects=(*state.record.collects, (i, e))), found)


def on_summary(state: HandState, e: Summary) -> Result:
    state, found = end_round(state, e.line)
    state = evolve(state, phase=Phase.SUMMARY)
    return _done(with_record(state, summary_line=e.line), found)


def on_total(state: HandState, e: TotalPot) -> Result:
    return with_record(state, total=e), NO_FINDINGS


def on_board(state: HandState, e: Board) -> Result:
    community = state.deal.community
    found: list[Finding] = []
    if tuple(e.cards) != ((community,) if community else ()):
        found.append(
            make_finding(
                state.setup,
                RuleId.LOG_SUMMARY,
                e.line,
                f"Board [{community}]" if community else "no board",
                f"Board [{' '.join(e.cards)}]",
                "The summary's board is not the community card dealt on the river.",
            )
        )
    return _done(with_record(state, board=e), found)


def on_seat_result(state: HandState, e: SeatResult) -> Result:
    setup = state.setup
    found: list[Finding] = []
    i = setup.index.get(e.player)
    if i is not None and e.cards:
        found += bad_tokens(state, e.cards, e.line)
        cards, seen = learn_cards(state, i, e.cards, 0, e.line, RuleId.LOG_SUMMARY, found)
        p = state.players[i]
        state = with_player(state, i, with_cards(p, cards) if p.dealt_in else p)
        state = set_deal(state, with_seen(state.deal, seen))
    return _done(with_record(state, seat_results=(*state.record.seat_results, e)), found)


def on_cancelled(state: HandState, e: HandCancelled) -> Result:
    return with_record(state, cancelled=True), NO_FINDINGS
