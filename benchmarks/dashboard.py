"""Time every dashboard page, as Streamlit runs it, on a store of 1,000,000 hands.

    python benchmarks/dashboard.py [--hands 1000000] [--db FILE] [--keep] [--rounds 5]

The store. Simulating and importing a million hands takes hours on two cores, so the store is
built in two steps: `razz import sample_histories` (the real importer, about 3,200 hands of
six rooms), then copies of those hands are added in SQL until there are `--hands` of them. Each copy gets
new keys and hand numbers, is moved 6 hours later per copy (so the days spread over years
and sessions do not pile up), comes from a copy of its file (`…/file.txt#N`), and has its
hero renamed to one player, `Hero★`: the store of a player who logged a million hands, which
is the worst case for the player pages (every page runs on all of them). Table names, other
players, actions, cards, pots and findings are copied as they are. `--db` names a store to
build once and keep (`--keep`) or to reuse.

The timings. Each page runs in Streamlit's AppTest, the whole page script as the server runs
it (queries, shaping, every element), in three states:

* first load: the page as the first one a new process shows, as after `razz dashboard`
  starts (the connection, DuckDB's caches, the query cache and the parser are all cold);
* warm: the page again, as when it is opened a second time (the query cache is kept);
* new filters: the page with the query cache emptied, as when a filter changes and every
  query of the page runs again (not a target of the issue; printed to show what it costs).

Each is the median of `--rounds` rounds, pages interleaved; a first load is a new process
each time. The baseline is a full scan of
the store's largest table read by the pages (`SELECT count(*), sum(net) FROM players`),
timed in the same rounds: the ratios page/baseline change little with the machine's load.
Targets: every page under 1 s warm, under 3 s at first load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
WARM_TARGET, FIRST_TARGET = 1.0, 3.0
HERO = "Hero★"

# Each page as a user opens it: (name, page file, address query).
Page = tuple[str, str, dict[str, str]]
PAGES: list[Page] = [
    ("Sessions", "sessions", {}),
    ("Player statistics", "players", {}),
    ("Starting hands", "starting_hands", {}),
    ("Hand replayer", "replayer", {}),  # the hand and line are chosen in the store
    ("Audit", "audit", {}),
    ("Audit, one rule", "audit", {"rule": "LOG-DESC"}),
    ("Import", "importer", {}),
]


TITLES = {"sessions": "Sessions", "players": "Player statistics",
          "starting_hands": "Starting hands", "replayer": "Hand replayer", "audit": "Audit",
          "importer": "Import hand histories"}


# ---------------------------------------------------------------------------- the store


def build(db: Path, hands: int) -> None:
    """Import the sample histories, then add copies of their hands in SQL up to `hands`."""
    import duckdb

    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "razz", "import", "--db", str(db),
                           "--progress", "none", str(ROOT / "sample_histories")], check=False)
    if done.returncode not in (0, 1):  # 1: some hands broke a rule, which is data
        raise SystemExit(f"razz import failed with exit code {done.returncode}")
    con = duckdb.connect(str(db))
    (base,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
    copies = -(-hands // base) - 1
    (stride,) = con.execute("SELECT max(file_id) + 1 FROM files").fetchone() or (1,)
    print(f"imported {base:,} hands in {time.perf_counter() - started:.0f} s; adding "
          f"{hands - base:,} in {copies} copies", flush=True)
    started = time.perf_counter()
    con.execute(
        """
        CREATE TEMP TABLE copy_of AS
        SELECT hand_key, hero, c.i,
               hand_key || '~' || c.i AS new_key
        FROM (SELECT hand_key, hero, row_number() OVER (ORDER BY hand_key) AS n FROM hands) h,
             range(1, ? + 1) AS c(i)
        WHERE (c.i - 1) * ? + h.n <= ? - ?
        """,
        [copies, base, hands, base],
    )
    rename = f"CASE WHEN {{col}} = m.hero THEN '{HERO}' ELSE {{col}} END"
    statements = {
        "files": f"""
            INSERT INTO files SELECT f.* REPLACE (f.file_id + c.i * {stride} AS file_id,
                                                  f.path || '#' || c.i AS path)
            FROM files f, (SELECT DISTINCT i FROM copy_of) c""",
        "hands": f"""
            INSERT INTO hands SELECT h.* REPLACE (
                m.new_key AS hand_key, lpad(m.i::VARCHAR, 3, '0') || h.hand_id AS hand_id,
                h.started_at + m.i * INTERVAL 6 HOUR AS started_at,
                h.file_id + m.i * {stride} AS file_id, h.source || '#' || m.i AS source,
                CASE WHEN h.hero IS NOT NULL THEN '{HERO}' END AS hero)
            FROM hands h JOIN copy_of m USING (hand_key)""",
        "players": f"""
            INSERT INTO players SELECT p.* REPLACE (m.new_key AS hand_key,
                {rename.format(col="p.player")} AS player)
            FROM players p JOIN copy_of m USING (hand_key)""",
        "actions": f"""
            INSERT INTO actions SELECT a.* REPLACE (m.new_key AS hand_key,
                {rename.format(col="a.player")} AS player)
            FROM actions a JOIN copy_of m USING (hand_key)""",
        "cards": f"""
            INSERT INTO cards SELECT c.* REPLACE (m.new_key AS hand_key,
                {rename.format(col="c.player")} AS player)
            FROM cards c JOIN copy_of m USING (hand_key)""",
        "pots": f"""
            INSERT INTO pots SELECT p.* REPLACE (m.new_key AS hand_key,
                list_transform(p.eligible, lambda x: {rename.format(col="x")}) AS eligible,
                list_transform(p.winners, lambda x: {rename.format(col="x")}) AS winners)
            FROM pots p JOIN copy_of m USING (hand_key)""",
        "violations": """
            INSERT INTO violations SELECT v.* REPLACE (m.new_key AS hand_key)
            FROM violations v JOIN copy_of m USING (hand_key)""",
    }
    for table, statement in statements.items():
        con.execute(statement)
        print(f"  {table} copied ({time.perf_counter() - started:.0f} s)", flush=True)
    from razz.store import summaries

    summaries.rebuild(con)  # the importer keeps them; the copies were added in SQL
    print(f"  daily sums ({time.perf_counter() - started:.0f} s)", flush=True)
    con.execute("CHECKPOINT")
    (total,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
    con.close()
    print(f"store of {total:,} hands, {db.stat().st_size / 1e9:.1f} GB, built in "
          f"{time.perf_counter() - started:.0f} s", flush=True)


# ------------------------------------------------------------------------------ timing


def _page_run(page: str, query: dict[str, str], db: Path) -> float:
    """One AppTest run of a page (the app script, then the page), in seconds."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=600)
    # AppTest finds a page by name only once the app has run: run it first on no database
    # (a message, nothing read), then open the page on the store, as a link to it does.
    os.environ["RAZZ_DASHBOARD_DB"] = str(db) + ".none"
    at.run()
    os.environ["RAZZ_DASHBOARD_DB"] = str(db)
    at.switch_page(f"views/{page}.py")
    if query:
        at.query_params.update(query)
    started = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"{page}: {[e.value for e in at.exception]}")
    if [t.value for t in at.title][:1] != [TITLES[page]]:
        raise RuntimeError(f"{page}: the page run was {[t.value for t in at.title]}")
    return elapsed


