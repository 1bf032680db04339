"""Time grows linearly with input: the simulator, a huge line refused, and an import, each at
1x, 2x and 4x its size.

    python benchmarks/scaling.py [--hands 2000] [--line-mb 4] [--rounds 3]

* `razz simulate --hands N` for N = hands, 2 hands, 4 hands (issue 9: `--hands 1000000` must
  end, in time linear in the hands);
* `razz parse` of a file of three hands whose middle one holds a line of `--line-mb` MB, 2x,
  4x (refused as over RAZZ_MAX_LINE_CHARS, the other hands read);
* `razz import` of the simulated hands, 1x, 2x, 4x, into a new store each time.

Each is a new process, as a user runs it; sizes are interleaved in every round and the median
of the rounds is kept. Printed: seconds, and each size's time over the 1x time (linear: about
2 and 4; the start of a process is in every time, so small sizes show less than that).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent


def timed(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([PY, "-m", "razz", *args], capture_output=True, text=True)
    return time.perf_counter() - started


def long_line_file(path: Path, megabytes: int) -> Path:
    spec = importlib.util.spec_from_file_location("h", ROOT / "tests" / "test_store_hands.py")
    assert spec is not None and spec.loader is not None
    hands = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hands)
    long = hands.H2.replace("Table 'Alpha' 8-max", "Table 'Alpha' 8-max " + "x" * (
        megabytes << 20), 1)
    path.write_text(hands.H1 + long + hands.H3)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--line-mb", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scales = (1, 2, 4)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lines = {k: long_line_file(folder / f"line{k}.txt", args.line_mb * k) for k in scales}
        times: dict[tuple[str, int], list[float]] = {}
        for r in range(args.rounds):
            for k in scales:
                out = folder / f"sim{k}-{r}"
                times.setdefault(("simulate", k), []).append(timed(
                    "simulate", "--hands", str(args.hands * k), "--seed", "1", "--out", str(out)))
                times.setdefault(("parse long line", k), []).append(timed("parse", str(lines[k])))
                db = folder / f"r{k}-{r}.duckdb"
                times.setdefault(("import", k), []).append(timed("import", str(out), "--db",
                                                                 str(db)))
        print(f"medians of {args.rounds} rounds; 1x = {args.hands:,} hands, "
              f"a {args.line_mb} MB line")
        for what in ("simulate", "parse long line", "import"):
            base = statistics.median(times[(what, 1)])
            cells = []
            for k in scales:
                t = statistics.median(times[(what, k)])
                cells.append(f"{k}x {t:6.2f} s ({t / base:4.2f})")
            print(f"{what:16} " + "   ".join(cells))


if __name__ == "__main__":
    main()
