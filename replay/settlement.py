"""How a finished hand is paid, from its state: pots, winners and shares (POT-SIDE, WIN-*).

A question about the state, never a change of it: a bet still uncalled is taken out of the
pots here, not given back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from razz.replay.pots import (
    PotAward,
    Settlement,
    best_hands,
    hand_values,
    pots_of,
    split_pot,
    split_rake,
)
from razz.replay.state import BETTING, HandState, in_hand, uncalled

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
    `hands` gives players' full cards by index when the state knows only some; `per_pot`
    gives the amount actually paid from some pots, which then replaces their share of the
    rake.
    """
    setup, players = state.setup, state.players
    committed = [p.committed for p in players]
    all_in = [p.all_in for p in players]
    pending = (
        uncalled(state) if state.round.to_act is None or state.phase is not BETTING else None
    )
    returned = None
    if pending is not None and not setup.dialect.uncalled_in_pot:  # Winamax keeps it in
        i, amount = pending
        committed[i] -= amount
        all_in[i] = all_in[i] and players[i].stack + amount == 0
        returned = (setup.name(i), amount)
    pots = pots_of(committed, [not in_hand(p) for p in players], all_in)
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
    return Settlement(tuple(awards), sum(committed), rake, returned)


def rake_of(state: HandState) -> int:
    """The rake the summary states, else what the winners did not collect of the pot."""
    record = state.record
    if record.total is not None:
        return record.total.rake
    if not record.collects:
        return 0
    return max(
        0, sum(p.committed for p in state.players) - sum(c.amount for _, c in record.collects)
    )


def collected_by_pot(state: HandState) -> dict[int, dict[int, int]]:
    """What each player collected from each pot (by the pot's number in its label)."""
    by_pot: dict[int, dict[int, int]] = {}
    for i, c in state.record.collects:
        pot = by_pot.setdefault(c.side or 0, {})
        pot[i] = pot.get(i, 0) + c.amount
    return by_pot


def settle_as_paid(state: HandState, expected: Settlement) -> Settlement:
    """The settlement, with the log's own per-pot amounts where it paid exactly the right
    players (they then replace our split of the rake)."""
    by_pot = collected_by_pot(state)
    name = state.setup.name
    per_pot = {
        award.index: paid
        for award in expected.pots
        if award.index in by_pot
        and (paid := sum(by_pot[award.index].values())) != award.amount - award.rake
        and set(award.winners) == {name(i) for i in by_pot[award.index]}
    }
    if not per_pot:
        return expected
    return settle_state(state, expected.rake, per_pot=per_pot)
