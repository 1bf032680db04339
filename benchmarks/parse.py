"""How fast is the parser? Hands per second, against a plain regex line classifier, in one run.

Run by hand (not part of the test suite):

    python benchmarks/parse.py                 # 20,000 simulated hands (made once, then cached)
    python benchmarks/parse.py --hands 40000
    python benchmarks/parse.py --input DIR     # your own hand histories
    python benchmarks/parse.py --rooms-only    # each room's real files: rate beside Stars'
    python benchmarks/parse.py --rooms-only --room-simulated 1000   # and simulated ones
    python benchmarks/parse.py --compare ../old-checkout   # another revision's reader too
    python benchmarks/parse.py --compare-rev main  # main's and this checkout's, fresh processes
    python benchmarks/parse.py --startup [FILE]    # razz audit of one file; a worker pool's start

It prints, over the same bytes: a regular-expression line classifier (one process, one regex
per line type, the way most trackers read hand histories), the Lark parser on one core, and
the parser on every core (the `razz parse` pipeline: worker processes read pieces of the
files), with their ratios; then peak memory for the input once and three times over, to show
that memory does not grow with the input; last, each room's reader (PokerStars, Full Tilt,
Winamax, KingsClub, Merge XML, PHH) on its real files (../shared/corpus, repeated: they are
few), and on simulated ones with `--room-simulated`, beside PokerStars' in the same run. Times are
medians of `--repeat` interleaved rounds (regex, one process, every core, then again), so
that the ratios hold under load.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".data"

# ----------------------------------------------------------------- the baseline
# One regex per PokerStars line type, tried in order, with the fields a tracker extracts.
_A = r"[$€£]?([\d,]+(?:\.\d+)?)"
LINE_TYPES = [
    (
        "header",
        re.compile(
            r"^PokerStars (?:Home Game )?(?:Hand|Game) #(\d+): +(.*) - (\d{4}/\d\d?/\d\d? .*)$"
        ),
    ),
    ("table", re.compile(r"^Table '(.*)' (\d+)-max")),
    (
        "seat",
        re.compile(
            r"^Seat (\d+): (.+?) \(" + _A + r" in chips(?:, .* bounty)?\)( is sitting out)?"
        ),
    ),
    ("ante", re.compile(r"^(.+?): posts the ante " + _A + r"( and is all-in)?")),
    (
        "street",
        re.compile(
            r"^\*\*\* (3rd STREET|4th STREET|5th STREET|6th STREET|RIVER|SHOW DOWN|SUMMARY) \*\*\*(?: \[(\w\w)\])?"
        ),
    ),
    ("dealt", re.compile(r"^Dealt to (.+?) ((?:\[[^\]]*\] ?)+)$")),
    ("bring_in", re.compile(r"^(.+?): brings in for " + _A + r"( and is all-in)?")),
    ("bet", re.compile(r"^(.+?): bets " + _A + r"( and is all-in)?")),
    ("call", re.compile(r"^(.+?): calls " + _A + r"( and is all-in)?")),
    ("raise", re.compile(r"^(.+?): raises " + _A + r" to " + _A + r"( and is all-in)?")),
    ("check", re.compile(r"^(.+?): checks")),
    ("fold", re.compile(r"^(.+?): folds")),
    ("uncalled", re.compile(r"^Uncalled bet \(" + _A + r"\) returned to (.+)$")),
    (
        "collected",
        re.compile(r"^(.+?) collected " + _A + r" from (pot|main pot|side pot(?:-\d+)?)"),
    ),
    ("shows", re.compile(r"^(.+?): shows \[([^\]]*)\](?: \((.*)\))?")),
    ("mucks", re.compile(r"^(.+?): mucks hand")),
    ("noshow", re.compile(r"^(.+?): doesn't show hand")),
    ("total", re.compile(r"^Total pot " + _A + r"(.*)\| Rake " + _A)),
    ("board", re.compile(r"^Board \[(.*)\]")),
    ("result", re.compile(r"^Seat (\d+): (.+?) (folded|showed|collected|mucked)(.*)$")),
    ("capped", re.compile(r"^Betting is capped")),
    (
        "noise",
        re.compile(
            r"^(.+?)(?: said, \".*\"| joins the table| leaves the table| is (?:dis)?connected| is sitting out|: sits out| has timed out| has returned)"
        ),
    ),
]


_NUMBER = re.compile(r"[\d,]+(?:\.\d+)?")


def classify(text: str) -> int:
    """Classify every line of a text; return the number of hands (header lines)."""
    hands = 0
    for line in text.splitlines():
        line = line.rstrip()
        if not line:
            continue
        for kind, regex in LINE_TYPES:
            m = regex.match(line)
            if m:
                if kind == "header":
                    hands += 1
                # what a tracker keeps: the groups, amounts as integers
                for g in m.groups():
                    if g and _NUMBER.fullmatch(g):
                        int(g.replace(",", "").replace(".", ""))
                break
    return hands


# ------------------------------------------------------------------ our parser
def parse_serial(paths: list[Path]) -> int:
    from razz.parser import Hand, read_path

    return sum(isinstance(r, Hand) for p in paths for r in read_path(p))


def parse_parallel(paths: list[Path], jobs: int) -> int:
    """The `razz parse` pipeline: pieces of files, read by `jobs` worker processes."""
    from razz.commands.parse import parse_part
    from razz.store.ingest import ordered_map, parts_of, worker_pool
    from razz.store.sources import discover

    discovery = discover([str(p) for p in paths])
    items = ((part, False) for part in parts_of(discovery, []))
    with worker_pool(jobs) as pool:
        return sum(r.parsed for r in ordered_map(pool, parse_part, items, window=2 * jobs))


# ------------------------------------------------------------------ each room's rate
ROOMS = ("pokerstars", "fulltilt", "winamax", "kingsclub", "merge", "phh")
CORPUS = HERE.parent.parent / "shared" / "corpus"


def room_files(folder: Path, hands: int) -> tuple[list[tuple[str, bytes]], int]:
    """The files of a folder that hold Razz hands, as bytes, repeated until they hold at
    least `hands` of them (real files are few), and how many Razz hands one pass reads."""
    from razz.parser import Hand, read_stream

    files, razz = [], 0
    if folder.is_dir():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            data = path.read_bytes()
            found = sum(isinstance(r, Hand) for r in read_stream(io.BytesIO(data), path.name))
            if found:  # no Razz in it: other games are skipped, not timed
                files.append((path.name, data))
                razz += found
    if not razz:
        return [], 0
    return files * -(-hands // razz), razz


def read_files(files: list[tuple[str, bytes]]) -> int:
    """Razz hands read from these files, each read as `razz parse` reads a file."""
    from razz.parser import Hand, read_stream

    return sum(isinstance(r, Hand) for name, data in files for r in read_stream(io.BytesIO(data), name))


def simulated_room(room: str, hands: int) -> Path:
    """A folder of `hands` simulated hands written as `room` writes them (made once, cached)."""
    folder = CACHE / f"sim-{room}-{hands}"
    if not (folder / "done").exists():
        print(f"simulating {hands} {room} hands into {folder} (once)…", flush=True)
        subprocess.run(
            [sys.executable, "-m", "razz", "simulate", "--hands", str(hands), "--seed", "7",
             "--site", room, "--out", str(folder)],
            check=True,
        )  # fmt: skip
        (folder / "done").write_text("ok")
    return folder


def room_rates(corpus: Path, hands: int, repeat: int, simulated: int = 0) -> None:
    """Hands per second of each room's reader, beside PokerStars', in one process (medians of
    interleaved rounds): on each room's real files (repeated: they are few), and on
    `simulated` hands of each room when asked. A room below half of PokerStars' rate is
    flagged."""
    sets: dict[str, list[tuple[str, bytes]]] = {}
    for room in ROOMS:
        files, _ = room_files(corpus / room, hands)
        if files:
            sets[f"{room} (real files)"] = files
    if simulated:
        for room in ROOMS:
            files, _ = room_files(simulated_room(room, simulated), simulated)
            if files:
                sets[f"{room} (simulated)"] = files
    for base_key in ("pokerstars (real files)", "pokerstars (simulated)"):
        if base_key in sets:
            break
    else:
        print(f"\n(no PokerStars files in {corpus}: room rates not measured)")
        return
    runs: dict[str, list[float]] = {key: [] for key in sets}
    counts: dict[str, int] = {}
    for _ in range(repeat):
        for key, files in sets.items():
            seconds, counts[key] = timed(lambda files=files: read_files(files), 1)
            runs[key].append(seconds)
    print(
        f"\n{'each room, 1 process':42} {'hands':>7} {'hands/s':>8} {'vs Stars':>8}"
    )
    for key in sets:
        same = key.split(" ", 1)[1]  # beside PokerStars' files of the same kind
        base_of = f"pokerstars {same}" if f"pokerstars {same}" in sets else base_key
        base = counts[base_of] / statistics.median(runs[base_of])
        rate = counts[key] / statistics.median(runs[key])
        flag = "  < half of PokerStars'" if rate < base / 2 else ""
        print(f"{key:42} {counts[key]:7d} {rate:8.0f} {rate / base:8.2f}{flag}")


def parse_other(checkout: Path, paths: list[Path]) -> tuple[float, int]:
    """(seconds, hands) of another revision's reader (a checkout of this repository) on the
    same files, in a child process that imports it as `razz` and times only the reading."""
    import tempfile

    with tempfile.TemporaryDirectory() as top:
        (Path(top) / "razz").symlink_to(checkout.resolve(), target_is_directory=True)
        code = (
            "import sys, time; from pathlib import Path; from razz.parser import Hand, read_path;"
            f"paths = [Path(p) for p in {[str(p) for p in paths]!r}];"
            "sum(1 for _ in read_path(paths[0]));"  # built or loaded parsers, before timing
            "t = time.perf_counter(); n = sum(isinstance(r, Hand) for p in paths for r in read_path(p));"
            "print(time.perf_counter() - t, n)"
        )
        env = dict(os.environ, PYTHONPATH=top)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    seconds, hands = out.stdout.split()
    return float(seconds), int(hands)


def install_revision(rev: str, top: Path) -> Path:
    """This repository's revision `rev`, installed on its own (`pip install --target`) under
    `top`, from `git archive`: no worktree is touched. Returns the folder for PYTHONPATH."""
    src, target = top / "src", top / "site"
    src.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(HERE.parent), "archive", rev], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps",
         "--target", str(target), str(src)],
        check=True,
    )  # fmt: skip
    return target


# One revision's reader in a fresh process, as a user's `razz parse` meets it: one process
# (timed after a first file has built or loaded the parsers), then the worker pipeline, its
# first pool (the forkserver's start and the workers' included).
_FRESH = """
import sys, time
from pathlib import Path

