"""All-in EV's CPU per hand, against a baseline revision in the same run (by hand).

    .venv/bin/python benchmarks/allin_ev.py [--hands 20000] [--seed 1] [--rounds 3]
        [--baseline main]

Simulates the hands once (as `benchmarks/import.py` does, in the same cache folder), parses
and audits them once (the replays kept in a pickle beside them), then times `allin_ev` over
every replay, each round in a fresh process with an empty equity cache, as an import's worker
starts: the code of this checkout and, interleaved, the `analysis` package of `--baseline`
(extracted with `git archive`; the rest of the package is this checkout's). It prints the
medians of the CPU time per hand and per adjusted hand (a hand with at least one `allin_ev`
row), by street of the first adjusted pot, and checks that both give the same rows: exact
equities equal to 1e-12, Monte Carlo ones within 5 of their standard errors.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def replays(hands: int, seed: int, cache: Path) -> Path:
    """A pickle of the replays (`HandResult`) of `hands` simulated hands, made once."""
    folder = cache / f"{hands}-{seed}"
    pickled = cache / f"{hands}-{seed}.replays.pickle"
    if pickled.exists():
        return pickled
    if not (folder / ".complete").exists():
        spec = importlib.util.spec_from_file_location("import_benchmark", HERE / "import.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.simulate_into(folder, hands, seed, jobs=2)
        (folder / ".complete").touch()
    from razz.replay.results import HandResult
    from razz.store.ingest import Part, check_part, init_worker

    init_worker()
    results: list[HandResult] = []
    for path in sorted(folder.rglob("*.txt")):
        checked = check_part(Part(0, str(path), path.read_bytes(), 0))
        results += [r for r in checked.audits.values() if isinstance(r, HandResult)]
    # Only hands where someone went all-in can have all-in EV: the others (about 90%) cost a
    # glance of about a microsecond each, left out here so that loading stays quick.
    with open(pickled, "wb") as out:
        pickle.dump((len(results), [r for r in results if any(p.all_in for p in r.players)]),
                    out)
    return pickled


CHILD = r"""
import json, pickle, sys, time
analysis = sys.argv[2]
if analysis:
    import razz.analysis
    razz.analysis.__path__[:] = [analysis]
from razz.analysis import allin_ev, lowtable
with open(sys.argv[1], "rb") as f:
    hands, results = pickle.load(f)
lowtable.low7_table()  # built once per worker, before its first hand
started = time.process_time()
rows = [allin_ev.allin_ev(r) for r in results]
cpu = time.process_time() - started
print(json.dumps({"cpu": cpu, "hands": hands, "rows": [[[e.player, e.street, e.equity, e.exact, e.std_error]
                                         for e in found] for found in rows]}))
"""


def run(pickled: Path, analysis: str) -> dict[str, object]:
    """One timed pass over every replay in a fresh process."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(pickled), analysis],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def compare(ours: list[list[list[object]]], theirs: list[list[list[object]]]) -> str:
    """How the rows of both versions differ: exact to 1e-12, Monte Carlo within 5 errors."""
    off: list[str] = []
    exact_changed = estimates = estimates_changed = 0
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if [(r[0], r[1], r[3]) for r in a] != [(r[0], r[1], r[3]) for r in b]:
            off.append(f"hand {n}: {a} against {b}")
            continue
        for x, y in zip(a, b, strict=True):
            ex, se = bool(x[3]), max(float(x[4]), float(y[4]))  # type: ignore[arg-type]
            gap = abs(float(x[2]) - float(y[2]))  # type: ignore[arg-type]
            exact_changed += ex and gap > 0
            estimates += not ex
            estimates_changed += not ex and gap > 0
            # An estimate of 0 or 1 has a standard error of 0: allow a few in 2,000 deals.
            if gap > (1e-12 if ex else 5 * se + 0.003):
                off.append(f"hand {n}: {x} against {y}")
    return (f"{len(off)} hands differ beyond tolerance{': ' if off else ''}{'; '.join(off[:3])}; "
            f"{exact_changed} exact equities not bit-identical; {estimates_changed} of "
            f"{estimates} Monte Carlo ones")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main", help="a git revision ('' to skip)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "razz-bench")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    pickled = replays(args.hands, args.seed, args.cache)

    with tempfile.TemporaryDirectory() as tmp:
        versions = {"this checkout": ""}
        if args.baseline:
            archive = subprocess.run(["git", "archive", args.baseline, "analysis"], cwd=HERE.parent,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            versions[f"baseline {args.baseline}"] = f"{tmp}/analysis"
        cpu: dict[str, list[float]] = defaultdict(list)
        rows: dict[str, list[list[list[object]]]] = {}
        names = list(versions)
        hands = 0
        for r in range(args.rounds):
            for name in names if r % 2 == 0 else names[::-1]:
                started = time.perf_counter()
                found = run(pickled, versions[name])
                cpu[name].append(float(found["cpu"]))  # type: ignore[arg-type]
                rows[name] = found["rows"]  # type: ignore[assignment]
                hands = int(found["hands"])  # type: ignore[call-overload]
                print(f"  round {r + 1}, {name}: {cpu[name][-1]:.2f} s CPU "
                      f"({time.perf_counter() - started:.0f} s wall with loading)",
                      file=sys.stderr)

    ours = rows[names[0]]
    adjusted = sum(1 for found in ours if found)
    streets = Counter(found[0][1] for found in ours if found)
    print(f"{hands:,} hands, {adjusted:,} with an adjusted all-in ({adjusted / hands:.1%}); "
          f"first adjusted pot by street: {dict(sorted(streets.items()))}")
    medians = {name: statistics.median(cpu[name]) for name in names}
    for name in names:
        m = medians[name]
        print(f"{name}: {1e3 * m / hands:.3f} ms CPU per hand, {1e3 * m / max(adjusted, 1):.2f} "
              f"ms per adjusted hand (median of {args.rounds} rounds)")
    if len(names) == 2:
        print(f"ratio this checkout / baseline: {medians[names[0]] / medians[names[1]]:.2f}; "
              + compare(ours, rows[names[1]]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
