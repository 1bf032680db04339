"""All-in EV: what each player of an all-in would have won on average, pot by pot, and luck.

A hand counts when a player went all-in, cards were still to come when the last chip went into
a pot that all-in closed, and the hand reached a showdown where the log shows every card of
the players contesting it. For each such pot, each of its players' equity is their share of
the pot from their cards dealt at that moment (`razz.analysis.equity`), every other card the
log shows as dealt by then being dead; the all-in-adjusted net is

    sum over pots of (equity x the pot after its rake) - what the player put in

where a pot that no all-in closed, or whose last chip went in on 7th street, counts as it was
paid. Luck is the real net minus that. A pot is left as paid (not adjusted) when one of its
players folded after its last chip went in: that fold was a decision, not the cards.

`allin_ev(result)` reads a replayed hand (`razz.replay.results.HandResult`, as the importer's
workers hold it) and returns one `PlayerEV` per player of an adjusted pot, or () when the hand
has none (most hands: this costs a glance at them). Equities are cached by what they depend
on, the rank multisets (`razz.analysis.situation.Situation`), so a situation seen lately is a
dictionary read.

>>> from razz.parser import read_text
>>> hand = next(iter(read_text(HEADS_UP_ON_FOURTH)))
>>> from razz.replay.audit import audit_hand
>>> [(e.player, e.street, round(e.equity, 4), round(e.ev_net, 2))
...  for e in allin_ev(audit_hand(hand))]  # ann all-in on 4th, 64 in the pot, ann 32 of it
[('ann', '4th', 0.9614, 29.53), ('bob', '4th', 0.0386, -29.53)]
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from razz.analysis.equity import equity_of, exact_cost
from razz.analysis.situation import UNSEEN, Situation, SituationError, situation
from razz.replay.results import HandResult

__all__ = [
    "EXACT_LIMIT", "HEADS_UP_ON_FOURTH", "SAMPLES", "AllInHand", "PlayerEV", "allin_ev",
    "allin_ev_of",
]

# Exact up to 250,000 joint rank outcomes (heads-up from 4th street, 3-way from 6th: a few
# ms); beyond, 2,000 Monte Carlo deals (standard error at most 0.011, 1 to 3 ms), with a seed
# made from the situation, so that importing a hand twice gives the same numbers. Luck is
# summed over many hands: the estimate's noise adds 1/2,000 of a pot's own variance (the
# spread of its outcome, p(1-p) per unit of pot squared) to each hand's luck, and no bias,
# while enumerating heads-up from 3rd street would cost 50 ms a hand.
EXACT_LIMIT = 250_000
SAMPLES = 2_000

_MONEY_IN = frozenset(("ante", "bring_in", "complete", "bet", "raise", "call"))
# Cards a player holds once a street is dealt; the antes come before any card.
_CARDS_AT = {None: 0, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7}
_LAST = "7th"

HEADS_UP_ON_FOURTH = """\
PokerStars Hand #2:  Razz Limit (10/20) - 2024/01/01 10:00:00 ET
Table 'T' 8-max
Seat 1: ann (32 in chips)
Seat 2: bob (500 in chips)
ann: posts the ante 2
bob: posts the ante 2
*** 3rd STREET ***
Dealt to ann [As 2s 3s]
Dealt to bob [Kd Qd Jd]
bob: brings in for 5
ann: raises 5 to 10
bob: calls 5
*** 4th STREET ***
Dealt to ann [As 2s 3s] [4s]
Dealt to bob [Kd Qd Jd] [Td]
ann: bets 10
bob: raises 10 to 20
ann: calls 10 and is all-in
*** 5th STREET ***
Dealt to ann [As 2s 3s 4s] [4h]
Dealt to bob [Kd Qd Jd Td] [9d]
*** 6th STREET ***
Dealt to ann [As 2s 3s 4s 4h] [3h]
Dealt to bob [Kd Qd Jd Td 9d] [2d]
*** RIVER ***
Dealt to ann [As 2s 3s 4s 4h 3h] [2h]
*** SHOW DOWN ***
ann: shows [As 2s 3s 4s 4h 3h 2h] (Lo: 2,2,4,3,A)
bob: shows [Kd Qd Jd Td 9d 2d Ac] (Lo: J,T,9,2,A)
bob collected 64 from pot
*** SUMMARY ***
Total pot 64 | Rake 0
Seat 1: ann showed [As 2s 3s 4s 4h 3h 2h] and lost with Lo: 2,2,4,3,A
Seat 2: bob showed [Kd Qd Jd Td 9d 2d Ac] and won (64) with Lo: J,T,9,2,A
"""


@dataclass(frozen=True, slots=True)
class PlayerEV:
    """One player's all-in EV in one hand (money in the hand's unit, as a float).

    `street` is when the last chip went into the first adjusted pot the player contests
    (`antes` before any card), `equity` their share of that pot then; `ev_won` what they
    would win on average from every pot (adjusted pots by equity, the others as paid, after
    rake), `ev_net` = `ev_won` - what they put in; `exact` is False when a Monte Carlo estimate
    was used, with `std_error` the standard error of `equity`.
    """

    player: str
    street: str
    equity: float
    ev_won: float
    ev_net: float
    exact: bool
    std_error: float


@dataclass(frozen=True, slots=True)
class AllInHand:
    """What all-in EV reads of a hand, from a replay (`of_result`) or from the store's rows.

    `players`: (name, invested, folded street or None, went all-in); `actions`: (order,
    street or None for the antes, player, kind, amount) as the store's `actions`; `cards`:
    (player, position 1 … 7, card) for every card the log shows; `pots`: (amount, eligible,
    winners, shares) from the main pot on, as the store's `pots`.
    """

    players: tuple[tuple[str, int, str | None, bool], ...]
    actions: tuple[tuple[int, str | None, str, str, int | None], ...]
    cards: tuple[tuple[str, int, str], ...]
    pots: tuple[tuple[int, tuple[str, ...], tuple[str, ...], tuple[int, ...]], ...]
    community: str | None
    showdown: bool

    @classmethod
    def of_result(cls, result: HandResult) -> AllInHand:
        """The hand as the audit computed it."""
        return cls(
            tuple((p.player, p.invested,
                   next((str(s.street) for s in p.streets if s.folded), None), p.all_in)
                  for p in result.players),
            tuple((a.seq, None if a.street is None else str(a.street), a.player, a.kind,
                   a.amount) for a in result.actions),
            tuple((c.player, c.position, c.card) for c in result.cards if c.player is not None),
            tuple((p.amount, p.eligible, p.winners, p.shares) for p in result.pots),
            result.community_card, result.went_to_showdown,
        )


@dataclass(frozen=True, slots=True)
class _Pot:
    floor: int  # the contributions above this …
    cap: int  # … and up to this go into the pot
    amount: int  # before rake
    after_rake: int
    eligible: tuple[int, ...]
    paid: dict[int, int]  # what each winner received from it


def allin_ev(result: HandResult) -> tuple[PlayerEV, ...]:
    """Each player's all-in EV in a replayed hand, () when no pot of it is all-in adjusted."""
    if not result.went_to_showdown or not any(p.all_in for p in result.players):
        return ()
    if not _closed_before_the_river(result):
        return ()
    return allin_ev_of(AllInHand.of_result(result))