def main():
    paths = [Path(p) for p in sys.argv[2:]]
    jobs = int(sys.argv[1])
    from razz.parser import Hand, read_path
    sum(1 for _ in read_path(paths[0]))
    t = time.perf_counter()
    n = sum(isinstance(r, Hand) for p in paths for r in read_path(p))
    one = time.perf_counter() - t
    from razz.commands.parse import parse_part
    from razz.store.ingest import ordered_map, parts_of, worker_pool
    from razz.store.sources import discover
    import os
    from multiprocessing import forkserver

    def cpu(pid):  # seconds of CPU of a process so far (user + system), from /proc
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    t, c = time.perf_counter(), time.process_time()
    items = ((part, False) for part in parts_of(discover([str(p) for p in paths]), []))
    with worker_pool(jobs) as pool:
        m = sum(r.parsed for r in ordered_map(pool, parse_part, items, window=2 * jobs))
        # every process of the pipeline: this one, the forkserver, the workers
        pids = [forkserver._forkserver._forkserver_pid, *pool._processes]
        used = time.process_time() - c + sum(cpu(pid) for pid in pids)
    print(one, n, time.perf_counter() - t, m, used)

if __name__ == "__main__":
    main()
"""


def fresh_run(
    site: Path | None, paths: list[Path], jobs: int
) -> tuple[float, int, float, int, float]:
    """(seconds, hands) on one process, then with `jobs` workers, and the CPU seconds of the
    whole pipeline (its forkserver and workers included), of the reader installed in `site`
    (None: this checkout's), in a fresh process."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, str(jobs), *map(str, paths)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return float(out[0]), int(out[1]), float(out[2]), int(out[3]), float(out[4])


# ------------------------------------------------------------------- start-up
def _probe(delay: float) -> float:
    """A worker's CPU seconds before this task (a forked process's count starts at its fork)."""
    cpu = time.process_time()
    time.sleep(delay)  # the other worker takes the other task
    return cpu


_POOL = """
import sys, time
sys.path.insert(0, sys.argv[1])

def main():
    from parse import _probe
    from razz.store.ingest import worker_pool
    t = time.perf_counter()
    with worker_pool(int(sys.argv[2])) as pool:
        cpus = [f.result() for f in [pool.submit(_probe, 0.3) for _ in range(int(sys.argv[2]))]]
    print(time.perf_counter() - t - 0.3, max(cpus))

if __name__ == "__main__":
    main()
"""


def startup(sample: Path, jobs: int, repeat: int) -> None:
    """What a user waits before any work: `razz audit` of one small file (wall, CPU of the
    process), and a worker pool's start (its first pool: the forkserver's start included;
    each worker's CPU before its first task). Fresh processes, medians of `repeat`."""
    import resource

    audit: list[tuple[float, float]] = []
    pool: list[tuple[float, float]] = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "razz", "audit", str(sample)], capture_output=True, check=False
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        audit.append((wall, cpu))
        out = subprocess.run(
            [sys.executable, "-c", _POOL, str(HERE), str(jobs)],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        pool.append((float(out[0]), float(out[1])))
    med = statistics.median
    print(
        f"\nstart-up: razz audit {sample.name}: {med(a[0] for a in audit):.2f} s wall,"
        f" {med(a[1] for a in audit):.2f} s CPU; a pool of {jobs} workers ready in"
        f" {med(p[0] for p in pool):.2f} s (first pool of a process), each worker's CPU before"
        f" its first task {med(p[1] for p in pool):.3f} s (load {os.getloadavg()[0]:.1f})"
    )


# ------------------------------------------------------------------- plumbing
def make_input(hands: int, seed: int) -> Path:
    folder = CACHE / f"sim-{hands}-{seed}"
    if not (folder / "done").exists():
        print(f"simulating {hands} hands into {folder} (once; cached for later runs)…", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "razz",
                "simulate",
                "--hands",
                str(hands),
                "--seed",
                str(seed),
                "--out",
                str(folder),
            ],
            check=True,
        )
        (folder / "done").write_text("ok")
    return folder


