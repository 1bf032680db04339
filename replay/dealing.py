"""Antes, street markers and `Dealt to` lines: what they must say, and what they change.

Rules checked here: STRUCT-ANTE, DEAL-3RD, DEAL-UP, DEAL-7TH, DEAL-COMMUNITY, DEAL-UNIQUE,
DEAL-COUNT, LOG-CARDS, LOG-STACK (antes), ACT-UNCALLED (a street after the hand is decided).
"""

from __future__ import annotations

from collections.abc import Sequence

from razz.parser.events import STREETS, UNKNOWN_CARD, Dealt, PostAnte, Street, StreetStart
from razz.replay.cards import BIT, DECK, RANK
from razz.replay.findings import Finding
from razz.replay.rules import RuleId
from razz.replay.state import (
    EMPTY_ROUND,
    NO_FINDINGS,
    NUMBER,
    UNKNOWN,
    Deal,
    HandSetup,
    HandState,
    Phase,
    PlayerState,
    evolve,
    in_hand,
    make_finding,
    new_tuple,
    posted_ante,
    street_reset,
    with_ante,
    with_cards,
    with_player,
    with_seen,
)
from razz.replay.transitions import end_round

_HIDDEN_DOWN = (UNKNOWN_CARD, UNKNOWN_CARD)

_DEAL_RULE = {
    Street.THIRD: RuleId.DEAL_3RD,
    Street.FOURTH: RuleId.DEAL_UP,
    Street.FIFTH: RuleId.DEAL_UP,
    Street.SIXTH: RuleId.DEAL_UP,
    Street.SEVENTH: RuleId.DEAL_7TH,
}


def stack_findings(
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


def duplicate_of(state: HandState, i: int, position: int, card: str) -> str | None:
    """Who else already holds `card` (or `community`), if anyone: DEAL-UNIQUE."""
    if card == state.deal.community:
        return "the community card"
    for k, p in enumerate(state.players):
        if card in p.cards and (k != i or p.cards.index(card) != position):
            return state.setup.name(k)
    return None


def unique_finding(state: HandState, i: int, card: str, owner: str, line: int) -> Finding:
    name = state.setup.name(i)
    holder = "they already hold it" if owner == name else f"{owner} already holds it"
    return make_finding(
        state.setup,
        RuleId.DEAL_UNIQUE,
        line,
        "a card not yet dealt",
        card,
        f"{card} cannot reach {name}: {holder}, and each card exists once.",
    )


def learn_cards(
    state: HandState,
    i: int,
    cards: Sequence[str],
    offset: int,
    line: int,
    mismatch_rule: RuleId,
    found: list[Finding],
) -> tuple[tuple[str, ...], int]:
    """Player `i`'s cards once `cards` are known at positions `offset`…, and the cards seen.

    Unseen cards are filled in (and must be unique: DEAL-UNIQUE), known ones must repeat
    unchanged (the first change is reported under `mismatch_rule`).
    """
    known = list(state.players[i].cards)
    seen = state.deal.seen
    reported = False
    for k, card in enumerate(cards):
        if card not in RANK:
            continue
        pos = offset + k
        if pos < len(known) and known[pos] == card:
            continue
        if pos < len(known) and known[pos] != UNKNOWN:
            if not reported:
                found.append(
                    make_finding(
                        state.setup,
                        mismatch_rule,
                        line,
                        known[pos],
                        card,
                        f"{state.setup.name(i)}'s card number {pos + 1} was {known[pos]}"
                        f" and is now written {card}.",
                    )
                )
                reported = True
            continue
        if seen & BIT[card]:
            owner = duplicate_of(state, i, pos, card)
            found.append(unique_finding(state, i, card, owner or "another player", line))
        seen |= BIT[card]
        while len(known) <= pos:
            known.append(UNKNOWN)
        known[pos] = card
    return tuple(known), seen


def bad_tokens(state: HandState, tokens: Sequence[str], line: int) -> list[Finding]:
    """LOG-CARDS: every card token must name a card (or be a card the log hides)."""
    return [
        make_finding(
            state.setup,
            RuleId.LOG_CARDS,
            line,
            "a card such as Ah",
            token,
            f"'{token}' is not a card.",
        )
        for token in tokens
        if token not in RANK and token != UNKNOWN_CARD
    ]


def on_ante(state: HandState, e: PostAnte) -> tuple[HandState, tuple[Finding, ...]]:
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return state, (
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                "a seated player",
                e.player,
                f"{e.player} posts an ante but has no seat in this hand.",
            ),
        )
    p = state.players[i]
    found: list[Finding] = []
    if state.phase is not Phase.ANTES:
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
    ante = setup.ante
    if ante is not None and (e.amount > ante or (e.amount < ante and not e.all_in)):
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                setup.money(ante),
                setup.money(e.amount),
                f"The ante is {setup.money(ante)}; {e.player} posted {setup.money(e.amount)}.",
            )
        )
    if e.amount >= p.stack or e.all_in:
        found += stack_findings(setup, e.player, p, e.amount, e.all_in, e.line)
    deal = with_ante(state.deal, i, e.amount)
    players = state.players
    players = (*players[:i], posted_ante(p, e.amount, e.all_in), *players[i + 1 :])
    state = new_tuple(
        HandState, (setup, players, state.phase, state.street, state.round, deal, state.record)
    )
    return state, tuple(found) if found else NO_FINDINGS