def worker(db: Path, rounds: int, pages: list[Page], first_only: bool) -> dict:
    """In a fresh process: with `first_only`, each page's first load (one page per process,
    as the first page a new server shows); else rounds of new-filter and warm loads."""
    os.environ["RAZZ_DASHBOARD_DB"] = str(db)
    os.environ["RAZZ_DASHBOARD_ALLOW_IMPORT"] = "1"
    import logging
    import warnings

    warnings.filterwarnings("ignore")
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    import duckdb
    from streamlit.testing.v1 import AppTest

    from razz.dashboard import data

    del AppTest  # imported as the server has it before the first page
    times: dict[str, dict[str, list[float]]] = {name: {"first": [], "new": [], "warm": []}
                                                for name, _, _ in pages}
    baseline: list[float] = []

    def scan() -> None:
        with duckdb.connect(str(db), read_only=True) as con:
            started = time.perf_counter()
            con.execute("SELECT count(*), sum(net) FROM players").fetchall()
            baseline.append(time.perf_counter() - started)

    if first_only:
        for name, page, query in pages:
            times[name]["first"].append(_page_run(page, query, db))
        return {"times": times, "baseline": baseline}
    for _ in range(rounds):
        scan()
        for name, page, query in pages:
            data.forget_cached_results()
            times[name]["new"].append(_page_run(page, query, db))
            data.release()
            times[name]["warm"].append(_page_run(page, query, db))
            data.release()
    return {"times": times, "baseline": baseline}


