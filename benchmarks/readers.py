"""How fast the store's readers answer while an import writes it, against idle.

    python benchmarks/readers.py [--hands 6000] [--import-hands 30000] [--rounds 5]

A store of `--hands` simulated hands is built once. Each round then times, interleaved:

* idle: `razz stats` (a new process, as a user runs it) and the dashboard's way of reading
  (in this process: open the store read-only, run the Player statistics page's query, close),
  on a copy of the store nobody writes;
* busy: the same, on another copy while `razz import` adds `--import-hands` more hands to it
  (the import is started, given a second to be writing, and stopped after the round).

It prints the medians and the ratio busy/idle of each; the issue's target is 2x or less (it
measured 2-4 s during an import against 0.4 s idle). Medians of interleaved rounds, both sides
measured under the same load: the ratio holds better than the seconds on a busy machine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable


def razz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "razz", *args], capture_output=True, text=True, check=True)


def time_stats(db: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([PY, "-m", "razz", "stats", "--db", str(db)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"razz stats failed: {done.stderr.strip()}")
    return time.perf_counter() - started


def time_page(db: Path) -> float:
    from razz.store import db as store_db
    from razz.store import queries

    started = time.perf_counter()
    with store_db.read_connection(db) as con:
        queries.overview(con)
        queries.player_stats(con, None, limit=None)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--import-hands", type=int, default=30000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        razz("simulate", "--hands", str(args.hands), "--seed", "1", "--out", str(folder / "base"))
        razz("simulate", "--hands", str(args.import_hands), "--seed", "2", "--out",
             str(folder / "more"))
        base = folder / "base.duckdb"
        razz("import", str(folder / "base"), "--db", str(base))
        times: dict[str, list[float]] = {k: [] for k in ("stats idle", "stats busy",
                                                        "page idle", "page busy")}
        for _ in range(args.rounds):
            idle = folder / "idle.duckdb"
            shutil.copy(base, idle)
            times["stats idle"].append(time_stats(idle))
            times["page idle"].append(time_page(idle))
            busy = folder / "busy.duckdb"
            for stale in folder.glob("busy.duckdb*"):
                stale.unlink()
            shutil.copy(base, busy)
            importer = subprocess.Popen(
                [PY, "-m", "razz", "import", str(folder / "more"), "--db", str(busy)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            try:
                time.sleep(1.0)
                if importer.poll() is not None:
                    raise SystemExit("the import ended before it could be measured: raise "
                                     "--import-hands")
                times["stats busy"].append(time_stats(busy))
                times["page busy"].append(time_page(busy))
                still = importer.poll() is None
            finally:
                importer.kill()
                importer.wait()
            if not still:
                print("warning: the import ended during the round", file=sys.stderr)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{args.hands:,} hands stored, an import of {args.import_hands:,} running; "
              f"medians of {args.rounds} rounds")
        for what in ("stats", "page"):
            idle_s, busy_s = med[f"{what} idle"], med[f"{what} busy"]
            print(f"{what:6} idle {idle_s:6.2f} s   during import {busy_s:6.2f} s   "
                  f"ratio {busy_s / idle_s:4.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
