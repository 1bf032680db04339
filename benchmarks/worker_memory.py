"""A worker's memory as hands go by: `python benchmarks/worker_memory.py FOLDER [--no-ev]`.

Reads every history of FOLDER (as `benchmarks/import.py` simulates them, e.g.
/tmp/razz-bench/20000-1) piece by piece and hands each piece to `process_task` in this one
process, as an import's worker does (parse, audit, all-in EV, rows), and prints its anonymous
memory (RssAnon) after 2,500, 5,000, 10,000, 20,000, 40,000 and 100,000 hands, garbage
collected. With `--no-ev` (RAZZ_NO_ALLIN_EV) the same without all-in EV: the difference is
what EV keeps. Both runs read the same pieces in the same order, so compare them mark by mark.
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from collections.abc import Iterator
from pathlib import Path

MARKS = (2_500, 5_000, 10_000, 20_000, 40_000, 100_000)


def anonymous_mib() -> float:
    """This process's anonymous resident memory (heap and other private pages), MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no RssAnon in /proc/self/status")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--no-ev", action="store_true", help="without all-in EV")
    args = parser.parse_args()
    if args.no_ev:
        from razz.store.rows import ALLIN_EV_OFF

        os.environ[ALLIN_EV_OFF] = "1"
    from razz.store.sources import Opener, discover, read_pieces
    from razz.store.work import PartTask, Task, init_worker, process_task

    init_worker(None)
    opener = Opener()

    def tasks() -> Iterator[Task]:
        for source in discover([str(args.folder)]).sources:
            for piece in read_pieces(source, None, opener, piece_bytes=256 * 1024):
                yield Task((PartTask(0, source.path, piece.data, piece.line_offset,
                                     piece.context, piece.context_line_offset),))

    marks = list(MARKS)
    hands = 0
    started = time.process_time()
    for task in tasks():
        hands += sum(part.hands for part in process_task(task).parts)
        while marks and hands >= marks[0]:
            marks.pop(0)
            gc.collect()
            print(f"{hands:,} hands: {anonymous_mib():.1f} MiB anonymous, "
                  f"{time.process_time() - started:.1f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
