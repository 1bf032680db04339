"""Equity speed: exact enumeration against PokerKit's Monte Carlo on the same situations (by hand).

    .venv/bin/python benchmarks/equity.py [--rounds 7] [--pokerkit-samples 200]

Targets (issue 13): a heads-up all-in on 4th street (4 cards known each, 3 to come) exact in
< 50 ms, a 3-way all-in on 5th street (5 known, 2 to come) exact in < 100 ms. Each round times
our exact result, then PokerKit's `calculate_equities` (RegularLowHand, ace-to-five, best five
of seven, the low it uses for Razz) with a few samples on the same situation, interleaved so
both see the same machine; medians of the rounds, wall clock and this process's CPU time (on
a shared machine the CPU time is the steadier of the two). Also: the first call (building the
lookup table), heads-up on 3rd street (the cost per enumerated outcome, which sets
EXACT_LIMIT) and the default Monte Carlo on a spot too big to enumerate.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

SITUATIONS = {
    "heads-up, 4th street": (["As 4d 7c 8h", "2s 5h 6d Kc"], 0.050),
    "3-way, 5th street": (["Ad 3c 6h 8s Qd", "2c 4h 7d 9s Jc", "3s 5d 5c 7h Td"], 0.100),
}


def _clock(call: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = call()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def _pokerkit(hands: list[str], samples: int) -> Callable[[], list[float]]:
    from pokerkit import Card, Deck, RegularLowHand, calculate_equities

    known = [[c for c in h.split() if c != "??"] for h in hands]
    used = {c for cards in known for c in cards}
    deck = [card for card in Deck.REGULAR if repr(card) not in used]
    ranges = [[list(Card.parse("".join(cards)))] for cards in known]
    return lambda: calculate_equities(  # the deck is any iterable of cards, typed as a Deck
        ranges, (), 7, 0, deck, (RegularLowHand,), sample_count=samples  # type: ignore[arg-type]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pokerkit-samples", type=int, default=200)
    args = parser.parse_args(argv)

    from razz.analysis import lowtable
    from razz.analysis.equity import EXACT_LIMIT, SAMPLES, equity

    wall, cpu, _ = _clock(lowtable.low7_table)
    print(f"lookup table (first call, built once per process): {wall * 1e3:.0f} ms wall, "
          f"{cpu * 1e3:.0f} ms CPU")
    for name, (hands, target) in SITUATIONS.items():
        ours_wall, ours_cpu, theirs_wall, theirs_cpu = [], [], [], []
        theirs = _pokerkit(hands, args.pokerkit_samples)
        equity(hands)  # warm up: catalogs of multisets
        result = their_result = None
        for _ in range(args.rounds):
            w, c, result = _clock(partial(equity, hands))
            ours_wall.append(w)
            ours_cpu.append(c)
            w, c, their_result = _clock(theirs)
            theirs_wall.append(w)
            theirs_cpu.append(c)
        assert result is not None and result.exact and their_result is not None
        ow, oc = statistics.median(ours_wall), statistics.median(ours_cpu)
        tw, tc = statistics.median(theirs_wall), statistics.median(theirs_cpu)
        print(f"\n{name}: {' | '.join(hands)}")
        print(f"  ours, exact ({result.outcomes:,} rank outcomes, {result.deals:,} deals): "
              f"{ow * 1e3:.1f} ms wall, {oc * 1e3:.1f} ms CPU; target {target * 1e3:.0f} ms: "
              f"{'met' if ow < target else 'NOT met'}")
        print(f"    equity {', '.join(f'{e:.4f}' for e in result.equity)}")
        print(f"  PokerKit calculate_equities, {args.pokerkit_samples} samples: "
              f"{tw * 1e3:.0f} ms wall, {tc * 1e3:.0f} ms CPU "
              f"({tc / args.pokerkit_samples * 1e6:.0f} µs CPU per sample)")
        print(f"    equity {', '.join(f'{e:.3f}' for e in their_result)} "
              f"(its standard error about {0.5 / args.pokerkit_samples ** 0.5:.3f} at most)")
        print(f"  ratio PokerKit / ours: {tw / ow:.1f}x wall, {tc / oc:.1f}x CPU "
              f"(PokerKit for 20,000 samples: {tc / args.pokerkit_samples * 20_000:.1f} s CPU)")

    third = ["As 2d 3c", "Kh Qd Jc"]
    runs = [_clock(lambda: equity(third)) for _ in range(3)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    outcomes = runs[0][2].outcomes
    print(f"\nheads-up, 3rd street, exact: {outcomes:,} rank outcomes in {wall * 1e3:.0f} ms wall, "
          f"{cpu * 1e3:.0f} ms CPU: {cpu / outcomes * 1e9:.0f} ns CPU per outcome; "
          f"EXACT_LIMIT = {EXACT_LIMIT:,} outcomes is about {cpu / outcomes * EXACT_LIMIT:.2f} s")
    big = ["As 2d 3c 4h", "Kh Qd Jc Tc", "5s 6s 7s 8s"]
    runs = [_clock(lambda: equity(big, seed=1)) for _ in range(3)]
    result = runs[0][2]
    print(f"3-way, 4th street, Monte Carlo ({result.samples:,} samples = SAMPLES {SAMPLES:,}, "
          f"standard error <= {max(result.std_error):.4f}): "
          f"{statistics.median(r[0] for r in runs) * 1e3:.0f} ms wall, "
          f"{statistics.median(r[1] for r in runs) * 1e3:.0f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
