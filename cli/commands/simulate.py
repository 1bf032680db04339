"""`razz simulate`: play random legal Razz hands and write them as a room's hand histories.

    razz simulate --hands 2000 --seed 7 --out sample_histories
    razz simulate --hands 500 --seed 7 --out /tmp/sim --violations
    razz simulate --hands 300 --seed 7 --out /tmp/ftp --site fulltilt

`--site` names the room (PokerStars by default; Full Tilt, Winamax, KingsClub, Merge XML,
PHH): its tables are played with its ruleset and stakes and written as it writes them.

Writes one file per table (cash sessions and sit-and-go tournaments) into `--out`. With
`--violations` it also writes, into `--out/violations/`, copies of the tables in which every
hand breaks exactly one rule, and `manifest.jsonl` (file, hand id, rule ID, line). With
`--rule-samples DIR` it writes, for every rule ID it can, a small file `DIR/<RULE-ID>.txt`:
a few legal hands at a table, then one that breaks that rule. The same seed writes the same
bytes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from razz.cli import EXIT_OK, EXIT_USAGE

SITES = ("pokerstars", "fulltilt", "winamax", "kingsclub", "merge", "phh")


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def _share(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=_positive, required=True, help="number of hands to play")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same bytes)")
    parser.add_argument("--out", type=Path, required=True, help="directory to write the files to")
    parser.add_argument(
        "--violations",
        action="store_true",
        help="also write copies where every hand breaks one rule, with manifest.jsonl,"
        " into OUT/violations/",
    )
    parser.add_argument(
        "--rule-samples",
        type=Path,
        metavar="DIR",
        help="also write one small file per rule ID into DIR, named after the rule",
    )
    parser.add_argument(
        "--biased-deck",
        metavar="PERCENT",
        default=None,
        help="deal from a biased deck: each low card (A-5) PERCENT more likely than any other"
        " card to be a door card (e.g. 10%%; negative: less likely), to test `razz fairness`",
    )
    parser.add_argument(
        "--site",
        default="pokerstars",
        choices=SITES,
        help="the room whose files to write (default pokerstars)",
    )
    parser.add_argument(
        "--tournament-share",
        type=_share,
        default=0.4,
        help="share of the tables that are sit-and-go tournaments (default 0.4)",
    )


def run(args: argparse.Namespace) -> int:
    from razz.simulate.rooms import save, write_room, write_room_violations
    from razz.simulate.simulator import simulate, write_files
    from razz.simulate.violations import (
        simulate_rule_samples,
        simulate_violations,
        write_rule_samples,
        write_violations,
    )

    out: Path = args.out
    if out.exists() and not out.is_dir():
        print(f"razz simulate: {out} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    start = time.perf_counter()
    site: str = args.site
    if site != "pokerstars" and (args.biased_deck or args.rule_samples):
        print(
            "razz simulate: --biased-deck and --rule-samples write PokerStars files only",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.biased_deck is None:
        files = simulate(
            args.hands, args.seed, tournament_share=args.tournament_share, site=site
        )
    else:
        from razz.analysis.fairness_bias import parse_boost, simulate_biased

        try:
            boost = parse_boost(args.biased_deck)
        except ValueError as exc:
            print(f"razz simulate: --biased-deck {args.biased_deck}: {exc}", file=sys.stderr)
            return EXIT_USAGE
        files = simulate_biased(args.hands, args.seed, boost,
                                tournament_share=args.tournament_share)
    try:
        if site == "pokerstars":
            paths = write_files(files, out)
        else:
            paths = save(write_room(site, files), out)
    except OSError as exc:
        print(f"razz simulate: cannot write to {out}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    hands = sum(len(f.hands) for f in files)
    elapsed = time.perf_counter() - start
    print(f"{hands} hands in {len(paths)} files written to {out} ({hands / elapsed:.0f} hands/s)")
    if args.violations:
        copies, injections = simulate_violations(
            args.hands, args.seed, tournament_share=args.tournament_share, site=site
        )
        if site == "pokerstars":
            write_violations(copies, injections, out / "violations")
        else:
            injections = tuple(
                write_room_violations(site, copies, injections, out / "violations")
            )
        rules = len({i.rule for i in injections})
        print(
            f"{len(injections)} hands with one violation each ({rules} rule IDs) written to"
            f" {out / 'violations'}, listed in manifest.jsonl"
        )
    if args.rule_samples is not None:
        samples = simulate_rule_samples(args.seed)
        write_rule_samples(samples, args.rule_samples)
        print(f"{len(samples)} files, one per rule ID, written to {args.rule_samples}")
    return EXIT_OK
