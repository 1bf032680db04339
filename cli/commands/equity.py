"""`razz equity HAND HAND… [--dead CARDS]`: each hand's share of the pot, exact when feasible.

    razz equity "As 2d 3c" "Kh Qd Jc"
    razz equity "?? ?? 5h 4c 8d" "Ah 2h 3s 6d 7c" --dead "Kd 9s 9c" --format json

A HAND is the cards a player holds as the viewer sees them, `??` for a card the viewer cannot
see; every hand is completed to seven cards from the cards nobody has seen. `--dead` lists
cards out of play (folded players' up cards, mucked cards; `??` for a card known to be gone
but not which). With eight players the deck can run out: a community card is then dealt to
all (DEAL-COMMUNITY), or give it with `--community`. The result is exact when enumerating the
cards to come is cheap enough, else a Monte Carlo estimate with its standard error, and says
which. Exit status: 0, or 2 for bad input (one line saying why).
"""

from __future__ import annotations

import argparse
import json
import sys

from razz.cli import EXIT_OK, EXIT_USAGE


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"must be at least 2, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hands", nargs="+", metavar="HAND",
                        help='a player\'s cards in quotes, e.g. "As 2d 7c ??" (2 to 8 hands)')
    parser.add_argument("--dead", default="", metavar="CARDS",
                        help="cards out of play: folded players' up cards, mucked cards")
    parser.add_argument("--community", default=None, metavar="CARD",
                        help="the community card when the deck ran out (?? if still to come);"
                        " by default decided from the cards dealt")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default) or one JSON object")
    parser.add_argument("--method", choices=("auto", "exact", "monte-carlo"), default="auto",
                        help="auto (default): exact when feasible, else Monte Carlo")
    parser.add_argument("--samples", type=_positive, default=None, metavar="N",
                        help="Monte Carlo samples (default 200,000)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="Monte Carlo seed (the same seed, the same estimate)")


def run(args: argparse.Namespace) -> int:
    from razz.analysis.equity import EXACT_LIMIT, SAMPLES, SituationError, equity

    try:
        result = equity(
            args.hands, args.dead, community=args.community, method=args.method,
            samples=args.samples or SAMPLES, seed=args.seed,
        )
    except SituationError as exc:
        print(f"razz equity: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        print(json.dumps(result.to_json()))
        return EXIT_OK
    width = max(len(" ".join(h)) for h in result.hands)
    for i, (cards, share) in enumerate(zip(result.hands, result.equity, strict=True)):
        error = "" if result.exact else f" ± {100 * result.std_error[i]:.2f}"
        print(f"hand {i + 1}  {' '.join(cards):<{width}}  {100 * share:6.2f}%{error}")
    if result.dead:
        print(f"dead: {' '.join(result.dead)}")
    if result.community == "??":
        print("community card: to come, shared by all hands (the deck runs out)")
    elif result.community is not None:
        print(f"community card: {result.community}")
    if result.exact:
        print(f"exact: {result.outcomes:,} rank outcomes enumerated, standing for "
              f"{result.deals:,} deals of the unseen cards")
    else:
        why = ("as asked" if args.method == "monte-carlo"
               else f"an exact result needs more than {EXACT_LIMIT:,} rank outcomes")
        print(f"Monte Carlo: {result.samples:,} random deals, ± one standard error in "
              f"percentage points ({why})")
    return EXIT_OK
