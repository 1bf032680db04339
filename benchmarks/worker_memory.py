"""A worker's memory as hands go by: `python benchmarks/worker_memory.py FOLDER [--no-ev]`.

Reads every history of FOLDER (as `benchmarks/import.py` simulates them, e.g.
/tmp/razz-bench/20000-1) piece by piece and hands each piece to `process_task` in this one
process, set up as an import's worker is (`worker_setup`: no pandas, Arrow on malloc) and doing
what it does (parse, audit, all-in EV, rows), and prints its anonymous memory (RssAnon) after
2,500, 5,000, 10,000, 20,000, 40,000 and 100,000 hands, garbage collected, and where it is:
Python's small-object arenas (pymalloc; in use: the bytes of live objects in them, the rest is
arenas held by a few live objects among freed ones) and the C library's heap (malloc: Arrow's
buffers, numpy arrays, large Python objects; in use and free). With `--no-ev`
(RAZZ_NO_ALLIN_EV) the same without all-in EV: the difference is what EV keeps. Both runs
read the same pieces in the same order, so compare them mark by mark.

Without `worker_setup` (before 3 December, 13:40) this process loaded pandas and kept Arrow's
mimalloc pool, which an import's workers do not: 89 MiB after 2,500 hands where a worker
holds about 63 (with EV), a third of it not a worker's at all.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import re
import sys
import tempfile
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


def pymalloc_mib() -> tuple[float, float]:
    """Python's small-object arenas: (held, in use by live objects), MiB (CPython only)."""
    with tempfile.TemporaryFile() as out:  # sys._debugmallocstats writes to C's stderr
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode()
    held = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", text)
    used = re.search(r"# bytes in allocated blocks\s*=\s*([\d,]+)", text)
    if held is None or used is None:
        return float("nan"), float("nan")
    arena_bytes = 1 << 20  # CPython 3.10 and later
    return (int(held[1].replace(",", "")) * arena_bytes / 2**20,
            int(used[1].replace(",", "")) / 2**20)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]  # fmt: skip


def malloc_mib() -> tuple[float, float, float]:
    """The C library's heap: (in use, free in it, mapped apart for large blocks), MiB (glibc
    2.33 and later; NaN elsewhere)."""
    try:
        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return float("nan"), float("nan"), float("nan")
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return info.uordblks / 2**20, info.fordblks / 2**20, info.hblkhd / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--no-ev", action="store_true", help="without all-in EV")
    args = parser.parse_args()
    if args.no_ev:
        from razz.store.rows import ALLIN_EV_OFF

        os.environ[ALLIN_EV_OFF] = "1"
    from razz.store.sources import Opener, discover, read_pieces
    from razz.store.work import PartTask, Task, init_worker, process_task, worker_setup

    init_worker(None)
    worker_setup()
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
            seconds = time.process_time() - started
            held, live = pymalloc_mib()
            used, free, mapped = malloc_mib()
            print(f"{hands:,} hands: {anonymous_mib():.1f} MiB anonymous: pymalloc {held:.0f} "
                  f"({live:.1f} in use), malloc {used:.1f} in use, {free:.1f} free, "
                  f"{mapped:.1f} mapped; {seconds:.1f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
