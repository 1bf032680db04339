"""Replay + audit speed of already-parsed hands, beside the parse speed, in one run (by hand).

    .venv/bin/python benchmarks/audit.py [PATH ...] [--seconds S] [--ruleset NAME]

PATHs are hand-history files or folders (default: sample_histories/, the real PokerStars
Razz file of ../shared/corpus, and tests/data/replay/). The hands are parsed once for the
parse rate; the parsed hands are then audited over and over for at least `--seconds` on one
core. The target is 3,000 audited hands per second.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [
    ROOT / "sample_histories",
    ROOT.parent / "shared" / "corpus" / "pokerstars" / "Razz-USD-0.04-0.08-200911.txt",
    ROOT / "tests" / "data" / "replay",
]
TARGET = 3000


def _files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.txt") if not p.name.startswith("."))
        elif path.is_file():
            files.append(path)
    return files


def main(argv: list[str] | None = None) -> int:
    from razz.parser import Hand, read_path
    from razz.replay.audit import audit_hand
    from razz.replay.ruleset import get_ruleset

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--ruleset", default="pokerstars")
    args = parser.parse_args(argv)
    files = _files(args.paths or DEFAULT)
    if not files:
        print("no hand-history files found", file=sys.stderr)
        return 2
    ruleset = get_ruleset(args.ruleset)

    list(read_path(files[0]))  # warm up: the grammar is built once per process
    started = time.perf_counter()
    hands = [h for f in files for h in read_path(f) if isinstance(h, Hand)]
    parse_seconds = time.perf_counter() - started
    if not hands:
        print("no Razz hand parsed", file=sys.stderr)
        return 2
    for hand in hands:  # warm up: imports, caches
        audit_hand(hand, ruleset)

    gc.collect()
    audited, findings = 0, 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < args.seconds:
        for hand in hands:
            findings += len(audit_hand(hand, ruleset).findings)
        audited += len(hands)
    events = sum(len(h.events) for h in hands) / len(hands)
    parse_rate = len(hands) / parse_seconds
    audit_rate = audited / elapsed
    print(f"{len(hands)} hands from {len(files)} files, {events:.0f} events per hand")
    print(f"parse          {parse_rate:9,.0f} hands/s  (read_path, one pass)")
    print(f"replay + audit {audit_rate:9,.0f} hands/s  ({audited:,} hands in {elapsed:.1f} s)")
    print(f"audit / parse  {audit_rate / parse_rate:9.1f} x")
    print(f"target         {TARGET:9,} hands/s  {'met' if audit_rate >= TARGET else 'NOT met'}")
    print(f"findings       {findings / max(audited, 1):9.2f} per hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
