"""Random legal hands and table sessions, seeded: the raw material of the fidelity harness.

>>> import random
>>> played = legal_hand(random.Random(7))
>>> 2 <= len(played.spec.seats) <= 8 and not played.degenerate
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from .cards import DECK
from .game import (
    CASH_4_8,
    CASH_10_20,
    CHIP_30_60,
    CHIP_50_100,
    CHIP_100_200,
    Fault,
    Game,
    HandSpec,
    Played,
    Policy,
    Seat,
    Stakes,
)

# Player names with the traps real PokerStars names hold: spaces, brackets, digits and dots,
# non-ASCII letters, `$`, words of the format itself.
NAMES = (
    "lowdown77",
    "Hero",
    "Vesna K",
    "PC [Lab]",
    "3.5 wheelie",
    "Øystein",
    "CashMa$h",
    "ranchero",
    "Tumbler",
    "spacegirl",
    "Perla 12",
    "stefko",
    "pirkle",
    "Sr Núñez",
    "Elfe 2",
    "roditi",
    "yao99",
    "Mr Fold! Srb",
    "razz_dazz",
    "bets 4 fun",
    "Ace2Five",
    "Ιωάννης",
    "kurczak",
    "meg1",
)
TABLES = ("Gotha II", "Salm IX", "Laomedon", "Vesta XX", "Ceres X", "Antares II", "Ljubljana")


@dataclass
class Knobs:
    """What kind of hands to make (each left None is drawn at random)."""

    players: int | None = None
    kind: str | None = None  # cash, tournament
    stakes: Stakes | None = None
    short: float | None = None  # chance that a player has a short stack
    ante_all_in: float = 0.04  # chance that a player cannot cover the ante
    policy: dict[str, object] = field(default_factory=dict)  # Policy fields to set


def pick_stakes(rng: random.Random, kind: str) -> Stakes:
    if kind == "cash":
        return rng.choice((CASH_4_8, CASH_4_8, CASH_10_20))
    return rng.choice((CHIP_50_100, CHIP_30_60, CHIP_100_200))


def stack_for(rng: random.Random, st: Stakes, short: float, ante_all_in: float) -> int:
    r = rng.random()
    if r < ante_all_in:
        return rng.randint(max(1, st.ante // 2), st.ante)
    if r < ante_all_in + short:
        return rng.randint(st.ante + 1, st.ante + st.bring_in + 3 * st.big)
    return rng.randint(8 * st.big, 60 * st.big)


def random_spec(rng: random.Random, knobs: Knobs | None = None, **over: object) -> HandSpec:
    """A hand's setup: 2 to 8 players, cash or tournament, mixed stacks, a shuffled deck."""
    knobs = knobs or Knobs()
    n = knobs.players or rng.choice((2, 2, 3, 4, 5, 6, 7, 8, 8))
    if knobs.kind:
        kind = knobs.kind
    elif knobs.stakes is not None:
        kind = "cash" if knobs.stakes.unit == "cent" else "tournament"
    else:
        kind = rng.choice(("cash", "tournament"))
    st = knobs.stakes or pick_stakes(rng, kind)
    short = knobs.short if knobs.short is not None else rng.choice((0.0, 0.15, 0.4))
    max_seats = 2 if n == 2 and rng.random() < 0.3 else 8
    seat_numbers = sorted(rng.sample(range(1, max_seats + 1), n))
    names = rng.sample(NAMES, n)
    while True:
        stacks = [stack_for(rng, st, short, knobs.ante_all_in) for _ in range(n)]
        if sum(s > st.ante + st.bring_in for s in stacks) >= 2:
            break
    seats = [Seat(seat_numbers[k], names[k], stacks[k]) for k in range(n)]
    deck = list(DECK)
    rng.shuffle(deck)
    started = datetime(2024, 1, 1) + timedelta(seconds=rng.randint(0, 300 * 24 * 3600))
    tid = rng.randint(3_000_000_000, 3_999_999_999)
    spec = HandSpec(
        kind=kind,
        stakes=st,
        seats=seats,
        hero=rng.choice(names),
        hand_id=rng.randint(200_000_000_000, 259_999_999_999),
        started=started,
        table=rng.choice(TABLES) if kind == "cash" else str(rng.randint(1, 40)),
        max_seats=max_seats,
        deck=deck,
        tournament_id=tid if kind == "tournament" else None,
        buy_in=rng.choice(("$4.40+$0.60 USD", "$10+$1 USD", "$200+$15 USD")),
        places_left=rng.randint(n, 60),
    )
    return replace(spec, **over)  # type: ignore[arg-type]


def random_policy(rng: random.Random, **over: object) -> Policy:
    policy = Policy(
        rng,
        fold=rng.uniform(0.1, 0.5),
        aggression=rng.uniform(0.05, 0.35),
        complete=rng.uniform(0.05, 0.4),
        muck=rng.uniform(0.2, 0.9),
        short=rng.uniform(0.2, 0.8),
    )
    if rng.random() < 0.1:
        policy.aggressive_streets = frozenset({rng.randint(3, 7)})
    for k, v in over.items():
        setattr(policy, k, v)
    return policy


