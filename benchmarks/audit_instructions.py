"""Instructions per hand of replay + audit, and of parsing, counted by callgrind (by hand).

    .venv/bin/python benchmarks/audit_instructions.py [--hands N] [--python PYTHON]

Wall time on a shared machine says little; instruction counts do not depend on the load.
Each figure is the difference of two runs under `valgrind --tool=callgrind` that differ only
by the work measured (imports, the grammar and the first hand's caches are in both):

* audit: the parsed hands (every 4th of sample_histories/, pickled beforehand) are loaded,
  then audited or not. The first pass fills the caches of the low-hand values (`lowhand`:
  values by rank multiset, kept for the process): 7% of its instructions (1.998 M a hand,
  1.856 M the second time, 500 hands). A second pass over the same hands, caches warm, is
  what a long import pays per hand: it is printed beside the first;
* parse: the first files of sample_histories/ that hold N hands are read once, then again
  or not;
* with `--rows`, the store's rows (`store.rows.RowBuilder`, all-in EV off: the workers' share
  of `razz import` after the audit): the hands audited and tabulated, or only audited.

To compare two versions of the engine, install the other one somewhere
(`pip install --no-deps --target DIR CHECKOUT`) and pass `--against DIR`: the same hands are
audited by both in one run, and the ratio of their instructions per hand is printed (or run
this script with `PYTHONPATH=DIR` for that version's figures alone). A run takes minutes:
callgrind runs Python some fifty times slower.
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_histories"


def _pokerstars_samples() -> list[Path]:
    """The PokerStars files of sample_histories/ (not rooms/: other rooms, other rules)."""
    return sorted(p for p in SAMPLES.rglob("*.txt") if "rooms" not in p.relative_to(SAMPLES).parts)


def _files(hands: int) -> list[Path]:
    """The first files of sample_histories/ that hold `hands` hands."""
    from razz.parser import Hand, read_path

    files, total = [], 0
    for f in _pokerstars_samples():
        if total >= hands:
            break
        files.append(f)
        total += sum(1 for h in read_path(f) if isinstance(h, Hand))
    return files


def _work(mode: str, hands_file: str) -> None:
    """What one callgrind run does (this script, started again under valgrind)."""
    from razz.parser import Hand, read_path
    from razz.replay.audit import audit_hand
    from razz.store.rows import RowBuilder

    hands = pickle.loads(Path(hands_file).read_bytes())
    files = _files(len(hands))
    audit_hand(hands[0])  # imports and caches
    warm = RowBuilder(allin=False)  # pyarrow's import and first tables, in every run
    warm.add_hand(hands[0], audit_hand(hands[0]), 0)
    warm.tables()
    list(read_path(files[0]))  # the grammar, built once per process
    if mode in ("audit", "twice"):  # twice: again, the low-hand caches now warm
        for _ in range(2 if mode == "twice" else 1):
            sum(len(audit_hand(h).findings) for h in hands)
    elif mode == "rows":  # the audit, then the store's rows of each hand (all-in EV aside)
        builder = RowBuilder(allin=False)
        for h in hands:
            builder.add_hand(h, audit_hand(h), 0)
        builder.tables()
    elif mode == "parse":
        sum(1 for f in files for h in read_path(f) if isinstance(h, Hand))


def _instructions(mode: str, hands_file: str, python: str, path: str | None = None) -> int:
    """Instructions of one run of `_work`; `path`: the install of razz to run instead."""
    # The same hash seed in every run (sets and dicts of strings iterate alike), and no run
    # writes compiled modules that the next one would then not compile: without these, two
    # runs of the same code differed by 14% in a harness like this one (the first compiling, the
    # second not).
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (path, env.get("PYTHONPATH"))))
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg",
             python, __file__, "--work", mode, hands_file],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(out.stderr[-2000:])
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="hands to audit")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--against", metavar="DIR",
                        help="another install of razz (pip install --target DIR) to compare")
    parser.add_argument("--rows", action="store_true",
                        help="also count the store's rows of each audited hand (store/rows.py)")
    parser.add_argument("--work", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:
        _work(*args.work)
        return 0
    from razz.parser import Hand, read_path

    files = _pokerstars_samples()
    every = [h for f in files for h in read_path(f) if isinstance(h, Hand)]
    hands = every[:: max(1, len(every) // args.hands)][: args.hands]
    with tempfile.NamedTemporaryFile(suffix=".pkl") as tmp:
        tmp.write(pickle.dumps(hands))
        tmp.flush()
        modes = ("none", "audit", "twice", "parse") + (("rows",) if args.rows else ())
        runs = {m: _instructions(m, tmp.name, args.python) for m in modes}
        if args.against:
            base = {m: _instructions(m, tmp.name, args.python, args.against)
                    for m in modes if m != "parse"}
    parsed = sum(1 for f in _files(len(hands)) for h in read_path(f) if isinstance(h, Hand))
    audit = (runs["audit"] - runs["none"]) / len(hands)
    parse = (runs["parse"] - runs["none"]) / parsed
    warm = (runs["twice"] - runs["audit"]) / len(hands)
    print(f"replay + audit {audit:13,.0f} instructions per hand ({len(hands)} hands, first pass:"
          " low-hand caches filled as it goes)")
    print(f"  caches warm  {warm:13,.0f} instructions per hand (the same hands again)")
    if args.against:
        before = (base["audit"] - base["none"]) / len(hands)
        print(f"  against      {before:13,.0f} instructions per hand ({args.against}):"
              f" {before / audit:.3f} x as many")
        before = (base["twice"] - base["audit"]) / len(hands)
        print(f"  against      {before:13,.0f} instructions per hand, caches warm:"
              f" {before / warm:.3f} x as many")
    if args.rows:
        rows = (runs["rows"] - runs["audit"]) / len(hands)
        print(f"store's rows   {rows:13,.0f} instructions per hand (RowBuilder, all-in EV off)")
        if args.against:
            before = (base["rows"] - base["audit"]) / len(hands)
            print(f"  against      {before:13,.0f} instructions per hand ({args.against}):"
                  f" {before / rows:.3f} x as many")
    print(f"parse          {parse:13,.0f} instructions per hand ({parsed} hands)")
    print(f"audit / parse  {parse / audit:13.2f} x (hands audited per hand parsed;"
          f" low-hand caches warm: {parse / warm:.2f} x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
