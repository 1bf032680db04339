"""One injector per way a log can break a rule of RAZZ_RULES.md, each giving one violation.

An injector builds a case from a seeded random source: legal hand(s) of the independent
generator, changed so that exactly one rule is broken, and the finding a faithful auditor
gives: (rule ID, severity, file, line), where the line is the one whose content breaks the
rule. Two ways to inject:

* a room at fault (`game.Fault`): the room makes the wrong decision (the wrong player brings
  in, a raise after the cap, a payment to the wrong hand …) and the hand goes on from there
  as that room would log it, consistently;
* an edit of the written lines: what a faulty log writer would print (a wrong card, a
  missing line, a summary that disagrees …), changing nothing else.

A card line that should be there and is not is reported, by convention, at the line that
opens its street (`*** 3rd STREET ***` for a missing 3rd-street card, the street's line for a
missing up card, `*** RIVER ***` for a missing river card), as the shipped violation samples
do: no line of that player on that street exists to point at. A missing ante is reported at
the player's 3rd-street `Dealt to` line, the first line that deals a player who has not anted.

Each injector's docstring says what it does; `INJECTORS` lists them all.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from .cards import RANKS, board_key, door_strength, group_key, low_key, rank, values_key
from .edits import (
    forced_cards,
    high_key,
    index_of,
    retext,
    rig,
    seven_of,
    straight_or_flush,
    street_actions,
    swap_card_text,
    twins,
    unused_cards,
    visible_cards_before,
)
from .game import (
    CASH_4_8,
    KNOWN_STAKES,
    OTHER_STAKES,
    Act,
    Fault,
    Game,
    HandSpec,
    Played,
    Player,
    Pot,
    pot_labels,
    split,
)
from .generate import Knobs, random_policy, random_spec, session
from .writer import Line, hand_lines, line_numbers, money, total_text


@dataclass(frozen=True)
class Expected:
    """The finding one violation should give."""

    rule: str
    severity: str  # "error", or "warning" where the rules say the evidence is weak
    file: int  # index of the file in the case
    line: int  # 1-based line in that file
    # other rule IDs that name the same violation where the catalog overlaps (used sparingly)
    accept: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.rule, *self.accept)


@dataclass
class Case:
    """Files of hands (each a list of tagged lines) with one violation, and its finding."""

    files: list[list[list[Line]]]
    expected: Expected
    order: list[int] | None = None  # the order the files are given to `razz audit`


@dataclass(frozen=True)
class Injector:
    rule: str
    kind: str
    make: Callable[[random.Random], Case | None]

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.make) or ""

    def build(self, rng: random.Random, tries: int = 400) -> Case | None:
        """A case, trying new hands until one fits (None if none did)."""
        for _ in range(tries):
            case = self.make(rng)
            if case is not None:
                return case
        return None


INJECTORS: list[Injector] = []


def injector(
    rule: str, kind: str
) -> Callable[[Callable[[random.Random], Case | None]], Callable[[random.Random], Case | None]]:
    def register(
        fn: Callable[[random.Random], Case | None],
    ) -> Callable[[random.Random], Case | None]:
        INJECTORS.append(Injector(rule, kind, fn))
        return fn

    return register


# -- building blocks ---------------------------------------------------------------------------


def single(
    lines: list[Line],
    target: Line,
    rule: str,
    severity: str = "error",
    accept: tuple[str, ...] = (),
) -> Case:
    return Case([[lines]], Expected(rule, severity, 0, index_of(lines, target) + 1, accept))


def deal(
    rng: random.Random,
    knobs: Knobs | None = None,
    fault: Fault | None = None,
    spec_fn: Callable[[HandSpec], HandSpec | None] | None = None,
    **policy: object,
) -> Played | None:
    """Play one hand (None when the rigging failed or a showdown hand lacks five ranks)."""
    spec = random_spec(rng, knobs)
    if spec_fn is not None:
        rigged_spec = spec_fn(spec)
        if rigged_spec is None:
            return None
        spec = rigged_spec
    rigged = frozenset(name for name, _ in spec.forced)
    if rigged and "stations" not in policy:
        policy["stations"] = rigged  # a rigged player stays in: the rig is the point
    played = Game(spec, random_policy(rng, **policy), fault).play()
    return None if played.degenerate else played


def marked(played: Played | None, rule: str, severity: str = "error") -> Case | None:
    """The case whose expected line is the first line of the event the room changed."""
    if played is None:
        return None
    lines = hand_lines(played)
    hits = [line for line in lines if line.mark]
    return single(lines, hits[0], rule, severity) if hits else None


def live_at(played: Played, name: str, street: int) -> bool:
    """Whether the player was still in the hand when `street` was dealt."""
    p = played.players[name]
    return not p.folded or p.folded_on >= street


def reached(lines: list[Line], street: int) -> bool:
    return any(line.kind == "street" and line.street == street for line in lines)


def street_line(lines: list[Line], street: int) -> Line:
    return next(line for line in lines if line.kind == "street" and line.street == street)


def dealt_line(lines: list[Line], name: str, street: int) -> Line | None:
    return next(
        (
            line
            for line in lines
            if line.kind == "dealt" and line.player == name and line.street == street
        ),
        None,
    )


class Once(Fault):
    """A room that errs once."""

    def __init__(self) -> None:
        self.done = False
        self.target: Player | None = None
        self.label = ""


# -- STRUCT-LIMIT ------------------------------------------------------------------------------


def _odd_limit(rng: random.Random, factor: int) -> Case | None:
    base = rng.choice((*KNOWN_STAKES, *OTHER_STAKES))
    st = replace(base, big=base.small * factor)
    played = deal(rng, Knobs(stakes=st))
    if played is None:
        return None
    lines = hand_lines(played)
    return single(lines, lines[0], "STRUCT-LIMIT")


@injector("STRUCT-LIMIT", "big-bet-three-small-bets")
def limit_triple(rng: random.Random) -> Case | None:
    """The header's big bet is three small bets (`$0.04/$0.12`, `50/150`); the room bets that
    big bet from 5th street on. Expected: the header line."""
    return _odd_limit(rng, 3)


@injector("STRUCT-LIMIT", "big-bet-equals-small-bet")
def limit_equal(rng: random.Random) -> Case | None:
    """The header's big bet equals the small bet (`$0.04/$0.04`); the room bets it from 5th
    street on. Expected: the header line."""
    return _odd_limit(rng, 1)


# -- STRUCT-ANTE -------------------------------------------------------------------------------


class Antes(Fault):
    """Antes of `factor` times the right one, by everyone (who=None) or by one player."""

    def __init__(self, who: str | None, factor: int = 2, missing: bool = False) -> None:
        self.who = who
        self.factor = factor
        self.missing = missing

    def ante(self, game: Game, p: Player, amount: int) -> int | None:
        if self.who is not None and p.name != self.who:
            return amount
        if self.missing:
            return None
        return min(game.spec.stakes.ante * self.factor, p.stack)


def _roomy(spec: HandSpec) -> list[str]:
    """Players who can post more than the ante and the bring-in."""
    st = spec.stakes
    return [s.name for s in spec.seats if s.stack > 2 * st.ante + st.small]


@injector("STRUCT-ANTE", "every-ante-doubled-known-stakes")
def ante_all(rng: random.Random) -> Case | None:
    """At stakes real logs show (`$0.04/$0.08` ante `$0.01`, `50/100` ante 10, `30/60` ante 6)
    every player posts twice the ante, in a single hand. Expected: the first ante line."""
    return marked(deal(rng, Knobs(stakes=rng.choice(KNOWN_STAKES)), Antes(None)), "STRUCT-ANTE")


@injector("STRUCT-ANTE", "one-ante-differs")
def ante_one(rng: random.Random) -> Case | None:
    """One player posts twice the ante that at least two others post (so the hand itself shows
    which amount is the odd one). Expected: that ante line."""
    spec = random_spec(rng, Knobs(players=rng.randint(3, 8)))
    roomy = _roomy(spec)
    if len(roomy) < 3:
        return None
    who = rng.choice(roomy)
    played = Game(spec, random_policy(rng), Antes(who)).play()
    return None if played.degenerate else marked(played, "STRUCT-ANTE")


@injector("STRUCT-ANTE", "one-ante-missing")
def ante_missing(rng: random.Random) -> Case | None:
    """One player is dealt in without posting the ante (no ante line). Expected: that
    player's 3rd-street `Dealt to` line, the first line that says something the rule forbids
    (cards to a player who has not anted)."""
    spec = random_spec(rng)
    roomy = _roomy(spec)
    if not roomy:
        return None
    who = rng.choice(roomy)
    played = Game(spec, random_policy(rng), Antes(who, missing=True)).play()
    if played.degenerate:
        return None
    lines = hand_lines(played)
    line = dealt_line(lines, who, 3)
    return None if line is None else single(lines, line, "STRUCT-ANTE")


def _table_case(
    rng: random.Random,
    knobs: Knobs,
    fault: Callable[[HandSpec], Fault | None],
    rule: str,
    hands: int = 5,
) -> Case | None:
    """A table of `hands` hands at stakes the ruleset does not know; one hand's room errs."""
    bad = rng.randrange(hands)
    faults: list[Fault | None] = []

    def fault_at(k: int, spec: HandSpec) -> tuple[HandSpec, Fault | None]:
        f = fault(spec) if k == bad else None
        faults.append(f)
        return spec, f

    table = session(rng, hands, knobs, fault_at)
    if len(table) < hands or any(p.degenerate for p in table):
        return None
    written = [hand_lines(p) for p in table]
    hits = [line for line in written[bad] if line.mark]
    if not hits:
        return None
    line = line_numbers(written)[bad] + index_of(written[bad], hits[0])
    return Case([written], Expected(rule, "error", 0, line))


@injector("STRUCT-ANTE", "table-settles-ante")
def ante_table(rng: random.Random) -> Case | None:
    """Five hands of one table at stakes no real log shows (`$0.10/$0.20`, `100/200`): four
    agree on the ante, in one every player posts twice as much. Expected: that hand's first
    ante line, as an error (at least three hands with one amount and none other settle it)."""
    return _table_case(
        rng, Knobs(stakes=rng.choice(OTHER_STAKES)), lambda spec: Antes(None), "STRUCT-ANTE"
    )


# -- STRUCT-BRINGIN-SIZE -------------------------------------------------------------------------


class BringInAmount(Once):
    def __init__(self, amount: Callable[[Game], int]) -> None:
        super().__init__()
        self.amount = amount

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or chosen.kind != "bringin" or chosen.all_in:
            return chosen
        self.done = True
        wrong = self.amount(game)
        if p.stack <= wrong:
            return chosen
        return Act("bringin", wrong, mark=True)


def _too_big(game: Game) -> int:
    st = game.spec.stakes
    return st.bring_in + (st.small - st.bring_in) // 2


@injector("STRUCT-BRINGIN-SIZE", "too-big-known-stakes")
def bring_in_big(rng: random.Random) -> Case | None:
    """At stakes real logs show, the bring-in is larger than the room's (`$0.03` at
    `$0.04/$0.08`, 32 at `50/100`), still below the small bet; callers call it. Expected:
    the bring-in line."""
    played = deal(
        rng, Knobs(stakes=rng.choice(KNOWN_STAKES)), BringInAmount(_too_big), complete=0.0
    )
    return marked(played, "STRUCT-BRINGIN-SIZE")