def _closed_before_the_river(result: HandResult) -> bool:
    """Whether some all-in player's last chip went in before 7th street; when none did, no pot
    can be adjusted, and the hand (a third of those with an all-in and a showdown) costs a
    glance at its actions instead of all of `allin_ev_of`.

    A pot is adjusted only when an all-in player closed it (their whole contribution is its
    cap), and the action that brought that player to their contribution put chips into that
    pot: its last chip went in then or later, on 7th street if that action was.
    """
    invested = {p.player: p.invested for p in result.players if p.all_in}
    running = dict.fromkeys(invested, 0)
    reached = set()
    for a in result.actions:
        total = running.get(a.player)
        if total is None or not a.amount or a.kind not in _MONEY_IN:
            continue
        running[a.player] = total + a.amount
        if total < invested[a.player] <= total + a.amount:
            if a.street != _LAST:
                return True
            reached.add(a.player)
    return len(reached) < len(invested)  # a contribution the actions do not add up to: look


def allin_ev_of(hand: AllInHand) -> tuple[PlayerEV, ...]:
    """Each player's all-in EV in a hand, () when no pot of it is all-in adjusted."""
    players = hand.players
    if not hand.showdown or not any(p[3] for p in players):
        return ()
    index = {p[0]: i for i, p in enumerate(players)}
    n = len(players)
    invested = [p[1] for p in players]
    fold_street = [p[2] for p in players]
    folded = [s is not None for s in fold_street]
    all_in = [p[3] for p in players]
    cards: list[dict[int, str]] = [{} for _ in range(n)]
    for player, position, card in hand.cards:
        if player in index:
            cards[index[player]][position] = card
    live = [i for i in range(n) if not folded[i]]
    own = 6 if hand.community else 7
    if len(live) < 2 or any(len(cards[i]) < own for i in live):
        return ()  # a contesting hand the log does not show in full
    pots = _pots(hand, index, invested, folded, all_in)
    if pots is None:
        return ()

    # When each chip went in: (order, street, player, contribution before, after), and folds.
    moments: list[tuple[int, str | None, int, int, int]] = []
    folds = [-1] * n
    running = [0] * n
    for seq, street, player, kind, amount in hand.actions:
        i = index.get(player)
        if i is None:
            continue
        if kind in _MONEY_IN and amount:
            before = running[i]
            running[i] += amount
            moments.append((seq, street, i, min(before, invested[i]),
                            min(running[i], invested[i])))
        elif kind == "fold":
            folds[i] = seq

    won = [0.0] * n
    first: dict[int, tuple[str, float, bool, float]] = {}  # player -> first adjusted pot's
    adjusted = False
    for pot in pots:
        last = max((m for m in moments if m[3] < pot.cap and m[4] > pot.floor),
                   key=lambda m: m[0], default=None)
        closed = any(all_in[i] and invested[i] == pot.cap for i in pot.eligible)
        if (last is None or last[1] == _LAST or last[1] not in _CARDS_AT or not closed
                or len(pot.eligible) < 2
                or any(folds[j] > last[0] and invested[j] >= pot.cap for j in range(n))):
            for i, amount in pot.paid.items():
                won[i] += amount
            continue
        dealt = _CARDS_AT[last[1]]
        shares = _shares(pot.eligible, dealt, cards, fold_street)
        if shares is None:
            return ()
        adjusted = True
        equities, exact, errors = shares
        label = last[1] or "antes"
        for i, e, se in zip(pot.eligible, equities, errors, strict=True):
            won[i] += e * pot.after_rake
            first.setdefault(i, (label, e, exact, se))
    if not adjusted:
        return ()
    return tuple(
        PlayerEV(players[i][0], first[i][0], first[i][1], won[i], won[i] - invested[i],
                 first[i][2], first[i][3])
        for i in range(n) if i in first
    )


