"""Import speed and memory: `python benchmarks/import.py [--hands 100000] [--seed 1]`.

Simulates the hands once (kept in a cache folder for the next run), then from one run prints:
the parse-only rate (the same pieces, the same workers, parsing and nothing else), the
end-to-end rate of `razz import` into a fresh database, their ratio, and the peak memory of
the whole process tree (the importer, its workers and the fork server), sampled every 0.1 s,
and by process: the peak of each (of the largest worker) and its share of the summed peak.

Then the cost of all-in EV (`--ev-rounds N`, 0 to skip): `razz import` into a fresh database
with and without it (`RAZZ_NO_ALLIN_EV`), in alternating order, N rounds of each, each import
its own process (so its workers start with the switch and an empty equity cache); it prints
the medians of the rates and the share of the import's time all-in EV costs, and the CPU per
hand of the importer process (its main thread and the writer's) apart from that of its
workers and fork server, which says on which side of the pipe EV's cost falls, and how the
workers spent their time: running, waiting for a core (the machine's other load) or idle (the
pipeline stalled). On a shared machine, compare the CPU and the idle shares, not the rates.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

from razz.store import importer as imp
from razz.store.progress import NoProgress
from razz.store.rows import ALLIN_EV_OFF
from razz.store.sources import Opener, discover, read_pieces
from razz.store.work import PartTask, Task, TaskResult, process_task


def simulate_into(folder: Path, hands: int, seed: int, jobs: int) -> None:
    """Write `hands` hands with `razz simulate`, in `jobs` processes (a folder and seed each)."""
    shares = [hands // jobs + (1 if i < hands % jobs else 0) for i in range(jobs)]
    running = [
        subprocess.Popen([sys.executable, "-m", "razz", "simulate", "--hands", str(n),
                          "--seed", str(seed * 1000 + i), "--out", str(folder / f"part{i}")])
        for i, n in enumerate(shares) if n
    ]
    if any(p.wait() for p in running):
        raise SystemExit("razz simulate failed")


class TreeMonitor:
    """Samples this process and its descendants: peak summed memory, and CPU time used.

    Memory is the peak of the summed proportional set size (PSS: a page shared by n processes
    counts 1/n in each, so the fork server's modules, shared with the workers, count once) and,
    for reference, of the summed resident size (RSS: shared pages counted in every process).

    The CPU it reports leaves out its own sampling thread's (`own_seconds`), which runs in this
    process: reading every process's smaps for its PSS makes the kernel walk all their pages,
    about 0.28 ms per imported hand at a sample every 0.1 s (20,000 hands, 2 workers), a third
    of what was counted as the importer process's CPU before.
    """

    def __init__(self, every: float = 0.25, pss_every: int = 8) -> None:
        self.every = every
        self.pss_every = pss_every  # reading smaps costs the kernel a walk of every page
        self._samples = 0
        self._watched = -1
        self.peak_pss = self.peak_rss = 0
        # peak PSS by role (`_role`): the importer (this process), its fork server, each
        # worker (the largest), the resource tracker; and the roles' sums at the summed peak
        self.peak_by_role: dict[str, int] = {}
        self.at_peak: dict[str, int] = {}
        self._cpu: dict[int, float] = {}  # pid -> latest utime + stime seen
        # a worker of the watched process (a child of its fork server) -> (first seen, last
        # seen, seconds its main thread ran, seconds it waited for a core: /proc/PID/schedstat)
        self._workers: dict[int, tuple[float, float, float, float]] = {}
        self.own_seconds = 0.0  # CPU of the sampling thread (and final sample): not counted
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def main_cpu_seconds(self) -> float:
        pid = os.getpid()
        return self._cpu.get(pid, 0.0) - self._base.get(pid, 0.0) - self.own_seconds

    @property
    def cpu_seconds(self) -> float:
        used = sum(cpu - self._base.get(pid, 0.0) for pid, cpu in self._cpu.items())
        return used - self.own_seconds

    def watch(self, pid: int) -> None:
        """Tell apart the CPU of this process (`watched_seconds`) from its descendants'."""
        self._watched = pid

    @property
    def watched_seconds(self) -> float:
        return self._cpu.get(self._watched, 0.0)

    @property
    def worker_time(self) -> tuple[float, float, float]:
        """The watched process's workers' seconds, summed: running, runnable but waiting for a
        core (other processes' load), and asleep (idle: nothing to do, or waiting for a pipe)."""
        run = sum(w[2] for w in self._workers.values())
        wait = sum(w[3] for w in self._workers.values())
        life = sum(w[1] - w[0] for w in self._workers.values())
        return run, wait, max(0.0, life - run - wait)

    def __enter__(self) -> TreeMonitor:
        # Processes alive before (this one, a fork server kept from a previous pool) count
        # only for the CPU they use from now on.
        self._base = {pid: _cpu_of(pid) for pid in tree(os.getpid())}
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        started = time.thread_time()
        self._sample()
        self.own_seconds += time.thread_time() - started

    def _run(self) -> None:
        started = time.thread_time()
        while not self._stop.is_set():
            self._sample()
            time.sleep(self.every)
        self.own_seconds += time.thread_time() - started

    def _sample(self) -> None:
        with_pss = self._samples % self.pss_every == 0
        self._samples += 1
        pss = rss = 0
        by_role: dict[str, int] = {}
        for pid in tree(os.getpid()):
            try:
                self._cpu[pid] = max(self._cpu.get(pid, 0.0), _cpu_of(pid))
                if self._watched > 0 and _parent(_parent(pid)) == self._watched:
                    now = time.perf_counter()
                    run, wait = Path(f"/proc/{pid}/schedstat").read_text().split()[:2]
                    first = self._workers.get(pid, (now,))[0]
                    self._workers[pid] = (first, now, int(run) / 1e9, int(wait) / 1e9)
                rss += _field_kib(f"/proc/{pid}/status", "VmRSS:") * 1024
                if with_pss:
                    own = _field_kib(f"/proc/{pid}/smaps_rollup", "Pss:") * 1024
                    pss += own
                    role = _role(pid)
                    by_role[role] = by_role.get(role, 0) + own
                    self.peak_by_role[role] = max(self.peak_by_role.get(role, 0), own)
            except (OSError, ValueError, IndexError):
                continue  # the process ended while we looked
        self.peak_rss = max(self.peak_rss, rss)
        if with_pss and pss > self.peak_pss:
            self.peak_pss, self.at_peak = pss, by_role

    def roles_text(self) -> str:
        """The peak PSS by role, and each role's share of the summed peak."""
        mib = 2**20
        return "; ".join(
            f"{role} {self.peak_by_role[role] / mib:,.0f} (at the peak {self.at_peak.get(role, 0) / mib:,.0f})"
            for role in sorted(self.peak_by_role)
        )


def tree(pid: int) -> list[int]:
    """A process and its descendants (Linux /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _field_kib(path: str, name: str) -> int:
    for line in Path(path).read_text().splitlines():
        if line.startswith(name):
            return int(line.split()[1])
    return 0


def _role(pid: int) -> str:
    """What a process of the tree is: importer (this process), fork server, worker (the
    largest of them, by PSS), resource tracker, other."""
    if pid == os.getpid():
        return "importer"
    # a worker is a fork of the server: the same command line, the server its parent
    if b"multiprocessing.forkserver" in Path(f"/proc/{_parent(pid)}/cmdline").read_bytes():
        return "worker"
    command = Path(f"/proc/{pid}/cmdline").read_bytes()
    if b"multiprocessing.forkserver" in command:
        return "fork server"
    if b"resource_tracker" in command:
        return "resource tracker"
    return "other"


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parse_only(folder: Path, workers: int, piece_bytes: int) -> tuple[int, float]:
    """Hands parsed per second over the same pieces and workers as the import, nothing else."""
    sources = discover([str(folder)]).sources
    opener = Opener()

    def tasks() -> Iterator[Task]:
        for source in sources:
            for piece in read_pieces(source, None, opener, piece_bytes=piece_bytes):
                yield Task((PartTask(0, source.path, piece.data, piece.line_offset, None),),
                           parse_only=True)

    started = time.perf_counter()
    pool = imp.worker_pool(workers)
    hands = 0
    window: list[Future[TaskResult]] = []
    for task in tasks():
        window.append(pool.submit(process_task, task))
        if len(window) >= 2 * workers + 2:
            hands += sum(c.hands for c in window.pop(0).result().parts)
    for future in window:
        hands += sum(c.hands for c in future.result().parts)
    seconds = time.perf_counter() - started
    pool.shutdown()
    return hands, seconds


def import_rate(
    folder: Path, workers: int, allin: bool
) -> tuple[int, float, float, float, tuple[float, float, float]]:
    """(hands, seconds, CPU seconds, of them the importer process's, the workers' time) of
    `razz import` of `folder` into a fresh database, in its own process: the seconds as the
    import reports them (the interpreter's start left out), the CPU of the whole process tree
    (importer, fork server, workers) and of the importer process alone (its main thread and
    the writer's), and `TreeMonitor.worker_time`."""
    env = dict(os.environ)
    env.pop(ALLIN_EV_OFF, None)
    if not allin:
        env[ALLIN_EV_OFF] = "1"
    with tempfile.TemporaryDirectory() as tmp, TreeMonitor(every=0.05, pss_every=10**9) as cpu:
        running = subprocess.Popen(
            [sys.executable, "-m", "razz", "import", str(folder), "--db", f"{tmp}/ev.duckdb",
             "--workers", str(workers)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cpu.watch(running.pid)
        out, err = running.communicate()
    found = re.search(r" in ([\d.]+) s: ([\d,]+) new hands", out)
    if found is None:
        raise SystemExit(f"razz import failed: {out[-500:]}{err[-500:]}")
    return (int(found[2].replace(",", "")), float(found[1]), cpu.cpu_seconds,
            cpu.watched_seconds, cpu.worker_time)


def allin_cost(folder: Path, workers: int, rounds: int) -> None:
    """Print the import rate and CPU with and without all-in EV, medians of interleaved rounds.

    On a loaded machine the wall-clock rate moves with the other tenants' load from one
    import to the next; the CPU the imports use moves much less, so the cost is given both ways.
    """
    seconds: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    importer: dict[bool, list[float]] = {True: [], False: []}
    # the workers' shares of their time running, waiting for a core and idle, per import
    shares: dict[bool, list[tuple[float, ...]]] = {True: [], False: []}
    hands = 0
    for r in range(rounds):
        for allin in ((True, False) if r % 2 == 0 else (False, True)):
            hands, took, used, own, spent = import_rate(folder, workers, allin)
            shares[allin].append(tuple(t / (sum(spent) or 1.0) for t in spent))
            seconds[allin].append(took)
            cpu[allin].append(used)
            importer[allin].append(own)
    with_ev, without = statistics.median(seconds[True]), statistics.median(seconds[False])
    cpu_with, cpu_without = statistics.median(cpu[True]), statistics.median(cpu[False])
    own_with, own_without = statistics.median(importer[True]), statistics.median(importer[False])
    rest_with = statistics.median(c - o for c, o in zip(cpu[True], importer[True], strict=True))
    rest_without = statistics.median(
        c - o for c, o in zip(cpu[False], importer[False], strict=True))
    print(f"all-in EV: import with it {hands / with_ev:,.0f} hands/s, without it "
          f"{hands / without:,.0f} hands/s (medians of {rounds} interleaved rounds, "
          f"{hands:,} hands each): {with_ev / without - 1:+.1%} of the import's time; CPU "
          f"{1000 * cpu_with / hands:.2f} against {1000 * cpu_without / hands:.2f} ms/hand: "
          f"{cpu_with / cpu_without - 1:+.1%} (target: at most +10%); of it the importer "
          f"process (main thread and writer) {1000 * own_with / hands:.2f} against "
          f"{1000 * own_without / hands:.2f}, the workers and fork server "
          f"{1000 * rest_with / hands:.2f} against {1000 * rest_without / hands:.2f}; "
          f"load average {os.getloadavg()[0]:.1f}")
    # Idle workers with EV and not without would mean the pipeline stalls on EV (the importer
    # taking results in order, say); waiting for a core is the other tenants' load, which
    # stretches the wall-clock time whatever the import does.
    for allin in (True, False):
        run, wait, idle = (statistics.median(s[i] for s in shares[allin]) for i in range(3))
        print(f"  workers' time {'with' if allin else 'without'} EV: running {run:.0%}, "
              f"waiting for a core {wait:.0%}, idle {idle:.0%} (medians)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=imp.cores())
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "razz-bench")
    parser.add_argument("--folder", type=Path, default=None,
                        help="measure these histories instead of simulated ones")
    parser.add_argument("--batch-seconds", type=float, default=imp.Settings().batch_seconds,
                        help="the writer's commit at the latest this long after a batch's "
                        "first task (default: the import's)")
    parser.add_argument("--ev-rounds", type=int, default=3,
                        help="rounds of imports with and without all-in EV (0: skip)")
    parser.add_argument("--ev-only", action="store_true",
                        help="measure only the cost of all-in EV")
    args = parser.parse_args()

    folder = args.folder or args.cache / f"{args.hands}-{args.seed}"
    if args.folder is None and not (folder / ".complete").exists():
        print(f"simulating {args.hands:,} hands into {folder} (once) …", file=sys.stderr)
        simulate_into(folder, args.hands, args.seed, jobs=imp.cores())
        (folder / ".complete").touch()
    files = list(folder.rglob("*.txt"))
    size = sum(f.stat().st_size for f in files)
    settings = imp.Settings(workers=args.workers, batch_seconds=args.batch_seconds)
    print(f"input: {len(files):,} files, {size / 1e6:,.0f} MB; {args.workers} workers; "
          f"commits at {settings.batch_hands:,} hands or {settings.batch_seconds:g} s")
    if args.ev_only:
        allin_cost(folder, args.workers, args.ev_rounds)
        return 0

    with TreeMonitor(every=0.05, pss_every=2) as parsing:
        parsed, parse_seconds = parse_only(folder, args.workers, settings.piece_bytes)
    parse_rate = parsed / parse_seconds

    with tempfile.TemporaryDirectory() as tmp, TreeMonitor(every=0.05, pss_every=2) as importing:
        db = Path(tmp) / "bench.duckdb"
        started = time.perf_counter()
        summary = imp.import_paths([str(folder)], db, settings=settings, progress=NoProgress())
        seconds = time.perf_counter() - started
        db_size = db.stat().st_size
    rate = summary.hands / seconds
    mib = 2**20
    print(f"parse only: {parsed:,} hands in {parse_seconds:.1f} s = {parse_rate:,.0f} hands/s; "
          f"CPU {1000 * parsing.cpu_seconds / parsed:.2f} ms/hand; "
          f"peak memory {parsing.peak_pss / mib:,.0f} MiB PSS")
    print(f"  by process, MiB PSS: {parsing.roles_text()}")
    print(f"end to end: {summary.hands:,} new hands ({summary.duplicates} duplicates, "
          f"{summary.rejected} rejected, {summary.findings:,} findings) in {seconds:.1f} s "
          f"= {rate:,.0f} hands/s; CPU {1000 * importing.cpu_seconds / parsed:.2f} ms/hand "
          f"({1000 * importing.main_cpu_seconds / parsed:.2f} in the importer process); "
          f"database {db_size / mib:,.0f} MiB; the memory sampling's own CPU, left out: "
          f"{1000 * importing.own_seconds / parsed:.2f} ms/hand")
    print(f"ratio: {rate / parse_rate:.0%} of the parse-only rate "
          f"(CPU: {parsing.cpu_seconds / importing.cpu_seconds:.0%})")
    print(f"peak memory: {importing.peak_pss / mib:,.0f} MiB PSS "
          f"({importing.peak_rss / mib:,.0f} MiB RSS summed over the importer, "
          "its workers and the fork server)")
    print(f"  by process, MiB PSS: {importing.roles_text()}")
    if args.ev_rounds:
        allin_cost(folder, args.workers, args.ev_rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
