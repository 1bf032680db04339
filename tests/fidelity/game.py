"""A small Razz dealer and betting engine, written from RAZZ_RULES.md for the fidelity harness.

It plays one hand at a time under the `pokerstars` reading of the rules: fixed limit, antes,
the highest door card brings in (passing clockwise past a player all in on the ante), the best
exposed low opens 4th street and later (ties: the earliest seat; an all-in best board: the next
player clockwise who can act), three raises after the bet or completion (heads-up too), short
all-ins that reopen nothing, side pots, odd chips to the earliest seat, and a community river
card when the deck cannot give every remaining player a card. It shares no code with the
shipped simulator or the auditor.

Two choices keep generated hands away from points the rules leave open:

* after an all-in wager for less than a full bet, raise or completion, nobody raises again in
  that betting round (the rules let the ruleset decide how a later raise would be sized);
* a showdown hand always has five distinct ranks (how PokerStars writes a paired `Lo:` is not
  known from real logs); `Played.degenerate` says when a hand must be dealt again.

A `Fault` is a room that breaks one rule on purpose: the engine asks it at each decision and
marks the event it changed (`Ev.mark`), and play goes on consistently from there.

>>> import random
>>> deck = [r + s for r in "A23456789TJQK" for s in "cdhs"]
>>> spec = HandSpec("cash", CASH_4_8, [Seat(1, "ann", 100), Seat(2, "bob", 100)], hero="ann",
...                 hand_id=1, started=START, table="T", max_seats=8, deck=deck)
>>> played = Game(spec, Policy(random.Random(1))).play()
>>> played.events[0].kind, played.events[0].amount
('ante', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from .cards import board_key, distinct_ranks, door_strength, low_key, low_text

START = datetime(2024, 3, 14, 20, 15, 0)


@dataclass(frozen=True)
class Stakes:
    """One stake level: units are cents (cash) or chips (tournaments)."""

    unit: str  # "cent" or "chip"
    small: int
    big: int
    ante: int
    bring_in: int
    level: str | None = None  # tournament level numeral


# Levels with their ante and bring-in as real PokerStars logs show them (FORMATS.md §1.2).
CASH_4_8 = Stakes("cent", 4, 8, 1, 2)
CHIP_50_100 = Stakes("chip", 50, 100, 10, 15, "IV")
CHIP_30_60 = Stakes("chip", 30, 60, 6, 9, "III")
KNOWN_STAKES = (CASH_4_8, CHIP_50_100, CHIP_30_60)
# Levels no real log of the corpus shows (the ratios of the known ones): the auditor must infer
# their ante and bring-in from the table.
CASH_10_20 = Stakes("cent", 10, 20, 2, 5)
CHIP_100_200 = Stakes("chip", 100, 200, 20, 30, "VI")
OTHER_STAKES = (CASH_10_20, CHIP_100_200)


@dataclass
class Seat:
    seat: int
    name: str
    stack: int


@dataclass
class HandSpec:
    """Everything a hand starts from."""

    kind: str  # "cash" or "tournament"
    stakes: Stakes
    seats: list[Seat]
    hero: str
    hand_id: int
    started: datetime  # ET wall-clock time
    table: str
    max_seats: int
    deck: list[str]  # the order cards come off the deck
    tournament_id: int | None = None
    buy_in: str | None = None
    places_left: int = 9  # tournament players left before the hand (for `finished … place`)
    # Cards fixed in advance: (player, position 0..6) -> card; 0, 1 down, 2 the door card.
    forced: dict[tuple[str, int], str] = field(default_factory=dict)
    max_raises: int = 3  # STRUCT-CAP, pokerstars


@dataclass
class Ev:
    """One line of the hand's body, before it is written."""

    kind: str
    player: str | None = None
    amount: int = 0  # chips put in (ante, bring-in, call, bet), the raise increment, returned…
    to: int = 0  # a raise's street total
    all_in: bool = False
    street: int = 0
    old: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    label: str = ""  # collected: "pot", "main pot", "side pot", "side pot-1" …
    description: str = ""
    mark: bool = False  # the event a Fault changed