def community_status(state: HandState) -> tuple[bool, int, int]:
    """(a community card is needed, cards left in the deck, players left) before 7th street."""
    dealt = sum(len(p.cards) for p in state.players if p.dealt_in)
    left = len(DECK) - dealt
    players = sum(1 for p in state.players if in_hand(p))
    return left < players, left, players


def on_street(state: HandState, e: StreetStart) -> tuple[HandState, tuple[Finding, ...]]:
    setup = state.setup
    state, found = end_round(state, e.line)
    expected = STREETS[0] if state.street is None else _next_street(state.street)
    if e.street is not expected:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                f"{expected} street" if expected else "no more streets",
                f"{e.street} street",
                f"Streets are dealt in order, 3rd to 7th; {e.street} street comes out of turn.",
            )
        )
    n_live = 0
    for p in state.players:
        if p.dealt_in and not p.folded:
            n_live += 1
    if state.street is not None and n_live <= 1:
        found.append(
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "the hand ends",
                f"{e.street} street is dealt",
                "Only one player is left, so the hand is over and no more street is dealt.",
            )
        )
    community = e.community
    if e.street is Street.SEVENTH:
        needed, left, n_live = community_status(state)
        if community is not None and not needed:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_COMMUNITY,
                    e.line,
                    "a river card for each player",
                    f"community card {community}",
                    f"{left} cards were left for {n_live} players, so each gets a river card of"
                    " their own; a community card is only for a deck that runs out.",
                )
            )
        elif community is None and needed:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_COMMUNITY,
                    e.line,
                    "a community card",
                    "no community card",
                    f"Only {left} cards were left for {n_live} players: the river must be one"
                    " community card shared by all.",
                )
            )
    elif community is not None:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COMMUNITY,
                e.line,
                "no community card",
                f"community card {community}",
                "A community card can only replace the river cards on 7th street.",
            )
        )
        community = None
    if community is not None:
        found += bad_tokens(state, (community,), e.line)
        if community in RANK:
            owner = next(
                (setup.name(k) for k, p in enumerate(state.players) if community in p.cards),
                None,
            )
            if owner is not None:
                found.append(
                    make_finding(
                        setup,
                        RuleId.DEAL_UNIQUE,
                        e.line,
                        "a card not yet dealt",
                        community,
                        f"The community card {community} is already held by {owner}.",
                    )
                )
    reset = state.players
    for p in reset:
        if p.street_bet:
            reset = tuple(q if not q.street_bet else street_reset(q) for q in reset)
            break
    d = state.deal
    known = community if community in RANK else None
    deal = Deal(
        d.bring_in,
        d.brought_in,
        d.hero,
        known,
        e.line,
        d.folded_on,
        d.antes,
        d.seen | BIT[known] if known else d.seen,
    )
    state = HandState(setup, reset, Phase.DEALING, e.street, EMPTY_ROUND, deal, state.record)
    return state, tuple(found) if found else NO_FINDINGS


def _next_street(street: Street) -> Street | None:
    k = STREETS.index(street) + 1
    return STREETS[k] if k < len(STREETS) else None


