"""Razz equity: each hand's share of the pot from the cards known now and the cards to come.

`equity` takes 2 to 8 hands as a viewer sees them (`??` for a card a hand holds that the
viewer cannot see), the dead cards and, rarely, the community card, completes every hand to
seven cards from the unseen cards, and returns each hand's expected share of the pot: the
best ace-to-five low of seven cards wins, equal lows split (HAND-LOW, WIN-SPLIT; there is no
qualifier). Exact by enumerating the cards to come as rank multisets (`razz.analysis.exact`)
when that takes at most `EXACT_LIMIT` joint outcomes, else Monte Carlo with a standard error
(`razz.analysis.montecarlo`); the result says which.

>>> r = equity(["As 2s 3s 4s", "Kd Qd Jd Td"])  # heads-up on 4th street
>>> r.exact, round(r.equity[0], 4), r.outcomes
(True, 0.9614, 207025)
>>> r = equity(["5s 4d 3c 2h Ad", "5h 4c 3d 2s Ac"])  # the same ranks split
>>> r.equity
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, prod
from typing import Any, Literal

from razz.analysis import exact, montecarlo
from razz.analysis.situation import Situation, SituationError, situation

# Joint rank outcomes enumerated at most before Monte Carlo takes over. Measured with
# benchmarks/equity.py: about 21 ns of CPU per joint outcome (heads-up from 3rd street, a
# shared 2-core machine), so 20 million is about 0.4 s, what SAMPLES Monte Carlo deals took
# when the line was drawn (0.25 to 0.45 s; they take less since each deal draws only the
# cards to come, and the line stays where it is): heads-up from 3rd street (3.3 million outcomes), 3-way from 5th street
# (0.75 million) and 4-way from 6th street (28,561) are exact; 3-way from 4th street (94
# million) and 4-way from 5th street (69 million) go to Monte Carlo.
EXACT_LIMIT = 20_000_000
# What `method="exact"` accepts at most: about 35 s, and rows of joined hands (all but the
# hand with the most completions) kept in memory at about 50 bytes each.
FORCED_LIMIT, ROWS_LIMIT = 1_000_000_000, 4_000_000
SAMPLES = 200_000  # Monte Carlo samples by default: a standard error of at most 0.0011

Method = Literal["auto", "exact", "monte-carlo"]

__all__ = ["EXACT_LIMIT", "SAMPLES", "EquityResult", "SituationError", "equity", "equity_of"]


@dataclass(frozen=True)
class EquityResult:
    """Each hand's share of the pot, in the order of the hands, and how it was computed.

    `std_error` is 0 for every hand when `exact`; `samples` counts the Monte Carlo deals
    (0 when exact); `outcomes` the joint rank outcomes enumerated and `deals` the deals of
    cards they stand for (both 0 for Monte Carlo); `community` is None, `"??"` (a community
    card to come, DEAL-COMMUNITY) or the community card given.
    """

    equity: tuple[float, ...]
    exact: bool
    std_error: tuple[float, ...]
    samples: int
    outcomes: int
    deals: int
    community: str | None
    hands: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...]

    @property
    def method(self) -> str:
        """`exact` or `monte-carlo`."""
        return "exact" if self.exact else "monte-carlo"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: `equity` first, in the order of the hands."""
        return {
            "equity": list(self.equity),
            "exact": self.exact,
            "method": self.method,
            "std_error": list(self.std_error),
            "samples": self.samples,
            "outcomes": self.outcomes,
            "deals": self.deals,
            "community": self.community,
            "hands": [" ".join(h) for h in self.hands],
            "dead": " ".join(self.dead),
        }


