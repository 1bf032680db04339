"""Each live player's equity at every step of a replayed hand, as the hero saw it and in full.

Equity changes only when cards are dealt or a player folds, so it is computed at the deal of
each street and after each fold (an all-in needs nothing more: the equity at an all-in is that
of its step), once per distinct situation, with `razz.analysis.equity`:

- the hero's view: the hero's cards and every up card; the other players' down cards are
  unknown (`??`, drawn from the unseen cards); the folded players' up cards are dead, and all
  the hero's cards when the hero folded. A log without a hero gives the public view.
- the full view: every card the hand shows by its end (the showdown, the summary) put back
  where it was dealt; a card never shown stays unknown. It exists when the end of the hand
  shows a card the hero's view did not have.

Exact when the enumeration is cheap (`EXACT_LIMIT` joint rank outcomes, about 0.1 s),
else Monte Carlo on `SAMPLES` seeded deals (a standard error of at most 0.35 percentage
points), so that the numbers are the same every time the hand is opened.

>>> from razz.dashboard.hand_steps import Card, Seat, Step
>>> def seat(n, name, cards, hero=False, folded=False):
...     return Seat(n, name, hero, 100, cards=tuple(Card(c, d) for c, d in cards),
...                 folded=folded)
>>> hero = seat(1, "hero", [("As", True), ("2s", True), ("3s", False), ("4s", False)], True)
>>> villain = seat(2, "villain", [("Kd", True), ("Qd", True), ("Jd", False), ("Td", False)])
>>> step = Step((1,), "4th street", "4th", "4th", 10, (hero, villain))
>>> point = compute([step], "full").at(0)
>>> point.players, round(point.equity[0], 4), point.exact
(('hero', 'villain'), 0.9614, True)
>>> compute([step], "hero").at(0).hands[1]  # the villain's down cards, as the hero sees them
('??', '??', 'Jd', 'Td')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from razz.analysis.equity import equity
from razz.analysis.situation import UNSEEN, SituationError
from razz.dashboard.hand_steps import Card, Seat, Step

View = Literal["hero", "full"]
EXACT_LIMIT = 5_000_000  # joint rank outcomes: about 0.1 s, what SAMPLES deals take
SAMPLES = 20_000  # Monte Carlo deals per situation: a standard error of at most 0.0036
SEED = 13  # the same deals every time: a hand shows the same numbers each time it is opened

__all__ = ["EXACT_LIMIT", "SAMPLES", "HandEquity", "Point", "View", "compute", "evaluate",
           "full_view_exists", "situation_of"]


@dataclass(frozen=True)
class Point:
    """The equity of the live players in one situation of the hand.

    `players` in seat order, `hands` their cards as the view sees them (`??` unknown),
    `equity` each one's share of the pot, `std_error` the largest standard error (0 when
    exact), `error` why no equity could be computed (a hand whose cards do not make a deal:
    the same card twice…), in which case `equity` is empty.
    """

    street: str
    players: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...]
    equity: tuple[float, ...]
    exact: bool
    std_error: float
    samples: int
    error: str = ""

    def share(self, player: str) -> float | None:
        """The player's equity here, None when not in this situation."""
        if player in self.players and self.equity:
            return self.equity[self.players.index(player)]
        return None

    @property
    def method(self) -> str:
        """How it was computed, as the page says it: `exact` or `Monte Carlo ±0.3%`.

        >>> Point("3rd", (), (), (), (), False, 0.00312, 20_000).method
        'Monte Carlo ±0.3%'
        """
        if self.error:
            return "not computed"
        return "exact" if self.exact else f"Monte Carlo ±{100 * self.std_error:.1f}%"