def _pots(
    hand: AllInHand, index: dict[str, int], invested: list[int], folded: list[bool],
    all_in: list[bool],
) -> list[_Pot] | None:
    """The hand's pots with the contributions each one holds (as `replay.pots.pots_of` cuts
    them), checked against the pots the hand paid; None when they do not match."""
    live = [i for i in range(len(invested)) if not folded[i]]
    top = max(invested[i] for i in live)
    caps = sorted({invested[i] for i in live if all_in[i] and invested[i] < top})
    bounds: list[tuple[int, int]] = []
    floor = 0
    for cap in (*caps, top):
        if sum(min(c, cap) - min(c, floor) for c in invested) > 0:
            bounds.append((floor, cap))
        floor = cap
    if len(bounds) != len(hand.pots):
        return None
    pots = []
    for (floor, cap), (amount, eligible_names, winners, shares) in zip(
            bounds, hand.pots, strict=True):
        eligible = tuple(index[name] for name in eligible_names if name in index)
        if tuple(i for i in live if invested[i] >= cap) != eligible or not winners:
            return None
        received: dict[int, int] = {}
        if any(name not in index for name in winners) or len(winners) != len(shares):
            return None
        for name, share in zip(winners, shares, strict=True):
            received[index[name]] = received.get(index[name], 0) + share
        pots.append(_Pot(floor, cap, amount, sum(shares), eligible, received))
    return pots


def _shares(
    eligible: Sequence[int], dealt: int, cards: list[dict[int, str]],
    fold_street: list[str | None],
) -> tuple[tuple[float, ...], bool, tuple[float, ...]] | None:
    """The eligible players' equities when each held `dealt` cards: (equities, exact, standard
    errors), None if the log's cards do not make a deal."""
    if dealt == 0:  # before any card: every player's chances are the same
        k = len(eligible)
        return (1.0 / k,) * k, True, (0.0,) * k
    hands = [tuple(cards[i][p] for p in range(1, dealt + 1)) for i in eligible]
    dead: list[str] = []
    for j in range(len(cards)):
        if j in eligible:
            continue
        # What player j had been dealt by then: up to the street they folded on. A card
        # dealt but never shown is still out of the deck (`??`), which matters only when
        # the deck runs out (DEAL-COMMUNITY).
        folded_on = fold_street[j]
        had = min(dealt, 7 if folded_on is None else _CARDS_AT.get(folded_on, 7))
        dead += [cards[j].get(p, UNSEEN) for p in range(1, had + 1)]
    try:
        spot = situation(hands, dead)
    except SituationError:
        return None
    return _equity_of(spot)


_CACHE: dict[tuple[object, ...], tuple[tuple[float, ...], bool, tuple[float, ...]]] = {}
# Few situations come back from one hand to another (their unseen ranks count every folded
# card): 20,000 simulated hands looked up 1,153 and found none twice. An entry holds about
# 680 bytes (its key's tuples and the result), so the 65,536 entries this once allowed could
# grow a worker by 44 MB over a long import; 1,024 (0.7 MB) keep a situation met again soon.
_CACHE_SIZE = 1024


def _equity_of(spot: Situation) -> tuple[tuple[float, ...], bool, tuple[float, ...]]:
    """The equities of a situation; equity depends on the ranks only, so the cache key is the
    rank multisets (known ranks per hand, cards to come, unseen ranks), never the suits."""
    key = (spot.known, spot.to_come, spot.unseen, spot.community)
    found = _CACHE.get(key)
    if found is None:
        # The seed of Monte Carlo only: an exact result has no use for it.
        seed = None if exact_cost(spot) <= EXACT_LIMIT else zlib.crc32(repr(key).encode())
        r = equity_of(spot, exact_limit=EXACT_LIMIT, samples=SAMPLES, seed=seed)
        found = r.equity, r.exact, r.std_error
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return found