def timed(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Median seconds of `repeat` runs of fn, and what it returned."""
    times, result = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _tree_rss(root: int) -> tuple[int, int]:
    """(summed, largest) resident kB of process `root` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)  # field 4: the parent pid
        rss[pid] = int(fields[21]) * PAGE_KB  # field 24: resident pages
    total = largest = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        largest = max(largest, rss.get(pid, 0))
        todo += children.get(pid, [])
    return total, largest


PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def peak_rss_mb(code: str) -> tuple[float, float]:
    """Peak resident memory (MB) of a fresh process running `code` with its workers: the
    peak of their sum and of the largest one, sampled from /proc every 20 ms.

    (`getrusage` would not do: Linux keeps a process's peak across `exec`, so a child started
    by this benchmark, which holds the whole input in memory, would report this process's
    size as its own.)"""
    child = subprocess.Popen([sys.executable, "-c", code])
    peak_total = peak_largest = 0
    while child.poll() is None:
        total, largest = _tree_rss(child.pid)
        peak_total, peak_largest = max(peak_total, total), max(peak_largest, largest)
        time.sleep(0.02)
    if child.returncode:
        raise SystemExit(f"the memory run failed ({child.returncode})")
    return peak_total / 1024, peak_largest / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument(
        "--input", type=Path, help="a folder of hand histories instead of simulated ones"
    )
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument(
        "--rooms-only", action="store_true", help="only each room's rate beside PokerStars'"
    )
    ap.add_argument("--room-hands", type=int, default=2000, help="Razz hands per room")
    ap.add_argument(
        "--room-simulated",
        type=int,
        default=0,
        metavar="N",
        help="also N simulated hands of each room (`razz simulate --site`), made once",
    )
    ap.add_argument(
        "--compare",
        type=Path,
        help="a checkout of another revision: its reader, 1 process, timed in the same rounds",
    )
    ap.add_argument(
        "--compare-rev",
        metavar="REV",
        help="a revision of this repository (e.g. main): its reader and this checkout's, each"
        " in a fresh process per round, 1 process and the worker pipeline (start-up included)",
    )
    ap.add_argument(
        "--rates-only", action="store_true", help="no memory peaks, no room rates: the rates"
    )
    ap.add_argument(
        "--startup",
        type=Path,
        nargs="?",
        const=HERE.parent / "sample_histories" / "006-razz-tournament-3857853578-1.txt",
        metavar="FILE",
        help="only start-up: razz audit of one small file, and a worker pool's start",
    )
    args = ap.parse_args()
    if args.startup:
        startup(args.startup, args.jobs, max(args.repeat, 5))
        return
    if args.rooms_only:
        room_rates(CORPUS, args.room_hands, args.repeat, args.room_simulated)
        return

    folder = args.input or make_input(args.hands, args.seed)
    paths = sorted(p for p in folder.rglob("*.txt"))
    data = [p.read_bytes() for p in paths]
    size = sum(len(d) for d in data)
    texts = [
        io.TextIOWrapper(io.BytesIO(d), encoding="utf-8-sig", newline=None).read() for d in data
    ]
    print(
        f"input: {len(paths)} files, {size / 1e6:.1f} MB, cores: {os.cpu_count()}, jobs: {args.jobs}"
    )

    # Interleaved rounds, medians: the three share whatever else the machine is doing.
    runs: dict[str, list[float]] = {"regex": [], "one": [], "all": [], "other": []}
    counts: dict[str, int] = {}
    fresh: dict[str, list[tuple[float, int, float, int, float]]] = {}
    other_site: Path | None = None
    if args.compare_rev:
        import tempfile

        top = Path(tempfile.mkdtemp(prefix="razz-rev-"))
        other_site = install_revision(args.compare_rev, top)
    for _ in range(args.repeat):
        for key, fn in (
            ("regex", lambda: sum(classify(t) for t in texts)),
            ("one", lambda: parse_serial(paths)),
            ("all", lambda: parse_parallel(paths, args.jobs)),
        ):
            seconds, counts[key] = timed(fn, 1)
            runs[key].append(seconds)
        if args.compare:
            seconds, counts["other"] = parse_other(args.compare, paths)
            runs["other"].append(seconds)
        if other_site is not None:
            for key, site in ((args.compare_rev, other_site), ("this checkout", None)):
                fresh.setdefault(key, []).append(fresh_run(site, paths, args.jobs))
    if other_site is not None:
        import shutil

        shutil.rmtree(other_site.parent)
    t_regex, n_regex = statistics.median(runs["regex"]), counts["regex"]
    t_one, n_one = statistics.median(runs["one"]), counts["one"]
    t_all, n_all = statistics.median(runs["all"]), counts["all"]
    assert n_one == n_all, (n_one, n_all)
    rows = [
        ("regex line classifier, 1 process", n_regex, t_regex),
        ("Lark parser, 1 process", n_one, t_one),
        (f"Lark parser, {args.jobs} worker processes", n_all, t_all),
    ]
    if args.compare:
        label = f"{args.compare.name}'s parser, 1 process"
        rows.append((label[:42], counts["other"], statistics.median(runs["other"])))
    print(f"\n{'':42} {'hands':>7} {'seconds':>8} {'hands/s':>8} {'vs regex':>8}")
    for label, n, t in rows:
        print(f"{label:42} {n:7d} {t:8.2f} {n / t:8.0f} {(n / t) / (n_regex / t_regex):8.2f}")
    print(f"\nparallel speed-up over 1 process: {t_one / t_all:.2f}x")
    if fresh:
        print(f"\n{'fresh process per round':42} {'hands':>7} {'seconds':>8} {'hands/s':>8} {'vs regex':>8}")
        for key, rounds in fresh.items():
            for label, col in (("1 process", 0), (f"{args.jobs} workers, start-up incl.", 2)):
                t = statistics.median(r[col] for r in rounds)
                n = rounds[0][col + 1]
                rate = n / t
                print(f"{(key + ', ' + label)[:42]:42} {n:7d} {t:8.2f} {rate:8.0f} "
                      f"{rate / (n_regex / t_regex):8.2f}")
            used = statistics.median(r[4] for r in rounds)
            print(f"{key + ', CPU of the pipeline':42} {'':7} {used:8.2f} s (all its processes)")

    if args.rates_only:
        return
    peaks = []
    for k in (1, 3):
        big = CACHE / f"all-x{k}.txt"  # every file, k times over, in one file
        big.parent.mkdir(exist_ok=True)
        with big.open("wb") as out:  # written piece by piece: this process stays the same size
            for i, d in enumerate(data * k):
                out.write(b"\n\n\n" if i else b"")
                out.write(d.removeprefix(b"\xef\xbb\xbf"))
        code = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); from parse import parse_parallel;"
            f"from pathlib import Path; parse_parallel([Path({str(big)!r})], {args.jobs})"
        )
        peaks.append((big.stat().st_size / 1e6, *peak_rss_mb(code)))
        big.unlink()
    (mb1, sum1, max1), (mb3, sum3, max3) = peaks
    print(
        f"peak memory, {args.jobs} workers and their parent: {mb1:.0f} MB file -> {sum1:.0f} MB"
        f" (largest process {max1:.0f} MB), {mb3:.0f} MB file -> {sum3:.0f} MB"
        f" (largest {max3:.0f} MB): ratio {sum3 / sum1:.2f} for 3x the input"
    )
    room_rates(CORPUS, args.room_hands, args.repeat, args.room_simulated)


if __name__ == "__main__":
    main()