def equity(
    hands: Sequence[str | Sequence[str]],
    dead: str | Sequence[str] = (),
    *,
    community: str | None = None,
    method: Method = "auto",
    samples: int = SAMPLES,
    seed: int | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> EquityResult:
    """Each hand's share of the pot (see the module docstring); SituationError on bad input.

    A hand is a string (`"As 2d 7c ??"`) or a sequence of cards. `community`: None to let the
    deck decide (DEAL-COMMUNITY), `"??"` for one to come, or the card dealt. `method="auto"`
    enumerates when at most `exact_limit` joint outcomes are needed, else samples `samples`
    deals with `seed`.

    >>> r = equity(["As 2s 3s 4s 5s 6s 7s", "?? ?? ?? ?? ?? ?? ??"])  # a wheel against a
    >>> round(r.equity[1], 4), r.exact  # random hand: only another wheel splits the pot
    (0.0016, True)
    >>> equity(["As 2s"])
    Traceback (most recent call last):
    ...
    razz.analysis.situation.SituationError: give 2 to 8 hands, not 1
    """
    return equity_of(situation(hands, dead, community), method=method, samples=samples,
                     seed=seed, exact_limit=exact_limit)


def equity_of(
    spot: Situation,
    *,
    method: Method = "auto",
    samples: int = SAMPLES,
    seed: int | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> EquityResult:
    """`equity` of a situation already checked (`razz.analysis.situation.situation`).

    >>> equity_of(situation(["5s 4d 3c 2h Ad", "5h 4c 3d 2s Ac"])).equity
    (0.5, 0.5)
    """
    if method not in ("auto", "exact", "monte-carlo"):
        raise ValueError(f"method must be auto, exact or monte-carlo, not {method!r}")
    if method == "exact":
        _check_feasible(spot)
        return _exact(spot)
    if method == "auto" and exact_cost(spot) <= exact_limit:
        return _exact(spot)
    estimate = montecarlo.sample(spot, samples, seed)
    return EquityResult(
        estimate.equity, False, estimate.std_error, estimate.samples, 0, 0,
        spot.community, spot.hands, spot.dead,
    )


def exact_cost(spot: Situation) -> int:
    """The joint rank outcomes an exact enumeration of the situation would visit, at most.

    >>> exact_cost(situation(["As 2s 3s 4s", "Kd Qd Jd Td"]))
    207025
    """
    cost = prod(_completion_count(k, spot.unseen) for k in spot.to_come)
    if spot.community_to_come:
        cost *= sum(1 for c in spot.unseen if c)
    return cost


def _check_feasible(spot: Situation) -> None:
    """Refuse an enumeration that would take minutes or more memory than a small machine has."""
    cost = exact_cost(spot)
    counts = [_completion_count(k, spot.unseen) for k in spot.to_come]
    rows = prod(counts) // max(counts)
    if cost > FORCED_LIMIT or rows > ROWS_LIMIT:
        raise SituationError(
            f"an exact result needs {cost:,} rank outcomes ({rows:,} rows in memory); "
            f"the most it does is {FORCED_LIMIT:,} ({ROWS_LIMIT:,} rows): use Monte Carlo"
        )


# Keyed by the unseen ranks, which differ from one situation to the next: unbounded, this
# cache grew with every all-in (1,133 entries after 20,000 hands); the last 1,024 keep the
# repeats (a situation asks for each hand's count twice: 85% hits).
@lru_cache(maxsize=1024)
def _completion_count(to_come: int, unseen: tuple[int, ...]) -> int:
    """The multisets of `to_come` ranks the unseen cards allow (at most 4 of a rank each)."""
    # The coefficient of x^k in prod_r (1 + x + … + x^c_r) = prod_r (1 - x^(c_r + 1)) / (1 - x)^13:
    # the factors of the ranks that run short (c_r < k; the others count from x^(k + 1) on),
    # multiplied out up to x^k, against 1 / (1 - x)^13 = sum_j C(12 + j, j) x^j.
    short = [1] + [0] * to_come
    for c in unseen:
        for k in range(to_come, c, -1):
            short[k] -= short[k - c - 1]
    size = len(unseen)
    return sum(a * comb(size - 1 + to_come - j, to_come - j) for j, a in enumerate(short) if a)


def _exact(spot: Situation) -> EquityResult:
    if spot.community_to_come:
        # The community card is one of the unseen cards: c_r ways for rank r, each followed
        # by the hands' own cards from what is left.
        shares = [0.0] * len(spot.known)
        total = 0.0
        outcomes = 0
        for rank, ways in enumerate(spot.unseen):
            if not ways:
                continue
            unseen = list(spot.unseen)
            unseen[rank] -= 1
            known = [tuple(sorted((*k, rank))) for k in spot.known]
            sums = _enumerate(known, spot.to_come, tuple(unseen))
            shares = [s + ways * x for s, x in zip(shares, sums.shares, strict=True)]
            total += ways * sums.total
            outcomes += sums.outcomes
    else:
        sums = _enumerate(list(spot.known), spot.to_come, spot.unseen)
        shares, total, outcomes = list(sums.shares), sums.total, sums.outcomes
    return EquityResult(
        tuple(float(s / total) for s in shares), True, (0.0,) * len(shares), 0, outcomes,
        round(total), spot.community, spot.hands, spot.dead,
    )


def _enumerate(
    known: list[tuple[int, ...]], to_come: tuple[int, ...], unseen: tuple[int, ...]
) -> exact.Sums:
    hands = [exact.completions(k, n, unseen) for k, n in zip(known, to_come, strict=True)]
    return exact.enumerate_hands(hands, unseen)
