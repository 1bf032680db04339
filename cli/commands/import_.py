"""`razz import PATH... [--db FILE] [--ruleset NAME]` and `razz import --watch DIR`.

Exit status: 0 when every hand was stored (or already was), 1 when some hand was rejected,
2 when a path named nothing, the database could not be opened, or the options were wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from razz.text import safe

if TYPE_CHECKING:
    from razz.store.progress import Progress

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH",
        help="hand-history files, folders (searched recursively for .txt and .zip), "
        "globs (quote them) and .zip archives",
    )
    parser.add_argument(
        "--db", metavar="FILE", default=None,
        help="DuckDB file to import into (default: $RAZZ_DB, else razz.duckdb here)",
    )
    parser.add_argument(
        "--ruleset", metavar="NAME", default=None,
        help="rules to audit the hands against (default: each hand's site's; pokerstars for"
        " PokerStars)",
    )
    parser.add_argument(
        "--watch", metavar="DIR", default=None,
        help="keep importing new hands written to DIR until Ctrl-C",
    )
    parser.add_argument(
        "--interval", type=float, default=1.0, metavar="SECONDS",
        help="with --watch: how often to look for new hands (default 1)",
    )
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N",
        help="worker processes (default: one per core; 0: parse in this process)",
    )
    parser.add_argument(
        "--batch-hands", type=_positive_int, default=None, metavar="N",
        help="commit every N hands (default 5000), or sooner: see --batch-seconds",
    )
    parser.add_argument(
        "--batch-seconds", type=float, default=None, metavar="SECONDS",
        help="commit the hands read when the first of them was read SECONDS ago (default 5),"
        " and at once when no more are coming (the end of the files, an idle --watch)",
    )
    parser.add_argument(
        "--progress", choices=("auto", "bar", "lines", "none"), default="auto",
        help="progress display (default: a bar on a terminal, plain lines otherwise)",
    )


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run(args: argparse.Namespace) -> int:
    from razz.replay.ruleset import get_ruleset
    from razz.store import db as store_db
    from razz.store.importer import ImportInterrupted, Settings, import_paths
    from razz.store.watch import watch

    if not args.paths and not args.watch:
        print("razz import: give at least one PATH, or --watch DIR", file=sys.stderr)
        return EXIT_USAGE
    if args.paths and args.watch:
        print("razz import: --watch DIR takes no other PATH", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.ruleset is not None:
            get_ruleset(args.ruleset)
    except KeyError as exc:
        print(f"razz import: {exc.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    if args.watch and not Path(args.watch).is_dir():
        print(f"razz import: --watch needs a folder; {args.watch} is not one", file=sys.stderr)
        return EXIT_USAGE
    db = Path(args.db) if args.db else store_db.default_db_path()
    try:
        store_db.check_writable(db)
    except store_db.StoreError as exc:
        print(f"razz import: {exc}", file=sys.stderr)
        return EXIT_USAGE
    progress = _progress(args.progress)
    _stop_on_terminate()
    batches = {name: getattr(args, name) for name in ("batch_hands", "batch_seconds")
               if getattr(args, name) is not None}  # else Settings' defaults, as --help says
    settings = Settings(ruleset=args.ruleset, workers=args.workers, **batches)
    try:
        if args.watch:
            progress.note(f"watching {args.watch} (Ctrl-C to stop)")
            summary = watch(
                args.watch, db, settings=settings, progress=progress, interval=args.interval
            )
            progress.finish(summary)
        else:
            summary = import_paths(args.paths, db, settings=settings, progress=progress)
    except ImportInterrupted as stopped:
        progress.finish(stopped.summary)
        return EXIT_INTERRUPTED
    except store_db.StoreError as exc:
        print(f"razz import: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if summary.problems and not args.watch:
        return EXIT_USAGE
    if not args.watch and summary.files == len(summary.no_hands):
        # Every file found was empty or no hand history, or none was found at all.
        print(safe(f"razz import: nothing readable in {' '.join(args.paths)}: no hand history "
                   "found"), file=sys.stderr)
        return EXIT_REJECTED
    return EXIT_REJECTED if summary.rejected or summary.not_histories else EXIT_OK


def _stop_on_terminate() -> None:
    """SIGTERM and SIGHUP stop an import as Ctrl-C does: the workers are stopped and what was
    read is committed (a watch ends with status 0)."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        # A signal the parent ignores stays ignored: `nohup razz import --watch` must outlive
        # its terminal.
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, stop)


def _progress(choice: str) -> Progress:
    from razz.store import progress

    if choice == "bar":
        return progress.BarProgress()
    if choice == "lines":
        return progress.LineProgress(out=sys.stdout)
    if choice == "none":
        return progress.SummaryOnly()
    return progress.for_stream()
