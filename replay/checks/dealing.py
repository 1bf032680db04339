"""Dealing: DEAL-3RD, DEAL-UP, DEAL-7TH, DEAL-COMMUNITY, DEAL-UNIQUE and DEAL-COUNT.

Streets come in order and deal what `game.RAZZ` says (two down and one up, then one up each,
the river down: only its owner sees it); the river is one community card only when the deck
runs short; a card exists once; a player holds the cards of the streets they saw.
"""

from __future__ import annotations

from razz.parser.events import Dealt, Show, StreetStart
from razz.replay.cards import BIT, DECK, RANK
from razz.replay.checks import log, structure
from razz.replay.findings import Finding
from razz.replay.game import (
    CARDS_AFTER,
    CARDS_BEFORE,
    DOOR,
    FIRST_STREET,
    LAST_STREET,
    NEW_CARDS,
    NEXT_STREET,
    STREETS,
    up_on,
)
from razz.replay.holdings import Note, holder_of, learn, shown_cards, third_street_cards
from razz.replay.rules import RuleId
from razz.replay.state import (
    BETTING,
    DEALING,
    NO_FINDINGS,
    UNKNOWN,
    HandState,
    in_hand,
    make_finding,
)

_DEAL_RULE = {
    s: RuleId.DEAL_3RD if s is FIRST_STREET else RuleId.DEAL_UP if up_on(s) else RuleId.DEAL_7TH
    for s in STREETS
}


def community_status(state: HandState) -> tuple[bool, int, int]:
    """(a community card is needed, cards left in the deck, players left) before the river."""
    dealt = sum(len(p.cards) for p in state.players if p.dealt_in)
    left = len(DECK) - dealt
    players = sum(1 for p in state.players if p.dealt_in and not p.folded)
    return left < players, left, players


def street_order(state: HandState, e: StreetStart) -> list[Finding]:
    """DEAL-COUNT: streets are dealt in order, 3rd to 7th."""
    expected = FIRST_STREET if state.street is None else NEXT_STREET[state.street]
    if e.street is expected:
        return []
    return [
        make_finding(
            state.setup,
            RuleId.DEAL_COUNT,
            e.line,
            f"{expected} street" if expected else "no more streets",
            f"{e.street} street",
            f"Streets are dealt in order, 3rd to 7th; {e.street} street comes out of turn.",
        )
    ]


def community(state: HandState, e: StreetStart) -> list[Finding]:
    """DEAL-COMMUNITY and DEAL-UNIQUE (and LOG-CARDS) of a street's community card."""
    setup = state.setup
    card = e.community
    found: list[Finding] = []
    if e.street is LAST_STREET:
        needed, left, n_live = community_status(state)
        if card is not None and not needed:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_COMMUNITY,
                    e.line,
                    "a river card for each player",
                    f"community card {card}",
                    f"{left} cards were left for {n_live} players, so each gets a river card of"
                    " their own; a community card is only for a deck that runs out.",
                )
            )
        elif card is None and needed:
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
    elif card is not None:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COMMUNITY,
                e.line,
                "no community card",
                f"community card {card}",
                "A community card can only replace the river cards on 7th street.",
            )
        )
        return found
    if card is None:
        return found
    found += log.bad_tokens(setup, (card,), e.line)
    if card in RANK:
        owner = next(
            (setup.name(k) for k, p in enumerate(state.players) if card in p.cards),
            None,
        )
        if owner is not None:
            found.append(
                make_finding(
                    setup,
                    RuleId.DEAL_UNIQUE,
                    e.line,
                    "a card not yet dealt",
                    card,
                    f"The community card {card} is already held by {owner}.",
                )
            )
    return found


def duplicate(state: HandState, i: int, card: str, owner: str | None, line: int) -> Finding:
    """DEAL-UNIQUE: `card` reaches player `i` although `owner` already holds it."""
    name = state.setup.name(i)
    owner = owner or "another player"
    holder = "they already hold it" if owner == name else f"{owner} already holds it"
    return make_finding(
        state.setup,
        RuleId.DEAL_UNIQUE,
        line,
        "a card not yet dealt",
        card,
        f"{card} cannot reach {name}: {holder}, and each card exists once.",
    )