def shown_cards(e: Dealt) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(previous, new) of a `Dealt` line, an opponent's from their first up card on.

    The event keeps every position, an opponent's two hidden down cards included; the checks
    below follow an opponent's cards from the door card (position 3), which is what a
    PokerStars line shows of them.
    """
    previous, new = e.previous, e.new
    if not e.hero:
        if previous[:2] == _HIDDEN_DOWN:
            previous = previous[2:]
        elif e.street is Street.THIRD and len(new) == 3 and new[:2] == _HIDDEN_DOWN:
            new = new[2:]
    return previous, new


def on_dealt(state: HandState, e: Dealt) -> tuple[HandState, tuple[Finding, ...]]:
    setup = state.setup
    i = setup.index.get(e.player)
    street = e.street
    previous, new = shown_cards(e)
    if i is not None and street is state.street and state.phase is Phase.DEALING:
        # The common case, checked in a few comparisons: a later-street card that repeats the
        # earlier ones exactly and was never seen before.
        p = state.players[i]
        cards, deal = p.cards, state.deal
        n = NUMBER[street] - 1
        offset = 0 if e.hero else 2
        if (
            street is not Street.THIRD
            and not p.folded
            and len(cards) == n
            and len(new) == 1
            and cards[offset:] == previous
            and new[0] in RANK
            and not deal.seen & BIT[new[0]]
            and (street is not Street.SEVENTH or (e.hero and deal.community is None))
            and (not e.hero or deal.hero == i)
        ):
            players = state.players
            q = new_tuple(
                PlayerState,
                (p.stack, p.committed, p.street_bet, True, False, p.all_in, (*cards, new[0])),
            )
            seen_deal = with_seen(deal, deal.seen | BIT[new[0]])
            after: HandState = new_tuple(
                HandState,
                (
                    setup,
                    (*players[:i], q, *players[i + 1 :]),
                    state.phase,
                    street,
                    state.round,
                    seen_deal,
                    state.record,
                ),
            )
            return after, NO_FINDINGS
        if (
            street is Street.THIRD
            and not cards
            and not previous
            and len(new) == (3 if e.hero else 1)
            and (deal.antes[i] or not setup.ante)
            and (not e.hero or deal.hero is None)
        ):
            # A 3rd-street deal: the door card (and the hero's two down cards), all new.
            seen = deal.seen
            for card in new:
                if card not in RANK or seen & BIT[card]:
                    return _dealt_checked(state, e, previous, new)
                seen |= BIT[card]
            dealt = new if e.hero else (UNKNOWN, UNKNOWN, new[0])
            players = state.players
            q = PlayerState(p.stack, p.committed, p.street_bet, True, False, p.all_in, dealt)
            deal = Deal(
                deal.bring_in,
                deal.brought_in,
                i if e.hero else deal.hero,
                deal.community,
                deal.street_line,
                deal.folded_on,
                deal.antes,
                seen,
            )
            return HandState(
                setup,
                (*players[:i], q, *players[i + 1 :]),
                state.phase,
                street,
                state.round,
                deal,
                state.record,
            ), NO_FINDINGS
    return _dealt_checked(state, e, previous, new)


def _dealt_checked(
    state: HandState, e: Dealt, previous: tuple[str, ...], new: tuple[str, ...]
) -> tuple[HandState, tuple[Finding, ...]]:
    setup = state.setup
    rule = _DEAL_RULE[e.street]
    i = setup.index.get(e.player)
    if i is None:
        return state, (
            make_finding(
                setup,
                rule,
                e.line,
                "a seated player",
                e.player,
                f"Cards are dealt to {e.player}, who has no seat in this hand.",
            ),
        )
    p = state.players[i]
    found: list[Finding] = bad_tokens(state, (*previous, *new), e.line)
    if e.street is not state.street or state.phase not in (Phase.DEALING, Phase.BETTING):
        found.append(
            make_finding(
                setup,
                rule,
                e.line,
                f"cards of {state.street or 'no'} street",
                f"cards of {e.street} street",
                f"{e.player} is dealt {e.street}-street cards outside the deal of that street.",
            )
        )
        return state, tuple(found)
    if p.folded:
        found.append(
            make_finding(
                setup,
                rule,
                e.line,
                "no card",
                " ".join(new),
                f"{e.player} folded and gets no more cards.",
            )
        )
        return state, tuple(found)
    deal = state.deal
    if e.hero and deal.hero is None:
        state = evolve(state, deal=evolve(deal, hero=i))
    if e.street is Street.THIRD:
        cards, seen = _third_street(state, i, e, previous, new, found)
    else:
        cards, seen = _later_street(state, i, e, previous, new, rule, found)
    state = with_player(state, i, with_cards(state.players[i], cards))
    state = evolve(state, deal=with_seen(state.deal, seen))
    return state, tuple(found) if found else NO_FINDINGS


def _third_street(
    state: HandState,
    i: int,
    e: Dealt,
    previous: tuple[str, ...],
    new: tuple[str, ...],
    found: list[Finding],
) -> tuple[tuple[str, ...], int]:
    setup, p = state.setup, state.players[i]
    seen = state.deal.seen
    given = tuple(c for c in (*previous, *new) if c in RANK)
    want = 3 if e.hero else 1
    if len(previous) + len(new) != want:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_3RD,
                e.line,
                f"{want} card{'s' if want > 1 else ''}",
                f"{len(previous) + len(new)} cards",
                f"On 3rd street each player gets two cards down and one up; the log shows"
                f" {len(previous) + len(new)} for {e.player}.",
            )
        )
    if p.cards:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                "one 3rd-street deal",
                "a second one",
                f"{e.player} is dealt 3rd-street cards twice.",
            )
        )
        return p.cards, seen
    if setup.ante and not state.deal.antes[i]:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                e.line,
                setup.money(setup.ante),
                "no ante",
                f"{e.player} is dealt in without posting the ante.",
            )
        )
    if e.hero and len(given) >= 3:
        cards = given[:3]
    else:
        cards = (UNKNOWN, UNKNOWN, given[-1] if given else UNKNOWN)
    for pos, card in enumerate(cards):
        if card:
            if seen & BIT[card]:
                owner = duplicate_of(state, i, pos, card)
                found.append(unique_finding(state, i, card, owner or "another player", e.line))
            seen |= BIT[card]
    return cards, seen


def _later_street(
    state: HandState,
    i: int,
    e: Dealt,
    previous: tuple[str, ...],
    new_cards: tuple[str, ...],
    rule: RuleId,
    found: list[Finding],
) -> tuple[tuple[str, ...], int]:
    setup, p = state.setup, state.players[i]
    street = e.street
    number = NUMBER[street]
    if street is Street.SEVENTH and not e.hero:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_7TH,
                e.line,
                "a hidden river card",
                " ".join(new_cards),
                f"{e.player}'s river card is dealt face down; only its owner may see it.",
            )
        )
    if street is Street.SEVENTH and state.deal.community is not None:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COMMUNITY,
                e.line,
                "no river card of their own",
                " ".join(new_cards),
                f"The river is a community card, so {e.player} gets no river card of their own.",
            )
        )
    if len(p.cards) >= number:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                f"{number} cards",
                f"{len(p.cards) + len(new_cards)} cards",
                f"{e.player} is dealt a second card on {street} street.",
            )
        )
        return p.cards, state.deal.seen
    offset = 0 if e.hero else 2
    want_previous = number - 1 - offset
    if len(previous) != want_previous and setup.dialect.repeats_cards:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                f"{want_previous} earlier cards",
                f"{len(previous)} earlier cards",
                f"{e.player} should hold {number - 1} cards before {street} street;"
                f" the line repeats {len(previous)} of them where {want_previous} are shown.",
            )
        )
    if len(new_cards) != 1:
        found.append(
            make_finding(
                setup,
                rule,
                e.line,
                "1 new card",
                f"{len(new_cards)} new cards",
                f"Each street deals one card; {e.player} gets {len(new_cards)} on {street} street.",
            )
        )
    # Missing earlier streets still take their positions, so that positions stay aligned.
    padded = p.cards + (UNKNOWN,) * max(0, number - 1 - len(p.cards))
    state = with_player(state, i, with_cards(p, padded))
    known, seen = learn_cards(state, i, previous, offset, e.line, RuleId.LOG_CARDS, found)
    new = next((c for c in new_cards if c in RANK), UNKNOWN)
    if new:
        if seen & BIT[new]:
            owner = duplicate_of(state, i, len(known), new)
            found.append(unique_finding(state, i, new, owner or "another player", e.line))
        seen |= BIT[new]
    return (*known[: number - 1], new), seen