@dataclass(frozen=True)
class HandEquity:
    """The points of one view of a hand, and which point holds at each step."""

    view: View
    points: tuple[Point, ...]
    by_step: tuple[int | None, ...]  # index into points, None before the deal
    street_starts: tuple[tuple[str, int], ...]  # (street, point) at each street's deal

    def at(self, step: int) -> Point | None:
        """The situation at a step; at the showdown and after, the last street's."""
        index = self.by_step[step] if 0 <= step < len(self.by_step) else None
        return None if index is None else self.points[index]

    def by_street(self, until: int | None = None) -> list[tuple[str, Point]]:
        """Each street's point at its deal, up to the step `until` (all when None)."""
        last = self.by_step[until] if until is not None else None
        if until is not None and last is None:
            return []
        return [(street, self.points[i]) for street, i in self.street_starts
                if last is None or i <= last]


def situation_of(step: Step, view: View, final: Step | None = None
                 ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """(live players, their cards as the view sees them, dead cards) at a step.

    In the full view, `final` (the hand's last step) lends each seat the codes it shows there.
    """
    finals = {s.player: s.cards for s in final.seats} if final is not None else {}
    players: list[str] = []
    hands: list[tuple[str, ...]] = []
    dead: list[str] = []
    for seat in step.seats:
        cards = _seen(seat, view, finals.get(seat.player, ()))
        if seat.folded:
            dead.extend(c for c in cards if c != UNSEEN)
        elif seat.cards:
            players.append(seat.player)
            hands.append(cards)
    return tuple(players), tuple(hands), tuple(dead)


def _seen(seat: Seat, view: View, final: Sequence[Card]) -> tuple[str, ...]:
    """A seat's cards as the view sees them: `??` for the unknown ones."""
    out = []
    for i, card in enumerate(seat.cards):
        code = card.code
        if view == "full" and not code and i < len(final):
            code = final[i].code
        elif view == "hero" and card.down and not seat.hero:
            code = ""  # a log that shows others' down cards as dealt: not the hero's view
        out.append(code or UNSEEN)
    return tuple(out)


def compute(steps: Sequence[Step], view: View) -> HandEquity:
    """The equity at every step of a hand in one view (see the module docstring)."""
    final = steps[-1] if steps else None
    memo: dict[tuple[object, ...], Point] = {}
    points: list[Point] = []
    by_step: list[int | None] = []
    starts: list[tuple[str, int]] = []
    last_key: tuple[object, ...] | None = None
    for index, step in enumerate(steps):
        if step.street is None:  # before the deal: nothing; the showdown: the last street's
            by_step.append(len(points) - 1 if points and step.phase != "seats"
                           and step.phase != "antes" else None)
            continue
        players, hands, dead = situation_of(step, view, final if view == "full" else None)
        key = (step.street, players, hands, dead, step.community)
        dealt = index > 0 and steps[index - 1].street != step.street
        if key != last_key or dealt:
            point = memo.get(key)
            if point is None:
                point = memo[key] = evaluate(step.street, players, hands, dead, step.community)
            points.append(point)
            last_key = key
        if not starts or starts[-1][0] != step.street:
            starts.append((step.street, len(points) - 1))
        by_step.append(len(points) - 1)
    return HandEquity(view, tuple(points), tuple(by_step), tuple(starts))


def evaluate(street: str, players: tuple[str, ...], hands: tuple[tuple[str, ...], ...],
           dead: tuple[str, ...], community: str | None) -> Point:
    """The equity of one situation: exact when cheap, else seeded Monte Carlo."""
    if len(players) < 2:  # one player left: the pot is theirs
        return Point(street, players, hands, dead, (1.0,) * len(players), True, 0.0, 0)
    try:
        result = equity(hands, dead, community=community, samples=SAMPLES, seed=SEED,
                        exact_limit=EXACT_LIMIT)
    except SituationError as error:
        return Point(street, players, hands, dead, (), False, 0.0, 0, str(error))
    return Point(street, players, hands, dead, result.equity, result.exact,
                 max(result.std_error), result.samples)


def full_view_exists(steps: Sequence[Step]) -> bool:
    """Whether the end of the hand shows a card some earlier step's hero view did not have:
    then the full view differs from the hero's."""
    if not steps:
        return False
    final = steps[-1]
    for step in steps:
        if step.street is None:
            continue
        if situation_of(step, "hero") != situation_of(step, "full", final):
            return True
    return False