def play(
    rng: random.Random,
    spec: HandSpec,
    policy: Policy | None = None,
    fault: Fault | None = None,
    tries: int = 20,
) -> Played:
    """Play the hand; deal again (new deck, same setup) while a showdown hand lacks five ranks."""
    for _ in range(tries):
        played = Game(spec, policy or random_policy(rng), fault).play()
        if not played.degenerate:
            return played
        deck = list(DECK)
        rng.shuffle(deck)
        spec = replace(spec, deck=deck)
    return played


def legal_hand(rng: random.Random, knobs: Knobs | None = None) -> Played:
    """One random legal hand."""
    knobs = knobs or Knobs()
    spec = random_spec(rng, knobs)
    return play(rng, spec, random_policy(rng, **knobs.policy))


def session(
    rng: random.Random,
    hands: int,
    knobs: Knobs | None = None,
    fault_at: Callable[[int, HandSpec], tuple[HandSpec, Fault | None]] | None = None,
) -> list[Played]:
    """Consecutive hands of one table: stacks carry over, time and hand ids go up.

    Cash players who went broke leave and a newcomer may sit down; tournament players who went
    broke are out. `fault_at(k, spec)` may change hand k's setup or room before it is played.
    """
    knobs = knobs or Knobs()
    spec = random_spec(rng, knobs)
    out: list[Played] = []
    for k in range(hands):
        fault = None
        if fault_at is not None:
            spec, fault = fault_at(k, spec)
        played = play(rng, spec, random_policy(rng, **knobs.policy), fault)
        out.append(played)
        st = spec.stakes
        seats = [Seat(s.seat, s.name, played.final[s.name]) for s in spec.seats]
        seats = [s for s in seats if s.stack > 0]
        if spec.kind == "cash":
            free = [n for n in range(1, spec.max_seats + 1) if n not in {s.seat for s in seats}]
            taken = {s.name for s in seats}
            if free and (len(seats) < 2 or rng.random() < 0.15):
                name = rng.choice([n for n in NAMES if n not in taken])
                seats.append(Seat(rng.choice(free), name, rng.randint(8 * st.big, 40 * st.big)))
                seats.sort(key=lambda s: s.seat)
        if sum(s.stack > st.ante + st.bring_in for s in seats) < 2 or spec.hero not in {
            s.name for s in seats
        }:
            break
        deck = list(DECK)
        rng.shuffle(deck)
        [s.name for s in seats]
        spec = replace(
            spec,
            seats=seats,
            hero=spec.hero,
            hand_id=spec.hand_id + rng.randint(1, 5000),
            started=spec.started + timedelta(seconds=rng.randint(20, 150)),
            deck=deck,
            forced={},
            places_left=max(
                len(seats),
                spec.places_left - sum(1 for s in spec.seats if played.final[s.name] == 0),
            ),
        )
    return out


PRESETS: dict[str, Knobs] = {
    "random": Knobs(),
    "heads-up": Knobs(players=2),
    "all-ins": Knobs(short=0.5, ante_all_in=0.1),
    "full-table": Knobs(players=8, short=0.0, policy={"fold": 0.03, "aggression": 0.1}),
    "capped": Knobs(short=0.0, policy={"aggression": 0.6}),
}


def legal_tables(seed: int, tables: int) -> list[list[Played]]:
    """Tables of one to four consecutive legal hands, every preset in turn, seeded."""
    out = []
    names = list(PRESETS)
    for k in range(tables):
        rng = random.Random(f"legal:{seed}:{k}")
        knobs = PRESETS[names[k % len(names)]]
        if k % 7 == 3:  # now and then two players hold the same ranks: split pots
            played = _twins_hand(rng, knobs)
            out.append([played])
            continue
        out.append(session(rng, rng.randint(1, 4), knobs))
    return out


def _twins_hand(rng: random.Random, knobs: Knobs) -> Played:
    from .edits import twins

    while True:
        spec = random_spec(rng, knobs)
        a, b = rng.sample([s.name for s in spec.seats], 2)
        rigged = twins(rng, spec, a, b, range(7))
        if rigged is None:
            continue
        policy = random_policy(rng, stations=frozenset({a, b}))
        played = Game(rigged, policy).play()
        if not played.degenerate:
            return played


def coverage(tables: list[list[Played]]) -> dict[str, int]:
    """How many hands show each situation the harness must cover."""
    hands = [p for t in tables for p in t]
    count = {
        "hands": len(hands),
        "heads-up": sum(len(p.spec.seats) == 2 for p in hands),
        "8 players": sum(len(p.spec.seats) == 8 for p in hands),
        "tournament": sum(p.spec.kind == "tournament" for p in hands),
        "all-in": sum(any(e.all_in for e in p.events) for p in hands),
        "all-in on the ante": sum(
            any(e.all_in and e.kind == "ante" for e in p.events) for p in hands
        ),
        "side pots": sum(len(p.pots) > 1 for p in hands),
        "split pot": sum(any(len(pot.shares) > 1 for pot in p.pots) for p in hands),
        "capped round": sum(any(e.kind == "capped" for e in p.events) for p in hands),
        "community card": sum(p.board is not None for p in hands),
        "showdown": sum(bool(p.showdown) for p in hands),
        "uncalled bet": sum(any(e.kind == "uncalled" for e in p.events) for p in hands),
    }
    return count
