"""Time every dashboard page's queries on a store of 100,000 simulated hands.

    python benchmarks/dashboard.py [--hands 100000] [--db FILE] [--keep]

Simulates the hands with `razz simulate`, imports them with `razz import` (skipped when `--db`
names an existing store), then, for each page, runs the queries that page makes with its
default filters, cold (no cached result), three times, and prints the slowest run. The
target is under one second per page.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

TARGET_SECONDS = 1.0


def build(db: Path, hands: int, folder: Path) -> None:
    """Simulate `hands` hands into `folder` and import them into `db` with the real commands."""
    razz = [sys.executable, "-m", "razz"]
    started = time.perf_counter()
    subprocess.run([*razz, "simulate", "--hands", str(hands), "--seed", "1", "--out",
                    str(folder)], check=True)
    print(f"simulated {hands:,} hands in {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    done = subprocess.run([*razz, "import", "--db", str(db), "--progress", "none", str(folder)],
                          check=False)
    if done.returncode not in (0, 1):  # 1: some hands broke a rule, which is data
        raise SystemExit(f"razz import failed with exit code {done.returncode}")
    print(f"imported in {time.perf_counter() - started:.1f} s", flush=True)


def pages() -> dict[str, Callable[[], object]]:
    """Each page's data, loaded the way the page loads it with its default filters."""
    from razz.dashboard import data, shape

    def player_filters() -> tuple[str, data.HandFilter]:
        hero = str(data.players()["player"].iloc[0])
        ledgers = data.ledgers(hero)
        unit, currency = ledgers.iloc[0]["unit"], ledgers.iloc[0]["currency"]
        currency = None if currency is None or currency != currency else str(currency)
        data.filter_choices(hero, str(unit), currency)
        return hero, data.HandFilter(unit=str(unit), currency=currency)

    def sessions() -> None:
        hero, hands = player_filters()
        shape.cumulative(data.player_hands(hero, hands))
        data.sessions(hero, 30, hands)

    def players() -> None:
        hero, hands = player_filters()
        data.player_stats(hands, 1, hero)
        data.stat_hands(hero, "vpip", True, hands)

    def starting_hands() -> None:
        hero, hands = player_filters()
        combos = data.starting_hands(hero, hands)
        table = shape.starting_hand_table(combos, by_group=False)
        shape.starting_hand_table(combos, by_group=True)
        data.starting_hand_hands(hero, table["combos"].iloc[0], hands)

    def replayer() -> None:
        latest = data.latest_hands()
        key = str(latest["hand_key"].iloc[len(latest) // 2])
        data.find_hands(str(latest["hand_id"].iloc[0])[:6])
        data.hand(key)
        seats, actions, cards = data.hand_players(key), data.hand_actions(key), data.hand_cards(key)
        findings = data.hand_findings(key)
        data.hand_pots(key)
        shape.actions_with_findings(actions, findings)
        for street in shape.STREETS[: shape.STREETS.index(shape.last_street(actions, cards)) + 1]:
            shape.street_table(seats, cards, actions, street, True)

    def audit() -> None:
        data.overview()
        data.audit_choices()
        everything = data.AuditFilter()
        data.audit_summary(everything)
        data.findings_by_rule(everything)
        for group in ("file", "table", "date"):
            data.compliance_by(group, everything)
        data.rejects_list()
        data.findings_list(everything)

    def importer() -> None:
        prefix = str(Path(data.database_path()).resolve().parent / "uploads") + os.sep
        data.imported_files(prefix)
        data.imported_rejects(prefix)
        data.imported_skipped(prefix)

    return {"Sessions": sessions, "Player statistics": players,
            "Starting hands": starting_hands, "Hand replayer": replayer, "Audit": audit,
            "Import": importer}


def measure(db: Path, runs: int = 3) -> dict[str, float]:
    """The slowest of `runs` cold loads of each page's data, in seconds."""
    os.environ["RAZZ_DASHBOARD_DB"] = str(db)
    from razz.dashboard import data

    timings: dict[str, float] = {}
    for name, load in pages().items():
        worst = 0.0
        for _ in range(runs):
            data.forget_cached_results()
            data.release()  # as between two reruns: the connection is opened again
            started = time.perf_counter()
            load()
            worst = max(worst, time.perf_counter() - started)
        timings[name] = worst
    data.release()
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="an existing store to time (nothing is built)")
    parser.add_argument("--keep", action="store_true", help="keep the simulated files and store")
    args = parser.parse_args()
    # Outside `streamlit run` the caches warn that there is no session: expected here.
    warnings.filterwarnings("ignore")
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    work: Path | None = None
    db = args.db
    if db is None or not db.exists():
        work = Path(tempfile.mkdtemp(prefix="razz-dashboard-bench-"))
        db = db or work / "razz.duckdb"
        build(db, args.hands, work / "histories")
    timings = measure(db)
    print(f"\n{'page':<20} {'seconds':>8}   (store: {db})")
    for name, seconds in timings.items():
        print(f"{name:<20} {seconds:>8.3f}{'' if seconds < TARGET_SECONDS else '  OVER 1 s'}")
    if work is not None and not args.keep:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(s < TARGET_SECONDS for s in timings.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
