"""Replay + audit speed of already-parsed hands, beside the parse speed, in one run (by hand).

    .venv/bin/python benchmarks/audit.py [PATH ...] [--rounds N] [--seconds S] [--ruleset NAME]

PATHs are hand-history files or folders (default: sample_histories/ but its rooms/, the real
PokerStars Razz file of ../shared/corpus, and tests/data/replay/). Each round parses the files once and
audits the parsed hands once, on one core; rounds go on for at least `--rounds` rounds and
`--seconds` seconds. The target is 3,000 audited hands per second. Rates are given by the wall
clock and by the process's CPU time (on a machine shared with other work, the wall clock counts
the time this process waits for a core; CPU time does not). Each round also writes the
parsed hands back as PokerStars text (the writer `razz simulate` uses): a line of its own,
whose target of 5,000 hands per second was a timed unit test before.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_histories"  # read without rooms/: other rooms, under other rules
DEFAULT = [
    SAMPLES,
    ROOT.parent / "shared" / "corpus" / "pokerstars" / "Razz-USD-0.04-0.08-200911.txt",
    ROOT / "tests" / "data" / "replay",
]
TARGET = 3000
WRITE_TARGET = 5000


def _files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.txt") if not p.name.startswith(".")
                            and not (path == SAMPLES and p.relative_to(path).parts[0] == "rooms"))
        elif path.is_file():
            files.append(path)
    return files


def main(argv: list[str] | None = None) -> int:
    from razz.parser import Hand, read_path
    from razz.parser.sites.pokerstars_writer import write_hands
    from razz.replay.audit import audit_hand
    from razz.replay.ruleset import get_ruleset

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ruleset", default="pokerstars")
    args = parser.parse_args(argv)
    files = _files(args.paths or DEFAULT)
    if not files:
        print("no hand-history files found", file=sys.stderr)
        return 2
    ruleset = get_ruleset(args.ruleset)

    list(read_path(files[0]))  # warm up: the grammar is built once per process
    hands = [h for f in files for h in read_path(f) if isinstance(h, Hand)]
    if not hands:
        print("no Razz hand parsed", file=sys.stderr)
        return 2
    for hand in hands:  # warm up: imports, caches
        audit_hand(hand, ruleset)

    # Rounds alternate one parse pass and one audit pass over the same hands, so that both
    # rates see the same machine (a shared, noisy one): medians of the rounds, and the median
    # of each round's own ratio.
    parse_rates: list[float] = []
    audit_rates: list[float] = []
    write_rates: list[float] = []
    parse_cpu: list[float] = []
    audit_cpu: list[float] = []
    pairs = [(h.header, h.events) for h in hands]
    findings = 0
    started = time.perf_counter()
    while len(audit_rates) < args.rounds or time.perf_counter() - started < args.seconds:
        gc.collect()
        c0, t0 = time.process_time(), time.perf_counter()
        parsed = sum(1 for f in files for h in read_path(f) if isinstance(h, Hand))
        c1, t1 = time.process_time(), time.perf_counter()
        findings = sum(len(audit_hand(hand, ruleset).findings) for hand in hands)
        c2, t2 = time.process_time(), time.perf_counter()
        parse_cpu.append(parsed / (c1 - c0))
        audit_cpu.append(len(hands) / (c2 - c1))
        write_hands(pairs)
        t3 = time.perf_counter()
        parse_rates.append(parsed / (t1 - t0))
        audit_rates.append(len(hands) / (t2 - t1))
        write_rates.append(len(hands) / (t3 - t2))
    ratios = [a / p for a, p in zip(audit_rates, parse_rates, strict=True)]
    events = sum(len(h.events) for h in hands) / len(hands)
    audit_rate = statistics.median(audit_rates)
    print(f"{len(hands)} hands from {len(files)} files, {events:.0f} events per hand, "
          f"{len(audit_rates)} rounds (median, then best)")
    print(f"parse          {statistics.median(parse_rates):9,.0f} hands/s  "
          f"{max(parse_rates):9,.0f}  (read_path, one core)")
    print(f"replay + audit {audit_rate:9,.0f} hands/s  {max(audit_rates):9,.0f}  (one core)")
    print(f"audit / parse  {statistics.median(ratios):9.1f} x")
    cpu_ratios = [a / p for a, p in zip(audit_cpu, parse_cpu, strict=True)]
    print(f"by CPU time: parse {statistics.median(parse_cpu):,.0f}, replay + audit "
          f"{statistics.median(audit_cpu):,.0f} hands/s, audit / parse "
          f"{statistics.median(cpu_ratios):.1f} x")
    print(f"target         {TARGET:9,} hands/s  {'met' if audit_rate >= TARGET else 'NOT met'}")
    print(f"findings       {findings / len(hands):9.2f} per hand")
    write_rate = statistics.median(write_rates)
    print(f"write          {write_rate:9,.0f} hands/s  {max(write_rates):9,.0f}  (write_hands,"
          f" one core; target {WRITE_TARGET:,}: {'met' if write_rate >= WRITE_TARGET else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