@injector("STRUCT-BRINGIN-SIZE", "ante-sized-known-stakes")
def bring_in_small(rng: random.Random) -> Case | None:
    """At stakes real logs show, the bring-in is only the ante (`$0.01` at `$0.04/$0.08`);
    callers call it. Expected: the bring-in line."""
    played = deal(
        rng,
        Knobs(stakes=rng.choice(KNOWN_STAKES)),
        BringInAmount(lambda g: g.spec.stakes.ante),
        complete=0.0,
    )
    return marked(played, "STRUCT-BRINGIN-SIZE")


@injector("STRUCT-BRINGIN-SIZE", "table-settles-bring-in")
def bring_in_table(rng: random.Random) -> Case | None:
    """Five hands of one table at stakes no real log shows, every bring-in posted (never
    completed): four agree, one brings in for more. Expected: that bring-in line, an error."""
    knobs = Knobs(stakes=rng.choice(OTHER_STAKES), policy={"complete": 0.0})
    return _table_case(rng, knobs, lambda spec: BringInAmount(_too_big), "STRUCT-BRINGIN-SIZE")


# -- bet and raise sizes: STRUCT-SMALL, STRUCT-BIG, STRUCT-NO-DOUBLE, ACT-RAISE-SIZE ---------------


class WagerSize(Once):
    """The first opening bet (or raise over a bet) on the given streets has another size."""

    def __init__(
        self, streets: set[int], size: Callable[[Game], int], raise_: bool = False
    ) -> None:
        super().__init__()
        self.streets = streets
        self.size = size
        self.raise_ = raise_

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or game.street not in self.streets or not chosen.full:
            return chosen
        if not self.raise_ and chosen.kind == "bet" and game.street >= 4:
            amount = self.size(game)
            if p.stack > amount:
                self.done = True
                return Act("bet", amount, amount, mark=True)
        if self.raise_ and chosen.kind == "raise" and game.wagers >= 1:
            to = game.cur + self.size(game)
            if p.stack > to - p.street_in:
                self.done = True
                return Act("raise", to - p.street_in, to, mark=True)
        return chosen


def _sized(rng: random.Random, rule: str, fault: WagerSize) -> Case | None:
    return marked(deal(rng, Knobs(short=0.0), fault, aggression=0.5, fold=0.2), rule)


@injector("STRUCT-SMALL", "4th-street-bet-too-small")
def small_short(rng: random.Random) -> Case | None:
    """The first bet of 4th street is the small bet less the ante (`$0.03` at `$0.04/$0.08`);
    the others call it. Expected: the bet line."""
    return _sized(
        rng, "STRUCT-SMALL", WagerSize({4}, lambda g: g.spec.stakes.small - g.spec.stakes.ante)
    )