def learned(
    state: HandState,
    i: int,
    notes: tuple[Note, ...],
    changed_rule: RuleId,
    line: int,
    held: tuple[str, ...] | None = None,
) -> list[Finding]:
    """What a merge of shown cards revealed: the first card written differently from before
    (`changed_rule`), and every card already seen elsewhere (DEAL-UNIQUE)."""
    found: list[Finding] = []
    reported = False
    for note in notes:
        pos, card, old = note
        if old != UNKNOWN:
            if not reported:
                found.append(log.changed_card(state.setup, i, note, changed_rule, line))
                reported = True
            continue
        found.append(duplicate(state, i, card, holder_of(state, i, pos, card, held), line))
    return found


def dealt(state: HandState, e: Dealt) -> tuple[Finding, ...] | list[Finding]:
    """Everything a `Dealt to` line must satisfy (and its tokens, LOG-CARDS)."""
    setup = state.setup
    i = setup.index.get(e.player)
    previous, new = shown_cards(e)
    if i is not None and e.street is state.street and state.phase is DEALING:
        p = state.players[i]
        if (
            e.street is not FIRST_STREET
            and not p.folded
            and len(p.cards) == CARDS_BEFORE[e.street]
            and len(new) == 1
            and p.cards[0 if e.hero else DOOR :] == previous
            and new[0] in RANK
            and not state.deal.seen & BIT[new[0]]
            and (
                e.street is not LAST_STREET
                or (e.hero and state.deal.community is None and _owner_s(state, i))
            )
        ):
            return NO_FINDINGS  # the common case: one new card, earlier ones repeated
        if (
            e.street is FIRST_STREET
            and not p.cards
            and not p.folded
            and (state.deal.antes[i] or not setup.ante)
            and _fresh(state.deal.seen, (*previous, *new), CARDS_AFTER[FIRST_STREET] if e.hero else 1)
        ):
            return NO_FINDINGS  # the common case of 3rd street: an ante, then the cards due
    rule = _DEAL_RULE[e.street]
    if i is None:
        return [
            make_finding(
                setup,
                rule,
                e.line,
                "a seated player",
                e.player,
                f"Cards are dealt to {e.player}, who has no seat in this hand.",
            )
        ]
    found = log.bad_tokens(setup, (*previous, *new), e.line)
    if e.street is not state.street or state.phase not in (DEALING, BETTING):
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
        return found
    p = state.players[i]
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
        return found
    if e.street is FIRST_STREET:
        found += _third_street(state, i, e, previous, new)
    else:
        found += _later_street(state, i, e, previous, new)
    return found


def _fresh(seen: int, cards: tuple[str, ...], count: int) -> bool:
    """Whether `cards` are `count` cards, each written as a card and none seen before."""
    if len(cards) != count:
        return False
    for card in cards:
        bit = BIT.get(card, 0)
        if not bit or seen & bit:
            return False
        seen |= bit
    return True


def _third_street(
    state: HandState, i: int, e: Dealt, previous: tuple[str, ...], new: tuple[str, ...]
) -> list[Finding]:
    setup, p = state.setup, state.players[i]
    found: list[Finding] = []
    given = [c for c in (*previous, *new) if c in RANK]
    want = CARDS_AFTER[FIRST_STREET] if e.hero else 1
    shown = len(previous) + len(new)
    if shown != want:
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_3RD,
                e.line,
                f"{want} card{'s' if want > 1 else ''}",
                f"{shown} cards",
                f"On 3rd street each player gets two cards down and one up; the log shows"
                f" {shown} for {e.player}.",
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
        return found
    found += structure.dealt_without_ante(state, i, e)
    seen = state.deal.seen
    for pos, card in enumerate(third_street_cards(e.hero, given)):
        if card:
            if seen & BIT[card]:
                found.append(duplicate(state, i, card, holder_of(state, i, pos, card), e.line))
            seen |= BIT[card]
    return found