@dataclass
class Act:
    """A decision: what a player does, and the chips it moves."""

    kind: str  # fold, check, call, bet, raise, bringin
    put: int = 0  # chips moved from the stack
    to: int = 0  # the player's street total after it (bet, raise)
    all_in: bool = False
    full: bool = True  # a full wager (bet, completion, raise), not an all-in for less
    mark: bool = False
    written: int | None = None  # a raise's increment as the room writes it, when not to - cur


@dataclass
class Player:
    seat: int
    name: str
    start: int
    stack: int
    cards: list[str] = field(default_factory=list)
    committed: int = 0
    street_in: int = 0
    folded: bool = False
    folded_on: int = 0
    all_in: bool = False
    bet_on_3rd: bool = False  # put chips in on 3rd street beyond the ante
    anted: bool = True

    @property
    def can_act(self) -> bool:
        return not self.folded and not self.all_in and self.stack > 0

    def up_cards(self) -> list[str]:
        return self.cards[2:6]


@dataclass
class Pot:
    amount: int  # gross
    net: int  # after its share of the rake
    eligible: list[str]
    shares: dict[str, int] = field(default_factory=dict)


@dataclass
class SeatResult:
    seat: int
    name: str
    outcome: str  # folded, collected, won, lost, mucked
    street: int = 0
    didnt_bet: bool = False
    cards: tuple[str, ...] = ()
    amount: int = 0
    description: str = ""


@dataclass
class Played:
    """A played hand: its events, summary and everything the injectors need to know."""

    spec: HandSpec
    events: list[Ev]
    results: list[SeatResult]
    total: int
    rake: int
    pots: list[Pot]
    board: str | None
    final: dict[str, int]
    players: dict[str, Player]
    showdown: list[str]  # players at the showdown, in reveal order
    first_shower_rule: str  # "bet" or "seat" (SHOW-ORDER), "" without showdown
    degenerate: bool = False
    openers: dict[int, str] = field(default_factory=dict)  # street -> first to act (correct)
    bring_in: str = ""


class Fault:
    """A room that follows the rules (subclasses break one on purpose)."""

    def ante(self, game: Game, p: Player, amount: int) -> int | None:
        return amount

    def bring_in_player(self, game: Game, correct: Player) -> Player:
        return correct

    def opener(self, game: Game, street: int, correct: Player) -> Player:
        return correct

    def act(self, game: Game, p: Player, options: list[Act], chosen: Act) -> Act:
        return chosen

    def room_max_raises(self, game: Game) -> int:
        return game.spec.max_raises

    def uncalled(self, game: Game, p: Player, amount: int) -> tuple[Player, int]:
        return p, amount

    def community(self, game: Game, needed: bool) -> bool:
        return needed

    def award(self, game: Game, index: int, pot: Pot, shares: dict[str, int]) -> dict[str, int]:
        return shares


@dataclass
class Policy:
    """How the players choose among legal actions (random, with knobs for scenarios)."""

    rng: random.Random
    fold: float = 0.3  # facing a bet
    aggression: float = 0.2  # bet or raise when possible
    complete: float = 0.2  # the bring-in completes
    muck: float = 0.6  # a beaten hand mucks at the showdown
    short: float = 0.5  # take an all-in raise for less when it is the only raise
    aggressive_streets: frozenset[int] = frozenset()  # raise whenever possible there
    stations: frozenset[str] = frozenset()  # these players never fold
    force: Callable[[Game, Player, list[Act]], Act | None] | None = None

    def choose(self, game: Game, p: Player, options: list[Act]) -> Act:
        if self.force is not None and (forced := self.force(game, p, options)) is not None:
            return forced
        kinds = {o.kind: o for o in options}
        wagers = [o for o in options if o.kind in ("bet", "raise")]
        if game.street in self.aggressive_streets and wagers:
            return max(wagers, key=lambda o: o.to)
        if "bringin" in kinds:
            if wagers and self.rng.random() < self.complete:
                return wagers[0]
            return kinds["bringin"]
        if wagers and self.rng.random() < self.aggression:
            full = [o for o in wagers if o.full]
            if full:
                return full[0]
            if self.rng.random() < self.short:
                return wagers[0]
        if "check" in kinds:
            return kinds["check"]
        if p.name not in self.stations and "fold" in kinds and self.rng.random() < self.fold:
            return kinds["fold"]
        return kinds.get("call") or kinds["fold"]