@injector("STRUCT-SMALL", "4th-street-bet-too-big")
def small_long(rng: random.Random) -> Case | None:
    """The first bet of 4th street is one and a half small bets (`$0.06`), not the big bet.
    Expected: the bet line."""
    return _sized(rng, "STRUCT-SMALL", WagerSize({4}, lambda g: g.spec.stakes.small * 3 // 2))


@injector("STRUCT-BIG", "small-bet-on-5th-to-7th")
def big_small(rng: random.Random) -> Case | None:
    """The first bet of 5th street or later is one small bet. Expected: the bet line."""
    return _sized(rng, "STRUCT-BIG", WagerSize({5, 6, 7}, lambda g: g.spec.stakes.small))


@injector("STRUCT-BIG", "two-big-bets-on-5th-to-7th")
def big_double(rng: random.Random) -> Case | None:
    """The first bet of 5th street or later is two big bets. Expected: the bet line."""
    return _sized(rng, "STRUCT-BIG", WagerSize({5, 6, 7}, lambda g: 2 * g.spec.stakes.big))


@injector("STRUCT-NO-DOUBLE", "big-bet-on-4th")
def double_bet(rng: random.Random) -> Case | None:
    """The first bet of 4th street is the big bet (Stud's open-pair double bet). Expected: the
    bet line."""
    return _sized(rng, "STRUCT-NO-DOUBLE", WagerSize({4}, lambda g: g.spec.stakes.big))


@injector("STRUCT-NO-DOUBLE", "big-raise-on-4th")
def double_raise(rng: random.Random) -> Case | None:
    """A raise on 4th street raises by the big bet. Expected: the raise line."""
    return _sized(rng, "STRUCT-NO-DOUBLE", WagerSize({4}, lambda g: g.spec.stakes.big, raise_=True))


@injector("ACT-RAISE-SIZE", "raise-too-small")
def raise_small(rng: random.Random) -> Case | None:
    """A raise over a bet or completion raises by the street's unit less the ante (`raises
    $0.03 to $0.07` at `$0.04/$0.08`). Expected: the raise line."""
    st_unit = lambda g: g.unit - g.spec.stakes.ante  # noqa: E731
    return _sized(rng, "ACT-RAISE-SIZE", WagerSize({3, 4, 5, 6, 7}, st_unit, raise_=True))


@injector("ACT-RAISE-SIZE", "raise-too-big")
def raise_big(rng: random.Random) -> Case | None:
    """A raise raises by one and a half small bets on 3rd street, or by two big bets on 5th
    street or later (never a big bet on 4th: that is STRUCT-NO-DOUBLE). Expected: the raise
    line."""

    def size(g: Game) -> int:
        st = g.spec.stakes
        return st.small * 3 // 2 if g.street == 3 else 2 * st.big

    return _sized(rng, "ACT-RAISE-SIZE", WagerSize({3, 5, 6, 7}, size, raise_=True))


# -- STRUCT-CAP --------------------------------------------------------------------------------


class ExtraRaise(Once):
    """A room whose cap on one street is four raises; marks the raise past the real cap."""

    def __init__(self, street: int, heads_up: bool) -> None:
        super().__init__()
        self.street = street
        self.heads_up = heads_up

    def room_max_raises(self, game: Game) -> int:
        return 4 if game.street == self.street else game.spec.max_raises

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if game.street != self.street or chosen.kind != "raise" or game.wagers != 4:
            return chosen
        live = len(game.live())
        wrong_size = (live != 2) if self.heads_up else (live < 3)
        if self.done or wrong_size or not chosen.full:
            return next(o for o in options if o.kind == "call")
        self.done = True
        return replace(chosen, mark=True)


def _cap(rng: random.Random, heads_up: bool) -> Case | None:
    street = rng.randint(3, 7)
    players = 2 if heads_up and rng.random() < 0.6 else None
    knobs = Knobs(players=players if heads_up else rng.randint(3, 8), short=0.0, ante_all_in=0.0)
    played = deal(
        rng, knobs, ExtraRaise(street, heads_up), aggressive_streets=frozenset({street}), fold=0.1
    )
    return marked(played, "STRUCT-CAP")


@injector("STRUCT-CAP", "fourth-raise-multiway")
def cap_multiway(rng: random.Random) -> Case | None:
    """With three or more players in the hand, a fourth raise follows the bet and three
    raises; the room prints `Betting is capped` only after it. Expected: the fourth raise."""
    return _cap(rng, heads_up=False)


@injector("STRUCT-CAP", "fourth-raise-heads-up")
def cap_heads_up(rng: random.Random) -> Case | None:
    """The same with two players left in the hand (PokerStars keeps the cap heads-up).
    Expected: the fourth raise."""
    return _cap(rng, heads_up=True)


# -- dealing -----------------------------------------------------------------------------------


@injector("DEAL-3RD", "door-card-line-missing")
def third_missing(rng: random.Random) -> Case | None:
    """A player who folds on 3rd street (not the bring-in, not the hero) has no 3rd-street
    `Dealt to` line. Expected: the `*** 3rd STREET ***` line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    who = [
        p.name
        for p in played.players.values()
        if p.folded_on == 3 and p.name not in (played.bring_in, played.spec.hero)
    ]
    if not who:
        return None
    gone = dealt_line(lines, rng.choice(who), 3)
    lines = [line for line in lines if line is not gone]
    return single(lines, street_line(lines, 3), "DEAL-3RD")


@injector("DEAL-3RD", "hero-dealt-two-cards")
def third_hero_two(rng: random.Random) -> Case | None:
    """The hero's 3rd-street line shows one down card and the door card (`Dealt to Hero [Td
    9s]`); the hero folds on 3rd street. Expected: that line, DEAL-3RD (DEAL-COUNT, which
    counts the cards held after each street, names it too and is accepted)."""
    played = deal(rng)
    if played is None:
        return None
    hero = played.players[played.spec.hero]
    if hero.folded_on != 3 or hero.name == played.bring_in:
        return None
    lines = hand_lines(played)
    line = dealt_line(lines, hero.name, 3)
    assert line is not None
    k = index_of(lines, line)
    lines[k] = retext(line, f"Dealt to {hero.name} [{hero.cards[0]} {hero.cards[2]}]")
    return single(lines, lines[k], "DEAL-3RD", accept=("DEAL-COUNT",))


@injector("DEAL-3RD", "two-door-cards")
def third_two_up(rng: random.Random) -> Case | None:
    """A player who folds on 3rd street (not the bring-in, not the hero) shows two up cards on
    3rd street (`Dealt to X [4c Qc]`): an unused card lower than the door card, then the door
    card. Expected: that line, DEAL-3RD (or DEAL-COUNT)."""
    played = deal(rng)
    if played is None:
        return None
    who = [
        p
        for p in played.players.values()
        if p.folded_on == 3
        and p.name not in (played.bring_in, played.spec.hero)
        and rank(p.cards[2]) > 1
    ]
    if not who:
        return None
    p = rng.choice(who)
    extra = [c for c in unused_cards(played) if rank(c) < rank(p.cards[2])]
    if not extra:
        return None
    lines = hand_lines(played)
    line = dealt_line(lines, p.name, 3)
    assert line is not None
    k = index_of(lines, line)
    lines[k] = retext(line, f"Dealt to {p.name} [{rng.choice(extra)} {p.cards[2]}]")
    return single(lines, lines[k], "DEAL-3RD", accept=("DEAL-COUNT",))


@injector("DEAL-3RD", "door-card-dealt-twice")
def third_twice(rng: random.Random) -> Case | None:
    """A player who folds on 3rd street (not the bring-in, not the hero) gets a second
    3rd-street `Dealt to` line right after the first, with an unused card lower than the door
    card (so the bring-in does not change). Expected: the second line, DEAL-3RD (or
    DEAL-COUNT)."""
    played = deal(rng)
    if played is None:
        return None
    who = [
        p
        for p in played.players.values()
        if p.folded_on == 3
        and p.name not in (played.bring_in, played.spec.hero)
        and rank(p.cards[2]) > 1
    ]
    if not who:
        return None
    p = rng.choice(who)
    extra = [c for c in unused_cards(played) if rank(c) < rank(p.cards[2])]
    if not extra:
        return None
    lines = hand_lines(played)
    first = dealt_line(lines, p.name, 3)
    assert first is not None
    second = Line(f"Dealt to {p.name} [{rng.choice(extra)}]", "dealt", p.name, street=3)
    lines.insert(index_of(lines, first) + 1, second)
    return single(lines, second, "DEAL-3RD", accept=("DEAL-COUNT",))


def _dealt_text(played: Played, name: str, street: int, new: list[str]) -> str:
    p = played.players[name]
    old = p.cards[: street - 1] if name == played.spec.hero else p.cards[2 : street - 1]
    return f"Dealt to {name} [{' '.join(old)}] [{' '.join(new)}]"


def _insert_dealt(lines: list[Line], played: Played, name: str, street: int, text: str) -> Line:
    """Insert a `Dealt to` line for the street in seat order among that street's deal lines."""
    seat = played.players[name].seat
    marker = index_of(lines, street_line(lines, street))
    k = marker + 1
    while (
        k < len(lines)
        and lines[k].kind == "dealt"
        and played.players[lines[k].player or ""].seat < seat
    ):
        k += 1
    line = Line(text, "dealt", name, street=street)
    lines.insert(k, line)
    return line


@injector("DEAL-UP", "folded-player-dealt")
def up_folded(rng: random.Random) -> Case | None:
    """A player who folded is dealt an up card (an unused one) on a later street, 4th to 6th.
    Expected: that `Dealt to` line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    who = [
        p
        for p in played.players.values()
        if p.folded and p.folded_on <= 5 and reached(lines, p.folded_on + 1)
    ]
    if not who:
        return None
    p = rng.choice(who)
    street = p.folded_on + 1
    if street == 7 or not any(line.kind == "dealt" and line.street == street for line in lines):
        return None
    spare = unused_cards(played)
    if not spare:
        return None
    text = _dealt_text(played, p.name, street, [rng.choice(spare)])
    return single(lines, _insert_dealt(lines, played, p.name, street, text), "DEAL-UP")


@injector("DEAL-UP", "up-card-line-missing")
def up_missing(rng: random.Random) -> Case | None:
    """A player who folds on 4th, 5th or 6th street has no `Dealt to` line on that street
    (not the street's first actor, and the board left makes them no first actor either).
    Expected: the street's `***` line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    who = []
    for p in played.players.values():
        s = p.folded_on
        if not p.folded or not 4 <= s <= 6 or played.openers.get(s) in (None, p.name):
            continue
        opener = played.players[played.openers[s]]
        if board_key(p.up_cards()[: s - 3]) > board_key(opener.up_cards()[: s - 2]):
            who.append(p)
    if not who:
        return None
    p = rng.choice(who)
    gone = dealt_line(lines, p.name, p.folded_on)
    lines = [line for line in lines if line is not gone]
    return single(lines, street_line(lines, p.folded_on), "DEAL-UP")


@injector("DEAL-7TH", "river-card-face-up")
def river_up(rng: random.Random) -> Case | None:
    """A player other than the hero gets a river line that shows the river card face up
    (`Dealt to X [4 up cards] [7th card]`, the card they really got). Expected: that line."""
    played = deal(rng, fold=0.15)
    if played is None or played.board:
        return None
    lines = hand_lines(played)
    if not reached(lines, 7):
        return None
    who = [
        n
        for n, p in played.players.items()
        if live_at(played, n, 7) and n != played.spec.hero and len(p.cards) == 7
    ]
    if not who:
        return None
    name = rng.choice(who)
    text = _dealt_text(played, name, 7, [played.players[name].cards[6]])
    return single(lines, _insert_dealt(lines, played, name, 7, text), "DEAL-7TH")


@injector("DEAL-7TH", "other-player-river-line")
def river_other(rng: random.Random) -> Case | None:
    """A player other than the hero gets a river line as the hero does (all six earlier cards,
    then the river card they really got): the log shows a card only its owner may see.
    Expected: that line."""
    played = deal(rng, fold=0.15)
    if played is None or played.board:
        return None
    lines = hand_lines(played)
    if not reached(lines, 7):
        return None
    who = [
        n
        for n, p in played.players.items()
        if live_at(played, n, 7) and n != played.spec.hero and len(p.cards) == 7
    ]
    if not who:
        return None
    p = played.players[rng.choice(who)]
    text = f"Dealt to {p.name} [{' '.join(p.cards[:6])}] [{p.cards[6]}]"
    return single(lines, _insert_dealt(lines, played, p.name, 7, text), "DEAL-7TH")


@injector("DEAL-7TH", "hero-river-card-missing")
def river_hero_missing(rng: random.Random) -> Case | None:
    """The hero, still in at the river, has no river `Dealt to` line and folds on the river.
    Expected: the `*** RIVER ***` line."""

    def force(game: Game, p: Player, options: list[Act]) -> Act | None:
        if game.street == 7 and p.name == game.spec.hero:
            kinds = {o.kind: o for o in options}
            return kinds.get("fold") or kinds.get("check")
        return None

    played = deal(rng, fold=0.1, aggressive_streets=frozenset({7}), force=force)
    if played is None or played.board:
        return None
    hero = played.players[played.spec.hero]
    if hero.folded_on != 7:
        return None
    lines = hand_lines(played)
    gone = dealt_line(lines, hero.name, 7)
    lines = [line for line in lines if line is not gone]
    return single(lines, street_line(lines, 7), "DEAL-7TH")


class Community(Fault):
    def community(self, game: Game, needed: bool) -> bool:
        return True


@injector("DEAL-COMMUNITY", "community-card-not-needed")
def community_extra(rng: random.Random) -> Case | None:
    """The room deals a community river card (`*** RIVER *** [6h]`) although the deck holds a
    card for every player left; shows list six cards. Expected: the `*** RIVER ***` line."""
    played = deal(rng, None, Community(), fold=0.15)
    if played is None or not played.board:
        return None
    lines = hand_lines(played)
    needed = sum(live_at(played, n, 7) for n in played.players) > 52 - sum(
        len(p.cards) for p in played.players.values()
    )
    return None if needed else single(lines, street_line(lines, 7), "DEAL-COMMUNITY")


def _replace_everywhere(lines: list[Line], owner: str, old: str, new: str, start: int) -> None:
    """Rewrite one player's card on every line from `start` that shows that player's cards."""
    for k in range(start, len(lines)):
        line = lines[k]
        if line.player == owner and line.kind in ("dealt", "show", "result"):
            lines[k] = retext(line, swap_card_text(line.text, old, new))


@injector("DEAL-UNIQUE", "up-card-dealt-twice")
def unique_up(rng: random.Random) -> Case | None:
    """A player's 4th-to-6th-street up card is replaced by a card of the same rank already
    shown on an earlier line for someone else (so no low, board or order changes), on every
    line that shows it. Expected: the `Dealt to` line where the card appears a second time."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for k, line in enumerate(lines):
        if line.kind != "dealt" or not 4 <= line.street <= 6 or line.ev is None:
            continue
        new = line.ev.new[0]
        seen = visible_cards_before(lines, k)
        for card, owner in seen.items():
            if owner != line.player and rank(card) == rank(new) and card != new:
                options.append((k, line.player or "", new, card))
    if not options:
        return None
    k, owner, old, dup = rng.choice(options)
    _replace_everywhere(lines, owner, old, dup, k)
    return single(lines, lines[k], "DEAL-UNIQUE")


@injector("DEAL-UNIQUE", "shown-down-card-dealt-twice")
def unique_shown(rng: random.Random) -> Case | None:
    """A player (not the hero) shows at the showdown a down card that is, in rank and suit, a
    card shown earlier for someone else (same rank as their real card, so the low is the same).
    Expected: the `shows` line."""
    played = deal(rng, muck=0.0, fold=0.15)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for k, line in enumerate(lines):
        if line.kind != "show" or line.player == played.spec.hero:
            continue
        p = played.players[line.player or ""]
        downs = [p.cards[0], p.cards[1]] + ([p.cards[6]] if len(p.cards) == 7 else [])
        seen = visible_cards_before(lines, k)
        for down in downs:
            for card, owner in seen.items():
                if owner != p.name and rank(card) == rank(down) and card != down:
                    options.append((k, p.name, down, card))
    if not options:
        return None
    k, owner, old, dup = rng.choice(options)
    _replace_everywhere(lines, owner, old, dup, k)
    return single(lines, lines[k], "DEAL-UNIQUE")


@injector("DEAL-COUNT", "second-line-on-one-street")
def count_second_line(rng: random.Random) -> Case | None:
    """A player who folds on 4th, 5th or 6th street gets a second `Dealt to` line on that
    street right after the first (the same earlier cards, a new unused card), as a room that
    deals twice would log it. Expected: the second line."""
    played = deal(rng)
    if played is None:
        return None
    who = [p for p in played.players.values() if 4 <= p.folded_on <= 6]
    spare = unused_cards(played)
    if not who or not spare:
        return None
    p = rng.choice(who)
    lines = hand_lines(played)
    first = dealt_line(lines, p.name, p.folded_on)
    if first is None:
        return None
    second = Line(
        _dealt_text(played, p.name, p.folded_on, [rng.choice(spare)]),
        "dealt",
        p.name,
        street=p.folded_on,
    )
    lines.insert(index_of(lines, first) + 1, second)
    return single(lines, second, "DEAL-COUNT")


def _count(rng: random.Random, hero: bool) -> Case | None:
    played = deal(rng)
    if played is None:
        return None
    who = [
        p
        for p in played.players.values()
        if 4 <= p.folded_on <= 6 and (p.name == played.spec.hero) == hero
    ]
    if not who:
        return None
    p = rng.choice(who)
    lines = hand_lines(played)
    line = dealt_line(lines, p.name, p.folded_on)
    if line is None:
        return None
    k = index_of(lines, line)
    spare = unused_cards(played)
    if not spare:
        return None
    new = [p.cards[p.folded_on - 1], rng.choice(spare)]
    lines[k] = retext(line, _dealt_text(played, p.name, p.folded_on, new))
    return single(lines, lines[k], "DEAL-COUNT")


@injector("DEAL-COUNT", "two-cards-on-one-street")
def count_other(rng: random.Random) -> Case | None:
    """A player (not the hero) who folds on 4th, 5th or 6th street gets two new cards on that
    street's line (the second an unused card). Expected: that line."""
    return _count(rng, hero=False)


@injector("DEAL-COUNT", "hero-two-cards-on-one-street")
def count_hero(rng: random.Random) -> Case | None:
    """The hero, who folds on 4th, 5th or 6th street, gets two new cards on that street's line.
    Expected: that line."""
    return _count(rng, hero=True)


# -- the bring-in ------------------------------------------------------------------------------


class WrongBringIn(Once):
    """The room gives the bring-in to another player, who brings in or completes."""

    def __init__(self, choose: Callable[[Game, Player], Player | None], complete: bool) -> None:
        super().__init__()
        self.choose = choose
        self.complete = complete

    def bring_in_player(self, game: Game, correct: Player) -> Player:
        self.target = self.choose(game, correct)
        return self.target or correct

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or p is not self.target:
            return chosen
        self.done = True
        want = "bet" if self.complete else "bringin"
        option = next((o for o in options if o.kind == want), None)
        return replace(option or chosen, mark=option is not None)


def _wrong_who(game: Game, correct: Player) -> Player | None:
    live = game.live()
    if max(live, key=lambda p: door_strength(p.cards[2])) is not correct:
        return None  # the bring-in passed on from an all-in player: BRINGIN-ALLIN
    lower = [p for p in live if p.can_act and rank(p.cards[2]) < rank(correct.cards[2])]
    return game.policy.rng.choice(lower) if lower else None


@injector("BRINGIN-WHO", "lower-door-brings-in")
def who_brings(rng: random.Random) -> Case | None:
    """A player whose door card is of lower rank than the highest brings in; 3rd street goes
    on clockwise from them. Expected: the bring-in line."""
    return marked(deal(rng, None, WrongBringIn(_wrong_who, False)), "BRINGIN-WHO")


@injector("BRINGIN-WHO", "lower-door-completes")
def who_completes(rng: random.Random) -> Case | None:
    """A player whose door card is of lower rank than the highest completes (`bets`) instead
    of the bring-in. Expected: the `bets` line."""
    return marked(deal(rng, Knobs(short=0.0), WrongBringIn(_wrong_who, True)), "BRINGIN-WHO")


def _tied_doors(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 2:
            return None
        a, b = rng.sample([s.name for s in spec.seats], 2)
        r = rng.choice("9TJQK")
        s1, s2 = rng.sample("cdhs", 2)
        return rig(rig(spec, a, {2: r + s1}), b, {2: r + s2})

    return spec_fn


def _wrong_suit(game: Game, correct: Player) -> Player | None:
    live = game.live()
    if max(live, key=lambda p: door_strength(p.cards[2])) is not correct:
        return None
    tied = [
        p
        for p in live
        if p.can_act and p is not correct and rank(p.cards[2]) == rank(correct.cards[2])
    ]
    return game.policy.rng.choice(tied) if tied else None


@injector("BRINGIN-SUIT", "lower-suit-brings-in")
def suit_brings(rng: random.Random) -> Case | None:
    """Two door cards share the highest rank; the one of the lower suit brings in (Q♦ before
    Q♥). Expected: the bring-in line."""
    return marked(
        deal(rng, None, WrongBringIn(_wrong_suit, False), _tied_doors(rng)), "BRINGIN-SUIT"
    )


@injector("BRINGIN-SUIT", "lower-suit-completes")
def suit_completes(rng: random.Random) -> Case | None:
    """Two door cards share the highest rank; the one of the lower suit completes (`bets`).
    Expected: the `bets` line."""
    return marked(
        deal(rng, Knobs(short=0.0), WrongBringIn(_wrong_suit, True), _tied_doors(rng)),
        "BRINGIN-SUIT",
    )


def _all_in_door(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    """One player cannot cover the ante and holds the worst door card, K♠."""

    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 3:
            return None
        seat = rng.choice(spec.seats)
        seats = [
            replace(s, stack=rng.randint(1, spec.stakes.ante)) if s is seat else s
            for s in spec.seats
        ]
        return rig(replace(spec, seats=seats), seat.name, {2: "Ks"})

    return spec_fn


def _passed(game: Game, correct: Player) -> Player | None:
    """The player all in on the ante with the highest door card, when the bring-in passed on."""
    worst = max(game.live(), key=lambda p: door_strength(p.cards[2]))
    return worst if worst.all_in and worst is not correct else None


def _highest_active(game: Game, correct: Player) -> Player | None:
    if _passed(game, correct) is None:
        return None
    active = [p for p in game.live() if p.can_act]
    choice = max(active, key=lambda p: door_strength(p.cards[2]))
    return None if choice is correct else choice


def _counterclockwise(game: Game, correct: Player) -> Player | None:
    worst = _passed(game, correct)
    if worst is None:
        return None
    choice = next(p for p in reversed(game.after(worst)) if p.can_act)
    return None if choice is correct else choice


@injector("BRINGIN-ALLIN", "highest-door-that-can-act-brings-in")
def allin_highest(rng: random.Random) -> Case | None:
    """The highest door card is all in on the ante; the room gives the bring-in to the highest
    door card among the others instead of the next player clockwise. Expected: the bring-in
    line."""
    knobs = Knobs(short=0.0, ante_all_in=0.0)
    return marked(
        deal(rng, knobs, WrongBringIn(_highest_active, False), _all_in_door(rng)), "BRINGIN-ALLIN"
    )


@injector("BRINGIN-ALLIN", "counterclockwise-brings-in")
def allin_back(rng: random.Random) -> Case | None:
    """The highest door card is all in on the ante; the room passes the bring-in
    counterclockwise (the previous seat). Expected: the bring-in line."""
    knobs = Knobs(short=0.0, ante_all_in=0.0)
    return marked(
        deal(rng, knobs, WrongBringIn(_counterclockwise, False), _all_in_door(rng)), "BRINGIN-ALLIN"
    )


class BringInChoice(Once):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or not any(o.kind == "bringin" for o in options):
            return chosen
        self.done = True
        return Act(self.kind, mark=True)


@injector("BRINGIN-CHOICE", "bring-in-checks")
def choice_check(rng: random.Random) -> Case | None:
    """The bring-in player checks instead of bringing in or completing; the others may check
    or complete (`bets`). Expected: the `checks` line."""
    return marked(deal(rng, None, BringInChoice("check")), "BRINGIN-CHOICE")


@injector("BRINGIN-CHOICE", "bring-in-folds")
def choice_fold(rng: random.Random) -> Case | None:
    """The bring-in player folds without posting the bring-in. Expected: the `folds` line."""
    return marked(deal(rng, None, BringInChoice("fold")), "BRINGIN-CHOICE")


# -- order of action -----------------------------------------------------------------------


def _swappable(a: Line, b: Line) -> bool:
    if a.ev is None or b.ev is None or a.player == b.player:
        return False
    if a.kind not in ("fold", "call", "check") or b.kind not in ("fold", "call", "check"):
        return False
    if a.ev.all_in or b.ev.all_in:
        return False
    if "check" in (a.kind, b.kind):
        return a.kind == b.kind
    if a.kind == "call" and b.kind == "call":
        return a.ev.amount == b.ev.amount
    return True


def _swap(lines: list[Line], k: int) -> list[Line]:
    lines = list(lines)
    lines[k], lines[k + 1] = lines[k + 1], lines[k]
    return lines


@injector("ORDER-3RD", "second-player-acts-first")
def order_third(rng: random.Random) -> Case | None:
    """On 3rd street the player two seats after the bring-in acts before the player next to
    it (the two actions, folds or calls of the same amount, swap places). Expected: the line of
    the player who acts out of turn."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    acts = street_actions(lines, 3)
    if len(acts) < 3 or acts[0].player != played.bring_in:
        return None
    k = index_of(lines, acts[1])
    if lines[k + 1] is not acts[2] or not _swappable(acts[1], acts[2]):
        return None
    lines = _swap(lines, k)
    return single(lines, lines[k], "ORDER-3RD")


@injector("ORDER-CLOCKWISE", "later-street-actions-swapped")
def order_clockwise(rng: random.Random) -> Case | None:
    """On 4th street or later, two consecutive actions after the first one (folds, checks, or
    calls of the same amount) swap places. Expected: the line of the player who acts out of
    turn."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for street in range(4, 8):
        acts = street_actions(lines, street)
        for j in range(1, len(acts) - 1):
            k = index_of(lines, acts[j])
            if lines[k + 1] is acts[j + 1] and _swappable(acts[j], acts[j + 1]):
                options.append(k)
    if not options:
        return None
    k = rng.choice(options)
    lines = _swap(lines, k)
    return single(lines, lines[k], "ORDER-CLOCKWISE")


def _board(p: Player, street: int) -> list[str]:
    return p.up_cards()[: min(street, 6) - 2]


class WrongOpener(Once):
    """On one street the room lets another player open; play goes on clockwise from them."""

    def __init__(self, street: int, choose: Callable[[Game, int, Player], Player | None]) -> None:
        super().__init__()
        self.street = street
        self.choose = choose

    def opener(self, game: Game, street: int, correct: Player) -> Player:
        if street != self.street or self.target is not None:
            return correct
        self.target = self.choose(game, street, correct)
        return self.target or correct

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or p is not self.target or game.street != self.street:
            return chosen
        self.done = True
        return replace(chosen, mark=True)


def _best_board(game: Game, street: int) -> Player:
    return min(game.live(), key=lambda p: (board_key(_board(p, street)), p.seat))


def _worst_board(game: Game, street: int, correct: Player) -> Player | None:
    if _best_board(game, street) is not correct:
        return None  # the best board is all in: ORDER-ALLIN
    key = board_key(_board(correct, street))
    worse = [p for p in game.live() if p.can_act and board_key(_board(p, street)) > key]
    return max(worse, key=lambda p: board_key(_board(p, street))) if worse else None


def _previous_opener(game: Game, street: int, correct: Player) -> Player | None:
    if _best_board(game, street) is not correct:
        return None
    prev = game.by_name.get(game.openers.get(street - 1, game.bring_in if street == 4 else ""))
    if (
        prev is None
        or not prev.can_act
        or board_key(_board(prev, street)) <= board_key(_board(correct, street))
    ):
        return None
    return prev


@injector("ORDER-LATER", "worst-board-opens")
def later_worst(rng: random.Random) -> Case | None:
    """On one street from 4th to 7th, the player with the worst exposed board opens (as in
    Stud high); play goes on clockwise from them. Expected: their first action."""
    fault = WrongOpener(rng.randint(4, 7), _worst_board)
    return marked(deal(rng, None, fault, fold=0.2), "ORDER-LATER")


@injector("ORDER-LATER", "previous-opener-opens-again")
def later_previous(rng: random.Random) -> Case | None:
    """On one street from 4th to 7th, the previous street's first actor opens again although
    another board is now better. Expected: their first action."""
    fault = WrongOpener(rng.randint(4, 7), _previous_opener)
    return marked(deal(rng, None, fault, fold=0.2), "ORDER-LATER")


def _tie_rig(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 2:
            return None
        a, b = rng.sample([s.name for s in spec.seats], 2)
        return twins(rng, spec, a, b, range(2, 6))

    return spec_fn


def _later_tied(game: Game, street: int, correct: Player) -> Player | None:
    if _best_board(game, street) is not correct:
        return None
    key = board_key(_board(correct, street))
    tied = [
        p
        for p in game.live()
        if p.can_act and p.seat > correct.seat and board_key(_board(p, street)) == key
    ]
    return tied[0] if tied else None


@injector("ORDER-TIE", "later-seat-opens-on-tie")
def tie_later(rng: random.Random) -> Case | None:
    """Two players show boards of the same ranks (rigged); on one street from 4th to 7th,
    where they tie for the best board, the later seat opens. Expected: its first action."""
    fault = WrongOpener(rng.randint(4, 7), _later_tied)
    return marked(deal(rng, Knobs(short=0.0), fault, _tie_rig(rng), fold=0.1), "ORDER-TIE")


def _allin_rig(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    """A short stack with the best board (A, 2, 3, 4 up) who is all in on 3rd street."""

    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 3:
            return None
        seat = rng.choice(spec.seats)
        st = spec.stakes
        cards = seven_of(
            rng,
            [rng.randint(5, 13), rng.randint(5, 13), 1, 2, 3, 4, rng.randint(1, 13)],
            forced_cards(spec),
        )
        if cards is None:
            return None
        seats = [
            replace(s, stack=st.ante + rng.randint(1, st.bring_in)) if s is seat else s
            for s in spec.seats
        ]
        return rig(replace(spec, seats=seats), seat.name, dict(enumerate(cards)))

    return spec_fn


def _best_active(game: Game, street: int, correct: Player) -> Player | None:
    best = _best_board(game, street)
    if best.can_act:
        return None
    active = [p for p in game.live() if p.can_act]
    choice = min(active, key=lambda p: (board_key(_board(p, street)), p.seat))
    return None if choice is correct else choice


def _previous_active(game: Game, street: int, correct: Player) -> Player | None:
    best = _best_board(game, street)
    if best.can_act:
        return None
    choice = next(p for p in reversed(game.after(best)) if p.can_act)
    return None if choice is correct else choice


@injector("ORDER-ALLIN", "best-board-that-can-act-opens")
def allin_best_active(rng: random.Random) -> Case | None:
    """The best board is all in; on one street from 4th to 7th the room lets the best board
    among the players who can act open, not the next player clockwise. Expected: their first
    action."""
    fault = WrongOpener(rng.randint(4, 7), _best_active)
    knobs = Knobs(players=rng.randint(4, 8), short=0.0, ante_all_in=0.0)
    return marked(deal(rng, knobs, fault, _allin_rig(rng), fold=0.1), "ORDER-ALLIN")


@injector("ORDER-ALLIN", "previous-seat-opens")
def allin_previous(rng: random.Random) -> Case | None:
    """The best board is all in; the room lets the player counterclockwise from it open.
    Expected: their first action."""
    fault = WrongOpener(rng.randint(4, 7), _previous_active)
    knobs = Knobs(players=rng.randint(3, 8), short=0.0, ante_all_in=0.0)
    return marked(deal(rng, knobs, fault, _allin_rig(rng), fold=0.1), "ORDER-ALLIN")


# -- betting actions -----------------------------------------------------------------------


@injector("ACT-CHOICES", "raise-written-as-bet")
def choices_bet(rng: random.Random) -> Case | None:
    """Facing a bet (or a completion), a player's first action of the round, a raise, is
    logged as a bet of the raise's total (`bets $0.08` facing `$0.04`). Expected: that line."""
    played = deal(rng, aggression=0.4)
    if played is None:
        return None
    lines = hand_lines(played)
    unit = played.spec.stakes.unit
    options = []
    for k, line in enumerate(lines):
        if line.kind != "raise" or line.ev is None:
            continue
        acts = street_actions(lines, line.street)
        before = acts[: acts.index(line)]
        if line.street == 3 and not any(a.kind in ("bet", "raise") for a in before):
            continue  # a completion over the bring-in: ACT-COMPLETE territory
        if any(a.player == line.player for a in before):
            continue  # `bets N` puts N in: only a player's first chips of the round read right
        options.append(k)
    if not options:
        return None
    k = rng.choice(options)
    ev = lines[k].ev
    assert ev is not None
    allin = " and is all-in" if ev.all_in else ""
    lines[k] = retext(lines[k], f"{lines[k].player}: bets {money(ev.to, unit)}{allin}")
    return single(lines, lines[k], "ACT-CHOICES")


@injector("ACT-CHOICES", "bet-written-as-raise")
def choices_raise(rng: random.Random) -> Case | None:
    """The opening bet of 4th street or later is logged as a raise with nothing to raise
    (`raises $0.08 to $0.08`). Expected: that line."""
    played = deal(rng, aggression=0.4)
    if played is None:
        return None
    lines = hand_lines(played)
    unit = played.spec.stakes.unit
    options = [
        k
        for k, line in enumerate(lines)
        if line.kind == "bet" and line.street >= 4 and line.ev is not None
    ]
    if not options:
        return None
    k = rng.choice(options)
    ev = lines[k].ev
    assert ev is not None
    allin = " and is all-in" if ev.all_in else ""
    lines[k] = retext(
        lines[k],
        f"{lines[k].player}: raises {money(ev.amount, unit)} to {money(ev.amount, unit)}{allin}",
    )
    return single(lines, lines[k], "ACT-CHOICES")


def _no_wager_after_mark(played: Played | None) -> Played | None:
    """Keep a hand only if no bet or raise follows the marked action in its betting round."""
    if played is None:
        return None
    seen = False
    for e in played.events:
        if e.mark:
            seen = True
        elif seen and e.kind in ("street", "showdown"):
            return played
        elif seen and e.kind in ("bet", "raise"):
            return None
    return played if seen else None


class CheckFacingBet(Once):
    def __init__(self, third: bool) -> None:
        super().__init__()
        self.third = third

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or chosen.kind != "call" or chosen.all_in or (game.street == 3) != self.third:
            return chosen
        if (game.wagers == 0) != self.third:
            return chosen
        self.done = True
        game.no_uncalled = True  # the room took the check for a call
        return Act("check", mark=True)


@injector("ACT-CHECK", "check-facing-a-bet")
def check_bet(rng: random.Random) -> Case | None:
    """On 4th street or later, a player facing a bet checks (and stays in without paying); no
    bet or raise follows in that round. Expected: the `checks` line."""
    played = _no_wager_after_mark(deal(rng, None, CheckFacingBet(False), aggression=0.35, fold=0.2))
    return marked(played, "ACT-CHECK")


@injector("ACT-CHECK", "check-facing-the-bring-in")
def check_bring_in(rng: random.Random) -> Case | None:
    """On 3rd street, a player facing only the bring-in checks. Expected: the `checks` line."""
    played = _no_wager_after_mark(
        deal(rng, None, CheckFacingBet(True), complete=0.0, aggression=0.1)
    )
    return marked(played, "ACT-CHECK")


class WrongCall(Once):
    def __init__(self, more: bool) -> None:
        super().__init__()
        self.more = more

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or chosen.kind != "call" or chosen.all_in:
            return chosen
        owed = chosen.put
        amount = owed + game.unit // 2 if self.more else owed // 2
        if amount <= 0 or amount >= p.stack:
            return chosen
        self.done = True
        game.no_uncalled = True
        return Act("call", amount, mark=True)


@injector("ACT-CALL", "call-for-less")
def call_less(rng: random.Random) -> Case | None:
    """A player who is not all in calls half of what they owe (`calls $0.02` facing `$0.04`)
    and stays in; no bet or raise follows in that round. Expected: the `calls` line."""
    return marked(_no_wager_after_mark(deal(rng, None, WrongCall(False))), "ACT-CALL")


@injector("ACT-CALL", "call-for-more")
def call_more(rng: random.Random) -> Case | None:
    """A player calls half a unit more than they owe; no bet or raise follows in that round.
    Expected: the `calls` line."""
    return marked(_no_wager_after_mark(deal(rng, None, WrongCall(True))), "ACT-CALL")


class WrongCompletion(Once):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or game.street != 3:
            return chosen
        st = game.spec.stakes
        if self.kind == "bring-in-bets":
            if not any(o.kind == "bringin" for o in options):
                return chosen
            self.done = True
            amount = st.small * 3 // 2
            return Act("bet", amount, amount, mark=True) if p.stack > amount else chosen
        if chosen.kind != "raise" or game.wagers != 0 or game.cur == 0 or not chosen.full:
            return chosen
        to = (st.bring_in + st.small) // 2 if self.kind == "small" else st.small * 3 // 2
        if not game.cur < to != st.small or p.stack <= to - p.street_in:
            return chosen
        self.done = True
        return Act("raise", to - p.street_in, to, mark=True)


@injector("ACT-COMPLETE", "completion-too-small")
def complete_small(rng: random.Random) -> Case | None:
    """Over the bring-in, a player "completes" to less than the small bet (`raises $0.01 to
    $0.03`), not all in. Expected: that raise line."""
    return marked(
        deal(rng, None, WrongCompletion("small"), complete=0.0, aggression=0.5), "ACT-COMPLETE"
    )


@injector("ACT-COMPLETE", "completion-too-big")
def complete_big(rng: random.Random) -> Case | None:
    """Over the bring-in, a player completes to one and a half small bets (`raises $0.04 to
    $0.06`). Expected: that raise line."""
    return marked(
        deal(rng, None, WrongCompletion("big"), complete=0.0, aggression=0.5), "ACT-COMPLETE"
    )


@injector("ACT-COMPLETE", "bring-in-completes-too-big")
def complete_bring_in(rng: random.Random) -> Case | None:
    """The bring-in player completes to one and a half small bets (`bets $0.06`). Expected:
    the `bets` line."""
    return marked(deal(rng, Knobs(short=0.0), WrongCompletion("bring-in-bets")), "ACT-COMPLETE")


class ReopenAfterShort(Once):
    """A player who had called or raised re-raises after a short all-in raise over a full bet."""

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        if self.done or not game.short_seen or not game.short_over_full:
            return chosen
        if 2 * game.short_increment >= game.unit:
            return chosen  # half a bet or more: some rooms count it as a full raise
        if p.name not in game.acted_before_short or game.wagers >= 1 + game.spec.max_raises:
            return chosen
        since = max(k for k, e in enumerate(game.events) if e.kind == "street")
        mine = [
            e
            for e in game.events[since:]
            if e.player == p.name and e.kind in ("bet", "raise", "call", "check", "bringin")
        ]
        if not mine or mine[-1].kind not in ("bet", "raise", "call"):
            return chosen
        to = game.cur + game.unit
        if p.stack <= to - p.street_in or game.cur - p.street_in <= 0:
            return chosen
        if not any(q.can_act for q in game.live() if q is not p):
            return chosen  # nobody could call the re-raise: no room would offer it
        self.done = True
        return Act("raise", to - p.street_in, to, mark=True)


@injector("ACT-ALLIN-SHORT", "re-raise-after-short-all-in")
def short_reraise(rng: random.Random) -> Case | None:
    """A player raises all in over a bet by less than half a raise; a player who had already
    bet, raised or called since the last full bet re-raises (one unit over the all-in total)
    although the short all-in reopened nothing (under the `pokerstars` rule and under the
    half-bet rule alike). Expected: the re-raise line."""
    knobs = Knobs(short=0.5, ante_all_in=0.0)
    return marked(
        deal(rng, knobs, ReopenAfterShort(), aggression=0.5, short=1.0, fold=0.15),
        "ACT-ALLIN-SHORT",
    )


@injector("ACT-TURN", "folded-player-folds-again")
def turn_fold_again(rng: random.Random) -> Case | None:
    """A player who folded folds again later on the same street (a second `folds` line after
    another player's action). Expected: the second `folds` line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for k, line in enumerate(lines):
        if line.kind != "fold":
            continue
        later = [a for a in street_actions(lines, line.street) if index_of(lines, a) > k]
        options += [(line, a) for a in later]
    if not options:
        return None
    fold, after = rng.choice(options)
    new = Line(fold.text, "fold", fold.player, street=fold.street)
    lines.insert(index_of(lines, after) + 1, new)
    return single(lines, new, "ACT-TURN")


def _leading_checks(lines: list[Line], street: int) -> list[Line]:
    out = []
    for a in street_actions(lines, street):
        if a.kind != "check":
            break
        out.append(a)
    return out


def _checks_out_of_place(
    rng: random.Random, played: Played | None, who: Callable[[Played, Player], int | None]
) -> Case | None:
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for p in played.players.values():
        since = who(played, p)
        if since is None:
            continue
        for street in range(since + 1, 8):
            checks = [c for c in _leading_checks(lines, street) if c.player != p.name]
            options += [(p, c) for c in checks]
    if not options:
        return None
    p, after = rng.choice(options)
    new = Line(f"{p.name}: checks ", "check", p.name, street=after.street)
    lines.insert(index_of(lines, after) + 1, new)
    return single(lines, new, "ACT-TURN")


@injector("ACT-TURN", "folded-player-checks-later")
def turn_folded_checks(rng: random.Random) -> Case | None:
    """A player who folded checks on a later street, among the checks that open it. Expected:
    the `checks` line."""
    return _checks_out_of_place(rng, deal(rng), lambda pl, p: p.folded_on if p.folded else None)


def _all_in_street(played: Played, p: Player) -> int | None:
    if p.folded or not p.all_in:
        return None
    street = 0
    for e in played.events:
        if e.kind == "street":
            street = e.street
        if e.player == p.name and e.all_in:
            return max(street, 3)
    return None


@injector("ACT-TURN", "all-in-player-checks")
def turn_all_in_checks(rng: random.Random) -> Case | None:
    """A player who is all in checks on a later street, among the checks that open it.
    Expected: the `checks` line."""
    played = deal(rng, Knobs(short=0.5, players=rng.randint(3, 8)), fold=0.15)
    return _checks_out_of_place(rng, played, _all_in_street)


class WrongReturn(Once):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def uncalled(self, game: Game, p: Player, amount: int) -> tuple[Player, int]:
        if self.done:
            return p, amount
        self.done = True
        ante = game.spec.stakes.ante
        if self.kind == "more" and p.committed >= amount + ante:
            return p, amount + ante
        if self.kind == "less" and amount > ante:
            return p, amount - ante
        if self.kind == "other":
            # Not to a player all in: the generator would have them play on with the chips and
            # share pots as one who matched every bet (`Game.pots` takes a live player who is
            # not all in for one), a second fault of its own (a collection no line explains).
            others = [q for q in game.players
                      if q is not p and q.committed >= amount and not q.all_in]
            live = [q for q in others if not q.folded]
            pick = live or others
            if pick:
                return game.policy.rng.choice(pick), amount
        return p, amount


@injector("ACT-UNCALLED", "returns-too-much")
def uncalled_more(rng: random.Random) -> Case | None:
    """The uncalled part of a bet is returned with one ante too much; the pot, the collected
    amount and the summary follow the room's arithmetic. Expected: the `Uncalled bet` line."""
    return marked(deal(rng, None, WrongReturn("more")), "ACT-UNCALLED")


@injector("ACT-UNCALLED", "returns-too-little")
def uncalled_less(rng: random.Random) -> Case | None:
    """The uncalled part of a bet is returned one ante short. Expected: the `Uncalled bet`
    line."""
    return marked(deal(rng, None, WrongReturn("less")), "ACT-UNCALLED")


@injector("ACT-UNCALLED", "returned-to-another-player")
def uncalled_other(rng: random.Random) -> Case | None:
    """The uncalled bet is returned to another player (one still in when there is one, never
    one all in). Expected: the `Uncalled bet` line."""
    return marked(deal(rng, None, WrongReturn("other")), "ACT-UNCALLED")


# -- the showdown --------------------------------------------------------------------------


def _river_bet(played: Played) -> bool | None:
    """Whether the river betting round had a bet (None: no river round was played)."""
    street, acted, bet = 0, False, False
    for e in played.events:
        if e.kind == "street":
            street = e.street
        elif street == 7 and e.kind in ("bet", "raise", "call", "check", "fold"):
            acted = True
            bet = bet or e.kind in ("bet", "raise")
    return bet if acted else None


def _show_order(rng: random.Random, river_bet: bool, side_pots: bool) -> Case | None:
    knobs = Knobs(
        short=0.45 if side_pots else 0.0, players=rng.randint(3, 8) if side_pots else None
    )
    played = deal(rng, knobs, muck=0.2, fold=0.15, aggression=0.3 if river_bet else 0.05)
    if played is None or _river_bet(played) is not river_bet or (len(played.pots) > 1) != side_pots:
        return None
    lines = hand_lines(played)
    start = next((k for k, line in enumerate(lines) if line.kind == "showdown"), None)
    if start is None or lines[start + 1].kind != "show" or lines[start + 2].kind != "show":
        return None
    if any(lines[start + k].player not in played.pots[-1].eligible for k in (1, 2)):
        return None
    lines = _swap(lines, start + 1)
    return single(lines, lines[start + 1], "SHOW-ORDER", "error" if river_bet else "warning")


@injector("SHOW-ORDER", "other-player-shows-first-after-a-bet")
def show_after_bet(rng: random.Random) -> Case | None:
    """The river had a bet; the second player to show shows before the last bettor or raiser
    (the first two `shows` lines swap). Expected: the line now first, an error."""
    return _show_order(rng, True, False)


@injector("SHOW-ORDER", "other-player-shows-first-after-checks")
def show_after_checks(rng: random.Random) -> Case | None:
    """The river was checked through; a later seat shows before the earliest seat. The rules
    call the log's order weak evidence here. Expected: a WARNING at the line now first."""
    return _show_order(rng, False, False)


@injector("SHOW-ORDER", "other-player-shows-first-with-side-pots")
def show_side_pots(rng: random.Random) -> Case | None:
    """A hand with side pots whose river had a bet: among the players of the last side pot,
    the second to show shows before the last bettor. Expected: the line now first, an error."""
    return _show_order(rng, True, True)


# -- paying the pots -----------------------------------------------------------------------


FaultyKey = Callable[[Game, Player], tuple[object, ...]]


class WrongWinner(Once):
    """The room awards one pot by another ranking of the hands (or another split)."""

    def __init__(
        self,
        chooser: Callable[
            [Game, Pot, list[str], dict[str, int]], tuple[dict[str, int], str] | None
        ],
    ) -> None:
        super().__init__()
        self.chooser = chooser
        self.pot_index = -1
        self.who = ""

    def award(self, game: Game, index: int, pot: Pot, shares: dict[str, int]) -> dict[str, int]:
        if self.done:
            return shares
        shown = [n for n in pot.eligible if game.revealed.get(n) == "shows"]
        out = self.chooser(game, pot, shown, shares)
        if out is None:
            return shares
        self.done = True
        self.pot_index = index
        new, self.who = out
        return new


def by_key(
    faulty: FaultyKey,
) -> Callable[[Game, Pot, list[str], dict[str, int]], tuple[dict[str, int], str] | None]:
    """Pay the pot to the best hand by a faulty ranking, when that is not the right hand and no
    faulty ranking of another rule would pay the same hand (one cause, one rule)."""

    def chooser(
        game: Game, pot: Pot, shown: list[str], shares: dict[str, int]
    ) -> tuple[dict[str, int], str] | None:
        if len(shown) < 2:
            return None
        winners = winners_by(faulty, game, shown)
        if set(winners) & set(shares):
            return None
        rule = next(r for r, k in FAULTY_RANKINGS if k is faulty)
        others = [k for r, k in FAULTY_RANKINGS if r != rule]
        if any(set(winners_by(k, game, shown)) & set(winners) for k in others):
            return None
        if set(winners) & set(_qualifier_winners(game, shown)):
            return None  # a room applying an eight-or-better qualifier would pay them too
        return split(pot.net, winners), winners[0]

    return chooser


def winners_by(key: FaultyKey, game: Game, shown: list[str]) -> list[str]:
    """The shown hands a faulty ranking puts first, in seat order."""
    keys = {n: key(game, game.by_name[n]) for n in shown}
    top = min(keys.values())
    return sorted((n for n in shown if keys[n] == top), key=lambda n: game.by_name[n].seat)


def _qualifier_winners(game: Game, shown: list[str]) -> list[str]:
    """Who a room applying Stud Hi/Lo's eight-or-better qualifier pays when no hand qualifies:
    the best high hand (nobody when some hand makes an eight-low)."""
    lows = [low_key(_cards(game, game.by_name[n])) for n in shown]
    if any(category == 0 and ranks[0] <= 8 for category, ranks in lows):
        return []
    highs = {n: high_key(_cards(game, game.by_name[n])) for n in shown}
    top = max(highs.values())
    return [n for n in shown if highs[n] == top]


def _payout_case(played: Played | None, fault: WrongWinner, rule: str) -> Case | None:
    if played is None or not fault.done:
        return None
    lines = hand_lines(played)
    label = pot_labels(len(played.pots))[fault.pot_index]
    target = next(
        (
            line
            for line in lines
            if line.kind == "collect"
            and line.player == fault.who
            and line.ev
            and line.ev.label == label
        ),
        None,
    )
    return None if target is None else single(lines, target, rule)


def _cards(game: Game, p: Player) -> list[str]:
    return game.hand_cards(p)


@lru_cache(maxsize=16384)
def _aces_high_of(cards: tuple[str, ...]) -> tuple[object, ...]:
    return min(
        values_key([14 if rank(c) == 1 else rank(c) for c in five])
        for five in combinations(cards, 5)
    )


def _aces_high(game: Game, p: Player) -> tuple[object, ...]:
    return _aces_high_of(tuple(sorted(_cards(game, p))))


@lru_cache(maxsize=16384)
def _straights_count_of(cards: tuple[str, ...]) -> tuple[object, ...]:
    def key(five: tuple[str, ...]) -> tuple[float, tuple[int, ...]]:
        category, ranks = group_key(five)
        return (3.5 if straight_or_flush(five) and category < 3.5 else category), ranks

    return min(key(f) for f in combinations(cards, 5))


def _straights_count(game: Game, p: Player) -> tuple[object, ...]:
    return _straights_count_of(tuple(sorted(_cards(game, p))))


def _showdown_deal(
    rng: random.Random,
    fault: WrongWinner,
    spec_fn: Callable[[HandSpec], HandSpec | None] | None = None,
    **knobs: object,
) -> Played | None:
    return deal(rng, Knobs(**knobs) if knobs else None, fault, spec_fn, muck=0.0, fold=0.15)  # type: ignore[arg-type]


@injector("HAND-LOW", "aces-ranked-high")
def low_aces(rng: random.Random) -> Case | None:
    """The room ranks aces high at the showdown and pays the pot (or one side pot) to the hand
    that wins that way, not the best ace-to-five low. Expected: that `collected` line."""
    fault = WrongWinner(by_key(_aces_high))
    return _payout_case(_showdown_deal(rng, fault), fault, "HAND-LOW")


def _wheel_rig(rng: random.Random, ranks: list[int]) -> Callable[[HandSpec], HandSpec | None]:
    def spec_fn(spec: HandSpec) -> HandSpec | None:
        name = rng.choice(spec.seats).name
        order = list(ranks)
        rng.shuffle(order)
        cards = seven_of(rng, order, forced_cards(spec))
        return None if cards is None else rig(spec, name, dict(enumerate(cards)))

    return spec_fn


@injector("HAND-LOW", "straights-and-flushes-count")
def low_straights(rng: random.Random) -> Case | None:
    """The room counts straights and flushes against a low (as in deuce-to-seven); a player
    holding A-2-3-4-5 (rigged) loses the pot to a worse low. Expected: the wrong winner's
    `collected` line."""
    fault = WrongWinner(by_key(_straights_count))
    played = _showdown_deal(
        rng, fault, _wheel_rig(rng, [1, 2, 3, 4, 5, 13, 12]), players=rng.randint(2, 5)
    )
    return _payout_case(played, fault, "HAND-LOW")


def _pairs_ignored(game: Game, p: Player) -> tuple[object, ...]:
    lowest = sorted(rank(c) for c in _cards(game, p))[:5]
    return tuple(sorted(lowest, reverse=True))


@injector("HAND-PAIRS", "pairs-not-counted")
def pairs_ignored(rng: random.Random) -> Case | None:
    """The room ranks a hand by its five lowest cards, pairs included, so a paired hand
    (rigged: A-A-2-3-4 with a king and a queen, a king-low) beats unpaired lows. Expected: the
    wrong winner's `collected` line."""
    fault = WrongWinner(by_key(_pairs_ignored))
    played = _showdown_deal(
        rng, fault, _wheel_rig(rng, [1, 1, 2, 3, 4, 13, 12]), players=rng.randint(2, 5)
    )
    return _payout_case(played, fault, "HAND-PAIRS")


def _lowest_first(game: Game, p: Player) -> tuple[object, ...]:
    category, ranks = low_key(_cards(game, p))
    return category, tuple(sorted(ranks))


def _sum_of_ranks(game: Game, p: Player) -> tuple[object, ...]:
    category, ranks = low_key(_cards(game, p))
    return category, sum(ranks)


# (rule, ranking) of every faulty ranking; filled at the end, once every ranking is defined
FAULTY_RANKINGS: list[tuple[str, FaultyKey]] = []


@injector("HAND-COMPARE", "compared-from-the-lowest-card")
def compare_lowest(rng: random.Random) -> Case | None:
    """The room compares unpaired lows from the lowest card up (9-4-3-2-A beats 8-7-6-4-3).
    Expected: the wrong winner's `collected` line."""
    fault = WrongWinner(by_key(_lowest_first))
    return _payout_case(_showdown_deal(rng, fault), fault, "HAND-COMPARE")


@injector("HAND-COMPARE", "compared-by-sum-of-ranks")
def compare_sum(rng: random.Random) -> Case | None:
    """The room compares unpaired lows by the sum of their ranks. Expected: the wrong winner's
    `collected` line."""
    fault = WrongWinner(by_key(_sum_of_ranks))
    return _payout_case(_showdown_deal(rng, fault), fault, "HAND-COMPARE")


def _no_qualifier(
    split_all: bool,
) -> Callable[[Game, Pot, list[str], dict[str, int]], tuple[dict[str, int], str] | None]:
    def chooser(
        game: Game, pot: Pot, shown: list[str], shares: dict[str, int]
    ) -> tuple[dict[str, int], str] | None:
        if len(shown) < 2:
            return None
        best = min(low_key(_cards(game, game.by_name[n])) for n in shown)
        if best[0] == 0 and best[1][0] <= 8:
            return None  # an eight-or-better low: a qualifier would change nothing
        seats = sorted(shown, key=lambda n: game.by_name[n].seat)
        if split_all:
            new = split(pot.net, seats)
            who = next((n for n in seats if n not in shares), None)
            return None if who is None else (new, who)
        high = max(shown, key=lambda n: high_key(_cards(game, game.by_name[n])))
        if high in shares:
            return None
        # one cause, one rule: no misranking of the lows would pay the same hand
        if any(high in winners_by(k, game, shown) for _, k in FAULTY_RANKINGS):
            return None
        return {high: pot.net}, high

    return chooser


@injector("WIN-NOQUAL", "no-eight-low-high-hand-scoops")
def noqual_high(rng: random.Random) -> Case | None:
    """The best low is no eight-low; the room, applying an eight-or-better qualifier as in
    Stud Hi/Lo, gives the pot to the best high hand. Expected: that `collected` line."""
    fault = WrongWinner(_no_qualifier(False))
    return _payout_case(_showdown_deal(rng, fault), fault, "WIN-NOQUAL")


@injector("WIN-NOQUAL", "no-eight-low-pot-split")
def noqual_split(rng: random.Random) -> Case | None:
    """The best low is no eight-low; the room splits the pot among every hand shown. Expected:
    the `collected` line of the first player paid who should get nothing."""
    fault = WrongWinner(_no_qualifier(True))
    return _payout_case(_showdown_deal(rng, fault), fault, "WIN-NOQUAL")


def _twin_rig(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 2:
            return None
        a, b = rng.sample([s.name for s in spec.seats], 2)
        return twins(rng, spec, a, b, range(7))

    return spec_fn


def _one_takes_all(
    game: Game, pot: Pot, shown: list[str], shares: dict[str, int]
) -> tuple[dict[str, int], str] | None:
    if len(shares) < 2:
        return None
    who = game.policy.rng.choice(sorted(shares))
    return {who: pot.net}, who


def _odd_chip_late(
    game: Game, pot: Pot, shown: list[str], shares: dict[str, int]
) -> tuple[dict[str, int], str] | None:
    if len(shares) < 2 or pot.net % len(shares) == 0:
        return None
    late_first = sorted(shares, key=lambda n: -game.by_name[n].seat)
    base, odd = divmod(pot.net, len(shares))
    new = {n: base + (1 if k < odd else 0) for k, n in enumerate(late_first)}
    return new, late_first[0]


@injector("WIN-SPLIT", "tie-paid-to-one")
def split_one(rng: random.Random) -> Case | None:
    """Two players hold the same ranks (rigged) and tie for a pot; the room pays it all to one
    of them. Expected: that `collected` line."""
    fault = WrongWinner(_one_takes_all)
    return _payout_case(_showdown_deal(rng, fault, _twin_rig(rng), short=0.0), fault, "WIN-SPLIT")


@injector("WIN-SPLIT", "odd-chip-to-the-later-seat")
def split_odd(rng: random.Random) -> Case | None:
    """Two players tie for a pot that does not split evenly; the odd chip goes to the later
    seat (the `pokerstars` ruleset gives it to the earliest). Expected: the later seat's
    `collected` line."""
    fault = WrongWinner(_odd_chip_late)
    return _payout_case(_showdown_deal(rng, fault, _twin_rig(rng), short=0.0), fault, "WIN-SPLIT")


def _short_winner_rig(rng: random.Random) -> Callable[[HandSpec], HandSpec | None]:
    """A short stack holding a wheel (A-2-3-4-5, rigged) who goes all in early."""

    def spec_fn(spec: HandSpec) -> HandSpec | None:
        if len(spec.seats) < 3:
            return None
        seat = rng.choice(spec.seats)
        st = spec.stakes
        ranks = [1, 2, 3, 4, 5, rng.randint(9, 13), rng.randint(9, 13)]
        rng.shuffle(ranks)
        cards = seven_of(rng, ranks, forced_cards(spec))
        if cards is None:
            return None
        stack = st.ante + rng.randint(st.bring_in, st.small + st.big)
        seats = [replace(s, stack=stack) if s is seat else s for s in spec.seats]
        return rig(replace(spec, seats=seats), seat.name, dict(enumerate(cards)))

    return spec_fn


def _side_pot_to_all_in(
    game: Game, pot: Pot, shown: list[str], shares: dict[str, int]
) -> tuple[dict[str, int], str] | None:
    index = next(k for k, p in enumerate(game.pot_list) if p is pot)
    if index == 0:
        return None
    # the all-in player shows later, for the main pot; the room knows the cards already
    main = [n for n in game.pot_list[0].eligible if n not in pot.eligible]
    if not main:
        return None
    best = min(main, key=lambda n: low_key(_cards(game, game.by_name[n])))
    if any(
        low_key(_cards(game, game.by_name[n])) <= low_key(_cards(game, game.by_name[best]))
        for n in shown
    ):
        return None
    return {best: pot.net}, best


@injector("POT-SIDE", "side-pot-paid-to-all-in-player")
def side_to_all_in(rng: random.Random) -> Case | None:
    """A short stack all in early holds the best hand (rigged wheel); the room pays it a side
    pot it has no part in, as well as the main pot. Expected: the `collected … from side pot`
    line of the all-in player."""
    fault = WrongWinner(_side_pot_to_all_in)
    played = _showdown_deal(
        rng, fault, _short_winner_rig(rng), short=0.0, ante_all_in=0.0, players=rng.randint(3, 7)
    )
    return _payout_case(played, fault, "POT-SIDE")


@injector("POT-SIDE", "no-side-pot-formed")
def side_none(rng: random.Random) -> Case | None:
    """A short stack all in early wins the main pot and another player the side pot; the room
    forms no side pot and pays the all-in player the whole pot (`collected … from pot`; the
    summary gives one total and no main or side pot). Expected: that `collected` line."""
    played = deal(
        rng,
        Knobs(short=0.0, ante_all_in=0.0, players=rng.randint(3, 7)),
        None,
        _short_winner_rig(rng),
        muck=0.0,
        fold=0.15,
    )
    if played is None or len(played.pots) != 2:
        return None
    main, side = played.pots
    if len(main.shares) != 1 or len(side.shares) != 1:
        return None
    (a,), (b,) = main.shares, side.shares
    if a == b or a in side.eligible:
        return None
    lines = hand_lines(played)
    unit = played.spec.stakes.unit
    total = main.net + side.net
    out: list[Line] = []
    target = None
    for line in lines:
        if line.kind == "collect" and line.player == b:
            continue
        if line.kind == "collect" and line.player == a:
            line = target = retext(line, f"{a} collected {money(total, unit)} from pot")
        elif line.kind == "total":
            line = retext(
                line, f"Total pot {money(played.total, unit)} | Rake {money(played.rake, unit)} "
            )
        elif line.kind == "result" and line.player == b and line.result is not None:
            r = line.result
            line = retext(
                line,
                f"Seat {r.seat}: {b} showed [{' '.join(r.cards)}] and lost with Lo: {r.description}",
            )
        elif line.kind == "result" and line.player == a and line.result is not None:
            r = line.result
            line = retext(
                line,
                f"Seat {r.seat}: {a} showed [{' '.join(r.cards)}] and won ({money(total, unit)}) with Lo: {r.description}",
            )
        out.append(line)
    assert target is not None
    return single(out, target, "POT-SIDE")


def _single_payment(played: Played | None) -> tuple[list[Line], Line, Line] | None:
    if played is None or len(played.pots) != 1:
        return None
    lines = hand_lines(played)
    collects = [line for line in lines if line.kind == "collect"]
    if len(collects) != 1:
        return None
    result = next(
        line for line in lines if line.kind == "result" and line.player == collects[0].player
    )
    return lines, collects[0], result


def _pay_off(rng: random.Random, delta: int) -> Case | None:
    played = deal(rng)
    got = _single_payment(played)
    if played is None or got is None:
        return None
    lines, collect, result = got
    assert collect.ev is not None and result.result is not None
    played_unit = played.spec.stakes.unit
    old = collect.ev.amount
    k = index_of(lines, collect)
    lines[k] = retext(
        collect,
        collect.text.replace(
            f"collected {money(old, played_unit)}", f"collected {money(old + delta, played_unit)}"
        ),
    )
    j = index_of(lines, result)
    lines[j] = retext(
        result,
        result.text.replace(f"({money(old, played_unit)})", f"({money(old + delta, played_unit)})"),
    )
    return single(lines, lines[k], "POT-RAKE")


@injector("POT-RAKE", "winner-paid-one-unit-less")
def rake_under(rng: random.Random) -> Case | None:
    """The only winner collects one cent (or chip) less than the pot minus the rake; the
    summary says the same amount. Expected: the `collected` line."""
    return _pay_off(rng, -1)


@injector("POT-RAKE", "winner-paid-one-unit-more")
def rake_over(rng: random.Random) -> Case | None:
    """The only winner collects one cent (or chip) more than the pot minus the rake; the
    summary says the same amount. Expected: the `collected` line."""
    return _pay_off(rng, +1)


@injector("POT-RAKE", "total-pot-off-by-one-unit")
def rake_total(rng: random.Random) -> Case | None:
    """The summary's `Total pot` is one cent (or chip) off the sum of all contributions; the
    payment is right. Expected: the `Total pot` line."""
    played = deal(rng)
    if played is None or len(played.pots) != 1:
        return None
    lines = hand_lines(played)
    line = next(x for x in lines if x.kind == "total")
    k = index_of(lines, line)
    lines[k] = retext(line, total_text(played, total=played.total + rng.choice((-1, 1))))
    return single(lines, lines[k], "POT-RAKE")


@injector("POT-RAKE", "rake-misstated")
def rake_wrong(rng: random.Random) -> Case | None:
    """In a cash game, the summary's rake is one cent more than the pot less what was
    collected. Expected: the `Total pot` line."""
    played = deal(rng, Knobs(stakes=CASH_4_8 if rng.random() < 0.5 else None, kind="cash"))
    if played is None or len(played.pots) != 1:
        return None
    lines = hand_lines(played)
    line = next(x for x in lines if x.kind == "total")
    k = index_of(lines, line)
    lines[k] = retext(line, total_text(played, rake=played.rake + 1))
    return single(lines, lines[k], "POT-RAKE")


# -- the log itself ----------------------------------------------------------------------------


@injector("LOG-STACK", "bet-beyond-the-stack")
def stack_beyond(rng: random.Random) -> Case | None:
    """A player's seat line shows one cent (or chip) less than they have put in once one of
    their bets, raises or calls is in (a player never all in). Expected: that action line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for p in played.players.values():
        if any(e.player == p.name and e.all_in for e in played.events):
            continue
        put = street_in = 0
        for line in lines:
            if line.kind == "street":
                street_in = 0
            e = line.ev
            if line.player != p.name or e is None:
                continue
            if e.kind == "ante":
                put += e.amount
                continue
            if e.kind == "uncalled":
                put -= e.amount
                street_in -= e.amount
                continue
            if e.kind in ("bringin", "call", "bet"):
                moved = e.amount
            elif e.kind == "raise":
                moved = e.to - street_in
            else:
                continue
            put += moved
            street_in += moved
            if e.kind != "bringin":
                options.append((p, line, put))
    if not options:
        return None
    p, line, put = rng.choice(options)
    seat = next(x for x in lines if x.kind == "seat" and x.player == p.name)
    unit = played.spec.stakes.unit
    k = index_of(lines, seat)
    lines[k] = retext(seat, f"Seat {p.seat}: {p.name} ({money(put - 1, unit)} in chips) ")
    return single(lines, line, "LOG-STACK")


@injector("LOG-STACK", "all-in-not-marked")
def stack_unmarked(rng: random.Random) -> Case | None:
    """A line that puts a player's last chips in (ante, bring-in, bet, raise or call) lacks
    `and is all-in`. Expected: that line."""
    played = deal(rng, Knobs(short=0.4))
    if played is None:
        return None
    lines = hand_lines(played)
    options = [
        k
        for k, line in enumerate(lines)
        if line.ev is not None and line.ev.all_in and line.text.endswith(" and is all-in")
    ]
    if not options:
        return None
    k = rng.choice(options)
    lines[k] = retext(lines[k], lines[k].text[: -len(" and is all-in")])
    return single(lines, lines[k], "LOG-STACK")


def _continuity(rng: random.Random, kind: str, layout: str) -> Case | None:
    """A session where one player's stack changes between two hands; the files as `layout` says."""
    hands = rng.randint(4, 6)
    bad = rng.randint(1, hands - 1)
    changed: list[str] = []

    def fault_at(k: int, spec: HandSpec) -> tuple[HandSpec, Fault | None]:
        if k != bad:
            return spec, None
        st = spec.stakes
        if kind == "tournament":
            seat = rng.choice(spec.seats)
            delta = st.small
        else:
            roomy = [s for s in spec.seats if s.stack > 4 * st.big]
            if not roomy:
                return spec, None
            seat = rng.choice(roomy)
            delta = -rng.randint(1, 2 * st.big)
        changed.append(seat.name)
        seats = [replace(s, stack=s.stack + delta) if s is seat else s for s in spec.seats]
        return replace(spec, seats=seats), None

    table = session(rng, hands, Knobs(kind=kind, short=0.0, ante_all_in=0.0), fault_at)
    if len(table) != hands or not changed or any(p.degenerate for p in table):
        return None
    if changed[0] not in table[bad - 1].players:
        return None
    written = [hand_lines(p) for p in table]
    seat_line = next(x for x in written[bad] if x.kind == "seat" and x.player == changed[0])
    at = index_of(written[bad], seat_line)
    if layout == "in-order":
        return Case(
            [written], Expected("LOG-CONTINUITY", "error", 0, line_numbers(written)[bad] + at)
        )
    if layout == "reverse-order":
        back = written[::-1]
        k = back.index(written[bad])
        return Case([back], Expected("LOG-CONTINUITY", "error", 0, line_numbers(back)[k] + at))
    first, second = written[:bad], written[bad:]
    return Case([first, second], Expected("LOG-CONTINUITY", "error", 1, 1 + at), order=[1, 0])


@injector("LOG-CONTINUITY", "tournament-stack-grows-in-order")
def continuity_grows(rng: random.Random) -> Case | None:
    """At a tournament table, a player starts a hand with one small bet more than they ended
    the previous hand with; the hands are in one file in time order. Expected: their seat line
    in the later hand."""
    return _continuity(rng, "tournament", "in-order")


@injector("LOG-CONTINUITY", "tournament-stack-grows-reverse-order")
def continuity_reverse(rng: random.Random) -> Case | None:
    """The same, the file listing the hands newest first. Expected: the seat line in the later
    hand."""
    return _continuity(rng, "tournament", "reverse-order")


@injector("LOG-CONTINUITY", "tournament-stack-grows-two-files")
def continuity_files(rng: random.Random) -> Case | None:
    """The same, the hands split in two files at the change, the later file named first on the
    command line. Expected: the seat line in the later file."""
    return _continuity(rng, "tournament", "two-files")


@injector("LOG-CONTINUITY", "cash-stack-shrinks")
def continuity_cash(rng: random.Random) -> Case | None:
    """At a cash table, a player who did not leave starts a hand with less than they ended the
    previous one with. Expected: their seat line in the later hand."""
    return _continuity(rng, "cash", "in-order")


@injector("LOG-DESC", "wrong-low-named")
def desc_wrong(rng: random.Random) -> Case | None:
    """A `shows` line names another five of the shown cards than the best low (the next best
    five-card low with other ranks); the summary repeats the room's text. Expected: the
    `shows` line."""
    played = deal(rng, muck=0.2, fold=0.15)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for k, line in enumerate(lines):
        if line.kind != "show" or line.ev is None:
            continue
        cards = list(line.ev.new) + ([played.board] if played.board else [])
        right = line.ev.description
        others = sorted(
            {
                ",".join(RANKS[r - 1] for r in sorted((rank(c) for c in five), reverse=True))
                for five in combinations(cards, 5)
                if group_key(five)[0] == 0
            }
            - {right},
            key=lambda text: [RANKS.index(t) for t in text.split(",")],
        )
        if others:
            options.append((k, right, others[0]))
    if not options:
        return None
    k, right, wrong = rng.choice(options)
    lines[k] = retext(lines[k], lines[k].text.replace(f"(Lo: {right})", f"(Lo: {wrong})"))
    for j, line in enumerate(lines):
        if line.kind == "result" and line.player == lines[k].player:
            lines[j] = retext(line, line.text.replace(f"with Lo: {right}", f"with Lo: {wrong}"))
    return single(lines, lines[k], "LOG-DESC")


@injector("LOG-SUMMARY", "fold-on-another-street")
def summary_fold(rng: random.Random) -> Case | None:
    """A player's summary line says they folded on another street than they did. Expected:
    that summary line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    options = [
        line
        for line in lines
        if line.kind == "result" and line.result and line.result.outcome == "folded"
    ]
    if not options:
        return None
    line = rng.choice(options)
    assert line.result is not None
    s = line.result.street
    other = s + 1 if (s < 7 and rng.random() < 0.5) or s == 3 else s - 1
    names = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}
    k = index_of(lines, line)
    lines[k] = retext(
        line, f"Seat {line.result.seat}: {line.result.name} folded on the {names[other]}"
    )
    return single(lines, lines[k], "LOG-SUMMARY")


@injector("LOG-SUMMARY", "won-amount-differs")
def summary_amount(rng: random.Random) -> Case | None:
    """A winner's summary line states one cent (or chip) more or less than they collected.
    Expected: that summary line."""
    played = deal(rng)
    if played is None:
        return None
    lines = hand_lines(played)
    unit = played.spec.stakes.unit
    options = [
        line for line in lines if line.kind == "result" and line.result and line.result.amount
    ]
    if not options:
        return None
    line = rng.choice(options)
    assert line.result is not None
    old = line.result.amount
    new = old + rng.choice((-1, 1))
    k = index_of(lines, line)
    lines[k] = retext(line, line.text.replace(f"({money(old, unit)})", f"({money(new, unit)})"))
    return single(lines, lines[k], "LOG-SUMMARY")


@injector("LOG-SUMMARY", "shown-cards-differ")
def summary_cards(rng: random.Random) -> Case | None:
    """A player's summary line lists one shown card with another suit (an unused card of the
    same rank) than their `shows` line. Expected: that summary line."""
    played = deal(rng, muck=0.3, fold=0.15)
    if played is None:
        return None
    lines = hand_lines(played)
    options = []
    for line in lines:
        if line.kind == "result" and line.result and line.result.outcome in ("won", "lost"):
            for c in line.result.cards:
                spare = unused_cards(played, rank(c))
                if spare:
                    options.append((line, c, spare))
    if not options:
        return None
    line, old, spare = rng.choice(options)
    k = index_of(lines, line)
    lines[k] = retext(line, swap_card_text(line.text, old, rng.choice(spare)))
    return single(lines, lines[k], "LOG-SUMMARY")


def _cards_case(
    rng: random.Random, pick: Callable[[Played, list[Line]], list[tuple[int, str]]]
) -> Case | None:
    played = deal(rng, muck=0.3, fold=0.2)
    if played is None:
        return None
    lines = hand_lines(played)
    options = [(k, c, s) for k, c in pick(played, lines) for s in unused_cards(played, rank(c))]
    if not options:
        return None
    k, old, new = rng.choice(options)
    player = lines[k].player
    lines[k] = retext(lines[k], swap_card_text(lines[k].text, old, new))
    if lines[k].kind == "show":
        for j, line in enumerate(lines):
            if line.kind == "result" and line.player == player:
                lines[j] = retext(line, swap_card_text(line.text, old, new))
    return single(lines, lines[k], "LOG-CARDS")


@injector("LOG-CARDS", "up-card-changes-on-a-later-street")
def cards_up(rng: random.Random) -> Case | None:
    """On one later-street line of a player other than the hero, one of the up cards repeated
    in the first bracket has another suit (an unused card of the same rank). Expected: that
    line."""

    def pick(played: Played, lines: list[Line]) -> list[tuple[int, str]]:
        return [
            (k, c)
            for k, line in enumerate(lines)
            if line.kind == "dealt"
            and line.player != played.spec.hero
            and line.ev
            and line.street >= 4
            for c in line.ev.old
        ]

    return _cards_case(rng, pick)


@injector("LOG-CARDS", "hero-down-card-changes")
def cards_hero(rng: random.Random) -> Case | None:
    """On one 4th-street-or-later line of the hero, one of the two down cards has another suit.
    Expected: that line."""

    def pick(played: Played, lines: list[Line]) -> list[tuple[int, str]]:
        return [
            (k, c)
            for k, line in enumerate(lines)
            if line.kind == "dealt"
            and line.player == played.spec.hero
            and line.ev
            and line.street >= 4
            for c in line.ev.old[:2]
        ]

    return _cards_case(rng, pick)


@injector("LOG-CARDS", "shown-up-card-differs")
def cards_shown(rng: random.Random) -> Case | None:
    """A `shows` line lists one of the player's up cards with another suit than it was dealt
    with (the summary repeats the room's cards). Expected: the `shows` line."""

    def pick(played: Played, lines: list[Line]) -> list[tuple[int, str]]:
        out = []
        for k, line in enumerate(lines):
            if line.kind == "show" and line.ev:
                ups = played.players[line.player or ""].up_cards()
                out += [(k, c) for c in ups]
        return out

    return _cards_case(rng, pick)


FAULTY_RANKINGS.extend(
    [
        ("HAND-LOW", _aces_high),
        ("HAND-LOW", _straights_count),
        ("HAND-PAIRS", _pairs_ignored),
        ("HAND-COMPARE", _lowest_first),
        ("HAND-COMPARE", _sum_of_ranks),
    ]
)