def _owner_s(state: HandState, i: int) -> bool:
    """Whether the log may show player i's down cards: the file owner's (the first player
    whose line showed them), or anyone's where the format shows others' (PHH always; Full
    Tilt and Winamax once all but one player still in the hand are all in)."""
    owner = state.deal.hero
    if owner is None or owner == i:
        return True
    shows = state.setup.dialect.others_down_cards
    if shows == "all-in":
        return sum(1 for p in state.players if in_hand(p) and not p.all_in) <= 1
    return shows == "always"


def _later_street(
    state: HandState, i: int, e: Dealt, previous: tuple[str, ...], new_cards: tuple[str, ...]
) -> list[Finding]:
    setup, p = state.setup, state.players[i]
    street = e.street
    number = CARDS_AFTER[street]
    found: list[Finding] = []
    # A river card the log shows as hidden (Winamax, KingsClub `[X]`) is dealt face down; a
    # line that shows it like the owner's, for another player, shows what nobody else sees.
    if (
        street is LAST_STREET
        and (not e.hero or not _owner_s(state, i))
        and any(c in RANK for c in new_cards)
    ):
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
    if street is LAST_STREET and state.deal.community is not None:
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
        return found
    offset = 0 if e.hero else DOOR
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
    if len(new_cards) != NEW_CARDS[street]:
        # more new cards than the street deals leaves the player holding too many: DEAL-COUNT
        found.append(
            make_finding(
                setup,
                RuleId.DEAL_COUNT if len(new_cards) > NEW_CARDS[street] else _DEAL_RULE[street],
                e.line,
                "1 new card",
                f"{len(new_cards)} new cards",
                f"Each street deals one card; {e.player} gets {len(new_cards)} on {street} street.",
            )
        )
    # Missing earlier streets still take their positions, so that positions stay aligned.
    padded = p.cards + (UNKNOWN,) * max(0, number - 1 - len(p.cards))
    known, seen, notes = learn(padded, previous, offset, state.deal.seen)
    found += learned(state, i, notes, RuleId.LOG_CARDS, e.line, padded)
    new = next((c for c in new_cards if c in RANK), UNKNOWN)
    if new and seen & BIT[new]:
        owner = holder_of(state, i, len(known), new, padded)
        found.append(duplicate(state, i, new, owner, e.line))
    return found


def shown_count(state: HandState, e: Show, i: int) -> list[Finding]:
    """DEAL-COUNT of a `shows` line: seven cards at the showdown (six with a community card),
    never more than were dealt before it."""
    setup, p = state.setup, state.players[i]
    community = state.deal.community
    if state.record.showdown_line > 0:
        want = 6 if community else 7
        if len(e.cards) == want:
            return []
        return [
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
        ]
    if len(e.cards) > max(len(p.cards), CARDS_AFTER[FIRST_STREET]):
        return [
            make_finding(
                setup,
                RuleId.DEAL_COUNT,
                e.line,
                f"at most {len(p.cards)} cards",
                f"{len(e.cards)} cards",
                f"{e.player} shows {len(e.cards)} cards but was dealt {len(p.cards)}.",
            )
        ]
    return []


def deal_complete(state: HandState) -> list[Finding]:
    """DEAL-3RD, DEAL-UP, DEAL-7TH: once a street's deal is over, every player still in the
    hand got their cards (the river, dealt face down, is checked for the log's owner)."""
    street = state.street
    if state.phase is not DEALING or street is None:
        return []
    setup, found = state.setup, []
    line = state.deal.street_line
    owed = CARDS_BEFORE[street] if street is LAST_STREET else CARDS_AFTER[street]
    for i, p in enumerate(state.players):
        if not p.dealt_in or p.folded or (len(p.cards) >= owed and street is not LAST_STREET):
            continue
        name = setup.name(i)
        if street is FIRST_STREET and len(p.cards) < owed:
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
        elif up_on(street) and street is not FIRST_STREET and len(p.cards) < owed:
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
            street is LAST_STREET
            and i == state.deal.hero
            and state.deal.community is None
            and len(p.cards) < CARDS_AFTER[street]
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
    return found
