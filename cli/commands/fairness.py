"""`razz fairness PATH…|--db FILE`: do the deals these hand histories show look like a fair shuffle?

    razz fairness sample_histories/
    razz fairness --db razz.duckdb --site PokerStars --from 2024-01-01 --format json

Tests the cards the logs show (door cards by rank, suit and seat, the bring-in's seat, the
seat of the lowest later card, the suits of every card shown, the hero's starting hands and
their streaks) against what a fair deal implies, corrects the p-values for testing many things
at once, lists hands that repeat a card and says what each test can and cannot show. Files
are read into a temporary store first: the same counts, in the same SQL, as `--db`.
Exit status: 0 no alarm, 1 at least one alarm, 2 usage or I/O errors.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

    from razz.analysis.fairness import FairnessReport, Scope

EXIT_OK, EXIT_ALARM, EXIT_USAGE = 0, 1, 2


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a day as YYYY-MM-DD: {text!r}") from None


def _alpha(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="hand-history files, folders, globs or .zip archives (or --db)")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="report on the hands of this DuckDB store instead of files")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default), json: one object")
    parser.add_argument("--alpha", type=_alpha, default=None, metavar="LEVEL",
                        help="alarm when a corrected p-value is at most LEVEL (default 0.01)")
    parser.add_argument("--correction", choices=("bh", "bonferroni"), default="bh",
                        help="for testing many things at once: Benjamini–Hochberg (false "
                        "discovery rate, default) or Bonferroni (any false alarm)")
    parser.add_argument("--site", default=None, help="only this site's hands")
    parser.add_argument("--kind", choices=("cash", "tournament"), default=None,
                        help="only cash games, or only tournaments")
    parser.add_argument("--stakes", default=None, help="only these stakes, as the store writes "
                        "them (e.g. '$1/$2')")
    parser.add_argument("--table", default=None, help="only this table's hands")
    parser.add_argument("--from", dest="date_from", type=_day, default=None, metavar="DAY",
                        help="first day (UTC, YYYY-MM-DD)")
    parser.add_argument("--to", dest="date_to", type=_day, default=None, metavar="DAY",
                        help="last day (UTC, YYYY-MM-DD)")


def run(args: argparse.Namespace) -> int:
    from razz.analysis.fairness import ALPHA, Scope
    from razz.store import db as store_db

    if bool(args.paths) == bool(args.db):
        print("razz fairness: give hand-history PATHs or --db FILE (one of them)",
              file=sys.stderr)
        return EXIT_USAGE
    scope = Scope(site=args.site, kind=args.kind, stakes=args.stakes, table=args.table,
                  date_from=args.date_from, date_to=args.date_to)
    alpha = ALPHA if args.alpha is None else args.alpha
    try:
        if args.db:
            with store_db.read_connection(
                    Path(args.db), on_wait=lambda m: print(m, file=sys.stderr)) as con:
                report = _report(con, scope, alpha, args.correction)
        else:
            with tempfile.TemporaryDirectory(prefix="razz-fairness-") as folder:
                db = Path(folder) / "hands.duckdb"
                if not store_paths(args.paths, db):
                    return EXIT_USAGE
                with store_db.read_connection(db) as con:
                    _print_rejects(con)
                    report = _report(con, scope, alpha, args.correction)
    except store_db.StoreError as exc:
        print(f"razz fairness: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        json.dump(report.to_json(), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        from razz.analysis.fairness_text import report_text

        sys.stdout.write(report_text(report))
    return EXIT_ALARM if report.alarms else EXIT_OK


def store_paths(paths: list[str], db: Path) -> bool:
    """Read hand histories into a new store at `db` (the project's one reading pipeline);
    print each file that could not be read. False when nothing could be read at all."""
    from razz.store.importer import import_paths

    summary = import_paths(paths, db)
    for problem in summary.problems:
        print(f"razz fairness: {problem}", file=sys.stderr)
    if not summary.files or summary.files_failed >= summary.files:
        print("razz fairness: no hand history could be read", file=sys.stderr)
        return False
    return True


def _report(con: duckdb.DuckDBPyConnection, scope: Scope, alpha: float,
            correction: str) -> FairnessReport:
    from razz.analysis.fairness import duckdb_fetch, fairness_report

    return fairness_report(duckdb_fetch(con), scope, alpha, correction)


def _print_rejects(con: duckdb.DuckDBPyConnection) -> None:
    """Every hand that could not be read or replayed: one line each, on standard error."""
    rows = con.execute(
        "SELECT source, line, error FROM rejects ORDER BY source, line").fetchall()
    for source, line, error in rows:
        print(f"{source}:{line}: {error} (hand left out of the report)", file=sys.stderr)