class Game:
    """One hand, played from a `HandSpec` by a `Policy` in a room that may be at `Fault`."""

    def __init__(self, spec: HandSpec, policy: Policy, fault: Fault | None = None) -> None:
        self.spec = spec
        self.policy = policy
        self.fault = fault or Fault()
        self.players = [Player(s.seat, s.name, s.stack, s.stack) for s in spec.seats]
        self.by_name = {p.name: p for p in self.players}
        forced = set(spec.forced.values())
        self.deck = [c for c in spec.deck if c not in forced]
        self.dealt = 0
        self.events: list[Ev] = []
        self.street = 3
        self.cur = 0
        self.wagers = 0
        self.short_seen = False
        self.unit = spec.stakes.small
        self.community: str | None = None
        self.last_aggressor: dict[int, str | None] = {}  # street -> last bettor (rounds played)
        self.openers: dict[int, str] = {}
        self.bring_in = ""
        self.no_uncalled = False
        self.acted: list[str] = []  # who acted in the current betting round, in order
        self.since_full: list[str] = []  # who acted since the round's last full wager
        # who had acted since the last full wager when a short all-in came (not reopened to them)
        self.acted_before_short: set[str] = set()
        self.short_over_full = False  # the short all-in raised over a full bet or completion
        self.short_increment = 0  # how much the short all-in raised
        self.revealed: dict[str, str] = {}  # at the showdown: name -> "shows" / "mucks"
        self.pot_list: list[Pot] = []

    # -- helpers -------------------------------------------------------------------------
    def emit(self, ev: Ev) -> Ev:
        self.events.append(ev)
        return ev

    def after(self, p: Player) -> list[Player]:
        """Every other player, clockwise from p (increasing seat numbers, wrapping)."""
        k = self.players.index(p)
        return self.players[k + 1 :] + self.players[:k]

    def live(self) -> list[Player]:
        return [p for p in self.players if not p.folded]

    def draw(self, p: Player) -> str:
        position = len(p.cards)
        card = self.spec.forced.get((p.name, position))
        if card is None:
            card = self.deck.pop(0)
        p.cards.append(card)
        self.dealt += 1
        return card

    def money(self, p: Player, amount: int) -> None:
        p.stack -= amount
        p.street_in += amount
        p.committed += amount
        if p.stack == 0:
            p.all_in = True

    # -- the hand --------------------------------------------------------------------------
    def play(self) -> Played:
        st = self.spec.stakes
        for p in self.players:
            due = min(st.ante, p.stack)
            amount = self.fault.ante(self, p, due)
            if amount is None:
                p.anted = False
                continue
            self.money(p, amount)
            p.street_in = 0
            self.emit(Ev("ante", p.name, amount, all_in=p.stack == 0, mark=amount != due))
        for street in range(3, 8):
            self.street = street
            if len(self.live()) < 2:
                break
            self.deal(street)
            if street == 3:
                self.third_street()
            else:
                self.later_street(street)
            self.end_round()
        return self.finish()

    def deal(self, street: int) -> None:
        self.unit = self.spec.stakes.small if street <= 4 else self.spec.stakes.big
        self.cur = self.wagers = 0
        self.short_seen = False
        self.acted = []
        self.since_full = []
        self.acted_before_short = set()
        self.short_over_full = False
        for p in self.players:
            p.street_in = 0
        live = self.live()
        if street == 7:
            needed = len(live) > 52 - self.dealt
            if self.fault.community(self, needed):
                self.community = self.deck.pop(0)
                self.dealt += 1
                ev = self.emit(Ev("street", street=7, new=(self.community,)))
                ev.mark = not needed
                return
        self.emit(Ev("street", street=street))
        for p in live:
            old = list(p.cards)
            new = [self.draw(p), self.draw(p), self.draw(p)] if street == 3 else [self.draw(p)]
            if p.name == self.spec.hero:
                self.emit(Ev("dealt", p.name, street=street, old=tuple(old), new=tuple(new)))
            elif street == 3:
                self.emit(Ev("dealt", p.name, street=3, new=(new[2],)))
            elif street < 7:
                self.emit(Ev("dealt", p.name, street=street, old=tuple(old[2:]), new=tuple(new)))

    def third_street(self) -> None:
        st = self.spec.stakes
        live = self.live()
        worst = max(live, key=lambda p: door_strength(p.cards[2]))
        correct = worst
        if correct.all_in:  # BRINGIN-ALLIN: clockwise to the next player who can act
            correct = next(q for q in self.after(worst) if q.can_act)
        self.bring_in = correct.name
        p = self.fault.bring_in_player(self, correct)
        options = [Act("bringin", min(st.bring_in, p.stack), all_in=p.stack <= st.bring_in)]
        if p.stack >= st.small:
            options.append(Act("bet", st.small, st.small, all_in=p.stack == st.small))
        chosen = self.fault.act(self, p, options, self.policy.choose(self, p, options))
        self.apply(p, chosen)
        self.run_round([q for q in self.after(p) if q.can_act])

    def later_street(self, street: int) -> None:
        live = self.live()
        if sum(p.can_act for p in live) < 2:
            return
        if street == 7:
            best_board = self.openers_board(6)
        else:
            best_board = min(live, key=lambda p: (board_key(p.up_cards()[: street - 2]), p.seat))
        correct = best_board
        if not correct.can_act:  # ORDER-ALLIN: the next player clockwise who can act
            correct = next(q for q in self.after(best_board) if q.can_act)
        self.openers[street] = correct.name
        p = self.fault.opener(self, street, correct)
        self.run_round([p] + [q for q in self.after(p) if q.can_act])

    def openers_board(self, street: int) -> Player:
        live = self.live()
        return min(live, key=lambda p: (board_key(p.up_cards()[: street - 2]), p.seat))

    def options(self, p: Player) -> list[Act]:
        to_call = self.cur - p.street_in
        cap = 1 + self.fault.room_max_raises(self)
        out: list[Act] = []
        if to_call <= 0:
            out.append(Act("check"))
            if self.wagers == 0 and self.cur == 0:
                bet = min(self.unit, p.stack)
                out.append(Act("bet", bet, bet, all_in=bet == p.stack, full=bet == self.unit))
            return out
        out.append(Act("fold"))
        call = min(to_call, p.stack)
        out.append(Act("call", call, p.street_in + call, all_in=call == p.stack))
        if self.wagers < cap and not self.short_seen and p.stack > to_call:
            target = self.spec.stakes.small if self.street == 3 and self.wagers == 0 else None
            if target is None:
                target = self.cur + self.unit
            need = target - p.street_in
            if p.stack >= need:
                out.append(Act("raise", need, target, all_in=p.stack == need))
            else:
                out.append(Act("raise", p.stack, p.street_in + p.stack, all_in=True, full=False))
        return out

    def run_round(self, pending: list[Player]) -> None:
        while pending and len(self.live()) > 1:
            p = pending.pop(0)
            if not p.can_act:
                continue
            options = self.options(p)
            chosen = self.fault.act(self, p, options, self.policy.choose(self, p, options))
            before = self.cur
            self.apply(p, chosen)
            if chosen.kind in ("bet", "raise") and chosen.to > before:
                if chosen.full:
                    pending = [q for q in self.after(p) if q.can_act]
                else:
                    pending = [
                        q
                        for q in self.after(p)
                        if q.can_act and (q in pending or q.street_in < self.cur)
                    ]

    def apply(self, p: Player, a: Act) -> None:
        name = p.name
        self.acted.append(name)
        self.since_full.append(name)
        if a.kind == "fold":
            p.folded = True
            p.folded_on = self.street
            self.emit(Ev("fold", name, mark=a.mark))
            return
        if a.kind == "check":
            self.emit(Ev("check", name, mark=a.mark))
            return
        self.money(p, a.put)
        if self.street == 3:
            p.bet_on_3rd = True
        all_in = p.stack == 0
        if a.kind == "bringin":
            self.cur = max(self.cur, p.street_in)
            self.emit(Ev("bringin", name, a.put, all_in=all_in, mark=a.mark))
            return
        if a.kind == "call":
            self.emit(Ev("call", name, a.put, all_in=all_in, mark=a.mark))
            return
        written = a.written if a.written is not None else a.to - self.cur
        if a.kind == "bet":
            self.emit(Ev("bet", name, a.put, to=a.to, all_in=all_in, mark=a.mark))
        else:
            self.emit(Ev("raise", name, written, to=a.to, all_in=all_in, mark=a.mark))
        increment = a.to - self.cur
        self.cur = max(self.cur, a.to)
        self.last_aggressor[self.street] = name
        if a.full:
            self.since_full = [name]
            self.wagers += 1
            if self.wagers == 1 + self.fault.room_max_raises(self):
                self.emit(Ev("capped"))
        elif not self.short_seen:
            self.short_seen = True
            self.acted_before_short = set(self.since_full[:-1])
            self.short_over_full = a.kind == "raise" and self.wagers >= 1
            self.short_increment = increment

    def end_round(self) -> None:
        self.last_aggressor.setdefault(self.street, None)
        if self.no_uncalled:
            self.no_uncalled = False
            return
        ranked = sorted(self.players, key=lambda q: q.street_in, reverse=True)
        top, second = ranked[0], ranked[1]
        excess = top.street_in - second.street_in
        if excess <= 0:
            return
        who, amount = self.fault.uncalled(self, top, excess)
        mark = (who is not top) or amount != excess
        # The chips leave the bettor's part of the pot, and land on the stack of the player the
        # line names: returned to another player (a fault injected), they are still the
        # bettor's uncalled chips, not a part of that player's bets taken back.
        top.street_in -= amount
        top.committed -= amount
        who.stack += amount
        who.all_in = who.stack == 0 and who.all_in
        self.emit(Ev("uncalled", who.name, amount, mark=mark))

    # -- the end ---------------------------------------------------------------------------
    def rake_for(self, total: int) -> int:
        if self.spec.kind != "cash" or not any(
            e.kind == "street" and e.street == 4 for e in self.events
        ):
            return 0
        return min(total // 20, 300)

    def pots(self, total: int, rake: int) -> list[Pot]:
        live = self.live()
        top = max(p.committed for p in live)
        levels = sorted({p.committed for p in live if p.all_in and p.committed < top})
        levels.append(top)
        pots: list[Pot] = []
        prev = 0
        for level in levels:
            amount = sum(min(q.committed, level) - min(q.committed, prev) for q in self.players)
            eligible = [q.name for q in live if not q.all_in or q.committed >= level]
            pots.append(Pot(amount, amount, eligible))
            prev = level
        pots[-1].amount += sum(max(0, q.committed - prev) for q in self.players)
        pots[-1].net = pots[-1].amount
        if len(pots) == 1:
            pots[0].net = pots[0].amount - rake
            return pots
        side_rake = 0
        for pot in pots[1:]:
            share = (rake * pot.amount * 2 + total) // (2 * total)  # rounded half up
            pot.net = pot.amount - share
            side_rake += share
        pots[0].net = pots[0].amount - (rake - side_rake)
        return pots

    def hand_cards(self, p: Player) -> list[str]:
        return p.cards + ([self.community] if self.community else [])

    def finish(self) -> Played:
        total = sum(p.committed for p in self.players)
        rake = self.rake_for(total)
        live = self.live()
        won: dict[str, int] = {}
        showdown: list[str] = []
        first_rule = ""
        revealed: dict[str, str] = {}  # name -> "shows" / "mucks"
        self.revealed = revealed
        pots = self.pots(total, rake)
        self.pot_list = pots
        degenerate = False
        if len(live) == 1:
            (w,) = live
            correct = {w.name: pots[0].net}
            pots[0].shares = self.fault.award(self, 0, pots[0], dict(correct))
            for name, amount in pots[0].shares.items():
                mark = amount != correct.get(name)
                self.emit(Ev("collect", name, amount, label="pot", mark=mark))
                won[name] = won.get(name, 0) + amount
            if self.policy.rng.random() < 0.3:
                self.emit(Ev("noshow", w.name))
        else:
            self.emit(Ev("showdown"))
            degenerate = any(distinct_ranks(self.hand_cards(p)) < 5 for p in live)
            first, first_rule = self.first_shower(live)
            order = [first] + [q for q in self.after(first) if not q.folded]
            showdown = [p.name for p in order]
            labels = pot_labels(len(pots))
            for index in range(len(pots) - 1, -1, -1):
                pot = pots[index]
                best = None
                for p in order:
                    if p.name not in pot.eligible:
                        continue
                    key = low_key(self.hand_cards(p))
                    if p.name not in revealed:
                        shown = [
                            low_key(self.hand_cards(self.by_name[n]))
                            for n in pot.eligible
                            if revealed.get(n) == "shows"
                        ]
                        beaten = bool(shown) and min(shown) < key
                        muck = (
                            beaten and not p.all_in and self.policy.rng.random() < self.policy.muck
                        )
                        revealed[p.name] = "mucks" if muck else "shows"
                        if muck:
                            self.emit(Ev("muck", p.name))
                        else:
                            cards = tuple(p.cards)
                            self.emit(
                                Ev(
                                    "show",
                                    p.name,
                                    new=cards,
                                    description=low_text(self.hand_cards(p)),
                                )
                            )
                    if revealed[p.name] == "shows":
                        best = key if best is None or key < best else best
                contenders = [n for n in pot.eligible if revealed[n] == "shows"]
                keys = {n: low_key(self.hand_cards(self.by_name[n])) for n in contenders}
                top = min(keys.values())
                winners = sorted(
                    (n for n in contenders if keys[n] == top), key=lambda n: self.by_name[n].seat
                )
                correct = split(pot.net, winners)
                pot.shares = self.fault.award(self, index, pot, dict(correct))
                for p in order:
                    amount = pot.shares.get(p.name, 0)
                    if amount:
                        mark = amount != correct.get(p.name)
                        self.emit(Ev("collect", p.name, amount, label=labels[index], mark=mark))
                        won[p.name] = won.get(p.name, 0) + amount
        for p in self.players:
            p.stack += won.get(p.name, 0)
        if self.spec.kind == "tournament":
            busted = [p for p in self.players if p.stack == 0]
            for k, p in enumerate(busted):
                self.emit(Ev("finish", p.name, amount=self.spec.places_left - k))
        results = self.results(won, revealed)
        return Played(
            spec=self.spec,
            events=self.events,
            results=results,
            total=total,
            rake=rake,
            pots=pots,
            board=self.community,
            final={p.name: p.stack for p in self.players},
            players=self.by_name,
            showdown=showdown,
            first_shower_rule=first_rule,
            degenerate=degenerate,
            openers=dict(self.openers),
            bring_in=self.bring_in,
        )

    def first_shower(self, live: list[Player]) -> tuple[Player, str]:
        """SHOW-ORDER: the last bettor or raiser of the last betting round, else seat order."""
        played = [s for s in sorted(self.last_aggressor) if self._round_had_actions(s)]
        if played:
            last = self.last_aggressor[played[-1]]
            if last is not None and not self.by_name[last].folded:
                return self.by_name[last], "bet"
        return min(live, key=lambda p: p.seat), "seat"

    def _round_had_actions(self, street: int) -> bool:
        current = 0
        for e in self.events:
            if e.kind == "street":
                current = e.street
            elif current == street and e.kind in (
                "bet",
                "raise",
                "call",
                "check",
                "fold",
                "bringin",
            ):
                return True
        return False

    def results(self, won: dict[str, int], revealed: dict[str, str]) -> list[SeatResult]:
        out = []
        for p in self.players:
            cards = tuple(p.cards)
            if p.folded:
                didnt = p.folded_on == 3 and not p.bet_on_3rd
                out.append(SeatResult(p.seat, p.name, "folded", p.folded_on, didnt))
            elif p.name not in revealed:
                out.append(SeatResult(p.seat, p.name, "collected", amount=won.get(p.name, 0)))
            elif revealed[p.name] == "mucks":
                out.append(SeatResult(p.seat, p.name, "mucked", cards=cards))
            else:
                desc = low_text(self.hand_cards(p))
                if won.get(p.name):
                    out.append(
                        SeatResult(
                            p.seat, p.name, "won", cards=cards, amount=won[p.name], description=desc
                        )
                    )
                else:
                    out.append(SeatResult(p.seat, p.name, "lost", cards=cards, description=desc))
        return out


def split(net: int, winners: list[str]) -> dict[str, int]:
    """WIN-SPLIT: equal shares, the odd chips one each to the earliest seats (winners in seat order)."""
    base, odd = divmod(net, len(winners))
    return {n: base + (1 if k < odd else 0) for k, n in enumerate(winners)}


def pot_labels(count: int) -> list[str]:
    """How PokerStars names the pots in `collected` lines."""
    if count == 1:
        return ["pot"]
    if count == 2:
        return ["main pot", "side pot"]
    return ["main pot"] + [f"side pot-{k}" for k in range(1, count)]