def _in_process(db: Path, rounds: int, pages: list[Page], first_only: bool) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--db", str(db), "--rounds", str(rounds),
         "--worker", json.dumps({"pages": pages, "first_only": first_only})],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    if done.returncode != 0:
        raise SystemExit(f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def replayer_hand(db: Path) -> tuple[str, str]:
    """A hand of the copies with a showdown and a finding, and a line in its middle."""
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        # Two queries: a subquery per hand in the first would read the actions of every hand.
        found = con.execute(
            f"""
            SELECT hand_key FROM hands WHERE showdown AND findings = 0 AND hero = '{HERO}'
            ORDER BY started_at DESC LIMIT 1
            """
        ).fetchone()
        assert found is not None
        line = con.execute("SELECT line FROM actions WHERE hand_key = ? ORDER BY seq "
                           "LIMIT 1 OFFSET 12", [found[0]]).fetchone()
    assert line is not None
    return str(found[0]), str(line[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, help="the store to time (built when missing)")
    parser.add_argument("--keep", action="store_true", help="keep the store that was built")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        job = json.loads(args.worker)
        pages = [(n, p, q) for n, p, q in job["pages"]]
        print(json.dumps(worker(args.db, args.rounds, pages, job["first_only"])))
        return 0
    work = Path(tempfile.mkdtemp(prefix="razz-dashboard-bench-"))
    db = args.db or work / "razz.duckdb"
    if not db.exists():
        build(db, args.hands)
    key, line = replayer_hand(db)
    pages = [(n, p, ({"hand": key, "line": line} if p == "replayer" else q))
             for n, p, q in PAGES]
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        (count,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
        (mine,) = con.execute("SELECT count(*) FROM players WHERE player = ?",
                              [HERO]).fetchone() or (0,)
    load = os.getloadavg()
    print(f"store {db}: {count:,} hands, {mine:,} of them {HERO}'s; load average "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores", flush=True)
    first: dict[str, list[float]] = {name: [] for name, _, _ in pages}
    for _ in range(args.rounds):  # rounds of fresh processes, pages interleaved
        for page in pages:
            first[page[0]] += _in_process(db, 1, [page], True)["times"][page[0]]["first"]
    result = _in_process(db, args.rounds, pages, False)
    base = statistics.median(result["baseline"])
    print(f"\nbaseline (full scan of players): {base * 1000:.0f} ms\n")
    print(f"{'page':<20} {'first load':>11} {'warm':>8} {'new filters':>12}   "
          "warm/baseline  new/baseline")
    slow = []
    for name, times in result["times"].items():
        first_load = statistics.median(first[name])
        warm = statistics.median(times["warm"])
        new = statistics.median(times["new"])
        over = []
        if warm >= WARM_TARGET:
            over.append("OVER 1 s warm")
        if first_load >= FIRST_TARGET:
            over.append("OVER 3 s first")
        slow += over
        print(f"{name:<20} {first_load:>10.2f}s {warm:>7.2f}s {new:>11.2f}s   "
              f"{warm / base:>12.1f}x {new / base:>12.1f}x  {' '.join(over)}")
    print(f"\nload average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.db is None and not args.keep:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    elif args.db is None:
        print(f"kept {db}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
